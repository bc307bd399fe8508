"""A glass none of whose named cards faces a named reflection is not known to be the glass
(`read.ask_unmirrored`): where a hand split the glass the light-border reader kept the score
piles' cards and named them. Their names are asked; a glass with one named pair keeps all."""

from __future__ import annotations

import numpy as np

from companion.games.looking_glass.vision.read import (
    CONFIDENCE_THRESHOLD,
    SeenCard,
    ask_unmirrored,
)


def card(name: str | None, half: int, row: int, col: int, sure: float = 1.0) -> SeenCard:
    """A card read at (half, row, col), named `name` at confidence `sure`."""
    return SeenCard(name, sure, np.zeros(2), np.zeros((4, 2)), False, half, row, col, np.zeros(2))


def test_a_pile_beside_a_nothing_at_its_mirror_place_is_asked() -> None:
    """Two piles' cards in one column of half 1, at the mirror place of one of them a card
    no face names: neither faces a named reflection, so both names are asked."""
    piles = [card("mock-turtle", 1, 0, 0), card("queen-of-hearts", 1, 1, 0)]
    nothing = card(None, 0, 0, 0, sure=0.24)
    ask_unmirrored([nothing, *piles], CONFIDENCE_THRESHOLD)
    assert [c.card for c in piles] == [None, None]


def test_one_named_pair_keeps_every_name() -> None:
    """A glass whose one named card faces its named reflection keeps that pair and the
    cards whose reflections the hand hides."""
    cards = [card("dodo", 0, 0, 0), card("dodo", 1, 0, 0), card("walrus-carpenter", 1, 1, 1)]
    ask_unmirrored(cards, CONFIDENCE_THRESHOLD)
    assert [c.card for c in cards] == ["dodo", "dodo", "walrus-carpenter"]


def test_a_pair_named_below_the_threshold_backs_nothing() -> None:
    """A reflection named below `sure` (a reading at a lower threshold, to sweep it) does not
    count as a named reflection, and names below `sure` are left as they are."""
    low = card("dodo", 0, 0, 0, sure=CONFIDENCE_THRESHOLD / 2)
    high = card("dodo", 1, 0, 0)
    ask_unmirrored([low, high], CONFIDENCE_THRESHOLD)
    assert (low.card, high.card) == ("dodo", None)
