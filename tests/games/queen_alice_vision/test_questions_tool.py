"""The questions tool's sorting: a board lost by questions alone is counted under each kind
of question it holds (an empty square asked, a piece asked, Crowns, Alice), a board with a
confident wrong answer is not, and a kind alone is counted only where it is the board's
only one."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))

from benchmarks.queen_alice_questions import question_kinds, summary  # noqa: E402


def _row(kinds: list[str], items: list[dict]) -> dict:
    return {"seed": 1, "board": 0, "kinds": kinds, "items": items, "asked": []}


def test_boards_are_sorted_by_the_questions_that_lost_them() -> None:
    piece = {"kind": "colour", "cell": [0, 0], "want": "red", "why": "structure_unsure (empty)"}
    empty = {"kind": "square", "cell": [0, 1], "want": "empty", "why": "classify unsure"}
    crowns = {"kind": "crowns", "want": 3, "got": None, "why": "crown_stands: no scale"}
    rows = [
        _row([], []),
        _row(["asked_piece"], [piece]),
        _row(["asked_piece", "asked_empty"], [piece, empty]),
        _row(["crowns"], [crowns]),
        _row(["asked_piece", "phantom"], [piece]),  # a confident wrong answer too
    ]
    assert question_kinds(rows[2]) == {"colour", "square"}
    assert question_kinds(rows[3]) == {"crowns asked"}
    out = summary(rows)
    assert out["right"] == 1
    assert out["with_confident_wrong"] == 1
    assert out["lost_by_questions_alone"] == 3
    assert out["kind_on_boards"] == {"colour": 3, "square": 1, "crowns asked": 1}
    assert out["kind_on_question_boards"] == {"colour": 2, "square": 1, "crowns asked": 1}
    assert out["kind_alone_loses"] == {"colour": 1, "crowns asked": 1}
    by_test = out["items_on_question_boards_by_test"]["colour"]
    assert by_test == {"structure_unsure (empty) | want red": 2}
