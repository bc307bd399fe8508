"""Mirror Mansion's routes: the body a button posts is the typed correction the game plays."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from companion.config import load_settings
from companion.live.loop import Runtime
from companion.web.app import create_app
from tests.games.mirror_mansion_table.helpers import BOARD

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
