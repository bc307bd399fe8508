"""Looking Glass perception frames a second on the `sim` camera, per reader and per stage.

The live loop reads every frame it is given (`table.live.LookingGlassGame.perceive`: `read`
then `verify`); the target is >= 10 perception frames a second on one core, and `read` at most
2.5x the bare `ArucoDetector.detectMarkers` on the same frame (issue 37). Frames are the sim
camera's own (`FilmScene` on a fresh seed, its house deck taught from its own photos),
spread over the first round: the deal, picks with hands, the emptying glass.

Times are thread CPU time (other jobs on a shared machine do not count), medians over the
frames; fps = 1000 / median ms of read + verify. The staged reader's stages, each timed once
in the order `StagedReader.read` runs them:

    resize     the frame to the working width (`reader.WORK_WIDTH`)
    features   SIFT keypoints and Lab descriptors (`features.frame_features`)
    match      the ratio-tested matches to the taught faces (FLANN)
    instances  RANSAC homographies per card id, each checked by correlation
    places     one card per place, coverage (`stages.named_places`)
    fit_glass  the mirror line (`stages.fit_glass`)
    slots      the lattice and every free slot named by its upper half (`slots.fill_probed`)
    reading    layout and cards as the tracker consumes them

    .venv/bin/python benchmarks/looking_glass_live_fps.py [--frames 12] [--seed N]

`--loop N`: the live loop itself, as the `sim` camera drives it (`Runtime.process`: marker
detection and registration, the game's `perceive`, the annotated view, the tracker's
`update` and the commits), over the first N film frames of a fresh table, each frame once
(every film frame has its own noise, as a camera's frames do). Quiet frames (nothing over the
table, the glass as in the frame before) and busy ones (a hand, a blur, or the glass changed)
are reported apart, with the median and worst ms of each stage and the game's own stages
(`LookingGlassTable.perceive_ms`); fps = 1000 / median ms of a whole frame.

    taskset -c 0 .venv/bin/python benchmarks/looking_glass_live_fps.py --loop 340
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.looking_glass_devset import READERS  # noqa: E402


def _timed(fn: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """(result, thread CPU ms) of one call."""
    t0 = time.thread_time()
    out = fn(*args)
    return out, 1000 * (time.thread_time() - t0)


def staged_stages(reader: Any, image: np.ndarray) -> dict[str, float]:
    """ms per stage of one `StagedReader.read` (the same calls, one at a time)."""
    from companion.games.looking_glass.vision.reader import WORK_WIDTH, Stages, _resize
    from companion.games.looking_glass.vision.slots import fill_probed
    from companion.games.looking_glass.vision.stages import Plane, fit_glass, named_places
    from companion.vision.cards import features

    ms: dict[str, float] = {}
    sc = min(1.0, WORK_WIDTH / image.shape[1])
    small, ms["resize"] = _timed(lambda: image if sc == 1.0 else _resize(image, sc))
    (pts, desc), ms["features"] = _timed(features.frame_features, small)
    (q, t), ms["match"] = _timed(features._matches, desc, reader.index)
    inst, ms["instances"] = _timed(features.instances_of, small, pts, q, t, reader.index)
    found, ms["places"] = _timed(named_places, inst, reader.index)
    glass, ms["fit_glass"] = _timed(fit_glass, found, Plane())
    (glass, probes), ms["slots"] = _timed(fill_probed, small, glass, reader.lib, reader.max_cols)
    _, ms["reading"] = _timed(reader.reading, Stages(found, glass, sc, probes))
    return ms


def measure(seed: int, frames: int, readers: list[str], log=print) -> dict[str, Any]:
    from companion.games.looking_glass.table.live import FilmScene
    from companion.games.looking_glass.vision.choose import make_reader
    from companion.games.looking_glass.vision.reader import StagedReader

    scene = FilmScene(seed)
    film = scene.film(0)
    picks = [round(i * (len(film) - 1) / max(1, frames - 1)) for i in range(frames)]
    images = [film.render(i)[0] for i in picks]
    aruco = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    markers = [
        _timed(aruco.detectMarkers, cv2.cvtColor(im, cv2.COLOR_BGR2GRAY))[1] for im in images
    ]
    out: dict[str, Any] = {
        "frames": frames,
        "frame_size": list(images[0].shape[1::-1]),
        "detect_markers_ms_median": round(statistics.median(markers), 1),
    }
    for name in readers:
        reader = make_reader(scene.library, name)
        read_ms, stages = [], []
        for im in images:
            t0 = time.thread_time()
            reader.verify(im, reader.read(im), [])
            read_ms.append(1000 * (time.thread_time() - t0))
            if isinstance(reader, StagedReader):
                stages.append(staged_stages(reader, im))
        med = statistics.median(read_ms)
        row: dict[str, Any] = {
            "reader": type(reader).__name__,
            "read_ms_median": round(med, 1),
            "fps": round(1000 / med, 2),
            "read_over_detect_markers": round(med / statistics.median(markers), 2),
        }
        if stages:
            row["stages_ms_median"] = {
                k: round(statistics.median(s[k] for s in stages), 1) for k in stages[0]
            }
        out[name] = row
        log(f"  {name}: {json.dumps(row)}")
    return out


def _summary(rows: list[dict[str, float]]) -> dict[str, Any]:
    """Median and worst ms per stage, and fps from the median whole frame."""
    if not rows:
        return {"frames": 0}
    keys = sorted({k for r in rows for k in r}, key=lambda k: (k != "frame", k))
    out: dict[str, Any] = {"frames": len(rows)}
    for k in keys:
        vals = [r[k] for r in rows if k in r]
        out[k] = {"median": round(statistics.median(vals), 1), "worst": round(max(vals), 1)}
        if len(vals) < len(rows):  # a stage only some frames take (a full read)
            out[k]["frames"] = len(vals)
    out["fps"] = round(1000 / statistics.median(r["frame"] for r in rows), 1)
    return out


def measure_loop(seed: int, frames: int, reader: str = "auto", log=print) -> dict[str, Any]:
    """The live loop on the `sim` camera's first `frames` film frames (see the docstring)."""
    import tempfile

    from companion.camera.base import Frame
    from companion.config import load_settings
    from companion.live.loop import Runtime

    with tempfile.TemporaryDirectory() as tmp:
        settings = load_settings(
            None,
            {
                "data_dir": tmp,
                "game": "looking-glass",
                "camera.seed": seed,
                "camera.width": 1280,
                "camera.height": 960,
            },
            environ={},
        )
        rt = Runtime(settings).use_registrar()
        rt.game.reader_kind = reader
        scene = rt.sim_scene()
        # The scripted players' taps are built once, before the first frame's taps are due
        # (every round's film length): a start-up cost, not a frame's.
        assert scene.taps
        rows: dict[str, list[dict[str, float]]] = {"quiet": [], "busy": []}
        before = None
        for i in range(frames):
            t = i / 4.0  # the film's own 4 frames a second: each film frame once
            k, j = 0, i
            while j >= scene._length(k) + scene.gap:
                j -= scene._length(k) + scene.gap
                k += 1
            film = scene.film(k)
            shot = film.shots[j] if j < len(film) else None
            glass = None if shot is None else (repr(shot.glass), repr(shot.piles))
            busy = shot is not None and (
                shot.hand_mm is not None or shot.blur is not None or glass != before
            )
            before = glass
            image, truth = scene.frame(t)
            t0 = time.thread_time()
            rt.process(Frame(image=image, timestamp=t, index=i, truth=truth))
            row = {"frame": 1000 * (time.thread_time() - t0), **rt.frame_cpu_ms}
            row["track"] = row["frame"] - sum(rt.frame_cpu_ms.values())
            row.update({f"game.{n}": ms for n, ms in getattr(rt.game, "perceive_ms", {}).items()})
            rows["busy" if busy else "quiet"].append(row)
        events = rt.store.events(rt.session.id)
        out = {
            "frames": frames,
            "frame_size": list(image.shape[1::-1]),
            "all": _summary(rows["quiet"] + rows["busy"]),
            "quiet": _summary(rows["quiet"]),
            "busy": _summary(rows["busy"]),
            "events": dict(Counter(e.kind for e in events)),
            "game_errors": rt.game_errors,
        }
        rt.store.close()
    for name in ("all", "quiet", "busy"):
        log(f"  {name}: {json.dumps(out[name])}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=12, help="frames timed (default 12)")
    ap.add_argument("--seed", type=int, default=None, help="the sim table (default: fresh)")
    ap.add_argument("--readers", nargs="*", default=list(READERS), choices=READERS)
    ap.add_argument(
        "--loop", type=int, default=0, help="time the live loop over this many film frames"
    )
    ap.add_argument(
        "--loop-reader",
        choices=READERS,
        default=READERS[0],
        help="the reader live play uses in --loop (default auto: the light-border one for "
        "the sim camera's house deck)",
    )
    a = ap.parse_args(argv)
    if a.frames < 1 or a.loop < 0:
        print("error: --frames must be at least 1 and --loop at least 0", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    seed = a.seed if a.seed is not None else 2_000_000 + secrets.randbelow(10**9)
    if a.loop:
        command = (
            f".venv/bin/python benchmarks/looking_glass_live_fps.py --loop {a.loop} --seed {seed}"
            f" --loop-reader {a.loop_reader}"
        )
        print(command, flush=True)
        out = measure_loop(
            seed, a.loop, a.loop_reader, log=lambda m: print(m, file=sys.stderr, flush=True)
        )
        print(json.dumps({"command": command, "opencv": cv2.__version__, **out}, indent=1))
        return 0
    command = (
        f".venv/bin/python benchmarks/looking_glass_live_fps.py --frames {a.frames} "
        f"--seed {seed} --readers {' '.join(a.readers)}"
    )
    print(command, flush=True)
    out = measure(seed, a.frames, a.readers, log=lambda m: print(m, file=sys.stderr, flush=True))
    print(json.dumps({"command": command, "opencv": cv2.__version__, **out}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
