"""What real photographs of a table have and clean renders lack.

Each function takes and returns a BGR uint8 image and draws its randomness from the
`numpy.random.Generator` it is given, so a scene is reproducible from its seed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TypedDict

import cv2
import numpy as np

TABLE_KINDS = ("plain", "wood", "cloth", "pattern")
"""What a scene picks from when it names no kind ("felt" is also drawn, on request)."""
TONES = {"light": (175.0, 240.0), "dark": (15.0, 70.0)}
"""Grey-level ranges of a table asked to be light or dark."""


def _smooth_noise(shape: tuple[int, int], rng: np.random.Generator, scale: int) -> np.ndarray:
    """Low-frequency noise in [0, 1], `scale` pixels per blob."""
    h, w = shape
    small = rng.random((max(2, h // scale + 2), max(2, w // scale + 2))).astype(np.float32)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(big, 0.0, 1.0)


def table_texture(
    width: int,
    height: int,
    rng: np.random.Generator,
    kind: str | None = None,
    tone: str | None = None,
) -> np.ndarray:
    """A table surface: plain, wood grain, woven cloth, a printed pattern or felt.

    `tone` ("light" or "dark") keeps the surface in that range of grey levels; None draws
    the same colours as ever, so scenes rendered before stay as they were."""
    kind = kind or str(rng.choice(TABLE_KINDS))
    base = rng.uniform(60, 200, size=3)
    if tone is not None:
        lo, hi = TONES[tone]
        base = lo + (base - 60) / 140 * (hi - lo)
    img: np.ndarray
    if kind == "plain":
        img = np.empty((height, width, 3), np.float32)
        img[:] = base
        img += (_smooth_noise((height, width), rng, 80)[..., None] - 0.5) * 20
    elif kind == "wood":
        y = np.arange(height, dtype=np.float32)[:, None]
        warp = _smooth_noise((height, width), rng, 120) * rng.uniform(20, 60)
        freq = rng.uniform(0.05, 0.15)
        grain = 0.5 + 0.5 * np.sin((y + warp) * freq)
        wood = np.array([40, 90, 150], np.float32) * rng.uniform(0.7, 1.2)
        if tone is not None:  # birch or bleached oak; walnut or wenge
            wood = wood * (1.45 if tone == "light" else 0.35) + (40 if tone == "light" else 0)
        img = wood * (0.75 + 0.35 * grain[..., None])
        del warp, grain
        # The grain's noise a band of rows at a time (the same draws in the same order): the
        # sim camera draws a table twice its view wide, and whole-table temporaries put the
        # live server's peak over 300 MB as it drew the next round's table.
        rows = 256
        for top in range(0, height, rows):
            band = rng.random((min(rows, height - top), width, 1)).astype(np.float32)
            band -= 0.5
            band *= 12
            img[top : top + rows] += band
    elif kind == "cloth":
        y, x = np.mgrid[0:height, 0:width].astype(np.float32)
        period = rng.uniform(3, 7)
        weave = 0.5 + 0.25 * (np.sin(x * 2 * math.pi / period) + np.sin(y * 2 * math.pi / period))
        img = base * (0.8 + 0.3 * weave[..., None])
    elif kind == "pattern":
        y, x = np.mgrid[0:height, 0:width].astype(np.float32)
        cell = rng.uniform(25, 70)
        checks = ((x // cell + y // cell) % 2)[..., None]
        other = rng.uniform(60, 200, size=3)
        if tone is not None:
            lo, hi = TONES[tone]
            other = lo + (other - 60) / 140 * (hi - lo)
        img = base * (1 - checks) + other * checks
        img = cv2.GaussianBlur(img.astype(np.float32), (0, 0), 1.0)
    elif kind == "felt":
        # Card-table felt: grass green most often, a fine fibre noise and a faint nap.
        felt = (
            np.array([50, 120, 30], np.float32) * rng.uniform(0.7, 1.3)
            if rng.random() < 0.6
            else base.astype(np.float32)
        )
        if tone is not None:
            lo, hi = TONES[tone]
            felt = felt * ((lo + hi) / 2 / max(1.0, float(felt.mean())))
        img = np.empty((height, width, 3), np.float32)
        img[:] = felt
        img *= (0.9 + 0.2 * _smooth_noise((height, width), rng, 150))[..., None]
        fibre = cv2.GaussianBlur(rng.random((height, width), dtype=np.float32), (0, 0), 0.8)
        img += ((fibre - 0.5) * 40)[..., None]
    else:
        raise ValueError(f"unknown table kind {kind!r} (known: {', '.join(TABLE_KINDS)}, felt)")
    return np.clip(img, 0, 255, out=img).astype(np.uint8)


def uneven_light(img: np.ndarray, rng: np.random.Generator, strength: float = 0.35) -> np.ndarray:
    """Light that falls off across the table, as from a lamp to one side."""
    h, w = img.shape[:2]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = np.cos(angle) * x / w + np.sin(angle) * y / h
    ramp = (ramp - ramp.min()) / max(1e-6, float(ramp.max() - ramp.min()))
    gain = 1.0 - strength * rng.uniform(0.3, 1.0) * ramp
    gain *= 0.9 + 0.2 * _smooth_noise((h, w), rng, 200)
    return np.clip(img.astype(np.float32) * gain[..., None], 0, 255).astype(np.uint8)


def glare(
    img: np.ndarray,
    rng: np.random.Generator,
    center: tuple[float, float] | None = None,
    radius: float | None = None,
    strength: float = 0.6,
) -> np.ndarray:
    """A bright soft spot, as a lamp reflected in a glossy card or a mirror."""
    h, w = img.shape[:2]
    cx, cy = center if center is not None else (rng.uniform(0, w), rng.uniform(0, h))
    r = radius if radius is not None else rng.uniform(0.03, 0.08) * w
    y, x = np.ogrid[0:h, 0:w]
    blob = np.exp(-(((x - cx) ** 2 + (y - cy) ** 2) / (2 * r * r))).astype(np.float32)
    out = img.astype(np.float32)
    out += (255 - out) * (strength * blob)[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def soft_shadow(img: np.ndarray, rng: np.random.Generator, darkness: float = 0.35) -> np.ndarray:
    """A blurred dark ellipse, as the shadow of a head or an arm."""
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.float32)
    center = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
    axes = (int(rng.uniform(0.1, 0.3) * w), int(rng.uniform(0.08, 0.2) * h))
    cv2.ellipse(mask, center, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), max(3.0, axes[0] * 0.3))
    gain = 1.0 - darkness * mask
    return np.clip(img.astype(np.float32) * gain[..., None], 0, 255).astype(np.uint8)


def sensor_noise(img: np.ndarray, rng: np.random.Generator, sigma: float = 4.0) -> np.ndarray:
    noise = rng.normal(0.0, sigma, img.shape).astype(np.float32)
    return np.clip(img.astype(np.float32) + noise, 0, 255).astype(np.uint8)


def blur(img: np.ndarray, rng: np.random.Generator, sigma: float = 1.0) -> np.ndarray:
    """Mild defocus, or motion blur when the generator says so."""
    if rng.random() < 0.5:
        return cv2.GaussianBlur(img, (0, 0), sigma)
    length = max(3, round(sigma * 4) | 1)
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1.0)
    kernel = cv2.warpAffine(kernel, rot, (length, length))
    kernel /= max(1e-6, float(kernel.sum()))
    return cv2.filter2D(img, -1, kernel)


def jpeg(img: np.ndarray, quality: int = 80) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if out is None:
        raise RuntimeError("JPEG decoding failed")
    return out


def hand(
    img: np.ndarray,
    rng: np.random.Generator,
    reach: tuple[float, float] | None = None,
    edge: str | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """An arm reaching from an image edge to `reach`, shaded like skin or a sleeve.

    Returns the image and the mask of the pixels the arm covers (for ground truth).
    """
    h, w = img.shape[:2]
    reach = reach if reach is not None else (rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h)
    edge = edge or str(rng.choice(["top", "bottom", "left", "right"]))
    start = {
        "top": (rng.uniform(0.2, 0.8) * w, -0.1 * h),
        "bottom": (rng.uniform(0.2, 0.8) * w, 1.1 * h),
        "left": (-0.1 * w, rng.uniform(0.2, 0.8) * h),
        "right": (1.1 * w, rng.uniform(0.2, 0.8) * h),
    }[edge]
    width = rng.uniform(0.06, 0.1) * w
    d = np.array(reach) - np.array(start)
    n = np.array([-d[1], d[0]]) / max(1e-6, float(np.linalg.norm(d)))
    arm = np.array(
        [
            np.array(start) + n * width * 0.6,
            np.array(reach) + n * width * 0.5,
            np.array(reach) - n * width * 0.5,
            np.array(start) - n * width * 0.6,
        ]
    )
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, arm.astype(np.int32), 255)
    cv2.circle(mask, (int(reach[0]), int(reach[1])), int(width * 0.7), 255, -1)
    skins = [(120, 160, 220), (90, 130, 190), (60, 90, 140), (40, 60, 90), (150, 110, 80)]
    color = np.array(skins[int(rng.integers(len(skins)))], np.float32)
    shade = 0.75 + 0.35 * _smooth_noise((h, w), rng, 60)
    # Blend only around the arm (the blur's reach included): same picture, a fraction of
    # the cost, which lets the sim camera show hands at its frame rate.
    bx, by, bw, bh = cv2.boundingRect(mask)
    pad = 10  # > the 8 px radius of a sigma-2 Gaussian, so the crop blurs like the whole
    x0, y0 = max(0, bx - pad), max(0, by - pad)
    x1, y1 = min(w, bx + bw + pad), min(h, by + bh + pad)
    out = img.copy()
    if x1 > x0 and y1 > y0:
        roi = (slice(y0, y1), slice(x0, x1))
        layer = color * shade[roi][..., None]
        soft = cv2.GaussianBlur(mask[roi].astype(np.float32) / 255.0, (0, 0), 2.0)[..., None]
        blend = img[roi].astype(np.float32) * (1 - soft) + layer * soft
        out[roi] = np.clip(blend, 0, 255).astype(np.uint8)
    return out, mask


def arm_clear_of(
    img: np.ndarray,
    rng: np.random.Generator,
    reach: tuple[float, float],
    markers: Iterable[np.ndarray],
    hidden_before: set[int],
    protect: Iterable[np.ndarray] = (),
    margin_px: int = 15,
) -> tuple[np.ndarray, np.ndarray, set[int]] | None:
    """An arm (`hand`) reaching to `reach` that keeps `margin_px` clear of every `protect`
    point and leaves the table registrable: with the corner `markers` it hides (each a few
    image points) added to `hidden_before`, at most one is hidden in all, as a real table
    still shows three. None when this arm would break either, so the caller tries another
    reach; else the image, the arm's mask and the markers it hides."""
    h, w = img.shape[:2]
    trial, mask = hand(img, rng, reach=reach)
    near = cv2.dilate(mask, np.ones((margin_px, margin_px), np.uint8))

    def hit(p: np.ndarray) -> bool:
        x, y = round(float(p[0])), round(float(p[1]))
        return 0 <= x < w and 0 <= y < h and near[y, x] > 0

    if any(hit(p) for p in protect):
        return None
    hidden = {i for i, quad in enumerate(markers) if any(hit(p) for p in quad)}
    if len(hidden | hidden_before) > 1:
        return None
    return trial, mask, hidden


def film_noise(
    rng: np.random.Generator, shape: tuple[int, int], sigma: float, layers: int = 3
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Sensor noise for a film, drawn once: each layer as its (positive, negative) parts, so
    a frame adds one and subtracts the other (`film_frame`) at a fraction of drawing anew."""
    h, w = shape
    out = []
    for _ in range(layers):
        n = rng.normal(0, sigma, (h, w, 3)).astype(np.float32)
        out.append((np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)))
    return out


def film_frame(
    img: np.ndarray,
    t: float,
    rng: np.random.Generator,
    reach: tuple[float, float] | None,
    gain: np.ndarray,
    noise: list[tuple[np.ndarray, np.ndarray]],
    moving: bool,
) -> np.ndarray:
    """What a film's camera adds to a drawn frame at film time `t`: an arm reaching to
    `reach` (image px) if one is over the table, the lens's uneven light (`gain`), motion
    blur while something moves, the sensor's noise and JPEG."""
    if reach is not None:
        img, _ = hand(img, rng, reach=reach)
    img = np.clip(img.astype(np.float32) * gain, 0, 255).astype(np.uint8)
    if moving:
        img = blur(img, rng, 1.6)
    pos, neg = noise[int(t * 1000) % len(noise)]
    return jpeg(cv2.subtract(cv2.add(img, pos), neg), 85)


def photograph(
    img: np.ndarray,
    rng: np.random.Generator,
    *,
    light: bool = True,
    glare_spots: int = 0,
    shadow: bool = False,
    noise_sigma: float = 3.0,
    blur_sigma: float = 0.0,
    jpeg_quality: int | None = 85,
) -> np.ndarray:
    """The usual chain, in the order a camera adds them."""
    out = img
    if light:
        out = uneven_light(out, rng)
    if shadow:
        out = soft_shadow(out, rng)
    for _ in range(glare_spots):
        out = glare(out, rng)
    if blur_sigma > 0:
        out = blur(out, rng, blur_sigma)
    if noise_sigma > 0:
        out = sensor_noise(out, rng, noise_sigma)
    if jpeg_quality is not None:
        out = jpeg(out, jpeg_quality)
    return out


class Faults(TypedDict):
    """A camera's faults drawn for one photograph: `photograph`'s arguments."""

    glare_spots: int
    shadow: bool
    noise_sigma: float
    blur_sigma: float
    jpeg_quality: int


def random_faults(
    rng: np.random.Generator, *, blur_max: float, jpeg_min: int, glare: bool = True
) -> Faults:
    """A camera drawn at random within the rulebook's conditions: a glare spot and a soft
    shadow now and then, sensor noise, blur up to `blur_max`, JPEG from `jpeg_min`. The draws
    come in one fixed order, so a seed keeps its picture whichever game's renderer asks."""
    return Faults(
        glare_spots=int(rng.integers(0, 2)) if glare else 0,
        shadow=bool(rng.random() < 0.4),
        noise_sigma=float(rng.uniform(1.5, 5)),
        blur_sigma=float(rng.uniform(0, blur_max)) if rng.random() < 0.6 else 0.0,
        jpeg_quality=int(rng.integers(jpeg_min, 96)),
    )
