"""The tracker: only stable, complete readings become events; swaps are counted fewest-first."""

from __future__ import annotations

import numpy as np

from companion.games.mirror_mansion.rules.actions import Roll, Setup, SwapWindow
from companion.games.mirror_mansion.rules.engine import ENGINE, RULE_IN_LINE, RULE_MAX_SWAPS
from companion.games.mirror_mansion.rules.optics import Mirror
from companion.games.mirror_mansion.table.track import StableBox, judge_swaps, swaps_between
from companion.games.mirror_mansion.vision.perceive import read_box
from companion.games.mirror_mansion.vision.render import Film, turn_shots
from companion.games.mirror_mansion.vision.scene import BoxState, MirrorSeen, random_box
from tests.games.mirror_mansion_table.helpers import BOARD, START


def _with(box: BoxState, *changes: tuple[tuple[int, int], MirrorSeen | None]) -> BoxState:
    mirrors = {m.cell: m for m in box.mirrors}
    for cell, new in changes:
        mirrors.pop(cell)
        if new is not None:
            mirrors[new.cell] = new
    return BoxState(tuple(mirrors.values()), box.window, box.door)


def test_a_reading_becomes_stable_only_after_enough_frames_and_time() -> None:
    tracker = StableBox(BOARD, frames=3, seconds=0.5)
    assert tracker.update(START, 0.0) is None
    assert tracker.update(START, 0.25) is None
    assert tracker.update(START, 0.5) == START
    assert tracker.update(START, 0.75) is None  # unchanged: no second event


def test_a_lifted_mirror_or_a_hidden_dot_is_no_event() -> None:
    tracker = StableBox(BOARD, frames=3, seconds=0.5)
    for t in (0.0, 0.25, 0.5):
        tracker.update(START, t)
    lifted = BoxState(START.mirrors[1:], START.window)
    hidden = _with(START, ((1, 1), MirrorSeen((1, 1), "\\", None, 0.2)))
    no_window = BoxState(START.mirrors, None)
    t = 0.75
    for reading in (lifted, lifted, hidden, hidden, hidden, no_window, START, START, START):
        assert tracker.update(reading, t) is None
        t += 0.25
    assert tracker.stable == START


def test_a_flicker_shorter_than_the_window_is_no_event() -> None:
    tracker = StableBox(BOARD, frames=3, seconds=0.5)
    for t in (0.0, 0.25, 0.5):
        tracker.update(START, t)
    turned = _with(START, ((0, 0), MirrorSeen((0, 0), "/", "SE")))
    assert tracker.update(turned, 0.75) is None
    assert tracker.update(turned, 1.0) is None
    assert tracker.update(START, 1.25) is None
    assert tracker.stable == START


def test_swaps_are_the_fewest_moves_between_two_states() -> None:
    turned = _with(START, ((0, 0), MirrorSeen((0, 0), "/", "SE")))
    moved = _with(turned, ((2, 1), MirrorSeen((1, 0), "\\", "SW")))
    swaps = swaps_between(START, moved)
    assert len(swaps) == 2
    assert {(s.source, s.target) for s in swaps} == {((0, 0), (0, 0)), ((2, 1), (1, 0))}
    assert swaps_between(START, START) == []
    # Two mirrors trading places with the same slots and facings is no swap at all.
    a = MirrorSeen((0, 0), "/", "NW")
    b = MirrorSeen((2, 2), "/", "NW")
    left = BoxState((a, START.mirrors[1], START.mirrors[2]), "W1")
    right = BoxState((b, START.mirrors[1], START.mirrors[2]), "W1")
    assert len(swaps_between(left, right)) == 1


def _engine_at_swaps(start: BoxState, window: str):
    cards = [*BOARD.cards]
    others = [p for p in BOARD.positions if p != start.window]
    layout = {**dict(zip(others, cards, strict=True)), start.window: BOARD.window_card}
    state = ENGINE.new_game(3)
    mirrors = tuple(sorted(Mirror(m.cell, m.slot, m.facing) for m in start.mirrors))
    state = ENGINE.apply(state, Setup(tuple(sorted(layout.items())), mirrors, 0))
    state = ENGINE.apply(state, SwapWindow(window))
    return ENGINE.apply(state, Roll(1))  # field 1 thinks of a motif: straight to the swaps


def test_the_engine_judges_the_swaps() -> None:
    at = BoxState(START.mirrors, "W0")
    state = _engine_at_swaps(START, "W0")
    ok = _with(at, ((0, 0), MirrorSeen((0, 0), "/", "SE")))
    verdict = judge_swaps(ENGINE, state, at, ok)
    assert verdict.breach is None and len(verdict.swaps) == 1
    # Four mirrors changed: the fourth swap is refused by the rule of three.
    four = BoxState(
        tuple(
            MirrorSeen(m.cell, m.slot, {"NW": "SE", "SE": "NW", "NE": "SW", "SW": "NE"}[m.facing])
            for m in at.mirrors
        ),
        "W0",
    )
    verdict = judge_swaps(ENGINE, state, at, four)
    assert verdict.breach is not None and verdict.breach.rule == RULE_MAX_SWAPS
    # Nothing left in line with W0 (row 0): the in-line rule.
    away = _with(
        at, ((0, 0), MirrorSeen((1, 0), "/", "NW")), ((0, 2), MirrorSeen((2, 0), "\\", "SW"))
    )
    verdict = judge_swaps(ENGINE, state, at, away)
    assert verdict.breach is not None and verdict.breach.rule == RULE_IN_LINE


def test_a_filmed_turn_with_hands_and_blur_gives_the_right_verdict_and_no_false_event() -> None:
    rng = np.random.default_rng([77, 3])
    start = random_box(BOARD, rng, door=False)
    shots, at_swaps, end = turn_shots(BOARD, start, rng, 2)
    film = Film(BOARD, shots, (77, 3, 1))
    tracker = StableBox(BOARD, door_expected=False)
    physical = {s.box.layout_key() for s in shots}
    emitted = []
    fps = 4.0
    for k in range(int(film.duration * fps)):
        image, _ = film.frame(k / fps)
        new = tracker.update(read_box(image, BOARD), k / fps)
        if new is not None:
            emitted.append(new)
    assert emitted, "the tracker never settled"
    assert all(e.layout_key() in physical for e in emitted)
    assert emitted[0].layout_key() == start.layout_key()
    assert tracker.stable is not None and tracker.stable.layout_key() == end.layout_key()
    first = next(e for e in emitted if e.window == at_swaps.window)
    assert swaps_between(first, tracker.stable) == swaps_between(at_swaps, end)
