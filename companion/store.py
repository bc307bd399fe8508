"""SQLite persistence: sessions, the append-only event log, access tokens and event snapshots.

The store is the truth. A game's current state is never saved; it is rebuilt by replaying
the session's events in order (`TableGame.apply_event`), so a kill -9 followed by a restart
resumes exactly where the last committed event left the table.

Durability choice: WAL with `synchronous=FULL`. A Pi on a games table loses power when
someone trips over the cable; in WAL mode `NORMAL` may drop the last few commits on power
loss, and an event the players already saw on their phones must not vanish. Events are a
few per minute, so the extra fsync per commit costs nothing that matters.

Audiences: every event is also numbered within each audience that may see it (`public`
for spectators and the admin, `seat:N` for seat N, who sees public events and its own).
Viewers only ever see their audience's numbers, which run 1, 2, 3 ... without gaps, so the
numbers a seat sees say nothing about how many private events another seat had, or when.
The same table pages a viewer's history in SQL, through its primary key.

Full disks and damaged files: a write that fails (`database or disk is full`, an I/O error)
raises `StorageError` and leaves nothing half-written; event pictures are written whole or
not at all (`companion.snapshots`) and never stop an event from being recorded. A file that
fails `quick_check` at start-up is moved aside (`damaged/`), a fresh one is started and
`notice` says so; `companion doctor --repair` recovers what the damaged one still holds.

Threads: one connection shared behind a lock (`check_same_thread=False`). Writes are tiny
and rare, reads are short; a lock is simpler than a connection per thread and makes
"compute seq, write snapshot, insert, commit" one atomic step.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from companion.errors import UserError
from companion.snapshots import FOLDER as SNAPSHOTS
from companion.snapshots import SnapshotFolder

log = logging.getLogger(__name__)
T = TypeVar("T")

DB_NAME = "companion.sqlite3"
DAMAGED_DIR = "damaged"
PUBLIC = "public"
SNAPSHOT_BUDGET_BYTES = 512 * 2**20
"""Default room for event pictures (about 5000 at 100 KB); `store.snapshot_budget_mb`."""
RESERVE_BYTES = 8 * 2**20
"""Free disk kept for events: pictures are pruned before they would eat into it."""

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
CREATE TABLE IF NOT EXISTS audience (
    session_id TEXT NOT NULL,
    audience   TEXT NOT NULL,        -- 'public' or 'seat:N'
    aseq       INTEGER NOT NULL,     -- 1, 2, 3 ... within (session, audience), no gaps
    seq        INTEGER NOT NULL,     -- the event's number in the session
    PRIMARY KEY (session_id, audience, aseq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS events_by_kind ON events (session_id, kind, visibility, seq);
CREATE INDEX IF NOT EXISTS audience_by_seq ON audience (session_id, audience, seq);
CREATE TABLE IF NOT EXISTS checkpoints (
    session_id TEXT NOT NULL,
    seq        INTEGER NOT NULL,     -- the state after this event
    version    TEXT NOT NULL,        -- whose code wrote it; another version replays instead
    state      BLOB NOT NULL,
    PRIMARY KEY (session_id, seq)
);
CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
"""


class StorageError(Exception):
    """A write the disk refused (full, read-only, failing). Nothing of it was committed."""


class DamagedStore(Exception):
    """The database file is damaged (SQLite: malformed, not a database)."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_session_id(now: float | None = None) -> str:
    """Sortable by start time, unique without coordination: `20261130-105200-a1b2c3`."""
    now = time.time() if now is None else now
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime(now)) + "-" + secrets.token_hex(3)


def seat_visibility(seat: int) -> str:
    return f"seat:{seat}"


def audience_of(seat: int | None) -> str:
    """Whose numbering a viewer sees: its seat's, or the public one (spectators, admin)."""
    return PUBLIC if seat is None else seat_visibility(seat)


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


@dataclass(frozen=True)
class Draft:
    """What `append_many` records: one event before it has its numbers."""

    kind: str
    payload: dict[str, Any]
    visibility: str = PUBLIC
    snapshot_jpeg: bytes | None = None


@dataclass
class Store:
    """One SQLite file plus a snapshot folder under the data dir."""

    data_dir: Path
    snapshot_budget_bytes: int = SNAPSHOT_BUDGET_BYTES
    notice: str | None = field(default=None, init=False)
    """Set when start-up found the file damaged and moved it aside (shown on the dashboard)."""
    _conn: sqlite3.Connection = field(init=False, repr=False)
    _lock: threading.Lock = field(init=False, repr=False, default_factory=threading.Lock)
    _tokens: list[tuple[str, Token]] | None = field(init=False, repr=False, default=None)

    def __post_init__(self) -> None:
        self.data_dir = Path(self.data_dir)
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(f"cannot create the data dir {self.data_dir}: {exc}") from None
        self.pictures = SnapshotFolder(
            self.data_dir / SNAPSHOTS, self.snapshot_budget_bytes, RESERVE_BYTES
        )
        self._conn = self._connect()
        try:
            self._check()
        except DamagedStore as exc:
            self.replace_damaged(str(exc))
            return
        self._migrate()

    def replace_damaged(self, reason: str) -> None:
        """Move a damaged file aside (kept for `companion doctor --repair`) and start a
        fresh one, so a damaged page costs the current game, not a crash loop."""
        with self._lock:
            self._conn.close()
            moved = move_aside(self.data_dir)
            self.notice = (
                f"the database was damaged ({reason}) and was moved aside to "
                f"{moved.relative_to(self.data_dir)}; a fresh one was started. "
                "`companion doctor --repair` recovers what it still holds."
            )
            log.error("store: %s", self.notice)
            self._tokens = None
            self._conn = self._connect()
        self._migrate()

    def _connect(self) -> sqlite3.Connection:
        try:
            # The file holds the access tokens: owner-only, and SQLite gives its -wal and
            # -shm files the same permissions.
            path = self.data_dir / DB_NAME
            os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
            os.chmod(path, 0o600)
            conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        except (sqlite3.Error, OSError) as exc:
            raise UserError(f"cannot open the store in {self.data_dir}: {exc}") from None
        self._conn = conn
        return conn

    def _check(self) -> None:
        """Raise DamagedStore unless the file is a sound database (SQLite's quick_check)."""
        try:
            self._conn.execute("PRAGMA journal_mode=WAL")
            rows = self._conn.execute("PRAGMA quick_check").fetchall()
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError) and not is_damage(exc):
                raise UserError(f"cannot open the store in {self.data_dir}: {exc}") from None
            raise DamagedStore(str(exc)) from None
        if [r[0] for r in rows] != ["ok"]:
            raise DamagedStore("; ".join(str(r[0]) for r in rows[:3]))

    def _migrate(self) -> None:
        try:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._conn.execute("PRAGMA busy_timeout=5000")
            self._conn.executescript(_SCHEMA)
            columns = {r[1] for r in self._conn.execute("PRAGMA table_info(tokens)")}
            if "hash" not in columns:  # a store from before hashed lookups
                self._conn.execute("ALTER TABLE tokens ADD COLUMN hash TEXT")
            for (tok,) in self._conn.execute(
                "SELECT token FROM tokens WHERE hash IS NULL"
            ).fetchall():
                self._conn.execute(
                    "UPDATE tokens SET hash = ? WHERE token = ?", (token_hash(tok), tok)
                )
            self._backfill_audiences()
        except sqlite3.Error as exc:
            raise UserError(f"cannot open the store in {self.data_dir}: {exc}") from None

    def _backfill_audiences(self) -> None:
        """Number the events of a store written before audiences existed."""
        missing = self._conn.execute(
            "SELECT DISTINCT e.session_id FROM events e WHERE NOT EXISTS ("
            "SELECT 1 FROM audience a WHERE a.session_id = e.session_id)"
        ).fetchall()
        for (sid,) in missing:
            seats = len(
                json.loads(
                    self._conn.execute(
                        "SELECT seats FROM sessions WHERE id = ?", (sid,)
                    ).fetchone()[0]
                )
            )
            counters: dict[str, int] = {}
            self._conn.execute("BEGIN IMMEDIATE")
            for seq, vis in self._conn.execute(
                "SELECT seq, visibility FROM events WHERE session_id = ? ORDER BY seq", (sid,)
            ).fetchall():
                self._number(sid, seq, vis, seats, counters)
            self._conn.execute("COMMIT")

    @property
    def path(self) -> Path:
        return self.data_dir / DB_NAME

    def journal_mode(self) -> str:
        with self._lock:
            return str(self._conn.execute("PRAGMA journal_mode").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def _write(self, work: Callable[[], T]) -> T:
        """Run `work()` in one IMMEDIATE transaction; a refusal of the disk is StorageError,
        damage is DamagedStore, and either way nothing of it stays."""
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    out = work()
                    self._conn.execute("COMMIT")
                except BaseException:
                    if self._conn.in_transaction:
                        self._conn.execute("ROLLBACK")
                    raise
            except sqlite3.DatabaseError as exc:
                if is_damage(exc):
                    raise DamagedStore(str(exc)) from exc
                raise StorageError(str(exc)) from exc
            except OSError as exc:
                raise StorageError(exc.strerror or str(exc)) from exc
            return out

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        with self._lock:
            try:
                return self._conn.execute(sql, args).fetchall()
            except sqlite3.DatabaseError as exc:
                if is_damage(exc):
                    raise DamagedStore(str(exc)) from exc
                raise StorageError(str(exc)) from exc

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

        def work() -> None:
            if end_open:
                self._conn.execute("UPDATE sessions SET ended = ? WHERE ended IS NULL", (now,))
            self._conn.execute(
                "INSERT INTO sessions (id, game, options, seats, created) VALUES (?, ?, ?, ?, ?)",
                (sid, game, json.dumps(options), json.dumps(seats), now),
            )

        self._write(work)
        return Session(sid, game, dict(options), list(seats), now)

    def import_session(
        self, row: Sequence[Any], seats: int, events: Sequence[Sequence[Any]]
    ) -> None:
        """Write a recovered session (ended) and its events as they were, numbered anew in
        their audiences (`companion doctor --repair`)."""

        def work() -> None:
            ended = row[5] if row[5] is not None else time.time()
            self._conn.execute(
                "INSERT INTO sessions (id, game, options, seats, created, ended) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (row[0], row[1], row[2], row[3], row[4], ended),
            )
            counters: dict[str, int] = {}
            for e in events:
                self._conn.execute(
                    "INSERT INTO events (session_id, seq, ts, kind, payload, visibility, "
                    "snapshot) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    tuple(e),
                )
                self._number(str(e[0]), int(e[1]), str(e[5]), seats, counters)

        self._write(work)

    def end_session(self, session_id: str) -> None:
        self._write(
            lambda: self._conn.execute(
                "UPDATE sessions SET ended = ? WHERE id = ? AND ended IS NULL",
                (time.time(), session_id),
            )
        )

    def session(self, session_id: str) -> Session | None:
        rows = self._read(
            "SELECT id, game, options, seats, created, ended FROM sessions WHERE id = ?",
            (session_id,),
        )
        return _session(rows[0]) if rows else None

    def open_session(self) -> Session | None:
        """The newest session not ended, the one a restart resumes."""
        rows = self._read(
            "SELECT id, game, options, seats, created, ended FROM sessions "
            "WHERE ended IS NULL ORDER BY created DESC, rowid DESC LIMIT 1"
        )
        return _session(rows[0]) if rows else None

    def sessions(self, limit: int = 50) -> list[Session]:
        rows = self._read(
            "SELECT id, game, options, seats, created, ended FROM sessions "
            "ORDER BY created DESC, rowid DESC LIMIT ?",
            (limit,),
        )
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
        """Commit one event (and its picture) and return it with its sequence number."""
        return self.append_many(
            session_id, [Draft(kind, payload, visibility, snapshot_jpeg)], ts=ts
        )[0]

    def append_many(
        self, session_id: str, drafts: Sequence[Draft], ts: float | None = None
    ) -> list[Event]:
        """Commit events in one transaction: all of them, or none (StorageError).

        Returns only after the commit, so a caller that applies and broadcasts afterwards
        never shows an event that a crash or a full disk could take back. A picture the disk
        has no room for is left out; the event is still recorded.
        """
        for d in drafts:
            if d.visibility != PUBLIC and not d.visibility.startswith("seat:"):
                raise ValueError(f"visibility must be 'public' or 'seat:N', not {d.visibility!r}")
        bodies = [json.dumps(d.payload, separators=(",", ":")) for d in drafts]
        ts = time.time() if ts is None else ts
        written: list[Path] = []

        def work() -> list[Event]:
            row = self._conn.execute(
                "SELECT seats FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()
            seats = len(json.loads(row[0])) if row else 0
            last = self._conn.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = ?", (session_id,)
            ).fetchone()[0]
            out = []
            for i, (d, body) in enumerate(zip(drafts, bodies, strict=True)):
                seq = last + 1 + i
                rel = None
                if d.snapshot_jpeg is not None:
                    rel = f"{SNAPSHOTS}/{session_id}/{seq}.jpg"
                    if self.pictures.write(rel, d.snapshot_jpeg, self.data_dir):
                        written.append(self.data_dir / rel)
                    else:
                        rel = None
                self._conn.execute(
                    "INSERT INTO events (session_id, seq, ts, kind, payload, visibility, "
                    "snapshot) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (session_id, seq, ts, d.kind, body, d.visibility, rel),
                )
                self._number(session_id, seq, d.visibility, seats, None)
                out.append(Event(session_id, seq, ts, d.kind, json.loads(body), d.visibility, rel))
            return out

        try:
            return self._write(work)
        except BaseException:
            for path in written:  # no picture outlives an event that was not recorded
                path.unlink(missing_ok=True)
            raise

    def _number(
        self,
        session_id: str,
        seq: int,
        visibility: str,
        seats: int,
        counters: dict[str, int] | None,
    ) -> None:
        """Give one event its number in every audience that sees it (in a transaction)."""
        audiences = (
            [PUBLIC, *(seat_visibility(i) for i in range(seats))]
            if visibility == PUBLIC
            else [visibility]
        )
        for aud in audiences:
            if counters is not None:
                aseq = counters[aud] = counters.get(aud, 0) + 1
            else:
                aseq = (
                    1
                    + self._conn.execute(
                        "SELECT COALESCE(MAX(aseq), 0) FROM audience "
                        "WHERE session_id = ? AND audience = ?",
                        (session_id, aud),
                    ).fetchone()[0]
                )
            self._conn.execute(
                "INSERT INTO audience (session_id, audience, aseq, seq) VALUES (?, ?, ?, ?)",
                (session_id, aud, aseq, seq),
            )

    def events(self, session_id: str, after_seq: int = 0, limit: int | None = None) -> list[Event]:
        """Events of a session in order, after `after_seq` (the session's own numbers)."""
        sql = (
            "SELECT session_id, seq, ts, kind, payload, visibility, snapshot FROM events "
            "WHERE session_id = ? AND seq > ? ORDER BY seq"
        )
        args: tuple[Any, ...] = (session_id, after_seq)
        if limit is not None:
            sql += " LIMIT ?"
            args += (limit,)
        return [_event(r) for r in self._read(sql, args)]

    def event(self, session_id: str, seq: int) -> Event | None:
        rows = self._read(
            "SELECT session_id, seq, ts, kind, payload, visibility, snapshot FROM events "
            "WHERE session_id = ? AND seq = ?",
            (session_id, seq),
        )
        return _event(rows[0]) if rows else None

    def repeats_position(self, session_id: str, kind: str, visibility: str) -> bool:
        """True when this audience's last `kind` event is newer than every event of another
        kind: nothing has moved since, so the same answer would be recorded again."""
        same = self._read(
            "SELECT MAX(seq) FROM events WHERE session_id = ? AND kind = ? AND visibility = ?",
            (session_id, kind, visibility),
        )[0][0]
        if same is None:
            return False
        other = self._read(
            "SELECT seq FROM events WHERE session_id = ? AND kind != ? ORDER BY seq DESC LIMIT 1",
            (session_id, kind),
        )
        return not other or other[0][0] < same

    def seen_by(
        self, session_id: str, audience: str, after: int = 0, limit: int | None = None
    ) -> list[Event]:
        """The events one audience sees, numbered in that audience (`Event.seq` is its
        number there, never the session's), after its number `after`."""
        sql = (
            "SELECT e.session_id, a.aseq, e.ts, e.kind, e.payload, e.visibility, e.snapshot "
            "FROM audience a JOIN events e ON e.session_id = a.session_id AND e.seq = a.seq "
            "WHERE a.session_id = ? AND a.audience = ? AND a.aseq > ? ORDER BY a.aseq"
        )
        args: tuple[Any, ...] = (session_id, audience, after)
        if limit is not None:
            sql += " LIMIT ?"
            args += (limit,)
        return [_event(r) for r in self._read(sql, args)]

    def as_seen_by(self, events: Sequence[Event], audience: str) -> list[Event]:
        """Those of `events` (session-numbered) the audience sees, with its numbers."""
        out = []
        for e in events:
            rows = self._read(
                "SELECT aseq FROM audience WHERE session_id = ? AND audience = ? AND seq = ?",
                (e.session_id, audience, e.seq),
            )
            if rows:
                out.append(
                    Event(
                        e.session_id,
                        int(rows[0][0]),
                        e.ts,
                        e.kind,
                        e.payload,
                        e.visibility,
                        e.snapshot,
                    )
                )
        return out

    def seen_one(self, session_id: str, audience: str, aseq: int) -> Event | None:
        """One event by its number in an audience (None: that audience has no such event)."""
        found = self.seen_by(session_id, audience, aseq - 1, 1)
        return found[0] if found and found[0].seq == aseq else None

    def last_seen(self, session_id: str, audience: str) -> int:
        """The audience's newest number (0: nothing yet)."""
        return int(
            self._read(
                "SELECT COALESCE(MAX(aseq), 0) FROM audience WHERE session_id = ? AND audience = ?",
                (session_id, audience),
            )[0][0]
        )

    def last_seq(self, session_id: str) -> int:
        return int(
            self._read(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = ?", (session_id,)
            )[0][0]
        )

    def snapshot_file(self, event: Event) -> Path | None:
        return self.data_dir / event.snapshot if event.snapshot else None

    # checkpoints ----------------------------------------------------------------------

    def save_checkpoint(self, session_id: str, seq: int, version: str, state: bytes) -> None:
        """Keep a game's state after event `seq`, and only the newest two per session."""

        def work() -> None:
            self._conn.execute(
                "INSERT OR REPLACE INTO checkpoints (session_id, seq, version, state) "
                "VALUES (?, ?, ?, ?)",
                (session_id, seq, version, state),
            )
            self._conn.execute(
                "DELETE FROM checkpoints WHERE session_id = ? AND seq NOT IN ("
                "SELECT seq FROM checkpoints WHERE session_id = ? ORDER BY seq DESC LIMIT 2)",
                (session_id, session_id),
            )

        self._write(work)

    def checkpoints(self, session_id: str, version: str) -> list[tuple[int, bytes]]:
        """This version's checkpoints of a session, newest first."""
        return [
            (int(r[0]), bytes(r[1]))
            for r in self._read(
                "SELECT seq, state FROM checkpoints WHERE session_id = ? AND version = ? "
                "ORDER BY seq DESC",
                (session_id, version),
            )
        ]

    # tokens ---------------------------------------------------------------------------

    def admin_token(self) -> tuple[str, bool]:
        """The admin token, created on first use; returns (token, created_now)."""

        def work() -> tuple[str, bool]:
            row = self._conn.execute("SELECT token FROM tokens WHERE role = 'admin'").fetchone()
            if row:
                return str(row[0]), False
            token = secrets.token_urlsafe(18)
            self._conn.execute(
                "INSERT INTO tokens (token, role, created, hash) VALUES (?, 'admin', ?, ?)",
                (token, time.time(), token_hash(token)),
            )
            return token, True

        out = self._write(work)
        if out[1]:
            self._tokens = None
        return out

    def seat_tokens(self, session_id: str, seats: int) -> dict[int, str]:
        """One token per seat of a session, created on first use and kept after."""

        def work() -> tuple[dict[int, str], bool]:
            out: dict[int, str] = {}
            created = False
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
                    "INSERT INTO tokens (token, role, session_id, seat, created, hash) "
                    "VALUES (?, 'seat', ?, ?, ?, ?)",
                    (token, session_id, seat, time.time(), token_hash(token)),
                )
                out[seat] = token
                created = True
            return out, created

        out, created = self._write(work)
        if created:
            self._tokens = None
        return out

    def token(self, token: str) -> Token | None:
        """The token's record, found by comparing hashes in constant time with every known
        one (no `WHERE token = ?`, whose timing could tell a guess's prefix apart)."""
        known = self._tokens
        if known is None:
            rows = self._read("SELECT hash, token, role, session_id, seat FROM tokens")
            known = self._tokens = [(str(r[0]), Token(*r[1:])) for r in rows]
        wanted = token_hash(token)
        found = None
        for digest, record in known:
            if hmac.compare_digest(digest, wanted):
                found = record
        return found


def is_damage(exc: sqlite3.DatabaseError) -> bool:
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text or "corrupt" in text


def move_aside(data_dir: Path) -> Path:
    """Move a damaged database (and its -wal, -shm) into `damaged/`, stamped with the time."""
    folder = data_dir / DAMAGED_DIR
    folder.mkdir(exist_ok=True)
    stem = time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + "-" + secrets.token_hex(2)
    target = folder / f"{stem}-{DB_NAME}"
    for suffix in ("", "-wal", "-shm"):
        src = data_dir / (DB_NAME + suffix)
        if src.exists():
            os.replace(src, folder / (target.name + suffix))
    return target


def _session(row: tuple[Any, ...]) -> Session:
    return Session(row[0], row[1], json.loads(row[2]), json.loads(row[3]), row[4], row[5])


def _event(row: tuple[Any, ...]) -> Event:
    return Event(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], row[6])
