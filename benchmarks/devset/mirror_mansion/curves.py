"""Mirror Mansion threshold curves on the development boards: how each reading would change
as one threshold moves, so a commit that sets one can show the curve it was read from.

    .venv/bin/python benchmarks/devset/mirror_mansion/curves.py door
    .venv/bin/python benchmarks/devset/mirror_mansion/curves.py door --boards 300
    .venv/bin/python benchmarks/devset/mirror_mansion/curves.py mirror_dot --values 30,40,60

`window`: per window dot cost (how fast a dot's score falls off its card's top line), level
weight, score floor and tie lead (`--levels`, `--floors`, `--ties`: the values to try), the
boards whose window is right, asked or wrong. `door`: per door dot's value floor
(`door_dot.val_min`) and door top-edge floor (`perceive.DOOR_EDGE_MIN`), the boards whose
door is right, missed, phantom or wrong, and the boards read entirely right. `mirror_dot`,
`window_dot`: per value floor of that sticker colour (`--values`), the boards read entirely
right and the misses. `hue`: per hue range of one sticker colour (`--colour
mirror_dot --hues 40-88,36-96`), the same. `setting`: per value (`--values`) of one reader constant
(`--setting dots.OPENING`), the same (`--late`: a constant of identify or fit only, the
candidates found once). `--boards` reads more of the random development base
than the sweep's (the same base, so still development seeds; never a fresh one).
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from sweep import DEV, photos  # noqa: E402

from companion.games.mirror_mansion.rules.board import Board, load_board  # noqa: E402
from companion.games.mirror_mansion.vision import dots, perceive  # noqa: E402
from companion.games.mirror_mansion.vision.scene import BoxState  # noqa: E402
from companion.games.mirror_mansion.vision.stickers import DEFAULT_STICKERS  # noqa: E402
from companion.vision.board_pose import BoardPose, estimate_pose  # noqa: E402

VAL_MINS = (50, 60, 70, 80, 90, 100, 110, 120)
EDGE_MINS = (-0.5, 0.0, 0.25, 0.5, 0.75, 0.85, 1.0, 1.25, 1.5, 2.0)


RANKS = {
    "dot": lambda p: perceive._dot_quality(p.dot),
    "evidence": lambda p: p.evidence,
}
"""How the door is picked among its hypotheses: its dot's quality alone, or with its top
edge (`perceive._piece_evidence`)."""


def posed_photos(
    cache: Path, board: Board, styles: list[str], boards: int | None
) -> Iterator[tuple[str, int, np.ndarray, BoxState, BoardPose | None]]:
    """Each development photograph with the box's pose found from its markers (None: not
    found), found once for the curves to read again at every setting; `boards` widens the
    random style only, and a style written `wide7:120` reads the first 120 boards of its set."""
    for spec in styles:
        style, _, first = spec.partition(":")
        n = boards if boards is not None and style == "random" else None
        n = int(first) if first else n
        for seed, image, truth in photos(cache, board, style, n):
            found = perceive.find_board_markers(image, board)
            pose = estimate_pose(found, board, (image.shape[1], image.shape[0]), None)
            yield style, seed, image, truth, pose


def door_outcome(truth, got) -> str:
    if got.door == truth.door:
        return "right"
    if got.door is None:
        return "missed"
    return "phantom" if truth.door is None else "wrong"


def door_curve(
    cache: Path, styles: list[str], boards: int | None, show: tuple[int, float, str] | None
) -> None:
    board = load_board()
    table: dict[tuple[int, float], Counter[str]] = {}
    for style, seed, image, truth, pose in posed_photos(cache, board, styles, boards):
        if pose is None:
            for key in ((v, e, r) for v in VAL_MINS for e in EDGE_MINS for r in RANKS):
                table.setdefault(key, Counter())["unseen"] += 1
            continue
        rect = perceive.rectify(image, board, pose)
        for val in VAL_MINS:
            stickers = DEFAULT_STICKERS.model_copy(
                update={"door_dot": DEFAULT_STICKERS.door_dot.model_copy(update={"val_min": val})}
            )
            cands = perceive.find_candidates(rect, board, stickers)
            for edge, rank in ((e, r) for e in EDGE_MINS for r in RANKS):
                perceive.DOOR_EDGE_MIN = edge
                perceive._door_rank = RANKS[rank]
                got = perceive.fit(perceive.identify(cands, board), cands, board, stickers)
                tally = table.setdefault((val, edge, rank), Counter())
                tally[door_outcome(truth, got)] += 1
                tally["exact"] += got.layout_key() == truth.layout_key()
                if (val, edge, rank) == show and got.door != truth.door:
                    print(f"  {style} {seed}: door {truth.door} read {got.door}")
    print("val_min edge_min rank: door right / missed / phantom / wrong; boards exact")
    for (val, edge, rank), t in sorted(table.items()):
        print(
            f"{val:7d} {edge:8.2f} {rank:8s}: {t['right']:4d} / {t['missed']:3d} / "
            f"{t['phantom']:3d} / {t['wrong']:3d}; {t['exact']:4d}"
        )


def value_curve(
    cache: Path, styles: list[str], boards: int | None, colour: str, values: list[int]
) -> None:
    """Per value floor of one sticker colour (`mirror_dot`, `window_dot`): the boards read
    entirely right and each miss category of the sweep."""
    from sweep import categories

    board = load_board()
    table: dict[int, Counter[str]] = {v: Counter() for v in values}
    for _style, _seed, image, truth, pose in posed_photos(cache, board, styles, boards):
        for val in values:
            if pose is None:
                table[val]["unseen"] += 1
                continue
            dot = getattr(DEFAULT_STICKERS, colour).model_copy(update={"val_min": val})
            stickers = DEFAULT_STICKERS.model_copy(update={colour: dot})
            got = perceive.read_with_pose(image, board, pose, stickers)
            table[val]["exact"] += got.layout_key() == truth.layout_key()
            table[val].update(categories(truth, got))
    for val, t in table.items():
        print(f"{colour}.val_min {val:4d}: {t['exact']} exact; {dict(t)}")


WINDOW_FREES = (perceive.WINDOW_FREE_MM,)
WINDOW_SLOPES = (perceive.WINDOW_SLOPE_MM,)
WINDOW_LEVELS = (0.0, 0.2, 0.3, 0.4)
WINDOW_FLOORS = (-9.0, 0.0, 0.1, 0.2, 0.3, 0.5)
WINDOW_TIES = (perceive.WINDOW_TIE,)
WINDOW_RIMS = (perceive.WINDOW_RIM_SHARE,)
"""The `window` curve's values per axis unless `--frees` and the like name others: the axes
one curve does not move stay at the reader's own settings (fixed numbers here had gone stale:
a curve run without them replayed a cost the reader no longer has)."""


def window_curve(
    cache: Path,
    styles: list[str],
    boards: int | None,
    grid_values: dict[str, tuple[float, ...]] | None = None,
) -> None:
    """Per window dot cost (`perceive.WINDOW_FREE_MM` off the card's top line at no cost, then
    one per `WINDOW_SLOPE_MM`), weight of the level a dot stands out at
    (`perceive.WINDOW_LEVEL_WEIGHT`), score floor (`perceive.WINDOW_FLOOR`; -9: none) and
    the lead under which two card tops are a question (`perceive.WINDOW_TIE`): the boards
    whose window is right, asked (null) or wrong, and the boards read entirely right. The
    candidates are found once per board; only the window's choice moves. `grid_values`
    replaces the default values of a dimension (by its short name: levels, floors, ties)."""
    board = load_board()
    axes = {
        "frees": WINDOW_FREES,
        "slopes": WINDOW_SLOPES,
        "levels": WINDOW_LEVELS,
        "floors": WINDOW_FLOORS,
        "ties": WINDOW_TIES,
        "rims": WINDOW_RIMS,
    }
    axes.update(grid_values or {})
    grid = list(itertools.product(*axes.values()))
    table: dict[tuple[float, ...], Counter[str]] = {g: Counter() for g in grid}
    names = (
        "WINDOW_FREE_MM",
        "WINDOW_SLOPE_MM",
        "WINDOW_LEVEL_WEIGHT",
        "WINDOW_FLOOR",
        "WINDOW_TIE",
        "WINDOW_RIM_SHARE",
    )
    before = tuple(getattr(perceive, name) for name in names)
    try:
        for _style, _seed, image, truth, pose in posed_photos(cache, board, styles, boards):
            if pose is None:
                for g in grid:
                    table[g]["unseen"] += 1
                continue
            rect = perceive.rectify(image, board, pose)
            cands, _ = perceive.rescued(rect, perceive.find_candidates(rect, board), board)
            for g in grid:
                for name, value in zip(names, g, strict=True):
                    setattr(perceive, name, value)
                got = perceive.fit(perceive.identify(cands, board), cands, board)
                tally = table[g]
                tally[
                    "right"
                    if got.window == truth.window
                    else "null"
                    if got.window is None
                    else "wrong"
                ] += 1
                tally["exact"] += got.layout_key() == truth.layout_key()
    finally:
        for name, value in zip(names, before, strict=True):
            setattr(perceive, name, value)
    print("free_mm slope_mm level floor tie rim: window right / null / wrong; boards exact")
    for (a, sl, lv, f, tie, rim), t in table.items():
        print(
            f"{a:7.1f} {sl:8.1f} {lv:5.2f} {f:5.2f} {tie:4.2f} {rim:4.2f}: {t['right']:4d} / "
            f"{t['null']:3d} / {t['wrong']:3d}; {t['exact']:4d}"
        )


def hue_curve(
    cache: Path, styles: list[str], boards: int | None, colour: str, hues: list[tuple[int, int]]
) -> None:
    """Per hue range of one sticker colour (`mirror_dot`, `window_dot`, `door_dot`; `--hues
    40-88,36-96`): the boards read entirely right and each miss category of the sweep. The
    photograph is rectified and its candidates found once; only that colour's dots are
    looked for again at each range."""
    from sweep import categories

    board = load_board()
    table: dict[tuple[int, int], Counter[str]] = {h: Counter() for h in hues}
    d = board.dot_diameter_mm
    for _style, _seed, image, truth, pose in posed_photos(cache, board, styles, boards):
        if pose is None:
            for h in hues:
                table[h]["unseen"] += 1
            continue
        rect = perceive.rectify(image, board, pose)
        cands = perceive.find_candidates(rect, board)
        for lo, hi in hues:
            rng = getattr(DEFAULT_STICKERS, colour).model_copy(
                update={"hue_min": lo, "hue_max": hi}
            )
            stickers = DEFAULT_STICKERS.model_copy(update={colour: rng})
            if colour == "mirror_dot":
                found = tuple(dots.find_dots(rect.mirrors, rng, d, perceive.MIRROR_DOT_ELONGATION))
                moved = replace(cands, green=found)
            elif colour == "door_dot":
                moved = replace(cands, orange=tuple(dots.find_dots(rect.doors, rng, d)))
            else:
                magenta = {
                    side: perceive.window_dots(plane, side, board, stickers)
                    for side, plane in rect.cards.items()
                }
                moved = replace(cands, magenta=magenta)
            got = perceive.fit(perceive.identify(moved, board, stickers), moved, board, stickers)
            table[(lo, hi)]["exact"] += got.layout_key() == truth.layout_key()
            table[(lo, hi)].update(categories(truth, got))
    for (lo, hi), t in table.items():
        print(f"{colour} hues {lo}-{hi}: {t['exact']} exact; {dict(t)}")


MODULES = {"perceive": perceive, "dots": dots}


def setting_curve(
    cache: Path,
    styles: list[str],
    boards: int | None,
    name: str,
    values: list[float],
    late: bool = False,
) -> None:
    """Per value of one of the reader's module constants (`--setting dots.OPENING`): the
    boards read entirely right and each miss category of the sweep, the whole reading run
    again for each value; with `late` (a constant only identify and fit read) the
    candidates are found once per photograph and only the last two stages run again."""
    from sweep import categories

    module_name, constant = name.split(".", 1)
    module = MODULES[module_name]
    if not hasattr(module, constant):
        raise SystemExit(f"{name}: no such setting")
    before = getattr(module, constant)
    board = load_board()
    table: dict[float, Counter[str]] = {v: Counter() for v in values}
    try:
        for _style, _seed, image, truth, pose in posed_photos(cache, board, styles, boards):
            cands = None
            if late and pose is not None:
                rect = perceive.rectify(image, board, pose)
                cands, _ = perceive.rescued(rect, perceive.find_candidates(rect, board), board)
            for value in values:
                if pose is None:
                    table[value]["unseen"] += 1
                    continue
                setattr(module, constant, value)
                if cands is None:
                    got = perceive.read_with_pose(image, board, pose)
                else:
                    got = perceive.fit(perceive.identify(cands, board), cands, board)
                table[value]["exact"] += got.layout_key() == truth.layout_key()
                table[value].update(categories(truth, got))
    finally:
        setattr(module, constant, before)
    for value, t in table.items():
        print(f"{name} {value:g}: {t['exact']} exact; {dict(t)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "curve", choices=["door", "mirror_dot", "window_dot", "window", "setting", "hue"]
    )
    ap.add_argument("--setting", help="for `setting`: a reader constant, e.g. dots.OPENING")
    ap.add_argument("--values", default="30,40,50,60", help="value floors of a dot colour")
    ap.add_argument("--colour", default="mirror_dot", help="for `hue`: the sticker colour")
    ap.add_argument("--hues", default="40-88", help="for `hue`: hue ranges, e.g. 40-88,36-96")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/mm_devset"))
    ap.add_argument("--styles", default="house,random")
    ap.add_argument("--boards", type=int, help=f"random boards (default {DEV['random'][1]})")
    ap.add_argument("--show", help="VAL,EDGE,RANK: list the boards whose door is misread there")
    for axis in ("frees", "slopes", "levels", "floors", "ties", "rims"):
        ap.add_argument(f"--{axis}", help=f"for `window`: the {axis} to try (comma-separated)")
    ap.add_argument(
        "--late",
        action="store_true",
        help="for `setting`: the constant is read only by identify and fit (faster)",
    )
    args = ap.parse_args()
    show = None
    if args.show:
        val, edge, rank = args.show.split(",")
        show = (int(val), float(edge), rank)
    styles = args.styles.split(",")
    if args.curve == "door":
        door_curve(args.cache, styles, args.boards, show)
    elif args.curve == "window":
        grid = {
            axis: tuple(float(v) for v in getattr(args, axis).split(","))
            for axis in ("frees", "slopes", "levels", "floors", "ties", "rims")
            if getattr(args, axis)
        }
        window_curve(args.cache, styles, args.boards, grid)
    elif args.curve == "setting":
        if not args.setting:
            ap.error("setting: name the constant with --setting (e.g. dots.OPENING)")
        values = [float(v) for v in args.values.split(",")]
        setting_curve(args.cache, styles, args.boards, args.setting, values, args.late)
    elif args.curve == "hue":
        if args.colour not in ("mirror_dot", "window_dot", "door_dot"):
            ap.error("hue: --colour is mirror_dot, window_dot or door_dot")
        try:
            hues = [(int(a), int(b)) for a, b in (h.split("-") for h in args.hues.split(","))]
        except ValueError:
            ap.error("hue: --hues is a comma-separated list of LO-HI, e.g. 40-88,36-96")
        hue_curve(args.cache, styles, args.boards, args.colour, hues)
    else:
        values = [int(v) for v in args.values.split(",")]
        value_curve(args.cache, styles, args.boards, args.curve, values)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
