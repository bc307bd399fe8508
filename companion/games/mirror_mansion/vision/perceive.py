"""Read the box from one photograph: which slots hold mirrors, which way they face, where the
window card and the door are.

From above a standing mirror is little more than its top edge, and its face shows whatever
it reflects, so we read the sticker kit and the top edges, not the reflections. The reader
is four stages, each with a typed result and testable alone:

1. rectify (`rectify` -> `Rectified`): the camera pose from the corner markers already
   found (the platform's registration passes them in; they are looked for here only when a
   photograph comes alone, at half size first: `find_board_markers`), then one top-down
   image per height where dots are (mirrors, door, cards), white-balanced on the markers'
   white margins, and the same heights and the board itself point by point for the top
   edges (`top_planes.py`);
2. candidates (`find_candidates` -> `Candidates`): every dot of each sticker colour on its
   plane, wherever it was stuck (`dots.py`), and the top-edge evidence along each slot;
3. identify (`identify` -> `Identified`): each dot placed on the piece it can belong to: a
   green dot anywhere along a mirror's top edge, off its middle line on the reflective side,
   names the slot and the facing (a dot near the crossing's middle fits both slots, and the
   top edges decide); an orange dot on a door's top; a magenta dot on a card's top;
4. fit the board model (`fit` -> `BoxState`): one piece a crossing, at most the box's
   mirrors and doors, one window; a top edge with no dot is a mirror whose facing we do not
   know (null, and the dashboard asks).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cache, cached_property, lru_cache, partial

import cv2
import numpy as np

from companion.games.mirror_mansion.rules.board import FACINGS, SLOTS, Board, Cell
from companion.games.mirror_mansion.vision import dots as dot_search
from companion.games.mirror_mansion.vision.dots import Dot, find_dots
from companion.games.mirror_mansion.vision.scene import BoxState, DoorSeen, MirrorSeen
from companion.games.mirror_mansion.vision.stickers import DEFAULT_STICKERS, StickerSettings
from companion.games.mirror_mansion.vision.top_planes import (
    PX_PER_MM,
    PlaneSampler,
    TopPlane,
    median,
    norm,
    plane_sampler,
    top_plane,
    white_balance,
)
from companion.vision.board_pose import (
    MIN_MARKERS,
    BoardPose,
    Calibration,
    estimate_pose,
)
from companion.vision.markers import Marker, find_markers

ISOLATION_MIN = 0.45
"""A door's dot must have at least this share of a ring round it free of its colour (a
worn door top or a skin-toned hand near it crowds it; its rank weighs its isolation
besides). Curve on 243 development boards (`curves.py setting --setting
perceive.ISOLATION_MIN --late --styles wide6:85,wide7:158`), boards exact and doors (missed,
phantom): 0.7 222 (2, 2), 0.6 222 (2, 2; before), 0.55 222 (2, 2), 0.5 223 (1, 2), 0.45 224
(0, 2), 0.4 223 (0, 3). 0.45 is the most before a phantom comes; the window's is the same
(`WINDOW_ISOLATION_MIN`)."""
WINDOW_ISOLATION_MIN = 0.45
"""The same for the window's dot, whose score (`_window_score`) weighs its isolation and the
level it stands out at besides: a sticker crowded by a like colour (a card's face of a
magenta hue seen under tilt, its own reflection) still names its card when nothing likelier
does. Curve on the 1060 development boards (`curves.py setting --setting
perceive.WINDOW_ISOLATION_MIN --late --styles house,random,wide,wide2,wide3`), windows right
/ asked / wrong (boards exact): 0.3 and 0.35 1046/12/2 (987), 0.4 1046/13/1 (987), 0.45
1045/14/1 (986), 0.5 1043/16/1 (984), 0.6 1039/20/1 (980; the door's, before). Below 0.4 print
crowded by its own colour names a card; 0.45 keeps a step of margin from there."""
BAR_MIN = 1.5
"""Top-edge score (`bar_scores`) above which a slot holds a mirror even when no dot is seen
(only while the box's mirrors are not all found from dots; its facing is asked). Redrawn
since the empty-slot term joined the score: on 244 development boards (`curves.py setting
--setting perceive.BAR_MIN --late --styles wide6:85,wide7:159`), boards exact and mirrors
(missed, facing asked, phantom): 2.5 225 (2, 7, 0; before), 2.25 and 2.0 the same, 1.75 to
0.75 225 (0, 9, 0): the two mirrors whose stickers were not found (a pale dot under glare, a
green dot overhanging a green board; top edges 1.76 and 1.98) are asked instead of missed,
and no slot without a mirror is taken down to 0.75. Of the slot lines of 159 of those boards
that hold no piece (1468), 26 score 1.5 or more, 2 score 2.5: the fill takes the likeliest
free slot only, so 1.5 keeps a margin below the least of the two and above most print."""
SLOT_MARGIN = 0.5
"""When a dot fits both slots of its crossing (near its middle), the top-edge score
difference from which the likelier slot is taken; below it the reading says "slot unsure"
(`MirrorSeen.slot_sure`), names no facing and the players are asked among all four (a
facing names its slot). Until then a close call only nulled the facing and still named the
likelier slot, so a wrong slot was a confident mistake. Curve on the 760 development boards
(40 house, 120 random, and the 300 + 300 of `wide` and `wide2`; `curves.py setting --setting
perceive.SLOT_MARGIN --late --styles house,random,wide` and `--styles wide2`), boards exact
and mirrors (slot asked, slot wrong): 0.25 701 (4, 4), 0.4 697 (10, 3), 0.5 696 (13, 2),
0.6 695 (14, 2), 0.75 690 (20, 1), 1.0 684 (27, 0). 0.5 is the knee: up to it each wrong slot
removed costs about four questions, beyond it seven. The two left are mirrors whose own top
edge barely shows (scores 0.5 and 0.8, the empty slot's 0.7 to 0.9 higher)."""
SLOT_ACROSS_FREE_MM = 2.0
"""How far either way of the model's offset (`dot_offset_mm`) a mirror's dot is stuck off its top
edge's middle line at no cost when its slot is chosen (`_across_excess`). A dot near a crossing's
middle fits both slots, and what one slot reads as along its edge the other reads as across it: a
dot stuck a few mm along the edge from the middle lies, for the other slot, far beyond where a
sticker is stuck (up to the hard limit of `ACROSS_MM`). Until then only the top edges told the slots
apart, and where both are faint (a frame painted like the board) they erred or asked. Curve on 760
development boards (`wide12` 150, drawn for this, `wide11` 150, `wide10` 300, `random` 120, `house`
40: the 1382 true mirrors whose best dot fits both slots, the top-edge scores and places replayed;
`SLOT_MARGIN` 0.5), slots asked / wrong as (free, weight): no place term 7 / 2 (before); (1.0, 0.25)
7 / 1, (1.0, 0.5) 6 / 1, (1.0, 1.0) 10 / 1, (1.0, 2.0) 20 / 8; (1.5, 0.5) 7 / 1, (1.5, 1.0) 7 / 1,
(1.5, 2.0) 12 / 1; (2.0, 0.25) 6 / 1, (2.0, 0.5) 6 / 1, (2.0, 1.0) 5 / 1 (chosen), (2.0, 2.0) 5 / 1;
(2.5, 0.5) 6 / 1, (2.5, 1.0) 6 / 1; (3.0, 1.0) 7 / 1, (3.0, 2.0) 5 / 1. On `wide12` alone, before
1 / 1, chosen 0 / 1. A cost on dots stuck nearer the line than the offset less `free` as well
changed nothing at (2.0, 1.0) and asked or erred more elsewhere. Of what is left, the wrong slot
is a mirror whose empty slot shows the stronger top edge (2.27 to 0.98); the asked ones are dots
whose place fits a sticker on either slot, where only the top edges can tell."""
SLOT_ACROSS_WEIGHT = 1.0
"""Taken off a slot's top-edge score (`bar_scores`) per mm its dot lies beyond
`SLOT_ACROSS_FREE_MM`, when a dot fits both slots (the margin `SLOT_MARGIN` judges)."""
SLOT_MIDDLE_WEIGHT = 1.5
"""Added to the margin `SLOT_MARGIN` judges when a dot fits both slots, per unit of how much
better one slot's line on the mirrors' plane matches the crossing's middle than the other's
does (`CrossingMiddle.gaps`, the log-ratio of the two gaps, each plus `EDGE_FLOOR_LAB`'s first):
the mirror's top runs through the middle, the empty slot's line is broken there. Until then
only the top edges and the dot's place told the slots apart, and straight below the camera,
where parallax says nothing, a printed insert in the empty slot outscored a faint top. Curve on
875 development boards (`house` 40, `random` 120, `wide10` 300, `wide11` 150, `wide12` 265: the
1573 true mirrors whose best dot fits both slots, 338 of them with the middle hidden by the dot;
top-edge scores, places and middles recorded once, the choice replayed with `SLOT_MARGIN` 0.5,
`SLOT_ACROSS_FREE_MM` 2, `SLOT_ACROSS_WEIGHT` 1), slots asked / wrong per weight: 0 7 / 1
(before), 0.25 3 / 1, 0.5 3 / 1, 0.75 4 / 0, 1.0 4 / 0, 1.25 3 / 0, 1.5 3 / 0 (chosen), 2.0 3 / 0,
3.0 5 / 0; right ones within 0.5 of the margin (near misses) 21 before, 8 at 1.5. The middle of
the stretch with no wrong slot. Of the three asked left, two dots hide the middle and one middle
looks like both lines."""
MIDDLE_MM = 1.5
"""The radius of the crossing's middle whose colour is compared with the slots' lines on the
mirrors' plane (`crossing_middles`): mostly on a mirror's top (2 mm thick and more); the few
points beside a thin top fall on the other slot's line and the median outvotes them."""
MIDDLE_DOT_CLEAR_MM = 1.0
"""How far beyond a dot's radius a point of the crossing's middle must lie to be read (the dot
itself, blurred at its rim, is not the mirror's top)."""
MIDDLE_MIN_POINTS = 3
"""The fewest points of the crossing's middle left clear of the dot for its colour to count."""
MIRROR_TIE = 0.1
"""Two dots of one crossing that name different placements (slot or facing) and whose
evidence differs by no more than this: the players are asked (`_unless_contradicted`). Until
then the likelier won outright, and three of the four wrong facings on the development boards
came from a second green dot (seen in a mirror's face, or print) a hair likelier than the
sticker. Curve on the 760 development boards (`curves.py setting --setting
perceive.MIRROR_TIE --late --styles house,random,wide,wide2`), boards exact and mirrors
(facing asked, facing wrong): off or 0 698 (11, 4), 0.05 697 (13, 3), 0.1 696 (16, 1), 0.15
693 (20, 1), 0.2 690 (23, 1), 0.3 686 (27, 1). 0.1 is the knee: two boards asked for three
wrong facings gone; beyond it only questions are added."""
PIECE_LEVEL_WEIGHT = 0.2
"""Added to a piece's evidence (`_piece_evidence`) per level of `dots.LEVELS` above the
first its dot was found at, as for the window (`WINDOW_LEVEL_WEIGHT`): a sticker is printed
in its kit's full colour and stands out at every level, while what else passes for a dot
of its colour (a door or frame painted mint, seen on the mirrors' plane; a green dot seen
paler in a mirror's face; a splash of board art) mostly stands out at the lowest only. It
outranked a mirror's own sticker for a place in the box (a phantom mirror) or tied with it
(a facing asked). Curve on the 1360 development boards (`curves.py setting --setting
perceive.PIECE_LEVEL_WEIGHT --late --styles house,random,wide,wide2,wide3` and `--styles
wide4`), boards exact and (phantom mirrors, facings asked, doors phantom): 0 1260 (4, 24,
5), 0.05 1262 (4, 22, 5), 0.1 1267 (3, 18, 4), 0.15 1273 (3, 13, 4), 0.2 1275 (3, 11, 4),
0.3 1276 (4, 7, 4), 0.4 1278 (4, 7, 4). 0.2 is the most before a phantom comes back: the
three left are print blobs on green boards that take the place of a sticker not found."""
MIRROR_EDGE_MIN = 0.0
"""A green dot names a mirror only over a top edge (`bar_scores` of its slot) scoring this
much, as an orange dot names the door (`DOOR_EDGE_MIN`): a mirror's sticker lies on its top
edge, while what else passes for a green dot (a splash of art, a bubble's icon, a green
board's print) mostly lies over flat print. When a sticker is not found, such a dot took the
mirror's place in the box (a phantom mirror, the dot's evidence above `PIECE_MIN` and the
top edge's weight in it small). On 159 of the development boards of `wide6` and `wide7`, of
the green dots over a crossing with no piece that reach `PIECE_MIN` (81) the floor keeps:
none -> 81, -0.5 -> 57, 0 -> 23, 0.25 -> 9, 0.5 -> 5; of the true mirrors' likeliest dots
(630) it loses: 0 up to 0.25, 2 at 0.5, 8 at 0.75. Boards read (`curves.py setting --setting
perceive.MIRROR_EDGE_MIN --late --styles wide6:85,wide7:120`, 205 boards), exact and
(mirrors missed, phantom): none to 0.25 187 (2, 0); 0.5 185 (4, 0); 0.75 183 (12, 1); 1.0 180
(18, 3): a box whose frames are painted like its board shows faint top edges on every
mirror. 0 keeps half a unit of margin from the first mirror lost."""
DOT_EDGE_MIN = 0.0
"""The least top edge, scored along the line through a green dot (`DotBars`), that lets the
dot name a mirror whose slot's own line scores under `MIRROR_EDGE_MIN` (a thick top standing
off its line); its facing is then asked and its evidence stays its line's. Curve on the first
55 boards of development set `wide15` (`curves.py setting --setting perceive.DOT_EDGE_MIN
--late --styles wide15:55`), mirrors missed, phantom, facings asked (boards exact 34 and no
facing wrong at every value): off (inf) 5, 1, 25; 1.5 and 1 4, 1, 26; 0.5 and 0.25 3, 1, 27;
0 2, 1, 28; -0.25 to -1 1, 1, 29. Below 0 nearly every dot passes (the gate says nothing);
0 is the line's own floor (`MIRROR_EDGE_MIN`), where the curve still falls. With the dot's
line also raising the evidence, the recovered mirrors outranked true ones: at 1.5 phantoms
1 -> 3 and missed 5 -> 6 (a dot 7 mm off its line, the line through it along another
edge), so the evidence stays the line's."""
CONTRAST_MIN = 12.5
"""A dot names a piece (a mirror, the door, the window) only when its ring lies at least this
far from its colour (`dots.ring_contrast`, 8-bit Lab units): a sticker is one colour laid on
something else, while a blob of art that is the tip of a larger region of its colour, or a
door's face beside its top, has part of its ring in that colour. On 159 development boards
(`wide7`) the true stickers' contrast was 30 or more in 95 % of mirrors and 39 in 95 % of
doors, the green blobs over empty crossings 6.5 and the orange blobs off the door 4.8
(medians). Curve on 629 development boards (`curves.py setting --setting
perceive.CONTRAST_MIN --late --styles house,random,wide7:159,wide8:10` and `--styles wide6`),
boards exact and (windows wrong, doors phantom, mirrors phantom, facings asked): off 588 (4,
2, 3, 15), 5 586 (3, 2, 2, 17), 10 590 (2, 0, 2, 17), 12.5 590 (2, 0, 2, 17), 15 591 (2, 0,
3, 15), 20 587 (2, 0, 2, 19), 25 and 30 on the first 329 only: 300 and 282 of 329 (312 off).
The middle of the stretch without a door phantom and with the fewest wrong windows; at 15 a
phantom mirror comes back."""
BAR_WEIGHT = 0.2
PIECE_MIN = 0.6
"""A green dot names a mirror when its quality plus BAR_WEIGHT times its slot's top-edge score
reaches PIECE_MIN; the box's mirrors are the likeliest of those. On 80 development boards
(320 mirrors), the top four per box: weight 0 -> 4 phantoms, 310 right; 0.1 -> 3, 311;
0.2 to 0.5 -> 2, 312. The floor changes nothing from 0.4 to 0.7 (0.8 loses a mirror); the
least true mirror scored 1.0."""
DOOR_EDGE_MIN = 0.5
"""An orange dot names the door only over a top edge at the door's height scoring this much:
print of the door's colour (an insert seen through crossing slots, a skin-toned patch of art)
has none. Curve on 340 development boards (40 house, 300 random, the random doors thin or
thick, tops painted near the board's colour or worn; door dot value floor 60, doors ranked
by evidence), boards with the door right / missed / phantom (boards exact): floor -0.5
328/0/12 (304), 0.0 334/1/5 (310), 0.25 335/1/4 (311), 0.5 336/2/2 (313), 0.75 333/5/2
(311), 0.85 331/7/2 (309), 1.0 328/10/2 (306), 1.5 312/26/2 (291). Before the doors were
widened the plateau was 0.75 to 1.0: a floor read off strong door tops missed faint ones."""
DOOR_LEVEL_CREDIT = 0.25
"""Counted toward `DOOR_EDGE_MIN` per level of `dots.LEVELS` above the first the door's dot
was found at: a sticker in the kit's full orange stands out at every level, while the print
and skin the edge floor keeps out stand out at the lowest, so a door whose top edge is faint
(painted near the board's colour, worn) is still read from a full-coloured dot. Curve on the
1360 development boards (`curves.py setting --setting perceive.DOOR_LEVEL_CREDIT --late
--styles house,random,wide,wide2,wide3,wide4`), doors missed / phantom (boards exact, from
0): 0 14 / 4, 0.15 9 / 5 (+4), 0.25 7 / 5 (+6), 0.5 5 / 8 (+6), 1 4 / 15 (-1). 0.25 is the
most before phantoms climb: 7 missed doors read for one phantom."""
WINDOW_TIE = 0.1
"""Two card tops whose dots' scores (`_window_score`) differ by no more than this: the
players are asked. Raised from 0.02 with `WINDOW_FLOOR` (0.2 -> 0.3), from one curve
(`curves.py window --levels 0.3 --floors 0.1,0.2,0.3,0.4,0.5 --ties
0.02,0.05,0.1,0.15,0.2,0.3`, on `--styles house,random,wide,wide2,wide3` and `--styles
wide4`: 1360 development boards, the 300 of `wide4` drawn to find the wrong windows a fresh
run still showed), windows right / asked / wrong as (floor, tie): (0.1, 0.02) 1339/17/4,
(0.1, 0.2) 1334/24/2, (0.2, 0.02) 1337/20/3 (before), (0.2, 0.1) 1336/22/2, (0.3, 0.02)
1336/22/2, (0.3, 0.05) 1335/23/2, (0.3, 0.1) 1335/24/1 (chosen), (0.3, 0.15) 1332/27/1,
(0.4, 0.1) 1329/30/1, (0.5, 0.1) 1323/36/1. Of the two wrong windows `wide4` added, one was
a small, pale sticker on a purple board behind two specks of print on other card tops
(1.10 and 1.04 to its 0.95: their tie now asks); the other a sticker crowded by its card's
magenta face, which left a disc of print behind another card scoring 0.2. The one wrong
left is the speck of `WINDOW_LEVEL_WEIGHT`'s curve. Looked at again with
`WINDOW_CONTRAST_WEIGHT` in the score (`curves.py window --levels 0.3 --floors 0.3 --ties
...` on `--styles house,random,wide9:182,wide10`, 642 development boards), windows right /
asked / wrong per tie: 0.1 636/4/2 (kept), 0.12 636/4/2, 0.15 635/5/2, 0.18 to 0.3
631/9/2, 0.32 631/10/1, 0.35 631/11/0, 0.4 631/11/0, 0.5 629/13/0. The two wrong windows
lead the sticker by 0.31 and 0.34 (printed discs set off from their ring more than the
sticker): a tie past them asks 7 windows more and reads 5 fewer right, fitted to two boards,
so the tie stayed. Looked at again on the widest sets (`windows.py --styles
wide17,wide18,wide19,wide20,wide21,wide22,wide23,wide24,wide25,wide26 --ties ...`, 1947
development boards with a pose), windows right / asked / wrong per tie: 0.1 1931/10/6 (kept),
0.15 1930/12/5, 0.2 1929/13/5, 0.25 1929/15/3, 0.3 1929/15/3, 0.35 1928/16/3, 0.4 1922/22/3,
0.5 1915/29/3. Three of their six wrong windows are card tops painted near magenta whose
patches lead the sticker or each other by 0.15 to 0.25; 0.3 asks them and two rights. On
fresh boxes (two random draws of 160, house and held-out 40) 0.3 asked two windows read right
and no wrong one, so the tie stays."""
WINDOW_CONTRAST_WEIGHT = 0.8
"""Added to a window dot's score at full contrast with its ring (`dots.ring_contrast`, up to
`WINDOW_CONTRAST_FULL`): a sticker is one colour laid on a card top, while a pocket of a
board or a card top of a like colour (a magenta or purple board between a card, a drop and
a hand) stands out of its colour barely above `CONTRAST_MIN`. With the place's level
(`_place_level`), from one curve on 522 development boards (`wide9` 182, `wide10` 300,
`house` 40; the candidates found once, the window's choice replayed), windows right / asked /
wrong as (place level, weight, full contrast): (no, 0, -) 516/3/3 (before), (yes, 0, -)
515/5/2, (no, 0.6, 40) 517/4/1, (yes, 0.2, 40) 516/4/2, (yes, 0.4, 30) 517/4/1, (yes, 0.4,
40) 517/4/1, (yes, 0.4, 60) 515/6/1, (yes, 0.6, 30) 517/5/0, (yes, 0.6, 40) 518/4/0, (yes,
0.6, 60) 516/5/1, (yes, 0.8, 30) 518/4/0, (yes, 0.8, 40) 518/4/0 (chosen), (yes, 0.8, 60)
517/5/0, (yes, 1.0, 30) 518/4/0, (yes, 1.0, 40) 520/2/0, (yes, 1.0, 60) 517/4/1 (a wrong
window back). 0.8 at 40 is the middle of the stretch with no wrong window. With `random`'s
120 boards added (642), windows right / asked / wrong: before 634/4/4, (yes, 0.8, 40)
636/4/2, (yes, 1.0, 40) 638/2/2, and the lead asked for a window raised instead (no place
level, no weight, `WINDOW_TIE` 0.2) 633/9/0: on `random` one asked window becomes wrong
(the sticker set off at 23.7 against a printed disc behind another card at 37.2; print of
the kit's colour on the board is set off too), and one wrong window stays wrong for the same
reason. The three wrong windows of `wide10` before: a pocket of a magenta board beside a
card top (contrast 14.8 to the sticker's 29), a blob of a like colour on another card's top
(15.4 to 36), and a card top painted near magenta outranking a sticker on a purple board
whose core stood out at the highest level only (the place's level)."""
WINDOW_TOP_WEIGHT = 1.0
"""Added to a window dot's score when its card's top under its middle shows its colour
(`Dot.on_top`, `top_cover`): a sticker is stuck on the card's top and covers it, while print
of a like colour cannot lie there: a disc on the board behind the card is hidden by the card
up to its top's far edge, print on the card's face lies below its near edge. The wrong
windows left by `WINDOW_TIE`'s curve were printed discs behind other cards set off from
their ring more than the sticker. Curve on 792 development boards (`curves.py setting
--setting perceive.WINDOW_TOP_WEIGHT --late --styles house,random,wide9:182,wide10` and
`--styles wide11`), windows right / asked / wrong (boards exact): 0 784/6/2 (750, before),
0.2 787/3/2 (753), 0.4 and 0.6 788/3/1 (754), 0.8, 1.0 and 1.5 789/2/1 (755). 1.0 is the
middle of the plateau; no weight made a window wrong. The wrong one left is a sticker
overhanging its card's far side by more than its radius, which covers no top."""
CARD_TOP_REACH_MM = 6.0
"""How far off its nominal line a card's top is looked for on the cards' plane
(`card_top_mm`): a card a few mm taller or shorter than the model, or standing a little in
front of or behind its line, shows its top displaced by parallax and by where it stands."""
CARD_TOP_SPAN = 0.7
"""The share of a card's width, about its middle, over which its top is looked for."""
WINDOW_CONTRAST_FULL = 40.0
"""The contrast (8-bit Lab units) from which a window dot counts as fully set off from its
ring: about what 95 % of the doors' stickers reach (`CONTRAST_MIN`'s curve)."""
EDGE_FLOOR_LAB = (5.0, 3.0)
"""Lab units added to a contrast and to a spread before their ratio: the print's noise, so a
plain, flat stretch scores about zero rather than a ratio of two tiny numbers."""
ACROSS_MM = (0.75, 4.0)
"""A mirror's dot centre lies off its top edge's middle line by at least the first (else
its side is unknown) and at most the model's offset plus the second."""
TOP_NEAR_MM = 3.0
"""How near its slot's line a mirror's dot must lie for its own top (`mirror_tops`) to name
its facing; farther, the line names it. Within it, a dot the line puts clearly on one side
(`ACROSS_MM[0]`) and its top on the other is asked, and so is a dot the top puts on its far
half when the face toward the camera may be in that top and the line does not say the same
(`_face_in_top`). mm25 had it at 3 without the face rule: fresh random boards read with 11 ->
2 facings wrong of 160, both new, so it was off (0). Its curve then, on the first 60 boards
of development set `wide15` (mm25's `curves.py setting --setting perceive.TOP_NEAR_MM --late
--styles wide15:60`), boards exact and facings (asked, wrong): 0 33 (28, 15); 2 40 (15, 5);
2.5 40 (17, 3); 3 40 (18, 2); 3.5 36 (24, 2). The wrong ones left (6 dots of true mirrors
on those boards, mm26) were all one class: the face toward the camera, shown on the mirrors'
plane beside the top and as even, taken for the top or with it, which pulls the strip's
middle toward the camera and puts a dot on the near half on the far half. With
`_face_in_top` (`FACE_SLACK_MM` 0.5), the same 60 boards: 2.5 34 (27, 1); 3 34 (28, 0); 3.5
30 (34, 0); `wide15` boards 60 to 124, not looked at before (64 read): 0 (main) 35 of 54
(21, 10) on 60 to 114, 3 42 (16, 0); all 124 read at 3: 84 exact (46, 0). On the first 20
boards of `wide14` as the widened renderer now draws them: 0 13 of 17 (3, 5), 3 15 of 20
(9, 1), the one wrong a dot 3.1 mm behind its line, where the line decides (a veto zone out
to 3.5, 4 or 5 mm, asking wherever the top there disagrees with the line, kept it wrong and
read `wide15` 84 -> 78, 77, 77 exact: not kept)."""
TOP_VETO_MM = 3.5
"""Out to this far off its slot's line (beyond `TOP_NEAR_MM`) a dot's own top is measured too,
and where it puts the dot on its other half than the line does, found clearly
(`TOP_VETO_RIVAL`), the facing is asked; 0 (or `TOP_NEAR_MM` or less) turns it off. A top 9 mm
thick standing behind its line carries its dot 3 to 4.5 mm past the line on the back's side (mm37:
3 of the 10 confidently wrong mirrors of development sets `wide22`, `wide19` and `wide17`).
mm25's veto zone without the rival margin asked many right facings; with it the zone's width
hardly matters. Curve on those sets (`wrong.py --beyond`: the line's facings of dots 3 to 5
mm off, right / wrong asked), zone out to 3.5, 4.0, 4.5, 5.0 mm: at `TOP_VETO_RIVAL` 0 6 / 2,
9 / 3, 13 / 3, 13 / 3; at 0.5 1 / 2 each. 3.5, the narrowest of the flat stretch: a house
box's dots lie about 4 mm off their line, and measuring their tops cost house frames 6 % of
a read at 4 mm (`ab_speed.py`), 2 % at 3.5."""
TOP_VETO_RIVAL = 0.5
"""How much more the top found beyond `TOP_NEAR_MM` must stand out than any strip putting the
dot on the line's side (`MirrorTop.rival`) for it to ask a facing the line names. Curve (as
`TOP_VETO_MM`'s, zone out to 3.5 mm), right / wrong asked at 0, 0.3, 0.5, 1.0: 6 / 2, 1 / 2,
1 / 2, 0 / 0 (the two wrong tops' margins 0.88 and 0.96); 0.5, the flat stretch's far end
at 4.5 mm (3 / 2 at 0.3), about half the least wrong margin."""
FACE_SLACK_MM = 0.5
"""Added to the face's width on the mirrors' plane (`face_width_mm`, from the model's mirror
height: a box's mirrors stand a few mm taller or shorter, and the face's edge is blurred)
when `_face_in_top` takes it off a top. Curve on the first 60 boards of `wide15` at
`TOP_NEAR_MM` 3, boards exact and facings (asked, wrong): with the line's word kept (a far
half the line names too stands) 0, 0.5 and 1 34 (28, 0), flat; without it 0 30 (35, 0), 0.5 29
(37, 0), 1 26 (41, 0), 1.5 26 (42, 0). 0.5, the middle of the flat stretch. A margin of the
top over the best strip that puts the dot on its other half (a top barely told apart) was
tried first and asked without removing the wrong ones: margins 0, 0.1, 0.2, 0.3, 0.5, 0.75
40 (18, 2), 39 (21, 2), 37 (26, 2), 32 (35, 1), 27 (48, 1), 20 (74, 0): the faces taken for
tops stand out as clearly as tops. Drawn again with the views of a sticker barred from
making a top-asked facing sure (mm28; `curves.py setting --setting perceive.FACE_SLACK_MM
--values 0.5,0.75,1.0,1.5 --late`), boards exact and facings (asked, wrong): `wide16` (150)
0.5 98 (70, 6), 0.75 and 1.0 98 (71, 5), 1.5 97 (73, 5); `wide15:95` 0.5 to 1.0 62 (45, 0),
1.5 61 (47, 0): one wrong facing asked from 0.62 (the guide, mm28). 1.0 was tried on fresh
boards (40 random): one right facing asked, none wrong to remove (main 31 / 40 exact, 1.0
30 / 40), so it stays at 0.5: one mirror either way is no curve."""
FAR_AGREE_MM = 2.0
"""Within this far off its slot's line, a dot the line puts on its side away from the camera
whose own top puts it on its far half too (`top.near_side`) is asked when a strip holding it on
the top's other half stands out almost as well (`FAR_AGREE_RIVAL`); 0 turns it off. Two
readings that err the same way: a mirror a few mm taller than the model carries its dot away
from the camera on the mirrors' plane (past a line it lies 1.5 mm beside), and the face toward
the camera taken with the top pulls the strip toward the camera. mm39 (issue 37): the largest
class of confidently wrong mirrors on development sets `wide23`, `wide22`, `wide21` (600 random
boxes, `wrong.py`: 21 wrong) was facings where top and line agree (13), 10 of them on the far
half and the line's far side. Curve over those far-and-far facings (`wrong.py --rows`, right /
wrong asked), |across| under 1.0, 1.25, 1.5, 2.0, 2.5 mm at `FAR_AGREE_RIVAL` 0.2: 1 / 3, 1 / 4,
3 / 5, 5 / 6, 6 / 6; at 2.0 mm, rival under 0.1, 0.2, 0.3, 0.5, any: 4 / 5, 5 / 6, 10 / 8,
26 / 10, 202 / 10. 2.0 mm and 0.2, the end of the stretch where the wrong ones still rise."""
FAR_AGREE_RIVAL = 0.2
"""How little the top must stand out over the likeliest strip holding the dot on its other
half (`MirrorTop.rival`) for `FAR_AGREE_MM` to ask (curve there)."""
MIRROR_DOT_ELONGATION = 1.65
"""The most a mirror's dot may be drawn out (major over minor axis; `dots.MAX_ELONGATION` for
the others): a piece of a green or mint top edge beyond its dot is a short bar, and it
outranked the dot (which touches the edge, so stands less alone). On the development boards
(all green blobs that name a mirror, every level): at 2.0, 1797 name it rightly and 87
wrongly; at 1.8, 1797 and 86; from 1.75 down to 1.6, 1796 and 84; at 1.5, 1793 and 80;
at 1.3, 1776 and 74. The middle of the plateau."""
SIDE_MARGIN_MM = 5.0
"""How far beside the door's top line its dot's centre may lie (and, beyond a dot's width,
how far either side of the cards' line their strip reaches). A narrower margin for the door
(4.0 mm: the middle of a plateau on the development boards, where it removed both door
phantoms) lost a door on fresh held-out boxes and was taken back."""
WINDOW_FREE_MM = 2.0
"""How far off a card's top line a window dot lies at no cost (`_window_score`), measured
from its centre less `WINDOW_RIM_SHARE` of its radius."""
WINDOW_SLOPE_MM = 3.0
"""Beyond `WINDOW_FREE_MM`, a window dot's score falls by one for every this many mm."""
WINDOW_RIM_SHARE = 0.5
"""The share of a window dot's radius (from its area) taken off its centre's distance from
the card's top line (`_window_score`): a sticker lies on the top edge, so a wide one
overhanging it still reaches the line with its centre further off, while a speck of print
must lie nearer. The three from one curve on 460 development boards (`curves.py window
--styles house,random,wide6 --levels 0.3 --floors 0.3 --ties 0.1 --frees 1,2,3,4 --slopes
2,3,4 --rims 0,0.5`), windows right / asked / wrong (boards exact) as (free, slope, rim):
(3, 2, 0) 447/9/4 (424, before), (1, 2, 0) 407/50/3, (2, 2, 0) 441/16/3, (4, 3, 0) 451/4/5,
(3, 4, 0) 451/5/4, (1, 3, 0.5) 453/3/4, (1, 4, 0.5) 452/6/2, (2, 2, 0.5) 453/3/4, (2, 3, 0.5)
453/4/3 (429, chosen), (2, 4, 0.5) 450/8/2, (3, 2, 0.5) 448/5/7, (4, 3, 0.5) 442/9/9. Half
the radius with 2 mm free is the middle of a plateau that is right more often, asks less and
errs less than the centre's distance; the whole radius (curve before, on house and random)
lets a wide blob of a card's face reach its line and errs more. The wrong windows before
were stickers stuck 4.3 to 5.4 mm off the line (overhanging it), found at the lowest level
only, against specks of print on other card tops. A sticker's centre lies off its card's
nominal top line by how it was stuck, not by the card's height: the cards' parallax on the
plane of their nominal height was 0.4 mm median (at most 1.7 mm) on 40 development boards
with heights 4 mm off, so the line was not estimated per board."""
WINDOW_FLOOR = 0.3
"""The least score (`_window_score`) at which a card top's dot names the window. The three
from one curve (`curves.py window --styles wide,house` and `--styles random`: 460
development boards, 40 house, 120 random and the 300 of the wider random set, the window's
dot stuck with its centre up to 4 mm off the card's top edge's middle line), windows right /
asked / wrong as (free, slope, floor): (3, 2, 0) 447/11/2 (chosen), (3, 2, 0.25) 445/13/2,
(3, 2, -0.5) 450/5/5, (3, 1, 0) 429/30/1, (3, 4, 0) 450/5/5, (3, 4, 0.25) 450/6/4, (4, 1, 0)
445/12/3 (before), (4, 2, 0) 446/7/7, (5, 1, 0) 439/10/11, (6, 1, 0) 433/12/15. The more mm a
dot may lie off at no cost, the more often print on a card's face beside its top (an icon
seen under tilt) outranks the sticker; a steeper cost beyond asks where a gentler one guessed.
(3, 2, 0) is right more often than the reader before, asks less and errs less. On the curve
before (240 boards: house, 200 of the random base, the accuracy check's 30) (4, 1, 0) gave
268/2/0 and (3, 2, 0) 267/2/1; the hard margin before that (a dot at most 4 mm off, the rest
ignored) gave 235/2/3. With no floor a hidden sticker lets print name a card: a wrong window
is worse than a question. Raised from 0 to 0.2 when the level a dot stands out at joined the
score (`WINDOW_LEVEL_WEIGHT`, whose curve it comes from)."""
WINDOW_LEVEL_WEIGHT = 0.3
"""Added to a window dot's score per level of `dots.LEVELS` above the first it was found at:
a sticker is printed in the kit's full colour, while the print that outranked it (a movement
field's disc on the board just behind a card, seen beside its top; a card top painted near
magenta) is paler and stands out at the lowest level only. With `WINDOW_FLOOR` from one curve
(`curves.py window --styles house,random,wide,wide2,wide3`: 1060 development boards, the
300 of `wide3` drawn to find every wrong window left), windows right / asked / wrong as
(weight, floor; boards exact): (0, 0) 1026/25/9 (before; 968), (0, 0.5) 987/66/7, (0.2, 0)
1038/20/2, (0.2, 0.3) 1032/27/1, (0.3, none) 1043/8/9, (0.3, 0) 1042/16/2, (0.3, 0.1)
1042/17/1, (0.3, 0.2) 1039/20/1 (chosen; 980), (0.3, 0.3) 1037/22/1, (0.3, 0.5) 1027/32/1,
(0.4, 0) 1042/14/4, (0.4, 0.2) 1040/17/3. From 0.4 up
print found at two levels (a saturated magenta splash of the board's art) wins again. The
floor at 0.1 is the knee, but the one wrong window it removes scored 0.09 there: 0.2 keeps a
margin for three more questions. The one wrong left is a board whose sticker is not found at
all and a speck of print (22 mm2, barely alone) scores 0.69. Raised to 0.3 with `WINDOW_TIE`
(whose curve it comes from)."""

Slot = tuple[Cell, str]


# --- 1. rectify ------------------------------------------------------------------------


@dataclass(frozen=True)
class Rectified:
    """The photograph on the planes of the tops, with the pose they were made from."""

    pose: BoardPose
    mirrors: TopPlane
    """The grid's area at the mirrors' height."""
    doors: TopPlane
    """The grid's area at the door's height."""
    cards: dict[str, TopPlane]
    """Per board side (N, E, S, W), the strip of the cards' tops."""
    mirror_points: PlaneSampler
    door_points: PlaneSampler
    ground_points: PlaneSampler
    """The same three heights point by point, for the top-edge scores; the ground is the
    board itself, where the print lies sharp."""

    @property
    def nadir_mm(self) -> np.ndarray:
        return self.pose.camera_centre[:2]


def rectify(
    image: np.ndarray, board: Board, pose: BoardPose, stickers: StickerSettings = DEFAULT_STICKERS
) -> Rectified:
    gains = white_balance(image, pose, board)
    xs, ys = board.crossing_x_mm, board.crossing_y_mm
    reach = board.mirror_length_mm / 2 + 8
    lo, hi = (min(xs) - reach, min(ys) - reach), (max(xs) + reach, max(ys) + reach)
    mirrors = top_plane(image, pose, board.mirror_height_mm, lo, hi, gains)
    doors = top_plane(image, pose, stickers.door_height_mm, lo, hi, gains)
    half = _card_half_mm(board) + 8
    across = board.dot_diameter_mm + SIDE_MARGIN_MM + 4
    cards = {}
    for side in "NESW":
        line = board.card_line_mm[side]
        along = xs if side in "NS" else ys
        a0, a1 = min(along) - half, max(along) + half
        if side in "NS":
            box = ((a0, line - across), (a1, line + across))
        else:
            box = ((line - across, a0), (line + across, a1))
        cards[side] = top_plane(image, pose, board.card_height_mm, *box, gains)
    return Rectified(
        pose,
        mirrors,
        doors,
        cards,
        plane_sampler(image, pose, board.mirror_height_mm, gains),
        plane_sampler(image, pose, stickers.door_height_mm, gains),
        plane_sampler(image, pose, 0.0, gains),
    )


def _card_half_mm(board: Board) -> float:
    """Half a card's width: the spacing of card positions along an edge."""
    xs = board.crossing_x_mm
    return (xs[1] - xs[0]) / 2 if len(xs) > 1 else board.mirror_length_mm / 2


# --- 2. candidates ---------------------------------------------------------------------


@dataclass(frozen=True)
class CrossingMiddle:
    """A crossing's middle on the mirrors' plane, and the colour of each of its slots' lines there.

    A standing mirror's top runs unbroken through its crossing's middle, while the other slot's
    line (the insert seen through the empty cut, or print) is broken there by that top: the
    middle looks like the mirror's own line and unlike the empty one. On the mirrors' plane the
    top lies where it stands wherever the camera is, so this holds straight below the camera
    too, where the top-edge scores' parallax says nothing and a strong printed insert in the
    empty slot can outscore a faint top (a frame painted like the board)."""

    points_mm: np.ndarray
    """(n, 2) board mm of the middle's points."""
    lab: np.ndarray
    """(n, 3) their Lab colours."""
    lines: dict[str, np.ndarray]
    """Per slot, the median Lab colour along its line (`_slot_lines`)."""

    def gaps(self, dot: Dot) -> dict[str, float] | None:
        """Per slot, how far the middle's colour (the median of its points clear of `dot`) lies
        from the slot's line; None when the dot hides too much of the middle."""
        reach = math.sqrt(dot.area_mm2 / math.pi) + MIDDLE_DOT_CLEAR_MM
        clear = np.hypot(*(self.points_mm - np.array(dot.centre_mm)).T) > reach
        if int(clear.sum()) < MIDDLE_MIN_POINTS:
            return None
        middle = median(self.lab[clear], axis=0)
        return {s: float(np.linalg.norm(middle - line)) for s, line in self.lines.items()}


@dataclass(frozen=True)
class Candidates:
    """All the evidence of pieces: dots by colour and top edges by slot."""

    green: tuple[Dot, ...]
    orange: tuple[Dot, ...]
    magenta: dict[str, tuple[Dot, ...]]
    """By board side."""
    mirror_bars: dict[Slot, float]
    door_bars: dict[Slot, float]
    middles: dict[Cell, CrossingMiddle] = field(default_factory=dict)
    """Per crossing, its middle on the mirrors' plane (`crossing_middles`): which slot a mirror
    whose dot fits both stands in."""
    tops: Mapping[tuple[tuple[float, float], str], MirrorTop] = field(default_factory=dict)
    """Per green dot (its centre) and slot it fits, that slot's mirror top as found on the
    mirrors' plane clear of the dot (`mirror_top`): which side of its top the dot lies on."""
    dot_bars: Mapping[tuple[tuple[float, float], str], float] = field(default_factory=dict)
    """Per green dot (its centre) and slot it fits, the top edge scored along the line through
    the dot instead of the slot's (`DotBars`): a thick top standing off its slot's line."""


def slot_axes(slot: str, board: Board) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors along a slot and across it, toward its second facing (`FACINGS`)."""
    return _axes(slot)


@cache
def _axes(slot: str) -> tuple[np.ndarray, np.ndarray]:
    # Made once (read-only): a frame asks for them some fifty times.
    u = np.array([1.0, -1.0] if slot == "/" else [1.0, 1.0]) / math.sqrt(2)
    n = np.array(Board.facing_normal(FACINGS[slot][1]))
    u.setflags(write=False)
    n.setflags(write=False)
    return u, n


def _slot_lines(board: Board, length_mm: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per slot (crossings in order, `SLOTS` within): its crossing, its points along the line
    every mm (not within 3 mm of the middle, where the two slots cross, nor of the ends) and
    its unit normal."""
    # Keyed by the crossings' coordinates, not by the board (unhashable): some thirty look-ups
    # a frame, each building its key of nine crossings was a tenth of a millisecond.
    return _lines(board.crossing_x_mm, board.crossing_y_mm, board.size, length_mm)


@lru_cache(maxsize=8)
def _lines(
    xs: tuple[float, ...], ys: tuple[float, ...], size: int, length_mm: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # The crossings in `Board.cells`' order, as `Board.crossing_mm` places them.
    crossings = [(xs[c], ys[r]) for r in range(size) for c in range(size)]
    half = length_mm / 2 - 3
    t = np.arange(-half, half + 0.01, 1.0)
    t = t[np.abs(t) > 3.0]
    centres, lines, normals = [], [], []
    for crossing in crossings:
        for slot in SLOTS:
            c = np.array(crossing)
            u = np.array([1.0, -1.0] if slot == "/" else [1.0, 1.0]) / math.sqrt(2)
            n = np.array(Board.facing_normal(FACINGS[slot][1]))
            centres.append(c)
            lines.append(c + t[:, None] * u)
            normals.append(n)
    return np.array(centres), np.array(lines), np.array(normals)


def bar_scores(
    plane: PlaneSampler,
    ground: PlaneSampler,
    board: Board,
    nadir: np.ndarray,
    length_mm: float,
    ground_strips: dict[float, tuple[np.ndarray, ...]] | None = None,
) -> dict[Slot, float]:
    """How much each slot holds a top edge at the plane's height rather than print on the board.

    A piece's top is a strip of one colour, straight along the slot, that differs from the
    board beside it: lighter, darker or another hue (a frame may be black, silver, wood or
    any colour, so no sign is assumed). Print along the slot (the insert seen through an empty
    slot, a guide line) is such a strip too, but on the board: on the ground plane it lies
    exactly on the slot line, while a top edge does so only on its own plane. So the score is
    the log-ratio of the strip's contrast over its unevenness on the top plane, less the same
    on the ground plane; each is the median over steps along the slot (a dot, a glint or a
    crossing line is outvoted). Contrast on the top plane is taken against the side that
    differs most (toward the camera a piece shows its face, away from it the board); on the
    ground, against the side that differs least (print is a line with board on both sides).
    """
    slots = [(c, s) for c in board.cells for s in SLOTS]
    centres, along, across = _slot_lines(board, length_mm)
    # Which side of each slot looks away from the camera (the board shows there, not a face).
    side = np.where(np.einsum("sk,sk->s", across, centres - nadir) >= 0, 1.0, -1.0)
    ta, tb, sp, *_ = _edge_strips(plane, along, across, side)
    # The ground's strips depend on the slot length only (mirrors and doors share them).
    if ground_strips is None:
        ground_strips = {}
    if length_mm not in ground_strips:
        ground_strips[length_mm] = _edge_strips(ground, along, across, side)
    ga, gb, gs, gr, _ = ground_strips[length_mm]
    # Straight above a crossing both planes agree and parallax says nothing; there the slot is
    # told from the board's own empty slot, learnt from this board: most slots are empty, so
    # the median of the slot lines on the ground is what an empty one looks like (the insert
    # seen through the cut, or the print), and a standing piece hides it.
    empty = median(median(gr, axis=1), axis=0)
    unlike = median(norm(gr - empty), axis=1)
    score = _edge_score(ta, tb, sp, ga, gb, gs) + _unlike_score(unlike, gs)
    return {key: float(v) for key, v in zip(slots, score, strict=True)}


@dataclass(frozen=True)
class EmptySlot:
    """The board's own empty slot line on the ground, learnt from this board as `bar_scores`
    does (most slots are empty): its colour (Lab, the median over slots of their lines'
    median colour along) and how far it lies from the board beside it (the median over slots
    of the ridge's distance to its likelier side), and the board's own colour beside the
    slots (the median over slots and steps of both sides' colour; None where unknown)."""

    lab: np.ndarray
    contrast: float
    board: np.ndarray | None = None


def empty_slot(strips: tuple[np.ndarray, ...]) -> EmptySlot:
    """`EmptySlot` from `_edge_strips` of the ground plane along the slots' lines."""
    to_a, to_b, _, ridge, beside = strips
    return EmptySlot(
        median(median(ridge, axis=1), axis=0),
        float(np.median(np.minimum(to_a, to_b))),
        median(beside, axis=0),
    )


_RIDGE_MM = np.array([-0.6, 0.0, 0.6])
"""Where across a slot's line its top edge is sampled (mm)."""
_BESIDE_MM = np.array([3.5, 4.5, 5.5])
"""Where either side of it the board (or face) beside the top is sampled (mm)."""


def _edge_strips(
    p: PlaneSampler, along: np.ndarray, across: np.ndarray, side: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per line (`along`: lines × steps × 2 board mm, `across` their unit normals, `side` +1
    or -1 for the normal's side that looks away from the camera), the median over steps of
    the ridge's colour distance to the side away from the camera and to the near side, its
    unevenness along the line, the ridge's colours step by step (`bar_scores`), and the median
    over steps and both sides of the sides' colour (`EmptySlot.board`)."""
    n = across[:, None, None, :]
    ridges = along[:, :, None, :] + _RIDGE_MM[None, None, :, None] * n
    aways = along[:, :, None, :] + (side[:, None] * _BESIDE_MM)[:, None, :, None] * n
    nears = along[:, :, None, :] - (side[:, None] * _BESIDE_MM)[:, None, :, None] * n
    r, a, b = p.lab(np.stack([ridges, aways, nears])).mean(axis=3)
    spread = median(norm(r - median(r, axis=1, keepdims=True)), axis=1)
    to_a = median(norm(r - a), axis=1)
    to_b = median(norm(r - b), axis=1)
    beside = median(np.concatenate([a, b], axis=1), axis=1)
    return to_a, to_b, spread, r, beside


def _edge_score(
    ta: np.ndarray, tb: np.ndarray, sp: np.ndarray, ga: np.ndarray, gb: np.ndarray, gs: np.ndarray
) -> np.ndarray:
    """A line's top-plane contrast over its unevenness (against the side that differs most)
    less the same on the ground (against the side that differs least), as log-ratios."""
    floor_c, floor_s = EDGE_FLOOR_LAB
    return np.log((np.maximum(ta, tb) + floor_c) / (sp + floor_s)) - np.log(
        (np.minimum(ga, gb) + floor_c) / (gs + floor_s)
    )


def _unlike_score(unlike: np.ndarray, gs: np.ndarray) -> np.ndarray:
    """How unlike the board's empty slot line a slot's line looks on the ground, over its
    unevenness (a log-ratio): a standing piece hides the insert or print of its slot."""
    floor_c = EDGE_FLOOR_LAB[0]
    return np.log((unlike + floor_c) / (gs + floor_c))


def _across_along(
    image: np.ndarray, plane: TopPlane, side: str
) -> tuple[np.ndarray, tuple[float, float]]:
    """An image of the plane (its Lab pixels, a mask) with rows across its side's card line
    and columns along it, and the board mm (across, along) of its first pixel."""
    ox, oy = plane.origin_mm
    if side in "NS":
        return image, (oy, ox)
    return image.swapaxes(0, 1), (ox, oy)


def _index(mm: np.ndarray, origin: float, size: int) -> np.ndarray:
    return np.clip(np.rint((mm - origin) * PX_PER_MM).astype(np.intp), 0, size - 1)


def card_top_mm(plane: TopPlane, board: Board, spot: str) -> float:
    """Where the top of the card at `spot` lies across its side's line (board mm), seen on the
    cards' plane: the strip, straight along the card's middle, that stands out most from both
    sides of it (as `bar_scores` reads a top edge, either sign, any colour)."""
    side = spot[0]
    lab, (o_across, o_along) = _across_along(plane.lab, plane, side)
    x, y = board.card_mm(spot)
    middle = x if side in "NS" else y
    half = CARD_TOP_SPAN * _card_half_mm(board)
    c0, c1 = _index(np.array([middle - half, middle + half]), o_along, lab.shape[1])
    # Every pixel row from the reach less the sides to the reach plus them: the strip a mm
    # wide (a blurred top's middle) at each row of the reach, its sides 3 mm off either way.
    side_px, ridge_px = round(3.0 * PX_PER_MM), round(0.5 * PX_PER_MM)
    reach = np.arange(-CARD_TOP_REACH_MM, CARD_TOP_REACH_MM + 0.01, 1 / PX_PER_MM)
    pad = side_px / PX_PER_MM
    rows = _index(
        board.card_line_mm[side]
        + np.concatenate(
            [
                reach[0] - pad + np.arange(side_px) / PX_PER_MM,
                reach,
                reach[-1] + np.arange(1, side_px + 1) / PX_PER_MM,
            ]
        ),
        o_across,
        lab.shape[0],
    )
    block = lab[rows, c0 : c1 + 1]
    n = len(reach)
    ridge = (
        np.asarray(sum(block[side_px + k : side_px + k + n] for k in (-ridge_px, 0, ridge_px))) / 3
    )
    before, after = block[:n], block[2 * side_px :]
    to_before = median(norm(ridge - before), axis=1)
    to_after = median(norm(ridge - after), axis=1)
    spread = median(norm(ridge - median(ridge, axis=1, keepdims=True)), axis=1)
    floor_c, floor_s = EDGE_FLOOR_LAB
    score = (np.minimum(to_before, to_after) + floor_c) / (spread + floor_s)
    return float(board.card_line_mm[side] + reach[int(np.argmax(score))])


def top_cover(mask: np.ndarray, plane: TopPlane, side: str, dot: Dot, top_mm: float) -> float:
    """The share of a card's top (the mm either side of its middle, `top_mm`) under the middle
    half of a dot that shows the dot's colour (`mask`, the plane's `dots.loose_mask`)."""
    m, (o_across, o_along) = _across_along(mask, plane, side)
    along = dot.centre_mm[0] if side in "NS" else dot.centre_mm[1]
    r = math.sqrt(dot.area_mm2 / math.pi)
    cols = _index(
        np.arange(along - r / 2, along + r / 2 + 0.01, 1 / PX_PER_MM), o_along, m.shape[1]
    )
    rows = _index(top_mm + np.array([-0.5, 0.0, 0.5]), o_across, m.shape[0])
    return float(m[rows][:, cols].mean())


def window_dots(
    plane: TopPlane, side: str, board: Board, stickers: StickerSettings = DEFAULT_STICKERS
) -> tuple[Dot, ...]:
    """The magenta dots on one side's card tops, each that may name a card (`_window_alone`)
    with how much of its card's top it covers (`Dot.on_top`)."""
    colour, d = stickers.window_dot, board.dot_diameter_mm
    loose = cache(lambda: dot_search.loose_mask(plane, colour, d))
    found = find_dots(plane, colour, d, loose=loose)
    tops: dict[str, float] = {}
    out = []
    for dot in found:
        spot = _window_spot(board, side, dot) if _window_alone(dot) else None
        if spot is not None:
            if spot not in tops:
                tops[spot] = card_top_mm(plane, board, spot)
            dot = replace(dot, on_top=top_cover(loose(), plane, side, dot, tops[spot]))
        out.append(dot)
    return tuple(out)


@lru_cache(maxsize=1)
def _middle_offsets() -> np.ndarray:
    """The points of a crossing's middle (mm from it), on a half-mm grid."""
    g = np.mgrid[-MIDDLE_MM : MIDDLE_MM + 0.01 : 0.5, -MIDDLE_MM : MIDDLE_MM + 0.01 : 0.5]
    g = g.reshape(2, -1).T
    return g[np.hypot(*g.T) <= MIDDLE_MM + 1e-9]


def crossing_middles(plane: PlaneSampler, board: Board) -> dict[Cell, CrossingMiddle]:
    """Every crossing's middle and its slots' lines on the mirrors' plane (`CrossingMiddle`)."""
    centres, lines, _ = _slot_lines(board, board.mirror_length_mm)
    offsets = _middle_offsets()
    crossings = centres[:: len(SLOTS)]
    lab = plane.lab(
        np.concatenate([lines.reshape(-1, 2), (crossings[:, None] + offsets).reshape(-1, 2)])
    )
    along = median(lab[: lines.shape[0] * lines.shape[1]].reshape(*lines.shape[:2], 3), axis=1)
    mid = lab[lines.shape[0] * lines.shape[1] :].reshape(len(crossings), len(offsets), 3)
    return {
        cell: CrossingMiddle(
            crossings[i] + offsets,
            mid[i],
            {s: along[len(SLOTS) * i + k] for k, s in enumerate(SLOTS)},
        )
        for i, cell in enumerate(board.cells)
    }


@dataclass(frozen=True)
class MirrorTop:
    """A mirror's top found across its slot (`mirror_top`)."""

    middle_mm: float
    """Its middle line, mm off the slot's line toward the slot's second facing."""
    width_mm: float
    strength: float
    """How much the strip stands out from both sides over how uneven it is (a log-ratio)."""
    near_side: float = 0.0
    """Which side of the slot's line the camera stands over (+1 toward the slot's second
    facing, -1 the other, 0 unknown): the side where a face shows beside the top."""
    face_mm: float = 0.0
    """How wide the face toward the camera shows on the mirrors' plane (`face_width_mm`)."""
    face_uneven: float | None = None
    """How uneven along the slot the band just beside the strip on the camera's side is, as
    wide as the face shows there (`_face_band`; None where it shows narrower than
    `FACE_BAND_MIN_MM` or the camera's side is unknown): a reflection there, or the even
    back of a mirror."""
    band_board: float | None = None
    """How far (Lab) the band beside the strip on the camera's side (`_face_band`'s rows) lies
    in colour from the board's own colour beside the slots (`EmptySlot.board`; None where
    either is unknown): the board seen beyond a face taken for the top is the board's colour
    (about 0 on a plain board), a mirror's back is its plastic."""
    print_gap: float = math.inf
    """How far the strip's colour lies from the board's own empty slot line, over how far that
    line lies from the board beside it (`EmptySlot`): the print along a slot, seen on the
    mirrors' plane pulled toward the camera past a top's edge, is a strip of that colour
    (about 0); a top differs from it as much as from the board (about 1 or more)."""
    colour: tuple[float, float, float] | None = None
    """The strip's colour (Lab, `_strip_colour`): every top of a box is one paint, lit alike
    (it lies flat), so a strip that is the top has the colour of the box's tops read surely
    (`learnt_top`)."""
    rival: float = math.inf
    """How much more the strip stands out (`strength`) than the likeliest strip that also
    holds the dot but puts it on the other half (inf where none does): near 0, two strips, one
    beside the other, are about as likely the top and name the two facings. A top found
    beyond `TOP_NEAR_MM` gainsays its line only this clearly (`TOP_VETO_RIVAL`). As a rule
    asking the facings a top named within `TOP_NEAR_MM` under a margin it did not tell the
    wrong ones (mm37, issue 37, `wrong.py`: on `wide22`, `wide19` and `wide17`, the facings
    named by their own top with the line unclear, right / wrong asked under 0.2, 0.3, 0.5:
    18 / 0, 23 / 1, 54 / 2; with the line agreeing 30 / 1, 55 / 1, 138 / 2)."""


PRINT_GAP_MAX = 0.75
"""Under this `MirrorTop.print_gap` (and no wider than `PRINT_WIDTH_MAX_MM`) a strip found
for a mirror's top may be the slot's own print: where the dot lies within `ACROSS_MM[0]` of
the line, its facing is asked. Curve on development sets `wide18`, `wide20` and `wide17`
(mirrors named from their top, strips up to 3 mm wide), right / wrong it asks: 0.3 0 / 1,
0.5 0 / 2, 0.75 0 / 2, 1.0 1 / 2; the middle of the flat stretch."""
PRINT_WIDTH_MAX_MM = 2.5
"""The widest strip (`MirrorTop.width_mm`) taken for the slot's print (a line about 2 mm wide;
the print strips found were 1.5 to 2 mm). Curve at `PRINT_GAP_MAX`, the same sets, right /
wrong asked: 2.0, 2.5 and 3.0 0 / 2, 3.5 and 4.0 1 / 2 (`wide17`)."""
PRINT_PAST_MM = 0.0
"""How far past the face's span (`MirrorTop.face_mm`) the middle of a strip like the slot's
print (`print_strip`) must lie off the line, on either side, for the facing on that side to be
named (`print_past`); inf turns it off. The print along a slot shows beside a mirror only
where no body hides it: in front of a reflective face standing on the line, past that face's
span on the camera's side, or, where the face shows narrow, just behind a face standing on the
line away from the camera. Either way the reflective face looks toward the strip: the facing
is on the strip's side of the line, the other facing than the dot's half of the strip names
when the dot lies beside it on the top. Curve on development sets `wide17` to `wide26` and
`wide28` (`asked.py`'s `top print`, 2,350 random boxes: 37 asked, the other facing right in 31;
33 whose strip lies off the line, the strip's side right in 31; `asked.py --from-rows ...
--curve "top print" --name-strip --measure past --over --bars ...`, the 4 strips on the line
apart), named at or over -1.5, -1.0, -0.75, -0.5, -0.25, 0, 0.25, 0.5: right 31, 31, 30, 30,
30, 28, 21, 13, wrong 1, 0, 0, 0, 0, 0, 0, 0 (the wrong strips' -4.10, the face 5.6 mm wide
behind a strip 1.5 mm behind the line, and -1.07, a strip within the face's span). 0.0: the
strip's middle at least as far off the line as the face shows wide, 1.07 over the least
wrong one."""
TOP_REACH_MM = 12.0
"""How far either side of a slot's line a mirror's top is looked for: a 9 mm top whose face
stands on the line, and a dot stuck up to the model's offset plus `ACROSS_MM` beside it."""
TOP_WIDTHS_MM = (1.5, 10.0)
"""The widths a mirror's top may have on the plane (2 to 9 mm tops, blurred by a pixel)."""
TOP_SIDE_MM = 2.0
FACE_BAND_MIN_MM = 1.5
"""How wide the face toward the camera must show on the mirrors' plane for the band beside
a top to be judged (`_face_band`): narrower, that band is mostly the blurred edge of the top
or of the board beyond."""
FACE_UNEVEN = 6.0
"""How uneven (the median over its rows of each row's median Lab distance from its colour
along the slot, the unit of `_top_strips`' unevenness) the band beside a top on the camera's
side must be for it to be a reflection (`_reflection_beside`): a top that puts its dot on the
half toward the camera says the reflective face looks at the camera, and that face must show
there as a reflection (a lit room, blurred shapes, a lamp's streak), not as an even surface.
Curve on development sets `wide19` and `wide17` (300 random boxes; mm33's scratch dump of
each mirror's rows, `_face_band` replayed): at the faces' true place from the answer key,
share of reflections / backs / tops themselves reaching 4, 5, 6, 7, 8: reflections .92,
.82, .70, .59, .49 (367); backs .21, .09, .048, .030, .015 (399); tops .10, .031, .012, .007,
.007 (745). The facings asked because such a top and a clear line disagree, where the face
shows at least `FACE_BAND_MIN_MM` (24, the top right in all 24), named at 3, 4, 5, 6, 7, 8,
10: 24, 23, 22, 16, 14, 11, 7, none wrong; the three near-half tops read wrong there (sure,
not asked: strips beside the top) had bands of 1.4, 2.1 and 2.4. 6: the least at which under
one back in twenty and about one top in a hundred pass for a reflection (a strip that is not
the top has the top or the back beside it)."""
"""How much of the board (or face) beside a top each side's colour is taken from."""
BACK_EVEN = 3.0
"""Under this unevenness (`MirrorTop.face_uneven`, the unit of `FACE_UNEVEN`) the band beside a
top on the camera's side would be taken for a mirror's back, not a reflection (`_back_beside`):
a top that puts its dot on its half away from the camera says the back looks at the camera,
and there an even surface shows. Such a far half would then be named where the face test
(`_face_in_top`) or a clear line against it left it asked. 0: off. The band's shares at the
faces' true place (`FACE_UNEVEN`): reflections reach 4 in .92, backs in .21. Curve on
development sets `wide24`, `wide22`, `wide21` and `wide20`, `wide19`, `wide18`, `wide17`
(`asked.py`, 1,249 random boxes; the far-half facings asked because the face may be in the
strip or the clear line disagrees, print-like strips apart: 250, the top right in 167; 198
with a band measured, the top right in 127), named under 2.0, 2.5, 2.75, 3.0, 3.25, 3.5, 4.0,
4.5, 5.0: right 3, 29, 40, 48, 70, 79, 91, 100, 106, wrong 0, 0, 0, 0, 0, 1, 3, 10, 13 (the
least wrong band 3.39, `wide24`; 4.04 on the four older sets). 3.0. The face toward the camera
taken for the top over a plain board has the board beyond it, even too
(`test_a_face_taken_for_the_top_does_not_name_the_far_side`): the band must also differ from
the board's colour (`BACK_BOARD`); 0 turns the rule off."""
BACK_BOARD = 4.0
"""At least this far (Lab) the band `BACK_EVEN` judges must lie in colour from the board's own
colour beside the slots (`MirrorTop.band_board`) for it to be a mirror's back: the board seen
beyond a face taken for the top is even too, and the board's colour (0.0 in the unit scene of
a bright face over a plain board); unknown, the band is not taken for a back. Curve on the
development sets of `BACK_EVEN` (`asked.py --curve "top face;top against line, far half"
--where "band<3.0" --measure board --over`: 52 far halves under `BACK_EVEN`, all right if
named), named at or over 0, 2, 4, 6, 8, 10, 15, 20, 30: right 52, 52, 52, 50, 49, 48, 46, 42,
34, wrong 0 at each (the least right 4.6, 4.8, then 7.5). Of the far halves named wrong if
named at any band, 18 lie under 4.0 (from 0.5: the board beyond a face taken for the top).
4.0: every right one kept, the board-coloured bands below."""
FACE_REFLECTS = 0.0
"""At least this unevenness (`MirrorTop.face_uneven`, the unit of `FACE_UNEVEN`) of the band
beside a top on the camera's side names the OTHER facing where the face test (`_face_in_top`)
doubts a dot on the top's half away from the camera (`_face_reflects`): a reflection there
says the reflective face looks at the camera, so the strip held that face with the top.
0: off. Named so, the side counts as `ACROSS_MM[0]` off the middle (confidence 0.5). Curve on
development sets `wide17` to `wide22`, `wide24` and `wide26` (`asked.py`'s `top face`, 1,450
random boxes: 162 asked, 57 right if named, the other 105 all the other facing of the same
slot; `asked.py --from-rows ... --curve "top face" --name-other --measure band --over --bars
...`, 146 with a band), the other facing named at or over 0, 4, 5, 5.5, 6, 6.5, 7, 7.5, 8, 10:
right 92, 86, 74, 68, 58, 51, 42, 39, 37, 20, wrong 54, 19, 6, 1, 0, 0, 0, 0, 0, 0 (the
highest band of a top right as named 5.83). 7.0 chosen: over a point clear of it (backs
reach 7 in .030 at the faces' true place, `FACE_UNEVEN`). LEFT OFF: at 7.0 on fresh random
boxes it named 4 asked facings right and 1 asked facing wrong (a confident mistake added).
With `FACE_GUARD` the reader at each bar against off (`face_reflects.py`, candidates found
once, `wide17` to `wide27`, 2,150 random boxes), at 5.5, 6, 6.5, 7, 7.5, 8, 9: asked -> right
100, 89, 78, 67, 62, 59, 42, -> wrong 5, 4, 1, 0, 0, 0, 0 (guard off 6, 5, 2, 1, 1, 1, 1), right
-> asked 1 at each (the guard's), wrong -> asked 1 at each. LEFT OFF again: at 7.0 on fresh
random boxes (320) 9 asked -> right, 1 asked -> wrong, the guard not touching it. At 8.0,
a point over the last wrong band of the larger development, two new fresh draws (320 random
boxes): 11 asked -> right, 0 wrong or phantom added; chosen after 7.0 failed fresh, so
decided on new fresh boxes. LEFT OFF a third time: 7.0's failing draw read again at 8.0 keeps
its 1 asked -> wrong (and 2 asked -> right), that band at least 8.0; two new fresh
draws (320 random boxes) 13 asked -> right, 0 wrong or phantom added; house and held-out
unchanged (mm52 in the guide)."""
FACE_GUARD = True
"""Whether a facing named by `FACE_REFLECTS` is asked where another view of the crossing names
the other facing of the same slot surely (`face_guarded`). On development (`face_reflects.py`,
`wide17` to `wide27`) it asks the one facing the rule named wrong at every bar (`wide17`: the
sticker's other views read the other side from their top) and no other; the wrong ones left
under 7.0 (5 at 5.5, 4 at 6.0, 1 at 6.5) had no view against them."""
MIDDLE_RIVAL = 0.2
"""How much more a top must stand out (`MirrorTop.rival`) than the likeliest strip that puts
its dot on the other half for it to name the side of a dot lying within `ACROSS_MM[0]` of its
middle (`_middle_named`); 0 turns it off. A hand sticks a dot at least 1.5 mm off its top's
middle, so a dot found that near the middle says the strip is not quite the top, and the half
is a guess unless no other strip rivals it. Curve on development sets `wide17` to `wide22`,
`wide24` and `wide26` (`asked.py`'s `top middle`, 1,450 random boxes: 45 asked, 41 right if
named; `asked.py --from-rows ... --curve "top middle" --measure rival --over --bars ...`),
named at or over 0, 0.05, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3: right 41, 34, 28, 25, 24, 21,
16, 11, 10, wrong 4, 3, 1, 0 from 0.1 on (the wrong tops' rivals 0.01, 0.05, 0.06, 0.09: a
second strip, beside the one found, about as likely the top). 0.2: over twice the rival of
the clearest wrong one (0.09), as `FAR_AGREE_RIVAL`."""
NEAR_UNEVEN = 4.0
"""At least this uneven (`MirrorTop.face_uneven`, the unit of `FACE_UNEVEN`) the band beside a
top on the camera's side must be for a top that puts its dot on its half toward the camera to
name the facing against a clear side of the line (`near_band_uneven`), short of
`FACE_UNEVEN`'s clear reflection; inf turns it off. A dot on that half says the reflective
face looks at the camera, so no even surface shows beside the top there; the near halves
named wrong are strips beyond the true top, whose paint then lies beside them, even and
unlike the board (their `band_board` 56 to 83). Curve on development sets `wide17` to `wide25`
(`asked.py --near-uneven inf --curve "top against line, near half" --measure band --over`;
1,750 random boxes): 82 near-half facings asked against a clear line (print-like strips apart),
74 right if named; the band measured in 34, all 8 wrong among them (bands 2.00 to 3.00), named
at or over 2.0, 2.5, 2.75, 3.0, 3.25, 3.5, 3.75, 4.0, 4.5, 5.0: right 26, 26, 26, 26, 25, 22,
21, 21, 17, 10, wrong 8, 2, 1, 1, 0, 0, 0, 0, 0, 0. 4.0: the end of the flat stretch, 1.0 over
the least even wrong band. The 48 with no band (the face shows narrower than
`FACE_BAND_MIN_MM`) were all right but stay asked: no wrong one was seen to place a bar by."""
TOP_STEP_MM = 0.5
TOP_LIKE = 5.0
"""How near (Lab distance) the colour of the box's tops read surely (`learnt_top`) a strip
must be for it to name a far-half facing its top would leave asked (`_like_learnt`); 0 turns
it off. Curve on development sets `wide19` and `wide17` (`learnt_top.py`, 300 random boxes):
of the 80 far-half facings asked because of their top with a learnt colour (the top right in
53), named below 2, 3, 4, 5, 6, 7, 8, 10, 12: right 3, 8, 11, 14, 19, 22, 25, 35, 40, wrong
0, 0, 0, 0, 0, 0, 1, 1, 2 (the wrong tops' strips lie 7.2, 10.5, 14.6 and more from it: a
reflection or the board beside the true top). 5: under three quarters of the least wrong
distance (7.2), a margin for a box whose learnt colour rests on one top."""
TOP_LIKE_NEAR = 5.0
"""As `TOP_LIKE`, for a top that puts its dot on its half toward the camera against a clear
side of the line, where the face beside it does not show a reflection (`_reflection_beside`:
too narrow for its band, or even); 0 turns it off. Curve on development sets `wide19`,
`wide17` and `wide21` (`learnt_top.py`, 450 random boxes): of the 32 near-half facings asked
because of their top with a learnt colour (the top right in 31), named below 2, 3, 4, 5, 6,
7, 8, 10, 12, 15: right 1, 2, 4, 6, 6, 9, 10, 17, 20, 24, wrong 0 at each (the wrong top's
strip lies 46.5 from it). 5, as `TOP_LIKE`: no near-half strip was seen wrong under 46.5,
but the far-half strips named wrong from the same colour lie from 7.2 (`wide19`, `wide17`)
and 8.2 (`wide21`), and a near half's wrong strip (board or print beyond the top) may lie as
near; `wide21` alone names none of its 8 below 9.7."""


def _slot_fits(board: Board, dot: Dot) -> tuple[Cell, dict[str, tuple[float, float]]]:
    """The crossing nearest a green dot and the slots whose top its place fits (anywhere
    along the slot, off its middle line by at most a dot offset plus `ACROSS_MM`), each with
    the dot's (along, across) in mm."""
    p = np.array(dot.centre_mm)
    cell = _nearest_cell(board, p)
    rel = p - board.crossing_mm(cell)
    fits = {}
    for slot in SLOTS:
        u, n = slot_axes(slot, board)
        along, across = float(rel @ u), float(rel @ n)
        if abs(along) <= board.mirror_length_mm / 2 and abs(across) <= (
            board.dot_offset_mm + ACROSS_MM[1]
        ):
            fits[slot] = (along, across)
    return cell, fits


def _top_grid(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """The steps along a slot (mm, clear of the crossing's middle and the ends) and across it
    at which a mirror's top is looked for."""
    half = board.mirror_length_mm / 2 - 2.0
    t = np.arange(-half, half + 0.01, 1.0)
    return t[np.abs(t) > 3.0], np.arange(-TOP_REACH_MM, TOP_REACH_MM + 0.01, TOP_STEP_MM)


def _top_strips(
    lab: np.ndarray, a: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every strip a mirror's top may be in one slot's samples (`lab`: across × along × Lab,
    the dots' columns left out; `a` the mm across of its rows), as `mirror_tops` scores them:
    each one's first and last row (mm), how much it stands out from both sides over its own
    unevenness, and its colour (mean Lab). Measured once a slot; each dot then only picks
    among them (`_top_holding`)."""
    prof = median(lab, axis=1)
    spread = median(norm(lab - prof[:, None, :]), axis=1)
    k = round(TOP_SIDE_MM / TOP_STEP_MM)
    cum = np.concatenate([np.zeros((1, 3)), np.cumsum(prof, axis=0)])
    cum_s = np.concatenate([[0.0], np.cumsum(spread)])
    i, j = _strip_rows(len(a), k)
    inside = (cum[j] - cum[i]) / (j - i)[:, None]
    left = (cum[i] - cum[i - k]) / k
    right = (cum[j + k] - cum[j]) / k
    uneven = (cum_s[j] - cum_s[i]) / (j - i)
    contrast = np.minimum(norm(inside - left), norm(inside - right))
    floor_c, floor_s = EDGE_FLOOR_LAB
    return a[i], a[j - 1], np.log((contrast + floor_c) / (uneven + floor_s)), inside


@lru_cache(maxsize=4)
def _strip_rows(m: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The first row and the row past the last of every strip `TOP_WIDTHS_MM` wide with `k`
    rows of each side within `m` rows."""
    lo_w = round(TOP_WIDTHS_MM[0] / TOP_STEP_MM)
    hi_w = round(TOP_WIDTHS_MM[1] / TOP_STEP_MM)
    i, w = np.meshgrid(np.arange(k, m), np.arange(lo_w, hi_w + 1), indexing="ij")
    j = i + w
    fits = j + k <= m
    return i[fits], j[fits]


def _top_holding(
    strips: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    across: float,
    empty: EmptySlot | None = None,
) -> MirrorTop | None:
    """The likeliest of a slot's strips (`_top_strips`) that holds a dot `across` mm off the
    line, give or take a mm (the dot is stuck on the top), with how like the board's empty
    slot line its colour is (`MirrorTop.print_gap`) where that is known."""
    lo, hi, score, inside = strips
    ok = (lo - 1.0 <= across) & (across <= hi + 1.0)
    if not ok.any():
        return None
    best = int(np.argmax(np.where(ok, score, -np.inf)))
    middle = (lo + hi) / 2
    other = ok & ((across - middle) * (across - middle[best]) < 0)
    rival = float(score[best] - score[other].max()) if other.any() else math.inf
    gap = (
        math.inf
        if empty is None
        else float(norm(inside[best] - empty.lab)) / max(empty.contrast, 1e-6)
    )
    return MirrorTop(
        float(lo[best] + hi[best]) / 2,
        float(hi[best] - lo[best]) + TOP_STEP_MM,
        float(score[best]),
        print_gap=gap,
        rival=rival,
    )


def _face_band(
    lab: np.ndarray,
    a: np.ndarray,
    top: MirrorTop,
    side: float,
    face: float,
    empty: EmptySlot | None,
) -> tuple[float | None, float | None]:
    """The band beside a strip found for a top (`_top_holding`) on the camera's `side`, from
    half a mm past the strip's last row to `face` mm past it (the face toward the camera shows
    there when the strip is the top): how uneven it is along the slot (`MirrorTop.face_uneven`:
    the median over the band's rows of each row's median Lab distance from its own median) and
    how far its colour (the median over its rows of each row's median) lies from the board's
    own colour (`MirrorTop.band_board`, `EmptySlot.board`; None where the board is unknown).
    `lab`: across × along × Lab on the mirrors' plane, clear of dots; `a` the rows' mm across.
    Both None where the face shows narrower than `FACE_BAND_MIN_MM` or less than that much of
    the band lies in the rows. The median over rows, not the mean: the strip's edge is found
    to half a mm, and a row on the edge between two even surfaces is as uneven as a
    reflection."""
    if side == 0 or face < FACE_BAND_MIN_MM:
        return None, None
    edge = top.middle_mm + side * (top.width_mm / 2 - TOP_STEP_MM / 2)
    past = (a - edge) * side
    rows = (past >= TOP_STEP_MM - 1e-6) & (past <= face + 1e-6)
    if rows.sum() < round(FACE_BAND_MIN_MM / TOP_STEP_MM):
        return None, None
    band = lab[rows]
    prof = median(band, axis=1)
    uneven = float(median(median(norm(band - prof[:, None, :]), axis=1), axis=0))
    board = None if empty is None else empty.board
    colour = None if board is None else float(norm(median(prof, axis=0) - board))
    return uneven, colour


def _strip_colour(lab: np.ndarray, a: np.ndarray, top: MirrorTop) -> tuple[float, float, float]:
    """A strip's colour (`lab`: across × along × Lab on the mirrors' plane, clear of dots; `a`
    the rows' mm across): the median over its rows, less its first and last (its edges, half
    the board's), of each row's median along the slot."""
    half = top.width_mm / 2
    inner = np.abs(a - top.middle_mm) <= half - TOP_STEP_MM + 1e-6
    if not inner.any():
        inner = np.abs(a - top.middle_mm) <= half + 1e-6
    c = median(median(lab[inner], axis=1), axis=0)
    return float(c[0]), float(c[1]), float(c[2])


def face_width_mm(board: Board, camera: np.ndarray, cell: Cell, slot: str) -> tuple[float, float]:
    """Which side of a slot's line the camera stands over (+1 toward its second facing, -1
    the other) and how wide the face of a mirror standing there that looks toward the camera
    shows on the mirrors' plane: the face's foot, on the board, is seen on that plane pulled
    toward the point under the camera by its distance from it times mirror height over camera
    height."""
    _, n = slot_axes(slot, board)
    x = float((np.asarray(camera[:2]) - np.asarray(board.crossing_mm(cell))) @ n)
    height = -float(camera[2])
    if height <= board.mirror_height_mm:
        return 0.0, 0.0
    return math.copysign(1.0, x), abs(x) * board.mirror_height_mm / height


TopKey = tuple[tuple[float, float], str]
"""A green dot's centre (board mm) and a slot its place fits: what a mirror's top is asked for."""


class MirrorTops(Mapping[TopKey, MirrorTop]):
    """Where the top of a mirror lies across its slot, for every green dot and slot its place
    fits, seen on the mirrors' plane clear of the dot: the strip, straight along the slot and
    1.5 to 10 mm wide, holding the dot's centre, whose colour stands out most from both sides
    of it relative to how uneven it is (as `card_top_mm` finds a card's top; any colour, either
    sign). A mirror's dot is stuck on the reflective half of its top, so which side of this
    middle the dot lies on is its facing wherever the top stands off the slot's line (a thick
    backing whose face is on the line puts the whole top, and the dot, behind it). Only for
    dots within `TOP_NEAR_MM` of the slot's line, where the top names the side.

    Each slot is measured once (one sampling, one profile across it, clear of all its asking
    dots: a sticker found at three levels is one sticker), then each dot picks its strip from
    that profile; a slot too little of which is clear of its dots has none.

    A slot is measured only when a top in it is first looked up: most dots that fit a slot
    within `TOP_NEAR_MM` of its line lie near the crossing's middle, where the other slot is
    the one they name (a house box's dots, 4 mm off their own slot's line, asked 4 slots a
    frame and needed 0.05), and measuring them cost about a tenth of a read. Which columns of
    a slot are clear still counts every dot that fits it, looked up or not, so a top is the
    same whichever are asked first."""

    def __init__(
        self,
        plane: PlaneSampler,
        board: Board,
        green: tuple[Dot, ...],
        camera: np.ndarray | None = None,
        empty: EmptySlot | Callable[[], EmptySlot] | None = None,
    ) -> None:
        self._plane, self._board, self._camera = plane, board, camera
        self._empty_from = empty
        self._green = green
        self._t, self._a = _top_grid(board)
        self._clears: dict[Slot, np.ndarray] = {}
        self._asked: dict[TopKey, tuple[Slot, float]] | None = None
        self._found: dict[TopKey, MirrorTop | None] = {}

    @cached_property
    def _empty(self) -> EmptySlot | None:
        """The board's empty slot line, learnt at the first slot measured (a frame that looks
        up no top pays nothing for it)."""
        e = self._empty_from
        return e() if callable(e) else e

    def _asking(self) -> dict[TopKey, tuple[Slot, float]]:
        """Per dot and slot whose top may be asked for, the slot and the dot's place across
        it; which columns of each slot are clear of its dots (`_clears`). Made at the first
        look-up (a house box's frame has none)."""
        if self._asked is not None:
            return self._asked
        asks: dict[Slot, list[tuple[Dot, float]]] = {}
        clears = self._clears
        for dot in self._green if TOP_NEAR_MM > 0 else ():
            if dot.contrast < CONTRAST_MIN:
                continue
            cell, fits = _slot_fits(self._board, dot)
            r = math.sqrt(dot.area_mm2 / math.pi)
            for slot, (along, across) in fits.items():
                # Farther off the line than `TOP_NEAR_MM` the line names the side, and
                # beyond `TOP_VETO_MM` nothing may gainsay it: no top.
                if abs(across) < max(TOP_NEAR_MM, TOP_VETO_MM):
                    asks.setdefault((cell, slot), []).append((dot, across))
                    clear = np.abs(self._t - along) > r + 1.5
                    clears[(cell, slot)] = clears.get((cell, slot), clear) & clear
        self._asked = {
            (dot.centre_mm, key[1]): (key, across)
            for key, dots in asks.items()
            if clears[key].sum() >= 6
            for dot, across in dots
        }
        return self._asked

    def _top(self, key: TopKey) -> MirrorTop | None:
        asked = self._asking()
        if key not in asked:
            return None
        if key not in self._found:
            self._measure(asked[key][0])
        return self._found[key]

    def _measure(self, where: Slot) -> None:
        """One slot's profile across it, and every asking dot's pick among its strips."""
        cell, slot = where
        u, n = slot_axes(slot, self._board)
        c = np.asarray(self._board.crossing_mm(cell), np.float64)
        lab = self._plane.lab(c + self._t[None, :, None] * u + self._a[:, None, None] * n)
        lab = lab[:, self._clears[where]]
        strips = _top_strips(lab, self._a)
        side, face = (
            (0.0, 0.0)
            if self._camera is None
            else face_width_mm(self._board, self._camera, cell, slot)
        )
        for key, (at, across) in self._asking().items():
            if at == where:
                top = _top_holding(strips, across, self._empty)
                if top is None:
                    self._found[key] = None
                    continue
                uneven, band_board = _face_band(lab, self._a, top, side, face, self._empty)
                self._found[key] = replace(
                    top,
                    near_side=side,
                    face_mm=face,
                    face_uneven=uneven,
                    band_board=band_board,
                    colour=_strip_colour(lab, self._a, top),
                )

    def __getitem__(self, key: TopKey) -> MirrorTop:
        top = self._top(key)
        if top is None:
            raise KeyError(key)
        return top

    def __iter__(self) -> Iterator[TopKey]:
        return (key for key in list(self._asking()) if self._top(key) is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def mirror_tops(
    plane: PlaneSampler,
    board: Board,
    green: tuple[Dot, ...],
    camera: np.ndarray | None = None,
    empty: EmptySlot | Callable[[], EmptySlot] | None = None,
) -> MirrorTops:
    """The mirrors' tops round `green`'s dots (`MirrorTops`), each slot measured when first
    looked up; `empty` is the board's empty slot line (`empty_slot`), or how to learn it when
    a top is first measured."""
    return MirrorTops(plane, board, green, camera, empty)


def mirror_top(
    plane: PlaneSampler, board: Board, cell: Cell, slot: str, dot: Dot
) -> MirrorTop | None:
    """The top of the mirror standing in `slot` of `cell` as `mirror_tops` finds it round
    `dot` (None where the dot's place does not fit that slot or hides too much of it)."""
    found = mirror_tops(plane, board, (dot,))
    return found.get((dot.centre_mm, slot)) if _slot_fits(board, dot)[0] == cell else None


class DotBars(Mapping[TopKey, float]):
    """A mirror's top edge scored where its dot is: along the line parallel to the slot through
    the dot's centre (clear of the dot), as `bar_scores` scores the slot's own line (the
    top-plane strip over its unevenness less the same on the ground), plus the slot's own
    unlikeness to the board's empty slot (a standing piece hides its insert).

    A thick top standing off its slot's line (the reflective face on the line and 2 to 9 mm
    of backing behind it) scores no top edge at the line, where its edge or its face is, and
    its dot was dropped as print (`MIRROR_EDGE_MIN`); the dot is stuck on the top, so a line
    through the dot runs along the top wherever it stands. Scored only when looked up: where
    a dot's slot scores under `MIRROR_EDGE_MIN` at its line (`identify`)."""

    def __init__(
        self,
        rect: Rectified,
        board: Board,
        green: tuple[Dot, ...],
        ground_strips: dict[float, tuple[np.ndarray, ...]],
    ) -> None:
        self._rect, self._board, self._ground = rect, board, ground_strips
        self._dots = {dot.centre_mm: dot for dot in green if dot.contrast >= CONTRAST_MIN}
        self._found: dict[TopKey, float] = {}

    def __getitem__(self, key: TopKey) -> float:
        if key not in self._found:
            dot = self._dots[key[0]]
            cell, fits = _slot_fits(self._board, dot)
            along, across = fits[key[1]]
            r = math.sqrt(dot.area_mm2 / math.pi)
            self._found[key] = self._score(cell, key[1], along, across, r)
        return self._found[key]

    def _score(self, cell: Cell, slot: str, along: float, across: float, r: float) -> float:
        board = self._board
        centres, lines, normals = _slot_lines(board, board.mirror_length_mm)
        k = board.cells.index(cell) * len(SLOTS) + SLOTS.index(slot)
        u, n = slot_axes(slot, board)
        line = lines[k]
        clear = np.abs((line - centres[k]) @ u - along) > r + 1.5
        if int(clear.sum()) < 6:
            return -math.inf
        shifted = (line[clear] + across * normals[k])[None]
        nadir = self._rect.nadir_mm
        side = np.array(
            [1.0 if float(normals[k] @ (centres[k] + across * n - nadir)) >= 0 else -1.0]
        )
        ta, tb, sp, *_ = _edge_strips(self._rect.mirror_points, shifted, normals[k : k + 1], side)
        ga, gb, gs, *_ = _edge_strips(self._rect.ground_points, shifted, normals[k : k + 1], side)
        # The slot's own line on the ground (`bar_scores` has measured them all).
        _, _, line_gs, gr, _ = self._ground[board.mirror_length_mm]
        empty = median(median(gr, axis=1), axis=0)
        unlike = median(norm(gr[k] - empty), axis=0)
        return float(_edge_score(ta, tb, sp, ga, gb, gs)[0] + _unlike_score(unlike, line_gs[k]))

    def __iter__(self) -> Iterator[TopKey]:
        return (
            (centre, slot)
            for centre, dot in self._dots.items()
            for slot in _slot_fits(self._board, dot)[1]
        )

    def __len__(self) -> int:
        return sum(1 for _ in self)


def find_candidates(
    rect: Rectified, board: Board, stickers: StickerSettings = DEFAULT_STICKERS
) -> Candidates:
    d = board.dot_diameter_mm
    ground: dict[float, tuple[np.ndarray, ...]] = {}
    green = tuple(find_dots(rect.mirrors, stickers.mirror_dot, d, MIRROR_DOT_ELONGATION))
    mirror_bars = bar_scores(
        rect.mirror_points,
        rect.ground_points,
        board,
        rect.nadir_mm,
        board.mirror_length_mm,
        ground,
    )
    return Candidates(
        green=green,
        orange=tuple(find_dots(rect.doors, stickers.door_dot, d)),
        magenta={
            side: window_dots(plane, side, board, stickers) for side, plane in rect.cards.items()
        },
        mirror_bars=mirror_bars,
        door_bars=bar_scores(
            rect.door_points, rect.ground_points, board, rect.nadir_mm, board.door_length_mm, ground
        ),
        middles=crossing_middles(rect.mirror_points, board),
        tops=mirror_tops(
            rect.mirror_points,
            board,
            green,
            rect.pose.camera_centre,
            partial(empty_slot, ground[board.mirror_length_mm]),
        ),
        dot_bars=DotBars(rect, board, green, ground),
    )


# --- 3. identify -----------------------------------------------------------------------


@dataclass(frozen=True)
class PieceSeen:
    """One hypothesis of what stands in a crossing, with the evidence for it."""

    cell: Cell
    kind: str
    """"mirror" or "door"."""
    slot: str
    facing: str | None
    confidence: float
    dot: Dot | None
    evidence: float = 0.0
    """How strongly the photograph supports the piece at all (`_piece_evidence`): the
    hypotheses of a box are ranked by it."""
    slot_sure: bool = True
    """False when the dot fits both slots and their top edges differ by less than
    `SLOT_MARGIN`: the reading then says so instead of naming a facing."""
    side_from: str = "line"
    """What named the facing: "line" (the dot's side of its slot's line), "top" (its side of
    the mirror's own top, near the line, `TOP_NEAR_MM`), "face" (the other side than the top's,
    a reflection beside it, `_face_reflects`), "print" (the side of the line a strip like the
    slot's print lies on, `print_past`) or "top_asked" (that top left it asked: it names
    the other side than the line, or may hold the face toward the camera; the facing then
    named is no reading, only the slot's first)."""


@dataclass(frozen=True)
class Identified:
    pieces: tuple[PieceSeen, ...]
    """At most one hypothesis per crossing and kind."""
    windows: tuple[tuple[str, Dot], ...]
    """Card positions with a window dot over them, the likeliest first (`_window_score`)."""


def _nearest_cell(board: Board, p: np.ndarray) -> Cell:
    centres, _, _ = _slot_lines(board, board.mirror_length_mm)
    d = np.hypot(*(centres[:: len(SLOTS)] - p).T)
    return board.cells[int(np.argmin(d))]


def _dot_quality(dot: Dot) -> float:
    return dot.isolation + 0.2 * min(1.0, dot.area_mm2 / 50.0)


def _other(slot: str) -> str:
    return SLOTS[1 - SLOTS.index(slot)]


def mirror_from_dot(
    board: Board,
    dot: Dot,
    bars: dict[Slot, float],
    middles: dict[Cell, CrossingMiddle] | None = None,
    tops: Mapping[tuple[tuple[float, float], str], MirrorTop] | None = None,
    learnt: np.ndarray | None = None,
) -> PieceSeen | None:
    """The mirror a green dot belongs to, if its place fits one: anywhere along a slot's top
    edge, off the middle line by a dot offset. Near the crossing's middle both slots fit:
    the top edges decide, with the dot's place and which slot's line the crossing's middle
    looks like (`CrossingMiddle`). Its facing is the side of the slot's line it lies on, or,
    within `TOP_NEAR_MM` of that line, the side of its own top (`mirror_tops`); where the two
    disagree and the line's is clear, the facing is asked. A top that has the colour of the
    box's tops read surely (`learnt`, `learnt_top`) names its facing though, on either half
    (`_like_learnt`)."""
    cell, places = _slot_fits(board, dot)
    fits = {slot: across for slot, (_, across) in places.items()}
    if not fits:
        return None
    if len(fits) == 2:
        margin = sum(slot_margin(board, cell, dot, fits, bars, middles).values())
        slot = "/" if margin >= 0 else "\\"
        slot_conf = min(1.0, abs(margin) / SLOT_MARGIN)
    else:
        slot = next(iter(fits))
        slot_conf = 1.0
    across = fits[slot]
    near = tops is not None and abs(across) < TOP_NEAR_MM
    top = tops.get((dot.centre_mm, slot)) if near and tops is not None else None
    side_from = "line"
    if tops is not None and not near and abs(across) < TOP_VETO_MM:
        # Just beyond `TOP_NEAR_MM` the line names the side, unless the top, found clearly
        # (`TOP_VETO_RIVAL`), puts the dot on its other half: a thick top standing behind its
        # line carries the dot past the line on the back's side. Asked, not named.
        beyond = tops.get((dot.centre_mm, slot))
        if (
            beyond is not None
            and (across - beyond.middle_mm) * across < 0
            and beyond.rival >= TOP_VETO_RIVAL
        ):
            side_from, across = "top_asked", 0.0
    if top is not None:
        on_top = across - top.middle_mm
        # The line names a side (the dot a confident `ACROSS_MM[0]` off it) and the top the
        # other: asked, not guessed.
        clear = abs(across) >= ACROSS_MM[0]
        disagree = on_top * across < 0 and clear
        # A top that may hold the face toward the camera names the far half only where the
        # line names it too.
        unsure = _face_in_top(top, across) and not (on_top * across > 0 and clear)
        # A strip that looks like the slot's own print is no top: it names nothing the line
        # cannot, and where the line is unclear its side is a guess.
        print_like = print_strip(top) and not clear
        # Unless the face says the same: a top putting the dot on its half toward the camera
        # says the reflective face looks at the camera, and beside the top there a reflection
        # shows, uneven (`FACE_UNEVEN`), where a mirror's back is even.
        if disagree and not unsure and not print_like and _reflection_beside(top, on_top):
            disagree = False
        # Or where that band is at least not even (`NEAR_UNEVEN`): an even band there is the
        # true top beside a strip beyond it.
        if disagree and not unsure and not print_like and near_band_uneven(top, on_top):
            disagree = False
        # A strip that is the colour of the box's tops is the top: the face taken for it (a
        # reflection), the board or the print beyond it are not a top's colour. (Not a strip
        # that may be the print: the two rules were measured apart.)
        if (disagree or unsure) and not print_like and _like_learnt(top, on_top, learnt):
            disagree = unsure = False
        # A top putting the dot on its half away from the camera says the back looks at the
        # camera: where the band beside it there is even, a back and not a reflection, the
        # top is believed (`BACK_EVEN`; off: a face taken for the top over a plain board has
        # the board beyond it, even too).
        if (disagree or unsure) and not print_like and _back_beside(top, on_top):
            disagree = unsure = False
        # A top whose far half the face test doubts, with a reflection beside it on the
        # camera's side (`FACE_REFLECTS`): the reflective face looks at the camera, taken with
        # the top, and the dot lies on the true top's near half. Named so, the other facing.
        flipped = unsure and not print_like and _face_reflects(top, on_top)
        if flipped:
            unsure = disagree = False
        unsure |= print_like
        # The line and the top both put the dot on the side away from the camera, just off the
        # line, and another strip holding it on the top's near half stands out almost as well:
        # both readings err that way (a mirror taller than the model, the face taken with the
        # top), so neither confirms the other. Asked.
        unsure |= (
            on_top * across > 0
            and clear
            and top.near_side * across < 0
            and abs(across) < FAR_AGREE_MM
            and top.rival < FAR_AGREE_RIVAL
        )
        side_from = "top_asked" if disagree or unsure else "top"
        across = 0.0 if disagree or unsure else on_top
        if side_from == "top" and _middle_named(top, on_top):
            across = math.copysign(ACROSS_MM[0], on_top)
        if flipped and side_from == "top":
            side_from, across = "face", -math.copysign(ACROSS_MM[0], on_top)
        # A strip like the print lying past the face's span (`PRINT_PAST_MM`): the print seen
        # beside the reflective face, which looks toward it. Named so, the strip's side.
        if print_like and print_past(top):
            side_from, across = "print", math.copysign(ACROSS_MM[0], top.middle_mm)
    facing = FACINGS[slot][1] if across > 0 else FACINGS[slot][0]
    side_conf = min(1.0, abs(across) / (2 * ACROSS_MM[0]))
    return PieceSeen(
        cell,
        "mirror",
        slot,
        facing,
        min(slot_conf, side_conf),
        dot,
        slot_sure=slot_conf >= 1.0,
        side_from=side_from,
    )


def slot_margin(
    board: Board,
    cell: Cell,
    dot: Dot,
    fits: Mapping[str, float],
    bars: Mapping[Slot, float],
    middles: Mapping[Cell, CrossingMiddle] | None = None,
) -> dict[str, float]:
    """The terms of the margin by which a dot fitting both slots of its crossing (`fits`: the
    dot's across of each, `_slot_fits`) is taken for "/" rather than "\\" (negative: "\\"):
    the top edges' scores ("bars"), the dot's place off each slot's line beyond where a
    sticker is stuck ("across", `SLOT_ACROSS_WEIGHT`) and which slot's line the crossing's
    middle looks like ("middle", `SLOT_MIDDLE_WEIGHT`; 0 where it is hidden). Their sum is
    judged against `SLOT_MARGIN`."""
    terms = {
        "bars": bars[(cell, "/")] - bars[(cell, "\\")],
        "across": -SLOT_ACROSS_WEIGHT
        * (_across_excess(board, fits["/"]) - _across_excess(board, fits["\\"])),
        "middle": 0.0,
    }
    middle = None if middles is None or cell not in middles else middles[cell].gaps(dot)
    if middle is not None:
        floor_c = EDGE_FLOOR_LAB[0]
        terms["middle"] = SLOT_MIDDLE_WEIGHT * math.log(
            (middle["\\"] + floor_c) / (middle["/"] + floor_c)
        )
    return terms


def _reflection_beside(top: MirrorTop, on_top: float) -> bool:
    """Whether a top that puts its dot `on_top` mm off its middle, on its half toward the
    camera, has a reflection beside it on the camera's side (`MirrorTop.face_uneven` at least
    `FACE_UNEVEN`): the face a dot on that half says looks at the camera. Two readings of the
    one facing from two surfaces, the top and the face; a strip that is not the top (print
    along the slot past a top's far edge, a part of a thick top) has the top beside it, even."""
    return (
        top.near_side * on_top > 0
        and top.face_uneven is not None
        and top.face_uneven >= FACE_UNEVEN
    )


def _face_reflects(top: MirrorTop, on_top: float) -> bool:
    """Whether a top that puts its dot `on_top` mm off its middle, on its half away from the
    camera, has a clear reflection beside it on the camera's side (`MirrorTop.face_uneven` at
    least `FACE_REFLECTS`): the reflective face looks at the camera, not the back the far half
    says, so the strip holds that face with the top and the dot lies on the top's near half."""
    return (
        FACE_REFLECTS > 0
        and top.near_side * on_top < 0
        and top.face_uneven is not None
        and top.face_uneven >= FACE_REFLECTS
    )


def _middle_named(top: MirrorTop, on_top: float) -> bool:
    """Whether a top that named its dot's side (`mirror_from_dot`) with the dot within
    `ACROSS_MM[0]` of its middle, so near it that the half is unclear, names that side surely
    anyway: found clearly (`MirrorTop.rival` at least `MIDDLE_RIVAL`) over any strip that puts
    the dot on its other half. Its side then counts as `ACROSS_MM[0]` off the middle, as sure
    as a dot that far off (the least a facing is named at)."""
    return MIDDLE_RIVAL > 0 and 0.0 < abs(on_top) < ACROSS_MM[0] and top.rival >= MIDDLE_RIVAL


def near_band_uneven(top: MirrorTop, on_top: float) -> bool:
    """Whether a top that puts its dot `on_top` mm off its middle, on its half toward the
    camera, has a band beside it on the camera's side that is measured and not even
    (`MirrorTop.face_uneven` at least `NEAR_UNEVEN`). A dot on that half says the reflective
    face looks at the camera; a strip beyond the true top (away from the camera) that puts
    the dot on its near half wrongly has the true top beside it, even as paint."""
    return (
        top.near_side * on_top > 0
        and top.face_uneven is not None
        and top.face_uneven >= NEAR_UNEVEN
    )


def _back_beside(top: MirrorTop, on_top: float) -> bool:
    """Whether a top that puts its dot `on_top` mm off its middle, on its half away from the
    camera, has an even band beside it on the camera's side (`MirrorTop.face_uneven` under
    `BACK_EVEN`): the mirror's back, which a dot on that half says looks at the camera, where
    a reflective face toward the camera (taken for the top, or part of the strip) shows
    uneven."""
    return (
        top.near_side * on_top < 0
        and top.face_uneven is not None
        and top.face_uneven < BACK_EVEN
        and top.band_board is not None
        and top.band_board >= BACK_BOARD
    )


def print_strip(top: MirrorTop) -> bool:
    """Whether the strip taken for a mirror's top may be the print along its slot instead:
    narrow as that print (`PRINT_WIDTH_MAX_MM`) and of its colour (`PRINT_GAP_MAX`). Seen on
    the mirrors' plane that print is pulled toward the camera, partly hidden by the top and
    showing past its edge at the line, where a dot stuck on the top beside it lies."""
    return top.print_gap < PRINT_GAP_MAX and top.width_mm <= PRINT_WIDTH_MAX_MM


def print_past(top: MirrorTop) -> bool:
    """Whether a strip like the slot's print (`print_strip`) lies where that print shows beside
    a mirror whose reflective face stands on the line: its middle off the line (either side)
    by at least the face's width toward the camera (`MirrorTop.face_mm`) plus `PRINT_PAST_MM`.
    The facing is then on the strip's side of the line."""
    return (
        top.near_side != 0
        and abs(top.middle_mm) >= TOP_STEP_MM / 2
        and abs(top.middle_mm) - top.face_mm >= PRINT_PAST_MM
    )


def _like_learnt(top: MirrorTop, on_top: float, learnt: np.ndarray | None) -> bool:
    """Whether a top that puts its dot `on_top` mm off its middle is as near the colour of the
    box's tops read surely (`learnt`, `learnt_top`) as `TOP_LIKE` (on its half away from the
    camera) or `TOP_LIKE_NEAR` (on its half toward it). The wrong far-half tops are strips
    beside the true top on the camera's side (the reflective face toward the camera taken for
    the top), whose colour is a reflection's or the board's, not the paint of the box's tops;
    a near-half top the face beside it cannot confirm (`_reflection_beside`: it shows too
    narrow, or even) is told from a strip of board or print the same way."""
    if learnt is None or top.colour is None:
        return False
    half = top.near_side * on_top
    limit = TOP_LIKE if half < 0 else TOP_LIKE_NEAR if half > 0 else 0.0
    return limit > 0 and float(np.linalg.norm(np.asarray(top.colour) - learnt)) < limit


def learnt_top(
    pieces: tuple[PieceSeen, ...],
    tops: Mapping[TopKey, MirrorTop],
    stickers: StickerSettings,
) -> np.ndarray | None:
    """The colour of the box's mirror tops (Lab, the median of each channel): the strips of the
    mirrors whose facing their own top named surely (`side_from` "top", slot sure, confident),
    None without one."""
    colours = []
    for p in pieces:
        if (
            p.kind != "mirror"
            or p.dot is None
            or p.side_from != "top"
            or not p.slot_sure
            or p.confidence < stickers.min_confidence
        ):
            continue
        top = tops.get((p.dot.centre_mm, p.slot))
        if top is not None and top.colour is not None:
            colours.append(top.colour)
    return np.median(np.array(colours), axis=0) if colours else None


def _face_in_top(top: MirrorTop, across: float) -> bool:
    """Whether the face toward the camera may be what put the dot on the far half of its top.

    That face shows on the mirrors' plane beside the top, on the camera's side
    (`face_width_mm`), and a reflection can look as even as a top: taken for the top, or
    with it, it pulls the strip's middle toward the camera, so a dot on the near half reads
    as on the far half (never the other way). A dot on the far half is believed only if it
    stays there with the face's width (plus `FACE_SLACK_MM`) taken off the strip's near
    side and what is left is still a top."""
    far = -top.near_side
    if far == 0 or (across - top.middle_mm) * far <= 0:
        return False
    face = top.face_mm + FACE_SLACK_MM
    left = top.width_mm - face
    if left < TOP_WIDTHS_MM[0]:
        return True
    return (across - (top.middle_mm + far * face / 2)) * far < ACROSS_MM[0]


def _across_excess(board: Board, across: float) -> float:
    """How far (mm) a dot's centre lies off a slot's middle line beyond where a sticker is
    stuck on a mirror (the model's offset give or take `SLOT_ACROSS_FREE_MM`)."""
    return max(0.0, abs(across) - board.dot_offset_mm - SLOT_ACROSS_FREE_MM)


def _door_from_dot(board: Board, dot: Dot, bars: dict[Slot, float]) -> PieceSeen | None:
    p = np.array(dot.centre_mm)
    cell = _nearest_cell(board, p)
    rel = p - board.crossing_mm(cell)
    fits = []
    for slot in SLOTS:
        u, n = slot_axes(slot, board)
        if abs(float(rel @ u)) <= board.door_length_mm / 2 and abs(float(rel @ n)) <= (
            SIDE_MARGIN_MM
        ):
            fits.append(slot)
    if not fits:
        return None
    slot = max(fits, key=lambda s: bars[(cell, s)])
    return PieceSeen(cell, "door", slot, None, 1.0, dot)


def _card_across(board: Board, side: str, dot: Dot) -> float:
    """How far a dot's centre lies off the top line of the cards on `side` (mm, unsigned)."""
    x, y = dot.centre_mm
    return abs((y if side in "NS" else x) - board.card_line_mm[side])


def _window_spot(board: Board, side: str, dot: Dot) -> str | None:
    """The card position on `side` whose top the dot lies over, if any (however far off the
    top line: `_window_score` weighs that)."""
    x, y = dot.centre_mm
    along = x if side in "NS" else y
    centres = board.crossing_x_mm if side in "NS" else board.crossing_y_mm
    i = int(np.argmin([abs(along - c) for c in centres]))
    if abs(along - centres[i]) > _card_half_mm(board):
        return None
    return f"{side}{i}"


def _window_alone(dot: Dot) -> bool:
    """Whether a magenta dot stands alone and set off enough to name a card at all."""
    return dot.isolation >= WINDOW_ISOLATION_MIN and dot.contrast >= CONTRAST_MIN


def _window_score(board: Board, spot: str, dot: Dot) -> float:
    """How likely a magenta dot over a card position is the window's sticker: its quality,
    less a cost that grows smoothly with its distance off the card's top line (its centre's,
    less part of its radius: `WINDOW_RIM_SHARE`). A sticker lies on the top edge,
    overhanging it when wider; print of its colour on a card's face,
    seen beside the top under tilt, lies further off. A sticker is printed in its kit's
    full colour, print of a like hue (a movement field's disc on the board behind the card,
    a card top's own paint) is mostly paler: the level it still stands out at adds to it
    (`WINDOW_LEVEL_WEIGHT`). No hard limit: a dot stuck far over
    the edge still names its card when nothing likelier does, and the line only ranks."""
    off = _card_across(board, spot[0], dot) - WINDOW_RIM_SHARE * math.sqrt(dot.area_mm2 / math.pi)
    return (
        _dot_quality(dot)
        - max(0.0, off - WINDOW_FREE_MM) / WINDOW_SLOPE_MM
        + WINDOW_LEVEL_WEIGHT * dot.level
        + WINDOW_CONTRAST_WEIGHT * min(1.0, dot.contrast / WINDOW_CONTRAST_FULL)
        + WINDOW_TOP_WEIGHT * dot.on_top
    )


def _place_level(dot: Dot, dots: tuple[Dot, ...]) -> int:
    """The highest level any dot found within `dot`'s radius of its centre reached: how far
    its place stands out. A sticker on a board or card top of a like colour comes loose of
    it only at the higher levels, as a core too crowded to be a dot of its own (its ring is
    the paler blob round it), while the blob round it was found at a lower level."""
    reach = math.sqrt(dot.area_mm2 / math.pi)
    return max(
        [d.level for d in dots if math.dist(d.centre_mm, dot.centre_mm) <= reach] + [dot.level]
    )


def _piece_evidence(dot: Dot, bar: float) -> float:
    """A dot's own quality plus its piece's top edge: a dot on a top edge is a sticker, a
    lone dot over flat print is likelier print (a bubble's icon, a splash of art)."""
    return _dot_quality(dot) + BAR_WEIGHT * bar + PIECE_LEVEL_WEIGHT * dot.level


def _door_rank(piece: PieceSeen) -> float:
    """How likely a door hypothesis is, to pick the box's one door among them: its dot and
    its top edge, as for mirrors (with the dot's quality alone, a skin-toned blob that
    stood more alone outranked the door's own dot; on the 340 development boards of
    `DOOR_EDGE_MIN`'s curve, 1 door wrong that way, 0 by the evidence)."""
    return piece.evidence


def identify(
    cands: Candidates, board: Board, stickers: StickerSettings = DEFAULT_STICKERS
) -> Identified:
    """The likeliest piece of each crossing and kind, and the window dots. Read twice when a
    mirror's facing is asked because of its own top: the second time with the colour of the
    box's tops read surely the first (`learnt_top`), which names a top of that colour
    (`_like_learnt`)."""
    ident = _identify(cands, board, stickers)
    if TOP_LIKE <= 0 and TOP_LIKE_NEAR <= 0:
        return ident
    if not any(p.kind == "mirror" and p.side_from == "top_asked" for p in ident.pieces):
        return ident
    learnt = learnt_top(ident.pieces, cands.tops, stickers)
    return ident if learnt is None else _identify(cands, board, stickers, learnt)


def _identify(
    cands: Candidates,
    board: Board,
    stickers: StickerSettings,
    learnt: np.ndarray | None = None,
) -> Identified:
    best: dict[tuple[Cell, str], PieceSeen] = {}
    mirrors: dict[Cell, list[PieceSeen]] = {}
    for dots, make, bars in (
        (
            cands.green,
            partial(mirror_from_dot, middles=cands.middles, tops=cands.tops, learnt=learnt),
            cands.mirror_bars,
        ),
        (cands.orange, _door_from_dot, cands.door_bars),
    ):
        for dot in dots:
            if dot.contrast < CONTRAST_MIN:
                continue
            if make is _door_from_dot and dot.isolation < ISOLATION_MIN:
                continue
            piece = make(board, dot, bars)
            if piece is None:
                continue
            bar = bars[(piece.cell, piece.slot)]
            edge_ok = bar >= MIRROR_EDGE_MIN
            if piece.kind == "mirror" and not edge_ok:
                # A thick top standing off the slot's line: its edge scored through its dot.
                # Its facing is asked: where such a top stands, the line names no side, and
                # the top found beside the dot may hold the face toward the camera.
                # Its evidence stays its line's: it fills the box after the mirrors whose
                # slot's line shows a top.
                at_dot = cands.dot_bars.get((dot.centre_mm, piece.slot), -math.inf)
                if at_dot >= DOT_EDGE_MIN:
                    edge_ok = True
                    piece = replace(piece, confidence=0.0)
            evidence = _piece_evidence(dot, bar)
            if piece.kind == "mirror" and (evidence < PIECE_MIN or not edge_ok):
                continue
            if piece.kind == "door" and bar + DOOR_LEVEL_CREDIT * dot.level < DOOR_EDGE_MIN:
                continue
            piece = replace(piece, evidence=evidence)
            if piece.kind == "mirror":
                mirrors.setdefault(piece.cell, []).append(piece)
            key = (piece.cell, piece.kind)
            held = best.get(key)
            if held is None or evidence > held.evidence:
                best[key] = piece
    for cell, hypotheses in mirrors.items():
        held = _side_from_whole_sticker(best[(cell, "mirror")], hypotheses)
        held = face_guarded(held, hypotheses, stickers)
        best[(cell, "mirror")] = _unless_contradicted(held, hypotheses, stickers)
    windows = []
    for side, dots in cands.magenta.items():
        for dot in dots:
            spot = _window_spot(board, side, dot) if _window_alone(dot) else None
            if spot is not None:
                windows.append((spot, replace(dot, level=_place_level(dot, dots))))
    windows.sort(key=lambda sd: -_window_score(board, *sd))
    return Identified(tuple(best.values()), tuple(windows))


def _side_from_whole_sticker(held: PieceSeen, hypotheses: list[PieceSeen]) -> PieceSeen:
    """The likeliest mirror of a crossing, as sure of its side as the surest view of its own
    sticker: the dots of the crossing that name the same placement and lie within one
    another's radius are one sticker found at several levels (`dots.LEVELS`).

    The likeliest is found at the highest level it reaches (`PIECE_LEVEL_WEIGHT`): its core,
    where its colour stands out most. That core is not its middle: glare, a tint of the face
    or board beside it, or a rim blurred into the top edge move it, and for a sticker stuck
    near the least offset a hand leaves (2 mm off the line) the core came within
    `ACROSS_MM`'s first of the line (side unsure: the facing asked) while the whole disc,
    found at a lower level, lay clearly on its side. The evidence and the placement stay the
    likeliest's; only how sure its side is may rise, never its facing change.

    When the likeliest's own top asked its facing (`PieceSeen.side_from`), only a view that
    read its side from the top too may make it sure: the top named the other side than the
    line, and a view of the sticker lying just beyond `TOP_NEAR_MM`, read from the line
    alone, is the same line again (it made a thick top standing behind its line confidently
    wrong; the class is in the guide). A view whose top and line agree is the whole disc
    clear of the line where the core was not."""
    if held.dot is None:
        return held
    reach = math.sqrt(held.dot.area_mm2 / math.pi)
    same = [
        p.confidence
        for p in hypotheses
        if p.dot is not None
        and (held.side_from != "top_asked" or p.side_from == "top")
        and (p.slot, p.facing, p.slot_sure) == (held.slot, held.facing, held.slot_sure)
        and math.dist(p.dot.centre_mm, held.dot.centre_mm)
        <= max(reach, math.sqrt(p.dot.area_mm2 / math.pi))
    ]
    return replace(held, confidence=max([held.confidence, *same]))


def face_guarded(
    held: PieceSeen, hypotheses: list[PieceSeen], stickers: StickerSettings
) -> PieceSeen:
    """The likeliest mirror of a crossing, asked where its facing was named by the reflection
    beside its top (`PieceSeen.side_from` "face", `FACE_REFLECTS`) and another view of the
    crossing names the other facing of the same slot surely (`FACE_GUARD`): another dot, or
    the same sticker found at another level, whose side the line or its own top named at
    least as sure as a facing is read (`StickerSettings.min_confidence`). The reflection is
    one cue against the top's; a sure reading the other way is no tie to break by it. (The
    slot's line needs no guard: a line clear of the dot names the face's side or the top is
    believed, `mirror_from_dot`.)"""
    if not FACE_GUARD or held.side_from != "face":
        return held
    against = any(
        p.slot == held.slot
        and p.facing != held.facing
        and p.side_from in ("line", "top")
        and p.confidence >= stickers.min_confidence
        for p in hypotheses
    )
    return replace(held, confidence=0.0) if against else held


def _unless_contradicted(
    held: PieceSeen, hypotheses: list[PieceSeen], stickers: StickerSettings
) -> PieceSeen:
    """The likeliest mirror of a crossing, made unsure when another dot there names another
    placement about as strongly (within `MIRROR_TIE`): two dots that disagree (a sticker and
    a green dot seen in a mirror's face, a blob of print) are a question, not a coin toss. A
    rival in the other slot leaves the slot unsure, one in the same slot the facing."""
    rivals = [
        p
        for p in hypotheses
        if p.evidence >= held.evidence - MIRROR_TIE
        and p.confidence >= stickers.min_confidence
        and (p.slot, p.facing) != (held.slot, held.facing)
    ]
    if not rivals:
        return held
    if any(p.slot != held.slot for p in rivals):
        return replace(held, slot_sure=False)
    return replace(held, confidence=0.0)


def rescued(
    rect: Rectified,
    cands: Candidates,
    board: Board,
    stickers: StickerSettings = DEFAULT_STICKERS,
) -> tuple[Candidates, Identified]:
    """The candidates and their identification, with a rescue when the green dots name fewer
    crossings than the box has mirrors: the mirrors' plane looked at again for the colour
    loosely (`dots.loosened`), at the search's least level, opened with a smaller disc
    (`dots.RESCUE_OPENING`), and the dots found over the crossings no mirror holds yet added
    to the candidates (then judged as any other).

    A pale sticker (a green dot over a mint board, on a pale mirror top, under blur) shows
    the kit's colour in its middle only, too narrow a blob for the search's opening; the
    box then took its place with a top edge alone at another crossing (a phantom mirror:
    the top edges of a hidden mirror and of Victor or a print line can score alike).
    Looking so loosely everywhere would find print; only where a sticker is known to be
    missing, and only over crossings still free, it cannot disturb the mirrors found."""
    ident = identify(cands, board, stickers)
    held = {p.cell for p in ident.pieces if p.kind == "mirror"}
    if len(held) >= board.mirrors:
        return cands, ident
    found = find_dots(
        rect.mirrors,
        dot_search.loosened(stickers.mirror_dot),
        board.dot_diameter_mm,
        MIRROR_DOT_ELONGATION,
        dot_search.LEVELS[:1],
        dot_search.RESCUE_OPENING,
    )
    extra = tuple(d for d in found if _nearest_cell(board, np.array(d.centre_mm)) not in held)
    if not extra:
        return cands, ident
    cands = replace(cands, green=cands.green + extra)
    return cands, identify(cands, board, stickers)


# --- 4. fit the board ------------------------------------------------------------------


def fit(
    ident: Identified, cands: Candidates, board: Board, stickers: StickerSettings = DEFAULT_STICKERS
) -> BoxState:
    """The arrangement the evidence supports within the box's own limits."""
    warnings: list[str] = []
    # One piece a crossing: a door over a crossing that a likelier mirror claims is that
    # mirror's top edge seen on the door's plane (their tops lie a few mm apart) with some
    # orange blob beside it, and taking the crossing would drop the mirror as well.
    claimed = {p.cell: p.evidence for p in ident.pieces if p.kind == "mirror"}
    doors = sorted(
        (
            p
            for p in ident.pieces
            if p.kind == "door" and p.evidence >= claimed.get(p.cell, -math.inf)
        ),
        key=_door_rank,
        reverse=True,
    )
    door = doors[0] if doors and board.doors > 0 else None
    dotted = sorted(
        (p for p in ident.pieces if p.kind == "mirror" and (door is None or p.cell != door.cell)),
        key=lambda p: -p.evidence,
    )
    mirrors: list[MirrorSeen] = []
    for p in dotted[: board.mirrors]:
        if not p.slot_sure:
            mirrors.append(MirrorSeen(p.cell, p.slot, None, p.confidence, slot_sure=False))
            warnings.append(
                f"mirror at {list(p.cell)}: its slot is unclear, which way does it face?"
            )
        elif p.confidence < stickers.min_confidence:
            mirrors.append(MirrorSeen(p.cell, p.slot, None, p.confidence))
            warnings.append(f"mirror at {list(p.cell)}: facing unsure, please confirm")
        else:
            mirrors.append(MirrorSeen(p.cell, p.slot, p.facing, p.confidence))
    taken = {m.cell for m in mirrors} | ({door.cell} if door else set())
    bar_only = []
    for cell in board.cells:
        if cell in taken:
            continue
        slot = max(SLOTS, key=lambda s: cands.mirror_bars[(cell, s)])
        score = cands.mirror_bars[(cell, slot)]
        if score >= BAR_MIN:
            bar_only.append((score, cell, slot))
    for score, cell, slot in sorted(bar_only, reverse=True)[: board.mirrors - len(mirrors)]:
        slot_conf = (score - cands.mirror_bars[(cell, _other(slot))]) / SLOT_MARGIN
        conf = max(0.0, min(0.49, slot_conf))
        mirrors.append(MirrorSeen(cell, slot, None, conf, slot_sure=slot_conf >= 1.0))
        warnings.append(
            f"mirror at {list(cell)} ({slot}): its dot is not visible, which way does it face?"
        )
    window = None
    if not ident.windows:
        warnings.append("window card not seen (its magenta dot is hidden?)")
    else:
        spots: dict[str, float] = {}
        for spot, dot in ident.windows:
            spots.setdefault(spot, _window_score(board, spot, dot))
        # Print near a card's top (a thought bubble's icon) can pass for a small dot; the
        # sticker stands alone on its card's top and is the size of the kit's: the likeliest
        # wins if it is likely enough, and a tie asks.
        ranked = sorted(spots.items(), key=lambda ss: -ss[1])
        if ranked[0][1] < WINDOW_FLOOR:
            warnings.append("window card unsure (its magenta dot is off its card's top?)")
        elif len(ranked) == 1 or ranked[0][1] - ranked[1][1] > WINDOW_TIE:
            window = ranked[0][0]
        else:
            warnings.append("two card tops look like the window: please confirm")
    mirrors.sort(key=lambda m: m.cell)
    door_seen = None if door is None else DoorSeen(door.cell, door.slot)
    return BoxState(tuple(mirrors), window, door_seen, tuple(warnings))


# --- the whole reading -----------------------------------------------------------------


def read_box(
    image: np.ndarray,
    board: Board,
    stickers: StickerSettings = DEFAULT_STICKERS,
    calibration: Calibration | None = None,
    markers: dict[int, Marker] | None = None,
) -> BoxState:
    """One photograph to a `BoxState`; `seen=False` (and nothing else) with too few markers."""
    return read_frame(image, board, stickers, calibration, markers)[0]


def read_frame(
    image: np.ndarray,
    board: Board,
    stickers: StickerSettings = DEFAULT_STICKERS,
    calibration: Calibration | None = None,
    markers: dict[int, Marker] | None = None,
) -> tuple[BoxState, BoardPose | None]:
    """The reading and the camera pose it was made with (None when the board was not found).

    `markers` may come from an earlier detection on the same (raw) image (the platform's
    registration). With a lens calibration the image and the marker corners are undistorted
    first, so the pinhole homographies of the top planes hold.
    """
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError("need a BGR colour image")
    found = find_board_markers(image, board) if markers is None else markers
    h, w = image.shape[:2]
    if calibration is not None and np.any(calibration.dist):
        image = cv2.undistort(image, calibration.K, calibration.dist)
        found = {
            i: Marker(
                i,
                cv2.undistortPoints(
                    m.corners.reshape(-1, 1, 2).astype(np.float64),
                    calibration.K,
                    calibration.dist,
                    P=calibration.K,
                )
                .reshape(4, 2)
                .astype(np.float32),
            )
            for i, m in found.items()
        }
        calibration = Calibration(calibration.K, np.zeros(5))
    pose = estimate_pose(found, board, (w, h), calibration)
    if pose is None:
        seen = sorted(i for i in found if i in {m.id for m in board.markers})
        ids = [m.id for m in board.markers]
        return BoxState(
            seen=False,
            warnings=(
                f"only {len(seen)} of the board's corner markers {ids} visible {seen}: "
                "need at least 3 to read the board",
            ),
        ), None
    return read_with_pose(image, board, pose, stickers), pose


def find_board_markers(image: np.ndarray, board: Board) -> dict[int, Marker]:
    """The markers of a photograph that came without the platform's registration, at half
    size first (`find_markers`)."""
    return find_markers(image, [m.id for m in board.markers], MIN_MARKERS)


def read_with_pose(
    image: np.ndarray, board: Board, pose: BoardPose, stickers: StickerSettings = DEFAULT_STICKERS
) -> BoxState:
    """The four stages on an (undistorted) image whose pose is known."""
    rect = rectify(image, board, pose, stickers)
    cands = find_candidates(rect, board, stickers)
    cands, ident = rescued(rect, cands, board, stickers)
    state = fit(ident, cands, board, stickers)
    if len(pose.markers) < len(board.markers):
        missing = sorted({m.id for m in board.markers} - set(pose.markers))
        hidden = f"corner marker(s) {missing} hidden: read from the other three"
        state = BoxState(state.mirrors, state.window, state.door, (hidden, *state.warnings))
    return state
