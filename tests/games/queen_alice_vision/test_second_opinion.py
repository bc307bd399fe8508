"""The learnt second opinion (`vision/second_opinion.py`) on the squares the reader asks."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from companion.games.queen_alice.vision import second_opinion
from companion.games.queen_alice.vision.geometry import load_geometry
from companion.games.queen_alice.vision.read import read_board
from companion.games.queen_alice.vision.render import Conditions, render_photo

GEOM = load_geometry()

CLEAR = ((6997932341, 0), (7, 3))
"""A development render (the validation draw named in the game's guide, with arms) and a
square on it the hand reader asks about: a red, clear of the arms, which the model names red
over its bar."""


def _asked_on(seed_i: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What the reader hands the second opinion on a render (its one call, recorded), with
    the render."""
    photo = render_photo(GEOM, seed_i, Conditions())
    got: dict[str, Any] = {}
    original = second_opinion.name_asked

    def record(*args: Any, **kwargs: Any) -> list[tuple[str, float]]:
        got["args"] = args
        return original(*args, **kwargs)

    monkeypatch.setattr(second_opinion, "name_asked", record)
    got["reading"] = read_board(photo.image, geom=GEOM)
    got["photo"] = photo
    return got


def test_the_model_names_a_clear_square_the_reader_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    seed_i, cell = CLEAR
    got = _asked_on(seed_i, monkeypatch)
    calls = got["args"][0]
    k = GEOM.cells.index(cell)
    assert calls[k][0] in ("unsure", "gold")  # the hand reader asks
    named = second_opinion.name_asked(*got["args"], bar=second_opinion.BAR)
    truth = got["photo"].position.squares.get(cell, "empty")
    assert named[k][0] == truth
    assert named[k][1] >= second_opinion.BAR


def test_a_square_the_reader_names_is_never_overruled(monkeypatch: pytest.MonkeyPatch) -> None:
    got = _asked_on(CLEAR[0], monkeypatch)
    calls = got["args"][0]
    named = second_opinion.name_asked(*got["args"], bar=0.0)  # names all it may
    asked = [k for k, (v, _) in enumerate(calls) if v in ("unsure", "gold")]
    assert any(named[k] != calls[k] for k in asked)  # the model did name asked squares
    for k, call in enumerate(calls):
        if k not in asked:
            assert named[k] == call


def test_a_square_likeliest_hidden_is_never_named() -> None:
    p = np.array([[0.05, 0.05, 0.05, 0.85], [0.9, 0.05, 0.05, 0.0]])
    x = np.zeros((2, len(second_opinion.FEATURES)))
    assert second_opinion.choose(p, x, 0.0).tolist() == [-1, 0]


def test_a_piece_on_a_look_many_squares_share_or_of_the_farther_colour_is_not_named() -> None:
    p = np.array([[0.0, 0.99, 0.01, 0.0]] * 3)
    x = np.zeros((3, len(second_opinion.FEATURES)))
    f = second_opinion.FEATURES.index
    x[:, f("two_centres")] = 1.0
    x[:, f("to_red")], x[:, f("to_white")] = 5.0, 40.0  # nearer the board's red
    x[1, f("others_alike")] = 2.0  # a look more squares share than a colour has pieces
    x[2, f("to_red")] = 60.0  # nearer the board's white
    assert second_opinion.choose(p, x, 0.9).tolist() == [1, -1, -1]


def test_off_the_reader_is_the_hand_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(second_opinion, "ON", False)
    seed_i, cell = CLEAR
    got = _asked_on(seed_i, monkeypatch)
    assert cell in got["reading"].unsure
