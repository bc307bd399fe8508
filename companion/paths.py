"""Where the project's data files are, found the same way from a checkout, an install or a test."""

from __future__ import annotations

import os
from pathlib import Path

_REPO = Path(__file__).resolve().parent.parent


def repo_dir() -> Path:
    return _REPO


def models_dir() -> Path:
    """`$COMPANION_MODELS_DIR` if set (users' edited copies), else the repository's `models/`."""
    override = os.environ.get("COMPANION_MODELS_DIR")
    return Path(override) if override else _REPO / "models"
