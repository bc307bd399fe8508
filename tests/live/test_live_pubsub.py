"""`Latest`: one producer, many viewers, from threads and coroutines."""

from __future__ import annotations

import asyncio
import threading
import time

from companion.live.pubsub import Latest


def test_thread_waiter_wakes_on_set_and_times_out():
    latest: Latest[str] = Latest()
    assert latest.wait(0, timeout=0.05) == (0, None)
    threading.Timer(0.05, latest.set, args=("a",)).start()
    t0 = time.monotonic()
    assert latest.wait(0, timeout=5) == (1, "a")
    assert time.monotonic() - t0 < 2
    assert latest.wait(0, timeout=0.01) == (1, "a")  # already newer: no wait


def test_async_waiters_all_see_the_newest_value_and_close_wakes_them():
    latest: Latest[int] = Latest()

    async def scenario() -> list[tuple[int, int | None]]:
        waiters = [asyncio.create_task(latest.wait_async(0, timeout=5)) for _ in range(3)]
        await asyncio.sleep(0.05)
        threading.Thread(target=lambda: (latest.set(1), latest.set(2))).start()
        got = await asyncio.gather(*waiters)
        closer = asyncio.create_task(latest.wait_async(2, timeout=5))
        await asyncio.sleep(0.05)
        latest.close()
        got.append(await asyncio.wait_for(closer, 1))
        return got

    got = asyncio.run(scenario())
    assert all(v in ((1, 1), (2, 2)) for v in got[:3])
    assert got[3] == (2, 2)
    assert latest.closed
