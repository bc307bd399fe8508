"""The board taken from the table: "the table is right" (issue 31) for Reflecto.

When the engine's board has drifted from the table (a misread that was believed, a screen
nudged), the table's arrangement becomes the engine's. The camera sees which squares hold a
screen and whose colour it is, never which screen is which, so identity is kept where it
can be and reasoned where it cannot:
- a seat's screens standing where the engine has them keep their identity;
- the seat's other screens take the other squares of its colour, the assignment that moves
  them least in total (king's-move distance; ties: the first in id order), since a drift is
  a screen nudged or misread, not a shuffle;
- a seat must have as many screens on the table as the engine has on the board: a screen
  taken off or put back is a removal (judged in word order) or its undoing, which a
  correction does not decide.
Words, removed screens, guesses and the turn's progress are not touched.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from itertools import permutations

from companion.games.base import IllegalAction
from companion.games.reflecto.rules.board import Cell
from companion.games.reflecto.rules.state import PLAY, SEATS, ReflectoState

RULE_TABLE = "the table is right: the camera's arrangement becomes the board"


def _distance(a: Cell, b: Cell) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def with_table(state: ReflectoState, seen: Iterable[tuple[Cell, int]]) -> ReflectoState:
    """`state` with its screens where the table has them (see the module doc); raises
    `IllegalAction(RULE_TABLE, why)` when the arrangement cannot be this game's board."""
    if state.phase != PLAY:
        raise IllegalAction(
            RULE_TABLE,
            "only while the game is played (before it, the set-up is entered on the phones)",
        )
    seen = list(seen)
    cells = [cell for cell, _ in seen]
    if len(set(cells)) != len(cells):
        raise IllegalAction(RULE_TABLE, "two screens read on one square")
    for (r, c), owner in seen:
        if not (0 <= r < state.rows and 0 <= c < state.cols) or owner not in SEATS:
            raise IllegalAction(RULE_TABLE, f"square [{r}, {c}] of seat {owner} is off the board")
    placed: dict[str, Cell] = {}
    for seat in SEATS:
        table = {cell for cell, owner in seen if owner == seat}
        on_board = [s for s in state.screens_of(seat) if s.cell is not None]
        if len(table) != len(on_board):
            raise IllegalAction(
                RULE_TABLE,
                f"the camera sees {len(table)} of seat {seat}'s "
                f"screens, the game has {len(on_board)} on the "
                "board (a removal is made, or undone, by hand)",
            )
        stay = [s for s in on_board if s.cell in table]
        moved = [s for s in on_board if s.cell not in table]
        free = sorted(table - {s.cell for s in stay})
        placed |= {s.id: s.cell for s in stay if s.cell is not None}
        best = min(
            permutations(free),
            key=lambda order: sum(
                _distance(s.cell, cell)
                for s, cell in zip(moved, order, strict=True)
                if s.cell is not None
            ),
            default=(),
        )
        placed |= {s.id: cell for s, cell in zip(moved, best, strict=True)}
    return replace(
        state,
        screens=tuple(
            replace(s, cell=placed[s.id]) if s.id in placed else s for s in state.screens
        ),
    )


def with_cells(state: ReflectoState, cells: dict[str, Cell]) -> ReflectoState:
    """`state` with the named screens on the given squares (a recorded `with_table`)."""
    return replace(
        state,
        screens=tuple(replace(s, cell=cells[s.id]) if s.id in cells else s for s in state.screens),
    )
