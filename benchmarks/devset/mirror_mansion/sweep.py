"""Mirror Mansion development sweep: the reader on the development boards, by miss category.

    .venv/bin/python benchmarks/devset/mirror_mansion/sweep.py              # read, tally
    .venv/bin/python benchmarks/devset/mirror_mansion/sweep.py --save ref.json
    .venv/bin/python benchmarks/devset/mirror_mansion/sweep.py --against ref.json

Development seeds only (the bases in `DEV`): a seed measured as fresh never comes here. The
photographs are rendered once into `--cache` (default /tmp/mm_devset) and read from there,
so a sweep after a reader change costs only the reading. `--save` keeps each board's reading,
`--against` lists the boards whose reading changed since (the "no reading changes" check of a
speed-up). The held-out painter is never part of development.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from companion.games.mirror_mansion.rules.board import load_board  # noqa: E402
from companion.games.mirror_mansion.vision.perceive import read_box  # noqa: E402
from companion.games.mirror_mansion.vision.render import Conditions, render_photo  # noqa: E402
from companion.games.mirror_mansion.vision.scene import BoxState  # noqa: E402

DEV = {
    "house": (9300, 40),
    "random": (9301, 120),
    "wide": (527370866, 300),
    "wide2": (642164755, 300),
    "wide3": (245229144, 300),
    "wide4": (413555804, 300),
    "wide5": (676471932, 300),
    "wide6": (394815462, 300),
    "wide7": (640568222, 300),
    "wide8": (1983404123, 300),
    "wide9": (5142772923, 300),
    "wide10": (5177240693, 300),
    "wide11": (9971764963, 150),
    "wide12": (3543239335, 300),
    "wide13": (3276445048, 300),
    "wide14": (9646545688, 300),
    "wide15": (2464814885, 150),
    "wide16": (7123144785, 150),
    "wide17": (2293975345, 150),
    "wide18": (7849771457, 300),
    "wide19": (8278305954, 150),
    "wide20": (9665188059, 150),
    "wide21": (3806564916, 150),
    "wide22": (4378886859, 150),
    "wide23": (6168478870, 300),
    "wide24": (3086828306, 200),
    "wide25": (1210903346, 200),
    "wide26": (1736372862, 200),
    "wide27": (6663187445, 200),
    "wide28": (7781071654, 200),
    "wide29": (8225489502, 200),
    "wide30": (3947182116, 200),
    "wide31": (7185026680, 200),
}
"""Development sets: seed base and how many boards (seeds (base, 0..n-1)). `wide` is more of
the random style under another base, drawn when the first 120 had become too easy to show
why a piece fails (it missed 1 door in 112): development seeds from then on, never fresh.
`wide2` is 300 more under a newly drawn base, drawn when `wide`'s misses (25 boards) were too
few to rank causes by: development seeds from then on too. `wide3`, 300 more under another
new base, was drawn to find every wrong window left (issue 37's first goal): development
seeds from then on. `wide4`, 300 more under another new base, was drawn to find the phantom
mirror and the wrong windows a fresh run still showed, and what misses boards most now:
development seeds from then on. `wide5`, 300 more under another new base, was drawn to find
the wrong windows (2 % of a fresh random run) and the stickers not found that the 1360
before had become too few to show: development seeds from then on. `wide6`, 300 more under
another new base, was drawn on a new machine (the cache of the others gone) to find the
wrong windows, the pale or small green dots lost and the doors a fresh run still missed:
development seeds from then on. `wide7`, 300 more under another new base, was drawn to find
the phantom mirrors and wrong mirrors of random boxes that a fresh run still showed (3
phantoms and 7 mirrors wrong in 100 boxes): development seeds from then on. `wide8`, 300 more
under another new base, was drawn to judge stickers against their surroundings (the phantom
door of a house box, held-out windows wrong) on boards no reader was tuned on: development
seeds from then on. `wide9`, 300 more under another new base, was drawn to find the
stickers the colour search still misses and the windows asked (its first 150 were read):
development seeds from then on. `wide10`, 300 more under another new base, was drawn to find
what makes a window confidently wrong and where a phantom mirror comes from (one each in a
fresh random run): development seeds from then on. `wide11`, 150 more under another new base,
was drawn to rank the boards lost and the windows asked on random boxes by cause (a fresh
random run still read 95 to 97 % of boards, the rest mostly asked): development seeds from
then on. `wide12`, 300 more under another new base, was drawn to rank again by cause the
boards lost and windows asked on random boxes (a fresh random run read 95 %), on boards no
reader was tuned on: development seeds from then on. `wide13`, 300 more under another new
base, was drawn to find a slot's top edge that does not lean on the ground plane and to rank
the boards lost, windows asked and wrong facings of random boxes by cause (a fresh random run
read 96 %, one facing confidently wrong): development seeds from then on. `wide14`, 300 more
under another new base, was drawn to find the facings asked when two green dots of one
crossing disagree (the largest class of boards lost on a fresh random run) on boards no
reader was tuned on: development seeds from then on. `wide15`, 150 more under another new
base, was drawn when the random style's mirror tops were widened (2 to 9 mm thick, centred
in the slot or with the reflective face on its line and the top behind it), to rank by cause
what such tops cost: development seeds from then on. `wide16`, 150 more under another new
base, was drawn to find what makes a facing confidently wrong on random boxes (two on one box
of a fresh random run at mm27) and the largest class of random boxes missed: development seeds
from then on. `wide17`, 150 more under another new base, was drawn to classify the random
boxes lost to mirrors asked and facings read wrong (a fresh random run read 19 and 21 of 40)
on boards no reader was tuned on, after mm29's outvoting by the top was reverted: development
seeds from then on. `wide18`, 300 more under another new base, was drawn to find the facings
a top's near half reads wrong against its line (mm30's outvoting read none of 39 wrong on
`wide16` and `wide17` but 2 of 7 on fresh boxes): development seeds from then on. `wide19`,
150 more under another new base, was drawn to classify the facings asked because of the
mirror's own top by cues independent of the strip found (issue 37, mm33): development seeds
from then on. `wide20`, 150 more under another new base, was drawn to classify the facings
read wrong from a strip that is the slot's own print rather than the mirror's top (class (a)
of `wide18`), on boards no reader was tuned on: development seeds from then on. `wide21`, 150
more under another new base, was drawn to find whether the colour of a box's tops read surely
names the near-half facings its own top left asked (issue 37, mm36) on boards no reader was
tuned on: development seeds from then on. `wide22`, 150 more under another new base, was drawn
to list every confidently wrong mirror of random boxes by the test that named it (`wrong.py`,
issue 37, mm37) on boards no reader was tuned on: development seeds from then on. `wide23`, 300
more under another new base, was drawn because fresh random boxes read twice as many mirrors
confidently wrong as `wide17` to `wide22` did (issue 37, mm39): to list those mirrors by the
test that named them on more boards no reader was tuned on; development seeds from then on.
`wide24`, 200 more under another new base, was drawn to list every mirror of random boxes
left asked by the test that declined it (`asked.py`, issue 37, mm40) and to place a bar for
naming the largest class on boards no reader was tuned on: development seeds from then on.
`wide25`, 200 more under another new base, was drawn to find more of the near-half facings
a top names against its clear line that would be named wrong (3 of 61 on `wide17` to
`wide24`), to place a bar for naming that class (`asked.py`, issue 37, mm44) on boards no
reader was tuned on: development seeds from then on.
`wide26`, 200 more under another new base, was drawn to find more of the mirrors asked with
the dot near its top's middle (`asked.py`'s `top middle`, issue 37, mm45) that naming would
get wrong (4 in 40 on `wide17` to `wide24`): development seeds from then on.
`wide27`, 200 more under another new base, was drawn to find more of the facings
`perceive.FACE_REFLECTS` names wrong that its guard (`perceive.FACE_GUARD`) does not ask (0 on
`wide17` to `wide22`, `wide24` and `wide26` at 7.0, 1 in 320 fresh random boxes; issue 37,
mm48): development seeds from then on.
`wide28`, 200 more under another new base, was drawn to find more of the mirrors asked because
the strip may be the slot's print (`asked.py`'s `top print`, issue 37, mm49) and of the
near-half facings asked with no band beside the top, that naming would get wrong: development
seeds from then on.
`wide29`, `wide30` and `wide31`, 200 more each under other new bases, were drawn to find
near-half facings asked with no band beside the top (`asked.py`'s `top against line, near
half` with `band` unknown, issue 37, mm51) that naming would get wrong: all 58 on `wide17` to
`wide28` were right, yet fresh boxes had shown such facings wrong when near halves outvoted
the line: development seeds from then on."""
STYLE = {
    "wide": "random",
    "wide2": "random",
    "wide3": "random",
    "wide4": "random",
    "wide5": "random",
    "wide6": "random",
    "wide7": "random",
    "wide8": "random",
    "wide9": "random",
    "wide10": "random",
    "wide11": "random",
    "wide12": "random",
    "wide13": "random",
    "wide14": "random",
    "wide15": "random",
    "wide16": "random",
    "wide17": "random",
    "wide18": "random",
    "wide19": "random",
    "wide20": "random",
    "wide21": "random",
    "wide22": "random",
    "wide23": "random",
    "wide24": "random",
    "wide25": "random",
    "wide26": "random",
    "wide27": "random",
    "wide28": "random",
    "wide29": "random",
    "wide30": "random",
    "wide31": "random",
}
"""The renderer style of a set not named after its style."""


def style_of(name: str) -> str:
    return STYLE.get(name, name)


def photos(cache: Path, board, style: str, boards: int | None = None):
    """(seed, image, truth) of a development set's boards (`DEV`), rendered on first use;
    `boards` reads more (or fewer) of the set's base."""
    base, n = DEV[style]
    n = n if boards is None else boards
    cache.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        img_path, truth_path = cache / f"{style}_{base}_{i}.png", cache / f"{style}_{base}_{i}.json"
        if not img_path.exists():
            photo = render_photo(board, (base, i), Conditions(style=style_of(style)))
            cv2.imwrite(str(img_path), photo.image)
            truth_path.write_text(json.dumps(photo.truth.to_json()))
        truth = BoxState.from_json(json.loads(truth_path.read_text()))
        yield (base, i), cv2.imread(str(img_path)), truth


def staged(cache: Path, board, styles: str):
    """Each development board of `styles` (comma-separated sets, `SET:N` for its first N) taken
    through the reader's first stages, as the tools that look inside it need them: (style,
    seed, image, truth, rectified box, candidates, identification); a board whose markers give
    no pose is left out."""
    from companion.games.mirror_mansion.vision import perceive
    from companion.vision.board_pose import estimate_pose

    for spec in styles.split(","):
        style, _, first = spec.partition(":")
        for seed, image, truth in photos(cache, board, style, int(first) if first else None):
            found = perceive.find_board_markers(image, board)
            pose = estimate_pose(found, board, (image.shape[1], image.shape[0]), None)
            if pose is None:
                continue
            rect = perceive.rectify(image, board, pose)
            cands, ident = perceive.rescued(rect, perceive.find_candidates(rect, board), board)
            yield style, seed, image, truth, rect, cands, ident


def categories(truth: BoxState, got: BoxState) -> list[str]:
    """What is wrong with a reading, one word each."""
    out = []
    for m in truth.mirrors:
        seen = got.mirror_at(m.cell)
        if seen is None:
            out.append("mirror_missed")
        elif not seen.slot_sure:
            out.append("mirror_slot_asked")
        elif seen.slot != m.slot:
            out.append("mirror_slot")
        elif seen.facing is None:
            out.append("mirror_facing_null")
        elif seen.facing != m.facing:
            out.append("mirror_facing_wrong")
    cells = {m.cell for m in truth.mirrors}
    out += ["mirror_phantom" for m in got.mirrors if m.cell not in cells]
    if got.window != truth.window:
        out.append("window_null" if got.window is None else "window_wrong")
    if got.door != truth.door:
        out.append(
            "door_missed"
            if got.door is None
            else "door_phantom"
            if truth.door is None
            else "door_wrong"
        )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", type=Path, default=Path("/tmp/mm_devset"))
    ap.add_argument("--styles", default="house,random")
    ap.add_argument("--boards", type=int, help="random boards (more of the same base)")
    ap.add_argument("--save", type=Path, help="write each board's reading here")
    ap.add_argument("--against", type=Path, help="list boards read otherwise than here")
    args = ap.parse_args()
    board = load_board()
    readings: dict[str, dict] = {}
    for spec in args.styles.split(","):
        # A set written `wide12:150` is read for its first 150 boards (as in failures.py).
        style, _, first = spec.partition(":")
        tally: Counter[str] = Counter()
        exact = 0
        n = args.boards if args.boards is not None and style == "random" else DEV[style][1]
        n = int(first) if first else n
        for seed, image, truth in photos(args.cache, board, style, n):
            got = read_box(image, board)
            readings[f"{style} {seed[0]} {seed[1]}"] = got.to_json()
            cats = categories(truth, got)
            exact += got.layout_key() == truth.layout_key()
            tally.update(cats)
            if cats:
                print(f"  {style} {seed}: {', '.join(cats)}")
        print(f"{style}: {exact}/{n} exact; misses {dict(tally)}", flush=True)
    if args.save:
        args.save.write_text(json.dumps(readings, indent=0))
    if args.against:
        old = json.loads(args.against.read_text())
        changed = [k for k, v in readings.items() if k in old and old[k] != v]
        print(f"{len(changed)} of {len(readings)} readings changed: {changed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
