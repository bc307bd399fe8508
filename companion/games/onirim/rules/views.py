"""What a seat may see of an Onirim game.

The table (seat None, the public dashboard) sees what lies face up: labyrinth, Doors, Mirrors,
discard pile, limbo, the card drawn and waiting, and counts. The player (seat 0, their own
phone) also sees the hand, the cards a prophecy is showing, the deck's top cards a prophecy or
the Red or Blue Mirror has shown, and what the deck holds by kind, counted from every card in
sight. The deck's order beyond what was shown is not in the state at all.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from companion.games.onirim.rules.cards import unknown_counts
from companion.games.onirim.rules.deck import NIGHTMARE, is_door
from companion.games.onirim.rules.state import OnirimState

if TYPE_CHECKING:
    from companion.games.onirim.rules.engine import OnirimEngine


def view(engine: OnirimEngine, state: OnirimState, seat: int | None) -> dict[str, Any]:
    deck = engine.deck
    doors_missing = Counter({k: n for k, n in deck.copies.items() if is_door(k)})
    doors_missing.subtract(state.doors)
    mirrors_needed = [
        m
        for m, e in zip(state.in_game, state.explored, strict=True)
        if deck.mirrors[m].required and not e
    ]
    out: dict[str, Any] = {
        "game": engine.game_id,
        "seat": seat,
        "options": {"mirrors": state.mirrors, "hard": state.hard},
        "phase": state.phase,
        "to_move": engine.current_player(state),
        "turns": state.turns,
        "outcome": state.outcome,
        "labyrinth": list(state.labyrinth),
        "series": state.run,
        "doors": list(state.doors),
        "doors_needed": sorted((+doors_missing).elements()),
        "mirrors": [
            {"mirror": m, "explored": e, "under": list(u)}
            for m, e, u in zip(state.in_game, state.explored, state.under, strict=True)
        ],
        "mirrors_needed": mirrors_needed,
        "discard": list(state.discard),
        "discard_top": state.discard[-1] if state.discard else None,
        "limbo": list(state.limbo),
        "pending": state.pending,
        "effect": state.effect,
        "deck_size": state.deck_size(),
        "hand_size": len(state.hand),
        "nightmare_revealed": list(state.shown) if state.phase == "nightmare-look" else None,
        "hand": None,
        "deck_by_kind": None,
        "deck_top": None,
        "shown": None,
        "picks": None,
        "next_is_nightmare": None,
    }
    if seat == 0:
        counts = {k: n for k, n in zip(deck.kinds, state.deck, strict=True) if n}
        unknown = unknown_counts(deck, state.deck, state.top)
        hidden = sum(unknown.values())
        if state.top:
            p_nightmare = 1.0 if state.top[0] == NIGHTMARE else 0.0
        else:
            p_nightmare = unknown[NIGHTMARE] / hidden if hidden else 0.0
        out |= {
            "hand": list(state.hand),
            "deck_by_kind": counts,
            "deck_top": list(state.top),
            "shown": list(state.shown),
            "picks": list(state.picks),
            "next_is_nightmare": p_nightmare,
        }
    return out
