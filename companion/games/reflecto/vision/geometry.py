"""Where things are on a Reflecto board, in millimetres, read from `models/reflecto/board.toml`.

The camera side needs sizes the rules do not: the pitch of the squares, where the four corner
markers (ArUco 20-23) sit, and how big a screen is. They live in the board model's
`[geometry]` and `[markers]` sections (defaults below when a section or key is missing, so a
user's older copy of the file still loads); the grid's size is the rules' `[grid]`.

Board millimetres: x to the right, y down, (0, 0) at the centre of marker 20 (the top-left
corner in a picture taken from player 0's side). Player 0 sits at the bottom edge: row 0 is
the bottom row of squares, columns count from player 0's left, and player 0's screens show
their letters toward the bottom edge (+y), player 1's toward the top (-y).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.paths import models_dir, read_model_toml

Cell = tuple[int, int]

DEFAULTS: dict[str, dict[str, Any]] = {
    "grid": {"rows": 7, "cols": 7},
    "geometry": {
        "square_mm": 40.0,
        "grid_inset_mm": 30.0,
        "screen_width_mm": 34.0,
        "screen_thickness_mm": 8.0,
        "screen_height_mm": 30.0,
        "foot_depth_mm": 12.0,
        "foot_height_mm": 3.0,
    },
    "markers": {"corner_ids": [20, 21, 22, 23], "side_mm": 24.0},
}
"""Used only for what the model file leaves out; the file's own values are placeholders too."""


@dataclass(frozen=True)
class CornerMarker:
    id: int
    center_mm: tuple[float, float]


@dataclass(frozen=True)
class BoardGeometry:
    """The board and a screen, as the renderer draws them and the reader expects them."""

    rows: int
    cols: int
    square_mm: float
    grid_inset_mm: float
    """From a corner marker's centre to the grid's nearest edge, along x and along y."""
    screen_width_mm: float
    screen_thickness_mm: float
    """Depth of the screen's coloured top, seen from above."""
    screen_height_mm: float
    foot_depth_mm: float
    foot_height_mm: float
    marker_side_mm: float
    markers: tuple[CornerMarker, ...]
    """Top-left, top-right, bottom-right, bottom-left (the shape `estimate_pose` reads)."""

    @property
    def size_mm(self) -> tuple[float, float]:
        """Distances between the marker centres, across and down."""
        return (
            2 * self.grid_inset_mm + self.cols * self.square_mm,
            2 * self.grid_inset_mm + self.rows * self.square_mm,
        )

    @property
    def cells(self) -> list[Cell]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols)]

    def cell_mm(self, cell: Cell) -> tuple[float, float]:
        """Centre of a square in board mm (row 0 at the bottom, see the module doc)."""
        r, c = cell
        x = self.grid_inset_mm + (c + 0.5) * self.square_mm
        y = self.grid_inset_mm + (self.rows - 1 - r + 0.5) * self.square_mm
        return x, y

    def facing_y(self, owner: int) -> float:
        """+1 or -1: the y direction a seat's screens show their letters toward."""
        return 1.0 if owner == 0 else -1.0

    def first_row(self, owner: int) -> int:
        return 0 if owner == 0 else self.rows - 1

    @property
    def grid_box_mm(self) -> tuple[tuple[float, float], tuple[float, float]]:
        lo = self.grid_inset_mm
        return (lo, lo), (lo + self.cols * self.square_mm, lo + self.rows * self.square_mm)


def _number(table: dict[str, Any], key: str, where: str, *, low: float = 0.0) -> float:
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= low:
        raise UserError(f"{where}: {key} must be a number above {low:g}")
    return float(value)


def geometry_from_toml(data: dict[str, Any], where: str = "board.toml") -> BoardGeometry:
    """The geometry from a board model's contents; a bad value is one UserError naming it."""
    sections = {name: {**d, **(data.get(name) or {})} for name, d in DEFAULTS.items()}
    grid, geo, mk = sections["grid"], sections["geometry"], sections["markers"]
    rows, cols = grid["rows"], grid["cols"]
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 3 for v in (rows, cols)):
        raise UserError(f"{where}: [grid] rows and cols must be whole numbers >= 3")
    ids = mk["corner_ids"]
    if (
        not isinstance(ids, list)
        or len(ids) != 4
        or not all(isinstance(i, int) and 0 <= i < 50 for i in ids)
        or len(set(ids)) != 4
    ):
        raise UserError(f"{where}: [markers] corner_ids must be four different ids 0..49")
    values = {k: _number(geo, k, f"{where} [geometry]") for k in DEFAULTS["geometry"]}
    side = _number(mk, "side_mm", f"{where} [markers]")
    if values["screen_width_mm"] >= values["square_mm"]:
        raise UserError(f"{where}: [geometry] screen_width_mm must be less than square_mm")
    if side / 2 >= values["grid_inset_mm"]:
        raise UserError(f"{where}: [markers] side_mm must be under twice grid_inset_mm")
    w = 2 * values["grid_inset_mm"] + cols * values["square_mm"]
    h = 2 * values["grid_inset_mm"] + rows * values["square_mm"]
    centres = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
    return BoardGeometry(
        rows=rows,
        cols=cols,
        marker_side_mm=side,
        markers=tuple(CornerMarker(int(i), c) for i, c in zip(ids, centres, strict=True)),
        **values,
    )


@lru_cache(maxsize=4)
def load_geometry(path: Path | None = None) -> BoardGeometry:
    """`models/reflecto/board.toml` (or `path`); a missing file gives the defaults."""
    path = path or models_dir() / "reflecto" / "board.toml"
    data = read_model_toml(path) if path.exists() else {}
    return geometry_from_toml(data, str(path))
