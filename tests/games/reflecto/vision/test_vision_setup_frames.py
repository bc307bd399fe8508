"""Learning the seats' colours at set-up on a board whose rim is printed: the set-up's frames
are all "hands" until the rim's print is known, and by then a screen may have moved."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from companion.games.reflecto.vision.geometry import load_geometry
from companion.games.reflecto.vision.perceive import (
    COLOURS_FILE,
    RIM_PRINT_FRAMES,
    RimMemory,
    SetupFrames,
    perceive_frame,
)
from companion.games.reflecto.vision.read import rectify
from companion.games.reflecto.vision.reading import BoardReading, ScreenSeen
from companion.games.reflecto.vision.render import start_position
from companion.sim.camera import VirtualCamera
from tests.games.reflecto.vision.photos import table_shot
from tests.games.reflecto.vision.test_vision_rim import _printed

GEOM = load_geometry()
W, H = GEOM.size_mm
CAM = VirtualCamera.looking_at((W / 2, H / 2), 540, tilt_deg=12, yaw_deg=15)
START = start_position(GEOM)
MOVED = BoardReading(
    tuple(ScreenSeen((1, 3) if s.cell == (0, 3) else s.cell, s.owner) for s in START.screens)
)
"""The start position with one screen stepped forward: the first move."""


class Teacher:
    """The live table's side: the start position, until the colours are learned."""

    def __init__(self) -> None:
        self.learned: list[Any] = []

    def board_to_learn(self) -> Any:
        return None if self.learned else START.layout_key()

    def colours_learned(self, colours: Any) -> None:
        self.learned.append(colours)


def _frames() -> list[np.ndarray]:
    """A short set-up rest (as many frames as the rim takes to learn), then the first move
    at rest: every frame with the rim printed."""
    rect = rectify(table_shot(GEOM, CAM, START, 0, 5), GEOM)
    assert rect is not None
    rest = [table_shot(GEOM, CAM, START, 0, 5, 10 + k) for k in range(RIM_PRINT_FRAMES)]
    moved = [table_shot(GEOM, CAM, MOVED, 0, 5, 20 + k) for k in range(2)]
    return [_printed(image, rect.pose) for image in rest + moved]


def _play(tmp_path: Path, early: SetupFrames | None) -> tuple[Teacher, list[Any]]:
    teacher, rim = Teacher(), RimMemory()
    settings = SimpleNamespace(data_dir=tmp_path)
    seen = [
        perceive_frame(
            SimpleNamespace(image=image),
            SimpleNamespace(),
            settings,
            None,
            None,
            teacher,
            rim,
            early,
        )
        for image in _frames()
    ]
    return teacher, seen


def test_set_up_frames_called_hands_for_the_rim_teach_the_colours_once_it_is_known(
    tmp_path: Path,
) -> None:
    teacher, seen = _play(tmp_path, SetupFrames())
    assert [o.data["hands"] for o in seen] == [True] * RIM_PRINT_FRAMES + [False, False]
    assert len(teacher.learned) == 1
    saved = json.loads((tmp_path / COLOURS_FILE).read_text())
    assert saved["learned_from"] == "set-up"
    for observation in seen[RIM_PRINT_FRAMES:]:
        got = {(tuple(s["cell"]), s["owner"]) for s in observation.data["screens"]}
        assert got == set(MOVED.layout_key())


def test_without_them_the_moved_board_refuses_the_start_positions_colours(
    tmp_path: Path,
) -> None:
    # What the set-up frames mend: the first frame without hands shows a screen where the
    # start position has none, so colours learned from the start position are refused.
    teacher, _ = _play(tmp_path, None)
    assert teacher.learned == []


def test_frames_kept_are_let_go_once_a_frame_without_hands_teaches_the_colours(
    tmp_path: Path,
) -> None:
    # One set-up frame called hands for the rim, then one whose rim shows no print: the
    # colours come from the second, and the first is not judged again later (it would
    # replace them).
    rect = rectify(table_shot(GEOM, CAM, START, 0, 5), GEOM)
    assert rect is not None
    frames = [_printed(table_shot(GEOM, CAM, START, 0, 5, 30), rect.pose)]
    frames.append(table_shot(GEOM, CAM, START, 0, 5, 31))
    teacher, rim, early = Teacher(), RimMemory(), SetupFrames()
    settings = SimpleNamespace(data_dir=tmp_path)
    seen: list[Any] = []
    for image in frames:
        frame = SimpleNamespace(image=image)
        args = (settings, None, None, teacher, rim, early)
        seen.append(perceive_frame(frame, SimpleNamespace(), *args))
        if len(seen) == 1:
            assert seen[0].data["hands"] and len(early.frames) == 1
    assert not seen[1].data["hands"]
    assert len(teacher.learned) == 1 and early.frames == []
