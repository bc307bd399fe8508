"""What `companion read onirim --json` prints for one picture, and the renderer's answer key.

A card is written by its kind (`red-sun`, `door-blue`, `nightmare`); a card the reader cannot
name is null with a warning, never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class MirrorSeen:
    mirror: str
    explored: bool
    under: tuple[str | None, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"mirror": self.mirror, "explored": self.explored, "under": list(self.under)}


@dataclass(frozen=True)
class TableReading:
    labyrinth: tuple[str | None, ...] = ()
    doors: tuple[str, ...] = ()
    """Door colours in play, in the order they lie."""
    mirrors: tuple[MirrorSeen, ...] = ()
    discard_top: str | None = None
    warnings: tuple[str, ...] = field(default=())
    maybe: tuple[tuple[str, int, tuple[str, ...]], ...] = ()
    """Null cards the reader told all but the symbol of: (zone, index, the Locations of that
    colour), zone as live play names a place ("labyrinth", "under-<mirror>"). Live play
    narrows them with the hand; `read`'s JSON leaves them out (a null is a question there)."""
    leads: tuple[tuple[str, int, float], ...] = ()
    """Named cards the reader told from a card of another colour: (zone, index, the named
    type's score over the best type of another colour, `read.Match.colour_lead`), zones as
    in `maybe` plus ("discard", 0). Live play asks a card named by a small lead when the
    hand holds its colour twin (a colour misnamed is a play the game cannot tell apart);
    `read`'s JSON leaves them out (a named card is its answer there)."""
    guessed: tuple[str, ...] = ()
    """Mirrors (of `mirrors`, nothing under them) whose side is the reader's best guess: the
    window's lightness says one side, the whole corner hardly the other (`read.SIDE_LIGHT`).
    Live play keeps the guess and settles it with the game (a Mirror is explored only by the
    fourth card under it, which the game holds: the tracker takes a side misread as such);
    `read` asks (`asked`)."""

    def asked(self) -> TableReading:
        """What `companion read` prints: a Mirror whose side is only guessed left out (its
        warning says so), as a Mirror whose side is not told apart is."""
        if not self.guessed:
            return self
        return replace(
            self, mirrors=tuple(m for m in self.mirrors if m.mirror not in self.guessed), guessed=()
        )

    def to_json(self, image: str) -> dict[str, Any]:
        return {
            "image": image,
            "labyrinth": list(self.labyrinth),
            "doors": list(self.doors),
            "mirrors": [m.to_json() for m in self.mirrors],
            "discard_top": self.discard_top,
            "warnings": list(self.warnings),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableReading:
        return cls(
            labyrinth=tuple(data["labyrinth"]),
            doors=tuple(data["doors"]),
            mirrors=tuple(
                MirrorSeen(m["mirror"], bool(m["explored"]), tuple(m["under"]))
                for m in data["mirrors"]
            ),
            discard_top=data["discard_top"],
            warnings=tuple(data.get("warnings", ())),
        )
