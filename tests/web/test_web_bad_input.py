"""User mistakes get 4xx with a one-line message, never a 500 — on every mutating endpoint."""

from __future__ import annotations

import pytest

BAD_BODIES = [
    b"",
    b"not json",
    b"{",
    b"[1, 2, 3]",
    b'"a string"',
    b"null",
    b"{}",
    b'{"game": 5}',
    b'{"game": "no-such-game"}',
    b'{"game": "plain", "seats": "Ann"}',
    b'{"game": "plain", "seats": []}',
    b'{"game": "plain", "seats": ["A", "A"]}',
    b'{"game": "queen-alice", "seats": ["A", "B", "C", "D", "E"]}',
    b'{"game": "plain", "options": {"speed": "fast"}}',
    b'{"game": "plain", "options": [1]}',
    b'{"game": "plain", "unknown_field": 1}',
    b'{"question": null, "answer": {"deep": [1, 2, {"x": null}]}}',
    b'{"note": 12}',
    b'{"note": "' + b"x" * 5000 + b'"}',
    b'{"memo": "only seats have memos"}',
    b'{"a": ' * 200 + b"1" + b"}" * 200,
    b"\xff\xfe\x00garbage",
]


def mutating_routes(app) -> list[tuple[str, str]]:
    """Every state-changing operation the app documents (game routers included)."""
    found = []
    for path, operations in app.openapi()["paths"].items():
        for method in operations:
            if method.upper() in ("POST", "PUT", "PATCH", "DELETE"):
                found.append((method.upper(), path))
    return found


@pytest.mark.parametrize("host", ["127.0.0.1", "0.0.0.0"])
def test_garbage_to_every_mutating_endpoint_is_a_4xx_with_a_message(make_app, host):
    from fastapi.testclient import TestClient

    app, runtime = make_app(host=host, camera=False)
    client = TestClient(app, raise_server_exceptions=False)
    admin = runtime.store.admin_token()[0]
    routes = mutating_routes(app)
    assert ("POST", "/api/session") in routes and ("POST", "/api/corrections") in routes
    for method, path in routes:
        url = path.replace("{", "").replace("}", "")  # any path parameter gets a junk value
        for body in BAD_BODIES:
            for headers in (
                {},
                {"Authorization": f"Bearer {admin}"},
                {"Authorization": "Bearer x"},
            ):
                res = client.request(
                    method,
                    url,
                    content=body,
                    headers={**headers, "Content-Type": "application/json"},
                )
                assert 400 <= res.status_code < 500, (method, path, body[:40], res.status_code)
                detail = res.json()["detail"]
                assert isinstance(detail, str) and detail and "\n" not in detail, detail


def test_messages_name_the_problem(make_app):
    from fastapi.testclient import TestClient

    app, _ = make_app(camera=False)
    client = TestClient(app)
    cases = [
        (b"not json", 422, "not valid JSON"),
        (b'{"game": "chess"}', 400, "unknown game 'chess'"),
        (b'{"game": "queen-alice", "seats": ["A"]}', 400, "2-4 players, not 1"),
        (b'{"seats": ["A"]}', 422, "game: Field required"),
        (b'{"game": "plain", "colour": "red"}', 422, "colour: Extra inputs"),
    ]
    for body, status, message in cases:
        res = client.post(
            "/api/session", content=body, headers={"Content-Type": "application/json"}
        )
        assert res.status_code == status, (body, res.text)
        assert message in res.json()["detail"], res.json()
