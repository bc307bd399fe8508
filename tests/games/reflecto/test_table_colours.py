"""The live table teaches its perceiver the seats' colours from the board its engine knows:
screens a frame alone cannot tell from the board (dull plastic) are found once both set-ups
are in, and a frame that is not the start position teaches nothing."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from companion.games.reflecto.table.live import ReflectoTable
from companion.games.reflecto.table.messages import EnterSetup
from companion.games.reflecto.vision.geometry import load_geometry
from companion.games.reflecto.vision.perceive import COLOURS_FILE
from companion.games.reflecto.vision.read import read_board
from companion.games.reflecto.vision.reading import BoardReading, ScreenSeen
from companion.games.reflecto.vision.render import (
    Conditions,
    board_picture,
    shoot,
    start_position,
)
from companion.live.conformance import Correct, play
from companion.sim.camera import VirtualCamera
from companion.store import Session

GEOM = load_geometry()
DULL = ((168, 153, 124), (125, 135, 178))
"""Two plastics 30 % saturated (HSV), a blue and a red: a player tells them apart, but no
square of them is coloured strongly enough for a picture alone to learn them from."""


@pytest.fixture(scope="module")
def table_photo() -> tuple[VirtualCamera, np.ndarray]:
    w, h = GEOM.size_mm
    cam = VirtualCamera.looking_at((w / 2, h / 2), 520, tilt_deg=8, yaw_deg=-20)
    return cam, board_picture(GEOM, cam, np.random.default_rng(1))


def _photo(table: tuple[VirtualCamera, np.ndarray], position: BoardReading) -> np.ndarray:
    cam, base = table
    rng = np.random.default_rng(0)
    return shoot(base, GEOM, position, DULL, cam, rng, hands=0, conditions=Conditions(glare=False))


def _set_up(tmp_path: Path) -> ReflectoTable:
    settings = SimpleNamespace(data_dir=tmp_path)
    made: list[ReflectoTable] = []

    def table(settings: object, session: Session) -> ReflectoTable:
        made.append(ReflectoTable(settings, session))
        return made[-1]

    setups = [
        Correct(EnterSetup(word="PIANO", columns=[1, 3, 5, 2, 4], mirrors=[0, 6]), 0),
        Correct(EnterSetup(word="LEMON", columns=[2, 3, 4, 5, 6], mirrors=[0, 1]), 1),
    ]
    play(table, settings, Session("s", "reflecto", {}, ["Ann", "Bob"], 0.0), setups)
    return made[0]


def test_dull_screens_are_found_once_the_set_ups_say_where_they_stand(
    tmp_path: Path, table_photo: tuple[VirtualCamera, np.ndarray]
) -> None:
    image = _photo(table_photo, start_position(GEOM))
    alone, _ = read_board(image, GEOM, None)
    assert alone.screens == ()  # the picture alone finds no colour to read by
    game = _set_up(tmp_path)
    seen = game.perceive(SimpleNamespace(image=image), SimpleNamespace())
    got = {(s.cell, s.owner) for s in seen.data.screens}
    assert got == set(start_position(GEOM).layout_key())
    assert (tmp_path / COLOURS_FILE).exists() and game.board_to_learn() is None


def test_a_frame_that_is_not_the_start_position_teaches_no_colours(
    tmp_path: Path, table_photo: tuple[VirtualCamera, np.ndarray]
) -> None:
    """A screen moved before the set-ups were in: the colours learned from the engine's
    board read a screen where the engine has none, so they are not kept."""
    moved = tuple(
        ScreenSeen((2, 3), 0) if s.cell == (0, 3) else s for s in start_position(GEOM).screens
    )
    game = _set_up(tmp_path)
    game.perceive(SimpleNamespace(image=_photo(table_photo, BoardReading(moved))), object())
    assert not (tmp_path / COLOURS_FILE).exists() and game.board_to_learn() is not None
