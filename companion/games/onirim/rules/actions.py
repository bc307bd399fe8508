"""The actions of Onirim, the player's and chance's, and their JSON.

Chance never shuffles a stored order: the state keeps the deck as counts per kind plus the
cards on top that a prophecy or an effect has shown, so a draw is a chance action naming the
card drawn (`Draw`), and looking at the top of the deck is one naming the cards seen
(`Reveal`). A camera game taps in the same actions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.action_json import ActionCodec, sorted_tuple, spelt

WAYS = ("key", "door", "reveal", "hand")
"""How a drawn Nightmare is resolved (`Nightmare.way`)."""


@dataclass(frozen=True)
class Draw:
    """Chance: the top card of the deck is `card`."""

    card: str


@dataclass(frozen=True)
class Reveal:
    """Chance: the top cards of the deck are `cards` (top first)."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class Play:
    """Play a Location from the hand to the end of the labyrinth."""

    card: str


@dataclass(frozen=True)
class Discard:
    """Discard a card from the hand (a Key starts a prophecy)."""

    card: str


@dataclass(frozen=True)
class Pair:
    """Play two Location cards from the hand under one Mirror (cards sorted)."""

    mirror: str
    cards: tuple[str, str] = field(metadata=spelt(canonical=sorted_tuple))


@dataclass(frozen=True)
class Prophecy:
    """Of the cards a prophecy shows, discard one and put the rest back, `order` top first."""

    discard: str | None
    order: tuple[str, ...]


@dataclass(frozen=True)
class OpenDoor:
    """A Door was drawn while a Key of its colour is in hand: open it (discarding the Key)
    or send it to limbo."""

    open: bool


@dataclass(frozen=True)
class Nightmare:
    """Resolve a drawn Nightmare: `way` is key (discard `card`, a Key), door (send the Door
    `card` in play to limbo), reveal (the top of the deck) or hand (discard the hand)."""

    way: str = field(metadata=spelt(choices=WAYS))
    card: str | None = None


@dataclass(frozen=True)
class Pick:
    """A choice inside a Mirror effect: a card of the deck (Red), of the discard (Blue), or
    the colour of the Doors to put into play (Key, Brown; `card` is a Door)."""

    card: str


Action = Draw | Reveal | Play | Discard | Pair | Prophecy | OpenDoor | Nightmare | Pick


CODEC: ActionCodec[Action] = ActionCodec(
    "Onirim",
    {
        "draw": Draw,
        "reveal": Reveal,
        "play": Play,
        "discard": Discard,
        "pair": Pair,
        "prophecy": Prophecy,
        "open-door": OpenDoor,
        "nightmare": Nightmare,
        "pick": Pick,
    },
)

action_to_json = CODEC.to_json


def action_from_json(data: dict[str, Any]) -> Action:
    """Raises ValueError with a one-line reason for a malformed action. (Typed for an object:
    the live table marks its call with an answer of a wider type as such.)"""
    return CODEC.from_json(data)
