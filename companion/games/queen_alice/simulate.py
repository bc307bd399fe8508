"""Play many Queen Alice games between random players through the engine, and summarise.

Random players pick uniformly among `legal_actions`; they measure the engine (every game
ends, no state breaks an invariant, how long a game is), not strategy. With `check`, every
state reached is checked against `rules.invariants.broken`.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from companion.games.base import CHANCE
from companion.games.queen_alice.rules import ENGINE
from companion.games.queen_alice.rules.invariants import box, broken

MAX_ACTIONS = 20_000
"""A game still going after this many actions is reported as stuck (none has been)."""


@dataclass(frozen=True)
class GameRecord:
    players: int
    turns: int  # player turns taken
    actions: int  # all actions, chance's included
    winners: tuple[int, ...]
    crowned: str | None
    scores: tuple[int, ...]
    broken: str | None  # the first invariant broken, if any
    stuck: bool


def play_one(
    players: int, rng: random.Random, options: dict[str, Any] | None = None, check: bool = False
) -> GameRecord:
    state = ENGINE.new_game(players, options)
    comp = ENGINE.comp(state)
    cards = box(comp, players)
    actions, why = 0, None
    while not ENGINE.is_terminal(state) and actions < MAX_ACTIONS:
        if ENGINE.current_player(state) == CHANCE:
            action = ENGINE.sample_chance(state, rng)
        else:
            action = rng.choice(ENGINE.legal_actions(state))
        state = ENGINE.apply(state, action)
        actions += 1
        if check and why is None:
            why = broken(state, comp, ENGINE.board, ENGINE.tally(state), cards)
    if not ENGINE.is_terminal(state):
        return GameRecord(players, state.turns + 1, actions, (), None, (), why, True)
    final = ENGINE.final(state)
    names = [p.name for p in final.players]
    return GameRecord(
        players,
        state.turns + 1,
        actions,
        tuple(names.index(w) for w in final.winners),
        final.crowned,
        tuple(p.total for p in final.players),
        why,
        False,
    )


def _spread(values: list[int]) -> dict[str, float]:
    return {
        "median": statistics.median(values),
        "mean": round(statistics.fmean(values), 2),
        "min": min(values),
        "max": max(values),
    }


def summarise(records: list[GameRecord], seconds: float) -> dict[str, Any]:
    by_players: dict[int, list[GameRecord]] = {}
    for r in records:
        by_players.setdefault(r.players, []).append(r)
    out: dict[str, Any] = {
        "games": len(records),
        "stuck": sum(r.stuck for r in records),
        "illegal_states": sum(r.broken is not None for r in records),
        "broken": dict(Counter(r.broken for r in records if r.broken)),
        "seconds": round(seconds, 1),
        "by_players": {},
    }
    for n, group in sorted(by_players.items()):
        done = [r for r in group if not r.stuck]
        seats = Counter(w for r in done for w in r.winners)
        out["by_players"][str(n)] = {
            "games": len(group),
            "turns_per_player": _spread([r.turns // n for r in done]) if done else None,
            "actions": _spread([r.actions for r in done]) if done else None,
            "winning_score": _spread([max(r.scores) for r in done]) if done else None,
            "wins_by_seat": {str(s): seats[s] for s in range(n)},
            "shared_victories": sum(len(r.winners) > 1 for r in done),
            "crowned": dict(Counter(str(r.crowned) for r in done)),
        }
    return out


def simulate(
    games: int,
    players: tuple[int, ...],
    seed: int,
    options: dict[str, Any] | None = None,
    check: bool = False,
) -> dict[str, Any]:
    """`games` random games, player counts taken in turn from `players`."""
    rng, start = random.Random(seed), time.perf_counter()
    records = [play_one(players[g % len(players)], rng, options, check) for g in range(games)]
    return summarise(records, time.perf_counter() - start)
