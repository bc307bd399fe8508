"""Positions for the Onirim tests, built from the few cards that matter to each test."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from companion.games.base import CHANCE
from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.state import OnirimState, zones

FULL = Counter(ENGINE.deck.copies)


def position(
    deck: dict[str, int] | None = None, mirrors: bool = True, hard: bool = False, **fields: Any
) -> OnirimState:
    """A state in phase `turn` (unless given) whose deck holds every card not placed
    elsewhere, or exactly `deck` if given (then the other cards are on the discard pile)."""
    data: dict[str, Any] = {"mirrors": mirrors, "hard": hard, "phase": "turn", **fields}
    placed = Counter()
    for key in ("hand", "labyrinth", "doors", "discard", "limbo", "shown", "top"):
        if key != "top":
            placed.update(data.get(key, []))
    for m in data.get("mirror_cards", []):
        placed.update(m.get("under", []))
    if data.get("pending"):
        placed[data["pending"]] += 1
    if deck is None:
        left = FULL - placed
        data["deck"] = dict(left)
    else:
        data["deck"] = deck
        extra = FULL - placed - Counter(deck)
        data["discard"] = [*data.get("discard", []), *sorted(extra.elements())]
    state = ENGINE.state_from_json(data)
    assert zones(state, ENGINE.deck) == +FULL, "test position does not add up to the deck"
    return state


def run_chance(state: OnirimState, rng: random.Random) -> OnirimState:
    while ENGINE.current_player(state) == CHANCE:
        state = ENGINE.apply(state, ENGINE.sample_chance(state, rng))
    return state


def draw(state: OnirimState, *cards: str) -> OnirimState:
    from companion.games.onirim.rules.actions import Draw

    for c in cards:
        state = ENGINE.apply(state, Draw(c))
    return state
