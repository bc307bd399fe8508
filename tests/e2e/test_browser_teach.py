"""Teach my deck in real headless Chromium against the real server, phone-sized: the camera is a
`replay:` folder whose one photo the test swaps, the way a user puts one card after another
under the camera."""

from __future__ import annotations

import os
import time
from pathlib import Path

import cv2
import httpx
import numpy as np
import pytest

from companion.games.looking_glass.vision.library import Library, default_library_path
from companion.games.looking_glass.vision.sim_deck import taught_sim_deck
from companion.sim import effects
from tests.e2e.e2e_helpers import REPO, free_port, run_server, wait_until
from tests.polling import wait_for

FPS = 8


def camera_frames(base: str) -> int:
    frames: int = httpx.get(f"{base}/api/health", timeout=5).json()["camera"]["frames"]
    return frames


def put_under_camera(folder: Path, image: np.ndarray, base: str | None = None) -> None:
    """Swap the photo the camera shows; with a running server, wait until the camera has
    taken two frames since (the replay reads its file before pacing it, so on a busy machine
    the first may still show the old photo)."""
    staging = folder.parent / "staging.png"
    cv2.imwrite(str(staging), image)
    os.replace(staging, folder / "frame.png")
    if base is not None:
        before = camera_frames(base)  # the next frame's file may have been read already
        wait_for(lambda: camera_frames(base) >= before + 2, timeout=30)
    time.sleep(3 / FPS)


@pytest.mark.browser
def test_teach_a_card_with_the_live_camera_from_a_phone(browser, tmp_path):
    _, photos, _, _ = taught_sim_deck(31)
    camera = tmp_path / "camera"
    camera.mkdir()
    put_under_camera(camera, effects.table_texture(640, 480, np.random.default_rng(2), "wood"))
    data = tmp_path / "data"
    port = free_port()
    argv = [
        "-m",
        "companion",
        "serve",
        "--port",
        str(port),
        "--data-dir",
        str(data),
        "--game",
        "looking-glass",
        "--camera",
        f"replay:{camera}",
        "--fps",
        str(FPS),
    ]
    with run_server(argv, port) as server:
        page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=1)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.base + "/")
        page.wait_for_selector("body[data-ready='1']", timeout=15000)
        page.click(".lg-teach button:has-text('Teach my deck')", timeout=15000)
        page.wait_for_selector(".lg-ask:has-text('Show me The Caterpillar')")
        status = page.text_content(".lg-status")
        assert "does not know your cards" in status and "/" not in status  # no server path
        assert page.text_content(".lg-progress") == "0 of 10 cards taught"
        wait_until(page, "document.querySelector('.lg-teach-live').naturalWidth > 0", timeout=10000)

        # An empty table: the camera says why it cannot take the card.
        page.click(".lg-teach button:has-text('Capture')")
        page.wait_for_selector(".lg-teach .error:has-text('I see no card')")
        artifacts = REPO / "artifacts"
        artifacts.mkdir(exist_ok=True)
        page.locator(".lg-teach").screenshot(path=str(artifacts / "teach-show.png"))

        put_under_camera(camera, photos["caterpillar"], server.base)
        page.click(".lg-teach button:has-text('Capture')")
        page.wait_for_selector("h3:has-text('Is this The Caterpillar?')")
        wait_until(
            page, "document.querySelector('.lg-teach-preview').naturalWidth === 189", timeout=5000
        )
        assert not default_library_path(data).exists()  # nothing stored before Confirm
        page.locator(".lg-teach").screenshot(path=str(artifacts / "teach-preview.png"))
        assert "null" not in page.text_content(".lg-teach")
        page.click(".lg-teach button:has-text('Confirm')")
        page.wait_for_selector(".lg-ask:has-text('Show me The Mad Hatter')")
        assert page.text_content(".lg-progress") == "1 of 10 cards taught"
        assert Library.load(default_library_path(data)).ids == ["caterpillar"]
        # The table reads with the new library: its "not taught" note goes from the panel.
        wait_until(
            page,
            "!document.querySelector('.lg-status').textContent.includes('does not know')",
            timeout=5000,
        )

        # The next card, captured and retaken: nothing changes in the library.
        put_under_camera(camera, photos["mad-hatter"], server.base)
        page.click(".lg-teach button:has-text('Capture')")
        page.wait_for_selector("h3:has-text('Is this The Mad Hatter?')")
        page.click(".lg-teach button:has-text('Retake')")
        page.wait_for_selector(".lg-ask:has-text('Show me The Mad Hatter')")
        assert Library.load(default_library_path(data)).ids == ["caterpillar"]
        # Any card can be asked for out of order, from the list.
        page.click(".lg-teach summary")
        page.click(".lg-chips button[data-card='dodo']")
        page.wait_for_selector(".lg-ask:has-text('Show me The Dodo')")
        put_under_camera(camera, photos["dodo"], server.base)
        page.click(".lg-teach button:has-text('Capture')")
        page.wait_for_selector("h3:has-text('Is this The Dodo?')")
        page.click(".lg-teach button:has-text('Confirm')")
        page.wait_for_selector(".lg-ask:has-text('Show me The Mad Hatter')")
        assert page.text_content(".lg-progress") == "2 of 10 cards taught"
        assert Library.load(default_library_path(data)).ids == ["caterpillar", "dodo"]
        # portrait phone: nothing wider than the screen
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert not errors, errors
        page.close()
        server.stop()
