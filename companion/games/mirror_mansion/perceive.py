"""Read the box from one photograph: which slots hold mirrors, which way they face, where the
window card and the door are.

From above a standing mirror is little more than its top edge, and its face shows whatever
it reflects, so we read the sticker kit, not the reflections. The corner markers give the
camera pose (`pose.py`); with it the image is resampled on the plane of the mirrors' tops
(and on the plane of the cards' and the door's tops), where every top edge and dot sits at
its nominal board position whatever the tilt. On those small top-down images, per crossing:

- the green dot: its centroid lands near one of four spots, one per (slot, facing);
- the top edge's bar along each diagonal: a bright, unsaturated ridge against the board on
  the side away from the camera (the side toward it may show the mirror's own face);
- the orange dot on the door's top plane.

The slot is the best joint hypothesis of dot and bar; a bar with no dot is a mirror whose
facing we do not know (null, and the dashboard asks). The window is the card position whose
top carries the magenta dot, if one clearly does.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache

import cv2
import numpy as np

from companion.games.mirror_mansion.board import FACINGS, SLOTS, Board, Cell
from companion.games.mirror_mansion.pose import BoardPose, Calibration, estimate_pose
from companion.games.mirror_mansion.scene import BoxState, DoorSeen, MirrorSeen
from companion.games.mirror_mansion.stickers import DEFAULT_STICKERS, HueRange, StickerSettings
from companion.vision.markers import Marker, detect_markers

PX_PER_MM = 2.0
"""Scale of the top-plane resamplings: about what a 1280-pixel camera sees of the board."""
DOT_MIN_FILL = 0.3
"""A dot counts when this share of its area shows its colour (glints and blur eat the rest)."""
BAR_MIN = 0.45
"""Bar score above which a slot holds something even when no dot is seen."""
SATURATED = 150
"""A sticker's saturation, well above a mirror's pale reflection of the same hue."""
SPOT_CONTROL_MM = 11.0
"""How far along the slot the control spots lie: beyond a dot, within the mirror's length."""
DOT_SPOT_FILL = 0.45
"""A mirror's dot is there when this share of its expected spot is green."""


@dataclass(frozen=True)
class TopPlane:
    """The photograph resampled on the plane `height_mm` above the board, over `origin`+size."""

    bgr: np.ndarray
    hsv: np.ndarray
    origin_mm: tuple[float, float]

    @cached_property
    def gray(self) -> np.ndarray:
        return cv2.cvtColor(self.bgr, cv2.COLOR_BGR2GRAY)

    def px(self, xy: np.ndarray) -> np.ndarray:
        return (np.asarray(xy, np.float64) - self.origin_mm) * PX_PER_MM


def top_plane(
    image: np.ndarray,
    pose: BoardPose,
    height_mm: float,
    lo_mm: tuple[float, float],
    hi_mm: tuple[float, float],
) -> TopPlane:
    to_mm = np.array([[1 / PX_PER_MM, 0, lo_mm[0]], [0, 1 / PX_PER_MM, lo_mm[1]], [0, 0, 1]])
    H = pose.plane_homography(height_mm) @ to_mm
    size = (round((hi_mm[0] - lo_mm[0]) * PX_PER_MM), round((hi_mm[1] - lo_mm[1]) * PX_PER_MM))
    warped = cv2.warpPerspective(
        image,
        H,
        size,
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0),
    )
    return TopPlane(warped, cv2.cvtColor(warped, cv2.COLOR_BGR2HSV), lo_mm)


def colour_mask(hsv: np.ndarray, r: HueRange) -> np.ndarray:
    """Boolean mask of the pixels in a hue range (wrapping through red if hue_max < hue_min)."""
    lo, hi = (r.hue_min, r.sat_min, r.val_min), (r.hue_max, 255, 255)
    if r.hue_min <= r.hue_max:
        return cv2.inRange(hsv, lo, hi) > 0
    return (cv2.inRange(hsv, lo, (179, 255, 255)) | cv2.inRange(hsv, (0, *lo[1:]), hi)) > 0


@lru_cache(maxsize=32)
def _disc_template(r_px: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    yy, xx = np.mgrid[-r_px : r_px + 1, -r_px : r_px + 1]
    return (xx * xx + yy * yy <= r_px * r_px), xx, yy


def _disc_window(plane: TopPlane, centre_mm: tuple[float, float], radius_mm: float):
    """Slices, a disc mask and pixel coordinates around a point of the plane."""
    cx, cy = plane.px(np.array(centre_mm))
    ix, iy = round(cx), round(cy)
    r = max(1, round(radius_mm * PX_PER_MM))
    disc, dx, dy = _disc_template(r)
    h, w = plane.bgr.shape[:2]
    x0, x1 = max(0, ix - r), min(w, ix + r + 1)
    y0, y1 = max(0, iy - r), min(h, iy + r + 1)
    crop = (slice(y0 - iy + r, y1 - iy + r), slice(x0 - ix + r, x1 - ix + r))
    return (slice(y0, y1), slice(x0, x1)), disc[crop], dx[crop] + ix, dy[crop] + iy


@dataclass(frozen=True)
class DotSeen:
    fill: float
    """Coloured area over a whole dot's area."""
    centre_mm: tuple[float, float] | None


@lru_cache(maxsize=8)
def _disc_kernel(k: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


def find_dot(plane: TopPlane, mask: np.ndarray, centre_mm: tuple[float, float],
             search_mm: float, dot_area_mm2: float) -> DotSeen:
    """The dot-sized blob of a colour near a point, if there is one.

    A blob much larger than a dot (a hand, a patch of board in the sticker's colour) or one
    running off the search window is not a dot: colour alone cannot tell a glare-bleached
    orange sticker from skin, but size and shape can.
    """
    sl, disc, _, _ = _disc_window(plane, centre_mm, search_mm + 3)
    hit = (mask[sl] & disc).astype(np.uint8)
    if not hit.any():
        return DotSeen(0.0, None)
    # Opening with a disc half a dot across cuts the dot loose from thin streaks of its
    # colour (a reflection in the mirror's face, a blurred edge) and drops specks.
    k = max(3, round(0.45 * math.sqrt(4 * dot_area_mm2 / math.pi) * PX_PER_MM) | 1)
    hit = cv2.morphologyEx(hit, cv2.MORPH_OPEN, _disc_kernel(k))
    n, labels, stats, cents = cv2.connectedComponentsWithStats(hit, connectivity=8)
    expected = dot_area_mm2 * PX_PER_MM * PX_PER_MM
    best: tuple[float, tuple[float, float]] | None = None
    cx, cy = plane.px(np.array(centre_mm))
    rim = (cx - sl[1].start, cy - sl[0].start, (search_mm + 2) * PX_PER_MM)
    for i in range(1, n):
        area = float(stats[i, cv2.CC_STAT_AREA])
        if area < 0.15 * expected or area > 3.0 * expected:
            continue
        bw, bh = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        limit = 2.2 * math.sqrt(4 * expected / math.pi)
        if bw > limit or bh > limit:
            continue
        x = (float(cents[i, 0]) + sl[1].start) / PX_PER_MM + plane.origin_mm[0]
        y = (float(cents[i, 1]) + sl[0].start) / PX_PER_MM + plane.origin_mm[1]
        if math.hypot(x - centre_mm[0], y - centre_mm[1]) > search_mm:
            continue
        # A blob reaching the rim of the window goes on beyond it: not a dot.
        ys, xs = np.nonzero(labels == i)
        if float(np.max((xs - rim[0]) ** 2 + (ys - rim[1]) ** 2)) > rim[2] ** 2:
            continue
        if best is None or area > best[0]:
            best = (area, (x, y))
    if best is None:
        return DotSeen(0.0, None)
    return DotSeen(min(1.0, best[0] / expected), best[1])


def _sample(img: np.ndarray, pts_px: np.ndarray) -> np.ndarray:
    """Nearest-pixel values at many points (clamped to the image)."""
    h, w = img.shape[:2]
    x = np.clip(np.rint(pts_px[..., 0]).astype(np.intp), 0, w - 1)
    y = np.clip(np.rint(pts_px[..., 1]).astype(np.intp), 0, h - 1)
    return img[y, x].astype(np.float32)


def bar_scores(
    plane: TopPlane,
    board: Board,
    slots: list[tuple[Cell, str]],
    nadir: np.ndarray,
    length_mm: float,
    skip_mm: float,
) -> dict[tuple[Cell, str], float]:
    """How much a bright, unsaturated top edge runs along each slot, against the board beyond.

    Per step along a slot: the ridge's brightness over the board's just beyond it, on the
    side away from the camera (toward the camera a mirror may show its own face). Steps with
    a saturated ridge (the yellow insert seen through an empty slot) count as no bar; the
    median over the steps ignores glints, guide lines and the dot. All slots are sampled in
    one go: this runs for 18 slots on every frame.
    """
    half = length_mm / 2 - 3
    t = np.arange(-half, half + 0.01, 1.0)
    t = t[np.abs(t) > skip_mm]
    if len(t) < 4 or not slots:
        return dict.fromkeys(slots, 0.0)
    ridge_k = np.array([-0.6, 0.0, 0.6])
    beyond_k = np.array([4.0, 5.0, 6.0])
    ridges, beyonds = [], []
    for cell, slot in slots:
        c = np.array(board.crossing_mm(cell))
        u = np.array([1.0, -1.0] if slot == "/" else [1.0, 1.0]) / math.sqrt(2)
        n = np.array([-u[1], u[0]])
        side = 1.0 if float(n @ (c - nadir)) >= 0 else -1.0
        along = c + t[:, None] * u  # steps × 2
        ridges.append(along[:, None, :] + ridge_k[None, :, None] * n)
        beyonds.append(along[:, None, :] + side * beyond_k[None, :, None] * n)
    ridge_px = plane.px(np.stack(ridges))  # slots × steps × 3 × 2
    g_r = _sample(plane.gray, ridge_px).mean(axis=2)
    g_b = _sample(plane.gray, plane.px(np.stack(beyonds))).mean(axis=2)
    s_r = _sample(plane.hsv[..., 1], ridge_px).mean(axis=2)
    ratio = (g_r - g_b) / np.maximum(g_b, 25.0)
    ratio = np.where(s_r > 110, 0.0, ratio)
    med = np.median(ratio, axis=1)
    return {key: float(v) for key, v in zip(slots, med, strict=True)}


def spot_fill(plane: TopPlane, summed: np.ndarray, centre_mm: tuple[float, float],
              radius_mm: float, slot: str) -> float:
    """`disc_fill` at a spot, less the most of it a dot's length along the slot either way."""
    u = np.array([1.0, -1.0] if slot == "/" else [1.0, 1.0]) / math.sqrt(2)
    c = np.asarray(centre_mm, float)
    here = disc_fill(plane, summed, centre_mm, radius_mm)
    if here == 0.0:
        return 0.0
    away = max(disc_fill(plane, summed, tuple(c + k * SPOT_CONTROL_MM * u), radius_mm)
               for k in (-1, 1))
    return here - away


def coverage(mask: np.ndarray) -> np.ndarray:
    """The integral image of a mask: any box's count of set pixels in four lookups."""
    return cv2.integral(mask.view(np.uint8))


def disc_fill(plane: TopPlane, summed: np.ndarray, centre_mm: tuple[float, float],
              radius_mm: float) -> float:
    """The share of a small disc of the plane that shows the colour (`summed` is the
    mask's `coverage`; the disc is taken as the square of the same area)."""
    cx, cy = plane.px(np.asarray(centre_mm, float))
    half = radius_mm * PX_PER_MM * 0.886  # sqrt(pi) / 2: a square of the disc's area
    h, w = summed.shape[0] - 1, summed.shape[1] - 1
    x0, x1 = max(0, round(cx - half)), min(w, round(cx + half) + 1)
    y0, y1 = max(0, round(cy - half)), min(h, round(cy + half) + 1)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    n = summed[y1, x1] - summed[y0, x1] - summed[y1, x0] + summed[y0, x0]
    return float(n) / ((x1 - x0) * (y1 - y0))


def read_crossing(
    board: Board,
    cell: Cell,
    mirror_plane: TopPlane,
    door_plane: TopPlane,
    nadir: np.ndarray,
    green: tuple[np.ndarray, np.ndarray],
    orange: np.ndarray,
    stickers: StickerSettings,
    door_patch: Callable[[Cell], TopPlane],
    mirror_bars: dict[tuple[Cell, str], float],
) -> tuple[MirrorSeen | DoorSeen | None, str | None]:
    """What stands in one crossing, and a warning when the answer is unsure.

    `door_plane` covers the crossing's centre at door height; `door_patch` resamples the
    whole crossing at that height, only when a door's dot is found (to tell its slot)."""
    r = board.dot_diameter_mm / 2
    area = math.pi * r * r
    o = find_dot(door_plane, orange, board.crossing_mm(cell), r + 3, area)
    if o.fill >= DOT_MIN_FILL:
        wide = door_patch(cell)
        found = bar_scores(wide, board, [(cell, s) for s in SLOTS], nadir,
                           board.door_length_mm, r + 1)
        bars = {s: found[(cell, s)] for s in SLOTS}
        slot = max(bars, key=bars.__getitem__)
        return DoorSeen(cell, slot), None
    bars = {s: mirror_bars[(cell, s)] for s in SLOTS}
    # Each (slot, facing) puts the dot in its own spot: how much of each spot is green,
    # less how green the same spot is a dot's length along the slot either way (a dot is a
    # spot; a green mirror back, board or reflection runs on).
    # Twice: with the colour's full range (a glare-bleached dot), and saturated only (a dot
    # on a mirror face that reflects something of the same hue, paler than the sticker).
    fills = {(s, f): max(spot_fill(mirror_plane, mask, board.dot_mm(cell, f), r - 1, s)
                         for mask in green)
             for s in SLOTS for f in FACINGS[s]}
    scores = {k: v + 0.25 * math.tanh(2 * (bars[k[0]] - bars[_other(k[0])]))
              for k, v in fills.items()}
    ranked = sorted(scores, key=lambda k: -scores[k])
    (slot, facing), runner = ranked[0], ranked[1]
    if fills[(slot, facing)] >= DOT_SPOT_FILL:
        margin = scores[(slot, facing)] - scores[runner]
        conf = max(0.0, min(1.0, 1.5 * margin + 0.3 * fills[(slot, facing)]))
        if conf < stickers.min_confidence:
            return (MirrorSeen(cell, slot, None, conf),
                    f"mirror at {list(cell)}: facing unsure, please confirm")
        return MirrorSeen(cell, slot, facing, conf), None
    slot = max(bars, key=bars.__getitem__)
    if bars[slot] >= BAR_MIN:
        conf = max(0.0, min(0.49, bars[slot] - bars[_other(slot)]))
        return (
            MirrorSeen(cell, slot, None, conf),
            f"mirror at {list(cell)} ({slot}): its dot is not visible, which way does it face?",
        )
    return None, None


def _other(slot: str) -> str:
    return SLOTS[1 - SLOTS.index(slot)]


def read_window(
    board: Board, tops: dict[str, tuple[TopPlane, np.ndarray]]
) -> tuple[str | None, str | None]:
    """The card whose top carries the magenta dot, if exactly one clearly does.

    The spot at the top's centre, not a blob search: a thought-bubble icon in a like colour
    next to a card may touch the dot, and must neither merge with it nor pass for it.
    """
    r = board.dot_diameter_mm / 2
    fills = {p: disc_fill(plane, magenta, board.card_mm(p), r - 1.5)
             for p, (plane, magenta) in tops.items()}
    ranked = sorted(fills.items(), key=lambda kv: -kv[1])
    (best, f1), (_, f2) = ranked[0], ranked[1]
    if f1 >= DOT_SPOT_FILL and f1 >= 2 * f2:
        return best, None
    if f1 < DOT_SPOT_FILL:
        return None, "window card not seen (its magenta dot is hidden?)"
    return None, "two card tops look like the window: please confirm"


def read_box(
    image: np.ndarray,
    board: Board,
    stickers: StickerSettings = DEFAULT_STICKERS,
    calibration: Calibration | None = None,
    markers: dict[int, Marker] | None = None,
) -> BoxState:
    """One photograph to a `BoxState`; `seen=False` (and nothing else) with too few markers."""
    return read_frame(image, board, stickers, calibration, markers)[0]


def read_frame(
    image: np.ndarray,
    board: Board,
    stickers: StickerSettings = DEFAULT_STICKERS,
    calibration: Calibration | None = None,
    markers: dict[int, Marker] | None = None,
) -> tuple[BoxState, BoardPose | None]:
    """The reading and the camera pose it was made with (None when the board was not found).

    `markers` may come from an earlier detection on the same (raw) image. With a lens
    calibration the image and the marker corners are undistorted first, so the pinhole
    homographies of the top planes hold.
    """
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError("need a BGR colour image")
    found = detect_markers(image) if markers is None else markers
    h, w = image.shape[:2]
    if calibration is not None and np.any(calibration.dist):
        image = cv2.undistort(image, calibration.K, calibration.dist)
        found = {
            i: Marker(i, cv2.undistortPoints(m.corners.reshape(-1, 1, 2).astype(np.float64),
                                             calibration.K, calibration.dist, P=calibration.K
                                             ).reshape(4, 2).astype(np.float32))
            for i, m in found.items()
        }
        calibration = Calibration(calibration.K, np.zeros(5))
    pose = estimate_pose(found, board, (w, h), calibration)
    if pose is None:
        seen = sorted(i for i in found if i in {m.id for m in board.markers})
        ids = [m.id for m in board.markers]
        return BoxState(
            seen=False,
            warnings=(
                f"only {len(seen)} of the board's corner markers {ids} visible {seen}: "
                "need at least 3 to read the board",
            ),
        ), None
    return read_with_pose(image, board, pose, stickers), pose


def square_plane(image: np.ndarray, pose: BoardPose, height_mm: float,
                 centre_mm: tuple[float, float], half_mm: float) -> TopPlane:
    x, y = centre_mm
    return top_plane(image, pose, height_mm, (x - half_mm, y - half_mm), (x + half_mm, y + half_mm))


def read_with_pose(
    image: np.ndarray, board: Board, pose: BoardPose, stickers: StickerSettings = DEFAULT_STICKERS
) -> BoxState:
    """Only the regions where tops can be are resampled: the crossings at mirror height,
    a small square per card top and per crossing at door height."""
    xs, ys = board.crossing_x_mm, board.crossing_y_mm
    reach = board.mirror_length_mm / 2 + 8
    lo = (min(xs) - reach, min(ys) - reach)
    hi = (max(xs) + reach, max(ys) + reach)
    mirror_plane = top_plane(image, pose, board.mirror_height_mm, lo, hi)
    dot = stickers.mirror_dot
    saturated = dot.model_copy(update={"sat_min": max(dot.sat_min, SATURATED)})
    green = (coverage(colour_mask(mirror_plane.hsv, dot)),
             coverage(colour_mask(mirror_plane.hsv, saturated)))
    r = board.dot_diameter_mm / 2
    nadir = pose.camera_centre[:2]
    skip = board.dot_offset_mm + r + 1
    mirror_bars = bar_scores(mirror_plane, board, [(c, s) for c in board.cells for s in SLOTS],
                             nadir, board.mirror_length_mm, skip)
    mirrors: list[MirrorSeen] = []
    door: DoorSeen | None = None
    warnings: list[str] = []
    if len(pose.markers) < len(board.markers):
        missing = sorted({m.id for m in board.markers} - set(pose.markers))
        warnings.append(f"corner marker(s) {missing} hidden: read from the other three")
    for cell in board.cells:
        door_plane = square_plane(image, pose, stickers.door_height_mm, board.crossing_mm(cell),
                                  r + 6)
        orange = colour_mask(door_plane.hsv, stickers.door_dot)
        piece, warning = read_crossing(
            board, cell, mirror_plane, door_plane, nadir, green, orange, stickers,
            lambda c: square_plane(image, pose, stickers.door_height_mm, board.crossing_mm(c),
                                   board.door_length_mm / 2 + 8),
            mirror_bars,
        )
        if isinstance(piece, MirrorSeen):
            mirrors.append(piece)
        elif isinstance(piece, DoorSeen):
            door = piece
        if warning:
            warnings.append(warning)
    tops = {}
    for p in board.positions:
        plane = square_plane(image, pose, board.card_height_mm, board.card_mm(p), r + 5)
        tops[p] = (plane, coverage(colour_mask(plane.hsv, stickers.window_dot)))
    window, warning = read_window(board, tops)
    if warning:
        warnings.append(warning)
    return BoxState(tuple(mirrors), window, door, tuple(warnings))
