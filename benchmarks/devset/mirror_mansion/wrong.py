"""Mirror Mansion: every confidently wrong mirror of the development boards, by what named it.

    .venv/bin/python benchmarks/devset/mirror_mansion/wrong.py --cache DIR --styles wide19,wide17
    .venv/bin/python benchmarks/devset/mirror_mansion/wrong.py --styles wide22 --rows rows.json

A mirror read with a sure slot and a facing that the answer key does not have, a sure slot
that is the other one, or a mirror where the box has none (a phantom), is a wrong score; a
question is not. For each, one line: what was wrong (`SLOT`, `FACING`, `PHANTOM`) and the
path that named it (`path_of`): the dot's side of the slot's line beyond
`perceive.TOP_NEAR_MM` (`line far`), near the line with no top found (`line near, no top`),
the mirror's own top where the line is unclear (`top, line unclear`), a top on the line's
side (`top agrees with line`), a top the line contradicts that a reflection beside it
(`top by reflection`), a band beside a near half not even (`top by uneven band`,
`perceive.NEAR_UNEVEN`) or the box's learnt top colour (`top by learnt colour`) let name; a
mirror with no dot is `no dot (top edge only)`. With the dot's place across the line, the
strip found (middle, width, strength, `MirrorTop.rival`), the camera's side and the face's
width, the strip's print gap and band, its Lab distance from the box's learnt top colour
(`learnt`, where the reader learnt one) and from the colour of the box's OTHER tops read
surely (`others`, the mirror's own left out), the piece's own confidence and the one read
(another view of the sticker may raise it), and the true top (answer key). Then the tally by
path, the same tally of the mirrors read right, and two curves over the facings named by
their own top: asked at or over an `others` distance, asked under a `rival` margin (right /
wrong), the two cues a rule asking those facings would stand on. `--rows` keeps every named
mirror's measures (right and wrong). `--beyond` reads with `perceive.TOP_VETO_MM` off and
draws its curve and `TOP_VETO_RIVAL`'s: the line's facings of dots 3 to 5 mm off whose own
top, measured there too, puts the dot on its other half, asked per zone and margin. `--far`
reads with `perceive.FAR_AGREE_MM` off and draws its curve and `FAR_AGREE_RIVAL`'s: the
facings whose top and line both put the dot on the side away from the camera, asked per
|across| and rival margin. Every dot that fits both slots of its crossing has the terms of its
slot margin (`perceive.slot_margin`) in its row.

Development seeds only (`sweep.DEV`, the same cache); the held-out painter is never read here.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from sweep import staged, style_of  # noqa: E402

from companion.games.mirror_mansion.rules.board import FACINGS, load_board  # noqa: E402
from companion.games.mirror_mansion.vision import perceive  # noqa: E402
from companion.games.mirror_mansion.vision.render import Conditions, photo_setup  # noqa: E402
from companion.games.mirror_mansion.vision.stickers import DEFAULT_STICKERS  # noqa: E402

THRESHOLDS = (5.0, 8.0, 10.0, 12.0, 15.0, 20.0, 25.0, 30.0, 40.0)
RIVALS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0)


def path_of(board, piece: perceive.PieceSeen, tops, learnt, others) -> tuple[str, dict]:
    """Which test named a dotted mirror's facing, and its measures; `others` is the colour
    of the box's tops read surely without this mirror's (`perceive.learnt_top` of the first
    reading's other pieces), where there is one."""
    _, fits = perceive._slot_fits(board, piece.dot)
    across = fits[piece.slot][1]
    info: dict = {"across": round(across, 2)}
    if abs(across) >= perceive.TOP_NEAR_MM:
        return "line far", info
    top = tops.get((piece.dot.centre_mm, piece.slot))
    if top is None:
        return "line near, no top", info
    on_top = across - top.middle_mm
    info.update(
        on_top=round(on_top, 2),
        middle=round(top.middle_mm, 2),
        width=top.width_mm,
        strength=round(top.strength, 2),
        near_side=top.near_side,
        face_mm=round(top.face_mm, 2),
        half="near" if top.near_side * on_top > 0 else "far" if top.near_side else "?",
        print_gap=round(top.print_gap, 2),
        band=None if top.face_uneven is None else round(top.face_uneven, 1),
        learnt=None
        if learnt is None or top.colour is None
        else round(float(np.linalg.norm(np.asarray(top.colour) - learnt)), 1),
        face_in_top=perceive._face_in_top(top, across),
        rival=round(top.rival, 3) if np.isfinite(top.rival) else None,
        others=None
        if others is None or top.colour is None
        else round(float(np.linalg.norm(np.asarray(top.colour) - others)), 1),
    )
    clear = abs(across) >= perceive.ACROSS_MM[0]
    if not clear:
        return "top, line unclear", info
    if on_top * across > 0:
        return "top agrees with line", info
    if perceive._reflection_beside(top, on_top):
        return "top by reflection", info
    if perceive.near_band_uneven(top, on_top):
        return "top by uneven band", info
    return "top by learnt colour", info


def _beyond(board, rect, cands, ident, got, truth) -> list[tuple[float, float, bool]]:
    """(|across|, rival, right) of each facing the line named surely for a dot 3 to 5 mm off
    it whose own top, measured there as `perceive.TOP_VETO_MM` would, puts it on the top's
    other half."""
    probe = perceive.MirrorTops(
        rect.mirror_points, board, cands.green, rect.pose.camera_centre, None
    )
    near, perceive.TOP_NEAR_MM = perceive.TOP_NEAR_MM, 5.0
    out = []
    try:
        truths = {m.cell: m for m in truth.mirrors}
        for seen in got.mirrors:
            if not seen.slot_sure or seen.facing is None:
                continue
            held = next(
                (p for p in ident.pieces if p.cell == seen.cell and p.kind == "mirror"), None
            )
            if held is None or held.dot is None or held.side_from != "line":
                continue
            across = perceive._slot_fits(board, held.dot)[1][held.slot][1]
            if not near <= abs(across) < 5.0:
                continue
            top = probe.get((held.dot.centre_mm, held.slot))
            if top is None or (across - top.middle_mm) * across >= 0:
                continue
            m = truths.get(seen.cell)
            ok = m is not None and (m.slot, m.facing) == (seen.slot, seen.facing)
            out.append((abs(across), top.rival, ok))
    finally:
        perceive.TOP_NEAR_MM = near
    return out


FAR_ACROSS = (1.0, 1.25, 1.5, 2.0, 2.5)
FAR_RIVALS = (0.1, 0.2, 0.3, 0.5, float("inf"))


def far_and_far(row: dict) -> bool:
    """A facing its top named where the line agrees, the dot on the top's far half and on the
    line's side away from the camera (`perceive.FAR_AGREE_MM`'s facings, the margins aside)."""
    return (
        row["path"] == "top agrees with line"
        and row["half"] == "far"
        and row["near_side"] * row["across"] < 0
    )


def _far_curve(rows: list[dict]) -> None:
    """Right / wrong asked of the far-and-far facings per |across| and rival margin."""
    mine = [r for r in rows if far_and_far(r)]
    print(
        f"\ntop and line both on the side away from the camera: {len(mine)} facings; asked "
        "where |across| is under a row's value and the rival margin under a column's, right / "
        "wrong"
    )
    print("          " + "".join(f"{r:>9.1f}" for r in FAR_RIVALS))
    for t in FAR_ACROSS:
        cells = []
        for least in FAR_RIVALS:
            sel = [
                r["what"] == "right"
                for r in mine
                if abs(r["across"]) < t
                and (r["rival"] if r["rival"] is not None else np.inf) < least
            ]
            cells.append(f"{sum(sel)} / {len(sel) - sum(sel)}")
        print(f"  {t:4.2f} mm " + "".join(f"{c:>9}" for c in cells))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", type=Path, default=Path("/tmp/mm_devset"))
    ap.add_argument("--styles", default="wide19,wide17")
    ap.add_argument("--rows", type=Path, help="write every named mirror's measures here")
    ap.add_argument(
        "--beyond",
        action="store_true",
        help="read with `perceive.TOP_VETO_MM` 0 and draw its curve and `TOP_VETO_RIVAL`'s: the "
        "line's facings of dots 3 to 5 mm off whose top, measured there too, disagrees",
    )
    ap.add_argument(
        "--far",
        action="store_true",
        help="read with `perceive.FAR_AGREE_MM` 0 and draw its curve and `FAR_AGREE_RIVAL`'s: "
        "the facings whose top and line both put the dot on the side away from the camera",
    )
    args = ap.parse_args()
    if args.beyond:
        perceive.TOP_VETO_MM = 0.0
    if args.far:
        perceive.FAR_AGREE_MM = 0.0
    beyond: list[tuple[float, float, bool]] = []
    board = load_board()
    stickers = DEFAULT_STICKERS
    wrong: Counter[str] = Counter()
    right: Counter[str] = Counter()
    asked = 0
    rows = []
    for style, seed, _image, truth, rect, cands, ident in staged(args.cache, board, args.styles):
        got = perceive.fit(ident, cands, board)
        first_pass = perceive._identify(cands, board, stickers)
        learnt = (
            perceive.learnt_top(first_pass.pieces, cands.tops, stickers)
            if any(p.kind == "mirror" and p.side_from == "top_asked" for p in first_pass.pieces)
            else None
        )
        _, _, _, look = photo_setup(board, seed, Conditions(style=style_of(style)))
        paints = None if look is None else look.paints
        name = f"{style} {seed[1]:3d}"
        if args.beyond:
            beyond += _beyond(board, rect, cands, ident, got, truth)
        truths = {m.cell: m for m in truth.mirrors}
        for seen in got.mirrors:
            m = truths.get(seen.cell)
            held = next(
                (p for p in ident.pieces if p.cell == seen.cell and p.kind == "mirror"), None
            )
            dotted = held is not None and held.dot is not None and held.slot == seen.slot
            if m is None:
                what = "phantom"
            elif not seen.slot_sure or seen.facing is None:
                asked += 1
                continue
            elif seen.slot != m.slot:
                what = "slot"
            elif seen.facing != m.facing:
                what = "facing"
            else:
                what = "right"
            if not dotted:
                path, info = "no dot (top edge only)", {}
            else:
                others = perceive.learnt_top(
                    tuple(p for p in first_pass.pieces if p.cell != held.cell),
                    cands.tops,
                    stickers,
                )
                path, info = path_of(board, held, cands.tops, learnt, others)
                own = perceive.mirror_from_dot(
                    board, held.dot, cands.mirror_bars, cands.middles, cands.tops, learnt
                )
                cell, places = perceive._slot_fits(board, held.dot)
                if len(places) == 2:
                    terms = perceive.slot_margin(
                        board,
                        cell,
                        held.dot,
                        {s: a for s, (_, a) in places.items()},
                        cands.mirror_bars,
                        cands.middles,
                    )
                    info["slot_terms"] = {k: round(v, 2) for k, v in terms.items()}
                    info["slot_margin"] = round(sum(terms.values()), 3)
                info.update(
                    own_conf=round(own.confidence, 2) if own else None,
                    conf=round(seen.confidence, 2),
                    side_from=held.side_from,
                )
            if m is not None and paints is not None:
                s = 1.0 if m.facing == FACINGS[m.slot][1] else -1.0
                mid, half = s * paints.mirror_top_line_mm, paints.mirror_thickness_mm / 2
                info["true_top"] = [round(mid - half, 1), round(mid + half, 1)]
            rows.append(
                {"board": name, "cell": list(seen.cell), "what": what, "path": path, **info}
            )
            if what == "right":
                right[path] += 1
                continue
            wrong[f"{what}: {path}"] += 1
            print(f"{name} {seen.cell} {seen.slot} {what.upper()} | {path} | {info}")
    print(f"\nconfidently wrong {sum(wrong.values())}, asked {asked}, right {sum(right.values())}")
    for k, v in wrong.most_common():
        print(f"  wrong {v:4d}  {k}")
    for k, v in right.most_common():
        print(f"  right {v:4d}  {k}")
    print(
        "\nfacings named by their own top, asked where the strip lies at or over a distance "
        "from the box's other sure tops (`others`), right / wrong"
    )
    for path in ("top, line unclear", "top agrees with line"):
        mine = [r for r in rows if r["path"] == path and r.get("others") is not None]
        none = sum(1 for r in rows if r["path"] == path and r.get("others") is None)
        print(f"  {path}: {len(mine)} with other sure tops ({none} without)")
        for t in THRESHOLDS:
            r = sum(1 for x in mine if x["others"] >= t and x["what"] == "right")
            w = sum(1 for x in mine if x["others"] >= t and x["what"] != "right")
            print(f"    {t:5.1f}: right {r:3d} / wrong {w:2d}")
    print(
        "facings named by their own top, asked where another strip holding the dot on its "
        "other half stands out within a margin of it (`rival`), right / wrong"
    )
    for path in ("top, line unclear", "top agrees with line"):
        mine = [r for r in rows if r["path"] == path and r.get("rival") is not None]
        print(f"  {path}: {len(mine)} with a rival strip")
        for t in RIVALS:
            r = sum(1 for x in mine if x["rival"] < t and x["what"] == "right")
            w = sum(1 for x in mine if x["rival"] < t and x["what"] != "right")
            print(f"    under {t:4.2f}: right {r:3d} / wrong {w:2d}")
    if args.beyond:
        print("line's facings 3 mm or more off whose top disagrees, asked, right / wrong:")
        for zone in (3.5, 4.0, 4.5, 5.0):
            for least in (0.0, 0.3, 0.5, 1.0):
                sel = [ok for a, r, ok in beyond if a < zone and r >= least]
                print(
                    f"  zone {zone:.1f} mm, rival {least:.1f}: right {sum(sel):3d} / "
                    f"wrong {len(sel) - sum(sel):2d}"
                )
    if args.far:
        _far_curve(rows)
    if args.rows:
        args.rows.write_text(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
