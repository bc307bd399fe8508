"""A new Looking Glass game on the `sim` camera knows the simulated deck, and without a
taught deck on a real camera the players read why in their own words."""

from __future__ import annotations

import numpy as np

from companion.camera import Frame
from companion.config import Settings
from companion.games.looking_glass.table.live import make_table_game
from companion.store import Session

SESSION = Session("s", "looking-glass", {}, ["Ann", "Bob"], 0.0)


def _frame() -> Frame:
    return Frame(np.full((360, 480, 3), 120, np.uint8), 0.0, 0)


def test_frames_read_before_the_sim_scene_is_built_do_not_hide_its_deck(tmp_path):
    # After another game, the perception thread reads the new game's first frames while the
    # runtime is still building its simulated scene: no deck is known yet then.
    game = make_table_game(Settings(data_dir=tmp_path), SESSION)
    game.perceive(_frame(), None)
    assert "does not know your cards" in game.view(None)["library"]
    game.sim_scene(7)
    game.perceive(_frame(), None)
    assert game.view(None)["library"] is None


def test_a_missing_deck_is_told_in_players_words_without_a_server_path(tmp_path):
    game = make_table_game(Settings(data_dir=tmp_path), SESSION)
    game.perceive(_frame(), None)
    note = game.view(None)["library"]
    assert "does not know your cards" in note
    assert str(tmp_path) not in note and "companion teach" not in note
