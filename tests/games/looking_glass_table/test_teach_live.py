"""Teaching the deck with the live camera through the web app: a real runtime whose camera is
a `replay:` folder showing one rendered teach photo at a time, the real card finder and library.
"""

from __future__ import annotations

import base64
import os
import time

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from companion.config import load_settings
from companion.games.looking_glass.vision.library import Library, default_library_path
from companion.games.looking_glass.vision.teach import teach_images
from companion.live.loop import Runtime
from companion.sim import effects
from companion.web.app import create_app
from tests.games.looking_glass_table.helpers import teach_photos
from tests.polling import wait_for

SEED = 23
FPS = 10.0
API = "/api/games/looking-glass"


@pytest.fixture(scope="module")
def deck():
    return teach_photos(SEED)  # (art, one usable teach photo per card id)


class Table:
    """The camera's view: a replay folder whose one photo the test swaps."""

    def __init__(self, tmp_path, host: str = "127.0.0.1") -> None:
        self.folder = tmp_path / "camera"
        self.folder.mkdir()
        self.staging = tmp_path / "staging.png"
        self.show(effects.table_texture(640, 480, np.random.default_rng(1), "wood"))
        self.settings = load_settings(
            None,
            {
                "data_dir": str(tmp_path / "data"),
                "game": "looking-glass",
                "web.host": host,
                "camera.source": f"replay:{self.folder}",
                "camera.fps": FPS,
            },
            environ={},
        )
        self.runtime = Runtime(self.settings).start()
        self.http = TestClient(create_app(self.settings, self.runtime))

    def show(self, image: np.ndarray) -> None:
        """Put a photo in front of the camera and wait until it has surely been read: two
        frames the camera delivers after the swap (the replay reads a file before pacing it,
        so the first may still be the old photo on a busy machine), then the loop's pace."""
        cv2.imwrite(str(self.staging), image)
        os.replace(self.staging, self.folder / "frame.png")
        runtime = getattr(self, "runtime", None)
        if runtime is not None:
            for _ in range(2):
                assert runtime.next_frame(30.0) is not None, "the camera stopped"
        time.sleep(3 / FPS)

    @property
    def library_path(self):
        return default_library_path(self.settings.data_dir)


@pytest.fixture
def table(tmp_path):
    t = Table(tmp_path)
    yield t
    t.runtime.stop()


def preview_of(res) -> np.ndarray:
    url = res.json()["pending"]["preview"]
    assert url.startswith("data:image/jpeg;base64,")
    img = cv2.imdecode(
        np.frombuffer(base64.b64decode(url.split(",", 1)[1]), np.uint8), cv2.IMREAD_COLOR
    )
    assert img is not None
    return img


def likeness(a: np.ndarray, b: np.ndarray) -> float:
    """Correlation of two cards' art (inside the border every card shares) at a common size."""
    g = [
        cv2.resize(x, (63, 88), interpolation=cv2.INTER_AREA)[9:79, 7:56].astype(np.float32).ravel()
        for x in (a, b)
    ]
    g = [(x - x.mean()) / (x.std() + 1e-6) for x in g]
    return float(np.mean(g[0] * g[1]))


def most_like(image: np.ndarray, art) -> str:
    return max(art, key=lambda cid: likeness(image, art[cid].face))


def test_cards_shown_to_the_camera_go_into_the_library_the_table_reads_with(table, deck):
    art, photos = deck
    http = table.http
    # Nothing taught yet: the table says so.
    assert "does not know your cards" in wait_for(lambda: http.get(f"{API}/view").json()["library"])
    assert http.get(f"{API}/teach").json()["active"] is False
    started = http.post(f"{API}/teach", json={"brawlers": False}).json()
    assert started["total"] == 10 and started["taught"] == 0
    assert started["next"] == {"id": "caterpillar", "name": "The Caterpillar"}
    assert "lion" not in [c["id"] for c in started["cards"]]

    table.show(photos["caterpillar"])
    res = http.post(f"{API}/teach/capture", json={})
    assert res.status_code == 200, res.text
    shot = res.json()["pending"]
    assert shot["card"] == "caterpillar" and shot["warning"] is None
    preview = preview_of(res)
    assert preview.shape[:2] == (264, 189)  # 63×88 mm at 3 px/mm: nothing taught yet
    # The preview is the card itself, upright: more like its own face than any other card's.
    assert likeness(preview, art["caterpillar"].face) > 0.6
    assert most_like(preview, art) == "caterpillar"
    assert likeness(cv2.rotate(preview, cv2.ROTATE_180), art["caterpillar"].face) < 0.6
    assert not table.library_path.exists()  # not stored before it is confirmed

    done = http.post(f"{API}/teach/confirm", json={"card": "caterpillar"}).json()
    assert done["taught"] == 1 and done["pending"] is None
    assert done["next"]["id"] == "mad-hatter"
    assert Library.load(table.library_path).ids == ["caterpillar"]
    # The running game reads with the new library at once, no restart.
    wait_for(lambda: http.get(f"{API}/view").json()["library"] is None)

    table.show(photos["mad-hatter"])
    assert http.post(f"{API}/teach/capture", json={"card": "mad-hatter"}).status_code == 200
    done = http.post(f"{API}/teach/confirm", json={}).json()
    assert done["taught"] == 2 and [c["taught"] for c in done["cards"]][:3] == [True, True, False]
    # What the live camera taught is what the CLI teaches from the same photos.
    live = Library.load(table.library_path)
    cli, _ = teach_images({cid: photos[cid] for cid in ("caterpillar", "mad-hatter")})
    assert live.ids == cli.ids and live.shape == cli.shape
    # (up to OpenCV's 1/32-px warp rounding: the live frame is kept cropped around its card)
    assert np.allclose(live.templates, cli.templates, atol=0.05)


def test_a_whole_deck_taught_live_is_the_deck_the_cli_teaches(table, deck):
    _, photos = deck
    http = table.http
    http.post(f"{API}/teach", json={"brawlers": False})
    shown = []
    while (nxt := http.get(f"{API}/teach").json()["next"]) is not None:
        table.show(photos[nxt["id"]])
        assert http.post(f"{API}/teach/capture", json={}).status_code == 200
        status = http.post(f"{API}/teach/confirm", json={}).json()
        shown.append(nxt["id"])
        assert status["taught"] == len(shown)
    assert status["done"] is True and status["taught"] == status["total"] == 10
    res = http.post(f"{API}/teach/capture", json={})
    assert res.status_code == 409 and "every card is taught" in res.json()["detail"]
    cli, cli_warnings = teach_images({cid: photos[cid] for cid in shown})
    live = Library.load(table.library_path)
    assert live.ids == cli.ids and live.shape == cli.shape  # measured from all ten frames
    # (up to OpenCV's 1/32-px warp rounding: the live frame is kept cropped around its card)
    assert np.allclose(live.templates, cli.templates, atol=0.05)
    # the same look-alike pairs as the CLI finds, called by their names
    assert len(status["warnings"]) == len(cli_warnings)


def test_a_frame_without_exactly_one_card_is_refused_with_the_reason(table, deck):
    _, photos = deck
    http = table.http
    assert http.post(f"{API}/teach/capture", json={}).status_code == 409  # no session yet
    http.post(f"{API}/teach", json={"brawlers": True})
    res = http.post(f"{API}/teach/capture", json={})  # the empty wooden table
    assert res.status_code == 409 and res.json()["detail"].startswith("I see no card")
    one = photos["dodo"]
    table.show(np.hstack([one, one]))
    res = http.post(f"{API}/teach/capture", json={"card": "dodo"})
    assert res.status_code == 409
    assert res.json()["detail"] == "I see 2 cards: show one at a time"
    status = http.get(f"{API}/teach").json()
    assert status["pending"] is None and status["total"] == 12 and status["taught"] == 0


def test_bad_steps_are_one_line_4xx(table, deck):
    _, photos = deck
    http = table.http
    assert http.post(f"{API}/teach/retake").status_code == 409
    http.post(f"{API}/teach", json={"brawlers": False})
    res = http.post(f"{API}/teach/capture", json={"card": "cheshire"})
    assert res.status_code == 400 and "unknown card id 'cheshire'" in res.json()["detail"]
    res = http.post(f"{API}/teach/capture", json={"card": "lion"})
    assert res.status_code == 400 and "Brawlers" in res.json()["detail"]
    res = http.post(f"{API}/teach/confirm", json={"card": "dodo"})
    assert res.status_code == 409
    assert res.json()["detail"] == "nothing captured for The Dodo: capture the card first"
    assert http.post(f"{API}/teach", json={"brawlers": "lots"}).status_code == 422
    assert http.post(f"{API}/teach", json={}).status_code == 422
    assert http.post(f"{API}/teach/capture", json={"card": 5}).status_code == 422
    assert http.post(f"{API}/teach/confirm", json={"card": "cheshire"}).status_code == 400

    table.show(photos["dodo"])
    assert http.post(f"{API}/teach/capture", json={"card": "dodo"}).status_code == 200
    res = http.post(f"{API}/teach/confirm", json={"card": "tweedles"})
    assert res.status_code == 409 and "The Dodo, not Tweedle Dee" in res.json()["detail"]
    assert http.post(f"{API}/teach/retake").json()["pending"] is None
    assert http.post(f"{API}/teach/confirm", json={}).status_code == 409  # retaken: gone
    assert not table.library_path.exists()


def test_reteaching_one_card_keeps_the_others_and_warns_of_look_alikes(table, deck):
    _, photos = deck
    http = table.http
    before, _ = teach_images(photos)  # the whole deck, taught earlier with the CLI
    before.save(table.library_path)
    http.post(f"{API}/teach", json={"brawlers": True})
    # The Caterpillar shown as the Mad Hatter: the companion asks whether it is the right card.
    table.show(photos["caterpillar"])
    shot = http.post(f"{API}/teach/capture", json={"card": "mad-hatter"}).json()["pending"]
    assert "looks like The Caterpillar" in shot["warning"]
    done = http.post(f"{API}/teach/confirm", json={}).json()
    assert any("The Caterpillar and The Mad Hatter look alike" in w for w in done["warnings"])
    after = Library.load(table.library_path)
    assert after.ids == before.ids and after.shape == before.shape  # cut the way the rest were
    for i, cid in enumerate(before.ids):
        same = np.allclose(after.templates[i], before.templates[i])
        assert same == (cid != "mad-hatter"), cid


def test_teaching_needs_the_admin_link_beyond_loopback(tmp_path, deck):
    table = Table(tmp_path, host="0.0.0.0")
    try:
        http = table.http
        admin = {"Authorization": f"Bearer {table.runtime.store.admin_token()[0]}"}
        res = http.post(f"{API}/teach", json={"brawlers": False})
        assert res.status_code == 401 and "admin link" in res.json()["detail"]
        runtime = table.runtime  # the table's game: its seat links (without a new game)
        seat = runtime.store.seat_tokens(runtime.session.id, len(runtime.session.seats))[0]
        res = http.post(
            f"{API}/teach", json={"brawlers": False}, headers={"Authorization": f"Bearer {seat}"}
        )
        assert res.status_code == 403
        assert http.post(f"{API}/teach", json={"brawlers": False}, headers=admin).status_code == 200
        for step in ("capture", "confirm", "retake"):
            assert http.post(f"{API}/teach/{step}", json={}).status_code == 401, step
        assert http.get(f"{API}/teach").json()["active"] is True  # progress is public
    finally:
        table.runtime.stop()
