"""Teaching the companion the user's own deck: one photo per card id -> the card library.

A photo shows one card face up and upright, lying anywhere on a table or as a tight scan.
Two finders look at it: the light-border reader's (its art is a hole in the light border, so
what is stored matches what that reader cuts out at the table; the rectangle is refitted to
the art's four edges, since a photo not taken square shows a trapezoid), and the outline
finder (`companion.vision.cards.photo`: the card's edge against the table, whatever its
colours). A card is where it meets the table: the light-border cut is kept where the outline
agrees with it, and a photo that alone cannot say whether its card is a dark one on a pale
table or the art of a light-bordered one is decided by the deck's other photos.
The border width and the card's aspect are measured here, once, from the photos, not assumed.

A photo that cannot be used does not stop the others: each is taught or refused on its own,
and the user is told which to take again.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
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
from companion.vision.cards.library import card_outline_mm, face_size
from companion.vision.cards.photo import (
    BORDER_STEP,
    EDGE_TABLE,
    agreed_edge,
    border_depths,
    find_card_outline,
    find_card_unlike_table,
    inset_sides,
    surround_likeness,
    table_edges,
    upright,
)
from companion.vision.cards.quads import Quad, side_profiles, sides_meet, sides_outward

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
PAD = 40
SIMILAR = 0.75
"""Upper halves that correlate this well are flagged as hard to tell apart."""
NO_CARD = (
    "no card found (is the whole card in view, face up, with its border, and no glare across it?)"
)
LIKE_THE_TABLE = (
    "the only card-shaped thing found looks like the table round it (a block of a patterned "
    "cloth, or a piece of the art?); take it again with the whole card on a plain surface"
)
TABLE_LIKENESS = 0.9
"""A finder's cut whose inside looks at least this much like the ring round it
(`photo.surround_likeness`) is a piece of the table, not the card, and is not kept: taught, its
face matched nothing of its card at the table, which was then asked or named as another.
Development photos (two new blocks of 10 randomised decks, their 232 accepted photos, 344
finders' cuts; three house decks): a cut within 3 mm of its card measured at most 0.80 (a
cream card on a pale table), a piece of a full-bleed card's art taken for the card 0.69, a
block of a chequered cloth's squares taken for a house card (while the light-border finder had
the card itself) 0.97 and 0.99. Finders' cuts dropped by threshold, within 3 mm / more than 3
mm off, of the randomised decks' (of the house decks' 2 blocks of cloth): 0.5 6 / 14 (2), 0.6
2 / 5 (2), 0.7 1 / 1 (2), 0.8 1 / 0 (2), 0.85-0.95 0 / 0 (2), never 0 / 0 (0)."""
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
    outlined: bool = False
    """`outer` is the card's own outline against the table (`find_outlined_card`), not a
    hole's quad grown by a border: `cut_deck` keeps it where the deck's border does not fit
    this card (`KEEP_OUTLINE`)."""
    alternatives: tuple[FoundCard, ...] = ()
    """Other cuts of this photo it cannot tell from this one alone: the photo's frame was
    taken for the card (a tight scan, `CardInPhoto.inner`) and the card may be the quad
    inside it (laid square and centred on a scanner, with an even margin). `cut_deck` keeps
    whichever has the deck's aspect (`resolve_alternatives`)."""
    as_art: FoundCard | None = None
    """Set when the photo alone cannot say what its card is: the light-border finder's
    reading of it, whose hole (`art_hole`) is this card's outline itself. Either the card is
    that outline (a dark card on a pale table, which the finder takes for the card's border),
    or the hole is the art of a light-bordered card whose border the table hides, and then
    the finder's reading is the card, with the border it measured. `library_from_found`
    decides by the border the deck's other photos show (`resolve_art_holes`)."""
    edge: np.ndarray | None = None
    """The card's own outline against the table where the outline finder saw it and it agrees
    with this light-border cut (`AGREE`): `cut_deck` keeps it where the deck's border drawn
    round this card's art puts the card outside it and misses this cut (`EDGE_MISS`)."""
    border_outward: bool = False
    """`border_frac` is the light-border finder's, measured outward from its hole, though
    `outer` is the card's outline (its light border ran on into a title band, `_band_is_card`):
    not a border measured inward from the outline, so it is not among those the deck's border
    is taken from first (`deck_border`, `EDGED_BORDERS`)."""
    unlike_table: bool = False
    """Found as the region unlike the table (`find_unlike_table`) where both finders declined
    the photo: cut by the deck's border and aspect, but not among the photos they are measured
    from (`deck_voices`), so its deck-mates are cut as if the photo had been refused."""

    def moved(self, shift: np.ndarray) -> FoundCard:
        """The same card in a photo cropped at `shift` (px)."""
        as_art = None if self.as_art is None else self.as_art.moved(shift)
        alt = tuple(a.moved(shift) for a in self.alternatives)
        edge = None if self.edge is None else self.edge - shift
        return FoundCard(
            self.interior - shift,
            self.outer - shift,
            self.border_frac,
            self.outlined,
            alt,
            as_art,
            edge,
            self.border_outward,
            self.unlike_table,
        )

    @property
    def art_hole(self) -> np.ndarray | None:
        """The light-border finder's hole when the photo cannot say what its card is (4×2)."""
        return None if self.as_art is None else self.as_art.interior

    @property
    def aspect(self) -> float:
        """Height over width of the card's outer quad (the mean of opposite sides)."""
        return Quad(self.outer).aspect


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


AGREE = 0.05
"""Two cuts of one card agree when no corner of one lies further from the other's than this
share of the card's width (about 3 mm: a light border's inner edge is refitted to the pixel,
an outline to a px or two)."""


WITHIN_OUTLINE = 0.5
"""A light-border cut inside the outline found is the card if it fills at least this share
of the outline's area; less, it is a hole in the art (a card's art fills 0.75 of it under a
4 mm border)."""
EVEN_BAND = 0.1
"""...unless the outline lies outside it on every side: the band between them is then at least
this share as wide on its narrowest side as on its widest. A piece of the table the outline
took in (a chequered cloth's square along the card's edge) widens one or two sides and
leaves the others on the card's edge (share about 0); a dark border round a thin light frame
line, which the light-border finder takes for the border, is a band round all four (shares
0.78-0.96). Over the 22 development teach photos of this kind (three blocks of development
decks, 720 photos), cuts more than 3 mm off by the lowest share at which the outline is
kept: -1 (always) 3, 0 4, 0.05 5, 0.1 5, 0.15 5, 0.2 6, 0.3 8, 0.4 10, 0.5 13, 0.7 13, 0.8
15, 0.9 17, never 21."""


HOLE_OVERLAP = 0.75
"""A hole with no border round it (the table goes on from its edge) and an outline that
disagree are two readings of one card if they overlap this much (intersection over union);
less, one of them is something else (a patch of the art taken for a hole, a block of the
table for an outline) and the finders' other rules choose. Over a block of 10 development
decks (120 photos), such photos' overlaps: the hole within 3 mm of the card, the outline 7.3
and 11.6 mm off: 0.94, 0.89; both within 3 mm: 0.93; the hole a patch of the art (97 and 60
mm off), the outline within 3 mm: 0.49, 0.04. Any share from 0.5 to 0.89 chooses alike."""


def find_card(image: np.ndarray) -> FoundCard:
    """The one card in a teach photo; TeachError if there is none or more than one.

    Two finders look: the light-border finder (`find_framed_card`: the card's art as a hole
    in its light border, cut the way the light-border reader cuts cards at the table) and the
    outline finder (`find_outlined_card`: the card's edge against the table, whatever its
    border). A card is where it meets the table, so the light-border cut is kept only where
    the outline agrees with it, lies within its border (a frame line printed there), or is
    not found: on a pale table a dark card is a hole in the table, which that finder took for
    the card's border, and a pale patch of art round a dark one was taken for a light
    border. When its hole is the outline itself, or has no border round it and lies where an
    outline that took in a piece of the table does (`HOLE_OVERLAP`), the photo cannot say
    which (`FoundCard.art_hole`)."""
    framed, framed_error = _unless_table(image, *_attempt(find_framed_card, image))
    outlined, outlined_error = _unless_table(image, *_attempt(find_outlined_card, image))
    if outlined is None:
        if framed is None:
            errors = [e for e in (framed_error, outlined_error) if e is not None]
            several = [e for e in errors if e.cards_seen]
            table = [e for e in errors if str(e) == LIKE_THE_TABLE]
            if UNLIKE_TABLE and not several and not table:
                unlike = find_unlike_table(image)
                if unlike is not None:
                    return unlike
            raise (several or table or errors or [TeachError(NO_CARD, cards_seen=0)])[0]
        return framed
    if framed is None:
        return outlined
    # A scan's frame taken for the card leaves the card inside it to the deck, whichever
    # finder's cut is kept.
    framed.alternatives = outlined.alternatives
    width = float(np.linalg.norm(outlined.outer[1] - outlined.outer[0]))
    if _agree(framed.outer, outlined.outer, width):
        framed.edge = outlined.outer
        return framed
    if _agree(framed.interior, outlined.outer, width):
        outlined.as_art = framed
        return outlined
    if math.isnan(framed.border_frac) and _iou(framed.interior, outlined.outer) >= HOLE_OVERLAP:
        # No border round the hole: the table goes on from its edge. The hole is the card
        # (a card darker than the table round it) or the art of a light-bordered card whose
        # border has the table's tone; the photo cannot say which, and an outline over
        # nearly the same place that disagrees with both took in a piece of the table or
        # lost a corner to it. The deck decides (`FoundCard.art_hole`).
        hole = _outlined(image, framed.interior)
        hole.alternatives, hole.as_art = framed.alternatives, framed
        return hole
    if _cut_across(framed.interior, outlined.outer, width):
        # An outline inside the art sharing a side with it: the art cut by a line printed
        # across it (a title band), with no table round it, so not the card's edge.
        return framed
    if _nested(framed.interior, outlined.outer, framed.outer, width):
        # An outline inside the light border, round its art: a frame line printed on the
        # border, or the border's own inner edge where the card's edge did not close.
        return framed
    if (
        _nested(framed.outer, framed.outer, outlined.outer, width)
        and Quad(framed.outer).area >= WITHIN_OUTLINE * Quad(outlined.outer).area
        and (outlined.alternatives or _band_evenness(framed.outer, outlined.outer) < EVEN_BAND)
    ):
        # A light-bordered card nearly filling an outline around it that meets its edge on
        # some side: the outline took in a piece of the table (a chequered cloth's square
        # along the card's edge). A hole in the art, framed by a pale part of it, fills far
        # less of the card's outline; an outline round every side is the card's dark border
        # round a light frame line (`EVEN_BAND`).
        if not outlined.alternatives and _band_is_card(image, framed.outer, outlined.outer):
            # ...unless what the outline took in there is the card's: a light title band the
            # light border ran on into, its cut stopping the title's height inside the edge.
            # The outline is the card; the border is still the light-border finder's.
            return FoundCard(
                framed.interior,
                outlined.outer,
                framed.border_frac,
                outlined=True,
                border_outward=True,
            )
        return framed
    return outlined


UNLIKE_TABLE = True
"""Whether `find_card` takes a card both finders declined as the region unlike the table
(`find_unlike_table`). Without the step gate (`UNLIKE_STEP_GAP`) it was off: on fresh
randomised decks it took 5 refused photos, 3 cut within 1.8 mm and 2 (a cream deck's, on one
table) cut 17.7 and 90.7 mm off, where a refusal naming the photo is better than a bad cut; the
region's fill of its quad did not tell those apart on development. See the guide (lgteach24,
lgteach25)."""
UNLIKE_FILL = 0.9
"""A card neither finder saw is taken as the region of the photo unlike its table
(`photo.find_card_unlike_table`) only where that region fills at least this share of the quad
fitted round it: the card stands out from the table all round."""


UNLIKE_STEP_GAP = 0.015
"""...and only where the step from the table (`photo.table_edges`) lies on every side of its
quad, within this share of the quad's width (`unlike_step_gap`). Curve over three development
blocks of 10 randomised decks (`benchmarks/looking_glass_unlike_gate.py`; one block's photos
re-encoded at JPEG 75), the photos both finders refused "no card found" with a card-shaped
region (11 of 14), regions kept within 3 mm / more than 3 mm of the card: no gate 7 / 4 (55,
14.9, 5.9, 3.01 mm), any gap (its step found on every side) 7 / 1, 0.005 1 / 0, 0.01 3 / 0,
**0.015 5 / 0**, 0.02 5 / 1 (3.01 mm), 0.03 7 / 1; over all 360 photos (whatever the finders
did) 0.01 107 / 2, **0.015 167 / 3**, 0.02 215 / 7, any 243 / 10. The three kept at 0.015 are
white-bordered cards on a table of their tone, the region their art (3.4-9.5 mm inside every
side): the step walks through such a border; none of them was refused."""


def unlike_step_gap(image: np.ndarray, quad: np.ndarray) -> float:
    """How far the step from the table (`photo.table_edges`) lies from the side of `quad`
    (photo px) it lies furthest from, as a share of the quad's width; NaN where a side's step
    is not found. A card's region meets the table at its own edge on every side; a region that
    took in a piece of the table, or is a piece of the card, has a side where it does not."""
    width = float(np.linalg.norm(quad[1] - quad[0]))
    steps = table_edges(image, quad)
    if np.isnan(steps).any():
        return math.nan
    return float(np.abs(steps).max()) / max(width, 1e-6)


def find_unlike_table(image: np.ndarray) -> FoundCard | None:
    """The card of a photo both finders declined, as the one region unlike the table round it
    (`photo.find_card_unlike_table`): its outline against a patterned cloth did not close and
    it has no light border. None unless that region fills its quad (`UNLIKE_FILL`) and is not
    itself like the table round it (`TABLE_LIKENESS`). The card is marked `unlike_table`."""
    quad, fill = find_card_unlike_table(image)
    if quad is None or fill < UNLIKE_FILL:
        return None
    if not unlike_step_gap(image, quad) <= UNLIKE_STEP_GAP:
        return None
    if surround_likeness(image, quad) >= TABLE_LIKENESS:
        return None
    card = _outlined(image, quad)
    card.unlike_table = True
    return card


def _attempt(
    finder: Callable[[np.ndarray], FoundCard], image: np.ndarray
) -> tuple[FoundCard | None, TeachError | None]:
    try:
        return finder(image), None
    except TeachError as exc:
        return None, exc


def _unless_table(
    image: np.ndarray, found: FoundCard | None, error: TeachError | None
) -> tuple[FoundCard | None, TeachError | None]:
    """A finder's result, unless its cut looks like the table round it (`TABLE_LIKENESS`)."""
    if found is not None and surround_likeness(image, found.outer) >= TABLE_LIKENESS:
        return None, TeachError(LIKE_THE_TABLE, cards_seen=0)
    return found, error


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    """The area two convex quads share over the area they cover together."""
    qa, qb = Quad(a), Quad(b)
    shared = qa.shared_area(qb)
    return shared / max(qa.area + qb.area - shared, 1e-6)


def _agree(a: np.ndarray, b: np.ndarray, width: float, share: float = AGREE) -> bool:
    """Whether no corner of one quad lies further than `share` of `width` from the other's."""
    return bool(np.linalg.norm(a - b, axis=1).max() <= share * width)


def _cut_across(art: np.ndarray, outline: np.ndarray, width: float) -> bool:
    """Whether `outline` lies inside `art` with two of its corners on the art's (within
    `AGREE` of the width): a piece of the art cut off along a line across it. A card on a
    patch darker than the table (a mat, taken as a hole in a light border) lies inside the
    patch too, but meets its corners only when pushed into one, and then at one corner."""
    slack = AGREE * width
    if not Quad(art).contains(Quad(outline), slack):
        return False
    shared = sum(bool(np.linalg.norm(art - c, axis=1).min() <= slack) for c in outline)
    return shared >= 2


def _band_widths(inner: np.ndarray, outer: np.ndarray) -> np.ndarray:
    """How far `outer` lies outside `inner` on each side (px; sides by corner order, each the
    mean of its two corners' distances inward from `outer`'s side)."""
    return np.array(
        [
            float(np.mean((a - inner[[i, (i + 1) % 4]]) @ out))
            for i, (a, _, out) in enumerate(sides_outward(outer))
        ]
    )


def _band_evenness(inner: np.ndarray, outer: np.ndarray) -> float:
    """How evenly `outer` lies outside `inner`: the band between them on its narrowest side
    over its widest. A photo not taken square shows a printed border a little wider on its
    near side; a piece of the table taken in widens one side alone."""
    widths = _band_widths(inner, outer)
    return float(widths.min() / max(float(widths.max()), 1e-6))


def _band_is_card(image: np.ndarray, inner: np.ndarray, outer: np.ndarray) -> bool:
    """Whether the band's widest side between a light-border cut `inner` and an outline
    `outer` round it is the card's, not the table's: walking in from the table
    (`photo.table_edges`), the step to something else lies nearer the outline's side than
    the cut's. A light title band across the card's top, or a border of the title's tone,
    continues the light-border finder's border there, and its cut stops a title's height
    inside the card's edge, on one side, as if the outline had taken in a piece of the
    table; a chequered cloth's square the outline took in is the table's, and the walk goes
    through it to the cut (or, wider than the walk reaches, finds no step)."""
    widths = _band_widths(inner, outer)
    side = int(np.argmax(widths))
    step = float(table_edges(image, outer)[side])
    return not math.isnan(step) and abs(step) < 0.5 * float(widths[side])


def _nested(inner: np.ndarray, middle: np.ndarray, outer: np.ndarray, width: float) -> bool:
    """Whether `middle` lies inside `outer` and round `inner` (within `AGREE` of the width)."""
    slack = AGREE * width
    return Quad(outer).contains(Quad(middle), slack) and Quad(middle).contains(Quad(inner), slack)


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
    card = _outlined(image, found.outline)
    if found.inner is not None:
        card.alternatives = (_outlined(image, found.inner),)
    return card


def _outlined(image: np.ndarray, outline: np.ndarray) -> FoundCard:
    """The card whose edge is `outline`, its border measured inward from it."""
    width = float(np.linalg.norm(outline[1] - outline[0]))
    depths = border_depths(image, outline)
    if depths is None:
        return FoundCard(outline.copy(), outline, 0.0, outlined=True)
    # A light border's inner edge is refitted to the art's edges, to the pixel (the step
    # samples the border only every half pixel); any other border keeps the measured inset.
    interior = _refine_interior(image, inset_sides(outline, depths))
    return FoundCard(interior, outline, float(depths.mean()) / width, outlined=True)


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
    H = cv2.getPerspectiveTransform(
        card_outline_mm(shape.height_mm), found.outer.astype(np.float32)
    )
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


KEEP_OUTLINE = 0.04
"""A card's outline seen against the table is kept where the outer the deck's one border draws
round its art lies further than this share of the card's width from it (and the outline's
aspect is as near the deck's): that border does not fit this card (its art's edge was
measured off, or the deck's border is another photo's misreading). Nearer, the deck's border
is kept, so every card of a deck is cut alike (an outline 0.5 mm inside a black border lost
a card's find at the table). Over the 231 accepted development teach photos of a development
block of `benchmarks/looking_glass_teach.py`, cuts more than 3 mm (more than 1.5 mm) off: 0
(kept wherever they differ) 27 (50), 0.02 27 (51), 0.03 26 (56), 0.04 25 (58), 0.05 27 (60),
0.06 30 (63), never kept 54 (83)."""


EDGED_BORDERS = 3
"""The deck's border is the median of the borders measured inward from the card's own outline
against the table (`_outlined`, a uniform band inside it) when at least this many photos
measured one; fewer, the median of every photo's. The light-border finder measures outward
from its hole, and on a dark or coloured border round a light frame line that hole is the
frame line's inside and the border it measures the frame line's width, so a deck's median
over all photos fell between the two and cut every card millimetres inside or outside its
edge. Over two blocks of 10 development decks (233 accepted photos), cuts more than 3 mm (more
than 1.5 mm) off by the least number of such photos: 1 31 (69), 2 31 (69), 3 31 (67), 4 31
(67), 5 31 (67), 6 31 (68), 8 38 (69), never (every photo's median) 38 (70)."""


EDGE_MISS = 0.06
"""A light-border cut that its card's outline agreed with (`FoundCard.edge`) keeps that outline
where the deck's border drawn round its art puts the card outside it and further than this
share of the card's width from the photo's own cut: the deck's border does not fit this card
(in a light sleeve the finder's hole is the card and its border the sleeve's rim, and the
deck's border drawn round the hole put the card out on the table). Nearer, the deck's border
is kept, so that a house deck is cut as before (lgteach12's rule without this, a corner of the
outline further than `KEEP_OUTLINE` from the deck's cut, recut a house card 2-5 px inside its
edge). Over the agreed cuts of the development decks at 8fb0bca (25 house decks, 278 cuts;
14 randomised, 24 cuts; the decks are named in the guide) the deck's cut lay from the
photo's own at most 0.031 of the width in the house decks, at most 0.020 in the randomised
ones, except two cards of one sleeved dark deck: 0.18 and 0.19, cut 12.7 and 12.6 mm
off, their outlines 0.8 and 0.6 mm. Cuts recut by threshold (house / randomised): 0.02 0 / 2,
0.03-0.17 0 / 2 (the two), 0.2 0 / 0; 0.06 keeps twice the house decks' largest."""


def cut_deck(
    images: dict[str, np.ndarray], found: dict[str, FoundCard], shape: CardShape | None = None
) -> tuple[dict[str, FoundCard], float, bool]:
    """Every card cut as the library keeps it: (the cards, the border's share of the card's
    width, whether any photo showed the border). A photo with several possible cuts is cut
    at the one of the deck's aspect (`resolve_alternatives`). One border for all cards: each
    outer quad is re-derived from its art by the deck's border (`EDGED_BORDERS`; `shape`'s, when
    given: cards added to a library taught earlier are cut as its cards were), except a
    card's outline seen against the table that the derived quad misses (`KEEP_OUTLINE`).
    The deck's border and aspect are measured from its photos' cards but for those found as
    the region unlike the table (`deck_voices`)."""
    found = resolve_alternatives(
        found,
        None if shape is None else shape.height_mm / CARD_W_MM,
        None if shape is None else shape.border_mm / CARD_W_MM,
    )
    if shape is None:
        found = resolve_art_holes(images, found)
    else:
        found = {cid: _as_found(f) for cid, f in found.items()}
    voices = deck_voices(found)
    fracs = [f.border_frac for f in voices.values() if not math.isnan(f.border_frac)]
    measured = None if shape is not None else deck_border(voices.values())
    if shape is not None:
        frac = shape.border_mm / CARD_W_MM
    else:
        frac = 4.0 / CARD_W_MM if measured is None else measured
    aspect = float(np.median([f.aspect for f in voices.values()])) if voices else math.nan
    cuts = _cut_all(found, frac, aspect, shape is None)
    if shape is not None:
        for cid, f in found.items():
            f.outer = cuts[cid]
        return found, frac, bool(fracs)
    steps = {cid: table_edges(images[cid], cut) for cid, cut in cuts.items()}
    border = border_to_table(voices, cuts, steps)
    if border is not None:
        frac = border
        cuts = _cut_all(found, frac, aspect, True)
        steps = {cid: table_edges(images[cid], cut) for cid, cut in cuts.items()}
    for cid, f in found.items():
        witnessed = onto_witness(f, cuts[cid], steps[cid])
        if witnessed is not cuts[cid]:
            cuts[cid], steps[cid] = witnessed, table_edges(images[cid], witnessed)
        beyond = past_frame_line(images[cid], cuts[cid])
        if beyond is not cuts[cid]:
            cuts[cid], steps[cid] = beyond, table_edges(images[cid], beyond)
        f.outer = out_to_edge(images[cid], cuts[cid], steps[cid])
    if PAST_ART and fracs and frac >= PAST_ART_LEAST_BORDER:
        colour = deck_border_colour(images, {cid: f.outer for cid, f in found.items()}, frac)
        # The deck's aspect as the library will keep it (its cards as now cut).
        taught = float(np.median([Quad(f.outer).aspect for f in deck_voices(found).values()]))
        for cid, f in found.items():
            f.outer = out_past_art(images[cid], f.outer, frac, colour, taught)
    return found, frac, bool(fracs)


def _cut_all(
    found: dict[str, FoundCard], frac: float, aspect: float, measured: bool
) -> dict[str, np.ndarray]:
    """Each card's outer quad with the deck's border `frac` drawn round its art, or its own
    outline where that border does not fit it (`KEEP_OUTLINE`, `EDGE_MISS`; only for a
    library `measured` anew). The found cards are left as they are."""
    cuts = {}
    for cid, f in found.items():
        i = f.interior
        iw = float(np.linalg.norm(i[1] - i[0]))
        derived = inset(i, -frac * iw / (1 - 2 * frac))
        width = float(np.linalg.norm(f.outer[1] - f.outer[0]))
        if (
            f.outlined
            and measured
            and not _agree(derived, f.outer, width, KEEP_OUTLINE)
            and abs(f.aspect - aspect) <= abs(Quad(derived).aspect - aspect)
        ):
            cuts[cid] = f.outer
        elif (
            f.edge is not None
            and measured
            and Quad(derived).contains(Quad(f.edge), 0.0)
            and not _agree(derived, f.outer, width, EDGE_MISS)
            and abs(Quad(f.edge).aspect - aspect) <= abs(Quad(derived).aspect - aspect)
        ):
            cuts[cid] = f.edge
        else:
            cuts[cid] = derived
    return cuts


INSIDE_BY = 0.005
"""A card's cut lies inside its edge when the step from the table (`photo.table_edges`) lies
further out than this share of the cut's width on all four sides (`border_to_table`). Curve
over the 232 accepted photos of two development blocks of 10 randomised decks (named in the
guide; 28 cut more than 3 mm off, 80 more than 1.5 mm), with `INSIDE_MOST` 0.5: cut more than
3 mm / more than 1.5 mm / made worse by more than 0.05 mm / better by more than 0.3 mm: never
28 / 80 / 0 / 0; 0.02 28 / 80 / 0 / 0; 0.01 28 / 69 / 0 / 11 (one deck, 1.9-2.8 -> 0.2-1.0 mm);
0.005 28 / 58 / 0 / 22 (and a second, 1.6-2.6 -> 0.4-1.0 mm)."""
INSIDE_MOST = 0.5
"""The deck's border is measured again from the step to the table when more than this share of
its cards are cut inside their edge on all four sides (`border_to_table`). Same curve as
`INSIDE_BY` (at 0.01): 0.3 27 / 56 / 6 / 26 (six cards of decks where a few cards lay inside
recut 0.1-0.8 mm further off); 0.5 28 / 69 / 0 / 11; 0.7 28 / 80 / 0 / 0."""


def border_to_table(
    found: dict[str, FoundCard], cuts: dict[str, np.ndarray], steps: dict[str, np.ndarray]
) -> float | None:
    """The deck's border (share of the card's width) measured from each card's art to the step
    from the table (`photo.table_edges`) when more than `INSIDE_MOST` of the deck's cards are
    cut inside their edge on all four sides by `INSIDE_BY`: the median over those cards. None
    where fewer are: the deck's border stands.

    On a dark or coloured border round a light frame line both finders stop at the line, and
    the deck's one border, drawn round every card's art, puts every card a frame line's width
    inside its edge; the step to the table, with the table beyond it, is the card's edge. Moving
    each card's sides out one by one (`out_to_edge`) mends only the sides further in than
    `OUT_TO_EDGE`, and cuts the deck's cards unalike; the deck's border measured again keeps
    them cut alike."""
    borders = []
    for cid, f in found.items():
        cut = cuts[cid]
        width = float(np.linalg.norm(cut[1] - cut[0]))
        offsets = steps[cid]
        if not np.all(offsets > INSIDE_BY * width):
            continue
        art = f.interior
        iw = float(np.linalg.norm(art[1] - art[0]))
        # Each side's border: from the art's side out to the cut's, and on to the step.
        px = np.mean(
            [
                float(np.mean((a - art[[s, (s + 1) % 4]]) @ n)) + offsets[s]
                for s, (a, _, n) in enumerate(sides_outward(cut))
            ]
        )
        borders.append(float(px) / (iw + 2 * float(px)))
    if len(borders) <= INSIDE_MOST * len(found):
        return None
    return float(np.median(borders))


WITNESS_AT = 0.01
"""A card's cut that lies inside its edge on all four sides (`INSIDE_BY`) is moved out to the
photo's own outline of it where the step from the table (`photo.table_edges`) lies on that
outline, within this share of the cut's width, on every side (`onto_witness`). Curve over the
356 accepted photos of three development blocks of 10 randomised decks (named in the guide; 40
cut more than 3 mm off, 80 more than 1.5 mm), cut more than 3 mm / more than 1.5 mm / made
worse by more than 0.05 mm / better by more than 0.3 mm: 0.0025 40 / 80 / 0 / 0 (fires on
none), 0.005-0.02 37 / 74 / 0 / 6, 0.03 37 / 74 / 0 / 6 (fires on one more, changed by less
than 0.3 mm). The outlines kept lay 0.4-0.8 mm off the card, the cuts they replaced 2.0-3.6 mm
off it (inside on every side)."""
WITNESS_SIDES = 3
"""...on at least this many sides where the step was measured (`photo.table_edges` says NaN
where its profiles disagree: a patterned cloth's side), and on none off the outline. At 4 (the
same curve, `WITNESS_AT` 0.01): 38 / 75 / 0 / 5 (a card on a chequered cloth, one side's step
not measured, stays 3.1 mm inside)."""


def onto_witness(f: FoundCard, cut: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The photo's own outline of the card (`f.outer` when it is one, else the outline its
    light-border cut agreed with, `FoundCard.edge`) in place of `cut` where `cut` lies inside
    the card's edge on all four sides and the outline lies on that edge: the step from the
    table (`offsets`, `photo.table_edges` of `cut`) lies further out than `INSIDE_BY` of the
    width, and on the outline within `WITNESS_AT`, on every side where it was measured (at
    least `WITNESS_SIDES`), and the outline lies outside `cut` on all four; `cut` otherwise.

    The deck's one border drawn round a card's art misses this card's edge where the art was
    refitted to the inside of a light frame line on a dark border while the border was
    measured to its outside (the card a frame line's width and more inside on every side,
    1.3-3.6 mm, too little for `out_to_edge` to move one side alone); where only some of the
    deck's cards are (`border_to_table` asks for most), the outline and the table step are two
    witnesses of where the edge is. Never inward: a white card on a white table, outlined at
    its art, has its deck's cut outside that outline, not inside."""
    witness = f.outer if f.outlined else f.edge
    if witness is None or witness is cut:
        return cut
    width = float(np.linalg.norm(cut[1] - cut[0]))
    band = _band_widths(cut, witness)
    seen = ~np.isnan(offsets)
    if not (
        np.count_nonzero(seen) >= WITNESS_SIDES
        and np.all(band > INSIDE_BY * width)
        and np.all(offsets[seen] > INSIDE_BY * width)
        and np.all(np.abs(band[seen] - offsets[seen]) <= WITNESS_AT * width)
    ):
        return cut
    return witness.copy()


LINE_L = 60.0
"""A frame line is at least this much lighter (L*, 0-255) than the darkest of the border just
outside it (`frame_line_edges`): a black or dark border round a near-white or pale yellow line
(the randomised decks' light frame lines are drawn at a value of 0.78 or more). Not tuned."""
LINE_THIN = 0.025
"""...and thin: its light run, inward from its lightest sample, no wider than this share of the
cut's width (1.6 mm; frame lines are printed 0.3-1.0 mm wide, light borders 2-6 mm)."""
BORDER_CONTRAST = 8.0
"""The least Lab distance between the dark border beyond a frame line and the table beyond it
at which their step is looked for (`frame_line_edges`; `photo.TABLE_STEP`, 14, is the step
`table_edges` asks for, and a black border on a dark table lies nearer the table than that, so
the walk in from the table goes through the border to the frame line). Curve in the guide's
lgteach23 entry (development blocks named there)."""
BORDER_AGREE = 0.01
"""The dark band between the frame line and the step has one width on every side, within this
share of the cut's width: a printed border is even, a table's pattern or a shadow is not."""
PAST_MOST = 0.1
"""The step is at most this share of the cut's width beyond it (6.3 mm: the widest border drawn)."""


def frame_line_edges(image: np.ndarray, cut: np.ndarray) -> np.ndarray:
    """Where each side of `cut` (photo px, corners in order round it) would lie on the outer
    step of a dark border round a thin light frame line at or inside the cut: each side's
    signed offset in px (positive outward, sides as `quads.sides_outward`); all NaN unless the
    step was found on every side, in agreement along each side (`photo.EDGE_AGREE`), with the
    dark band between line and step of one width all round (`BORDER_AGREE`).

    Along each profile: the outermost light sample within reach inside the cut (`LINE_L` above
    the darkest within 0.03 of the width outward of it, its light run `LINE_THIN`), the border's
    colour at that darkest sample, the table's the median of the band `photo.EDGE_TABLE` outside
    the cut, and the step the first sample further from the border's colour than half the
    border's distance from the table's (at least `BORDER_CONTRAST`)."""
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (0, 0), 1.0), cv2.COLOR_BGR2LAB).astype(np.float32)
    width = float(np.linalg.norm(cut[1] - cut[0]))
    step = 0.5
    steps = np.arange(-0.06 * width, EDGE_TABLE[1] * width, step)
    far = steps >= EDGE_TABLE[0] * width
    end = int(np.argmax(far))
    reach_in = int(np.searchsorted(steps, 0.01 * width))
    look = max(2, round(0.03 * width / step))
    fractions = np.linspace(0.2, 0.8, 13)
    out = np.full(4, np.nan)
    bands = np.full(4, np.nan)
    for s, (a, e, n) in enumerate(sides_outward(cut)):
        prof = side_profiles(lab, a, e, n, fractions, steps)[1]
        table = np.median(prof[:, far].reshape(-1, 3), axis=0)
        found, widths = [], []
        for row in prof:
            seen = _past_line(row, table, reach_in, look, end, step, width)
            if seen is not None:
                found.append(steps[seen[1]])
                widths.append(steps[seen[1]] - steps[seen[0]])
        out[s] = agreed_edge(found, len(prof), width)
        if not math.isnan(out[s]):
            bands[s] = float(np.median(widths))
    if np.any(np.isnan(out)) or float(np.ptp(bands)) > BORDER_AGREE * width:
        return np.full(4, np.nan)
    return out


def _past_line(
    row: np.ndarray,
    table: np.ndarray,
    reach_in: int,
    look: int,
    end: int,
    step: float,
    width: float,
) -> tuple[int, int] | None:
    """(the frame line's lightest sample, the border's step to the table) along one profile
    (`frame_line_edges`), or None."""
    lum = row[:, 0]
    line = next(
        (k for k in range(reach_in, -1, -1) if lum[k] - float(lum[k : k + look].min()) >= LINE_L),
        None,
    )
    if line is None:
        return None
    dark = line + int(np.argmin(lum[line : line + look]))
    while line > 0 and lum[line - 1] >= lum[line]:
        line -= 1
    lit = line
    while lit > 0 and lum[lit - 1] >= lum[line] - 0.5 * LINE_L:
        lit -= 1
    if (line - lit) * step > LINE_THIN * width:
        return None
    border = np.median(row[max(line, dark - 2) : dark + 3], axis=0)
    contrast = float(np.linalg.norm(border - table))
    if contrast < BORDER_CONTRAST or lum[line] - border[0] < LINE_L:
        return None
    d = np.linalg.norm(row - border, axis=1)
    k = dark
    while k < end and not np.all(d[k : k + 4] > 0.5 * contrast):
        k += 1
    return None if k >= end else (line, k)


def past_frame_line(image: np.ndarray, cut: np.ndarray) -> np.ndarray:
    """`cut` (4×2, photo px) with every side moved out to the outer step of the dark border
    beyond a thin light frame line (`frame_line_edges`) where that step lies outside it on
    every side, by more than `INSIDE_BY` and at most `PAST_MOST` of its width; `cut` itself
    otherwise.

    On a black or dark border round a light frame line both finders may stop at the line
    (the light-border finder takes it for a light border, the outline finder for the card's
    edge where the border is as dark as the table), and the deck's border drawn round its art
    leaves the card inside its edge on every side, 1.3-3.6 mm: too little for `out_to_edge`, and
    the step from the table (`photo.table_edges`) goes through a border that dark to the
    line. The line, light with the dark border outside it, and the border's own step to the
    table, of one width on every side, say where the edge is. Never inward."""
    width = float(np.linalg.norm(cut[1] - cut[0]))
    offsets = frame_line_edges(image, cut)
    if np.any(np.isnan(offsets)) or not (
        np.all(offsets > INSIDE_BY * width) and np.all(offsets <= PAST_MOST * width)
    ):
        return cut
    lines = [
        (a + d * n, e / max(1e-6, float(np.linalg.norm(e))))
        for (a, e, n), d in zip(sides_outward(cut), offsets, strict=True)
    ]
    moved = sides_meet(lines)
    return cut if moved is None else moved


OUT_TO_EDGE = 0.04
"""A side of a card's cut is moved outward to the outermost step from the table
(`photo.table_edges`) where that step lies further out than this share of the cut's width: the
cut stopped at a frame line, an art edge or the deck's border drawn too narrow round this card's
art, and the card's true edge, with the table beyond it, lies further out. Never inward (a light
border on a table of its tone is walked through to the art; on 9 decks of the development blocks
below, a first version that also moved inward, with no agreement asked of the profiles, cut 6
cards that lay within 3 mm 4.3-10.5 mm off: a black card on a dark table walked through its
border to its frame line). Below 0.04 a card cut at its edge in a matte or coloured sleeve is
moved out to the sleeve's rim, 1-1.5 mm further. Curve over the 227 accepted photos of two
development blocks of 10 randomised decks (named in the guide; 30 cut more than 3 mm at main),
cut more than 3 mm off / cuts made worse by more than 0.05 mm / made better by more than 0.3 mm,
at `photo.TABLE_STEP` 14: 0.02 21 / 16 / 25, 0.03 23 / 6 / 15, 0.035 24 / 1 / 13, 0.04 25 / 0 /
9, 0.05 27 / 2 / 4, 0.07 27 / 0 / 3, never 30 / 0 / 0 (at `TABLE_STEP` 10: 0.03 22 / 8 / 16,
0.04 25 / 1 / 8; 20: 0.04 25 / 0 / 9; 7: 0.04 25 / 1 / 8). 0.04 is the least at which no cut is
made worse."""


def out_to_edge(
    image: np.ndarray, cut: np.ndarray, offsets: np.ndarray | None = None
) -> np.ndarray:
    """`cut` (4×2, photo px) with each side that lies inside the card's true edge by more than
    `OUT_TO_EDGE` of its width moved out to that edge; `cut` itself where none does. `offsets`:
    `photo.table_edges` of `cut`, when the caller has it already."""
    width = float(np.linalg.norm(cut[1] - cut[0]))
    if offsets is None:
        offsets = table_edges(image, cut)
    move = np.where(offsets > OUT_TO_EDGE * width, offsets, 0.0)
    if not move.any():
        return cut
    lines = [
        (a + d * n, e / max(1e-6, float(np.linalg.norm(e))))
        for (a, e, n), d in zip(sides_outward(cut), move, strict=True)
    ]
    moved = sides_meet(lines)
    return cut if moved is None else moved


PAST_ART = False
"""Whether `cut_deck` moves a cut that stopped at its card's art out past the deck's border
(`out_past_art`). Off: on fresh randomised decks it mended no cut and moved a cut already
more than 3 mm off further (3.62 -> 6.29 mm, a black deck), and a first version without the
aspect test moved a good cut out across 3 mm (0.83 -> 3.63 mm); see the guide (lgteach27)."""
PAST_ART_LEAST_BORDER = 0.01
"""...in a deck whose photos measured a border at least this share of the card's width."""
BORDER_RUN_STEP = 20.0
"""A sample is the deck's border's colour within this Lab distance of it (`border_runs`)."""
PAST_ART_LEAST = 0.02
"""A cut is moved out past its art only where every side moves out by more than this share of
its width, at most `PAST_ART_MOST`, and the four moves agree within `PAST_ART_EVEN`. Curve over
the 230 accepted photos of the development block lgteach27 names in the guide (20
randomised decks; 16 cut more than 3 mm off, 8 of them inside the card on every side, 44
more than 1.5 mm), with
`BORDER_RUN_STEP` 20, `PAST_ART_MOST` 0.2, `PAST_ART_EVEN` 0.02, fired / mended by more than
0.3 mm / made worse by more than 0.05 mm / cut more than 3 mm / more than 1.5 mm: 0.005 38 / 9
/ 21 (at most 0.94 mm) / 9 / 36; 0.01 11 / 7 / 3 / 9 / 37; **0.015-0.04 7 / 7 / 0 / 9 / 37**
(the 7 mended: 3.5-11.6 mm -> 0.6-1.3 mm, black and dark borders on a table of their tone).
Without the aspect test (`out_past_art`) fresh randomised decks had one good cut of a black deck
moved out 0.83 -> 3.63 mm (guide, lgteach27); with it the development curve at 0.02 is 6 / 6 /
0 / 10 / 38 (the 3.78 mm cut whose moved quad's aspect lay further from the deck's is left).
`PAST_ART_MOST` 0.1: 5 / 5 / 0 / 11 (the two cut 8 mm inside their black border not moved);
0.15-0.3 alike. `PAST_ART_EVEN` 0.005-0.03 alike. `BORDER_RUN_STEP`, in an earlier form that
drew the border from the cut's own width (not the art's; the 8 mm ones left 2.4-2.8 mm off), at
0.015-0.03: 15 8 / 8 / 0 / 8, 20 7 / 7 / 0 / 9, 28 7 / 7 / 0 / 10; 15 at 0.01 made 2 worse (at
most 0.83 mm)."""
PAST_ART_MOST = 0.2
PAST_ART_EVEN = 0.02


def deck_border_colour(
    images: dict[str, np.ndarray], cuts: dict[str, np.ndarray], frac: float
) -> np.ndarray:
    """The deck's border's colour (Lab): the median over its cards of the band the deck's
    border `frac` (share of the card's width) wide inside each cut."""
    bands = []
    for cid, cut in cuts.items():
        w = float(np.linalg.norm(cut[1] - cut[0]))
        bands.append(_band_lab(images[cid], inset(cut, frac * w), cut))
    return np.median(bands, axis=0)


def border_runs(image: np.ndarray, cut: np.ndarray, frac: float, colour: np.ndarray) -> np.ndarray:
    """Where, walking outward from inside `cut` (4×2, photo px), the deck's border begins on
    each side: the first sample from which a run most of the border's width long
    (`frac` of the cut's width) lies within `BORDER_RUN_STEP` of its colour `colour` (Lab); each
    side's signed offset in px (positive outward), NaN where its profiles do not agree
    (`photo.EDGE_AGREE`). Where the border has the table's tone the run goes on past the card's
    edge, but begins where the border does."""
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (0, 0), 1.0), cv2.COLOR_BGR2LAB).astype(np.float32)
    width = float(np.linalg.norm(cut[1] - cut[0]))
    bpx, step = frac * width, 0.5
    steps = np.arange(-(bpx + 0.03 * width), 0.1 * width + bpx, step)
    run = max(3, int(0.8 * bpx / step))
    fractions = np.linspace(0.2, 0.8, 13)
    out = np.full(4, np.nan)
    for s, (a, e, n) in enumerate(sides_outward(cut)):
        prof = side_profiles(lab, a, e, n, fractions, steps)[1]
        near = np.linalg.norm(prof - colour, axis=2) < BORDER_RUN_STEP
        found = []
        for row in near:
            runs = np.convolve(row.astype(np.int32), np.ones(run, np.int32), "valid")
            hits = np.flatnonzero(runs == run)
            if len(hits):
                found.append(float(steps[hits[0]]))
        out[s] = agreed_edge(found, len(prof), width)
    return out


def out_past_art(
    image: np.ndarray, cut: np.ndarray, frac: float, colour: np.ndarray, aspect: float
) -> np.ndarray:
    """`cut` (4×2, photo px) with every side moved out to where the deck's border (`frac`,
    colour `colour`, `deck_border_colour`) drawn outward from its beginning (`border_runs`)
    ends, where that lies further out than `PAST_ART_LEAST` of the cut's width on every side,
    at most `PAST_ART_MOST`, alike on all four within `PAST_ART_EVEN`, and the quad moved out
    has an aspect nearer the deck's `aspect` than `cut` has (a card's art has its own aspect,
    the card with its border round it the deck's; a cut on the card's edge moved out on the
    table by a border's width moves away from it); `cut` itself otherwise.

    A dark or black border on a table of its tone shows no step to the table: both finders
    stop at the art's edge or a frame line, the step from the table (`photo.table_edges`)
    walks through the border to the same place, and the card is cut a border's width inside
    its edge on every side (the guide's lgteach27 entry: the largest class of cuts more than 3
    mm off on development). The deck's other photos say what colour its border is and how
    wide: where a run of that colour begins just outside the cut on every side, the cut is the
    art, and the card is the art with the deck's border round it. Never inward."""
    width = float(np.linalg.norm(cut[1] - cut[0]))
    starts = border_runs(image, cut, frac, colour)
    if np.any(np.isnan(starts)):
        return cut
    art_w = width + 2 * float(np.mean(starts))
    moves = starts + frac * art_w / (1 - 2 * frac)
    if not (
        np.all(moves > PAST_ART_LEAST * width)
        and np.all(moves <= PAST_ART_MOST * width)
        and float(np.ptp(moves)) <= PAST_ART_EVEN * width
    ):
        return cut
    lines = [
        (a + d * n, e / max(1e-6, float(np.linalg.norm(e))))
        for (a, e, n), d in zip(sides_outward(cut), moves, strict=True)
    ]
    moved = sides_meet(lines)
    if moved is None or not abs(Quad(moved).aspect - aspect) < abs(Quad(cut).aspect - aspect):
        return cut
    return moved


def library_from_found(
    images: dict[str, np.ndarray], found: dict[str, FoundCard], shape: CardShape | None = None
) -> tuple[Library, list[str]]:
    """A library from photos whose cards `find_card` already found; returns it and warnings
    about the measured shape (look-alike cards: `look_alike_warnings`).

    The card's shape is measured across all the photos, unless `shape` is given (cards added
    to a library taught earlier are cut the way its cards were, so all its patches agree)."""
    measured = shape is None
    found, frac, border_seen = cut_deck(images, found, shape)
    ids = sorted(images)
    if shape is None:
        aspects = [
            float(np.linalg.norm(f.outer[3] - f.outer[0]) / np.linalg.norm(f.outer[1] - f.outer[0]))
            for f in deck_voices(found).values()
        ]
        shape = CardShape(
            height_mm=round(float(np.median(aspects)) * CARD_W_MM, 1),
            border_mm=round(frac * CARD_W_MM, 2),
        )
    warnings = []
    if measured and not border_seen:
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


def deck_voices(found: dict[str, FoundCard]) -> dict[str, FoundCard]:
    """The cards the deck's border and aspect are measured from: all but those found as the
    region unlike the table (`FoundCard.unlike_table`), unless no other card was found. Such a
    card's own border, measured inward from its region's quad, moved its deck-mates' cuts when
    it counted (lgteach25, fresh randomised decks: 10 cut further off, one 3.76 -> 5.17 mm)."""
    voices = {cid: f for cid, f in found.items() if not f.unlike_table}
    return voices or dict(found)


def deck_border(cards: Iterable[FoundCard]) -> float | None:
    """The deck's one border (share of the card's width) from its photos' cuts: the median of
    those measured inward from the cards' own outlines when at least `EDGED_BORDERS` photos
    measured one, else the median of every measured one; None if no photo measured one."""
    cards = list(cards)
    fracs = [f.border_frac for f in cards if not math.isnan(f.border_frac)]
    edged = [
        f.border_frac for f in cards if f.outlined and not f.border_outward and f.border_frac > 0
    ]
    if len(edged) >= EDGED_BORDERS:
        return float(np.median(edged))
    return float(np.median(fracs)) if fracs else None


BORDER_DECIDES = 0.02
"""A photo's cut whose border measured inward from it lies nearer the deck's border by at least
this share of the card's width than its other cut's (`resolve_alternatives`) is the card; a
smaller difference leaves the choice to the aspect. The development photos that alone could
not say (at 8fb0bca: 81 tight scans of 25 house decks; 8 scans laid square on the lid of 14
randomised decks; the decks are named in the guide): deciding by the aspect alone cut 5 of the
88 that had a good cut wrong (4 of one house deck and one of another, all taught as
the art magnified); by the border, with this margin at 0-0.045 0 wrong, 0.05 1, 0.06 3, 0.08
5. 0.02 lies in the middle of the plateau."""


def resolve_alternatives(
    found: dict[str, FoundCard], aspect: float | None = None, border: float | None = None
) -> dict[str, FoundCard]:
    """Every photo that alone cannot say which of its cuts is the card
    (`FoundCard.alternatives`) cut at the one whose own border is the deck's: `border` when
    given (a library taught earlier), else `deck_border` of the photos that could say. A
    tight scan's frame has the card's printed border inside it and its art none; a card laid
    on a scanner has its border inside its edge, and the frame round it the lid's margin.
    Where the borders do not tell them apart by `BORDER_DECIDES` (a deck with no border, a
    margin as wide as the border), the cut whose aspect is nearest the deck's: `aspect` when
    given, else the median of the deck's photos that could say (one house development deck's
    other photos measured 1.435 where the face is 1.397, nearer its art's 1.455
    than its scans' frames' 1.389, and 4 of its 12 faces were taught as the art magnified).
    With no other photo to ask, the first cut is kept."""
    sure = [f for f in deck_voices(found).values() if not f.alternatives]
    if aspect is None and sure:
        aspect = float(np.median([f.aspect for f in sure]))
    if border is None:
        # (A photo the deck has yet to decide, `FoundCard.art_hole`, measured the border of
        # one of its two readings.)
        border = deck_border(f for f in sure if f.art_hole is None)
    out = {}
    for cid, f in found.items():
        first = replace(f, alternatives=())
        cuts = [first, *f.alternatives]
        by_border = _by_border(cuts, border)
        if by_border is not None:
            out[cid] = by_border
        elif aspect is None:
            out[cid] = first
        else:
            target = aspect
            out[cid] = min(cuts, key=lambda c: abs(c.aspect - target))
    return out


def _by_border(cuts: list[FoundCard], border: float | None) -> FoundCard | None:
    """The one of a photo's cuts whose own border is nearer `border` by `BORDER_DECIDES` than
    every other's; None if there is none, or a cut's border could not be measured."""
    if border is None or len(cuts) < 2 or any(math.isnan(c.border_frac) for c in cuts):
        return None
    off = [abs(c.border_frac - border) for c in cuts]
    order = sorted(range(len(cuts)), key=lambda k: off[k])
    if off[order[1]] - off[order[0]] < BORDER_DECIDES:
        return None
    return cuts[order[0]]


def resolve_art_holes(
    images: dict[str, np.ndarray], found: dict[str, FoundCard]
) -> dict[str, FoundCard]:
    """Every card cut once (`FoundCard.art_hole` decided): a photo whose hole is its outline
    is cut as the art inside the deck's light border if the ring just outside the hole has
    the colour of the border the deck's other photos show (within `BORDER_STEP`, the step at
    which a border ends), else as the card its outline is. A deck with no other photo keeps
    the hole as art (a light-bordered deck all taught on a table of its border's tone); one
    whose other photos show no border keeps the outline."""
    out = {cid: f for cid, f in found.items() if f.art_hole is None}
    # The deck's other photos but those found as the region unlike the table (`deck_voices`).
    sure = {cid: f for cid, f in deck_voices(found).items() if f.art_hole is None}
    bordered = [
        (images[cid], f)
        for cid, f in sure.items()
        if not math.isnan(f.border_frac) and f.border_frac > 0.01
    ]
    if not bordered:
        for cid, f in found.items():
            if f.art_hole is not None:
                out[cid] = _hole_as_art(f) if not sure else _as_found(f)
        return out
    border = np.median([_band_lab(img, f.interior, f.outer) for img, f in bordered], axis=0)
    frac = float(np.median([f.border_frac for _, f in bordered]))
    for cid, f in found.items():
        if f.art_hole is None:
            continue
        hole = f.art_hole
        hw = float(np.linalg.norm(hole[1] - hole[0]))
        ring = _band_lab(images[cid], hole, inset(hole, -0.5 * frac * hw / (1 - 2 * frac)))
        near = float(np.linalg.norm(ring - border)) < BORDER_STEP
        out[cid] = _hole_as_art(f) if near else _as_found(f)
    return out


def _as_found(f: FoundCard) -> FoundCard:
    return FoundCard(
        f.interior,
        f.outer,
        f.border_frac,
        f.outlined,
        edge=f.edge,
        border_outward=f.border_outward,
        unlike_table=f.unlike_table,
    )


def _hole_as_art(f: FoundCard) -> FoundCard:
    """The light-border finder's reading of a photo: its hole is the art, with the border it
    measured (NaN where the table round the card continued its tone). It counts in the deck's
    median border as it does where no outline is seen, so a deck is cut the same whichever
    finders saw a photo (dropped, one photo's art outline moved a light-bordered deck's
    border by 0.03 mm, enough for the reader to lose a card at the table)."""
    assert f.as_art is not None
    return _as_found(f.as_art)


def _band_lab(image: np.ndarray, inner: np.ndarray, outer: np.ndarray) -> np.ndarray:
    """The median Lab colour of the band between two nested quads of a photo."""
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(outer).astype(np.int32), 255)
    cv2.fillConvexPoly(mask, np.round(inner).astype(np.int32), 0)
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    band = lab[mask > 0]
    return np.median(band, axis=0) if len(band) else np.full(3, np.nan)


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
