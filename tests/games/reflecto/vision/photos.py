"""Photographs of one Reflecto table for the vision tests: the board art and the screens'
colours drawn from a seed, each shot its own noise, glare off (what a test asks of the
reader is then the screens and the hands, not a lamp's reflection)."""

from __future__ import annotations

import numpy as np

from companion.games.reflecto.vision.geometry import BoardGeometry
from companion.games.reflecto.vision.reading import BoardReading
from companion.games.reflecto.vision.render import (
    Conditions,
    board_picture,
    random_colours,
    shoot,
)
from companion.sim.camera import VirtualCamera


def table_shot(
    geom: BoardGeometry,
    cam: VirtualCamera,
    position: BoardReading,
    hands: int,
    seed: int,
    shot: int = 0,
) -> np.ndarray:
    """Photograph `shot` of one table (board art and colours drawn from `seed`)."""
    rng = np.random.default_rng(seed)
    colours = random_colours(rng)
    base = board_picture(geom, cam, rng)
    return shoot(
        base,
        geom,
        position,
        colours,
        cam,
        np.random.default_rng([seed, shot]),
        hands=hands,
        conditions=Conditions(glare=False),
    )
