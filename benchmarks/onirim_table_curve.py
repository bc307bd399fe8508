"""The curve of `read.TABLE_LEAD` (a row's last cards must lead the bare table's own score,
`TableReader.table_score`, or the row ends before them), on a DEVELOPMENT set.

    PYTHONPATH=. python benchmarks/onirim_table_curve.py --seeds A:B --tables 3 \
        [--styles random,house] [--leads 0,0.05,0.1,0.15,0.2]

For each seed a deck is drawn and taught (as `onirim_vision.py` does) and `--tables` tables are
rendered. Each table is read once with the rule off, and every card of every row (the
labyrinth's, each fan's, the Doors') is tallied with its lead on the table's score and whether
a card of that type lies there (right), another card (wrong), a card not named (asked) or none
(phantom, printed on a line); then the table is read at each `--leads` value and each value's
tally printed: cards right, named wrong, asked, phantoms. Development seeds only; the held-out
designs are never looked at.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import sys  # noqa: E402
from collections import Counter  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.onirim_body_curve import truth_at  # noqa: E402
from benchmarks.onirim_vision import teach_deck  # noqa: E402
from companion.games.onirim.vision import read as R  # noqa: E402
from companion.games.onirim.vision.compare import compare  # noqa: E402
from companion.games.onirim.vision.layout import Point, load_layout  # noqa: E402
from companion.games.onirim.vision.render import (  # noqa: E402
    deck_faces,
    deck_style,
    render_table,
    table_look,
)


def recorder(
    reader: R.TableReader,
    end_bodies: Callable[..., list[R.Match]],
    bare: float,
    looked: list[tuple[Point, str | None, float, bool]],
) -> Callable[..., list[R.Match]]:
    """`end_bodies` whose row, as it ends, is added to `looked`: each card's place, its name,
    its lead on the table's score and whether it is the row's last (after `end_bodies`)."""

    def record(image, H, row, place, first=None, table=None):
        out = end_bodies(image, H, row, place, first, table)
        for j, m in enumerate(out):
            looked.append((place(j), m.card, m.score - bare, j == len(out) - 1))
        return out

    return record


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", required=True, help="A:B, development seeds")
    ap.add_argument("--tables", type=int, default=3)
    ap.add_argument("--styles", default="random")
    ap.add_argument("--leads", default="0,0.05,0.1,0.15,0.2")
    a = ap.parse_args()
    layout = load_layout()
    lo, hi = (int(v) for v in a.seeds.split(":"))
    leads = [float(v) for v in a.leads.split(",")]
    keep = R.TABLE_LEAD
    for style in a.styles.split(","):
        if style not in ("house", "random"):
            raise SystemExit("--styles: house or random (the held-out designs are never looked at)")
        totals = {t: Counter() for t in ["off", *leads]}
        seen: dict[str, list[float]] = {"right": [], "asked": [], "wrong": [], "phantom": []}
        tables: list[float] = []
        for seed in range(lo, hi):
            faces = deck_faces(deck_style(seed, style), layout)
            reader, _ = teach_deck(faces, seed)
            end_bodies = reader.end_bodies
            for i in range(a.tables):
                photo = render_table(seed, i, faces, layout, look=table_look(seed, style))
                H = reader.locate(photo.image)
                if H is None:
                    continue
                table = reader.table_score(photo.image, H)
                assert table is not None
                tables.append(table)
                looked: list[tuple[Point, str | None, float, bool]] = []
                R.TABLE_LEAD = -np.inf
                reader.end_bodies = recorder(reader, end_bodies, table, looked)  # type: ignore[method-assign]
                try:
                    reading = reader.read(photo.image, located=H).asked()
                finally:
                    reader.end_bodies = end_bodies  # type: ignore[method-assign]
                t = compare(reading, photo.truth)
                totals["off"].update({k: getattr(t, k) for k in ("cards", "right", "wrong")})
                totals["off"].update({"null": t.null, "phantom": t.phantom})
                for p, card, lead, _last in looked:
                    where, want = truth_at(layout, photo.truth, p)
                    kind = "phantom" if want is None else "right" if card == want else "wrong"
                    if card is None and want is not None:
                        kind = "asked"
                    seen[kind].append(lead)
                    if kind != "right":
                        print(
                            f"{style} seed {seed} table {i} {where}: {want} read {card} "
                            f"table {table:.3f} lead {lead:.3f} [{kind}]",
                            flush=True,
                        )
                for lead in leads:
                    R.TABLE_LEAD = lead
                    t = compare(reader.read(photo.image, located=H).asked(), photo.truth)
                    totals[lead].update({k: getattr(t, k) for k in ("cards", "right", "wrong")})
                    totals[lead].update({"null": t.null, "phantom": t.phantom})
        R.TABLE_LEAD = keep
        q = np.percentile(tables, [0, 50, 95, 100])
        print(
            f"{style} table score least / median / 95th / most " + " / ".join(f"{x:.3f}" for x in q)
        )
        for kind, v in seen.items():
            if v:
                q = np.percentile(v, [0, 1, 5, 50])
                print(
                    f"{style} {kind} row cards n={len(v)} lead on the table least / 1st / 5th / "
                    "median " + " / ".join(f"{x:.3f}" for x in q)
                )
        for lead, c in totals.items():
            below = (
                {k: sum(x < float(lead) for x in v) for k, v in seen.items()}
                if lead != "off"
                else {}
            )
            print(
                f"{style} TABLE_LEAD {lead}: {c['right']} / {c['cards']} right, wrong "
                f"{c['wrong']}, null {c['null']}, phantom {c['phantom']}"
                + (f"; row cards under it: {below}" if below else ""),
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
