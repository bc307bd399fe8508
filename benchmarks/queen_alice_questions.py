"""Queen Alice reader: the boards lost to a QUESTION, by kind and by the test that asked,
on DEVELOPMENT draws (issue 34).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_questions.py --seeds S ... \\
        --boards 300 --cache DIR [--out ROWS]
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_questions.py --rows ROWS ...

Renders (or loads from `--cache`, as `queen_alice_failures.py --cache` keeps them) boards
(SEED, i) with up to two arms (the `random` set's mix), reads each picture alone, and
sorts each board not entirely right by its faults (`queen_alice_failures.faults`, one
judge): a confident wrong answer (phantom, wrong colour, a piece read empty) or only
questions, of four kinds: a square asked where an empty square stands (`square`), a
square asked where a piece stands (`colour`: the reader says neither the piece nor its
colour), the Crowns (`crowns`, asked: None; or a wrong count) and an Alice token (`alice`).
Per kind: boards with it, boards lost by questions alone that have it, and boards it alone
loses. Each asked item is listed with the test that asked (`asked_by`: `read_board`'s
stages run one at a time, for the squares; `crowns_asked_by` and `alice_asked_by` for the
display and the paths) and its truth, so the largest class's tests are counted.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import queen_alice_failures as failures  # noqa: E402
from companion.games.queen_alice.vision import read as reader  # noqa: E402
from companion.games.queen_alice.vision.geometry import BoardGeometry, load_geometry  # noqa: E402

PIECE = ("red", "white")
TOLD = ("red", "white", "empty")


def asked_by(image: np.ndarray, geom: BoardGeometry) -> dict[int, dict[str, Any]] | None:
    """Per square index the reader asks about in photo mode (its second opinion off), the
    test that asked (`why`: the last stage that left it unsure) and the stages before
    (`chain`), with what that test measured: the square's disc spread over its print's and
    the board's median (`spread_print`, `spread_board`), its distance to the board's red
    and white (`d_red`, `d_white`; None with no `two_centres`), whether it lies where
    structure is not read (`ask`) and alone (`lone`). None when the board is not found."""
    where = reader.locate(image, geom)
    if where is None:
        return None
    cells = geom.cells
    arms, colours, under_at, calls0, told = failures.colour_stages(image, geom, where)
    assert colours.structure is not None
    chain: dict[int, list[str]] = {k: [] for k in range(len(cells))}
    for k in under_at:
        chain[k].append("arm_squares")
    for k, (v, _) in enumerate(calls0):
        if k not in under_at and v not in TOLD:
            chain[k].append(f"classify {v}")
    for k, ((a, _), (b, _)) in enumerate(zip(calls0, told, strict=True)):
        if a != b:
            chain[k].append(f"shared_looks {b}")
    scale = reader.print_scale(colours.structure, colours.beside, colours.kin)
    shared = reader.shared_pieces(told, colours, under_at, geom)
    known = np.zeros(len(cells), bool)
    c2 = reader.structure_unsure(told, colours.structure, known, scale, shared)
    for k, ((a, _), (b, _)) in enumerate(zip(told, c2, strict=True)):
        if a != b:
            chain[k].append(f"structure_unsure ({a}{', shared look' if shared[k] else ''})")
    ask = reader.not_by_structure(geom, arms, colours)
    lone = reader.lone_squares(cells, c2)
    c3 = reader.piece_colours(c2, colours, under_at, ask, lone)
    found = set(reader.stand_out(c2, colours, under_at))
    tone = reader.board_tone(reader.median_along(colours.middle, 1))
    centres = reader.two_centres(c2, tone, sorted(found))
    one = reader.one_centre(c2, tone) if centres is None else None
    median = float(reader.median_along(colours.structure, 0))
    far = reader.FAR_OUT * median
    for k in range(len(cells)):
        v3 = c3[k][0]
        if k in found and v3 not in PIECE:
            if centres is None:
                why = "stand_out: no two_centres" + (
                    ", one colour not near" if one is not None else ""
                )
            elif k in ask and k not in lone:
                why = "stand_out: beside a might-be arm, not lone"
            elif (k in ask or reader.CUT_CLEAR) and reader._cut_straight(colours, k):
                why = "stand_out: cut straight"
            else:
                near = (
                    reader.NEAR
                    if k in ask
                    else (reader.NEAR_FAR if colours.structure[k] >= far else reader.NEAR_CLEAR)
                )
                d = reader.norm_along(tone[k] - centres, axis=1)
                j = int(np.argmin(d))
                if d[j] > reader.APART * d[1 - j]:
                    why = "stand_out: not APART"
                elif d[j] > near:
                    why = f"stand_out: past {'NEAR' if k in ask else 'NEAR_CLEAR/FAR'}"
                else:
                    why = "stand_out: off hue (PIECE_HUE)"
            chain[k].append(why)
        elif c2[k][0] in PIECE and v3 not in PIECE:
            chain[k].append("piece_colours: nearer the other colour (APART)")
    quiet = reader.quiet_pieces(c3, c2, colours, under_at, scale)
    for k, ((a, _), (b, _)) in enumerate(zip(c3, quiet, strict=True)):
        if a != b:
            chain[k].append("quiet_pieces (busy, unlike its print)")
    c4 = reader.at_most(told, quiet, geom.pieces_per_colour, tone)
    for k, ((a, _), (b, _)) in enumerate(zip(quiet, c4, strict=True)):
        if a != b:
            chain[k].append(f"at_most ({a})")
    out: dict[int, dict[str, Any]] = {}
    for k, (v, _) in enumerate(c4):
        if v in TOLD:
            continue
        d = (
            reader.norm_along(tone[k] - centres, axis=1).tolist()
            if centres is not None
            else [None, None]
        )
        out[k] = {
            "why": chain[k][-1] if chain[k] else f"? ({v})",
            "chain": chain[k],
            "spread_print": round(float(colours.structure[k] / max(float(scale[k]), 1e-6)), 2),
            "spread_board": round(float(colours.structure[k] / max(median, 1e-6)), 2),
            "d_red": None if d[0] is None else round(float(d[0]), 1),
            "d_white": None if d[1] is None else round(float(d[1]), 1),
            "ask": k in ask,
            "lone": k in lone,
            "found": k in found,
            "told": told[k][0],
            "hue_out": None
            if centres is None
            else round(reader.hue_outside(tone[k], int(np.argmin(d))), 1),
        }
    return out


def crowns_asked_by(image: np.ndarray, geom: BoardGeometry) -> str:
    """Which test left the Crowns asked (`_crowns`' steps one at a time): a slot under an
    arm, too few path spaces to set the scale (`crown_stands`), then `crowns_standing`'s
    tests and `crowns_apart`'s."""
    where = reader.locate(image, geom)
    if where is None:
        return "board not found"
    arms = reader.find_arms(image, geom, where)
    paths = reader.path_calls(image, geom, where, arms)
    colours = reader.sample_spots(image, geom, where, geom.crown_slots)
    calls = reader._spot_calls(image, geom, where, geom.crown_slots, arms, colours)
    if any(v == "unsure" and p < 0 for v, p in calls):
        return "a slot of an arm's colour"
    stands = reader.crown_stands(image, geom, where, arms, paths)
    if stands is None:
        return "crown_stands: no scale (too few spaces or unlike)"
    gold = np.array([v == "gold" for v, _ in calls])
    unsure = np.array([v == "unsure" for v, _ in calls])
    looked = gold | unsure
    up = stands >= reader.CROWN_STANDS
    between = (stands >= reader.CROWN_FLAT) & ~up
    gap = reader.crowns_gap(stands)
    tail = f"; crowns_apart gap {gap:.2f}"
    if np.any(looked & between):
        return "crowns_standing: a slot between flat and standing" + tail
    if np.any(unsure & up):
        return "crowns_standing: an unsure slot standing" + tail
    if gold.all():
        return "crowns_standing: every slot gold, flats unlike or like print" + tail
    if np.any(gold & ~up):
        return "crowns_standing: a flat gold slot" + tail
    return "counted"


def alice_asked_by(image: np.ndarray, geom: BoardGeometry, colour: str) -> str:
    """Which test left an Alice token asked (`_alice`' steps): an arm over the path, no
    space or several of the path's colour and no `two_centres`, or `alice_by_centres`."""
    where = reader.locate(image, geom)
    if where is None:
        return "board not found"
    arms = reader.find_arms(image, geom, where)
    paths = reader.path_calls(image, geom, where, arms)
    spots, calls = paths[colour]
    if any(v == "unsure" and p < 0 for v, p in calls):
        return "a space of an arm's colour"
    found = [i for i, (v, _) in enumerate(calls) if v == colour]
    if len(found) > 1:
        found = [i for i in found if reader.unlike_the_path(spots)[i]]
    if len(found) == 1:
        return "told"
    return f"{len(found)} spaces of its colour; then alice_by_centres"


def board_row(seed: int, i: int, geom: BoardGeometry) -> dict[str, Any]:
    """One development board: its faults by kind, and each asked item with its test."""
    photo = failures.cached_photo(geom, seed, i, failures.board_conditions(i, True))
    reading = reader.read_board(photo.image, geom=geom)
    kinds, wrong = failures.faults(reading, photo, geom.cells)
    row: dict[str, Any] = {"seed": seed, "board": i, "kinds": kinds, "items": [], "asked": []}
    by = (asked_by(photo.image, geom) or {}) if reading.unsure else {}
    for k, item in sorted(by.items()):  # every square asked, near an arm or not (curves)
        c = geom.cells[k]
        want = photo.position.squares.get(c, "empty")
        row["asked"].append(
            {
                "cell": list(c),
                "want": want,
                "near_arm": c in photo.near_arm,
                "hidden": c in photo.truth.unsure,
                **item,
            }
        )
    if not kinds:
        return row
    asked = [(c, w) for c, w, g in wrong if g == "unsure"]
    if asked:
        index = {c: k for k, c in enumerate(geom.cells)}
        for c, w in asked:
            row["items"].append(
                {
                    "kind": "square" if w == "empty" else "colour",
                    "cell": list(c),
                    "want": w,
                    **by.get(index[c], {"why": "? (not asked when replayed)"}),
                }
            )
    if "crowns" in kinds:
        row["items"].append(
            {
                "kind": "crowns",
                "want": photo.truth.crowns_left,
                "got": reading.crowns_left,
                "why": crowns_asked_by(photo.image, geom)
                if reading.crowns_left is None
                else "a wrong count",
            }
        )
    for colour in PIECE:
        want = photo.truth.alice[colour]
        if want is not None and reading.alice[colour] != want:
            row["items"].append(
                {
                    "kind": "alice",
                    "colour": colour,
                    "want": want,
                    "got": reading.alice[colour],
                    "why": alice_asked_by(photo.image, geom, colour)
                    if reading.alice[colour] is None
                    else "a wrong space",
                }
            )
    return row


CONFIDENT = {"phantom", "wrong_colour", "missed", "missed_hidden"}
"""Fault kinds that are a confident wrong answer, not a question."""


def question_kinds(row: dict[str, Any]) -> set[str]:
    """The kinds of question a board's faults hold (`square`, `colour`, `crowns`,
    `alice`), each split asked / wrong for the Crowns and Alice."""
    out = set()
    for item in row["items"]:
        if item["kind"] in ("crowns", "alice"):
            out.add(item["kind"] + (" asked" if item["got"] is None else " wrong"))
        else:
            out.add(item["kind"])
    return out


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Boards right, boards with a confident wrong answer, boards lost by questions alone;
    per question kind: boards with it, those lost by questions alone with it, those it
    alone loses; and per kind, items by the test that asked with their truth."""
    right = sum(not r["kinds"] for r in rows)
    confident = [r for r in rows if CONFIDENT & set(r["kinds"])]
    questions = [r for r in rows if r["kinds"] and not CONFIDENT & set(r["kinds"])]
    any_kind: Counter[str] = Counter()
    only_q: Counter[str] = Counter()
    alone: Counter[str] = Counter()
    for r in rows:
        ks = question_kinds(r)
        any_kind.update(ks)
        if r in questions:
            only_q.update(ks)
            if len(ks) == 1:
                alone.update(ks)
    why: dict[str, Counter[str]] = {}
    for r in questions:
        for item in r["items"]:
            key = item["kind"]
            want = item["want"]
            label = f"{item['why']} | want {want}"
            why.setdefault(key, Counter())[label] += 1
    return {
        "boards": len(rows),
        "right": right,
        "with_confident_wrong": len(confident),
        "lost_by_questions_alone": len(questions),
        "kind_on_boards": dict(any_kind),
        "kind_on_question_boards": dict(only_q),
        "kind_alone_loses": dict(alone),
        "items_on_question_boards_by_test": {
            k: dict(v.most_common()) for k, v in sorted(why.items())
        },
    }


def busy_curve(
    rows: list[dict[str, Any]],
    floors: tuple[float, ...] = (0.0, 3.0, 4.0, 5.0, 6.0),
    reaches: tuple[float, ...] = (11.0, 12.0, 13.0, 14.0, 15.0, 16.0),
) -> list[dict[str, Any]]:
    """`BUSY_PRINT` and `NEAR_BUSY`'s curve from the rows of a reader without the rule
    (`NEAR_BUSY` 0): every square asked because it stood out clear of any might-be arm past
    `NEAR_CLEAR` (`asked_by`'s "stand_out: past NEAR_CLEAR/FAR"), named the nearer colour
    when at least `floor` times its print's spread and within `reach`: right / phantom /
    wrong colour (near an arm in the render or not: a wrong name is wrong anywhere)."""
    asked = []
    for r in rows:
        for a in r["asked"]:
            if a["why"] == "stand_out: past NEAR_CLEAR/FAR":
                j = 0 if a["d_red"] <= a["d_white"] else 1
                asked.append(
                    (min(a["d_red"], a["d_white"]), PIECE[j], a["want"], a["spread_print"])
                )
    out = []
    for floor in floors:
        for reach in reaches:
            named = [a for a in asked if a[0] <= reach and a[3] >= floor]
            right = sum(a[1] == a[2] for a in named)
            phantom = sum(a[2] == "empty" for a in named)
            out.append(
                {
                    "busy_print": floor,
                    "near_busy": reach,
                    "right": right,
                    "phantom": phantom,
                    "wrong_colour": len(named) - right - phantom,
                }
            )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[])
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None, help="write every board's row")
    parser.add_argument("--rows", type=Path, nargs="+", default=None, help="rows from --out")
    parser.add_argument("--list", action="store_true", help="also print every item")
    parser.add_argument(
        "--busy-curve", action="store_true", help="BUSY_PRINT and NEAR_BUSY's curve from rows"
    )
    args = parser.parse_args()
    failures.CACHE = args.cache
    if args.rows:
        rows = [r for f in args.rows for r in json.loads(f.read_text())]
    else:
        geom = load_geometry()
        rows = []
        for seed in args.seeds:
            for i in range(args.boards):
                rows.append(board_row(seed, i, geom))
                print(f"\r{seed} {i + 1}/{args.boards}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        if args.out:
            args.out.write_text(json.dumps(rows) + "\n")
    if args.busy_curve:
        for point in busy_curve(rows):
            print(json.dumps(point))
        return
    print(json.dumps(summary(rows), indent=1))
    if args.list:
        for r in rows:
            for item in r["items"]:
                print(r["seed"], r["board"], sorted(set(r["kinds"])), json.dumps(item))


if __name__ == "__main__":
    main()
