"""Synthetic photographs of the Mirror Mansion box, with the ground truth of what stands where.

The board is printed art (paper grain, stone floor, corridors, light-ray guide lines, the
slots that show the yellow insert through, Victor's movement fields and the four corner
markers), photographed with the shared `VirtualCamera`. Everything that stands up (castle
cards, mirrors, the door, Victor) is a solid drawn face by face at its true height, far faces
first, so under tilt a mirror is a shiny strip whose top edge is displaced from its slot
exactly as in a real photograph. Then come the loose things that must not confuse the
reader (blue drops, the die, hands) and what a camera adds (uneven light, glints, noise,
blur, JPEG). The answer key is the `BoxState` the reader should print.

Sizes that only matter for the look (how wide a card is, how thick a mirror) are here;
sizes the reader relies on come from the board model and the sticker settings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from companion.games.mirror_mansion.rules.board import Board, Cell
from companion.games.mirror_mansion.vision.film_script import Beat, FilmScript, Tap, script_game
from companion.games.mirror_mansion.vision.scene import BoxState, DoorSeen, MirrorSeen, random_box
from companion.games.mirror_mansion.vision.stickers import DEFAULT_STICKERS, StickerSettings
from companion.sim import effects
from companion.sim.camera import VirtualCamera, arm_reach, framing_camera
from companion.sim.solids import Face, Paint, Solid, draw_solids, slab
from companion.vision.markers import marker_image

CANVAS_PX_PER_MM = 3.0
BOX_MARGIN_MM = 25.0
"""The box's rim lies this far outside the corner-marker centres."""
CARD_WIDTH_MM = 52.0
CARD_THICKNESS_MM = 2.0
MIRROR_THICKNESS_MM = 3.0
DOOR_THICKNESS_MM = 2.5
VICTOR_HEIGHT_MM = 48.0
VICTOR_RADIUS_MM = 9.0
DIE_SIDE_MM = 16.0
DROP_RADIUS_MM = 6.5

GREEN_BGR = (40, 175, 45)
MAGENTA_BGR = (175, 35, 205)
ORANGE_BGR = (15, 120, 245)

Vec = np.ndarray


@dataclass(frozen=True)
class Conditions:
    """How hard a photograph is: the ranges the reader must cope with."""

    max_tilt_deg: float = 25.0
    hands: int = 2
    """At most this many arms reach over the box (none of them hides a sticker)."""
    blur_max: float = 1.2
    jpeg_min: int = 70
    glints: bool = True
    clutter: bool = True
    sizes: tuple[tuple[int, int], ...] = ((1280, 960), (1280, 960), (1280, 960), (1600, 1200))
    style: str = "house"
    """"house": our reference box and sticker kit as the models describe them; "random": each
    box drawn with its own make and look (`random_look`): frames, cards and door of any
    colour (`PiecePaints`; doors thin or thick, their tops near the board's colour or worn),
    stickers stuck by hand, white balance, heights, board art and clutter anywhere (domain
    randomisation)."""


@dataclass(frozen=True)
class Photo:
    image: np.ndarray
    truth: BoxState
    camera: VirtualCamera
    look: BoxLook | None = None
    """The box's own look when it was drawn at random (None: the house's)."""


# --- the camera ------------------------------------------------------------------------


def box_corners_mm(board: Board) -> np.ndarray:
    lo = -BOX_MARGIN_MM
    hi_x = board.markers[1].center_mm[0] + BOX_MARGIN_MM
    hi_y = board.markers[2].center_mm[1] + BOX_MARGIN_MM
    return np.array([[lo, lo], [hi_x, lo], [hi_x, hi_y], [lo, hi_y]], np.float64)


def random_camera(
    board: Board, rng: np.random.Generator, size: tuple[int, int], max_tilt_deg: float
) -> VirtualCamera:
    """A camera that sees the whole box, at any turn of the box, tilted up to the limit."""
    return framing_camera(
        box_corners_mm(board), 30.0, rng, size, max_tilt_deg, (540, 640), grow=1.08, tries=21
    )


# --- the look of one box ---------------------------------------------------------------


@dataclass(frozen=True)
class Sticker:
    """One dot as it was stuck on a piece's top edge, in the piece's own frame."""

    along_mm: float
    """From the middle of the top edge, along it."""
    across_mm: float
    """Off the edge's middle line: toward the reflective face for a mirror; for a card or
    the door, toward the board's centre."""
    diameter_mm: float
    turn_deg: float
    """Stuck slightly askew: the dot is a little oval, so its turn shows."""
    squash: float
    """Minor over major axis of the oval (1 = round)."""
    bgr: tuple[int, int, int] | None
    """None: the kit's colour with the print's small spread, drawn when painted."""


@dataclass(frozen=True)
class BoxLook:
    """Everything about one physical box and its sticker kit that the reader must not assume.

    The house look is the models' reference box (nominal heights, dots where the board model
    puts them); `random_look` draws a box of its own, as a user's hands and room make it.
    """

    mirror_height_mm: float
    card_height_mm: float
    door_height_mm: float
    mirror_dots: dict[Cell, Sticker]
    window_dot: Sticker | None
    door_dot: Sticker | None
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """Gains on B, G, R that the room's light and the camera's white balance leave."""
    reflected_dot: Cell | None = None
    """A mirror whose face shows a green dot reflected from another mirror."""
    varied_art: bool = False
    clutter_anywhere: bool = False
    paints: PiecePaints | None = None
    """The colours this box's pieces were made in (None: the house's)."""


@dataclass(frozen=True)
class PiecePaints:
    """What one box's pieces are made of and printed in: every choice a publisher makes.

    Mirror frames come in black, grey or silver plastic, wood or a colour, so their tops may
    be darker or lighter than the board; cards' edges may be white card, grey board or
    printed black; a mirror's face shows a bright or a dim room.
    """

    mirror_top: tuple[int, int, int]
    mirror_back: tuple[int, int, int]
    mirror_thickness_mm: float
    face_brightness: tuple[float, float]
    card_top: tuple[int, int, int]
    card_front: tuple[int, int, int]
    card_back: tuple[int, int, int]
    door: tuple[int, int, int]
    door_top: tuple[int, int, int]
    door_thickness_mm: float = DOOR_THICKNESS_MM
    door_top_like_board: float = 0.0
    """How far the door's top is painted toward the board under it (0: its own paint; 1: the
    board's colour): a door top of nearly the board's colour gives a weak top edge."""
    door_top_wear: float = 0.0
    """Share of the door top's length rubbed down to the door's face colour, in patches."""
    mirror_top_line_mm: float = 0.0
    """Where the middle of a mirror's top lies off its slot's line, toward its reflective
    face (negative: behind it). A frame may stand centred in its slot, or a mirror sheet may
    be glued on the front of a thick backing whose face stands on the slot's line, its top
    then lying behind the line by half its thickness; a dot is stuck on the reflective half
    of that top (`Sticker.across_mm` counts from the top's middle)."""


def _house_sticker(board: Board, across: float) -> Sticker:
    return Sticker(0.0, across, board.dot_diameter_mm, 0.0, 1.0, None)


def house_look(board: Board, box: BoxState, stickers: StickerSettings) -> BoxLook:
    """The reference box: every dot where the board model says, at the nominal heights."""
    return BoxLook(
        board.mirror_height_mm,
        board.card_height_mm,
        stickers.door_height_mm,
        {
            m.cell: _house_sticker(board, board.dot_offset_mm)
            for m in box.mirrors
            if m.facing is not None
        },
        None if box.window is None else _house_sticker(board, 0.0),
        None if box.door is None else _house_sticker(board, 0.0),
    )


def _hand_stuck(
    rng: np.random.Generator,
    bgr: tuple[int, int, int],
    edge_mm: float,
    across_mm: tuple[float, float],
) -> Sticker:
    """A dot stuck by hand anywhere along an edge `edge_mm` long (and not over its end)."""
    d = float(rng.uniform(6.0, 12.0))
    reach = max(0.0, edge_mm / 2 - d / 2 - 1.0)
    hue_shift = rng.uniform(-1, 1, 3) * np.array([25.0, 25.0, 25.0])
    # A matte or faded print is greyer, a dim corner darker: the kit's colour only roughly.
    fade, light = float(rng.uniform(0.0, 0.3)), float(rng.uniform(0.75, 1.1))
    base = np.asarray(bgr, float) + hue_shift
    base = light * ((1 - fade) * base + fade * base.mean())
    b, g, r = (int(np.clip(v, 0, 255)) for v in base)
    return Sticker(
        float(rng.uniform(-reach, reach)),
        float(rng.uniform(*across_mm)),
        d,
        float(rng.uniform(0, 180)),
        float(rng.uniform(0.85, 1.0)),
        (b, g, r),
    )


def _any_paint(rng: np.random.Generator, max_sat: float = 0.45) -> tuple[int, int, int]:
    """Any hue at any brightness from near black to near white, moderately saturated."""
    return tuple(int(v) for v in _art_colour(rng, 15, 245, max_sat))  # type: ignore[return-value]


def random_paints(rng: np.random.Generator) -> PiecePaints:
    lo = float(rng.uniform(40, 170))
    # Mirror tops from a thin acrylic sheet's 2 mm to a thick backing's 9 mm, standing
    # centred in the slot or with the reflective face on the slot's line (the top behind it).
    thickness = float(rng.uniform(2.0, 9.0))
    centred = rng.random() < 0.5
    top_line = float(rng.uniform(-1.0, 1.0)) + (0.0 if centred else -thickness / 2)
    return PiecePaints(
        mirror_top=_any_paint(rng),
        mirror_back=_any_paint(rng),
        mirror_thickness_mm=thickness,
        face_brightness=(lo, lo + float(rng.uniform(30, 80))),
        card_top=_any_paint(rng),
        card_front=_any_paint(rng, 0.6),
        card_back=_any_paint(rng, 0.6),
        door=_any_paint(rng),
        door_top=_any_paint(rng),
        # Doors are made as freely as frames: thin card or thick wood, a top painted like the
        # board or the door's face, its edge worn, so its top edge may be faint.
        door_thickness_mm=float(rng.uniform(1.0, 4.5)),
        door_top_like_board=float(rng.uniform(0.5, 0.95)) if rng.random() < 0.35 else 0.0,
        door_top_wear=float(rng.uniform(0.1, 0.6)) if rng.random() < 0.35 else 0.0,
        mirror_top_line_mm=top_line,
    )


def random_look(
    board: Board, box: BoxState, stickers: StickerSettings, rng: np.random.Generator
) -> BoxLook:
    """A box of its own: dots stuck by hand, the room's white balance, heights a few mm off,
    pieces of any colour (`PiecePaints`)."""
    # "A few mm off the nominal offset" toward the reflective face, never over the middle line.
    off = board.dot_offset_mm
    mirror_dots = {
        m.cell: _hand_stuck(
            rng, GREEN_BGR, board.mirror_length_mm, (max(1.5, off - 2.0), off + 2.0)
        )
        for m in box.mirrors
        if m.facing is not None
    }
    # The window's dot anywhere on the card's top edge, its centre up to 4 mm off the edge's
    # middle line either way (a sticker wider than the edge overhangs it; the smallest, 6 mm,
    # then just reaches the edge).
    window = (
        None if box.window is None else _hand_stuck(rng, MAGENTA_BGR, CARD_WIDTH_MM, (-4.0, 4.0))
    )
    door = (
        None
        if box.door is None
        else _hand_stuck(rng, ORANGE_BGR, board.door_length_mm / 2, (-1.0, 1.0))
    )
    warm = float(rng.uniform(-0.25, 0.25))
    tint = float(rng.uniform(-0.08, 0.08))
    balance = (1.0 - warm, 1.0 + tint, 1.0 + warm)
    dotted = [m.cell for m in box.mirrors if m.facing is not None]
    reflected = dotted[int(rng.integers(len(dotted)))] if dotted and rng.random() < 0.5 else None
    return BoxLook(
        board.mirror_height_mm + float(rng.uniform(-3, 3)),
        board.card_height_mm + float(rng.uniform(-4, 4)),
        stickers.door_height_mm + float(rng.uniform(-4, 4)),
        mirror_dots,
        window,
        door,
        balance,
        reflected,
        varied_art=True,
        clutter_anywhere=True,
        paints=random_paints(rng),
    )


def _slot_frame(slot: str, facing: str | None, board: Board) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors along a piece's top edge and across it (toward its reflective face)."""
    u = _slot_dir(slot) / math.sqrt(2)
    v = np.array([-u[1], u[0]])
    if facing is not None and float(v @ np.array(board.facing_normal(facing))) < 0:
        v = -v
    return u, v


def sticker_xy(
    centre: tuple[float, float], u: np.ndarray, v: np.ndarray, dot: Sticker
) -> tuple[float, float]:
    p = np.asarray(centre, float) + dot.along_mm * u + dot.across_mm * v
    return float(p[0]), float(p[1])


def _oval(centre: tuple[float, float], z: float, dot: Sticker, n: int = 28) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    r = dot.diameter_mm / 2
    t = math.radians(dot.turn_deg)
    x, y = r * np.cos(a), r * dot.squash * np.sin(a)
    xr = centre[0] + x * math.cos(t) - y * math.sin(t)
    yr = centre[1] + x * math.sin(t) + y * math.cos(t)
    return np.stack([xr, yr, np.full(n, z)], axis=1)


def mirror_dot_xy(board: Board, m: MirrorSeen, look: BoxLook) -> tuple[float, float]:
    """Where a mirror's dot lies seen from above (its middle, for the hands to keep clear)."""
    dot = look.mirror_dots.get(m.cell)
    if dot is None or m.facing is None:
        return board.dot_mm(m.cell, m.facing or "NW")
    u, v = _slot_frame(m.slot, m.facing, board)
    line = 0.0 if look.paints is None else look.paints.mirror_top_line_mm
    x, y = np.asarray(board.crossing_mm(m.cell)) + line * v
    return sticker_xy((float(x), float(y)), u, v, dot)


def card_dot_xy(board: Board, position: str, look: BoxLook) -> tuple[float, float]:
    cx, cy = board.card_mm(position)
    if look.window_dot is None:
        return cx, cy
    u = np.array([1.0, 0.0]) if position[0] in "NS" else np.array([0.0, 1.0])
    inward = {"N": (0, 1), "S": (0, -1), "W": (1, 0), "E": (-1, 0)}[position[0]]
    return sticker_xy((cx, cy), u, np.array(inward, float), look.window_dot)


def door_dot_xy(board: Board, door: DoorSeen, look: BoxLook) -> tuple[float, float]:
    c = board.crossing_mm(door.cell)
    if look.door_dot is None:
        return c
    u, v = _slot_frame(door.slot, None, board)
    return sticker_xy(c, u, v, look.door_dot)


# --- printed board ---------------------------------------------------------------------


def _mm(p: tuple[float, float] | np.ndarray) -> tuple[int, int]:
    """Board millimetres to canvas pixels (fixed-point shift 4 for anti-aliased drawing)."""
    s = CANVAS_PX_PER_MM * 16
    return (round((p[0] + BOX_MARGIN_MM) * s), round((p[1] + BOX_MARGIN_MM) * s))


def _line(img: np.ndarray, a, b, color, width_mm: float) -> None:
    cv2.line(img, _mm(a), _mm(b), color, max(1, round(width_mm * CANVAS_PX_PER_MM)), cv2.LINE_AA, 4)


def _smooth(shape: tuple[int, int], rng: np.random.Generator, scale: int) -> np.ndarray:
    h, w = shape
    small = rng.random((h // scale + 2, w // scale + 2)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _art_colour(rng: np.random.Generator, lo: float, hi: float, max_sat: float) -> np.ndarray:
    """Any hue, a brightness in [lo, hi], at most `max_sat` saturation (0..1), as BGR."""
    hsv = np.array(
        [[[rng.integers(0, 180), rng.uniform(0, max_sat) * 255, rng.uniform(lo, hi)]]], np.float64
    ).astype(np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def board_canvas(
    board: Board, rng: np.random.Generator, *, guide_lines: bool, varied: bool = False
) -> np.ndarray:
    """The box seen from straight above with nothing standing in it, 3 px per mm.

    `varied` paints a box of another print run or publisher: any floor colour and pattern,
    corridors, guide lines, slot inserts and thought-bubble icons of any colour, and large
    splashes of art."""
    corners = box_corners_mm(board)
    w = round((corners[1, 0] - corners[0, 0]) * CANVAS_PX_PER_MM)
    h = round((corners[2, 1] - corners[1, 1]) * CANVAS_PX_PER_MM)
    shape = (h, w)
    if varied:
        floor = _art_colour(rng, 50, 200, 0.6)
    else:
        # Night-blue castle floor on paper: low saturation so the stickers stand out.
        blue = rng.uniform(80, 125)
        floor = np.array(
            [blue, blue * rng.uniform(0.5, 0.75), blue * rng.uniform(0.4, 0.8)], np.float32
        )
    img = np.empty((h, w, 3), np.float32)
    img[:] = floor
    img *= (0.8 + 0.4 * _smooth(shape, rng, 90))[..., None]
    # Stone tiles.
    tile = rng.uniform(22, 34) * CANVAS_PX_PER_MM
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    offs = (np.floor(yy / tile) % 2) * tile / 2
    mortar = (np.minimum((xx + offs) % tile, yy % tile) < 2.0).astype(np.float32)
    img *= (1 - 0.25 * mortar)[..., None]
    tint = rng.uniform(0.85, 1.15, size=(int(h / tile) + 2, int(w / tile) + 2)).astype(np.float32)
    img *= cv2.resize(tint, (w, h), interpolation=cv2.INTER_NEAREST)[..., None]
    out = np.clip(img, 0, 255).astype(np.uint8)
    if varied:
        for _ in range(int(rng.integers(0, 7))):  # large splashes of printed art
            centre = _mm(rng.uniform(-10, 310, 2))
            axes = (
                round(rng.uniform(8, 25) * CANVAS_PX_PER_MM * 16),
                round(rng.uniform(8, 25) * CANVAS_PX_PER_MM * 16),
            )
            colour = _art_colour(rng, 40, 230, 0.7).tolist()
            cv2.ellipse(
                out, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1, cv2.LINE_AA, 4
            )
    # Corridors: paler bands along rows and columns of crossings.
    grey = rng.uniform(110, 160)
    corridor = tuple(int(grey + v) for v in rng.uniform(-12, 12, 3))
    if varied:
        corridor = tuple(int(v) for v in _art_colour(rng, 60, 220, 0.4))
    xs, ys = board.crossing_x_mm, board.crossing_y_mm
    lo_x, hi_x = board.card_line_mm["W"], board.card_line_mm["E"]
    lo_y, hi_y = board.card_line_mm["N"], board.card_line_mm["S"]
    layer = out.copy()
    for x in xs:
        _line(layer, (x, lo_y), (x, hi_y), corridor, 22)
    for y in ys:
        _line(layer, (lo_x, y), (hi_x, y), corridor, 22)
    out = cv2.addWeighted(out, 0.55, layer, 0.45, 0)
    if guide_lines:
        ray = tuple(int(v) for v in _art_colour(rng, 120, 250, 0.8)) if varied else (90, 215, 235)
        for x in xs:
            _line(out, (x, lo_y + 8), (x, hi_y - 8), ray, 1.4)
        for y in ys:
            _line(out, (lo_x + 8, y), (hi_x - 8, y), ray, 1.4)
    # Slots through the board: the yellow insert shows through.
    insert = tuple(int(v) for v in _art_colour(rng, 60, 240, 0.9)) if varied else (30, 175, 205)
    for cell in board.cells:
        for slot in ("/", "\\"):
            a, b = board.slot_segment_mm(cell, slot)
            _line(out, a, b, insert, 2.2)
    for pos in board.positions:
        cx, cy = board.card_mm(pos)
        half = CARD_WIDTH_MM / 2
        if pos[0] in "NS":
            _line(out, (cx - half, cy), (cx + half, cy), insert, 2.2)
        else:
            _line(out, (cx, cy - half), (cx, cy + half), insert, 2.2)
    # Movement fields (holes onto the insert) with their thought bubbles.
    for f in board.fields:
        fx, fy = f.xy_mm
        cv2.circle(
            out,
            _mm((fx, fy)),
            round(6.5 * CANVAS_PX_PER_MM * 16),
            insert if varied else (60, 200, 235),
            -1,
            cv2.LINE_AA,
            4,
        )
        bx, by = fx + rng.uniform(-9, 9), fy + rng.uniform(-9, 9)
        cv2.ellipse(
            out,
            _mm((bx, by)),
            (round(5 * CANVAS_PX_PER_MM * 16), round(4 * CANVAS_PX_PER_MM * 16)),
            0,
            0,
            360,
            (235, 235, 240),
            -1,
            cv2.LINE_AA,
            4,
        )
        icon = tuple(int(v) for v in rng.integers(30, 220, 3))
        cv2.circle(out, _mm((bx, by)), round(2 * CANVAS_PX_PER_MM * 16), icon, -1, cv2.LINE_AA, 4)
    # Paper grain.
    grain = rng.normal(0, 5, (h, w, 1)).astype(np.float32)
    out = np.clip(out.astype(np.float32) + grain, 0, 255).astype(np.uint8)
    # Rim of the box.
    rim = tuple(int(v) for v in rng.uniform(30, 90, 3))
    cv2.rectangle(out, (0, 0), (w - 1, h - 1), rim, round(3 * CANVAS_PX_PER_MM))
    # Corner markers on white sticker squares.
    side = board.marker_side_mm
    px = round(side * CANVAS_PX_PER_MM)
    for m in board.markers:
        cx, cy = m.center_mm
        quiet = 4.0
        p0 = _mm((cx - side / 2 - quiet, cy - side / 2 - quiet))
        p1 = _mm((cx + side / 2 + quiet, cy + side / 2 + quiet))
        cv2.rectangle(out, p0, p1, (238, 240, 236), -1, cv2.LINE_AA, 4)
        x0 = round((cx - side / 2 + BOX_MARGIN_MM) * CANVAS_PX_PER_MM)
        y0 = round((cy - side / 2 + BOX_MARGIN_MM) * CANVAS_PX_PER_MM)
        tag = cv2.cvtColor(marker_image(m.id, px), cv2.COLOR_GRAY2BGR)
        tag = np.where(tag > 127, 236, 22).astype(np.uint8)
        out[y0 : y0 + px, x0 : x0 + px] = tag
    return out


# --- standing solids -------------------------------------------------------------------


def _disc(centre: tuple[float, float], z: float, diameter: float, n: int = 28) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    r = diameter / 2
    return np.stack([centre[0] + r * np.cos(a), centre[1] + r * np.sin(a), np.full(n, z)], axis=1)


def _jitter(color: tuple[int, int, int], rng: np.random.Generator, amount: float = 18):
    return tuple(int(np.clip(c + rng.uniform(-amount, amount), 0, 255)) for c in color)


def _mirror_texture(
    rng: np.random.Generator,
    glint: bool,
    reflected_dot: bool = False,
    brightness: tuple[float, float] = (120, 230),
) -> np.ndarray:
    """A mirror's face: a blurred, bright, random reflection of the room, with a glint, and
    perhaps another mirror's green dot seen in it."""
    h, w = 40, 100
    base = rng.uniform(*brightness)
    tex = np.empty((h, w, 3), np.float32)
    tex[:] = base
    for _ in range(int(rng.integers(2, 6))):
        color = 0.5 * rng.uniform(40, 255, 3) + 0.5 * base
        x0, y0 = rng.integers(0, w), rng.integers(0, h)
        cv2.ellipse(
            tex,
            (int(x0), int(y0)),
            (int(rng.integers(5, 40)), int(rng.integers(3, 20))),
            float(rng.uniform(0, 180)),
            0,
            360,
            color.tolist(),
            -1,
        )
    tex = cv2.GaussianBlur(tex, (0, 0), 3)
    if rng.random() < 0.7:
        x = int(rng.integers(0, w))
        cv2.line(
            tex,
            (x, 0),
            (x + int(rng.integers(-20, 20)), h),
            (255, 255, 255),
            int(rng.integers(2, 8)),
        )
        tex = cv2.GaussianBlur(tex, (0, 0), 1.2)
    if glint:
        # A lamp reflected in the glass: a burnt-out white patch.
        cv2.circle(
            tex,
            (int(rng.integers(10, w - 10)), int(rng.integers(5, h - 5))),
            int(rng.integers(4, 12)),
            (255, 255, 255),
            -1,
        )
        tex = cv2.GaussianBlur(tex, (0, 0), 2.0)
    if reflected_dot:
        # Seen in the glass, a dot is as sharp and nearly as saturated as the sticker itself.
        cv2.ellipse(
            tex,
            (int(rng.integers(12, w - 12)), int(rng.integers(8, h - 8))),
            (int(rng.integers(4, 9)), int(rng.integers(3, 7))),
            float(rng.uniform(0, 180)),
            0,
            360,
            [float(c) * rng.uniform(0.8, 1.0) for c in GREEN_BGR],
            -1,
            cv2.LINE_AA,
        )
    tex += rng.normal(0, 6, tex.shape).astype(np.float32)
    return np.clip(tex, 0, 255).astype(np.uint8)


def _card_front(
    rng: np.random.Generator, window: bool, base: tuple[int, int, int] = (200, 215, 225)
) -> np.ndarray:
    h, w = 50, 104
    tex = np.empty((h, w, 3), np.uint8)
    tex[:] = _jitter(base, rng, 20)
    if window:
        cv2.rectangle(tex, (38, 14), (66, 40), (25, 20, 20), -1)
    else:
        for _ in range(int(rng.integers(2, 5))):
            color = tuple(int(v) for v in rng.integers(20, 230, 3))
            cv2.circle(
                tex,
                (int(rng.integers(15, 90)), int(rng.integers(12, 42))),
                int(rng.integers(4, 14)),
                color,
                -1,
                cv2.LINE_AA,
            )
    # Battlements along the top.
    for x in range(0, w, 16):
        cv2.rectangle(tex, (x, 0), (x + 7, 4), (90, 90, 100), -1)
    return tex


def _card_back(rng: np.random.Generator, base: tuple[int, int, int] = (90, 50, 45)) -> np.ndarray:
    tex = np.empty((50, 104, 3), np.uint8)
    tex[:] = _jitter(base, rng, 15)
    cv2.rectangle(tex, (40, 12), (64, 40), (60, 200, 235), -1)
    return tex


def card_solids(
    board: Board, window: str | None, rng: np.random.Generator, look: BoxLook | None = None
) -> list[Solid]:
    height = board.card_height_mm if look is None else look.card_height_mm
    paints = None if look is None else look.paints
    solids = []
    for pos in board.positions:
        cx, cy = board.card_mm(pos)
        # `front` faces the centre of the board: turn u so v points inward.
        u = {"N": (-1, 0), "S": (1, 0), "W": (0, 1), "E": (0, -1)}[pos[0]]
        is_window = pos == window
        solid = slab(
            (cx, cy),
            np.array(u, float),
            CARD_WIDTH_MM,
            CARD_THICKNESS_MM,
            height,
            {
                "front": _card_front(rng, is_window)
                if paints is None
                else _card_front(rng, is_window, paints.card_front),
                "back": _card_back(rng) if paints is None else _card_back(rng, paints.card_back),
                "end": (200, 205, 210) if paints is None else paints.card_top,
                "top": _jitter((205, 215, 222) if paints is None else paints.card_top, rng, 12),
            },
        )
        if is_window and (look is None or look.window_dot is None):
            solid.decals.append(
                (
                    _disc((cx, cy), -height, board.dot_diameter_mm),
                    _jitter(MAGENTA_BGR, rng, 15),
                )
            )
        elif is_window and look is not None and look.window_dot is not None:
            dot = look.window_dot
            solid.decals.append(
                (
                    _oval(card_dot_xy(board, pos, look), -height, dot),
                    dot.bgr or _jitter(MAGENTA_BGR, rng, 15),
                )
            )
        solids.append(solid)
    return solids


def _slot_dir(slot: str) -> np.ndarray:
    return np.array([1.0, -1.0]) if slot == "/" else np.array([1.0, 1.0])


def piece_solids(
    board: Board,
    box: BoxState,
    rng: np.random.Generator,
    stickers: StickerSettings,
    dots: bool = True,
    glints: bool = True,
    look: BoxLook | None = None,
) -> list[Solid]:
    """Mirrors and the door as solids; `look` places hand-stuck dots (default: the house's)."""
    mirror_h = board.mirror_height_mm if look is None else look.mirror_height_mm
    door_h = stickers.door_height_mm if look is None else look.door_height_mm
    paints = None if look is None else look.paints
    solids = []
    for m in box.mirrors:
        u = _slot_dir(m.slot)
        # Orient so `front` (+v) is the reflective face.
        v = np.array([-u[1], u[0]])
        normal = np.array(board.facing_normal(m.facing or "NW"))
        if float(v @ normal) < 0:
            u = -u
        top = _jitter(
            (205, 208, 212) if paints is None else paints.mirror_top,
            rng,
            25 if paints is None else 8,
        )
        line = 0.0 if paints is None else paints.mirror_top_line_mm
        solid = slab(
            np.asarray(board.crossing_mm(m.cell)) + line * np.array([-u[1], u[0]]) / math.sqrt(2),
            u,
            board.mirror_length_mm,
            MIRROR_THICKNESS_MM if paints is None else paints.mirror_thickness_mm,
            mirror_h,
            {
                "front": _mirror_texture(
                    rng,
                    glints and rng.random() < 0.6,
                    look is not None and look.reflected_dot == m.cell,
                    (120, 230) if paints is None else paints.face_brightness,
                ),
                "back": _jitter((105, 78, 62) if paints is None else paints.mirror_back, rng, 8),
                "end": top,
                "top": top,
            },
        )
        dot = None if look is None else look.mirror_dots.get(m.cell)
        if dots and m.facing is not None and dot is None:
            solid.decals.append(
                (
                    _disc(
                        board.dot_mm(m.cell, m.facing),
                        -mirror_h,
                        board.dot_diameter_mm,
                    ),
                    _jitter(GREEN_BGR, rng, 15),
                )
            )
        elif dots and m.facing is not None and dot is not None and look is not None:
            solid.decals.append(
                (
                    _oval(mirror_dot_xy(board, m, look), -mirror_h, dot),
                    dot.bgr or _jitter(GREEN_BGR, rng, 15),
                )
            )
        solids.append(solid)
    if box.door is not None:
        wood = np.empty((50, 100, 3), np.uint8)
        wood[:] = _jitter((60, 75, 100) if paints is None else paints.door, rng, 10)
        cv2.rectangle(wood, (30, 8), (70, 50), (30, 55, 90), 3)
        h = door_h
        door_top: Paint = _jitter((185, 200, 215) if paints is None else paints.door_top, rng)
        if paints is not None and paints.door_top_wear > 0:
            door_top = _worn_top(door_top, paints.door, paints.door_top_wear, rng)
        solid = slab(
            board.crossing_mm(box.door.cell),
            _slot_dir(box.door.slot),
            board.door_length_mm,
            DOOR_THICKNESS_MM if paints is None else paints.door_thickness_mm,
            h,
            {
                "front": wood,
                "back": wood,
                "end": (60, 75, 100) if paints is None else paints.door,
                "top": door_top,
            },
        )
        if dots and (look is None or look.door_dot is None):
            solid.decals.append(
                (
                    _disc(board.crossing_mm(box.door.cell), -h, board.dot_diameter_mm),
                    _jitter(ORANGE_BGR, rng, 12),
                )
            )
        elif dots and look is not None and look.door_dot is not None:
            solid.decals.append(
                (
                    _oval(door_dot_xy(board, box.door, look), -h, look.door_dot),
                    look.door_dot.bgr or _jitter(ORANGE_BGR, rng, 12),
                )
            )
        solids.append(solid)
    return solids


def _worn_top(
    top: Paint,
    face: tuple[int, int, int],
    wear: float,
    rng: np.random.Generator,
) -> np.ndarray:
    """A top edge (a texture along its length) rubbed through to the face's colour in a few
    patches covering about `wear` of it, with soft ends."""
    n = 200
    rubbed = np.zeros(n, np.float32)
    for _ in range(int(rng.integers(1, 5))):
        width = max(4, int(n * wear / 2 * rng.uniform(0.5, 1.5)))
        start = int(rng.integers(0, n))
        rubbed[start : start + width] = float(rng.uniform(0.6, 1.0))
    rubbed = cv2.GaussianBlur(rubbed[None, :], (0, 0), 3.0)[0]
    line = (1 - rubbed)[:, None] * np.asarray(top, np.float32) + rubbed[:, None] * np.asarray(
        face, np.float32
    )
    return np.repeat(np.clip(line, 0, 255).astype(np.uint8)[None], 8, axis=0)


def _door_top_like_board(canvas: np.ndarray, board: Board, box: BoxState, look: BoxLook) -> BoxLook:
    """The look with the door's top painted toward the board's colour where the door stands
    (`PiecePaints.door_top_like_board`)."""
    paints = look.paints
    if box.door is None or paints is None or paints.door_top_like_board <= 0:
        return look
    x, y = board.crossing_mm(box.door.cell)
    cx = round((x + BOX_MARGIN_MM) * CANVAS_PX_PER_MM)
    cy = round((y + BOX_MARGIN_MM) * CANVAS_PX_PER_MM)
    r = round(12 * CANVAS_PX_PER_MM)
    patch = canvas[max(0, cy - r) : cy + r, max(0, cx - r) : cx + r].reshape(-1, 3)
    under = np.median(patch, axis=0)
    k = paints.door_top_like_board
    top = (1 - k) * np.asarray(paints.door_top, np.float32) + k * under
    b, g, r = (int(v) for v in np.clip(top, 0, 255))
    return replace(look, paints=replace(paints, door_top=(b, g, r), door_top_like_board=0.0))


# --- loose things ----------------------------------------------------------------------


def _victor(board: Board, rng: np.random.Generator, at: tuple[float, float] | None = None) -> Solid:
    if at is None:
        at = board.fields[int(rng.integers(len(board.fields)))].xy_mm
    x, y = at
    cape = _jitter((70, 30, 60), rng, 12)
    ring = _disc((x, y), 0.0, 2 * VICTOR_RADIUS_MM, 16)
    top = _disc((x, y), -VICTOR_HEIGHT_MM, 1.4 * VICTOR_RADIUS_MM, 16)
    faces = []
    for i in range(16):
        j = (i + 1) % 16
        quad = np.array([top[i], top[j], ring[j], ring[i]])
        n = (ring[i] + ring[j]) / 2 - np.array([x, y, 0.0])
        n[2] = 0.0
        faces.append(Face(quad, n / np.linalg.norm(n), cape))
    solid = Solid(faces, np.array([x, y, -VICTOR_HEIGHT_MM / 2]), [])
    solid.decals.append((top, (70, 60, 60)))
    solid.decals.append((_disc((x, y), -VICTOR_HEIGHT_MM - 1, 9.0, 16), (170, 200, 225)))
    return solid


def _die(centre: tuple[float, float], rng: np.random.Generator) -> Solid:
    s = DIE_SIDE_MM
    solid = slab(
        centre,
        np.array([math.cos(rng.uniform(0, 6.3)), 0.0 + 1e-3]),
        s,
        s,
        s,
        {
            "front": (235, 235, 235),
            "back": (235, 235, 235),
            "end": (225, 225, 225),
            "top": (245, 245, 245),
        },
    )
    for _ in range(int(rng.integers(1, 7))):
        solid.decals.append(
            (
                _disc(
                    (centre[0] + rng.uniform(-4, 4), centre[1] + rng.uniform(-4, 4)),
                    -s - 0.1,
                    2.5,
                    10,
                ),
                (30, 30, 30),
            )
        )
    return solid


def _drops(
    img: np.ndarray, cam: VirtualCamera, spots: list[tuple[float, float]], rng: np.random.Generator
) -> None:
    for x, y in spots:
        pts = cam.project(_disc((x, y), -3.0, 2 * DROP_RADIUS_MM, 16))
        color = _jitter((200, 110, 40), rng, 25)
        cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], color, cv2.LINE_AA, 4)
        hl = cam.project(np.array([[x - 2, y - 2, -6.0]]))[0]
        cv2.circle(img, (int(hl[0]), int(hl[1])), 2, (255, 240, 220), -1, cv2.LINE_AA)


def _outside_box(board: Board, rng: np.random.Generator) -> tuple[float, float]:
    c = box_corners_mm(board)
    side = int(rng.integers(4))
    t = rng.uniform(c[0, 0], c[1, 0])
    d = rng.uniform(12, 45)
    return [(t, c[0, 1] - d), (c[1, 0] + d, t), (t, c[2, 1] + d), (c[0, 0] - d, t)][side]


def sticker_points_px(
    board: Board,
    box: BoxState,
    cam: VirtualCamera,
    stickers: StickerSettings,
    look: BoxLook | None = None,
) -> np.ndarray:
    """Image points that a hand must not hide (a reader cannot see through arms)."""
    look = look or house_look(board, box, stickers)
    mh, ch, dh = look.mirror_height_mm, look.card_height_mm, look.door_height_mm
    pts = []
    for m in box.mirrors:
        x, y = mirror_dot_xy(board, m, look)
        pts.append((x, y, -mh))
        for end in board.slot_segment_mm(m.cell, m.slot):
            pts.append((end[0], end[1], -mh))
        cx, cy = board.crossing_mm(m.cell)
        pts.append((cx, cy, -mh))
    if box.window is not None:
        x, y = card_dot_xy(board, box.window, look)
        pts.append((x, y, -ch))
    if box.door is not None:
        x, y = door_dot_xy(board, box.door, look)
        pts.append((x, y, -dh))
        for end in board.slot_segment_mm(box.door.cell, box.door.slot):
            pts.append((end[0], end[1], -dh))
    return cam.project(np.array(pts, np.float64))


def _segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    d = b - a
    t = float(np.clip((p - a) @ d / float(d @ d), 0.0, 1.0))
    return float(np.linalg.norm(p - (a + t * d)))


def _free_spot(
    board: Board,
    box: BoxState,
    rng: np.random.Generator,
    radius_mm: float,
    taken: list[tuple[float, float, float]],
) -> tuple[float, float] | None:
    """Somewhere on the board where a thing `radius_mm` across fits beside the pieces, the
    cards and what already lies there (a drop cannot lie under a mirror)."""
    segments = [board.slot_segment_mm(m.cell, m.slot) for m in box.mirrors]
    if box.door is not None:
        segments.append(board.slot_segment_mm(box.door.cell, box.door.slot))
    for pos in board.positions:
        cx, cy = board.card_mm(pos)
        half = CARD_WIDTH_MM / 2
        along = (
            ((cx - half, cy), (cx + half, cy))
            if pos[0] in "NS"
            else ((cx, cy - half), (cx, cy + half))
        )
        segments.append(along)
    for _ in range(30):
        p = rng.uniform(-12, 312, 2)
        if any(_segment_distance(p, np.array(a), np.array(b)) < radius_mm + 3 for a, b in segments):
            continue
        if any(math.hypot(p[0] - x, p[1] - y) < radius_mm + r for x, y, r in taken):
            continue
        taken.append((float(p[0]), float(p[1]), radius_mm))
        return float(p[0]), float(p[1])
    return None


def _hides(solid: Solid, cam: VirtualCamera, points_px: np.ndarray) -> bool:
    """Whether a solid's outline in the image comes near any of the points."""
    corners = np.vstack([f.quad for f in solid.faces])
    hull = cv2.convexHull(cam.project(corners).astype(np.float32))
    return any(cv2.pointPolygonTest(hull, (float(x), float(y)), True) > -6 for x, y in points_px)


def clutter_anywhere(
    board: Board,
    box: BoxState,
    cam: VirtualCamera,
    rng: np.random.Generator,
    look: BoxLook,
    stickers: StickerSettings,
) -> tuple[list[Solid], list[tuple[float, float]]]:
    """Victor, the die and the drops anywhere in the box or beside it, hiding no sticker and
    no corner marker (a reader cannot see through them either)."""
    protect = np.vstack(
        [sticker_points_px(board, box, cam, stickers, look), _marker_points_px(board, cam)]
    )
    quiet = board.marker_side_mm * 0.75 + 4  # a marker's half-diagonal and its white margin
    taken: list[tuple[float, float, float]] = [(*m.center_mm, quiet) for m in board.markers]
    solids: list[Solid] = []
    for make, radius in (
        (lambda at: _victor(board, rng, at), VICTOR_RADIUS_MM + 2),
        (lambda at: _die(at, rng), DIE_SIDE_MM * 0.75),
    ):
        for _ in range(10):
            at = _free_spot(board, box, rng, radius, taken)
            if at is None:
                break
            solid = make(at)
            if not _hides(solid, cam, protect):
                solids.append(solid)
                break
            taken.pop()
    drops = [
        at
        for _ in range(int(rng.integers(2, 10)))
        if (at := _free_spot(board, box, rng, DROP_RADIUS_MM, taken)) is not None
    ]
    return solids, drops


def _marker_points_px(board: Board, cam: VirtualCamera) -> np.ndarray:
    s = board.marker_side_mm / 2 + 3
    pts = [
        (m.center_mm[0] + dx, m.center_mm[1] + dy)
        for m in board.markers
        for dx in (-s, s)
        for dy in (-s, s)
    ]
    return cam.project(np.array(pts, np.float64))


def add_hands(
    img: np.ndarray,
    board: Board,
    box: BoxState,
    cam: VirtualCamera,
    rng: np.random.Generator,
    count: int,
    stickers: StickerSettings,
    *,
    keep_clear: bool = True,
    look: BoxLook | None = None,
) -> np.ndarray:
    """Arms reaching over the box that hide no sticker and at most one corner marker."""
    protect = sticker_points_px(board, box, cam, stickers, look)
    markers = _marker_points_px(board, cam).reshape(4, 4, 2)
    hidden_before: set[int] = set()
    for _ in range(count):
        for _attempt in range(12):
            reach_mm = rng.uniform(-10, 310, 2)
            reach = cam.project(np.array([[reach_mm[0], reach_mm[1], -40.0]]))[0]
            at = (float(reach[0]), float(reach[1]))
            if not keep_clear:
                img, _ = effects.hand(img, rng, reach=at)
                break
            arm = effects.arm_clear_of(img, rng, at, markers, hidden_before, protect, 41)
            if arm is None:
                continue
            img, _, hidden = arm
            hidden_before |= hidden
            break
    return img


# --- the photograph --------------------------------------------------------------------


def render_box(
    board: Board,
    box: BoxState,
    cam: VirtualCamera,
    rng: np.random.Generator,
    *,
    conditions: Conditions = Conditions(),
    stickers: StickerSettings = DEFAULT_STICKERS,
    hands: int | None = None,
    guide_lines: bool | None = None,
    look: BoxLook | None = None,
) -> np.ndarray:
    """One photograph of `box` through `cam`, with clutter, light and camera faults.

    `look` is the box's own (default: drawn as `conditions.style` says)."""
    w, h = cam.width, cam.height
    if look is None and conditions.style == "random":
        look = random_look(board, box, stickers, rng)
    elif look is None and conditions.style != "house":
        raise ValueError(f"unknown style {conditions.style!r} (house, random)")
    table = effects.table_texture(w, h, rng)
    lines = bool(rng.random() < 0.6) if guide_lines is None else guide_lines
    canvas = board_canvas(
        board, rng, guide_lines=lines, varied=look is not None and look.varied_art
    )
    if look is not None:
        look = _door_top_like_board(canvas, board, box, look)
    origin = (-BOX_MARGIN_MM, -BOX_MARGIN_MM)
    img = cam.render_plane(canvas, CANVAS_PX_PER_MM, origin, background=table)
    light = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), -1.0])
    light /= np.linalg.norm(light)
    solids = card_solids(board, box.window, rng, look) + piece_solids(
        board, box, rng, stickers, glints=conditions.glints, look=look
    )
    drops: list[tuple[float, float]] = []
    if conditions.clutter and look is not None and look.clutter_anywhere:
        loose, drops = clutter_anywhere(board, box, cam, rng, look, stickers)
        solids += loose
    elif conditions.clutter:
        solids.append(_victor(board, rng))
        solids.append(_die(_outside_box(board, rng), rng))
        drops = [_outside_box(board, rng) for _ in range(int(rng.integers(2, 9)))]
        # A few drops dropped inside the box, along its rim.
        for _ in range(int(rng.integers(0, 3))):
            t, d = rng.uniform(25, 275), rng.uniform(-20, -12)
            side = int(rng.integers(4))
            far = box_corners_mm(board)[2, 0] - BOX_MARGIN_MM
            drops.append([(t, d), (far - d, t), (t, far - d), (d, t)][side])
    _drops(img, cam, drops, rng)
    draw_solids(img, cam, solids, light)
    n_hands = int(rng.integers(0, conditions.hands + 1)) if hands is None else hands
    img = add_hands(img, board, box, cam, rng, n_hands, stickers, look=look)
    if look is not None and look.white_balance != (1.0, 1.0, 1.0):
        gains = np.array(look.white_balance, np.float32)
        img = np.clip(img.astype(np.float32) * gains, 0, 255).astype(np.uint8)
    return effects.photograph(
        img,
        rng,
        **effects.random_faults(rng, blur_max=conditions.blur_max, jpeg_min=conditions.jpeg_min),
    )


def photo_setup(
    board: Board,
    seed: int | tuple[int, ...],
    conditions: Conditions = Conditions(),
    stickers: StickerSettings = DEFAULT_STICKERS,
) -> tuple[np.random.Generator, BoxState, VirtualCamera, BoxLook | None]:
    """What photograph number `seed` shows and how (the box, the camera, the box's look),
    before a pixel is drawn: a failure analysis learns where each sticker was stuck without
    rendering the photograph again. The generator is left where drawing goes on."""
    rng = np.random.default_rng(list(seed) if isinstance(seed, tuple) else seed)
    box = random_box(board, rng)
    size = conditions.sizes[int(rng.integers(len(conditions.sizes)))]
    cam = random_camera(board, rng, size, conditions.max_tilt_deg)
    look = random_look(board, box, stickers, rng) if conditions.style == "random" else None
    return rng, box, cam, look


def render_photo(
    board: Board,
    seed: int | tuple[int, ...],
    conditions: Conditions = Conditions(),
    stickers: StickerSettings = DEFAULT_STICKERS,
) -> Photo:
    """The photograph number `seed`: the same seed always gives the same picture."""
    rng, box, cam, look = photo_setup(board, seed, conditions, stickers)
    return Photo(
        render_box(board, box, cam, rng, conditions=conditions, stickers=stickers, look=look),
        box,
        cam,
        look,
    )


def cell_centre_px(board: Board, cam: VirtualCamera, cell: Cell, height_mm: float) -> np.ndarray:
    x, y = board.crossing_mm(cell)
    return cam.project(np.array([[x, y, -height_mm]]))[0]


# --- films: scripted turns seen by a fixed camera ------------------------------------


Shot = Beat
"""A stretch of a film (the film script's `Beat`): the pieces, a hand, blur, rest."""


class Film:
    """Frames of a fixed camera over the box while a script plays: the `sim` camera.

    The table, the printed board and the light are rendered once; each frame draws the
    standing pieces, hands and the camera's noise, so a frame costs a fraction of a photo.
    """

    def __init__(
        self,
        board: Board,
        shots: list[Shot],
        seed: int | tuple[int, ...],
        size: tuple[int, int] = (1280, 960),
        max_tilt_deg: float = 25.0,
        stickers: StickerSettings = DEFAULT_STICKERS,
        *,
        taps: Sequence[Tap] = (),
        loop: bool = True,
        script: FilmScript | None = None,
    ) -> None:
        self.board = board
        self.shots = shots
        self.taps = tuple(taps)
        """What the film's players tap on their phones, and when (film seconds)."""
        self.loop = loop
        """Play again from the start after the end (False: the last shot stays)."""
        self.script = script
        self.stickers = stickers
        self.rng = np.random.default_rng(list(seed) if isinstance(seed, tuple) else seed)
        self.camera = random_camera(board, self.rng, size, max_tilt_deg)
        w, h = size
        table = effects.table_texture(w, h, self.rng)
        canvas = board_canvas(board, self.rng, guide_lines=bool(self.rng.random() < 0.6))
        self.base = self.camera.render_plane(
            canvas, CANVAS_PX_PER_MM, (-BOX_MARGIN_MM, -BOX_MARGIN_MM), background=table
        )
        flat = np.full((h, w, 3), 200, np.uint8)
        self.gain = effects.uneven_light(flat, self.rng).astype(np.float32) / 200.0
        self.light = np.array([0.3, -0.2, -1.0]) / np.linalg.norm([0.3, -0.2, -1.0])
        self.victor = _victor(board, self.rng)
        self.die = _die(_outside_box(board, self.rng), self.rng)
        self.drops = [_outside_box(board, self.rng) for _ in range(4)]
        self.duration = sum(s.seconds for s in shots)
        self.noise = effects.film_noise(self.rng, (h, w), 3)

    def shot_at(self, t: float) -> Shot:
        if not self.loop and t >= self.duration:
            return self.shots[-1]
        t = t % self.duration if self.duration > 0 else 0.0
        for s in self.shots:
            if t < s.seconds:
                return s
            t -= s.seconds
        return self.shots[-1]

    def frame(self, t: float) -> tuple[np.ndarray, dict]:
        shot = self.shot_at(t)
        rng = np.random.default_rng([int(t * 1000) & 0xFFFFFFFF, 7])
        img = self.base.copy()
        _drops(img, self.camera, self.drops, rng)
        solids = card_solids(self.board, shot.box.window, rng)
        solids += piece_solids(self.board, shot.box, rng, self.stickers)
        solids += [self.victor, self.die]
        draw_solids(img, self.camera, solids, self.light)
        reach = arm_reach(self.camera, shot.hand_over)
        img = effects.film_frame(img, t, rng, reach, self.gain, self.noise, shot.moving)
        truth = shot.box.to_json()
        truth["rest"] = shot.rest
        truth["t"] = t
        return img, truth


def _moved(board: Board, box: BoxState, rng: np.random.Generator) -> tuple[BoxState, Cell, Cell]:
    """`box` after one random swap: a mirror turned in its crossing or moved to a free one."""
    from companion.games.mirror_mansion.rules.board import FACINGS, SLOTS
    from companion.games.mirror_mansion.vision.scene import MirrorSeen

    mirrors = list(box.mirrors)
    i = int(rng.integers(len(mirrors)))
    m = mirrors[i]
    taken = {x.cell for x in mirrors} | ({box.door.cell} if box.door else set())
    free = [c for c in board.cells if c not in taken]
    if rng.random() < 0.35 or not free:
        options = [(s, f) for s in SLOTS for f in FACINGS[s] if (s, f) != (m.slot, m.facing)]
        slot, facing = options[int(rng.integers(len(options)))]
        target = m.cell
    else:
        target = free[int(rng.integers(len(free)))]
        slot = SLOTS[int(rng.integers(2))]
        facing = FACINGS[slot][int(rng.integers(2))]
    mirrors[i] = MirrorSeen(target, slot, facing)
    return BoxState(tuple(mirrors), box.window, box.door), m.cell, target


def turn_shots(
    board: Board, start: BoxState, rng: np.random.Generator, swaps: int
) -> tuple[list[Shot], BoxState, BoxState]:
    """A turn of random physical moves, for measuring the reader and tracker (benchmarks):
    the window card swapped, then `swaps` mirror swaps with hands over the pieces, lifted
    mirrors and blur, then hands off. The moves may break the rules on purpose (a fourth
    swap, nothing in line); a film that is played live comes from `table_film`.

    Returns the shots, the box when the swaps start and the box at the end.
    """
    shots = [Shot(1.0, start, rest=True)]
    new_window = [p for p in board.positions if p != start.window][
        int(rng.integers(len(board.positions) - 1))
    ]
    lifted = BoxState(start.mirrors, None, start.door)
    shots.append(Shot(0.5, lifted, hand_over=board.card_mm(new_window), moving=True))
    box = BoxState(start.mirrors, new_window, start.door)
    at_swaps = box
    shots.append(Shot(1.0, box, rest=True))
    for k in range(swaps):
        after, source, target = _moved(board, box, rng)
        src, dst = board.crossing_mm(source), board.crossing_mm(target)
        without = BoxState(tuple(m for m in box.mirrors if m.cell != source), box.window, box.door)
        mid = ((src[0] + dst[0]) / 2, (src[1] + dst[1]) / 2)
        shots.append(Shot(0.25, box, hand_over=src))
        shots.append(Shot(0.5, without, hand_over=mid, moving=True))
        shots.append(Shot(0.25, after, hand_over=dst))
        box = after
        last = k == swaps - 1
        pause = 1.5 if last else float(rng.choice([0.25, 0.5, 1.0]))
        shots.append(Shot(pause, box, rest=pause >= 1.0))
    return shots, at_swaps, box


def table_film(
    board: Board,
    seed: int,
    turns: int | None = 12,
    pause_s: float = 6.0,
    size: tuple[int, int] = (1280, 960),
    *,
    players: int = 2,
    options: dict[str, Any] | None = None,
) -> Film:
    """The `sim` camera's table: a game of `turns` turns played through the rules engine
    (`film_script.script_game`), so every turn is legal and runs to its verdict, with the
    taps its players make on their phones. The last shot stays after the end."""
    script = script_game(
        board, seed, players=players, options=options, turns=turns, pause_s=pause_s
    )
    return Film(
        board, script.beats, (seed, 32), size=size, taps=script.taps, loop=False, script=script
    )
