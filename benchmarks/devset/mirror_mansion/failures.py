"""Mirror Mansion failures on the development boards, by cause: for every piece read wrong or
asked about, the stage where it went wrong and how its sticker was stuck, so the next fix is
chosen from data.

    .venv/bin/python benchmarks/devset/mirror_mansion/failures.py
    .venv/bin/python benchmarks/devset/mirror_mansion/failures.py --boards 300 --quiet

Per board, each miss names its part and its cause:

- mirror (missed, slot asked, slot, facing null or wrong): its dot `not_found` on the
  mirrors' plane (with the colour there, HSV, and whether that colour is inside the kit's
  range), found but `off_slot` (its place fits no slot), `slot_unsure` (it fits both slots
  and their top edges differ by less than `perceive.SLOT_MARGIN`: asked), `contradicted`
  (another dot of the crossing names another placement about as strongly: asked; the same
  sticker found at another level, nearer its line, is `side_unsure`), `top_unsure` (its own
  top, near the line, disagrees with the line or may hold the face toward the camera:
  asked), `slot_wrong`,
  `evidence_low` (under `PIECE_MIN`), `edge_low` (its slot's top edge, read at the slot's
  line, under `MIRROR_EDGE_MIN`: a thick top standing off the line), `side_unsure` (too
  near the middle line), `side_wrong`,
  another dot of the crossing won (`other_dot`), or read but not kept (`outranked`: more
  likely pieces filled the box);
- phantom mirror: from a dot (where) or from a top edge alone;
- window (null or wrong): its dot `not_found` (colour there), `not_alone` (isolation),
  `off_card`, scored `under_floor` (`perceive.WINDOW_FLOOR`), a `tie` with another card top,
  or `outranked` by another card top's dot;
- door: missed, phantom or wrong, with its dot found or not.

Then the share of failures by how each sticker was stuck (along its edge, off the middle line,
diameter) and by the room's white balance, next to how many stickers each bin holds: the
variety the development set has, and where the reader falls off.

Development seeds only (`sweep.DEV`, the same photographs and cache as the sweep); the held-out
painter is never part of development.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from sweep import DEV, photos, style_of  # noqa: E402

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
from companion.games.mirror_mansion.vision.stickers import DEFAULT_STICKERS, HueRange  # noqa: E402
from companion.games.mirror_mansion.vision.top_planes import PX_PER_MM, TopPlane  # noqa: E402
from companion.vision.board_pose import estimate_pose  # noqa: E402

Miss = tuple[str, str]
"""(part and cause, detail)."""


def _near(dots: tuple[Dot, ...], xy: tuple[float, float], radius: float) -> list[Dot]:
    return [d for d in dots if math.dist(d.centre_mm, xy) <= radius]


def _colour_at(plane: TopPlane, xy: tuple[float, float], diameter: float, hues: HueRange) -> str:
    """The median HSV over the dot's middle on the plane, and whether the kit's range holds it."""
    cx, cy = plane.px(np.array(xy))
    r = max(1, round(diameter * PX_PER_MM / 4))
    h, w = plane.hsv.shape[:2]
    x0, x1 = max(0, round(cx) - r), min(w, round(cx) + r + 1)
    y0, y1 = max(0, round(cy) - r), min(h, round(cy) + r + 1)
    if x1 <= x0 or y1 <= y0:
        return "off the plane"
    hue, sat, val = (int(v) for v in np.median(plane.hsv[y0:y1, x0:x1].reshape(-1, 3), axis=0))
    if hues.hue_min <= hues.hue_max:
        hue_ok = hues.hue_min <= hue <= hues.hue_max
    else:
        hue_ok = hue >= hues.hue_min or hue <= hues.hue_max
    ok = hue_ok and sat >= hues.sat_min and val >= hues.val_min
    return f"hsv ({hue},{sat},{val}) {'in' if ok else 'OUT OF'} range"


def _top_unsure(board: Board, held: perceive.PieceSeen, cands: perceive.Candidates) -> bool:
    """Whether the crossing's likeliest dot was asked by its own top (`perceive.mirror_tops`:
    the top and the line disagree, or the face toward the camera may be in the top), not by
    a rival dot."""
    if held.dot is None or (held.dot.centre_mm, held.slot) not in cands.tops:
        return False
    alone = perceive.mirror_from_dot(board, held.dot, cands.mirror_bars, cands.middles, cands.tops)
    return alone is not None and alone.confidence == 0.0


def mirror_misses(
    board: Board,
    truth: BoxState,
    got: BoxState,
    look: BoxLook,
    rect: perceive.Rectified,
    cands: perceive.Candidates,
    ident: perceive.Identified,
) -> list[Miss]:
    out: list[Miss] = []
    stickers = DEFAULT_STICKERS
    for m in truth.mirrors:
        seen = got.mirror_at(m.cell)
        if seen is not None and seen.slot == m.slot and seen.facing == m.facing:
            continue
        outcome = (
            "missed"
            if seen is None
            else "slot asked"
            if not seen.slot_sure
            else "slot"
            if seen.slot != m.slot
            else "null"
            if seen.facing is None
            else "wrong"
        )
        sticker = look.mirror_dots.get(m.cell)
        d = board.dot_diameter_mm if sticker is None else sticker.diameter_mm
        xy = mirror_dot_xy(board, m, look)
        stuck = (
            ""
            if sticker is None
            else f" (dot along {sticker.along_mm:+.1f}, across {sticker.across_mm:.1f}, "
            f"{sticker.diameter_mm:.1f} mm)"
        )
        near = _near(cands.green, xy, max(4.0, d / 2))
        bar = cands.mirror_bars[(m.cell, m.slot)]
        if not near:
            colour = _colour_at(rect.mirrors, xy, d, stickers.mirror_dot)
            out.append((f"mirror {outcome}: dot not_found", f"{colour}; bar {bar:.2f}{stuck}"))
            continue
        dot = max(near, key=perceive._dot_quality)
        piece = perceive.mirror_from_dot(board, dot, cands.mirror_bars, cands.middles, cands.tops)
        held = next(
            (p for p in ident.pieces if p.cell == m.cell and p.kind == "mirror"),
            None,
        )
        # The crossing's likeliest dot may be this sticker found at another level (its core):
        # then its own side or slot, not a rival, may be what was unsure.
        own = held is not None and held.dot in near
        if piece is None:
            cause = "off_slot"
        elif own and held.slot_sure and 0.0 < held.confidence < stickers.min_confidence:
            cause = "side_unsure"
        elif own and held.confidence == 0.0 and _top_unsure(board, held, cands):
            cause = "top_unsure"
        elif own and (held.confidence == 0.0 or (piece.slot_sure and not held.slot_sure)):
            cause = "contradicted"
        elif not piece.slot_sure:
            cause = "slot_unsure"
        elif piece.cell != m.cell or piece.slot != m.slot:
            cause = "slot_wrong"
        elif perceive._piece_evidence(dot, bar) < perceive.PIECE_MIN:
            cause = "evidence_low"
        elif piece.slot == m.slot and bar < perceive.MIRROR_EDGE_MIN:
            cause = "edge_low"
        elif held is not None and held.dot is not None and held.dot not in near:
            cause = "other_dot"
        elif piece.confidence < stickers.min_confidence:
            cause = "side_unsure"
        elif piece.facing != m.facing:
            cause = "side_wrong"
        else:
            cause = "outranked"
        detail = (
            f"isolation {dot.isolation:.2f}, area {dot.area_mm2:.0f} mm2, elongation "
            f"{dot.elongation:.2f}, bar {bar:.2f}"
            + ("" if piece is None else f", confidence {piece.confidence:.2f}")
        )
        out.append((f"mirror {outcome}: {cause}", detail + stuck))
    cells = {m.cell for m in truth.mirrors}
    for g in got.mirrors:
        if g.cell in cells:
            continue
        held = next((p for p in ident.pieces if p.cell == g.cell and p.kind == "mirror"), None)
        if held is None or held.dot is None:
            out.append(("mirror phantom: top edge alone", f"{g.cell} {g.slot}"))
            continue
        what = "the door's crossing" if truth.door and truth.door.cell == g.cell else "empty"
        x, y = held.dot.centre_mm
        out.append(
            (
                "mirror phantom: from a dot",
                f"{g.cell} {what}, dot at ({x:.0f}, {y:.0f}) isolation {held.dot.isolation:.2f}",
            )
        )
    return out


def window_misses(
    board: Board,
    truth: BoxState,
    got: BoxState,
    look: BoxLook,
    rect: perceive.Rectified,
    cands: perceive.Candidates,
    ident: perceive.Identified,
) -> list[Miss]:
    if got.window == truth.window or truth.window is None:
        return []
    outcome = "null" if got.window is None else "wrong"
    side = truth.window[0]
    sticker = look.window_dot
    d = board.dot_diameter_mm if sticker is None else sticker.diameter_mm
    xy = card_dot_xy(board, truth.window, look)
    stuck = (
        ""
        if sticker is None
        else f" (dot along {sticker.along_mm:+.1f}, {sticker.diameter_mm:.1f} mm)"
    )
    near = _near(cands.magenta[side], xy, max(4.0, d / 2))
    if not near:
        colour = _colour_at(rect.cards[side], xy, d, DEFAULT_STICKERS.window_dot)
        return [(f"window {outcome}: not_found", colour + stuck)]
    dot = max(near, key=perceive._dot_quality)
    detail = (
        f"isolation {dot.isolation:.2f}, area {dot.area_mm2:.0f} mm2, elongation "
        f"{dot.elongation:.2f}, {perceive._card_across(board, side, dot):.1f} mm off the line"
    )
    if dot.isolation < perceive.WINDOW_ISOLATION_MIN:
        return [(f"window {outcome}: not_alone", detail + stuck)]
    if perceive._window_spot(board, side, dot) != truth.window:
        return [(f"window {outcome}: off_card", detail + stuck)]
    score = perceive._window_score(board, truth.window, dot)
    rivals = [
        f"{spot} score {perceive._window_score(board, spot, o):.2f} iso {o.isolation:.2f} "
        f"area {o.area_mm2:.0f} off {perceive._card_across(board, spot[0], o):.1f}"
        for spot, o in ident.windows
        if spot != truth.window
    ][:2]
    cause = (
        "under_floor"
        if got.window is None and score < perceive.WINDOW_FLOOR
        else "tie"
        if got.window is None
        else "outranked"
    )
    return [
        (
            f"window {outcome}: {cause}",
            f"score {score:.2f} {detail}; rivals {rivals}{stuck}",
        )
    ]


def _door_piece(p: perceive.PieceSeen | None) -> str:
    if p is None or p.dot is None:
        return "none"
    x, y = p.dot.centre_mm
    return (
        f"{p.cell} {p.slot} evidence {p.evidence:.2f} (dot at ({x:.0f}, {y:.0f}) isolation "
        f"{p.dot.isolation:.2f}, area {p.dot.area_mm2:.0f} mm2)"
    )


def door_misses(
    board: Board,
    truth: BoxState,
    got: BoxState,
    look: BoxLook,
    rect: perceive.Rectified,
    cands: perceive.Candidates,
    ident: perceive.Identified,
) -> list[Miss]:
    if got.door == truth.door:
        return []
    doors = [p for p in ident.pieces if p.kind == "door"]
    if truth.door is None:
        won = next((p for p in doors if got.door and p.cell == got.door.cell), None)
        return [("door phantom", _door_piece(won))]
    xy = door_dot_xy(board, truth.door, look)
    near = _near(cands.orange, xy, 6.0)
    bar = cands.door_bars[(truth.door.cell, truth.door.slot)]
    paints = look.paints
    made = (
        ""
        if paints is None
        else f"; thickness {paints.door_thickness_mm:.1f} mm, worn {paints.door_top_wear:.2f}"
        f", top {paints.door_top}, board-like {paints.door_top_like_board:.2f}"
    )
    sticker = look.door_dot
    stuck = (
        ""
        if sticker is None
        else f"; dot along {sticker.along_mm:+.1f}, across {sticker.across_mm:+.1f}, "
        f"{sticker.diameter_mm:.1f} mm"
    )
    outcome = "missed" if got.door is None else "wrong"
    held = next((p for p in doors if p.cell == truth.door.cell), None)
    if not near:
        d = board.dot_diameter_mm if sticker is None else sticker.diameter_mm
        colour = _colour_at(rect.doors, xy, d, DEFAULT_STICKERS.door_dot)
        cause = "dot not_found"
    else:
        dot = max(near, key=perceive._dot_quality)
        mirror = got.mirror_at(truth.door.cell)
        if dot.isolation < perceive.ISOLATION_MIN:
            cause = f"dot not_alone (isolation {dot.isolation:.2f})"
        elif perceive._door_from_dot(board, dot, cands.door_bars) is None:
            cause = "dot off_slot"
        elif bar < perceive.DOOR_EDGE_MIN:
            cause = "edge_low"
        elif mirror is not None:
            cause = "mirror_claims"
        elif held is not None and held.dot not in near:
            cause = "other_dot"
        else:
            cause = "outranked"
        colour = f"dot isolation {dot.isolation:.2f}, area {dot.area_mm2:.0f} mm2"
    rival = _door_piece(next((p for p in doors if got.door and p.cell == got.door.cell), None))
    return [
        (
            f"door {outcome}: {cause}",
            f"bar {bar:.2f} {colour}{made}{stuck}; read {rival}",
        )
    ]


def diagnose(
    board: Board, image: np.ndarray, truth: BoxState, look: BoxLook
) -> tuple[list[Miss], BoxState]:
    """The misses of the reading and the reading (the stages of `read_with_pose`, one by one)."""
    found = perceive.find_board_markers(image, board)
    pose = estimate_pose(found, board, (image.shape[1], image.shape[0]), None)
    if pose is None:
        return [("board unseen", "")], BoxState(seen=False)
    rect = perceive.rectify(image, board, pose)
    cands, ident = perceive.rescued(rect, perceive.find_candidates(rect, board), board)
    got = perceive.fit(ident, cands, board)
    return (
        mirror_misses(board, truth, got, look, rect, cands, ident)
        + window_misses(board, truth, got, look, rect, cands, ident)
        + door_misses(board, truth, got, look, rect, cands, ident)
    ), got


BINS = {
    "mirror dot |along| mm": (lambda s: abs(s.along_mm), (0, 5, 10, 15, 100)),
    "mirror dot across mm": (lambda s: s.across_mm, (0, 2, 3, 4, 5, 6, 100)),
    "mirror dot diameter mm": (lambda s: s.diameter_mm, (0, 7, 8, 9, 10, 11, 100)),
    "mirror dot turn deg": (lambda s: s.turn_deg, (0, 45, 90, 135, 180)),
}
MIRROR_LOOK_BINS = {
    "mirror dot off its slot's line mm (top's line + across)": (
        lambda s, look: (
            (0.0 if look.paints is None else look.paints.mirror_top_line_mm) + s.across_mm
        ),
        (-100, -2, -1, 0, 1, 2, 3, 4, 100),
    ),
    "mirror top thickness mm": (
        lambda s, look: 0.0 if look.paints is None else look.paints.mirror_thickness_mm,
        (0, 3, 5, 7, 100),
    ),
}
WINDOW_BINS = {
    "window dot |along| mm": (lambda s: abs(s.along_mm), (0, 5, 10, 15, 20, 100)),
    "window dot |across| mm": (lambda s: abs(s.across_mm), (0, 1, 2, 3, 4, 100)),
    "window dot diameter mm": (lambda s: s.diameter_mm, (0, 7, 8, 9, 10, 11, 100)),
}
LOOK_BINS = {
    "white balance warm (R gain - B gain)": (
        lambda look: look.white_balance[2] - look.white_balance[0],
        (-1, -0.3, -0.15, 0, 0.15, 0.3, 1),
    ),
    "white balance green tint (G gain - 1)": (
        lambda look: look.white_balance[1] - 1,
        (-1, -0.1, -0.05, 0, 0.05, 0.1, 1),
    ),
    "mirror height off mm": (lambda look: look.mirror_height_mm - 20.0, (-10, -3, -1, 1, 3, 10)),
    "card height off mm": (lambda look: look.card_height_mm - 25.0, (-10, -3, -1, 1, 3, 10)),
}


def _bin(value: float, edges: tuple[float, ...]) -> str:
    for lo, hi in itertools.pairwise(edges):
        if lo <= value < hi:
            return f"[{lo:g}, {hi:g})"
    return f">= {edges[-1]:g}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", type=Path, default=Path("/tmp/mm_devset"))
    ap.add_argument("--styles", default="house,random")
    ap.add_argument("--boards", type=int, help=f"random boards (default {DEV['random'][1]})")
    ap.add_argument("--quiet", action="store_true", help="the tallies only, no board lines")
    args = ap.parse_args()
    board = load_board()
    causes: Counter[str] = Counter()
    # Per bin: (stickers, of them on a piece read wrong or asked).
    bins: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for spec in args.styles.split(","):
        # A set written `wide8:150` is read for its first 150 boards (as in curves.py).
        style, _, first = spec.partition(":")
        exact = n = 0
        count = args.boards if args.boards is not None and style == "random" else None
        count = int(first) if first else count
        for seed, image, truth in photos(args.cache, board, style, count):
            _, box, _, drawn = photo_setup(board, seed, Conditions(style=style_of(style)))
            assert box.layout_key() == truth.layout_key(), "cache from another renderer"
            look = drawn if drawn is not None else house_look(board, truth, DEFAULT_STICKERS)
            misses, got = diagnose(board, image, truth, look)
            n += 1
            exact += not misses
            causes.update(part for part, _ in misses)
            if misses and not args.quiet:
                print(f"  {style} {seed}:")
                for part, detail in misses:
                    print(f"      {part}: {detail}")
            if drawn is None:
                continue
            bad = {
                m.cell
                for m in truth.mirrors
                if (seen := got.mirror_at(m.cell)) is None
                or (seen.slot, seen.facing) != (m.slot, m.facing)
            }
            for cell, sticker in drawn.mirror_dots.items():
                for name, (value, edges) in BINS.items():
                    tally = bins[name][_bin(value(sticker), edges)]
                    tally[0] += 1
                    tally[1] += cell in bad
                for name, (look_value, edges) in MIRROR_LOOK_BINS.items():
                    tally = bins[name][_bin(look_value(sticker, drawn), edges)]
                    tally[0] += 1
                    tally[1] += cell in bad
            window_bad = any(part.startswith("window") for part, _ in misses)
            if drawn.window_dot is not None:
                for name, (value, edges) in WINDOW_BINS.items():
                    tally = bins[name][_bin(value(drawn.window_dot), edges)]
                    tally[0] += 1
                    tally[1] += window_bad
            for name, (look_value, edges) in LOOK_BINS.items():
                tally = bins[name][_bin(look_value(drawn), edges)]
                tally[0] += 1
                tally[1] += bool(misses)
        print(f"{style}: {exact}/{n} boards without a miss", flush=True)
    print("\nmisses by part and cause:")
    for part, k in causes.most_common():
        print(f"  {k:4d}  {part}")
    print("\nrandom style: stickers (boards for the look's bins) per bin, and of them missed:")
    for name, table in bins.items():
        cells = ", ".join(
            f"{b}: {t[1]}/{t[0]}"
            for b, t in sorted(table.items(), key=lambda bt: float(bt[0].split(",")[0][1:]))
        )
        print(f"  {name}: {cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
