"""The `sim` film is a game played through the rules engine (issues 30 and 31): legal by
construction, whole turns to the verdict, and what the camera can count is what was played.

Before, the film moved pieces at random: with seed 0 its third turn left no mirror in line
with the window, and 11 of 25 seeds made a turn the rules refuse by the third turn.
"""

from __future__ import annotations

import pytest

from companion.games.mirror_mansion.rules.actions import Award, EndSwaps, Look, Roll, Setup, Swap
from companion.games.mirror_mansion.rules.engine import MirrorMansionEngine
from companion.games.mirror_mansion.table.messages import (
    CallGuesses,
    EnterCards,
    EnterGuess,
    EnterRoll,
    TakeLook,
    parse,
)
from companion.games.mirror_mansion.table.track import swaps_between
from companion.games.mirror_mansion.vision.film_script import box_of, script_game
from companion.games.mirror_mansion.vision.render import table_film
from tests.games.mirror_mansion_table.helpers import BOARD

SEEDS = range(25)


def _config(seed: int) -> tuple[int, dict]:
    """Two, three and four players; every third game with the door."""
    return 2 + seed % 3, ({"door": True} if seed % 3 == 1 else {})


@pytest.mark.parametrize("seed", SEEDS)
def test_every_film_turn_is_legal_and_played_to_the_verdict(seed: int) -> None:
    players, options = _config(seed)
    script = script_game(BOARD, seed, players=players, options=options, turns=6)
    engine = MirrorMansionEngine(BOARD)
    state = engine.new_game(players, options)
    for action in script.actions:  # a fresh engine accepts the whole log: no refusal
        state = engine.apply(state, action)
    assert state == script.state
    assert isinstance(script.actions[0], Setup) and script.actions[0].victor == 0
    kinds = [type(a) for a in script.actions]
    assert kinds.count(Roll) == kinds.count(EndSwaps) == kinds.count(Look) == len(script.turns)
    assert kinds.count(Award) == len(script.turns)
    assert len(script.turns) == 6 or engine.is_terminal(state)
    for record in script.turns:
        # The camera counts the fewest moves between the stable boxes: exactly these swaps.
        assert 1 <= len(record.swaps) <= BOARD.max_swaps
        counted = swaps_between(record.at_swaps, record.after_swaps)
        assert len(counted) == len(record.swaps)
    assert script.beats[-1].box == box_of(state.board) and script.beats[-1].rest


def test_the_players_tap_what_a_phone_would_in_time_order() -> None:
    script = script_game(BOARD, 0, players=3, turns=4)
    times = [tap.t for tap in script.taps]
    assert times == sorted(times) and times[-1] < script.duration
    assert parse(script.taps[0].payload) == EnterCards(cards=script.cards)
    kinds = [type(parse(tap.payload)) for tap in script.taps]  # each is a correction
    rolls = [tap for tap, k in zip(script.taps, kinds, strict=True) if k is EnterRoll]
    assert [tap.seat for tap in rolls] == [r.seat for r in script.turns]
    assert kinds.count(CallGuesses) == kinds.count(TakeLook) == 4
    guesses = [tap for tap, k in zip(script.taps, kinds, strict=True) if k is EnterGuess]
    # Round one has no guesses; the fourth turn is seat 0's again: seats 1 and 2 guess.
    assert [tap.seat for tap in guesses] == [1, 2]


def test_table_film_plays_the_script_and_holds_the_last_shot() -> None:
    film = table_film(BOARD, 3, turns=2, size=(320, 240))
    assert film.script is not None and film.taps == tuple(film.script.taps)
    assert not film.loop and film.shot_at(film.duration + 100.0) is film.shots[-1]
    setup = film.script.actions[0]
    assert isinstance(setup, Setup)
    window = next(p for p, c in setup.cards if c == BOARD.window_card)
    first = film.shots[0].box
    assert first.window == window and {(m.cell, m.slot, m.facing) for m in first.mirrors} == {
        (m.cell, m.slot, m.facing) for m in setup.mirrors
    }
    image, truth = film.frame(1.0)
    assert image.shape[:2] == (240, 320) and truth["t"] == 1.0
    assert any(isinstance(a, Swap) for a in film.script.actions)
