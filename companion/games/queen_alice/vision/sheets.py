"""Queen Alice's printable sheet: the Central board's four corner markers, from the board
model, so a user with the box prints exactly the markers the reader looks for."""

from __future__ import annotations

from companion.config import TableSettings
from companion.games.queen_alice.vision.geometry import load_geometry
from companion.vision.print_sheets import Sheet, board_marker_sheet


def sheets(table: TableSettings) -> list[Sheet]:
    """What `companion calibrate print` adds for Queen Alice."""
    geo = load_geometry()
    ids = [m.id for m in geo.markers]
    return [board_marker_sheet("queen-alice-markers", "Queen Alice", ids, geo.marker_side_mm)]
