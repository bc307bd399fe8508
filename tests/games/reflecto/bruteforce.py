"""An independent, deliberately plain move generator for Reflecto, to check the engine's.

Written apart from `companion.games.reflecto.rules.position`: the board is a list of lists,
jump chains are every simple path walked depth-first (not a breadth-first reach set), and
the rules are read straight from the issue. Imported by the tests and by
benchmarks/reflecto_engine.py; it imports nothing from the package.
"""

from __future__ import annotations

import random
from typing import Any

EIGHT = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def brute_moves(pos: dict[str, Any]) -> tuple[set[tuple[Any, Any]], list[Any]]:
    """({(screen id, (r, c) or "off")}, removals) for the seat to move in a position file."""
    rows, cols, me = pos["rows"], pos["cols"], pos["to_move"]
    grid: list[list[Any]] = [[None] * cols for _ in range(rows)]
    for s in pos["screens"]:
        grid[s["cell"][0]][s["cell"][1]] = s
    last = rows - 1 if me == 0 else 0
    ahead = 1 if me == 0 else -1
    nxt = pos["next_to_remove"][me]

    def inside(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols

    found: set[tuple[Any, Any]] = set()
    for s in pos["screens"]:
        if s["owner"] != me:
            continue
        r0, c0 = s["cell"]
        grid[r0][c0] = None  # the screen has left its square
        for dr, dc in EIGHT:
            if inside(r0 + dr, c0 + dc) and grid[r0 + dr][c0 + dc] is None:
                found.add((s["id"], (r0 + dr, c0 + dc)))
        may_leave = s["kind"] == "letter" and s["id"] == nxt

        def walk(
            r: int,
            c: int,
            path: list[tuple[int, int]],
            s: dict[str, Any] = s,
            may_leave: bool = may_leave,
        ) -> None:
            if may_leave and r == last - ahead:
                for dc in (-1, 0, 1):
                    if (
                        inside(last, c + dc)
                        and grid[last][c + dc] is not None
                        and 0 <= c + 2 * dc < cols
                    ):
                        found.add((s["id"], "off"))
            for dr, dc in EIGHT:
                mr, mc, lr, lc = r + dr, c + dc, r + 2 * dr, c + 2 * dc
                if not (inside(mr, mc) and inside(lr, lc)):
                    continue
                if grid[mr][mc] is None or grid[lr][lc] is not None or (lr, lc) in path:
                    continue
                found.add((s["id"], (lr, lc)))
                walk(lr, lc, [*path, (lr, lc)])

        walk(r0, c0, [(r0, c0)])
        grid[r0][c0] = s
    removals = []
    for s in pos["screens"]:
        if s["id"] == nxt and s["owner"] == me and s["kind"] == "letter" and s["cell"][0] == last:
            removals.append(s["id"])
    return found, removals


def random_position(rng: random.Random) -> dict[str, Any]:
    """A position file with a random board size, crowding, kinds and next letters."""
    rows, cols = rng.randint(4, 9), rng.randint(4, 9)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    count = rng.randint(1, min(len(cells), rng.choice([6, 14, 24, 40])))
    screens = []
    for i, cell in enumerate(rng.sample(cells, count)):
        screens.append(
            {
                "id": f"s{i}",
                "owner": rng.randint(0, 1),
                "kind": rng.choice(["letter", "letter", "mirror"]),
                "cell": list(cell),
            }
        )
    nxt: list[Any] = []
    for seat in (0, 1):
        letters = [s["id"] for s in screens if s["owner"] == seat and s["kind"] == "letter"]
        nxt.append(rng.choice(letters) if letters and rng.random() < 0.9 else None)
    return {
        "rows": rows,
        "cols": cols,
        "to_move": rng.randint(0, 1),
        "screens": screens,
        "next_to_remove": nxt,
    }
