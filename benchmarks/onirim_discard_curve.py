"""The curve of `read.DISCARD_SYMBOL_BELOW`, on a DEVELOPMENT set: the discard pile's top whose
whole corner leads the other Location of its colour by less than it is decided by the symbol
look (which must name the whole corner's first type).

    PYTHONPATH=. python benchmarks/onirim_discard_curve.py --seeds A:B --tables 3 [--styles house]

For each seed a deck is drawn and taught (as `onirim_vision.py` does), `--tables` tables are
rendered, and the discard place alone is read twice: as the whole corner decides
(`DISCARD_SYMBOL_BELOW` 0) and with the symbol look deciding wherever the first two types share
a colour (1.0). Prints a line per top whose first two share a colour (truth, whole-corner first,
margin, symbol lead, kept, sharp, what each look names), then, for each value of the bar, the
tops named right, named wrong, asked, and phantoms (a card named where the pile is bare).
Development seeds only; the held-out painter is refused.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.onirim_vision import teach_deck  # noqa: E402
from companion.games.onirim.rules.deck import colour_of, is_location  # noqa: E402
from companion.games.onirim.vision import read as R  # noqa: E402
from companion.games.onirim.vision.layout import load_layout  # noqa: E402
from companion.games.onirim.vision.render import (  # noqa: E402
    deck_faces,
    deck_style,
    render_table,
    table_look,
)

BARS = (0.0, 0.03, 0.06, 0.08, 0.10, 0.15, 0.20, 0.30, 1.0)


def outcome(want: str | None, got: str | None) -> str:
    if got is None:
        return "asked" if want is not None else "bare"
    if want is None:
        return "phantom"
    return "right" if got == want else "wrong"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", required=True, help="A:B, development seeds")
    ap.add_argument("--tables", type=int, default=3)
    ap.add_argument("--styles", default="house")
    a = ap.parse_args()
    layout = load_layout()
    lo, hi = (int(v) for v in a.seeds.split(":"))
    rows: list[tuple[str | None, R.Match, R.Match]] = []
    for style in a.styles.split(","):
        if style not in ("house", "random"):
            raise SystemExit("--styles: house or random (the held-out designs are never looked at)")
        for seed in range(lo, hi):
            faces = deck_faces(deck_style(seed, style), layout)
            reader, _ = teach_deck(faces, seed)
            for i in range(a.tables):
                photo = render_table(seed, i, faces, layout, look=table_look(seed, style))
                H = reader.locate(photo.image)
                if H is None:
                    continue
                window = reader.corner_window(photo.image, H, layout.discard_place)
                R.DISCARD_SYMBOL_BELOW = 0.0
                whole = reader.match([window], "discard")[0]
                R.DISCARD_SYMBOL_BELOW = 1.0
                symbol = reader.match([window], "discard")[0]
                want = photo.truth.discard_top
                rows.append((want, whole, symbol))
                if symbol.symbol is not None:
                    print(
                        f"{style} seed {seed} table {i}: truth {want} whole {whole.best} "
                        f"margin {symbol.margin:.3f} symbol best {symbol.best} "
                        f"lead {symbol.symbol:.3f} overruled {symbol.overruled:.3f} "
                        f"kept {symbol.symbol_kept} sharp {symbol.symbol_sharp} "
                        f"-> whole {outcome(want, whole.card)}, symbol "
                        f"{outcome(want, symbol.card)}",
                        flush=True,
                    )
    tops = sum(1 for w, _, _ in rows if w is not None)
    same = [r for r in rows if r[2].symbol is not None and r[0] is not None and is_location(r[0])]
    print(f"\n{len(rows)} discard places, {tops} tops, {len(same)} tops decided by symbol at 1.0")
    for kind in ("right", "wrong"):
        leads = sorted(
            s.symbol
            for w, _, s in same
            if s.symbol is not None and (s.best == w) == (kind == "right")
        )
        print(f"  symbol lead, best {kind}: " + " ".join(f"{v:.3f}" for v in leads[:12]))
    colours_same = sum(
        1 for w, wh, _ in same if w is not None and colour_of(wh.best) == colour_of(w)
    )
    print(f"  of them the whole corner's colour right: {colours_same}")
    print("\n  bar   right wrong asked phantom")
    for bar in BARS:
        c = {"right": 0, "wrong": 0, "asked": 0, "phantom": 0, "bare": 0}
        for want, whole, symbol in rows:
            got = symbol.card if symbol.symbol is not None and whole.margin < bar else whole.card
            c[outcome(want, got)] += 1
        print(f"  {bar:4.2f}  {c['right']:5} {c['wrong']:5} {c['asked']:5} {c['phantom']:7}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
