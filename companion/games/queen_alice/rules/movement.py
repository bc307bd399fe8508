"""Chess moves on Queen Alice's chessboard, as the rulebook adapts them.

One idea: every kind is a row in `_STEPS` (its directions, and whether it slides along them
or steps once); only the pawn is different, because it moves exactly one square toward its
colour's final row and captures one square diagonally forward. A move may end on a piece of
the opposite colour (a capture), never on its own colour; there is no check, castling or
en passant. A piece with no move is `blocked` (it resolves its current square).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.games.queen_alice.rules.board import Cell, Piece

_ORTHOGONAL: tuple[Cell, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))
_DIAGONAL: tuple[Cell, ...] = ((-1, -1), (-1, 1), (1, -1), (1, 1))
_KNIGHT: tuple[Cell, ...] = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))

_STEPS: dict[str, tuple[tuple[Cell, ...], bool]] = {
    "king": (_ORTHOGONAL + _DIAGONAL, False),
    "queen": (_ORTHOGONAL + _DIAGONAL, True),
    "rook": (_ORTHOGONAL, True),
    "bishop": (_DIAGONAL, True),
    "knight": (_KNIGHT, False),
}
"""Each non-pawn kind: its directions, and True when it slides until blocked."""


@dataclass(frozen=True)
class Move:
    to: Cell
    capture: bool

    def to_json(self) -> dict[str, object]:
        return {"to": list(self.to), "capture": self.capture}


@dataclass(frozen=True)
class Position:
    """Pieces on a rows x cols board; `forward` is each colour's pawn step along r (+1/-1)."""

    rows: int
    cols: int
    pieces: tuple[Piece, ...]
    forward: Mapping[str, int]

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def piece_at(self, cell: Cell) -> Piece | None:
        return next((p for p in self.pieces if p.cell == cell), None)


def generate_moves(position: Position, index: int) -> tuple[Move, ...]:
    """Every square piece `index` may move to, in row-then-column order."""
    piece = position.pieces[index]
    occupant = {p.cell: p.colour for p in position.pieces}
    found: list[Move] = []
    r, c = piece.cell
    if piece.kind == "pawn":
        dr = position.forward[piece.colour]
        ahead = (r + dr, c)
        if position.on_board(ahead) and ahead not in occupant:
            found.append(Move(ahead, False))
        for dc in (-1, 1):
            diagonal = (r + dr, c + dc)
            if occupant.get(diagonal, piece.colour) != piece.colour:
                found.append(Move(diagonal, True))
    else:
        directions, slides = _STEPS[piece.kind]
        for dr, dc in directions:
            to = (r + dr, c + dc)
            while position.on_board(to):
                there = occupant.get(to)
                if there is not None:
                    if there != piece.colour:
                        found.append(Move(to, True))
                    break
                found.append(Move(to, False))
                if not slides:
                    break
                to = (to[0] + dr, to[1] + dc)
    return tuple(sorted(found, key=lambda m: m.to))


def is_blocked(position: Position, index: int) -> bool:
    """True when the piece cannot move, so it resolves the square it stands on."""
    return not generate_moves(position, index)
