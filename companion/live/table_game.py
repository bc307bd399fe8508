"""The contract between the live service and one game played at the table.

A game plugs into the live loop and the dashboard with one module,
`companion/games/<package>/live.py`, found through
`companion.games.get_game(game_id).module("live")`. That module exposes:

    def make_table_game(settings: Settings, session: Session) -> TableGame
        Required. Called when a session of this game starts or is resumed. Raise
        `UserError` for bad options or a wrong number of seats (the dashboard answers 400
        with the message). `session.options` holds the variant/options JSON the players
        chose, `session.seats` the seat names (seat numbers are list indices, 0-based).

    def router() -> fastapi.APIRouter
        Optional. Built once per app and mounted under `/api/games/<game-id>`. Handlers
        reach the live service through `companion.web.deps` (`get_runtime`) and the auth
        dependencies in `companion.web.auth` (`require_admin`, `seat_of_request`,
        `require_actor`). A handler that changes the game goes through
        `runtime.correct(body, seat)` (or `runtime.submit`), never by mutating the game:
        every change is an event in the store first. Its body type is best the game's own
        correction model (`companion.live.corrections`), passed on as it is, so one type
        runs from the HTTP body to the engine; `companion.web.game_routes` builds such
        routes. Import FastAPI, pydantic models and
        these dependencies at module level: with `from __future__ import annotations`,
        FastAPI resolves a handler's annotations from the module's globals.
        `tests/live/example_game.py` is a complete live module to copy from.

    PANEL_JS: pathlib.Path
        Optional. An ES module served at `/static/games/<game-id>.js` that exports
        `mount(el, api)`; the dashboard imports it and lets it fill the game's panel.
        By convention `games/<game>/table/panel.js`; a `panel.css` beside it is the panel's
        own stylesheet, served at `/static/games/<game-id>.css` and linked while it shows.
        `api` gives the panel: `api.seat` (number or null), `api.state()` (latest
        `/api/state` JSON), `api.get(path)`, `api.post(path, body)` (token attached),
        `api.onState(fn)` (called with the new state after every event) and
        `api.correct(payload)` (POST /api/corrections).
        It may import `h`, `button`, `svg`, `actions`, `tableIsRightButton` and `playerName`
        (a seat said as its player's name) from `/static/panel-kit.js`.

How the platform drives a `TableGame` (event sourcing):

    frame ─▶ perceive(frame, registration) ─▶ Observation          (perception thread, no lock)
          ─▶ annotate(image, registration, observation) ─▶ image   (perception thread, no lock)
          ─▶ update(observation, now) ─▶ [EventDraft]               (under the game lock)
          ─▶ store.append(draft)  (committed)  ─▶ apply_event(event) ─▶ broadcast over SSE

- `update` and `correct` DECIDE: they return drafts and may change only the tracker's own
  working memory (stability windows, the last observation). They must not change what
  `view` shows: the game's state changes only in `apply_event`, which the platform calls
  after each draft is committed, live and on replay alike. Hence a restart that replays
  the stored events rebuilds exactly the state the players last saw.
- `apply_event` sees every event of the session in order, including the platform's own
  (`session.started`, payload = the session JSON); ignore kinds you do not know.
- Drafts from one `update`/`correct` call are committed and applied in order, so a later
  draft may rely on an earlier one having been applied.
- All methods but `perceive` and `annotate` are called under one lock, never two at once.
  `perceive` and `annotate` run in the perception thread concurrently with `view` and
  `correct`: they may read settings and models, not the mutable game state.
- When the camera is unsure, do not guess: put None/"unknown" with a low confidence in the
  observation, keep the tracker waiting, and if it stays unsure, emit a `question` event
  (see `question_draft`) and list it in `questions()` until it is answered.
- Hidden information: a draft private to a seat has `visibility="seat:N"` and only seat N
  receives it; `view(seat)` must not contain another seat's secrets, and `view(None)`
  (spectators, the admin) holds only public information.

"The table is right": when the engine's board has drifted from the table (a misread that
was believed, a piece nudged between turns), the admin posts `{"table_is_right": true}`
(`TABLE_IS_RIGHT`; the corrections route refuses it from a seat link, and
`POST /api/table-is-right` sends it). A game that offers it sets the public, visible part
of its state to what the camera sees steadily now and returns `table_is_right_draft(...)`:
one event, kind `TABLE_RIGHT_KIND`, with its snapshot, applied in `apply_event` like any
other. Hidden information (hands, guesses) and the turn's progress are not touched. A game
that cannot offer it (yet) raises `UserError` saying so, as for any correction it refuses.

Scripted players of a `sim` scene: a scene may carry `taps`, a sequence of objects with
`t` (film seconds), `seat` and `payload`, and put `"t"` in each frame's truth. The live loop
then plays each tap once its time has come, through `correct` exactly as a phone's
correction (retried on the next frames while the game refuses it), so a demo plays whole
turns without anyone at the table; the game never reads the taps from the frame.

Test a table game with `companion.live.conformance.check_table_game`: it plays a list of
observations and corrections live, replays the events into a fresh game, and asserts the
same views and questions for every seat and no private text in another seat's view.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

import numpy as np
from pydantic import BaseModel

from companion.errors import UserError
from companion.games.base import IllegalAction
from companion.live.corrections import Answer, correction_tag
from companion.store import PUBLIC, Event, Session, seat_visibility

if TYPE_CHECKING:
    from companion.camera import Frame
    from companion.vision.registration import Registration

log = logging.getLogger(__name__)

__all__ = [
    "ANSWER_KIND",
    "PUBLIC",
    "QUESTION_KIND",
    "TABLE_IS_RIGHT",
    "TABLE_RIGHT_KIND",
    "Correction",
    "Event",
    "EventDraft",
    "Observation",
    "ObservationData",
    "Question",
    "Scene",
    "Session",
    "TableGame",
    "is_table_is_right",
    "question_draft",
    "start_state",
    "table_is_right_draft",
]


ObservationData = dict[str, Any] | BaseModel
"""A game's reading of one frame: best its own pydantic model (typed from the perceiver to
the tracker); a JSON-able dict is still accepted. The loop hands the game
`{"error": "..."}` when its perceiver raised, so a game's `update` must take that too."""


@dataclass(frozen=True)
class Observation:
    """What the perceiver saw in one frame: typed, JSON-able data and how sure it is.

    `confidence` is 0..1 for the observation as a whole; per-item confidences belong in
    `data`. Unknown things are None in `data`, never a guess.
    """

    data: ObservationData = field(default_factory=dict)
    confidence: float = 0.0

    def to_json(self) -> dict[str, Any]:
        data = self.data.model_dump(mode="json") if isinstance(self.data, BaseModel) else self.data
        return {"confidence": self.confidence, "data": data}


@dataclass(frozen=True)
class EventDraft:
    """An event the game wants recorded; the store gives it a sequence number and time.

    `snapshot=True` keeps the current annotated frame as `snapshots/<session>/<seq>.jpg`
    (for "what did the camera see when it scored this round").
    `once=True` records it at most once per position: not again while the last event of
    its kind for its audience is newer than every event of another kind (a hint asked
    twice for the same position is one event, however often the button is pressed).
    """

    kind: str
    payload: dict[str, Any] = field(default_factory=dict)
    visibility: str = PUBLIC
    snapshot: bool = False
    once: bool = False

    @classmethod
    def private(
        cls,
        seat: int,
        kind: str,
        payload: dict[str, Any],
        snapshot: bool = False,
        once: bool = False,
    ) -> EventDraft:
        """A draft only `seat` will ever receive."""
        return cls(kind, payload, seat_visibility(seat), snapshot, once)


@dataclass(frozen=True)
class Question:
    """A question the tracker asks the players instead of guessing.

    `choices` are the answers offered as buttons: each {"label": str, "value": JSON}.
    The dashboard posts `{"question": id, "answer": value}` to /api/corrections, which the
    platform hands to `correct(payload, seat)`. `seat` None: anyone at the table may answer;
    a number: the question is about that seat's hidden cards and only it sees and answers it.
    """

    id: str
    text: str
    choices: list[dict[str, Any]] = field(default_factory=list)
    seat: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "text": self.text, "choices": self.choices, "seat": self.seat}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Question:
        """The question a QUESTION_KIND event recorded, as `to_json` wrote it."""
        return cls(data["id"], data["text"], data["choices"], data["seat"])


Correction = dict[str, Any] | BaseModel
"""What `TableGame.correct` receives: JSON from /api/corrections or a scripted tap, or a
game's own typed correction from its router (see `companion.live.corrections`)."""

QUESTION_KIND = "question"
ANSWER_KIND = "answer"
TABLE_IS_RIGHT = "table_is_right"
"""The correction key of "the table is right" (admin only): `{"table_is_right": true}`."""
TABLE_RIGHT_KIND = "table.right"
"""The event that records it: payload {"board": the game's new public board, "seen": the
camera's reading it was taken from}, with the frame's snapshot."""


def is_table_is_right(payload: Correction) -> bool:
    """Whether a correction asks to take the table's arrangement as the truth."""
    return correction_tag(payload) == TABLE_IS_RIGHT


ReadingT = TypeVar("ReadingT")


def admin_only_table_is_right(seat: int | None) -> None:
    """Only the admin may overrule the engine with the camera's reading. The web checks the
    link as well; scripted and command-line callers reach the table without it."""
    if seat is not None:
        raise UserError('"the table is right" needs the admin link')


def steady_reading(reading: ReadingT | None, what: str) -> ReadingT:
    """The reading "the table is right" takes, or the one line that says to wait for it."""
    if reading is None:
        raise UserError(
            f"the camera has no steady reading of {what} now: take the hands away and try again"
        )
    return reading


@contextmanager
def taken_as_the_table(what: str, say: Callable[[str], str] = str) -> Iterator[None]:
    """Around the engine's taking a reading as its board: a reading the rules cannot reach
    (too many pieces, a card twice) is said as one line, with the engine's detail (`say`
    puts a game's places in words)."""
    try:
        yield
    except IllegalAction as exc:
        raise UserError(f"the camera's reading cannot be {what}: {say(exc.detail)}") from None


def table_is_right_draft(board: dict[str, Any], seen: dict[str, Any]) -> EventDraft:
    """The event of "the table is right": the board now in force and the reading behind it."""
    return EventDraft(TABLE_RIGHT_KIND, {"board": board, "seen": seen}, snapshot=True)


def question_visibility(question: Question) -> str:
    """Who sees a question and its answer: everyone, or only the seat asked (a question about
    its hidden cards)."""
    return PUBLIC if question.seat is None else seat_visibility(question.seat)


def question_draft(question: Question) -> EventDraft:
    """The event that records a question asked (public, or private to the seat asked)."""
    return EventDraft(QUESTION_KIND, question.to_json(), question_visibility(question))


def answer_draft(
    open_questions: Mapping[str, Question], answer: Answer, seat: int | None
) -> tuple[Question, EventDraft]:
    """The open question `answer` answers and the event that records the answer (seen by
    whoever saw the question); a UserError when no such question is open or the answer is
    not one of its choices."""
    question = open_questions.get(answer.question)
    if question is None:
        raise UserError(f"no open question {answer.question!r}")
    values = [c["value"] for c in question.choices]
    if answer.answer not in values:
        raise UserError(f"answer must be one of {values}")
    payload = {"question": question.id, "answer": answer.answer, "seat": seat}
    return question, EventDraft(ANSWER_KIND, payload, question_visibility(question))


StateT_co = TypeVar("StateT_co", covariant=True)


class StartsGames(Protocol[StateT_co]):
    """What `start_state` needs of a rules engine (`GameEngine.new_game`)."""

    def new_game(self, players: int, options: dict[str, Any] | None = None) -> StateT_co: ...


def start_state(
    engine: StartsGames[StateT_co],
    session: Session,
    title: str,
    seats: range | None = None,
    seats_rule: str = "",
) -> StateT_co:
    """A session's fresh game state. A seat count outside `seats`, or a player count or an
    option the engine refuses (its ValueError), is a mistake in setting up the table: one
    line naming the game (a UserError, so a 400), never a traceback."""
    if seats is not None and len(session.seats) not in seats:
        raise UserError(seats_rule)
    try:
        return engine.new_game(len(session.seats), dict(session.options))
    except ValueError as exc:
        raise UserError(f"{title}: {exc}") from None


class Scene(Protocol):
    """A simulated table for the `sim` camera: a picture and its ground truth at time t."""

    def frame(self, t: float) -> tuple[np.ndarray, Any]: ...


@runtime_checkable
class TableGame(Protocol):
    """One game session at the table, as the live loop and the web app see it.

    Optional: `table_markers`, the marker ids a game locates its own board by (a box with
    markers on its corners); the status bar and overlay then count those, not the table's.
    `uses_table_image` True: `perceive` reads `registration.table_image`, the top-down warp
    of the frame; without it the loop skips the warp (None there), which costs a third of
    the registration and which the games, reading the camera frame through H, do not need.
    """

    game_id: str

    def sim_scene(self, seed: int) -> Scene | None:
        """This game's scene for the `sim` camera; None: the platform's demo table."""
        ...

    def perceive(self, frame: Frame, registration: Registration) -> Observation:
        """Read one frame (perception thread). `registration.ok` False: the table is not
        located; return a low-confidence observation rather than raising."""
        ...

    def update(self, observation: Observation, now: float) -> list[EventDraft]:
        """Tracker + engine step: observations stable long enough become drafts."""
        ...

    def apply_event(self, event: Event) -> None:
        """Advance the state by one committed event (live and on replay)."""
        ...

    def correct(self, payload: Correction, seat: int | None) -> list[EventDraft]:
        """A manual correction or an answer from the dashboard (`seat` None: the admin or
        the local user): the JSON posted to /api/corrections, or the typed body the game's
        own router passes on (parse both with `companion.live.corrections`). Raise
        `UserError` for bad input (400) and `IllegalAction` for a move the rules forbid
        (409); nothing is recorded then."""
        ...

    def questions(self, seat: int | None) -> list[Question]:
        """Open questions this seat may see and answer (None: only the public ones)."""
        ...

    def view(self, seat: int | None) -> dict[str, Any]:
        """JSON for one seat's dashboard (None: spectator/admin, public only)."""
        ...

    def annotate(
        self, image: np.ndarray, registration: Registration, observation: Observation
    ) -> np.ndarray:
        """Draw the game's overlay on the camera image for the MJPEG stream (may draw in
        place and return `image`). The platform has already drawn markers and the table."""
        ...


def game_part(game_id: str, part: str) -> ModuleType | None:
    """A game's part for listings and routes; a part that fails to import is logged and
    treated as missing, so one game's broken file does not take the dashboard down."""
    from companion.games import GAMES

    info = GAMES.get(game_id)
    if info is None:
        return None
    try:
        return info.module(part)
    except Exception:
        log.exception("game %s: its %s.py failed to import", game_id, part)
        return None


def panel_path(live_module: Any) -> Path | None:
    """The panel ES module a game's live.py declares, if any."""
    path = getattr(live_module, "PANEL_JS", None)
    return Path(path) if path else None
