"""`companion simulate onirim` and `companion solve onirim`: output shapes and bad input."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.games.onirim.rules import ENGINE

from .helpers import position


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_json(capsys) -> None:
    code, out, _ = run(capsys, "simulate", "onirim", "--games", "3", "--seed", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["games"] == 3 and data["options"] == {"mirrors": True, "hard": False}
    assert {"win_rate", "doors_opened", "mirrors_explored", "losses", "turns"} <= set(data)


def test_simulate_text_and_options(capsys) -> None:
    code, out, _ = run(capsys, "simulate", "onirim", "--games", "2", "--no-mirrors")
    assert code == 0 and "mirrors off" in out and "95 % interval" in out and "turns" in out


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--games", "0"], "at least 1"),
        (["--hard", "--no-mirrors"], "cannot go with --no-mirrors"),
        (["--glyphs"], "Glyphs expansion"),
        (["--player", "oracle"], "invalid choice"),
    ],
)
def test_simulate_bad_input_is_one_line_and_exit_2(capsys, argv, says) -> None:
    code, _, err = run(capsys, "simulate", "onirim", *argv)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1


def test_solve_gives_the_hint(capsys, tmp_path) -> None:
    doors = [f"door-{c}" for c in ("red", "blue", "green", "brown") for _ in (0, 1)]
    state = position(
        mirrors=False,
        hand=["brown-key", "blue-sun", "red-sun", "green-moon", "red-moon"],
        doors=doors[:-1],
        labyrinth=["brown-sun", "brown-moon"],
        run=2,
    )
    path = tmp_path / "state.json"
    path.write_text(json.dumps(ENGINE.state_to_json(state)))
    code, out, _ = run(capsys, "solve", "onirim", str(path), "--json", "--samples", "2")
    data = json.loads(out)
    assert code == 0 and data["best"] == {"type": "play", "card": "brown-key"}
    assert data["actions"][0]["win"] == 1.0
    assert len(data["actions"]) == len(ENGINE.legal_actions(state))


def test_solve_bad_input(capsys, tmp_path) -> None:
    code, _, err = run(capsys, "solve", "onirim", str(tmp_path / "none.json"))
    assert code == 2 and "no such file" in err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"hand": ["red-sunn"]}))
    code, _, err = run(capsys, "solve", "onirim", str(bad))
    assert code == 2 and "unknown card 'red-sunn'" in err
    short = tmp_path / "short.json"
    short.write_text(json.dumps({"hand": ["red-sun"], "deck": {"blue-sun": 3}}))
    code, _, err = run(capsys, "solve", "onirim", str(short))
    assert code == 2 and "do not add up" in err
    waiting = tmp_path / "chance.json"
    st = ENGINE.state_to_json(position(hand=["red-sun"], phase="refill"))
    waiting.write_text(json.dumps(st))
    code, _, err = run(capsys, "solve", "onirim", str(waiting))
    assert code == 2 and "not to move" in err
