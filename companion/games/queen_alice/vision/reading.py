"""What the camera reads off the Central board, in one value type for the renderer's answer
key, `companion read queen-alice --json` and the live table.

Which piece stands on a square is not read (a red rook and a red pawn differ little from
above in every set); the tracker knows it from the player-aid tile's start position and one
move a turn. `unsure` squares are ones the reader would not call (an arm over them): they
are never guessed, and their colour, if any, is not in `squares`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.queen_alice.vision.geometry import Cell
from companion.vision.board_pose import BoardPose

COLOURS = ("red", "white")


@dataclass(frozen=True)
class BoardReading:
    squares: dict[Cell, str]
    """Colour ("red" or "white") of each square read as holding a piece."""
    unsure: frozenset[Cell] = frozenset()
    crowns_left: int | None = None
    """Crowns in the display; None when a slot could not be seen."""
    alice: dict[str, int | None] = field(default_factory=lambda: {"red": None, "white": None})
    """Space index of each colour's Alice token on its path (0 = start); None when unseen."""
    confidence: dict[Cell, float] = field(default_factory=dict, compare=False)
    warnings: tuple[str, ...] = field(default=(), compare=False)
    board_found: bool = True
    pose: BoardPose | None = field(default=None, compare=False, repr=False)
    """The board's pose the reading stood on (None when it came from elsewhere): the live
    table's learning (`learn_free_squares`) warps the same frame by it rather than work it out
    again."""

    def to_json(self, image: str | None = None) -> dict[str, Any]:
        return {
            "image": image,
            "squares": [
                {
                    "cell": [r, c],
                    "colour": self.squares[(r, c)],
                    "confidence": round(float(self.confidence.get((r, c), 1.0)), 3),
                }
                for r, c in sorted(self.squares)
            ],
            "crowns_left": self.crowns_left,
            "alice": {"red": self.alice.get("red"), "white": self.alice.get("white")},
            "warnings": list(self.warnings),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BoardReading:
        squares = {
            (int(s["cell"][0]), int(s["cell"][1])): str(s["colour"])
            for s in data.get("squares", [])
        }
        confidence = {
            (int(s["cell"][0]), int(s["cell"][1])): float(s.get("confidence", 1.0))
            for s in data.get("squares", [])
        }
        alice = data.get("alice") or {}
        return cls(
            squares,
            frozenset(_unsure_cells(data.get("warnings", []))),
            data.get("crowns_left"),
            {c: alice.get(c) for c in COLOURS},
            confidence,
            tuple(data.get("warnings", [])),
        )


UNSURE_PREFIX = "unsure: square "
"""Warnings that name an unsure square begin with this, then `[r, c]`."""


def unsure_warning(cell: Cell, why: str) -> str:
    return f"{UNSURE_PREFIX}[{cell[0]}, {cell[1]}] ({why})"


def _unsure_cells(warnings: list[str]) -> list[Cell]:
    out = []
    for w in warnings:
        if w.startswith(UNSURE_PREFIX):
            r, c = w[len(UNSURE_PREFIX) :].split("]")[0].strip("[").split(",")
            out.append((int(r), int(c)))
    return out
