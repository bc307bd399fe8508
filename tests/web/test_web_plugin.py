"""A game plugs in through its live.py: table game, router under /api/games/<id>, panel.

The example table game stands in for a game package here; the registry entry is the only
thing patched (the real games plug in the same way when their live.py lands).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import pytest
from fastapi.testclient import TestClient

from companion.games import GAMES, GameInfo
from companion.live.loop import Runtime
from companion.web.app import create_app
from tests.live import example_game
from tests.web.test_web_bad_input import BAD_BODIES
from tests.web.web_helpers import make_settings


@dataclass(frozen=True)
class PluggedGame(GameInfo):
    def module(self, part: str) -> ModuleType | None:
        return example_game if part == "live" else None


@pytest.fixture
def plugged(monkeypatch, tmp_path):
    monkeypatch.setitem(GAMES, "example", PluggedGame("example", "Example", "example", 1, 4))
    made = []

    def make(host: str = "127.0.0.1") -> tuple[TestClient, Runtime]:
        settings = make_settings(tmp_path, host)
        settings.game = "example"
        runtime = Runtime(settings)  # the default factory finds live.make_table_game
        made.append(runtime)
        return TestClient(create_app(settings, runtime)), runtime

    yield make
    for rt in made:
        rt.stop()


def test_live_module_is_found_and_its_router_and_panel_are_served(plugged):
    client, runtime = plugged()
    assert isinstance(runtime.game, example_game.ExampleTableGame)
    entry = next(g for g in client.get("/api/games").json() if g["id"] == "example")
    assert entry["table"] is True and entry["panel"] is True
    panel = client.get("/static/games/example.js")
    assert panel.status_code == 200 and "export function mount" in panel.text
    assert "javascript" in panel.headers["content-type"]
    assert "/api/games/example/memos" in client.get("/openapi.json").json()["paths"]

    client.post("/api/session", json={"game": "example", "seats": ["Ann", "Bob"]})
    res = client.post("/api/games/example/memos?seat=1", json={"text": "hide the key"})
    assert res.status_code == 200 and res.json() == ["hide the key"]
    assert client.get("/api/games/example/memos?seat=0").json() == []
    assert client.get("/api/games/example/memos").json() == []
    # the router's change went through the store like any other
    assert runtime.store.events(runtime.session.id)[-1].visibility == "seat:1"
    bad = client.post("/api/session", json={"game": "example", "options": {"x": 1}})
    assert bad.status_code == 400 and "unknown options: x" in bad.json()["detail"]


def test_game_routes_reuse_the_platform_auth_beyond_loopback(plugged):
    client, runtime = plugged("0.0.0.0")
    admin = {"Authorization": f"Bearer {runtime.store.admin_token()[0]}"}
    links = client.post(
        "/api/session", json={"game": "example", "seats": ["Ann", "Bob"]}, headers=admin
    ).json()["links"]
    assert client.post("/api/games/example/memos", json={"text": "x"}).status_code == 401
    ann = {"Authorization": f"Bearer {links[0]['token']}"}
    assert client.post("/api/games/example/memos", json={"text": "mine"}, headers=ann).json() == [
        "mine"
    ]
    bob = {"Authorization": f"Bearer {links[1]['token']}"}
    assert client.get("/api/games/example/memos", headers=bob).json() == []
    for body in BAD_BODIES:
        for headers in ({}, ann):
            res = client.post(
                "/api/games/example/memos",
                content=body,
                headers={**headers, "Content-Type": "application/json"},
            )
            assert 400 <= res.status_code < 500 and isinstance(res.json()["detail"], str)


@dataclass(frozen=True)
class BrokenGame(GameInfo):
    def module(self, part: str) -> ModuleType | None:
        raise ImportError(f"broken {part}.py (test)")


def test_a_game_whose_files_fail_to_import_does_not_take_the_dashboard_down(monkeypatch, tmp_path):
    monkeypatch.setitem(GAMES, "broken", BrokenGame("broken", "Broken", "broken", 1, 2))
    settings = make_settings(tmp_path)
    client = TestClient(create_app(settings, Runtime(settings)))  # the app starts
    entry = next(g for g in client.get("/api/games").json() if g["id"] == "broken")
    assert entry["table"] is False and entry["rules"] is False and entry["panel"] is False
    assert client.get("/static/games/broken.js").status_code == 404
    res = client.post("/api/session", json={"game": "broken"})
    assert res.status_code == 400 and "live.py failed" in res.json()["detail"]
