"""The tracker's pieces: which single move explains a settled board (promotion and rescue
included), the rule a change breaks, and "the table is right" keeping pieces' identity."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.base import IllegalAction
from companion.games.queen_alice.rules.actions import PlayMove, PlayRescue
from companion.games.queen_alice.rules.board import Piece
from companion.games.queen_alice.table.observation import BoardSeen, SquareSeen, occupancy_of
from companion.games.queen_alice.table.track import (
    StableBoard,
    diagnose,
    moves_seen,
    reading_of,
    with_table,
)
from tests.games.queen_alice.helpers import playing

from .helpers import BOARD, moved


def test_a_promotion_is_seen_as_the_pawn_back_on_a_respawn_square() -> None:
    final = BOARD.final_rows["white"]
    pawn = Piece("white", "pawn", (final - 1, 0))
    state = playing(("basic-1",), (pawn, Piece("red", "king", (3, 4))))
    respawn = BOARD.respawn["white"][0]
    after = frozenset({(respawn, "white"), ((3, 4), "red")})
    assert moves_seen(BOARD, state, after) == [PlayMove("", 0, (final, 0), respawn)]
    stuck = frozenset({((final, 0), "white"), ((3, 4), "red")})
    assert moves_seen(BOARD, state, stuck) == []
    assert diagnose(BOARD, state, stuck).rule == "pawn promotion"


def test_a_rescue_is_a_jailed_piece_appearing_on_a_respawn_square() -> None:
    state = playing(("basic-0",), (Piece("white", "king", (0, 4)),))
    state = state.with_player(1, replace(state.people[1], jail=(("red", "pawn"),)))
    spot = BOARD.respawn["red"][0]
    after = occupancy_of(state.pieces) | {(spot, "red")}
    assert moves_seen(BOARD, state, after) == [PlayRescue("", 1, 0, spot)]
    elsewhere = occupancy_of(state.pieces) | {((4, 4), "red")}
    assert moves_seen(BOARD, state, elsewhere) == []
    assert diagnose(BOARD, state, elsewhere).rule == "rescue"


def test_two_pieces_moving_at_once_is_one_piece_per_turn() -> None:
    pieces = (Piece("white", "rook", (0, 0)), Piece("red", "rook", (7, 8)))
    state = playing(("basic-7",), pieces)
    both = moved(moved(occupancy_of(pieces), (0, 0), (1, 0)), (7, 8), (6, 8))
    assert moves_seen(BOARD, state, both) == []
    assert diagnose(BOARD, state, both).rule == "one piece per turn"


def test_a_reading_counts_when_steady_and_unsure_squares_wait_for_an_answer() -> None:
    board = BoardSeen(squares=(SquareSeen(cell=(0, 0), colour="red"),), unsure=((1, 1),))
    assert reading_of(board, {}) == (None, ((1, 1),))
    assert reading_of(board, {(1, 1): "white"})[0] == frozenset(
        {((0, 0), "red"), ((1, 1), "white")}
    )
    tracker = StableBoard(3, 0.5)
    a, b = frozenset({((0, 0), "red")}), frozenset({((0, 1), "red")})
    readings = (a, a, None, a, a, a, a, b, b, b)
    assert [tracker.update(x, 0.25 * i) for i, x in enumerate(readings)] == [
        None,
        None,
        None,
        None,
        None,
        a,
        None,
        None,
        None,
        b,
    ]


def test_a_blink_seen_in_many_fast_frames_does_not_count() -> None:
    """Three frames a tenth of a second apart are one blink to a 10 fps camera: a reading
    counts only once it has also lasted the tracker's seconds."""
    a, b = frozenset({((0, 0), "red")}), frozenset({((0, 1), "red")})
    tracker = StableBoard(3, 0.3)
    assert [tracker.update(x, 0.1 * i) for i, x in enumerate((a, a, a, a))] == [
        None,
        None,
        None,
        a,
    ]
    assert [tracker.update(b, 0.4 + 0.1 * i) for i in range(3)] == [None, None, None]
    assert tracker.update(a, 0.7) is None and tracker.stable == a


def test_the_table_is_right_moves_the_fewest_pieces_and_keeps_their_kinds() -> None:
    pieces = (
        Piece("red", "pawn", (5, 1)),
        Piece("red", "knight", (7, 6)),
        Piece("red", "rook", (7, 8)),
        Piece("white", "king", (0, 4)),
    )
    seen = frozenset({((5, 1), "red"), ((5, 6), "red"), ((6, 8), "red"), ((0, 4), "white")})
    after = {p.cell: p.kind for p in with_table(pieces, seen)}
    assert after == {(5, 1): "pawn", (5, 6): "knight", (6, 8): "rook", (0, 4): "king"}
    with pytest.raises(IllegalAction, match="sees 2 white pieces, the board has 1"):
        with_table(pieces, seen | {((3, 3), "white")})
