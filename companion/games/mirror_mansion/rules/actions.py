"""The moves of a Mirror Mansion turn, as small frozen values with a JSON form.

Chance moves (the set-up, the die) are actions too, so a camera-read set-up or a die a
player reads out is applied exactly like a sampled one, and the action log replays a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.games.action_json import ActionCodec, sorted_tuple, spelt
from companion.games.mirror_mansion.rules.board import Cell
from companion.games.mirror_mansion.rules.optics import Mirror


@dataclass(frozen=True)
class Setup:
    """Chance: the cards in their slots (all twelve, the window card included), the mirrors,
    and the field Victor starts on."""

    # (position, card name), sorted by position; in JSON one object by position
    cards: tuple[tuple[str, str], ...] = field(metadata=spelt(as_object=True))
    mirrors: tuple[Mirror, ...] = field(metadata=spelt(canonical=sorted_tuple))
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

    source: Cell = field(metadata=spelt(key="from"))
    target: Cell = field(metadata=spelt(key="to"))
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


CODEC: ActionCodec[Action] = ActionCodec(
    "Mirror Mansion",
    {
        "setup": Setup,
        "swap_window": SwapWindow,
        "confirm_card": ConfirmCard,
        "turn_box": TurnBox,
        "roll": Roll,
        "name": Name,
        "place_door": PlaceDoor,
        "swap": Swap,
        "end_swaps": EndSwaps,
        "guess": Guess,
        "look": Look,
        "award": Award,
    },
)

action_to_json = CODEC.to_json
action_from_json = CODEC.from_json
"""Raises ValueError with a one-line reason for a malformed action."""
