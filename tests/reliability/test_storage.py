"""Full disks and damaged files: nothing half-written, nothing stuck, no crash loop."""

from __future__ import annotations

import contextlib
import resource
import signal
import sqlite3
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.live.loop import Runtime, StorageUnavailable, code_version
from companion.live.table_game import EventDraft, Observation
from companion.snapshots import SnapshotFolder, write_atomic
from companion.store import DAMAGED_DIR, DB_NAME, StorageError, Store
from companion.web.app import create_app
from tests.live.example_game import ExampleTableGame
from tests.polling import wait_for
from tests.reliability.helpers import small_settings


def fill_up(store: Store) -> None:
    """SQLite's own "database or disk is full": no page beyond the ones it has, and those
    filled until not even an empty event fits."""
    with store._lock:  # the test reaches into the store to play the disk
        pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
        store._conn.execute(f"PRAGMA max_page_count = {pages}")
    sid = store.open_session().id
    for _ in range(5000):
        try:
            store.append(sid, "filler", {})
        except StorageError:
            return
    raise AssertionError("the store never filled up")


def free_up(store: Store) -> None:
    with store._lock:
        store._conn.execute("PRAGMA max_page_count = 1073741823")


class DealingGame(ExampleTableGame):
    """A tracker that moves on in its working memory as soon as it proposes the deal, as the
    Looking Glass tracker did: if the deal is not saved, only a rebuild brings it back."""

    def __init__(self, session: Any) -> None:
        super().__init__(session)
        self.dealt = False
        self.proposed = False

    def update(self, observation: Observation, now: float) -> list[EventDraft]:
        if self.proposed:
            return []
        self.proposed = True
        return [EventDraft("deal", {"cards": ["A", "B"]})]

    def apply_event(self, event: Any) -> None:
        super().apply_event(event)
        if event.kind == "deal":
            self.dealt = True

    def correct(self, payload: dict[str, Any], seat: int | None) -> list[EventDraft]:
        if "pick" in payload:
            if not self.dealt:
                raise KeyError(payload["pick"])  # what a stuck game did
            return [EventDraft("pick", {"card": payload["pick"]})]
        return super().correct(payload, seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        return {**super().view(seat), "dealt": self.dealt}


def test_a_full_disk_refuses_whole_steps_says_so_and_the_game_resumes_by_itself(tmp_path):
    settings = small_settings(tmp_path, **{"store.retry_s": 0.05})
    rt = Runtime(settings, table_game_factory=lambda s, session: DealingGame(session))
    client = TestClient(create_app(settings, rt))
    fill_up(rt.store)
    before = rt.store.last_seq(rt.session.id)

    # the tracker proposes the deal; the disk refuses: nothing applied, nothing stuck
    frame = Observation({"markers": []}, 0.9)
    assert rt.game.update(frame, 0.0) and rt.game.proposed
    with pytest.raises(StorageUnavailable):
        rt.submit([EventDraft("deal", {"cards": ["A", "B"]})])
    assert rt.game.dealt is False and rt.game.proposed is False  # rebuilt from the store
    res = client.post("/api/corrections", json={"note": "x"})
    assert res.status_code == 503 and "storage" in res.json()["detail"]
    assert rt.store.last_seq(rt.session.id) == before
    health = client.get("/api/health").json()
    assert health["status"] == "degraded: storage"
    assert "full" in health["storage"]["reason"]

    free_up(rt.store)
    drafts = rt.game.update(frame, 0.0)  # the rebuilt tracker proposes the deal again
    assert [d.kind for d in drafts] == ["deal"]
    time.sleep(settings.store.retry_s)  # till the next retry, as the camera's loop waits
    events = rt.submit(drafts)
    assert [e.kind for e in events] == ["deal"] and rt.game.dealt
    assert client.post("/api/corrections", json={"pick": "A"}).status_code == 200
    assert client.get("/api/health").json()["status"] != "degraded: storage"
    kinds = [e.kind for e in rt.store.events(rt.session.id) if e.kind != "filler"]
    assert kinds == ["session.started", "deal", "pick"]


def test_the_live_loop_waits_while_the_disk_is_full_then_carries_on(tmp_path):
    from tests.reliability.live_blank import BlankSource

    settings = small_settings(tmp_path, **{"store.retry_s": 0.1})
    rt = Runtime(
        settings,
        source_factory=BlankSource,
        table_game_factory=lambda s, session: DealingGame(session),
    )
    fill_up(rt.store)
    rt.start()
    try:
        wait_for(lambda: rt.storage_error is not None)
        assert not rt.game.dealt
        free_up(rt.store)
        wait_for(lambda: rt.game.dealt and rt.storage_error is None)
    finally:
        rt.stop()
    assert [e.kind for e in rt.store.events(rt.session.id)].count("deal") == 1


@contextlib.contextmanager
def file_size_limit(limit: int):
    """Writes past `limit` bytes fail with EFBIG, as a full disk fails a write midway."""
    old = resource.getrlimit(resource.RLIMIT_FSIZE)
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, old[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old)
        signal.signal(signal.SIGXFSZ, handler)


def test_a_picture_is_written_whole_or_not_at_all(tmp_path):
    path = tmp_path / "snapshots" / "s" / "1.jpg"
    with file_size_limit(1000), pytest.raises(OSError):
        write_atomic(path, b"\xff" * 5000)
    assert not path.exists() and list(path.parent.iterdir()) == []  # no 0-byte, no temp file
    write_atomic(path, b"\xff" * 5000)
    assert path.read_bytes() == b"\xff" * 5000


def test_an_event_is_recorded_even_when_its_picture_does_not_fit(tmp_path):
    store = Store(tmp_path)
    sid = store.create_session("reflecto", {}, ["A"]).id
    with file_size_limit(1_000_000):  # room for the database, not for a 2 MB picture
        event = store.append(sid, "scored", {"p": 1}, snapshot_jpeg=b"\xff" * 2_000_000)
    assert event.snapshot is None and store.events(sid)[-1].kind == "scored"
    assert not list((tmp_path / "snapshots").rglob("*.jpg"))


def test_oldest_pictures_are_pruned_past_the_budget_and_events_never(tmp_path):
    store = Store(tmp_path, snapshot_budget_bytes=25_000)
    sid = store.create_session("reflecto", {}, ["A"]).id
    for i in range(6):
        store.append(sid, "scored", {"i": i}, snapshot_jpeg=bytes([i]) * 10_000)
    kept = sorted(p.name for p in (tmp_path / "snapshots" / sid).iterdir())
    assert kept == ["5.jpg", "6.jpg"]  # 2 x 10 KB fit 25 KB; the newest are kept
    assert len(store.events(sid)) == 6
    assert SnapshotFolder(tmp_path / "snapshots", 25_000).used_bytes() == 20_000


def damage(path, marker: bytes = b"note 200note 200") -> None:
    """Overwrite the page holding `marker` (an event's payload), as a failing SD card does."""
    data = bytearray(path.read_bytes())
    at = data.find(marker)
    assert at > 0
    start = at - at % 4096
    for i in range(start, start + 4096):
        data[i] = (i * 7) & 0xFF
    path.write_bytes(bytes(data))


def fill_a_store(data_dir, events: int = 300) -> str:
    store = Store(data_dir)
    sid = store.create_session("reflecto", {}, ["A", "B"]).id
    for i in range(events):
        store.append(sid, "note", {"text": f"note {i}" * 5})
    with store._lock:
        store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    return sid


def test_a_damaged_database_is_moved_aside_and_a_fresh_session_starts(tmp_path, caplog):
    settings = small_settings(tmp_path)
    fill_a_store(settings.data_dir)
    damage(settings.data_dir / DB_NAME)
    with pytest.raises(sqlite3.DatabaseError):  # what start-up used to die of
        conn = sqlite3.connect(settings.data_dir / DB_NAME)
        conn.execute("SELECT * FROM events").fetchall()

    rt = Runtime(settings)  # no traceback, no crash loop
    moved = list((settings.data_dir / DAMAGED_DIR).glob(f"*-{DB_NAME}"))
    assert len(moved) == 1
    health = rt.health()
    assert "moved aside" in health["storage"]["notice"]
    assert [e.kind for e in rt.store.events(rt.session.id)] == ["session.started"]
    assert sum("damaged" in r.getMessage() for r in caplog.records) == 1  # one clear line
    rt.stop()


def test_doctor_repair_recovers_the_damaged_games_into_the_history(tmp_path, capsys):
    from companion.cli import main
    from companion.store_repair import salvage

    settings = small_settings(tmp_path)
    old = fill_a_store(settings.data_dir, events=400)
    damage(settings.data_dir / DB_NAME)
    rt = Runtime(settings)
    rt.stop()
    rt.store.close()
    moved = next((settings.data_dir / DAMAGED_DIR).glob(f"*-{DB_NAME}"))
    _, rows = salvage(moved)  # without any tool: some rows lost to the damage, most kept
    assert 0 < len(rows) < 400

    assert main(["doctor", "--repair", "--data-dir", str(settings.data_dir)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("recovered 1 sessions and ")
    store = Store(settings.data_dir)
    back = store.session(old)
    assert back is not None and back.ended is not None  # history, never resumed
    notes = store.events(old)
    assert len(notes) >= len(rows) and notes[0].payload == {"text": "note 0" * 5}
    assert [e.seq for e in store.seen_by(old, "public")] == list(range(1, len(notes) + 1))
    assert main(["doctor", "--repair", "--data-dir", str(settings.data_dir)]) == 0
    assert "nothing to repair" in capsys.readouterr().out


def test_a_restart_replays_only_the_events_after_the_newest_checkpoint(tmp_path):
    from tests.live.example_game import make_table_game

    settings = small_settings(tmp_path, **{"store.checkpoint_every": 10})
    first = Runtime(settings, table_game_factory=make_table_game)
    first.start_session("reflecto", {}, ["A", "B"])
    for i in range(24):
        first.correct({"note": f"n{i}"} if i % 3 else {"memo": f"m{i}"}, i % 2)
    views = {seat: first.state(seat)["view"] for seat in (None, 0, 1)}
    saved = [seq for seq, _ in first.store.checkpoints(first.session.id, code_version())]
    assert saved == [20, 10]  # the newest two are kept
    first.store.close()

    made = []

    def counting(settings: Any, session: Any) -> Any:
        made.append(session.id)
        return make_table_game(settings, session)

    second = Runtime(settings, store=Store(settings.data_dir), table_game_factory=counting)
    assert made == []  # the game came from the checkpoint, then 5 events were replayed
    assert {seat: second.state(seat)["view"] for seat in (None, 0, 1)} == views
    second.correct({"note": "after"}, 0)
    assert second.state(None)["view"]["notes"][-1]["text"] == "after"


class HintingGame(ExampleTableGame):
    """A hint whose payload differs on every ask (as a sampled hint does)."""

    asked = 0

    def correct(self, payload: dict[str, Any], seat: int | None) -> list[EventDraft]:
        if payload.get("hint"):
            HintingGame.asked += 1
            return [EventDraft.private(seat, "x.hint", {"n": HintingGame.asked}, once=True)]
        return super().correct(payload, seat)


def test_a_hint_is_recorded_once_per_position_however_often_it_is_asked(tmp_path):
    rt = Runtime(
        small_settings(tmp_path), table_game_factory=lambda s, session: HintingGame(session)
    )
    rt.start_session("reflecto", {}, ["A", "B"])

    def hints() -> list[tuple[str, int]]:
        return [
            (e.visibility, e.payload["n"])
            for e in rt.store.events(rt.session.id)
            if e.kind == "x.hint"
        ]

    for _ in range(50):
        rt.correct({"hint": True}, 0)
    rt.correct({"hint": True}, 1)  # another seat's hint is its own
    rt.correct({"hint": True}, 0)
    assert hints() == [("seat:0", 1), ("seat:1", 51)]
    rt.correct({"note": "a move"}, 1)  # the position changed: a new hint is worth keeping
    rt.correct({"hint": True}, 0)
    rt.correct({"hint": True}, 0)
    assert hints() == [("seat:0", 1), ("seat:1", 51), ("seat:0", 53)]
