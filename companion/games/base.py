"""The protocol every game's rules engine implements.

Shaped after OpenSpiel and python-chess: the state is frozen and holds the whole truth,
chance is an explicit player whose actions are sampled from a generator passed in (so the
action log is a full replay), illegal actions raise `IllegalAction` naming the rule, and
`view(state, seat)` is the only thing that may leave the server for a seat.
Engines import neither OpenCV nor FastAPI.
"""

from __future__ import annotations

import random
from functools import cached_property
from typing import Any, Generic, Protocol, TypeVar

CHANCE = -1
"""`current_player` returns this when the next action is chance's (a deal, a die roll)."""

SPECTATOR = None
"""A `view` for nobody's seat: only what is public."""

State = TypeVar("State")
Action = TypeVar("Action")
Board = TypeVar("Board")


class IllegalAction(ValueError):
    """An action the rules forbid; the message names the rule broken."""

    def __init__(self, rule: str, detail: str = "") -> None:
        self.rule = rule
        self.detail = detail
        super().__init__(f"{rule}: {detail}" if detail else rule)


def require(ok: bool, rule: str, detail: str = "") -> None:
    """Raise `IllegalAction(rule, detail)` unless `ok`: an engine's checks read as the rules
    they enforce, one line each."""
    if not ok:
        raise IllegalAction(rule, detail)


class GameEngine(Protocol[State, Action]):
    """One object per game; all methods are pure functions of their arguments."""

    game_id: str

    def new_game(self, players: int, options: dict[str, Any] | None = None) -> State:
        """A fresh game before any chance action (no cards dealt, no die rolled).

        Raises ValueError for an unsupported player count or an unknown option.
        """
        ...

    def current_player(self, state: State) -> int | None:
        """The seat to act, `CHANCE` for a chance node, or None when the game is over."""
        ...

    def legal_actions(self, state: State) -> list[Action]:
        """Every legal action of the player to move (empty at chance nodes and the end)."""
        ...

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        """A chance action drawn with `rng`; only valid when `current_player` is CHANCE."""
        ...

    def apply(self, state: State, action: Action) -> State:
        """The state after `action`; raises IllegalAction naming the rule broken."""
        ...

    def is_terminal(self, state: State) -> bool: ...

    def scores(self, state: State) -> list[float]:
        """Points per seat so far (final when terminal)."""
        ...

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """JSON-ready view for one seat (None: a spectator). Never holds another seat's secrets."""
        ...

    def state_to_json(self, state: State) -> dict[str, Any]: ...

    def state_from_json(self, data: dict[str, Any]) -> State: ...

    def action_to_json(self, action: Action) -> dict[str, Any]: ...

    def action_from_json(self, data: dict[str, Any]) -> Action:
        """Raises ValueError with a one-line reason for a malformed action."""
        ...


class BoardEngine(Generic[Board]):
    """An engine over a board read from the game's model file. The engine is created at
    import, so the board is read on first use, not then; a board given stands in for the
    model's (a test's or a variant's board)."""

    def __init__(self, board: Board | None = None) -> None:
        if board is not None:
            self.board = board

    @cached_property
    def board(self) -> Board:
        return self.load_board()

    def load_board(self) -> Board:
        """The model's board (the game's own reader)."""
        raise NotImplementedError
