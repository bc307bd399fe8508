"""The installed files as install.sh renders them: the systemd unit passes
`systemd-analyze verify`, the avahi file is the right DNS-SD service, and the launcher
adds --config only when the config file exists.

`systemd-analyze verify` insists that ExecStart's program exists. The unit is rendered by
`install.sh --render-to DIR --prefix TMP/opt/companion`, so its ExecStart names
TMP/opt/companion/bin/companion-serve, and the test puts the rendered launcher there: the
unit checked is byte for byte the one an install writes, with only the prefix moved.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.paths import repo_dir

DEPLOY = repo_dir() / "deploy"
PORT = "8123"


@pytest.fixture
def rendered(tmp_path: Path) -> tuple[Path, Path]:
    """(folder with the rendered files, prefix holding the launcher and a venv/bin)."""
    out, prefix = tmp_path / "rendered", tmp_path / "opt" / "companion"
    result = subprocess.run(
        [
            "bash",
            str(DEPLOY / "install.sh"),
            "--render-to",
            str(out),
            "--prefix",
            str(prefix),
            "--port",
            PORT,
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    (prefix / "bin").mkdir(parents=True)
    shutil.copy2(out / "companion-serve", prefix / "bin" / "companion-serve")
    return out, prefix


def systemd_analyze() -> str:
    path = shutil.which("systemd-analyze") or "/usr/bin/systemd-analyze"
    assert Path(path).exists(), "systemd-analyze is missing (apt-get install systemd)"
    return path


def verify(unit: Path) -> list[str]:
    """Problems systemd-analyze reports about this unit (an empty list when clean)."""
    result = subprocess.run(
        [systemd_analyze(), "verify", "--man=no", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    problems = [
        line
        for line in (result.stdout + result.stderr).splitlines()
        if unit.name in line or str(unit) in line
    ]
    if result.returncode != 0:
        problems.append(f"exit {result.returncode}: {result.stderr.strip()}")
    return problems


def test_unit_passes_systemd_analyze_verify(rendered: tuple[Path, Path]) -> None:
    out, prefix = rendered
    unit = out / "companion.service"
    assert verify(unit) == []
    text = unit.read_text()
    assert f"ExecStart={prefix}/bin/companion-serve --port {PORT}" in text
    for line in (
        "Restart=on-failure",
        "StateDirectory=companion",
        "ConfigurationDirectory=companion",
        "User=companion",
        "SupplementaryGroups=video",
        "WantedBy=multi-user.target",
    ):
        assert line in text.splitlines(), line


@pytest.mark.parametrize(
    "damage",
    ["Restart=whenever", "Frobnicate=yes", "ExecStart=/no/such/program"],
)
def test_verify_catches_a_broken_unit(rendered: tuple[Path, Path], damage: str) -> None:
    """A control: the check above would fail on a typo, an unknown key or a missing program."""
    out, _ = rendered
    unit = out / "companion.service"
    key = damage.split("=")[0]
    lines = [line for line in unit.read_text().splitlines() if not line.startswith(f"{key}=")]
    at = lines.index("[Service]") + 1
    unit.write_text("\n".join([*lines[:at], damage, *lines[at:]]) + "\n")
    assert verify(unit) != []


def test_avahi_file_advertises_http_on_the_port(rendered: tuple[Path, Path]) -> None:
    out, _ = rendered
    root = ET.parse(out / "companion-avahi.service").getroot()
    assert root.tag == "service-group"
    assert root.findtext("name")
    services = root.findall("service")
    assert len(services) == 1
    assert services[0].findtext("type") == "_http._tcp"
    assert services[0].findtext("port") == PORT
    # the repository copy is the template: the port is filled in only when rendered
    template = ET.parse(DEPLOY / "companion-avahi.service").getroot()
    assert template.findtext("service/port") == "@PORT@"


def run_launcher(prefix: Path, tmp_path: Path) -> list[str]:
    """Run the installed launcher with /bin/echo standing in as `companion`: it shows the
    command line the service would run."""
    venv_bin = prefix / "venv" / "bin"
    venv_bin.mkdir(parents=True, exist_ok=True)
    companion = venv_bin / "companion"
    if not companion.exists():
        companion.symlink_to("/bin/echo")
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "STATE_DIRECTORY": str(tmp_path / "state"),
        "CONFIGURATION_DIRECTORY": str(tmp_path / "conf"),
    }
    result = subprocess.run(
        [str(prefix / "bin" / "companion-serve"), "--port", PORT],
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_launcher_passes_config_only_when_present(
    rendered: tuple[Path, Path], tmp_path: Path
) -> None:
    _, prefix = rendered
    argv = run_launcher(prefix, tmp_path)
    state = str(tmp_path / "state")
    assert argv == ["serve", "--host", "0.0.0.0", "--data-dir", state, "--port", PORT]
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "config.toml").write_text('[camera]\nsource = "picamera2"\n')
    argv = run_launcher(prefix, tmp_path)
    assert argv[argv.index("--config") + 1] == str(tmp_path / "conf" / "config.toml")
    assert argv[:1] == ["serve"] and argv[-2:] == ["--port", PORT]


def test_launcher_starts_the_real_service_with_the_units_arguments(
    rendered: tuple[Path, Path], tmp_path: Path
) -> None:
    """The unit's command line, end to end: the launcher runs `companion serve` from this
    checkout (as the editable install would) with --host 0.0.0.0, the state directory
    systemd would make and the config file; the first start writes the admin link there,
    which is what install.sh tells the user to read."""
    _, prefix = rendered
    venv_bin = prefix / "venv" / "bin"
    venv_bin.mkdir(parents=True)
    companion = venv_bin / "companion"
    companion.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m companion "$@"\n')
    companion.chmod(0o755)
    conf, state = tmp_path / "conf", tmp_path / "state"
    conf.mkdir()
    (conf / "config.toml").write_text('[camera]\nsource = "sim"\n')
    env = dict(os.environ, STATE_DIRECTORY=str(state), CONFIGURATION_DIRECTORY=str(conf))
    proc = subprocess.Popen(
        [str(prefix / "bin" / "companion-serve"), "--port", "0"],
        cwd=repo_dir(),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    link = state / "admin-link.txt"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None and not link.exists():
            time.sleep(0.2)
        assert proc.poll() is None, proc.communicate()[0]
        assert link.exists(), "no admin link after 60 s"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    text = link.read_text()
    assert "token=" in text
