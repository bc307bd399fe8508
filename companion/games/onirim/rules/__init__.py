"""The pure rules engine of solo Onirim with the Mirrors (no OpenCV, no FastAPI)."""

from companion.games.onirim.rules.engine import OnirimEngine

ENGINE = OnirimEngine()

__all__ = ["ENGINE", "OnirimEngine"]
