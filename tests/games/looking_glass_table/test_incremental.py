"""Incremental reading (`vision.incremental`): live play reads in full only where the table
changed, and what it reads is what a full read of the same frame reads.

A scripted round with hands over the table, picks, a card lifted and put back, a bump and
blurred frames, and a camera nudged by a few pixels for a few frames, goes through the live
table game's `perceive` with the registration the live loop makes. Each frame is also read in
full (`Reader.read`, then `verify` with the same remembered cards): the same cards must lie at
the same places, and the same cards be hidden, frame by frame. Places are compared where the
tracker compares them, by their centres in the image: a full read may number the glass's
columns afresh when a hand hides its edge column, which the tracker, following each place by
its centre, does not see."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np

from companion.config import Settings
from companion.games.looking_glass.table.live import LookingGlassTable
from companion.games.looking_glass.vision.incremental import IncrementalReader
from companion.games.looking_glass.vision.read import Reader, SeenCard
from companion.store import Session
from companion.vision.markers import detect_markers
from companion.vision.registration import TableRegistrar
from companion.vision.stillness import StillnessMeter, thumbnail
from tests.games.looking_glass_table.helpers import disturbed_round

NUDGE_PX = (3.0, 2.0)
SAME_PLACE = 0.15
"""Card widths two centres of one card may lie apart in two readings of one frame (the
tracker takes a card as at a place within 0.45: `track.MATCH_FRACTION`)."""


def _same_cards(a: list[SeenCard], b: list[SeenCard]) -> bool:
    """The same cards at the same places (each centre within `SAME_PLACE` card widths)."""
    left = list(b)
    for card in a:
        width = float(np.linalg.norm(card.quad[1] - card.quad[0]))
        k = next(
            (
                i
                for i, other in enumerate(left)
                if other.card == card.card
                and np.linalg.norm(other.center - card.center) <= SAME_PLACE * width
            ),
            None,
        )
        if k is None:
            return False
        left.pop(k)
    return not left


def _nudged(image: np.ndarray) -> np.ndarray:
    """The frame as a camera knocked a few pixels aside sees it."""
    shift = np.float32([[1, 0, NUDGE_PX[0]], [0, 1, NUDGE_PX[1]]])
    return cv2.warpAffine(image, shift, image.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)


def test_an_incremental_reading_equals_the_full_reading_frame_by_frame():
    settings = Settings()
    game, scene, film = disturbed_round(settings)
    registrar = TableRegistrar(settings.table)
    reader = Reader(scene.library)
    nudge = range(len(film) // 2, len(film) // 2 + 4)
    ways: list[str] = []
    for i in range(len(film)):
        image, truth = film.render(i)
        if i in nudge:
            image = _nudged(image)
        registration = registrar.register(image, markers=detect_markers(image), table_image=False)
        prior = game.remembered()
        game.perceive(SimpleNamespace(image=image, truth=truth), registration)
        (how,) = [k.removeprefix("read.") for k in game.perceive_ms if k.startswith("read.")]
        ways.append(how)
        seen = game.last_reading
        full = reader.verify(
            image, reader.read(image, registration.H_table_from_image, registration.markers), prior
        )
        assert _same_cards(seen.cards, full.cards), f"frame {i} ({ways[-1]})"
        assert _same_cards(seen.hidden, full.hidden), f"frame {i} ({ways[-1]})"
    # The film really was read incrementally: frames left as they were, frames where only
    # some cards changed, and full reads (the nudge forces one).
    assert {"same", "cards", "full"} <= set(ways), ways
    assert ways[nudge[0]] == "full", ways


def test_a_still_frame_is_not_read_again_and_a_moved_camera_is():
    game = LookingGlassTable(Settings(), Session("t", "looking-glass", {}, ["Ann", "Bo"], 0.0))
    scene = game.sim_scene(21)
    film = scene.film(0)
    image = film.render(0)[0]
    registrar = TableRegistrar(Settings().table)
    incremental = IncrementalReader(Reader(scene.library))
    meter = StillnessMeter()

    def read(img: np.ndarray) -> str:
        reg = registrar.register(img, markers=detect_markers(img), table_image=False)
        thumb = thumbnail(img)
        incremental.read(img, reg.H_table_from_image, thumb, meter.still(img, thumb))
        return incremental.last.how

    first = film.render(1)[0]  # the same table, fresh noise
    assert [read(image), read(first), read(image)] == ["full", "same", "same"]
    assert read(_nudged(image)) == "full"
