"""The board's own empty look: learnt from a photograph of the empty board (or the live
table's free squares), then each square judged by what changed on it."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.games.queen_alice.vision.empty import Change, light_fit, like_a_piece
from companion.games.queen_alice.vision.geometry import load_geometry
from companion.games.queen_alice.vision.read import (
    by_change,
    learn_empty_board,
    learn_free_squares,
    locate,
    mm_to_pixels,
    read_board,
    square_points,
)
from companion.games.queen_alice.vision.reading import BoardReading
from companion.games.queen_alice.vision.render import Conditions, render_empty, render_photo

GEOM = load_geometry()


@pytest.fixture(scope="module")
def boxes() -> list[tuple[np.ndarray, np.ndarray, dict[tuple[int, int], str]]]:
    """(photo, the box's empty-board photo, the position) for development boxes, no arms."""
    out = []
    for i in range(6):
        photo = render_photo(GEOM, (75, i), Conditions(hands=0))
        out.append(
            (
                photo.image,
                render_empty(GEOM, (75, i), Conditions(hands=0)),
                dict(photo.position.squares),
            )
        )
    return out


def test_the_learnt_look_is_the_print_seen_straight_down(boxes: list) -> None:
    """Sampled at any board point, the rectified look gives the teach photo's own pixel
    there: the raster and the sampling agree on where a board point is."""
    _, teach, _ = boxes[0]
    learnt = learn_empty_board(teach, GEOM)
    assert learnt is not None
    look = learnt[0]
    assert look.known.all()
    where = locate(teach, GEOM)
    assert where is not None
    disc = square_points(GEOM, where, GEOM.cells).disc.reshape(-1, 2)
    direct = mm_to_pixels(where.pose, disc)
    seen = cv2.remap(
        teach.astype(np.float32),
        direct[:, 0].reshape(1, -1),
        direct[:, 1].reshape(1, -1),
        cv2.INTER_LINEAR,
    ).reshape(-1, 3)
    assert float(np.median(np.abs(look.sample(disc) - seen))) < 4.0


def test_with_its_empty_board_learnt_the_reader_calls_more_pieces_and_no_phantom(
    boxes: list,
) -> None:
    """The pieces a single photograph asks about or misses (a pale white on a light print,
    a checker as wide as its square) are found by what they change; never a phantom, never
    the wrong colour."""
    right = {"photo": 0, "board": 0}
    for image, teach, position in boxes:
        learnt = learn_empty_board(teach, GEOM)
        assert learnt is not None
        for mode, empty in (("photo", None), ("board", learnt[0])):
            reading = read_board(image, geom=GEOM, empty=empty)
            for cell in GEOM.cells:
                want = position.get(cell, "empty")
                got = "unsure" if cell in reading.unsure else reading.squares.get(cell, "empty")
                right[mode] += got == want
                if mode == "board":
                    assert not (want == "empty" and got in ("red", "white")), cell
                    assert not (want != "empty" and got not in (want, "unsure")), cell
    assert right["board"] > right["photo"]
    assert right["board"] >= 0.98 * len(boxes) * len(GEOM.cells)


def test_squares_not_learnt_are_read_from_the_photo_alone(boxes: list) -> None:
    image, teach, _ = boxes[1]
    learnt = learn_empty_board(teach, GEOM)
    assert learnt is not None
    look = learnt[0]
    look.known[:] = False
    assert read_board(image, geom=GEOM, empty=look) == read_board(image, geom=GEOM)


def _change(
    share: list[float],
    steps: list[float],
    hue: list[float],
    tone: list,
    covered: list[float] | None = None,
) -> Change:
    colour = np.array(tone, np.float32) * np.array([2.0, 1.0, 1.0], np.float32)  # Lab
    return Change(
        np.array(share, np.float32),
        colour,
        np.array(steps, np.float32),
        np.array(hue, np.float32),
        np.array(covered if covered is not None else [0.0] * len(share), np.float32),
    )


RED, WHITE = (15.0, 45.0, 20.0), (40.0, 0.0, 6.0)  # in board_tone


def test_a_change_like_a_piece_is_a_piece_of_its_nearer_colour_and_light_is_asked() -> None:
    """Two reds and two whites change their squares with an outline and a colour of their
    own. A glare the light fit missed changes a square as much, smoothly and in the print's
    own hue: asked about where the picture alone is unsure, empty where it plainly sees the
    print (its colours and a flat disc), asked where its disc is busy. A smooth change to
    the board's own red, with no outline, is asked about; so is a change like a piece where
    the picture alone plainly sees the print, or near a might-be arm. Almost nothing
    changed is empty whatever the picture alone said; a square not learnt (NaN) and one
    under an arm (`skip`) keep their calls."""
    glare = (30.0, 8.0, 10.0)
    tones = [RED, RED, WHITE, WHITE, glare, (20, 0, 0), (0, 0, 0), RED, glare, glare, RED]
    change = _change(
        [0.9, 0.8, 0.7, 0.95, 0.9, 0.05, np.nan, 0.9, 0.9, 0.9, 0.7, 0.9, 0.9],
        [20.0, 15.0, 18.0, 14.0, 4.5, 1.0, 0.0, 20.0, 4.0, 4.0, 5.0, 20.0, 20.0],
        [30.0, 25.0, 10.0, 9.0, 10.0, 1.0, 0.0, 20.0, 10.0, 10.0, 20.0, 20.0, 20.0],
        [*tones, WHITE, WHITE],
    )
    assert like_a_piece(change, 0) and not like_a_piece(change, 4)
    calls = (
        [("unsure", 0.0)] * 6
        + [("white", 0.9), ("empty", 1.0)]
        + [("empty", 1.0), ("empty", 1.0), ("unsure", 0.0), ("empty", 1.0), ("unsure", 0.0)]
    )
    spread = np.array([2.0] * 9 + [20.0, 2.0, 2.0, 2.0], np.float32)
    out = [v for v, _ in by_change(calls, change, skip={7}, spread=spread, ask={12})]
    assert out == [
        "red",
        "red",
        "white",
        "white",
        "unsure",
        "empty",
        "white",
        "empty",
        "empty",
        "unsure",
        "unsure",
        "unsure",
        "unsure",
    ]
    # without the second opinions the same changes are pieces
    calls[11] = ("unsure", 0.0)
    assert by_change(calls, change, skip={7}, spread=spread)[11][0] == "white"
    assert by_change(calls, change, skip={7}, spread=spread)[12][0] == "white"


def test_a_piece_over_its_own_strips_is_not_vetoed_by_the_photo_alone() -> None:
    """A checker as wide as its square covers the strips the picture alone compares its
    middle with, so that picture sees "the print" on it: where those strips changed too
    (`covered`), the change decides; where they did not, the picture alone's veto stands."""
    change = _change(
        [0.95, 0.95, 0.95, 0.95, 0.95, 0.95],
        [20.0] * 6,
        [20.0] * 6,
        [RED, RED, WHITE, WHITE, RED, WHITE],
        covered=[0.0, 0.0, 0.0, 0.0, 1.0, 0.75],
    )
    calls = [("red", 1.0), ("empty", 1.0), ("white", 1.0), ("empty", 1.0)] + [("empty", 1.0)] * 2
    spread = np.array([2.0] * 6, np.float32)
    out = [v for v, _ in by_change(calls, change, skip=set(), spread=spread)]
    assert out == ["red", "unsure", "white", "unsure", "red", "white"]


def test_a_piece_the_photo_alone_names_otherwise_is_asked() -> None:
    change = _change(
        [0.9, 0.9, 0.9, 0.9, 0.9],
        [20.0] * 5,
        [20.0] * 5,
        [RED, RED, WHITE, WHITE, WHITE],
    )
    calls = [("red", 1.0)] * 2 + [("white", 1.0)] * 2 + [("red", 0.8)]
    assert [v for v, _ in by_change(calls, change, skip=set())][4] == "unsure"


def test_the_light_fit_takes_a_cast_a_gain_and_a_glare() -> None:
    """The learnt print through a warmer light, dimmer on one square and whitened by a
    glare on another: each square's fit gives its print as seen now."""
    rng = np.random.default_rng(3)
    then = rng.uniform(40, 160, (6, 4, 3))
    cast = np.array([0.9, 1.0, 1.1])
    gain = np.array([1.0, 0.6, 1.2, 0.5, 1.0, 0.8])
    offset = np.array([0.0, 0.0, 0.0, 90.0, 0.0, 0.0])  # a glare on square 3
    now = then * cast * gain[:, None, None] + offset[:, None, None]
    got_cast, got_gain, got_offset = light_fit(now, then)
    seen = then * got_cast * got_gain[:, None, None] + got_offset[:, None, None]
    assert np.max(np.abs(seen - now)) < 5.0  # grey levels: far below a change (`CHANGED`)


def test_the_live_table_learns_only_the_free_squares(boxes: list) -> None:
    image, _, position = boxes[2]
    look = learn_free_squares(None, image, set(position))
    assert look is not None
    known = {c for c, k in zip(GEOM.cells, look.known, strict=True) if k}
    assert known == set(GEOM.cells) - set(position)
    blank = np.full((960, 1280, 3), 128, np.uint8)
    assert learn_free_squares(look, blank, set()) is look  # no board seen: nothing learnt
    assert known == {c for c, k in zip(GEOM.cells, look.known, strict=True) if k}


def test_the_live_table_learns_by_the_readings_pose_as_by_its_own(boxes: list) -> None:
    """`learn_free_squares` given the frame's reading's pose (`BoardReading.pose`, the live
    table's way) learns the very print it learns working the pose out again."""
    image, _, position = boxes[4]
    reading = read_board(image, geom=GEOM)
    assert reading.pose is not None
    again = learn_free_squares(None, image, set(position))
    given = learn_free_squares(None, image, set(position), pose=reading.pose)
    assert again is not None and given is not None
    assert np.array_equal(again.known, given.known)
    assert np.array_equal(again.raster, given.raster)
    assert read_board(np.full((960, 1280, 3), 128, np.uint8), geom=GEOM).pose is None


def test_read_with_a_board_photo(
    tmp_path: Path, boxes: list, capsys: pytest.CaptureFixture[str]
) -> None:
    image, teach, position = boxes[3]
    cv2.imwrite(str(tmp_path / "board.jpg"), teach, [cv2.IMWRITE_JPEG_QUALITY, 95])
    cv2.imwrite(str(tmp_path / "photo.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    args = ["read", "queen-alice", str(tmp_path / "photo.jpg"), "--json"]
    assert main([*args, "--board", str(tmp_path / "board.jpg")]) == 0
    out = capsys.readouterr().out
    reading = json.loads(out)
    got = {tuple(s["cell"]): s["colour"] for s in reading["squares"]}
    asked = BoardReading.from_json(reading).unsure
    assert {c: v for c, v in position.items() if c not in asked} == got
    cv2.imwrite(str(tmp_path / "blank.png"), np.full((480, 640, 3), 128, np.uint8))
    assert main([*args, "--board", str(tmp_path / "blank.png")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "markers" in err and "Traceback" not in err
    assert main([*args, "--board", str(tmp_path / "nothing.jpg")]) == 2
    assert "nothing.jpg" in capsys.readouterr().err
