"""A small table game that uses every part of the `TableGame` contract.

It is the worked example for game authors (copy its shape into `games/<pkg>/live.py`) and
the plug-in the platform's own tests drive, so the store, SSE, seat privacy and questions
are tested against the same contract the real games implement. It "plays" with the corner
markers of any table: a stable change in which markers are seen is an event; a table hidden
for a while makes it ask the players; seats may leave notes and private memos.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Annotated, Any

import cv2
import numpy as np
from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field

from companion.errors import UserError
from companion.live.table_game import (
    ANSWER_KIND,
    QUESTION_KIND,
    EventDraft,
    Observation,
    Question,
    Scene,
    question_draft,
)
from companion.store import PUBLIC, Event, Session, seat_visibility
from companion.web.auth import Caller, require_actor, seat_of_request
from companion.web.deps import RuntimeDep

STABLE_FRAMES = 3
"""Observations that must agree before they become an event (hands pass over markers)."""
UNSURE_FRAMES = 5
"""Low-confidence observations in a row before the players are asked."""
MAX_TEXT = 200


class ExampleTableGame:
    game_id = "example"

    def __init__(self, session: Session, stable_frames: int = STABLE_FRAMES) -> None:
        self.session = session
        self.stable_frames = stable_frames
        # State: changed only by apply_event.
        self.markers: list[int] | None = None
        self.notes: list[dict[str, Any]] = []
        self.memos: dict[int, list[str]] = {}
        self.open_questions: dict[str, Question] = {}
        self.answers: dict[str, Any] = {}
        self.asked = 0
        # Tracker memory: never shown, rebuilt from frames after a restart.
        self._recent: deque[Observation] = deque(maxlen=max(stable_frames, UNSURE_FRAMES))
        self._hidden_answered = False
        """The players answered "table hidden" and the table has not been seen since: do not
        ask again for the same covering."""

    def sim_scene(self, seed: int) -> Scene | None:
        return None

    def perceive(self, frame: Any, registration: Any) -> Observation:
        ok = bool(registration.ok and not registration.held)
        return Observation({"markers": list(registration.markers_seen)}, 0.9 if ok else 0.1)

    def update(self, observation: Observation, now: float) -> list[EventDraft]:
        self._recent.append(observation)
        recent = list(self._recent)
        drafts: list[EventDraft] = []
        window = recent[-self.stable_frames :]
        if len(window) == self.stable_frames and all(o.confidence >= 0.5 for o in window):
            seen = [o.data["markers"] for o in window]
            if all(s == seen[0] for s in seen) and seen[0] != self.markers:
                drafts.append(EventDraft("table.markers", {"markers": seen[0]}, snapshot=True))
        if observation.confidence >= 0.5:
            self._hidden_answered = False
        unsure = recent[-UNSURE_FRAMES:]
        if (
            len(unsure) == UNSURE_FRAMES
            and all(o.confidence < 0.5 for o in unsure)
            and "table-hidden" not in self.open_questions
            and not self._hidden_answered
        ):
            question = Question(
                "table-hidden",
                "I cannot see the table. Is something covering it?",
                [{"label": "Yes, wait", "value": "wait"}, {"label": "No", "value": "no"}],
            )
            drafts.append(question_draft(question))
        return drafts

    def apply_event(self, event: Event) -> None:
        p = event.payload
        if event.kind == "table.markers":
            self.markers = list(p["markers"])
        elif event.kind == QUESTION_KIND:
            self.open_questions[p["id"]] = Question(p["id"], p["text"], p["choices"], p["seat"])
            self.asked += 1
        elif event.kind == ANSWER_KIND:
            self.open_questions.pop(p["question"], None)
            self.answers[p["question"]] = p["answer"]
            self._hidden_answered = self._hidden_answered or p["question"] == "table-hidden"
        elif event.kind == "note":
            self.notes.append({"seat": p["seat"], "text": p["text"]})
        elif event.kind == "memo":
            self.memos.setdefault(int(p["seat"]), []).append(p["text"])

    def correct(self, payload: dict[str, Any], seat: int | None) -> list[EventDraft]:
        if "question" in payload:
            question = self.open_questions.get(str(payload["question"]))
            if question is None:
                raise UserError(f"no open question {payload['question']!r}")
            if question.seat is not None and seat != question.seat:
                raise UserError("this question is for another seat")
            values = [c["value"] for c in question.choices]
            if values and payload.get("answer") not in values:
                raise UserError(f"answer must be one of {values}")
            vis = PUBLIC if question.seat is None else seat_visibility(question.seat)
            body = {"question": question.id, "answer": payload.get("answer"), "seat": seat}
            return [EventDraft(ANSWER_KIND, body, vis)]
        if "note" in payload:
            return [EventDraft("note", {"seat": seat, "text": _text(payload["note"])})]
        if "memo" in payload:
            if seat is None:
                raise UserError("a memo belongs to a seat: open your seat link")
            memo = {"seat": seat, "text": _text(payload["memo"])}
            return [EventDraft.private(seat, "memo", memo)]
        raise UserError("a correction needs one of: question+answer, note, memo")

    def questions(self, seat: int | None) -> list[Question]:
        return [q for q in self.open_questions.values() if q.seat is None or q.seat == seat]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "markers": self.markers,
            "notes": list(self.notes),
            "answers": dict(self.answers),
            "memos": list(self.memos.get(seat, [])) if seat is not None else [],
        }

    def annotate(
        self, image: np.ndarray, registration: Any, observation: Observation
    ) -> np.ndarray:
        h = image.shape[0]
        cv2.putText(
            image,
            f"example: {self.markers}",
            (8, h - 12),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.6,
            (255, 255, 255),
            2,
            cv2.LINE_AA,
        )
        return image


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise UserError("text must be a non-empty string")
    if len(value) > MAX_TEXT:
        raise UserError(f"text longer than {MAX_TEXT} characters")
    return value.strip()


def make_table_game(settings: Any, session: Session) -> ExampleTableGame:
    """The factory a game's live.py exposes; this one takes no options."""
    if session.options:
        raise UserError(f"unknown options: {', '.join(sorted(session.options))}")
    return ExampleTableGame(session)


PANEL_JS = Path(__file__).with_name("example_panel.js")
"""The dashboard panel (an ES module exporting `mount(el, api)`), served as
`/static/games/<game-id>.js`."""


class MemoIn(BaseModel):
    text: str = Field(min_length=1, max_length=MAX_TEXT)


def router() -> APIRouter:
    """The game's own endpoints, mounted under `/api/games/<game-id>`.

    Reads use `seat_of_request` (hidden information only for its own seat); changes use
    `require_actor` and go through `runtime.correct`, so they are events committed first.
    """
    api = APIRouter()

    @api.get("/memos", response_model=list[str])
    def memos(
        runtime: RuntimeDep, seat: Annotated[int | None, Depends(seat_of_request)]
    ) -> list[str]:
        """This seat's own memos (none for spectators)."""
        return list(runtime.state(seat)["view"].get("memos", []))

    @api.post("/memos", response_model=list[str])
    def add_memo(
        body: MemoIn, runtime: RuntimeDep, who: Annotated[Caller, Depends(require_actor)]
    ) -> list[str]:
        runtime.correct({"memo": body.text}, who.seat)
        return list(runtime.state(who.seat)["view"].get("memos", []))

    return api
