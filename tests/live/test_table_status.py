"""The status bar and the overlay's line come from one frame's registration (issue 30)."""

from __future__ import annotations

import numpy as np

from companion.camera.base import Frame
from companion.live.loop import Runtime
from companion.live.table_status import TableStatus
from companion.vision.markers import marker_image
from companion.vision.registration import TableRegistrar
from tests.live.example_game import make_table_game

SIDE = 40
"""Markers drawn at 1 px per mm of the default table (600 x 450 mm between centres, 40 mm)."""


def table_image(ids: list[int], hide: tuple[int, ...] = ()) -> np.ndarray:
    """A white table with markers `ids` at its corners (TL, TR, BR, BL), some hidden."""
    img = np.full((560, 720, 3), 255, np.uint8)
    centres = [(60, 55), (660, 55), (660, 505), (60, 505)]
    for mid, (cx, cy) in zip(ids, centres, strict=True):
        if mid not in hide:
            x, y = cx - SIDE // 2, cy - SIDE // 2
            img[y : y + SIDE, x : x + SIDE] = marker_image(mid, SIDE)[..., None]
    return img


def runtime(settings, factory=make_table_game) -> Runtime:
    rt = Runtime(settings, table_game_factory=factory)
    return rt.use_registrar(TableRegistrar(settings.table))  # as start() does, no camera


def frame(image: np.ndarray, index: int) -> Frame:
    return Frame(image=image, timestamp=float(index), index=index)


def test_health_describes_the_very_frame_published(settings):
    rt = runtime(settings)
    assert rt.health()["table"]["summary"] == "0/4 (no table)"
    rt.process(frame(table_image([0, 1, 2, 3]), 0))
    table = rt.health()["table"]
    assert table["frame"] == rt.frames.get()[0] == 1
    assert (table["markers_seen"], table["summary"]) == ([0, 1, 2, 3], "4/4")
    rt.process(frame(table_image([0, 1, 2, 3], hide=(1, 2, 3)), 1))
    table = rt.health()["table"]
    assert table["frame"] == rt.frames.get()[0] == 2
    assert (table["markers_seen"], table["held"], table["summary"]) == ([0], True, "1/4 (held)")


def test_a_game_located_by_its_own_markers_counts_those(settings):
    class BoxGame:
        """The example game, on a box with its own corner markers 10-13."""

        table_markers = (10, 11, 12, 13)

        def __init__(self, inner):
            self._inner = inner

        def __getattr__(self, name):
            return getattr(self._inner, name)

    rt = runtime(settings, lambda s, session: BoxGame(make_table_game(s, session)))
    rt.process(frame(table_image([10, 11, 12, 13]), 0))
    table = rt.health()["table"]
    # Before, the bar counted the table's corner markers only: "0/4 (no table)" over a box
    # the game had found.
    assert (table["markers_seen"], table["registered"], table["summary"]) == (
        [10, 11, 12, 13],
        True,
        "4/4",
    )
    rt.process(frame(table_image([10, 11, 12, 13], hide=(11, 12)), 1))
    assert rt.health()["table"]["summary"] == "2/4 (no table)"


def test_summary_words():
    assert TableStatus(3, (0, 1, 2, 3), 4, True, False).summary() == "4/4"
    assert TableStatus(3, (0, 2), 4, True, True).summary() == "2/4 (held)"
    assert TableStatus(3, (2,), 4, False, False).summary() == "1/4 (no table)"
