"""`companion calibrate`: print the targets, calibrate the lens, fix the table homography.

companion calibrate print [--out DIR]
companion calibrate intrinsics (--camera SPEC | --images DIR) [--out FILE]
companion calibrate table (--camera SPEC | --image FILE)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from companion.camera.base import CameraError, EndOfStream
from companion.camera.factory import open_source
from companion.camera.replay import image_files, read_image
from companion.cli_args import CommandParser
from companion.config import Settings, load_settings
from companion.errors import UserError
from companion.vision.calibration import (
    INTRINSICS_FILE,
    BoardView,
    CalibrationLimits,
    calibrate_intrinsics,
    detect_board,
    load_intrinsics,
    save_table,
)
from companion.vision.markers import detect_markers
from companion.vision.registration import TableRegistrar


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", type=Path, help="settings file (TOML)")
    p.add_argument("--data-dir", type=Path, help="where calibration results are saved")
    p.add_argument("--json", action="store_true", help="print the result as JSON")


def _parser() -> argparse.ArgumentParser:
    parser = CommandParser(prog="companion calibrate", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="what", metavar="WHAT", required=True)
    p = sub.add_parser("print", help="write printable PDF/PNG sheets: markers, board, stickers")
    p.add_argument("--out", type=Path, default=Path("calibration"), help="folder (calibration/)")
    _common(p)
    p = sub.add_parser("intrinsics", help="calibrate the lens from ChArUco board views")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--camera", metavar="SPEC", help="sim, replay:PATH, opencv:N, picamera2")
    src.add_argument("--images", type=Path, metavar="DIR", help="folder of board photos")
    p.add_argument(
        "--out", type=Path, help="output JSON (default <data-dir>/" + str(INTRINSICS_FILE) + ")"
    )
    p.add_argument("--views", type=int, default=20, help="views to collect from a camera (20)")
    p.add_argument("--seconds", type=float, default=90.0, help="give up on a camera after (90)")
    limits = CalibrationLimits()
    p.add_argument("--min-views", type=int, default=limits.min_views)
    p.add_argument("--max-rms", type=float, default=limits.max_rms_px, help="pixels")
    p.add_argument("--min-coverage", type=float, default=limits.min_coverage, help="0..1")
    _common(p)
    p = sub.add_parser("table", help="find the corner markers and save the table homography")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--camera", metavar="SPEC", help="sim, replay:PATH, opencv:N, picamera2")
    src.add_argument("--image", type=Path, metavar="FILE", help="one photo of the table")
    p.add_argument("--frames", type=int, default=30, help="frames to try from a camera (30)")
    _common(p)
    return parser


def _settings(args: argparse.Namespace) -> Settings:
    return load_settings(args.config, {"data_dir": args.data_dir})


def _emit(args: argparse.Namespace, data: dict[str, Any], lines: list[str]) -> None:
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print("\n".join(lines))


def _camera_frames(spec: str, settings: Settings, limit_s: float) -> Iterator[np.ndarray]:
    """Frames from a camera until it ends or `limit_s` passes; a replay plays once."""
    camera = settings.camera.model_copy(update={"loop": False})
    source = open_source(spec, camera, table=settings.table)
    deadline = time.monotonic() + limit_s
    with source:
        while time.monotonic() < deadline:
            try:
                yield source.read().image
            except EndOfStream:
                return


# -- print --------------------------------------------------------------------------------


def _print(args: argparse.Namespace) -> int:
    from companion.vision.print_sheets import all_sheets, write_sheet

    settings = _settings(args)
    written: list[Path] = []
    for sheet in all_sheets(settings.table):
        written += write_sheet(sheet, args.out)
    _emit(
        args,
        {"files": [str(p) for p in written]},
        [f"wrote {p}" for p in written]
        + ["print at 100 % (not 'fit to page') and check the 50 mm bar with a ruler"],
    )
    return 0


# -- intrinsics ---------------------------------------------------------------------------


def _is_new_view(view: BoardView, taken: list[BoardView], image_w: int) -> bool:
    """Skip near-duplicates while the board sits still: a camera gives 10 alike views a second."""
    centre = view.image_points.mean(axis=0)
    spread = float(np.ptp(view.image_points[:, 0]))
    for old in taken:
        moved = np.linalg.norm(centre - old.image_points.mean(axis=0))
        rescaled = abs(spread - float(np.ptp(old.image_points[:, 0]))) / max(1.0, spread)
        if moved < 0.05 * image_w and rescaled < 0.1:
            return False
    return True


def _intrinsics(args: argparse.Namespace) -> int:
    settings = _settings(args)
    views: list[BoardView] = []
    size: tuple[int, int] | None = None
    looked = 0
    if args.images is not None:
        if not args.images.is_dir():
            raise UserError(f"--images {args.images}: not a folder")
        files = image_files(args.images)
        if not files:
            raise UserError(f"--images {args.images}: no images in the folder")
        frames: Iterator[np.ndarray] = (read_image(p) for p in files)
    else:
        frames = _camera_frames(args.camera, settings, args.seconds)
    for image in frames:
        looked += 1
        h, w = image.shape[:2]
        if size is None:
            size = (w, h)
        elif size != (w, h):
            raise UserError(
                f"pictures differ in size ({size[0]}x{size[1]} and {w}x{h}): "
                "calibrate one camera mode at a time"
            )
        view = detect_board(image)
        if view is None or (args.camera and not _is_new_view(view, views, w)):
            continue
        views.append(view)
        if args.camera and not args.json:
            print(
                f"view {len(views)}/{args.views}: {len(view.image_points)} corners", file=sys.stderr
            )
        if args.camera and len(views) >= args.views:
            break
    if size is None:
        raise UserError("no pictures to calibrate from")
    limits = CalibrationLimits(args.min_views, args.max_rms, args.min_coverage)
    intr = calibrate_intrinsics(views, size, limits)
    out = args.out or settings.data_dir / INTRINSICS_FILE
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(intr.to_json(), indent=2) + "\n", encoding="utf-8")
    K = intr.camera_matrix
    _emit(
        args,
        {**intr.to_json(), "saved": str(out), "pictures": looked},
        [
            f"lens calibrated from {intr.views} of {looked} pictures: reprojection error "
            f"{intr.rms_px:.2f} px, coverage {intr.coverage:.0%}",
            f"focal length {K[0, 0]:.1f} x {K[1, 1]:.1f} px, centre ({K[0, 2]:.1f}, {K[1, 2]:.1f}) "
            f"at {size[0]}x{size[1]}",
            f"saved {out}",
        ],
    )
    return 0


# -- table --------------------------------------------------------------------------------


def _table(args: argparse.Namespace) -> int:
    settings = _settings(args)
    table = settings.table
    wanted = list(table.corner_ids)
    if args.image is not None:
        frames: Iterator[np.ndarray] = iter([read_image(args.image)])
    else:
        frames = _camera_frames(args.camera, settings, limit_s=max(5.0, args.frames / 2))
    best: tuple[np.ndarray, list[int]] | None = None
    for n, image in enumerate(frames):
        seen = sorted(set(detect_markers(image, table.marker_dictionary)) & set(wanted))
        if best is None or len(seen) > len(best[1]):
            best = (image, seen)
        if len(seen) == len(wanted) or n + 1 >= args.frames:
            break
    if best is None:
        raise CameraError("the camera delivered no frames")
    image, seen = best
    missing = [m for m in wanted if m not in seen]
    if missing:
        raise UserError(
            f"corner marker(s) {', '.join(map(str, missing))} not seen "
            f"(seen: {', '.join(map(str, seen)) or 'none'}): check they are on the "
            "table, in view, lit and not covered; `companion doctor` shows the picture"
        )
    intr = load_intrinsics(settings.data_dir)
    registrar = TableRegistrar(table, *((intr.camera_matrix, intr.dist_coeffs) if intr else ()))
    reg = registrar.register(image)
    h, w = image.shape[:2]
    centre = np.array([[table.width_mm / 2, table.height_mm / 2]])
    step = np.array(
        [
            [table.width_mm / 2 + 1, table.height_mm / 2],
            [table.width_mm / 2, table.height_mm / 2 + 1],
        ]
    )
    c_px, s_px = reg.table_to_image(centre), reg.table_to_image(step)
    px_per_mm = float(np.mean(np.linalg.norm(s_px - c_px, axis=1)))
    # table_to_image above raised unless the registration holds both homographies.
    assert reg.H_table_from_image is not None and reg.H_image_from_table is not None
    data = {
        "H_table_from_image": reg.H_table_from_image.tolist(),
        "H_image_from_table": reg.H_image_from_table.tolist(),
        "image_size": [w, h],
        "markers_seen": seen,
        "camera_px_per_mm": round(px_per_mm, 4),
        "undistorted": intr is not None,
        "table": table.model_dump(mode="json"),
        "saved_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    path = save_table(settings.data_dir, data)
    _emit(
        args,
        {**data, "saved": str(path)},
        [
            f"corner markers seen: {', '.join(map(str, seen))}",
            f"{px_per_mm:.2f} camera px per table mm at the table centre"
            + ("" if intr else " (no lens calibration: run `companion calibrate intrinsics`)"),
            f"saved {path}",
        ],
    )
    return 0


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    return {"print": _print, "intrinsics": _intrinsics, "table": _table}[args.what](args)
