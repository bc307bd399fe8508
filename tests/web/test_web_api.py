"""The REST API on loopback (no tokens): health, games, sessions, state, history, questions."""

from __future__ import annotations

import cv2
import numpy as np

from tests.polling import wait_for


def test_health_reports_camera_perception_and_markers(local):
    client, runtime = local
    wait_for(lambda: client.get("/api/health").json()["perception"]["frames"] >= 3)
    h = client.get("/api/health").json()
    assert h["camera"]["state"] == "ok"
    assert h["camera"]["fps"] > 0
    assert h["perception"]["ms"] > 0
    stages = h["perception"]["stages_ms"]
    assert set(stages) == {"registration", "game", "view"} and stages["registration"] > 0
    assert h["table"]["markers_seen"] == [0, 1, 2, 3]
    assert h["version"] == "0.1.0"
    assert h["game"]["session"] == runtime.session.id


def test_games_list_says_which_are_playable_at_the_table(local):
    client, _ = local
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert set(games) >= {"looking-glass", "mirror-mansion", "reflecto"}
    assert games["mirror-mansion"]["min_players"] == 2
    assert games["mirror-mansion"]["players"] == "2-4 players"
    assert games["reflecto"]["players"] == "2 players"
    for g in games.values():
        assert isinstance(g["table"], bool) and isinstance(g["rules"], bool)


def test_a_wrong_player_count_is_refused_in_words(local):
    client, _ = local
    res = client.post("/api/session", json={"game": "onirim", "seats": ["Ann", "Bob"]})
    assert res.status_code == 400, res.text
    assert res.json()["detail"] == "Onirim (with the Mirrors) is a solo game: one player, not 2"


def test_new_session_state_and_history(local):
    client, runtime = local
    res = client.post("/api/session", json={"game": "queen-alice", "seats": ["Alice", "Bob"]})
    assert res.status_code == 201, res.text
    body = res.json()
    assert body["session"]["game"] == "queen-alice"
    assert body["links"][0]["url"].endswith("/?seat=0")
    assert body["links"][0]["token"] is None  # loopback: no tokens
    state = client.get("/api/state").json()
    assert state["session"]["id"] == body["session"]["id"] == runtime.session.id
    assert state["role"] == "local" and state["seat"] is None
    history = client.get("/api/history").json()
    assert history[0]["kind"] == "session.started"
    assert history[0]["payload"]["seats"] == ["Alice", "Bob"]


def test_corrections_questions_and_event_snapshots(local):
    client, _ = local
    wait_for(lambda: any(e["kind"] == "table.markers" for e in client.get("/api/history").json()))
    event = next(e for e in client.get("/api/history").json() if e["kind"] == "table.markers")
    pic = client.get(event["snapshot"])
    assert pic.status_code == 200 and pic.headers["content-type"] == "image/jpeg"
    assert cv2.imdecode(np.frombuffer(pic.content, np.uint8), cv2.IMREAD_COLOR) is not None
    assert client.get("/api/events/1/snapshot.jpg").status_code == 404  # session.started: none

    res = client.post("/api/corrections", json={"note": "Ann shuffled"})
    assert res.status_code == 200, res.text
    assert res.json()["events"][0]["payload"] == {"seat": None, "text": "Ann shuffled"}
    assert client.get("/api/state").json()["view"]["notes"][-1]["text"] == "Ann shuffled"
    assert client.get("/api/questions").json() == []
    bad = client.post("/api/corrections", json={"question": "nope", "answer": 1})
    assert bad.status_code == 400 and "no open question" in bad.json()["detail"]


def test_seat_parameter_on_loopback_selects_a_private_view(local):
    client, _ = local
    client.post("/api/session", json={"game": "plain", "seats": ["Ann", "Bob"]})
    assert client.post("/api/corrections?seat=1", json={"memo": "plan B"}).status_code == 200
    assert client.get("/api/state?seat=1").json()["view"]["memos"] == ["plan B"]
    assert client.get("/api/state?seat=0").json()["view"]["memos"] == []
    assert client.get("/api/state").json()["view"]["memos"] == []
    kinds0 = [e["kind"] for e in client.get("/api/history?seat=0").json()]
    kinds1 = [e["kind"] for e in client.get("/api/history?seat=1").json()]
    assert "memo" in kinds1 and "memo" not in kinds0
    assert client.get("/api/state?seat=7").status_code == 400


def test_newest_annotated_frame_and_dashboard_files(local):
    client, _ = local
    wait_for(lambda: client.get("/api/snapshot.jpg").status_code == 200)
    snap = client.get("/api/snapshot.jpg")
    assert snap.headers["content-type"] == "image/jpeg"
    assert "no-store" in snap.headers["cache-control"]
    page = client.get("/")
    assert page.status_code == 200 and '<img id="live"' in page.text
    for path in ("/static/app.js", "/static/api.js", "/static/live-view.js", "/static/style.css"):
        assert client.get(path).status_code == 200, path
    assert "cdn" not in page.text.lower()
    missing = client.get("/static/games/no-such-game.js")
    assert missing.status_code == 404 and "no dashboard panel" in missing.json()["detail"]
    assert client.get("/static/games/queen-alice.js").status_code == 200
    # a game's panel and its look come from the game's own folder; a game without a stylesheet
    # says so in the games list and its .css is a 404
    style = client.get("/static/games/reflecto.css")
    assert style.status_code == 200 and style.headers["content-type"].startswith("text/css")
    assert ".rf-board" in style.text and ".rf-board" not in client.get("/static/style.css").text
    listed = {g["id"]: g for g in client.get("/api/games").json()}
    assert listed["reflecto"]["panel_css"] and not listed["onirim"]["panel_css"]
    assert listed["onirim"]["panel"]
    assert client.get("/static/games/onirim.css").status_code == 404


def test_snapshot_before_any_frame_is_503_with_a_message(make_app):
    from fastapi.testclient import TestClient

    app, _ = make_app(camera=False)
    res = TestClient(app).get("/api/snapshot.jpg")
    assert res.status_code == 503 and res.json()["detail"] == "no camera frame yet"


def test_openapi_lists_every_endpoint_with_schemas(local):
    client, _ = local
    spec = client.get("/openapi.json").json()
    paths = set(spec["paths"])
    assert paths >= {
        "/api/health",
        "/api/state",
        "/api/events",
        "/api/stream.mjpg",
        "/api/snapshot.jpg",
        "/api/history",
        "/api/events/{seq}/snapshot.jpg",
        "/api/session",
        "/api/games",
        "/api/corrections",
        "/api/questions",
        "/api/session/links",
    }
    schemas = spec["components"]["schemas"]
    assert {"Health", "StateOut", "NewSession", "EventOut", "QuestionOut"} <= set(schemas)
    assert "text/event-stream" in spec["paths"]["/api/events"]["get"]["responses"]["200"]["content"]
