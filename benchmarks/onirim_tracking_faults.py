"""Onirim's live table under a faulty camera, fast: the tracker alone, no pictures.

Each seed is one scripted game (`vision/film.py`), read not by the camera reader but as the
film's own tables, with faults a reader makes drawn from the seed: sticky for a whole shot
(a fan or the row read short, a card unnamed, a laid card misread, the pile unread, a
Mirror's side misread, a Door unseen), flickering for single frames, the table not found,
and the table read as it lay before a play for 5-80 frames (the new card under a resting
hand). The new card itself is never misread as another card of the hand: no tracker can
tell that from a real play, it is the reader's to avoid. The player's taps and answers are
the benchmark's (`table/follow.py`). It is a development tool for the tracker, thousands of
games a minute under no load, to find the shapes in which it books a play wrong or loses
track; the camera's own measure is `benchmarks/onirim_tracking.py`.

    PYTHONPATH=. python benchmarks/onirim_tracking_faults.py --seeds 1000:1300
    PYTHONPATH=. python benchmarks/onirim_tracking_faults.py --seeds 1439:1440 --trace
"""

from __future__ import annotations

import argparse
import bisect
import copy
import json
import random
import sys
from typing import Any

from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.state import OnirimState
from companion.games.onirim.table.follow import follow, script_actions
from companion.games.onirim.table.track import table_of
from companion.games.onirim.vision.film import Script, script_game
from companion.games.onirim.vision.layout import load_layout
from companion.live.table_game import Observation

WINDOW = len(load_layout().labyrinth_places)
KINDS = [k for k in ENGINE.deck.kinds if "-" in k and not k.startswith("door")]
HANDS = Observation(
    {"located": True, "labyrinth": [None] * 3, "doors": [], "mirrors": [], "discard_top": None}, 0.1
)
LOST = Observation({"located": False}, 0.0)


def seen(state: OnirimState) -> dict[str, Any]:
    return table_of(state, WINDOW).to_json() | {"located": True}


def fault(data: dict[str, Any], before: dict[str, Any], r: random.Random) -> dict[str, Any]:
    """One reader's fault on a reading; a card is misread as another only where a card lay
    already `before` (the shot before it), never a card just laid."""
    d = copy.deepcopy(data)
    fans = [m["under"] for m in d["mirrors"]]
    places = [(d["labyrinth"], k) for k in range(len(d["labyrinth"]))]
    places += [(u, k) for u in fans for k in range(len(u))]
    old = {id(d["labyrinth"]): len(before["labyrinth"])}
    had = {m["mirror"]: len(m["under"]) for m in before["mirrors"]}
    old |= {id(m["under"]): had.get(m["mirror"], 0) for m in d["mirrors"]}
    laid = [(cards, k) for cards, k in places if k < old[id(cards)]]
    f = r.random()
    if f < 0.3 and laid:
        cards, k = r.choice(laid)
        cards[k] = r.choice(KINDS)
    elif 0.3 <= f < 0.5 and places:
        cards, k = r.choice(places)
        cards[k] = None
    elif 0.5 <= f < 0.7 and places:
        cards, k = r.choice(places)
        del cards[k:]
    elif 0.7 <= f < 0.8:
        d["discard_top"] = None
    elif 0.8 <= f < 0.9 and d["mirrors"]:
        m = r.choice(d["mirrors"])
        m["explored"] = not m["explored"]
    elif f >= 0.9 and d["doors"]:
        d["doors"] = d["doors"][:-1]
    return d


def one_game(seed: int, trace: bool = False) -> dict[str, Any]:
    script: Script = script_game(seed)
    starts, n = [], 0
    for shot in script.shots:
        starts.append(n)
        n += shot.frames
    r = random.Random(f"faults-{seed}")
    sticky = {j for j in range(len(script.shots)) if r.random() < 0.15}
    late: list[tuple[int, int, OnirimState]] = []
    for j, shot in enumerate(script.shots):
        if shot.hand and j > 0 and r.random() < 0.1 and (not late or starts[j] >= late[-1][1]):
            late.append((starts[j], starts[j] + r.randint(5, 80), script.shots[j - 1].table))

    def observe(_game: Any, i: int) -> Observation:
        frame = random.Random(f"faults-{seed}-{i}")
        lost = frame.random() < 0.02
        for a, b, table in late:
            if a <= i < b:
                return LOST if lost else Observation(seen(table), 1.0)
        j = bisect.bisect_right(starts, i) - 1
        if script.shots[j].hand:
            return HANDS
        if lost:
            return LOST
        d = seen(script.shots[j].table)
        k = j
        while k > 0 and script.shots[k].needs >= script.shots[j].needs:
            k -= 1  # the table before this shot's action (its hand shots show the one after)
        before = seen(script.shots[k].table)
        if j in sticky:
            d = fault(d, before, random.Random(f"faults-{seed}-shot-{j}"))
        if frame.random() < 0.05:
            d = fault(d, before, frame)
        return Observation(d, 1.0)

    result = follow(script, observe, n)
    want = script_actions(script)
    booked = [e.payload for e in result.events if e.kind == "onirim.action"]
    got = [b["action"] for b in booked]
    first = next((k for k, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), None)
    out: dict[str, Any] = {
        "seed": seed,
        "all_right": got == want,
        "actions": len(want),
        "booked": len(got),
        "breaches": [e.payload for e in result.breaches],
        "questions": len(result.questions),
        "refused_taps": result.refused_taps,
        "first_wrong": None
        if first is None
        else {"index": first, "booked": booked[first], "script": want[first]},
    }
    if trace:
        out["events"] = [[e.seq, e.kind, e.payload] for e in result.events]
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", default="1000:1100", help="A:B, film seeds (A included)")
    p.add_argument("--trace", action="store_true", help="print every event of a failed game")
    a = p.parse_args()
    lo, hi = (int(v) for v in a.seeds.split(":"))
    games = []
    for seed in range(lo, hi):
        g = one_game(seed, a.trace)
        games.append(g)
        if not g["all_right"] or g["breaches"] or g["refused_taps"]:
            print(json.dumps(g), flush=True)
    summary = {
        "command": f"PYTHONPATH=. python benchmarks/onirim_tracking_faults.py --seeds {a.seeds}",
        "games": len(games),
        "games_all_right": sum(g["all_right"] for g in games),
        "false_events": sum(len(g["breaches"]) for g in games),
        "questions": sum(g["questions"] for g in games),
        "refused_taps": sum(len(g["refused_taps"]) for g in games),
        "lost_track": sum(len(g["refused_taps"]) >= 3 for g in games),
    }
    print(json.dumps(summary, indent=1))
    return 0 if summary["games_all_right"] == summary["games"] else 1


if __name__ == "__main__":
    sys.exit(main())
