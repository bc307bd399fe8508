"""Event pictures on disk: written whole or not at all, and kept within a budget.

A picture is written to a temporary name, fsynced and renamed, so a full disk or a kill
mid-write never leaves a 0-byte or half JPEG under an event's name. Pictures are the one
thing the service may throw away: when they pass their budget, the oldest go first. Events
are never pruned (the store is the game's truth; pictures only illustrate it).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger(__name__)

FOLDER = "snapshots"


def write_atomic(path: Path, data: bytes) -> None:
    """`path` holds all of `data` afterwards, or is untouched (OSError raised)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    with contextlib.suppress(OSError):  # the rename itself is durable once the folder is
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def is_out_of_space(exc: BaseException) -> bool:
    """No room for the file: a full disk, a quota, or a size limit (EFBIG)."""
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


@dataclass
class SnapshotFolder:
    """`<data_dir>/snapshots`, its size known, pruned oldest-first past `budget_bytes`, or
    sooner when the disk's free space would drop under `reserve_bytes` (kept for events)."""

    root: Path
    budget_bytes: int
    reserve_bytes: int = 0
    _used: int | None = field(default=None, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def _files_oldest_first(self) -> list[tuple[float, Path, int]]:
        found = []
        if self.root.is_dir():
            for path in self.root.rglob("*.jpg"):
                with contextlib.suppress(OSError):
                    st = path.stat()
                    found.append((st.st_mtime, path, st.st_size))
        found.sort()
        return found

    def used_bytes(self) -> int:
        with self._lock:
            if self._used is None:
                self._used = sum(size for _, _, size in self._files_oldest_first())
            return self._used

    def write(self, rel: str, data: bytes, data_dir: Path) -> bool:
        """Write one picture, pruning first if it would pass the budget; False if the disk
        had no room even so (the caller records its event without the picture)."""
        self.make_room(len(data))
        try:
            write_atomic(data_dir / rel, data)
        except OSError as exc:
            if not is_out_of_space(exc):
                raise
            log.warning("no room for the picture %s: %s", rel, exc.strerror)
            return False
        with self._lock:
            if self._used is not None:
                self._used += len(data)
        return True

    def budget_now(self) -> int:
        """The budget, less whatever the disk lacks to keep its reserve free."""
        try:
            st = os.statvfs(self.root if self.root.is_dir() else self.root.parent)
        except OSError:
            return self.budget_bytes
        free = st.f_bavail * st.f_frsize
        return max(0, min(self.budget_bytes, self.used_bytes() + free - self.reserve_bytes))

    def make_room(self, incoming: int) -> int:
        """Delete the oldest pictures until `incoming` more bytes fit the budget; returns
        how many were deleted."""
        budget = self.budget_now()
        if self.used_bytes() + incoming <= budget:
            return 0
        removed = 0
        with self._lock:
            files = self._files_oldest_first()
            used = sum(size for _, _, size in files)
            for _, path, size in files:
                if used + incoming <= budget:
                    break
                with contextlib.suppress(OSError):
                    path.unlink()
                    used -= size
                    removed += 1
            self._used = used
        if removed:
            log.info(
                "pruned %d oldest event pictures to stay within %d KB", removed, budget // 1024
            )
        return removed
