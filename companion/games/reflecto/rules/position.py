"""Where the screens stand, and every move the seat to move can make from there.

A position is what the table shows plus what the mover knows of its own screens (which
are letters, which letter is next to remove). The move generator works on positions
alone, so the engine, the hint's search, the `moves` command and the live tracker share
one definition of a legal move:

- a step to an adjacent empty square in any of 8 directions;
- a chain of jumps, each over an adjacent screen (either colour) to the empty square
  directly beyond it, stopping after any jump, never visiting a square twice; the mover's
  own start square is empty once it leaves, so nothing can be jumped over there;
- a jump from the second-to-last line over a screen on the last line to the (imagined)
  square beyond the far edge removes the jumping screen; only the next letter screen in
  word order may do so, and only straight or diagonally forward with the landing column on
  the board.

Moves are identified by screen and destination (`to` None: off the board), as the path a
chain takes changes nothing on the board.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cached_property
from typing import Any, cast

from companion.games.reflecto.rules.board import DIRECTIONS, Cell, Grid

ScreenId = str | int
"""A screen's label: the engine uses strings, the `moves` command echoes what it is given."""

LETTER, MIRROR = "letter", "mirror"


@dataclass(frozen=True)
class Placed:
    """A screen on the board as the mover sees it (the opponent's kinds may be unknown)."""

    id: ScreenId
    owner: int
    kind: str | None
    cell: Cell


@dataclass(frozen=True, order=True)
class Move:
    """One screen to `to`; `to` None is a jump that removes the screen over the far edge."""

    screen: ScreenId
    to: Cell | None

    def to_json(self) -> dict[str, Any]:
        return {"screen": self.screen, "to": "off" if self.to is None else list(self.to)}


@dataclass(frozen=True)
class Position(Grid):
    to_move: int
    screens: tuple[Placed, ...]
    next_to_remove: tuple[ScreenId | None, ScreenId | None]

    @cached_property
    def occupant(self) -> dict[Cell, Placed]:
        return {s.cell: s for s in self.screens}

    @cached_property
    def by_id(self) -> dict[ScreenId, Placed]:
        return {s.id: s for s in self.screens}

    def removals(self, seat: int | None = None) -> list[ScreenId]:
        """The screen `seat` (default: the mover) may lift off now: its next letter, if that
        stands on its last line."""
        seat = self.to_move if seat is None else seat
        nxt = self.next_to_remove[seat]
        placed = self.by_id.get(nxt) if nxt is not None else None
        if placed is None or placed.owner != seat or placed.kind == MIRROR:
            return []
        return [nxt] if placed.cell[0] == self.last_row(seat) else []  # type: ignore[list-item]

    def destinations(self, screen: Placed) -> tuple[set[Cell], bool]:
        """The squares `screen` can reach in one move, and whether a jump can take it off."""
        start = screen.cell
        rows, cols = self.rows, self.cols
        # Squares the moving screen may land on or jump over: its own start is empty now.
        taken = self.occupant.keys() - {start}
        reach: set[Cell] = set()
        r0, c0 = start
        for dr, dc in DIRECTIONS:
            r, c = r0 + dr, c0 + dc
            if 0 <= r < rows and 0 <= c < cols and (r, c) not in taken:
                reach.add((r, c))
        landed: set[Cell] = {start}
        queue = deque([start])
        while queue:
            hr, hc = queue.popleft()
            for dr, dc in DIRECTIONS:
                lr, lc = hr + 2 * dr, hc + 2 * dc
                if not (0 <= lr < rows and 0 <= lc < cols) or (lr, lc) in landed:
                    continue
                if (hr + dr, hc + dc) in taken and (lr, lc) not in taken:
                    landed.add((lr, lc))
                    queue.append((lr, lc))
        reach |= landed - {start}
        off = self._can_jump_off(screen, landed)
        return reach, off

    def _can_jump_off(self, screen: Placed, landed: set[Cell]) -> bool:
        seat = screen.owner
        if screen.kind == MIRROR or self.next_to_remove[seat] != screen.id:
            return False
        last, fwd = self.last_row(seat), self.forward(seat)
        for r, c in landed:
            if r != last - fwd:
                continue
            for dc in (-1, 0, 1):
                over = (last, c + dc)
                if over != screen.cell and over in self.occupant and 0 <= c + 2 * dc < self.cols:
                    return True
        return False

    def moves(self, seat: int | None = None) -> list[Move]:
        """Every move of `seat` (default: the mover), sorted by screen and destination."""
        seat = self.to_move if seat is None else seat
        found: list[Move] = []
        for screen in self.screens:
            if screen.owner != seat:
                continue
            reach, off = self.destinations(screen)
            found += [Move(screen.id, cell) for cell in sorted(reach)]
            if off:
                found.append(Move(screen.id, None))
        return sorted(found, key=lambda m: (str(m.screen), m.to is None, m.to or (0, 0)))

    def after(self, move: Move) -> Position:
        """The position once `move` is made (the same seat still to move: removals may
        follow in the same turn)."""
        screens = tuple(
            # (a screen moved off the board is left out below: `to` is a cell here)
            s if s.id != move.screen else Placed(s.id, s.owner, s.kind, cast(Cell, move.to))
            for s in self.screens
            if not (s.id == move.screen and move.to is None)
        )
        return Position(self.rows, self.cols, self.to_move, screens, self.next_to_remove)
