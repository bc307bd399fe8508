"""Queen Alice reader failures by cause, on a DEVELOPMENT set: so the next fix is chosen
from data, not from one picture.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --boards 60
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --curves
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --crown-curve
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --flat-slots-curve
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --crown-apart-curve
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --print-leads-curve
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --lone-curve
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --told-curve
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --ref-alike-curve
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --band-curve
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --near-curve
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --near-clear-curve
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --far-curve
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --one-colour-curve
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --untold-hue-curve
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --structure-curve
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --cut-curve
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --shared-curve
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --side-curve
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --paths
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --cut-clear-curve
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_failures.py --seed S --cache DIR \
        --against REF    # every square whose reading changed from commit REF's reader

Renders boards (SEED, i) with the house renderer, half with no arm and half with up to two
(`--arms`: every board with up to two, as the `random` set of `queen_alice_vision.py`)
(development seeds only: a seed measured as fresh in `queen_alice_vision.py` is never used
here), reads each, and puts every wrong board's faults in classes:

    missed        a piece read as an empty square
    missed_hidden a piece an arm hides read as an empty square (the reader should ask)
    wrong_colour  a red piece read white, or white read red
    asked_piece   a piece no arm comes near called unsure
    asked_empty   an empty square no arm comes near called unsure
    phantom       a piece read where none stands
    crowns        the Crowns left wrong (or None with no arm over the display)
    alice         an Alice token wrong (or None with no arm over its path)

Each class is split by the scene's drawn conditions (set style, tilt, glare, shadow, arm,
the red's and the white's shade), and every wrong square is listed with the reader's shares
of its middle (like the print / red / white), the numbers its thresholds act on.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import pickle
import secrets
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.queen_alice_vision import _reading_key, judge, reader_at  # noqa: E402
from companion.games.queen_alice.vision import empty as empty_look_module  # noqa: E402
from companion.games.queen_alice.vision import read as reader  # noqa: E402
from companion.games.queen_alice.vision.geometry import (  # noqa: E402
    BoardGeometry,
    Cell,
    load_geometry,
)
from companion.games.queen_alice.vision.reading import BoardReading  # noqa: E402
from companion.games.queen_alice.vision.render import (  # noqa: E402
    Conditions,
    Photo,
    render_empty,
    render_photo,
    slots_print,
)


def _shade(bgr: tuple[int, int, int]) -> str:
    h, s, v = cv2.cvtColor(np.array([[bgr]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0]
    hue = int(h) * 2 // 10 * 10
    sat, val = (int(x) * 100 // 255 // 20 * 20 for x in (s, v))
    return f"h{hue:03d} s{sat:02d} v{val:02d}"


def conditions_of(design: dict[str, Any]) -> dict[str, str]:
    tilt = float(design.get("tilt_deg", 0))
    return {
        "style": str(design.get("style")),
        "tilt": "tilt>15" if tilt > 15 else "tilt<=15",
        "glare": "glare" if design.get("glare") else "no glare",
        "shadow": "shadow" if design.get("shadow") else "no shadow",
        "arm": "arm" if design.get("arm") else "no arm",
        "slots": "crown print" if design.get("crown_print") else "plain slots",
        "wider": "wider" if design.get("wider") else "house",
        **{
            f"wider {name}": name if name in design.get("wider", []) else "-"
            for name in ("print", "panel", "motif", "pieces", "cast")
        },
        "red": _shade(design["red"]) if "red" in design else "?",
        "white": _shade(design["white"]) if "white" in design else "?",
    }


def faults(
    reading: BoardReading, photo: Any, cells: tuple[Cell, ...]
) -> tuple[list[str], list[tuple[Any, str, str]]]:
    """Fault classes on one board and the wrong squares (cell, want, got). What counts as
    wrong is `queen_alice_vision.py`'s `judge` (one definition: a piece an arm hides read
    empty is wrong there, the reader should have asked, so it is here too, as
    `missed_hidden`); this only names each fault's class."""
    verdict = judge(reading, photo.truth, photo.near_arm, photo.position, cells)
    kinds: list[str] = []
    wrong = verdict["squares_wrong"]
    for cell, want, got in wrong:
        if got == "unsure":
            kinds.append("asked_piece" if want != "empty" else "asked_empty")
        elif want == "empty":
            kinds.append("phantom")
        elif got == "empty":
            kinds.append("missed_hidden" if cell in photo.truth.unsure else "missed")
        else:
            kinds.append("wrong_colour")
    kinds += ["crowns" if name == "crowns" else "alice" for name, _, _ in verdict["extras"]]
    return kinds, wrong


OUTCOMES = ("right", "asked", "wrong", "phantom")
"""What one square's reading is against the truth: read right, asked (called unsure, near
an arm or not), read as another piece or empty where a piece stands, or a piece read where
none stands."""


def outcome(want: str, got: str) -> str:
    """One square's outcome (`OUTCOMES`) when `want` stands there and `got` is read."""
    if got == want:
        return "right"
    if got == "unsure":
        return "asked"
    return "phantom" if want == "empty" else "wrong"


def _said(reading: BoardReading, cell: Cell) -> str:
    return "unsure" if cell in reading.unsure else reading.squares.get(cell, "empty")


def changes(
    mine: BoardReading,
    theirs: BoardReading,
    truth: BoardReading,
    position: BoardReading,
    cells: tuple[Cell, ...],
) -> list[dict[str, Any]]:
    """Every square (and Crown count, Alice token) whose reading differs between this
    reader (`mine`) and another (`theirs`) on one board, each with its change of outcome
    (`theirs`'s -> `mine`'s, e.g. `asked->right`, `right->phantom`): the readings a change
    of reader moved, right or wrong, listed so no single one hides in a board total."""
    out = []
    for cell in cells:
        a, b = _said(mine, cell), _said(theirs, cell)
        if a != b:
            want = position.squares.get(cell, "empty")
            change = f"{outcome(want, b)}->{outcome(want, a)}"
            out.append({"what": list(cell), "want": want, "was": b, "now": a, "change": change})
    extras: list[tuple[str, Any, Any, Any]] = [
        ("crowns", truth.crowns_left, theirs.crowns_left, mine.crowns_left)
    ]
    for colour in ("red", "white"):
        extras.append(
            (f"alice {colour}", truth.alice[colour], theirs.alice[colour], mine.alice[colour])
        )
    for name, want, b, a in extras:
        if a != b:  # an arm over it in the truth (None): either reading passes `judge`
            judged = [
                "unjudged"
                if want is None
                else "right"
                if got == want
                else "asked"
                if got is None
                else "wrong"
                for got in (b, a)
            ]
            out.append(
                {"what": name, "want": want, "was": b, "now": a, "change": "->".join(judged)}
            )
    return out


def curves(seed: int, boards: int) -> dict[str, Any]:
    """The curves thresholds were chosen from, on development renders (a third without
    arms): `LIGHT_ONLY`, each run round the grid that `find_arms` sees against the
    renderer's arm mask; `STRUCTURE`, each square's disc spread against the truth, for
    empty squares the colours call empty (no arm near) and pieces they call empty;
    `STANDS_OUT` and `EDGES_OUT`, the same squares and those the colours call unsure, by
    their spread and sharpest steps against the board's median square's."""
    geom = load_geometry()
    runs: list[tuple[float, bool]] = []
    spreads: list[tuple[float, str]] = []
    stands: list[tuple[float, float, str]] = []
    for i in range(boards):
        photo = render_photo(geom, (seed, i), Conditions(hands=i % 3))
        where = reader.locate(photo.image, geom)
        if where is None:
            continue
        saved = reader.LIGHT_ONLY
        reader.LIGHT_ONLY = -1.0  # every run wide enough, light or not
        try:
            arms = reader.find_arms(photo.image, geom, where)
        finally:
            reader.LIGHT_ONLY = saved
        for arm in arms.arms:
            pix = reader.mm_to_pixels(where.pose, arm.crossing_mm)
            pts = reader._sample(photo.image, where.pose, arm.crossing_mm)
            ground = _loop_ground(photo.image, geom, where)
            off = float(np.median(reader._off_the_light_line(pts, ground)))
            mask = photo.arm_mask
            on_arm = mask is not None and bool(
                np.mean(
                    [
                        mask[
                            min(mask.shape[0] - 1, max(0, int(y))),
                            min(mask.shape[1] - 1, max(0, int(x))),
                        ]
                        > 0
                        for x, y in pix
                    ]
                )
                >= 0.5
            )
            runs.append((off, on_arm))
        colours = reader.sample_squares(photo.image, geom, where, geom.cells)
        calls = reader.classify(colours)
        assert colours.structure is not None and colours.edges is not None
        busy = float(np.median(colours.structure))
        sharp = float(np.median(colours.edges))
        for k, cell in enumerate(geom.cells):
            if calls[k][0] in ("unsure", "gold") and cell not in photo.near_arm:
                want = photo.position.squares.get(cell, "empty")
                stands.append(
                    (float(colours.structure[k]) / busy, float(colours.edges[k]) / sharp, want)
                )
            if calls[k][0] != "empty" or cell in photo.near_arm:
                continue
            want = photo.position.squares.get(cell, "empty")
            spreads.append((float(colours.structure[k]), want))
            stands.append(
                (float(colours.structure[k]) / busy, float(colours.edges[k]) / sharp, want)
            )
        print(f"\rcurves {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    light = [
        {
            "threshold": t,
            "arms_dropped": sum(off <= t for off, arm in runs if arm),
            "lights_kept": sum(off > t for off, arm in runs if not arm),
        }
        for t in (4.0, 8.0, 12.0, 16.0, 20.0)
    ]
    structure = [
        {
            "threshold": t,
            "empty_flagged": sum(v > t for v, w in spreads if w == "empty"),
            "missed_caught": f"{sum(v > t for v, w in spreads if w != 'empty')}/"
            f"{sum(w != 'empty' for _, w in spreads)}",
        }
        for t in (7.0, 8.0, 9.0, 10.0, 12.0)
    ]
    stand_out = [
        {
            "stands_out": a,
            "edges_out": e,
            "empty_found": sum(r >= a and g >= e for r, g, w in stands if w == "empty"),
            "pieces_found": f"{sum(r >= a and g >= e for r, g, w in stands if w != 'empty')}/"
            f"{sum(w != 'empty' for _, _, w in stands)}",
        }
        for a in (2.5, 3.0, 3.5)
        for e in (0.0, 2.0, 2.2, 2.5, 3.0)
    ]
    return {
        "seed": seed,
        "boards": boards,
        "runs": len(runs),
        "light_only": light,
        "structure": structure,
        "stand_out": stand_out,
    }


def outline_curve(seed: int, boards: int) -> dict[str, Any]:
    """The curve `OUTLINED` was chosen from, on development renders (two thirds with arms):
    each run round the grid `find_arms` would take for an arm in the ground's own colour
    (`outlined_runs`, none of its points in a run it takes already), by the step at its
    ends, against the renderer's arm mask; and the boards where such an arm is in view."""
    geom = load_geometry()
    runs: list[tuple[float, bool]] = []
    for i in range(boards):
        photo = render_photo(geom, (seed, i), Conditions(hands=i % 3))
        where = reader.locate(photo.image, geom)
        if where is None:
            continue
        saved = reader.OUTLINED
        reader.OUTLINED = math.inf
        try:
            before = reader.find_arms(photo.image, geom, where)
        finally:
            reader.OUTLINED = saved
        seen = {tuple(p) for run in (*before.arms, *before.lit) for p in run.crossing_mm}
        pts = reader.loop_points(geom)
        lab = reader._lab(reader._sample(photo.image, where.pose, pts))
        min_run = reader.ARM_RUN_SQ / reader.LOOP_STEP_SQ
        for a, b, step in reader.outlined_runs(lab, min_run):
            idx = np.arange(a, b) % len(pts)
            if any(tuple(p) in seen for p in pts[idx]):
                continue
            runs.append((step, _on_arm(photo, where, pts[idx])))
        print(f"\routline curve {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return {
        "seed": seed,
        "boards": boards,
        "runs": len(runs),
        "outlined": [
            {
                "threshold": t,
                "arms_kept": _at_or_above(runs, t, True),
                "light_kept": _at_or_above(runs, t, False),
            }
            for t in (2.0, 4.0, 6.0, 8.0, 10.0, 12.0)
        ],
    }


def _at_or_above(values: list[tuple[float, bool]], t: float, kind: bool) -> str:
    """A curve's cell: how many values of one kind reach the threshold, out of that kind."""
    of_kind = [v for v, k in values if k == kind]
    return f"{sum(v >= t for v in of_kind)}/{len(of_kind)}"


def _on_arm(photo: Any, where: Any, pts_mm: np.ndarray) -> bool:
    """At least half the points fall on the renderer's arm mask."""
    mask = photo.arm_mask
    if mask is None:
        return False
    pix = reader.mm_to_pixels(where.pose, pts_mm)
    h, w = mask.shape[:2]
    inside = [mask[min(h - 1, max(0, int(y))), min(w - 1, max(0, int(x)))] > 0 for x, y in pix]
    return bool(np.mean(inside) >= 0.5)


def crown_curve(seed: int, boards: int) -> dict[str, Any]:
    """The curve `CROWN_STANDS` and `CROWN_FLAT` were chosen from, on development renders (a
    third with arms): each Crown slot the colours call gold or unsure, by its disc spread over
    the path spaces' median, against the renderer's answer key per slot (`crowns_at`), on
    every board and on those whose slots are printed in gold; and the reader's counts,
    right, asked or wrong, on boards with no arm over the display."""
    geom = load_geometry()
    slots: list[tuple[float, bool, bool]] = []
    counts: Counter[str] = Counter()
    paths = (*geom.paths["red"], *geom.paths["white"])
    for i in range(boards):
        photo = render_photo(geom, (seed, i), Conditions(hands=0) if i % 3 else Conditions())
        where = reader.locate(photo.image, geom)
        if where is None or photo.truth.crowns_left is None:
            continue
        got = reader.read_board(photo.image, geom=geom).crowns_left
        counts[
            "right" if got == photo.truth.crowns_left else "asked" if got is None else "wrong"
        ] += 1
        calls = reader._spot_calls(photo.image, geom, where, geom.crown_slots, None)
        spread = reader._slot_spread(photo.image, geom, where, [*geom.crown_slots, *paths])
        n = len(geom.crown_slots)
        ref = float(np.median(spread[n:]))
        for k, (v, _) in enumerate(calls):
            if v in ("gold", "unsure"):
                at = k in photo.design["crowns_at"]
                slots.append((float(spread[k]) / ref, at, bool(photo.design["crown_print"])))
        print(f"\rcrown curve {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)

    def row(t: float, printed: bool) -> dict[str, Any]:
        pick = [(r, at) for r, at, p in slots if p or not printed]
        return {
            "threshold": t,
            "gold_print" if printed else "every_board": {
                "empty_at_or_above": f"{sum(r >= t for r, at in pick if not at)}/"
                f"{sum(not at for _, at in pick)}",
                "crowns_below": f"{sum(r < t for r, at in pick if at)}/{sum(at for _, at in pick)}",
            },
        }

    thresholds = (1.6, 1.8, 2.0, 2.2, 2.4, 2.6, 2.8, 3.0)
    return {
        "seed": seed,
        "boards": boards,
        "stands": [row(t, False) for t in thresholds] + [row(t, True) for t in thresholds],
        "counts": dict(counts),
    }


def flat_slots_curve(seed: int, boards: int) -> dict[str, Any]:
    """The curve `CROWN_FLATS_ALIKE` was chosen from, on development renders whose Crown
    slots are all printed in gold (a third with arms; the others are not drawn): per board
    the busiest flat slot (`CROWN_FLAT`) over the flattest, by whether a flat slot holds a
    Crown (the count then wrong), and how many boards each threshold asks about."""
    geom = load_geometry()
    ratios: list[tuple[float, bool]] = []
    i = 0
    while len(ratios) < boards and i < 40 * boards:
        i += 1
        if slots_print((seed, i)) is None:
            continue
        photo = render_photo(geom, (seed, i), Conditions(hands=0) if i % 3 else Conditions())
        where = reader.locate(photo.image, geom)
        if where is None or photo.truth.crowns_left is None:
            continue
        arms = reader.find_arms(photo.image, geom, where)
        calls = reader._spot_calls(photo.image, geom, where, geom.crown_slots, arms)
        clear = reader.crown_reference(
            geom, arms, lambda im=photo.image, w=where, a=arms: reader.path_calls(im, geom, w, a)
        )
        if any(v != "gold" for v, _ in calls) or len(clear) < reader.CROWN_REF_MIN:
            continue  # asked or counted on the slots' colours, not by standing alone
        spread = reader._slot_spread(photo.image, geom, where, [*geom.crown_slots, *clear])
        n = len(geom.crown_slots)
        stands = spread[:n] / max(float(np.median(spread[n:])), 1e-6)
        flat = np.flatnonzero(stands < reader.CROWN_FLAT)
        if len(flat) == 0:
            continue
        crown_flat = any(int(k) in photo.design["crowns_at"] for k in flat)
        ratios.append((float(stands[flat].max() / stands[flat].min()), crown_flat))
        print(f"\rflat slots curve {len(ratios)}/{boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return {
        "seed": seed,
        "boards": len(ratios),
        "with_a_flat_crown": [round(r, 2) for r, c in ratios if c],
        "asked_at_or_above": [
            {
                "threshold": t,
                "no_flat_crown": f"{sum(r > t for r, c in ratios if not c)}/"
                f"{sum(not c for _, c in ratios)}",
                "a_flat_crown": f"{sum(r > t for r, c in ratios if c)}/{sum(c for _, c in ratios)}",
            }
            for t in (1.5, 2.0, 2.5, 3.0, 3.5)
        ],
    }


def crown_apart_curve(seed: int, boards: int) -> dict[str, Any]:
    """The curve `CROWN_APART` was chosen from, on development renders (a third with arms):
    on every board whose Crown count the rest of the reader asks about (None, with no arm
    over the display in the truth), the largest ratio between two slots' standing next to
    each other in order (`crowns_apart`'s gap), and whether the slots above it are the
    Crowns; and the counts `crowns_apart` gives at each threshold, right or wrong."""
    geom = load_geometry()
    asked: list[tuple[float, bool, int | None]] = []  # (gap, the split right, apart's count)
    counts: Counter[str] = Counter()
    saved = reader.CROWN_APART
    try:
        for i in range(boards):
            photo = render_photo(geom, (seed, i), Conditions(hands=0) if i % 3 else Conditions())
            truth = photo.truth.crowns_left
            where = reader.locate(photo.image, geom)
            if where is None or truth is None:
                continue
            arms = reader.find_arms(photo.image, geom, where)
            reader.CROWN_APART = math.inf
            got = reader._crowns(photo.image, geom, where, arms)
            counts["right" if got == truth else "asked" if got is None else "wrong"] += 1
            if got is not None:
                continue
            reader.CROWN_APART = 1.0
            split = reader._crowns(photo.image, geom, where, arms)
            gap = reader.crowns_gap(reader.crown_stands(photo.image, geom, where, arms))
            asked.append((gap, split == truth, split))
            print(f"\rcrown apart curve {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    finally:
        reader.CROWN_APART = saved
    print(file=sys.stderr)
    return {
        "seed": seed,
        "boards": boards,
        "counts_before": dict(counts),
        "asked_gaps": sorted((round(g, 2), ok) for g, ok, _ in asked),
        "counted_at_or_above": [
            {
                "threshold": t,
                "right": sum(g >= t and ok for g, ok, n in asked if n is not None),
                "wrong": sum(g >= t and not ok for g, ok, n in asked if n is not None),
            }
            for t in (1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0)
        ],
    }


def ref_alike_curve(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """A curve for asking the Crown count when the path spaces that set its scale are unlike
    one another (tried as `CROWN_REF_ALIKE` 2.5 after 8fb0bca and taken out: the `sim`
    film's flat path spaces, spreads at the noise's level, have quartile ratios over 3 and
    its Crowns were asked in every frame), on development renders: on every board with the
    display in view, the path spaces that set the Crowns' scale (`crown_reference`), their
    upper quartile of disc spread over their lower and the gap between the two, and
    whether the reader's Crown count is right, wrong or asked; then, at each threshold, the
    counts a check of the ratio would ask about."""
    geom = load_geometry()
    rows: list[tuple[float, str]] = []
    gaps: list[tuple[float, float, str]] = []
    for i, photo, where in _located_photos(geom, seed, boards, arms):
        truth = photo.truth.crowns_left
        if truth is None:
            continue
        arms_seen = reader.find_arms(photo.image, geom, where)
        paths = reader.path_calls(photo.image, geom, where, arms_seen)
        got = reader._crowns(photo.image, geom, where, arms_seen, paths)
        clear = reader.crown_reference(geom, arms_seen, lambda p=paths: p)
        if len(clear) < reader.CROWN_REF_MIN:
            continue
        spread = reader._slot_spread(photo.image, geom, where, list(clear))
        low, high = np.percentile(spread, [25, 75])
        outcome = "asked" if got is None else "right" if got == truth else "wrong"
        rows.append((float(high / max(low, 1e-6)), outcome))
        gaps.append((round(float(high / max(low, 1e-6)), 2), round(float(high - low), 1), outcome))
        print(f"\rref alike curve {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return {
        "seed": seed,
        "boards": boards,
        "ratios_and_gaps": sorted(gaps),
        "asked_at": [
            {
                "threshold": t,
                **{o: sum(r > t and oo == o for r, oo in rows) for o in ("right", "wrong")},
            }
            for t in (1.5, 2.0, 2.5, 3.0, 4.0)
        ],
    }


CACHE: Path | None = None
"""Where development renders are kept (`--cache DIR`): a board takes seconds to render and
tens of milliseconds to read, so a set rendered once is read again at every value of a
curve, by each try of a change, and by `--same` against another commit."""

HOUSE = False
"""`--house`: every board with no arm (as the `house` set of `queen_alice_vision.py`)."""


def board_conditions(i: int, arms: bool) -> Conditions:
    """Board `i`'s conditions: no hands with `--house`, up to two with `arms`, else every
    other one without (the curves' mix)."""
    if HOUSE or (i % 2 == 0 and not arms):
        return Conditions(hands=0)
    return Conditions()


def cached_photo(geom: BoardGeometry, seed: int, i: int, conditions: Conditions) -> Photo:
    """Render (seed, i) under `conditions`, or load it from `CACHE` where it was kept."""
    if CACHE is None:
        return render_photo(geom, (seed, i), conditions)
    key = hashlib.sha256(repr((seed, i, conditions)).encode()).hexdigest()[:16]
    path = CACHE / f"{seed}_{i}_{key}.pkl"
    if path.exists():
        photo: Photo = pickle.loads(path.read_bytes())
        return photo
    photo = render_photo(geom, (seed, i), conditions)
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(photo))
    return photo


def _located_photos(
    geom: BoardGeometry, seed: int, boards: int, arms: bool
) -> Iterator[tuple[int, Photo, reader.Located]]:
    """(index, photo, where the board lies) of each development render the reader locates,
    every other one without hands unless `arms` (the curves' mix of boards)."""
    for i in range(boards):
        photo = cached_photo(geom, seed, i, board_conditions(i, arms))
        where = reader.locate(photo.image, geom)
        if where is not None:
            yield i, photo, where


def same_as(ref: str, seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """The development boards whose reading (everything it says, confidences and warnings
    too) differs between this reader and the reader of commit `ref`: a change meant to leave
    the readings alone is checked bit for bit on a cached set (`--cache`)."""
    geom = load_geometry()
    other = reader_at(ref)
    differ = []
    for i in range(boards):
        photo = cached_photo(geom, seed, i, board_conditions(i, arms))
        mine = reader.read_board(photo.image, geom=geom)
        theirs = other.read_board(photo.image, geom=geom)
        if _reading_key(mine) != _reading_key(theirs):
            differ.append(i)
        print(f"\rsame {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return {"seed": seed, "boards": boards, "against": ref, "differ": differ}


def beside_read_py(ref: str) -> list[str]:
    """The files of `companion/` that differ between commit `ref` and this tree, other than
    the reader (`vision/read.py`): `reader_at` loads only `read.py` as it was at `ref`, with
    today's other modules, so a change in these is not in the `--against` readings."""
    names = subprocess.run(
        ["git", "diff", "--name-only", ref, "--", "companion/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [n for n in names if n != "companion/games/queen_alice/vision/read.py"]


def print_leads_curve(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """A curve for asking about a square the colours call red or white whose middle is more
    like the print than of the piece's colour (tried as `PRINT_LEADS` 0.1 at 7d354db and
    reverted: on fresh boards 2 fewer entirely right for 1 phantom fewer), on development
    renders: every such square no arm comes near, by print share - piece share, against the
    answer key: the pieces and the empty squares (phantoms) asked about at each threshold."""
    geom = load_geometry()
    rows: list[tuple[float, bool]] = []  # (print share - piece share, a piece there)
    for i, photo, where in _located_photos(geom, seed, boards, arms):
        colours = reader.sample_squares(photo.image, geom, where, geom.cells)
        for cell, s in zip(geom.cells, reader.shares(colours), strict=True):
            best = max(("red", s.red), ("white", s.white), ("gold", s.gold), key=lambda kv: kv[1])
            if cell in photo.near_arm or s.board >= 1 - reader.SHARE or best[0] == "gold":
                continue
            if best[1] >= reader.SHARE:
                rows.append((s.board - best[1], cell in photo.position.squares))
        print(f"\rprint leads curve {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return {
        "seed": seed,
        "boards": boards,
        "colour_calls": len(rows),
        "asked": [
            {
                "threshold": t,
                "pieces": _at_or_above(rows, t, True),
                "empty": _at_or_above(rows, t, False),
            }
            for t in (-0.3, -0.2, -0.1, 0.0, 0.05, 0.1, 0.2, 0.3)
        ],
    }


def lone_curve(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """The `ALONE` curve, on development renders: every square that stands out
    (`stand_out`) among those not read by structure beside an arm (`not_by_structure`),
    whose middle is clearly of one of the board's piece colours (`NEAR`, `APART`), by how
    many of its four neighbours the colours do not tell, at most each threshold
    (`lone_squares`): read right (a piece of that colour), a piece of the other colour, and
    phantoms (no piece there)."""
    geom = load_geometry()
    thresholds = (0, 1, 2, 3, 4)
    counts = {t: Counter[str]() for t in thresholds}
    for i, photo, where in _located_photos(geom, seed, boards, arms):
        cells = geom.cells
        found_arms = reader.find_arms(photo.image, geom, where)
        colours = reader.sample_squares(photo.image, geom, where, cells)
        assert colours.structure is not None
        under = reader.arm_squares(colours, found_arms, geom, cells)
        calls = [
            ("unsure", 0.0) if c in under else call
            for c, call in zip(cells, reader.classify(colours), strict=True)
        ]
        scale = reader.print_scale(colours.structure, colours.beside)
        calls = reader.structure_unsure(calls, colours.structure, scale=scale)
        skip = {k for k, c in enumerate(cells) if c in under}
        ask = reader.not_by_structure(geom, found_arms, colours)
        found = reader.stand_out(calls, colours, skip)
        tone = reader.board_tone(reader.median_along(colours.middle, 1))
        centres = reader.two_centres(calls, tone, found)
        if centres is None:
            continue
        saved = reader.ALONE
        try:
            for t in thresholds:
                reader.ALONE = t
                lone = reader.lone_squares(cells, calls)
                for k in found:
                    if k not in ask or k not in lone:
                        continue
                    j = reader._nearer_piece(tone[k], centres)
                    if j is None:
                        continue
                    want = photo.position.squares.get(cells[k], "empty")
                    kind = "phantom" if want == "empty" else "right"
                    counts[t][kind if want in ("empty", ("red", "white")[j]) else "wrong"] += 1
        finally:
            reader.ALONE = saved
        print(f"\rlone curve {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return {
        "seed": seed,
        "boards": boards,
        "read": [
            {"alone": t, **{k: counts[t][k] for k in ("right", "wrong", "phantom")}}
            for t in thresholds
        ],
    }


def cut_curve(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """The `CUT_WRONG` and `CUT_SIDE` curve, on development renders: every square that
    stands out (`stand_out`) beside a might-be arm (`not_by_structure`) but alone
    (`lone_squares`), whose middle is clearly of one of the board's piece colours (`NEAR`,
    `APART`), by how cleanly a straight line cuts its disc in two (`cut_by_a_line`): those
    the cut test would ask at each setting, read right (a piece of that colour), a piece of
    the other colour, and phantoms (no piece there); each such square listed; and every
    board read whole at each `CUT_SIDE`."""
    geom = load_geometry()
    wrongs = (0.02, 0.035, 0.05, 0.08, 0.12)
    sides = (0.1, 0.2, 0.3)
    rows: list[dict[str, Any]] = []
    for i, photo, where in _located_photos(geom, seed, boards, arms):
        cells = geom.cells
        found_arms = reader.find_arms(photo.image, geom, where)
        colours = reader.sample_squares(photo.image, geom, where, cells)
        assert colours.structure is not None and colours.disc is not None
        assert colours.disc_at is not None
        under = reader.arm_squares(colours, found_arms, geom, cells)
        calls = [
            ("unsure", 0.0) if c in under else call
            for c, call in zip(cells, reader.classify(colours), strict=True)
        ]
        scale = reader.print_scale(colours.structure, colours.beside, colours.kin)
        calls = reader.structure_unsure(calls, colours.structure, scale=scale)
        skip = {k for k, c in enumerate(cells) if c in under}
        ask = reader.not_by_structure(geom, found_arms, colours)
        lone = reader.lone_squares(cells, calls)
        found = reader.stand_out(calls, colours, skip)
        tone = reader.board_tone(reader.median_along(colours.middle, 1))
        centres = reader.two_centres(calls, tone, found)
        for k in found:
            if centres is None or k not in ask or k not in lone:
                continue
            j = reader._nearer_piece(tone[k], centres)
            if j is None:
                continue
            want = photo.position.squares.get(cells[k], "empty")
            kind = "phantom" if want == "empty" else "right"
            wrong, smaller = reader.cut_by_a_line(colours.disc[k], colours.disc_at)
            rows.append(
                {
                    "board": i,
                    "cell": list(cells[k]),
                    "kind": kind if want in ("empty", ("red", "white")[j]) else "wrong",
                    "under_arm": cells[k] in photo.truth.unsure,
                    "wrong": round(wrong, 3),
                    "smaller": round(smaller, 2),
                }
            )
        print(f"\rcut curve {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return {
        "seed": seed,
        "boards": boards,
        "asked": [
            {
                "cut_wrong": w,
                "cut_side": m,
                **Counter(r["kind"] for r in rows if r["wrong"] <= w and r["smaller"] >= m),
            }
            for w in wrongs
            for m in sides
        ],
        "read": dict(Counter(r["kind"] for r in rows)),
        "squares": rows,
        "cut_side": board_curve("CUT_SIDE", (0.2, 0.15, 0.12, 0.1, 0.08), seed, boards, arms),
    }


def arm_share_curve(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """How many squares the arm follower claims, arm by arm (`arm_squares` with one arm,
    plain and through its shades), against how many the render's arms really come near
    (`Photo.near_arm`) and hide (the answer key's `unsure`), on development renders: an arm
    is a hand and forearm from the board's edge, and cannot cover most of the board."""
    geom = load_geometry()
    cells = geom.cells
    rows: list[dict[str, Any]] = []
    for i, photo, where in _located_photos(geom, seed, boards, arms):
        found = reader.find_arms(photo.image, geom, where)
        if not found.arms:
            continue
        colours = reader.sample_squares(photo.image, geom, where, cells)
        per_arm = [reader.Arms((arm,)) for arm in found.arms]
        plain = [len(reader.arm_squares(colours, one, geom, cells)) for one in per_arm]
        shades = [
            len(reader.arm_squares(colours, one, geom, cells, shades=True)) for one in per_arm
        ]
        under = reader.arm_squares(colours, found, geom, cells)
        rows.append(
            {
                "board": i,
                "followed": plain,
                "with_shades": shades,
                "followed_not_near": len(under - photo.near_arm),
                "near_arm": len(photo.near_arm),
                "hidden": len(photo.truth.unsure),
            }
        )
        print(f"\rarm share curve {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return {"seed": seed, "boards": boards, "squares": len(cells), "arms": rows}


def side_curve(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """The side test of the arm follower (`sides_hidden`), on development renders: every
    side two squares share that the follower could step across (both squares of a found
    arm's colour, `_arm_like`), by the share of its samples the rule counts (the largest of
    the arm's colour's and its two middles'), split by the render's arms: both
    squares hidden by an arm, neither near one (a print of the arm's colour beyond it), or
    one of each; a step is taken at `1 - SHARE` and over. Then every board read whole with
    the side test and without (`sample_sides` off), judged as `queen_alice_vision.py`
    judges: boards right, phantoms, wrong readings (a square read, not asked, and wrong),
    squares asked."""
    geom = load_geometry()
    cells = geom.cells
    bins = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0 + 1e-9)
    sides_by = {kind: [0] * (len(bins) - 1) for kind in ("hidden", "beyond", "edge")}
    boards_by = {way: Counter[str]() for way in ("without", "with")}
    sample_sides = reader.sample_sides
    for i, photo, where in _located_photos(geom, seed, boards, arms):
        found = reader.find_arms(photo.image, geom, where)
        colours = reader.sample_squares(photo.image, geom, where, cells)
        sides = sample_sides(photo.image, geom, where)
        middles = reader.median_along(colours.middle, 1)
        for arm in found.arms:
            like = reader._arm_like(colours, arm)
            to_arm = np.mean(reader._shade_distance(sides.lab, arm.colour) <= reader.ARM_LIKE, 1)
            for (a, b), k in sides.index.items():
                ka, kb = sides.ends[k]
                if not (like[ka] and like[kb]):
                    continue
                to_mid = max(
                    float(
                        np.mean(reader._shade_distance(sides.lab[k], middles[j]) <= reader.ARM_LIKE)
                    )
                    for j in (ka, kb)
                )
                share = max(float(to_arm[k]), to_mid)
                hid = a in photo.truth.unsure and b in photo.truth.unsure
                near = a in photo.near_arm or b in photo.near_arm
                kind = "hidden" if hid else "edge" if near else "beyond"
                sides_by[kind][int(np.searchsorted(bins, share, side="right")) - 1] += 1
        for way in ("without", "with"):
            reader.sample_sides = sample_sides if way == "with" else lambda *_: None  # type: ignore[assignment]
            try:
                reading = reader.read_board(photo.image, geom=geom)
            finally:
                reader.sample_sides = sample_sides
            j = judge(reading, photo.truth, photo.near_arm, photo.position, cells)
            c = boards_by[way]
            c["right"] += j["right"]
            c["phantoms"] += j["phantoms"]
            c["wrong_read"] += sum(1 for _, _, got in j["squares_wrong"] if got != "unsure")
            c["asked"] += j["abstained"]
        print(f"\rside curve {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return {
        "seed": seed,
        "boards": boards,
        "share_bins": [f"{lo:.1f}-{min(hi, 1.0):.1f}" for lo, hi in pairwise(bins)],
        "sides": sides_by,
        "boards_read": {way: dict(c) for way, c in boards_by.items()},
    }


def arm_learn_curve(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """The `ARM_LEARN_MAX` curve, on development renders: every board read whole with the
    squares under arms left out of learning the print when at most each share of the board
    (0: never), judged as `queen_alice_vision.py` judges."""
    values = (0.0, 0.3, 0.4, 0.5, 0.6, 1.0)
    return {
        "seed": seed,
        "boards": boards,
        "arm_learn_max": board_curve("ARM_LEARN_MAX", values, seed, boards, arms),
    }


def shared_curve(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """The `SHARED_OVER` curve, on development renders: every square the colours call unsure
    or gold, not under an arm (`arm_squares`), by how many of the board's other squares (none
    under an arm) have a middle alike it (`KIN_ALIKE`, most samples: `SHARE`), the empty
    squares (beside an arm or not) against the pieces; and every board read whole at each
    `SHARED_OVER` (inf: off), judged as `queen_alice_vision.py` judges."""
    geom = load_geometry()
    bins = ((0, 3), (3, 6), (6, 9), (9, 10), (10, 12), (12, 16), (16, 20), (20, 30), (30, 80))
    rows: list[tuple[int, str, bool]] = []  # (others alike, truth, beside an arm)
    for i, photo, where in _located_photos(geom, seed, boards, arms):
        cells = geom.cells
        colours = reader.sample_squares(photo.image, geom, where, cells)
        under = reader.arm_squares(colours, reader.find_arms(photo.image, geom, where), geom, cells)
        holders = np.array([c not in under for c in cells])
        for k, (call, _) in enumerate(reader.classify(colours)):
            if call not in ("unsure", "gold") or cells[k] in under:
                continue
            d = np.linalg.norm(colours.middle[holders] - colours.middle[k][None], axis=2)
            alike = reader.middles_alike(d)
            want = photo.position.squares.get(cells[k], "empty")
            rows.append((int(alike.sum()) - 1, want, cells[k] in photo.near_arm))
        print(f"\rshared curve {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    values = (math.inf, 1.0, 1.33, 1.67, 2.0)
    return {
        "seed": seed,
        "boards": boards,
        "others_alike": [
            {
                "others": f"{lo}-{hi - 1}",
                "empty": sum(lo <= n < hi and w == "empty" and not a for n, w, a in rows),
                "empty_beside_arm": sum(lo <= n < hi and w == "empty" and a for n, w, a in rows),
                "pieces": sum(lo <= n < hi and w != "empty" for n, w, _ in rows),
            }
            for lo, hi in bins
        ],
        "shared_over": board_curve("SHARED_OVER", values, seed, boards, arms),
    }


def band_curve(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """The `ARM_BAND` curve, on development renders: every board read whole at each band
    width (math.inf: every square followed by the arm's colour, as before the band), judged
    as `queen_alice_vision.py` judges: boards entirely right, phantom pieces, and squares no
    arm comes near asked about."""
    widths = (0.25, 0.5, 0.75, 1.0, 1.5, math.inf)
    return {
        "seed": seed,
        "boards": boards,
        "band": board_curve("ARM_BAND", widths, seed, boards, arms),
    }


def near_curve(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """The `NEAR` curve, on development renders: every board read whole at each distance
    within which a square found by its structure takes the nearer of the board's two piece
    colours (`_nearer_piece`), judged as `queen_alice_vision.py` judges."""
    values = (6.0, 8.0, 10.0, 12.0, 14.0, 16.0, 20.0)
    return {"seed": seed, "boards": boards, "near": board_curve("NEAR", values, seed, boards, arms)}


def near_clear_curve(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """The `NEAR_CLEAR` curve, on development renders: every board read whole at each
    distance within which a square standing out clear of anything that might be an arm takes
    the nearer of the board's two piece colours (`NEAR` stays for those near one), judged as
    `queen_alice_vision.py` judges."""
    values = (8.0, 10.0, 12.0, 16.0, 24.0)
    curve = board_curve("NEAR_CLEAR", values, seed, boards, arms)
    return {"seed": seed, "boards": boards, "near_clear": curve}


def far_curve(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """The `FAR_OUT` and `NEAR_FAR` curves, on development renders: every board read whole
    at each share of the board's median square's spread past which a square standing out
    clear of any might-be arm takes the nearer piece colour within `NEAR_FAR` rather than
    `NEAR_CLEAR` (inf: never), then at each `NEAR_FAR` with `FAR_OUT` as it is, judged as
    `queen_alice_vision.py` judges."""
    far_out = board_curve("FAR_OUT", (math.inf, 16.0, 12.0, 10.0, 8.0, 6.0), seed, boards, arms)
    near_far = board_curve("NEAR_FAR", (10.0, 12.0, 16.0, 20.0, 24.0), seed, boards, arms)
    return {"seed": seed, "boards": boards, "far_out": far_out, "near_far": near_far}


def one_colour_curve(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """The `ONE_NEAR` curve, on development renders: every board read whole at each reach
    within which a square found by its structure on a board with one piece colour in view
    (`one_centre`) takes that colour (0: never), judged as `queen_alice_vision.py` judges."""
    curve = board_curve("ONE_NEAR", (0.0, 4.0, 6.0, 8.0, 10.0, 12.0), seed, boards, arms)
    return {"seed": seed, "boards": boards, "one_near": curve}


def untold_hue_curve(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """The `UNTOLD_HUE` curve, on development renders: every board read whole at each number
    of degrees past its colour's own hue a piece-colour centre built with no square the
    colours call that colour may lie before the board is read as one colour (inf: never),
    judged as `queen_alice_vision.py` judges."""
    values = (math.inf, 60.0, 45.0, 30.0, 20.0, 10.0, 0.0)
    curve = board_curve("UNTOLD_HUE", values, seed, boards, arms)
    return {"seed": seed, "boards": boards, "untold_hue": curve}


def told_curve(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """The `TOLD_OVER` curve, on development renders: every board read whole at each share
    of the box's pieces of a colour (`pieces_per_colour`) the colours alone may call that
    colour before every square read so is asked about (inf: never), judged as
    `queen_alice_vision.py` judges."""
    values = (math.inf, 3.0, 2.0, 1.5, 1.0)
    curve = board_curve("TOLD_OVER", values, seed, boards, arms)
    return {"seed": seed, "boards": boards, "told_over": curve}


def structure_curve(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """The `STRUCTURE_OUT` curve, on development renders: every board read whole at each
    share of the board's median square's disc spread a square the colours call empty must
    pass (besides `STRUCTURE`) to be asked about (0: `STRUCTURE` alone), judged as
    `queen_alice_vision.py` judges."""
    values = (0.0, 1.0, 1.25, 1.5, 2.0, 2.5)
    curve = board_curve("STRUCTURE_OUT", values, seed, boards, arms)
    return {"seed": seed, "boards": boards, "structure_out": curve}


def colour_stages(image: np.ndarray, geom: BoardGeometry, where: Any) -> tuple[Any, ...]:
    """`read_board`'s first stages in photo mode, run one at a time: (the arms found, the
    squares' colours learnt without those under arms, the indices under arms, the colours'
    own calls with those squares unsure, and the calls the shared looks confirm)."""
    cells = geom.cells
    arms = reader.find_arms(image, geom, where)
    colours = reader.sample_squares(image, geom, where, cells)
    sides = reader.sample_sides(image, geom, where) if arms.arms else None
    under = reader.arm_squares(colours, arms, geom, cells, sides=sides)
    under_at = {k for k, c in enumerate(cells) if c in under}
    colours = reader.learnt_without(colours, under_at, geom)
    calls = [
        ("unsure", 0.0) if c in under else call
        for c, call in zip(cells, reader.classify(colours), strict=True)
    ]
    told = reader.shared_looks(calls, colours, under_at, geom)
    return arms, colours, under_at, calls, told


def named_by(image: np.ndarray, geom: BoardGeometry) -> dict[Cell, str] | None:
    """Which of the reader's paths (photo mode) named each square it reads as a piece:
    `colours` (`classify`, kept by every later stage), `stand_out` with the reach it took
    (`NEAR` beside a might-be arm, `NEAR_CLEAR`, `NEAR_FAR`, or `one_centre`), or `in_colour`.
    The stages are `read_board`'s, run one at a time; None when the board is not found."""
    where = reader.locate(image, geom)
    if where is None:
        return None
    cells = geom.cells
    arms, colours, under_at, _, told = colour_stages(image, geom, where)
    assert colours.structure is not None
    known = np.zeros(len(cells), bool)
    scale = reader.print_scale(colours.structure, colours.beside, colours.kin)
    calls = reader.structure_unsure(told, colours.structure, known, scale)
    ask = reader.not_by_structure(geom, arms, colours)
    found = set(reader.stand_out(calls, colours, under_at))
    busier = set(reader.in_colour(calls, colours, under_at | found | ask))
    tone = reader.board_tone(reader.median_along(colours.middle, 1))
    centres = reader.two_centres(calls, tone, sorted(found))
    far = reader.FAR_OUT * float(reader.median_along(colours.structure, 0))
    out: dict[Cell, str] = {}
    for k, cell in enumerate(cells):
        if k in found:
            if centres is None:
                out[cell] = "stand_out one_centre"
            elif k in ask:
                out[cell] = "stand_out NEAR (beside a might-be arm, lone)"
            elif colours.structure[k] >= far:
                out[cell] = "stand_out NEAR_FAR"
            else:
                out[cell] = "stand_out NEAR_CLEAR"
        elif k in busier:
            out[cell] = "in_colour"
        elif told[k][0] in ("red", "white"):
            near = " (beside a might-be arm)" if k in ask else ""
            out[cell] = f"colours {told[k][0]}{near}"
        else:
            out[cell] = "?"
    return out


def scene_traits(design: dict[str, Any]) -> list[str]:
    """What a render's scene has (its truth, `Photo.design`), as names a breakdown counts:
    the set style, a glossy set, an arm, glare, a shadow, a Crown print, and each wider
    choice (print, panel, motif, pieces, cast)."""
    traits = [f"style {design.get('style')}"]
    traits += [k for k in ("glossy", "arm", "crown_print") if design.get(k)]
    traits += [k for k in ("glare", "shadow") if design.get(k)]
    traits += [f"wider {w}" for w in design.get("wider", [])]
    return traits


def paths(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """Every phantom and wrong colour on development renders, by the path that named it
    (`named_by`), with each board's index and square, and a count by path; and by what the
    scene has (`scene_traits`): boards with each trait, those of them with a phantom, and
    their phantoms."""
    geom = load_geometry()
    rows = []
    count: Counter[str] = Counter()
    with_trait: Counter[str] = Counter()
    phantom_boards: Counter[str] = Counter()
    phantoms_by: Counter[str] = Counter()
    for i in range(boards):
        photo = cached_photo(geom, seed, i, board_conditions(i, arms))
        reading = reader.read_board(photo.image, geom=geom)
        wrong = [
            (c, w, g)
            for c, w, g in faults(reading, photo, geom.cells)[1]
            if g in ("red", "white") and w != g
        ]
        traits = scene_traits(photo.design)
        ghosts = sum(w == "empty" for _c, w, _g in wrong)
        for t in traits:
            with_trait[t] += 1
            phantom_boards[t] += ghosts > 0
            phantoms_by[t] += ghosts
        if wrong:
            by = named_by(photo.image, geom) or {}
            for c, w, g in wrong:
                kind = "phantom" if w == "empty" else "wrong_colour"
                path = by.get(c, "?")
                count[f"{kind}: {path}"] += 1
                rows.append(
                    {
                        "board": i,
                        "square": list(c),
                        "want": w,
                        "got": g,
                        "path": path,
                        "near_arm": c in photo.near_arm,
                        "scene": traits,
                    }
                )
        print(f"\rpaths {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    by_scene = {
        t: {"boards": n, "with_phantom": phantom_boards[t], "phantoms": phantoms_by[t]}
        for t, n in sorted(with_trait.items())
    }
    return {
        "seed": seed,
        "boards": boards,
        "by_path": dict(count),
        "by_scene": by_scene,
        "squares": rows,
    }


def told_near(tone: np.ndarray, told: list[tuple[str, float]], k: int, colour: str) -> float:
    """How far square `k`'s tone (`board_tone`) lies from the nearest square the colours
    alone (`told`) call `colour` (inf when they call none so): a piece named by its
    structure is of a set whose other pieces of that colour the colours mostly tell."""
    behind = [j for j, (v, _) in enumerate(told) if v == colour and j != k]
    if not behind:
        return math.inf
    return float(np.linalg.norm(tone[behind] - tone[k], axis=1).min())


def piece_hue_curve(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """The `PIECE_HUE` curve, on development renders: every board read whole at each hue
    (degrees outside the colour's) beyond which a square named an untold colour by its
    structure is asked, judged as `queen_alice_vision.py` judges."""
    values = (math.inf, 30.0, 25.0, 20.0, 15.0, 10.0)
    return {
        "seed": seed,
        "boards": boards,
        "piece_hue": board_curve("PIECE_HUE", values, seed, boards, arms),
    }


def told_behind_curve(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """Every square the whole reader reads as a piece its colours alone did not call that
    colour (named by structure: `stand_out`, `in_colour`, `one_centre`), on development renders:
    how far it lies from the nearest square the colours call that colour (`told_near`), and
    what it is (right, phantom, wrong colour); and the curve: at each distance, the right
    pieces and the phantoms and wrong colours farther than it (those a rule asking beyond it
    would ask about)."""
    geom = load_geometry()
    rows: list[tuple[float, str, int, float]] = []
    for i, photo, where in _located_photos(geom, seed, boards, arms):
        reading = reader.read_board(photo.image, geom=geom)
        cells = geom.cells
        _, colours, _, _, told = colour_stages(photo.image, geom, where)
        tone = reader.board_tone(reader.median_along(colours.middle, 1))
        for k, cell in enumerate(cells):
            got = reading.squares.get(cell)
            if got is None or told[k][0] == got or cell in photo.near_arm:
                continue
            want = photo.position.squares.get(cell, "empty")
            hue = reader.hue_outside(tone[k], ("red", "white").index(got))
            rows.append((told_near(tone, told, k, got), outcome(want, got), i, hue))
        print(f"\rtold-behind curve {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    kinds = ("right", "phantom", "wrong")
    curve = [
        {"beyond": t, **{o: sum(d > t and oo == o for d, oo, _, _ in rows) for o in kinds}}
        for t in (4.0, 6.0, 8.0, 10.0, 12.0, 16.0, 20.0, 30.0, math.inf)
    ]
    untold = [(h, o) for d, o, _, h in rows if d == math.inf]
    hue_curve = [
        {"hue_beyond": t, **{o: sum(h > t and oo == o for h, oo in untold) for o in kinds}}
        for t in (0.0, 5.0, 10.0, 15.0, 20.0, 30.0)
    ]
    squares = sorted(
        (
            {"distance": round(d, 1), "hue_outside": round(h, 1), "outcome": o, "board": i}
            for d, o, i, h in rows
        ),
        key=lambda r: -r["distance"],
    )
    return {
        "seed": seed,
        "boards": boards,
        "curve": curve,
        "untold_hue_curve": hue_curve,
        "squares": squares,
    }


def cut_clear_curve(seed: int, boards: int, arms: bool) -> dict[str, Any]:
    """The `CUT_CLEAR` and `CUT_CLEAN` curves, on development renders: every board read whole
    with the cut test off and on clear of any might-be arm, and at each share a line that
    misplaces not one sample must leave on its smaller side, judged as
    `queen_alice_vision.py` judges."""
    return {
        "seed": seed,
        "boards": boards,
        "cut_clear": board_curve("CUT_CLEAR", (False, True), seed, boards, arms),
        "cut_clean": board_curve("CUT_CLEAN", (1.0, 0.1, 0.08, 0.06, 0.04), seed, boards, arms),
    }


def board_curve(
    name: str, values: tuple[float, ...], seed: int, boards: int, arms: bool
) -> list[dict[str, Any]]:
    """Every development board read whole with the reader's constant `name` at each of
    `values`: boards entirely right, phantom pieces, wrong colours, pieces missed, and squares
    no arm comes near asked about (the board rendered once, read once per value)."""
    geom = load_geometry()
    counts = {v: Counter[str]() for v in values}
    saved = getattr(reader, name)
    try:
        for i, photo, _where in _located_photos(geom, seed, boards, arms):
            for v in values:
                setattr(reader, name, v)
                reading = reader.read_board(photo.image, geom=geom)
                kinds = faults(reading, photo, geom.cells)[0]
                counts[v]["right"] += not kinds
                for kind in ("phantom", "wrong_colour", "missed"):
                    counts[v][kind] += kinds.count(kind)
                counts[v]["asked"] += kinds.count("asked_piece") + kinds.count("asked_empty")
            print(f"\r{name} curve {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    finally:
        setattr(reader, name, saved)
    print(file=sys.stderr)
    return [{name.lower(): str(v), **dict(counts[v])} for v in values]


def reference_curves(seed: int, boards: int) -> dict[str, Any]:
    """The curves the empty-board path's thresholds were chosen from (`vision/empty.py`), on
    development boards read with the box's empty board learnt from its own photograph (half
    with arms), squares no arm comes near: the share of each square's disc changed, for
    empty squares and pieces (`OCCUPIED`, `CLEAR`); of squares changed at least `OCCUPIED`,
    those passing `like_a_piece` for `OUTLINE` x `OWN_HUE` (`CLEAR_OUTLINE` kept); and the
    pieces' colour against the nearer of the board's two (`NEAR_CHANGE`, `APART`)."""
    geom = load_geometry()
    shares: list[tuple[float, bool]] = []
    changed: list[tuple[float, float, bool]] = []
    colour: list[tuple[float, float, bool]] = []
    vetoed: list[tuple[float, bool]] = []  # (covered, a piece there) of `plain` vetoes
    for i in range(boards):
        conditions = Conditions(hands=0) if i % 2 == 0 else Conditions()
        photo = render_photo(geom, (seed, i), conditions)
        learnt = reader.learn_empty_board(render_empty(geom, (seed, i), conditions), geom)
        where = reader.locate(photo.image, geom)
        if learnt is None or where is None:
            continue
        change = reader._change(photo.image, geom, where, geom.cells, learnt[0])
        tone = reader.board_tone(change.colour)
        vetoed += _vetoes(photo, geom, where, change, tone)
        pieces = []
        for k, cell in enumerate(geom.cells):
            if cell in photo.near_arm or np.isnan(change.share[k]):
                continue
            piece = cell in photo.position.squares
            shares.append((float(change.share[k]), piece))
            if change.share[k] >= empty_look_module.OCCUPIED:
                changed.append((float(change.steps[k]), float(change.hue_apart[k]), piece))
                if reader.like_a_piece(change, k):
                    pieces.append(k)
        centres = reader.two_means(tone[pieces])
        if centres is not None:
            for k in pieces:
                d = np.linalg.norm(tone[k] - centres, axis=1)
                j = int(np.argmin(d))
                want = photo.position.squares.get(geom.cells[k])
                colour.append((float(d[j]), float(d[j] / d[1 - j]), want == ("red", "white")[j]))
        print(f"\rreference curves {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return {
        "seed": seed,
        "boards": boards,
        "share": [
            {
                "threshold": t,
                "empty_above": sum(v > t for v, p in shares if not p),
                "pieces_below": f"{sum(v < t for v, p in shares if p)}/{sum(p for _, p in shares)}",
            }
            for t in (0.05, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4)
        ],
        "like_a_piece": [
            {
                "outline": o,
                "own_hue": h,
                "empty_kept": sum(_kept(st, hu, o, h) for st, hu, p in changed if not p),
                "pieces_kept": f"{sum(_kept(st, hu, o, h) for st, hu, p in changed if p)}/"
                f"{sum(p for _, _, p in changed)}",
            }
            for o in (0.0, 5.0, 6.0, 7.0)
            for h in (0.0, 4.0, 6.0, 8.0)
        ],
        "colour": [
            {
                "near": n,
                "apart": a,
                "right_kept": f"{sum(d <= n and r <= a for d, r, ok in colour if ok)}/"
                f"{sum(ok for _, _, ok in colour)}",
                "wrong_kept": sum(d <= n and r <= a for d, r, ok in colour if not ok),
            }
            for n in (8.0, 10.0, 12.0, 15.0, 20.0)
            for a in (0.5, 0.7)
        ],
        "covered": [
            {
                "threshold": t,
                "pieces_read": f"{sum(c >= t for c, p in vetoed if p)}/{sum(p for _, p in vetoed)}",
                "phantoms": sum(c >= t for c, p in vetoed if not p),
            }
            for t in (0.25, 0.5, 0.75, 1.0, 1.01)
        ],
    }


def _vetoes(photo: Any, geom: Any, where: Any, change: Any, tone: np.ndarray) -> list:
    """Squares `by_change` reads as a piece but for the picture alone plainly seeing the
    print (no arm near, a piece colour clearly seen): each one's `Change.covered`, and
    whether a piece stands there, for the `COVERED` curve."""
    colours = reader.sample_squares(photo.image, geom, where, geom.cells)
    calls = reader.classify(colours)
    assert colours.structure is not None
    shaped = [
        k
        for k in range(len(geom.cells))
        if change.share[k] >= empty_look_module.OCCUPIED and reader.like_a_piece(change, k)
    ]
    centres = reader.two_means(tone[shaped])
    out = []
    for k in shaped:
        cell = geom.cells[k]
        if cell in photo.near_arm or centres is None:
            continue
        if calls[k][0] != "empty" or colours.structure[k] > reader.STRUCTURE:
            continue
        d = np.linalg.norm(tone[k] - centres, axis=1)
        j = int(np.argmin(d))
        if d[j] <= reader.APART * d[1 - j] and d[j] <= reader.NEAR_CHANGE:
            out.append((float(change.covered[k]), cell in photo.position.squares))
    return out


def _kept(steps: float, hue: float, outline: float, own_hue: float) -> bool:
    """`like_a_piece` with other `OUTLINE` and `OWN_HUE`."""
    return steps >= empty_look_module.CLEAR_OUTLINE or (steps >= outline and hue >= own_hue)


def _loop_ground(image: np.ndarray, geom: Any, where: Any) -> np.ndarray:
    """The ground's BGR median round the grid, as `find_arms` takes it."""
    (x0, y0), (x1, y1) = geom.grid_box_mm
    m = 0.25 * geom.square_mm
    pts = np.array(
        [(x, y0 - m) for x in np.linspace(x0 - m, x1 + m, 60)]
        + [(x, y1 + m) for x in np.linspace(x0 - m, x1 + m, 60)]
        + [(x0 - m, y) for y in np.linspace(y0 - m, y1 + m, 60)]
        + [(x1 + m, y) for y in np.linspace(y0 - m, y1 + m, 60)]
    )
    return np.asarray(np.median(reader._sample(image, where.pose, pts), axis=0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=None, help="default: a new one, printed")
    parser.add_argument("--boards", type=int, default=60)
    parser.add_argument(
        "--arms",
        action="store_true",
        help="every board with up to two arms (as the `random` set); default: every other",
    )
    parser.add_argument("--out", type=Path, default=None, help="write the breakdown as JSON")
    parser.add_argument(
        "--mode",
        choices=["photo", "board"],
        default="photo",
        help="board: each box's empty board learnt from its own photograph first (`read --board`)",
    )
    parser.add_argument(
        "--reference-curves",
        action="store_true",
        help="the curves of the empty-board path's thresholds instead",
    )
    parser.add_argument(
        "--curves",
        action="store_true",
        help="the LIGHT_ONLY, STRUCTURE, STANDS_OUT and EDGES_OUT curves instead",
    )
    parser.add_argument(
        "--crown-curve",
        action="store_true",
        help="the CROWN_STANDS and CROWN_FLAT curve (Crowns on gold-printed slots) instead",
    )
    parser.add_argument(
        "--flat-slots-curve",
        action="store_true",
        help="the CROWN_FLATS_ALIKE curve (flat gold slots unlike one another) instead",
    )
    parser.add_argument(
        "--crown-apart-curve",
        action="store_true",
        help="the CROWN_APART curve (Crowns standing apart from the display's other slots)",
    )
    parser.add_argument(
        "--outline-curve",
        action="store_true",
        help="the OUTLINED curve (arms in the ground's own colour) instead",
    )
    parser.add_argument(
        "--print-leads-curve",
        action="store_true",
        help="the curve of red or white calls more like the print (PRINT_LEADS) instead",
    )
    parser.add_argument(
        "--band-curve",
        action="store_true",
        help="the ARM_BAND curve (how wide a band an arm covers) instead",
    )
    parser.add_argument(
        "--cut-curve",
        action="store_true",
        help="the CUT_WRONG and CUT_SIDE curve (arm edges cutting a square straight) instead",
    )
    parser.add_argument(
        "--shared-curve",
        action="store_true",
        help="the SHARED_OVER curve (a look more squares share than a colour has pieces)",
    )
    parser.add_argument(
        "--structure-curve",
        action="store_true",
        help="the STRUCTURE_OUT curve (flat-print squares as busy as the board's) instead",
    )
    parser.add_argument(
        "--near-curve",
        action="store_true",
        help="the NEAR curve (how near a piece colour a square found by structure is) instead",
    )
    parser.add_argument(
        "--near-clear-curve",
        action="store_true",
        help="the NEAR_CLEAR curve (NEAR for squares standing out clear of any arm) instead",
    )
    parser.add_argument(
        "--far-curve",
        action="store_true",
        help="the FAR_OUT and NEAR_FAR curves (squares standing out far, clear of any arm)",
    )
    parser.add_argument(
        "--one-colour-curve",
        action="store_true",
        help="the ONE_NEAR curve (squares found by structure on boards with one piece colour)",
    )
    parser.add_argument(
        "--untold-hue-curve",
        action="store_true",
        help="the UNTOLD_HUE curve (a piece-colour centre no told square is behind, by hue)",
    )
    parser.add_argument(
        "--ref-alike-curve",
        action="store_true",
        help="the path spaces' spread ratio curve (tried as CROWN_REF_ALIKE) instead",
    )
    parser.add_argument(
        "--told-curve",
        action="store_true",
        help="the TOLD_OVER curve (a colour the colours call on too many squares) instead",
    )
    parser.add_argument(
        "--arm-share-curve",
        action="store_true",
        help="squares the arm follower claims, arm by arm, against the render's arms instead",
    )
    parser.add_argument(
        "--arm-learn-curve",
        action="store_true",
        help="the ARM_LEARN_MAX curve (print learnt without arm squares) instead",
    )
    parser.add_argument(
        "--side-curve",
        action="store_true",
        help="the arm follower's side test (sides_hidden) against the render's arms instead",
    )
    parser.add_argument(
        "--lone-curve",
        action="store_true",
        help="the ALONE curve (pieces standing out beside an arm) instead",
    )
    parser.add_argument(
        "--cut-clear-curve",
        action="store_true",
        help="the CUT_CLEAR and CUT_CLEAN curves (the cut test clear of arms, clean slivers)",
    )
    parser.add_argument(
        "--piece-hue-curve",
        action="store_true",
        help="the PIECE_HUE curve (structure-named squares of an untold colour's off hue)",
    )
    parser.add_argument(
        "--told-behind-curve",
        action="store_true",
        help="how far each piece named by structure lies from the pieces its colours tell",
    )
    parser.add_argument(
        "--paths",
        action="store_true",
        help="every phantom and wrong colour by the reader's path that named it instead",
    )
    parser.add_argument(
        "--house", action="store_true", help="every board with no arm (as the `house` set)"
    )
    parser.add_argument(
        "--cache", type=Path, default=None, help="keep the renders here and read them again"
    )
    parser.add_argument(
        "--same",
        metavar="REF",
        default=None,
        help="list the boards whose readings differ from the reader of commit REF instead",
    )
    parser.add_argument(
        "--against",
        metavar="REF",
        default=None,
        help="also read each board with the reader of commit REF (`vision/read.py` at REF, as "
        "`queen_alice_vision.py --against`) and list every square whose reading changed, with "
        "its change of outcome (right/asked/wrong/phantom, REF's -> this one's) and a count",
    )
    args = parser.parse_args()
    global CACHE, HOUSE
    CACHE, HOUSE = args.cache, args.house
    seed = args.seed if args.seed is not None else secrets.randbits(31)
    if args.same:
        print(json.dumps(same_as(args.same, seed, args.boards, args.arms), indent=1))
        return
    # Each curve flag prints its curve instead of the failure listing; the first flag given wins.
    with_arms = {
        "band_curve": band_curve,
        "cut_curve": cut_curve,
        "arm_share_curve": arm_share_curve,
        "arm_learn_curve": arm_learn_curve,
        "side_curve": side_curve,
        "shared_curve": shared_curve,
        "structure_curve": structure_curve,
        "near_curve": near_curve,
        "near_clear_curve": near_clear_curve,
        "far_curve": far_curve,
        "one_colour_curve": one_colour_curve,
        "untold_hue_curve": untold_hue_curve,
        "lone_curve": lone_curve,
        "told_curve": told_curve,
        "ref_alike_curve": ref_alike_curve,
        "print_leads_curve": print_leads_curve,
        "paths": paths,
        "cut_clear_curve": cut_clear_curve,
        "told_behind_curve": told_behind_curve,
        "piece_hue_curve": piece_hue_curve,
    }
    without_arms = {
        "curves": curves,
        "crown_curve": crown_curve,
        "flat_slots_curve": flat_slots_curve,
        "crown_apart_curve": crown_apart_curve,
        "outline_curve": outline_curve,
        "reference_curves": reference_curves,
    }
    for flag, armed in with_arms.items():
        if getattr(args, flag):
            print(json.dumps(armed(seed, args.boards, args.arms), indent=1))
            return
    for flag, plain in without_arms.items():
        if getattr(args, flag):
            print(json.dumps(plain(seed, args.boards), indent=1))
            return
    geom = load_geometry()
    other = reader_at(args.against) if args.against else None
    not_at_ref = beside_read_py(args.against) if args.against else []
    if not_at_ref:
        print(
            f"note: only read.py is read as at {args.against}; these differ too and are "
            f"today's in both readings: {not_at_ref}",
            file=sys.stderr,
        )
    moved: Counter[str] = Counter()  # with --against: changes of outcome, REF's -> this one's
    moved_boards: list[dict[str, Any]] = []
    right_then = 0
    by_class: Counter[str] = Counter()
    boards_by_class: Counter[str] = Counter()
    split: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    totals: dict[str, Counter[str]] = defaultdict(Counter)
    right = 0
    listing = []
    for i in range(args.boards):
        conditions = board_conditions(i, args.arms)
        photo = cached_photo(geom, seed, i, conditions)
        empty = empty_then = None
        if args.mode == "board":
            teach = render_empty(geom, (seed, i), conditions)
            learnt = reader.learn_empty_board(teach, geom)
            empty = learnt[0] if learnt is not None else None
            if other is not None:
                learnt_then = other.learn_empty_board(teach, geom)
                empty_then = learnt_then[0] if learnt_then is not None else None
        reading = reader.read_board(photo.image, geom=geom, empty=empty)
        kinds, wrong = faults(reading, photo, geom.cells)
        if other is not None:
            then = other.read_board(photo.image, geom=geom, empty=empty_then)
            right_then += not faults(then, photo, geom.cells)[0]
            board_moved = changes(reading, then, photo.truth, photo.position, geom.cells)
            moved.update(m["change"] for m in board_moved)
            if board_moved:
                moved_boards.append({"board": i, "changed": board_moved})
        cond = conditions_of(photo.design)
        for key, value in cond.items():
            totals[key][value] += 1
        if not kinds:
            right += 1
            continue
        by_class.update(kinds)
        boards_by_class.update(set(kinds))
        for kind in set(kinds):
            for key, value in cond.items():
                split[kind][key][value] += 1
        details = []
        if wrong:
            where = reader.locate(photo.image, geom)
            if where is not None:
                cells = tuple(c for c, _, _ in wrong)
                shares = reader.shares(reader.sample_squares(photo.image, geom, where, cells))
                details = [
                    f"{list(c)} {w}->{g}{' (hidden)' * (c in photo.truth.unsure)}"
                    f" board {s.board:.2f} red {s.red:.2f} white {s.white:.2f}"
                    for (c, w, g), s in zip(wrong, shares, strict=True)
                ]
        listing.append(
            {
                "board": i,
                "faults": dict(Counter(kinds)),
                "conditions": cond,
                "squares": details[:8],
                "crowns": [photo.truth.crowns_left, reading.crowns_left],
                "alice": [photo.truth.alice, reading.alice],
            }
        )
        print(f"\r{i + 1}/{args.boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    out = {
        "seed": seed,
        "mode": args.mode,
        "boards": args.boards,
        "entirely_right": right,
        "faults": dict(by_class),
        "boards_with_fault": dict(boards_by_class),
        "by_condition": {
            kind: {
                key: {v: f"{n}/{totals[key][v]}" for v, n in sorted(vals.items())}
                for key, vals in keys.items()
                if key not in ("red", "white")
            }
            for kind, keys in split.items()
        },
        "failed": listing,
    }
    if other is not None:
        out["against"] = {
            "ref": args.against,
            "today_s_in_both": not_at_ref,
            "entirely_right_then": right_then,
            "changes": dict(sorted(moved.items())),
            "boards_changed": len(moved_boards),
            "changed": moved_boards,
        }

    text = json.dumps(out, indent=1)
    if args.out:
        args.out.write_text(text + "\n")
    summary = {k: v for k, v in out.items() if k not in ("failed", "against")}
    print(json.dumps(summary, indent=1))
    for b in listing:
        print(b["board"], b["faults"], b["conditions"], b["crowns"], b["alice"])
        for line in b["squares"]:
            print("    ", line)
    if other is not None:
        print(f"against {args.against} (its reading -> this one's), square by square:")
        for moves in moved_boards:
            for m in moves["changed"]:
                print(
                    f"    board {moves['board']} {m['what']} {m['want']}: {m['was']} -> {m['now']}"
                    f"  {m['change']}"
                )
        print(json.dumps({k: v for k, v in out["against"].items() if k != "changed"}, indent=1))


if __name__ == "__main__":
    main()
