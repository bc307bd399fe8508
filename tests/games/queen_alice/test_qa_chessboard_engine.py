"""The chessboard-only engine: the shared conformance check, captures, promotions, rescues."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games import engines
from companion.games.base import CHANCE, IllegalAction
from companion.games.conformance import check_engine
from companion.games.queen_alice.rules.board import Piece, load_board
from companion.games.queen_alice.rules.chessboard_engine import (
    CHESSBOARD_ENGINE as E,
)
from companion.games.queen_alice.rules.chessboard_engine import (
    ChooseTile,
    Move,
    Rescue,
    State,
    Stay,
)

BOARD = load_board()


@pytest.mark.parametrize(("players", "options"), [(2, None), (4, {"rounds": 6})])
def test_passes_the_shared_conformance_check(players: int, options: dict[str, int] | None
                                             ) -> None:
    report = check_engine(E, players, games=2, seed=3, options=options)
    assert report.actions > 0 and report.illegal_checked > 0


def test_is_not_registered_as_the_games_engine() -> None:
    assert "queen-alice" not in engines()


def started(*pieces: Piece, players: int = 2) -> State:
    tile = sorted(BOARD.tiles)[0]
    state = E.apply(E.new_game(players, {"rounds": 2}), ChooseTile(tile))
    return replace(state, pieces=pieces)


def test_set_up_draws_a_tile_then_seats_alternate() -> None:
    fresh = E.new_game(3)
    assert E.current_player(fresh) == CHANCE and E.legal_actions(fresh) == []
    state = E.apply(fresh, ChooseTile(sorted(BOARD.tiles)[0]))
    assert state.pieces == BOARD.tiles[state.tile] and E.current_player(state) == 0
    with pytest.raises(ValueError):
        E.new_game(5)
    with pytest.raises(ValueError):
        E.new_game(2, {"crowns": 3})


def test_a_capture_goes_to_the_movers_jail() -> None:
    state = started(Piece("red", "rook", (3, 0)), Piece("white", "queen", (3, 5)))
    after = E.apply(state, Move(0, (3, 5)))
    assert after.pieces == (Piece("red", "rook", (3, 5)),)
    assert after.jails == ((("white", "queen"),), ())
    assert E.current_player(after) == 1


def test_a_pawn_on_its_final_row_goes_to_a_respawn_square() -> None:
    final = BOARD.final_rows["red"]
    pawn = Piece("red", "pawn", (final - BOARD.forward("red"), 4))
    state = started(pawn)
    moves = [a for a in E.legal_actions(state) if isinstance(a, Move)]
    assert {m.respawn for m in moves} == set(BOARD.respawn["red"])
    after = E.apply(state, moves[0])
    assert after.pieces[0].cell == moves[0].respawn
    with pytest.raises(IllegalAction, match="pawn promotion"):
        E.apply(state, Move(0, (final, 4)))


def test_rescue_from_any_jail_to_a_free_respawn_square() -> None:
    state = replace(started(Piece("white", "king", (4, 4))),
                    jails=((), (("red", "pawn"), ("red", "pawn"))))
    rescues = [a for a in E.legal_actions(state) if isinstance(a, Rescue)]
    assert rescues == [Rescue(1, 0, cell) for cell in BOARD.respawn["red"]]
    after = E.apply(state, rescues[0])
    assert after.jails == ((), (("red", "pawn"),))
    assert Piece("red", "pawn", BOARD.respawn["red"][0]) in after.pieces
    with pytest.raises(IllegalAction, match="rescue"):
        E.apply(state, Rescue(1, 0, (4, 0)))


def test_illegal_actions_name_the_rule() -> None:
    state = started(Piece("red", "bishop", (3, 3)), Piece("red", "pawn", (4, 4)))
    with pytest.raises(IllegalAction, match="chess movement"):
        E.apply(state, Move(0, (3, 4)))
    with pytest.raises(IllegalAction, match="blocked piece"):
        E.apply(state, Stay(0))
    with pytest.raises(IllegalAction, match="no such piece"):
        E.apply(state, Move(5, (0, 0)))
    with pytest.raises(IllegalAction, match="set-up"):
        E.apply(state, ChooseTile("A"))


def test_the_game_ends_after_its_rounds() -> None:
    state = started(Piece("red", "king", (3, 3)), Piece("white", "king", (0, 0)))
    for _ in range(4):
        state = E.apply(state, E.legal_actions(state)[0])
    assert E.is_terminal(state) and E.current_player(state) is None
    with pytest.raises(IllegalAction, match="game end"):
        E.apply(state, Move(0, (3, 4)))
