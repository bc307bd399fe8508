"""The pixels the reader asks about a place (`Region`) and the table's colours
(`table_colours`): counted cheaply, the same as counted pixel by pixel."""

from __future__ import annotations

import cv2
import numpy as np

from companion.games.looking_glass.vision.read import (
    COLOUR_BINS,
    TABLE_BAND,
    TABLE_BIN_SHARE,
    Region,
    colour_bins,
    table_colours,
)


def test_a_region_holds_the_pixels_a_whole_image_mask_of_its_outline_does():
    """In the same order, also for outlines partly or wholly out of view."""
    rng = np.random.default_rng(7)
    shape = (120, 160)
    image = rng.integers(0, 256, shape, dtype=np.uint8)
    for _ in range(300):
        c = rng.uniform([-40, -40], [200, 160])
        a = rng.uniform(0, np.pi)
        across, down = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
        w, h = rng.uniform(1, 90, 2)
        quad = np.array([c, c + w * across, c + w * across + h * down, c + h * down])
        whole = np.zeros(shape, np.uint8)
        cv2.fillConvexPoly(whole, np.rint(quad).astype(np.int32), 1)
        region = Region.in_image(shape, quad)
        assert region.count() == int(whole.sum())
        assert np.array_equal(region.of(image), image[whole > 0])


def test_the_tables_colours_are_the_bins_common_along_three_edges():
    """A table of two colours along every edge but one, whose strip holds a third; an arm
    (a fourth colour) reaches in over one edge only; white pixels are not counted."""
    rng = np.random.default_rng(3)
    h, w = 200, 300
    colours = np.array([[60, 90, 140], [40, 160, 70], [200, 60, 60], [90, 120, 200]], np.uint8)
    pick = rng.choice(2, size=(h, w))
    image = colours[pick]
    by, bx = int(TABLE_BAND * h), int(TABLE_BAND * w)
    image[:by, : w // 2] = colours[2]  # one edge's own colour
    image[h // 2 : h // 2 + 30, w - bx :] = colours[3]  # an arm over the right edge
    white = rng.random((h, w)) < 0.3
    image[white] = 255
    got = table_colours(image, white)
    assert got.shape == (COLOUR_BINS,)
    bins = colour_bins(cv2.cvtColor(colours[None], cv2.COLOR_BGR2LAB)[0])
    assert got[bins[0]] and got[bins[1]]
    assert not got[bins[2]] and not got[bins[3]]
    # Many colours, some near a bin's edge and some near the share: counted pixel by pixel
    # too, as each strip's histogram of its non-white pixels.
    palette = rng.integers(0, 256, (40, 3), dtype=np.uint8)
    image = palette[rng.choice(40, size=(h, w), p=rng.dirichlet(np.ones(40)))]
    image[white] = 255
    got = table_colours(image, white)
    # Pixel by pixel, as each strip's histogram of its non-white pixels.
    sides = np.zeros(COLOUR_BINS, np.int32)
    full = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    for strip in (
        (slice(0, by), slice(None)),
        (slice(h - by, h), slice(None)),
        (slice(by, h - by), slice(0, bx)),
        (slice(by, h - by), slice(w - bx, w)),
    ):
        part = colour_bins(full[strip][~white[strip]])
        sides += np.bincount(part, minlength=COLOUR_BINS) >= TABLE_BIN_SHARE * len(part)
    assert np.array_equal(got, sides >= 3)
