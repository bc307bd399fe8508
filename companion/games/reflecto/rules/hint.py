"""The hint: the fewest own moves that remove all of a seat's letters in order, if the
opponent's screens stood still.

Breadth-first search over the seat's own moves, using the one move generator
(`Position.moves`). A node is where the seat's screens stand and how many letters are off;
after each move the search branches on removing none, one, two... of the letters that may
then be lifted off (keeping a letter on the last line can serve as a stepping stone), so the
answer is exact. Removals before a turn's move are the previous turn's removals after it,
so they need no branch of their own. The search space grows fast with distance from the
goal: it stops at a budget of states or seconds and then reports the depth it proved
("at least N moves") instead of a plan.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from companion.games.reflecto.rules.board import Cell
from companion.games.reflecto.rules.position import LETTER, Move, Placed, Position

MAX_STATES = 200_000
MAX_SECONDS = 5.0

Node = tuple[tuple[Cell | None, ...], int]
"""Cells of the seat's screens (None: removed), and the number of letters removed."""


@dataclass(frozen=True)
class Hint:
    seat: int
    moves: int | None  # None: not found within the budget (or impossible)
    plan: tuple[Move, ...] = ()  # the moves; removals are made whenever they are open
    at_least: int = 0  # a proven lower bound when `moves` is None
    states: int = 0
    seconds: float = 0.0
    complete: bool = True  # the search ran to its end (False: the budget stopped it)
    removals_after: tuple[tuple[str, ...], ...] = field(default=())
    """After each move of the plan, the screens to remove (in order) before the turn ends;
    the first entry is what to remove before the first move."""

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "moves": self.moves,
            "plan": [m.to_json() for m in self.plan],
            "removals": [list(r) for r in self.removals_after],
            "at_least": self.at_least,
            "states": self.states,
            "seconds": round(self.seconds, 4),
            "complete": self.complete,
        }


def hint(position: Position, seat: int, order: list[str],
         max_states: int = MAX_STATES, max_seconds: float = MAX_SECONDS) -> Hint:
    """`order`: the seat's letter screens still on the board, in word order (ids)."""
    started = time.perf_counter()
    own = [s for s in position.screens if s.owner == seat]
    others = tuple(s for s in position.screens if s.owner != seat)
    index = {s.id: i for i, s in enumerate(own)}
    letters = [index[i] for i in order]
    kinds = [s.kind for s in own]
    last = position.last_row(seat)

    def at(node: Node) -> Position:
        cells, done = node
        placed = tuple(Placed(own[i].id, seat, kinds[i], c)
                       for i, c in enumerate(cells) if c is not None)
        nxt = own[letters[done]].id if done < len(letters) else None
        pair = (nxt, None) if seat == 0 else (None, nxt)
        return Position(position.rows, position.cols, seat, others + placed, pair)

    def lift(node: Node) -> list[tuple[Node, tuple[str, ...]]]:
        """The node with 0, 1, 2... letters lifted off the last line, in order."""
        out = [(node, ())]
        cells, done = node
        lifted: tuple[str, ...] = ()
        while done < len(letters) and cells[letters[done]] is not None \
                and cells[letters[done]][0] == last:  # type: ignore[index]
            i = letters[done]
            cells = (*cells[:i], None, *cells[i + 1:])
            done += 1
            lifted = (*lifted, own[i].id)  # type: ignore[arg-type]
            out.append(((cells, done), lifted))
        return out

    def result(goal: Node, depth: int) -> Hint:
        plan: list[Move] = []
        lifts: list[tuple[str, ...]] = []
        node: Node | None = goal
        while node is not None and parent[node] is not None:
            prev, move, lifted = parent[node]  # type: ignore[misc]
            plan.append(move)
            lifts.append(lifted)
            node = prev
        start_lift = root_lift[node] if node is not None else ()
        return Hint(seat, depth, tuple(reversed(plan)), depth, len(parent),
                    time.perf_counter() - started, True,
                    (start_lift, *reversed(lifts)))

    start: Node = (tuple(s.cell for s in own), 0)
    parent: dict[Node, tuple[Node, Move, tuple[str, ...]] | None] = {}
    root_lift: dict[Node, tuple[str, ...]] = {}
    frontier: deque[Node] = deque()
    for node, lifted in lift(start):
        parent[node] = None
        root_lift[node] = lifted
        frontier.append(node)
        if node[1] == len(letters):
            return result(node, 0)
    depth = 0
    while frontier:
        depth += 1
        nxt_frontier: deque[Node] = deque()
        for node in frontier:
            pos = at(node)
            for move in pos.moves(seat):
                i = index[move.screen]
                cells, done = node
                cells = (*cells[:i], move.to, *cells[i + 1:])
                if move.to is None:
                    done += 1
                for child, lifted in lift((cells, done)):
                    if child in parent:
                        continue
                    parent[child] = (node, move, lifted)
                    if child[1] == len(letters):
                        return result(child, depth)
                    nxt_frontier.append(child)
            if len(parent) > max_states or time.perf_counter() - started > max_seconds:
                return Hint(seat, None, at_least=depth, states=len(parent),
                            seconds=time.perf_counter() - started, complete=False)
        frontier = nxt_frontier
    return Hint(seat, None, at_least=depth, states=len(parent),
                seconds=time.perf_counter() - started, complete=True)


def letter_order(screens: list[Any]) -> list[str]:
    """Ids of letter screens still on the board, in word order (objects with id/kind/rank/cell)."""
    left = [s for s in screens if s.kind == LETTER and s.cell is not None]
    return [s.id for s in sorted(left, key=lambda s: s.rank)]
