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
3. `find_arms` / `arm_squares`: arms come from beyond the board, so each crosses the ground
   round the grid; from there it is followed side to side by its colour, across the sides
   it hides (`sample_sides`, `sides_hidden`: a print's lines show), within the band one arm
   covers (`Arms`, `arm_band`);
4. `classify`: red, white, empty, gold (a Crown) or unsure (neither the print nor a piece);
5. `piece_colours`: a square far busier than the board's own squares holds a piece even
   where its colours pass for the print, and so does one busier and of a piece's colour;
   its colour from this board's red and white pieces; a square still read empty that is
   busier than its print and of a piece's colour, unlike its print, is asked (`quiet_pieces`);
   then the squares still asked, looked at again by a model learnt from development renders
   (`second_opinion.name_asked`: named only over its bar, never a square named already);
6. `read_board`: the reading, with a warning for each unsure square.

With the board's own empty look (`empty.py`: `read --board EMPTY.jpg`, or learnt by the
live table from the squares the engine says are free), the squares it knows are decided
by what changed on them instead (`by_change`), the picture alone a second opinion; the
rest as above.

Thresholds: `DIFFERENT` and `ARM_LIKE` were swept on development renders (boards entirely
right: DIFFERENT 8/11/14 gave 8/9/11 of 30, ARM_LIKE 6/9/12/16 gave 5/5/9/9 with the
fewest phantoms at 12); `RED_HUE` and `WHITE_CHROMA` sit between the percentiles of
piece and print middles on the same renders; `RED_CHROMA`, `LIGHT_ONLY` and `STRUCTURE`
come from curves on development renders of the wider chess sets (in the commits that set
them; `benchmarks/queen_alice_failures.py --curves` draws the last two); `STANDS_OUT`,
`EDGES_OUT`, `NEAR`, `APART`, `SEPARATION`, `NEAR_TOKEN`, `IN_COLOUR_OUT` and
`IN_COLOUR_EDGES` from curves on development renders (in their commits); `NEAR_CLEAR` from
the whole-board curve of `--near-clear-curve` (in its commit); `FAR_OUT` and `NEAR_FAR`
from the whole-board curves of `--far-curve` (in their commit); `ONE_NEAR` and `UNTOLD_HUE`
from the whole-board curves of `--one-colour-curve` and `--untold-hue-curve` (in their
commit; `ONE_TOLD` and `GOLD_HUE`, the gold band's end `shares` always used, by reasoning);
`OUTLINED` from
the curve of `--outline-curve` (in its commit); `ALONE` from the curve of `--lone-curve`
(in its commit); `CUT_WRONG` and `CUT_SIDE` from the curve of `--cut-curve` (in its
commit); `CUT_CLEAR` and `CUT_CLEAN` from the whole-board curves of `--cut-clear-curve` (in
their commit); `PIECE_HUE` from the curve of `--told-behind-curve` and the whole-board curve
of `--piece-hue-curve` (in its commit); `CROWN_STANDS` and `CROWN_FLAT` from the curve of
`--crown-curve` (in its commit); `CROWN_FLATS_ALIKE` from `--flat-slots-curve` (in its
commit); `TOLD_OVER` from `--told-curve` (in its commit); `REDDER`,
`CROWN_REF_ALIKE` and `CROWN_REF_GAP` from whole-board readings at each value (in their
commit; `--ref-alike-curve` lists the Crowns' quartile ratios and gaps); `STEPPED` from
the end steps of the runs that look like light on development boards (in its commit);
`ARM_BAND` from the curve of `--band-curve` (in its commit); `SHARED_OVER` from the squares
the colours do not tell, by how many other squares share their middle (`--shared-curve`, in
its commit); `SHARED_FLAT` from the curve of `queen_alice_clumps.py --flat-curve` (in its
commit); `QUIET_OUT` and `QUIET_UNLIKE` from the curve of `queen_alice_missed.py --curve`
(in their commit); `BUSY_PRINT` and `NEAR_BUSY` from the curve of `queen_alice_questions.py
--busy-curve` (in their commit); `STRUCTURE_OUT` and `FLAT_OUT`
from the whole-board curves of `--structure-curve` and the same reading at each `FLAT_OUT`
(in their commit; `--near-curve` redraws `NEAR`'s, which 10 raised the phantoms on fresh
boards);
`GROUND`, `FAINT`, `ARM_RUN_SQ`, `SHARE`, `ARM_MARGIN`, `ARM_BAND_ANGLES` and
`SPOT_ARM_REACH` are set by reasoning (written beside each), not swept.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TypeVar, cast

import cv2
import numpy as np

from companion.games.queen_alice.vision import second_opinion
from companion.games.queen_alice.vision.empty import (
    CLEAR,
    COVERED,
    OCCUPIED,
    Change,
    EmptyLook,
    changes,
    empty_look,
    like_a_piece,
)
from companion.games.queen_alice.vision.geometry import BoardGeometry, Cell, Point, load_geometry
from companion.games.queen_alice.vision.reading import BoardReading, unsure_warning
from companion.vision.board_markers import board_markers
from companion.vision.board_pose import BoardPose, Calibration, pose_in_image
from companion.vision.markers import Marker

DIFFERENT = 14.0
"""Lab distance from the print beyond which a pixel of a square's middle is something."""
RED_CHROMA = 18.0
"""A red piece's pixel is at least this coloured (Lab chroma), with a red hue ... (a dark
crimson in the shade of its own side is hardly more coloured than this; the white's
band ends where the red's begins)"""
RED_HUE = (-25.0, 50.0)
"""... between these Lab hue angles (degrees): crimson to scarlet, short of orange skin."""
WHITE_CHROMA = 18.0
"""A white piece's pixel is at most this coloured, and lighter than the print."""
ARM_LIKE = 12.0
"""Lab distance within which a square's print or middle is the colour of an arm seen
crossing the ground round the grid."""
GROUND = 20.0
"""Lab distance from the ground's median beyond which a point of the loop round the grid
is not ground."""
LIGHT_ONLY = 12.0
"""BGR distance (0..255 per channel) within which a run's median pixel is the ground's own
colour lit brighter toward white (a glare) or darker toward black (a shadow): light on the
ground, not an arm."""
FAINT = 8.0
"""Lab distance from the ground's median beyond which a point of the loop round the grid
may be an arm in the ground's own colour, when its run is outlined (`OUTLINED`) ... (set
by reasoning: a few times the noise and JPEG of the ground's samples, well short of
`GROUND`; the step, not this level, tells an arm from light)"""
OUTLINED = 6.0
"""... by a Lab step at least this at both its ends."""
STEPPED = 20.0
"""A run that looks like light (`LIGHT_ONLY`) but starts and ends with a Lab step at least
this (as far as `GROUND` within a third of a square) is an arm: a dark arm lies on the
ground's line to black as a shadow does, but a shadow's or a glare's edge is a slope (their
steps on development boards 1.4-7.7, a dark brown arm's 39)."""
ARM_RUN_SQ = 0.6
"""An arm crossing the ground round the grid is at least this wide, in squares (a tall
piece at the grid's edge leaning over the ground is narrower)."""
SHARE = 0.4
"""Share of a middle's pixels that must be of a piece's colour for the piece to be there
(a token's printed symbol or a glint takes the rest); a middle at least 1 - SHARE like one
strip of its print is empty."""

KIN = 12.0
"""`board_tone` distance within which two squares' print beside is the same print ..."""
KIN_MIN = 16
"""... a print at least this many squares share (set by reasoning: the nine pieces a
colour has at most, alike as a start row of them, are then short of `KIN_AGREE` of it) ..."""
KIN_AGREE = 0.6
"""... at least this share of which look alike in their middles tells its own middle
(`print_middles`) ..."""
KIN_ALIKE = 10.0
"""... alike: most of a middle's samples (`SHARE`) within this Lab distance of the print's
median (half `DIFFERENT`: a median between two looks, half the squares pieces, is at
least that far from both when the looks are told apart at all)."""

PRINTS_TRIED = 8
"""At most this many prints are looked for on one board (set by reasoning: a board is
printed in a few tints, and each print tried costs a median over its squares)."""

MIDDLE_SQ = 0.2
"""Radius of the middle looked at, in squares: inside every piece's footprint."""
STRUCTURE_SQ = 0.3
"""Radius, in squares, of the disc whose spread tells a piece from the flat print: a
base's outline, a top's rim, a decal or a shadow falls inside it; a frame, an icon or the
grid's lines fall outside."""
STRUCTURE = 9.0
"""90th percentile of the Lab distance from the disc's median beyond which a square the
colours call empty is unsure: something stands there that looks like its print (a pale
grey white on a light square, a dark red on a dark one)."""
STRUCTURE_OUT = 1.25
"""... and this many times the board's median square's (`structure_unsure`)."""
FLAT_OUT = 1.2
"""A square the colours call red or white whose disc spread is under this many times the
board's median square's is unsure (`structure_unsure`): a piece's rim and shaded sides make
its square at least about as busy as the board's empty squares; a middle of a piece's colour
flatter than they are is print (a panel, a motif of a white's tint in every square)."""
SHARED_FLAT = 2.2
"""... and under this many times its print's when its middle is alike the middles of more
of the board's other squares than a colour has pieces (`looks_shared`, `SHARED_OVER`): a
light panel or an icon of a white's tint the colours call white on a few squares (on
development mostly beside something that might be an arm, below `TOLD_OVER`'s count) is a
look the print shares, where one colour's pieces are at most `pieces_per_colour` squares
alike. From the curve of
`queen_alice_clumps.py --flat-curve` on the development draws named in the game's guide
(such squares under 1.5, 2.0, 2.2, 2.5, 3.0 times: 5, 12, 13, 13, 13 phantoms, 0, 0, 0, 1,
1 right pieces clear of arms), the last value with no right piece; at most `FLAT_OUT`:
never."""
STANDS_OUT = 3.0
"""A square whose disc spread (`STRUCTURE_SQ`) is this many times the board's median
square's holds a piece, whatever its colours say: the board's own squares, under the same
light, print and lens, set the scale (a base's outline, a top's rim, a decal or the sides'
shading is far busier than any print)."""
EDGES_OUT = 2.2
"""... and whose sharpest steps between neighbouring samples are this many times the
median square's: a piece's outline is a step, a glare's or a shadow's edge a slope (a
glare on a dark print is as busy as a piece, never as sharp)."""
IN_COLOUR_OUT = 2.5
"""A square the colours call empty whose disc spread is this many times the board's median
square's ..."""
IN_COLOUR_EDGES = 1.25
"""... and whose sharpest steps are this many times the median square's holds a piece when
its middle is of one of this board's piece colours (`NEAR`, `APART`): a wide checker covers
the strips of print beside it too, so its colours pass for the print, and a white like its
print is as busy as a piece only at its rim; the print near a piece colour is flat."""
APART = 0.5
"""A piece found by its structure takes the colour of the nearer of the board's red and
white pieces only when that is at most this share of the distance to the other ..."""
NEAR = 8.0
"""... and at most this far from it (`board_tone` units): an arm's shadow or edge the arms'
colours missed is busy too, but far from both ..."""
NEAR_CLEAR = 10.0
"""... or this far, for a square that stands out (`STANDS_OUT`), or is only busier than the
print (`in_colour`), clear of anything that might be an arm (`not_by_structure`): there no
arm's shadow or edge is the busy thing, and a piece in a shadow or a glare of the room's
light is its colour at another lightness, which `board_tone` halves but does not take
away."""
FAR_OUT = 12.0
"""A square clear of anything that might be an arm whose disc spread is this many times the
board's median square's (four times `STANDS_OUT`) ..."""
NEAR_FAR = 16.0
"""... takes the nearer of the board's two piece colours within this (`board_tone`), still
only when clearly nearer (`APART`): a piece that busy is a glossy or a tall one whose lit
side and shaded side lie each far from its colour's centre, which is their mean over the
board's pieces. Empty squares clear of arms on the development draws named in the game's
guide stand out up to 9.1 times the median on four of them; on the fifth, 13.5 (within
`NEAR_CLEAR`, read as a piece with or without this) and 11.2 and 14.1, 11.0 and 19.2 from
the nearer colour and not clearly nearer (0.53, 0.51 of the way to the other): `APART`
keeps those asked."""
ONE_NEAR = 8.0
"""On a board with one piece colour in view (`two_centres` None, `one_centre`): a square
found by its structure, clear of anything that might be an arm, takes that colour only
within this of the colour's centre (`board_tone`): with no other colour to be clearly
nearer than (`APART`), nearness alone says it (curve `--one-colour-curve`; 0: never)."""
ONE_TOLD = 2
"""... a colour the colours alone call on at least this many squares, and the other on
none: one told square is not yet the board's colour (a glare, a square of print)."""
UNTOLD_HUE = 30.0
"""A centre of `two_centres` no square the colours call its colour lies nearest (built only
from squares found by structure) is not this board's colour when its hue lies more than
this many degrees outside the colour's own (the red's `RED_HUE`; the white's: neutral,
within `WHITE_CHROMA`, or the warm ivory the colours call gold, up to `GOLD_HUE`): busy
print of another colour, read as pieces (curve `--untold-hue-curve`; inf: never)."""
PIECE_HUE = math.inf
"""A square named a colour by its structure (`piece_colours`) on a board where the colours
alone call no square that colour is asked about when its own hue lies more than this many
degrees outside the colour's (`hue_outside`): a busy print of another hue (a vivid square
with an icon and a panel) pulls that colour's centre to itself and reads as pieces (curves
`--told-behind-curve` and `--piece-hue-curve`: 20 on development; inf: never). Off: at 20
it changed no fresh house or random board and asked right pieces on a held-out board in
each of two held-out draws (one board lost; the game's guide)."""
GOLD_HUE = 110.0
"""The gold hue's far end (`shares`)."""
SEPARATION = 15.0
"""The board's red and white centres at least this far apart (`board_tone`), else only one
colour is in view and a piece found by structure is asked about."""
REDDER = 10.0
"""... and the red one at least this much redder (a*) than the white one, else the two
are shades of one colour (whites cream and yellower, the reds not seen) and which is red is
not guessed."""
NEAR_TOKEN = 20.0
"""An Alice token told by the board's own piece colours is at most this far from them
(`board_tone`): a token's top, lit as the pieces' tops are."""
NEAR_CHANGE = 12.0
"""A piece found by change is at most this far (`board_tone`) from the nearer of the
board's red and white pieces' colours, else asked about (an arm's edge or shadow changes a
square too)."""
ARM_SHADES = (0.3, 1.2)
"""The lightness of an arm's shades against its crossing's, darkest to lightest: a hand
in its own shadow keeps its hue and loses light (set by reasoning, not swept: a shadow
to a third of the light, a lit side a fifth brighter; only more squares are asked)."""
ARM_MARGIN = 2
"""Squares within this many (rows or columns) of one a might-be arm is followed to are
not read by structure (`not_by_structure`) ..."""
ALONE = 1
"""... except a square that stands out (`STANDS_OUT`) with at most this many of its four
neighbours neither a piece nor empty (`lone_squares`): a piece is one square's blob, an
arm's edge or shadow a run of unsure squares."""
SPOT_ARM_REACH = 4
"""Squares from where an arm crosses the ground within which a Crown slot or path space
of the arm's colour is asked about (`_spot_calls`), and beyond which a path space is clear
of every arm (`_clear_of_arms`): the one reach for both."""
MIDDLE_STEP_SQ = 0.06
"""Spacing of the middle's samples, in squares: about 5 pixels at 1280 x 960, so about 50
per square; the shares are as good as from every pixel, at a third of the cost."""
BESIDE_SQ = (0.36, 0.45)
"""The print is looked at along strips this far from the middle, in squares ..."""
BESIDE_ANGLES = (-105.0, -80.0, 80.0, 105.0)
"""... in these directions, in degrees from the direction toward the point under the
camera: across the lean, where neither the piece nor a neighbour's image reaches."""
SPOT_MIDDLE = 0.3
"""For Crowns and Alice tokens: the middle's radius and ..."""
SPOT_RING = (0.8, 0.95)
"""... the ring of print round the space, in token widths."""
CROWN_DISC = 0.52
"""Radius, in token widths, of the disc whose spread tells a Crown standing in its slot from
the slot's flat print: past a Crown's rim (half a token width), so even a Crown centred on
its slot shows its outline and its sides' shading there, and short of the slot's own
printed outline (0.6 token widths or more)."""
CROWN_STANDS = 2.8
"""A slot whose disc spread is at least this many times the path spaces' median (the board's
own printed spaces, under the same light, grain and lens) holds something standing: a
Crown when it is gold ..."""
CROWN_FLAT = 2.2
"""... and one below this many times is flat print; between the two, or a flat gold slot
where the print is not gold, or a standing slot of neither colour, the count is asked."""
CROWN_LIKE_PRINT = 5.0
"""With every slot gold, a standing slot whose middle is within this (`board_tone`) of the
flat slots' (the print's own gold) is asked about, not counted: a blurred print edge
stands too, and a Crown of the print's very gold is told by standing alone."""
CROWN_FLATS_ALIKE = 2.5
"""With every slot gold, the slots under `CROWN_FLAT` are the one print: when the busiest of
them is more than this many times the flattest, the path spaces' scale does not fit the
slots (a busy print on the paths makes Crowns look flat) and the count is asked."""
TOLD_OVER = 1.0
"""A colour the colours alone call on more than this many times the box's pieces of it
(`at_most`) is a print of that tint: every square read that colour is asked about."""
CROWN_REF_MIN = 6
"""Path spaces clear of any arm needed for their median spread to be the print's."""
CROWN_REF_ALIKE = 2.5
"""The most the path spaces' upper quartile of spread may be over their lower ..."""
CROWN_REF_GAP = 12.0
"""... when it is more than this above it (Lab): a floor above the sensor's noise (flat
spaces differ by large ratios and gaps of about 1)."""
CROWN_APART = 3.0
"""A Crown's standing at least this many times the flat slot's next below it, in order, when
the slots are compared with one another (`crowns_apart`)."""


@dataclass(frozen=True)
class Located:
    pose: BoardPose
    nadir_mm: Point
    """The board point under the camera: pieces lean away from it."""
    plane: np.ndarray | None = None
    """The board plane's homography to pixels when the lens has no distortion (`mm_to_pixels`),
    made once per picture rather than once per sampling."""


@dataclass(frozen=True)
class Arm:
    colour: np.ndarray
    """Lab of the arm where it crosses the ground round the grid."""
    crossing_mm: np.ndarray
    """K x 2 board mm of the loop points it covers."""


@dataclass(frozen=True)
class Arms:
    arms: tuple[Arm, ...]
    lit: tuple[Arm, ...] = ()
    """Runs as wide as an arm that look like light on the ground (a glare, a shadow, or an
    arm lit like the ground): not followed, but no square near them is read by structure."""


@dataclass(frozen=True)
class SpotColours:
    middle: np.ndarray
    """N x M x 3 Lab (L 0..100, a and b signed) of the pixels of each spot's middle."""
    beside: np.ndarray
    """N x S x 3 Lab of the print beside each spot: a median per strip (or arc) looked at."""
    structure: np.ndarray | None = None
    """Per square: the spread of its disc of radius `STRUCTURE_SQ` (None for spots)."""
    edges: np.ndarray | None = None
    """Per square: the 95th percentile of the Lab step between neighbouring samples of
    that disc (None for spots)."""
    printed: np.ndarray | None = None
    """Per square: its middle as the print is there with nothing on it, told by the board's
    other squares of the same print (`print_middles`; N x M x 3 Lab, NaN where not told;
    None for spots)."""
    kin: np.ndarray | None = None
    """Per pair of squares: their print beside alike (`print_kin`; N x N; None for spots)."""
    disc: np.ndarray | None = None
    """Per square: the Lab of its whole disc of radius `STRUCTURE_SQ` (N x D x 3; None for
    spots), for `cut_by_a_line` ..."""
    disc_at: np.ndarray | None = None
    """... its samples lying here round the square's centre (D x 2, in squares)."""


def locate(
    image: np.ndarray,
    geom: BoardGeometry,
    markers: dict[int, Marker] | None = None,
    calibration: Calibration | None = None,
) -> Located | None:
    """The board's pose. A picture that comes without its markers (live play passes the
    registration's) has them found by `board_markers` with the full-size search's corners:
    the reader's thresholds were chosen on those, and the half-size corners, up to 2 px off
    them, moved readings (a phantom on fresh boards with arms)."""
    if markers is None:
        markers = board_markers(image, geom, full_size_corners=True)
    pose = pose_in_image(image, geom, markers, calibration)
    if pose is None:
        return None
    c = pose.camera_centre
    plane = None if np.any(pose.dist) else pose.plane_homography(0.0)
    return Located(pose, (float(c[0]), float(c[1])), plane)


@functools.lru_cache(maxsize=8)
def _disc(radius: float, step: float) -> np.ndarray:
    """Offsets (M x 2) filling a disc, a grid `step` apart: the same few discs every
    picture, so made once (read-only)."""
    xx, yy, keep = _disc_grid(radius, step)
    out = np.stack([xx[keep], yy[keep]], axis=1)
    out.flags.writeable = False
    return out


def _disc_grid(radius: float, step: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    k = max(1, math.ceil(radius / step))
    g = np.arange(-k, k + 1) * (radius / k)
    xx, yy = np.meshgrid(g, g)
    return xx, yy, xx**2 + yy**2 <= radius**2 + 1e-9


@functools.lru_cache(maxsize=8)
def _disc_steps(radius: float, step: float) -> np.ndarray:
    """Pairs of `_disc` points next to each other along a row or a column (P x 2)."""
    keep = _disc_grid(radius, step)[2]
    index = np.full(keep.shape, -1)
    index[keep] = np.arange(int(keep.sum()))
    pairs = [
        np.stack([a[(a >= 0) & (b >= 0)], b[(a >= 0) & (b >= 0)]], axis=1)
        for a, b in ((index[:, :-1], index[:, 1:]), (index[:-1], index[1:]))
    ]
    return np.concatenate(pairs)


_LAB_SCALE = np.array([100.0 / 255.0, 1.0, 1.0], np.float32)
_LAB_SHIFT = np.array([0.0, -128.0, -128.0], np.float32)


def _lab8(px: np.ndarray) -> np.ndarray:
    """Lab of N x 3 8-bit BGR samples as they come from the picture, L 0..100 and signed a,
    b. Through OpenCV's 8-bit table: the samples are 8-bit already, and the table is several
    times faster than the float conversion (a step of at most 0.4 in L and 1 in a or b, far
    below any threshold)."""
    row = np.ascontiguousarray(px).reshape(1, -1, 3)  # one row: OpenCV converts row by row,
    # so a column of single pixels costs a call per pixel
    lab = cv2.cvtColor(row, cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float32)
    lab *= _LAB_SCALE
    lab += _LAB_SHIFT
    return lab


def mm_to_pixels(
    pose: BoardPose, points_mm: np.ndarray, plane: np.ndarray | None = None
) -> np.ndarray:
    """Board-plane points to pixels: by the plane's homography when the lens has no
    distortion (one matrix product; `plane` when the caller has it already, `Located`),
    else through OpenCV's full projection."""
    if not np.any(pose.dist):
        h = pose.plane_homography(0.0) if plane is None else plane
        p = points_mm @ h[:, :2].T + h[:, 2]
        return np.asarray(p[:, :2] / p[:, 2:3], np.float32)
    return pose.project(np.hstack([points_mm, np.zeros((len(points_mm), 1))])).astype(np.float32)


def _sample(image: np.ndarray, where: Located, points_mm: np.ndarray) -> np.ndarray:
    return _sample8(image, where, points_mm).astype(np.float32)


def _sample8(image: np.ndarray, where: Located, points_mm: np.ndarray) -> np.ndarray:
    """The picture's 8-bit BGR at board points (N x 3), bilinear."""
    pix = mm_to_pixels(where.pose, points_mm, where.plane)
    got = cv2.remap(  # the points as one row (see `_lab8`)
        image,
        np.ascontiguousarray(pix[:, 0]).reshape(1, -1),
        np.ascontiguousarray(pix[:, 1]).reshape(1, -1),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0),
    )
    return got.reshape(-1, 3)


_CENTRES: dict[tuple[object, ...], np.ndarray] = {}


def _centres(geom: BoardGeometry, cells: tuple[Cell, ...]) -> np.ndarray:
    """The squares' centres (N x 2 board mm, `cell_mm`), made once per board and list of
    squares (read-only): every stage looks them up, a few hundred calls a picture otherwise.
    Keyed by what `cell_mm` reads."""
    key = (geom.rows, geom.square_mm, geom.grid_origin_mm, cells)
    got = _CENTRES.get(key)
    if got is None:
        got = np.array([geom.cell_mm(c) for c in cells])
        got.flags.writeable = False
        if len(_CENTRES) >= 16:
            _CENTRES.clear()
        _CENTRES[key] = got
    return got


_MADE: dict[tuple[object, ...], object] = {}
_T = TypeVar("_T")


def _made_once(key: tuple[object, ...], make: Callable[[], _T]) -> _T:
    """What `make` gives for `key` (what it is made from: the board's sizes and the constants
    it reads), made once: points on the board and directions that are the same every
    picture (read-only; a few dozen numpy calls a picture otherwise)."""
    got = _MADE.get(key)
    if got is None:
        got = make()
        if len(_MADE) >= 64:
            _MADE.clear()
        _MADE[key] = got
    return cast(_T, got)


def _directions(count: int, turn: float) -> np.ndarray:
    """`count` unit directions (count x 2) evenly over `turn` radians from 0 (read-only)."""

    def make() -> np.ndarray:
        angle = np.linspace(0, turn, count, endpoint=False)
        out = np.stack([np.cos(angle), np.sin(angle)], axis=1)
        out.flags.writeable = False
        return out

    return _made_once(("directions", count, turn), make)


def _strip(angle: np.ndarray, lo: float, hi: float, n: int) -> np.ndarray:
    """Points along a radial strip at each of the given angles: (len(angle), n, 2)."""
    r = np.linspace(lo, hi, n)
    return np.stack([np.cos(angle)[:, None] * r, np.sin(angle)[:, None] * r], axis=2)


def _spot_colours(
    image: np.ndarray, where: Located, centres: np.ndarray, middle: np.ndarray, beside: np.ndarray
) -> SpotColours:
    """`middle` (M x 2) offsets round every centre; `beside` (N x S x K x 2): K points along
    each of S strips per spot."""
    n, m = len(centres), len(middle)
    s = beside.shape[1]
    flat = np.concatenate(
        [(centres[:, None, :] + middle[None]).reshape(-1, 2), beside.reshape(-1, 2)]
    )
    lab = _lab8(_sample8(image, where, flat))
    return SpotColours(
        lab[: n * m].reshape(n, m, 3), median_along(lab[n * m :].reshape(n, s, -1, 3), 2)
    )


def find_arms(
    image: np.ndarray, geom: BoardGeometry, where: Located, light_only: float | None = None
) -> Arms:
    """Arms come from beyond the board, so each crosses the ground round the grid: a loop
    a quarter square outside the grid, where the print is one ground. Runs of the loop far
    from the ground's colour, wide as an arm, give the arms' colours (a run of two arms side
    by side cut in two, `split_run`); those that look like
    light on the ground (`LIGHT_ONLY`, or `light_only` when given) are kept apart as `lit`.
    An arm in the ground's own colour is an arm too when its run has an outline
    (`outlined_runs`, `OUTLINED`): unseen, the squares under it read as their print and
    its edges as pieces."""
    light_only = LIGHT_ONLY if light_only is None else light_only
    sq = geom.square_mm
    step = sq * LOOP_STEP_SQ
    pts = loop_points(geom)
    px = _sample8(image, where, pts)
    bgr, lab = px.astype(np.float32), _lab8(px)
    ground = median_along(lab, 0)
    foreign = norm_along(lab - ground, axis=1) > GROUND
    if foreign.all():
        return Arms(())
    unlit = _off_the_light_line(bgr, median_along(bgr, 0))
    # runs round the loop (rolled so that no run wraps)
    start = int(np.argmin(foreign))
    f, lab = np.roll(foreign, -start), np.roll(lab, -start, axis=0)
    pts, unlit = np.roll(pts, -start, axis=0), np.roll(unlit, -start)
    arms: list[Arm] = []
    lit: list[Arm] = []
    n = len(f)
    taken = np.zeros(n, bool)
    min_run = ARM_RUN_SQ * sq / step
    for i, j in runs_of(f):
        if j - i >= min_run:
            for a, b in split_run(lab, i, j, min_run):
                run = Arm(median_along(lab[a:b], 0), pts[a:b])
                (lit if looks_like_light(lab, unlit, a, b, light_only) else arms).append(run)
            taken[i:j] = True
    for i, j, step in outlined_runs(lab, min_run):  # an arm in the ground's own colour
        idx = np.arange(i, j) % n
        if step >= OUTLINED and not taken[idx].any():
            arms.append(Arm(median_along(lab[idx], 0), pts[idx]))
    return Arms(tuple(arms), tuple(lit))


LOOP_STEP_SQ = 0.1
"""Spacing of the loop's samples round the grid, in squares."""

ARM_SPLIT = math.inf
"""Two arms side by side cross the loop round the grid as one run, and the colour of the
one not followed is never learnt: a run whose two parts, each as wide as an arm, have
medians at least this far apart (`_shade_distance`: one arm's shading varies its lightness
far more than its hue) is two arms. Off (infinite): chosen at 14 on development
(`benchmarks/queen_alice_arm_split.py`' curve: 12, 14 and 16 catch the same hidden pieces,
14 the most boards right), it caught no hidden piece on fresh boards and asked squares
clear of arms (the game's guide)."""


def split_run(lab: np.ndarray, i: int, j: int, min_run: float) -> list[tuple[int, int]]:
    """The loop's run [i, j) round the grid (`find_arms`) as the arms that cross it: cut
    where its two parts, each at least `min_run` samples, are each most of one colour (the
    least squared spread about their means, lightness at half weight as in
    `_shade_distance`), when their medians lie at least `ARM_SPLIT` apart; each part is cut
    again the same way."""
    part = max(1, math.ceil(min_run))
    if j - i < 2 * part or math.isinf(ARM_SPLIT):
        return [(i, j)]
    x = lab[i:j].astype(np.float64) * (0.5, 1.0, 1.0)
    total = np.concatenate([np.zeros((1, 3)), np.cumsum(x, axis=0)])
    square = np.concatenate([[0.0], np.cumsum(np.sum(x * x, axis=1))])
    t = np.arange(part, j - i - part + 1)
    n = len(x)
    left = square[t] - np.sum(total[t] ** 2, axis=1) / t
    right = square[n] - square[t] - np.sum((total[n] - total[t]) ** 2, axis=1) / (n - t)
    cut = i + int(t[int(np.argmin(left + right))])
    apart = _shade_distance(median_along(lab[i:cut], 0), median_along(lab[cut:j], 0))
    if float(apart) < ARM_SPLIT:
        return [(i, j)]
    return split_run(lab, i, cut, min_run) + split_run(lab, cut, j, min_run)


def loop_points(geom: BoardGeometry) -> np.ndarray:
    """The loop round the grid `find_arms` samples, a quarter square outside it (board mm;
    made once per board, read-only)."""
    key = ("loop", geom.square_mm, geom.grid_box_mm, LOOP_STEP_SQ)
    return _made_once(key, lambda: _loop_points(geom))


def _loop_points(geom: BoardGeometry) -> np.ndarray:
    sq = geom.square_mm
    (x0, y0), (x1, y1) = geom.grid_box_mm
    m = 0.25 * sq
    x0, y0, x1, y1 = x0 - m, y0 - m, x1 + m, y1 + m
    step = sq * LOOP_STEP_SQ
    edges = [((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))]
    out = np.concatenate(
        [np.linspace(a, b, max(2, int(math.dist(a, b) / step)), endpoint=False) for a, b in edges]
    )
    out.flags.writeable = False
    return out


def outlined_runs(lab: np.ndarray, min_run: float) -> list[tuple[int, int, float]]:
    """Runs of the loop round the grid (`find_arms`) at least `FAINT` from the ground's
    median and at least `min_run` samples long, each with the smaller of the Lab steps at
    its two ends: (first, past the last, step), indices possibly past the loop's end (they
    wrap). An arm in the ground's own colour (a brown sleeve on a brown board) is no
    further from it than a glare, but it has an outline where it crosses the loop: a step,
    where light on the ground is a slope."""
    off = norm_along(lab - median_along(lab, 0), axis=1) > FAINT
    if off.all() or not off.any():
        return []
    start = int(np.argmin(off))
    out = []
    for i, j in runs_of(np.roll(off, -start)):
        if j - i >= min_run:
            a, b = start + i, start + j
            out.append((a, b, _end_step(lab, a, b)))
    return out


def runs_of(on: np.ndarray) -> list[tuple[int, int]]:
    """The runs of True in a 1-D bool array, in order: (first, past the last)."""
    edges = np.diff(np.concatenate(([0], on.astype(np.int8), [0])))
    firsts, ends = np.flatnonzero(edges == 1).tolist(), np.flatnonzero(edges == -1).tolist()
    return list(zip(firsts, ends, strict=True))


def looks_like_light(
    lab: np.ndarray, unlit: np.ndarray, a: int, b: int, light_only: float = LIGHT_ONLY
) -> bool:
    """The loop's run [a, b) round the grid is light on the ground (a glare, a shadow), not
    an arm: its pixels lie near the ground's colour under other light (`unlit`, within
    `light_only`) and it fades in and out (its end steps under `STEPPED`). A dark arm on
    a ground of its hue lies on the ground's line to black as a shadow does; its outline
    tells it."""
    return bool(median_along(unlit[a:b], 0) <= light_only and _end_step(lab, a, b) < STEPPED)


def _end_step(lab: np.ndarray, a: int, b: int) -> float:
    """The smaller of the Lab steps at the two ends of the loop's run [a, b): two samples
    each side of each end, the end's own sample (maybe mid-step) left out."""
    starts = _mean_at(lab, [a + 1, a + 2]) - _mean_at(lab, [a - 2, a - 1])
    ends = _mean_at(lab, [b - 3, b - 2]) - _mean_at(lab, [b, b + 1])
    return float(min(np.linalg.norm(starts), np.linalg.norm(ends)))


def _mean_at(lab: np.ndarray, at: list[int]) -> np.ndarray:
    return np.asarray(np.mean(lab[np.array(at) % len(lab)], axis=0))


def _off_the_light_line(bgr: np.ndarray, ground: np.ndarray) -> np.ndarray:
    """Per pixel: how far it is from the ground's colour under other light. A glare adds
    white to what it falls on and a shadow scales it down, so either keeps a pixel on the
    segment from the ground's colour to white or to black; an arm's own colour lies off it."""
    up = 255.0 - ground
    a = np.clip((bgr - ground) @ up / max(1e-6, float(up @ up)), 0.0, 1.0)
    brighter = norm_along(bgr - (ground + a[:, None] * up), axis=1)
    b = np.clip(bgr @ ground / max(1e-6, float(ground @ ground)), 0.0, 1.0)
    darker = norm_along(bgr - b[:, None] * ground, axis=1)
    return np.asarray(np.minimum(brighter, darker))


def _shade_distance(lab: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Lab distance with lightness at half weight: an arm's shading varies its lightness
    far more than its hue."""
    d = lab - ref
    return np.sqrt((0.5 * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def _arm_like(colours: SpotColours, arm: Arm, printed: np.ndarray | None = None) -> np.ndarray:
    """Per spot: its print beside, or most of its middle, has the arm's colour; a middle
    only where it is not the print's own (`_printed_middle`, or `printed` when the caller
    has it: a panel of an arm's colour in every square is the print)."""
    beside = np.any(_shade_distance(colours.beside, arm.colour) <= ARM_LIKE, axis=1)
    middle = np.mean(_shade_distance(colours.middle, arm.colour) <= ARM_LIKE, axis=1)
    printed = _printed_middle(colours) if printed is None else printed
    return beside | ((middle >= 1 - SHARE) & ~printed)


def _printed_middle(colours: SpotColours) -> np.ndarray:
    """Per spot: most of its middle is its print's own middle, where the board tells it
    (`SpotColours.printed`; never for spots)."""
    if colours.printed is None:
        return np.zeros(len(colours.middle), bool)
    near = norm_along(colours.middle - colours.printed, axis=2) < DIFFERENT  # NaN: False
    return np.asarray(np.mean(near, axis=1) >= 1 - SHARE)


def _arm_shade_like(
    colours: SpotColours, arm: Arm, printed: np.ndarray | None = None
) -> np.ndarray:
    """Per spot: most of its middle is the arm's colour in another shade (`ARM_SHADES`): the
    arm's Lab scaled as a shadow or a lit side scales it (its hand in its own shade, unlike
    its crossing). `printed`: `_printed_middle(colours)`, when the caller has it."""
    mid = colours.middle
    scale = np.clip(mid[..., 0] / max(float(arm.colour[0]), 1e-3), *ARM_SHADES)
    d = norm_along(mid - scale[..., None] * arm.colour, axis=-1)
    printed = _printed_middle(colours) if printed is None else printed
    return np.asarray((np.mean(d <= ARM_LIKE, axis=1) >= 1 - SHARE) & ~printed)


def arm_squares(
    colours: SpotColours,
    arms: Arms,
    geom: BoardGeometry,
    cells: tuple[Cell, ...],
    shades: bool = False,
    sides: SideColours | None = None,
) -> set[Cell]:
    """Squares under an arm: of the arm's colour (or, with `shades`, of its shades too) and
    joined, side to side, to where it crosses the ground (a square of the print that
    happens to share an arm's colour elsewhere on the board is not under it), within the
    band one arm covers (`arm_band`). An arm is wider than a square, so the squares under
    it share sides; squares of a print in checks meet only at their corners. With `sides`
    (`sample_sides`), a step from a square to its neighbour also needs the side they share
    hidden (`sides_hidden`): an arm hides the line between two squares it covers, while a
    print of the arm's colour beyond its hand shows its lines there (its grid, its frames)."""
    out: set[Cell] = set()
    index = {c: k for k, c in enumerate(cells)}
    centres = _centres(geom, cells)
    printed = _printed_middle(colours) if arms.arms else None  # the same for every arm
    for arm in arms.arms:
        like = _arm_like(colours, arm, printed)
        if shades:
            like = like | _arm_shade_like(colours, arm, printed)
        hidden = None if sides is None else sides_hidden(sides, colours, arm)
        near = _gap_to(centres, arm.crossing_mm)
        todo = [c for k, c in enumerate(cells) if like[k] and near[k] <= geom.square_mm]
        seen = set(todo)
        while todo:
            at = todo.pop()
            for n in _sides(at):
                if n not in index or n in seen or not like[index[n]]:
                    continue
                if (
                    sides is not None
                    and hidden is not None
                    and not hidden[sides.index[min(at, n), max(at, n)]]
                ):
                    continue  # a line shows between them: not one arm over both
                seen.add(n)
                todo.append(n)
        out |= arm_band(seen, arm, geom)
    return out


@dataclass(frozen=True)
class SideColours:
    """The sides two squares share: Lab samples along each (P x K x 3), the two squares'
    indices in the board's cells (P x 2), and each pair's row (the lower cell first)."""

    lab: np.ndarray
    ends: np.ndarray
    index: dict[tuple[Cell, Cell], int]


def sample_sides(image: np.ndarray, geom: BoardGeometry, where: Located) -> SideColours:
    """Each side two squares share, sampled along its middle as wide as a square's disc
    (`STRUCTURE_SQ` either way of the side's midpoint, every `MIDDLE_STEP_SQ`): the line a
    board prints between its squares, or whatever lies over it."""
    key = ("sides", geom.rows, geom.cols, geom.square_mm, geom.grid_origin_mm)
    pts, ends, index = _made_once((*key, STRUCTURE_SQ, MIDDLE_STEP_SQ), lambda: _side_points(geom))
    lab = _lab8(_sample8(image, where, pts.reshape(-1, 2))).reshape(len(ends), pts.shape[1], 3)
    return SideColours(lab, ends, index)


def _side_points(
    geom: BoardGeometry,
) -> tuple[np.ndarray, np.ndarray, dict[tuple[Cell, Cell], int]]:
    """`sample_sides`' points (P x K x 2 board mm), the two squares of each side and each
    pair's row: the same every picture of a board."""
    sq = geom.square_mm
    cells = geom.cells
    at = {c: k for k, c in enumerate(cells)}
    pairs = [
        (cell, n)
        for cell in cells
        for n in ((cell[0] + 1, cell[1]), (cell[0], cell[1] + 1))
        if n in at
    ]
    a = np.array([geom.cell_mm(p) for p, _ in pairs], np.float64)
    b = np.array([geom.cell_mm(n) for _, n in pairs], np.float64)
    way = (b - a) / np.linalg.norm(b - a, axis=1, keepdims=True)
    along = np.stack([-way[:, 1], way[:, 0]], axis=1)  # the side runs across the step
    t = np.arange(-STRUCTURE_SQ, STRUCTURE_SQ + 1e-9, MIDDLE_STEP_SQ) * sq
    pts = (a + b)[:, None, :] / 2 + t[None, :, None] * along[:, None, :]
    ends = np.array([(at[p], at[n]) for p, n in pairs], np.intp)
    pts.flags.writeable = False
    ends.flags.writeable = False
    return pts, ends, {pair: k for k, pair in enumerate(pairs)}


def sides_hidden(sides: SideColours, colours: SpotColours, arm: Arm) -> np.ndarray:
    """Per side (`SideColours`): hidden, as a square's middle is judged of a colour (most of
    its samples, all but `SHARE`, within `ARM_LIKE`), either of the arm's colour or of
    either of its squares' middles (an arm's shade changes along it: its hand darker in its
    own shadow than where it crosses the ground, a fold darker than its side). What shows
    is a line a print draws between its squares, unlike both, where the print beside is of
    the arm's colour."""
    arm_like = np.mean(_shade_distance(sides.lab, arm.colour) <= ARM_LIKE, axis=1) >= 1 - SHARE
    middles = median_along(colours.middle, 1)[sides.ends]  # P x 2 x 3
    d = _shade_distance(sides.lab[:, None], middles[:, :, None])  # P x 2 x K
    either = np.any(np.mean(d <= ARM_LIKE, axis=2) >= 1 - SHARE, axis=1)
    return np.asarray(arm_like | either)


ARM_BAND = 0.75
"""Half the width of the band an arm covers, as a share of its crossing's length round the
grid (an arm crossing at a slant crosses a longer run than it is wide; its hand is a
little wider than its forearm) ..."""
ARM_BAND_ANGLES = 72
"""... along the direction, of this many round the crossing, that holds the most squares
followed by colour (set by reasoning: 5 degrees apart, a band's width swings by less than a
square over the board's length)."""


def arm_band(followed: set[Cell], arm: Arm, geom: BoardGeometry) -> set[Cell]:
    """The squares followed by an arm's colour (`arm_squares`) that one arm can cover: a
    band as wide as its crossing, from the crossing into the board, the way that holds the
    most of them. A print of the arm's colour is followed square to square too (checks, a
    row, a column of it), but away from the arm: an arm is one band, a print a pattern."""
    if not followed:
        return followed
    cells = sorted(followed)
    centres = _centres(geom, geom.cells)[[r * geom.cols + c for r, c in cells]]
    at = np.mean(arm.crossing_mm, axis=0)
    across = float(np.max(norm_along(arm.crossing_mm - at, axis=1)))  # half its length
    half = 2 * ARM_BAND * across + 0.5 * math.sqrt(2) * geom.square_mm  # a square touched
    way = _directions(ARM_BAND_ANGLES, 2 * math.pi)  # D x 2
    rel = centres - at  # N x 2
    along = rel @ way.T  # N x D
    off = np.abs(rel[:, :1] * way[:, 1] - rel[:, 1:] * way[:, 0])  # N x D
    inside = (off <= half) & (along >= -half)
    best = inside[:, int(np.argmax(inside.sum(axis=0)))]
    return {c for c, keep in zip(cells, best, strict=True) if keep}


@dataclass(frozen=True)
class SquarePoints:
    """Where a square is looked at, in board mm: its disc (N x M x 2, radius
    `STRUCTURE_SQ`) and its strips of print beside, across the lean (N x S x K x 2)."""

    disc: np.ndarray
    strips: np.ndarray


def square_points(geom: BoardGeometry, where: Located, cells: tuple[Cell, ...]) -> SquarePoints:
    sq = geom.square_mm
    centres = _centres(geom, cells)
    disc = _disc(STRUCTURE_SQ * sq, sq * MIDDLE_STEP_SQ)
    return SquarePoints(centres[:, None, :] + disc[None], square_strips(geom, where, cells))


def square_strips(geom: BoardGeometry, where: Located, cells: tuple[Cell, ...]) -> np.ndarray:
    """`SquarePoints.strips` alone (what `sample_squares` needs of them)."""
    sq = geom.square_mm
    centres = _centres(geom, cells)
    nx, ny = where.nadir_mm
    toward = np.arctan2(ny - centres[:, 1], nx - centres[:, 0])
    strips = np.concatenate(
        [
            _strip(toward + math.radians(a), BESIDE_SQ[0] * sq, BESIDE_SQ[1] * sq, 6)[:, None]
            for a in BESIDE_ANGLES
        ],
        axis=1,
    )
    return np.asarray(centres[:, None, None, :] + strips)


def sample_squares(
    image: np.ndarray, geom: BoardGeometry, where: Located, cells: tuple[Cell, ...]
) -> SpotColours:
    """Each square's middle, and its print along strips across the lean (each strip on its
    own: an arm or a neighbour's foot over some still leaves the others showing the print)."""
    sq = geom.square_mm
    centres = _centres(geom, cells)
    disc = _disc(STRUCTURE_SQ * sq, sq * MIDDLE_STEP_SQ)
    wide = _spot_colours(image, where, centres, disc, square_strips(geom, where, cells))
    return told_squares(wide.middle, wide.beside, print_kin(wide.beside), geom)


def told_squares(
    wide: np.ndarray, beside: np.ndarray, kin: np.ndarray, geom: BoardGeometry
) -> SpotColours:
    """The squares' colours from their discs (`wide`, N x M x 3 Lab over radius
    `STRUCTURE_SQ`) and print beside, each print's middle told from the squares `kin` pairs
    (`print_middles`), and each square's structure what that middle does not explain."""
    sq = geom.square_mm
    inner, disc_at = _made_once(
        ("inner", sq, STRUCTURE_SQ, MIDDLE_STEP_SQ, MIDDLE_SQ), lambda: _disc_inner(sq)
    )
    printed = print_middles(wide, beside, kin)
    # a square's structure is what its print's own look does not explain (a panel's edge,
    # an icon), where the board tells that look
    rest = np.where(np.isnan(printed), wide, wide - printed)
    pairs = _disc_steps(STRUCTURE_SQ * sq, sq * MIDDLE_STEP_SQ)
    step_lab = np.take(rest, pairs[:, 0], axis=1) - np.take(rest, pairs[:, 1], axis=1)
    steps = np.sqrt(np.einsum("npk,npk->np", step_lab, step_lab))
    return SpotColours(
        wide[:, inner],
        beside,
        _spread(rest).astype(np.float32),
        percentile_along(steps, 95).astype(np.float32),
        printed[:, inner],
        kin,
        wide,
        disc_at,
    )


def _disc_inner(sq: float) -> tuple[np.ndarray, np.ndarray]:
    """Which samples of a square's disc (`STRUCTURE_SQ`) lie in its middle (`MIDDLE_SQ`),
    and where each lies, in squares (read-only)."""
    disc = _disc(STRUCTURE_SQ * sq, sq * MIDDLE_STEP_SQ)
    inner = np.hypot(disc[:, 0], disc[:, 1]) <= MIDDLE_SQ * sq + 1e-9
    at = disc / sq
    inner.flags.writeable = False
    at.flags.writeable = False
    return inner, at


ARM_LEARN_MAX = 0.5
"""Squares under arms (`arm_squares`) are left out of learning the print (`told_squares`:
an arm's colour is not the print's middle) when they are at most this share of the board;
past it the print would be learnt from too few squares (an arm followed over 50 of 81
squares on a print of near its colour left a red to be read white). From the curve of
`queen_alice_failures.py --arm-learn-curve` (development draws in the game's guide)."""


def learnt_without(colours: SpotColours, leave: set[int], geom: BoardGeometry) -> SpotColours:
    """`colours` with each print's middle learnt without the squares `leave` (under an arm:
    an arm's colour is not the print's), when they are at most `ARM_LEARN_MAX` of the board;
    else as they are."""
    if not leave or len(leave) > ARM_LEARN_MAX * len(colours.middle):
        return colours
    assert colours.kin is not None and colours.disc is not None
    out = np.array(sorted(leave))
    kin = colours.kin.copy()
    kin[out, :] = False
    kin[:, out] = False
    return told_squares(colours.disc, colours.beside, kin, geom)


def print_kin(beside: np.ndarray) -> np.ndarray:
    """Per pair of squares (N x N): their print beside (N x S x 3 Lab) is alike (`KIN`): the
    same print, for `print_middles` and `print_scale` alike."""
    tone = board_tone(median_along(beside, 1))
    return np.asarray(norm_along(tone[:, None] - tone[None], axis=2) <= KIN)


def middles_alike(distance: np.ndarray) -> np.ndarray:
    """Two middles are alike when most of their samples (at least 1 - `SHARE`: a piece's
    symbol or a glint takes the rest) lie within `KIN_ALIKE` of each other: `distance` holds
    each sample's Lab distance, samples on the last axis, and the answer drops that axis. The
    one test by which `print_middles` tells a print's look and `shared_looks` counts the
    squares sharing one."""
    return np.asarray(np.mean(distance < KIN_ALIKE, axis=-1) >= 1 - SHARE)


def print_middles(
    middle: np.ndarray, beside: np.ndarray, kin: np.ndarray | None = None
) -> np.ndarray:
    """Per square, its disc (`middle`, N x M x 3 Lab) as its print is with nothing on it,
    from the board itself (N x M x 3; NaN where not told): a board's squares share a few
    prints and most of them are empty, so what most squares show, sample by sample, is
    the print's own middle (a panel, a medallion, an icon of another tint than the print
    beside). Either one middle over the whole board (a panel of one tint over prints of
    several), or per print: the squares whose print beside is alike (`KIN`), their middles
    relative to it, in proportion to its light. A look is a square's print's only when at
    least `KIN_AGREE` of the squares it is told from (`KIN_MIN` or more) are alike it
    (`KIN_ALIKE`): the nine pieces of a colour never make a print's majority. Looks are
    taken from the squares with the most kin not yet told (`PRINTS_TRIED` at most). `kin`:
    `print_kin(beside)`, when the caller has it."""
    base = median_along(beside, 1)
    # light scales L + 16, a and b alike (cube roots of a gain): the print's own middle is
    # its print beside plus an offset in proportion
    scale = (base[:, 0] + 16.0)[:, None]
    offsets = (middle - base[:, None]) / scale[..., None]
    kin = print_kin(beside) if kin is None else kin
    out = np.full(middle.shape, np.nan, np.float32)
    flat = np.ascontiguousarray(offsets.reshape(len(middle), -1).T)  # samples x squares
    size = kin.sum(axis=1)
    best = np.zeros(len(middle))  # per square: the share of its kin its print's look fits
    looked = size < KIN_MIN
    # one middle printed on every square (a panel of one tint over prints of several):
    # most squares show it as it is, whatever their print beside
    same = median_along(middle, 0)
    alike = middles_alike(norm_along(middle - same, axis=2))
    if np.mean(alike) >= KIN_AGREE:
        out[:] = same
        best[:] = np.mean(alike)
        looked |= alike
    tried: set[bytes] = set()
    for _ in range(PRINTS_TRIED):  # a look from the squares most alike in print not yet told
        if looked.all():
            break
        lead = int(np.argmax(np.where(looked, -1, size)))
        looked[lead] = True
        if kin[lead].tobytes() in tried:
            # the same kin give the same look, which told every square it could then
            continue  # (`best` only grows): a try, and nothing more
        tried.add(kin[lead].tobytes())
        template = median_along(flat[:, kin[lead]], 1).reshape(middle.shape[1:])
        alike = middles_alike(norm_along(offsets - template, axis=2) * scale)
        # per square: its own kin alike (a square left out of every kin, under an arm, has none)
        agree = (kin @ alike.astype(np.float32)) / np.maximum(size, 1)
        fits = (agree >= KIN_AGREE) & (size >= KIN_MIN) & (agree > best)
        out[fits] = base[fits][:, None] + template * scale[fits][..., None]
        best[fits] = agree[fits]
        looked |= fits
    return out


def _arcs(t: float) -> np.ndarray:
    """The ring of print round a spot (`SPOT_RING`, token width `t`): 4 arcs x 4 x 2 mm."""
    angles = np.linspace(0, 2 * math.pi, 16, endpoint=False)
    out = _strip(angles, SPOT_RING[0] * t, SPOT_RING[1] * t, 2).reshape(4, -1, 2)
    out.flags.writeable = False
    return out


def sample_spots(
    image: np.ndarray, geom: BoardGeometry, where: Located, spots: tuple[Point, ...]
) -> SpotColours:
    """A Crown slot's or path space's middle and the ring of print round it."""
    t = geom.token_mm
    centres = np.array(spots)
    arcs = _made_once(("arcs", t, SPOT_RING), lambda: _arcs(t))
    return _spot_colours(
        image,
        where,
        centres,
        _disc(SPOT_MIDDLE * t, t * 0.07),
        centres[:, None, None, :] + arcs[None],
    )


@dataclass(frozen=True)
class Shares:
    """Shares of a middle's pixels: like the print, red, white."""

    board: float
    red: float
    white: float
    gold: float


def shares(colours: SpotColours) -> list[Shares]:
    """Per spot, at once for all (N spots, M middle pixels, S strips)."""
    return [
        Shares(float(b), float(r), float(w), float(g))
        for b, r, w, g in zip(*share_arrays(colours), strict=True)
    ]


def share_arrays(colours: SpotColours) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`shares` as four arrays (N each: board, red, white, gold), for `classify` to decide
    every spot at once."""
    mid, bes = colours.middle, colours.beside
    d = norm_along(mid[:, :, None, :] - bes[:, None, :, :], axis=3)  # N x M x S
    board = np.max(np.mean(d < DIFFERENT, axis=1), axis=1)  # the best-matching strip
    chroma = np.hypot(mid[..., 1], mid[..., 2])
    hue = np.degrees(np.arctan2(mid[..., 2], mid[..., 1]))
    apart = np.all(d >= DIFFERENT, axis=2)
    if colours.printed is not None:  # the print's own middle, where the board tells it
        printed = norm_along(mid - colours.printed, axis=2) < DIFFERENT  # NaN: False
        board = np.maximum(board, np.mean(printed, axis=1))
        apart &= ~printed
    red = apart & (chroma >= RED_CHROMA) & (hue >= RED_HUE[0]) & (hue <= RED_HUE[1])
    white = apart & (chroma <= WHITE_CHROMA) & (mid[..., 0] > np.max(bes[..., 0], axis=1)[:, None])
    gold = (chroma >= RED_CHROMA) & (hue > RED_HUE[1] + 15) & (hue <= GOLD_HUE)
    return board, red.mean(axis=1), white.mean(axis=1), gold.mean(axis=1)


_CALLED = ("red", "white", "gold")


def classify(colours: SpotColours, gold_first: bool = False) -> list[tuple[str, float]]:
    """Per spot: "empty", "red", "white", "gold" (a Crown) or "unsure", with a confidence.

    `gold_first` for Crown slots: a Crown is told by its gold alone there (a slot's own
    print differs from the ground round it, so "not the print" says nothing)."""
    board, red, white, gold = share_arrays(colours)
    piece = np.stack([red, white, gold])
    best = np.argmax(piece, axis=0)  # the first of red, white, gold on a tie, as `max`
    top = piece[best, np.arange(len(board))]
    out = []
    for b, g, j, p in zip(board.tolist(), gold.tolist(), best.tolist(), top.tolist(), strict=True):
        if gold_first and g >= SHARE:
            out.append(("gold", g))
        elif b >= 1 - SHARE:
            out.append(("empty", b))
        elif p >= SHARE:
            out.append((_CALLED[j], p))
        else:
            out.append(("unsure", 0.0))
    return out


def read_board(
    image: np.ndarray,
    calibration: Calibration | None = None,
    *,
    geom: BoardGeometry | None = None,
    markers: dict[int, Marker] | None = None,
    empty: EmptyLook | None = None,
) -> BoardReading:
    """The board in one BGR picture (the live table's per-frame call).

    `markers`, when the caller has detected them already (the registration does), saves
    the detection. `empty`, the board's own empty look (`empty.py`), decides the squares
    whose print it knows by what changed on them (`by_change`); the rest are read from this
    picture alone. Squares neither empty nor a piece (an arm over them) are `unsure` and
    never guessed; a Crown count or an Alice position with anything unsure is None.
    """
    geom = geom or load_geometry()
    where = locate(image, geom, markers, calibration)
    if where is None:
        return BoardReading(
            {},
            frozenset(),
            None,
            {"red": None, "white": None},
            {},
            ("the board's corner markers (30-33) are not seen: fewer than three found",),
            board_found=False,
        )
    cells = geom.cells
    arms = find_arms(image, geom, where)
    colours = sample_squares(image, geom, where, cells)
    sides = sample_sides(image, geom, where) if arms.arms else None
    under = arm_squares(colours, arms, geom, cells, sides=sides)
    under_at = {k for k, c in enumerate(cells) if c in under}
    colours = learnt_without(colours, under_at, geom)
    calls = [
        ("unsure", 0.0) if c in under else call
        for c, call in zip(cells, classify(colours), strict=True)
    ]
    calls = shared_looks(calls, colours, under_at, geom)
    told = calls  # what the colours alone say, before change or structure add pieces
    known = np.zeros(len(cells), bool)
    if empty is not None:
        change = _change(image, geom, where, cells, empty)
        known = ~np.isnan(change.share)
        near_arm = not_by_structure(geom, arms, colours) if colours.structure is not None else set()
        calls = by_change(calls, change, under_at, colours.structure, near_arm)
    if colours.structure is not None and not known.all():
        scale = print_scale(colours.structure, colours.beside, colours.kin)
        shared = shared_pieces(calls, colours, under_at, geom)
        calls = structure_unsure(calls, colours.structure, known, scale, shared)
        arm_k = under_at | {int(k) for k in np.flatnonzero(known)}
        ask = not_by_structure(geom, arms, colours)
        found_from = calls
        calls = piece_colours(calls, colours, arm_k, ask, lone_squares(cells, calls))
        calls = busy_for_its_print(found_from, calls, colours, arm_k, ask, scale)
        calls = quiet_pieces(calls, found_from, colours, arm_k, scale)
        calls = second_opinion.name_asked(calls, told, colours, scale, under_at, known, ask, geom)
    tone = board_tone(median_along(colours.middle, 1))
    calls = at_most(told, calls, geom.pieces_per_colour, tone)
    squares = {c: v for c, (v, _) in zip(cells, calls, strict=True) if v in ("red", "white")}
    confidence = {c: p for c, (v, p) in zip(cells, calls, strict=True) if v in ("red", "white")}
    unsure = frozenset(
        c for c, (v, _) in zip(cells, calls, strict=True) if v not in ("red", "white", "empty")
    )
    warnings = [
        unsure_warning(
            c, "an arm?" if c in under else "neither clearly a piece nor the board's print"
        )
        for c in sorted(unsure)
    ]
    centres = two_centres(calls, tone, [])
    paths = path_calls(image, geom, where, arms)
    crowns = _crowns(image, geom, where, arms, paths)
    if crowns is None:
        warnings.append("crowns: a slot of the display is not clearly seen")
    alice: dict[str, int | None] = {}
    for colour in ("red", "white"):
        alice[colour] = _alice(image, geom, where, colour, arms, centres, paths)
        if alice[colour] is None:
            warnings.append(f"alice: the {colour} token is not clearly seen on its path")
    return BoardReading(
        squares, unsure, crowns, alice, confidence, tuple(warnings), pose=where.pose
    )


SHARED_OVER = 1.0
"""A square the colours do not tell whose middle more than this many times the box's pieces
of one colour (`pieces_per_colour`) of the board's other squares share is print
(`shared_looks`)."""


def shared_looks(
    calls: list[tuple[str, float]], colours: SpotColours, skip: set[int], geom: BoardGeometry
) -> list[tuple[str, float]]:
    """Squares the colours call unsure or gold (neither their print beside nor a piece's
    colour: a panel, a medallion or an icon the board does not tell by `print_middles`)
    whose middle is alike (`KIN_ALIKE`, most of its samples: `SHARE`) the middles of more of
    the board's other squares than a colour has pieces (`SHARED_OVER`) are empty: one colour's
    pieces are at most `pieces_per_colour` squares alike, and red and white are not alike, so
    a look that many others share is the print's. The look is held by the other squares, not
    by the one read; squares under an arm (`skip`) neither hold it nor are read so (an arm
    covers a run of squares in one colour). A piece on a print of its own tint may share the
    print's look too, but stands out by its rim and sides: every square so called is still
    asked about or read by its structure, as every square the colours call empty."""
    ask = [k for k, (v, _) in enumerate(calls) if v in ("unsure", "gold") and k not in skip]
    if not ask:
        return calls
    others = looks_shared(colours, ask, skip)
    out = list(calls)
    for k, n in zip(ask, others, strict=True):
        if n > SHARED_OVER * geom.pieces_per_colour:
            out[k] = ("empty", 0.5)
    return out


def looks_shared(colours: SpotColours, ask: list[int], skip: Collection[int]) -> np.ndarray:
    """Per square of `ask` (none of them in `skip`): how many of the board's other squares,
    those under an arm (`skip`) left out, have a middle alike its own (`middles_alike`)."""
    holders = np.ones(len(colours.middle), bool)
    holders[list(skip)] = False
    mid = colours.middle
    alike = middles_alike(norm_along(mid[ask][:, None] - mid[holders][None], axis=3))
    return np.asarray(alike.sum(axis=1) - 1)  # each square is alike itself


def learn_empty_board(
    image: np.ndarray,
    geom: BoardGeometry | None = None,
    calibration: Calibration | None = None,
    markers: dict[int, Marker] | None = None,
) -> tuple[EmptyLook, BoardReading] | None:
    """The board's empty look from a photograph of it with nothing on the squares (the
    "teach your board" step), and this reader's reading of that photograph; None when its
    corner markers are not seen. A square the reading does not call clearly empty (a piece
    left standing, an arm) is not learnt: it is read from each picture alone. Its markers are
    found once (as `locate` finds them) for the pose here and the reading."""
    geom = geom or load_geometry()
    if markers is None:
        markers = board_markers(image, geom, full_size_corners=True)
    where = locate(image, geom, markers, calibration)
    if where is None:
        return None
    reading = read_board(image, calibration, geom=geom, markers=markers)
    empty = set(geom.cells) - set(reading.squares) - set(reading.unsure)
    return empty_look(image, geom, functools.partial(mm_to_pixels, where.pose), empty), reading


LEARN_WEIGHT = 0.25
"""Share a still frame's print takes in a square's learnt look once it is known (set by
reasoning, not swept: a few frames average the sensor's noise out, and a change of the
room's light is followed within a second or two)."""


def learn_free_squares(
    look: EmptyLook | None,
    image: np.ndarray,
    occupied: Collection[Cell],
    markers: dict[int, Marker] | None = None,
    geom: BoardGeometry | None = None,
    pose: BoardPose | None = None,
) -> EmptyLook | None:
    """The live table's learning: the print of every square but the `occupied` ones (the
    engine's), from a still frame that shows the engine's board; the look as it was when
    the board is not seen. `pose`, the frame's reading's (`BoardReading.pose`), saves
    working it out again (and finding the markers again when they came without)."""
    geom = geom or load_geometry()
    if pose is None:
        where = locate(image, geom, markers)
        if where is None:
            return look
        pose = where.pose
    free = {c for c in geom.cells if c not in set(occupied)}
    to_pixels = functools.partial(mm_to_pixels, pose)
    if look is None:
        return empty_look(image, geom, to_pixels, free)
    look.learn(image, geom, to_pixels, free, LEARN_WEIGHT)
    return look


def _change(
    image: np.ndarray,
    geom: BoardGeometry,
    where: Located,
    cells: tuple[Cell, ...],
    empty: EmptyLook,
) -> Change:
    points = square_points(geom, where, cells)
    disc, strips = points.disc.reshape(-1, 2), points.strips.reshape(-1, 2)
    bgr = _sample(image, where, np.concatenate([disc, strips]))
    sq = geom.square_mm
    return changes(
        empty,
        points.disc,
        bgr[: len(disc)].reshape((*points.disc.shape[:2], 3)),
        points.strips,
        bgr[len(disc) :].reshape((*points.strips.shape[:3], 3)),
        _disc_steps(STRUCTURE_SQ * sq, sq * MIDDLE_STEP_SQ),
        (geom.rows, geom.cols),
    )


def by_change(
    calls: list[tuple[str, float]],
    change: Change,
    skip: set[int],
    spread: np.ndarray | None = None,
    ask: Collection[int] = (),
) -> list[tuple[str, float]]:
    """Squares whose empty print is known, decided by what changed on them, with what the
    picture alone says (`calls`, and each disc's `spread`) as a second opinion:

    - almost nothing changed (`CLEAR`): empty;
    - much changed as a piece changes it (`OCCUPIED`, `like_a_piece`): a piece of the
      colour its colours alone call, or else of the nearer of this board's red and white
      pieces' colours (the changed samples; `two_means` of these squares) when clearly
      nearer (`APART`) and near (`NEAR_CHANGE`); asked about when the two disagree, when
      neither tells, when the picture alone plainly sees the print there (its colours say
      so and its disc is flat, `STRUCTURE`, against strips of print that did not change:
      `COVERED`) or near a might-be arm (`ask`: an arm's edge and shadow change squares as
      a piece does);
    - otherwise the picture alone's piece, or empty where it plainly sees the print and
      the change is toward neither of the board's colours (light the fit missed, a glare
      toward the print's own hue); else asked about.

    Squares in `skip` (under an arm) and those not learnt keep their call."""
    share = change.share
    out = list(calls)
    todo = [k for k, v in enumerate(share) if k not in skip and not np.isnan(v) and v > CLEAR]
    for k, v in enumerate(share):
        if k not in skip and not np.isnan(v) and v <= CLEAR:
            out[k] = ("empty", float(1 - v))
    shaped = {k for k in todo if share[k] >= OCCUPIED and like_a_piece(change, k)}
    tone = board_tone(change.colour)
    centres = two_means(tone[sorted(shaped)])
    for k in todo:
        said = calls[k][0] if calls[k][0] in ("red", "white") else None
        seen = None
        if centres is not None:
            d = norm_along(tone[k] - centres, axis=1)
            j = int(np.argmin(d))
            if d[j] <= APART * d[1 - j] and d[j] <= NEAR_CHANGE:
                seen = ("red", "white")[j]
        plain = (
            calls[k][0] == "empty"
            and (spread is None or spread[k] <= STRUCTURE)
            and change.covered[k] < COVERED
        )
        if seen is not None and said is not None and seen != said:
            out[k] = ("unsure", 0.0)
        elif said is not None:
            out[k] = (said, float(share[k])) if k in shaped else calls[k]
        elif k in shaped and seen is not None and not plain and k not in ask:
            out[k] = (seen, float(share[k]))
        elif plain and k not in shaped and seen is None:
            out[k] = calls[k]
        else:
            out[k] = ("unsure", 0.0)
    return out


def not_by_structure(geom: BoardGeometry, arms: Arms, colours: SpotColours) -> set[int]:
    """Squares not to read by structure: an arm's blurred edge and its shadow are busy
    too, and spread past the squares its colour is followed to. Those within `ARM_MARGIN`
    of the squares an arm is followed to, or of those beside where an arm or a run that
    looks like light (`Arms.lit`: an arm lit like the ground is one) crosses the ground (an
    arm of another colour than at its crossing is not followed, but comes in there). A run
    of light is not followed by its colour: the ground's colour under light is the print's
    on many boards, and following it asked about pieces all over a board with no arm. An
    arm is followed here through its own shades too (`ARM_SHADES`): a hand in its own
    shadow is not the colour of its crossing, and its edge over a light square is as busy
    as a piece."""
    cells = geom.cells
    runs = (*arms.arms, *arms.lit)
    maybe = arm_squares(colours, arms, geom, cells, shades=True)
    if runs:
        centres = _centres(geom, cells)
        crossing = np.concatenate([run.crossing_mm for run in runs])
        gap = _gap_to(centres, crossing)
        maybe |= {c for c, d in zip(cells, gap, strict=True) if d <= geom.square_mm}
    grid = np.zeros((geom.rows + 2 * ARM_MARGIN, geom.cols + 2 * ARM_MARGIN), bool)
    for r, c in maybe:
        grid[r + ARM_MARGIN, c + ARM_MARGIN] = True
    side = 2 * ARM_MARGIN + 1  # each square's window of squares within ARM_MARGIN
    near = np.asarray(np.lib.stride_tricks.sliding_window_view(grid, (side, side)).any(axis=(2, 3)))
    return {k for k, (r, c) in enumerate(cells) if near[r, c]}


def structure_unsure(
    calls: list[tuple[str, float]],
    structure: np.ndarray,
    known: np.ndarray | None = None,
    scale: np.ndarray | None = None,
    shared: np.ndarray | None = None,
) -> list[tuple[str, float]]:
    """Squares the colours call empty whose disc is busier than a flat print's
    (`STRUCTURE`) and than an empty square of their print's (`STRUCTURE_OUT`) are unsure:
    something may stand there in its print's colours. A busy print (an icon, a panel's edge in
    every square) makes its squares as busy, and a square no busier than them says nothing.
    `scale` is that print's (`print_scale`, per square); the board's median square's when not
    given. Squares whose empty print is `known` are decided by their change instead. A
    square called red or white whose look is `shared` (per square: by more squares than a
    colour has pieces) is unsure under `SHARED_FLAT` times its print's."""
    if scale is None:
        scale = np.full(len(calls), float(median_along(structure, 0)), np.float32)
    seen = np.zeros(len(calls), bool) if known is None else known
    alike = np.zeros(len(calls), bool) if shared is None else shared
    return [
        ("unsure", 0.0)
        if not k_seen
        and (
            (v == "empty" and spread > max(STRUCTURE, STRUCTURE_OUT * ref))
            or (v in ("red", "white") and spread < (SHARED_FLAT if many else FLAT_OUT) * ref)
        )
        else (v, p)
        for (v, p), spread, k_seen, ref, many in zip(
            calls, structure, seen, scale, alike, strict=True
        )
    ]


def shared_pieces(
    calls: list[tuple[str, float]], colours: SpotColours, skip: set[int], geom: BoardGeometry
) -> np.ndarray:
    """Per square: called red or white (not under an arm, `skip`) with a middle alike more
    of the board's other squares than a colour has pieces (`looks_shared`, `SHARED_OVER`)."""
    out = np.zeros(len(calls), bool)
    pieces = [k for k, (v, _) in enumerate(calls) if v in ("red", "white") and k not in skip]
    if pieces and SHARED_FLAT > FLAT_OUT:
        many = looks_shared(colours, pieces, skip) > SHARED_OVER * geom.pieces_per_colour
        out[pieces] = many
    return out


def print_scale(
    values: np.ndarray, beside: np.ndarray, kin: np.ndarray | None = None
) -> np.ndarray:
    """Per square, the median of `values` (a disc's spread) over the squares of its print:
    those whose print beside is alike (`KIN`), when at least `KIN_MIN` share it (most of
    them empty: nine pieces of a colour never make its majority); else over the whole
    board. A board printed in two prints, one with a motif, is busy on one and flat on the
    other, and an empty square is as busy as its own print's squares, not the board's.
    `kin`: `print_kin(beside)`, when the caller has it."""
    kin = print_kin(beside) if kin is None else kin
    own = medians_of(values, kin)
    told = kin.sum(axis=1) >= KIN_MIN
    return np.where(told, own, median_along(values, 0)).astype(np.float32)


def medians_of(values: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """Per row of `chosen` (K x N, each row choosing at least one): the median of the
    `values` (N) it chooses, as `np.median` gives it (the two middle values' mean in their
    own dtype), all rows at once: the values sorted once, each row's middle two found by
    counting its chosen values in that order."""
    order = np.argsort(values, kind="stable")
    ranked = values[order]
    rank = np.cumsum(chosen[:, order], axis=1)  # per row: its chosen values up to here
    count = rank[:, -1:]
    low = ranked[np.argmax(rank >= (count + 1) // 2, axis=1)]
    high = ranked[np.argmax(rank >= count // 2 + 1, axis=1)]
    odd = count[:, 0] % 2 == 1
    return np.asarray(np.where(odd, low, (low + high) / 2).astype(values.dtype))


def board_tone(lab: np.ndarray) -> np.ndarray:
    """Lab with lightness at half weight (as `_shade_distance`): light across the board
    varies a piece's lightness more than its hue."""
    return np.asarray(lab * np.array([0.5, 1.0, 1.0], np.float32))


def stand_out(calls: list[tuple[str, float]], colours: SpotColours, skip: set[int]) -> list[int]:
    """Squares the colours call empty, unsure or gold whose disc is far busier than the
    board's median square's (`STANDS_OUT`), with sharp steps in it (`EDGES_OUT`): something
    stands there. No Crown stands on the chessboard, so gold there is a warm ivory white
    (its hue is a Crown's) or print, never a Crown: the board's own pieces tell which."""
    return _busier(calls, colours, skip, STANDS_OUT, EDGES_OUT)


def two_centres(
    calls: list[tuple[str, float]], tone: np.ndarray, found: list[int]
) -> np.ndarray | None:
    """This board's red and white piece colours (rows 0 and 1, in `board_tone`): two-means over
    every square read as a piece and those found by structure, started from the most and
    the least red (a* against lightness); None when the two are not `SEPARATION` apart
    or the redder is not `REDDER` than the other (one colour only: which one is not
    guessed), or when a centre no square the colours call its colour lies nearest is of a
    hue no piece of that colour has (`UNTOLD_HUE`: busy print of another colour)."""
    told = [k for k, (v, _) in enumerate(calls) if v in ("red", "white")]
    centres = two_means(tone[told + found])
    if centres is None:
        return None
    nearest = np.argmin(norm_along(tone[told][:, None] - centres[None], axis=2), axis=1)
    for j, name in enumerate(("red", "white")):
        behind = any(n == j and calls[k][0] == name for k, n in zip(told, nearest, strict=True))
        if not behind and hue_outside(centres[j], j) > UNTOLD_HUE:
            return None  # print of another colour: which piece colour is in view is not guessed
    return centres


def hue_outside(tone: np.ndarray, j: int) -> float:
    """Degrees by which `tone`'s hue (`board_tone`) lies outside the red's (j 0: `RED_HUE`)
    or the white's (1: any hue within `WHITE_CHROMA`, else from the red's end to the gold's,
    `GOLD_HUE`, the warm ivory of a white in warm light); 0 inside."""
    a, b = float(tone[1]), float(tone[2])
    if j == 1 and math.hypot(a, b) <= WHITE_CHROMA:
        return 0.0
    lo, hi = RED_HUE if j == 0 else (RED_HUE[1], GOLD_HUE)
    hue = math.degrees(math.atan2(b, a))
    if lo <= hue <= hi:
        return 0.0
    return min(abs((hue - end + 180.0) % 360.0 - 180.0) for end in (lo, hi))


def two_means(pts: np.ndarray) -> np.ndarray | None:
    """`two_centres` of the pieces' tones themselves (K x 3)."""
    if len(pts) < 2:
        return None
    redness = pts[:, 1] - pts[:, 0]
    centres = np.stack([pts[np.argmax(redness)], pts[np.argmin(redness)]])
    last = None
    for _ in range(8):
        near = np.argmin(norm_along(pts[:, None] - centres[None], axis=2), axis=1)
        if last is not None and np.array_equal(near, last):
            break  # settled: the same split gives the same centres
        last = near
        centres = np.stack(
            [pts[near == j].mean(axis=0) if np.any(near == j) else centres[j] for j in (0, 1)]
        )
    if centres[0, 1] - centres[0, 0] < centres[1, 1] - centres[1, 0]:
        centres = centres[::-1]
    if float(np.linalg.norm(centres[0] - centres[1])) < SEPARATION:
        return None
    if centres[0, 1] - centres[1, 1] < REDDER:
        return None  # two shades of one colour (a cream white and a yellower one)
    return np.asarray(centres)


def one_centre(calls: list[tuple[str, float]], tone: np.ndarray) -> tuple[int, np.ndarray] | None:
    """A board with one piece colour in view: 0 (red) or 1 (white), the colour the colours
    alone call on at least `ONE_TOLD` squares with the other on none, and its mean tone
    (`board_tone`) over them; else None (both, or neither: `two_centres` decides)."""
    told = [[k for k, (v, _) in enumerate(calls) if v == name] for name in ("red", "white")]
    have = [j for j in (0, 1) if told[j]]
    if len(have) != 1 or len(told[have[0]]) < ONE_TOLD:
        return None
    j = have[0]
    return j, np.asarray(tone[told[j]].mean(axis=0))


def _near_one(tone: np.ndarray, one: tuple[int, np.ndarray] | None) -> int | None:
    """The one colour (`one_centre`) when `tone` lies within `ONE_NEAR` of it; else None."""
    if one is None or ONE_NEAR <= 0 or float(np.linalg.norm(tone - one[1])) > ONE_NEAR:
        return None
    return one[0]


def piece_colours(
    calls: list[tuple[str, float]],
    colours: SpotColours,
    skip: set[int],
    ask: Collection[int] = (),
    lone: Collection[int] = (),
) -> list[tuple[str, float]]:
    """Squares that stand out from the board's print by their structure hold a piece even where
    its colours pass for the print (a pale white on a light square, a wide base hiding the
    print beside it). Its colour comes from this board's own red and white pieces
    (`two_centres`): the nearer, when clearly nearer (`APART`) and near (`NEAR`;
    `NEAR_CLEAR` clear of anything that might be an arm, where a piece in a shadow is the
    busy thing, not an arm's shadow or edge; `NEAR_FAR` there for a square far busier still,
    `FAR_OUT`); with one colour in view (`one_centre`), that colour within `ONE_NEAR` of
    it, clear of anything that might be an arm; else (or when among those to `ask` about and
    not `lone`: an arm's edge or shadow is busy too, but spreads over a run of squares the
    colours do not tell; or when its disc is cut straight in two, `_cut_straight`, an arm's
    edge beside a might-be arm or, `CUT_CLEAR`, anywhere; or when the colours call no square
    that colour and its own hue lies past `PIECE_HUE` outside it) unsure. A square its
    colours call red or white but clearly nearer (`APART`) this board's other colour is
    asked about (a dark red lighter than a dark print passes for a white by its colours
    alone). A square less busy but still busier than the print (`in_colour`) holds a piece
    only when so near one of those colours (`NEAR_CLEAR`: it is never among those to `ask`
    about) and, for a colour the colours call nowhere, of its hue (`PIECE_HUE`); else it
    keeps its call (asking about it instead broke the live tracker on the sim film: no move
    of a three-player game recorded, two breaches)."""
    found = stand_out(calls, colours, skip)
    tone = board_tone(median_along(colours.middle, 1))
    centres = two_centres(calls, tone, found)
    out = list(calls)
    assert colours.structure is not None
    far = FAR_OUT * float(median_along(colours.structure, 0))
    one = one_centre(calls, tone) if centres is None else None
    untold = [all(v != name for v, _ in calls) for name in ("red", "white")]

    def of_hue(k: int, j: int) -> bool:  # not a print of another hue named an untold colour
        return not untold[j] or hue_outside(tone[k], j) <= PIECE_HUE

    for k in found:
        out[k] = ("unsure", 0.0)
        if centres is None and k not in ask and (j := _near_one(tone[k], one)) is not None:
            out[k] = (("red", "white")[j], 0.5)
        if centres is None or (k in ask and k not in lone):
            continue
        if (k in ask or CUT_CLEAR) and _cut_straight(colours, k):
            continue
        clear = NEAR_FAR if colours.structure[k] >= far else NEAR_CLEAR
        j = _nearer_piece(tone[k], centres, NEAR if k in ask else clear)
        if j is not None and of_hue(k, j):
            out[k] = (("red", "white")[j], 0.5)
    for k in in_colour(calls, colours, skip | set(found) | set(ask)):
        if centres is None:
            j = _near_one(tone[k], one)
        else:
            j = _nearer_piece(tone[k], centres, NEAR_CLEAR)
        if j is not None and of_hue(k, j):
            out[k] = (("red", "white")[j], 0.5)
    for k, (v, _) in enumerate(calls):  # a colour the board's own pieces contradict
        if v in ("red", "white") and k not in skip and centres is not None:
            d = norm_along(tone[k] - centres, axis=1)
            j = ("red", "white").index(v)
            if d[1 - j] <= APART * d[j]:
                out[k] = ("unsure", 0.0)
    return out


QUIET_OUT = 1.75
"""A square still read empty after `piece_colours` whose disc spread is at least this many
times its print's (`print_scale`) ..."""
QUIET_UNLIKE = 8.0
"""... whose middle lies at least this far (Lab) from its print beside and from its print's
own middle where the board tells it (`print_middles`) ..., and which is clearly nearer
(`APART`) and near (`NEAR`) one of the board's piece colours, is asked about
(`quiet_pieces`): a piece in its print's colours on a flat print, busier than the print but
under `STRUCTURE`'s floor, or a wide checker whose top covers a strip of the print beside.
From the curve of `queen_alice_missed.py --curve` on the development draws named in the
game's guide (pieces read empty caught / empty squares caught, at 1.25, 1.5, 1.75, 2.0
times with `QUIET_UNLIKE` 8: 6/6, 5/2, 5/0, 4/0; at 1.75 with 0, 4, 6, 8, 10, 14: 5/9,
5/1, 5/0, 5/0, 4/0, 3/0); inf: never."""


def quiet_pieces(
    read: list[tuple[str, float]],
    calls: list[tuple[str, float]],
    colours: SpotColours,
    skip: set[int],
    scale: np.ndarray,
) -> list[tuple[str, float]]:
    """`read` (the calls after `piece_colours`) with each square it leaves empty that looks
    like a piece in its print's colours asked about (`QUIET_OUT`, `QUIET_UNLIKE`): busier than
    its own print, its middle unlike that print and of one of the board's piece colours
    (`two_centres` of `calls`, the calls `piece_colours` was given, as it builds them).
    Squares in `skip` (under an arm, or decided by change) are left as they are."""
    if not math.isfinite(QUIET_OUT) or colours.structure is None:
        return read
    empty = [k for k, (v, _) in enumerate(read) if v == "empty" and k not in skip]
    busy = [k for k in empty if colours.structure[k] >= QUIET_OUT * scale[k]]
    if not busy:
        return read
    tone = board_tone(median_along(colours.middle, 1))
    centres = two_centres(calls, tone, stand_out(calls, colours, skip))
    if centres is None:
        return read
    middle = median_along(colours.middle[busy], 1)
    unlike = norm_along(middle - median_along(colours.beside[busy], 1), axis=1)
    if colours.printed is not None:
        own = norm_along(middle - median_along(colours.printed[busy], 1), axis=1)  # NaN: untold
        unlike = np.where(np.isnan(own), unlike, np.minimum(unlike, own))
    out = list(read)
    for k, far in zip(busy, unlike.tolist(), strict=True):
        if far >= QUIET_UNLIKE and _nearer_piece(tone[k], centres, NEAR) is not None:
            out[k] = ("unsure", 0.0)
    return out


BUSY_PRINT = 5.0
"""A square standing out clear of anything that might be an arm whose disc spread is this
many times its own print's median square's (`print_scale`) ..."""
NEAR_BUSY = 0.0
"""... takes the nearer of the board's two piece colours within this (`board_tone`), still
only when clearly nearer (`APART`) and not cut straight (`busy_for_its_print`); 0: never.
Off: at its development value, 14, it named a phantom red on a fresh draw (the game's
guide)."""


def busy_for_its_print(
    before: list[tuple[str, float]],
    calls: list[tuple[str, float]],
    colours: SpotColours,
    skip: set[int],
    ask: Collection[int],
    scale: np.ndarray,
) -> list[tuple[str, float]]:
    """Squares `piece_colours` left asked that stood out (`stand_out` over `before`, the
    calls it was given) clear of anything that might be an arm (not in `ask`), past
    `NEAR_CLEAR` of the board's nearer piece colour: one far busier than its own print's
    squares (`BUSY_PRINT` times `print_scale`) is a piece whose lit and shaded sides lie
    apart, and takes that colour within `NEAR_BUSY`. `NEAR_CLEAR` measures against the
    board's median square, which a busy print beside a plain one raises; an empty square
    standing out on its own print is an edge or a motif no busier than that print's own
    squares by far (as `FAR_OUT` and `NEAR_FAR` for the board's median square)."""
    if NEAR_BUSY <= 0:
        return calls
    assert colours.structure is not None
    found = stand_out(before, colours, skip)
    spread = colours.structure
    pick = [
        k
        for k in found
        if calls[k][0] == "unsure" and k not in ask and spread[k] >= BUSY_PRINT * scale[k]
    ]
    if not pick:
        return calls
    tone = board_tone(median_along(colours.middle, 1))
    centres = two_centres(before, tone, found)
    if centres is None:
        return calls
    untold = [all(v != name for v, _ in before) for name in ("red", "white")]
    out = list(calls)
    for k in pick:
        if _cut_straight(colours, k):
            continue
        j = _nearer_piece(tone[k], centres, NEAR_BUSY)
        if j is not None and (not untold[j] or hue_outside(tone[k], j) <= PIECE_HUE):
            out[k] = (("red", "white")[j], 0.5)
    return out


CUT_WRONG = 0.02
"""A square standing out beside a might-be arm is read only when alone (`ALONE`) and its disc
is not cut straight in two: a line parting its two looks misplaces more than this share of
its samples (arm edges on development boards 0 or 0.009, two samples in a hundred at most;
pieces read right with a side over a tenth 0.027 and up) ..."""
CUT_SIDE = 0.12
"""... or leaves less than this share on its smaller side (a glint or a rim's sliver: pieces
read right that a line parts as cleanly kept 0.03-0.11 on it, arm edges 0.28-0.5, and an
arm's edge or its shadow over a sliver of the disc 0.12-0.14; whole boards in the curve of
`--cut-curve`, the development draws named in the game's guide)."""
CUT_CLEAN = 0.08
"""... or, when the line misplaces not one sample, leaves at least this share on its smaller
side: an arm's edge over a sliver of the disc parts it exactly (development phantoms 0.115
and 0.124 on their smaller side, 0 misplaced), a piece's rim or glint that thin misplaces a
sample or two, or is thinner (0.035); from the whole-board curve of `--cut-clear-curve`,
flat from 0.06 to 0.1."""
CUT_CLEAR = True
"""The cut test (`_cut_straight`) asks about a square standing out clear of any might-be
arm too: an arm the follower missed (its crossing not seen, or farther than `ARM_MARGIN`)
has the same straight edge. On the development draws of `--cut-clear-curve` no piece read
right clear of arms was cut so straight (the nearest misplaced 3 samples of 113), and one
phantom was (2)."""
CUT_ANGLES = 36
"""Directions tried for the line that cuts a disc in two (`cut_by_a_line`; set by reasoning:
5 degrees apart, a line across the disc moves by under a sample at its rim)."""


def cut_by_a_line(lab: np.ndarray, at: np.ndarray) -> tuple[float, float]:
    """How cleanly a straight line cuts a square's disc (`SpotColours.disc`, D x 3 Lab of
    samples lying `at`, D x 2) into its two looks: the disc's samples split into two colours
    (two-means), and the straight line that best parts them by where they lie. Returns the
    share of samples that line puts on the wrong side and the smaller look's share. An arm's
    edge crosses a square as a straight line, the arm on one side and the print on the
    other; a piece's outline closes round the square's middle, its print a ring round it."""
    first = lab[int(np.argmax(norm_along(lab - lab.mean(axis=0), axis=1)))]
    centres = np.stack([first, lab[int(np.argmax(norm_along(lab - first, axis=1)))]])
    side = np.zeros(len(lab), bool)
    for _ in range(8):
        side = norm_along(lab - centres[1], axis=1) < norm_along(lab - centres[0], axis=1)
        if side.all() or not side.any():
            return 0.5, 0.0
        centres = np.stack([lab[~side].mean(axis=0), lab[side].mean(axis=0)])
    along = at @ np.ascontiguousarray(_directions(CUT_ANGLES, math.pi).T)  # D x angles
    ranked = side[np.argsort(along, axis=0)]  # each direction's samples, in order along it
    before = np.cumsum(ranked, axis=0)  # the second look's samples up to each place
    total = int(side.sum())
    at = np.arange(1, len(lab) + 1)[:, None]
    # the line after each place: the first look before it and the second after, or the
    # other way round
    wrong = np.minimum(before + (len(lab) - at) - (total - before), (at - before) + total - before)
    smaller = min(total, len(lab) - total) / len(lab)
    return float(np.min(wrong)) / len(lab), smaller


def _cut_straight(colours: SpotColours, k: int) -> bool:
    """Square `k`'s disc is cut straight in two (`cut_by_a_line`): the line misplaces at most
    `CUT_WRONG` of its samples and leaves at least `CUT_SIDE` on its smaller side, or
    misplaces none and leaves at least `CUT_CLEAN`."""
    if colours.disc is None or colours.disc_at is None:
        return False
    wrong, smaller = cut_by_a_line(colours.disc[k], colours.disc_at)
    return (wrong <= CUT_WRONG and smaller >= CUT_SIDE) or (wrong == 0 and smaller >= CUT_CLEAN)


def at_most(
    told: list[tuple[str, float]],
    calls: list[tuple[str, float]],
    most: int,
    tone: np.ndarray | None = None,
) -> list[tuple[str, float]]:
    """No play adds a piece, so a reading with more than `most` (the box's
    `pieces_per_colour`) of one colour is wrong somewhere: a whole print of a piece's tint
    read as pieces by its structure or its change. Those of that colour the colours alone
    (`told`) did not call so are asked about; if still too many, every one of that colour
    is (which are phantoms is not guessed). When the colours alone call more than
    `TOLD_OVER` times `most` squares one colour, they call a print of that tint so (the flat
    ones `FLAT_OUT` asks about are its squares; the busier ones may be too): every square of
    that colour is asked about. With `tone` (each square's middle, `board_tone`), a square
    the colours call that colour but as near (`NEAR`) the look of those asked is that print
    too (a panel of a white's tint read gold on most squares and white on one)."""
    out = list(calls)
    for colour in ("red", "white"):
        mine = [k for k, (v, _) in enumerate(out) if v == colour]
        if sum(v == colour for v, _ in told) > TOLD_OVER * most:
            for k in mine:
                out[k] = ("unsure", 0.0)
            continue
        if len(mine) <= most:
            continue
        added = [k for k in mine if told[k][0] != colour]
        for k in added if len(mine) - len(added) <= most else mine:
            out[k] = ("unsure", 0.0)
        if tone is not None and added and len(mine) - len(added) <= most:
            look = np.median(tone[added], axis=0)  # the print read as pieces
            for k in mine:
                if float(np.linalg.norm(tone[k] - look)) <= NEAR:
                    out[k] = ("unsure", 0.0)
    return out


def lone_squares(cells: tuple[Cell, ...], calls: list[tuple[str, float]]) -> set[int]:
    """Squares with at most `ALONE` of their four neighbours called neither a piece nor
    empty (unsure or gold): a piece's structure stays on its own square, while an arm's
    blurred edge or shadow, or a hand its colour missed, leaves a run of such squares."""
    if not cells:
        return set()
    told = ("red", "white", "empty")
    at = np.array(cells, np.intp).reshape(-1, 2)
    at -= at.min(axis=0) - 1  # a frame of squares off the board round the grid
    asked = np.zeros(tuple(at.max(axis=0) + 2), np.intp)
    asked[at[:, 0], at[:, 1]] = [v not in told for v, _ in calls]
    r, c = at[:, 0], at[:, 1]
    around = asked[r - 1, c] + asked[r + 1, c] + asked[r, c - 1] + asked[r, c + 1]
    return {int(k) for k in np.flatnonzero(around <= ALONE)}


def _sides(cell: Cell) -> tuple[Cell, ...]:
    """The four squares sharing a side with `cell` (some may lie off the board)."""
    r, c = cell
    return ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))


def _nearer_piece(tone: np.ndarray, centres: np.ndarray, near: float = NEAR) -> int | None:
    """0 (red) or 1 (white): the board's piece colour `tone` is clearly nearer (`APART`)
    and near (within `near`); else None."""
    d = norm_along(tone - centres, axis=1)
    j = int(np.argmin(d))
    return j if d[j] <= APART * d[1 - j] and d[j] <= near else None


def in_colour(calls: list[tuple[str, float]], colours: SpotColours, skip: set[int]) -> list[int]:
    """Squares the colours call empty, unsure or gold that are busier than the board's
    median square (`IN_COLOUR_OUT`, `IN_COLOUR_EDGES`), short of standing out: a piece
    there when its middle is of one of the board's piece colours (`piece_colours`)."""
    return _busier(calls, colours, skip, IN_COLOUR_OUT, IN_COLOUR_EDGES)


def _busier(
    calls: list[tuple[str, float]],
    colours: SpotColours,
    skip: set[int],
    spread_out: float,
    edges_out: float,
) -> list[int]:
    """Squares the colours call empty, unsure or gold whose disc spread and sharp steps are
    at least these times the board's median square's: the one test behind `stand_out` and
    `in_colour`, which differ only in how far is far."""
    assert colours.structure is not None and colours.edges is not None
    spread, edges = colours.structure, colours.edges
    floor = spread_out * float(median_along(spread, 0))
    sharp = edges_out * float(median_along(edges, 0))
    return [
        k
        for k, (v, _) in enumerate(calls)
        if k not in skip
        and v in ("empty", "unsure", "gold")
        and spread[k] >= floor
        and edges[k] >= sharp
    ]


def _spot_calls(
    image: np.ndarray,
    geom: BoardGeometry,
    where: Located,
    spots: tuple[Point, ...],
    arms: Arms | None,
    colours: SpotColours | None = None,
) -> list[tuple[str, float]]:
    """Crown slots or path spaces; ("unsure", -1) where of an arm's colour near where it
    crosses the ground."""
    if colours is None:
        colours = sample_spots(image, geom, where, spots)
    calls = classify(colours, gold_first=spots == geom.crown_slots)
    centres = np.array(spots)
    for arm in arms.arms if arms is not None else ():
        like = _arm_like(colours, arm)
        near = _gap_to(centres, arm.crossing_mm)
        calls = [
            ("unsure", -1.0) if like[k] and near[k] <= SPOT_ARM_REACH * geom.square_mm else call
            for k, call in enumerate(calls)
        ]
    return calls


def _crowns(
    image: np.ndarray,
    geom: BoardGeometry,
    where: Located,
    arms: Arms | None = None,
    paths: PathCalls | None = None,
) -> int | None:
    """Crowns in the display; None when an arm is over a slot or the count is not told.

    A slot may be printed in a crown's gold, so a Crown is told by standing too: its disc
    spread (`CROWN_DISC`) against the board's own empty spaces', the path spaces' median
    (few of them hold a token), which sets the scale of a flat print under this light and
    lens (`crowns_standing`), over the spaces `crown_reference` takes."""
    colours = sample_spots(image, geom, where, geom.crown_slots)
    calls = _spot_calls(image, geom, where, geom.crown_slots, arms, colours)
    if any(v == "unsure" and p < 0 for v, p in calls):
        return None
    stands = crown_stands(image, geom, where, arms, paths)
    if stands is None:
        return None
    tone = board_tone(median_along(colours.middle, 1))
    count = crowns_standing(
        stands,
        np.array([v == "gold" for v, _ in calls]),
        np.array([v == "unsure" for v, _ in calls]),
        tone,
    )
    return count if count is not None else crowns_apart(stands, tone)


def crown_stands(
    image: np.ndarray,
    geom: BoardGeometry,
    where: Located,
    arms: Arms | None = None,
    paths: PathCalls | None = None,
) -> np.ndarray | None:
    """Per Crown slot, its disc spread over the path spaces' median (`crown_reference`);
    None when too few spaces are clear of arms to set the scale."""
    clear = crown_reference(
        geom, arms, lambda: paths if paths is not None else path_calls(image, geom, where, arms)
    )
    if len(clear) < CROWN_REF_MIN:
        return None
    spread = _slot_spread(image, geom, where, [*geom.crown_slots, *clear])
    n = len(geom.crown_slots)
    scale = one_print_scale(spread[n:])
    return None if scale is None else np.asarray(spread[:n] / max(scale, 1e-6))


def one_print_scale(spreads: np.ndarray) -> float | None:
    """The path spaces' median disc spread, the scale of a flat print for the Crowns; None
    when the spaces are unlike one another: their upper quartile over `CROWN_REF_ALIKE`
    times the lower and more than `CROWN_REF_GAP` above it (quartiles, so the few tokens
    on the paths leave it alone). The spaces are one print under one light: a printed edge
    the disc takes in on some of them raises the median until Crowns pass for flat; spaces
    as flat as the sensor's noise differ by large ratios and tell nothing."""
    low, high = np.percentile(spreads, [25, 75])
    if high > CROWN_REF_ALIKE * max(float(low), 1e-6) and high - low > CROWN_REF_GAP:
        return None
    return float(median_along(spreads, 0))


def crowns_gap(stands: np.ndarray) -> float:
    """The largest ratio between two slots' standing next to each other in order: where the
    display's flat slots end and its Crowns begin, when it holds both."""
    return _largest_step(np.sort(stands))[1]


def _largest_step(s: np.ndarray) -> tuple[int, float]:
    """In sorted `s`, the index below the largest ratio between neighbours, and that ratio."""
    if len(s) < 2:
        return 0, 1.0
    steps = s[1:] / np.maximum(s[:-1], 1e-6)
    j = int(np.argmax(steps))
    return j, float(steps[j])


def crowns_apart(stands: np.ndarray, tone: np.ndarray) -> int | None:
    """The Crowns told by comparing the display's slots with one another, when the path
    spaces' scale and the slots' colours leave the count asked: the slots are one print,
    so its empty slots are alike (`CROWN_FLATS_ALIKE`) and a Crown's rim and shaded sides
    stand far apart from them (`CROWN_APART` over the flat slot next below it in order), and
    stand on the paths' scale too (`CROWN_STANDS`). A lamp's colour can carry a Crown's
    gold past the gold hue, and a busy path print can bring a Crown between flat and
    standing on the paths' scale; its own display's slots are under the same light. None
    when the slots do not split so."""
    s = np.sort(stands)
    j, gap = _largest_step(s)
    if gap < CROWN_APART:
        return None
    flat, up = s[: j + 1], s[j + 1 :]
    if np.min(up) < CROWN_STANDS or np.max(flat) > CROWN_FLATS_ALIKE * np.min(flat):
        return None
    return len(up)


def crown_reference(
    geom: BoardGeometry, arms: Arms | None, paths: Callable[[], PathCalls]
) -> list[Point]:
    """The path spaces whose spread is the flat print's scale for the Crowns: those clear
    of every arm (`_clear_of_arms`); when arms leave fewer than `CROWN_REF_MIN`, also those
    near an arm that are not of its colour (`paths()`, read only then: `_spot_calls`' arm
    calls). Two or three arms come within `SPOT_ARM_REACH` of nearly every space, yet cover
    few of them; a space an arm's edge or shadow makes busy only raises the median, and a
    slot is then asked about, never counted."""
    spaces = (*geom.paths["red"], *geom.paths["white"])
    clear = _clear_of_arms(geom, spaces, arms)
    if len(clear) >= CROWN_REF_MIN:
        return clear
    seen = [call for colour in ("red", "white") for call in paths()[colour][1]]
    return [s for s, (v, p) in zip(spaces, seen, strict=True) if v != "unsure" or p >= 0]


PathCalls = dict[str, tuple[SpotColours, list[tuple[str, float]]]]
"""Per path colour: its spaces' colours and `_spot_calls` (sampled once per picture for
the Crowns' reference and the Alice tokens)."""


def path_calls(
    image: np.ndarray,
    geom: BoardGeometry,
    where: Located,
    arms: Arms | None,
    colours_of: tuple[str, ...] = ("red", "white"),
) -> PathCalls:
    """Each path's spaces' colours and calls, the paths sampled and called together (each
    space is sampled and called on its own, so as when each path is taken alone)."""
    spots = tuple(s for colour in colours_of for s in geom.paths[colour])
    colours = sample_spots(image, geom, where, spots)
    calls = _spot_calls(image, geom, where, spots, arms, colours)
    out: PathCalls = {}
    at = 0
    for colour in colours_of:
        n = len(geom.paths[colour])
        mine = SpotColours(colours.middle[at : at + n], colours.beside[at : at + n])
        out[colour] = (mine, calls[at : at + n])
        at += n
    return out


def _clear_of_arms(geom: BoardGeometry, spots: tuple[Point, ...], arms: Arms | None) -> list[Point]:
    """The spots farther than `_spot_calls` looks (`SPOT_ARM_REACH`) from where any arm
    crosses the ground: whatever their colour, an arm's shadow or edge may be over the
    others."""
    runs = arms.arms if arms is not None else ()
    if not runs:
        return list(spots)
    crossing = np.concatenate([arm.crossing_mm for arm in runs])
    gap = _gap_to(np.array(spots), crossing)
    return [s for s, d in zip(spots, gap, strict=True) if d > SPOT_ARM_REACH * geom.square_mm]


def _gap_to(points: np.ndarray, crossing_mm: np.ndarray) -> np.ndarray:
    """Per point (mm), how far the nearest of `crossing_mm` (where arms cross the ground)."""
    return np.asarray(np.min(norm_along(points[:, None] - crossing_mm[None], axis=2), axis=1))


def crowns_standing(
    stands: np.ndarray, gold: np.ndarray, unsure: np.ndarray, tone: np.ndarray | None = None
) -> int | None:
    """The Crowns in the display from each slot's standing (its disc spread over the path
    spaces' median) and its colours' call (`gold`, or `unsure`: neither the print nor gold).
    A Crown is gold and stands; where every slot is gold the print may be too, so the
    Crowns are the gold slots that stand. Asked about (None), never guessed: a gold or
    unsure slot neither clearly standing nor clearly flat (`CROWN_FLAT`, `CROWN_STANDS`),
    an unsure slot standing (something there not seen as a Crown), with every slot gold
    flat slots unlike one another (`CROWN_FLATS_ALIKE`) or a standing one of the flat
    slots' colour (`CROWN_LIKE_PRINT`, `tone` the slots' middles in `board_tone`), or, with
    some slots not gold (the print is not), a flat gold slot."""
    looked = gold | unsure
    up = stands >= CROWN_STANDS
    between = (stands >= CROWN_FLAT) & ~up
    if np.any(looked & between) or np.any(unsure & up):
        return None
    if gold.all():
        flat = stands < CROWN_FLAT
        if flat.any() and np.max(stands[flat]) > CROWN_FLATS_ALIKE * np.min(stands[flat]):
            return None
        if tone is not None and flat.any() and up.any():
            print_tone = np.median(tone[flat], axis=0)
            if float(np.min(norm_along(tone[up] - print_tone, axis=1))) < CROWN_LIKE_PRINT:
                return None
        return int(np.sum(up))
    if np.any(gold & ~up):
        return None
    return int(np.sum(gold))


def _slot_spread(
    image: np.ndarray, geom: BoardGeometry, where: Located, spots: list[Point]
) -> np.ndarray:
    """Per spot: the 90th percentile of the Lab distance from its disc's median (radius
    `CROWN_DISC`), as a square's `structure`."""
    t = geom.token_mm
    disc = _disc(CROWN_DISC * t, t * 0.05)
    pts = np.array(spots)[:, None, :] + disc[None]
    lab = _lab8(_sample8(image, where, pts.reshape(-1, 2))).reshape(len(spots), -1, 3)
    return _spread(lab)


def median_along(a: np.ndarray, axis: int) -> np.ndarray:
    """`np.median(a, axis)`, value for value, several times faster on the reader's arrays:
    one partition at the middle, and for an even count the largest value below it, where
    `np.median` partitions at both middles and checks for NaN (a NaN anywhere falls back
    to it, so NaN still propagates as it does there)."""
    n = a.shape[axis]
    if n == 0 or np.isnan(a).any():
        return np.asarray(np.median(a, axis=axis))
    rows = a if axis in (-1, a.ndim - 1) else np.moveaxis(a, axis, -1)
    flat = rows.reshape(-1, n)
    k = n // 2
    part = np.partition(flat, k, axis=1)
    if n % 2:
        mid = part[:, k]
    elif a.dtype.kind == "f":  # np.median's mean of the two middle values: their sum halved,
        mid = (part[:, :k].max(axis=1) + part[:, k]) / 2  # in the array's own dtype
    else:
        mid = np.mean(np.stack([part[:, :k].max(axis=1), part[:, k]], axis=1), axis=1)
    return np.asarray(mid.reshape(rows.shape[:-1]))


def norm_along(x: np.ndarray, axis: int) -> np.ndarray:
    """`np.linalg.norm(x, axis=axis)` of a float array, value for value: the squares summed
    in the order numpy's reduction sums them along the last axis (first two, then the
    next), component by component, several times faster than the reduction over an axis
    of 2 or 3 (Lab, board mm), which the reader takes a few hundred times a picture."""
    if axis not in (-1, x.ndim - 1) or x.dtype.kind != "f":
        return np.asarray(np.linalg.norm(x, axis=axis))
    total = x[..., 0] * x[..., 0]
    for i in range(1, x.shape[-1]):
        total += x[..., i] * x[..., i]
    return np.asarray(np.sqrt(total))


def percentile_along(a: np.ndarray, q: int) -> np.ndarray:
    """`np.percentile(a, q, axis=1)` of a 2-D float array and a whole-number `q` (its default
    linear method), value for value and in its dtype: one partition at the two ranks it
    interpolates between (the lower one the largest value below the upper) and the same
    interpolation, where `np.percentile` partitions at four and checks and moves axes (NaN
    anywhere falls back to it, so NaN propagates as there)."""
    n = a.shape[1]
    if n == 0 or np.isnan(a).any():
        return np.asarray(np.percentile(a, q, axis=1))
    at = (n - 1) * np.true_divide(q, 100)
    if at >= n - 1:
        return np.asarray(a.max(axis=1))
    lo = int(np.floor(at))
    t = float(at - lo)
    part = np.partition(a, lo + 1, axis=1)
    low, high = part[:, : lo + 1].max(axis=1), part[:, lo + 1]
    step = high - low
    # np.percentile's interpolation: from the nearer end (a Python float keeps the dtype)
    return np.asarray(high - step * (1 - t) if t >= 0.5 else low + step * t)


def _spread(lab: np.ndarray) -> np.ndarray:
    """Per spot (N spots x M samples x Lab): the 90th percentile of its samples' Lab distance
    from their median, the disc spread a square's `structure` and a Crown slot's share."""
    diff = lab - median_along(lab, 1)[:, None]
    d = np.sqrt(np.einsum("nmk,nmk->nm", diff, diff))  # several times faster than linalg.norm
    return percentile_along(d, 90)


def _alice(
    image: np.ndarray,
    geom: BoardGeometry,
    where: Located,
    colour: str,
    arms: Arms | None = None,
    centres: np.ndarray | None = None,
    paths: PathCalls | None = None,
) -> int | None:
    """The space of the path holding a token of the path's colour (a Crown ahead of it is
    gold), or None when no space or more than one does, or an arm is over the path. When
    the colours alone do not tell, and the board's pieces gave its red and white
    (`two_centres`), the token is the one space unlike the path nearest its colour
    (`alice_by_centres`)."""
    paths = paths if paths is not None else path_calls(image, geom, where, arms, (colour,))
    colours, calls = paths[colour]
    if any(v == "unsure" and p < 0 for v, p in calls):
        return None
    found = [i for i, (v, _) in enumerate(calls) if v == colour]
    if len(found) > 1:
        found = [i for i in found if unlike_the_path(colours)[i]]
    if len(found) == 1:
        return found[0]
    if centres is None:
        return None
    return alice_by_centres(colours, centres[("red", "white").index(colour)], centres)


def alice_by_centres(colours: SpotColours, own: np.ndarray, centres: np.ndarray) -> int | None:
    """The space unlike the path whose middle is nearest `own` (this board's pieces of the
    path's colour): an ivory token passes for gold by hue and a dark crimson one for
    neither, but each is its own set's colour. It must be near it (`NEAR_TOKEN`), clearly
    nearer it than the other colour (`APART`), and clearly nearer than any other space
    unlike the path (a Crown ahead of Alice, `APART`); else None."""
    unlike = np.flatnonzero(unlike_the_path(colours))
    if len(unlike) == 0:
        return None
    tone = board_tone(np.median(colours.middle[unlike], axis=1))
    d_own = norm_along(tone - own, axis=1)
    d_any = np.min(norm_along(tone[:, None] - centres[None], axis=2), axis=1)
    other = np.max(norm_along(tone[:, None] - centres[None], axis=2), axis=1)
    order = np.argsort(d_own)
    best = int(order[0])
    if d_own[best] > NEAR_TOKEN or d_own[best] > d_any[best] or d_own[best] > APART * other[best]:
        return None
    if len(order) > 1 and d_own[best] > APART * d_own[int(order[1])]:
        return None
    return int(unlike[best])


def unlike_the_path(colours: SpotColours) -> np.ndarray:
    """Per space: most of its middle is unlike the path's own print. A light grey print on
    a darker ground reads as white against the ground round each space, so when several
    spaces do, the token is the one space unlike the rest: with one token on a path of
    many spaces, the median of all middles is the print."""
    typical = median_along(colours.middle.reshape(-1, 3), 0)
    far = norm_along(colours.middle - typical, axis=2) >= DIFFERENT
    return np.asarray(np.mean(far, axis=1) >= SHARE)
