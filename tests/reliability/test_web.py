"""The web edge: numbers bounded, names and origins checked, tokens kept out of URLs and
logs, each audience numbered on its own, and actions only from the seat and game allowed."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time

import pytest
from fastapi.sse import ServerSentEvent
from fastapi.testclient import TestClient

from companion.errors import UserError
from companion.web.app import ScrubTokens
from companion.web.auth import Caller, show_admin_link
from companion.web.routes.events import MAX_SEQ, event_stream

HUGE = str(2**64)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_numbers_past_64_bits_are_4xx_at_the_edge(make_app):
    app, _ = make_app()
    client = TestClient(app, raise_server_exceptions=False)
    for path in (
        f"/api/history?after={HUGE}",
        f"/api/events/{HUGE}/snapshot.jpg",
        f"/api/history?after={MAX_SEQ + 1}",
        "/api/events/0/snapshot.jpg",
    ):
        res = client.get(path)
        assert res.status_code == 422 and res.json()["detail"], path
    assert client.get(f"/api/history?after={MAX_SEQ}").json() == []


def test_a_huge_last_event_id_starts_the_stream_afresh_instead_of_killing_it(make_app):
    _, runtime = make_app()

    async def first(n: int) -> list[ServerSentEvent]:
        stream = event_stream(runtime, Caller("local"), f"{runtime.session.id}:{'9' * 40}")
        out = [await anext(stream) for _ in range(n)]
        await stream.aclose()
        return out

    messages = asyncio.run(first(3))
    assert messages[0].retry == 2000
    assert [m.event for m in messages] == [None, "hello", "status"]  # alive, from now on
    assert messages[1].data["last_seq"] == 1


def test_error_bodies_share_one_documented_schema(make_app):
    app, _ = make_app()
    spec = TestClient(app).get("/openapi.json").json()
    assert set(spec["components"]["schemas"]["ErrorOut"]["properties"]) == {"detail", "rule"}
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            for status in ("400", "409", "422", "503"):
                ref = op["responses"][status]["content"]["application/json"]["schema"]["$ref"]
                assert ref.endswith("/ErrorOut"), (method, path, status)


def test_dns_rebinding_names_are_refused_and_our_own_names_answered(make_app):
    app, runtime = make_app()  # loopback: no tokens, ?seat=0 shows seat 0's private view
    runtime.correct({"memo": "my secret"}, 0)
    client = TestClient(app)
    evil = client.get("/api/state?seat=0", headers={"Host": "evil.example"})
    assert evil.status_code == 421 and "secret" not in evil.text
    assert client.get("/api/events", headers={"Host": "evil.example:8000"}).status_code == 421
    for host in (
        "127.0.0.1:8000",
        "[::1]:8000",
        "localhost",
        "companion.local",
        "192.168.1.20:8000",
        "companion",
    ):
        res = client.get("/api/state?seat=0", headers={"Host": host})
        assert res.status_code == 200 and "my secret" in res.text, host


def test_configured_names_are_answered(make_app):
    app, _ = make_app(**{"web.allowed_hosts": ["games.example.org"]})
    client = TestClient(app)
    assert client.get("/api/health", headers={"Host": "games.example.org"}).status_code == 200
    assert client.get("/api/health", headers={"Host": "other.example.org"}).status_code == 421


def test_cross_site_changes_are_refused_even_without_a_body(make_app):
    app, runtime = make_app()
    client = TestClient(app, base_url="http://127.0.0.1:8000")
    before = runtime.store.last_seq(runtime.session.id)
    for headers in (
        {"Origin": "http://evil.example"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Origin": "null"},
        {"Origin": "http://127.0.0.1:9999"},
    ):
        res = client.post("/api/corrections", headers=headers)  # no body, as a form sends
        assert res.status_code == 403 and "dashboard itself" in res.json()["detail"], headers
    assert runtime.store.last_seq(runtime.session.id) == before
    same = client.post(
        "/api/corrections",
        json={"note": "hi"},
        headers={"Origin": "http://127.0.0.1:8000", "Sec-Fetch-Site": "same-origin"},
    )
    assert same.status_code == 200


def test_every_response_carries_the_security_headers(make_app):
    app, _ = make_app()
    client = TestClient(app)
    for path in ("/", "/api/health", "/api/state", "/static/app.js", "/nowhere"):
        h = client.get(path).headers
        assert "frame-ancestors 'none'" in h["content-security-policy"], path
        assert h["referrer-policy"] == "no-referrer"
        assert h["x-frame-options"] == "DENY" and h["x-content-type-options"] == "nosniff"


def test_tokens_are_scrubbed_from_access_logs_and_the_admin_link_kept_off_the_journal(
    capsys, tmp_path
):
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("1.2.3.4:5", "GET", "/?token=s3cret&seat=1", "1.1", 200),
        None,
    )
    ScrubTokens().filter(record)
    assert "s3cret" not in record.getMessage() and "seat=1" in record.getMessage()
    show_admin_link("http://x/?token=s3cret", tmp_path / "admin-link.txt")
    out = capsys.readouterr().out  # pytest's stdout is no terminal, as systemd's is not
    assert "s3cret" not in out and "admin-link.txt" in out


def test_tokens_are_stored_hashed_and_found_by_hash(make_app):
    _, runtime = make_app(host="0.0.0.0")
    admin = runtime.store.admin_token()[0]
    with contextlib.closing(sqlite3.connect(runtime.store.path)) as db:
        rows = db.execute("SELECT hash FROM tokens WHERE role = 'admin'").fetchall()
    assert len(rows[0][0]) == 64 and admin not in rows[0][0]
    assert runtime.store.token(admin).role == "admin"
    assert runtime.store.token(admin[:-1]) is None and runtime.store.token(admin + "x") is None


def test_wrong_tokens_get_429_with_a_back_off(make_app):
    app, runtime = make_app(host="0.0.0.0")
    client = TestClient(app)
    codes = [client.get("/api/state", headers=bearer(f"guess{i}")).status_code for i in range(7)]
    assert codes[:5] == [401] * 5 and codes[5:] == [429, 429]
    res = client.get("/api/state", headers=bearer(runtime.store.admin_token()[0]))
    assert res.status_code == 429 and int(res.headers["retry-after"]) >= 1
    assert client.get("/api/state").status_code == 200  # reading as a spectator still works


def test_each_seat_is_rate_limited_on_its_own(make_app):
    app, runtime = make_app(host="0.0.0.0", **{"web.actions_per_s": 2})
    admin = runtime.store.admin_token()[0]
    client = TestClient(app)
    links = client.post(
        "/api/session", json={"game": "reflecto", "seats": ["A", "B"]}, headers=bearer(admin)
    ).json()["links"]
    a, b = links[0]["token"], links[1]["token"]
    codes = [
        client.post("/api/corrections", json={"memo": f"m{i}"}, headers=bearer(a)).status_code
        for i in range(12)
    ]
    assert codes[:8] == [200] * 8 and 429 in codes[8:]
    assert client.post("/api/corrections", json={"memo": "b"}, headers=bearer(b)).status_code == 200
    assert client.get("/api/state", headers=bearer(a)).status_code == 200  # reads are free


def test_each_audience_counts_its_events_without_gaps(make_app):
    app, runtime = make_app(host="0.0.0.0")
    admin = runtime.store.admin_token()[0]
    client = TestClient(app)
    links = client.post(
        "/api/session", json={"game": "reflecto", "seats": ["A", "B"]}, headers=bearer(admin)
    ).json()["links"]
    a, b = bearer(links[0]["token"]), bearer(links[1]["token"])
    client.post("/api/corrections", json={"note": "public 1"}, headers=a)
    seen_by_b = client.get("/api/state", headers=b).json()["last_seq"]
    for i in range(4):
        client.post("/api/corrections", json={"memo": f"private {i}"}, headers=a)
    client.post("/api/corrections", json={"note": "public 2"}, headers=b)
    for who in (b, {}, bearer(admin)):
        seqs = [e["seq"] for e in client.get("/api/history", headers=who).json()]
        assert seqs == list(range(1, len(seqs) + 1)) == [1, 2, 3]
        assert client.get("/api/state", headers=who).json()["last_seq"] == 3
    assert seen_by_b == 2  # A's four memos left no trace in B's numbers
    a_seqs = [e["seq"] for e in client.get("/api/history", headers=a).json()]
    assert a_seqs == list(range(1, 8))
    page = client.get("/api/history?after=3&limit=2", headers=a).json()
    assert [(e["seq"], e["payload"]["text"]) for e in page] == [(4, "private 1"), (5, "private 2")]


def test_a_game_s_endpoints_act_only_while_that_game_is_at_the_table(make_app):
    app, runtime = make_app()
    client = TestClient(app)
    before = runtime.store.last_seq(runtime.session.id)
    for path in (
        "/api/games/mirror-mansion/hint",
        "/api/games/looking-glass/hint",
        "/api/games/mirror-mansion/call-guesses",
    ):
        res = client.post(f"{path}?seat=0")
        assert res.status_code == 409 and "playing reflecto" in res.json()["detail"], path
    assert runtime.store.last_seq(runtime.session.id) == before


def test_only_the_left_hand_neighbour_names_the_forgotten_motif(tmp_path):
    """The rulebook: "Your left-hand neighbour reminds Victor and names one of the ten
    motifs"; no other seat may name it for them."""
    from companion.live.loop import Runtime
    from tests.reliability.helpers import small_settings

    rt = Runtime(small_settings(tmp_path, game="mirror-mansion"))
    rt.start_session("mirror-mansion", {}, ["A", "B", "C"])
    state = rt.game.state
    others = {state.active, 3 - state.active - state.neighbour}
    for seat in others:
        with pytest.raises(UserError, match="only the left-hand neighbour"):
            rt.correct({"kind": "name", "motif": "key"}, seat)
    rt.stop()


def test_a_still_from_a_lost_camera_is_refused_after_a_few_seconds(make_app):
    app, runtime = make_app()  # camera not running: its state is not ok
    client = TestClient(app)
    runtime.frames.set(b"\xff\xd8old")
    runtime.last_frame_at = time.time()
    fresh = client.get("/api/snapshot.jpg")
    assert fresh.status_code == 200 and float(fresh.headers["x-frame-age"]) < 3
    runtime.last_frame_at = time.time() - 60
    stale = client.get("/api/snapshot.jpg")
    assert stale.status_code == 503 and stale.json()["detail"].startswith("camera lost since ")


def test_every_change_needs_a_token_and_records_nothing_without_one(make_app):
    app, runtime = make_app(host="0.0.0.0")
    client = TestClient(app)
    spec = client.get("/openapi.json").json()
    before = runtime.store.last_seq(runtime.session.id)
    changes = [
        (m, path)
        for path, ops in spec["paths"].items()
        for m in ops
        if m in ("post", "put", "patch", "delete")
    ]
    assert len(changes) >= 10
    for method, path in changes:
        url = path.replace("{seq}", "1")
        game = path.split("/")[3] if path.startswith("/api/games/") else None
        for headers in ({}, bearer("not-a-token")):
            res = client.request(method.upper(), url, json={}, headers=headers)
            # another game's endpoints refuse first because that game is not being played
            allowed = {409} if game not in (None, runtime.session.game) else {401, 403, 429}
            assert res.status_code in allowed, (method, path, headers, res.status_code)
    assert runtime.store.last_seq(runtime.session.id) == before
