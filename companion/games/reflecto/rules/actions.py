"""Reflecto's actions as small frozen values with a JSON form.

The set-up is a player's action (each seat chooses its word and where each screen stands on
its first row, privately); the rest is a turn: removals, one move (or a guess instead),
removals, and "done" when a removal was still possible after the move.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.games.action_json import ActionCodec, spelt
from companion.games.reflecto.rules.board import Cell


@dataclass(frozen=True)
class Setup:
    """A seat's secret set-up.

    `chunks[i]` is the text on the letter screen removed i-th ("" for a blank screen);
    the word is their concatenation. `letter_columns[i]` is the first-row column of that
    screen, `mirror_columns` the columns of the mirror screens. `hinted` lists the ranks
    whose removal order is written on the screen (the "order hints" handicap).
    """

    seat: int
    chunks: tuple[str, ...]
    letter_columns: tuple[int, ...]
    mirror_columns: tuple[int, ...]
    hinted: tuple[int, ...] = ()

    @property
    def word(self) -> str:
        return "".join(self.chunks)


@dataclass(frozen=True)
class Step:
    """Move one screen to `to` (a step or a chain of jumps); `to` None: the jump that
    takes it off over the far edge."""

    screen: str
    to: Cell | None = field(metadata=spelt(none_as="off"))


@dataclass(frozen=True)
class Remove:
    """Lift the next letter screen off the last line."""

    screen: str


@dataclass(frozen=True)
class Guess:
    """Instead of moving: the opponent's word, announced."""

    word: str


@dataclass(frozen=True)
class Done:
    """The turn ends after the move although a removal was still possible."""


Action = Setup | Step | Remove | Guess | Done


CODEC: ActionCodec[Action] = ActionCodec(
    "Reflecto",
    {"setup": Setup, "move": Step, "remove": Remove, "guess": Guess, "done": Done},
)

action_to_json = CODEC.to_json
action_from_json = CODEC.from_json
"""Raises ValueError with a one-line reason for a malformed action."""
