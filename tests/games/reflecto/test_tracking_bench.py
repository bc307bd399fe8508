"""The tracking benchmark's count of wrong changes booked and its scripted players' answers
(`benchmarks/reflecto_vision.py`)."""

from __future__ import annotations

from types import SimpleNamespace

from benchmarks.reflecto_vision import move_unseen, not_scripted, seats_unseen, where_from

from .helpers import letter, placed

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


def _frame(rest: bool, hands: bool, screens: list[list[int]]) -> dict:
    truth = [[0, 0, 0], [0, 1, 0], [6, 0, 1], [6, 1, 1]]
    return {"rest": rest, "hands": hands, "board_found": True, "truth": truth, "screens": screens}


def test_a_seat_is_unseen_on_the_rest_frames_where_its_screens_are_not_called_its() -> None:
    # Ann's (0, 1) read empty, Bob's (6, 1) in doubt then in Ann's colour; frames with hands
    # or outside a rest do not count.
    frames = [
        _frame(True, False, [[0, 0, 0], [6, 0, 1], [6, 1, -1]]),
        _frame(True, False, [[0, 0, 0], [6, 0, 1], [6, 1, 0]]),
        _frame(True, True, []),
        _frame(False, False, []),
    ]
    assert seats_unseen({"frames": frames}) == [0.5, 0.5]
    assert seats_unseen({"frames": frames[2:]}) == [None, None]


def test_a_player_says_the_offered_square_the_new_screen_left() -> None:
    # Ann's A1 stood on (0, 1) in the table's game and now stands on (1, 1); A2 on (0, 2)
    # is still there. Only (0, 1) is the square it came from.
    table = SimpleNamespace(state=placed(letter("A1", 0, (0, 1)), letter("A2", 1, (0, 2))))
    question = SimpleNamespace(
        id="from-1-1-7",
        choices=[{"value": [0, 1]}, {"value": [0, 2]}, {"value": None}],
    )
    assert where_from(table, question, {(1, 1): 0, (0, 2): 0}) == [0, 1]
    # Nothing of Ann's on (1, 1) (a misread), or no offered square left: none of these.
    assert where_from(table, question, {(0, 1): 0, (0, 2): 0}) is None
    assert where_from(table, question, {(1, 1): 0, (0, 1): 0, (0, 2): 0}) is None


def test_a_player_says_the_offered_move_the_camera_did_not_see() -> None:
    # Bob (to move) had B1 on (6, 1) and B2 on (6, 2) in the table's game; B1 now stands
    # on (5, 0). Only that move is the one he made.
    table = SimpleNamespace(
        state=placed(letter("B1", 0, (6, 1)), letter("B2", 1, (6, 2)), to_move=1)
    )
    question = SimpleNamespace(
        id="unseen-2-1-9",
        choices=[
            {"value": [[6, 1], [5, 0]]},
            {"value": [[6, 1], [5, 1]]},
            {"value": [[6, 2], [5, 2]]},
            {"value": None},
        ],
    )
    assert move_unseen(table, question, {(5, 0): 1, (6, 2): 1}) == [[6, 1], [5, 0]]
    # Bob's screens where they stood (he did not move): none of these.
    assert move_unseen(table, question, {(6, 1): 1, (6, 2): 1}) is None
