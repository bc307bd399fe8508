"""Reflecto reader: the learnt second opinion's data, training and curve, on DEVELOPMENT boards.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_learn.py collect \\
        --family house:DEVSEED:0 --family random:DEVSEED2:0 --boards 60 --out /tmp/train.npz
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_learn.py train /tmp/train.npz \\
        --out models/reflecto/square_model.json
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_learn.py collect \\
        --family house:DEVSEED3:0 --family random:DEVSEED4:0 --boards 30 --out /tmp/val.npz
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_learn.py curve /tmp/val.npz
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_learn.py asked /tmp/val.npz
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_learn.py silent /tmp/val.npz

`collect` renders each family's boards (`house` without arms, `random` with them; seeds
(DEVSEED, i), development families named in docs/reflecto.md: never the held-out painter,
never a seed a benchmark reports), learns the colours from the set-up photograph and the
print from the empty board's photograph as `benchmarks/reflecto_vision.py --mode board`
does, reads each board with the hand reader alone (`second_opinion.SECOND_OPINION` off), and
stores per square the feature row the model sees (`read.square_features`, every square
judged against the print), the truth (no screen, the oriented seat's, the other's) and the
reader's call. `train` fits the model (`second_opinion.trained`) and saves it. `curve`
applies a saved model to a collection NOT used to train it and prints, per candidate bar,
what the rule would make of the squares the reader asks about (screens named right, named
the other seat's, empty squares named a screen) and of the squares it calls empty silently
(`read.SILENT`: screens asked instead of missed, empty squares asked): the curve
`second_opinion.NAME_BAR` and `ASK_BAR` are read off. `asked` lists what the reader as landed
asks about on a collection (the hand reader's questions and the second opinion's), by the
reason that asked, screens against empty squares: the largest class of questions (refl32).
`silent` lists the screens the reader as landed still calls empty without a word ("no
colour", "print unchanged") with what is measured of them, and the curves a rule asking such
squares is read off (refl33: `read.NO_COLOUR_CHANGED`). A collection stores the calls of the
reader at its commit: one made with `read.NO_COLOUR_ASK` on holds its questions already.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.reflecto.vision import read  # noqa: E402
from companion.games.reflecto.vision import second_opinion as opinion  # noqa: E402
from companion.games.reflecto.vision.board_print import learn_print  # noqa: E402
from companion.games.reflecto.vision.geometry import load_geometry  # noqa: E402
from companion.games.reflecto.vision.render import render_photo  # noqa: E402
from companion.sim.conditions import Conditions  # noqa: E402
from companion.vision.learnt_net import model_file  # noqa: E402

BARS = (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999)


def collect(families: list[tuple[str, int, int]], boards: int, out: Path) -> None:
    geom = load_geometry()
    opinion.SECOND_OPINION = False  # the hand reader's own calls
    rows, labels, seats, whys, owners, unclear, board_ids = [], [], [], [], [], [], []
    for which, seed, first in families:
        conditions = Conditions(hands=0) if which == "house" else Conditions()
        for i in range(first, first + boards):
            photo = render_photo(geom, (seed, i), conditions, setup=True, board=True)
            if photo.setup is None or photo.board is None:
                continue
            rect_setup, rect = read.rectify(photo.setup, geom), read.rectify(photo.image, geom)
            if rect_setup is None or rect is None:
                continue
            colours = read.learn_at_setup(rect_setup, geom)
            taught = learn_print(photo.board, geom)
            if colours.problems() or taught is None or not taught.any_known:
                continue
            calls = read.classify(rect, geom, colours, taught)
            ev = read.evidence(rect, geom, colours, (read.FLOOR, read.FAINT_FLOOR))
            full, faint = read.shares_at(rect, geom, colours, ev)
            changes = read.print_changes(rect, geom, ev, taught)
            idx = list(range(len(geom.cells)))
            feats, ks = read.square_features(rect, geom, colours, ev, (full, faint), changes, idx)
            truth = dict(photo.truth.layout_key())
            for j, (cell, k, call) in enumerate(zip(geom.cells, ks, calls, strict=True)):
                t = truth.get(cell)
                labels.append(
                    opinion.EMPTY if t is None else opinion.THIS if t == k else opinion.OTHER
                )
                rows.append(feats[j])
                seats.append(k)
                whys.append(call.why)
                owners.append(-1 if call.owner is None else call.owner)
                unclear.append(call.unclear)
                board_ids.append(f"{which}:{seed}:{i}")
            print(f"{which} {i}: {len(rows)} squares", flush=True)
    np.savez(
        out,
        rows=np.array(rows, np.float32),
        labels=np.array(labels, np.int32),
        seats=np.array(seats, np.int32),
        whys=np.array(whys),
        owners=np.array(owners, np.int32),
        unclear=np.array(unclear, bool),
        boards=np.array(board_ids),
    )


def _load(paths: list[Path]) -> dict[str, np.ndarray]:
    parts = [dict(np.load(p)) for p in paths]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def train(paths: list[Path], out: Path) -> None:
    data = _load(paths)
    made_by = (
        "benchmarks/reflecto_learn.py train on the development collections docs/reflecto.md "
        "names (`reflecto_learn.py collect`); do not edit by hand: train again"
    )
    model = opinion.trained(data["rows"], data["labels"], made_by)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    print(f"{len(data['rows'])} squares, classes {np.bincount(data['labels'], minlength=3)}")
    p = model.probabilities(data["rows"])
    print(f"training accuracy {(p.argmax(axis=1) == data['labels']).mean():.4f}")


def _scored(
    paths: list[Path], model: Path | None
) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray]:
    """The collections in `paths`, the model's votes on their rows (`model`, else the landed
    model file), which squares the reader called empty silently and which are screens."""
    data = _load(paths)
    path = model or model_file(opinion.MODEL_FILE)
    assert path is not None, "no model file"
    votes = opinion.LearntNet.load(path, opinion.FEATURES).probabilities(data["rows"])
    asked = data["unclear"]
    silent = np.isin(data["whys"], read.SILENT) & (data["owners"] < 0) & ~asked
    return data, votes, silent, data["labels"] != opinion.EMPTY


def curve(paths: list[Path], model: Path | None) -> None:
    data, votes, silent, screen = _scored(paths, model)
    labels, asked = data["labels"], data["unclear"]
    print(
        f"{len(labels)} squares on {len(set(data['boards']))} boards; asked {asked.sum()} "
        f"({(asked & screen).sum()} screens), silent empty calls {silent.sum()} "
        f"({(silent & screen).sum()} screens)"
    )
    print(
        "asked squares named by the model: bar: screens named right / named the other seat / "
        "empty named a screen (boards with a wrong name)"
    )
    for bar in BARS:
        named_this = asked & (votes[:, opinion.THIS] >= bar)
        named_other = asked & (votes[:, opinion.OTHER] >= bar) & ~named_this
        right = (named_this & (labels == opinion.THIS)) | (named_other & (labels == opinion.OTHER))
        swapped = (named_this & (labels == opinion.OTHER)) | (
            named_other & (labels == opinion.THIS)
        )
        phantom = (named_this | named_other) & (labels == opinion.EMPTY)
        wrong_boards = len(set(data["boards"][swapped | phantom]))
        print(f"  {bar:.2f}: {right.sum()} / {swapped.sum()} / {phantom.sum()} ({wrong_boards})")
    print("silent empty calls asked: bar: screens asked / empty squares asked")
    for bar in BARS:
        ask = silent & (votes[:, opinion.THIS] + votes[:, opinion.OTHER] >= bar)
        print(f"  {bar:.2f}: {(ask & screen).sum()} / {(ask & ~screen).sum()}")
    # The asked screens by the reader's reason, and the top vote they got.
    print("asked screens by reason: reason: count, model's best screen vote quantiles")
    for why in sorted(set(data["whys"][asked & screen])):
        at = asked & screen & (data["whys"] == why)
        best = votes[at][:, 1:].max(axis=1)
        print(f"  {why}: {at.sum()}, {np.round(np.quantile(best, (0, 0.25, 0.5, 0.75, 1)), 2)}")
    at = asked & ~screen
    if at.any():
        best = votes[at][:, 1:].max(axis=1)
        print(
            f"asked empty squares: {at.sum()}, best screen vote quantiles "
            f"{np.round(np.quantile(best, (0, 0.5, 0.9, 0.99, 1)), 2)}"
        )


def asked(paths: list[Path], model: Path | None) -> None:
    """Every square the reader as landed asks about, by the reason that asked, with the
    truth (a screen or an empty square): the hand reader's questions (the collection's
    calls) and the silent empty calls the second opinion asks about (`worth_a_look`, then
    the model at `ASK_BAR`); then the screens still missed silently, by reason, and the
    boards with a question or a wrong call. Which class of question to take on next."""
    data, votes, silent, screen = _scored(paths, model)
    left, _ = still_silent(data, votes, silent)
    by_model = silent & ~left
    ask = data["unclear"] | by_model
    why = np.where(by_model, "second opinion: ask", data["whys"])
    print(
        f"{len(ask)} squares on {len(set(data['boards']))} boards: asked {ask.sum()} "
        f"({(ask & screen).sum()} screens, {(ask & ~screen).sum()} empty squares)"
    )
    print("asked by: screens / empty squares (boards with such a question)")
    for w in sorted(set(why[ask]), key=lambda w: -int((ask & (why == w)).sum())):
        at = ask & (why == w)
        print(
            f"  {w:30s} {(at & screen).sum():3d} / {(at & ~screen).sum():3d} "
            f"({len(set(data['boards'][at]))})"
        )
    missed = silent & ~by_model & screen
    print("screens missed silently by:")
    for w in sorted(set(why[missed])):
        print(f"  {w:30s} {(missed & (why == w)).sum():3d}")
    wrong = (data["owners"] >= 0) & ~screen
    print(f"empty squares called a screen: {wrong.sum()}")


LISTED = (
    "share_this",
    "share_other",
    "faint_this",
    "faint_other",
    "changed",
    "changed_this",
    "changed_other",
    "beside_this",
    "moved",
    "print_close",
    "strength",
    "hue_this",
    "brightness",
)
"""The measures `silent` lists per silent miss (`second_opinion.FEATURES`)."""


def still_silent(
    data: dict[str, np.ndarray], votes: np.ndarray, silent: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Of the silent empty calls (`read.SILENT`), those the second opinion leaves silent
    (`worth_a_look` fails, or the model's screen vote is under `ASK_BAR`), and which of them
    pass stage one (`worth_a_look`)."""
    col = {f: data["rows"][:, i] for i, f in enumerate(opinion.FEATURES)}
    look = np.array(
        [
            opinion.worth_a_look((a, b), (c, d), e)
            for a, b, c, d, e in zip(
                col["share_this"],
                col["share_other"],
                col["faint_this"],
                col["faint_other"],
                col["brightness"],
                strict=True,
            )
        ],
        bool,
    )
    asked_by_model = look & (votes[:, opinion.THIS] + votes[:, opinion.OTHER] >= opinion.ASK_BAR)
    return silent & ~asked_by_model, look


SILENT_CUTS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def silent(paths: list[Path], model: Path | None) -> None:
    """The screens the reader as landed calls empty without a word (refl33): each one with
    what is measured of it (`LISTED`: its colour per seat at both floors, its change against
    the empty board's print and that change's colour, the board round it changed (a hand
    nearby), the print test's close share, its strip's strength, hue and brightness (glare))
    and the model's screen vote; then, per candidate measure and cut, how many of them a rule
    asking the silent squares at or over the cut would catch against the empty squares it
    would ask (the curve a rule is read off)."""
    data, votes, silent_calls, screen = _scored(paths, model)
    left, look = still_silent(data, votes, silent_calls)
    col = {f: data["rows"][:, i] for i, f in enumerate(opinion.FEATURES)}
    vote = votes[:, opinion.THIS] + votes[:, opinion.OTHER]
    n_boards = len(set(data["boards"]))
    miss = left & screen
    print(
        f"{n_boards} boards; silent empty calls left by the second opinion {left.sum()}, "
        f"{miss.sum()} of them screens: "
        + ", ".join(f"{w} {(miss & (data['whys'] == w)).sum()}" for w in read.SILENT)
    )
    print("board why truth " + " ".join(f[:9].rjust(9) for f in LISTED) + "      vote look")
    for j in np.flatnonzero(miss):
        truth = "this" if data["labels"][j] == opinion.THIS else "other"
        print(
            f"{data['boards'][j]} {data['whys'][j]} {truth} "
            + " ".join(f"{col[f][j]:9.3f}" for f in LISTED)
            + f" {vote[j]:9.3f} {bool(look[j])}"
        )
    print("rule: cut: silent screens asked / empty squares asked (a board) among the silent left")
    candidates = {
        "the model's vote (no stage one)": vote,
        "changed": col["changed"],
        "changed into a seat's colour": np.maximum(col["changed_this"], col["changed_other"]),
        "strength": col["strength"],
    }
    for why in ("no colour", "print unchanged"):
        at = left & (data["whys"] == why)
        print(f"  '{why}' ({(at & screen).sum()} screens, {(at & ~screen).sum()} empty)")
        for name, score in candidates.items():
            cells = []
            for cut in SILENT_CUTS:
                ask = at & (score >= cut)
                cells.append(
                    f"{cut:.1f}: {(ask & screen).sum()} / {(ask & ~screen).sum()} "
                    f"({(ask & ~screen).sum() / n_boards:.2f})"
                )
            print(f"    {name}: " + "; ".join(cells))


CHEAP = {
    "colour": ("share_this", "share_other"),
    "faint trace": ("faint_this", "faint_other"),
    "colour or trace": ("share_this", "share_other", "faint_this", "faint_other"),
    "strength": ("strength",),
    "brightness": ("brightness",),
    "hue": ("hue_this", "hue_other"),
}
"""The cheap scores `prefilter` tries: per square, the greatest of these features (each
known before the square's change against the print and its print test are taken)."""
CUTS = (0.0, 0.01, 0.02, 0.03, 0.05, 0.08, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def prefilter(paths: list[Path], model: Path | None) -> None:
    """The curve a stage-one filter is read off (`second_opinion.ASK_FROM`): per cheap
    score (`CHEAP`) and cut, of the silent empty calls (`read.SILENT`) the model would ask
    about (`ASK_BAR`), how many the filter keeps (screens / empty squares), and how many
    silent squares a board it passes on to the costly features (the change against the
    print and the print test)."""
    data, votes, silent, screen = _scored(paths, model)
    ask = silent & (votes[:, opinion.THIS] + votes[:, opinion.OTHER] >= opinion.ASK_BAR)
    n_boards = len(set(data["boards"]))
    print(
        f"{n_boards} boards, {silent.sum()} silent empty calls ({(silent & screen).sum()} "
        f"screens); asked at ASK_BAR {opinion.ASK_BAR}: {(ask & screen).sum()} screens, "
        f"{(ask & ~screen).sum()} empty"
    )
    print("score: cut: asked screens kept / asked empty kept / silent squares passed a board")
    for name, feats in CHEAP.items():
        cols = [opinion.FEATURES.index(f) for f in feats]
        score = data["rows"][:, cols].max(axis=1)
        print(f"  {name}")
        for cut in CUTS:
            keep = score >= cut
            print(
                f"    {cut:.2f}: {(ask & screen & keep).sum()} / {(ask & ~screen & keep).sum()}"
                f" / {(silent & keep).sum() / n_boards:.1f}"
            )
        for why in read.SILENT:
            at = ask & (data["whys"] == why)
            if at.any():
                print(f"    asked '{why}': lowest score {score[at].min():.3f}")
    # Both at once, as `second_opinion.worth_a_look` takes them.
    bright = data["rows"][:, opinion.FEATURES.index("brightness")]
    cols = [opinion.FEATURES.index(f) for f in CHEAP["colour or trace"]]
    trace = data["rows"][:, cols].max(axis=1)
    print("brightness and colour or trace: cuts: asked screens kept / asked empty kept / passed")
    for b in (0.45, 0.5, 0.55, 0.6):
        for t in (0.0, 0.005, 0.01, 0.02, 0.05):
            keep = (bright >= b) & (trace >= t)
            print(
                f"    {b:.2f}, {t:.3f}: {(ask & screen & keep).sum()} / "
                f"{(ask & ~screen & keep).sum()} / {(silent & keep).sum() / n_boards:.1f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--family", action="append", required=True, help="house|random:SEED:FIRST")
    c.add_argument("--boards", type=int, default=30)
    c.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("train")
    t.add_argument("data", type=Path, nargs="+")
    t.add_argument("--out", type=Path, default=ROOT / "models" / opinion.MODEL_FILE)
    v = sub.add_parser("curve")
    v.add_argument("data", type=Path, nargs="+")
    v.add_argument("--model", type=Path, default=None)
    a = sub.add_parser("asked")
    a.add_argument("data", type=Path, nargs="+")
    a.add_argument("--model", type=Path, default=None)
    sl = sub.add_parser("silent")
    sl.add_argument("data", type=Path, nargs="+")
    sl.add_argument("--model", type=Path, default=None)
    f = sub.add_parser("prefilter")
    f.add_argument("data", type=Path, nargs="+")
    f.add_argument("--model", type=Path, default=None)
    args = parser.parse_args()
    if args.command == "collect":
        families = []
        for f in args.family:
            which, seed, *first = f.split(":")
            assert which in ("house", "random"), "development renderer families only"
            families.append((which, int(seed), int(first[0]) if first else 0))
        collect(families, args.boards, args.out)
    elif args.command == "train":
        train(args.data, args.out)
    elif args.command == "asked":
        asked(args.data, args.model)
    elif args.command == "silent":
        silent(args.data, args.model)
    elif args.command == "prefilter":
        prefilter(args.data, args.model)
    else:
        curve(args.data, args.model)


if __name__ == "__main__":
    main()
