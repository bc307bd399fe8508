"""The Mirrors promo: the pair action, exploring, each Mirror's effect, the extra victory."""

from __future__ import annotations

import pytest

from companion.games.base import IllegalAction
from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.actions import Pair, Pick, Play, action_from_json

from .helpers import draw, position

ALL_DOORS = [f"door-{c}" for c in ("red", "blue", "green", "brown") for _ in (0, 1)]


def count(state, kind: str) -> int:
    return state.deck[ENGINE.deck.index[kind]]


def mirror(state, name: str) -> tuple[bool, tuple[str, ...]]:
    i = state.in_game.index(name)
    return state.explored[i], state.under[i]


def half_done(name: str, under: list[str], hand: list[str], hard: bool = False, **kw):
    """A turn with two cards already under Mirror `name`."""
    return position(
        hard=hard,
        hand=hand,
        mirror_cards=[{"mirror": name, "explored": False, "under": under}],
        **kw,
    )


def test_the_rulebook_examples_what_goes_under_the_red_and_the_sun_mirror() -> None:
    state = position(hand=["red-sun", "red-key", "blue-sun", "green-moon", "brown-moon"])
    legal = {a for a in ENGINE.legal_actions(state) if isinstance(a, Pair)}
    # "only red Location cards may be played under the Red Mirror card (regardless of symbol)"
    assert Pair("red", ("red-key", "red-sun")) in legal
    assert not any(a.mirror == "red" and "blue-sun" in a.cards for a in legal)
    # "only Location cards featuring the Sun symbol ... under the Sun Mirror (regardless of colour)"
    assert Pair("sun", ("blue-sun", "red-sun")) in legal
    assert Pair("moon", ("brown-moon", "green-moon")) in legal
    assert not any(a.mirror == "sun" and "red-key" in a.cards for a in legal)
    with pytest.raises(IllegalAction, match="Sun Mirror must be sun"):
        ENGINE.apply(state, Pair("sun", ("red-key", "red-sun")))


def test_a_single_card_or_a_glyph_or_the_rainbow_outside_the_hard_game_is_refused() -> None:
    with pytest.raises(ValueError, match="'cards' must be a list of 2 strings"):
        action_from_json({"type": "pair", "mirror": "sun", "cards": ["red-sun"]})
    state = position(hand=["red-sun", "blue-sun", "green-moon", "brown-moon", "red-moon"])
    with pytest.raises(IllegalAction, match="not in play"):
        ENGINE.apply(state, Pair("glyph", ("blue-sun", "red-sun")))
    with pytest.raises(IllegalAction, match="not in play"):
        ENGINE.apply(state, Pair("rainbow", ("blue-sun", "red-sun")))
    base = position(mirrors=False, hand=["red-sun", "blue-sun"])
    assert not any(isinstance(a, Pair) for a in ENGINE.legal_actions(base))


def test_the_pair_draws_two_and_the_fourth_card_explores_then_is_discarded() -> None:
    state = half_done(
        "sun",
        ["red-sun", "green-sun"],
        ["blue-sun", "brown-sun", "red-moon", "red-key", "blue-moon"],
    )
    after = ENGINE.apply(state, Pair("sun", ("blue-sun", "brown-sun")))
    assert mirror(after, "sun") == (True, ())
    assert after.discard[-4:] == ("red-sun", "green-sun", "blue-sun", "brown-sun")
    assert after.phase == "refill" and len(after.hand) == 3
    after = draw(after, "red-sun")
    assert after.phase == "refill"  # one after the other: two draws
    after = draw(after, "green-moon")
    assert after.phase == "turn"
    with pytest.raises(IllegalAction, match="explored"):
        ENGINE.apply(
            position(
                hand=["red-sun", "blue-sun"],
                mirror_cards=[{"mirror": "sun", "explored": True, "under": []}],
            ),
            Pair("sun", ("blue-sun", "red-sun")),
        )


def test_red_two_cards_of_your_choice_on_top() -> None:
    state = half_done(
        "red", ["red-sun", "red-moon"], ["red-key", "red-sun", "blue-sun"], top=["nightmare"]
    )
    state = ENGINE.apply(state, Pair("red", ("red-key", "red-sun")))
    assert state.phase == "effect" and state.top == ()  # the deck was looked through
    picks = {a.card for a in ENGINE.legal_actions(state)}
    assert "door-blue" in picks and "nightmare" in picks and "red-key" in picks
    state = ENGINE.apply(state, Pick("door-blue"))
    state = ENGINE.apply(state, Pick("blue-key"))
    assert state.top == ("door-blue", "blue-key") and mirror(state, "red")[0]
    assert state.phase == "refill"


def test_blue_two_from_the_discard_pile_not_the_cards_under_it() -> None:
    state = half_done(
        "blue",
        ["blue-sun", "blue-moon"],
        ["blue-key", "blue-sun", "red-sun"],
        discard=["green-key", "nightmare"],
    )
    before = state.deck_size()
    state = ENGINE.apply(state, Pair("blue", ("blue-key", "blue-sun")))
    assert {a.card for a in ENGINE.legal_actions(state)} == {"green-key", "nightmare"}
    with pytest.raises(IllegalAction, match="discard pile"):
        ENGINE.apply(state, Pick("blue-moon"))
    state = ENGINE.apply(state, Pick("green-key"))
    state = ENGINE.apply(state, Pick("nightmare"))
    assert state.top == ("green-key", "nightmare") and state.deck_size() == before + 2
    assert state.discard[-4:] == ("blue-sun", "blue-moon", "blue-key", "blue-sun")


def test_key_two_nightmares_out_then_two_doors_of_one_colour() -> None:
    state = half_done("key", ["red-key", "blue-key"], ["green-key", "brown-key", "red-sun"])
    state = ENGINE.apply(state, Pair("key", ("brown-key", "green-key")))
    assert count(state, "nightmare") == 8 and state.discard.count("nightmare") == 2
    assert {a.card for a in ENGINE.legal_actions(state)} == set(dict.fromkeys(ALL_DOORS))
    state = ENGINE.apply(state, Pick("door-green"))
    assert state.doors == ("door-green", "door-green") and count(state, "door-green") == 0
    assert mirror(state, "key")[0]


def test_key_does_what_it_can_when_the_deck_holds_fewer() -> None:
    state = half_done(
        "key",
        ["red-key", "blue-key"],
        ["green-key", "brown-key", "red-sun"],
        deck={"nightmare": 1, "door-red": 1, "blue-sun": 4},
    )
    state = ENGINE.apply(state, Pair("key", ("brown-key", "green-key")))
    assert count(state, "nightmare") == 0
    assert [a.card for a in ENGINE.legal_actions(state)] == ["door-red"]
    state = ENGINE.apply(state, Pick("door-red"))
    assert state.doors == ("door-red",)
    none_left = half_done(
        "key",
        ["red-key", "blue-key"],
        ["green-key", "brown-key", "red-sun"],
        deck={"blue-sun": 4},
    )
    after = ENGINE.apply(none_left, Pair("key", ("brown-key", "green-key")))
    assert after.phase == "refill" and mirror(after, "key")[0] and after.doors == ()


def test_green_one_nightmare_and_brown_one_door() -> None:
    green = half_done("green", ["green-sun", "green-moon"], ["green-key", "green-sun", "red-sun"])
    green = ENGINE.apply(green, Pair("green", ("green-key", "green-sun")))
    assert count(green, "nightmare") == 9 and mirror(green, "green")[0]
    brown = half_done("brown", ["brown-sun", "brown-moon"], ["brown-key", "brown-sun", "red-sun"])
    brown = ENGINE.apply(brown, Pair("brown", ("brown-key", "brown-sun")))
    brown = ENGINE.apply(brown, Pick("door-red"))
    assert brown.doors == ("door-red",) and count(brown, "door-red") == 1


def test_rainbow_takes_one_card_of_each_colour() -> None:
    state = half_done(
        "rainbow",
        ["red-sun", "blue-sun"],
        ["red-moon", "green-sun", "brown-key", "green-moon"],
        hard=True,
    )
    legal = {
        a for a in ENGINE.legal_actions(state) if isinstance(a, Pair) and a.mirror == "rainbow"
    }
    assert legal == {
        Pair("rainbow", ("brown-key", "green-sun")),
        Pair("rainbow", ("brown-key", "green-moon")),
    }
    with pytest.raises(IllegalAction, match="one card of each colour"):
        ENGINE.apply(state, Pair("rainbow", ("green-moon", "red-moon")))
    with pytest.raises(IllegalAction, match="one card of each colour"):
        ENGINE.apply(state, Pair("rainbow", ("green-moon", "green-sun")))


def test_extra_victory_condition_the_sun_and_moon_mirrors_and_in_the_hard_game_the_rainbow() -> (
    None
):
    def last_door(hard: bool, explored: list[str]):
        s = position(
            hard=hard,
            hand=["brown-key", "blue-sun", "red-sun", "green-moon", "red-moon"],
            doors=ALL_DOORS[:-1],
            labyrinth=["brown-sun", "brown-moon"],
            run=2,
            mirror_cards=[{"mirror": m, "explored": True, "under": []} for m in explored],
        )
        return ENGINE.apply(s, Play("brown-key"))

    assert last_door(False, []).outcome is None  # eight Doors are not enough
    assert last_door(False, ["sun"]).outcome is None
    assert last_door(False, ["sun", "moon"]).outcome == "won"
    assert last_door(True, ["sun", "moon"]).outcome is None
    assert last_door(True, ["sun", "moon", "rainbow"]).outcome == "won"
    base = position(
        mirrors=False,
        hand=["brown-key", "blue-sun", "red-sun", "green-moon", "red-moon"],
        doors=ALL_DOORS[:-1],
        labyrinth=["brown-sun", "brown-moon"],
        run=2,
    )
    assert ENGINE.apply(base, Play("brown-key")).outcome == "won"
    # exploring the last needed Mirror with all the Doors in play wins at once
    state = position(
        hand=["blue-moon", "red-moon", "red-sun", "green-sun", "red-key"],
        doors=ALL_DOORS,
        mirror_cards=[
            {"mirror": "sun", "explored": True, "under": []},
            {"mirror": "moon", "explored": False, "under": ["green-moon", "brown-moon"]},
        ],
    )
    assert ENGINE.apply(state, Pair("moon", ("blue-moon", "red-moon"))).outcome == "won"
