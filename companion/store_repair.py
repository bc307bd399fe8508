"""`companion doctor --repair`: get back what a damaged database still holds.

Start-up moves a damaged file into `<data_dir>/damaged/` and plays on with a fresh one
(`Store.replace_damaged`). This recovers the old file's sessions and events into the current
store, as ended games in the history (a game is never resumed from a recovered file: events
lost to the damage would make its replay wrong). Tokens are not recovered: the old links
were for games that are over, and the admin link is the one in the data dir now.

Recovery uses SQLite's own `.recover` (the `sqlite3` command) when it is installed, which
reads every page it can; without it, rows are read in rowid order and a damaged stretch is
stepped over, which loses the rows of the damaged pages and keeps the rest.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.store import DAMAGED_DIR, DB_NAME, Store

DONE = ".recovered"
"""Suffix of the marker left beside a damaged file once its contents were recovered."""
MAX_SKIP = 1 << 24


@dataclass(frozen=True)
class Recovery:
    source: Path
    sessions: int
    events: int
    method: str

    def line(self) -> str:
        return (
            f"recovered {self.sessions} sessions and {self.events} events from "
            f"{self.source.name} ({self.method})"
        )


def rows(conn: sqlite3.Connection, table: str) -> Iterator[tuple[Any, ...]]:
    """Every readable row of `table` in rowid order, stepping over damaged stretches."""
    after = 0
    while True:
        cursor = conn.execute(
            f"SELECT rowid, * FROM {table} WHERE rowid > ? ORDER BY rowid", (after,)
        )
        try:
            for row in cursor:
                after = row[0]
                yield row[1:]
            return
        except sqlite3.DatabaseError:
            pass
        step = 1
        while step <= MAX_SKIP:  # find where reading works again
            try:
                conn.execute(
                    f"SELECT rowid FROM {table} WHERE rowid > ? ORDER BY rowid LIMIT 1",
                    (after + step,),
                ).fetchall()
                break
            except sqlite3.DatabaseError:
                step *= 2
        else:
            return
        after += step


def salvage(damaged: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """(sessions, events) rows read from a damaged file without any tool."""
    uri = f"file:{damaged}?mode=ro&immutable=1"
    conn = sqlite3.connect(uri, uri=True)
    try:
        sessions = _table(conn, "sessions", "id, game, options, seats, created, ended")
        events = _table(conn, "events", "session_id, seq, ts, kind, payload, visibility, snapshot")
    finally:
        conn.close()
    return sessions, events


def _table(conn: sqlite3.Connection, table: str, columns: str) -> list[tuple[Any, ...]]:
    try:
        names = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
    except sqlite3.DatabaseError:
        return []
    wanted = [c.strip() for c in columns.split(",")]
    if not set(wanted) <= set(names):
        return []
    index = [names.index(c) for c in wanted]
    out = []
    with contextlib.suppress(sqlite3.DatabaseError):
        for row in rows(conn, table):
            out.append(tuple(row[i] for i in index))
    return out


def sqlite_recover(damaged: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]] | None:
    """The same rows through SQLite's `.recover`, or None without the `sqlite3` command."""
    tool = shutil.which("sqlite3")
    if tool is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "recovered.sqlite3"
        try:
            dump = subprocess.run(
                [tool, str(damaged), ".recover"], capture_output=True, check=True, timeout=600
            ).stdout
            subprocess.run(
                [tool, str(copy)], input=dump, capture_output=True, check=True, timeout=600
            )
        except (subprocess.SubprocessError, OSError):
            return None
        return salvage(copy)


def recover_into(store: Store, damaged: Path) -> Recovery:
    """Import a damaged file's sessions and events into `store` as ended games."""
    found = sqlite_recover(damaged)
    method = "sqlite3 .recover"
    if found is None:
        found, method = salvage(damaged), "row by row"
    sessions, events = found
    known = {s.id for s in store.sessions(limit=1_000_000)}
    by_session: dict[str, list[tuple[Any, ...]]] = {}
    for e in events:
        by_session.setdefault(str(e[0]), []).append(e)
    n_sessions = n_events = 0
    for s in sessions:
        sid = str(s[0])
        if sid in known:
            continue
        try:
            json.loads(s[2])
            seats = json.loads(s[3])
        except (TypeError, ValueError):
            continue
        kept = sorted((e for e in by_session.get(sid, []) if _is_event(e)), key=lambda e: e[1])
        store.import_session(s, len(seats), kept)
        n_sessions += 1
        n_events += len(kept)
    (damaged.parent / (damaged.name + DONE)).write_text(
        f"{n_sessions} sessions, {n_events} events\n", encoding="utf-8"
    )
    return Recovery(damaged, n_sessions, n_events, method)


def _is_event(row: tuple[Any, ...]) -> bool:
    try:
        json.loads(row[4])
    except (TypeError, ValueError):
        return False
    return isinstance(row[1], int) and isinstance(row[3], str) and isinstance(row[5], str)


def damaged_files(data_dir: Path) -> list[Path]:
    """Damaged databases not yet recovered, oldest first."""
    folder = Path(data_dir) / DAMAGED_DIR
    if not folder.is_dir():
        return []
    return sorted(
        p for p in folder.glob(f"*-{DB_NAME}") if not (p.parent / (p.name + DONE)).exists()
    )


def repair(data_dir: Path) -> list[str]:
    """Recover every damaged file into the data dir's store; one line per file."""
    files = damaged_files(data_dir)
    if not files:
        return [
            f"nothing to repair: no damaged database is waiting in {Path(data_dir) / DAMAGED_DIR}"
        ]
    store = Store(data_dir)
    try:
        return [recover_into(store, f).line() for f in files]
    finally:
        store.close()
