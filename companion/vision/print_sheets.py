"""Printable A4 sheets at true scale (300 dpi): corner markers, the ChArUco board, stickers.

Black-and-white sheets are written as 1-bit images (lossless CCITT in the PDF), so marker
edges print sharp; the colour sticker sheet is RGB. Every sheet carries a 50 mm scale bar
to check with a ruler that the printer did not "fit to page".
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from companion.config import TableSettings
from companion.vision.calibration import (
    BOARD_FIRST_ID,
    BOARD_MARKER_MM,
    BOARD_SQUARE_MM,
    BOARD_SQUARES,
    charuco_board,
)
from companion.vision.markers import marker_image

DPI = 300
A4_MM = (210.0, 297.0)
MARGIN_MM = 12.0
CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")


def mm(value: float) -> int:
    return round(value * DPI / 25.4)


def font(size_mm: float) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=mm(size_mm))


def new_page(landscape: bool = False) -> Image.Image:
    w, h = A4_MM[::-1] if landscape else A4_MM
    return Image.new("RGB", (mm(w), mm(h)), "white")


def scale_bar(page: Image.Image, x_mm: float, y_mm: float) -> None:
    draw = ImageDraw.Draw(page)
    x0, x1, y = mm(x_mm), mm(x_mm + 50), mm(y_mm)
    draw.line([(x0, y), (x1, y)], fill="black", width=mm(0.4))
    for x in (x0, x1):
        draw.line([(x, y - mm(2)), (x, y + mm(2))], fill="black", width=mm(0.4))
    draw.text(
        (x1 + mm(3), y - mm(2)),
        "50 mm: measure this; print at 100 %, not 'fit to page'",
        fill="black",
        font=font(3),
    )


def paste_marker(
    page: Image.Image, marker_id: int, x_mm: float, y_mm: float, side_mm: float
) -> None:
    """Top-left of the black square at (x_mm, y_mm): a true-scale marker."""
    side = mm(side_mm)
    page.paste(Image.fromarray(marker_image(marker_id, side)).convert("RGB"), (mm(x_mm), mm(y_mm)))


def north_arrow(
    page: Image.Image, x_mm: float, y_mm: float, side_mm: float, tip_mm: float, height_mm: float = 4
) -> None:
    """A triangle `height_mm` tall centred above a marker pasted at (x_mm, y_mm), its tip
    `tip_mm` above the black square: the marker's corners are read from its top, so it must be
    laid with the arrow pointing the way the sheet says."""
    draw = ImageDraw.Draw(page)
    tip_x, tip_y = x_mm + side_mm / 2, y_mm - tip_mm
    half = height_mm * 0.625
    draw.polygon(
        [
            (mm(tip_x), mm(tip_y)),
            (mm(tip_x - half), mm(tip_y + height_mm)),
            (mm(tip_x + half), mm(tip_y + height_mm)),
        ],
        fill="black",
    )


def heading(page: Image.Image, title: str, note: str) -> None:
    """A sheet's title and the line under it that says how to cut and lay what it holds."""
    draw = ImageDraw.Draw(page)
    draw.text((mm(MARGIN_MM), mm(MARGIN_MM)), title, fill="black", font=font(5))
    draw.text((mm(MARGIN_MM), mm(MARGIN_MM + 8)), note, fill="black", font=font(3.2))


def corner_marker(
    page: Image.Image, marker_id: int, where: str, x_mm: float, y_mm: float, side_mm: float
) -> None:
    """A corner marker at true size in its cut square (a quarter of its side of white around
    it, which the detector needs), its arrow inside the cut line so it is kept, and its id
    and corner under it."""
    q = side_mm / 4
    paste_marker(page, marker_id, x_mm, y_mm, side_mm)
    draw = ImageDraw.Draw(page)
    draw.rectangle(
        [mm(x_mm - q), mm(y_mm - q), mm(x_mm + side_mm + q), mm(y_mm + side_mm + q)],
        outline="black",
        width=1,
    )
    # The arrow stays a third of the white band clear of the black square at any marker size:
    # a dark arrow touching it breaks the quiet zone and the detector no longer finds the marker.
    gap = q / 3
    height = min(4.0, q - 1 - gap)
    north_arrow(page, x_mm, y_mm, side_mm, gap + height, height)
    draw.text(
        (mm(x_mm - q), mm(y_mm + side_mm + q + 2)),
        f"id {marker_id}: {where} corner",
        fill="black",
        font=font(3.5),
    )


@dataclass(frozen=True)
class Sheet:
    name: str
    pages: list[Image.Image]
    bilevel: bool


def table_marker_sheet(table: TableSettings) -> Sheet:
    """The four corner markers with their place on the table, as many per page as fit."""
    side = table.marker_size_mm
    q = side / 4  # white quiet zone kept around each marker, inside the cut line
    cell_w, cell_h = side + 2 * q + 14, side + 2 * q + 22
    cols = max(1, int((A4_MM[0] - 2 * MARGIN_MM) // cell_w))
    rows = max(1, int((A4_MM[1] - 2 * MARGIN_MM - 40) // cell_h))
    pages: list[Image.Image] = []
    for i, (mid, where) in enumerate(zip(table.corner_ids, CORNER_NAMES, strict=True)):
        slot = i % (cols * rows)
        if slot == 0:
            pages.append(new_page())
            heading(
                pages[-1],
                f"Table corner markers: ArUco {table.marker_dictionary}, {side:g} mm",
                f"Centres {table.width_mm:g} mm apart across, {table.height_mm:g} mm "
                "down. Cut on the thin line; the arrow points to the table's far (top) edge.",
            )
            scale_bar(pages[-1], MARGIN_MM, A4_MM[1] - MARGIN_MM - 4)
        x = MARGIN_MM + q + 4 + (slot % cols) * cell_w
        y = MARGIN_MM + 24 + q + (slot // cols) * cell_h
        corner_marker(pages[-1], mid, where, x, y, side)
    return Sheet("table-markers", pages, bilevel=True)


def charuco_sheet() -> Sheet:
    """The lens calibration board on a landscape page."""
    board = charuco_board()
    cols, rows = BOARD_SQUARES
    w_mm, h_mm = cols * BOARD_SQUARE_MM, rows * BOARD_SQUARE_MM
    art = board.generateImage((mm(w_mm), mm(h_mm)), marginSize=0, borderBits=1)
    page = new_page(landscape=True)
    x0, y0 = (297.0 - w_mm) / 2, 22.0
    page.paste(Image.fromarray(art).convert("RGB"), (mm(x0), mm(y0)))
    draw = ImageDraw.Draw(page)
    n = cols * rows // 2
    draw.text(
        (mm(x0), mm(8)),
        f"ChArUco board {cols}x{rows}: squares {BOARD_SQUARE_MM:g} mm, markers "
        f"{BOARD_MARKER_MM:g} mm, DICT_4X4_50 ids {BOARD_FIRST_ID}-{BOARD_FIRST_ID + n - 1}."
        " Glue it flat on card.",
        fill="black",
        font=font(3.5),
    )
    scale_bar(page, x0, y0 + h_mm + 9)
    return Sheet("charuco-board", [page], bilevel=True)


def board_marker_sheet(name: str, title: str, ids: list[int], side: float) -> Sheet:
    """A game board's four corner markers at true size, each labelled with its corner and
    with the arrow that must point to the board's far edge (for a game's `sheets` part)."""
    sheet = new_page()
    heading(
        sheet,
        f"{title}: board corner markers, ArUco DICT_4X4_50, {side:g} mm",
        "Stick each on the board's corner it "
        "names, its arrow to the far edge; measure the board as its model file says.",
    )
    q = side / 4
    for i, (mid, where) in enumerate(zip(ids, CORNER_NAMES, strict=True)):
        x = MARGIN_MM + q + 4 + (i % 2) * (side + 2 * q + 40)
        y = MARGIN_MM + 30 + q + (i // 2) * (side + 2 * q + 30)
        corner_marker(sheet, int(mid), where, x, y, float(side))
    scale_bar(sheet, MARGIN_MM, A4_MM[1] - MARGIN_MM - 4)
    return Sheet(name, [sheet], bilevel=True)


def write_sheet(sheet: Sheet, out_dir: Path) -> list[Path]:
    """`<name>.pdf` (all pages) and `<name>.png` (or `<name>-N.png` per page)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    pages = [
        p.convert("L").point(lambda v: 255 if v >= 128 else 0).convert("1") if sheet.bilevel else p
        for p in sheet.pages
    ]
    pdf = out_dir / f"{sheet.name}.pdf"
    options = {} if sheet.bilevel else {"quality": 95}
    pages[0].save(pdf, "PDF", resolution=DPI, save_all=True, append_images=pages[1:], **options)
    written = [pdf]
    for i, page in enumerate(pages, 1):
        png = out_dir / (f"{sheet.name}.png" if len(pages) == 1 else f"{sheet.name}-{i}.png")
        page.save(png, dpi=(DPI, DPI), optimize=True)
        written.append(png)
    return written


def all_sheets(table: TableSettings) -> list[Sheet]:
    """The platform's sheets, then each game's own (its `sheets(table)` part, if it has one)."""
    from companion.games import GAMES

    sheets = [table_marker_sheet(table), charuco_sheet()]
    for info in GAMES.values():
        part = info.module("sheets")
        if part is not None:
            sheets.extend(part.sheets(table))
    return sheets


def measure_marker_mm(png: Path, marker_id: int) -> float:
    """Side of a marker on a written sheet in mm (how the tests check true scale)."""
    from companion.vision.markers import detect_markers

    img = cv2.imread(str(png), cv2.IMREAD_GRAYSCALE)
    if img is None:
        raise ValueError(f"cannot read {png}")
    found = detect_markers(img)
    if marker_id not in found:
        raise ValueError(f"marker {marker_id} not on {png.name}")
    c = found[marker_id].corners
    side_px = float(np.mean([np.linalg.norm(c[i] - c[(i + 1) % 4]) for i in range(4)]))
    return side_px * 25.4 / DPI
