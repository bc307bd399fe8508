"""Mirror Mansion's routes: the body a button posts is the typed correction the game plays."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel

from companion.camera.base import Frame
from companion.config import load_settings
from companion.games.mirror_mansion.rules.engine import RULE_ONE_GUESS
from companion.live.conformance import Correct, Observe
from companion.live.loop import Runtime
from companion.live.table_game import Observation
from companion.web.app import create_app
from tests.games.mirror_mansion_table.helpers import BOARD, to_the_guesses

API = "/api/games/mirror-mansion"
CARDS = dict(zip([p for p in BOARD.positions if p != "W1"], BOARD.cards, strict=True))


@pytest.fixture
def client(tmp_path) -> Iterator[tuple[TestClient, Runtime]]:
    settings = load_settings(
        None, {"data_dir": str(tmp_path / "data"), "game": "mirror-mansion"}, environ={}
    )
    runtime = Runtime(settings)
    runtime.start_session("mirror-mansion", {}, ["A", "B", "C"])
    yield TestClient(create_app(settings, runtime)), runtime
    runtime.stop()


def test_the_cards_route_records_the_tapped_motifs(client) -> None:
    http, runtime = client
    res = http.post(f"{API}/cards?seat=0", json={"cards": CARDS})
    assert res.status_code == 200 and res.json()["cards"] == CARDS
    tapped = [e for e in runtime.store.events(runtime.session.id) if e.kind == "mm.cards"]
    assert [e.payload for e in tapped] == [{"cards": CARDS}]


def test_bodies_are_checked_at_the_edge_and_refusals_record_nothing(client) -> None:
    http, runtime = client
    before = runtime.store.last_seq(runtime.session.id)
    assert http.post(f"{API}/roll?seat=0", json={"value": 21}).status_code == 422
    assert http.post(f"{API}/roll?seat=0", json={"value": 3, "x": 1}).status_code == 422
    assert http.post(f"{API}/guess?seat=1", json={"jubilant": "yes"}).status_code == 422
    # A well-formed roll before the set-up: the rules refuse it (409), nothing is recorded.
    res = http.post(f"{API}/roll?seat=0", json={"value": 3})
    assert res.status_code == 409, res.text
    # The same correction as JSON on the shared route takes the same path.
    res = http.post("/api/corrections?seat=0", json={"kind": "roll", "value": 3})
    assert res.status_code == 409, res.text
    res = http.post("/api/corrections?seat=0", json={"roll": 3})
    assert res.status_code == 400 and "kind is one of" in res.json()["detail"]
    assert runtime.store.last_seq(runtime.session.id) == before


def test_the_schema_documents_each_body(client) -> None:
    http, _ = client
    paths = http.get("/openapi.json").json()["paths"]
    roll = paths[f"{API}/roll"]["post"]
    assert "requestBody" in roll and "die" in roll["description"]
    assert "requestBody" not in paths[f"{API}/call-guesses"]["post"]
    assert "requestBody" not in paths[f"{API}/hint"]["post"]
    assert set(paths[f"{API}/view"]) == {"get"}


def test_a_refusal_names_the_player_in_the_json(tmp_path) -> None:
    """The engine writes "seat 1" (a second guess); the 409 the phone reads names Bo, on the
    shared corrections route and on the game's own, and keeps the engine's rule."""
    settings = load_settings(
        None, {"data_dir": str(tmp_path / "data"), "game": "mirror-mansion"}, environ={}
    )
    runtime = Runtime(settings)  # no camera thread: frames are given to `process`
    runtime.use_registrar()
    try:
        runtime.start_session("mirror-mansion", {}, ["Ann", "Bo", "Cy"])
        http = TestClient(create_app(settings, runtime))
        shown: list[Observation] = []
        runtime.game.perceive = lambda frame, registration: shown[-1]  # type: ignore[method-assign]
        frames = 0

        def step(s: Observe | Correct) -> None:
            nonlocal frames
            if isinstance(s, Correct):
                seat = "" if s.seat is None else f"?seat={s.seat}"
                body = s.payload.model_dump() if isinstance(s.payload, BaseModel) else s.payload
                res = http.post(f"/api/corrections{seat}", json=body)
                assert res.status_code == 200, res.text
                return
            shown.append(s.observation)
            frames += 1
            image = np.zeros((120, 160, 3), np.uint8)
            runtime.process(Frame(image, 0.1 * frames, frames))

        for s in to_the_guesses():
            step(s)
        res = http.post("/api/corrections?seat=1", json={"kind": "guess", "jubilant": False})
        assert res.status_code == 409, res.text
        said = f"{RULE_ONE_GUESS}: Bo has no guess to make now"
        assert res.json() == {"detail": said, "rule": RULE_ONE_GUESS}
        # the typed route answers in the same words
        res = http.post("/api/games/mirror-mansion/guess?seat=1", json={"jubilant": False})
        assert res.status_code == 409 and res.json()["detail"] == said
    finally:
        runtime.stop()
