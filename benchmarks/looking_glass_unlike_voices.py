"""Looking Glass teach: do the cards found as the region unlike the table move their deck-mates?

For every randomised deck (`render.world_teach_shot`, which knows where each card lies) whose
photos `teach.find_card` took as the region unlike the table (`FoundCard.unlike_table`), each
accepted card's cut (worst corner from the card, mm) three ways, from the same finds:

- ``off``: those photos refused (`teach.UNLIKE_TABLE` off), the deck cut without them;
- ``counted``: those cards counted in the deck's border and aspect (the flag cleared: how
  `cut_deck` cut before `teach.deck_voices`);
- ``kept_out``: `cut_deck` as it is (those cards cut, but left out of the deck's measures).

Decks with no such photo are cut alike all three ways and are only counted. Totals over every
accepted photo for ``counted`` and ``kept_out``: cut more than 3 mm, more than 1.5 mm.

Development seeds (below 1,000,000; `--jpeg Q` re-encodes each photo at JPEG quality Q first):

    .venv/bin/python benchmarks/looking_glass_unlike_voices.py --decks 10 --seed-base 240242

Fresh (`--fresh`; seeds above the development ones):

    .venv/bin/python benchmarks/looking_glass_unlike_voices.py --decks 10 --fresh --seed-base S
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.looking_glass_teach import cut_off_mm, find_each, world_photos  # noqa: E402
from benchmarks.looking_glass_world import DEV_SEED_LIMIT  # noqa: E402
from companion.games.looking_glass.vision.teach import (  # noqa: E402
    FoundCard,
    cut_deck,
)

WAYS = ("off", "counted", "kept_out")


def _offs(
    images: dict[str, np.ndarray], found: dict[str, FoundCard], truth: dict[str, np.ndarray]
) -> dict[str, float]:
    """Each card's cut (`cut_deck`) worst corner from the card or its sleeve, mm."""
    if not found:
        return {}
    cards = cut_deck({c: images[c] for c in found}, copy.deepcopy(found))[0]
    return {cid: round(cut_off_mm(f.outer, truth[cid])[0], 2) for cid, f in cards.items()}


def deck_rows(seed: int, jpeg: int | None) -> tuple[list[dict[str, Any]], bool]:
    """Every accepted photo of one randomised deck with its cut each way (`WAYS`), and whether
    any of its photos was found as the region unlike the table."""
    _, images, truth = world_photos(seed, jpeg)
    found, _ = find_each(images)
    region = {cid for cid, f in found.items() if f.unlike_table}
    kept_out = _offs(images, found, truth)
    if region:
        off = _offs(images, {c: f for c, f in found.items() if c not in region}, truth)
        counted = _offs(
            images, {c: replace(f, unlike_table=False) for c, f in found.items()}, truth
        )
    else:
        off = counted = kept_out
    rows = [
        {
            "seed": seed,
            "card": cid,
            "region": cid in region,
            "off": off.get(cid),
            "counted": counted[cid],
            "kept_out": kept_out[cid],
        }
        for cid in found
    ]
    return rows, bool(region)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--decks", type=int, default=10)
    ap.add_argument("--seed-base", type=int, required=True)
    ap.add_argument("--fresh", action="store_true", help="the seeds lie above 1,000,000")
    ap.add_argument("--jpeg", type=int, default=None, help="re-encode each photo at this quality")
    ap.add_argument("--rows", default=None, help="also write every photo's row here (JSON lines)")
    a = ap.parse_args(argv)
    if a.fresh != (a.seed_base >= DEV_SEED_LIMIT):
        print("error: fresh seeds lie above 1,000,000, development ones below", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    rows: list[dict[str, Any]] = []
    for seed in range(a.seed_base, a.seed_base + a.decks):
        deck, region = deck_rows(seed, a.jpeg)
        rows += deck
        if region:
            for row in deck:
                print(json.dumps(row), flush=True)
    mates = [r for r in rows if not r["region"] and r["off"] != r["counted"]]
    moved = [r for r in rows if not r["region"] and r["off"] != r["kept_out"]]
    print(
        f"{len(rows)} accepted, {sum(r['region'] for r in rows)} found as the region unlike "
        f"the table; deck-mates cut unlike `off`: counted {len(mates)}, kept out {len(moved)}"
    )
    for way in ("counted", "kept_out"):
        print(
            f"  {way}: cut > 3 mm {sum(r[way] > 3.0 for r in rows)}, "
            f"> 1.5 mm {sum(r[way] > 1.5 for r in rows)}, "
            f"worst {max((r[way] for r in rows), default=0.0):g} mm"
        )
    if a.rows:
        Path(a.rows).write_text("".join(json.dumps(r) + "\n" for r in rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
