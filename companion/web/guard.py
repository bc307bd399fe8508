"""What every request passes before a route: the right `Host`, a same-origin change, and
the headers that keep a browser from leaking or framing the dashboard.

DNS rebinding: a page on `evil.example` can make its own name resolve to this machine and
then read the dashboard as if it were its own origin. The browser still sends
`Host: evil.example`, so only names we can vouch for are accepted: IP literals (typed by a
person), single-label names and `*.local` / `*.localhost` (which public DNS cannot serve),
this machine's own names and those in `web.allowed_hosts`. Anything else is 421.

Cross-site requests: a page elsewhere can make a browser POST here without a body (no CORS
preflight), carrying the dashboard's cookie. A change (POST, PUT, PATCH, DELETE) is refused
(403) when the browser says it comes from another site: an `Origin` that is not this server
or `Sec-Fetch-Site: cross-site`/`same-site`. Clients that are not browsers send neither and
still need their token; bodiless POSTs get no exemption.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; "
        "frame-ancestors 'none'; form-action 'self'"
    ),
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
}
DOCS = ("/docs", "/redoc")
"""The API page starts Swagger UI with an inline script: it gets every header but the CSP
(its script and style are the server's own, from swagger-ui-bundle)."""


def host_name(value: str) -> str:
    """The name in a `Host` header or an origin's netloc, without port, lower-case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    if value.count(":") == 1:
        value = value.split(":", 1)[0]
    return value.rstrip(".")


def own_names() -> set[str]:
    """This machine's names, as a browser on the LAN may address it."""
    names = {"localhost", "companion.local"}
    try:
        hostname = socket.gethostname().lower()
        fqdn = socket.getfqdn().lower()
    except OSError:
        return names
    names |= {hostname, f"{hostname}.local", fqdn}
    return names


class HostPolicy:
    def __init__(self, extra: Iterable[str] = ()) -> None:
        self.names = own_names() | {host_name(n) for n in extra}

    def allows(self, name: str) -> bool:
        if not name:
            return False
        try:
            ipaddress.ip_address(name)
            return True
        except ValueError:
            pass
        return (
            name in self.names
            or "." not in name
            or name.endswith(".local")
            or name.endswith(".localhost")
        )


def _refuse(status: int, detail: str) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=status, headers=SECURITY_HEADERS)


class GuardMiddleware:
    """Host check, same-origin check for changes, and the security headers (pure ASGI, so
    streaming responses pass through untouched)."""

    def __init__(self, app: ASGIApp, policy: HostPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        refusal = self.check(scope["method"], headers)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        path = scope.get("path", "")
        extra = {
            k: v
            for k, v in SECURITY_HEADERS.items()
            if not (k == "content-security-policy" and path.startswith(DOCS))
        }

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                raw = list(message.get("headers", []))
                present = {k.lower() for k, _ in raw}
                raw += [
                    (k.encode(), v.encode()) for k, v in extra.items() if k.encode() not in present
                ]
                message = {**message, "headers": raw}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def check(self, method: str, headers: Headers) -> JSONResponse | None:
        host = host_name(headers.get("host", ""))
        if not self.policy.allows(host):
            return _refuse(
                421,
                f"this server does not answer to the name {host!r}; open it by "
                "its address or add the name to web.allowed_hosts",
            )
        if method not in UNSAFE:
            return None
        site = headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            return _refuse(403, "a change must come from the dashboard itself, not another site")
        origin = headers.get("origin")
        if origin is not None:
            parts = urlsplit(origin)
            if origin == "null" or parts.netloc.lower() != headers.get("host", "").lower():
                return _refuse(
                    403,
                    "a change must come from the dashboard itself "
                    f"(origin {origin!r} is not this server)",
                )
        return None
