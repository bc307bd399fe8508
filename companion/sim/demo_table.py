"""The demo table: corner markers, a few plain cards sliding about, a hand now and then.

It is what the `sim` camera shows when the active game brings no scene of its own, and the
scene the registration tests and benchmark photograph from many poses. The static part
(table, markers, light) is rendered once per camera; a frame adds only the cards, the hand,
noise and JPEG, so it keeps up with ~10 fps at 1280×960 on one core.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.config import TableSettings
from companion.sim import effects
from companion.sim.camera import VirtualCamera
from companion.vision.markers import marker_image

CANVAS_PX_PER_MM = 2.0
SURROUND_MM = 120.0
"""Table surface drawn beyond the marker centres on every side."""
CARD_MM = (63.0, 88.0)
CARD_COLOURS: dict[str, tuple[int, int, int]] = {  # BGR
    "red": (40, 40, 200),
    "blue": (190, 90, 30),
    "yellow": (40, 200, 230),
    "green": (60, 160, 50),
}
SLIDE_PERIOD_S = 6.0
SLIDE_S = 1.5
HAND_PERIOD_S = 9.0
HAND_VISIBLE_S = 3.0


def corner_centres_mm(table: TableSettings) -> dict[int, tuple[float, float]]:
    """Marker id → its centre in table mm: top-left, top-right, bottom-right, bottom-left."""
    w, h = table.width_mm, table.height_mm
    return dict(zip(table.corner_ids, [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)], strict=True))


def draw_marker(
    canvas: np.ndarray,
    marker_id: int,
    center_mm: tuple[float, float],
    side_mm: float,
    px_per_mm: float,
    origin_mm: tuple[float, float],
    quiet_zone: float = 0.25,
) -> None:
    """Paste a marker upright, with a white quiet zone, as a printed sticker would lie."""
    side = round(side_mm * px_per_mm)
    pad = round(side_mm * quiet_zone * px_per_mm)
    # Pixel i of the canvas is centred on origin + i / px_per_mm (as render_plane reads it),
    # so a block of `side` pixels is centred on its middle index, half a pixel off its edges.
    cx = (center_mm[0] - origin_mm[0]) * px_per_mm
    cy = (center_mm[1] - origin_mm[1]) * px_per_mm
    x0, y0 = round(cx - side / 2 + 0.5), round(cy - side / 2 + 0.5)
    canvas[y0 - pad : y0 + side + pad, x0 - pad : x0 + side + pad] = 255
    patch = marker_image(marker_id, side)
    canvas[y0 : y0 + side, x0 : x0 + side] = patch[..., None] if canvas.ndim == 3 else patch


def table_canvas(
    table: TableSettings,
    rng: np.random.Generator,
    *,
    px_per_mm: float = CANVAS_PX_PER_MM,
    surround_mm: float = SURROUND_MM,
    kind: str | None = None,
) -> tuple[np.ndarray, tuple[float, float]]:
    """A top-down table with the four corner markers; returns it and its origin in mm."""
    # Half a canvas pixel off, so markers of a whole number of pixels sit centred on their mm.
    origin = (-surround_mm + 0.5 / px_per_mm, -surround_mm + 0.5 / px_per_mm)
    w = round((table.width_mm + 2 * surround_mm) * px_per_mm)
    h = round((table.height_mm + 2 * surround_mm) * px_per_mm)
    canvas = effects.table_texture(w, h, rng, kind)
    for mid, centre in corner_centres_mm(table).items():
        draw_marker(canvas, mid, centre, table.marker_size_mm, px_per_mm, origin)
    return canvas, origin


def overhead_camera(
    table: TableSettings,
    width: int = 1280,
    height: int = 960,
    *,
    tilt_deg: float = 6.0,
    yaw_deg: float = 2.0,
    hfov_deg: float = 66.0,
    fill: float = 0.85,
) -> VirtualCamera:
    """A camera over the play area's centre, far enough to see all four markers."""
    need_w = table.width_mm / 2 + 2 * table.marker_size_mm
    need_h = table.height_mm / 2 + 2 * table.marker_size_mm
    tan_h = math.tan(math.radians(hfov_deg) / 2)
    tan_v = tan_h * height / width
    distance = max(need_w / tan_h, need_h / tan_v) / fill
    return VirtualCamera.looking_at(
        (table.width_mm / 2, table.height_mm / 2),
        distance,
        tilt_deg=tilt_deg,
        yaw_deg=yaw_deg,
        width=width,
        height=height,
        hfov_deg=hfov_deg,
    )


@dataclass(frozen=True)
class _Card:
    colour: str
    first_slot: int
    slide_at: float
    """Seconds into each period when this card starts its slide to the next slot."""


def _ease(x: float) -> float:
    return 0.5 - 0.5 * math.cos(math.pi * min(1.0, max(0.0, x)))


class DemoTableScene:
    """`frame(t)` → (BGR image, ground truth); the same t and seed give the same picture."""

    def __init__(
        self,
        table: TableSettings | None = None,
        seed: int = 0,
        *,
        width: int = 1280,
        height: int = 960,
        camera: VirtualCamera | None = None,
        hands: bool = True,
        jpeg_quality: int | None = 85,
    ) -> None:
        self.table = table or TableSettings()
        self.seed = seed
        self.hands = hands
        self.jpeg_quality = jpeg_quality
        self.camera = camera or overhead_camera(self.table, width, height)
        rng = np.random.default_rng(seed)
        canvas, origin = table_canvas(self.table, rng, kind="wood" if seed % 2 else "cloth")
        plain = self.camera.render_plane(canvas, CANVAS_PX_PER_MM, origin)
        grey = np.full_like(plain, 200)
        self._gain = effects.uneven_light(grey, rng, strength=0.25).astype(np.float32) / 200.0
        self.background = np.clip(plain * self._gain, 0, 255).astype(np.uint8)
        noise = [rng.normal(0, 2.5, plain.shape) for _ in range(3)]
        self._noise = [
            (np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8))
            for n in noise
        ]
        w, h = self.table.width_mm, self.table.height_mm
        grid = [(w * fx, h * fy) for fy in (0.3, 0.7) for fx in (0.2, 0.4, 0.6, 0.8)]
        order = rng.permutation(len(grid))
        self._slots = [grid[int(i)] for i in order]
        # Card i rests on slot 2i + step and slides to the next one: two cards never rest on
        # the same slot, and their slides are staggered through the period.
        self._cards = [
            _Card(colour, 2 * i, SLIDE_PERIOD_S - SLIDE_S - i * (SLIDE_PERIOD_S - SLIDE_S) / 4)
            for i, colour in enumerate(CARD_COLOURS)
        ]
        self.marker_centres_mm = corner_centres_mm(self.table)

    def _card_pose(self, card: _Card, t: float) -> tuple[float, float, float, bool]:
        step, into = divmod(t, SLIDE_PERIOD_S)
        n = len(self._slots)
        a = self._slots[(card.first_slot + int(step)) % n]
        b = self._slots[(card.first_slot + int(step) + 1) % n]
        k = (into - card.slide_at) / SLIDE_S
        angle = 8.0 * math.sin(card.first_slot + step + min(1.0, max(0.0, k)))
        k = _ease(k)
        return a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k, angle, 0.0 < k < 1.0

    def _draw_card(self, img: np.ndarray, cx: float, cy: float, angle: float, colour: str) -> None:
        cw, ch = CARD_MM
        c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        quad = [
            (cx + c * dx - s * dy, cy + s * dx + c * dy)
            for dx, dy in (
                (-cw / 2, -ch / 2),
                (cw / 2, -ch / 2),
                (cw / 2, ch / 2),
                (-cw / 2, ch / 2),
            )
        ]
        outer = self.camera.project(np.array(quad))
        inner = self.camera.project(
            np.array([(cx + (x - cx) * 0.88, cy + (y - cy) * 0.9) for x, y in quad])
        )
        px, py = np.clip(outer.mean(axis=0).astype(int), 0, [img.shape[1] - 1, img.shape[0] - 1])
        gain = self._gain[py, px]
        cv2.fillConvexPoly(
            img, np.round(outer).astype(np.int32), tuple(float(v) for v in 235 * gain), cv2.LINE_AA
        )
        cv2.fillConvexPoly(
            img,
            np.round(inner).astype(np.int32),
            tuple(float(v) for v in np.array(CARD_COLOURS[colour]) * gain),
            cv2.LINE_AA,
        )

    def _hand(self, img: np.ndarray, t: float) -> tuple[np.ndarray, np.ndarray | None]:
        """Hands reach in during part of each period.

        Pass n % 4 == 0 or 2: one hand to the middle of the table; 1: one hand over a corner
        marker (three remain: registration follows); 3: two hands over two markers (too few
        remain: registration holds).
        """
        n, into = divmod(t, HAND_PERIOD_S)
        n = int(n)
        start = HAND_PERIOD_S - HAND_VISIBLE_S
        if not self.hands or into < start:
            return img, None
        ids = list(self.marker_centres_mm)
        first = ids[n // 4 % 4]
        targets: list[tuple[float, float]]
        if n % 4 == 1:
            targets = [self.marker_centres_mm[first]]
        elif n % 4 == 3:
            targets = [self.marker_centres_mm[first], self.marker_centres_mm[ids[(n // 4 + 2) % 4]]]
        else:
            rng = np.random.default_rng((self.seed, n))
            targets = [
                (
                    self.table.width_mm * rng.uniform(0.3, 0.7),
                    self.table.height_mm * rng.uniform(0.3, 0.7),
                )
            ]
        # In, rest, out: each reach goes edge → target → edge over the visible time.
        k = (into - start) / HAND_VISIBLE_S
        reach_k = _ease(min(1.0, 3 * k)) if k < 0.5 else _ease(min(1.0, 3 * (1 - k)))
        h, w = img.shape[:2]
        mask = np.zeros((h, w), np.uint8)
        for j, target_mm in enumerate(targets):
            tx, ty = self.camera.project(np.array([target_mm]))[0]
            # From the picture edge nearest the target, as a player's arm would come.
            edge, entry = min(
                [
                    ("left", (0.0, ty), tx),
                    ("right", (float(w), ty), w - tx),
                    ("top", (tx, 0.0), ty),
                    ("bottom", (tx, float(h)), h - ty),
                ],
                key=lambda e: e[2],
            )[:2]
            reach = (entry[0] + (tx - entry[0]) * reach_k, entry[1] + (ty - entry[1]) * reach_k)
            img, arm = effects.hand(
                img, np.random.default_rng((self.seed, n, j)), reach=reach, edge=edge
            )
            mask |= arm
        return img, mask

    def _covered(self, hand_mask: np.ndarray) -> list[int]:
        """Markers with any corner or their centre under the hand: a detector will miss them."""
        h, w = hand_mask.shape
        out = []
        side = self.table.marker_size_mm
        for mid, (cx, cy) in self.marker_centres_mm.items():
            pts = [(cx, cy)] + [
                (cx + dx * side / 2, cy + dy * side / 2) for dx in (-1, 1) for dy in (-1, 1)
            ]
            px = np.round(self.camera.project(np.array(pts))).astype(int)
            inside = (px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)
            if any(hand_mask[y, x] for x, y in px[inside]):
                out.append(mid)
        return out

    def frame(self, t: float) -> tuple[np.ndarray, dict[str, Any]]:
        img = self.background.copy()
        cards = []
        for card in self._cards:
            cx, cy, angle, moving = self._card_pose(card, t)
            self._draw_card(img, cx, cy, angle, card.colour)
            cards.append(
                {"colour": card.colour, "center_mm": [cx, cy], "angle_deg": angle, "moving": moving}
            )
        img, hand_mask = self._hand(img, t)
        pos, neg = self._noise[int(t * 1000) % len(self._noise)]
        img = cv2.subtract(cv2.add(img, pos), neg)
        if self.jpeg_quality is not None:
            img = effects.jpeg(img, self.jpeg_quality)
        marker_px = {
            mid: self.camera.project(np.array([c]))[0] for mid, c in self.marker_centres_mm.items()
        }
        covered = [] if hand_mask is None else self._covered(hand_mask)
        truth = {
            "t": t,
            "cards": cards,
            "hand": hand_mask is not None,
            "covered_markers": covered,
            "markers_px": {mid: [float(p[0]), float(p[1])] for mid, p in marker_px.items()},
            "H_image_from_table": self.camera.plane_homography(0.0).tolist(),
        }
        return img, truth
