"""Reflecto's actions as small frozen values with a JSON form.

The set-up is a player's action (each seat chooses its word and where each screen stands on
its first row, privately); the rest is a turn: removals, one move (or a guess instead),
removals, and "done" when a removal was still possible after the move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
    to: Cell | None


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


def action_to_json(action: Action) -> dict[str, Any]:
    match action:
        case Setup(seat, chunks, letters, mirrors, hinted):
            return {
                "type": "setup",
                "seat": seat,
                "chunks": list(chunks),
                "letter_columns": list(letters),
                "mirror_columns": list(mirrors),
                "hinted": list(hinted),
            }
        case Step(screen, to):
            return {"type": "move", "screen": screen, "to": "off" if to is None else list(to)}
        case Remove(screen):
            return {"type": "remove", "screen": screen}
        case Guess(word):
            return {"type": "guess", "word": word}
        case Done():
            return {"type": "done"}
    raise TypeError(f"not a Reflecto action: {action!r}")


def _ints(data: dict[str, Any], key: str) -> tuple[int, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise ValueError(f"{data['type']}: {key!r} must be a list of whole numbers")
    return tuple(value)


def _str(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ValueError(f"{data['type']}: {key!r} must be a string")
    return value


def cell_from_json(value: Any, what: str) -> Cell | None:
    """[r, c], or "off" (None) for a jump off the board."""
    if value == "off":
        return None
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ValueError(f'{what}: a square is [row, column] or "off"')
    return (value[0], value[1])


def action_from_json(data: Any) -> Action:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ValueError("an action is an object with a 'type'")
    kind = data["type"]
    if kind == "setup":
        seat = data.get("seat")
        chunks = data.get("chunks")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ValueError("setup: 'seat' must be 0 or 1")
        if not isinstance(chunks, list) or not all(isinstance(c, str) for c in chunks):
            raise ValueError("setup: 'chunks' must be a list of strings")
        return Setup(
            seat,
            tuple(chunks),
            _ints(data, "letter_columns"),
            _ints(data, "mirror_columns"),
            _ints(data, "hinted"),
        )
    if kind == "move":
        return Step(_str(data, "screen"), cell_from_json(data.get("to"), "move"))
    if kind == "remove":
        return Remove(_str(data, "screen"))
    if kind == "guess":
        return Guess(_str(data, "word"))
    if kind == "done":
        return Done()
    raise ValueError(f"unknown action type {kind!r}")
