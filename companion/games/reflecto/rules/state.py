"""The state of a Reflecto game: options, screens, the frozen state and its JSON form.

The state holds the whole truth (both words, every screen's letters); `view` in the engine
decides what leaves the server for a seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from companion.games.reflecto.rules.board import Board, Cell
from companion.games.reflecto.rules.position import LETTER, MIRROR, Placed, Position

SETUP, PLAY, OVER = "setup", "play", "over"
SEATS = (0, 1)
SEAT_LETTERS = "AB"
"""Screen ids are the seat's letter and the first-row column it started on: A0..A6, B0..B6.
They say nothing about a screen's kind or letters."""

_OPTION_KEYS = {"letter_screens", "guessing_frequently", "younger", "first", "mirror_sight"}


@dataclass(frozen=True)
class Options:
    letter_screens: tuple[int, int]
    """Per seat: more letter screens and fewer mirrors is the experienced player's handicap."""
    guessing_frequently: bool = False
    """The variant in which a wrong guess loses only the turn."""
    younger: frozenset[int] = frozenset()
    """Seats playing the younger player's variant: a blank screen may be removed last, and a
    long word's letters may be spread over the screens as they like."""
    first: int = 0
    """The seat that starts (the rulebook: the younger player)."""
    mirror_sight: frozenset[int] = frozenset()
    """Seats whose own view lists what their mirrors show now (for young players)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "letter_screens": list(self.letter_screens),
            "guessing_frequently": self.guessing_frequently,
            "younger": sorted(self.younger),
            "first": self.first,
            "mirror_sight": sorted(self.mirror_sight),
        }


def _seat_list(raw: Any, key: str) -> frozenset[int]:
    if not isinstance(raw, list | tuple) or not all(
        isinstance(s, int) and not isinstance(s, bool) and s in SEATS for s in raw
    ):
        raise ValueError(f"option {key!r} must list seats 0 and/or 1")
    return frozenset(raw)


def parse_options(raw: dict[str, Any] | None, board: Board) -> Options:
    raw = dict(raw or {})
    unknown = set(raw) - _OPTION_KEYS
    if unknown:
        raise ValueError(f"unknown option(s) {sorted(unknown)} (known: {sorted(_OPTION_KEYS)})")
    letters = raw.get("letter_screens", [board.letter_screens] * 2)
    if isinstance(letters, int) and not isinstance(letters, bool):
        letters = [letters, letters]
    top = board.screens_per_player
    if (
        not isinstance(letters, list | tuple)
        or len(letters) != 2
        or not all(
            isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= top for n in letters
        )
    ):
        raise ValueError(f"option 'letter_screens' must be [n0, n1] with 1 <= n <= {top}")
    extra = sum(max(0, n - board.letter_screens) for n in letters)
    if extra > board.spare_letter_tiles:
        raise ValueError(
            f"option 'letter_screens': the box has {board.spare_letter_tiles} "
            "spare letter tiles for the handicap"
        )
    frequently = raw.get("guessing_frequently", False)
    if not isinstance(frequently, bool):
        raise ValueError("option 'guessing_frequently' must be true or false")
    first = raw.get("first", 0)
    if first not in SEATS or isinstance(first, bool):
        raise ValueError("option 'first' must be 0 or 1")
    return Options(
        (letters[0], letters[1]),
        frequently,
        _seat_list(raw.get("younger", []), "younger"),
        first,
        _seat_list(raw.get("mirror_sight", []), "mirror_sight"),
    )


@dataclass(frozen=True)
class Screen:
    id: str
    owner: int
    kind: str  # LETTER or MIRROR
    text: str = ""  # the letters on it ("" for a mirror or a blank screen)
    rank: int | None = None  # its place in the removal order (letter screens)
    hinted: bool = False  # the removal order is written beside the letters
    cell: Cell | None = None  # None once removed

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "owner": self.owner,
            "kind": self.kind,
            "text": self.text,
            "rank": self.rank,
            "hinted": self.hinted,
            "cell": None if self.cell is None else list(self.cell),
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Screen:
        cell = data["cell"]
        return Screen(
            str(data["id"]),
            int(data["owner"]),
            str(data["kind"]),
            str(data["text"]),
            None if data["rank"] is None else int(data["rank"]),
            bool(data["hinted"]),
            None if cell is None else (int(cell[0]), int(cell[1])),
        )


@dataclass(frozen=True)
class Sighting:
    """A seat's mirror showed one of the opponent's letter screens (first time, per pair)."""

    seat: int
    mirror: str
    screen: str
    turn: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "mirror": self.mirror, "screen": self.screen, "turn": self.turn}


@dataclass(frozen=True)
class ReflectoState:
    options: Options
    rows: int
    cols: int
    phase: str = SETUP
    screens: tuple[Screen, ...] = ()  # sorted by id
    words: tuple[str | None, str | None] = (None, None)
    to_move: int = 0
    moved: bool = False  # the seat to move has made its move this turn
    turn: int = 0  # turns begun so far, minus one
    removed: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # ids in removal order
    guesses: tuple[dict[str, Any], ...] = ()  # {"seat", "word", "right", "turn"}, public
    winner: int | None = None
    end: str | None = None  # why the game ended
    sightings: tuple[Sighting, ...] = field(default=())

    def screens_of(self, seat: int) -> list[Screen]:
        return [s for s in self.screens if s.owner == seat]

    def screen(self, screen_id: str) -> Screen | None:
        return next((s for s in self.screens if s.id == screen_id), None)

    def next_to_remove(self, seat: int) -> Screen | None:
        """The seat's first letter screen, in word order, not yet removed."""
        left = [s for s in self.screens_of(seat) if s.kind == LETTER and s.cell is not None]
        return min(left, key=lambda s: s.rank or 0) if left else None

    def position(self) -> Position:
        """The board as the mover may use it (its own kinds and next letter; the opponent's
        next letter too, which move generation for the mover never looks at)."""
        placed = tuple(
            Placed(s.id, s.owner, s.kind, s.cell) for s in self.screens if s.cell is not None
        )
        nxt = tuple(None if (n := self.next_to_remove(seat)) is None else n.id for seat in SEATS)
        return Position(self.rows, self.cols, self.to_move, placed, (nxt[0], nxt[1]))

    def with_screen(self, screen: Screen) -> ReflectoState:
        return replace(
            self, screens=tuple(screen if s.id == screen.id else s for s in self.screens)
        )


def state_to_json(state: ReflectoState) -> dict[str, Any]:
    """The whole truth, both words included: for the server's store, never for a seat."""
    return {
        "options": state.options.to_json(),
        "rows": state.rows,
        "cols": state.cols,
        "phase": state.phase,
        "screens": [s.to_json() for s in state.screens],
        "words": list(state.words),
        "to_move": state.to_move,
        "moved": state.moved,
        "turn": state.turn,
        "removed": [list(r) for r in state.removed],
        "guesses": [dict(g) for g in state.guesses],
        "winner": state.winner,
        "end": state.end,
        "sightings": [s.to_json() for s in state.sightings],
    }


def state_from_json(data: dict[str, Any], board: Board) -> ReflectoState:
    try:
        removed = data["removed"]
        words = data["words"]
        return ReflectoState(
            options=parse_options(data["options"], board),
            rows=int(data["rows"]),
            cols=int(data["cols"]),
            phase=str(data["phase"]),
            screens=tuple(Screen.from_json(s) for s in data["screens"]),
            words=(words[0], words[1]),
            to_move=int(data["to_move"]),
            moved=bool(data["moved"]),
            turn=int(data["turn"]),
            removed=(tuple(removed[0]), tuple(removed[1])),
            guesses=tuple(dict(g) for g in data["guesses"]),
            winner=data["winner"],
            end=data["end"],
            sightings=tuple(
                Sighting(int(s["seat"]), str(s["mirror"]), str(s["screen"]), int(s["turn"]))
                for s in data["sightings"]
            ),
        )
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"not a Reflecto state: {exc!r}") from None


__all__ = [
    "LETTER",
    "MIRROR",
    "OVER",
    "PLAY",
    "SETUP",
    "Options",
    "ReflectoState",
    "Screen",
    "Sighting",
    "parse_options",
    "state_from_json",
    "state_to_json",
]
