"""`companion moves queen-alice` and `companion score queen-alice`: shapes and bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.games.queen_alice.rules.board import load_board

STATE = {
    "rows": 8,
    "cols": 8,
    "piece": 0,
    "forward": {"red": -1, "white": 1},
    "pieces": [
        {"colour": "red", "kind": "pawn", "cell": [4, 4]},
        {"colour": "white", "kind": "rook", "cell": [3, 5]},
        {"colour": "red", "kind": "king", "cell": [3, 3]},
    ],
}

END = {
    "alice": {"red": 4, "white": 6},
    "players": [
        {
            "name": "Cris",
            "crowns": {"red": 1, "white": 2},
            "cats": {"red": "x2", "white": "x1"},
            "wishes": {
                "red": [{"standard": 3, "platinum": 5}],
                "white": [{"standard": 2, "platinum": 8}, {"standard": 6, "platinum": 7}],
            },
            "culled_ip": [4],
            "bookmarks": [],
        },
        {
            "crowns": {"red": 3, "white": 0},
            "cats": {"red": "none", "white": "none"},
            "track_ip": 30,
        },
    ],
}


def write(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "in.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_moves_json_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "moves", "queen-alice", write(tmp_path, STATE))
    assert out == {
        "moves": [{"to": [3, 4], "capture": False}, {"to": [3, 5], "capture": True}],
        "blocked": False,
    }
    blocked = STATE | {
        "piece": 0,
        "pieces": [STATE["pieces"][0], {"colour": "white", "kind": "rook", "cell": [3, 4]}],
    }
    assert run_json(capsys, "moves", "queen-alice", write(tmp_path, blocked)) == {
        "moves": [],
        "blocked": True,
    }


def test_moves_forward_defaults_to_the_board_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = {k: v for k, v in STATE.items() if k != "forward"}
    out = run_json(capsys, "moves", "queen-alice", write(tmp_path, state))
    step = load_board().forward("red")
    assert {"to": [4 + step, 4], "capture": False} in out["moves"]


def test_score_json_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "score", "queen-alice", write(tmp_path, END))
    assert out["coronation"] == {"colour": "white", "reading": "advanced_most"}
    cris, other = out["players"]
    assert cris == {
        "name": "Cris",
        "track": 0,
        "coronation": 16,
        "wishes": 3 + 8,
        "wishes_counted": {"red": [0], "white": [0]},
        "guests": 4,
        "bookmarks": 0,
        "total": 31,
    }
    assert other["name"] == "player 2" and other["total"] == 30
    assert out["winners"] == ["Cris"]
    other_reading = run_json(
        capsys, "score", "queen-alice", write(tmp_path, END), "--coronation", "throne_first"
    )
    assert other_reading["coronation"]["reading"] == "throne_first"


def test_human_output_names_the_winner(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "queen-alice", write(tmp_path, END)]) == 0
    text = capsys.readouterr().out
    assert "crowned white" in text and "Winner: Cris" in text


BAD_STATES = [
    "[1, 2]",
    STATE | {"piece": 3},
    STATE | {"forward": {"red": 2, "white": 1}},
    STATE | {"pieces": [{"colour": "blue", "kind": "pawn", "cell": [0, 0]}]},
    STATE | {"pieces": [{"colour": "red", "kind": "pawn", "cell": [9, 0]}]},
    STATE
    | {
        "pieces": [
            {"colour": "red", "kind": "pawn", "cell": [1, 1]},
            {"colour": "red", "kind": "rook", "cell": [1, 1]},
        ]
    },
    "{not json",
]

BAD_ENDS = [
    END | {"alice": {"red": 1}},
    END | {"players": END["players"][:1]},
    END | {"players": [END["players"][0], END["players"][0]]},
    END
    | {"players": [END["players"][1] | {"cats": {"red": "x3", "white": "x1"}}, END["players"][1]]},
    END | {"players": [END["players"][1] | {"culled_ip": [-1]}, END["players"][1]]},
    END | {"throne": "green"},
]


@pytest.mark.parametrize(
    ("verb", "data"), [("moves", s) for s in BAD_STATES] + [("score", e) for e in BAD_ENDS]
)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], verb: str, data: Any
) -> None:
    assert main([verb, "queen-alice", write(tmp_path, data), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith("companion: error:")


def test_missing_file_exits_2(tmp_path: Path) -> None:
    assert main(["score", "queen-alice", str(tmp_path / "nope.json")]) == 2


def test_the_documented_examples_run(capsys: pytest.CaptureFixture[str]) -> None:
    examples = Path(__file__).resolve().parents[3] / "docs" / "examples"
    moves = run_json(capsys, "moves", "queen-alice", str(examples / "queen-alice-moves.json"))
    assert len(moves["moves"]) == 23 and not moves["blocked"]
    assert [m["to"] for m in moves["moves"] if m["capture"]] == [[1, 4], [4, 7]]
    end = run_json(capsys, "score", "queen-alice", str(examples / "queen-alice-end.json"))
    cris, vera = end["players"]
    assert (cris["wishes"], cris["total"]) == (10 + 8 + 5, 165)
    assert (vera["wishes"], vera["total"]) == (12, 147)
