"""Plain breadth-first enumeration of swaps, to check the solver against (tests, benchmark).

Deliberately naive and independent of the solver: it builds every arrangement that one,
two, three legal swaps reach (as BoardState objects), traces each with the optics, and
applies the end-of-swaps rules directly. Seconds per position at depth three, so it is
for samples, never for the table.
"""

from __future__ import annotations

from collections.abc import Iterator

from companion.games.mirror_mansion.rules.board import FACINGS, SLOTS, Board, load_board
from companion.games.mirror_mansion.rules.optics import (
    BoardState,
    Door,
    Mirror,
    in_line_mirrors,
    trace,
)

Node = tuple[BoardState, bool, int]  # arrangement, a mirror was swapped, door swaps so far


def moves(node: Node, board: Board, door_movable: bool) -> Iterator[Node]:
    """Every arrangement one swap away, spelt out square by square, so the solver's own
    move generation has an independent one to be checked against."""
    state, mirror_moved, door_moves = node
    taken = set(state.pieces())
    for mirror in state.mirrors:
        others = tuple(m for m in state.mirrors if m != mirror)
        for cell in board.cells:
            if cell in taken and cell != mirror.cell:
                continue
            for slot in SLOTS:
                for facing in FACINGS[slot]:
                    moved = Mirror(cell, slot, facing)
                    if moved != mirror:
                        yield (
                            BoardState(
                                (*others, moved),
                                state.window,
                                state.door,
                                state.two_sided,
                                state.cards,
                            ),
                            True,
                            door_moves,
                        )
    door = state.door
    if door_movable and door is not None and door_moves < board.max_door_swaps:
        for cell in board.cells:
            if cell in taken and cell != door.cell:
                continue
            for slot in SLOTS:
                if (cell, slot) != (door.cell, door.slot):
                    yield (
                        BoardState(
                            state.mirrors,
                            state.window,
                            Door(cell, slot),
                            state.two_sided,
                            state.cards,
                        ),
                        mirror_moved,
                        door_moves + 1,
                    )


def _key(node: Node) -> tuple[object, ...]:
    state, mirror_moved, door_moves = node
    return (state.mirrors, state.door, mirror_moved, door_moves)


def brute_force(
    state: BoardState,
    want: str,
    *,
    door_movable: bool = False,
    board: Board | None = None,
    max_swaps: int | None = None,
) -> tuple[int | None, set[tuple[tuple[Mirror, ...], Door | None]]]:
    """(fewest swaps or None, every final (mirrors, door) reached with that many)."""
    board = board or load_board()
    limit = board.max_swaps if max_swaps is None else max_swaps
    level: dict[tuple[object, ...], Node] = {_key((state, False, 0)): (state, False, 0)}
    for depth in range(1, limit + 1):
        nxt: dict[tuple[object, ...], Node] = {}
        for node in level.values():
            for child in moves(node, board, door_movable):
                nxt.setdefault(_key(child), child)
        finals = set()
        for s, mirror_moved, _ in nxt.values():
            if not mirror_moved or not in_line_mirrors(s, board):
                continue
            if trace(s, board).seen == want:
                finals.add((s.mirrors, s.door))
        if finals:
            return depth, finals
        level = nxt
    return None, set()
