"""Where each card lies on the table (models/onirim/table.toml), as table millimetres.

A place is the top-left corner of a card lying upright. The layout is data: a user whose
table or cards differ edits the TOML, and the renderer and the reader both follow it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from companion.errors import UserError
from companion.paths import model_point, models_dir

Point = tuple[float, float]


def _pt(value: object, where: str) -> Point:
    return model_point(value, f"table.toml: {where}")


def _add(p: Point, q: Point, k: float = 1.0) -> Point:
    return p[0] + k * q[0], p[1] + k * q[1]


@dataclass(frozen=True)
class TableLayout:
    corner_ids: tuple[int, int, int, int]
    marker_side_mm: float
    size_mm: tuple[float, float]
    card_mm: tuple[float, float]
    identify_mm: tuple[float, float, float, float]
    """(x0, y0, x1, y1) card mm: the corner every fan leaves in view."""
    search_mm: float
    mirror_places: tuple[Point, ...]
    fan_step: Point
    fan_max: int
    labyrinth_places: tuple[Point, ...]
    door_places: tuple[Point, ...]
    discard_place: Point
    limbo_places: tuple[Point, ...]

    def under_place(self, mirror_index: int, k: int) -> Point:
        """The place of the k-th card (0-based) under the mirror_index-th Mirror."""
        return _add(self.mirror_places[mirror_index], self.fan_step, k + 1)

    def marker_centres(self) -> dict[int, Point]:
        w, h = self.size_mm
        return dict(zip(self.corner_ids, ((0.0, 0.0), (w, 0.0), (w, h), (0.0, h)), strict=True))


def parse_layout(data: dict) -> TableLayout:
    try:
        m, card, ident = data["markers"], data["card"], data["identify"]
        mir, lab, doors, limbo = data["mirrors"], data["labyrinth"], data["doors"], data["limbo"]
        ids = tuple(int(i) for i in m["corner_ids"])
        if len(ids) != 4 or len(set(ids)) != 4:
            raise UserError("table.toml: markers.corner_ids must be four different ids")
        first, step = _pt(mir["first_mm"], "mirrors.first_mm"), _pt(mir["step_mm"], "step_mm")
        mirror_places = tuple(_add(first, step, i) for i in range(9))
        lfirst, lstep = _pt(lab["first_mm"], "labyrinth.first_mm"), _pt(lab["step_mm"], "step")
        row = _pt(lab["row_step_mm"], "labyrinth.row_step_mm")
        labyrinth = tuple(
            _add(_add(lfirst, row, r), lstep, i)
            for r in range(int(lab["rows"]))
            for i in range(int(lab["per_row"]))
        )
        dfirst, dstep = _pt(doors["first_mm"], "doors.first_mm"), _pt(doors["step_mm"], "step")
        bfirst, bstep = _pt(limbo["first_mm"], "limbo.first_mm"), _pt(limbo["step_mm"], "step")
        return TableLayout(
            corner_ids=ids,  # type: ignore[arg-type]
            marker_side_mm=float(m["side_mm"]),
            size_mm=(float(m["width_mm"]), float(m["height_mm"])),
            card_mm=(float(card["width_mm"]), float(card["height_mm"])),
            identify_mm=(
                float(ident["x0_mm"]),
                float(ident["y0_mm"]),
                float(ident["x1_mm"]),
                float(ident["y1_mm"]),
            ),
            search_mm=float(ident["search_mm"]),
            mirror_places=mirror_places,
            fan_step=_pt(mir["fan_step_mm"], "mirrors.fan_step_mm"),
            fan_max=int(mir["fan_max"]),
            labyrinth_places=labyrinth,
            door_places=tuple(_add(dfirst, dstep, i) for i in range(int(doors["max"]))),
            discard_place=_pt(data["discard"]["at_mm"], "discard.at_mm"),
            limbo_places=tuple(_add(bfirst, bstep, i) for i in range(int(limbo["max"]))),
        )
    except KeyError as exc:
        raise UserError(f"table.toml: missing {exc.args[0]!r}") from None
    except (TypeError, ValueError) as exc:
        raise UserError(f"table.toml: {exc}") from None


@lru_cache(maxsize=2)
def load_layout(path: Path | None = None) -> TableLayout:
    p = path or models_dir() / "onirim" / "table.toml"
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"no Onirim table file at {p}") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{p} is not valid TOML: {exc}") from None
    return parse_layout(data)
