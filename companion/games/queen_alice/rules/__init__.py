"""Queen Alice's pure rules engine (no OpenCV, no FastAPI): `ENGINE` plays the whole game.

`board.py`, `movement.py`, `jail.py` are the chessboard; `components.py` the rest of the
box as data; `engine.py` the turn; `boards.py` the four actions; `track.py` Alice's Paths,
Crowns and Cats; `final_scoring.py` the end (also behind `companion score queen-alice`).
"""

from companion.games.queen_alice.rules.engine import QueenAliceEngine

ENGINE = QueenAliceEngine()

__all__ = ["ENGINE", "QueenAliceEngine"]
