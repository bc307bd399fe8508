"""JSON inputs, bounded: every way a file or a text can be wrong is one `UserError`.

Used by the command line and by pure modules that read a game's state from JSON, so it
imports nothing but the standard library and `companion.errors`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.errors import UserError

MAX_JSON_BYTES = 8 * 2**20
MAX_JSON_DEPTH = 64
"""No game's state or film nests deeper than a dozen levels; a deeper file is an attack or
a mistake, and would otherwise end in a RecursionError deep inside a game."""


def json_depth(value: Any) -> int:
    """How deeply lists and objects nest (0 for a number), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, depth = stack.pop()
        children = (
            node.values() if isinstance(node, dict) else node if isinstance(node, list) else None
        )
        if children is None:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children)
    return deepest


def parse_json(text: str, where: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """JSON text, bounded: too deep or an integer too long is one UserError."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"{where} is not valid JSON: {exc.msg} (line {exc.lineno})") from None
    except RecursionError:
        raise UserError(f"{where} nests deeper than {max_depth} levels") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise UserError(f"{where} holds a value out of range: {exc}") from None
    if json_depth(value) > max_depth:
        raise UserError(f"{where} nests deeper than {max_depth} levels")
    return value


def read_json_file(path: str | Path, max_bytes: int = MAX_JSON_BYTES) -> Any:
    """A JSON file given on the command line; every way it can be wrong is one UserError."""
    p = Path(path)
    try:
        size = p.stat().st_size
    except OSError:
        size = 0
    if size > max_bytes:
        raise UserError(f"{p} is {size} bytes; JSON inputs over {max_bytes} bytes are refused")
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"no such file: {p}") from None
    except IsADirectoryError:
        raise UserError(f"{p} is a directory, not a file") from None
    except UnicodeDecodeError:
        raise UserError(f"{p} is not a text file") from None
    except OSError as exc:
        raise UserError(f"cannot read {p}: {exc.strerror}") from None
    return parse_json(text, str(p))
