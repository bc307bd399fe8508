"""Reflecto's pure rules engine: no OpenCV, no FastAPI (see companion/games/base.py)."""

from companion.games.reflecto.rules.engine import ENGINE, ReflectoEngine

__all__ = ["ENGINE", "ReflectoEngine"]
