"""Captures, rescues and promotions, with the rulebook's examples."""

from __future__ import annotations

from dataclasses import replace

from companion.games.queen_alice.rules.board import CaptureReward, Piece, load_board
from companion.games.queen_alice.rules.jail import comeback_squares, is_promotion, jail_area

BOARD = load_board()


def test_capturing_example_white_queen_into_the_red_jail() -> None:
    """Carmen captures a White Queen: Red Jail, 1 White pawprint, 1 resource, 1 Time."""
    queen = Piece("white", "queen", (3, 3))
    assert jail_area(queen) == "red"
    assert BOARD.captures["queen"] == CaptureReward(time=1, resource=1, pawprint=1)


def test_capture_rewards_are_cumulative_by_kind() -> None:
    assert BOARD.captures["pawn"] == CaptureReward(time=1)
    for kind in ("knight", "bishop", "rook"):
        assert BOARD.captures[kind] == CaptureReward(time=1, resource=1)
    assert BOARD.captures["king"] == BOARD.captures["queen"]
    assert jail_area(Piece("red", "pawn", (0, 0))) == "white"


def test_rescuing_example_red_pawn_to_a_free_red_respawn_square() -> None:
    """Kortes rescues Vera's red pawn onto a red respawn space; Vera gains 1 Time."""
    first, *rest = BOARD.respawn["red"]
    assert comeback_squares(BOARD, "red", [first]) == tuple(rest)
    assert BOARD.jailer_time == 1


def test_all_respawn_squares_full_means_any_free_square() -> None:
    full = set(BOARD.respawn["red"])
    anywhere = comeback_squares(BOARD, "red", full)
    assert len(anywhere) == BOARD.rows * BOARD.cols - len(full)
    assert not full & set(anywhere)
    small = replace(BOARD, rows=2, cols=1, respawn={"red": ((0, 0),), "white": ((1, 0),)})
    assert comeback_squares(small, "red", [(0, 0)]) == ((1, 0),)


def test_a_pawn_on_its_final_row_is_promoted() -> None:
    red_final, white_final = BOARD.final_rows["red"], BOARD.final_rows["white"]
    assert is_promotion(BOARD, Piece("red", "pawn", (1, 2)), (red_final, 2))
    assert not is_promotion(BOARD, Piece("white", "pawn", (1, 2)), (red_final, 2))
    assert is_promotion(BOARD, Piece("white", "pawn", (6, 2)), (white_final, 2))
    assert not is_promotion(BOARD, Piece("red", "rook", (1, 2)), (red_final, 2))
    assert BOARD.promotion_pawprint == 1
