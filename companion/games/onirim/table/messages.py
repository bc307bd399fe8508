"""What the player taps at an Onirim table, typed: one pydantic model per button, tagged by
`kind`, from the HTTP body (the route's body type is the model) to `OnirimTable.correct`,
which turns each into the engine's action.

The camera sees what lies face up; the phone tells the rest: the cards drawn (private: they
go into the hand), what a prophecy or a Nightmare's reveal showed, the prophecy's order,
how a Nightmare was resolved, a Door opened or not, a choice inside a Mirror's effect, and a
discard the camera cannot see (a card of the kind already on top of the pile).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from companion.live.corrections import (
    Answer,
    CorrectionBase,
    CorrectionParser,
    TableIsRight,
)

CardName = Annotated[str, Field(min_length=3, max_length=24)]

__all__ = [
    "Answer",
    "Correction",
    "Discarded",
    "DoorChoice",
    "Drew",
    "HintRequest",
    "Looked",
    "NightmareResolved",
    "Paired",
    "Picked",
    "Prophesied",
    "TableIsRight",
    "parse",
]


class Drew(CorrectionBase):
    """The cards drawn from the deck, in the order drawn (into the hand: only the player's
    phone ever shows them)."""

    kind: Literal["drew"] = "drew"
    cards: list[CardName] = Field(min_length=1, max_length=5)


class Looked(CorrectionBase):
    """The cards a prophecy (or a Nightmare's reveal) showed from the top of the deck, top
    first."""

    kind: Literal["looked"] = "looked"
    cards: list[CardName] = Field(min_length=1, max_length=5)


class Prophesied(CorrectionBase):
    """The prophecy's choice: the card discarded and the rest put back, top first."""

    kind: Literal["prophecy"] = "prophecy"
    discard: CardName | None = None
    order: list[CardName] = Field(max_length=5)


class NightmareResolved(CorrectionBase):
    """How a drawn Nightmare was resolved: key (discard `card`, a Key from the hand), door
    (send the Door `card` in play to limbo), reveal (the top five) or hand (discard it)."""

    kind: Literal["nightmare"] = "nightmare"
    way: Literal["key", "door", "reveal", "hand"]
    card: CardName | None = None


class DoorChoice(CorrectionBase):
    """A Door drawn with a Key of its colour in hand: opened (the Key discarded) or not."""

    kind: Literal["door"] = "door"
    open: bool = Field(strict=True)


class Picked(CorrectionBase):
    """A choice inside an explored Mirror's effect: a card, or a Door of the colour chosen."""

    kind: Literal["pick"] = "pick"
    card: CardName


class Discarded(CorrectionBase):
    """A discard the camera cannot see: the card lies on one of its own kind."""

    kind: Literal["discarded"] = "discarded"
    card: CardName


class Paired(CorrectionBase):
    """The pair laid under a Mirror, when its fourth card explored it at once and the camera
    saw only the Mirror flipped (it asks, and this answers before it asks)."""

    kind: Literal["paired"] = "paired"
    mirror: Annotated[str, Field(min_length=3, max_length=12)]
    cards: list[CardName] = Field(min_length=2, max_length=2)


class HintRequest(CorrectionBase):
    """Each action's estimated chance to win, for the player's phone only."""

    kind: Literal["hint"] = "hint"


Correction = Annotated[
    Drew
    | Looked
    | Prophesied
    | NightmareResolved
    | DoorChoice
    | Picked
    | Discarded
    | Paired
    | HintRequest
    | Answer
    | TableIsRight,
    Field(discriminator="kind"),
]
"""Everything the player or the admin can send to Onirim at the table."""

parse: CorrectionParser[Correction] = CorrectionParser(Correction)
"""A correction from JSON (or a typed one, checked again); `UserError` when it is not."""
