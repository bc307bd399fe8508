"""Mirror Mansion's printable sticker sheet: the board's corner markers and the coloured
dots for mirrors, window and door, sized from the board model (`models/mirror-mansion`)."""

from __future__ import annotations

from PIL import ImageDraw

from companion.config import TableSettings
from companion.games.mirror_mansion.rules.board import load_board
from companion.vision.print_sheets import (
    A4_MM,
    MARGIN_MM,
    Sheet,
    font,
    mm,
    new_page,
    north_arrow,
    paste_marker,
    scale_bar,
)

DOT_COLOURS: dict[str, tuple[tuple[int, int, int], str]] = {
    # name: (print RGB, what it marks)
    "green": ((0, 166, 81), "mirrors: on the top edge, next to the reflective face"),
    "magenta": ((236, 0, 140), "the window card: on top"),
    "orange": ((247, 148, 29), "the door: on top"),
}


def sticker_sheet() -> Sheet:
    """The board markers (each with the arrow that must point north) and the dots."""
    board = load_board()
    side, dot = board.marker_side_mm, board.dot_diameter_mm
    sheet = new_page()
    draw = ImageDraw.Draw(sheet)
    draw.text(
        (mm(MARGIN_MM), mm(MARGIN_MM)), "Mirror Mansion sticker sheet", fill="black", font=font(5)
    )
    y = MARGIN_MM + 20
    for i, marker in enumerate(sorted(board.markers, key=lambda m: m.id)):
        x = MARGIN_MM + 8 + i * (side + 16)
        paste_marker(sheet, marker.id, x, y, side)
        north_arrow(sheet, x, y, side, 9.0)
        draw.text(
            (mm(x), mm(y + side + 2)),
            f"id {marker.id}: {marker.corner}",
            fill="black",
            font=font(3.5),
        )
    draw.text(
        (mm(MARGIN_MM), mm(y + side + 9)),
        "Stick each marker at its corner of the board (NW, NE, SE, SW), its arrow pointing north.",
        fill="black",
        font=font(3.2),
    )
    y += side + 22
    per_row = int((A4_MM[0] - 2 * MARGIN_MM) // (dot + 5))
    for name, (rgb, use) in DOT_COLOURS.items():
        draw.text(
            (mm(MARGIN_MM), mm(y)), f"{name} ({dot:g} mm): {use}", fill="black", font=font(3.5)
        )
        y += 7
        for row in range(2):
            for k in range(per_row):
                cx = MARGIN_MM + dot / 2 + k * (dot + 5)
                cy = y + dot / 2 + row * (dot + 4)
                draw.ellipse(
                    [mm(cx - dot / 2), mm(cy - dot / 2), mm(cx + dot / 2), mm(cy + dot / 2)],
                    fill=rgb,
                )
        y += 2 * (dot + 4) + 6
    scale_bar(sheet, MARGIN_MM, A4_MM[1] - MARGIN_MM - 4)
    return Sheet("mirror-mansion-stickers", [sheet], bilevel=False)


def sheets(table: TableSettings) -> list[Sheet]:
    """What `companion calibrate print` adds for this game."""
    return [sticker_sheet()]
