"""The sim scene's scripted players: due taps in order, a refused one retried, then dropped."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.errors import UserError
from companion.live.demo_players import GIVE_UP_S, DemoPlayers


@dataclass(frozen=True)
class Tap:
    t: float
    seat: int | None
    payload: dict[str, Any] = field(default_factory=dict)


class Table:
    """Refuses "call" until the camera "has seen" the swaps (`ready`), like a table game."""

    def __init__(self) -> None:
        self.ready = False
        self.took: list[tuple[dict[str, Any], int | None]] = []

    def correct(self, payload: dict[str, Any], seat: int | None) -> None:
        if payload.get("call") and not self.ready:
            raise UserError('"make your guesses" comes after the swaps')
        if payload.get("never"):
            raise UserError("refused for good")
        self.took.append((payload, seat))


def test_taps_are_played_in_order_when_due_and_a_refused_one_waits() -> None:
    table = Table()
    players = DemoPlayers(
        [Tap(3.0, 1, {"guess": True}), Tap(1.0, 0, {"roll": 4}), Tap(2.0, 0, {"call": "guesses"})]
    )
    assert players.step(0.5, table.correct) == 0 and table.took == []
    assert players.step(2.5, table.correct) == 1  # the roll; the call is refused
    assert table.took == [({"roll": 4}, 0)]
    assert players.step(3.5, table.correct) == 0  # the guess waits behind the call
    table.ready = True
    assert players.step(3.75, table.correct) == 2
    assert [p for p, _ in table.took] == [{"roll": 4}, {"call": "guesses"}, {"guess": True}]
    assert len(players) == 0 and players.dropped == 0


def test_a_tap_refused_for_too_long_is_dropped() -> None:
    table = Table()
    players = DemoPlayers([Tap(1.0, None, {"never": True}), Tap(2.0, 0, {"roll": 2})])
    players.step(1.0 + GIVE_UP_S / 2, table.correct)
    assert table.took == [] and len(players) == 2
    players.step(1.0 + GIVE_UP_S, table.correct)
    assert players.dropped == 1 and table.took == [({"roll": 2}, 0)]
