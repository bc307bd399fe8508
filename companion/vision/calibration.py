"""Lens and table calibration results, saved as JSON in the data dir and loaded at start-up."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import UserError
from companion.vision.markers import to_gray

INTRINSICS_FILE = Path("calibration") / "intrinsics.json"
TABLE_FILE = Path("calibration") / "table.json"


@dataclass(frozen=True)
class Intrinsics:
    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray
    rms_px: float
    image_size: tuple[int, int]
    """(width, height) the calibration was made at; a different size needs a new one."""
    views: int = 0
    coverage: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "camera_matrix": self.camera_matrix.tolist(),
            "dist_coeffs": self.dist_coeffs.ravel().tolist(),
            "rms_px": self.rms_px,
            "image_size": list(self.image_size),
            "views": self.views,
            "coverage": self.coverage,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Intrinsics:
        K = np.asarray(data["camera_matrix"], float)
        if K.shape != (3, 3):
            raise ValueError("camera_matrix is not 3×3")
        return cls(
            camera_matrix=K,
            dist_coeffs=np.asarray(data["dist_coeffs"], float).ravel(),
            rms_px=float(data["rms_px"]),
            image_size=(int(data["image_size"][0]), int(data["image_size"][1])),
            views=int(data.get("views", 0)),
            coverage=float(data.get("coverage", 0.0)),
        )


def _read_json(path: Path) -> dict[str, Any] | None:
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(
            f"{path} is not readable JSON ({exc}); delete it and calibrate again"
        ) from None
    if not isinstance(data, dict):
        raise UserError(f"{path} is not a calibration file; delete it and calibrate again")
    return data


def _write_json(path: Path, data: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def load_intrinsics(data_dir: Path) -> Intrinsics | None:
    """The saved lens calibration, or None when the camera was never calibrated."""
    path = Path(data_dir) / INTRINSICS_FILE
    data = _read_json(path)
    if data is None:
        return None
    try:
        return Intrinsics.from_json(data)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise UserError(f"{path} is damaged ({exc}); delete it and calibrate again") from None


def save_intrinsics(data_dir: Path, intr: Intrinsics) -> Path:
    return _write_json(Path(data_dir) / INTRINSICS_FILE, intr.to_json())


def load_table_homography(data_dir: Path) -> np.ndarray | None:
    """The saved image→table homography (a starting point until markers are seen), or None."""
    path = Path(data_dir) / TABLE_FILE
    data = _read_json(path)
    if data is None:
        return None
    try:
        H = np.asarray(data["H_table_from_image"], float)
    except (KeyError, TypeError, ValueError) as exc:
        raise UserError(
            f"{path} is damaged ({exc}); run `companion calibrate table` again"
        ) from None
    if H.shape != (3, 3):
        raise UserError(f"{path} is damaged (homography is not 3×3); calibrate the table again")
    return H


def save_table(data_dir: Path, data: dict[str, Any]) -> Path:
    return _write_json(Path(data_dir) / TABLE_FILE, data)


# -- the ChArUco board and lens calibration ----------------------------------------------

BOARD_SQUARES = (7, 5)
"""Squares across and down: 210 × 150 mm at 30 mm, on a landscape A4 page."""
BOARD_SQUARE_MM = 30.0
BOARD_MARKER_MM = 22.0
BOARD_FIRST_ID = 20
"""Board ids start here so they never clash with table corners (0–3) or sticker markers (10–13)."""
MIN_CORNERS_PER_VIEW = 8
COVERAGE_GRID = 5


def charuco_board() -> cv2.aruco.CharucoBoard:
    """The printed calibration board, in millimetres."""
    n_markers = BOARD_SQUARES[0] * BOARD_SQUARES[1] // 2
    ids = np.arange(BOARD_FIRST_ID, BOARD_FIRST_ID + n_markers, dtype=np.int32)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    return cv2.aruco.CharucoBoard(BOARD_SQUARES, BOARD_SQUARE_MM, BOARD_MARKER_MM, dictionary, ids)


@dataclass(frozen=True)
class BoardView:
    object_points: np.ndarray
    """N×3 float32 board points in mm."""
    image_points: np.ndarray
    """N×2 float32 image pixels."""


def detect_board(
    image: np.ndarray, board: cv2.aruco.CharucoBoard | None = None
) -> BoardView | None:
    """The board's inner corners in one picture, or None if too few are seen to use it."""
    board = board or charuco_board()
    gray = to_gray(image)
    corners, ids, _, _ = cv2.aruco.CharucoDetector(board).detectBoard(gray)
    if ids is None or len(ids) < MIN_CORNERS_PER_VIEW:
        return None
    obj, img = board.matchImagePoints(corners, ids)
    if obj is None or len(obj) < MIN_CORNERS_PER_VIEW:
        return None
    return BoardView(obj.reshape(-1, 3).astype(np.float32), img.reshape(-1, 2).astype(np.float32))


def coverage(
    views: list[BoardView], image_size: tuple[int, int], grid: int = COVERAGE_GRID
) -> float:
    """Share of a grid×grid split of the image where some view saw a board corner.

    A lens model fitted to corners in the middle says little about the edges, where the
    distortion is; this is how `calibrate_intrinsics` knows the views were spread out.
    """
    w, h = image_size
    hit = np.zeros((grid, grid), bool)
    for v in views:
        cx = np.clip((v.image_points[:, 0] / w * grid).astype(int), 0, grid - 1)
        cy = np.clip((v.image_points[:, 1] / h * grid).astype(int), 0, grid - 1)
        hit[cy, cx] = True
    return float(hit.mean())


@dataclass(frozen=True)
class CalibrationLimits:
    min_views: int = 8
    max_rms_px: float = 1.0
    min_coverage: float = 0.5


class CalibrationRefused(UserError):
    """The views do not make a trustworthy calibration; the message says what to do."""


def calibrate_intrinsics(
    views: list[BoardView], image_size: tuple[int, int], limits: CalibrationLimits | None = None
) -> Intrinsics:
    """Fit the lens model, or refuse (CalibrationRefused) with the reason and the numbers."""
    limits = limits or CalibrationLimits()
    cover = coverage(views, image_size)
    if len(views) < limits.min_views:
        raise CalibrationRefused(
            f"only {len(views)} usable board view(s), need {limits.min_views}: show the whole "
            "ChArUco board at more places and angles"
        )
    if cover < limits.min_coverage:
        raise CalibrationRefused(
            f"the views cover {cover:.0%} of the image, need {limits.min_coverage:.0%}: move the "
            "board into the corners and edges of the picture too"
        )
    rms, K, dist, _, _ = cv2.calibrateCamera(
        [v.object_points for v in views], [v.image_points for v in views], image_size, None, None
    )
    if not np.isfinite(rms) or rms > limits.max_rms_px:
        raise CalibrationRefused(
            f"reprojection error {rms:.2f} px is above {limits.max_rms_px:g} px: hold the board "
            "flat and still, light it evenly, and retake blurred views"
        )
    return Intrinsics(
        camera_matrix=K,
        dist_coeffs=dist.ravel(),
        rms_px=float(rms),
        image_size=(int(image_size[0]), int(image_size[1])),
        views=len(views),
        coverage=cover,
    )
