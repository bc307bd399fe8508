"""The curve of `read.MIRROR_BODY_LEAD` (a fan's last cards must lead their Mirror card's own body
at their place, or the fan ends before them), on a DEVELOPMENT set.

    PYTHONPATH=. python benchmarks/onirim_mirror_body_curve.py --seeds A:B --tables 3 \
        [--styles random,house] [--leads -0.1,0,0.05,0.1,0.2]

For each seed a deck is drawn and taught (as `onirim_vision.py` does) and `--tables` tables are
rendered. Each table is read once with the rule off, and every card of every fan, as the fan
ends, is tallied with its lead on the body of its Mirror card's unexplored side at its place
(`TableReader.body_score`) and whether a card of that type lies there (right), another card
(wrong), a card not named (asked) or none (phantom); the cards not right are printed on a
line with what the rule's look saw: the card's own score, the Mirror's body there, the body
of the Mirror's side as read (when the place read another side or none), the body of the fan's
card before it, and the Mirror place's own reading. Then the table is read at each `--leads`
value and each value's tally printed: cards right, named wrong, asked, phantoms.
Development seeds only; the held-out designs are never looked at.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import sys  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.onirim_body_curve import Looked, curve_args, lead_curve  # noqa: E402
from companion.games.onirim.vision import read as R  # noqa: E402


def _num(v: float | None) -> str:
    return "-" if v is None else f"{v:.3f}"


def mirror_watch(
    reader: R.TableReader,
    end_bodies: Callable[..., list[R.Match]],
    image: np.ndarray,
    H: np.ndarray,
    looked: Looked,
) -> Callable[..., list[R.Match]]:
    """A `lead_curve` watch: the `end_bodies` it returns adds each card of each fan, as the
    fan ends, to `looked` with its lead on its Mirror card's body at its place, and a note
    of what else was seen there."""

    def record(image, H, row, place, first=None, table=None, mirror=None):
        out = end_bodies(image, H, row, place, first, table, mirror)
        if mirror is None:
            return out
        kind, at = mirror
        seen = None if first is None else first[0]
        for j, m in enumerate(out):
            under = reader.body_score(image, H, place(j), at, kind)
            if under is None:
                continue
            as_read = (
                reader.body_score(image, H, place(j), at, seen.best)
                if seen is not None and seen.best != kind
                else None
            )
            before = (
                reader.body_score(image, H, place(j), place(j - 1), out[j - 1].best) if j else None
            )
            mirror_at = (
                "none"
                if seen is None
                else f"{'empty' if seen.empty else 'unsure' if seen.card is None else 'read'} "
                f"{seen.best} {seen.score:.3f}"
            )
            note = (
                f"fan place {j + 1} of {len(out)} score {m.score:.3f} lift {m.lift:.3f} "
                f"{'shown ' if m.shown else ''}mirror body {under:.3f} "
                f"as read {_num(as_read)} card before's body {_num(before)}; "
                f"Mirror place {mirror_at}"
            )
            looked.append((place(j), m.card, m.score - under, note))
        return out

    return record


def main() -> int:
    a = curve_args("-0.1,0,0.05,0.1,0.2")
    for style in a.styles.split(","):
        lead_curve(a, style, "MIRROR_BODY_LEAD", mirror_watch, "fan cards", every=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
