"""Read a solo Onirim table from one picture: the labyrinth, the Doors, the Mirrors with their
fans, and the discard pile's top card.

Stages, each small:
1. `locate`: the corner markers (models/onirim/table.toml) -> the table's homography (the live
   loop's markers, or a picture's own found on a half-size copy);
2. `corner_window`: for a place on the table, the card corner a fan leaves in view, searched
   a few millimetres about the place, rectified to the card library's patch scale;
3. `match`: which taught corner it is, coarse to fine (every shift at half scale, then the
   best one's neighbours at full scale), each template against the crop by normalised
   correlation of the shared Lab descriptor (`companion.vision.cards.library.descriptor`);
4. `read`: the places zone by zone, each zone asking only the card types that can lie there;
   a row or a fan ends at the first empty place. A card not told apart is null with a
   warning: a question costs the player a tap, a wrong card costs the game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache, partial

import cv2
import numpy as np
from numpy.lib.stride_tricks import as_strided

from companion.config import TableSettings
from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.deck import colour_of, is_door, is_location, symbol_of
from companion.games.onirim.vision.layout import Point, TableLayout, load_layout
from companion.games.onirim.vision.reading import MirrorSeen, TableReading
from companion.vision.cards.library import (
    CHANNEL_WEIGHTS,
    PATCH_H,
    PATCH_W,
    Library,
    descriptor,
)
from companion.vision.markers import Marker, find_markers
from companion.vision.registration import TableRegistrar

EMPTY = 0.62
"""A place whose best score is below this holds no card. From the curve on the development set
(`benchmarks/onirim_vision.py --curve`, 4 tables each, house and random
decks): empty places scored at most 0.616 (99th percentile 0.584), places holding a card
0.625 at the 1st percentile, 0.731 at the 5th."""
SURE = EMPTY
"""A card is named only when its score reaches this (a card at all) ..."""
MARGIN = 0.06
"""... and beats every other type's by this much. On the same curve the best type was the
wrong one for 30 of 1156 cards, with margins of at most 0.235, median 0.008; right ones had a
median margin of 0.146, 0.024 at the 5th percentile. (Tried: the lead as a share of the most
two types' scores can differ, which a Sun and a Key of one colour might need; on the
development curve, 3 tables, house and random, its wrong leads reached 0.43
with the right ones' median at 0.29: no better, so not kept.)"""
TINT_WEIGHT = 1.0
"""How much a crop's `tint` away from a template's costs its correlation (red against brown
differs mostly there). From the curve on new development decks
(`benchmarks/onirim_tint_curve.py`, 12 random decks, 2 tables, 172 Locations): cards whose
right type does not lead every other colour's by `MARGIN` at weights 0 / 0.5 / 1 / 1.5 / 2 /
3 / 4: 20 / 7 / 6 / 6 / 6 / 5 / 4, with their own score below `END_SURE` 2 / 4 / 4 / 5 / 5 / 7
/ 7 (1 card led by another colour at every weight): flat from 0.5 to 2, where more weight
gains a lead only by losing a card's own score."""
DISCARD_SURE = 0.50
"""The discard pile's top is named from this score (with `MARGIN` on every other type and the
colour look, as any card named by its whole corner), below `EMPTY`: no row's last card lies
before the pile, so what shows there when it is empty is the bare table, never a card's body
(what `EMPTY` and `END_SURE` guard against). From the curve on new development decks
(`benchmarks/onirim_vision.py --curve --discard-only`, 8 random decks x 8 tables): 8 bare
discard places scored at most 0.108 (all below `COARSE_EMPTY`, so never looked at closely);
of 56 tops, 55 had the right type best (1st / 5th percentile 0.398 / 0.672), the one wrong best
scored 0.405; named at 0.45 / 0.50 / 0.55 / 0.60 / 0.62: 1 / 1 / 1 / 0 / 0 more than at `EMPTY`,
none wrong. On on21's development misses (16 random decks x 3 tables) 6 of 9 discard tops left
null scored 0.518-0.606 with the right type leading by 0.27-0.62; the one wrong best there
(0.564) led by 0.029, under `MARGIN`. 0.50: above every bare place by far, under those tops."""
MIRROR_SURE = 0.50
"""A Mirror place is named from this score (with `MARGIN` between its sides, `Match.held`)
instead of `SURE`: as on the discard pile, no row's last card lies before it, so what shows
there without a Mirror is the bare table, never a card's body (what `EMPTY` and `END_SURE`
guard against). Not a side its lightness contradicts (`Match.side_guessed`: a low score and
a guess are two doubts; on a fresh house table a side named below `EMPTY` was a guess, which live
play would have kept). A Mirror named so is read as any other (its fan). From the
curve on new development random decks (`benchmarks/onirim_mirror_floor_curve.py`, 16 x 3
tables, seeds in `docs/onirim.md`): 115 bare Mirror places scored at most 0.381 (99th
percentile 0.349), 317 Mirror cards 0.273 at the least (1st / 5th percentile 0.467 / 0.643);
of the cards under `EMPTY` whose sides' lead cleared `MARGIN`, named right / wrong side /
phantom at 0.50 / 0.55 / 0.60: 5 / 0 / 0, 4 / 0 / 0, 1 / 0 / 0 (`Match.held`, so none under
`HELD_SURE`; none a guessed side). 0.50, `HELD_SURE`'s floor: 0.12 over the bare table's most."""
HELD_SURE = DISCARD_SURE
"""A place a row's cards after it say holds a card (a gap `row_of` bridges: a row has no gaps)
is named from this score instead of `SURE` (`Match.held`), with `MARGIN`, the colour look and
the symbol look as any card: what `EMPTY` guards against, a row's last card's body read as a
card past the row's end, cannot lie there, as it cannot on the discard pile. From the curve on
development decks (`benchmarks/onirim_vision.py --curve`, `held_*` rows, which lower this to
0.40; 6 random decks x 2 tables and on21's phantom deck, seeds in `docs/onirim.md`): of 17 cards
scoring below `EMPTY`, 13 would be named at 0.40, all right (none wrong at any floor); named
at 0.40 / 0.45 / 0.50 / 0.55 / 0.60: 13 / 13 / 10 / 8 / 4. Kept at the discard's 0.50 (its
own curve: a wrong best there scored 0.405): few cards, so not lower."""
END_SURE = 0.68
"""The last card of a row, a fan or the Doors must score this much, or the row ends before
it: the place after a row's last card shows that card's body, which a design can make look
like a corner (a card between two cards is one, as a row has no gaps). From the curve on the
development set (3 tables, and 2 tables, house and random
decks, the renderer with symbols as outlines, inked edges, the symbol moved and the art
reaching into the corner): the place after a row's or a fan's last card scored at most 0.652
(99th percentile 0.610, 236 places), cards 0.592 at the least (1st / 5th percentile 0.695 /
0.744, 404 cards); at 0.62 / 0.65 / 0.68 / 0.70: 2 / 1 / 0 / 0 such places above it, 1 / 2 /
3 / 8 cards below (any place, not only the last). `EMPTY` alone let 2 phantom cards through
on those tables."""
END_SYMBOL_FIT = 0.45
"""A row's last card whose type the symbol look decides (finalists of one colour) must show the
symbol it is named by this well (`Match.symbol_fit`, its least correlation on its pairs' symbol
pixels), or the row ends before it. The place after a row's last card shows that card's body:
on a design whose corner is mostly its colour's field, the body scores as a corner of that
colour (0.70-0.77 on a development deck, over `END_SURE`), and the symbol look over plain body
named a Moon by a lead just over `SYMBOL_MARGIN` (two phantoms, on21). From the curve on
development decks (`benchmarks/onirim_vision.py --curve`, `end_*symbol_fit_*` rows; 6 random
decks x 2 tables and on21's phantom deck x 3, seeds in `docs/onirim.md`): 29 right last
cards the symbol look decided, least 0.532 (then 0.645; the 28 named, 0.645); 11 places after a
row's end whose best types shared a colour, at most 0.379 (the two named: -0.063 and 0.379).
Right last cards dropped / bodies left at 0.35 / 0.40 / 0.45 / 0.50 / 0.55 / 0.60: 0 / 0 / 0 /
0 / 1 / 1 and 1 / 0 / 0 / 0 / 0 / 0. 0.45: the middle of the gap."""
BODY_FLOOR = HELD_SURE
"""A place after a row's card that scores under `END_SURE` (or under `EMPTY`) but looks more
like a card's corner than like the card before it's body by `BODY_MARGIN`
(`TableReader.body_score`, the body cut from that type's taught whole face) is a card, named
from this score as a gap's card is (`Match.held`): `EMPTY` and `END_SURE` guard against that
body. `HELD_SURE`'s floor: the body test answers what `EMPTY` guards against, not which type
a low-scoring card is. From the curve on development decks (`benchmarks/onirim_vision.py
--curve --body-rows`, 12 random and 4 house decks x 3 tables, seeds in `docs/onirim.md`; 121
last cards, 319 places after a row's end): gained / named wrong / phantoms at 0.40 / 0.45 /
0.50 / 0.55: 3 / 0 / 0, 3 / 0 / 0, 2 / 0 / 0, 2 / 0 / 0 (any `BODY_MARGIN` 0 to 0.30)."""
BODY_MARGIN = 0.03
"""See `BODY_FLOOR`. On the same curve a place past a row's end scored 0.90 against the last
card's body at the median; where it looked like a card (`COARSE_EMPTY`) its corner led that
body by -0.129 at the most (57 places), any place past a row's end by -0.009 at the most (but
one after a card not read, under `COARSE_EMPTY`); right last cards led the body before them by
0.024 / 0.077 / 0.094 at the least (the lowest scoring 0.86-0.89 on their corner, out of the
rule's reach). 0.03: the middle of the gap over every place past a row's end."""
END_BODY_LEAD = 0.0
"""A row's last card that reaches `END_SURE` (so its body was never looked at, `unbodied`) must
still lead the body of the card before it by this much (`TableReader.body_score`; before a
fan's first place, its Mirror card), or the row ends before it (`TableReader.end_bodies`): a
design's art can make a card's body look like a corner well over `END_SURE`. A fan's first
place shows its Mirror card's body (art of its swatch's colour, pastel discs) when no card
lies under it: on a development deck it scored 0.697 as a green Sun, 0.962 as that body.
The same on a labyrinth: a stripy pale deck's last card's body past the row's end scored over
`END_SURE`, asked (a null where no card lies). From the curve on development decks
(`benchmarks/onirim_body_curve.py`, 20 random decks x 3 tables and 8 house decks x 3, seeds in
`docs/onirim.md`): the right last cards the rule looks at led that body by 0.061 at the least
(1st / 5th percentile 0.071 / 0.116, 117 random), 0.154 (44 house); the 4 phantoms (3 of them
nulls past a labyrinth's end on one deck, the green Sun above) by -0.236 at the most. At -0.3 /
-0.2 / -0.1 / -0.05 / 0 / 0.03: phantoms 6 / 2 / 2 / 2 / 2 / 2 of 6 left (random), right cards
921 of 966 at each (house 386 of 404, 0 phantoms, at each). 0: a last card must look more like
a corner than like the body, 0.061 under the least right one."""
TABLE_LEAD = -np.inf
"""A row's last cards must lead the bare table's own score (`TableReader.table_score`: the
best location type at windows where no card can lie) by this much, or the row ends before
them (`TableReader.end_bodies`): some tables' patterns may score as a card over every bar,
place after place past a row's end, where a last card's body (`END_BODY_LEAD`) cannot tell
(the place before reads as a card too). Off (-inf; the table is then not looked at). From the
curve on a development draw (`benchmarks/onirim_table_curve.py`, 20 random decks x 3 tables,
seeds in `docs/onirim.md`): right row cards led the table by 0.227 at the least (1st / 5th
percentile 0.427 / 0.582 of 531), no phantom of the class came up; at 0 / 0.1 / 0.2 / 0.3
right 908 / 908 / 908 / 908 of 966, row cards under the lead 0 / 0 / 0 / 3. Measured fresh at
0.2: identical readings (no phantom of the class there either), the read 1.1x base's: off
until a development draw holding the class shows a margin."""
MIRROR_BODY_LEAD = 0.15
"""A fan's last cards must lead their Mirror card's own body at their place by this much
(`TableReader.body_score`, the Mirror's unexplored side: cards lie under it only then), or the
fan ends before them (`TableReader.end_bodies`). The Mirror card lies under every place of its
fan (three places, 20 mm apart, all over its picture): where no card lies, the window shows
that Mirror's body, which `END_BODY_LEAD` compares only at a fan's first place, and only by
0: a fan's first place under a brown Mirror, no card there, scored 0.773 as a blue Moon and
0.654 as the Mirror's body (a lead of 0.119), a phantom over every bar. From the curve on
development decks (`benchmarks/onirim_mirror_body_curve.py`, three draws of 20 random decks x
3 tables, seeds in `docs/onirim.md`): right fan cards led their Mirror's body by 0.211 / 0.210 /
0.337 at the least (1st / 5th percentile 0.404 / 0.455, 0.325 / 0.505, 0.360 / 0.557; 114, 120
and 81 cards), the one phantom of the class by 0.119; at 0 / 0.1 / 0.15 / 0.2: phantoms of
the class 1 / 1 / 0 / 0, right cards 918 of 982, 825 of 882 and 908 of 966 at each (on the
second draw one right fan card lies under 0.25). 0.15 lies in the gap, 0.06 under the least
right card; measured fresh at 0.15 the readings were identical to the reader without it (no
phantom of the class there), twice. Its body look cost about 7 % of a read (over the 2.5x
bar on a quiet house draw) until a body look measured its window once (`Crops`) and a read
kept each place's window: with it on, the read is under the reader's without it on two fresh
house draws and a random one, frame by frame (the guide has the numbers)."""
BARE_CLEAR_MM = 3.0
"""How far the bare table's windows (`TableReader.bare_places`) lie clear of the lowest cards'
edge, beyond the search margin."""
BARE_STEP_MM = 90.0
"""The step between the bare table's windows along their row."""
ROW_GAP = 3
"""The most places in a row of the labyrinth that a sure card and another card after them
bridge (`row_of`): a glare over one to three corners, whatever each then looks like. Each
place more is one more window looked at past the end of many labyrinths (the place after the
last card shows its body, the next ones bare table, and the row ends only once every gap up to
this has been ruled out). From the curve on development decks (`benchmarks/onirim_vision.py
--row-gaps 1,2,3`, 16 random decks x 3 tables, 902 cards, seeds in `docs/onirim.md`): right
at 1 / 2 / 3: 828 / 836 / 843 (the reader before: 828), named wrong 1 / 1 / 1 (the same card,
the reader before too), phantoms 0 / 0 / 0; corner windows a read 32.90 / 33.54 / 34.21. With
two sure cards asked after the gap (not a sure card and a card): 828 / 828 / 835. On 16 house
decks x 3 tables (902 cards, two sure cards after): 900 right at every value, 0 phantoms."""
LABYRINTH_CHUNK = 8
"""Labyrinth places compared in one batch while the row's last places hold cards (more: fewer
calls, more places past the end). Once one of its last two places is empty, the next place
alone says whether the row goes on (`next_places`)."""
LABYRINTH_FIRST = 4
DOORS_FIRST = 3
"""Labyrinth places and Door places in the first batch, and the Doors' later batches; the rest
come with the fans' rows while the row goes on. Most tables hold a short labyrinth and few
Doors (of 300 drawn by the renderer: no Door on 133, three or more on 65; a labyrinth of at
most three cards on 171), and every place looked at past a row's end costs about as much as a
card."""
COARSE_EMPTY = 0.45
"""A window whose best half-scale score is below this is empty without the closer look. From
the curve on the development set (`benchmarks/onirim_vision.py --curve`, 2
tables each, house and random decks): places holding a card scored at least 0.597 at half
scale (1st percentile 0.698); of 200 empty places 170 / 184 / 185 / 192 / 200 scored below
0.30 / 0.40 / 0.45 / 0.50 / 0.60, while 0 / 0 / 0 / 0 / 1 of the 360 cards did."""
FINE_REACH = 1
"""The full-scale look tries this many pixels either way of the coarse best."""
SYMBOL_CHECK_REACH = 3
"""The symbol look (`by_symbol`) compares the types of a colour about the whole corner's best
shift, a pixel either way; it is made again this many pixels either way (each type at its own
best shift there), and the lead must hold (`SYMBOL_KEEP`). The whole corner's best shift is set
mostly by what the types share (a striped or mottled face, a badge, each type's teach photo
cut a pixel or two apart), and can lie pixels off where the symbol lines up, where the other
symbol's pixels fit the crop better than its own: on a development deck a Moon was named the
Sun of its colour with a lead of 0.997 of the reach, 0.049 once the symbols could line up."""
SYMBOL_KEEP = 0.35
"""The share of its symbol lead a type must keep when the look reaches `SYMBOL_CHECK_REACH`
(`Match.symbol_kept`), or the card is asked (its colour's kinds kept, as for a lead below
`SYMBOL_MARGIN`). A check that only asks: it never names a card the first look did not. From
the curve on 12 widened random development decks x 3 tables (`benchmarks/onirim_vision.py
--curve --styles random`, symbol_kept): of 261 cards named right by their symbol, the least
kept 0.426 of its lead (1st / 5th percentile / median 0.481 / 0.545 / 0.749); the one named
wrong kept 0.050. Asked at 0.20 / 0.30 / 0.35 / 0.40 / 0.45 / 0.50 / 0.55 / 0.60: 0 / 0 / 0 /
0 / 2 / 4 / 15 / 48 of the 261, the wrong one at each. 0.35: below the right ones' least."""
FINALISTS = 3
"""Card types the coarse look passes on to the full-scale comparison (with the best type of
another colour when all of them are Locations of one colour: `TableReader._another_colour`)."""
SYMBOL_MARGIN = 0.30
"""Two Locations of one colour (a Sun and a Key, say) are told apart by their symbol alone
(`symbol_scores`): the one named must lead the other by this much there, as a share of the
pair's `SymbolPair.reach`, or the card is left null with its colour's kinds (`Match.kin`: live
play settles it with the hand or asks). On the curve of new development decks
(`benchmarks/onirim_vision.py --curve` on 12 random-style development decks, 2 tables each, 158
symbol-decided cards, none wrong) the right ones' lead at the least / 1st / 5th percentile /
median is 0.264 / 0.337 / 0.544 / 0.798 of the reach (the raw lead: 0.084 / 0.093 / 0.352 /
0.701); asked at 0.15 / 0.20 / 0.25 / 0.30 / 0.35 / 0.40 / 0.50: 0 / 0 / 0 / 1 / 3 / 3 / 6 of
158 (raw: 4 / 4 / 5 / 8 / 8 / 13 / 28). Kept at 0.30: a wrong name needs a crop nearer the other
type than its own by 0.30 of what tells the two apart. Before the reach, in raw leads, from the
margin curve on new development decks (`benchmarks/onirim_vision.py --curve --styles random`, 16
decks, 3 tables each): 281 cards decided by their symbol, none wrong; the right one's lead at
the 1st / 5th percentile / median 0.082 / 0.303 / 0.831; asked at 0.15 / 0.20 / 0.25 / 0.30 /
0.35 / 0.40: 4 / 8 / 11 / 13 / 21 / 30 of 281. The confusions seen before all led by more than
0.15: on an earlier development set a Moon named the Sun of its colour with a lead of 0.299, and
live play met a Sun named the Moon of its colour three times in 200 games (each a false breach).
Set at the right ones' 5th percentile: the near-confusions are asked, which costs a question in
live play only when the hand holds two cards of that colour. (`Match.symbol_fit`, how well the
named symbol shows at all, does not separate: right cards 0.563 / 0.718 at the 1st / 5th
percentile, empty places whose best types shared a colour up to 0.867.)"""
SYMBOL_TIE = 0.03
"""A card the symbol look names whose whole corner hardly told its first type from the
runner-up (`Match.margin` under this: mostly the other type of its colour, the two corners
alike but for the symbol) needs a symbol lead of `SYMBOL_TIE_MARGIN`, not `SYMBOL_MARGIN`, or
it is asked (its colour's kinds kept). The whole corner then says nothing of the type, and a
symbol lead just over `SYMBOL_MARGIN` is all that names it: on26's development draw named a
green Sun the green Key with a margin of 0.001 and a lead of 0.310. The curve
(`benchmarks/onirim_vision.py --curve --symbol-rows --styles random --tables 3`, on26's 16
development decks and 16 new ones, seeds in the guide): 623 cards named by their symbol, 622
right and that one wrong. Right ones' margin at the least / 1st / 5th percentile / median
0.002 / 0.027 / 0.069 / 0.281; 8 right ones under 0.03, with leads of 0.61-0.85. Asked (right /
wrong) for a margin under 0.005-0.03 and a lead under 0.32-0.50: 0 / 1 everywhere; under 0.05
and a lead under 0.40 / 0.45 / 0.50: 1 / 1 / 2 right; under 0.08 and 0.35 / 0.40 / 0.45 /
0.50: 1 / 4 / 5 / 6 right. 0.03 and 0.40: the wrong one asked, no right one."""
SYMBOL_TIE_MARGIN = 0.40
"""See `SYMBOL_TIE`."""
SYMBOL_CHROMA_BELOW = 0.08
"""A card the symbol look names whose whole corner led its runner-up by less than this
(`Match.margin`) is looked at again in the chroma (`TableReader.chroma_lead`): where the two
symbols of its pair differ in a chroma channel too (that channel's own pair reaching
`SYMBOL_CHROMA_REACH`), the named type must not trail the other there by more than
`SYMBOL_CHROMA_LEAD` of that reach, or it is asked (its colour's kinds kept). The symbol look
compares the pair in one channel (the lightness, mostly); a crop whose lightness leads one
symbol while its chroma clearly shows the other is a coin flip, not a reading. Only where the
whole corner left the type in doubt: the look costs two more symbol comparisons a card."""
SYMBOL_CHROMA_REACH = 1.0
"""See `SYMBOL_CHROMA_BELOW`: a chroma channel's pair reaching less says little."""
SYMBOL_CHROMA_LEAD = -0.45
"""See `SYMBOL_CHROMA_BELOW`."""
DISCARD_SYMBOL_BELOW = MARGIN
"""The discard pile's top whose whole corner leads the other Location of its colour (a Key and
the Sun of its colour) by less than this is decided by the symbol look, as a card elsewhere is
(`SYMBOL_MARGIN`, `SYMBOL_TIE`, `SYMBOL_KEEP`, `SYMBOL_SHARP`), and named only when the symbol
names the whole corner's first type: a card under the top one may show a corner there, so the
symbol look never overrules the whole corner on the pile. Above it the whole corner decides
alone (`MARGIN`), as before. From the curve on new development house tables
(`benchmarks/onirim_discard_curve.py --styles house --tables 6`, 20 decks, 120 discard places,
113 tops, 66 of them with the other kind of their colour among the finalists: symbol leads
0.587 at the least, the symbol's type the whole corner's first and right on all 66): named
right / wrong / asked at 0 / 0.03 / 0.06 / 0.08 / 0.10 / 0.15 / 0.20 / 0.30 / 1: 111 / 0 / 2,
111 / 0 / 2, then 113 / 0 / 0 from 0.06 (the two asked: a green and a brown Key whose whole
corner led the Sun of its colour by 0.044 and 0.046, symbol leads 0.801 and 0.655); on 6 new
random development decks x 3 tables (15 tops): 14 / 0 / 1 up to 0.15, 13 / 0 / 2 from 0.20 (a
right top with a symbol lead of 0.296). `MARGIN`: where the whole corner would ask, no higher."""


def symbol_margin(margin: float) -> float:
    """The symbol lead a card the symbol look names needs, given its whole corner's `margin`:
    `SYMBOL_TIE_MARGIN` where the whole corner hardly led (`SYMBOL_TIE`), else `SYMBOL_MARGIN`."""
    return SYMBOL_TIE_MARGIN if margin < SYMBOL_TIE else SYMBOL_MARGIN


COLOUR_MARGIN = 0.03
"""When another colour is among a Location's or a Door's finalists, the colour look
(`colour_scores`: its own kind in either colour) decides where it is clear: a lead of at least
this on every other colour there makes the colour sure (the whole corner's `MARGIN` is then
asked of the other types only), a lead of at most minus this leaves the card null; in between
the whole corner decides as before. From the curve on new development decks
(`benchmarks/onirim_vision.py --curve`, 20 random decks x 2 tables and 4 house decks x 3
tables): of 126 cards with another colour among the finalists (45 Locations, 81 Doors) the
right colour led by 0.041 at the least (1st / 5th percentile / median 0.059-0.080 / 0.096 /
0.31); the lead of a wrong colour is that lead turned round (the same pair), so at most -0.041.
At 0.00 / 0.03 / 0.05 / 0.10: 0 / 0 / 1 / 3 of them short of it. The cards the whole corner
left in doubt (another colour within `MARGIN`: red against brown, mostly where the colour is a
frame or the symbol's ink on plain paper) all led by more than 0.03."""
SYMBOL_SHARP = 0.12
"""The least `SymbolPair.reach` a card named by its symbol needs of each pair it was told apart
in, with both templates blurred as the picture is there (`Match.symbol_sharp`), or it is asked
(its colour's kinds kept): a thin symbol a blurred picture has wiped out leaves a disc as like
one symbol of the pair as the other, and a pair whose symbols hardly differ in lightness (ink
about as light as what it is printed on) gives a lead that is its noise over a tiny reach.
From the curve on 12 widened random development decks x 3 tables (`benchmarks/onirim_vision.py
--curve`, symbol_sharp): of 240 cards the symbol look would name (colour sure, lead above
`SYMBOL_MARGIN`), 233 right, 7 the wrong type (5 of them on one deck of thin outline symbols
on a disc, in a blurred picture). Asked at 0.05 / 0.08 / 0.10 / 0.12 / 0.15 / 0.20 / 0.25 /
0.30: right 1 / 4 / 5 / 5 / 5 / 7 / 9 / 13 of 233, wrong 2 / 5 / 5 / 5 / 5 / 5 / 5 / 5 of 7
(the right ones under 0.10 are cards of that same pair and picture: coin flips); on 4 house
decks x 3 tables 0 of 79 asked up to 0.25. 0.12: in the flat stretch, under the next right
card (0.161)."""
SIDE_LIGHT = -0.5
"""A Mirror place whose window's lightness lies this far toward the other side's taught
lightness (`Match.light` at most this) and whose whole corner leads that side by less than
`SIDE_MARGIN` has its side only guessed (`Match.side_guessed`): the descriptor is blind to a
patch's mean, and a pale unexplored Mirror (light ink on a light face, a blurred picture)
shows the explored side's clean symbol better. Its fan is read (cards under it: the unexplored
side); with none, `read` asks (`TableReading.guessed`, `asked`), and live play keeps the guess,
which the game settles. The curve (per Mirror place, the named side's `light` and `margin`;
development random decks, 10 x 3 tables and on18's 11 x 3, seeds in `docs/onirim.md`; 384
sides named): 3 wrong, one unexplored Key Mirror read explored on its deck's three tables, at
light -1.0 with margins 0.064 / 0.213 / 0.219; the right ones' margins 0.087 at the least
(1st / 5th percentile 0.104 / 0.142; 53 / 80 / 108 of 381 under 0.20 / 0.25 / 0.30), so a
margin alone asks dozens of right sides to ask the wrong one. Right sides at light at most
-0.3 / -0.5 / -0.7: 3 / 2 / 1, of them with a margin under 0.30: 1 / 1 / 1 (an explored Rainbow
Mirror at -1.0, margin 0.174: asked); the others led by 0.401 and 0.674. So 3 wrong and 1
right asked of 384. on19's curve (290 right Mirrors, `docs/onirim.md`): one right side below
-0.5 (-0.821, margin 0.086), asked here. Lightness alone was on19's gate, which asked whole
decks' Mirrors in live play: here only `read` asks, and live play keeps the side read."""
SIDE_MARGIN = 0.30
"""See `SIDE_LIGHT`: a side leading the other by this much on the whole corner is named
whatever its lightness says (a lamp, a glare or a teach photo's exposure moves the lightness
of right Mirrors too: of the right sides at or below `SIDE_LIGHT` on the curve one led by
0.401, named, and one by 0.174, asked; the wrong one by 0.219 at most)."""
BLUR_STEPS = (0.0, 0.6, 0.9, 1.2, 1.6, 2.0, 2.5)
"""The picture's blur beyond the taught corner's, looked for among these Gaussian sigmas (px
at the library's patch scale): the one whose blurred template fits the crop best."""
LEVEL_SIGMA = 1.6
"""The blur (Gaussian sigma, px at the library's patch scale) under which a deck's `deck_level`
is measured: its taught Location corners blurred this much (and a little noise added) against
their own templates. A corner of fine print (stripes, mottling, thin outlines) loses more of
itself than a bold one, and its cards score lower on every table picture."""
LEVEL_REF = 0.95
"""The `deck_level` from which a deck's scores are lifted (`TableReader.lift`): decks at or
above it read as before. Just under the development decks' median (as
`benchmarks/onirim_lift_curve.py` prints them: 22 random decks 0.896-0.970, median 0.956; 3
house decks 0.957-0.961, so a house deck reads as before)."""
LIFT_GAIN = 2.0
"""How much a deck's scores are lifted for each unit its `deck_level` lies below `LEVEL_REF`
(`TableReader.lift`), at most `LIFT_MAX`. 0: no lift. From the curve on development decks
(`benchmarks/onirim_lift_curve.py`, 12 random decks x 3 tables, 545 cards, seeds in the guide):
right at 0 / 1 / 2 / 3: 504 / 506 / 514 / 514, named wrong 0 / 0 / 0 / 0, phantoms 0 / 0 / 0 /
0 (the gain on two decks of fine print at levels 0.896 and 0.933: a labyrinth of 13 whose
cards scored 0.40-0.66, 9 of them named at 2); on 10 more (478 cards, levels 0.935 up) 458 right at
0 / 2 / 3 / 4 alike. 2: the first of the flat stretch."""
LIFT_MAX = EMPTY - HELD_SURE
"""The most a deck's scores are lifted: `SURE` then falls at most to `HELD_SURE`, the lowest
bar the reader names the discard pile's top from (`DISCARD_SURE`, which the lift does not
lower: `DISCARD_LIFT_MAX`). A gap a row bridges (`HELD_SURE`) and a place that is no body
(`BODY_FLOOR`) are lifted with the deck's other places: their bars fall under `HELD_SURE`
by the lift (a row's cards on both sides say a card lies there)."""
DISCARD_LIFT_MAX = 0.0
"""The most the deck's lift lowers the discard pile's bar (`TableReader.match`: the pile's top
is named from `DISCARD_SURE` - min(lift, this) of its unlifted score). 0: the pile's bar is
the deck's own, never under `HELD_SURE`: nothing on either side of the pile says a card lies
there. From the curve on development decks (`benchmarks/onirim_colour_pairs.py`, its
`discard cap` rows; two draws of 20 random decks x 3 tables, one deck's teach refused on
the second; seeds in the guide): at 0 / 0.03 / 0.06 / 0.09 / 0.12 (`LIFT_MAX`, as before)
54 of 54 tops right at each and bare places named 0 / 1 / 1 / 1 / 1 (a green-checked place of
a lifted deck, 0.472 unlifted, lift 0.048, named a green Sun); on the second draw 52 of 55
right, 0 named, at each; on a third (12 decks, 11 taught) 28 / 28 / 29 / 30 / 30 of 31 right, 0
named: two tops of one deck lifted 0.120 (0.464 and 0.415 unlifted) are asked at 0. The
phantom scored above both unlifted: no cap between keeps them and drops it. 0: a bare place
named is a confident wrong answer, a top asked is a question."""


def deck_level(patches: np.ndarray, templates: np.ndarray) -> float:
    """How much of itself a deck's corner keeps in a picture: the median, over its taught
    Location corners (`patches` BGR (T, PATCH_H, PATCH_W, 3) and their `templates`' unit
    planes), of the correlation of each corner blurred by `LEVEL_SIGMA` (and a fixed noise)
    with its own template. The bars (`EMPTY`, `COARSE_EMPTY`, `END_SURE`, ...) are absolute,
    and on a deck of fine print every card scores under them."""
    rng = np.random.default_rng(0)
    values = []
    for patch, template in zip(patches, templates, strict=True):
        blurred = cv2.GaussianBlur(patch.astype(np.float32), (0, 0), LEVEL_SIGMA)
        noisy = np.clip(blurred + rng.normal(0.0, 3.0, blurred.shape), 0, 255).astype(np.uint8)
        d = unit_planes(descriptor(noisy)[None])[0]
        values.append(float((d * template).sum()))
    return float(np.median(values)) if values else 1.0


SYMBOL_SHARE = 0.35
"""The symbol region of a pair of types: where their corners' lightness differs by at least
this share of its largest difference (then grown by a pixel, for a card a pixel off)."""


@dataclass(frozen=True)
class Match:
    card: str | None
    """The type named, or None (empty or not told apart)."""
    score: float
    margin: float
    best: str
    runner_up: str | None
    coarse: float = 0.0
    """The best half-scale score (what decides whether a window is looked at closely)."""
    symbol: float | None = None
    """For finalists of one colour: `best`'s least lead on another of them on the symbol
    alone, as a share of the pair's `SymbolPair.reach` (1: the crop is just like `best`)."""
    overruled: float = 0.0
    """How far the whole corner put another type of that colour above `best` (0 when the
    symbol and the whole corner agree)."""
    kin: tuple[str, ...] = ()
    """Left null for its symbol alone (the colour sure: it leads every other colour as a
    named card must): every Location of that colour, which live play narrows with the hand
    instead of asking for a card it could tell."""
    symbol_fit: float | None = None
    """For finalists of one colour: how well `best`'s symbol shows at all (its least
    correlation on its pairs' symbol pixels)."""
    colour_lead: float | None = None
    """For a Location: how far the best score leads the best finalist of another colour
    (None when no other colour is among the finalists)."""
    colour_look: float | None = None
    """For a Location or a Door with another colour among the finalists: the least lead of
    the whole corner's first colour on each other colour there, by `colour_scores` (its own
    kind in either colour: a red Sun against the brown Sun)."""
    symbol_kept: float | None = None
    """For a card named by its symbol: the share of its symbol lead it keeps when the symbols
    may line up a few pixels off the whole corner's shift (`SYMBOL_CHECK_REACH`)."""
    symbol_sharp: float | None = None
    """For a card named by its symbol: the least reach of its pairs with the templates blurred
    as the picture is there (`TableReader.sharp_reach`): how far the two symbols can differ at
    all in this picture. When its pairs clear `SYMBOL_SHARP` at every blur step, the blur is
    not looked for and this is their least reach at any step (`TableReader.sharp_floor`), a
    lower bound."""
    held: str | None = None
    """The type named if a card is known to lie here (a gap in a row, the cards after it
    sure): as `card`, from `HELD_SURE` instead of `SURE`. None also while `hold` is left to
    make (`held_card` says it either way)."""
    light: float | None = None
    """For a Mirror place (its two sides the finalists): how far the window's mean lightness
    lies nearer `best`'s taught side than the other's, as a share of the two sides' own
    difference (1: as light as `best`, -1: as light as the other side). The descriptor is
    blind to a patch's mean, and the two sides of a Mirror card differ most in lightness.
    Measured, not yet used to decide: asking a side whose lightness says the other
    (on19's gate at -0.4) asked whole decks' Mirrors on every frame in live play, and the
    camera booked none of 15 fresh games' plays out of 100 (the curve: `onirim_vision.py
    --curve`, its `mirror_light_*` rows; the guide has the numbers)."""

    shown: bool = False
    """Under `END_SURE` (or `EMPTY`) after a row's card, but not that card's body: its corner
    leads the body the place would show by `BODY_MARGIN` (`TableReader.unbodied`). Neither
    empty nor ended for its score; named from `BODY_FLOOR`."""

    symbol_chroma: float | None = None
    """For a card named by its symbol whose whole corner hardly led (`SYMBOL_CHROMA_BELOW`):
    its least lead in a chroma channel that tells its pair apart (`TableReader.chroma_lead`;
    None when no channel does)."""

    lift: float = 0.0
    """The deck's `TableReader.lift` in `score` (0 on a Mirror place): a row's last card must
    reach `END_SURE` without it, or lead the body before it (`shown`), as the body of a row's
    last card past the row's end is lifted with the deck's cards."""

    hold: Callable[[], str | None] | None = field(default=None, compare=False, repr=False)
    """For a place scoring under `SURE` whose type the symbol look decides: the symbol check
    `held` needs (`TableReader._symbol_kept`), left to make (once) until a row bridges the
    place as a gap (`row_of`). Most such places lie past a row's end and are never named: made
    for all of them, about 0.25 more checks a read on development decks, 0.27 ms each under
    load (the guide has the numbers)."""

    @property
    def empty(self) -> bool:
        return self.score < EMPTY and not self.shown

    @property
    def side_guessed(self) -> bool:
        """A Mirror side named whose lightness says the other side (`SIDE_LIGHT`) while the
        whole corner hardly leads it (`SIDE_MARGIN`): a guess, not a reading."""
        return (
            self.card is not None
            and self.light is not None
            and self.light <= SIDE_LIGHT
            and self.margin < SIDE_MARGIN
        )

    def held_card(self) -> str | None:
        """The type named if a card is known to lie here (`held`), the symbol check made now
        when it was left for a bridged gap (`hold`)."""
        return self.held if self.hold is None else self.hold()


def tint(mean_lab: np.ndarray) -> np.ndarray:
    """(..., 2): the chroma of a mean Lab colour over its lightness, which a dimmer or
    brighter lamp changes little. The descriptor is blind to a patch's mean colour (each
    channel is zero-mean), and a red Location differs from a brown one mostly there."""
    L = np.maximum(mean_lab[..., 0], 20.0)
    return np.stack([(mean_lab[..., 1] - 128) / L, (mean_lab[..., 2] - 128) / L], axis=-1)


def tint_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Euclidean distance between `tint`s (..., 2), broadcast; written out, as it runs on
    every shift of every window against every type (`np.linalg.norm` costs several times
    more there)."""
    dx = a[..., 0] - b[..., 0]
    dy = a[..., 1] - b[..., 1]
    return np.sqrt(dx * dx + dy * dy)


@dataclass(frozen=True)
class Correlated:
    scores: np.ndarray
    """(B, shifts, templates): cosine of the descriptors."""
    tints: np.ndarray
    """(B, shifts, 2): each crop's `tint`."""


class ShiftedTemplates:
    """Templates ((T, 3, h, w): `unit_planes`) laid at every horizontal shift of a window's
    width, one matrix per channel for each set of templates a run of windows wants (made once
    per deck and set): a window's rows y..y+h are then one contiguous run of its channel plane,
    and one matrix product scores every shift of it. Copying out every crop of every shift
    instead (h x w pixels for each of the shifts) cost as much as the products themselves."""

    def __init__(self, templates: np.ndarray) -> None:
        self.templates = templates
        self._made: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}

    def at_shifts(self, width: int, ks: np.ndarray) -> np.ndarray:
        """(3, h * width, shifts * len(ks)): for each channel, template ks[j] placed at column
        x of an (h, width) frame, zero elsewhere, in column x * len(ks) + j."""
        key = (width, tuple(int(k) for k in ks))
        got = self._made.get(key)
        if got is None:
            _, _, h, w = self.templates.shape
            nx = width - w + 1
            frame = np.zeros((3, h, width, nx, len(ks)), np.float32)
            chosen = self.templates[ks].transpose(1, 2, 3, 0)  # (3, h, w, k)
            for x in range(nx):
                frame[:, :, x : x + w, x] = chosen
            got = self._made[key] = frame.reshape(3, h * width, nx * len(ks))
        return got


def windows_of(a: np.ndarray, h: int, w: int, axis: int = 0) -> np.ndarray:
    """Every (h, w) window of `a` over its axes `axis` and `axis + 1`, as a view: numpy's
    `sliding_window_view(a, (h, w), axis=(axis, axis + 1))` (the window's axes last), without
    its checks (a read makes a few dozen such views)."""
    shape, strides = a.shape, a.strides
    out_shape = (
        *shape[:axis],
        shape[axis] - h + 1,
        shape[axis + 1] - w + 1,
        *shape[axis + 2 :],
        h,
        w,
    )
    out_strides = (*strides, strides[axis], strides[axis + 1])
    return strided(a, out_shape, out_strides)


def strided(a: np.ndarray, shape: tuple[int, ...], strides: tuple[int, ...]) -> np.ndarray:
    """A read-only view of `a` with this shape and these strides (numpy's `as_strided`; on a
    C-contiguous `a`, as every array a read strides is, without its interface object)."""
    if not a.flags.c_contiguous:
        return as_strided(a, shape, strides, writeable=False)
    view = np.ndarray(shape, a.dtype, buffer=a, strides=strides)
    view.flags.writeable = False
    return view


def correlations(
    labs: np.ndarray, templates: ShiftedTemplates, used: list[int], wanted: np.ndarray
) -> Correlated:
    """Every crop of a template's size in a batch of Lab windows (B, H, W, 3) against the
    templates `used` of `templates` each window wants (`wanted`, (B, len(used)) bool; the
    others score -inf): the cosine between the crop's `library.descriptor` and the template.

    A crop's mean drops out of the product with a zero-mean template, so each crop is only
    scaled, channel by channel, by its spread: every crop's sum and sum of squares come from
    one integral image, and each run of windows wanting the same templates is one matrix
    product per channel of its windows' bands of rows (one per vertical shift) with those
    templates laid at every horizontal shift (`ShiftedTemplates`)."""
    B, H, W, _ = labs.shape
    _, _, h, w = templates.templates.shape
    n = h * w
    ny, nx = H - h + 1, W - w + 1
    # Sums in float64: float32 would lose a flat channel's spread to its large mean. The crops
    # themselves need no centring: the templates are zero-mean.
    s, sq = cv2.integral2(
        np.ascontiguousarray(labs, dtype=np.float32).reshape(B * H, W, 3),
        sdepth=cv2.CV_64F,
        sqdepth=cv2.CV_64F,
    )
    top = (np.arange(B)[:, None] * H + np.arange(ny)).ravel()

    def box(a: np.ndarray) -> np.ndarray:
        return (
            a[top + h, w : w + nx] - a[top, w : w + nx] - a[top + h, :nx] + a[top, :nx]
        ).reshape(B, ny * nx, 3)

    mean = box(s) / n
    var = np.maximum(box(sq) / n - mean * mean, 0.0)  # (B, shifts, 3)
    gain = (CHANNEL_WEIGHTS / np.maximum(np.sqrt(var), 6.0)).astype(np.float32)
    norm = np.sqrt(np.maximum((gain * gain * var * n).sum(axis=-1), 1e-12)).astype(np.float32)
    scores = np.full((B, ny * nx, len(used)), -np.inf, np.float32)
    # Channel planes first; each window's band of rows y..y+h is then one contiguous run,
    # copied out once for every vertical shift.
    planes = np.ascontiguousarray(labs.transpose(3, 0, 1, 2), dtype=np.float32)
    st = planes.strides
    bands = strided(planes, (3, B, ny, W, h), (*st, st[2]))  # (3, B, ny, W, h)
    bands = bands.transpose(0, 1, 2, 4, 3).reshape(3, B * ny, h * W)  # copied out once
    index = np.asarray(used)
    b0 = 0
    while b0 < B:
        b1 = b0 + 1
        while b1 < B and (wanted[b1] == wanted[b0]).all():
            b1 += 1
        ks = np.flatnonzero(wanted[b0])
        if len(ks):
            at = templates.at_shifts(W, index[ks])
            # (3, windows * ny, nx * k): shift (y, x) of template j at [y, x * k + j].
            dots = np.matmul(bands[:, b0 * ny : b1 * ny], at).reshape(3, -1, len(ks))
            dot = np.einsum("cnk,nc->nk", dots, gain[b0:b1].reshape(-1, 3))
            scores[b0:b1, :, ks] = (dot / norm[b0:b1].reshape(-1, 1)).reshape(b1 - b0, -1, len(ks))
        b0 = b1
    return Correlated(scores, tint(mean.astype(np.float32)))


def crop_scores(regions: np.ndarray, templates: np.ndarray) -> Correlated:
    """Each crop of a template's size in each region ((L, Hr, Wr, 3) Lab) against that
    region's own templates ((L, K, 3, h, w): `unit_planes`), as `correlations` scores them.
    For a few templates at a few shifts: the crops copied out cost less than a sweep of the
    whole batch for every template."""
    L, K, _, h, w = templates.shape
    n = h * w
    # Each region less its own mean first (small sums of squares stay exact in float32); a
    # crop's own mean then drops out of its product with a zero-mean template, so the
    # crops are copied out once and never centred or scaled: their spreads weigh the dots.
    # Sums over pixels as products with ones: a reduction over a middle axis costs several
    # times more.
    pixels = regions.reshape(L, -1, 3)
    offset = (np.ones(pixels.shape[1], np.float32) @ pixels / pixels.shape[1])[:, None, None]
    x = (regions - offset).astype(np.float32, copy=False)
    crops = windows_of(x, h, w, axis=1).reshape(L, -1, 3, n)  # copied
    mean = crops @ np.ones(n, np.float32) / n  # (L, S, 3)
    var = np.maximum(np.einsum("lscn,lscn->lsc", crops, crops) / n - mean * mean, 0.0)
    gain = CHANNEL_WEIGHTS / np.maximum(np.sqrt(var), 6.0)
    norm = np.sqrt(np.maximum((gain * gain * var * n).sum(axis=-1), 1e-12))  # (L, S)
    # (L, 3, S, n) @ (L, 3, n, K): one matrix product per region and channel.
    dots = np.matmul(
        crops.transpose(0, 2, 1, 3), templates.reshape(L, K, 3, n).transpose(0, 2, 3, 1)
    )
    scores = np.einsum("lcsk,lsc->lsk", dots, gain) / norm[..., None]
    return Correlated(scores, tint(mean + offset.reshape(L, 1, 3)))


class Crops:
    """A region's ((Hr, Wr, 3) Lab) crops of a template's size ((h, w)) at every shift, their
    spread measured once (each channel's sum and sum of squares from one integral image, in
    float64), so that each template scored against them (`scores`) costs its three channel
    products only: a place's window is scored against the body of the card before it and,
    under a fan, against its Mirror card's body (`TableReader.body_score`)."""

    def __init__(self, region: np.ndarray, h: int, w: int) -> None:
        n = h * w
        offset = region.reshape(-1, 3).mean(axis=0)
        x = (region - offset).astype(np.float32)
        self.channels = [np.ascontiguousarray(x[..., c]) for c in range(3)]
        s, sq = cv2.integral2(x, sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)

        def box(a: np.ndarray) -> np.ndarray:
            return (a[h:, w:] - a[:-h, w:] - a[h:, :-w] + a[:-h, :-w]).reshape(-1, 3)

        mean = box(s) / n
        var = np.maximum(box(sq) / n - mean * mean, 0.0)
        self.gain = (CHANNEL_WEIGHTS / np.maximum(np.sqrt(var), 6.0)).astype(np.float32)
        self.norm = np.sqrt(np.maximum((self.gain * self.gain * var * n).sum(axis=-1), 1e-12))
        self.tints = tint((mean + offset).astype(np.float32))
        """(shifts, 2): each crop's `tint`."""

    def scores(self, planes: np.ndarray) -> np.ndarray:
        """(shifts,): each crop against one template ((3, h, w): `unit_planes`), as
        `crop_scores` scores them, by OpenCV's template matching of each channel."""
        dot = np.stack(
            [
                cv2.matchTemplate(xc, np.ascontiguousarray(planes[c], np.float32), cv2.TM_CCORR)
                for c, xc in enumerate(self.channels)
            ],
            axis=-1,
        ).reshape(-1, 3)
        return (dot * self.gain).sum(axis=-1) / self.norm


def template_scores(region: np.ndarray, planes: np.ndarray) -> Correlated:
    """`crop_scores` of one region ((Hr, Wr, 3) Lab) against one template ((3, h, w):
    `unit_planes`), the same numbers ((1, shifts, 1) scores, (1, shifts, 2) tints) from
    OpenCV's template matching (`Crops`) without copying every crop out, a fraction of the
    time (a body look at a row's end, `TableReader.body_score`)."""
    crops = Crops(region, *planes.shape[1:])
    return Correlated(crops.scores(planes)[None, :, None], crops.tints[None])


def unit_planes(descriptors: np.ndarray) -> np.ndarray:
    """Descriptors (T, h, w, 3) as unit-length channel planes (T, 3, h, w), as
    `correlations` and `crop_scores` want them."""
    flat = descriptors.reshape(len(descriptors), -1)
    unit = flat / np.maximum(1e-6, np.linalg.norm(flat, axis=1, keepdims=True))
    return np.ascontiguousarray(unit.reshape(descriptors.shape).transpose(0, 3, 1, 2))


def _unit(v: np.ndarray) -> np.ndarray:
    """Zero-mean, unit-length along the last axis (a normalised correlation's operands)."""
    v = v - v.mean(axis=-1, keepdims=True)
    return v / np.maximum(1e-6, np.linalg.norm(v, axis=-1, keepdims=True))


@dataclass(frozen=True)
class SymbolPair:
    """Two Location types of one colour, compared on their symbol only: the pixels where
    their corners differ in one Lab channel (the symbol; the colour and the rest of the design
    are what they share), each template's channel there as a unit vector. The channel is the
    lightness unless the symbols hardly differ in it (`TableReader` chooses)."""

    mask: np.ndarray
    """(PATCH_H, PATCH_W) bool."""
    a: np.ndarray
    b: np.ndarray
    reach: float
    """1 less the two templates' own correlation there: the most a crop can lead one of them
    on the other (a crop equal to `a` leads `b` by this). Whatever the two share inside the
    mask (a stripe of the background, an inked edge, a badge's rim) takes part of every
    correlation, so a raw lead is measured against this."""
    channel: int = 0
    """The Lab channel compared (0 lightness, 1 and 2 chroma): a symbol printed in a colour
    about as light as the badge or paper under it shows in its chroma only."""
    ab: np.ndarray = field(init=False, repr=False, compare=False)
    """`a` and `b` side by side (n, 2): both scores from one product."""
    gather: dict[tuple[int, int], np.ndarray] = field(default_factory=dict, compare=False)
    """For a region's (height, width): the flat indices of the symbol pixels at every shift,
    made once (a read looks at every Location this way)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "ab", np.stack([self.a, self.b], axis=1))


def symbol_pair(template_a: np.ndarray, template_b: np.ndarray, channel: int = 0) -> SymbolPair:
    """From two descriptors (PATCH_H, PATCH_W, 3): their `channel` (the lightness unless
    told) differs where the symbols do."""
    la, lb = (
        _unit(t[..., channel].reshape(-1)).reshape(t.shape[:2]) for t in (template_a, template_b)
    )
    d = np.abs(la - lb)
    mask = d >= SYMBOL_SHARE * d.max()
    mask = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    a, b = _unit(template_a[..., channel][mask]), _unit(template_b[..., channel][mask])
    return SymbolPair(mask, a, b, max(1e-3, 1.0 - float(a @ b)), channel)


def symbol_scores(region_l: np.ndarray, pair: SymbolPair) -> tuple[float, float]:
    """Normalised correlation of one Lab channel of a region (the corner's size plus a
    margin; the pair's `channel`) with each type of `pair`, on the pair's symbol pixels only:
    the best over the shifts the region allows. Shape, not colour: the two share their
    colour."""
    rh, rw = region_l.shape
    idx = pair.gather.get((rh, rw))
    if idx is None:
        h, w = pair.mask.shape
        ys, xs = np.nonzero(pair.mask)
        shifts = (np.arange(rh - h + 1)[:, None] * rw + np.arange(rw - w + 1)).ravel()
        idx = pair.gather[rh, rw] = shifts[:, None] + (ys * rw + xs)
    # `pair.a` and `pair.b` are zero-mean: a crop's mean drops out of its products with them,
    # and its length divides the two scores, not its pixels.
    x = np.ascontiguousarray(region_l).ravel()[idx]
    x -= x.sum(axis=-1, keepdims=True) / idx.shape[1]  # its mean (np.mean's own sum)
    length = np.maximum(1e-6, np.sqrt(np.einsum("ij,ij->i", x, x)))
    scores = (x @ pair.ab) / length[:, None]
    return float(scores[:, 0].max()), float(scores[:, 1].max())


JOINT_WEIGHTS = CHANNEL_WEIGHTS * np.array([100 / 255, 1.0, 1.0], np.float32)
"""Lab weights of `joint_unit`: OpenCV's 8-bit lightness back to L* (it stores L* x 2.55, which
would drown the chroma), then the descriptor's own weights."""


def joint_unit(lab: np.ndarray) -> np.ndarray:
    """(..., h, w, 3) Lab -> (..., h * w * 3): less each channel's own mean, unit length over
    the three channels together. Unlike `library.descriptor` (each channel scaled to unit
    spread) it keeps how far the lightness and the chroma change against each other: a red
    frame or symbol on paper and a brown one have the same pattern in every channel, so only
    their ratio tells the two apart. A brighter or dimmer lamp scales all three alike (Lab's
    cube root), and a colour cast moves the means, which are taken out."""
    lead = lab.shape[:-3]
    flat = lab.reshape(*lead, -1, 3)
    flat = ((flat - flat.mean(axis=-2, keepdims=True)) * JOINT_WEIGHTS).reshape(*lead, -1)
    return flat / np.maximum(1e-6, np.linalg.norm(flat, axis=-1, keepdims=True))


def colour_scores(region: np.ndarray, *templates: np.ndarray) -> tuple[float, ...]:
    """The `joint_unit` cosine of a region (Lab, the corner's size plus a margin) with each
    template (`joint_unit` of their patches), each at its best shift the region allows. The
    region's crops are made once for all of them (they cost far more than the products)."""
    return weighted_colour_scores(region, np.stack([joint_weighted(t) for t in templates], 1))


def joint_weighted(template: np.ndarray) -> np.ndarray:
    """A `joint_unit` template (h * w * 3) times `JOINT_WEIGHTS` channel by channel, as
    `weighted_colour_scores` takes it (a reader makes its types' once per deck)."""
    return (template.reshape(-1, 3) * JOINT_WEIGHTS).reshape(-1)


def weighted_colour_scores(region: np.ndarray, weighted: np.ndarray) -> tuple[float, ...]:
    """`colour_scores` of a region with templates already `joint_weighted`, side by side
    ((h * w * 3, k))."""
    h, w = PATCH_H, PATCH_W
    n = h * w
    # As `crop_scores` does: the region less its own mean (sums of squares stay exact in
    # float32), each crop's own mean then drops out of its product with a template zero-mean
    # per channel, and its `joint_unit` length comes from its channels' sums.
    # Sums over pixels as products with ones: a reduction over a middle axis costs ten times
    # more.
    pixels = region.reshape(-1, 3)
    x = region - np.ones(len(pixels), np.float32) @ pixels / len(pixels)
    crops = windows_of(x, h, w).transpose(0, 1, 3, 4, 2)
    crops = crops.reshape(-1, n, 3)  # (shifts, h * w, 3), copied out once
    ones = np.ones(n, np.float32)
    total = ones @ crops
    spread = np.maximum(ones @ (crops * crops) - total * total / n, 0.0)
    norm = np.sqrt(np.maximum((JOINT_WEIGHTS**2 * spread).sum(axis=-1), 1e-12))
    dots = crops.reshape(len(crops), n * 3) @ weighted
    return tuple(float(v) for v in (dots / norm[:, None]).max(axis=0))


def _sure(m: Match) -> bool:
    """A place that holds a card for certain: not empty, and scoring `END_SURE` (what a row's
    last card must reach: the place after a row's last card, its body, scores under it)."""
    return not m.empty and m.score >= END_SURE


def _bridge(seen: list[Match], k: int, gap_max: int) -> int | None:
    """How many places from `k` (an empty place) a row bridges: the fewest `g` up to `gap_max`
    followed by a sure card (`_sure`) and then a card (not empty), or one when the place looked
    something like a card (`COARSE_EMPTY`) and a sure card follows it; 0 when none can (the
    row ends); None when the places read so far leave it open (the next place is wanted). Past
    a row's end the places after its last card's body show bare table: a sure card there is a
    card, and the card after it guards against one glint on the table. That card may be the
    row's last, under `END_SURE` (`ended` still drops it if it is the sure card's body)."""
    options = [(1, 1)] if seen[k].coarse >= COARSE_EMPTY else []
    options += [(g, 2) for g in range(1, gap_max + 1)]
    open_ = False
    for g, need in options:
        after = seen[k + g : k + g + need]
        if not all(_sure(a) if j == 0 else not a.empty for j, a in enumerate(after)):
            continue
        if len(after) == need:
            return g
        open_ = True
    return None if open_ else 0


def row_of(seen: list[Match], bare_gaps: bool = True) -> tuple[list[Match], bool]:
    """The cards of a row (or a fan, or the Doors) from its places read so far, in order, and
    whether the row has ended. It ends at its first empty place, unless the cards after that
    place say the row goes on: a row has no gaps, so the place holds a card, named from the
    lower bar such a place allows (`Match.held`, `HELD_SURE`) or else kept unnamed, and the
    cards after it are read. A place that looked something like a card
    (its half-scale score reached `COARSE_EMPTY`: a smudge, a glint) is bridged by one card
    after it that reaches `END_SURE`. With `bare_gaps` (the labyrinth), any run of up to
    `ROW_GAP` places that are not sure cards, starting at an empty one (a glare over one, two
    or three corners, whatever each then looks like), is bridged by a sure card and another
    card after it (`_bridge`): the place after a row's last card shows that card's body and
    the next ones bare table. Without `bare_gaps` (the fans and the Doors: short rows, where a
    look past every row's end costs a window a row) a place that looked like no card ends
    the row. Not ended: the next place is wanted."""
    row: list[Match] = []
    k = 0
    while k < len(seen):
        m = seen[k]
        if not m.empty:
            row.append(m)
            k += 1
            continue
        if bare_gaps:
            gap = _bridge(seen, k, ROW_GAP)
        elif m.coarse < COARSE_EMPTY:
            gap = 0
        else:
            gap = _bridge(seen, k, 0)
        if gap is None:
            return row, False
        if gap == 0:
            return row, True
        row += [replace(g, card=g.held_card()) if g.empty else g for g in seen[k : k + gap]]
        k += gap
    return row, False


def next_places(seen: list[Match], chunk: int) -> int:
    """How many places of a row that goes on (`row_of`) to look at next: one when one of the
    last two places seen is empty, as that one place then ends the row or says it goes on
    (every place looked at past a row's end costs about as much as a card); else `chunk`."""
    return 1 if any(m.empty for m in seen[-2:]) else chunk


def symbol_holds(kept: float | None, sharp: float | None) -> bool:
    """A symbol lead checked further (`TableReader._symbol_kept`) still names its type: it
    keeps `SYMBOL_KEEP` of its lead a few pixels off, and its pairs reach `SYMBOL_SHARP` at
    the picture's blur."""
    return kept is not None and kept >= SYMBOL_KEEP and sharp is not None and sharp >= SYMBOL_SHARP


def chroma_holds(chroma: float | None) -> bool:
    """Whether a symbol name stands against `TableReader.chroma_lead`'s word: no chroma
    channel tells the pair apart (None), or none shows the other symbol past
    `SYMBOL_CHROMA_LEAD`."""
    return chroma is None or chroma >= SYMBOL_CHROMA_LEAD


def ended(row: list[Match]) -> list[Match]:
    """`row` (in place) without its last cards while they score below `END_SURE`, or while
    their type rests on a symbol that hardly shows (`END_SYMBOL_FIT`): the place after a row's
    last card shows that card's body, which on some designs scores as a corner of its colour,
    and a symbol look over plain body then names a type by noise."""
    while row and (
        (row[-1].score - row[-1].lift < END_SURE and not row[-1].shown)
        or (row[-1].symbol_fit is not None and row[-1].symbol_fit < END_SYMBOL_FIT)
    ):
        row.pop()
    return row


class TableReader:
    """Reads pictures of one table with one taught deck."""

    def __init__(self, library: Library, layout: TableLayout | None = None) -> None:
        self.lib = library
        self.layout = layout or load_layout()
        L = self.layout
        self.registrar = TableRegistrar(
            TableSettings(
                corner_ids=L.corner_ids,
                marker_size_mm=L.marker_side_mm,
                width_mm=L.size_mm[0],
                height_mm=L.size_mm[1],
            )
        )
        x0, _, x1, _ = L.identify_mm
        self.px_per_mm = PATCH_W / (x1 - x0)
        self.search_px = round(L.search_mm * self.px_per_mm)
        # The templates at both scales and every type's tint, made once per deck (not per
        # frame).
        self.fine = unit_planes(library.templates)
        half, tints = [], []
        for p in library.patches:
            small = cv2.resize(p, (PATCH_W // 2, PATCH_H // 2), interpolation=cv2.INTER_AREA)
            half.append(descriptor(small))
            lab = cv2.cvtColor(p, cv2.COLOR_BGR2LAB).astype(np.float32)
            tints.append(tint(lab.reshape(-1, 3).mean(axis=0)))
        self.coarse = ShiftedTemplates(unit_planes(np.stack(half)))
        self.tints = np.stack(tints)
        labs = [
            cv2.GaussianBlur(cv2.cvtColor(p, cv2.COLOR_BGR2LAB).astype(np.float32), (3, 3), 0.7)
            for p in library.patches
        ]
        self.joint = joint_unit(np.stack(labs))
        """Each type's patch for `colour_scores`, blurred as a read's windows are."""
        self.joint_weighted = np.ascontiguousarray(
            np.stack([joint_weighted(t) for t in self.joint], axis=1)
        )
        """`joint` `joint_weighted`, one type a column (h * w * 3, types): made once."""
        self.lightness = np.array([float(lab[..., 0].mean()) for lab in labs])
        """Each type's taught mean lightness (OpenCV's 8-bit L), as a read's windows are
        blurred (`Match.light`)."""
        ids = library.ids
        self.index = {c: i for i, c in enumerate(ids)}
        self.zones = {
            "location": [
                i for i, c in enumerate(ids) if not c.startswith("mirror-") and is_location(c)
            ],
            "door": [i for i, c in enumerate(ids) if is_door(c)],
            "discard": [
                i for i, c in enumerate(ids) if not c.startswith("mirror-") and not is_door(c)
            ],
        }
        # The layout lays the Mirror cards in deck.toml's order, so a Mirror place holds
        # one Mirror card, either side up, or nothing.
        self.mirror_order = list(ENGINE.deck.mirrors)
        for mid in self.mirror_order:
            self.zones[f"mirror-{mid}"] = [
                i for i, c in enumerate(ids) if c in (f"mirror-{mid}", f"mirror-{mid}-explored")
            ]
        self.location_colour: list[str | None] = [
            colour_of(c) if i in self.zones["location"] else None for i, c in enumerate(ids)
        ]
        """Each type's colour if it is a Location, else None."""
        self.colour_kinds: dict[str, tuple[str, ...]] = {}
        for i in self.zones["location"]:
            c = colour_of(ids[i])
            self.colour_kinds[c] = (*self.colour_kinds.get(c, ()), ids[i])
        locations = self.zones["location"]
        self.level = deck_level(library.patches[locations], self.fine[locations])
        """`deck_level` of this deck."""
        self.lift = min(LIFT_MAX, LIFT_GAIN * max(0.0, LEVEL_REF - self.level))
        """Added to every score of a place that is not a Mirror's (the corners and the bodies
        of this deck's Locations, Doors and Nightmares) before any bar: a deck of fine print
        (`deck_level` under `LEVEL_REF`) scores lower on every table, and its bars are
        lowered with it. The leads (`MARGIN`, the colour and symbol looks) are unchanged."""
        self._blurred: dict[tuple[int, float, int], np.ndarray] = {}
        self._bodies: dict[tuple[int, float, float], tuple[np.ndarray, np.ndarray]] = {}
        self._sharp: dict[tuple[int, int, float, int], float] = {}
        self._crops: dict[Point, Crops] | None = None
        """While `read` runs: each place's window as `body_score` measured it (`Crops`), as a
        fan's last card is looked at against its Mirror's body and the card's before it."""
        self._windows: dict[Point, np.ndarray] = {}
        """While `read` runs: each place's `corner_window` as `match` was given it, which
        `body_score` looks at again."""
        self._floor: dict[tuple[int, int], float] = {}
        self._chroma_pairs: dict[tuple[int, int, int], SymbolPair] = {}
        """`chroma_lead`'s pairs, made once."""
        # Same-colour Location pairs, told apart by their symbol: made once per deck.
        self.symbol_pairs: dict[tuple[int, int], SymbolPair] = {}
        for i in self.zones["location"]:
            for j in self.zones["location"]:
                if i < j and colour_of(ids[i]) == colour_of(ids[j]):
                    self.symbol_pairs[i, j] = self._symbol_pair(i, j)
        # Batches sorted by zone: the Mirrors, the Doors, then the discard pile next to the
        # labyrinth and fans, whose types it shares.
        self.zone_rank = {
            z: k
            for k, z in enumerate(
                [*(f"mirror-{mid}" for mid in self.mirror_order), "door", "discard", "location"]
            )
        }

    # -- stages ----------------------------------------------------------------------

    def locate(
        self, image: np.ndarray, markers: dict[int, Marker] | None = None
    ) -> np.ndarray | None:
        """Table mm -> image px, or None when too few corner markers are seen. `markers`: the
        frame's markers when the live loop's registration has already found them (detection
        costs more than the rest of a read). A picture alone has its corner markers looked for
        on a half-size copy and their corners refined on the full picture (`find_markers`, as
        Reflecto and Mirror Mansion do): a quarter of a full-size detection's pixels, and at
        full size after all when one of them is not found so."""
        if markers is None:
            ids = self.layout.corner_ids
            markers = find_markers(image, ids, len(ids))
        fit = self.registrar.fit(markers)
        return None if fit is None else np.linalg.inv(fit.H)

    def corner_window(
        self, image: np.ndarray, H_image_from_table: np.ndarray, place: Point
    ) -> np.ndarray:
        """BGR of the identifying corner of a card at `place`, with the search margin on
        every side, at the library's patch scale."""
        x0, y0, _, _ = self.layout.identify_mm
        s, m = self.px_per_mm, self.search_px
        ox, oy = place[0] + x0 - m / s, place[1] + y0 - m / s
        to_mm = np.array([[1 / s, 0, ox + 0.5 / s], [0, 1 / s, oy + 0.5 / s], [0, 0, 1]])
        size = (PATCH_W + 2 * m, PATCH_H + 2 * m)
        return cv2.warpPerspective(
            image,
            H_image_from_table @ to_mm,
            size,
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )

    def match(self, windows: list[np.ndarray], zone: str | list[str]) -> list[Match]:
        """Which card type lies at each window (BGR from `corner_window`); `zone` for all of
        them, or one zone per window. Each window is compared with its own zone's types
        only, the whole batch at once: the windows sorted by zone, so that each template's
        windows (a zone's, or the labyrinth's and the discard pile's) lie in one run."""
        zones = [zone] * len(windows) if isinstance(zone, str) else list(zone)
        if not windows:
            return []
        order = sorted(range(len(windows)), key=lambda b: self.zone_rank[zones[b]])
        found = self._match_sorted([windows[b] for b in order], [zones[b] for b in order])
        out: list[Match | None] = [None] * len(windows)
        for b, m in zip(order, found, strict=True):
            out[b] = m
        return [m for m in out if m is not None]

    def _match_sorted(self, windows: list[np.ndarray], zones: list[str]) -> list[Match]:
        ids = self.lib.ids
        B = len(windows)
        H, W = windows[0].shape[:2]
        used = sorted({i for z in zones for i in self.zones[z]})
        if not used:
            return [Match(None, -1.0, 0.0, "", None) for _ in windows]
        column = {i: j for j, i in enumerate(used)}
        wanted = np.zeros((B, len(used)), bool)
        for b, z in enumerate(zones):
            wanted[b, [column[i] for i in self.zones[z]]] = True
        bgr = np.vstack(windows)
        lab = cv2.GaussianBlur(cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32), (3, 3), 0.7)
        labs = lab.reshape(B, H, W, 3)
        small = cv2.resize(bgr, (W // 2, H // 2 * B), interpolation=cv2.INTER_AREA)
        small_lab = cv2.GaussianBlur(
            cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32), (3, 3), 0.7
        ).reshape(B, H // 2, W // 2, 3)
        c = correlations(small_lab, self.coarse, used, wanted)
        coarse = c.scores - TINT_WEIGHT * tint_distance(
            c.tints[:, :, None], self.tints[used]
        )  # (B, shifts, used); -inf where not wanted
        # The deck's lift (`lift`) on every place but the Mirrors' (their faces are not
        # what `deck_level` measures).
        lifts = np.array([0.0 if z.startswith("mirror-") else self.lift for z in zones], np.float32)
        coarse = coarse + lifts[:, None, None]
        per_type = coarse.max(axis=1)
        best_at = coarse.max(axis=2).argmax(axis=1)
        ranked = np.argsort(-per_type, axis=1, kind="stable")
        nx = W // 2 - PATCH_W // 2 + 1
        r = FINE_REACH
        out: list[Match | None] = [None] * B
        # The windows looked at closely, grouped by how many finalists they have (a Mirror
        # place has two types).
        closer: dict[int, list[tuple[int, list[int], np.ndarray, tuple[int, int]]]] = {}
        for b in range(B):
            kinds = int(wanted[b].sum())
            if kinds == 0:
                out[b] = Match(None, -1.0, 0.0, "", None)
                continue
            top = float(per_type[b, ranked[b, 0]])
            if top < COARSE_EMPTY:  # nothing like a card: no closer look
                runner = ids[used[ranked[b, 1]]] if kinds > 1 else None
                out[b] = Match(
                    None, top, 0.0, ids[used[ranked[b, 0]]], runner, top, lift=float(lifts[b])
                )
                continue
            at = int(best_at[b])
            cy, cx = 2 * (at // nx), 2 * (at % nx)
            y0 = min(max(0, cy - r), H - PATCH_H - 2 * r)
            x0 = min(max(0, cx - r), W - PATCH_W - 2 * r)
            keep = [used[j] for j in ranked[b, : min(FINALISTS, kinds)]]
            keep += self._another_colour(keep, [used[j] for j in ranked[b, len(keep) : kinds]])
            region = labs[b, y0 : y0 + PATCH_H + 2 * r, x0 : x0 + PATCH_W + 2 * r]
            closer.setdefault(len(keep), []).append((b, keep, region, (cy, cx)))
        for group in closer.values():
            keeps = [keep for _, keep, _, _ in group]
            fc = crop_scores(np.stack([reg for _, _, reg, _ in group]), self.fine[keeps])
            dt = tint_distance(fc.tints[:, :, None], self.tints[keeps][:, None])
            fine = (fc.scores - TINT_WEIGHT * dt).max(axis=1)  # (group, finalists)
            fine = fine + lifts[[b for b, _, _, _ in group]][:, None]
            for (b, keep, region, (cy, cx)), row in zip(group, fine, strict=True):
                o = np.argsort(-row, kind="stable")
                score = float(row[o[0]])
                second = float(row[o[1]]) if len(o) > 1 else -1.0
                first_id = keep[o[0]]
                runner_id = keep[o[1]] if len(o) > 1 else None
                coarse_best = float(per_type[b, ranked[b, 0]])
                kin = (
                    []
                    if runner_id is None
                    else [
                        keep[j]
                        for j in o
                        if keep[j] == first_id
                        or (min(first_id, keep[j]), max(first_id, keep[j])) in self.symbol_pairs
                    ]
                )
                # On the discard pile a card under its top one may show a corner, and the
                # symbol alone would name it: the whole corner decides, unless its first type
                # leads the other of its colour by less than `DISCARD_SYMBOL_BELOW` (a Key and
                # the Sun of its colour); the symbol look then decides, and must agree with
                # the whole corner's first type.
                on_discard = zones[b] == "discard"
                if on_discard and not (runner_id in kin and score - second < DISCARD_SYMBOL_BELOW):
                    kin = []
                colour_lead = self._colour_lead(row, keep, o)
                look, beaten = self._colour_look(region, keep, o)
                # Another colour's finalist the colour look puts clearly below is no rival; a
                # colour the look clearly puts below another is not named.
                refuted = look is not None and look <= -COLOUR_MARGIN
                rivals = [float(row[j]) for j in o[1:] if keep[j] not in beaten]
                if len(kin) < 2:
                    rival = rivals[0] if rivals else -1.0
                    # The pile's bar falls with the deck's lift by `DISCARD_LIFT_MAX` at most.
                    floor = (
                        DISCARD_SURE + max(0.0, float(lifts[b]) - DISCARD_LIFT_MAX)
                        if on_discard
                        else SURE
                    )
                    lead_ok = score - rival >= MARGIN and not refuted
                    sure = score >= floor and lead_ok
                    held = ids[first_id] if score >= HELD_SURE and lead_ok else None
                    light = None
                    if runner_id is not None and zones[b].startswith("mirror-"):
                        light = self._light_lead(region, first_id, runner_id)
                    named = ids[first_id] if sure else None
                    runner = None if runner_id is None else ids[runner_id]
                    out[b] = Match(
                        named,
                        score,
                        score - second,
                        ids[first_id],
                        runner,
                        coarse_best,
                        colour_lead=colour_lead,
                        colour_look=look,
                        held=held,
                        light=light,
                        lift=float(lifts[b]),
                    )
                    continue
                # Locations of one colour lead (a Sun and a Key, say, or all three): their
                # symbol decides, and they must lead any other type as a single type must
                # lead the rest.
                best_id, other_id, lead, shows = self.by_symbol(region, kin)
                own = float(row[keep.index(best_id)])
                outside = [float(row[j]) for j in o if keep[j] not in {*kin, *beaten}]
                rest = outside[0] if outside else -1.0
                colour_held = score >= HELD_SURE and score - rest >= MARGIN and not refuted
                colour_sure = colour_held and score >= SURE
                kept = sharp = None
                # A whole corner that hardly told its first type from the runner-up asks
                # more of the symbol (`SYMBOL_TIE`).
                lead_ok = lead >= symbol_margin(score - second)
                if colour_sure and lead_ok:
                    kept, sharp = self._symbol_kept(labs[b], cy, cx, kin, best_id, lead)
                symbol_sure = symbol_holds(kept, sharp)
                # A whole corner in doubt: the chroma must not show the other symbol.
                chroma = None
                if symbol_sure and score - second < SYMBOL_CHROMA_BELOW:
                    chroma = self.chroma_lead(region, best_id, other_id)
                    symbol_sure = chroma_holds(chroma)
                # The type the symbol names must be a card at all on its own whole corner, as
                # a type named without its symbol must: the colour's first finalist reaching
                # `SURE` says the colour, not that corner.
                sure = colour_sure and own >= SURE and symbol_sure
                if on_discard:  # the symbol look must name the whole corner's first type
                    sure = sure and best_id == first_id
                held = colour_held and own >= HELD_SURE and symbol_sure
                # Under `SURE` the place is named only if a row bridges it (mostly it lies
                # past a row's end): its symbol check is made then, if ever.
                hold = None
                if colour_held and not colour_sure and own >= HELD_SURE and lead_ok:
                    hold = cache(
                        partial(
                            self._held_by_symbol,
                            labs[b],
                            cy,
                            cx,
                            kin,
                            best_id,
                            lead,
                            region if score - second < SYMBOL_CHROMA_BELOW else None,
                            other_id,
                        )
                    )
                out[b] = Match(
                    ids[best_id] if sure else None,
                    own,
                    score - second,
                    ids[best_id],
                    ids[other_id],
                    coarse_best,
                    lead,
                    score - own,
                    self.colour_kinds[colour_of(ids[best_id])] if colour_sure and not sure else (),
                    shows,
                    colour_lead,
                    look,
                    kept,
                    sharp,
                    ids[best_id] if held else None,
                    lift=float(lifts[b]),
                    hold=hold,
                    symbol_chroma=chroma,
                )
        return [m for m in out if m is not None]

    def _held_by_symbol(
        self,
        window: np.ndarray,
        cy: int,
        cx: int,
        kin: list[int],
        named: int,
        lead: float,
        doubt: np.ndarray | None = None,
        other: int = -1,
    ) -> str | None:
        """`named` if its symbol check holds (`symbol_holds`), for a place a row bridges whose
        colour and own score cleared `HELD_SURE` (`Match.hold`); where the whole corner hardly
        led, its crop `doubt` (`SYMBOL_CHROMA_BELOW`) must not show `other` in the chroma."""
        kept, sharp = self._symbol_kept(window, cy, cx, kin, named, lead)
        if not symbol_holds(kept, sharp):
            return None
        if doubt is not None and not chroma_holds(self.chroma_lead(doubt, named, other)):
            return None
        return self.lib.ids[named]

    def chroma_lead(self, region: np.ndarray, named: int, other: int) -> float | None:
        """`named`'s least lead on `other` in the region (Lab) in each chroma channel the pair
        is not compared in by the symbol look, where that channel's own pair reaches
        `SYMBOL_CHROMA_REACH` (as a share of its reach); None when no channel does."""
        lo, hi = min(named, other), max(named, other)
        least: float | None = None
        for channel in (1, 2):
            if channel == self.symbol_pairs[lo, hi].channel:
                continue
            pair = self._chroma_pairs.get((lo, hi, channel))
            if pair is None:
                T = self.lib.templates
                pair = self._chroma_pairs[lo, hi, channel] = symbol_pair(T[lo], T[hi], channel)
            if pair.reach < SYMBOL_CHROMA_REACH:
                continue
            a, b = symbol_scores(np.ascontiguousarray(region[..., channel]), pair)
            v = (a - b if named == lo else b - a) / pair.reach
            least = v if least is None else min(least, v)
        return least

    def _symbol_pair(self, i: int, j: int) -> SymbolPair:
        """Types i < j compared on their symbol: in the lightness, unless the two symbols can
        hardly differ there at some blur (`sharp_floor` below `SYMBOL_SHARP`, where a card
        they name would be asked) and they differ more in a chroma channel (the most of its
        own least reach over the blur steps): a symbol printed in the card's colour on a badge
        or paper about as light shows in its chroma only (a development deck's red, blue and
        green pairs reached 0.01-0.04 in the lightness, 0.39-1.30 in either chroma channel)."""
        T = self.lib.templates
        best = self.symbol_pairs[i, j] = symbol_pair(T[i], T[j])
        floor = self.sharp_floor(i, j)
        if floor >= SYMBOL_SHARP:
            return best
        for channel in (1, 2):
            self.symbol_pairs[i, j] = symbol_pair(T[i], T[j], channel)
            self._floor.pop((i, j))
            if self.sharp_floor(i, j) > floor:
                best, floor = self.symbol_pairs[i, j], self.sharp_floor(i, j)
        self.symbol_pairs[i, j] = best
        self._floor[i, j] = floor
        return best

    def _light_lead(self, region: np.ndarray, named: int, other: int) -> float:
        """How far a region's (Lab) mean lightness lies nearer type `named`'s taught lightness
        than `other`'s, as a share of theirs apart (`Match.light`)."""
        mean = float(region[..., 0].mean())
        a, b = float(self.lightness[named]), float(self.lightness[other])
        return (abs(mean - b) - abs(mean - a)) / max(abs(a - b), 1.0)

    def _another_colour(self, keep: list[int], rest: list[int]) -> list[int]:
        """The best of `rest` (ranked) that is not a Location of the finalists' colour, when
        every finalist is a Location of one colour (else none): a colour's three types often
        lead the half-scale look together, and a colour is named only once it leads another
        colour at full scale (the whole corner and the colour look), as a named type leads the
        rest. Without it a red Sun whose corner the brown Sun, Key and Moon led was named
        brown on its score alone."""
        colours = {self.location_colour[k] for k in keep}
        if len(colours) != 1 or None in colours:
            return []
        mine = colours.pop()
        return next(([k] for k in rest if self.location_colour[k] != mine), [])

    def _symbol_kept(
        self, window: np.ndarray, cy: int, cx: int, kin: list[int], named: int, lead: float
    ) -> tuple[float, float]:
        """The share of `named`'s symbol lead (`lead`) it keeps when the symbol look reaches
        `SYMBOL_CHECK_REACH` pixels either way of the crop at (cy, cx) in the window (Lab):
        its least lead on another of `kin` there, below 0 when one leads it; and the least
        reach of its pairs at the picture's blur there (`sharp_reach`)."""
        H, W = window.shape[:2]
        rs = SYMBOL_CHECK_REACH
        y0 = min(max(0, cy - rs), H - PATCH_H - 2 * rs)
        x0 = min(max(0, cx - rs), W - PATCH_W - 2 * rs)
        wide = window[y0 : y0 + PATCH_H + 2 * rs, x0 : x0 + PATCH_W + 2 * rs]
        # Only the named type's pairs: its least lead there (below 0 when another leads).
        vs, _ = self._symbol_leads(wide)
        others = [other for other in kin if other != named]
        least = min(vs(named, other) for other in others)
        # Pairs that differ enough however blurred the picture is (most decks' symbols) need
        # not have the blur found: their least reach over every blur step is what is kept.
        sharp = min(self.sharp_floor(named, other) for other in others)
        if sharp < SYMBOL_SHARP:
            blur = self.blur_of(np.ascontiguousarray(wide[..., 0]), named)
            sharp = min(self.sharp_reach(named, other, blur) for other in others)
        return least / max(lead, 1e-6), sharp

    def sharp_floor(self, x: int, y: int) -> float:
        """The least `sharp_reach` of the pair x, y over every `BLUR_STEPS` sigma (made once:
        every card named by its symbol asks it of its pairs)."""
        lo, hi = min(x, y), max(x, y)
        got = self._floor.get((lo, hi))
        if got is None:
            got = self._floor[lo, hi] = min(self.sharp_reach(lo, hi, s) for s in BLUR_STEPS)
        return got

    def blur_of(self, region_l: np.ndarray, kind: int) -> float:
        """How much more blurred than its taught corner the card `kind` is in a region's
        lightness (the corner's size plus a margin): the `BLUR_STEPS` sigma whose blurred
        template fits it best (normalised correlation, at its best shift)."""
        fits = [
            float(
                cv2.matchTemplate(
                    region_l, self._blurred_plane(kind, s), cv2.TM_CCOEFF_NORMED
                ).max()
            )
            for s in BLUR_STEPS
        ]
        return BLUR_STEPS[int(np.argmax(fits))]

    def _blurred_plane(self, kind: int, sigma: float, channel: int = 0) -> np.ndarray:
        """A type's taught channel (its descriptor's; the lightness unless told), blurred by
        `sigma` (made once)."""
        got = self._blurred.get((kind, sigma, channel))
        if got is None:
            plane = np.ascontiguousarray(self.lib.templates[kind][..., channel], dtype=np.float32)
            got = plane if sigma == 0 else cv2.GaussianBlur(plane, (0, 0), sigma)
            self._blurred[kind, sigma, channel] = got
        return got

    def sharp_reach(self, x: int, y: int, sigma: float) -> float:
        """The reach of the symbol pair x, y (`SymbolPair.reach`) with both templates blurred
        by `sigma`: 1 less their correlation on the pair's symbol pixels (made once)."""
        lo, hi = min(x, y), max(x, y)
        pair = self.symbol_pairs[lo, hi]
        got = self._sharp.get((lo, hi, sigma, pair.channel))
        if got is None:
            a, b = (_unit(self._blurred_plane(k, sigma, pair.channel)[pair.mask]) for k in (lo, hi))
            got = self._sharp[lo, hi, sigma, pair.channel] = max(1e-3, 1.0 - float(a @ b))
        return got

    def _colour_lead(self, row: np.ndarray, keep: list[int], order: np.ndarray) -> float | None:
        """The first finalist's lead on the best finalist of another colour, when the first
        is a Location and another colour is among the finalists."""
        ids = self.lib.ids
        first = ids[keep[order[0]]]
        if not is_location(first) or first.startswith("mirror-"):
            return None
        for j in order[1:]:
            other = ids[keep[j]]
            if is_location(other) and colour_of(other) != colour_of(first):
                return float(row[order[0]] - row[j])
        return None

    def _colour_look(
        self, region: np.ndarray, keep: list[int], order: np.ndarray
    ) -> tuple[float | None, set[int]]:
        """When the first finalist is a Location or a Door and another colour is among the
        finalists: its colour's least lead on theirs by `colour_scores` (its own kind in
        each colour), and the other colours' finalists that lead beats by `COLOUR_MARGIN`."""
        ids = self.lib.ids
        first = ids[keep[order[0]]]
        if first.startswith("mirror-") or not (is_location(first) or is_door(first)):
            return None, set()
        mine = colour_of(first)
        others = [
            keep[j]
            for j in order[1:]
            if (is_location(ids[keep[j]]) or is_door(ids[keep[j]]))
            and colour_of(ids[keep[j]]) != mine
        ]
        # Each other colour's twin of the first (that type taught: else nothing to compare).
        twins: dict[str, int] = {}
        for k in others:
            theirs = colour_of(ids[k])
            twin = self.index.get(
                f"door-{theirs}" if is_door(first) else f"{theirs}-{symbol_of(first)}"
            )
            if twin is not None:
                twins.setdefault(theirs, twin)
        if not twins:
            return None, set()
        mine_score, *their_scores = weighted_colour_scores(
            region, self.joint_weighted[:, [keep[order[0]], *twins.values()]]
        )
        leads = {c: mine_score - v for c, v in zip(twins, their_scores, strict=True)}
        least: float | None = None
        beaten: set[int] = set()
        for k in others:
            lead = leads.get(colour_of(ids[k]))
            if lead is None:
                continue
            least = lead if least is None else min(least, lead)
            if lead >= COLOUR_MARGIN:
                beaten.add(k)
        return least, beaten

    def _symbol_leads(
        self, region: np.ndarray
    ) -> tuple[Callable[[int, int], float], dict[tuple[int, int], float]]:
        """x's symbol lead on y in the region (Lab: each pair's `channel`) as a share of the
        pair's `reach` (each pair compared once): 1 for a crop just like x, -1 for one just like
        y; and the scores of the pairs compared so far ((x, y): x's correlation in the pair
        x, y)."""
        score: dict[tuple[int, int], float] = {}
        planes: dict[int, np.ndarray] = {}  # each channel copied out once

        def vs(x: int, y: int) -> float:
            lo, hi = min(x, y), max(x, y)
            pair = self.symbol_pairs[lo, hi]
            if (x, y) not in score:
                plane = planes.get(pair.channel)
                if plane is None:
                    plane = planes[pair.channel] = np.ascontiguousarray(region[..., pair.channel])
                score[lo, hi], score[hi, lo] = symbol_scores(plane, pair)
            return (score[x, y] - score[y, x]) / pair.reach

        return vs, score

    def by_symbol(self, region: np.ndarray, kin: list[int]) -> tuple[int, int, float, float]:
        """Of Location types of one colour, the one whose symbol the region (Lab) shows best:
        (it, the nearest other, its least lead on any other, pair by pair, and its own least
        correlation there: how well the symbol shows at all)."""
        vs, score = self._symbol_leads(region)

        def least(x: int) -> tuple[float, int]:
            return min((vs(x, y), y) for y in kin if y != x)

        def fit(x: int) -> float:
            return min(score[x, y] for y in kin if y != x)

        # The whole corner's first usually wins every pair: its pairs alone then decide.
        first = least(kin[0])
        if first[0] > 0:
            return kin[0], first[1], first[0], fit(kin[0])
        best = max(kin, key=lambda x: least(x)[0])
        worst, nearest = least(best)
        return best, nearest, worst, fit(best)

    def covers(self, before: Point, place: Point) -> bool:
        """Whether a card lying at `before` covers the corner of a card at `place`: the place
        after a row's or a fan's card, not the first of a row."""
        L = self.layout
        dx, dy = place[0] - before[0], place[1] - before[1]
        x0, y0, x1, y1 = L.identify_mm
        return dx + x0 >= 0 and dy + y0 >= 0 and dx + x1 <= L.card_mm[0] and dy + y1 <= L.card_mm[1]

    def _body(self, kind: int, dx: float, dy: float) -> tuple[np.ndarray, np.ndarray]:
        """(unit planes (1, 3, h, w), tint) of type `kind`'s body where a place (dx, dy) mm
        on from its own shows it: its taught whole face cut at the corner window moved by
        that much (made once)."""
        key = (kind, dx, dy)
        got = self._bodies.get(key)
        if got is None:
            faces = self.lib.faces
            assert faces is not None
            x0, y0, x1, y1 = self.layout.identify_mm
            k = faces.shape[2] / self.layout.card_mm[0]  # face px per mm
            up = 2  # sampled at twice the patch's resolution, then averaged down
            sx, sy = (x1 - x0) * k / (PATCH_W * up), (y1 - y0) * k / (PATCH_H * up)
            M = np.array(
                [[sx, 0, (x0 + dx) * k + sx / 2 - 0.5], [0, sy, (y0 + dy) * k + sy / 2 - 0.5]]
            )
            big = cv2.warpAffine(
                faces[kind],
                M,
                (PATCH_W * up, PATCH_H * up),
                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                borderMode=cv2.BORDER_REPLICATE,
            )
            patch = cv2.resize(big, (PATCH_W, PATCH_H), interpolation=cv2.INTER_AREA)
            lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
            got = self._bodies[key] = (
                unit_planes(descriptor(patch)[None]),
                tint(lab.reshape(-1, 3).mean(axis=0)),
            )
        return got

    def body_score(
        self, image: np.ndarray, H: np.ndarray, place: Point, before: Point, kind: str
    ) -> float | None:
        """How well the window at `place` matches the body of a card of type `kind` lying at
        `before` (scored as a corner is: the descriptor's correlation less the tint's
        distance, at the best shift): -1 when no card at `before` covers the place (a row's
        first place shows the table there), None when the library keeps no whole faces (taught
        before they were kept)."""
        if not self.covers(before, place):
            return -1.0
        if self.lib.faces is None or kind not in self.index:
            return None
        planes, body_tint = self._body(self.index[kind], place[0] - before[0], place[1] - before[1])
        crops = None if self._crops is None else self._crops.get(place)
        if crops is None:
            bgr = self._windows.get(place)  # empty outside `read`
            if bgr is None:
                bgr = self.corner_window(image, H, place)
            lab = cv2.GaussianBlur(
                cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32), (3, 3), 0.7
            )
            crops = Crops(lab, PATCH_H, PATCH_W)
            if self._crops is not None:
                self._crops[place] = crops
        body = crops.scores(planes[0]) - TINT_WEIGHT * tint_distance(crops.tints, body_tint)
        return float(body.max()) + self.lift

    def unbodied(
        self,
        image: np.ndarray,
        H: np.ndarray,
        m: Match,
        place: Point,
        before: Match | None,
        before_place: Point | None,
    ) -> Match:
        """`m` as a card (`Match.shown`, named from `BODY_FLOOR`) when it scores under
        `END_SURE` after a card (`before`, at `before_place`; None: a row's first place) yet
        leads that card's body by `BODY_MARGIN`: `EMPTY` and `END_SURE` guard against the
        body of a row's last card read as a card past the row's end, which this looks at.
        Else `m` unchanged."""
        if (
            m.score - m.lift >= END_SURE
            or m.score < BODY_FLOOR
            or m.coarse < COARSE_EMPTY
            or (before is not None and before.empty)
        ):
            return m
        if m.card is None and m.held is None and m.hold is None:  # not even held
            return m
        body = (
            -1.0
            if before is None or before_place is None
            else self.body_score(image, H, place, before_place, before.best)
        )
        if body is None or m.score - body < BODY_MARGIN:
            return m
        # The symbol check a held card needs, made only now (most such places are bodies).
        card = m.card or m.held_card()
        return m if card is None else replace(m, card=card, shown=True)

    def bare_places(self) -> list[Point]:
        """Places where no card can lie, their windows on bare table: a row under the
        lowest cards of the layout (the Doors, the discard pile, limbo), clear of them and of
        the corner markers."""
        L = self.layout
        lowest = [*L.door_places, L.discard_place, *L.limbo_places]
        x0, y0, x1, y1 = L.identify_mm
        m = L.search_mm
        y = max(p[1] for p in lowest) + L.card_mm[1] + BARE_CLEAR_MM + m - y0
        if y + y1 + m > L.size_mm[1]:
            return []
        lo = L.marker_side_mm + m - x0
        hi = L.size_mm[0] - L.marker_side_mm - x1 - m
        n = max(1, int((hi - lo) // BARE_STEP_MM) + 1)
        return [(lo + k * BARE_STEP_MM, y) for k in range(n)]

    def table_score(self, image: np.ndarray, H: np.ndarray) -> float | None:
        """The bare table's own score: the best location type's score (as a place's, the
        deck's lift in it) at each of `bare_places`, their median (a discard pile pushed
        over one of them, or a glare, moves it little); None when the layout leaves none."""
        places = self.bare_places()
        if not places:
            return None
        found = self.match([self.corner_window(image, H, p) for p in places], "location")
        return float(np.median([m.score for m in found]))

    def end_bodies(
        self,
        image: np.ndarray,
        H: np.ndarray,
        row: list[Match],
        place: Callable[[int], Point],
        first: tuple[Match, Point] | None = None,
        table: float | None = None,
        mirror: tuple[str, Point] | None = None,
    ) -> list[Match]:
        """`row` (in place) `ended`, without its last cards while they lead `table` (the
        bare table's score, `table_score`; None: not looked at) by less than `TABLE_LEAD`,
        or lead the body of `mirror` (the Mirror card, type and place, lying under every
        place of a fan; None: a row on bare table) at their own place by less than
        `MIRROR_BODY_LEAD`, and without its last card while that card, scoring `END_SURE`
        or more, leads the body of the card before it (`body_score`; `first`, the Mirror
        card above a fan, before a row's first place) by less than `END_BODY_LEAD`: it is
        that body, not a card. A card before it that is a bridged gap, or none (a row's
        first place shows the table), leaves the last card as it is."""
        while ended(row):
            if table is not None and row[-1].score - table < TABLE_LEAD:
                row.pop()
                continue
            j = len(row) - 1
            m = row[j]
            under = None
            if mirror is not None and -np.inf < MIRROR_BODY_LEAD:
                under = self.body_score(image, H, place(j), mirror[1], mirror[0])
                if under is not None and m.score - under < MIRROR_BODY_LEAD:
                    row.pop()
                    continue
            if m.shown:  # its body was looked at already (`unbodied`)
                break
            before, at = (row[j - 1], place(j - 1)) if j else (first or (None, None))
            if before is None or at is None or before.empty:
                break
            same = under is not None and mirror == (before.best, at)  # looked at just now
            body = under if same else self.body_score(image, H, place(j), at, before.best)
            if body is None or m.score - body >= END_BODY_LEAD:
                break
            row.pop()
        return row

    # -- the table -------------------------------------------------------------------

    def read(
        self,
        image: np.ndarray,
        markers: dict[int, Marker] | None = None,
        located: np.ndarray | None = None,
    ) -> TableReading:
        """The table in `image`; `markers` (the frame's, already detected) or `located` (from
        `locate`) spare the detection."""
        self._crops, self._windows = {}, {}
        try:
            return self._read(image, markers, located)
        finally:
            self._crops, self._windows = None, {}

    def _read(
        self,
        image: np.ndarray,
        markers: dict[int, Marker] | None,
        located: np.ndarray | None,
    ) -> TableReading:
        H = self.locate(image, markers) if located is None else located
        if H is None:
            return TableReading(
                warnings=(
                    "the table's corner markers are not seen "
                    f"(ids {', '.join(map(str, self.layout.corner_ids))})",
                )
            )
        L = self.layout
        warnings: list[str] = []

        def look(asked: list[tuple[Point, str]]) -> list[Match]:
            windows = [self.corner_window(image, H, p) for p, _ in asked]
            self._windows.update((p, w) for (p, _), w in zip(asked, windows, strict=True))
            return self.match(windows, [z for _, z in asked])

        maybe: list[tuple[str, int, tuple[str, ...]]] = []
        leads: list[tuple[str, int, float]] = []

        def named(m: Match, where: str, place: tuple[str, int] | None = None) -> str | None:
            if m.card is None:
                warnings.append(f"{where}: not sure which card ({m.best} or {m.runner_up})")
                if m.kin and place is not None:
                    maybe.append((*place, m.kin))
            elif m.colour_lead is not None and place is not None:
                leads.append((*place, m.colour_lead))
            return m.card

        # A bare place (no card's look at all) does not end the labyrinth when two sure cards
        # follow it: a long row, where one glare over a corner would lose every card after it.
        # The fans (at most three) and the Doors end there: looking past every row's end there
        # would cost a window a row for a card or two.
        # Few batches: every place known beforehand (the Mirrors, the first Doors, the discard
        # pile, the labyrinth's first places) in one; then each row of the fans with the
        # labyrinth's next places and the other Doors while those rows go on. A row or a fan
        # ends at its first empty place.
        door_places = list(L.door_places)
        door_chunk, door_places = door_places[:DOORS_FIRST], door_places[DOORS_FIRST:]
        n_doors = len(door_chunk)
        first: list[tuple[Point, str]] = [
            *(
                (p, f"mirror-{mid}")
                for p, mid in zip(L.mirror_places, self.mirror_order, strict=False)
            ),
            *((p, "door") for p in door_chunk),
            (L.discard_place, "discard"),
        ]
        n_first = len(first)
        places = list(L.labyrinth_places)
        chunk, places = places[:LABYRINTH_FIRST], places[LABYRINTH_FIRST:]
        found = look(first + [(p, "location") for p in chunk])
        seen, door_seen, top = (
            found[: len(self.mirror_order)],
            found[len(self.mirror_order) : len(self.mirror_order) + n_doors],
            found[n_first - 1],
        )
        lab_found = found[n_first:]

        def extend(
            seq: list[Match],
            new: list[Match],
            place: Callable[[int], Point],
            first: tuple[Match, Point] | None = None,
        ) -> None:
            """`seq` (a row's places read so far) with `new`, each after the one before it
            looked at for that card's body (`unbodied`)."""
            for m in new:
                j = len(seq)
                before, at = (seq[-1], place(j - 1)) if seq else (first or (None, None))
                seq.append(self.unbodied(image, H, m, place(j), before, at))

        mirrors: dict[int, tuple[str, bool]] = {}
        unsure: dict[int, Match] = {}
        guess: dict[int, Match] = {}
        doubtful: set[int] = set()
        for i, m in enumerate(seen):
            if (
                m.empty
                and m.held is not None
                and m.score >= MIRROR_SURE
                and not replace(m, card=m.held).side_guessed
            ):
                # A place of its own, as the pile's: no row's body shows there. A side its
                # lightness contradicts is not named from this score.
                m = replace(m, card=m.held)
            elif m.empty:
                # Something like a card (a glint over it, say): its fan is read, as cards
                # under it say a Mirror lies there.
                if m.coarse >= COARSE_EMPTY:
                    doubtful.add(i)
                continue
            if m.card is None:  # a Mirror's side is never guessed, but its fan is read
                unsure[i] = m
                continue
            mid = m.card.removeprefix("mirror-").removesuffix("-explored")
            mirrors[i] = (mid, m.card.endswith("-explored"))
            if m.side_guessed:  # its fan is read: cards under it say the unexplored side
                guess[i] = m
                mirrors[i] = (mid, False)
        # The layout lays the Mirrors in deck.toml's order: a place names its Mirror even
        # when its side is not told apart.
        for i in [*unsure, *doubtful]:
            mirrors[i] = (self.mirror_order[i], False)
        fans: dict[int, list[Match]] = {i: [] for i in mirrors}
        fan_seen: dict[int, list[Match]] = {i: [] for i in mirrors}
        open_fans = sorted(i for i, (_, explored) in mirrors.items() if not explored)
        lab_seen: list[Match] = []
        extend(lab_seen, lab_found, lambda j: L.labyrinth_places[j])
        door_found, door_seen = door_seen, []
        extend(door_seen, door_found, lambda j: L.door_places[j])
        k = 0
        while True:
            labyrinth, lab_done = row_of(lab_seen)
            lab_open = not lab_done and bool(places)
            doors_open = bool(door_places) and not row_of(door_seen, False)[1]
            n = next_places(door_seen, DOORS_FIRST) if doors_open else 0
            doors_now, door_places = door_places[:n], door_places[n:]
            if k >= L.fan_max:
                open_fans = []
            if not open_fans and not lab_open and not doors_now:
                break
            n = next_places(lab_seen, LABYRINTH_CHUNK) if lab_open else 0
            chunk, places = places[:n], places[n:]
            found = look(
                [(L.under_place(i, k), "location") for i in open_fans]
                + [(p, "location") for p in chunk]
                + [(p, "door") for p in doors_now]
            )
            still = []
            for i, m in zip(open_fans, found, strict=False):
                extend(
                    fan_seen[i],
                    [m],
                    partial(L.under_place, i),
                    (seen[i], L.mirror_places[i]),
                )
                fans[i], done = row_of(fan_seen[i], False)
                if not done:
                    still.append(i)
            extend(
                lab_seen,
                found[len(open_fans) : len(open_fans) + len(chunk)],
                lambda j: L.labyrinth_places[j],
            )
            extend(door_seen, found[len(open_fans) + len(chunk) :], lambda j: L.door_places[j])
            open_fans = still
            k += 1
        table = self.table_score(image, H) if -np.inf < TABLE_LEAD else None
        self.end_bodies(image, H, labyrinth, lambda j: L.labyrinth_places[j], table=table)
        for i, row in fans.items():
            self.end_bodies(
                image,
                H,
                row,
                partial(L.under_place, i),
                (seen[i], L.mirror_places[i]),
                table,
                (f"mirror-{self.mirror_order[i]}", L.mirror_places[i]),
            )
        for i, m in unsure.items():
            if not fans[i]:  # nothing under it: either side may be up
                del mirrors[i]
                named(m, f"Mirror place {i + 1}")
            # Cards lie under it: explored Mirrors hold none (their four are discarded), so
            # it is the unexplored side.
        for i in doubtful:
            if not fans[i]:  # nothing under it: most likely no Mirror at all
                del mirrors[i]
        guessed = []
        for i, m in guess.items():
            if fans[i]:  # cards lie under it: the unexplored side, as for `unsure`
                continue
            mid = mirrors[i][0]
            mirrors[i] = (mid, m.best.endswith("-explored"))
            guessed.append(mid)
            warnings.append(
                f"Mirror place {i + 1}: not sure which side ({m.best} or {m.runner_up})"
            )
        doors: list[str] = []
        door_row = self.end_bodies(
            image, H, row_of(door_seen, False)[0], lambda j: L.door_places[j], table=table
        )
        for j, m in enumerate(door_row):
            card = named(m, f"Door {j + 1}")
            if card is None:
                warnings.append("a Door's colour is not told: tap it in")
            else:
                doors.append(card.removeprefix("door-"))
        read_row = tuple(
            named(m, f"labyrinth card {j + 1}", ("labyrinth", j)) for j, m in enumerate(labyrinth)
        )
        seen_mirrors = tuple(
            MirrorSeen(
                mid,
                explored,
                tuple(
                    named(m, f"card {j + 1} under the {mid} Mirror", (f"under-{mid}", j))
                    for j, m in enumerate(fans[i])
                ),
            )
            for i, (mid, explored) in sorted(mirrors.items())
        )
        # Below `EMPTY` the pile's top is named only when sure (`DISCARD_SURE`), never
        # asked: a bare place is no question.
        discard_top = None if top.empty and top.card is None else named(top, "discard pile")
        if discard_top is not None and top.colour_lead is not None:
            leads.append(("discard", 0, top.colour_lead))
        return TableReading(
            labyrinth=read_row,
            doors=tuple(doors),
            mirrors=seen_mirrors,
            discard_top=discard_top,
            warnings=tuple(warnings),
            maybe=tuple(maybe),
            leads=tuple(leads),
            guessed=tuple(guessed),
        )
