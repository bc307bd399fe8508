"""The `sim` camera's Queen Alice film, a stand-in until the vision side's renderer lands.

It plays a scripted game (`script.py`: legal by construction, turned into taps and the
camera's readings with hands over the moving squares) on the platform's demo table: the
table and its corner markers as the real camera would see them, a schematic chessboard in
the middle with red and white discs, a hand-coloured blob over every square the reading
leaves unsure. Each frame's truth carries the reading in the reader's shape
(`{"squares", "unsure", "crowns_left", "alice"}`): with no chessboard reader in the tree,
the live game takes that as what the camera read (`live.perceive`), so the dashboard's demo
plays whole turns; once `vision/read.py` exists, the picture is read instead. The players'
taps ride along as the scene's `taps`, played by the live loop as phones would.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.config import TableSettings
from companion.games.queen_alice.rules import ENGINE
from companion.games.queen_alice.table.observation import BoardSeen
from companion.games.queen_alice.table.script import scripted_game
from companion.live.conformance import Correct, Observe
from companion.sim.demo_table import CANVAS_PX_PER_MM, overhead_camera, table_canvas

FRAME_S = 0.25
"""Film seconds per scripted camera reading (the films play 4 readings a second)."""
TURNS = 40
BOARD_SHARE = 0.6
"""Share of the table's shorter side the chessboard spans (the markers stay clear)."""
COLOURS_BGR = {"red": (40, 40, 200), "white": (235, 235, 235)}
HAND_BGR = (120, 160, 215)


@dataclass(frozen=True)
class Tap:
    t: float
    seat: int | None
    payload: dict[str, Any]


class ChessboardFilm:
    """`frame(t)` → (BGR image, truth); the same seed gives the same film."""

    def __init__(self, seed: int, players: int, table: TableSettings | None = None,
                 size: tuple[int, int] = (1280, 960), turns: int = TURNS) -> None:
        self.table = table or TableSettings()
        self.camera = overhead_camera(self.table, *size)
        canvas, origin = table_canvas(self.table, np.random.default_rng(seed),
                                      kind="wood" if seed % 2 else "cloth")
        self.background = self.camera.render_plane(canvas, CANVAS_PX_PER_MM, origin)
        self.readings: list[BoardSeen] = []
        taps: list[Tap] = []
        for step in scripted_game(players, seed, turns):
            t = len(self.readings) * FRAME_S
            if isinstance(step, Observe):
                self.readings.append(step.observation.data)  # type: ignore[arg-type]
            elif isinstance(step, Correct):
                payload = step.payload.model_dump(mode="json")  # type: ignore[union-attr]
                taps.append(Tap(t, step.seat, payload))
        self.taps = tuple(taps)
        self._cells = self._cell_polygons()

    def _cell_polygons(self) -> dict[tuple[int, int], np.ndarray]:
        board = ENGINE.board
        w, h = self.table.width_mm, self.table.height_mm
        side = BOARD_SHARE * min(w / board.cols, h / board.rows)
        x0, y0 = (w - side * board.cols) / 2, (h - side * board.rows) / 2
        out = {}
        for r in range(board.rows):
            for c in range(board.cols):
                x, y = x0 + c * side, y0 + (board.rows - 1 - r) * side
                corners = np.array([[x, y], [x + side, y], [x + side, y + side],
                                    [x, y + side]], float)
                out[(r, c)] = self.camera.project(corners).astype(np.int32)
        return out

    def frame(self, t: float) -> tuple[np.ndarray, dict[str, Any]]:
        index = min(int(t / FRAME_S), len(self.readings) - 1)
        reading = self.readings[index]
        img = self.background.copy()
        for (r, c), poly in self._cells.items():
            shade = 150 if (r + c) % 2 else 95
            cv2.fillConvexPoly(img, poly, (shade, shade + 10, shade), cv2.LINE_AA)
        for square in reading.squares:
            poly = self._cells[square.cell]
            centre = poly.mean(axis=0).astype(int)
            radius = int(0.32 * np.linalg.norm(poly[2] - poly[0]) / 1.414)
            cv2.circle(img, (int(centre[0]), int(centre[1])), radius,
                       COLOURS_BGR[square.colour], -1, cv2.LINE_AA)
            cv2.circle(img, (int(centre[0]), int(centre[1])), radius, (30, 30, 30), 1,
                       cv2.LINE_AA)
        for cell in reading.unsure:
            cv2.fillConvexPoly(img, self._cells[cell], HAND_BGR, cv2.LINE_AA)
        truth = {"t": t, "reading": reading.model_dump(mode="json")}
        return img, truth
