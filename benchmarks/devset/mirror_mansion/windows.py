"""Mirror Mansion windows on the development boards: every window read wrong or asked, by the
test that lost it, and the curves of the window's choice (issue 37).

    .venv/bin/python benchmarks/devset/mirror_mansion/windows.py --styles wide17,wide18 \
        --rows rows.json
    .venv/bin/python benchmarks/devset/mirror_mansion/windows.py --from-rows rows.json \
        --ties 0.1,0.2,0.3

Per board whose window is missed, its class: the sticker's dot `not found` on the cards' plane
(the colour there, HSV, and whether the kit's range holds it), found but `not alone`
(`perceive.WINDOW_ISOLATION_MIN`), `not set off` (`perceive.CONTRAST_MIN`), `off its card`
(over no card position, or another's), `under floor` (`perceive.WINDOW_FLOOR`), a `tie` with
another card top (`perceive.WINDOW_TIE`), or `outranked` by another card top's dot; with the
score's terms of the true dot and of the leading rivals (quality, the cost off the line, level,
contrast, cover of the top) and what a rival is: `a mirror's dot` or `the door's dot` (within
`NEAR_MM` of one seen from above), or `print` (anything else: a movement field's disc, a card
top's paint). Then the tally, and with `--ties` (or `--floors`) the windows right / asked /
wrong at each value, replayed from the rows (the candidates found once).

Development seeds only (`sweep.DEV`, the same photographs and cache as the sweep); the held-out
painter is never part of development.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from failures import _colour_at  # noqa: E402
from sweep import staged, style_of  # noqa: E402

from companion.games.mirror_mansion.rules.board import Board, load_board  # noqa: E402
from companion.games.mirror_mansion.vision import perceive  # noqa: E402
from companion.games.mirror_mansion.vision.dots import Dot  # noqa: E402
from companion.games.mirror_mansion.vision.render import (  # noqa: E402
    BoxLook,
    Conditions,
    card_dot_xy,
    door_dot_xy,
    house_look,
    mirror_dot_xy,
    photo_setup,
)
from companion.games.mirror_mansion.vision.scene import BoxState  # noqa: E402
from companion.games.mirror_mansion.vision.stickers import DEFAULT_STICKERS  # noqa: E402

NEAR_MM = 6.0
"""A rival dot this near (board mm, seen from above) a mirror's or the door's sticker is
called that sticker."""


def terms(board: Board, spot: str, dot: Dot) -> dict[str, float]:
    """The terms of `perceive._window_score` for one dot over one card position, and its
    measures."""
    off = perceive._card_across(board, spot[0], dot)
    rim_off = off - perceive.WINDOW_RIM_SHARE * math.sqrt(dot.area_mm2 / math.pi)
    return {
        "score": perceive._window_score(board, spot, dot),
        "quality": perceive._dot_quality(dot),
        "off_cost": max(0.0, rim_off - perceive.WINDOW_FREE_MM) / perceive.WINDOW_SLOPE_MM,
        "level": float(dot.level),
        "contrast": float(min(dot.contrast, 999.0)),
        "on_top": dot.on_top,
        "isolation": dot.isolation,
        "area": dot.area_mm2,
        "off_mm": off,
    }


def _what(board: Board, truth: BoxState, look: BoxLook, dot: Dot) -> str:
    for m in truth.mirrors:
        if math.dist(mirror_dot_xy(board, m, look), dot.centre_mm) <= NEAR_MM:
            return "a mirror's dot"
    if (
        truth.door is not None
        and math.dist(door_dot_xy(board, truth.door, look), dot.centre_mm) <= NEAR_MM
    ):
        return "the door's dot"
    return "print"


def row(
    board: Board,
    truth: BoxState,
    look: BoxLook,
    rect: perceive.Rectified,
    cands: perceive.Candidates,
    ident: perceive.Identified,
) -> dict:
    """One board's window: its truth, the reading, every card position's best dot with its
    terms (and whether it is the sticker), and the class of a miss."""
    got = perceive.fit(ident, cands, board).window
    spots: dict[str, dict] = {}
    tx = None if truth.window is None else card_dot_xy(board, truth.window, look)
    d = board.dot_diameter_mm if look.window_dot is None else look.window_dot.diameter_mm
    for spot, dot in ident.windows:  # best first
        if spot in spots:
            continue
        t = terms(board, spot, dot)
        t["sticker"] = tx is not None and math.dist(tx, dot.centre_mm) <= max(4.0, d / 2)
        t["what"] = "sticker" if t["sticker"] else _what(board, truth, look, dot)
        spots[spot] = t
    out = {"truth": truth.window, "got": got, "spots": spots, "class": ""}
    if truth.window is None or got == truth.window:
        return out
    side = truth.window[0]
    near = [o for o in cands.magenta[side] if math.dist(o.centre_mm, tx) <= max(4.0, d / 2)]
    if not near:
        colour = _colour_at(rect.cards[side], tx, d, DEFAULT_STICKERS.window_dot)
        out["class"] = f"not found ({colour})"
    elif truth.window not in spots or not spots[truth.window]["sticker"]:
        dot = max(near, key=perceive._dot_quality)
        spot = perceive._window_spot(board, side, dot)
        out["class"] = (
            "not alone"
            if dot.isolation < perceive.WINDOW_ISOLATION_MIN
            else "not set off"
            if dot.contrast < perceive.CONTRAST_MIN
            else "off its card"
            if spot != truth.window
            else "outscored on its own card"
        )
        out["found"] = terms(board, truth.window, dot)
    elif got is None:
        best = max(spots.values(), key=lambda t: t["score"])
        out["class"] = "under floor" if best["score"] < perceive.WINDOW_FLOOR else "tie"
    else:
        out["class"] = f"outranked by {spots[got]['what']}"
    return out


def decide(spots: dict[str, dict], floor: float, tie: float) -> str | None:
    """The window's choice (`perceive.fit`) replayed from a row's scores."""
    ranked = sorted(spots.items(), key=lambda st: -st[1]["score"])
    if not ranked or ranked[0][1]["score"] < floor:
        return None
    if len(ranked) == 1 or ranked[0][1]["score"] - ranked[1][1]["score"] > tie:
        return ranked[0][0]
    return None


def _fmt(t: dict) -> str:
    return (
        f"{t['score']:.2f} (q {t['quality']:.2f} off -{t['off_cost']:.2f} [{t['off_mm']:.1f} mm]"
        f" lvl {t['level']:.0f} con {t['contrast']:.0f} top {t['on_top']:.2f} iso "
        f"{t['isolation']:.2f} area {t['area']:.0f})"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", type=Path, default=Path("/tmp/mm_devset"))
    ap.add_argument("--styles", default="wide17,wide18,wide19,wide20,wide21,wide22")
    ap.add_argument("--rows", type=Path, help="write every board's row here (JSON)")
    ap.add_argument("--from-rows", help="comma-separated row files: no board is read")
    ap.add_argument("--ties", help="WINDOW_TIE values for the curve (comma-separated)")
    ap.add_argument("--floors", help="WINDOW_FLOOR values for the curve (comma-separated)")
    args = ap.parse_args()
    board = load_board()
    rows: list[dict] = []
    if args.from_rows:
        for f in args.from_rows.split(","):
            rows += json.loads(Path(f).read_text())
    else:
        for style, seed, _image, truth, rect, cands, ident in staged(
            args.cache, board, args.styles
        ):
            _, box, _, drawn = photo_setup(board, seed, Conditions(style=style_of(style)))
            assert box.layout_key() == truth.layout_key(), "cache from another renderer"
            look = drawn if drawn is not None else house_look(board, truth, DEFAULT_STICKERS)
            r = row(board, truth, look, rect, cands, ident)
            r["board"] = f"{style} {seed[1]}"
            rows.append(r)
        if args.rows:
            args.rows.write_text(json.dumps(rows))
    tally: Counter[str] = Counter()
    for r in rows:
        if not r["class"]:
            continue
        outcome = "asked" if r["got"] is None else "wrong"
        tally[f"{outcome}: {r['class'].split(' (')[0]}"] += 1
        print(f"  {r['board']}: window {r['truth']} {outcome} ({r['got']}): {r['class']}")
        if "found" in r:
            print(f"      its dot {_fmt(r['found'])}")
        for spot, t in sorted(r["spots"].items(), key=lambda st: -st[1]["score"])[:3]:
            print(f"      {spot} {t['what']}: {_fmt(t)}")
    print(f"\n{len(rows)} boards; windows missed by class:")
    for name, k in tally.most_common():
        print(f"  {k:4d}  {name}")
    ties = [float(v) for v in args.ties.split(",")] if args.ties else [perceive.WINDOW_TIE]
    floors = [float(v) for v in args.floors.split(",")] if args.floors else [perceive.WINDOW_FLOOR]
    if args.ties or args.floors:
        print("\nfloor  tie: windows right / asked / wrong")
        for floor in floors:
            for tie in ties:
                c: Counter[str] = Counter()
                for r in rows:
                    if r["truth"] is None:
                        continue
                    got = decide(r["spots"], floor, tie)
                    c["right" if got == r["truth"] else "asked" if got is None else "wrong"] += 1
                print(f"{floor:5.2f} {tie:4.2f}: {c['right']} / {c['asked']} / {c['wrong']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
