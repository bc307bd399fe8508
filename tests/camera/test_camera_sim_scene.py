"""The demo table the `sim` camera shows: reproducible, moving cards, hands that hide markers."""

from __future__ import annotations

import numpy as np
import pytest

from companion.config import TableSettings
from companion.sim.demo_table import HAND_PERIOD_S, SLIDE_PERIOD_S, DemoTableScene
from companion.vision.markers import detect_markers
from companion.vision.registration import TableRegistrar


@pytest.fixture(scope="module")
def scene():
    return DemoTableScene(TableSettings(), seed=4)


def test_same_time_same_picture(scene):
    a, ta = scene.frame(3.2)
    b, tb = scene.frame(3.2)
    assert np.array_equal(a, b) and ta == tb
    assert a.shape == (960, 1280, 3) and a.dtype == np.uint8


def test_cards_slide_and_never_rest_on_each_other(scene):
    before = {c["colour"]: c["center_mm"] for c in scene.frame(0.0)[1]["cards"]}
    after = {c["colour"]: c["center_mm"] for c in scene.frame(SLIDE_PERIOD_S)[1]["cards"]}
    assert all(before[k] != after[k] for k in before)  # every card moved on by one period
    for t in np.arange(0.0, 2 * SLIDE_PERIOD_S, 0.5):
        resting = [c["center_mm"] for c in scene.frame(float(t))[1]["cards"] if not c["moving"]]
        for i, p in enumerate(resting):
            for q in resting[i + 1 :]:
                assert np.hypot(p[0] - q[0], p[1] - q[1]) > 63  # wider than a card


def test_hands_hide_markers_and_the_truth_says_which(scene):
    """Over four hand passes: one over a marker (3 left: follow), one over two (hold)."""
    registrar = TableRegistrar(scene.table)
    registrar.register(scene.frame(0.0)[0])
    covered_counts = set()
    visible = HAND_PERIOD_S - 1.5  # the middle of each pass, hand at full reach
    for n in range(4):
        image, truth = scene.frame(n * HAND_PERIOD_S + visible)
        assert truth["hand"]
        seen = set(detect_markers(image))
        assert not seen & set(truth["covered_markers"])  # covered really means hidden
        reg = registrar.register(image)
        assert reg.held == (len(seen & {0, 1, 2, 3}) < 3)
        covered_counts.add(len(truth["covered_markers"]))
    assert {1, 2} <= covered_counts
    assert not scene.frame(1.0)[1]["hand"]


def test_sim_pace_plays_the_film_faster_on_the_platform_clock():
    """`camera.sim_pace` 2: frame i shows the film at 2 i / fps; the scene is not told."""
    from companion.camera import open_source
    from companion.config import CameraSettings

    asked: list[float] = []

    class Film:
        def frame(self, t: float):
            asked.append(t)
            return np.zeros((4, 4, 3), np.uint8), {"t": t}

    for pace, want in ((1.0, [0.0, 0.1, 0.2]), (2.0, [0.0, 0.2, 0.4])):
        asked.clear()
        source = open_source("sim", CameraSettings(fps=10, sim_pace=pace), scene_factory=Film)
        source.open()
        truths = [source.read().truth for _ in range(3)]
        source.close()
        assert asked == pytest.approx(want) and [t["t"] for t in truths] == asked
