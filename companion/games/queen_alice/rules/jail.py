"""Captures, rescues and promotions: where a piece goes, and what it gives, from the model.

A captured piece goes to the capturing player's Jail area of the other colour (red pieces
to the White Jail, white pieces to the Red Jail). A rescued or promoted piece comes back on
a free respawn square of its colour, or on any free square when those are all taken (the
rulebook says so for rescues; promotions are read the same way).
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.games.queen_alice.rules.board import Board, Cell, Piece


def other(colour: str) -> str:
    return "white" if colour == "red" else "red"


def jail_area(captured: Piece) -> str:
    """The colour of the Jail area a captured piece is put in."""
    return other(captured.colour)


def comeback_squares(board: Board, colour: str, occupied: Iterable[Cell]) -> tuple[Cell, ...]:
    """Where a rescued or promoted piece of `colour` may be placed."""
    taken = set(occupied)
    free = tuple(cell for cell in board.respawn[colour] if cell not in taken)
    if free:
        return free
    return tuple(
        (r, c) for r in range(board.rows) for c in range(board.cols) if (r, c) not in taken
    )


def is_promotion(board: Board, piece: Piece, to: Cell) -> bool:
    """A pawn that reaches its colour's final row is promoted."""
    return piece.kind == "pawn" and to[0] == board.final_rows[piece.colour]
