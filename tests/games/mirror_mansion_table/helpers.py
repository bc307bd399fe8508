"""Shared fixtures of the Mirror Mansion table tests: the board and a known starting box."""

from __future__ import annotations

from companion.games.mirror_mansion.rules.board import load_board
from companion.games.mirror_mansion.vision.scene import BoxState, MirrorSeen

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
