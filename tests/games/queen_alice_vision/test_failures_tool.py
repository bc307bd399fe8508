"""The failures tool's classes and its `--against` listing: a square counts wrong exactly
when `queen_alice_vision.py` counts it wrong (a piece an arm hides read empty included), and
every square whose reading moved between two readers is listed with its change of outcome."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))

from benchmarks.queen_alice_failures import changes, faults, outcome  # noqa: E402
from benchmarks.queen_alice_vision import judge  # noqa: E402
from companion.games.queen_alice.vision.reading import BoardReading  # noqa: E402

CELLS = ((0, 0), (0, 1), (1, 0), (1, 1))
HIDDEN = (0, 0)
"""A red an arm hides: the truth leaves it unsure, the arm comes near it."""


def _photo() -> SimpleNamespace:
    position = BoardReading(squares={HIDDEN: "red", (1, 0): "white"}, crowns_left=3)
    truth = BoardReading(squares={(1, 0): "white"}, unsure=frozenset({HIDDEN}), crowns_left=3)
    return SimpleNamespace(position=position, truth=truth, near_arm=frozenset({HIDDEN, (0, 1)}))


def test_a_hidden_piece_read_empty_is_a_fault_as_the_benchmark_judges() -> None:
    photo = _photo()
    reading = BoardReading(squares={(1, 0): "white"}, crowns_left=3)
    kinds, wrong = faults(reading, photo, CELLS)
    assert kinds == ["missed_hidden"]
    assert wrong == [(HIDDEN, "red", "empty")]
    verdict = judge(reading, photo.truth, photo.near_arm, photo.position, CELLS)
    assert not verdict["right"]


def test_asking_near_an_arm_is_no_fault_and_asking_away_from_one_is() -> None:
    photo = _photo()
    near = BoardReading(squares={(1, 0): "white"}, unsure=frozenset({HIDDEN}), crowns_left=3)
    assert faults(near, photo, CELLS) == ([], [])
    away = BoardReading(squares={}, unsure=frozenset({HIDDEN, (1, 0)}), crowns_left=3)
    assert faults(away, photo, CELLS)[0] == ["asked_piece"]


def test_each_class_is_named_and_agrees_with_the_benchmark() -> None:
    photo = _photo()
    reading = BoardReading(squares={HIDDEN: "white", (1, 0): "red", (1, 1): "red"}, crowns_left=2)
    kinds, wrong = faults(reading, photo, CELLS)
    assert sorted(kinds) == ["crowns", "phantom", "wrong_colour", "wrong_colour"]
    verdict = judge(reading, photo.truth, photo.near_arm, photo.position, CELLS)
    assert wrong == verdict["squares_wrong"]


def test_outcome() -> None:
    assert outcome("red", "red") == "right"
    assert outcome("red", "unsure") == "asked"
    assert outcome("empty", "unsure") == "asked"
    assert outcome("red", "empty") == "wrong"
    assert outcome("red", "white") == "wrong"
    assert outcome("empty", "white") == "phantom"


def test_changes_lists_every_moved_square_with_its_change_of_outcome() -> None:
    photo = _photo()
    then = BoardReading(
        squares={(1, 0): "white"}, unsure=frozenset({HIDDEN, (0, 1)}), crowns_left=3
    )
    now = BoardReading(squares={HIDDEN: "red", (1, 0): "white", (1, 1): "red"}, crowns_left=None)
    moved = changes(now, then, photo.truth, photo.position, CELLS)
    by_what = {str(m["what"]): m["change"] for m in moved}
    assert by_what == {
        "[0, 0]": "asked->right",
        "[0, 1]": "asked->right",
        "[1, 1]": "right->phantom",
        "crowns": "right->asked",
    }
    assert changes(then, then, photo.truth, photo.position, CELLS) == []
    gone = changes(then, now, photo.truth, photo.position, CELLS)
    assert {str(m["what"]): m["change"] for m in gone}["[1, 1]"] == "phantom->right"
