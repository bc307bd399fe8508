"""The Looking Glass's card library: where it is kept. What a library is and how cards are
matched against it is game-independent (`companion.vision.cards.library`)."""

from __future__ import annotations

from pathlib import Path

from companion.vision.cards.library import (
    CARD_W_MM,
    CELLS_X,
    CELLS_Y,
    CHANNEL_WEIGHTS,
    FORMAT,
    PATCH_H,
    PATCH_LEN,
    PATCH_W,
    SEARCH_PX,
    VISIBLE_SHARE,
    CardShape,
    Library,
    descriptor,
)

__all__ = [
    "CARD_W_MM",
    "CELLS_X",
    "CELLS_Y",
    "CHANNEL_WEIGHTS",
    "FORMAT",
    "PATCH_H",
    "PATCH_LEN",
    "PATCH_W",
    "SEARCH_PX",
    "VISIBLE_SHARE",
    "CardShape",
    "Library",
    "default_library_path",
    "descriptor",
]


def default_library_path(data_dir: Path) -> Path:
    return Path(data_dir) / "looking-glass" / "cards.npz"
