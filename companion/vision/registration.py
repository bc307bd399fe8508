"""Table registration: from a camera frame to a top-down picture of the table in millimetres.

Four ArUco markers (DICT_4X4_50, ids `corner_ids`) mark the play area's top-left, top-right,
bottom-right and bottom-left corners; `width_mm`/`height_mm` are the distances between their
centres. Each marker's four corners are known in millimetres too (its side is known), so a
frame with all four gives 16 point pairs for the homography; three markers are enough. With
fewer (a hand over a marker) the last good homography is held.

Table millimetres: x to the right, y down the table, (0, 0) at the top-left marker's centre.
The table image covers the play area plus `margin_mm` on every side, so table-image pixel
(u, v) is at mm ((u / px_per_mm) - margin_mm, (v / px_per_mm) - margin_mm).

Cost is one detection, one findHomography and one warpPerspective per frame
(`benchmarks/registration.py` keeps it within 1.5× of the bare detection).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.config import TableSettings
from companion.vision.homography import apply_homography
from companion.vision.markers import Marker, detect_markers

if TYPE_CHECKING:
    from companion.config import Settings

MIN_MARKERS = 3


def _as_points(points: np.ndarray | list | tuple) -> np.ndarray:
    return np.asarray(points, dtype=np.float64).reshape(-1, 2)


def marker_corners_mm(center_mm: tuple[float, float], side_mm: float) -> np.ndarray:
    """A marker's corners in table mm, clockwise from its top-left, as the detector reports them.

    Markers are laid upright (their top toward the table's top edge); `register` also
    accepts a sticker turned by a multiple of 90°, see `_upright`.
    """
    cx, cy = center_mm
    h = side_mm / 2
    return np.array([[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h]])


@dataclass(frozen=True)
class Registration:
    table_image: np.ndarray | None
    """Top-down BGR of the play area plus `margin_mm`, at `px_per_mm`; None when not `ok` or
    not asked for (`TableRegistrar.register`'s `table_image`)."""
    px_per_mm: float
    H_table_from_image: np.ndarray | None
    """3×3: (undistorted) camera-image pixels to table mm."""
    H_image_from_table: np.ndarray | None
    markers_seen: list[int]
    """Corner marker ids found in this frame."""
    held: bool
    """True when this frame showed too few markers and the last good homography was reused."""
    ok: bool
    """False when no homography has been found yet: there is no table to look at."""
    margin_mm: float = 0.0
    size_mm: tuple[float, float] = (0.0, 0.0)
    """Play area (width, height) between the marker centres."""
    residual_mm: float | None = None
    """RMS distance, in table mm, between the used marker corners and where H puts them."""
    rejected: list[int] = field(default_factory=list)
    """Corner markers seen but left out because their corners disagree with the others."""
    markers: dict[int, Marker] = field(default_factory=dict, repr=False)
    """Every marker found in the frame, any id, in camera pixels: games reuse the detection."""
    camera_matrix: np.ndarray | None = field(default=None, repr=False)
    dist_coeffs: np.ndarray | None = field(default=None, repr=False)

    def summary(self) -> dict[str, object]:
        """What a status line or the dashboard shows about the registration (JSON-ready)."""
        return {
            "ok": self.ok,
            "held": self.held,
            "markers_seen": list(self.markers_seen),
            "rejected": list(self.rejected),
            "residual_mm": None if self.residual_mm is None else round(self.residual_mm, 3),
            "px_per_mm": self.px_per_mm,
        }

    def image_to_table(self, px: np.ndarray | list | tuple) -> np.ndarray:
        """N×2 camera-image pixels (as captured) to N×2 table mm."""
        if self.H_table_from_image is None:
            raise ValueError("no table registration yet")
        pts = _as_points(px)
        if self.camera_matrix is not None:
            pts = cv2.undistortPoints(
                pts.reshape(-1, 1, 2), self.camera_matrix, self.dist_coeffs, P=self.camera_matrix
            ).reshape(-1, 2)
        return apply_homography(self.H_table_from_image, pts)

    def table_to_image(self, points_mm: np.ndarray | list | tuple) -> np.ndarray:
        """N×2 table mm to N×2 camera-image pixels (as captured, lens distortion included)."""
        if self.H_image_from_table is None:
            raise ValueError("no table registration yet")
        pts = apply_homography(self.H_image_from_table, points_mm)
        if self.camera_matrix is not None:
            K = self.camera_matrix
            norm = cv2.undistortPoints(pts.reshape(-1, 1, 2), K, None).reshape(-1, 2)
            obj = np.hstack([norm, np.ones((len(norm), 1))])
            pts, _ = cv2.projectPoints(obj, np.zeros(3), np.zeros(3), K, self.dist_coeffs)
            pts = pts.reshape(-1, 2)
        return pts

    def mm_to_table_px(self, points_mm: np.ndarray | list | tuple) -> np.ndarray:
        """Table mm to pixels of `table_image`."""
        return (_as_points(points_mm) + self.margin_mm) * self.px_per_mm

    def table_px_to_mm(self, px: np.ndarray | list | tuple) -> np.ndarray:
        """Pixels of `table_image` to table mm."""
        return _as_points(px) / self.px_per_mm - self.margin_mm


@dataclass(frozen=True)
class _Fit:
    H: np.ndarray
    ids: list[int]
    residual_mm: float
    rejected: list[int]


class TableRegistrar:
    """Registers frame after frame, following the markers and holding when they are hidden.

    `camera_matrix`/`dist_coeffs` (from `companion calibrate intrinsics`) undistort the marker
    points; `undistort_image=True` also undistorts the picture (precomputed maps, one remap).
    `H_table_from_image` (from `companion calibrate table`) is the homography to hold before
    any frame has shown enough markers.
    """

    def __init__(
        self,
        table_settings: TableSettings | None = None,
        camera_matrix: np.ndarray | None = None,
        dist_coeffs: np.ndarray | None = None,
        *,
        margin_mm: float | None = None,
        undistort_image: bool = False,
        H_table_from_image: np.ndarray | None = None,
        max_residual_mm: float | None = None,
    ) -> None:
        self.table = table_settings or TableSettings()
        t = self.table
        self.max_residual_mm = float(
            0.25 * t.marker_size_mm if max_residual_mm is None else max_residual_mm
        )
        """A marker whose corners miss by more than this (RMS) is left out of the fit."""
        self.margin_mm = float(t.marker_size_mm if margin_mm is None else margin_mm)
        self.px_per_mm = float(t.px_per_mm)
        self.camera_matrix = None if camera_matrix is None else np.asarray(camera_matrix, float)
        self.dist_coeffs = None
        if self.camera_matrix is not None:
            self.dist_coeffs = (
                np.zeros(5) if dist_coeffs is None else np.asarray(dist_coeffs, float)
            )
        self.undistort_image = undistort_image and self.camera_matrix is not None
        self._maps: tuple[np.ndarray, np.ndarray] | None = None
        self._maps_size: tuple[int, int] | None = None
        centres = [(0.0, 0.0), (t.width_mm, 0.0), (t.width_mm, t.height_mm), (0.0, t.height_mm)]
        self.centres_mm = dict(zip(t.corner_ids, centres, strict=True))
        self.corners_mm = {
            mid: marker_corners_mm(c, t.marker_size_mm) for mid, c in self.centres_mm.items()
        }
        self.out_size = (
            round((t.width_mm + 2 * self.margin_mm) * self.px_per_mm),
            round((t.height_mm + 2 * self.margin_mm) * self.px_per_mm),
        )
        s, m = self.px_per_mm, self.margin_mm
        self._table_px_from_mm = np.array([[s, 0, s * m], [0, s, s * m], [0, 0, 1.0]])
        self._last_good: np.ndarray | None = None
        if H_table_from_image is not None:
            self._last_good = np.asarray(H_table_from_image, float)

    # -- geometry --------------------------------------------------------------------

    def _undistort(self, pts: np.ndarray) -> np.ndarray:
        if self.camera_matrix is None:
            return pts
        K = self.camera_matrix
        return cv2.undistortPoints(pts.reshape(-1, 1, 2), K, self.dist_coeffs, P=K).reshape(-1, 2)

    def _upright(self, markers: dict[int, Marker], coarse: np.ndarray) -> dict[int, np.ndarray]:
        """Each marker's image corners, cyclically shifted to match its corners in mm.

        A sticker turned 90° reports its corners from another starting point; the coarse
        homography from the centres tells which start matches the table's top-left.
        """
        out: dict[int, np.ndarray] = {}
        for mid, m in markers.items():
            in_mm = apply_homography(coarse, m.corners)
            want = self.corners_mm[mid]
            errs = [np.linalg.norm(np.roll(in_mm, -k, axis=0) - want) for k in range(4)]
            out[mid] = np.roll(m.corners, -int(np.argmin(errs)), axis=0)
        return out

    def fit(self, markers: dict[int, Marker], min_markers: int = MIN_MARKERS) -> _Fit | None:
        """The homography from the corner markers, leaving out any whose corners disagree.

        A marker printed at another size (or a stray marker with a corner id) drags the
        least-squares fit, and its corners then sit far from where the others put them: the
        worst such marker is dropped while three or more remain. (A marker merely slid along
        the table cannot be told this way: a homography fits any four centres.) Two markers
        (`min_markers` 2) give eight corners, enough for a homography, but nothing to tell a
        wrong marker by: a caller that takes them checks the plane against what it sees.
        """
        ids = [mid for mid in self.table.corner_ids if mid in markers]
        if self.camera_matrix is not None:
            markers = {
                mid: Marker(mid, self._undistort(markers[mid].corners.astype(np.float64)))
                for mid in ids
            }
        rejected: list[int] = []
        while len(ids) >= max(2, min_markers):
            fitted = self._fit_ids(markers, ids)
            if fitted is None:
                return None
            H, per_marker = fitted
            worst = int(np.argmax(per_marker))
            if per_marker[worst] <= self.max_residual_mm:
                rms = float(np.sqrt(np.mean(np.square(per_marker))))
                return _Fit(H, ids, rms, rejected)
            rejected.append(ids.pop(worst))
        return None

    def _fit_ids(
        self, markers: dict[int, Marker], ids: list[int]
    ) -> tuple[np.ndarray, np.ndarray] | None:
        img_c = np.array([markers[mid].center for mid in ids], np.float64)
        mm_c = np.array([self.centres_mm[mid] for mid in ids], np.float64)
        if len(ids) == 4:
            coarse = cv2.getPerspectiveTransform(img_c.astype(np.float32), mm_c.astype(np.float32))
        elif len(ids) == 3:
            coarse = np.vstack(
                [
                    cv2.getAffineTransform(img_c.astype(np.float32), mm_c.astype(np.float32)),
                    [0, 0, 1],
                ]
            )
        else:
            # Two centres fix a turn, a scale and a shift: enough to tell each marker's corners.
            zi, zm = img_c @ [1, 1j], mm_c @ [1, 1j]
            a = (zm[1] - zm[0]) / (zi[1] - zi[0])
            b = zm[0] - a * zi[0]
            coarse = np.array([[a.real, -a.imag, b.real], [a.imag, a.real, b.imag], [0, 0, 1]])
        upright = self._upright({mid: markers[mid] for mid in ids}, coarse)
        src = np.vstack([upright[mid] for mid in ids]).astype(np.float64)
        dst = np.vstack([self.corners_mm[mid] for mid in ids])
        H, _ = cv2.findHomography(src, dst, 0)
        if H is None or not np.all(np.isfinite(H)) or abs(H[2, 2]) < 1e-12:
            return None
        H = H / H[2, 2]
        err = np.linalg.norm(apply_homography(H, src) - dst, axis=1).reshape(len(ids), 4)
        return H, np.sqrt(np.mean(np.square(err), axis=1))

    # -- per frame -------------------------------------------------------------------

    def _undistorted_image(self, image: np.ndarray) -> np.ndarray:
        h, w = image.shape[:2]
        if self._maps is None or self._maps_size != (w, h):
            K = self.camera_matrix
            self._maps = cv2.initUndistortRectifyMap(
                K, self.dist_coeffs, None, K, (w, h), cv2.CV_16SC2
            )
            self._maps_size = (w, h)
        return cv2.remap(image, self._maps[0], self._maps[1], cv2.INTER_LINEAR)

    def warp(self, image: np.ndarray, H_table_from_image: np.ndarray) -> np.ndarray:
        """The top-down table picture for a homography.

        Warped as 4 channels: OpenCV's vectorised bilinear path covers 1 and 4 channels, so
        BGR → BGRA → warp → BGR gives the same pixels as warping BGR, in under half the time.
        """
        warp = self._table_px_from_mm @ H_table_from_image
        if image.ndim == 2:
            return cv2.warpPerspective(image, warp, self.out_size, flags=cv2.INTER_LINEAR)
        bgra = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
        out = cv2.warpPerspective(bgra, warp, self.out_size, flags=cv2.INTER_LINEAR)
        return cv2.cvtColor(out, cv2.COLOR_BGRA2BGR)

    def register(
        self,
        image: np.ndarray,
        *,
        markers: dict[int, Marker] | None = None,
        table_image: bool = True,
    ) -> Registration:
        """Find the corner markers and warp the frame to the top-down table image.

        `markers` lets a caller that already ran detection on this frame skip a second pass.
        `table_image` False skips the warp (`Registration.table_image` is then None): the live
        loop asks for it only for a game that reads the top-down picture, since the warp costs
        a third of the registration at 1280x960 and the games read the camera frame through H.
        """
        if markers is None:
            markers = detect_markers(image, self.table.marker_dictionary)
        seen = sorted(mid for mid in markers if mid in self.centres_mm)
        fit = self.fit(markers)
        held = False
        if fit is None:
            H, held = self._last_good, self._last_good is not None
        else:
            H = self._last_good = fit.H
        rejected = [] if fit is None else sorted(fit.rejected)
        if H is None:
            return Registration(
                None,
                self.px_per_mm,
                None,
                None,
                seen,
                False,
                False,
                self.margin_mm,
                (self.table.width_mm, self.table.height_mm),
                rejected=rejected,
                markers=markers,
                camera_matrix=self.camera_matrix,
                dist_coeffs=self.dist_coeffs,
            )
        top_down = None
        if table_image:
            src = image
            if self.undistort_image:
                src = self._undistorted_image(image)
                # The homography works in undistorted pixels, which this image now is.
            top_down = self.warp(src, H)
        return Registration(
            table_image=top_down,
            px_per_mm=self.px_per_mm,
            H_table_from_image=H,
            H_image_from_table=np.linalg.inv(H),
            markers_seen=seen,
            held=held,
            ok=True,
            margin_mm=self.margin_mm,
            size_mm=(self.table.width_mm, self.table.height_mm),
            residual_mm=None if fit is None else fit.residual_mm,
            rejected=rejected,
            markers=markers,
            camera_matrix=self.camera_matrix,
            dist_coeffs=self.dist_coeffs,
        )


def registrar_for(settings: Settings, *, undistort_image: bool = False) -> TableRegistrar:
    """A registrar with whatever `companion calibrate` saved in the data dir (none is fine)."""
    from companion.vision.calibration import load_intrinsics, load_table_homography

    intr = load_intrinsics(settings.data_dir)
    K, dist = (intr.camera_matrix, intr.dist_coeffs) if intr is not None else (None, None)
    return TableRegistrar(
        settings.table,
        K,
        dist,
        undistort_image=undistort_image,
        H_table_from_image=load_table_homography(settings.data_dir),
    )
