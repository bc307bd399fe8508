"""Synthetic photographs of a Looking Glass table, with exact ground truth.

The renderer lays cards out in table millimetres from the engine's layout geometry (with the
few millimetres and degrees of a deal by hand), then draws each card straight into the
camera image through the plane homography of `companion.sim.camera.VirtualCamera`: a card
costs a warp of its own bounding box, not of the whole frame, so a round of frames renders
quickly. Light, glare, shadow, noise, blur and JPEG come from `companion.sim.effects`.

Ground truth has the shape of `companion read looking-glass --json`, plus a `truth` object
with the conditions and every card's position name.

A deck drawn in the `house` style (`art.draw_deck(ids, seed)`) renders exactly as it always
has: the tests and the live `sim` camera rely on it. A deck drawn in a randomised style
(`DeckStyle.sample`) also brings its own card size, corner radius, sleeves and gloss, and its
tables are drawn from a wider set (felt too, and light or dark ones matched to the cards).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from companion.config import TableSettings
from companion.games.looking_glass.rules.deck import load_deck
from companion.games.looking_glass.rules.layout import (
    CARDS_PER_HALF,
    Layout,
    TableGeometry,
    load_layouts,
    placements,
)
from companion.games.looking_glass.vision.art import (
    CARD_H_MM,
    CARD_W_MM,
    FACE_PX_PER_MM,
    CardArt,
    DeckStyle,
    deck_style,
    draw_deck,
    scan,
)
from companion.sim import effects
from companion.sim.camera import VirtualCamera
from companion.vision.homography import apply_homography
from companion.vision.markers import marker_image

MIN_CARD_PX = 84.0
"""Smallest card width in a render, a little above the 80 px the reader is specified for."""
NOISE_SHIFT = 64
"""A film frame's sensor noise is its camera's noise field shifted by up to this many px."""


# -- what lies on the table ----------------------------------------------------------------
@dataclass
class CardPose:
    """A card on the table: centre in table mm and the direction of its top edge."""

    card: str
    x: float
    y: float
    rotation_deg: float
    sleeve: bool = False
    w: float = CARD_W_MM
    h: float = CARD_H_MM

    def corners(self, w: float | None = None, h: float | None = None) -> np.ndarray:
        w = self.w if w is None else w
        h = self.h if h is None else h
        a = math.radians(self.rotation_deg)
        ca, sa = math.cos(a), math.sin(a)
        local = np.array([(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)])
        return np.array([(self.x + u * ca - v * sa, self.y + u * sa + v * ca) for u, v in local])

    def table_from_card(self, px_per_mm: float) -> np.ndarray:
        """3×3 map from face-image pixels to table mm."""
        a = math.radians(self.rotation_deg)
        ca, sa = math.cos(a), math.sin(a)
        s = 1.0 / px_per_mm
        to_local = np.array([[s, 0, -self.w / 2], [0, s, -self.h / 2], [0, 0, 1]])
        rot = np.array([[ca, -sa, self.x], [sa, ca, self.y], [0, 0, 1]])
        return rot @ to_local


@dataclass
class Table:
    """One moment of a round: the glass (position -> pose), both score piles, the glass frame."""

    layout: Layout
    layout_known: bool
    glass: dict[str, CardPose]
    piles: list[Counter[str]] = field(default_factory=lambda: [Counter(), Counter()])
    glass_angle_deg: float = 0.0
    """Rotation of the Looking Glass on the table (table mm frame = glass frame rotated)."""
    geometry: TableGeometry = field(default_factory=TableGeometry)
    """The deck's card size and the spacing it is dealt with."""

    def covered(self, name: str) -> bool:
        half, cell = self.layout.locate(name)
        return any(self.layout.name_of(half, j) in self.glass for j in self.layout.covered_by[cell])

    def free_positions(self) -> list[str]:
        return [n for n in self.glass if not self.covered(n)]


def random_layout(rng: np.random.Generator) -> Layout:
    """A valid layout card nobody printed: rows of cards, each row on the lower half of the last."""
    for _ in range(200):
        rows: list[list[int]] = []
        left = int(rng.integers(0, 3))
        first = int(rng.integers(3, 7))
        rows.append([left + 2 * k for k in range(first)])
        total = first
        while total < CARDS_PER_HALF:
            prev = rows[-1]
            lo, hi = min(prev) - 1, max(prev) + 1
            shift = int(rng.choice([-1, 0, 1]))
            n = int(rng.integers(max(1, len(prev) - 2), len(prev) + 2))
            n = min(n, CARDS_PER_HALF - total)
            start = max(lo, min(prev) + shift)
            row = [start + 2 * k for k in range(n)]
            row = [c for c in row if c >= 0 and any(abs(c - u) < 2 for u in prev) and c <= hi]
            if not row:
                break
            rows.append(row)
            total += len(row)
        if total == CARDS_PER_HALF and 3 <= len(rows) <= 6 and max(max(r) for r in rows) <= 12:
            return Layout("unnamed", "Unnamed", tuple(tuple(r) for r in rows))
    return load_layouts()["pyramid"]


def deal_table(
    rng: np.random.Generator,
    layout: Layout,
    *,
    brawlers: bool,
    jitter_mm: float = 1.5,
    jitter_deg: float = 1.5,
    sleeves: bool = False,
    layout_known: bool = True,
    glass: dict[str, str] | None = None,
    geometry: TableGeometry | None = None,
) -> Table:
    """Cards dealt by hand onto `layout`, a few millimetres and degrees off."""
    if glass is None:
        cards = load_deck().cards(brawlers)
        order = rng.permutation(len(cards))
        ids = [cards[i] for i in order][: 2 * CARDS_PER_HALF]
        glass = dict(zip(layout.position_names, ids, strict=True))
    geometry = geometry or TableGeometry()
    poses = {}
    for name, p in placements(layout, geometry).items():
        dx, dy = np.clip(rng.normal(0, jitter_mm, 2), -4, 4)
        da = float(np.clip(rng.normal(0, jitter_deg), -4, 4))
        poses[name] = CardPose(
            glass[name],
            p.x + dx,
            p.y + dy,
            p.rotation_deg + da,
            sleeves,
            geometry.card_w,
            geometry.card_h,
        )
    return Table(layout, layout_known, poses, glass_angle_deg=0.0, geometry=geometry)


def deck_geometry(style: DeckStyle) -> TableGeometry:
    """How a deck of this size is dealt: the layout's spacing follows the card."""
    return TableGeometry(style.width_mm, style.height_mm)


def take(table: Table, name: str, seat: int) -> None:
    """Seat `seat` takes the card at `name`; the other seat takes its reflection."""
    other = table.layout.reflection(name)
    table.piles[seat][table.glass.pop(name).card] += 1
    table.piles[1 - seat][table.glass.pop(other).card] += 1


# -- camera and conditions -----------------------------------------------------------------
@dataclass
class Conditions:
    width: int = 1280
    height: int = 960
    tilt_deg: float = 0.0
    yaw_deg: float = 0.0
    glass_angle_deg: float = 0.0
    card_px: float = 100.0
    """Target card width in pixels at the glass centre."""
    table_kind: str = "plain"
    markers: bool = True
    light: bool = True
    glare: bool = False
    shadow: bool = False
    noise_sigma: float = 3.0
    blur_sigma: float = 0.0
    jpeg_quality: int | None = 85
    sleeves: bool = False
    hand: bool = False
    table_tone: str | None = None
    """"light" or "dark" to match a table to its cards; None: any colour."""

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def sample_conditions(rng: np.random.Generator) -> Conditions:
    """A point in the space the reader is specified for (tilt <= 25°, any rotation, ...)."""
    size = [(1280, 960)] * 6 + [(1600, 1200), (1920, 1440)]
    w, h = size[int(rng.integers(len(size)))]
    return Conditions(
        width=w,
        height=h,
        tilt_deg=float(rng.choice([0.0, rng.uniform(0, 25)])),
        yaw_deg=float(rng.uniform(0, 360)),
        glass_angle_deg=float(rng.uniform(0, 360)),
        card_px=float(rng.uniform(MIN_CARD_PX, 120)) * w / 1280,
        table_kind=str(rng.choice(effects.TABLE_KINDS)),
        markers=bool(rng.random() < 0.5),
        light=bool(rng.random() < 0.8),
        glare=bool(rng.random() < 0.3),
        shadow=bool(rng.random() < 0.3),
        noise_sigma=float(rng.uniform(1, 6)),
        blur_sigma=float(rng.choice([0.0, rng.uniform(0.5, 1.3)])),
        jpeg_quality=int(rng.integers(60, 95)) if rng.random() < 0.8 else None,
        sleeves=bool(rng.random() < 0.3),
        hand=bool(rng.random() < 0.2),
    )


WORLD_TABLE_KINDS = (*effects.TABLE_KINDS, "felt")


def world_conditions(rng: np.random.Generator, cond: Conditions, style: DeckStyle) -> Conditions:
    """A randomised deck's scene: any table, and often one of the cards' own tone (light cards
    on a light cloth, dark cards on a dark table), the hardest case for finding card edges.
    Sleeves come with the deck, not the scene."""
    kind = str(rng.choice(WORLD_TABLE_KINDS))
    tone = None
    if rng.random() < 0.4:
        tone = "light" if style.light_border else "dark"
    elif rng.random() < 0.5:
        tone = str(rng.choice(["light", "dark"]))
    return replace(cond, table_kind=kind, table_tone=tone, sleeves=False)


def _glass_to_table(angle_deg: float) -> np.ndarray:
    a = math.radians(angle_deg)
    return np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])


def choose_camera(table: Table, cond: Conditions) -> tuple[VirtualCamera, np.ndarray]:
    """A camera that sees the whole glass with cards at least MIN_CARD_PX wide.

    Returns the camera and H_image_from_glass (glass mm -> image px)."""
    G = _glass_to_table(cond.glass_angle_deg)
    corners = np.vstack([apply_homography(G, p.corners()) for p in table.glass.values()])
    centre = corners.mean(axis=0)
    tilt = cond.tilt_deg
    f = (cond.width / 2) / math.tan(math.radians(66.0) / 2)
    scale = cond.card_px / CARD_W_MM
    for _ in range(40):
        cam = VirtualCamera.looking_at(
            (float(centre[0]), float(centre[1])),
            f / scale,
            tilt_deg=tilt,
            yaw_deg=cond.yaw_deg,
            width=cond.width,
            height=cond.height,
        )
        H = cam.plane_homography() @ G
        img = apply_homography(H, np.vstack([p.corners() for p in table.glass.values()]))
        widths = np.linalg.norm(img[1::4] - img[0::4], axis=1)
        margin = 0.03 * cond.width
        inside = (
            img[:, 0].min() > margin
            and img[:, 1].min() > margin
            and img[:, 0].max() < cond.width - margin
            and img[:, 1].max() < cond.height - margin
        )
        if widths.min() < MIN_CARD_PX * cond.width / 1280 * 0.98:
            scale *= 1.04
            continue
        if inside:
            return cam, H
        scale *= 0.97
        if scale * CARD_W_MM < MIN_CARD_PX * cond.width / 1280:
            tilt *= 0.8  # a steep camera cannot fit this glass: lean it less
            scale = cond.card_px / CARD_W_MM
    return cam, H


# -- drawing -------------------------------------------------------------------------------
SLEEVE_MM = 1.5
"""How far a sleeve reaches past the card on every side."""


def card_object(art: CardArt, ppm: float) -> tuple[np.ndarray, np.ndarray, int]:
    """A randomised-style card as it lies on the table: (BGR, coverage 0..1, margin px) at
    `ppm` px per mm, with its rounded corners and its sleeve (a clear or matte film a little
    larger than the card, or one whose coloured back shows round the edge)."""
    style = art.style
    k = ppm / FACE_PX_PER_MM
    face = (
        art.face if k == 1 else cv2.resize(art.face, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    )
    h, w = face.shape[:2]
    if art.mask is None:
        alpha = np.ones((h, w), np.float32)
    else:
        alpha = cv2.resize(art.mask, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    if style.sleeve == "none":
        return face, alpha, 0
    pad = max(1, round(SLEEVE_MM * ppm))
    haze = {"clear": 0.06, "matte": 0.18, "coloured": 0.06}[style.sleeve]
    film = np.array(
        {"clear": (235, 235, 235), "matte": (205, 205, 205), "coloured": (235, 235, 235)}[
            style.sleeve
        ],
        np.float32,
    )
    body = face.astype(np.float32) * (1 - haze) + film * haze
    if style.sleeve == "matte":
        body = cv2.GaussianBlur(body, (0, 0), max(0.5, 0.25 * ppm))
    H, W = h + 2 * pad, w + 2 * pad
    rim = np.array(style.sleeve_bgr if style.sleeve == "coloured" else film, np.float32)
    out = np.empty((H, W, 3), np.float32)
    out[:] = rim
    cover = np.zeros((H, W), np.float32)
    r = max(1, round(3.0 * ppm))
    m = np.zeros((H, W), np.uint8)
    cv2.rectangle(m, (r, 0), (W - 1 - r, H - 1), 255, -1)
    cv2.rectangle(m, (0, r), (W - 1, H - 1 - r), 255, -1)
    for cx, cy in ((r, r), (W - 1 - r, r), (r, H - 1 - r), (W - 1 - r, H - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    cover[:] = m.astype(np.float32) / 255 * (0.95 if style.sleeve == "coloured" else 0.35)
    inner = out[pad : pad + h, pad : pad + w]
    a = alpha[..., None]
    out[pad : pad + h, pad : pad + w] = body * a + inner * (1 - a)
    cover[pad : pad + h, pad : pad + w] = np.maximum(cover[pad : pad + h, pad : pad + w], alpha)
    return np.clip(out, 0, 255).astype(np.uint8), cover, pad


def _gloss(obj: np.ndarray, cover: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A glossy card catching the lamp: a soft bright streak somewhere on it."""
    h, w = obj.shape[:2]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    a = rng.uniform(0, math.pi)
    u = (x - cx) * math.cos(a) + (y - cy) * math.sin(a)
    v = -(x - cx) * math.sin(a) + (y - cy) * math.cos(a)
    r = rng.uniform(0.1, 0.3) * w
    blob = np.exp(-(u * u / (2 * (2.5 * r) ** 2) + v * v / (2 * r * r))) * rng.uniform(0.25, 0.6)
    out = obj.astype(np.float32)
    out += (255 - out) * (blob * (cover > 0.5))[..., None]
    return out.astype(np.uint8)


class Painter:
    """Draws cards of one deck's art into images of one camera, with cached resampled faces."""

    def __init__(self, art: dict[str, CardArt], H_image_from_glass: np.ndarray, card_px: float):
        self.H = H_image_from_glass
        self.faces: dict[str, np.ndarray] = {}
        self.face_ppm = FACE_PX_PER_MM
        self.style = deck_style(art)
        target = max(2.0, 2.0 * card_px / CARD_W_MM)
        if target < FACE_PX_PER_MM:
            k = target / FACE_PX_PER_MM
            self.face_ppm = FACE_PX_PER_MM * k
            for cid, a in art.items():
                self.faces[cid] = cv2.resize(a.face, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        else:
            self.faces = {cid: a.face for cid, a in art.items()}
        self.objects: dict[str, tuple[np.ndarray, np.ndarray, int]] = {}
        """Randomised styles: each card with its corners and sleeve (the house style has none)."""
        if not self.style.is_house:
            self.objects = {cid: card_object(a, self.face_ppm) for cid, a in art.items()}

    def card(self, img: np.ndarray, pose: CardPose) -> None:
        if pose.card in self.objects:
            self._object(img, pose)
            return
        face = self.faces[pose.card]
        Hc = self.H @ pose.table_from_card(self.face_ppm)
        box = _image_box(Hc, face.shape, img.shape)
        if box is None:
            return
        T, size, (x0, y0, x1, y1) = box
        if pose.sleeve:
            face = cv2.copyMakeBorder(face, 4, 4, 4, 4, cv2.BORDER_CONSTANT, value=(235, 235, 235))
            T = T @ np.array([[1, 0, -4], [0, 1, -4], [0, 0, 1]], float)
        warped = cv2.warpPerspective(face, T, size, flags=cv2.INTER_LINEAR)
        mask = (
            cv2.warpPerspective(
                np.full(face.shape[:2], 255, np.uint8), T, size, flags=cv2.INTER_LINEAR
            ).astype(np.float32)[..., None]
            / 255
        )
        if pose.sleeve:
            mask *= 0.97
        roi = img[y0:y1, x0:x1].astype(np.float32)
        img[y0:y1, x0:x1] = (roi * (1 - mask) + warped.astype(np.float32) * mask).astype(np.uint8)

    def _object(self, img: np.ndarray, pose: CardPose) -> None:
        obj, cover, pad = self.objects[pose.card]
        if self.style.finish == "glossy":
            where = [
                round(abs(pose.x) * 10),
                round(abs(pose.y) * 10),
                round(pose.rotation_deg) % 360,
            ]
            grng = np.random.default_rng(where)
            if grng.random() < 0.35:
                obj = _gloss(obj, cover, grng)
        Hc = (
            self.H
            @ pose.table_from_card(self.face_ppm)
            @ np.array([[1, 0, -pad], [0, 1, -pad], [0, 0, 1]], float)
        )
        box = _image_box(Hc, obj.shape, img.shape)
        if box is None:
            return
        T, size, (x0, y0, x1, y1) = box
        warped = cv2.warpPerspective(obj, T, size, flags=cv2.INTER_LINEAR)
        mask = cv2.warpPerspective(cover, T, size, flags=cv2.INTER_LINEAR)[..., None]
        roi = img[y0:y1, x0:x1].astype(np.float32)
        img[y0:y1, x0:x1] = (roi * (1 - mask) + warped.astype(np.float32) * mask).astype(np.uint8)

    def marker(
        self,
        img: np.ndarray,
        marker_id: int,
        centre_mm: np.ndarray,
        side_mm: float,
        H_image_from_table: np.ndarray,
    ) -> None:
        px = 120
        m = marker_image(marker_id, px)
        m = cv2.copyMakeBorder(m, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=255)
        m = cv2.cvtColor(m, cv2.COLOR_GRAY2BGR)
        s = side_mm / px
        T = np.array(
            [
                [s, 0, centre_mm[0] - side_mm / 2 - 20 * s],
                [0, s, centre_mm[1] - side_mm / 2 - 20 * s],
                [0, 0, 1],
            ]
        )
        Hm = H_image_from_table @ T
        warped = cv2.warpPerspective(m, Hm, (img.shape[1], img.shape[0]), flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(
            np.full(m.shape[:2], 255, np.uint8), Hm, (img.shape[1], img.shape[0])
        )
        img[mask > 128] = warped[mask > 128]


def pile_poses(table: Table) -> list[CardPose]:
    """Each player's stacks, beside the glass at their own end, in the rulebook's 5×2 grid.

    Player A sits beyond half A (y > 0) and keeps her piles to the left of the glass as the
    camera sees it; player B's lie point-symmetric, so no pile is the mirror image of another.
    """
    deck = load_deck()
    g = table.geometry
    cw, ch = g.card_w, g.card_h
    xs = [p.x for p in placements(table.layout, g).values()]
    edge = max(abs(min(xs)), abs(max(xs))) + cw / 2 + 45
    out = []
    for seat, pile in enumerate(table.piles):
        sign = 1 if seat == 0 else -1
        for k, cid in enumerate(deck.ids):
            n = pile.get(cid, 0)
            if not n:
                continue
            c = deck.character(cid)
            row = 0 if c.team == "sun" else 1
            col = deck.normal_ids.index(cid) % 5 if c.team != "brawler" else 5
            gx = edge + cw / 2 + row * (cw + 6)
            gy = 20 + ch / 2 + col * (ch * 0.55)
            for j in range(n):
                out.append(
                    CardPose(
                        cid,
                        -sign * (gx + 2 * j),
                        sign * (gy + 3 * j),
                        0.0 if seat == 0 else 180.0,
                        w=cw,
                        h=ch,
                    )
                )
            del k
    return out


TablePainter = Callable[[int, int, np.random.Generator], np.ndarray]
"""(width, height, rng) -> a BGR table surface, seen from straight above."""


class TableCamera:
    """A fixed camera, table and light over one table: renders any moment of a round."""

    def __init__(
        self,
        art: dict[str, CardArt],
        table: Table,
        cond: Conditions,
        seed: int,
        table_painter: TablePainter | None = None,
    ):
        self.art = art
        self.table_painter = table_painter
        self.cond = cond
        self.seed = seed
        rng = np.random.default_rng([seed, 1])
        self.cam, self.H = choose_camera(table, cond)
        self.G = _glass_to_table(cond.glass_angle_deg)
        self.H_image_from_table = self.cam.plane_homography()
        self.painter = Painter(art, self.H, cond.card_px)
        self.background = self._background(table, rng)
        self._stills: list[tuple[tuple, np.ndarray]] = []
        self._noise: np.ndarray | None = None

    def _background(self, table: Table, rng: np.random.Generator) -> np.ndarray:
        c = self.cond
        ppm = max(0.8, c.card_px / CARD_W_MM * 0.9)
        span = 1.6 * max(c.width, c.height) / (c.card_px / CARD_W_MM)
        n = int(span * ppm)
        if self.table_painter is not None:
            tex = self.table_painter(n, n, rng)
        elif c.table_tone is None:
            tex = effects.table_texture(n, n, rng, c.table_kind)
        else:
            tex = effects.table_texture(n, n, rng, c.table_kind, c.table_tone)
        centre = np.linalg.inv(self.H_image_from_table) @ np.array([c.width / 2, c.height / 2, 1])
        centre = centre[:2] / centre[2]
        img = self.cam.render_plane(tex, ppm, (centre[0] - span / 2, centre[1] - span / 2))
        if c.markers:
            t = TableSettings()
            # Corner markers around the glass, as the platform's registration expects them.
            origin = centre - np.array([t.width_mm / 2, t.height_mm / 2])
            for mid, (mx, my) in zip(
                t.corner_ids,
                [(0, 0), (t.width_mm, 0), (t.width_mm, t.height_mm), (0, t.height_mm)],
                strict=True,
            ):
                self.painter.marker(
                    img, mid, origin + np.array([mx, my]), t.marker_size_mm, self.H_image_from_table
                )
        return img

    def _noise_bank(self) -> np.ndarray:
        if self._noise is None:
            c = self.cond
            rng = np.random.default_rng([self.seed, 4])
            noise = rng.standard_normal(
                (c.height + NOISE_SHIFT, c.width + NOISE_SHIFT, 3), dtype=np.float32
            )
            noise *= np.float32(c.noise_sigma)  # in place: no second frame-sized temporary
            # Whole grey levels, as the frame gets them anyway: half the memory of floats.
            self._noise = np.rint(noise, out=noise).astype(np.int16)
        return self._noise

    def image_from_glass(self, pts: np.ndarray) -> np.ndarray:
        return apply_homography(self.H, pts)

    def _light(self, img: np.ndarray) -> np.ndarray:
        """The camera's fixed light: uneven light and shadow (a gain) and glare (a veil).

        Computed once per camera with `effects` on flat images, then applied to every frame."""
        if not hasattr(self, "_gain"):
            c = self.cond
            fixed = np.random.default_rng([self.seed, 2])
            flat = np.full((c.height, c.width, 3), 200, np.uint8)
            if c.light:
                flat = effects.uneven_light(flat, fixed)
            if c.shadow:
                flat = effects.soft_shadow(flat, fixed)
            self._gain = flat[..., :1].astype(np.float32) / 200.0
            veil = np.zeros((c.height, c.width, 3), np.uint8)
            if c.glare:
                veil = effects.glare(veil, fixed)
            self._veil = veil[..., :1].astype(np.float32) / 255.0
        out = img.astype(np.float32) * self._gain
        if self.cond.glare:
            out = out * (1 - self._veil) + 255.0 * self._veil
        return np.clip(out, 0, 255).astype(np.uint8)

    def still(self, table: Table) -> np.ndarray:
        """The table as it lies, lit by the camera's light: everything before a hand, blur,
        sensor noise and JPEG. Do not modify the returned image."""
        key = _table_key(table)
        for k, img in self._stills:
            if k == key:
                return img
        c = self.cond
        img = self.background.copy()
        order = sorted(table.glass, key=lambda n: (table.layout.locate(n)[1], n))
        for pose in pile_poses(table):
            self.painter.card(img, replace(pose, sleeve=c.sleeves))
        for name in order:
            self.painter.card(img, table.glass[name])
        img = self._light(img)
        # A film goes back and forth between few states (a card lifted and put back): keep
        # the last few, each a full frame.
        self._stills = [(key, img), *self._stills[:3]]
        return img

    def render(
        self,
        table: Table,
        frame_seed: int,
        *,
        hand_reach: tuple[float, float] | None = None,
        hand: bool | None = None,
        blur_sigma: float | None = None,
        fast_noise: bool = False,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """One photograph of `table`. `fast_noise`: films take each frame's sensor noise as
        a randomly shifted window of one field drawn per camera (same distribution, a pixel
        gets a different draw in every frame, a tenth of the cost); the static scenes draw
        it afresh so their pixels, which the recognition results were measured on, stay put."""
        c = self.cond
        still = img = self.still(table)
        frng = np.random.default_rng([self.seed, 3, frame_seed])
        hand_mask = None
        if hand if hand is not None else c.hand:
            img, hand_mask = effects.hand(img, frng, reach=hand_reach)
        bs = c.blur_sigma if blur_sigma is None else blur_sigma
        if bs > 0:
            img = effects.blur(img, frng, bs)
        if c.noise_sigma > 0 and fast_noise:
            dx, dy = (int(v) for v in frng.integers(0, NOISE_SHIFT, 2))
            noise = self._noise_bank()[dy : dy + img.shape[0], dx : dx + img.shape[1]]
            img = cv2.add(img, noise, dtype=cv2.CV_8U)
        elif c.noise_sigma > 0:
            noise = frng.standard_normal(img.shape, dtype=np.float32) * c.noise_sigma
            img = np.clip(img.astype(np.float32) + noise, 0, 255).astype(np.uint8)
        if c.jpeg_quality is not None:
            img = effects.jpeg(img, c.jpeg_quality)
        if img is still:
            img = still.copy()
        return img, self.truth(table, hand_mask)

    def truth(self, table: Table, hand_mask: np.ndarray | None) -> dict[str, Any]:
        cards = []
        for name, pose in sorted(table.glass.items()):
            centre = self.image_from_glass(np.array([[pose.x, pose.y]]))[0]
            quad = self.image_from_glass(pose.corners())
            upper = np.array([quad[0], quad[1], (quad[1] + quad[2]) / 2, (quad[0] + quad[3]) / 2])
            occluded = False
            if hand_mask is not None:
                x0, y0 = np.floor(upper.min(axis=0)).astype(int)
                x1, y1 = np.ceil(upper.max(axis=0)).astype(int) + 1
                H, W = hand_mask.shape
                x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
                if x1 > x0 and y1 > y0:
                    # The card's box only: same counts as over the whole frame, far cheaper.
                    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
                    cv2.fillConvexPoly(m, (upper - (x0, y0)).astype(np.int32), 1)
                    area = max(1, int(m.sum()))
                    # Any touch of the upper half counts: that card's upper half cannot be seen.
                    occluded = bool((hand_mask[y0:y1, x0:x1][m > 0] > 0).sum() > 0.01 * area)
            cards.append(
                {
                    "card": pose.card,
                    "center": [round(float(centre[0]), 1), round(float(centre[1]), 1)],
                    "covered": table.covered(name),
                    "confidence": 1.0,
                    "position": name,
                    "occluded": occluded,
                    "quad": [[round(float(v), 1) for v in q] for q in quad],
                }
            )
        return {
            "cards": cards,
            "layout": table.layout.id if table.layout_known else None,
            "warnings": [],
            "truth": {
                "conditions": self.cond.to_json(),
                "piles": [dict(p) for p in table.piles],
                "rows": [list(r) for r in table.layout.rows],
            },
        }


def _table_key(table: Table) -> tuple:
    """What a still depends on: every card's pose and both piles."""
    glass = tuple(
        sorted((n, p.card, p.x, p.y, p.rotation_deg, p.sleeve) for n, p in table.glass.items())
    )
    piles = tuple(tuple(sorted(p.items())) for p in table.piles)
    return table.layout.id, glass, piles


# -- whole scenes --------------------------------------------------------------------------
def scene_table(
    rng: np.random.Generator, sleeves: bool, geometry: TableGeometry | None = None
) -> Table:
    """A fresh deal (a third of scenes) or a position some picks into a round."""
    layouts = load_layouts()
    if rng.random() < 0.2:
        layout, known = random_layout(rng), False
    else:
        layout, known = layouts[str(rng.choice(sorted(layouts)))], True
    table = deal_table(
        rng,
        layout,
        brawlers=bool(rng.random() < 0.5),
        sleeves=sleeves,
        layout_known=known,
        geometry=geometry,
    )
    picks = 0 if rng.random() < 0.35 else int(rng.integers(1, CARDS_PER_HALF))
    for k in range(picks):
        free = table.free_positions()
        if not free:
            break
        take(table, str(rng.choice(sorted(free))), k % 2)
    return table


def deal_scene(
    seed: int, index: int, art: dict[str, CardArt]
) -> tuple[np.random.Generator, Conditions, Table]:
    """The conditions and the table `render_scene` photographs for (`seed`, `index`), dealt
    but not photographed (a fraction of a photograph's cost, so a benchmark can look for the
    scenes it wants), and the random stream the photograph goes on from."""
    rng = np.random.default_rng([seed, 11, index])
    cond = sample_conditions(rng)
    style = deck_style(art)
    geometry = None
    if not style.is_house:
        cond = world_conditions(np.random.default_rng([seed, 17, index]), cond, style)
        geometry = deck_geometry(style)
    return rng, cond, scene_table(rng, cond.sleeves, geometry)


def render_scene(
    seed: int, index: int, art: dict[str, CardArt], table_painter: TablePainter | None = None
) -> tuple[np.ndarray, dict]:
    """One photograph of a table dealt with `art`'s deck, and its truth.

    A house-style deck gets the scenes it always got; a randomised one its own card size and
    a table from the wider set (`world_conditions`). `table_painter` replaces the table
    surface (the held-out benchmark paints its own)."""
    rng, cond, table = deal_scene(seed, index, art)
    style = deck_style(art)
    camera = TableCamera(art, table, cond, seed * 100003 + index, table_painter)
    reach = None
    if cond.hand:
        pts = camera.image_from_glass(np.array([[p.x, p.y] for p in table.glass.values()]))
        reach = tuple(pts[int(rng.integers(len(pts)))])
    img, truth = camera.render(table, 0, hand_reach=reach)
    if not style.is_house:
        truth["truth"]["style"] = style.to_json()
    return img, truth


def teach_photo(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A card lying upright anywhere on a table (or, sometimes, a tight scan)."""
    if rng.random() < 0.25:
        return scan(face, rng)
    w, h = 1280, 960
    tex = effects.table_texture(w, h, rng)
    px = rng.uniform(2.2, 4.0)  # card width 140..250 px
    ang = math.radians(rng.uniform(-12, 12))
    cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.35, 0.65) * h
    s = px / FACE_PX_PER_MM
    A = np.array(
        [
            [s * math.cos(ang), -s * math.sin(ang), 0],
            [s * math.sin(ang), s * math.cos(ang), 0],
            [0, 0, 1],
        ]
    )
    fh, fw = face.shape[:2]
    A[:2, 2] = np.array([cx, cy]) - A[:2, :2] @ np.array([fw / 2, fh / 2])
    P = np.eye(3)
    P[2, :2] = rng.normal(0, 0.00005, 2)  # a phone held not quite square
    M = P @ A
    M /= M[2, 2]
    warped = cv2.warpPerspective(face, M, (w, h), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full(face.shape[:2], 255, np.uint8), M, (w, h))
    img = np.where(mask[..., None] > 127, warped, tex)
    return effects.photograph(img, rng, glare_spots=int(rng.random() < 0.2), noise_sigma=2.5)


def teach_photo_of(art: CardArt, rng: np.random.Generator) -> np.ndarray:
    """A teach photo of one card of any deck: the house style's as ever, a randomised deck's
    from `world_teach_photo`."""
    if art.style.is_house:
        return teach_photo(art.face, rng)
    return world_teach_photo(art, rng)


def world_teach_photo(
    art: CardArt, rng: np.random.Generator, table_painter: TablePainter | None = None
) -> np.ndarray:
    """A user's photo of one card: lying anywhere on any table (wood, cloth, pattern, felt,
    often of the card's own tone), a phone held a little off square, uneven light; or a
    flat scan with a margin of the scanner's lid. The card is always wholly in the picture
    and upright within 15°, as `teach` asks of the user."""
    return world_teach_shot(art, rng, table_painter)[0]


def world_teach_shot(
    art: CardArt, rng: np.random.Generator, table_painter: TablePainter | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """`world_teach_photo` and where the card lies in it: the corners (TL, TR, BR, BL, photo
    px) of the card and of its sleeve (2 × 4 × 2; twice the card's when it has none), so a
    teach benchmark can tell a good cut from one that took the table for the border."""
    style = art.style
    if rng.random() < 0.25:
        return _flat_scan(art, rng)
    w, h = [(1280, 960), (1280, 960), (1600, 1200), (1920, 1440)][int(rng.integers(4))]
    kind = str(rng.choice(WORLD_TABLE_KINDS))
    tone = ("light" if style.light_border else "dark") if rng.random() < 0.35 else None
    tex = (
        table_painter(w, h, rng)
        if table_painter is not None
        else effects.table_texture(w, h, rng, kind, tone)
    )
    ppm = 2.0 * w / 1280
    obj, cover, pad = card_object(art, ppm)
    oh, ow = obj.shape[:2]
    card_px = rng.uniform(160, 320) * w / 1280
    k = card_px / (ow - 2 * pad)
    ang = math.radians(rng.uniform(-15, 15))
    A = np.array(
        [
            [k * math.cos(ang), -k * math.sin(ang), 0],
            [k * math.sin(ang), k * math.cos(ang), 0],
            [0, 0, 1],
        ]
    )
    P = np.eye(3)
    P[2, :2] = rng.normal(0, 0.00025, 2) / k  # a phone held up to ~15° off square
    M = A @ P
    corners = apply_homography(M, np.array([[0, 0], [ow, 0], [ow, oh], [0, oh]], float))
    margin = 0.04 * w
    lo = margin - corners.min(axis=0)
    hi = np.array([w, h]) - margin - corners.max(axis=0)
    shift = rng.uniform(lo, np.maximum(lo, hi))
    M = np.array([[1, 0, shift[0]], [0, 1, shift[1]], [0, 0, 1]]) @ M
    warped = cv2.warpPerspective(obj, M, (w, h), flags=cv2.INTER_AREA)
    a = cv2.warpPerspective(cover, M, (w, h), flags=cv2.INTER_LINEAR)[..., None]
    img = (tex.astype(np.float32) * (1 - a) + warped.astype(np.float32) * a).astype(np.uint8)
    if style.finish == "glossy" and rng.random() < 0.3:
        img = effects.glare(img, rng, strength=0.35)
    if rng.random() < 0.3:
        # A shadow drawn at an eighth of the size and stretched: as soft, 60× cheaper.
        small = effects.soft_shadow(np.full((h // 8, w // 8, 3), 200, np.uint8), rng)
        gain = cv2.resize(small[..., 0].astype(np.float32) / 200, (w, h))[..., None]
        img = np.clip(img.astype(np.float32) * gain, 0, 255).astype(np.uint8)
    card = np.array([apply_homography(M, _box(ow, oh, pad)), apply_homography(M, _box(ow, oh, 0))])
    photo = effects.photograph(
        img, rng, noise_sigma=float(rng.uniform(1.5, 4)), jpeg_quality=int(rng.integers(70, 95))
    )
    return photo, card


def _box(w: int, h: int, pad: int) -> np.ndarray:
    """The corners of a `w` × `h` image less `pad` px on every side (TL, TR, BR, BL)."""
    return np.array([[pad, pad], [w - pad, pad], [w - pad, h - pad], [pad, h - pad]], float)


def _flat_scan(art: CardArt, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A flatbed scan: the card a degree or two askew on the lid's white (or black) with a
    margin, a slight tone change and noise."""
    ppm = rng.uniform(3.0, 4.0)
    obj, cover, pad = card_object(art, ppm)
    lid = np.array((250, 250, 250) if rng.random() < 0.8 else (20, 20, 20), np.float32)
    m = int(rng.integers(10, 60))
    h, w = obj.shape[:2]
    H, W = h + 2 * m, w + 2 * m
    R = cv2.getRotationMatrix2D((W / 2, H / 2), float(rng.uniform(-2, 2)), 1.0)
    R[:, 2] += m
    warped = cv2.warpAffine(obj, R, (W, H), flags=cv2.INTER_LINEAR)
    a = cv2.warpAffine(cover, R, (W, H), flags=cv2.INTER_LINEAR)[..., None]
    out = lid * (1 - a) + warped.astype(np.float32) * a
    out = out * rng.uniform(0.9, 1.05) + rng.normal(0, 2.5, out.shape)
    card = np.array([_box(w, h, p) @ R[:, :2].T + R[:, 2] for p in (pad, 0)])
    return np.clip(out, 0, 255).astype(np.uint8), card


def render_set(
    seed: int, count: int, out_dir, *, brawlers: bool = True, style: str = "random"
) -> list[str]:
    """Write DIR/NNNN.jpg + .json and DIR/teach/<id>.png; returns the image paths.

    `style`: "random" (a deck of randomised design, drawn from `seed`) or "house"."""
    from pathlib import Path

    out = Path(out_dir)
    (out / "teach").mkdir(parents=True, exist_ok=True)
    deck = load_deck()
    ids = deck.ids if brawlers else deck.normal_ids
    art = draw_deck(ids, seed, sample_style(seed) if style == "random" else None)
    rng = np.random.default_rng([seed, 5])
    for cid in ids:
        cv2.imwrite(str(out / "teach" / f"{cid}.png"), teach_photo_of(art[cid], rng))
    paths = []
    import json

    for i in range(count):
        img, truth = render_scene(seed, i, art)
        path = out / f"{i:04d}.jpg"
        cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, 95])
        truth["image"] = str(path)
        (out / f"{i:04d}.json").write_text(json.dumps(truth, indent=1))
        paths.append(str(path))
    return paths


def sample_style(seed: int) -> DeckStyle:
    """The randomised style of the deck drawn from `seed` (development decks, teach photos)."""
    return DeckStyle.sample(np.random.default_rng([seed, 7150]))


def python_rng(seed: int) -> random.Random:
    return random.Random(seed)


# -- scoring a reading against the truth ---------------------------------------------------
@dataclass
class Comparison:
    cards: int = 0
    """Cards in the truth the reader had to find (not hidden under a hand)."""
    right: int = 0
    """Found, identified and covered-flag right."""
    wrong: int = 0
    """Found but named as another card (the error that matters most)."""
    unsure: int = 0
    """Found but reported as null."""
    covered_wrong: int = 0
    missed: int = 0
    extra: int = 0
    """Reported where there is no glass card."""
    layout_right: bool = True

    @property
    def table_right(self) -> bool:
        return self.right == self.cards and self.extra == 0

    def add(self, other: Comparison) -> None:
        for k in ("cards", "right", "wrong", "unsure", "covered_wrong", "missed", "extra"):
            setattr(self, k, getattr(self, k) + getattr(other, k))


@dataclass(frozen=True)
class CardOutcome:
    """What became of one true card, or of one read card that matches none."""

    kind: str
    """right, wrong, unsure, covered_wrong, missed, hidden (under a hand: not counted), extra."""
    truth: dict[str, Any] | None
    """The true card (None for an extra)."""
    read: dict[str, Any] | None
    """The read card matched to it (None when missed)."""


def card_outcomes(reading: dict[str, Any], truth: dict[str, Any]) -> list[CardOutcome]:
    """Match read cards to true ones by centre (within a third of a card width): every true
    card's outcome, then every read card matched to none (extra)."""
    out: list[CardOutcome] = []
    read_cards = list(reading["cards"])
    used: set[int] = set()
    for g in truth["cards"]:
        quad = np.array(g["quad"])
        tol = 0.33 * float(np.linalg.norm(quad[1] - quad[0]))
        best = None
        for i, c in enumerate(read_cards):
            d = float(np.hypot(c["center"][0] - g["center"][0], c["center"][1] - g["center"][1]))
            if i not in used and d < tol and (best is None or d < best[0]):
                best = (d, i)
        if best is None:
            out.append(CardOutcome("hidden" if g.get("occluded") else "missed", g, None))
            continue
        used.add(best[1])
        c = read_cards[best[1]]
        if c["card"] is None:
            kind = "hidden" if g.get("occluded") else "unsure"
        elif c["card"] != g["card"]:
            kind = "wrong"
        elif bool(c["covered"]) == bool(g["covered"]):
            kind = "right"
        else:
            kind = "covered_wrong"
        out.append(CardOutcome(kind, g, c))
    out += [CardOutcome("extra", None, c) for i, c in enumerate(read_cards) if i not in used]
    return out


def compare(reading: dict[str, Any], truth: dict[str, Any]) -> Comparison:
    """The counts of `card_outcomes`; a card under a hand counts only if it is named wrong."""
    out = Comparison()
    for o in card_outcomes(reading, truth):
        if o.kind == "hidden":
            continue
        if o.kind != "extra":
            out.cards += 1
        setattr(out, o.kind, getattr(out, o.kind) + 1)
    if truth.get("layout") is not None and reading.get("layout") is not None:
        out.layout_right = reading["layout"] == truth["layout"]
    return out


# -- whole rounds, frame by frame (the live `sim` camera and the tracking benchmark) -------
@dataclass
class Shot:
    """One frame of a film: the table as it lies, a hand (reach point in glass mm) or not."""

    glass: dict[str, CardPose]
    piles: list[Counter[str]]
    hand_mm: tuple[float, float] | None = None
    blur: float | None = None
    events: list[dict[str, Any]] = field(default_factory=list)


class RoundFilm:
    """A scripted round: deal, every pick with the players' hands, bumps, a card lifted and
    put back, a blurred moment, then both hands laid face up. Rendered frame by frame.

    `hold` is how many still frames follow each change (the tracker needs a few to believe
    it); `noise` adds the disturbances that must NOT become events (`disturb` scales how
    often: 1.0 = a quarter of picks have a card lifted and put back, a quarter a bump)."""

    def __init__(
        self,
        seed: int,
        *,
        hold: int = 4,
        noise: bool = True,
        cond: Conditions | None = None,
        art: dict[str, CardArt] | None = None,
        first: int = 0,
        layout_id: str | None = None,
        brawlers: bool | None = None,
        max_picks: int | None = None,
        disturb: float = 1.0,
        lead: int = 0,
    ):
        from companion.games.looking_glass.rules import ENGINE
        from companion.games.looking_glass.rules.actions import Deal, Pick, Setup

        rng = np.random.default_rng([seed, 31])
        self.seed = seed
        ids = load_deck().ids
        self.art = art or draw_deck(ids, seed)
        self.cond = cond or _film_conditions(rng)
        brawlers = bool(rng.random() < 0.5) if brawlers is None else brawlers
        layouts = sorted(load_layouts())
        layout_id = layout_id or str(rng.choice(layouts))
        state = ENGINE.new_game(2, {"brawlers": brawlers})
        state = ENGINE.apply(
            state, Setup(tuple([layout_id] + [x for x in layouts if x != layout_id]), first)
        )
        pyrng = random.Random(seed)
        deal = ENGINE.sample_chance(state, pyrng)
        assert isinstance(deal, Deal)  # (the chance after the setup is the deal)
        state = ENGINE.apply(state, deal)
        self.deal = deal
        self.layout = load_layouts()[layout_id]
        style = deck_style(self.art)
        glass = {pos: card for pos, card in deal.glass_map().items() if card is not None}
        assert len(glass) == len(deal.glass)  # (a sampled deal names every card it deals)
        self.table = deal_table(
            rng,
            self.layout,
            brawlers=brawlers,
            glass=glass,
            sleeves=self.cond.sleeves and style.is_house,
            geometry=None if style.is_house else deck_geometry(style),
        )
        self.hands = [list(h) for h in deal.hands] if deal.hands else [[], []]
        self.camera = TableCamera(self.art, self.table, self.cond, seed)
        self.shots: list[Shot] = []
        self.picks: list[dict[str, Any]] = []
        t = self.table
        snap = self._snap
        for _ in range(hold + 2 + lead):  # the fresh deal, while the players look at it
            self.shots.append(snap())
        while (
            ENGINE.current_player(state) is not None
            and ENGINE.phase(state) == "pick"
            and (max_picks is None or len(self.picks) < max_picks)
        ):
            seat = ENGINE.current_player(state)
            assert seat is not None  # (the loop's condition)
            pick = pyrng.choice(ENGINE.legal_actions(state))
            state = ENGINE.apply(state, Pick(seat, pick.position))
            refl = self.layout.reflection(pick.position)
            chosen_pose, refl_pose = t.glass[pick.position], t.glass[refl]
            if noise and rng.random() < 0.25 * disturb:
                self._lift_and_put_back(rng, hold)
            if noise and rng.random() < 0.25 * disturb:
                self._bump(rng, hold)
            if noise and rng.random() < 0.15 * disturb:
                for _ in range(2):
                    self.shots.append(snap(blur=2.5))
            # The active player's hand reaches and takes the chosen card...
            self.shots.append(snap(hand=(chosen_pose.x, chosen_pose.y)))
            t.piles[seat][t.glass.pop(pick.position).card] += 1
            self.shots.append(snap(hand=(chosen_pose.x, chosen_pose.y)))
            for _ in range(hold):
                self.shots.append(snap())
            # ...then the other player's hand takes the reflection.
            self.shots.append(snap(hand=(refl_pose.x, refl_pose.y)))
            t.piles[1 - seat][t.glass.pop(refl).card] += 1
            self.shots.append(snap(hand=(refl_pose.x, refl_pose.y)))
            for _ in range(hold):
                self.shots.append(snap())
            self.picks.append(
                {
                    "seat": seat,
                    "position": pick.position,
                    "reflection": refl,
                    "card": chosen_pose.card,
                    "reflection_card": refl_pose.card,
                }
            )
        self.shots[-1].events.append({"kind": "hands", "hands": self.hands})
        self.piles = [dict(p) for p in t.piles]

    def _snap(self, hand: tuple[float, float] | None = None, blur: float | None = None) -> Shot:
        return Shot(dict(self.table.glass), [Counter(p) for p in self.table.piles], hand, blur)

    def _lift_and_put_back(self, rng: np.random.Generator, hold: int) -> None:
        free = self.table.free_positions()
        name = str(rng.choice(sorted(free)))
        pose = self.table.glass[name]
        self.shots.append(self._snap(hand=(pose.x, pose.y)))
        lifted = self.table.glass.pop(name)
        self.shots.append(self._snap(hand=(pose.x, pose.y)))
        self.table.glass[name] = lifted
        self.shots.append(self._snap(hand=(pose.x, pose.y)))

    def _bump(self, rng: np.random.Generator, hold: int) -> None:
        name = str(rng.choice(sorted(self.table.glass)))
        p = self.table.glass[name]
        dx, dy = rng.uniform(-3, 3, 2)
        self.shots.append(self._snap(hand=(p.x, p.y)))
        self.table.glass[name] = replace(
            p, x=p.x + dx, y=p.y + dy, rotation_deg=p.rotation_deg + rng.uniform(-3, 3)
        )

    def __len__(self) -> int:
        return len(self.shots)

    def render(self, i: int) -> tuple[np.ndarray, dict[str, Any]]:
        shot = self.shots[min(i, len(self.shots) - 1)]
        table = Table(self.table.layout, True, shot.glass, shot.piles, geometry=self.table.geometry)
        reach = None
        if shot.hand_mm is not None:
            reach = tuple(self.camera.image_from_glass(np.array([shot.hand_mm]))[0])
        img, truth = self.camera.render(
            table,
            i,
            hand_reach=reach,
            hand=shot.hand_mm is not None,
            blur_sigma=shot.blur,
            fast_noise=True,
        )
        truth["events"] = shot.events
        truth["frame"] = i
        return img, truth


def _film_conditions(rng: np.random.Generator) -> Conditions:
    """A film's fixed camera and light: like `sample_conditions`, at 1280×960, no hand."""
    c = sample_conditions(rng)
    return replace(
        c, width=1280, height=960, card_px=c.card_px * 1280 / c.width, hand=False, blur_sigma=0.0
    )


def _image_box(
    Hc: np.ndarray, src_shape: tuple[int, ...], img_shape: tuple[int, ...]
) -> tuple[np.ndarray, tuple[int, int], tuple[int, int, int, int]] | None:
    """Where a picture of `src_shape` lands in the image through `Hc` (2 px of margin, so
    its antialiased edge is kept), clipped to the image: the homography into that box, the
    box's size and corners; None when it falls outside."""
    h, w = src_shape[:2]
    pad = 2
    src = np.array([[-pad, -pad], [w + pad, -pad], [w + pad, h + pad], [-pad, h + pad]], float)
    quad = apply_homography(Hc, src)
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    H_img, W_img = img_shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W_img, x1), min(H_img, y1)
    if x1 <= x0 or y1 <= y0:
        return None
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float) @ Hc
    return T, (int(x1 - x0), int(y1 - y0)), (int(x0), int(y0), int(x1), int(y1))
