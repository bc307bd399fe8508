"""Synthetic photographs of a solo Onirim table from above, with the answer key.

A table is a moment of a real game (a computer player plays through the engine and the
picture is taken at a turn), laid out as models/onirim/table.toml says: the Mirror cards with
their fans, the labyrinth's rows, the Doors, the discard pile and now and then limbo. Each
card lies a little off its place and a little turned, as a hand puts it down. One deck
(`DeckStyle`) is drawn per seed: the house style, or every design choice at random. The
camera adds tilt, uneven light, glare, noise, blur and JPEG (`companion.sim.effects`).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from companion.games.base import CHANCE
from companion.games.onirim.players import greedy_player, random_player
from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.state import OnirimState
from companion.games.onirim.vision.art import PX_PER_MM, DeckStyle, draw_deck
from companion.games.onirim.vision.layout import Point, TableLayout
from companion.games.onirim.vision.reading import MirrorSeen, TableReading
from companion.sim import effects
from companion.sim.camera import VirtualCamera
from companion.vision.markers import marker_image

CANVAS_PX_PER_MM = 2.5
MARGIN_MM = 60.0
"""Table drawn beyond the marker centres on every side."""
JITTER_MM = 2.0
"""A card lies up to this far off its place ..."""
TURN_DEG = 2.0
"""... and turned up to this much."""


@dataclass(frozen=True)
class Conditions:
    max_tilt_deg: float = 20.0
    max_yaw_deg: float = 12.0
    size: tuple[int, int] = (1280, 960)


@dataclass(frozen=True)
class TableLook:
    """How one player's table looks beyond the deck's print: how the discard pile is kept,
    sleeves, the lamp. The default is the renderer's narrow first look (the house style and
    the film keep it); `sample` draws each choice, for the random style."""

    pile_mm: float = 3.0
    """Cards under the discard pile's top lie up to this far off the pile's place ..."""
    pile_turn_deg: float = 6.0
    """... and turned up to this much."""
    pile_drift_mm: tuple[float, float] = (0.0, 0.0)
    """Each discard lies this much further on than the one under it (a pile pushed one way
    as it grows): the cards under the top show a strip on the other side of it."""
    top_mm: float = 3.0
    """The top discard lies up to this far off the pile's place ..."""
    top_turn_deg: float = 3.0
    """... and turned up to this much."""
    shine: float = 0.0
    """Sleeves: the strongest shine a lamp leaves across a card (a bright soft band); 0, no
    sleeves."""
    glare_on_cards: int = 0
    """Glare spots that fall on cards' corners (besides the camera's spots anywhere)."""
    lamp_bgr: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """The lamp's colour, a gain per channel (warm or cool light, not the teach photos')."""

    @classmethod
    def sample(cls, rng: np.random.Generator) -> TableLook:
        warm = float(rng.uniform(-0.12, 0.12)) if rng.random() < 0.5 else 0.0
        drift = rng.uniform(-7.0, 7.0, 2) if rng.random() < 0.4 else np.zeros(2)
        return cls(
            pile_mm=float(rng.uniform(1.0, 8.0)),
            pile_turn_deg=float(rng.uniform(2.0, 15.0)),
            pile_drift_mm=(float(drift[0]), float(drift[1])),
            top_mm=float(rng.uniform(1.0, 4.0)),
            top_turn_deg=float(rng.uniform(1.0, 6.0)),
            shine=float(rng.uniform(0.2, 0.7)) if rng.random() < 0.35 else 0.0,
            glare_on_cards=int(rng.choice([0, 0, 1, 2])),
            lamp_bgr=(1.0 - warm, 1.0, 1.0 + warm),
        )


@dataclass(frozen=True)
class Placed:
    card: str
    place: Point
    jitter: float = JITTER_MM
    turn: float = TURN_DEG
    offset: Point = (0.0, 0.0)
    """Where it lies off its place before its own jitter (a discard pile's drift)."""


@dataclass(frozen=True)
class Photo:
    image: np.ndarray
    truth: TableReading


def turns_of_a_game(rng: random.Random, options: dict) -> list[OnirimState]:
    """Every position at a turn of one game played by a computer player."""
    state = ENGINE.new_game(1, options)
    player = greedy_player if rng.random() < 0.8 else random_player
    turns = []
    while not ENGINE.is_terminal(state):
        if state.phase == "turn":
            turns.append(state)
        if ENGINE.current_player(state) == CHANCE:
            state = ENGINE.apply(state, ENGINE.sample_chance(state, rng))
        else:
            state = ENGINE.apply(state, player(state, rng))
    return turns or [state]


def table_of(
    state: OnirimState, layout: TableLayout, rng: random.Random, look: TableLook = TableLook()
) -> tuple[list[Placed], TableReading]:
    """The cards on the table for a state, in the order they are put down, and the truth."""
    deck = ENGINE.deck
    placed: list[Placed] = []
    mirrors = []
    ids = list(deck.mirrors)
    for m, explored, under in zip(state.in_game, state.explored, state.under, strict=True):
        i = ids.index(m)
        side = f"mirror-{m}-explored" if explored else f"mirror-{m}"
        placed.append(Placed(side, layout.mirror_places[i]))
        for k, card in enumerate(under[: layout.fan_max]):
            placed.append(Placed(card, layout.under_place(i, k)))
        mirrors.append(MirrorSeen(m, explored, tuple(under[: layout.fan_max])))
    lab = state.labyrinth[-len(layout.labyrinth_places) :]
    for card, place in zip(lab, layout.labyrinth_places, strict=False):
        placed.append(Placed(card, place))
    for card, place in zip(state.doors, layout.door_places, strict=False):
        placed.append(Placed(card, place))
    top = state.discard[-1] if state.discard else None
    pile = state.discard[-4:]
    for k, card in enumerate(pile):
        above = len(pile) - 1 - k  # how many lie on it
        dx, dy = look.pile_drift_mm
        placed.append(
            Placed(card, layout.discard_place, look.top_mm, look.top_turn_deg, (0.0, 0.0))
            if above == 0
            else Placed(
                card,
                layout.discard_place,
                look.pile_mm,
                look.pile_turn_deg,
                (-above * dx, -above * dy),
            )
        )
    if rng.random() < 0.15:  # limbo, as in the middle of a draw
        kinds = [k for k in deck.kinds if k.startswith("door-") or k == "nightmare"]
        for place in layout.limbo_places[: rng.randint(1, 3)]:
            placed.append(Placed(rng.choice(kinds), place))
    truth = TableReading(
        labyrinth=tuple(lab),
        doors=tuple(d.removeprefix("door-") for d in state.doors),
        mirrors=tuple(mirrors),
        discard_top=top,
    )
    return placed, truth


def random_table(
    layout: TableLayout, rng: random.Random, look: TableLook = TableLook()
) -> tuple[list[Placed], TableReading]:
    """A moment of a random game; more than half the time one with cards under a Mirror."""
    mirrors = rng.random() < 0.85
    options = {"mirrors": mirrors, "hard": mirrors and rng.random() < 0.3}
    turns = [
        s for s in turns_of_a_game(rng, options) if len(s.labyrinth) <= len(layout.labyrinth_places)
    ]
    fans = [s for s in turns if any(s.under)]
    state = rng.choice(fans if fans and rng.random() < 0.6 else turns)
    return table_of(state, layout, rng, look)


def _canvas_px(p: Point) -> tuple[float, float]:
    return (p[0] + MARGIN_MM) * CANVAS_PX_PER_MM, (p[1] + MARGIN_MM) * CANVAS_PX_PER_MM


def paste_card(canvas: np.ndarray, face: np.ndarray, at_mm: Point, angle_deg: float) -> None:
    """Lay a face (BGRA at art.PX_PER_MM) with its top-left corner at `at_mm`, turned about
    that corner, with a soft shadow under it."""
    s = CANVAS_PX_PER_MM / PX_PER_MM
    a = math.radians(angle_deg)
    ox, oy = _canvas_px(at_mm)
    M = np.array([[s * math.cos(a), -s * math.sin(a), ox], [s * math.sin(a), s * math.cos(a), oy]])
    h, w = face.shape[:2]
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64) @ M.T
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 6
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 6
    H, W = canvas.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
    if x1 <= x0 or y1 <= y0:
        return
    local = M.copy()
    local[:, 2] -= (x0, y0)
    warped = cv2.warpAffine(
        face,
        local,
        (x1 - x0, y1 - y0),
        flags=cv2.INTER_AREA,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )
    alpha = warped[..., 3:].astype(np.float32) / 255
    region = canvas[y0:y1, x0:x1].astype(np.float32)
    shadow = cv2.GaussianBlur(alpha[..., 0], (0, 0), 2.5)
    shadow = np.roll(shadow, (2, 2), axis=(0, 1))[..., None]
    region *= 1 - 0.35 * shadow
    region = region * (1 - alpha) + warped[..., :3].astype(np.float32) * alpha
    canvas[y0:y1, x0:x1] = np.clip(region, 0, 255).astype(np.uint8)


def draw_markers(canvas: np.ndarray, layout: TableLayout) -> None:
    side = layout.marker_side_mm
    for mid, centre in layout.marker_centres().items():
        sticker = round(side * 1.4 * CANVAS_PX_PER_MM)
        px = round(side * CANVAS_PX_PER_MM)
        cx, cy = (round(v) for v in _canvas_px(centre))
        canvas[
            cy - sticker // 2 : cy - sticker // 2 + sticker,
            cx - sticker // 2 : cx - sticker // 2 + sticker,
        ] = 245
        m = cv2.cvtColor(marker_image(mid, px), cv2.COLOR_GRAY2BGR)
        canvas[cy - px // 2 : cy - px // 2 + px, cx - px // 2 : cx - px // 2 + px] = m


def random_camera(layout: TableLayout, rng: np.random.Generator, cond: Conditions) -> VirtualCamera:
    """A camera that sees the whole table, tilted and turned within the limits."""
    w_mm, h_mm = layout.size_mm
    reach = layout.marker_side_mm
    corners = np.array(
        [
            [-reach, -reach],
            [w_mm + reach, -reach],
            [w_mm + reach, h_mm + reach],
            [-reach, h_mm + reach],
        ]
    )
    centre = corners.mean(axis=0)
    w, h = cond.size
    tilt = float(rng.uniform(0, cond.max_tilt_deg))
    yaw = float(rng.uniform(-cond.max_yaw_deg, cond.max_yaw_deg))
    hfov = float(rng.uniform(58, 72))
    distance = float(rng.uniform(500, 600))
    target = (centre[0] + rng.uniform(-15, 15), centre[1] + rng.uniform(-15, 15))
    cam = VirtualCamera.looking_at(
        target, distance, tilt_deg=tilt, yaw_deg=yaw, width=w, height=h, hfov_deg=hfov
    )
    for _ in range(40):
        pix = cam.project(corners)
        if (
            (pix[:, 0] > 0.02 * w)
            & (pix[:, 0] < 0.98 * w)
            & (pix[:, 1] > 0.02 * h)
            & (pix[:, 1] < 0.98 * h)
        ).all():
            break
        distance *= 1.05
        cam = VirtualCamera.looking_at(
            target, distance, tilt_deg=tilt, yaw_deg=yaw, width=w, height=h, hfov_deg=hfov
        )
    return cam


def photograph_table(
    placed: list[Placed],
    faces: dict[str, np.ndarray],
    layout: TableLayout,
    rng: np.random.Generator,
    cond: Conditions,
    look: TableLook = TableLook(),
) -> np.ndarray:
    w_mm, h_mm = layout.size_mm
    W = round((w_mm + 2 * MARGIN_MM) * CANVAS_PX_PER_MM)
    H = round((h_mm + 2 * MARGIN_MM) * CANVAS_PX_PER_MM)
    canvas = effects.table_texture(W, H, rng)
    draw_markers(canvas, layout)
    # The look's own draws come from their own generator: a table of the narrow look keeps
    # the picture it always had.
    extra = np.random.default_rng([int(rng.integers(2**31)), 3]) if look != TableLook() else None
    for p in placed:
        dx, dy = rng.uniform(-p.jitter, p.jitter, 2)
        face = faces[p.card]
        if extra is not None and look.shine > 0:
            face = sleeve_shine(face, extra, look.shine)
        paste_card(
            canvas,
            face,
            (p.place[0] + p.offset[0] + dx, p.place[1] + p.offset[1] + dy),
            float(rng.uniform(-p.turn, p.turn)),
        )
    cam = random_camera(layout, rng, cond)
    img = cam.render_plane(canvas, CANVAS_PX_PER_MM, (-MARGIN_MM, -MARGIN_MM))
    if extra is not None:
        img = np.clip(img * np.array(look.lamp_bgr, np.float32), 0, 255).astype(np.uint8)
        corners = [p.place for p in placed]
        for _ in range(look.glare_on_cards if corners else 0):
            x, y = corners[int(extra.integers(len(corners)))]
            at = cam.project(np.array([[x + extra.uniform(0, 25), y + extra.uniform(0, 15)]]))[0]
            px_per_mm = cond.size[0] / (layout.size_mm[0] + 2 * layout.marker_side_mm)
            img = effects.glare(
                img,
                extra,
                center=(float(at[0]), float(at[1])),
                radius=float(extra.uniform(3.0, 12.0)) * px_per_mm,
                strength=float(extra.uniform(0.3, 0.75)),
            )
    return effects.photograph(
        img,
        rng,
        glare_spots=int(rng.integers(0, 2)),
        shadow=False,
        noise_sigma=float(rng.uniform(1.5, 4.0)),
        blur_sigma=float(rng.uniform(0.0, 1.0)),
        jpeg_quality=int(rng.integers(70, 95)),
    )


def sleeve_shine(face: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """A card in a glossy sleeve: the lamp's reflection a bright soft band across it, at a
    random angle and place, up to `strength` of the way to white."""
    h, w = face.shape[:2]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, math.pi)
    across = (x - rng.uniform(0, w)) * math.cos(a) + (y - rng.uniform(0, h)) * math.sin(a)
    band = np.exp(-0.5 * (across / (rng.uniform(0.05, 0.25) * w)) ** 2)
    gain = (float(rng.uniform(0.3, 1.0)) * strength * band)[..., None]
    out = face.copy()
    rgb = face[..., :3].astype(np.float32)
    out[..., :3] = np.clip(rgb + (255 - rgb) * gain, 0, 255).astype(np.uint8)
    return out


def table_look(seed: int, style: str) -> TableLook:
    """The table's look for a seed: the narrow first look for the house style."""
    if style == "house":
        return TableLook()
    return TableLook.sample(np.random.default_rng([seed, 8]))


def deck_style(seed: int, style: str) -> DeckStyle:
    if style == "house":
        return DeckStyle.house()
    return DeckStyle.sample(np.random.default_rng([seed, 7]))


def deck_faces(style: DeckStyle, layout: TableLayout) -> dict[str, np.ndarray]:
    return draw_deck(style, ENGINE.deck, layout.card_mm)


def render_table(
    seed: int,
    index: int,
    faces: dict[str, np.ndarray],
    layout: TableLayout,
    cond: Conditions = Conditions(),
    look: TableLook = TableLook(),
) -> Photo:
    prng = random.Random(f"onirim-table-{seed}-{index}")
    placed, truth = random_table(layout, prng, look)
    rng = np.random.default_rng([seed, index, 1])
    return Photo(photograph_table(placed, faces, layout, rng, cond, look), truth)


def lay_face(
    table: np.ndarray, face: np.ndarray, scale: float, angle_rad: float, centre: tuple[float, float]
) -> np.ndarray:
    """float32: a BGRA card face laid on `table` (its size is the picture's), scaled and
    turned about its own middle, which lands on `centre`: the teach photos' one composition."""
    H, W = table.shape[:2]
    h, w = face.shape[:2]
    c, s = math.cos(angle_rad), math.sin(angle_rad)
    M = np.array([[scale * c, -scale * s, 0], [scale * s, scale * c, 0]])
    middle = M[:, :2] @ np.array([w / 2, h / 2])
    M[:, 2] = (centre[0] - middle[0], centre[1] - middle[1])
    warped = cv2.warpAffine(
        face,
        M,
        (W, H),
        flags=cv2.INTER_AREA,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )
    alpha = warped[..., 3:].astype(np.float32) / 255
    return table.astype(np.float32) * (1 - alpha) + warped[..., :3].astype(np.float32) * alpha


def teach_photo(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One card on a plain table unlike its edge (as teach asks), photographed from above by
    a phone: about upright, a little turned and off centre."""
    W, H = 1280, 960
    edge = face[2:6, face.shape[1] // 3 : 2 * face.shape[1] // 3, :3]
    tone = "dark" if float(edge.mean()) > 110 else "light"  # as teach asks: a table unlike
    table = effects.table_texture(W, H, rng, kind="plain", tone=tone)  # the card's edge
    s = rng.uniform(4.5, 6.0) / PX_PER_MM  # photo px per face px
    a = math.radians(rng.uniform(-5, 5))
    centre = (W / 2 + rng.uniform(-120, 120), H / 2 + rng.uniform(-60, 60))
    img = np.clip(lay_face(table, face, s, a, centre), 0, 255).astype(np.uint8)
    return effects.photograph(
        img, rng, noise_sigma=float(rng.uniform(1.5, 3.0)), jpeg_quality=int(rng.integers(80, 95))
    )
