"""Small pure helpers over sorted card tuples and the deck's counts."""

from __future__ import annotations

import bisect
import random
from collections import Counter

from companion.games.onirim.rules.deck import Deck


def without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """`cards` with one copy of `card` taken out (it must be there)."""
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def with_sorted(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = bisect.bisect(cards, card)
    return (*cards[:i], card, *cards[i:])


def add(counts: tuple[int, ...], index: int, n: int) -> tuple[int, ...]:
    return (*counts[:index], counts[index] + n, *counts[index + 1 :])


def unknown_counts(deck: Deck, counts: tuple[int, ...], top: tuple[str, ...]) -> Counter[str]:
    """The deck's cards below those on top the player knows: the ones drawn at random."""
    left = Counter({k: n for k, n in zip(deck.kinds, counts, strict=True) if n})
    left.subtract(top)
    return +left


def sample(pool: Counter[str], n: int, rng: random.Random) -> list[str]:
    """`n` cards drawn without replacement from `pool`, in the order drawn."""
    items = list(pool.elements())
    return rng.sample(items, n)
