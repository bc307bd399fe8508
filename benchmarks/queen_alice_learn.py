"""Queen Alice reader: learn the second opinion on the squares the hand reader asks about
(`vision/second_opinion.py`), from DEVELOPMENT renders only.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_learn.py --train --cache DIR
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_learn.py --curve --cache DIR
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_learn.py --check 0.9 --cache DIR

Renders boards (SEED, i) with the randomised renderer (`vision/render.py`: every design
choice random per box), the `house` family (no arm) and the `random` one (up to two arms),
from the development seeds named in the game's guide (`TRAIN` and `VALIDATE`; never the
held-out painter, never a seed measured fresh). Each board is read by the hand reader with
the second opinion's call site recording, for every square it asks (`second_opinion.
eligible`), the features the model sees (`second_opinion.features`) and the truth from the
renderer (empty, red or white where it stands; a square an arm hides in the render is the
class "hidden" in training, and judged by what stands there in the curve).

- `--train`: fits the model (a one-hidden-layer network in numpy, softmax over empty / red /
  white / hidden: a square an arm hides in the render, which the model must learn never to
  name) on the `TRAIN` draws and writes `models/queen-alice/square_model.json`;
- `--curve`: on the `VALIDATE` draws (not used for training), per bar: the asked squares the
  model would name, named right, named wrong (phantoms, wrong colours, pieces called
  empty), and how many of them lie away from where an arm comes (where asking is a fault);
- `--check BAR`: the same validation boards read whole with the rule off and at BAR, judged as
  `queen_alice_vision.py` judges (entirely right, phantoms, wrong colours, squares asked).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import benchmarks.queen_alice_failures as failures  # noqa: E402
from benchmarks.queen_alice_vision import judge  # noqa: E402
from companion.games.queen_alice.vision import read as reader  # noqa: E402
from companion.games.queen_alice.vision import second_opinion  # noqa: E402
from companion.games.queen_alice.vision.geometry import load_geometry  # noqa: E402
from companion.sim.conditions import Conditions  # noqa: E402
from companion.vision.learnt_net import LearntNet, train  # noqa: E402

TRAIN = ((1505054458, "random", 200), (7435006937, "house", 60))
"""Development draws the model is learnt from (seed, family, boards): mostly with arms, where
the reader asks most (a house board asks about a square in a few)."""
VALIDATE = ((6997932341, "random", 60), (5762143442, "house", 40))
"""Development draws the bar is chosen on (never trained on)."""

HIDDEN = 16
"""The network's hidden units (set by reasoning: a few times the features' count would
overfit a few thousand squares)."""


def conditions(family: str) -> Conditions:
    return Conditions(hands=0) if family == "house" else Conditions()


def collect(seed: int, family: str, boards: int) -> dict[str, np.ndarray]:
    """Per asked square of the draw's boards: features (`x`), truth (`y`: index in
    `second_opinion.NAMES`), hidden by an arm in the render (`hidden`), near an arm in the
    render (`near`: asking there is no fault), the square (`k`) and its board (`board`, an
    index into `context`: the hand reader's calls, what the colours alone told and the
    squares' tones there, for `at_most` after the model names squares)."""
    geom = load_geometry()
    xs: list[np.ndarray] = []
    ys: list[int] = []
    hidden: list[bool] = []
    near: list[bool] = []
    where: list[int] = []
    board: list[int] = []
    context: list[Any] = []
    original = second_opinion.name_asked
    for i in range(boards):
        photo = failures.cached_photo(geom, seed, i, conditions(family))
        got: list[Any] = []

        def record(calls, told, colours, scale, under, known, near_arm, g, bar=None, _got=got):  # type: ignore[no-untyped-def]
            asked = second_opinion.eligible(calls, known)
            x = second_opinion.features(asked, calls, told, colours, scale, under, near_arm, g)
            tone = reader.board_tone(reader.median_along(colours.middle, 1))
            _got.append((asked, x, (list(calls), list(told), tone)))
            return calls

        second_opinion.name_asked = record
        try:
            reader.read_board(photo.image, geom=geom)
        finally:
            second_opinion.name_asked = original
        for asked, x, ctx in got:
            for k, row in zip(asked, x, strict=True):
                cell = geom.cells[k]
                xs.append(row)
                ys.append(second_opinion.NAMES.index(photo.position.squares.get(cell, "empty")))
                hidden.append(cell in photo.truth.unsure)
                near.append(cell in photo.near_arm)
                where.append(k)
                board.append(len(context))
            context.append(ctx)
        print(f"\r{seed} {family}: {i + 1}/{boards}, {len(ys)} asked", end="", file=sys.stderr)
    print(file=sys.stderr)
    width = len(second_opinion.FEATURES)
    ctx_array = np.empty(len(context), object)
    ctx_array[:] = context
    return {
        "x": np.asarray(xs, np.float64).reshape(-1, width),
        "y": np.asarray(ys, int),
        "hidden": np.asarray(hidden, bool),
        "near": np.asarray(near, bool),
        "k": np.asarray(where, int),
        "board": np.asarray(board, int),
        "context": ctx_array,
    }


def stacked(draws: tuple[tuple[int, str, int], ...], most: int) -> dict[str, np.ndarray]:
    """`collect` over the draws, at most `most` boards of each."""
    parts = [collect(seed, family, min(n, most)) for seed, family, n in draws]
    offsets = np.cumsum([0] + [len(p["context"]) for p in parts[:-1]])
    out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0] if k != "board"}
    out["board"] = np.concatenate([p["board"] + o for p, o in zip(parts, offsets, strict=True)])
    return out


def fit(x: np.ndarray, y: np.ndarray, seed: int = 0) -> LearntNet:
    """One network (`learnt_net.train`): 3,000 full-batch Adam steps at rate 0.01, weight
    decay 1e-3, on standardised features."""
    return train(
        x,
        y,
        second_opinion.FEATURES,
        second_opinion.NAMES,
        nets=1,
        hidden=HIDDEN,
        steps=3000,
        rate=0.01,
        decay=1e-3,
        least_spread=1e-6,
        made_by="PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_learn.py --train",
        seed=seed,
    )


BARS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99, 0.995, 0.999)


def curve(model: LearntNet, data: dict[str, np.ndarray]) -> list[dict[str, Any]]:
    """Per bar: asked squares named, right and wrong (phantom / wrong colour / piece called
    empty), and those away from an arm in the render named right (a board's fault undone):
    each board's squares named as `second_opinion.name_asked` names them, then `at_most` as
    the reader does after it (a print named as pieces, more than a box holds, is asked
    again)."""
    geom = load_geometry()
    p = model.probabilities(data["x"])
    y = data["y"]
    hidden_class = second_opinion.NAMES.index("hidden")
    rows = []
    for bar in BARS:
        chosen = second_opinion.choose(p, data["x"], bar)
        named = np.zeros(len(y), bool)
        said = chosen.copy()
        for b, (calls, told, tone) in enumerate(data["context"]):
            at = np.flatnonzero(data["board"] == b)
            out = list(calls)
            for r in at:
                if chosen[r] >= 0:
                    out[data["k"][r]] = (second_opinion.NAMES[chosen[r]], float(p[r, chosen[r]]))
            out = reader.at_most(told, out, geom.pieces_per_colour, tone)
            for r in at:
                v = out[data["k"][r]][0]
                if v in second_opinion.NAMES[:hidden_class]:
                    named[r] = True
                    said[r] = second_opinion.NAMES.index(v)
        right = named & (said == y)
        wrong = named & (said != y)
        rows.append(
            {
                "bar": bar,
                "asked": len(y),
                "named": int(named.sum()),
                "right": int(right.sum()),
                "right_away_from_arms": int((right & ~data["near"]).sum()),
                "wrong": int(wrong.sum()),
                "phantoms": int((wrong & (y == 0)).sum()),
                "wrong_colour": int((wrong & (y > 0) & (said > 0)).sum()),
                "piece_called_empty": int((wrong & (y > 0) & (said == 0)).sum()),
                "wrong_hidden": int((wrong & data["hidden"]).sum()),
            }
        )
    return rows


def check(bar: float, most: int) -> list[dict[str, Any]]:
    """The validation boards (at most `most` of each draw) read whole with the rule off and
    at `bar`."""
    geom = load_geometry()
    out = []
    for seed, family, n in VALIDATE:
        boards = min(n, most)
        counts = {
            name: dict.fromkeys(("right", "phantoms", "wrong_colour", "missed", "asked"), 0)
            for name in ("off", "on")
        }
        changed = []
        for i in range(boards):
            photo = failures.cached_photo(geom, seed, i, conditions(family))
            verdicts = {}
            for name, on in (("off", False), ("on", True)):
                second_opinion.ON, second_opinion.BAR = on, bar
                reading = reader.read_board(photo.image, geom=geom)
                v = judge(reading, photo.truth, photo.near_arm, photo.position, geom.cells)
                verdicts[name] = v
                c = counts[name]
                c["right"] += v["right"]
                c["phantoms"] += v["phantoms"]
                c["asked"] += v["abstained"]
                for _, want, got in v["squares_wrong"]:
                    c["wrong_colour"] += want != "empty" and got not in ("empty", "unsure", want)
                    c["missed"] += want != "empty" and got == "empty"
            if verdicts["off"]["right"] != verdicts["on"]["right"]:
                changed.append([i, verdicts["off"]["right"], verdicts["on"]["right"]])
        second_opinion.ON = False
        out.append(
            {"seed": seed, "family": family, "boards": boards, **counts, "right_changed": changed}
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train", action="store_true")
    parser.add_argument("--curve", action="store_true")
    parser.add_argument("--check", type=float, default=None, metavar="BAR")
    parser.add_argument("--boards", type=int, default=1000, help="at most this many a draw")
    parser.add_argument("--cache", type=Path, default=None, help="keep the renders here")
    args = parser.parse_args()
    failures.CACHE = args.cache
    if args.train:
        data = stacked(TRAIN, args.boards)
        target = np.where(data["hidden"], second_opinion.NAMES.index("hidden"), data["y"])
        model = fit(data["x"], target)
        model.save(ROOT / "models" / second_opinion.MODEL_FILE)
        second_opinion.model.cache_clear()
        counts = np.bincount(target, minlength=len(second_opinion.NAMES)).tolist()
        print(json.dumps({"trained_on": len(target), "by_class": counts}))
    if args.curve:
        learnt = second_opinion.model()
        assert learnt is not None, "no model: --train first"
        data = stacked(VALIDATE, args.boards)
        for row in curve(learnt, data):
            print(json.dumps(row))
    if args.check is not None:
        for row in check(args.check, args.boards):
            print(json.dumps(row))


if __name__ == "__main__":
    main()
