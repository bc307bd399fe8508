"""The moves of a Mirror Mansion turn, as small frozen values with a JSON form.

Chance moves (the set-up, the die) are actions too, so a camera-read set-up or a die a
player reads out is applied exactly like a sampled one, and the action log replays a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.mirror_mansion.rules.board import Cell
from companion.games.mirror_mansion.rules.optics import Mirror
from companion.games.mirror_mansion.rules.state_json import (
    cell_from_json,
    mirror_from_json,
    mirror_to_json,
)


@dataclass(frozen=True)
class Setup:
    """Chance: the cards in their slots (all twelve, the window card included), the mirrors,
    and the field Victor starts on."""

    cards: tuple[tuple[str, str], ...]  # (position, card name), sorted by position
    mirrors: tuple[Mirror, ...]
    victor: int

    def card_map(self) -> dict[str, str]:
        return dict(self.cards)


@dataclass(frozen=True)
class SwapWindow:
    position: str


@dataclass(frozen=True)
class ConfirmCard:
    """The table confirms (or corrects) the motif on a castle card shown to all, such as the
    card the window swap revealed: what the companion knows, not a choice of the player."""

    position: str
    motif: str


@dataclass(frozen=True)
class TurnBox:
    """Masters' variant: the box turned clockwise by 1-3 quarter turns."""

    quarter_turns: int


@dataclass(frozen=True)
class Roll:
    """Chance: the die."""

    value: int


@dataclass(frozen=True)
class Name:
    """The left-hand neighbour names the motif when Victor lands on a question mark."""

    motif: str


@dataclass(frozen=True)
class PlaceDoor:
    """Door variant: the left-hand neighbour puts the door in a slot."""

    cell: Cell
    slot: str


@dataclass(frozen=True, order=True)
class Swap:
    """Take the piece in crossing `source` and put it in `target`/`slot`, facing `facing`
    (None for the door). Same crossing and slot with the other facing is a turn."""

    source: Cell
    target: Cell
    slot: str
    facing: str | None


@dataclass(frozen=True)
class EndSwaps:
    """ "Tippt mal!": the player is done swapping."""


@dataclass(frozen=True)
class Guess:
    seat: int
    jubilant: bool


@dataclass(frozen=True)
class Look:
    """The player looks through the window; `pulled` is the card they pull when they saw
    the sought motif (None otherwise)."""

    pulled: str | None


@dataclass(frozen=True)
class Award:
    """The drops handed out (or given back) this turn, per seat."""

    drops: tuple[int, ...]


Action = (
    Setup
    | SwapWindow
    | ConfirmCard
    | TurnBox
    | Roll
    | Name
    | PlaceDoor
    | Swap
    | EndSwaps
    | Guess
    | Look
    | Award
)


def action_to_json(action: Action) -> dict[str, Any]:
    match action:
        case Setup(cards, mirrors, victor):
            return {
                "type": "setup",
                "cards": dict(cards),
                "mirrors": [mirror_to_json(m) for m in mirrors],
                "victor": victor,
            }
        case SwapWindow(position):
            return {"type": "swap_window", "position": position}
        case ConfirmCard(position, motif):
            return {"type": "confirm_card", "position": position, "motif": motif}
        case TurnBox(q):
            return {"type": "turn_box", "quarter_turns": q}
        case Roll(value):
            return {"type": "roll", "value": value}
        case Name(motif):
            return {"type": "name", "motif": motif}
        case PlaceDoor(cell, slot):
            return {"type": "place_door", "cell": list(cell), "slot": slot}
        case Swap(source, target, slot, facing):
            return {
                "type": "swap",
                "from": list(source),
                "to": list(target),
                "slot": slot,
                "facing": facing,
            }
        case EndSwaps():
            return {"type": "end_swaps"}
        case Guess(seat, jubilant):
            return {"type": "guess", "seat": seat, "jubilant": jubilant}
        case Look(pulled):
            return {"type": "look", "pulled": pulled}
        case Award(drops):
            return {"type": "award", "drops": list(drops)}
    raise TypeError(f"not a Mirror Mansion action: {action!r}")


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{data.get('type')}: {key!r} must be an integer")
    return value


def _str(data: dict[str, Any], key: str, optional: bool = False) -> Any:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{data.get('type')}: {key!r} must be a string")
    return value


def action_from_json(data: Any) -> Action:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ValueError("an action is an object with a 'type'")
    kind = data["type"]
    if kind == "setup":
        cards = data.get("cards")
        if not isinstance(cards, dict) or not all(isinstance(v, str) for v in cards.values()):
            raise ValueError("setup: 'cards' must map positions to card names")
        mirrors = data.get("mirrors")
        if not isinstance(mirrors, list):
            raise ValueError("setup: 'mirrors' must be a list")
        return Setup(
            tuple(sorted(cards.items())),
            tuple(sorted(mirror_from_json(m) for m in mirrors)),
            _int(data, "victor"),
        )
    if kind == "swap_window":
        return SwapWindow(_str(data, "position"))
    if kind == "confirm_card":
        return ConfirmCard(_str(data, "position"), _str(data, "motif"))
    if kind == "turn_box":
        return TurnBox(_int(data, "quarter_turns"))
    if kind == "roll":
        return Roll(_int(data, "value"))
    if kind == "name":
        return Name(_str(data, "motif"))
    if kind == "place_door":
        return PlaceDoor(cell_from_json(data.get("cell"), "place_door"), _str(data, "slot"))
    if kind == "swap":
        return Swap(
            cell_from_json(data.get("from"), "swap"),
            cell_from_json(data.get("to"), "swap"),
            _str(data, "slot"),
            _str(data, "facing", optional=True),
        )
    if kind == "end_swaps":
        return EndSwaps()
    if kind == "guess":
        jubilant = data.get("jubilant")
        if not isinstance(jubilant, bool):
            raise ValueError("guess: 'jubilant' must be true or false")
        return Guess(_int(data, "seat"), jubilant)
    if kind == "look":
        return Look(_str(data, "pulled", optional=True))
    if kind == "award":
        drops = data.get("drops")
        if not isinstance(drops, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in drops
        ):
            raise ValueError("award: 'drops' must be a list of integers")
        return Award(tuple(drops))
    raise ValueError(f"unknown action type {kind!r}")
