"""Queen Alice at the table: scripted turns tracked from the camera's readings, with hands.

    PYTHONPATH=. /work/main/.venv/bin/python benchmarks/queen_alice_tracking.py [--turns 200]
        [--seed S] [--curve 1,2,3,4] [--fps 4] [--seconds-curve 0,0.3,0.5]
        [--pictures [--size 1280x960]]

Games between random players are played through the engine (`table/script.py`), so every
turn is legal; each becomes the players' taps (set-up, draws, reveals, discards, the card
played, before or after the move, every reward choice) and the camera's readings of the
chessboard: a hand over every square a move changes (unsure) for a few frames, then the
board steady, with a square in doubt now and then and, rarely, a square misread for one
frame (a piece missed or a phantom); hands also cross the board between moves. The table
game tracks it all as the live loop would (decide, commit, apply). Counted: turns, moves the
camera had to see and how many became the scripted play, turn ends where the table's engine
state equals the script's, breaches (all false: every turn is legal), questions about a
square (false: nothing stays hidden), "which play?" questions (two plays leave the same
board; answered with the scripted one) and refused taps. The curve repeats the run with
other numbers of frames a reading must hold (`track.STABLE_FRAMES`) to show why it is what
it is; `--seconds-curve` with other seconds it must span (`track.STABLE_S`), at the camera's
`--fps` (each reading lasts a quarter of a second of table time and is seen in every frame
taken meanwhile; 4 is one frame per reading, the live camera takes 10).

`--pictures`: the same scripted games drawn as the `sim` film (`table/film.py`: photographs
with light, defocus, noise and JPEG, arms over the moving squares) and read by the real
reader (`vision/read.py`) at `--fps`, as the demo plays them; a move is right when the n-th
play recorded is the script's n-th. Give --seed a fresh large random number each run.
Writes benchmarks/results/queen_alice_tracking[_pictures].json.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from dataclasses import asdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from companion.games.queen_alice.table.film import ChessboardFilm, run_film  # noqa: E402
from companion.games.queen_alice.table.script import (  # noqa: E402
    Habits,
    Tally,
    run_script,
    scripted_game,
)
from companion.games.queen_alice.table.track import STABLE_FRAMES, STABLE_S  # noqa: E402
from companion.store import Session  # noqa: E402

NAMES = ("Ann", "Bob", "Cy", "Di")


def measure(
    turns: int,
    seed: int,
    stable_frames: int,
    stable_s: float = STABLE_S,
    fps: float = 4.0,
    pictures: tuple[int, int] | None = None,
) -> dict[str, object]:
    total = Tally()
    games, t0 = [], time.process_time()
    i = 0
    while total.turns < turns:
        players = 2 + i % 3
        left = turns - total.turns
        session = Session(f"g{i}", "queen-alice", {}, list(NAMES[:players]), 0.0)
        if pictures is not None:
            film = ChessboardFilm(seed + i, players, size=pictures, turns=left)
            _, tally = run_film(film, session, fps)
        else:
            _, tally = run_script(
                scripted_game(players, seed + i, left, Habits()),
                session,
                stable_frames,
                stable_s,
                fps,
            )
        print(
            f"  game {seed + i}: {players} players, {tally.turns} turns, moves "
            f"{tally.moves_right}/{tally.moves}, breaches {tally.breaches}, square questions "
            f"{tally.square_questions}, refused {len(tally.refused)}",
            flush=True,
        )
        games.append({"seed": seed + i, "players": players, "turns": tally.turns})
        for key in (
            "turns",
            "moves",
            "moves_right",
            "checkpoints",
            "checkpoints_right",
            "breaches",
            "square_questions",
            "play_questions",
        ):
            setattr(total, key, getattr(total, key) + getattr(tally, key))
        total.refused += tally.refused
        i += 1
    out = asdict(total)
    out["refused"] = len(total.refused)
    out["false_events"] = total.breaches + total.square_questions + len(total.refused)
    out["every_move_right"] = total.moves_right == total.moves and (
        total.checkpoints_right == total.checkpoints
    )
    out["games"] = games
    out["cpu_seconds"] = round(time.process_time() - t0, 2)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--curve", default="1,2,3,4")
    parser.add_argument("--seconds-curve", default="")
    parser.add_argument("--fps", type=float, default=4.0)
    parser.add_argument("--pictures", action="store_true")
    parser.add_argument("--size", default="1280x960")
    args = parser.parse_args()
    if args.fps <= 0 or args.turns <= 0:
        parser.error("--fps and --turns must be positive")
    try:
        size = tuple(int(v) for v in args.size.lower().split("x"))
        if len(size) != 2 or min(size) < 160:
            raise ValueError
    except ValueError:
        parser.error("--size is WIDTHxHEIGHT, e.g. 1280x960")
    command = (
        f"PYTHONPATH=. .venv/bin/python benchmarks/queen_alice_tracking.py "
        f"--turns {args.turns} --seed {args.seed} --fps {args.fps:g}"
        + (f" --pictures --size {args.size}" if args.pictures else f" --curve {args.curve}")
        + (f" --seconds-curve {args.seconds_curve}" if args.seconds_curve else "")
    )
    pictures = (size[0], size[1]) if args.pictures else None
    main_run = measure(args.turns, args.seed, STABLE_FRAMES, STABLE_S, args.fps, pictures)
    curve: dict[str, dict[str, object]] = {}
    seconds_curve: dict[str, dict[str, object]] = {}
    keys = ("moves", "moves_right", "breaches", "square_questions", "false_events")
    if not args.pictures:
        for frames in (int(x) for x in args.curve.split(",") if x):
            run = (
                main_run
                if frames == STABLE_FRAMES
                else measure(args.turns, args.seed, frames, STABLE_S, args.fps)
            )
            curve[str(frames)] = {k: run[k] for k in keys}
        for seconds in (float(x) for x in args.seconds_curve.split(",") if x):
            run = (
                main_run
                if seconds == STABLE_S
                else measure(args.turns, args.seed, STABLE_FRAMES, seconds, args.fps)
            )
            seconds_curve[f"{seconds:g}"] = {k: run[k] for k in keys}
    result = {
        "command": command,
        "stable_frames": STABLE_FRAMES,
        "stable_s": STABLE_S,
        "fps": args.fps,
        "pictures": args.size if args.pictures else None,
        "habits": asdict(Habits()),
        "tracking": main_run,
        "stable_frames_curve": curve,
        "stable_seconds_curve": seconds_curve,
        "machine": platform.machine(),
        "python": platform.python_version(),
    }
    name = "queen_alice_tracking_pictures.json" if args.pictures else "queen_alice_tracking.json"
    out = REPO / "benchmarks" / "results" / name
    out.write_text(json.dumps(result, indent=2) + "\n")
    t = main_run
    print(command)
    print(
        f"turns {t['turns']}, moves {t['moves_right']}/{t['moves']} right, turn ends "
        f"{t['checkpoints_right']}/{t['checkpoints']} equal, breaches {t['breaches']}, "
        f"square questions {t['square_questions']}, which-play questions "
        f"{t['play_questions']}, refused taps {t['refused']}, CPU {t['cpu_seconds']} s"
    )
    for label, row in curve.items():
        print(
            f"  stable frames {label}: moves right {row['moves_right']}/{row['moves']}, "
            f"false events {row['false_events']}"
        )
    for label, row in seconds_curve.items():
        print(
            f"  stable seconds {label}: moves right {row['moves_right']}/{row['moves']}, "
            f"false events {row['false_events']}"
        )
    print(f"wrote {out.relative_to(REPO)}")


if __name__ == "__main__":
    main()
