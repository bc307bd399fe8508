"""Typed corrections: one pydantic type per thing a player can send, from the HTTP body to
the game.

A game declares its corrections as a pydantic discriminated union on `kind`
(`Annotated[A | B | ..., Field(discriminator="kind")]`, in its `table/messages.py`) and
parses what arrives with a `CorrectionParser`: its own router passes typed bodies
straight through `runtime.correct`, and the JSON a phone posts to `/api/corrections` is
validated once, at the boundary, so `correct` matches on types instead of asking which dict
key is present.

The platform's own two corrections live here, because every game receives them: the answer
to a question and the admin's "the table is right". The shared dashboard posts both without
a `kind` (`{"question", "answer"}` and `{"table_is_right": true}`), so `correction_tag`
recognises those two untagged shapes and the parser tags them before validating; a game's
own corrections always carry their `kind` (a game's router fills it in from its body type's
default).
"""

from __future__ import annotations

import types
from typing import Annotated, Any, Generic, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, JsonValue, TypeAdapter, ValidationError

from companion.errors import UserError

T = TypeVar("T")


class CorrectionBase(BaseModel):
    """Frozen and strict about keys: a misspelt field is a 400, not a silent default."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Answer(CorrectionBase):
    """The answer to an open question: one of its choices' values."""

    kind: Literal["answer"] = "answer"
    question: str
    answer: JsonValue


class TableIsRight(CorrectionBase):
    """ "The table is right" (admin only): take the steady reading as the game's board."""

    kind: Literal["table_is_right"] = "table_is_right"
    table_is_right: Literal[True] = True


def correction_tag(value: Any) -> str | None:
    """The `kind` of a correction, a typed one or its JSON; None when it has none."""
    if isinstance(value, BaseModel):
        return getattr(value, "kind", None)
    if not isinstance(value, dict):
        return None
    if "kind" in value:
        return str(value["kind"])
    # The shared dashboard's two untagged shapes (see the module docstring).
    if "question" in value:
        return "answer"
    if value.get("table_is_right") is True:
        return "table_is_right"
    return None


class CorrectionParser(Generic[T]):
    """`parse(payload)` for one game's union: built once (a `TypeAdapter` is not free)."""

    def __init__(self, union: Any) -> None:
        self._adapter: TypeAdapter[T] = TypeAdapter(union)
        self._kinds = union_kinds(union)

    def __call__(self, payload: Any) -> T:
        """A correction as the game's typed union; a one-line `UserError` (400) when it is
        not one.

        Typed corrections (from a game's router) are validated again, which is cheap and
        means a correction built in code obeys the same bounds as one posted as JSON. An
        unknown or missing kind is answered with every kind, so a phone that posts one
        learns what it may send."""
        data = payload.model_dump() if isinstance(payload, BaseModel) else payload
        kind = correction_tag(data)
        if kind not in self._kinds:
            raise UserError("correction: a correction's kind is one of: " + ", ".join(self._kinds))
        if "kind" not in data:  # the dashboard's untagged shapes
            data = {**data, "kind": kind}
        try:
            return self._adapter.validate_python(data)
        except ValidationError as exc:
            raise UserError(f"correction: {_first_error(exc)}") from None


def union_kinds(union: Any) -> tuple[str, ...]:
    """The `kind` of each model of a correction union, in the union's order."""
    members = get_args(union)[0] if get_origin(union) is Annotated else union
    is_union = get_origin(members) in (Union, types.UnionType)
    return tuple(
        str(m.model_fields["kind"].default) for m in (get_args(members) if is_union else (members,))
    )


def _first_error(exc: ValidationError) -> str:
    err = exc.errors(include_url=False)[0]
    where = ".".join(str(p) for p in err["loc"])
    return f"{where}: {err['msg']}" if where else str(err["msg"])
