"""The hint engine: exact values checked against brute force through the engine itself."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from math import comb

import numpy as np
import pytest

from companion.games.base import CHANCE
from companion.games.looking_glass.hint import hand_options, hint
from companion.games.looking_glass.rules.deck import load_deck
from companion.games.looking_glass.rules.engine import ENGINE
from companion.games.looking_glass.simulate import simulate
from companion.games.looking_glass.solver import build, root_values, tables
from tests.games.looking_glass.helpers import dealt, reshuffle_secrets


def advance(seed: int, picks: int, brawlers: bool = False):
    rng = random.Random(seed)
    state = dealt(seed, brawlers)
    for _ in range(picks):
        state = ENGINE.apply(state, rng.choice(ENGINE.legal_actions(state)))
    return state


def brute_force(state) -> int:
    """Minimax value (seat 0's side) by playing every line through the engine."""
    if ENGINE.current_player(state) in (CHANCE, None):
        res = state.results[-1]
        a, b = abs(res.totals[0]), abs(res.totals[1])
        return 2 * (a - b) + (1 if res.winner == 0 else -1)
    values = [brute_force(ENGINE.apply(state, a)) for a in ENGINE.legal_actions(state)]
    return max(values) if ENGINE.current_player(state) == 0 else min(values)


@pytest.mark.parametrize(
    ("seed", "brawlers"),
    [(1, False), (2, True), (3, False), (8, True), (13, True), (21, True), (34, True)],
)
def test_solver_matches_brute_force_with_known_hands(seed: int, brawlers: bool) -> None:
    state = advance(seed, picks=10, brawlers=brawlers)
    r = state.round
    lay = ENGINE.layout(r.layout)
    t = tables(load_deck())
    idx = {c: i for i, c in enumerate(t.ids)}
    cards = tuple(
        tuple(-1 if (r.taken >> c) & 1 else idx[r.cards[h][c]] for c in range(14)) for h in (0, 1)
    )
    g = build(lay, cards, ENGINE.current_player(state), r.taken)
    held = [Counter(r.piles[s]) + Counter(r.hands[s]) for s in (0, 1)]
    h = [np.array([[held[s].get(c, 0) for c in t.ids]]) for s in (0, 1)]
    moves, values = root_values(g, h[0], h[1], r.starter, t)
    got = {int(m): int(v[0]) for m, v in zip(moves, values, strict=True)}
    for action in ENGINE.legal_actions(state):
        half, cell = lay.locate(action.position)
        move = cell * 2 + half if cell * 2 + half in got else cell * 2
        assert got[move] == brute_force(ENGINE.apply(state, action)), action


def test_hint_uses_only_what_the_seat_knows() -> None:
    state = advance(4, picks=6)
    seat = ENGINE.current_player(state)
    h = hint(state, seat)
    other = reshuffle_secrets(state, (1 - seat,), random.Random(0))
    assert other.round.hands[1 - seat] != state.round.hands[1 - seat]
    assert hint(other, seat) == h
    legal = {a.position for a in ENGINE.legal_actions(state)}
    assert {p.position for p in h.picks} == legal
    assert h.best == h.picks[0].position
    assert h.picks[0].margin == max(p.margin for p in h.picks)
    assert h.exact


def test_exact_hint_averages_brute_force_over_every_other_hand() -> None:
    state = advance(5, picks=11)
    seat = ENGINE.current_player(state)
    h = hint(state, seat)
    assert h.exact
    r = state.round
    pool = ENGINE.deck.copies(False) - Counter(r.cards[0] + r.cards[1]) - Counter(r.hands[seat])
    options = hand_options(pool, 4)
    assert sum(w for _, w in options) == comb(sum(pool.values()), 4)
    expected = {}
    for action in ENGINE.legal_actions(state):
        total = 0.0
        for hand, w in options:
            hands = list(r.hands)
            hands[1 - seat] = tuple(sorted(hand.elements()))
            world = replace(state, round=replace(r, hands=tuple(hands)))
            v = brute_force(ENGINE.apply(world, action))
            total += w * (v if seat == 0 else -v) / 2
        expected[action.position] = total / sum(w for _, w in options)
    for p in h.picks:
        assert p.margin == pytest.approx(expected[p.position])


def test_hint_works_when_the_table_deal_has_no_hands() -> None:
    """A camera-recorded deal without hands: the hint guesses both hands."""
    state = dealt(6)
    r = state.round
    lay = ENGINE.layout(r.layout)
    glass = {lay.name_of(h, c): r.cards[h][c] for h in (0, 1) for c in range(14)}
    blind = replace(state, round=replace(r, hands=None, removed=None))
    assert ENGINE.view(blind, 0)["round"]["glass"] == glass
    h = hint(blind, ENGINE.current_player(blind), samples=8)
    assert not h.exact and h.determinizations == 8
    assert {p.position for p in h.picks} == {a.position for a in ENGINE.legal_actions(blind)}


def test_hint_players_beat_random_players() -> None:
    summary = simulate(16, ("hint", "random"), seed=3).to_json()
    assert summary["win_rate"]["wins"] >= 12
