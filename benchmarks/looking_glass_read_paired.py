"""Looking Glass `read` of this tree against another commit's, in one process on the same frames.

A change to the reader's speed that must not change what it reads is judged here: every
frame of the speed benchmark's kind (`looking_glass_vision.py`'s: 1280×960 renders of one
taught table, the markers the registration would find in each) is read by both readers, and

- every field of both readings is compared to the last bit (cards, their scores, quads,
  centres, looks, provenance; layout, warnings, plane, axis, centre line, hidden cards),
  three ways: with the frame's markers given (as live play reads), from the pixels, and
  read + `verify` with the cards of the frame before remembered;
- both are timed alternately on one core (thread CPU time, best of 3 each), so the load of a
  shared machine falls on both alike: the ratio frame by frame is what to quote.

Only `companion/games/looking_glass/vision/read.py` and the shared code it calls that a speed
change may touch (`companion/vision/cards/identify.py`, `companion/vision/components.py`) are
taken from the base commit; the rest is this tree's,
so the two commits must not differ anywhere else under `companion/` (checked).

    .venv/bin/python benchmarks/looking_glass_read_paired.py --base main --seed-bases S1 S2
    [--serve-heap]   # the allocator as `companion serve` sets it (`limit_heap_growth`)
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

READ_PY = "companion/games/looking_glass/vision/read.py"
BASE_MODULES = {
    "companion/vision/components.py": "companion.vision.components",
    "companion/vision/cards/identify.py": "companion.vision.cards.identify",
    READ_PY: "companion.games.looking_glass.vision.read",
}
"""The files taken from the base commit, each loaded beside this tree's as `base_<stem>` and
the later ones importing the earlier ones' base versions (the reader's match functions live in
the shared card code, its hole finder's components in the shared vision code)."""


def base_module(rev: str) -> ModuleType:
    """The reader module of commit `rev` (with its `BASE_MODULES`), loaded beside this
    tree's."""
    differ = subprocess.run(
        ["git", "diff", "--name-only", rev, "--", "companion/"]
        + [f":!{path}" for path in BASE_MODULES],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    if differ:
        raise SystemExit(f"{rev} differs from this tree beyond {list(BASE_MODULES)}: {differ}")
    where = Path(tempfile.mkdtemp())
    renamed: dict[str, str] = {}
    module: ModuleType | None = None
    for path, name in BASE_MODULES.items():
        text = subprocess.run(
            ["git", "show", f"{rev}:{path}"], cwd=REPO, capture_output=True, text=True, check=True
        ).stdout
        for old, new in renamed.items():
            text = text.replace(f"from {old} import", f"from {new} import")
        base_name = "base_" + Path(path).stem
        (where / f"{base_name}.py").write_text(text)
        spec = importlib.util.spec_from_file_location(base_name, where / f"{base_name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[base_name] = module
        spec.loader.exec_module(module)
        renamed[name] = base_name
    assert module is not None
    return module


def differences(a: Any, b: Any, where: str = "") -> list[str]:
    """Where two readings differ, to the last bit (empty: the same)."""
    import numpy as np

    if dataclasses.is_dataclass(a) and dataclasses.is_dataclass(b):
        out = []
        for f in dataclasses.fields(a):
            out += differences(getattr(a, f.name), getattr(b, f.name, None), f"{where}.{f.name}")
        return out
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a_, b_ = np.asarray(a), np.asarray(b)
        same = a_.dtype == b_.dtype and a_.shape == b_.shape and a_.tobytes() == b_.tobytes()
        return [] if same else [where]
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            return [f"{where} keys"]
        return [d for k in a for d in differences(a[k], b[k], f"{where}[{k!r}]")]
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        if len(a) != len(b):
            return [f"{where} length {len(a)} != {len(b)}"]
        return [
            d
            for i, (x, y) in enumerate(zip(a, b, strict=True))
            for d in differences(x, y, f"{where}[{i}]")
        ]
    if isinstance(a, enum.Enum) and isinstance(b, enum.Enum):
        return [] if a.value == b.value else [where]
    if isinstance(a, float) and isinstance(b, float):
        return [] if a.hex() == b.hex() else [where]
    return [] if type(a) is type(b) and a == b else [where]


def frames_of(
    seed_base: int, n: int, cache: Path | None = None
) -> tuple[Any, list[tuple[Any, dict]]]:
    """The taught library and `n` 1280-wide frames, with their markers, of the speed
    benchmark's table of `seed_base` (`looking_glass_vision.speed`); kept in `cache`/<seed
    base>/ and read from there by a later run (teaching takes most of the time)."""
    import pickle

    from companion.games.looking_glass.vision.library import Library
    from companion.games.looking_glass.vision.render import render_scene
    from companion.games.looking_glass.vision.sim_deck import taught_sim_deck
    from companion.vision.markers import detect_markers

    where = None if cache is None else cache / str(seed_base)
    if where is not None and (where / f"frames_{n}.pkl").exists():
        lib = Library.load(where / "cards.npz")
        return lib, pickle.loads((where / f"frames_{n}.pkl").read_bytes())
    seed = seed_base + 50_000
    art, _, lib, _ = taught_sim_deck(seed)
    out: list[tuple[Any, dict]] = []
    k = 0
    while len(out) < n:
        img, _ = render_scene(seed, k, art)
        k += 1
        if img.shape[1] == 1280:
            out.append((img, detect_markers(img)))
    if where is not None:
        where.mkdir(parents=True, exist_ok=True)
        lib.save(where / "cards.npz")
        (where / f"frames_{n}.pkl").write_bytes(pickle.dumps(out))
        # (Read back as a later run will: the library round-trips through its file.)
        lib = Library.load(where / "cards.npz")
    return lib, out


def paired(
    base: ModuleType, seed_bases: list[int], n: int, cache: Path | None = None
) -> dict[str, Any]:
    import cv2

    from companion.games.looking_glass.vision.read import CONFIDENCE_THRESHOLD, Reader

    cv2.setNumThreads(1)
    ways = ("markers", "pixels", "verify")
    times: dict[str, dict[str, list[float]]] = {w: {"base": [], "head": []} for w in ways}
    differing: list[str] = []
    cards = 0
    for sb in seed_bases:
        lib, frames = frames_of(sb, n, cache)
        readers = {
            "base": base.Reader(lib, threshold=CONFIDENCE_THRESHOLD),
            "head": Reader(lib, threshold=CONFIDENCE_THRESHOLD),
        }
        memory: dict[str, list] = {"base": [], "head": []}
        for i, (img, markers) in enumerate(frames):
            got: dict[str, dict[str, Any]] = {"base": {}, "head": {}}
            best = {w: {"base": float("inf"), "head": float("inf")} for w in ways}
            for _ in range(3):
                for who, r in readers.items():
                    t = time.thread_time()
                    got[who]["markers"] = r.read(img, markers=markers)
                    best["markers"][who] = min(best["markers"][who], time.thread_time() - t)
                    t = time.thread_time()
                    got[who]["pixels"] = r.read(img)
                    best["pixels"][who] = min(best["pixels"][who], time.thread_time() - t)
                    t = time.thread_time()
                    got[who]["verify"] = r.verify(img, r.read(img, markers=markers), memory[who])
                    best["verify"][who] = min(best["verify"][who], time.thread_time() - t)
            for who in readers:
                memory[who] = got[who]["verify"].cards
            for w in ways:
                for who in readers:
                    times[w][who].append(best[w][who] * 1000)
                differing += [
                    f"{sb} frame {i} {w}: {d}" for d in differences(got["base"][w], got["head"][w])
                ]
            cards += len(got["head"]["markers"].cards)
    out: dict[str, Any] = {
        "seed_bases": seed_bases,
        "frames": len(times["markers"]["head"]),
        "cards_read_with_markers": cards,
        "fields_differing": len(differing),
        "differences": differing[:20],
    }
    for w in ways:
        b, h = times[w]["base"], times[w]["head"]
        out[w] = {
            "base_ms_median": round(statistics.median(b), 2),
            "head_ms_median": round(statistics.median(h), 2),
            "head_over_base_median_per_frame": round(
                statistics.median(y / x for x, y in zip(b, h, strict=True)), 4
            ),
            "head_over_base_summed": round(sum(h) / sum(b), 4),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="main", help="the commit whose read.py is compared")
    ap.add_argument("--seed-bases", type=int, nargs="+", required=True)
    ap.add_argument("--frames", type=int, default=30, help="frames per seed base")
    ap.add_argument(
        "--serve-heap",
        action="store_true",
        help="set glibc's allocator as `companion serve` does (`limit_heap_growth`): the "
        "large arrays of a read mapped and unmapped, as live play pays for them",
    )
    ap.add_argument(
        "--cache",
        default=None,
        help="keep each seed base's taught library and frames here, and read them from "
        "here in a later run",
    )
    ap.add_argument("--results", default=None, help="also write the numbers here (JSON)")
    a = ap.parse_args(argv)
    if a.serve_heap:
        from companion.web.serve import limit_heap_growth

        if not limit_heap_growth():
            raise SystemExit("--serve-heap: not glibc")
    out = {
        "command": ".venv/bin/python benchmarks/looking_glass_read_paired.py "
        + " ".join(argv if argv is not None else sys.argv[1:]),
        "head": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True
        ).stdout.strip(),
        "serve_heap": a.serve_heap,
        "clock": "thread CPU time, best of 3, base and head alternating, cv2.setNumThreads(1)",
        **paired(
            base_module(a.base),
            a.seed_bases,
            a.frames,
            None if a.cache is None else Path(a.cache),
        ),
    }
    print(json.dumps(out, indent=1))
    if a.results:
        Path(a.results).write_text(json.dumps(out, indent=1) + "\n")
    return 1 if out["fields_differing"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
