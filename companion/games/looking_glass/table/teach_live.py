"""Teaching the deck with the live camera, one card at a time, from the dashboard.

The same card finder and the same library as `companion teach looking-glass DIR` (teach.py):
a frame is a teach photo that the camera takes when the user taps Capture. The user sees the
rectified card before it is stored (a wrong card or a hand across it is retaken, not taught),
and each confirmed card is saved to the library file right away, which the running game's
reader loads on its next frame: the table reads the new card without a restart.

Cards taught earlier and not shown again in this session stay in the library. They were cut
with the earlier library's card shape, so the new cards are cut with that shape too; when the
session has shown every card, the shape is measured again from its own frames, as the CLI does.
"""

from __future__ import annotations

import base64
import dataclasses
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import UserError
from companion.games.looking_glass.rules.deck import BRAWLERS, Deck
from companion.games.looking_glass.vision.library import CARD_W_MM, CardShape, Library
from companion.games.looking_glass.vision.teach import (
    SIMILAR,
    FoundCard,
    TeachError,
    find_card,
    learn_card,
    library_from_found,
    look_alike_warnings,
)

PREVIEW_PX_PER_MM = 3.0
"""The rectified card shown for confirmation: 189 px wide, enough to check it on a phone."""
CROP_MARGIN = 0.3
"""A captured frame is kept cropped to its card plus this much of the card's size around it
(a session holds up to 12 frames; whole frames would be tens of MB)."""


class NotNow(UserError):
    """A teach step out of order (confirm before capture, capture with no session): 409."""


def refusal(exc: TeachError) -> str:
    """What the camera says when a frame is not one card, in the dashboard's words."""
    if exc.cards_seen == 0:
        return "I see no card: put the whole card face up in view, with its border"
    if exc.cards_seen is not None:
        return f"I see {exc.cards_seen} cards: show one at a time"
    return str(exc)


@dataclass
class Shot:
    """One card's frame, cropped around the card, and where the card lies in it."""

    card: str
    image: np.ndarray
    found: FoundCard
    preview: str
    """The rectified card as a `data:image/jpeg;base64,...` URL."""
    resembles: str | None = None
    """A card taught earlier that this one looks like (the wrong card shown?)."""


def crop_to_card(image: np.ndarray, found: FoundCard) -> tuple[np.ndarray, FoundCard]:
    size = float(np.linalg.norm(found.outer[2] - found.outer[0]))
    lo = np.floor(found.outer.min(axis=0) - CROP_MARGIN * size).astype(int)
    hi = np.ceil(found.outer.max(axis=0) + CROP_MARGIN * size).astype(int)
    x0, y0 = max(0, lo[0]), max(0, lo[1])
    x1, y1 = min(image.shape[1], hi[0]), min(image.shape[0], hi[1])
    shift = np.array([x0, y0], float)
    return image[y0:y1, x0:x1].copy(), found.moved(shift)


def preview_jpeg(image: np.ndarray, found: FoundCard, shape: CardShape) -> bytes:
    """The found card rectified upright to the card's shape (one photo's own aspect is bent by
    the camera's tilt), its upper-half patch (what the camera matches) outlined."""
    s = PREVIEW_PX_PER_MM
    w, h = round(CARD_W_MM * s), round(shape.height_mm * s)
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    H = cv2.getPerspectiveTransform(found.outer.astype(np.float32), dst)
    card = cv2.warpPerspective(image, H, (w, h), flags=cv2.INTER_AREA)
    x0, y0, x1, y1 = shape.patch_region()
    cv2.rectangle(
        card,
        (round(x0 * s), round(y0 * s)),
        (round(x1 * s), round(y1 * s)),
        (255, 200, 60),
        1,
        cv2.LINE_AA,
    )
    ok, jpeg = cv2.imencode(".jpg", card, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:  # pragma: no cover - OpenCV always encodes a uint8 BGR image
        raise RuntimeError("JPEG encoding failed")
    return jpeg.tobytes()


def data_url(jpeg: bytes) -> str:
    return "data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii")


class TeachSession:
    """One pass over the deck: which cards are still to show, the shot awaiting confirmation,
    and the library file each confirmed card is saved to. Thread-safe (web worker threads)."""

    def __init__(self, deck: Deck, library_path: Path, brawlers: bool) -> None:
        self.deck = deck
        self.brawlers = brawlers
        self.ids = [c.id for c in deck.characters if brawlers or c.id not in BRAWLERS]
        self.names = {c.id: c.name for c in deck.characters}
        self.library_path = Path(library_path)
        self.previous = self._load_previous()
        self.library = self.previous
        """The library as last saved (what the reader uses now)."""
        self.taught: dict[str, Shot] = {}
        self.pending: Shot | None = None
        self.warnings: list[str] = []
        self._lock = threading.Lock()

    def _load_previous(self) -> Library | None:
        """The library taught before this session, if any (an unreadable one is replaced)."""
        if not self.library_path.is_file():
            return None
        try:
            return Library.load(self.library_path)
        except UserError:
            return None

    # -- steps ------------------------------------------------------------------------

    def card_id(self, card: str | None) -> str:
        """The card a step is about: the one named (checked), else the next one to show."""
        if card is None:
            nxt = self.next_card()
            if nxt is None:
                raise NotNow("every card is taught; start again to reteach one")
            return nxt
        self.deck.character(card)  # UserError (400) for an unknown id
        if card not in self.ids:
            raise UserError(
                f"{self.names[card]} is a Brawler: start teaching with the Brawlers to teach it"
            )
        return card

    def capture(self, card: str | None, frame: np.ndarray) -> dict[str, Any]:
        """Find the one card in a frame and hold it for confirmation; TeachError if it is not
        exactly one card."""
        cid = self.card_id(card)
        found = find_card(frame)
        image, found = crop_to_card(frame, found)
        with self._lock:
            shape = self.library.shape if self.library is not None else CardShape()
            shot = Shot(cid, image, found, data_url(preview_jpeg(image, found, shape)))
            shot.resembles = self._resembles(shot)
            self.pending = shot
            return self.status()

    def _resembles(self, shot: Shot) -> str | None:
        """A card already in the library that this shot matches as well as two copies of one
        card would: most likely the wrong card was shown."""
        lib = self.library
        if lib is None:
            return None
        others = [i for i, cid in enumerate(lib.ids) if cid != shot.card]
        if not others:
            return None
        found = dataclasses.replace(shot.found)
        template, _ = learn_card(shot.image, found, lib.shape, lib)
        flat = lib.templates[others].reshape(len(others), -1)
        flat = flat / np.maximum(1e-6, np.linalg.norm(flat, axis=1, keepdims=True))
        v = template.reshape(-1)
        sims = flat @ (v / max(1e-6, float(np.linalg.norm(v))))
        best = int(np.argmax(sims))
        return lib.ids[others[best]] if sims[best] >= SIMILAR else None

    def confirm(self, card: str | None) -> dict[str, Any]:
        """Store the held shot: rebuild the library and save it where the reader loads it."""
        if card is not None:
            self.deck.character(card)  # UserError (400) for an unknown id
        with self._lock:
            shot = self.pending
            if shot is None:
                what = f" for {self.names[card]}" if card is not None else ""
                raise NotNow(f"nothing captured{what}: capture the card first")
            if card is not None and card != shot.card:
                raise NotNow(
                    f"the captured card is {self.names[shot.card]}, "
                    f"not {self.names[card]}: confirm or retake it"
                )
            taught = {**self.taught, shot.card: shot}
            lib, warnings = self._library(taught)
            lib.save(self.library_path)
            self.library = lib
            self.taught = taught
            self.pending = None
            self.warnings = warnings
            return self.status()

    def retake(self) -> dict[str, Any]:
        with self._lock:
            self.pending = None
            return self.status()

    def _library(self, taught: dict[str, Shot]) -> tuple[Library, list[str]]:
        prev = self.previous
        keep = [i for i, cid in enumerate(prev.ids) if cid not in taught] if prev else []
        shape = prev.shape if prev is not None and keep else None
        images = {cid: s.image for cid, s in taught.items()}
        found = {cid: dataclasses.replace(s.found) for cid, s in taught.items()}
        new, warnings = library_from_found(images, found, shape)
        if prev is not None and keep:
            faces = (
                None
                if new.faces is None or prev.faces is None
                else np.concatenate([new.faces, prev.faces[keep]])
            )
            new = Library(
                [*new.ids, *(prev.ids[i] for i in keep)],
                np.concatenate([new.templates, prev.templates[keep]]),
                np.concatenate([new.patches, prev.patches[keep]]),
                new.shape,
                faces,
            )
        lib = new.subset(sorted(range(len(new.ids)), key=lambda i: new.ids[i]))
        return lib, warnings + look_alike_warnings(lib, self.names)

    # -- what the dashboard shows ------------------------------------------------------

    def next_card(self) -> str | None:
        return next((cid for cid in self.ids if cid not in self.taught), None)

    def status(self) -> dict[str, Any]:
        nxt = self.next_card()
        pending = self.pending
        return {
            "active": True,
            "brawlers": self.brawlers,
            "cards": [
                {"id": cid, "name": self.names[cid], "taught": cid in self.taught}
                for cid in self.ids
            ],
            "next": None if nxt is None else {"id": nxt, "name": self.names[nxt]},
            "taught": len(self.taught),
            "total": len(self.ids),
            "done": nxt is None,
            "pending": None
            if pending is None
            else {
                "card": pending.card,
                "name": self.names[pending.card],
                "preview": pending.preview,
                "warning": None
                if pending.resembles is None
                else (
                    f"this looks like {self.names[pending.resembles]}, taught already: "
                    f"is it really {self.names[pending.card]}?"
                ),
            },
            "warnings": list(self.warnings),
        }


def idle_status() -> dict[str, Any]:
    return {
        "active": False,
        "cards": [],
        "next": None,
        "taught": 0,
        "total": 0,
        "done": False,
        "pending": None,
        "warnings": [],
    }
