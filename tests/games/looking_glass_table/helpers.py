"""Shared helpers for the Looking Glass table tests: taught libraries and synthetic readings."""

from __future__ import annotations

import random

from companion.config import Settings
from companion.games.looking_glass.rules.deck import load_deck
from companion.games.looking_glass.rules.layout import load_layouts, placements
from companion.games.looking_glass.table.live import LookingGlassTable
from companion.games.looking_glass.table.messages import CardSeen, GlassObservation
from companion.games.looking_glass.vision.read import Reader, Reading
from companion.games.looking_glass.vision.render import Comparison, RoundFilm, compare, render_scene
from companion.games.looking_glass.vision.sim_deck import taught_sim_deck
from companion.store import Session


def teach_photos(seed: int) -> tuple[dict, dict]:
    """(art, one usable teach photo per card id) for a freshly drawn deck."""
    art, photos, _, _ = taught_sim_deck(seed)
    return art, photos


def taught(seed: int):
    art, _, lib, warnings = taught_sim_deck(seed)
    return art, lib, warnings


def development_table(seed: int) -> tuple[Comparison, Reading]:
    """A benchmark-style table (deck drawn and taught from its own photos, as the benchmark
    does) read against its truth, and the reading. Only seeds of development blocks: the
    benchmark's fresh blocks are never tested on."""
    art, lib, _ = taught(seed)
    img, truth = render_scene(seed, 0, art)
    reading = Reader(lib).read(img)
    return compare(reading.to_json("x"), truth), reading


def synthetic_reading(
    glass: dict[str, str],
    layout_id: str = "pyramid",
    hidden: set[str] = frozenset(),
    scale: float = 1.5,
) -> GlassObservation:
    """A perfect reading of `glass` (position -> card) with some positions not seen."""
    lay = load_layouts()[layout_id]
    cards = []
    for name, p in placements(lay).items():
        if name not in glass or name in hidden:
            continue
        half, cell = lay.locate(name)
        covered = any(lay.name_of(half, j) in glass for j in lay.covered_by[cell])
        cards.append(
            CardSeen(
                card=glass[name],
                center=(640 + p.x * scale, 480 + p.y * scale),
                covered=covered,
                confidence=0.9,
                position=name,
                width_px=63 * scale,
            )
        )
    return GlassObservation(cards=tuple(cards), layout=layout_id)


def random_glass(seed: int, layout_id: str = "pyramid") -> dict[str, str]:
    lay = load_layouts()[layout_id]
    cards = load_deck().cards(False)
    random.Random(seed).shuffle(cards)
    return dict(zip(lay.position_names, cards, strict=False))


def unlink(glass: dict[str, str], pos: str, reflection: str) -> None:
    """Put at `reflection` a character other than the one at `pos`, keeping the glass one the
    deck can deal (no more copies than the deck has, no Brawler)."""
    from collections import Counter

    counts = Counter(glass.values())
    counts[glass[reflection]] -= 1
    deck = load_deck()
    glass[reflection] = next(
        c for c in deck.normal_ids if c != glass[pos] and counts[c] < deck.copies(False)[c]
    )


def disturbed_round(settings: Settings | None = None):
    """(table game, its sim scene, a two-pick pyramid film of that scene's deck with hands,
    bumps and blur): what the live-play film tests feed the table game frame by frame."""
    game = LookingGlassTable(
        settings or Settings(), Session("t", "looking-glass", {}, ["Ann", "Bo"], 0.0)
    )
    scene = game.sim_scene(21)
    film = RoundFilm(
        21,
        art=scene.art,
        cond=scene.film(0).cond,
        hold=3,
        max_picks=2,
        disturb=4.0,
        layout_id="pyramid",
    )
    return game, scene, film
