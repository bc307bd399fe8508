"""The chessboard model: the shipped placeholders load, and mistakes in it are one line."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from companion.errors import UserError
from companion.games.queen_alice.rules.board import board_from_toml, load_board, square_name
from companion.paths import models_dir

SHIPPED = models_dir() / "queen-alice" / "board.toml"


def shipped() -> dict[str, Any]:
    return tomllib.loads(SHIPPED.read_text(encoding="utf-8"))


def test_shipped_board_is_consistent() -> None:
    board = load_board()
    assert board.row_resources[board.rows // 2 - 1 : board.rows // 2 + 1] == ("wild", "wild")
    assert board.column_actions[board.cols // 2] == "wild"
    assert {board.forward("red"), board.forward("white")} == {-1, 1}
    for colour, cells in board.respawn.items():
        assert all(board.on_board(c) for c in cells), colour
    for pieces in board.tiles.values():
        assert {p.colour for p in pieces} == {"red", "white"}
    assert board.square((board.rows // 2, board.cols // 2)) == ("wild", "wild")


def test_every_value_the_rulebook_lacks_is_marked_placeholder() -> None:
    text = SHIPPED.read_text(encoding="utf-8")
    for key in ("rows =", "cols =", "resources =", "actions =", "red = 0", "white = 7"):
        line = next(ln for ln in text.splitlines() if ln.startswith(key))
        assert "PLACEHOLDER" in line, line


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d["grid"].update(rows=7),  # no two central rows
        lambda d: d["rows"].update(resources=["cake"] * 8),  # central rows not wild
        lambda d: d["columns"]["actions"].__setitem__(4, "tea"),  # not an action
        lambda d: d["final_rows"].update(red=3),
        lambda d: d["respawn"].update(red=[[8, 0]]),
        lambda d: d["tiles"][0]["pieces"].append(dict(d["tiles"][0]["pieces"][0])),  # same square
        lambda d: d.update(tiles=[]),
        lambda d: d["captures"].pop("king"),
        lambda d: d["captures"]["pawn"].update(gold=1),
        lambda d: d["rescue"].update(jailer_time=-1),
    ],
)
def test_mistakes_are_user_errors(edit: Any) -> None:
    data = shipped()
    edit(data)
    with pytest.raises(UserError):
        board_from_toml(data, "board.toml")


def test_a_user_copy_is_read(tmp_path: Path) -> None:
    folder = tmp_path / "queen-alice"
    folder.mkdir()
    text = SHIPPED.read_text(encoding="utf-8").replace("red = 0 ", "red = 7 ", 1)
    text = text.replace("white = 7 ", "white = 0 ", 1)
    (folder / "board.toml").write_text(text, encoding="utf-8")
    assert load_board(folder).forward("red") == 1


def test_squares_are_named_as_players_count_them() -> None:
    """Players count from 1 and read the dashboard's labels (rows up from the bottom, columns
    from the left): row 0, column 0 is a1; the JSON's [3, 2] is c4; a board wider than the
    alphabet goes on as spreadsheets do."""
    assert square_name((0, 0)) == "a1"
    assert square_name((3, 2)) == "c4"
    assert square_name((8, 8)) == "i9"
    assert square_name((0, 25)) == "z1"
    assert square_name((1, 26)) == "aa2"
