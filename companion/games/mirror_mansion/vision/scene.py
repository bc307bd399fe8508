"""What the camera can read off the box: where the mirrors and the door stand and which card
is the window. One value type shared by the renderer (ground truth), the reader (its
answer) and the tracker (the stable state it compares between turns).

The JSON shape is the one `companion read mirror-mansion --json` prints, in the board
coordinates and names of the rules engine (`board.py`): cells are (row from north, column
from west), slots "/" and "\\", facings NW/NE/SE/SW, card positions N0..W2.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.games.mirror_mansion.rules.board import FACINGS, SLOTS, Board, Cell

Facing = str | None


@dataclass(frozen=True)
class MirrorSeen:
    cell: Cell
    slot: str
    facing: Facing
    """None when the facing dot was not seen: the players are asked, not guessed for."""
    confidence: float = 1.0
    slot_sure: bool = True
    """False when the dot fits both slots of its crossing and the top edges do not tell which
    holds the mirror: `slot` is then only the likelier, the facing is None, and the players
    are asked among all four facings (a facing names its slot)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "cell": [self.cell[0], self.cell[1]],
            "slot": self.slot,
            "facing": self.facing,
            "confidence": round(float(self.confidence), 3),
            "slot_sure": self.slot_sure,
        }


@dataclass(frozen=True)
class DoorSeen:
    cell: Cell
    slot: str

    def to_json(self) -> dict[str, Any]:
        return {"cell": [self.cell[0], self.cell[1]], "slot": self.slot}


@dataclass(frozen=True)
class BoxState:
    """The pieces in the box, as one reading of one photograph."""

    mirrors: tuple[MirrorSeen, ...] = ()
    window: str | None = None
    door: DoorSeen | None = None
    warnings: tuple[str, ...] = field(default=(), compare=False)
    seen: bool = True
    """False when the board could not be located (too few corner markers)."""

    def layout_key(self) -> tuple[Any, ...]:
        """What two readings must share to be the same position of the pieces."""
        return (
            tuple(sorted((m.cell, m.slot if m.slot_sure else "?", m.facing) for m in self.mirrors)),
            self.window,
            None if self.door is None else (self.door.cell, self.door.slot),
        )

    def mirror_at(self, cell: Cell) -> MirrorSeen | None:
        for m in self.mirrors:
            if m.cell == cell:
                return m
        return None

    def to_json(self, image: str | None = None) -> dict[str, Any]:
        return {
            "image": image,
            "mirrors": [m.to_json() for m in sorted(self.mirrors, key=lambda m: m.cell)],
            "window": self.window,
            "door": None if self.door is None else self.door.to_json(),
            "warnings": list(self.warnings),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BoxState:
        mirrors = tuple(
            MirrorSeen(
                (int(m["cell"][0]), int(m["cell"][1])),
                str(m["slot"]),
                m.get("facing"),
                float(m.get("confidence", 1.0)),
                bool(m.get("slot_sure", True)),
            )
            for m in data.get("mirrors", [])
        )
        door = data.get("door")
        return cls(
            mirrors=mirrors,
            window=data.get("window"),
            door=None
            if door is None
            else DoorSeen((int(door["cell"][0]), int(door["cell"][1])), str(door["slot"])),
            warnings=tuple(data.get("warnings", [])),
        )


def random_box(board: Board, rng: np.random.Generator, *, door: bool | None = None) -> BoxState:
    """A legal-looking arrangement: the mirrors and the door in distinct crossings."""
    with_door = bool(rng.random() < 0.35) if door is None else door
    n = board.mirrors + (board.doors if with_door else 0)
    picks = rng.choice(len(board.cells), size=n, replace=False)
    cells = [board.cells[int(i)] for i in picks]
    mirrors = []
    for cell in cells[: board.mirrors]:
        slot = SLOTS[int(rng.integers(2))]
        mirrors.append(MirrorSeen(cell, slot, FACINGS[slot][int(rng.integers(2))]))
    door_seen = None
    if with_door:
        door_seen = DoorSeen(cells[-1], SLOTS[int(rng.integers(2))])
    window = board.positions[int(rng.integers(len(board.positions)))]
    return BoxState(mirrors=tuple(mirrors), window=window, door=door_seen)
