"""Questions the tracker asks, and the corrections and answers that players send back.

A correction is a JSON object whose shape the active game defines (an answer is
`{"question": id, "answer": value}`); the runtime hands it to the game's `correct` and
commits what the game decides before anyone sees it.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, HTTPException
from pydantic import BaseModel

from companion.live.table_game import TABLE_IS_RIGHT, is_table_is_right
from companion.web.auth import Caller, CallerDep, require_actor, require_admin
from companion.web.deps import RuntimeDep
from companion.web.routes.events import EventOut

router = APIRouter(prefix="/api", tags=["corrections"])


class QuestionOut(BaseModel):
    id: str
    text: str
    choices: list[dict[str, Any]]
    """Each {"label": str, "value": JSON}: post the value back as the answer."""
    seat: int | None


class CorrectionResult(BaseModel):
    events: list[EventOut]
    """The events recorded (private ones only appear for their own seat)."""


@router.get("/questions", response_model=list[QuestionOut])
def questions(runtime: RuntimeDep, who: CallerDep) -> list[QuestionOut]:
    return [QuestionOut(**q.to_json()) for q in runtime.questions(who.seat)]


@router.post("/corrections", response_model=CorrectionResult)
def corrections(
    payload: Annotated[dict[str, Any], Body(examples=[{"question": "q1", "answer": "yes"}])],
    runtime: RuntimeDep,
    who: Annotated[Caller, Depends(require_actor)],
) -> CorrectionResult:
    """Forward a correction or an answer to the active game (400 if it refuses)."""
    if is_table_is_right(payload) and not who.may_administer:
        raise HTTPException(403, '"the table is right" needs the admin link')
    events = runtime.correct(payload, who.seat)
    return CorrectionResult(
        events=[EventOut(**e.to_json()) for e in runtime.as_seen_by(events, who.seat)]
    )


@router.post("/table-is-right", response_model=CorrectionResult)
def table_is_right(
    runtime: RuntimeDep, who: Annotated[Caller, Depends(require_admin)]
) -> CorrectionResult:
    """Take the pieces as the camera sees them now as the game's board (admin only): the way
    back when the companion's board has drifted from the table. Recorded as one event with
    the frame's snapshot; 400 when the game cannot offer it or sees no steady table."""
    events = runtime.correct({TABLE_IS_RIGHT: True}, None)
    return CorrectionResult(events=[EventOut(**e.to_json()) for e in events])
