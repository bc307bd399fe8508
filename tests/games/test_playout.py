"""Playing a game out through its engine, and the Wilson interval every simulator reports."""

from __future__ import annotations

import random

import pytest

from companion.games.base import CHANCE, IllegalAction, require
from companion.games.looking_glass.rules.engine import ENGINE
from companion.games.playout import play_out, wilson


def test_wilson_matches_the_textbook_values():
    lo, hi = wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    assert wilson(0, 10)[0] == 0.0 and round(wilson(0, 10)[1], 4) == 0.2775
    assert wilson(0, 0) == (0.0, 1.0)


def test_play_out_draws_chance_from_the_engine_and_asks_each_seat():
    chances, asked = [], []

    def choose(state, seat):
        assert ENGINE.current_player(state) == seat != CHANCE
        asked.append(seat)
        return random.Random(len(asked)).choice(ENGINE.legal_actions(state))

    end = play_out(
        ENGINE, ENGINE.new_game(2, {"target": 1}), choose, random.Random(3), chances.append
    )
    assert ENGINE.is_terminal(end)
    assert chances and set(asked) == {0, 1}


def test_require_names_the_rule_it_enforces():
    require(True, "never raised")
    with pytest.raises(IllegalAction) as info:
        require(False, "one move a turn", "seat 1 moved twice")
    assert info.value.rule == "one move a turn" and str(info.value) == (
        "one move a turn: seat 1 moved twice"
    )
