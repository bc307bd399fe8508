"""The rules engine: deals, picks, the Brawlers' set-up, rounds and the match."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from companion.games.base import CHANCE, IllegalAction
from companion.games.conformance import check_engine
from companion.games.looking_glass.rules.actions import Deal, Pick, Reveal, Setup
from companion.games.looking_glass.rules.deal import settle_brawlers
from companion.games.looking_glass.rules.deck import BRAWLERS
from companion.games.looking_glass.rules.engine import ENGINE
from tests.games.looking_glass.helpers import dealt, finish_round


def deal_of(state) -> Deal:
    r = state.round
    lay = ENGINE.layout(r.layout)
    glass = {lay.name_of(h, c): r.cards[h][c] for h in (0, 1) for c in range(len(lay.cells))}
    return Deal.of(glass, r.hands, r.removed, r.brawler_draw)


def before_deal(state):
    """The same match just before its first deal."""
    return replace(state, round=None, stack=(state.round.layout, *state.stack))


def test_a_round_starts_with_the_glass_full_and_four_cards_in_each_hand() -> None:
    s = dealt(1)
    r = s.round
    assert ENGINE.current_player(s) == r.starter == s.first_player
    assert [len(h) for h in r.hands] == [4, 4]
    assert len(r.removed) == 4
    everything = Counter(r.cards[0] + r.cards[1] + r.hands[0] + r.hands[1] + r.removed)
    assert everything == ENGINE.deck.copies(False)
    assert len(ENGINE.legal_actions(s)) == 2 * len(ENGINE.layout(r.layout).free_cells(0))


def test_a_pick_gives_the_reflection_to_the_other_player() -> None:
    s = dealt(2, layout="pyramid")
    seat = ENGINE.current_player(s)
    after = ENGINE.apply(s, Pick(seat, "B-r3-c5"))
    lay = ENGINE.layout("pyramid")
    cell = lay.locate("B-r3-c5")[1]
    assert after.round.piles[seat] == (s.round.cards[1][cell],)
    assert after.round.piles[1 - seat] == (s.round.cards[0][cell],)
    assert ENGINE.current_player(after) == 1 - seat
    assert Pick(1 - seat, "A-r3-c5") not in ENGINE.legal_actions(after)


def test_illegal_picks_name_the_rule() -> None:
    s = dealt(3, layout="pyramid")
    seat = ENGINE.current_player(s)
    with pytest.raises(IllegalAction, match=r"uncovered.*A-r2-c4 lies under A-r3-c3, A-r3-c5"):
        ENGINE.apply(s, Pick(seat, "A-r2-c4"))
    with pytest.raises(IllegalAction, match="players alternate turns"):
        ENGINE.apply(s, Pick(1 - seat, "A-r3-c3"))
    with pytest.raises(IllegalAction, match="position"):
        ENGINE.apply(s, Pick(seat, "C-r0-c0"))
    s2 = ENGINE.apply(s, Pick(seat, "A-r3-c3"))
    with pytest.raises(IllegalAction, match=r"taken once.*B-r3-c3 is already taken"):
        ENGINE.apply(s2, Pick(1 - seat, "B-r3-c3"))
    with pytest.raises(IllegalAction, match="a deal only starts a round"):
        ENGINE.apply(s2, deal_of(s))
    with pytest.raises(IllegalAction, match="set-up happens once"):
        ENGINE.apply(s2, Setup(tuple(ENGINE.layouts), 0))


def test_deals_inconsistent_with_the_deck_are_refused() -> None:
    s = dealt(4)
    pre = before_deal(s)
    good = deal_of(s)
    assert ENGINE.apply(pre, good).round == s.round
    glass = good.glass_map()
    first = next(iter(glass))
    hand0 = list(good.hands[0])
    # one card too many of a character
    extra = dict(glass)
    extra[first] = hand0[0]
    with pytest.raises(IllegalAction, match="once each"):
        ENGINE.apply(pre, Deal.of(extra, good.hands, good.removed))
    # a missing position
    missing = dict(glass)
    del missing[first]
    with pytest.raises(IllegalAction, match="every position"):
        ENGINE.apply(pre, Deal.of(missing, good.hands, good.removed))
    # an unknown card
    with pytest.raises(IllegalAction, match="unknown card id 'cheshire-cat'"):
        ENGINE.apply(pre, Deal.of({**glass, first: "cheshire-cat"}, good.hands, good.removed))
    # a hand of 3 and a removed pile of 5
    short = [hand0[:3], list(good.hands[1])]
    with pytest.raises(IllegalAction, match="dealt 4 cards"):
        ENGINE.apply(pre, Deal.of(glass, short, [*good.removed, hand0[3]]))
    # removed pile that does not hold the rest of the deck
    with pytest.raises(IllegalAction, match="removed pile"):
        ENGINE.apply(pre, Deal.of(glass, good.hands, good.removed[:3]))
    with pytest.raises(IllegalAction, match="together"):
        ENGINE.apply(pre, Deal.of(glass, good.hands, None))
    with pytest.raises(IllegalAction, match="no Brawler draw"):
        ENGINE.apply(pre, Deal.of(glass, good.hands, good.removed, "dodo"))


def brawler_deal(seed_from: int):
    """A sampled Brawlers deal with both Brawlers in the Looking Glass."""
    for seed in range(seed_from, seed_from + 500):
        s = dealt(seed, brawlers=True)
        if sum(c in BRAWLERS for h in s.round.cards for c in h) == 2:
            return s
    raise AssertionError("no deal with both Brawlers in 500 seeds")


def test_brawlers_never_reach_a_hand_and_six_cards_are_removed() -> None:
    seen_out = seen_in = 0
    for seed in range(150):
        r = dealt(seed, brawlers=True).round
        assert not set(r.hands[0] + r.hands[1]) & set(BRAWLERS)
        if r.brawler_draw in ("queen-of-hearts", "jabberwocky"):
            seen_out += 1
            assert not r.brawlers and len(r.removed) == 4
            assert not set(r.cards[0] + r.cards[1]) & set(BRAWLERS)
        else:
            seen_in += 1
            assert r.brawlers and len(r.removed) == 6
            lay = ENGINE.layout(r.layout)
            top = {r.cards[h][c] for h in (0, 1) for c in lay.top_row}
            assert not top & set(BRAWLERS)
            everything = Counter(r.cards[0] + r.cards[1] + r.hands[0] + r.hands[1] + r.removed)
            assert everything == ENGINE.deck.copies(True)
    assert seen_out > 10 and seen_in > 80


def test_brawler_deals_are_checked() -> None:
    s = brawler_deal(0)
    pre = before_deal(s)
    good = deal_of(s)
    glass = good.glass_map()
    lion_at = next(p for p, c in glass.items() if c == "lion")
    with pytest.raises(IllegalAction, match="card of the normal deck is drawn"):
        ENGINE.apply(pre, Deal.of(glass, good.hands, good.removed, None))
    with pytest.raises(IllegalAction, match="Brawlers are not in play"):
        ENGINE.apply(pre, Deal.of(glass, good.hands, good.removed, "jabberwocky"))
    lay = ENGINE.layout(s.round.layout)
    top = lay.name_of(0, lay.top_row[0])
    swapped = {**glass, lion_at: glass[top], top: "lion"}
    with pytest.raises(IllegalAction, match="never start in the top row"):
        ENGINE.apply(pre, Deal.of(swapped, good.hands, good.removed, good.brawler_draw))
    h0 = list(good.hands[0])
    with pytest.raises(IllegalAction, match="never dealt to a player"):
        ENGINE.apply(
            pre,
            Deal.of(
                {**glass, lion_at: h0[0]},
                [["lion", *h0[1:]], list(good.hands[1])],
                good.removed,
                good.brawler_draw,
            ),
        )


def test_settle_brawlers_switches_two_rows_down_or_with_the_reflection() -> None:
    lay = ENGINE.layout("pyramid")  # top row 3: c3, c5; two rows down is row 1: c1 c3 c5 c7
    cards = [[f"a{i}" for i in range(14)], [f"b{i}" for i in range(14)]]
    a_top3 = lay.locate("A-r3-c3")[1]
    a_r1c3 = lay.locate("A-r1-c3")[1]
    a_top5 = lay.locate("A-r3-c5")[1]
    a_r1c5 = lay.locate("A-r1-c5")[1]
    cards[0][a_top3] = "lion"
    cards[0][a_r1c5] = "unicorn"
    cards[0][a_top5] = "dodo"
    settle_brawlers(lay, cards)
    assert cards[0][a_r1c3] == "lion" and cards[0][a_top3] == "a" + str(a_r1c3)
    assert cards[0][a_r1c5] == "unicorn"  # not in the top row: stays
    # both Brawlers in the top row over the same spot: the second goes to the reflection
    lay = ENGINE.layout("diamond")  # top row 4: c3 c5; two rows down: row 2 c1 c3 c5 c7
    cards = [[f"a{i}" for i in range(14)], [f"b{i}" for i in range(14)]]
    cards[0][lay.locate("A-r4-c3")[1]] = "lion"
    cards[1][lay.locate("B-r4-c3")[1]] = "unicorn"
    settle_brawlers(lay, cards)
    assert cards[0][lay.locate("A-r2-c3")[1]] == "lion"
    assert cards[1][lay.locate("B-r2-c3")[1]] == "unicorn"
    cards = [[f"a{i}" for i in range(14)], [f"b{i}" for i in range(14)]]
    spot = lay.locate("A-r2-c3")[1]
    cards[0][spot] = "unicorn"
    cards[0][lay.locate("A-r4-c3")[1]] = "lion"
    settle_brawlers(lay, cards)
    assert cards[1][spot] == "lion" and cards[0][spot] == "unicorn"
    assert cards[0][lay.locate("A-r4-c3")[1]] == f"b{spot}"


def test_a_match_goes_to_three_round_wins_with_alternating_starters() -> None:
    rng = random.Random(5)
    s = ENGINE.new_game(2)
    starters = []
    while not ENGINE.is_terminal(s):
        if ENGINE.current_player(s) == CHANCE:
            action = ENGINE.sample_chance(s, rng)
            s = ENGINE.apply(s, action)
            if isinstance(action, Deal):
                starters.append(s.round.starter)
        s = finish_round(s, rng)
    wins = ENGINE.round_wins(s)
    assert sorted(wins) == [min(wins), 3]
    assert 3 <= len(s.results) <= 5
    assert starters == [
        s.first_player if i % 2 == 0 else 1 - s.first_player for i in range(len(starters))
    ]
    assert len({x.layout for x in s.results}) == len(s.results)  # each layout card once
    assert ENGINE.scores(s) == [float(w) for w in wins]
    for res in s.results:
        a, b = abs(res.totals[0]), abs(res.totals[1])
        assert res.winner == (res.starter if a == b else (0 if a > b else 1))
    assert ENGINE.current_player(s) is None and ENGINE.legal_actions(s) == []


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="2 players"):
        ENGINE.new_game(3)
    with pytest.raises(ValueError, match="unknown option"):
        ENGINE.new_game(2, {"brawler": True})
    with pytest.raises(ValueError, match="target"):
        ENGINE.new_game(2, {"target": 4})


def test_a_deal_without_hands_is_revealed_at_the_end() -> None:
    """The camera sees the Looking Glass but not face-down hands: they come at round end."""
    s = dealt(6)
    pre = before_deal(s)
    good = deal_of(s)
    state = ENGINE.apply(pre, Deal.of(good.glass_map(), None, None))
    assert ENGINE.view(state, 0)["round"]["hand"] is None
    state = finish_round(state, random.Random(0))
    assert ENGINE.current_player(state) == CHANCE
    with pytest.raises(IllegalAction, match="once each"):
        ENGINE.apply(state, Reveal.of([good.hands[0], good.hands[0]]))
    sampled = ENGINE.sample_chance(state, random.Random(1))
    assert isinstance(sampled, Reveal)
    done = ENGINE.apply(state, Reveal(good.hands))
    assert len(done.results) == 1
    assert ENGINE.view(done, None)["round"]["hands"] == [list(h) for h in good.hands]


def test_brawler_games_conform() -> None:
    report = check_engine(ENGINE, 2, games=3, seed=11, options={"brawlers": True})
    assert report.illegal_checked > 0


def _deals(n: int, brawlers: bool, seed: int):
    rng = random.Random(seed)
    state = ENGINE.apply(
        ENGINE.new_game(2, {"brawlers": brawlers}),
        Setup(("pyramid", "wall", "fan", "diamond", "terrace"), 0),
    )
    for _ in range(n):
        yield ENGINE.sample_chance(state, rng)


def test_brawler_frequencies_match_the_closed_form() -> None:
    """Banned with probability 8/40; otherwise 28 of the 42 cards go to the glass."""
    n = 5000
    counts = Counter(sum(c in BRAWLERS for c in d.glass_map().values()) for d in _deals(n, True, 3))
    kept = 1 - 8 / 40
    expected = {
        0: 8 / 40 + kept * (14 * 13) / (42 * 41),
        2: kept * (28 * 27) / (42 * 41),
    }
    expected[1] = 1 - expected[0] - expected[2]
    for k, p in expected.items():
        assert counts[k] / n == pytest.approx(p, abs=0.025), (k, counts[k] / n, p)


def test_self_linked_pairs_average_fourteen_times_three_in_thirty_nine() -> None:
    """A cell and its reflection hold two random cards of 40: same character w.p. 3/39."""
    lay = ENGINE.layout("pyramid")
    n = 4000
    linked = [
        sum(g[lay.name_of(0, i)] == g[lay.name_of(1, i)] for i in range(14))
        for g in (d.glass_map() for d in _deals(n, False, 4))
    ]
    assert sum(linked) / n == pytest.approx(14 * 3 / 39, abs=0.05)


def test_a_deal_may_name_the_layout_card_turned_up() -> None:
    """At a real table the stack order is unknown: the camera reads the card turned up."""
    s = dealt(12)
    pre = before_deal(s)
    good = deal_of(s)
    other = next(x for x in pre.stack if x != s.round.layout)
    named = replace(good, layout=s.round.layout)
    after = ENGINE.apply(replace(pre, stack=(other, *[x for x in pre.stack if x != other])), named)
    assert after.round.layout == s.round.layout
    assert s.round.layout not in after.stack and other in after.stack
    with pytest.raises(IllegalAction, match="played once per match"):
        ENGINE.apply(replace(pre, stack=(other,)), named)
    assert ENGINE.action_from_json(ENGINE.action_to_json(named)) == named
