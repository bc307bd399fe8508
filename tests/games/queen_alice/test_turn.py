"""The turn: discard, play (bonus, move or rescue), row then column, Repeat, Rest."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.base import CHANCE, IllegalAction
from companion.games.queen_alice.rules import ENGINE as E
from companion.games.queen_alice.rules.actions import (
    Act,
    Discard,
    Pass,
    PlayMove,
    PlayNone,
    PlayRescue,
    PlayStay,
    Take,
)
from companion.games.queen_alice.rules.board import Piece
from companion.games.queen_alice.rules.economy import Pay
from tests.games.queen_alice.helpers import BOARD, COMP, card_for, finish_choices, playing

ROOK = card_for("red", "rook")
PAWN = card_for("red", "pawn")
KINGS = (Piece("white", "king", (7, 8)),)


def test_discard_gains_the_discard_reward_then_play() -> None:
    state = replace(playing((ROOK, PAWN, PAWN), KINGS), phase="discard")
    after = E.apply(state, Discard(ROOK))
    assert after.phase == "play" and after.me.hand == (PAWN, PAWN)
    assert after.me.discard == (ROOK,)
    assert after.me.ip == COMP.cards[ROOK].discard.ip == 1


def test_row_resource_first_then_the_columns_action_in_the_pieces_colour() -> None:
    state = playing((ROOK, PAWN), (Piece("red", "rook", (2, 0)), *KINGS), cake=1, tea=1)
    after = E.apply(state, PlayMove(ROOK, 0, (2, 3)))  # row 2: toast, column 3: diamonds
    assert BOARD.square((2, 3)) == ("toast", "diamonds")
    assert after.me.toast == 1 and after.phase == "act" and after.turn.colour == "red"
    acts = [a for a in E.legal_actions(after) if isinstance(a, Act)]
    assert acts and {a.action for a in acts} == {"diamonds"}
    assert all(a.pay.toast == 0 for a in acts)  # a red piece's costs: Cake and/or Tea
    assert Pass() in E.legal_actions(after)


def test_the_central_column_is_any_action_for_one_more_resource() -> None:
    state = playing((ROOK, PAWN), (Piece("red", "rook", (0, 0)), *KINGS), cake=1, tea=1)
    after = E.apply(state, PlayMove(ROOK, 0, (0, 4)))  # row 0 cake, the wild column
    assert BOARD.square((0, 4)) == ("cake", "wild")
    acts = [a for a in E.legal_actions(after) if isinstance(a, Act)]
    assert {a.action for a in acts} == {"hearts", "spades", "clubs", "diamonds"}
    # A Messenger step costs 1 resource, 2 on the wild column (the row's cake may pay it).
    one_step = [a for a in acts if a.action == "spades" and len(a.target) == 1]
    assert {a.pay.units() for a in one_step} == {2}


def test_the_central_rows_give_a_resource_of_your_choice() -> None:
    state = playing((ROOK, PAWN), (Piece("red", "rook", (3, 0)), *KINGS))
    after = E.apply(state, PlayMove(ROOK, 0, (3, 1)))
    assert E.legal_actions(after) == [Take("cake"), Take("tea"), Take("toast")]
    assert E.apply(after, Take("tea")).me.tea == 1


def test_a_blocked_piece_resolves_its_own_square() -> None:
    pieces = (Piece("red", "pawn", (5, 1)), Piece("red", "rook", (4, 1)), *KINGS)
    state = playing((PAWN, ROOK), pieces)
    assert PlayStay(PAWN, 0) in E.legal_actions(state)
    assert not [a for a in E.legal_actions(state) if isinstance(a, PlayMove) and a.piece == 0]
    after = E.apply(state, PlayStay(PAWN, 0))
    assert after.pieces[0].cell == (5, 1) and after.me.toast == 1  # row 5: toast
    assert after.turn.column == "spades"


def test_capture_carmen_takes_a_white_queen_into_her_red_jail() -> None:
    # The rulebook: a White Queen captured gives 1 White Cat Pawprint, 1 Cherry Cake, 1 Time.
    pieces = (Piece("red", "rook", (2, 0)), Piece("white", "queen", (2, 5)), *KINGS)
    state = playing((ROOK, PAWN), pieces)
    after = E.apply(state, PlayMove(ROOK, 0, (2, 5)))
    assert after.me.jail == (("white", "queen"),)
    assert Piece("white", "queen", (2, 5)) not in after.pieces
    assert E.legal_actions(after) == [Take("cake"), Take("tea"), Take("toast")]
    after = E.apply(after, Take("cake"))
    assert (after.me.time, after.me.cake, after.me.cats) == (1, 1, (0, 1))
    assert after.me.ip == COMP.cats["white"][0].ip  # the Cat track space reached pays too
    assert after.me.toast == 1  # then the landing row


def test_rescue_kortes_takes_a_red_pawn_out_of_veras_jail() -> None:
    state = playing((PAWN, ROOK), KINGS)
    state = state.with_player(1, replace(state.people[1], jail=(("red", "pawn"),), time=3))
    rescues = [a for a in E.legal_actions(state) if isinstance(a, PlayRescue)]
    assert rescues == [PlayRescue(PAWN, 1, 0, cell) for cell in BOARD.respawn["red"]]
    after = E.apply(state, rescues[0])
    assert after.people[1].jail == () and after.people[1].time == 4  # Vera: 1 Time
    assert Piece("red", "pawn", BOARD.respawn["red"][0]) in after.pieces
    row, _ = BOARD.square(BOARD.respawn["red"][0])
    assert getattr(after.me, row) == 1  # the pawn does not move: its square resolves


def test_a_promoted_pawn_gains_a_pawprint_and_resolves_a_respawn_square() -> None:
    pawn = Piece("red", "pawn", (1, 4))
    state = playing((PAWN, ROOK), (pawn, *KINGS))
    moves = [a for a in E.legal_actions(state) if isinstance(a, PlayMove)]
    assert {m.respawn for m in moves} == set(BOARD.respawn["red"])
    after = finish_choices(E.apply(state, moves[0]))
    assert after.pieces[0].cell == moves[0].respawn and after.me.cats[0] == 1
    assert after.turn.column == BOARD.square(moves[0].respawn)[1]
    with pytest.raises(IllegalAction, match="pawn promotion"):
        E.apply(state, PlayMove(PAWN, 0, (0, 4)))


def test_a_card_whose_piece_is_nowhere_gives_2_time_and_rest() -> None:
    state = playing((PAWN, ROOK), KINGS)
    assert PlayNone(PAWN) in E.legal_actions(state)
    after = E.apply(state, PlayNone(PAWN))
    assert E.legal_actions(after) == [Pass()]
    after = E.apply(after, Pass())
    assert after.people[0].time == COMP.decline_time == 2
    assert E.current_player(after) == CHANCE  # Rest: chance draws back to hand size


def test_repeat_kortes_pays_6_time_and_a_cake_for_one_more_space() -> None:
    # The rulebook: 2 cakes move the red Messenger 2 spaces, one of its rewards is 2 Time,
    # then 6 Time and another cake move it one more space.
    state = playing((ROOK, PAWN), (Piece("red", "rook", (0, 0)), *KINGS), cake=2, time=4)
    state = E.apply(state, PlayMove(ROOK, 0, (0, 1)))  # row 0: cake, column 1: spades
    assert state.me.cake == 3
    state = E.apply(state, Act("spades", (1, 2), Pay(cake=2)))
    state = finish_choices(state)  # the Card Reward: none taken
    assert state.me.messengers == (2, 0) and state.me.time == 6 and state.phase == "repeat"
    assert state.me.ip == 6  # the seal crossed first
    state = E.apply(state, Act("spades", (3,), Pay(cake=1)))
    state = finish_choices(state)
    assert state.me.messengers == (3, 0) and state.me.cake == 0
    # 6 Time paid: what is left is the Cat track's, from the 2 pawprints space 3 gives.
    assert state.me.cats[0] == COMP.messengers[3].reward.pawprint == 2
    assert state.me.time == sum(r.time for r in COMP.cats["red"][:2])


def test_illegal_actions_name_the_rule() -> None:
    pieces = (
        Piece("red", "rook", (2, 0)),
        Piece("red", "pawn", (5, 1)),
        Piece("red", "pawn", (4, 1)),
        *KINGS,
    )
    state = playing((ROOK, PAWN), pieces)
    with pytest.raises(IllegalAction, match="hand"):
        E.apply(state, PlayMove(card_for("white", "rook"), 0, (2, 3)))
    with pytest.raises(IllegalAction, match="chess movement"):
        E.apply(state, PlayMove(ROOK, 0, (3, 3)))
    with pytest.raises(IllegalAction, match="blocked piece"):
        E.apply(state, PlayStay(ROOK, 0))
    with pytest.raises(IllegalAction, match="no such piece"):
        E.apply(state, PlayMove(ROOK, 9, (0, 0)))
    with pytest.raises(IllegalAction, match="card"):
        E.apply(state, PlayMove(ROOK, 1, (4, 1)))
    with pytest.raises(IllegalAction, match="turn order"):
        E.apply(state, Discard(ROOK))
    after = E.apply(state, PlayMove(ROOK, 0, (2, 3)))
    with pytest.raises(IllegalAction, match="diamonds action"):
        E.apply(after, Act("diamonds", (0, 0), Pay(cake=5)))


def test_the_wild_action_may_be_paid_with_the_rows_resource_unstored() -> None:
    # Wild Action: "you MUST pay an additional resource ... You can directly use the
    # resource you gain in the row, so you don't need to store that just-gained resource."
    full = {"cake": 2, "tea": 1}  # all 3 cubes used
    state = playing((ROOK, PAWN), (Piece("red", "rook", (2, 0)), *KINGS), **full)
    assert BOARD.square((2, 4)) == ("toast", "wild")
    after = E.apply(state, PlayMove(ROOK, 0, (2, 4)))
    assert set(E.legal_actions(after)) == {Take("cake"), Take("tea"), Pass()}
    after = E.apply(after, Pass())  # not stored ...
    assert after.turn.loose == "toast" and after.me.toast == 0
    step = next(
        a
        for a in E.legal_actions(after)
        if isinstance(a, Act) and a.action == "spades" and a.pay == Pay(tea=1, row=1)
    )  # ... but it pays the wild column's extra resource (a red piece's step: the Tea)
    after = finish_choices(E.apply(after, step))
    me = after.people[0]
    assert (me.cake, me.tea, me.toast) == (2, 0, 0) and after.turn.loose == ""


def test_the_rows_resource_pays_only_when_it_was_not_stored() -> None:
    state = playing((ROOK, PAWN), (Piece("red", "rook", (2, 0)), *KINGS), tea=1)
    after = E.apply(state, PlayMove(ROOK, 0, (2, 4)))  # a cube was free: the toast is stored
    assert after.me.toast == 1 and after.turn.loose == ""
    assert all(a.pay.row == 0 for a in E.legal_actions(after) if isinstance(a, Act))
