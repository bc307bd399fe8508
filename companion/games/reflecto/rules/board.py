"""Reflecto's board and screens as data, read from `models/reflecto/`.

The rulebook does not give the grid's size, so it is data a user checks against their box.
Which row is whose first and last line is derived here, once, for the engine, the move
generator, the hint and the table: player 0 starts on row 0 and races toward row rows-1,
player 1 the opposite way.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.paths import model_int, models_dir, read_model_toml

Cell = tuple[int, int]
"""A square: (row counted from player 0's side, column counted from player 0's left)."""

DIRECTIONS: tuple[Cell, ...] = (
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
)
"""The eight directions a screen steps or jumps in."""


@dataclass(frozen=True)
class Grid:
    """The squares and which way each seat plays: what the board model and a solver's
    position both answer from their rows and columns alone."""

    rows: int
    cols: int

    def first_row(self, seat: int) -> int:
        return 0 if seat == 0 else self.rows - 1

    def last_row(self, seat: int) -> int:
        """The line a seat's letter screens are removed from (the opponent's first row)."""
        return self.rows - 1 if seat == 0 else 0

    def forward(self, seat: int) -> int:
        """+1 or -1: the row step that brings a seat's screen toward its last line."""
        return 1 if seat == 0 else -1

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols


@dataclass(frozen=True)
class Board(Grid):
    screens_per_player: int
    letter_screens: int
    spare_letter_tiles: int
    min_letters: int
    max_letters_per_screen: int
    words: tuple[str, ...]


def board_from_toml(board: dict[str, Any], words: dict[str, Any], where: str) -> Board:
    """A board from the two files' contents; every mistake is one UserError naming the key."""
    grid, screens, rules = board.get("grid", {}), board.get("screens", {}), board.get("words", {})
    per_player = model_int(screens, "per_player", where, 1)
    rows, cols = model_int(grid, "rows", where, 3), model_int(grid, "cols", where, per_player)
    letters = model_int(screens, "letter_screens", where, 1)
    if letters > per_player:
        raise UserError(f"{where}: letter_screens ({letters}) exceeds per_player ({per_player})")
    listed = words.get("words", [])
    if not isinstance(listed, list) or not all(isinstance(w, str) and w.isalpha() for w in listed):
        raise UserError(f"{where}: words.toml's `words` must be a list of words (letters only)")
    return Board(
        rows=rows,
        cols=cols,
        screens_per_player=per_player,
        letter_screens=letters,
        spare_letter_tiles=model_int(screens, "spare_letter_tiles", where, 0),
        min_letters=model_int(rules, "min_letters", where, 1),
        max_letters_per_screen=model_int(rules, "max_letters_per_screen", where, 1),
        words=tuple(w.upper() for w in listed),
    )


@lru_cache(maxsize=4)
def load_board(folder: Path | None = None) -> Board:
    """The board model from `models/reflecto/` (or `folder`)."""
    root = folder or models_dir() / "reflecto"
    return board_from_toml(
        read_model_toml(root / "board.toml"),
        read_model_toml(root / "words.toml"),
        str(root / "board.toml"),
    )
