"""The character cards and the scoring reference card, read from models/looking-glass/deck.toml."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.paths import models_dir, read_model_toml

LION = "lion"
UNICORN = "unicorn"
BRAWLERS = (LION, UNICORN)


@dataclass(frozen=True)
class Character:
    id: str
    name: str
    team: str  # "sun", "moon" or "brawler"
    copies: int
    expansion: str | None = None


@dataclass(frozen=True)
class Deck:
    characters: tuple[Character, ...]
    sun_points: tuple[int, ...]  # points for a stack of 1..4 cards
    moon_points: tuple[int, ...]
    lion_alone: int
    unicorn_alone: int
    both_brawlers: int
    banned_by: frozenset[str]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.characters)

    @property
    def normal_ids(self) -> tuple[str, ...]:
        """The ten characters of the base game, in deck-file order (Sun team first)."""
        return tuple(c.id for c in self.characters if c.team != "brawler")

    def character(self, card_id: str) -> Character:
        for c in self.characters:
            if c.id == card_id:
                return c
        raise UserError(f"unknown card id {card_id!r} (known: {', '.join(self.ids)})")

    def copies(self, brawlers: bool) -> Counter[str]:
        """How many of each card are in play: the base deck, plus the Brawlers if used."""
        return Counter({c.id: c.copies for c in self.characters if brawlers or c.team != "brawler"})

    def cards(self, brawlers: bool) -> list[str]:
        """Every physical card, one entry per copy, in a fixed order (shuffle it yourself)."""
        return [cid for cid, n in self.copies(brawlers).items() for _ in range(n)]

    def stack_points(self, card_id: str, count: int) -> int:
        """Points of a stack of `count` cards of one normal character (0 for none)."""
        if count == 0:
            return 0
        team = self.character(card_id).team
        table = self.sun_points if team == "sun" else self.moon_points
        return table[count - 1]


def _parse(data: dict[str, Any], source: str) -> Deck:
    try:
        chars = tuple(
            Character(
                id=str(c["id"]),
                name=str(c["name"]),
                team=str(c["team"]),
                copies=int(c["copies"]),
                expansion=c.get("expansion"),
            )
            for c in data["card"]
        )
        s = data["scoring"]
        deck = Deck(
            characters=chars,
            sun_points=tuple(int(v) for v in s["sun"]),
            moon_points=tuple(int(v) for v in s["moon"]),
            lion_alone=int(s["lion_alone"]),
            unicorn_alone=int(s["unicorn_alone"]),
            both_brawlers=int(s["both"]),
            banned_by=frozenset(data["brawlers"]["banned_by"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise UserError(f"{source}: malformed deck file ({exc!r})") from None
    teams = {c.team for c in chars}
    if not teams <= {"sun", "moon", "brawler"}:
        raise UserError(f"{source}: unknown team in {sorted(teams)}")
    if {c.id for c in chars if c.team == "brawler"} != set(BRAWLERS):
        raise UserError(f"{source}: the brawlers must be exactly {', '.join(BRAWLERS)}")
    most = max(c.copies for c in chars)
    if len(deck.sun_points) < most or len(deck.moon_points) < most:
        raise UserError(f"{source}: the scoring table must cover stacks up to {most} cards")
    return deck


@lru_cache(maxsize=4)
def load_deck(path: Path | None = None) -> Deck:
    path = path or models_dir() / "looking-glass" / "deck.toml"
    return _parse(read_model_toml(path), str(path))
