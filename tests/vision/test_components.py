"""`components` against OpenCV's own labelling: same pixels, same boxes, same areas."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.components import components


def _labelled(mask: np.ndarray, min_area: int, skip_edge: bool) -> list[tuple]:
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    out = []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if area < min_area:
            continue
        if skip_edge and (x == 0 or y == 0 or x + bw >= w or y + bh >= h):
            continue
        own = (lab[y : y + bh, x : x + bw] == i).astype(np.uint8)
        out.append((x, y, bw, bh, area, own.tobytes()))
    return sorted(out)


@pytest.mark.parametrize("skip_edge", [False, True])
def test_same_components_as_labelling_on_nested_random_masks(skip_edge):
    # Random masks are full of islands inside holes inside components: the case where
    # outlines alone would count another component's pixels as this one's.
    rng = np.random.default_rng(7)
    for trial in range(200):
        mask = (rng.random((48, 64)) < rng.uniform(0.3, 0.7)).astype(np.uint8)
        if trial % 2:
            mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((2, 2), np.uint8))
        got = sorted(
            (c.x, c.y, c.w, c.h, c.area, c.mask.tobytes())
            for c in components(mask, 4, skip_edge=skip_edge)
        )
        assert got == _labelled(mask, 4, skip_edge), trial


def test_a_ring_with_a_card_inside_is_two_components():
    mask = np.zeros((60, 60), np.uint8)
    cv2.rectangle(mask, (5, 5), (54, 54), 1, thickness=4)
    cv2.rectangle(mask, (20, 20), (39, 39), 1, thickness=-1)
    found = sorted((c.x, c.y, c.area) for c in components(mask, 10))
    assert found == [(3, 3, int(mask.sum()) - 400), (20, 20, 400)]  # the ring is 4 px thick


def test_in_raster_order_of_first_pixel():
    mask = np.zeros((30, 30), np.uint8)
    mask[10:20, 2:5] = 1  # starts lower, further left
    mask[3:6, 20:28] = 1  # starts higher
    assert [(c.x, c.y) for c in components(mask, 1)] == [(20, 3), (2, 10)]


def test_outlines_are_those_of_the_component_traced_alone():
    # A caller fits shapes to a component's outlines instead of tracing its mask again:
    # they must be the very outlines (same points, same order) that tracing its own pixels
    # alone gives, islands in its holes and neighbours in its box left out.
    rng = np.random.default_rng(11)
    for trial in range(100):
        mask = (rng.random((48, 64)) < rng.uniform(0.4, 0.7)).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((2, 2), np.uint8))
        for c in components(mask, 4):
            alone, hierarchy = cv2.findContours(c.mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
            parent = hierarchy[0][:, 3]
            at = np.array([c.x, c.y])
            (outer,) = [a + at for a, p in zip(alone, parent, strict=True) if p < 0]
            holes = sorted((a + at).tolist() for a, p in zip(alone, parent, strict=True) if p >= 0)
            assert np.array_equal(c.outline, outer), trial
            assert sorted(h.tolist() for h in c.holes) == holes, trial
