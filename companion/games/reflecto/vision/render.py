"""Synthetic photographs of a Reflecto board from above, with the answer key.

The printed board (its art drawn anew for every scene: tints, checks, lines, motifs, grain),
the four corner markers on white stickers, and the screens as solids: a low foot and an
upright coloured frame whose face toward its owner holds a white letter tile or a mirror.
Every solid is drawn face by face at its true height through the shared `VirtualCamera`, so
under tilt a screen shows its top and a sliver of one side, exactly as a photograph would.
The two players' colours are drawn per scene (any two plastic colours far enough apart to
tell: pale, dark and dull ones too), and in `render_photo` the screens' make (`ScreenLook`:
sizes off the model's, flat, rounded or bevelled tops, screens of one seat differing in
shade) and the light's colour; screens stand a few degrees off square and off centre,
tops catch glare, arms reach over the board (never over a screen's top: a reader cannot
see through arms), and the camera adds uneven light, noise, blur and JPEG.

Sizes come from the board model (`geometry.py`); `render_photo`'s screens stray from it
by what a user's measuring misses.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.games.reflecto.vision.geometry import BoardGeometry, Cell
from companion.games.reflecto.vision.reading import BoardReading, ScreenSeen
from companion.sim import effects
from companion.sim.camera import VirtualCamera, framing_camera, rim_corners_mm
from companion.sim.conditions import Conditions
from companion.sim.solids import Paint, Solid, draw_solids, slab
from companion.vision.markers import marker_image

CANVAS_PX_PER_MM = 3.0
BOARD_RIM_MM = 18.0
"""The board's printed edge lies this far outside the corner-marker centres."""
MAX_SKEW_DEG = 6.0
"""A screen stands up to this far off square ..."""
MAX_SHIFT_MM = 1.5
"""... and this far off its square's centre."""

Colour = tuple[int, int, int]


@dataclass(frozen=True)
class Photo:
    image: np.ndarray
    truth: BoardReading
    camera: VirtualCamera
    colours: tuple[Colour, Colour]
    """The two players' plastic colours (BGR) as drawn."""
    setup: np.ndarray | None = None
    """The start position on the same table, when asked for."""
    board: np.ndarray | None = None
    """The same board empty, under another camera and light, when asked for (the "teach
    your board" photograph)."""
    washed: frozenset[Cell] = frozenset()
    """Squares whose screen's top is mostly glare (`WASHED`): there a reader may ask."""


# --- what is drawn ---------------------------------------------------------------------


def _hsv_to_bgr(h: float, s: float, v: float) -> Colour:
    px = np.array([[[round(h) % 180, round(s * 255), round(v * 255)]]], np.uint8)
    b, g, r = cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0]
    return int(b), int(g), int(r)


def random_colours(rng: np.random.Generator) -> tuple[Colour, Colour]:
    """Two plastic colours a player would tell apart: saturated, hues at least 60° apart."""
    h0 = rng.uniform(0, 180)
    h1 = h0 + rng.choice([-1, 1]) * rng.uniform(30, 90)
    return (
        _hsv_to_bgr(h0, rng.uniform(0.55, 1.0), rng.uniform(0.45, 0.95)),
        _hsv_to_bgr(h1, rng.uniform(0.55, 1.0), rng.uniform(0.45, 0.95)),
    )


def random_plastics(rng: np.random.Generator) -> tuple[Colour, Colour]:
    """Two plastic colours of any make a player could still tell apart: pale, dark or
    dull ones too, hues at least 25° apart (OpenCV counts hue in 2° steps), not only the
    saturated pair of `random_colours`."""
    h0 = rng.uniform(0, 180)
    h1 = h0 + rng.choice([-1, 1]) * rng.uniform(12.5, 90)
    return (
        _hsv_to_bgr(h0, rng.uniform(0.3, 1.0), rng.uniform(0.25, 0.95)),
        _hsv_to_bgr(h1, rng.uniform(0.3, 1.0), rng.uniform(0.25, 0.95)),
    )


@dataclass(frozen=True)
class ScreenLook:
    """One table's screens beyond their colours: sizes off the model's by what a user's
    measuring misses (or a make the model was not measured on), the top's shape (flat;
    rounded, darker toward its long edges; a glossy bevel, lighter there), how much one
    screen's plastic differs from another's of the same seat, and the light's colour."""

    width_mm: float
    thickness_mm: float
    height_mm: float
    top: str = "flat"
    spread: float = 4.0
    cast: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """Per-channel gain (BGR) of the room's light on the whole table."""


def model_look(geom: BoardGeometry) -> ScreenLook:
    """The screens as the board model gives them, flat-topped, in white light."""
    return ScreenLook(geom.screen_width_mm, geom.screen_thickness_mm, geom.screen_height_mm)


def random_look(geom: BoardGeometry, rng: np.random.Generator) -> ScreenLook:
    return ScreenLook(
        geom.screen_width_mm * rng.uniform(0.82, 1.08),
        geom.screen_thickness_mm * rng.uniform(0.6, 1.2),
        geom.screen_height_mm + rng.uniform(-3.0, 3.0),
        str(rng.choice(["flat", "rounded", "bevel"])),
        rng.uniform(4.0, 16.0),
        tuple(float(g) for g in 1 + rng.uniform(-0.1, 0.1, 3)),  # type: ignore[arg-type]
    )


def _top(plastic: Colour, look: ScreenLook, rng: np.random.Generator) -> Paint:
    """The top's paint: its colour, or across its depth the shade of a rounded or bevelled
    top."""
    if look.top == "flat":
        return plastic
    across = np.linspace(-1.0, 1.0, 12)[:, None, None]
    shade: np.ndarray
    if look.top == "rounded":
        shade = -rng.uniform(0.25, 0.55) * across**2
    else:
        shade = rng.uniform(0.2, 0.6) * (np.abs(across) > 0.6)
    tex = np.clip(np.array(plastic, np.float32)[None, None] * (1.0 + shade), 0, 255)
    return np.repeat(tex, 16, axis=1).astype(np.uint8)


def with_cast(img: np.ndarray, cast: tuple[float, float, float]) -> np.ndarray:
    """The picture under light of that colour (`ScreenLook.cast`)."""
    if cast == (1.0, 1.0, 1.0):
        return img
    return np.clip(img.astype(np.float32) * np.array(cast, np.float32), 0, 255).astype(np.uint8)


def start_position(geom: BoardGeometry, per_player: int = 7) -> BoardReading:
    """Set-up: each seat's screens on its first row, centred."""
    first = (geom.cols - per_player) // 2
    screens = [
        ScreenSeen((geom.first_row(o), first + i), o)
        for o in (0, 1)
        for i in range(min(per_player, geom.cols))
    ]
    return BoardReading(tuple(screens))


def random_position(
    geom: BoardGeometry, rng: np.random.Generator, per_player: int = 7
) -> BoardReading:
    """Some screens of each seat anywhere (removals leave fewer); now and then the start."""
    if rng.random() < 0.1:
        return start_position(geom, per_player)
    counts = [int(rng.integers(1, per_player + 1)) for _ in range(2)]
    picks = rng.choice(len(geom.cells), size=sum(counts), replace=False)
    cells = [geom.cells[int(i)] for i in picks]
    screens = [ScreenSeen(cells[i], 0 if i < counts[0] else 1) for i in range(len(cells))]
    return BoardReading(tuple(screens))


def board_corners_mm(geom: BoardGeometry) -> np.ndarray:
    return rim_corners_mm(geom.size_mm, BOARD_RIM_MM)


def random_camera(
    geom: BoardGeometry, rng: np.random.Generator, size: tuple[int, int], max_tilt_deg: float
) -> VirtualCamera:
    """A camera that sees the whole board, at any turn of it, tilted up to the limit."""
    return framing_camera(
        board_corners_mm(geom), geom.screen_height_mm, rng, size, max_tilt_deg, (430, 560)
    )


def _mm(p: tuple[float, float], origin: float) -> tuple[int, int]:
    """Board mm to canvas pixels, fixed-point shift 4 for anti-aliased drawing."""
    s = CANVAS_PX_PER_MM * 16
    return round((p[0] - origin) * s), round((p[1] - origin) * s)


def _muted(rng: np.random.Generator, s_max: float = 0.3) -> Colour:
    return _hsv_to_bgr(rng.uniform(0, 180), rng.uniform(0, s_max), rng.uniform(0.3, 0.92))


def _ink(rng: np.random.Generator, screens: tuple[Colour, Colour] | None) -> Colour:
    """A colour printed on the board. Without the screens' colours, always muted (the boards
    drawn before); with them, any hue at any saturation, and often near a screen's own
    colour (a board printed in a player's colour, or wood or baize under plastic of the same
    hue): a screen must be told from its board by more than its colour."""
    if screens is None:
        return _muted(rng)
    u = rng.random()
    if u < 0.3:
        px = np.array([[screens[int(rng.integers(2))]]], np.uint8)
        h, s, v = (float(x) for x in cv2.cvtColor(px, cv2.COLOR_BGR2HSV)[0, 0])
        return _hsv_to_bgr(
            h + rng.uniform(-8, 8),
            min(1.0, s / 255 * rng.uniform(0.5, 1.15)),
            min(1.0, v / 255 * rng.uniform(0.35, 1.3)),
        )
    if u < 0.6:
        return _hsv_to_bgr(rng.uniform(0, 180), rng.uniform(0, 1), rng.uniform(0.15, 0.95))
    return _muted(rng)


def _ground(
    rng: np.random.Generator, size: tuple[int, int], screens: tuple[Colour, Colour] | None
) -> np.ndarray:
    """The board's ground: one ink, or (with the screens' colours given) now and then wood,
    felt or cloth dyed in any ink."""
    w, h = size
    ink = _ink(rng, screens)
    if screens is None or rng.random() < 0.5:
        img = np.empty((h, w, 3), np.uint8)
        img[:] = ink
        return img
    kind = str(rng.choice(["wood", "felt", "cloth"]))
    tex = effects.table_texture(w, h, rng, kind).astype(np.float32)
    dyed = tex * (np.array(ink, np.float32) / np.maximum(tex.reshape(-1, 3).mean(axis=0), 1.0))
    return np.clip(dyed, 0, 255).astype(np.uint8)


def board_canvas(
    geom: BoardGeometry,
    rng: np.random.Generator,
    screens: tuple[Colour, Colour] | None = None,
) -> np.ndarray:
    """The printed board from straight above, its art drawn anew: tints, checks, lines,
    motifs, frame, grain; the corner markers on white stickers. `screens` (the players'
    plastic colours) lets the print take any colour, theirs included (`_ink`); without it
    the print is muted, as boards drawn before were."""
    corners = board_corners_mm(geom)
    origin = float(corners[0, 0])
    w = round((corners[1, 0] - corners[0, 0]) * CANVAS_PX_PER_MM)
    h = round((corners[2, 1] - corners[1, 1]) * CANVAS_PX_PER_MM)
    img = _ground(rng, (w, h), screens)
    (gx0, gy0), (gx1, gy1) = geom.grid_box_mm
    sq = geom.square_mm
    if rng.random() < 0.7:  # the playing area on its own ground
        if screens is None:
            cv2.rectangle(
                img,
                _mm((gx0, gy0), origin),
                _mm((gx1, gy1), origin),
                _muted(rng),
                -1,
                cv2.LINE_AA,
                4,
            )
        else:
            (ax, ay), (bx, by) = (
                [round((v - origin) * CANVAS_PX_PER_MM) for v in p]
                for p in ((gx0, gy0), (gx1, gy1))
            )
            img[ay:by, ax:bx] = _ground(rng, (bx - ax, by - ay), screens)
    if rng.random() < 0.5:  # checks
        other = _ink(rng, screens)
        for r, c in geom.cells:
            if (r + c) % 2:
                x, y = geom.cell_mm((r, c))
                cv2.rectangle(
                    img,
                    _mm((x - sq / 2, y - sq / 2), origin),
                    _mm((x + sq / 2, y + sq / 2), origin),
                    other,
                    -1,
                    cv2.LINE_AA,
                    4,
                )
    if screens is not None and rng.random() < 0.3:  # squares printed with stripes
        ink, width = _ink(rng, screens), max(1, round(rng.uniform(1, 6) * CANVAS_PX_PER_MM))
        pitch, slope = rng.uniform(4, 14), rng.uniform(-1.5, 1.5)
        for cell in geom.cells:
            if rng.random() < 0.5:
                continue
            x, y = geom.cell_mm(cell)
            for k in np.arange(-sq, sq, pitch):
                a = (x - sq / 2, y + k - slope * sq / 2)
                b = (x + sq / 2, y + k + slope * sq / 2)
                cv2.line(img, _mm(a, origin), _mm(b, origin), ink, width, cv2.LINE_AA, 4)
    if rng.random() < 0.5:  # the first rows tinted
        for owner in (0, 1):
            tint = _ink(rng, screens)
            x, y = geom.cell_mm((geom.first_row(owner), 0))
            cv2.rectangle(
                img,
                _mm((gx0, y - sq / 2), origin),
                _mm((gx1, y + sq / 2), origin),
                tint,
                -1,
                cv2.LINE_AA,
                4,
            )
    if rng.random() < 0.6:  # inner squares or rounded cells
        inner = _ink(rng, screens)
        pad = rng.uniform(2, 8)
        for cell in geom.cells:
            x, y = geom.cell_mm(cell)
            cv2.rectangle(
                img,
                _mm((x - sq / 2 + pad, y - sq / 2 + pad), origin),
                _mm((x + sq / 2 - pad, y + sq / 2 - pad), origin),
                inner,
                int(rng.integers(1, 4)),
                cv2.LINE_AA,
                4,
            )
    if rng.random() < 0.4:  # small printed motifs
        for cell in geom.cells:
            if rng.random() < 0.5:
                x, y = geom.cell_mm(cell)
                cx, cy = x + rng.uniform(-12, 12), y + rng.uniform(-12, 12)
                cv2.circle(
                    img,
                    _mm((cx, cy), origin),
                    round(rng.uniform(2, 7) * 48),
                    _ink(rng, screens),
                    -1,
                    cv2.LINE_AA,
                    4,
                )
    if rng.random() < 0.8:  # grid lines
        line = _ink(rng, screens)
        width = max(1, round(rng.uniform(0.5, 2.5) * CANVAS_PX_PER_MM))
        for k in range(geom.cols + 1):
            x = gx0 + k * sq
            cv2.line(img, _mm((x, gy0), origin), _mm((x, gy1), origin), line, width, cv2.LINE_AA, 4)
        for k in range(geom.rows + 1):
            y = gy0 + k * sq
            cv2.line(img, _mm((gx0, y), origin), _mm((gx1, y), origin), line, width, cv2.LINE_AA, 4)
    grain = rng.normal(0, rng.uniform(2, 7), (h, w, 1)).astype(np.float32)
    img = np.clip(img.astype(np.float32) + grain, 0, 255).astype(np.uint8)
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), _ink(rng, screens), round(2.5 * CANVAS_PX_PER_MM))
    side = geom.marker_side_mm
    px = round(side * CANVAS_PX_PER_MM)
    quiet = min(5.0, geom.grid_inset_mm - side / 2 - 1)
    for m in geom.markers:
        cx, cy = m.center_mm
        cv2.rectangle(
            img,
            _mm((cx - side / 2 - quiet, cy - side / 2 - quiet), origin),
            _mm((cx + side / 2 + quiet, cy + side / 2 + quiet), origin),
            (238, 240, 236),
            -1,
            cv2.LINE_AA,
            4,
        )
        x0 = round((cx - side / 2 - origin) * CANVAS_PX_PER_MM)
        y0 = round((cy - side / 2 - origin) * CANVAS_PX_PER_MM)
        tag = cv2.cvtColor(marker_image(m.id, px), cv2.COLOR_GRAY2BGR)
        img[y0 : y0 + px, x0 : x0 + px] = np.where(tag > 127, 236, 22).astype(np.uint8)
    return img


def _jitter(colour: Colour, rng: np.random.Generator, amount: float = 10) -> Colour:
    return tuple(int(np.clip(c + rng.uniform(-amount, amount), 0, 255)) for c in colour)  # type: ignore[return-value]


def _tile(rng: np.random.Generator, mirror: bool) -> np.ndarray:
    """The face toward the owner: a white tile with a letter, or a mirror."""
    h, w = 60, 68
    tex = np.empty((h, w, 3), np.uint8)
    if mirror:
        tex[:] = int(rng.uniform(130, 230))
        for _ in range(int(rng.integers(2, 5))):
            cv2.ellipse(
                tex,
                (int(rng.integers(0, w)), int(rng.integers(0, h))),
                (int(rng.integers(5, 30)), int(rng.integers(3, 15))),
                float(rng.uniform(0, 180)),
                0,
                360,
                [int(v) for v in rng.integers(40, 255, 3)],
                -1,
            )
        tex = cv2.GaussianBlur(tex, (0, 0), 2.5)
    else:
        tex[:] = _jitter((236, 238, 236), rng, 12)
        letter = chr(ord("A") + int(rng.integers(26)))
        cv2.putText(
            tex, letter, (16, 48), cv2.FONT_HERSHEY_SIMPLEX, 1.6, (30, 30, 30), 4, cv2.LINE_AA
        )
    return tex


def _framed(tile: np.ndarray, plastic: Colour) -> np.ndarray:
    """The tile seen in its coloured frame (a border around it, a wider one below)."""
    h, w = tile.shape[:2]
    out = np.empty((h + 20, w + 12, 3), np.uint8)
    out[:] = plastic
    out[6 : 6 + h, 6 : 6 + w] = tile
    return out


WASHED = 0.5
"""A top is "mostly glare" (`Photo.washed`, where a reader may ask instead of calling it)
when the lamp's reflection covers at least this share of its length, bleached at least
`WASHED_WHITE` of the way to white."""
WASHED_WHITE = 0.7


def _glare(
    centre: np.ndarray,
    u: np.ndarray,
    look: ScreenLook,
    plastic: Colour,
    rng: np.random.Generator,
) -> tuple[np.ndarray, Colour, bool]:
    """A lamp's reflection on a glossy top: an ellipse on the top from a small spot to the
    whole top (a lamp straight above a glossy top washes all of it out), its paint the
    plastic bleached part of the way, or all the way, to the lamp's near-white. Returns the
    ellipse (world mm), its paint and whether the top is mostly glare (`WASHED`)."""
    half = look.width_mm / 2
    if rng.random() < 0.5:  # a spot
        along = rng.uniform(1.5, 4.5) * 1.6
        across = along / 1.6 * 0.6
    else:  # a wash over much of the top, up to all of it
        along = rng.uniform(0.3, 1.05) * half
        across = rng.uniform(0.5, 1.1) * look.thickness_mm / 2
    t = rng.uniform(-1.0, 1.0) * max(half - along, 0.0)
    cx, cy = centre + u * t
    v = np.array([-u[1], u[0]])
    z = -look.height_mm - 0.05
    ring = np.array(
        [
            [*(np.array([cx, cy]) + u * along * math.cos(k) + v * across * math.sin(k)), z]
            for k in np.linspace(0, 2 * math.pi, 20, endpoint=False)
        ]
    )
    white = float(rng.uniform(0.55, 1.0))
    lamp = np.array(_jitter((245, 248, 250), rng, 8), np.float32)
    paint = np.clip(np.array(plastic, np.float32) * (1 - white) + lamp * white, 0, 255)
    mostly = along >= WASHED * half and white >= WASHED_WHITE
    return ring, (int(paint[0]), int(paint[1]), int(paint[2])), bool(mostly)


def screen_solids(
    geom: BoardGeometry,
    position: BoardReading,
    colours: tuple[Colour, Colour],
    rng: np.random.Generator,
    *,
    glare: bool = True,
    poses: dict[Cell, tuple[float, float, float]] | None = None,
    look: ScreenLook | None = None,
    washed: set[Cell] | None = None,
) -> list[Solid]:
    """Each screen as a foot and a frame; `poses` (cell -> skew°, dx, dy) keeps a screen
    standing the same way from frame to frame in a film; `look`, the screens' make (the
    model's by default); `washed`, when given, gets the squares whose top is mostly glare
    (`_glare`)."""
    look = look or model_look(geom)
    solids = []
    for s in position.screens:
        skew, dx, dy = (poses or {}).get(s.cell) or (
            rng.uniform(-MAX_SKEW_DEG, MAX_SKEW_DEG),
            *rng.uniform(-MAX_SHIFT_MM, MAX_SHIFT_MM, 2),
        )
        a = math.radians(skew)
        # u along the screen; v = u turned a quarter, toward the owner's side (+y for seat 0).
        u = np.array([math.cos(a), math.sin(a)]) * geom.facing_y(s.owner)
        x, y = geom.cell_mm(s.cell)
        centre = np.array([x + dx, y + dy])
        plastic = _jitter(colours[s.owner], rng, look.spread)
        foot = slab(
            centre,
            u,
            look.width_mm,
            geom.foot_depth_mm,
            geom.foot_height_mm,
            {"front": plastic, "back": plastic, "end": plastic, "top": plastic},
        )
        face = _framed(_tile(rng, bool(rng.random() < 2 / 7)), plastic)
        frame = slab(
            centre,
            u,
            look.width_mm,
            look.thickness_mm,
            look.height_mm,
            {"front": face, "back": plastic, "end": plastic, "top": _top(plastic, look, rng)},
            bottom_mm=geom.foot_height_mm,
        )
        if glare and rng.random() < 0.35:  # a lamp caught on the glossy top
            ring, paint, mostly = _glare(centre, u, look, plastic, rng)
            frame.decals.append((ring, paint))
            if mostly and washed is not None:
                washed.add(s.cell)
        solids += [foot, frame]
    return solids


def screen_top_points_mm(geom: BoardGeometry, position: BoardReading) -> np.ndarray:
    """Points on every screen's top that an arm must not hide (N×3 world mm)."""
    pts = []
    hw = geom.screen_width_mm / 2 + 2
    hd = geom.screen_thickness_mm / 2 + 2
    for s in position.screens:
        x, y = geom.cell_mm(s.cell)
        for dx in (-hw, 0.0, hw):
            for dy in (-hd, hd):
                pts.append((x + dx, y + dy, -geom.screen_height_mm))
    return np.array(pts, np.float64).reshape(-1, 3)


def add_hands(
    img: np.ndarray,
    geom: BoardGeometry,
    position: BoardReading,
    cam: VirtualCamera,
    rng: np.random.Generator,
    count: int,
) -> tuple[np.ndarray, int]:
    """Arms reaching over the board that hide no screen's top and at most one marker.
    Returns the picture and how many arms it shows."""
    protect = (
        cam.project(screen_top_points_mm(geom, position)) if position.screens else np.zeros((0, 2))
    )
    s = geom.marker_side_mm / 2 + 2
    markers = [
        cam.project(
            np.array(
                [(m.center_mm[0] + dx, m.center_mm[1] + dy) for dx in (-s, s) for dy in (-s, s)]
            )
        )
        for m in geom.markers
    ]
    w_mm, h_mm = geom.size_mm
    hidden_before: set[int] = set()
    shown = 0
    taken = {sc.cell for sc in position.screens}
    free = [c for c in geom.cells if c not in taken] or geom.cells
    for _ in range(count):
        for _attempt in range(6):
            # Toward an empty square or the board's edge: where an arm can be without
            # hiding a screen (each try costs a whole arm drawn).
            if rng.random() < 0.7:
                cx, cy = geom.cell_mm(free[int(rng.integers(len(free)))])
                reach_mm = (cx + rng.uniform(-10, 10), cy + rng.uniform(-10, 10))
            else:
                reach_mm = (rng.uniform(0, w_mm), rng.uniform(0, h_mm))
            reach = cam.project(np.array([[reach_mm[0], reach_mm[1], -50.0]]))[0]
            at = (float(reach[0]), float(reach[1]))
            arm = effects.arm_clear_of(img, rng, at, markers, hidden_before, protect, 15)
            if arm is None:
                continue
            img, _, hidden = arm
            hidden_before |= hidden
            shown += 1
            break
    return img, shown


# --- the photograph --------------------------------------------------------------------


def board_picture(
    geom: BoardGeometry,
    cam: VirtualCamera,
    rng: np.random.Generator,
    screens: tuple[Colour, Colour] | None = None,
) -> np.ndarray:
    """The table and the empty printed board through `cam` (drawn once per table); the print
    in any colour, the screens' included, when their colours are given (`board_canvas`)."""
    table = effects.table_texture(cam.width, cam.height, rng)
    canvas = board_canvas(geom, rng, screens)
    origin = (-BOARD_RIM_MM, -BOARD_RIM_MM)
    return cam.render_plane(canvas, CANVAS_PX_PER_MM, origin, background=table)


def shoot(
    base: np.ndarray,
    geom: BoardGeometry,
    position: BoardReading,
    colours: tuple[Colour, Colour],
    cam: VirtualCamera,
    rng: np.random.Generator,
    *,
    conditions: Conditions = Conditions(),
    hands: int | None = None,
    look: ScreenLook | None = None,
    washed: set[Cell] | None = None,
) -> np.ndarray:
    """One photograph of `position` on a board already drawn (`board_picture`); `look`,
    the screens' make and the light's colour (`ScreenLook`; the model's, white, if None);
    `washed`, when given, gets the squares whose top is mostly glare."""
    img = base.copy()
    light = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), -1.0])
    light /= np.linalg.norm(light)
    solids = screen_solids(
        geom, position, colours, rng, glare=conditions.glare, look=look, washed=washed
    )
    draw_solids(img, cam, solids, light)
    n_hands = int(rng.integers(0, conditions.hands + 1)) if hands is None else hands
    img, _ = add_hands(img, geom, position, cam, rng, n_hands)
    if look is not None:
        img = with_cast(img, look.cast)
    return effects.photograph(
        img,
        rng,
        **effects.random_faults(
            rng, blur_max=conditions.blur_max, jpeg_min=conditions.jpeg_min, glare=conditions.glare
        ),
    )


def render_board(
    geom: BoardGeometry,
    position: BoardReading,
    colours: tuple[Colour, Colour],
    cam: VirtualCamera,
    rng: np.random.Generator,
    *,
    conditions: Conditions = Conditions(),
    hands: int | None = None,
) -> np.ndarray:
    """One photograph of `position` through `cam`, with light, arms and camera faults."""
    return shoot(
        board_picture(geom, cam, rng),
        geom,
        position,
        colours,
        cam,
        rng,
        conditions=conditions,
        hands=hands,
    )


def render_photo(
    geom: BoardGeometry,
    seed: int | tuple[int, ...],
    conditions: Conditions = Conditions(),
    *,
    setup: bool = False,
    board: bool = False,
) -> Photo:
    """The photograph number `seed`: the same seed always gives the same picture.

    `setup` also photographs the start position on the same table under the same camera
    (`Photo.setup`), which is where live play learns the screens' colours; `board` the
    same board with nothing on it, from another camera under other light, on another
    table (`Photo.board`), as a user teaches their board. Neither changes the photograph.
    """
    rng = np.random.default_rng(list(seed) if isinstance(seed, tuple) else seed)
    position = random_position(geom, rng)
    colours = random_plastics(rng)
    look = random_look(geom, rng)
    size = conditions.sizes[int(rng.integers(len(conditions.sizes)))]
    cam = random_camera(geom, rng, size, conditions.max_tilt_deg)
    before_board = rng.bit_generator.state
    base = board_picture(geom, cam, rng, colours)
    washed: set[Cell] = set()
    image = shoot(
        base, geom, position, colours, cam, rng, conditions=conditions, look=look, washed=washed
    )
    first = None
    if setup:
        first = shoot(
            base,
            geom,
            start_position(geom),
            colours,
            cam,
            rng,
            conditions=conditions,
            hands=0,
            look=look,
        )
    empty = None
    if board:
        empty = _empty_board(geom, cam, colours, before_board, rng.spawn(1)[0], conditions)
    return Photo(image, position, cam, colours, first, empty, frozenset(washed))


def _empty_board(
    geom: BoardGeometry,
    cam: VirtualCamera,
    colours: tuple[Colour, Colour],
    before_board: Mapping[str, Any],
    other: np.random.Generator,
    conditions: Conditions,
) -> np.ndarray:
    """The board `render_photo` drew (its draws replayed from `before_board`), empty,
    through another camera on another table, under other light and camera faults."""
    again = np.random.default_rng()
    again.bit_generator.state = before_board
    effects.table_texture(cam.width, cam.height, again)  # the photograph's table, skipped
    canvas = board_canvas(geom, again, colours)
    size = conditions.sizes[int(other.integers(len(conditions.sizes)))]
    cam2 = random_camera(geom, other, size, conditions.max_tilt_deg)
    table = effects.table_texture(cam2.width, cam2.height, other)
    origin = (-BOARD_RIM_MM, -BOARD_RIM_MM)
    base = cam2.render_plane(canvas, CANVAS_PX_PER_MM, origin, background=table)
    return shoot(base, geom, BoardReading(()), colours, cam2, other, conditions=conditions, hands=0)
