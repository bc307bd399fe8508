"""Reflecto reader: the curves its thresholds are chosen from, on a DEVELOPMENT set.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_curves.py collect --seed DEVSEED \\
        --boards 150 --set random --out /tmp/reflecto-dev-random.npy   # also --set house
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_curves.py curves \\
        /tmp/reflecto-dev-random.npy /tmp/reflecto-dev-house.npy
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_curves.py sweep --seed DEVSEED \\
        --boards 30 --name DARK --values 40 30 22 15
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_curves.py refusal \\
        --family house:DEVSEED --family random:DEVSEED2 --boards 60
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_curves.py unchanged \\
        --family house:DEVSEED --family random:DEVSEED2 --boards 30
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_curves.py colour \\
        --family house:DEVSEED:0 --family random:DEVSEED2:0 --boards 30
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_curves.py maybe \\
        --family house:DEVSEED:0 --family random:DEVSEED2:0 --boards 30
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_curves.py ends \\
        --family house:DEVSEED:0 --family random:DEVSEED2:0 --boards 20
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_curves.py span \\
        --family house:DEVSEED:0 --family random:DEVSEED2:0 --boards 40
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_curves.py lost \\
        --family house:DEVSEED:0 --family random:DEVSEED2:0 --boards 30
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_curves.py some-colour \\
        --family house:DEVSEED:0 --family random:DEVSEED2:0 --boards 30

`collect` renders boards (seeds (DEVSEED, i), a development family: never one a benchmark
reports; `--set house` without arms, `random` with them) with the colours learned from
their set-up photograph, and stores per square the truth (empty, seat 0, seat 1) and what
the reader decides on: the best share of the strip in each seat's colour at both colour
floors (`read._shares`) and, for a square in a seat's colour or a faint trace of one, what
lies beside the strip (`read.print_share`: the shares of its colours found beside it, and
the shade difference). `curves` prints, for each threshold, how many screens and empty
squares fall on each side of each candidate value: the curve a threshold is read off.
`sweep` reads whole boards with one of the reader's constants (`read.NAME`) set to each
candidate value in turn, and prints what each value makes of the screens and the empty
squares: for a threshold several stages use, the curve of the readings themselves.
(`bar`, the curve of the retired bar test, is at commit 623abad.)
`colour` takes the squares the picture alone calls a seat's screen by its colour (nothing of
the strip's colours found beside it) and prints, per candidate value, how many of them are
phantoms and how many right screens would be asked instead if a smaller share found beside
(`read.PRINT_ASK`), a strip less fully in the seat's colour, or a strip whose median colour
lies nearer grey along its seat's hue (`along_hue`, refl20's `MEDIAN_ALONG`), made them
ask.
`ends` takes the squares the picture alone asks about as "maybe the print" and prints, per
candidate value, how many screens and empty squares a screen call would take if a strip
whose side's colour does not go on past its screen's ends (`side_ends`) and whose
colours are found on the board alone under a share were called its seat's screen
(refl25's `OWN_ENDS`, `ENDS_BOARD`, tried in the reader and taken out); and, for the
squares called by colour, how many phantoms and screens would be asked if an end showed the
colour going on.
`span` takes the squares the picture alone asks about as "maybe the print" and prints, per
candidate value, how many empty squares a call "empty" would gain and how many screens it
would read as empty if a region of the seat's colour (or of the strip's own colours)
spanning the board beside the strip out to the square's edge (`span_shares`) were the
print (refl26's try: a top is 8 mm deep); and, for the squares called by colour, how many
phantoms and screens it would ask about.
`maybe` takes the squares the picture alone asks about as "maybe the print" and prints, per
candidate value, how many screens and empty squares a screen call would take if a strip
whose colours are found on the board alone under that share (its own sides aside), or
whose shade stands that far from its print's, were called its seat's screen.
`refusal` learns each board's colours at set-up and, for the boards whose colours lie near
the limits `colours.problems` refuses them at (`MIN_GREY_DISTANCE`, `MIN_APART`), reads
the board with no limit, and prints per candidate limit the boards refused and what the
reader makes of the boards it would accept: the curve those limits are read off.
`unchanged` reads each board with the empty board's print and takes the squares judged
"print unchanged" (`read.judge_by_print`) whose strip the picture alone sees in a seat's
colour (`read.SURE`, the other under `read.NONE`): per square, a screen or not, and what the
one-picture print test makes of it (the print, maybe the print, a screen). Whether
asking about such squares, where the picture alone does not say the print, would turn
silent misses into questions, and at how many questions about empty squares.
`changed-colour` reads each board with the empty board's print and takes the squares
`read.judge_by_print` calls "changed, colour" (a seat's screen by its change): per family,
the calls that are not that seat's screen (phantoms and wrong owners) with what the reader
knew of them (`Change`: the share changed, the changed pixels' colour, the board round it
changed into the colour and at all), and the same for the screens so called as quantiles:
where a rule asking such strips could cut (refl29: the phantoms lay among the screens).
`lost` reads each board with the empty board's print and tallies the squares read wrong
(screens missed, asked or silently; empty squares read as screens; screens read as the
other seat's) by the test that decided them, with the boards each class loses (alone, too),
then lists them with their `Change` ("print not known": read from the picture alone):
which class to take on next (refl30). `washed-change`, `changed-colour` and `lost` walk the
boards with one generator (`printed_boards`), as does `changed-printed`: the screens
called by their change against the print (`read.CHANGED_CALLS`) whose strip the picture
alone finds on the board beside it (`read.CHANGED_PRINTED`'s curve, refl31). `sweep --name
board_print.NAME` sweeps a constant of `board_print.py` (refl30: `FIT_LOOSE`). `loose-fit`
prints the curve `board_print.FIT_LOOSE` was read off (see `loose_fit`). `some-colour`
prints the curve of `read.SOME_COLOUR_PRINTED` (refl32): the squares asked as "some colour"
(one seat's colour short of `read.SURE`, no known print), picture alone and with the empty
board's photo, by the print test a strip in the colour gets (see `some_colour`).
"""

from __future__ import annotations

import argparse
import sys
import types
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.reflecto.vision import board_print as print_module  # noqa: E402
from companion.games.reflecto.vision import colours as screen_colours  # noqa: E402
from companion.games.reflecto.vision import read  # noqa: E402
from companion.games.reflecto.vision.board_print import (  # noqa: E402
    PRINT_SAME,
    SCREEN_CHANGE,
    Change,
    learn_print,
)
from companion.games.reflecto.vision.colours import ScreenColours, chromaticity  # noqa: E402
from companion.games.reflecto.vision.geometry import BoardGeometry, load_geometry  # noqa: E402
from companion.games.reflecto.vision.render import (  # noqa: E402
    Photo,
    random_plastics,
    random_position,
    render_photo,
)
from companion.sim.conditions import Conditions  # noqa: E402

PIXELS = (12.0, 18.0, 24.0, 28.0, 36.0, 48.0)
"""Candidate `board_print.PIXEL_CHANGE` values the change shares are collected at."""
FLOOR_AT = 1
"""`read.print_share` is judged at the faint colour floor, as `read.classify` judges it."""


def collect(seed: int, boards: int, out: Path, which: str = "random") -> None:
    geom = load_geometry()
    rows = []
    floors = (read.FLOOR, read.FAINT_FLOOR)
    conditions = Conditions(hands=0) if which == "house" else Conditions()
    for i in range(boards):
        photo = render_photo(geom, (seed, i), conditions, setup=True, board=True)
        truth = dict(photo.truth.layout_key())
        taught = None if photo.board is None else learn_print(photo.board, geom)
        rect_setup = read.rectify(photo.setup, geom)
        rect = read.rectify(photo.image, geom)
        if rect_setup is None or rect is None:
            continue
        colours = read.learn_at_setup(rect_setup, geom)
        if colours.problems():
            continue
        ev = read.evidence(rect, geom, colours, floors)
        shares, faint = read._shares(rect, geom, colours, ev=ev)
        changes = [read.print_changes(rect, geom, ev, taught, px) for px in PIXELS]
        for k, cell in enumerate(geom.cells):
            best = float(shares[k].max())
            seat = int(np.argmax(shares[k] if best >= read.NONE else faint[k]))
            found: tuple[float | None, ...] = (None,) * 4
            if best >= read.NONE or float(faint[k].max()) >= read.FAINT:
                p = read.print_share(rect, geom, ev, cell, seat, FLOOR_AT)
                found = (p.board, p.with_sides, p.close, p.shade)
            rows.append(
                (
                    i,
                    *cell,
                    truth.get(cell, -1),
                    *shares[k],
                    *faint[k],
                    *(-1.0 if v is None else v for v in found),
                    *(-1.0 if c[k] is None else c[k].share for c in changes),
                )
            )
        if (i + 1) % 10 == 0:
            print(f"{i + 1} boards", flush=True)
            np.save(out, np.array(rows, np.float64))
    np.save(out, np.array(rows, np.float64))


def curves(paths: list[Path]) -> None:
    d = np.concatenate([np.load(p) for p in paths])
    truth, s, faint = d[:, 3].astype(int), d[:, 4:6], d[:, 6:8]
    board, sides, close, shade = d[:, 8], d[:, 9], d[:, 10], d[:, 11]
    screen = truth >= 0
    best, other = s.max(axis=1), s.min(axis=1)
    print(
        f"{int(screen.sum())} screens, {int((~screen).sum())} empty squares, "
        f"{len(set(d[:, 0].astype(int)))} boards"
    )
    own = np.where(screen, s[np.arange(len(s)), np.maximum(truth, 0)], 0)
    print("share t | screens with own share < t | empty squares with best share >= t")
    for t in (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.8):
        lo, hi = int((screen & (own < t)).sum()), int((~screen & (best >= t)).sum())
        print(f"  {t:4.2f}  | {lo:5d} | {hi:5d}")
    strong = (best >= read.SURE) & (other < read.NONE)
    print(
        f"squares strongly in one colour (SURE {read.SURE}, NONE {read.NONE}): "
        f"{int((strong & screen).sum())} screens, {int((strong & ~screen).sum())} empty"
    )
    has = shade >= 0
    print("shade (Lab, strip vs the same colour beside it) < t | screens | empty squares")
    for t in (2, 4, 5, 6, 7, 8, 9, 10, 12, 15):
        lo = int((strong & screen & has & (shade < t)).sum())
        print(f"  {t:4.1f} | {lo:4d} | {int((strong & ~screen & has & (shade < t)).sum()):4d}")
    print(
        f"print by close bins (>= {read.PRINT_EMPTY}) or shade (< S); of the rest, asked "
        "when found beside >= B: screens called print | screens asked | empty squares "
        "asked | empty squares read as screens"
    )
    for t in (0.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0):
        for b in (0.2, 0.3, 0.4, 0.5):
            pr = (close >= read.PRINT_EMPTY) | (has & (shade < t))
            ask = ~pr & (np.maximum(board, sides) >= b)
            row = (
                strong & screen & pr,
                strong & screen & ask,
                strong & ~screen & ask,
                strong & ~screen & ~pr & ~ask,
            )
            print(f"  S {t:4.1f} B {b:4.2f} | " + " | ".join(f"{int(m.sum()):4d}" for m in row))
    print_curves(d, screen, best, other, faint)
    trace = faint.max(axis=1)
    weak = (best < read.NONE) & (trace >= read.FAINT)
    print(
        f"squares short of NONE with a faint trace over FAINT {read.FAINT}: "
        f"{int((weak & screen).sum())} screens, {int((weak & ~screen).sum())} empty"
    )
    print("found on the board alone >= p: screens called empty | empty squares asked")
    for t in (0.05, 0.1, 0.2, 0.3, 0.5):
        p = board >= t
        lost, asked = int((weak & screen & p).sum()), int((weak & ~screen & ~p).sum())
        print(f"  p {t:4.2f} | {lost:4d} | {asked:4d}")


def print_curves(
    d: np.ndarray, screen: np.ndarray, best: np.ndarray, other: np.ndarray, faint: np.ndarray
) -> None:
    """The empty board's print (`board_print.py`): per candidate `PIXEL_CHANGE`, the share
    of a strip changed from its print, for screens and for empty squares, over every square
    whose print is known and over those strongly in one colour (where it decides)."""
    first = d.shape[1] - len(PIXELS)  # the change shares are the last columns
    if first < 12:
        return
    strong = (best >= read.SURE) & (other < read.NONE)
    coloured = strong | (faint.max(axis=1) >= read.FAINT)
    for j, px in enumerate(PIXELS):
        change = d[:, first + j]
        known = change >= 0
        print(
            f"PIXEL_CHANGE {px:4.0f}: print known for {int(known.sum())} squares; change "
            "share t | screens under t | empty squares at or over t | the same, squares in "
            "a seat's colour or a faint trace of one"
        )
        for t in (0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7):
            row = (
                known & screen & (change < t),
                known & ~screen & (change >= t),
                known & coloured & screen & (change < t),
                known & coloured & ~screen & (change >= t),
            )
            print(f"  {t:4.2f} | " + " | ".join(f"{int(m.sum()):5d}" for m in row))


def sweep(
    seed: int,
    boards: int,
    name: str,
    values: list[float],
    which: str = "random",
    with_board: bool = False,
    first: int = 0,
) -> None:
    """`with_board`: each board read with its empty board's photograph (`read --board`);
    `first`, the family's first board (one family split over processes)."""
    geom = load_geometry()
    conditions = Conditions(hands=0) if which == "house" else Conditions()
    module, name = _constant(name)
    keep = getattr(module, name)
    tally = {
        v: dict.fromkeys(["right", "missed", "asked_screen", "phantom", "asked_empty", "boards"], 0)
        for v in values
    }
    try:
        for i in range(first, first + boards):
            photo = render_photo(geom, (seed, i), conditions, setup=True, board=with_board)
            truth = dict(photo.truth.layout_key())
            taught = None if photo.board is None else learn_print(photo.board, geom)
            for v in values:
                setattr(module, name, v)
                rect = read.rectify(photo.setup, geom)
                colours = None if rect is None else read.learn_at_setup(rect, geom)
                got, _ = read.read_board(photo.image, geom, colours, board_print=taught)
                seen, unclear, t = dict(got.layout_key()), set(got.unclear), tally[v]
                for cell in geom.cells:
                    if cell in truth:
                        t["right" if seen.get(cell) == truth[cell] else "missed"] += 1
                        t["asked_screen"] += cell in unclear
                    else:
                        t["phantom"] += cell in seen
                        t["asked_empty"] += cell in unclear
                t["boards"] += got.layout_key() == photo.truth.layout_key()
    finally:
        setattr(module, name, keep)
    print(
        f"{name} | screens right | missed (of which asked) | phantoms | empty squares asked "
        f"| boards entirely right (of {boards})"
    )
    for v, t in tally.items():
        print(
            f"  {v:6g} | {t['right']:4d} | {t['missed']:4d} ({t['asked_screen']:3d}) | "
            f"{t['phantom']:3d} | {t['asked_empty']:4d} | {t['boards']:3d}"
        )


def _constant(name: str) -> tuple[types.ModuleType, str]:
    """`sweep`'s NAME: a constant of `read` (NAME), or of `board_print` (board_print.NAME),
    which `read.print_changes` reads the print's change with."""
    if name.startswith("board_print."):
        return print_module, name.removeprefix("board_print.")
    return read, name


NEAR = 0.15
"""`refusal` reads with no limit the boards whose weaker colour or whose two colours' distance
(chromaticity) is under this: the rest are accepted at every candidate limit."""


DRAWN_NEAR = 0.13


def _near_drawn(geom: BoardGeometry, seed: tuple[int, int]) -> bool:
    """Whether the plastics `render_photo` draws for `seed` (replayed from its first draws,
    without rendering) lie within `DRAWN_NEAR` of grey or of each other: the colours learned
    from a board's set-up lie nearer grey and each other than those drawn (light, shade, a
    screen's spread), but a board drawn farther than that is not rendered."""
    rng = np.random.default_rng(list(seed))
    random_position(geom, rng)
    drawn = [chromaticity(np.array(c, np.uint8)) for c in random_plastics(rng)]
    weak = min(float(np.linalg.norm(c - screen_colours.GREY)) for c in drawn)
    return weak < DRAWN_NEAR or float(np.linalg.norm(drawn[0] - drawn[1])) < DRAWN_NEAR


def refusal(families: list[tuple[str, int]], boards: int) -> None:
    """The curve `colours.MIN_GREY_DISTANCE` and `colours.MIN_APART` are read off."""
    geom = load_geometry()
    rows = []  # (weaker colour, apart, screens, right, missed, phantoms, wrong owner, exact)
    n = 0
    for which, seed in families:
        conditions = Conditions(hands=0) if which == "house" else Conditions()
        for i in range(boards):
            n += 1
            if not _near_drawn(geom, (seed, i)):
                continue
            photo = render_photo(geom, (seed, i), conditions, setup=True)
            rect = read.rectify(photo.setup, geom)
            if rect is None:
                continue
            colours = read.learn_at_setup(rect, geom)
            m = colours.means
            weak = float(min(np.linalg.norm(m - screen_colours.GREY, axis=1)))
            apart = float(np.linalg.norm(m[0] - m[1]))
            if weak >= NEAR and apart >= NEAR:
                continue
            keep = screen_colours.MIN_GREY_DISTANCE, screen_colours.MIN_APART
            screen_colours.MIN_GREY_DISTANCE = screen_colours.MIN_APART = 0.0
            try:
                got, _ = read.read_board(photo.image, geom, colours)
            finally:
                screen_colours.MIN_GREY_DISTANCE, screen_colours.MIN_APART = keep
            truth, seen = dict(photo.truth.layout_key()), dict(got.layout_key())
            rows.append(
                (
                    weak,
                    apart,
                    len(truth),
                    sum(1 for c, o in seen.items() if truth.get(c) == o),
                    sum(1 for c in truth if c not in seen),
                    sum(1 for c in seen if c not in truth),
                    sum(1 for c, o in seen.items() if c in truth and truth[c] != o),
                    seen == truth,
                )
            )
            print(
                f"{which} {seed} {i}: " + " ".join(f"{v:.3f}" for v in rows[-1][:2]), rows[-1][2:]
            )
    print(f"{n} boards, {len(rows)} with a colour or the pair under {NEAR}")
    for name, col in (("MIN_GREY_DISTANCE (weaker colour)", 0), ("MIN_APART (the pair)", 1)):
        print(
            f"{name} | boards refused | of the near boards accepted: screens, right, missed, "
            "phantoms, wrong owner, boards entirely right"
        )
        for t in (0.08, 0.06, 0.05, 0.04, 0.03, 0.02, 0.0):
            kept = [r for r in rows if r[col] >= t]
            sums = [sum(r[k] for r in kept) for k in range(2, 8)]
            print(f"  {t:4.2f} | {len(rows) - len(kept):3d} | " + ", ".join(map(str, sums)))


def learned_boards(
    geom: BoardGeometry, which: str, seed: int, indices: range, with_board: bool
) -> Iterator[tuple[int, Photo, read.Rectified, ScreenColours]]:
    """The family's boards whose set-up photograph taught both seats' colours, rectified (with
    the empty board's photograph when `with_board`): a curve counts only what the reader
    would have read, and a board refused at set-up never reaches `classify`."""
    conditions = Conditions(hands=0) if which == "house" else Conditions()
    for i in indices:
        photo = render_photo(geom, (seed, i), conditions, setup=True, board=with_board)
        if photo.setup is None or (with_board and photo.board is None):
            continue
        rect_setup, rect = read.rectify(photo.setup, geom), read.rectify(photo.image, geom)
        if rect_setup is None or rect is None:
            continue
        colours = read.learn_at_setup(rect_setup, geom)
        if colours.problems():
            continue
        yield i, photo, rect, colours


@dataclass(frozen=True)
class PrintedBoard:
    """One board read with its empty board's print (`printed_boards`)."""

    board: tuple[int, int]
    """(seed, index)."""
    which: str
    photo: Photo
    rect: read.Rectified
    colours: ScreenColours
    ev: read.Evidence
    changes: list[Change | None]
    """Per square (in `geom.cells` order), its strip against the print (`read.print_changes`)."""
    truth: dict[tuple[int, int], int]
    calls: list[read.CellCall]
    """What `read.classify` makes of each square with the print, as the constants stand when
    the board is drawn from the generator."""


def printed_boards(
    geom: BoardGeometry, families: list[tuple[str, int, int]], boards: int
) -> Iterator[PrintedBoard]:
    """Each family's learned boards (`learned_boards`) read with their empty board's print:
    the board walk `washed_change`, `changed_colour` and `lost` share. Lazy: a curve that
    sets a constant of `read` around the loop has each board read with it."""
    for which, seed, first in families:
        indices = range(first, first + boards)
        for i, photo, rect, colours in learned_boards(geom, which, seed, indices, True):
            assert photo.board is not None  # `learned_boards` with the board
            taught = learn_print(photo.board, geom)
            ev = read.evidence(rect, geom, colours, (read.FLOOR, read.FAINT_FLOOR))
            yield PrintedBoard(
                (seed, i),
                which,
                photo,
                rect,
                colours,
                ev,
                read.print_changes(rect, geom, ev, taught),
                dict(photo.truth.layout_key()),
                read.classify(rect, geom, colours, taught),
            )


def unchanged(families: list[tuple[str, int]], boards: int) -> None:
    """The curve for asking about a "print unchanged" square in a seat's colour."""
    geom = load_geometry()
    tally: dict[tuple[str, bool], int] = {}
    for which, seed in families:
        for _, photo, rect, colours in learned_boards(geom, which, seed, range(boards), True):
            assert photo.board is not None
            calls = read.classify(rect, geom, colours, learn_print(photo.board, geom))
            ev = read.evidence(rect, geom, colours, (read.FLOOR, read.FAINT_FLOOR))
            truth = dict(photo.truth.layout_key())
            for call in calls:
                seat = int(np.argmax(call.shares))
                best, other = call.shares[seat], call.shares[1 - seat]
                if call.why != "print unchanged" or best < read.SURE or other >= read.NONE:
                    continue
                found = read.print_share(rect, geom, ev, call.cell, seat, FLOOR_AT)
                verdict = read.printed(found)
                alone = {True: "the print", None: "maybe the print", False: "a screen"}[verdict]
                key = (alone, truth.get(call.cell) == seat)
                tally[key] = tally.get(key, 0) + 1
    print(
        "print unchanged, in a seat's colour: the picture alone says | its screens | "
        "empty squares (or the other seat's)"
    )
    for alone in ("the print", "maybe the print", "a screen"):
        print(
            f"  {alone:16s} | {tally.get((alone, True), 0):4d} | {tally.get((alone, False), 0):4d}"
        )


ASK_AT = (0.2, 0.15, 0.12, 0.1, 0.08, 0.05, 0.03, 0.01)
"""Candidate `read.PRINT_ASK` values `colour` prints the curve at."""
SHARE_AT = (0.9, 0.85, 0.8, 0.75, 0.7)
"""Candidate least shares of the strip in the seat's colour `colour` prints the curve at."""
ALONG_AT = (0.2, 0.3, 0.35, 0.4, 0.45, 0.5)
"""Candidate least medians along the seat's hue (`along_hue`) `colour` prints the curve at
(refl20's `MEDIAN_ALONG`, 0.35, tried and taken out: see docs/reflecto.md)."""


def along_hue(colours: ScreenColours, chroma: np.ndarray, seat: int) -> float:
    """How far `chroma` (a strip's median, `read.strip_stats`) lies from grey along the
    seat's hue, as a share of the seat's strength (or of `read.FLOOR_REF` when the seat's
    colour is weaker): 1 is the seat's own colour, 0 grey or a hue at right angles to it.
    A top is one plastic, so its median should be its colour; noise on a pale print that
    reaches a dull seat's hue leaves the median grey."""
    m = colours.means.astype(np.float64) - 1 / 3
    m -= m.mean(axis=1, keepdims=True)  # a learned median's channels need not sum to 1
    strength = float(np.linalg.norm(m[seat]))
    along = float((np.asarray(chroma, np.float64) - 1 / 3) @ m[seat]) / strength
    return along / max(strength, read.FLOOR_REF)


def classified_calls(
    geom: BoardGeometry, families: list[tuple[str, int, int]], boards: int
) -> Iterator[
    tuple[
        tuple[int, int],
        read.Rectified,
        ScreenColours,
        read.Evidence,
        dict[tuple[int, int], int],
        read.CellCall,
    ]
]:
    """Every call the picture alone makes on each family's learned boards, with what a curve
    measures it against: the board (seed, index), its rectified picture, colours, evidence
    and truth. The curves differ only in which calls they keep and what they ask of them."""
    for which, seed, first in families:
        indices = range(first, first + boards)
        for i, photo, rect, colours in learned_boards(geom, which, seed, indices, False):
            ev = read.evidence(rect, geom, colours, (read.FLOOR, read.FAINT_FLOOR))
            truth = dict(photo.truth.layout_key())
            for call in read.classify(rect, geom, colours):
                yield (seed, i), rect, colours, ev, truth, call


def colour(families: list[tuple[str, int, int]], boards: int) -> None:
    """The curve of the squares the picture alone calls a screen by colour (`read.classify`
    decided by "colour"): right screens against phantoms (an empty square, or a screen read
    in the other seat's colour), by what could make them ask instead, each per candidate
    value: the share of the strip's colours found beside it (`read.print_share`, the larger
    of `board` and `with_sides`, as `read.printed` takes it) and the strip's share in the
    seat's colour. Each family is SET:SEED:FIRST, boards FIRST.. of seeds (SEED, i)."""
    geom = load_geometry()
    found: list[tuple[bool, float, float, tuple[int, int], float]] = []
    for board, rect, colours, ev, truth, call in classified_calls(geom, families, boards):
        if call.why != "colour" or call.owner is None:
            continue
        seat = call.owner
        p = read.print_share(rect, geom, ev, call.cell, seat, FLOOR_AT)
        beside = max(p.board or 0.0, p.with_sides or 0.0)
        along = along_hue(colours, read.strip_stats(rect, geom, call.cell).chroma, seat)
        right = truth.get(call.cell) == seat
        found.append((right, beside, max(call.shares), board, along))
    phantoms = [f for f in found if not f[0]]
    print(f"{len(found) - len(phantoms)} screens and {len(phantoms)} phantoms called by colour")
    tests: tuple[tuple[str, Callable[[float, float], bool], tuple[float, ...]], ...] = (
        ("found beside >=", lambda beside, v: beside >= v, ASK_AT),
        ("share in the colour <", lambda share, v: share < v, SHARE_AT),
        ("median along the seat's hue <", lambda along, v: along < v, ALONG_AT),
    )
    for key, (name, asks, values) in enumerate(tests, start=1):
        print(f"asked when {name} | phantoms asked (boards) | screens asked (boards)")
        for v in values:
            hit = [f for f in found if asks((f[1], f[2], f[4])[key - 1], v)]
            ph = [f for f in hit if not f[0]]
            ok = [f for f in hit if f[0]]
            print(
                f"  {v:5g} | {len(ph):3d} ({len({f[3] for f in ph}):3d}) | "
                f"{len(ok):4d} ({len({f[3] for f in ok}):3d})"
            )


BOARD_AT = (0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4)
SHADE_AT = (6.0, 10.0, 15.0, 20.0, 30.0)


def maybe(families: list[tuple[str, int, int]], boards: int) -> None:
    """The curve of the squares the picture alone asks about as "maybe the print"
    (`read.classify`): screens against empty squares, by what might call them instead,
    per candidate value: the share of the strip's colours found on the board alone
    (`PrintShares.board`; they are asked when it or `with_sides` reaches `read.PRINT_ASK`,
    and a top's own upright sides are its colour), and the Lab distance between the
    strip's median and its print's shade beside it (`PrintShares.shade`). Each family is
    SET:SEED:FIRST, boards FIRST.. of seeds (SEED, i)."""
    geom = load_geometry()
    found: list[tuple[bool, float, float, tuple[int, int]]] = []
    lowest: list[tuple[float, tuple[int, int], tuple[int, int], float, float]] = []
    for where, rect, _colours, ev, truth, call in classified_calls(geom, families, boards):
        if call.why != "maybe the print":
            continue
        seat = int(np.argmax(call.shares))
        p = read.print_share(rect, geom, ev, call.cell, seat, FLOOR_AT)
        board = -1.0 if p.board is None else p.board
        shade = -1.0 if p.shade is None else p.shade
        found.append((truth.get(call.cell) == seat, board, shade, where))
        if truth.get(call.cell) != seat and 0.0 <= board < 0.3:
            # refl24: an empty square whose colours are found beside it mostly on its own
            # screen's upright sides looks like a top there (`with_sides`, the body).
            b = body_shares(rect, geom, ev, [(call.cell, seat)], FLOOR_AT)[0].body
            lowest.append((board, where, call.cell, p.with_sides or 0.0, -1.0 if b is None else b))
    screens = [f for f in found if f[0]]
    print(f"asked as maybe the print: {len(screens)} screens, {len(found) - len(screens)} not")
    for board, where, cell, sides, body in sorted(lowest):
        print(f"  empty {where} {cell}: board {board:.3f}, with sides {sides:.2f}, body {body:.2f}")
    tests: tuple[tuple[str, Callable[[float, float], bool], tuple[float, ...]], ...] = (
        ("found on the board alone <", lambda board, v: 0.0 <= board < v, BOARD_AT),
        ("shade from the print >=", lambda shade, v: shade >= v, SHADE_AT),
    )
    for key, (name, calls, values) in enumerate(tests, start=1):
        print(f"called a screen when {name} | screens (boards) | empty squares (boards)")
        for v in values:
            hit = [f for f in found if calls(f[key], v)]
            ok = [f for f in hit if f[0]]
            bad = [f for f in hit if not f[0]]
            print(
                f"  {v:5g} | {len(ok):4d} ({len({f[3] for f in ok}):3d}) | "
                f"{len(bad):3d} ({len({f[3] for f in bad}):3d})"
            )


ENDS_MM = 9.0
"""How far past a screen's ends along its row `side_ends` looks for its side's colour going
on: across the gap between two screens (6 mm at the model's size) and into the next square,
short of where its centre strip begins."""
ENDS_LEAST = 20
"""Pixels of an end's band `side_ends` needs in view to say anything of that end."""
OWN_ENDS = 0.05
ENDS_BOARD = 0.2
"""refl25's rule, tried in the reader and taken out (docs/reflecto.md, "A screen's side
ends with the screen"): a strip asked as maybe the print read as its seat's screen when
every end in view (`side_ends`, one at least) is under `OWN_ENDS` in its colour, under
`ENDS_BOARD` of its colours are on the board alone and its body is its colour."""


def side_ends(
    rect: read.Rectified,
    geom: BoardGeometry,
    ev: read.Evidence,
    cell: tuple[int, int],
    seat: int,
    held: Sequence[np.ndarray],
    floor: int = 1,
) -> tuple[float | None, float | None]:
    """Per end of the square's screen along its row (left, right): the share, in the seat's
    colour at `ev.masks[floor]`, of the board just past that end (out to `ENDS_MM`) on the
    rows where the square's own frame shows that colour off its top; None where fewer than
    `ENDS_LEAST` such pixels are in view or no row of the frame shows the colour.

    A screen's upright side is its own plastic and ends with the screen, a few millimetres
    inside its square; a stripe printed along the row that reads as a side goes on past the
    screen's ends. Only pixels no screen can reach are looked at: `held` holds the reach
    (`screen_reach`) of the squares that may hold a screen (the others read as holding no
    colour at all), so a neighbour's side is never taken for the print going on."""
    hw = geom.screen_width_mm / 2
    far_x = round((hw + ENDS_MM) * read.PX_PER_MM)
    far_y = round(read.SURROUND_MM[1] * read.PX_PER_MM)
    h, w = rect.top.shape[:2]
    cx, cy = (round(v) for v in rect.px(geom.cell_mm(cell)))
    box = (max(cx - far_x, 0), max(cy - far_y, 0), min(cx + far_x + 1, w), min(cy + far_y + 1, h))
    x0, y0, x1, y1 = box
    if x1 <= x0 or y1 <= y0:
        return None, None
    mask = ev.masks[floor][seat][y0:y1, x0:x1]
    reach = ev.reach[y0:y1, x0:x1]
    frame = read._fill(read.own_faces(rect, geom, [cell])[0][0], box) > 0
    mine = read._fill(ev.polys[geom.cells.index(cell)], box) > 0
    dy = (np.arange(y0, y1) - cy)[:, None] / read.PX_PER_MM
    dx = (np.arange(x0, x1) - cx)[None, :] / read.PX_PER_MM
    side = frame & mine & (reach == 1) & (np.abs(dy) > geom.screen_thickness_mm / 2) & mask
    rows = side.sum(axis=1) >= 2
    free = ~mine
    for poly in held:
        lo, hi = poly.min(axis=0), poly.max(axis=0)
        if lo[0] < x1 and hi[0] >= x0 and lo[1] < y1 and hi[1] >= y0:
            free &= read._fill(poly, box) == 0
    band = rows[:, None] & free & (np.abs(dx) >= hw)
    out: list[float | None] = []
    for end in (dx < 0, dx > 0):
        at = band & end
        n = int(at.sum())
        out.append(float((mask & at).sum() / n) if n >= ENDS_LEAST else None)
    return out[0], out[1]


ENDS_AT = (0.02, 0.05, 0.1, 0.2)
"""Candidate largest shares of the seat's colour past a screen's ends (`side_ends`)."""
ENDS_BOARD_AT = (0.1, 0.2, 0.3, 0.4, 0.5)
"""Candidate largest shares of the strip's colours found on the board alone."""
ASK_ENDS_AT = (0.1, 0.2, 0.3, 0.4, 0.5, 0.7)
"""Candidate least shares past a screen's ends at which a strip called by colour would be
asked instead (its colour going on along the row, a print)."""


def held_reach(
    rect: read.Rectified, geom: BoardGeometry, calls: list[read.CellCall]
) -> list[np.ndarray]:
    """The reach (`read.screen_reach`) of the squares that may hold a screen: all but those
    read as holding no colour at all (what `side_ends` looks past a screen's ends
    through)."""
    polys = read.screen_reach(rect, geom)
    return [p for c, p in zip(calls, polys, strict=True) if c.why != "no colour"]


def ends(families: list[tuple[str, int, int]], boards: int, both: bool = False) -> None:
    """The curve of the squares the picture alone asks about as "maybe the print": screens
    against empty squares, by whether the colour of the square's own frame off its top goes
    on past the screen's ends along the row (`side_ends`, the larger of the ends in
    view): a screen's side ends with the screen, a stripe printed along the row goes on.
    Counted only where the strip's colours are found on the board alone under a candidate
    share and its body is its colour (`read.BODY_CALLED`). Each empty square with both under
    0.2 / 0.5 is listed. With `both` (`--both`), only strips with both ends in view count
    (refl25's rule counted one, and read an empty square whose other end was hidden). Each
    family is SET:SEED:FIRST, boards FIRST.. of seeds (SEED, i)."""
    geom = load_geometry()
    found: list[tuple[bool, float, float, tuple[int, int]]] = []
    by_colour: list[tuple[bool, float, tuple[int, int]]] = []
    for which, seed, first in families:
        indices = range(first, first + boards)
        for i, photo, rect, colours in learned_boards(geom, which, seed, indices, False):
            ev = read.evidence(rect, geom, colours, (read.FLOOR, read.FAINT_FLOOR))
            truth = dict(photo.truth.layout_key())
            calls = read.classify(rect, geom, colours)
            held = held_reach(rect, geom, calls)
            for call in calls:
                seat = int(np.argmax(call.shares))
                if call.why in ("colour", "body not its colour"):
                    at = [v for v in side_ends(rect, geom, ev, call.cell, seat, held) if v]
                    right = truth.get(call.cell) == seat
                    by_colour.append((right, max(at, default=0.0), (seed, i)))
                    if not right:
                        print(f"  phantom {(seed, i)} {call.cell} ({call.why}): ends {at}")
                if call.why != "maybe the print":
                    continue
                p = read.print_share(rect, geom, ev, call.cell, seat, FLOOR_AT)
                b = body_shares(rect, geom, ev, [(call.cell, seat)], FLOOR_AT)[0].body
                at_ends = [
                    v for v in side_ends(rect, geom, ev, call.cell, seat, held) if v is not None
                ]
                if b is None or b < read.BODY_CALLED or len(at_ends) < (2 if both else 1):
                    continue
                right = truth.get(call.cell) == seat
                board = p.board or 0.0
                found.append((right, board, max(at_ends), (seed, i)))
                if not right and max(at_ends) < 0.2 and board < 0.5:
                    print(
                        f"  empty {(seed, i)} {call.cell}: board {board:.3f}, "
                        f"ends {max(at_ends):.3f}, body {b:.2f}"
                    )
    n = sum(f[0] for f in found)
    print(f"maybe the print, body its colour, an end in view: {n} screens, {len(found) - n} not")
    print("called a screen when board < B and ends < E | screens (boards) | empty squares (boards)")
    for bmax in ENDS_BOARD_AT:
        for e in ENDS_AT:
            hit = [f for f in found if f[1] < bmax and f[2] < e]
            ok = [f for f in hit if f[0]]
            bad = [f for f in hit if not f[0]]
            print(
                f"  B {bmax:4g} E {e:4g} | {len(ok):4d} ({len({f[3] for f in ok}):3d}) | "
                f"{len(bad):3d} ({len({f[3] for f in bad}):3d})"
            )
    n = sum(f[0] for f in by_colour)
    print(f"called by colour: {n} screens, {len(by_colour) - n} phantoms")
    print("asked when an end >= E | phantoms asked (boards) | screens asked (boards)")
    for e in ASK_ENDS_AT:
        asked = [f for f in by_colour if f[1] >= e]
        screens = [f for f in asked if f[0]]
        phantoms = [f for f in asked if not f[0]]
        print(
            f"  E {e:4g} | {len(phantoms):3d} ({len({f[2] for f in phantoms}):3d}) | "
            f"{len(screens):4d} ({len({f[2] for f in screens}):3d})"
        )


SPAN_AT = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
"""Candidate least shares of the board beside a strip, out to its square's edge, in the
seat's colour (`span_shares`) at which `span` would call a strip asked as maybe the print
empty."""


@dataclass(frozen=True)
class SpanShares:
    """`span_shares`: how far a square's seat-coloured region runs across the row, on the
    board alone (no screen can reach), out to the square's edge and past it."""

    near: float | None
    """Share of the board alone from the top's edge (`read.SURROUND_MM`[0]) to the
    square's edge in the seat's colour, the lesser of the two sides in view."""
    rows: float | None
    """Share of those rows (both sides) more than half in the seat's colour."""
    past: float | None
    """Share of the board alone past the square's edge (out to `read.SURROUND_MM`[1]) in
    the seat's colour, the larger side."""
    close: float | None
    """Share of the board alone out to the square's edge whose colour (Lab, in bins of
    `read.PRINT_CLOSE_BIN`, a neighbour bin counting) is among the strip's own: the strip's
    colours spanning the square, not only a hue near the seat's."""


def span_shares(
    rect: read.Rectified,
    geom: BoardGeometry,
    ev: read.Evidence,
    asks: Sequence[tuple[tuple[int, int], int]],
    floor: int = FLOOR_AT,
) -> list[SpanShares]:
    """Per (square, seat) of `asks`: how much of the board across the row from its strip,
    out to the square's edge and past, is in the seat's colour (`SpanShares`). A screen's
    top is 8 mm deep: a region of the seat's colour spanning the whole square is print."""
    if not asks:
        return []
    win = read._print_windows(rect, geom, ev, asks, floor)
    rows = (np.arange(win.mask.shape[1]) - win.centre) / read.PX_PER_MM
    board = win.reach == 0
    half = geom.square_mm / 2
    near_rows = (np.abs(rows) >= read.SURROUND_MM[0]) & (np.abs(rows) <= half)
    past_rows = np.abs(rows) > half
    least = 20
    out = []
    bins = read._bins(win.lab, read.PRINT_CLOSE_BIN)
    strip_rows = np.abs(rows) <= win.hy / read.PX_PER_MM
    for j in range(len(asks)):
        m, b = win.mask[j], board[j]
        sides: list[float] = []
        for side in (rows < 0, rows > 0):
            at = b & (near_rows & side)[:, None]
            if at.sum() >= least:
                sides.append(float((m & at).sum() / at.sum()))
        per_row = []
        for r in np.flatnonzero(near_rows):
            n = int(b[r].sum())
            if n >= 5:
                per_row.append((m[r] & b[r]).sum() / n > 0.5)
        pasts: list[float] = []
        for side in (rows < 0, rows > 0):
            at = b & (past_rows & side)[:, None]
            if at.sum() >= least:
                pasts.append(float((m & at).sum() / at.sum()))
        strip = m & strip_rows[:, None]
        beside = b & near_rows[:, None]
        close = None
        if strip.sum() >= least and beside.sum() >= least:
            keys = np.unique(bins.index[j][strip])
            near = (bins.index[j][beside][:, None] + bins.near[None]).ravel()
            hit = np.isin(near, keys).reshape(-1, len(bins.near)).any(axis=1)
            close = float(hit.mean())
        out.append(
            SpanShares(
                min(sides) if sides else None,
                float(np.mean(per_row)) if per_row else None,
                max(pasts) if pasts else None,
                close,
            )
        )
    return out


def span(families: list[tuple[str, int, int]], boards: int) -> None:
    """The curve of the squares the picture alone asks about as "maybe the print": screens
    against empty squares, by how far the seat's colour runs across the row beside the
    strip (`span_shares`): a top is 8 mm deep, so colour spanning the square is print.
    Per candidate value, how many empty squares a call "empty" would gain and how many
    screens it would read as empty (a silent miss). And the same for the squares called a
    screen by colour (or asked as "body not its colour"): how many phantoms and screens it
    would ask about instead. Each family is SET:SEED:FIRST, boards FIRST.. of seeds
    (SEED, i)."""
    geom = load_geometry()
    kinds = {"maybe the print": "maybe", "colour": "colour", "body not its colour": "colour"}
    found: dict[str, list[tuple[bool, SpanShares, tuple[int, int]]]] = {"maybe": [], "colour": []}
    for which, seed, first in families:
        indices = range(first, first + boards)
        for i, photo, rect, colours in learned_boards(geom, which, seed, indices, False):
            ev = read.evidence(rect, geom, colours, (read.FLOOR, read.FAINT_FLOOR))
            truth = dict(photo.truth.layout_key())
            calls = [c for c in read.classify(rect, geom, colours) if c.why in kinds]
            asks = [(c.cell, int(np.argmax(c.shares))) for c in calls]
            spans = span_shares(rect, geom, ev, asks)
            for call, (cell, seat), sp in zip(calls, asks, spans, strict=True):
                right = truth.get(cell) == seat
                found[kinds[call.why]].append((right, sp, (seed, i)))
                if kinds[call.why] == "maybe" or not right:
                    print(
                        f"  {call.why}: {'screen' if right else 'empty '} {(seed, i)} {cell}: "
                        f"near {sp.near}, rows {sp.rows}, past {sp.past}, close {sp.close}"
                    )
    for kind, good, bad in (
        ("maybe", "empty squares", "screens"),
        ("colour", "phantoms", "screens"),
    ):
        got = found[kind]
        n = sum(f[0] for f in got)
        print(f"{kind}: {n} screens, {len(got) - n} not")
        for name in ("near", "rows", "past", "close"):
            print(
                f"{kind}: taken off the screens when {name} >= V | {good} (boards) | {bad} (boards)"
            )
            for v in SPAN_AT:
                hit = [f for f in got if (getattr(f[1], name) or -1.0) >= v]
                ok = [f for f in hit if not f[0]]
                lost = [f for f in hit if f[0]]
                print(
                    f"  {v:5g} | {len(ok):4d} ({len({f[2] for f in ok}):3d}) | "
                    f"{len(lost):3d} ({len({f[2] for f in lost}):3d})"
                )


MOST_AT = (0.5, 0.6, 0.7, 0.8, 0.9)
"""Candidate shares changed for refl27's washed-top rule (`washed_change`), tried in the
reader at 0.7 (`CHANGED_MOST`) and taken out."""


FAINT_OTHER_AT = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5, 1.01)
"""Candidate bars for the washed-top rule's guard on the other seat's colour at the faint
floor (the reader uses `read.NONE`; 1.01: no guard)."""


def washed_change(families: list[tuple[str, int, int]], boards: int) -> None:
    """The curve of refl27's washed-top rule, with the empty board's print: a strip
    `read.judge_by_print` leaves "changed, unsure" (changed over `PRINT_SAME`, not `SURE`
    in a seat's colour, nor short of `NONE` with no faint trace) with `NONE` in one seat's
    colour and under it in the other's, the board round it not changed into it, nor at all
    (`ARM_BESIDE`, `Change.moved`: those are listed apart), read as that seat's screen
    when it changed over a share (a lamp's glare bleaches a top, but changes all of it).
    Per candidate share, how many screens of that seat such a call would gain, how many
    empty squares it would read as screens and how many screens of the other seat (both
    confident wrong readings); with and without `CHANGED_OWN` of the changed pixels in the
    colour; and the boards then entirely right with the print. It read a phantom and a
    wrong owner on fresh boards that development never showed (docs/reflecto.md): the
    curve is a development curve, not a guarantee. Each family is SET:SEED:FIRST, boards
    FIRST.. of seeds (SEED, i)."""
    geom = load_geometry()
    # (board, truth of the square, seat, share changed, changed pixels in the colour,
    # the other seat's colour at the faint floor)
    found: list[tuple[tuple[int, int], int | None, int, float, float, float]] = []
    wrong: dict[tuple[int, int], int] = {}  # per board, squares read wrong by the reader
    moved: list[tuple[bool, float, float]] = []  # (its screen, `Change.moved`, share changed)
    kept = read.CHANGED_MOST
    read.CHANGED_MOST = 2.0  # the reader without the rule: no strip changes over all of it
    try:
        for b in printed_boards(geom, families, boards):
            full, faint = read._shares(b.rect, geom, b.colours, ev=b.ev)
            seen = {c.cell: c.owner for c in b.calls if c.owner is not None}
            wrong[b.board] = sum(1 for c in geom.cells if seen.get(c) != b.truth.get(c))
            for cell, f, t, change in zip(geom.cells, full, faint, b.changes, strict=True):
                if change is None or change.share <= PRINT_SAME:
                    continue
                colour = [max(float(f[j]), change.colour[j]) for j in (0, 1)]
                k = int(np.argmax(colour))
                best, other = colour[k], min(float(f[1 - k]), change.colour[1 - k])
                if best >= read.SURE and change.share >= SCREEN_CHANGE:
                    continue  # judged by the reader's rule (a screen, or asked on purpose)
                if max(f) < read.NONE and max(t) < read.FAINT:
                    continue  # "changed, no colour"
                if best < read.NONE or other >= read.NONE:
                    continue
                if change.beside[k] >= read.ARM_BESIDE:
                    continue
                if change.moved >= read.ARM_BESIDE:
                    # The board round it changed: asked (an arm), whatever the share.
                    moved.append((b.truth.get(cell) == k, change.moved, change.share))
                    continue
                found.append(
                    (
                        b.board,
                        b.truth.get(cell),
                        k,
                        change.share,
                        change.colour[k],
                        float(t[1 - k]),
                    )
                )
    finally:
        read.CHANGED_MOST = kept
    right_now = sum(1 for v in wrong.values() if v == 0)
    n = sum(1 for f in found if f[1] == f[2])
    print(
        f"candidates: {n} screens of the seat, {len(found) - n} not; boards right now {right_now}"
    )
    for screen, board_moved, share in moved:
        print(
            f"  asked, the board round it changed {board_moved:.2f} (`ARM_BESIDE`): "
            f"{'its screen' if screen else 'not its screen'}, changed {share:.2f}"
        )
    for f in sorted(found, key=lambda f: -f[3]):
        if f[1] != f[2] and f[3] >= 0.3:
            print(
                f"  not its screen {f[0]}: truth {f[1]}, seat {f[2]}, changed {f[3]:.2f}, "
                f"other seat's colour at the faint floor {f[5]:.2f}"
            )

    def row(
        v: float, hit: list[tuple[tuple[int, int], int | None, int, float, float, float]]
    ) -> None:
        ok = [f for f in hit if f[1] == f[2]]
        empty = [f for f in hit if f[1] is None]
        other_seat = len(hit) - len(ok) - len(empty)
        fixed: dict[tuple[int, int], int] = {}
        for f in hit:
            fixed[f[0]] = fixed.get(f[0], 0) + (1 if f[1] == f[2] else -99)
        gained = sum(1 for b, m in fixed.items() if m == wrong[b])
        print(
            f"  {v:4g} | {len(ok):3d} ({len({f[0] for f in ok}):3d}) | {len(empty):3d} | "
            f"{other_seat:3d} | {right_now + gained}"
        )

    for own in (False, True):
        print(
            "called when changed >= V"
            + (" and CHANGED_OWN of the change in the colour" if own else "")
            + " | screens gained (boards) | empty squares | other seat's screens | boards right"
        )
        for v in MOST_AT:
            row(v, [f for f in found if f[3] >= v and (not own or f[4] >= read.CHANGED_OWN)])
    print(
        "called when changed >= CHANGED_MOST and the other seat's colour at the faint floor"
        " under V | screens gained (boards) | empty squares | other seat's screens | boards right"
    )
    for v in FAINT_OTHER_AT:
        row(v, [f for f in found if f[3] >= read.CHANGED_MOST and f[5] < v])


def lost(families: list[tuple[str, int, int]], boards: int) -> None:
    """Why boards read with the empty board's print are not entirely right: every square
    read wrong (a screen missed and asked, missed silently, read in the other seat's
    colour; an empty square read as a screen), tallied by the test that decided it
    (`CellCall.why`), with the boards each class loses and the boards it alone loses
    (fixing it would make them right); then each missed or wrong square with what the
    reader knew of it (`Change`, the strip's shares at both floors, `Photo.washed`)."""
    geom = load_geometry()
    squares: dict[tuple[str, str], int] = {}
    boards_of: dict[tuple[str, str], set[tuple[int, int]]] = {}
    alone: dict[tuple[str, str], int] = {}
    lines: list[str] = []
    n = right = 0
    for b in printed_boards(geom, families, boards):
        n += 1
        classes: set[tuple[str, str]] = set()
        for call, change in zip(b.calls, b.changes, strict=True):
            truth = b.truth.get(call.cell)
            if call.owner == truth:
                continue
            if truth is None:
                kind = "phantom"
            elif call.owner is not None:
                kind = "wrong owner"
            else:
                kind = "missed, asked" if call.unclear else "missed, silent"
            key = (kind, call.why)
            squares[key] = squares.get(key, 0) + 1
            boards_of.setdefault(key, set()).add(b.board)
            classes.add(key)
            ch = (
                "print not known"
                if change is None
                else f"changed {change.share:.2f}, its colour {change.colour[0]:.2f}/"
                f"{change.colour[1]:.2f}, beside {change.beside[0]:.2f}/{change.beside[1]:.2f},"
                f" moved {change.moved:.2f}"
            )
            lines.append(
                f"  {b.which} {b.board[0]} board {b.board[1]} square {call.cell}: {kind}, "
                f"{call.why!r}, truth {truth}, shares {call.shares[0]:.2f}/{call.shares[1]:.2f}"
                f"{' washed' if call.cell in b.photo.washed else ''}; {ch}"
            )
        if not classes:
            right += 1
        elif len(classes) == 1:
            (key,) = classes
            alone[key] = alone.get(key, 0) + 1
    print(
        f"{n} of {boards * len(families)} boards read with the print (the rest: colours not "
        f"learned at set-up, or a board not found), {right} entirely right"
    )
    print("kind | decided by | squares | boards lost | boards lost by it alone")
    for key in sorted(squares, key=lambda k: -len(boards_of[k])):
        print(
            f"  {key[0]:14s} | {key[1]:28s} | {squares[key]:4d} | {len(boards_of[key]):3d} | "
            f"{alone.get(key, 0):3d}"
        )
    print("\n".join(lines))


LOOSE_AT = (16.0, 18.0, 20.0, 22.0, 26.0, 30.0)
"""Candidate `board_print.FIT_LOOSE` values `loose_fit` prints the curve at."""
LOOSE_SHARE_AT = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9)
"""Candidate least shares changed for a screen called where the light is told loosely."""


def loose_fit(families: list[tuple[str, int, int]], boards: int) -> None:
    """The curve of `board_print.FIT_LOOSE` (refl30): the squares whose print cannot be put
    in this picture's light within `board_print.FIT` (read from the picture alone before)
    but can within a candidate, judged by change against their print instead, a screen
    called there only when at least a candidate share of the strip changed (else asked,
    `read.judge_by_print`'s "changed, loose light"). Per candidate pair: screens gained
    (read right now, not before), wrong calls (an empty square or the other seat's
    screen read as a screen, not read so before) and screens lost (read right before,
    not now). Each family is SET:SEED:FIRST, boards FIRST.. of seeds (SEED, i)."""
    geom = load_geometry()
    keep = print_module.FIT_LOOSE
    # (truth, the call before, the least candidate told at, the share changed, its call
    # then with no least share)
    found: list[tuple[int | None, int | None, float, float, int | None]] = []
    try:
        for which, seed, first in families:
            indices = range(first, first + boards)
            for _, photo, rect, colours in learned_boards(geom, which, seed, indices, True):
                assert photo.board is not None  # `learned_boards` with the board
                taught = learn_print(photo.board, geom)
                ev = read.evidence(rect, geom, colours, (read.FLOOR, read.FAINT_FLOOR))
                truth = dict(photo.truth.layout_key())
                per = {}
                for v in (print_module.FIT, *LOOSE_AT):
                    print_module.FIT_LOOSE = v
                    per[v] = (
                        read.print_changes(rect, geom, ev, taught),
                        read.classify(rect, geom, colours, taught),
                    )
                before = per[print_module.FIT]
                for j, cell in enumerate(geom.cells):
                    if before[0][j] is not None:
                        continue
                    at = next((v for v in LOOSE_AT if per[v][0][j] is not None), None)
                    if at is None:
                        continue
                    change, call = per[at][0][j], per[at][1][j]
                    assert change is not None
                    now = call.owner
                    if call.why == "changed, loose light":
                        # The seat `read.judge_by_print` would call with no least share.
                        s = [max(call.shares[k], change.colour[k]) for k in (0, 1)]
                        now = int(np.argmax(s))
                    found.append((truth.get(cell), before[1][j].owner, at, change.share, now))
    finally:
        print_module.FIT_LOOSE = keep
    print(
        f"{len(found)} squares told within a candidate, not within FIT "
        f"({sum(1 for f in found if f[0] is not None)} screens)"
    )
    print("least share changed | FIT_LOOSE | screens gained | wrong calls | screens lost")
    for most in LOOSE_SHARE_AT:
        for v in LOOSE_AT:
            gained = wrong = lost_ = 0
            for truth, before, at, share, now in found:
                if at > v:
                    now = before
                elif now is not None and share < most:
                    now = None
                gained += before != truth and now == truth
                wrong += now is not None and now != truth and now != before
                lost_ += truth is not None and before == truth and now != truth
            print(f"  {most:4g} | {v:4g} | {gained:3d} | {wrong:3d} | {lost_:3d}")


QUANTILES = (0.0, 0.01, 0.05, 0.1, 0.5, 0.9, 0.95, 0.99, 1.0)
"""The quantiles `changed_colour` prints the screens' measures at."""
MOVED_AT = (0.1, 0.15, 0.2, 0.25, 0.3)
"""Candidate least `Change.moved` at which `changed_colour` counts such a call asked."""


def changed_colour(families: list[tuple[str, int, int]], boards: int) -> None:
    """The squares called "changed, colour" with the empty board's print: the wrong ones
    listed, the screens' measures as quantiles (see the module's docstring)."""
    geom = load_geometry()
    wrong: list[str] = []
    wrong_moved: list[float] = []
    measures: dict[str, list[float]] = {"share": [], "own colour": [], "beside": [], "moved": []}
    for b in printed_boards(geom, families, boards):
        for call in b.calls:
            change = b.changes[geom.cells.index(call.cell)]
            if call.why != "changed, colour" or call.owner is None or change is None:
                continue
            k = call.owner
            row = (change.share, change.colour[k], change.beside[k], change.moved)
            if b.truth.get(call.cell) != k:
                wrong.append(
                    f"  {b.which} {b.board[0]} board {b.board[1]} square {call.cell}: seat {k}, "
                    f"truth {b.truth.get(call.cell)}; changed {row[0]:.3f}, in the colour "
                    f"{row[1]:.3f}, beside {row[2]:.3f}, moved {row[3]:.3f}"
                )
                wrong_moved.append(change.moved)
                continue
            for name, v in zip(measures, row, strict=True):
                measures[name].append(v)
    print(f'called "changed, colour": {len(measures["share"])} screens, {len(wrong)} not')
    print("\n".join(wrong))
    print("the screens' measures at quantiles " + ", ".join(f"{q:g}" for q in QUANTILES))
    for name, values in measures.items():
        if values:
            qs = np.quantile(np.array(values), QUANTILES)
            print(f"  {name:10s} | " + " ".join(f"{v:.3f}" for v in qs))
    print(
        "asked when the board round it changed at all (moved) >= V | wrong calls asked | "
        "screens asked"
    )
    for v in MOVED_AT:
        n_wrong = sum(1 for m in wrong_moved if m >= v)
        print(f"  {v:4g} | {n_wrong:3d} | {sum(1 for m in measures['moved'] if m >= v):3d}")


PRINTED_AT = (0.5, 0.7, 0.8, 0.9, 0.95, 0.98)
"""Candidate `read.CHANGED_PRINTED` values `changed_printed` prints the curve at."""


def changed_printed(families: list[tuple[str, int, int]], boards: int) -> None:
    """The curve of `read.CHANGED_PRINTED` (refl31): the squares called a seat's screen by
    their change against the print (`read.CHANGED_CALLS`, the rule off), each with the share
    of its strip's colours the picture alone finds on the board beside it in the close bins
    (`PrintShares.close`, at the faint floor); per candidate value, the wrong calls
    (phantoms, wrong owners) and the right screens that value would ask about. The wrong
    calls are listed by the path that made them."""
    geom = load_geometry()
    saved = read.CHANGED_PRINTED
    read.CHANGED_PRINTED = float("inf")  # the calls as the reader makes them without the rule
    try:
        wrong: list[tuple[float, str]] = []
        right: list[float] = []
        for b in printed_boards(geom, families, boards):
            which = [c for c in b.calls if c.owner is not None and c.why in read.CHANGED_CALLS]
            asks = [(c.cell, c.owner) for c in which if c.owner is not None]
            found = read.print_shares(b.rect, geom, b.ev, asks, 1)
            for call, p in zip(which, found, strict=True):
                close = p.close if p.close is not None else -1.0
                truth = b.truth.get(call.cell)
                if truth == call.owner:
                    right.append(close)
                    continue
                kind = "phantom" if truth is None else "wrong owner"
                wrong.append(
                    (
                        close,
                        f"  {b.which} {b.board[0]} board {b.board[1]} square {call.cell}: "
                        f"{kind}, {call.why!r}, seat {call.owner}; close {close:.2f}, "
                        f"board {p.board}, shade {p.shade}",
                    )
                )
    finally:
        read.CHANGED_PRINTED = saved
    print(f"screens called by change: {len(right)} right, {len(wrong)} wrong")
    print("\n".join(line for _, line in wrong))
    print("asked at close >= V | wrong calls asked | right screens asked")
    for v in PRINTED_AT:
        n_wrong = sum(1 for c, _ in wrong if c >= v)
        print(f"  {v:4g} | {n_wrong:3d} | {sum(1 for c in right if c >= v):3d}")


SOME_CLOSE_AT = (0.5, 0.7, 0.8, 0.9, 0.95)
SOME_SHADE_AT = (2.0, 4.0, 6.0, 8.0, 10.0, 15.0)
"""Candidate close-bin shares and shades (Lab) `some_colour` prints the curve at."""


def some_colour(families: list[tuple[str, int, int]], boards: int) -> None:
    """The curve of `read.SOME_COLOUR_PRINTED` (refl32): the squares the reader asks about as
    "some colour" (one seat's colour over `read.NONE` and short of `read.SURE`, the other's
    under `NONE`, judged without a known print; the rule off), read from the picture alone
    and with the empty board's print (where the print of the square is not known), each
    with the print test of a strip in the seat's colour (`read.print_shares` at the faint
    floor: the share of its colours found on the board beside it in the close bins, its
    shade against the board's beside it). Per candidate, the empty squares it would call
    empty and the screens it would miss silently: the print test as it stands
    (`read.printed`), the close bins alone, the shade alone. The screens are listed."""
    geom = load_geometry()
    saved = read.SOME_COLOUR_PRINTED
    read.SOME_COLOUR_PRINTED = False  # the calls as the reader makes them without the rule
    rows: dict[str, list[tuple[bool, float, float, bool]]] = {"alone": [], "with the print": []}
    screens: list[str] = []

    def measured(
        mode: str,
        board: tuple[int, int],
        which: str,
        rect: read.Rectified,
        ev: read.Evidence,
        truth: dict[tuple[int, int], int],
        calls: Sequence[read.CellCall],
    ) -> None:
        some = [c for c in calls if c.why == "some colour"]
        asks = [(c.cell, int(np.argmax(c.shares))) for c in some]
        for (cell, k), p in zip(asks, read.print_shares(rect, geom, ev, asks, 1), strict=True):
            close = p.close if p.close is not None else -1.0
            shade = p.shade if p.shade is not None else float("inf")
            screen = cell in truth
            rows[mode].append((screen, close, shade, bool(read.printed(p))))
            if screen:
                screens.append(
                    f"  {mode}: {which} {board[0]} board {board[1]} square {cell}: "
                    f"{'its' if truth[cell] == k else 'the other'} seat's screen, close "
                    f"{close:.2f}, shade {shade:.1f}, board {p.board}"
                )

    try:
        for which, seed, first in families:
            boards_of: dict[tuple[int, int], list] = {}
            for b, rect, _colours, ev, truth, call in classified_calls(
                geom, [(which, seed, first)], boards
            ):
                boards_of.setdefault(b, [rect, ev, truth, []])[3].append(call)
            for b, (rect, ev, truth, calls) in boards_of.items():
                measured("alone", b, which, rect, ev, truth, calls)
        for pb in printed_boards(geom, families, boards):
            measured("with the print", pb.board, pb.which, pb.rect, pb.ev, pb.truth, pb.calls)
    finally:
        read.SOME_COLOUR_PRINTED = saved
    print("\n".join(screens))
    for mode, got in rows.items():
        n_screen = sum(1 for r in got if r[0])
        print(f"{mode}: 'some colour' {len(got)} squares, {n_screen} screens")
        print("  rule | empty squares called empty | screens missed silently")
        cuts: list[tuple[str, Callable[[tuple[bool, float, float, bool]], bool]]] = [
            ("read.printed", lambda r: r[3])
        ]
        cuts += [(f"close >= {v:g}", lambda r, v=v: r[1] >= v) for v in SOME_CLOSE_AT]
        cuts += [(f"shade < {v:g}", lambda r, v=v: r[2] < v) for v in SOME_SHADE_AT]
        for name, cut in cuts:
            empty = sum(1 for r in got if cut(r) and not r[0])
            print(f"  {name:14s} | {empty:3d} | {sum(1 for r in got if cut(r) and r[0]):3d}")


@dataclass(frozen=True)
class BodyShares:
    """`body_shares`: a square's own screen's body beside its strip, and the board beside
    it, in one seat's colour (None where too little is in view to tell)."""

    body: float | None
    """Share of the square's own frame and foot ledges off its strip (where only its own
    screen can reach) in the seat's colour."""
    board: float | None
    """Share of the board alone beside the strip in the seat's colour."""


def body_shares(
    rect: read.Rectified,
    geom: BoardGeometry,
    ev: read.Evidence,
    asks: Sequence[tuple[tuple[int, int], int]],
    floor: int,
) -> list[BodyShares]:
    """Per (square, seat) of `asks`: how much of what a screen standing on the square shows
    beside its top (its frame's upright faces and the rest of its top, its foot's ledges:
    `own_faces`, where no other square's screen reaches) is in the seat's colour, and how
    much of the board alone beside it. A top the lamp washed out to white has lost its
    colour, its body has not; an empty square shows its print in both places. A square
    asked about for both seats has its windows drawn once.

    Not part of a read (refl22): asking about a strip of no colour whose body is coloured
    (0.4 of it, under 0.1 of the board beside: the curve `washed`) turned 5 of 27 held-out
    silent misses into questions but cost a read some 10 ms of CPU (loaded), over the speed
    target; see docs/reflecto.md. Kept here for the curves (moved from the reader, refl24);
    a read takes a called strip's body from its print test's windows (`PrintShares.body`),
    which this shares (`read._body_share`)."""
    if not asks:
        return []
    cells = list(dict.fromkeys(cell for cell, _ in asks))
    windows = read._print_windows(rect, geom, ev, [(cell, 0) for cell in cells], floor, lab=False)
    rows = np.abs(np.arange(windows.mask.shape[1]) - windows.centre)
    board = (
        (windows.reach == windows.mine)
        & (rows >= read.SURROUND_MM[0] * read.PX_PER_MM)[None, :, None]
        & ~windows.ledges
        & ~windows.frame
    )
    # Seat 1's colour in the same windows (`_print_windows` gathered seat 0's).
    hx, _ = read._strip(geom)
    far = windows.centre
    pad = ((far, far), (hx, hx))
    masks = np.pad(ev.masks[floor][1], pad)
    at = np.array([[round(v) for v in rect.px(geom.cell_mm(cell))][::-1] for cell in cells])
    other = np.lib.stride_tricks.sliding_window_view(masks, windows.mask.shape[1:])[
        at[:, 0], at[:, 1]
    ]
    least = read.SURROUND_MIN_MM2 * read.PX_PER_MM**2
    nd = board.sum(axis=(1, 2))
    per_seat = []
    for mask in (windows.mask, other):
        on_body = read._body_share(windows, mask)
        on_board = (board & mask).sum(axis=(1, 2))
        per_seat.append(
            [
                BodyShares(on_body[j], float(on_board[j] / nd[j]) if nd[j] >= least else None)
                for j in range(len(cells))
            ]
        )
    index = {cell: j for j, cell in enumerate(cells)}
    return [per_seat[seat][index[cell]] for cell, seat in asks]


BODY_AT = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
"""Candidate least shares of a square's own body in a seat's colour `washed` prints."""
BODY_BOARD_AT = (0.05, 0.1, 0.2, 1.01)
"""Candidate most shares of the board beside in that colour `washed` prints (1.01: any)."""


def washed(families: list[tuple[str, int, int]], boards: int) -> None:
    """The curve of the squares with no colour in their strip (under `read.NONE` of it in
    either seat's colour, no faint trace: "no colour"): screens missed
    silently (a top washed out by the lamp, `Photo.washed`, or otherwise) against empty
    squares, by what would make them ask: the square's own body beside its strip in a
    seat's colour (`body_shares`) at least a candidate share while the board beside
    is under another. Each family is SET:SEED:FIRST, boards FIRST.. of seeds (SEED, i)."""
    geom = load_geometry()
    found: list[tuple[int, float, float, tuple[int, int], bool]] = []
    washed_of: dict[tuple[int, int], frozenset] = {}
    for which, seed, first in families:
        conditions = Conditions(hands=0) if which == "house" else Conditions()
        for i in range(first, first + boards):
            washed_of[(seed, i)] = render_photo(geom, (seed, i), conditions).washed
    for where, rect, _colours, ev, truth, call in classified_calls(geom, families, boards):
        if call.why != "no colour":
            continue
        both = body_shares(rect, geom, ev, [(call.cell, 0), (call.cell, 1)], FLOOR_AT)
        k = int(np.argmax([b.body or 0.0 for b in both]))
        body = both[k].body
        board = both[k].board
        seat = truth.get(call.cell, -1)
        found.append(
            (
                seat,
                -1.0 if body is None else body,
                1.0 if board is None else board,
                where,
                call.cell in washed_of.get(where, frozenset()),
            )
        )
    screens = [f for f in found if f[0] >= 0]
    print(
        f"called empty by no colour: {len(screens)} screens "
        f"({sum(f[4] for f in screens)} mostly glare), {len(found) - len(screens)} empty"
    )
    print("asked when body >= | board < | screens (glare) (boards) | empty squares (boards)")
    for v in BODY_AT:
        for w in BODY_BOARD_AT:
            hit = [f for f in found if f[1] >= v and f[2] < w]
            ok = [f for f in hit if f[0] >= 0]
            bad = [f for f in hit if f[0] < 0]
            print(
                f"  {v:4g} | {w:4g} | {len(ok):3d} ({sum(f[4] for f in ok):3d}) "
                f"({len({f[3] for f in ok}):3d}) | {len(bad):4d} ({len({f[3] for f in bad}):3d})"
            )


CALLED_BODY_AT = (0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5)
"""Candidate least shares of a called screen's own body in its seat's colour `body` prints."""


def body(families: list[tuple[str, int, int]], boards: int) -> None:
    """The curve of the squares the picture alone calls a seat's screen by its colour
    (`read.classify` decided by "colour", or asked as "body not its colour"): right
    screens against phantoms (an empty square, or a screen of the other seat), by how much
    of the square's own body beside its strip (`body_shares`: the rest of the top, the
    frame's upright faces, the foot's ledges, where no other square's screen reaches) is
    in the seat's colour. A printed
    stripe in a seat's colour narrower than the board's margin beside a top (`SURROUND_MM`)
    finds nothing of its colour beside it and reads as a top; a top's body is its own
    plastic. Each phantom is listed. Each family is SET:SEED:FIRST, boards FIRST.. of seeds
    (SEED, i)."""
    geom = load_geometry()
    found: list[tuple[bool, float, float, tuple[int, int], tuple[int, int], float]] = []
    for where, rect, _colours, ev, truth, call in classified_calls(geom, families, boards):
        # Those `read.BODY_CALLED` asks about are counted too: the curve is of the calls
        # the colour alone makes.
        if call.why not in ("colour", "body not its colour"):
            continue
        seat = int(np.argmax(call.shares))
        b = body_shares(rect, geom, ev, [(call.cell, seat)], FLOOR_AT)[0]
        right = truth.get(call.cell) == seat
        got = -1.0 if b.body is None else b.body
        beside = -1.0 if b.board is None else b.board
        centre = centre_share(rect, geom, ev, call.cell, seat)
        found.append((right, got, beside, where, call.cell, centre))
        if not right:
            print(
                f"  phantom {where} {call.cell}: body {got:.2f}, board beside {beside:.2f}, "
                f"centre {centre:.2f}"
            )
    phantoms = [f for f in found if not f[0]]
    print(f"{len(found) - len(phantoms)} screens and {len(phantoms)} phantoms called by colour")
    print("asked when body < | phantoms asked (boards) | screens asked (boards)")
    for v in CALLED_BODY_AT:
        hit = [f for f in found if 0.0 <= f[1] < v]
        ph = [f for f in hit if not f[0]]
        ok = [f for f in hit if f[0]]
        print(
            f"  {v:5g} | {len(ph):3d} ({len({f[3] for f in ph}):3d}) | "
            f"{len(ok):4d} ({len({f[3] for f in ok}):3d})"
        )
    print("asked when the centre strip's share < | phantoms asked (boards) | screens asked")
    for v in CENTRE_AT:
        hit = [f for f in found if f[5] < v]
        ph = [f for f in hit if not f[0]]
        ok = [f for f in hit if f[0]]
        print(
            f"  {v:5g} | {len(ph):3d} ({len({f[3] for f in ph}):3d}) | "
            f"{len(ok):4d} ({len({f[3] for f in ok}):3d})"
        )


CENTRE_AT = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6)
"""Candidate least shares of the unshifted centre strip in the seat's colour `body` prints."""


def centre_share(
    rect: read.Rectified, geom: BoardGeometry, ev: read.Evidence, cell: tuple[int, int], seat: int
) -> float:
    """The share of a square's strip, unshifted, in the seat's colour at the faint floor,
    where no other square's screen reaches (`read._shares` takes the best of its search
    shifts). A top at most `read.SEARCH_MM` off its square still covers it."""
    hx, hy = read._strip(geom)
    cx, cy = (round(v) for v in rect.px(geom.cell_mm(cell)))
    sl = (slice(max(cy - hy, 0), cy + hy + 1), slice(max(cx - hx, 0), cx + hx + 1))
    free = ev.reach[sl] <= 1
    return float((ev.masks[FLOOR_AT][seat][sl] & free).sum() / max(int(free.sum()), 1))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--seed", type=int, required=True)
    c.add_argument("--boards", type=int, default=150)
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--set", choices=["house", "random"], default="random")
    v = sub.add_parser("curves")
    v.add_argument("paths", type=Path, nargs="+")
    w = sub.add_parser("sweep")
    w.add_argument("--seed", type=int, required=True)
    w.add_argument("--boards", type=int, default=30)
    w.add_argument("--set", choices=["house", "random"], default="random")
    w.add_argument(
        "--name",
        required=True,
        help="a constant of read.py, e.g. DARK, or of board_print.py, e.g. board_print.FIT",
    )
    w.add_argument("--values", type=float, nargs="+", required=True)
    w.add_argument("--board", action="store_true", help="read with the empty board's print")
    w.add_argument("--first", type=int, default=0, help="the family's first board")
    r = sub.add_parser("refusal")
    r.add_argument("--family", action="append", required=True, help="SET:SEED")
    r.add_argument("--boards", type=int, default=60)
    u = sub.add_parser("unchanged")
    u.add_argument("--family", action="append", required=True, help="SET:SEED")
    u.add_argument("--boards", type=int, default=30)
    o = sub.add_parser("colour")
    o.add_argument("--family", action="append", required=True, help="SET:SEED:FIRST")
    o.add_argument("--boards", type=int, default=30)
    m = sub.add_parser("maybe")
    m.add_argument("--family", action="append", required=True, help="SET:SEED:FIRST")
    m.add_argument("--boards", type=int, default=30)
    d = sub.add_parser("washed")
    d.add_argument("--family", action="append", required=True, help="SET:SEED:FIRST")
    d.add_argument("--boards", type=int, default=30)
    b = sub.add_parser("body")
    b.add_argument("--family", action="append", required=True, help="SET:SEED:FIRST")
    b.add_argument("--boards", type=int, default=30)
    e = sub.add_parser("ends")
    e.add_argument("--family", action="append", required=True, help="SET:SEED:FIRST")
    e.add_argument("--boards", type=int, default=30)
    e.add_argument("--both", action="store_true", help="count only strips with both ends in view")
    wc = sub.add_parser("washed-change")
    wc.add_argument("--family", action="append", required=True, help="SET:SEED:FIRST")
    wc.add_argument("--boards", type=int, default=40)
    cc = sub.add_parser("changed-colour")
    cc.add_argument("--family", action="append", required=True, help="SET:SEED:FIRST")
    cc.add_argument("--boards", type=int, default=40)
    lf = sub.add_parser("loose-fit")
    lf.add_argument("--family", action="append", required=True, help="SET:SEED:FIRST")
    lf.add_argument("--boards", type=int, default=30)
    sc = sub.add_parser("some-colour")
    sc.add_argument("--family", action="append", required=True, help="SET:SEED:FIRST")
    sc.add_argument("--boards", type=int, default=30)
    cp = sub.add_parser("changed-printed")
    cp.add_argument("--family", action="append", required=True, help="SET:SEED:FIRST")
    cp.add_argument("--boards", type=int, default=30)
    lo = sub.add_parser("lost")
    lo.add_argument("--family", action="append", required=True, help="SET:SEED:FIRST")
    lo.add_argument("--boards", type=int, default=40)
    sp = sub.add_parser("span")
    sp.add_argument("--family", action="append", required=True, help="SET:SEED:FIRST")
    sp.add_argument("--boards", type=int, default=30)
    a = p.parse_args()
    if a.cmd == "collect":
        collect(a.seed, a.boards, a.out, a.set)
    elif a.cmd == "sweep":
        module, name = _constant(a.name)
        if not hasattr(module, name):
            p.error(f"{module.__name__} has no constant {name}")
        sweep(a.seed, a.boards, a.name, a.values, a.set, a.board, a.first)
    elif a.cmd in (
        "colour",
        "maybe",
        "washed",
        "body",
        "ends",
        "span",
        "washed-change",
        "changed-colour",
        "changed-printed",
        "some-colour",
        "lost",
        "loose-fit",
    ):
        fams = [(f.split(":")[0], int(f.split(":")[1]), int(f.split(":")[2])) for f in a.family]
        if any(which not in ("house", "random") for which, _, _ in fams):
            p.error("--family SET:SEED:FIRST with SET house or random")
        cmds = {
            "colour": colour,
            "maybe": maybe,
            "washed": washed,
            "body": body,
            "ends": ends,
            "span": span,
            "washed-change": washed_change,
            "changed-colour": changed_colour,
            "changed-printed": changed_printed,
            "some-colour": some_colour,
            "lost": lost,
            "loose-fit": loose_fit,
        }
        if a.cmd == "ends":
            ends(fams, a.boards, a.both)
        else:
            cmds[a.cmd](fams, a.boards)
    elif a.cmd in ("refusal", "unchanged"):
        families = [(f.split(":")[0], int(f.split(":")[1])) for f in a.family]
        if any(which not in ("house", "random") for which, _ in families):
            p.error("--family SET:SEED with SET house or random")
        {"refusal": refusal, "unchanged": unchanged}[a.cmd](families, a.boards)
    else:
        curves(a.paths)


if __name__ == "__main__":
    main()
