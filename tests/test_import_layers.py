"""The layers hold (`lint-imports`, contracts in pyproject.toml), and a deliberate upward
import breaks them: the check is a check, not a formality."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LINT = str(Path(sys.executable).with_name("lint-imports"))


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [LINT, "--no-cache"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
    )


def test_the_layers_hold():
    proc = _lint(REPO)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "0 broken" in proc.stdout


def test_an_engine_that_imports_the_web_breaks_them(tmp_path):
    shutil.copytree(
        REPO / "companion",
        tmp_path / "companion",
        ignore=shutil.ignore_patterns("__pycache__", "static"),
    )
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    rules = tmp_path / "companion" / "games" / "reflecto" / "rules" / "__init__.py"
    rules.write_text(
        rules.read_text(encoding="utf-8") + "\nimport companion.web.app\n", encoding="utf-8"
    )
    proc = _lint(tmp_path)
    assert proc.returncode != 0
    assert "companion.games.reflecto.rules is not allowed to import companion.web" in (
        proc.stdout.replace("\n", " ").replace("  ", " ")
    )


def test_mirror_mansion_rules_that_import_its_vision_break_them(tmp_path):
    shutil.copytree(
        REPO / "companion",
        tmp_path / "companion",
        ignore=shutil.ignore_patterns("__pycache__", "static"),
    )
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    solver = tmp_path / "companion" / "games" / "mirror_mansion" / "rules" / "solver.py"
    solver.write_text(
        solver.read_text(encoding="utf-8")
        + "\nimport companion.games.mirror_mansion.vision.scene\n",
        encoding="utf-8",
    )
    proc = _lint(tmp_path)
    assert proc.returncode != 0
    assert "companion.games.mirror_mansion.rules is not allowed to import" in (
        proc.stdout.replace("\n", " ").replace("  ", " ")
    )


def test_a_game_that_imports_another_game_breaks_them(tmp_path):
    shutil.copytree(
        REPO / "companion",
        tmp_path / "companion",
        ignore=shutil.ignore_patterns("__pycache__", "static"),
    )
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    render = tmp_path / "companion" / "games" / "reflecto" / "vision" / "render.py"
    render.write_text(
        render.read_text(encoding="utf-8")
        + "\nimport companion.games.mirror_mansion.vision.render\n",
        encoding="utf-8",
    )
    proc = _lint(tmp_path)
    assert proc.returncode != 0
    assert "companion.games.reflecto is not allowed to import companion.games.mirror_mansion" in (
        proc.stdout.replace("\n", " ").replace("  ", " ")
    )
