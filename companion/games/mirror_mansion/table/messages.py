"""What crosses Mirror Mansion's table boundary, typed: the corrections the players send and
the observation the camera makes of one frame.

Each correction is one pydantic model tagged by `kind`; the dashboard's buttons post a
model's fields to the game's route (`web.py`), whose body type is the model itself, and the
same object reaches `MirrorMansionTable.correct`, which matches on its type. JSON posted to
the shared `/api/corrections` (and the `sim` film's scripted taps, which post what a phone
would) is parsed once into `Correction` by `parse`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    field_serializer,
)

from companion.games.mirror_mansion.vision.scene import BoxState
from companion.live.corrections import (
    Answer,
    CorrectionBase,
    CorrectionParser,
    TableIsRight,
)

__all__ = [
    "Answer",
    "BoxObservation",
    "CallGuesses",
    "Correction",
    "EnterCards",
    "EnterGuess",
    "EnterRoll",
    "NameMotif",
    "PoseSeen",
    "RequestHint",
    "TableIsRight",
    "TakeLook",
    "parse",
]


class EnterCards(CorrectionBase):
    """The motif on each castle-card position, tapped in once before the first turn."""

    kind: Literal["cards"] = "cards"
    cards: dict[str, str] = Field(min_length=1, max_length=12)
    """Card position (N0..W2) -> motif, for the eleven motif cards."""


class EnterRoll(CorrectionBase):
    """The die the active player rolled."""

    kind: Literal["roll"] = "roll"
    value: int = Field(ge=1, le=20, strict=True)


class NameMotif(CorrectionBase):
    """The sought motif the left-hand neighbour names when the die shows the question mark."""

    kind: Literal["name"] = "name"
    motif: str = Field(min_length=1, max_length=40)


class CallGuesses(CorrectionBase):
    """ "Make your guesses!": the swaps the camera counted are committed to the game."""

    kind: Literal["call_guesses"] = "call_guesses"


class EnterGuess(CorrectionBase):
    """Jubilant or disappointed, private to the seat until everyone has guessed."""

    kind: Literal["guess"] = "guess"
    jubilant: bool = Field(strict=True)


class TakeLook(CorrectionBase):
    """The active player looks through the window; `pulled` is the card they pull out
    (None: the one the light reaches, if it shows the sought motif)."""

    kind: Literal["look"] = "look"
    pulled: str | None = Field(default=None, max_length=3)


class RequestHint(CorrectionBase):
    """The fewest swaps to the sought motif, for the active player only."""

    kind: Literal["hint"] = "hint"


Correction = Annotated[
    EnterCards
    | EnterRoll
    | NameMotif
    | CallGuesses
    | EnterGuess
    | TakeLook
    | RequestHint
    | Answer
    | TableIsRight,
    Field(discriminator="kind"),
]
"""Everything a player or the admin can send to Mirror Mansion at the table."""

parse: CorrectionParser[Correction] = CorrectionParser(Correction)
"""A correction from JSON (or a typed one, checked again); `UserError` when it is not."""


class PoseSeen(BaseModel):
    """The box's pose in the camera, for drawing the overlay in 3-D."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    K: list[list[float]]
    rvec: list[float]
    tvec: list[float]


class BoxObservation(BaseModel):
    """One frame as the perceiver read it: the pieces, the box's turn in the image (degrees,
    when the board was located) and its pose (when the camera is calibrated)."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    box: BoxState
    yaw_deg: float | None = None
    pose: PoseSeen | None = None

    @field_serializer("box")
    def _box_json(self, box: BoxState) -> dict[str, Any]:
        return {**box.to_json(), "seen": box.seen}

    @property
    def seen(self) -> bool:
        return self.box.seen


UNSEEN = BoxObservation(box=BoxState(seen=False))
"""What a frame that shows no box (or an error of the perceiver) amounts to."""
