"""The layers hold (`lint-imports`, contracts in pyproject.toml), and a deliberate upward
import breaks them: the check is a check, not a formality."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.mark.parametrize(
    ("module", "line", "says"),
    [
        (  # an engine that imports the web
            "games/reflecto/rules/__init__.py",
            "import companion.web.app",
            "companion.games.reflecto.rules is not allowed to import companion.web",
        ),
        (  # Mirror Mansion's rules that import its vision
            "games/mirror_mansion/rules/solver.py",
            "import companion.games.mirror_mansion.vision.scene",
            "companion.games.mirror_mansion.rules is not allowed to import",
        ),
        (  # an engine that counts with numpy (its hint and solver live beside rules/)
            "games/reflecto/rules/engine.py",
            "import numpy",
            "companion.games.reflecto.rules is not allowed to import numpy",
        ),
        (  # an engine that imports the command line
            "games/onirim/rules/engine.py",
            "import companion.cli",
            "companion.games.onirim.rules is not allowed to import companion.cli",
        ),
        (  # a game that imports another game
            "games/reflecto/vision/render.py",
            "import companion.games.mirror_mansion.vision.render",
            "companion.games.reflecto is not allowed to import companion.games.mirror_mansion",
        ),
        (  # shared code that names a game
            "paths.py",
            "import companion.games.queen_alice.rules",
            "companion.paths is not allowed to import companion.games.queen_alice",
        ),
    ],
)
def test_an_upward_import_breaks_them(tmp_path: Path, module: str, line: str, says: str) -> None:
    shutil.copytree(
        REPO / "companion",
        tmp_path / "companion",
        ignore=shutil.ignore_patterns("__pycache__", "static"),
    )
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    source = tmp_path / "companion" / module
    source.write_text(source.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")
    proc = _lint(tmp_path)
    assert proc.returncode != 0
    assert says in proc.stdout.replace("\n", " ").replace("  ", " ")
