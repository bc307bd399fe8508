"""Shared fixtures of the Mirror Mansion table tests: the board and a known starting box."""

from __future__ import annotations

from typing import Any

from companion.games.mirror_mansion.rules.board import load_board
from companion.games.mirror_mansion.table.messages import (
    BoxObservation,
    CallGuesses,
    EnterCards,
    EnterGuess,
    EnterRoll,
    TakeLook,
)
from companion.games.mirror_mansion.vision.scene import BoxState, MirrorSeen
from companion.live.conformance import Correct, Observe, Step
from companion.live.table_game import Observation
from companion.store import Session

BOARD = load_board()
START = BoxState(
    mirrors=(
        MirrorSeen((0, 0), "/", "NW"),
        MirrorSeen((0, 2), "\\", "SW"),
        MirrorSeen((1, 1), "\\", "NE"),
        MirrorSeen((2, 1), "/", "SE"),
    ),
    window="W1",
)
"""Four mirrors and the window card on W1: the box the live and tracker tests start from."""

MOTIFS = [*BOARD.cards]
CARDS = dict(zip([p for p in BOARD.positions if p != "W1"], MOTIFS, strict=True))
"""The castle cards as the players enter them: every motif, W1 left for the window card."""


def new_session(seats: int = 3, **options: Any) -> Session:
    return Session("s1", "mirror-mansion", options, [f"p{i}" for i in range(seats)], 0.0)


def frames_of(box: BoxState, n: int = 7) -> list[Observe]:
    """Enough frames (0.1 s apart in `play`) to become stable."""
    return [Observe(Observation(BoxObservation(box=box), 0.9))] * n


def with_moves(box: BoxState, window: str | None = None, **moves: MirrorSeen) -> BoxState:
    """`box` with the window card moved and the mirrors named `c<row><col>` replaced."""
    mirrors = {f"c{m.cell[0]}{m.cell[1]}": m for m in box.mirrors}
    for key, new in moves.items():
        mirrors[key] = new
    return BoxState(tuple(mirrors.values()), window or box.window, box.door)


def turn(
    box: BoxState, seat: int, window: str, key: str, mirror: MirrorSeen, roll: int
) -> tuple[BoxState, list[Step]]:
    """`seat`'s turn up to "make your guesses": the window swapped, the die, a mirror moved."""
    swapped = with_moves(box, window)
    after = with_moves(swapped, **{key: mirror})
    return after, [
        *frames_of(swapped),
        Correct(EnterRoll(value=roll), seat),
        *frames_of(after),
        Correct(CallGuesses(), seat),
    ]


def to_the_guesses() -> list[Step]:
    """Three seats: a first round of looks, then seat 0's turn at the guesses, where seat 1
    has guessed and seat 2 has not."""
    box, steps = START, [Correct(EnterCards(cards=CARDS)), *frames_of(START)]
    plan = [
        (0, "W0", "c00", MirrorSeen((0, 0), "/", "SE"), 1),
        (1, "E0", "c11", MirrorSeen((1, 1), "\\", "SW"), 2),
        (2, "N1", "c21", MirrorSeen((2, 1), "/", "NW"), 2),
    ]
    for seat, window, key, mirror, roll in plan:
        box, more = turn(box, seat, window, key, mirror, roll)
        steps += [*more, Correct(TakeLook(), seat)]
    box, more = turn(box, 0, "S1", "c02", MirrorSeen((0, 2), "\\", "NE"), 2)
    return [*steps, *more, Correct(EnterGuess(jubilant=True), 1)]
