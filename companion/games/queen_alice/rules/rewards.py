"""Resolving rewards: every `Reward` becomes a queue of `Task`s, resolved head first.

Tasks with nothing to choose resolve at once (`settle`); a task in `CHOICES` waits at the
head of the queue for the player's action. Rewards gained while resolving one are put in
front of the queue, so each reward is finished inside the action that gave it (the
rulebook's "Immediate Use" and "No Delay"). Reading: several rewards at once resolve in the
order they are printed (the rulebook lets the player choose; the order rarely matters and a
fixed one keeps every choice a real one).
"""

from __future__ import annotations

from companion.games.queen_alice.rules import track
from companion.games.queen_alice.rules.components import Components, Reward
from companion.games.queen_alice.rules.economy import gain_time, store, unlock_black
from companion.games.queen_alice.rules.state import State, Task, evolve, set_at

CHOICES = frozenset({"resource", "store", "row", "mini", "card", "cardreward", "cull", "bookmark"})
"""Tasks the player resolves with an action (`store` and `row` only when no cube is free)."""
STORING = frozenset({"store", "row"})
"""A resource to store; `row` is the landing row's, which the action may use unstored."""


def tasks(reward: Reward | None, colour: str) -> tuple[Task, ...]:
    """The tasks of `reward`; `colour` is the context's, unless the reward names one.

    With no colour at all (a wild card's play bonus when no piece could be activated) the
    pawprints, Alice Progress and Crowns have no track to go to and are not given."""
    if reward is None:
        return ()
    c = reward.colour or colour
    out: list[Task] = []
    out += [Task("time", arg=str(reward.time))] if reward.time else []
    out += [Task("ip", arg=str(reward.ip))] if reward.ip else []
    for res in ("cake", "tea", "toast"):
        out += [Task("store", arg=res)] * getattr(reward, res)
    out += [Task("resource")] * reward.resource
    out += [Task("black")] * reward.black
    if c:
        out += [Task("pawprint", c)] * reward.pawprint
        out += [Task("alice", c)] * reward.alice
        out += [Task("crown", c)] * reward.crown
    out += [Task("book", arg=reward.book)] if reward.book else []
    out += [Task("flower", arg=reward.flower)] if reward.flower else []
    out += [Task("card", arg=reward.card)] if reward.card else []
    out += [Task("cull")] * reward.cull
    out += [Task("mini")] * reward.mini
    return tuple(out)


def push(state: State, new: tuple[Task, ...]) -> State:
    return evolve(state, pending=new + state.pending) if new else state


def needs_choice(state: State) -> bool:
    if not state.pending:
        return False
    head = state.pending[0]
    return head.kind in CHOICES and not (head.kind in STORING and state.me.free_cubes() > 0)


def settle(state: State, comp: Components) -> State:
    """Resolve tasks from the head until one needs a choice or none is left."""
    while state.pending and not needs_choice(state):
        head, state = state.pending[0], evolve(state, pending=state.pending[1:])
        state = _resolve(state, comp, head)
    return state


def _resolve(state: State, comp: Components, task: Task) -> State:
    me = state.me
    if task.kind == "time":
        return state.with_player(state.seat, gain_time(me, int(task.arg), comp))
    if task.kind == "ip":
        return state.with_me(ip=me.ip + int(task.arg))
    if task.kind in STORING:
        return state.with_player(state.seat, store(me, task.arg))
    if task.kind == "black":
        return state.with_player(state.seat, unlock_black(me))
    if task.kind == "pawprint":
        state, reward = track.pawprint(state, comp, task.colour)
        return push(state, tasks(reward, task.colour))
    if task.kind == "alice":
        return track.progress(state, comp, task.colour)
    if task.kind == "crown":
        return track.gain_crown(state, comp, task.colour)
    if task.kind == "book":
        i = comp.book_colours.index(task.arg)
        return state.with_me(books=set_at(me.books, i, me.books[i] + 1))
    if task.kind == "flower":  # taken from the supply; none left, none taken
        i = list(comp.flowers).index(task.arg)
        if state.flowers_left[i] == 0:
            return state
        state = evolve(state, flowers_left=set_at(state.flowers_left, i, state.flowers_left[i] - 1))
        return state.with_me(flowers=tuple(sorted((*me.flowers, task.arg))))
    raise AssertionError(f"task {task.kind} is not automatic")
