"""Looking Glass house deck: every card read but asked (null) or missed, with what it looked
like, and the curve a naming threshold is chosen from.

Reads the recognition tables `looking_glass_vision.py --tables-dir DIR` kept (each table's
taught library, photo and truth), with the light-border reader at threshold 0, and lists:

- every true card the default threshold leaves null or the reader misses, with its scores
  (the best two faces, the true face's rank), how the reader came by it (`Provenance`),
  whether it is covered, whether the copy check (`read.ask_unbacked_names`) asked it and by
  which rule (`read.unbacked_names`), its cause in a few words (`cause`; `causes` counts
  them), and the table's conditions; with `--crops DIR` a picture of each (the card's
  outline in red, the photo round it) to tell a glare, an arm or a tilt apart by eye;
- per candidate threshold, over every true card the reader found: named right, named wrong,
  asked (`curve`), and the same split by provenance and cover: the counts a threshold is
  chosen from.

Development tables only: seeds measured as fresh are never read with this script.
`--make N --seed-base S [--kinds pattern,wood]` first keeps N development tables in DIR (as
`looking_glass_vision.py --tables-dir` keeps them), taking from S on only the seeds whose
scene lies on a table of those kinds: a naming rule's wrong side lies mostly on patterned
tables, a quarter of the benchmark's draw.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/looking_glass_house_nulls.py --tables-dir DIR \\
        [--make N --seed-base S --kinds pattern,wood] [--crops OUT] [--json F]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.looking_glass_vision import stored_table  # noqa: E402
from companion.games.looking_glass.vision.library import Library  # noqa: E402
from companion.games.looking_glass.vision.read import (  # noqa: E402
    CONFIDENCE_THRESHOLD,
    Reader,
    SeenCard,
    unbacked_names,
)
from companion.games.looking_glass.vision.render import (  # noqa: E402
    card_outcomes,
    sample_conditions,
)
from companion.vision.cards.identify import upper_window  # noqa: E402

THRESHOLDS = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35)
"""Candidate naming thresholds for the curve (the default is `read.CONFIDENCE_THRESHOLD`)."""
CONDITIONS = ("glare", "hand", "shadow", "sleeves", "markers", "table_kind")


def _crop(img: np.ndarray, quad: np.ndarray, out: Path) -> None:
    """The photo round a card (two card widths each way), its outline drawn in red."""
    w = float(np.linalg.norm(quad[1] - quad[0]))
    x0, y0 = np.maximum(quad.min(axis=0) - w, 0).astype(int)
    x1, y1 = (quad.max(axis=0) + w).astype(int)
    pic = img.copy()
    cv2.polylines(pic, [quad.astype(np.int32)], True, (0, 0, 255), 1)
    cv2.line(pic, tuple(quad[0].astype(int)), tuple(quad[1].astype(int)), (0, 255, 255), 2)
    cv2.imwrite(str(out), pic[y0:y1, x0:x1])


def _without_one(lib: Library, truth: dict[str, Any]) -> Library:
    """The library without the face of the card that lies most often on the table: each of
    its copies can then only be named wrong (a card the user did not teach, or taught from a
    photo of another card)."""
    common = Counter(g["card"] for g in truth["cards"]).most_common(1)[0][0]
    return lib.subset([i for i, cid in enumerate(lib.ids) if cid != common])


def scene_table_kind(seed: int) -> str:
    """The kind of table the recognition scene of `seed` lies on (`render.render_scene` draws
    a house deck's conditions first from this generator), known before anything is taught."""
    return sample_conditions(np.random.default_rng([seed, 11, 0])).table_kind


def make(store: Path, n: int, seed_base: int, kinds: set[str]) -> list[int]:
    """Keep `n` development tables in `store`, from `seed_base` on, of the table kinds asked."""
    seeds: list[int] = []
    seed = seed_base
    while len(seeds) < n:
        if scene_table_kind(seed) in kinds:
            stored_table(seed, store)
            seeds.append(seed)
            print(f"  made {seed} ({len(seeds)}/{n})", file=sys.stderr, flush=True)
        seed += 1
    return seeds


def copy_check_reasons(
    cards: list[SeenCard], ids: list[str], copies: dict[str, int]
) -> dict[int, str]:
    """Why the copy check asked each card it asked (by `id` of the card): in a reading at
    threshold 0 every card found is named but those, so each such card sure enough to be
    named by default gets back its whole window's name, and the reader's own check
    (`read.unbacked_names`) says which rule asked it."""
    named = [
        replace(c, card=ids[int(np.argmax([c.scores[k] for k in ids]))])
        if c.card is None and c.scores and c.confidence >= CONFIDENCE_THRESHOLD
        else c
        for c in cards
    ]
    asked = unbacked_names(named, copies, CONFIDENCE_THRESHOLD)
    return {id(cards[i]): rule for i, rule in asked.items() if cards[i].card is None}


def cause(row: dict[str, Any]) -> str:
    """Why a true card was not named right, in a few words (the summary counts them): never
    found, named wrong, asked by the copy check (which rule), or unclear as a whole window,
    its own face leading there or not, and whether its cells lead the same face (`v1`, `v2`:
    how clearly)."""
    if row["kind"] == "missed" or "best" not in row:
        return "never found"
    if row["kind"] == "wrong":
        return f"named wrong ({row['provenance']})"
    if row["copy_rule"]:
        return f"copy check: {row['copy_rule']}"
    whole = "its own face leads" if row["best"] == row["truth"] else "another face leads"
    cells = "so do its cells" if row["v_best"] == row["best"] else "its cells lead another"
    return f"unclear ({row['provenance']}): {whole}, {cells}"


def examine(store: Path, crops: Path | None, drop_one: bool = False) -> dict[str, Any]:
    seeds = sorted(int(p.name) for p in store.iterdir() if (p / "truth.json").exists())
    cases: list[dict[str, Any]] = []
    found: list[dict[str, Any]] = []
    for seed in seeds:
        lib, img, truth = stored_table(seed, store)
        if drop_one:
            lib = _without_one(lib, truth)
        reader = Reader(lib, threshold=0.0)
        reading = reader.read(img)
        why_asked = copy_check_reasons(reading.cards, lib.ids, reader.copies)
        read_json = reading.to_json("t")
        for c in read_json["cards"]:
            c["card"] = c["card"] if c["confidence"] >= CONFIDENCE_THRESHOLD else None
        # `card_outcomes` matches each true card to a read one: the read card behind each.
        behind = {id(j): c for j, c in zip(read_json["cards"], reading.cards, strict=True)}
        cond = truth["truth"]["conditions"]
        for o in card_outcomes(read_json, truth):
            if o.truth is None or o.kind == "hidden":
                continue
            g = o.truth
            if drop_one and g["card"] in lib.ids:
                continue  # (only the untaught card's copies are of interest)
            seen = None if o.read is None else behind[id(o.read)]
            row: dict[str, Any] = {
                "seed": seed,
                "position": g["position"],
                "truth": g["card"],
                "covered": bool(g["covered"]),
                "kind": o.kind,
            }
            if seen is not None and seen.scores:
                ranked = sorted(seen.scores.items(), key=lambda kv: -kv[1])
                row |= {
                    "best": ranked[0][0],
                    "s1": round(ranked[0][1], 3),
                    "second": ranked[1][0],
                    "s2": round(ranked[1][1], 3),
                    "own": round(seen.scores.get(g["card"], -1.0), 3),
                    "rank": [k for k, _ in ranked].index(g["card"]) if g["card"] in lib.ids else -1,
                    "confidence": round(seen.confidence, 3),
                    "provenance": str(seen.provenance),
                    "read_covered": bool(seen.covered),
                    "full_hole": bool(seen.full_hole),
                    # Named at threshold 0 and still None: the copy check asked it.
                    "copy_asked": seen.card is None,
                    "copy_rule": why_asked.get(id(seen)),
                }
                vis = lib.match_visible(upper_window(img, seen.quad, lib))
                order = np.argsort(-vis)
                row |= {
                    "v_best": lib.ids[int(order[0])],
                    "v1": round(float(vis[order[0]]), 3),
                    "v2": round(float(vis[order[1]]), 3),
                }
                found.append(row)
            if o.kind in ("unsure", "missed", "wrong"):
                row["cause"] = cause(row)
                row["conditions"] = {k: cond[k] for k in CONDITIONS} | {
                    "tilt": round(cond["tilt_deg"]),
                    "card_px": round(cond["card_px"]),
                }
                cases.append(row)
                if crops is not None:
                    crops.mkdir(parents=True, exist_ok=True)
                    _crop(img, np.array(g["quad"]), crops / f"{seed}-{g['position']}.png")
        print(f"  {seed}: {sum(c['seed'] == seed for c in cases)} cases", file=sys.stderr)
    return {
        "tables": len(seeds),
        "cards_found": len(found),
        "causes": dict(Counter(c["cause"] for c in cases).most_common()),
        "cases": cases,
        "curve": curve(found),
        "cell_curve": cell_curve(found),
    }


def curve(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per threshold: found cards named right / named wrong / asked (the copy check's asks
    stay asked whatever the threshold), overall and by provenance and cover."""
    rows = []
    for t in THRESHOLDS:
        split: Counter[str] = Counter()
        for r in found:
            named = r["confidence"] >= t and not r["copy_asked"]
            what = "asked" if not named else ("right" if r["best"] == r["truth"] else "wrong")
            split[what] += 1
            split[f"{what} {r['provenance']} {'covered' if r['covered'] else 'free'}"] += 1
        rows.append({"threshold": t, **dict(sorted(split.items()))})
    return rows


CELL_SCORES = (0.75, 0.8, 0.85, 0.9)
CELL_MARGINS = (0.15, 0.2, 0.25, 0.3, 0.35)


def cell_curve(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per candidate (cell score, cell margin): of the found cards the whole window leaves
    asked (below `CONFIDENCE_THRESHOLD`, the copy check's asks apart), how many a rule "the
    face that leads the whole window leads cell by cell by this score and margin" names right
    and wrong; and over every found card, however sure, how many it holds for with the face
    that leads being another card's (what the rule would name wrong wherever it were
    asked)."""
    rows = []
    for vs in CELL_SCORES:
        for vm in CELL_MARGINS:
            holds = [
                r
                for r in found
                if r["v_best"] == r["best"] and r["v1"] >= vs and r["v1"] - r["v2"] >= vm
            ]
            asked = [
                r for r in holds if r["confidence"] < CONFIDENCE_THRESHOLD and not r["copy_asked"]
            ]
            rows.append(
                {
                    "cell_score": vs,
                    "cell_margin": vm,
                    "asked_named_right": sum(r["best"] == r["truth"] for r in asked),
                    "asked_named_wrong": sum(r["best"] != r["truth"] for r in asked),
                    "holds_any": len(holds),
                    "holds_any_wrong": sum(r["best"] != r["truth"] for r in holds),
                }
            )
    asked_all = [r for r in found if r["confidence"] < CONFIDENCE_THRESHOLD and not r["copy_asked"]]
    rows.append(
        {
            "asked": len(asked_all),
            "asked_best_right": sum(r["best"] == r["truth"] for r in asked_all),
            "found": len(found),
            "found_best_wrong": sum(r["best"] != r["truth"] for r in found),
        }
    )
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables-dir", required=True, help="a looking_glass_vision.py store")
    ap.add_argument("--crops", default=None, help="write a picture of each case here")
    ap.add_argument("--json", default=None, help="also write the result here")
    ap.add_argument(
        "--drop-one",
        action="store_true",
        help="read each table without the face of its commonest card and list only that "
        "card's copies: every name they get is wrong (the curve's wrong side)",
    )
    ap.add_argument("--make", type=int, default=0, help="first keep this many tables in DIR")
    ap.add_argument("--seed-base", type=int, default=None, help="--make's first seed")
    ap.add_argument(
        "--kinds",
        default="plain,wood,cloth,pattern",
        help="--make keeps only seeds whose scene's table is of these kinds",
    )
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if a.make:
        if a.seed_base is None:
            ap.error("--make needs --seed-base (a development seed you drew)")
        make(Path(a.tables_dir), a.make, a.seed_base, set(a.kinds.split(",")))
    out = examine(Path(a.tables_dir), None if a.crops is None else Path(a.crops), a.drop_one)
    text = json.dumps(out, indent=1)
    print(text)
    if a.json:
        Path(a.json).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
