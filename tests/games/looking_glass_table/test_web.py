"""The Looking Glass plugs into the web app: its router, its panel, seat privacy, 4xx errors."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from companion.config import load_settings
from companion.games.looking_glass.table.live import LookingGlassTable
from companion.live.loop import Runtime
from companion.web.app import create_app


@pytest.fixture
def client(tmp_path):
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
    runtime = Runtime(settings)  # no camera started: the web side only
    yield TestClient(create_app(settings, runtime)), runtime
    runtime.stop()


def test_router_panel_and_private_hand(client):
    http, runtime = client
    assert isinstance(runtime.game, LookingGlassTable)
    panel = http.get("/static/games/looking-glass.js")
    assert panel.status_code == 200 and "export function mount" in panel.text
    http.post("/api/session", json={"game": "looking-glass", "seats": ["Ann", "Bo"]})
    view = http.get("/api/games/looking-glass/view?seat=0").json()
    assert view["panel"] == "looking-glass" and view["seats"] == ["Ann", "Bo"]
    assert view["my_hand"] is None and view["wins"] == [0, 0]
    assert "my_hand" not in http.get("/api/games/looking-glass/view").json()
    # No round yet: tapping a hand in is a user error (400), not a crash.
    res = http.post(
        "/api/games/looking-glass/hand?seat=0",
        json={"cards": ["dodo", "dodo", "tweedles", "caterpillar"]},
    )
    assert res.status_code == 400 and "deal" in res.json()["detail"]
    res = http.post("/api/games/looking-glass/hand?seat=0", json={"cards": ["dodo"]})
    assert res.status_code in (400, 422)
    res = http.post("/api/games/looking-glass/hint?seat=1", json={})
    assert res.status_code == 200 and "error" in res.json()["hint"]
