"""Queen Alice's actions: chance's (set-up, draws, market reveals) and the players'.

A player's turn is a few choices, each one action: discard a card, play a card with its
activation (move, stay when blocked, rescue, or none possible), perform the landing
square's action with a target and a payment (`Act`), and every reward choice on the way
(`Take`, `Acquire`, `Cull`, `Buy`, `UseBookmark`). `Pass` is the "no" to whatever is asked:
not performing the action (2 Time and Rest), no Repeat, no Mini-action, no card, no
Bookmark, or letting a resource go when the storage is full.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.action_json import ActionCodec
from companion.games.queen_alice.rules.board import Cell
from companion.games.queen_alice.rules.economy import FREE, Pay


@dataclass(frozen=True)
class Tile:
    """Chance: the player-aid tile whose back sets up the chessboard."""

    tile: str


@dataclass(frozen=True)
class Wishes:
    """Chance: the Wish on each Wish space (one drawn per icon, placed at random)."""

    wishes: tuple[str, ...]


@dataclass(frozen=True)
class Reveal:
    """Chance: the card that comes into a market block of `level`."""

    level: int
    card: str


@dataclass(frozen=True)
class Draw:
    """Chance: the card `seat` draws from their deck."""

    seat: int
    card: str


@dataclass(frozen=True)
class DealTrain:
    """Chance: the Train cards `seat` receives at set-up."""

    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class ChooseTrain:
    """Set-up: keep Train card `card` and play it for its `side` (red or white), secretly."""

    card: str
    side: str


@dataclass(frozen=True)
class Discard:
    """Discard a card for its reward (phase a), or down to hand size at Rest."""

    card: str


@dataclass(frozen=True)
class PlayMove:
    """Play `card` and move piece `piece` to `to`; a promoted pawn then goes to `respawn`."""

    card: str
    piece: int
    to: Cell
    respawn: Cell | None = None


@dataclass(frozen=True)
class PlayStay:
    """Play `card` for a blocked piece: it resolves its own square."""

    card: str
    piece: int


@dataclass(frozen=True)
class PlayRescue:
    """Play `card` to take piece `slot` out of seat `jail`'s Jail onto `to`."""

    card: str
    jail: int
    slot: int
    to: Cell


@dataclass(frozen=True)
class PlayNone:
    """Play `card` when no piece it names can be activated (2 Time and Rest follow)."""

    card: str


@dataclass(frozen=True)
class Act:
    """Perform `action` (hearts, spades, clubs, diamonds) on `target`, paying `pay`.

    Targets: hearts (zone, space); spades the spaces walked; clubs (arrow,);
    diamonds (column, token). As a Mini-action: hearts (colour,); spades (colour, space);
    clubs (colour, arrow); diamonds (colour, token); colour 0 red, 1 white.
    """

    action: str
    target: tuple[int, ...]
    pay: Pay = FREE


@dataclass(frozen=True)
class Take:
    """A resource of your choice, or which stored resource makes room (storage full)."""

    resource: str


@dataclass(frozen=True)
class Acquire:
    """Take the card in market block `block` of `level`, paying the block's cost."""

    level: int
    block: int
    pay: Pay = FREE


@dataclass(frozen=True)
class Cull:
    """Invite a card from your hand or discard pile (`pile`)."""

    card: str
    pile: str


@dataclass(frozen=True)
class Buy:
    """Spend Books on a Bookmark."""

    bookmark: str


@dataclass(frozen=True)
class UseBookmark:
    """Take a permanent Bookmark's reward (once a turn)."""

    bookmark: str


@dataclass(frozen=True)
class Pass:
    """No, to whatever the head of the turn asks."""


CHANCE_ACTIONS = (Tile, Wishes, Reveal, Draw, DealTrain)
Action = (
    Tile
    | Wishes
    | Reveal
    | Draw
    | DealTrain
    | ChooseTrain
    | Discard
    | PlayMove
    | PlayStay
    | PlayRescue
    | PlayNone
    | Act
    | Take
    | Acquire
    | Cull
    | Buy
    | UseBookmark
    | Pass
)
_TYPES: dict[str, type[Action]] = {
    "tile": Tile,
    "wishes": Wishes,
    "reveal": Reveal,
    "draw": Draw,
    "train_deal": DealTrain,
    "train": ChooseTrain,
    "discard": Discard,
    "move": PlayMove,
    "stay": PlayStay,
    "rescue": PlayRescue,
    "none": PlayNone,
    "act": Act,
    "take": Take,
    "acquire": Acquire,
    "cull": Cull,
    "buy": Buy,
    "use": UseBookmark,
    "pass": Pass,
}
CODEC: ActionCodec[Action] = ActionCodec("Queen Alice", _TYPES, refuse_unknown=True)
"""Actions by their JSON `type` (the shared codec: every field is written as its type hint
says, and a key no field has is refused)."""
action_to_json = CODEC.to_json
action_from_json = CODEC.from_json
