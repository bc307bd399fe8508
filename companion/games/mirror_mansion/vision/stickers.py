"""The sticker kit's colours, as settings: users who print other stickers say so here.

Sizes and places of the stickers (dot diameter, offset, marker side) live with the board
in `models/mirror-mansion/board.toml`; what a colour looks like to the camera lives here,
as OpenCV HSV ranges (hue 0..179), because it depends on the printer, not on the box.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class HueRange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    hue_min: int = Field(ge=0, le=179)
    hue_max: int = Field(ge=0, le=179)
    """When hue_max < hue_min the range wraps through red (e.g. 170..10)."""
    sat_min: int = Field(45, ge=0, le=255)
    val_min: int = Field(60, ge=0, le=255)


class StickerSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    mirror_dot: HueRange = Field(
        default_factory=lambda: HueRange(hue_min=40, hue_max=88, val_min=35)
    )
    """Green, on each mirror's top edge, on the half next to its reflective face. The value
    floor is low enough for a dark green in a dim corner (`curves.py mirror_dot`)."""
    window_dot: HueRange = Field(default_factory=lambda: HueRange(hue_min=140, hue_max=172))
    """Magenta, on top of the window card."""
    door_dot: HueRange = Field(
        default_factory=lambda: HueRange(hue_min=2, hue_max=23, sat_min=70, val_min=60)
    )
    """Orange, on top of the door (skin shares its hue: the reader tells a dot by its size,
    shape and standing alone, `dots.py`). The value floor is low enough for a dim or
    warm-lit dot: `benchmarks/devset/mirror_mansion/curves.py door` draws its curve."""
    door_height_mm: float = Field(25.0, gt=0, le=100)
    """The door's top above the board; the board model gives mirrors' and cards' heights."""
    min_confidence: float = Field(0.5, ge=0, le=1)
    """Below this a facing is reported as null and the dashboard asks the players."""


DEFAULT_STICKERS = StickerSettings()
