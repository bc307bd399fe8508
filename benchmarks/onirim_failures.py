"""Onirim reader failures by cause, on a DEVELOPMENT set: so the next fix is chosen from data,
not from one picture.

    PYTHONPATH=. python benchmarks/onirim_failures.py --seeds A:B --tables 4 [--styles random]

For each seed a deck is drawn and taught (as `onirim_vision.py` does), `--tables` tables are
rendered and read, and every card not read right is listed and counted by:

    zone     labyrinth, under a Mirror, Door, Mirror card, discard top
    kind     wrong (named, not the card there), asked (null) or phantom
    why      for an asked card, the stage that gave up: `empty` (best score below EMPTY: the
             row ended there), `ended` (a last card below END_SURE), `margin` (the best type
             did not lead the next by MARGIN), `symbol` (two of one colour, the symbol lead
             below SYMBOL_MARGIN), `colour` (the colour look refuted the whole corner's colour
             by COLOUR_MARGIN), `after` (the place itself reads right: an earlier place
             ended the row); for a wrong card, what it was read as
    design   the deck's drawn choices (background, border, badge and its shape, outline, inked
             edge, art in the corner, the Sun as a star, where the colour lies, a letter,
             the symbol turned, how pale the print is)

with the reader's own numbers at the place (best and runner-up, score, margin, symbol lead).
Development seeds only: a seed measured as fresh in `onirim_vision.py` is never used here, and
the held-out painter is never looked at (`--styles` refuses it).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import sys  # noqa: E402
from collections import Counter  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.onirim_vision import teach_deck  # noqa: E402
from companion.games.onirim.rules import ENGINE  # noqa: E402
from companion.games.onirim.vision import read as R  # noqa: E402
from companion.games.onirim.vision.art import DeckStyle  # noqa: E402
from companion.games.onirim.vision.compare import compare  # noqa: E402
from companion.games.onirim.vision.layout import Point, load_layout  # noqa: E402
from companion.games.onirim.vision.reading import TableReading  # noqa: E402
from companion.games.onirim.vision.render import deck_faces, deck_style, render_table, table_look  # noqa: E402


@dataclass(frozen=True)
class Fault:
    zone: str
    index: int
    want: str | None
    got: str | None
    kind: str
    why: str
    match: R.Match | None


def design_of(style: DeckStyle) -> dict[str, str]:
    return {
        "background": style.background,
        "border": style.border,
        "badge": "badge" if style.badge else "no badge",
        "outline": "outline" if style.outline else "filled",
        "ink_edge": "inked edge" if style.ink_edge else "no edge",
        "corner_art": f"corner art {style.corner_art}",
        "sun": "star sun" if style.sun_star else "rayed sun",
        "colour_area": f"colour {style.colour_area}",
        "badge_shape": style.badge_shape if style.badge else "-",
        "letter": "letter" if style.index_letter else "no letter",
        "turn": "turned" if style.symbol_turn_deg else "upright",
        "pale": f"pale {style.pale:.2f}" if style.pale else "not pale",
    }


def _why(m: R.Match, want: str) -> str:
    if m.side_guessed:
        return "side guessed"
    if m.card == want:
        return "ended" if m.score < R.END_SURE else "after"
    if m.card is not None:
        return f"read as {m.card}"
    if m.empty:
        return "empty"
    if m.colour_look is not None and m.colour_look <= -R.COLOUR_MARGIN:
        return "colour"
    if m.symbol is not None and m.best == want and m.symbol < R.symbol_margin(m.margin):
        return "symbol"
    if m.symbol_kept is not None and m.symbol_kept < R.SYMBOL_KEEP:
        return "symbol kept"
    if m.symbol_sharp is not None and m.symbol_sharp < R.SYMBOL_SHARP:
        return "symbol blurred"
    if m.symbol_chroma is not None and m.symbol_chroma < R.SYMBOL_CHROMA_LEAD:
        return "symbol chroma"
    if m.score < R.END_SURE and m.best == want and m.margin >= R.MARGIN:
        return "ended"
    if m.best != want:
        return f"best {m.best}"
    return "margin"


def door_faults(
    truth: tuple[str, ...], read: tuple[str, ...]
) -> list[tuple[int, str | None, str | None]]:
    """The Doors' faults by place, as the reader reports Doors: in place order, with a Door it
    cannot tell left out (not null), so the ones after it move up a place. Compared place by
    place, one Door left out would count every Door after it as named wrongly; here each read
    colour is paired with the next place of that colour when one lies ahead (the places passed
    over were left out: asked), else it is named wrongly at the next place, and read colours
    beyond the last Door are phantoms. (place, want, got) as "door-<colour>"."""
    out: list[tuple[int, str | None, str | None]] = []
    k = 0
    for colour in read:
        if colour in truth[k:]:
            nxt = truth.index(colour, k)
            out += [(j, f"door-{truth[j]}", None) for j in range(k, nxt)]
            k = nxt + 1
        elif k < len(truth):
            out.append((k, f"door-{truth[k]}", f"door-{colour}"))
            k += 1
        else:
            out.append((k, None, f"door-{colour}"))
            k += 1
    out += [(j, f"door-{truth[j]}", None) for j in range(k, len(truth))]
    return out


def phantom_why(
    reader: R.TableReader,
    image: np.ndarray,
    H: np.ndarray,
    zone: str,
    k: int,
    p: Point,
    m: R.Match,
) -> str:
    """A phantom's score (lifted by `lift`), and how well its window matches the body of the
    card the reader sees at the place before it (`TableReader.body_score`: a body over the
    corner's score is what `read.END_BODY_LEAD` drops) and, under a Mirror, that Mirror card's
    body there (the Mirror lies under every card of its fan)."""
    L = reader.layout
    text = f"score {m.score:.3f} lift {m.lift:.3f} coarse {m.coarse:.3f}"
    if zone == "labyrinth":
        before = [(L.labyrinth_places[k - 1], "location")] if k else []
    elif zone == "door":
        before = [(L.door_places[k - 1], "door")] if k else []
    elif zone == "under":
        i = next(i for i in range(len(L.mirror_places)) if L.under_place(i, k) == p)
        mirror = (L.mirror_places[i], f"mirror-{list(ENGINE.deck.mirrors)[i]}")
        before = [(L.under_place(i, k - 1), "location")] if k else []
        before.append(mirror)
    else:
        return text
    for at, z in before:
        (b,) = reader.match([reader.corner_window(image, H, at)], z)
        body = reader.body_score(image, H, p, at, b.best)
        seen = "empty" if b.empty else b.best
        text += f"; before {z} ({seen} {b.score:.3f}) body {'-' if body is None else f'{body:.3f}'}"
    return text


def faults(
    reader: R.TableReader, image: np.ndarray, reading: TableReading, truth: TableReading
) -> list[Fault]:
    H = reader.locate(image)
    L = reader.layout
    asked: list[tuple[str, int, Point, str, str | None, str | None]] = []

    def row(zone: str, places, kind: str, want: tuple, got: tuple) -> None:
        for k in range(max(len(want), len(got))):
            w = want[k] if k < len(want) else None
            g = got[k] if k < len(got) else None
            # A null read past the row's end is a phantom too (`compare` counts it so).
            if (w != g or (k >= len(want) and k < len(got))) and k < len(places):
                asked.append((zone, k, places[k], kind, w, g))

    row("labyrinth", L.labyrinth_places, "location", truth.labyrinth, reading.labyrinth)
    for k, w, g in door_faults(truth.doors, reading.doors):
        if k < len(L.door_places):
            asked.append(("door", k, L.door_places[k], "door", w, g))
    order = list(ENGINE.deck.mirrors)
    got = {m.mirror: m for m in reading.mirrors}
    for m in truth.mirrors:
        i = order.index(m.mirror)
        seen = got.get(m.mirror)
        side = f"mirror-{m.mirror}-explored" if m.explored else f"mirror-{m.mirror}"
        if seen is None or seen.explored != m.explored:
            g = None if seen is None else ("explored" if seen.explored else "unexplored")
            asked.append(("mirror", i, L.mirror_places[i], f"mirror-{m.mirror}", side, g))
        fan = [L.under_place(i, k) for k in range(L.fan_max)]
        row("under", fan, "location", m.under, () if seen is None else seen.under)
    row(
        "discard",
        [L.discard_place],
        "discard",
        (truth.discard_top,) if truth.discard_top else (),
        (reading.discard_top,) if reading.discard_top else (),
    )
    if H is None or not asked:
        return [Fault(z, k, w, g, "unseen", "markers", None) for z, k, _, _, w, g in asked]
    ms = reader.match(
        [reader.corner_window(image, H, p) for _, _, p, _, _, _ in asked],
        [z for _, _, _, z, _, _ in asked],
    )
    out = []
    for (zone, k, p, _, w, g), m in zip(asked, ms, strict=True):
        if w is None:
            out.append(
                Fault(zone, k, w, g, "phantom", phantom_why(reader, image, H, zone, k, p, m), m)
            )
        elif g is None:
            out.append(Fault(zone, k, w, g, "asked", _why(m, w), m))
        else:
            out.append(Fault(zone, k, w, g, "wrong", f"read as {g}", m))
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", required=True, help="A:B, development seeds")
    ap.add_argument("--tables", type=int, default=4)
    ap.add_argument("--styles", default="random")
    ap.add_argument("--quiet", action="store_true", help="counts only, not every fault")
    a = ap.parse_args()
    layout = load_layout()
    lo, hi = (int(v) for v in a.seeds.split(":"))
    for style in a.styles.split(","):
        if style not in ("house", "random"):
            raise SystemExit("--styles: house or random (the held-out designs are never looked at)")
        cards = right = 0
        by: dict[str, Counter[str]] = {
            k: Counter() for k in ("zone", "kind", "why", "want", "design")
        }
        decks_bad: Counter[int] = Counter()
        for seed in range(lo, hi):
            ds = deck_style(seed, style)
            faces = deck_faces(ds, layout)
            reader, _ = teach_deck(faces, seed)
            design = design_of(ds)
            for i in range(a.tables):
                photo = render_table(seed, i, faces, layout, look=table_look(seed, style))
                reading = reader.read(photo.image).asked()  # what `read` prints
                t = compare(reading, photo.truth)
                cards += t.cards
                right += t.right
                for f in faults(reader, photo.image, reading, photo.truth):
                    decks_bad[seed] += 1
                    by["zone"][f.zone] += 1
                    by["kind"][f.kind] += 1
                    why = f.why if f.kind != "phantom" else "phantom"
                    by["why"][f"{f.kind}: {why.split(' ')[0] if f.kind == 'wrong' else why}"] += 1
                    by["want"][str(f.want)] += 1
                    for k, v in design.items():
                        by["design"][f"{k}={v}"] += 1
                    if not a.quiet:
                        m = f.match
                        nums = (
                            ""
                            if m is None
                            else f" | best {m.best} {m.score:.3f} runner {m.runner_up} "
                            f"margin {m.margin:.3f} coarse {m.coarse:.3f}"
                            + ("" if m.symbol is None else f" symbol {m.symbol:.3f}")
                            + ("" if m.colour_look is None else f" colour {m.colour_look:.3f}")
                            + ("" if m.symbol_sharp is None else f" sharp {m.symbol_sharp:.3f}")
                        )
                        print(
                            f"{style} seed {seed} table {i} {f.zone} {f.index + 1}: "
                            f"{f.want} -> {f.got} [{f.kind}: {f.why}]{nums} "
                            f"{' '.join(design.values())}",
                            flush=True,
                        )
        print(f"\n{style}: {right} / {cards} right ({100 * right / max(1, cards):.2f} %)")
        for k, c in by.items():
            print(f"  {k:7} " + ", ".join(f"{n} {v}" for v, n in c.most_common()))
        print("  decks with faults: " + ", ".join(f"{s}: {n}" for s, n in decks_bad.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
