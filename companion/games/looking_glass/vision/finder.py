"""Where the features fix no lattice: places found by whole-face correlation fix the glass's
geometry, and the slot stage names every card.

Smooth photographic art shows SIFT few extrema: on full-bleed and dark-bordered photo-art
decks the features name 1-5 cards a table, rarely one and its reflection, so no lattice is
fitted and no slot is looked at. `by_correlation` slides every taught face's upper half over
the table, at the named cards' plane and size, both ways up, and takes the places where one
face stands out. Those places are used for one thing only: with the features' cards they fit
the lattice (`slots.lattice_of`), the layout's geometry. What lies in each slot is then said by
the slot stage (`slots.fill_lattice`: the library's full patch, searched about the slot, named
from `slots.MIN_SCORE` with `slots.MIN_MARGIN`, the lower-half guard), as for any other
lattice, so no card is named by the coarse correlation alone (lg19 let the finder's names into
the glass: on a fresh held-out draw it named two cards wrong, and on the committed development
set it read phantom cards).
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.games.looking_glass.vision.slots import (
    Probe,
    fill_lattice,
    halves_agree,
    lattice_of,
    reflection_pairs,
    with_coverage,
)
from companion.games.looking_glass.vision.stages import (
    SAME_PLACE,
    Glass,
    Hypothesis,
    Identified,
    Placed,
    Plane,
    fit_glass,
    plane_of_cards,
)
from companion.vision.cards.identify import Identity
from companion.vision.cards.library import (
    CARD_W_MM,
    CHANNEL_WEIGHTS,
    FACE_PX_PER_MM,
    Library,
    card_outline_mm,
)

CORR_PX_PER_MM = 0.5
"""Resolution (px per taught mm) at which `by_correlation` slides the taught upper halves over
the table: a card's upper half is some 25 × 17 px, enough for art whose features are too smooth
for SIFT (photographic blobs), coarse enough to slide 28 faces over a table in a few hundred ms
(lg19: 0.75 px and three sizes, 0.92 to 1.08, found on one development deck's three tables the
same cards at 0.8 but one, at six times the time)."""
CORR_MIN_SCORE = 0.8
"""A place's best face must correlate at least this to be a place (`by_correlation`). lg19's
curve over every place taken at 0.45 on 10 development photo-art decks (dark, black, coloured
or no border; 30 tables; `benchmarks/looking_glass_failures.py --corr-curve`), right / wrong
name / no glass card there, on the tables whose features fixed no lattice: 0.6: 72 / 6 / 71;
0.65: 69 / 1 / 34; 0.7: 67 / 1 / 20; 0.75: 65 / 0 / 11; 0.8: 62 / 0 / 7; 0.85: 55 / 0 / 5. A
place here only fixes the lattice (its name is the slot stage's), so what matters is how few
places lie where no glass card does."""
CORR_MIN_MARGIN = 0.1
"""...and beat every other face by this much (`slots.MIN_MARGIN`)."""
CORR_MAX_FINDS = 40
"""At most this many places are taken, strongest first (a table holds at most ~40 cards)."""


def _weighted_lab(bgr: np.ndarray) -> np.ndarray:
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    return cv2.multiply(lab, (*CHANNEL_WEIGHTS.tolist(), 0.0))


def by_correlation(
    image: np.ndarray,
    found: list[Identified],
    lib: Library,
    min_score: float = CORR_MIN_SCORE,
) -> list[Identified]:
    """Places the features did not find, by sliding every taught face's upper half (the part
    a covered card still shows) over the table, rectified to the named cards' plane and size,
    both ways up: zero-mean normalised correlation of weighted Lab (no keypoints, so smooth
    photographic art is found as well as any). A place is taken where its best face reaches
    `min_score` and beats every other face by `CORR_MIN_MARGIN`; places within `SAME_PLACE`
    card widths of a card found already are not looked at. Each place is returned as an
    `Identified` with the face that correlated best (coarse: for the lattice fit, not a name
    to read). Nothing when the features named no card (their size and pose are what the
    search is done at)."""
    named = [k for k in found if k.identity.card is not None]
    if not named or lib.faces is None:
        return []
    card_h = lib.shape.height_mm
    outlines = np.array([k.hypothesis.outline for k in named])
    to_plane = plane_of_cards(outlines)
    if to_plane is None:
        to_plane = affine_frame(max(named, key=lambda k: k.identity.score), card_h)
    # The named cards' median face in the plane: the units every card is measured in.
    o = cv2.perspectiveTransform(outlines.reshape(-1, 1, 2).astype(np.float64), to_plane).reshape(
        -1, 4, 2
    )
    w = float(np.median(np.linalg.norm(o[:, 1] - o[:, 0], axis=1)))
    h = float(np.median(np.linalg.norm(o[:, 3] - o[:, 0], axis=1)))
    if w <= 0 or h <= 0:
        return []
    to_plane = np.diag([CARD_W_MM / w, card_h / h, 1.0]) @ to_plane
    # The frame's corners in the plane: the canvas to rectify into.
    hi, wi = image.shape[:2]
    corners = np.array([[0, 0], [wi, 0], [wi, hi], [0, hi]], np.float64).reshape(-1, 1, 2)
    pc = cv2.perspectiveTransform(corners, to_plane).reshape(-1, 2)
    lo = pc.min(axis=0)
    size = pc.max(axis=0) - lo
    limit = 25 * CARD_W_MM  # the frame at a card ~50 px wide; a wilder plane says nothing
    if not np.all(np.isfinite(size)) or (size > limit).any():
        return []
    x0, y0, x1, y1 = lib.shape.patch_region()
    faces_lab = [
        _weighted_lab(
            lib.faces[k][
                round(y0 * FACE_PX_PER_MM) : round(y1 * FACE_PX_PER_MM),
                round(x0 * FACE_PX_PER_MM) : round(x1 * FACE_PX_PER_MM),
            ]
        )
        for k in range(len(lib.ids))
    ]
    r = CORR_PX_PER_MM  # canvas px per card mm
    canvas_from_image = np.array([[r, 0, -lo[0] * r], [0, r, -lo[1] * r], [0, 0, 1.0]]) @ to_plane
    cw, ch = int(np.ceil(size[0] * r)), int(np.ceil(size[1] * r))
    tw = max(4, round((x1 - x0) * r))
    th = max(4, round((y1 - y0) * r))
    if cw <= tw or ch <= th:
        return []
    canvas = _weighted_lab(
        cv2.warpPerspective(image, canvas_from_image, (cw, ch), flags=cv2.INTER_AREA)
    )
    inside = cv2.warpPerspective(
        np.full(image.shape[:2], 255, np.uint8), canvas_from_image, (cw, ch)
    )
    # A place the frame's edge cuts is not looked at.
    ok_full = cv2.erode(inside, np.ones((th, tw), np.uint8), anchor=(0, 0))
    best: list[tuple[float, float, np.ndarray, dict[str, float]]] = []
    for flipped in (False, True):
        maps = []
        for f in faces_lab:
            t = cv2.resize(f, (tw, th), interpolation=cv2.INTER_AREA)
            if flipped:
                t = cv2.rotate(t, cv2.ROTATE_180)
            maps.append(cv2.matchTemplate(canvas, t, cv2.TM_CCOEFF_NORMED))
        stack = np.nan_to_num(np.array(maps), nan=-1.0)
        ok = ok_full[: stack.shape[1], : stack.shape[2]] > 0
        order = np.argsort(stack, axis=0)
        top = np.take_along_axis(stack, order[-1:], axis=0)[0]
        second = np.take_along_axis(stack, order[-2:-1], axis=0)[0]
        top = np.where(ok, top, -1.0)
        # Local maxima over half a card width.
        k = max(3, round(0.5 * CARD_W_MM * r) | 1)
        peak = (top >= cv2.dilate(top, np.ones((k, k), np.float32))) & (top >= min_score)
        for py, px in zip(*np.nonzero(peak), strict=True):
            if top[py, px] - second[py, px] < CORR_MIN_MARGIN:
                continue
            # The card's own corners (TL, TR, BR, BL from its top) in canvas px.
            sign = -1.0 if flipped else 1.0
            ox, oy = (px + tw + x0 * r, py + th + y0 * r) if flipped else (px - x0 * r, py - y0 * r)
            own = np.array(
                [
                    [ox, oy],
                    [ox + sign * CARD_W_MM * r, oy],
                    [ox + sign * CARD_W_MM * r, oy + sign * card_h * r],
                    [ox, oy + sign * card_h * r],
                ]
            )
            outline = cv2.perspectiveTransform(
                own.reshape(-1, 1, 2), np.linalg.inv(canvas_from_image)
            ).reshape(4, 2)
            scores = {cid: float(stack[j, py, px]) for j, cid in enumerate(lib.ids)}
            best.append((float(top[py, px]), float(top[py, px] - second[py, px]), outline, scores))
    best.sort(key=lambda b: -b[0])
    out: list[Identified] = []
    taken = [k.centre for k in found]
    width = float(np.median([np.linalg.norm(q[1] - q[0]) for q in outlines]))
    for score, margin, outline, scores in best:
        centre = outline.mean(axis=0)
        if any(np.linalg.norm(centre - t) < SAME_PLACE * width for t in taken):
            continue
        card = max(scores, key=lambda c: scores[c])
        out.append(
            Identified(Hypothesis(outline, False), Identity(card, score, margin, False, scores))
        )
        taken.append(centre)
        if len(out) >= CORR_MAX_FINDS:
            break
    return out


def affine_frame(anchor: Identified, card_h: float) -> np.ndarray:
    """Image px -> the anchor card's mm, affine (least squares over its four corners): the
    plane `by_correlation` searches when too few cards are named for `plane_of_cards`. One
    card's outline from a few features fixes its own place, turn and size, but not the
    table's perspective: its perspective part (`stages.card_frame`), carried across the frame,
    made the canvas too wild to search (a development table of a full-bleed tarot deck under
    a hand: no place found at 0.5; with this frame 5 right at 0.8 and none wrong, both halves)
    or rectified one half of the glass only (a full-bleed mini deck on wood: 5 places, all of
    one half, so no glass; with this frame both halves; docs/looking-glass-table.md, lg25).
    What the affine frame leaves out, the table's own perspective, the coarse search at
    `CORR_PX_PER_MM` stood on those tables (one under a 6° tilt)."""
    src = anchor.hypothesis.outline.astype(np.float64)
    dst = card_outline_mm(card_h, np.float64)
    sol, *_ = np.linalg.lstsq(np.hstack([src, np.ones((4, 1))]), dst, rcond=None)
    frame = np.eye(3)
    frame[:2] = sol.T
    return frame


def fill_by_places(
    image: np.ndarray,
    found: list[Identified],
    places: list[Identified],
    plane: Plane,
    lib: Library,
    max_cols: int | None = None,
    every_card_taught: bool = True,
) -> tuple[Glass, list[Probe]] | None:
    """The glass read through the lattice that the features' cards and the finder's `places`
    fit together (`stages.fit_glass`, `slots.lattice_of`), every place's slot named by the slot
    stage alone (`slots.fill_lattice`): a place says where the glass lies and how far it
    reaches, never which card lies there. None when the places fix no lattice either, or the
    glass read through it shows no card with its reflection (`slots.reflection_pairs`): on a
    development table whose glass lay under an arm, the places fixed a lattice on a score
    pile and its slots read five of the pile's cards as a glass of one half."""
    if not places:
        return None
    lattice, glass = lattice_of(image, fit_glass(found + places, plane), lib, max_cols)
    if lattice is None:
        return None
    placed = {id(k) for k in places}
    marks: list[Placed] = []
    kept: list[Placed] = []
    for p in glass.cards:
        if id(p.card) not in placed:
            kept.append(p)
            continue
        i = p.card.identity
        blank = Identified(p.card.hypothesis, Identity(None, i.score, i.margin, False, {}))
        marks.append(Placed(blank, p.half, p.row, p.col))
    rejected = [k for k in glass.rejected if id(k) not in placed]
    filled, looked = fill_lattice(
        image,
        lattice,
        Glass(kept + marks, glass.normal, glass.offset, rejected),
        lib,
        max_cols,
        every_card_taught,
        frozenset(id(p.card) for p in marks),
    )
    filled = held_by_the_row_inward(filled)
    if not reflection_pairs(filled.cards):
        return None
    return filled, looked


def held_by_the_row_inward(glass: Glass) -> Glass:
    """The glass less the cards `on_the_row_inward` leaves off (into its rejected cards), and
    coverage again from the cards left: the glass a lattice the finder's places fixed reads
    (`fill_by_places`). Not asked of a lattice the features' own cards fixed (lg21, measured
    on development decks: it left off 5 phantoms of one table and 3 of another, but 36 right
    cards of 6 tables, where a hand hid the row inward in both halves, or no card of the
    lattice's first row was read and every row past it went)."""
    cards = on_the_row_inward(glass.cards)
    if len(cards) == len(glass.cards):
        return glass
    gone = [p.card for p in glass.cards if all(p is not c for c in cards)]
    return Glass(with_coverage(cards), glass.normal, glass.offset, glass.rejected + gone)


def on_the_row_inward(cards: list[Placed]) -> list[Placed]:
    """The glass less every card past the first row that lies on no card of the row inward
    within a column of it (in its half, or either half where `slots.halves_agree`). The
    rulebook deals each row over the lower half of the row before, and a covered card cannot
    be taken, so every card of a real glass past its first row lies on one: a card that lies
    on none was placed in the lattice from off the glass (a score pile's card beside a small
    glass whose lattice the finder's places fixed). Repeated until every card lies on one."""
    while True:
        both = halves_agree(cards)
        held = {(p.half, p.row, p.col) for p in cards}
        kept = [
            p
            for p in cards
            if p.row == 0
            or any(
                (h, p.row - 1, p.col + d) in held
                for h in ((0, 1) if both else (p.half,))
                for d in (-1, 0, 1)
            )
        ]
        if len(kept) == len(cards):
            return kept
        cards = kept
