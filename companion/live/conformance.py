"""The checks every table game should pass, for a game's own tests.

    from companion.live.conformance import Correct, Observe, check_table_game
    events = check_table_game(make_table_game, settings, session, [
        Observe(Observation({...}, 0.9)), Observe(...), Correct({"question": "q1", "answer": 2}, 0),
    ])

`check_table_game` drives a fresh game the way the live loop does (decide, commit, apply)
and a second one by replaying the recorded events, then asserts that every seat's view and
questions are the same (the store is the truth: a restart must change nothing), that every
payload survives a JSON round trip (what the store does to it), and that no text private to
one seat shows up in another seat's view, questions or the public view.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from companion.live.table_game import Correction, EventDraft, Observation, TableGame
from companion.store import PUBLIC, Event, Session

SESSION_STARTED = "session.started"
MIN_SECRET_LEN = 4
"""Private strings shorter than this are not searched for (too many false alarms)."""


@dataclass(frozen=True)
class Observe:
    observation: Observation


@dataclass(frozen=True)
class Correct:
    payload: Correction
    seat: int | None = None


Step = Observe | Correct


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _snapshot(game: TableGame, seats: int) -> dict[str, Any]:
    who: list[int | None] = [None, *range(seats)]
    return {
        str(s): {
            "view": _json(game.view(s)),
            "questions": [_json(q.to_json()) for q in game.questions(s)],
        }
        for s in who
    }


def play(
    make_game: Callable[[Any, Session], TableGame],
    settings: Any,
    session: Session,
    steps: Iterable[Step],
) -> tuple[TableGame, list[Event]]:
    """Run `steps` the way the runtime does; returns the game and the events it recorded."""
    game = make_game(settings, session)
    events: list[Event] = []

    def commit(drafts: list[EventDraft]) -> None:
        for draft in drafts:
            assert isinstance(draft, EventDraft), f"not an EventDraft: {draft!r}"
            assert draft.visibility == PUBLIC or draft.visibility.startswith("seat:")
            event = Event(
                session.id,
                len(events) + 1,
                time.time(),
                draft.kind,
                _json(draft.payload),
                draft.visibility,
            )
            events.append(event)
            game.apply_event(event)

    commit([EventDraft(SESSION_STARTED, session.to_json())])
    now = time.time()
    for i, step in enumerate(steps):
        if isinstance(step, Observe):
            _json(step.observation.to_json())
            commit(game.update(step.observation, now + i * 0.1))
        else:
            commit(game.correct(step.payload, step.seat))
    return game, events


def private_leaks(game: TableGame, events: list[Event], seats: int) -> list[str]:
    """Strings from seat-private events found where another seat (or the public) looks."""
    leaks = []
    for event in events:
        if event.visibility == PUBLIC:
            continue
        owner = int(event.visibility.split(":")[1])
        secrets = [s for s in _strings(event.payload) if len(s) >= MIN_SECRET_LEN]
        for seat in [None, *range(seats)]:
            if seat == owner:
                continue
            seen = json.dumps([game.view(seat), [q.to_json() for q in game.questions(seat)]])
            leaks += [
                f"{s!r} (private to seat {owner}) in the view of {seat}"
                for s in secrets
                if s in seen
            ]
    return leaks


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


def check_table_game(
    make_game: Callable[[Any, Session], TableGame],
    settings: Any,
    session: Session,
    steps: Iterable[Step],
) -> list[Event]:
    """Play `steps` live, replay the events into a fresh game, and compare; returns the events."""
    live, events = play(make_game, settings, session, list(steps))
    replayed = make_game(settings, session)
    for event in events:
        replayed.apply_event(event)
    seats = len(session.seats)
    before, after = _snapshot(live, seats), _snapshot(replayed, seats)
    for who in before:
        assert before[who] == after[who], (
            f"replaying the events gives another state for seat {who}: "
            f"live {before[who]} != replayed {after[who]}"
        )
    leaks = private_leaks(live, events, seats)
    assert not leaks, "hidden information leaks: " + "; ".join(leaks)
    return events
