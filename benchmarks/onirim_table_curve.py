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

import sys  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.onirim_body_curve import Looked, curve_args, lead_curve  # noqa: E402
from companion.games.onirim.vision import read as R  # noqa: E402


def table_watch(tables: list[float]) -> Callable[..., Callable[..., list[R.Match]] | None]:
    """A `lead_curve` watch: the table's own score is measured (and kept in `tables`), and the
    `end_bodies` it returns adds each card of each row, as the row ends, to `looked` with its
    lead on that score."""

    def watch(
        reader: R.TableReader,
        end_bodies: Callable[..., list[R.Match]],
        image: np.ndarray,
        H: np.ndarray,
        looked: Looked,
    ) -> Callable[..., list[R.Match]] | None:
        bare = reader.table_score(image, H)
        if bare is None:
            return None
        tables.append(bare)

        def record(image, H, row, place, first=None, table=None, mirror=None):
            out = end_bodies(image, H, row, place, first, table, mirror)
            for j, m in enumerate(out):
                looked.append((place(j), m.card, m.score - bare, ""))
            return out

        return record

    return watch


def main() -> int:
    a = curve_args("0,0.05,0.1,0.15,0.2")
    for style in a.styles.split(","):
        tables: list[float] = []
        lead_curve(a, style, "TABLE_LEAD", table_watch(tables), "row cards", every=False)
        if tables:
            q = np.percentile(tables, [0, 50, 95, 100])
            print(
                f"{style} table score least / median / 95th / most "
                + " / ".join(f"{x:.3f}" for x in q)
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
