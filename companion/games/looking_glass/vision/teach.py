"""Teaching the companion the user's own deck: one photo per card id -> the card library.

A photo shows one card face up and upright, lying anywhere on a table or as a tight scan.
The card is found first the way the light-border reader finds cards (its art is a hole in
the light border), so what is stored matches what that reader cuts out at the table; the
finder's rectangle is then refitted to the art's four edges, since a photo not taken square
shows a trapezoid. A card with no light border to find it by (dark, coloured or no border) is
found by its outline (`companion.vision.cards.photo`), whatever its colours.
The border width and the card's aspect are measured here, once, from the photos, not assumed.

A photo that cannot be used does not stop the others: each is taught or refused on its own,
and the user is told which to take again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.errors import UserError
from companion.games.looking_glass.vision.library import (
    CARD_W_MM,
    PATCH_H,
    PATCH_W,
    SEARCH_PX,
    CardShape,
    Library,
    descriptor,
)
from companion.games.looking_glass.vision.read import (
    RING_CHROMA_SLACK,
    cut_window,
    find_holes,
    inset,
    ring_chroma,
)
from companion.vision.cards.library import face_size
from companion.vision.cards.photo import border_depths, find_card_outline, inset_sides, upright
from companion.vision.cards.quads import side_profiles, sides_meet, sides_outward

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
PAD = 40
SIMILAR = 0.75
"""Upper halves that correlate this well are flagged as hard to tell apart."""
NO_CARD = (
    "no card found (is the whole card in view, face up, with its border, and no glare across it?)"
)
BORDERLESS_RING_CHROMA = 20.0
"""A hole with no border to measure is a card only if the ring just outside it is at most this
colourful (`ring_chroma`): a white table round a card is grey, a cloth's squares are not. Over
240 development teach photos the chosen cards' rings measured at most 10.9; the block of a
chequered cloth taught in a card's place (a card whose border a glare broke) 29."""


class TeachError(UserError):
    """A teach photo the companion cannot use; the message says why.

    `cards_seen` is how many cards the photo showed (0 or more than 1) when that was the
    problem, so a live camera can say it in its own words ("I see 2 cards")."""

    def __init__(self, message: str, cards_seen: int | None = None) -> None:
        super().__init__(message)
        self.cards_seen = cards_seen


@dataclass
class FoundCard:
    interior: np.ndarray
    """4×2 interior corners (padded image px): TL, TR, BR, BL, upright."""
    outer: np.ndarray
    border_frac: float
    """Border width / card width, measured; NaN when the border cannot be told from the table."""


def _border(img: np.ndarray, q: np.ndarray) -> float:
    """Border width in px: how far outward from the interior the border colour continues."""
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = img.shape[:2]
    width = float(np.linalg.norm(q[1] - q[0]))
    reach = int(max(6, 0.16 * width))
    found = []
    for a, edge, normal in sides_outward(q):
        for f in np.linspace(0.2, 0.8, 7):
            p0 = a + f * edge
            prof = []
            for k in range(reach):
                x, y = p0 + normal * (k + 1)
                if not (0 <= x < w - 1 and 0 <= y < h - 1):
                    break
                prof.append(lab[round(y), round(x)])
            if len(prof) < 6:
                continue
            prof_a = np.array(prof)
            ref = np.median(prof_a[1:4], axis=0)
            dist = np.linalg.norm(prof_a - ref, axis=1)
            out = np.nonzero(dist[3:] > 28)[0]
            if len(out):
                found.append(out[0] + 3 + 0.5)
    if len(found) < 8:
        return math.nan
    return float(np.median(found))


EDGE_SAMPLES = 15
"""Points along each side of a card's art where `_refine_interior` finds its edge."""
EDGE_IN, EDGE_OUT = 0.2, 0.2
"""How far inside and outside the finder's side the art's edge is looked for (of the art's
width; the border is 0.07 of it): the finder's rectangle lay up to 0.12 off, turned 4.6°
from the art in one development photo."""
EDGE_MOVE = 0.15
"""A refined corner further than this (of the art's width) from the finder's is not kept,
nor refined corners that change the art's area by more than `EDGE_AREA`."""
EDGE_AREA = 0.15


def _edge_along(profile: np.ndarray) -> float | None:
    """Where the art begins along one profile of the minimum channel sampled from outside the
    card inward (sample index, interpolated): past the light border (the first samples at 0.8
    of the profile's top), the first fall below halfway to the art. From outside, so shapes
    in the art never count; None where no border shows."""
    top = float(profile.max())
    bright = np.nonzero(profile >= 0.8 * top)[0]
    if len(bright) == 0:
        return None
    mid = 0.5 * (top + float(profile[bright[0] :].min()))
    below = np.nonzero(profile[bright[0] :] < mid)[0]
    if len(below) == 0 or below[0] == 0 or top - mid < 20.0:
        return None
    k = bright[0] + int(below[0])
    a, b = float(profile[k - 1]), float(profile[k])
    return k - 1 + (a - mid) / (a - b)  # a >= mid > b


def _refine_interior(image: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The art's corners (TL, TR, BR, BL; `q` the finder's, image px) where its four edges
    meet. The finder fits a rectangle, and a photo not taken square shows the card as a
    trapezoid, which no rectangle fits: in one development teach photo the rectangle's sides
    lay up to 14 px off the art's, the template took in part of the border and matched its
    own face at 0.75. Each side is refitted (robustly)
    to where the light border gives way to the art, and the corners are where the sides
    cross; if that moves a corner too far, the finder's rectangle is kept."""
    mn = cv2.min(cv2.min(image[..., 0], image[..., 1]), image[..., 2]).astype(np.float32)
    mn = cv2.GaussianBlur(mn, (0, 0), 1.0)
    width = float(np.linalg.norm(q[1] - q[0]))
    steps = np.arange(EDGE_OUT * width, -EDGE_IN * width, -0.5)  # outside inward
    lines = []
    for a, edge, normal in sides_outward(q):
        fractions = np.linspace(0.1, 0.9, EDGE_SAMPLES)
        base, profiles = side_profiles(mn, a, edge, normal, fractions, steps)
        found = []
        for j, prof in enumerate(profiles):
            k = _edge_along(prof)
            if k is not None:
                found.append(base[j] + (steps[0] - 0.5 * k) * normal)
        if len(found) < EDGE_SAMPLES // 2:
            return q
        vx, vy, x0, y0 = cv2.fitLine(
            np.array(found, np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01
        ).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    refined = sides_meet(lines)
    if refined is None:
        return q
    area, was = (abs(cv2.contourArea(c.astype(np.float32))) for c in (refined, q))
    if (
        np.linalg.norm(refined - q, axis=1).max() > EDGE_MOVE * width
        or abs(area - was) > EDGE_AREA * was
    ):
        return q
    return refined


def find_card(image: np.ndarray) -> FoundCard:
    """The one card in a teach photo; TeachError if there is none or more than one.

    By its light border first (`find_framed_card`): the light-border reader finds cards at
    the table as holes in that border, and a library cut the way it cuts them reads best
    with it (taught by their outlines first, the committed development set's light- and
    white-bordered decks read 106 cards of 554 with it, not 131). A photo in which it finds
    no card is tried by the card's outline (`find_outlined_card`), whatever its border."""
    try:
        return find_framed_card(image)
    except TeachError as exc:
        if exc.cards_seen != 0:
            raise
    return find_outlined_card(image)


def find_outlined_card(image: np.ndarray) -> FoundCard:
    """The one card in a teach photo by its outline, whatever its border; TeachError if the
    photo shows none or more than one."""
    found = find_card_outline(image)
    if found.outline is None:
        if found.cards_seen > 1:
            raise TeachError(
                f"{found.cards_seen} cards found; show exactly one card per photo",
                cards_seen=found.cards_seen,
            )
        raise TeachError(NO_CARD, cards_seen=0)
    outline = found.outline
    width = float(np.linalg.norm(outline[1] - outline[0]))
    depths = border_depths(image, outline)
    if depths is None:
        return FoundCard(outline.copy(), outline, 0.0)
    # A light border's inner edge is refitted to the art's edges, to the pixel (the step
    # samples the border only every half pixel); any other border keeps the measured inset.
    interior = _refine_interior(image, inset_sides(outline, depths))
    return FoundCard(interior, outline, float(depths.mean()) / width)


def find_framed_card(image: np.ndarray) -> FoundCard:
    """The one card in a teach photo as a hole in its light border; TeachError if there is
    none or more than one."""
    padded = cv2.copyMakeBorder(image, PAD, PAD, PAD, PAD, cv2.BORDER_CONSTANT, value=(45, 45, 45))
    w = padded.shape[1]
    sc = min(1.0, 960 / w)
    small = cv2.resize(padded, None, fx=sc, fy=sc, interpolation=cv2.INTER_AREA)
    holes = find_holes(small, max_frac=0.9, ring=0.5)
    big = [hl for hl in holes if hl.fill > 0.7 and hl.area > 0.01 * small.shape[0] * small.shape[1]]
    cards = []
    for hl in big:
        sides = sorted(np.linalg.norm(hl.corners[(i + 1) % 4] - hl.corners[i]) for i in range(2))
        if 1.15 < sides[1] / sides[0] < 1.9:
            cards.append(hl)
    if not cards:
        raise TeachError(NO_CARD, cards_seen=0)
    # A block of a chequered cloth's squares, bigger than the card, would be taught in its
    # place: see `ring_chroma`.
    chroma = [ring_chroma(small, hl.corners) for hl in cards]
    ringed = [
        (hl, c) for hl, c in zip(cards, chroma, strict=True) if c <= min(chroma) + RING_CHROMA_SLACK
    ]
    ringed.sort(key=lambda hc: -hc[0].area)
    if len(ringed) > 1 and ringed[1][0].area > 0.5 * ringed[0][0].area:
        raise TeachError(
            f"{len(ringed)} cards found; show exactly one card per photo", cards_seen=len(ringed)
        )
    card, card_ring = ringed[0]
    interior = _refine_interior(padded, upright(card.corners / sc))
    bw = _border(padded, interior)
    iw = float(np.linalg.norm(interior[1] - interior[0]))
    if math.isnan(bw):
        if card_ring > BORDERLESS_RING_CHROMA:
            # A glare across the card's border can hide the card from `find_holes`, and then
            # a block of a chequered cloth's squares was all that was left: taught as the
            # card, it matched nothing of that card at the table and the card was named as
            # another.
            raise TeachError(NO_CARD, cards_seen=0)
        frac = math.nan
        bw = 4.0 / (CARD_W_MM - 8.0) * iw
    else:
        frac = bw / (iw + 2 * bw)
    return FoundCard(interior - PAD, inset(interior, -bw) - PAD, frac)


def learn_card(
    image: np.ndarray, found: FoundCard, shape: CardShape, lib_stub: Library
) -> tuple[np.ndarray, np.ndarray]:
    """(descriptor, BGR patch) of a found card's upper half."""
    src = np.array(
        [[0, 0], [CARD_W_MM, 0], [CARD_W_MM, shape.height_mm], [0, shape.height_mm]], np.float32
    )
    H = cv2.getPerspectiveTransform(src, found.outer.astype(np.float32))
    window = cut_window(image, H, lib_stub)
    m = SEARCH_PX
    patch = window[m : m + PATCH_H, m : m + PATCH_W]
    return descriptor(window)[m : m + PATCH_H, m : m + PATCH_W].copy(), patch.copy()


def learn_face(image: np.ndarray, found: FoundCard, shape: CardShape) -> np.ndarray:
    """The whole face of a found card, rectified at `FACE_PX_PER_MM` (BGR): what the feature
    reader learns the card's art from."""
    w, h = face_size(shape)
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    H = cv2.getPerspectiveTransform(found.outer.astype(np.float32), dst)
    return cv2.warpPerspective(
        image, H, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )


def read_image(path: Path) -> np.ndarray:
    from companion.vision.image_file import read_image as read_checked

    if not path.is_file():
        raise UserError(f"image not found: {path}")
    return read_checked(path)  # refuses images too large to decode on a Pi


@dataclass
class Taught:
    """What a teach run made: the library of the cards taught, why each other photo was
    refused (by card id), and warnings about the cards taught."""

    library: Library
    refused: dict[str, str]
    warnings: list[str]


def teach(photos: dict[str, Path]) -> tuple[Library, list[str]]:
    """A library from one photo file per card id; returns it and warnings for the user."""
    return teach_images(
        {cid: read_image(p) for cid, p in photos.items()},
        {cid: str(p) for cid, p in photos.items()},
    )


def teach_photos(photos: dict[str, Path]) -> Taught:
    """`teach_cards` from one photo file per card id (photos are named by their paths)."""
    return teach_cards(
        {cid: read_image(p) for cid, p in photos.items()},
        {cid: str(p) for cid, p in photos.items()},
    )


def teach_images(
    images: dict[str, np.ndarray], names: dict[str, str] | None = None
) -> tuple[Library, list[str]]:
    """A library from one photo per card id (BGR images); returns it and warnings, the first
    of which say which photos were left out (`teach_cards`)."""
    taught = teach_cards(images, names)
    return taught.library, [*taught.refused.values(), *taught.warnings]


def teach_cards(images: dict[str, np.ndarray], names: dict[str, str] | None = None) -> Taught:
    """The cards of every usable photo taught (one photo per card id, BGR).

    A photo in which no single card is found is left out, and `Taught.refused` names it and
    says why (the user retakes only that one); TeachError only if no photo could be used."""
    found, refused = find_cards(images, names)
    if not found:
        raise TeachError("no card could be taught: " + "; ".join(refused.values()), cards_seen=None)
    lib, warnings = library_from_found({cid: images[cid] for cid in found}, found)
    return Taught(lib, refused, [*warnings, *look_alike_warnings(lib)])


def find_cards(
    images: dict[str, np.ndarray], names: dict[str, str] | None = None
) -> tuple[dict[str, FoundCard], dict[str, str]]:
    """(the card found in each usable photo, why each other photo was refused) by card id;
    a refusal reads "<photo>: <why> (not taught; take it again)"."""
    found: dict[str, FoundCard] = {}
    refused: dict[str, str] = {}
    for cid, img in images.items():
        try:
            found[cid] = find_card(img)
        except TeachError as exc:
            refused[cid] = f"{(names or {}).get(cid, cid)}: {exc} (not taught; take it again)"
    return found, refused


def library_from_found(
    images: dict[str, np.ndarray], found: dict[str, FoundCard], shape: CardShape | None = None
) -> tuple[Library, list[str]]:
    """A library from photos whose cards `find_card` already found; returns it and warnings
    about the measured shape (look-alike cards: `look_alike_warnings`).

    The card's shape is measured across all the photos, unless `shape` is given (cards added
    to a library taught earlier are cut the way its cards were, so all its patches agree)."""
    measured = shape is None
    fracs = [f.border_frac for f in found.values() if not math.isnan(f.border_frac)]
    if shape is not None:
        frac = shape.border_mm / CARD_W_MM
    else:
        frac = float(np.median(fracs)) if fracs else 4.0 / CARD_W_MM
    ids = sorted(images)
    for f in found.values():
        # One border for all cards: re-derive each outer quad from its interior.
        i = f.interior
        iw = float(np.linalg.norm(i[1] - i[0]))
        f.outer = inset(i, -frac * iw / (1 - 2 * frac))
    if shape is None:
        aspects = [
            float(np.linalg.norm(f.outer[3] - f.outer[0]) / np.linalg.norm(f.outer[1] - f.outer[0]))
            for f in found.values()
        ]
        shape = CardShape(
            height_mm=round(float(np.median(aspects)) * CARD_W_MM, 1),
            border_mm=round(frac * CARD_W_MM, 2),
        )
    warnings = []
    if measured and not fracs:
        warnings.append(
            "could not measure the card border (table as light as the border?); "
            f"assuming {shape.border_mm} mm"
        )
    if measured and abs(shape.height_mm - 88.0) > 6:
        warnings.append(f"cards measure {CARD_W_MM:g}×{shape.height_mm:g} mm, not 63×88")
    stub = Library(
        ids,
        np.zeros((0, PATCH_H, PATCH_W, 3), np.float32),
        np.zeros((0, PATCH_H, PATCH_W, 3), np.uint8),
        shape,
    )
    templates, patches, faces = [], [], []
    for cid in ids:
        f = found[cid]
        t, p = learn_card(images[cid], f, shape, stub)
        templates.append(t)
        patches.append(p)
        faces.append(learn_face(images[cid], f, shape))
    return Library(
        ids,
        np.array(templates, np.float32),
        np.array(patches, np.uint8),
        shape,
        np.array(faces, np.uint8),
    ), warnings


def look_alike_warnings(lib: Library, names: dict[str, str] | None = None) -> list[str]:
    """One warning per pair of cards whose upper halves the camera may confuse
    (`names`: how to call each card id; default the id itself)."""
    name = (names or {}).get
    return [
        f"{name(a, a)} and {name(b, b)} look alike in their upper halves "
        f"(similarity {s:.2f}); the camera may not tell them apart when covered"
        for a, b, s in lib.similar_pairs(SIMILAR)
    ]


def photos_in(folder: Path, known_ids: tuple[str, ...]) -> dict[str, Path]:
    """`<card-id>.png|.jpg` files of a teach folder; UserError for unknown or missing ids."""
    if not folder.is_dir():
        raise UserError(f"not a folder: {folder}")
    photos: dict[str, Path] = {}
    for p in sorted(folder.iterdir()):
        if p.suffix.lower() not in IMAGE_SUFFIXES or not p.is_file():
            continue
        if p.stem not in known_ids:
            raise UserError(f"{p.name}: unknown card id {p.stem!r} (known: {', '.join(known_ids)})")
        if p.stem in photos:
            raise UserError(f"two photos of {p.stem!r} in {folder}")
        photos[p.stem] = p
    return photos
