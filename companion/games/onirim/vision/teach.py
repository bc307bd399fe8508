"""Teaching the companion the user's own Onirim deck: one photo per card type.

Through the shared card library (`companion.vision.cards`): the card is found by its outline
(`photo.find_card_outline`, any border or none), its corner cut out rectified
(`identify.upper_window`) and stored as a `Library` template. What is stored is the corner
every fan on the table leaves in view (models/onirim/table.toml `[identify]`), not the upper
half the shared library keeps by default: `CornerShape` says so, and a library loaded from
disk is given it again (`load_library`). Each card's whole face is kept too (`Library.faces`):
the place after a row's last card shows that card's body, which the reader cuts from it
(`read.TableReader.body_score`).

A photo that cannot be used does not stop the others: it is named, with the reason, and the
rest are taught.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.errors import UserError
from companion.games.onirim.rules import ENGINE
from companion.games.onirim.vision.art import card_ids
from companion.games.onirim.vision.layout import load_layout
from companion.vision.cards.identify import upper_window
from companion.vision.cards.library import (
    CARD_W_MM,
    CardShape,
    Library,
    card_outline_mm,
    descriptor,
    face_size,
)
from companion.vision.cards.photo import (
    MIN_CARD_FRAC,
    PAD,
    CardInPhoto,
    card_quad,
    find_card_outline,
    upright,
)
from companion.vision.cards.quads import find_quads

SUFFIXES = (".jpg", ".jpeg", ".png")
SAME_CARD = 0.1
"""Two card-shaped outlines whose corners lie within this share of the card's width are one
card found twice (a rounded corner fitted two ways)."""
SIMILAR = 0.9
"""Corners that correlate this well are named to the user as hard to tell apart."""


@dataclass(frozen=True)
class CornerShape(CardShape):
    """A card whose library patch is the corner a fan leaves in view."""

    def patch_region(self) -> tuple[float, float, float, float]:
        return load_layout().identify_mm


@dataclass
class Taught:
    library: Library
    refused: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def default_library_path(data_dir: Path) -> Path:
    return Path(data_dir) / "onirim" / "cards.npz"


def required_ids() -> list[str]:
    """Every face a game can show: the Glyph Mirror only with The Glyphs, which is not
    modelled, so its photos are taken if given but not asked for."""
    deck = ENGINE.deck
    glyphs = {f"mirror-{m}" for m, c in deck.mirrors.items() if c.use == "glyphs"}
    return [c for c in card_ids(deck) if c.removesuffix("-explored") not in glyphs]


def photos_in(folder: Path) -> dict[str, Path]:
    """Photos named after a card type; any other file is left alone."""
    known = set(card_ids(ENGINE.deck))
    return {
        p.stem: p
        for p in sorted(folder.iterdir())
        if p.suffix.lower() in SUFFIXES and p.stem in known
    }


def card_outline(image: np.ndarray) -> CardInPhoto:
    """The one card of a teach photo (`photo.find_card_outline`), except that outlines which
    are one card fitted twice, as a rounded card's corners can be, or a quad inside the card
    (its inner frame), count once.

    A stop-gap: the shared finder counts them as two cards (reported to its owner); when it
    merges them itself this falls through to it unchanged."""
    seen = find_card_outline(image)
    if seen.outline is not None or seen.cards_seen < 2:
        return seen
    h, w = image.shape[:2]
    padded = cv2.copyMakeBorder(image, PAD, PAD, PAD, PAD, cv2.BORDER_REPLICATE)
    quads = [
        q
        for q in find_quads(padded, min_side_px=MIN_CARD_FRAC * min(w, h), max_area_frac=0.9)
        if card_quad(q)
    ]
    if not quads:
        return seen
    big = max(quads, key=lambda q: q.area)
    width = float(np.sqrt(big.area / big.aspect))
    others = [q for q in quads if q.area > 0.5 * big.area and q is not big]
    outline = big.corners.astype(np.float32).reshape(-1, 1, 2)
    for q in others:
        a, b = upright(q.corners), upright(big.corners)
        if float(np.abs(a - b).max()) <= SAME_CARD * width:
            continue
        # A quad inside the card's outline is its own border or art (an inner frame cut
        # short by a round motif), not a second card: a second card lies beside it.
        inside = [
            cv2.pointPolygonTest(outline, (float(x), float(y)), True) >= -SAME_CARD * width
            for x, y in q.corners
        ]
        if not all(inside):
            return seen
    return CardInPhoto(upright(big.corners - PAD), 1)


def _corner(
    image: np.ndarray, outline: np.ndarray, shape: CornerShape
) -> tuple[np.ndarray, np.ndarray]:
    """(descriptor, BGR patch) of the card's identifying corner."""
    lib = Library([], np.zeros((0, 1)), np.zeros((0, 1)), shape)
    patch = upper_window(image, outline, lib, margin=0)
    return descriptor(patch), patch


def _face(image: np.ndarray, outline: np.ndarray, shape: CornerShape) -> np.ndarray:
    """The whole face of the card outlined, rectified at the library's `FACE_PX_PER_MM` (BGR):
    what the reader cuts a card's body from (`read.TableReader.body_scores`), the part of it
    the place after a row's last card shows."""
    w, h = face_size(shape)
    to_face = cv2.getPerspectiveTransform(
        outline.astype(np.float32), card_outline_mm(shape.height_mm) * np.float32(w / CARD_W_MM)
    )
    return cv2.warpPerspective(
        image, to_face, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )


def teach_photos(photos: dict[str, Path]) -> Taught:
    """A library of every usable photo; raises UserError only if none could be used."""
    found: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    refused: dict[str, str] = {}
    for cid, path in photos.items():
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            refused[cid] = f"{path.name}: not an image OpenCV can read"
            continue
        seen = card_outline(image)
        if seen.outline is None:
            refused[cid] = (
                f"{path.name}: {seen.cards_seen} cards in the photo (one, please)"
                if seen.cards_seen > 1
                else f"{path.name}: no card found (the whole "
                "card face up on a plain table, in view, without glare)"
            )
            continue
        found[cid] = (image, seen.outline)
    if not found:
        raise UserError("no teach photo could be used: " + "; ".join(refused.values()))
    aspects = [
        float(np.linalg.norm(o[3] - o[0]) + np.linalg.norm(o[2] - o[1]))
        / float(np.linalg.norm(o[1] - o[0]) + np.linalg.norm(o[2] - o[3]))
        for _, o in found.values()
    ]
    shape = CornerShape(height_mm=CARD_W_MM * float(np.median(aspects)), border_mm=0.0)
    ids, templates, patches, faces = [], [], [], []
    for cid, (image, outline) in found.items():
        d, patch = _corner(image, outline, shape)
        ids.append(cid)
        templates.append(d)
        patches.append(patch)
        faces.append(_face(image, outline, shape))
    lib = Library(
        ids, np.stack(templates).astype(np.float32), np.stack(patches), shape, np.stack(faces)
    )
    warnings = [
        f"{a} and {b} look alike in the corner the camera reads ({s:.2f}); it may "
        "ask you which one it is"
        for a, b, s in lib.similar_pairs(SIMILAR)
    ]
    return Taught(lib, refused, warnings)


def load_library(path: Path) -> Library:
    """A taught Onirim library, its patch the corner (see `CornerShape`)."""
    lib = Library.load(path)
    lib.shape = CornerShape(lib.shape.height_mm, lib.shape.border_mm)
    unknown = set(lib.ids) - set(card_ids(ENGINE.deck))
    if unknown:
        raise UserError(f"{path}: not an Onirim card library (it names {sorted(unknown)[:3]})")
    return lib
