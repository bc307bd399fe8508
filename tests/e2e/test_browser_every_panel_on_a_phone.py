"""Every game's panel on one phone, one "New game" after another on the same `sim` server, as a
family switches games at the table: no sideways scrolling, every tap target a finger wide, the
score and whose turn in type read from a metre, no server path or CLI hint on the page. The
server starts on another game, so the Looking Glass, started last, must still find the `sim`
camera's deck and be dealt (a new Looking Glass game used to stay on "card library not found:
…/cards.npz (teach your deck first: …)")."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.e2e.demo_page import DEMO_CAMERA, codes_on, new_game, no_horizontal_scroll, open_phone
from tests.e2e.e2e_helpers import free_port, run_server, serve_argv, wait_until

TAP = 40
"""The smallest tap target, in CSS pixels, a finger hits without hitting its neighbour."""
BIG_TYPE = 24
"""The score and turn line's smallest font size in CSS pixels: read from a metre on a phone."""
START_TIMEOUT_MS = 180_000
"""A new game on a loaded shared machine: the film changes, and the Looking Glass's deck loads."""

SMALL_TAP_TARGETS = """(tap) => {
  // Every visible control smaller than a finger; a box inside a label is tapped by its label.
  const out = [];
  const sel = 'button, a[href], select, input:not([type=hidden]), summary, [role=button]';
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
    const label = el.closest('label');
    const box = label ? label.getBoundingClientRect() : r;
    if (box.width < tap || box.height < tap) {
      const name = (el.textContent || el.value || '').trim().slice(0, 30);
      out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} '${name}' ` +
               `${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return out;
}"""

UNPAINTED_SWATCHES = """() => [...document.querySelectorAll('#overlay-legend li')]
  .filter(li => getComputedStyle(li, '::before').backgroundColor === 'rgb(136, 136, 136)')
  .map(li => li.textContent)"""
"""Legend entries left in the stylesheet's fallback grey: a colour no stylesheet defines."""

PLAYERS = {
    "queen-alice": "Ann, Bob",
    "reflecto": "Ann, Bob",
    "mirror-mansion": "Ann, Bob",
    "onirim": "Ann",
    "looking-glass": "Ann, Bob",
}
"""Each game with players it takes; the server starts on the first, the Looking Glass last."""
DRAWN_ON = ("reflecto", "mirror-mansion", "looking-glass")
"""The games whose reading is drawn on the live image: their marks come with a legend."""


VIEW = "/api/games/looking-glass/view"


def piles_of(view: dict) -> list[dict[str, str]]:
    """Each seat's sun and moon characters with their counts, as the page should write them."""
    return [
        {
            c["card"]: f"×{c['count']}" if c["count"] else "0"
            for t in ("sun", "moon")
            for c in pile[t]
        }
        for pile in view["piles"]
    ]


def piles_agree(page, base: str) -> bool:
    """Whether the page writes each sun and moon character's count under its picture as the
    server counts it (the film keeps picking: the page follows a moment later)."""
    expected = piles_of(httpx.get(base + VIEW, timeout=5).json())
    shown = page.evaluate(
        "[...document.querySelectorAll('.lg-pile')].map(b => Object.fromEntries("
        "[...b.querySelectorAll('.lg-pile-cell')]"
        ".map(c => [c.dataset.card, c.querySelector('b').textContent])))"
    )
    return len(shown) == len(expected) and all(
        {k: got.get(k) for k in want} == want for got, want in zip(shown, expected, strict=True)
    )


def check_the_page(page, game: str) -> None:
    assert no_horizontal_scroll(page), f"{game} scrolls sideways on a phone"
    small = page.evaluate(SMALL_TAP_TARGETS, TAP)
    assert not small, f"{game}: tap targets under {TAP} px: {small}"
    sizes = page.evaluate(
        "[...document.querySelectorAll('#panel .big')]"
        ".map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert sizes and min(sizes) >= BIG_TYPE, f"{game}: score and turn in {sizes} px type"
    if game in DRAWN_ON:
        legend = page.locator("#overlay-legend li").all_text_contents()
        assert len(legend) >= 2, f"{game}: the live image's marks without a legend: {legend}"
        unpainted = page.evaluate(UNPAINTED_SWATCHES)
        assert not unpainted, f"{game}: legend entries without their colour: {unpainted}"
    assert not codes_on(page), f"{game}: codes instead of words: {codes_on(page)}"
    text = page.inner_text("body")
    for hint in ("/tmp", ".npz", ".pickle", "companion ", "--", "Traceback"):
        assert hint not in text, f"{game}: {hint!r} on the page"


@pytest.mark.browser
@pytest.mark.timeout(900)  # five new games at a loaded machine's pace
def test_every_panel_fits_a_phone_and_the_looking_glass_is_dealt_after_another_game(
    browser, lg_data_dir
):
    port = free_port()
    games = list(PLAYERS)
    argv = serve_argv(lg_data_dir, port)  # the server starts on the first game, Queen Alice
    with run_server(argv, port, timeout=180, camera=DEMO_CAMERA) as server:
        titles = {g["id"]: g["title"] for g in httpx.get(f"{server.base}/api/games").json()}
        page, errors = open_phone(browser, server.base)
        for game in games:
            new_game(page, game, PLAYERS[game])
            wait_until(
                page,
                f"document.getElementById('panel-title').textContent === {titles[game]!r}"
                " && !!document.querySelector('#panel .big')",
                timeout=START_TIMEOUT_MS,
            )
            page.wait_for_selector("#links-box a", timeout=15000)  # the seat links, shown
            page.wait_for_timeout(2000)  # the first events drawn
            check_the_page(page, game)
        # the Looking Glass, started after four other games, is dealt from the sim's own deck
        page.wait_for_selector(".lg-glass .lg-card img", timeout=START_TIMEOUT_MS)
        view = httpx.get(server.base + VIEW, timeout=5).json()
        assert view["round"] == 1 and view["glass"] and view["library"] is None
        check_the_page(page, "looking-glass")
        # each player's score pile: the rulebook's rows of five, a picture and a count a character
        deadline = time.monotonic() + 15
        while not piles_agree(page, server.base):
            assert time.monotonic() < deadline, "the piles' counts differ from the server's"
            time.sleep(0.5)
        assert page.locator(".lg-pile-cell").count() == page.locator(".lg-pile-cell img").count()
        columns = page.eval_on_selector_all(
            ".lg-pile-grid",
            "gs => gs.map(g => getComputedStyle(g).gridTemplateColumns.split(' ').length)",
        )
        assert columns == [5, 5]
        assert not errors, errors
        server.stop()
