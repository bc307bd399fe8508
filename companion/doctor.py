"""`companion doctor`: open the camera, look at a few frames, and say what to fix.

One line per check, OK / WARN / FAIL, with the fix; exit 0 when nothing FAILs, 1 otherwise.
The thresholds are for a table lit for play and a camera set up as in hardware/; each is
pinned by a test with a picture that must pass and one that must not.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

import cv2
import numpy as np

from companion.camera.base import CameraError, FrameSource
from companion.camera.factory import open_source
from companion.cli_args import CommandParser
from companion.config import Settings, load_settings
from companion.vision.calibration import load_intrinsics
from companion.vision.markers import detect_markers, to_gray
from companion.vision.registration import TableRegistrar

FRAMES = 5
TOO_DARK_MEAN = 40.0
DIM_MEAN = 70.0
CLIPPED_LEVEL = 250
CLIPPED_FAIL = 0.05
CLIPPED_WARN = 0.01
SHARP_WARN = 40.0
"""Variance of the Laplacian on the table, in grey levels²: below it edges are soft."""
SHARP_FAIL = 12.0
MIN_CAMERA_PX_PER_MM = 1.0
"""Fewer camera pixels per table mm and card symbols blur together."""

Level = Literal["OK", "WARN", "FAIL"]


@dataclass(frozen=True)
class Check:
    name: str
    level: Level
    message: str
    fix: str = ""


def grab(source: FrameSource, n: int = FRAMES) -> tuple[list[np.ndarray], float]:
    """A few frames and the rate they came at (0 when only one frame)."""
    images, stamps = [], []
    with source:
        for _ in range(n):
            frame = source.read()
            images.append(frame.image)
            stamps.append(frame.timestamp)
    fps = (
        (len(stamps) - 1) / (stamps[-1] - stamps[0])
        if len(stamps) > 1 and stamps[-1] > stamps[0]
        else 0.0
    )
    return images, fps


def check_light(image: np.ndarray) -> Check:
    """Brightness from the grey picture; clipping from any channel (a red card burns out first)."""
    gray = to_gray(image)
    mean = float(gray.mean())
    p1, p50, p99 = (float(v) for v in np.percentile(gray, [1, 50, 99]))
    peak = image.max(axis=2) if image.ndim == 3 else image
    clipped = float((peak >= CLIPPED_LEVEL).mean())
    stats = (
        f"mean {mean:.0f}, 1/50/99th percentile {p1:.0f}/{p50:.0f}/{p99:.0f}, {clipped:.1%} clipped"
    )
    if mean < TOO_DARK_MEAN:
        return Check(
            "light",
            "FAIL",
            f"too dark ({stats})",
            "add light over the table or set a longer camera.exposure_us",
        )
    if clipped > CLIPPED_FAIL:
        return Check(
            "light",
            "FAIL",
            f"overexposed ({stats})",
            "shorten camera.exposure_us or move the lamp so it does not shine "
            "into the lens or off glossy cards",
        )
    if mean < DIM_MEAN:
        return Check("light", "WARN", f"dim ({stats})", "more light makes cards easier to read")
    if clipped > CLIPPED_WARN:
        return Check(
            "light",
            "WARN",
            f"some glare ({stats})",
            "move the lamp or angle the camera so reflections miss it",
        )
    return Check("light", "OK", stats)


def sharpness(gray: np.ndarray, region: np.ndarray | None = None) -> float:
    """Variance of the Laplacian at half resolution, inside `region` (image points) if given.

    Half resolution measures the edges that reading cards needs and not the sensor noise,
    which at full resolution can make a defocused picture look sharp.
    """
    lap = cv2.Laplacian(cv2.pyrDown(gray), cv2.CV_64F)
    h, w = lap.shape
    if region is None:
        return float(lap[h // 4 : 3 * h // 4, w // 4 : 3 * w // 4].var())
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, np.round(np.asarray(region) / 2).astype(np.int32), 1)
    values = lap[mask.astype(bool)]
    return float(values.var()) if values.size > 100 else float(lap.var())


def check_focus(gray: np.ndarray, region: np.ndarray | None) -> Check:
    value = sharpness(gray, region)
    where = "on the table" if region is not None else "in the middle of the picture"
    msg = f"sharpness {value:.0f} {where} (variance of the Laplacian; "
    if value < SHARP_FAIL:
        return Check(
            "focus",
            "FAIL",
            msg + f"needs {SHARP_WARN:g})",
            "turn the lens to focus on the table, clean it, and hold the camera still",
        )
    if value < SHARP_WARN:
        return Check(
            "focus",
            "WARN",
            msg + f"aim for {SHARP_WARN:g})",
            "refocus on the table surface; a textured table reads higher",
        )
    return Check("focus", "OK", msg + f"ok above {SHARP_WARN:g})")


def check_markers(seen: list[int], settings: Settings) -> Check:
    wanted = list(settings.table.corner_ids)
    missing = [m for m in wanted if m not in seen]
    if not missing:
        return Check("markers", "OK", f"all corner markers seen ({', '.join(map(str, wanted))})")
    text = f"corner marker(s) {', '.join(map(str, missing))} not seen"
    fix = (
        "print calibration/table-markers.pdf at 100 %, stick the markers at the play area's "
        "corners (id 0 top-left, clockwise) and keep them in view and uncovered"
    )
    return Check("markers", "WARN" if len(wanted) - len(missing) >= 3 else "FAIL", text, fix)


def check_resolution(registration_px_per_mm: float | None) -> Check | None:
    if registration_px_per_mm is None:
        return None
    v = registration_px_per_mm
    if v < MIN_CAMERA_PX_PER_MM:
        return Check(
            "resolution",
            "WARN",
            f"{v:.2f} camera px per table mm",
            "raise camera.width/height or mount the camera lower (`companion rig`)",
        )
    return Check("resolution", "OK", f"{v:.2f} camera px per table mm")


def check_intrinsics(settings: Settings, size: tuple[int, int]) -> Check:
    intr = load_intrinsics(settings.data_dir)
    if intr is None:
        return Check(
            "lens",
            "WARN",
            "no lens calibration",
            "optional but more accurate: `companion calibrate intrinsics`",
        )
    if tuple(intr.image_size) != size:
        return Check(
            "lens",
            "WARN",
            f"lens calibrated at {intr.image_size[0]}x{intr.image_size[1]}, camera gives "
            f"{size[0]}x{size[1]}",
            "calibrate again at this size",
        )
    return Check("lens", "OK", f"calibrated, reprojection error {intr.rms_px:.2f} px")


def run_checks(spec: str | None, settings: Settings) -> list[Check]:
    name = spec or settings.camera.source
    source = open_source(spec, settings.camera, table=settings.table)  # bad spec: exit 2
    try:
        started = time.monotonic()
        images, fps = grab(source)
    except CameraError as exc:
        fix = (
            "check the path"
            if name.startswith("replay:")
            else "check the cable and that no other program uses the camera"
        )
        return [Check("camera", "FAIL", str(exc), fix)]
    image = images[-1]
    h, w = image.shape[:2]
    rate = f", {fps:.1f} fps" if fps else ""
    checks = [
        Check(
            "camera",
            "OK",
            f"{name} delivers {w}x{h}{rate} "
            f"({len(images)} frames in {time.monotonic() - started:.1f} s)",
        )
    ]
    gray = to_gray(image)
    checks.append(check_light(image))
    seen: set[int] = set()
    for img in images:
        seen |= set(detect_markers(img, settings.table.marker_dictionary))
    intr = load_intrinsics(settings.data_dir)
    registrar = TableRegistrar(
        settings.table, *((intr.camera_matrix, intr.dist_coeffs) if intr else ())
    )
    reg = registrar.register(image)
    region = None
    px_per_mm = None
    if reg.ok:
        t = settings.table
        region = reg.table_to_image(
            [(0, 0), (t.width_mm, 0), (t.width_mm, t.height_mm), (0, t.height_mm)]
        )
        c = reg.table_to_image(
            [(t.width_mm / 2, t.height_mm / 2), (t.width_mm / 2 + 1, t.height_mm / 2)]
        )
        px_per_mm = float(np.linalg.norm(c[1] - c[0]))
    checks.append(check_focus(gray, region))
    checks.append(check_markers(sorted(seen & set(settings.table.corner_ids)), settings))
    res = check_resolution(px_per_mm)
    if res is not None:
        checks.append(res)
    checks.append(check_intrinsics(settings, (w, h)))
    return checks


def main(argv: list[str]) -> int:
    parser = CommandParser(prog="companion doctor", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--camera",
        metavar="SPEC",
        help="sim, replay:PATH, opencv:N, picamera2 (default: the configured one)",
    )
    parser.add_argument("--config", type=Path, help="settings file (TOML)")
    parser.add_argument("--data-dir", type=Path, help="where calibration results are")
    parser.add_argument("--json", action="store_true", help="print the checks as JSON")
    parser.add_argument(
        "--repair",
        action="store_true",
        help="recover the games of a damaged database that start-up moved "
        "aside, into the history (no camera checks)",
    )
    args = parser.parse_args(argv)
    settings = load_settings(args.config, {"data_dir": args.data_dir})
    if args.repair:
        from companion.store_repair import repair

        for line in repair(settings.data_dir):
            print(line)
        return 0
    checks = run_checks(args.camera, settings)
    failed = any(c.level == "FAIL" for c in checks)
    if args.json:
        print(json.dumps({"ok": not failed, "checks": [asdict(c) for c in checks]}, indent=2))
    else:
        for c in checks:
            line = f"{c.level:<4}  {c.name}: {c.message}"
            print(line + (f" -> {c.fix}" if c.fix and c.level != "OK" else ""))
    return 1 if failed else 0
