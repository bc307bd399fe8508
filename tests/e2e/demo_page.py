"""What the demo-round browser tests share: the demo's pace, "New game" from the page, and the
screenshots of a game's page at phone and laptop size (kept in artifacts/) with the checks a
family would make of them: no sideways scrolling on a phone, no empty half-screen on a laptop."""

from __future__ import annotations

import re
from functools import cache

import httpx

from tests.e2e.e2e_helpers import REPO

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
DEMO_PACE = {
    "COMPANION_CAMERA__SIM_PACE": "2",
    "COMPANION_CAMERA__FPS": "8",
    "COMPANION_CAMERA__SIM_LOCKSTEP": "true",
}
"""The demo up to twice as fast, through the settings alone (nothing reaches into a game):
a quarter of a film second a frame, each film frame (4 a second) read by perception, which
the film waits for (lock-step), so a loaded machine plays slower instead of skipping holds."""
DEMO_CAMERA = {"COMPANION_CAMERA__WIDTH": "1280", "COMPANION_CAMERA__HEIGHT": "960", **DEMO_PACE}
"""The size `make run` films at: the films' cards and markers are drawn for it."""
SERVER_START_S = 120
"""A demo server builds its first film before it answers: the Queen Alice table at
`DEMO_CAMERA` size took 30 s on a loaded shared machine, where the 30 s `run_server` gives
by default ran out before the server answered."""

FILLED_HALVES = """() => {
  // How much of each half of the first screen (below the status bar) the cards fill: the
  // camera, the panel, the log. The gaps between two cards count as filled.
  const w = window.innerWidth, h = window.innerHeight;
  const top = Math.max(0, document.querySelector('main').getBoundingClientRect().top);
  return [0.25 * w, 0.75 * w].map((x) => {
    const spans = [...document.querySelectorAll('main > .card')]
      .map((c) => c.getBoundingClientRect())
      .filter((r) => r.width > 0 && r.left <= x && r.right >= x)
      .map((r) => [Math.max(top, r.top), Math.min(h, r.bottom)])
      .filter(([a, b]) => b > a)
      .sort((p, q) => p[0] - q[0]);
    let filled = 0, end = top;
    for (const [a, b] of spans) {
      const from = a - end <= 16 ? end : a;
      if (b > from) filled += b - Math.max(from, end);
      end = Math.max(end, b);
    }
    return filled / (h - top);
  });
}"""
HALF_FILLED = 0.6
"""A laptop's first screen: each half at least this much filled by cards, not bare page."""


def open_phone(browser, base: str):
    """A phone-sized page on the dashboard, ready, and the list its script errors go to."""
    page = browser.new_page(viewport=PHONE, device_scale_factor=1)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']", timeout=30000)
    return page, errors


def new_game(page, game: str, seats: str) -> None:
    page.select_option("#game-select", game)
    page.fill("#seat-names", seats)
    page.click("#new-game button[type=submit]")


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


CODES = (
    (r"\bseat \d+\b", "a seat number"),
    (r"\b[AB]-r\d+-c\d+\b", "a Looking Glass place code"),
    (r"\b[NESW]\d\b", "a Mirror Mansion place code"),
    (r"\b[AB]\d\b", "a Reflecto screen id"),
    (r"\b[a-z]+_[a-z0-9_]+\b", "an internal name"),
)
"""What a player should never read: the companion's own names for seats, places and screens."""


@cache
def component_ids() -> frozenset[str]:
    """The models' ids spelt as codes ("teddy-bear", "mad-hatter", "red-sun"): the page says
    a motif, a character or a card kind in words ("the teddy bear", "the red Sun"). Queen
    Alice's cards are left out: its models give them no names yet (placeholders)."""
    from companion.games.looking_glass.rules.deck import load_deck
    from companion.games.mirror_mansion.rules.board import load_board
    from companion.games.onirim.rules import ENGINE as ONIRIM

    ids = [c.id for c in load_deck().characters] + list(load_board().cards)
    return frozenset(i for i in [*ids, *ONIRIM.deck.kinds] if "-" in i)


def codes_on(page) -> list[str]:
    """Each seat number, place code, screen id or component id the page shows as text."""
    return codes_in(page.inner_text("body"))


def codes_in(text: str) -> list[str]:
    """Each seat number, place code, screen id or component id in `text`."""
    found = [f"{what}: {m}" for pattern, what in CODES for m in re.findall(pattern, text)]
    words = set(re.findall(r"\b[a-z]+(?:-[a-z]+)+\b", text))
    return found + [f"a component id: {i}" for i in sorted(words & component_ids())]


def screenshots(browser, base: str, name: str) -> None:
    """artifacts/<name>-phone.png (the whole page) and <name>-laptop.png (the first screen),
    after a game's demo: neither shows a seat number, a code or an id instead of words."""
    artifacts = REPO / "artifacts"
    artifacts.mkdir(exist_ok=True)
    for size, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
        page = browser.new_page(viewport=viewport, device_scale_factor=1)
        page.goto(base + "/")
        page.wait_for_selector("body[data-ready='1']", timeout=15000)
        page.wait_for_selector("#panel .big", timeout=15000)
        page.wait_for_timeout(500)  # pictures decoded
        assert no_horizontal_scroll(page), f"{name} scrolls sideways at {size} size"
        assert not codes_on(page), f"{name}: {codes_on(page)}"
        if size == "laptop":
            filled = page.evaluate(FILLED_HALVES)
            assert min(filled) >= HALF_FILLED, f"{name} on a laptop: halves filled {filled}"
        page.screenshot(path=str(artifacts / f"{name}-{size}.png"), full_page=size == "phone")
        page.close()


def kinds(base: str) -> list[str]:
    """The kinds of this game's events, as the page's history has them."""
    return [e["kind"] for e in httpx.get(f"{base}/api/history", timeout=5).json()]
