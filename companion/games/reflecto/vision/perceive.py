"""The perceiver live play uses: frame + registration -> Observation.

Observation data (agreed with the live-play side, `table/track.py`):
`{"screens": [{"cell": [r, c], "owner": 0|1, "confidence": c}], "hands": bool,
"board_found": bool, "unclear": [[r, c], ...], "warnings": [...]}`; an unclear square is
one the reader would not call either way.

Screen colours are settings: learned once, from the first frame that shows the start
position (every screen on its seat's first row), and kept in the data dir
(`reflecto-screen-colours.json`). A start position on a board where the saved colours find
no screen at all (another set of screens, another sim table) learns them again. Until then
the colours are learned from each frame itself, which the warnings say.

Live play knows more than a frame: once both set-ups are in, the engine knows where every
screen stands and whose it is. A `ColourTeacher` (the live table) names that board while the
colours are to be learned from it, and the colours are learned from those squares
(`read.learn_where`, the one rule `learn_at_setup` applies to the start position), however
few of them the picture alone would have found: the reader needs the colours to find the
screens, not the screens to find the colours. The table asks again when the camera, on a
board the players confirmed, keeps failing to find screens that stand there (the light
changed): the colours are then learned anew from every square the engine holds, and kept
only if they find more of the board.

`hands` is True when a corner marker is hidden or something crosses the board's rim: arms
reach in from beyond the board, and the rim, between the grid and the board's edge, is out
of every screen's reach. The tracker counts no frame with hands.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol, cast

import cv2
import numpy as np

from companion.games.reflecto.vision.board_print import (
    BoardPrint,
    board_to_top,
    learn_from,
    plane_px_to_mm,
)
from companion.games.reflecto.vision.colours import ScreenColours
from companion.games.reflecto.vision.geometry import BoardGeometry, Cell, load_geometry
from companion.games.reflecto.vision.read import (
    PX_PER_MM,
    Rectified,
    empty_mask,
    learn_at_setup,
    learn_where,
    read_board,
    screen_reach,
)
from companion.games.reflecto.vision.reading import BoardReading
from companion.games.reflecto.vision.render import start_position
from companion.live.table_game import Observation
from companion.vision.board_pose import BoardPose, Calibration

log = logging.getLogger(__name__)

COLOURS_FILE = "reflecto-screen-colours.json"
RIM_ROWS_MM = (14.0, 20.0)
RIM_COLS_MM = (28.0, 34.0)
"""Bands beyond the grid's edges (above and below it, left and right of it) looked at for
arms: past the reach of any screen (a top pulled outward by the tilt, and a screen is long
along the rows) and between the corner markers."""
RIM_PX_PER_MM = 1.0
ODD = 60.0
ODD_HUE = 12.0
"""Darker than the rim's own median lightness by this, or this far from its (a, b): a rim
pixel that is something else (brighter alone is a lamp's glare, not an arm)."""
ARM_MM = 12.0
"""A run of odd rim pixels this long (and at least this wide a share across) is an arm."""
RIM_PRINT_FRAMES = 6
RIM_PRINT_SHARE = 0.8
"""A stretch of the rim odd in this share of the frames, after this many, is the board's
print (`RimMemory`)."""


def colours_path(settings: Any) -> Path | None:
    data_dir = getattr(settings, "data_dir", None)
    return None if data_dir is None else Path(data_dir) / COLOURS_FILE


def load_saved_colours(settings: Any) -> ScreenColours | None:
    path = colours_path(settings)
    if path is None or not path.exists():
        return None
    try:
        return ScreenColours.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        log.warning("ignoring unreadable %s", path)
        return None


def _save_colours(settings: Any, colours: ScreenColours) -> None:
    path = colours_path(settings)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(colours.to_json()) + "\n", encoding="utf-8")
    except OSError:
        log.warning("cannot save the screen colours to %s", path)


class RimMemory:
    """What the rim looked like so far, per band and millimetre along it: how many frames
    showed it odd. A board's rim may be printed (a frame, a hatch, stripes running off the
    squares): that print is odd against the band's median in every frame, while an arm
    crosses the rim now and then, moving. A stretch odd in at least `RIM_PRINT_SHARE` of
    the frames seen, once `RIM_PRINT_FRAMES` have been, is taken for the print and left
    out of an arm's run (the run goes on across it, neither counted nor broken); before
    that, every odd stretch counts (a false "hands" stalls the game, a missed one could
    book a change under a hand). Live play keeps one per table (`table/live.py`)."""

    def __init__(self) -> None:
        self.frames = 0
        self.odd: list[np.ndarray] = []
        self._last: tuple[np.ndarray, bool] | None = None
        """The last frame judged and its answer: the perceiver reads a frame again (with
        colours learned from it), and a frame counts once."""
        self.last_columns: list[np.ndarray] | None = None
        """The last frame's odd steps (`rim_columns`), to judge it again later."""
        self.last_unsure = False
        """Whether the last frame was called crossed before the print could be told (fewer
        than `RIM_PRINT_FRAMES` frames seen): a printed rim is odd in every such frame."""

    def crossed(self, image: np.ndarray, pose: BoardPose, geom: BoardGeometry) -> bool:
        """`arm_over_rim` for this frame, the print left out; the frame is then added."""
        if self._last is not None and self._last[0] is image:
            return self._last[1]
        columns = rim_columns(image, pose, geom)
        mask = self.print_mask()
        crossed = max(longest_runs(columns, mask)) >= ARM_MM
        self.add(columns)
        self._last = (image, crossed)
        self.last_columns, self.last_unsure = columns, crossed and mask is None
        return crossed

    def crossed_now(self, columns: list[np.ndarray]) -> bool | None:
        """An earlier frame's odd steps judged with the print as known now (None while it
        cannot be told yet)."""
        mask = self.print_mask()
        if mask is None or len(mask) != len(columns):
            return None
        return max(longest_runs(columns, mask)) >= ARM_MM

    def print_mask(self, share: float = RIM_PRINT_SHARE) -> list[np.ndarray] | None:
        """Per band, the stretches taken for the print (odd in `share` of the frames);
        None until enough frames."""
        if self.frames < RIM_PRINT_FRAMES or not self.odd:
            return None
        return [counts >= share * self.frames for counts in self.odd]

    def add(self, columns: list[np.ndarray]) -> None:
        if len(self.odd) != len(columns) or any(
            a.shape != b.shape for a, b in zip(self.odd, columns, strict=True)
        ):
            self.frames, self.odd = 0, [np.zeros(c.shape, np.int32) for c in columns]
        self.frames += 1
        for counts, column in zip(self.odd, columns, strict=True):
            counts += column


class SetupFrames:
    """Set-up frames called hands only because the rim's print could not be told yet
    (`RimMemory.last_unsure`), with the board the colours were to be learned from then.

    A board's printed rim is odd in every frame until `RIM_PRINT_FRAMES` have been seen, so
    a short rest at set-up is all "hands": the colours were then first learned after the
    first move, from the start position the engine still held while a screen had left it;
    the screen read where the start has none refused them in every frame after, and the
    game went on with colours guessed from each picture, a seat mostly unseen. Kept here,
    such a frame is judged again once the print is known, and the colours are learned from
    it as from any frame without hands (`perceive_frame`). At most `keep` frames, the
    latest."""

    def __init__(self, keep: int = RIM_PRINT_FRAMES) -> None:
        self.keep_at_most = keep
        self.frames: list[tuple[np.ndarray, list[np.ndarray], set[tuple[Cell, int]]]] = []

    def keep(
        self, image: np.ndarray, columns: list[np.ndarray], board: set[tuple[Cell, int]]
    ) -> None:
        self.frames = [*self.frames, (image, columns, board)][-self.keep_at_most :]


def arm_over_rim(
    image: np.ndarray, pose: BoardPose, geom: BoardGeometry, rim: RimMemory | None = None
) -> bool:
    """Whether something crosses the board's rim (see the module doc). With `rim`, the
    stretches it takes for the board's own print are left out, and this frame is added."""
    if rim is not None:
        return rim.crossed(image, pose, geom)
    return max(longest_runs(rim_columns(image, pose, geom))) >= ARM_MM


def rim_columns(image: np.ndarray, pose: BoardPose, geom: BoardGeometry) -> list[np.ndarray]:
    """Per rim band (above, below, left, right of the grid), whether each step along it is
    odd: rim pixels unlike the band's own median (`ODD`, `ODD_HUE`) over half its width."""
    (x0, y0), (x1, y1) = geom.grid_box_mm
    (lo, hi), (left, right) = RIM_ROWS_MM, RIM_COLS_MM
    H = pose.plane_homography(0.0)
    s = RIM_PX_PER_MM
    bands = [
        ((x0, y0 - hi), (x1, y0 - lo)),
        ((x0, y1 + lo), (x1, y1 + hi)),
        ((x0 - right, y0), (x0 - left, y1)),
        ((x1 + left, y0), (x1 + right, y1)),
    ]
    columns = []
    for (ax, ay), (bx, by) in bands:
        size = (max(1, round((bx - ax) * s)), max(1, round((by - ay) * s)))
        to_mm = plane_px_to_mm((ax, ay), s)
        band = cv2.warpPerspective(
            image, H @ to_mm, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
        )
        lab = cv2.cvtColor(band, cv2.COLOR_BGR2LAB).astype(np.float32)
        along = 1 if size[0] >= size[1] else 0  # the band's long axis in the array
        lab = lab if along == 1 else lab.transpose(1, 0, 2)
        diff = lab - np.median(lab.reshape(-1, 3), axis=0)
        odd = (np.linalg.norm(diff[..., 1:], axis=-1) > ODD_HUE) | (diff[..., 0] < -ODD)
        columns.append(odd.mean(axis=0) > 0.5)
    return columns


def longest_runs(columns: list[np.ndarray], mask: list[np.ndarray] | None = None) -> list[float]:
    """Per band, the longest run in mm of odd steps, the steps `mask` names skipped (the
    run goes on across them): what `arm_over_rim` compares with `ARM_MM`, and the
    benchmark's hands curve measures."""
    runs = []
    for k, column in enumerate(columns):
        kept = column if mask is None else column[~mask[k]]
        run = best = 0
        for v in kept:
            run = run + 1 if v else 0
            best = max(best, run)
        runs.append(best / RIM_PX_PER_MM)
    return runs


def observe(
    image: np.ndarray,
    geom: BoardGeometry,
    colours: ScreenColours | None,
    *,
    markers: Any = None,
    calibration: Calibration | None = None,
    board_print: BoardPrint | None = None,
) -> tuple[Observation, BoardReading]:
    """One frame read into the agreed observation."""
    observation, reading, _, _ = _observe(
        image, geom, colours, markers=markers, calibration=calibration, board_print=board_print
    )
    return observation, reading


def _observe(
    image: np.ndarray,
    geom: BoardGeometry,
    colours: ScreenColours | None,
    *,
    markers: Any = None,
    calibration: Calibration | None = None,
    board_print: BoardPrint | None = None,
    rim: RimMemory | None = None,
) -> tuple[Observation, BoardReading, Rectified | None, Rectified | None]:
    """The observation, the reading, the board resampled when no hand is over it, and the
    board resampled whatever the hands."""
    reading, rect = read_board(
        image, geom, colours, markers=markers, calibration=calibration, board_print=board_print
    )
    hands = False
    if rect is not None:
        hands = len(rect.markers_seen) < len(geom.markers) or arm_over_rim(
            image, rect.pose, geom, rim
        )
    data = {
        "screens": [s.to_json() for s in sorted(reading.screens, key=lambda s: s.cell)],
        "hands": bool(hands),
        "board_found": reading.board_found,
        "unclear": [[r, c] for r, c in reading.unclear],
        "warnings": list(reading.warnings),
    }
    if rect is not None:
        data["pose"] = {
            "K": rect.pose.K.tolist(),
            "rvec": rect.pose.rvec.ravel().tolist(),
            "tvec": rect.pose.tvec.ravel().tolist(),
        }
    confs = [s.confidence for s in reading.screens]
    conf = 0.0 if not reading.board_found else (0.3 if reading.unclear else min([1.0, *confs]))
    return Observation(data, conf), reading, None if hands else rect, rect


class ColourTeacher(Protocol):
    """Live play's side of learning the seats' colours (`table/live.py`)."""

    def board_to_learn(self) -> Iterable[tuple[Cell, int]] | None:
        """The squares screens stand on now and whose, when the colours are to be learned
        from this frame (no hands over it), else None."""

    def colours_learned(self, colours: ScreenColours) -> None:
        """The colours were learned from the board `board_to_learn` named."""


def _agreement(reading: BoardReading, board: set[tuple[Cell, int]]) -> tuple[int, int]:
    """Screens of `board` a reading finds, and screens it reads that `board` does not have."""
    got = set(reading.layout_key())
    return len(got & board), len(got - board)


KnownEmpty = Callable[[BoardReading], Iterable[Cell]]
"""Given a frame's reading (no hands over the board), the squares known to be empty in it
(live play asks the engine, `table/live.py`)."""


def perceive_frame(
    frame: Any,
    registration: Any,
    settings: Any,
    board_print: BoardPrint | None = None,
    known_empty: KnownEmpty | None = None,
    teacher: ColourTeacher | None = None,
    rim: RimMemory | None = None,
    early: SetupFrames | None = None,
) -> Observation:
    """The live perceiver (perception thread): reuses the registration's marker detection.

    With `board_print`, squares whose print is known are judged against it; with
    `known_empty` too, the print of the squares it names is learned from this frame (when
    no hand is over the board), for the frames after. With `teacher`, the colours are
    learned from the board it names (see the module doc). With `rim`, the rim's own print
    is learned over the frames and not taken for an arm (`RimMemory`); with `early` too,
    set-up frames called hands only for want of that print are judged again once it is
    known, and the colours learned from one that had no arm over it (`SetupFrames`)."""
    geom = load_geometry()
    K = getattr(registration, "camera_matrix", None)
    dist = getattr(registration, "dist_coeffs", None)
    calibration = (
        None
        if K is None
        else Calibration(
            np.asarray(K, float), np.zeros(5) if dist is None else np.asarray(dist, float)
        )
    )
    markers = getattr(registration, "markers", None) or None
    colours = load_saved_colours(settings)
    options: dict[str, Any] = {
        "markers": markers,
        "calibration": calibration,
        "board_print": board_print,
        "rim": rim,
    }
    observation, reading, rect, seen = _observe(frame.image, geom, colours, **options)
    if teacher is not None and early is not None and rim is not None:
        if rect is None and seen is not None and rim.last_unsure and rim.last_columns:
            # Hands only for want of the rim's print (all four markers seen): kept, to be
            # judged again once the print is known (`SetupFrames`).
            wanted = teacher.board_to_learn()
            if wanted is not None and len(seen.markers_seen) == len(geom.markers):
                early.keep(frame.image, rim.last_columns, set(wanted))
        elif rect is not None and early.frames:
            from_setup = _learn_early(early, rim, geom, colours, options)
            if from_setup is not None:
                _save_colours(settings, from_setup)
                teacher.colours_learned(from_setup)
                colours = from_setup
                observation, reading, rect, _ = _observe(frame.image, geom, colours, **options)
    board = None if teacher is None or rect is None else teacher.board_to_learn()
    if board is not None and rect is not None and teacher is not None:
        known = set(board)
        fresh, held = _fresh_colours(frame.image, rect, geom, known, colours, reading, options)
        if (fresh is not None or held) and early is not None:
            early.frames = []  # learned: the set-up frames kept have nothing more to teach
        if fresh is not None:
            _save_colours(settings, fresh)
            teacher.colours_learned(fresh)
            obs2, reading2, rect2, _ = _observe(frame.image, geom, fresh, **options)
            return _learn_print(obs2, reading2, rect2, board_print, known_empty, geom)
        if held and colours is not None:
            teacher.colours_learned(colours)
    if (
        reading.board_found
        and not cast(dict[str, Any], observation.data)["hands"]
        and (colours is None or not reading.screens)
    ):
        # No colours yet, or the saved ones find nothing (another set of screens): learn
        # them from this frame if it shows the start position, and keep them.
        learned_obs, learned, _, _ = (
            (observation, reading, rect, rect)
            if colours is None
            else _observe(frame.image, geom, None, **options)
        )
        # The start position's squares, whoever's colour the picture alone took for whose:
        # at set-up the rows say it (`learn_at_setup`).
        if _squares(learned) == _squares(start_position(geom)):
            _, start = read_board(frame.image, geom, None, markers=markers, calibration=calibration)
            if start is not None:
                fresh = learn_at_setup(start, geom)
                if not fresh.problems():
                    _save_colours(settings, fresh)
                    observation, reading, rect, _ = _observe(frame.image, geom, fresh, **options)
        elif colours is None:
            observation, reading = learned_obs, learned
    return _learn_print(observation, reading, rect, board_print, known_empty, geom)


def _fresh_colours(
    image: np.ndarray,
    rect: Rectified,
    geom: BoardGeometry,
    known: set[tuple[Cell, int]],
    colours: ScreenColours | None,
    reading: BoardReading,
    options: dict[str, Any],
) -> tuple[ScreenColours | None, bool]:
    """The colours learned from the board `known` names in this picture (`learn_where`),
    when they are kept; and whether the colours held (`reading` was read with them) are
    kept instead. Kept when they read no screen the board does not have (a frame that is
    not the board named: a screen moved before the set-ups were in) and find more of it
    than the colours held (none at the start); the colours held, when they find as much
    and read nothing else."""
    fresh = learn_where(rect, geom, known)
    if fresh is None or fresh.problems():
        return None, False
    seen, _ = read_board(
        image,
        geom,
        fresh,
        markers=options["markers"],
        calibration=options["calibration"],
        board_print=options["board_print"],
    )
    found, wrong = _agreement(seen, known)
    before, held_wrong = _agreement(reading, known) if colours is not None else (-1, 0)
    if not wrong and found > before:
        return fresh, False
    return None, colours is not None and before >= found and not held_wrong


def _learn_early(
    early: SetupFrames,
    rim: RimMemory,
    geom: BoardGeometry,
    colours: ScreenColours | None,
    options: dict[str, Any],
) -> ScreenColours | None:
    """The colours from the latest set-up frame `early` kept that, judged again with the
    rim's print now known, had no arm over the rim, if they are kept (`_fresh_colours`).
    The frames are let go once judged."""
    if rim.print_mask() is None:
        return None
    kept, early.frames = early.frames, []
    # Each frame's own markers: the registration's are this frame's.
    its_own = options | {"markers": None}
    for image, columns, known in reversed(kept):
        if rim.crossed_now(columns) is not False:
            continue
        reading, rect = read_board(
            image,
            geom,
            colours,
            calibration=its_own["calibration"],
            board_print=its_own["board_print"],
        )
        if rect is None or not reading.board_found:
            continue
        fresh, _ = _fresh_colours(image, rect, geom, known, colours, reading, its_own)
        if fresh is not None:
            return fresh
    return None


def _learn_print(
    observation: Observation,
    reading: BoardReading,
    rect: Rectified | None,
    board_print: BoardPrint | None,
    known_empty: KnownEmpty | None,
    geom: BoardGeometry,
) -> Observation:
    """The print of the squares `known_empty` names, learned from this frame."""
    if board_print is not None and known_empty is not None and rect is not None:
        empty = list(known_empty(reading))
        if empty:
            polys = screen_reach(rect, geom)
            mask = empty_mask(rect, geom, polys, empty)
            A = board_to_top(board_print, rect.pose, geom, rect.origin_mm, PX_PER_MM)
            learn_from(board_print, rect.top, A, mask)
    return observation


def _squares(reading: BoardReading) -> set[tuple[int, int]]:
    return {cell for cell, _ in reading.layout_key()}


def annotate(image: np.ndarray, registration: Any, observation: Observation) -> np.ndarray:
    """Each screen read: a dot in its seat's colour on its top, a ring where unsure."""
    data = cast(dict[str, Any], observation.data)  # Reflecto observes into a plain dict
    pose = data.get("pose")
    if not pose:
        return image
    geom = load_geometry()
    K = np.asarray(pose["K"], float)
    rvec, tvec = np.asarray(pose["rvec"], float), np.asarray(pose["tvec"], float)
    for s in data.get("screens", []):
        x, y = geom.cell_mm((s["cell"][0], s["cell"][1]))
        pt, _ = cv2.projectPoints(np.array([[x, y, -geom.screen_height_mm]]), rvec, tvec, K, None)
        px = tuple(int(v) for v in pt.reshape(2))
        colour = (255, 255, 255) if s["owner"] == 0 else (20, 20, 20)
        cv2.circle(image, px, 7, colour, -1, cv2.LINE_AA)
        cv2.circle(
            image, px, 8, (0, 200, 255) if s["confidence"] < 0.75 else (0, 0, 0), 2, cv2.LINE_AA
        )
    return image
