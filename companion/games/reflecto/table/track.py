"""From camera readings to Reflecto actions: stability, then the engine explains the change.

The camera sees only which squares hold a screen and whose colour it is; which screen is
which comes from the set-up and is kept by tracking, since one screen moves per turn. A
reading counts once it has been the same for `STABLE_FRAMES` frames with no hands over the
board. A stable reading that differs from the engine's board is explained by the engine
itself: the shortest sequence of the turn's possible actions (end the turn, removals, the
one move) whose result is exactly the reading. Only screens that vanished may have moved
or left, and only to squares where a screen appeared, so the search is tiny. When nothing
legal explains the change, the engine's own refusal names the rule broken.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.base import IllegalAction
from companion.games.reflecto.rules.actions import Action, Done, Remove, Step
from companion.games.reflecto.rules.board import Cell
from companion.games.reflecto.rules.engine import (
    RULE_JUMP_OFF,
    RULE_MIRROR,
    RULE_ORDER,
    ReflectoEngine,
)
from companion.games.reflecto.rules.state import PLAY, ReflectoState
from companion.games.reflecto.table.messages import BoardObservation
from companion.live.tracking import StableReadings
from companion.live.words import players_words

STABLE_FRAMES = 3
"""Readings in a row that must agree, with no hands, before a change counts (issue 32)."""
MAX_ACTIONS = 6
"""Longest explanation searched: end of turn, removals, the move, removals."""
MAX_TWO_MOVES = 9
"""Longest explanation of a change as two moves, one per seat (`Explanation.moves`): each
turn's end, removals and move."""
PRIVATE_RULES = {RULE_ORDER, RULE_MIRROR, RULE_JUMP_OFF}
"""Refusals that would tell the opponent something secret (a word's order, a mirror; a
refused jump-off is only ever judged for the next letter): only the screen's owner is told."""

Reading = frozenset[tuple[Cell, int]]
"""The occupied squares and the colour (seat) of each."""


@dataclass(frozen=True)
class Seen:
    """One frame as the tracker takes it: the reading, or None and the squares in doubt."""

    reading: Reading | None
    unclear: tuple[Cell, ...] = ()


def reading_from(data: BoardObservation, answers: dict[Cell, int | None] | None = None) -> Seen:
    """The observation's screens. No reading when the frame cannot count (no board, hands)
    or a square is in doubt (owner None, or listed in `unclear`) and the players have not
    said what stands there (`answers`: seat, or None for an empty square)."""
    if not data.board_found or data.hands:
        return Seen(None)
    answers = answers or {}
    found: set[tuple[Cell, int]] = set()
    doubt: list[Cell] = list(data.unclear)
    for screen in data.screens:
        if screen.owner in (0, 1):
            found.add((screen.cell, screen.owner))
        else:
            doubt.append(screen.cell)
    unclear = tuple(sorted(c for c in set(doubt) if c not in answers))
    if unclear:
        return Seen(None, unclear)
    for cell in doubt:
        found = {(c, o) for c, o in found if c != cell}
        said = answers[cell]
        if said is not None:
            found.add((cell, said))
    return Seen(frozenset(found))


def board_of(state: ReflectoState) -> Reading:
    return frozenset((s.cell, s.owner) for s in state.screens if s.cell is not None)


def squares_changed(a: Reading, b: Reading) -> set[Cell]:
    """The squares two readings call otherwise (a screen on one only, or of another seat):
    each square stands once in a reading, so they are the squares of its pairs on one side."""
    return {cell for cell, _ in a ^ b}


def reading_to_json(reading: Reading) -> list[list[int]]:
    return [[r, c, owner] for (r, c), owner in sorted(reading)]


def reading_from_json(items: list[list[int]]) -> Reading:
    return frozenset(((int(r), int(c)), int(owner)) for r, c, owner in items)


class StableBoard(StableReadings[Reading]):
    """Tracker memory: the last readings, and the last stable one reported."""

    def __init__(self, frames: int = STABLE_FRAMES) -> None:
        super().__init__(frames)


@dataclass(frozen=True)
class Breach:
    rule: str
    detail: str
    seat: int | None  # whose screen; the breach is private to it for PRIVATE_RULES

    @property
    def private(self) -> bool:
        return self.seat is not None and self.rule in PRIVATE_RULES

    def to_json(self, seats: Sequence[str]) -> dict[str, Any]:
        """As the players read it: the detail names them (`seats`), not "seat N"."""
        detail = players_words(self.detail, seats)
        return {"rule": self.rule, "detail": detail, "seat": self.seat}


@dataclass(frozen=True)
class Explanation:
    actions: tuple[Action, ...] = ()
    breach: Breach | None = None

    @property
    def moves(self) -> int:
        """Screens moved (steps and jumps): more than one is two turns seen as one change,
        which the players confirm before it is booked (`live.py`)."""
        return sum(1 for a in self.actions if isinstance(a, Step))


def explain(engine: ReflectoEngine, state: ReflectoState, reading: Reading) -> Explanation:
    """The actions that turn the engine's board into `reading`, or the rule they break."""
    known = board_of(state)
    if state.phase != PLAY or reading == known:
        return Explanation()
    vanished = known - reading
    appeared = reading - known
    at = {s.cell: s for s in state.screens if s.cell is not None}
    movers = [at[cell] for cell, _ in vanished]
    targets = [cell for cell, _ in appeared]

    def candidates(s: ReflectoState, done: tuple[Action, ...], moves: int) -> list[Action]:
        out: list[Action] = [Done()] if s.moved else []
        # Up to `moves` steps (the engine refuses a second one in a turn).
        steps = sum(1 for a in done if isinstance(a, Step))
        for screen in movers:
            if screen.owner != s.to_move:
                continue
            out.append(Remove(screen.id))
            if steps < moves:
                out += [Step(screen.id, None)]
                out += [Step(screen.id, cell) for cell, owner in appeared if owner == screen.owner]
        return out

    # One move first (what every change should be); only then two, one per seat, which a
    # camera sees as one change when the second player moved before the board settled.
    # Two moves leave at most two new squares (and removals only take screens away).
    tries = ((1, MAX_ACTIONS), (2, MAX_TWO_MOVES)) if len(appeared) <= 2 else ((1, MAX_ACTIONS),)
    for moves, longest in tries:
        frontier: list[tuple[ReflectoState, tuple[Action, ...]]] = [(state, ())]
        for _ in range(longest):
            nxt = []
            for s, done in frontier:
                for action in candidates(s, done, moves):
                    try:
                        after = engine.apply(s, action)
                    except IllegalAction:
                        continue
                    if board_of(after) == reading:
                        return Explanation((*done, action))
                    if after.phase == PLAY:
                        nxt.append((after, (*done, action)))
            frontier = nxt
    return Explanation(breach=_diagnose(engine, state, movers, targets, vanished, appeared))


def _diagnose(
    engine: ReflectoEngine,
    state: ReflectoState,
    movers: list[Any],
    targets: list[Cell],
    vanished: Reading,
    appeared: Reading,
) -> Breach:
    """The engine's refusal for the simplest reading of the change."""
    if len(movers) == 1 and len(targets) <= 1:
        screen = movers[0]
        turn = state
        if screen.owner != state.to_move and state.moved:
            turn = engine.apply(state, Done())
        if screen.owner != turn.to_move:
            return Breach(
                "it is the other player's turn",
                f"a screen of seat {screen.owner}'s moved during seat {turn.to_move}'s turn",
                None,
            )
        if targets:
            action: Action = Step(screen.id, targets[0])
        elif screen.cell[0] == engine.board.last_row(screen.owner):
            action = Remove(screen.id)
        else:
            action = Step(screen.id, None)
        try:
            engine.apply(turn, action)
        except IllegalAction as exc:
            return Breach(exc.rule, exc.detail, screen.owner)
    gone = ", ".join(f"{list(c)}" for c, _ in sorted(vanished)) or "none"
    new = ", ".join(f"{list(c)}" for c, _ in sorted(appeared)) or "none"
    return Breach(
        "one screen moves per turn",
        f"no legal move explains the change (left: {gone}; new: {new})",
        None,
    )
