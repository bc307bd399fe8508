"""Names the table itself contradicts are asked, not given (`read.ask_unbacked_names`): a card
named by a face its namesakes match far better, and a name given to more cards than the deck
has. A wrong name is worse than a question."""

from __future__ import annotations

import numpy as np

from companion.games.looking_glass.rules.deck import load_deck
from companion.games.looking_glass.vision.read import (
    ASKED_NAMESAKE,
    ASKED_TOO_MANY,
    ASKED_UNBACKED,
    CONFIDENCE_THRESHOLD,
    COPY_BACKS,
    COPY_GAP,
    SeenCard,
    ask_unbacked_names,
    unbacked_names,
)

FACES = ("dodo", "tweedles", "mock-turtle", "lion")
COPIES = dict(load_deck().copies(brawlers=True))


def card(name: str, scores: dict[str, float], *, covered: bool = False, sure: float = 1.0):
    """A card found by its outline, named `name`, whose window the faces score so."""
    full = dict.fromkeys(FACES, 0.3) | scores
    return SeenCard(name, sure, np.zeros(2), np.zeros((4, 2)), covered, 0, 0, 0, np.zeros(2), full)


def test_a_free_card_its_namesakes_match_far_better_is_asked():
    """A mock turtle whose own face was taught from the wrong patch is named by her nearest
    look-alike, the tweedles, clearly (the wrong face scores her 0.3): the real tweedles on
    the table match that face far better than she does. She is asked; they keep their name."""
    real = [card("tweedles", {"tweedles": 0.97, "dodo": 0.45}) for _ in range(2)]
    turtle = card("tweedles", {"tweedles": 0.97 - COPY_GAP - 0.05, "dodo": 0.4})
    ask_unbacked_names([*real, turtle], COPIES, CONFIDENCE_THRESHOLD)
    assert turtle.card is None
    assert [c.card for c in real] == ["tweedles", "tweedles"]


def test_copies_a_glare_dims_a_little_keep_their_name():
    bright = card("dodo", {"dodo": 0.96})
    dimmed = card("dodo", {"dodo": 0.96 - COPY_GAP + 0.05}, covered=True)
    ask_unbacked_names([bright, dimmed], COPIES, CONFIDENCE_THRESHOLD)
    assert (bright.card, dimmed.card) == ("dodo", "dodo")


def test_a_name_given_to_more_cards_than_the_deck_has_is_asked_for_each():
    """Two cards of one look named the Lion, of which the deck has one: which (if either) is
    the Lion the camera cannot say, so both are asked. Four dodos, as many as the deck has,
    stay named."""
    assert COPIES["lion"] == 1 and COPIES["dodo"] == 4
    lions = [card("lion", {"lion": 0.72}) for _ in range(2)]
    dodos = [card("dodo", {"dodo": 0.95}) for _ in range(4)]
    ask_unbacked_names([*lions, *dodos], COPIES, CONFIDENCE_THRESHOLD)
    assert [c.card for c in lions] == [None, None]
    assert all(c.card == "dodo" for c in dodos)


def test_names_under_the_threshold_neither_count_nor_are_asked():
    """A reading at threshold 0 (to sweep the threshold) is checked as the default reader's:
    a name too unsure to be given does not make a sure one too many, nor ask it, and keeps
    its own low-confidence name for the sweep."""
    lion = card("lion", {"lion": 0.9})
    unsure = card("lion", {"lion": 0.5}, sure=CONFIDENCE_THRESHOLD / 2)
    ask_unbacked_names([lion, unsure], COPIES, CONFIDENCE_THRESHOLD)
    assert (lion.card, unsure.card) == ("lion", "lion")


def test_each_asked_card_comes_with_the_rule_that_asked_it():
    """`unbacked_names` says which rule asks each card (the benchmark that lists the cards
    asked reads it) and changes no name: a mock turtle named by the tweedles' face, which
    the real tweedles match far better; a covered dodo whose face matches it poorly, with no
    copy on the table; two cards named the Lion, of which the deck has one."""
    real = card("tweedles", {"tweedles": 0.97, "dodo": 0.45})
    turtle = card("tweedles", {"tweedles": 0.97 - COPY_GAP - 0.05, "dodo": 0.4})
    dodo = card("dodo", {"dodo": COPY_BACKS - 0.05}, covered=True)
    lions = [card("lion", {"lion": 0.9}) for _ in range(2)]
    cards = [real, turtle, dodo, *lions]
    asked = unbacked_names(cards, COPIES, CONFIDENCE_THRESHOLD)
    assert asked == {1: ASKED_NAMESAKE, 2: ASKED_UNBACKED, 3: ASKED_TOO_MANY, 4: ASKED_TOO_MANY}
    assert [c.card for c in cards] == ["tweedles", "tweedles", "dodo", "lion", "lion"]
    ask_unbacked_names(cards, COPIES, CONFIDENCE_THRESHOLD)
    assert [c.card for c in cards] == ["tweedles", None, None, None, None]
