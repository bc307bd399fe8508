"""Second looks at the Locations the Onirim reader names, right against wrong, on a
DEVELOPMENT set: which look decided each one, and what other looks at the same crop say.

    PYTHONPATH=. python benchmarks/onirim_symbol_views.py --seeds A:B --tables 3 [--styles random]

Each table is scored as `onirim_vision.py --curve --symbol-rows --named-rows` scores it (every
Location place, the discard top, the Mirrors' fans), and for each Location the reader names one
line: the truth, the name, the look that decided it (`symbol` when two or more types of its
colour were the finalists and their symbol chose, `colour` when another colour was among the
finalists, else `type`), right or wrong, and the reader's numbers (whole-corner margin, symbol
lead, kept, sharp, fit, overruled, colour lead and look). For a symbol-named card, besides:

    same    the named type's lead on the nearest at ONE shift (where the two fit best together)
            as a share of the pair's reach: the reader scores each type at its own best shift
    ch1 ch2 the same lead in either chroma channel (the pair's mask made there), with its reach
    half    the lead with the region and both templates halved (a second scale)
    reach   the pair's own reach (`SymbolPair.reach`), floor its least over the blur steps
    deck_lead  the pair's lead from the taught faces alone (`deck_leads`, before any table)

Before a deck's tables, one `DECK` line: each same-colour pair's `deck_leads` lead, reach,
blur floor and compared channel (a per-deck measure: a deck whose two symbols of one colour
look alike should show a thin lead there).

At the end, for each of these, the curve: right and wrong names it would ask below each bar.
Development seeds only: the held-out painter is refused.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import benchmarks.onirim_vision as V  # noqa: E402
from companion.games.onirim.vision import read as R  # noqa: E402
from companion.games.onirim.vision.layout import load_layout  # noqa: E402
from companion.games.onirim.vision.render import deck_faces, deck_style, render_table, table_look  # noqa: E402

BARS = (-0.2, -0.1, 0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)


def pair_scores(region: np.ndarray, pair: R.SymbolPair) -> np.ndarray:
    """(shifts, 2): each type's correlation on the pair's symbol pixels at every shift."""
    plane = np.ascontiguousarray(region[..., pair.channel], dtype=np.float32)
    rh, rw = plane.shape
    h, w = pair.mask.shape
    ys, xs = np.nonzero(pair.mask)
    shifts = (np.arange(rh - h + 1)[:, None] * rw + np.arange(rw - w + 1)).ravel()
    x = plane.ravel()[shifts[:, None] + (ys * rw + xs)]
    x -= x.mean(axis=-1, keepdims=True)
    length = np.maximum(1e-6, np.sqrt(np.einsum("ij,ij->i", x, x)))
    return (x @ pair.ab) / length[:, None]


def lead_of(scores: np.ndarray, pair: R.SymbolPair, named_is_a: bool) -> float:
    """The named type's lead, each type at its own best shift (as the reader)."""
    sa, sb = float(scores[:, 0].max()), float(scores[:, 1].max())
    return ((sa - sb) if named_is_a else (sb - sa)) / pair.reach


_PAIRS: dict[tuple[int, int, int, bool], R.SymbolPair] = {}


def _pair(reader: R.TableReader, lo: int, hi: int, ch: int, half: bool = False) -> R.SymbolPair:
    """The pair lo, hi on channel `ch` (halved: both templates at half scale), made once."""
    key = (lo, hi, ch, half)
    got = _PAIRS.get(key)
    if got is None:
        T = reader.lib.templates
        ts = [T[lo], T[hi]]
        if half:
            ts = [
                cv2.resize(t, (t.shape[1] // 2, t.shape[0] // 2), interpolation=cv2.INTER_AREA)
                for t in ts
            ]
        got = _PAIRS[key] = R.symbol_pair(ts[0], ts[1], ch)
    return got


def views(reader: R.TableReader, region: np.ndarray, best: int, other: int) -> dict[str, Any]:
    """The second looks at one crop (Lab, the corner plus `FINE_REACH` each way)."""
    lo, hi = min(best, other), max(best, other)
    a_is_best = best == lo
    out: dict[str, Any] = {}
    pair = reader.symbol_pairs[lo, hi]
    s = pair_scores(region, pair)
    k = int(np.argmax(s.sum(axis=1)))
    d = float(s[k, 0] - s[k, 1]) / pair.reach
    out["same"] = d if a_is_best else -d
    out["channel"] = pair.channel
    out["reach"] = pair.reach
    out["floor"] = reader.sharp_floor(lo, hi)
    out["deck_lead"] = DECK[lo, hi]
    for ch in (0, 1, 2):
        p = _pair(reader, lo, hi, ch)
        out[f"ch{ch}"] = lead_of(pair_scores(region, p), p, a_is_best)
        out[f"reach{ch}"] = p.reach
    small = cv2.resize(
        region, (region.shape[1] // 2, region.shape[0] // 2), interpolation=cv2.INTER_AREA
    )
    p = _pair(reader, lo, hi, pair.channel, half=True)
    out["half"] = lead_of(pair_scores(small, p), p, a_is_best)
    return out


DECK: dict[tuple[int, int], float] = {}
"""The deck's own pairs (`deck_leads`), set per deck."""

TEACH_SHIFTS = (-1.0, -0.5, 0.0, 0.5, 1.0)
TEACH_SCALES = (0.94, 1.0, 1.06)
TEACH_BLURS = (0.0, 1.2, 2.0)


def deck_leads(reader: R.TableReader) -> dict[tuple[int, int], float]:
    """From the taught faces alone (before any table): for each same-colour pair, the least
    lead (a share of the pair's reach, as the reader scores it) of either face's own template,
    moved, scaled and blurred a little as a table shows it, on the other's: how well the
    symbol look tells the pair apart at all (1: as well as its reach says; under 0: a face
    moved a pixel already reads as the other)."""
    T = reader.lib.templates
    out: dict[tuple[int, int], float] = {}
    for (lo, hi), pair in reader.symbol_pairs.items():
        least = np.inf
        for k, named in ((lo, True), (hi, False)):
            base = T[k].astype(np.float32)
            h, w = base.shape[:2]
            big = cv2.copyMakeBorder(base, 4, 4, 4, 4, cv2.BORDER_REPLICATE)
            for sc in TEACH_SCALES:
                for dy in TEACH_SHIFTS:
                    for dx in TEACH_SHIFTS:
                        c = (big.shape[1] / 2 + dx, big.shape[0] / 2 + dy)
                        m = cv2.getRotationMatrix2D(c, 0.0, sc)
                        moved = cv2.warpAffine(
                            big,
                            m,
                            (big.shape[1], big.shape[0]),
                            flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE,
                        )
                        for sg in TEACH_BLURS:
                            img = moved if sg == 0 else cv2.GaussianBlur(moved, (0, 0), sg)
                            r = R.FINE_REACH
                            region = img[4 - r : 4 + h + r, 4 - r : 4 + w + r]
                            least = min(least, lead_of(pair_scores(region, pair), pair, named))
        out[lo, hi] = float(least)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", required=True, help="A:B, development seeds")
    ap.add_argument("--tables", type=int, default=3)
    ap.add_argument("--styles", default="random")
    a = ap.parse_args()
    layout = load_layout()
    lo, hi = (int(v) for v in a.seeds.split(":"))
    rows: list[dict[str, Any]] = []
    least: dict[int, float] = {}
    for style in a.styles.split(","):
        if style not in ("house", "random"):
            raise SystemExit("--styles: house or random (the held-out designs are never looked at)")
        for seed in range(lo, hi):
            faces = deck_faces(deck_style(seed, style), layout)
            _PAIRS.clear()  # a deck's own templates
            reader, _ = V.teach_deck(faces, seed)
            DECK.clear()
            DECK.update(deck_leads(reader))
            ids = reader.lib.ids
            least[seed] = min(DECK.values(), default=np.inf)
            print(
                f"DECK {seed} "
                + " ".join(
                    f"{ids[i]}|{ids[j]}:lead={v:.3f},reach={reader.symbol_pairs[i, j].reach:.3f},"
                    f"floor={reader.sharp_floor(i, j):.3f},ch={reader.symbol_pairs[i, j].channel}"
                    for (i, j), v in sorted(DECK.items())
                ),
                flush=True,
            )
            seen: dict[tuple[int, float], dict[str, Any]] = {}
            by_symbol = reader.by_symbol

            def wrapped(region, kin, _r=reader, _f=by_symbol, _seen=seen):
                got = _f(region, kin)
                _seen[got[0], round(got[2], 9)] = views(_r, region, got[0], got[1])
                return got

            reader.by_symbol = wrapped  # type: ignore[method-assign]

            def named(zone, card, m, _seen=seen, _reader=reader, _seed=seed):
                if zone not in ("location", "discard") or m.card is None or card is None:
                    return
                if not R.is_location(card) or not R.is_location(m.card):
                    return
                look = (
                    "symbol"
                    if m.symbol is not None
                    else ("colour" if m.colour_look is not None else "type")
                )
                row: dict[str, Any] = {
                    "seed": _seed,
                    "zone": zone,
                    "truth": card,
                    "named": m.card,
                    "look": look,
                    "ok": "right" if m.card == card else "wrong",
                    "fault": ""
                    if m.card == card
                    else ("colour" if R.colour_of(m.card) != R.colour_of(card) else "symbol"),
                }
                for k in (
                    "score",
                    "margin",
                    "symbol",
                    "symbol_kept",
                    "symbol_sharp",
                    "symbol_fit",
                    "overruled",
                    "colour_lead",
                    "colour_look",
                ):
                    v = getattr(m, k)
                    row[k] = None if v is None else round(float(v), 4)
                if m.symbol is not None:
                    extra = _seen.get((_reader.index[m.best], round(m.symbol, 9)))
                    if extra is not None:
                        row |= {
                            k: (round(v, 4) if isinstance(v, float) else v)
                            for k, v in extra.items()
                        }
                rows.append(row)
                print("NAMED " + json.dumps(row), flush=True)

            V.print_named = named  # type: ignore[assignment]
            for i in range(a.tables):
                photo = render_table(seed, i, faces, layout, look=table_look(seed, style))
                out: dict[str, list[float]] = {}
                from collections import defaultdict

                V.curve(reader, photo.image, photo.truth, defaultdict(list, out), named_rows=True)
    for look in ("symbol", "colour", "type"):
        got = [r for r in rows if r["look"] == look]
        print(
            f"named by the {look} look: {sum(r['ok'] == 'right' for r in got)} right, "
            f"{sum(r['fault'] == 'symbol' for r in got)} the wrong type of its colour, "
            f"{sum(r['fault'] == 'colour' for r in got)} the wrong colour"
        )
    sym = [r for r in rows if r["look"] == "symbol" and "same" in r]
    keys = ("deck_lead", "reach", "floor", "symbol", "same", "ch0", "ch1", "ch2", "half")
    for key in (*keys, "symbol_kept", "symbol_fit"):
        print(f"asked (right / wrong) by {key} under:")
        print(
            "  "
            + "  ".join(
                f"{b:.2f}: {sum(r[key] < b for r in sym if r['ok'] == 'right')}/"
                f"{sum(r[key] < b for r in sym if r['ok'] == 'wrong')}"
                for b in BARS
            )
        )
    chroma_grid(sym)
    deck_curve(rows, least)
    return 0


def deck_curve(rows: list[dict[str, Any]], least: dict[int, float]) -> None:
    """Per deck: its least pair lead from the taught faces (`deck_leads`) against the
    Locations it named the wrong type of their colour; then decks with and without such a
    wrong name whose least lead is under each bar."""
    wrong = {s: sum(r["seed"] == s and r["fault"] == "symbol" for r in rows) for s in least}
    for s in sorted(least, key=least.__getitem__):
        named = sum(r["seed"] == s for r in rows)
        print(f"deck {s}: least pair lead {least[s]:.3f}, {named} named, {wrong[s]} wrong type")
    print("decks under each least pair lead (with a wrong type / without):")
    print(
        "  "
        + "  ".join(
            f"{b:.2f}: {sum(v < b and wrong[s] > 0 for s, v in least.items())}/"
            f"{sum(v < b and wrong[s] == 0 for s, v in least.items())}"
            for b in BARS
        )
    )


CHROMA_GATES = (0.03, 0.05, 0.08, 0.12, 1.0)
CHROMA_BARS = (-0.6, -0.5, -0.45, -0.4, -0.35, -0.3, -0.2, 0.0)


def chroma_grid(sym: list[dict[str, Any]]) -> None:
    """`read.SYMBOL_CHROMA_BELOW` and `SYMBOL_CHROMA_LEAD` chosen together: symbol-named cards
    whose whole-corner margin is under a gate (rows) and whose least lead in a chroma channel
    (not the pair's own, its reach at least `SYMBOL_CHROMA_REACH`) is under a bar (columns),
    right / wrong; and each gate's right and wrong least leads."""

    def chroma(r: dict[str, Any]) -> float:
        v = [
            r[f"ch{c}"]
            for c in (1, 2)
            if c != r["channel"] and r[f"reach{c}"] >= R.SYMBOL_CHROMA_REACH
        ]
        return min(v) if v else np.inf

    print(f"chroma lead (reach >= {R.SYMBOL_CHROMA_REACH}): asked right / wrong, margin under")
    print("  gate   " + " ".join(f"{b:>7.2f}" for b in CHROMA_BARS))
    for g in CHROMA_GATES:
        got = [r for r in sym if r["margin"] < g]
        cells = [
            f"{sum(chroma(r) < b for r in got if r['ok'] == 'right')}/"
            f"{sum(chroma(r) < b for r in got if r['ok'] == 'wrong')}"
            for b in CHROMA_BARS
        ]
        right = sorted(round(chroma(r), 3) for r in got if r["ok"] == "right")
        wrong = sorted(round(chroma(r), 3) for r in got if r["ok"] == "wrong")
        print(f"  {g:.2f}   " + " ".join(f"{c:>7}" for c in cells))
        print(f"         {len(got)} cards; right least {right[:4]}, wrong {wrong}")


if __name__ == "__main__":
    raise SystemExit(main())
