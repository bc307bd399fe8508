"""Checkpoints of the real games (issue 31, item 5): each game with live play plays its `sim`
demo through the real runtime (every frame registered, read, tracked, the scripted players'
taps committed), the server restarts on the same data dir, and the game comes back from its
checkpoint, not from replaying every event, equal to where it was and to a full replay."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.camera.base import Frame
from companion.config import load_settings
from companion.games import GAMES, get_game
from companion.live.loop import Runtime, code_version, load_table_game
from companion.store import Store

LIVE_GAMES = [gid for gid, info in GAMES.items() if info.module("live") is not None]
EVERY = 2
"""`store.checkpoint_every`: small, so a few real moves of each game reach a checkpoint."""
FILM_STEP_S = 0.25
"""One film frame (the films play 4 a second): no hold is skipped, as in lock-step."""
STILL_FRAMES = 6
"""Frames of an unchanged scene fed before skipping to its next change: more than the
trackers' 3 stable frames, and 1.25 s of film time, more than the 0.5 s they want a still
scene to last (they time it by the frames' stamps, not the wall clock)."""
STILL_EVERY = 8
"""Past that, one frame in this many is still fed: a film that waits for its game (Onirim's
waits until its deck is taught and each play is booked) would otherwise wait for frames the
feed never gives."""
MAX_FRAMES = 400
FILM_END = 4000
"""Film frames looked at, at most: a film gone still for good ends the feed (the test then
says how few events there were) instead of rendering for ever."""


def film_frames(scene: Any) -> Any:
    """The film frame by frame, each still stretch cut to `STILL_FRAMES` frames (a camera
    that reads slowly skips frames too; here only ones that show nothing new)."""
    same, before = 0, None
    for i in range(FILM_END):
        image, truth = scene.frame(i * FILM_STEP_S)
        now = repr({k: v for k, v in (truth or {}).items() if k not in ("t", "frame")})
        same = same + 1 if now == before else 0
        before = now
        if same < STILL_FRAMES or same % STILL_EVERY == 0:
            yield Frame(image=image, timestamp=i * FILM_STEP_S, index=i, truth=truth)


def settings_for(game_id: str, data_dir) -> Any:
    return load_settings(
        None,
        {
            "data_dir": str(data_dir),
            "game": game_id,
            "store.checkpoint_every": EVERY,
            "camera.width": 1280,
            "camera.height": 960,
        },
        environ={},
    )


def snapshot(rt: Runtime, seats: int) -> dict[str, Any]:
    """What a restart must keep: every seat's view, and the engine's state."""
    game = rt.game
    engine_state = getattr(game, "engine_state", getattr(game, "state", None))
    return {
        "views": {
            s: json.dumps(rt.state(s)["view"], sort_keys=True, default=str)
            for s in (None, *range(seats))
        },
        "engine": repr(engine_state),
    }


@pytest.mark.parametrize("game_id", LIVE_GAMES)
def test_a_real_game_comes_back_from_its_checkpoint(game_id, tmp_path):
    settings = settings_for(game_id, tmp_path)
    seats = get_game(game_id).min_players
    first = Runtime(settings)
    first.use_registrar()  # what start() does; frames are fed below
    scene = first.sim_scene()
    assert scene is not None, f"{game_id} has live play but no sim demo"
    for n, frame in enumerate(film_frames(scene)):
        first.process(frame)
        if first.changes.get()[1].last_seq > EVERY or n >= MAX_FRAMES:
            break
    last = first.changes.get()[1].last_seq
    assert last > EVERY, f"{game_id}: only {last} events in {n} frames"
    assert first.game_errors == 0, first.last_game_error
    saved = [seq for seq, _ in first.store.checkpoints(first.session.id, code_version())]
    assert saved and EVERY <= saved[0] <= last, f"{game_id}: no checkpoint kept"
    print(f"{game_id}: {n + 1} frames, {last} events, checkpoint after {saved[0]}")
    before = snapshot(first, seats)
    first.store.close()

    made: list[str] = []

    def counting(settings: Any, session: Any) -> Any:
        made.append(session.id)
        return load_table_game(settings, session)

    second = Runtime(settings, store=Store(settings.data_dir), table_game_factory=counting)
    assert made == [], "the game was rebuilt from every event, not from its checkpoint"
    assert second.game_errors == 0, second.last_game_error
    assert snapshot(second, seats) == before
    # and a replay of every event (no checkpoint) agrees with both
    replayed = load_table_game(settings, second.session)
    for event in second.store.events(second.session.id):
        replayed.apply_event(event)
    second.game = replayed
    assert snapshot(second, seats) == before
    second.store.close()
