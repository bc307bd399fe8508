"""The route of "the table is right": admin only; the game's own answer otherwise."""

from __future__ import annotations


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_only_the_admin_may_declare_the_table_right(lan) -> None:
    client, _, admin = lan
    res = client.post(
        "/api/session", json={"game": "reflecto", "seats": ["Ann", "Bob"]}, headers=bearer(admin)
    )
    assert res.status_code == 201
    ann = client.get("/api/session/links", headers=bearer(admin)).json()[0]["token"]
    seat = client.post("/api/corrections", json={"table_is_right": True}, headers=bearer(ann))
    assert seat.status_code == 403 and "admin link" in seat.json()["detail"]
    assert client.post("/api/table-is-right", headers=bearer(ann)).status_code == 403
    assert client.post("/api/table-is-right").status_code == 401
    # The example game does not offer it: the admin gets its one-line refusal, not a 500.
    res = client.post("/api/table-is-right", headers=bearer(admin))
    assert res.status_code == 400 and "a correction needs" in res.json()["detail"]
