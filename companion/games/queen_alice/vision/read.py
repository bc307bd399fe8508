"""Read Queen Alice's Central board from one picture: which squares hold a piece and its
colour, how many Crowns are left in the display, and where each Alice token stands.

A piece stands on its square, so whatever its shape or height the ray from the camera to
the middle of its square's footprint meets the piece: the board plane is enough, and the
camera's pose tells which way pieces lean in the picture (away from the point under the
camera). The square's own print is looked at beside the piece, across that lean, where
neither the piece nor its neighbours' lean reach. Only a few hundred pixels are sampled,
so the reader costs little beyond the marker detection.

Stages, each with a typed result:
1. `locate`: markers -> camera pose (`estimate_pose`, shared with Mirror Mansion) (`Located`);
2. `sample_spots`: per square (and per Crown slot and path space) the Lab colour of its
   middle and of its print beside it (`SpotColours`);
3. `classify`: red, white, empty, or unsure (neither the print nor a piece colour: an arm);
4. `read_board`: the reading, with a warning for each unsure square.

Three thresholds, each chosen from a curve on development renders
(`benchmarks/queen_alice_vision.py --curves`): how far a middle must differ from the print
to be something (`DIFFERENT`), how coloured a red piece is at least (`RED_CHROMA`), and how
grey a white piece is at most (`WHITE_CHROMA`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.games.mirror_mansion.vision.pose import BoardPose, Calibration, estimate_pose
from companion.games.queen_alice.vision.geometry import BoardGeometry, Cell, Point, load_geometry
from companion.games.queen_alice.vision.reading import BoardReading, unsure_warning
from companion.vision.markers import Marker, detect_markers

DIFFERENT = 14.0
"""Lab distance from the print beyond which a pixel of a square's middle is something."""
RED_CHROMA = 24.0
"""A red piece's pixel is at least this coloured (Lab chroma), with a red hue ..."""
RED_HUE = (-25.0, 50.0)
"""... between these Lab hue angles (degrees): crimson to scarlet, short of orange skin."""
WHITE_CHROMA = 18.0
"""A white piece's pixel is at most this coloured, and lighter than the print."""
PRINT_COLOURFUL = 0.6
"""Lab chroma over lightness of the print beside a square, above which it is not print
but skin or a sleeve: the board's print is muted beside the pieces' plastic."""
SHARE = 0.4
"""Share of a middle's pixels that must be of a piece's colour for the piece to be there
(a token's printed symbol or a glint takes the rest); an empty square's middle is at least
this share its print."""

MIDDLE_SQ = 0.2
"""Radius of the middle looked at, in squares: inside every piece's footprint."""
BESIDE_SQ = (0.36, 0.45)
"""The print is looked at along strips this far from the middle, in squares ..."""
BESIDE_ANGLES = (-105.0, -80.0, 80.0, 105.0)
"""... in these directions, in degrees from the direction toward the point under the
camera: across the lean, where neither the piece nor a neighbour's image reaches."""
SPOT_MIDDLE = 0.3
"""For Crowns and Alice tokens: the middle's radius and ..."""
SPOT_RING = (0.8, 0.95)
"""... the ring of print round the space, in token widths."""


@dataclass(frozen=True)
class Located:
    pose: BoardPose
    nadir_mm: Point
    """The board point under the camera: pieces lean away from it."""


@dataclass(frozen=True)
class SpotColours:
    middle: np.ndarray
    """N x M x 3 Lab (L 0..100, a and b signed) of the pixels of each spot's middle."""
    beside: np.ndarray
    """N x 3 Lab of the print beside each spot (a median)."""


def locate(image: np.ndarray, geom: BoardGeometry, markers: dict[int, Marker] | None = None,
           calibration: Calibration | None = None) -> Located | None:
    if markers is None:
        markers = detect_markers(image)
    h, w = image.shape[:2]
    pose = estimate_pose(markers, geom, (w, h), calibration)  # type: ignore[arg-type]
    if pose is None:
        return None
    c = pose.camera_centre
    return Located(pose, (float(c[0]), float(c[1])))


def _disc(radius: float, step: float) -> np.ndarray:
    k = max(1, math.ceil(radius / step))
    g = np.arange(-k, k + 1) * (radius / k)
    xx, yy = np.meshgrid(g, g)
    keep = xx ** 2 + yy ** 2 <= radius ** 2 + 1e-9
    return np.stack([xx[keep], yy[keep]], axis=1)


def _lab(bgr: np.ndarray) -> np.ndarray:
    """Lab of N BGR samples (float32 0..255 in), L 0..100 and signed a, b."""
    px = (np.clip(bgr, 0, 255) / 255.0).astype(np.float32).reshape(-1, 1, 3)
    return cv2.cvtColor(px, cv2.COLOR_BGR2Lab).reshape(-1, 3)


def _sample(image: np.ndarray, pose: BoardPose, points_mm: np.ndarray) -> np.ndarray:
    pix = pose.project(np.hstack([points_mm, np.zeros((len(points_mm), 1))])).astype(np.float32)
    got = cv2.remap(image, pix[:, 0].reshape(-1, 1), pix[:, 1].reshape(-1, 1),
                    cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    return got.reshape(-1, 3).astype(np.float32)


def _strip(angle: np.ndarray, lo: float, hi: float, n: int) -> np.ndarray:
    """Points along a radial strip at each of the given angles: (len(angle), n, 2)."""
    r = np.linspace(lo, hi, n)
    return np.stack([np.cos(angle)[:, None] * r, np.sin(angle)[:, None] * r], axis=2)


def _spot_colours(image: np.ndarray, where: Located, centres: np.ndarray, middle: np.ndarray,
                  beside: np.ndarray) -> SpotColours:
    """`middle` (M x 2) offsets round every centre; `beside` (N x K x 2) points per spot."""
    n, m = len(centres), len(middle)
    flat = np.concatenate([(centres[:, None, :] + middle[None]).reshape(-1, 2),
                           beside.reshape(-1, 2)])
    lab = _lab(_sample(image, where.pose, flat))
    return SpotColours(lab[:n * m].reshape(n, m, 3),
                       np.median(lab[n * m:].reshape(n, -1, 3), axis=1))


def sample_squares(image: np.ndarray, geom: BoardGeometry, where: Located,
                   cells: tuple[Cell, ...]) -> SpotColours:
    """Each square's middle, and its print along strips across the lean (a median: one
    strip under something still leaves the print)."""
    sq = geom.square_mm
    centres = np.array([geom.cell_mm(c) for c in cells])
    nx, ny = where.nadir_mm
    toward = np.arctan2(ny - centres[:, 1], nx - centres[:, 0])
    strips = np.concatenate([_strip(toward + math.radians(a), BESIDE_SQ[0] * sq,
                                    BESIDE_SQ[1] * sq, 6)[:, None] for a in BESIDE_ANGLES],
                            axis=1).reshape(len(cells), -1, 2)
    return _spot_colours(image, where, centres, _disc(MIDDLE_SQ * sq, sq * 0.035),
                         centres[:, None, :] + strips)


def sample_spots(image: np.ndarray, geom: BoardGeometry, where: Located,
                 spots: tuple[Point, ...]) -> SpotColours:
    """A Crown slot's or path space's middle and the ring of print round it."""
    t = geom.token_mm
    centres = np.array(spots)
    angles = np.linspace(0, 2 * math.pi, 16, endpoint=False)
    ring = _strip(angles, SPOT_RING[0] * t, SPOT_RING[1] * t, 2).reshape(-1, 2)
    return _spot_colours(image, where, centres, _disc(SPOT_MIDDLE * t, t * 0.07),
                         centres[:, None, :] + ring[None])


@dataclass(frozen=True)
class Shares:
    """Shares of a middle's pixels: like the print, red, white."""

    board: float
    red: float
    white: float
    gold: float
    print_colourful: float
    """Chroma over lightness of the print beside (see `PRINT_COLOURFUL`)."""


def shares(colours: SpotColours) -> list[Shares]:
    out = []
    for mid, bes in zip(colours.middle, colours.beside, strict=True):
        d = np.linalg.norm(mid - bes, axis=1)
        chroma = np.hypot(mid[:, 1], mid[:, 2])
        hue = np.degrees(np.arctan2(mid[:, 2], mid[:, 1]))
        apart = d >= DIFFERENT
        red = apart & (chroma >= RED_CHROMA) & (hue >= RED_HUE[0]) & (hue <= RED_HUE[1])
        white = apart & (chroma <= WHITE_CHROMA) & (mid[:, 0] > bes[0])
        gold = apart & (chroma >= RED_CHROMA) & (hue > RED_HUE[1] + 15) & (hue <= 110)
        colourful = math.hypot(float(bes[1]), float(bes[2])) / max(1.0, float(bes[0]))
        out.append(Shares(float(np.mean(~apart)), float(np.mean(red)), float(np.mean(white)),
                          float(np.mean(gold)), colourful))
    return out


def classify(colours: SpotColours) -> list[tuple[str, float]]:
    """Per spot: "empty", "red", "white", "gold" (a Crown) or "unsure", with a confidence."""
    out = []
    for s in shares(colours):
        if s.print_colourful > PRINT_COLOURFUL:
            out.append(("unsure", 0.0))
            continue
        best = max(("red", s.red), ("white", s.white), ("gold", s.gold), key=lambda kv: kv[1])
        if best[1] >= SHARE:
            out.append((best[0], best[1]))
        elif s.board >= 1 - SHARE:
            out.append(("empty", s.board))
        else:
            out.append(("unsure", 0.0))
    return out


def read_board(image: np.ndarray, calibration: Calibration | None = None, *,
               geom: BoardGeometry | None = None,
               markers: dict[int, Marker] | None = None) -> BoardReading:
    """The board in one BGR picture (the live table's per-frame call).

    `markers`, when the caller has detected them already (the registration does), saves
    the detection. Squares neither empty nor a piece (an arm over them) are `unsure` and
    never guessed; a Crown count or an Alice position with anything unsure is None.
    """
    geom = geom or load_geometry()
    where = locate(image, geom, markers, calibration)
    if where is None:
        return BoardReading({}, frozenset(), None, {"red": None, "white": None}, {},
                            ("the board's corner markers (30-33) are not seen: fewer than "
                             "three found",), board_found=False)
    cells = geom.cells
    calls = classify(sample_squares(image, geom, where, cells))
    squares = {c: v for c, (v, _) in zip(cells, calls, strict=True) if v in ("red", "white")}
    confidence = {c: p for c, (v, p) in zip(cells, calls, strict=True) if v in ("red", "white")}
    unsure = frozenset(c for c, (v, _) in zip(cells, calls, strict=True)
                       if v not in ("red", "white", "empty"))
    warnings = [unsure_warning(c, "neither a piece nor the board: an arm?")
                for c in sorted(unsure)]
    crowns = _crowns(image, geom, where)
    if crowns is None:
        warnings.append("crowns: a slot of the display is not clearly seen")
    alice: dict[str, int | None] = {}
    for colour in ("red", "white"):
        alice[colour] = _alice(image, geom, where, colour)
        if alice[colour] is None:
            warnings.append(f"alice: the {colour} token is not clearly seen on its path")
    return BoardReading(squares, unsure, crowns, alice, confidence, tuple(warnings))


def _crowns(image: np.ndarray, geom: BoardGeometry, where: Located) -> int | None:
    """Crowns in the display, or None when a slot shows neither print nor a Crown."""
    calls = classify(sample_spots(image, geom, where, geom.crown_slots))
    if any(v not in ("gold", "empty") for v, _ in calls):
        return None
    return sum(v == "gold" for v, _ in calls)


def _alice(image: np.ndarray, geom: BoardGeometry, where: Located, colour: str) -> int | None:
    """The one space of the path holding a token of the path's colour, or None."""
    calls = classify(sample_spots(image, geom, where, geom.paths[colour]))
    found = [i for i, (v, _) in enumerate(calls) if v == colour]
    return found[0] if len(found) == 1 else None
