"""The Looking Glass on the real `companion serve` with the `sim` camera (issue 30, issue 31 item
3): started from "New game" after another game's demo, it deals on the sim's own deck; and the
admin's "the table is right" is recorded, through the real HTTP route, as an event."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.e2e.e2e_helpers import free_port, run_server, serve_argv

DEMO_CAMERA = {"COMPANION_CAMERA__WIDTH": "1280", "COMPANION_CAMERA__HEIGHT": "960"}
"""The size `make run` films at: the Looking Glass film's cards and markers are drawn for it."""
DEAL_TIMEOUT_S = 150
"""The sim deck is taught (~10 s), then the film shows its first glass ~12 s in; a shared
machine may be several times slower."""


def _kinds(http: httpx.Client) -> list[str]:
    return [e["kind"] for e in http.get("/api/history").json()]


@pytest.mark.timeout(300)
def test_looking_glass_after_another_demo_deals_on_sim_and_the_table_is_right(tmp_path):
    port = free_port()
    argv = serve_argv(tmp_path / "data", port, "--game", "reflecto")
    with (
        run_server(argv, port, timeout=60, camera=DEMO_CAMERA) as server,
        httpx.Client(base_url=server.base, timeout=60) as http,
    ):
        started = http.post("/api/session", json={"game": "reflecto", "seats": ["Ann", "Bo"]})
        assert started.status_code == 201
        started = http.post("/api/session", json={"game": "looking-glass", "seats": ["Ann", "Bo"]})
        assert started.status_code == 201
        deadline = time.monotonic() + DEAL_TIMEOUT_S
        while "lg.deal" not in _kinds(http):
            view = http.get("/api/games/looking-glass/view").json()
            assert view["library"] is None, view["library"]  # the sim's deck is known
            assert time.monotonic() < deadline, f"never dealt: {_kinds(http)}"
            time.sleep(0.5)
        # The glass lies still for a while after the deal: the camera's steady view of it is
        # taken as the engine's. (A hand passing over: asked again a moment later.)
        for _ in range(20):
            res = http.post("/api/table-is-right")
            if res.status_code != 400:
                break
            assert "steady" in res.json()["detail"], res.json()
            time.sleep(0.3)
        assert res.status_code == 200, res.text
        history = http.get("/api/history").json()
        right = [e for e in history if e["kind"] == "table.right"]
        assert len(right) == 1 and len(right[0]["payload"]["board"]["glass"]) >= 24
        view = http.get("/api/games/looking-glass/view").json()
        assert view["library"] is None and len(view["legal"]) > 0
