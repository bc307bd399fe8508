"""Play many rounds between computer players through the engine and summarise them.

Each round is a one-round match (`target=1`), so the layout and the first player are drawn
by the engine's own chance actions; the two player kinds swap seats every round.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from companion.games.looking_glass.hint import DEFAULT_SAMPLES
from companion.games.looking_glass.players import make_player
from companion.games.looking_glass.rules.actions import Deal
from companion.games.looking_glass.rules.deck import BRAWLERS
from companion.games.looking_glass.rules.engine import ENGINE, Round
from companion.games.playout import distribution, play_out, rate


@dataclass
class RoundRecord:
    layout: str
    starter: int
    kinds: tuple[str, str]  # kind at seat 0, seat 1
    totals: tuple[int, int]
    winner: int
    brawlers_in_glass: int
    self_linked: int


@dataclass
class Summary:
    rounds: int
    kinds: tuple[str, str]
    brawlers: bool
    seconds: float
    records: list[RoundRecord] = field(repr=False)

    def to_json(self) -> dict[str, Any]:
        n = self.rounds
        recs = self.records
        absolute = [abs(t) for r in recs for t in r.totals]
        linked = [r.self_linked for r in recs]
        first_wins = sum(r.winner == r.starter for r in recs)
        a = self.kinds[0]
        a_wins = (
            sum(r.kinds[r.winner] == a for r in recs) if self.kinds[0] != self.kinds[1] else None
        )
        out: dict[str, Any] = {
            "rounds": n,
            "players": list(self.kinds),
            "brawlers": self.brawlers,
            "seconds": round(self.seconds, 3),
            "brawlers_in_glass": distribution((r.brawlers_in_glass for r in recs), n),
            "self_linked_pairs": {
                "mean": statistics.fmean(linked),
                "stdev": statistics.pstdev(linked),
                "distribution": distribution(linked, n),
            },
            "absolute_score": {
                "mean": statistics.fmean(absolute),
                "stdev": statistics.pstdev(absolute),
            },
            "first_player_win_rate": rate(first_wins, n),
        }
        if a_wins is not None:
            out["win_rate"] = {"player": a, "against": self.kinds[1], **rate(a_wins, n)}
        else:
            out["win_rate"] = None
        return out


def play_round(
    kinds: tuple[str, str],
    rng: random.Random,
    brawlers: bool,
    players: dict[str, Any],
) -> RoundRecord:
    deals: list[Deal] = []

    def keep_deal(action: Any) -> None:
        if isinstance(action, Deal):
            deals.append(action)

    state = play_out(
        ENGINE,
        ENGINE.new_game(2, {"brawlers": brawlers, "target": 1}),
        lambda s, seat: players[kinds[seat]](s, seat, rng),
        rng,
        keep_deal,
    )
    glass = deals[-1].glass_map()
    lay = ENGINE.layout(cast(Round, state.round).layout)  # the round just scored
    res = state.results[-1]
    return RoundRecord(
        layout=res.layout,
        starter=res.starter,
        kinds=kinds,
        totals=res.totals,
        winner=res.winner,
        brawlers_in_glass=sum(c in BRAWLERS for c in glass.values()),
        self_linked=sum(
            glass[lay.name_of(0, i)] == glass[lay.name_of(1, i)] for i in range(len(lay.cells))
        ),
    )


def simulate(
    rounds: int,
    kinds: tuple[str, str] = ("random", "random"),
    brawlers: bool = False,
    seed: int = 0,
    hint_samples: int = DEFAULT_SAMPLES,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play `rounds` rounds; `progress(done)` is called every 100 rounds if given."""
    if rounds < 1:
        raise ValueError("rounds must be at least 1")
    rng = random.Random(seed)
    players = {k: make_player(k, hint_samples) for k in set(kinds)}
    start = time.perf_counter()
    records = []
    for r in range(rounds):
        seats = kinds if r % 2 == 0 else (kinds[1], kinds[0])
        records.append(play_round(seats, rng, brawlers, players))
        if progress is not None and (r + 1) % 100 == 0:
            progress(r + 1)
    return Summary(rounds, kinds, brawlers, time.perf_counter() - start, records)
