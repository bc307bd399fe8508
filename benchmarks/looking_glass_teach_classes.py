"""Looking Glass teach: which way is each bad cut off, and how was its card found?

Per teach photo of a randomised deck (`render.world_teach_shot`, which knows where the card
lies), as `benchmarks/looking_glass_teach.py` cuts it: how far the library's cut lies from
the card (mm, the worst corner) and each side's signed offset (mm, positive where the cut lies
inside the card's edge); which finder's cut `teach.find_card` kept (`finder`); what each step
of `teach.cut_deck` did to it (`stages`: the cut's worst corner after the deck's border was
drawn round the art, after `onto_witness`, `past_frame_line`, `out_to_edge` and
`out_past_art`); the deck's border kind and width, its frame line, sleeve, and the Lab
distance between the border's colour and the photo's margins (the table's). A cut more than
`BAD_CUT_MM` off is put in one class (`cut_class`): inside the card on every side, out on the
table on every side, one side off, or mixed. The summary counts the classes by border kind
and finder.

Development seeds (below 1,000,000):

    .venv/bin/python benchmarks/looking_glass_teach_classes.py --decks 10 --seed-base 621328

`--dump DIR` also writes each deck's photos, truth and finds (`DIR/<seed>.pkl`), so that a
step of `cut_deck` can be tried again without finding the cards anew (development only).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
from collections import Counter
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.looking_glass_teach import (  # noqa: E402
    BAD_CUT_MM,
    cut_off_mm,
    find_each,
    side_offsets,
    world_photos,
)
from benchmarks.looking_glass_world import DEV_SEED_LIMIT  # noqa: E402
from companion.games.looking_glass.vision import teach  # noqa: E402
from companion.vision.cards.library import CARD_W_MM  # noqa: E402

SIDE_OFF_MM = 1.0
"""A side of a bad cut further than this from the card's edge is off (in or out)."""


def finder(f: teach.FoundCard) -> str:
    """Which of `find_card`'s readings a found card is."""
    if f.unlike_table:
        return "unlike_table"
    if f.as_art is not None:
        return "art_hole"
    if f.edge is not None:
        return "framed+outline"
    if f.outlined and f.border_outward:
        return "outline+framed_border"
    if f.outlined:
        return "outline_scan" if f.alternatives else "outline"
    return "framed"


def cut_class(sides: list[float]) -> str:
    """inside / outside (every side off the same way), one_side, or mixed."""
    s = np.array(sides)
    off = np.abs(s) > SIDE_OFF_MM
    if np.all(s > SIDE_OFF_MM):
        return "inside"
    if np.all(s < -SIDE_OFF_MM):
        return "outside"
    if np.count_nonzero(off) == 1:
        return "one_side"
    return "mixed"


class Stages:
    """Records what each step of `teach.cut_deck` did to each card (by call order)."""

    def __init__(self) -> None:
        self.calls: dict[str, list[np.ndarray]] = {}
        self.orig = {
            n: getattr(teach, n)
            for n in ("onto_witness", "past_frame_line", "out_to_edge", "out_past_art")
        }

    def __enter__(self) -> Stages:
        for name, fn in self.orig.items():
            self.calls[name] = []

            def hook(*args: Any, _fn: Any = fn, _name: str = name) -> np.ndarray:
                out = _fn(*args)
                if _name == "onto_witness":
                    self.calls["derived"].append(args[1].copy())
                self.calls[_name].append(np.array(out, float).copy())
                return out

            setattr(teach, name, hook)
        self.calls["derived"] = []
        return self

    def __exit__(self, *exc: object) -> None:
        for name, fn in self.orig.items():
            setattr(teach, name, fn)


def table_contrast(img: np.ndarray, bgr: tuple[int, int, int]) -> float:
    """Lab distance between a colour and the median of the photo's margins (the table's)."""
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = img.shape[:2]
    m = max(4, int(0.04 * min(h, w)))
    band = np.concatenate(
        [
            lab[:m].reshape(-1, 3),
            lab[-m:].reshape(-1, 3),
            lab[:, :m].reshape(-1, 3),
            lab[:, -m:].reshape(-1, 3),
        ]
    )
    c = cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2LAB).astype(np.float32)[0, 0]
    return float(np.linalg.norm(np.median(band, axis=0) - c))


def deck_rows(seed: int, dump: Path | None = None) -> list[dict[str, Any]]:
    art, images, truth = world_photos(seed)
    found, refused = find_each(images)
    style = next(iter(art.values())).style
    if dump is not None:
        with open(dump / f"{seed}.pkl", "wb") as fh:
            pickle.dump(
                {
                    "images": images,
                    "truth": truth,
                    "found": found,
                    "refused": refused,
                    "style": style,
                },
                fh,
            )
    finders = {cid: finder(f) for cid, f in found.items()}
    with Stages() as st:
        cards = teach.cut_deck({c: images[c] for c in found}, found)[0] if found else {}
    order = list(cards)  # `cut_deck`'s own order, the order its steps were called in
    rows = []
    for cid, card in truth.items():
        row: dict[str, Any] = {
            "seed": seed,
            "card": cid,
            "border": style.border,
            "border_mm": round(style.border_mm, 2),
            "frame_mm": round(style.frame_mm, 2),
            "sleeve": style.sleeve,
            "table_contrast": round(table_contrast(images[cid], style.border_bgr), 1),
        }
        if cid in refused:
            rows.append({**row, "refused": refused[cid]})
            continue
        off, nearest = cut_off_mm(cards[cid].outer, card)
        mm = CARD_W_MM / float(np.linalg.norm(card[0][1] - card[0][0]))
        sides = [round(x * mm, 2) for x in side_offsets(cards[cid].outer, nearest)]
        k = order.index(cid)
        stages = {
            name: round(cut_off_mm(st.calls[name][k], card)[0], 2)
            for name in (
                "derived",
                "onto_witness",
                "past_frame_line",
                "out_to_edge",
                "out_past_art",
            )
            if len(st.calls.get(name, [])) > k
        }
        row |= {
            "cut_off_mm": round(off, 2),
            "bad": off > BAD_CUT_MM,
            "sides_mm": sides,
            "finder": finders[cid],
            "stages": stages,
            "cut_class": cut_class(sides) if off > BAD_CUT_MM else None,
        }
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--decks", type=int, default=10)
    ap.add_argument("--seed-base", type=int, required=True)
    ap.add_argument("--rows", default=None, help="also write every photo's row here (JSON lines)")
    ap.add_argument("--dump", default=None, help="development: write each deck's finds here")
    a = ap.parse_args(argv)
    if not 0 <= a.seed_base < DEV_SEED_LIMIT - a.decks:
        print("error: --seed-base must be a development seed", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    dump = None if a.dump is None else Path(a.dump)
    rows = []
    for seed in range(a.seed_base, a.seed_base + a.decks):
        for row in deck_rows(seed, dump):
            rows.append(row)
            if "refused" in row or row["bad"]:
                print(json.dumps(row), flush=True)
        if a.rows:
            Path(a.rows).write_text("".join(json.dumps(r) + "\n" for r in rows))
    accepted = [r for r in rows if "refused" not in r]
    bad = [r for r in accepted if r["bad"]]
    print(
        f"{len(accepted)} of {len(rows)} accepted; {len(bad)} cut more than {BAD_CUT_MM:g} mm, "
        f"{sum(r['cut_off_mm'] > 1.5 for r in accepted)} more than 1.5 mm; worst "
        f"{max((r['cut_off_mm'] for r in accepted), default=0.0):g} mm"
    )
    for key in ("cut_class", "border", "finder"):
        print(key, dict(Counter(r[key] for r in bad)))
    for cls in ("inside", "outside", "one_side", "mixed"):
        sub = [r for r in bad if r["cut_class"] == cls]
        print(
            cls,
            len(sub),
            "border",
            dict(Counter(r["border"] for r in sub)),
            "finder",
            dict(Counter(r["finder"] for r in sub)),
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
