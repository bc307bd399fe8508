"""The tracking benchmark's count of wrong changes booked (`benchmarks/reflecto_vision.py`)."""

from __future__ import annotations

from benchmarks.reflecto_vision import not_scripted

A, B, C, D = ({"type": "move", "screen": s, "to": [1, 1]} for s in ("A0", "A1", "A2", "B3"))


def test_a_wrong_move_booked_in_place_of_the_right_one_is_counted() -> None:
    # As many changes booked as scripted: counting only the changes beyond the script's
    # found none.
    assert not_scripted([A, D, C], [A, B, C]) == 1


def test_changes_booked_as_scripted_or_not_yet_booked_are_not_counted() -> None:
    assert not_scripted([A, B, C], [A, B, C]) == 0
    assert not_scripted([A, B], [A, B, C]) == 0
    assert not_scripted([], [A]) == 0


def test_changes_beyond_the_script_and_out_of_order_are_counted() -> None:
    assert not_scripted([A, B, C, D], [A, B, C]) == 1
    assert not_scripted([B, A], [A, B]) == 1
