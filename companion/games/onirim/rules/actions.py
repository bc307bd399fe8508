"""The actions of Onirim, the player's and chance's, and their JSON.

Chance never shuffles a stored order: the state keeps the deck as counts per kind plus the
cards on top that a prophecy or an effect has shown, so a draw is a chance action naming the
card drawn (`Draw`), and looking at the top of the deck is one naming the cards seen
(`Reveal`). A camera game taps in the same actions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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
    cards: tuple[str, str]


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

    way: str
    card: str | None = None


@dataclass(frozen=True)
class Pick:
    """A choice inside a Mirror effect: a card of the deck (Red), of the discard (Blue), or
    the colour of the Doors to put into play (Key, Brown; `card` is a Door)."""

    card: str


Action = Draw | Reveal | Play | Discard | Pair | Prophecy | OpenDoor | Nightmare | Pick

WAYS = ("key", "door", "reveal", "hand")


def action_to_json(a: Action) -> dict[str, Any]:
    if isinstance(a, Draw):
        return {"type": "draw", "card": a.card}
    if isinstance(a, Reveal):
        return {"type": "reveal", "cards": list(a.cards)}
    if isinstance(a, Play):
        return {"type": "play", "card": a.card}
    if isinstance(a, Discard):
        return {"type": "discard", "card": a.card}
    if isinstance(a, Pair):
        return {"type": "pair", "mirror": a.mirror, "cards": list(a.cards)}
    if isinstance(a, Prophecy):
        return {"type": "prophecy", "discard": a.discard, "order": list(a.order)}
    if isinstance(a, OpenDoor):
        return {"type": "open-door", "open": a.open}
    if isinstance(a, Nightmare):
        return {"type": "nightmare", "way": a.way, "card": a.card}
    if isinstance(a, Pick):
        return {"type": "pick", "card": a.card}
    raise ValueError(f"not an Onirim action: {a!r}")


def _str(data: dict[str, Any], key: str, optional: bool = False) -> Any:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise ValueError(f"action field {key!r} must be a card name, not {value!r}")
    return value


def _cards(data: dict[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise ValueError(f"action field {key!r} must be a list of card names")
    return tuple(value)


def action_from_json(data: dict[str, Any]) -> Action:
    if not isinstance(data, dict):
        raise ValueError(f"an action is a JSON object, not {data!r}")
    kind = data.get("type")
    if kind == "draw":
        return Draw(_str(data, "card"))
    if kind == "reveal":
        return Reveal(_cards(data, "cards"))
    if kind == "play":
        return Play(_str(data, "card"))
    if kind == "discard":
        return Discard(_str(data, "card"))
    if kind == "pair":
        cards = _cards(data, "cards")
        if len(cards) != 2:
            raise ValueError("a pair under a Mirror is two cards")
        a, b = sorted(cards)
        return Pair(_str(data, "mirror"), (a, b))
    if kind == "prophecy":
        return Prophecy(_str(data, "discard", optional=True), _cards(data, "order"))
    if kind == "open-door":
        if not isinstance(data.get("open"), bool):
            raise ValueError("open-door needs open: true or false")
        return OpenDoor(data["open"])
    if kind == "nightmare":
        way = data.get("way")
        if way not in WAYS:
            raise ValueError(f"nightmare way must be one of {', '.join(WAYS)}, not {way!r}")
        return Nightmare(way, _str(data, "card", optional=True))
    if kind == "pick":
        return Pick(_str(data, "card"))
    raise ValueError(
        f"unknown action type {kind!r} (draw, reveal, play, discard, pair, prophecy, "
        "open-door, nightmare, pick)"
    )
