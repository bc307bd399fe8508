"""Onirim at the table: scripted games filmed by the `sim` camera, read by the live perceiver,
followed by the live table.

Each seed is one game the greedy player plays through the engine (legal by construction,
`vision/film.py`), filmed on its own deck (every design choice drawn from the seed), its own
camera and table, with a hand over the table while each card is laid. The deck is taught from
its own teach photos (`teach.teach_photos`, as a user teaches). Every frame is rendered and
read by `OnirimTable.perceive`; the player's taps come at their film times
(`table/follow.py`); a question "which play was it?" is answered as the player would, with
the play made (or "put back" when it is not offered: `follow.answer_truly`); a question about
one card is left open. Reported per game: whether every action the table booked is the
script's, in order (plays, discards and pairs from the camera; the rest tapped), the
breaches (every one is false: the games are legal), the questions asked, taps refused.

    PYTHONPATH=. python benchmarks/onirim_tracking.py --seeds 700000:700010
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from companion.games.onirim.rules.actions import Pair, Play
from companion.games.onirim.table import live
from companion.games.onirim.table.follow import follow, script_actions
from companion.games.onirim.vision.film import TableFilm, script_game
from companion.live.table_game import Observation

RESULTS = Path(__file__).resolve().parent / "results" / "onirim_tracking.json"
TAIL_FRAMES = 8
"""Frames of the film's last still shot played after the game's last action."""


def one_game(seed: int) -> dict[str, object]:
    script = script_game(seed)
    film = TableFilm(seed, script)
    settings = SimpleNamespace(camera=SimpleNamespace(source="file"), data_dir="/nonexistent")
    library = live.taught_library(seed)
    t0 = time.process_time()

    def observe(game: live.OnirimTable, i: int) -> Observation:
        image, _ = film.render(i)
        return game.perceive(SimpleNamespace(image=image), None)

    frames = len(film) - (script.shots[-1].frames - TAIL_FRAMES)
    result = follow(script, observe, frames, settings, library)
    seconds = time.process_time() - t0
    want = script_actions(script)
    booked = result.booked()
    camera = [a for a in script.seen_actions if isinstance(a, Play | Pair)]
    return {
        "seed": seed,
        "actions": len(want),
        "camera_plays": len(result.by_camera()),
        "plays_and_pairs": len(camera),
        "all_right": booked == want,
        "booked_right": sum(a == b for a, b in zip(booked, want, strict=False)),
        "breaches": [e.payload for e in result.breaches],
        "questions": len(result.questions),
        "refused_taps": result.refused_taps,
        "frames": frames,
        "seconds_per_frame": round(seconds / frames, 3),
        "outcome": script.final.outcome if script.final else None,
    }


def summarise(games: list[dict[str, Any]], seeds: str) -> dict[str, Any]:
    return {
        "command": f"PYTHONPATH=. python benchmarks/onirim_tracking.py --seeds {seeds}",
        "games": len(games),
        "games_all_right": sum(bool(g["all_right"]) for g in games),
        "actions": sum(int(g["actions"]) for g in games),
        "actions_booked_right": sum(int(g["booked_right"]) for g in games),
        "camera_booked": sum(int(g["camera_plays"]) for g in games),
        "false_events": sum(len(g["breaches"]) for g in games),
        "questions": sum(int(g["questions"]) for g in games),
        "refused_taps": sum(len(g["refused_taps"]) for g in games),
        "seconds_per_frame_median": statistics.median(float(g["seconds_per_frame"]) for g in games),
        "clock": "CPU time (render + read + track) per film frame, one process",
        "per_game": games,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", default="700000:700010", help="A:B, fresh seeds (A included)")
    p.add_argument("--out", default=str(RESULTS))
    a = p.parse_args()
    lo, hi = (int(v) for v in a.seeds.split(":"))
    games: list[dict[str, object]] = []
    summary: dict[str, object] = {}
    for seed in range(lo, hi):
        g = one_game(seed)
        games.append(g)
        print(
            json.dumps(
                {
                    k: g[k]
                    for k in (
                        "seed",
                        "all_right",
                        "actions",
                        "camera_plays",
                        "questions",
                        "seconds_per_frame",
                    )
                }
                | {"breaches": len(g["breaches"])}
            ),
            flush=True,
        )  # type: ignore[arg-type]
        summary = summarise(games, f"{lo}:{seed + 1}")
        # Written after every game: a long run stopped early keeps what it measured.
        Path(a.out).parent.mkdir(parents=True, exist_ok=True)
        Path(a.out).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in summary.items() if k != "per_game"}, indent=1))
    return (
        0
        if summary
        and summary["games_all_right"] == summary["games"]
        and not summary["false_events"]
        else 1
    )


if __name__ == "__main__":
    sys.exit(main())
