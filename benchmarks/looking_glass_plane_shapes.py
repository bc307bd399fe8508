"""How far the holes the light-border reader finds are, in the image, from a whole card
interior's shape, at a steep tilt and with no markers: the curve `read.WHOLE_SHAPE_TOLERANCE`
is chosen from.

Each table is rendered like a benchmark scene (house deck, `sample_conditions`), but with the
tilt set (`--tilt`) and the markers off, so that the reader's plane comes from the cards
(`read.plane_from_cards`). Every hole the finder returns is classed by its true shape on the
table (the renderer's own homography): a whole card interior, an upper half, or something
else. For each class the script prints how far its image length-to-width ratio is from the
interior's (what `WHOLE_SHAPE_TOLERANCE` bounds) and how far the same ratio is once rectified
by the plane the cards give (a test against the shape the plane predicts). The same curve over
the holes framed by white all round only (`read._framed`, as the last pair of a round is read
apart from the score piles) is what `read.LAST_PAIR_SHAPE_TOLERANCE` is chosen from::

    PYTHONPATH=$PWD .venv/bin/python benchmarks/looking_glass_plane_shapes.py \\
        --tables 40 --seed-base S --tilt 25
"""

from __future__ import annotations

import argparse
import math
from dataclasses import replace

import numpy as np

from companion.games.looking_glass.rules.deck import load_deck
from companion.games.looking_glass.vision import read as R
from companion.games.looking_glass.vision.art import BORDER_MM, CARD_H_MM, draw_deck
from companion.games.looking_glass.vision.render import (
    TableCamera,
    sample_conditions,
    scene_table,
)
from companion.vision.cards.library import CARD_W_MM, CardShape, Library
from companion.vision.homography import apply_homography


def _sides(quad: np.ndarray) -> tuple[float, float]:
    """Mean lengths of the two pairs of opposite sides (0-1 with 3-2, then 0-3 with 1-2)."""
    a = float(np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    b = float(np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    return a, b


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--seed-base", type=int, required=True)
    ap.add_argument("--tilt", type=float, default=25.0)
    args = ap.parse_args()
    ids = load_deck().ids
    wi, hi = CARD_W_MM - 2 * BORDER_MM, CARD_H_MM - 2 * BORDER_MM
    aspect, half_aspect = hi / wi, (CARD_H_MM / 2 - BORDER_MM) / wi
    # The reader wants a library only for its shape: the printed one.
    shape = CardShape(CARD_H_MM, BORDER_MM)
    empty = np.zeros((len(ids), 1, 1, 3), np.float32)
    lib = Library(list(ids), empty, empty.astype(np.uint8), shape, None)
    image_off: dict[str, list[float]] = {"whole": [], "half": [], "other": []}
    plane_off: dict[str, list[float]] = {"whole": [], "half": [], "other": []}
    framed_off: dict[str, list[float]] = {"whole": [], "half": [], "other": []}
    for t in range(args.tables):
        seed = args.seed_base + t
        art = draw_deck(ids, seed)
        rng = np.random.default_rng([seed, 11, 0])
        cond = replace(sample_conditions(rng), tilt_deg=args.tilt, markers=False, hand=False)
        table = scene_table(rng, cond.sleeves)
        camera = TableCamera(art, table, cond, seed * 100003)
        img, _ = camera.render(table, 0)
        sc, small = R.processing_image(img)
        unit = R.work_unit()
        white = R.white_mask(small, unit)
        holes = R.find_holes(small, white=white, unit=unit, second_look=True)
        if not holes:
            continue
        to_mm = np.linalg.inv(camera.H) @ np.diag([1 / sc, 1 / sc, 1.0])
        phi = R.dominant_angle(holes)
        options = [R.orient(holes, phi), R.orient(holes, phi + math.pi / 2)]
        spreads = [R.width_spread(o) for o in options]
        items = options[int(np.argmin(spreads))]
        plane = R.plane_from_cards(items, lib)
        if plane is None:
            continue  # (the reader reads nothing there)
        for o in items:
            quad = o.hole.corners
            a, b = _sides(apply_homography(to_mm, quad))
            # The true shape: the mm side matching the image width side is the width.
            wv = o.width_vec
            first_is_width = abs(float(np.dot(quad[1] - quad[0], wv))) / (
                np.linalg.norm(quad[1] - quad[0]) + 1e-9
            ) >= abs(float(np.dot(quad[3] - quad[0], wv))) / (
                np.linalg.norm(quad[3] - quad[0]) + 1e-9
            )
            w_mm, h_mm = (a, b) if first_is_width else (b, a)
            if abs(w_mm / wi - 1) < 0.1 and abs(h_mm / hi - 1) < 0.1:
                kind = "whole"
            elif abs(w_mm / wi - 1) < 0.1 and abs(h_mm / (half_aspect * wi) - 1) < 0.15:
                kind = "half"
            else:
                kind = "other"
            ratio = float(np.linalg.norm(o.height_vec)) / max(1e-6, float(np.linalg.norm(wv)))
            image_off[kind].append(ratio / aspect - 1)
            if R._framed(white, quad, unit=unit):
                framed_off[kind].append(ratio / aspect - 1)
            pa, pb = _sides(apply_homography(plane, quad))
            pw, ph = (pa, pb) if first_is_width else (pb, pa)
            plane_off[kind].append(ph / max(1e-6, pw) / aspect - 1)
    print("holes the rectified test adds to the image test (image off >= WHOLE_SHAPE_TOLERANCE):")
    for kind in image_off:
        if not plane_off[kind]:
            continue
        im, pl = np.abs(image_off[kind]), np.abs(plane_off[kind])
        print(
            f"  {kind:5s} "
            + " ".join(
                f"{tol}:{int(np.sum((im >= R.WHOLE_SHAPE_TOLERANCE) & (pl < tol)))}"
                for tol in (0.05, 0.1, 0.15, 0.2, 0.25)
            )
        )
    for name, offs in (
        ("image", image_off),
        ("rectified by the cards' plane", plane_off),
        ("image, holes framed by white all round", framed_off),
    ):
        print(f"ratio off a whole interior's ({aspect:.3f}), {name}:")
        for kind, v in offs.items():
            arr = np.abs(np.array(v)) if v else np.zeros(0)
            if not len(arr):
                print(f"  {kind:5s} n=0")
                continue
            qs = np.percentile(arr, [50, 90, 99, 100])
            within = {
                tol: int(np.sum(arr < tol))
                for tol in (0.1, 0.15, 0.18, 0.2, 0.22, 0.25, 0.3, 0.35, 0.4)
            }
            print(
                f"  {kind:5s} n={len(arr):4d} |off| median {float(qs[0]):.3f} "
                f"p90 {float(qs[1]):.3f} "
                f"p99 {float(qs[2]):.3f} max {float(qs[3]):.3f}; within tol: "
                + " ".join(f"{k}:{n}" for k, n in within.items())
            )


if __name__ == "__main__":
    main()
