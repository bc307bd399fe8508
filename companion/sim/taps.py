"""A scripted player's tap in a `sim` film, the one shape every game's film writes.

The demo's players tap through the same correction path a phone uses
(`companion.live.demo_players` plays them): a film carries its taps beside its frames, never
inside them, so nothing the perceiver sees can tell it what is on the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Tap:
    """What a player taps on their phone at film time `t` (seconds): `payload` is the
    correction's JSON a phone posts (its `kind` and fields), from `seat` (None: anyone at
    the table)."""

    t: float
    seat: int | None
    payload: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"t": self.t, "seat": self.seat, "payload": self.payload}
