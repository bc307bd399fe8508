"""Benchmark of the Onirim camera reading (`companion read onirim`), on one core.

For each seed a deck is drawn (the house style, or every design choice at random), taught from
its rendered teach photos (`companion teach onirim`), and `--tables` tables of that deck are
rendered and read. Measures, per style: the share of cards right (every card of the answer
key: labyrinth, Doors, Mirrors and their sides, cards under them, the discard top), cards
named wrongly, left null (the player is asked), phantom cards; teach photos refused; and the
CPU time of a read against the bare `detectMarkers` on the same 1280x960 pictures (medians
over the frames; `--repeat R`, 5 unless told, times each frame R times and takes its median,
which leaves less of a loaded machine's noise in each frame's time). The ratio moves with the
frames drawn: on 72 development frames under load ~50, the 90 % range of the ratio over draws
of 9 / 24 / 36 frames was 1.23-2.26 / 1.35-2.12 / 1.40-2.08; quote 24 frames or more
(`--seeds A:A+8 --tables 3`), with `--against` for the paired ratio on the same frames.

`--curve` prints, instead, the scores behind the thresholds of read.py on a development set:
the best correlation at places holding a card (right or not) and at the first empty place
after each row or fan.

Run:  PYTHONPATH=. python benchmarks/onirim_vision.py --seeds 500000:500010 --tables 5
      [--styles house,random,heldout] [--curve]
`heldout` is the second painter's designs (benchmarks/heldout/onirim.py): measured only,
never a development set (`--curve` refuses it).
Fresh seeds only for the numbers quoted; development used seeds 1000..1019.
Each run writes its results to its own file (`results_path`:
benchmarks/results/onirim_vision_<UTC time>_<pid>.json, `--results` naming the stem), so
earlier runs are kept.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.heldout import onirim as heldout  # noqa: E402
from companion.games.onirim.rules import ENGINE  # noqa: E402
from companion.games.onirim.rules.deck import colour_of, is_location  # noqa: E402
from companion.games.onirim.vision import read as read_module  # noqa: E402
from companion.games.onirim.vision.compare import Tally, compare  # noqa: E402
from companion.games.onirim.vision.layout import load_layout  # noqa: E402
from companion.games.onirim.vision.read import MARGIN as R_MARGIN  # noqa: E402
from companion.games.onirim.vision.read import TableReader  # noqa: E402
from companion.games.onirim.vision.reading import TableReading  # noqa: E402
from companion.games.onirim.vision.render import (  # noqa: E402
    deck_faces,
    deck_style,
    render_table,
    table_look,
    teach_photo,
)
from companion.games.onirim.vision.teach import teach_photos  # noqa: E402
from companion.vision.markers import detect_markers  # noqa: E402

CURVE_HELD_FLOOR = 0.40
"""With `--curve`, `read.HELD_SURE` is lowered to this, so the `held_*` rows show what a gap in
a row would name from every score down to it."""
RESULTS = ROOT / "benchmarks" / "results" / "onirim_vision.json"
"""The default `--results`: each run writes `results_path`'s file beside it, so earlier runs
are kept."""


def run_id() -> str:
    """This run's id: the UTC time to the second and the process id (two runs started in one
    second differ)."""
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + f"_{os.getpid()}"


def results_path(path: Path, run: str) -> Path:
    """Where a run writes its results: `path` with the run's id before its suffix
    (`onirim_vision_<run>.json`), so no run overwrites another's."""
    return path.with_name(f"{path.stem}_{run}{path.suffix}")


def _seeds(text: str) -> range:
    a, b = (int(v) for v in text.split(":"))
    return range(a, b)


def teach_deck(
    faces: dict[str, np.ndarray], seed: int, photo=teach_photo
) -> tuple[TableReader, int]:
    rng = np.random.default_rng([seed, 99])
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for cid, face in faces.items():
            p = Path(tmp) / f"{cid}.jpg"
            cv2.imwrite(str(p), photo(face, rng), [cv2.IMWRITE_JPEG_QUALITY, 92])
            paths[cid] = p
        taught = teach_photos(paths)
    return TableReader(taught.library), len(taught.refused)


def timed_read(reader, image: np.ndarray) -> tuple[TableReading, list[float]]:
    """A frame read by `reader`, and the CPU ms of the whole read, then of its stages: the
    homography (markers and fit), and the cards alone from that homography."""
    t0 = time.process_time()
    reading = reader.read(image)
    t1 = time.process_time()
    located = reader.locate(image)
    t2 = time.process_time()
    reader.read(image, located=located)
    t3 = time.process_time()
    return reading, [1e3 * (t1 - t0), 1e3 * (t2 - t1), 1e3 * (t3 - t2)]


def bare_detection_ms(image: np.ndarray) -> float:
    """CPU ms of the bare `detectMarkers` on the whole frame (what the read is measured by)."""
    t0 = time.process_time()
    detect_markers(image)
    return 1e3 * (time.process_time() - t0)


def _load_reader(path: str):
    """The module of another read.py, loaded beside this one (it imports the same shared
    code): a paired run reads each table with both readers."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("onirim_read_against", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"--against: cannot load {path}")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def print_named(zone: str, card: str, m) -> None:
    """One line for a Location place the reader names (`--named-rows`): the card that lies
    there, the name, and what the reader says of its certainty (the table's confusions are a
    Location named as another, mostly another colour of its symbol)."""
    if zone not in ("location", "discard") or m.card is None:
        return
    if not is_location(card) or not is_location(m.card):
        return
    row = {"zone": zone, "truth": card, "named": m.card, "runner_up": m.runner_up}
    for k in ("score", "margin", "colour_lead", "colour_look", "symbol"):
        v = getattr(m, k)
        row[k] = None if v is None else round(float(v), 4)
    print("NAMED " + json.dumps(row), flush=True)


SYMBOL_GRID_MARGINS = (0.005, 0.01, 0.02, 0.03, 0.05, 0.08)
SYMBOL_GRID_LEADS = (0.30, 0.32, 0.35, 0.40, 0.45, 0.50)


def symbol_named(zone: str, card: str | None, m, out: dict[str, list[float]]) -> None:
    """One line for a card the symbol look names (`--symbol-rows`): its whole corner's margin
    (how far the whole corner's first type led its runner-up, mostly the other type of its
    colour) with its symbol lead, right, wrong or a phantom; kept in `out` as pairs for the
    grid `symbol_grid` prints (a named-wrong card whose whole corner could not tell the two
    types apart and whose symbol only just cleared `SYMBOL_MARGIN`)."""
    ok = "phantom" if card is None else ("right" if m.card == card else "wrong")
    row = {"zone": zone, "truth": card, "named": m.card, "ok": ok}
    for k in ("score", "margin", "symbol", "symbol_kept", "symbol_sharp"):
        v = getattr(m, k)
        row[k] = None if v is None else round(float(v), 4)
    print("SYMBOL " + json.dumps(row), flush=True)
    out.setdefault(f"symbol_named_margin_{ok}", []).append(float(m.margin))
    out.setdefault(f"symbol_named_lead_{ok}", []).append(float(m.symbol))


def symbol_grid(out: dict[str, list[float]]) -> None:
    """For each whole-corner margin X and symbol lead Y: how many cards the symbol look named
    would be asked by the rule "a whole-corner margin under X needs a symbol lead of at least
    Y", right ones (lost) and wrong ones or phantoms (saved)."""
    pairs = {
        ok: list(
            zip(
                out.get(f"symbol_named_margin_{ok}", []),
                out.get(f"symbol_named_lead_{ok}", []),
                strict=True,
            )
        )
        for ok in ("right", "wrong", "phantom")
    }
    print("symbol-named: " + ", ".join(f"{len(v)} {ok}" for ok, v in pairs.items()))
    print("asked (right / wrong / phantom) by margin under X (rows) and lead under Y (columns)")
    print("      X " + " ".join(f"{y:>11.2f}" for y in SYMBOL_GRID_LEADS))
    for x in SYMBOL_GRID_MARGINS:
        cells = []
        for y in SYMBOL_GRID_LEADS:
            n = [sum(mg < x and ld < y for mg, ld in pairs[ok]) for ok in pairs]
            cells.append(f"{n[0]:>3} / {n[1]} / {n[2]}")
        print(f"  {x:.3f} " + " ".join(f"{c:>11}" for c in cells))


def curve(
    reader: TableReader,
    image: np.ndarray,
    truth,
    out: dict[str, list[float]],
    mirrors_only: bool = False,
    discard_only: bool = False,
    mirror_rows: bool = False,
    named_rows: bool = False,
    symbol_rows: bool = False,
) -> None:
    H = reader.locate(image)
    if H is None:
        return
    L = reader.layout
    # The discard place: the pile's top (a card named by the whole corner, never its symbol)
    # or the bare table; no row's last card lies before it, so its body is never what shows.
    (top,) = reader.match([reader.corner_window(image, H, L.discard_place)], "discard")
    if truth.discard_top is None:
        out["discard_empty"].append(top.score)
        out["discard_coarse_empty"].append(top.coarse)
    else:
        ok = "right" if top.best == truth.discard_top else "wrong"
        out[f"discard_{ok}"].append(top.score)
        out[f"discard_margin_{ok}"].append(top.margin)
        out[f"discard_coarse_{ok}"].append(top.coarse)
        if named_rows:
            print_named("discard", truth.discard_top, top)
    if discard_only:
        return

    def score(places, zone, cards):
        ms = reader.match([reader.corner_window(image, H, p) for p in places], zone)
        for k, (m, card) in enumerate(zip(ms, cards, strict=True)):
            out["coarse_empty" if card is None else "coarse_card"].append(m.coarse)
            # A row's end: its last card, and the place after it (the last card's body), when
            # the symbol look decided (finalists of one colour): how well the symbol shows.
            last = card is not None and (k + 1 == len(cards) or cards[k + 1] is None)
            if m.symbol_fit is not None and (last or card is None) and m.symbol is not None:
                ok = "body" if card is None else ("right" if m.best == card else "wrong")
                out[f"end_symbol_fit_{ok}"].append(m.symbol_fit)
                if m.card is not None:  # named: a phantom if it were read past the row's end
                    out[f"end_named_symbol_fit_{ok}"].append(m.symbol_fit)
            if symbol_rows and m.card is not None and m.symbol is not None:
                symbol_named(zone, card, m, out)
            if card is not None and m.empty and m.held_card() is not None:
                # A card below EMPTY that a gap bridged by sure cards would name (`Match.held`,
                # HELD_SURE lowered to CURVE_HELD_FLOOR here): its score, right or wrong.
                out[f"held_{'right' if m.held_card() == card else 'wrong'}"].append(m.score)
            if card is not None and m.empty:
                out["below_empty_card"].append(m.score)
            if card is None:
                out["empty"].append(m.score)
                if m.symbol_fit is not None:  # an empty place's best guess had kin
                    out["symbol_fit_empty"].append(m.symbol_fit)
                    out["symbol_empty"].append(m.symbol if m.symbol is not None else 0.0)
                    out["score_kin_empty"].append(m.score)
            else:
                if named_rows:
                    print_named(zone, card, m)
                out["right" if m.best == card else "wrong"].append(m.score)
                out["margin_right" if m.best == card else "margin_wrong"].append(m.margin)
                if m.colour_lead is not None and is_location(card):  # another colour near
                    same = colour_of(m.best) == colour_of(card)
                    out["colour_lead_right" if same else "colour_lead_wrong"].append(m.colour_lead)
                if m.colour_look is not None:  # another colour among the finalists
                    same = colour_of(m.best) == colour_of(card)
                    # In doubt: the whole corner alone leads no other colour by MARGIN.
                    near = m.colour_lead if m.colour_lead is not None else m.margin
                    doubt = "_doubt" if near < R_MARGIN else ""
                    key = f"colour_look{doubt}_{'right' if same else 'wrong'}"
                    out[key].append(m.colour_look)
                if m.symbol is not None:  # finalists of one colour: the symbol decided
                    ok = "right" if m.best == card else "wrong"
                    out[f"symbol_{ok}"].append(m.symbol)
                    out[f"symbol_score_{ok}"].append(m.score)
                    out[f"symbol_fit_{ok}"].append(m.symbol_fit)
                    if m.symbol_kept is not None:  # ... and the look reaching further
                        out[f"symbol_kept_{ok}"].append(m.symbol_kept)
                    if m.symbol_sharp is not None:  # ... and the pairs' reach at its blur
                        out[f"symbol_sharp_{ok}"].append(m.symbol_sharp)
                    if m.overruled > 0:  # ... against the whole corner's order
                        out[f"overruled_{ok}"].append(m.overruled)

    doors = [f"door-{d}" for d in truth.doors]
    if not mirrors_only:
        score(list(L.door_places[: len(doors) + 1]), "door", [*doors, None][: len(doors) + 1])
    n = len(truth.labyrinth)
    places = list(L.labyrinth_places[: n + 1])
    if not mirrors_only:
        score(places, "location", [*truth.labyrinth, None][: len(places)])
    order = list(ENGINE.deck.mirrors)
    present = {m.mirror: m for m in truth.mirrors}
    for i, mid in enumerate(order):
        m = present.get(mid)
        side = None if m is None else (f"mirror-{mid}-explored" if m.explored else f"mirror-{mid}")
        score([L.mirror_places[i]], f"mirror-{mid}", [side])
        m_seen = reader.match([reader.corner_window(image, H, L.mirror_places[i])], f"mirror-{mid}")
        out["mirror_empty" if side is None else "mirror_card"].append(m_seen[0].score)
        if side is not None and m_seen[0].light is not None:  # the sides' lightness look
            ok = "right" if m_seen[0].best == side else "wrong"
            # The right side's lead in lightness (the named side's when it is the right one).
            lead = m_seen[0].light if ok == "right" else -m_seen[0].light
            out[f"mirror_light_{ok}"].append(lead)
            out[f"mirror_margin_{ok}"].append(m_seen[0].margin)
            out[f"mirror_sure_{ok}"].append(float(m_seen[0].card is not None))
            out[f"mirror_gap_{ok}"].append(
                abs(
                    float(reader.lightness[reader.index[f"mirror-{mid}"]])
                    - float(reader.lightness[reader.index[f"mirror-{mid}-explored"]])
                )
            )
            out[f"mirror_explored_{ok}"].append(float(m is not None and m.explored))
        if mirror_rows and side is not None:  # one line a Mirror place: the joint curve
            row = {"mirror": mid, "side": side, "under": len(m.under) if m else 0}
            row |= {k: getattr(m_seen[0], k) for k in ("best", "card", "score", "margin", "light")}
            print("MIRROR " + json.dumps(row), flush=True)
        if side is not None and m_seen[0].card is not None:  # named: is its side a guess?
            ok = "right" if m_seen[0].card == side else "wrong"
            out[f"mirror_guessed_{ok}"].append(float(m_seen[0].side_guessed))
        if m is not None and not m.explored and not mirrors_only:
            k = len(m.under)
            places = [L.under_place(i, j) for j in range(min(k + 1, L.fan_max))]
            score(places, "location", [*m.under, None][: len(places)])


def body_rows(reader: TableReader, image: np.ndarray, truth) -> None:
    """One line a row's end (`--body-rows`): each row's last card and the place after it, with
    the reader's scores there and how well the window matches the body of the card before it
    (`TableReader.body_score`, the type the reader saw there): the curve of `read.BODY_FLOOR`
    and `BODY_MARGIN`. `want` null: the place after the row's last card (its body, or the
    table for a row's first place)."""
    H = reader.locate(image)
    if H is None:
        return
    L = reader.layout
    rows: list[tuple[str, list, str, list, tuple | None]] = []
    doors = [f"door-{d}" for d in truth.doors]
    rows.append(("door", list(L.door_places), "door", doors, None))
    rows.append(("labyrinth", list(L.labyrinth_places), "location", list(truth.labyrinth), None))
    order = list(ENGINE.deck.mirrors)
    for m in truth.mirrors:
        if m.explored:
            continue
        i = order.index(m.mirror)
        places = [L.under_place(i, k) for k in range(L.fan_max)]
        rows.append((f"under-{m.mirror}", places, "location", list(m.under), (i, m.mirror)))
    for name, places, zone, cards, mirror in rows:
        n = len(cards)
        ks = [k for k in (n - 1, n) if 0 <= k < len(places)]
        if not ks:
            continue
        ms = reader.match([reader.corner_window(image, H, places[k]) for k in ks], zone)
        for k, m in zip(ks, ms, strict=True):
            p = places[k]
            if k > 0:  # the card before it in the row, as the reader sees it
                b, bzone = places[k - 1], zone
            elif mirror is not None:  # a fan's first place: the Mirror above it
                b, bzone = L.mirror_places[mirror[0]], f"mirror-{mirror[1]}"
            else:  # a row's first place: the table before it
                b, bzone = None, zone
            pm = None if b is None else reader.match([reader.corner_window(image, H, b)], bzone)[0]
            body = None if b is None or pm is None else reader.body_score(image, H, p, b, pm.best)
            row = {
                "row": name,
                "k": k,
                "want": cards[k] if k < n else None,
                "before": None if pm is None else pm.best,
                "before_empty": None if pm is None else pm.empty,
                "body": body,
                "held": m.card or m.held_card(),
            }
            row |= {f: getattr(m, f) for f in ("best", "card", "score", "margin", "coarse")}
            row["symbol_fit"] = m.symbol_fit
            print("BODY " + json.dumps(row), flush=True)


def row_gap_curve(
    reader: TableReader, image: np.ndarray, truth: TableReading, gaps: list[int]
) -> list[dict[str, Any]]:
    """The table read once for each `read.ROW_GAP` in `gaps` (`--row-gaps`): its tally and how
    many corner windows the read looked at (each place looked at past a row's end costs about
    as much as a card). Read with the module's value restored after."""
    count = [0]
    window = reader.corner_window

    def counted(*args: Any, **kwargs: Any) -> np.ndarray:
        count[0] += 1
        return window(*args, **kwargs)

    reader.corner_window = counted  # type: ignore[method-assign]
    keep, rows = read_module.ROW_GAP, list[dict[str, Any]]()
    try:
        for g in gaps:
            read_module.ROW_GAP = g
            count[0] = 0
            t = compare(reader.read(image), truth)
            rows.append(
                {"gap": g, **{k: getattr(t, k) for k in ("cards", "right", "wrong", "null")}}
                | {"phantom": t.phantom, "windows": count[0], "errors": t.errors}
            )
    finally:
        read_module.ROW_GAP = keep
        del reader.corner_window
    return rows


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="500000:500010")
    ap.add_argument("--tables", type=int, default=5)
    ap.add_argument("--styles", default="house,random,heldout")
    ap.add_argument("--curve", action="store_true")
    ap.add_argument(
        "--mirrors-only",
        action="store_true",
        help="with --curve: score the Mirror places only (their sides' curves, in less time)",
    )
    ap.add_argument(
        "--discard-only",
        action="store_true",
        help="with --curve: score the discard place only (its `discard_*` rows, in less time)",
    )
    ap.add_argument(
        "--mirror-rows",
        action="store_true",
        help="with --curve: print each Mirror place's side, best, score, margin and light on a "
        "line (`read.SIDE_LIGHT` and `SIDE_MARGIN` are chosen on the two together)",
    )
    ap.add_argument(
        "--body-rows",
        action="store_true",
        help="with --curve: print each row's last card and the place after it with its score "
        "against the body of the card before it (`read.BODY_FLOOR`, `BODY_MARGIN`)",
    )
    ap.add_argument(
        "--named-rows",
        action="store_true",
        help="with --curve: print each Location place the reader names (truth, name, runner-up, "
        "margin, colour lead and look) on a line: the margins a misnamed card carries",
    )
    ap.add_argument(
        "--symbol-rows",
        action="store_true",
        help="with --curve: print each card the symbol look names (whole-corner margin, symbol "
        "lead, kept, sharp; right, wrong or phantom) on a line, and the grid of what a rule on "
        "the two together would ask",
    )
    ap.add_argument("--dump", help="with --curve: write every score to this JSON file")
    ap.add_argument(
        "--row-gaps",
        help="instead of timing: read each table once for each of these `read.ROW_GAP` values "
        "(e.g. 1,2,3) and print each one's tally and corner windows a read (the curve of "
        "ROW_GAP); with --against, that reader's too",
    )
    ap.add_argument(
        "--progress", action="store_true", help="print each table's tally and CPU times"
    )
    ap.add_argument(
        "--results",
        default=str(RESULTS),
        help="the results file's name; each run writes it with its own id before the suffix "
        "(name_<UTC time>_<pid>.json), keeping earlier runs",
    )
    ap.add_argument(
        "--against",
        help="another read.py (e.g. main's, from `git show main:companion/games/onirim/vision/"
        "read.py`): each table is read by it too, whole (its own markers and homography), on "
        "the same library, timed and tallied apart",
    )
    ap.add_argument(
        "--repeat",
        type=int,
        default=5,
        help="time each frame this many times (the read, the bare detection and --against's "
        "read in turn) and take each frame's median: less of the machine's noise in each "
        "frame's time, and the reader's steady state (a deck's first read also makes the "
        "reader's caches for that deck: about 5 ms more on its first table); 1: as before",
    )
    a = ap.parse_args()
    gap_total: dict[tuple[str, str], Counter[str]] = {}
    if a.curve:  # the `held_*` rows: what a bridged gap would name from this low a score
        read_module.HELD_SURE = CURVE_HELD_FLOOR
    against = _load_reader(a.against) if a.against else None
    layout = load_layout()
    run = run_id()
    results: dict = {
        "command": "PYTHONPATH=. python benchmarks/onirim_vision.py " + " ".join(sys.argv[1:]),
        "run": run,
        "styles": {},
    }
    read_ms, bare_ms, locate_ms, cards_ms, read_b_ms = [], [], [], [], []
    scores: dict[str, list[float]] = {
        k: []
        for k in (
            "right",
            "wrong",
            "empty",
            "margin_right",
            "margin_wrong",
            "coarse_card",
            "coarse_empty",
            "symbol_right",
            "symbol_wrong",
            "symbol_kept_right",
            "mirror_card",
            "mirror_empty",
            *(f"discard_{k}" for k in ("empty", "coarse_empty", "right", "wrong")),
            *(f"discard_{k}_{ok}" for k in ("margin", "coarse") for ok in ("right", "wrong")),
            *(
                f"mirror_{k}_{ok}"
                for k in ("light", "margin", "sure", "gap", "explored", "guessed")
                for ok in ("right", "wrong")
            ),
            "symbol_kept_wrong",
            "symbol_sharp_right",
            "symbol_sharp_wrong",
            "overruled_right",
            "overruled_wrong",
            "symbol_score_right",
            "symbol_score_wrong",
            "symbol_fit_right",
            "symbol_fit_wrong",
            "symbol_fit_empty",
            "held_right",
            "held_wrong",
            "below_empty_card",
            *(
                f"end{n}_symbol_fit_{ok}"
                for n in ("", "_named")
                for ok in ("right", "wrong", "body")
            ),
            "symbol_empty",
            "score_kin_empty",
            "colour_lead_right",
            "colour_lead_wrong",
            "colour_look_right",
            "colour_look_wrong",
            "colour_look_doubt_right",
            "colour_look_doubt_wrong",
        )
    }
    results["against"] = {"file": a.against, "styles": {}} if against else None
    for style in a.styles.split(","):
        total, refused, tables, exact = Tally(), 0, 0, 0
        total_b, exact_b, same = Tally(), 0, 0
        for seed in _seeds(a.seeds):
            if style == "heldout":  # measured only: see benchmarks/heldout/onirim.py
                if a.curve:
                    raise SystemExit("--curve never looks at the held-out designs")
                faces = heldout.heldout_deck(seed, layout)
                reader, n_refused = teach_deck(faces, seed, heldout.heldout_teach_photo)
            else:
                faces = deck_faces(deck_style(seed, style), layout)
                reader, n_refused = teach_deck(faces, seed)
            refused += n_refused
            other = against.TableReader(reader.lib) if against else None
            for i in range(a.tables):
                photo = (
                    heldout.heldout_table(seed, i, faces, layout)
                    if style == "heldout"
                    else render_table(seed, i, faces, layout, look=table_look(seed, style))
                )
                if a.row_gaps:
                    gaps = [int(v) for v in a.row_gaps.split(",")]
                    rows = row_gap_curve(reader, photo.image, photo.truth, gaps)
                    if other is not None:
                        t = compare(other.read(photo.image), photo.truth)
                        rows.append(
                            {"gap": "against", "cards": t.cards, "right": t.right}
                            | {"wrong": t.wrong}
                            | {"null": t.null, "phantom": t.phantom, "errors": t.errors}
                        )
                    for r in rows:
                        key = (style, str(r["gap"]))
                        gap_total.setdefault(key, Counter()).update(
                            {k: r[k] for k in ("cards", "right", "wrong", "null", "phantom")}
                            | {"windows": r.get("windows", 0)}
                            | {"tables": 1}
                        )
                        if r["errors"] != rows[0]["errors"] or (r is rows[0] and r["errors"]):
                            print(f"  {style} seed {seed} table {i} gap {r['gap']}: {r['errors']}")
                    continue
                if a.curve:
                    curve(
                        reader,
                        photo.image,
                        photo.truth,
                        scores,
                        a.mirrors_only,
                        a.discard_only,
                        a.mirror_rows,
                        a.named_rows,
                        a.symbol_rows,
                    )
                    if a.body_rows:
                        body_rows(reader, photo.image, photo.truth)
                    continue
                # Each frame timed `--repeat` times, this reader, the bare detection and the
                # other reader in turn (a burst of load then falls on all of them alike); a
                # frame's time is the median of its repeats.
                runs, bare, runs_b = [], [], []
                for _ in range(a.repeat):
                    reading, ms = timed_read(reader, photo.image)
                    runs.append(ms)
                    bare.append(bare_detection_ms(photo.image))
                    if other is not None:
                        reading_b, ms_b = timed_read(other, photo.image)
                        runs_b.append(ms_b)
                frame = [statistics.median(r[k] for r in runs) for k in range(3)]
                read_ms.append(frame[0])
                bare_ms.append(statistics.median(bare))
                locate_ms.append(frame[1])
                cards_ms.append(frame[2])
                tally = compare(reading, photo.truth)
                tables += 1
                exact += tally.right == tally.cards and tally.phantom == 0
                for e in tally.errors:
                    print(f"  {style} seed {seed} table {i}: {e}", flush=True)
                total.add(tally)
                extra = {}
                if other is not None:
                    frame_b = [statistics.median(r[k] for r in runs_b) for k in range(3)]
                    read_b_ms.append(frame_b[0])
                    tally_b = compare(reading_b, photo.truth)
                    total_b.add(tally_b)
                    exact_b += tally_b.right == tally_b.cards and tally_b.phantom == 0
                    same += reading_b == reading  # names, warnings and kin alike
                    for e in tally_b.errors:
                        print(f"  against: {style} seed {seed} table {i}: {e}", flush=True)
                    extra = {
                        "against": {
                            **{k: getattr(tally_b, k) for k in ("right", "wrong", "null")},
                            "phantom": tally_b.phantom,
                            "ms": frame_b,
                        }
                    }
                if a.progress:  # a run cut short still counts every table it read
                    table = {
                        "style": style,
                        "seed": seed,
                        "table": i,
                        **{k: getattr(tally, k) for k in ("cards", "right", "wrong", "null")},
                        "phantom": tally.phantom,
                        "ms": [read_ms[-1], bare_ms[-1], locate_ms[-1], cards_ms[-1]],
                        **extra,
                    }
                    print("TABLE " + json.dumps(table), flush=True)
        if a.curve:
            continue
        if a.row_gaps:
            for (st, g), c in gap_total.items():
                if st == style:
                    per = c["windows"] / max(1, c["tables"])
                    print(
                        f"{style} ROW_GAP {g}: {c['right']} / {c['cards']} right, wrong "
                        f"{c['wrong']}, null {c['null']}, phantom {c['phantom']}, "
                        f"windows a read {per:.2f}",
                        flush=True,
                    )
            continue
        results["styles"][style] = {
            "tables": tables,
            "cards": total.cards,
            "right": round(total.right / max(1, total.cards), 4),
            "wrong": total.wrong,
            "null": total.null,
            "phantom": total.phantom,
            "tables_exact": exact,
            "teach_refused": refused,
        }
        print(style, results["styles"][style], flush=True)
        if against:
            results["against"]["styles"][style] = {
                "cards": total_b.cards,
                "right": round(total_b.right / max(1, total_b.cards), 4),
                "wrong": total_b.wrong,
                "null": total_b.null,
                "phantom": total_b.phantom,
                "tables_exact": exact_b,
                "readings_identical": same,
            }
            print("against", style, results["against"]["styles"][style], flush=True)
    if a.row_gaps:
        return 0
    if a.curve:
        if a.dump:
            dump = {k: [float(x) for x in v] for k, v in scores.items()}
            Path(a.dump).write_text(json.dumps(dump), encoding="utf-8")
        if a.symbol_rows:
            symbol_grid(scores)
        for k, v in scores.items():
            if v:
                q = np.percentile(v, [0, 1, 5, 50, 95, 99, 100])
                print(f"{k:13} n={len(v):5}  " + " ".join(f"{x:.3f}" for x in q))
        return 0
    med = statistics.median
    results["speed"] = {
        "frames": len(read_ms),
        "repeat": a.repeat,
        "read_ms_median": round(med(read_ms), 1),
        "detect_markers_ms_median": round(med(bare_ms), 1),
        "ratio": round(med(read_ms) / med(bare_ms), 2),
        "ratio_frame_median": round(med(r / b for r, b in zip(read_ms, bare_ms, strict=True)), 2),
        "stages_ms_median": {
            "locate (markers + homography)": round(med(locate_ms), 1),
            "cards (windows, match, layout)": round(med(cards_ms), 1),
        },
        "clock": "CPU time of this process (time.process_time), 1280x960; a frame's time is "
        "the median of its --repeat runs",
    }
    if against:
        results["against"]["speed"] = {
            "read_ms_median": round(med(read_b_ms), 1),
            "ratio": round(med(read_b_ms) / med(bare_ms), 2),
            "ratio_frame_median": round(
                med(r / b for r, b in zip(read_b_ms, bare_ms, strict=True)), 2
            ),
        }
        print("against", results["against"]["speed"])
    print(results["speed"])
    out = results_path(Path(a.results), run)
    out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(results["command"])
    print(f"results: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
