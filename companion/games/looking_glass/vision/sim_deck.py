"""A freshly drawn deck taught from its own simulated photos: the sim camera's, the tests'
and the benchmark's starting point, so all three teach the companion the way a user would.

The house style by default (the live `sim` camera must show a deck the reader knows); pass a
`DeckStyle` (e.g. `render.sample_style(seed)`) for a deck of randomised design."""

from __future__ import annotations

from typing import Any

import numpy as np

from companion.games.looking_glass.rules.deck import load_deck
from companion.games.looking_glass.vision.art import DeckStyle, draw_deck
from companion.games.looking_glass.vision.library import Library
from companion.games.looking_glass.vision.render import teach_photo_of
from companion.games.looking_glass.vision.teach import TeachError, find_card, teach_images

RETAKES = 5


def taught_sim_deck(
    seed: int, style: DeckStyle | None = None
) -> tuple[dict[str, Any], dict[str, np.ndarray], Library, list[str]]:
    """(art, teach photos, library, teach warnings) for the deck drawn from `seed`.

    A user whose photo is refused (a glare across the card) takes another one; when teach
    refuses the set as a whole (the same glare), the whole set is taken again.
    """
    ids = load_deck().ids
    art = draw_deck(ids, seed, style)
    rng = np.random.default_rng([seed, 5])
    photos: dict[str, np.ndarray] = {}
    for cid in ids:
        for _ in range(RETAKES):
            photos[cid] = teach_photo_of(art[cid], rng)
            try:
                find_card(photos[cid])
                break
            except TeachError:
                continue
    for attempt in range(RETAKES):
        try:
            library, warnings = teach_images(photos)
            return art, photos, library, warnings
        except TeachError:
            if attempt == RETAKES - 1:
                raise
            photos = {cid: teach_photo_of(art[cid], rng) for cid in ids}
    raise AssertionError("unreachable")
