"""Looking Glass failures by cause, on a development set: so the next fix is chosen from data.

Every true card that is not read right, and every card read where none lies, is put in one
class (the counts add up to the benchmark's wrong + unsure + covered_wrong + missed + extra):

    missed/found-not-placed   the staged reader's features named it, the glass fit left it out
    missed/slot-weak          the features missed it; its lattice slot was looked at and the
                              right card scored best, below the slot thresholds
    missed/slot-other         ...and another card scored best there
    missed/no-lattice         no stage looked there: no lattice was fitted (no slot looked at)
    missed/no-slot            no stage looked there: a lattice, but no slot near the card
    missed/glass-refused      a lattice was fitted and its slots looked at, but the glass was
                              refused whole (`slots.halves_disagree`, `reflections_too_few`,
                              `without_lone_pair`): the table is a question; with the rule
                              that refused it when known (`refusal`), e.g.
                              missed/glass-refused/halves_disagree
    missed/not-found          (the light-border reader: no stages to tell these apart)
    */untaught                a card whose teach photo was refused: no reader can name it
                              (`teach`'s failure, not the reader's), missed or unsure
    unsure/slot-weak          found, reported null: its slot's best card was the right one,
                              below the slot thresholds (the staged reader)
    unsure/slot-other         ...another card scored best there (a look-alike)
    unsure/no-slot            ...no slot looked at near it (the staged reader)
    unsure                    found, reported null (the light-border reader: no stages)
    wrong/neighbour           named as a card lying within two card widths (a confusion of
                              places: overlap, the lattice a slot off)
    wrong/other               named as a card lying nowhere near (a confusion of art)
    covered/as-free           a covered card read as free, and free/as-covered the converse
    phantom/duplicate         a read card within a card width of a true one already matched
    phantom/off-glass         a read card away from every glass card (a pile, the cloth)

Each class is also split by the deck's border, art and the table's conditions (hand, glare,
table kind), so a cause that lives in one kind of deck or table shows. For the staged reader,
every lattice slot looked at is scored against the truth (a card centred there or not), and
`slot_curve` lists, per `slots.MIN_SCORE` candidate, the slots named right / empty slots
named / slots named wrong: the curve that threshold is chosen from. Development sets only:
fresh seeds are for `looking_glass_world.py`.

    .venv/bin/python benchmarks/looking_glass_failures.py [--set DIR] [--reader staged]
        [--voter-curve | --shifts | --row-inward | --coverage]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.looking_glass_devset import COMMITTED, READERS, read_json, teach_deck  # noqa: E402
from companion.games.looking_glass.vision.render import CardOutcome, card_outcomes  # noqa: E402

NEIGHBOUR_WIDTHS = 2.0
"""A wrong name is a neighbour's when that card lies within this many card widths."""


def _width(quad: list[list[float]]) -> float:
    q = np.array(quad)
    return float(np.linalg.norm(q[1] - q[0]))


def _near(p: list[float], cards: list[dict[str, Any]], reach: float) -> list[dict[str, Any]]:
    return [g for g in cards if float(np.hypot(*(np.array(g["center"]) - p))) < reach]


@dataclass(frozen=True)
class SlotSeen:
    """One lattice slot the staged reader looked at (full-resolution px)."""

    centre: np.ndarray
    best: str
    """The card whose upper half scored best there."""
    score: float
    margin: float
    reflected: bool = False
    """Its reflection's slot holds a named card of the glass (so a card lies here too)."""


def _slots(st: Any) -> list[SlotSeen]:
    from companion.games.looking_glass.vision.slots import halves_agree

    named = {(p.half, p.row, p.col) for p in st.glass.cards if p.card.identity.card is not None}
    if not halves_agree(st.glass.cards):
        named = set()
    out = []
    for p in st.probes:
        scores = p.identity.scores
        best = max(scores, key=scores.get)
        out.append(
            SlotSeen(
                p.outline.mean(axis=0) / st.scale,
                best,
                p.identity.score,
                p.identity.margin,
                (1 - p.half, p.row, p.col) in named,
            )
        )
    return out


def cause(
    o: CardOutcome,
    truth: dict[str, Any],
    found: list[np.ndarray] | None,
    slots: list[SlotSeen] | None = None,
    taught: set[str] | None = None,
    refused: bool | str = False,
) -> str | None:
    """The class of one outcome (None: read right, or under a hand). `taught`: the card ids
    the library holds (None: all). `refused`: the staged reader fitted a lattice and looked
    at its slots, then gave no glass (a str: the rule that refused it, `refusal`)."""
    if o.kind in ("right", "hidden"):
        return None
    if (
        taught is not None
        and o.truth is not None
        and o.truth["card"] not in taught
        and o.kind in ("missed", "unsure")
    ):
        return f"{o.kind}/untaught"
    cards = truth["cards"]
    if o.kind == "extra":
        assert o.read is not None
        w = float(np.median([_width(g["quad"]) for g in cards])) if cards else 100.0
        return "phantom/duplicate" if _near(o.read["center"], cards, w) else "phantom/off-glass"
    assert o.truth is not None
    g = o.truth
    state = "covered" if g["covered"] else "free"
    if o.kind == "missed":
        if refused:
            why = f"/{refused}" if isinstance(refused, str) else ""
            return f"missed/glass-refused{why} ({state})"
        if found is not None:
            tol = 0.33 * _width(g["quad"])
            if any(float(np.hypot(*(c - np.array(g["center"])))) < tol for c in found):
                return f"missed/found-not-placed ({state})"
        if slots is not None:
            tol = 0.33 * _width(g["quad"])
            near = [p for p in slots if float(np.hypot(*(p.centre - g["center"]))) < tol]
            if not near:
                return f"missed/{'no-slot' if slots else 'no-lattice'} ({state})"
            right = near[0].best == g["card"]
            return f"missed/slot-{'weak' if right else 'other'} ({state})"
        return f"missed/not-found ({state})"
    if o.kind == "unsure":
        if slots is not None:
            tol = 0.33 * _width(g["quad"])
            near = [p for p in slots if float(np.hypot(*(p.centre - g["center"]))) < tol]
            if not near:
                return f"unsure/no-slot ({state})"
            return f"unsure/slot-{'weak' if near[0].best == g['card'] else 'other'} ({state})"
        return f"unsure ({state})"
    if o.kind == "wrong":
        assert o.read is not None
        reach = NEIGHBOUR_WIDTHS * _width(g["quad"])
        near = {c["card"] for c in _near(g["center"], cards, reach) if c is not g}
        return "wrong/neighbour" if o.read["card"] in near else "wrong/other"
    return "covered/as-free" if g["covered"] else "free/as-covered"


def classify_set(set_dir: Path, reader: str, log=print) -> dict[str, Any]:
    manifest = json.loads((set_dir / "manifest.json").read_text())
    causes: Counter[str] = Counter()
    by: dict[str, Counter[str]] = defaultdict(Counter)
    examples: dict[str, list[str]] = defaultdict(list)
    cards = tables = exact = 0
    probes: list[tuple[float, float, str]] = []
    reflected: list[tuple[float, float, str]] = []
    reflected_taught: list[tuple[float, float, str]] = []
    untaught: list[tuple[float, float, str]] = []
    by_reader: dict[str, Counter[str]] = defaultdict(Counter)
    outlined: Counter[str] = Counter()
    per_table: dict[str, dict[str, int]] = {}
    for deck in manifest["decks"]:
        d = set_dir / str(deck["seed"])
        photos = {p.stem: cv2.imread(str(p)) for p in sorted((d / "teach").glob("*.jpg"))}
        taught = teach_deck(photos, reader)
        style = deck["style"]
        # The reader the deck is read with ("auto" chooses per deck, `choose.reader_kind`).
        staged = taught.reader is not None and hasattr(taught.reader, "stages")
        kind = "none" if taught.reader is None else "staged" if staged else "light-border"
        for name in deck["tables"]:
            img = cv2.imread(str(d / f"{name}.jpg"))
            truth = json.loads((d / f"{name}.json").read_text())
            found = slots = None
            refused: bool | str = False
            outlines: list[np.ndarray] = []
            if staged:
                st = taught.reader.stages(img)
                found = [c.centre / st.scale for c in st.found]
                slots = _slots(st)
                if st.probes and not st.glass.cards:
                    refused = refusal(taught.reader, img) or True
                outlines = _outline_centres(img, taught.reader.lib)
                reading = taught.reader.reading(st).to_json("table")
                probes += [_slot_label(p, truth) for p in slots]
                reflected += [_slot_label(p, truth) for p in slots if p.reflected]
                if taught.reader.every_card_taught:
                    reflected_taught += [_slot_label(p, truth) for p in slots if p.reflected]
                if not taught.reader.every_card_taught:
                    untaught += [_slot_label(p, truth) for p in slots]
            else:
                reading = read_json(taught, img)
            cond = truth["truth"]["conditions"]
            table_causes = []
            for o in card_outcomes(reading, truth):
                cards += o.kind not in ("extra", "hidden")
                c = cause(o, truth, found, slots, set(taught.accepted), refused)
                if c is None:
                    continue
                table_causes.append(c)
                causes[c] += 1
                by_reader[kind][c] += 1
                if c.startswith("missed/") and o.truth is not None:
                    g = o.truth
                    tol = 0.33 * _width(g["quad"])
                    near = any(float(np.hypot(*(q - g["center"]))) < tol for q in outlines)
                    outlined[f"{c}: {'an outline' if near else 'no outline'}"] += 1
                for key in (
                    f"border={style['border']}",
                    f"size={style.get('size')}",
                    f"art={style['art']}",
                    f"sleeve={style['sleeve']}",
                    f"hand={cond.get('hand')}",
                    f"glare={cond.get('glare')}",
                    f"table={cond.get('table_kind')}",
                ):
                    by[c][key] += 1
                if len(examples[c]) < 5:
                    examples[c].append(f"{deck['seed']}/{name}")
            tables += 1
            exact += not table_causes
            if table_causes:
                per_table[f"{deck['seed']}/{name} ({kind})"] = dict(Counter(table_causes))
        log(
            f"  deck {deck['seed']} ({style['border']} border, {style['art']} art, {kind}): "
            f"{dict(causes)}"
        )
    return {
        "set": str(set_dir),
        "reader": reader,
        "tables": tables,
        "tables_exact": exact,
        "cards": cards,
        "failures": sum(causes.values()),
        "causes": dict(causes.most_common()),
        "causes_by_reader": {k: dict(v.most_common()) for k, v in by_reader.items()},
        "missed_with_outline": dict(sorted(outlined.items())),
        "by_condition": {c: dict(v.most_common()) for c, v in by.items()},
        "examples": dict(examples),
        "per_table": per_table,
        "slot_curve": slot_curve(probes),
        "reflected_slot_curve": slot_curve(reflected, REFLECTED_THRESHOLDS),
        "reflected_margin_curve": margin_curve(reflected_taught),
        "reflected_below": sorted(
            (round(sc, 3), round(m, 3), k)
            for sc, m, k in reflected_taught
            if sc < REFLECTED_THRESHOLDS[-1]
        ),
        "untaught_slot_curve": slot_curve(untaught, UNTAUGHT_THRESHOLDS),
    }


def refusal(r: Any, img: np.ndarray) -> str | None:
    """Which rule refused the staged reader's glass on `img` (`r.stages` gave slots looked at
    and no glass): the features' lattice's cards weighed again as `slots.fill_lattice` weighs
    them: "halves_disagree", "reflections_too_few" or "without_lone_pair" (the glass left
    rests on one pair beside other named cards). A glass the finder's places fixed is never
    refused so (`finder.fill_by_places` gives it up, and the features' glass stands); None
    when no features' lattice is fitted."""
    from companion.games.looking_glass.vision.reader import working_image
    from companion.games.looking_glass.vision.slots import (
        fill_lattice,
        halves_disagree,
        lattice_cards,
        lattice_of,
        reflections_too_few,
        with_pairs_on,
    )
    from companion.games.looking_glass.vision.stages import Plane, by_features, fit_glass

    small, _ = working_image(img)
    found = by_features(small, r.index)
    lattice, glass = lattice_of(small, fit_glass(found, Plane(None)), r.lib, r.max_cols)
    if lattice is None:
        return None
    joined = with_pairs_on(glass, lattice, r.max_cols)
    cards, _ = lattice_cards(small, lattice, joined, r.lib, r.max_cols, r.every_card_taught)
    if halves_disagree(cards):
        return "halves_disagree"
    if reflections_too_few(cards):
        return "reflections_too_few"
    kept, _ = fill_lattice(small, lattice, glass, r.lib, r.max_cols, r.every_card_taught)
    return None if kept.cards else "without_lone_pair"


def _truth_label(centre: np.ndarray, card: str | None, truth: dict[str, Any]) -> str:
    """A glass card named at `centre` (full-resolution px) against the truth: "right" (the
    card lying there), "wrong" (another card lies there) or "none" (no card there: a score
    pile's place or a phantom)."""
    there = [
        g
        for g in truth["cards"]
        if float(np.hypot(*(centre - np.array(g["center"])))) < 0.33 * _width(g["quad"])
    ]
    return "none" if not there else "right" if there[0]["card"] == card else "wrong"


def taught_tables(
    set_dir: Path, kind: str, has: str
) -> Iterator[tuple[Any, str, np.ndarray, dict[str, Any]]]:
    """Each table of a development set with the reader its deck's teach photos make
    (`teach_deck` with reader `kind`), for the curves that look inside one reader's stages:
    decks whose reader lacks the attribute `has` (another reader was chosen, or none) are
    passed over. The reader, "deck/table", the photograph and its truth."""
    manifest = json.loads((set_dir / "manifest.json").read_text())
    for deck in manifest["decks"]:
        d = set_dir / str(deck["seed"])
        photos = {p.stem: cv2.imread(str(p)) for p in sorted((d / "teach").glob("*.jpg"))}
        reader = teach_deck(photos, kind).reader
        if reader is None or not hasattr(reader, has):
            continue
        for name in deck["tables"]:
            img = cv2.imread(str(d / f"{name}.jpg"))
            assert img is not None, d / f"{name}.jpg"
            yield (
                reader,
                f"{deck['seed']}/{name}",
                img,
                json.loads((d / f"{name}.json").read_text()),
            )


def _outline_centres(img: np.ndarray, lib: Any) -> list[np.ndarray]:
    """Centres (full-resolution px) of the whole-card outlines the candidate stage finds
    (`stages.candidates`, a whole card's hypothesis), on the staged reader's working image:
    whether a missed card's edges were there to be named from."""
    from companion.games.looking_glass.vision.reader import working_image
    from companion.games.looking_glass.vision.stages import candidates

    small, sc = working_image(img)
    return [
        h.outline.mean(axis=0) / sc
        for c in candidates(small, lib)
        for h in c.hypotheses
        if not h.covered
    ]


def _slot_label(p: SlotSeen, truth: dict[str, Any]) -> tuple[float, float, str]:
    """(score, margin, what lies there): "right" (a card, scored best), "wrong" (a card,
    another scored best) or "empty" (no glass card centred there)."""
    for g in truth["cards"]:
        if float(np.hypot(*(p.centre - g["center"]))) < 0.33 * _width(g["quad"]):
            return p.score, p.margin, "right" if p.best == g["card"] else "wrong"
    return p.score, p.margin, "empty"


UNTAUGHT_THRESHOLDS = (0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
"""`slots.UNTAUGHT_MIN_SCORE`'s candidates: over the slots of decks with a card untaught."""
REFLECTED_THRESHOLDS = (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75)


def slot_curve(
    probes: list[tuple[float, float, str]],
    thresholds: tuple[float, ...] = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8),
) -> list[dict[str, Any]]:
    """Per candidate `slots.MIN_SCORE` (margin `slots.MIN_MARGIN`): slots that would be named
    right, empty slots named, card slots named wrong. `reflected_slot_curve`: the same over
    the slots whose reflection holds a named card (`slots.REFLECTED_MIN_SCORE`'s curve);
    `untaught_slot_curve`: over the slots of decks with a card of the base deck untaught
    (`slots.UNTAUGHT_MIN_SCORE`'s)."""
    from companion.games.looking_glass.vision.slots import MIN_MARGIN

    rows = []
    for t in thresholds:
        hit = [k for s, m, k in probes if s >= t and m >= MIN_MARGIN]
        rows.append(
            {
                "min_score": t,
                "right": hit.count("right"),
                "empty_named": hit.count("empty"),
                "wrong": hit.count("wrong"),
            }
        )
    return rows


MARGIN_THRESHOLDS = (0.1, 0.2, 0.3, 0.35, 0.4, 0.5)
"""Margin candidates of `margin_curve`."""


def margin_curve(
    probes: list[tuple[float, float, str]],
    thresholds: tuple[float, ...] = REFLECTED_THRESHOLDS,
    margins: tuple[float, ...] = MARGIN_THRESHOLDS,
) -> list[dict[str, Any]]:
    """`slot_curve` with the margin a candidate too: per (least score, least margin), the
    slots named right, empty slots named and card slots named wrong (over the slots whose
    reflection holds a named card, of decks with every card taught, as `slots.name_slots`
    names them only there: whether a wide margin over the runner-up may stand for a lower
    score, `slots.REFLECTED_WIDE_MARGIN`'s curve)."""
    rows = []
    for t in thresholds:
        for m in margins:
            hit = [k for s, mm, k in probes if s >= t and mm >= m]
            rows.append(
                {
                    "min_score": t,
                    "min_margin": m,
                    "right": hit.count("right"),
                    "empty_named": hit.count("empty"),
                    "wrong": hit.count("wrong"),
                }
            )
    return rows


VOTER_THRESHOLDS = (0.2, 0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7)
"""`slots.REFLECTION_SHOWN`'s candidates."""


def voter_curve(set_dir: Path, log=print) -> dict[str, Any]:
    """`slots.REFLECTION_SHOWN`'s curve: every card that joined a lattice by its vote alone
    (the glass fit paired none), with its reflection's evidence
    (`slots.reflection_evidence`), each vote's first round, labelled by the truth (a glass
    card centred there, or not: a score pile's or a stray card). Per candidate threshold: the
    glass voters kept and the others kept (each a phantom unless the slots drop it)."""
    from companion.games.looking_glass.vision.reader import working_image
    from companion.games.looking_glass.vision.slots import fit_lattice, reflection_evidence
    from companion.games.looking_glass.vision.stages import Plane, by_features, fit_glass

    seen: list[tuple[float, bool]] = []
    for r, table, img, truth in taught_tables(set_dir, "staged", "index"):
        log(f"  {table}: {len(seen)} voters so far")
        small, sc = working_image(img)
        glass = fit_glass(by_features(small, r.index), Plane(None))
        h = r.lib.shape.height_mm
        if fit_lattice(glass, h) is not None or not glass.rejected:
            continue
        fitted = fit_lattice(glass, h, glass.rejected, r.max_cols)
        if fitted is None:
            continue
        for p, score in reflection_evidence(small, *fitted, glass.rejected, r.lib):
            centre = p.card.centre / sc
            on = any(
                float(np.hypot(*(centre - g["center"]))) < 0.33 * _width(g["quad"])
                for g in truth["cards"]
            )
            seen.append((score, on))
    rows = [
        {
            "min_score": t,
            "glass_kept": sum(on and s >= t for s, on in seen),
            "glass_dropped": sum(on and s < t for s, on in seen),
            "off_glass_kept": sum(not on and s >= t for s, on in seen),
        }
        for t in VOTER_THRESHOLDS
    ]
    return {"set": str(set_dir), "voters": len(seen), "curve": rows}


def shifts(set_dir: Path, log=print) -> dict[str, Any]:
    """Whether a lattice the halves disagree about (`slots.halves_disagree`) could be
    renumbered instead of dropped: on every staged table, the glass's cards as the slot stage
    names them before it weighs the halves (`slots.lattice_cards`, the features' glass), and
    where a shift pairs more of them than their reflections do (`slots.shift_pairs`), the
    best shifts (several when they tie), their margin over the next, and each pair at them
    labelled by the truth ("right": a glass card named right; "none": no glass card there, a
    score pile's or a phantom). Renumbering pays only where the best shift is alone and its
    pairs are right on both sides."""
    from companion.games.looking_glass.vision.reader import working_image
    from companion.games.looking_glass.vision.slots import (
        lattice_cards,
        lattice_of,
        shift_pairs,
        with_pairs_on,
    )
    from companion.games.looking_glass.vision.stages import Plane, by_features, fit_glass

    rows = []
    tables = 0
    for r, table, img, truth in taught_tables(set_dir, "auto", "stages"):
        tables += 1
        small, sc = working_image(img)
        found = by_features(small, r.index)
        lattice, glass = lattice_of(small, fit_glass(found, Plane(None)), r.lib, r.max_cols)
        if lattice is None:
            continue
        glass = with_pairs_on(glass, lattice, r.max_cols)
        cards, _ = lattice_cards(small, lattice, glass, r.lib, r.max_cols, r.every_card_taught)
        pairs = shift_pairs(cards)
        here = pairs.get((0, 0), 0)
        best = max(pairs.values(), default=0)
        if best <= here:
            continue
        at = [k for k, n in pairs.items() if n == best]
        nxt = max([n for k, n in pairs.items() if n < best] + [here])
        label: dict[tuple[int, int, int], str] = {}
        for p in cards:
            if p.card.identity.card is None:
                continue
            c = p.card.hypothesis.outline.mean(axis=0) / sc
            label[(p.half, p.row, p.col)] = _truth_label(c, p.card.identity.card, truth)
        at_best = {
            f"{dr},{dc}": [
                f"{v}+{label[(1, r0 + dr, c0 + dc)]}"
                for (h, r0, c0), v in label.items()
                if h == 0 and (1, r0 + dr, c0 + dc) in label
            ]
            for dr, dc in at
        }
        rows.append(
            {
                "table": table,
                "reflections": here,
                "best": best,
                "shifts_tied": len(at),
                "margin": best - nxt,
                "pairs_at_best": at_best,
                "named": dict(Counter(label.values())),
            }
        )
        log(json.dumps(rows[-1]))
    return {
        "set": str(set_dir),
        "staged_tables": tables,
        "halves_disagree": len(rows),
        "one_best_shift": sum(x["shifts_tied"] == 1 for x in rows),
        "tables": rows,
    }


ROW_INWARD_REACHES = (0, 1, 2)
"""Columns either side that `row_inward_curve` weighs (`finder.on_the_row_inward` takes 1)."""


def row_inward_curve(set_dir: Path, log=print) -> dict[str, Any]:
    """`finder.on_the_row_inward`'s curve: every named glass card past the first row of every
    staged table, as the reader reads it, split by who named it (the features, or its slot
    alone) and labelled by the truth ("right", "wrong", "none": no glass card there), with
    whether it lies on a glass card of the row inward within each reach of
    `ROW_INWARD_REACHES` columns, in its own half or either half (where `slots.halves_agree`).
    Per reach: the cards of each label the rule would drop (lg24 built it for the slot's
    cards at 1 column, either half, and took it out again: docs/looking-glass-table.md)."""
    from companion.games.looking_glass.vision.slots import halves_agree

    seen: list[tuple[str, str, dict[str, bool]]] = []
    tables = 0
    for r, table, img, truth in taught_tables(set_dir, "auto", "stages"):
        log(f"  {table}: {len(seen)} cards past the first row so far")
        tables += 1
        st = r.stages(img)
        by_features = {id(k.identity) for k in st.found}
        cards = st.glass.cards
        both = halves_agree(cards)
        held = {(p.half, p.row, p.col) for p in cards}
        for p in cards:
            if p.card.identity.card is None or p.row == 0:
                continue
            c = p.card.hypothesis.outline.mean(axis=0) / st.scale
            label = _truth_label(c, p.card.identity.card, truth)
            on = {
                f"{reach} {which}": any(
                    (h, p.row - 1, p.col + k) in held
                    for h in ((p.half,) if which == "own" or not both else (0, 1))
                    for k in range(-reach, reach + 1)
                )
                for reach in ROW_INWARD_REACHES
                for which in ("own", "either")
            }
            who = "features" if id(p.card.identity) in by_features else "slot"
            seen.append((who, label, on))
    curve: dict[str, Any] = {}
    for who in ("slot", "features"):
        mine = [(label, on) for w, label, on in seen if w == who]
        curve[who] = {
            "cards": dict(Counter(label for label, _ in mine)),
            "dropped": {
                key: dict(Counter(label for label, on in mine if not on[key]))
                for key in (mine[0][1] if mine else {})
            },
        }
    return {"set": str(set_dir), "staged_tables": tables, "curve": curve}


COVERAGE_RULES = ("own half", "outermost rows alike", "numbered alike", "either half")
"""When `coverage_curve` lets the other half's cards cover a card: never; where
`slots.halves_agree` (the reader's); where `numbered_alike` (lg27's candidate, measured and
not taken: docs/looking-glass-table.md); always."""


def numbered_alike(cards: list[Any]) -> bool:
    """lg27's candidate for `slots.with_coverage`: the halves' outermost rows alike
    (`slots.halves_agree`), or a named card pairs with its reflection and no shift of one
    half pairs more (`slots.halves_disagree`): an arm over one half's last row leaves the
    outermost rows different on a glass numbered right."""
    from companion.games.looking_glass.vision.slots import (
        halves_agree,
        halves_disagree,
        reflection_pairs,
    )

    return halves_agree(cards) or (reflection_pairs(cards) > 0 and not halves_disagree(cards))


def coverage_curve(set_dir: Path, log: Callable[[str], object] = print) -> dict[str, Any]:
    """`slots.with_coverage`'s choice of when the other half's cards say what covers a card:
    every staged table's glass as `slots.fill_lattice` builds it (a lattice the features'
    cards fix; glasses `halves_disagree` or `reflections_too_few` refuse are left out), and
    per rule of `COVERAGE_RULES` the glass cards named right whose covered flag is right,
    covered cards read as free, free cards read as covered, and the tables whose flags differ
    from the first rule's. Each table's halves: outermost rows alike, reflection pairs."""
    from companion.games.looking_glass.vision.reader import working_image
    from companion.games.looking_glass.vision.slots import (
        halves_agree,
        halves_disagree,
        lattice_cards,
        lattice_of,
        reflection_pairs,
        reflections_too_few,
        with_pairs_on,
    )
    from companion.games.looking_glass.vision.stages import Plane, by_features, fit_glass

    def never(cards: list[Any]) -> bool:
        return False

    def always(cards: list[Any]) -> bool:
        return True

    rules: dict[str, Callable[[list[Any]], bool]] = dict(
        zip(COVERAGE_RULES, (never, halves_agree, numbered_alike, always), strict=True)
    )
    counts = {k: Counter[str]() for k in rules}
    halves: list[dict[str, Any]] = []
    for r, table, img, truth in taught_tables(set_dir, "auto", "stages"):
        small, sc = working_image(img)
        lattice, glass = lattice_of(
            small, fit_glass(by_features(small, r.index), Plane(None)), r.lib, r.max_cols
        )
        if lattice is None:
            continue
        glass = with_pairs_on(glass, lattice, r.max_cols)
        cards, _ = lattice_cards(small, lattice, glass, r.lib, r.max_cols, r.every_card_taught)
        if halves_disagree(cards) or reflections_too_few(cards):
            continue
        first: list[bool] | None = None
        for rule, both_of in rules.items():
            both = both_of(cards)
            flags = [
                any(
                    (both or o.half == c.half) and o.row == c.row + 1 and abs(o.col - c.col) < 2
                    for o in cards
                )
                for c in cards
            ]
            first = flags if first is None else first
            counts[rule]["tables_changed"] += flags != first
            for c, covered in zip(cards, flags, strict=True):
                centre = c.card.hypothesis.outline.mean(axis=0) / sc
                there = [
                    g
                    for g in truth["cards"]
                    if not g["occluded"]
                    and float(np.hypot(*(centre - np.array(g["center"]))))
                    < 0.33 * _width(g["quad"])
                ]
                if not there or there[0]["card"] != c.card.identity.card:
                    continue
                truly = bool(there[0]["covered"])
                kind = (
                    "right"
                    if truly == covered
                    else "covered_as_free"
                    if truly
                    else "free_as_covered"
                )
                counts[rule][kind] += 1
        halves.append(
            {
                "table": table,
                "outer_rows_alike": halves_agree(cards),
                "pairs": reflection_pairs(cards),
            }
        )
        log(json.dumps(halves[-1]))
    return {
        "set": str(set_dir),
        "tables": len(halves),
        "outer_rows_differ": [h for h in halves if not h["outer_rows_alike"]],
        "curve": {k: dict(v) for k, v in counts.items()},
    }


def light_border_steps(set_dir: Path, log: Callable[[str], object] = print) -> dict[str, Any]:
    """Each loss on the decks the trial gives the light-border reader (`read.Reader`), put
    in the reader's own step that lost it, where `cause` can only say "not-found"/"unsure":
    ``quad-not-found`` (no `read.find_holes` interior within half a card width of the card's
    centre), ``hole-left-out/no-glass`` (an interior there, the reading holds no card at
    all), ``hole-left-out/layout`` (an interior there, the reading's layout not the
    table's), ``hole-left-out/glass`` (an interior there, the layout right, the glass left
    it out), ``below-threshold`` (read null, its own card scored best) and ``look-alike``
    (read null, another card scored best); a phantom by the provenance of the read card
    (`read.Provenance`). Only public names of the reader; the holes are looked for as
    `Reader.read` looks for them without markers' plane (the development tables have none
    in view, or it finds them: the second look is then one step wider than the reader's)."""
    from companion.games.looking_glass.vision.read import (
        CONFIDENCE_THRESHOLD,
        find_holes,
        processing_image,
        unbacked_names,
        white_mask,
        work_unit,
    )

    manifest = json.loads((set_dir / "manifest.json").read_text())
    steps: Counter[str] = Counter()
    per_table: dict[str, list[str]] = {}
    decks: list[str] = []
    for deck in manifest["decks"]:
        d = set_dir / str(deck["seed"])
        photos = {p.stem: cv2.imread(str(p)) for p in sorted((d / "teach").glob("*.jpg"))}
        taught = teach_deck(photos, "auto")
        if taught.reader is None or hasattr(taught.reader, "stages"):
            continue
        style = deck["style"]
        decks.append(
            f"{deck['seed']}: {style.get('size')}, {style['border']} border "
            f"{style.get('border_mm', 0):.1f} mm, {style['art']} art, sleeve {style['sleeve']}"
        )
        for name in deck["tables"]:
            img = cv2.imread(str(d / f"{name}.jpg"))
            assert img is not None, name
            truth = json.loads((d / f"{name}.json").read_text())
            r = taught.reader.read(img)
            reading = r.to_json("table")
            sc, small = processing_image(img)
            unit = work_unit()
            holes = find_holes(small, white=white_mask(small, unit), unit=unit)
            centres = [h.corners.mean(axis=0) / sc for h in holes]
            lines = []
            for o in card_outcomes(reading, truth):
                if o.kind in ("right", "hidden"):
                    continue
                if o.kind == "extra":
                    assert o.read is not None
                    at = np.array(o.read["center"])
                    seen = min(r.cards, key=lambda c: float(np.hypot(*(c.center - at))))
                    how = "named" if o.read["card"] is not None else "null"
                    step = f"phantom/{how}/{seen.provenance.value}"
                    lines.append(f"{step} {o.read['card']} at {o.read['position']}")
                    steps[step] += 1
                    continue
                g = o.truth
                assert g is not None
                state = "covered" if g["covered"] else "free"
                if o.kind == "unsure":
                    assert o.read is not None
                    at = np.array(o.read["center"])
                    seen = min(r.cards, key=lambda c: float(np.hypot(*(c.center - at))))
                    best = max(seen.scores, key=lambda k: seen.scores[k]) if seen.scores else None
                    step = "below-threshold" if best == g["card"] else "look-alike"
                    if seen.confidence >= CONFIDENCE_THRESHOLD and best is not None:
                        # Named, then asked by `ask_unbacked_names`: which rule asked.
                        named = [copy.copy(c) for c in r.cards]
                        for c in named:
                            if c.card is None and c.confidence >= CONFIDENCE_THRESHOLD:
                                c.card = max(c.scores, key=lambda k: c.scores[k])
                        rules = unbacked_names(named, taught.reader.copies, CONFIDENCE_THRESHOLD)
                        why = rules.get(r.cards.index(seen), "no rule")
                        step = f"asked ({'own' if best == g['card'] else 'other'} best): {why}"
                    lines.append(
                        f"{step} ({state}) {g['card']} conf {seen.confidence:.2f}, best {best} "
                        f"{seen.scores.get(best, 0.0) if best else 0.0:.2f}, own "
                        f"{seen.scores.get(g['card'], 0.0):.2f}"
                    )
                elif o.kind == "missed":
                    reach = 0.5 * _width(g["quad"])
                    dist = min(
                        (float(np.hypot(*(c - np.array(g["center"])))) for c in centres),
                        default=float("inf"),
                    )
                    if dist >= reach:
                        step = "quad-not-found"
                    elif not reading["cards"]:
                        step = "hole-left-out/no-glass"
                    elif reading["layout"] != truth["layout"]:
                        step = "hole-left-out/layout-not-named"
                    else:
                        step = "hole-left-out/layout-named"
                    lines.append(
                        f"{step} ({state}) {g['card']} at {g['position']}"
                        f"{' occluded' if g.get('occluded') else ''}, nearest interior "
                        f"{dist / _width(g['quad']):.2f} widths"
                    )
                else:
                    step = f"{o.kind} ({state})"
                    lines.append(f"{step} {g['card']}")
                steps[step.split(" (")[0]] += 1
            if lines:
                key = (
                    f"{deck['seed']}/{name} (layout {reading['layout']} / {truth['layout']}, "
                    f"{len(reading['cards'])} read / {len(truth['cards'])}, "
                    f"{truth['truth']['conditions']})"
                )
                per_table[key] = lines
        log(f"  deck {deck['seed']}: light-border, {sum(steps.values())} losses so far")
    return {
        "set": str(set_dir),
        "light_border_decks": decks,
        "steps": dict(steps.most_common()),
        "per_table": per_table,
    }


WEAK_PAIR_BOUNDS = (0, 1, 2, 3)
WEAK_UNNAMED_BOUNDS = (0, 1, 2)


def weak_readings(set_dirs: list[Path], log: Callable[[str], object] = print) -> dict[str, Any]:
    """The curve of `read.weak_reading`, on the decks the trial gives the light-border reader
    (`read.Reader`): each table read with the rule off, its reading's mirror pairs
    (`read.mirror_pairs`), whether a layout card backs it, its paired cards not named
    (`read.unnamed_in_pairs`), and its cards named right, named where no card or another
    card lies (phantoms and wrong names). For each pair bound and least number of unnamed
    paired cards: the named phantoms and wrong names the rule would ask about, and the right
    cards it would ask about too. `hand` (the truth's) is listed, not used."""
    from companion.games.looking_glass.vision import read as lb
    from companion.games.looking_glass.vision.read import mirror_pairs, unnamed_in_pairs

    rows: list[dict[str, Any]] = []
    was = lb.WEAK_PAIRS
    lb.WEAK_PAIRS = -1
    try:
        for set_dir in set_dirs:
            manifest = json.loads((set_dir / "manifest.json").read_text())
            for deck in manifest["decks"]:
                d = set_dir / str(deck["seed"])
                photos = {p.stem: cv2.imread(str(p)) for p in sorted((d / "teach").glob("*.jpg"))}
                taught = teach_deck(photos, "auto")
                if taught.reader is None or hasattr(taught.reader, "stages"):
                    continue
                for name in deck["tables"]:
                    img = cv2.imread(str(d / f"{name}.jpg"))
                    assert img is not None, name
                    truth = json.loads((d / f"{name}.json").read_text())
                    r = taught.reader.read(img)
                    labels = [
                        _truth_label(c.center, c.card, truth) if c.card is not None else "asked"
                        for c in r.cards
                    ]
                    row = {
                        "table": f"{set_dir.name}/{deck['seed']}/{name}",
                        "cards": len(r.cards),
                        "pairs": mirror_pairs(r.cards),
                        "layout": r.layout,
                        "paired_unnamed": unnamed_in_pairs(r.cards),
                        "right": labels.count("right"),
                        "named_wrong": labels.count("wrong") + labels.count("none"),
                        "hand": bool(truth["truth"]["conditions"].get("hand")),
                    }
                    rows.append(row)
                    log(f"  {row}")
    finally:
        lb.WEAK_PAIRS = was
    curve = []
    for pb in WEAK_PAIR_BOUNDS:
        for ub in WEAK_UNNAMED_BOUNDS:
            hit = [
                r
                for r in rows
                if r["cards"]
                and r["layout"] is None
                and r["pairs"] <= pb
                and r["paired_unnamed"] >= ub
            ]
            curve.append(
                {
                    "pairs_at_most": pb,
                    "paired_unnamed_at_least": ub,
                    "tables": len(hit),
                    "named_wrong_asked": sum(r["named_wrong"] for r in hit),
                    "right_asked": sum(r["right"] for r in hit),
                }
            )
    return {"tables": rows, "curve": curve}


DROP_ONE_PATHS = ("features", "slot", "reflected", "other")
"""How the staged reader came to name a card (`named_paths`): its features' instance, its
lattice slot (`slots.named`), its slot beside a named reflection (`slots.reflected_named`),
or another step (the finder's places)."""


def _staged_paths(st: Any) -> list[str]:
    """The path (`DROP_ONE_PATHS`) of each card of `st.glass`, in order."""
    found = {id(f.identity) for f in st.found}
    probed = {id(p.identity) for p in st.probes}
    slots = {(p.half, p.row, p.col) for p in st.probes}
    out = []
    for p in st.glass.cards:
        i = id(p.card.identity)
        if i in found:
            out.append("features")
        elif i in probed:
            out.append("slot")
        elif (p.half, p.row, p.col) in slots:
            out.append("reflected")
        else:
            out.append("other")
    return out


def _without_face(reader: Any, card: str) -> Any:
    """The same kind of reader over its library less `card`'s face (a card whose teach photo
    was refused: `teach_deck` leaves it out alike)."""
    from companion.games.looking_glass.vision.choose import make_reader

    lib = reader.lib
    kind = "staged" if hasattr(reader, "stages") else "light-border"
    return make_reader(lib.subset([i for i, c in enumerate(lib.ids) if c != card]), kind)


def named_rows(
    reader: Any,
    img: np.ndarray,
    truth: dict[str, Any],
    untaught: set[str],
    reflected: list[tuple[float, float, str]] | None = None,
) -> list[dict[str, Any]]:
    """Every card `reader` names on one table (at `read.CONFIDENCE_THRESHOLD`), with how it
    was named and what it is: "right", "wrong" (another taught card lies there), "untaught"
    (a card the library lacks lies there: any name is wrong), "phantom" (no card there).
    `own`: the named face's correlation with the card's upper half (`identify` at the slot
    stage's search; the staged reader), `runner`: the best other face's; `copy_best`: the
    highest `own` among the other cards of the table named alike (None: no other).
    `reflected`: if given, the staged reader's slots beside a named reflection are added to it
    (`_slot_label`), as `slots.name_slots` would weigh them on a deck with every card taught."""
    from companion.games.looking_glass.vision.read import CONFIDENCE_THRESHOLD
    from companion.games.looking_glass.vision.reader import working_image
    from companion.games.looking_glass.vision.slots import PROBE_SEARCH_PX
    from companion.vision.cards.identify import identify

    staged = hasattr(reader, "stages")
    if staged:
        st = reader.stages(img)
        reading = reader.reading(st)
        paths = _staged_paths(st)
        small, sc = working_image(img)
        if reflected is not None:
            reflected += [_slot_label(p, truth) for p in _slots(st) if p.reflected]
    else:
        reading = reader.read(img)
        paths = [str(c.provenance) for c in reading.cards]
    js = reading.to_json("table")
    for c in js["cards"]:
        c["card"] = c["card"] if c["confidence"] >= CONFIDENCE_THRESHOLD else None
    behind = {
        id(j): (c, path) for j, c, path in zip(js["cards"], reading.cards, paths, strict=True)
    }
    rows: list[dict[str, Any]] = []
    for o in card_outcomes(js, truth):
        if o.read is None or o.read["card"] is None:
            continue
        seen, path = behind[id(o.read)]
        if o.truth is None:
            label = "phantom"
        elif o.truth["card"] == o.read["card"]:
            label = "right"
        else:
            label = "untaught" if o.truth["card"] in untaught else "wrong"
        row: dict[str, Any] = {
            "card": o.read["card"],
            "truth": None if o.truth is None else o.truth["card"],
            "label": label,
            "path": path,
            "score": round(float(seen.confidence), 3),
            "covered": bool(seen.covered),
        }
        if staged:
            ident = identify(
                small, seen.quad * sc, reader.lib, top_known=True, margin=PROBE_SEARCH_PX
            )
            own = ident.scores.get(seen.card, -1.0)
            row["own"] = round(float(own), 3)
            row["runner"] = round(
                max((v for k, v in ident.scores.items() if k != seen.card), default=-1.0), 3
            )
        rows.append(row)
    for r in rows:
        others = [q["own"] for q in rows if q is not r and q["card"] == r["card"] and "own" in q]
        r["copy_best"] = max(others) if others else None
    return rows


def drop_one(set_dir: Path, log: Callable[[str], object] = print) -> dict[str, Any]:
    """Every card named on each table of a development set (`--reader auto`), read as taught
    and again with the table's commonest face untaught (as if its teach photo were refused:
    each of its copies can then only be named wrong), by path (`named_rows`): the rows an
    open-set rule (ask a name its own face does not back) is chosen from."""
    from companion.games.looking_glass.rules.deck import load_deck

    manifest = json.loads((set_dir / "manifest.json").read_text())
    base = set(load_deck().normal_ids)
    rows: list[dict[str, Any]] = []
    reflected: list[tuple[float, float, str]] = []
    for deck in manifest["decks"]:
        d = set_dir / str(deck["seed"])
        photos = {p.stem: cv2.imread(str(p)) for p in sorted((d / "teach").glob("*.jpg"))}
        taught = teach_deck(photos, "auto")
        if taught.reader is None:
            continue
        kind = "staged" if hasattr(taught.reader, "stages") else "light-border"
        for name in deck["tables"]:
            img = cv2.imread(str(d / f"{name}.jpg"))
            truth = json.loads((d / f"{name}.json").read_text())
            common = Counter(g["card"] for g in truth["cards"]).most_common(1)[0][0]
            untaught = base - set(taught.accepted)
            for mode, reader, lacking in (
                ("taught", taught.reader, untaught),
                ("drop-one", _without_face(taught.reader, common), untaught | {common}),
            ):
                if mode == "drop-one" and common in untaught:
                    continue
                lacks = bool(lacking & base)
                for r in named_rows(reader, img, truth, lacking, reflected if lacks else None):
                    r |= {"table": f"{deck['seed']}/{name}", "mode": mode, "reader": kind}
                    r["every_taught"] = not lacking & base
                    rows.append(r)
        log(f"  deck {deck['seed']} ({kind}): {len(rows)} named so far")
    summary: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        summary[f"{r['mode']} {r['reader']} {r['path']}"][r["label"]] += 1
    return {
        "set": str(set_dir),
        "summary": {k: dict(v) for k, v in sorted(summary.items())},
        "untaught_reflected_curve": margin_curve(reflected, UNTAUGHT_REFLECTED_THRESHOLDS),
        "rows": rows,
    }


UNTAUGHT_REFLECTED_THRESHOLDS = (0.6, 0.65, 0.7, 0.75, 0.8)
"""Least scores of `drop_one`'s curve over the slots beside a named reflection on readers
with a face untaught (`slots.name_slots` names none of them there)."""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", default=str(COMMITTED), help="a development set (devset make)")
    ap.add_argument("--reader", choices=READERS, default="staged")
    ap.add_argument("--json", default=None, help="also write the result here")
    ap.add_argument(
        "--voter-curve",
        action="store_true",
        help="only the curve of slots.REFLECTION_SHOWN (cards that joined a glass by vote)",
    )
    ap.add_argument(
        "--row-inward",
        action="store_true",
        help="only the curve of finder.on_the_row_inward (named cards past the first row)",
    )
    ap.add_argument(
        "--coverage",
        action="store_true",
        help="only the curve of slots.with_coverage's rule (when the other half covers)",
    )
    ap.add_argument(
        "--shifts",
        action="store_true",
        help="only the tables whose halves disagree, and whether a renumbering would pay",
    )
    ap.add_argument(
        "--light-border-steps",
        action="store_true",
        help="only the light-border decks' losses, by `read.Reader`'s step that lost each",
    )
    ap.add_argument(
        "--weak-readings",
        nargs="*",
        default=None,
        metavar="MORE_SETS",
        help="only the curve of read.weak_reading's rule (a one-pair reading asked), on "
        "--set and these sets too",
    )
    ap.add_argument(
        "--drop-one",
        action="store_true",
        help="only every card named (reader auto), as taught and with each table's commonest "
        "face untaught, by path (an open-set rule's rows)",
    )
    a = ap.parse_args(argv)
    set_dir = Path(a.set)
    if not (set_dir / "manifest.json").is_file():
        print(f"error: {set_dir} is not a development set (no manifest.json)", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    t0 = time.time()
    if a.voter_curve:
        print(json.dumps(voter_curve(set_dir, log=lambda m: print(m, file=sys.stderr)), indent=1))
        return 0
    if a.row_inward:
        print(
            json.dumps(row_inward_curve(set_dir, log=lambda m: print(m, file=sys.stderr)), indent=1)
        )
        return 0
    if a.coverage:
        print(
            json.dumps(coverage_curve(set_dir, log=lambda m: print(m, file=sys.stderr)), indent=1)
        )
        return 0
    if a.light_border_steps:
        out = light_border_steps(set_dir, log=lambda m: print(m, file=sys.stderr))
        print(json.dumps(out, indent=1))
        return 0
    if a.weak_readings is not None:
        out = weak_readings(
            [set_dir, *map(Path, a.weak_readings)], log=lambda m: print(m, file=sys.stderr)
        )
        for c in out["curve"]:
            print(
                f"pairs <= {c['pairs_at_most']}, unnamed paired >= "
                f"{c['paired_unnamed_at_least']}: "
                f"{c['tables']} tables, {c['named_wrong_asked']} named wrong asked, "
                f"{c['right_asked']} right asked",
                file=sys.stderr,
            )
        text = json.dumps(out, indent=1)
        print(text)
        if a.json:
            Path(a.json).write_text(text + "\n")
        return 0
    if a.drop_one:
        out = drop_one(set_dir, log=lambda m: print(m, file=sys.stderr, flush=True))
        text = json.dumps(out, indent=1)
        print(json.dumps(out["summary"], indent=1))
        for c in out["untaught_reflected_curve"]:
            print(
                f"score >= {c['min_score']}, margin >= {c['min_margin']}: right {c['right']}, "
                f"empty named {c['empty_named']}, wrong {c['wrong']}"
            )
        if a.json:
            Path(a.json).write_text(text + "\n")
        return 0
    if a.shifts:
        print(json.dumps(shifts(set_dir, log=lambda m: print(m, file=sys.stderr)), indent=1))
        return 0
    out = classify_set(set_dir, a.reader, log=lambda m: print(m, file=sys.stderr, flush=True))
    out["seconds"] = round(time.time() - t0, 1)
    text = json.dumps(out, indent=1)
    print(text)
    if a.json:
        Path(a.json).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
