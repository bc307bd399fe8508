"""Every game with a rules engine passes the same random-playout conformance check."""

from __future__ import annotations

import pytest

from companion.games import GAMES, engines
from companion.games.conformance import check_engine

ENGINES = engines()


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_random_playouts_conform(game_id: str) -> None:
    report = check_engine(ENGINES[game_id], GAMES[game_id].min_players, games=3, seed=7)
    assert report.games == 3
    assert report.actions > 0
    assert report.illegal_checked > 0


def test_looking_glass_is_registered() -> None:
    assert "looking-glass" in ENGINES
