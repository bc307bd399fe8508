"""Bound beyond loopback: tokens for changes, seat links for private views, clear 4xx."""

from __future__ import annotations

import stat

from fastapi.testclient import TestClient

from companion.web.auth import ADMIN_LINK_FILE, write_admin_link


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_changes_need_a_token_and_reads_do_not(lan):
    client, _, admin = lan
    assert client.get("/api/health").status_code == 200
    state = client.get("/api/state").json()
    assert state["role"] == "spectator" and state["seat"] is None
    res = client.post("/api/session", json={"game": "plain"})
    assert res.status_code == 401 and "admin link" in res.json()["detail"]
    wrong = client.post("/api/session", json={"game": "plain"}, headers=bearer("guess"))
    assert wrong.status_code == 401 and "unknown token" in wrong.json()["detail"]
    # a token in an API URL is not taken (it would end up in logs and history)
    assert client.get(f"/api/state?token={admin}").json()["role"] == "spectator"
    assert client.post("/api/corrections", json={"note": "x"}).status_code == 401
    assert client.get("/api/session/links").status_code == 401
    ok = client.post("/api/session", json={"game": "plain"}, headers=bearer(admin))
    assert ok.status_code == 201
    assert client.get("/api/state", headers=bearer(admin)).json()["role"] == "admin"
    # ?seat= is a loopback convenience only: it shows a spectator nothing private
    assert client.get("/api/state?seat=0").json()["seat"] is None


def test_seat_links_give_each_seat_its_own_private_view_and_actions(lan):
    client, _, admin = lan
    res = client.post(
        "/api/session", json={"game": "plain", "seats": ["Ann", "Bob"]}, headers=bearer(admin)
    )
    links = res.json()["links"]
    assert [link["name"] for link in links] == ["Ann", "Bob"]
    ann, bob = links[0]["token"], links[1]["token"]
    assert links[0]["url"].endswith(f"/?token={ann}") and ann != bob

    assert (
        client.post(
            "/api/corrections", json={"memo": "I hold the Queen"}, headers=bearer(ann)
        ).status_code
        == 200
    )
    assert client.get("/api/state", headers=bearer(ann)).json()["view"]["memos"] == [
        "I hold the Queen"
    ]
    for who in ({"Authorization": f"Bearer {bob}"}, bearer(admin), {}):
        text = client.get("/api/state", headers=who).text
        text += client.get("/api/history", headers=who).text
        assert "Queen" not in text  # not even in the JSON
    assert "Queen" in client.get("/api/history", headers=bearer(ann)).text

    # a seat may act for itself, never as the admin
    forbidden = client.post("/api/session", json={"game": "plain"}, headers=bearer(bob))
    assert forbidden.status_code == 403 and "admin link" in forbidden.json()["detail"]
    # a new game makes the old seat links stale
    client.post("/api/session", json={"game": "plain"}, headers=bearer(admin))
    stale = client.get("/api/state", headers=bearer(ann))
    assert stale.status_code == 401 and "earlier game" in stale.json()["detail"]


def test_opening_a_link_sets_a_cookie_that_authorises_later_requests(lan):
    client, _, admin = lan
    page = client.get(f"/?token={admin}")
    assert page.status_code == 200
    assert "companion_token" in page.headers["set-cookie"]
    assert "httponly" in page.headers["set-cookie"].lower()
    assert client.get("/api/state").json()["role"] == "admin"  # the cookie, no header
    assert client.post("/api/session", json={"game": "plain"}).status_code == 201
    fresh = TestClient(client.app)
    assert "set-cookie" not in fresh.get("/?token=guess").headers


def test_admin_link_file_is_private(lan, tmp_path):
    _, runtime, admin = lan
    link = write_admin_link(runtime.settings, runtime.store, 8123)
    assert link.endswith(f":8123/?token={admin}") and link.startswith("http://")
    path = runtime.settings.data_dir / ADMIN_LINK_FILE
    assert path.read_text().strip() == link
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_admin_link_is_replaced_whole_never_emptied_in_place(lan):
    """A launcher waits for the file to appear and reads it at once (CI once read it empty
    when it was truncated and then written): a new link is renamed into place instead."""
    _, runtime, admin = lan
    path = runtime.settings.data_dir / ADMIN_LINK_FILE
    path.write_text("an older link\n")
    path.chmod(0o644)
    with path.open() as reader_of_the_old_file:
        write_admin_link(runtime.settings, runtime.store, 8123)
        assert reader_of_the_old_file.read() == "an older link\n"
    assert path.read_text().strip().endswith(f"token={admin}")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(p.name for p in path.parent.iterdir() if p.name.startswith(".admin")) == []
