"""Queen Alice's chessboard as data, read from `models/queen-alice/board.toml`.

The rulebook shows the board only in pictures, so its size, the resource of each row, the
action of each column, the respawn squares, each colour's final row and the start
positions (one per player-aid tile) are data a user checks against their box; so are the
rulebook's capture, rescue and promotion rewards, kept beside them. The pawn direction of
each colour is derived here, once, from its final row.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.paths import model_int, models_dir, read_model_toml

Cell = tuple[int, int]
COLOURS: tuple[str, ...] = ("red", "white")
KINDS: tuple[str, ...] = ("king", "queen", "rook", "bishop", "knight", "pawn")
RESOURCES: tuple[str, ...] = ("cake", "tea", "toast", "wild")
ACTIONS: tuple[str, ...] = ("hearts", "spades", "clubs", "diamonds", "wild")


def square_name(cell: Cell) -> str:
    """A square as players name it: chess-like, its column a letter from "a" and its row a
    number from 1 ("c4" is row 3, column 2 counted from 0), as the dashboard labels the
    board (row 0 at the bottom, column 0 at the left). The JSON keeps [row, column] from
    0; only words for people use this."""
    r, c = cell
    letters = ""
    c += 1
    while c > 0:  # past "z": "aa", "ab", ... (a board from the models may be wide)
        c, rest = divmod(c - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return f"{letters}{r + 1}"


@dataclass(frozen=True)
class Piece:
    colour: str
    kind: str
    cell: Cell


REWARD_KEYS: tuple[str, ...] = ("time", "resource", "pawprint")


@dataclass(frozen=True)
class CaptureReward:
    """What one capture gives: Time, resources of the player's choice, pawprints of the
    captured piece's colour."""

    time: int = 0
    resource: int = 0
    pawprint: int = 0


def _capture_rewards(data: dict[str, Any], where: str) -> dict[str, CaptureReward]:
    table = data.get("captures")
    if not isinstance(table, dict) or set(table) != set(KINDS):
        raise UserError(f"{where}: [captures] must give the reward of each of {', '.join(KINDS)}")
    rewards = {}
    for kind in KINDS:
        entry = table[kind]
        if (
            not isinstance(entry, dict)
            or not set(entry) <= set(REWARD_KEYS)
            or not all(
                isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in entry.values()
            )
        ):
            raise UserError(
                f"{where}: [captures] {kind} must be whole numbers >= 0 of {', '.join(REWARD_KEYS)}"
            )
        rewards[kind] = CaptureReward(**entry)
    return rewards


@dataclass(frozen=True)
class Board:
    rows: int
    cols: int
    row_resources: tuple[str, ...]
    column_actions: tuple[str, ...]
    final_rows: dict[str, int]
    respawn: dict[str, tuple[Cell, ...]]
    tiles: dict[str, tuple[Piece, ...]]
    captures: dict[str, CaptureReward]
    jailer_time: int
    promotion_pawprint: int

    def forward(self, colour: str) -> int:
        """+1 or -1: the row step that brings a pawn of `colour` toward its final row."""
        return 1 if self.final_rows[colour] == self.rows - 1 else -1

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def square(self, cell: Cell) -> tuple[str, str]:
        """What landing on `cell` gives: (row resource, column action)."""
        return self.row_resources[cell[0]], self.column_actions[cell[1]]


def _cell(value: Any, where: str, rows: int, cols: int) -> Cell:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise UserError(f"{where}: a square must be [row, column], got {value!r}")
    if not (0 <= value[0] < rows and 0 <= value[1] < cols):
        raise UserError(f"{where}: square {value!r} is off the {rows}x{cols} board")
    return value[0], value[1]


def _names(
    value: Any, allowed: tuple[str, ...], length: int, what: str, where: str
) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) != length or not all(v in allowed for v in value):
        raise UserError(f"{where}: {what} must list {length} of {', '.join(allowed)}")
    return tuple(value)


def board_from_toml(data: dict[str, Any], where: str) -> Board:
    """A board from board.toml's contents; every mistake is one UserError naming the key."""
    grid = data.get("grid", {})
    rows, cols = model_int(grid, "rows", where, 2), model_int(grid, "cols", where, 1)
    if rows % 2 or cols % 2 == 0:
        raise UserError(
            f"{where}: rows must be even and cols odd (two central rows, "
            f"one central column), got {rows}x{cols}"
        )
    resources = _names(
        data.get("rows", {}).get("resources"), RESOURCES, rows, "[rows] resources", where
    )
    actions = _names(
        data.get("columns", {}).get("actions"), ACTIONS, cols, "[columns] actions", where
    )
    if resources[rows // 2 - 1] != "wild" or resources[rows // 2] != "wild":
        raise UserError(f"{where}: the two central rows must give the wild resource")
    if actions[cols // 2] != "wild":
        raise UserError(f"{where}: the central column must give the wild action")
    finals = data.get("final_rows", {})
    final_rows = {c: model_int(finals, c, where, 0) for c in COLOURS}
    if sorted(final_rows.values()) != [0, rows - 1]:
        raise UserError(f"{where}: [final_rows] must be 0 and {rows - 1}, one per colour")
    spawn = data.get("respawn", {})
    respawn = {}
    for colour in COLOURS:
        listed = spawn.get(colour)
        if not isinstance(listed, list) or not listed:
            raise UserError(f"{where}: [respawn] {colour} must list at least one square")
        respawn[colour] = tuple(_cell(v, f"{where} [respawn] {colour}", rows, cols) for v in listed)
    tiles: dict[str, tuple[Piece, ...]] = {}
    for tile in data.get("tiles", []):
        name = tile.get("name")
        if not isinstance(name, str) or not name or name in tiles:
            raise UserError(f"{where}: every [[tiles]] needs its own name, got {name!r}")
        tiles[name] = pieces_from_list(tile.get("pieces"), rows, cols, f"{where} tile {name}")
    if not tiles:
        raise UserError(f"{where}: at least one [[tiles]] start position is needed")
    return Board(
        rows,
        cols,
        resources,
        actions,
        final_rows,
        respawn,
        tiles,
        captures=_capture_rewards(data, where),
        jailer_time=model_int(data.get("rescue", {}), "jailer_time", where, 0),
        promotion_pawprint=model_int(data.get("promotion", {}), "pawprint", where, 0),
    )


def pieces_from_list(value: Any, rows: int, cols: int, where: str) -> tuple[Piece, ...]:
    """Pieces given as [{colour, kind, cell}]; two on one square is a mistake."""
    if not isinstance(value, list):
        raise UserError(f"{where}: pieces must be a list")
    pieces, seen = [], set()
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            raise UserError(f"{where}: piece {i} must be an object")
        colour, kind = item.get("colour"), item.get("kind")
        if colour not in COLOURS:
            raise UserError(f"{where}: piece {i}: colour must be red or white, got {colour!r}")
        if kind not in KINDS:
            raise UserError(
                f"{where}: piece {i}: kind must be one of {', '.join(KINDS)}, got {kind!r}"
            )
        cell = _cell(item.get("cell"), f"{where}: piece {i}", rows, cols)
        if cell in seen:
            raise UserError(f"{where}: piece {i}: two pieces on square {list(cell)}")
        seen.add(cell)
        pieces.append(Piece(colour, kind, cell))
    return tuple(pieces)


@lru_cache(maxsize=4)
def load_board(folder: Path | None = None) -> Board:
    """The board model from `models/queen-alice/` (or `folder`)."""
    path = (folder or models_dir() / "queen-alice") / "board.toml"
    return board_from_toml(read_model_toml(path), str(path))
