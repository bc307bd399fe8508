"""Looking Glass teach photos: is each card cut where it lies, on any table?

Per photo of a randomised deck (`render.world_teach_shot`, which knows where the card lies):
accepted or refused (and why), and how far the corners of the card as the library keeps it
lie from the card's (mm, the worst corner). A cut
more than `BAD_CUT_MM` off took something else for the card (the table for its border, the
art's frame for its edge): the library's face of it is wrong, at the table and in the reader
choice. The house and held-out families' photos (`looking_glass_world.family_photos`, the
world benchmark's own) have no truth cut: for them only the photos accepted are counted.

Development seeds (below 1,000,000; the random family's seeds as in
`looking_glass_reader_choice.py`):

    .venv/bin/python benchmarks/looking_glass_teach.py --decks 20 --seed-base 1230

A fresh measurement (`--fresh`: seeds drawn for this run, above the development ones, or the
`--seed-base` given there):

    .venv/bin/python benchmarks/looking_glass_teach.py --decks 10 --fresh --family heldout
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
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.looking_glass_world import (  # noqa: E402
    DEV_SEED_LIMIT,
    FAMILIES,
    family_deck,
    family_photos,
    fresh_seed_base,
)
from companion.games.looking_glass.vision.render import world_teach_shot  # noqa: E402
from companion.games.looking_glass.vision.teach import TeachError, find_card  # noqa: E402
from companion.vision.cards.library import CARD_W_MM  # noqa: E402

BAD_CUT_MM = 3.0
"""A cut whose worst corner lies further than this from the card's or its sleeve's."""


def _cut_deck(images: dict[str, np.ndarray], found: dict[str, Any]) -> dict[str, Any]:
    """`teach.cut_deck`'s cards; before it existed (to measure an earlier teach), the cut
    `library_from_found` made then: every outer from its interior by the median border."""
    try:
        from companion.games.looking_glass.vision.teach import cut_deck
    except ImportError:
        from companion.games.looking_glass.vision.read import inset

        fracs = [f.border_frac for f in found.values() if not np.isnan(f.border_frac)]
        frac = float(np.median(fracs)) if fracs else 4.0 / CARD_W_MM
        for f in found.values():
            iw = float(np.linalg.norm(f.interior[1] - f.interior[0]))
            f.outer = inset(f.interior, -frac * iw / (1 - 2 * frac))
        return found
    return cut_deck(images, found)[0]


def deck_rows(seed: int) -> list[dict[str, Any]]:
    """Every teach photo of one randomised deck: refused (why), or how far its card as the
    library keeps it (`teach.cut_deck`, after the deck decided the photos it alone could not,
    `FoundCard.art_hole`) lies from the card."""
    art = family_deck("random", seed)
    rng = np.random.default_rng([seed, 5])  # the world benchmark's teach photos
    shots = {cid: world_teach_shot(a, rng) for cid, a in art.items()}
    images = {cid: photo for cid, (photo, _) in shots.items()}
    found, refused = {}, {}
    for cid, img in images.items():
        try:
            found[cid] = find_card(img)
        except TeachError as exc:
            refused[cid] = str(exc)
    undecided = {cid for cid, f in found.items() if getattr(f, "art_hole", None) is not None}
    cards = _cut_deck({c: images[c] for c in found}, found) if found else {}
    style = next(iter(art.values())).style
    rows = []
    for cid, (_, card) in shots.items():
        row: dict[str, Any] = {"seed": seed, "card": cid, "border": style.border}
        if cid in refused:
            rows.append({**row, "refused": refused[cid]})
            continue
        # A sleeved card may be cut at the card's edge or at the sleeve's (its rim shows at
        # the table too).
        mm = CARD_W_MM / float(np.linalg.norm(card[0][1] - card[0][0]))
        off = min(float(np.linalg.norm(cards[cid].outer - c, axis=1).max()) for c in card) * mm
        row |= {"cut_off_mm": round(off, 2), "bad": off > BAD_CUT_MM}
        rows.append({**row, "decided_by_deck": cid in undecided})
    return rows


def deck_accepted(family: str, seed: int) -> list[dict[str, Any]]:
    """Every teach photo of one deck of a family without a truth cut: accepted, or refused
    (why)."""
    art = family_deck(family, seed)
    rows = []
    for cid, img in family_photos(family, seed, art).items():
        row: dict[str, Any] = {"seed": seed, "card": cid, "family": family}
        try:
            find_card(img)
        except TeachError as exc:
            row["refused"] = str(exc)
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--decks", type=int, default=20)
    ap.add_argument("--seed-base", type=int, default=None, help="development: below 999,000")
    ap.add_argument("--fresh", action="store_true", help="fresh seeds (drawn unless given)")
    ap.add_argument("--family", choices=FAMILIES, default="random")
    ap.add_argument("--rows", default=None, help="also write every photo's row here (JSON lines)")
    a = ap.parse_args(argv)
    if a.fresh:
        base = fresh_seed_base() if a.seed_base is None else a.seed_base
        if base < DEV_SEED_LIMIT:
            print("error: fresh seeds lie above 1,000,000", file=sys.stderr)
            return 2
    else:
        base = 1230 if a.seed_base is None else a.seed_base
        if not 0 <= base < DEV_SEED_LIMIT - a.decks:
            print("error: --seed-base must be a development seed (below 999,000)", file=sys.stderr)
            return 2
    print(
        f".venv/bin/python benchmarks/looking_glass_teach.py --decks {a.decks} --seed-base {base}"
        f"{' --fresh' if a.fresh else ''} --family {a.family}",
        flush=True,
    )
    cv2.setNumThreads(1)
    rows = []
    for seed in range(base, base + a.decks):
        deck = deck_rows(seed) if a.family == "random" else deck_accepted(a.family, seed)
        for row in deck:
            rows.append(row)
            if "refused" in row or row.get("bad"):
                print(json.dumps(row), flush=True)
    accepted = [r for r in rows if "refused" not in r]
    if a.family == "random":
        bad = [r for r in accepted if r["bad"]]
        decided = [r for r in accepted if r["decided_by_deck"]]
        worst = max((r["cut_off_mm"] for r in accepted), default=0.0)
        print(
            f"{len(accepted)} of {len(rows)} photos accepted; {len(bad)} of them cut more than "
            f"{BAD_CUT_MM:g} mm off the card ({sum(r['bad'] for r in decided)} of the "
            f"{len(decided)} the deck decided); worst cut {worst:g} mm"
        )
    else:
        print(f"{len(accepted)} of {len(rows)} photos accepted (no truth cut for {a.family})")
    if a.rows:
        Path(a.rows).write_text("".join(json.dumps(r) + "\n" for r in rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
