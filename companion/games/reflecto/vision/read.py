"""Read a Reflecto board from one picture: which squares hold a screen, and whose.

From above a screen is its coloured top and a sliver of one side. The tops all stand at one
height, so the corner markers give the camera's pose (the shared `estimate_pose`) and the
picture is resampled on the plane of the tops: there every top lies on its square's centre
whatever the tilt, and nothing can hide a top but an arm. Below the tops,
everything is pulled toward the point under the camera, so the sides of screens and their
feet smear toward it; with screens of this height and cameras up to 25° off vertical the
smear of a neighbour stays clear of a square's centre, which is all the reader looks at.

Stages, each with a typed result:
1. `rectify`: markers -> pose -> the tops' plane as a small top-down picture (`Rectified`);
2. `cell_stats`: per square, the chromaticity of its centre strip (`CellStats`), which is
   what colours are learned from when there was no set-up;
3. `classify`: per square, the share of the strip in each seat's colour at the best of a few
   small shifts (screens stand a little off centre) -> owner and confidence, or unclear;
4. `fit`: the reading, with warnings for whatever the reader would not call.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.games.reflecto.vision import second_opinion as opinion
from companion.games.reflecto.vision.board_print import (
    PIXEL_CHANGE,
    PRINT_SAME,
    SCREEN_CHANGE,
    BoardPrint,
    Change,
    Expected,
    board_to_top,
    change_shares,
    expected_top,
    plane_px_to_mm,
)
from companion.games.reflecto.vision.colours import (
    GREY,
    ScreenColours,
    chromaticity,
    k_means,
)
from companion.games.reflecto.vision.geometry import BoardGeometry, Cell
from companion.games.reflecto.vision.reading import BoardReading, ScreenSeen
from companion.games.reflecto.vision.second_opinion import (
    OTHER,
    THIS,
    StripLook,
    feature_row,
    orient,
    square_model,
)
from companion.vision.board_markers import board_markers
from companion.vision.board_pose import (
    BoardPose,
    Calibration,
    pose_in_image,
)
from companion.vision.learnt_net import LearntNet
from companion.vision.markers import Marker

PX_PER_MM = 1.5
"""Scale of the tops' plane: about what a 1280-pixel camera sees of the board."""
MARGIN_MM = 6.0
STRIP_LENGTH = 0.8
"""The part of a top's length looked at (its ends may be skewed off the strip)."""
STRIP_DEPTH_MM = 2.0
"""Looked at across the top, either side of the centre line (a top is 8 mm deep)."""
SEARCH_MM = 2.0
"""How far off its square's centre a top is looked for."""
MIN_SEEN = 0.25
"""Share of a strip that must lie out of every neighbour's reach to be judged on that part
alone (`_shares`)."""
DARK = 30.0
"""Mean channel below which a pixel's chromaticity is noise ... (40 before dark, dull
plastics: a deep green top in shade on a board printed dark green was read as no colour at
all). From the development sweep (`benchmarks/reflecto_curves.py sweep --name DARK`, 30
house and 30 random boards; screens right, screens missed silently (not asked), phantoms,
boards entirely right): 40: 195 + 172, 5 + 16, 2 + 1, 13 + 12; 30: 197 + 179, 4 + 4,
2 + 1, 14 + 12; 22: 198 + 174, 3 + 4, 2 + 1, 14 + 12; 15: 198 + 173, 3 + 5, 3 + 1, 13 + 11.
The darker, the more a shadow's or a dark print's noise counts as colour."""
VIVID = 30.0
"""... unless its colour stands this far (channel levels) from the grey of its brightness:
a dark but saturated plastic (a deep green of (4, 92, 8)) is its colour, not noise. From
the development sweep (`benchmarks/reflecto_curves.py sweep --name VIVID`, 24 boards):
off 151 screens right, 45 153, 30 156, 20 157 with 3 more empty squares asked; no
phantom at any."""
MATCH = 0.5
"""A pixel is of a seat's hue within this share of the angle between the two hues (at most
30 degrees) ..."""
HUE_SPREAD = 2.0
"""... or within this many times the farthest its screens' hues lay from their median at
set-up (`ScreenColours.hue_spread`), whichever is wider, up to `HUE_MAX` (radians): a dull
plastic's hue wanders from screen to screen, and a top 30-60 degrees off its seat's median
was read as no colour. From the development sweep (`benchmarks/reflecto_curves.py sweep
--name HUE_SPREAD`, 24 house and 24 random boards; screens right, missed, phantoms, empty
squares asked, boards entirely right; picture alone, then with the empty board's print):
0: 159 + 153, 47 + 41, 4 + 0, 72 + 61, 9 + 12 and 184 + 175, 22 + 19, 0 + 2, 4 + 24,
16 + 14; 1.5: 163 + 155, 43 + 39, 4 + 0, 75 + 58, 9 + 12 and 188 + 177, 18 + 17, 0 + 2,
6 + 23, 16 + 16; 2: 163 + 155, 43 + 39, 4 + 0, 75 + 59, 9 + 12 and 188 + 177, 18 + 17,
0 + 2, 6 + 24, 16 + 16; 3: as 2 but 78 + 59 empty squares asked alone."""
HUE_MAX = float(np.radians(60))
FLOOR = 0.5
"""A pixel is of a seat's colour only if coloured at least this share as strongly as the
colour learned (light that washes a top out moves it toward grey)."""
SURE = 0.5
"""A strip at least this much of one colour is that seat's screen ... (0.6 before the
development screens differed in make and shade; the sweep over whole readings,
`benchmarks/reflecto_curves.py sweep --name SURE`, 24 boards: 0.6 146 screens right, 0.5
151, 0.45 151, 0.4 152 with a phantom)."""
NONE = 0.25
"""... and one under this share is no screen; between the two the reader abstains.
Chosen from the curve on the development set (`benchmarks/reflecto_curves.py`): no empty
square's best share reaches 0.15, screens' own shares lie above 0.6 but for a few washed out
by light (next)."""
FLOOR_REF = 0.06
"""... of the colour learned, or of this (chromaticity from grey) when the colour learned
is weaker (`STRONG`, 0.12, before): a dull plastic's tops lie under 0.06 from grey where
the light is weaker, and were read as no colour. It acts only on a seat learned under 0.12.
From the development sweep on 15 boards with such a seat (13 of the `refusal` families in
`benchmarks/reflecto_curves.py`, 7 house and 6 random, and 2 house boards of another
family; screens right, phantoms, wrong owners, empty squares asked, boards entirely
right): 0.12: 109, 0, 0, 67, 2; 0.09: 115, 0, 0, 74, 4; 0.06: 118, 0, 0, 69, 5; 0.045: as
0.06. A lower floor asks about more empty squares on a board printed near a dull seat's
hue (one house board, 6 -> 20) and fewer on others."""
FAINT_FLOOR = 0.3
"""A lamp's light on a glossy top bleaches it toward white: its hue stays, its strength
drops under `FLOOR`. Pixels coloured at least this share as strongly as the colour learned
are a faint trace of it ..."""
FAINT = 0.5
"""... and a square with at least this share of its strip in a faint trace of either colour
is not called empty but unclear (the players are asked). From the development set's curve
(`benchmarks/reflecto_curves.py`, 50 boards): every top washed out under `FLOOR` keeps a
faint share of 0.55 or more; empty squares with a faint share above 0.35 lie on two boards
whose print is tinted near a seat's hue, and stay there up to 1.0 (no threshold separates
them: those boards ask about a square instead of reading it)."""
SURROUND_MM = (6.0, 30.0)
"""Across the row, from a square's centre line: where its top has ended (4 mm, a screen
standing up to 2 mm off) and where the next square's foot would begin."""
SURROUND_MIN_MM2 = 25.0
"""A square with less than this of the board beside its top in view says nothing."""
PRINT_BIN = 6.0
PRINT_SHARE = 0.2
PRINT_CLOSE_BIN = 4.0
PRINT_EMPTY = 0.9
"""A strip with at least `PRINT_ASK` of its pixels' colours (Lab, within about
`PRINT_BIN`) found beside it may be the print, and is asked about; with at least
`PRINT_EMPTY` found on the board alone within the closer `PRINT_CLOSE_BIN`, it is the print
(`print_share`, `printed`). A faint trace found on the board alone at `PRINT_SHARE` is
the print."""
PRINT_SHADE = 6.0
"""A strip whose median colour lies within this (Lab) of the median of the same colour
right beside it (`SHADE_MM`) is the print going on under it: a top faces up as the print
does, but it is its own plastic, lit on its own. From the development set's curve
(`benchmarks/reflecto_curves.py`, 344 screens and 394 empty squares strongly in one
colour): no screen under 10, and 207 empty squares under 6 (113 under 2), of which the
bins alone call some and ask about the rest."""
SHADE_MM = 11.0
"""Across the row from a square's centre line, how far the print's shade is taken
(`PrintShares.shade`): beyond the top's reach (`SURROUND_MM`) and short of the outlines the
board's art prints round its squares."""
PRINT_ASK = 0.2
"""A strip in a seat's colour is asked about when this share of its colours (or more) is
found beside it (`print_share`; not the print by `PRINT_EMPTY` or `PRINT_SHADE`). On the
development set's curve no empty square left over finds less than 0.5, but a fresh board
printed with stripes along the rows, one in a seat's colour under the strip like a top,
found 0.29 and 0.29 where no screen stood: 0.2, as before, asks about those. Such a strip
stays a question whatever stands out round it: a stripe printed along the row in a seat's
colour shows the edges of a top's bar (the bar test, refl12-refl17, read 4 empty squares as
screens on a wider development family, `benchmarks/reflecto_curves.py bar` at 623abad)."""
BODY_CALLED = 0.25
"""A strip in a seat's colour with nothing of it found beside (a top, by `printed`) is asked
about when less than this share of its own screen's body off the strip (the rest of the top,
the frame's upright faces, the foot's ledges: `PrintShares.body`) is in the seat's colour: a
top is one plastic with its body; a stripe printed along the row in the seat's colour (a
board's frame line pulled onto a first row by the tilt) or a dot printed on the square,
narrower than the margin the print test leaves round a top (`SURROUND_MM`), is colour on the
strip alone. From the development curve (`benchmarks/reflecto_curves.py body`, a house and a
random draw of 40 boards each whose seeds `docs/reflecto.md` names, picture alone; 471
screens and 14 phantoms called by colour), phantoms and screens asked at body under 0.1 /
0.15 / 0.2 / 0.25 / 0.3 / 0.4 / 0.5: 4 / 7 / 10 / 10 / 11 / 12 / 12 and 0 / 0 / 0 / 0 / 2 /
27 / 83. The 4 left are an arm or a neighbour's side in the random set (body 0.86 and 0.92)
and two whose colour lies off the strip's centre (body 0.29 and 0.35). On a second
development draw (house and random, 30 boards each; 416 screens, 1 phantom at body 0.33)
0.25 asks 1 screen (body 0.15-0.2) and no phantom; 0.3 the same, 0.4 10 screens."""
CHANGED_PRINTED = 0.9
"""With the board's print known: a square called a seat's screen by its change against the
print (`judge_by_print`) is asked about instead when at least this share of its strip's
colours is found on the board beside it in the close bins (`PrintShares.close`, at the faint
floor), as the picture alone calls the print (`PRINT_EMPTY`): a strip printed in a seat's
colour that the print, put in this picture's light, says changed (a dark board, the light
told wrong) is still the colour of the board beside it; a top is its own plastic. From the
development curve (refl31's house and random families named in the guide, boards 0-29 each,
with the empty board's photo, read off `benchmarks/reflecto_learn.py collect`'s rows, whose
`print_close` is this share; `benchmarks/reflecto_curves.py changed-printed` prints it; 455
screens called, 409 of them "changed, colour", 6 wrong: 5 phantoms and a wrong owner),
wrong calls asked / right screens asked at close >= 0.5 / 0.7 / 0.8 / 0.9 / 0.95 / 0.98:
5 / 13, 5 / 9, 5 / 6, 5 / 1, 5 / 0, 3 / 0 (the phantoms lie at 0.96-1.0; the wrong owner
is not the print's, close not measured). 0.9 is the picture alone's own bar (`PRINT_EMPTY`),
one right screen asked rather than a margin of 0.01 under the phantoms."""
SOME_COLOUR_PRINTED = False
"""Measured fresh and left off (docs/reflecto.md, refl32): from the picture alone it called
37 of 119 asked empty squares empty on 30 fresh house boards, but read one screen there as
empty without a word (a silent miss the rule off asks about); with the empty board's photo
it changed only questions about empty squares (the print is known on most squares).

Whether a strip judged without a known print (`classify`) in one seat's colour short of
`SURE` (at least `NONE` of it, the other under `NONE`), asked about before as "some colour",
is called the print ("some colour, the print", empty) where the print test calls a strip in
the colour the print (`printed`: `PRINT_EMPTY` of its colours found on the board beside it in
the close bins, or its shade within `PRINT_SHADE` of the board's beside it): less of the
seat's colour makes a top no likelier, and the bars are the picture alone's own. The called
square is silent (`SILENT`): with the print, the learnt second opinion may still ask. From the
development curve (`benchmarks/reflecto_curves.py some-colour`, refl32's house and random
families named in the guide, boards 0-29 each; "some colour" squares: picture alone 172, 35
of them screens; with the empty board's photo 31, 8 screens; empty squares called / screens
missed): `printed` 82 / 0 and 15 / 0; close >= 0.5 / 0.7 / 0.9 / 0.95 alone: 81 / 1, 68 / 0,
37 / 0, 28 / 0; shade < 2 / 4 / 6 / 10 / 15 alone: 31 / 0, 57 / 0, 75 / 0, 81 / 0, 87 / 1.
The screens' close lies at 0.65 at most (then 0.18), their shade at 13.6 at least (then
17.2): a margin under `PRINT_EMPTY` 0.9 and over `PRINT_SHADE` 6."""
NO_COLOUR_ASK = True
NO_COLOUR_CHANGED = 0.7
"""Measured fresh (docs/reflecto.md, refl33): on 150 fresh renderer and held-out boards it
turned 6 of 27 silent misses into questions, asked 3 empty squares more, and changed no
reading; the read with the empty board cost 1.06-1.12x, and after refl34's cheaper change
measures 0.98x the reader before it (CPU, one core).

With the board's print known: a square called empty for having no colour ("no colour":
under `NONE` of either seat's colour, no faint trace over `FAINT`), whose strip changed from
its print over `NO_COLOUR_CHANGED` while the board round it did not (`Change.moved` under
`ARM_BESIDE`: no arm, no sleeve), is asked about ("no colour, changed") instead of called
empty without a word (`no_colour_changed`): a top burnt white by a lamp or lost in shade
keeps none of its seat's colour, but it hides its print; an empty square shows it. (A strip
with some colour is judged by its change in `judge_by_print`; such a strip never was, and
the learnt second opinion looks only at bright strips with a trace of colour.) From the
development curve (refl33's house and random families named in the guide, boards 0-59
each, with the empty board's photo; `benchmarks/reflecto_learn.py silent` on the rows
`collect` stored: 119 boards, 18 screens left silent by the reader as landed, 15 of them
"no colour", 10 of those with their print known; 2785 empty "no colour" squares), screens
asked / empty squares asked at changed >= 0.1 / 0.2 / 0.3 / 0.4 / 0.5 / 0.6 / 0.7 / 0.8 /
0.9: 10 / 42, 9 / 17, 9 / 8, 9 / 5, 9 / 3, 9 / 2, **9 / 1**, 7 / 1, 6 / 1; with the board
round it moved under `ARM_BESIDE` too, 0.5 / 0.6 / 0.7: 9 / 2, 9 / 2, 9 / 1 (the board
round the 9 screens moved 0.014 at most; the empty squares changed 0.42-0.6 moved 0.12-0.4:
an arm). The knee is 0.7 (the screens changed 0.75-1.0; the one empty square over it, 1.0,
a dark square with no colour)."""
SOME_COLOUR_MODEL = False
SOME_COLOUR_EMPTY = 0.05
"""Measured fresh and left off (docs/reflecto.md, refl33): on 30 fresh random boards it
called one screen empty without a word (a "some colour" question with the rule off); on
three fresh draws of 30 boards it asked 20 fewer empty squares (12 -> 2, 10 -> 3, 7 -> 4).

With the board's print known and the learnt model at hand: a "some colour" strip (one
seat's colour over `NONE`, short of `SURE`, the other's under `NONE`; its own print not
known) is called empty ("some colour, the print", in `SILENT`) only where both the print
test (`printed`, the picture alone's bars, as `SOME_COLOUR_PRINTED` takes it) and the
model (its screen vote, either seat, under `SOME_COLOUR_EMPTY`) say so (refl32's next
step; `SOME_COLOUR_PRINTED` alone called a screen empty from the picture alone, and stays
off). From the development curve (refl33's families, as `NO_COLOUR_CHANGED`; 67 "some
colour" squares with the empty board's photo, 6 of them screens, none with its print
known; empty squares called empty / screens called empty): `printed` alone 35 / 0; with
the model's vote under 0.01 / 0.05 / 0.1 / 0.3 / 0.8: 34 / 0, **35 / 0**, 35 / 0, 35 / 0,
35 / 0; the model alone under 0.01 / 0.05 / 0.2 / 0.5: 52 / 1, 57 / 2, 60 / 2, 60 / 4. No
screen there has `printed` (their votes 0.001-0.99): the model is a second lock, set where
it says empty at 0.95."""
CHANGED_CALLS = ("changed, colour", "changed, washed")
"""The calls of a seat's screen by its change against the print (`judge_by_print`)."""
STRONG = 0.12
"""A square's strip this far from grey (chromaticity) is coloured enough to be a screen
candidate when the colours are learned from the picture itself."""
SETUP_SHARE = 0.5
"""At set-up, a first-row screen coloured at least this share as strongly as the row's
median screen (or `STRONG`) counts toward its seat's colour (`learn_at_setup`). From the
development sweep (`benchmarks/reflecto_curves.py sweep --set house --name SETUP_SHARE`, 12
boards; screens right, missed (of which asked), phantoms, empty squares asked, boards
entirely right): 0.25, 0.5 and 0.75 alike, 92, 14 (13), 0, 67, 6; the screens over
`STRONG` alone (as before, 2): 91, 15 (9), 0, 58, 6, six screens missed silently."""
UNIFORM = 0.08
"""... and its pixels this close to their median (median distance): one plastic colour."""
BURNT_OUT = 0.06
"""A top coloured less than this (chromaticity from grey) at set-up is burnt out by a lamp
(or not the seat's plastic) and says nothing of its seat's hue (`learn_where`)."""
CHANGED_OWN = 0.1
"""With the board's print known: a strip that changed from its print is a seat's screen
only if at least this share of what changed is in that seat's colour (`Change.colour`): a
strip printed in a seat's hue that changed with the light is not a top. From the
development curve (`benchmarks/reflecto_curves.py sweep --board --name CHANGED_OWN`): no
screen lost up to 0.2, one at 0.3; two phantoms on a first row tinted near a seat's hue
had 0.06 and 0.01 of their change in it."""
ARM_BESIDE = 0.1
"""With the board's print known: a square read as a seat's screen is a question instead
when this share of the board round it, where no screen can show, changed from the print
into that seat's colour (`Change.beside`): an arm or sleeve over an empty square, not a top
standing on it. From the development curve (`benchmarks/reflecto_curves.py sweep --name
ARM_BESIDE`). On 40 house and 40 random boards of another development family (refl15; 688
screens; phantoms, screens missed, boards entirely right, with the empty board's photo):
0.05: 3, 54, 51; 0.1 and 0.2: 4, 49, 52. `CHANGED_OWN` 0.1, 0.2 and 0.3 read those boards
alike (4, 49, 52): the phantoms left there are decided by neither."""
CHANGED_MOST = 0.7
"""With the board's print known: a strip changed from its print over at least this share, in one
seat's colour over `NONE` (the strip's or the changed pixels') and under `NONE` in the other's,
is that seat's screen even short of `SURE`: a lamp's glare bleaches a top toward white, so less
of it keeps its colour, but it changes all of it (a top the colour of its print changes little,
and stays a question). From the development curve (`benchmarks/reflecto_curves.py washed-change`
on refl27's house and random development families, named in the guide, boards 0-39 each, with
the empty board's photo; 51 strips "changed, unsure", 38 of them screens): screens gained /
empty squares called at 0.5 / 0.6 / 0.7 / 0.8 / 0.9: 27 / 1, 27 / 0, 27 / 0, 24 / 0, 21 / 0, no
wrong owner (boards entirely right 31 -> 40 of 80 at 0.6-0.8); the empty squares changed most
lie at 0.57 (colour 0.36) and 0.78 (colour 0.20, under `NONE`). Requiring `CHANGED_OWN` of what
changed in the colour as well would leave 8 of the 27 (a washed top's changed pixels are its
glare): not required. So little colour says less of what changed, so such a strip is asked when
the board round it changed at all (`Change.moved`, into any colour) by `ARM_BESIDE` too: a top
changes nothing round it. On the same families (and a third, random, boards 0-2) the 32 strips
so called had moved 0-0.085 (the screens called at `SURE` 0.15 at most of 527; the one empty
square near the rule, changed 0.57, 0.29), asking none of them; on 30 fresh random boards
without this check the rule read one empty square as a screen (that board was not looked at; the
check is the world's: a top changes nothing round it). Fresh with that check it read one screen
in the other seat's colour (refl27, taken out): a bleached top's hue may slide toward the other
seat's, so the strip must have under `NONE` of the other seat's colour at the faint floor
(`FAINT_FLOOR`) too (refl28; no new threshold: the bar the strip's share meets at `FLOOR`). The
curve of that bar (`washed-change`, the same two families, at 0.7; screens gained / empty
squares / other seat's screens / boards right): 0.05: 22 / 0 / 0 / 39; 0.1-0.5: 26 / 0 / 0 / 40;
none: 27 / 0 / 0 / 40 (development shows no wrong owner for it to catch: chosen for the world,
not from the curve)."""
SEAT_EVIDENCE = 1.0
"""Weighted screens (see `facing_votes`) needed to say whose colour is whose."""
SAME_COLOUR = 0.08
"""Clusters of squares nearer than this (chromaticity) are one colour split by light."""


@dataclass(frozen=True)
class Rectified:
    pose: BoardPose
    top: np.ndarray
    """BGR picture of the tops' plane, `PX_PER_MM`, over the grid plus `MARGIN_MM`."""
    origin_mm: tuple[float, float]
    markers_seen: tuple[int, ...]

    def px(self, xy_mm: tuple[float, float]) -> tuple[float, float]:
        return (
            (xy_mm[0] - self.origin_mm[0]) * PX_PER_MM,
            (xy_mm[1] - self.origin_mm[1]) * PX_PER_MM,
        )


@dataclass(frozen=True)
class CellStats:
    cell: Cell
    chroma: np.ndarray
    """Median chromaticity of the square's centre strip."""
    spread: float
    """Median distance of the strip's pixels from that median."""

    @property
    def strength(self) -> float:
        return float(np.linalg.norm(self.chroma - GREY))


@dataclass(frozen=True)
class CellCall:
    cell: Cell
    shares: tuple[float, float]
    """Best share of the strip in seat 0's and in seat 1's colour."""
    owner: int | None
    confidence: float
    unclear: bool
    why: str = ""
    """The test that decided the call (`BoardReading.decided_by`)."""


def rectify(
    image: np.ndarray,
    geom: BoardGeometry,
    markers: dict[int, Marker] | None = None,
    calibration: Calibration | None = None,
) -> Rectified | None:
    """The tops' plane, or None when fewer than three corner markers are seen. A picture
    that comes without its markers (live play passes the registration's) has them found by
    `board_markers`, keeping the half-size corners: the reader's thresholds hold on them."""
    if markers is None:
        markers = board_markers(image, geom, full_size_corners=False)
    pose = pose_in_image(image, geom, markers, calibration)
    if pose is None:
        return None
    (x0, y0), (x1, y1) = geom.grid_box_mm
    lo = (x0 - MARGIN_MM, y0 - MARGIN_MM)
    size = (
        round((x1 - x0 + 2 * MARGIN_MM) * PX_PER_MM),
        round((y1 - y0 + 2 * MARGIN_MM) * PX_PER_MM),
    )
    H = pose.plane_homography(geom.screen_height_mm) @ plane_px_to_mm(lo, PX_PER_MM)
    top = cv2.warpPerspective(
        image,
        H,
        size,
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0),
    )
    return Rectified(pose, top, lo, tuple(sorted(pose.markers)))


def reaching_in(mask: np.ndarray) -> np.ndarray:
    """The parts of a mask connected to the picture's border: what reaches in from beyond the
    board (an arm), never a screen, whose top and smear stay inside its square's reach."""
    n, labels = cv2.connectedComponents(mask.view(np.uint8), connectivity=8)
    touching = np.zeros(n, bool)
    touching[np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]])] = True
    touching[0] = False
    if not touching.any():
        return np.zeros(mask.shape, bool)
    return touching[labels]


def _strip(geom: BoardGeometry) -> tuple[int, int]:
    """Half-sizes in pixels (across x, along y) of the strip looked at."""
    return (
        round(STRIP_LENGTH * geom.screen_width_mm / 2 * PX_PER_MM),
        round(STRIP_DEPTH_MM * PX_PER_MM),
    )


def cell_stats(rect: Rectified, geom: BoardGeometry, arms: bool = True) -> list[CellStats]:
    """Each square's centre strip: its median chromaticity and how uniform it is. With
    `arms`, a square whose centre is joined to the picture's edge by strong colour (an arm
    reaching in) counts as grey; a picture known to have no arm over it (the start
    position, learned only from a frame without hands) says `arms=False`, for a board
    printed in strong colours joins every screen to the edge."""
    foreign = np.zeros(rect.top.shape[:2], bool)
    if arms:
        c_all = chromaticity(rect.top)
        coloured = (np.linalg.norm(c_all - GREY, axis=-1) >= STRONG) & (
            rect.top.astype(np.float32).mean(axis=-1) > DARK
        )
        foreign = reaching_in(coloured)
    out = []
    for cell in geom.cells:
        cx, cy = (round(v) for v in rect.px(geom.cell_mm(cell)))
        if foreign[cy, cx]:
            out.append(CellStats(cell, GREY.copy(), 1.0))
            continue
        out.append(strip_stats(rect, geom, cell))
    return out


def strip_stats(rect: Rectified, geom: BoardGeometry, cell: Cell) -> CellStats:
    """One square's centre strip: the median chromaticity of its pixels bright or vivid
    enough to have one (`DARK`, `VIVID`), grey when fewer than half are."""
    hx, hy = _strip(geom)
    cx, cy = (round(v) for v in rect.px(geom.cell_mm(cell)))
    patch = rect.top[max(cy - hy, 0) : cy + hy + 1, max(cx - hx, 0) : cx + hx + 1].reshape(-1, 3)
    f = patch.astype(np.float32)
    vivid = np.linalg.norm(f - f.mean(axis=1, keepdims=True), axis=1) > VIVID
    bright = patch[(f.mean(axis=1) > DARK) | vivid]
    if len(bright) == 0 or len(bright) < 0.5 * len(patch):
        return CellStats(cell, GREY.copy(), 1.0)
    c = chromaticity(bright)
    med = np.median(c, axis=0)
    return CellStats(cell, med, float(np.median(np.linalg.norm(c - med, axis=1))))


def learn_from_cells(
    stats: list[CellStats], per_player: int = 7
) -> tuple[ScreenColours | None, list[str]]:
    """The two colours as the two most strongly coloured clusters of evenly coloured squares.

    Without a set-up this needs screens more strongly coloured than the board's print: the
    squares are clustered (up to four clusters, so that printed tints form their own), and
    of the clusters no bigger than a seat's screens, the two strongest are the seats'.
    """
    strong = [s for s in stats if s.strength >= STRONG and s.spread <= UNIFORM]
    if len(strong) < 2:
        return None, [
            "fewer than two coloured screens on the board: cannot learn the "
            "two seats' colours from this picture"
        ]
    pts = np.array([s.chroma for s in strong], np.float64)
    centres, labels = k_means(pts, 4)
    # One colour split in two by light and glare: merge clusters nearer than two colours
    # must be to be told apart.
    while True:
        live = [j for j in range(len(centres)) if np.any(labels == j)]
        pairs = [
            (float(np.linalg.norm(centres[a] - centres[b])), a, b)
            for i, a in enumerate(live)
            for b in live[i + 1 :]
        ]
        near = min(pairs, default=None)
        if near is None or near[0] >= SAME_COLOUR:
            break
        _, a, b = near
        labels[labels == b] = a
        centres[a] = pts[labels == a].mean(axis=0)
    clusters = []
    for j in range(len(centres)):
        members = [s for s, lab in zip(strong, labels, strict=True) if lab == j]
        if 0 < len(members) <= per_player:
            clusters.append((float(np.linalg.norm(centres[j] - GREY)), j, members))
    clusters.sort(key=lambda c: -c[0])
    if len(clusters) < 2:
        return None, [
            "could not tell two screen colours on this board (learn them at set-up instead)"
        ]
    (_, a, first), (_, b, second) = clusters[:2]
    # Which colour is seat 0's: the one whose squares lie nearer seat 0's side on average.
    if np.mean([s.cell[0] for s in first]) > np.mean([s.cell[0] for s in second]):
        a, b = b, a
    colours = ScreenColours(
        tuple(centres[a]),
        tuple(centres[b]),  # type: ignore[arg-type]
        learned_from="this image",
    )
    return colours, []


def learn_at_setup(rect: Rectified, geom: BoardGeometry) -> ScreenColours:
    """Each seat's colour from its first row at the start of a game (no hands over it):
    `learn_where` on the start position, every square of a seat's first row holding one of
    its screens."""
    start = [((geom.first_row(seat), c), seat) for seat in (0, 1) for c in range(geom.cols)]
    colours = learn_where(rect, geom, start)
    assert colours is not None  # every seat has a first row
    return colours


def learn_where(
    rect: Rectified, geom: BoardGeometry, board: Iterable[tuple[Cell, int]]
) -> ScreenColours | None:
    """Each seat's colour from the squares `board` says its screens stand on (the start
    position at set-up; in live play, the board the engine knows), however few of them the
    picture alone would find: the reader needs the colours to find the screens, not the
    screens to find the colours. None when a seat has no screen on the board.

    Every named square holds one of the seat's screens, so a screen need not be coloured as
    strongly as `STRONG` to count: a dull plastic's screens differ in shade and hue, and
    with only its one strong screen counted the seat's hue was that screen's and the others
    were read as no colour. Those at least `SETUP_SHARE` as strongly coloured as the seat's
    median screen count (not under `BURNT_OUT`: a top burnt out by a lamp does not). The
    seat's colour is their median hue (the median of each channel of tops whose hues differ
    lies nearer grey than any of them), as strong as the median of its screens coloured
    `STRONG` or more (else of all); how far their hues spread says how wide the seat's hue
    is matched (`HUE_SPREAD`)."""
    stats = {s.cell: s for s in cell_stats(rect, geom, arms=False)}
    placed = list(board)
    means, spreads = [], []
    for seat in (0, 1):
        cells = [stats[c] for c, owner in placed if owner == seat and c in stats]
        if not cells:
            return None
        strength = np.array([s.strength for s in cells])
        least = min(STRONG, max(SETUP_SHARE * float(np.median(strength)), BURNT_OUT))
        counted = strength >= least
        if not counted.any():
            counted = strength >= strength.max()
        chromas = np.array([s.chroma for s in cells])[counted]
        ref = chromas[int(np.argmax(strength[counted]))]
        offsets = hue_offsets(chromas, ref)
        mid = float(np.median(offsets))
        hue = _hue(ref) + np.radians(mid)
        strong = [c.chroma for c in cells if c.strength >= STRONG] or [c.chroma for c in cells]
        scale = float(np.linalg.norm(np.median(np.array(strong), axis=0) - GREY))
        mean = GREY + scale * (np.cos(hue) * _E1 + np.sin(hue) * _E2)
        means.append(tuple(float(v) for v in mean))
        spreads.append(float(np.max(np.abs(offsets - mid))))
    return ScreenColours(
        means[0],  # type: ignore[arg-type]
        means[1],  # type: ignore[arg-type]
        learned_from="set-up",
        hue_spread=(spreads[0], spreads[1]),
    )


_E1 = np.array([1.0, -1.0, 0.0]) / np.sqrt(2)
_E2 = np.array([1.0, 1.0, -2.0]) / np.sqrt(6)
"""An orthonormal basis of the chromaticity plane (orthogonal to grey's (1, 1, 1)): a hue is
a direction in it."""


def _hue(chroma: np.ndarray) -> np.ndarray:
    """Radians of hue: the direction from grey in the chromaticity plane."""
    return np.arctan2((chroma - GREY) @ _E2, (chroma - GREY) @ _E1)


def hue_offsets(chromas: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Degrees of hue (`_hue`) of each of `chromas` from `reference`'s, in -180..180."""
    return (np.degrees(_hue(chromas)) - np.degrees(_hue(reference)) + 180.0) % 360.0 - 180.0


def colour_masks(bgr: np.ndarray, colours: ScreenColours) -> np.ndarray:
    """(2, ...) booleans: pixels of each seat's colour (`colour_masks_at` at `FLOOR`)."""
    return colour_masks_at(bgr, colours, (FLOOR,))[0]


def colour_masks_at(
    bgr: np.ndarray, colours: ScreenColours, floors: tuple[float, ...]
) -> np.ndarray:
    """(floors, 2, ...) booleans: pixels of each seat's colour, at each colour floor.

    Matched by hue, the direction of a pixel's chromaticity from grey, and only among pixels
    coloured at least half as strongly as the colour learned: light that burns out a bright
    screen's channels (or the set-up's lamp) moves its chromaticity toward grey, not round
    toward another hue. A pixel takes the nearer of the two hues, within `MATCH` of the
    angle between them (at most 30°).
    """
    m = colours.means - GREY
    m -= m.mean(axis=1, keepdims=True)  # a learned median's channels need not sum to 1
    strength = np.linalg.norm(m, axis=1)
    u = m / strength[:, None]
    apart = float(np.arccos(np.clip(u[0] @ u[1], -1, 1)))
    base = min(MATCH * apart, np.radians(30))
    # A seat whose screens' hues spread wide at set-up (a dull plastic, screens of one seat
    # differing in shade) is matched that much wider; the nearer hue still decides whose.
    limits = [
        float(np.cos(max(base, min(np.radians(HUE_SPREAD * colours.hue_spread[k]), HUE_MAX))))
        for k in (0, 1)
    ]
    # In terms of the pixel f (BGR) and its sum S, with w = f - S/3: chromaticity - grey is
    # w / S, and u lies in the plane orthogonal to (1, 1, 1), so w.u = f.u. One 3x3
    # transform gives S and w in an orthonormal basis (`_E1`, `_E2`) of that plane, without a
    # division per pixel.
    shape = bgr.shape[:-1]
    proj = cv2.transform(
        bgr.reshape(-1, 1, 3).astype(np.float32),
        np.vstack([np.ones(3), _E1, _E2]).astype(np.float32),
    ).reshape(-1, 3)
    total, wa, wb = proj[:, 0], proj[:, 1], proj[:, 2]
    w2 = wa * wa
    w2 += wb * wb
    along = [wa * np.float32(uk @ _E1) + wb * np.float32(uk @ _E2) for uk in u]
    bright = (total > 3 * DARK) | (w2 > np.float32(VIVID * VIVID))
    total2 = total * total
    hues = [
        bright
        & (along[k] >= 0)
        & (along[k] * along[k] >= np.float32(limits[k] * limits[k]) * w2)
        & (along[k] > along[1 - k])
        for k in (0, 1)
    ]
    out = []
    for floor_share in floors:
        pair = []
        for k in (0, 1):
            floor = floor_share * max(float(strength[k]), FLOOR_REF)
            pair.append((hues[k] & (w2 >= np.float32(floor * floor) * total2)).reshape(shape))
        out.append(np.stack(pair))
    return np.stack(out)


def screen_reach(rect: Rectified, geom: BoardGeometry) -> list[np.ndarray]:
    """Per square, the polygon (tops'-plane pixels) a screen standing there covers: its top
    and everything below it, which the tilt pulls toward the point under the camera.

    A screen is convex (a foot under a frame), so what it covers is the hull of its corners
    seen through the camera; each corner is pushed `SEARCH_MM` outward, the most a screen
    stands off its square. Only the screen's own top can lie at its square's centre; the
    rest of the polygon is where a neighbour's side may show in an empty square.
    """
    hw = geom.screen_width_mm / 2 + SEARCH_MM
    corners = []  # (dx, dy, height) of the foot's and the frame's corners
    for half_depth, z0, z1 in (
        (geom.foot_depth_mm / 2 + SEARCH_MM, 0.0, geom.foot_height_mm),
        (geom.screen_thickness_mm / 2 + SEARCH_MM, geom.foot_height_mm, geom.screen_height_mm),
    ):
        corners += [
            (dx, dy, z) for z in (z0, z1) for dx in (-hw, hw) for dy in (-half_depth, half_depth)
        ]
    return _hulls(rect, geom, np.array(corners))


def own_faces(rect: Rectified, geom: BoardGeometry, cells: list[Cell]) -> list[list[np.ndarray]]:
    """Per square of `cells`, the polygons (tops'-plane pixels) where a screen standing
    there shows itself beside its own top: its frame (the top and the upright faces under
    it, whose shade light may not tell from the top's) and the foot's top face in front of
    and behind the frame (faces up as the top does). What else lies in its reach is the
    board, or its foot's low upright faces. All the squares are projected at once (a read
    asks about twenty)."""
    hw = geom.screen_width_mm / 2 + SEARCH_MM
    lo, hi = geom.foot_height_mm, geom.screen_height_mm
    thick = geom.screen_thickness_mm / 2 + SEARCH_MM
    outer = geom.foot_depth_mm / 2 + SEARCH_MM
    inner = max(geom.screen_thickness_mm / 2 - SEARCH_MM, 0.0)
    corners = [(dx, dy, z) for z in (lo, hi) for dx in (-hw, hw) for dy in (-thick, thick)]
    for sign in (-1.0, 1.0):
        corners += [(dx, sign * dy, lo) for dx in (-hw, hw) for dy in (inner, outer)]
    return [
        [cv2.convexHull(px[a:b]).reshape(-1, 2) for a, b in ((0, 8), (8, 12), (12, 16))]
        for px in _projected(rect, geom, np.array(corners), cells)
    ]


def _hulls(rect: Rectified, geom: BoardGeometry, corners: np.ndarray) -> list[np.ndarray]:
    """Per square, the hull on the tops' plane of `corners` (dx, dy, height in mm) around
    its centre, seen through the camera."""
    return [cv2.convexHull(p).reshape(-1, 2) for p in _projected(rect, geom, corners)]


def _projected(
    rect: Rectified, geom: BoardGeometry, corners: np.ndarray, cells: list[Cell] | None = None
) -> np.ndarray:
    """(cells, corners, 2) float32: `corners` (dx, dy, height in mm) around each square's
    centre (of `cells`, default all) where the camera sees them on the tops' plane, in
    pixels."""
    centre = rect.pose.camera_centre
    top = geom.screen_height_mm
    # Where the ray from the camera to each corner crosses the tops' plane.
    t = (-top - centre[2]) / (-corners[:, 2] - centre[2])
    mids = np.array([geom.cell_mm(cell) for cell in (cells or geom.cells)])
    xy = mids[:, None, :] + corners[None, :, :2]
    on_top = centre[:2] + t[None, :, None] * (xy - centre[:2])
    return ((on_top - np.array(rect.origin_mm)) * PX_PER_MM).astype(np.float32)


def _fill(poly: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """A convex polygon (tops'-plane pixels) as a uint8 mask over `box` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    one = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(one, np.round((poly - (x0, y0)) * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    return one


def _box(poly: np.ndarray, shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
    h, w = shape[:2]
    x0, y0 = np.maximum(np.floor(poly.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(poly.max(axis=0)).astype(int) + 1, (w, h))
    return None if x1 <= x0 or y1 <= y0 else (int(x0), int(y0), int(x1), int(y1))


def reach_count(rect: Rectified, polys: list[np.ndarray]) -> np.ndarray:
    """Per pixel of the tops' plane, how many squares' screens could show there (`polys`,
    from `screen_reach`): 0 is the board alone."""
    count = np.zeros(rect.top.shape[:2], np.uint8)
    for poly in polys:
        box = _box(poly, count.shape)
        if box is not None:
            x0, y0, x1, y1 = box
            count[y0:y1, x0:x1] += _fill(poly, box)
    return count


def empty_mask(
    rect: Rectified, geom: BoardGeometry, polys: list[np.ndarray], empty: list[Cell]
) -> np.ndarray:
    """Tops'-plane pixels that show the bare board when the squares `empty` hold no screen:
    where no other square's screen can reach (`polys`, `screen_reach`)."""
    held = [p for c, p in zip(geom.cells, polys, strict=True) if c not in empty]
    return reach_count(rect, held) == 0


@dataclass(frozen=True)
class Evidence:
    """What every square is judged on, computed once per picture."""

    polys: list[np.ndarray]
    """`screen_reach`, per square."""
    reach: np.ndarray
    """`reach_count`."""
    masks: np.ndarray
    """(floors, 2, h, w): pixels of each seat's colour at each colour floor (`colour_masks_at`)."""


def evidence(
    rect: Rectified, geom: BoardGeometry, colours: ScreenColours, floors: tuple[float, ...]
) -> Evidence:
    # No arm is cut out of the masks by what reaches in from the picture's edge: a board
    # printed in a seat's colour reaches the edge too, and joins every screen standing on
    # it. An arm (or sleeve) of a seat's colour over a square is a colour found beside the
    # strip as well, which `print_share` tells from a screen's top.
    masks = colour_masks_at(rect.top, colours, floors)
    polys = screen_reach(rect, geom)
    return Evidence(polys, reach_count(rect, polys), masks)


def shares_at(
    rect: Rectified, geom: BoardGeometry, colours: ScreenColours, ev: Evidence
) -> np.ndarray:
    """`_shares` at `ev`'s floors: (`FLOOR`, `FAINT_FLOOR`) as `classify` takes them."""
    return _shares(rect, geom, colours, ev=ev)


def _shares(
    rect: Rectified,
    geom: BoardGeometry,
    colours: ScreenColours,
    floors: tuple[float, ...] = (FLOOR,),
    ev: Evidence | None = None,
) -> np.ndarray:
    """(floors, cells, 2): per colour floor (`colour_masks`), per square, the best share of
    its strip in each seat's colour over the search shifts, counted only where no other
    square's screen could reach (`screen_reach`): a standing neighbour's side seen in an
    empty square is no evidence either way, and an occupied square shows its own top there
    anyway. A shift with less than `MIN_SEEN` of its strip left counts the whole strip."""
    ev = ev or evidence(rect, geom, colours, floors)
    hx, hy = _strip(geom)
    sx = sy = round(SEARCH_MM * PX_PER_MM)
    h, w = rect.top.shape[:2]
    # A square's strip, with every shift, lies inside its own reach (the top's footprint:
    # the strip is shorter than a top and at most half as deep), so there "no other square
    # reaches" is a count of one.
    free = (ev.reach <= 1).view(np.uint8)
    planes = [free]
    for masks in ev.masks:
        planes += [m.view(np.uint8) & free for m in masks]
    ii = cv2.integral(cv2.merge(planes), sdepth=cv2.CV_32S)
    centres = np.array([[round(v) for v in rect.px(geom.cell_mm(c))] for c in geom.cells])
    dx, dy = np.meshgrid(np.arange(-sx, sx + 1), np.arange(-sy, sy + 1))
    x = centres[:, 0, None] + dx.ravel()[None]
    y = centres[:, 1, None] + dy.ravel()[None]
    x0, x1 = np.clip(x - hx, 0, w), np.clip(x + hx + 1, 0, w)
    y0, y1 = np.clip(y - hy, 0, h), np.clip(y + hy + 1, 0, h)
    sums = (ii[y1, x1] - ii[y0, x1] - ii[y1, x0] + ii[y0, x0]).astype(np.float64)
    area = float((2 * hx + 1) * (2 * hy + 1))
    seen = sums[..., 0]
    usable = seen >= MIN_SEEN * area
    shares = np.where(usable[..., None], sums[..., 1:] / np.maximum(seen, 1)[..., None], 0.0)
    out = shares.max(axis=1).reshape(len(geom.cells), len(ev.masks), 2).transpose(1, 0, 2)
    for j in np.flatnonzero(~usable.any(axis=1)):
        # No shift leaves enough out of the neighbours' reach: the whole strip counts.
        for s in range(x.shape[1]):
            window = ev.masks[:, :, y0[j, s] : y1[j, s], x0[j, s] : x1[j, s]]
            out[:, j] = np.maximum(out[:, j], window.sum(axis=(2, 3)) / area)
    return out


@dataclass(frozen=True)
class PrintShares:
    """`print_share`: shares of a strip's colours found beside it, None where too little
    is in view to tell."""

    board: float | None
    """On the board alone (no part of any screen standing on the square can show there)."""
    with_sides: float | None
    """On the board or the square's own screen's upright sides: where an empty square
    shows its print too, but a screen the shade of its sides, which light may not tell
    from its top's."""
    close: float | None
    """On the board alone, in the finer bins of `PRINT_CLOSE_BIN` (None when `board` is
    short of `PRINT_SHARE`)."""
    shade: float | None = None
    """Lab distance between the median of the strip's pixels in the seat's colour and the
    median of those beside it on the board alone: the print goes on in one shade, a top
    lit from above stands apart from the print under it (None when too few such pixels
    lie beside)."""
    body: float | None = None
    """Share of the square's own screen's body off its strip in the seat's colour (the rest
    of the top, the frame's upright faces, the foot's ledges: `own_faces`, where no other
    square's screen reaches), from the same windows; None when too little of it is in view,
    or not asked for (`print_shares`' `body`)."""


def print_share(
    rect: Rectified,
    geom: BoardGeometry,
    ev: Evidence,
    cell: Cell,
    seat: int,
    floor: int,
    shade_decides: bool = False,
) -> PrintShares:
    """`print_shares` for one square's strip in one seat's colour."""
    return print_shares(rect, geom, ev, [(cell, seat)], floor, shade_decides)[0]


def print_shares(
    rect: Rectified,
    geom: BoardGeometry,
    ev: Evidence,
    asks: Sequence[tuple[Cell, int]],
    floor: int,
    shade_decides: bool = False,
    body: bool = False,
) -> list[PrintShares]:
    """Per (square, seat) of `asks`: shares of the square's strip, in the seat's colour at
    `ev.masks[floor]`, whose colour is also found beside it across the row
    (`PrintShares`): the strip is the print there.

    A screen's top is a raised bar 8 mm deep: beyond it across the row lies the board,
    printed in whatever colour, so the top's colour is found nowhere beside it. A square
    printed in a seat's colour shows the same colours beside its strip, whatever the
    pattern and wherever the tilt pulls it to. Beside means: no other square's screen
    reaches there (`reach_count`), and not the foot's top face in front of or behind the
    frame, which faces up and is lit as the top is (`own_faces`). Colours are compared in
    Lab, in bins of `PRINT_BIN` (`PRINT_CLOSE_BIN` for `PrintShares.close`): a strip pixel
    is found when its bin or a neighbouring bin holds enough of the pixels beside.

    All the squares are looked at in one pass over a stack of same-sized windows (the
    picture padded so that a window past its edge sees nothing there): a read asks about
    twenty squares, and one test per square cost half the read in numpy's per-call
    overhead. With `shade_decides` (a caller that only asks `printed`), a strip whose shade
    already says the print comes back without the bins' shares (None). With `body`, the
    share of the square's own screen's body in the seat's colour (`PrintShares.body`) is
    given for the strips `printed` does not call the print, the only ones `classify` asks
    it of (a read's other strips are spared its sums)."""
    if not asks:
        return []
    windows = _print_windows(rect, geom, ev, asks, floor)
    rows = np.arange(windows.mask.shape[1]) - windows.centre
    in_strip = np.abs(rows) <= windows.hy
    strip = windows.mask & in_strip[None, :, None]
    beside = (
        (windows.reach == windows.mine)
        & (np.abs(rows) >= SURROUND_MM[0] * PX_PER_MM)[None, :, None]
        & ~windows.ledges
    )
    board = beside & ~windows.frame
    least = SURROUND_MIN_MM2 * PX_PER_MM**2
    n_strip = strip.sum(axis=(1, 2))
    n_beside = beside.sum(axis=(1, 2))
    n_board = board.sum(axis=(1, 2))
    coloured_beside = (beside & windows.mask).sum(axis=(1, 2))
    out: list[PrintShares | None] = [None] * len(asks)
    for j in range(len(asks)):
        if n_strip[j] < 4:
            out[j] = PrintShares(None, None, None)
        elif n_beside[j] >= least and coloured_beside[j] < max(3.0, 0.01 * n_beside[j]):
            # Nothing beside is even of the seat's colour: none of the strip's colours can
            # be found there (the common case, a screen on a board of another colour), and
            # the bins need not be counted.
            out[j] = PrintShares(0.0 if n_board[j] >= least else None, 0.0, None)
    # The print under a square is one design (checks change colour at its edge, an
    # outline printed round a square lies some millimetres inside it): its shade is taken
    # next to the strip.
    near = np.abs(rows) <= SHADE_MM * PX_PER_MM
    same = board[:, near] & windows.mask[:, near]
    n_same = same.sum(axis=(1, 2))
    live = [j for j in range(len(asks)) if out[j] is None]
    shades: dict[int, float] = {}
    shaded = [j for j in live if n_same[j] >= least]
    if shaded:
        top = _medians(windows.lab[shaded][:, in_strip], strip[shaded][:, in_strip])
        side = _medians(windows.lab[shaded][:, near], same[shaded])
        for j, a, b in zip(shaded, top, side, strict=True):
            shades[j] = float(np.linalg.norm(a - b))
            if shade_decides and shades[j] < PRINT_SHADE:
                # `printed` says the print on the shade alone: the bins need not be counted.
                out[j] = PrintShares(None, None, None, shades[j])
    live = [j for j in live if out[j] is None]
    if live:
        coarse = _bins(windows.lab[live], PRINT_BIN)
        on_board = _found(coarse, strip[live], board[live])
        with_sides = _found(coarse, strip[live], beside[live])
        # Too little found on the board for the finer bins to find nine tenths: not worth
        # their cost on every screen's top.
        closer = [i for i, v in enumerate(on_board) if v is not None and v >= PRINT_SHARE]
        close: list[float | None] = [None] * len(live)
        if closer:
            pick = [live[i] for i in closer]
            found = _found(_bins(windows.lab[pick], PRINT_CLOSE_BIN), strip[pick], board[pick])
            for i, v in zip(closer, found, strict=True):
                close[i] = v
        for i, j in enumerate(live):
            out[j] = PrintShares(on_board[i], with_sides[i], close[i], shades.get(j))
    done = [p for p in out if p is not None]
    assert len(done) == len(asks)  # every ask is answered by one of the branches above
    if body:
        need = [j for j, p in enumerate(done) if printed(p) is False]
        for j, share in zip(need, _body_share(windows, windows.mask, need), strict=True):
            done[j] = replace(done[j], body=share)
    return done


def _body_share(
    windows: PrintWindows, mask: np.ndarray, which: list[int] | None = None
) -> list[float | None]:
    """Per window (of `which`, default all), the share of its square's own screen's body
    off the strip (the frame's upright faces and the rest of the top, the foot's ledges,
    where no other square's screen reaches: `own_faces`) that `mask` holds; None when too
    little is in view."""
    at = slice(None) if which is None else np.array(which, int)
    rows = np.abs(np.arange(windows.mask.shape[1]) - windows.centre)
    own = (windows.reach[at] == 1) & (windows.mine[at] == 1) & (rows > windows.hy)[None, :, None]
    body = (windows.frame[at] | windows.ledges[at]) & own
    n = body.sum(axis=(1, 2))
    on = (body & mask[at]).sum(axis=(1, 2))
    least = SURROUND_MIN_MM2 * PX_PER_MM**2
    return [float(on[j] / n[j]) if n[j] >= least else None for j in range(len(n))]


@dataclass(frozen=True)
class PrintWindows:
    """`print_shares`' windows, one per (square, seat) asked, all the same size: the
    square's strip and the board across the row from it out to `SURROUND_MM`[1]."""

    mask: np.ndarray
    """(asks, h, w) bool: pixels of the seat's colour (nothing beyond the picture)."""
    lab: np.ndarray
    """(asks, h, w, 3) uint8 (empty when not asked for)."""
    reach: np.ndarray
    """(asks, h, w) `reach_count` (255 beyond the picture: no square's count)."""
    mine: np.ndarray
    """(asks, h, w): 1 where the square's own screen can reach (`screen_reach`)."""
    frame: np.ndarray
    ledges: np.ndarray
    """(asks, h, w) bool: the square's screen's frame, and its foot's top faces
    (`own_faces`)."""
    centre: int
    """Row of the square's centre line in a window."""
    hy: int
    """Half the strip's depth in rows."""


def _print_windows(
    rect: Rectified,
    geom: BoardGeometry,
    ev: Evidence,
    asks: Sequence[tuple[Cell, int]],
    floor: int,
    lab: bool = True,
) -> PrintWindows:
    hx, hy = _strip(geom)
    far = round(SURROUND_MM[1] * PX_PER_MM)
    h, w = rect.top.shape[:2]
    n, wh, ww = len(asks), 2 * far + 1, 2 * hx + 1
    # Padded by a window's reach: a window past the picture's edge sees nothing there.
    pad = ((far, far), (hx, hx))
    top = np.pad(rect.top, (*pad, (0, 0)))
    reach = np.pad(ev.reach, pad, constant_values=255)
    masks = np.pad(ev.masks[floor], ((0, 0), *pad))
    mine = np.zeros((n, wh, ww), np.uint8)
    frame = np.zeros((n, wh, ww), bool)
    ledges = np.zeros((n, wh, ww), bool)
    centres = np.zeros((n, 2), int)
    cells = [cell for cell, _ in asks]
    for j, (cell, faces) in enumerate(zip(cells, own_faces(rect, geom, cells), strict=True)):
        cx, cy = (round(v) for v in rect.px(geom.cell_mm(cell)))
        centres[j] = (cy, cx)
        # The polygons are drawn in the picture's own window (clipped at its edge), as the
        # reach was, so that a pixel on a polygon's edge falls the same way.
        box = (max(cx - hx, 0), max(cy - far, 0), min(cx + hx + 1, w), min(cy + far + 1, h))
        x0, y0, x1, y1 = box
        at = (j, slice(y0 - cy + far, y1 - cy + far), slice(x0 - cx + hx, x1 - cx + hx))
        mine[at] = _fill(ev.polys[geom.cells.index(cell)], box)
        frame[at] = _fill(faces[0], box) > 0
        for ledge in faces[1:]:
            ledges[at] |= _fill(ledge, box) > 0
    # Each window is a block of the padded pictures (its top left corner, padded, at the
    # square's centre unpadded), gathered a block at a time.
    ys, xs = centres[:, 0], centres[:, 1]
    seats = np.array([seat for _, seat in asks])
    blocks = np.lib.stride_tricks.sliding_window_view
    # Only the windows are put in Lab (half the tops' plane or less; a pixel's Lab is its
    # own, so the same values). Beyond the picture a window holds Lab's black, never
    # looked at: no strip or board pixel lies there (`mask` and `reach` above).
    in_lab = np.zeros((n, 0, 0, 3), np.uint8)
    if lab:
        bgr = np.moveaxis(blocks(top, (wh, ww), axis=(0, 1))[ys, xs], 1, -1)
        in_lab = cv2.cvtColor(bgr.reshape(n * wh, ww, 3), cv2.COLOR_BGR2LAB).reshape(n, wh, ww, 3)
    return PrintWindows(
        blocks(masks, (wh, ww), axis=(1, 2))[seats, ys, xs],
        in_lab,
        blocks(reach, (wh, ww))[ys, xs],
        mine,
        frame,
        ledges,
        far,
        hy,
    )


def _medians(lab: np.ndarray, where: np.ndarray) -> np.ndarray:
    """(n, 3) float32: per window, the median of its Lab pixels `where` (each at least
    one), as `np.median` takes it (the mean of the middle two of an even count)."""
    values = lab.reshape(len(lab), -1, 3).astype(np.float32)
    values[~where.reshape(len(lab), -1)] = np.inf
    values.sort(axis=1)
    count = where.reshape(len(lab), -1).sum(axis=1)
    i = np.arange(len(lab))
    lo, hi = values[i, (count - 1) // 2], values[i, count // 2]
    out: np.ndarray = (lo + hi) / np.float32(2)
    return out


@dataclass(frozen=True)
class Bins:
    """Windows' pixels binned in Lab (`print_shares`)."""

    index: np.ndarray
    """(windows, h, w) int64: each pixel's bin, window j's numbered from j * `span` on."""
    span: int
    near: np.ndarray
    """A bin's 27 neighbours (itself among them), as offsets to its number."""


def _bins(lab: np.ndarray, size: float) -> Bins:
    """Each pixel of the windows `lab` in its Lab bin of `size`."""
    k = int(256 // size) + 3  # room for a neighbour on either side of every bin
    q = (lab / size).astype(np.int32) + 1
    index = (q[..., 0] * k + q[..., 1]) * k + q[..., 2]
    span = k**3
    index = index.astype(np.int64) + (np.arange(len(lab), dtype=np.int64) * span)[:, None, None]
    near = [(a * k + b) * k + c for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1)]
    return Bins(index, span, np.array(near, np.int64))


def _found(bins: Bins, strip: np.ndarray, beside: np.ndarray) -> list[float | None]:
    """Per window, the share of its `strip` pixels with a bin (its own or a neighbour) that
    holds enough of its `beside` pixels; None when too few pixels are beside."""
    n = len(bins.index)
    n_beside = beside.reshape(n, -1).sum(axis=1)
    n_strip = strip.reshape(n, -1).sum(axis=1)
    # The bins holding enough beside, every window's at once (kept apart by their
    # numbers), sorted; each strip pixel's neighbour bins are looked up in them.
    values, counts = np.unique(bins.index[beside], return_counts=True)
    held = values[counts >= np.maximum(3.0, 0.01 * n_beside)[values // bins.span]]
    keys, per_key = np.unique(bins.index[strip], return_counts=True)
    near = keys[:, None] + bins.near[None]
    hit = np.zeros(len(near), bool)
    if len(held):
        at = np.minimum(np.searchsorted(held, near), len(held) - 1)
        hit = (held[at] == near).any(axis=1)
    hits = np.bincount(keys[hit] // bins.span, weights=per_key[hit], minlength=n)
    least = SURROUND_MIN_MM2 * PX_PER_MM**2
    return [None if n_beside[j] < least else float(hits[j] / n_strip[j]) for j in range(n)]


def printed(shares: PrintShares) -> bool | None:
    """From `print_share`: True, the strip is the board's print; None, it may be (ask);
    False, it is not (or too little beside it is in view to tell)."""
    if (shares.close or 0.0) >= PRINT_EMPTY or (
        shares.shade is not None and shares.shade < PRINT_SHADE
    ):
        return True
    return None if max(shares.board or 0.0, shares.with_sides or 0.0) >= PRINT_ASK else False


def classify(
    rect: Rectified,
    geom: BoardGeometry,
    colours: ScreenColours,
    board_print: BoardPrint | None = None,
) -> list[CellCall]:
    """Per square: a seat's screen, no screen, or unclear.

    A strip in a seat's colour is a screen only if the colour does not go on beside it in
    the same shade (`printed`): a board printed in a player's colour is not a row of that
    player's screens; where that test cannot tell, the players are asked. A square short of
    `NONE` in both colours is still unclear when a faint trace of one covers `FAINT` of it
    (a top washed out by glare is a question for the players, never an empty square taken
    for granted), unless that trace is the print.

    With the board's print known (`board_print`), a square whose print is known is judged
    by change against it instead (`judge_by_print`): the print beside a strip cannot say
    what lies under it, the print itself can; but a screen so called whose strip the
    picture alone finds on the board beside it is asked about (`printed_after_all`)."""
    calls = []
    ev = evidence(rect, geom, colours, (FLOOR, FAINT_FLOOR))
    full, faint = _shares(rect, geom, colours, ev=ev)
    # A square with nothing of a seat's colour in it is empty whatever its print.
    needed = [bool(f.max() >= NONE or t.max() >= FAINT) for f, t in zip(full, faint, strict=True)]
    expected = print_expected(rect, geom, board_print)
    changes = print_changes(rect, geom, ev, board_print, needed=needed, expected=expected)
    # The print test for every square that needs it, in one pass (`print_shares`): the
    # strips in a seat's colour, and those with only a faint trace of one.
    # "Some colour" squares take the print test: from the picture alone with
    # `SOME_COLOUR_PRINTED`; with the print, with `SOME_COLOUR_MODEL` (the model's word too).
    model = square_model() if board_print is not None and opinion.SECOND_OPINION else None
    some_model = SOME_COLOUR_MODEL and model is not None and expected is not None
    some_test = SOME_COLOUR_PRINTED or some_model
    coloured: list[tuple[Cell, int]] = []
    faint_asks: list[tuple[Cell, int]] = []
    some_asks: list[tuple[Cell, int]] = []
    for cell, f, t, change in zip(geom.cells, full, faint, changes, strict=True):
        if change is not None:
            continue
        k = int(np.argmax(f))
        if f[k] >= SURE and f[1 - k] < NONE:
            coloured.append((cell, k))
        elif f[k] < NONE and t.max() >= FAINT:
            faint_asks.append((cell, int(np.argmax(t))))
        elif f[k] >= NONE and f[1 - k] < NONE and some_test:
            some_asks.append((cell, k))
    found = dict(
        zip(coloured, print_shares(rect, geom, ev, coloured, 1, True, body=True), strict=True)
    )
    found_faint = dict(zip(faint_asks, print_shares(rect, geom, ev, faint_asks, 1), strict=True))
    found_some = dict(zip(some_asks, print_shares(rect, geom, ev, some_asks, 1, True), strict=True))
    if some_model and not SOME_COLOUR_PRINTED and model is not None:
        found_some = some_colour_empty(
            rect, geom, colours, ev, (full, faint), changes, found_some, model
        )
    for cell, (s0, s1), trace, change in zip(geom.cells, full, faint, changes, strict=True):
        shares = (float(s0), float(s1))
        if change is not None:
            calls.append(judge_by_print(cell, shares, (float(trace[0]), float(trace[1])), change))
            continue
        k = int(np.argmax(shares))
        best, other = shares[k], shares[1 - k]
        empty = round(1 - best / NONE * 0.5, 3)
        if best >= SURE and other < NONE:
            here = found[(cell, k)]
            verdict = printed(here)
            conf = 0.75 + 0.25 * (best - SURE) / (1 - SURE)
            if verdict is False and here.body is not None and here.body < BODY_CALLED:
                # Nothing of the colour beside, but the screen's own body is not of it
                # either: a stripe or a spot printed in the seat's colour, narrower than
                # the margin the print test leaves round a top.
                calls.append(CellCall(cell, shares, None, 0.0, True, "body not its colour"))
            elif verdict is False:
                calls.append(CellCall(cell, shares, k, round(conf, 3), False, "colour"))
            elif verdict:
                calls.append(CellCall(cell, shares, None, 0.5, False, "the print beside"))
            else:
                calls.append(CellCall(cell, shares, None, 0.0, True, "maybe the print"))
        elif best < NONE:
            kf = int(np.argmax(trace))
            if trace[kf] < FAINT:
                calls.append(CellCall(cell, shares, None, empty, False, "no colour"))
                continue
            board = found_faint[(cell, kf)].board
            if board is not None and board >= PRINT_SHARE:
                calls.append(CellCall(cell, shares, None, empty, False, "faint, the print"))
            else:
                calls.append(CellCall(cell, shares, None, 0.0, True, "faint"))
        elif other < NONE and (cell, k) in found_some and printed(found_some[(cell, k)]):
            # Short of `SURE` in one seat's colour, and that colour goes on beside it in
            # the same shade (`printed`, as a strip in the colour is judged): the print.
            calls.append(CellCall(cell, shares, None, 0.5, False, "some colour, the print"))
        else:
            why = "both colours" if other >= NONE else "some colour"
            calls.append(CellCall(cell, shares, None, 0.0, True, why))
    calls = printed_after_all(rect, geom, ev, calls)
    judged = any(c is not None for c in changes)
    if board_print is not None and NO_COLOUR_ASK and judged:
        calls, changes = no_colour_changed(rect, geom, ev, board_print, changes, calls, expected)
    if board_print is not None and model is not None and judged:
        calls = second_opinion(
            rect,
            geom,
            colours,
            ev,
            (full, faint),
            board_print,
            changes,
            calls,
            model,
            expected=expected,
        )
    return calls


def printed_after_all(
    rect: Rectified, geom: BoardGeometry, ev: Evidence, calls: list[CellCall]
) -> list[CellCall]:
    """`calls` with each screen called by its change against the print (`CHANGED_CALLS`)
    asked about instead where the picture alone finds its strip's colours on the board
    beside it in the close bins (`CHANGED_PRINTED`): the print, not a top."""
    asks = [
        (j, (c.cell, c.owner))
        for j, c in enumerate(calls)
        if c.owner is not None and c.why in CHANGED_CALLS
    ]
    found = print_shares(rect, geom, ev, [a for _, a in asks], 1)
    out = list(calls)
    for (j, _), p in zip(asks, found, strict=True):
        if (p.close or 0.0) >= CHANGED_PRINTED:
            out[j] = replace(
                calls[j], owner=None, confidence=0.0, unclear=True, why="changed, printed"
            )
    return out


def no_colour_changed(
    rect: Rectified,
    geom: BoardGeometry,
    ev: Evidence,
    board_print: BoardPrint,
    changes: list[Change | None],
    calls: list[CellCall],
    expected: Expected | None = None,
) -> tuple[list[CellCall], list[Change | None]]:
    """`calls` with each "no colour" square whose strip changed from its known print over
    `NO_COLOUR_CHANGED`, the board round it not (`Change.moved` under `ARM_BESIDE`), asked
    about ("no colour, changed"); and `changes` with those squares' changes filled in (the
    learnt second opinion reads them too)."""
    wanted = [c.why == "no colour" and ch is None for c, ch in zip(calls, changes, strict=True)]
    if not any(wanted):
        return calls, changes
    more = print_changes(rect, geom, ev, board_print, needed=wanted, expected=expected)
    changes = [m if m is not None else c for c, m in zip(changes, more, strict=True)]
    out = list(calls)
    for j, m in enumerate(more):
        if m is not None and m.share >= NO_COLOUR_CHANGED and m.moved < ARM_BESIDE:
            out[j] = replace(calls[j], confidence=0.0, unclear=True, why="no colour, changed")
    return out, changes


def some_colour_empty(
    rect: Rectified,
    geom: BoardGeometry,
    colours: ScreenColours,
    ev: Evidence,
    shares: tuple[np.ndarray, np.ndarray],
    changes: list[Change | None],
    found: dict[tuple[Cell, int], PrintShares],
    model: LearntNet,
) -> dict[tuple[Cell, int], PrintShares]:
    """Of the "some colour" squares' print tests (`found`), those the reader may call the
    print (`SOME_COLOUR_MODEL`): `printed` says the print and the learnt model gives a
    screen (either seat) under `SOME_COLOUR_EMPTY`."""
    index = {c: j for j, c in enumerate(geom.cells)}
    candidates = [(cell, k) for (cell, k), p in found.items() if printed(p)]
    if not candidates:
        return {}
    which = [index[cell] for cell, _ in candidates]
    rows, _ = square_features(rect, geom, colours, ev, shares, changes, which)
    votes = model.probabilities(rows)
    return {
        a: found[a]
        for a, v in zip(candidates, votes, strict=True)
        if v[THIS] + v[OTHER] < SOME_COLOUR_EMPTY
    }


SILENT = ("no colour", "print unchanged", "changed, no colour", "some colour, the print")
"""The calls of an empty square made without asking that the learnt second opinion may
turn into a question (`second_opinion`)."""


def second_opinion(
    rect: Rectified,
    geom: BoardGeometry,
    colours: ScreenColours,
    ev: Evidence,
    shares: tuple[np.ndarray, np.ndarray],
    board_print: BoardPrint,
    changes: list[Change | None],
    calls: list[CellCall],
    model: LearntNet,
    expected: Expected | None = None,
) -> list[CellCall]:
    """The learnt model's word (`second_opinion.py`) on the squares the reader asks about
    or calls empty without asking (`SILENT`): an asked square is named a seat's screen when
    the model gives it `NAME_BAR` or more (only with `second_opinion.NAMING`, off); a silent
    one is asked about when the model gives a screen `ASK_BAR` or more. A square called a
    screen is never changed.

    In two stages, for speed: a silent square goes on to the costly features (its change
    against the print, the print test, its strip's chromaticity) only when what is already
    known of it (`second_opinion.worth_a_look`: its shares and its strip's brightness) says
    it could reach `ASK_BAR`. `expected` is the print in this picture (`print_expected`), if already
    made."""
    full, faint = shares
    which = []
    for j, c in enumerate(calls):
        if c.owner is not None:
            continue
        if c.unclear and opinion.NAMING:
            which.append(j)
        elif c.why in SILENT:
            s = (float(full[j][0]), float(full[j][1]))
            t = (float(faint[j][0]), float(faint[j][1]))
            if opinion.worth_a_look(s, t, strip_brightness(rect, geom, geom.cells[j])):
                which.append(j)
    if not which:
        return calls
    missing = [j in which and changes[j] is None for j in range(len(calls))]
    if any(missing):
        # Squares with no colour in them were not judged against the print: the model
        # learnt from every square's change.
        more = print_changes(rect, geom, ev, board_print, needed=missing, expected=expected)
        changes = [m if m is not None else c for c, m in zip(changes, more, strict=True)]
    rows, seats = square_features(rect, geom, colours, ev, shares, changes, which)
    votes = model.probabilities(rows)
    out = list(calls)
    for j, k, v in zip(which, seats, votes, strict=True):
        call = calls[j]
        if call.unclear:
            if not opinion.NAMING:
                continue
            for cls, owner in ((THIS, k), (OTHER, 1 - k)):
                if v[cls] >= opinion.NAME_BAR:
                    out[j] = replace(
                        call,
                        owner=owner,
                        confidence=round(float(v[cls]), 3),
                        unclear=False,
                        why="second opinion",
                    )
        elif v[THIS] + v[OTHER] >= opinion.ASK_BAR:
            out[j] = replace(call, confidence=0.0, unclear=True, why="second opinion: ask")
    return out


def square_features(
    rect: Rectified,
    geom: BoardGeometry,
    colours: ScreenColours,
    ev: Evidence,
    shares: tuple[np.ndarray, np.ndarray],
    changes: list[Change | None],
    which: Sequence[int],
) -> tuple[np.ndarray, list[int]]:
    """Per square of `which` (indices into `geom.cells`), the learnt model's feature row
    (`second_opinion.FEATURES`) and the seat it is oriented on (`second_opinion.orient`):
    `shares` are `_shares`' at `FLOOR` and `FAINT_FLOOR`, `changes` `print_changes`'."""
    full, faint = shares
    seats = []
    for j in which:
        s = (float(full[j][0]), float(full[j][1]))
        t = (float(faint[j][0]), float(faint[j][1]))
        seats.append(orient(s, t, changes[j]))
    asks = [(geom.cells[j], k) for j, k in zip(which, seats, strict=True)]
    found = print_shares(rect, geom, ev, asks, 1, body=True)
    rows = []
    for j, k, p in zip(which, seats, found, strict=True):
        look = strip_look(rect, geom, colours, geom.cells[j])
        rows.append(
            feature_row(
                k,
                (float(full[j][0]), float(full[j][1])),
                (float(faint[j][0]), float(faint[j][1])),
                changes[j],
                look,
                (p.board, p.with_sides, p.close, p.shade, p.body),
            )
        )
    return np.array(rows, np.float32).reshape(len(rows), -1), seats


def strip_look(
    rect: Rectified, geom: BoardGeometry, colours: ScreenColours, cell: Cell
) -> StripLook:
    """What the learnt model sees of a square's centre strip (`StripLook`)."""
    m = colours.means - GREY
    m = m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-9)
    st = strip_stats(rect, geom, cell)
    d = st.chroma - GREY
    n = float(np.linalg.norm(d))
    hue = (0.0, 0.0) if n < 1e-9 else (float(m[0] @ d / n), float(m[1] @ d / n))
    return StripLook(st.strength, st.spread, hue, strip_brightness(rect, geom, cell))


def strip_brightness(rect: Rectified, geom: BoardGeometry, cell: Cell) -> float:
    """The mean channel of a square's centre strip, 0-1 (`StripLook.brightness`)."""
    hx, hy = _strip(geom)
    cx, cy = (round(v) for v in rect.px(geom.cell_mm(cell)))
    patch = rect.top[max(cy - hy, 0) : cy + hy + 1, max(cx - hx, 0) : cx + hx + 1]
    return float(patch.mean()) / 255.0


def print_expected(
    rect: Rectified, geom: BoardGeometry, board_print: BoardPrint | None
) -> Expected | None:
    """The known print as this picture's tops' plane would show it (`expected_top`); None
    where no print is known."""
    if board_print is None or not board_print.any_known:
        return None
    A = board_to_top(board_print, rect.pose, geom, rect.origin_mm, PX_PER_MM)
    return expected_top(board_print, A, rect.top.shape)


def print_changes(
    rect: Rectified,
    geom: BoardGeometry,
    ev: Evidence,
    board_print: BoardPrint | None,
    pixel: float = PIXEL_CHANGE,
    needed: list[bool] | None = None,
    expected: Expected | None = None,
) -> list[Change | None]:
    """Per square (of those `needed`), its strip against the known print
    (`change_shares`), None where the print is not known (or none is given); `expected`
    is `print_expected`'s for this picture, if already made."""
    if board_print is None or not board_print.any_known:
        return [None] * len(geom.cells)
    exp = expected if expected is not None else print_expected(rect, geom, board_print)
    assert exp is not None
    centres = np.array([[round(v) for v in rect.px(geom.cell_mm(c))] for c in geom.cells])
    return change_shares(
        rect.top,
        exp,
        centres,
        _strip(geom),
        ev.reach <= 1,
        ev.reach == 0,
        round(geom.square_mm * PX_PER_MM),
        ev.masks[0],
        pixel,
        needed,
    )


def judge_by_print(
    cell: Cell, shares: tuple[float, float], trace: tuple[float, float], change: Change
) -> CellCall:
    """A square whose print is known: a strip changed from its print over `SCREEN_CHANGE`,
    the change in one seat's colour (`SURE` of it, under `NONE` in the other's), is that
    seat's screen (where the print was put in this light only loosely, `Change.loose`,
    only when changed over `CHANGED_MOST`), and so is one changed over `CHANGED_MOST` with
    `NONE` of it in the seat's colour and under `NONE` of the other's, at the faint floor
    too (a top washed by glare); one changed at most `PRINT_SAME` is the print;
    anything else is a question. A strip short of `NONE` in both colours with no faint trace
    of one over `FAINT` is empty however much it changed (an arm, a lamp's glare on the
    board)."""
    # Whose: the changed pixels' colour, or the whole strip's where that says more (a
    # top's glare and edges change too; a top on print of its own hue leaves some unchanged).
    colour = [max(shares[j], change.colour[j]) for j in (0, 1)]
    k = int(np.argmax(colour))
    best, other = colour[k], min(shares[1 - k], change.colour[1 - k])
    if change.share <= PRINT_SAME:
        conf = round(1 - change.share / PRINT_SAME * 0.25, 3)
        return CellCall(cell, shares, None, conf, False, "print unchanged")
    if change.share >= SCREEN_CHANGE and best >= SURE and other < NONE:
        if change.colour[k] < CHANGED_OWN:
            # The strip is of that colour but what changed is not: print of the seat's
            # hue under other light, not a top put on it.
            return CellCall(cell, shares, None, 0.0, True, "changed, not into the colour")
        if change.beside[k] >= ARM_BESIDE:
            # The board round the square changed into that colour too: not a top.
            return CellCall(cell, shares, None, 0.0, True, "changed beside too")
        if change.loose and change.share < CHANGED_MOST:
            # The print put in this light only loosely changes part of an empty strip
            # printed in the seat's colour too; a top changes most of it.
            return CellCall(cell, shares, None, 0.0, True, "changed, loose light")
        conf = 0.75 + 0.25 * (best - SURE) / (1 - SURE)
        return CellCall(cell, shares, k, round(conf, 3), False, "changed, colour")
    if change.share >= CHANGED_MOST and best >= NONE and other < NONE and trace[1 - k] < NONE:
        # Short of `SURE` in the colour (a top so coloured is judged above): a top washed
        # by a lamp's glare keeps less of its colour, but changes all of its strip, and
        # nothing round it. So little colour says less of what changed: the board round
        # it changed at all (an arm coloured in part like the seat's plastic) asks. A
        # bleached top's hue may slide toward the other seat's: under `NONE` of that at
        # the faint floor too, or asked.
        if max(change.beside[k], change.moved) >= ARM_BESIDE:
            return CellCall(cell, shares, None, 0.0, True, "changed beside too")
        conf = 0.5 + 0.25 * (best - NONE) / (SURE - NONE)
        return CellCall(cell, shares, k, round(conf, 3), False, "changed, washed")
    if max(shares) < NONE and max(trace) < FAINT:
        conf = round(1 - max(shares) / NONE * 0.5, 3)
        return CellCall(cell, shares, None, conf, False, "changed, no colour")
    return CellCall(cell, shares, None, 0.0, True, "changed, unsure")


def facing_votes(
    rect: Rectified, geom: BoardGeometry, colours: ScreenColours, calls: list[CellCall]
) -> float:
    """Evidence that the colour read as seat 0's is seat 0's: letters face their owners.

    Of a screen, the camera sees its top and the side facing it; on the tops' plane that side
    lies beyond the top, toward the point under the camera. A side showing the screen's own
    colour is its plain back, a side showing something else is its letter or mirror tile,
    which faces the owner. Each screen votes +1 when what it shows says its colour is seat
    0's and -1 when it says seat 1's, weighted by how much of the side is in view. Returns
    the weighted sum: positive, the colours are right; negative, swapped; near 0, no idea.
    """
    centre = rect.pose.camera_centre
    above = -float(centre[2])
    if above <= geom.screen_height_mm:
        return 0.0
    hx = round(0.6 * geom.screen_width_mm / 2 * PX_PER_MM)
    total = 0.0
    for call in calls:
        if call.owner is None:
            continue
        x, y = geom.cell_mm(call.cell)
        dy = float(centre[1]) - y
        side_mm = (geom.screen_height_mm - geom.foot_height_mm) * abs(dy) / above
        if side_mm < 4.0:
            continue
        sign = 1.0 if dy > 0 else -1.0
        near = geom.screen_thickness_mm / 2 + 2.5
        far = near + min(0.6 * side_mm, 8.0)
        cx, _ = rect.px((x, y))
        ya, yb = sorted(rect.px((x, y + sign * near))[1:] + rect.px((x, y + sign * far))[1:])
        band = rect.top[round(ya) : round(yb) + 1, round(cx) - hx : round(cx) + hx + 1]
        if band.size == 0:
            continue
        k = call.owner
        own = float(np.mean(colour_masks(band, colours)[k]))
        # Plain back toward the camera: the owner sits on the far side (-sign); a tile: +sign.
        owner_side = -sign if own >= 0.5 else sign
        says_seat0 = (owner_side > 0) == (k == 0)  # seat 0's letters face +y
        weight = min(1.0, side_mm / 8.0) * abs(own - 0.5) * 2
        total += weight if says_seat0 else -weight
    return total


def fit(
    calls: list[CellCall],
    rect: Rectified,
    geom: BoardGeometry,
    warnings: list[str],
    per_player: int = 7,
) -> BoardReading:
    screens = tuple(ScreenSeen(c.cell, c.owner, c.confidence) for c in calls if c.owner is not None)
    unclear = tuple(c.cell for c in calls if c.unclear)
    notes = list(warnings)
    missing = [m.id for m in geom.markers if m.id not in rect.markers_seen]
    if missing:
        notes.append(
            f"corner marker(s) {', '.join(map(str, missing))} not seen; "
            "the board is placed from the others"
        )
    for cell in unclear:
        notes.append(
            f"square {list(cell)}: cannot tell whether a screen stands there "
            "(hidden, glare or an unexpected colour)"
        )
    for seat in (0, 1):
        n = sum(1 for s in screens if s.owner == seat)
        if n > per_player:
            notes.append(f"{n} screens of seat {seat}'s colour, but a seat has {per_player}")
    return BoardReading(screens, tuple(notes), True, unclear, tuple((c.cell, c.why) for c in calls))


def read_board(
    image: np.ndarray,
    geom: BoardGeometry,
    colours: ScreenColours | None = None,
    *,
    markers: dict[int, Marker] | None = None,
    calibration: Calibration | None = None,
    per_player: int = 7,
    board_print: BoardPrint | None = None,
) -> tuple[BoardReading, Rectified | None]:
    """The whole pipeline; `colours` None learns them from the picture (and says so);
    `board_print`, the empty board's print where known (`board_print.py`)."""
    rect = rectify(image, geom, markers, calibration)
    if rect is None:
        return BoardReading(
            (),
            (
                "board not found: fewer than three of the corner markers "
                f"{', '.join(str(m.id) for m in geom.markers)} are seen",
            ),
            board_found=False,
        ), None
    warnings: list[str] = []
    learned = colours is None
    if colours is None:
        colours, warnings = learn_from_cells(cell_stats(rect, geom), per_player)
        if colours is None:
            return BoardReading((), tuple(warnings)), rect
    problems = colours.problems()
    if problems:
        return BoardReading((), tuple(warnings + problems)), rect
    calls = classify(rect, geom, colours, board_print)
    if learned:
        calls, note = _seats_by_facing(rect, geom, colours, calls)
        warnings.append(note)
    return fit(calls, rect, geom, warnings, per_player), rect


def _seats_by_facing(
    rect: Rectified, geom: BoardGeometry, colours: ScreenColours, calls: list[CellCall]
) -> tuple[list[CellCall], str]:
    """Which learned colour is whose, from the way the screens' letters face (else from
    where the screens stand, which is only a guess)."""
    votes = facing_votes(rect, geom, colours, calls)
    if abs(votes) >= SEAT_EVIDENCE:
        note = (
            "screen colours learned from this picture (no set-up); whose colour is whose "
            "told by the way the letters face"
        )
        if votes > 0:
            return calls, note
        return [
            CellCall(
                c.cell,
                c.shares[::-1],
                None if c.owner is None else 1 - c.owner,
                c.confidence,
                c.unclear,
                c.why,
            )
            for c in calls
        ], note
    return calls, (
        "screen colours learned from this picture (no set-up); whose colour is "
        "whose is a guess from where the screens stand (the camera is too nearly "
        "overhead to see which way the letters face)"
    )
