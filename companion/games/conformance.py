"""A random-playout conformance check that every game engine passes (after OpenSpiel).

`check_engine` plays seeded random games through the `GameEngine` protocol alone and checks
what must hold for any game: legal actions apply, actions outside `legal_actions` raise
`IllegalAction`, states and actions survive JSON, replaying the action log reproduces the
state, the game ends within a bound, and views are JSON whose public part is the same for
every seat. Game-specific secrets (which fields a seat must not see) are tested per game.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from companion.games.base import CHANCE, IllegalAction


class ConformanceError(AssertionError):
    """An engine broke a protocol invariant; the message says which, and where."""


@dataclass(frozen=True)
class Report:
    games: int
    actions: int
    illegal_checked: int


def _leaves(value: Any, path: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out.update(_leaves(v, f"{path}/{k}"))
        return out
    if isinstance(value, list):
        out = {}
        for i, v in enumerate(value):
            out.update(_leaves(v, f"{path}/{i}"))
        return out
    return {path: value}


def _roundtrip(data: Any, what: str) -> Any:
    try:
        return json.loads(json.dumps(data))
    except (TypeError, ValueError) as exc:
        raise ConformanceError(f"{what} is not JSON-serialisable: {exc}") from None


def _check_views(engine: Any, state: Any, players: int, where: str) -> None:
    """Views are JSON; what a spectator sees, every seat sees the same way (public part)."""
    spectator = _leaves(_roundtrip(engine.view(state, None), f"spectator view {where}"))
    for seat in range(players):
        seat_view = _leaves(_roundtrip(engine.view(state, seat), f"seat {seat} view {where}"))
        for path, value in spectator.items():
            if value is None or path == "/seat":
                continue
            if seat_view.get(path, value) != value:
                raise ConformanceError(
                    f"{where}: public field {path} is {value!r} for a spectator but "
                    f"{seat_view.get(path)!r} for seat {seat}"
                )


def _expect_illegal(engine: Any, state: Any, action: Any, where: str) -> None:
    try:
        engine.apply(state, action)
    except IllegalAction:
        return
    raise ConformanceError(f"{where}: {action!r} is not in legal_actions but was applied")


def check_engine(
    engine: Any,
    players: int,
    games: int = 5,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    max_actions: int = 5_000,
    try_all_legal: int = 8,
) -> Report:
    """Play `games` random games; raise ConformanceError on the first broken invariant."""
    rng = random.Random(seed)
    total = illegal = 0
    for game in range(games):
        state = engine.new_game(players, options)
        log: list[Any] = []
        seen: list[Any] = []  # actions from earlier positions, to probe illegal moves
        for step in range(max_actions + 1):
            where = f"game {game} step {step}"
            data = _roundtrip(engine.state_to_json(state), f"state {where}")
            again = engine.state_to_json(engine.state_from_json(data))
            if _roundtrip(again, "state") != data:
                raise ConformanceError(f"{where}: state_from_json(state_to_json(s)) differs")
            _check_views(engine, state, players, where)
            player = engine.current_player(state)
            if engine.is_terminal(state):
                if player is not None or engine.legal_actions(state):
                    raise ConformanceError(f"{where}: a finished game still has a player to move")
                if len(engine.scores(state)) != players:
                    raise ConformanceError(f"{where}: scores() has not one entry per seat")
                break
            if step == max_actions:
                raise ConformanceError(f"game {game}: not over after {max_actions} actions")
            legal = engine.legal_actions(state)
            if player == CHANCE:
                if legal:
                    raise ConformanceError(f"{where}: a chance node lists player actions")
                action = engine.sample_chance(state, rng)
            else:
                if player is None or not legal:
                    raise ConformanceError(f"{where}: seat {player} to move but no legal action")
                for a in rng.sample(legal, min(len(legal), try_all_legal)):
                    engine.apply(state, a)  # must not raise
                for a in rng.sample(seen, min(len(seen), 3)):
                    if a not in legal:
                        _expect_illegal(engine, state, a, where)
                        illegal += 1
                action = rng.choice(legal)
            encoded = _roundtrip(engine.action_to_json(action), f"action {where}")
            if engine.action_from_json(encoded) != action:
                raise ConformanceError(f"{where}: action_from_json(action_to_json(a)) != a")
            log.append(encoded)
            seen.append(action)
            state = engine.apply(state, action)
            total += 1
        replay = engine.new_game(players, options)
        for encoded in _roundtrip(log, "action log"):
            replay = engine.apply(replay, engine.action_from_json(encoded))
        if engine.state_to_json(replay) != engine.state_to_json(state):
            raise ConformanceError(f"game {game}: replaying the action log gives another state")
    return Report(games, total, illegal)
