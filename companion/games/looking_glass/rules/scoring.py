"""End-of-round scoring by the reference card, pure so the camera side can reuse it.

A collection is a mapping card id -> count (score pile and hand together). Only the size of
each character's stack matters, never the order the cards came in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import UserError
from companion.games.looking_glass.rules.deck import LION, UNICORN, Deck, load_deck

HAND_SIZE = 4
ROUND_CARDS = 18
"""Each player ends a round with 14 cards taken from the Looking Glass plus a hand of 4."""


class CollectionError(UserError, ValueError):
    """Counts that no real round can produce (an unknown id, too many copies, ...)."""


@dataclass(frozen=True)
class Stack:
    card_id: str
    count: int
    points: int


@dataclass(frozen=True)
class Score:
    stacks: tuple[Stack, ...]  # normal characters with at least one card, deck order
    brawlers: int  # the Lion and the Unicorn's points
    total: int

    def to_json(self) -> dict[str, Any]:
        return {
            "stacks": {s.card_id: {"count": s.count, "points": s.points} for s in self.stacks},
            "brawlers": self.brawlers,
            "total": self.total,
        }


def brawler_points(has_lion: bool, has_unicorn: bool, rest: int, deck: Deck) -> int:
    """The Brawlers' points given the rest of the score.

    Both together score `deck.both_brawlers` (1) in whichever direction is worse for the
    player, i.e. toward 0: -1 when the rest is positive, +1 when it is negative. At 0 the
    direction does not matter (|+1| = |-1|); we use +1.
    """
    if has_lion and has_unicorn:
        return -deck.both_brawlers if rest > 0 else deck.both_brawlers
    if has_lion:
        return deck.lion_alone
    if has_unicorn:
        return deck.unicorn_alone
    return 0


def score(counts: Mapping[str, int], deck: Deck | None = None) -> Score:
    deck = deck or load_deck()
    stacks = []
    for cid in deck.normal_ids:
        n = counts.get(cid, 0)
        if n:
            stacks.append(Stack(cid, n, deck.stack_points(cid, n)))
    rest = sum(s.points for s in stacks)
    b = brawler_points(counts.get(LION, 0) > 0, counts.get(UNICORN, 0) > 0, rest, deck)
    return Score(tuple(stacks), b, rest + b)


def round_winner(totals: Sequence[int], first: int) -> int:
    """The seat with the larger absolute score; a tie goes to the seat that went first."""
    a, b = abs(totals[0]), abs(totals[1])
    if a == b:
        return first
    return 0 if a > b else 1


@dataclass(frozen=True)
class RoundScore:
    scores: tuple[Score, Score]
    first: int
    winner: int

    def to_json(self) -> dict[str, Any]:
        return {
            "players": [s.to_json() for s in self.scores],
            "first": self.first,
            "winner": self.winner,
        }


def score_round(
    collections: Sequence[Mapping[str, int]], first: int, deck: Deck | None = None
) -> RoundScore:
    """Both players' scores (piles and hands together) and the round's winner."""
    a, b = (score(c, deck) for c in collections)
    return RoundScore((a, b), first, round_winner([a.total, b.total], first))


def check_collections(
    piles: Sequence[Mapping[str, int]],
    hands: Sequence[Mapping[str, int]],
    deck: Deck | None = None,
    *,
    finished: bool = True,
) -> list[Counter[str]]:
    """Validate two players' piles and hands; returns each player's whole collection.

    Raises CollectionError naming the first impossibility: an unknown id, a count that is
    not a whole number >= 0, more copies than the deck has (both players together), a Brawler
    in a hand (they are never dealt to players), a hand of more than 4, or - when `finished`
    - a player without exactly 18 cards.
    """
    deck = deck or load_deck()
    known = set(deck.ids)
    everything: Counter[str] = Counter()
    totals = []
    for seat in (0, 1):
        mine: Counter[str] = Counter()
        for part, counts in (("pile", piles[seat]), ("hand", hands[seat])):
            for cid, n in counts.items():
                if cid not in known:
                    raise CollectionError(
                        f"player {seat} {part}: unknown card id {cid!r} "
                        f"(known: {', '.join(deck.ids)})"
                    )
                if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                    raise CollectionError(
                        f"player {seat} {part}: count of {cid!r} must be a whole number >= 0"
                    )
                if part == "hand" and n and deck.character(cid).team == "brawler":
                    raise CollectionError(
                        f"player {seat} hand: {cid!r} is a Brawler, and Brawlers are never "
                        "dealt to a hand (count it in the pile if it was taken)"
                    )
                mine[cid] += n
            if part == "hand" and sum(counts.values()) > HAND_SIZE:
                raise CollectionError(
                    f"player {seat} hand: {sum(counts.values())} cards; a hand holds {HAND_SIZE}"
                )
        n_cards = sum(mine.values())
        if finished and n_cards != ROUND_CARDS:
            raise CollectionError(
                f"player {seat} has {n_cards} cards; a finished round gives each player "
                f"{ROUND_CARDS} (14 from the Looking Glass + a hand of {HAND_SIZE})"
            )
        everything += mine
        totals.append(mine)
    for cid, n in everything.items():
        have = deck.character(cid).copies
        if n > have:
            raise CollectionError(
                f"{n} cards of {cid!r} between the players, but the deck has only {have}"
            )
    return totals
