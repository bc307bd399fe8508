"""systemd's watchdog, with a fake notify socket: pings while the loop runs (camera or
not), none once the perception thread hangs; and the unit asks for it."""

from __future__ import annotations

import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from companion.live.loop import Runtime
from companion.live.watchdog import Notifier
from tests.live.example_game import ExampleTableGame
from tests.reliability.helpers import small_settings
from tests.reliability.live_blank import BlankSource

REPO = Path(__file__).resolve().parents[2]


class HangingGame(ExampleTableGame):
    """Its perceiver blocks once `hang` is set, as a driver that never returns would."""

    def __init__(self, session: Any) -> None:
        super().__init__(session)
        self.hang = threading.Event()
        self.release = threading.Event()

    def perceive(self, frame: Any, registration: Any) -> Any:
        if self.hang.is_set():
            self.release.wait(10)
        return super().perceive(frame, registration)


def messages(sock: socket.socket, seconds: float) -> list[str]:
    out, deadline = [], time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            out.append(sock.recv(256).decode())
        except TimeoutError:
            break
    return out


def test_the_live_loop_feeds_the_watchdog_until_it_hangs(tmp_path, monkeypatch):
    folder = tempfile.mkdtemp(prefix="wd", dir="/tmp")  # short: socket paths are limited
    try:
        path = f"{folder}/notify"
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(path)
        monkeypatch.setenv("NOTIFY_SOCKET", path)
        monkeypatch.setenv("WATCHDOG_USEC", "200000")  # 0.2 s: a ping every 0.1 s
        games: list[HangingGame] = []

        def make(settings: Any, session: Any) -> HangingGame:
            games.append(HangingGame(session))
            return games[-1]

        rt = Runtime(
            small_settings(tmp_path), source_factory=BlankSource, table_game_factory=make
        ).start()
        try:
            first = messages(sock, 0.8)
            assert first[0] == "READY=1"
            assert 4 <= first.count("WATCHDOG=1") <= 9
            games[-1].hang.set()
            messages(sock, 0.3)  # the ping of the frame already under way may still come
            assert messages(sock, 1.0) == []  # hung: systemd would restart the service
            games[-1].release.set()
            assert "WATCHDOG=1" in messages(sock, 0.5)
        finally:
            games[-1].release.set()
            rt.stop()
        assert "STOPPING=1" in messages(sock, 0.3)
        sock.close()
    finally:
        shutil.rmtree(folder)


def test_without_systemd_nothing_is_sent():
    notifier = Notifier.from_environ({})
    assert not notifier.enabled and not notifier.alive() and not notifier.ready()
    other = Notifier.from_environ(
        {"NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"}
    )
    assert other.period_s is None  # the watchdog is another process's


def test_the_unit_runs_the_service_under_the_watchdog():
    unit = (REPO / "deploy" / "companion.service").read_text()
    lines = {
        line.split("=", 1)[0]: line.split("=", 1)[1]
        for line in unit.splitlines()
        if "=" in line and not line.startswith("#")
    }
    assert lines["Type"] == "notify" and lines["NotifyAccess"] == "main"
    assert int(lines["WatchdogSec"]) > 0 and lines["Restart"] == "on-failure"
