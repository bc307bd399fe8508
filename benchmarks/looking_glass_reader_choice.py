"""Which Looking Glass reader for which deck: the curve `choose.LIGHT_BORDER_SHARE` is chosen from.

Per deck: its library's measured `choose.light_border_share`, and the cards each reader reads
right on its tables (both readers on the same tables, one teach). Then, per threshold
candidate, the cards right when every deck at or above it gets the light-border reader and
every other the staged one. The threshold is chosen on development decks (house and random
families, seeds below 1,000,000); held-out decks are drawn on fresh seeds and only measured:
their rows are listed, never part of the curve.

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
from companion.games.looking_glass.vision.choose import (  # noqa: E402
    light_border_mm,
    light_border_share,
)
from companion.games.looking_glass.vision.reader import StagedReader  # noqa: E402
from companion.games.looking_glass.vision.render import compare  # noqa: E402

RESULTS = REPO / "benchmarks" / "results" / "looking_glass_reader_choice.json"
CANDIDATES = [round(0.25 * k, 2) for k in range(1, 22)]
"""`choose.LIGHT_BORDER_MM` candidates (mm)."""


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
    """Cards right under the choice at each candidate threshold (decks taught only)."""
    rows = [r for r in rows if "share" in r]
    out = []
    for t in CANDIDATES:
        light = [_light_mm(r) >= t for r in rows]
        right = sum(
            r["light_border"] if k else r["staged"] for r, k in zip(rows, light, strict=True)
        )
        lb = sum(light)
        out.append({"threshold": t, "right": right, "decks_light_border": lb})
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
        "heldout_measured_only": heldout,
        "heldout_curve_measured_only": curve(heldout),
        "seconds": round(time.time() - t0, 1),
    }
    for c in run["curve"]:
        print(
            f"  threshold {c['threshold']:.2f}: {c['right']} cards right "
            f"({c['decks_light_border']} decks light-border)"
        )
    out = Path(a.results)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(run, indent=1) + "\n")
    print(f"wrote {out}")
    return 0


def _curve_of(files: list[str]) -> int:
    rows = []
    for f in files:
        for line in Path(f).read_text().splitlines():
            if line.startswith("{"):
                rows.append(json.loads(line))
    dev = [r for r in rows if r["family"] != "heldout" and r["seed"] < DEV_SEED_LIMIT]
    for c in curve(dev):
        print(
            f"  {c['threshold']:.2f} mm: {c['right']} cards right "
            f"({c['decks_light_border']} of {len(dev)} decks light-border)"
        )
    print(f"  (development decks: {len(dev)}, {sum(r.get('cards', 0) for r in dev)} cards)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
