"""What crosses Reflecto's table boundary, typed: the corrections the players send and the
observation the camera makes of one frame.

Each correction is one pydantic model tagged by `kind`; the phone's buttons post a model's
fields to the game's route (`web.py`), whose body type is the model itself, and the same
object reaches `ReflectoTable.correct`, which matches on its type. JSON posted to the shared
`/api/corrections` is parsed once into `Correction` by `parse`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    StrictInt,
)

from companion.live.corrections import (
    Answer,
    CorrectionBase,
    CorrectionParser,
    TableIsRight,
)
from companion.live.table_game import ObservationData

__all__ = [
    "Answer",
    "BoardObservation",
    "CorrectAction",
    "Correction",
    "EnterGuess",
    "EnterSetup",
    "RequestHint",
    "ScreenSeen",
    "SwitchSight",
    "TableIsRight",
    "board_observation",
    "parse",
]


class EnterSetup(CorrectionBase):
    """This seat's secret word on its first-row screens, and its mirrors."""

    kind: Literal["setup"] = "setup"
    word: str = Field(min_length=1, max_length=40)
    columns: list[StrictInt] = Field(min_length=1, max_length=20)
    """First-row column of each letter screen, in word order."""
    mirrors: list[StrictInt] = Field(default_factory=list, max_length=20)
    chunks: list[str] | None = Field(default=None, max_length=20)
    """The letters on each letter screen in word order (default: the rulebook's even split)."""
    hinted: list[StrictInt] = Field(default_factory=list, max_length=20)
    blank_last: bool = False


class EnterGuess(CorrectionBase):
    """Instead of moving: judged against the other word, which is not shown."""

    kind: Literal["guess"] = "guess"
    word: str = Field(min_length=1, max_length=40)


class RequestHint(CorrectionBase):
    """The fewest own moves to remove every letter in order, for this seat only."""

    kind: Literal["hint"] = "hint"


class SwitchSight(CorrectionBase):
    """Young players' switch: show what this seat's mirrors show now."""

    kind: Literal["sight"] = "sight"
    on: bool = Field(strict=True)


class CorrectAction(CorrectionBase):
    """A manual correction of what the camera saw: one engine action as `actions.py`'s JSON
    (set-ups and guesses are entered on the phones instead)."""

    kind: Literal["action"] = "action"
    action: dict[str, JsonValue]


Correction = Annotated[
    EnterSetup | EnterGuess | RequestHint | SwitchSight | CorrectAction | Answer | TableIsRight,
    Field(discriminator="kind"),
]
"""Everything a player or the admin can send to Reflecto at the table."""

parse: CorrectionParser[Correction] = CorrectionParser(Correction)
"""A correction from JSON (or a typed one, checked again); `UserError` when it is not."""


class _Seen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ScreenSeen(_Seen):
    """A screen standing on a square, as the perceiver read it."""

    cell: tuple[int, int]
    owner: int | None
    """Whose colour (seat 0 or 1); None: a screen the reader would not call either way."""
    confidence: float = 0.0


class PoseSeen(_Seen):
    """The board's pose in the camera, for drawing the overlay in 3-D."""

    K: list[list[float]]
    rvec: list[float]
    tvec: list[float]


class BoardObservation(_Seen):
    """One frame as the perceiver read it (`vision/perceive.py`); `error` when the perceiver
    raised and nothing was read."""

    screens: tuple[ScreenSeen, ...] = ()
    hands: bool = False
    board_found: bool = False
    unclear: tuple[tuple[int, int], ...] = ()
    """Squares the reader would not call either way."""
    warnings: tuple[str, ...] = ()
    pose: PoseSeen | None = None
    error: str | None = None


def board_observation(data: ObservationData) -> BoardObservation:
    """The typed reading of a frame. A dict (the perceiver's JSON, or the loop's
    `{"error": ...}` when it raised) is validated here, once; an error is a frame without
    the board."""
    if isinstance(data, BoardObservation):
        return data
    if isinstance(data, BaseModel):
        data = data.model_dump()
    if data.get("error") is not None:
        return BoardObservation(error=str(data["error"]))
    return BoardObservation.model_validate(data)
