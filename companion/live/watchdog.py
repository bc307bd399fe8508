"""systemd's watchdog, fed by the live loop: a hung perception thread restarts the service.

With `Type=notify` and `WatchdogSec=` in the unit, systemd passes `NOTIFY_SOCKET` and
`WATCHDOG_USEC`. The service says `READY=1` once the camera and the loop run, and the
perception thread says `WATCHDOG=1` from inside its loop (at most twice per period): if it
hangs (a driver that never returns, a deadlock), the pings stop and systemd restarts the
service. A lost camera does not stop the pings: the loop goes on waiting for frames and
reconnecting, which is not a hang. Without `NOTIFY_SOCKET` (a terminal, tests) nothing is
sent. The protocol is one datagram per message, so no libsystemd is needed.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Mapping

log = logging.getLogger(__name__)


class Notifier:
    def __init__(self, address: str | None, watchdog_usec: int | None = None) -> None:
        self.address = address
        self.period_s = watchdog_usec / 1e6 if watchdog_usec else None
        self._next_ping = 0.0
        self._lock = threading.Lock()

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> Notifier:
        env = os.environ if environ is None else environ
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        mine = not pid or pid == str(os.getpid())
        return cls(env.get("NOTIFY_SOCKET") or None, int(usec) if usec.isdigit() and mine else None)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, message: str) -> bool:
        if self.address is None:
            return False
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.sendto(message.encode(), target)
            return True
        except OSError as exc:
            log.warning("watchdog: cannot notify systemd: %s", exc)
            return False

    def ready(self) -> bool:
        return self.send("READY=1")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def alive(self) -> bool:
        """A ping from the live loop, sent at most twice per watchdog period."""
        if self.address is None or self.period_s is None:
            return False
        now = time.monotonic()
        with self._lock:
            if now < self._next_ping:
                return False
            self._next_ping = now + self.period_s / 2
        return self.send("WATCHDOG=1")
