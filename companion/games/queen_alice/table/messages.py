"""What the players send to Queen Alice at the table, typed: one pydantic model per tap,
tagged by `kind`, from the HTTP body (`web.py`) to `QueenAliceTable.correct`.

The camera sees the chessboard; everything else is tapped in and checked by the engine:
the set-up (player-aid tile and Wishes), the Train cards each player is dealt and the one
they keep with its side, and the cards each player draws (each on their own phone only),
the market cards revealed, the card discarded and the card played, and every other choice
of the turn (rewards, the action, Repeat, Pass) as the engine's own action JSON.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, JsonValue

from companion.live.corrections import (
    Answer,
    CorrectionBase,
    CorrectionParser,
    TableIsRight,
)

__all__ = [
    "Answer",
    "Choose",
    "Correction",
    "DiscardCard",
    "Drew",
    "PlayCard",
    "Revealed",
    "ScoreNow",
    "SetUp",
    "TableIsRight",
    "TrainChosen",
    "TrainDealt",
    "parse",
]

CardId = Annotated[str, Field(min_length=1, max_length=40)]


class SetUp(CorrectionBase):
    """The player-aid tile drawn at set-up (the chessboard's start) and the Wish on each
    Wish space, in the model's Wish-space order."""

    kind: Literal["setup"] = "setup"
    tile: str = Field(min_length=1, max_length=40)
    wishes: tuple[CardId, ...] = Field(min_length=1, max_length=8)


class Drew(CorrectionBase):
    """A card this seat drew from its deck: private to the seat."""

    kind: Literal["drew"] = "drew"
    card: CardId


class TrainDealt(CorrectionBase):
    """The Train cards this seat was dealt at set-up: private to the seat."""

    kind: Literal["train_dealt"] = "train_dealt"
    cards: tuple[CardId, ...] = Field(min_length=1, max_length=4)


class TrainChosen(CorrectionBase):
    """The Train card this seat keeps and the side it plays, chosen secretly: other seats
    learn only that it is chosen, until every seat has chosen."""

    kind: Literal["train"] = "train"
    card: CardId
    side: Literal["red", "white"]


class Revealed(CorrectionBase):
    """The card that came into the market from the deck of `level` (0 bronze, 1 silver,
    2 gold)."""

    kind: Literal["revealed"] = "revealed"
    level: int = Field(ge=0, le=2, strict=True)
    card: CardId


class DiscardCard(CorrectionBase):
    """The card discarded for its reward (or down to hand size at Rest)."""

    kind: Literal["discard"] = "discard"
    card: CardId


class PlayCard(CorrectionBase):
    """The card played. Its piece's move comes from the camera; `stay` names the blocked
    piece's square when the player activates a piece that cannot move."""

    kind: Literal["play"] = "play"
    card: CardId
    stay: tuple[int, int] | None = None


class Choose(CorrectionBase):
    """Any other choice of the turn, as the engine's action JSON (`{"type": "take",
    "resource": "tea"}`, `{"type": "act", ...}`, `{"type": "pass"}`, ...): one of the
    `choices` the mover's view lists."""

    kind: Literal["choose"] = "choose"
    action: dict[str, JsonValue]


class ScoreNow(CorrectionBase):
    """The family stops here (admin): the final scoring of the game as it stands."""

    kind: Literal["score_now"] = "score_now"


Correction = Annotated[
    SetUp
    | TrainDealt
    | TrainChosen
    | Drew
    | Revealed
    | DiscardCard
    | PlayCard
    | Choose
    | ScoreNow
    | Answer
    | TableIsRight,
    Field(discriminator="kind"),
]
"""Everything a player or the admin can send to Queen Alice at the table."""

parse: CorrectionParser[Correction] = CorrectionParser(Correction)
"""A correction from JSON (or a typed one, checked again); `UserError` when it is not."""
