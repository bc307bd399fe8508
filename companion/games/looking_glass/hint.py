"""Hints: the best pick for the seat to move, from what that seat knows.

The hint starts from `ENGINE.view(state, seat)`, so it cannot use the other hand or the
removed pile even by mistake. The unseen cards (the round's deck minus the Looking Glass as
dealt, minus the seat's own hand) hold the other hand and the removed pile; the other hand
is any 4 of them that are not Brawlers (Brawlers are never dealt to a hand). Each possible
other hand (a determinization) makes the round a game of perfect information, which
`solver` solves exactly (minimax over the rest of the round's game graph, for all
determinizations at once; solver.py says why not alpha-beta per determinization).

Objective: the round goes to the larger ABSOLUTE score, so a pick's value is the margin
|own score| - |other score| at round end, a tie counting +1/2 for the seat that wins it by
the tie rule and -1/2 for the other. The hint averages it over the determinizations
(weighted by how many ways the deck deals that hand) and recommends the largest mean.
When there are at most `samples` distinct other hands all are solved (the expectation is
exact); otherwise `samples` hands are drawn uniformly with a generator seeded from the
position, so a hint is repeatable.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from itertools import product
from math import comb
from typing import Any

import numpy as np

from companion.games.looking_glass.rules.deck import BRAWLERS, load_deck
from companion.games.looking_glass.rules.engine import ENGINE
from companion.games.looking_glass.rules.scoring import HAND_SIZE
from companion.games.looking_glass.solver import build, root_values, tables

DEFAULT_SAMPLES = 72
"""Enough to solve every possible other hand exactly in the base game (at most C(8,4)=70)."""


@dataclass(frozen=True)
class PickValue:
    position: str
    margin: float  # expected |own| - |other| at round end
    win: float  # share of determinizations the seat wins after this pick


@dataclass(frozen=True)
class Hint:
    seat: int
    best: str
    picks: tuple[PickValue, ...]  # best first
    determinizations: int
    exact: bool  # every possible other hand was solved

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "best": self.best,
            "determinizations": self.determinizations,
            "exact": self.exact,
            "picks": [
                {"position": p.position, "margin": round(p.margin, 3), "win": round(p.win, 3)}
                for p in self.picks
            ],
        }


def hand_options(pool: Counter[str], size: int) -> list[tuple[Counter[str], int]]:
    """Every multiset of `size` cards from `pool`, with how many physical hands give it."""
    ids = sorted(pool)
    out = []
    for ks in product(*(range(min(pool[c], size) + 1) for c in ids)):
        if sum(ks) == size:
            w = 1
            for c, k in zip(ids, ks, strict=True):
                w *= comb(pool[c], k)
            out.append((Counter({c: k for c, k in zip(ids, ks, strict=True) if k}), w))
    return out


def _determinizations(
    own: Counter[str] | None, pool: Counter[str], samples: int, rng: random.Random
) -> tuple[list[tuple[Counter[str], Counter[str], float]], bool]:
    """(own hand, other hand, weight) triples; the flag says whether they are exhaustive."""
    dealable = Counter({c: n for c, n in pool.items() if c not in BRAWLERS})
    if own is not None:
        options = hand_options(dealable, HAND_SIZE)
        if len(options) <= samples:
            return [(own, o, float(w)) for o, w in options], True
        cards = list(dealable.elements())
        return [(own, Counter(rng.sample(cards, HAND_SIZE)), 1.0) for _ in range(samples)], False
    cards = list(dealable.elements())
    out = []
    for _ in range(samples):
        eight = rng.sample(cards, 2 * HAND_SIZE)
        out.append((Counter(eight[:HAND_SIZE]), Counter(eight[HAND_SIZE:]), 1.0))
    return out, False


def hint(state: Any, seat: int, samples: int = DEFAULT_SAMPLES) -> Hint:
    """The best pick for `seat`, which must be the seat to move."""
    return hint_from_view(ENGINE.view(state, seat), samples)


def hint_from_view(view: dict[str, Any], samples: int = DEFAULT_SAMPLES) -> Hint:
    seat = view["seat"]
    rv = view["round"]
    if view["phase"] != "pick" or view["to_move"] != seat:
        raise ValueError(f"seat {seat} has no pick to make (phase {view['phase']})")
    deck = load_deck()
    t = tables(deck)
    index = {cid: i for i, cid in enumerate(t.ids)}
    lay = ENGINE.layout(rv["layout"])
    n = len(lay.cells)
    glass = rv["glass"]
    taken = 0
    cards: tuple[list[int], list[int]] = ([-1] * n, [-1] * n)
    for i in range(n):
        a = glass.get(lay.name_of(0, i))
        if a is None:
            taken |= 1 << i
        else:
            cards[0][i] = index[a]
            cards[1][i] = index[glass[lay.name_of(1, i)]]
    piles = [Counter(p) for p in rv["piles"]]
    own = None if rv["hand"] is None else Counter(rv["hand"])
    pool = deck.copies(rv["brawlers_in_play"])
    pool.subtract(glass.values())
    for p in piles:
        pool.subtract(p)
    if own is not None:
        pool.subtract(own)
    pool = +pool
    rng = random.Random(repr(sorted(glass.items())) + repr(rv["piles"]) + repr(rv["hand"]))
    worlds, exact = _determinizations(own, pool, samples, rng)

    starter = rv["starter"]
    g = build(lay, (tuple(cards[0]), tuple(cards[1])), view["to_move"], taken)
    vec = [[p.get(cid, 0) for cid in t.ids] for p in piles]
    hands: list[list[list[int]]] = [[], []]
    weights = []
    for mine, theirs, weight in worlds:
        hands[seat].append([mine.get(cid, 0) for cid in t.ids])
        hands[1 - seat].append([theirs.get(cid, 0) for cid in t.ids])
        weights.append(weight)
    # cards already received count like a hand: fixed for the rest of the round
    h0 = np.array(hands[0]) + np.array(vec[0])
    h1 = np.array(hands[1]) + np.array(vec[1])
    moves, values = root_values(g, h0, h1, starter, t)
    w = np.array(weights, dtype=np.float64)
    sign = 1 if seat == 0 else -1
    signed = sign * values.astype(np.float64)
    margin = (signed @ w) / (2 * w.sum())
    win = ((signed > 0).astype(np.float64) @ w) / w.sum()
    by_move = {int(m): (float(margin[k]), float(win[k])) for k, m in enumerate(moves)}
    picks = []
    for i in lay.free_cells(taken):
        for half in (0, 1):
            # a self-linked pair has one move: taking either side gives the same piles
            m = i * 2 + half if (i * 2 + half) in by_move else i * 2
            mg, wn = by_move[m]
            picks.append(PickValue(lay.name_of(half, i), mg, wn))
    picks.sort(key=lambda p: (-p.margin, -p.win, p.position))
    return Hint(seat, picks[0].position, tuple(picks), len(worlds), exact)
