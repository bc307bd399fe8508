"""Schemathesis against the real `companion serve`: every operation, generated requests
(deterministic, so a run is reproducible), no 5xx and every response as documented.

Left out: the two endpoints that stream forever (`/api/events`, `/api/stream.mjpg`; their
bounds are tested in test_web.py), and schemathesis's `positive_data_acceptance`: a
correction's body is defined by the game at the table, which may refuse a schema-valid one
with a 400 that says why. The command it runs is printed, to reproduce a failure by hand.
"""

from __future__ import annotations

import subprocess
import sys

from tests.e2e.e2e_helpers import free_port, run_server, serve_argv

MAX_TIME_S = 15


def schemathesis_argv(base: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "run",
        f"{base}/openapi.json",
        "--generation-deterministic",
        "--max-examples",
        "3",
        "--no-shrink",
        "--phases",
        "examples,coverage,fuzzing",
        "--max-time",
        str(MAX_TIME_S),
        "--exclude-path",
        "/api/events",
        "--exclude-path",
        "/api/stream.mjpg",
        "--exclude-checks",
        "positive_data_acceptance",
        "--request-timeout",
        "5",
    ]


def test_schemathesis_finds_no_5xx_and_no_schema_violation(tmp_path):
    port = free_port()
    with run_server(serve_argv(tmp_path / "data", port, "--fps", "4"), port) as server:
        argv = schemathesis_argv(server.base)
        print(" ".join(argv))
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=MAX_TIME_S + 60, cwd=tmp_path
        )  # its cache folder goes there, not in the repo
        server.stop()
    report = done.stdout + done.stderr
    assert done.returncode == 0, report[-4000:]
    assert " passed" in report and "5xx" not in report.split("SUMMARY")[-1]
