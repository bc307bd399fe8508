"""What one annotated frame says about where the table is: the one source of the status bar.

The overlay's status line and `/api/health`'s `table` (the dashboard's status bar) are both
made from one `TableStatus`, built once per frame from that frame's registration. Before,
the bar read three runtime attributes set one after another (a reader could mix two frames)
and counted only the table's corner markers, while a game with its own board markers (a box
with markers on its corners) was located by those: the bar said `0/4 (no table)` over a box
the overlay had found. `frame` is the number of the annotated frame it describes (the
stream's version), so a client can tell which picture a status belongs to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.vision.registration import MIN_MARKERS


@dataclass(frozen=True)
class TableStatus:
    frame: int
    """The annotated frame this status was drawn on (0: none yet)."""
    markers_seen: tuple[int, ...]
    """The ids, of the markers this game locates its table by, found in that frame."""
    expected: int
    """How many such markers there are."""
    registered: bool
    """The table (or the game's own board) is located: in this frame, or held from before."""
    held: bool
    """Too few markers in this frame: the last good position is being held."""

    @classmethod
    def none_yet(cls, expected: int = 4) -> TableStatus:
        return cls(0, (), expected, False, False)

    @classmethod
    def of(
        cls, registration: Any, game_markers: tuple[int, ...] | None, frame: int = 0
    ) -> TableStatus:
        """The status of one frame. `game_markers`: the ids a game finds its own board by
        (None: the table's corner markers, located by the platform's registration). A game's
        own board counts as located with as many markers as the platform needs."""
        if game_markers is None:
            seen = tuple(sorted(int(m) for m in registration.markers_seen))
            return cls(frame, seen, 4, bool(registration.ok), bool(registration.held))
        found = getattr(registration, "markers", None) or {}
        seen = tuple(sorted(int(m) for m in found if int(m) in game_markers))
        return cls(frame, seen, len(game_markers), len(seen) >= MIN_MARKERS, False)

    @property
    def located_now(self) -> bool:
        """Located from this very frame's markers (the overlay's line is green)."""
        return self.registered and not self.held

    def summary(self) -> str:
        """`4/4`, `3/4 (held)` or `1/4 (no table)`: the status bar's and the overlay's words."""
        where = "" if self.located_now else " (held)" if self.registered else " (no table)"
        return f"{len(self.markers_seen)}/{self.expected}{where}"

    def to_json(self) -> dict[str, Any]:
        return {
            "frame": self.frame,
            "markers_seen": list(self.markers_seen),
            "expected": self.expected,
            "registered": self.registered,
            "held": self.held,
            "summary": self.summary(),
        }
