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

Also per game: the first action booked off the script, the actions booked wrong and those
lost (an alignment of the booked actions with the script's), and a failed game's events with
the film frame of each.

    PYTHONPATH=. python benchmarks/onirim_tracking.py --seeds 700000:700010

The reader keeps no memory between frames and knows nothing of the game, so its readings can
be kept (`--readings DIR`) and the tracker followed again on them in seconds (`--replay DIR`);
`--record-only` keeps a run's readings and follows nothing, so a fresh run's pictures can be
read while the tracker is still being changed and followed by the commit measured, nothing of
it seen before.
"""

from __future__ import annotations

import argparse
import difflib
import json
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from companion.games.onirim.rules.actions import Pair, Play
from companion.games.onirim.table import live
from companion.games.onirim.table.follow import Followed, follow, script_actions
from companion.games.onirim.vision.film import TableFilm, script_game
from companion.live.table_game import Observation
from companion.store import Session

RESULTS = Path(__file__).resolve().parent / "results" / "onirim_tracking.json"
TAIL_FRAMES = 8
"""Frames of the film's last still shot played after the game's last action."""


def one_game(seed: int, readings: Path | None = None, replay: Path | None = None) -> dict[str, Any]:
    """One film followed; `readings`: a folder to keep the camera's reading of every frame
    in (`<seed>.json`); `replay`: such a folder to take the readings from instead of the
    pictures (the tracker again on the same readings, in seconds: the reader keeps no
    memory between frames, so they are what it would read anew)."""
    script = script_game(seed)
    film = TableFilm(seed, script)
    settings = SimpleNamespace(camera=SimpleNamespace(source="file"), data_dir="/nonexistent")
    kept: list[list[Any]] = []
    if replay is not None:
        kept = json.loads((replay / f"{seed}.json").read_text(encoding="utf-8"))
    library = live.taught_library(seed) if replay is None else None
    t0 = time.process_time()

    def observe(game: live.OnirimTable, i: int) -> Observation:
        if replay is not None:
            return Observation(*kept[i])
        image, _ = film.render(i)
        seen = game.perceive(SimpleNamespace(image=image), None)
        kept.append([seen.data, seen.confidence])
        return seen

    frames = len(film) - (script.shots[-1].frames - TAIL_FRAMES)
    result = follow(script, observe, frames, settings, library)
    seconds = time.process_time() - t0
    if readings is not None:
        readings.mkdir(parents=True, exist_ok=True)
        (readings / f"{seed}.json").write_text(json.dumps(kept), encoding="utf-8")
    want = script_actions(script)
    booked = result.booked()
    camera = [a for a in script.seen_actions if isinstance(a, Play | Pair)]
    actions = [e for e in result.events if e.kind == live.ACTION_KIND]
    first = next((k for k, (a, b) in enumerate(zip(booked, want, strict=False)) if a != b), None)
    if first is None and len(booked) != len(want):
        first = min(len(booked), len(want))
    wrong = None
    if first is not None:
        wrong = {
            "index": first,
            "booked": actions[first].payload if first < len(actions) else None,
            "script": want[first] if first < len(want) else None,
            "seq": actions[first].seq if first < len(actions) else None,
        }
    return {
        "seed": seed,
        "actions": len(want),
        "camera_plays": len(result.by_camera()),
        "plays_and_pairs": len(camera),
        "all_right": booked == want,
        "first_wrong": wrong,
        "booked_right": sum(a == b for a, b in zip(booked, want, strict=False)),
        **wrong_and_lost(booked, want),
        "breaches": [e.payload for e in result.breaches],
        "questions": len(result.questions),
        "refused_taps": result.refused_taps,
        "frames": frames,
        "seconds_per_frame": round(seconds / frames, 3),
        "outcome": script.final.outcome if script.final else None,
    } | ({"events": _trace(result)} if wrong is not None or result.breaches else {})


def record(seed: int, readings: Path) -> int:
    """The camera's reading of every frame of a film kept, nothing followed: a fresh run's
    readings taken while the tracker is still being changed, to be followed (`--replay`) by
    the tracker of the commit measured, nothing of them seen before (the reader keeps no
    memory between frames and knows nothing of the game, so the readings are the same)."""
    script = script_game(seed)
    film = TableFilm(seed, script)
    settings = SimpleNamespace(camera=SimpleNamespace(source="file"), data_dir="/nonexistent")
    game = live.OnirimTable(settings, Session("1", "onirim", {}, ["player"], 0.0))
    game.use_library(live.taught_library(seed))
    frames = len(film) - (script.shots[-1].frames - TAIL_FRAMES)
    kept = []
    for i in range(frames):
        seen = game.perceive(SimpleNamespace(image=film.render(i)[0]), None)
        kept.append([seen.data, seen.confidence])
    readings.mkdir(parents=True, exist_ok=True)
    (readings / f"{seed}.json").write_text(json.dumps(kept), encoding="utf-8")
    return frames


def wrong_and_lost(booked: list[Any], want: list[Any]) -> dict[str, int]:
    """Actions booked that the script does not make there (wrong: a play the camera made up
    or named wrong) and actions of the script never booked (lost), from an alignment of the
    two sequences: one missed play is one lost, not every action after it counted wrong."""
    a = [json.dumps(x, sort_keys=True) for x in booked]
    b = [json.dumps(x, sort_keys=True) for x in want]
    wrong = lost = 0
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op != "equal":
            wrong += i2 - i1
            lost += j2 - j1
    return {"booked_wrong": wrong, "lost": lost}


def _trace(result: Followed) -> list[list[Any]]:
    """A failed game's events with the film frame of each, to find where the booking left
    the script (a steady reading is a "seen" event)."""
    return [
        [e.seq, i, e.kind, e.payload] for e, i in zip(result.events, result.frames, strict=True)
    ]


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
        "booked_wrong": sum(int(g["booked_wrong"]) for g in games),
        "lost": sum(int(g["lost"]) for g in games),
        "seconds_per_frame_median": statistics.median(float(g["seconds_per_frame"]) for g in games),
        "clock": "CPU time (render + read + track) per film frame, one process",
        "per_game": games,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", default="700000:700010", help="A:B, fresh seeds (A included)")
    p.add_argument("--out", default=str(RESULTS))
    p.add_argument("--readings", type=Path, help="a folder to keep every frame's reading in")
    p.add_argument(
        "--replay", type=Path, help="a --readings folder: follow its readings, no pictures"
    )
    p.add_argument(
        "--record-only",
        action="store_true",
        help="with --readings: keep the readings, follow nothing, print nothing of the games",
    )
    a = p.parse_args()
    lo, hi = (int(v) for v in a.seeds.split(":"))
    if a.record_only:
        if a.readings is None:
            p.error("--record-only needs --readings")
        for seed in range(lo, hi):
            print(json.dumps({"seed": seed, "frames_recorded": record(seed, a.readings)}))
        return 0
    games: list[dict[str, Any]] = []
    summary: dict[str, object] = {}
    for seed in range(lo, hi):
        g = one_game(seed, a.readings, a.replay)
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
                        "booked_wrong",
                        "lost",
                        "questions",
                        "seconds_per_frame",
                    )
                }
                | {"breaches": len(g["breaches"])}
            ),
            flush=True,
        )
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
