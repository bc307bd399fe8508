"""Every example in the guides is a file a test runs: the files are shown verbatim, and
each `$ companion ...` transcript prints what the guide says it prints."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
EXAMPLES = DOCS / "examples"


def _blocks(text: str) -> list[str]:
    return re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.S)


def _transcripts() -> list[tuple[str, str, str]]:
    """(guide, command line, expected output) for each `$ companion` line in a block."""
    found = []
    for guide in sorted(DOCS.glob("*.md")):
        for block in _blocks(guide.read_text(encoding="utf-8")):
            parts = re.split(r"^\$ ", block, flags=re.M)
            for part in parts[1:]:
                command, _, output = part.partition("\n")
                if command.startswith("companion "):
                    found.append((guide.name, command, output))
    return found


def test_every_example_file_is_shown_in_a_guide():
    guides = "\n".join(p.read_text(encoding="utf-8") for p in DOCS.glob("*.md"))
    files = sorted(EXAMPLES.glob("*.json"))
    assert files
    for path in files:
        assert path.read_text(encoding="utf-8") in guides, f"{path.name} is not shown verbatim"


def test_the_guides_have_transcripts():
    assert len(_transcripts()) >= 3


def _id(value: object) -> str:
    return value if isinstance(value, str) and value.startswith("companion") else ""


@pytest.mark.parametrize(("guide", "command", "expected"), _transcripts(), ids=_id)
def test_a_transcript_prints_what_its_guide_says(guide, command, expected):
    argv = [str(EXAMPLES / a) if (EXAMPLES / a).is_file() else a for a in shlex.split(command)[1:]]
    proc = subprocess.run(
        [sys.executable, "-m", "companion", *argv],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert proc.returncode == 0, f"{guide}: {command}: {proc.stderr}"
    if "--json" in argv:
        assert json.loads(proc.stdout) == json.loads(expected), f"{guide}: {command}"
    else:
        assert proc.stdout.strip() == expected.strip(), f"{guide}: {command}"
