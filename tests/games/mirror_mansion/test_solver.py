"""The swap solver: hand-checked answers, every way legal at the table, and brute force agrees."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.games.mirror_mansion.rules import engine as R
from companion.games.mirror_mansion.rules.actions import EndSwaps, Setup, SwapWindow
from companion.games.mirror_mansion.rules.board import FACINGS, SLOTS, load_board
from companion.games.mirror_mansion.rules.bruteforce import brute_force
from companion.games.mirror_mansion.rules.optics import BoardState, Door, Mirror, trace
from companion.games.mirror_mansion.rules.solver import solve

BOARD = load_board()
ENGINE = R.ENGINE
# Nothing in row 1 or column 2.
MIRRORS = (
    Mirror((0, 0), "/", "NW"),
    Mirror((0, 1), "\\", "NE"),
    Mirror((2, 0), "/", "SE"),
    Mirror((2, 1), "\\", "SW"),
)


def random_state(rng: random.Random, door: bool, two_sided: bool) -> BoardState:
    cells = rng.sample(list(BOARD.cells), 5 if door else 4)
    mirrors = []
    for cell in cells[:4]:
        slot = rng.choice(SLOTS)
        mirrors.append(Mirror(cell, slot, rng.choice(FACINGS[slot])))
    d = Door(cells[4], rng.choice(SLOTS)) if door else None
    return BoardState(tuple(mirrors), rng.choice(BOARD.positions), d, two_sided)


def test_one_mirror_into_line_shows_the_card_below() -> None:
    sol = solve(BoardState(MIRRORS, "E1"), "S2")
    assert sol.swaps == 1
    # Any of the four mirrors, moved to (1,2) facing south-east; nothing else does it.
    assert len(sol.ways) == 4
    for way in sol.ways:
        (swap,) = way.swaps
        assert (swap.target, swap.slot, swap.facing) == ((1, 2), "/", "SE")
        assert trace(way.result).seen == "S2"
    assert {w.swaps[0].source for w in sol.ways} == {m.cell for m in MIRRORS}


def test_already_seen_still_needs_a_mirror_swap() -> None:
    start = BoardState((*MIRRORS[1:], Mirror((1, 2), "/", "SE")), "E1")
    assert trace(start).seen == "S2"
    sol = solve(start, "S2")
    assert sol.swaps == 1 and sol.ways
    assert all(w.result.mirrors != start.mirrors for w in sol.ways)
    assert all(trace(w.result).seen == "S2" for w in sol.ways)


def test_a_fixed_door_can_make_it_impossible_and_moving_it_helps() -> None:
    state = BoardState(
        (
            Mirror((0, 0), "\\", "NE"),
            Mirror((1, 0), "/", "SE"),
            Mirror((1, 2), "/", "NW"),
            Mirror((2, 0), "/", "NW"),
        ),
        "S0",
        Door((0, 2), "/"),  # every view that reaches N2 passes through (0,2)
    )
    fixed = solve(state, "N2")
    assert fixed.swaps is None and fixed.ways == () and fixed.reason
    movable = solve(state, "N2", door_movable=True)
    assert movable.swaps is not None
    assert all(w.result.door is None or w.result.door.cell != (0, 2) for w in movable.ways)


def test_the_window_cannot_be_wanted() -> None:
    sol = solve(BoardState(MIRRORS, "E1"), "E1")
    assert sol.swaps is None and "itself" in sol.reason


def test_every_way_is_legal_when_played_through_the_engine() -> None:
    rng = random.Random(5)
    checked = 0
    while checked < 6:
        board = random_state(rng, door=False, two_sided=False)
        want = rng.choice([p for p in BOARD.positions if p != board.window])
        sol = solve(board, want)
        if sol.swaps is None:
            continue
        for way in sol.ways[:5]:
            s = _engine_at_swaps(board)
            for swap in way.swaps:
                s = ENGINE.apply(s, swap)
            s = ENGINE.apply(s, EndSwaps())  # the end-of-swap rules hold
            assert ENGINE.prediction(s).seen == want
            assert s.board.mirrors == way.result.mirrors
        checked += 1


def _engine_at_swaps(board: BoardState):
    """An engine state at the swaps with `board` on the table (set-up, window, die skipped)."""
    cards = dict(zip(BOARD.positions, [*BOARD.cards, BOARD.window_card], strict=True))
    s = ENGINE.new_game(2)
    s = ENGINE.apply(s, Setup(tuple(sorted(cards.items())), board.mirrors, 0))
    s = ENGINE.apply(s, SwapWindow(BOARD.positions[0]))
    table = replace(s.board, mirrors=board.mirrors, window=board.window, door=None, cards={})
    return replace(s, phase=R.SWAPS, sought=BOARD.motifs[0], board=table)


@pytest.mark.parametrize("seed", range(8))
def test_solver_agrees_with_brute_force_up_to_two_swaps(seed: int) -> None:
    rng = random.Random(seed)
    door, two_sided = seed % 3 == 1, seed % 4 == 3
    state = random_state(rng, door, two_sided)
    for want in rng.sample([p for p in BOARD.positions if p != state.window], 3):
        sol = solve(state, want, door_movable=door, max_swaps=2)
        depth, finals = brute_force(state, want, door_movable=door, max_swaps=2)
        assert sol.swaps == depth
        assert {(w.result.mirrors, w.result.door) for w in sol.ways} == finals


def test_solver_agrees_with_brute_force_at_three_swaps() -> None:
    # Window S0, wanted N0 straight across: the rules want a mirror in line, so the view
    # must wind round, and with these mirrors that takes three swaps (found by brute force
    # in a few seconds; the solver in milliseconds).
    state = BoardState(
        (
            Mirror((0, 0), "/", "SE"),
            Mirror((1, 0), "/", "NW"),
            Mirror((1, 2), "/", "NW"),
            Mirror((2, 0), "\\", "NE"),
        ),
        "S0",
    )
    sol = solve(state, "N0")
    depth, finals = brute_force(state, "N0")
    assert sol.swaps == depth == 3
    assert {(w.result.mirrors, w.result.door) for w in sol.ways} == finals
    assert trace(sol.ways[0].result).bounces >= 2
