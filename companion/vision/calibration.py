"""Lens and table calibration results, saved as JSON in the data dir and loaded at start-up."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from companion.errors import UserError

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
        raise UserError(f"{path} is not readable JSON ({exc}); delete it and calibrate again"
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
        raise UserError(f"{path} is damaged ({exc}); run `companion calibrate table` again"
                        ) from None
    if H.shape != (3, 3):
        raise UserError(f"{path} is damaged (homography is not 3×3); calibrate the table again")
    return H


def save_table(data_dir: Path, data: dict[str, Any]) -> Path:
    return _write_json(Path(data_dir) / TABLE_FILE, data)
