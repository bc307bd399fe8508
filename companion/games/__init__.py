"""The games the companion knows, and lazy access to each game's parts.

A game is a subpackage `companion/games/<package>/` shaped as ARCHITECTURE.md says:
- `rules/`       the pure engine; the package exposes `ENGINE` (see `base.GameEngine`)
- `vision/`      perceiver, renderer, teach
- `table/`       live play; `table/live.py` is what the live loop needs at the table:
                 `make_table_game(settings, session)`, and optionally `router()` (mounted
                 under /api/games/<id>) and `PANEL_JS` (see `companion/live/table_game.py`)
- `commands.py`  CLI tools, exposing `VERBS: dict[str, Callable[[list[str]], int]]`
A game not yet split that way keeps `rules.py` and `live.py` beside `commands.py`; `module`
finds either. Parts are imported only on use, so a pure engine never drags in OpenCV or
FastAPI.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from companion.errors import UserError


@dataclass(frozen=True)
class GameInfo:
    id: str
    title: str
    package: str
    min_players: int
    max_players: int

    def module(self, part: str) -> ModuleType | None:
        """Import the game's `part` ("rules", "live", "commands") if the game has it."""
        for where in _PART_MODULES.get(part, (part,)):
            name = f"companion.games.{self.package}.{where}"
            try:
                if importlib.util.find_spec(name) is None:
                    continue
            except ModuleNotFoundError:
                continue
            return importlib.import_module(name)
        return None

    @property
    def players(self) -> str:
        """How many play, as a person says it ("1 player", "2 players", "2-4 players")."""
        if self.min_players == self.max_players:
            n = self.min_players
            return f"{n} player" if n == 1 else f"{n} players"
        return f"{self.min_players}-{self.max_players} players"

    def wrong_count(self, count: int) -> str:
        """Why `count` players cannot play this game, in a sentence for the players."""
        if self.max_players == 1:
            return f"{self.title} is a solo game: one player, not {count}"
        return f"{self.title} is played by {self.players}, not {count}"


_PART_MODULES: dict[str, tuple[str, ...]] = {
    "live": ("table.live", "live"),
    "sheets": ("vision.sheets", "sheets"),  # printable targets: `sheets(table) -> [Sheet]`
    "settings": ("settings",),  # its section of the settings: `SECTION`, `MODEL`, `DOC`
}
"""Where each part lives, in the order looked for: the split shape first."""


GAMES: dict[str, GameInfo] = {
    g.id: g
    for g in (
        GameInfo("looking-glass", "Reflections in the Looking Glass", "looking_glass", 2, 2),
        GameInfo("mirror-mansion", "Mirror Mansion", "mirror_mansion", 2, 4),
        GameInfo("reflecto", "Reflecto", "reflecto", 2, 2),
        GameInfo("onirim", "Onirim (with the Mirrors)", "onirim", 1, 1),
        GameInfo("queen-alice", "Queen Alice", "queen_alice", 2, 4),
    )
}


def get_game(game_id: str) -> GameInfo:
    try:
        return GAMES[game_id]
    except KeyError:
        raise UserError(f"unknown game {game_id!r} (known: {', '.join(GAMES)})") from None


def engine(game_id: str) -> Any:
    """The rules engine of a game, or a UserError if the game has none yet."""
    rules = get_game(game_id).module("rules")
    if rules is None or not hasattr(rules, "ENGINE"):
        raise UserError(f"game {game_id!r} has no rules engine yet")
    return rules.ENGINE


def engines() -> dict[str, Any]:
    """Every game that has a rules engine, for conformance tests and the game picker.

    A `rules` package without `ENGINE` holds pure rules (moves, scoring) of an engine still
    being built; it is not registered until it is whole.
    """
    found = {}
    for gid, info in GAMES.items():
        rules = info.module("rules")
        if rules is not None and hasattr(rules, "ENGINE"):
            found[gid] = rules.ENGINE
    return found


def games_with_command(verb: str) -> list[str]:
    names = []
    for gid, info in GAMES.items():
        commands = info.module("commands")
        if commands is not None and verb in commands.VERBS:
            names.append(gid)
    return names


def game_commands(game_id: str, verb: str) -> Callable[[list[str]], int]:
    info = get_game(game_id)
    commands = info.module("commands")
    if commands is None or verb not in commands.VERBS:
        have = games_with_command(verb)
        raise UserError(
            f"`{verb}` is not available for {game_id!r}"
            + (f" (available for: {', '.join(have)})" if have else "")
        )
    return commands.VERBS[verb]
