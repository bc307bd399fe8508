"""A player's economy: Time on the Clock, resource cubes, Black cubes, paying a cost.

A cost is a list of units, each naming the resources that may pay it (a red piece's action
takes Cherry Cake or Tea, the Wild column any one), plus plain Time. Each unit is paid with
a stored resource it accepts, with 3 Time, or by returning an empty unlocked Black cube to
the locked stock. `payments` lists every distinct way to pay, so a choice of payment is
part of the action a player picks and `apply` can refuse one that does not add up.
Reading (docs/queen-alice.md): a Black cube may be returned only if it was already empty
before this payment, which is the rulebook's "not a cube already used in this action".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from companion.games.base import IllegalAction
from companion.games.queen_alice.rules.components import STORED, Components
from companion.games.queen_alice.rules.state import Player, evolve

Unit = frozenset[str]
ANY: Unit = frozenset(STORED)
PIECE_RESOURCES: dict[str, Unit] = {
    "red": frozenset({"cake", "tea"}),
    "white": frozenset({"toast", "tea"}),
}
"""The rulebook: red pieces' costs take Cherry Cake and/or Tea, white ones Toast and/or Tea."""
OWN: dict[str, Unit] = {"red": frozenset({"cake"}), "white": frozenset({"toast"})}
"""Hearts' and yellow arrows' costs: Cakes for red, Toasts for white."""


@dataclass(frozen=True)
class Pay:
    """How a cost's units are paid: stored resources, 3-Time units, Black cubes, and the
    resource the landing row gave when it was not stored (`row`: the rulebook's "You can
    directly use the resource you gain in the row")."""

    cake: int = 0
    tea: int = 0
    toast: int = 0
    time: int = 0
    black: int = 0
    row: int = 0

    def units(self) -> int:
        return self.cake + self.tea + self.toast + self.time + self.black + self.row


FREE = Pay()


@dataclass(frozen=True)
class Cost:
    units: tuple[Unit, ...] = ()
    time: int = 0

    def __add__(self, other: Cost) -> Cost:
        return Cost(self.units + other.units, self.time + other.time)


def unit_of(name: str) -> Unit:
    return ANY if name == "any" else frozenset({name})


def payments(player: Player, cost: Cost, comp: Components, loose: str = "") -> list[Pay]:
    """Every distinct way `player` can pay `cost` (empty when they cannot); `loose`: the
    row's resource, not stored, that this action may use."""
    spare_time = player.time - cost.time
    if spare_time < 0:
        return []
    return list(
        _ways(
            cost.units,
            player.cake,
            player.tea,
            player.toast,
            spare_time // comp.time_per_resource,
            min(player.black, player.free_cubes()),
            loose,
        )
    )


@lru_cache(maxsize=4096)
def _ways(
    units: tuple[Unit, ...], cake: int, tea: int, toast: int, time: int, black: int, loose: str
) -> tuple[Pay, ...]:
    have = {"cake": cake, "tea": tea, "toast": toast, "time": time, "black": black}
    have["row"] = 1 if loose else 0
    found: set[Pay] = set()

    def walk(i: int, used: dict[str, int]) -> None:
        if i == len(units):
            found.add(Pay(**used))
            return
        row = ("row",) if loose in units[i] else ()
        for source in (*sorted(units[i]), "time", "black", *row):
            if used[source] < have[source]:
                used[source] += 1
                walk(i + 1, used)
                used[source] -= 1

    walk(0, dict.fromkeys(("cake", "tea", "toast", "time", "black", "row"), 0))
    return tuple(sorted(found, key=lambda p: (p.row, p.time, p.black, p.cake, p.tea, p.toast)))


def pay(player: Player, cost: Cost, how: Pay, comp: Components, loose: str = "") -> Player:
    """`player` after paying `cost` the way `how` says; IllegalAction if it does not fit."""
    if how not in payments(player, cost, comp, loose):
        raise IllegalAction("payment", f"{how} does not pay {describe(cost)}")
    return evolve(
        player,
        cake=player.cake - how.cake,
        tea=player.tea - how.tea,
        toast=player.toast - how.toast,
        time=player.time - cost.time - how.time * comp.time_per_resource,
        black=player.black - how.black,
        black_stock=player.black_stock + how.black,
    )


def gain_time(player: Player, n: int, comp: Components) -> Player:
    """The Clock stops at its maximum; each Time beyond it is 1 IP (the rulebook)."""
    total = player.time + n
    over = max(0, total - comp.time_max)
    return evolve(player, time=total - over, ip=player.ip + over)


def store(player: Player, resource: str) -> Player:
    return evolve(player, **{resource: getattr(player, resource) + 1})


def unlock_black(player: Player) -> Player:
    if player.black_stock == 0:
        return player
    return evolve(player, black=player.black + 1, black_stock=player.black_stock - 1)


def describe(cost: Cost) -> str:
    parts = ["/".join(sorted(u)) for u in cost.units]
    if cost.time:
        parts.append(f"{cost.time} Time")
    return " + ".join(parts) or "nothing"
