"""Card discounts: "Discounts shown on a card are applied only once per turn" (Play a Card).

The cards' discounts are placeholders (models/queen-alice/cards.toml); each test sets the
turn's discount itself or reads the card it plays, so what is checked is the rule.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from companion.errors import UserError
from companion.games.queen_alice.rules import ENGINE as E
from companion.games.queen_alice.rules.actions import Act, Pass, PlayMove
from companion.games.queen_alice.rules.board import Piece
from companion.games.queen_alice.rules.components import load_components
from companion.games.queen_alice.rules.economy import Pay
from companion.games.queen_alice.rules.state import State, Turn
from companion.paths import models_dir
from tests.games.queen_alice.helpers import COMP, finish_choices, playing, started


def acting(column: str, discount: int, on: str = "", **me: object) -> State:
    turn = Turn(colour="red", column=column, discount=discount, discount_action=on)
    return replace(started(2), phase="act", turn=turn).with_me(**me)


def acts(state: State, action: str) -> list[Act]:
    return [a for a in E.legal_actions(state) if isinstance(a, Act) and a.action == action]


def test_a_discount_lets_a_resource_off_the_action_cost() -> None:
    # The lowest red Heart costs COMP.hearts["red"][0].cost Cakes; one off: one fewer.
    cost = COMP.hearts["red"][0].cost
    assert cost == 1
    assert not acts(acting("hearts", 0), "hearts")  # nothing stored, no Time: cannot pay
    free = acts(acting("hearts", 1), "hearts")
    assert free and all(a.pay == Pay() for a in free)
    state = finish_choices(E.apply(acting("hearts", 1), free[0]))
    assert state.people[0].bushes == (1, 0) and state.people[0].hearts == (1, 0)


def test_a_discount_for_one_action_does_not_apply_to_another() -> None:
    assert not acts(acting("hearts", 1, on="spades"), "hearts")
    spades = acts(acting("spades", 1, on="spades", tea=1), "spades")
    # The rulebook: 1 space costs 1 resource, 2 spaces 2: with one off, 0 and 1.
    assert {(len(a.target), a.pay.units()) for a in spades} >= {(1, 0), (2, 1)}


def test_the_discount_is_once_a_turn_the_repeat_pays_in_full() -> None:
    state = acting("hearts", 1, time=6 + 3)
    state = finish_choices(E.apply(state, acts(state, "hearts")[0]))
    assert state.phase == "repeat" and state.me.cake == 0 and state.me.time >= 9
    repeats = acts(state, "hearts")
    # The second Heart costs COMP.hearts["red"][1].cost Cakes, paid here with 3 Time each.
    assert COMP.hearts["red"][1].cost == 1
    assert repeats and all(a.pay == Pay(time=1) for a in repeats)


def test_on_the_wild_column_the_discount_may_let_off_the_extra_resource() -> None:
    state = acting("wild", 1, tea=1)
    one_step = [a for a in acts(state, "spades") if len(a.target) == 1]
    assert {a.pay.units() for a in one_step} == {1}  # 1 + 1 extra, one let off


def test_playing_a_card_with_a_discount_sets_the_turns_discount() -> None:
    card = next(c for c in COMP.cards.values() if c.discount and c.colour == "red")
    kinds = {"pawn": (5, 0), "knight": (4, 0), "bishop": (4, 0), "rook": (4, 0)}
    at = kinds.get(card.kind, (4, 0))
    state = playing((card.id, card.id), (Piece("red", card.kind, at),))
    play = next(a for a in E.legal_actions(state) if isinstance(a, PlayMove))
    after = finish_choices(E.apply(state, play))
    assert (after.turn.discount, after.turn.discount_action) == (
        card.discount,
        card.discount_action,
    )
    assert Pass() in E.legal_actions(after)


def test_a_basic_card_with_a_discount_is_refused_when_the_models_are_read(
    tmp_path: Path,
) -> None:
    # The rulebook: "Basic cards do not grant a play bonus."
    folder = tmp_path / "queen-alice"
    shutil.copytree(models_dir() / "queen-alice", folder)
    cards = folder / "cards.toml"
    text = cards.read_text()
    cards.write_text(text.replace('id = "basic-0"\n', 'id = "basic-0"\ndiscount = { units = 1 }\n'))
    with pytest.raises(UserError, match="Basic cards have no play bonus"):
        load_components(folder)
