"""What the camera reads off a Reflecto board: which squares hold a screen, and whose.

One value type for the renderer's answer key, `companion read reflecto --json` and the live
perceiver. Which letter or mirror a screen carries is not visible from above; identity is
kept by the tracker from set-up on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.reflecto.vision.geometry import Cell


@dataclass(frozen=True)
class ScreenSeen:
    cell: Cell
    owner: int
    confidence: float = 1.0

    def to_json(self) -> dict[str, Any]:
        return {
            "cell": [self.cell[0], self.cell[1]],
            "owner": self.owner,
            "confidence": round(float(self.confidence), 3),
        }


@dataclass(frozen=True)
class BoardReading:
    """The screens on the board in one picture, with what the reader was unsure of."""

    screens: tuple[ScreenSeen, ...] = ()
    warnings: tuple[str, ...] = field(default=(), compare=False)
    board_found: bool = True
    unclear: tuple[Cell, ...] = field(default=(), compare=False)
    """Squares the reader would not call either way (listed in `warnings` too)."""
    decided_by: tuple[tuple[Cell, str], ...] = field(default=(), compare=False)
    """Per square, the test that decided its call (`read.CellCall.why`): what a benchmark
    counts its failures by, never shown to players."""

    def layout_key(self) -> tuple[tuple[Cell, int], ...]:
        """What two readings must share to be the same position."""
        return tuple(sorted((s.cell, s.owner) for s in self.screens))

    def at(self, cell: Cell) -> ScreenSeen | None:
        return next((s for s in self.screens if s.cell == cell), None)

    def to_json(self, image: str | None = None) -> dict[str, Any]:
        return {
            "image": image,
            "screens": [s.to_json() for s in sorted(self.screens, key=lambda s: s.cell)],
            "warnings": list(self.warnings),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BoardReading:
        screens = tuple(
            ScreenSeen(
                (int(s["cell"][0]), int(s["cell"][1])),
                int(s["owner"]),
                float(s.get("confidence", 1.0)),
            )
            for s in data.get("screens", [])
        )
        return cls(screens, tuple(data.get("warnings", [])))
