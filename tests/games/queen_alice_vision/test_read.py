"""The reader against the renderer's answer key, stage by stage and whole boards."""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pytest

from companion.errors import UserError
from companion.games.queen_alice.vision import read as read_module
from companion.games.queen_alice.vision.geometry import geometry_from_toml, load_geometry
from companion.games.queen_alice.vision.read import (
    ALONE,
    ARM_LEARN_MAX,
    ARM_MARGIN,
    ARM_SPLIT,
    BUSY_PRINT,
    CROWN_APART,
    CROWN_REF_ALIKE,
    CROWN_REF_GAP,
    CROWN_REF_MIN,
    CROWN_STANDS,
    CUT_CLEAN,
    CUT_CLEAR,
    CUT_SIDE,
    CUT_WRONG,
    FAR_OUT,
    FLAT_OUT,
    IN_COLOUR_EDGES,
    IN_COLOUR_OUT,
    KIN_ALIKE,
    NEAR,
    NEAR_BUSY,
    NEAR_CLEAR,
    NEAR_FAR,
    ONE_NEAR,
    ONE_TOLD,
    OUTLINED,
    PIECE_HUE,
    QUIET_OUT,
    QUIET_UNLIKE,
    REDDER,
    SHARE,
    SHARED_FLAT,
    STEPPED,
    STRUCTURE,
    STRUCTURE_OUT,
    UNTOLD_HUE,
    Arm,
    Arms,
    PathCalls,
    SideColours,
    SpotColours,
    alice_by_centres,
    arm_squares,
    at_most,
    board_tone,
    busy_for_its_print,
    classify,
    crown_reference,
    crowns_apart,
    crowns_standing,
    cut_by_a_line,
    hue_outside,
    learnt_without,
    locate,
    lone_squares,
    looks_like_light,
    median_along,
    medians_of,
    middles_alike,
    norm_along,
    not_by_structure,
    one_print_scale,
    outlined_runs,
    percentile_along,
    piece_colours,
    print_middles,
    print_scale,
    quiet_pieces,
    read_board,
    runs_of,
    sample_squares,
    shared_looks,
    shared_pieces,
    shares,
    sides_hidden,
    split_run,
    structure_unsure,
    told_squares,
    two_centres,
    two_means,
    unlike_the_path,
)
from companion.games.queen_alice.vision.reading import BoardReading
from companion.games.queen_alice.vision.render import (
    Conditions,
    Photo,
    Wider,
    random_wider,
    render_photo,
)
from companion.paths import models_dir
from companion.vision.board_markers import board_markers
from companion.vision.markers import detect_markers

GEOM = load_geometry()


def _boxes(seed: int, kind: Callable[[Wider | None], bool], count: int = 4) -> list[Photo]:
    """The first boards of `seed` with no arm over them whose box's wider style
    (`random_wider`) is of this kind (development seeds)."""
    out: list[Photo] = []
    i = 0
    while len(out) < count:
        if kind(random_wider([seed, i])):
            out.append(render_photo(GEOM, (seed, i), Conditions(hands=0)))
        i += 1
    return out


@pytest.fixture(scope="module")
def clear_photos() -> list[Photo]:
    """House-style boxes with no arm over them (development seeds)."""
    return _boxes(71, lambda wide: wide is None)


def test_the_pose_puts_the_camera_over_the_board(clear_photos: list[Photo]) -> None:
    for photo in clear_photos:
        where = locate(photo.image, GEOM)
        assert where is not None
        cam = photo.camera.C
        assert np.hypot(where.nadir_mm[0] - cam[0], where.nadir_mm[1] - cam[1]) < 25


def test_a_picture_alone_has_the_full_size_searchs_marker_corners(
    clear_photos: list[Photo],
) -> None:
    """`locate` finds a picture's markers at half size and searches full size only in
    windows round them (`board_markers`); the reader's thresholds were chosen on the
    full-size search's corners, so the windows must give exactly those."""
    wanted = {m.id for m in GEOM.markers}
    for photo in clear_photos:
        whole = {i: m for i, m in detect_markers(photo.image).items() if i in wanted}
        found = board_markers(photo.image, GEOM, full_size_corners=True)
        assert sorted(found) == sorted(whole) == sorted(wanted)
        for i, m in whole.items():
            assert np.abs(found[i].corners - m.corners).max() < 1e-3


def test_squares_read_like_the_answer_key(clear_photos: list[Photo]) -> None:
    """Every square is read right or asked about; never a piece where none stands, never
    the wrong colour, hardly ever a piece missed, and few questions."""
    right = total = phantoms = wrong_colour = missed = pieces = 0
    for photo in clear_photos:
        reading = read_board(photo.image, geom=GEOM)
        for cell in GEOM.cells:
            want = photo.position.squares.get(cell, "empty")
            got = "unsure" if cell in reading.unsure else reading.squares.get(cell, "empty")
            right += got == want
            phantoms += want == "empty" and got in ("red", "white")
            wrong_colour += want in ("red", "white") and got in ("red", "white") and got != want
            missed += want in ("red", "white") and got == "empty"
            pieces += want in ("red", "white")
            total += 1
    assert phantoms == 0 and wrong_colour == 0
    # a piece missed is doubt to the tracker (it asks), not a breach; still rare
    assert missed <= 0.06 * pieces
    assert right / total >= 0.9


def test_a_panel_in_every_square_gives_no_phantom_and_no_wrong_colour() -> None:
    """Boxes whose squares have a panel of another tint inside their border (and whatever
    else the wider style drew: vivid prints, icons, other shades, a lamp's colour): the
    middle is unlike the print beside on every square, yet whatever is missed or asked,
    no piece is read where none stands and none in the wrong colour."""
    for photo in _boxes(73, lambda wide: wide is not None and wide.panel is not None):
        reading = read_board(photo.image, geom=GEOM)
        for cell, got in reading.squares.items():
            assert photo.position.squares.get(cell) == got, (cell, photo.design["wider"])


def test_whole_readings_count_crowns_and_find_alice(clear_photos: list[Photo]) -> None:
    readings = [read_board(p.image, geom=GEOM) for p in clear_photos]
    crowns = sum(
        r.crowns_left == p.truth.crowns_left for r, p in zip(readings, clear_photos, strict=True)
    )
    alice = sum(r.alice == p.truth.alice for r, p in zip(readings, clear_photos, strict=True))
    assert crowns >= 3 and alice >= 3


def test_no_markers_is_no_board() -> None:
    blank = np.full((960, 1280, 3), 128, np.uint8)
    reading = read_board(blank, geom=GEOM)
    assert not reading.board_found and reading.squares == {}
    assert "markers" in reading.warnings[0]


def test_an_arm_is_never_read_as_a_piece() -> None:
    """Over squares an arm hides, the reader abstains or is right: no invented piece."""
    phantoms = 0
    hidden = 0
    for i in range(3):
        photo = render_photo(GEOM, (72, i), Conditions(hands=2))
        reading = read_board(photo.image, geom=GEOM)
        for cell in photo.truth.unsure:
            hidden += 1
            got = reading.squares.get(cell)
            phantoms += got is not None and photo.position.squares.get(cell) != got
    assert hidden > 0
    assert phantoms == 0


def test_reading_json_round_trip() -> None:
    reading = BoardReading(
        {(1, 2): "red", (0, 0): "white"},
        frozenset({(3, 3)}),
        4,
        {"red": 2, "white": None},
        {(1, 2): 0.9},
        ("unsure: square [3, 3] (an arm over it)",),
    )
    back = BoardReading.from_json(reading.to_json("x.jpg"))
    assert back.squares == reading.squares and back.unsure == reading.unsure
    assert back.crowns_left == 4 and back.alice == {"red": 2, "white": None}


def test_on_a_light_printed_path_alice_is_the_space_unlike_the_rest() -> None:
    """Every space of a light grey path reads white against the darker ground round it;
    the token is the one space whose middle differs from the path's own print."""
    spaces, pixels = 11, 20
    middle = np.zeros((spaces, pixels, 3))
    middle[:] = (70.0, 0.0, 2.0)  # the grey print of every space
    middle[6] = (95.0, 1.0, -1.0)  # the white token
    middle[3, :5] = (95.0, 0.0, 0.0)  # a glint on one space: a few pixels, not most
    beside = np.zeros((spaces, 4, 3))
    beside[:] = (40.0, 5.0, 10.0)  # the darker ground round every space
    colours = SpotColours(middle, beside)
    assert [c for c, _ in classify(colours)].count("white") == spaces
    assert np.flatnonzero(unlike_the_path(colours)).tolist() == [6]


def _board(
    pieces: dict[int, tuple[float, float, float]],
    busy: set[int],
    smooth: frozenset[int] = frozenset(),
) -> SpotColours:
    """Twenty squares of one grey print; `pieces` put a colour in a square's middle and
    `busy` squares have a far wider disc spread than the print's, with sharp steps in it
    (an outline) unless `smooth` (a glare's slope)."""
    middle = np.zeros((20, 12, 3))
    middle[:] = (60.0, 0.0, 4.0)
    for k, lab in pieces.items():
        middle[k] = lab
    spread = np.full(20, 2.5, np.float32)
    spread[list(busy)] = 12.0
    edges = np.full(20, 3.0, np.float32)
    edges[list(busy - smooth)] = 15.0
    return SpotColours(middle, np.zeros((20, 4, 3)), spread, edges)


RED, WHITE = (30.0, 45.0, 20.0), (80.0, 0.0, 6.0)
PALE = (64.0, 0.0, 5.0)
"""A pale white in the shade of the print: its colours pass for the print."""


def test_a_square_far_busier_than_the_board_is_a_piece_of_its_nearer_colour() -> None:
    colours = _board({0: RED, 1: RED, 2: WHITE, 3: WHITE, 4: PALE}, busy={0, 1, 2, 3, 4})
    calls = [("red", 1.0)] * 2 + [("white", 1.0)] * 2 + [("empty", 1.0)] * 16
    out = piece_colours(calls, colours, skip=set())
    assert out[4][0] == "white"
    assert [v for v, _ in out[5:]] == ["empty"] * 15  # the quiet squares stay empty
    # beside an arm it is asked about, and a square the arm itself covers keeps its call
    assert piece_colours(calls, colours, skip=set(), ask={4})[4][0] == "unsure"
    assert piece_colours(calls, colours, skip={4})[4][0] == "empty"
    # ... unless it stands alone among squares the colours tell: a piece, not an arm's edge
    assert piece_colours(calls, colours, skip=set(), ask={4}, lone={4})[4][0] == "white"


def test_a_piece_in_its_print_s_colours_busier_than_the_print_is_asked_not_read_empty() -> None:
    """A square the reader leaves empty that is busier than its print (`QUIET_OUT`), whose
    middle is unlike that print (`QUIET_UNLIKE`) and of one of the board's piece colours, is
    asked about; the same square as flat as its print, or with its print's middle, or of
    neither piece colour, or under an arm (`skip`), stays empty."""
    grey = (60.0, 0.0, 4.0)
    busy = QUIET_OUT * 2.5 + 0.5
    colours = _board({0: RED, 1: RED, 2: WHITE, 3: WHITE, 4: RED, 6: RED}, busy=set())
    beside = np.zeros((20, 4, 3))
    beside[:] = grey
    spread = np.full(20, 2.5, np.float32)
    spread[[4, 5, 7]] = busy  # 5: the print's own middle; 7: a green, neither colour
    middle = colours.middle.copy()
    middle[7] = (60.0, -40.0, 30.0)
    colours = replace(colours, middle=middle, beside=beside, structure=spread)
    calls = [("red", 1.0)] * 2 + [("white", 1.0)] * 2 + [("empty", 1.0)] * 16
    scale = np.full(20, 2.5, np.float32)
    assert float(np.linalg.norm(np.subtract(RED, grey))) >= QUIET_UNLIKE
    out = quiet_pieces(calls, calls, colours, set(), scale)
    assert out[4] == ("unsure", 0.0)
    assert [out[k][0] for k in (5, 6, 7)] == ["empty"] * 3  # print, flat, neither colour
    assert out[:4] == calls[:4]
    assert quiet_pieces(calls, calls, colours, {4}, scale)[4][0] == "empty"


def test_a_piece_in_shadow_clear_of_arms_is_read_but_beside_an_arm_asked() -> None:
    """A white in a shadow: its colour at another lightness, farther from the board's white
    than `NEAR` but within `NEAR_CLEAR`. Clear of anything that might be an arm it is that
    white; beside one (even standing alone) `NEAR` holds, as for an arm's shadow."""
    assert NEAR_CLEAR > NEAR
    whites = 6  # the shadowed square pulls the white centre toward it by 1 / (whites + 1)
    gap = (NEAR + NEAR_CLEAR) / 2 * (whites + 1) / whites  # its distance after that pull
    shadowed = (WHITE[0] - 2 * gap, WHITE[1], WHITE[2])  # `board_tone` halves lightness
    pieces = {0: RED, 1: RED, **{k: WHITE for k in range(2, 2 + whites)}, 8: shadowed}
    colours = _board(pieces, busy=set(range(9)))
    calls = [("red", 1.0)] * 2 + [("white", 1.0)] * whites + [("empty", 1.0)] * 12
    assert piece_colours(calls, colours, skip=set())[8][0] == "white"
    assert piece_colours(calls, colours, skip=set(), ask={8}, lone={8})[8][0] == "unsure"
    # a darker shade still, past `NEAR_CLEAR`, is not guessed
    far = (WHITE[0] - 2 * (NEAR_CLEAR + 2) * (whites + 1) / whites, WHITE[1], WHITE[2])
    colours = _board({**pieces, 8: far}, busy=set(range(9)))
    assert piece_colours(calls, colours, skip=set())[8][0] == "unsure"


def test_a_piece_far_busier_than_the_board_clear_of_arms_takes_a_farther_colour() -> None:
    """A glossy or tall piece's shaded side lies far from its colour's centre: a
    square standing out `FAR_OUT` times the board's median square, clear of any might-be
    arm, is read past `NEAR_CLEAR` but within `NEAR_FAR`; one standing out only as far as
    `STANDS_OUT`, the same colour, is not, nor is it beside an arm, nor past `NEAR_FAR`."""
    assert NEAR_FAR > NEAR_CLEAR
    whites = 6
    gap = (NEAR_CLEAR + NEAR_FAR) / 2 * (whites + 1) / whites  # after its pull on the centre
    shaded = (WHITE[0] - 2 * gap, WHITE[1], WHITE[2])  # `board_tone` halves lightness
    pieces = {0: RED, 1: RED, **{k: WHITE for k in range(2, 2 + whites)}, 8: shaded}
    colours = _board(pieces, busy=set(range(9)))
    assert colours.structure is not None
    calls = [("red", 1.0)] * 2 + [("white", 1.0)] * whites + [("empty", 1.0)] * 12
    median = float(np.median(colours.structure))
    assert colours.structure[8] < FAR_OUT * median  # standing out, not far
    assert piece_colours(calls, colours, skip=set())[8][0] == "unsure"
    colours.structure[8] = 1.2 * FAR_OUT * median
    assert piece_colours(calls, colours, skip=set())[8][0] == "white"
    assert piece_colours(calls, colours, skip=set(), ask={8}, lone={8})[8][0] == "unsure"
    far = (WHITE[0] - 2 * (NEAR_FAR + 2) * (whites + 1) / whites, WHITE[1], WHITE[2])
    colours = _board({**pieces, 8: far}, busy=set(range(9)))
    assert colours.structure is not None
    colours.structure[8] = 1.2 * FAR_OUT * median
    assert piece_colours(calls, colours, skip=set())[8][0] == "unsure"


def test_on_a_board_with_one_colour_in_view_a_found_piece_near_it_takes_it() -> None:
    """No red in view, so no two colours (`two_centres` None): a square standing out within
    `ONE_NEAR` of the whites the colours tell is white; one farther (the print's own grey,
    busy) is asked about, and so is the near one beside an arm, on a board with fewer than
    `ONE_TOLD` whites told, with white and red told, or with the rule off."""
    whites = 3
    near = (WHITE[0] - ONE_NEAR, WHITE[1], WHITE[2])  # `board_tone`: ONE_NEAR / 2 away
    print_grey = (WHITE[0] - 2 * ONE_NEAR - 4, WHITE[1], WHITE[2])  # past ONE_NEAR
    pieces = {**{k: WHITE for k in range(whites)}, 4: near, 5: print_grey}
    colours = _board(pieces, busy={0, 1, 2, 4, 5})
    calls = [("white", 1.0)] * whites + [("empty", 1.0)] * (20 - whites)
    out = piece_colours(calls, colours, skip=set())
    assert out[4][0] == "white" and out[5][0] == "unsure"
    assert [v for v, _ in out[6:]] == ["empty"] * 14
    assert piece_colours(calls, colours, skip=set(), ask={4}, lone={4})[4][0] == "unsure"
    few = [("white", 1.0)] * (ONE_TOLD - 1) + [("empty", 1.0)] * (21 - ONE_TOLD)
    assert piece_colours(few, colours, skip=set())[4][0] == "unsure"
    both = [("red", 1.0), *calls[1:]]  # a red told too: not one colour
    assert piece_colours(both, colours, skip=set())[4][0] == "unsure"


def test_one_colour_rule_off_at_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    """`ONE_NEAR` 0 (the curve's "never"): a board with one colour in view asks as before."""
    from companion.games.queen_alice.vision import read

    monkeypatch.setattr(read, "ONE_NEAR", 0.0)
    pieces = {0: WHITE, 1: WHITE, 2: WHITE, 4: WHITE}
    colours = _board(pieces, busy={0, 1, 2, 4})
    calls = [("white", 1.0)] * 3 + [("empty", 1.0)] * 17
    assert piece_colours(calls, colours, skip=set())[4][0] == "unsure"


def test_busy_print_of_another_hue_is_not_the_board_s_white() -> None:
    """Reds told, no white told, and three squares of a busy green print found by structure:
    two-means makes them the board's white, but no square the colours call white is behind
    that centre and its hue lies far past a white's (neutral or warm ivory, `UNTOLD_HUE`), so
    the board is read as one colour and they are asked about, not read white. Warm ivory
    whites found the same way, or greens with one told white behind them, stay a colour."""
    green = (60.0, -30.0, 10.0)
    ivory = (80.0, 6.0, 24.0)  # a white in warm light: the colours call it gold
    calls = [("red", 1.0)] * 2 + [("empty", 1.0)] * 18
    colours = _board({0: RED, 1: RED, 2: green, 3: green, 4: green}, busy={0, 1, 2, 3, 4})
    tone = board_tone(median_along(colours.middle, 1))
    assert two_means(tone[[0, 1, 2, 3, 4]]) is not None
    assert two_centres(calls, tone, [2, 3, 4]) is None
    assert [v for v, _ in piece_colours(calls, colours, skip=set())[2:5]] == ["unsure"] * 3
    told_white = [*calls[:2], ("white", 1.0), *calls[3:]]
    assert two_centres(told_white, tone, [3, 4]) is not None
    colours = _board({0: RED, 1: RED, 2: ivory, 3: ivory, 4: ivory}, busy={0, 1, 2, 3, 4})
    assert [v for v, _ in piece_colours(calls, colours, skip=set())[2:5]] == ["white"] * 3
    assert 0 < UNTOLD_HUE < 180


def test_busy_print_that_makes_the_white_centre_is_asked_on_a_board_with_no_white_told(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Reds told, no white told, four squares of a busy green print and one ivory white found
    by structure: the greens outnumber the white, so the white centre is theirs (its hue
    within `UNTOLD_HUE`) and they lie near it. With `PIECE_HUE` at its development value
    (20; off, inf, by default) each green's own hue lies past it outside a white's: asked,
    not read white (off, they are read white). With a white the colours tell on the board,
    the rule does not apply."""
    from companion.games.queen_alice.vision import read

    assert math.isinf(PIECE_HUE)  # off by default (the game's guide)
    monkeypatch.setattr(read, "PIECE_HUE", 20.0)
    green = (60.0, -25.0, 15.0)
    ivory = (80.0, 6.0, 24.0)
    pieces = {0: RED, 1: RED, 2: green, 3: green, 4: green, 5: green, 6: ivory}
    colours = _board(pieces, busy=set(range(7)))
    calls = [("red", 1.0)] * 2 + [("empty", 1.0)] * 18
    tone = board_tone(median_along(colours.middle, 1))
    assert two_centres(calls, tone, [2, 3, 4, 5, 6]) is not None
    assert hue_outside(tone[2], 1) > read.PIECE_HUE
    assert [v for v, _ in piece_colours(calls, colours, skip=set())[2:6]] == ["unsure"] * 4
    told_white = [*calls[:6], ("white", 1.0), *calls[7:]]
    assert [v for v, _ in piece_colours(told_white, colours, skip=set())[2:6]] == ["white"] * 4
    monkeypatch.setattr(read, "PIECE_HUE", math.inf)
    assert [v for v, _ in piece_colours(calls, colours, skip=set())[2:6]] == ["white"] * 4


def test_the_board_sets_the_scale_of_a_flat_print() -> None:
    """A busy print (an icon in every square) is busier than `STRUCTURE` on every square: a
    square the colours call empty is asked about only when it is also busier than the board's
    median square (`STRUCTURE_OUT`). A square the colours call a piece but flatter than
    the board's squares (`FLAT_OUT`) is print of a piece's tint, and asked about too."""
    n = 20
    structure = np.full(n, 2.0 * STRUCTURE, np.float32)
    structure[3] = 2.0 * STRUCTURE * STRUCTURE_OUT * 1.5  # something stands there
    structure[5] = 2.0 * STRUCTURE * FLAT_OUT * 0.5  # a flat white: the print
    structure[6] = 2.0 * STRUCTURE * 2.0  # a white with a rim
    calls = [("empty", 1.0)] * n
    calls[5] = calls[6] = ("white", 1.0)
    out = structure_unsure(calls, structure)
    assert [k for k, (v, _) in enumerate(out) if v == "unsure"] == [3, 5]
    assert out[6][0] == "white"
    known = np.zeros(n, bool)
    known[3] = known[5] = True  # decided by what changed on them instead
    assert all(v != "unsure" for v, _ in structure_unsure(calls, structure, known))
    # on a quiet print, busier than STRUCTURE is enough
    quiet = np.full(n, 0.5 * STRUCTURE, np.float32)
    quiet[3] = 1.2 * STRUCTURE
    empty = [("empty", 1.0)] * n
    assert [k for k, (v, _) in enumerate(structure_unsure(empty, quiet)) if v == "unsure"] == [3]


def test_a_square_is_lone_with_few_neighbours_the_colours_do_not_tell() -> None:
    """A run of unsure squares (an arm's edge or shadow) is not lone; a square with at
    most `ALONE` of its four neighbours unsure or gold is, whatever its diagonals."""
    cells = tuple((r, c) for r in range(3) for c in range(4))
    calls = [("empty", 1.0)] * len(cells)
    middle = cells.index((1, 1))
    for k in (cells.index((0, 1)), cells.index((1, 0)), cells.index((2, 2))):
        calls[k] = ("unsure", 0.0)
    around = [cells.index(c) for c in ((0, 1), (1, 0), (2, 1), (1, 2))]
    lone = lone_squares(cells, calls)
    assert ALONE < 2
    assert middle not in lone  # two of its four neighbours unsure
    calls[around[0]] = ("red", 1.0)
    assert middle in lone_squares(cells, calls)  # one left (the diagonal does not count)
    calls[around[0]] = ("gold", 1.0)
    assert middle not in lone_squares(cells, calls)  # gold is not told either
    assert cells.index((0, 3)) in lone  # a corner with its two neighbours told


def test_a_busier_square_of_a_piece_colour_is_that_piece_but_not_beside_an_arm() -> None:
    """A wide dark-red checker covers the strips beside it, so its colours pass for the
    print; it is only somewhat busier than the print, but its middle is the board's red.
    A square as busy in the print's own colour is print; beside an arm, it is not guessed."""
    colours = _board({0: RED, 1: RED, 2: WHITE, 3: WHITE, 4: RED}, busy={0, 1, 2, 3})
    assert colours.structure is not None and colours.edges is not None
    colours.structure[4:6] = 2.5 * IN_COLOUR_OUT  # twice the median square's 2.5 ...
    colours.edges[4:6] = 3.0 * IN_COLOUR_EDGES  # ... and sharper than its 3.0
    calls = [("red", 1.0)] * 2 + [("white", 1.0)] * 2 + [("empty", 1.0)] * 16
    out = piece_colours(calls, colours, skip=set())
    assert out[4][0] == "red"
    assert [v for v, _ in out[5:]] == ["empty"] * 15  # square 5 is as busy, in the print's colour
    assert piece_colours(calls, colours, skip=set(), ask={4})[4][0] == "empty"
    colours.edges[4] = 3.0 * IN_COLOUR_EDGES * 0.9  # a smooth change: no outline anywhere
    assert piece_colours(calls, colours, skip=set())[4][0] == "empty"


def test_a_busier_square_clear_of_arms_takes_its_colour_in_shade() -> None:
    """A white in shade, only somewhat busier than the print, is its colour at another
    lightness: past `NEAR` of the board's white but within `NEAR_CLEAR`, it is read white
    clear of any might-be arm (such a square is never among those asked about beside one)."""
    colours = _board({0: RED, 1: RED, 2: WHITE, 3: WHITE, 4: PALE}, busy={0, 1, 2, 3})
    assert colours.structure is not None and colours.edges is not None
    colours.structure[4] = 2.5 * IN_COLOUR_OUT
    colours.edges[4] = 3.0 * IN_COLOUR_EDGES
    gap = float(np.linalg.norm(board_tone(np.array(PALE)) - board_tone(np.array(WHITE))))
    assert NEAR < gap <= NEAR_CLEAR
    calls = [("red", 1.0)] * 2 + [("white", 1.0)] * 2 + [("empty", 1.0)] * 16
    assert piece_colours(calls, colours, skip=set())[4][0] == "white"
    assert piece_colours(calls, colours, skip=set(), ask={4})[4][0] == "empty"


def test_a_glare_busy_but_smooth_is_no_piece() -> None:
    """A glare on a dark print whitens it and spreads its disc as a pale white would, but
    its edge is a slope, not an outline's step."""
    colours = _board({0: RED, 1: RED, 2: WHITE, 3: WHITE, 4: PALE}, {0, 1, 2, 3, 4}, frozenset({4}))
    calls = [("red", 1.0)] * 2 + [("white", 1.0)] * 2 + [("empty", 1.0)] * 16
    assert piece_colours(calls, colours, skip=set())[4][0] == "empty"


def test_a_warm_white_read_as_gold_on_a_square_is_a_white() -> None:
    """No Crown stands on the chessboard: an ivory white whose hue is a Crown's takes the
    colour of the board's nearer pieces, as any busy square does."""
    ivory = (78.0, -4.0, 22.0)
    colours = _board({0: RED, 1: RED, 2: ivory, 3: ivory, 4: ivory}, busy={0, 1, 2, 3, 4})
    calls = [("red", 1.0)] * 2 + [("gold", 1.0)] * 3 + [("empty", 1.0)] * 15
    assert [v for v, _ in piece_colours(calls, colours, skip=set())[:5]] == ["red"] * 2 + [
        "white"
    ] * 3


def test_an_arm_in_the_grounds_colour_is_told_from_light_by_its_outline() -> None:
    """Round the grid, a sleeve as dark as the ground starts and ends with a step; a glare
    of the same depth fades in and out over a few squares."""
    ground = np.array([40.0, 8.0, 12.0])
    lab = np.tile(ground, (160, 1))
    lab[20:32] += (12.0, 3.0, 3.0)  # the arm, 1.2 squares wide
    fade = np.concatenate([np.linspace(0, 14, 20), np.linspace(14, 0, 20)])
    lab[60:100] += fade[:, None] * np.array([1.0, 0.2, 0.2])  # the glare
    runs = sorted(outlined_runs(lab, 6))
    assert (runs[0][0] % 160, runs[0][1] % 160) == (20, 32)
    assert len(runs) == 2 and 60 < runs[1][0] % 160 < runs[1][1] % 160 < 100
    assert runs[0][2] >= OUTLINED > runs[1][2]


def test_two_arms_side_by_side_round_the_grid_are_two_arms_one_shaded_arm_is_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Round the grid, a blue sleeve beside a skin-coloured arm makes one run off the
    ground: cut where its two parts differ, each is an arm of its own colour; one arm whose
    shading darkens it along its crossing (lightness at half weight) is not cut. The split
    is off by default (`ARM_SPLIT` infinite): tried at its development value."""
    lab = np.tile(np.array([60.0, 0.0, 4.0]), (160, 1))
    lab[20:45] = (35.0, 0.0, -21.0)
    lab[45:70] = (60.0, 15.0, 25.0)
    assert math.isinf(ARM_SPLIT) and split_run(lab, 20, 70, 6) == [(20, 70)]  # off: one run
    monkeypatch.setattr(read_module, "ARM_SPLIT", 14.0)
    split = read_module.ARM_SPLIT
    lab = np.tile(np.array([60.0, 0.0, 4.0]), (160, 1))
    lab[20:45] = (35.0, 0.0, -21.0)  # a blue sleeve
    lab[45:70] = (60.0, 15.0, 25.0)  # a skin-coloured arm beside it
    assert split_run(lab, 20, 70, 6) == [(20, 45), (45, 70)]
    shaded = np.linspace(0.75, 1.1, 50)[:, None] * np.array([60.0, 15.0, 25.0])
    lab[20:70] = shaded  # one arm, its shade across it
    assert split_run(lab, 20, 70, 6) == [(20, 70)]
    lab[20:45] = (50.0, 12.0, 20.0)
    lab[45:70] = (50.0, 12.0, 20.0 - split + 1)  # not quite far enough apart: one
    assert split_run(lab, 20, 70, 6) == [(20, 70)]
    lab[45:70] = (50.0, 12.0, 20.0 - split)  # far enough apart: two
    assert split_run(lab, 20, 70, 6) == [(20, 45), (45, 70)]
    assert split_run(lab, 20, 30, 6) == [(20, 30)]  # too short for two arms


def test_with_one_colour_in_view_a_busy_square_is_asked_not_guessed() -> None:
    """Only whites on the board: whether the busy square is a white or a dark red in the
    shade is not known from this board's pieces."""
    colours = _board({2: WHITE, 3: WHITE, 4: PALE}, busy={2, 3, 4})
    calls = [("empty", 1.0)] * 2 + [("white", 1.0)] * 2 + [("empty", 1.0)] * 16
    assert two_centres(calls, board_tone(np.median(colours.middle, axis=1)), [4]) is None
    assert piece_colours(calls, colours, skip=set())[4][0] == "unsure"


def test_alice_is_the_space_unlike_the_path_nearest_her_colour() -> None:
    """An ivory token passes for gold by hue, so the colours alone do not tell; the one
    space unlike the path nearest the board's whites is the white Alice, not the Crown
    ahead of her."""
    spaces = 11
    middle = np.zeros((spaces, 20, 3))
    middle[:] = (30.0, 2.0, -4.0)  # the path's print
    ivory, gold = (82.0, -2.0, 20.0), (75.0, 10.0, 60.0)
    middle[3], middle[8] = ivory, gold
    colours = SpotColours(middle, np.zeros((spaces, 4, 3)))
    centres = board_tone(np.array([(30.0, 45.0, 20.0), (84.0, -1.0, 16.0)]))
    assert alice_by_centres(colours, centres[1], centres) == 3
    assert alice_by_centres(colours, centres[0], centres) is None  # no red token there


def test_crowns_on_slots_printed_in_gold_are_told_by_standing() -> None:
    """Every slot reads gold when the slots are printed in a crown's gold: the Crowns are
    the gold slots that stand (disc spread over the path spaces'); a slot neither clearly
    standing nor clearly flat, flat slots unlike one another, a flat gold slot where the
    print is not gold, or a standing slot the colours do not call gold are asked about,
    never counted."""
    gold = np.ones(8, bool)
    none = np.zeros(8, bool)
    stands = np.array([1.2, 1.0, 1.5, 1.1, 1.3, 6.0, 3.0, 9.0])
    assert crowns_standing(stands, gold, none) == 3
    assert crowns_standing(np.full(8, 1.2), gold, none) == 0
    assert crowns_standing(np.full(8, 5.0), gold, none) == 8
    # a slot standing in the flat slots' own gold (a blurred print edge) is not counted
    print_gold, token_gold = (30.0, 5.0, 45.0), (38.0, 12.0, 62.0)
    tone = np.array([print_gold] * 5 + [token_gold] * 3)
    assert crowns_standing(stands, gold, none, tone) == 3
    tone[5] = print_gold
    assert crowns_standing(stands, gold, none, tone) is None
    doubtful = stands.copy()
    doubtful[0] = 2.2  # between flat and standing
    assert crowns_standing(doubtful, gold, none) is None
    # flat slots unlike one another: the paths' scale does not fit the slots (a busy print
    # on the paths flattens Crowns too), so which are Crowns is asked, not one counted
    squeezed = np.array([2.9, 0.6, 1.0, 1.8, 2.1, 0.7, 2.0, 2.0])
    assert crowns_standing(squeezed, gold, none) is None
    squeezed[1:] = np.clip(squeezed[1:], 1.0, 2.1)  # as alike as a print's own slots
    assert crowns_standing(squeezed, gold, none) == 1
    # on a plain print the gold slots are the Crowns, each standing ...
    some = np.array([True] * 3 + [False] * 5)
    plain = np.array([4.0, 5.0, 3.0] + [1.0] * 5)
    assert crowns_standing(plain, some, none) == 3
    # ... a flat gold one is not told (a print gold here and not there)
    plain[1] = 1.1
    assert crowns_standing(plain, some, none) is None
    # something standing the colours call neither the print nor gold
    unsure = np.array([False] * 7 + [True])
    assert crowns_standing(np.array([1.0] * 7 + [4.0]), none, unsure) is None
    # a print busier than the paths', empty and not gold, says nothing
    assert crowns_standing(np.array([2.2] * 8), none, none) == 0


def test_crowns_are_told_apart_from_the_displays_other_slots() -> None:
    """Where the paths' scale or the slots' colours ask the count (a slot between flat and
    standing; Crowns whose gold a lamp's colour carried past the gold hue), the slots are
    compared with one another: one print, so its empty slots are alike, and the Crowns
    stand far apart from them; a display that does not split so is still asked about."""
    gold, none = np.ones(8, bool), np.zeros(8, bool)
    stands = np.array([8.1, 2.4, 8.7, 1.9, 1.5, 1.6, 8.3, 9.4])
    tone = np.zeros((8, 3))
    assert crowns_standing(stands, gold, none, tone) is None  # 2.4: between on the paths' scale
    assert crowns_apart(stands, tone) == 4
    lamp = np.array([14.0, 9.3, 9.4, 12.3, 12.9, 9.7, 1.0, 1.5])  # six Crowns, not gold
    assert crowns_standing(lamp, none, np.array([True] * 6 + [False] * 2)) is None
    assert crowns_apart(lamp, tone) == 6
    # no gap: every slot flat, or every slot a Crown, is not told here
    assert crowns_apart(np.array([1.0, 1.4, 1.2, 1.1, 1.3, 1.0, 1.5, 1.2]), tone) is None
    assert crowns_apart(np.full(8, 6.0), tone) is None
    # a gap short of CROWN_APART, slots above it short of standing, or unlike flat slots
    near = stands.copy()
    near[[0, 2, 6, 7]] = 0.9 * CROWN_APART * 2.4
    assert crowns_apart(near, tone) is None
    low = np.array([0.9 * CROWN_STANDS] * 2 + [0.3] * 6)
    assert crowns_apart(low, tone) is None
    unlike = np.array([9.0, 8.0, 0.4, 1.9, 1.0, 1.0, 1.0, 1.0])
    assert crowns_apart(unlike, tone) is None


def test_an_empty_square_is_as_busy_as_its_own_prints_squares() -> None:
    """A board printed in two prints, one with a motif (busy) and one plain: the busy
    print's empty squares are busier than the board's median square but no busier than
    their own print's (`print_scale`), so they are not asked about; a white on the plain
    print, busier than its print's squares though flatter than the board's median, is
    read; something on the busy print busier than its squares is still asked about."""
    n = 40
    beside = np.zeros((n, 4, 3), np.float32)
    beside[:20] = (70.0, 0.0, 20.0)  # the busy print
    beside[20:] = (35.0, 10.0, 5.0)  # the plain one
    structure = np.array([3.0 * STRUCTURE] * 20 + [0.5 * STRUCTURE] * 20, np.float32)
    structure[[0, 1, 2]] = 3.0 * STRUCTURE * STRUCTURE_OUT * 1.2  # on the busy print
    structure[25] = 0.5 * STRUCTURE * FLAT_OUT * 2.0  # a white on the plain print
    calls = [("empty", 1.0)] * n
    calls[25] = ("white", 1.0)
    by_board = structure_unsure(calls, structure)
    assert sum(v == "unsure" for v, _ in by_board) > 10  # the busy print's squares asked
    scale = print_scale(structure, beside)
    out = structure_unsure(calls, structure, scale=scale)
    assert [k for k, (v, _) in enumerate(out) if v == "unsure"] == [0, 1, 2]
    assert out[25][0] == "white"


def _corner_run(colour: tuple[float, float, float], squares: float = 1.2) -> Arm:
    """A run round the grid along one side, from one corner, an arm wide (`squares`)."""
    (x0, y0), _ = GEOM.grid_box_mm
    sq = GEOM.square_mm
    xs = np.linspace(x0, x0 + squares * sq, 12)
    return Arm(np.array(colour), np.stack([xs, np.full(12, y0 - 0.25 * sq)], axis=1))


def test_light_on_the_ground_is_not_followed_by_its_colour() -> None:
    """A run round the grid that looks like light (a glare, a shadow) keeps the squares
    beside where it crosses from the structure reading, but is not followed square to
    square: the ground under light is often the print's colour, and following it asked
    about pieces all over a board with no arm. An arm of that colour is followed."""
    n = len(GEOM.cells)
    print_lab = (50.0, 4.0, 10.0)
    colours = SpotColours(
        np.tile(print_lab, (n, 12, 1)),
        np.tile(print_lab, (n, 4, 1)),
        np.full(n, 2.0, np.float32),
        np.full(n, 2.0, np.float32),
    )
    run = _corner_run(print_lab)
    crossing = np.mean(run.crossing_mm, axis=0)
    gap = [np.hypot(*(np.array(GEOM.cell_mm(c)) - crossing)) for c in GEOM.cells]
    beside, far = int(np.argmin(gap)), int(np.argmax(gap))
    lit = not_by_structure(GEOM, Arms((), (run,)), colours)
    assert beside in lit and far not in lit
    assert far in not_by_structure(GEOM, Arms((run,)), colours)


def test_squares_within_the_margin_of_an_arm_are_not_read_by_structure() -> None:
    """Every square within `ARM_MARGIN` rows and columns of one beside where an arm
    crosses the ground is kept from the structure reading, and no other: the margin is a
    square round each, to the grid's edges."""
    n = len(GEOM.cells)
    colours = SpotColours(
        np.tile((50.0, 4.0, 10.0), (n, 12, 1)),
        np.tile((50.0, 4.0, 10.0), (n, 4, 1)),
        np.full(n, 2.0, np.float32),
        np.full(n, 2.0, np.float32),
    )
    run = _corner_run((60.0, -30.0, 40.0))  # of no square's colour: not followed
    gap = [
        float(np.min(np.hypot(*(np.array(GEOM.cell_mm(c)) - run.crossing_mm).T)))
        for c in GEOM.cells
    ]
    beside = [c for c, d in zip(GEOM.cells, gap, strict=True) if d <= GEOM.square_mm]
    assert beside
    want = {
        k
        for k, (r, c) in enumerate(GEOM.cells)
        if any(max(abs(r - br), abs(c - bc)) <= ARM_MARGIN for br, bc in beside)
    }
    assert not_by_structure(GEOM, Arms((run,)), colours) == want
    assert len(want) < n


@pytest.mark.parametrize("count", [1, 2, 7, 72, 113])
def test_median_along_is_numpys_median_value_for_value(count: int) -> None:
    """The reader's medians are `np.median`'s to the bit, along any axis, for odd and even
    counts, with ties, and with a NaN (which propagates)."""
    rng = np.random.default_rng(count)
    a = (rng.normal(size=(5, count, 3)) * 40).astype(np.float32)
    a[1] = np.round(a[1] / 20)  # ties
    for axis in range(3):
        assert np.array_equal(median_along(a, axis), np.median(a, axis=axis))
    a[2, 0, 1] = np.nan
    assert np.array_equal(median_along(a, 1), np.median(a, axis=1), equal_nan=True)
    assert np.isnan(median_along(a, 1)[2, 1])


@pytest.mark.parametrize("width", [2, 3])
def test_norm_along_is_numpys_norm_value_for_value(width: int) -> None:
    """The reader's norms (Lab distances, board mm) are `np.linalg.norm`'s to the bit, on the
    shapes it takes them of, in float32 and float64, with a NaN (which propagates)."""
    rng = np.random.default_rng(width)
    for shape in [(7, width), (72, 49, width), (72, 49, 4, width), (5, 1, width)]:
        for dtype in (np.float32, np.float64):
            x = (rng.normal(size=shape) * 40).astype(dtype)
            x.flat[3] = np.nan
            got = norm_along(x, axis=x.ndim - 1)
            want = np.linalg.norm(x, axis=-1)
            assert got.dtype == want.dtype
            assert np.array_equal(got, want, equal_nan=True)
            assert np.array_equal(norm_along(x, axis=-1), want, equal_nan=True)


@pytest.mark.parametrize("count", [1, 2, 17, 49, 113, 144])
def test_percentile_along_is_numpys_percentile_value_for_value(count: int) -> None:
    """The spreads' and steps' percentiles are `np.percentile`'s to the bit and in its dtype:
    ranks between two samples and on one, ties, and a NaN (which propagates)."""
    rng = np.random.default_rng(count)
    a = np.abs(rng.normal(size=(9, count)) * 30).astype(np.float32)
    a[1] = np.round(a[1] / 20)  # ties
    for q in (90, 95, 50, 100, 0):
        want = np.percentile(a, q, axis=1)
        got = percentile_along(a, q)
        assert got.dtype == want.dtype
        assert np.array_equal(got, want)
        assert np.array_equal(
            percentile_along(a.astype(np.float64), q),
            np.percentile(a.astype(np.float64), q, axis=1),
        )
    a[2, 0] = np.nan
    assert np.array_equal(percentile_along(a, 90), np.percentile(a, 90, axis=1), equal_nan=True)
    assert np.isnan(percentile_along(a, 90)[2])


def test_runs_of_lists_each_run_of_true_in_order() -> None:
    on = np.array([1, 1, 0, 0, 1, 0, 1, 1, 1], bool)
    assert runs_of(on) == [(0, 2), (4, 5), (6, 9)]
    assert runs_of(np.zeros(4, bool)) == []
    assert runs_of(np.ones(3, bool)) == [(0, 3)]


def test_classify_decides_each_spot_by_its_shares() -> None:
    """`classify` (all spots at once) calls each spot as its `shares` say, one by one: the print
    first, then the piece colour with the largest share (red before white before gold on a
    tie), else unsure; gold first in a Crown slot."""
    rng = np.random.default_rng(7)
    middle = (rng.normal(size=(300, 9, 3)) * [20, 30, 30] + [50, 0, 0]).astype(np.float32)
    middle[::7] = [60, 40, 20]  # red all over: ties of a share of 1 are told by the order
    beside = (rng.normal(size=(300, 4, 3)) * [20, 20, 20] + [50, 0, 0]).astype(np.float32)
    colours = SpotColours(middle, beside)
    for gold_first in (False, True):
        want = []
        for s in shares(colours):
            best = max(("red", s.red), ("white", s.white), ("gold", s.gold), key=lambda kv: kv[1])
            if gold_first and s.gold >= SHARE:
                want.append(("gold", s.gold))
            elif s.board >= 1 - SHARE:
                want.append(("empty", s.board))
            elif best[1] >= SHARE:
                want.append(best)
            else:
                want.append(("unsure", 0.0))
        got = classify(colours, gold_first=gold_first)
        assert got == want
        assert len({v for v, _ in got}) >= 3


def test_lone_squares_counts_each_squares_neighbours_not_told() -> None:
    """`lone_squares` on a whole board and on a scattered list of squares: a square is alone
    when at most `ALONE` of the four squares beside it in the list are neither a piece nor
    empty (squares off the list or the board do not count)."""
    rng = np.random.default_rng(3)
    for cells in (GEOM.cells, tuple(c for c in GEOM.cells if rng.random() < 0.6)):
        calls = [(str(rng.choice(["red", "white", "empty", "unsure", "gold"])), 0.5) for _ in cells]
        index = {c: k for k, c in enumerate(cells)}
        want = {
            k
            for k, (r, c) in enumerate(cells)
            if sum(
                1
                for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if n in index and calls[index[n]][0] in ("unsure", "gold")
            )
            <= ALONE
        }
        assert lone_squares(cells, calls) == want
        assert 0 < len(want) < len(cells)


@pytest.mark.parametrize("count", [1, 2, 17, 72])
def test_medians_of_is_numpys_median_of_each_rows_choice(count: int) -> None:
    """`print_scale`'s medians over each square's print are `np.median`'s of the values each
    row chooses, to the bit: odd and even choices, ties, a row choosing one value."""
    rng = np.random.default_rng(count)
    values = (rng.gamma(2.0, 3.0, count) * 10).astype(np.float32)
    values[: count // 3] = np.round(values[: count // 3] / 20)  # ties
    chosen = rng.random((count, count)) < 0.4
    chosen[np.arange(count), np.arange(count)] = True
    chosen[0] = False
    chosen[0, count - 1] = True  # one value alone
    got = medians_of(values, chosen)
    assert got.dtype == values.dtype
    for row, pick in zip(got, chosen, strict=True):
        assert row == np.median(values[pick])


def _paths(arm_like: set[int]) -> PathCalls:
    """Both paths' spaces read as the print, but those in `arm_like` (numbered over the
    red path, then the white) of an arm's colour near where it crosses."""
    out: PathCalls = {}
    k = 0
    for colour in ("red", "white"):
        calls = []
        for _ in GEOM.paths[colour]:
            calls.append(("unsure", -1.0) if k in arm_like else ("empty", 1.0))
            k += 1
        m = len(calls)
        out[colour] = (SpotColours(np.zeros((m, 4, 3)), np.zeros((m, 4, 3))), calls)
    return out


def test_crowns_are_scaled_by_the_path_spaces_no_arm_covers() -> None:
    """The flat print's scale for the Crowns is the path spaces clear of every arm; when
    arms come near nearly all of them, those not of an arm's colour (a space under the arm
    is never the print's scale), rather than no count at all."""
    spaces = (*GEOM.paths["red"], *GEOM.paths["white"])
    every = np.array(spaces)
    near_all = Arms((Arm(np.zeros(3), every + 1.0),))
    asked: list[int] = []

    def reading() -> PathCalls:
        asked.append(1)
        return _paths({0, 1, 2})

    assert crown_reference(GEOM, None, reading) == list(spaces)
    assert not asked  # with no arm near, the paths' colours are not needed
    assert crown_reference(GEOM, near_all, reading) == list(spaces[3:])
    assert len(spaces) - 3 >= CROWN_REF_MIN
    every_arm = set(range(len(spaces)))
    assert crown_reference(GEOM, near_all, lambda: _paths(every_arm)) == []


def test_an_arm_is_followed_through_its_own_shades_before_squares_are_read_by_structure() -> None:
    """A hand in its own shadow keeps its hue and loses light: the squares under it are not
    the colour of the arm's crossing, yet its edge over a light square is as busy as a
    piece. Followed through its shades, the squares beside it are asked about; a print of
    another hue is not followed."""
    n = len(GEOM.cells)
    skin = np.array((60.0, 18.0, 26.0))
    middle = np.tile((75.0, -2.0, 4.0), (n, 12, 1))
    beside = np.tile((75.0, -2.0, 4.0), (n, 4, 1))
    run = _corner_run(tuple(skin))
    crossing = np.mean(run.crossing_mm, axis=0)
    gap = np.array([np.hypot(*(np.array(GEOM.cell_mm(c)) - crossing)) for c in GEOM.cells])
    order = np.argsort(gap)
    start = GEOM.cells[int(order[0])]
    hand = [k for k, c in enumerate(GEOM.cells) if c[1] == start[1]]  # its column
    middle[hand] = 0.5 * skin  # the hand in its own shadow, the crossing's hue
    colours = SpotColours(middle, beside, np.full(n, 2.0, np.float32), np.full(n, 2.0, np.float32))
    asked = not_by_structure(GEOM, Arms((run,)), colours)
    assert set(hand) <= asked
    middle[hand] = (30.0, -20.0, -25.0)  # a dark print of another hue: not the arm
    colours = SpotColours(middle, beside, colours.structure, colours.edges)
    far_end = max(hand, key=lambda k: gap[k])
    assert far_end not in not_by_structure(GEOM, Arms((run,)), colours)


def _panelled_board(
    pieces: dict[int, tuple[float, float, float]],
) -> tuple[np.ndarray, np.ndarray]:
    """72 squares in four prints (rows of 18), each square's middle a light panel of its
    own tint inside a darker border: the middle is never like the print beside it.
    `pieces` put a colour in a square's middle. Returns (middle, beside)."""
    borders = [(30.0, 8.0, 12.0), (45.0, -10.0, 20.0), (20.0, 3.0, -15.0), (55.0, 15.0, 5.0)]
    panels = [(68.0, 12.0, 24.0), (62.0, -6.0, 14.0), (60.0, 2.0, -12.0), (58.0, -16.0, -6.0)]
    middle = np.zeros((72, 12, 3))
    beside = np.zeros((72, 4, 3))
    for k in range(72):
        middle[k], beside[k] = panels[k // 18], borders[k // 18]
    rng = np.random.default_rng(3)
    middle += rng.normal(0, 1.5, middle.shape)
    for k, lab in pieces.items():
        middle[k] = lab
    return middle, beside


def test_a_panel_printed_in_every_square_is_the_print_not_a_piece() -> None:
    """A light panel inside each square's darker border reads as a white against the
    print beside; the board's other squares of the same print tell its own middle, so an
    empty square is empty and the pieces still read, red and white."""
    middle, beside = _panelled_board({3: RED, 20: WHITE, 40: (88.0, 0.0, 0.0)})
    alone = classify(SpotColours(middle, beside))
    assert sum(v == "white" for v, _ in alone) > 30  # the panels pass for whites
    calls = [
        v for v, _ in classify(SpotColours(middle, beside, printed=print_middles(middle, beside)))
    ]
    assert calls[3] == "red" and calls[20] == "white" and calls[40] == "white"
    assert all(v == "empty" for k, v in enumerate(calls) if k not in (3, 20, 40))


def test_a_print_whose_squares_are_mostly_pieces_alike_tells_no_middle() -> None:
    """Nine whites alike on a print of eighteen squares (a start row): their look is no
    print's, so those squares keep their reading from the print beside."""
    middle, beside = _panelled_board(dict.fromkeys(range(18, 27), WHITE))
    printed = print_middles(middle, beside)
    assert np.isnan(printed[18:36]).all()
    assert not np.isnan(printed[:18]).any()


def _flat_board(look: tuple[float, float, float]) -> tuple[np.ndarray, np.ndarray]:
    """Every square's middle and print beside in one look: (middle, beside)."""
    n = len(GEOM.cells)
    return np.tile(look, (n, 12, 1)), np.tile(look, (n, 4, 1))


def _under(middle: np.ndarray, beside: np.ndarray, arm: Arm) -> set[tuple[int, int]]:
    n = len(GEOM.cells)
    flat = np.full(n, 2.0, np.float32)
    return arm_squares(SpotColours(middle, beside, flat, flat), Arms((arm,)), GEOM, GEOM.cells)


def test_an_arm_is_followed_side_to_side_not_through_checks_of_its_colour() -> None:
    """An arm is wider than a square, so the squares under it share sides; a print of the
    arm's colour in checks meets only at the corners, and is not followed past the squares
    beside the arm."""
    skin = (60.0, 18.0, 26.0)
    middle, beside = _flat_board((75.0, -2.0, 4.0))
    for k, (r, c) in enumerate(GEOM.cells):
        if (r + c) % 2 == 0:  # dark checks in the arm's colour
            middle[k], beside[k] = skin, skin
    arm = [k for k, (r, c) in enumerate(GEOM.cells) if c == 0]  # down the first column
    middle[arm], beside[arm] = skin, skin
    under = _under(middle, beside, _corner_run(skin, 2.4))  # a slant: its band is wide
    assert {GEOM.cells[k] for k in arm} <= under
    assert all(c <= 1 for _, c in under)


def test_an_arm_covers_one_band_from_where_it_crosses() -> None:
    """A row printed in the arm's colour across the arm's way joins it side to side, but
    only the part of it in the band one arm covers (as wide as its crossing) is under it."""
    skin = (60.0, 18.0, 26.0)
    middle, beside = _flat_board((75.0, -2.0, 4.0))
    row = GEOM.rows // 2
    for k, (r, c) in enumerate(GEOM.cells):
        if c == 0 or r == row:  # the arm down the first column, the row of its colour
            middle[k], beside[k] = skin, skin
    under = _under(middle, beside, _corner_run(skin))
    assert {(r, 0) for r in range(GEOM.rows)} <= under
    assert not any((row, c) in under for c in range(3, GEOM.cols))


def _sides_in(
    look: Callable[[tuple[int, int], tuple[int, int]], tuple[float, float, float]],
) -> SideColours:
    """Every side two squares share, each in one look (`look(lower cell, other cell)`)."""
    at = {c: k for k, c in enumerate(GEOM.cells)}
    pairs = [(c, n) for c in GEOM.cells for n in ((c[0] + 1, c[1]), (c[0], c[1] + 1)) if n in at]
    lab = np.array([[look(a, b)] * 11 for a, b in pairs], np.float32)
    ends = np.array([(at[a], at[b]) for a, b in pairs], np.intp)
    return SideColours(lab, ends, {pair: k for k, pair in enumerate(pairs)})


def test_an_arm_is_not_followed_across_the_lines_a_print_draws_between_its_squares() -> None:
    """A print of the arm's colour in every square joins the arm side to side; but an arm
    hides the lines between the squares it covers, and the print beyond it shows them: with
    the sides looked at, only the squares whose shared sides are hidden are under it."""
    skin, line = (60.0, 18.0, 26.0), (40.0, -30.0, 20.0)
    middle, beside = _flat_board(skin)
    n = len(GEOM.cells)
    flat = np.full(n, 2.0, np.float32)
    colours = SpotColours(middle, beside, flat, flat)
    run = Arms((_corner_run(skin, 2.4),))  # a slant: its band is wide
    plain = arm_squares(colours, run, GEOM, GEOM.cells)
    assert sum(c >= 3 for _, c in plain) > 10  # the print followed far past the arm
    # the arm down the first column hides the lines between its squares
    sides = _sides_in(lambda a, b: skin if a[1] == b[1] == 0 else line)
    under = arm_squares(colours, run, GEOM, GEOM.cells, sides=sides)
    assert {(r, 0) for r in range(GEOM.rows)} <= under
    # past the first column, only the squares beside where it crosses the ground
    assert all(r == GEOM.rows - 1 for r, c in under if c >= 1)


def test_a_side_is_hidden_in_the_arms_colour_or_in_its_squares_look() -> None:
    """A side is hidden when of the arm's colour where it crosses the ground, or of the
    look of either square it parts (the hand in its own shadow, darker than its crossing);
    a line unlike the arm and both its squares shows."""
    skin, shade, line = (60.0, 18.0, 26.0), (30.0, 10.0, 14.0), (40.0, -30.0, 20.0)
    middle, beside = _flat_board(shade)
    colours = SpotColours(middle, beside)
    arm = _corner_run(skin)
    assert sides_hidden(_sides_in(lambda a, b: skin), colours, arm).all()
    assert sides_hidden(_sides_in(lambda a, b: shade), colours, arm).all()
    assert not sides_hidden(_sides_in(lambda a, b: line), colours, arm).any()
    middle[0] = line  # the first square's middle: a side in the shade is still like the other
    assert sides_hidden(_sides_in(lambda a, b: shade), colours, arm).all()
    middle[:] = skin  # every middle the arm's: a side in the shade is like none of them
    assert not sides_hidden(_sides_in(lambda a, b: shade), colours, arm).any()


def test_a_middle_the_print_explains_is_not_an_arm() -> None:
    """A panel of an arm's colour printed in every square is the print, where the board
    tells its middle (`print_middles`): the arm is not followed through it."""
    skin = (60.0, 18.0, 26.0)
    middle, beside = _flat_board((40.0, -12.0, -20.0))
    middle[:] = skin  # every square's panel
    n = len(GEOM.cells)
    flat = np.full(n, 2.0, np.float32)
    run = _corner_run(skin)
    assert (
        len(arm_squares(SpotColours(middle, beside, flat, flat), Arms((run,)), GEOM, GEOM.cells))
        > 1
    )
    told = SpotColours(middle, beside, flat, flat, middle.copy())
    assert arm_squares(told, Arms((run,)), GEOM, GEOM.cells) == set()


def test_a_colour_the_colours_call_on_more_squares_than_the_box_holds_is_asked() -> None:
    """A print of a white's tint (a light panel in every square) is called white by its
    colours on more squares than the box has whites: the flat ones are asked about by their
    structure, and the busier ones left white are that print too, so every white is asked;
    the reds, which the colours call on few squares, stand."""
    told = [("white", 0.9)] * 12 + [("red", 0.9)] * 3 + [("empty", 0.9)] * 5
    after = [("unsure", 0.0)] * 8 + [("white", 0.9)] * 4 + told[12:]
    assert at_most(told, after, 9) == [("unsure", 0.0)] * 12 + told[12:]
    assert at_most(told, after, 12) == after  # twelve whites: as many as the box holds


def test_more_pieces_of_a_colour_than_the_box_holds_are_asked_not_read() -> None:
    """No play adds a piece: a reading with more of one colour than the box holds is wrong
    somewhere (a whole print of a piece's tint read by its structure), so the squares the
    colours alone did not call that colour are asked about; with still too many, all are."""
    told = [("red", 0.9)] * 3 + [("white", 0.9)] * 2 + [("empty", 0.9)] * 12
    by_structure = told[:5] + [("red", 0.5)] * 7 + [("empty", 0.9)] * 5
    assert at_most(told, by_structure, 10) == by_structure  # ten reds: as many as it holds
    asked = at_most(told, by_structure, 9)
    assert asked[:5] == told[:5]  # the colours' own reds and the whites stand
    assert asked[5:12] == [("unsure", 0.0)] * 7
    too_many = [("red", 0.9)] * 11 + [("white", 0.9)] * 2
    assert at_most(too_many, too_many, 9) == [("unsure", 0.0)] * 11 + [("white", 0.9)] * 2


def test_the_box_holds_at_least_as_many_pieces_as_a_start_tile() -> None:
    """`pieces_per_colour` below a start tile's count would ask about every start."""
    folder = models_dir() / "queen-alice"
    board = tomllib.loads((folder / "board.toml").read_text(encoding="utf-8"))
    paths = tomllib.loads((folder / "paths.toml").read_text(encoding="utf-8"))
    reds = sum(1 for p in board["tiles"][0]["pieces"] if p["colour"] == "red")
    assert geometry_from_toml(board, paths, "board.toml").pieces_per_colour >= reds
    board["vision"]["pieces_per_colour"] = reds - 1
    with pytest.raises(UserError, match="pieces_per_colour"):
        geometry_from_toml(board, paths, "board.toml")


def test_two_shades_of_one_colour_are_not_the_boards_red_and_white() -> None:
    """Cream whites, some read gold and some white, split into two looks as far apart as a
    red and a white, but neither is red: which is red is not guessed (a dark red missed on
    the board, the yellower whites were read red). A real red is redder by far."""
    cream, paler = (29.8, 1.0, 23.6), (39.0, -1.0, 6.0)  # board_tone: L halved
    shades = np.array([cream] * 4 + [paler] * 3)
    assert np.linalg.norm(np.subtract(cream, paler)) > 15  # as far apart as SEPARATION asks
    assert two_means(shades) is None
    red = (12.0, cream[1] + REDDER + 20.0, 15.0)
    centres = two_means(np.array([red] * 3 + [paler] * 3))
    assert centres is not None and centres[0][1] > centres[1][1]


def test_a_square_told_a_colour_like_the_print_asked_as_too_many_is_that_print() -> None:
    """A panel of a white's tint in every other square: its structure reads most of them as
    whites (more than the box holds, so those are asked) and the colours call one of them
    white; that one has the look of those asked, so it is asked too. The real whites, of
    another look, stand."""
    panel, white = np.array([40.0, -5.0, 18.0]), np.array([35.0, 2.0, -2.0])
    told = [("white", 0.9)] * 3 + [("empty", 0.9)] * 10
    calls = [("white", 0.9)] * 3 + [("white", 0.5)] * 8 + [("empty", 0.9)] * 2
    tone = np.array([white, white, panel + 0.5 * NEAR] + [panel] * 8 + [white] * 2)
    out = at_most(told, calls, 9, tone)
    assert out[:2] == calls[:2]
    assert out[2:11] == [("unsure", 0.0)] * 9
    assert at_most(told, calls, 9)[2] == calls[2]  # without the looks, kept


def test_the_crowns_scale_is_asked_when_the_path_spaces_disagree_above_the_noise() -> None:
    """Path spaces printed a little smaller than the disc on some of them (their printed
    edge inside it) make the median a scale no flat print has: asked. Flat spaces at the
    sensor's noise differ by as large a ratio but by about 1 Lab: their median stands."""
    edged = np.array([3.0] * 10 + [24.0] * 10)
    assert CROWN_REF_ALIKE < 24.0 / 3.0 and CROWN_REF_GAP < 24.0 - 3.0
    assert one_print_scale(edged) is None
    noise = np.array([0.4] * 10 + [1.6] * 10)
    assert CROWN_REF_ALIKE < 1.6 / 0.4
    assert one_print_scale(noise) == pytest.approx(1.0)
    alike = np.array([3.0] * 10 + [5.0] * 10)
    assert one_print_scale(alike) == pytest.approx(4.0)


def test_a_dark_arm_on_the_grounds_line_to_black_is_an_arm_by_its_outline() -> None:
    """Round the grid, a dark brown sleeve over a yellow-green ground is as near the
    ground's colour in shadow as a shadow is (`unlit` small on both), but it starts and ends
    with a step; a shadow as deep fades in and out."""
    ground = np.array([57.0, -13.0, 32.0])
    lab = np.tile(ground, (160, 1))
    unlit = np.full(160, 10.0)  # both near the ground's line to black
    lab[20:46] = ground * 0.3  # the sleeve: a step at each end
    fade = np.concatenate([np.linspace(0.0, 0.6, 20), np.linspace(0.6, 0.0, 20)])
    lab[80:120] = ground * (1.0 - fade[:, None])  # the shadow: a slope
    assert not looks_like_light(lab, unlit, 20, 46)
    assert looks_like_light(lab, unlit, 88, 112)  # where it is beyond GROUND from the ground
    steep = np.linalg.norm(lab[22] - lab[18])
    assert steep >= STEPPED
    assert looks_like_light(lab, np.full(160, 30.0), 20, 46) is False  # off the line: an arm


_AT = np.array([(x, y) for x in np.linspace(-0.3, 0.3, 11) for y in np.linspace(-0.3, 0.3, 11)])
_AT = _AT[np.hypot(_AT[:, 0], _AT[:, 1]) <= 0.3]
"""A square's disc samples, in squares from its centre."""


def _cut_disc(inside: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """A square's disc (at `_AT`) of the arm's or piece's look where `inside` says and the
    grey print elsewhere, with a little noise."""
    pos = _AT
    rng = np.random.default_rng(0)
    lab = np.where(inside(pos)[:, None], np.array([[75.0, 2.0, 8.0]]), np.array([[60.0, 0.0, 4.0]]))
    return np.asarray(lab + rng.normal(0.0, 1.0, lab.shape))


def test_a_square_beside_an_arm_cut_straight_in_two_is_its_edge_not_a_piece() -> None:
    """An arm's edge crosses a square as a straight line, the arm on one side and the print
    on the other; a piece's outline closes round the square's middle. Beside a might-be arm,
    a square standing out alone is read only when no straight line cuts its disc in two."""
    edge = _cut_disc(lambda p: p[:, 0] + 0.4 * p[:, 1] > 0.03)  # a slanted straight edge
    blob = _cut_disc(lambda p: np.hypot(p[:, 0], p[:, 1]) < 0.2)  # a piece's round top
    wrong, smaller = cut_by_a_line(edge, _AT)
    assert wrong <= CUT_WRONG and smaller >= CUT_SIDE
    assert cut_by_a_line(blob, _AT)[0] > CUT_WRONG
    pieces = {0: RED, 1: RED, 2: WHITE, 3: WHITE, 4: PALE}
    colours = _board(pieces, busy={0, 1, 2, 3, 4})
    calls = [("red", 1.0)] * 2 + [("white", 1.0)] * 2 + [("empty", 1.0)] * 16
    discs = np.stack([blob] * 20)
    # an arm's edge over a sliver of the disc (a seventh of it) is an edge too
    sliver = _cut_disc(lambda p: p[:, 0] + 0.4 * p[:, 1] > 0.18)
    wrong, smaller = cut_by_a_line(sliver, _AT)
    assert wrong <= CUT_WRONG and CUT_SIDE <= smaller < 0.15
    for disc, want in ((blob, "white"), (edge, "unsure"), (sliver, "unsure")):
        discs[4] = disc
        seen = replace(colours, disc=discs, disc_at=_AT)
        assert piece_colours(calls, seen, skip=set(), ask={4}, lone={4})[4][0] == want
        # clear of any might-be arm too (`CUT_CLEAR`): an arm the follower missed
        assert CUT_CLEAR
        assert piece_colours(calls, seen, skip=set())[4][0] == want


def test_a_sliver_cut_with_not_one_sample_astray_is_an_arms_edge() -> None:
    """An arm's edge over less of a square's disc than `CUT_SIDE` is still an edge when the
    line misplaces not one sample (`CUT_CLEAN`); a glint over less than that is a piece's."""
    pieces = {0: RED, 1: RED, 2: WHITE, 3: WHITE, 4: PALE}
    colours = _board(pieces, busy={0, 1, 2, 3, 4})
    calls = [("red", 1.0)] * 2 + [("white", 1.0)] * 2 + [("empty", 1.0)] * 16
    clean = _cut_disc(lambda p: p[:, 0] + 0.4 * p[:, 1] > 0.2)
    wrong, smaller = cut_by_a_line(clean, _AT)
    assert wrong == 0 and CUT_CLEAN <= smaller < CUT_SIDE
    glint = _cut_disc(lambda p: p[:, 0] + 0.4 * p[:, 1] > 0.26)
    assert cut_by_a_line(glint, _AT)[1] < CUT_CLEAN
    discs = np.stack([_cut_disc(lambda p: np.hypot(p[:, 0], p[:, 1]) < 0.2)] * 20)
    for disc, want in ((clean, "unsure"), (glint, "white")):
        discs[4] = disc
        seen = replace(colours, disc=discs, disc_at=_AT)
        assert piece_colours(calls, seen, skip=set(), ask={4}, lone={4})[4][0] == want
        assert piece_colours(calls, seen, skip=set())[4][0] == want


PANEL = (50.0, -20.0, -25.0)
"""A panel's look: neither a print's beside it, nor red, white or gold (the colours call it
unsure)."""


def test_a_middle_more_squares_share_than_a_colour_has_pieces_is_the_print() -> None:
    """A panel the board does not tell by its print is unsure on each square; when more of
    the board's other squares share its look than a colour has pieces, it is print. Nine
    squares alike (a colour's whole box) stay asked, and squares under an arm neither hold a
    look nor are read so."""
    n = len(GEOM.cells)
    middle, beside = _flat_board((30.0, 8.0, 12.0))
    rng = np.random.default_rng(5)
    # the others alike each panel one more than a box holds
    panels = list(range(0, 2 * (GEOM.pieces_per_colour + 2), 2))
    blues = list(range(1, 2 * GEOM.pieces_per_colour, 2))  # a box's worth alike
    middle[panels] = PANEL
    middle[blues] = (40.0, 5.0, -40.0)
    middle = middle + rng.normal(0, 1.0, middle.shape)
    colours = SpotColours(middle, beside)
    calls = classify(colours)
    assert all(calls[k][0] == "unsure" for k in panels + blues)
    read = shared_looks(calls, colours, set(), GEOM)
    assert all(read[k][0] == "empty" for k in panels)
    assert all(read[k][0] == "unsure" for k in blues)
    assert all(read[k] == calls[k] for k in range(n) if k not in panels)
    under = set(panels[:3])  # an arm over three of them: the rest are a box's worth
    read = shared_looks(calls, colours, under, GEOM)
    assert all(read[k][0] == "unsure" for k in panels)


def test_a_piece_colour_more_squares_share_must_stand_out_more_to_be_a_piece() -> None:
    """A square the colours call white whose middle more of the board's other squares share
    than a colour has pieces (a light panel in every square, called white on a few) is asked
    about under `SHARED_FLAT` times its print's spread, where a white no other square is
    alike needs only `FLAT_OUT`; a piece's rim and sides make it busier than either."""
    assert SHARED_FLAT > FLAT_OUT
    n = len(GEOM.cells)
    white = (85.0, 2.0, 12.0)
    middle, beside = _flat_board((30.0, 8.0, 12.0))
    rng = np.random.default_rng(7)
    panels = list(range(0, 2 * (GEOM.pieces_per_colour + 2), 2))  # a panel's look, shared
    lone = 1  # a white no other square is alike
    middle[panels] = white
    middle[lone] = (70.0, 0.0, 20.0)
    middle = middle + rng.normal(0, 1.0, middle.shape)
    colours = SpotColours(middle, beside)
    calls = [("empty", 1.0)] * n
    for k in [*panels, lone]:
        calls[k] = ("white", 1.0)
    shared = shared_pieces(calls, colours, set(), GEOM)
    assert [k for k in range(n) if shared[k]] == panels
    spread = (FLAT_OUT + SHARED_FLAT) / 2  # flatter than a shared look may be
    structure = np.full(n, 2.0 * STRUCTURE, np.float32)
    structure[[*panels, lone]] *= spread
    structure[panels[0]] = 2.0 * STRUCTURE * SHARED_FLAT * 1.2  # a piece on a panel
    out = structure_unsure(calls, structure, shared=shared)
    assert [k for k, (v, _) in enumerate(out) if v == "unsure"] == panels[1:]
    assert out[lone][0] == "white" and out[panels[0]][0] == "white"
    assert structure_unsure(calls, structure) == calls  # without `shared`: FLAT_OUT only
    under = set(panels[:3])  # an arm over three of them: the rest are a box's worth
    assert not shared_pieces(calls, colours, under, GEOM).any()


def test_middles_are_alike_when_most_of_their_samples_are_near() -> None:
    """`middles_alike`: at least 1 - `SHARE` of the samples within `KIN_ALIKE` (strictly),
    samples on the last axis, the test `print_middles` and `shared_looks` both use."""
    near, far = 0.5 * KIN_ALIKE, KIN_ALIKE
    samples = 10
    need = math.ceil((1 - SHARE) * samples)
    rows = np.array(
        [
            [near] * need + [far] * (samples - need),  # just enough near: alike
            [near] * (need - 1) + [far] * (samples - need + 1),  # one short: not
            [far] * samples,  # at KIN_ALIKE itself: not alike
        ]
    )
    assert middles_alike(rows).tolist() == [True, False, False]
    # any leading axes: a square against each of the board's others
    assert middles_alike(np.stack([rows, rows[::-1]])).tolist() == [
        [True, False, False],
        [False, False, True],
    ]


def test_squares_under_an_arm_are_left_out_of_learning_the_print(
    clear_photos: list[Photo],
) -> None:
    """A panel print whose squares are 45 empty and 36 under an arm: with the arm's squares
    its look is no majority (45 of 81 alike, under `KIN_AGREE`) and nothing is told; without
    them (36 of 81, within `ARM_LEARN_MAX`) the empty squares tell it and their structure
    is flat. Past `ARM_LEARN_MAX` of the board the print is learnt as it was."""
    photo = clear_photos[0]
    where = locate(photo.image, GEOM)
    assert where is not None
    shape = sample_squares(photo.image, GEOM, where, GEOM.cells)
    assert shape.disc is not None
    n, d = shape.disc.shape[:2]
    rng = np.random.default_rng(5)
    disc = np.tile((70.0, 10.0, 20.0), (n, d, 1)) + rng.normal(0, 1.0, (n, d, 3))
    arm = list(range(36))
    disc[arm] = (55.0, -25.0, -20.0)
    beside = np.tile((40.0, 0.0, 10.0), (n, 4, 1))
    kin = np.ones((n, n), bool)
    colours = replace(shape, disc=disc, beside=beside, kin=kin)
    assert 36 <= ARM_LEARN_MAX * n < 45
    told = learnt_without(colours, set(arm), GEOM)
    assert told.printed is not None and told.structure is not None
    assert not np.isnan(told.printed[36:]).any()
    assert np.isnan(told.printed[:36]).all()
    # with them, the same board tells nothing: the arm is over too much of the print
    whole = told_squares(disc, beside, kin, GEOM)
    assert whole.printed is not None and np.isnan(whole.printed).all()
    # more than ARM_LEARN_MAX of the board under arms: learnt from every square, as before
    assert learnt_without(colours, set(range(46)), GEOM) is colours


def test_a_piece_far_busier_than_its_own_print_takes_its_colour_past_near_clear(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A shaded white farther than `NEAR_CLEAR` from the board's white, standing out clear
    of any might-be arm: asked by `piece_colours`; with `NEAR_BUSY` at its development
    value read white by `busy_for_its_print` when `BUSY_PRINT` times busier than its own
    print's squares and within `NEAR_BUSY`; asked still on a busy print, beside an arm,
    past `NEAR_BUSY`, or with the rule off (its default, the game's guide)."""
    from companion.games.queen_alice.vision import read

    assert NEAR_BUSY == 0.0  # off by default
    monkeypatch.setattr(read, "NEAR_BUSY", 14.0)
    near_busy = read.NEAR_BUSY
    assert NEAR_CLEAR < near_busy < NEAR_FAR
    whites = 6
    gap = (NEAR_CLEAR + near_busy) / 2 * (whites + 1) / whites  # after its pull on the centre
    shaded = (WHITE[0] - 2 * gap, WHITE[1], WHITE[2])  # `board_tone` halves lightness
    pieces = {0: RED, 1: RED, **{k: WHITE for k in range(2, 2 + whites)}, 8: shaded}
    colours = _board(pieces, busy=set(range(9)))
    assert colours.structure is not None
    median = float(np.median(colours.structure))
    colours.structure[8] = (BUSY_PRINT + 1) * median  # far busier than its print, not FAR_OUT
    assert colours.structure[8] < FAR_OUT * median
    before = [("red", 1.0)] * 2 + [("white", 1.0)] * whites + [("empty", 1.0)] * 12
    calls = piece_colours(before, colours, skip=set())
    assert calls[8][0] == "unsure"
    plain = np.full(20, median, np.float32)
    out = busy_for_its_print(before, calls, colours, set(), set(), plain)
    assert out[8][0] == "white"
    assert [v for v, _ in out[9:]] == ["empty"] * 11
    busy_print = np.full(20, 2 * median, np.float32)  # its print's squares busy too
    assert busy_for_its_print(before, calls, colours, set(), set(), busy_print)[8][0] == "unsure"
    assert busy_for_its_print(before, calls, colours, set(), {8}, plain)[8][0] == "unsure"
    far = (WHITE[0] - 2 * (near_busy + 2) * (whites + 1) / whites, WHITE[1], WHITE[2])
    farther = _board({**pieces, 8: far}, busy=set(range(9)))
    assert farther.structure is not None
    farther.structure[8] = (BUSY_PRINT + 1) * median
    asked = piece_colours(before, farther, skip=set())
    assert busy_for_its_print(before, asked, farther, set(), set(), plain)[8][0] == "unsure"
    monkeypatch.setattr(read, "NEAR_BUSY", 0.0)  # off: the calls as `piece_colours` left them
    assert busy_for_its_print(before, calls, colours, set(), set(), plain) == calls
