"""The engine follows a round as a camera records it: cards left unread at the deal and named
later, a covered card taken anyway (booked, the breach returned), and the Looking Glass as it
lies on the table taken as the truth."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.games.base import IllegalAction
from companion.games.looking_glass.rules.actions import Deal, Identify, Pick, Reveal, Setup
from companion.games.looking_glass.rules.engine import ENGINE, RULE_COVERED
from companion.games.looking_glass.rules.layout import load_layouts


def _round(seed: int, unread: tuple[str, ...] = ()) -> tuple[object, dict[str, str]]:
    """A match set up as the table sets it up, with a sampled deal recorded as a camera
    records it: the glass only (no hands, no Brawler draw), `unread` positions unread."""
    state = ENGINE.new_game(2, {"brawlers": True})
    state = ENGINE.apply(state, Setup(tuple(sorted(load_layouts())), 0))
    sampled = ENGINE.sample_chance(state, random.Random(seed)).glass_map()
    seen = {n: (None if n in unread else c) for n, c in sampled.items()}
    state = ENGINE.apply(state, Deal.of(seen, layout=state.stack[0]))
    return state, sampled


def _play_out(state, rng: random.Random):
    while ENGINE.phase(state) == "pick":
        state = ENGINE.apply(state, rng.choice(ENGINE.legal_actions(state)))
    return state


def test_an_unread_card_is_named_later_in_the_pile_of_whoever_holds_it() -> None:
    lay = load_layouts()[sorted(load_layouts())[0]]
    top = lay.name_of(1, lay.top_row[0])
    state, truth = _round(3, unread=(top,))
    assert ENGINE.view(state, None)["round"]["glass"][top] is None
    state = _play_out(state, random.Random(1))
    holder = next(s for s in (0, 1) if None in state.round.piles[s])
    with pytest.raises(IllegalAction, match="named before the round is scored"):
        ENGINE.apply(state, Reveal.of([[], []]))
    with pytest.raises(IllegalAction, match="only an unread card"):
        ENGINE.apply(state, Identify(lay.name_of(0, lay.top_row[0]), "dodo"))
    named = ENGINE.apply(state, Identify(top, truth[top]))
    assert None not in named.round.piles[holder]
    assert Counter(named.round.piles[holder]) - Counter(state.round.piles[holder]) == Counter(
        [truth[top]]
    )


def test_a_covered_card_taken_at_the_table_is_booked_and_the_breach_named() -> None:
    state, truth = _round(4)
    lay = ENGINE.layout(state.round.layout)
    covered = next(lay.name_of(0, c) for c in range(len(lay.cells)) if lay.covered_by[c])
    seat = ENGINE.current_player(state)
    with pytest.raises(IllegalAction, match=RULE_COVERED):
        ENGINE.apply(state, Pick(seat, covered))
    after, breach = ENGINE.table_pick(state, Pick(seat, covered))
    assert breach is not None and breach.rule == RULE_COVERED
    assert after.round.piles[seat] == (truth[covered],)
    assert ENGINE.current_player(after) == 1 - seat
    with pytest.raises(IllegalAction, match="alternate"):
        ENGINE.table_pick(after, Pick(seat, lay.name_of(0, lay.top_row[0])))


def test_the_table_is_right_returns_cards_lying_again_and_takes_the_cards_read() -> None:
    state, truth = _round(5)
    first = ENGINE.legal_actions(state)[0]
    state = ENGINE.apply(state, first)
    lay = ENGINE.layout(state.round.layout)
    other = lay.reflection(first.position)
    seen = {n: c for n, c in truth.items()}  # the pair lies on the table again
    misread = next(n for n in truth if n not in (first.position, other))
    seen[misread] = "lion" if truth[misread] != "lion" else "unicorn"
    fixed = ENGINE.with_glass(state, seen)
    assert fixed.round.taken == 0 and fixed.round.piles == ((), ())
    assert ENGINE.current_player(fixed) == fixed.round.starter
    assert ENGINE.view(fixed, None)["round"]["glass"][misread] == seen[misread]
    with pytest.raises(IllegalAction, match="without its reflection"):
        ENGINE.with_glass(state, {first.position: truth[first.position]})
