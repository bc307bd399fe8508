"""From a stream of readings to events: the box's stable state, and the swaps of a turn.

A reading is trusted only when it is complete (board located, every mirror with a facing,
the window seen, as many mirrors as the game has) and the same reading has been seen in
enough consecutive frames over enough time. Hands in the box, a mirror lifted and put back,
blur while someone moves: those frames are incomplete or fleeting and never become events.

The swaps of a turn are not counted frame by frame (a mirror carried across the board would
count twice) but as the fewest moves between the stable state at the start of the swaps and
the stable state now: every mirror placement that is no longer there had to move once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.base import IllegalAction
from companion.games.mirror_mansion.rules.actions import EndSwaps, Swap, action_to_json
from companion.games.mirror_mansion.rules.board import Board, Cell
from companion.games.mirror_mansion.rules.engine import MirrorMansionEngine
from companion.games.mirror_mansion.rules.game_state import MirrorMansionState
from companion.games.mirror_mansion.rules.optics import BoardState, Door, Mirror
from companion.games.mirror_mansion.vision.scene import BoxState

STABLE_FRAMES = 3
STABLE_SECONDS = 0.5


def is_complete(reading: BoxState, board: Board, door_expected: bool | None = None) -> bool:
    """A reading the tracker may believe: nothing hidden, nothing missing."""
    if not reading.seen or reading.window is None:
        return False
    if len(reading.mirrors) != board.mirrors:
        return False
    if any(m.facing is None for m in reading.mirrors):
        return False
    return door_expected is None or (reading.door is not None) == door_expected


@dataclass
class StableBox:
    """The last stable reading, and the candidate waiting to replace it."""

    board: Board
    frames: int = STABLE_FRAMES
    seconds: float = STABLE_SECONDS
    door_expected: bool | None = None
    stable: BoxState | None = None
    _candidate: BoxState | None = field(default=None, repr=False)
    _since: float = 0.0
    _count: int = 0
    unsettled_frames: int = 0
    """Incomplete readings since the last complete one (a hand, a lifted mirror)."""

    def update(self, reading: BoxState, now: float) -> BoxState | None:
        """Feed one reading; returns the new stable state when it changes, else None."""
        if not is_complete(reading, self.board, self.door_expected):
            self.unsettled_frames += 1
            self._candidate, self._count = None, 0
            return None
        self.unsettled_frames = 0
        if self._candidate is None or reading.layout_key() != self._candidate.layout_key():
            self._candidate, self._since, self._count = reading, now, 1
        else:
            self._count += 1
        settled = self._count >= self.frames and now - self._since >= self.seconds
        changed = self.stable is None or self.stable.layout_key() != self._candidate.layout_key()
        if settled and changed:
            self.stable = self._candidate
            return self.stable
        return None


def to_board_state(
    reading: BoxState, two_sided: bool = False, cards: dict[str, str] | None = None
) -> BoardState:
    """A complete reading as the engine's board arrangement."""
    if reading.window is None or any(m.facing is None for m in reading.mirrors):
        raise ValueError("an incomplete reading has no board state")
    return BoardState(
        mirrors=tuple(
            Mirror(m.cell, m.slot, m.facing) for m in reading.mirrors if m.facing is not None
        ),  # none is None: checked above
        window=reading.window,
        door=None if reading.door is None else Door(reading.door.cell, reading.door.slot),
        two_sided=two_sided,
        cards=cards or {},
    )


Placement = tuple[Cell, str, str | None]


def swaps_between(before: BoxState, after: BoxState) -> list[Swap]:
    """The fewest swaps that turn `before` into `after`, in an order the engine accepts.

    Mirrors are alike, so only placements matter: a placement gone from one crossing and a
    new one in the same crossing is a turn (or a change of slot) there; the others pair up
    as moves from a crossing left empty to one that was empty. The door is its own piece.
    Raises ValueError when the readings hold different numbers of mirrors or doors.
    """
    b = {(m.cell, m.slot, m.facing) for m in before.mirrors}
    a = {(m.cell, m.slot, m.facing) for m in after.mirrors}
    if len(a) != len(b):
        raise ValueError(f"{len(b)} mirrors before and {len(a)} after")
    gone = sorted(b - a)
    new = sorted(a - b)
    swaps: list[Swap] = []
    for p in list(gone):
        same = [q for q in new if q[0] == p[0]]
        if same:
            q = same[0]
            swaps.append(Swap(p[0], q[0], q[1], q[2]))
            gone.remove(p)
            new.remove(q)
    moves = [Swap(p[0], q[0], q[1], q[2]) for p, q in zip(gone, new, strict=True)]
    if (before.door is None) != (after.door is None):
        raise ValueError("the door appeared or vanished")
    if before.door is not None and after.door is not None and before.door != after.door:
        moves.append(Swap(before.door.cell, after.door.cell, after.door.slot, None))
    return swaps + _ordered(moves, before)


def _ordered(moves: list[Swap], before: BoxState) -> list[Swap]:
    """Moves whose target is free go first, so each is legal when it is applied."""
    occupied = {m.cell for m in before.mirrors}
    if before.door is not None:
        occupied.add(before.door.cell)
    out: list[Swap] = []
    pending = list(moves)
    while pending:
        for s in pending:
            if s.target not in occupied or s.target == s.source:
                out.append(s)
                occupied.discard(s.source)
                occupied.add(s.target)
                pending.remove(s)
                break
        else:  # a cycle (two pieces trading crossings): cannot happen with placements
            out.extend(pending)
            break
    return out


@dataclass(frozen=True)
class SwapVerdict:
    """The swaps of a turn so far, judged by the rules engine."""

    swaps: tuple[Swap, ...]
    state: MirrorMansionState | None
    """The engine state after the swaps (None when a swap broke a rule)."""
    breach: IllegalAction | None
    """The first rule the swaps break, or that ending the swaps now would break."""

    def to_json(self) -> dict[str, Any]:
        return {
            "swaps": [action_to_json(s) for s in self.swaps],
            "count": len(self.swaps),
            "breach": None
            if self.breach is None
            else {"rule": self.breach.rule, "detail": self.breach.detail},
        }


def judge_swaps(
    engine: MirrorMansionEngine, at_swaps: MirrorMansionState, before: BoxState, after: BoxState
) -> SwapVerdict:
    """Apply the fewest swaps from `before` to `after` to the engine state at the start of
    the swaps; the engine says which rule, if any, they break (at most three, at least one,
    a mirror in line with the window, the door's limits)."""
    try:
        swaps = swaps_between(before, after)
    except ValueError as exc:
        return SwapVerdict((), None, IllegalAction("the camera cannot count these swaps", str(exc)))
    state = at_swaps
    for s in swaps:
        try:
            state = engine.apply(state, s)
        except IllegalAction as exc:
            return SwapVerdict(tuple(swaps), None, exc)
    try:
        engine.apply(state, EndSwaps())
    except IllegalAction as exc:
        return SwapVerdict(tuple(swaps), state, exc)
    return SwapVerdict(tuple(swaps), state, None)
