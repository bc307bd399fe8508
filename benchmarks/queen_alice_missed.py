"""Queen Alice reader: pieces read as EMPTY (no question), on DEVELOPMENT draws (issue 34).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_missed.py --seeds S1 S2 ... \\
        --boards 100 --cache DIR --out ROWS
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_missed.py --rows ROWS ... \\
        [--curve]

Renders (or loads from `--cache`, as `queen_alice_failures.py --cache` keeps them) boards
(SEED, i) of each development seed with up to two arms (the `random` set's mix), reads each
picture alone, and lists every square the whole reader reads as empty: the pieces so read
(hidden by an arm in the render or not) and, for the curve, the empty squares so read. Each
row carries the square's measures as the reader's stages see them: the colours' own call
(`classify`) and the call after `shared_looks`, the shares of its middle (like the print,
red, white), its disc spread against its print's (`print_scale`) and the board's median
square's, its sharpest steps against the median's, whether it is beside a might-be arm
(`not_by_structure`), its distance (`board_tone`) to the board's red and white piece
colours (`two_centres`, as `piece_colours` builds them), its middle's distance to its
print beside and to its print's own middle (`print_middles`); and the board's conditions
(`queen_alice_clumps.board_traits`) and the piece's style.

`--rows` summarises saved rows: the missed pieces by the reader's path and condition; with
`--curve`, the curves of the candidate rules: at each value, pieces read empty caught
against truly empty squares caught (away from arms: those a question costs a board).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import queen_alice_clumps as clumps  # noqa: E402
from benchmarks import queen_alice_failures as failures  # noqa: E402
from companion.games.queen_alice.vision import read as reader  # noqa: E402
from companion.games.queen_alice.vision.geometry import load_geometry  # noqa: E402


def _r(x: float) -> float | None:
    return None if not np.isfinite(x) else round(float(x), 3)


def board_rows(seed: int, i: int, geom: Any) -> list[dict[str, Any]]:
    """Every square board (seed, i) is read as empty, with its measures (module docstring)."""
    photo = failures.cached_photo(geom, seed, i, failures.board_conditions(i, True))
    where = reader.locate(photo.image, geom)
    if where is None:
        return []
    reading = reader.read_board(photo.image, geom=geom)
    cells = geom.cells
    arms, colours, under_at, calls, told = failures.colour_stages(photo.image, geom, where)
    structure, edges = colours.structure, colours.edges
    scale = reader.print_scale(structure, colours.beside, colours.kin)
    med_s = float(reader.median_along(structure, 0))
    med_e = float(reader.median_along(edges, 0))
    shared = reader.shared_pieces(told, colours, under_at, geom)
    known = np.zeros(len(cells), bool)
    after = reader.structure_unsure(told, structure, known, scale, shared)
    found = reader.stand_out(after, colours, under_at)
    tone = reader.board_tone(reader.median_along(colours.middle, 1))
    centres = reader.two_centres(after, tone, found)
    ask = reader.not_by_structure(geom, arms, colours)
    board, red, white, _gold = reader.share_arrays(colours)
    middle = reader.median_along(colours.middle, 1)
    beside = reader.median_along(colours.beside, 1)
    to_beside = reader.norm_along(middle - beside, axis=1)
    if colours.printed is not None:
        to_printed = reader.norm_along(middle - reader.median_along(colours.printed, 1), axis=1)
    else:
        to_printed = np.full(len(cells), np.nan)
    strips = reader.norm_along(colours.beside[:, :, None] - colours.beside[:, None], axis=3)
    strips_apart = strips.max(axis=(1, 2))
    kin_count = colours.kin.sum(axis=1) if colours.kin is not None else np.zeros(len(cells))
    traits = clumps.board_traits(seed, i, photo, geom.pieces_per_colour)
    told_n = [sum(v == c for v, _ in told) for c in ("red", "white")]
    rows = []
    for k, cell in enumerate(cells):
        if cell in reading.unsure or cell in reading.squares:
            continue
        want = photo.position.squares.get(cell, "empty")
        d = (
            [_r(x) for x in reader.norm_along(tone[k] - centres, axis=1)]
            if centres is not None
            else [None, None]
        )
        rows.append(
            {
                "seed": seed,
                "board": i,
                "square": list(cell),
                "want": want,
                "hidden": cell in photo.truth.unsure,
                "near_arm": cell in photo.near_arm,
                "under_arm": k in under_at,
                "beside_maybe_arm": k in ask,
                "classify": calls[k][0],
                "told": told[k][0],
                "board_share": _r(board[k]),
                "red_share": _r(red[k]),
                "white_share": _r(white[k]),
                "spread": _r(structure[k]),
                "spread_over_print": _r(structure[k] / scale[k]),
                "spread_over_median": _r(structure[k] / med_s),
                "edges_over_median": _r(edges[k] / med_e),
                "to_red": d[0],
                "to_white": d[1],
                "to_beside": _r(to_beside[k]),
                "to_printed": _r(to_printed[k]),
                "strips_apart": _r(strips_apart[k]),
                "kin": int(kin_count[k]),
                "told_red": told_n[0],
                "told_white": told_n[1],
                "style": str(photo.design.get("style")),
                "traits": traits,
            }
        )
    return rows


def run(seeds: list[int], boards: int) -> list[dict[str, Any]]:
    geom = load_geometry()
    rows: list[dict[str, Any]] = []
    for seed in seeds:
        for i in range(boards):
            rows += board_rows(seed, i, geom)
            print(f"\r{seed} {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return rows


def path_of(row: dict[str, Any]) -> str:
    """Why the reader left a square empty: the colours called it empty (`classify`) or a
    look many squares share made it so (`shared_looks`), and whether its structure was
    under `STRUCTURE` (flat) or only under its print's `STRUCTURE_OUT` (busy print)."""
    origin = "colours empty" if row["classify"] == "empty" else f"shared ({row['classify']})"
    flat = "flat" if row["spread"] <= reader.STRUCTURE else "busy print"
    return f"{origin}, {flat}"


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    missed = [r for r in rows if r["want"] != "empty"]
    empties = [r for r in rows if r["want"] == "empty"]
    by: dict[str, Counter[str]] = defaultdict(Counter)
    for r in missed:
        kind = "hidden" if r["hidden"] else ("near arm" if r["near_arm"] else "clear")
        by["kind"][kind] += 1
        if r["hidden"]:
            continue
        by["path"][path_of(r)] += 1
        by["piece"][r["want"]] += 1
        by["style"][r["style"]] += 1
        by["beside might-be arm"][str(r["beside_maybe_arm"])] += 1
        by["centres"]["none" if r["to_red"] is None else "two"] += 1
        for key, value in r["traits"].items():
            by[f"board {key}"][value] += 1
    boards = {(r["seed"], r["board"]) for r in missed if not r["hidden"]}
    return {
        "squares_read_empty": len(rows),
        "pieces_read_empty": len(missed),
        "empty_squares_read_empty": len(empties),
        "boards_with_a_piece_read_empty (not hidden)": len(boards),
        "by": {k: dict(v.most_common()) for k, v in by.items()},
    }


def _nearer(row: dict[str, Any]) -> int | None:
    """0 (red) or 1 (white) when the square is clearly nearer (`APART`) and near (`NEAR`)
    one of the board's piece colours, as `_nearer_piece`; None otherwise or with no
    `two_centres`."""
    if row["to_red"] is None:
        return None
    d = (row["to_red"], row["to_white"])
    j = 0 if d[0] <= d[1] else 1
    return j if d[j] <= reader.APART * d[1 - j] and d[j] <= reader.NEAR else None


def unlike_print(row: dict[str, Any]) -> float:
    """How far the square's middle lies from its print: from its print beside, and from its
    print's own middle where the board tells it (the nearer)."""
    own = row["to_printed"]
    return float(row["to_beside"] if own is None else min(row["to_beside"], own))


def curve(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`QUIET_OUT` x `QUIET_UNLIKE`: at each pair, the pieces read empty (not hidden by an arm
    in the render) a rule asking `quiet_pieces`' squares would catch, against the empty
    squares it would ask (and those of them clear of arms, where a question costs the board,
    and their boards)."""
    missed = [r for r in rows if r["want"] != "empty" and not r["hidden"]]
    empties = [r for r in rows if r["want"] == "empty"]
    out = []
    for spread in (1.25, 1.5, 1.75, 2.0, 2.5):
        for far in (0.0, 4.0, 6.0, 8.0, 10.0, 14.0):

            def caught(r: dict[str, Any], s: float = spread, u: float = far) -> bool:
                return (
                    r["spread_over_print"] >= s and unlike_print(r) >= u and _nearer(r) is not None
                )

            clear = [r for r in empties if caught(r) and not r["near_arm"]]
            out.append(
                {
                    "quiet_out": spread,
                    "quiet_unlike": far,
                    "pieces_caught": sum(caught(r) for r in missed),
                    "empty_asked": sum(caught(r) for r in empties),
                    "empty_asked_clear_of_arms": len(clear),
                    "boards_of_those": len({(r["seed"], r["board"]) for r in clear}),
                }
            )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, nargs="*", default=[])
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None, help="save the rows (JSON lines)")
    parser.add_argument("--rows", type=Path, nargs="*", default=[], help="saved rows instead")
    parser.add_argument("--list", action="store_true", help="print every piece read empty")
    parser.add_argument("--curve", action="store_true", help="the quiet_pieces curve too")
    args = parser.parse_args()
    failures.CACHE = args.cache
    if args.rows:
        rows = [json.loads(line) for p in args.rows for line in p.read_text().splitlines()]
    else:
        rows = run(args.seeds, args.boards)
        if args.out:
            args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(json.dumps(summary(rows), indent=1))
    if args.curve:
        for point in curve(rows):
            print(json.dumps(point))
    if args.list:
        for r in rows:
            if r["want"] != "empty" and not r["hidden"]:
                print({k: v for k, v in r.items() if k != "traits"})


if __name__ == "__main__":
    main()
