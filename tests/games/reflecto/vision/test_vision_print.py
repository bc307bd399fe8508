"""A board printed in a player's colour is not a board full of that player's screens.

The reader tells a screen's top from the print by what lies beside it across the row: a
raised top's colour stops at its edge, the print's goes on (`read.print_share`).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import companion.games.reflecto.vision.read as read
from companion.games.reflecto.vision.geometry import load_geometry
from companion.games.reflecto.vision.reading import BoardReading, ScreenSeen
from companion.games.reflecto.vision.render import (
    BOARD_RIM_MM,
    CANVAS_PX_PER_MM,
    Colour,
    board_canvas,
    board_corners_mm,
    random_colours,
    shoot,
    start_position,
)
from companion.sim import effects
from companion.sim.camera import VirtualCamera
from companion.sim.conditions import Conditions

GEOM = load_geometry()
W, H = GEOM.size_mm
POSITION = BoardReading(
    tuple(
        ScreenSeen(c, o)
        for c, o in {
            (0, 2): 0,
            (2, 3): 0,
            (3, 5): 0,
            (6, 0): 0,
            (1, 4): 1,
            (4, 1): 1,
            (6, 6): 1,
        }.items()
    )
)


def _shade(colour: Colour, value: float) -> Colour:
    """The same hue and saturation at `value` times the brightness."""
    hsv = cv2.cvtColor(np.array([[colour]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0].astype(float)
    hsv[2] = min(255.0, hsv[2] * value)
    b, g, r = cv2.cvtColor(np.array([[hsv]], np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
    return int(b), int(g), int(r)


def printed_canvas(
    rng: np.random.Generator, colour: Colour, value: float, checks: float | None
) -> np.ndarray:
    """A board's art drawn from `rng` with its playing area printed in `colour`'s hue at
    `value` times its brightness, and every other square at `checks` times it when given:
    print a screen of that colour could stand on."""
    canvas = board_canvas(GEOM, rng)
    origin = float(board_corners_mm(GEOM)[0, 0])
    (gx0, gy0), (gx1, gy1) = GEOM.grid_box_mm
    px = [round((v - origin) * CANVAS_PX_PER_MM) for v in (gx0, gy0, gx1, gy1)]
    canvas[px[1] : px[3], px[0] : px[2]] = _shade(colour, value)
    if checks is not None:
        sq = GEOM.square_mm * CANVAS_PX_PER_MM
        for r, c in GEOM.cells:
            if (r + c) % 2:
                x, y = (
                    round((v - origin) * CANVAS_PX_PER_MM - sq / 2) for v in GEOM.cell_mm((r, c))
                )
                canvas[y : y + round(sq), x : x + round(sq)] = _shade(colour, checks)
    return canvas


def _printed_table(
    cam: VirtualCamera, seed: int, value: float, checks: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Set-up and POSITION on a board whose playing area is printed in seat 0's hue at
    `value` times its plastic's brightness (or in checks of that and a lighter shade)."""
    rng = np.random.default_rng(seed)
    colours = random_colours(rng)
    canvas = printed_canvas(rng, colours[0], value, 1.4 * value if checks else None)
    table = effects.table_texture(cam.width, cam.height, rng)
    base = cam.render_plane(
        canvas, CANVAS_PX_PER_MM, (-BOARD_RIM_MM, -BOARD_RIM_MM), background=table
    )
    still = Conditions(glare=False)

    def photo(position: BoardReading, shot: int) -> np.ndarray:
        return shoot(
            base,
            GEOM,
            position,
            colours,
            cam,
            np.random.default_rng([seed, shot]),
            hands=0,
            conditions=still,
        )

    return photo(start_position(GEOM), 0), photo(POSITION, 1)


@pytest.mark.parametrize(
    ("tilt", "yaw", "value", "checks"),
    [(0.0, 0.0, 0.55, False), (20.0, 130.0, 0.55, False), (15.0, 40.0, 0.5, True)],
)
def test_a_board_printed_in_a_seats_hue_shows_no_phantom_screens(
    tilt: float, yaw: float, value: float, checks: bool
) -> None:
    cam = VirtualCamera.looking_at((W / 2, H / 2), 520, tilt_deg=tilt, yaw_deg=yaw)
    setup, image = _printed_table(cam, 17, value, checks)
    rect = read.rectify(setup, GEOM)
    assert rect is not None
    colours = read.learn_at_setup(rect, GEOM)
    got, _ = read.read_board(image, GEOM, colours)
    truth = dict(POSITION.layout_key())
    assert [s.cell for s in got.screens if truth.get(s.cell) != s.owner] == []  # no phantom
    assert got.layout_key() == POSITION.layout_key(), got.to_json()


def test_the_print_test_of_many_squares_at_once_answers_each_as_alone() -> None:
    """`print_shares` looks at every square asked in one pass over a stack of windows: one
    square's colours beside must not count for another's strip, and a window past the
    picture's edge must see nothing there."""
    cam = VirtualCamera.looking_at((W / 2, H / 2), 520, tilt_deg=20.0, yaw_deg=130.0)
    setup, image = _printed_table(cam, 17, 0.5, True)
    rect_setup = read.rectify(setup, GEOM)
    rect = read.rectify(image, GEOM)
    assert rect_setup is not None and rect is not None
    colours = read.learn_at_setup(rect_setup, GEOM)
    ev = read.evidence(rect, GEOM, colours, (read.FLOOR, read.FAINT_FLOOR))
    asks = [(cell, seat) for cell in GEOM.cells for seat in (0, 1)]
    together = read.print_shares(rect, GEOM, ev, asks, 1)
    alone = [read.print_share(rect, GEOM, ev, cell, seat, 1) for cell, seat in asks]
    assert together == alone
    boards = [p.board for p in together if p.board is not None]
    # The print in seat 0's hue is found beside some strips, and nothing beside others.
    assert max(boards) >= read.PRINT_ASK and min(boards) == 0.0
