"""Which Looking Glass reader for which deck: the curve `choose.GLASS_RIGHT` is chosen from.

Per deck: the share of the cards of its taught glasses the light-border reader names right
(`choose.glass_trial`), the light border the rule before it measured (`light_border_mm`,
kept here for the comparison), and the cards each reader reads right on the deck's tables
(both readers on the same tables, one teach). Then, per threshold candidate of each rule, the
cards right when every deck at or above it gets the light-border reader and every other the
staged one. The thresholds are chosen on development decks (house and random families, seeds
below 1,000,000); held-out decks are drawn on fresh seeds and only measured: their rows are
listed, never part of the curve.

    .venv/bin/python benchmarks/looking_glass_reader_choice.py --decks 12 --tables 2 \
        --dev-seed-base 730 [--heldout-seed-base N]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.looking_glass_devset import read_json, teach_deck  # noqa: E402
from benchmarks.looking_glass_world import (  # noqa: E402
    DEV_SEED_LIMIT,
    family_deck,
    family_photos,
    family_scene,
    fresh_seed_base,
)
from companion.games.looking_glass.vision.choose import GLASS_RIGHT, glass_trial  # noqa: E402
from companion.games.looking_glass.vision.read import white_mask  # noqa: E402
from companion.games.looking_glass.vision.reader import StagedReader  # noqa: E402
from companion.games.looking_glass.vision.render import compare  # noqa: E402
from companion.vision.cards.library import FACE_PX_PER_MM, Library  # noqa: E402

# -- the rule before the trial, kept for the comparison --------------------------------------
LIGHT_BORDER_MM = 2.3
"""The rule before the trial: a deck whose light border (`light_border_mm`) is at least this
wide was read by the light-border reader (chosen on 22 development decks, 816 cards)."""
RING = (0.3, 0.8)
"""The ring measured, as shares of the taught border's width (`CardShape.border_mm`) in from
a face's edge: its middle (a teach cut a few px off takes in the table at the edge; the art
begins past it). A deck taught with no border has no ring: it is not a light-bordered deck,
however light its art is at the edge (full-bleed decks whose art is pale there read 0 of
their cards with the light-border reader on development tables)."""
CORNER_MM = 6.0
"""The ring leaves out this much of each side at the corners: rounded corners show table."""


def face_ring(height_px: int, width_px: int, border_mm: float) -> np.ndarray:
    """Mask of a face's border ring (`RING`; the corners left out)."""
    y, x = np.mgrid[:height_px, :width_px]
    dx, dy = np.minimum(x, width_px - 1 - x), np.minimum(y, height_px - 1 - y)
    mm = np.minimum(dx, dy) / FACE_PX_PER_MM
    lo, hi = RING[0] * border_mm, RING[1] * border_mm
    corner = np.maximum(dx, dy) < CORNER_MM * FACE_PX_PER_MM
    return (mm >= lo) & (mm < hi) & ~corner


def light_border_share(lib: Library) -> float:
    """The median over the taught faces of the share of their border ring (`face_ring`)
    that `read.white_mask` calls light (0.0 for a library without faces, or without a
    border: no light border to find cards by)."""
    if lib.faces is None or not len(lib.faces):
        return 0.0
    h, w = lib.faces.shape[1:3]
    ring = face_ring(h, w, lib.shape.border_mm)
    if not ring.any():
        return 0.0
    return float(np.median([white_mask(face)[ring].mean() for face in lib.faces]))


def light_border_mm(lib: Library) -> float:
    """How wide (mm) a light border the taught deck has: the border teach measured times the
    share of it that is light (`light_border_share`). A thin light frame inside a dark
    border is measured as a narrow border (teach finds the card as a hole in the frame), and
    gives the light-border reader too little to find cards by at the table."""
    return lib.shape.border_mm * light_border_share(lib)


RESULTS = REPO / "benchmarks" / "results" / "looking_glass_reader_choice.json"
CANDIDATES = [round(0.25 * k, 2) for k in range(1, 22)]
"""`LIGHT_BORDER_MM` candidates (mm); above 5 mm no deck is the light-border reader's."""
GLASS_CANDIDATES = [0.0, 0.25, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.98, 1.0, 1.01]
"""`choose.GLASS_RIGHT` candidates (1.01: no deck is the light-border reader's)."""


def deck_row(family: str, seed: int, tables: int) -> dict[str, Any]:
    """One deck: its measured share and the cards each reader reads right on its tables."""
    art = family_deck(family, seed)
    taught = teach_deck(family_photos(family, seed, art), "light-border")
    row: dict[str, Any] = {"family": family, "seed": seed}
    if taught.reader is None:
        return {**row, "error": taught.error}
    lib = taught.reader.lib
    staged = StagedReader(lib)
    row["share"] = round(light_border_share(lib), 3)
    row["border_mm"] = lib.shape.border_mm
    row["light_mm"] = round(light_border_mm(lib), 2)
    trial = glass_trial(lib)
    row["glass"] = {k: v for k, v in trial.to_json().items() if k != "version"}
    row["glass_share"] = round(trial.share, 3)
    cards = cards_st = right_lb = right_st = 0
    for index in range(tables):
        img, truth = family_scene(family, seed, index, art)
        a = compare(read_json(taught, img), truth)
        b = compare(staged.read(img).to_json("table"), truth)
        cards += a.cards
        cards_st += b.cards
        right_lb += a.right
        right_st += b.right
    # (A card under a hand counts only when named wrong, so the two counts may differ.)
    return {
        **row,
        "cards": cards,
        "cards_staged": cards_st,
        "light_border": right_lb,
        "staged": right_st,
    }


def curve(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Cards right under the 2.3 mm rule's choice at each candidate threshold (decks taught
    only)."""
    rows = [r for r in rows if "share" in r]
    return _curve(rows, CANDIDATES, lambda r, t: _light_mm(r) >= t)


def glass_curve(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Cards right under the trial's choice (`choose.reader_choice`: a share of the taught
    glasses named right at least the threshold, none wrong, none where no card lies) at each
    candidate threshold (decks whose trial was recorded only)."""
    rows = [r for r in rows if "glass" in r]
    return _curve(rows, GLASS_CANDIDATES, _glass_light)


def _glass_light(row: dict[str, Any], t: float) -> bool:
    g = row["glass"]
    return g["right"] >= t * g["cards"] and g["wrong"] == 0 and g["extra"] == 0


def _curve(rows: list[dict[str, Any]], candidates: list[float], light_at: Any) -> list[dict]:
    out = []
    for t in candidates:
        light = [light_at(r, t) for r in rows]
        right = sum(
            r["light_border"] if k else r["staged"] for r, k in zip(rows, light, strict=True)
        )
        out.append({"threshold": t, "right": right, "decks_light_border": sum(light)})
    return out


def _light_mm(row: dict[str, Any]) -> float:
    """A row's `light_border_mm` (rows written before it was recorded: from its parts)."""
    return float(row.get("light_mm", row["share"] * row["border_mm"]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--decks", type=int, default=12, help="development decks per family")
    ap.add_argument(
        "--dev-families",
        nargs="*",
        default=["house", "random"],
        choices=["house", "random"],
        help="development families (each its own block of seeds)",
    )
    ap.add_argument("--heldout-decks", type=int, default=4)
    ap.add_argument("--tables", type=int, default=2)
    ap.add_argument("--dev-seed-base", type=int, default=730, help="below 1,000,000")
    ap.add_argument("--heldout-seed-base", type=int, default=None, help="default: fresh")
    ap.add_argument("--results", default=str(RESULTS))
    ap.add_argument(
        "--rows",
        nargs="*",
        default=None,
        help="no decks read: the curve of deck rows printed by earlier runs (JSON lines files)",
    )
    a = ap.parse_args(argv)
    if a.rows is not None:
        return _curve_of(a.rows)
    if not 0 <= a.dev_seed_base < DEV_SEED_LIMIT - 1000:
        print("error: --dev-seed-base must be a development seed (below 999,000)", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    held = a.heldout_seed_base if a.heldout_seed_base is not None else fresh_seed_base()
    t0 = time.time()
    dev: list[dict[str, Any]] = []
    for family in a.dev_families:
        k = ("house", "random").index(family)
        for d in range(a.decks):
            dev.append(deck_row(family, a.dev_seed_base + 500 * k + d, a.tables))
            print(json.dumps(dev[-1]), flush=True)
    heldout = []
    for d in range(a.heldout_decks):
        heldout.append(deck_row("heldout", held + d, a.tables))
        print(json.dumps(heldout[-1]), flush=True)
    run = {
        "command": (
            ".venv/bin/python benchmarks/looking_glass_reader_choice.py "
            f"--decks {a.decks} --dev-families {' '.join(a.dev_families)} "
            f"--heldout-decks {a.heldout_decks} --tables {a.tables} "
            f"--dev-seed-base {a.dev_seed_base} --heldout-seed-base {held}"
        ),
        "development": dev,
        "curve": curve(dev),
        "glass_curve": glass_curve(dev),
        "heldout_measured_only": heldout,
        "heldout_curve_measured_only": curve(heldout),
        "heldout_glass_curve_measured_only": glass_curve(heldout),
        "seconds": round(time.time() - t0, 1),
    }
    _print_curves(dev)
    print(
        f"  held-out decks (measured only): {len(heldout)}, "
        f"{sum(r.get('cards', 0) for r in heldout)} cards; under the trial at "
        f"{GLASS_RIGHT}: {_right_at(heldout, GLASS_RIGHT)}, the 2.3 mm rule: "
        f"{_right_at(heldout, None)}, staged for all: {sum(r.get('staged', 0) for r in heldout)}"
    )
    out = Path(a.results)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(run, indent=1) + "\n")
    print(f"wrote {out}")
    return 0


def _right_at(rows: list[dict[str, Any]], glass: float | None) -> int:
    """Cards right under the trial at `glass` (None: under the 2.3 mm rule)."""
    rows = [r for r in rows if "glass" in r]
    return sum(
        r["light_border"]
        if (_glass_light(r, glass) if glass is not None else _light_mm(r) >= LIGHT_BORDER_MM)
        else r["staged"]
        for r in rows
    )


def _print_curves(dev: list[dict[str, Any]]) -> None:
    n = len([r for r in dev if "share" in r])
    for c in curve(dev):
        print(
            f"  light border {c['threshold']:.2f} mm: {c['right']} cards right "
            f"({c['decks_light_border']} of {n} decks light-border)"
        )
    m = len([r for r in dev if "glass" in r])
    for c in glass_curve(dev):
        print(
            f"  taught glass {c['threshold']:.2f} right: {c['right']} cards right "
            f"({c['decks_light_border']} of {m} decks light-border)"
        )
    print(f"  (development decks: {len(dev)}, {sum(r.get('cards', 0) for r in dev)} cards)")


def _curve_of(files: list[str]) -> int:
    rows = []
    for f in files:
        for line in Path(f).read_text().splitlines():
            if line.startswith("{"):
                rows.append(json.loads(line))
    dev = [r for r in rows if r["family"] != "heldout" and r["seed"] < DEV_SEED_LIMIT]
    _print_curves(dev)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
