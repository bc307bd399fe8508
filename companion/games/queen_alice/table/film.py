"""The `sim` camera's Queen Alice film: a scripted game drawn fast enough to play live.

It plays a scripted game (`script.py`: legal by construction, turned into taps and the
camera's readings with hands over the moving squares) on the platform's demo table: the
table and its corner markers as the real camera would see them, and on it the Central board
as `models/queen-alice/board.toml` describes it (corner markers 30-33, a plain ground, the
chessboard) with red and white discs, and an arm reaching in over every square the script
hides. The live game reads these pictures with the real reader (`vision/read.py`), as it
reads a camera's; each frame's truth (the script's reading) is for tests and benchmarks only.
The players' taps ride along as the scene's `taps`, played by the live loop as phones would.

The pictures are photographs, not diagrams: uneven light, a little defocus, sensor noise that
changes from frame to frame and JPEG, as the platform's demo table has. What is drawn is the
table as it stands: the script's one-frame misreads (a model of a reader's mistakes, for the
benchmark without pictures) are not painted in, since a painted phantom is a real piece to
the camera; the reader makes its own mistakes here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import cv2
import numpy as np

from companion.config import TableSettings
from companion.games.queen_alice.rules.actions import action_to_json
from companion.games.queen_alice.table.messages import Answer
from companion.games.queen_alice.table.observation import BoardSeen
from companion.games.queen_alice.table.script import (
    FRAME_S,
    Checkpoint,
    ExpectPlay,
    Habits,
    Tally,
    scripted_game,
)
from companion.games.queen_alice.vision.geometry import load_geometry
from companion.live.conformance import Correct, Observe
from companion.sim import effects
from companion.sim.demo_table import CANVAS_PX_PER_MM, overhead_camera, table_canvas
from companion.sim.taps import Tap
from companion.store import Event, Session
from companion.vision.markers import marker_image

TURNS = 40
BOARD_SHARE = 0.6
"""Share of the table's shorter side the chessboard spans (the markers stay clear)."""
COLOURS_BGR = {"red": (40, 40, 200), "white": (235, 235, 235)}
HAND_BGR = (120, 160, 215)
FILM_HABITS = Habits(flicker_rate=0.0)
"""The script's habits with no painted misreads (see above)."""
NOISE_SIGMA = 2.5
BLUR_SIGMA = (0.5, 1.0)
"""Defocus, in pixels of a 1280-pixel-wide picture."""
JPEG_QUALITY = (75, 90)
BOARD_BGR = (150, 175, 190)
SQUARE_BGR = ((70, 105, 80), (120, 150, 125))


class ChessboardFilm:
    """`frame(t)` → (BGR image, truth); the same seed gives the same film."""

    def __init__(
        self,
        seed: int,
        players: int,
        table: TableSettings | None = None,
        size: tuple[int, int] = (1280, 960),
        turns: int = TURNS,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.table = table or TableSettings()
        self.camera = overhead_camera(self.table, *size)
        rng = np.random.default_rng(seed)
        canvas, origin = table_canvas(self.table, rng, kind="wood" if seed % 2 else "cloth")
        self.background = self.camera.render_plane(canvas, CANVAS_PX_PER_MM, origin)
        grey = np.full_like(self.background, 200)
        self._gain = effects.uneven_light(grey, rng, strength=0.25).astype(np.float32) / 200.0
        # Defocus spreads a fixed share of the view: fewer pixels at a lower resolution.
        self._blur = float(rng.uniform(*BLUR_SIGMA)) * size[0] / 1280
        self._jpeg = int(rng.integers(*JPEG_QUALITY, endpoint=True))
        noise = [rng.normal(0, NOISE_SIGMA, self.background.shape) for _ in range(3)]
        self._noise = [
            (np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8))
            for n in noise
        ]
        self.readings: list[BoardSeen] = []
        self.plays: list[dict[str, Any]] = []
        """The moves and rescues the script made, in order (the answer key)."""
        self.turns = 0
        taps: list[Tap] = []
        for step in scripted_game(players, seed, turns, FILM_HABITS, options):
            t = len(self.readings) * FRAME_S
            if isinstance(step, Observe):
                self.readings.append(step.observation.data)  # type: ignore[arg-type]
            elif isinstance(step, Correct):
                payload = step.payload.model_dump(mode="json")  # type: ignore[union-attr]
                taps.append(Tap(t, step.seat, payload))
            elif isinstance(step, ExpectPlay):
                self.plays.append(action_to_json(step.action))
            elif isinstance(step, Checkpoint):
                self.turns = step.turns
        self.taps = tuple(taps)
        self.geom = load_geometry()
        gx, gy = self.geom.board_mm
        self._offset = np.array([(self.table.width_mm - gx) / 2, (self.table.height_mm - gy) / 2])
        self._cells = self._cell_polygons()
        self._draw_board()
        self.background = np.clip(self.background * self._gain, 0, 255).astype(np.uint8)

    def _project(self, board_mm: np.ndarray) -> np.ndarray:
        """Points on the Central board (its marker-centre frame, mm) to image pixels."""
        return self.camera.project(np.asarray(board_mm, float) + self._offset)

    def _cell_polygons(self) -> dict[tuple[int, int], np.ndarray]:
        half = self.geom.square_mm / 2
        out = {}
        for cell in self.geom.cells:
            x, y = self.geom.cell_mm(cell)
            corners = np.array(
                [
                    [x - half, y - half],
                    [x + half, y - half],
                    [x + half, y + half],
                    [x - half, y + half],
                ]
            )
            out[cell] = self._project(corners).astype(np.int32)
        return out

    def _draw_board(self) -> None:
        """The Central board as the reader knows it from `models/`: its corner markers
        30-33, a plain ground and the chessboard, drawn once into the background."""
        g, img = self.geom, self.background
        side = g.marker_side_mm
        gx, gy = g.board_mm
        ground = np.array(
            [[-side, -side], [gx + side, -side], [gx + side, gy + side], [-side, gy + side]]
        )
        cv2.fillConvexPoly(img, self._project(ground).astype(np.int32), BOARD_BGR, cv2.LINE_AA)
        for (r, c), poly in self._cells.items():
            cv2.fillConvexPoly(img, poly, SQUARE_BGR[(r + c) % 2], cv2.LINE_AA)
        px = 120
        for marker in g.markers:
            mx, my = marker.center_mm
            h = side / 2
            quad = self._project(
                np.array([[mx - h, my - h], [mx + h, my - h], [mx + h, my + h], [mx - h, my + h]])
            )
            src = np.array([[0, 0], [px, 0], [px, px], [0, px]], np.float32)
            H = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
            pic = cv2.cvtColor(marker_image(marker.id, px), cv2.COLOR_GRAY2BGR)
            warped = cv2.warpPerspective(pic, H, (img.shape[1], img.shape[0]))
            mask = cv2.warpPerspective(
                np.full((px, px), 255, np.uint8), H, (img.shape[1], img.shape[0])
            )
            img[mask > 127] = warped[mask > 127]

    def _lit(self, bgr: tuple[int, int, int], x: float, y: float) -> tuple[float, ...]:
        """A colour under the table's light at board point (x, y) mm."""
        px, py = self._project(np.array([[x, y]]))[0].astype(int)
        h, w = self._gain.shape[:2]
        gain = self._gain[min(max(py, 0), h - 1), min(max(px, 0), w - 1)]
        return tuple(float(v) for v in np.clip(np.array(bgr) * gain, 0, 255))

    def frame(self, t: float) -> tuple[np.ndarray, dict[str, Any]]:
        index = min(int(t / FRAME_S), len(self.readings) - 1)
        reading = self.readings[index]
        img = self.background.copy()
        for square in reading.squares:
            x, y = self.geom.cell_mm(square.cell)
            ring = 0.32 * self.geom.square_mm
            a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
            disc = self._project(np.stack([x + ring * np.cos(a), y + ring * np.sin(a)], 1))
            cv2.fillConvexPoly(
                img, disc.astype(np.int32), self._lit(COLOURS_BGR[square.colour], x, y), cv2.LINE_AA
            )
        arm_mm = 0.8 * self.geom.square_mm
        for cell in reading.unsure:  # an arm reaching in over the board's top edge
            x, y = self.geom.cell_mm(cell)
            ends = self._project(
                np.array([[x, -3 * self.geom.marker_side_mm], [x, y], [x + arm_mm, y]])
            )
            width = max(3, int(np.linalg.norm(ends[2] - ends[1])))
            cv2.line(
                img,
                tuple(int(v) for v in ends[0]),
                tuple(int(v) for v in ends[1]),
                self._lit(HAND_BGR, x, y),
                width,
                cv2.LINE_AA,
            )
            cv2.fillConvexPoly(img, self._cells[cell], self._lit(HAND_BGR, x, y), cv2.LINE_AA)
        img = cv2.GaussianBlur(img, (0, 0), self._blur)
        pos, neg = self._noise[round(t * 1000) % len(self._noise)]
        img = effects.jpeg(cv2.subtract(cv2.add(img, pos), neg), self._jpeg)
        truth = {"t": t, "reading": reading.model_dump(mode="json")}
        return img, truth


def run_film(film: ChessboardFilm, session: Session, fps: float = 10.0) -> tuple[Any, Tally]:
    """Play the film through a table game as the live loop does with the `sim` camera at
    `fps`: each frame read by the real reader, the taps played as phones would, a "which
    play?" question answered with the script's play; count what went right and wrong
    (`Tally`: a move is right when the n-th play recorded is the script's n-th)."""
    from companion.games.queen_alice.table.live import BREACH_KIND, make_table_game
    from companion.live.film_run import FilmRun
    from companion.live.table_game import QUESTION_KIND

    game = make_table_game(None, session)
    tally, recorded = Tally(moves=len(film.plays)), []

    def seen(event: Event) -> None:
        payload = event.payload
        if event.kind == BREACH_KIND:
            tally.breaches += 1
        elif event.kind == QUESTION_KIND and str(payload["id"]).startswith("square-"):
            tally.square_questions += 1
        elif event.kind == QUESTION_KIND:
            tally.play_questions += 1
        elif event.kind == "qa.action" and payload["action"]["type"] in ("move", "rescue"):
            recorded.append(payload["action"])
        if event.kind == QUESTION_KIND and "plays" in payload:
            wanted = film.plays[len(recorded)] if len(recorded) < len(film.plays) else None
            if wanted in payload["plays"]:
                answer = Answer(question=payload["id"], answer=payload["plays"].index(wanted))
                run.commit(game.correct(answer, game.state.seat))

    # read-only fields: the loop hands the taps over as Any
    taps: list[Any] = list(film.taps)
    run = FilmRun(game, session, taps, game.correct, on_event=seen)
    end = (len(film.readings) + 20) * FRAME_S
    while run.frames / fps <= end:
        run.step(film, fps)
    tally.turns = game.state.turns
    tally.moves_right = sum(a == b for a, b in zip(recorded, film.plays, strict=False))
    tally.checkpoints, tally.checkpoints_right = 1, int(game.state.turns == film.turns)
    tally.refused = [f"dropped tap {n}" for n in range(run.players.dropped)] + (
        [f"{len(recorded)} plays recorded, {len(film.plays)} made"]
        if len(recorded) != len(film.plays)
        else []
    )
    return game, tally
