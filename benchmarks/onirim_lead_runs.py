"""Onirim: do later frames settle a colour the camera named unsure? From recorded readings.

The live table asks about a Location named with a colour lead under `live.COLOUR_DOUBT` in a
frame of the steady table while the hand holds another colour of its symbol. Would waiting
for later frames of the same card settle it? Each run of one named card at one place (the
row's, a Mirror's fan's, the pile's top; a new run where the name there changes) in the
readings of `onirim_tracking.py --readings DIR` (development films) is printed with its
leads: the least of its first `STABLE_FRAMES` frames (what the table judges), and the
median and greatest over its whole stay. The summary counts, for each doubt T, the runs
under T at first and, of them, those whose median over the stay is T or more (a rule
waiting for later frames would book those) and those whose greatest is (a rule taking any
sure frame would).

    PYTHONPATH=. python benchmarks/onirim_lead_runs.py --readings DIR
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.games.onirim.table.track import COLOUR_LEADS, STABLE_FRAMES

Place = tuple[str, int]


@dataclass
class Run:
    """One card named at one place over consecutive readings that name it there."""

    film: str
    place: Place
    card: str
    start: int
    leads: list[float] = field(default_factory=list)
    """Per frame, its colour lead (inf: no other colour among the finalists)."""


def named(data: dict[str, Any]) -> dict[Place, str]:
    """The cards a reading names, by place (as `track.COLOUR_LEADS` names places)."""
    out: dict[Place, str] = {
        ("labyrinth", k): c for k, c in enumerate(data.get("labyrinth") or []) if c
    }
    for m in data.get("mirrors") or []:
        out |= {(f"under-{m['mirror']}", k): c for k, c in enumerate(m.get("under") or []) if c}
    if data.get("discard_top"):
        out[("discard", 0)] = data["discard_top"]
    return out


def runs_of(film: str, readings: list[list[Any]]) -> list[Run]:
    """The runs of one film's readings; a frame not located or naming nothing at a place
    does not end its run (a hand over the table)."""
    open_runs: dict[Place, Run] = {}
    done: list[Run] = []
    for i, (data, _) in enumerate(readings):
        if not isinstance(data, dict) or not data.get("located"):
            continue
        leads = {(z, int(k)): float(v) for z, k, v in data.get(COLOUR_LEADS) or []}
        for place, card in named(data).items():
            run = open_runs.get(place)
            if run is None or run.card != card:
                if run is not None:
                    done.append(run)
                run = open_runs[place] = Run(film, place, card, i)
            run.leads.append(leads.get(place, math.inf))
    return done + list(open_runs.values())


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--readings", type=Path, required=True, help="onirim_tracking.py --readings")
    p.add_argument("--doubts", default="0.15,0.20,0.25,0.30", help="doubts T to count")
    p.add_argument("--under", type=float, default=0.30, help="print the runs under this at first")
    a = p.parse_args()
    runs: list[Run] = []
    for path in sorted(a.readings.glob("*.json")):
        runs += runs_of(path.stem, json.loads(path.read_text(encoding="utf-8")))
    runs = [r for r in runs if len(r.leads) >= STABLE_FRAMES]
    for r in runs:
        first = min(r.leads[:STABLE_FRAMES])
        if first < a.under:
            print(
                f"{r.film} {r.place[0]}:{r.place[1]} {r.card} frames {len(r.leads)} "
                f"first {first:.3f} median {statistics.median(r.leads):.3f} "
                f"greatest {max(r.leads):.3f}"
            )
    rows = []
    for t in (float(v) for v in a.doubts.split(",")):
        under = [r for r in runs if min(r.leads[:STABLE_FRAMES]) < t]
        rows.append(
            {
                "doubt": t,
                "runs": len(runs),
                "under_at_first": len(under),
                "median_over_stay_sure": sum(statistics.median(r.leads) >= t for r in under),
                "greatest_over_stay_sure": sum(max(r.leads) >= t for r in under),
            }
        )
    print(json.dumps({"readings": str(a.readings), "curve": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
