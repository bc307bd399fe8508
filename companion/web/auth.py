"""Who is asking: the local user, the admin, a seat, or an anonymous spectator.

Bound to loopback (127.0.0.0/8, ::1, localhost) the service trusts its callers: whoever can
reach it already runs code on this machine. Bound beyond loopback, anything that changes
state needs a token: the admin token (created at first start, printed as a link and saved
to `<data_dir>/admin-link.txt`, mode 0600) or a seat token (per session, handed out as seat
links). A seat token authorises that seat's private view and that seat's actions only.
Reading public things (health, the camera view, the public state) needs no token, so a
phone can watch the table as a spectator.

A token comes as `Authorization: Bearer <t>`, as `?token=<t>` (links, EventSource, <img>) or
in the `companion_token` cookie that opening a link sets. These FastAPI dependencies are
what game routers reuse: `caller`, `require_admin`, `seat_of_request`, `require_actor`.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from fastapi import Depends, HTTPException, Request

from companion.config import Settings
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


class Auth:
    """Token checks for one app; `open` when bound to loopback."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.open = is_loopback_host(settings.web.host)

    def admin_token(self) -> str:
        return self.store.admin_token()[0]

    def identify(self, token: str | None, session_id: str, seats: int, seat_param: str | None
                 ) -> Caller:
        """The caller for a token (None: no token) in the active session."""
        if token:
            found = self.store.token(token)
            if found is None:
                raise HTTPException(401, "unknown token: open a current admin or seat link")
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
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return request.query_params.get("token") or request.cookies.get(COOKIE) or None


def caller(request: Request) -> Caller:
    """The dependency every route uses to learn who is asking (401 for a bad token)."""
    auth: Auth = request.app.state.auth
    runtime = request.app.state.runtime
    session = runtime.session
    return auth.identify(
        request_token(request), session.id, len(session.seats), request.query_params.get("seat")
    )


CallerDep = Annotated[Caller, Depends(caller)]


def require_admin(who: CallerDep) -> Caller:
    """For actions that change the table for everyone (new session, seat links)."""
    if who.may_administer:
        return who
    if who.role == "seat":
        raise HTTPException(403, "a seat link cannot do this; use the admin link")
    raise HTTPException(401, "this action needs a token: open the admin link")


def require_actor(who: CallerDep) -> Caller:
    """For actions a seat may take for itself (answers, corrections): not spectators."""
    if who.role == "spectator":
        raise HTTPException(401, "this action needs a token: open your seat link or the admin link")
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


def write_admin_link(settings: Settings, store: Store, port: int | None = None) -> str:
    """The admin link (token created on first start), saved owner-readable only."""
    token = store.admin_token()[0]
    link = f"{public_base_url(settings, port)}/?token={token}"
    path = Path(settings.data_dir) / ADMIN_LINK_FILE
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(link + "\n")
    os.chmod(path, 0o600)  # an older file may have been created with wider permissions
    return link
