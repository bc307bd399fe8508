"""`companion serve` mistakes are one line on stderr and exit 2, before anything starts."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from tests.e2e.e2e_helpers import REPO


def serve(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", "serve", *argv],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_port_in_use_is_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        res = serve("--port", str(port), "--data-dir", str(tmp_path))
    assert res.returncode == 2
    assert res.stderr == (f"companion: error: port {port} is in use; choose another with --port\n")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--camera", "replay:/no/such/folder"], "camera 'replay:/no/such/folder': replay: "),
        (["--game", "chess"], "unknown game 'chess'"),
        (["--fps", "-3"], "setting 'camera.fps'"),
    ],
)
def test_bad_settings_are_one_line(tmp_path, argv, message):
    res = serve("--port", "0", "--data-dir", str(tmp_path), *argv)
    assert res.returncode == 2, res.stderr
    assert res.stderr.startswith("companion: error: ") and message in res.stderr
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
