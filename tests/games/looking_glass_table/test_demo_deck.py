"""A new Looking Glass game on the `sim` camera knows the simulated deck, and without a
taught deck on a real camera the players read why in their own words."""

from __future__ import annotations

import pickle

import numpy as np

from companion.camera import Frame
from companion.config import load_settings
from companion.games.looking_glass.table.live import make_table_game
from companion.store import Session

SESSION = Session("s", "looking-glass", {}, ["Ann", "Bob"], 0.0)


def _frame() -> Frame:
    return Frame(np.full((360, 480, 3), 120, np.uint8), 0.0, 0)


def test_frames_read_before_the_sim_scene_is_built_know_its_deck(tmp_path):
    # After another game (or rebuilt from the store after a refused write), the perception
    # thread reads the new game's first frames before the runtime hands it the simulated
    # scene: the sim camera's deck is known all the same, and it is the scene's own.
    settings = load_settings(None, {"data_dir": str(tmp_path), "camera.seed": 7}, environ={})
    game = make_table_game(settings, SESSION)
    game.perceive(_frame(), None)
    assert game.view(None)["library"] is None
    read_with = game.sim_library
    assert read_with is not None and game.sim_scene(7).library is read_with


def test_a_missing_deck_is_told_in_players_words_without_a_server_path(tmp_path):
    settings = load_settings(
        None, {"data_dir": str(tmp_path), "camera.source": "opencv:0"}, environ={}
    )
    game = make_table_game(settings, SESSION)
    game.perceive(_frame(), None)
    note = game.view(None)["library"]
    assert "does not know your cards" in note
    assert str(tmp_path) not in note and "companion teach" not in note


def test_the_sim_deck_is_kept_in_the_data_dir_for_the_next_start(tmp_path):
    # Teaching the simulated photos is most of a `make run` start-up: the second start (a
    # new process: the in-memory cache cleared) reads the deck the first one kept.
    from companion.games.looking_glass.table.live import sim_deck

    cache = tmp_path / "looking-glass"
    sim_deck.cache_clear()
    art, library = sim_deck(11, cache)
    (kept,) = cache.glob("sim-deck-11-*.pickle")
    assert set(art) == set(library.ids) and not list(cache.glob("*.tmp"))
    sim_deck.cache_clear()
    again_art, again_library = sim_deck(11, cache)
    assert set(again_art) == set(art) and again_library.ids == library.ids
    assert np.array_equal(again_library.templates, library.templates)
    # what is read is the file itself: a marker written there comes back
    kept.write_bytes(pickle.dumps(("art", "library")))
    sim_deck.cache_clear()
    assert sim_deck(11, cache) == ("art", "library")
    # a damaged file is built again, not a crash, and replaced
    kept.write_bytes(b"not a pickle")
    sim_deck.cache_clear()
    assert sim_deck(11, cache)[1].ids == library.ids
    assert pickle.loads(kept.read_bytes())[1].ids == library.ids
    sim_deck.cache_clear()
