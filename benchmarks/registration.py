"""Registration speed: capture → table registration on 1280×960 frames, one core.

Renders ~50 distinct frames of the demo table (cards, hands) through VirtualCamera at varied
poses, then times on the same frames: the bare marker detection
(`detector().detectMarkers(gray)`), the full `TableRegistrar.register(frame)` (grey
conversion, detection, homography, warp), and reading the frames back from a `replay:`
folder of JPEGs. Target: registration within 1.5× of bare detection.

    .venv/bin/python benchmarks/registration.py [--frames 50] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from companion.camera.replay import ReplaySource  # noqa: E402
from companion.config import TableSettings  # noqa: E402
from companion.sim.demo_table import DemoTableScene, overhead_camera  # noqa: E402
from companion.vision.markers import detector  # noqa: E402
from companion.vision.registration import TableRegistrar  # noqa: E402

TARGET_RATIO = 1.5
COARSE_PX_PER_MM = 1.5
COMMAND = ".venv/bin/python benchmarks/registration.py"


def render_frames(n: int, table: TableSettings) -> tuple[list[np.ndarray], list[float]]:
    """Frames, and each pose's camera pixels per table mm at the table's centre."""
    rng = np.random.default_rng(7)
    poses = [
        (float(rng.uniform(0, 20)), float(rng.choice([0, 90, 180, -90]) + rng.uniform(-25, 25)))
        for _ in range(5)
    ]
    frames, scales = [], []
    per_pose = -(-n // len(poses))
    for k, (tilt, yaw) in enumerate(poses):
        camera = overhead_camera(table, tilt_deg=tilt, yaw_deg=yaw, fill=0.7)
        scene = DemoTableScene(table, seed=k, camera=camera)
        scales.append(camera.px_per_mm_at((table.width_mm / 2, table.height_mm / 2)))
        for i in range(per_pose):
            frames.append(scene.frame(i * 0.73)[0])  # cards move, hands come and go
    return frames[:n], scales


def timed_pair(
    detect, register, frames: list[np.ndarray], grays: list[np.ndarray], repeat: int
) -> tuple[list[float], list[float]]:
    """Per frame, the best of `repeat` runs of each, interleaved, in CPU seconds of this thread.

    The machine is shared: wall-clock times swing with other jobs, while the thread's CPU time
    (one OpenCV thread, so all the work is on this thread) counts only the work done.
    Interleaving keeps both measurements under the same cache and memory load.
    """
    det_s, reg_s = [], []
    for frame, gray in zip(frames, grays, strict=True):
        best_d = best_r = float("inf")
        for _ in range(repeat):
            t = time.thread_time()
            detect(gray)
            t1 = time.thread_time()
            register(frame)
            t2 = time.thread_time()
            best_d, best_r = min(best_d, t1 - t), min(best_r, t2 - t1)
        det_s.append(best_d)
        reg_s.append(best_r)
    return det_s, reg_s


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks/results/registration.json")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    table = TableSettings()
    t0 = time.perf_counter()
    frames, scales = render_frames(args.frames, table)
    print(
        f"rendered {len(frames)} frames {frames[0].shape[1]}x{frames[0].shape[0]} in "
        f"{time.perf_counter() - t0:.1f} s; timing on one core (cv2.setNumThreads(1))"
    )
    grays = [cv2.cvtColor(f, cv2.COLOR_BGR2GRAY) for f in frames]
    det = detector()
    registrar = TableRegistrar(table)
    results = [registrar.register(f) for f in frames]
    detect_s, register_s = timed_pair(
        det.detectMarkers, registrar.register, frames, grays, args.repeat
    )
    # For comparison: the same at a coarser table image (what the camera resolves anyway).
    coarse = TableRegistrar(table.model_copy(update={"px_per_mm": COARSE_PX_PER_MM}))
    detect2_s, coarse_s = timed_pair(det.detectMarkers, coarse.register, frames, grays, args.repeat)
    ok = sum(r.ok and not r.held for r in results)
    held = sum(r.held for r in results)

    with tempfile.TemporaryDirectory() as tmp:
        for i, f in enumerate(frames):
            cv2.imwrite(f"{tmp}/frame_{i:04d}.jpg", f, [cv2.IMWRITE_JPEG_QUALITY, 90])
        source = ReplaySource(tmp, fps=1000.0, loop=False)
        read_s, pipeline_s = [], []
        with source:
            for _ in frames:
                t = time.thread_time()
                frame = source.read()
                t1 = time.thread_time()
                registrar.register(frame.image)
                read_s.append(t1 - t)
                pipeline_s.append(time.thread_time() - t)

    # The sim camera's own cost per frame (cards, hand, noise, JPEG over a cached background).
    scene = DemoTableScene(table, seed=0)
    sim_s = []
    for i in range(len(frames)):
        t = time.thread_time()
        scene.frame(i * 0.37)
        sim_s.append(time.thread_time() - t)

    med = {
        k: statistics.median(v) * 1000
        for k, v in {
            "detect": detect_s,
            "register": register_s,
            "replay_read": read_s,
            "replay_read_and_register": pipeline_s,
            "sim_render": sim_s,
        }.items()
    }
    ratio = med["register"] / med["detect"]
    coarse_ratio = statistics.median(coarse_s) / statistics.median(detect2_s)
    table_px = results[0].table_image.shape[1::-1] if results[0].ok else None
    report = {
        "command": COMMAND,
        "cores": 1,
        "clock": "time.thread_time (CPU time of the one working thread)",
        "frames": len(frames),
        "frame_size": [frames[0].shape[1], frames[0].shape[0]],
        "table_image_size": list(table_px) if table_px else None,
        "px_per_mm": table.px_per_mm,
        "median_ms": {k: round(v, 2) for k, v in med.items()},
        "fps": {k: round(1000 / v, 1) for k, v in med.items()},
        "ratio_register_over_detect": round(ratio, 3),
        "target_ratio": TARGET_RATIO,
        "meets_target": ratio <= TARGET_RATIO,
        "camera_px_per_mm_at_centre": [round(v, 2) for v in scales],
        "at_px_per_mm_1_5": {
            "median_register_ms": round(statistics.median(coarse_s) * 1000, 2),
            "median_detect_ms": round(statistics.median(detect2_s) * 1000, 2),
            "ratio_register_over_detect": round(coarse_ratio, 3),
        },
        "registered_frames": ok,
        "held_frames": held,
        "opencv": cv2.__version__,
        "machine": platform.machine(),
        "python": platform.python_version(),
    }
    print(
        "CPU time of the one working thread (median of per-frame best of "
        f"{args.repeat}); the replay source's pacing sleep is not counted"
    )
    print(
        f"one core, {len(frames)} frames {report['frame_size'][0]}x{report['frame_size'][1]}, "
        f"table image {table_px[0]}x{table_px[1]} at {table.px_per_mm:g} px/mm"
    )
    for k, v in med.items():
        print(f"  {k:<26} median {v:7.2f} ms  ({1000 / v:6.1f} fps)")
    print(
        f"  registration / detection   {ratio:.2f}x  (target <= {TARGET_RATIO}x: "
        f"{'met' if ratio <= TARGET_RATIO else 'NOT met'})"
    )
    print(
        f"  at {COARSE_PX_PER_MM} px/mm instead: register median "
        f"{statistics.median(coarse_s) * 1000:.2f} ms, ratio {coarse_ratio:.2f}x"
    )
    print(f"  registered {ok}, held {held} of {len(frames)} frames")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out.relative_to(REPO) if args.out.is_relative_to(REPO) else args.out}")
    print(f"reproduce: {COMMAND}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
