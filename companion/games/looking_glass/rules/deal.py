"""Dealing a round: the rulebook's procedure, the Brawlers' set-up, and checking a deal.

Kept apart from the engine's turn logic because the camera side records deals too: a deal
read from the table goes through `check_deal` exactly like a sampled one.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import cast

from companion.games.base import IllegalAction
from companion.games.looking_glass.rules.actions import Deal, Hands
from companion.games.looking_glass.rules.deck import BRAWLERS, Deck
from companion.games.looking_glass.rules.layout import Layout
from companion.games.looking_glass.rules.scoring import HAND_SIZE

Cards = tuple[tuple[str | None, ...], tuple[str | None, ...]]
"""Per half, per cell: the card id, or None for a card a recorded deal left unread."""

REMOVED = {False: 4, True: 6}
"""Cards removed per round without and with the Brawlers in play."""


def settle_brawlers(layout: Layout, cards: list[list[str]]) -> None:
    """Move any Brawler out of the top row, in place.

    The rulebook: the Brawlers "shouldn't end up in the top row. If so, switch them with the
    closest card in the same spot 2 rows down, or with the Reflection to that spot if the
    other Brawler is there." Its intent is that no Brawler can be taken at once, so "top row"
    is every card uncovered at the deal (`Layout.top_row`), not only the outermost row. A
    Brawler found there (half A then half B, in cell order) is switched with the card at
    `Layout.brawler_spot`, or with that spot's reflection if the other Brawler is there.
    """
    for half in (0, 1):
        for cell in layout.top_row:
            if cards[half][cell] not in BRAWLERS:
                continue
            target = layout.brawler_spot(cell)
            th = half if cards[half][target] not in BRAWLERS else 1 - half
            cards[half][cell], cards[th][target] = cards[th][target], cards[half][cell]


def sample_deal(deck: Deck, lay: Layout, brawlers: bool, starter: int, rng: random.Random) -> Deal:
    """The rulebook's procedure, including the Brawlers' tournament method.

    Hands are dealt one card at a time from the round's starting player, skipping the
    Brawlers straight to the removed pile.
    """
    draw = None
    in_play = False
    if brawlers:
        normal = deck.cards(False)
        rng.shuffle(normal)
        draw = normal[rng.randrange(len(normal))]
        in_play = draw not in deck.banned_by
    cards = deck.cards(in_play)
    rng.shuffle(cards)
    it = iter(cards)
    grid: list[list[str]] = [[""] * len(lay.cells) for _ in (0, 1)]
    for row in range(len(lay.rows)):  # from the inside of each half outward
        for half in (0, 1):
            for cell, c in enumerate(lay.cells):
                if c.row == row:
                    grid[half][cell] = next(it)
    if in_play:
        settle_brawlers(lay, grid)
    hands: list[list[str]] = [[], []]
    removed: list[str] = []
    seat = starter
    for card in it:
        if card in BRAWLERS or len(hands[seat]) == HAND_SIZE:
            removed.append(card)
            continue
        hands[seat].append(card)
        if len(hands[1 - seat]) < HAND_SIZE:
            seat = 1 - seat
    glass = {lay.name_of(h, c): grid[h][c] for h in (0, 1) for c in range(len(lay.cells))}
    return Deal.of(glass, hands, removed, draw, lay.id)


def check_hands(hands: Hands, available: Counter[str]) -> None:
    """Two hands of 4 normal cards that the deck still has."""
    for seat, h in enumerate(hands):
        if len(h) != HAND_SIZE:
            raise IllegalAction(
                f"each player is dealt {HAND_SIZE} cards", f"seat {seat}'s hand has {len(h)}"
            )
        brawler = [c for c in h if c in BRAWLERS]
        if brawler:
            raise IllegalAction(
                "the Brawlers are never dealt to a player", f"seat {seat}'s hand holds {brawler[0]}"
            )
    excess = Counter(hands[0]) + Counter(hands[1]) - available
    if excess:
        raise IllegalAction(
            "a deal uses the deck's cards once each",
            f"more {', '.join(sorted(excess))} than the deck has left",
        )


def check_deal(deck: Deck, lay: Layout, brawlers: bool, deal: Deal) -> tuple[bool, Cards]:
    """Whether the Brawlers are in play, and the cards per half and cell; IllegalAction
    names the first way the deal contradicts the deck, the layout or the set-up rules.

    A deal recorded at the table may leave cards unread (None) and the Brawlers' draw
    unrecorded (a camera sees neither): the Brawlers are then in play when one lies in the
    Looking Glass, and the known cards are checked against the deck."""
    draw = deal.brawler_draw
    glass = deal.glass_map()
    known = [c for c in glass.values() if c is not None]
    if brawlers and draw is None and deal.hands is None:
        in_play = any(c in BRAWLERS for c in known)
    elif brawlers:
        if draw not in deck.normal_ids:
            raise IllegalAction(
                "with the Brawlers, a card of the normal deck is drawn to decide on them",
                f"brawler_draw is {draw!r}",
            )
        in_play = draw not in deck.banned_by
    else:
        if draw is not None:
            raise IllegalAction("no Brawler draw without the Brawlers", repr(draw))
        in_play = False
    names = set(lay.position_names)
    if set(glass) != names:
        missing, extra = sorted(names - set(glass)), sorted(set(glass) - names)
        raise IllegalAction(
            f"the deal fills every position of layout {lay.id!r} and no other",
            f"missing {missing[:3]}" if missing else f"unknown {extra[:3]}",
        )
    unknown = sorted(set(known) - set(deck.ids))
    if unknown:
        raise IllegalAction("cards come from the deck", f"unknown card id {unknown[0]!r}")
    copies = deck.copies(in_play)
    over = Counter(known) - copies
    if over:
        raise IllegalAction(
            "a deal uses the deck's cards once each",
            f"too many {', '.join(sorted(over))} in the Looking Glass"
            + ("" if in_play else " (the Brawlers are not in play)"),
        )
    for name in (lay.name_of(h, c) for h in (0, 1) for c in lay.top_row):
        if glass[name] is not None and glass[name] in BRAWLERS:
            raise IllegalAction(
                "the Brawlers never start in the top row (uncovered at the deal)",
                f"{glass[name]} at {name} (switch it two rows down)",
            )
    if (deal.hands is None) != (deal.removed is None):
        raise IllegalAction("hands and the removed pile are recorded together or not at all", "")
    if deal.hands is not None:
        if len(known) != len(glass):
            raise IllegalAction("a deal with its hands names every card", "a card is unread")
        rest = copies - Counter(known)
        check_hands(deal.hands, rest)
        rest = rest - Counter(deal.hands[0]) - Counter(deal.hands[1])
        removed = cast("tuple[str, ...]", deal.removed)  # recorded with the hands (above)
        if Counter(removed) != rest:
            raise IllegalAction(
                f"the removed pile holds the other {REMOVED[in_play]} cards",
                f"expected {sorted(rest.elements())}, got {list(removed)}",
            )
    cards = tuple(tuple(glass[lay.name_of(h, c)] for c in range(len(lay.cells))) for h in (0, 1))
    return in_play, (cards[0], cards[1])
