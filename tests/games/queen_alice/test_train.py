"""Train cards (Player Setup): dealt, chosen secretly with a side, revealed, resolved in turn
order, and only what the card shows is gained.

The cards are placeholders (models/queen-alice/train.toml); its first card follows the
rulebook's example, and the tests read each side's values from the model.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from companion.errors import UserError
from companion.games.base import CHANCE, IllegalAction
from companion.games.queen_alice.rules import ENGINE as E
from companion.games.queen_alice.rules.actions import ChooseTrain, DealTrain, Pass
from companion.games.queen_alice.rules.components import load_components
from companion.games.queen_alice.rules.rewards import needs_choice
from companion.games.queen_alice.rules.state import State
from companion.paths import models_dir
from tests.games.queen_alice.helpers import COMP, finish_choices, started


def dealt(players: int = 2, seed: int = 3) -> State:
    """A game whose Train cards are dealt: seat 0 is to choose."""
    return started(players, seed, {"train_cards": "play"})


def test_each_player_receives_two_train_cards_and_chooses_one_and_a_side() -> None:
    # The rulebook: "Each player receives 2 Train Cards. Secretly choose one and decide
    # whether to play it for the White side or the Red side."
    state = dealt(3)
    assert state.phase == "train" and E.current_player(state) == 0
    hands = [p.train_hand for p in state.people]
    assert all(len(h) == COMP.train_dealt == 2 for h in hands)
    every = [c for h in hands for c in h] + list(state.train_deck)
    assert sorted(every) == sorted(COMP.train) and len(COMP.train) == 16
    legal = E.legal_actions(state)
    assert set(legal) == {ChooseTrain(c, s) for c in hands[0] for s in ("red", "white")}
    state = E.apply(state, legal[0])
    assert state.phase == "train" and state.seat == 1 and state.people[0].train_hand == ()


def test_a_choice_stays_secret_until_every_player_has_chosen() -> None:
    state = E.apply(dealt(2), ChooseTrain(dealt(2).me.train_hand[0], "red"))
    mine = state.people[0].train[0]
    for seat in (None, 1):
        text = json.dumps(E.view(state, seat))
        assert mine not in text  # neither seat 1 nor a spectator sees seat 0's card
        view = json.loads(text)
        assert view["people"][0]["train_chosen"] is True  # only that it is chosen
        assert view["train_deck"] == len(state.train_deck)
    assert json.loads(json.dumps(E.view(state, None)))["people"][1]["train_chosen"] is False
    for card in state.people[1].train_hand:
        assert card in json.dumps(E.view(state, 1)) and card not in json.dumps(E.view(state, 0))
    assert mine in json.dumps(E.view(state, 0))


def test_cris_chooses_the_red_side_of_the_twins_card() -> None:
    # "She advances the Red Twin 1 space and gains the Card-Time Bookmark, 3 Time, and the
    # Toast shown on the card. She does not gain the Books from the space where the Twin
    # arrived, as only the rewards printed on the Train Card are granted."
    side = COMP.train["train-twins-1"].red
    assert (side.twin, side.bookmark, side.reward.time, side.reward.toast) == (1, "card-time", 3, 1)
    state = dealt(2)
    state = state.with_me(train_hand=("train-twins-1", state.me.train_hand[1]))
    state = E.apply(state, ChooseTrain("train-twins-1", "red"))
    other = state.me.train_hand[0]
    state = E.apply(state, ChooseTrain(other, "white"))
    # Revealed: seat 0 resolves first; the instant Card-Time Bookmark asks for its card.
    assert state.phase == "train_rewards" and state.seat == 0
    cris = state.people[0]
    assert cris.twins == (1, 0) and cris.toast == 1 and cris.bookmarks == ("card-time",)
    assert cris.books == (0, 0, 0) and state.tree_books[0][1] == COMP.tree[1].book
    mark = next(b for b in COMP.bookmarks if b.id == "card-time")
    assert cris.time == 3 + mark.reward.time
    assert needs_choice(state) and state.pending[0].kind == "card"
    before = state.people[1]
    assert (before.time, before.ip, before.twins, before.messengers) == (0, 0, (0, 0), (0, 0))
    state = finish_choices(E.apply(state, Pass()))
    # Then seat 1, then the first turn.
    while state.phase == "train_rewards":
        state = E.apply(state, E.legal_actions(state)[-1])
    assert state.phase == "discard" and state.seat == 0
    assert state.people[1].train == (other, "white")


def test_a_messenger_side_moves_one_space_crossing_nothing() -> None:
    side = COMP.train["train-messenger-2"].white
    state = dealt(2)
    state = state.with_me(train_hand=("train-messenger-2", state.me.train_hand[1]))
    state = E.apply(state, ChooseTrain("train-messenger-2", "white"))
    state = E.apply(state, E.legal_actions(state)[0])
    me = state.people[0]
    assert me.messengers == (0, side.messenger) and me.messenger_steps == 1
    assert me.ip == side.reward.ip and state.seals == ()


def test_what_is_not_your_train_card_or_not_due_is_refused() -> None:
    state = dealt(2)
    foreign = state.people[1].train_hand[0]
    with pytest.raises(IllegalAction) as caught:
        E.apply(state, ChooseTrain(foreign, "red"))
    assert caught.value.rule == "train cards"
    with pytest.raises(IllegalAction):
        E.apply(state, ChooseTrain(state.me.train_hand[0], "green"))
    fresh = E.new_game(2)
    rng = random.Random(4)
    while E.current_player(fresh) == CHANCE and not isinstance(
        E.sample_chance(fresh, rng), DealTrain
    ):
        fresh = E.apply(fresh, E.sample_chance(fresh, rng))
    deal = E.sample_chance(fresh, rng)
    with pytest.raises(IllegalAction, match="set-up"):
        E.apply(fresh, DealTrain(deal.seat, deal.cards[:1]))
    skipped = started(2)
    assert skipped.phase == "discard" and skipped.train_deck == tuple(sorted(COMP.train))


def test_train_card_mistakes_in_the_models_are_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "queen-alice"
    shutil.copytree(models_dir() / "queen-alice", folder)
    train = folder / "train.toml"
    text = train.read_text()
    train.write_text(text.replace('bookmark = "card-time"', 'bookmark = "tea-party"'))
    with pytest.raises(UserError, match="no Bookmark 'tea-party'"):
        load_components(folder)
    train.write_text(text.replace("twin = 1,", "twin = 5,", 1))
    with pytest.raises(UserError, match="twin must be a tree space one arrow up"):
        load_components(folder)
    train.write_text(text.replace("dealt = 2", "dealt = 5"))
    with pytest.raises(UserError, match="4 players need 20 Train cards"):
        load_components(folder)
