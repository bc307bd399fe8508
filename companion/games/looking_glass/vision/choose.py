"""Which reader reads a taught deck: the light-border reader is tried on the deck itself.

The light-border reader (`read.Reader`) finds a card as a hole in its light border and reads
the decks it was built for almost perfectly and fast; on others (a dark, coloured or missing
border, a thin light frame, a light border it takes for something else) it reads few cards,
and no measure of the border alone told those apart (a border's measured width, `light_mm`
below, chose worse than giving every deck to the staged reader). The staged reader
(`reader.StagedReader`) finds cards by their art's local features, whatever the border, but
is slower. So the deck decides by a trial: its taught faces are laid out as glasses (every
layout card of `models/`, the deck's measured size, plain tables, the faces warped in as
teach cut them) and the light-border reader reads them. A deck it reads well enough
(`GLASS_RIGHT`) is its; any other the staged reader's. A face teach cut badly (the table
taken for its border) is read badly too, so the trial also judges the cut.

The trial takes about a second; it is taken once per deck, kept in the library
(`Library.notes`), and its reason is shown by `teach`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from companion.vision.cards.library import CARD_W_MM, Library
from companion.vision.homography import apply_homography

if TYPE_CHECKING:
    from companion.games.looking_glass.rules.layout import Layout
    from companion.games.looking_glass.vision.read import Reader
    from companion.games.looking_glass.vision.reader import StagedReader

GLASS_RIGHT = 0.95
"""A deck is the light-border reader's if it names at least this share of the cards of the
taught glasses right (`glass_trial`), none wrong and none where no card lies. From the curve
over 24 development decks (12 house, 12 randomised, 891 cards on 2 tables a deck;
`benchmarks/looking_glass_reader_choice.py --decks 12 --tables 2` on development seeds),
cards right under the choice: 0.0: 565, 0.25 to 0.8: 769, 0.85 to 1.0: 781, none (every deck
staged): 754. House decks read 140 of 140, randomised ones 0 to 6, 113, 123 or 140; the
middle of the flat best. (The light-border width rule it replaces, 2.3 mm, read the same 781
here: both gave the same 14 decks to the light-border reader; on held-out decks, measured
only, it gave a deck of 2.94 mm the light-border reader, which read 0 of its 42 cards, where
the trial gave it the staged one, 24.) Again with 32 more randomised development decks (56
decks, 1,954 cards; rows in `benchmarks/results/looking_glass_reader_choice_glass_rows_lg16.jsonl`):
0.0: 802, 0.7 to 0.8: 1,663, 0.85: 1,675, 0.9 to 1.0: 1,679, none: 1,671; 0.95 stays. What no
threshold here can mend: a randomised deck whose taught glasses read 140 of 140 and whose
tables read 19 of 40 (staged 40), see `benchmarks/looking_glass_second_opinion.py`."""
TRIAL = 1
"""The trial's version: a library that kept a trial of another version is tried again."""
GLASS_SIZE = (1280, 960)
"""A taught glass is drawn at the size the readers are specified for..."""
CARD_PX = 86.0
"""...with cards about as narrow as the readers are specified for (84 px; less where a layout
would not fit), softened (`BLUR`) and compressed (`JPEG`) as a photograph is: a deck the
light-border reader reads only when its cards are sharp and large is not its deck."""
BLUR = 1.0
"""Gaussian sigma (px) of the lens."""
JPEG = 75
"""JPEG quality of the glass as the camera hands it over."""
TABLES = (((62, 66, 74), 0.0), ((196, 202, 206), 35.0))
"""The plain tables the glasses lie on (BGR) and the glass's turn on each (degrees): a dark
table and a light one, since a deck's light border may stand out on one and not the other;
the layouts alternate between them."""


@dataclass(frozen=True)
class GlassTrial:
    """What the light-border reader made of the taught glasses."""

    cards: int
    right: int
    wrong: int
    """Named as another card."""
    extra: int
    """Read where no card lies."""

    @property
    def share(self) -> float:
        return self.right / max(1, self.cards)

    def to_json(self) -> dict[str, Any]:
        return {"version": TRIAL, **self.__dict__}


@dataclass(frozen=True)
class Choice:
    """The reader a library calls for, and why, in words a user can act on."""

    kind: str
    reason: str


def taught_glass(lib: Library, layout: Layout, table: int) -> tuple[np.ndarray, dict[str, Any]]:
    """The library's faces dealt on `layout` (cards cycled through the taught ids) on plain
    table `table` (`TABLES`), seen from straight above; and its truth, as
    `render.compare` takes it."""
    from companion.games.looking_glass.rules.layout import TableGeometry, placements
    from companion.sim import effects

    assert lib.faces is not None
    colour, turn = TABLES[table % len(TABLES)]
    w, h = GLASS_SIZE
    places = placements(layout, TableGeometry(CARD_W_MM, lib.shape.height_mm))
    a = math.radians(turn)
    R = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    corners = np.array([p.corners() for p in places.values()]).reshape(-1, 2)
    turned = corners @ R[:2, :2].T
    span = turned.max(axis=0) - turned.min(axis=0)
    px_mm = min(CARD_PX / CARD_W_MM, 0.9 * w / span[0], 0.9 * h / span[1])
    mid = (turned.max(axis=0) + turned.min(axis=0)) / 2
    H = np.array(
        [[px_mm, 0, w / 2 - px_mm * mid[0]], [0, px_mm, h / 2 - px_mm * mid[1]], [0, 0, 1]]
    )
    H = H @ R
    img = np.empty((h, w, 3), np.uint8)
    img[:] = colour
    fh, fw = lib.faces.shape[1:3]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    truth = []
    shift = table * 3
    for k, (name, p) in enumerate(places.items()):
        face_i = (k + shift) % len(lib.ids)
        quad = apply_homography(H, p.corners())
        # Each face warped into its own box of the glass, not into the whole frame.
        x0, y0 = np.floor(quad.min(axis=0)).astype(int)
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
        size = (x1 - x0, y1 - y0)
        M = cv2.getPerspectiveTransform(src, (quad - (x0, y0)).astype(np.float32))
        face = cv2.warpPerspective(lib.faces[face_i], M, size, flags=cv2.INTER_AREA)
        inside = cv2.warpPerspective(np.full((fh, fw), 255, np.uint8), M, size) > 127
        img[y0:y1, x0:x1][inside] = face[inside]
        _, cell = layout.locate(name)
        centre = quad.mean(axis=0)
        truth.append(
            {
                "card": lib.ids[face_i],
                "center": [float(centre[0]), float(centre[1])],
                "covered": bool(layout.covered_by[cell]),
                "quad": quad.tolist(),
            }
        )
    img = cv2.GaussianBlur(img, (0, 0), BLUR)
    img = effects.jpeg(img, JPEG)
    return img, {"cards": truth, "layout": layout.id}


def glass_trial(lib: Library) -> GlassTrial:
    """The light-border reader on the library's taught glasses (`taught_glass`): every
    layout card of `models/`, alternately on each table of `TABLES`."""
    from companion.games.looking_glass.rules.layout import load_layouts
    from companion.games.looking_glass.vision.read import Reader
    from companion.games.looking_glass.vision.render import Comparison, compare

    # (Each face lies on the trial glass more often than the deck has it: no count check.)
    reader = Reader(lib, use_markers=False, copies={})
    total = Comparison()
    for k, layout in enumerate(load_layouts().values()):
        img, truth = taught_glass(lib, layout, k)
        total.add(compare(reader.read(img).to_json("glass"), truth))
    return GlassTrial(total.cards, total.right, total.wrong, total.extra)


def reader_choice(lib: Library) -> Choice:
    """The reader this library calls for and why (module docstring). The trial is taken
    once and kept in `lib.notes`; the library's owner saves it. A library taught before
    whole faces were kept can only be read by the light-border reader."""
    if lib.faces is None or not len(lib.faces):
        return Choice("light-border", "taught before whole faces were kept")
    kept = lib.notes.get("glass_trial")
    if isinstance(kept, dict) and kept.get("version") == TRIAL:
        trial = GlassTrial(*(int(kept[k]) for k in ("cards", "right", "wrong", "extra")))
    else:
        trial = glass_trial(lib)
        lib.notes["glass_trial"] = trial.to_json()
    said = (
        f"the light-border reader read {trial.right} of {trial.cards} cards of the taught "
        f"glasses right ({trial.wrong} named wrong, {trial.extra} where none lies)"
    )
    if trial.share >= GLASS_RIGHT and trial.wrong == 0 and trial.extra == 0:
        return Choice("light-border", f"{said}: it reads this deck")
    return Choice("staged", f"{said}, below {GLASS_RIGHT:.0%} right: the staged reader reads it")


def reader_kind(lib: Library) -> str:
    """Which reader reads this library, "light-border" or "staged" (`reader_choice`)."""
    return reader_choice(lib).kind


def make_reader(lib: Library, kind: str = "auto") -> Reader | StagedReader:
    """The reader `kind` names (`commands.READERS`; "auto": `reader_kind`) for this library."""
    from companion.games.looking_glass.vision.read import Reader
    from companion.games.looking_glass.vision.reader import StagedReader

    if kind not in ("auto", "light-border", "staged"):
        raise ValueError(f"unknown reader {kind!r}")
    if kind == "auto":
        kind = reader_kind(lib)
    return StagedReader(lib) if kind == "staged" else Reader(lib)
