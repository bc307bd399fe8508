"""What crosses the Looking Glass's table boundary, typed: the corrections the players send
and the observation the camera makes of one frame.

Each correction is one pydantic model tagged by `kind`; the phone's buttons post a model's
fields to the game's route (`web.py`), whose body type is the model itself, and the same
object reaches `LookingGlassTable.correct`, which matches on its type. JSON posted to the
shared `/api/corrections` (and the `sim` film's scripted taps, which post what a phone
would) is parsed once into `Correction` by `parse`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from companion.games.looking_glass.rules.scoring import HAND_SIZE
from companion.live.corrections import (
    Answer,
    CorrectionBase,
    CorrectionParser,
    TableIsRight,
)
from companion.live.table_game import ObservationData

__all__ = [
    "Answer",
    "CardSeen",
    "Correction",
    "EnterHand",
    "GlassObservation",
    "RequestHint",
    "TableIsRight",
    "glass_observation",
    "parse",
]


class EnterHand(CorrectionBase):
    """Tap in this seat's four hand cards (private until the round's end)."""

    kind: Literal["hand"] = "hand"
    cards: list[str] = Field(min_length=1, max_length=2 * HAND_SIZE)
    """Card ids; `correct` says in one line why a hand is not one the deck can deal (the
    bounds here only keep a request small)."""


class RequestHint(CorrectionBase):
    """The engine helper's best pick for this seat, private to it."""

    kind: Literal["hint"] = "hint"


Correction = Annotated[
    EnterHand | RequestHint | Answer | TableIsRight,
    Field(discriminator="kind"),
]
"""Everything a player or the admin can send to the Looking Glass at the table."""

parse: CorrectionParser[Correction] = CorrectionParser(Correction)
"""A correction from JSON (or a typed one, checked again); `UserError` when it is not."""


class _Seen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CardSeen(_Seen):
    """One card as the perceiver read it in one frame (image pixels)."""

    card: str | None = None
    """The character read (None: a card is there, which one is not known)."""
    center: tuple[float, float]
    covered: bool = False
    confidence: float = 0.0
    position: str | None = None
    """The glass position the reader placed it at (`A-r0-c4`), when it located the glass."""
    width_px: float | None = None
    quad: tuple[tuple[float, float], ...] | None = None
    inferred: bool = False
    """Not found in this frame, only inferred (from memory, its reflection or the layout
    card): enough to keep a card alive, not to bring a taken one back."""


class GlassObservation(_Seen):
    """One frame as the perceiver read it: the cards, the layout card, the places something
    lies over, whether the picture is still; `error` when nothing could be read."""

    cards: tuple[CardSeen, ...] = ()
    layout: str | None = None
    warnings: tuple[str, ...] = ()
    hidden: tuple[tuple[float, float], ...] = ()
    """Image centres of remembered cards something lies over: not seen, not seen gone."""
    still: bool = True
    error: str | None = None


def glass_observation(data: ObservationData) -> GlassObservation:
    """The typed reading of a frame. A dict (a test's reading, or the loop's `{"error": ...}`
    when the perceiver raised) is validated here, once; an error is a frame with no cards."""
    if isinstance(data, GlassObservation):
        return data
    if isinstance(data, BaseModel):
        data = data.model_dump()
    if data.get("error") is not None:
        return GlassObservation(error=str(data["error"]))
    return GlassObservation.model_validate(data)
