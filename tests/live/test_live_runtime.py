"""The live loop on the real sim camera: perception, events, questions, faults, resume."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.live.loop import Runtime
from companion.store import Store
from tests.live.example_game import ExampleTableGame, make_table_game
from tests.polling import wait_for


def kinds(runtime: Runtime) -> list[str]:
    return [e.kind for e in runtime.store.events(runtime.session.id)]


def test_sim_frames_become_events_and_an_annotated_jpeg(settings):
    rt = Runtime(settings, table_game_factory=make_table_game).start()
    try:
        wait_for(lambda: "table.markers" in kinds(rt))
        health = rt.health()
        assert health["camera"]["state"] == "ok"
        table = {k: health["table"][k] for k in ("registered", "held", "markers_seen", "summary")}
        assert table == {
            "registered": True,
            "held": False,
            "markers_seen": [0, 1, 2, 3],
            "summary": "4/4",
        }
        assert health["perception"]["frames"] >= 3
        assert health["perception"]["ms"] > 0
        event = rt.store.events(rt.session.id)[-1]
        assert event.payload == {"markers": [0, 1, 2, 3]}
        assert rt.store.snapshot_file(event).stat().st_size > 1000  # the picture was kept
        _, jpeg = rt.frames.get()
        image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        assert image.shape[:2] == (360, 480)
        assert rt.state(None)["view"]["markers"] == [0, 1, 2, 3]
    finally:
        rt.stop()


class TopDownGame(ExampleTableGame):
    """The example game, keeping the top-down picture each registration brought it."""

    def __init__(self, session, uses_table_image: bool) -> None:
        super().__init__(session)
        self.uses_table_image = uses_table_image
        self.pictures: list[object] = []

    def perceive(self, frame, registration):
        self.pictures.append(registration.table_image)
        return super().perceive(frame, registration)


@pytest.mark.parametrize("uses", [False, True])
def test_the_top_down_picture_is_made_only_for_a_game_that_reads_it(settings, uses):
    rt = Runtime(settings, table_game_factory=lambda s, session: TopDownGame(session, uses))
    rt.start()
    try:
        wait_for(lambda: len(rt.game.pictures) >= 2)
        registered = rt.table_status.registered
        pictures = list(rt.game.pictures)
    finally:
        rt.stop()
        rt.store.close()
    assert registered
    if uses:
        assert all(p is not None and p.ndim == 3 for p in pictures[1:])
    else:
        assert all(p is None for p in pictures)


def test_unsure_camera_asks_and_the_answer_is_recorded(settings, blank_source):
    rt = Runtime(settings, source_factory=blank_source, table_game_factory=make_table_game).start()
    try:
        questions = wait_for(lambda: rt.questions(None))
        assert questions[0].id == "table-hidden"
        assert rt.health()["table"]["registered"] is False
        events = rt.correct({"question": "table-hidden", "answer": "wait"}, None)
        assert [e.kind for e in events] == ["answer"]
        assert rt.questions(None) == []
        assert rt.state(None)["view"]["answers"] == {"table-hidden": "wait"}
        # committed before it was applied and shown: it is in the store
        assert rt.store.events(rt.session.id)[-1] == events[0]
    finally:
        rt.stop()


def test_camera_lost_mid_stream_recovers_and_keeps_every_event(settings, flaky_factory):
    factory = flaky_factory(fail_after=8)
    rt = Runtime(settings, source_factory=factory, table_game_factory=make_table_game)
    rt.start()
    try:
        lost = wait_for(lambda: (h := rt.health())["camera"]["errors"] >= 1 and h)
        assert lost["camera"]["last_error"] == "camera unplugged (test)"
        assert lost["camera"]["state"] == "reconnecting" and lost["status"] == "reconnecting"
        note = rt.correct({"note": "during the outage"}, None)  # the loop still serves changes
        wait_for(lambda: factory.state["opens"] >= 2 and rt.health()["camera"]["state"] == "ok")
        frames_before = rt.perception.count
        wait_for(lambda: rt.perception.count > frames_before + 3)  # perception goes on
        stored = rt.store.events(rt.session.id)
        assert [e.kind for e in stored][:1] == ["session.started"]
        assert note[0] in stored
        assert "table.markers" in [e.kind for e in stored]
    finally:
        rt.stop()


def test_restart_replays_the_session_to_the_same_state(settings):
    first = Runtime(settings, table_game_factory=make_table_game)
    session = first.start_session("plain", {}, ["Ann", "Bob"])
    first.correct({"note": "hello"}, 0)
    first.correct({"memo": "my secret plan"}, 1)
    before = {seat: first.state(seat)["view"] for seat in (None, 0, 1)}
    assert before[1]["memos"] == ["my secret plan"]
    assert before[0]["memos"] == [] and before[None]["memos"] == []
    first.store.close()

    second = Runtime(settings, store=Store(settings.data_dir), table_game_factory=make_table_game)
    assert second.session.id == session.id
    assert {seat: second.state(seat)["view"] for seat in (None, 0, 1)} == before
    # each audience counts only what it sees: seat 1's memo is not a gap in anyone's numbers
    assert [second.state(seat)["last_seq"] for seat in (None, 0, 1)] == [2, 2, 3]


def test_a_new_game_at_the_table_ends_the_old_session(settings):
    rt = Runtime(settings, table_game_factory=make_table_game)
    old = rt.session
    new = rt.start_session("queen-alice", {}, ["Alice", "Bob"])
    assert new.id != old.id and rt.session == new
    assert rt.store.session(old.id).ended is not None
    assert kinds(rt) == ["session.started"]
    # a restart configured for another game starts fresh instead of resuming
    settings.game = "plain"
    again = Runtime(settings, table_game_factory=make_table_game)
    assert again.session.game == "plain" and again.session.id != new.id


def test_a_game_with_its_own_sim_scene_gets_the_sim_camera(settings):
    from tests.live.example_game import ExampleTableGame

    class SolidScene:
        def frame(self, t: float):
            return np.full((120, 160, 3), 200, np.uint8), {"t": t}

    class SceneGame(ExampleTableGame):
        def sim_scene(self, seed: int):
            return SolidScene()

    def factory(s, session):
        return SceneGame(session) if session.game == "queen-alice" else make_table_game(s, session)

    rt = Runtime(settings, table_game_factory=factory).start()
    try:
        wait_for(lambda: "DemoTableScene" in rt.health()["camera"]["source"])
        # The table must have been found once before there is a position to hold (a loaded
        # machine may not have read a frame of the demo table yet).
        wait_for(lambda: rt.health()["table"]["registered"], timeout=30)
        rt.start_session("queen-alice", {}, ["Alice", "Bob"])
        wait_for(lambda: "SolidScene" in rt.health()["camera"]["source"])
        table = wait_for(lambda: (t := rt.health()["table"])["markers_seen"] == [] and t)
        assert table["held"] is True  # the last good table position is kept meanwhile
    finally:
        rt.stop()


def test_a_replay_folder_runs_through_the_loop(settings, tmp_path):
    from companion.sim.demo_table import DemoTableScene

    folder = tmp_path / "shots"
    folder.mkdir()
    scene = DemoTableScene(settings.table, 3, width=480, height=360)
    for i in range(4):
        cv2.imwrite(str(folder / f"frame_{i:02d}.jpg"), scene.frame(i * 0.2)[0])
    settings.camera.source = f"replay:{folder}"
    rt = Runtime(settings, table_game_factory=make_table_game).start()
    try:
        wait_for(lambda: "table.markers" in kinds(rt))
        health = rt.health()
        assert health["camera"]["source"].startswith(f"replay:{folder}")
        assert health["table"]["markers_seen"] == [0, 1, 2, 3]
    finally:
        rt.stop()


def test_an_answered_question_is_not_asked_again_while_the_table_stays_hidden(
    settings, blank_source
):
    rt = Runtime(settings, source_factory=blank_source, table_game_factory=make_table_game).start()
    try:
        wait_for(lambda: rt.questions(None))
        rt.correct({"question": "table-hidden", "answer": "wait"}, None)
        seen = rt.perception.count
        wait_for(lambda: rt.perception.count > seen + 12)  # more than the frames to ask again
        assert rt.questions(None) == []
        kinds = [e.kind for e in rt.store.events(rt.session.id)]
        assert kinds.count("question") == 1
    finally:
        rt.stop()
