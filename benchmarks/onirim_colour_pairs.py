"""Named-wrong cards by colour pair, the colour look's curve on brown against red and blue, and
the discard pile's lift curve, on a DEVELOPMENT set.

    PYTHONPATH=. python benchmarks/onirim_colour_pairs.py --seeds A:B --tables 3 [--styles random]

For each seed a deck is drawn and taught (as `onirim_vision.py` does), `--tables` tables are
rendered and read, and:

- every card named wrong (`onirim_failures.faults`) is listed with its colour pair (truth's
  colour -> the read's) and the reader's numbers there (score, margin, the colour look and the
  whole corner's colour lead), then counted by pair;
- every Location named (labyrinth, fans, discard top) whose colour is brown, red or blue is
  looked at again (`TableReader.match` on its window) for its colour look (`Match.colour_look`)
  and colour lead (`Match.colour_lead`): for each bar, the cards a rule asking below it would
  ask, right and wrong, counted for the look, the lead, and the least of the two;
- the discard place is read at each `read.DISCARD_LIFT_MAX` in `CAPS` (how far the deck's lift
  lowers the pile's bar `DISCARD_SURE`): tops named right / wrong / asked and bare places
  named (phantoms), with every place whose outcome differs between caps printed (its score
  less the lift, and the lift).

Development seeds only; the held-out painter is refused.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import sys  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.onirim_failures import faults  # noqa: E402
from benchmarks.onirim_vision import teach_deck  # noqa: E402
from companion.games.onirim.rules import ENGINE  # noqa: E402
from companion.games.onirim.rules.deck import colour_of, is_location  # noqa: E402
from companion.games.onirim.vision import read as R  # noqa: E402
from companion.games.onirim.vision.layout import load_layout  # noqa: E402
from companion.games.onirim.vision.render import (  # noqa: E402
    deck_faces,
    deck_style,
    render_table,
    table_look,
)

CAPS = (0.0, 0.03, 0.06, 0.09, 0.12)
BARS = (0.0, 0.03, 0.05, 0.08, 0.10, 0.12, 0.14, 0.16, 0.20, 0.25)
COLOURS = {"brown", "red", "blue"}


def colour(card: str | None) -> str:
    if card is None:
        return "-"
    if card.startswith("door-"):
        return card.removeprefix("door-")
    return colour_of(card) if is_location(card) else card


def outcome(want: str | None, got: str | None) -> str:
    if got is None:
        return "asked" if want is not None else "bare"
    if want is None:
        return "phantom"
    return "right" if got == want else "wrong"


def fmt(v: float | None) -> str:
    return "-" if v is None else f"{v:.3f}"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", required=True, help="A:B, development seeds")
    ap.add_argument("--tables", type=int, default=3)
    ap.add_argument("--styles", default="random")
    a = ap.parse_args()
    layout = load_layout()
    lo, hi = (int(v) for v in a.seeds.split(":"))
    pairs: Counter[str] = Counter()
    named: list[tuple[bool, float | None, float | None]] = []  # (right, look, lead)
    discard: dict[float, Counter[str]] = {c: Counter() for c in CAPS}
    cards = 0
    for style in a.styles.split(","):
        if style not in ("house", "random"):
            raise SystemExit("--styles: house or random (the held-out designs are never looked at)")
        for seed in range(lo, hi):
            faces = deck_faces(deck_style(seed, style), layout)
            reader, refused = teach_deck(faces, seed)
            if refused:
                print(f"{style} seed {seed}: {refused} teach photos refused, skipped", flush=True)
                continue
            for t in range(a.tables):
                photo = render_table(seed, t, faces, layout, look=table_look(seed, style))
                H = reader.locate(photo.image)
                if H is None:
                    continue
                reading = reader.read(photo.image, located=H)
                truth = photo.truth
                cards += len(truth.labyrinth) + len(truth.doors) + len(truth.mirrors)
                cards += sum(len(m.under) for m in truth.mirrors) + (truth.discard_top is not None)
                where = f"{style} seed {seed} table {t} lift {reader.lift:.3f}"
                for f in faults(reader, photo.image, reading, truth):
                    if f.kind != "wrong":
                        continue
                    pair = f"{colour(f.want)}->{colour(f.got)}"
                    pairs[pair] += 1
                    m = f.match
                    nums = (
                        ""
                        if m is None
                        else f"score {m.score:.3f} margin {m.margin:.3f} look "
                        f"{fmt(m.colour_look)} lead {fmt(m.colour_lead)} best {m.best} "
                        f"runner {m.runner_up}"
                    )
                    print(f"WRONG {where} {f.zone} {f.index}: {f.want} -> {f.got} [{pair}] {nums}")
                # Every Location named brown, red or blue: its colour look and lead.
                L = reader.layout
                places = [
                    (p, "location", w, g)
                    for p, w, g in zip(
                        L.labyrinth_places, truth.labyrinth, reading.labyrinth, strict=False
                    )
                ]
                seen = {m.mirror: m for m in reading.mirrors}
                order = list(ENGINE.deck.mirrors)
                for m in truth.mirrors:
                    i = order.index(m.mirror)
                    got = seen[m.mirror].under if m.mirror in seen else ()
                    places += [
                        (L.under_place(i, k), "location", w, g)
                        for k, (w, g) in enumerate(zip(m.under, got, strict=False))
                    ]
                if truth.discard_top is not None and reading.discard_top is not None:
                    places.append(
                        (L.discard_place, "discard", truth.discard_top, reading.discard_top)
                    )
                places = [
                    x
                    for x in places
                    if x[3] is not None and is_location(x[3]) and colour(x[3]) in COLOURS
                ]
                if places:
                    ms = reader.match(
                        [reader.corner_window(photo.image, H, p) for p, _, _, _ in places],
                        [z for _, z, _, _ in places],
                    )
                    for (_, _, w, g), m in zip(places, ms, strict=True):
                        named.append((w == g, m.colour_look, m.colour_lead))
                # The discard place at each cap of the lift on its bar.
                window = reader.corner_window(photo.image, H, layout.discard_place)
                want = truth.discard_top
                got_by_cap = {}
                keep = R.DISCARD_LIFT_MAX
                for cap in CAPS:
                    R.DISCARD_LIFT_MAX = cap
                    (m,) = reader.match([window], "discard")
                    got = None if m.empty and m.card is None else m.card
                    got_by_cap[cap] = got
                    discard[cap][outcome(want, got)] += 1
                R.DISCARD_LIFT_MAX = keep
                if len(set(got_by_cap.values())) > 1:
                    print(
                        f"DISCARD {where}: truth {want} score-lift {m.score - m.lift:.3f} best "
                        f"{m.best} margin {m.margin:.3f} -> "
                        + " ".join(f"{c:.2f}:{outcome(want, g)}" for c, g in got_by_cap.items()),
                        flush=True,
                    )
    print(f"\n{cards} cards; named wrong by colour pair (truth->read):")
    for pair, n in pairs.most_common():
        print(f"  {pair:16} {n}")
    right = sum(1 for r, _, _ in named if r)
    print(f"\n{len(named)} Locations named brown / red / blue ({right} right)")
    for r in (True, False):
        looks = sorted(v for ok, v, _ in named if ok == r and v is not None)
        leads = sorted(v for ok, _, v in named if ok == r and v is not None)
        kind = "right" if r else "wrong"
        print(f"  {kind}: look (n={len(looks)}) least " + " ".join(f"{v:.3f}" for v in looks[:8]))
        print(f"  {kind}: lead (n={len(leads)}) least " + " ".join(f"{v:.3f}" for v in leads[:8]))
    print("\n  ask below   look: right wrong   lead: right wrong   least: right wrong")
    for bar in BARS:
        row = []
        for pick in (
            lambda look, lead: look,
            lambda look, lead: lead,
            lambda look, lead: min(v for v in (look, lead, 9.0) if v is not None),
        ):
            asks = [
                ok for ok, look, lead in named if (v := pick(look, lead)) is not None and v < bar
            ]
            row.append(f"{sum(asks):5} {len(asks) - sum(asks):5}")
        print(f"  {bar:9.2f}   " + "   ".join(row))
    print("\n  discard cap  right wrong asked phantom bare")
    for cap, c in discard.items():
        print(
            f"  {cap:11.2f}  {c['right']:5} {c['wrong']:5} {c['asked']:5} {c['phantom']:7} "
            f"{c['bare']:4}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
