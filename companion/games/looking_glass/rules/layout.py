"""Layout cards: rows of overlapping cards, and everything derived from their geometry.

A layout file (models/looking-glass/layouts/*.toml) lists one half of the Looking Glass:

    name = "Pyramid"
    rows = [[0, 2, 4, 6, 8], [1, 3, 5, 7], [2, 4, 6], [3, 5]]

Row 0 lies next to the centre line and is dealt first; each later row lies half a card
height further out and covers the lower half of the row before it. A number is the card's
left edge in half-card widths, so two cards of one row must be at least 2 apart, and a card
of row r+1 covers a card of row r when their left edges are less than 2 apart (an odd offset
puts one card across two). Rows two apart only touch, they never overlap. The other half
is the mirror image across the centre line, so a position and its reflection share row and
column. Which cards cover which, which are free and which position reflects which are
computed here, never listed in the files.

Positions are named "A-r2-c4": half A or B, row (0 = innermost), column = the left edge in
half-card widths as written in the file. The reflection of A-rX-cY is B-rX-cY. Because a pick
always takes a position and its reflection together, the engine works with the 14 *pairs*
(index `i` into `Layout.cells`); the halves only decide who gets which card of a pair.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import pairwise
from pathlib import Path

from companion.errors import UserError
from companion.paths import models_dir

CARDS_PER_HALF = 14
"""40 cards - 2 hands of 4 - 4 removed = 28 in the Looking Glass, 14 per half."""
MIN_ROWS = 3
"""The Brawlers' set-up swaps a card of the top row with one two rows further in."""
HALVES = ("A", "B")


class LayoutError(UserError, ValueError):
    """A layout file that is malformed or cannot be laid on a table."""


@dataclass(frozen=True)
class Cell:
    """One position of a half (and, by reflection, of the other half)."""

    row: int
    col: int  # left edge, in half-card widths


@dataclass(frozen=True)
class Layout:
    id: str
    name: str
    rows: tuple[tuple[int, ...], ...]
    cells: tuple[Cell, ...] = field(init=False)

    def __post_init__(self) -> None:
        cells = tuple(Cell(r, c) for r, row in enumerate(self.rows) for c in sorted(row))
        object.__setattr__(self, "cells", cells)

    # -- derived geometry -------------------------------------------------------------
    @cached_property
    def covered_by(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the cells of the next row out that lie on part of it."""
        return tuple(
            tuple(
                j for j, d in enumerate(self.cells) if d.row == c.row + 1 and abs(d.col - c.col) < 2
            )
            for c in self.cells
        )

    @cached_property
    def covers(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the cells of the row before it that it lies on."""
        return tuple(
            tuple(j for j, under in enumerate(self.covered_by) if i in under)
            for i in range(len(self.cells))
        )

    @cached_property
    def cover_masks(self) -> tuple[int, ...]:
        """Bitmask of `covered_by`: a cell is free once all these bits are taken."""
        return tuple(sum(1 << j for j in cov) for cov in self.covered_by)

    @property
    def full_mask(self) -> int:
        return (1 << len(self.cells)) - 1

    @cached_property
    def top_row(self) -> tuple[int, ...]:
        """Cells no card lies on at the deal: the Brawlers' "top row".

        The outermost row, and any card of a lower row that the rows above leave uncovered
        (the ends of row 1 on the Terrace): every card that could be taken on the first turn.
        """
        return tuple(i for i, cover in enumerate(self.covered_by) if not cover)

    def brawler_spot(self, cell: int) -> int:
        """Where a Brawler dealt on top-row `cell` is switched to: "the closest card in the
        same spot 2 rows down", read as the covered card nearest the cell two rows further
        in (the innermost row when there are fewer), by row, then column, the left on a tie."""
        here = self.cells[cell]
        row = max(here.row - 2, 0)
        top = set(self.top_row)
        covered = [i for i in range(len(self.cells)) if i not in top]
        return min(
            covered,
            key=lambda i: (
                abs(self.cells[i].row - row),
                abs(self.cells[i].col - here.col),
                self.cells[i].col,
            ),
        )

    def free_cells(self, taken: int) -> list[int]:
        """Cells not taken whose every covering card has been taken."""
        masks = self.cover_masks
        return [i for i in range(len(masks)) if not (taken >> i) & 1 and masks[i] & ~taken == 0]

    # -- names --------------------------------------------------------------------------
    def name_of(self, half: int, cell: int) -> str:
        c = self.cells[cell]
        return f"{HALVES[half]}-r{c.row}-c{c.col}"

    @cached_property
    def position_names(self) -> tuple[str, ...]:
        """All 28 positions: half A's cells, then half B's, in cell order."""
        return tuple(self.name_of(h, i) for h in (0, 1) for i in range(len(self.cells)))

    @cached_property
    def _index(self) -> dict[str, tuple[int, int]]:
        return {self.name_of(h, i): (h, i) for h in (0, 1) for i in range(len(self.cells))}

    def locate(self, name: str) -> tuple[int, int]:
        """(half, cell) of a position name; ValueError for a name not in this layout."""
        try:
            return self._index[name]
        except KeyError:
            raise ValueError(f"no position {name!r} in layout {self.id!r}") from None

    def reflection(self, name: str) -> str:
        half, cell = self.locate(name)
        return self.name_of(1 - half, cell)


# -- physical form ----------------------------------------------------------------------
@dataclass(frozen=True)
class TableGeometry:
    """Card size and spacing in millimetres (poker-size cards by default)."""

    card_w: float = 63.0
    card_h: float = 88.0
    gap: float = 10.0  # between the two innermost rows, across the centre line

    @property
    def row_step(self) -> float:
        return self.card_h / 2


@dataclass(frozen=True)
class Placement:
    """Where a card lies: centre in table mm and rotation of its top edge.

    Table frame: origin at the centre of the Looking Glass, x to the right, y down the
    table; half A lies at y > 0 and half B at y < 0. `rotation_deg` is 0 for a card whose top
    edge faces -y (half A: tops toward the centre line) and 180 for half B.
    """

    x: float
    y: float
    rotation_deg: float
    width: float
    height: float

    def corners(self) -> list[tuple[float, float]]:
        """Top-left, top-right, bottom-right, bottom-left as seen from the card's own top."""
        a = math.radians(self.rotation_deg)
        ca, sa = math.cos(a), math.sin(a)
        hw, hh = self.width / 2, self.height / 2
        local = [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)]
        return [(self.x + u * ca - v * sa, self.y + u * sa + v * ca) for u, v in local]


def placement(layout: Layout, name: str, geometry: TableGeometry | None = None) -> Placement:
    g = geometry or TableGeometry()
    half, cell = layout.locate(name)
    c = layout.cells[cell]
    cols = [x.col for x in layout.cells]
    centre_col = (min(cols) + max(cols) + 2) / 2
    x = (c.col + 1 - centre_col) * g.card_w / 2
    y = g.gap / 2 + g.card_h / 2 + c.row * g.row_step
    if half == 0:
        return Placement(x, y, 0.0, g.card_w, g.card_h)
    return Placement(x, -y, 180.0, g.card_w, g.card_h)


def placements(layout: Layout, geometry: TableGeometry | None = None) -> dict[str, Placement]:
    """Every position's placement, in dealing order (row 0 first, so later rows lie on top)."""
    order = sorted(layout.position_names, key=lambda n: (layout.locate(n)[1], n))
    return {n: placement(layout, n, geometry) for n in order}


# -- files ------------------------------------------------------------------------------
def parse_layout(layout_id: str, text: str, source: str = "layout") -> Layout:
    """A validated layout; LayoutError names the first problem on one line."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LayoutError(f"{source}: not valid TOML ({exc})") from None
    unknown = set(data) - {"name", "rows"}
    if unknown:
        raise LayoutError(f"{source}: unknown key(s) {', '.join(sorted(unknown))}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise LayoutError(f"{source}: `name` must be a non-empty string")
    rows = data.get("rows")
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise LayoutError(f"{source}: `rows` must be a list of rows, each a list of columns")
    if len(rows) < MIN_ROWS:
        raise LayoutError(
            f"{source}: {len(rows)} rows; a layout needs at least {MIN_ROWS} "
            "(the Brawlers' set-up swaps with the row two below the top)"
        )
    for r, row in enumerate(rows):
        if not row:
            raise LayoutError(f"{source}: row {r} is empty")
        for col in row:
            if isinstance(col, bool) or not isinstance(col, int) or col < 0:
                raise LayoutError(f"{source}: row {r}: column {col!r} is not a whole number >= 0")
        ordered = sorted(row)
        for a, b in pairwise(ordered):
            if b - a < 2:
                raise LayoutError(
                    f"{source}: row {r}: cards at columns {a} and {b} overlap "
                    "(cards of one row must be at least 2 half-widths apart)"
                )
        if r > 0 and not all(any(abs(c - u) < 2 for u in rows[r - 1]) for c in row):
            lone = next(c for c in row if not any(abs(c - u) < 2 for u in rows[r - 1]))
            raise LayoutError(
                f"{source}: row {r}: the card at column {lone} covers no card of row {r - 1} "
                "(each row must lie on the lower half of the row before it)"
            )
    total = sum(len(r) for r in rows)
    if total != CARDS_PER_HALF:
        raise LayoutError(
            f"{source}: {total} cards in a half; the Looking Glass holds {CARDS_PER_HALF} "
            "per half (28 in all, leaving 12 for hands and the removed pile)"
        )
    return Layout(layout_id, name.strip(), tuple(tuple(sorted(r)) for r in rows))


def load_layout(path: Path) -> Layout:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise LayoutError(f"cannot read layout file {path}: {exc.strerror}") from None
    return parse_layout(path.stem, text, str(path))


@lru_cache(maxsize=4)
def load_layouts(folder: Path | None = None) -> dict[str, Layout]:
    """Every layout card in the models folder, by id (the file name without .toml)."""
    folder = folder or models_dir() / "looking-glass" / "layouts"
    files = sorted(folder.glob("*.toml"))
    if not files:
        raise UserError(f"no layout files (*.toml) in {folder}")
    return {p.stem: load_layout(p) for p in files}
