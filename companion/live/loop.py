"""The live loop: capture → registration → the game's perceiver → tracker/engine → store → viewers.

One `Runtime` per process. Capture runs in the camera's own thread (`CaptureThread`, one-slot
buffer); perception runs in this module's perception thread, never on the web server's event
loop. The web app only reads (`health`, `state`, the newest JPEG) and asks for changes
through `correct`, `submit` and `start_session`, which commit to the store before anything
is shown: every change to a game is an event appended first, then applied, then announced.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion import __version__
from companion.config import Settings
from companion.errors import UserError
from companion.games import get_game
from companion.games.base import IllegalAction
from companion.live import checkpoints
from companion.live.demo_game import DemoTableGame
from companion.live.demo_players import DemoPlayers
from companion.live.meters import RateMeter
from companion.live.overlay import (
    draw_markers,
    draw_status,
    draw_table,
    encode_jpeg,
    status_line,
)
from companion.live.pubsub import Latest
from companion.live.table_game import Correction, EventDraft, Observation, Question, TableGame
from companion.live.table_status import TableStatus
from companion.live.watchdog import Notifier
from companion.live.words import default_names, refusal_in_words
from companion.store import (
    PUBLIC,
    DamagedStore,
    Draft,
    Event,
    Session,
    StorageError,
    Store,
    audience_of,
    new_session_id,
)

log = logging.getLogger(__name__)

SESSION_STARTED = "session.started"
STREAM_MAX_WIDTH = 960
"""The annotated view is scaled down to this width: phones do not need more, Wi-Fi is slow."""

TableGameFactory = Callable[[Settings, Session], TableGame]


class StorageUnavailable(Exception):
    """The store refused a write (full disk): the change was not made; try again later."""


@cache
def code_version() -> str:
    """A hash of the package's source: a checkpoint is restored only by the code that
    pickled it."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256(__version__.encode())
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def load_table_game(settings: Settings, session: Session) -> TableGame:
    """The game's own `live.make_table_game`, or the platform's demo when it has none."""
    info = get_game(session.game)
    try:
        live = info.module("live")
    except ImportError as exc:  # a bug in the game, but the table must say so, not crash
        log.exception("game %s: live.py failed to import", session.game)
        raise UserError(f"{session.game} cannot be played now: its live.py failed: {exc}") from None
    if live is not None:
        game: TableGame = live.make_table_game(settings, session)  # the module's contract
        return game
    rules = info.module("rules")
    if rules is not None and hasattr(rules, "ENGINE"):  # no table view; the engine checks options
        try:
            rules.ENGINE.new_game(len(session.seats), dict(session.options))
        except (ValueError, TypeError, KeyError) as exc:
            raise UserError(f"{session.game}: {exc}") from None
    return DemoTableGame(session.game, session)


@dataclass(frozen=True)
class Changes:
    """What SSE viewers wait for: the active session and its last committed event."""

    session_id: str
    last_seq: int


class Runtime:
    """The live service of one table: the camera, the active session and its game.

    `source_factory` replaces the camera source (tests: a `replay:` folder or a source that
    fails on purpose); `table_game_factory` replaces how a session's game is built (default:
    the game's `live.py`, else the demo).
    """

    def __init__(
        self,
        settings: Settings,
        *,
        store: Store | None = None,
        source_factory: Callable[[], Any] | None = None,
        table_game_factory: TableGameFactory | None = None,
    ) -> None:
        self.settings = settings
        self.store = store or Store(
            settings.data_dir, snapshot_budget_bytes=settings.store.snapshot_budget_mb * 2**20
        )
        self.storage_error: str | None = None
        """Why the last write failed, until one succeeds again."""
        self._retry_storage_at = 0.0
        self._checkpoint_ok = True
        self._checkpointed = 0
        """The event the active session's newest checkpoint was taken after (0: none)."""
        self.started_at = time.monotonic()
        self.frames: Latest[bytes] = Latest()
        self.last_frame_at = 0.0
        """Wall-clock time the newest annotated frame was taken (0: none yet)."""
        self.changes: Latest[Changes] = Latest()
        self.perception = RateMeter()
        self.frame_cpu_ms: dict[str, float] = {}
        """The last frame's CPU time per stage, in ms (this thread's time: what the machine's
        other work does not inflate; the benchmarks time each stage by it)."""
        self.stages = {name: RateMeter() for name in ("registration", "game", "view")}
        self.game_errors = 0
        self.last_game_error: str | None = None
        self.table_status = TableStatus.none_yet()
        """Where the table is, as the newest annotated frame shows it (`table_status`)."""
        self.notifier = Notifier.from_environ()
        """systemd's watchdog: pinged from the perception loop (`companion.live.watchdog`)."""
        self._make_game = table_game_factory or load_table_game
        self._source_factory = source_factory
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._capture: Any = None
        self._scene: tuple[str, Any] | None = None
        """(session id, its game's sim scene): built once per session, not per camera
        (re)open or game rebuild; a game's scene can be a whole deck taught from photos."""
        self._scene_lock = threading.Lock()
        """Held while a scene is built. Right after "New game" the capture thread (opening
        the camera on the new film) and the perception thread (playing its taps) both ask
        for it; built twice, the camera filmed one copy while the players were rebuilt for
        the other and played every tap again from the start (a demo stalled that way)."""
        self._players: tuple[Any, DemoPlayers] | None = None
        """(scene, its scripted players), rebuilt when the scene changes."""
        self._thread: threading.Thread | None = None
        self._registrar: Any = None
        self.session, self.game = self._resume_or_start()

    # -- sessions --------------------------------------------------------------------

    def _resume_or_start(self) -> tuple[Session, TableGame]:
        """Resume the open session of the configured game by replaying its events; a store
        found damaged while doing so is moved aside and a fresh session started."""
        try:
            open_session = self.store.open_session()
            if open_session is not None and open_session.game == self.settings.game:
                game, last = self._replay(open_session)
                self.changes.set(Changes(open_session.id, last))
                self.session, self.game = open_session, game
                self._checkpoint(last)
                log.info("resumed session %s (%s)", open_session.id, open_session.game)
                return open_session, game
        except DamagedStore as exc:
            self.store.replace_damaged(str(exc))
        info = get_game(self.settings.game)
        return self._new_session(self.settings.game, {}, default_names(info.min_players))

    def _replay(self, session: Session) -> tuple[TableGame, int]:
        """A game rebuilt from the store: the newest usable checkpoint, then the tail."""
        game, last = None, 0
        for seq, blob in self.store.checkpoints(session.id, code_version()):
            try:
                game, last = checkpoints.loads(blob), seq
                break
            except Exception as exc:  # a checkpoint is a shortcut, never a requirement
                log.warning("checkpoint %s of %s unusable: %s", seq, session.id, exc)
        self._checkpointed = last
        if game is None:
            game = self._make_game(self.settings, session)
        for event in self.store.events(session.id, last):
            self._apply(game, event)
            last = event.seq
        return game, last

    def _new_session(
        self, game_id: str, options: dict[str, Any], seats: list[str]
    ) -> tuple[Session, TableGame]:
        info = get_game(game_id)
        if not info.min_players <= len(seats) <= info.max_players:
            raise UserError(info.wrong_count(len(seats)))
        if len(set(seats)) != len(seats) or not all(s.strip() for s in seats):
            raise UserError("seat names must be non-empty and different")
        draft = Session(new_session_id(), game_id, dict(options), list(seats), time.time())
        game = self._make_game(self.settings, draft)  # raises UserError for bad options
        try:
            session = self.store.create_session(game_id, options, seats, session_id=draft.id)
            event = self.store.append(session.id, SESSION_STARTED, session.to_json())
        except StorageError as exc:
            self._storage_failed(exc)
            raise StorageUnavailable(self._storage_message()) from None
        self._apply(game, event)
        self._checkpointed, self._checkpoint_ok = 0, True  # another game: it may pickle
        self.changes.set(Changes(session.id, event.seq))
        return session, game

    def start_session(
        self, game_id: str, options: dict[str, Any] | None = None, seats: list[str] | None = None
    ) -> Session:
        """End the current session and start a new one (the table has one game at a time)."""
        info = get_game(game_id)
        seats = seats if seats is not None else default_names(info.min_players)
        with self._lock:
            old_scene = self._has_own_scene()
            self.session, self.game = self._new_session(game_id, options or {}, seats)
            restart = old_scene or self._has_own_scene()
        if restart and self._capture is not None and self._is_sim():
            self._restart_capture()
        return self.session

    # -- changes from the web app -------------------------------------------------------

    def correct(self, payload: Correction, seat: int | None) -> list[Event]:
        """Forward a correction or an answer to the game and commit what it decides."""
        with self._lock:
            self._refuse_while_storage_rests()
            try:
                drafts = self.game.correct(payload, seat)
            except (IllegalAction, UserError) as exc:
                raise refusal_in_words(exc, self.session.seats) from None
            return self._commit(drafts)

    def submit(self, drafts: list[EventDraft]) -> list[Event]:
        """Commit drafts a game's own router built (under the game lock)."""
        with self._lock:
            self._refuse_while_storage_rests()
            return self._commit(drafts)

    def _refuse_while_storage_rests(self) -> None:
        """Right after a refused write, changes are refused at once (until the next retry)
        rather than each costing the game a rebuild."""
        if self.storage_error is not None and time.monotonic() < self._retry_storage_at:
            raise StorageUnavailable(self._storage_message())

    def _commit(self, drafts: list[EventDraft]) -> list[Event]:
        """Commit all drafts in one transaction, then apply them; announce once all are in.

        If the store refuses, the game is rebuilt from what the store holds (its tracker
        may have moved on while deciding the drafts) and StorageUnavailable is raised."""
        rows = []
        for draft in drafts:
            if not isinstance(draft, EventDraft):
                raise TypeError(f"a game returned {type(draft).__name__}, not an EventDraft")
            if draft.once and self.store.repeats_position(
                self.session.id, draft.kind, draft.visibility
            ):
                continue
            jpeg = self.frames.get()[1] if draft.snapshot else None
            rows.append(Draft(draft.kind, draft.payload, draft.visibility, jpeg))
        if not rows:
            return []
        try:
            events = self.store.append_many(self.session.id, rows)
        except StorageError as exc:
            self._storage_failed(exc)
            # cannot even read: keep the game as it is; nothing was applied to it
            with contextlib.suppress(StorageError):
                self.game, _ = self._replay(self.session)
            raise StorageUnavailable(self._storage_message()) from None
        if self.storage_error is not None:
            log.warning("storage: writes succeed again; the game carries on")
            self.storage_error = None
        for event in events:
            self._apply(self.game, event)
        self.changes.set(Changes(self.session.id, events[-1].seq))
        self._checkpoint(events[-1].seq)
        return events

    def _storage_failed(self, exc: Exception) -> None:
        if self.storage_error is None:
            log.error("storage: a write failed (%s); the game waits until it succeeds", exc)
        self.storage_error = str(exc)
        self._retry_storage_at = time.monotonic() + self.settings.store.retry_s

    def _storage_message(self) -> str:
        return (
            f"the table's storage refused the write ({self.storage_error}); nothing was "
            "changed. Free some space on the device; the game carries on by itself."
        )

    def _checkpoint(self, seq: int) -> None:
        """Once `checkpoint_every` events followed the newest checkpoint, keep the game's
        state, so a restart replays only what follows (skipped for good if this game cannot
        be pickled). Counted from that checkpoint, not by multiples: one commit may append
        several events and step over a multiple (it did, and no checkpoint was ever kept);
        a start-up that replayed that many events keeps one at once."""
        every = self.settings.store.checkpoint_every
        if not self._checkpoint_ok or seq - self._checkpointed < every:
            return
        try:
            blob = checkpoints.dumps(self.game)
        except Exception as exc:
            self._checkpoint_ok = False
            log.info(
                "game %s keeps no checkpoints (%s): restarts replay every event",
                self.session.game,
                exc,
            )
            return
        try:
            self.store.save_checkpoint(self.session.id, seq, code_version(), blob)
            self._checkpointed = seq
        except StorageError as exc:  # only a shortcut: the events are safe
            log.warning("checkpoint after event %d not saved: %s", seq, exc)

    def _apply(self, game: TableGame, event: Event) -> None:
        try:
            game.apply_event(event)
        except Exception as exc:  # a game bug must not stop the table; it shows in health
            self._game_error("apply_event", exc)

    def _game_error(self, where: str, exc: BaseException) -> None:
        self.game_errors += 1
        self.last_game_error = f"{where}: {type(exc).__name__}: {exc}"
        log.exception("game %s failed in %s", self.session.game, where)

    # -- reads for the web app ------------------------------------------------------------

    def state(self, seat: int | None) -> dict[str, Any]:
        with self._lock:
            session, game = self.session, self.game
            return {
                "session": session.to_json(),
                "seat": seat,
                "last_seq": self.store.last_seen(session.id, audience_of(seat)),
                "view": game.view(seat),
            }

    def view(self, seat: int | None) -> dict[str, Any]:
        """The active game's view for one seat, for game routers that answer with it."""
        with self._lock:
            return dict(self.game.view(seat))

    def questions(self, seat: int | None) -> list[Question]:
        with self._lock:
            return list(self.game.questions(seat))

    def events_for(
        self, seat: int | None, after_seq: int = 0, limit: int | None = None
    ) -> list[Event]:
        """The active session's events this seat may see, numbered in its own audience
        (`store.seen_by`), after its number `after_seq`."""
        return self.store.seen_by(self.session.id, audience_of(seat), after_seq, limit)

    def as_seen_by(self, events: list[Event], seat: int | None) -> list[Event]:
        """Events just committed, as this seat may see them: its own numbers, others' private
        events left out (what a route answers with after a change)."""
        return self.store.as_seen_by(events, audience_of(seat))

    def health(self) -> dict[str, Any]:
        camera = self._capture.status() if self._capture is not None else None
        cam = (
            {
                "state": camera.state,
                "fps": camera.fps,
                "frames": camera.frames,
                "errors": camera.errors,
                "last_error": camera.last_error,
                "since_s": round(time.monotonic() - camera.since, 1),
                "source": camera.source,
            }
            if camera is not None
            else {
                "state": "stopped",
                "fps": 0.0,
                "frames": 0,
                "errors": 0,
                "last_error": None,
                "since_s": 0.0,
                "source": self.settings.camera.source,
            }
        )
        ms = self.perception.median_ms()
        storage = self.storage_health()
        status = "ok" if cam["state"] == "ok" else cam["state"]
        if storage["state"] != "ok":
            status = "degraded: storage"
        return {
            "status": status,
            "storage": storage,
            "version": __version__,
            "uptime_s": round(time.monotonic() - self.started_at, 1),
            "camera": cam,
            "perception": {
                "fps": round(self.perception.fps(), 2),
                "ms": None if ms is None else round(ms, 1),
                "frames": self.perception.count,
                "stages_ms": {
                    name: None if (m := meter.median_ms()) is None else round(m, 1)
                    for name, meter in self.stages.items()
                },
            },
            "table": self.table_status.to_json(),
            "game": {
                "id": self.session.game,
                "session": self.session.id,
                "errors": self.game_errors,
                "last_error": self.last_game_error,
            },
        }

    def storage_health(self) -> dict[str, Any]:
        """`degraded` with the reason while writes fail; `notice` when start-up found the
        database damaged and moved it aside."""
        try:
            st = os.statvfs(self.store.data_dir)
            free_mb: float | None = round(st.f_bavail * st.f_frsize / 2**20, 1)
        except OSError:
            free_mb = None
        return {
            "state": "ok" if self.storage_error is None else "degraded",
            "reason": self.storage_error,
            "free_mb": free_mb,
            "notice": self.store.notice,
        }

    # -- the camera and the perception thread -------------------------------------------

    def _is_sim(self) -> bool:
        return self._source_factory is None and self.settings.camera.source.strip() == "sim"

    def _has_own_scene(self) -> bool:
        # Only the `sim` camera plays a game's own scene; building one to ask is slow (a
        # whole simulated deck) and may set the game up for simulated cards.
        if not self._is_sim():
            return False
        try:
            return self.sim_scene() is not None
        except Exception:
            return False

    def sim_scene(self) -> Any:
        """The session's own simulated scene (what the `sim` camera films and the demo players
        tap from), built once per session whichever thread asks first: benchmarks and tests
        replay the very scene the live loop plays. Never take `_lock` while holding
        `_scene_lock`: `start_session` asks for a scene under `_lock`."""
        with self._lock:  # the session and its game, as one pair
            game, sid = self.game, self.session.id
        with self._scene_lock:
            if self._scene is not None and self._scene[0] == sid:
                return self._scene[1]
            scene = game.sim_scene(self.settings.camera.seed)
            if sid == self.session.id:  # not kept when another game started meanwhile
                self._scene = (sid, scene)
            return scene

    def _of_another_film(self, frame: Any) -> bool:
        """A `sim` frame filmed from another scene than the session's: one still in flight
        when "New game" restarted the camera. It shows the old game's table at the old
        film's time; read by the new game, it would make its tracker see the old board and
        play the new film's taps due by that time at once, out of step with the film."""
        film = getattr(frame, "film", None)
        if film is None or not self._is_sim():
            return False
        scene = self.sim_scene()
        return scene is not None and film is not scene

    def _open_source(self) -> Any:
        if self._source_factory is not None:
            return self._source_factory()
        from companion.camera import open_source

        scene = self.sim_scene() if self._is_sim() else None
        return open_source(
            self.settings.camera.source,
            self.settings.camera,
            scene_factory=(lambda: scene) if scene is not None else None,
            table=self.settings.table,
        )

    def _new_capture(self) -> Any:
        from companion.camera import CaptureThread

        return CaptureThread(self._open_source, name="table").start()

    def _restart_capture(self) -> None:
        old, self._capture = self._capture, self._new_capture()
        if old is not None:
            old.stop()

    def next_frame(self, timeout: float) -> Any:
        """The first raw camera frame taken after this call (not the annotated view the
        dashboard shows), or None if none comes within `timeout` seconds."""
        capture = self._capture
        if capture is None:
            return None
        latest = capture.latest()
        return capture.wait_for_frame(latest.index if latest is not None else -1, timeout)

    def camera_state(self) -> str:
        return self._capture.status().state if self._capture is not None else "not running"

    def check_camera(self) -> None:
        """Open and close the source once, so `serve` can say "camera absent" in one line."""
        source = self._open_source()
        try:
            source.open()
        finally:
            source.close()

    def use_registrar(self, registrar: Any = None) -> Runtime:
        """Registration as `start` sets it up (the saved calibration when there is one), or
        `registrar`: what feeding `process` frames without the camera thread needs."""
        self._registrar = table_registrar(self.settings) if registrar is None else registrar
        return self

    def start(self) -> Runtime:
        self.use_registrar()
        self._capture = self._new_capture()
        self._thread = threading.Thread(target=self._run, name="perception", daemon=True)
        # READY before the loop's first ping: systemd reads pings only from a ready service.
        self.notifier.ready()
        self._thread.start()
        return self

    def stop(self) -> None:
        self.notifier.stopping()
        self._stop.set()
        if self._capture is not None:
            self._capture.stop()
        if self._thread is not None:
            self._thread.join(5.0)
        self.frames.close()
        self.changes.close()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _run(self) -> None:
        capture, last_index = None, -1
        while not self._stop.is_set():
            self.notifier.alive()
            if self._capture is not capture:
                capture, last_index = self._capture, -1
            frame = capture.wait_for_frame(last_index, timeout=0.5)
            if frame is None:
                if capture.status().state == "stopped":
                    self._stop.wait(0.2)  # a replay that ended, or a swap in progress
                continue
            last_index = frame.index
            try:
                self.process(frame)
            except Exception as exc:  # one bad frame must not end the loop
                self._game_error("frame", exc)

    def process(self, frame: Any) -> list[Event]:
        """One frame through registration, the game and the store; returns new events."""
        if self._of_another_film(frame):
            return []
        t0, c0 = time.perf_counter(), time.thread_time()
        from companion.vision.markers import detect_markers

        markers = detect_markers(frame.image, self.settings.table.marker_dictionary)
        registration = self._registrar.register(
            frame.image, markers=markers, table_image=getattr(self.game, "uses_table_image", False)
        )
        t1, c1 = time.perf_counter(), time.thread_time()
        game = self.game
        try:
            observation = game.perceive(frame, registration)
        except Exception as exc:
            self._game_error("perceive", exc)
            observation = Observation({"error": str(exc)}, 0.0)
        t2, c2 = time.perf_counter(), time.thread_time()
        status = TableStatus.of(registration, game_markers(game))
        jpeg = self._annotate(frame.image, markers, registration, game, observation, status)
        shown = self.frames.set(jpeg)
        self.last_frame_at = time.time()
        t3, c3 = time.perf_counter(), time.thread_time()
        for name, seconds in (("registration", t1 - t0), ("game", t2 - t1), ("view", t3 - t2)):
            self.stages[name].add(seconds)
        self.perception.add(t3 - t0)
        self.frame_cpu_ms = {
            "registration": 1000 * (c1 - c0),
            "game": 1000 * (c2 - c1),
            "view": 1000 * (c3 - c2),
        }
        # One object naming the frame it was drawn on, published after the frame's timing:
        # the status bar never mixes two frames, nor shows markers without a perception time.
        self.table_status = replace(status, frame=shown)
        with self._lock:
            if game is not self.game or self._of_another_film(frame):
                return []  # a new session started (or a rebuild) while we looked
            if self.storage_error is not None and time.monotonic() < self._retry_storage_at:
                return []  # the disk refused lately: the tracker waits, it does not move on
            try:
                drafts = game.update(observation, frame.timestamp)
            except Exception as exc:
                self._game_error("update", exc)
                return []
            try:
                return self._commit(drafts) + self._demo_taps(frame)
            except StorageUnavailable:
                return []

    def _demo_taps(self, frame: Any) -> list[Event]:
        """The `sim` scene's scripted players tap through `correct`, as phones do."""
        truth = getattr(frame, "truth", None)
        if (
            not self._is_sim()
            or not self.settings.camera.sim_players
            or not isinstance(truth, dict)
            or "t" not in truth
        ):
            return []
        scene, t = self.sim_scene(), float(truth["t"])
        if self._players is None or self._players[0] is not scene:
            taps = tuple(getattr(scene, "taps", ()))
            name = type(scene).__name__
            log.info("demo players: %d taps of %s, from film time %.2f", len(taps), name, t)
            self._players = (scene, DemoPlayers(taps))
        events: list[Event] = []

        def correct(payload: Correction, seat: int | None) -> None:
            events.extend(self.correct(payload, seat))

        self._players[1].step(t, correct)
        return events

    def _annotate(
        self,
        image: np.ndarray,
        markers: dict[int, Any],
        registration: Any,
        game: TableGame,
        observation: Observation,
        status: TableStatus,
    ) -> bytes:
        view = image.copy()
        draw_markers(view, markers, game_markers(game) or tuple(self.settings.table.corner_ids))
        draw_table(view, registration)
        try:
            view = game.annotate(view, registration, observation)
        except Exception as exc:
            self._game_error("annotate", exc)
        title = get_game(self.session.game).title
        line = status_line(title, status.summary(), observation.confidence)
        draw_status(view, line, status.located_now)
        if view.shape[1] > STREAM_MAX_WIDTH:
            # INTER_LINEAR: INTER_AREA at a non-integer scale costs several times more.
            scale = STREAM_MAX_WIDTH / view.shape[1]
            view = cv2.resize(view, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
        return encode_jpeg(view)


def game_markers(game: TableGame) -> tuple[int, ...] | None:
    """The marker ids a game finds its own board by (`TableGame.table_markers`), if any."""
    ids = getattr(game, "table_markers", None)
    return tuple(int(i) for i in ids) if ids else None


def table_registrar(settings: Settings) -> Any:
    """The registrar of the saved calibration, else one from the table settings alone (a
    warning in the log says why the calibration was not used)."""
    from companion.vision.registration import TableRegistrar

    try:
        from companion.vision.registration import registrar_for

        return registrar_for(settings)
    except (ImportError, UserError, OSError, ValueError) as exc:
        log.warning("no saved calibration used: %s", exc)
        return TableRegistrar(settings.table)


__all__ = [
    "PUBLIC",
    "Changes",
    "Runtime",
    "StorageUnavailable",
    "game_markers",
    "load_table_game",
    "table_registrar",
]
