"""Reading rendered photographs of a Reflecto board: screens, owners, hands, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.reflecto_curves import OWN_ENDS, side_ends
from companion.cli import main
from companion.games.reflecto.vision.colours import GREY, ScreenColours, chromaticity
from companion.games.reflecto.vision.geometry import Cell, load_geometry
from companion.games.reflecto.vision.perceive import observe
from companion.games.reflecto.vision.read import (
    FAINT_FLOOR,
    FLOOR,
    MARGIN_MM,
    PX_PER_MM,
    Rectified,
    classify,
    colour_masks,
    evidence,
    learn_at_setup,
    learn_where,
    own_faces,
    print_shares,
    read_board,
    rectify,
    screen_reach,
)
from companion.games.reflecto.vision.reading import BoardReading, ScreenSeen
from companion.games.reflecto.vision.render import (
    Conditions,
    render_photo,
    screen_solids,
    start_position,
)
from companion.sim.camera import VirtualCamera
from companion.vision.board_markers import board_markers
from companion.vision.board_pose import BoardPose
from tests.games.reflecto.vision.photos import table_shot

GEOM = load_geometry()
TEST_SEED = 5151  # the benchmark's development and fresh seeds are other ranges


@pytest.mark.parametrize("i", range(2))
def test_photographs_read_right_with_colours_learned_at_setup(i: int) -> None:
    """Every screen read is there in its owner's colour, and every screen not read is asked
    about: the development photographs include screens the colour of their board's print,
    which the reader asks about rather than guess."""
    photo = render_photo(GEOM, (TEST_SEED, i), setup=True)
    rect = rectify(photo.setup, GEOM)
    assert rect is not None
    colours = learn_at_setup(rect, GEOM)
    got, _ = read_board(photo.image, GEOM, colours)
    truth, seen = dict(photo.truth.layout_key()), dict(got.layout_key())
    assert all(truth.get(cell) == owner for cell, owner in seen.items()), got.to_json()
    assert set(truth) - set(seen) <= set(got.unclear), (got.to_json(), photo.truth.to_json())
    assert len(seen) > len(truth) / 2


def _position() -> BoardReading:
    cells = {(0, 1): 0, (2, 3): 0, (4, 4): 0, (6, 0): 0, (1, 5): 1, (3, 1): 1, (5, 2): 1, (6, 6): 1}
    return BoardReading(tuple(ScreenSeen(c, o) for c, o in cells.items()))


@pytest.mark.parametrize(("tilt", "yaw"), [(0.0, 0.0), (25.0, 200.0)])
def test_no_setup_learns_colours_and_tells_owners_by_the_letters(tilt: float, yaw: float) -> None:
    w, h = GEOM.size_mm
    cam = VirtualCamera.looking_at((w / 2, h / 2), 520, tilt_deg=tilt, yaw_deg=yaw)
    got, _ = read_board(table_shot(GEOM, cam, _position(), 0, 11), GEOM)
    keys = got.layout_key()
    swapped = tuple(sorted((c, 1 - o) for c, o in keys))
    assert _position().layout_key() in (keys, swapped), got.to_json()
    assert any("learned from this picture" in w for w in got.warnings)
    if tilt:  # the letters' side is in view: whose colour is whose is told, not guessed
        assert keys == _position().layout_key()


def test_an_arm_over_the_board_makes_no_phantom_and_is_reported() -> None:
    w, h = GEOM.size_mm
    cam = VirtualCamera.looking_at((w / 2, h / 2), 540, tilt_deg=12, yaw_deg=15)
    setup = table_shot(GEOM, cam, start_position(GEOM), 0, 3)
    rect = rectify(setup, GEOM)
    assert rect is not None
    colours = learn_at_setup(rect, GEOM)
    obs, reading = observe(table_shot(GEOM, cam, _position(), 2, 3, shot=1), GEOM, colours)
    truth = dict(_position().layout_key())
    assert all(truth.get(s.cell) == s.owner for s in reading.screens)  # no phantom
    assert obs.data["hands"] is True
    assert obs.data["board_found"] is True
    quiet, reading = observe(table_shot(GEOM, cam, _position(), 0, 3, shot=2), GEOM, colours)
    assert quiet.data["hands"] is False
    assert reading.layout_key() == _position().layout_key()


def test_no_markers_no_board() -> None:
    blank = np.full((960, 1280, 3), 120, np.uint8)
    got, rect = read_board(blank, GEOM)
    assert rect is None and not got.board_found and got.screens == ()
    assert "corner markers" in got.warnings[0]


def test_cli_render_then_read_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "render",
                "reflecto",
                "--seed",
                str(TEST_SEED),
                "--out",
                str(tmp_path),
                "--setup",
                "--no-hands",
            ]
        )
        == 0
    )
    capsys.readouterr()
    image, setup = tmp_path / "0000.jpg", tmp_path / "0000-setup.jpg"
    assert main(["read", "reflecto", str(image), "--setup", str(setup), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    truth = json.loads((tmp_path / "0000.json").read_text())
    assert out["image"] == str(image)
    read = {tuple(s["cell"]): s["owner"] for s in out["screens"]}
    there = {tuple(s["cell"]): s["owner"] for s in truth["screens"]}
    assert all(there.get(cell) == owner for cell, owner in read.items()), out
    # A screen not read is one the reader said it could not tell (a warning, not a guess).
    for r, c in set(there) - set(read):
        assert any(f"square [{r}, {c}]: cannot tell" in w for w in out["warnings"]), out
    assert len(read) > len(there) / 2
    assert all(0 < s["confidence"] <= 1 for s in out["screens"])


@pytest.mark.parametrize("kind", ["missing", "folder", "not-an-image"])
def test_bad_input_is_one_line_and_exit_2(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = {
        "missing": tmp_path / "nope.jpg",
        "folder": tmp_path,
        "not-an-image": tmp_path / "notes.txt",
    }[kind]
    if kind == "not-an-image":
        path.write_text("hello")
    assert main(["read", "reflecto", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("companion: error:") and "\n" not in err


def test_render_writes_an_answer_key_in_reads_shape(tmp_path: Path) -> None:
    assert (
        main(
            [
                "render",
                "reflecto",
                "--seed",
                "1",
                "--out",
                str(tmp_path),
                "--count",
                "1",
                "--size",
                "1280x960",
            ]
        )
        == 0
    )
    key = json.loads((tmp_path / "0000.json").read_text())
    assert set(key) == {"image", "screens", "warnings"}
    assert cv2.imread(str(tmp_path / "0000.jpg")).shape == (960, 1280, 3)


def test_live_perceiver_learns_the_colours_once_from_the_start_position(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from companion.games.reflecto.vision.perceive import COLOURS_FILE, perceive_frame

    w, h = GEOM.size_mm
    cam = VirtualCamera.looking_at((w / 2, h / 2), 520, tilt_deg=8, yaw_deg=-20)
    settings = SimpleNamespace(data_dir=tmp_path)
    frame = SimpleNamespace(image=table_shot(GEOM, cam, start_position(GEOM), 0, 21))
    first = perceive_frame(frame, SimpleNamespace(), settings)
    assert (tmp_path / COLOURS_FILE).exists()
    assert len(first.data["screens"]) == 14 and first.data["board_found"]
    assert not any("learned from this picture" in w for w in first.data["warnings"])
    later = perceive_frame(
        SimpleNamespace(image=table_shot(GEOM, cam, _position(), 0, 21, shot=1)),
        SimpleNamespace(),
        settings,
    )
    got = {(tuple(s["cell"]), s["owner"]) for s in later.data["screens"]}
    assert got == set(_position().layout_key())
    assert later.data["unclear"] == [] and later.data["hands"] is False


def test_render_json_lists_the_files_written_with_their_truth(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(
            [
                "render",
                "reflecto",
                "--seed",
                "2",
                "--out",
                str(tmp_path),
                "--count",
                "2",
                "--size",
                "1280x960",
                "--setup",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["count"] == 2 and out["seed"] == 2 and out["out"] == str(tmp_path)
    for i, item in enumerate(out["files"]):
        assert item["image"] == str(tmp_path / f"{i:04d}.jpg")
        assert item["setup"] == str(tmp_path / f"{i:04d}-setup.jpg")
        key = json.loads(Path(item["answer_key"]).read_text())
        assert item["screens"] == key["screens"] and key["image"] == item["image"]
        assert cv2.imread(item["setup"]) is not None


def _lamp_on_a_top(
    widen_mm: float, deepen_mm: float
) -> tuple[ScreenColours, np.ndarray, np.ndarray]:
    """The seat colours learnt at set-up, a later shot, and the mask of the screen's top on
    square (2, 3) grown by these mm along and across it: where a lamp's glare is painted."""
    w, h = GEOM.size_mm
    cam = VirtualCamera.looking_at((w / 2, h / 2), 520, tilt_deg=10, yaw_deg=40)
    rect = rectify(table_shot(GEOM, cam, start_position(GEOM), 0, 7), GEOM)
    assert rect is not None
    colours = learn_at_setup(rect, GEOM)
    image = table_shot(GEOM, cam, _position(), 0, 7, shot=1)
    x, y = GEOM.cell_mm((2, 3))
    hw = GEOM.screen_width_mm / 2 + widen_mm
    hd = GEOM.screen_thickness_mm / 2 + deepen_mm
    z = GEOM.screen_height_mm
    top = cam.project(
        np.array(
            [[x - hw, y - hd, -z], [x + hw, y - hd, -z], [x + hw, y + hd, -z], [x - hw, y + hd, -z]]
        )
    )
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(top).astype(np.int32), 255)
    return colours, image, mask


@pytest.mark.parametrize("bleach", [0.35, 0.4])
def test_a_top_washed_out_by_glare_is_unclear_not_empty(bleach: float) -> None:
    """A lamp caught on a glossy top bleaches it toward white, keeping its hue: the square
    is a question for the players, never read as empty (nor as anything else). The bleach
    takes the top under the colour floor (`read.FLOOR`) but leaves its hue."""
    colours, image, mask = _lamp_on_a_top(widen_mm=1.0, deepen_mm=1.0)
    washed = image.astype(np.float32) * (1 - bleach) + 255 * bleach
    image = np.where(mask[..., None] > 0, washed, image).astype(np.uint8)
    got, _ = read_board(image, GEOM, colours)
    assert (2, 3) in got.unclear, got.to_json()
    rest = tuple(k for k in _position().layout_key() if k[0] != (2, 3))
    assert got.layout_key() == rest, got.to_json()


def _pixel(hue_deg: float, strength: float, total: float = 360.0) -> list[float]:
    """A BGR pixel whose chromaticity lies `strength` from grey in the direction `hue_deg`
    (the reader's hue: the angle in the plane of chromaticities)."""
    e1 = np.array([1.0, -1.0, 0.0]) / np.sqrt(2)
    e2 = np.array([1.0, 1.0, -2.0]) / np.sqrt(6)
    h = np.radians(hue_deg)
    chroma = 1 / 3 + strength * (np.cos(h) * e1 + np.sin(h) * e2)
    return [float(v) for v in chroma * total]


def test_a_seat_whose_screens_differ_in_hue_at_setup_is_matched_that_much_wider() -> None:
    """A dull plastic's hue wanders from screen to screen: the set-up row shows how far, and
    a top that far off its seat's median hue is still that seat's, while a seat whose
    screens agreed keeps the narrow match. The nearer hue still says whose."""

    def chroma(hue: float) -> tuple[float, float, float]:
        c = chromaticity(np.array([_pixel(hue, 0.15)], np.float32))[0]
        return float(c[0]), float(c[1]), float(c[2])

    # Set-up: seat 0's screens at hues 0 +- 25, seat 1's all at 150.
    row = np.array([[_pixel(h, 0.15) for h in (-25, -10, 0, 10, 25)] + [_pixel(150, 0.15)] * 5])
    colours = ScreenColours(chroma(0), chroma(150), "set-up", (25.0, 0.0))
    assert ScreenColours.from_json(colours.to_json()).hue_spread == (25.0, 0.0)
    masks = colour_masks(row.astype(np.uint8), colours)
    assert masks[0, 0, :5].all() and masks[1, 0, 5:].all()
    tops = np.array([[_pixel(40, 0.15), _pixel(-40, 0.15), _pixel(115, 0.15), _pixel(95, 0.15)]])
    wide = colour_masks(tops.astype(np.uint8), colours)
    narrow = colour_masks(
        tops.astype(np.uint8), ScreenColours(chroma(0), chroma(150), "set-up", (0.0, 0.0))
    )
    # 40 degrees off seat 0's median: seat 0's only with its spread known.
    assert wide[0, 0, :2].all() and not narrow[0, 0, :2].any()
    # Seat 1's screens agreed at set-up: 35 degrees off its hue is no one's (nearer seat 1's).
    assert not wide[:, 0, 2].any()
    # 95 degrees: nearer seat 1's hue (55 off) than seat 0's (95), so not seat 0's however wide.
    assert not wide[0, 0, 3]


def _grey_plane() -> Rectified:
    """An overhead tops' plane of a plain grey board, for tests to draw tops on."""
    (x0, y0), (x1, y1) = GEOM.grid_box_mm
    size = (
        round((y1 - y0 + 2 * MARGIN_MM) * PX_PER_MM),
        round((x1 - x0 + 2 * MARGIN_MM) * PX_PER_MM),
    )
    overhead = BoardPose(
        np.eye(3), np.zeros(5), np.zeros(3), np.array([0.0, 0.0, 500.0]), (), 0, False
    )
    return Rectified(
        overhead, np.full((*size, 3), 128, np.uint8), (x0 - MARGIN_MM, y0 - MARGIN_MM), ()
    )


def _dull_seat_board(squares: dict[int, list[Cell]]) -> Rectified:
    """An overhead tops' plane with seat 0's screens on `squares[0]`: one strong, the others
    dull (coloured less than `STRONG`) and up to 35 degrees off its hue; seat 1's alike."""
    rect = _grey_plane()
    top = rect.top
    tops = {0: [(0.0, 0.2)] + [(d, 0.11) for d in DULL], 1: [(150.0, 0.2)] * 7}
    half = round(GEOM.square_mm * 0.4 * PX_PER_MM)
    for seat, looks in tops.items():
        for cell, (hue, strength) in zip(squares[seat], looks, strict=True):
            cx, cy = (round(v) for v in rect.px(GEOM.cell_mm(cell)))
            top[cy - half : cy + half, cx - half : cx + half] = _pixel(hue, strength)
    return rect


DULL = [-35.0, -25.0, -15.0, 15.0, 25.0, 35.0]


def _reads_the_dull_seat(colours: ScreenColours | None) -> None:
    assert colours is not None
    assert colours.hue_spread[0] >= 25 and colours.hue_spread[1] < 5
    pixels = np.array([[_pixel(d, 0.11) for d in DULL]]).astype(np.uint8)
    assert colour_masks(pixels, colours)[0].all()


def test_a_dull_seat_is_learned_from_every_screen_of_its_setup_row() -> None:
    """A dull plastic's screens differ in hue and most are coloured less than `STRONG`:
    the set-up row is the seat's screens all the same, so the seat's hue and its spread are
    learned from all of them, and those dull tops 35 degrees off its strong screen's hue are
    read as its colour (with that screen alone, the seat's hue was that screen's and its
    spread none: they read as no colour)."""
    rows = {s: [(GEOM.first_row(s), c) for c in range(GEOM.cols)] for s in (0, 1)}
    _reads_the_dull_seat(learn_at_setup(_dull_seat_board(rows), GEOM))


def test_a_dull_seat_is_learned_the_same_way_from_the_board_live_play_names() -> None:
    """Live play learns the colours from the squares its engine says the screens stand on,
    anywhere on the board, by the same rule as at set-up (`learn_where`): the dull screens
    count too (the table's rule before counted the strongly coloured tops alone)."""
    squares = {
        0: [(3, 0), (2, 2), (4, 5), (1, 6), (5, 1), (3, 3), (2, 4)],
        1: [(0, 3), (6, 2), (4, 1), (5, 5), (1, 0), (3, 6), (2, 6)],
    }
    board = [(cell, seat) for seat, cells in squares.items() for cell in cells]
    _reads_the_dull_seat(learn_where(_dull_seat_board(squares), GEOM, board))


def _setup_rows(looks: dict[int, list[tuple[float, float]]]) -> Rectified:
    """An overhead tops' plane of the start position on a grey board: each seat's first
    row of screens (hue, strength), each drawn the size of a top, with its foot's ledges
    beside it where the camera sees them (`own_faces`) in the same plastic (a top alone,
    with no body, is a printed stripe's look: `read.BODY_CALLED`)."""
    rect = _grey_plane()
    top = rect.top
    hx = round(GEOM.screen_width_mm * 0.45 * PX_PER_MM)
    hy = round(GEOM.screen_thickness_mm * 0.5 * PX_PER_MM)
    for seat, row in looks.items():
        cells = [(GEOM.first_row(seat), col) for col in range(len(row))]
        faces = own_faces(rect, GEOM, cells)
        for cell, polys, (hue, strength) in zip(cells, faces, row, strict=True):
            for ledge in polys[1:]:
                cv2.fillConvexPoly(top, np.round(ledge).astype(np.int32), _pixel(hue, strength))
            cx, cy = (round(v) for v in rect.px(GEOM.cell_mm(cell)))
            top[cy - hy : cy + hy + 1, cx - hx : cx + hx + 1] = _pixel(hue, strength)
    return rect


def test_a_dull_seat_nearer_grey_than_before_is_learned_and_its_screens_read() -> None:
    """A dull plastic, its tops coloured 0.035-0.08 from grey under the set-up's light, is
    learned nearer grey than the 0.06 once refused (the whole board was then lost), and all
    its tops are read as its screens: a pixel is matched against a weak seat's own
    strength, not against `STRONG`'s (at 0.12 the three weakest tops read as no colour)."""
    dull = [(0.0, s) for s in (0.08, 0.035, 0.08, 0.055, 0.035, 0.08, 0.035)]
    rect = _setup_rows({0: [(150.0, 0.2)] * 7, 1: dull})
    colours = learn_at_setup(rect, GEOM)
    assert float(np.linalg.norm(colours.means[1] - GREY)) < 0.06
    assert colours.problems() == []
    seen = {c.cell: c.owner for c in classify(rect, GEOM, colours) if c.owner is not None}
    start = {(GEOM.first_row(s), c): s for s in (0, 1) for c in range(GEOM.cols)}
    assert seen == start


def test_a_grey_seat_is_still_refused() -> None:
    """Screens must be coloured plastic: a seat whose tops lie 0.02 from grey (a grey
    plastic under a faintly coloured light) is refused, not matched on noise."""
    rect = _setup_rows({0: [(150.0, 0.2)] * 7, 1: [(0.0, 0.02)] * 7})
    colours = learn_at_setup(rect, GEOM)
    assert any("too near grey" in p for p in colours.problems())


def test_a_picture_alone_has_its_markers_found_at_half_size_where_a_full_search_puts_them() -> None:
    """A picture that comes without the registration's markers has them looked for on a
    half-size copy (`find_markers`, a quarter of the time): the board it places lies where
    the full-size search places it, within half a pixel at every corner of the grid."""
    from companion.vision.markers import detect_markers

    for seed in (TEST_SEED, TEST_SEED + 1):
        image = render_photo(GEOM, seed, Conditions(sizes=((1280, 960),), hands=0)).image
        fast = rectify(image, GEOM)
        full = rectify(image, GEOM, detect_markers(image))
        assert fast is not None and full is not None
        assert fast.markers_seen == full.markers_seen == (20, 21, 22, 23)
        (x0, y0), (x1, y1) = GEOM.grid_box_mm
        grid = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64)
        at = [cv2.perspectiveTransform(grid, r.pose.plane_homography(0.0))[0] for r in (fast, full)]
        assert np.abs(at[0] - at[1]).max() < 0.5


@pytest.mark.parametrize("hidden", [20, 21, 22, 23])
def test_a_hidden_corner_marker_leaves_the_others_where_a_full_search_puts_them(
    hidden: int,
) -> None:
    """With one corner marker covered (a hand), the half-size search finds three and the
    full-size search is made only round the markers (`board_markers`): it finds the same
    three as a search of the whole picture, at the same corners, and no fourth."""
    from companion.vision.markers import detect_markers

    image = render_photo(GEOM, TEST_SEED, Conditions(sizes=((1280, 960),), hands=0)).image
    whole = detect_markers(image)
    assert hidden in whole
    cover = whole[hidden].corners
    centre = cover.mean(axis=0)
    hand = np.round(centre + 1.6 * (cover - centre)).astype(np.int32)
    image = image.copy()
    cv2.fillConvexPoly(image, hand, (120, 130, 140))
    full = {i: m for i, m in detect_markers(image).items() if i in (20, 21, 22, 23)}
    found = board_markers(image, GEOM, full_size_corners=False)
    assert sorted(found) == sorted(full) == sorted({20, 21, 22, 23} - {hidden})
    for i, m in full.items():
        assert np.abs(found[i].corners - m.corners).max() < 1e-3


def test_a_top_burnt_white_keeps_its_colour_on_its_body_where_an_empty_square_shows_print() -> None:
    """A lamp straight above a glossy top can burn it out to white along all its length and
    most of its depth: the strip shows no colour and is read as empty, but the screen's own
    body round it (the top's edges, its foot's ledges, the sliver of its side) is still its
    plastic (`PrintShares.body`, asked of `print_shares`), where an empty square shows its
    print."""
    colours, image, mask = _lamp_on_a_top(widen_mm=0.5, deepen_mm=-0.5)
    burnt = image.copy()
    burnt[mask > 0] = (250, 251, 252)
    got, burnt_rect = read_board(burnt, GEOM, colours)
    assert (2, 3) not in dict(got.layout_key()), got.to_json()
    assert burnt_rect is not None
    ev = evidence(burnt_rect, GEOM, colours, (FLOOR, FAINT_FLOOR))
    washed, other_seat, empty = print_shares(
        burnt_rect, GEOM, ev, [((2, 3), 0), ((2, 3), 1), ((3, 3), 0)], 1, body=True
    )
    assert washed.body is not None and washed.body >= 0.4, washed
    assert other_seat.body is not None and other_seat.body < 0.1, other_seat
    assert empty.body is not None and empty.body < 0.1, empty
    # Not asked for, not computed (a read asks it only of strips called by colour).
    assert print_shares(burnt_rect, GEOM, ev, [((2, 3), 0)], 1)[0].body is None


def test_the_renderer_names_the_tops_its_lamp_washes_out() -> None:
    """The renderer's lamp washes a top from a spot to all of it; the answer key names the
    squares whose top is mostly glare (`Photo.washed`, where the benchmark lets a reader
    ask), and only squares where a screen stands."""
    named = 0
    for i in range(40):
        washed: set[Cell] = set()
        rng = np.random.default_rng([TEST_SEED, 90, i])
        solids = screen_solids(
            GEOM, start_position(GEOM), ((20, 30, 200), (200, 60, 20)), rng, washed=washed
        )
        assert washed <= {cell for cell, _ in start_position(GEOM).layout_key()}
        assert len(washed) <= sum(1 for s in solids if s.decals)
        named += len(washed)
    assert named > 0


@pytest.mark.parametrize("depth_mm", [3.0, 5.0])
def test_a_stripe_printed_in_a_seats_colour_under_an_empty_strip_is_asked_not_read(
    depth_mm: float,
) -> None:
    """A board's line printed in a seat's colour, narrower than the margin the print test
    leaves round a top (a frame line the tilt pulls onto a first row), lies under an empty
    square's strip with nothing of its colour beside it: by the strip alone a top. A top is
    one plastic with its body (`PrintShares.body`); the stripe has none: it is asked about,
    never read as a screen, and the screens standing are read as before."""
    colours, image, top = _lamp_on_a_top(widen_mm=0.0, deepen_mm=0.0)
    plastic = np.median(image[top > 0], axis=0)
    w, h = GEOM.size_mm
    cam = VirtualCamera.looking_at((w / 2, h / 2), 520, tilt_deg=10, yaw_deg=40)
    x, y = GEOM.cell_mm((3, 3))  # empty in `_position`
    hw, hd, z = GEOM.screen_width_mm / 2, depth_mm / 2, GEOM.screen_height_mm
    stripe = cam.project(
        np.array(
            [[x - hw, y - hd, -z], [x + hw, y - hd, -z], [x + hw, y + hd, -z], [x - hw, y + hd, -z]]
        )
    )
    cv2.fillConvexPoly(image, np.round(stripe).astype(np.int32), [float(v) for v in plastic])
    got, _ = read_board(image, GEOM, colours)
    assert (3, 3) not in dict(got.layout_key()), got.to_json()
    assert dict(got.decided_by)[(3, 3)] != "colour", got.decided_by
    assert got.layout_key() == _position().layout_key(), got.to_json()


@pytest.mark.parametrize(("depth_mm", "past_mm"), [(13.0, 3.0), (14.0, 3.0), (13.0, 6.0)])
def test_a_stripe_going_on_past_a_screens_ends_is_not_its_side(
    depth_mm: float, past_mm: float
) -> None:
    """A stripe printed along the row in a seat's colour, deeper than a top, lies under an
    empty square's strip and shows its colour where a screen's upright sides would: by the
    strip and its sides a top: it is asked about, never read as a screen. A screen's side
    ends with the screen, the stripe goes on past the screen's ends (`side_ends` in the
    curves tool, looked at where no screen can reach; refl25 read such strips by it and
    took that out, see docs/reflecto.md): a standing screen's ends show none of its colour,
    the stripe's show it."""
    colours, image, top = _lamp_on_a_top(widen_mm=0.0, deepen_mm=0.0)
    plastic = np.median(image[top > 0], axis=0)
    got, rect = read_board(image, GEOM, colours)
    assert rect is not None
    ev = evidence(rect, GEOM, colours, (FLOOR, FAINT_FLOOR))
    held = {cell for cell, _ in _position().layout_key()}
    reach = [
        p for cell, p in zip(GEOM.cells, screen_reach(rect, GEOM), strict=True) if cell in held
    ]
    standing = [v for v in side_ends(rect, GEOM, ev, (2, 3), 0, reach) if v is not None]
    assert standing and max(standing) < OWN_ENDS, standing
    w, h = GEOM.size_mm
    cam = VirtualCamera.looking_at((w / 2, h / 2), 520, tilt_deg=10, yaw_deg=40)
    x, y = GEOM.cell_mm((3, 3))  # empty in `_position`, and so are its neighbours on the row
    hw, hd, z = GEOM.screen_width_mm / 2 + past_mm, depth_mm / 2, GEOM.screen_height_mm
    stripe = cam.project(
        np.array(
            [[x - hw, y - hd, -z], [x + hw, y - hd, -z], [x + hw, y + hd, -z], [x - hw, y + hd, -z]]
        )
    )
    cv2.fillConvexPoly(image, np.round(stripe).astype(np.int32), [float(v) for v in plastic])
    got, rect = read_board(image, GEOM, colours)
    assert rect is not None
    assert (3, 3) not in dict(got.layout_key()), got.to_json()
    assert (3, 3) in got.unclear, got.to_json()
    ev = evidence(rect, GEOM, colours, (FLOOR, FAINT_FLOOR))
    going_on = [v for v in side_ends(rect, GEOM, ev, (3, 3), 0, reach) if v is not None]
    assert going_on and max(going_on) >= OWN_ENDS, going_on
    assert got.layout_key() == _position().layout_key(), got.to_json()
