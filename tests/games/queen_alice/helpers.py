"""Shared builders for the Queen Alice engine tests: a set-up game, a hand, a position."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from companion.games.base import CHANCE
from companion.games.queen_alice.rules import ENGINE as E
from companion.games.queen_alice.rules.board import Piece
from companion.games.queen_alice.rules.state import State

COMP = E.components
BOARD = E.board


def started(players: int = 2, seed: int = 0, options: dict[str, Any] | None = None) -> State:
    """A game after chance's set-up: seat 0 is to discard (the Train cards skipped unless
    `options` play them: then seat 0 is to choose one)."""
    options = {"train_cards": "skip", **(options or {})}
    state, rng = E.new_game(players, options), random.Random(seed)
    while E.current_player(state) == CHANCE:
        state = E.apply(state, E.sample_chance(state, rng))
    return state


def playing(hand: tuple[str, ...], pieces: tuple[Piece, ...], players: int = 2, **me: Any) -> State:
    """Seat 0 in the play phase with `hand`, the chessboard holding only `pieces`."""
    state = started(players)
    state = replace(state, phase="play", pieces=pieces)
    return state.with_me(hand=tuple(sorted(hand)), **me)


def card_for(colour: str, kind: str, level: str = "basic") -> str:
    """A card id of the model naming that piece."""
    for card in COMP.cards.values():
        if card.colour == colour and card.kind == kind and level in ("any", card.level):
            return card.id
    raise LookupError(f"no {colour} {kind} card in the model")


def square(resource: str, action: str) -> tuple[int, int]:
    """A square of the board giving that row resource and column action."""
    for r, res in enumerate(BOARD.row_resources):
        for c, act in enumerate(BOARD.column_actions):
            if res == resource and act == action:
                return r, c
    raise LookupError(f"no {resource} x {action} square on the board")


def finish_choices(state: State, prefer: type | None = None) -> State:
    """Answer every pending reward choice with Pass (or `prefer` when offered)."""
    from companion.games.queen_alice.rules.actions import Pass
    from companion.games.queen_alice.rules.rewards import needs_choice

    while needs_choice(state):
        legal = E.legal_actions(state)
        pick = next((a for a in legal if prefer and isinstance(a, prefer)), None)
        state = E.apply(state, pick or (Pass() if Pass() in legal else legal[0]))
    return state
