"""Reading the Looking Glass from one photograph: which card lies where, and which are covered.

How (all geometry on a copy downscaled to <= `PROC_WIDTH` px wide, patches from the full
image):

1. Light frame. A card's light border is the brightest, least saturated thing near it, so
   pixels close to the local white level form a mask of borders; the art of each card is a
   hole in it. A covered card's hole is its upper half (the next row's border closes it), an
   uncovered card's hole is its whole interior. Holes are fitted with rectangles.
2. Card axis and size. All cards of the glass lie along one axis; the side that has the same
   length in every hole is the card's width (the other side is either a full or a half height).
3. Table plane. With >= 3 corner markers the platform's registration gives image -> mm.
   Without, the plane is recovered from the cards themselves: image area per mm^2 grows with
   the cube of the plane's projective denominator (fitted from the holes' areas), and the
   remaining affine part makes every card interior a rectangle of the taught size.
4. Centre line. Picks take a card and its reflection together, so the glass is always
   mirror-symmetric: the centre line is the line about which most cards have a partner.
   Cards without a partner (score piles, stray cards) are not in the glass.
5. Each card's top faces the centre line, which fixes its orientation; its whole face follows
   from the interior and the taught border. Its upper half is cut out, rectified and matched
   against the taught templates; a weak or ambiguous match is reported as `card: null`.
6. Covered: a card of the next row out lies on its lower half (or its hole is a half).
   Rows and columns come from the distances to the centre line, in half-card units; they name
   positions like the layout files do and identify the layout card when it is unambiguous.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any

import cv2
import numpy as np

from companion.games.looking_glass.rules.deck import load_deck
from companion.games.looking_glass.rules.layout import (
    Layout,
    TableGeometry,
    load_layouts,
    placements,
)
from companion.games.looking_glass.vision.library import (
    CARD_W_MM,
    PATCH_H,
    PATCH_W,
    SEARCH_PX,
    Library,
    descriptor,
)
from companion.games.looking_glass.vision.slots import face_lightness, lower_half_shown
from companion.vision.cards.identify import card_to_image, coarse_shift, upper_window
from companion.vision.cards.library import card_outline_mm
from companion.vision.components import Component, components
from companion.vision.homography import apply_homography
from companion.vision.markers import Marker, detect_markers

REFERENCE_WIDTH = 960
"""The working width at which the px sizes of the hole finder (erosions, rings, insets, least
areas) were chosen; at another width each is scaled by `unit` (working px per px at this
width), as what they measure (blur, a border's width, a gap) shrinks with the image."""
MARKER_WIDTH = 640
"""The width of the copy the reader looks for markers on (`Reader.marker_plane`)."""
PROC_WIDTH = 960
"""The reader's working width: holes, the white mask and the table's look are found on a
copy this wide (never wider than the photograph); card windows are cut from the full image."""
WHITE_LEVEL_PCT = 90
"""A border pixel is at least this % of the local white level..."""
WHITE_SAT_PCT = 24
WHITE_WINDOW = 5
"""...and its channels differ by at most this % (plus 12 levels): light and unsaturated."""
CONFIDENCE_THRESHOLD = 0.35
"""Below this a card is reported as null; chosen in benchmarks/looking_glass_vision.py."""
GAP_MM = TableGeometry().gap
ORIENT_MARGIN = 0.06
"""Template score gap between a card's two 180° turns that tells its top from its bottom."""
ORIENT_SURE = 0.75
"""One end of a hole read as a card's top matching a template this well is its top: the
other end is not looked at. On 139 development tables (2,965 holes; the tests' 19 among
them), wherever one end scored 0.7 or more the other scored at most 0.53; holes whose best
end reached 0.6 / 0.65 / 0.7 / 0.75 / 0.8 / 0.9: 91 / 91 / 90 / 90 / 89 / 82 %, and of
those, whose other end came within `ORIENT_MARGIN` of it (a turn this would settle
otherwise than both looks did): 5 / 1 / 0 / 0 / 0 / 0."""
CARD_MIN_SCORE = 0.35
"""Best template correlation below which a hole is not taken for a card at all."""
VERIFY_SCORE = 0.6
"""A card lost by the finder is kept if its own template matches this well where it lay."""
VERIFY_DROP = 0.2
"""...and no more than this below its own score when it was last found."""
COPY_BACKS = 0.7
COPY_AGREE = 0.15
"""A covered card's name stands only if its named face matches it, or a copy of it on the
table, at least `COPY_BACKS` (`ask_unbacked_names`); a copy: a card of that name that every
other taught face scores within `COPY_AGREE` of it. Chosen on development tables, read with
their own faces and with one face per table taught from a bad cut (its art magnified):
copies of one card named alike differed by 0.03 (median), 0.21 (99 %), 0.29 at most; cards
of two characters named alike by 0.17 at least. Of 1,434 rightly named covered cards, 8
matched their own face below 0.75 and 4 below 0.7; of 291 (with signatures), none was asked
at 0.65-0.75 for any `COPY_AGREE` 0.1-0.3, and both covered cards named wrong with a
confidence over the threshold were asked for `COPY_AGREE` 0.1-0.15 at 0.7-0.8 (one at
0.2-0.25, none at 0.3)."""
COPY_GAP = 0.2
"""A card is asked about when another card named alike matches the face that names it this
much better (`ask_unbacked_names`): copies of one card are one print and match its face
alike, but a card whose own face was taught badly (or not at all) is named by its nearest
look-alike, which matches the look-alike's own cards far better. Curve in the commit that
set it (development house-deck tables, read with every face and without one)."""
FLAT_STD = 10.0
"""A hole whose colours vary less than this (mean BGR std) is a patch of cloth, not card art."""
REFLECTION_CONFIDENCE = 0.6
REFLECTION_SCORE = 0.8
"""A card looked for where its reflection says is kept only this sure and matching its
template this well: no outline backs it. The art left beside a hand lying over another card
matched a third card at 0.60, a glove over a card another card at 0.72; on 80 development tables
with hands or glare the finds of cards no hand touched
scored 0.85-0.97 but one (0.69), those between 0.5 and 0.8 were all of cards under a hand."""
SEARCH_CLEAR = 0.85
"""A search stops at a match this clear: it is the card, a few mm off at most."""
SEARCH_REACH_PX = 8
"""How far a search looks about a predicted place, in patch px (~1.1 mm each) beyond the
match's own ±`SEARCH_PX`: a card dealt by hand ~9 mm off, as far as two rings of probes 3.5 mm
apart reached."""
VISIBLE_SCORE = 0.85
VISIBLE_MARGIN = 0.3
"""A card partly under an arm: its best template's best cells match this well, and this much
better than any other template's. At the places of 186 cards an arm partly hid (35
development tables with a hand) 72 reached it (the whole window matched
clearly at 59), every one the right card; 644 places with no card (a taken card's, a score
pile card's mirror, with and without an arm) scored at most 0.66."""
L_FILL = 0.85
"""A hole filling less of its rectangle than this is an L: a card lies on part of it."""
NEIGHBOUR_MM = 75.0
"""A glass card lies within this of another (centre to centre); score piles lie further."""
ROW_TOLERANCE_MM = 6.0
"""How far a card's top edge may lie off a row of the glass (dealt by hand, read off a plane)."""
LINE_SLOPE_SLACK = math.tan(math.radians(1.5))
"""How far off its row (mm per mm along the centre line from the nearest pair) a card whose
reflection is hidden may lie: the line's direction is fitted to the pairs found."""
LINE_FRAME = 0.2
"""How much of the ring round a card's art must be white (`_frame_fraction`) for a face that
matches clearly there to back a centre line guessed without pairs. On the development tables
with a hand, the reflections that backed such a line showed 0.38 or more; the chequered cloth
of another development table 0.06. (Reflections the search finds once the line is known showed as
little as
0.06 under an arm: they are not asked, nor is part of a face beside an arm.)"""
COLUMN_TOLERANCE = 0.25
"""How far (in half-card widths) a card whose reflection is hidden may lie off the glass's
columns, as the pairs found set them, to be taken into the glass."""
BARE_TABLE_STD = 20.0
BARE_TABLE_DIST = 15.0
"""A place looks like a plain table if the art area of its upper half varies in L less than
this and its median Lab lies within this of the table's (the image's median non-white
colour)."""
TABLE_BAND = 0.08
"""A patterned table's colours are sampled in this fraction of the image's width and height
round its edges: the glass and an arm over it lie inside, an arm only enters there."""
TABLE_BIN_SHARE = 0.03
"""A colour (`colour_bins`) is the table's if this share of the non-white pixels
of an edge strip has it, along three of the four edges."""
BARE_TABLE_SHARE = 0.5
"""A place looks like a patterned table if this share of that area has the table's
colours. (A chequered cloth's place varies as much as an arm half over a card.)"""
JOIN_BARE_SHARE = 0.25
"""Cards further than a card from the glass's columns are joined to it if no more than this
share of the table between shows bare (the gap beside a score pile is all bare table)."""
PLACE_WHITE = 0.15
"""At most this much of a place white (no card's border there): an arm or the table."""
LAST_CARD_TABLE_SHARE = 0.45
"""With no pair in view, the place of a last card's reflection counts as under an arm only if
less than this share of it has the table's colours. Fingertips that stop short of the line
leave table across its top (0.41). A glare on a wooden table put 0.48 of a score-pile
card's mirror place in them (that card lies at the edge of the view, and
`_inside_view` now turns it down first). Of the 63 places asked on 1,023 development tables,
58 had at most 0.25; of the two a score pile's card put there, one held a card's border, the other
0.99 of the table's colours."""
LAST_CARD_EDGE_WIDTHS = 2.0
"""With no pair in view, cards lying together are taken for the last cards of a round only
this many of their widths or more inside every edge of the image: at the edge a score pile's
cascade may go on out of view, so a pile card there only looks alone (0.7
widths; the last cards the rule read on the development tables lay 3.5 widths in or more)."""
FACE_IN_VIEW_SCORE = 0.75
"""A card the reflection search or a layout place's search matches clearly is kept only if
its cells match that face this well too (`match_visible`). Normalised as a whole, a face
with a large flat field correlates with an arm over most of a window: on one development table an
arm
under the strip of a card's banner matched white-rabbit's olive field at 0.82 (0.97
confident), cell by cell 0.67. Of the 442 clear matches the searches made on the 1,001
cached development tables (where no card is named wrong), 441 matched cell by cell at 0.77
or more, and one at 0.73 (whose card was found there all the same)."""
TABLE_FACE_SHARE = 0.8
"""A face matched clearly where no outline was found (a search, or a remembered card looked
for again) is the table, not a card, if this share of its upper half's art is white or in
the table's own colours (`TableLook.common`): a checked cloth matched the Mad Hatter's face
at 0.81 where the last pair of one development round had lain (0.96 of its art the cloth's), so the
card was kept alive after it was taken, and at 0.81 where a score-pile card's reflection
would lie (0.83). Of the 717 such matches on 1,519 cached development tables, all of real
cards, the most had 0.70 and 0.59 (olive cards on wood)."""
LAST_CARD_RING_MM = 12.0
LAST_CARD_RING_WHITE = 0.1
"""With no pair in view, the last cards of a round lie alone: in each strip this wide beside
and below them (their top edges face the line, where their reflections lay) at most this
share is white. A score pile's card has its pile's other cards there, found or not (as one
ring round the group: 0.24 and 0.19 on two development tables; the last cards the rule read on 500
development tables at most 0.02). The strips reach past the 6 mm between a pile's two rows
with the pose's error to spare: 8 mm took in only the gap's edge beside a pile card
(0.09, and the pile was read as the glass, a card where none is). Each side is
judged on its own, as one ring a wider strip would thin one neighbour's border out below
the share; no reading of 1,522 development tables changes with either."""
LAST_CARDS = 4
"""With no pair in view, at most this many cards lying together (neighbour by neighbour) may
be taken for the last cards of a round whose reflections an arm hides whole: late in a round
each score pile holds far more, and a glass with more left shows some pair."""
WEAK_PAIRS = 1
"""A reading of at most this many mirror pairs, no layout card backing it, and a card of a
pair that is not named is weak (`weak_reading`), and every card of it is asked about."""
WEAK_READING = "one pair, a card of it unnamed, no layout: the glass's line is not known"
MIRROR_PAIRS = 5
"""Pairs needed to fit the glass's mirror as the image sees it (`mirror_homography`)."""
OWN_LOOK_SAME = 0.9
"""A remembered card is still there if its place correlates this well with how it looked when
last found (`look_agreement`): 0.98 for one development table's Queen seven frames on; a taken
card's place
(the table, the card beneath) correlates below 0.3."""
OWN_LOOK_CELL = 0.9
OWN_LOOK_PART = 0.25
"""...and part of it (something over the rest) if this share of the cells of its look with
any structure correlate that well each."""
LOOK_CELL_STD = 0.3
"""A cell of a look (unit variance over the whole) with less spread than this is flat art:
it matches the table as well as the card."""
WHOLE_SHAPE_TOLERANCE = 0.3
"""How far a hole's length-to-width ratio may be from a whole card interior's (the tilt
foreshortens one side) for it to be taken for one. The curve
(`benchmarks/looking_glass_plane_shapes.py`, 70 development tables at 25°, no markers, each
hole classed by its true shape on the table): of 685 whole interiors, 670 lie within 0.25 and
all within 0.3 (the worst 0.294: far cards, seen at a wider angle than the tilt); of 945 other
holes (upper halves, covered cards, pieces of cloth) 139 within 0.25 and 146 within 0.3. At
0.25 a far pile card dropped left too few cards for the plane's projective part, and the plane
came out a fifth off."""
LAST_PAIR_SHAPE_TOLERANCE = 0.22
"""...and for the last cards of a round read apart from the score piles, among the holes framed by
white all round (the only ones that path reads): the largest tolerance that takes no upper half
for a whole card, which would measure the pair's plane from half-cards. The curve
(`benchmarks/looking_glass_plane_shapes.py`, its framed rows, 30 development tables whose seeds
the guide names, at 25°, no markers): of 277 framed whole interiors 244 lie within 0.18, 266
within 0.22, 269 within 0.25, 276 within 0.3; of 251 upper halves none within 0.22, 1 within
0.25, 3 within 0.3; of 193 other framed holes (covered cards, cloth) 29, 37, 37, 42. (0.18 was
the median whole interior's 10 % with slack, not the curve's tail: one framed whole card in
eight lay outside it.)"""
RING_CHROMA_SLACK = 10.0
"""How much more colourful than the cards' the ring round a hole may be (`ring_chroma`, over
the median of the cards whose direction the art tells) for it to be a card. On 100 development
tables the rings of 1,749 glass cards lay within 10 of that median but 3 (all named clearly),
the blocks of chequered cloth that paired with a score pile's card in one development round 25
over."""

SEEN_LOWER_SHOWN = 0.85
"""A card found by its outline with no reflection's outline paired with it is dropped where
a named card of the row inward, that it would lie on, still shows its own lower half there
this well (`slots.lower_half_shown`; `Reader._lower_halves_shown`). The curve over the 40
such cards of 8 development decks of the random family the trial gave this reader (light
borders, 24 tables; the development decks are named in the guide), real
cards dropped / phantoms dropped: 0.5: 3 / 1; 0.55-0.6: 2 / 1; 0.65-0.75: 1 / 1; 0.8-0.9:
0 / 1. The real cards reach 0.754 (smooth photo art correlates a little anywhere), the
phantom 0.95 (a free card's lower half, cut off by a glare's pale streak); 0.85 is the middle
of the gap. The staged reader's slots use `slots.LOWER_SHOWN` (0.75), from their own curve."""


@dataclass
class Hole:
    corners: np.ndarray  # 4×2, processing-image px, as minAreaRect gives them
    area: float  # px
    fill: float
    overlaid: bool = False
    """An L-shaped hole whose missing corner holds another card (not a glare)."""


class Provenance(StrEnum):
    """How a reading came by a card. Only a card found by its own outline in this frame may
    bring a taken card back or teach what the place looks like: one inferred where it should
    lie (from memory, its reflection or the layout card) may be the card beneath."""

    SEEN = "seen"
    """Found by its outline in this frame."""
    VERIFIED = "verified"
    """Remembered from an earlier frame and found again where it lay (`Reader.verify`)."""
    REFLECTED = "reflected"
    """Found where the mirror puts the reflection of a card seen (`Reader.reflections`)."""
    FROM_LAYOUT = "from_layout"
    """Found at a place the layout card says holds a card (`Reader.layout_places`)."""


@dataclass
class SeenCard:
    card: str | None
    confidence: float
    center: np.ndarray  # full-image px
    quad: np.ndarray  # 4×2 full-image px: TL, TR, BR, BL from the card's own top
    covered: bool
    half: int  # 0: the half on the + side of the axis, 1: the other
    row: int
    col: int
    center_mm: np.ndarray
    scores: dict[str, float] = field(default_factory=dict)
    full_hole: bool = False
    quad_mm: np.ndarray | None = None
    """TL, TR, BR, BL in table mm (the reader's plane)."""
    look: np.ndarray | None = field(default=None, repr=False)
    """How its upper half looked when the finder last found it (`Reader.own_look`)."""
    provenance: Provenance = Provenance.SEEN

    @property
    def inferred(self) -> bool:
        """Not found by its outline in this frame, only inferred where it should lie."""
        return self.provenance is not Provenance.SEEN

    @property
    def position(self) -> str:
        return f"{'AB'[self.half]}-r{self.row}-c{self.col}"

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "center": [round(float(self.center[0]), 1), round(float(self.center[1]), 1)],
            "covered": bool(self.covered),
            "confidence": round(float(self.confidence), 3),
            "position": self.position,
        }


@dataclass
class GlassPlaces:
    """Where the cards of one read lie in the glass's frame (mm): `s` across the axis, `t` out
    from the centre line, both from a card's centre. Working values of `Reader._read_axis`
    (columns, coverage), kept beside the cards rather than on them: they mean nothing once
    the read is done. A card and its reflection share one `s` (`align`)."""

    axis: np.ndarray
    centre_t: float
    _aligned: dict[int, tuple[SeenCard, float]] = field(default_factory=dict)
    """By `id` of the card, which is held so that its id stays its own."""

    def s(self, card: SeenCard) -> float:
        got = self._aligned.get(id(card))
        if got is not None:
            return got[1]
        return float(card.center_mm @ np.array([-self.axis[1], self.axis[0]]))

    def t(self, card: SeenCard) -> float:
        return abs(float(card.center_mm @ self.axis) - self.centre_t)

    def align(self, a: SeenCard, b: SeenCard) -> None:
        """A card and its reflection lie in the same column. Without markers at a steep tilt
        the rough plane shifts one half sideways against the other by up to half a column:
        the pair's mean is where both lie."""
        mean = (self.s(a) + self.s(b)) / 2
        self._aligned[id(a)] = (a, mean)
        self._aligned[id(b)] = (b, mean)


@dataclass
class Reading:
    cards: list[SeenCard]
    layout: str | None
    warnings: list[str]
    H_mm_from_image: np.ndarray | None = None
    axis: np.ndarray | None = None
    centre_t: float = 0.0
    via_markers: bool = False
    hidden: list[SeenCard] = field(default_factory=list)
    """Cards remembered from earlier frames (`Reader.verify`) that this one neither shows nor
    shows gone: part of each still looks as it did, something lies over the rest."""

    def to_json(self, image: str) -> dict[str, Any]:
        return {
            "image": image,
            "cards": [c.to_json() for c in self.cards],
            "layout": self.layout,
            "warnings": self.warnings,
        }


# -- 1. holes -----------------------------------------------------------------------------
def work_unit() -> float:
    """The reader's working px per px at `REFERENCE_WIDTH`: the `unit` of its px sizes."""
    return PROC_WIDTH / REFERENCE_WIDTH


def processing_image(image: np.ndarray) -> tuple[float, np.ndarray]:
    """The scale to the processing width (`PROC_WIDTH`, never up) and the image at it."""
    sc = min(1.0, PROC_WIDTH / image.shape[1])
    small = (
        image
        if sc == 1.0
        else cv2.resize(image, None, fx=sc, fy=sc, interpolation=cv2.INTER_LINEAR)
    )
    return sc, small


_LEVEL = np.arange(256)
WHITE_LEAST = 46
"""No pixel whose least channel is below this is white, whatever the light around it."""
_BRIGHT_FROM = np.maximum((WHITE_LEVEL_PCT * _LEVEL + 99) // 100, WHITE_LEAST).astype(np.uint8)
"""The least minimum channel that is bright at each local white level: the integer test
`mn * 100 >= level * WHITE_LEVEL_PCT` (and `mn >= WHITE_LEAST`) as a lookup."""
_GREY_FROM = np.maximum(_LEVEL - (WHITE_SAT_PCT * _LEVEL + 1200) // 100, 0).astype(np.uint8)
"""The least minimum channel that is unsaturated at each brightest channel: the integer
test `(mx - mn) * 100 <= mx * WHITE_SAT_PCT + 1200` as a lookup, `mn >= mx - spread`."""


def white_mask(small: np.ndarray, unit: float = 1.0) -> np.ndarray:
    """Pixels near the local white level and unsaturated: card borders (and pale table).
    `unit`: working px per px at `REFERENCE_WIDTH` (the local level is taken over the same
    share of the image at any working width)."""
    # (In 8 bits with lookups, not in 16-bit numpy arrays: the same test, with a third of
    # the memory to fill, and fresh memory is what it cost most on a small machine. Each of
    # its tests is a least value of the minimum channel, so the pixel is white if that
    # channel reaches the larger of the two: one comparison, not three and two ands.)
    b, g, r = _split(small)
    h, w = b.shape
    mx = cv2.max(b, g)
    cv2.max(mx, r, dst=mx)
    mn = cv2.min(b, g, dst=b)
    cv2.min(mn, r, dst=mn)
    tiny = cv2.resize(mn, (int(w / (4 * unit)), int(h / (4 * unit))), interpolation=cv2.INTER_AREA)
    window = cv2.getStructuringElement(cv2.MORPH_RECT, (WHITE_WINDOW, WHITE_WINDOW))
    level = cv2.dilate(tiny, window)
    level = cv2.blur(level, (7, 7))
    level = cv2.resize(level, (w, h), interpolation=cv2.INTER_LINEAR)
    least = cv2.max(
        cv2.LUT(level, _BRIGHT_FROM, dst=level), cv2.LUT(mx, _GREY_FROM, dst=mx), dst=level
    )
    out = cv2.compare(mn, least, cv2.CMP_GE, dst=least)
    np.bitwise_and(out, 1, out=out)
    return out.view(np.bool_)


def _split(image: np.ndarray) -> list[np.ndarray]:
    """An 8-bit 3-channel image's channels, into arrays numpy made: the arrays OpenCV makes
    itself for a list of outputs are copied into new numpy ones on the way out (2.3 ms
    against 0.2 for a working image on the benchmark's machine)."""
    h, w = image.shape[:2]
    return list(cv2.split(image, [np.empty((h, w), np.uint8) for _ in range(3)]))


def _not(mask: np.ndarray) -> np.ndarray:
    """A bool (or 0/1) mask's complement as 0/1 bytes, in one pass over it."""
    return np.bitwise_xor(mask.view(np.uint8), 1)


def _rect(
    cc: Component, offset: tuple[int, int] = (0, 0), grow: float = 4.0, unit: float = 1.0
) -> tuple[np.ndarray, float, float] | None:
    """(corners, area, fill) of the minimum-area rectangle around a component (its outline
    moved by `offset` px), grown by `grow` px in width and height (what eroding it took off);
    none narrower than 8 px at `REFERENCE_WIDTH` (`unit`: working px per px there)."""
    # (From the outlines `components` traced already: tracing the component's mask again
    # gives the same ones, at ~35 µs a component. In integers: the same hull and rectangle
    # as from floats, whose arithmetic is exact on px this size, a third faster.)
    rect = cv2.minAreaRect(
        cc.outline if offset == (0, 0) else cc.outline + np.array(offset, np.int32)
    )
    rw, rh = rect[1]
    if rw < 8 * unit or rh < 8 * unit:
        return None
    # The outline's area less its large holes: specks of glare inside the art do not make a
    # card less rectangular, but a ring of table around a card is no card interior.
    enclosed = float(cv2.contourArea(cc.outline))
    # (Each hole's area once: the art's specks of glare are many small holes.)
    big_holes = sum(a for a in map(cv2.contourArea, cc.holes) if a > 0.02 * enclosed)
    area = max(float(cc.area), enclosed - float(big_holes))
    fill = area / (rw * rh)
    # The mask was eroded (by 2 px a side, unless the caller says): grow the rectangle back.
    rect = (rect[0], (rw + grow, rh + grow), rect[2])
    return cv2.boxPoints(rect).astype(np.float64), area, fill


def _disc(radius: float) -> np.ndarray:
    """An elliptic structuring element of `radius` px (rounded, at least 1)."""
    k = 2 * max(1, round(radius)) + 1
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


ERODE_PX = 2.0
"""How far (px at `REFERENCE_WIDTH`) the non-white is eroded before holes are labelled: a
thin gap between two covering cards must not join two interiors."""


def find_holes(
    small: np.ndarray,
    max_frac: float = 0.08,
    ring: float = 0.7,
    white: np.ndarray | None = None,
    unit: float = 1.0,
    second_look: bool = True,
) -> list[Hole]:
    """Card interiors: non-white components, not touching the edge, about rectangular.

    A sliver of table or art between two cards can join an interior to something else; such
    components are opened with a kernel a quarter of a typical interior wide and split.
    `white`: `white_mask(small)`, if the caller has it already. `unit`: working px per px at
    `REFERENCE_WIDTH`, which every px size here is given at. `second_look`: also the
    interiors whose border is broken (`_leaking_holes`)."""
    white = white_mask(small, unit) if white is None else white
    erode = max(1, round(ERODE_PX * unit))
    holes = cv2.erode(_not(white), _disc(erode))
    h, w = holes.shape
    amin, amax = math.ceil(500 * unit**2), max_frac * h * w
    out: list[Hole] = []
    poor = []
    for cc in components(holes, amin, skip_edge=True):
        if cc.area > 4 * amax:
            continue
        got = _rect(cc, grow=2.0 * erode, unit=unit) if cc.area <= amax else None
        if got is not None and got[2] >= L_FILL:
            if _clean_interior(small, white, got[0], ring, unit):
                out.append(Hole(*got))
        else:
            poor.append(cc)
    if out:
        typical = float(
            np.median(
                [
                    min(
                        _length(hl.corners[1] - hl.corners[0]),
                        _length(hl.corners[2] - hl.corners[1]),
                    )
                    for hl in out
                ]
            )
        )
    else:
        typical = 40.0 * unit
    k = max(3, int(0.25 * typical) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    for cc in poor:
        opened = cv2.morphologyEx(cc.mask, cv2.MORPH_OPEN, kernel)
        for sub in components(opened, amin):
            if sub.area > amax:
                continue
            part, at = sub.mask, (cc.x + sub.x, cc.y + sub.y)
            got = _rect(sub, (cc.x, cc.y), 2.0 * erode, unit)
            # An L-shaped hole (a card freed on one side only) has its rectangle's ring partly
            # over the card still lying on it: ask for less white around it.
            if (
                got is not None
                and got[2] >= 0.62
                and _framed(white, got[0], ring if got[2] >= L_FILL else ring - 0.2, unit)
                and _has_art(small, got[0], unit)
            ):
                hole = Hole(*got)
                if hole.fill < L_FILL:
                    hole.overlaid = overlaid(white, part, at, hole.corners, unit)
                out.append(hole)
    if not second_look:
        return out
    return out + _leaking_holes(small, white, out, amin, amax, ring, unit)


LEAK_SCALE = 0.5
"""The second look for holes (`_leaking_holes`) is taken at this share of the working size."""
LEAK_ERODE_PX = (4.0, 6.0)
"""...eroding the non-white this far (px at `REFERENCE_WIDTH`), once and then once more."""


def _leaking_holes(
    small: np.ndarray,
    white: np.ndarray,
    found: list[Hole],
    amin: float,
    amax: float,
    ring: float,
    unit: float = 1.0,
) -> list[Hole]:
    """Interiors whose border is broken at a corner (blurred at the far side of a steep
    tilt, or darkened there): through the gap the interior joins the table around it and is
    no hole at all. Eroded 4 px instead of 2, the gap closes, and what is still open
    eroded 6 px (a face's art against its border, blurred and compressed, left a
    gap 5 px wide); only interiors not found already are taken, as clean rectangles grown
    back by what the erosion took. At `LEAK_SCALE` of the working size (a quarter of the
    pixels to label): it is a second look over the whole image, and the rectangle is only a
    start."""
    h, w = white.shape
    f = LEAK_SCALE
    half = _not(
        cv2.resize(white.view(np.uint8), (int(w * f), int(h * f)), interpolation=cv2.INTER_NEAREST)
    )
    taken = np.zeros(half.shape, np.uint8)
    for hl in found:
        cv2.fillConvexPoly(taken, np.rint(hl.corners * f).astype(np.int32), 1)
    out: list[Hole] = []
    for erode_px in LEAK_ERODE_PX:
        r = max(1, round(erode_px * unit * f))
        holes = cv2.erode(half, _disc(r))
        for cc in components(holes, math.ceil(amin * f * f), skip_edge=True):
            if cc.area > amax * f * f:
                continue
            # Found already (more than a fifth of it), counted in integers: the mean of the
            # taken pixels under it above 0.2 (its pixels: `cc.area`).
            under = cv2.bitwise_and(taken[cc.y : cc.y + cc.h, cc.x : cc.x + cc.w], cc.mask)
            if 5 * cv2.countNonZero(under) > cc.area:
                continue
            # An r px erosion at the smaller size: grown back by as much.
            got = _rect(cc, grow=2.0 * r, unit=unit * f)
            if got is None or got[2] < L_FILL:
                continue
            corners = got[0] / f + (1 / f - 1) / 2
            if _clean_interior(small, white, corners, ring, unit):
                out.append(Hole(corners, got[1] / (f * f), got[2]))
                cv2.fillConvexPoly(taken, np.rint(corners * f).astype(np.int32), 1)
    return out


def _clean_interior(
    small: np.ndarray, white: np.ndarray, corners: np.ndarray, ring: float, unit: float = 1.0
) -> bool:
    """Whether a clean rectangle (filling L_FILL of it or more) is a card's interior: framed
    and holding art. A shadow across a border leaves part of it below the white level: a
    clean rectangle of art needs less of a frame than the odd shapes split off joined holes.

    Art is asked first: of the rectangles asked (~60 a frame, half of them the second look's
    flat patches of table), art turns down three in four and the frame none, and each test
    costs about the same."""
    return _has_art(small, corners, unit) and _framed(white, corners, ring - 0.15, unit)


def overlaid(
    white: np.ndarray,
    part: np.ndarray,
    offset: tuple[int, int],
    corners: np.ndarray,
    unit: float = 1.0,
) -> bool:
    """Whether what cuts an L out of a hole's rectangle is another card: its art is not white.
    A glare also cuts a hole into an L, but what it leaves is white."""
    h, w = white.shape
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 1, [w, h])
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(inside, np.rint(corners - [x0, y0]).astype(np.int32), 1)
    mine = np.zeros_like(inside)
    ox, oy = offset[0] - x0, offset[1] - y0
    ph, pw = part.shape
    sy0, sx0 = max(0, -oy), max(0, -ox)
    sy1, sx1 = min(ph, inside.shape[0] - oy), min(pw, inside.shape[1] - ox)
    mine[oy + sy0 : oy + sy1, ox + sx0 : ox + sx1] = part[sy0:sy1, sx0:sx1]
    # The component was eroded by 2 px and the border around it is white anyway.
    mine = cv2.dilate(mine, _disc(3 * unit))
    # (Counted by OpenCV on 0/1 bytes: the same counts as numpy's sums of bools, and the
    # share not white as the count of the white ones taken from all.)
    missing = cv2.subtract(inside, mine)
    n_missing = cv2.countNonZero(missing)
    if n_missing == 0 or n_missing < 0.05 * cv2.countNonZero(inside):
        return False
    n_white = cv2.countNonZero(cv2.bitwise_and(missing, white[y0:y1, x0:x1].view(np.uint8)))
    return (n_missing - n_white) / n_missing > 0.7


ART_INSET_PX = 2.0
"""A hole's art is looked at this far (px at `REFERENCE_WIDTH`) inside its rectangle (the
border's blurred edge is not art)."""


def _has_art(small: np.ndarray, corners: np.ndarray, unit: float = 1.0) -> bool:
    """Whether a hole holds art: the squares of a chequered cloth are framed by its light
    squares just as card art is by the border, and outnumber the cards, so they would
    decide the card size and the table plane; but each is one flat colour."""
    # (Asked of ~60 rectangles a frame: the box from plain floats, the kernel made once; an
    # empty mask needs no count first, as its deviation is 0, below `FLAT_STD`.)
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = corners.tolist()
    x0, y0 = max(int(min(ax, bx, cx, dx)), 0), max(int(min(ay, by, cy, dy)), 0)
    x1, y1 = int(max(ax, bx, cx, dx)) + 1, int(max(ay, by, cy, dy)) + 1
    roi = small[y0:y1, x0:x1]
    if roi.size == 0:
        return False
    mask = np.zeros(roi.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, (corners - (x0, y0)).astype(np.int32), 1)
    mask = cv2.erode(mask, _square(2 * max(1, round(ART_INSET_PX * unit)) + 1))
    _, std = cv2.meanStdDev(roi, mask=mask)
    # (The mean of the three in plain floats: numpy's `mean` adds them in this order too.)
    s0, s1, s2 = std.ravel().tolist()
    return (s0 + s1 + s2) / 3 >= FLAT_STD


@cache
def _square(k: int) -> np.ndarray:
    """A k × k square structuring element (made once per size)."""
    return cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))


def _framed(
    white: np.ndarray, corners: np.ndarray, min_white: float = 0.7, unit: float = 1.0
) -> bool:
    """Whether a rectangle is framed by white all round, as a card's art is by its border
    (and, below a covered card's upper half, by the border of the card lying on it)."""
    return _frame_fraction(white, corners, unit) >= min_white


# 12 points along each side of the ring (in units of half a side, from the centre), at every
# distance out the border may lie (0..6 px at `REFERENCE_WIDTH`: blur, perspective, a
# slightly tilted fit); a point is framed if any is white.
_RING_F = np.linspace(0.1, 0.9, 12)
_RING_U = np.concatenate([2 * _RING_F - 1, np.ones(12), 1 - 2 * _RING_F, -np.ones(12)])
_RING_V = np.concatenate([-np.ones(12), 2 * _RING_F - 1, np.ones(12), 1 - 2 * _RING_F])
_RING_OUT = np.array([1.0, 2.5, 4.0, 5.5])[:, None]


def _frame_fraction(white: np.ndarray, corners: np.ndarray, unit: float = 1.0) -> float:
    """How much of the ring round a rectangle (px) is white: see `_framed`."""
    # (Called for every hole and every guess at a glass: plain floats, one array op a step;
    # the centre as a sum over 4 in `mean`'s order, to the bit.)
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = corners.tolist()
    cx, cy = (x0 + x1 + x2 + x3) / 4, (y0 + y1 + y2 + y3) / 4
    l1, l2 = math.hypot(x1 - x0, y1 - y0), math.hypot(x2 - x1, y2 - y1)
    n1, n2 = max(l1, 1e-6), max(l2, 1e-6)
    h, w = white.shape
    a, b = l1 / 2 + unit * _RING_OUT, l2 / 2 + unit * _RING_OUT
    au, bv = a * _RING_U, b * _RING_V
    xs = cx + au * ((x1 - x0) / n1) + bv * ((x2 - x1) / n2)
    ys = cy + au * ((y1 - y0) / n1) + bv * ((y2 - y1) / n2)
    # (numpy's `clip` costs more than the two bounds in place.)
    xi = np.rint(xs).astype(np.intp)
    yi = np.rint(ys).astype(np.intp)
    np.minimum(np.maximum(xi, 0, out=xi), w - 1, out=xi)
    np.minimum(np.maximum(yi, 0, out=yi), h - 1, out=yi)
    return float(np.count_nonzero(white[yi, xi].any(axis=0))) / _RING_U.size


def ring_chroma(small: np.ndarray, corners: np.ndarray, unit: float = 1.0) -> float:
    """Median colourfulness (Lab chroma) just outside a hole (2..4 px out at
    `REFERENCE_WIDTH`; `unit`: working px per px there): a card's border is
    white or grey under any light, while the pale lines where a chequered cloth's squares meet
    (to the white mask, pale enough to be a border) frame a block of coloured squares."""
    h, w = small.shape[:2]
    c = corners.mean(axis=0)
    size = float(np.mean([np.linalg.norm(corners[(i + 1) % 4] - corners[i]) for i in range(2)]))
    points = []
    for out_px in (2.0, 3.0, 4.0):
        ring = c + (corners - c) * (1 + 2 * unit * out_px / size)
        for i in range(4):
            a, b = ring[i], ring[(i + 1) % 4]
            for f in np.linspace(0.1, 0.9, 9):
                points.append(np.clip(np.rint(a + f * (b - a)), 0, [w - 1, h - 1]).astype(int))
    xy = np.array(points)
    lab = cv2.cvtColor(small[xy[:, 1], xy[:, 0]][None], cv2.COLOR_BGR2LAB)[0]
    return float(np.median(np.hypot(*(lab[:, 1:].astype(np.float32) - 128).T)))


# -- 2./3. axis, size and the table plane ----------------------------------------------------
def inset(quad: np.ndarray, by: float) -> np.ndarray:
    """A card's corners (TL, TR, BR, BL) moved `by` in along its own sides: its art from its
    outline by the border width, or (`by` < 0) its outline from its art."""
    right = (quad[1] - quad[0]) / np.linalg.norm(quad[1] - quad[0])
    down = (quad[3] - quad[0]) / np.linalg.norm(quad[3] - quad[0])
    return quad + by * np.array([right + down, down - right, -right - down, right - down])


def _sides(c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return c[1] - c[0], c[2] - c[1]


def _length(v: np.ndarray) -> float:
    """A 2-vector's length: `math.hypot`, a tenth of `np.linalg.norm`'s cost, which the
    reader paid ~900 times a frame."""
    return math.hypot(v[0], v[1])


VOTE_LONG_MAX = 1.9
"""`dominant_angle`: a hole votes when its long side is under this many times its short one
(and over 1.2). A tarot card's whole interior inside a 3.7 mm border is 1.81 times as long as
it is wide, and its upper half's 1.11 is too square to vote: on a development table of two
free pairs seen square on (tarot, white border, no markers) no hole voted under 1.8, the
direction fell to 0°, `orient` kept no hole along either axis, and the glass was not read.
Curve (the development set's light-border tables, cards right of 112, none wrong, no
phantom at any bound): 1.8: 92; 1.85, 1.9, 2.0: 96; the committed set at 1.9: one table more
read, 14 cards (docs/looking-glass-table.md, lg34).
1.9 is `orient`'s own bound for a hole shaped like a card."""


def dominant_angle(holes: list[Hole], window_deg: float = 8.0) -> float:
    """Direction of card sides modulo 90°, voted by holes shaped like a card interior or its
    upper half (long side 1.2 to `VOTE_LONG_MAX` times the short one).

    The most voted direction, not the mean: under a tilt a chequered cloth's squares are
    foreshortened into card-shaped blobs too, many of them, at their own angle, and a mean
    would land between the two. Votes weigh area squared, as cards are the larger blobs."""
    angles, weights = [], []
    for hl in holes:
        e1, e2 = _sides(hl.corners)
        l1, l2 = _length(e1), _length(e2)
        if not 1.2 < max(l1, l2) / max(1e-6, min(l1, l2)) < VOTE_LONG_MAX:
            continue
        angles.append(4 * math.atan2(e1[1], e1[0]))
        weights.append(hl.area**2)
    if not angles:
        return 0.0
    a, wt = np.array(angles), np.array(weights)
    near = np.cos(a[:, None] - a[None, :]) > math.cos(math.radians(4 * window_deg))
    best = int(np.argmax(near.astype(float) @ wt))
    z = np.sum(wt[near[best]] * np.exp(1j * a[near[best]]))
    return float(np.angle(z)) / 4


@dataclass
class Oriented:
    hole: Hole
    centre: np.ndarray
    width_vec: np.ndarray
    height_vec: np.ndarray


def orient(holes: list[Hole], width_angle: float, tol_deg: float = 14.0) -> list[Oriented]:
    """Split each hole's sides into width and height, for cards whose width lies at the angle."""
    u = np.array([math.cos(width_angle), math.sin(width_angle)])
    out = []
    for hl in holes:
        e1, e2 = _sides(hl.corners)
        l1, l2 = _length(e1), _length(e2)
        c1 = abs(float(e1 @ u)) / max(1e-6, l1)
        c2 = abs(float(e2 @ u)) / max(1e-6, l2)
        wv, hv = (e1, e2) if c1 >= c2 else (e2, e1)
        if max(c1, c2) < math.cos(math.radians(tol_deg)):
            continue
        if not 1.05 < max(l1, l2) / max(1e-6, min(l1, l2)) < 1.9:
            continue  # not shaped like a card interior nor its upper half
        out.append(Oriented(hl, hl.corners.sum(axis=0) / 4, wv, hv))
    return out


def _area_median(values: np.ndarray, items: list[Oriented]) -> float:
    """The median with each hole weighted by its area. A chequered cloth's squares next to
    the glass can outnumber its cards, and a plain median would take their size for the
    cards'; the cards are the larger holes and hold most of the area."""
    area = np.array([o.hole.area for o in items], float)
    order = np.argsort(values)
    cum = np.cumsum(area[order])
    return float(values[order][int(np.searchsorted(cum, cum[-1] / 2))])


def width_spread(items: list[Oriented]) -> float:
    """How much the holes' widths differ (median absolute deviation of their logs): read along
    the right axis the card interiors share one width, so of the two axes 90° apart the one
    with the smaller spread is the cards' own (a lone hole cannot tell, hence 1.0)."""
    if len(items) < 2:
        return 1.0
    logs = np.log([max(1e-6, _length(o.width_vec)) for o in items])
    return float(np.median(np.abs(logs - np.median(logs))))


def whole_interiors(
    items: list[Oriented], lib: Library, tolerance: float = WHOLE_SHAPE_TOLERANCE
) -> list[Oriented]:
    """The holes shaped like a whole card's interior (no card over it)."""
    shape = lib.shape
    ratio = (shape.height_mm - 2 * shape.border_mm) / (CARD_W_MM - 2 * shape.border_mm)
    return [
        o
        for o in items
        if abs(
            float(np.linalg.norm(o.height_vec))
            / max(1e-6, float(np.linalg.norm(o.width_vec)))
            / ratio
            - 1
        )
        < tolerance
    ]


def plane_from_cards(items: list[Oriented], lib: Library) -> np.ndarray | None:
    """Image (processing px) -> table mm, up to a rotation and shift, from card interiors."""
    shape = lib.shape
    wi = CARD_W_MM - 2 * shape.border_mm
    hi_full = shape.height_mm - 2 * shape.border_mm
    hi_half = shape.height_mm / 2 - shape.border_mm
    # Only holes shaped like a card interior or its upper half, of a common size, shape the
    # plane: pale patches of table and other junk must not.
    ratio = np.array([_length(o.height_vec) / max(1e-6, _length(o.width_vec)) for o in items])
    like = (np.abs(ratio / (hi_half / wi) - 1) < 0.3) | (
        np.abs(ratio / (hi_full / wi) - 1) < WHOLE_SHAPE_TOLERANCE
    )
    items = [o for o, ok in zip(items, like, strict=True) if ok]
    # Two cards are enough for the affine part (each interior gives three equations for its
    # three unknowns): the last pair of a round, alone on the table, is read too.
    if len(items) < 2:
        return None
    widths = np.array([_length(o.width_vec) for o in items])
    typical = _area_median(widths, items)
    items = [o for o, wd in zip(items, widths, strict=True) if 0.65 < wd / typical < 1.5]
    if len(items) < 2:
        return None
    widths = np.array([_length(o.width_vec) for o in items])
    heights = np.array([_length(o.height_vec) for o in items])
    k = widths / wi
    full = heights / k > (hi_full + hi_half) / 2
    hx = np.where(full, hi_full, hi_half)
    pts = np.array([o.centre for o in items])
    # Projective part: area scale ~ (m . p)^3.
    J = (widths * heights) / (wi * hx)
    w3 = np.cbrt(J)
    A = np.hstack([pts, np.ones((len(pts), 1))])
    m = np.array([0.0, 0.0, float(np.median(w3))])
    # Five interiors fit the three unknowns with some to spare. Late in a round at a steep
    # tilt the cards' sizes across the image differ by a quarter (seven interiors,
    # from 1.05 to 1.31); left flat, the far pair measured 30 % narrow and was dropped.
    if len(items) >= 5:
        weights = np.where(full, 1.0, 0.6)
        for _ in range(3):
            sol, *_ = np.linalg.lstsq(A * weights[:, None], w3 * weights, rcond=None)
            resid = np.abs(A @ sol - w3) / np.median(w3)
            weights = np.where(full, 1.0, 0.6) / (1 + (resid / 0.04) ** 2)
        m = sol
    if np.any(A @ m <= 0):
        m = np.array([0.0, 0.0, float(np.median(w3))])
    P = np.array([[1, 0, 0], [0, 1, 0], [m[0], m[1], m[2]]])
    # Affine part: M = A^T A with e_w^T M e_w = wi^2, e_w^T M e_h = 0, e_h^T M e_h = hx^2.
    rows, rhs = [], []
    # Each interior's width and height ends through P, all in one call (point by point the
    # same numbers).
    ends = apply_homography(
        P,
        np.array(
            [
                end
                for o in items
                for end in (
                    o.centre - o.width_vec / 2,
                    o.centre + o.width_vec / 2,
                    o.centre - o.height_vec / 2,
                    o.centre + o.height_vec / 2,
                )
            ]
        ),
    ).reshape(-1, 4, 2)
    for (w0, w1, h0, h1), h_mm, is_full in zip(ends, hx, full, strict=True):
        a, b = w1 - w0, h1 - h0
        rows.append([a[0] ** 2, 2 * a[0] * a[1], a[1] ** 2])
        rhs.append(wi**2)
        wt = 2.0
        rows.append([wt * a[0] * b[0], wt * (a[0] * b[1] + a[1] * b[0]), wt * a[1] * b[1]])
        rhs.append(0.0)
        wt = 0.7 if is_full else 0.3
        rows.append([wt * b[0] ** 2, wt * 2 * b[0] * b[1], wt * b[1] ** 2])
        rhs.append(wt * h_mm**2)
    sol, *_ = np.linalg.lstsq(np.array(rows), np.array(rhs), rcond=None)
    M = np.array([[sol[0], sol[1]], [sol[1], sol[2]]])
    try:
        L = np.linalg.cholesky(M)
    except np.linalg.LinAlgError:
        s = float(np.median(k)) * float(np.median(A @ m))
        L = np.eye(2) / s
    Aff = np.eye(3)
    Aff[:2, :2] = L.T
    return Aff @ P


# -- 4. the centre line ----------------------------------------------------------------------
def centre_line(
    pos: np.ndarray,
    axis: np.ndarray,
    full: np.ndarray,
    orient: np.ndarray,
    tops: np.ndarray | None = None,
) -> tuple[float, np.ndarray, np.ndarray]:
    """The centre line (its normal `axis` and offset along it), and each card's mirror partner
    (-1: none; itself: in the glass, its reflection not seen).

    `orient`: +1 a card whose top faces -axis, -1 one whose top faces +axis, 0 unknown. The
    two cards of a pair face each other, which tells them from two cards of one score pile.
    The line is fitted through the midpoints of candidate pairs, direction included: the
    cards' mean direction is a degree or two off when they are dealt by hand, which puts the
    pairs at the far end of a wide glass 10 mm off a line drawn square to it."""
    lateral = np.array([-axis[1], axis[0]])
    t = pos @ axis
    s = pos @ lateral
    n = len(pos)
    tol_s, tol_t = 0.3 * CARD_W_MM, 14.0
    # Every pair of cards at once (i < j, in order): one across the glass from the other,
    # of the same hole shape, the higher facing down the axis and the lower up it.
    i, j = np.triu_indices(n, 1)
    hi_is_i = t[i] > t[j]
    hi, lo = np.where(hi_is_i, i, j), np.where(hi_is_i, j, i)
    ok = (
        (np.abs(s[i] - s[j]) < tol_s)
        & (np.abs(t[i] - t[j]) > 10)
        & (full[i] == full[j])
        & (orient[hi] >= 0)
        & (orient[lo] <= 0)
    )
    partner = -np.ones(n, int)
    if not ok.any():
        return (float(np.median(t)) if n else 0.0), partner, axis
    i, j = i[ok], j[ok]
    m = np.stack([(s[i] + s[j]) / 2, (t[i] + t[j]) / 2], axis=1)
    max_k = math.tan(math.radians(6))
    # The lines square to the cards through each midpoint, then through every two midpoints
    # far enough apart along it and not too steep (as arrays, in the order of a double loop
    # over the pairs: the first of equal votes wins).
    a, b = np.triu_indices(len(m), 1)
    across = m[b, 0] - m[a, 0]
    far = np.abs(across) > 2 * CARD_W_MM / 3
    a, b, across = a[far], b[far], across[far]
    slope = (m[b, 1] - m[a, 1]) / across
    flat = np.abs(slope) <= max_k
    a, slope = a[flat], slope[flat]
    ks = np.concatenate([np.zeros(len(m)), slope])[:, None]
    c0s = np.concatenate([m[:, 1], m[a, 1] - slope * m[a, 0]])[:, None]
    inliers = (np.abs(m[:, 1] - (c0s + ks * m[:, 0])) < tol_t / 2).sum(axis=1)
    crossing = _crossing(tops, s, orient, m[:, 0], ks, c0s)
    votes = [
        (n_in, -n_cross, -abs(k), k, c0)
        for n_in, n_cross, k, c0 in zip(
            inliers.tolist(), crossing.tolist(), ks[:, 0].tolist(), c0s[:, 0].tolist(), strict=True
        )
    ]
    *_, k, c0 = max(votes)
    inl = np.abs(m[:, 1] - (c0 + k * m[:, 0])) < tol_t / 2
    fits = [(0.0, float(np.median(m[inl, 1])))]
    if np.ptp(m[inl, 0]) > 2 * CARD_W_MM / 3:
        k, c0 = np.polyfit(m[inl, 0], m[inl, 1], 1)
        fits.insert(0, (float(np.clip(k, -max_k, max_k)), float(c0)))
    # A few pairs close together give a slope as much from how they were dealt (a few mm off)
    # as from the line: 3 mm across two columns is 3°, and over the 370 mm between the two
    # cards of a far pair that puts one 20 mm sideways of its reflection, so no pair is found.
    # Of the fitted line and the one square to the cards, the one that pairs more
    # cards is kept (the fitted one if they pair as many).
    best: tuple[float, np.ndarray, np.ndarray] | None = None
    for k, c0 in fits:
        got = _pairs_across(pos, axis, k, c0, orient, tol_t, tol_s)
        if best is None or (got[1] >= 0).sum() > (best[1] >= 0).sum():
            best = got
    assert best is not None
    c, partner, axis = best
    if 2 <= (partner >= 0).sum() // 2 < MIRROR_PAIRS:
        _pairs_sheared(pos, axis, c, orient, full, partner, tol_t, tol_s)
    grow_glass(pos, axis, c, orient, partner)
    return c, partner, axis


def _crossing(
    tops: np.ndarray | None,
    s: np.ndarray,
    orient: np.ndarray,
    mids_s: np.ndarray,
    k: np.ndarray,
    c0: np.ndarray,
) -> np.ndarray:
    """For each line t = c0 + k s (`k`, `c0`: (lines, 1)), how many cards along the glass
    (`s`: where they lie across it; `mids_s`: where the candidate pairs do) would lie over
    it, their top edges (`tops`, along the axis) past it by more than `ROW_TOLERANCE_MM`: no
    card of the glass does, and a score pile lies in front of its player. A pair of two
    cards of one character, a row apart, is a pair of the wrong line."""
    if tops is None:
        return np.zeros(len(k), int)
    near = (s > mids_s.min() - CARD_W_MM) & (s < mids_s.max() + CARD_W_MM) & (orient != 0)
    return (near & ((tops - c0 - k * s) * orient < -ROW_TOLERANCE_MM)).sum(axis=1)


def _pairs_sheared(
    pos: np.ndarray,
    axis: np.ndarray,
    c: float,
    orient: np.ndarray,
    full: np.ndarray,
    partner: np.ndarray,
    tol_t: float,
    tol_s: float,
) -> None:
    """Cards left without a partner paired allowing for the sideways shift the pairs found
    show. Without markers at a steep tilt the plane recovered from the cards shifts one half
    of the glass sideways against the other, more towards one end (22 mm, a third of a card,
    at the far end of one development round's glass, 3 mm at the other): that end's pair was lost,
    and its cards, matched poorly, were taken for cloth. With `MIRROR_PAIRS` pairs the
    mirror seen in the image pairs them (`pair_in_image`); with fewer, the shift is fitted
    along the line (`partner` in place)."""
    lateral = np.array([-axis[1], axis[0]])
    t, s = pos @ axis - c, pos @ lateral
    found = [(i, int(j)) for i, j in enumerate(partner) if j >= 0 and t[i] > 0]
    mid = np.array([(s[i] + s[j]) / 2 for i, j in found])
    shift = np.array([s[i] - s[j] for i, j in found])
    if np.ptp(mid) > 2 * CARD_W_MM / 3:
        fit = np.polyfit(mid, shift, 1)
    else:
        fit = np.array([0.0, float(np.median(shift))])
    if np.abs(np.polyval(fit, mid) - shift).max() > tol_s / 2:
        return  # the pairs found do not agree on one shift
    free = np.nonzero(partner < 0)[0]
    cand = []
    for i in free:
        for j in free:
            if t[i] > 0 > t[j] and orient[i] >= 0 and orient[j] <= 0 and full[i] == full[j]:
                off = s[i] - s[j] - float(np.polyval(fit, (s[i] + s[j]) / 2))
                err = abs(t[i] + t[j]) / tol_t + abs(off) / tol_s
                if err < 1.0:
                    cand.append((err, i, j))
    for _, i, j in sorted(cand):
        if partner[i] < 0 and partner[j] < 0:
            partner[i], partner[j] = j, i


def _pairs_across(
    pos: np.ndarray,
    axis: np.ndarray,
    k: float,
    c0: float,
    orient: np.ndarray,
    tol_t: float,
    tol_s: float,
) -> tuple[float, np.ndarray, np.ndarray]:
    """(offset, one-to-one partners closest first, normal) of the line t = c0 + k s (t along
    `axis`, s square to it): see `centre_line`."""
    lateral = np.array([-axis[1], axis[0]])
    norm = math.hypot(1.0, k)
    axis = (axis - k * lateral) / norm
    lateral = np.array([-axis[1], axis[0]])
    c = float(c0) / norm
    t = pos @ axis - c
    s = pos @ lateral
    n = len(pos)
    # Every ordered pair at once (i across the line from j, both facing it), as arrays.
    err = np.abs(t[:, None] + t[None, :]) / tol_t + np.abs(s[:, None] - s[None, :]) / tol_s
    ok = (
        (t[:, None] > 0)
        & (t[None, :] < 0)
        & (orient[:, None] >= 0)
        & (orient[None, :] <= 0)
        & (err < 1.0)
    )
    ii, jj = np.nonzero(ok)
    cand = list(zip(err[ii, jj].tolist(), ii.tolist(), jj.tolist(), strict=True))
    partner = -np.ones(n, int)
    for _, i, j in sorted(cand):
        if partner[i] < 0 and partner[j] < 0:
            partner[i], partner[j] = j, i
    return c, partner, axis


def grow_glass(
    pos: np.ndarray, axis: np.ndarray, c: float, orient: np.ndarray, partner: np.ndarray
) -> None:
    """A card whose reflection is hidden (a hand, a glare) still belongs to the glass if it
    lies next to a card of the glass; score piles lie further off. Grown a step at a time
    (`partner` in place: itself): a hand across one half hides many reflections at once, and
    the glass's far rows only touch its near rows, not the pairs left around the centre
    line."""
    t = pos @ axis
    grown = True
    while grown and (partner >= 0).any():
        grown = False
        glass = partner >= 0
        for i in np.nonzero(~glass)[0]:
            near = np.linalg.norm(pos[glass] - pos[i], axis=1).min()
            side = 1 if t[i] > c else -1
            if near < NEIGHBOUR_MM and abs(t[i] - c) > 10 and orient[i] != -side:
                partner[i] = i
                grown = True


def on_a_row(
    top: float, c: float, orient: int, Hc: float, tolerance: float = ROW_TOLERANCE_MM
) -> bool:
    """Whether a card whose top edge lies at `top` along the axis, facing the centre line at
    `c` the way `orient` says, lies on a row of the glass: rows step half a card out."""
    out, k = _rows_out(top, c, orient, Hc)
    return k >= 0 and abs(out - k * Hc / 2) < tolerance


def _rows_out(top: float, c: float, orient: int, Hc: float) -> tuple[float, int]:
    """How far (mm) a card's top edge at `top`, facing the line at `c` as `orient` says, lies
    out from the first row's place, and the nearest row to it (negative: across the line)."""
    out = (top - c) * orient - GAP_MM / 2
    return out, round(out / (Hc / 2))


def line_through(tops: list[float], orient: np.ndarray, c: float, Hc: float) -> float:
    """Where the centre line lies by cards on its rows (`tops`: their top edges along the
    axis, facing it as `orient` says), each on the row it lies on from a line near `c`."""
    lines = []
    for top, o in zip(tops, orient, strict=True):
        row = max(0, _rows_out(top, c, int(o), Hc)[1])
        lines.append(top - o * (GAP_MM / 2 + row * Hc / 2))
    return float(np.median(lines))


def row_tolerance(s: float, glass_s: np.ndarray) -> float:
    """How far (mm) off its row a card `s` mm across the glass may lie, the glass's cards that
    set the centre line at `glass_s`: the line's direction is only as good as their spread, so
    further along it from them a row may lie further off (7.5 mm at 230 mm)."""
    return ROW_TOLERANCE_MM + LINE_SLOPE_SLACK * float(np.abs(glass_s - s).min())


def row_at(t_abs: float, Hc: float) -> int:
    """The row of a card whose face's centre lies `t_abs` from the centre line."""
    return max(0, round((t_abs - GAP_MM / 2 - Hc / 2) / (Hc / 2)))


def column_phase(s: np.ndarray) -> float:
    """Where the glass's columns lie, as a fraction of their pitch: `s` are cards' places
    across the glass in half-card widths (a circular mean: the columns repeat)."""
    return float(np.angle(np.mean(np.exp(2j * np.pi * s))) / (2 * np.pi))


def _mirrored(pts: np.ndarray, axis: np.ndarray, c_t: float) -> np.ndarray:
    """Points (table mm) reflected in the centre line (normal `axis`, offset `c_t`)."""
    return pts - 2 * ((pts @ axis) - c_t)[:, None] * axis[None, :]


def mirror_homography(px: np.ndarray, partner: np.ndarray, width_px: float) -> np.ndarray | None:
    """The glass's mirror as the image sees it, fitted to the pairs found (processing px).

    A reflection in the table plane is a homography in the image, whatever the camera; fitted
    from the pairs themselves it carries none of the errors of a table plane recovered from
    the cards (at a steep tilt without markers those put a far card's mirror 20 mm off)."""
    pairs = [(i, int(j)) for i, j in enumerate(partner) if j > i]
    if len(pairs) < MIRROR_PAIRS:
        return None
    src = np.array([px[i] for i, j in pairs] + [px[j] for i, j in pairs], np.float32)
    dst = np.array([px[j] for i, j in pairs] + [px[i] for i, j in pairs], np.float32)
    H, inliers = cv2.findHomography(src, dst, cv2.RANSAC, 0.1 * width_px)
    if H is None or inliers is None or int(inliers.sum()) < 8:
        return None
    return H


def pair_in_image(
    px: np.ndarray,
    H_mirror: np.ndarray,
    t: np.ndarray,
    full: np.ndarray,
    orient: np.ndarray,
    partner: np.ndarray,
    width_px: float,
) -> np.ndarray:
    """Cards left without a partner paired through the image mirror: one on each side of the
    centre line, facing it, of the same hole shape, within a fifth of a card of the place the
    mirror puts the other. A card that gains no partner keeps what it had."""
    partner = partner.copy()
    free = [i for i in range(len(px)) if partner[i] < 0 or partner[i] == i]
    if len(free) < 2:
        return partner
    pred = apply_homography(H_mirror, px[free])
    cand = []
    for a, i in enumerate(free):
        if t[i] <= 0 or orient[i] < 0:
            continue
        for j in free:
            if t[j] >= 0 or orient[j] > 0 or full[i] != full[j]:
                continue
            d = float(np.linalg.norm(pred[a] - px[j]))
            if d < 0.2 * width_px:
                cand.append((d, i, j))
    taken: set[int] = set()
    for _, i, j in sorted(cand):
        if i not in taken and j not in taken:
            partner[i], partner[j] = j, i
            taken.update((i, j))
    return partner


# -- the reader ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Facing:
    """The cards read along one axis as the search for a centre line without pairs weighs
    them (`Reader._glass_without_pairs`), indexed alike."""

    pos: np.ndarray
    """(n, 2) each card's face centre, table mm."""
    tops: list[float]
    """Each card's top edge along `axis` (`Reader._card_tops`)."""
    orient: np.ndarray
    """Which way along `axis` each card's top faces (+1, -1, or 0: the art does not say)."""
    facing: list[int]
    """The cards whose art says which way they face, clearly."""
    holes: list[Oriented]
    """Each card's outline in the processing image."""
    axis: np.ndarray
    """The glass's axis (mm, unit)."""


@dataclass(frozen=True)
class View:
    """One photograph as the steps of a read along one axis look at it: the full image (for
    cutting card windows), its white mask and table look at the processing size, and the
    table plane both ways. Made once a read, so that no step works any of it out again."""

    image: np.ndarray
    """Full resolution."""
    sc: float
    """Processing px over full-resolution px."""
    white: np.ndarray
    """`white_mask` of the processing image."""
    H_inv: np.ndarray
    """Table mm -> processing px."""
    table: Callable[[], TableLook]
    """What the bare table looks like, made for the first step that asks."""
    img_from_mm: np.ndarray = field(init=False)
    """Table mm -> full-resolution px."""

    def __post_init__(self) -> None:
        scale = np.diag([1 / self.sc, 1 / self.sc, 1.0])
        object.__setattr__(self, "img_from_mm", scale @ self.H_inv)

    @classmethod
    def of(
        cls, image: np.ndarray, small: np.ndarray, sc: float, white: np.ndarray, H_inv: np.ndarray
    ) -> View:
        """The view of `image` through its processing copy `small` (`processing_image`)."""
        return cls(image, sc, white, H_inv, cache(lambda: TableLook.of(small, white)))


class Reader:
    """Reads photographs with one card library. Keeps no state between images."""

    verifies = True
    """`verify` looks again for cards a reading lacks (`incremental` leaves changed ones out)."""

    def __init__(
        self,
        library: Library,
        *,
        use_markers: bool = True,
        threshold: float = CONFIDENCE_THRESHOLD,
        layouts: dict[str, Layout] | None = None,
        copies: dict[str, int] | None = None,
    ) -> None:
        self.lib = library
        self.use_markers = use_markers
        self.threshold = threshold
        self.layouts = load_layouts() if layouts is None else layouts
        self.copies: dict[str, int] = (
            dict(load_deck().copies(brawlers=True)) if copies is None else copies
        )
        """How many cards of each id the deck has: more named alike on one table is a
        misreading (`ask_unbacked_names`). `{}`: no such limit (a trial glass that lays each
        face as often as its places ask, `choose.taught_glass`)."""

    def read(
        self,
        image: np.ndarray,
        H_mm_from_image: np.ndarray | None = None,
        markers: dict[int, Marker] | None = None,
    ) -> Reading:
        """`H_mm_from_image`: the table registration if the caller has one (full-res px).
        `markers`: the markers the caller found in this frame (full-res px; the live loop's
        registration has them), so that they are not looked for again."""
        sc, small = processing_image(image)
        S = np.diag([sc, sc, 1.0])
        H_small = None
        via_markers, used = False, 0
        marks: list[np.ndarray] = []
        if H_mm_from_image is not None:
            H_small = H_mm_from_image @ np.linalg.inv(S)
            via_markers = True
            marks = [m.center * sc for m in (markers or {}).values()]
        elif self.use_markers:
            H_small, used, marks = self.marker_plane(image, sc, markers)
            via_markers = H_small is not None
        unit = work_unit()
        white = white_mask(small, unit)
        # The second look for interiors with a broken border (`_leaking_holes`, a quarter of
        # the hole finder's time for 0.07 interiors a frame) is taken only without the
        # markers' plane: with it, the plane needs no more cards, and a glass card whose
        # outline is broken is still found by the searches at its reflection's mirror place
        # and at its layout place.
        # The table framed round a marker by its white margin and a cloth's pale lines is no
        # card, and large enough to outvote the cards' direction.
        holes = [
            h
            for h in find_holes(small, white=white, unit=unit, second_look=H_small is None)
            if not any(
                cv2.pointPolygonTest(
                    h.corners.astype(np.float32), (float(m[0]), float(m[1])), False
                )
                >= 0
                for m in marks
            )
        ]
        warnings: list[str] = []
        if not holes:
            return Reading([], None, warnings)
        phi = dominant_angle(holes)
        options = [orient(holes, phi), orient(holes, phi + math.pi / 2)]
        spreads = [width_spread(o) for o in options]
        order = [0, 1] if spreads[0] <= spreads[1] else [1, 0]
        best: Reading | None = None
        for rank, k in enumerate(order):
            if (
                rank == 1
                and best is not None
                and best.cards
                and (spreads[order[1]] > spreads[order[0]] + 0.05)
            ):
                # The other axis is clearly wrong: card widths would disagree. (Unless the
                # first found nothing: a steep tilt foreshortens the widths of a landscape
                # glass more than its cards' long sides.)
                break
            if (
                rank == 1
                and best is not None
                and best.cards
                and all(c.confidence >= CONFIDENCE_THRESHOLD for c in best.cards)
                and float(np.median([c.confidence for c in best.cards])) >= REFLECTION_CONFIDENCE
            ):
                # A glass read along one axis, every card named, most clearly: along the
                # other the cards' sides are swapped and no glass is found (on 330
                # development tables and frames it never was); a third of frames would spend
                # ~8 ms to learn that. Squares of a patterned table framed by pale lines can
                # pass for a few cards named at 0.4-0.6 (with its deck taught from
                # photos seen in perspective): then the other axis is read too, and the
                # better reading kept.
                break
            # Two markers are taken only if the cards, read along this axis, agree on sizes.
            plane, marked = (
                (H_small, via_markers)
                if used != 2 or H_small is None or sized_like_cards(H_small, options[k], self.lib)
                else (None, False)
            )
            r = self._read_axis(image, small, sc, white, options[k], plane, marked)
            if best is None or _quality(r) > _quality(best):
                best = r
        assert best is not None
        if not best.cards and H_small is None:
            # The last pair of a round, alone and whole, can be outvoted by the score piles'
            # upper halves: at a steep tilt the piles lie far off and small, the pair near
            # and large, so the plane fitted to the piles measures the pair's cards as upper
            # halves turned sideways, or twice too long (where not reading the pair
            # let a hand's shadow decide the last pick). Whole card interiors alone fix a
            # plane of their own.
            for k in order:
                whole = [
                    o
                    for o in whole_interiors(options[k], self.lib, LAST_PAIR_SHAPE_TOLERANCE)
                    if _framed(white, o.hole.corners, unit=unit)
                ]
                # (Squares of a chequered cloth, foreshortened, are shaped like cards too, and
                # many; a cloth's squares have no white frame.)
                if 2 <= len(whole) <= LAST_CARDS and len(whole) < len(options[k]):
                    r = self._read_axis(image, small, sc, white, whole, None, False)
                    # Only pairs, a card and its reflection: a score pile's top cards, read
                    # apart from the pile's covered ones, can look alone (the glass's last
                    # cards with their reflections under an arm are read as they were).
                    if _quality(r) > _quality(best) and all(
                        any((o.half, o.row, o.col) == (1 - c.half, c.row, c.col) for o in r.cards)
                        for c in r.cards
                    ):
                        best = r
        best.warnings.extend(warnings)
        ask_unbacked_names(best.cards, self.copies, max(self.threshold, CONFIDENCE_THRESHOLD))
        if weak_reading(best.cards, best.layout):
            for c in best.cards:
                c.card = None
            best.warnings.append(WEAK_READING)
        return best

    def verify(
        self,
        image: np.ndarray,
        reading: Reading,
        prior: list[SeenCard],
        *,
        keep_looks: bool = False,
    ) -> Reading:
        """Cards seen in an earlier frame and missing from this reading are looked for where
        they lay. A card is still there (the finder lost it: to a shadow, or a card alone on
        the table, which no pair or neighbour backs) if the taught template of the same card
        still matches there clearly, or if the place still looks as the card did when the
        finder last found it by its outline, its template still the best (`own_look`: a card
        whose template matches poorly, one development table's last Queen at 0.53, still matches
        itself at
        0.98). A hand or the table under a taken card matches neither, nor does the card
        beneath, uncovered; nor is a checked cloth that matches a face well kept
        (`_table_in_face`: on one development table, whose kept phantoms stood in for a glass the
        players had
        emptied). A card of which only part still looks as it did is `Reading.hidden`:
        something lies over the rest, and the camera cannot say whether it is there.

        `keep_looks`: a card that has its look already keeps it (an incremental reading's
        cards whose pixels did not change since it was taken: `incremental.IncrementalReader`).
        """
        found = list(reading.cards)
        for c in found:
            if keep_looks and c.look is not None:
                continue
            if c.card is not None and c.provenance in (Provenance.SEEN, Provenance.VERIFIED):
                # (Only a card the finder found by its outline: one inferred where it should
                # lie may be the card beneath, and would be kept as long as that lies there.)
                c.look = self.own_look(image, c.quad)
        sc, small = processing_image(image)

        def look() -> tuple[TableLook, np.ndarray]:
            white = white_mask(small, work_unit())
            return TableLook.of(small, white), white

        table = cache(look)
        for old in prior:
            if old.card is None:
                continue
            width = float(np.linalg.norm(old.quad[1] - old.quad[0]))
            if any(np.linalg.norm(c.center - old.center) < 0.3 * width for c in found):
                continue
            scores = self.lib.match(descriptor(upper_window(image, old.quad, self.lib)))
            mine = float(scores[self.lib.ids.index(old.card)])
            others = float(np.max(np.delete(scores, self.lib.ids.index(old.card))))
            # Its own score when the finder last saw it: the card still there matches about
            # as well (the descriptor ignores light), the card beneath a taken one, now
            # uncovered, matches far worse even when its frame and stripe line up.
            own = float(old.scores.get(old.card, mine))
            # (Asked only of a card that would otherwise be kept or hidden: the table's look
            # costs more than the rest of this together.)
            on_cloth = cache(lambda old=old: self._table_in_face(*table(), old.quad * sc))
            if (
                mine >= max(VERIFY_SCORE, own - VERIFY_DROP)
                and confidence(mine, others) >= self.threshold
                and not on_cloth()
            ):
                found.append(self._kept(old, confidence(mine, others), {old.card: own}))
                continue
            if old.look is None:
                continue
            whole, cells = look_agreement(old.look, self.own_look(image, old.quad))
            same = whole >= OWN_LOOK_SAME and mine >= max(CARD_MIN_SCORE, others)
            if not (same or cells >= OWN_LOOK_PART) or on_cloth():
                # (A face the finder matched on a checked cloth looks as it did as long as
                # the cloth lies there.)
                continue
            if same:
                found.append(self._kept(old, old.confidence, {old.card: own, "own_look": whole}))
            else:
                reading.hidden.append(old)
        reading.cards = found
        return reading

    def own_look(self, image: np.ndarray, quad: np.ndarray) -> np.ndarray:
        """How the upper half of the card outlined by `quad` (image px) looks in `image`: a
        descriptor (`descriptor`) of it, rectified."""
        return descriptor(upper_window(image, quad, self.lib, 0))

    @staticmethod
    def _kept(old: SeenCard, conf: float, scores: dict[str, float]) -> SeenCard:
        """The remembered card `old`, found again where it lay."""
        return SeenCard(
            old.card,
            conf,
            old.center,
            old.quad,
            old.covered,
            old.half,
            old.row,
            old.col,
            old.center_mm,
            scores,
            old.full_hole,
            look=old.look,
            provenance=Provenance.VERIFIED,
        )

    def marker_plane(
        self, image: np.ndarray, sc: float, seen: dict[int, Marker] | None = None
    ) -> tuple[np.ndarray | None, int, list[np.ndarray]]:
        """Table plane in processing px -> mm from the corner markers, if >= 2 are seen, how
        many were, and the centres of all markers seen (processing px). The view often cuts
        off two of the four: the eight corners of the two left fix the plane better than the
        cards do. On 376 development tables with two in view, every card measured within 5 %
        of its size on their plane (0.5 % the median table); the cards' own plane is off by
        up to 7 % where their borders blur into the table, and skewed where few cards show.

        Markers are found as well on a copy `MARKER_WIDTH` wide, in half the time; that copy
        is cut from the full image because from 1280 or 1920 px wide it is an integer step
        down, which OpenCV's area resampling does several times faster. `seen`: markers
        the caller found in this frame (full-res px), taken instead of looking again."""
        from companion.vision.registration import TableRegistrar

        if seen is not None:
            markers = {i: Marker(i, m.corners * sc) for i, m in seen.items()}
        else:
            k = min(1.0, MARKER_WIDTH / image.shape[1])
            tiny = cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
            found = detect_markers(tiny)
            markers = {i: Marker(i, m.corners * (sc / k)) for i, m in found.items()}
        centres = [m.center for m in markers.values()]
        fit = TableRegistrar().fit(markers, 2)
        return (None, 0, centres) if fit is None else (fit.H, len(fit.ids), centres)

    def _read_axis(
        self,
        image: np.ndarray,
        small: np.ndarray,
        sc: float,
        white: np.ndarray,
        items: list[Oriented],
        H_small: np.ndarray | None,
        via_markers: bool,
    ) -> Reading:
        shape = self.lib.shape
        W, Hc, b = CARD_W_MM, shape.height_mm, shape.border_mm
        wi, hi_full, hi_half = W - 2 * b, Hc - 2 * b, Hc / 2 - b
        if H_small is None:
            H_small = plane_from_cards(items, self.lib)
            if H_small is None:
                return Reading([], None, [])
        # Everything in mm from here on.
        cards_mm = []
        # Each hole's corners and the ends of its width in the image, all mapped in one call
        # (point by point the same numbers).
        mapped = apply_homography(
            H_small,
            np.array(
                [
                    p
                    for o in items
                    for p in (
                        *o.hole.corners,
                        o.centre - o.width_vec / 2,
                        o.centre + o.width_vec / 2,
                    )
                ]
            ),
        ).reshape(-1, 6, 2)
        for o, points in zip(items, mapped, strict=True):
            quad = points[:4]
            e1, e2 = _sides(quad)
            # The mm side that corresponds to the image width side.
            wv_mm = points[5] - points[4]
            d1 = abs(float(np.dot(e1, wv_mm)))
            d2 = abs(float(np.dot(e2, wv_mm)))
            l1, l2 = _length(e1), _length(e2)
            wv, hv, wl, hl = (e1, e2, l1, l2) if d1 / l1 >= d2 / l2 else (e2, e1, l2, l1)
            if not (0.75 * wi < wl < 1.3 * wi) or not (0.6 * hi_half < hl < 1.2 * hi_full):
                continue
            cards_mm.append((o, quad.sum(axis=0) / 4, wv / wl, hv / hl, hl))
        if len(cards_mm) < 2:
            return Reading([], None, [])
        # Glass axis = mean height direction (mod 180°).
        z = sum(
            complex(math.cos(2 * math.atan2(h[1], h[0])), math.sin(2 * math.atan2(h[1], h[0])))
            for _, _, _, h, _ in cards_mm
        )
        ang = math.atan2(z.imag, z.real) / 2
        axis = np.array([math.cos(ang), math.sin(ang)])
        H_inv = np.linalg.inv(H_small)
        # What the bare table looks like is made for the first place that asks (an arm's
        # cases only), once for every step of this read that asks.
        v = View.of(image, small, sc, white, H_inv)
        # Which end is the top: the art says so (templates match one way round only). The
        # glass's cards face its centre line, which runs through the middle of the cards
        # seen: that end is looked at first, and the other only if the first is not clearly
        # a top (`ORIENT_SURE`).
        middle = np.mean([c for _, c, *_ in cards_mm], axis=0)
        looks: list[list[Any]] = []
        for _o, centre, _wv, hv, hl in cards_mm:
            hv = hv if float(hv @ axis) > 0 else -hv
            first = 0 if float(hv @ (centre - middle)) >= 0 else 1
            pair: list[Any] = [None, None]
            pair[first] = self._look(v, centre, (1 - 2 * first) * hv, hl)
            if _top_score(pair[first]) < ORIENT_SURE:
                pair[1 - first] = self._look(v, centre, (2 * first - 1) * hv, hl)
            looks.append(pair)
        # Something no template matches at all is not a card (a patch of cloth, a coin).
        keep = [
            i
            for i, (plus, minus) in enumerate(looks)
            if max(_top_score(plus), _top_score(minus)) >= CARD_MIN_SCORE
        ]
        cards_mm = [cards_mm[i] for i in keep]
        looks = [looks[i] for i in keep]
        if len(cards_mm) < 2:
            return Reading([], None, [])
        orient = np.zeros(len(cards_mm), int)
        for i, (plus, minus) in enumerate(looks):
            gap = _top_score(plus) - _top_score(minus)
            orient[i] = 1 if gap > ORIENT_MARGIN else (-1 if gap < -ORIENT_MARGIN else 0)
        unsure = [
            i
            for i, (plus, minus) in enumerate(looks)
            if orient[i] == 0 and max(_top_score(plus), _top_score(minus)) < VERIFY_SCORE
        ]
        if unsure and (orient != 0).any():
            # A hole whose direction no template tells and that no taught face matches well may
            # be a block of a chequered cloth's squares, framed by the pale lines where squares
            # meet; it would pair with a score pile's card at its mirror place and bring the
            # pile into the glass. Its frame is coloured, a card's border is not.
            rings = {
                i: ring_chroma(small, cards_mm[i][0].hole.corners, work_unit())
                for i in [*unsure, *np.nonzero(orient)[0]]
            }
            cards_ring = float(np.median([rings[i] for i in np.nonzero(orient)[0]]))
            keep = [
                i
                for i in range(len(cards_mm))
                if i not in unsure or rings[i] <= cards_ring + RING_CHROMA_SLACK
            ]
            cards_mm = [cards_mm[i] for i in keep]
            looks = [looks[i] for i in keep]
            orient = orient[keep]
            if len(cards_mm) < 2:
                return Reading([], None, [])
        pos = np.array([c for _, c, _, _, _ in cards_mm])
        full = np.array([hl > (hi_full + hi_half) / 2 for *_, hl in cards_mm])
        c_t, partner, axis = centre_line(
            pos, axis, full, orient, np.array(self._card_tops(cards_mm, orient, axis)[0])
        )
        if not (partner >= 0).any():
            c_t, partner = self._glass_without_pairs(v, cards_mm, looks, orient, axis, c_t, partner)
        elif (partner < 0).any():
            self._hidden_reflections(v, cards_mm, pos, looks, orient, axis, c_t, partner)
        px = np.array([o.centre for o, *_ in cards_mm])
        width_px = float(np.median([_length(o.width_vec) for o, *_ in cards_mm]))
        H_mirror = mirror_homography(px, partner, width_px)
        for _ in range(3):
            # Each pair found steadies the mirror where it was extrapolated (the far corners
            # at a steep tilt): refit, and look again.
            if H_mirror is None:
                break
            paired = pair_in_image(px, H_mirror, pos @ axis - c_t, full, orient, partner, width_px)
            if (paired == partner).all():
                break
            partner = paired
            refit = mirror_homography(px, partner, width_px)
            H_mirror = H_mirror if refit is None else refit
        seen: list[SeenCard] = []
        seen_at: dict[int, SeenCard] = {}
        for idx, (o, centre, _wv, _hv, hl) in enumerate(cards_mm):
            side = 1 if centre @ axis > c_t else -1
            if partner[idx] < 0 or orient[idx] == -side:
                continue
            _quick, d, tl, _r, window = looks[idx][0 if side > 0 else 1]
            scores = self.lib.match(window)
            quad_mm = _quad_mm(tl, d, W, Hc)
            if partner[idx] == idx and (
                float(scores.max()) < VERIFY_SCORE
                or self._table_in_face(v.table(), white, apply_homography(H_inv, quad_mm))
            ):
                # Neither a reflection nor a taught face backs it: a patch of cloth next to
                # the glass, not a card the companion should ask about. Nor is a hole whose
                # art is the cloth (squares of a checked cloth between two cards,
                # closed above by squares a glare turned pale, matched a face at 0.63; of the
                # 1,398 cards without a reflection read on the cached development tables,
                # none had more than 0.63 of its art in the table's colours or white, this
                # hole 0.96).
                continue
            top = centre - d * hl / 2
            cmm = top + (Hc / 2 - b) * d
            quad_img = apply_homography(H_inv, quad_mm) / sc
            cen_img = apply_homography(H_inv, cmm[None])[0] / sc
            t_abs = abs(float(cmm @ axis) - c_t)
            row = row_at(t_abs, Hc)
            # Covered: the hole is the upper half, or an L (a card lies on one corner).
            covered = hl < (hi_full + hi_half) / 2 or o.hole.overlaid
            card = SeenCard(
                None,
                0.0,
                cen_img,
                quad_img,
                covered,
                0 if side > 0 else 1,
                row,
                0,
                cmm,
                full_hole=bool(hl > (hi_full + hi_half) / 2),
                quad_mm=quad_mm,
            )
            self._name(card, scores)
            if card.confidence < max(self.threshold, CONFIDENCE_THRESHOLD):
                self._name_by_cells(card, scores, self._card_patch(v.image, v.img_from_mm, tl, d))
            seen.append(card)
            seen_at[idx] = card
        places = GlassPlaces(axis, c_t)
        lone = [c for i, c in seen_at.items() if partner[i] == i]
        shown = self._lower_halves_shown(image, lone, seen, places)
        seen = [c for c in seen if id(c) not in shown]
        seen_at = {i: c for i, c in seen_at.items() if id(c) not in shown}
        _coverage(seen, places, W, Hc)
        pairs = [
            (seen_at[i], seen_at[int(j)])
            for i, j in enumerate(partner)
            if i < j and i in seen_at and int(j) in seen_at
        ]
        # (By the default threshold, not the caller's: what is the glass must not depend on
        # how sure a name has to be; the benchmark reads at 0 and sweeps the threshold.)
        cloth = [
            (a, b_)
            for a, b_ in pairs
            if max(a.confidence, b_.confidence) < CONFIDENCE_THRESHOLD
            and max(c.scores.get(cid, 0.0) for c in (a, b_) for cid in self.lib.ids) < VERIFY_SCORE
        ]
        if cloth:
            # Two squares of a chequered cloth can face each other like a pair; a pair of
            # which neither card can be named nor matches a taught face well is not the
            # glass.
            gone = {id(c) for pair in cloth for c in pair}
            seen = [c for c in seen if id(c) not in gone]
            pairs = [p for p in pairs if p not in cloth]
        for a, b_ in pairs:
            places.align(a, b_)
        alone = [seen_at[i] for i, j in enumerate(partner) if i == j and i in seen_at]
        seen.extend(self.reflections(v, alone, seen, axis, c_t, H_mirror))
        layout, fits = self._columns(seen, places)
        if fits:
            seen.extend(self.layout_places(v, seen, fits, axis, c_t))
        # A card found only now (by its reflection, or at its layout place) can lie on one
        # found before, whose lower half a glare hid along with its cover's border.
        _coverage(seen, places, W, Hc)
        mirror_coverage(seen, places, W, Hc)
        seen.sort(key=lambda c: (c.half, c.row, c.col))
        return Reading(seen, layout, [], H_small @ np.diag([sc, sc, 1.0]), axis, c_t, via_markers)

    def _lower_halves_shown(
        self, image: np.ndarray, lone: list[SeenCard], seen: list[SeenCard], places: GlassPlaces
    ) -> set[int]:
        """The cards of `lone` (by `id`) that would lie on a named card of `seen` of the row
        inward whose own lower half still shows there (`slots.lower_half_shown` from
        `SEEN_LOWER_SHOWN`): a card lies on the lower half it covers and hides it, so where
        that half still matches its taught face no card lies there. A free card that a
        glare's pale streak cuts in two is two holes: its upper half, taken for a covered
        card, and its lower half, taken for the upper half of a card of the next row out,
        which its art can name (a light-bordered photo-art deck on a pale cloth: a phantom
        that also called the card under it covered). Only cards no reflection's hole backs
        (`lone`) are looked at: a card paired with its reflection has a second outline of
        its own, and each look costs a warp and a correlation (~1-2 ms on a loaded machine)."""
        W, Hc = CARD_W_MM, self.lib.shape.height_mm
        out: set[int] = set()
        for c in lone:
            for u in seen:
                if u.card is None or not _lies_on(places, c, u, W, Hc):
                    continue
                face = face_lightness(self.lib, u.card)
                if face is not None and (
                    lower_half_shown(image, u.quad, face, Hc, c.quad) >= SEEN_LOWER_SHOWN
                ):
                    out.add(id(c))
                    break
        return out

    def reflections(
        self,
        v: View,
        alone: list[SeenCard],
        seen: list[SeenCard],
        axis: np.ndarray,
        c_t: float,
        H_mirror: np.ndarray | None = None,
    ) -> list[SeenCard]:
        """The reflections the finder lost of cards found without one (its outline broken by
        a hand, a glare, a neighbour's shadow): every glass card has a reflection, so it is
        looked for where the mirror puts it. Dealt by hand, it may lie a few mm and degrees
        off, so a small neighbourhood is searched; it is kept only if a taught card matches
        there as clearly as `verify` asks, so an empty place is never reported."""
        found: list[SeenCard] = []
        H_small = np.linalg.inv(v.H_inv)
        for card in alone:
            # Where the centre line puts it, and where the pairs seen in the image do (free of
            # the plane's errors, but extrapolated at the glass's far corners): both looked at.
            places = [_mirrored(card.center_mm[None], axis, c_t)[0]]
            if H_mirror is not None:
                at = apply_homography(H_mirror, (card.center * v.sc)[None])
                places.insert(0, apply_homography(H_small, at)[0])
            q = card.quad_mm
            # A card found there already (the reflection a little off) is the one.
            if q is None or _card_at(places[0], seen + found):
                continue
            refl = _mirrored(q, axis, c_t)
            d0 = refl[3] - refl[0]
            d0 /= np.linalg.norm(d0)
            looked = [
                self._search(v, mirror, d0)
                for k, mirror in enumerate(places)
                if k == 0
                or (np.linalg.norm(mirror - places[0]) > 5.0 and not _card_at(mirror, seen + found))
            ]
            _top, scores, quad_mm, _, _ = max(looked, key=lambda got: got[0])
            if self._face_found(v, quad_mm, scores):
                place = (1 - card.half, card.row, 0)
                found.append(
                    self._inferred(v, quad_mm, scores, card.covered, place, Provenance.REFLECTED)
                )
        return found

    def _inferred(
        self,
        v: View,
        quad_mm: np.ndarray,
        scores: np.ndarray,
        covered: bool,
        place: tuple[int, int, int],
        provenance: Provenance,
    ) -> SeenCard:
        """The card a search found at `quad_mm` (its window's `scores`) where no outline was,
        named: `place` is its (half, row, column)."""
        cmm = quad_mm.mean(axis=0)
        card = SeenCard(
            None,
            0.0,
            apply_homography(v.H_inv, cmm[None])[0] / v.sc,
            apply_homography(v.H_inv, quad_mm) / v.sc,
            covered,
            *place,
            cmm,
            full_hole=False,
            quad_mm=quad_mm,
            provenance=provenance,
        )
        self._name(card, scores)
        return card

    def _card_tops(
        self, cards_mm: list, orient: np.ndarray, axis: np.ndarray
    ) -> tuple[list[float], list[np.ndarray]]:
        """Each card's top edge along `axis` and its whole face's centre (mm), the card read
        the way `orient` says (its interior hole may be only its upper half)."""
        b, Hc = self.lib.shape.border_mm, self.lib.shape.height_mm
        tops, cmms = [], []
        for i, (_o, centre, _wv, _hv, hl) in enumerate(cards_mm):
            d = (orient[i] or 1) * axis
            hole_top = centre - d * hl / 2
            tops.append(float((hole_top - b * d) @ axis))
            cmms.append(hole_top + (Hc / 2 - b) * d)
        return tops, cmms

    def _hidden_reflections(
        self,
        v: View,
        cards_mm: list,
        pos: np.ndarray,
        looks: list,
        orient: np.ndarray,
        axis: np.ndarray,
        c_t: float,
        partner: np.ndarray,
    ) -> None:
        """Cards of the glass far from the rest of it whose reflections an arm hides: a card
        facing the line on one of its rows is taken (`partner` in place: itself) if part of
        a taught face shows where its reflection lies, or if it lies on the glass's columns
        within a layout card and something neither card nor table covers its mirror place;
        and so are the cards next to it. A score pile's card lies on the rows too, but
        nothing lies at its mirror place, or it lies beyond any layout."""
        Hc = self.lib.shape.height_mm
        tops, cmms = self._card_tops(cards_mm, orient, axis)
        added = False
        lateral = np.array([-axis[1], axis[0]])
        paired_s = np.array([float(cmms[k] @ lateral) for k in np.nonzero(partner >= 0)[0]])
        paired = [k for k in range(len(partner)) if partner[k] >= 0 and partner[k] != k]
        known_layout = cache(lambda: self._in_a_layout(cmms, partner, paired, [], axis, c_t))
        for j in np.nonzero(partner < 0)[0].tolist():
            side = 1 if float(cmms[j] @ axis) > c_t else -1
            tolerance = row_tolerance(float(cmms[j] @ lateral), paired_s)
            if (
                orient[j] != side
                or not on_a_row(tops[j], c_t, int(orient[j]), Hc, tolerance)
                or _top_score(looks[j][0 if side > 0 else 1]) < VERIFY_SCORE
            ):
                continue
            stack = [j, *_stacked_on(cmms, j, lateral)]
            if known_layout() and not (
                self._in_a_layout(cmms, partner, paired, stack, axis, c_t)
                or self._joined_to_glass(v, cmms, np.nonzero(partner >= 0)[0], stack, axis, c_t)
            ):
                continue  # beyond the layout card the glass lies on: a score pile
            mirror = _mirrored(cmms[j][None], axis, c_t)[0]
            taken = self._partly_seen(v, mirror, -orient[j] * axis) or (
                self._arm_over_reflection(v, cmms, partner, paired, j, axis, c_t, -orient[j] * axis)
            )
            if taken:
                partner[j] = j
                added = True
        if added:
            grow_glass(pos, axis, c_t, orient, partner)

    def _arm_over_reflection(
        self,
        v: View,
        cmms: list[np.ndarray],
        partner: np.ndarray,
        glass: list[int],
        j: int,
        axis: np.ndarray,
        c_t: float,
        down: np.ndarray,
    ) -> bool:
        """Whether card `j` (its top edge square to `down`) is of the glass though nothing of
        its reflection shows: with the cards stacked on it in its column it lies on the
        glass's columns within a layout card (`glass` the cards known to be the glass), and
        something neither card nor table covers its mirror place."""
        lateral = np.array([-axis[1], axis[0]])
        stack = [j, *_stacked_on(cmms, j, lateral)]
        if not (
            self._in_a_layout(cmms, partner, glass, stack, axis, c_t)
            or self._joined_to_glass(v, cmms, np.nonzero(partner >= 0)[0], stack, axis, c_t)
        ):
            return False
        mirror = _mirrored(cmms[j][None], axis, c_t)[0]
        return self._hidden_place(v, mirror, down)

    def _joined_to_glass(
        self,
        v: View,
        cmms: list[np.ndarray],
        glass: np.ndarray,
        js: list[int],
        axis: np.ndarray,
        c_t: float,
    ) -> bool:
        """Whether cards `js` (a card and those stacked on it in its column) lie joined to the
        glass that the cards `glass` span: across it no further than one card beyond its
        outermost columns and out from the line no further than its outermost row, or further
        across, by at most one card's room with no bare table in it, between one of them and
        the glass (an arm across the middle of the glass hides the cards that join them, and
        its further rows; an arm over the room between a score pile and the glass can
        hide that gap, but not the table between glass cards several columns apart).
        A layout no layout card shows is read from the table; a score pile lies
        beside the glass, apart from it: what lies joined to it is the glass, even with its
        mirror place under an arm."""
        if len(glass) < 2:
            return False
        Hc = self.lib.shape.height_mm
        lateral = np.array([-axis[1], axis[0]])
        s = np.array([float(cmms[k] @ lateral) for k in glass])
        last_row = max(row_at(abs(float(cmms[k] @ axis) - c_t), Hc) for k in glass)
        slack = CARD_W_MM + COLUMN_TOLERANCE * CARD_W_MM / 2
        beside = [j for j in js if s.min() - slack <= float(cmms[j] @ lateral) <= s.max() + slack]
        if len(beside) == len(js):
            # In front of a player, beyond the glass's rows, lies a score pile.
            return all(row_at(abs(float(cmms[j] @ axis) - c_t), Hc) <= last_row for j in js)
        for j in js:
            sj, tj = float(cmms[j] @ lateral), float(cmms[j] @ axis)
            if j in beside:
                continue
            near = float(s[np.argmin(np.abs(s - sj))])
            if abs(sj - near) > slack + CARD_W_MM:
                continue  # more than one card's room between: the arm need not join them
            a, b_ = sorted((near, sj))
            a, b_ = a + CARD_W_MM / 2, b_ - CARD_W_MM / 2
            t0, t1 = sorted((tj, tj + (Hc / 2 if tj < c_t else -Hc / 2)))
            gap = np.array(
                [
                    a * lateral + t0 * axis,
                    b_ * lateral + t0 * axis,
                    b_ * lateral + t1 * axis,
                    a * lateral + t1 * axis,
                ]
            )
            between = _place_region(v, gap)
            if between.count() and _bare_share(v.table(), v.white, between) <= JOIN_BARE_SHARE:
                return True
        return False

    def _in_a_layout(
        self,
        cmms: list[np.ndarray],
        partner: np.ndarray,
        paired: list[int],
        js: list[int],
        axis: np.ndarray,
        c_t: float,
    ) -> bool:
        """Whether cards `js` lie on columns of the glass (as the cards `paired`, known to be
        the glass, set them) and, with them, on the cells of a known layout card: a score pile
        lies beside the glass, further out than any layout reaches."""
        lateral = np.array([-axis[1], axis[0]])
        if not paired:
            return False
        own = np.array([float(cmms[k] @ lateral) for k in range(len(cmms))])
        # A pair's mean is where both its cards lie (one half may be shifted sideways against
        # the other: see the pairs' mean in `_read_axis`); a card alone is moved by its
        # half's shift.
        mean = {k: (own[k] + own[partner[k]]) / 2 for k in paired}
        side = np.sign(np.array([float(c @ axis) - c_t for c in cmms]))
        alone = []
        for j in js:
            shift = [own[k] - mean[k] for k in paired if side[k] == side[j]]
            alone.append(own[j] - (float(np.median(shift)) if shift else 0.0))
        s = np.array([mean[k] for k in paired] + alone) / (CARD_W_MM / 2)
        phase = column_phase(s[: len(paired)])
        cols = s - phase
        # A card's column is where the glass's columns lie, or whole steps from the nearest
        # glass card's: dealt by hand and measured on a plane that is only so good across the
        # glass, far cards may set the columns a quarter off.
        for i in range(len(paired), len(s)):
            near = int(np.argmin(np.abs(s[: len(paired)] - s[i])))
            step = s[i] - s[near]
            if abs(cols[i] - round(cols[i])) <= COLUMN_TOLERANCE:
                continue
            if abs(step - round(step)) > COLUMN_TOLERANCE:
                return False
            cols[i] = round(cols[near]) + round(step)
        return self._on_layout_cells(cmms, [*paired, *js], cols, axis, c_t)

    def _on_layout_cells(
        self,
        cmms: list[np.ndarray] | np.ndarray,
        ks: list[int],
        s: np.ndarray,
        axis: np.ndarray,
        c_t: float,
    ) -> bool:
        """Whether cards `ks` lie on the cells of a known layout card: their rows from the
        centre line at `c_t`, their columns from `s`, their places across the glass in
        half-card widths from a column (phase taken off)."""
        cols = np.round(s).astype(int)
        rows = [row_at(abs(float(cmms[k] @ axis) - c_t), self.lib.shape.height_mm) for k in ks]
        return bool(
            layout_fits(set(zip(rows, (cols - cols.min()).tolist(), strict=True)), self.layouts)
        )

    def _hidden_place(
        self, v: View, centre: np.ndarray, down: np.ndarray, table_share: float = BARE_TABLE_SHARE
    ) -> bool:
        """Whether something that is neither a card nor the bare table (an arm) lies over the
        place centred at `centre` (mm, the card's top edge square to `down`): no white border
        shows there, and the table's colours do not. Only the upper half is looked at: it is
        all of a reflection that shows once the next row covers the rest."""
        return _arm_in(v.table(), v.white, self._place_art(v, centre, down), table_share)

    def _table_in_face(self, look: TableLook, white: np.ndarray, quad: np.ndarray) -> bool:
        """Whether the face matched in the card outline `quad` (processing px, top edge first)
        is the table's pattern: `TABLE_FACE_SHARE` of its upper half's art in the table's
        colours."""
        W, Hc, b = CARD_W_MM, self.lib.shape.height_mm, self.lib.shape.border_mm
        art = apply_homography(
            card_to_image(quad, Hc), np.array([[b, b], [W - b, b], [W - b, Hc / 2], [b, Hc / 2]])
        )
        inside = Region.in_image(white.shape, art)
        return (
            inside.count() > 0
            and float((look.common[colour_bins(look.lab(inside))] | inside.of(white)).mean())
            >= TABLE_FACE_SHARE
        )

    def _place_art(self, v: View, centre: np.ndarray, down: np.ndarray) -> Region:
        """The processing-image pixels of the art of the upper half of the place centred at
        `centre` (mm, the card's top edge square to `down`)."""
        W, Hc, b = CARD_W_MM, self.lib.shape.height_mm, self.lib.shape.border_mm
        r = np.array([down[1], -down[0]])
        tl = self._top_left(centre, down, 0.0, 0.0)
        art = np.array(
            [
                tl + b * (r + down),
                tl + (W - b) * r + b * down,
                tl + (W - b) * r + (Hc / 2) * down,
                tl + b * r + (Hc / 2) * down,
            ]
        )
        return _place_region(v, art)

    def _glass_without_pairs(
        self,
        v: View,
        cards_mm: list,
        looks: list,
        orient: np.ndarray,
        axis: np.ndarray,
        c_t: float,
        partner: np.ndarray,
    ) -> tuple[float, np.ndarray]:
        """The centre line when no facing pair was found: late in a round an arm across the
        middle can hide every reflection. Rows step half a card out from the line, so each
        card facing it says where the line may lie (its own row unknown: one guess per row).
        A guess is believed only if a taught card matches clearly (as the reflection search
        asks) where it puts some card's reflection, and some of a white border shows round
        it (or, for a card lying alone, part of a face shows there; or, for a card and the
        few next to it, an arm lies at their mirror places as `_last_cards_under_arm` asks),
        and then only the cards on its rows that touch such a card, one neighbour after
        another, and cards apart from them that an arm hides the reflection of (as
        `_hidden_reflections` asks) are the glass (`_grow_without_pairs`): score piles and
        other cards lie apart. The line returned is the one the glass's cards put it at.
        (Among the many lines a score pile suggests, one put a reflection on a chequered
        cloth, where a taught face matched clearly: no card's border was there.)"""
        Hc = self.lib.shape.height_mm
        tops, cmms = self._card_tops(cards_mm, orient, axis)
        facing = [
            i
            for i in range(len(cards_mm))
            if orient[i] != 0 and _top_score(looks[i][0 if orient[i] > 0 else 1]) >= VERIFY_SCORE
        ]
        guesses = []
        for i in facing:
            for row in range(4):
                c = tops[i] - orient[i] * (GAP_MM / 2 + row * Hc / 2)
                on_rows = [j for j in facing if on_a_row(tops[j], c, int(orient[j]), Hc)]
                guesses.append((len(on_rows), -row, c, on_rows))
        ranked = sorted(guesses, key=lambda g: g[:2], reverse=True)
        f = Facing(np.array(cmms), tops, orient, facing, [o for o, *_ in cards_mm], axis)
        groups = neighbour_groups(f.pos)
        alone = [len(group) == 1 for group in groups]
        # The twelve lines most cards agree on, then every card's own first row: the last
        # card of a round, its reflection under an arm, agrees with no other card; then its
        # second: an arm over the middle of the glass can leave one card of its second row
        # in view, and part of its reflection, while the score piles' cascades
        # suggest more lines than twelve.
        tried: list[float] = []
        lines: list[tuple[int, int, float, list[int]]] = []
        own_rows = [g for g in ranked if g[1] == 0] + [g for g in ranked if g[1] == -1]
        for n, g in enumerate(ranked + own_rows):
            if len(lines) >= 12 and n < len(ranked):
                continue
            if not any(abs(g[2] - o) < ROW_TOLERANCE_MM for o in tried):
                tried.append(g[2])
                lines.append(g)
        for _n, _row, c, on_rows in lines:
            backed = []
            for j in on_rows:
                mirror = _mirrored(cmms[j][None], axis, c)[0]
                searched = self._search(v, mirror, -orient[j] * axis, give_up=0.3)
                # Part of a face is enough only for a card lying alone, the last of a round:
                # a score pile's cards lie in cascades, and among the many lines they suggest
                # one puts a pile card's mirror on some card an arm partly hides. (That arm
                # breaks the frame too: the frame is asked of a clear match only.)
                art = apply_homography(v.H_inv, inset(searched[2], self.lib.shape.border_mm))
                if (
                    (
                        clear_match(searched[1])
                        and _frame_fraction(v.white, art, work_unit()) >= LINE_FRAME
                        and not self._table_in_face(
                            v.table(), v.white, apply_homography(v.H_inv, searched[2])
                        )
                    )
                    or (alone[j] and self._partly_seen(v, mirror, -orient[j] * axis, searched))
                    or (
                        len(groups[j]) <= LAST_CARDS
                        and self._last_cards_under_arm(v, f, on_rows, j, groups[j], c)
                    )
                ):
                    backed.append(j)
            if not backed:
                backed = self._halves_under_arm(v, f, on_rows, c)
            if not backed:
                continue
            partner = partner.copy()
            return self._grow_without_pairs(v, f, on_rows, set(backed), partner, c), partner
        return c_t, partner

    def _grow_without_pairs(
        self, v: View, f: Facing, on_rows: list[int], glass: set[int], partner: np.ndarray, c: float
    ) -> float:
        """Grows `glass` (the cards backing the line at `c`, on its rows `on_rows`; `partner`
        in place: itself) by the cards on the line's rows that touch it, one neighbour after
        another; then moves the line to where the glass's cards say, not where the card that
        first suggested it did (any card within a row's tolerance may have, a score pile's
        too), and grows it again on the rows of that line, by cards apart from it
        too whose reflections an arm hides. An arm across the middle columns can part the
        glass: such a card is the glass too if it passes `_hidden_reflections`' test
        with this glass for the pairs. Its row may lie further off, as there: the line's
        direction comes from the cards' own, each dealt a little askew. The cards lying on it
        in its column lie on the rows too (`_cascade_on_rows`). The glass only grows. Returns
        the line."""
        Hc = self.lib.shape.height_mm
        self._grow_by_neighbours(f, on_rows, glass, partner)
        c = line_through([f.tops[k] for k in sorted(glass)], f.orient[sorted(glass)], c, Hc)
        on_rows = [j for j in f.facing if on_a_row(f.tops[j], c, int(f.orient[j]), Hc)]
        lateral = np.array([-f.axis[1], f.axis[0]])
        cmms = list(f.pos)
        while True:
            self._grow_by_neighbours(f, on_rows, glass, partner)
            glass_s = np.array([float(cmms[k] @ lateral) for k in glass])

            def on_rows_here(k: int, glass_s: np.ndarray = glass_s) -> bool:
                return on_a_row(
                    f.tops[k],
                    c,
                    int(f.orient[k]),
                    Hc,
                    row_tolerance(float(cmms[k] @ lateral), glass_s),
                )

            more = next(
                (
                    j
                    for j in f.facing
                    if j not in glass
                    and on_rows_here(j)
                    and _cascade_on_rows(cmms, j, lateral, f.facing, on_rows_here)
                    and self._arm_over_reflection(
                        v, cmms, partner, sorted(glass), j, f.axis, c, -f.orient[j] * f.axis
                    )
                ),
                None,
            )
            if more is None:
                return c
            glass.add(more)

    @staticmethod
    def _grow_by_neighbours(
        f: Facing, on_rows: list[int], glass: set[int], partner: np.ndarray
    ) -> None:
        """Grows `glass` by the cards on `on_rows` that touch it, one neighbour after another
        (`partner` in place: itself)."""
        grown = True
        while grown:
            grown = False
            for j in on_rows:
                if (
                    j not in glass
                    and min(np.linalg.norm(f.pos[j] - f.pos[k]) for k in glass) < NEIGHBOUR_MM
                ):
                    glass.add(j)
                    grown = True
        for j in glass:
            partner[j] = j

    def _halves_under_arm(self, v: View, f: Facing, on_rows: list[int], c: float) -> list[int]:
        """The cards on the rows of the line at `c`, if they are what an arm across the middle
        of a larger glass leaves of it, every reflection under the arm. Believed only if
        together they lie on the cells of a layout card (columns from where they lie across
        the glass, rows from the line; both halves share the cells) and every card faces the
        line from its own side. Cards of both halves: at each one's mirror
        place no card lies and no card's border shows, and at some on each side an arm lies
        (`_hidden_place`) or part of a face shows. Cards of one half: as for the
        last cards of a round (`_last_cards_under_arm`), the line lies just across the top
        edge of one of them, they lie well inside the image, and an arm lies at each one's
        mirror place, or part of a face shows there. Score piles lie in front of their
        players, beyond any layout's rows or off its columns, or with bare table at their
        mirror places, and a pile's cascade steps further than a row, so a card lying on one
        of them in its column lies off the rows: that card and the cards lying with it are
        left out, and the rest judged without them."""
        pos, tops, orient, axis = f.pos, f.tops, f.orient, f.axis
        if len(on_rows) < 2 or not _from_own_sides(tops, orient, f.facing, c):
            return []
        lateral = np.array([-axis[1], axis[0]])
        Hc = self.lib.shape.height_mm
        piles = [
            k
            for k in on_rows
            if not _cascade_on_rows(
                list(pos), k, lateral, f.facing, lambda m: on_a_row(tops[m], c, int(orient[m]), Hc)
            )
        ]
        if piles:
            # A score pile's cascade. A pile card's top can lie on a row of the line far from
            # the glass (under a hand over half a wall it is then the only card off the
            # glass); the cards lying apart from the pile (no neighbour of its, one after
            # another) are judged without it.
            groups = neighbour_groups(pos)
            on_rows = [k for k in on_rows if not any(k in groups[p] for p in piles)]
            if len(on_rows) < 2:
                return []
        s = np.array([float(pos[k] @ lateral) for k in on_rows]) / (CARD_W_MM / 2)
        s -= column_phase(s)
        if (np.abs(s - np.round(s)) > COLUMN_TOLERANCE).any() or not self._on_layout_cells(
            pos, on_rows, s, axis, c
        ):
            return []
        sides = {int(orient[k]) for k in on_rows}
        if len(sides) == 1:
            first_row = any(abs(abs(tops[k] - c) - GAP_MM / 2) < ROW_TOLERANCE_MM for k in on_rows)
            return (
                list(on_rows)
                if first_row
                and _inside_view(v.white, f.holes, on_rows)
                and all(self._arm_at_mirror(v, f, k, c, part_of_face=True) for k in on_rows)
                else []
            )
        hidden = set()
        for k in on_rows:
            mirror = _mirrored(pos[k][None], axis, c)[0]
            down = -orient[k] * axis
            inside = self._place_art(v, mirror, down)
            if _centre_at(mirror, pos) or not _borderless(v.white, inside):
                return []
            if _arm_in(v.table(), v.white, inside) or self._partly_seen(v, mirror, down):
                hidden.add(int(orient[k]))
        return list(on_rows) if hidden == sides else []

    def _arm_at_mirror(
        self, v: View, f: Facing, k: int, c: float, part_of_face: bool = False
    ) -> bool:
        """Whether an arm lies at card `k`'s mirror in the line at `c` (`_hidden_place`, at
        most `LAST_CARD_TABLE_SHARE` of the place in the table's colours), or, with
        `part_of_face`, part of a taught face shows there; and no card lies there, found
        (`pos`: the cards' centres) or matched clearly by a taught face (a face whose border
        is gone is no arm)."""
        mirror = _mirrored(f.pos[k][None], f.axis, c)[0]
        down = -f.orient[k] * f.axis
        if float(np.linalg.norm(f.pos - mirror, axis=1).min()) <= CARD_W_MM:
            return False
        arm = self._hidden_place(v, mirror, down, LAST_CARD_TABLE_SHARE)
        if not (arm or part_of_face):
            return False
        searched = self._search(v, mirror, down, give_up=0.3)
        if clear_match(searched[1]):
            return False
        return arm or self._partly_seen(v, mirror, down, searched)

    def _last_cards_under_arm(
        self, v: View, f: Facing, on_rows: list[int], j: int, group: list[int], c: float
    ) -> bool:
        """Whether card `j` and the cards next to it (`group`, neighbour by neighbour: at
        most `LAST_CARDS`) are the last cards of a round whose reflections an arm hides
        whole, the centre line at `c` just across `j`'s top edge (its first row). All face
        the line the same way on its rows, fit a layout card by themselves, and lie well
        inside the image (`holes`: their outlines there; `LAST_CARD_EDGE_WIDTHS`) and alone on
        the table (`_alone_on_table`); no other card lies on their rows (of the line fitted
        to their own top edges); an arm lies at each one's mirror place, and no card does
        (`_arm_at_mirror`); and every card faces the line from its own side. A score pile lies
        in front of its player and faces them as their half of the glass does, so a line
        across a pile card's top edge has the other pile's cards, or its own, facing it from
        the wrong side, where an arm may lie in front of it all the same.
        """
        pos, tops, orient, facing, axis = f.pos, f.tops, f.orient, f.facing, f.axis
        if abs(abs(tops[j] - c) - GAP_MM / 2) >= ROW_TOLERANCE_MM:
            return False
        if any(k not in on_rows or orient[k] != orient[j] for k in group):
            return False
        if not _inside_view(v.white, f.holes, group):
            return False
        # Their rows are where they lie, not where the card that suggested the line lies: a
        # pile card 6 mm off their row may lie on the one but not the other.
        Hc = self.lib.shape.height_mm
        c = line_through([tops[g] for g in group], orient[group], c, Hc)
        if any(
            k not in group
            and on_a_row(tops[k], c, int(orient[k]), Hc)
            and abs(tops[k] - tops[g]) < ROW_TOLERANCE_MM
            for k in facing
            for g in group
        ):
            return False
        # The line's direction comes from the cards' own, each dealt a little askew: a card
        # far along it may cross it a little further (a pile card 250 mm along).
        lateral = np.array([-axis[1], axis[0]])
        group_s = np.array([float(pos[g] @ lateral) for g in group])
        if not _from_own_sides(
            tops,
            orient,
            facing,
            c,
            [row_tolerance(float(pos[k] @ lateral), group_s) for k in range(len(tops))],
        ):
            return False
        if not self._alone_on_table(v, f, group):
            return False
        if len(group) > 1:
            s = np.array([float(pos[k] @ lateral) for k in group]) / (CARD_W_MM / 2)
            if not self._on_layout_cells(pos, group, s - column_phase(s), axis, c):
                return False
        return all(self._arm_at_mirror(v, f, k, c) for k in group)

    def _alone_on_table(self, v: View, f: Facing, group: list[int]) -> bool:
        """Whether no card's border shows beside or below the cards `group` (`pos`: face
        centres, mm; each one's top edge toward the line) but their own: the last cards of a
        round lie alone, a score pile's card among the pile's others (`LAST_CARD_RING_MM`).
        Beside a card, its row's next card may still lie with an arm over its upper half: the place
        one card width to that side is left out where no border shows
        in its upper half (`_hidden_place`) and part of a taught face does (`_partly_seen`).
        A score pile's cards lie further apart than a row's (there the place
        beside a pile card showed an arm and no face). A card's own border is where its
        outline (`holes`) shows it too: at a steep tilt without markers the plane can put
        the card a few mm off where it lies, and its own border in the strip."""
        W, Hc, b = CARD_W_MM, self.lib.shape.height_mm, self.lib.shape.border_mm
        pos, orient, axis, holes, white, H_inv = f.pos, f.orient, f.axis, f.holes, v.white, v.H_inv
        own, hidden = np.zeros(white.shape, np.uint8), np.zeros(white.shape, np.uint8)
        for k in group:
            down = orient[k] * axis
            r = np.array([down[1], -down[0]])
            _paint_mm(
                own,
                H_inv,
                _quad_mm(self._top_left(pos[k], down, -2.0, 0.0), down, W + 4.0, Hc + 2.0),
            )
            px_per_mm = float(np.linalg.norm(holes[k].width_vec)) / (W - 2 * b)
            outline = inset(holes[k].hole.corners, -(b + 2.0) * px_per_mm)
            cv2.fillConvexPoly(own, np.rint(outline).astype(np.int32), 1)
            for side in (-1.0, 1.0):
                beside = pos[k] + side * W * r
                if self._hidden_place(v, beside, down, LAST_CARD_TABLE_SHARE) and self._partly_seen(
                    v, beside, down
                ):
                    _paint_mm(
                        hidden, H_inv, _quad_mm(self._top_left(beside, down, 0.0, 0.0), down, W, Hc)
                    )
        # Each side on its own: one neighbour's border along one side is a share of that
        # side's strip, but a small share of a ring round the whole group.
        free = (own == 0) & (hidden == 0)
        out = LAST_CARD_RING_MM
        for k in group:
            down = orient[k] * axis
            for dr, dd, w, h in (
                (-out, 0.0, out - 2.0, Hc),
                (W + 2.0, 0.0, out - 2.0, Hc),
                (-out, Hc + 2.0, W + 2 * out, out - 2.0),
            ):
                strip = np.zeros(white.shape, np.uint8)
                _paint_mm(strip, H_inv, _quad_mm(self._top_left(pos[k], down, dr, dd), down, w, h))
                there = (strip > 0) & free
                if there.any() and float(white[there].mean()) > LAST_CARD_RING_WHITE:
                    return False
        return True

    def _search(
        self, v: View, centre: np.ndarray, down: np.ndarray, give_up: float = 0.0
    ) -> tuple[float, np.ndarray, np.ndarray, float, float]:
        """The best `_probe` of a card dealt by hand near `centre`: a few mm and degrees off.
        The place itself first (the match slides ±2 mm); unless that is clear, or below
        `give_up` (an empty place, a hand), every shift up to `SEARCH_REACH_PX` at once
        (`_best_shift`), probed there, then turns about the best shift."""
        best = self._probe(v, centre, down, 0.0, 0.0, 0.0)
        if best[0] < give_up or best[0] >= SEARCH_CLEAR:
            return best
        dr, dd = self._best_shift(v, centre, down)
        if (dr, dd) != (0.0, 0.0):
            got = self._probe(v, centre, down, 0.0, dr, dd)
            best = got if got[0] > best[0] else best
        if 0.45 <= best[0] < SEARCH_CLEAR:
            for ang in (-3.0, 3.0):
                got = self._probe(v, centre, down, ang, best[3], best[4])
                best = got if got[0] > best[0] else best
        return best

    def _best_shift(self, v: View, centre: np.ndarray, down: np.ndarray) -> tuple[float, float]:
        """(right, down) mm from `centre` to where a taught face matches best in a window
        `SEARCH_REACH_PX` patch px larger on every side than the card's upper half: every
        shift in one small product (`coarse_shift`), where a ring of re-cut probes cost a
        window, a descriptor and a match each."""
        m = SEARCH_REACH_PX
        tl = self._top_left(centre, down, 0.0, 0.0)
        outline = apply_homography(
            v.img_from_mm, _quad_mm(tl, down, CARD_W_MM, self.lib.shape.height_mm)
        )
        dy, dx = coarse_shift(descriptor(upper_window(v.image, outline, self.lib, m)), self.lib, m)
        x0, y0, x1, y1 = self.lib.shape.patch_region()
        return dx * (x1 - x0) / PATCH_W, dy * (y1 - y0) / PATCH_H

    def layout_places(
        self,
        v: View,
        seen: list[SeenCard],
        fits: list[tuple[Layout, int]],
        axis: np.ndarray,
        c_t: float,
    ) -> list[SeenCard]:
        """Cards at places of the layout that nothing was found at, nor at their reflection's
        place: an arm across the glass hides both a card's outline and its reflection, so
        neither the finder nor the reflection search sees it. The layout card says where every
        card lay; each such place is looked at, and a card is kept only if a taught card
        matches there as clearly as the reflection search asks. A place whose card was taken
        shows the lower halves of the row before, half a card aside, or the table: no template
        matches that. Late in a round the cards left may fit several layout cards (`fits`:
        each with the shift of its columns): only places of the glass in all of them are
        looked at."""
        have = {(c.half, c.row, c.col) for c in seen}
        # A card lies on part of each card of the row before it (`Layout.covers`): where one
        # of those is seen whole and uncovered, its outline all in view, no card lies at the
        # place (a pair picked), whatever an arm hides.
        whole = {(c.half, c.row, c.col) for c in seen if c.full_hole and not c.covered}
        cells = [{(cell.row, cell.col - sh) for cell in lay.cells} for lay, sh in fits]
        common = set(cells[0]).intersection(*cells[1:])
        found: list[tuple[SeenCard, Layout, int, int, list[list[np.ndarray]]]] = []
        probed: list[np.ndarray] = []
        for lay, shift in fits:
            index = {(cell.row, cell.col - shift): i for i, cell in enumerate(lay.cells)}
            # The layout's plan onto the cards seen, by least squares: the glass as dealt,
            # turned and scaled as the plane has it (a lattice of exact card pitches drifts
            # 8 mm off by the far columns).
            plan = _plan(lay)
            known = [
                (c, plan[lay.name_of(c.half, index[(c.row, c.col)])])
                for c in seen
                if (c.row, c.col) in index
            ]
            A = np.array([[p.x, p.y, 1.0] for _, p in known])
            if len(known) < 3 or np.linalg.matrix_rank(A) < 3:
                continue
            M, *_ = np.linalg.lstsq(A, np.array([c.center_mm for c, _ in known]), rcond=None)
            for (row, col), i in sorted(index.items()):
                # A place of only some of the layouts the cards fit is looked at only next to
                # a card seen: a glass card of that row or the one before, a column
                # aside; beyond the glass lies a score pile or the table.
                near = (row, col) in common or any(
                    abs(c.col - col) <= 2 and 0 <= row - c.row <= 1 for c in seen
                )
                if not near or ((0, row, col) in have and (1, row, col) in have):
                    continue
                for half in (0, 1):
                    if any(
                        (half, lay.cells[k].row, lay.cells[k].col - shift) in whole
                        for k in lay.covers[i]
                    ):
                        continue
                    side = 1 if half == 0 else -1
                    at = plan[lay.name_of(half, i)]
                    centre = np.array([at.x, at.y, 1.0]) @ M
                    if _card_at(centre, seen + [f for f, *_ in found]) or any(
                        _length(centre - p) < 5.0 for p in probed
                    ):
                        continue  # (another layout's plan puts a place looked at here)
                    probed.append(centre)
                    _top, scores, quad_mm, _, _ = self._search(v, centre, side * axis, give_up=0.55)
                    if self._face_found(v, quad_mm, scores):
                        card = self._inferred(
                            v, quad_mm, scores, False, (half, row, col), Provenance.FROM_LAYOUT
                        )
                        covers = [
                            [
                                np.array(
                                    [plan[lay.name_of(h, j)].x, plan[lay.name_of(h, j)].y, 1.0]
                                )
                                @ M
                                for j in lay.covered_by[i]
                            ]
                            for h in (half, 1 - half)
                        ]
                        found.append((card, lay, shift, i, covers))
        # Covered: a card of the next row out lies on it, or its reflection does (a pick takes
        # both, so a hidden one is there if its reflection is).
        filled = {(c.half, c.row, c.col) for c in seen + [f for f, *_ in found]}
        kept = []
        for c, lay, shift, i, covers in found:
            c.covered = any(
                (h, lay.cells[j].row, lay.cells[j].col - shift) in filled
                for j in lay.covered_by[i]
                for h in (0, 1)
            )
            # A card's covers may lie under the arm that hid it: it is
            # reported only if its covers' places show, empty, or its reflection's do (a pick
            # takes both).
            down = (1 if c.half == 0 else -1) * axis
            if c.covered or any(
                not any(self._hidden_place(v, at_, sgn * down) for at_ in places)
                for sgn, places in zip((1, -1), covers, strict=True)
            ):
                kept.append(c)
        return kept

    def _probe(
        self,
        v: View,
        centre: np.ndarray,
        down: np.ndarray,
        ang: float,
        dr: float,
        dd: float,
    ) -> tuple[float, np.ndarray, np.ndarray, float, float]:
        """Template scores of a card centred at `centre` (mm), its top edge square to `down`
        turned by `ang` degrees, shifted `dr` mm to its right and `dd` mm down; with its quad."""
        W, Hc = CARD_W_MM, self.lib.shape.height_mm
        a = math.radians(ang)
        d = np.array(
            [
                down[0] * math.cos(a) - down[1] * math.sin(a),
                down[0] * math.sin(a) + down[1] * math.cos(a),
            ]
        )
        tl = self._top_left(centre, d, dr, dd)
        scores = self.lib.match(self._card_window(v.image, v.img_from_mm, tl, d))
        return float(scores.max()), scores, _quad_mm(tl, d, W, Hc), dr, dd

    def _top_left(self, centre: np.ndarray, d: np.ndarray, dr: float, dd: float) -> np.ndarray:
        """The top-left corner (mm) of a card centred at `centre` whose unit vector `d` points
        down it, shifted `dr` mm to its right and `dd` mm down."""
        W, Hc = CARD_W_MM, self.lib.shape.height_mm
        r = np.array([d[1], -d[0]])
        return centre - (Hc / 2) * d - (W / 2) * r + dr * r + dd * d

    def _look(
        self, v: View, centre: np.ndarray, d: np.ndarray, hl: float
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Template scores of the card whose interior is centred at `centre` (mm) if `d` points
        down the card; also the card frame (d, top-left corner, right) that goes with it."""
        b = self.lib.shape.border_mm
        r = np.array([d[1], -d[0]])
        tl = centre - d * (hl / 2 + b) - (CARD_W_MM / 2) * r
        window = self._card_window(v.image, v.img_from_mm, tl, d)
        return self.lib.match(window, search=False), d, tl, r, window

    def _card_window(
        self, image: np.ndarray, img_from_mm: np.ndarray, tl: np.ndarray, d: np.ndarray
    ) -> np.ndarray:
        """Descriptor of the upper-half window of the card whose top-left corner lies at `tl`
        (table mm) and whose unit vector `d` points down it."""
        return descriptor(self._card_patch(image, img_from_mm, tl, d))

    def _card_patch(
        self, image: np.ndarray, img_from_mm: np.ndarray, tl: np.ndarray, d: np.ndarray
    ) -> np.ndarray:
        """The same window as `_card_window`, as BGR pixels."""
        outline = _quad_mm(tl, d, CARD_W_MM, self.lib.shape.height_mm)
        return upper_window(image, apply_homography(img_from_mm, outline), self.lib)

    def _face_found(self, v: View, quad_mm: np.ndarray, scores: np.ndarray) -> bool:
        """Whether a search found a card at `quad_mm` where no outline was (scores: its
        window's): a clear match, the face in view cell by cell, and not the table's
        pattern."""
        return (
            clear_match(scores)
            and self.face_in_view(v.image, v.img_from_mm, quad_mm, scores)
            and not self._table_in_face(v.table(), v.white, apply_homography(v.H_inv, quad_mm))
        )

    def face_in_view(
        self, image: np.ndarray, img_from_mm: np.ndarray, quad_mm: np.ndarray, scores: np.ndarray
    ) -> bool:
        """Whether the card a search matched clearly at `quad_mm` (scores: its whole window's)
        shows that face cell by cell too: the same taught face leads `match_visible` there, at
        `FACE_IN_VIEW_SCORE` or more."""
        down = quad_mm[3] - quad_mm[0]
        down = down / np.linalg.norm(down)
        visible = self.lib.match_visible(self._card_patch(image, img_from_mm, quad_mm[0], down))
        best = int(np.argmax(scores))
        return int(np.argmax(visible)) == best and float(visible[best]) >= FACE_IN_VIEW_SCORE

    def _partly_seen(
        self, v: View, centre: np.ndarray, down: np.ndarray, searched: tuple | None = None
    ) -> bool:
        """Whether a card lies at `centre` (mm, its top edge square to `down`) that an arm
        partly hides: a taught face matches the part left in view, clearly, about the pose
        where the whole window matches best (`searched`: that `_search`, if made already).
        Evidence for the glass, not a name for the card."""
        best = searched or self._search(v, centre, down, give_up=0.3)
        if best[0] < 0.4:
            return False  # nothing like a card here (an empty place, the table)
        for dr, dd in ((0, 0), (-3, 0), (3, 0), (0, -3), (0, 3)):
            tl = self._top_left(centre, down, best[3] + dr, best[4] + dd)
            if visible_match(
                self.lib.match_visible(self._card_patch(v.image, v.img_from_mm, tl, down))
            ):
                return True
        return False

    def _name(self, card: SeenCard, scores: np.ndarray) -> None:
        order = np.argsort(-scores)
        s1 = float(scores[order[0]])
        s2 = float(scores[order[1]]) if len(order) > 1 else -1.0
        conf = confidence(s1, s2)
        card.scores.update(zip(self.lib.ids, scores.tolist(), strict=True))
        card.confidence = conf
        card.card = self.lib.ids[int(order[0])] if conf >= self.threshold else None

    def _name_by_cells(self, card: SeenCard, scores: np.ndarray, patch: np.ndarray) -> None:
        """A card found by its outline whose whole window names it unclearly is named when its
        cells back that name (`cells_back_name`); its confidence is then that of the cells.
        `patch`: its upper-half window (BGR), matched only where the whole window could be
        backed."""
        if float(scores.max()) < VERIFY_SCORE:
            return
        conf = cells_back_name(scores, self.lib.match_visible(patch))
        if conf is None:
            return
        card.confidence = conf
        card.card = self.lib.ids[int(np.argmax(scores))] if conf >= self.threshold else None

    def _columns(
        self, seen: list[SeenCard], places: GlassPlaces
    ) -> tuple[str | None, list[tuple[Layout, int]]]:
        """Columns in half-card widths, numbered like the layout card they match (if one does).
        Also every layout and column shift the cards seen fit (shifts to add to their columns
        as they are numbered now): a glass late in a round fits several."""
        if not seen:
            return None, []
        s = np.array([places.s(c) for c in seen]) / (CARD_W_MM / 2)
        cols = np.round(s - column_phase(s)).astype(int)
        cols -= cols.min()
        for c, col in zip(seen, cols, strict=True):
            c.col = int(col)
        fits = layout_fits({(c.row, c.col) for c in seen}, self.layouts)
        if len(fits) != 1:
            return None, [(self.layouts[lid], shift) for lid, shift in fits]
        lid, shift = fits[0]
        for c in seen:
            c.col += shift
        return lid, [(self.layouts[lid], 0)]


@dataclass
class TableLook:
    """What the bare table looks like in one image, for `Reader._hidden_place`: the plain
    table's colour and a patterned table's colour bins, and each pixel's Lab colour and colour
    bin (`colour_bins`) where a step asks. Those are worked out only about the place asked
    for: a read asks of a few places a card's size, and the whole working image in Lab cost
    ~3 ms a frame (the same values, pixel by pixel)."""

    small: np.ndarray
    """The processing image (BGR)."""
    plain: np.ndarray
    common: np.ndarray

    @classmethod
    def of(cls, small: np.ndarray, white: np.ndarray) -> TableLook:
        grid = (slice(None, None, 8), slice(None, None, 8))
        lab = cv2.cvtColor(np.ascontiguousarray(small[grid]), cv2.COLOR_BGR2LAB)
        plain = np.median(lab[~white[grid]].astype(np.float32), axis=0)
        return cls(small, plain, table_colours(small, white))

    def lab(self, inside: Region) -> np.ndarray:
        """(k, 3) uint8 Lab of the pixels of `inside` (of the processing image), in the
        order `Region.of` gives them."""
        if inside.mask.size == 0:
            return np.zeros((0, 3), np.uint8)
        return cv2.cvtColor(self.small[inside.box], cv2.COLOR_BGR2LAB)[inside.mask]


COLOUR_BINS = 8 * 16 * 16
_BIN_COUNTS = [8, 16, 16]
_BIN_RANGES = [0, 256, 0, 256, 0, 256]
"""`colour_bins` as `cv2.calcHist` counts them (bins along L*, a*, b*, each of 256 levels)."""


def colour_bins(lab: np.ndarray) -> np.ndarray:
    """Each Lab colour's bin (lab: (..., 3) uint8) of 8 x 16 x 16 (L* // 32, a* // 16,
    b* // 16). Lightness counts: an arm often has the hue of a wooden table or of the blend
    between a chequered cloth's squares, not its lightness."""
    # (Shifted as bytes and put together in 16 bits: a third of the memory of int32 maths.)
    lum, a, b = lab[..., 0], lab[..., 1], lab[..., 2]
    return ((lum >> 5).astype(np.uint16) << 8) | ((a >> 4).astype(np.uint16) << 4) | (b >> 4)


def table_colours(small: np.ndarray, white: np.ndarray) -> np.ndarray:
    """Which colour bins (`colour_bins`) are the table's: common along three of the image's
    four edges (`small`, the processing image). A chequered cloth or a printed pattern has
    several; an arm reaches in over one edge (two at a corner)."""
    # (Counted by `cv2.calcHist` over the strip's non-white pixels, as a mask: its uniform
    # bins of 32 and 16 levels are `colour_bins`' shifts, so the same counts, without
    # gathering the pixels first: ~1.5 against ~5 ms a frame that asks.)
    h, w = white.shape
    by, bx = max(1, int(TABLE_BAND * h)), max(1, int(TABLE_BAND * w))
    sides = np.zeros(COLOUR_BINS, np.int32)
    for strip in (
        (slice(0, by), slice(None)),
        (slice(h - by, h), slice(None)),
        (slice(by, h - by), slice(0, bx)),
        (slice(by, h - by), slice(w - bx, w)),
    ):
        lab = cv2.cvtColor(np.ascontiguousarray(small[strip]), cv2.COLOR_BGR2LAB)
        bare = _not(white[strip])
        hist = cv2.calcHist([lab], [0, 1, 2], bare, _BIN_COUNTS, _BIN_RANGES).ravel()
        sides += hist >= TABLE_BIN_SHARE * max(1, cv2.countNonZero(bare))
    return sides >= 3


def neighbour_groups(pos: np.ndarray) -> list[list[int]]:
    """Each card's group: the cards within `NEIGHBOUR_MM` of it, and of those, and so on
    (`pos`: the cards' centres, mm)."""
    near = np.linalg.norm(pos[:, None] - pos[None], axis=2) < NEIGHBOUR_MM
    groups: list[list[int]] = [[] for _ in range(len(pos))]
    for start in range(len(pos)):
        if groups[start]:
            continue
        group, todo = {start}, [start]
        while todo:
            k = todo.pop()
            for m in np.nonzero(near[k])[0]:
                if int(m) not in group:
                    group.add(int(m))
                    todo.append(int(m))
        for k in group:
            groups[k] = sorted(group)
    return groups


def _stacked_on(cmms: list[np.ndarray], j: int, lateral: np.ndarray) -> list[int]:
    """The cards lying on card `j` in its own column, one row out or in, and on them in turn:
    a score pile's cascade lies so, and so do some layouts' rows (the wall, the terrace). A
    card taken into the glass brings them with it, so they must fit a layout too: the pile
    beside an arm on one development table had its mirror places on the arm, its first card alone
    fitted a
    layout with the one pair in view, its second did not."""
    s0 = float(cmms[j] @ lateral)
    run, todo = {j}, [j]
    while todo:
        i = todo.pop()
        for k, c in enumerate(cmms):
            if (
                k not in run
                and float(np.linalg.norm(c - cmms[i])) < NEIGHBOUR_MM
                and abs(float(c @ lateral) - s0) < CARD_W_MM / 4
            ):
                run.add(k)
                todo.append(k)
    return sorted(run - {j})


def _cascade_on_rows(
    cmms: list[np.ndarray],
    j: int,
    lateral: np.ndarray,
    facing: list[int],
    on_row: Callable[[int], bool],
) -> bool:
    """Whether the facing cards lying on card `j` in its column (`_stacked_on`) lie on the
    glass's rows (`on_row`) too, as a layout's do: a score pile's cascade steps further than a
    row (0.55 of a card in the simulated piles), so its next card lies off them."""
    return all(on_row(k) for k in _stacked_on(cmms, j, lateral) if k in facing)


def layout_fits(
    observed: set[tuple[int, int]], layouts: dict[str, Layout]
) -> list[tuple[str, int]]:
    """Every (layout id, column shift) whose cells hold all `observed` (row, column) places
    (both halves of a glass share one layout's cells)."""
    fits = []
    for lid, lay in layouts.items():
        cells = {(cell.row, cell.col) for cell in lay.cells}
        for shift in range(-12, 13):
            if all((r, col + shift) in cells for r, col in observed):
                fits.append((lid, shift))
    return fits


def cut_window(
    image: np.ndarray, H_img_from_card: np.ndarray, lib: Library, margin: int = SEARCH_PX
) -> np.ndarray:
    """The upper-half patch of a card, `margin` px larger on every side, rectified
    (`identify.upper_window`). `H_img_from_card` maps card mm (origin at the card's top-left,
    y down the card) to image px."""
    card = card_outline_mm(lib.shape.height_mm, np.float64)
    return upper_window(image, apply_homography(H_img_from_card, card), lib, margin)


def look_agreement(
    then: np.ndarray, now: np.ndarray, grid: tuple[int, int] = (4, 3)
) -> tuple[float, float]:
    """How well a place looks as a card did (`Reader.own_look` descriptors): the normalised
    correlation of the whole, and the share of the cells of a `grid` (across, down) that have
    structure then and correlate `OWN_LOOK_CELL` each (an arm over the rest)."""

    def corr(a: np.ndarray, b: np.ndarray) -> float:
        a, b = a - a.mean(), b - b.mean()
        return float((a * b).sum() / max(1e-6, float(np.linalg.norm(a) * np.linalg.norm(b))))

    h, w = then.shape[:2]
    gx, gy = grid
    good = structured = 0
    for i in range(gy):
        for j in range(gx):
            cell = (slice(i * h // gy, (i + 1) * h // gy), slice(j * w // gx, (j + 1) * w // gx))
            if float(then[cell].std()) < LOOK_CELL_STD:
                continue  # flat art: nothing to tell a card from the table by
            structured += 1
            good += corr(then[cell], now[cell]) >= OWN_LOOK_CELL
    return corr(then, now), good / max(1, structured)


def sized_like_cards(H: np.ndarray, items: list[Oriented], lib: Library) -> bool:
    """Whether the plane `H` (processing px to mm) sizes the card interiors `items` (read
    along one axis) about as the cards' own plane does (`plane_from_cards`, a few % off where
    borders blur): two markers leave no other marker to tell a wrong one by (one printed at
    another size). Along the wrong axis the cards' plane is some 40 % off and the markers'
    plane is not used for it."""
    cards = plane_from_cards(items, lib)
    if cards is None:
        return True
    ratios = [
        math.sqrt(
            abs(cv2.contourArea(apply_homography(H, o.hole.corners).astype(np.float32)))
            / max(
                1e-6,
                abs(cv2.contourArea(apply_homography(cards, o.hole.corners).astype(np.float32))),
            )
        )
        for o in items
    ]
    return 0.8 < float(np.median(ratios)) < 1.25


def _from_own_sides(
    tops: list[float],
    orient: np.ndarray,
    facing: list[int],
    c: float,
    tolerance: list[float] | None = None,
) -> bool:
    """Whether every card of `facing` faces the line at `c` from its own side, its top edge
    (`tops`) not more than `ROW_TOLERANCE_MM` (or its own `tolerance`) past it (see
    `_crossing`)."""
    return all(
        (tops[k] - c) * orient[k] > -(ROW_TOLERANCE_MM if tolerance is None else tolerance[k])
        for k in facing
    )


def _inside_view(white: np.ndarray, holes: list[Oriented], ks: list[int]) -> bool:
    """Whether cards `ks` (`holes`: their outlines) lie `LAST_CARD_EDGE_WIDTHS` of their own
    widths inside every edge of the image (`white`: its white mask): at the edge a score
    pile's cascade may go on out of view."""
    h, w = white.shape
    for k in ks:
        x, y = holes[k].centre
        if min(x, y, w - x, h - y) < LAST_CARD_EDGE_WIDTHS * float(
            np.linalg.norm(holes[k].width_vec)
        ):
            return False
    return True


def _bare_share(look: TableLook, white: np.ndarray, inside: Region) -> float:
    """The share of the place `inside` (of the processing image) that is bare table:
    neither a card's white nor anything but the table's colours."""
    lab = look.lab(inside)
    bare = ~inside.of(white) & (
        look.common[colour_bins(lab)]
        | (np.linalg.norm(lab.astype(np.float32) - look.plain, axis=1) < BARE_TABLE_DIST)
    )
    return float(bare.mean())


def _arm_in(
    look: TableLook, white: np.ndarray, inside: Region, table_share: float = BARE_TABLE_SHARE
) -> bool:
    """`Reader._hidden_place` for the place `inside` (of the processing image)."""
    if not _borderless(white, inside):
        return False
    lab = look.lab(inside)
    there = lab.astype(np.float32)
    if (
        float(there[:, 0].std()) < BARE_TABLE_STD
        and float(np.linalg.norm(np.median(there, axis=0) - look.plain)) < BARE_TABLE_DIST
    ):
        return False
    return float(look.common[colour_bins(lab)].mean()) < table_share


_plan = cache(placements)
"""A layout's placements (`placements`), worked out once: every search for cards at layout
places asks for them (a dict of dozens of positions, for each layout the cards fit)."""


def _top_score(look: tuple[np.ndarray, ...] | None) -> float:
    """The best template score of one end of a hole read as the card's top (`Reader._look`);
    -1 for an end not looked at (the other was clearly the top: `ORIENT_SURE`)."""
    return -1.0 if look is None else float(look[0].max())


def _quad_mm(tl: np.ndarray, d: np.ndarray, w: float, h: float) -> np.ndarray:
    """The rectangle (TL, TR, BR, BL, mm) `w` wide and `h` long from its top-left corner
    `tl`, its unit vector `d` pointing down it."""
    r = np.array([d[1], -d[0]])
    return np.array([tl, tl + w * r, tl + w * r + h * d, tl + h * d])


def _paint_mm(mask: np.ndarray, H_inv: np.ndarray, quad_mm: np.ndarray) -> None:
    """Sets to 1 the pixels of `mask` (the processing image's) that the table quad `quad_mm`
    (mm; `H_inv`: mm to processing px) covers."""
    cv2.fillConvexPoly(mask, np.rint(apply_homography(H_inv, quad_mm)).astype(np.int32), 1)


@dataclass(frozen=True)
class Region:
    """The pixels of the processing image inside a convex outline, as `cv2.fillConvexPoly`
    fills it: its box and the mask over the box. A place a step asks about is a few
    thousand pixels; a mask of the whole image cost ~0.3 ms to make and to scan each time
    (a read asks of ~4 places). `of` gives the pixels in the order a whole-image mask does."""

    box: tuple[slice, slice]
    mask: np.ndarray
    """bool, the box's shape."""

    @classmethod
    def in_image(cls, shape: tuple[int, ...], outline: np.ndarray) -> Region:
        """The region of `outline` (processing px, rounded to the nearest) in an image of
        `shape` (the part in view)."""
        pts = np.rint(outline).astype(np.int32)
        h, w = shape[:2]
        x0, y0 = np.clip(pts.min(axis=0), 0, (w, h)).tolist()
        x1, y1 = np.clip(pts.max(axis=0) + 1, 0, (w, h)).tolist()
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        if mask.size:
            cv2.fillConvexPoly(mask, pts - np.array([x0, y0], np.int32), 1)
        return cls((slice(y0, y1), slice(x0, x1)), mask.view(np.bool_))

    def of(self, image: np.ndarray) -> np.ndarray:
        """The region's pixels of `image` (the processing image's size), in raster order."""
        return image[self.box][self.mask]

    def count(self) -> int:
        """How many pixels the region holds."""
        return int(np.count_nonzero(self.mask))


def _place_region(v: View, quad_mm: np.ndarray) -> Region:
    """The processing-image region of the table quad `quad_mm` (mm)."""
    return Region.in_image(v.white.shape, apply_homography(v.H_inv, quad_mm))


def _borderless(white: np.ndarray, inside: Region) -> bool:
    """Whether no card's white border shows in the place `inside` (of the white mask
    `white`), and the place is in view (50 px of it at `REFERENCE_WIDTH`)."""
    return bool(
        inside.count() >= 50 * work_unit() ** 2 and float(inside.of(white).mean()) <= PLACE_WHITE
    )


def _card_at(place: np.ndarray, cards: list[SeenCard]) -> bool:
    """Whether one of `cards` lies over most of the place centred at `place` (mm): no card of
    the glass lies over most of another's, so a card found there (a little off where it was
    looked for) is the one."""
    return _centre_at(place, np.array([o.center_mm for o in cards]))


def _centre_at(place: np.ndarray, centres: np.ndarray) -> bool:
    """`_card_at` for cards whose face centres (mm) are `centres`."""
    return (
        bool(len(centres))
        and float(np.linalg.norm(centres - place, axis=1).min()) < 0.6 * CARD_W_MM
    )


def clear_match(scores: np.ndarray) -> bool:
    """As clear a match as a card no outline of its own backs needs (the reflection search,
    the layout's places, the centre line guessed without pairs)."""
    top, second = top_two(scores)
    return top >= REFLECTION_SCORE and confidence(top, second) >= REFLECTION_CONFIDENCE


def top_two(scores: np.ndarray) -> tuple[float, float]:
    """The best score and the runner-up's (-1 when there is none): what every "clear lead"
    test of a match weighs."""
    ranked = np.sort(scores)[::-1]
    return float(ranked[0]), float(ranked[1]) if len(ranked) > 1 else -1.0


def cells_back_name(scores: np.ndarray, cells: np.ndarray) -> float | None:
    """How sure the cells make the name of a card its whole window names unclearly (`scores`:
    the whole window's, `cells`: `match_visible`'s), or None when they do not back it. A
    shadow or a sleeve's sheen across a card shifts one normalisation for the whole window;
    each cell is normalised on its own, so a light across the card does not shift the others.
    The face that leads the whole window must lead cell by cell at `FACE_IN_VIEW_SCORE` or
    more, `VISIBLE_MARGIN` ahead of every other face, and match the whole window at
    `VERIFY_SCORE` or more: a pair of cloth squares (no face matches either so well) stays
    unnamed, and so do the copies of a face not taught, which can match a look-alike's cells
    as clearly (on development tables every such copy with a cell lead this clear matched the
    look-alike's whole window below 0.51)."""
    best = int(np.argmax(scores))
    top, second = top_two(cells)
    if (
        float(scores[best]) < VERIFY_SCORE
        or int(np.argmax(cells)) != best
        or top < FACE_IN_VIEW_SCORE
        or top - second < VISIBLE_MARGIN
    ):
        return None
    return confidence(top, second)


def visible_match(scores: np.ndarray) -> bool:
    """As clear a match of the part of a card an arm leaves in view (`match_visible`) as the
    glass asks before it takes a card whose reflection is hidden."""
    top, second = top_two(scores)
    return top >= VISIBLE_SCORE and top - second >= VISIBLE_MARGIN


def confidence(best: float, second: float) -> float:
    """How sure a match is: a clear margin over the runner-up and a good score of its own."""
    # (Clipped in plain floats, as numpy's `clip` of one value does it: ~30 calls a frame.)
    margin = min(max((best - second) / 0.25, 0.0), 1.0)
    level = min(max((best - 0.35) / 0.35, 0.0), 1.0)
    return float(margin * level)


def _coverage(seen: list[SeenCard], places: GlassPlaces, W: float, Hc: float) -> None:
    """A card is covered when a card of a row further out lies on its lower half."""
    for c in seen:
        if not c.covered and any(_lies_on(places, o, c, W, Hc) for o in seen):
            c.covered = True


def _lies_on(places: GlassPlaces, o: SeenCard, c: SeenCard, W: float, Hc: float) -> bool:
    """Whether `o`, a card of a row further out in `c`'s half, lies on `c`'s lower half."""
    if o is c or o.half != c.half:
        return False
    s0, t0 = places.s(c), places.t(c)
    s1, t1 = places.s(o), places.t(o)
    if t1 < t0 + 0.25 * Hc:
        return False
    ov_s = max(0.0, W - abs(s1 - s0))
    ov_t = max(0.0, min(t0 + Hc / 2, t1 + Hc / 2) - max(t0, t1 - Hc / 2))
    # A card of a layout lies on half or all of a card's lower half; a few mm of overlap are
    # dealing slack and a plane fitted from the cards alone.
    return ov_s * ov_t > 0.25 * W * Hc / 2


def mirror_coverage(seen: list[SeenCard], places: GlassPlaces, W: float, Hc: float) -> None:
    """Picks take a card and its reflection together, so coverage is mirror-symmetric too: a
    card whose cover a hand hides is covered if its reflection is. When one of the two shows
    its whole face and the other looks covered, though, a glare over the other's lower half
    or corner looks just like a card on it, and a card of the next row lying on one can
    merge with it into one outline: a card found in the next row over either says which."""
    at = {(c.half, c.row, c.col): c for c in seen}
    for c in seen:
        o = at.get((1 - c.half, c.row, c.col))
        if o is None or c.half == 1:
            continue
        if c.covered == o.covered or not any(x.full_hole and not x.covered for x in (c, o)):
            c.covered = o.covered = c.covered or o.covered
            continue
        c.covered = o.covered = any(
            n.half == x.half
            and 0.25 * Hc < places.t(n) - places.t(x) < 0.75 * Hc
            and abs(places.s(n) - places.s(x)) < 0.8 * W
            for x in (c, o)
            for n in seen
        )


ASKED_NAMESAKE = "a namesake matches its face COPY_GAP better"
ASKED_UNBACKED = "covered, and no copy backs its face"
ASKED_TOO_MANY = "more cards so named than the deck has"
"""Why `unbacked_names` asks a card: the rule of `ask_unbacked_names` that asked it."""


def ask_unbacked_names(
    cards: list[SeenCard], copies: dict[str, int] | None = None, sure: float = 0.0
) -> None:
    """Names the table contradicts are asked about (named None), among the names given at
    confidence `sure` or more (a reading at a lower threshold, to sweep it, keeps the rest as
    they are: the default threshold's cards are then checked as the default reader checks
    them). Which, and why: `unbacked_names`."""
    for i in unbacked_names(cards, copies, sure):
        cards[i].card = None


def unbacked_names(
    cards: list[SeenCard], copies: dict[str, int] | None = None, sure: float = 0.0
) -> dict[int, str]:
    """The cards (by index) whose names the table contradicts, each with the rule that says
    so (`ASKED_*`), among the names given at confidence `sure` or more:

    - a covered card's, when the taught face it is named by matches none of its copies on
      the table well (`COPY_BACKS`): a face taught badly (cut inside its border, above a band
      printed across it) matches its own copies poorly, and a look-alike's face can then beat
      it on them by a clear margin. The face that names a card rightly matches the card, or a
      copy of it that a glare or a hand spares, well;
    - any card's, when another card named alike matches that face `COPY_GAP` better: the
      two are not copies of one print;
    - every card of a name given to more cards than the deck has (`copies`, by id), among
      the names the two rules above leave: one of them at least is another card.

    A copy is a card of that name that looks the same: every other taught face scores the
    two within `COPY_AGREE` of each other. The look-alike's own cards, on the table too and
    matching its face well, are no copies of hers: the faces score them differently (her own
    face least of all, however badly taught). The cards are not changed: a tool that lists
    why a card was asked reads the same decision the reader applies."""
    named = [(i, c) for i, c in enumerate(cards) if c.card is not None and c.confidence >= sure]
    asked: dict[int, str] = {}
    for i, c in named:
        name = c.card
        if name is None:
            continue
        own = c.scores.get(name, -1.0)
        if any(d.card == name and d.scores.get(name, -1.0) - own > COPY_GAP for _, d in named):
            asked[i] = ASKED_NAMESAKE
            continue
        if not c.covered:
            continue
        if not any(
            d.card == name
            and d.scores.get(name, -1.0) >= COPY_BACKS
            and (d is c or _same_look(c, d, name))
            for _, d in named
        ):
            asked[i] = ASKED_UNBACKED
    if copies is None:
        return asked
    left = [(i, c) for i, c in named if i not in asked]
    counts = Counter(c.card for _, c in left)
    for i, c in left:
        if c.card in copies and counts[c.card] > copies[c.card]:
            asked[i] = ASKED_TOO_MANY
    return asked


def _same_look(a: SeenCard, b: SeenCard, name: str) -> bool:
    """Whether every taught face but `name` scores the two cards within `COPY_AGREE`."""
    return all(
        abs(a.scores.get(k, -1.0) - b.scores.get(k, -1.0)) <= COPY_AGREE
        for k in a.scores
        if k != name
    )


def mirror_pairs(cards: list[SeenCard]) -> int:
    """How many of `cards` have their reflection among them (a card of half 0 and one of half
    1 at the same row and column)."""
    places = {(c.half, c.row, c.col) for c in cards}
    return sum(1 for h, r, c in places if h == 0 and (1, r, c) in places)


def unnamed_in_pairs(cards: list[SeenCard]) -> int:
    """How many cards of `cards` whose reflection is among them are not named (no name, or
    one given below `CONFIDENCE_THRESHOLD`)."""
    places = {(c.half, c.row, c.col) for c in cards}
    return sum(
        1
        for c in cards
        if (1 - c.half, c.row, c.col) in places
        and (c.card is None or c.confidence < CONFIDENCE_THRESHOLD)
    )


def weak_reading(cards: list[SeenCard], layout: str | None) -> bool:
    """Whether a reading rests on too little to name its cards: at most `WEAK_PAIRS` mirror
    pairs (`mirror_pairs`), no layout card its cards fit alone, and a card of a pair that is
    not named (`unnamed_in_pairs`). The glass's centre line is where its pairs face each
    other; with one pair, that line is as sure as the pair is a card and its reflection.
    Two cards of a score pile's cascade can face each other like a pair (where an arm hides
    the glass's own): they are covered, their upper halves all that shows, and one of them
    at least is not named, where a real last pair shows both its cards whole. Asked, not
    left out: the companion asks about what it sees and does not know."""
    return (
        bool(cards)
        and layout is None
        and mirror_pairs(cards) <= WEAK_PAIRS
        and unnamed_in_pairs(cards) > 0
    )


def _quality(r: Reading) -> float:
    if not r.cards:
        return 0.0
    return sum(max(c.confidence, 0.05) for c in r.cards)
