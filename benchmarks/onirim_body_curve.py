"""The curve of `read.END_BODY_LEAD` (a row's last card reaching `END_SURE` must lead the body of
the card before it, or the row ends before it), on a DEVELOPMENT set.

    PYTHONPATH=. python benchmarks/onirim_body_curve.py --seeds A:B --tables 3 \
        [--styles random,house] [--leads -0.2,-0.1,0,0.03]

For each seed a deck is drawn and taught (as `onirim_vision.py` does) and `--tables` tables are
rendered. Each table is read once with the rule off, and every row's last card the rule would
look at (the labyrinth's, each fan's, the Doors': scoring `END_SURE` or more unlifted, a card
before it; before a fan's first place, its Mirror card) is printed on a line with its lead on
that body and whether a card of that type lies there (right), another card (wrong) or none
(phantom); then the table is read at each `--leads` value and each value's tally printed:
cards right, named wrong, asked, phantoms. Development seeds only; the held-out designs are
never looked at.
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
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.onirim_vision import teach_deck  # noqa: E402
from companion.games.onirim.rules import ENGINE  # noqa: E402
from companion.games.onirim.vision import read as R  # noqa: E402
from companion.games.onirim.vision.compare import compare  # noqa: E402
from companion.games.onirim.vision.layout import Point, TableLayout, load_layout  # noqa: E402
from companion.games.onirim.vision.reading import TableReading  # noqa: E402
from companion.games.onirim.vision.render import (  # noqa: E402
    deck_faces,
    deck_style,
    render_table,
    table_look,
)


def truth_at(layout: TableLayout, truth: TableReading, p: Point) -> tuple[str, str | None]:
    """(where, the card lying at place `p` by the answer key, or None)."""
    if p in layout.labyrinth_places:
        j = layout.labyrinth_places.index(p)
        return f"labyrinth {j + 1}", truth.labyrinth[j] if j < len(truth.labyrinth) else None
    if p in layout.door_places:
        j = layout.door_places.index(p)
        return f"door {j + 1}", f"door-{truth.doors[j]}" if j < len(truth.doors) else None
    order = list(ENGINE.deck.mirrors)
    for i, mid in enumerate(order):
        for k in range(layout.fan_max):
            if layout.under_place(i, k) == p:
                under = next((m.under for m in truth.mirrors if m.mirror == mid), ())
                return f"under {mid} {k + 1}", under[k] if k < len(under) else None
    return "?", None


Looked = list[tuple[Point, str | None, float, str]]
"""Cards a curve looks at: place, the name read, the lead the rule would judge, a note printed
with it (what else the rule's look saw there, or "")."""
Watch = Callable[[R.TableReader, Callable[..., list[R.Match]], np.ndarray, np.ndarray, Looked], Any]
"""Given the reader, its own `end_bodies`, the table's image and pose and the list to fill:
an `end_bodies` that records the cards its rule judges (or None to skip the table)."""


def recorder(
    reader: R.TableReader,
    end_bodies: Callable[..., list[R.Match]],
    image: np.ndarray,
    H: np.ndarray,
    looked: Looked,
) -> Callable[..., list[R.Match]]:
    """`end_bodies` that first adds the row's last card the rule looks at to `looked`
    (its place, its name, its lead on the body of the card before it)."""

    def record(image, H, row, place, first=None, table=None, mirror=None):
        R.ended(row)
        if row and not row[-1].shown:
            j = len(row) - 1
            before, at = (row[j - 1], place(j - 1)) if j else (first or (None, None))
            if before is not None and at is not None and not before.empty:
                body = reader.body_score(image, H, place(j), at, before.best)
                if body is not None:
                    looked.append((place(j), row[j].card, row[j].score - body, ""))
        return end_bodies(image, H, row, place, first, table, mirror)

    return record


def lead_curve(
    a: argparse.Namespace, style: str, setting: str, watch: Watch, what: str, every: bool
) -> None:
    """The curve of the reader's `setting` (a lead a row's cards must keep, -inf off) on
    `--seeds` x `--tables` development tables of `style`: each table read once with it off and
    `watch`'s cards judged against the answer key (printed one a line, only those not right
    unless `every`), then read at each `--leads` value; last the leads' spread by kind and
    each value's tally (cards right, named wrong, null, phantom; cards under the value)."""
    if style not in ("house", "random"):
        raise SystemExit("--styles: house or random (the held-out designs are never looked at)")
    layout = load_layout()
    lo, hi = (int(v) for v in a.seeds.split(":"))
    leads = [float(v) for v in a.leads.split(",")]
    keep = getattr(R, setting)
    totals = {t: Counter() for t in ["off", *leads]}
    seen: dict[str, list[float]] = {"right": [], "asked": [], "wrong": [], "phantom": []}
    try:
        for seed in range(lo, hi):
            faces = deck_faces(deck_style(seed, style), layout)
            reader, _ = teach_deck(faces, seed)
            end_bodies = reader.end_bodies
            for i in range(a.tables):
                photo = render_table(seed, i, faces, layout, look=table_look(seed, style))
                H = reader.locate(photo.image)
                looked: Looked = []
                record = None if H is None else watch(reader, end_bodies, photo.image, H, looked)
                if record is None:
                    continue
                setattr(R, setting, -np.inf)
                reader.end_bodies = record  # type: ignore[method-assign]
                try:
                    reading = reader.read(photo.image, located=H).asked()
                finally:
                    reader.end_bodies = end_bodies  # type: ignore[method-assign]
                _tally(totals["off"], compare(reading, photo.truth))
                for p, card, lead, note in looked:
                    where, want = truth_at(layout, photo.truth, p)
                    kind = "phantom" if want is None else "right" if card == want else "wrong"
                    if card is None and want is not None:
                        kind = "asked"  # not named: a card lies there all the same
                    seen[kind].append(lead)
                    if every or kind != "right":
                        print(
                            f"{style} seed {seed} table {i} {where}: {want} read {card} "
                            f"lead {lead:.3f} [{kind}]" + (f" {note}" if note else ""),
                            flush=True,
                        )
                for lead in leads:
                    setattr(R, setting, lead)
                    read = reader.read(photo.image, located=H).asked()
                    _tally(totals[lead], compare(read, photo.truth))
    finally:
        setattr(R, setting, keep)
    for kind, v in seen.items():
        if v:
            q = np.percentile(v, [0, 1, 5, 50])
            print(
                f"{style} {kind} {what} n={len(v)} lead least / 1st / 5th / median "
                + " / ".join(f"{x:.3f}" for x in q)
            )
    for lead, c in totals.items():
        below = (
            {k: sum(x < float(lead) for x in v) for k, v in seen.items()} if lead != "off" else {}
        )
        print(
            f"{style} {setting} {lead}: {c['right']} / {c['cards']} right, wrong "
            f"{c['wrong']}, null {c['null']}, phantom {c['phantom']}"
            + (f"; {what} under it: {below}" if below else ""),
            flush=True,
        )


def _tally(into: Counter, t: Any) -> None:
    into.update({k: getattr(t, k) for k in ("cards", "right", "wrong", "null", "phantom")})


def curve_args(leads: str) -> argparse.Namespace:
    """The command line every lead-curve tool takes (`lead_curve`'s `a`), `leads` the values
    of the rule's lead it reads at unless told."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", required=True, help="A:B, development seeds")
    ap.add_argument("--tables", type=int, default=3)
    ap.add_argument("--styles", default="random")
    ap.add_argument("--leads", default=leads)
    return ap.parse_args()


def main() -> int:
    a = curve_args("-0.3,-0.2,-0.1,-0.05,0,0.03")
    for style in a.styles.split(","):
        lead_curve(a, style, "END_BODY_LEAD", recorder, "last cards", every=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
