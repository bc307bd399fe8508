"""The hint: fewest own moves to remove every letter in order, the opponent standing still."""

from __future__ import annotations

from companion.games.reflecto.rules.hint import hint
from companion.games.reflecto.rules.position import Move, Placed, Position

from .helpers import ENGINE, letter, mirror, placed


def follow(position: Position, seat: int, order: list[str], found) -> int:
    """Play the plan on the board; returns the letters left (0 when it works)."""
    left = list(order)

    def lift(pos: Position, ids: tuple[str, ...]) -> Position:
        for sid in ids:
            assert pos.removals(seat) == [sid]
            left.remove(sid)
            pos = Position(
                pos.rows,
                pos.cols,
                seat,
                tuple(s for s in pos.screens if s.id != sid),
                _next(seat, left),
            )
        return pos

    pos = lift(position, found.removals_after[0])
    for move, ids in zip(found.plan, found.removals_after[1:], strict=True):
        assert move in pos.moves(seat)
        if move.to is None:
            left.remove(move.screen)
        pos = pos.after(move)
        pos = Position(pos.rows, pos.cols, seat, pos.screens, _next(seat, left))
        pos = lift(pos, ids)
    return len(left)


def _next(seat: int, left: list[str]) -> tuple:
    nxt = left[0] if left else None
    return (nxt, None) if seat == 0 else (None, nxt)


def test_letters_already_on_the_last_line_need_no_move() -> None:
    state = placed(letter("A0", 0, (6, 0)), letter("A1", 1, (6, 4)), letter("B0", 0, (0, 0)))
    found = ENGINE.hint(state, 0)
    assert found.moves == 0 and found.removals_after == (("A0", "A1"),)


def test_two_steps_or_one_jump() -> None:
    state = placed(letter("A0", 0, (4, 3)), letter("B0", 0, (0, 0)))
    assert ENGINE.hint(state, 0).moves == 2
    # With a screen to jump over on row 5, one jump reaches the last line.
    state = placed(letter("A0", 0, (4, 3)), mirror("B6", (5, 3)), letter("B0", 0, (0, 0)))
    found = ENGINE.hint(state, 0)
    assert found.moves == 1 and found.plan == (Move("A0", (6, 3)),)


def test_a_kept_letter_serves_as_a_stepping_stone_and_the_plan_works() -> None:
    # The rulebook's example 2-2: N must go first; O already waits on the last line.
    state = placed(
        letter("A3", 3, (3, 2), "N"),
        letter("A4", 4, (6, 2), "O"),
        letter("B0", 0, (4, 2)),
        letter("B1", 1, (0, 0)),
        words=("PIANO", "LEMON"),
    )
    found = ENGINE.hint(state, 0)
    assert found.moves == 1  # N jumps B0 to (5, 2), then O to leave over the far edge
    position = state.position()
    assert follow(position, 0, ["A3", "A4"], found) == 0


def test_seat_one_races_the_other_way() -> None:
    state = placed(letter("B0", 0, (2, 3)), letter("A0", 0, (6, 6)), to_move=1)
    found = ENGINE.hint(state, 1)
    assert found.moves == 2 and all(m.to is None or m.to[0] < 2 for m in found.plan)


def test_past_its_budget_the_search_proves_a_bound_and_still_finds_a_way() -> None:
    seat0 = tuple(Placed(f"A{c}", 0, "letter", (0, c)) for c in range(7))
    seat1 = tuple(Placed(f"B{c}", 1, "letter", (6, c)) for c in range(7))
    position = Position(7, 7, 0, seat0 + seat1, ("A0", "B0"))
    order = [f"A{c}" for c in range(7)]
    found = hint(position, 0, order, max_states=4000)
    assert not found.proven and not found.complete and found.at_least >= 2
    assert found.moves is not None and found.moves >= found.at_least
    assert follow(position, 0, order, found) == 0  # the way works, move by move
    starved = hint(position, 0, order, max_states=50)
    assert starved.moves is None and starved.at_least >= 1


def test_a_greedy_plan_as_short_as_the_letters_off_the_last_line_is_proven() -> None:
    # Five letters one step from the last line, far from each other: five moves at least
    # (one per letter), and the budget stops the breadth-first search before depth 5.
    seat0 = tuple(Placed(f"A{c}", 0, "letter", (5, c)) for c in (0, 2, 4, 6))
    seat1 = (Placed("B0", 1, "letter", (0, 3)),)
    position = Position(7, 7, 0, seat0 + seat1, ("A0", "B0"))
    order = [f"A{c}" for c in (0, 2, 4, 6)]
    found = hint(position, 0, order, max_states=400)
    assert not found.complete  # the budget stopped the breadth-first search ...
    assert found.moves == 4 and found.proven and found.at_least == 4  # ... yet proven
    assert follow(position, 0, order, found) == 0
