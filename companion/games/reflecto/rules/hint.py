"""The hint: the fewest own moves that remove all of a seat's letters in order, if the
opponent's screens stood still.

Breadth-first search over the seat's own moves, using the one move generator
(`Position.moves`). A node is where the seat's screens stand and how many letters are off;
after each move the search branches on removing none, one, two... of the letters that may
then be lifted off (keeping a letter on the last line can serve as a stepping stone), so the
answer is exact. Removals before a turn's move are the previous turn's removals after it,
so they need no branch of their own.

The search space grows fast with the distance to the goal (some 30 moves a position): the
breadth-first search proves the fewest moves only near the end of a game. When it runs out
of half its budget it reports a bound ("at least N moves") and spends the rest on a greedy
best-first search (fewest rows still to go first), whose plan is a way.

What a hint guarantees:
- `proven` True: no plan has fewer moves (the opponent standing still).
- `at_least`: no plan has fewer moves than this. It is the larger of the depth the
  breadth-first search finished and the number of letters not yet on the last line (a move
  moves one screen, and a letter leaves only from the last line or by a jump that is itself
  a move). A greedy plan no longer than that bound is proven the shortest too.
- `moves` with `proven` False: a way that works, not known to be the shortest.
"""

from __future__ import annotations

import heapq
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.reflecto.rules.board import Cell
from companion.games.reflecto.rules.position import LETTER, Move, Placed, Position, ScreenId

MAX_STATES = 200_000
MAX_SECONDS = 5.0

Node = tuple[tuple[Cell | None, ...], int]
"""Cells of the seat's screens (None: removed), and the number of letters removed."""
Lifted = tuple[ScreenId, ...]


@dataclass(frozen=True)
class Hint:
    seat: int
    moves: int | None  # moves in the plan; None: no plan found
    plan: tuple[Move, ...] = ()
    removals_after: tuple[Lifted, ...] = ()
    """What to lift off before the first move, then after each move of the plan."""
    proven: bool = True  # the plan has the fewest moves possible
    at_least: int = 0  # the fewest moves any plan can have, as far as proven
    states: int = 0
    seconds: float = 0.0
    complete: bool = True  # the search ran to its end (False: the budget stopped it)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "moves": self.moves,
            "plan": [m.to_json() for m in self.plan],
            "removals": [list(r) for r in self.removals_after],
            "proven": self.proven,
            "at_least": self.at_least,
            "states": self.states,
            "seconds": round(self.seconds, 4),
            "complete": self.complete,
        }


class _Search:
    """The seat's own moves from one position, as nodes and children."""

    def __init__(self, position: Position, seat: int, order: Sequence[ScreenId]) -> None:
        self.position, self.seat = position, seat
        self.own = [s for s in position.screens if s.owner == seat]
        self.others = tuple(s for s in position.screens if s.owner != seat)
        self.index = {s.id: i for i, s in enumerate(self.own)}
        self.letters = [self.index[i] for i in order]
        self.last = position.last_row(seat)

    def root(self) -> Node:
        return (tuple(s.cell for s in self.own), 0)

    def done(self, node: Node) -> bool:
        return node[1] == len(self.letters)

    def at(self, node: Node) -> Position:
        cells, done = node
        placed = tuple(
            Placed(self.own[i].id, self.seat, self.own[i].kind, c)
            for i, c in enumerate(cells)
            if c is not None
        )
        nxt = self.own[self.letters[done]].id if done < len(self.letters) else None
        pair = (nxt, None) if self.seat == 0 else (None, nxt)
        p = self.position
        return Position(p.rows, p.cols, self.seat, self.others + placed, pair)

    def lift(self, node: Node) -> list[tuple[Node, Lifted]]:
        """The node with 0, 1, 2... letters lifted off the last line, in order."""
        out: list[tuple[Node, Lifted]] = [(node, ())]
        cells, done = node
        lifted: Lifted = ()
        while done < len(self.letters):
            i = self.letters[done]
            cell = cells[i]
            if cell is None or cell[0] != self.last:
                break
            cells = (*cells[:i], None, *cells[i + 1 :])
            done += 1
            lifted = (*lifted, self.own[i].id)
            out.append(((cells, done), lifted))
        return out

    def children(self, node: Node) -> Iterator[tuple[Move, Lifted, Node]]:
        for move in self.at(node).moves(self.seat):
            i = self.index[move.screen]
            cells, done = node
            cells = (*cells[:i], move.to, *cells[i + 1 :])
            for child, lifted in self.lift((cells, done + (move.to is None))):
                yield move, lifted, child

    def moves_needed(self, node: Node) -> int:
        """A lower bound: each letter not on the last line must move at least once."""
        cells, done = node
        return sum(
            1 for i in self.letters[done:] if (c := cells[i]) is not None and c[0] != self.last
        )

    def rows_to_go(self, node: Node) -> int:
        cells, done = node
        return sum(
            abs(self.last - c[0]) + 1 for i in self.letters[done:] if (c := cells[i]) is not None
        )


Parents = dict[Node, tuple[Node, Move, Lifted] | None]


def _plan(
    parent: Parents, roots: dict[Node, Lifted], goal: Node
) -> tuple[tuple[Move, ...], tuple[Lifted, ...]]:
    moves: list[Move] = []
    lifts: list[Lifted] = []
    node = goal
    while (link := parent[node]) is not None:
        node, move, lifted = link
        moves.append(move)
        lifts.append(lifted)
    return tuple(reversed(moves)), (roots[node], *reversed(lifts))


def _way(
    seat: int,
    parent: Parents,
    roots: dict[Node, Lifted],
    goal: Node,
    at_least: int,
    states: int,
    started: float,
    complete: bool,
) -> Hint:
    """The hint that plays the way to `goal`: proven the shortest when it is no longer than
    `at_least`, the fewest moves the search has shown any way needs."""
    plan, lifts = _plan(parent, roots, goal)
    proven = len(plan) <= at_least
    return Hint(
        seat,
        len(plan),
        plan,
        lifts,
        proven,
        len(plan) if proven else at_least,
        states,
        time.perf_counter() - started,
        complete,
    )


def hint(
    position: Position,
    seat: int,
    order: Sequence[ScreenId],
    max_states: int = MAX_STATES,
    max_seconds: float = MAX_SECONDS,
) -> Hint:
    """`order`: the seat's letter screens still on the board, in word order (ids)."""
    started = time.perf_counter()
    search = _Search(position, seat, order)
    roots = dict(search.lift(search.root()))
    parent: Parents = dict.fromkeys(roots)

    def elapsed() -> float:
        return time.perf_counter() - started

    # Breadth first: a way found at depth d has d moves, and none has fewer.
    for node in roots:
        if search.done(node):
            return _way(seat, parent, roots, node, 0, len(parent), started, True)
    frontier: deque[Node] = deque(roots)
    depth = 0
    half_states, half_seconds = max_states // 2, max_seconds / 2
    while frontier:
        depth += 1
        level: deque[Node] = deque()
        for node in frontier:
            for move, lifted, child in search.children(node):
                if child in parent:
                    continue
                parent[child] = (node, move, lifted)
                if search.done(child):
                    return _way(seat, parent, roots, child, depth, len(parent), started, True)
                level.append(child)
            if len(parent) > half_states or elapsed() > half_seconds:
                bound = max(depth, min(search.moves_needed(n) for n in roots))
                return _best_first(
                    search, parent, roots, bound, max_states, max_seconds, started, seat
                )
        frontier = level
    return Hint(seat, None, at_least=depth, states=len(parent), seconds=elapsed())


def _best_first(
    search: _Search,
    proved: Parents,
    roots: dict[Node, Lifted],
    at_least: int,
    max_states: int,
    max_seconds: float,
    started: float,
    seat: int,
) -> Hint:
    """A way: expand the node with the fewest rows still to go. Proven the shortest only
    when it is no longer than `at_least`."""
    parent: Parents = dict.fromkeys(roots)
    count = len(proved)
    queue = [(search.rows_to_go(n), 0, i, n) for i, n in enumerate(roots)]
    heapq.heapify(queue)
    tick = len(queue)
    while queue and count < max_states and time.perf_counter() - started < max_seconds:
        _, g, _, node = heapq.heappop(queue)
        for move, lifted, child in search.children(node):
            if child in parent:
                continue
            parent[child] = (node, move, lifted)
            count += 1
            if search.done(child):
                return _way(seat, parent, roots, child, at_least, count, started, False)
            tick += 1
            heapq.heappush(queue, (search.rows_to_go(child), g + 1, tick, child))
    return Hint(
        seat,
        None,
        at_least=at_least,
        states=count,
        seconds=time.perf_counter() - started,
        complete=False,
    )


def letter_order(screens: list[Any]) -> list[str]:
    """Ids of letter screens still on the board, in word order (objects with id/kind/rank/cell)."""
    left = [s for s in screens if s.kind == LETTER and s.cell is not None]
    return [s.id for s in sorted(left, key=lambda s: s.rank)]
