"""A second opinion per frame: how many cards a staged read would save where the light-border
reader's own reading says it is unsure, on decks the reader trial gives the light-border reader.

The trial (`choose.reader_choice`) decides once per deck, on the deck's taught faces laid out
as glasses. Some randomised decks pass it (every glass card named right) and yet the
light-border reader misses many of their cards at the table, where the staged reader reads
them; no setting of the trial tried (blur, card size, table, JPEG) told them apart. A frame's
own reading may. Two rules are measured, each taking the staged reader's reading of a frame
whose light-border reading is unsure and the light-border reading of every other frame:
`null_or_no_layout` (a card it could not name, or no one layout fits), and `null` (a card it
could not name). Per table it prints both readers' counts and each rule's (right, named
wrong, extra), and the totals, so a rule's gain and its cost (staged reads, phantoms) can be
judged before live play is changed. Development seeds only (below
1,000,000): decks drawn here are for choosing, never for a fresh measurement.

    .venv/bin/python benchmarks/looking_glass_second_opinion.py --family random --tables 2 \
        --seeds 866696 662569 866692 662561 866694
"""

from __future__ import annotations

import argparse
import json
import os
import sys
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
)
from companion.games.looking_glass.vision.choose import reader_kind  # noqa: E402
from companion.games.looking_glass.vision.reader import StagedReader  # noqa: E402
from companion.games.looking_glass.vision.render import Comparison, compare  # noqa: E402


def has_null(reading: dict[str, Any]) -> bool:
    """The light-border reading has a card it could not name."""
    return any(c["card"] is None for c in reading["cards"])


RULES = {
    "null_or_no_layout": lambda r: has_null(r) or r.get("layout") is None,
    "null": has_null,
}
"""When the light-border reading is unsure enough to ask the staged reader."""


def counts(c: Comparison) -> list[int]:
    return [c.right, c.wrong, c.extra]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--family", choices=["house", "random"], default="random")
    ap.add_argument("--seeds", type=int, nargs="+", required=True, help="development seeds")
    ap.add_argument("--tables", type=int, default=2)
    ap.add_argument(
        "--every-deck", action="store_true", help="also decks the trial gives the staged reader"
    )
    a = ap.parse_args(argv)
    if any(not 0 <= s < DEV_SEED_LIMIT for s in a.seeds):
        print("error: development seeds only (below 1,000,000)", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    total = {k: Comparison() for k in ("light_border", "staged", *RULES)}
    frames = 0
    staged_reads = dict.fromkeys(RULES, 0)
    for seed in a.seeds:
        art = family_deck(a.family, seed)
        taught = teach_deck(family_photos(a.family, seed, art), "light-border")
        if taught.reader is None:
            print(json.dumps({"seed": seed, "error": taught.error}), flush=True)
            continue
        kind = reader_kind(taught.reader.lib)
        if kind != "light-border" and not a.every_deck:
            print(json.dumps({"seed": seed, "trial": kind, "skipped": True}), flush=True)
            continue
        staged = StagedReader(taught.reader.lib)
        for index in range(a.tables):
            img, truth = family_scene(a.family, seed, index, art)
            lb_json = read_json(taught, img)
            lb = compare(lb_json, truth)
            st = compare(staged.read(img).to_json("table"), truth)
            asked = {name: rule(lb_json) for name, rule in RULES.items()}
            total["light_border"].add(lb)
            total["staged"].add(st)
            for name, ask in asked.items():
                total[name].add(st if ask else lb)
                staged_reads[name] += ask
            frames += 1
            row = {
                "seed": seed,
                "table": index,
                "trial": kind,
                "cards": lb.cards,
                "light_border": counts(lb),
                "staged": counts(st),
                **{name: counts(st if ask else lb) for name, ask in asked.items()},
                "asked": [name for name, ask in asked.items() if ask],
            }
            print(json.dumps(row), flush=True)
    summary = {k: {"cards": c.cards, "right_wrong_extra": counts(c)} for k, c in total.items()}
    print(json.dumps({"frames": frames, "staged_reads": staged_reads, **summary}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
