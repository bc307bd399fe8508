"""Set-up per player count: Crowns, hands, market, Wishes, cubes; the options' readings."""

from __future__ import annotations

import pytest

from companion.games.base import CHANCE, IllegalAction
from companion.games.queen_alice.rules import ENGINE as E
from companion.games.queen_alice.rules.actions import Draw, Reveal, Tile, Wishes
from companion.games.queen_alice.rules.components import ACTIONS
from tests.games.queen_alice.qa_helpers import BOARD, COMP, started


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
