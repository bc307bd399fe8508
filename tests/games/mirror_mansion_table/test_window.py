"""The window card among magenta dots: a sticker printed in its kit's full colour stands out
further than paler print of a like hue, and the identify and fit stages prefer it. The dots
are found on small planes painted by hand and the stages run on candidates given by hand, so
the rule is seen alone."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from companion.games.mirror_mansion.rules.board import SLOTS, load_board
from companion.games.mirror_mansion.vision import perceive
from companion.games.mirror_mansion.vision.dots import LEVELS, Dot, find_dots
from companion.games.mirror_mansion.vision.stickers import DEFAULT_STICKERS
from companion.games.mirror_mansion.vision.top_planes import PX_PER_MM, TopPlane

BOARD = load_board()


def _plane_with_disc(bgr: tuple[int, int, int]) -> TopPlane:
    """A 60 mm square of grey board with one 9 mm disc of `bgr` in its middle."""
    side = round(60 * PX_PER_MM)
    img = np.full((side, side, 3), 120, np.uint8)
    cv2.circle(img, (side // 2, side // 2), round(4.5 * PX_PER_MM), bgr, -1, cv2.LINE_AA)
    return TopPlane(img, (0.0, 0.0), 0.0)


def _highest_level(plane: TopPlane) -> int:
    dots = find_dots(plane, DEFAULT_STICKERS.window_dot, BOARD.dot_diameter_mm)
    assert dots, "the disc is a dot"
    return max(d.level for d in dots)


def test_a_full_coloured_sticker_stands_out_at_a_higher_level_than_pale_print() -> None:
    sticker = _highest_level(_plane_with_disc((175, 35, 205)))
    pale = _highest_level(_plane_with_disc((170, 110, 185)))
    assert sticker == len(LEVELS) - 1
    assert pale < sticker


def _on_card(
    position: str,
    off_mm: float,
    level: int,
    isolation: float,
    contrast: float = perceive.WINDOW_CONTRAST_FULL,
    area_mm2: float = 60.0,
) -> tuple[str, Dot]:
    x, y = BOARD.card_mm(position)
    # Off the top line toward the board's centre.
    dx, dy = {"N": (0, 1), "S": (0, -1), "W": (1, 0), "E": (-1, 0)}[position[0]]
    centre = (x + dx * off_mm, y + dy * off_mm)
    return position[0], Dot(centre, area_mm2, 1.1, isolation, level, contrast)


def _candidates(*dots: tuple[str, Dot]) -> perceive.Candidates:
    magenta: dict[str, tuple[Dot, ...]] = {side: () for side in "NESW"}
    for side, dot in dots:
        magenta[side] = (*magenta[side], dot)
    bars = {(c, s): 0.0 for c in BOARD.cells for s in SLOTS}
    return perceive.Candidates((), (), magenta, bars, dict(bars))


def _window(*dots: tuple[str, Dot]) -> str | None:
    """The window the fit names (None: the players are asked)."""
    cands = _candidates(*dots)
    return perceive.fit(perceive.identify(cands, BOARD), cands, BOARD).window


def _leader(*dots: tuple[str, Dot]) -> str | None:
    """The card position whose dot scores highest, however narrowly (the fit may still ask)."""
    windows = perceive.identify(_candidates(*dots), BOARD).windows
    return windows[0][0] if windows else None


def test_the_dot_that_stands_out_further_names_the_window() -> None:
    # Pale print beside a card's top, quite alone, against the sticker on another card's top
    # with a little of its colour round it (its reflection, a card face of a like hue).
    print_dot = _on_card("N0", 2.5, 0, 1.0)
    sticker = _on_card("W1", 0.5, len(LEVELS) - 1, 0.85)
    assert _leader(print_dot, sticker) == "W1"
    # Found only at the lowest level, the same sticker loses to the lonelier print.
    faint = _on_card("W1", 0.5, 0, 0.85)
    assert _leader(print_dot, faint) == "N0"


def test_a_crowded_sticker_still_names_its_card_when_nothing_likelier_does() -> None:
    # A like colour round it (a card face of a magenta hue seen under tilt), yet the only
    # sticker on the cards' tops.
    crowded = perceive.WINDOW_ISOLATION_MIN + 0.05
    assert _window(_on_card("E2", 0.5, len(LEVELS) - 1, crowded)) == "E2"
    # Crowded below the window's floor it is not a dot at all: the players are asked.
    assert (
        _window(_on_card("E2", 0.5, len(LEVELS) - 1, perceive.WINDOW_ISOLATION_MIN - 0.05)) is None
    )


def test_a_wide_sticker_overhanging_its_card_outranks_a_speck_of_print_on_the_line() -> None:
    # A 11 mm sticker stuck with its centre 5 mm off the top line (half of it overhangs the
    # edge) still reaches the line; a 6 mm speck of print lies nearer it on another card.
    x, y = BOARD.card_mm("W1")
    sticker = ("W", Dot((x + 5.0, y), math.pi * 5.5**2, 1.1, 0.95, 0))
    x, y = BOARD.card_mm("N0")
    speck = ("N", Dot((x, y + 1.5), math.pi * 2.8**2, 1.1, 0.85, 0))
    assert _leader(sticker, speck) == "W1"
    # A speck as far off as the sticker's centre does not reach the line: the sticker wins
    # even against a lonelier one.
    far_speck = ("N", Dot((x, y + 5.0), math.pi * 2.8**2, 1.1, 1.0, 0))
    assert _leader(sticker, far_speck) == "W1"


def test_a_sticker_set_off_from_its_ring_outranks_a_lonelier_pocket_of_its_colour() -> None:
    # A pocket of a magenta board between a card, a drop and a hand: alone, but barely set
    # off from its ring; the sticker on another card's top, a little crowded, set off fully.
    pocket = _on_card("N2", 2.5, 0, 1.0, perceive.CONTRAST_MIN + 2.0)
    sticker = _on_card("S0", 0.5, 0, 0.8)
    assert _leader(pocket, sticker) == "S0"
    # Were the sticker no more set off than the pocket, the lonelier pocket would win.
    dull = _on_card("S0", 0.5, 0, 0.8, perceive.CONTRAST_MIN + 2.0)
    assert _leader(pocket, dull) == "N2"


def test_a_stickers_core_found_at_a_higher_level_lifts_the_blob_round_it() -> None:
    # A sticker on a card top of a like colour: the blob round it found at the lowest level
    # (crowded), its core at the highest, too crowded to be a dot of its own.
    blob = _on_card("W0", 0.5, 0, perceive.WINDOW_ISOLATION_MIN + 0.05, 20.0, 100.0)
    core = _on_card("W0", 0.8, len(LEVELS) - 1, 0.2, 20.0, 30.0)
    rival = _on_card("W1", 0.5, 0, 0.95, 20.0, 40.0)
    assert _leader(blob, core, rival) == "W0"
    # Without its core the blob is no likelier than the lonelier rival.
    assert _leader(blob, rival) == "W1"


def _cards_plane() -> TopPlane:
    """The north cards' plane as `perceive.rectify` makes it: a board, each card's top a 2 mm
    grey strip 2 mm behind the model's line (a card a little off its line) with its dark face
    below; a magenta disc printed on the board behind N0, hidden by that card up to its top;
    a magenta sticker on N1's top, overhanging it toward the board."""
    lo = (40.0, 13.0)
    w, h = round(220 * PX_PER_MM), round(34 * PX_PER_MM)
    img = np.full((h, w, 3), (120, 100, 80), np.uint8)

    def px(x: float, y: float) -> tuple[int, int]:
        return round((x - lo[0]) * PX_PER_MM), round((y - lo[1]) * PX_PER_MM)

    magenta = (175, 35, 205)
    cv2.circle(img, px(*BOARD.card_mm("N0")[:1], 24.0), round(5 * PX_PER_MM), magenta, -1)
    top = BOARD.card_line_mm["N"] + 2.0
    for spot in ("N0", "N1", "N2"):
        x = BOARD.card_mm(spot)[0]
        cv2.rectangle(img, px(x - 25, top + 1), px(x + 25, 47), (40, 40, 40), -1)
        cv2.rectangle(img, px(x - 25, top - 1), px(x + 25, top + 1), (170, 170, 170), -1)
    cv2.circle(img, px(BOARD.card_mm("N1")[0], top - 2.5), round(4.5 * PX_PER_MM), magenta, -1)
    return TopPlane(img, lo, BOARD.card_height_mm)


def test_a_sticker_covers_its_cards_top_and_print_behind_the_card_does_not() -> None:
    plane = _cards_plane()
    assert abs(perceive.card_top_mm(plane, BOARD, "N1") - (BOARD.card_line_mm["N"] + 2)) <= 0.5
    dots = perceive.window_dots(plane, "N", BOARD)
    cards = ("N0", "N1", "N2")
    by_card = {min(cards, key=lambda c: abs(BOARD.card_mm(c)[0] - d.centre_mm[0])): d for d in dots}
    sticker, printed = by_card["N1"], by_card["N0"]
    assert sticker.on_top >= 0.8
    assert printed.on_top <= 0.2


def test_a_dot_on_its_cards_top_outranks_a_lonelier_disc_beside_it() -> None:
    # A printed disc behind another card, alone and set off fully, against the sticker a
    # little crowded (its reflection beside it): the sticker covers its card's top.
    printed = _on_card("N0", -2.5, len(LEVELS) - 1, 1.0)
    sticker = _on_card("W1", 1.0, len(LEVELS) - 1, 0.85)
    on_top = (sticker[0], replace(sticker[1], on_top=1.0))
    assert _leader(printed, on_top) == "W1"
    # Were the sticker not on its card's top either, the lonelier disc would win.
    assert _leader(printed, sticker) == "N0"


def test_two_card_tops_scoring_within_the_tie_are_asked_and_a_clear_lead_is_named() -> None:
    # A card top painted near magenta: patches of its paint on two card tops, each covering
    # its top, score alike; the fit asks rather than name one of them.
    patch = _on_card("E2", 0.5, 2, 0.93, area_mm2=150.0)
    other = _on_card("E1", 0.5, 2, 0.93, area_mm2=150.0)
    lead = perceive.WINDOW_TIE - 0.05
    patch = (patch[0], replace(patch[1], on_top=1.0))
    other = (other[0], replace(other[1], on_top=1.0 - lead / perceive.WINDOW_TOP_WEIGHT))
    assert _leader(patch, other) == "E2"
    assert _window(patch, other) is None
    # A lead past the tie names the leader.
    far = perceive.WINDOW_TIE + 0.05
    clear = (other[0], replace(other[1], on_top=1.0 - far / perceive.WINDOW_TOP_WEIGHT))
    assert _window(patch, clear) == "E2"
