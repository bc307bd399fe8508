"""Where the project's data files are, found the same way from a checkout, an install or a test."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from companion.errors import UserError

_REPO = Path(__file__).resolve().parent.parent


def repo_dir() -> Path:
    return _REPO


def models_dir() -> Path:
    """`$COMPANION_MODELS_DIR` if set (users' edited copies), else the repository's `models/`."""
    override = os.environ.get("COMPANION_MODELS_DIR")
    return Path(override) if override else _REPO / "models"


def read_model_toml(path: Path) -> dict[str, Any]:
    """A model file's contents. Users edit these files, so a missing, unreadable or broken
    one is one `UserError` naming it, the same words for every game."""
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"missing model file {path}") from None
    except OSError as exc:
        raise UserError(f"cannot read model file {path}: {exc.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UserError(f"{path} is not valid TOML: {exc}") from None


def model_int(table: dict[str, Any], key: str, where: str, low: int) -> int:
    """A whole number of a model file's table, at least `low`; anything else (a float, a
    bool, text) is one `UserError` naming the file and the key."""
    value = table.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise UserError(f"{where}: [{key}] must be a whole number >= {low}")
    return value


def model_point(value: Any, where: str) -> tuple[float, float]:
    """A point of a model file, `[x, y]` in mm; anything else is one `UserError` naming
    where it stood."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        raise UserError(f"{where} must be [x, y] in mm, not {value!r}")
    return float(value[0]), float(value[1])
