"""Live Flowers: the supply and each flower's permanent benefit (`flowers.toml`).

The rulebook gives the supply (8 of each colour) and that a flower is a permanent benefit,
but its appendix of benefits is missing, so the benefits are data: a reward each time
something happens to the owner (an action, a capture, a rescue, their Rest), resources
let off an action each time, or a larger hand. How several flowers of one colour count is
data too (`stacking`).
"""

from __future__ import annotations

from companion.games.queen_alice.rules.components import Components
from companion.games.queen_alice.rules.rewards import tasks
from companion.games.queen_alice.rules.state import Player, Task


def _held(comp: Components, player: Player) -> dict[str, int]:
    """How many times each colour's benefit counts for `player`."""
    counts: dict[str, int] = {}
    for name in player.flowers:
        counts[name] = counts.get(name, 0) + 1
    if comp.flower_stacking == "per_colour":
        return dict.fromkeys(counts, 1)
    return counts


def benefits(comp: Components, player: Player, when: str, colour: str) -> tuple[Task, ...]:
    """The rewards `player`'s flowers give when `when` happens (`colour`: the context's)."""
    out: tuple[Task, ...] = ()
    for name, times in _held(comp, player).items():
        benefit = comp.flowers[name]
        if benefit.when == when:
            out += tasks(benefit.reward, colour) * times
    return out


def discount(comp: Components, player: Player, action: str) -> int:
    """Resources `player`'s flowers let off each `action` they perform (its Repeat too)."""
    return sum(
        comp.flowers[n].discount * k
        for n, k in _held(comp, player).items()
        if comp.flowers[n].action in ("", action)
    )


def hand_size(comp: Components, player: Player) -> int:
    """The hand `player` draws to at Rest: the box's, and what their flowers add."""
    extra = sum(comp.flowers[n].hand_size * k for n, k in _held(comp, player).items())
    return comp.hand_size + extra
