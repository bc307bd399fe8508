"""The capture thread: one-slot buffer, reconnect with backoff, status, clean stop."""

from __future__ import annotations

import threading
import time

import numpy as np

from companion.camera import CameraError, CaptureThread, EndOfStream, Frame, FrameSource


class ScriptedSource(FrameSource):
    """A real FrameSource whose n-th connection fails after `fail_after[n]` frames.

    `gate` (when given) holds the second `open()` until the test releases it, so the
    "reconnecting" state can be observed without racing the thread.
    """

    def __init__(
        self,
        log: dict,
        fail_after: list[int | None],
        period: float = 0.002,
        gate: threading.Event | None = None,
        end_after: int | None = None,
    ) -> None:
        self.log, self.fail_after, self.period, self.gate = log, fail_after, period, gate
        self.end_after = end_after
        self.conn = log.setdefault("connections", 0)
        log["connections"] += 1
        self.n = 0

    def open(self) -> None:
        if self.conn >= 1 and self.gate is not None:
            self.gate.wait(5)

    def read(self) -> Frame:
        limit = self.fail_after[min(self.conn, len(self.fail_after) - 1)]
        if limit is not None and self.n >= limit:
            raise CameraError("camera unplugged")
        if self.end_after is not None and self.n >= self.end_after:
            raise EndOfStream("replay: end")
        time.sleep(self.period)
        self.n += 1
        self.log["produced"] = self.log.get("produced", 0) + 1
        img = np.full((4, 4, 3), self.n % 256, np.uint8)
        return Frame(img, time.monotonic(), self.n - 1, {"conn": self.conn})

    def close(self) -> None:
        self.log["closed"] = self.log.get("closed", 0) + 1

    def describe(self) -> str:
        return "scripted"


def _wait_state(cap: CaptureThread, state: str, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while cap.status().state != state:
        assert time.monotonic() < deadline, f"never reached {state}: {cap.status()}"
        time.sleep(0.005)


def test_recovers_after_a_failure_and_indices_keep_rising():
    log: dict = {}
    gate = threading.Event()
    cap = CaptureThread(
        lambda: ScriptedSource(log, [5, None], gate=gate), name="t", backoff_initial_s=0.01
    )
    with cap:
        seen = []
        last = -1
        # Up to the first connection's last frame (index 4): the thread keeps only the newest
        # frame, so a reader slower than the 2 ms frames may skip some, never the last.
        while last < 4:
            f = cap.wait_for_frame(last, timeout=2)
            assert f is not None
            seen.append(f)
            last = f.index
        assert [f.index for f in seen] == sorted({f.index for f in seen})
        assert last == 4
        _wait_state(cap, "reconnecting")
        st = cap.status()
        assert st.errors == 1 and st.last_error == "camera unplugged"
        assert log["closed"] >= 1  # the broken source was closed before reopening
        gate.set()
        f = cap.wait_for_frame(last, timeout=2)
        assert f is not None and f.truth == {"conn": 1}
        assert f.index > last  # the thread's count continues across the reconnect
        _wait_state(cap, "ok")
        assert cap.status().errors == 1
    assert cap.status().state == "stopped"
    assert log["connections"] == 2


def test_backoff_doubles_between_failed_opens():
    opens: list[float] = []

    class NeverOpens(ScriptedSource):
        def open(self) -> None:
            opens.append(time.monotonic())
            raise CameraError("camera opencv:7 not found or busy")

    cap = CaptureThread(lambda: NeverOpens({}, [None]), backoff_initial_s=0.02, backoff_max_s=0.08)
    with cap:
        deadline = time.monotonic() + 3
        while len(opens) < 5 and time.monotonic() < deadline:
            time.sleep(0.01)
        st = cap.status()
    gaps = np.diff(opens[:5])
    assert len(gaps) == 4
    assert gaps[0] >= 0.015 and gaps[1] >= 0.035  # 0.02, then 0.04, ...
    assert gaps[3] < 0.3  # ... capped at 0.08
    assert st.state == "reconnecting" and st.frames == 0 and st.errors >= 4
    assert "not found or busy" in st.last_error


def test_slow_viewer_never_slows_the_camera():
    """A viewer that reads nothing for a while does not hold the camera back, and when it
    reads again it gets the newest frame, not the one after its last (no timing bound: the
    producer is only required to keep going, however slowly a loaded machine runs it)."""
    log: dict = {}
    cap = CaptureThread(lambda: ScriptedSource(log, [None], period=0.002), name="fast")
    with cap:
        first = cap.wait_for_frame(-1, timeout=2)
        assert first is not None
        before = cap.status().frames
        deadline = time.monotonic() + 30
        while cap.status().frames < before + 20 and time.monotonic() < deadline:
            time.sleep(0.01)  # a viewer busy with something else: it reads nothing
        after = cap.status().frames
        newest = cap.wait_for_frame(first.index, timeout=2)
    assert after - before >= 20  # the producer kept going while nobody read
    assert newest is not None and newest.index >= first.index + 20  # the newest, not the next
    assert cap.status().fps > 0


def test_many_viewers_share_frames():
    log: dict = {}
    got: dict[int, list[int]] = {0: [], 1: [], 2: []}
    cap = CaptureThread(lambda: ScriptedSource(log, [None], period=0.01)).start()

    def viewer(k: int) -> None:
        last = -1
        while len(got[k]) < 5:
            f = cap.wait_for_frame(last, timeout=2)
            assert f is not None
            got[k].append(f.index)
            last = f.index

    threads = [threading.Thread(target=viewer, args=(k,)) for k in got]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    cap.stop()
    for indices in got.values():
        assert len(indices) == 5 and indices == sorted(set(indices))


def test_end_of_replay_stops_and_wakes_viewers():
    log: dict = {}
    cap = CaptureThread(lambda: ScriptedSource(log, [None], end_after=3)).start()
    _wait_state(cap, "stopped")
    assert cap.status().frames == 3
    assert cap.wait_for_frame(2, timeout=1) is None  # no newer frame will ever come
    cap.stop()
    assert log["connections"] == 1  # not retried


def test_a_hung_read_is_reported():
    release = threading.Event()

    class Hangs(ScriptedSource):
        def read(self) -> Frame:
            if self.n >= 2:
                release.wait(5)
            return super().read()

    cap = CaptureThread(lambda: Hangs({}, [None]), stall_after_s=0.1).start()
    try:
        assert cap.wait_for_frame(0, timeout=2) is not None
        time.sleep(0.3)
        st = cap.status()
        assert st.state == "reconnecting" and "no frame for" in st.last_error
    finally:
        release.set()
        cap.stop()


def test_stop_joins_the_thread():
    before = set(threading.enumerate())
    cap = CaptureThread(lambda: ScriptedSource({}, [None])).start()
    assert cap.wait_for_frame(-1, timeout=2) is not None
    started = set(threading.enumerate()) - before
    assert started  # the capture thread, as the process sees it
    cap.stop()
    assert not any(t.is_alive() for t in started)
    assert cap.status().state == "stopped"
    assert cap.wait_for_frame(10**9, timeout=0.5) is None


def _frames_read_by_a_slow_reader(lockstep: bool) -> list[int]:
    """The sim film's frame numbers a reader slower than the camera is given."""
    from companion.camera.sim import SimSource

    class Film:
        def frame(self, t: float):
            return np.zeros((2, 2, 3), np.uint8), {"t": t}

    capture = CaptureThread(lambda: SimSource(Film(), fps=200, lockstep=lockstep)).start()
    try:
        got, last = [], -1
        for _ in range(8):
            frame = capture.wait_for_frame(last, timeout=3)
            got.append(round(frame.truth["t"] * 200))
            last = frame.index
            time.sleep(0.03)  # perception: slower than the camera's 5 ms a frame
        return got
    finally:
        capture.stop()


def test_a_lockstep_sim_waits_for_its_reader_and_skips_no_frame():
    stepped = _frames_read_by_a_slow_reader(lockstep=True)
    assert stepped == list(range(stepped[0], stepped[0] + 8))
    free = _frames_read_by_a_slow_reader(lockstep=False)
    assert free[-1] - free[0] > 8  # a camera that does not wait: the slow reader skips
