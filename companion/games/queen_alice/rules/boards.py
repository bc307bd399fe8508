"""The four actions and their Mini-actions: what each may target, what it costs, what it gives.

Each action is two functions over the same data: `options` lists every target with every
way to pay (so `legal_actions` can offer them and `apply` refuse the rest), and `perform`
changes the boards and queues the rewards. `extra` is what the turn adds to the cost: the
Wild column's resource, the Repeat Action's Time. A Mini-action is the same action's
free, smaller form with its own targets (the rulebook: no colour restriction).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from companion.games.queen_alice.rules import flowers
from companion.games.queen_alice.rules.actions import Act
from companion.games.queen_alice.rules.board import COLOURS
from companion.games.queen_alice.rules.components import ACTIONS, Components, Reward
from companion.games.queen_alice.rules.economy import (
    FREE,
    OWN,
    PIECE_RESOURCES,
    Cost,
    pay,
    payments,
    unit_of,
)
from companion.games.queen_alice.rules.rewards import push, tasks
from companion.games.queen_alice.rules.state import State, Task, ci, evolve, set_at, set_pair

TEA = unit_of("tea")


def _priced(
    state: State, comp: Components, action: str, target: tuple[int, ...], cost: Cost
) -> Iterator[Act]:
    for how in payments(state.me, cost, comp, state.turn.loose):
        yield Act(action, target, how)


# -- targets and costs -----------------------------------------------------------------------


def _hearts(state: State, comp: Components, colour: str) -> Iterator[tuple[tuple[int, ...], Cost]]:
    i = ci(colour)
    taken = state.me.hearts[i]
    if taken >= comp.tokens("hearts", colour, state.players):
        return
    token = comp.hearts[colour][taken]
    at, zones = state.gardeners[i], len(state.garden[i])
    for zone, spaces in enumerate(state.garden[i]):
        moves = abs(zone - at)
        if comp.gardener_ring:  # "you can pay 2 to access all spots" of 4: a ring
            moves = min(moves, zones - moves)
        steps = 0 if at < 0 else moves * comp.gardener_tea
        for space, planted in enumerate(spaces):
            if not planted:
                yield (zone, space), Cost((OWN[colour],) * token.cost + (TEA,) * steps)


def _walks(comp: Components, start: int, length: int) -> Iterator[tuple[int, ...]]:
    if length == 0:
        yield ()
        return
    for nxt in comp.messengers[start].next:
        for rest in _walks(comp, nxt, length - 1):
            yield (nxt, *rest)


def _spades(state: State, comp: Components, colour: str) -> Iterator[tuple[tuple[int, ...], Cost]]:
    at = state.me.messengers[ci(colour)]
    for k in (1, 2, 3):
        cost = Cost(
            (PIECE_RESOURCES[colour],) * comp.messenger_cost[k - 1], comp.messenger_time[k - 1]
        )
        for walk in _walks(comp, at, k):
            yield walk, cost


def _arrow_cost(comp: Components, index: int, colour: str) -> Cost:
    arrow = comp.arrows[index]
    if arrow.yellow:
        return Cost((OWN[colour],) * arrow.yellow)
    return Cost(tuple(unit_of(name) for name in arrow.pay))


def _clubs(state: State, comp: Components, colour: str) -> Iterator[tuple[tuple[int, ...], Cost]]:
    at = state.me.twins[ci(colour)]
    for index, arrow in enumerate(comp.arrows):
        if arrow.start == at:
            yield (index,), _arrow_cost(comp, index, colour)


def lowest_free(state: State, colour: str, column: int) -> int | None:
    rows = state.wall[ci(colour)]
    return next((r for r, row in enumerate(rows) if not row[column]), None)


def _free_diamonds(state: State, comp: Components, colour: str) -> list[int]:
    taken = state.me.diamonds[ci(colour)]
    return [t for t in range(comp.tokens("diamonds", colour, state.players)) if t not in taken]


def _diamonds(
    state: State, comp: Components, colour: str
) -> Iterator[tuple[tuple[int, ...], Cost]]:
    tokens = _free_diamonds(state, comp, colour)
    for column, tea in enumerate(comp.wall_column_tea):
        row = lowest_free(state, colour, column)
        if row is None:
            continue
        cost = Cost((PIECE_RESOURCES[colour],) * comp.wall_row_cost[row] + (TEA,) * tea)
        for token in tokens:
            yield (column, token), cost


_TARGETS = {"hearts": _hearts, "spades": _spades, "clubs": _clubs, "diamonds": _diamonds}


def discounted(cost: Cost, units: int) -> list[Cost]:
    """Every cost left when `units` of its resources are let off (the player picks which;
    Time is never let off). A card's discount is the only source (cards.toml)."""
    if units <= 0 or not cost.units:
        return [cost]
    keep = len(cost.units) - min(units, len(cost.units))
    found: dict[tuple[tuple[str, ...], ...], Cost] = {}
    for kept in combinations(cost.units, keep):
        key = tuple(sorted(tuple(sorted(u)) for u in kept))
        found.setdefault(key, Cost(kept, cost.time))
    return list(found.values())


def options(
    state: State, comp: Components, action: str, colour: str, extra: Cost, discount: int = 0
) -> list[Act]:
    """Every way to perform `action` with a piece of `colour`, `extra` added to its cost and
    `discount` resources let off."""
    out: dict[Act, None] = {}
    for target, cost in _TARGETS[action](state, comp, colour):
        for each in discounted(cost + extra, discount):
            out.update(dict.fromkeys(_priced(state, comp, action, target, each)))
    return list(out)


def cost_of(state: State, comp: Components, act: Act, colour: str) -> Cost:
    return dict(_TARGETS[act.action](state, comp, colour))[act.target]


# -- performing ------------------------------------------------------------------------------


def perform(
    state: State, comp: Components, act: Act, colour: str, extra: Cost, discount: int = 0
) -> State:
    """Pay for `act` (already checked legal) and resolve it with a piece of `colour`."""
    costs = discounted(cost_of(state, comp, act, colour) + extra, discount)
    # Every discounted cost this payment fits leaves the player the same: the Pay says
    # what is given up, and the Time part is never discounted.
    loose = state.turn.loose
    cost = next((c for c in costs if act.pay in payments(state.me, c, comp, loose)), costs[0])
    state = state.with_player(state.seat, pay(state.me, cost, act.pay, comp, loose))
    # Pushed first, so they resolve after the action's own rewards.
    state = push(state, flowers.benefits(comp, state.me, act.action, colour))
    return _DO[act.action](state, comp, act.target, colour)


def _do_hearts(state: State, comp: Components, target: tuple[int, ...], colour: str) -> State:
    i, (zone, space) = ci(colour), target
    me = state.me
    token = comp.hearts[colour][me.hearts[i]]
    bushes = me.bushes[i] + 1
    spaces = set_at(state.garden[i][zone], space, True)
    garden = set_at(state.garden, i, set_at(state.garden[i], zone, spaces))
    gardener = -1 if all(spaces) else zone
    state = evolve(state, garden=garden, gardeners=set_pair(state.gardeners, colour, gardener))
    state = state.with_me(
        hearts=set_pair(me.hearts, colour, me.hearts[i] + 1),
        bushes=set_pair(me.bushes, colour, bushes),
    )
    return push(
        state,
        tasks(token.reward, colour)
        + tasks(comp.garden[colour][zone][space], colour)
        + tasks(comp.heart_milestones.get(bushes), colour),
    )


def _step(state: State, comp: Components, colour: str, came: int, to: int) -> State:
    """Cross the arrow from `came` into `to`: seals, the central zone, the bifurcation."""
    space, before = comp.messengers[to], comp.messengers[came]
    got: tuple[Task, ...] = ()
    if space.seal_large is not None:
        first = (ci(colour), to) not in state.seals
        got += tasks(space.seal_large if first else space.seal_small, colour)
        if first:
            state = evolve(state, seals=(*state.seals, (ci(colour), to)))
    if space.central and not before.central:
        got += (Task("alice", colour),)
    if space.bifurcation:
        got += (Task("mini"),)
    return push(state, got)


def _do_spades(state: State, comp: Components, target: tuple[int, ...], colour: str) -> State:
    me = state.me
    came = me.messengers[ci(colour)]
    state = state.with_me(
        messengers=set_pair(me.messengers, colour, target[-1]),
        messenger_steps=me.messenger_steps + len(target),
    )
    end = comp.messengers[target[-1]]
    got = tasks(end.reward, colour)
    if end.banner:
        got += (Task("cardreward", colour, end.banner),)
    if not end.next:
        got += (Task("crown", colour),)
    state = push(state, got)
    for to in reversed(target):  # pushed in reverse so the first arrow resolves first
        before = came if to == target[0] else target[target.index(to) - 1]
        state = _step(state, comp, colour, before, to)
    return state


def _do_clubs(state: State, comp: Components, target: tuple[int, ...], colour: str) -> State:
    i, arrow = ci(colour), comp.arrows[target[0]]
    space = comp.tree[arrow.end]
    state = state.with_me(twins=set_pair(state.me.twins, colour, arrow.end))
    got = tasks(space.reward, colour)
    if state.tree_books[i][arrow.end]:
        books = set_at(state.tree_books, i, set_at(state.tree_books[i], arrow.end, False))
        state = evolve(state, tree_books=books)
        got = (Task("book", arg=comp.book_colours[0]), *got)
    else:
        got += tasks(space.covered, colour)
    if comp.tree[arrow.start].height <= 2 < space.height:
        got += (Task("alice", colour),)
    if not any(a.start == arrow.end for a in comp.arrows):
        got += (Task("crown", colour),)
    return push(state, (*got, Task("bookmark", colour)))


def _do_diamonds(state: State, comp: Components, target: tuple[int, ...], colour: str) -> State:
    i, (column, token) = ci(colour), target
    row = lowest_free(state, colour, column)
    assert row is not None
    built = set_at(state.wall[i][row], column, True)
    state = evolve(state, wall=set_at(state.wall, i, set_at(state.wall[i], row, built)))
    me = state.me
    bricks = me.bricks[i] + 1
    state = state.with_me(
        diamonds=set_pair(me.diamonds, colour, (*me.diamonds[i], token)),
        bricks=set_pair(me.bricks, colour, bricks),
    )
    ip = comp.same_level_ip if row == state.eggs[i] else 0
    if all(built):
        ip += comp.row_complete_ip
        egg = min(max(state.eggs[i], row + 1), len(comp.wall_row_cost) - 1)
        state = evolve(state, eggs=set_pair(state.eggs, colour, egg))
    milestone = (
        comp.heart_milestones.get(bricks)
        if comp.readings["blank_diamond_milestones"] == "as_hearts"
        else None
    )
    got = (
        tasks(comp.diamonds[colour][token], colour)
        + tasks(comp.wall[colour][row][column], colour)
        + tasks(Reward(ip=ip), colour)
        + tasks(milestone, colour)
    )
    return push(state, got)


_DO = {"hearts": _do_hearts, "spades": _do_spades, "clubs": _do_clubs, "diamonds": _do_diamonds}


# -- Mini-actions ----------------------------------------------------------------------------


def mini_options(state: State, comp: Components) -> list[Act]:
    """Every Mini-action the player to move may take now (all free)."""
    me, out = state.me, []
    for i, colour in enumerate(COLOURS):
        if me.hearts[i] < comp.tokens("hearts", colour, state.players):
            out.append(Act("hearts", (i,), FREE))
        out.extend(Act("spades", (i, nxt), FREE) for nxt in comp.messengers[me.messengers[i]].next)
        out.extend(
            Act("clubs", (i, a), FREE)
            for a, arrow in enumerate(comp.arrows)
            if arrow.start == me.twins[i] and arrow.black
        )
        out.extend(Act("diamonds", (i, t), FREE) for t in _free_diamonds(state, comp, colour))
    return out


def perform_mini(state: State, comp: Components, act: Act) -> State:
    colour = COLOURS[act.target[0]]
    i, me = act.target[0], state.me
    if act.action == "hearts":
        token = comp.hearts[colour][me.hearts[i]]
        state = state.with_me(hearts=set_pair(me.hearts, colour, me.hearts[i] + 1))
        return push(state, tasks(token.reward, colour))
    if act.action == "diamonds":
        diamond = act.target[1]
        state = state.with_me(diamonds=set_pair(me.diamonds, colour, (*me.diamonds[i], diamond)))
        return push(state, tasks(comp.diamonds[colour][diamond], colour))
    if act.action == "spades":
        return _do_spades(state, comp, act.target[1:], colour)
    return _do_clubs(state, comp, act.target[1:], colour)


assert set(_DO) == set(ACTIONS)
