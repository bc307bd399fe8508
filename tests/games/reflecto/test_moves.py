"""Hand-worked move sets: steps, jump chains, blocked jumps, jump removal, removal order."""

from __future__ import annotations

import random

import pytest

from companion.games.base import IllegalAction
from companion.games.reflecto.position_json import position_from_json
from companion.games.reflecto.rules.actions import Remove, Step
from companion.games.reflecto.rules.engine import (
    RULE_BOARD,
    RULE_FREE,
    RULE_JUMP,
    RULE_JUMP_OFF,
    RULE_MIRROR,
    RULE_ORDER,
    RULE_REACH,
)

from .bruteforce import brute_moves, random_position
from .helpers import ENGINE, letter, mirror, placed


def targets(state, screen: str) -> set:
    return {m.to for m in state.position().moves() if m.screen == screen}


def test_a_lone_screen_steps_in_each_of_eight_directions() -> None:
    state = placed(letter("A0", 0, (3, 3)), letter("B0", 0, (6, 6)))
    assert targets(state, "A0") == {(2, 2), (2, 3), (2, 4), (3, 2), (3, 4), (4, 2), (4, 3), (4, 4)}
    for to in targets(state, "A0"):
        after = ENGINE.apply(state, Step("A0", to))
        assert after.screen("A0").cell == to and after.to_move == 1


def test_a_corner_screen_steps_only_onto_the_board() -> None:
    state = placed(letter("A0", 0, (0, 0)), letter("B0", 0, (6, 6)))
    assert targets(state, "A0") == {(0, 1), (1, 0), (1, 1)}
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, Step("A0", (-1, 0)))
    assert err.value.rule == RULE_BOARD


def test_a_three_jump_chain_may_stop_at_each_landing() -> None:
    # A0 jumps over B1 (opponent), A1 (own) and B2, in a line up the board.
    state = placed(
        letter("A0", 0, (0, 3)),
        mirror("B1", (1, 3)),
        letter("A1", 1, (3, 3)),
        letter("B2", 0, (5, 3)),
    )
    steps = {(0, 2), (0, 4), (1, 2), (1, 4)}
    assert targets(state, "A0") == steps | {(2, 3), (4, 3), (6, 3)}
    for landing in ((2, 3), (4, 3), (6, 3)):
        after = ENGINE.apply(state, Step("A0", landing))
        assert after.screen("A0").cell == landing
        assert {s.cell for s in after.screens} == {landing, (1, 3), (3, 3), (5, 3)}


def test_a_chain_turns_corners_and_never_revisits_a_square() -> None:
    # Over (1,1) to (2,2), then over (2,3) to (2,4): a corner; (0,0) is not landed on again.
    state = placed(letter("A0", 0, (0, 0)), letter("B0", 0, (1, 1)), letter("B1", 1, (2, 3)))
    assert targets(state, "A0") == {(0, 1), (1, 0), (2, 2), (2, 4)}


def test_blocked_jumps_are_refused_naming_the_rule() -> None:
    # Landing square taken; a jump over an empty square; a jump off the side; a step too far.
    state = placed(
        letter("A0", 0, (3, 0)),
        letter("B0", 0, (3, 1)),
        letter("B1", 1, (3, 2)),
        letter("B2", 2, (2, 0)),
    )
    reach = targets(state, "A0")
    assert (3, 2) not in reach and (1, 0) in reach
    assert (4, 0) in reach and (5, 0) not in reach  # nothing to jump over at (4, 0)
    for to, rule in (((3, 2), RULE_FREE), ((5, 0), RULE_JUMP), ((6, 0), RULE_REACH)):
        with pytest.raises(IllegalAction) as err:
            ENGINE.apply(state, Step("A0", to))
        assert err.value.rule == rule, to
    # (1, 0) over (2, 0) is fine, but from (1, 0) nothing lies beyond the edge to land on.
    edge = placed(letter("A0", 0, (1, 1)), letter("B0", 0, (1, 0)), letter("B1", 1, (6, 6)))
    assert (1, -1) not in targets(edge, "A0")


def test_a_jump_from_the_second_to_last_line_removes_the_next_letter() -> None:
    state = placed(
        letter("A0", 0, (5, 3), "P"),
        letter("A1", 1, (6, 2), "I"),
        letter("B0", 0, (6, 3)),
        letter("A2", 2, (0, 0), "A"),
    )
    assert None in targets(state, "A0")
    after = ENGINE.apply(state, Step("A0", None))
    assert after.screen("A0").cell is None and after.removed[0] == ("A0",)
    # A1 now stands on the last line as the next letter: the turn waits for its removal.
    assert after.to_move == 0 and after.moved
    assert after.position().removals() == ["A1"]
    after = ENGINE.apply(after, Remove("A1"))
    assert after.removed[0] == ("A0", "A1") and after.to_move == 1


def test_only_the_next_letter_may_jump_off_and_mirrors_never() -> None:
    state = placed(
        letter("A0", 0, (0, 0)),
        letter("A1", 1, (5, 3)),
        mirror("A5", (5, 1)),
        letter("B0", 0, (6, 3)),
        letter("B1", 1, (6, 1)),
    )
    assert None not in targets(state, "A1") and None not in targets(state, "A5")
    for screen, rule in (("A1", RULE_ORDER), ("A5", RULE_MIRROR)):
        with pytest.raises(IllegalAction) as err:
            ENGINE.apply(state, Step(screen, None))
        assert err.value.rule == rule
    # The next letter, but over nothing on the last line: no jump off.
    lone = placed(letter("A0", 0, (5, 5)), letter("B0", 0, (0, 0)))
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(lone, Step("A0", None))
    assert err.value.rule == RULE_JUMP_OFF


def test_a_diagonal_jump_off_needs_its_landing_column_on_the_board() -> None:
    # Over (6, 0) toward column -1: refused; over (6, 1) toward column 2: allowed.
    corner = placed(letter("A0", 0, (5, 0)), letter("B0", 0, (6, 0)))
    assert None in targets(corner, "A0")  # straight over (6, 0)
    side = placed(letter("A0", 0, (5, 0)), letter("B0", 0, (6, 1)))
    assert None in targets(side, "A0")
    edge = placed(letter("A0", 0, (5, 1)), letter("B0", 0, (6, 0)))
    assert None not in targets(edge, "A0")


def test_an_out_of_order_removal_is_refused_naming_the_rule() -> None:
    state = placed(letter("A0", 0, (4, 4)), letter("A1", 1, (6, 2)), letter("B0", 0, (0, 0)))
    assert state.position().removals() == []
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, Remove("A1"))
    assert err.value.rule == RULE_ORDER
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, Remove("B0"))  # not the mover's screen
    assert "own" in err.value.rule


def test_several_removals_in_one_turn_then_the_move() -> None:
    state = placed(
        letter("A0", 0, (6, 0)),
        letter("A1", 1, (6, 1)),
        letter("A2", 2, (2, 2)),
        letter("B0", 0, (0, 6)),
    )
    state = ENGINE.apply(ENGINE.apply(state, Remove("A0")), Remove("A1"))
    assert state.removed[0] == ("A0", "A1") and state.to_move == 0 and not state.moved
    state = ENGINE.apply(state, Step("A2", (3, 2)))
    assert state.to_move == 1


def test_moves_agree_with_the_brute_force_on_random_positions() -> None:
    rng = random.Random(20261203)
    for _ in range(300):
        data = random_position(rng)
        brute, removals = brute_moves(data)
        position = position_from_json(data)
        mine = {(m.screen, "off" if m.to is None else m.to) for m in position.moves()}
        assert mine == brute, data
        assert position.removals() == removals
