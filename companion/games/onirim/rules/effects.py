"""What exploring each Mirror does, word for word from the promo rulebook.

Each effect is named in models/onirim/deck.toml and is one entry here: what happens at once,
and what the player still picks (`pick_options`). The rulebook's words, and our readings
where they are open:

- Red, "Look through the deck for two cards of your choice, shuffle the deck, and place
  those two cards on top of the deck": two picks from the deck; the first picked ends on top,
  and the player knows both.
- Blue, "Look through the discard pile for two cards of your choice and place them on top
  of the deck": two picks from the discard pile (the four cards under the Mirror are
  discarded only after the effect, so they are not among them); the first picked on top.
- Key, "Look through the deck for two Nightmare cards and discard them ... Then, look through
  the deck for two Door cards of the color of your choice and put them into play. Finally,
  shuffle the deck": one colour for both Doors ("the color", singular), picked among the
  colours with a Door still in the deck.
- Green, "Look through the deck for a Nightmare card and discard it ... Then, shuffle".
- Brown, "Look through the deck for a Door card of the color of your choice and put it into
  play. Then, shuffle the deck".
- Sun, Moon, Rainbow: no effect.
When the deck (or discard pile) holds fewer cards than an effect names, the effect takes what
there is and does the rest (doc: docs/onirim.md). Every effect that looks through the deck
ends in a shuffle, so what the player knew of the deck's top is lost.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from companion.games.onirim.rules.cards import add, without
from companion.games.onirim.rules.deck import NIGHTMARE, Deck, is_door
from companion.games.onirim.rules.state import OnirimState, evolve

if TYPE_CHECKING:
    from companion.games.onirim.rules.engine import OnirimEngine

PICKS_FROM_DECK = "two-from-deck-on-top"
PICKS_FROM_DISCARD = "two-from-discard-on-top"
NIGHTMARES_THEN_DOORS = "nightmares-then-doors"
ONE_NIGHTMARE = "one-nightmare"
ONE_DOOR = "one-door"
NONE = "none"

PICKS_ON_TOP = 2
KEY_NIGHTMARES = 2
KEY_DOORS = 2


def _effect(deck: Deck, state: OnirimState) -> str:
    assert state.effect is not None
    return deck.mirrors[state.effect].effect


def _deck_counter(deck: Deck, state: OnirimState) -> Counter[str]:
    return Counter({k: n for k, n in zip(deck.kinds, state.deck, strict=True) if n})


def pick_options(deck: Deck, state: OnirimState) -> list[str]:
    """The cards the player may pick next inside the effect being resolved."""
    if state.phase != "effect" or state.effect is None:
        return []
    eff = _effect(deck, state)
    if eff == PICKS_FROM_DECK:
        left = _deck_counter(deck, state)
        left.subtract(state.picks)
        return sorted(k for k, n in left.items() if n > 0)
    if eff == PICKS_FROM_DISCARD:
        return sorted(set(state.discard))
    if eff in (NIGHTMARES_THEN_DOORS, ONE_DOOR):
        return sorted(k for k, n in _deck_counter(deck, state).items() if is_door(k))
    return []


def pick_rule(deck: Deck, state: OnirimState) -> str:
    eff = _effect(deck, state) if state.effect else ""
    if eff == PICKS_FROM_DECK:
        return "the Red Mirror picks cards that are in the deck"
    if eff == PICKS_FROM_DISCARD:
        return "the Blue Mirror picks cards from the discard pile"
    return "the Mirror puts into play Doors of a colour still in the deck"


def _discard_nightmares(deck: Deck, state: OnirimState, n: int) -> OnirimState:
    i = deck.index[NIGHTMARE]
    k = min(n, state.deck[i])
    return evolve(state, deck=add(state.deck, i, -k), discard=(*state.discard, *[NIGHTMARE] * k))


def _doors_into_play(deck: Deck, state: OnirimState, card: str, n: int) -> OnirimState:
    i = deck.index[card]
    k = min(n, state.deck[i])
    return evolve(state, deck=add(state.deck, i, -k), doors=(*state.doors, *[card] * k))


def start(engine: OnirimEngine, state: OnirimState, mirror: str) -> OnirimState:
    """Four cards lie under `mirror`: apply its effect (or start the player's picks)."""
    deck = engine.deck
    eff = deck.mirrors[mirror].effect
    state = evolve(state, effect=mirror, picks=())
    if eff in (PICKS_FROM_DECK, NIGHTMARES_THEN_DOORS, ONE_NIGHTMARE, ONE_DOOR):
        state = evolve(state, top=())  # these look through the deck and shuffle it
    if eff == NIGHTMARES_THEN_DOORS:
        state = _discard_nightmares(deck, state, KEY_NIGHTMARES)
    elif eff == ONE_NIGHTMARE:
        state = _discard_nightmares(deck, state, 1)
    if eff in (PICKS_FROM_DECK, PICKS_FROM_DISCARD, NIGHTMARES_THEN_DOORS, ONE_DOOR):
        state = evolve(state, phase="effect")
        if pick_options(deck, state):
            return state
    elif eff not in (NONE, ONE_NIGHTMARE):
        raise ValueError(f"deck.toml names an effect the engine does not know: {eff!r}")
    return engine.finish_exploring(state, mirror)


def pick(engine: OnirimEngine, state: OnirimState, card: str) -> OnirimState:
    """One choice inside the effect; the Mirror is explored once nothing is left to pick."""
    deck = engine.deck
    mirror = state.effect
    assert mirror is not None
    eff = deck.mirrors[mirror].effect
    if eff == PICKS_FROM_DECK:
        state = evolve(state, picks=(*state.picks, card))
        if len(state.picks) < PICKS_ON_TOP and pick_options(deck, state):
            return state
        return engine.finish_exploring(evolve(state, top=state.picks), mirror)
    if eff == PICKS_FROM_DISCARD:
        state = evolve(
            state,
            picks=(*state.picks, card),
            discard=without(state.discard, card),
            deck=add(state.deck, deck.index[card], 1),
        )
        if len(state.picks) < PICKS_ON_TOP and state.discard:
            return state
        return engine.finish_exploring(evolve(state, top=(*state.picks, *state.top)), mirror)
    n = KEY_DOORS if eff == NIGHTMARES_THEN_DOORS else 1
    return engine.finish_exploring(_doors_into_play(deck, state, card, n), mirror)
