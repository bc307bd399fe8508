"""The Brawlers' "top row" read as every card uncovered at the deal (issue 36)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from companion.games.base import IllegalAction
from companion.games.looking_glass.rules import deal as D
from companion.games.looking_glass.rules.actions import Deal
from companion.games.looking_glass.rules.deck import BRAWLERS
from companion.games.looking_glass.rules.engine import ENGINE
from tests.games.looking_glass.helpers import dealt

RULE = (
    "They also shouldn't end up in the top row. If so, switch them with the closest card in"
    " the same spot 2 rows down, or with the Reflection to that spot if the other Brawler is"
    " there."
)


def blank() -> list[list[str]]:
    return [[f"a{i}" for i in range(14)], [f"b{i}" for i in range(14)]]


@pytest.mark.parametrize("layout_id", sorted(ENGINE.layouts))
def test_the_top_row_is_every_card_free_at_the_deal(layout_id: str) -> None:
    lay = ENGINE.layout(layout_id)
    assert "top row" in RULE
    assert list(lay.top_row) == lay.free_cells(0)
    for cell in lay.top_row:
        spot = lay.brawler_spot(cell)
        assert spot not in lay.top_row, "a switched Brawler lands under another card"


def test_terrace_ends_of_row_one_count_as_top_row() -> None:
    lay = ENGINE.layout("terrace")  # rows [0..10 by 2], [1..9 by 2], [3, 5, 7]
    names = [lay.name_of(0, c) for c in lay.top_row]
    assert names == ["A-r1-c1", "A-r1-c9", "A-r2-c3", "A-r2-c5", "A-r2-c7"]
    # Two rows below row 1 is past the centre line: the innermost row, nearest column.
    assert lay.name_of(0, lay.brawler_spot(lay.locate("A-r1-c1")[1])) == "A-r0-c0"
    assert lay.name_of(0, lay.brawler_spot(lay.locate("A-r1-c9")[1])) == "A-r0-c8"
    assert lay.name_of(0, lay.brawler_spot(lay.locate("A-r2-c5")[1])) == "A-r0-c4"
    cards = blank()
    end = lay.locate("A-r1-c1")[1]
    base = lay.locate("A-r0-c0")[1]
    cards[0][end] = "lion"
    cards[0][base] = "unicorn"  # the other Brawler is in that spot: use its reflection
    D.settle_brawlers(lay, cards)
    assert cards[1][base] == "lion" and cards[0][end] == f"b{base}"
    assert cards[0][base] == "unicorn"  # covered at the deal: it stays


def test_no_brawler_is_ever_free_at_the_deal_and_none_leaves_the_glass() -> None:
    lay = ENGINE.layout("terrace")
    deck = ENGINE.deck
    moved = 0
    for seed in range(400):
        deal = D.sample_deal(deck, lay, True, seed % 2, random.Random(seed))
        glass = deal.glass_map()
        free = {lay.name_of(h, c) for h in (0, 1) for c in lay.free_cells(0)}
        assert not {glass[n] for n in free} & set(BRAWLERS)
        moved += any(glass[n] in BRAWLERS for n in glass if n.startswith(("A-r0", "B-r0")))
    assert moved > 0  # some deals did need the switch to the innermost row


def test_the_switch_keeps_the_number_of_brawlers_in_the_glass() -> None:
    """The rulebook's 2/1/0 frequencies depend only on how many Brawlers the deal puts in the
    glass; the switch moves them within it, so the frequencies hold (measured in the docs)."""
    for layout_id in sorted(ENGINE.layouts):
        lay = ENGINE.layout(layout_id)
        rng = random.Random(layout_id)
        for _ in range(200):
            cards = blank()
            places = rng.sample(range(28), rng.choice((1, 2)))
            for brawler, b in zip(BRAWLERS, places, strict=False):
                cards[b // 14][b % 14] = brawler
            before = Counter(c for h in cards for c in h)
            D.settle_brawlers(lay, cards)
            assert Counter(c for h in cards for c in h) == before
            assert not {cards[h][c] for h in (0, 1) for c in lay.top_row} & set(BRAWLERS)


def test_a_table_deal_with_a_brawler_free_at_the_start_is_refused() -> None:
    lay = ENGINE.layout("terrace")
    for seed in range(500):
        s = dealt(seed, brawlers=True, layout="terrace")
        if any(c in BRAWLERS for h in s.round.cards for c in h):
            break
    else:
        raise AssertionError("no Terrace deal with a Brawler in the glass")
    r = s.round
    glass = {lay.name_of(h, c): r.cards[h][c] for h in (0, 1) for c in range(14)}
    at = next(p for p, c in glass.items() if c in BRAWLERS)
    swapped = {**glass, at: glass["A-r1-c9"], "A-r1-c9": glass[at]}
    before = replace(s, round=None, stack=(r.layout, *s.stack))
    assert ENGINE.apply(before, Deal.of(glass, r.hands, r.removed, r.brawler_draw, "terrace"))
    with pytest.raises(IllegalAction, match="never start in the top row"):
        ENGINE.apply(before, Deal.of(swapped, r.hands, r.removed, r.brawler_draw, "terrace"))
