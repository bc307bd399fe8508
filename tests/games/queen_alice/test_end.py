"""Alice's Paths, Crowns, the end trigger finishing the round, the final scoring."""

from __future__ import annotations

import random
from dataclasses import replace

from companion.games.base import CHANCE
from companion.games.queen_alice.rules import ENGINE as E
from companion.games.queen_alice.rules import track
from companion.games.queen_alice.rules.actions import Pass, PlayNone
from companion.games.queen_alice.rules.state import State, Turn
from tests.games.queen_alice.helpers import COMP, finish_choices, started

RED = COMP.alice["red"]
WISHES = [i for i, s in enumerate(RED) if s.wish]
THRONE = len(RED) - 1


def test_alice_progress_skips_crowned_spaces_and_scores_the_space() -> None:
    state = replace(started(2), crowned=((1, 2), ()))
    after = track.progress(state, COMP, "red")
    assert after.alice == (3, 0) and after.me.ip == RED[3].ip


def test_a_wish_space_removes_a_crown_and_everyone_scores_it_at_rest() -> None:
    state = replace(started(2), alice=(WISHES[0] - 1, 0))
    state = state.with_player(
        1,
        replace(
            state.people[1],
            bushes=(2, 1),
            messenger_steps=4,
            books=(1, 1, 0),
            bricks=(3, 0),
            flowers=("pink",),
        ),
    )
    after = track.progress(state, COMP, "red")
    assert after.crowns_left == state.crowns_left - 1 and after.turn.wishes == (0,)
    tile = COMP.wishes[after.wishes[0]]
    rested = E._end_turn(after, COMP)
    assert rested.people[1].ip == tile.standard * E.measure(after, after.people[1], tile.counts)
    assert rested.seat == 1 and rested.turn == Turn()


def test_the_first_alice_on_the_throne_crowns_her_colour_the_other_never_gets_there() -> None:
    state = replace(started(2), alice=(THRONE - 1, THRONE - 1))
    red = track.progress(state, COMP, "red")
    assert red.throne == "red" and red.alice == (THRONE, THRONE - 1)
    assert red.crowns_left == state.crowns_left - 1
    white = track.progress(red, COMP, "white")
    assert white.alice == red.alice and white.crowns_left == red.crowns_left - 1
    assert white.me.ip == red.me.ip + COMP.after_throne_ip
    again = track.progress(white, COMP, "red")  # past the Throne: 5 IP and a Crown
    assert again.me.ip == white.me.ip + COMP.after_throne_ip


def test_a_crown_goes_ahead_of_alice_on_a_non_wish_space_for_double_points() -> None:
    state = replace(started(2), alice=(WISHES[0] - 1, 0))
    after = track.gain_crown(state, COMP, "red")
    spot = WISHES[0] + 1  # the Wish space is skipped
    assert after.crowned == ((spot,), ()) and after.me.crowns == (1, 0)
    assert after.me.ip == COMP.crown_multiplier * RED[spot].ip
    assert track.progress(after, COMP, "red").alice[0] == WISHES[0]


def test_absence_bonus_with_no_space_or_no_crown() -> None:
    full = replace(started(2), alice=(THRONE - 1, 0))
    after = track.gain_crown(full, COMP, "red")
    assert after.me.ip == COMP.absence_ip and after.me.crowns == (0, 0)
    assert after.crowns_left == full.crowns_left - 1  # still removed from the game
    none_left = replace(started(2), crowns_left=0)
    after = track.gain_crown(none_left, COMP, "white")
    assert after.me.ip == COMP.absence_ip and after.crowns_left == 0


def _pass_turn(state: State, rng: random.Random) -> State:
    """Seat to move plays a card with nothing to activate, declines, and rests."""
    state = finish_choices(E.apply(state, E.legal_actions(state)[0]))  # discard
    state = replace(state, pieces=())
    state = E.apply(state, PlayNone(state.me.hand[0]))
    state = E.apply(state, Pass())
    while E.current_player(state) == CHANCE:
        state = E.apply(state, E.sample_chance(state, rng))
    return state


def test_the_last_crown_finishes_the_round_then_the_game_ends() -> None:
    rng = random.Random(3)
    state = replace(started(3), crowns_left=0, ending=True)  # removed in seat 0's turn
    state = _pass_turn(state, rng)
    assert state.seat == 1 and not E.is_terminal(state)
    state = _pass_turn(state, rng)
    assert state.seat == 2 and not E.is_terminal(state)
    state = _pass_turn(state, rng)
    assert E.is_terminal(state) and E.current_player(state) is None
    assert E.legal_actions(state) == []


def test_removing_the_last_crown_sets_the_end() -> None:
    state = replace(started(2), crowns_left=1)
    after = track.gain_crown(state, COMP, "red")
    assert after.crowns_left == 0 and after.ending


def test_final_scores_are_the_calculators() -> None:
    state = replace(started(2), alice=(3, 1), phase="over", crowns_left=0)
    state = state.with_player(0, replace(state.people[0], ip=20, crowns=(2, 1), cats=(6, 3)))
    state = state.with_player(1, replace(state.people[1], ip=30, crowns=(0, 1), culled=("gold-0",)))
    final = E.final(state)
    assert final.crowned == "red"
    assert final.players[0].coronation == 2 * 8 and final.players[1].coronation == 0
    assert final.players[1].guests == COMP.cards["gold-0"].invite
    assert E.scores(state) == [float(p.total) for p in final.players]
    tie = replace(state, alice=(2, 2))
    assert E.final(tie).players[0].coronation == 3 * 8
    throne = E.final(
        replace(
            state,
            alice=(1, 3),
            throne="red",
            readings=E.new_game(2, {"coronation": "throne_first"}).readings,
        )
    )
    assert throne.crowned == "red"
