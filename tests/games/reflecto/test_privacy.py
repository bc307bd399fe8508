"""What leaves the server for a seat: never the other seat's word, letters or mirrors."""

from __future__ import annotations

import json

from companion.games.reflecto.rules.actions import Step
from companion.games.reflecto.rules.sight import mirror_sight

from .helpers import ENGINE, letter, mirror, placed, started


def test_views_hide_the_other_word_letters_and_mirrors() -> None:
    state = started("PIANO", "LEMON")
    for seat, own, other in ((0, "PIANO", "LEMON"), (1, "LEMON", "PIANO"), (None, None, None)):
        view = ENGINE.view(state, seat)
        text = json.dumps(view)
        hidden = [w for w in ("PIANO", "LEMON") if w != own] if other is None else [other]
        for word in hidden:
            assert word not in text, (seat, word)
        for item in view["screens"]:
            if item["owner"] != seat:
                assert set(item) == {"id", "owner", "cell"}, item
            else:
                assert item["kind"] in ("letter", "mirror")
        if seat is not None:
            assert view["word"] == own
    assert ENGINE.view(state, None)["word_length"] == [5, 5]  # told, as the rulebook says


def test_removed_letters_are_public_and_both_words_show_at_the_end() -> None:
    state = placed(
        letter("A0", 0, None, "P"),
        letter("A1", 1, (6, 1), "I"),
        letter("B0", 0, (3, 3), "L"),
        words=("PI", "LEMON"),
    )
    view = ENGINE.view(state, 1)
    assert view["removed"][0] == [{"id": "A0", "text": "P", "rank": 0}]
    assert "I" not in [s.get("text") for s in view["screens"] if s["owner"] == 0]
    assert view["words"] is None and view["sightings"] is None
    over = ENGINE.apply(state, ENGINE.legal_actions(state)[0])  # A1 lifted: the last letter
    assert over.winner == 0
    end = ENGINE.view(over, 1)
    assert end["words"] == ["PI", "LEMON"]
    assert all("text" in s for s in end["screens"])


def test_mirror_sight_shows_the_letter_right_in_front_and_is_recorded() -> None:
    # Player 0's mirror at (4, 2) stands behind B0 at (3, 2) as seen from player 0;
    # player 1's mirror at (2, 5) stands behind A1 at (3, 5) as seen from player 1.
    state = placed(
        mirror("A6", (4, 1)),
        letter("A1", 1, (3, 5), "I"),
        letter("A0", 0, (0, 0), "P"),
        letter("B0", 0, (3, 2), "L"),
        mirror("B6", (2, 5)),
        letter("B1", 1, (5, 1), "E"),
    )
    assert [(s.mirror, s.screen.id) for s in mirror_sight(state, 1)] == [("B6", "A1")]
    assert mirror_sight(state, 0) == []  # B1 stands beyond A6, not in front
    moved = ENGINE.apply(state, Step("A6", (4, 2)))
    assert [(s.mirror, s.screen.text) for s in mirror_sight(moved, 0)] == [("A6", "L")]
    assert [(s.seat, s.screen) for s in moved.sightings] == [(0, "B0"), (1, "A1")]
    assert ENGINE.view(moved, 0)["sightings"] is None  # revealed only after the game


def test_the_mirror_sight_option_shows_a_seat_its_own_mirrors_only() -> None:
    state = started(mirror_sight=[1])
    state = ENGINE.apply(state, Step("A2", (1, 2)))  # B's mirrors stand far away: nothing yet
    assert ENGINE.view(state, 1)["sight"] == [] and "sight" not in ENGINE.view(state, 0)
    assert "sight" not in ENGINE.view(state, None)
