"""Queen Alice's final scoring, from each player's end state (the rulebook's Final Scoring).

Four parts are added to the IP a player already has on the track: the coronation (8 IP per
Crown of the crowned colour, every Crown on a tie), the Alice's Wishes their Cat levels let
them score (platinum values for the crowned colour's Wishes), their invited guests (culled
cards' IP) and their end-game scoring bookmarks. Every player with the most IP wins.

Which colour is crowned is a reading of the rulebook (`scoring.toml` [coronation] reading):
"advanced_most" (the Final Scoring section) or "throne_first" (Alice's Path section).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from companion.errors import UserError
from companion.games.queen_alice.rules.board import COLOURS
from companion.paths import models_dir, read_model_toml

READINGS: tuple[str, ...] = ("advanced_most", "throne_first")
CAT_LEVELS: dict[str, int] = {"none": 0, "x1": 1, "x2": 2}
"""A Cat track's level: how many of that colour's Wishes the player scores."""


@dataclass(frozen=True)
class ScoringRules:
    crown_ip: int
    wishes_per_colour: int
    reading: str


@dataclass(frozen=True)
class Wish:
    """One Alice's Wish as scored for one player: its value on each side of the tile."""

    standard: int
    platinum: int


@dataclass(frozen=True)
class PlayerEnd:
    name: str
    track_ip: int
    crowns: dict[str, int]
    cats: dict[str, str]
    wishes: dict[str, tuple[Wish, ...]]
    culled_ip: tuple[int, ...]
    bookmarks: tuple[int, ...]


@dataclass(frozen=True)
class GameEnd:
    alice: dict[str, int]
    throne: str | None
    players: tuple[PlayerEnd, ...]


@dataclass(frozen=True)
class PlayerScore:
    name: str
    track: int
    coronation: int
    wishes: int
    wishes_counted: dict[str, tuple[int, ...]]
    guests: int
    bookmarks: int

    @property
    def total(self) -> int:
        return self.track + self.coronation + self.wishes + self.guests + self.bookmarks


@dataclass(frozen=True)
class FinalScore:
    crowned: str | None
    reading: str
    players: tuple[PlayerScore, ...]

    @property
    def winners(self) -> tuple[str, ...]:
        best = max(p.total for p in self.players)
        return tuple(p.name for p in self.players if p.total == best)

    def to_json(self) -> dict[str, object]:
        return {
            "coronation": {"colour": self.crowned, "reading": self.reading},
            "players": [
                {
                    "name": p.name,
                    "track": p.track,
                    "coronation": p.coronation,
                    "wishes": p.wishes,
                    "wishes_counted": {c: list(ix) for c, ix in p.wishes_counted.items()},
                    "guests": p.guests,
                    "bookmarks": p.bookmarks,
                    "total": p.total,
                }
                for p in self.players
            ],
            "winners": list(self.winners),
        }


def crowned_colour(end: GameEnd, reading: str) -> str | None:
    """The colour Alice is crowned with, or None for a tie (no Wish flipped)."""
    if reading == "throne_first" and end.throne is not None:
        return end.throne
    red, white = end.alice["red"], end.alice["white"]
    if red == white:
        return None
    return "red" if red > white else "white"


def _wishes(player: PlayerEnd, colour: str, crowned: str | None) -> tuple[int, tuple[int, ...]]:
    """The best Wishes the Cat level allows ("of your choice": the player takes the best)."""
    side = "platinum" if colour == crowned else "standard"
    values = [getattr(w, side) for w in player.wishes[colour]]
    allowed = CAT_LEVELS[player.cats[colour]]
    best = sorted(range(len(values)), key=lambda i: (-values[i], i))[:allowed]
    return sum(values[i] for i in best), tuple(sorted(best))


def final_score(end: GameEnd, rules: ScoringRules) -> FinalScore:
    crowned = crowned_colour(end, rules.reading)
    scored = []
    for player in end.players:
        crowns = sum(player.crowns.values()) if crowned is None else player.crowns[crowned]
        wish_ip, counted = 0, {}
        for colour in COLOURS:
            ip, counted[colour] = _wishes(player, colour, crowned)
            wish_ip += ip
        scored.append(
            PlayerScore(
                name=player.name,
                track=player.track_ip,
                coronation=rules.crown_ip * crowns,
                wishes=wish_ip,
                wishes_counted=counted,
                guests=sum(player.culled_ip),
                bookmarks=sum(player.bookmarks),
            )
        )
    return FinalScore(crowned, rules.reading, tuple(scored))


def load_scoring_rules(folder: Path | None = None) -> ScoringRules:
    """The scoring model from `models/queen-alice/scoring.toml` (or `folder`)."""
    path = (folder or models_dir() / "queen-alice") / "scoring.toml"
    data = read_model_toml(path)
    coronation, wishes = data.get("coronation", {}), data.get("wishes", {})
    crown_ip, per_colour = coronation.get("crown_ip"), wishes.get("per_colour")
    reading = coronation.get("reading")
    for key, value in (("[coronation] crown_ip", crown_ip), ("[wishes] per_colour", per_colour)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise UserError(f"{path}: {key} must be a whole number >= 0")
    if reading not in READINGS:
        raise UserError(f"{path}: [coronation] reading must be one of {', '.join(READINGS)}")
    return ScoringRules(crown_ip, per_colour, reading)
