"""The fewest swaps that make the window show a wanted card: exhaustive, and fast.

Why it is fast: instead of trying every arrangement three swaps away (tens of thousands),
it first lists every way light *could* run from the window to the wanted card — a path
fixes a few crossings (these must hold this mirror, those must be empty) and leaves the
rest free. Such a list depends only on the window, the wanted card and the mirror model,
so it is computed once and cached. For each path a swap fixes at most one crossing that
needs a piece out and one that needs a piece in, so max(needs-out, needs-in) is a lower
bound on the swaps still needed; a depth-first search over real, legal swaps (occupied
crossings, the door's limit, at least one mirror swap) expands only moves that keep this
bound within the swaps left, and when the bound is tight only moves that touch a crossing
in need. Pruning by a lower bound never cuts off a solution, so the search stays exhaustive:
it returns every final arrangement reachable with the fewest swaps. `bruteforce.py` checks
this against plain enumeration.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

from companion.games.mirror_mansion.rules.actions import Swap
from companion.games.mirror_mansion.rules.board import DELTA, Board, Cell, load_board
from companion.games.mirror_mansion.rules.optics import (
    DOOR_CODES,
    EMPTY_CODE,
    MIRROR_CODES,
    TRANSFER,
    BoardState,
    Door,
    Mirror,
    code_piece,
)

Requirement = tuple[frozenset[int] | None, ...]
"""Per crossing (row by row): None if anything may be there, else the allowed codes."""

EMPTY_ONLY = frozenset({EMPTY_CODE})
_OTHER_DOOR = {5: 6, 6: 5}


@dataclass(frozen=True)
class Way:
    """One arrangement the player can reach with the fewest swaps, and swaps that reach it."""

    swaps: tuple[Swap, ...]
    result: BoardState


@dataclass(frozen=True)
class Solution:
    want: str
    swaps: int | None  # the fewest swaps, None when impossible within the rules
    ways: tuple[Way, ...]
    reason: str | None = None  # why it is impossible


@dataclass(frozen=True)
class _Goal:
    """A path's requirement compiled into lookup tables for the search."""

    req: Requirement
    needs_in: tuple[tuple[int, ...], ...]  # [cell][code] 1 if a piece must be put there
    needs_out: tuple[tuple[int, ...], ...]  # [cell][code] 1 if that piece must leave

    @classmethod
    def of(cls, req: Requirement) -> _Goal:
        codes = range(7)
        needs_in = tuple(
            tuple(int(r is not None and r != EMPTY_ONLY and c not in r) for c in codes) for r in req
        )
        needs_out = tuple(
            tuple(int(r is not None and c != EMPTY_CODE and c not in r) for c in codes) for r in req
        )
        return cls(req, needs_in, needs_out)

    def bound(self, codes: tuple[int, ...]) -> tuple[int, int]:
        t = sum(self.needs_in[i][c] for i, c in enumerate(codes))
        s = sum(self.needs_out[i][c] for i, c in enumerate(codes))
        return t, s


@dataclass
class Solver:
    board: Board = field(default_factory=load_board)
    _goals: dict[tuple[str, bool, int], dict[str, list[_Goal]]] = field(default_factory=dict)

    @cached_property
    def _cells(self) -> tuple[tuple[int, int], ...]:
        return self.board.cells

    @cached_property
    def _index(self) -> dict[tuple[int, int], int]:
        return {cell: i for i, cell in enumerate(self.board.cells)}

    # --- the paths light could take -----------------------------------------------------

    def goals(self, window: str, two_sided: bool, mirrors: int) -> dict[str, list[_Goal]]:
        """Wanted position -> every requirement that makes the window show it."""
        key = (window, two_sided, mirrors)
        if key not in self._goals:
            found: dict[str, list[_Goal]] = {}
            for pos, req in self._paths(window, two_sided, mirrors):
                found.setdefault(pos, []).append(_Goal.of(req))
            self._goals[key] = found
        return self._goals[key]

    def _paths(
        self, window: str, two_sided: bool, mirrors: int
    ) -> Iterator[tuple[str, Requirement]]:
        table = TRANSFER[two_sided]
        b = self.board
        req: list[frozenset[int] | None] = [None] * len(b.cells)

        def leave(
            cell: tuple[int, int], out: int, used: int, seen: frozenset[tuple[Cell, int]]
        ) -> Iterator[tuple[str, Requirement]]:
            pos = b.exit_position(cell, out)
            if pos is None:
                nxt = (cell[0] + DELTA[out][0], cell[1] + DELTA[out][1])
                yield from walk(nxt, out, used, seen)
            elif pos != window and used > 0:  # the rules want a mirror in line: >= 1 bounce
                yield pos, tuple(req)

        def walk(
            cell: tuple[int, int], d: int, used: int, seen: frozenset[tuple[Cell, int]]
        ) -> Iterator[tuple[str, Requirement]]:
            if (cell, d) in seen:
                return
            seen = seen | {(cell, d)}
            i = self._index[cell]
            allowed = req[i]
            if allowed is not None:
                (out,) = {table[c][d] for c in allowed}  # equivalent codes act alike
                if out >= 0:
                    yield from leave(cell, out, used, seen)
                return
            req[i] = EMPTY_ONLY
            yield from leave(cell, d, used, seen)
            if used < mirrors:
                by_out: dict[int, set[int]] = {}
                for c in MIRROR_CODES:
                    out = table[c][d]
                    if out >= 0 and out != d:
                        by_out.setdefault(out, set()).add(c)
                for out, codes in sorted(by_out.items()):
                    # Two-sided: both facings of a slot turn the view alike; either will do.
                    same = {c for c in MIRROR_CODES if table[c] == table[min(codes)]}
                    req[i] = frozenset(same)
                    yield from leave(cell, out, used + 1, seen)
            req[i] = None

        start, d = b.entry(window)
        yield from walk(start, d, 0, frozenset())

    # --- the search ---------------------------------------------------------------------

    def solve(
        self,
        state: BoardState,
        want: str,
        *,
        door_movable: bool = False,
        max_swaps: int | None = None,
    ) -> Solution:
        """Every arrangement the fewest legal swaps (at most `max_swaps`) can reach in which
        the window shows card position `want`."""
        b = self.board
        limit = b.max_swaps if max_swaps is None else max_swaps
        if want == state.window:
            return Solution(want, None, (), "the window cannot look at itself")
        start = state.codes(b)
        door_cell = None if state.door is None else self._index[state.door.cell]
        goals = []
        for g in self.goals(state.window, state.two_sided, len(state.mirrors)).get(want, []):
            if door_cell is not None and not door_movable and g.req[door_cell] is not None:
                continue  # the fixed door stands on this path
            goals.append(g)
        for depth in range(1, limit + 1):
            found: dict[tuple[int, ...], tuple[tuple[int, int, int], ...]] = {}
            for g in goals:
                t, s = g.bound(start)
                if max(t, s) <= depth:
                    self._search(g, start, False, 0, t, s, depth, (), found, set(), door_movable)
            if found:
                ways = tuple(self._way(state, start, moves) for _, moves in sorted(found.items()))
                return Solution(want, depth, ways)
        return Solution(want, None, (), f"no way within {limit} swaps")

    def _search(
        self,
        g: _Goal,
        codes: tuple[int, ...],
        mirror_moved: bool,
        door_moves: int,
        t: int,
        s: int,
        left: int,
        moves: tuple[tuple[int, int, int], ...],
        found: dict[tuple[int, ...], tuple[tuple[int, int, int], ...]],
        seen: set[tuple[object, ...]],
        door_movable: bool,
    ) -> None:
        """Extend `moves` by every swap that keeps the bound within the swaps left.

        Two swaps on four different crossings commute, so of the orders of such a pair only
        the one with the smaller swap first is followed (every set of final arrangements is
        still reached: any sequence can be sorted into that form by exchanging neighbouring
        commuting swaps). `seen` skips a node reached again by dependent swaps.
        """
        need_in, need_out = g.needs_in, g.needs_out
        only_out = s == left  # every swap left must take a piece out of a needy crossing
        only_in = t == left  # ... or put one into a needy crossing
        last = moves[-1] if moves else None
        empties = [i for i, c in enumerate(codes) if c == EMPTY_CODE]
        for src, a in enumerate(codes):
            if a == EMPTY_CODE or (only_out and not need_out[src][a]):
                continue
            is_door = a in _OTHER_DOOR
            if is_door and (not door_movable or door_moves >= self.board.max_door_swaps):
                continue
            t_src = t - need_in[src][a] + need_in[src][EMPTY_CODE]
            s_src = s - need_out[src][a]
            for dst in (src, *empties):
                if only_in and not need_in[dst][codes[dst]]:
                    continue
                commutes = last is not None and not {src, dst} & {last[0], last[1]}
                if is_door:
                    options: tuple[int, ...] = (
                        (_OTHER_DOOR[a],) if dst == src else tuple(DOOR_CODES.values())
                    )
                else:
                    options = MIRROR_CODES
                for m in options:
                    if dst == src:
                        if m == a:
                            continue
                        t2 = t - need_in[src][a] + need_in[src][m]
                        s2 = s - need_out[src][a] + need_out[src][m]
                    else:
                        t2 = t_src - need_in[dst][EMPTY_CODE] + need_in[dst][m]
                        s2 = s_src + need_out[dst][m]
                    if t2 >= left or s2 >= left:
                        continue
                    move = (src, dst, m)
                    if commutes and last is not None and move < last:
                        continue
                    new = list(codes)
                    new[src] = EMPTY_CODE if dst != src else m
                    new[dst] = m
                    final = tuple(new)
                    if left == 1:  # the last swap: record instead of recursing (hot path)
                        if (mirror_moved or not is_door) and final not in found:
                            found[final] = (*moves, move)
                        continue
                    flag = mirror_moved or not is_door
                    key = (final, flag, door_moves + is_door, left - 1, move)
                    if key in seen:
                        continue
                    seen.add(key)
                    self._search(
                        g,
                        final,
                        flag,
                        door_moves + is_door,
                        t2,
                        s2,
                        left - 1,
                        (*moves, move),
                        found,
                        seen,
                        door_movable,
                    )

    def _way(
        self, state: BoardState, start: tuple[int, ...], moves: tuple[tuple[int, int, int], ...]
    ) -> Way:
        cells = self._cells
        swaps = []
        for src, dst, m in moves:
            _, slot, facing = code_piece(m)
            swaps.append(Swap(cells[src], cells[dst], slot, facing))
        codes = list(start)
        for src, dst, m in moves:
            codes[src] = EMPTY_CODE
            codes[dst] = m
        mirrors, door = [], None
        for cell, c in zip(cells, codes, strict=True):
            if c == EMPTY_CODE:
                continue
            kind, slot, facing = code_piece(c)
            if kind == "door":
                door = Door(cell, slot)
            else:
                assert facing is not None
                mirrors.append(Mirror(cell, slot, facing))
        result = BoardState(tuple(mirrors), state.window, door, state.two_sided, state.cards)
        return Way(tuple(swaps), result)


_DEFAULT: dict[int, Solver] = {}


def solve(
    state: BoardState,
    want: str,
    *,
    door_movable: bool = False,
    board: Board | None = None,
    max_swaps: int | None = None,
) -> Solution:
    """Module-level convenience with a cached Solver per board."""
    board = board or load_board()
    solver = _DEFAULT.get(id(board))
    if solver is None or solver.board is not board:
        solver = _DEFAULT[id(board)] = Solver(board)
    return solver.solve(state, want, door_movable=door_movable, max_swaps=max_swaps)
