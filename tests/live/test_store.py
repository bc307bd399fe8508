"""The store: append-only events, replay in order, resume after a reopen, WAL on."""

from __future__ import annotations

import sqlite3
import stat

import pytest

from companion.store import Store


def test_append_replay_and_resume_after_reopen(tmp_path):
    store = Store(tmp_path)
    session = store.create_session("reflecto", {"variant": "basic"}, ["Ann", "Bob"])
    first = store.append(session.id, "session.started", session.to_json())
    pic = store.append(session.id, "round.scored", {"points": [3, 1]}, snapshot_jpeg=b"\xff\xd8jpg")
    secret = store.append(session.id, "hand.seen", {"cards": ["K"]}, visibility="seat:1")
    assert [first.seq, pic.seq, secret.seq] == [1, 2, 3]
    store.close()  # a kill: nothing but what was committed survives

    again = Store(tmp_path)
    resumed = again.open_session()
    assert resumed == session
    events = again.events(session.id)
    assert [(e.seq, e.kind) for e in events] == [
        (1, "session.started"),
        (2, "round.scored"),
        (3, "hand.seen"),
    ]
    assert events[1].payload == {"points": [3, 1]}
    assert again.snapshot_file(events[1]).read_bytes() == b"\xff\xd8jpg"
    assert events[1].snapshot == f"snapshots/{session.id}/2.jpg"
    assert again.events(session.id, after_seq=2) == [events[2]]
    assert again.append(session.id, "next", {}).seq == 4  # numbering continues


def test_private_events_are_visible_only_to_their_seat(tmp_path):
    store = Store(tmp_path)
    s = store.create_session("reflecto", {}, ["A", "B"])
    ev = store.append(s.id, "hand.seen", {}, visibility="seat:0")
    assert ev.visible_to(0)
    assert not ev.visible_to(1)
    assert not ev.visible_to(None)
    with pytest.raises(ValueError, match="visibility"):
        store.append(s.id, "x", {}, visibility="everyone")


def test_wal_and_full_sync_are_on_and_the_file_is_private(tmp_path):
    store = Store(tmp_path)
    assert store.journal_mode() == "wal"
    store.append(store.create_session("reflecto", {}, ["A"]).id, "x", {})
    for name in ("companion.sqlite3", "companion.sqlite3-wal"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name  # holds tokens
    conn = sqlite3.connect(store.path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # persistent in the file
    assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_events_are_append_only(tmp_path):
    store = Store(tmp_path)
    s = store.create_session("reflecto", {}, ["A"])
    store.append(s.id, "x", {"a": 1})
    conn = sqlite3.connect(store.path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE events SET kind = 'y'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM events")


def test_new_session_ends_the_open_one_and_tokens_persist(tmp_path):
    store = Store(tmp_path)
    a = store.create_session("reflecto", {}, ["A"])
    b = store.create_session("queen-alice", {}, ["Q"])
    assert store.open_session().id == b.id
    assert store.session(a.id).ended is not None
    admin, created = store.admin_token()
    seats = store.seat_tokens(b.id, 1)
    store.close()
    again = Store(tmp_path)
    assert again.admin_token() == (admin, False)
    assert again.seat_tokens(b.id, 1) == seats
    assert again.token(seats[0]).seat == 0
    assert again.token("nope") is None
    assert created
