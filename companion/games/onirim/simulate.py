"""Play many solo games with a computer player through the engine and summarise them."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from companion.games.onirim.players import Player, make_player
from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.state import OnirimState
from companion.games.playout import distribution, play_out, rate


@dataclass(frozen=True)
class GameRecord:
    won: bool
    doors: int
    mirrors_explored: int
    loss: str | None  # what was still missing when the deck ran out
    turns: int
    decision_seconds: tuple[float, ...]


def loss_cause(state: OnirimState) -> str | None:
    """ "doors", "mirrors" or "doors+mirrors": what the game still lacked when it was lost."""
    if state.outcome != "lost":
        return None
    doors = len(state.doors) < ENGINE.doors_total()
    mirrors = any(
        not e
        for m, e in zip(state.in_game, state.explored, strict=True)
        if ENGINE.deck.mirrors[m].required
    )
    return "+".join(x for x, short in (("doors", doors), ("mirrors", mirrors)) if short)


def play_game(options: dict[str, Any], player: Player, rng: random.Random) -> GameRecord:
    times = []

    def timed(state: OnirimState, seat: int) -> Any:
        t = time.perf_counter()
        action = player(state, rng)
        times.append(time.perf_counter() - t)
        return action

    state = play_out(ENGINE, ENGINE.new_game(1, options), timed, rng)
    return GameRecord(
        won=state.outcome == "won",
        doors=len(state.doors),
        mirrors_explored=sum(state.explored),
        loss=loss_cause(state),
        turns=state.turns,
        decision_seconds=tuple(times),
    )


@dataclass
class Summary:
    games: int
    player: str
    options: dict[str, Any]
    seed: int
    seconds: float
    records: list[GameRecord] = field(repr=False)

    def to_json(self) -> dict[str, Any]:
        recs = self.records
        n = len(recs)
        wins = sum(r.won for r in recs)
        times = [t for r in recs for t in r.decision_seconds]
        causes = Counter(r.loss for r in recs if r.loss)
        return {
            "games": n,
            "player": self.player,
            "options": self.options,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "win_rate": rate(wins, n),
            "doors_opened": {
                "mean": statistics.fmean(r.doors for r in recs),
                "distribution": distribution((r.doors for r in recs), n),
            },
            "mirrors_explored": {"mean": statistics.fmean(r.mirrors_explored for r in recs)},
            "losses": {k: v / n for k, v in sorted(causes.items())},
            "turns": {
                "mean": statistics.fmean(r.turns for r in recs),
                "median": statistics.median(r.turns for r in recs),
            },
            "decision_ms": {
                "median": 1e3 * statistics.median(times) if times else None,
                "worst": 1e3 * max(times) if times else None,
                "count": len(times),
            },
        }


def simulate(
    games: int,
    player: str = "greedy",
    options: dict[str, Any] | None = None,
    seed: int = 0,
    hint_settings: Any = None,
) -> Summary:
    """Play `games` games with one player kind; the seed fixes every draw and choice."""
    if games < 1:
        raise ValueError("games must be at least 1")
    opts = dict(options or {})
    ENGINE.new_game(1, opts)  # refuses bad options before any game is played
    if player == "hint":
        from companion.games.onirim.hint import DEFAULT

        s = hint_settings or DEFAULT
        chooser = make_player("hint", s.samples, s.horizon, s.candidates)
    else:
        chooser = make_player(player)
    rng = random.Random(seed)
    start = time.perf_counter()
    records = [play_game(opts, chooser, rng) for _ in range(games)]
    return Summary(games, player, opts, seed, time.perf_counter() - start, records)
