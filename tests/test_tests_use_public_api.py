"""Tests import only public names of `companion` (issue 35): a test that reaches for `_x` pins an
implementation detail, so a refactor that keeps behaviour breaks it. What a test needs is either
a real, reusable piece (then it is public, with a docstring saying why it exists) or is checked
through the public API."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(source: str) -> list[str]:
    """`line: what` for each private name or module of `companion` the source imports."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] != "companion":
                continue
            if any(_private(part) for part in node.module.split(".")):
                found.append(f"{node.lineno}: from {node.module}")
            found += [
                f"{node.lineno}: {node.module}.{a.name}" for a in node.names if _private(a.name)
            ]
        elif isinstance(node, ast.Import):
            found += [
                f"{node.lineno}: import {a.name}"
                for a in node.names
                if a.name.split(".")[0] == "companion"
                and any(_private(part) for part in a.name.split("."))
            ]
    return found


def test_the_scan_finds_each_kind_of_private_import():
    source = (
        "from companion.games.x.read import Reader, _helper\n"
        "from companion.vision._impl import thing\n"
        "import companion._secret\n"
        "from companion.store import __version__, Store\n"
        "from numpy import _private_but_not_ours\n"
    )
    assert private_imports(source) == [
        "1: companion.games.x.read._helper",
        "2: from companion.vision._impl",
        "3: import companion._secret",
    ]


def test_no_test_imports_a_private_name_from_companion():
    offenders = [
        f"{path.relative_to(TESTS.parent)}:{hit}"
        for path in sorted(TESTS.rglob("*.py"))
        for hit in private_imports(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
