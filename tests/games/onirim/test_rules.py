"""The base game's rules: set-up, the symbol rule, Doors by three, prophecy, Nightmares, the end."""

from __future__ import annotations

import json
import random

import pytest

from companion.games.base import CHANCE, IllegalAction
from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.actions import (
    Discard,
    Draw,
    Nightmare,
    OpenDoor,
    Play,
    Prophecy,
    Reveal,
)

from .helpers import draw, position


def count(state, kind: str) -> int:
    return state.deck[ENGINE.deck.index[kind]]


def test_the_deck_is_the_base_summary() -> None:
    copies = ENGINE.deck.copies
    assert ENGINE.deck.size == 76
    assert sum(n for k, n in copies.items() if k.startswith("red-")) == 16
    assert (copies["red-sun"], copies["blue-sun"], copies["green-sun"], copies["brown-sun"]) == (
        9,
        8,
        7,
        6,
    )
    assert copies["nightmare"] == 10
    assert sum(n for k, n in copies.items() if k.startswith("door-")) == 8


def test_setup_sends_doors_and_nightmares_to_limbo_then_shuffles_them_back() -> None:
    state = ENGINE.new_game(1, {"mirrors": False})
    state = draw(state, "red-sun", "nightmare", "door-blue", "blue-moon", "red-key")
    assert state.phase == "setup" and state.limbo == ("nightmare", "door-blue")
    state = draw(state, "green-sun", "brown-moon")
    assert state.phase == "turn"
    assert state.hand == ("blue-moon", "brown-moon", "green-sun", "red-key", "red-sun")
    assert state.limbo == ()
    assert count(state, "nightmare") == 10 and count(state, "door-blue") == 2
    assert state.deck_size() == 71


def test_symbol_rule() -> None:
    state = position(hand=["red-sun", "blue-sun", "green-moon"], labyrinth=["brown-sun"])
    legal = ENGINE.legal_actions(state)
    assert Play("green-moon") in legal
    assert Play("red-sun") not in legal and Play("blue-sun") not in legal
    with pytest.raises(IllegalAction, match="symbol rule"):
        ENGINE.apply(state, Play("red-sun"))
    assert Discard("red-sun") in legal


def test_three_of_a_colour_fetch_a_door_and_the_series_starts_over() -> None:
    state = position(
        hand=["red-sun", "red-moon", "red-key", "blue-sun", "green-moon"],
        labyrinth=["red-sun", "red-moon"],
        run=2,
        top=["blue-moon"],
    )
    after = ENGINE.apply(state, Play("red-sun"))
    assert after.doors == ("door-red",)
    assert count(after, "door-red") == 1
    assert after.run == 0
    assert after.top == ()  # the deck was searched and shuffled
    assert after.phase == "refill"
    after = draw(after, "green-sun")
    # the fourth red card starts a new series: no Door for it
    after = ENGINE.apply(after, Play("red-moon"))
    assert after.run == 1 and after.doors == ("door-red",)


def test_a_series_without_a_door_left_in_the_deck_earns_nothing() -> None:
    state = position(
        hand=["red-sun"],
        labyrinth=["red-sun", "red-moon"],
        run=2,
        limbo=[],
        doors=["door-red"],
        deck={"door-red": 0, "blue-sun": 5},
    )
    after = ENGINE.apply(state, Play("red-sun"))
    assert after.doors == ("door-red",) and after.run == 0


def test_a_colour_change_breaks_the_series() -> None:
    state = position(hand=["red-moon", "blue-moon"], labyrinth=["red-sun"], run=1)
    assert ENGINE.apply(state, Play("blue-moon")).run == 1
    assert ENGINE.apply(state, Play("red-moon")).run == 2


def test_prophecy_discards_one_and_orders_the_rest() -> None:
    state = position(hand=["blue-key", "red-sun"])
    state = ENGINE.apply(state, Discard("blue-key"))
    assert state.phase == "prophecy-look" and ENGINE.current_player(state) == CHANCE
    shown = ("nightmare", "door-red", "green-sun", "red-moon", "nightmare")
    state = ENGINE.apply(state, Reveal(shown))
    legal = ENGINE.legal_actions(state)
    assert {a.discard for a in legal} == {"nightmare", "green-sun", "red-moon"}  # never a Door
    assert len(legal) == 24 + 12 + 12  # distinct orders of what is left
    with pytest.raises(IllegalAction, match="Door cards are never discarded"):
        ENGINE.apply(
            state, Prophecy("door-red", ("nightmare", "green-sun", "red-moon", "nightmare"))
        )
    with pytest.raises(IllegalAction, match="back on top"):
        ENGINE.apply(state, Prophecy("nightmare", ("door-red", "green-sun", "red-moon")))
    order = ("green-sun", "door-red", "red-moon", "nightmare")
    state = ENGINE.apply(state, Prophecy("nightmare", order))
    assert state.top == order and state.discard[-1] == "nightmare"
    # the next draw must be the known top card
    with pytest.raises(IllegalAction, match="top card"):
        ENGINE.apply(state, Draw("red-sun"))
    assert ENGINE.sample_chance(state, random.Random(0)) == Draw("green-sun")
    state = draw(state, "green-sun")
    assert state.top == order[1:]


def test_a_door_drawn_opens_with_a_key_of_its_colour_or_goes_to_limbo() -> None:
    state = position(hand=["red-key", "blue-sun", "blue-moon", "green-sun"], phase="refill")
    at_door = draw(state, "door-red")
    assert at_door.phase == "door" and ENGINE.legal_actions(at_door) == [
        OpenDoor(True),
        OpenDoor(False),
    ]
    opened = ENGINE.apply(at_door, OpenDoor(True))
    assert opened.doors == ("door-red",) and "red-key" not in opened.hand
    assert opened.discard[-1] == "red-key"
    kept = ENGINE.apply(at_door, OpenDoor(False))
    assert kept.doors == () and kept.limbo == ("door-red",)
    no_key = draw(state, "door-blue")
    assert no_key.phase == "refill" and no_key.limbo == ("door-blue",)


def test_limbo_is_shuffled_back_when_the_hand_is_full() -> None:
    state = position(hand=["red-sun", "blue-sun", "blue-moon"], phase="refill", top=["red-moon"])
    state = draw(state, "red-moon", "door-green")
    assert state.limbo == ("door-green",) and state.phase == "refill"
    before = count(state, "door-green")
    state = draw(state, "green-moon")
    assert state.phase == "turn" and state.limbo == ()
    assert count(state, "door-green") == before + 1


def nightmare_position():
    state = position(
        hand=["red-key", "blue-sun", "green-moon", "brown-sun"],
        doors=["door-blue"],
        phase="refill",
    )
    state = draw(state, "nightmare")
    assert state.phase == "nightmare" and state.pending == "nightmare"
    return state


def test_the_four_ways_to_resolve_a_nightmare() -> None:
    state = nightmare_position()
    assert set(ENGINE.legal_actions(state)) == {
        Nightmare("key", "red-key"),
        Nightmare("door", "door-blue"),
        Nightmare("reveal"),
        Nightmare("hand"),
    }
    key = ENGINE.apply(state, Nightmare("key", "red-key"))
    assert "red-key" not in key.hand and key.discard[-2:] == ("red-key", "nightmare")
    door = ENGINE.apply(state, Nightmare("door", "door-blue"))
    assert door.doors == () and door.limbo == ("door-blue",)
    reveal = ENGINE.apply(state, Nightmare("reveal"))
    assert reveal.phase == "nightmare-look"
    shown = ("red-sun", "door-green", "nightmare", "blue-moon", "brown-key")
    reveal = ENGINE.apply(reveal, Reveal(shown))
    assert reveal.discard[-4:] == ("red-sun", "blue-moon", "brown-key", "nightmare")
    assert reveal.limbo == ("door-green", "nightmare")
    hand = ENGINE.apply(state, Nightmare("hand"))
    assert hand.hand == () and hand.phase == "redraw"
    hand = draw(hand, "red-sun", "nightmare", "door-red", "blue-sun", "blue-sun", "green-key")
    assert hand.phase == "redraw" and hand.limbo == ("nightmare", "door-red")
    hand = draw(hand, "brown-moon")
    assert hand.phase == "turn" and len(hand.hand) == 5 and hand.limbo == ()


def test_a_nightmare_refuses_what_the_hand_and_table_do_not_hold() -> None:
    state = nightmare_position()
    with pytest.raises(IllegalAction, match="Key"):
        ENGINE.apply(state, Nightmare("key", "blue-sun"))
    with pytest.raises(IllegalAction, match="Door in play"):
        ENGINE.apply(state, Nightmare("door", "door-red"))
    with pytest.raises(IllegalAction, match="resolved when it is drawn"):
        ENGINE.apply(position(hand=["red-sun"]), Nightmare("reveal"))


def test_the_game_is_won_with_the_eighth_door_and_lost_on_an_empty_deck() -> None:
    doors = ["door-red", "door-red", "door-blue", "door-blue", "door-green", "door-green"]
    state = position(
        mirrors=False,
        hand=["brown-key", "blue-sun", "blue-moon", "green-sun", "red-sun"],
        labyrinth=["brown-sun", "brown-moon"],
        run=2,
        doors=[*doors, "door-brown"],
        deck={"door-brown": 1, "red-moon": 3},
    )
    won = ENGINE.apply(state, Play("brown-key"))
    assert won.outcome == "won" and ENGINE.is_terminal(won) and ENGINE.scores(won) == [1.0]
    assert ENGINE.current_player(won) is None and ENGINE.legal_actions(won) == []
    empty = position(mirrors=False, hand=["red-sun", "blue-moon"], deck={})
    lost = ENGINE.apply(empty, Discard("red-sun"))
    assert lost.outcome == "lost" and ENGINE.scores(lost) == [0.0]
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.apply(lost, Play("blue-moon"))


def test_options_and_player_count() -> None:
    with pytest.raises(ValueError, match="Glyphs"):
        ENGINE.new_game(1, {"glyphs": True})
    with pytest.raises(ValueError, match="solo"):
        ENGINE.new_game(2)
    with pytest.raises(ValueError, match="unknown option"):
        ENGINE.new_game(1, {"rainbow": True})
    with pytest.raises(ValueError, match="needs the Mirrors"):
        ENGINE.new_game(1, {"mirrors": False, "hard": True})
    assert ENGINE.new_game(1).in_game == ("sun", "moon", "key", "red", "blue", "green", "brown")
    assert "rainbow" in ENGINE.new_game(1, {"hard": True}).in_game
    assert ENGINE.new_game(1, {"mirrors": False}).in_game == ()


def test_the_players_view_counts_the_deck_and_knows_its_shown_top() -> None:
    state = position(
        hand=["red-sun", "blue-sun"], deck={"nightmare": 2, "blue-moon": 4, "green-sun": 2}
    )
    mine = ENGINE.view(state, 0)
    assert mine["deck_by_kind"] == {"nightmare": 2, "blue-moon": 4, "green-sun": 2}
    assert mine["next_is_nightmare"] == 0.25
    shown = position(
        hand=["red-sun", "blue-sun"],
        deck={"nightmare": 2, "blue-moon": 4, "green-sun": 2},
        top=["blue-moon"],
    )
    assert ENGINE.view(shown, 0)["next_is_nightmare"] == 0.0
    assert ENGINE.view(shown, 0)["deck_top"] == ["blue-moon"]
    table = ENGINE.view(shown, None)
    assert table["deck_size"] == 8 and table["deck_top"] is None and table["hand"] is None
    assert table["deck_by_kind"] is None and table["next_is_nightmare"] is None
    assert "blue-moon" not in json.dumps({k: v for k, v in table.items() if k != "discard"})
