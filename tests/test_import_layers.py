"""The layers hold (`lint-imports`, contracts in pyproject.toml), and a deliberate upward
import breaks them: the check is a check, not a formality."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import GAMES

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


def _game_name(game_id: str) -> re.Pattern[str]:
    """A game's id as a word, however it is written: `looking-glass`, `looking_glass`,
    `Looking Glass`."""
    return re.compile(r"\b" + r"[-_ ]".join(map(re.escape, game_id.split("-"))) + r"\b", re.I)


def _naming(source: str) -> list[str]:
    return [g for g in GAMES if _game_name(g).search(source)]


def test_shared_code_names_no_game_even_in_words():
    """The import contract sees imports only; a game's id in a string or a docstring (a
    default, a special case, an example) ties shared code to one game just the same. The
    registry (`games/__init__.py`) is the one shared module that lists the games."""
    root = REPO / "companion"
    games = {root / "games" / info.package for info in GAMES.values()}
    offenders = {}
    for path in sorted(root.rglob("*.py")):
        if path == root / "games" / "__init__.py" or any(g in path.parents for g in games):
            continue
        named = _naming(path.read_text(encoding="utf-8"))
        if named:
            offenders[path.relative_to(root).as_posix()] = named
    assert offenders == {}


@pytest.mark.parametrize(
    "text",
    ['game: str = "looking-glass"', "a Looking Glass game", "games.queen_alice.rules", "ONIRIM"],
)
def test_a_game_named_in_any_spelling_is_seen(text: str) -> None:
    assert _naming(text)


def test_words_that_only_resemble_a_game_are_not_a_game():
    assert not _naming("reflections in a mirror; a mansion; the looking side of the glass")
