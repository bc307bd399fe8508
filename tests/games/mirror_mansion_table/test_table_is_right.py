"""Drift between the table and the engine (issue 31, item 3): found once, mended by the
admin's "the table is right", which takes the camera's steady reading as the board."""

from __future__ import annotations

from typing import Any

import pytest

from companion.errors import UserError
from companion.games.base import IllegalAction
from companion.games.mirror_mansion.rules.optics import trace
from companion.games.mirror_mansion.table.live import make_table_game
from companion.games.mirror_mansion.table.messages import (
    BoxObservation,
    CallGuesses,
    EnterCards,
    EnterRoll,
    TableIsRight,
    TakeLook,
)
from companion.games.mirror_mansion.vision.scene import BoxState, MirrorSeen
from companion.live.conformance import Correct, Observe, check_table_game, play
from companion.live.table_game import TABLE_RIGHT_KIND, Observation
from companion.store import Session
from tests.games.mirror_mansion_table.helpers import BOARD, START

CARDS = dict(zip([p for p in BOARD.positions if p != "W1"], BOARD.cards, strict=True))
RIGHT = Correct(TableIsRight())
FLIP = {"NW": "SE", "SE": "NW", "NE": "SW", "SW": "NE"}


def _session() -> Session:
    return Session("s1", "mirror-mansion", {}, ["Ann", "Bob", "Cy"], 0.0)


def _seen(box: BoxState, n: int = 7) -> list[Observe]:
    return [Observe(Observation(BoxObservation(box=box), 0.9))] * n


def _turned(box: BoxState, *cells: tuple[int, int]) -> BoxState:
    """`box` with the mirrors in `cells` turned to face the other way."""
    return BoxState(
        tuple(
            MirrorSeen(m.cell, m.slot, FLIP[m.facing] if m.cell in cells else m.facing)
            for m in box.mirrors
        ),
        box.window,
        box.door,
    )


W0 = BoxState(START.mirrors, "W0")
ONE_SWAP = _turned(W0, (0, 0))
TO_SWAPS: list[Any] = [
    Correct(EnterCards(cards=CARDS)),
    *_seen(START),
    *_seen(W0),
    Correct(EnterRoll(value=1), 0),
]


def test_mirrors_moved_after_the_call_are_one_breach_until_the_table_is_declared_right() -> None:
    nudged = _turned(ONE_SWAP, (2, 1))
    nudged_more = _turned(nudged, (1, 1))
    steps = [
        *TO_SWAPS,
        *_seen(ONE_SWAP),
        Correct(CallGuesses(), 0),
        *_seen(nudged),
        *_seen(nudged_more),
    ]
    game, events = play(make_table_game, None, _session(), steps)
    breaches = [e.payload for e in events if e.kind == "mm.breach"]
    assert len(breaches) == 1 and "stay put" in breaches[0]["rule"]  # two readings, one breach
    view = game.view(None)
    assert view["phase"] == "look" and view["table_differs"] and view["breaches"]
    with pytest.raises(UserError, match="admin"):
        game.correct(TableIsRight(), 1)  # a seat link cannot
    steps += [RIGHT, Correct(TakeLook(), 0)]
    events = check_table_game(make_table_game, None, _session(), steps)
    [right] = [e for e in events if e.kind == TABLE_RIGHT_KIND]
    assert right.payload["seen"]["mirrors"] == nudged_more.to_json()["mirrors"]
    game, _ = play(make_table_game, None, _session(), steps[:-1])
    view = game.view(None)
    assert not view["table_differs"] and view["breaches"] == []
    board = {(m.cell, m.slot, m.facing) for m in game.state.board.mirrors}
    assert board == {(m.cell, m.slot, m.facing) for m in nudged_more.mirrors}
    # The look is computed from the table's arrangement now.
    expected = trace(game.state.board, BOARD)
    game, _ = play(make_table_game, None, _session(), steps)
    assert game.looks[-1]["seen"] == expected.seen


def test_a_drift_that_refused_the_call_for_ever_is_mended() -> None:
    """The engine's board no longer matches the box (a misread believed earlier): every
    mirror looks swapped, four swaps, so "make your guesses" was refused again and again."""
    drifted = _turned(W0, (0, 0), (0, 2), (1, 1), (2, 1))
    steps = [*TO_SWAPS, *_seen(drifted)]
    game, events = play(make_table_game, None, _session(), steps)
    assert [e.payload["rule"] for e in events if e.kind == "mm.breach"] == [
        "at most three swaps per turn"
    ]
    with pytest.raises(IllegalAction):
        game.correct(CallGuesses(), 0)
    steps += [RIGHT]
    game, _ = play(make_table_game, None, _session(), steps)
    assert game.view(None)["swaps"] is None and game.view(None)["breaches"] == []
    with pytest.raises(IllegalAction, match="swap at least once"):
        game.correct(CallGuesses(), 0)  # counted from the table now: nothing swapped
    steps += [*_seen(_turned(drifted, (0, 0))), Correct(CallGuesses(), 0)]
    game, events = play(make_table_game, None, _session(), steps)
    assert game.view(None)["phase"] == "look"
    swaps = [e for e in events if e.kind == "mm.action" and e.payload["action"]["type"] == "swap"]
    assert len(swaps) == 1


def test_the_table_is_right_needs_a_set_up_game_and_a_steady_whole_reading() -> None:
    game, _ = play(make_table_game, None, _session(), _seen(START))
    with pytest.raises(UserError, match="set-up"):
        game.correct(TableIsRight(), None)
    three = BoxState(START.mirrors[:3], "W1")
    game, _ = play(
        make_table_game,
        None,
        _session(),
        [Correct(EnterCards(cards=CARDS)), *_seen(START), *_seen(three)],
    )
    assert game.view(None)["phase"] == "window"
    game.seen = three  # a reading the tracker never believed (a mirror lifted)
    with pytest.raises(UserError, match="steady reading"):
        game.correct(TableIsRight(), None)
