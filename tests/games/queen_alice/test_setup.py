"""Set-up per player count: Crowns, hands, market, Wishes, cubes; the options' readings."""

from __future__ import annotations

import pytest

from companion.games.base import CHANCE, IllegalAction
from companion.games.queen_alice.rules import ENGINE as E
from companion.games.queen_alice.rules.actions import Draw, Reveal, Tile, Wishes
from companion.games.queen_alice.rules.components import ACTIONS
from tests.games.queen_alice.helpers import BOARD, COMP, started


@pytest.mark.parametrize("players", [2, 3, 4])
def test_set_up_by_player_count(players: int) -> None:
    state = started(players)
    assert state.crowns_left == COMP.crowns[players] == {2: 6, 3: 7, 4: 8}[players]
    assert E.current_player(state) == 0 and state.phase == "discard"
    assert state.pieces == BOARD.tiles[state.tile]
    for p in state.people:
        assert len(p.hand) == 3 and len(p.deck) == len(COMP.basic) - 3
        assert p.cubes == 3 and p.black == 0 and p.black_stock == 5 and p.time == 0
    assert all(None not in row for row in state.market)
    assert sorted(COMP.wishes[w].icon for w in state.wishes) == sorted(ACTIONS)
    covered = sum(sum(z) for colour in state.garden for z in colour)
    assert covered == (sum(len(v) for v in COMP.garden_covered.values()) if players == 3 else 0)


def test_component_counts_reading_shares_the_black_cubes() -> None:
    state = started(4, options={"component_counts": "components"})
    assert all(p.black_stock == 5 // 4 for p in state.people)


def test_small_supplies_reading_limits_the_tokens() -> None:
    assert COMP.tokens("hearts", "red", 4) == 5
    comp = E.comp(E.new_game(4, {"small_supplies": "skip"}))
    assert comp.tokens("hearts", "red", 4) == 20 // 8
    assert comp.tokens("diamonds", "white", 2) == 5


def test_unknown_options_and_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="2 to 4"):
        E.new_game(5)
    with pytest.raises(ValueError, match="unknown option"):
        E.new_game(2, {"rounds": 3})
    with pytest.raises(ValueError, match="coronation"):
        E.new_game(2, {"coronation": "loudest"})


def test_chance_acts_in_order_and_refuses_what_is_not_due() -> None:
    fresh = E.new_game(2)
    assert E.current_player(fresh) == CHANCE and E.legal_actions(fresh) == []
    with pytest.raises(IllegalAction, match="chance"):
        E.apply(fresh, Wishes(("hearts-1", "spades-1", "clubs-1", "diamonds-1")))
    state = E.apply(fresh, Tile(sorted(BOARD.tiles)[0]))
    with pytest.raises(IllegalAction, match="set-up"):
        E.apply(state, Wishes(("hearts-1", "hearts-2", "clubs-1", "diamonds-1")))
    state = E.apply(state, Wishes(("hearts-1", "spades-1", "clubs-1", "diamonds-1")))
    with pytest.raises(IllegalAction, match="chance"):
        E.apply(state, Reveal(0, COMP.decks["bronze"][0]))  # hands are dealt first
    with pytest.raises(IllegalAction, match="draw"):
        E.apply(state, Draw(0, "gold-1"))  # not a card of the seat's deck


def test_model_mistakes_are_one_line_naming_the_file() -> None:
    import tomllib

    from companion.errors import UserError
    from companion.games.queen_alice.rules.components import components_from_toml
    from companion.paths import models_dir

    base = models_dir() / "queen-alice"
    files = {
        n: tomllib.loads((base / f"{n}.toml").read_text())
        for n in ("cards", "courtier", "paths", "actions", "wishes", "flowers", "train")
    }
    files["cards"]["gold"][2]["discard"] = {"pawprint": 1}  # gold-2 is a wild card
    with pytest.raises(UserError, match=r"wild card.*name its colour"):
        components_from_toml(files, "models", COMP.readings)
    files["cards"]["gold"][2]["discard"] = {"ip": 1, "gems": 2}
    with pytest.raises(UserError, match="unknown reward 'gems'"):
        components_from_toml(files, "models", COMP.readings)
    del files["cards"]["gold"][2]["discard"]["gems"]
    files["paths"]["alice"]["red"][3]["wish"] = False
    with pytest.raises(UserError, match="2 Wish spaces"):
        components_from_toml(files, "models", COMP.readings)


def test_a_wild_card_with_nothing_to_move_gives_no_coloured_bonus() -> None:
    from dataclasses import replace

    from companion.games.queen_alice.rules.actions import PlayNone

    wild = next(c for c in COMP.cards.values() if c.colour == "wild" and c.play.pawprint)
    state = replace(started(2), phase="play", pieces=())
    state = state.with_me(hand=(wild.id, "basic-0"))
    after = E.apply(state, PlayNone(wild.id))
    assert after.me.cats == (0, 0) and after.phase == "act"
