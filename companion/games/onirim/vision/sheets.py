"""Onirim's printable sheet: the four corner markers of the play mat, from the table model,
so the places `read onirim` expects the cards at are measured from markers the user printed."""

from __future__ import annotations

from companion.config import TableSettings
from companion.games.onirim.vision.layout import load_layout
from companion.vision.print_sheets import Sheet, board_marker_sheet


def sheets(table: TableSettings) -> list[Sheet]:
    """What `companion calibrate print` adds for Onirim."""
    layout = load_layout()
    ids = list(layout.corner_ids)
    return [board_marker_sheet("onirim-markers", "Onirim", ids, layout.marker_side_mm)]
