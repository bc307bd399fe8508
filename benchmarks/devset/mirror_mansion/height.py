"""Mirror Mansion: each box's mirror height estimated from its photo, against the render's truth.

    .venv/bin/python benchmarks/devset/mirror_mansion/height.py --cache DIR --styles wide23,wide22

The reader samples the mirrors' tops on the plane `board.mirror_height_mm` above the board.
Seen through that plane, a point at another height h moves by parallax: the photo's plane at
height h maps to the model's plane by a dilation about the point under the camera (the
nadir N) of factor k = (H - h0) / (H - h) (H the camera's height, h0 the model's), so a
mirror's top at true place q across its slot's line shows at q + d (k - 1), d = (c - N) . n
its crossing's offset from the nadir across the slot. Every top of a box is one make: its
middle lies the same L off the slot's line toward the reflective face (a frame centred in the
slot, or a sheet on a backing whose face stands on the line, the top behind it). So the
middles found (`perceive.MirrorTops`, measured for every dot here whatever its distance off
the line) fit middle_i = s_i L + d_i e, s_i +1 where the mirror faces the slot's second facing
and -1 otherwise, e = k - 1; from e, h = (h0 + e H) / (1 + e). Two unknowns a box, one
equation a dotted mirror: a box with at least `--least` dotted mirrors with a top found is
estimated, by least squares with the facings as read (`read`) and, to see what the cue can
give at best, as the answer key has them (`oracle`).

Printed: per set, the error distribution (estimate less the box's true height, the render's
`BoxLook.mirror_height_mm`), the share within 0.5 / 1 / 1.5 mm, how many boxes could not be
estimated, and how many of the confidently wrong facings sit on boxes whose mirrors stand more
than `OFF_MM` taller or shorter than the model, against the right ones.

`--at-true-height` reads each box twice, at the model's height and at its own (the best any
estimate could give), and tallies per mirror right / asked / wrong / missed / phantom and what
changed.

Development seeds only (`sweep.DEV`, the same cache); the held-out painter is never read here.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from sweep import photos, staged, style_of  # noqa: E402

from companion.games.mirror_mansion.rules.board import FACINGS, load_board  # noqa: E402
from companion.games.mirror_mansion.vision import perceive  # noqa: E402
from companion.games.mirror_mansion.vision.render import Conditions, photo_setup  # noqa: E402
from companion.games.mirror_mansion.vision.scene import BoxState  # noqa: E402

KINDS = ("read", "oracle", "oracle, L known", "oracle, far edge, L and t known")
OFF_MM = 1.5
"""A box whose mirrors stand more than this off the model's height counts as off."""


def fit_height(
    rows: list[tuple[float, ...]], h0: float, camera_height: float
) -> tuple[float, float] | None:
    """(height, residual rms) from (s, d, middle) rows, or None when under-determined."""
    if len(rows) < 2:
        return None
    a = np.array([[r[0], r[1]] for r in rows], np.float64)
    b = np.array([r[2] for r in rows], np.float64)
    if np.linalg.matrix_rank(a, tol=1e-6) < 2 or np.linalg.cond(a) > 1e4:
        return None
    x = np.linalg.lstsq(a, b, rcond=None)[0]
    e = float(x[1])
    res = b - a @ x
    h = (h0 + e * camera_height) / (1 + e)
    return float(h), float(np.sqrt(np.mean(res**2)))


def fit_shift(
    rows: list[tuple[float, ...]],
    line: float,
    h0: float,
    camera_height: float,
    half: float | None = None,
) -> tuple[float, float, int] | None:
    """As `fit_height` with the tops' offset L known (the answer key's): e alone, the best
    the tops' middles can give; with `half` (half the tops' true thickness) from the strips'
    far edges instead, which no face toward the camera widens."""
    d = np.array([r[1] for r in rows])
    if half is None:
        m = np.array([r[2] - r[0] * line for r in rows])
    else:
        m = np.array([r[3] - r[0] * line - r[4] * half for r in rows])
    if float(d @ d) < 1.0:
        return None
    e = float(d @ m / (d @ d))
    return (h0 + e * camera_height) / (1 + e), float(np.sqrt(np.mean((m - d * e) ** 2))), len(rows)


def box_rows(board, rect, cands, ident, facings: dict) -> list[tuple[float, ...]]:
    """(s, d, middle, far edge, far side) of each dotted mirror whose top is found, its facing
    from `facings` (cell -> (slot, facing)): the far edge is the strip's edge on the side away
    from the camera (where no face shows), the far side +1 or -1 across the line."""
    camera = rect.pose.camera_centre
    nadir = np.asarray(camera[:2], np.float64)
    near = perceive.TOP_NEAR_MM
    perceive.TOP_NEAR_MM = 12.0
    try:
        probe = perceive.MirrorTops(rect.mirror_points, board, cands.green, camera, None)
        rows = []
        for p in ident.pieces:
            if p.kind != "mirror" or p.dot is None or p.cell not in facings:
                continue
            slot, facing = facings[p.cell]
            if slot != p.slot or facing is None:
                continue
            top = probe.get((p.dot.centre_mm, p.slot))
            if top is None:
                continue
            _, n = perceive.slot_axes(slot, board)
            d = float((np.asarray(board.crossing_mm(p.cell)) - nadir) @ n)
            s = 1.0 if facing == FACINGS[slot][1] else -1.0
            far = -top.near_side
            rows.append((s, d, top.middle_mm, top.middle_mm + far * top.width_mm / 2, far))
    finally:
        perceive.TOP_NEAR_MM = near
    return rows


def mirror_outcomes(truth: BoxState, got: BoxState) -> dict:
    """Per true mirror's cell: right, asked (slot or facing), wrong (slot or facing) or
    missed; per phantom's cell: phantom."""
    out = {}
    for m in truth.mirrors:
        seen = got.mirror_at(m.cell)
        if seen is None:
            out[m.cell] = "missed"
        elif not seen.slot_sure or seen.facing is None:
            out[m.cell] = "asked"
        elif (seen.slot, seen.facing) != (m.slot, m.facing):
            out[m.cell] = "wrong"
        else:
            out[m.cell] = "right"
    cells = {m.cell for m in truth.mirrors}
    out.update({m.cell: "phantom" for m in got.mirrors if m.cell not in cells})
    return out


def at_true_height(cache: Path, board, styles: str) -> None:
    """Each box read at the model's height and at its own true height (the render's), as a
    perfect estimate would have it read: per mirror right / asked / wrong and what changed."""
    totals: dict[str, Counter[str]] = {"model": Counter(), "true": Counter()}
    moves: Counter[str] = Counter()
    for spec in styles.split(","):
        style, _, first = spec.partition(":")
        for seed, image, truth in photos(cache, board, style, int(first) if first else None):
            _, _, _, look = photo_setup(board, seed, Conditions(style=style_of(style)))
            own = dataclasses.replace(board, mirror_height_mm=look.mirror_height_mm)
            base = mirror_outcomes(truth, perceive.read_box(image, board))
            mine = mirror_outcomes(truth, perceive.read_box(image, own))
            totals["model"].update(base.values())
            totals["true"].update(mine.values())
            h = look.mirror_height_mm
            off = (
                "taller"
                if h > board.mirror_height_mm + OFF_MM
                else "shorter"
                if h < board.mirror_height_mm - OFF_MM
                else "within"
            )
            for cell in set(base) | set(mine):
                a, b = base.get(cell, "none"), mine.get(cell, "none")
                if a != b:
                    moves[f"{a} -> {b} ({off})"] += 1
    for name, t in totals.items():
        print(f"read at the {name} height: {dict(sorted(t.items()))}")
    print(
        f"changed (the box taller / shorter than the model by more than {OFF_MM} mm, or "
        f"within): {dict(moves.most_common())}"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", type=Path, default=Path("/tmp/mm_devset"))
    ap.add_argument("--styles", default="wide23,wide22,wide21")
    ap.add_argument("--least", type=int, default=3, help="dotted mirrors with a top, at least")
    ap.add_argument(
        "--at-true-height",
        action="store_true",
        help="read each box at the model's height and at its true one, and tally both",
    )
    args = ap.parse_args()
    board = load_board()
    if args.at_true_height:
        at_true_height(args.cache, board, args.styles)
        return 0
    h0 = board.mirror_height_mm
    per_set: dict[str, dict[str, list]] = {}
    wrong_on = {"taller": 0, "shorter": 0, "on": 0}
    right_on = {"taller": 0, "shorter": 0, "on": 0}
    for style, seed, _image, truth, rect, cands, ident in staged(args.cache, board, args.styles):
        _, _, _, look = photo_setup(board, seed, Conditions(style=style_of(style)))
        true_h = board.mirror_height_mm if look is None else look.mirror_height_mm
        got = perceive.fit(ident, cands, board)
        read = {m.cell: (m.slot, m.facing) for m in got.mirrors if m.slot_sure}
        key = {m.cell: (m.slot, m.facing) for m in truth.mirrors}
        H = -float(rect.pose.camera_centre[2])
        sets = per_set.setdefault(style, {**{n: [] for n in KINDS}, "true": [], "gain": []})
        sets["true"].append(true_h)
        for name, facings in (("read", read), ("oracle", key)):
            rows = box_rows(board, rect, cands, ident, facings)
            est = fit_height(rows, h0, H) if len(rows) >= args.least else None
            sets[name].append(None if est is None else (est[0], est[1], len(rows)))
            if name == "oracle":
                line = (
                    None if look is None or look.paints is None else look.paints.mirror_top_line_mm
                )
                one = fit_shift(rows, line, h0, H) if rows and line is not None else None
                sets["oracle, L known"].append(one)
                half = None if line is None else look.paints.mirror_thickness_mm / 2
                sets["oracle, far edge, L and t known"].append(
                    fit_shift(rows, line, h0, H, half) if rows and half is not None else None
                )
                sets["gain"].append(max((abs(r[1]) for r in rows), default=0.0) / (H - h0))
        off = "taller" if true_h > h0 + OFF_MM else "shorter" if true_h < h0 - OFF_MM else "on"
        for m in got.mirrors:
            k = key.get(m.cell)
            if k is None or not m.slot_sure or m.facing is None or m.slot != k[0]:
                continue
            (right_on if m.facing == k[1] else wrong_on)[off] += 1
    for style, sets in [*per_set.items(), ("all", None)]:
        if sets is None:
            sets = {
                k: [x for s in per_set.values() for x in s[k]] for k in (*KINDS, "true", "gain")
            }
        true = np.array(sets["true"])
        print(
            f"\n{style}: {len(true)} boxes, true height less the model's: "
            f"|off| > {OFF_MM} mm on {int((np.abs(true - h0) > OFF_MM).sum())}"
        )
        gain = np.percentile(sets["gain"], [25, 50, 75, 90])
        print(
            "  parallax gain (a box's largest |d| / (H - h0): mm a top moves across its line per "
            f"mm of height) quartiles {gain[0]:.2f} / {gain[1]:.2f} / {gain[2]:.2f}, "
            f"90 % {gain[3]:.2f}"
        )
        for name in KINDS:
            est = sets[name]
            have = [(e[0], t) for e, t in zip(est, true, strict=True) if e is not None]
            if not have:
                print(f"  {name}: no box estimated")
                continue
            err = np.array([e - t for e, t in have])
            model_err = np.array([h0 - t for _, t in have])
            q = np.percentile(np.abs(err), [50, 75, 90, 95])
            print(
                f"  {name}: estimated {len(have)} / {len(est)}; |error| median {q[0]:.2f}, "
                f"75 % {q[1]:.2f}, 90 % {q[2]:.2f}, 95 % {q[3]:.2f} mm; within 0.5 / 1 / 1.5 mm "
                f"{np.mean(np.abs(err) <= 0.5):.0%} / {np.mean(np.abs(err) <= 1):.0%} / "
                f"{np.mean(np.abs(err) <= 1.5):.0%} (the model's own height: "
                f"{np.mean(np.abs(model_err) <= 0.5):.0%} / {np.mean(np.abs(model_err) <= 1):.0%}"
                f" / {np.mean(np.abs(model_err) <= 1.5):.0%}); bias {err.mean():+.2f} mm"
            )
            if style == "all":
                hist, edges = np.histogram(
                    err, bins=[-99, -3, -2, -1.5, -1, -0.5, 0.5, 1, 1.5, 2, 3, 99]
                )
                print(
                    "    error histogram: "
                    + ", ".join(
                        f"[{lo:g}, {hi:g}) {n}"
                        for lo, hi, n in zip(edges, edges[1:], hist, strict=False)
                    )
                )
    print(
        f"\nfacings read with a sure slot, the right one, by the box's true height against the "
        f"model's (taller / shorter by more than {OFF_MM} mm / within): confidently wrong "
        f"{wrong_on['taller']} / {wrong_on['shorter']} / {wrong_on['on']}, right "
        f"{right_on['taller']} / {right_on['shorter']} / {right_on['on']}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
