"""Mirror Mansion: a mirror's own top as the reader finds it, next to the top as it was made.

    .venv/bin/python benchmarks/devset/mirror_mansion/tops.py --styles wide16:150

For every mirror of the development boards whose likeliest dot lies within
`perceive.TOP_NEAR_MM` of its slot's line (where the facing is read from the mirror's own top,
`perceive.mirror_tops`), one line: the true top (its span across the slot, mm toward the slot's
second facing), the strip the reader took for it, the dot's place, the camera's side and the
width its face shows (`perceive.face_width_mm`), what the reader made of it (`side_from`:
"top", or "top_asked" because the top and the line disagree or the face may be in the top)
and whether the reading is right, asked or wrong, the half of the strip the dot lies on seen
from the camera and whether the line names the other side clearly, how uneven the band
beside the strip on the camera's side is (`MirrorTop.face_uneven`: a reflection there, or an
even back or top; "-" where the face shows too narrow), and how far the strip's colour lies
from the board's empty slot line over that line's own contrast with the board
(`MirrorTop.print_gap`) with where that print shows on the mirrors' plane (pulled toward the
camera by the face's width); `--print-gap-max 0` reads with the print rule off
(`perceive.print_strip`), for its curve. Then tallies, so that a rule for which strip is the
top can be judged on the rows, not on one board.

Development seeds only (`sweep.DEV`, the same cache); the held-out painter is never read here.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from sweep import staged, style_of  # noqa: E402

from companion.games.mirror_mansion.rules.board import FACINGS, load_board  # noqa: E402
from companion.games.mirror_mansion.vision import perceive  # noqa: E402
from companion.games.mirror_mansion.vision.render import (  # noqa: E402
    Conditions,
    photo_setup,
)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", type=Path, default=Path("/tmp/mm_devset"))
    ap.add_argument("--styles", default="wide16")
    ap.add_argument(
        "--print-gap-max",
        type=float,
        help="read with `perceive.PRINT_GAP_MAX` set to this (0: the print rule off, so that "
        "its curve is drawn on the readings it would change)",
    )
    args = ap.parse_args()
    if args.print_gap_max is not None:
        perceive.PRINT_GAP_MAX = args.print_gap_max
    board = load_board()
    tally: Counter[str] = Counter()
    print(
        "board cell slot | true top lo..hi | found lo..hi (strength) | dot across | "
        "camera side, face mm | side_from | outcome | ... | print gap"
    )
    for style, seed, _image, truth, _rect, cands, ident in staged(args.cache, board, args.styles):
        _, _, _, look = photo_setup(board, seed, Conditions(style=style_of(style)))
        if look is None or look.paints is None:
            continue
        got = perceive.fit(ident, cands, board)
        paints = look.paints
        for m in truth.mirrors:
            held = next((p for p in ident.pieces if p.cell == m.cell and p.kind == "mirror"), None)
            if held is None or held.dot is None or held.slot != m.slot:
                continue
            key = (held.dot.centre_mm, m.slot)
            if key not in cands.tops:
                continue
            top = cands.tops[key]
            s = 1.0 if m.facing == FACINGS[m.slot][1] else -1.0
            mid, half = s * paints.mirror_top_line_mm, paints.mirror_thickness_mm / 2
            _, fits = perceive._slot_fits(board, held.dot)
            across = fits[m.slot][1]
            seen = got.mirror_at(m.cell)
            outcome = (
                "missed"
                if seen is None
                else "asked"
                if seen.facing is None or not seen.slot_sure
                else "right"
                if (seen.slot, seen.facing) == (m.slot, m.facing)
                else "WRONG"
            )
            lo, hi = top.middle_mm - top.width_mm / 2, top.middle_mm + top.width_mm / 2
            # Where the face toward the camera shows: beside the true top on the camera's side.
            face = f"{top.near_side:+.0f} {top.face_mm:.1f}" if top.near_side else "0 0"
            # Is the strip found the true top (overlapping it by most of its width)?
            overlap = max(0.0, min(hi, mid + half) - max(lo, mid - half))
            which = "top" if overlap >= 0.6 * min(top.width_mm, 2 * half) else "beside"
            face_in = perceive._face_in_top(top, across)
            # Which half of the strip the dot lies on, seen from the camera (the face only
            # ever widens a strip toward the camera), and whether the line names the other
            # side clearly (`perceive._near_half`).
            from_camera = (
                "near"
                if top.near_side * (across - top.middle_mm) > 0
                else "far"
                if top.near_side
                else "?"
            )
            against = (across - top.middle_mm) * across < 0 and abs(across) >= (
                perceive.ACROSS_MM[0]
            )
            print(
                f"{style} {seed[1]:3d} {m.cell} {m.slot} | "
                f"{mid - half:+5.1f}..{mid + half:+5.1f}"
                f" | {lo:+5.1f}..{hi:+5.1f} ({top.strength:.2f}, {which}) | {across:+5.1f} | "
                f"{face} | {held.side_from} | {outcome} | face in top {face_in} | "
                f"{from_camera} half{', line against' if against else ''} | band "
                f"{'-' if top.face_uneven is None else f'{top.face_uneven:.1f}'} | "
                f"print gap {top.print_gap:.2f} of 1, "
                f"print at {top.near_side * top.face_mm:+.1f}"
            )
            line = "against " if against else ""
            tally[f"{which} {from_camera} {line}{held.side_from} {outcome}"] += 1
    print()
    for k, v in sorted(tally.items()):
        print(f"  {v:4d}  {k}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
