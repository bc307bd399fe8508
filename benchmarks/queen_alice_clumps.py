"""Queen Alice reader: what sets off a clump of phantoms, on DEVELOPMENT draws.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_clumps.py --seeds S1 S2 ... \\
        --boards 100 --cache DIR [--out ROWS]
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_clumps.py --rows ROWS ... \\
        [--share-curve --least 1]
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_clumps.py --beside --seeds S ... \\
        --boards 100 --cache DIR --out SQUARES
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_clumps.py --flat-curve \\
        --rows SQUARES ...

Renders (or loads from `--cache`, as `queen_alice_failures.py --cache` keeps them) boards
(SEED, i) of each development seed with up to two arms (the `random` set's mix), reads each
picture alone, and splits the boards with a phantom from those without by whole-board
conditions: the render's truth (set style, glossy, tilt, glare, shadow, arm, Crown print,
each wider choice, the print's and the icon's vividness, the room light's exposure, the
pieces' count) and the reader's own state (how many squares the colours alone call each
colour, `told`; how many pieces of each colour its structure added, `by_structure`; whether
a colour is read with no told square behind it, `untold`). Per condition: boards, boards
with a phantom, phantoms, wrong colours. Each phantom's path (`queen_alice_failures.py
--paths`'s `named_by`) is counted too.

`--share-curve` prints the curve of a whole-board doubt: on a board where a colour's pieces
named by structure make at least SHARE of that colour's pieces read (told + by structure,
with at least `--least` by structure), every one named by structure is asked; phantoms asked
against right pieces asked, and whole boards right, from each board's reading (asking
a square changes nothing else the judge counts; the game's guide: hundreds of right pieces
asked before the phantoms, not kept).

`--beside` lists every square the colours call red or white that the whole reader reads so,
with its spread against its print's and how many other squares share its look
(`beside_rows`); `--flat-curve` draws `SHARED_FLAT`'s curve from that list.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import queen_alice_failures as failures  # noqa: E402
from companion.games.queen_alice.vision import read as reader  # noqa: E402
from companion.games.queen_alice.vision.geometry import load_geometry  # noqa: E402
from companion.games.queen_alice.vision.render import random_wider  # noqa: E402

COLOURS = ("red", "white")


def _vivid(bgr: Any) -> str:
    """A colour's saturation and value, in bins (for the print's and the icon's)."""
    _h, s, v = cv2.cvtColor(np.array([[bgr]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0]
    return f"s{int(s) * 100 // 255 // 25 * 25:02d} v{int(v) * 100 // 255 // 25 * 25:02d}"


def board_traits(seed: int, i: int, photo: Any, pieces_per_colour: int) -> dict[str, str]:
    """One render's whole-board conditions from its truth: each a name and a value."""
    d = photo.design
    wide = random_wider([seed, i])
    tilt = float(d.get("tilt_deg", 0))
    count, most = len(photo.position.squares), pieces_per_colour
    traits = {
        "style": str(d.get("style")),
        "glossy": str(bool(d.get("glossy"))),
        "tilt": "tilt>15" if tilt > 15 else "tilt<=15",
        "glare": str(bool(d.get("glare"))),
        "shadow": str(bool(d.get("shadow"))),
        "arm": str(bool(d.get("arm"))),
        "crown print": str(bool(d.get("crown_print"))),
        "wider": "wider" if wide is not None else "house",
        "pieces": f"<={most}" if count <= most else f">{most}",
    }
    for name in ("print", "panel", "motif", "pieces", "cast"):
        traits[f"wider {name}"] = str(name in d.get("wider", []))
    if wide is not None and wide.motif is not None:
        traits["motif colour"] = _vivid(wide.motif[2])
        traits["motif radius"] = "r>0.12" if wide.motif[1] > 0.12 else "r<=0.12"
    if wide is not None and wide.palette is not None:
        hsv = cv2.cvtColor(np.array([wide.palette[:4]], np.uint8), cv2.COLOR_BGR2HSV)
        traits["print vivid"] = "s>0.5" if int(hsv[0, :, 1].max()) > 127 else "s<=0.5"
    if wide is not None and wide.cast is not None:
        gain = wide.cast[1]
        traits["cast exposure"] = (
            "<0.85" if gain < 0.85 else (">1.05" if gain > 1.05 else "0.85-1.05")
        )
    if wide is not None and wide.panel is not None:
        traits["panel tint"] = "light" if wide.panel[2] == 0 else "gain"
    return traits


def reader_traits(
    told: list[tuple[str, float]], reading: Any, cells: tuple[Any, ...]
) -> tuple[dict[str, str], dict[str, list[int]], list[int]]:
    """The reader's own whole-board state: per colour how many squares the colours alone
    call it (`told`) and how many pieces of it the structure added (read so, not told so);
    and, per colour, the indices added by structure and the told count."""
    added: dict[str, list[int]] = {c: [] for c in COLOURS}
    told_n = [sum(v == c for v, _ in told) for c in COLOURS]
    for k, cell in enumerate(cells):
        got = reading.squares.get(cell)
        if got in COLOURS and told[k][0] != got:
            added[got].append(k)
    traits: dict[str, str] = {}
    for j, c in enumerate(COLOURS):
        t, s = told_n[j], len(added[c])
        traits[f"{c} told"] = "0" if t == 0 else ("1-2" if t <= 2 else "3+")
        traits[f"{c} by structure"] = "0" if s == 0 else ("1-2" if s <= 2 else "3+")
        traits[f"{c} mostly structure"] = str(s > t)
    return traits, added, told_n


def run(seeds: list[int], boards: int) -> dict[str, Any]:
    geom = load_geometry()
    cells = geom.cells
    rows = []
    for seed in seeds:
        for i in range(boards):
            photo = failures.cached_photo(geom, seed, i, failures.board_conditions(i, True))
            reading = reader.read_board(photo.image, geom=geom)
            kinds, wrong = failures.faults(reading, photo, cells)
            traits = board_traits(seed, i, photo, geom.pieces_per_colour)
            where = reader.locate(photo.image, geom)
            paths: list[str] = []
            added: dict[str, list[int]] = {c: [] for c in COLOURS}
            told_n = [0, 0]
            if where is not None:
                told = failures.colour_stages(photo.image, geom, where)[4]
                more, added, told_n = reader_traits(told, reading, cells)
                traits.update(more)
                if "phantom" in kinds:
                    by = failures.named_by(photo.image, geom) or {}
                    paths = [by.get(c, "?") for c, w, g in wrong if w == "empty" and g in COLOURS]
            outcomes = {
                c: [
                    failures.outcome(photo.position.squares.get(cells[k], "empty"), c)
                    for k in added[c]
                ]
                for c in COLOURS
            }
            rows.append(
                {
                    "seed": seed,
                    "board": i,
                    "right": not kinds,
                    "phantoms": kinds.count("phantom"),
                    "wrong_colours": kinds.count("wrong_colour"),
                    "other_faults": sum(k not in ("phantom", "wrong_colour") for k in kinds),
                    "traits": traits,
                    "paths": paths,
                    "told": told_n,
                    "added": outcomes,
                }
            )
            print(f"\rclumps {seed} {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return {"seeds": seeds, "boards": boards, "rows": rows}


def split(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per condition value: boards, boards with a phantom, phantoms, wrong colours."""
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        for name, value in r["traits"].items():
            t = table[f"{name}={value}"]
            t["boards"] += 1
            t["with_phantom"] += r["phantoms"] > 0
            t["phantoms"] += r["phantoms"]
            t["wrong_colours"] += r["wrong_colours"]
    paths: Counter[str] = Counter(p for r in rows for p in r["paths"])
    return {
        "boards": len(rows),
        "right": sum(r["right"] for r in rows),
        "phantoms": sum(r["phantoms"] for r in rows),
        "boards_with_phantom": sum(r["phantoms"] > 0 for r in rows),
        "wrong_colours": sum(r["wrong_colours"] for r in rows),
        "by_path": dict(paths.most_common()),
        "by_condition (boards / with a phantom / phantoms / wrong colours)": [
            f"{k}: {v['boards']} / {v['with_phantom']} / {v['phantoms']} / {v['wrong_colours']}"
            for k, v in sorted(table.items())
        ],
        "phantom_boards": [
            f"{r['seed']} {r['board']}: {r['phantoms']} phantoms, told {r['told']}, "
            f"added {r['added']}, paths {r['paths']}, "
            + ", ".join(f"{k}={v}" for k, v in r["traits"].items())
            for r in rows
            if r["phantoms"]
        ],
    }


def share_curve(rows: list[dict[str, Any]], least: int) -> list[dict[str, Any]]:
    """The whole-board doubt's curve (module docstring): at each share, phantoms and wrong
    colours asked, right pieces asked, and boards right (a board right once all its faults
    were such pieces now asked, and no right piece asked)."""
    out = []
    for share in (1.01, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3):
        asked: Counter[str] = Counter()
        right = 0
        for r in rows:
            hit: Counter[str] = Counter()
            for j, c in enumerate(COLOURS):
                got = r["added"][c]
                s, t = len(got), r["told"][j]
                if s >= least and s >= share * (s + t):
                    hit.update(got)
            asked.update(hit)
            faults_left = r["phantoms"] + r["wrong_colours"] - hit["phantom"] - hit["wrong"]
            right += (
                r["right"]
                if not hit
                else (faults_left == 0 and r["other_faults"] == 0 and hit["right"] == 0)
            )
        out.append({"share": share, "boards_right": right, **dict(asked)})
    return out


def beside_rows(seeds: list[int], boards: int) -> list[dict[str, Any]]:
    """Every square the colours alone call red or white that the whole reader reads that
    colour, beside a might-be arm (`not_by_structure`) or not: what it is (right,
    phantom, wrong; and whether an arm comes near it in the render, where asking is no
    fault) and what might part them: its disc's spread against its print's
    (`print_scale`), how far its tone lies from the nearest square the colours call that
    colour clear of any might-be arm (inf: none), and how many other squares' middles are
    alike its own (`middles_alike`, as `shared_looks` counts)."""
    geom = load_geometry()
    cells = geom.cells
    out = []
    for seed in seeds:
        for i in range(boards):
            photo = failures.cached_photo(geom, seed, i, failures.board_conditions(i, True))
            where = reader.locate(photo.image, geom)
            if where is None:
                continue
            reading = reader.read_board(photo.image, geom=geom)
            arms, colours, under_at, _, told = failures.colour_stages(photo.image, geom, where)
            assert colours.structure is not None
            ask = reader.not_by_structure(geom, arms, colours)
            scale = reader.print_scale(colours.structure, colours.beside, colours.kin)
            tone = reader.board_tone(reader.median_along(colours.middle, 1))
            holders = np.ones(len(cells), bool)
            holders[list(under_at)] = False
            mid = colours.middle
            for k in range(len(cells)):
                got = reading.squares.get(cells[k])
                if got not in COLOURS or told[k][0] != got:
                    continue
                clear = [j for j, (v, _) in enumerate(told) if v == got and j not in ask]
                near = float(np.linalg.norm(tone[clear] - tone[k], axis=1).min()) if clear else 1e9
                alike = reader.middles_alike(
                    reader.norm_along(mid[[k]][:, None] - mid[holders][None], axis=3)
                )
                want = photo.position.squares.get(cells[k], "empty")
                out.append(
                    {
                        "seed": seed,
                        "board": i,
                        "outcome": failures.outcome(want, got),
                        "near_arm": cells[k] in photo.near_arm,
                        "beside": k in ask,
                        "spread": round(float(colours.structure[k] / scale[k]), 2),
                        "clear_near": round(near, 1),
                        "alike": int(alike.sum()) - int(holders[k]),
                    }
                )
            print(f"\rbeside {seed} {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return out


def flat_curve(rows: list[dict[str, Any]], most: int) -> list[dict[str, Any]]:
    """The `SHARED_FLAT` curve from `beside_rows`: squares whose look more than `most` other
    squares share (`SHARED_OVER` times `pieces_per_colour`), asked under each multiple of
    their print's spread: phantoms and wrong colours asked, right pieces asked clear of any
    arm in the render (a fault) and where an arm comes near (none)."""
    shared = [r for r in rows if r["alike"] > most]
    out = []
    for flat in (1.2, 1.5, 2.0, 2.2, 2.5, 3.0, 4.0):
        under = [r for r in shared if r["spread"] < flat]
        out.append(
            {
                "shared_flat": flat,
                "phantoms": sum(r["outcome"] == "phantom" for r in under),
                "wrong": sum(r["outcome"] == "wrong" for r in under),
                "right_clear": sum(r["outcome"] == "right" and not r["near_arm"] for r in under),
                "right_near_arm": sum(r["outcome"] == "right" and r["near_arm"] for r in under),
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[])
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None, help="write every board's row as JSON")
    parser.add_argument(
        "--rows", type=Path, nargs="+", default=None, help="read the rows from these JSON files"
    )
    parser.add_argument("--share-curve", action="store_true")
    parser.add_argument("--least", type=int, default=1)
    parser.add_argument("--beside", action="store_true", help="dump `beside_rows` instead")
    parser.add_argument(
        "--flat-curve", action="store_true", help="the SHARED_FLAT curve from `--beside` rows"
    )
    args = parser.parse_args()
    failures.CACHE = args.cache
    if args.beside:
        rows = beside_rows(args.seeds, args.boards)
        if args.out:
            args.out.write_text(json.dumps(rows) + "\n")
        print(json.dumps(Counter(f"{r['outcome']} near_arm={r['near_arm']}" for r in rows)))
        return
    if args.flat_curve and args.rows:
        rows = [r for f in args.rows for r in json.loads(f.read_text())]
        most = int(reader.SHARED_OVER * load_geometry().pieces_per_colour)
        print(json.dumps({"more_alike_than": most, "curve": flat_curve(rows, most)}, indent=1))
        return
    if args.rows:
        data = {"rows": [r for f in args.rows for r in json.loads(f.read_text())["rows"]]}
    else:
        data = run(args.seeds, args.boards)
    if args.out:
        args.out.write_text(json.dumps(data) + "\n")
    result: dict[str, Any] = split(data["rows"])
    if args.share_curve:
        result = {"least": args.least, "share_curve": share_curve(data["rows"], args.least)}
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
