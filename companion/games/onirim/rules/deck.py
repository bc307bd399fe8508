"""The deck and the Mirror cards, read from models/onirim/deck.toml.

A card is named by its kind, the way `read` writes it: `red-sun` (a Location: colour and
symbol), `door-blue`, `nightmare`. Cards of one kind are interchangeable, so the engine
counts kinds and never tells two copies apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import UserError
from companion.paths import models_dir, read_model_toml

NIGHTMARE = "nightmare"


def door(colour: str) -> str:
    return f"door-{colour}"


@cache
def is_door(card: str) -> bool:
    return card.startswith("door-")


@cache
def is_location(card: str) -> bool:
    return card != NIGHTMARE and not is_door(card)


@cache
def colour_of(card: str) -> str:
    """The colour of a Location or a Door."""
    return card.removeprefix("door-").split("-")[0]


@cache
def symbol_of(card: str) -> str:
    return card.split("-")[1]


@dataclass(frozen=True)
class MirrorCard:
    id: str
    matches: str  # a colour, a symbol, or "each-colour"
    use: str  # "always", "hard" or "glyphs"
    effect: str
    required: bool


@dataclass(frozen=True)
class Deck:
    colours: tuple[str, ...]
    symbols: tuple[str, ...]
    copies: dict[str, int]  # kind -> copies in the full deck
    hand_size: int
    prophecy_size: int
    nightmare_reveal: int
    series_length: int
    mirrors: dict[str, MirrorCard]
    cards_to_explore: int
    if TYPE_CHECKING:  # set in __post_init__, for the type checker only (no dataclass field)
        _index: dict[str, int] = field(init=False)
        _doors_total: int = field(init=False)

    @property
    def kinds(self) -> tuple[str, ...]:
        """Every kind, in one fixed order (Locations, Doors, then the Nightmare)."""
        return tuple(self.copies)

    @property
    def index(self) -> dict[str, int]:
        """Each kind's position in `kinds` (and in a state's deck counts)."""
        return self._index

    @property
    def doors_total(self) -> int:
        return self._doors_total

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {k: i for i, k in enumerate(self.copies)})
        object.__setattr__(
            self, "_doors_total", sum(n for k, n in self.copies.items() if is_door(k))
        )

    @property
    def size(self) -> int:
        return sum(self.copies.values())

    def mirrors_in_game(self, mirrors: bool, hard: bool) -> tuple[str, ...]:
        if not mirrors:
            return ()
        return tuple(
            m.id for m in self.mirrors.values() if m.use == "always" or (hard and m.use == "hard")
        )


def _int(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise UserError(f"deck.toml: {where} must be a whole number >= 0, not {value!r}")
    return value


def parse_deck(data: dict[str, Any]) -> Deck:
    try:
        colours = tuple(data["colours"])
        symbols = tuple(data["symbols"])
        copies: dict[str, int] = {}
        for colour in colours:
            for symbol in symbols:
                n = data["locations"][colour][symbol]
                copies[f"{colour}-{symbol}"] = _int(n, f"locations.{colour}.{symbol}")
        for colour in colours:
            copies[door(colour)] = _int(data["doors"]["per_colour"], "doors.per_colour")
        copies[NIGHTMARE] = _int(data["nightmares"]["copies"], "nightmares.copies")
        mirrors = {
            mid: MirrorCard(mid, m["matches"], m["use"], m["effect"], bool(m.get("required")))
            for mid, m in data["mirrors"].items()
            if isinstance(m, dict)
        }
        return Deck(
            colours=colours,
            symbols=symbols,
            copies=copies,
            hand_size=_int(data["hand_size"], "hand_size"),
            prophecy_size=_int(data["prophecy_size"], "prophecy_size"),
            nightmare_reveal=_int(data["nightmare_reveal"], "nightmare_reveal"),
            series_length=_int(data["series_length"], "series_length"),
            mirrors=mirrors,
            cards_to_explore=_int(data["mirrors"]["cards_to_explore"], "cards_to_explore"),
        )
    except KeyError as exc:
        raise UserError(f"deck.toml: missing {exc.args[0]!r}") from None


@lru_cache(maxsize=4)
def load_deck(path: Path | None = None) -> Deck:
    return parse_deck(read_model_toml(path or models_dir() / "onirim" / "deck.toml"))
