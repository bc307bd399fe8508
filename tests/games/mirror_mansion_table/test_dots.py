"""Green dots as the mirrors' evidence: a sticker joined to a wide stripe of its colour is
still found where it was stuck, and a green dot over a slot that shows no top edge names no
mirror. The dots are found on small planes painted by hand, and the stages run on candidates
given by hand, so each rule is seen alone."""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.games.mirror_mansion.rules.board import SLOTS, load_board
from companion.games.mirror_mansion.vision import perceive
from companion.games.mirror_mansion.vision.dots import (
    MAX_ELONGATION,
    OPENING,
    SIZE_RANGE,
    SPLIT_OPENING,
    Dot,
    find_dots,
    ring_contrast,
)
from companion.games.mirror_mansion.vision.stickers import DEFAULT_STICKERS
from companion.games.mirror_mansion.vision.top_planes import PX_PER_MM, TopPlane

BOARD = load_board()
GREEN = (60, 170, 50)


def _plane(stripe_mm: float, dot_mm: float) -> tuple[TopPlane, tuple[float, float]]:
    """A 70 mm square of grey board crossed by a diagonal stripe `stripe_mm` wide of the
    sticker's green (a slot's insert seen through an empty slot), with a dot `dot_mm` across
    stuck on it (0: none); the dot's centre in mm."""
    side = round(70 * PX_PER_MM)
    img = np.full((side, side, 3), 110, np.uint8)
    a, b = round(10 * PX_PER_MM), round(60 * PX_PER_MM)
    if stripe_mm:
        cv2.line(img, (a, a), (b, b), GREEN, round(stripe_mm * PX_PER_MM), cv2.LINE_AA)
    centre = (38.0, 38.0)
    if dot_mm:
        c = (round(centre[0] * PX_PER_MM), round(centre[1] * PX_PER_MM))
        cv2.circle(img, c, round(dot_mm / 2 * PX_PER_MM), GREEN, -1, cv2.LINE_AA)
    return TopPlane(img, (0.0, 0.0), float(BOARD.mirror_height_mm)), centre


def _found_near(plane: TopPlane, xy: tuple[float, float]) -> list[Dot]:
    dots = find_dots(plane, DEFAULT_STICKERS.mirror_dot, BOARD.dot_diameter_mm)
    return [d for d in dots if math.dist(d.centre_mm, xy) <= 1.5]


# Wider than the first opening's disc, narrower than the second's.
STRIPE_MM = (OPENING * SIZE_RANGE[0] + SPLIT_OPENING) / 2 * BOARD.dot_diameter_mm - 0.5


def test_a_dot_stuck_on_a_stripe_of_its_colour_wider_than_the_first_opening_is_found() -> None:
    assert OPENING * SIZE_RANGE[0] * BOARD.dot_diameter_mm < STRIPE_MM
    plane, centre = _plane(STRIPE_MM, 9.0)
    near = _found_near(plane, centre)
    assert near, "the sticker is found where it was stuck"
    # It keeps the stripe in its ring: less alone than a dot on plain board.
    alone, _ = _plane(0.0, 9.0)
    free = _found_near(alone, centre)
    assert free and max(d.isolation for d in near) < max(d.isolation for d in free)


def test_a_wide_stripe_alone_is_no_dot_that_stands_out_from_its_ring() -> None:
    # Its rounded ends may be cut as discs (`_discs` looks for lobes), but a stripe's end has
    # the stripe in its ring: it names no piece.
    plane, _ = _plane(STRIPE_MM, 0.0)
    found = find_dots(plane, DEFAULT_STICKERS.mirror_dot, BOARD.dot_diameter_mm)
    assert all(d.contrast < perceive.CONTRAST_MIN for d in found)
    assert all(d.elongation <= MAX_ELONGATION for d in found)


def test_a_sticker_touching_a_printed_disc_of_its_colour_is_found_where_it_was_stuck() -> None:
    # Together the two discs are one blob round enough for a dot (a window's sticker against
    # a movement field's disc printed just behind its card), centred between them.
    side = round(70 * PX_PER_MM)
    img = np.full((side, side, 3), 110, np.uint8)
    print_mm, sticker_mm = (33.0, 30.0), (37.0, 36.5)
    for (x, y), d in ((print_mm, 10.0), (sticker_mm, 8.5)):
        c = (round(x * PX_PER_MM), round(y * PX_PER_MM))
        cv2.circle(img, c, round(d / 2 * PX_PER_MM), GREEN, -1, cv2.LINE_AA)
    plane = TopPlane(img, (0.0, 0.0), float(BOARD.mirror_height_mm))
    found = find_dots(plane, DEFAULT_STICKERS.mirror_dot, BOARD.dot_diameter_mm)
    near = [d for d in found if math.dist(d.centre_mm, sticker_mm) <= 1.0]
    assert near, "the sticker is a dot of its own"
    assert all(abs(d.area_mm2 - math.pi * 4.25**2) < 15 for d in near)
    # The blob as a whole is found too, between the two.
    assert any(math.dist(d.centre_mm, sticker_mm) > 2.5 for d in found)


def _read_dot_over(bar: float):
    """A lone, round, full-coloured green dot 4 mm off the "/" slot of the middle crossing,
    whose top-edge score is `bar`."""
    c = np.array(BOARD.crossing_mm((1, 1)))
    u, n = perceive.slot_axes("/", BOARD)
    p = c + 10.0 * u + 4.0 * n
    dot = Dot((float(p[0]), float(p[1])), 50.0, 1.0, 1.0, 2)
    bars = {(cell, s): -1.0 for cell in BOARD.cells for s in SLOTS}
    bars[((1, 1), "/")] = bar
    cands = perceive.Candidates((dot,), (), {side: () for side in "NESW"}, bars, dict(bars))
    return perceive.fit(perceive.identify(cands, BOARD), cands, BOARD)


def test_a_green_dot_names_a_mirror_only_over_a_top_edge() -> None:
    (m,) = _read_dot_over(perceive.MIRROR_EDGE_MIN + 0.5).mirrors
    assert (m.cell, m.slot, m.facing) == ((1, 1), "/", "SE")
    # The same dot over flat print (a splash of art, a bubble's icon) is no mirror.
    assert _read_dot_over(perceive.MIRROR_EDGE_MIN - 0.5).mirrors == ()


def test_a_top_edge_alone_is_a_mirror_whose_facing_is_asked() -> None:
    # No dot found (a pale sticker under glare, a green one over a green board): the top edge
    # says a mirror stands there, not which way it faces.
    bars = {(cell, s): -1.0 for cell in BOARD.cells for s in SLOTS}
    bars[((1, 1), "/")] = perceive.BAR_MIN + 0.1
    cands = perceive.Candidates((), (), {side: () for side in "NESW"}, bars, dict(bars))
    got = perceive.fit(perceive.identify(cands, BOARD), cands, BOARD)
    (m,) = got.mirrors
    assert (m.cell, m.slot, m.facing) == ((1, 1), "/", None)
    assert any("which way does it face" in w for w in got.warnings)
    bars[((1, 1), "/")] = perceive.BAR_MIN - 0.1
    cands = perceive.Candidates((), (), {side: () for side in "NESW"}, bars, dict(bars))
    assert perceive.fit(perceive.identify(cands, BOARD), cands, BOARD).mirrors == ()


def _disc_on(background: tuple[int, int, int], region: tuple[int, int, int] | None) -> float:
    """The ring contrast of a 9 mm green disc in the middle of a 70 mm square of
    `background`; with `region`, a rectangle of that colour covering the square's right half
    (the disc's middle on its edge) or, if it is the disc's own green, the disc is part of it."""
    side = round(70 * PX_PER_MM)
    img = np.full((side, side, 3), background, np.uint8)
    mid, r = side // 2, 4.5 * PX_PER_MM
    if region is not None:
        cv2.rectangle(img, (mid, 0), (side, side), region, -1)
    cv2.circle(img, (mid, mid), round(r), GREEN, -1, cv2.LINE_AA)
    return ring_contrast(img, float(mid), float(mid), r)


def test_a_sticker_contrasts_with_its_ring_a_blob_of_a_larger_region_does_not() -> None:
    on_board = _disc_on((110, 110, 110), None)
    # Stuck half on a face of a darker green: the ring's nearest part is still another shade.
    on_a_face = _disc_on((110, 110, 110), (30, 90, 25))
    # The same green blob as the tip of a larger region of its colour (board art).
    part_of_art = _disc_on((110, 110, 110), GREEN)
    assert part_of_art < perceive.CONTRAST_MIN < min(on_board, on_a_face)


def test_a_dot_that_does_not_contrast_with_its_ring_names_no_mirror() -> None:
    c = np.array(BOARD.crossing_mm((1, 1)))
    u, n = perceive.slot_axes("/", BOARD)
    p = c + 10.0 * u + 4.0 * n
    bars = {(cell, s): -1.0 for cell in BOARD.cells for s in SLOTS}
    bars[((1, 1), "/")] = perceive.MIRROR_EDGE_MIN + 0.5

    def read(contrast: float):
        dot = Dot((float(p[0]), float(p[1])), 50.0, 1.0, 1.0, 2, contrast)
        cands = perceive.Candidates((dot,), (), {side: () for side in "NESW"}, bars, dict(bars))
        return perceive.fit(perceive.identify(cands, BOARD), cands, BOARD).mirrors

    (m,) = read(perceive.CONTRAST_MIN + 5.0)
    assert (m.cell, m.slot, m.facing) == ((1, 1), "/", "SE")
    assert read(perceive.CONTRAST_MIN - 5.0) == ()
