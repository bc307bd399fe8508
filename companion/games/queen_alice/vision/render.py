"""Synthetic photographs of Queen Alice's Central board from above, with the answer key.

Every design choice is drawn per box (per scene): the board's art (ground, square colours
as one tint, checks, tinted rows or columns, frames, corner icons, grid lines), the chess
set (flat tokens of any outline with a printed symbol, wide checkers, turned Staunton-like
pieces, pegs with a knob, straight columns or cones, each a stack of solids drawn face by
face through the shared `VirtualCamera`, so a standing piece leans away from the camera as
in a photograph; any base width and height), the plastic or wood of the red (orange-red to
dark crimson) and the white (ivory to pale grey) pieces, glossy (a glint on every top) or
matte, the Crowns and Alice tokens. The camera
tilts up to 25 degrees at any turn, arms reach over any part of the board (never over more
than one corner marker), and the shared camera effects add uneven light, glare, shadow,
noise, blur and JPEG.

Printed colours are muted and darker than the white pieces: a board's art is designed so
that its red and white pieces stand out from every square, and that (with pieces standing
on their square) is what the reader assumes. The Crown slots may be printed in a crown's
gold (`crown_print`), so a slot's colour alone does not tell a Crown there.

Half the boxes are drawn wider (`Wider`, from a stream of their own, so the other half are
drawn exactly as before): the directions a real box, a real chess set and a real room may
differ from the rest in: prints as bright and coloured as the pieces, a panel or a medallion
of another tint in each square, an icon printed in each square's middle, reds from pink to
maroon and whites from cream to grey, and a lamp's colour and exposure over everything.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, cast

import cv2
import numpy as np

from companion.games.queen_alice.vision.geometry import BoardGeometry, Cell, Point
from companion.games.queen_alice.vision.reading import BoardReading, unsure_warning
from companion.sim import effects
from companion.sim.camera import VirtualCamera, framing_camera, rim_corners_mm
from companion.sim.conditions import Conditions
from companion.sim.solids import Face, Solid, draw_solids
from companion.vision.markers import marker_image

CANVAS_PX_PER_MM = 3.0
BOARD_RIM_MM = 18.0
"""The board's printed edge lies this far outside the corner-marker centres."""
MAX_HEIGHT_SQ = 1.0
"""The tallest piece drawn, in squares (a king of 30 mm on 30 mm squares)."""
STYLES = ("tokens", "checkers", "staunton", "pegs", "columns", "cones")

Colour = tuple[int, int, int]


@dataclass(frozen=True)
class Photo:
    image: np.ndarray
    truth: BoardReading
    """The answer key; squares an arm hides are its `unsure` (and named in its warnings)."""
    near_arm: frozenset[Cell]
    """Squares an arm comes near: a reader may call them unsure without being wrong."""
    camera: VirtualCamera
    position: BoardReading
    """Everything on the board, hidden or not."""
    design: dict[str, Any] = field(default_factory=dict, compare=False)
    """The scene's drawn choices (set style, colours, tilt, glare, arms): what a failures
    breakdown splits by."""
    arm_mask: np.ndarray | None = field(default=None, compare=False)
    """The pixels arms cover (None: no arm), for curves that need to know what is an arm."""


@dataclass(frozen=True)
class PieceSet:
    style: str
    red: Colour
    white: Colour
    scale: float
    """Heights times this (one set is taller than another)."""
    base_sq: float
    """The base's radius, in squares."""
    sides: int
    """Facets round a piece (4 and 6 are square and hexagonal tokens; 24 looks round)."""
    glossy: bool = False
    """A glint of the lamp on every piece's top."""


def _hsv(h: float, s: float, v: float) -> Colour:
    px = np.array([[[round(h) % 180, round(s * 255), round(v * 255)]]], np.uint8)
    b, g, r = cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0]
    return int(b), int(g), int(r)


def _muted(rng: np.random.Generator, v_lo: float = 0.15, v_hi: float = 0.62) -> Colour:
    return _hsv(rng.uniform(0, 180), rng.uniform(0, 0.35), rng.uniform(v_lo, v_hi))


WIDER = 0.5
"""Share of boxes drawn with the wider style (`Wider`)."""


@dataclass(frozen=True)
class Wider:
    """A box's choices beyond the house style's; each is None when this box keeps the
    house's."""

    palette: list[Colour] | None
    """The print's colours, taken in turn for the house style's own (ground, squares,
    lines, spaces): any hue, up to vivid, up to light."""
    panel: tuple[str, float, float] | None
    """Each square's inner panel: its shape ("square" or "round"), its half-width in
    squares, and its tint against the square's (a gain; 0 for one light panel colour)."""
    panel_colour: Colour
    motif: tuple[int, float, Colour] | None
    """An icon printed in each square's middle: its kind, its radius in squares, its
    colour."""
    pieces: tuple[Colour, Colour] | None
    """The red and the white, drawn wider."""
    cast: tuple[float, float, float] | None
    """The room's light: a gain per channel (B, G, R), a lamp's colour and exposure."""


def random_wider(seeds: list[int]) -> Wider | None:
    """The wider style of the box of `seeds`, from a stream of its own (None for the half of
    boxes drawn in the house style only)."""
    rng = np.random.default_rng([*seeds, len(seeds), 2])
    if rng.random() >= WIDER:
        return None

    def vivid() -> Colour:
        return _hsv(rng.uniform(0, 180), rng.uniform(0, 0.75), rng.uniform(0.15, 0.85))

    palette = [vivid() for _ in range(12)] if rng.random() < 0.5 else None
    panel = None
    if rng.random() < 0.4:
        gain = 0.0 if rng.random() < 0.4 else float(rng.choice([-1, 1]) * rng.uniform(0.2, 0.45))
        panel = (str(rng.choice(["square", "round"])), float(rng.uniform(0.25, 0.42)), gain)
    panel_colour = _hsv(rng.uniform(10, 35), rng.uniform(0.05, 0.3), rng.uniform(0.6, 0.9))
    motif = None
    if rng.random() < 0.35:
        motif = (int(rng.integers(3)), float(rng.uniform(0.06, 0.18)), vivid())
    pieces = None
    if rng.random() < 0.5:
        red = _hsv(rng.uniform(-14, 10) % 180, rng.uniform(0.55, 1.0), rng.uniform(0.25, 0.9))
        white = _hsv(rng.uniform(12, 35), rng.uniform(0.0, 0.3), rng.uniform(0.55, 1.0))
        pieces = (red, white)
    cast = None
    if rng.random() < 0.5:
        warm, exposure = rng.uniform(-1, 1), rng.uniform(0.65, 1.25)
        cast = (exposure * (1 - 0.2 * warm), exposure, exposure * (1 + 0.2 * warm))
    return Wider(palette, panel, panel_colour, motif, pieces, cast)


def random_piece_set(rng: np.random.Generator) -> PieceSet:
    style = str(rng.choice(STYLES))
    # OpenCV hue (0..180): -10 is a dark crimson's, +8 an orange-red's
    red = _hsv(rng.uniform(-10, 8) % 180, rng.uniform(0.5, 0.95), rng.uniform(0.3, 0.9))
    warm = rng.uniform(12, 30)
    white = _hsv(warm, rng.uniform(0.0, 0.22), rng.uniform(0.72, 0.97))
    flat = style in ("tokens", "checkers")
    sides = int(rng.choice([4, 6, 8, 24])) if style == "tokens" else int(rng.choice([12, 24]))
    base = rng.uniform(0.33, 0.4) if style == "checkers" else rng.uniform(0.24, 0.36)
    return PieceSet(
        style,
        red,
        white,
        float(rng.uniform(0.6, 1.0)),
        float(base),
        sides,
        bool(rng.random() < (0.3 if flat else 0.5)),
    )


def random_position(geom: BoardGeometry, rng: np.random.Generator) -> BoardReading:
    """Up to the box's most pieces of each colour (`pieces_per_colour`) anywhere, some Crowns
    left, the Alice tokens anywhere."""
    counts = [int(rng.integers(2, geom.pieces_per_colour + 1)) for _ in range(2)]
    picks = rng.choice(len(geom.cells), size=sum(counts), replace=False)
    squares = {
        geom.cells[int(i)]: ("red" if k < counts[0] else "white") for k, i in enumerate(picks)
    }
    alice: dict[str, int | None] = {
        c: int(rng.integers(0, len(geom.paths[c]))) for c in ("red", "white")
    }
    crowns = int(rng.integers(0, len(geom.crown_slots) + 1))
    return BoardReading(squares, frozenset(), crowns, alice)


# --- the printed board -----------------------------------------------------------------


def _px(p: Point) -> tuple[int, int]:
    """Board mm to canvas pixels, fixed-point shift 4 for anti-aliased drawing."""
    s = CANVAS_PX_PER_MM * 16
    return round((p[0] + BOARD_RIM_MM) * s), round((p[1] + BOARD_RIM_MM) * s)


def _rect(img: np.ndarray, a: Point, b: Point, colour: Colour, width: int = -1) -> None:
    cv2.rectangle(img, _px(a), _px(b), colour, width, cv2.LINE_AA, 4)


def _square_colours(geom: BoardGeometry, rng: np.random.Generator) -> dict[Cell, Colour]:
    """One tint, checks, or tinted rows or columns (the rows give resources, the columns
    actions: boards colour either)."""
    kind = str(rng.choice(["one", "checks", "rows", "columns"]))
    palette = [_muted(rng) for _ in range(4)]
    out = {}
    for r, c in geom.cells:
        key = {
            "one": 0,
            "checks": (r + c) % 2,
            "rows": min(r, geom.rows - 1 - r) % 4,
            "columns": min(c, geom.cols - 1 - c) % 4,
        }[kind]
        out[(r, c)] = palette[key]
    return out


def _icon(
    img: np.ndarray, centre: Point, size: float, colour: Colour, rng: np.random.Generator
) -> None:
    _icon_of(int(rng.integers(3)), img, centre, size, colour)


def _icon_of(kind: int, img: np.ndarray, centre: Point, size: float, colour: Colour) -> None:
    """A disc (0), a diamond (1) or a bar (2)."""
    if kind == 0:
        cv2.circle(
            img, _px(centre), round(size * CANVAS_PX_PER_MM * 16), colour, -1, cv2.LINE_AA, 4
        )
    elif kind == 1:
        pts = [
            (centre[0] + size * math.cos(a), centre[1] + size * math.sin(a))
            for a in np.linspace(0, 2 * math.pi, 4, endpoint=False) + math.pi / 4
        ]
        cv2.fillPoly(img, [np.array([_px(p) for p in pts], np.int32)], colour, cv2.LINE_AA, 4)
    else:
        cv2.line(
            img,
            _px((centre[0] - size, centre[1])),
            _px((centre[0] + size, centre[1])),
            colour,
            2,
            cv2.LINE_AA,
            4,
        )


def _square_art(img: np.ndarray, geom: BoardGeometry, rng: np.random.Generator) -> np.ndarray:
    """Print that is not one flat tint: each square shaded from one side to the other, and
    a fine printed texture (lines or dots) over the grid, each on some boards."""
    out = img.astype(np.float32)
    (gx0, gy0), (gx1, gy1) = geom.grid_box_mm
    a = (
        round((gx0 + BOARD_RIM_MM) * CANVAS_PX_PER_MM),
        round((gy0 + BOARD_RIM_MM) * CANVAS_PX_PER_MM),
    )
    b = (
        round((gx1 + BOARD_RIM_MM) * CANVAS_PX_PER_MM),
        round((gy1 + BOARD_RIM_MM) * CANVAS_PX_PER_MM),
    )
    grid = out[a[1] : b[1], a[0] : b[0]]
    h, w = grid.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    side = geom.square_mm * CANVAS_PX_PER_MM
    if rng.random() < 0.3:  # each square lighter toward one side
        angle = rng.uniform(0, 2 * math.pi)
        u = ((xx % side) / side - 0.5) * math.cos(angle) + ((yy % side) / side - 0.5) * math.sin(
            angle
        )
        grid *= (1 + rng.uniform(0.1, 0.25) * u)[..., None]
    if rng.random() < 0.3:  # a fine texture printed over the grid
        period = rng.uniform(1.5, 4) * CANVAS_PX_PER_MM
        amp = rng.uniform(0.04, 0.1)
        if rng.random() < 0.5:
            angle = rng.uniform(0, math.pi)
            wave = np.sin((xx * math.cos(angle) + yy * math.sin(angle)) * 2 * math.pi / period)
        else:
            wave = np.sin(xx * 2 * math.pi / period) * np.sin(yy * 2 * math.pi / period)
        grid *= (1 + amp * wave)[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


CROWN_PRINT = 0.25
"""Share of boards whose Crown slots are printed in a crown's gold (a painted crown marks
where a Crown goes), so a slot's print passes for a Crown by its colour."""


def crown_print(rng: np.random.Generator) -> Colour | None:
    """The gold the Crown slots are printed in, or None for the spaces' own print."""
    if rng.random() >= CROWN_PRINT:
        return None
    return _hsv(rng.uniform(15, 32), rng.uniform(0.4, 0.9), rng.uniform(0.5, 0.9))


def slots_print(seed: int | tuple[int, ...]) -> Colour | None:
    """`crown_print` of the box `render_photo(geom, seed)` draws, without drawing it (from
    the stream of its own that box takes it from): curves over gold-printed slots only."""
    seeds = _seeds(seed)
    return crown_print(np.random.default_rng([*seeds, len(seeds), 1]))


def _tints(wide: Wider | None) -> Callable[[Colour], Colour]:
    """The print's colours: the house style's, or each of its colours taken in turn to the
    wider palette's next."""
    if wide is None or wide.palette is None:
        return lambda colour: colour
    palette, taken = wide.palette, dict[Colour, Colour]()

    def tint(colour: Colour) -> Colour:
        if colour not in taken:
            taken[colour] = palette[len(taken) % len(palette)]
        return taken[colour]

    return tint


def _panel(img: np.ndarray, centre: Point, sq: float, colour: Colour, wide: Wider | None) -> None:
    """A square's inner panel and its middle's icon, when the wider style draws them."""
    if wide is None:
        return
    if wide.panel is not None:
        shape, half, gain = wide.panel
        tint = wide.panel_colour if gain == 0 else _gain(colour, 1 + gain)
        r = half * sq
        if shape == "round":
            radius = round(r * CANVAS_PX_PER_MM * 16)
            cv2.circle(img, _px(centre), radius, tint, -1, cv2.LINE_AA, 4)
        else:
            _rect(img, (centre[0] - r, centre[1] - r), (centre[0] + r, centre[1] + r), tint)
    if wide.motif is not None:
        kind, size, ink = wide.motif
        _icon_of(kind, img, centre, size * sq, ink)


def _gain(colour: Colour, gain: float) -> Colour:
    return cast(Colour, tuple(int(np.clip(v * gain, 0, 255)) for v in colour))


def board_canvas(
    geom: BoardGeometry,
    rng: np.random.Generator,
    slots: Colour | None = None,
    wide: Wider | None = None,
) -> np.ndarray:
    """The printed board; `slots`, when given, the Crown slots' print (`crown_print`);
    `wide`, the box's wider style (`random_wider`)."""
    tint = _tints(wide)
    w_mm, h_mm = geom.board_mm
    w = round((w_mm + 2 * BOARD_RIM_MM) * CANVAS_PX_PER_MM)
    h = round((h_mm + 2 * BOARD_RIM_MM) * CANVAS_PX_PER_MM)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = tint(_muted(rng))
    if rng.random() < 0.5:  # soft painted clouds behind everything, in the ground's hue
        clouds = cv2.resize(
            rng.uniform(0.8, 1.2, (8, 8)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC
        )
        img = np.clip(img * clouds[..., None], 0, 255).astype(np.uint8)
    sq = geom.square_mm
    colours = {cell: tint(colour) for cell, colour in _square_colours(geom, rng).items()}
    inset = rng.uniform(0, 1.5) if rng.random() < 0.4 else 0.0
    frame = tint(_muted(rng)) if rng.random() < 0.4 else None
    icons = rng.random() < 0.5
    icon_colour = tint(_muted(rng))
    for cell, colour in colours.items():
        x, y = geom.cell_mm(cell)
        _rect(
            img,
            (x - sq / 2 + inset, y - sq / 2 + inset),
            (x + sq / 2 - inset, y + sq / 2 - inset),
            colour,
        )
        _panel(img, (x, y), sq, colour, wide)
        if frame is not None:
            pad = rng.uniform(2, 4)
            _rect(
                img,
                (x - sq / 2 + pad, y - sq / 2 + pad),
                (x + sq / 2 - pad, y + sq / 2 - pad),
                frame,
                2,
            )
        if icons:  # an action icon in a corner, clear of where a piece stands
            _icon(img, (x - sq * 0.38, y - sq * 0.38), sq * 0.07, icon_colour, rng)
    img = _square_art(img, geom, rng)
    if rng.random() < 0.7:
        line = tint(_muted(rng))
        width = max(1, round(rng.uniform(0.5, 2.0) * CANVAS_PX_PER_MM))
        (gx0, gy0), (gx1, gy1) = geom.grid_box_mm
        for k in range(geom.cols + 1):
            cv2.line(
                img, _px((gx0 + k * sq, gy0)), _px((gx0 + k * sq, gy1)), line, width, cv2.LINE_AA, 4
            )
        for k in range(geom.rows + 1):
            cv2.line(
                img, _px((gx0, gy0 + k * sq)), _px((gx1, gy0 + k * sq)), line, width, cv2.LINE_AA, 4
            )
    t = geom.token_mm
    space_fill, space_line = tint(_muted(rng)), tint(_muted(rng))
    round_spaces = rng.random() < 0.5
    for spot in [*geom.paths["red"], *geom.paths["white"], *geom.crown_slots]:
        r = t * rng.uniform(0.6, 0.75)
        fill = slots if slots is not None and spot in geom.crown_slots else space_fill
        if round_spaces:
            cv2.circle(img, _px(spot), round(r * CANVAS_PX_PER_MM * 16), fill, -1, cv2.LINE_AA, 4)
            cv2.circle(
                img, _px(spot), round(r * CANVAS_PX_PER_MM * 16), space_line, 2, cv2.LINE_AA, 4
            )
        else:
            _rect(img, (spot[0] - r, spot[1] - r), (spot[0] + r, spot[1] + r), fill)
            _rect(img, (spot[0] - r, spot[1] - r), (spot[0] + r, spot[1] + r), space_line, 2)
    grain = rng.normal(0, rng.uniform(1.5, 5), (h, w, 1)).astype(np.float32)
    img = np.clip(img.astype(np.float32) + grain, 0, 255).astype(np.uint8)
    side = geom.marker_side_mm
    px = round(side * CANVAS_PX_PER_MM)
    for m in geom.markers:
        cx, cy = m.center_mm
        q = 4.0
        _rect(
            img,
            (cx - side / 2 - q, cy - side / 2 - q),
            (cx + side / 2 + q, cy + side / 2 + q),
            (236, 238, 234),
        )
        x0 = round((cx - side / 2 + BOARD_RIM_MM) * CANVAS_PX_PER_MM)
        y0 = round((cy - side / 2 + BOARD_RIM_MM) * CANVAS_PX_PER_MM)
        tag = cv2.cvtColor(marker_image(m.id, px), cv2.COLOR_GRAY2BGR)
        img[y0 : y0 + px, x0 : x0 + px] = np.where(tag > 127, 234, 24).astype(np.uint8)
    return img


# --- solids ----------------------------------------------------------------------------


def _ring(centre: np.ndarray, radius: float, z: float, sides: int, turn: float) -> np.ndarray:
    a = turn + np.linspace(0, 2 * math.pi, sides, endpoint=False)
    return np.stack(
        [centre[0] + radius * np.cos(a), centre[1] + radius * np.sin(a), np.full(sides, z)], axis=1
    )


def frustum(
    centre: np.ndarray,
    r0: float,
    r1: float,
    z0: float,
    z1: float,
    sides: int,
    turn: float,
    paint: Colour,
    decal: tuple[float, Colour] | None = None,
) -> Solid:
    """A turned section from height z0 (radius r0) to z1 (radius r1), mm above the board."""
    lo, hi = _ring(centre, r0, -z0, sides, turn), _ring(centre, r1, -z1, sides, turn)
    faces = []
    for i in range(sides):
        j = (i + 1) % sides
        mid = (lo[i] + lo[j] + hi[i] + hi[j]) / 4
        out = np.array([mid[0] - centre[0], mid[1] - centre[1], 0.0])
        slope = (r0 - r1) / max(1e-6, z1 - z0)
        normal = out / max(1e-9, float(np.linalg.norm(out))) + np.array([0, 0, -slope])
        faces.append(
            Face(np.array([hi[j], hi[i], lo[i], lo[j]]), normal / np.linalg.norm(normal), paint)
        )
    faces.append(Face(hi, np.array([0.0, 0.0, -1.0]), paint))
    decals = []
    if decal is not None:
        size, colour = decal
        decals.append((_ring(centre, size, -z1 - 0.05, 3 + int(size) % 3, turn), colour))
    return Solid(faces, np.array([centre[0], centre[1], -(z0 + z1) / 2]), decals)


KIND_HEIGHT = {"pawn": 0.6, "knight": 0.75, "bishop": 0.8, "rook": 0.7, "queen": 0.92, "king": 1.0}


def piece_solids(
    centre: np.ndarray,
    paint: Colour,
    kind: str,
    pset: PieceSet,
    sq: float,
    rng: np.random.Generator,
) -> list[Solid]:
    solids = _piece_shape(centre, paint, kind, pset, sq, rng)
    if pset.glossy:  # the lamp's glint on the top: a small pale spot off its centre
        top = solids[-1]
        z = float(np.min(top.faces[-1].quad[:, 2]))
        r = float(np.linalg.norm(top.faces[-1].quad[0, :2] - centre))
        spot = centre + rng.uniform(-0.35, 0.35, 2) * r
        glint = cast(Colour, tuple(int(min(255, v * 0.3 + 190)) for v in paint))
        top.decals.append((_ring(spot, r * rng.uniform(0.2, 0.35), z - 0.1, 8, 0.0), glint))
    return solids


def _piece_shape(
    centre: np.ndarray,
    paint: Colour,
    kind: str,
    pset: PieceSet,
    sq: float,
    rng: np.random.Generator,
) -> list[Solid]:
    turn = float(rng.uniform(0, 2 * math.pi))
    base = pset.base_sq * sq
    if pset.style == "checkers":  # a wide low disc with a ridged rim and a sunk middle
        h = rng.uniform(4, 9)
        dark = cast(Colour, tuple(int(v * 0.8) for v in paint))
        return [
            frustum(centre, base, base * 0.98, 0, h, 24, turn, paint, (base * 0.7, dark)),
        ]
    if pset.style == "tokens":
        h = rng.uniform(3, 8)
        dark = cast(Colour, tuple(int(v * 0.55) for v in paint))
        return [
            frustum(
                centre,
                base,
                base * 0.97,
                0,
                h,
                pset.sides,
                turn,
                paint,
                (base * rng.uniform(0.2, 0.4), dark),
            )
        ]
    tall = KIND_HEIGHT[kind] * MAX_HEIGHT_SQ * sq * pset.scale
    if pset.style == "staunton":
        foot = rng.uniform(3, 5)
        neck = tall * 0.8
        return [
            frustum(centre, base, base * 0.85, 0, foot, pset.sides, turn, paint),
            frustum(centre, base * 0.7, base * 0.35, foot, neck, pset.sides, turn, paint),
            frustum(centre, base * 0.6, base * 0.45, neck, tall, pset.sides, turn, paint),
        ]
    if pset.style == "columns":
        return [
            frustum(centre, base, base, 0, rng.uniform(2, 4), pset.sides, turn, paint),
            frustum(centre, base * 0.7, base * 0.7, 2, tall, pset.sides, turn, paint),
        ]
    if pset.style == "cones":
        return [frustum(centre, base, base * 0.25, 0, tall, pset.sides, turn, paint)]
    return [
        frustum(centre, base * 0.9, base * 0.6, 0, tall * 0.75, pset.sides, turn, paint),
        frustum(centre, base * 0.75, base * 0.5, tall * 0.75, tall, pset.sides, turn, paint),
    ]


def scene_solids(
    geom: BoardGeometry,
    position: BoardReading,
    pset: PieceSet,
    rng: np.random.Generator,
    crowns_at: list[int] | None = None,
) -> list[Solid]:
    """The pieces, Crowns and Alice tokens; `crowns_at`, when given, gets the display slots
    a Crown stands in (the answer key per slot, for curves)."""
    sq = geom.square_mm
    kinds = list(KIND_HEIGHT)
    solids: list[Solid] = []
    for cell, colour in position.squares.items():
        x, y = geom.cell_mm(cell)
        centre = np.array([x, y]) + rng.uniform(-0.05, 0.05, 2) * sq
        paint = _jitter(pset.red if colour == "red" else pset.white, rng)
        solids += piece_solids(centre, paint, kinds[int(rng.integers(len(kinds)))], pset, sq, rng)
    t = geom.token_mm / 2
    gold = _hsv(rng.uniform(18, 30), rng.uniform(0.6, 0.9), rng.uniform(0.6, 0.9))
    crown_slots = rng.permutation(len(geom.crown_slots))[: position.crowns_left or 0]
    if crowns_at is not None:
        crowns_at.extend(int(i) for i in crown_slots)
    spots: list[tuple[Point, Colour]] = [(geom.crown_slots[int(i)], gold) for i in crown_slots]
    for colour in ("red", "white"):
        index = position.alice[colour]
        path = geom.paths[colour]
        if index is None:
            continue
        spots.append((path[index], pset.red if colour == "red" else pset.white))
        ahead = [i for i in range(index + 1, len(path))]
        if ahead and rng.random() < 0.3:  # a Crown placed ahead of Alice
            spots.append((path[int(rng.choice(ahead))], gold))
    for (x, y), paint in spots:
        centre = np.array([x, y]) + rng.uniform(-1.5, 1.5, 2)
        solids.append(
            frustum(
                centre,
                t,
                t * 0.9,
                0,
                rng.uniform(3, 7),
                int(rng.choice([5, 8, 24])),
                float(rng.uniform(0, 6.3)),
                _jitter(paint, rng),
            )
        )
    return solids


def _jitter(colour: Colour, rng: np.random.Generator, amount: float = 8) -> Colour:
    return tuple(int(np.clip(c + rng.uniform(-amount, amount), 0, 255)) for c in colour)  # type: ignore[return-value]


# --- the photograph --------------------------------------------------------------------


def board_corners_mm(geom: BoardGeometry) -> np.ndarray:
    return rim_corners_mm(geom.board_mm, BOARD_RIM_MM)


def random_camera(
    geom: BoardGeometry, rng: np.random.Generator, size: tuple[int, int], max_tilt_deg: float
) -> VirtualCamera:
    """A camera that sees the whole board, at any turn of it, tilted up to the limit."""
    return framing_camera(
        board_corners_mm(geom), geom.square_mm, rng, size, max_tilt_deg, (330, 420)
    )


def _square_outline_px(
    geom: BoardGeometry, cam: VirtualCamera, cell: Cell, height: float
) -> np.ndarray:
    """The image region a square and whatever stands on it can take (its footprint and the
    same raised to `height`)."""
    x, y = geom.cell_mm(cell)
    s = geom.square_mm * 0.42
    pts = [(x + dx, y + dy, z) for dx in (-s, s) for dy in (-s, s) for z in (0.0, -height)]
    return cv2.convexHull(cam.project(np.array(pts)).astype(np.float32))


def _spot_outline_px(cam: VirtualCamera, spot: Point, radius: float) -> np.ndarray:
    pts = [
        (spot[0] + dx, spot[1] + dy, z)
        for dx in (-radius, radius)
        for dy in (-radius, radius)
        for z in (0.0, -8.0)
    ]
    return cv2.convexHull(cam.project(np.array(pts)).astype(np.float32))


def _covered(mask: np.ndarray, hull: np.ndarray) -> float:
    """Share of a convex region under the mask."""
    region = np.zeros_like(mask)
    cv2.fillConvexPoly(region, np.round(hull).astype(np.int32), 255)
    area = int(np.count_nonzero(region))
    return 0.0 if area == 0 else float(np.count_nonzero(mask & region)) / area


def add_hands(
    img: np.ndarray, geom: BoardGeometry, cam: VirtualCamera, rng: np.random.Generator, count: int
) -> tuple[np.ndarray, np.ndarray]:
    """Arms reaching over the board, hiding at most one corner marker; returns the picture
    and the union of the arms' masks."""
    h, w = img.shape[:2]
    total = np.zeros((h, w), np.uint8)
    s = geom.marker_side_mm / 2 + 3
    quads = [
        cam.project(
            np.array(
                [(m.center_mm[0] + dx, m.center_mm[1] + dy) for dx in (-s, s) for dy in (-s, s)]
            )
        )
        for m in geom.markers
    ]
    hidden_before: set[int] = set()
    bw, bh = geom.board_mm
    for _ in range(count):
        for _attempt in range(6):
            reach_mm = (rng.uniform(0.1, 0.9) * bw, rng.uniform(0.1, 0.9) * bh)
            reach = cam.project(np.array([[reach_mm[0], reach_mm[1], -40.0]]))[0]
            at = (float(reach[0]), float(reach[1]))
            arm = effects.arm_clear_of(img, rng, at, quads, hidden_before, margin_px=9)
            if arm is None:
                continue
            img, mask, hidden = arm
            hidden_before |= hidden
            total = total | mask
            break
    return img, total


def _with_arms(
    geom: BoardGeometry, truth: BoardReading, cam: VirtualCamera, mask: np.ndarray
) -> tuple[BoardReading, frozenset[Cell]]:
    """The answer key with what the arms hide: squares (whatever stands on them), and the
    Crowns and Alice counts when an arm is over a slot or a path."""
    if not mask.any():
        return truth, frozenset()
    near = cv2.dilate(mask, np.ones((7, 7), np.uint8))
    tall = MAX_HEIGHT_SQ * geom.square_mm
    hidden, near_arm = set(), set()
    for cell in geom.cells:
        hull = _square_outline_px(geom, cam, cell, tall)
        if _covered(near, hull) > 0:
            near_arm.add(cell)
            inner = _square_outline_px(geom, cam, cell, tall if cell in truth.squares else 0)
            if _covered(mask, inner) > 0:
                hidden.add(cell)
    r = geom.token_mm * 0.6
    crowns = truth.crowns_left
    if any(_covered(near, _spot_outline_px(cam, s, r)) > 0 for s in geom.crown_slots):
        crowns = None
    alice = dict(truth.alice)
    for colour in alice:
        if any(_covered(near, _spot_outline_px(cam, s, r)) > 0 for s in geom.paths[colour]):
            alice[colour] = None
    warnings = tuple(unsure_warning(c, "an arm over it") for c in sorted(hidden))
    squares = {c: v for c, v in truth.squares.items() if c not in hidden}
    return (
        BoardReading(squares, frozenset(hidden), crowns, alice, {}, warnings),
        frozenset(near_arm),
    )


def render_photo(
    geom: BoardGeometry, seed: int | tuple[int, ...], conditions: Conditions = Conditions()
) -> Photo:
    """The photograph number `seed`: the same seed always gives the same picture.

    The answer key leaves out what an arm hides: hidden squares are `unsure`, and a Crown
    count or an Alice position under an arm is None (a reader may still get it right).
    """
    rng = np.random.default_rng(_seeds(seed))
    position, pset, cam, table, canvas, slots = _box(geom, rng, conditions, _seeds(seed))
    img = cam.render_plane(
        canvas, CANVAS_PX_PER_MM, (-BOARD_RIM_MM, -BOARD_RIM_MM), background=table
    )
    light = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), -1.0])
    crowns_at: list[int] = []
    solids = scene_solids(geom, position, pset, rng, crowns_at)
    draw_solids(img, cam, solids, light / np.linalg.norm(light))
    img, mask = add_hands(img, geom, cam, rng, int(rng.integers(0, conditions.hands + 1)))
    wide = random_wider(_seeds(seed))
    img = _lit(img, wide)
    truth, near_arm = _with_arms(geom, position, cam, mask)
    faults = effects.random_faults(
        rng, blur_max=conditions.blur_max, jpeg_min=conditions.jpeg_min, glare=conditions.glare
    )
    image = effects.photograph(img, rng, **faults)
    design = {
        "style": pset.style,
        "glossy": pset.glossy,
        "red": pset.red,
        "white": pset.white,
        "tilt_deg": round(_tilt_deg(cam), 1),
        "glare": faults["glare_spots"],
        "shadow": faults["shadow"],
        "arm": bool(mask.any()),
        "crown_print": slots is not None,
        "crowns_at": sorted(crowns_at),
        "wider": _wider_names(wide),
    }
    return Photo(image, truth, near_arm, cam, position, design, mask if mask.any() else None)


def _lit(img: np.ndarray, wide: Wider | None) -> np.ndarray:
    """The room's light over the table (`Wider.cast`): a lamp's colour and the exposure."""
    if wide is None or wide.cast is None:
        return img
    gain = np.array(wide.cast, np.float32)
    return np.clip(img.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def _wider_names(wide: Wider | None) -> list[str]:
    """Which of the wider choices a box took (for the failures' breakdown)."""
    if wide is None:
        return []
    named = {
        "print": wide.palette,
        "panel": wide.panel,
        "motif": wide.motif,
        "pieces": wide.pieces,
        "cast": wide.cast,
    }
    return [name for name, value in named.items() if value is not None]


def _seeds(seed: int | tuple[int, ...]) -> list[int]:
    return list(seed) if isinstance(seed, tuple) else [seed]


def _box(
    geom: BoardGeometry, rng: np.random.Generator, conditions: Conditions, seeds: list[int]
) -> tuple[BoardReading, PieceSet, VirtualCamera, np.ndarray, np.ndarray, Colour | None]:
    """A scene's position, chess set, camera, table and printed board, in the order
    `render_photo` draws them (so `render_empty` can draw the same box again)."""
    position = random_position(geom, rng)
    pset = random_piece_set(rng)
    wide = random_wider(seeds)
    if wide is not None and wide.pieces is not None:
        pset = replace(pset, red=wide.pieces[0], white=wide.pieces[1])
    size = conditions.sizes[int(rng.integers(len(conditions.sizes)))]
    cam = random_camera(geom, rng, size, conditions.max_tilt_deg)
    table = effects.table_texture(cam.width, cam.height, rng)
    # the Crown slots' print from a stream of its own: every other choice as it was drawn
    slots = slots_print(tuple(seeds))
    canvas = board_canvas(geom, rng, slots, wide)
    return position, pset, cam, table, canvas, slots


def render_empty(
    geom: BoardGeometry, seed: int | tuple[int, ...], conditions: Conditions = Conditions()
) -> np.ndarray:
    """The "teach your board" photograph of the box of `render_photo(geom, seed)`: the same
    printed board with nothing on it, from another pose, on another table, under other
    light (a lamp to another side, maybe a glare or a shadow), with no arm and no token."""
    seeds = _seeds(seed)
    _, _, _, _, canvas, _ = _box(geom, np.random.default_rng(seeds), conditions, seeds)
    rng = np.random.default_rng([*_seeds(seed), len(_seeds(seed))])  # a stream of its own
    size = conditions.sizes[int(rng.integers(len(conditions.sizes)))]
    cam = random_camera(geom, rng, size, conditions.max_tilt_deg)
    table = effects.table_texture(cam.width, cam.height, rng)
    img = cam.render_plane(
        canvas, CANVAS_PX_PER_MM, (-BOARD_RIM_MM, -BOARD_RIM_MM), background=table
    )
    return effects.photograph(
        img,
        rng,
        **effects.random_faults(
            rng, blur_max=conditions.blur_max, jpeg_min=conditions.jpeg_min, glare=conditions.glare
        ),
    )


def _tilt_deg(cam: VirtualCamera) -> float:
    """The optical axis's angle from straight down."""
    axis = cam.R.T @ np.array([0.0, 0.0, 1.0])
    return math.degrees(math.acos(min(1.0, abs(float(axis[2])))))
