"""Where things lie on Queen Alice's Central board, in millimetres, from
`models/queen-alice/board.toml` (`[vision]`, with the grid's size from `[grid]`).

Board millimetres: x to the right, y down toward the Crown display's edge, (0, 0) at the
centre of the top-left corner marker. Row r = 0 is the grid's bottom row (the Crown
display's side), column c = 0 its left column, as the rules count them.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.paths import model_point, models_dir

Cell = tuple[int, int]
Point = tuple[float, float]
PATH_COLOURS = ("red", "white")


@dataclass(frozen=True)
class CornerMarker:
    id: int
    center_mm: Point


@dataclass(frozen=True)
class BoardGeometry:
    """The board as the renderer draws it and the reader expects it.

    `markers` and `marker_side_mm` have the names `estimate_pose` (Mirror Mansion's, shared)
    reads, so the pose code takes this object as its board.
    """

    rows: int
    cols: int
    square_mm: float
    grid_origin_mm: Point
    board_mm: Point
    markers: tuple[CornerMarker, ...]
    marker_side_mm: float
    paths: dict[str, tuple[Point, ...]]
    """Each colour's Alice's Path spaces, space 0 (the start) first."""
    crown_slots: tuple[Point, ...]
    token_mm: float
    pieces_per_colour: int
    """The most pieces of one colour on the chessboard at once (no play adds one)."""

    @property
    def cells(self) -> tuple[Cell, ...]:
        return tuple((r, c) for r in range(self.rows) for c in range(self.cols))

    def cell_mm(self, cell: Cell) -> Point:
        r, c = cell
        x0, y0 = self.grid_origin_mm
        return (x0 + (c + 0.5) * self.square_mm, y0 + (self.rows - r - 0.5) * self.square_mm)

    @property
    def grid_box_mm(self) -> tuple[Point, Point]:
        x0, y0 = self.grid_origin_mm
        return (x0, y0), (x0 + self.cols * self.square_mm, y0 + self.rows * self.square_mm)


def _line(spec: Any, count: int, where: str) -> tuple[Point, ...]:
    if not isinstance(spec, dict):
        raise UserError(f"{where}: expected {{ start_mm = [x, y], step_mm = [dx, dy] }}")
    (x, y), (dx, dy) = (
        model_point(spec.get("start_mm"), where),
        model_point(spec.get("step_mm"), where),
    )
    return tuple((x + i * dx, y + i * dy) for i in range(count))


def geometry_from_toml(board: dict[str, Any], paths: dict[str, Any], where: str) -> BoardGeometry:
    """The geometry from the parsed board.toml and paths.toml (Alice's spaces are counted
    there, so the two files cannot disagree)."""
    try:
        rows, cols = int(board["grid"]["rows"]), int(board["grid"]["cols"])
        v = board["vision"]
        ids = [int(i) for i in v["marker_ids"]]
        width, height = model_point(v["board_mm"], f"{where} [vision] board_mm")
        slots = v["crowns"]
        spaces = {colour: len(paths["alice"][colour]) for colour in PATH_COLOURS}
        geometry = BoardGeometry(
            rows=rows,
            cols=cols,
            square_mm=float(v["square_mm"]),
            grid_origin_mm=model_point(v["grid_origin_mm"], f"{where} [vision] grid_origin_mm"),
            board_mm=(width, height),
            markers=tuple(
                CornerMarker(i, c)
                for i, c in zip(
                    ids, [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)], strict=True
                )
            ),
            marker_side_mm=float(v["marker_side_mm"]),
            paths={
                colour: _line(
                    v[f"{colour}_path"], spaces[colour], f"{where} [vision] {colour}_path"
                )
                for colour in PATH_COLOURS
            },
            crown_slots=_line(slots, int(slots["slots"]), f"{where} [vision] crowns"),
            token_mm=float(v["token_mm"]),
            pieces_per_colour=int(v["pieces_per_colour"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise UserError(
            f"{where}: [vision] is incomplete or malformed ({exc!s}); see the "
            "comments in models/queen-alice/board.toml"
        ) from None
    if len(ids) != 4 or geometry.square_mm <= 0 or geometry.marker_side_mm <= 0:
        raise UserError(f"{where}: [vision] wants four marker ids and positive sizes")
    starting = max(
        (
            sum(1 for p in tile.get("pieces", []) if p.get("colour") == colour)
            for tile in board.get("tiles", [])
            for colour in PATH_COLOURS
        ),
        default=0,
    )
    if geometry.pieces_per_colour < starting:
        raise UserError(
            f"{where}: [vision] pieces_per_colour = {geometry.pieces_per_colour}, but a start "
            f"tile has {starting} pieces of one colour"
        )
    return geometry


@lru_cache(maxsize=4)
def load_geometry(folder: Path | None = None) -> BoardGeometry:
    base = folder or models_dir() / "queen-alice"
    try:
        board = tomllib.loads((base / "board.toml").read_text(encoding="utf-8"))
        paths = tomllib.loads((base / "paths.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UserError(f"{base}: cannot read the board model ({exc})") from None
    return geometry_from_toml(board, paths, str(base / "board.toml"))
