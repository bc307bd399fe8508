"""The staged (feature) reader on one deck of the committed development set, in `make test`.

Deck 700 of `benchmarks/devset/looking_glass`: dark borders, painted art, cards overlapping
in rows, score piles beside the glass, a glare. The light-border reader finds almost none of
these cards; the staged reader must keep finding them, naming none wrongly. Floors: what the
reader read when they were set (FLOOR_MEASURED), less about two cards.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))

from benchmarks.looking_glass_devset import COMMITTED, read_set, score  # noqa: E402

DECK = "700"
FLOOR_MEASURED = {
    "cards": 112,
    "cards_identified": 93,
    "cards_wrong": 0,
    "phantom_cards": 0,
    "teach_photos_accepted": 11,
}
"""`read --reader staged` on deck 700 when the floors were set (with the glass lattice of
`vision/slots.py`; before it, 68 of 112)."""
CARDS_FLOOR = 91


def test_the_staged_reader_finds_the_cards_of_a_dark_bordered_deck(tmp_path):
    manifest = json.loads((COMMITTED / "manifest.json").read_text())
    manifest["decks"] = [d for d in manifest["decks"] if str(d["seed"]) == DECK]
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    (tmp_path / DECK).symlink_to(COMMITTED / DECK)
    got = score(tmp_path, read_set(tmp_path, progress=False, reader="staged"))
    assert got["cards_wrong"] == 0
    assert got["cards_identified"] >= CARDS_FLOOR, got
    assert got["phantom_cards"] <= FLOOR_MEASURED["phantom_cards"] + 1, got
