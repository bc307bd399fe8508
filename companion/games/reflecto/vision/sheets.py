"""Reflecto's printable sheet: the board's four corner markers, from the board model."""

from __future__ import annotations

from companion.config import TableSettings
from companion.games.reflecto.vision.geometry import load_geometry
from companion.vision.print_sheets import Sheet, board_marker_sheet


def sheets(table: TableSettings) -> list[Sheet]:
    """What `companion calibrate print` adds for Reflecto."""
    geo = load_geometry()
    ids = [m.id for m in geo.markers]
    return [board_marker_sheet("reflecto-markers", "Reflecto", ids, geo.marker_side_mm)]
