"""The Card Market, Invitations (culling) and Bookmarks: the card-side reward choices.

The market has three blocks per level: two display spaces and the face-up top of the deck;
the rulebook prices them free, 1 Time, 1 resource of your choice (`courtier.toml`). A card
taken leaves a gap until Rest, when the cards slide left and chance reveals new ones.
Culling keeps the rulebook's two limits: never the last card in hand, and never when the
player has 3 or fewer cards not culled.
"""

from __future__ import annotations

from companion.games.queen_alice.rules.actions import Acquire, Buy, Cull
from companion.games.queen_alice.rules.components import LEVELS, Components, Reward
from companion.games.queen_alice.rules.economy import ANY, Cost, pay, payments, unit_of
from companion.games.queen_alice.rules.rewards import push, tasks
from companion.games.queen_alice.rules.state import State, evolve, set_at

CULL_FLOOR = 3
"""The rulebook: no culling when the player's non-culled cards are 3 or fewer."""


def block_cost(reward: Reward) -> Cost:
    units = (ANY,) * reward.resource + tuple(
        unit_of(r) for r in ("cake", "tea", "toast") for _ in range(getattr(reward, r))
    )
    return Cost(units, reward.time)


def acquire_options(state: State, comp: Components, level: str) -> list[Acquire]:
    li = LEVELS.index(level)
    out: list[Acquire] = []
    for block, card in enumerate(state.market[li]):
        if card is not None:
            cost = block_cost(comp.block_costs[block])
            out.extend(Acquire(li, block, how) for how in payments(state.me, cost, comp))
    return out


def acquire(state: State, comp: Components, act: Acquire) -> State:
    card = state.market[act.level][act.block]
    assert card is not None
    me = pay(state.me, block_cost(comp.block_costs[act.block]), act.pay, comp)
    me = evolve(me, hand=tuple(sorted((*me.hand, card))))
    market = set_at(state.market, act.level, set_at(state.market[act.level], act.block, None))
    return evolve(state, market=market).with_player(state.seat, me)


def cull_options(state: State) -> list[Cull]:
    me = state.me
    if me.cards() <= CULL_FLOOR:
        return []
    out = [Cull(c, "hand") for c in sorted(set(me.hand))] if len(me.hand) > 1 else []
    return out + [Cull(c, "discard") for c in sorted(set(me.discard))]


def cull(state: State, act: Cull) -> State:
    me = state.me
    pile = list(me.hand if act.pile == "hand" else me.discard)
    pile.remove(act.card)
    me = evolve(
        me,
        culled=tuple(sorted((*me.culled, act.card))),
        **{"hand" if act.pile == "hand" else "discard": tuple(pile)},
    )
    return state.with_player(state.seat, me)


def buy_options(state: State, comp: Components) -> list[Buy]:
    books = dict(zip(comp.book_colours, state.me.books, strict=True))
    return [
        Buy(b.id)
        for b, left in zip(comp.bookmarks, state.bookmarks, strict=True)
        if left > 0 and all(books[c] >= n for c, n in b.cost)
    ]


def buy(state: State, comp: Components, act: Buy, colour: str) -> State:
    mark = next(b for b in comp.bookmarks if b.id == act.bookmark)
    books = list(state.me.books)
    for c, n in mark.cost:
        books[comp.book_colours.index(c)] -= n
    return gain_bookmark(state.with_me(books=tuple(books)), comp, mark.id, colour)


def gain_bookmark(state: State, comp: Components, bookmark: str, colour: str) -> State:
    """Take a Bookmark from its pile (none left: nothing); an instant one gives its reward."""
    index = next(i for i, b in enumerate(comp.bookmarks) if b.id == bookmark)
    mark = comp.bookmarks[index]
    if state.bookmarks[index] == 0:
        return state
    state = evolve(state, bookmarks=set_at(state.bookmarks, index, state.bookmarks[index] - 1))
    state = state.with_me(bookmarks=(*state.me.bookmarks, mark.id))
    return push(state, tasks(mark.reward, colour)) if mark.kind == "instant" else state


def slide(state: State) -> State:
    """Rest: each level's cards slide left to fill the gaps (chance refills the rest)."""
    market = tuple(
        tuple([c for c in row if c is not None] + [None] * sum(c is None for c in row))
        for row in state.market
    )
    return evolve(state, market=market)
