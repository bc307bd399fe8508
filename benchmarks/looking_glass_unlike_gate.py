"""Looking Glass teach: does the table's step lie on the region unlike the table's quad?

For every teach photo of a randomised deck (`render.world_teach_shot`, which knows where the
card lies): what `teach.find_card` did (accepted, how far the library's cut lies from the card
and which way each side is off; or refused, and why), and what the region unlike the table
(`photo.find_card_unlike_table`) would give: its quad's worst corner from the card (mm), its
fill, and how far the step from the table (`photo.table_edges`) lies from each of its sides
(`teach.unlike_step_gap`, shares of the quad's width; NaN where a side's step is not found).
The curve a gate on that gap is chosen from: quads kept within 3 mm of the card and kept more
than 3 mm off, over every photo and over the photos both finders refused.

Development seeds (below 1,000,000; `--jpeg Q` re-encodes each photo at JPEG quality Q first,
as the development set's teach photos are stored):

    .venv/bin/python benchmarks/looking_glass_unlike_gate.py --decks 10 --seed-base 743870
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.looking_glass_teach import (  # noqa: E402
    BAD_CUT_MM,
    _cut_deck,
    cut_off_mm,
    find_each,
    side_offsets,
    world_photos,
)
from benchmarks.looking_glass_world import DEV_SEED_LIMIT  # noqa: E402
from companion.games.looking_glass.vision.teach import (  # noqa: E402
    NO_CARD,
    UNLIKE_FILL,
    unlike_step_gap,
)
from companion.vision.cards.library import CARD_W_MM  # noqa: E402
from companion.vision.cards.photo import find_card_unlike_table, surround_likeness  # noqa: E402

GAPS = (0.005, 0.01, 0.015, 0.02, 0.03, 0.04, 0.06, 0.1, math.inf)


def deck_rows(seed: int, jpeg: int | None) -> list[dict[str, Any]]:
    art, images, truth = world_photos(seed, jpeg)
    found, refused = find_each(images)
    cards = _cut_deck({c: images[c] for c in found}, found) if found else {}
    style = next(iter(art.values())).style
    rows = []
    for cid, card in truth.items():
        row: dict[str, Any] = {"seed": seed, "card": cid, "border": style.border}
        mm = CARD_W_MM / float(np.linalg.norm(card[0][1] - card[0][0]))
        if cid in refused:
            row["refused"] = refused[cid]
        else:
            off, nearest = cut_off_mm(cards[cid].outer, card)
            row["cut_off_mm"] = round(off, 2)
            row["sides_mm"] = [round(x * mm, 2) for x in side_offsets(cards[cid].outer, nearest)]
        quad, fill = find_card_unlike_table(images[cid])
        if quad is not None:
            off, nearest = cut_off_mm(quad, card)
            gap = unlike_step_gap(images[cid], quad)
            row["unlike"] = {
                "off_mm": round(off, 2),
                "fill": round(fill, 3),
                "likeness": round(surround_likeness(images[cid], quad), 3),
                "gap": None if math.isnan(gap) else round(gap, 4),
                "sides_mm": [round(x * mm, 2) for x in side_offsets(quad, nearest)],
            }
        rows.append(row)
    return rows


def curve(rows: list[dict[str, Any]], label: str) -> None:
    """Quads the gate keeps within `BAD_CUT_MM` of the card / further, at each gap."""
    usable = [r for r in rows if "unlike" in r and r["unlike"]["fill"] >= UNLIKE_FILL]
    print(f"{label}: {len(rows)} photos, {len(usable)} with a card-shaped region (fill)")
    for g in GAPS:
        kept = [r for r in usable if r["unlike"]["gap"] is not None and r["unlike"]["gap"] <= g]
        good = sum(r["unlike"]["off_mm"] <= BAD_CUT_MM for r in kept)
        print(
            f"  gap <= {g:g}: kept {len(kept)}, within {BAD_CUT_MM:g} mm {good}, "
            f"more than {BAD_CUT_MM:g} mm {len(kept) - good}"
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--decks", type=int, default=10)
    ap.add_argument("--seed-base", type=int, required=True, help="development: below 999,000")
    ap.add_argument("--jpeg", type=int, default=None, help="re-encode each photo at this quality")
    ap.add_argument("--rows", default=None, help="also write every photo's row here (JSON lines)")
    a = ap.parse_args(argv)
    if not 0 <= a.seed_base < DEV_SEED_LIMIT - a.decks:
        print("error: --seed-base must be a development seed (below 999,000)", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    rows = []
    for seed in range(a.seed_base, a.seed_base + a.decks):
        for row in deck_rows(seed, a.jpeg):
            rows.append(row)
            if "refused" in row or row.get("cut_off_mm", 0.0) > BAD_CUT_MM:
                print(json.dumps(row), flush=True)
    refused = [r for r in rows if "refused" in r]
    bad = [r for r in rows if r.get("cut_off_mm", 0.0) > BAD_CUT_MM]
    print(
        f"{len(rows) - len(refused)} of {len(rows)} accepted, {len(bad)} cut more than "
        f"{BAD_CUT_MM:g} mm off"
    )
    curve(rows, "every photo")
    curve([r for r in refused if r["refused"] == NO_CARD], "refused, no card found")
    if a.rows:
        Path(a.rows).write_text("".join(json.dumps(r) + "\n" for r in rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
