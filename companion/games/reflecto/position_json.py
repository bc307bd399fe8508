"""The position file the `moves` and `solve` commands read (other tools write it; keep its shape).

    {"rows": 7, "cols": 7, "to_move": 0,
     "screens": [{"id": "A0", "owner": 0, "kind": "letter", "cell": [0, 0]}, ...],
     "next_to_remove": ["A2", null],
     "order": [["A2", "A0", ...], null]}      (solve only: letters left, in word order)

Ids may be strings or whole numbers and are echoed as given. Every way the file can be
wrong is one UserError line naming the field.
"""

from __future__ import annotations

from typing import Any

from companion.errors import UserError
from companion.games.reflecto.rules.position import LETTER, MIRROR, Placed, Position, ScreenId

MAX_SIDE = 50


def _int(value: Any, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise UserError(f"{what} must be a whole number from {low} to {high}")
    return value


def _id(value: Any, what: str) -> ScreenId:
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise UserError(f"{what} must be a string or a whole number")
    return value


def position_from_json(data: Any) -> Position:
    if not isinstance(data, dict):
        raise UserError(
            "the position must be a JSON object with rows, cols, to_move, "
            "screens and next_to_remove"
        )
    for key in ("rows", "cols", "to_move", "screens", "next_to_remove"):
        if key not in data:
            raise UserError(f"the position has no {key!r}")
    rows = _int(data["rows"], "rows", 3, MAX_SIDE)
    cols = _int(data["cols"], "cols", 1, MAX_SIDE)
    to_move = _int(data["to_move"], "to_move", 0, 1)
    raw = data["screens"]
    if not isinstance(raw, list):
        raise UserError("screens must be a list")
    screens: list[Placed] = []
    ids: set[ScreenId] = set()
    cells: set[tuple[int, int]] = set()
    for i, item in enumerate(raw):
        where = f"screens[{i}]"
        if not isinstance(item, dict):
            raise UserError(f"{where} must be an object with id, owner, kind and cell")
        sid = _id(item.get("id"), f"{where}.id")
        owner = _int(item.get("owner"), f"{where}.owner", 0, 1)
        kind = item.get("kind")
        if kind not in (LETTER, MIRROR):
            raise UserError(f'{where}.kind must be "letter" or "mirror"')
        cell = item.get("cell")
        if not isinstance(cell, list) or len(cell) != 2:
            raise UserError(f"{where}.cell must be [row, column]")
        r = _int(cell[0], f"{where}.cell row", 0, rows - 1)
        c = _int(cell[1], f"{where}.cell column", 0, cols - 1)
        if sid in ids:
            raise UserError(f"{where}.id {sid!r} is used twice")
        if (r, c) in cells:
            raise UserError(f"{where}.cell [{r}, {c}] holds two screens")
        ids.add(sid)
        cells.add((r, c))
        screens.append(Placed(sid, owner, kind, (r, c)))
    nxt = data["next_to_remove"]
    if not isinstance(nxt, list) or len(nxt) != 2:
        raise UserError("next_to_remove must be [id or null, id or null], one per seat")
    by_id = {s.id: s for s in screens}
    for seat, sid in enumerate(nxt):
        if sid is None:
            continue
        placed = by_id.get(_id(sid, f"next_to_remove[{seat}]"))
        if placed is None or placed.owner != seat or placed.kind != LETTER:
            raise UserError(
                f"next_to_remove[{seat}]: {sid!r} is not a letter screen of "
                f"seat {seat} on the board"
            )
    return Position(rows, cols, to_move, tuple(screens), (nxt[0], nxt[1]))


def order_from_json(data: dict[str, Any], position: Position, seat: int) -> list[ScreenId]:
    """The seat's letter screens left, in word order, for the hint."""
    order = data.get("order")
    if not isinstance(order, list) or len(order) != 2 or not isinstance(order[seat], list):
        raise UserError(
            f'solving for seat {seat} needs "order": [[ids of seat 0\'s letters '
            "left, in word order], [seat 1's]] (null for a seat not solved)"
        )
    ids = [_id(v, f"order[{seat}]") for v in order[seat]]
    letters = {s.id for s in position.screens if s.owner == seat and s.kind == LETTER}
    if sorted(map(str, ids)) != sorted(map(str, letters)) or len(set(ids)) != len(ids):
        raise UserError(
            f"order[{seat}] must list each of seat {seat}'s letter screens on the board once"
        )
    if ids and position.next_to_remove[seat] not in (None, ids[0]):
        raise UserError(
            f"order[{seat}] starts with {ids[0]!r} but next_to_remove[{seat}] is "
            f"{position.next_to_remove[seat]!r}"
        )
    return ids
