"""The Looking Glass's pure rules engine: no OpenCV, no FastAPI (see companion/games/base.py)."""

from companion.games.looking_glass.rules.engine import (
    ENGINE,
    RULE_COVERED,
    LookingGlassEngine,
    LookingGlassState,
)

__all__ = ["ENGINE", "RULE_COVERED", "LookingGlassEngine", "LookingGlassState"]
