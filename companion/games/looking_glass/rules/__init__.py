"""The Looking Glass's pure rules engine: no OpenCV, numpy or FastAPI (see games/base.py).

The hint and its solver count with numpy, so they (and the computer players and the
simulator built on them) live at the game's top level, beside `rules/`.
"""

from companion.games.looking_glass.rules.engine import (
    ENGINE,
    RULE_COVERED,
    LookingGlassEngine,
    LookingGlassState,
)

__all__ = ["ENGINE", "RULE_COVERED", "LookingGlassEngine", "LookingGlassState"]
