"""Players' names in what players read: "seat N" of the engines said as the session's name."""

from __future__ import annotations

import pytest

from companion.errors import UserError
from companion.games.base import IllegalAction
from companion.live.loop import Runtime
from companion.live.overlay import status_line
from companion.live.words import default_names, player_name, players_words, refusal_in_words
from tests.live.example_game import make_table_game


def test_a_seat_is_said_as_its_player_and_a_seat_without_a_name_as_player_n() -> None:
    seats = ["Ann", "Bo"]
    assert players_words("it is seat 1's turn", seats) == "it is Bo's turn"
    assert players_words("seat 0's screen moved during seat 1's turn", seats) == (
        "Ann's screen moved during Bo's turn"
    )
    assert player_name(seats, 2) == "Player 3" and player_name(["Ann", " "], 1) == "Player 2"
    assert players_words("seat 2 draws", seats) == "Player 3 draws"
    # a name is never taken for a seat, nor a longer number for a shorter one
    assert players_words("Seat 1 took seat 10's card", ["Seat 1", "x"]) == (
        "Seat 1 took Player 11's card"
    )
    assert default_names(3) == ["Player 1", "Player 2", "Player 3"]


def test_a_refusal_keeps_its_kind_and_rule_and_names_the_player() -> None:
    said = refusal_in_words(
        IllegalAction("players alternate turns", "it is seat 1's turn"), ["A", "B"]
    )
    assert isinstance(said, IllegalAction)
    assert (said.rule, said.detail) == ("players alternate turns", "it is B's turn")
    assert str(said) == "players alternate turns: it is B's turn"
    plain = UserError("enter the set-up first")
    assert refusal_in_words(plain, ["A", "B"]) is plain  # nothing to say differently
    said = refusal_in_words(UserError("only seat 0 may"), ["A", "B"])
    assert type(said) is UserError and str(said) == "only A may"


def test_the_runtime_passes_a_game_s_refusal_on_in_the_players_names(settings) -> None:
    rt = Runtime(settings, table_game_factory=make_table_game)
    try:
        rt.start_session("plain", {}, ["Ann", "Bob"])

        def refuse(payload: object, seat: int | None) -> list:
            raise IllegalAction("players alternate turns", "it is seat 1's turn")

        rt.game.correct = refuse  # type: ignore[method-assign]
        with pytest.raises(IllegalAction) as refused:
            rt.correct({}, 0)
        assert (refused.value.rule, refused.value.detail) == (
            "players alternate turns",
            "it is Bob's turn",
        )
        # a game started without names: its players are "Player 1", "Player 2"
        assert rt.start_session("plain").seats == ["Player 1", "Player 2"]
    finally:
        rt.stop()


def test_the_camera_view_names_the_game_by_its_title() -> None:
    line = status_line("Reflections in the Looking Glass", "4/4", 0.996)
    assert line == "Reflections in the Looking Glass - markers 4/4 - 100% sure"
    assert "looking-glass" not in line and "conf" not in line
