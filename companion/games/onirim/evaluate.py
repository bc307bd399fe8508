"""An estimate of a position's win probability, from what the player can see.

The greedy player takes the action whose resulting position this rates highest; the hint
uses it to rate the positions its search stops at. It is a logistic model over a few
features; the weights live in models/onirim/hint.toml and are fitted on positions from
greedy games (benchmarks/onirim_fit.py), so the number is a calibrated probability for
positions like those, not a proof. Features use only what the player sees: the hand, the
deck's composition (counted from every card in sight), and the top cards they were shown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from companion.errors import UserError
from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.deck import NIGHTMARE, colour_of, door, symbol_of
from companion.games.onirim.rules.state import OnirimState
from companion.paths import models_dir, read_model_toml

FEATURES = (
    "deck",
    "nightmares",
    "doors_missing",
    "keys_for_doors",
    "series",
    "series_support",
    "mirror_cards_needed",
    "keys",
    "nightmares_on_top",
    "effect_progress",
)

_EFFECT_USEFUL = frozenset({"nightmares-then-doors", "one-nightmare", "one-door"})


@dataclass(frozen=True)
class Model:
    bias: float
    weights: tuple[float, ...]  # in FEATURES order


@lru_cache(maxsize=4)
def load_model(path: Path | None = None) -> Model:
    p = path or models_dir() / "onirim" / "hint.toml"
    data = read_model_toml(p)
    try:
        w = data["weights"]
        return Model(float(data["bias"]), tuple(float(w[f]) for f in FEATURES))
    except (KeyError, TypeError, ValueError) as exc:
        raise UserError(f"{p}: bad hint model ({exc})") from None


def features(state: OnirimState) -> tuple[float, ...]:
    deck = ENGINE.deck
    idx = deck.index
    counts = state.deck
    doors_in: dict[str, int] = {}
    for d in state.doors:
        doors_in[d] = doors_in.get(d, 0) + 1
    missing: dict[str, int] = {}
    for c in deck.colours:
        d = door(c)
        missing[c] = deck.copies[d] - doors_in.get(d, 0)
    keys_by_colour: dict[str, int] = {}
    keys = 0
    for card in state.hand:
        if symbol_of(card) == "key":
            keys += 1
            col = colour_of(card)
            keys_by_colour[col] = keys_by_colour.get(col, 0) + 1
    keys_for_doors = sum(min(n, missing[c]) for c, n in keys_by_colour.items())
    series = support = 0
    if state.run > 0 and state.labyrinth:
        last = state.labyrinth[-1]
        col = colour_of(last)
        if counts[idx[door(col)]] > 0:
            series = state.run
            sym = symbol_of(last)
            support = sum(1 for c in state.hand if colour_of(c) == col and symbol_of(c) != sym)
    needed = progress = 0
    for m, explored, under in zip(state.in_game, state.explored, state.under, strict=True):
        if explored:
            continue
        mirror = deck.mirrors[m]
        if mirror.required:
            needed += deck.cards_to_explore - len(under)
        elif mirror.effect in _EFFECT_USEFUL:
            progress += len(under)
    return (
        float(sum(counts)),
        float(counts[idx[NIGHTMARE]]),
        float(sum(missing.values())),
        float(keys_for_doors),
        float(series),
        float(support),
        float(needed),
        float(keys),
        float(sum(1 for c in state.top if c == NIGHTMARE)),
        float(progress),
    )


def win_estimate(state: OnirimState, model: Model | None = None) -> float:
    """1 or 0 for a finished game, else the model's probability of winning from here."""
    if state.outcome is not None:
        return 1.0 if state.outcome == "won" else 0.0
    m = model or load_model()
    z = m.bias + sum(w * f for w, f in zip(m.weights, features(state), strict=True))
    if z < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))
