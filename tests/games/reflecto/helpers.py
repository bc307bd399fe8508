"""Small builders for Reflecto's tests: a fixed 7x7 board and positions placed by hand."""

from __future__ import annotations

from typing import Any

from companion.games.reflecto.rules.actions import Action, Done, Remove, Setup, Step
from companion.games.reflecto.rules.board import Board
from companion.games.reflecto.rules.engine import ReflectoEngine
from companion.games.reflecto.rules.hint import letter_order
from companion.games.reflecto.rules.setup import even_split
from companion.games.reflecto.rules.state import (
    LETTER,
    MIRROR,
    PLAY,
    Options,
    ReflectoState,
    Screen,
)

BOARD = Board(
    rows=7,
    cols=7,
    screens_per_player=7,
    letter_screens=5,
    spare_letter_tiles=2,
    min_letters=4,
    max_letters_per_screen=3,
    words=("PIZZA", "PIANO", "LEMON", "MOON", "ELEPHANT"),
)
ENGINE = ReflectoEngine(BOARD)


def letter(sid: str, rank: int, cell: tuple[int, int] | None, text: str = "X") -> Screen:
    return Screen(sid, "AB".index(sid[0]), LETTER, text, rank, False, cell)


def mirror(sid: str, cell: tuple[int, int] | None) -> Screen:
    return Screen(sid, "AB".index(sid[0]), MIRROR, cell=cell)


def placed(
    *screens: Screen, to_move: int = 0, words: tuple[str, str] = ("PIANO", "LEMON"), **options: Any
) -> ReflectoState:
    """A position in play with exactly these screens (removed ones have cell None)."""
    opts = Options((5, 5), **options)
    removed = tuple(
        tuple(
            s.id
            for s in sorted(screens, key=lambda s: s.rank or 0)
            if s.owner == seat and s.cell is None
        )
        for seat in (0, 1)
    )
    return ReflectoState(
        opts,
        BOARD.rows,
        BOARD.cols,
        PLAY,
        tuple(sorted(screens, key=lambda s: s.id)),
        words,
        to_move,
        removed=(removed[0], removed[1]),
    )


def setup(seat: int, word: str, mirrors: tuple[int, int] = (0, 6)) -> Setup:
    """The word left to right in word order, mirrors in the given columns."""
    letters = tuple(c for c in range(7) if c not in mirrors)
    return Setup(seat, even_split(word, 5), letters, mirrors)


def started(word0: str = "PIANO", word1: str = "LEMON", **options: Any) -> ReflectoState:
    state = ENGINE.new_game(2, options or None)
    state = ENGINE.apply(state, setup(0, word0))
    return ENGINE.apply(state, setup(1, word1))


def greedy(state: ReflectoState) -> Action:
    """Computer play for the scripted game: the hint's first move when it finds a plan,
    else the move that brings the next letter nearest its last line."""
    seat = state.to_move
    acts = ENGINE.legal_actions(state)
    removals = [a for a in acts if isinstance(a, Remove)]
    if removals:
        return removals[0]
    if Done() in acts:
        return Done()
    found = ENGINE.hint(state, seat, max_states=400, max_seconds=0.5)
    if found.moves:
        m = found.plan[0]
        return Step(str(m.screen), m.to)
    order = letter_order(state.screens_of(seat))
    goal = 6 if seat == 0 else 0
    steps = [a for a in acts if isinstance(a, Step)]

    def score(a: Step) -> tuple[Any, ...]:
        if a.to is None:
            return (-100, 0)
        rank = order.index(a.screen) if a.screen in order else 9
        gain = abs(goal - state.screen(a.screen).cell[0]) - abs(goal - a.to[0])
        return (-gain, rank, a.screen, a.to)

    return min(steps, key=score)


def greedy_game(word0: str = "PIANO", word1: str = "LEMON", limit: int = 400) -> list[Action]:
    """A whole game's action log, set-ups included, between two greedy players."""
    state = ENGINE.new_game(2)
    log: list[Action] = [setup(0, word0, (2, 4)), setup(1, word1, (1, 5))]
    for action in log:
        state = ENGINE.apply(state, action)
    while not ENGINE.is_terminal(state) and len(log) < limit:
        action = greedy(state)
        log.append(action)
        state = ENGINE.apply(state, action)
    return log
