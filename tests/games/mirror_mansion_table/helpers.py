"""Shared fixtures of the Mirror Mansion table tests: the board and a known starting box."""

from __future__ import annotations

from typing import Any

from companion.games.mirror_mansion.rules.board import load_board
from companion.games.mirror_mansion.table.messages import BoxObservation
from companion.games.mirror_mansion.vision.scene import BoxState, MirrorSeen
from companion.live.conformance import Observe
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
