"""`companion moves reflecto` and `companion solve reflecto`: output shape and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main

POSITION = {
    "rows": 7,
    "cols": 7,
    "to_move": 0,
    "screens": [
        {"id": "A0", "owner": 0, "kind": "letter", "cell": [5, 3]},
        {"id": "A1", "owner": 0, "kind": "letter", "cell": [6, 1]},
        {"id": "B0", "owner": 1, "kind": "mirror", "cell": [6, 3]},
        {"id": 7, "owner": 1, "kind": "letter", "cell": [4, 3]},
    ],
    "next_to_remove": ["A0", 7],
    "order": [["A0", "A1"], None],
}


def write(tmp_path: Path, data: object, name: str = "pos.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return str(path)


def test_moves_json_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "reflecto", write(tmp_path, POSITION), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"moves", "removals"} and out["removals"] == []
    assert {"screen": "A0", "to": "off"} in out["moves"]  # over B0 on the last line
    assert {"screen": "A0", "to": [3, 3]} in out["moves"]  # over the opponent's 7
    assert {"screen": "A1", "to": [6, 0]} in out["moves"]
    assert all(m["screen"] in ("A0", "A1") for m in out["moves"])
    assert len(out["moves"]) == 13


def test_moves_for_seat_one_echo_number_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = dict(POSITION, to_move=1)
    data["screens"] = [
        *POSITION["screens"],
        {"id": 8, "owner": 1, "kind": "letter", "cell": [0, 5]},
    ]
    data["next_to_remove"] = ["A0", 8]
    assert main(["moves", "reflecto", write(tmp_path, data), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["removals"] == [8]
    assert {"screen": 7, "to": [3, 3]} in out["moves"]


def test_solve_prints_the_plan(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "reflecto", write(tmp_path, POSITION), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["moves"] == 1 and out["complete"] and out["seconds"] >= 0
    assert main(["solve", "reflecto", write(tmp_path, POSITION)]) == 0
    assert "in 1 move " in capsys.readouterr().out


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("{not json", "not valid JSON"),
        ([], "JSON object"),
        ({k: v for k, v in POSITION.items() if k != "rows"}, "no 'rows'"),
        (dict(POSITION, to_move=2), "to_move"),
        (
            dict(
                POSITION,
                screens=[{"id": "A0", "owner": 0, "kind": "letter", "cell": [9, 0]}],
                next_to_remove=[None, None],
            ),
            "cell row",
        ),
        (
            dict(
                POSITION,
                screens=[{"id": "A0", "owner": 0, "kind": "rook", "cell": [0, 0]}],
                next_to_remove=[None, None],
            ),
            "kind",
        ),
        (dict(POSITION, screens=POSITION["screens"] * 2), "used twice"),
        (dict(POSITION, next_to_remove=["B0", None]), "next_to_remove[0]"),
        (dict(POSITION, next_to_remove=["A0"]), "one per seat"),
    ],
)
def test_bad_positions_are_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: object, message: str
) -> None:
    assert main(["moves", "reflecto", write(tmp_path, data)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_bad_arguments_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "reflecto", str(tmp_path / "missing.json")]) == 2
    assert "no such file" in capsys.readouterr().err
    path = write(tmp_path, POSITION)
    assert main(["solve", "reflecto", path, "--seat", "1"]) == 2
    assert "order" in capsys.readouterr().err
    assert main(["solve", "reflecto", path, "--max-states", "0"]) == 2
    assert main(["solve", "reflecto", path, "--seat", "x"]) == 2
    bad_order = dict(POSITION, order=[["A1", "A0"], None])
    assert main(["solve", "reflecto", write(tmp_path, bad_order)]) == 2
    assert "starts with" in capsys.readouterr().err
