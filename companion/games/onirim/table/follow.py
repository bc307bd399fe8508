"""Follow a scripted game at the table, frame by frame, without the web service: the film's
observations go through `update`, the player's taps through `correct`, and every draft is
committed and applied as the live loop does (`companion.live.conformance.play`'s way).

The benchmark (`benchmarks/onirim_tracking.py`) feeds it the camera's readings of the film;
tests feed it the film's own tables (a perfect camera) to check the tracker and the taps.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.errors import UserError
from companion.games.base import IllegalAction
from companion.games.onirim.rules.actions import action_to_json
from companion.games.onirim.table.live import (
    ACTION_KIND,
    BREACH_KIND,
    PLAYER,
    PUT_BACK,
    OnirimTable,
)
from companion.games.onirim.vision.film import SIM_FPS, Script
from companion.live.table_game import QUESTION_KIND, EventDraft, Observation
from companion.store import Event, Session


@dataclass
class Followed:
    game: OnirimTable
    events: list[Event] = field(default_factory=list)
    refused_taps: list[str] = field(default_factory=list)
    frames: list[int] = field(default_factory=list)
    """The film frame each event was committed at (beside `events`), to find it in the film."""

    def booked(self) -> list[dict[str, Any]]:
        """Every engine action the table booked, in order."""
        return [e.payload["action"] for e in self.events if e.kind == ACTION_KIND]

    def by_camera(self) -> list[dict[str, Any]]:
        return [
            e.payload["action"]
            for e in self.events
            if e.kind == ACTION_KIND and e.payload["by"] == "camera"
        ]

    def of_kind(self, kind: str) -> list[Event]:
        return [e for e in self.events if e.kind == kind]

    @property
    def breaches(self) -> list[Event]:
        return self.of_kind(BREACH_KIND)

    @property
    def questions(self) -> list[Event]:
        return self.of_kind(QUESTION_KIND)


def follow(
    script: Script,
    observe: Callable[[OnirimTable, int], Observation],
    frames: int,
    settings: Any = None,
    library: Any = None,
    answer: Callable[[OnirimTable, int], list[EventDraft]] | None = None,
) -> Followed:
    """Play `frames` film frames: `observe(game, i)` is what the camera made of frame i;
    `library`: the taught deck the game reads with; `answer(game, i)`: the player's answers
    at frame i (`answer_truly` by default: the script's play)."""
    first = script.actions and script.final
    opts = {"mirrors": first.mirrors, "hard": first.hard} if first else {}
    session = Session("1", "onirim", opts, ["player"], time.time())
    game = OnirimTable(settings, session)
    if library is not None:
        game.use_library(library)
    out = Followed(game)

    def commit(drafts: list[EventDraft], i: int) -> None:
        for d in drafts:
            event = Event(
                session.id,
                len(out.events) + 1,
                time.time(),
                d.kind,
                json.loads(json.dumps(d.payload)),
                d.visibility,
            )
            out.events.append(event)
            out.frames.append(i)
            game.apply_event(event)

    taps = sorted(script.taps, key=lambda tap: tap.t)
    k = 0
    for i in range(frames):
        commit(game.update(observe(game, i), i / SIM_FPS), i)
        commit(answer(game, i) if answer is not None else answer_truly(game, script), i)
        t = i / SIM_FPS
        while k < len(taps) and taps[k].t <= t:
            try:
                commit(game.correct(taps[k].payload, taps[k].seat), i)
            except (UserError, IllegalAction) as exc:
                if t - taps[k].t < 30.0:
                    break  # tried again on the next frame, as the live loop does
                out.refused_taps.append(f"{taps[k].payload}: {exc}")
            k += 1
    return out


def script_actions(script: Script) -> list[dict[str, Any]]:
    return [action_to_json(a) for a in script.actions]


def answer_truly(game: OnirimTable, script: Script) -> list[EventDraft]:
    """The player answers "which play was it?" as it was: the script's next action if it is
    offered, else that the table is put back. Questions about a card are left open."""
    for q in list(game.open_questions.values()):
        if not q.id.startswith("turn."):
            continue
        values = [c["value"] for c in q.choices]
        truth = (
            action_to_json(script.actions[game.booked])
            if game.booked < len(script.actions)
            else None
        )
        answer = truth if truth in values else PUT_BACK if PUT_BACK in values else None
        if answer is not None:
            return game.correct({"question": q.id, "answer": answer}, PLAYER)
    return []
