"""The four actions and their Mini-actions, with the rulebook's worked examples.

The boards' values are placeholders (models/queen-alice/actions.toml); the examples are
played on spaces shaped like the rulebook's, so what is checked is the rule, not a number
of our own box.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.queen_alice.rules import ENGINE as E
from companion.games.queen_alice.rules import QueenAliceEngine
from companion.games.queen_alice.rules.actions import Acquire, Act, Buy, Pass, Take
from companion.games.queen_alice.rules.economy import FREE, Pay
from companion.games.queen_alice.rules.rewards import needs_choice
from companion.games.queen_alice.rules.state import State, Task, Turn
from tests.games.queen_alice.helpers import COMP, finish_choices, started


def acting(colour: str, column: str, **me: object) -> State:
    """Seat 0 about to perform `column` with a piece of `colour`."""
    state = replace(started(2), phase="act", turn=Turn(colour=colour, column=column))
    return state.with_me(**me)


# -- Hearts ----------------------------------------------------------------------------------


def test_hearts_carmen_moves_the_gardener_pays_two_cakes_and_plants() -> None:
    # Carmen pays 1 Tea to move the Gardener, 2 Cakes for a Red Rose bush, gains a Silver
    # card (revealed on her board) and covers a Yellow Flower.
    state = acting("red", "hearts", cake=2, tea=1, hearts=(2, 0))
    state = replace(state, gardeners=(0, -1))
    assert COMP.hearts["red"][2].cost == 2 and COMP.hearts["red"][2].reward.card == "silver"
    assert COMP.garden["red"][1][2].flower == "yellow"
    state = E.apply(state, Act("hearts", (1, 2), Pay(cake=2, tea=1)))
    assert (state.people[0].cake, state.people[0].tea) == (0, 0) and state.gardeners == (1, -1)
    assert state.garden[0][1][2]
    assert state.people[0].hearts == (3, 0) and state.people[0].bushes == (1, 0)
    silver = [a for a in E.legal_actions(state) if isinstance(a, Acquire)]
    assert silver and {a.level for a in silver} == {1}
    card = state.market[1][0]
    state = E.apply(state, next(a for a in silver if a.block == 0))  # the free block
    assert card in state.people[0].hand and state.people[0].flowers == ("yellow",)


def test_hearts_gardener_from_rest_is_free_and_the_third_bush_moves_alice() -> None:
    state = acting("red", "hearts", cake=1, bushes=(2, 0))
    far = [a for a in E.legal_actions(state) if isinstance(a, Act) and a.target[0] == 3]
    assert far and all(a.pay.tea == 0 for a in far)  # from rest: any zone, no Tea
    state = finish_choices(E.apply(state, Act("hearts", (3, 0), Pay(cake=1))))
    assert state.people[0].bushes == (3, 0) and state.alice == (1, 0)


def test_hearts_gardener_rests_when_its_zone_is_full() -> None:
    state = acting("white", "hearts", toast=1)
    full = (True, True, False)
    state = replace(
        state,
        gardeners=(-1, 2),
        garden=(state.garden[0], (*state.garden[1][:2], full, state.garden[1][3])),
    )
    state = finish_choices(E.apply(state, Act("hearts", (2, 2), Pay(toast=1))))
    assert state.gardeners == (-1, -1)


def test_hearts_mini_removes_the_lowest_heart_for_its_reward_only() -> None:
    state = replace(started(2), phase="act", pending=(Task("mini"),))
    state = E.apply(state, Act("hearts", (1,), FREE))
    assert state.people[0].hearts == (0, 1) and state.people[0].bushes == (0, 0)
    assert state.people[0].ip == COMP.hearts["white"][0].reward.ip
    assert not any(any(z) for z in state.garden[1])


# -- Spades ----------------------------------------------------------------------------------


def test_spades_carmen_as_the_example_pays_three_resources_for_three_spaces() -> None:
    # The example: 1 Toast, 1 Tea and 3 Time (a virtual Toast) move the White March Hare 3
    # spaces, to a space of 2 Cat Pawprints and a Silver Card; first across the Seal: 6 IP.
    # That is 3 resources, where the list says "2 resources + 1 Time": with the example's
    # numbers in actions.toml the engine follows the example.
    example = QueenAliceEngine(
        components=replace(COMP, messenger_cost=(1, 2, 3), messenger_time=(0, 0, 0))
    )
    state = acting("white", "spades", toast=1, tea=1, time=3)
    state = example.apply(state, Act("spades", (1, 2, 3), Pay(toast=1, tea=1, time=1)))
    assert state.people[0].messengers == (0, 3) and state.people[0].cats == (0, 2)
    cats = COMP.cats["white"][:2]  # the two pawprints' Cat spaces pay too
    assert state.people[0].time == sum(r.time for r in cats)  # all 3 Time were paid
    assert state.people[0].ip == 6 + sum(r.ip for r in cats)
    assert state.pending[0] == Task("cardreward", "white", "silver")
    assert (1, 2) in state.seals


def test_spades_three_spaces_cost_two_resources_and_one_time_by_default() -> None:
    state = acting("red", "spades", cake=1, tea=1, time=1)
    threes = [a for a in E.legal_actions(state) if isinstance(a, Act) and len(a.target) == 3]
    assert threes and all(a.pay.units() == 2 for a in threes)
    state = finish_choices(E.apply(state, threes[0]))
    assert state.people[0].time == sum(r.time for r in COMP.cats["red"][:2])  # 1 Time paid


def test_spades_later_players_get_the_small_seal_reward() -> None:
    state = acting("red", "spades", cake=2)
    state = replace(state, seals=((0, 2),))
    state = E.apply(state, Act("spades", (1, 2), Pay(cake=2)))
    assert state.people[0].ip == COMP.messengers[2].seal_small.ip


def test_spades_central_zone_and_bifurcation_then_the_path_end_crown() -> None:
    state = acting("red", "spades", cake=2, messengers=(4, 0))
    state = E.apply(state, Act("spades", (6, 7), Pay(cake=2)))
    assert state.alice == (1, 0)  # crossing into the central zone
    assert state.pending[0].kind == "mini"  # the bifurcation's free Mini-action
    state = finish_choices(state)
    end = acting("red", "spades", cake=1, messengers=(8, 0))
    crowns = end.crowns_left
    end = finish_choices(E.apply(end, Act("spades", (9,), Pay(cake=1))))
    assert end.people[0].crowns == (1, 0) and end.crowns_left == crowns - 1
    assert not [a for a in E.legal_actions(end) if isinstance(a, Act)]  # no Repeat: path done


def test_spades_mini_moves_any_messenger_one_space_free() -> None:
    state = replace(started(2), phase="act", pending=(Task("mini"),))
    steps = {
        a.target for a in E.legal_actions(state) if isinstance(a, Act) and a.action == "spades"
    }
    assert steps == {(0, 1), (1, 1)}
    state = E.apply(state, Act("spades", (1, 1), FREE))
    assert state.people[0].messengers == (0, 1)
    assert state.people[0].time == COMP.messengers[1].reward.time


# -- Clubs -----------------------------------------------------------------------------------


def test_clubs_camila_climbs_for_three_toasts_and_buys_a_mini_bookmark() -> None:
    # Camila moves the White Twin for 3 Toasts, crosses into height 3 (Alice Progress),
    # takes a physical White Book and a printed Green Book, and with a White Book she had
    # buys a Mini-action Bookmark.
    state = acting("white", "clubs", toast=3, twins=(0, 3), books=(1, 0, 0))
    state = E.apply(state, Act("clubs", (6,), Pay(toast=3)))
    assert state.people[0].twins == (0, 6) and state.alice == (0, 1)
    assert state.people[0].books == (2, 1, 0) and not state.tree_books[1][6]
    assert Buy("mini") in E.legal_actions(state)
    state = E.apply(state, Buy("mini"))
    assert state.people[0].books == (0, 0, 0) and state.people[0].bookmarks == ("mini",)
    assert state.pending[0].kind == "mini"


def test_clubs_without_the_book_gives_the_covered_reward() -> None:
    state = acting("white", "clubs", toast=3, twins=(0, 3))
    state = replace(
        state, tree_books=(state.tree_books[0], (*state.tree_books[1][:6], False, True))
    )
    state = finish_choices(E.apply(state, Act("clubs", (6,), Pay(toast=3))))
    assert state.people[0].books == (0, 1, 0)
    assert state.people[0].ip == COMP.tree[6].covered.ip + COMP.alice["white"][1].ip


def test_clubs_mini_uses_black_arrows_only_and_the_top_gives_a_crown() -> None:
    state = replace(started(2), phase="act", pending=(Task("mini"),))
    clubs = {a.target for a in E.legal_actions(state) if isinstance(a, Act) and a.action == "clubs"}
    assert clubs == {(0, 1), (1, 1)}  # arrow 1 (0 -> 2) is the only black one from the start
    top = acting("red", "clubs", tea=1, twins=(6, 0))
    top = finish_choices(E.apply(top, Act("clubs", (9,), Pay(tea=1))))
    assert top.people[0].crowns == (1, 0)


# -- Diamonds --------------------------------------------------------------------------------


def test_diamonds_kortes_completes_the_first_row() -> None:
    # Kortes pays 1 Cake and 1 Tea for a first-row red space, reveals 1 Cat Pawprint on
    # her board, covers 2 on the Wall, completes the row: 4 IP and the Egg half moves up.
    state = acting("red", "diamonds", cake=1, tea=1)
    built = (False, True, True, True)
    state = replace(state, wall=((built, *state.wall[0][1:]), state.wall[1]))
    state = E.apply(state, Act("diamonds", (0, 0), Pay(cake=1, tea=1)))
    state = finish_choices(state)
    assert state.people[0].cats == (3, 0) and state.eggs == (1, 0)
    cat_ip = sum(r.ip for r in COMP.cats["red"][:3])
    # The rulebook's example leaves out the Same-Level Bonus: the Egg starts on row 0 here.
    assert state.people[0].ip == COMP.row_complete_ip + COMP.same_level_ip + cat_ip
    assert state.people[0].diamonds == ((0,), ()) and state.people[0].bricks == (1, 0)


def test_diamonds_go_on_the_lowest_free_space_of_a_column() -> None:
    state = acting("red", "diamonds", cake=2, tea=1)
    state = replace(state, wall=(((True, True, False, False), *state.wall[0][1:]), state.wall[1]))
    column_1 = [a for a in E.legal_actions(state) if isinstance(a, Act) and a.target[0] == 1]
    assert column_1 and all(a.pay.units() == COMP.wall_row_cost[1] for a in column_1)
    state = finish_choices(E.apply(state, column_1[0]))
    assert state.wall[0][1][1] and not state.wall[0][2][1]
    pawprints = COMP.wall["red"][1][1].pawprint + COMP.diamonds["red"][0].pawprint
    assert state.people[0].cats == (pawprints, 0)  # no Same-Level Bonus: the Egg is on row 0
    assert state.people[0].ip == sum(r.ip for r in COMP.cats["red"][:pawprints])


def test_diamond_milestones_follow_the_reading() -> None:
    for reading, alice in (("as_hearts", 1), ("none", 0)):
        state = E.new_game(2, {"blank_diamond_milestones": reading})
        state = replace(
            started(2),
            readings=state.readings,
            phase="act",
            turn=Turn(colour="red", column="diamonds"),
        )
        state = state.with_me(cake=1, bricks=(2, 0), diamonds=((1, 2), ()))
        state = finish_choices(E.apply(state, Act("diamonds", (1, 0), Pay(cake=1))))
        assert state.people[0].bricks == (3, 0) and state.alice[0] == alice


def test_diamonds_mini_removes_any_diamond_for_its_reward() -> None:
    state = replace(started(2), phase="act", pending=(Task("mini"),))
    state = E.apply(state, Act("diamonds", (1, 4), FREE))
    assert state.people[0].diamonds == ((), (4,))
    assert state.people[0].ip == COMP.diamonds["white"][4].ip
    assert not any(any(row) for row in state.wall[1])


def test_every_reward_choice_can_be_declined_or_made() -> None:
    state = replace(started(2), phase="act", pending=(Task("resource"),))
    assert E.legal_actions(state) == [Take("cake"), Take("tea"), Take("toast")]
    state = replace(started(2), phase="act", pending=(Task("cull"),))
    assert needs_choice(state) and Pass() in E.legal_actions(state)


def test_hearts_two_tea_reach_every_gardener_space() -> None:
    # "move the matching-Colour Gardener one matching-Colour space left or right for 1 Tea
    # per move (you can pay 2 to access all spots)": 4 spaces in a ring, so from the first
    # the last is one move, the third two, and none costs 3.
    assert len(COMP.garden["red"]) == 4 and COMP.gardener_ring
    state = replace(acting("red", "hearts", cake=1, tea=3), gardeners=(0, -1))
    tea = {
        a.target[0]: a.pay.tea
        for a in E.legal_actions(state)
        if isinstance(a, Act) and a.pay.time == a.pay.black == 0
    }
    assert tea == {0: 0, 1: 1, 2: 2, 3: 1}
    line = QueenAliceEngine(components=replace(COMP, gardener_ring=False))
    tea = {
        a.target[0]: a.pay.tea
        for a in line.legal_actions(state)
        if isinstance(a, Act) and a.pay.time == a.pay.black == 0
    }
    assert tea == {0: 0, 1: 1, 2: 2, 3: 3}
