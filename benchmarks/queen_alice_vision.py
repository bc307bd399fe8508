"""Queen Alice at the table: how well and how fast the companion reads the Central board.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_vision.py --part recognition \\
        --set random --boards 500            # fresh seed drawn and printed
    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_vision.py --part speed --frames 30

- recognition, three sets reported apart:
  - `house`: the renderer (`vision/render.py`, every design choice random per box) with no
    arms over the board (half the boxes drawn wider, `render.Wider`: counted apart as
    `wider_boxes`, the rest drawn exactly as before that style was added);
  - `random`: the same with up to two arms over any part of the board;
  - `heldout`: `benchmarks/heldout/queen_alice.py`, a painter the reader was never tuned on.
  `--against REF` also reads each picture alone with the reader of commit REF (its own
  section), so a change is measured against main on the very same images, and lists the
  boards where this reader has a fault REF's has not (`boards_with_new_faults`).
  Seeds are (SEED, i) with SEED drawn fresh for each run unless given (then it must be one
  never used in development). A board is "entirely right" when every square no arm comes
  near is read right (empty, red or white), every square an arm comes near is read right or
  called unsure, the Crowns left and both Alice tokens are right (or None where an arm is
  over them in the truth, which the reader may also get right). A phantom is a piece read on
  a square where none stands.
- same: reads each board of a set (`--set`, `--seed`, `--boards`) with this reader and the
  reader of `--against REF`, each picture alone and (`--mode both`) with its empty board
  learnt, and lists every board whose readings differ in anything (squares, unsure,
  Crowns, Alice, confidences, warnings): a change meant to leave the readings alone, such as
  a faster stage, is checked bit for bit on a development set.
- speed: on one core (cv2.setNumThreads(1)), 1280x960 renders: `read_board` per frame
  against the bare `ArucoDetector.detectMarkers` on the same frames, with per-stage medians;
  `--against REF` also times the reader (`vision/read.py`) of a git commit, frame by frame
  in turn with this one in the same process, so a load that comes and goes hits both.

Numbers go to benchmarks/results/queen_alice_vision.json (sections merged, so parts can be
re-run alone).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import secrets
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.heldout.queen_alice import paint, paint_empty  # noqa: E402
from companion.games.queen_alice.vision import read as reader  # noqa: E402
from companion.games.queen_alice.vision.geometry import load_geometry  # noqa: E402
from companion.games.queen_alice.vision.render import (  # noqa: E402
    Conditions,
    render_empty,
    render_photo,
)
from companion.vision.markers import detect_markers, detector, to_gray  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "queen_alice_vision.json"


def judge(
    reading: reader.BoardReading,
    truth: reader.BoardReading,
    near: frozenset,
    position: reader.BoardReading,
    cells: tuple,
) -> dict[str, Any]:
    """What went wrong on one board (empty dict entries when nothing)."""
    wrong, phantoms, abstained = [], 0, 0
    for cell in cells:
        want = position.squares.get(cell, "empty")
        got = "unsure" if cell in reading.unsure else reading.squares.get(cell, "empty")
        if got == "unsure":
            abstained += 1
            if cell not in near:
                wrong.append((cell, want, got))
            continue
        if got != want:
            wrong.append((cell, want, got))
            if want == "empty":
                phantoms += 1
    extras = []
    if truth.crowns_left is not None and reading.crowns_left != truth.crowns_left:
        extras.append(("crowns", truth.crowns_left, reading.crowns_left))
    for colour in ("red", "white"):
        want = truth.alice[colour]
        if want is not None and reading.alice[colour] != want:
            extras.append((f"alice {colour}", want, reading.alice[colour]))
    return {
        "squares_wrong": wrong,
        "phantoms": phantoms,
        "abstained": abstained,
        "extras": extras,
        "right": not wrong and not extras,
    }


def recognition(
    which: str,
    seed: int,
    boards: int,
    modes: tuple[str, ...] = ("photo",),
    first: int = 0,
    against: str | None = None,
) -> dict[str, dict[str, Any]]:
    """Each mode's results on the same boards: `photo` reads each picture alone, `board`
    with the box's empty board learnt first from its own photograph (`read --board`);
    with `against`, also `against`: each picture alone by the reader of that commit."""
    geom = load_geometry()
    other = reader_at(against) if against else None
    if other is not None:
        modes = (*modes, "against")
    conditions = Conditions(hands=0) if which == "house" else Conditions()
    counts = {
        m: dict.fromkeys(
            (
                "right",
                "phantoms",
                "read_empty",
                "wrong_colours",
                "squares_right",
                "squares",
                "abstained",
                "crowns",
                "crowns_wrong",
                "alice",
                "wider_boxes",
                "wider_right",
            ),
            0,
        )
        for m in modes
    }
    failures: dict[str, list[dict[str, Any]]] = {m: [] for m in modes}
    unlearnt = 0
    worse: list[dict[str, Any]] = []  # boards where this reader errs where `against` does not
    for i in range(first, first + boards):
        if which == "heldout":
            shot = paint(geom, (seed, i))
            image, truth, near, position = shot.image, shot.truth, shot.near_arm, shot.position
            wider = False
        else:
            photo = render_photo(geom, (seed, i), conditions)
            image, truth, near, position = photo.image, photo.truth, photo.near_arm, photo.position
            wider = bool(photo.design["wider"])
        verdicts: dict[str, dict[str, Any]] = {}
        for mode in modes:
            empty = None
            if mode == "board":  # the box's empty board, photographed once under other light
                teach = (
                    paint_empty(geom, (seed, i))
                    if which == "heldout"
                    else render_empty(geom, (seed, i), conditions)
                )
                learnt = reader.learn_empty_board(teach, geom)
                if learnt is None:
                    unlearnt += len(geom.cells)
                else:
                    empty = learnt[0]
                    unlearnt += int(len(geom.cells) - empty.known.sum())
            read = (
                other.read_board if mode == "against" and other is not None else reader.read_board
            )
            reading = read(image, geom=geom, empty=empty)
            verdict = judge(reading, truth, near, position, geom.cells)
            verdicts[mode] = verdict
            c = counts[mode]
            c["right"] += verdict["right"]
            c["wider_boxes"] += wider
            c["wider_right"] += wider and verdict["right"]
            c["phantoms"] += verdict["phantoms"]
            c["read_empty"] += sum(
                w in ("red", "white") and g == "empty" for _, w, g in verdict["squares_wrong"]
            )
            c["wrong_colours"] += sum(
                w in ("red", "white") and g in ("red", "white") and g != w
                for _, w, g in verdict["squares_wrong"]
            )
            c["abstained"] += verdict["abstained"]
            c["squares"] += len(geom.cells)
            c["squares_right"] += len(geom.cells) - len(verdict["squares_wrong"])
            c["crowns"] += not any(e[0] == "crowns" for e in verdict["extras"])
            c["crowns_wrong"] += any(
                e[0] == "crowns" and e[2] is not None for e in verdict["extras"]
            )
            c["alice"] += not any(e[0].startswith("alice") for e in verdict["extras"])
            if not verdict["right"] and len(failures[mode]) < 20:
                failures[mode].append(
                    {
                        "board": i,
                        "squares": [[list(c), w, g] for c, w, g in verdict["squares_wrong"][:6]],
                        "extras": verdict["extras"],
                    }
                )
        if "against" in verdicts and "photo" in verdicts:
            new = _new_faults(verdicts["photo"], verdicts["against"])
            if new:
                worse.append({"board": i, "faults": new})
        print(
            f"\r{which}: {i + 1 - first}/{boards} boards, entirely right "
            + ", ".join(f"{m} {counts[m]['right']}" for m in modes),
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)
    return {
        mode: {
            "seed": seed,
            "mode": mode,
            "boards": boards,
            "first": first,
            "squares_not_learnt": unlearnt if mode == "board" else None,
            "boards_entirely_right": c["right"],
            "boards_entirely_right_pct": round(100 * c["right"] / boards, 2),
            "squares_right_pct": round(100 * c["squares_right"] / c["squares"], 3),
            "phantom_pieces": c["phantoms"],
            "pieces_read_empty": c["read_empty"],
            "wrong_colours": c["wrong_colours"],
            "squares_abstained": c["abstained"],
            "crowns_right_pct": round(100 * c["crowns"] / boards, 2),
            "crowns_wrong_counts": c["crowns_wrong"],
            "alice_right_pct": round(100 * c["alice"] / boards, 2),
            "wider_boxes": c["wider_boxes"],
            "wider_boxes_entirely_right": c["wider_right"],
            "house_boxes_entirely_right": c["right"] - c["wider_right"],
            "first_failures": failures[mode],
            "reader": against if mode == "against" else "this",
            "boards_with_new_faults": worse if mode == "photo" and against else None,
            "command": f"PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_vision.py "
            f"--part recognition --set {which} --seed {seed} --boards {boards} "
            f"--mode {'both' if 'board' in modes and 'photo' in modes else modes[0]}"
            + (f" --first {first}" if first else "")
            + (f" --against {against}" if against else ""),
        }
        for mode, c in counts.items()
    }


def _reading_key(reading: reader.BoardReading) -> tuple[Any, ...]:
    """Everything a reading says, confidences and warnings too (`BoardReading`'s equality
    leaves those two out)."""
    return (
        sorted(reading.squares.items()),
        sorted(reading.unsure),
        reading.crowns_left,
        sorted(reading.alice.items()),
        sorted(reading.confidence.items()),
        reading.warnings,
        reading.board_found,
    )


def same(
    which: str, seed: int, boards: int, against: str, modes: tuple[str, ...] = ("photo",)
) -> dict[str, Any]:
    """The boards (and modes) on which this reader's reading differs from `against`'s."""
    geom = load_geometry()
    other = reader_at(against)
    conditions = Conditions(hands=0) if which == "house" else Conditions()
    differ: list[list[Any]] = []
    for i in range(boards):
        if which == "heldout":
            image = paint(geom, (seed, i)).image
        else:
            image = render_photo(geom, (seed, i), conditions).image
        for mode in modes:
            mine = theirs = None
            if mode == "board":
                teach = (
                    paint_empty(geom, (seed, i))
                    if which == "heldout"
                    else render_empty(geom, (seed, i), conditions)
                )
                learnt = reader.learn_empty_board(teach, geom)
                learnt_then = other.learn_empty_board(teach, geom)
                if learnt is None or learnt_then is None:
                    if (learnt is None) != (learnt_then is None):
                        differ.append([i, mode, "learnt", "not learnt"])
                    continue
                if _reading_key(learnt[1]) != _reading_key(learnt_then[1]):
                    differ.append([i, mode, "the teach photo's reading", ""])
                mine, theirs = learnt[0], learnt_then[0]
            a = reader.read_board(image, geom=geom, empty=mine)
            b = other.read_board(image, geom=geom, empty=theirs)
            if _reading_key(a) != _reading_key(b):
                differ.append([i, mode, repr(_reading_key(a)), repr(_reading_key(b))])
        print(
            f"\r{which}: {i + 1}/{boards} boards, {len(differ)} readings differ",
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)
    return {
        "set": which,
        "seed": seed,
        "boards": boards,
        "modes": list(modes),
        "against": against,
        "readings_differ": len(differ),
        "first_differences": differ[:5],
        "command": f"PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_vision.py "
        f"--part same --set {which} --seed {seed} --boards {boards} "
        f"--mode {'both' if len(modes) > 1 else modes[0]} --against {against}",
    }


def _new_faults(mine: dict[str, Any], theirs: dict[str, Any]) -> list[Any]:
    """The faults of this reader's verdict on one board that `against`'s has not (a square
    read wrong or asked away from an arm, a Crown count or an Alice token wrong)."""
    theirs_squares = {tuple(w) for w in theirs["squares_wrong"]}
    theirs_extras = {tuple(e) for e in theirs["extras"]}
    return [list(w) for w in mine["squares_wrong"] if tuple(w) not in theirs_squares] + [
        list(e) for e in mine["extras"] if tuple(e) not in theirs_extras
    ]


def _ms(f, *args, **kwargs) -> tuple[float, Any]:
    t = time.perf_counter()
    out = f(*args, **kwargs)
    return (time.perf_counter() - t) * 1000, out


def reader_at(ref: str) -> ModuleType:
    """`vision/read.py` as it was at commit `ref`, beside this one (its imports are today's:
    a paired timing of the reader's own changes)."""
    path = "companion/games/queen_alice/vision/read.py"
    source = subprocess.run(
        ["git", "show", f"{ref}:{path}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    name = f"queen_alice_read_at_{ref}"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    exec(compile(source, f"{ref}:{path}", "exec"), module.__dict__)
    return module


def speed(frames: int, seed: int, against: str | None = None) -> dict[str, Any]:
    cv2.setNumThreads(1)
    other = reader_at(against) if against else None
    geom = load_geometry()
    conditions = Conditions(sizes=((1280, 960),))
    images = [render_photo(geom, (seed, i), conditions).image for i in range(frames)]
    learnt = [
        reader.learn_empty_board(render_empty(geom, (seed, i), conditions), geom)
        for i in range(frames)
    ]
    det = detector()
    times: dict[str, list[float]] = {
        k: []
        for k in (
            "bare_detect",
            "read_board",
            "read_board_with_board",
            "detect",
            "pose",
            "squares",
            "crowns_and_alice",
            "read_board_against",
        )
    }
    for image, teach in zip(images, learnt, strict=True):
        for _ in range(3):  # best of three: the machine is shared
            best: dict[str, float] = {}
            best["bare_detect"], _ = _ms(lambda im=image: det.detectMarkers(to_gray(im)))
            best["read_board"], _ = _ms(reader.read_board, image, geom=geom)
            if other is not None:
                best["read_board_against"], _ = _ms(other.read_board, image, geom=geom)
            if teach is not None:
                best["read_board_with_board"], _ = _ms(
                    reader.read_board, image, geom=geom, empty=teach[0]
                )
            best["detect"], markers = _ms(detect_markers, image)
            best["pose"], where = _ms(reader.locate, image, geom, markers)
            if where is None:
                continue
            best["squares"], _ = _ms(
                lambda im=image, w=where: reader.classify(
                    reader.sample_squares(im, geom, w, geom.cells)
                )
            )
            best["crowns_and_alice"], _ = _ms(
                lambda im=image, w=where: (
                    reader._crowns(im, geom, w),
                    reader._alice(im, geom, w, "red"),
                    reader._alice(im, geom, w, "white"),
                )
            )
            for k, v in best.items():
                times[k].append(v)
    med = {k: round(statistics.median(v), 2) for k, v in times.items() if v}
    paired = {}
    if other is not None:
        paired = {
            "against": against,
            "ratio_against_to_bare_detect": round(
                med["read_board_against"] / med["bare_detect"], 2
            ),
            "ratio_read_to_against_per_frame_median": round(
                statistics.median(
                    a / b
                    for a, b in zip(times["read_board"], times["read_board_against"], strict=True)
                ),
                3,
            ),
        }
    return {
        "frames": frames,
        "seed": seed,
        "size": "1280x960",
        "threads": 1,
        "median_ms": med,
        "ratio_read_to_bare_detect": round(med["read_board"] / med["bare_detect"], 2),
        "ratio_read_with_board_to_bare_detect": round(
            med["read_board_with_board"] / med["bare_detect"], 2
        ),
        **paired,
        "machine": platform.machine(),
        "python": platform.python_version(),
        "command": f"PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_vision.py "
        f"--part speed --frames {frames} --seed {seed}"
        + (f" --against {against}" if against else ""),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", choices=["recognition", "speed", "same"], required=True)
    parser.add_argument("--set", choices=["house", "random", "heldout"], default="random")
    parser.add_argument(
        "--seed", type=int, default=None, help="default: a fresh one (printed and saved)"
    )
    parser.add_argument("--boards", type=int, default=500)
    parser.add_argument(
        "--first", type=int, default=0, help="the first board's index (a run split in parts)"
    )
    parser.add_argument(
        "--mode",
        choices=["photo", "board", "both"],
        default="photo",
        help="photo: each picture alone; board: with the box's empty board learnt from "
        "its own photograph (`read --board`); both: each board read both ways",
    )
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument(
        "--against",
        default=None,
        help="speed: also time the reader of this git commit, frame by frame in turn; "
        "recognition: also read each picture alone with it (a section of its own); "
        "same: the reader whose readings this one's must equal",
    )
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else secrets.randbits(31)
    if args.part == "recognition":
        modes = ("photo", "board") if args.mode == "both" else (args.mode,)
        by_mode = recognition(args.set, seed, args.boards, modes, args.first, args.against)
        part = f"_from{args.first}" if args.first else ""
        suffix = {"photo": "", "board": "_board", "against": f"_at_{args.against}"}
        sections = {
            f"recognition_{args.set}" + suffix[mode] + part: out for mode, out in by_mode.items()
        }
    elif args.part == "same":
        if args.against is None:
            parser.error("--part same needs --against REF")
        modes = ("photo", "board") if args.mode == "both" else (args.mode,)
        out = same(args.set, seed, args.boards, args.against, modes)
        print(json.dumps(out, indent=1))
        return  # a check, not a measurement: nothing saved
    else:
        sections = {"speed": speed(args.frames, seed, args.against)}
    for out in sections.values():
        print(json.dumps({k: v for k, v in out.items() if k != "first_failures"}, indent=1))
    # read as the run ends, not as it starts: sets run side by side keep each other's part
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    results.update(sections)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
