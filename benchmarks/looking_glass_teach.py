"""Looking Glass teach photos: is each card cut where it lies, on any table?

Per photo of a randomised deck (`render.world_teach_shot`, which knows where the card lies):
accepted or refused (and why), which finder found the card (its light border's hole, or its
outline), and how far the cut's corners lie from the card's (mm, the worst corner). A cut
more than `BAD_CUT_MM` off took something else for the card (the table for its border, the
art's frame for its edge): the library's face of it is wrong, at the table and in the reader
choice. Held-out decks have no truth cut here; the world benchmark counts their photos
accepted.

Development seeds only (below 1,000,000; the random family's seeds as in
`looking_glass_reader_choice.py`):

    .venv/bin/python benchmarks/looking_glass_teach.py --decks 20 --seed-base 1230
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

from benchmarks.looking_glass_world import DEV_SEED_LIMIT, family_deck  # noqa: E402
from companion.games.looking_glass.vision.render import world_teach_shot  # noqa: E402
from companion.games.looking_glass.vision.teach import (  # noqa: E402
    TeachError,
    find_framed_card,
    find_outlined_card,
)
from companion.vision.cards.library import CARD_W_MM  # noqa: E402

BAD_CUT_MM = 3.0
"""A cut whose worst corner lies further than this from the card's or its sleeve's."""


def cut(photo: np.ndarray) -> tuple[str, np.ndarray | None, str]:
    """(finder, the card's outline found or None, why refused) as `teach.find_card` finds it."""
    try:
        return "border", find_framed_card(photo).outer, ""
    except TeachError as exc:
        if exc.cards_seen != 0:
            return "border", None, str(exc)
    try:
        return "outline", find_outlined_card(photo).outer, ""
    except TeachError as exc:
        return "outline", None, str(exc)


def photo_row(seed: int, cid: str, photo: np.ndarray, card: np.ndarray) -> dict[str, Any]:
    finder, outer, why = cut(photo)
    row: dict[str, Any] = {"seed": seed, "card": cid, "finder": finder}
    if outer is None:
        return {**row, "refused": why}
    # A sleeved card may be cut at the card's edge or at the sleeve's (its rim shows at the
    # table too).
    mm = CARD_W_MM / float(np.linalg.norm(card[0][1] - card[0][0]))
    off = min(float(np.linalg.norm(outer - c, axis=1).max()) for c in card) * mm
    return {**row, "cut_off_mm": round(off, 2), "bad": off > BAD_CUT_MM}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--decks", type=int, default=20)
    ap.add_argument("--seed-base", type=int, default=1230, help="development: below 999,000")
    ap.add_argument("--rows", default=None, help="also write every photo's row here (JSON lines)")
    a = ap.parse_args(argv)
    if not 0 <= a.seed_base < DEV_SEED_LIMIT - a.decks:
        print("error: --seed-base must be a development seed (below 999,000)", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    rows = []
    for seed in range(a.seed_base, a.seed_base + a.decks):
        art = family_deck("random", seed)
        rng = np.random.default_rng([seed, 5])  # the world benchmark's teach photos
        style = next(iter(art.values())).style
        for cid, card_art in art.items():
            photo, card = world_teach_shot(card_art, rng)
            row = photo_row(seed, cid, photo, card)
            row["border"] = style.border
            rows.append(row)
            if "refused" in row or row["bad"]:
                print(json.dumps(row), flush=True)
    accepted = [r for r in rows if "refused" not in r]
    bad = [r for r in accepted if r["bad"]]
    print(
        f"{len(accepted)} of {len(rows)} photos accepted; {len(bad)} of them cut more than "
        f"{BAD_CUT_MM:g} mm off the card (by finder: "
        + ", ".join(
            f"{f} {sum(r['finder'] == f for r in bad)}/{sum(r['finder'] == f for r in accepted)}"
            for f in ("border", "outline")
        )
        + ")"
    )
    if a.rows:
        Path(a.rows).write_text("".join(json.dumps(r) + "\n" for r in rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
