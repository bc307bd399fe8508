"""The economy: the Clock, 3 Time for a resource, cubes and the Silver Platter, Black cubes,
the culling limits, the market's prices."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.base import CHANCE, IllegalAction
from companion.games.queen_alice.rules import ENGINE as E
from companion.games.queen_alice.rules.actions import Acquire, Cull, Discard, Pass, Reveal, Take
from companion.games.queen_alice.rules.economy import ANY, Cost, Pay, gain_time, pay, payments
from companion.games.queen_alice.rules.rewards import settle
from companion.games.queen_alice.rules.state import Player, Task
from tests.games.queen_alice.helpers import COMP, started


def test_time_beyond_ten_is_influence() -> None:
    p = gain_time(Player(time=9, ip=4), 3, COMP)
    assert (p.time, p.ip) == (10, 6)


def test_three_time_pays_any_one_resource_and_never_less() -> None:
    cost = Cost((ANY,))
    assert payments(Player(time=3), cost, COMP) == [Pay(time=1)]
    assert payments(Player(time=2), cost, COMP) == []
    assert Pay(time=2) in payments(Player(time=7), Cost((ANY, ANY)), COMP)
    with pytest.raises(IllegalAction, match="payment"):
        pay(Player(time=2), cost, Pay(time=1), COMP)


def test_a_red_cost_takes_cake_or_tea_not_toast() -> None:
    red = Cost((frozenset({"cake", "tea"}),))
    assert payments(Player(toast=2, cubes=3), red, COMP) == []
    assert set(payments(Player(cake=1, tea=1, cubes=3), red, COMP)) == {Pay(cake=1), Pay(tea=1)}


def test_black_cubes_pay_only_when_empty_and_go_back_to_the_stock() -> None:
    full = Player(cubes=3, black=1, cake=2, tea=2)  # the Black cube holds a resource
    assert all(p.black == 0 for p in payments(full, Cost((ANY,)), COMP))
    spare = Player(cubes=3, black=1, cake=1)
    assert Pay(black=1) in payments(spare, Cost((ANY,)), COMP)
    after = pay(spare, Cost((ANY,)), Pay(black=1), COMP)
    assert (after.black, after.black_stock, after.cake) == (0, 1, 1)


def test_a_full_storage_asks_which_cube_to_reassign() -> None:
    state = started(2)
    state = replace(state, phase="act", pending=(Task("store", arg="toast"),))
    state = state.with_me(cake=2, tea=1)
    assert E.legal_actions(state) == [Take("cake"), Take("tea"), Pass()]
    moved = E.apply(state, Take("cake"))
    assert (moved.me.cake, moved.me.tea, moved.me.toast) == (1, 1, 1)
    kept = E.apply(state, Pass())
    assert (kept.me.cake, kept.me.tea, kept.me.toast) == (2, 1, 0)


def test_gaining_a_black_cube_unlocks_storage() -> None:
    state = replace(started(2), phase="act", pending=(Task("black"), Task("store", arg="tea")))
    state = state.with_me(cake=3)  # every coloured cube holds a resource
    after = settle(state, COMP)
    assert not after.pending
    assert after.me.black == 1 and after.me.black_stock == 4 and after.me.tea == 1


def test_culling_limits() -> None:
    state = replace(started(2), phase="act", pending=(Task("cull"),))
    assert Cull(state.me.hand[0], "hand") in E.legal_actions(state)
    low = state.with_me(deck=(), discard=("basic-1",))  # 3 in hand + 1: still allowed
    assert E.legal_actions(low) != [Pass()]
    three = state.with_me(deck=(), discard=())  # 3 cards left: none may go
    assert E.legal_actions(three) == [Pass()]
    last = state.with_me(hand=("basic-0",), discard=("basic-1", "basic-2", "basic-3"))
    assert all(a.pile == "discard" for a in E.legal_actions(last) if isinstance(a, Cull))
    culled = E.apply(last, Cull("basic-1", "discard"))
    assert culled.me.culled == ("basic-1",) and "basic-1" not in culled.me.discard


def test_market_prices_camila_takes_the_middle_silver_for_one_time() -> None:
    state = replace(started(2), phase="act", pending=(Task("card", arg="silver"),))
    state = state.with_me(time=1, cake=1)
    offers = E.legal_actions(state)
    assert Acquire(1, 0, Pay()) in offers and Acquire(1, 1, Pay()) in offers
    assert Acquire(1, 2, Pay(cake=1)) in offers  # the deck's top: 1 resource
    card = state.market[1][1]
    after = E.apply(state, Acquire(1, 1, Pay()))
    assert after.me.time == 0 and card in after.me.hand and after.market[1][1] is None
    poor = state.with_me(time=0, cake=0)
    assert E.legal_actions(poor) == [Acquire(1, 0, Pay()), Pass()]


def test_rest_slides_the_market_left_and_chance_refills_the_right() -> None:
    state = replace(started(2), phase="act", pending=(Task("card", arg="gold"),))
    second, top = state.market[2][1], state.market[2][2]
    state = E.apply(state, Acquire(2, 0, Pay()))
    state = E.apply(state, Pass())  # not performing the action: 2 Time, Rest
    assert state.phase == "trim" and len(state.me.hand) == 4  # down to hand size first
    state = E.apply(state, Discard(state.me.hand[0]))
    assert state.market[2][:2] == (second, top) and state.market[2][2] is None
    assert E.current_player(state) == CHANCE
    new = state.market_decks[2][0]
    state = E.apply(state, Reveal(2, new))
    assert state.market[2] == (second, top, new) and E.current_player(state) == 1
