"""Exact values of a round for many known-hand worlds at once: the hint engine's core.

The Looking Glass is face up, so the remaining picks form a game of perfect information
except for the hands, and the hands only matter when the round is scored. So the game tree
is the same for every guess of the hands (a "determinization"); only the leaves differ. We
therefore build the game graph of the rest of the round once and back the values up with
minimax for all guesses at once (numpy, one column per guess). Exact alpha-beta per guess
gives the same numbers but visits the same positions again for every guess: measured at
~100 ms per guess at a round's start, against ~100-200 ms for all 70 guesses together here.

State encoding: a pick always takes a cell in both halves, so the Looking Glass is one bitmask
of taken cells; who holds what is seat 0's received-card counts in base 5 (seat 1's follow
from the mask). Whose turn it is follows from the number of cells taken. Equal states
reached by different orders are merged (a transposition table, level by level).

Values, from seat 0's side: 2*(|S0| - |S1|) + 1 if seat 0 wins the round, else -1, i.e.
twice the margin of absolute scores, with the tie rule as a half point.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

import numpy as np

from companion.games.looking_glass.rules.deck import LION, UNICORN, Deck
from companion.games.looking_glass.rules.layout import Layout
from companion.games.looking_glass.rules.scoring import brawler_points

_MASK_SHIFT = 40  # key bits below, mask bits above, in one int64 state code


@dataclass(frozen=True)
class Tables:
    """Integer scoring tables for a deck, in deck-id order."""

    ids: tuple[str, ...]
    points: np.ndarray  # (cards, 9): points of a stack of n, 0 for the Brawlers
    lion: int
    unicorn: int
    bonus: np.ndarray  # (4 brawler flags, 3 signs of the rest: -, 0, +)


@lru_cache(maxsize=4)
def tables(deck: Deck) -> Tables:
    ids = deck.ids
    most = max(c.copies for c in deck.characters)
    pts = np.zeros((len(ids), 2 * most + 1), dtype=np.int32)
    for k, cid in enumerate(ids):
        if deck.character(cid).team != "brawler":
            for n in range(1, 2 * most + 1):
                pts[k, n] = deck.stack_points(cid, min(n, most))
    bonus = np.array(
        [
            [brawler_points(bool(f & 1), bool(f & 2), rest, deck) for rest in (-1, 0, 1)]
            for f in range(4)
        ],
        dtype=np.int32,
    )
    return Tables(ids, pts, ids.index(LION), ids.index(UNICORN), bonus)


@dataclass
class RoundGraph:
    """Every position of one dealt round, level by level (level = cells taken).

    `slots[k]` is a (states of level k, most moves) matrix of child indices into level k+1,
    padded with the sentinel `len(codes[k + 1])`; `slot_moves[k]` holds the matching moves
    (cell * 2 + half taken by the mover, -1 for padding). Backing up a level is then a few
    whole-array gathers and maxima instead of a Python loop over positions.
    """

    layout: Layout
    cards: tuple[tuple[int, ...], tuple[int, ...]]  # -1 where taken before the start
    first_mover: int  # the seat to move at the start
    taken: int  # cells taken before the start
    codes: list[np.ndarray]  # per level: sorted state codes (mask << 40 | key)
    slots: list[np.ndarray]
    slot_moves: list[np.ndarray]

    def mover(self, level: int) -> int:
        return self.first_mover if level % 2 == 0 else 1 - self.first_mover

    @property
    def size(self) -> int:
        return sum(len(c) for c in self.codes)


def build(
    layout: Layout, cards: tuple[tuple[int, ...], tuple[int, ...]], first_mover: int, taken: int
) -> RoundGraph:
    """The graph of every way to finish the round from `taken`; keys count only the cards
    seat 0 receives from here on (earlier ones are fixed, like a hand)."""
    n = len(layout.cells) - taken.bit_count()
    a, b = cards
    pow5 = [5**c for c in range(32)]
    codes = [np.array([taken << _MASK_SHIFT], dtype=np.int64)]
    slots: list[np.ndarray] = []
    slot_moves: list[np.ndarray] = []
    free_of: dict[int, list[int]] = {}
    for level in range(n):
        mover = first_mover if level % 2 == 0 else 1 - first_mover
        cur = codes[level]  # sorted, so the states of one mask are contiguous
        masks = cur >> _MASK_SHIFT
        cuts = [0, *(np.flatnonzero(np.diff(masks)) + 1).tolist(), len(cur)]
        blocks = []  # (first state, last state + 1, slot column, move) per code block
        code = []
        width = 0
        for lo, hi in pairwise(cuts):
            m = int(masks[lo])
            free = free_of.get(m)
            if free is None:
                free = free_of[m] = layout.free_cells(m)
            col = 0
            for i in free:
                for half in (0, 1) if a[i] != b[i] else (0,):
                    mine, theirs = (a[i], b[i]) if half == 0 else (b[i], a[i])
                    got0 = mine if mover == 0 else theirs
                    code.append(cur[lo:hi] + (((1 << i) << _MASK_SHIFT) + pow5[got0]))
                    blocks.append((lo, hi, col, i * 2 + half))
                    col += 1
            width = max(width, col)
        nxt, child = np.unique(np.concatenate(code), return_inverse=True)
        sl = np.full((len(cur), width), len(nxt), dtype=np.int32)
        sm = np.full((len(cur), width), -1, dtype=np.int16)
        at = 0
        for lo, hi, col, move in blocks:
            sl[lo:hi, col] = child[at : at + hi - lo]
            sm[lo:hi, col] = move
            at += hi - lo
        slots.append(sl)
        slot_moves.append(sm)
        codes.append(nxt)
    return RoundGraph(layout, cards, first_mover, taken, codes, slots, slot_moves)


@lru_cache(maxsize=4)
def _combos(n: int) -> np.ndarray:
    """Every vector of n stack sizes 0-4, in base-5 order (row k has code k)."""
    return np.array(list(np.ndindex(*(5,) * n)), dtype=np.int64)


def leaf_values(
    g: RoundGraph,
    leaf_codes: np.ndarray,
    hands0: np.ndarray,
    hands1: np.ndarray,
    starter: int,
    t: Tables,
) -> np.ndarray:
    """(leaves, worlds) values from seat 0's side.

    `hands0`/`hands1` are (worlds, cards) counts of everything each seat holds besides what
    the graph hands out: its hand plus the cards received before the graph's start.
    """
    n_cards = len(t.ids)
    keys = leaf_codes & ((1 << _MASK_SHIFT) - 1)
    x0 = np.stack([(keys // 5**c) % 5 for c in range(n_cards)], axis=1)
    left = [c for c in g.cards[0] + g.cards[1] if c >= 0]
    total = np.bincount(np.array(left, dtype=np.int64), minlength=n_cards)
    x1 = total[None, :] - x0
    normal = [c for c in range(n_cards) if c not in (t.lion, t.unicorn)]
    groups = [normal[: len(normal) // 2], normal[len(normal) // 2 :]]
    scores = []
    for x, h in ((x0, hands0), (x1, hands1)):
        # Points of a character group for every count combination (5^5 rows, one column per
        # world), then one gather per group instead of one per character.
        base = np.zeros((len(keys), len(h)), dtype=np.int16)
        for group in groups:
            combos = _combos(len(group))
            table = np.zeros((len(combos), len(h)), dtype=np.int16)
            for k, c in enumerate(group):
                table += t.points[c][combos[:, k][:, None] + h[None, :, c]].astype(np.int16)
            code = np.zeros(len(keys), dtype=np.int64)
            for c in group:
                code = code * 5 + x[:, c]
            base += table[code]
        # a Brawler may come from the graph (x) or be held already (h: received earlier)
        lion = (x[:, t.lion][:, None] + h[None, :, t.lion]) > 0
        unicorn = (x[:, t.unicorn][:, None] + h[None, :, t.unicorn]) > 0
        flags = lion.astype(np.int8) | (unicorn.astype(np.int8) << 1)
        bonus = t.bonus.astype(np.int16)[flags, np.sign(base) + 1]
        scores.append(base + bonus)
    a0, a1 = np.abs(scores[0]), np.abs(scores[1])
    win0 = (a0 > a1) | ((a0 == a1) & (starter == 0))
    value: np.ndarray = (2 * (a0 - a1) + np.where(win0, 1, -1)).astype(np.int8)
    return value  # |value| <= 2*22+1


def root_values(
    g: RoundGraph, hands0: np.ndarray, hands1: np.ndarray, starter: int, t: Tables
) -> tuple[np.ndarray, np.ndarray]:
    """The moves at the graph's start (cell*2+half taken) and their (moves, worlds) values.

    `starter` is the round's starting seat (it wins ties).
    """
    n = len(g.codes) - 1
    vals = leaf_values(g, g.codes[n], hands0, hands1, starter, t)
    for k in range(n - 1, -1, -1):
        idx = g.slots[k]  # (states, slots) into vals, sentinel = len(vals)
        if k == 0:
            moves = g.slot_moves[0][0]
            keep = moves >= 0
            return moves[keep], vals[idx[0][keep]]
        mover = g.mover(k)
        pad = np.full((1, vals.shape[1]), -128 if mover == 0 else 127, dtype=np.int8)
        ext = np.vstack([vals, pad])
        best = ext[idx[:, 0]]
        reduce = np.maximum if mover == 0 else np.minimum
        for d in range(1, idx.shape[1]):
            reduce(best, ext[idx[:, d]], out=best)
        vals = best
    raise ValueError("no pick left: the round is over")
