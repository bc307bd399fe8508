"""What the camera tells Queen Alice's table about one frame: which squares hold a piece,
its colour, and which squares it could not see (a hand over them).

The camera never says which piece stands where: identity comes from tracking (`track.py`).
The vision side's reader returns a `BoardReading` (`squares`, `unsure`, `crowns_left`,
`alice`); `from_reading` is the one small function that maps it onto `BoardSeen`, and
`occupancy_of` gives the same shape from the engine's pieces, so the sim films and the
benchmark produce observations exactly as the reader would.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from companion.games.queen_alice.rules.board import Cell, Piece
from companion.games.queen_alice.vision.reading import BoardReading

Colour = Literal["red", "white"]
Occupancy = frozenset[tuple[Cell, str]]
"""The occupied squares and the colour of the piece on each: what two readings compare by."""


class SquareSeen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    cell: tuple[int, int]
    colour: Colour


class BoardSeen(BaseModel):
    """One frame as the table game takes it. `unsure` squares are neither empty nor held:
    the tracker waits (and after a while asks) rather than guessing what is there."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    board_found: bool = True
    squares: tuple[SquareSeen, ...] = ()
    unsure: tuple[tuple[int, int], ...] = ()
    crowns_left: int | None = Field(default=None, ge=0, le=99)
    alice: dict[str, int | None] = Field(default_factory=dict)

    def occupancy(self) -> Occupancy:
        return frozenset((s.cell, s.colour) for s in self.squares)


UNSEEN = BoardSeen(board_found=False)
"""A frame with no board in it (or an error of the reader)."""


def from_reading(reading: BoardReading) -> BoardSeen:
    """The reader's `BoardReading` as the table's observation."""
    squares = tuple(
        SquareSeen(cell=(int(r), int(c)), colour=colour)
        for (r, c), colour in sorted(reading.squares.items())
    )
    unsure = tuple(sorted((int(r), int(c)) for r, c in reading.unsure))
    return BoardSeen(
        squares=squares, unsure=unsure, crowns_left=reading.crowns_left, alice=dict(reading.alice)
    )


def occupancy_of(pieces: Iterable[Piece]) -> Occupancy:
    """The engine's board as the camera would see it: cells and colours, no kinds."""
    return frozenset((p.cell, p.colour) for p in pieces)


def occupancy_to_json(occupancy: Occupancy) -> list[dict[str, Any]]:
    return [{"cell": list(cell), "colour": colour} for cell, colour in sorted(occupancy)]


def occupancy_from_json(items: list[dict[str, Any]]) -> Occupancy:
    return frozenset(((int(i["cell"][0]), int(i["cell"][1])), str(i["colour"])) for i in items)


def seen_from(data: Any) -> BoardSeen:
    """An observation's data as `BoardSeen`; anything else (the loop's `{"error": ...}`) is
    a frame that shows no board."""
    if isinstance(data, BoardSeen):
        return data
    if isinstance(data, dict) and "squares" in data:
        try:
            return BoardSeen.model_validate(data)
        except ValueError:
            return UNSEEN
    return UNSEEN
