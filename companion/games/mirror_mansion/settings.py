"""Mirror Mansion's section of the settings: the sticker kit's colours (`[stickers]`)."""

from __future__ import annotations

from companion.games.mirror_mansion.vision.stickers import StickerSettings

SECTION = "stickers"
MODEL = StickerSettings
DOC = "Mirror Mansion's sticker colours as the camera sees them (`[stickers.mirror_dot]` ...)."
