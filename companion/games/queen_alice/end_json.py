"""The FILE of `companion score queen-alice`: each player's end state, mistakes as UserError.

Shape (docs/queen-alice.md):
{"alice": {"red": i, "white": i},        Alice tokens' spaces on the two paths
 "throne": "red" | "white" | null,       optional: whose Alice reached the Throne
 "players": [{"name": "Cris",            optional (default "player N")
              "track_ip": n,             optional: IP on the track before final scoring
              "crowns": {"red": n, "white": n},
              "cats": {"red": "none"|"x1"|"x2", "white": ...},
              "wishes": {"red": [{"standard": n, "platinum": n}, ...], "white": [...]},
              "culled_ip": [n, ...], "bookmarks": [n, ...]}]}
A player's `wishes` are the Wishes of that colour they may choose from, each valued for
them on both sides; the calculator keeps the best ones their Cat level allows.
"""

from __future__ import annotations

from typing import Any

from companion.errors import UserError
from companion.games import get_game
from companion.games.queen_alice.rules.board import COLOURS
from companion.games.queen_alice.rules.final_scoring import (
    CAT_LEVELS,
    GameEnd,
    PlayerEnd,
    Wish,
)


def _whole(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise UserError(f"{where} must be a whole number >= 0, got {value!r}")
    return value


def _per_colour(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict) or set(value) != set(COLOURS):
        raise UserError(f'{where} must be an object with exactly "red" and "white"')
    return value


def _numbers(value: Any, where: str) -> tuple[int, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise UserError(f"{where} must be a list of whole numbers")
    return tuple(_whole(v, f"{where}[{i}]") for i, v in enumerate(value))


def _player(data: Any, seat: int, wishes_per_colour: int) -> PlayerEnd:
    where = f"players[{seat}]"
    if not isinstance(data, dict):
        raise UserError(f"{where} must be an object")
    name = data.get("name", f"player {seat + 1}")
    if not isinstance(name, str) or not name:
        raise UserError(f"{where}.name must be a non-empty string")
    crowns = _per_colour(data.get("crowns"), f"{where}.crowns")
    cats = _per_colour(data.get("cats"), f"{where}.cats")
    for colour in COLOURS:
        if cats[colour] not in CAT_LEVELS:
            raise UserError(
                f"{where}.cats.{colour} must be one of "
                f"{', '.join(CAT_LEVELS)}, got {cats[colour]!r}"
            )
    wishes_in = _per_colour(data.get("wishes", {"red": [], "white": []}), f"{where}.wishes")
    wishes: dict[str, tuple[Wish, ...]] = {}
    for colour in COLOURS:
        listed = wishes_in[colour]
        if not isinstance(listed, list) or len(listed) > wishes_per_colour:
            raise UserError(f"{where}.wishes.{colour} must list at most {wishes_per_colour} Wishes")
        wishes[colour] = tuple(
            _wish(w, f"{where}.wishes.{colour}[{i}]") for i, w in enumerate(listed)
        )
    return PlayerEnd(
        name=name,
        track_ip=_whole(data.get("track_ip", 0), f"{where}.track_ip"),
        crowns={c: _whole(crowns[c], f"{where}.crowns.{c}") for c in COLOURS},
        cats={c: cats[c] for c in COLOURS},
        wishes=wishes,
        culled_ip=_numbers(data.get("culled_ip"), f"{where}.culled_ip"),
        bookmarks=_numbers(data.get("bookmarks"), f"{where}.bookmarks"),
    )


def _wish(value: Any, where: str) -> Wish:
    if not isinstance(value, dict) or set(value) != {"standard", "platinum"}:
        raise UserError(f'{where} must be {{"standard": n, "platinum": n}}')
    return Wish(
        _whole(value["standard"], f"{where}.standard"),
        _whole(value["platinum"], f"{where}.platinum"),
    )


def game_end_from_json(data: Any, wishes_per_colour: int) -> GameEnd:
    if not isinstance(data, dict):
        raise UserError("score file: must be a JSON object with alice and players")
    alice = _per_colour(data.get("alice"), "alice")
    throne = data.get("throne")
    if throne is not None and throne not in COLOURS:
        raise UserError(f"throne must be red, white or null, got {throne!r}")
    players = data.get("players")
    info = get_game("queen-alice")
    if not isinstance(players, list) or not info.min_players <= len(players) <= info.max_players:
        raise UserError(f"players must list {info.min_players} to {info.max_players} players")
    ends = tuple(_player(p, i, wishes_per_colour) for i, p in enumerate(players))
    names = [p.name for p in ends]
    if len(set(names)) != len(names):
        raise UserError("players: two players have the same name")
    return GameEnd(
        alice={c: _whole(alice[c], f"alice.{c}") for c in COLOURS}, throne=throne, players=ends
    )
