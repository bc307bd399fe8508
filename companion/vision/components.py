"""Connected components of a binary mask, found from their outlines.

`cv2.connectedComponentsWithStats` labels a 1280×960 mask in about 1.5 ms but spends four
times that on its statistics pass in OpenCV 5, for thousands of specks nobody looks at. The
outer contours come in a fraction of a millisecond, their bounding boxes discard the specks,
and only the few large components are filled in to be counted.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Component:
    x: int
    y: int
    w: int
    h: int
    area: int
    """Its pixels, as `connectedComponentsWithStats` counts them."""
    mask: np.ndarray
    """uint8 0/1 over the bounding box (x, y, w, h): the component's own pixels."""
    outline: np.ndarray
    """Its outer outline, as `cv2.findContours` gives it (whole-mask px): a caller that fits
    shapes to it need not trace `mask` again."""
    holes: tuple[np.ndarray, ...]
    """The outlines of its holes, likewise."""


def components(mask: np.ndarray, min_area: int, skip_edge: bool = False) -> Iterator[Component]:
    """8-connected components of a uint8 0/1 mask with at least `min_area` pixels (and not
    touching the mask's edge, with `skip_edge`: those are never filled in)."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return
    # (The links as Python ints, and each outline's box before anything else is asked of it:
    # a mask of a patterned table has hundreds of specks, and numpy's indexing of one link or
    # point at a time cost more than tracing them.)
    links = hierarchy[0].tolist()
    H, W = mask.shape
    boxes = []
    for i, link in enumerate(links):
        if link[3] >= 0:
            continue
        x, y, w, h = cv2.boundingRect(contours[i])
        if w * h < min_area or (skip_edge and (x == 0 or y == 0 or x + w >= W or y + h >= H)):
            continue
        boxes.append((i, x, y, w, h))
    # In a fixed order, which callers' choices may depend on: by each component's first pixel
    # in raster order, where its outline starts. (OpenCV's labels are not in that order: it
    # scans blocks of pixels, and in stripes when it has threads.)
    boxes.sort(key=lambda b: (int(contours[b[0]][0, 0, 1]), int(contours[b[0]][0, 0, 0])))
    for i, x, y, w, h in boxes:
        outline = contours[i]
        own = np.zeros((h, w), np.uint8)
        cv2.drawContours(own, [outline], -1, 1, thickness=cv2.FILLED, offset=(-x, -y))
        # Empty its holes (and whatever lies in them: another component's island), then put
        # back the holes' outlines, which are of this component's own pixels. All holes in one
        # call each (a card's art has hundreds of specks of glare): the same pixels as hole by
        # hole, since holes share at most outline pixels, which are drawn back last.
        holes = []
        hole = links[i][2]
        while hole >= 0:
            holes.append(contours[hole])
            hole = links[hole][0]
        if holes:
            cv2.drawContours(own, holes, -1, 0, thickness=cv2.FILLED, offset=(-x, -y))
            cv2.drawContours(own, holes, -1, 1, thickness=1, offset=(-x, -y))
        own &= mask[y : y + h, x : x + w]
        area = cv2.countNonZero(own)
        if area >= min_area:
            yield Component(x, y, w, h, area, own, outline, tuple(holes))
