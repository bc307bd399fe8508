"""SQLite persistence: sessions, the append-only event log, access tokens and event snapshots.

The store is the truth. A game's current state is never saved; it is rebuilt by replaying
the session's events in order (`TableGame.apply_event`), so a kill -9 followed by a restart
resumes exactly where the last committed event left the table.

Durability choice: WAL with `synchronous=FULL`. A Pi on a games table loses power when
someone trips over the cable; in WAL mode `NORMAL` may drop the last few commits on power
loss, and an event the players already saw on their phones must not vanish. Events are a
few per minute, so the extra fsync per commit costs nothing that matters.

Threads: one connection shared behind a lock (`check_same_thread=False`). Writes are tiny
and rare, reads are short; a lock is simpler than a connection per thread and makes
"compute seq, write snapshot, insert, commit" one atomic step.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import UserError

DB_NAME = "companion.sqlite3"
PUBLIC = "public"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id       TEXT PRIMARY KEY,
    game     TEXT NOT NULL,
    options  TEXT NOT NULL,          -- JSON object (variant and options)
    seats    TEXT NOT NULL,          -- JSON list of seat names, index = seat number
    created  REAL NOT NULL,
    ended    REAL
);
CREATE TABLE IF NOT EXISTS events (
    session_id TEXT NOT NULL REFERENCES sessions(id),
    seq        INTEGER NOT NULL,     -- 1, 2, 3 ... within a session
    ts         REAL NOT NULL,
    kind       TEXT NOT NULL,
    payload    TEXT NOT NULL,        -- JSON
    visibility TEXT NOT NULL,        -- 'public' or 'seat:N'
    snapshot   TEXT,                 -- path relative to the data dir, or NULL
    PRIMARY KEY (session_id, seq)
);
CREATE TABLE IF NOT EXISTS tokens (
    token      TEXT PRIMARY KEY,
    role       TEXT NOT NULL,        -- 'admin' or 'seat'
    session_id TEXT,
    seat       INTEGER,
    created    REAL NOT NULL
);
CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
"""


def new_session_id(now: float | None = None) -> str:
    """Sortable by start time, unique without coordination: `20261130-105200-a1b2c3`."""
    now = time.time() if now is None else now
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime(now)) + "-" + secrets.token_hex(3)


def seat_visibility(seat: int) -> str:
    return f"seat:{seat}"


def visible_to(visibility: str, seat: int | None) -> bool:
    """Public events reach everyone; `seat:N` only seat N (never a spectator or the admin)."""
    return visibility == PUBLIC or (seat is not None and visibility == seat_visibility(seat))


@dataclass(frozen=True)
class Session:
    id: str
    game: str
    options: dict[str, Any]
    seats: list[str]
    created: float
    ended: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "seats": self.seats,
            "created": self.created,
            "ended": self.ended,
        }


@dataclass(frozen=True)
class Event:
    session_id: str
    seq: int
    ts: float
    kind: str
    payload: dict[str, Any]
    visibility: str = PUBLIC
    snapshot: str | None = None
    """Path of the JPEG relative to the data dir, when the event kept a picture."""

    def visible_to(self, seat: int | None) -> bool:
        return visible_to(self.visibility, seat)

    def to_json(self) -> dict[str, Any]:
        return {
            "session": self.session_id,
            "seq": self.seq,
            "ts": self.ts,
            "kind": self.kind,
            "payload": self.payload,
            "visibility": self.visibility,
            "snapshot": f"/api/events/{self.seq}/snapshot.jpg" if self.snapshot else None,
        }


@dataclass(frozen=True)
class Token:
    token: str
    role: str
    session_id: str | None = None
    seat: int | None = None


@dataclass
class Store:
    """One SQLite file plus a snapshot folder under the data dir."""

    data_dir: Path
    _conn: sqlite3.Connection = field(init=False, repr=False)
    _lock: threading.Lock = field(init=False, repr=False, default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.data_dir = Path(self.data_dir)
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(f"cannot create the data dir {self.data_dir}: {exc}") from None
        try:
            # The file holds the access tokens: owner-only, and SQLite gives its -wal and
            # -shm files the same permissions.
            path = self.data_dir / DB_NAME
            os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
            os.chmod(path, 0o600)
            self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._conn.execute("PRAGMA busy_timeout=5000")
            self._conn.executescript(_SCHEMA)
        except (sqlite3.Error, OSError) as exc:
            raise UserError(f"cannot open the store in {self.data_dir}: {exc}") from None

    @property
    def path(self) -> Path:
        return self.data_dir / DB_NAME

    def journal_mode(self) -> str:
        with self._lock:
            return str(self._conn.execute("PRAGMA journal_mode").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # sessions -------------------------------------------------------------------------

    def create_session(
        self,
        game: str,
        options: dict[str, Any],
        seats: list[str],
        *,
        session_id: str | None = None,
        end_open: bool = True,
    ) -> Session:
        """A new session; the sessions still open are ended first (one table, one game)."""
        now = time.time()
        sid = session_id or new_session_id(now)
        with self._lock, self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            if end_open:
                self._conn.execute("UPDATE sessions SET ended = ? WHERE ended IS NULL", (now,))
            self._conn.execute(
                "INSERT INTO sessions (id, game, options, seats, created) VALUES (?, ?, ?, ?, ?)",
                (sid, game, json.dumps(options), json.dumps(seats), now),
            )
        return Session(sid, game, dict(options), list(seats), now)

    def end_session(self, session_id: str) -> None:
        with self._lock, self._conn:
            self._conn.execute(
                "UPDATE sessions SET ended = ? WHERE id = ? AND ended IS NULL",
                (time.time(), session_id),
            )

    def session(self, session_id: str) -> Session | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT id, game, options, seats, created, ended FROM sessions WHERE id = ?",
                (session_id,),
            ).fetchone()
        return _session(row) if row else None

    def open_session(self) -> Session | None:
        """The newest session not ended, the one a restart resumes."""
        with self._lock:
            row = self._conn.execute(
                "SELECT id, game, options, seats, created, ended FROM sessions "
                "WHERE ended IS NULL ORDER BY created DESC, rowid DESC LIMIT 1"
            ).fetchone()
        return _session(row) if row else None

    def sessions(self, limit: int = 50) -> list[Session]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, game, options, seats, created, ended FROM sessions "
                "ORDER BY created DESC, rowid DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [_session(r) for r in rows]

    # events ---------------------------------------------------------------------------

    def append(
        self,
        session_id: str,
        kind: str,
        payload: dict[str, Any],
        visibility: str = PUBLIC,
        snapshot_jpeg: bytes | None = None,
        ts: float | None = None,
    ) -> Event:
        """Commit one event (and its picture) and return it with its sequence number.

        Returns only after the commit, so a caller that broadcasts afterwards never shows
        an event that a crash could take back.
        """
        if visibility != PUBLIC and not visibility.startswith("seat:"):
            raise ValueError(f"visibility must be 'public' or 'seat:N', not {visibility!r}")
        body = json.dumps(payload, separators=(",", ":"))
        ts = time.time() if ts is None else ts
        with self._lock, self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            seq = 1 + self._conn.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = ?", (session_id,)
            ).fetchone()[0]
            rel = None
            if snapshot_jpeg is not None:
                rel = f"snapshots/{session_id}/{seq}.jpg"
                path = self.data_dir / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(snapshot_jpeg)
            self._conn.execute(
                "INSERT INTO events (session_id, seq, ts, kind, payload, visibility, snapshot) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (session_id, seq, ts, kind, body, visibility, rel),
            )
        return Event(session_id, seq, ts, kind, json.loads(body), visibility, rel)

    def events(self, session_id: str, after_seq: int = 0, limit: int | None = None) -> list[Event]:
        """Events of a session in order, after `after_seq`."""
        sql = (
            "SELECT session_id, seq, ts, kind, payload, visibility, snapshot FROM events "
            "WHERE session_id = ? AND seq > ? ORDER BY seq"
        )
        args: tuple[Any, ...] = (session_id, after_seq)
        if limit is not None:
            sql += " LIMIT ?"
            args += (limit,)
        with self._lock:
            rows = self._conn.execute(sql, args).fetchall()
        return [_event(r) for r in rows]

    def event(self, session_id: str, seq: int) -> Event | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT session_id, seq, ts, kind, payload, visibility, snapshot FROM events "
                "WHERE session_id = ? AND seq = ?",
                (session_id, seq),
            ).fetchone()
        return _event(row) if row else None

    def snapshot_file(self, event: Event) -> Path | None:
        return self.data_dir / event.snapshot if event.snapshot else None

    # tokens ---------------------------------------------------------------------------

    def admin_token(self) -> tuple[str, bool]:
        """The admin token, created on first use; returns (token, created_now)."""
        with self._lock, self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            row = self._conn.execute("SELECT token FROM tokens WHERE role = 'admin'").fetchone()
            if row:
                return str(row[0]), False
            token = secrets.token_urlsafe(18)
            self._conn.execute(
                "INSERT INTO tokens (token, role, created) VALUES (?, 'admin', ?)",
                (token, time.time()),
            )
        return token, True

    def seat_tokens(self, session_id: str, seats: int) -> dict[int, str]:
        """One token per seat of a session, created on first use and kept after."""
        out: dict[int, str] = {}
        with self._lock, self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            for seat in range(seats):
                row = self._conn.execute(
                    "SELECT token FROM tokens WHERE role = 'seat' AND session_id = ? AND seat = ?",
                    (session_id, seat),
                ).fetchone()
                if row:
                    out[seat] = str(row[0])
                    continue
                token = secrets.token_urlsafe(12)
                self._conn.execute(
                    "INSERT INTO tokens (token, role, session_id, seat, created) "
                    "VALUES (?, 'seat', ?, ?, ?)",
                    (token, session_id, seat, time.time()),
                )
                out[seat] = token
        return out

    def token(self, token: str) -> Token | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT token, role, session_id, seat FROM tokens WHERE token = ?", (token,)
            ).fetchone()
        return Token(*row) if row else None


def _session(row: tuple[Any, ...]) -> Session:
    return Session(row[0], row[1], json.loads(row[2]), json.loads(row[3]), row[4], row[5])


def _event(row: tuple[Any, ...]) -> Event:
    return Event(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], row[6])
