"""Who is asking: the local user, the admin, a seat, or an anonymous spectator.

Bound to loopback (127.0.0.0/8, ::1, localhost) the service trusts its callers: whoever can
reach it already runs code on this machine. Bound beyond loopback, anything that changes
state needs a token: the admin token (created at first start, printed as a link and saved
to `<data_dir>/admin-link.txt`, mode 0600) or a seat token (per session, handed out as seat
links). A seat token authorises that seat's private view and that seat's actions only.
Reading public things (health, the camera view, the public state) needs no token, so a
phone can watch the table as a spectator.

A token comes as `Authorization: Bearer <t>` or in the `companion_token` cookie (HttpOnly,
SameSite=Lax) that opening a link (`/?token=<t>`) sets; the API takes no token in its URLs,
which end up in access logs, browser history and Referer headers. These FastAPI
dependencies are what game routers reuse: `caller`, `require_admin`, `seat_of_request`,
`require_actor`.

Guessing: a client that sends `web.failed_tokens` wrong tokens is answered 429 with a
`Retry-After` that doubles with each further miss. Flooding: each seat (and the admin) may
make `web.actions_per_s` changes a second, in bursts of four times that (429 beyond).
"""

from __future__ import annotations

import ipaddress
import socket
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from fastapi import Depends, HTTPException, Request

from companion.config import Settings
from companion.snapshots import write_atomic
from companion.store import Store

COOKIE = "companion_token"
ADMIN_LINK_FILE = "admin-link.txt"

Role = Literal["local", "admin", "seat", "spectator"]


def is_loopback_host(host: str) -> bool:
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Caller:
    role: Role
    seat: int | None = None
    token: str | None = None

    @property
    def may_administer(self) -> bool:
        return self.role in ("local", "admin")


MAX_CLIENTS = 4096
"""Clients remembered by the limiters; the least recent are forgotten beyond it."""


class Backoff:
    """Wrong tokens per client: after `allowed` misses, each further one doubles the wait."""

    def __init__(self, allowed: int, first_wait_s: float = 1.0, max_wait_s: float = 300.0) -> None:
        self.allowed = allowed
        self.first_wait_s = first_wait_s
        self.max_wait_s = max_wait_s
        self._misses: dict[str, tuple[int, float]] = {}
        self._lock = threading.Lock()

    def wait_s(self, client: str) -> float:
        """Seconds this client must still wait (0: it may try)."""
        with self._lock:
            _, until = self._misses.get(client, (0, 0.0))
        return max(0.0, until - time.monotonic())

    def miss(self, client: str) -> None:
        with self._lock:
            count, _ = self._misses.pop(client, (0, 0.0))
            count += 1
            over = count - self.allowed
            wait = min(self.max_wait_s, self.first_wait_s * 2**over) if over >= 0 else 0.0
            self._misses[client] = (count, time.monotonic() + wait)
            while len(self._misses) > MAX_CLIENTS:
                self._misses.pop(next(iter(self._misses)))

    def hit(self, client: str) -> None:
        with self._lock:
            self._misses.pop(client, None)


class RateLimit:
    """A token bucket per key: `rate` a second, bursts of `burst`."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, key: str) -> float:
        """0 if allowed now (and counted), else the seconds until it would be."""
        now = time.monotonic()
        with self._lock:
            level, then = self._buckets.pop(key, (self.burst, now))
            level = min(self.burst, level + (now - then) * self.rate)
            wait = 0.0
            if level >= 1:
                level -= 1
            else:
                wait = (1 - level) / self.rate
            self._buckets[key] = (level, now)
            while len(self._buckets) > MAX_CLIENTS:
                self._buckets.pop(next(iter(self._buckets)))
        return wait


def too_many(wait_s: float, detail: str) -> HTTPException:
    return HTTPException(429, detail, headers={"Retry-After": str(max(1, round(wait_s)))})


class Auth:
    """Token checks for one app; `open` when bound to loopback."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.open = is_loopback_host(settings.web.host)
        self.guesses = Backoff(settings.web.failed_tokens)
        self.actions = RateLimit(settings.web.actions_per_s, 4 * settings.web.actions_per_s)

    def admin_token(self) -> str:
        return self.store.admin_token()[0]

    def identify(
        self,
        token: str | None,
        session_id: str,
        seats: int,
        seat_param: str | None,
        client: str = "",
    ) -> Caller:
        """The caller for a token (None: no token) in the active session."""
        if token:
            wait = self.guesses.wait_s(client)
            if wait > 0:
                raise too_many(
                    wait,
                    "too many wrong tokens from here: wait, then open a current admin or seat link",
                )
            found = self.store.token(token)
            if found is None:
                self.guesses.miss(client)
                raise HTTPException(401, "unknown token: open a current admin or seat link")
            self.guesses.hit(client)
            if found.role == "admin":
                return Caller("admin", None, token)
            if found.session_id != session_id:
                raise HTTPException(401, "this seat link is for an earlier game; ask for a new one")
            return Caller("seat", found.seat, token)
        if self.open:
            return Caller("local", _seat_param(seat_param, seats))
        return Caller("spectator")


def _seat_param(value: str | None, seats: int) -> int | None:
    """`?seat=N` picks a seat's view when bound to loopback (one machine, one person)."""
    if value is None or value == "":
        return None
    try:
        seat = int(value)
    except ValueError:
        raise HTTPException(400, f"seat must be a number, not {value!r}") from None
    if not 0 <= seat < seats:
        raise HTTPException(400, f"seat must be between 0 and {seats - 1}")
    return seat


def request_token(request: Request) -> str | None:
    """The header's token, else the cookie's (never one in the URL)."""
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return request.cookies.get(COOKIE) or None


def client_of(request: Request) -> str:
    return request.client.host if request.client is not None else ""


def caller(request: Request) -> Caller:
    """The dependency every route uses to learn who is asking (401 for a bad token)."""
    auth: Auth = request.app.state.auth
    runtime = request.app.state.runtime
    session = runtime.session
    return auth.identify(
        request_token(request),
        session.id,
        len(session.seats),
        request.query_params.get("seat"),
        client_of(request),
    )


CallerDep = Annotated[Caller, Depends(caller)]


def _limit(request: Request, who: Caller) -> None:
    """Per-seat (or admin, or local user) rate of changes; reads are never limited."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    auth: Auth = request.app.state.auth
    key = f"seat:{who.seat}" if who.role == "seat" else who.role
    wait = auth.actions.take(key)
    if wait > 0:
        raise too_many(wait, "too many changes at once: wait a moment and try again")


def require_admin(request: Request, who: CallerDep) -> Caller:
    """For actions that change the table for everyone (new session, seat links)."""
    if who.may_administer:
        _limit(request, who)
        return who
    if who.role == "seat":
        raise HTTPException(403, "a seat link cannot do this; use the admin link")
    raise HTTPException(401, "this action needs a token: open the admin link")


def require_actor(request: Request, who: CallerDep) -> Caller:
    """For actions a seat may take for itself (answers, corrections): not spectators."""
    if who.role == "spectator":
        raise HTTPException(401, "this action needs a token: open your seat link or the admin link")
    _limit(request, who)
    return who


def seat_of_request(who: CallerDep) -> int | None:
    """The seat whose private view this caller may see (None: public only)."""
    return who.seat


def lan_address() -> str:
    """The address other devices reach this machine on (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routing lookup only
            return str(probe.getsockname()[0])
        except OSError:
            return socket.gethostname()


def public_base_url(settings: Settings, port: int | None = None) -> str:
    host = settings.web.host
    if host in ("0.0.0.0", "::", ""):
        host = lan_address()
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port or settings.web.port}"


def show_admin_link(link: str, saved_to: Path) -> None:
    """The admin link goes to a terminal only: under systemd stdout is the journal, which
    other users of the machine may read; there the 0600 file is named instead."""
    if sys.stdout.isatty():
        print(f"companion: admin link (keep it private): {link}", flush=True)
    print(f"companion: admin link saved to {saved_to} (readable by this user only)", flush=True)


def write_admin_link(settings: Settings, store: Store, port: int | None = None) -> str:
    """The admin link (token created on first start), saved owner-readable only."""
    token = store.admin_token()[0]
    link = f"{public_base_url(settings, port)}/?token={token}"
    path = Path(settings.data_dir) / ADMIN_LINK_FILE
    # Written whole and renamed into place: whoever waits for the file (a launcher, an
    # installer's last step) never reads it empty, and a new file replaces an older one
    # that may have been created with wider permissions.
    write_atomic(path, (link + "\n").encode("utf-8"))
    return link
