"""The board's own print: a square once seen empty is judged by change against its print.

A board printed in a player's hue defeats the reader's single-photo test in shades near a
top's (the print beside the strip is the same colour, so the reader asks); a photograph of
the empty board, taken under other light from another tilt and turn, tells a top from the
print under it (`board_print.py`).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

import companion.games.reflecto.vision.board_print as board_print
import companion.games.reflecto.vision.read as read
from companion.games.reflecto.vision.board_print import (
    Change,
    blank_print,
    board_to_top,
    learn_from,
    learn_print,
)
from companion.games.reflecto.vision.render import (
    BOARD_RIM_MM,
    CANVAS_PX_PER_MM,
    random_colours,
    shoot,
    start_position,
)
from companion.sim import effects
from companion.sim.camera import VirtualCamera
from companion.sim.conditions import Conditions

from .test_vision_print import GEOM, POSITION, H, W, printed_canvas

STILL = Conditions(glare=False)


def _table(seed: int, value: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Set-up, POSITION and the empty board, on a board whose playing area is printed in
    checks of seat 0's hue (at `value` and 0.8 times `value` its plastic's brightness); the
    empty board from another camera, on another table, in dimmer, warmer light."""
    rng = np.random.default_rng(seed)
    colours = random_colours(rng)
    canvas = printed_canvas(rng, colours[0], value, 0.8 * value)

    def photo(cam: VirtualCamera, position: object, shot: int) -> np.ndarray:
        table = effects.table_texture(cam.width, cam.height, np.random.default_rng([seed, shot]))
        base = cam.render_plane(
            canvas, CANVAS_PX_PER_MM, (-BOARD_RIM_MM, -BOARD_RIM_MM), background=table
        )
        return shoot(
            base,
            GEOM,
            position,  # type: ignore[arg-type]
            colours,
            cam,
            np.random.default_rng([seed, shot]),
            hands=0,
            conditions=STILL,
        )

    cam = VirtualCamera.looking_at((W / 2, H / 2), 520, tilt_deg=18.0, yaw_deg=35.0)
    other = VirtualCamera.looking_at((W / 2 + 8, H / 2 - 5), 470, tilt_deg=10.0, yaw_deg=200.0)
    empty = photo(other, type(POSITION)(()), 2).astype(np.float32) * (0.8, 0.85, 0.95)
    return (
        photo(cam, start_position(GEOM), 0),
        photo(cam, POSITION, 1),
        np.clip(empty, 0, 255).astype(np.uint8),
    )


@pytest.mark.parametrize("value", [0.8, 0.9])
def test_the_empty_boards_print_tells_tops_from_a_print_in_their_hue(value: float) -> None:
    setup, image, empty = _table(23, value)
    rect = read.rectify(setup, GEOM)
    assert rect is not None
    colours = read.learn_at_setup(rect, GEOM)
    alone, _ = read.read_board(image, GEOM, colours)
    assert alone.layout_key() != POSITION.layout_key()  # one photograph cannot tell
    taught = learn_print(empty, GEOM)
    assert taught is not None and taught.known.mean() > 0.9
    got, _ = read.read_board(image, GEOM, colours, board_print=taught)
    assert got.layout_key() == POSITION.layout_key(), got.to_json()
    assert got.unclear == ()


def test_a_print_learned_square_by_square_serves_only_where_known() -> None:
    """Live play learns the print of the squares the engine says are free: a square whose
    print is not known is read from the picture alone, one whose print is known by change."""
    setup, image, _ = _table(23, 0.9)
    rect = read.rectify(setup, GEOM)
    assert rect is not None
    colours = read.learn_at_setup(rect, GEOM)
    ev = read.evidence(rect, GEOM, colours, (read.FLOOR,))
    ref = blank_print(GEOM)
    assert read.print_changes(rect, GEOM, ev, ref) == [None] * len(GEOM.cells)
    # The start position: every row but the first rows is empty, and so is the board no
    # screen can reach.
    A = board_to_top(ref, rect.pose, GEOM, rect.origin_mm, read.PX_PER_MM)
    empty = read.empty_mask(rect, GEOM, ev.polys, [c for c in GEOM.cells if c[0] not in (0, 6)])
    learn_from(ref, rect.top, A, empty)
    changes = read.print_changes(rect, GEOM, ev, ref)
    for cell, change in zip(GEOM.cells, changes, strict=True):
        if cell[0] in (0, 6):
            assert change is None, cell
        else:
            assert change is not None and change.share < 0.1, (cell, change)
    got, _ = read.read_board(image, GEOM, colours, board_print=ref)
    truth = dict(POSITION.layout_key())
    assert [s.cell for s in got.screens if truth.get(s.cell) != s.owner] == []
    middle = {(c, o) for c, o in POSITION.layout_key() if c[0] not in (0, 6)}
    assert middle <= set(got.layout_key()), got.to_json()


def test_read_board_flag(tmp_path: Path) -> None:
    _, image, empty = _table(23, 0.9)
    cv2.imwrite(str(tmp_path / "board.png"), image)
    cv2.imwrite(str(tmp_path / "empty.png"), empty)
    cv2.imwrite(str(tmp_path / "blank.png"), np.full((480, 640, 3), 128, np.uint8))

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "companion", "read", "reflecto", *args],
            capture_output=True,
            text=True,
            timeout=300,
        )

    done = run(str(tmp_path / "board.png"), "--board", str(tmp_path / "empty.png"), "--json")
    assert done.returncode == 0, done.stderr
    bad = run(str(tmp_path / "board.png"), "--board", str(tmp_path / "blank.png"))
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "corner markers are not seen" in bad.stderr and "Traceback" not in bad.stderr
    missing = run(str(tmp_path / "board.png"), "--board", str(tmp_path / "none.png"))
    assert missing.returncode == 2 and "no such file" in missing.stderr


def test_the_renderers_empty_board_changes_no_photograph_and_shows_no_screen() -> None:
    from companion.games.reflecto.vision.render import render_photo

    plain = render_photo(GEOM, (4, 1), Conditions(hands=0))
    photo = render_photo(GEOM, (4, 1), Conditions(hands=0), board=True)
    assert photo.board is not None and np.array_equal(plain.image, photo.image)
    taught = learn_print(photo.board, GEOM)
    assert taught is not None
    got, _ = read.read_board(photo.board, GEOM, _colours(photo.colours), board_print=taught)
    assert got.screens == ()


def _colours(bgr: tuple) -> read.ScreenColours:
    """The screens' colours as the reader learns them (median chromaticity)."""
    from companion.games.reflecto.vision.colours import chromaticity

    c = [tuple(float(v) for v in chromaticity(np.array([x], np.uint8))[0]) for x in bgr]
    return read.ScreenColours(c[0], c[1], learned_from="set-up")  # type: ignore[arg-type]


def test_a_strip_changed_all_over_with_some_of_a_seats_colour_is_its_washed_screen() -> None:
    """A lamp's glare bleaches a top toward white: less than `SURE` of its strip keeps the
    seat's colour, but all of it changed from the print. With `NONE` of one seat's colour
    and none of the other's it is that seat's screen; changed less, it stays a question
    (a top the colour of its print, or the print in other light); so does one whose board
    round it changed (an arm), or one with both seats' colours, at the faint floor too."""
    cell = (3, 2)
    washed = read.judge_by_print(cell, (0.0, 0.35), (0.0, 0.5), Change(0.95, (0.0, 0.2)))
    assert (washed.owner, washed.unclear) == (1, False), washed
    assert washed.confidence < 0.75  # less sure than a top in its full colour
    part = read.judge_by_print(cell, (0.0, 0.35), (0.0, 0.5), Change(0.5, (0.0, 0.2)))
    assert (part.owner, part.unclear) == (None, True), part
    arm = read.judge_by_print(cell, (0.0, 0.35), (0.0, 0.5), Change(0.95, (0.0, 0.2), (0.0, 0.3)))
    assert (arm.owner, arm.unclear) == (None, True), arm
    # An arm coloured only in part like the plastic changes the board round the square.
    sleeve = read.judge_by_print(
        cell, (0.0, 0.35), (0.0, 0.5), Change(0.95, (0.0, 0.2), (0.0, 0.0), 0.3)
    )
    assert (sleeve.owner, sleeve.unclear) == (None, True), sleeve
    both = read.judge_by_print(cell, (0.3, 0.35), (0.3, 0.5), Change(0.95, (0.3, 0.2)))
    assert (both.owner, both.unclear) == (None, True), both
    faint = read.judge_by_print(cell, (0.0, 0.2), (0.0, 0.6), Change(0.95, (0.0, 0.1)))
    assert (faint.owner, faint.unclear) == (None, True), faint
    # A bleached top's hue may slide toward the other seat's: with `NONE` of that seat's
    # colour at the faint floor, whose it is stays a question.
    drift = read.judge_by_print(cell, (0.0, 0.35), (0.3, 0.5), Change(0.95, (0.0, 0.2)))
    assert (drift.owner, drift.unclear) == (None, True), drift


def test_a_strip_judged_in_loosely_told_light_is_a_screen_only_when_most_of_it_changed() -> None:
    """Where the print is put in this picture's light only loosely (`Change.loose`), part
    of an empty strip printed in a seat's colour reads as changed: a strip in the seat's
    full colour changed over `SCREEN_CHANGE` but under `CHANGED_MOST` is a question there,
    a screen where the light is told well; changed over `CHANGED_MOST` it is the seat's
    screen either way."""
    cell = (2, 4)
    part = Change(0.45, (0.9, 0.0))
    assert read.SCREEN_CHANGE <= part.share < read.CHANGED_MOST
    well = read.judge_by_print(cell, (0.9, 0.0), (0.9, 0.0), part)
    assert (well.owner, well.unclear) == (0, False), well
    loose = read.judge_by_print(
        cell, (0.9, 0.0), (0.9, 0.0), Change(0.45, (0.9, 0.0), (0.0, 0.0), 0.0, True)
    )
    assert (loose.owner, loose.unclear, loose.why) == (None, True, "changed, loose light"), loose
    most = read.judge_by_print(
        cell, (0.9, 0.0), (0.9, 0.0), Change(0.95, (0.9, 0.0), (0.0, 0.0), 0.0, True)
    )
    assert (most.owner, most.unclear) == (0, False), most


def test_the_light_is_told_loosely_between_fit_and_fit_loose(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`light_against_print`: the print put in this light within `FIT` is told well; off it by
    more than `FIT` but within `FIT_LOOSE` (median BGR) loosely; by more, not at all (None: the
    square is read from the picture alone). `FIT_LOOSE` is `FIT` in the reader (no light
    told loosely, refl30); the curve tool sets a wider one, as here."""
    monkeypatch.setattr(board_print, "FIT_LOOSE", board_print.FIT + 8.0)
    rng = np.random.default_rng(7)
    ref = rng.uniform(40, 200, (400, 3)).astype(np.float32)
    noise = rng.choice([-1.0, 1.0], (400, 3)).astype(np.float32)

    def told(off: float) -> tuple[np.ndarray, np.ndarray, bool] | None:
        # Every pixel off its print by `off` (BGR distance) in a random sign per channel.
        return board_print.light_against_print(ref * 1.1 + noise * off / np.sqrt(3), ref)

    mid = (board_print.FIT + board_print.FIT_LOOSE) / 2
    well, loose, lost = told(board_print.FIT / 2), told(mid), told(board_print.FIT_LOOSE + 6)
    assert well is not None and well[2] is False
    assert loose is not None and loose[2] is True
    assert lost is None
    monkeypatch.setattr(board_print, "FIT_LOOSE", board_print.FIT)
    assert told(mid) is None  # the reader's own: what is not told well is not told


def test_a_screen_called_by_change_where_the_picture_alone_sees_the_print_is_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The empty board's photo of another board (its print in another hue): the squares
    printed in seat 0's hue changed from that print, in seat 0's colour, so the change calls
    them seat 0's screens; the picture alone finds their colours on the board beside them
    (`read.CHANGED_PRINTED`): they are asked about, and no screen is."""
    setup, image, _ = _table(23, 0.9)
    _, _, another = _table(24, 0.9)
    rect = read.rectify(setup, GEOM)
    assert rect is not None
    colours = read.learn_at_setup(rect, GEOM)
    taught = learn_print(another, GEOM)
    truth = dict(POSITION.layout_key())

    def phantoms(got: object) -> set[tuple[int, int]]:
        return {c for c, _ in got.layout_key() if c not in truth}  # type: ignore[attr-defined]

    monkeypatch.setattr(read, "CHANGED_PRINTED", float("inf"))
    off, _ = read.read_board(image, GEOM, colours, board_print=taught)
    monkeypatch.undo()
    on, _ = read.read_board(image, GEOM, colours, board_print=taught)
    asked = {c for c, why in on.decided_by if why == "changed, printed"}
    by_change = {c for c, why in off.decided_by if why in read.CHANGED_CALLS}
    assert len(asked) >= 3 and asked <= phantoms(off) & by_change
    assert phantoms(on) == phantoms(off) - asked
    assert set(on.unclear) >= asked
    assert {s for s in on.layout_key() if s[0] in truth} == {
        s for s in off.layout_key() if s[0] in truth
    }


@pytest.mark.parametrize("n", [1, 2, 3, 10, 11, 97, 400, 801])
def test_the_quick_quantiles_and_median_are_numpys_to_the_last_bit(n: int) -> None:
    rng = np.random.default_rng(n)
    for dtype in (np.float32, np.float64):
        values = (rng.normal(120, 60, (n, 6)) * rng.uniform(0.1, 3)).astype(dtype)
        want = np.percentile(values, (10, 50, 90), axis=0)
        got = board_print.spread_quantiles(values.copy())
        assert got.dtype == want.dtype
        assert np.array_equal(got, want)
        column = values[:, 0].astype(np.float64)
        kept = column.copy()
        assert board_print.median(column) == float(np.median(column))
        assert np.array_equal(column, kept)


def test_the_light_is_fitted_from_the_boards_percentiles() -> None:
    rng = np.random.default_rng(7)
    ref = rng.uniform(20, 170, (500, 3)).astype(np.float32)
    cur = np.clip(ref * np.float32(1.3) + 10 + rng.normal(0, 2, ref.shape), 0, 255).astype(np.uint8)
    fitted = board_print.light_against_print(cur, ref)
    assert fitted is not None
    gain, offset, loose = fitted
    c = np.percentile(cur.astype(np.float32), (10, 50, 90), axis=0)
    r = np.percentile(ref, (10, 50, 90), axis=0)
    scale = (c[2] - c[0]) / (r[2] - r[0])
    assert np.array_equal(gain, scale.astype(np.float32))
    assert np.array_equal(offset, (c[1] - scale * r[1]).astype(np.float32))
    assert not loose
    assert np.allclose(gain, 1.3, atol=0.05)
