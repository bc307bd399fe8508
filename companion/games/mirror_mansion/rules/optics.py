"""Light paths through the castle: what the eye at the window sees.

Modelled like laser-mazer: each piece's behaviour is one table for one orientation (incoming
travel direction -> outgoing direction, or what stops the view), and every other orientation
is that table turned by quarter turns. A one-sided mirror, a two-sided mirror and the door
are different table entries, not different code paths. A view is followed with a visited
set of (crossing, direction), so a loop ends by construction.

The view is traced from the eye outward; light runs the other way, and because every
table is reversible the two paths are the same (the tests check this property).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from companion.games.mirror_mansion.rules.board import (
    DELTA,
    DIRECTION_NAMES,
    FACINGS,
    SLOTS,
    Board,
    Cell,
    E,
    N,
    S,
    W,
    load_board,
)

BACK, DOOR = -1, -2
"""Table entries for a view that stops: on a mirror's back, on the door."""

# Canonical orientation: a mirror in the "/" slot with its face toward the north-west.
# Index: the direction the view travels when it meets the piece (N, E, S, W).
ONE_SIDED: tuple[int, ...] = (BACK, N, W, BACK)
TWO_SIDED: tuple[int, ...] = (E, N, W, S)
DOOR_TABLE: tuple[int, ...] = (DOOR, DOOR, DOOR, DOOR)
EMPTY_TABLE: tuple[int, ...] = (N, E, S, W)

ORIENTATION: dict[tuple[str, str], int] = {
    ("/", "NW"): 0,
    ("\\", "NE"): 1,
    ("/", "SE"): 2,
    ("\\", "SW"): 3,
}
"""Quarter turns (clockwise) from the canonical mirror to each slot and facing."""

# Compact piece codes, shared with the solver: 0 empty, 1..4 a mirror turned 0..3 quarter
# turns from canonical, 5/6 the door in the "/" or "\" slot.
EMPTY_CODE = 0
DOOR_CODES = {"/": 5, "\\": 6}
MIRROR_CODES = (1, 2, 3, 4)


def _turned(table: tuple[int, ...], quarter_turns: int) -> tuple[int, ...]:
    """The table of a piece turned clockwise: rotate the view into the piece's frame and back."""
    out = []
    for d in range(4):
        o = table[(d - quarter_turns) % 4]
        out.append(o if o < 0 else (o + quarter_turns) % 4)
    return tuple(out)


def _transfer(mirror: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return (
        EMPTY_TABLE,
        *(_turned(mirror, q) for q in range(4)),
        DOOR_TABLE,
        DOOR_TABLE,
    )


TRANSFER: dict[bool, tuple[tuple[int, ...], ...]] = {
    False: _transfer(ONE_SIDED),
    True: _transfer(TWO_SIDED),
}
"""TRANSFER[two_sided][code][direction in] -> direction out, BACK or DOOR."""


def mirror_code(slot: str, facing: str) -> int:
    return 1 + ORIENTATION[(slot, facing)]


_CODE_PIECES: dict[int, tuple[str, str, str | None]] = {
    **{1 + q: ("mirror", slot, facing) for (slot, facing), q in ORIENTATION.items()},
    **{code: ("door", slot, None) for slot, code in DOOR_CODES.items()},
}


def code_piece(code: int) -> tuple[str, str, str | None]:
    """("mirror" | "door", slot, facing or None) for a non-empty code."""
    try:
        return _CODE_PIECES[code]
    except KeyError:
        raise ValueError(f"not a piece code: {code}") from None


@dataclass(frozen=True, order=True)
class Mirror:
    cell: Cell
    slot: str
    facing: str

    @property
    def code(self) -> int:
        return mirror_code(self.slot, self.facing)


@dataclass(frozen=True, order=True)
class Door:
    cell: Cell
    slot: str

    @property
    def code(self) -> int:
        return DOOR_CODES[self.slot]


@dataclass(frozen=True)
class BoardState:
    """Where the pieces and the window are, in board coordinates.

    `cards` maps castle-card positions (not the window's) to motifs and may be partial:
    a camera that has not read a card yet leaves it out. Mirrors are kept sorted, so two
    states with the same pieces compare equal.
    """

    mirrors: tuple[Mirror, ...]
    window: str
    door: Door | None = None
    two_sided: bool = False
    cards: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "mirrors", tuple(sorted(self.mirrors)))
        object.__setattr__(self, "cards", MappingProxyType(dict(self.cards)))

    def pieces(self) -> dict[Cell, int]:
        """Crossing -> piece code, for every occupied crossing."""
        grid = {m.cell: m.code for m in self.mirrors}
        if self.door is not None:
            grid[self.door.cell] = self.door.code
        return grid

    def codes(self, board: Board) -> tuple[int, ...]:
        """One code per crossing, row by row (the solver's representation)."""
        grid = self.pieces()
        return tuple(grid.get(cell, EMPTY_CODE) for cell in board.cells)

    def problems(self, board: Board | None = None) -> list[str]:
        """Everything that makes this arrangement impossible on the board (empty if none)."""
        board = board or load_board()
        found: list[str] = []
        cells = set(board.cells)
        if not board.is_position(self.window):
            found.append(f"unknown window position {self.window!r}")
        taken: dict[Cell, str] = {}
        pieces: list[tuple[str, Cell, str, str | None]] = [
            ("mirror", m.cell, m.slot, m.facing) for m in self.mirrors
        ]
        if self.door is not None:
            pieces.append(("door", self.door.cell, self.door.slot, None))
        for kind, cell, slot, facing in pieces:
            if cell not in cells:
                found.append(f"{kind} at {list(cell)} is off the {board.size}x{board.size} grid")
                continue
            if slot not in SLOTS:
                found.append(f"{kind} at {list(cell)}: unknown slot {slot!r} (use '/' or '\\')")
                continue
            if kind == "mirror" and facing not in FACINGS[slot]:
                found.append(
                    f"mirror at {list(cell)}: a {slot!r} mirror faces "
                    f"{' or '.join(FACINGS[slot])}, not {facing!r}"
                )
            if cell in taken:
                found.append(f"two pieces in crossing {list(cell)} ({taken[cell]} and {kind})")
            taken[cell] = kind
        known = set(board.cards)
        for pos, motif in self.cards.items():
            if not board.is_position(pos):
                found.append(f"unknown card position {pos!r}")
            elif pos == self.window:
                found.append(f"{pos} holds the window card, not {motif!r}")
            elif motif not in known:
                found.append(f"unknown motif {motif!r} at {pos}")
        motifs = list(self.cards.values())
        for motif in sorted({m for m in motifs if motifs.count(m) > 1}):
            found.append(f"motif {motif!r} is on more than one card")
        return found


@dataclass(frozen=True)
class Step:
    """One crossing on the path: how the view came in, and what happened there."""

    cell: Cell
    heading_in: str
    heading_out: str | None
    event: str  # "pass", "bounce", "mirror-back" or "door"

    def to_json(self) -> dict[str, object]:
        return {
            "cell": list(self.cell),
            "in": self.heading_in,
            "out": self.heading_out,
            "event": self.event,
        }


@dataclass(frozen=True)
class Trace:
    """Where a view from `start` ends: at a card `position`, or stopped (`blocked_by`)."""

    start: str
    steps: tuple[Step, ...]
    position: str | None  # the card position reached (may be `start` itself)
    blocked_by: str | None  # None, "mirror-back", "door", "window" or "loop"
    motif: str | None  # the motif on `position`, where known

    @property
    def seen(self) -> str | None:
        """The castle-card position the eye sees, or None (a back, the door, the window)."""
        return self.position if self.blocked_by is None else None

    @property
    def bounces(self) -> int:
        return sum(1 for s in self.steps if s.event == "bounce")

    def to_json(self) -> dict[str, object]:
        return {
            "seen": self.seen,
            "motif": self.motif,
            "blocked_by": self.blocked_by,
            "path": [s.to_json() for s in self.steps],
        }


_STOPS = {BACK: "mirror-back", DOOR: "door"}


def trace_from(state: BoardState, start: str, board: Board | None = None) -> Trace:
    """Follow the view that enters the grid at card position `start`."""
    board = board or load_board()
    table = TRANSFER[state.two_sided]
    grid = state.pieces()
    cell, d = board.entry(start)
    steps: list[Step] = []
    visited: set[tuple[Cell, int]] = set()
    while (cell, d) not in visited:
        visited.add((cell, d))
        code = grid.get(cell, EMPTY_CODE)
        out = table[code][d]
        if out < 0:
            steps.append(Step(cell, DIRECTION_NAMES[d], None, _STOPS[out]))
            return Trace(start, tuple(steps), None, _STOPS[out], None)
        steps.append(
            Step(cell, DIRECTION_NAMES[d], DIRECTION_NAMES[out], "bounce" if out != d else "pass")
        )
        exit_to = board.exit_position(cell, out)
        if exit_to is not None:
            if exit_to == state.window:
                return Trace(start, tuple(steps), exit_to, "window", None)
            return Trace(start, tuple(steps), exit_to, None, state.cards.get(exit_to))
        cell, d = (cell[0] + DELTA[out][0], cell[1] + DELTA[out][1]), out
    # Unreachable from a card position (the tables are reversible), kept so that a wrong
    # table in a user's model would still end instead of hanging.
    return Trace(start, tuple(steps), None, "loop", None)


def trace(state: BoardState, board: Board | None = None) -> Trace:
    """What the eye at the window card sees."""
    return trace_from(state, state.window, board)


def in_line_mirrors(state: BoardState, board: Board | None = None) -> tuple[Mirror, ...]:
    """Mirrors in one of the slots in line with the window (the rules need at least one)."""
    board = board or load_board()
    line = set(board.in_line(state.window))
    return tuple(m for m in state.mirrors if m.cell in line)


__all__ = [
    "BACK",
    "DOOR",
    "TRANSFER",
    "BoardState",
    "Door",
    "Mirror",
    "Step",
    "Trace",
    "in_line_mirrors",
    "trace",
    "trace_from",
]
