"""Set-up, the variants, guesses, the end, and a whole game replayed through the engine."""

from __future__ import annotations

import json

import pytest

from companion.games.base import IllegalAction
from companion.games.conformance import check_engine
from companion.games.reflecto.rules.actions import Done, Guess, Remove, Setup, Step
from companion.games.reflecto.rules.engine import RULE_GUESS, RULE_MOVE_FIRST
from companion.games.reflecto.rules.setup import (
    RULE_BLANK,
    RULE_COLUMNS,
    RULE_SPLIT,
    RULE_WORD,
    even_split,
)
from companion.games.reflecto.rules.state import OVER

from .helpers import ENGINE, greedy, letter, placed, setup, started


def test_set_up_puts_seven_screens_on_each_first_row() -> None:
    state = started()
    assert state.phase == "play" and state.to_move == 0
    rows = {seat: {s.cell[0] for s in state.screens_of(seat)} for seat in (0, 1)}
    assert rows == {0: {0}, 1: {6}}
    a = sorted((s for s in state.screens_of(0) if s.kind == "letter"), key=lambda s: s.rank)
    assert "".join(s.text for s in a) == "PIANO" and [s.id for s in a] == [
        "A1",
        "A2",
        "A3",
        "A4",
        "A5",
    ]
    assert {s.id for s in state.screens_of(0) if s.kind == "mirror"} == {"A0", "A6"}


def test_the_rulebooks_word_splits() -> None:
    assert even_split("ELEPHANT", 5) == ("E", "L", "EP", "HA", "NT")  # 1, 1, 2, 2, 2
    assert even_split("MOON", 5) == ("", "M", "O", "O", "N")  # the blank goes first
    assert even_split("MOON", 5, blank_last=True) == ("M", "O", "O", "N", "")
    assert even_split("PIZZA", 5) == tuple("PIZZA")


@pytest.mark.parametrize(
    ("chunks", "rule"),
    [
        (("P", "I", "A", "N"), RULE_WORD),  # four screens for five
        (("p", "i", "a", "n", "o"), RULE_WORD),  # capitals
        (("", "O", "N"), RULE_WORD),
        (("M", "O", "O", "N", ""), RULE_BLANK),  # blank last: only for the younger player
        (("", "", "M", "O", "ON"), RULE_BLANK),
        (("EL", "EP", "H", "A", "NT"), RULE_SPLIT),  # not the even split
        (("P", "I", "A", "N", "O1"), RULE_WORD),
    ],
)
def test_bad_set_ups_name_the_rule(chunks: tuple[str, ...], rule: str) -> None:
    state = ENGINE.new_game(2)
    cols = tuple(range(len(chunks)))
    mirrors = tuple(c for c in range(7) if c not in cols)[: 7 - 5]
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, Setup(0, chunks, cols, mirrors))
    assert err.value.rule == rule


def test_columns_must_be_distinct_and_complete() -> None:
    state = ENGINE.new_game(2)
    for letters, mirrors in (
        ((1, 2, 3, 4, 5), (0, 5)),
        ((1, 2, 3, 4, 5), (0,)),
        ((1, 2, 3, 4, 7), (0, 6)),
    ):
        with pytest.raises(IllegalAction) as err:
            ENGINE.apply(state, Setup(0, tuple("PIANO"), letters, mirrors))
        assert err.value.rule == RULE_COLUMNS


def test_the_younger_player_may_keep_the_blank_for_last_and_split_freely() -> None:
    state = ENGINE.new_game(2, {"younger": [1]})
    state = ENGINE.apply(state, setup(0, "PIANO"))
    with pytest.raises(IllegalAction):
        ENGINE.apply(
            ENGINE.apply(ENGINE.new_game(2), setup(0, "PIANO")),
            Setup(1, ("M", "O", "O", "N", ""), (1, 2, 3, 4, 5), (0, 6)),
        )
    done = ENGINE.apply(state, Setup(1, ("M", "O", "O", "N", ""), (1, 2, 3, 4, 5), (0, 6)))
    assert [s.id for s in done.screens_of(1)] and done.words[1] == "MOON"
    free = ENGINE.apply(state, Setup(1, ("EL", "EP", "H", "A", "NT"), (1, 2, 3, 4, 5), (0, 6)))
    assert free.words[1] == "ELEPHANT"


def test_more_letter_screens_fewer_mirrors_for_the_experienced_player() -> None:
    state = ENGINE.new_game(2, {"letter_screens": [7, 5]})
    state = ENGINE.apply(state, Setup(0, tuple("MIRRORS"), tuple(range(7)), ()))
    assert sum(s.kind == "mirror" for s in state.screens_of(0)) == 0
    with pytest.raises(ValueError):
        ENGINE.new_game(2, {"letter_screens": [7, 6]})  # the box has two spare tiles


def test_a_blank_screen_must_be_removed_first() -> None:
    state = started("MOON", "LEMON")
    blank = next(s for s in state.screens_of(0) if s.kind == "letter" and s.text == "")
    assert blank.rank == 0 and state.next_to_remove(0).id == blank.id


def test_a_right_guess_wins_and_a_wrong_one_loses() -> None:
    state = started()
    right = ENGINE.apply(state, Guess("lemon"))
    assert right.phase == OVER and right.winner == 0 and ENGINE.scores(right) == [1.0, 0.0]
    wrong = ENGINE.apply(state, Guess("MELON"))
    assert wrong.phase == OVER and wrong.winner == 1


def test_guessing_frequently_a_wrong_guess_loses_the_turn() -> None:
    state = started(guessing_frequently=True)
    after = ENGINE.apply(state, Guess("MELON"))
    assert after.phase == "play" and after.to_move == 1 and after.guesses[0]["right"] is False
    again = ENGINE.apply(ENGINE.apply(after, Step("B1", (5, 1))), Guess("LEMON"))
    assert again.winner == 0


def test_a_guess_replaces_the_move() -> None:
    state = placed(letter("A0", 0, (5, 3)), letter("A1", 1, (2, 2)), letter("B0", 0, (0, 0)))
    moved = ENGINE.apply(state, Step("A0", (6, 3)))
    assert moved.moved and moved.to_move == 0  # A0 may still be lifted off this turn
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(moved, Guess("LEMON"))
    assert err.value.rule == RULE_GUESS
    assert ENGINE.legal_actions(moved) == [Remove("A0"), Done()]
    ended = ENGINE.apply(moved, Done())
    assert ended.to_move == 1 and not ended.moved
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, Done())
    assert err.value.rule == RULE_MOVE_FIRST


def test_a_player_with_no_move_must_guess() -> None:
    # A0 boxed into the corner: its neighbours are taken and nothing lies beyond them free.
    state = placed(
        letter("A0", 0, (0, 0)),
        letter("B0", 0, (0, 1)),
        letter("B1", 1, (1, 0)),
        letter("B2", 2, (1, 1)),
        letter("B3", 3, (0, 2)),
        letter("B4", 4, (2, 0)),
        letter("B5", 5, (2, 2)),
    )
    legal = ENGINE.legal_actions(state)
    assert legal and all(isinstance(a, Guess) for a in legal)


def test_a_whole_game_replayed_through_the_engine() -> None:
    state = ENGINE.new_game(2)
    log = [setup(0, "PIANO", (2, 4)), setup(1, "LEMON", (1, 5))]
    for action in log:
        state = ENGINE.apply(state, action)
    while not ENGINE.is_terminal(state) and len(log) < 400:
        action = greedy(state)
        if isinstance(action, Remove):  # lifted off its owner's last line only
            assert state.screen(action.screen).cell[0] == (6 if state.to_move == 0 else 0)
        log.append(action)
        state = ENGINE.apply(state, action)
    assert ENGINE.is_terminal(state) and state.end == "removed all letter screens"
    winner = state.winner
    removed = [state.screen(i).text for i in state.removed[winner]]
    assert "".join(removed) == state.words[winner]  # removed in word order
    moves = sum(isinstance(a, Step) for a in log)
    assert moves > 10
    # The log, through JSON, replays to the same state.
    encoded = json.loads(json.dumps([ENGINE.action_to_json(a) for a in log]))
    again = ENGINE.new_game(2)
    for item in encoded:
        again = ENGINE.apply(again, ENGINE.action_from_json(item))
    assert ENGINE.state_to_json(again) == ENGINE.state_to_json(state)
    assert ENGINE.state_to_json(
        ENGINE.state_from_json(ENGINE.state_to_json(state))
    ) == ENGINE.state_to_json(state)


def test_the_shared_conformance_check() -> None:
    report = check_engine(ENGINE, 2, games=4, seed=11)
    assert report.actions > 0 and report.illegal_checked > 0
    report = check_engine(
        ENGINE, 2, games=2, seed=3, options={"younger": [0], "letter_screens": [6, 5]}
    )
    assert report.actions > 0
