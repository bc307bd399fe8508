"""Mirror Mansion's pure rules engine: board, optics, actions, state, solver (no OpenCV, no
FastAPI, nothing of the camera; see companion/games/base.py)."""

from companion.games.mirror_mansion.rules.engine import ENGINE, MirrorMansionEngine

__all__ = ["ENGINE", "MirrorMansionEngine"]
