"""A reading that rests on one mirror pair, one of whose cards it cannot name, with no layout
card behind it, is asked about whole (`read.weak_reading`): where an arm hides the glass's own
reflections, two covered cards of a score pile's cascade can face each other like a pair, and
the pile would be read as the glass."""

from __future__ import annotations

import numpy as np

from companion.games.looking_glass.vision.read import (
    CONFIDENCE_THRESHOLD,
    WEAK_PAIRS,
    SeenCard,
    mirror_pairs,
    unnamed_in_pairs,
    weak_reading,
)


def card(name: str | None, half: int, row: int, col: int, sure: float = 0.98) -> SeenCard:
    return SeenCard(name, sure, np.zeros(2), np.zeros((4, 2)), False, half, row, col, np.zeros(2))


def test_a_pile_read_as_one_pair_with_a_card_it_cannot_name_is_weak():
    """A pile's two covered cards face each other (one unnamed), a third pile card beside."""
    cards = [
        card(None, 0, 0, 0, sure=0.24),
        card("mock-turtle", 1, 0, 0),
        card("queen-of-hearts", 1, 1, 0),
    ]
    assert mirror_pairs(cards) == 1 and unnamed_in_pairs(cards) == 1
    assert weak_reading(cards, None)


def test_a_name_given_below_the_threshold_counts_as_unnamed():
    """A reading at threshold 0 (to sweep it) names everything: the rule goes by the default
    threshold, so the reading is judged as the default reader's."""
    cards = [card("dodo", 0, 0, 0, sure=CONFIDENCE_THRESHOLD / 2), card("lion", 1, 0, 0)]
    assert unnamed_in_pairs(cards) == 1
    assert weak_reading(cards, None)


def test_the_last_pair_named_whole_is_not_weak():
    """A round's last pair, both cards named, and a card found at a layout place."""
    cards = [card("walrus-carpenter", 0, 0, 0), card("caterpillar", 1, 0, 0), card("lion", 1, 1, 3)]
    assert not weak_reading(cards, None)


def test_a_lone_card_whose_reflection_an_arm_hides_is_not_weak():
    """No pair at all: the last card read with a palm over its reflection stays named."""
    assert not weak_reading([card(None, 0, 0, 0, sure=0.1), card("dodo", 0, 0, 2)], None)


def test_a_layout_card_or_more_pairs_back_the_line():
    one_pair = [card(None, 0, 0, 0, sure=0.2), card("dodo", 1, 0, 0)]
    assert not weak_reading(one_pair, "wall")
    more = [
        *one_pair,
        *(card("lion", h, 0, c) for c in range(2, 2 + 2 * WEAK_PAIRS, 2) for h in (0, 1)),
    ]
    assert mirror_pairs(more) == WEAK_PAIRS + 1
    assert not weak_reading(more, None)
    assert not weak_reading([], None)
