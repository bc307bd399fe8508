"""A Looking Glass game the runtime rebuilds from the store after a refused write (a full disk)
still reads the `sim` camera's own deck: the scene is not built again for it, and the players
must not be told to teach a deck the demo brought (issue 30)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion.config import load_settings
from companion.live.loop import Runtime, StorageUnavailable
from companion.live.table_game import EventDraft
from companion.store import StorageError


def test_a_game_rebuilt_after_a_refused_write_keeps_the_sim_deck(tmp_path) -> None:
    settings = load_settings(
        None,
        {
            "data_dir": str(tmp_path / "data"),
            "game": "looking-glass",
            "camera.width": 480,
            "camera.height": 360,
        },
        environ={},
    )
    runtime = Runtime(settings)
    try:
        runtime.check_camera()  # opens the sim source: the game's own scene, its deck
        before = runtime.game
        deck = before.sim_library
        assert deck is not None
        store = runtime.store
        with store._lock:  # the test plays the disk: no page beyond the ones there are
            pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
            store._conn.execute(f"PRAGMA max_page_count = {pages}")
        sid = store.open_session().id
        with pytest.raises(StorageError):
            for _ in range(5000):
                store.append(sid, "filler", {})
        with pytest.raises(StorageUnavailable):  # a write that cannot fit: the game rebuilt
            runtime.submit([EventDraft("filler", {"pad": "x" * 20000})])
        rebuilt = runtime.game
        assert rebuilt is not before  # rebuilt from the store, without the scene
        image, _ = runtime.sim_scene().frame(12.0)  # the demo film with its glass dealt
        observation = rebuilt.perceive(SimpleNamespace(image=image), SimpleNamespace(ok=False))
        assert observation.data.error is None and len(observation.data.cards) >= 20
        assert rebuilt.sim_library is deck and rebuilt.view(None)["library"] is None
    finally:
        runtime.stop()
