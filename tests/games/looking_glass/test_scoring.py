"""Scoring by the reference card, the Brawlers, and the tie rule."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.games.looking_glass.rules.scoring import (
    CollectionError,
    check_collections,
    round_winner,
    score,
    score_round,
)

SUN = ["caterpillar", "mad-hatter", "mock-turtle", "queen-of-hearts", "walrus-carpenter"]
MOON = ["alice-cheshire", "dodo", "jabberwocky", "white-rabbit", "tweedles"]


@pytest.mark.parametrize(("count", "sun", "moon"), [(1, 1, -1), (2, -2, 2), (3, 3, -3), (4, -1, 1)])
def test_reference_card(count: int, sun: int, moon: int) -> None:
    for cid in SUN:
        assert score({cid: count}).total == sun
    for cid in MOON:
        assert score({cid: count}).total == moon


def test_same_size_piles_of_different_teams_cancel() -> None:
    # The rulebook's tip: piles of one size on different teams always add to 0.
    for n in range(1, 5):
        assert score({"dodo": n, "mad-hatter": n}).total == 0


def test_a_mixed_collection_adds_its_stacks() -> None:
    counts = {
        "caterpillar": 3,  # +3
        "mad-hatter": 1,  # +1
        "queen-of-hearts": 2,  # -2
        "dodo": 2,  # +2
        "jabberwocky": 4,  # +1
        "tweedles": 1,  # -1
        "white-rabbit": 3,  # -3
        "walrus-carpenter": 2,  # -2
    }
    s = score(counts)
    assert sum(counts.values()) == 18
    assert {st.card_id: st.points for st in s.stacks} == {
        "caterpillar": 3,
        "mad-hatter": 1,
        "queen-of-hearts": -2,
        "dodo": 2,
        "jabberwocky": 1,
        "tweedles": -1,
        "white-rabbit": -3,
        "walrus-carpenter": -2,
    }
    assert s.total == -1


def test_lion_alone_and_unicorn_alone() -> None:
    assert score({"lion": 1, "caterpillar": 1}).total == 3
    assert score({"unicorn": 1, "caterpillar": 1}).total == -1
    assert score({"lion": 1}).brawlers == 2
    assert score({"unicorn": 1}).brawlers == -2


@pytest.mark.parametrize(
    ("rest", "expected"),
    [
        ({"caterpillar": 3}, 3 - 1),  # positive rest: the worse direction is -1
        ({"dodo": 1}, -1 + 1),  # negative rest: the worse direction is +1
        ({"dodo": 1, "caterpillar": 1}, 1),  # rest 0: either direction, |total| = 1
        ({}, 1),
    ],
)
def test_both_brawlers_score_one_point_in_the_worse_direction(rest, expected) -> None:
    s = score({**rest, "lion": 1, "unicorn": 1})
    assert s.total == expected
    assert abs(s.total) <= abs(score(rest).total) or score(rest).total == 0


def test_score_ignores_the_order_of_cards() -> None:
    cards = ["dodo", "lion", "dodo", "caterpillar", "tweedles", "dodo"]
    assert score(Counter(cards)).total == score(Counter(reversed(cards))).total == -3 + 1 - 1 + 2


def test_the_larger_absolute_score_wins_and_a_tie_goes_to_the_first_player() -> None:
    assert round_winner([-7, 5], first=1) == 0
    assert round_winner([2, -6], first=0) == 1
    assert round_winner([4, -4], first=0) == 0
    assert round_winner([4, -4], first=1) == 1
    result = score_round([{"dodo": 3}, {"caterpillar": 3}], first=1)
    assert [s.total for s in result.scores] == [-3, 3]
    assert result.winner == 1
    assert result.to_json()["players"][0]["stacks"] == {"dodo": {"count": 3, "points": -3}}


def test_check_collections_rejects_impossible_counts() -> None:
    ok_pile = {"caterpillar": 4, "mad-hatter": 4, "mock-turtle": 4, "dodo": 2}
    ok_hand = {"tweedles": 4}
    other_pile = {"queen-of-hearts": 4, "walrus-carpenter": 4, "jabberwocky": 4, "dodo": 2}
    other_hand = {"white-rabbit": 4}
    got = check_collections([ok_pile, other_pile], [ok_hand, other_hand])
    assert [sum(c.values()) for c in got] == [18, 18]
    with pytest.raises(CollectionError, match="unknown card id 'cheshire'"):
        check_collections([{**ok_pile, "cheshire": 1}, other_pile], [ok_hand, other_hand])
    with pytest.raises(CollectionError, match="only 4"):
        check_collections([ok_pile, other_pile], [{"tweedles": 4}, {"tweedles": 1}], finished=False)
    with pytest.raises(CollectionError, match="Brawler"):
        check_collections([ok_pile, other_pile], [{"lion": 1}, other_hand], finished=False)
    with pytest.raises(CollectionError, match="18"):
        check_collections([ok_pile, other_pile], [{}, other_hand])
    with pytest.raises(CollectionError, match="whole number"):
        check_collections([{"dodo": -1}, {}], [{}, {}], finished=False)
    with pytest.raises(CollectionError, match="a hand holds 4"):
        check_collections([{}, {}], [{"dodo": 3, "tweedles": 2}, {}], finished=False)
