"""`companion score|simulate|solve looking-glass`: happy paths and one-line errors."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.base import CHANCE
from companion.games.looking_glass.rules.engine import ENGINE

REPO = Path(__file__).resolve().parents[3]

ROUND = {
    "first": 1,
    "players": [
        {
            "pile": {
                "caterpillar": 3,
                "mad-hatter": 1,
                "queen-of-hearts": 2,
                "dodo": 2,
                "jabberwocky": 4,
                "lion": 1,
                "white-rabbit": 1,
            },
            "hand": {"tweedles": 1, "white-rabbit": 2, "walrus-carpenter": 1},
        },
        {
            "pile": {"mock-turtle": 4, "alice-cheshire": 4, "walrus-carpenter": 3, "tweedles": 3},
            "hand": {"mad-hatter": 2, "dodo": 2},
        },
    ],
}
# player 0: +3 +1 -2 +2 +1 (-1 tweedles) (-3 rabbit x3) (+1 walrus) +2 lion = 4
# player 1: -1 +1 +3 -3 -2 +2 = 0


def write(tmp_path, data, name="round.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_score_prints_stacks_totals_and_the_winner(tmp_path, capsys) -> None:
    code, out, err = run(capsys, "score", "looking-glass", write(tmp_path, ROUND))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("player 0: caterpillar x3 +3")
    assert "brawlers +2" in lines[0] and lines[0].endswith("total +4")
    assert lines[1].endswith("total +0")
    assert lines[2] == "winner: player 0 (|4| > |0|)"


def test_score_json_and_the_tie_rule(tmp_path, capsys) -> None:
    code, out, _ = run(capsys, "score", "looking-glass", write(tmp_path, ROUND), "--json")
    data = json.loads(out)
    assert code == 0
    assert [p["total"] for p in data["players"]] == [4, 0]
    assert data["players"][0]["stacks"]["white-rabbit"] == {"count": 3, "points": -3}
    assert data["winner"] == 0
    tie = {"first": 1, "players": [{"pile": {"dodo": 1}}, {"pile": {"caterpillar": 1}}]}
    code, out, _ = run(
        capsys, "score", "looking-glass", write(tmp_path, tie), "--json", "--partial"
    )
    assert json.loads(out)["winner"] == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["players"][0]["pile"].update({"cheshire": 1}), "unknown card id 'cheshire'"),
        (lambda d: d["players"][1]["pile"].update({"caterpillar": 2, "mock-turtle": 2}), "only 4"),
        (lambda d: d["players"][0]["hand"].update({"unicorn": 1}), "Brawler"),
        (lambda d: d["players"][0]["pile"].update({"dodo": 1}), "18"),
        (lambda d: d.update({"first": 2}), "`first` must be 0 or 1"),
        (lambda d: d["players"].pop(), "two players"),
        (lambda d: d["players"][0].update({"hnad": {}}), "player 0 must be"),
        (lambda d: d["players"][0]["pile"].update({"dodo": "two"}), "whole number"),
    ],
)
def test_score_explains_bad_input_on_one_line(tmp_path, capsys, change, message) -> None:
    data = json.loads(json.dumps(ROUND))
    change(data)
    code, out, err = run(capsys, "score", "looking-glass", write(tmp_path, data))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("companion: error: ")
    assert message in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", "looking-glass", "/no/such/file.json"], "no such file"),
        (["score", "looking-glass", "{bad"], "not valid JSON"),
        (["score", "looking-glass", "--frobnicate", "x"], "unrecognized arguments"),
        (["simulate", "looking-glass", "--rounds", "0"], "at least 1"),
        (["simulate", "looking-glass", "--rounds", "5", "--players", "hint,smart"], "--players"),
        (["simulate", "looking-glass"], "--rounds"),
        (["simulate", "looking-glass", "--rounds", "many"], "invalid int"),
        (["solve", "looking-glass", "{}"], "actions"),
    ],
)
def test_tool_errors_are_one_line(tmp_path, capsys, argv, message) -> None:
    argv = [write(tmp_path, a, "bad.json") if a.startswith("{") else a for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_simulate_prints_the_statistics(capsys) -> None:
    code, out, err = run(
        capsys,
        "simulate",
        "looking-glass",
        "--rounds",
        "60",
        "--brawlers",
        "--players",
        "greedy,random",
        "--seed",
        "2",
        "--json",
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["rounds"] == 60
    assert sum(data["brawlers_in_glass"].values()) == pytest.approx(1)
    assert set(data["brawlers_in_glass"]) <= {"0", "1", "2"}
    assert data["absolute_score"]["mean"] > 0
    assert data["self_linked_pairs"]["mean"] >= 0
    lo, hi = data["win_rate"]["ci95"]
    assert lo < data["win_rate"]["rate"] < hi
    assert data["win_rate"]["player"] == "greedy"
    code, out, _ = run(capsys, "simulate", "looking-glass", "--rounds", "20")
    assert code == 0
    assert "first player wins" in out and "Brawlers in the Looking Glass: 0: 100.0%" in out


def test_solve_hints_a_position_from_an_action_log(tmp_path, capsys) -> None:
    rng = random.Random(9)
    state = ENGINE.new_game(2)
    log = []
    while len(log) < 6:
        p = ENGINE.current_player(state)
        a = (
            ENGINE.sample_chance(state, rng)
            if p == CHANCE
            else rng.choice(ENGINE.legal_actions(state))
        )
        log.append(ENGINE.action_to_json(a))
        state = ENGINE.apply(state, a)
    path = write(tmp_path, {"options": {}, "actions": log})
    code, out, err = run(capsys, "solve", "looking-glass", path, "--json")
    assert code == 0, err
    data = json.loads(out)
    legal = {a.position for a in ENGINE.legal_actions(state)}
    assert data["hint"]["best"] in legal
    assert {p["position"] for p in data["hint"]["picks"]} == legal
    assert data["view"]["round"]["hand"] == list(state.round.hands[ENGINE.current_player(state)])
    code, out, _ = run(capsys, "solve", "looking-glass", path)
    best = next(line for line in out.splitlines() if line.startswith("best pick:"))
    assert best.endswith(
        f"(judged over all {data['hint']['determinizations']} hands the other player may hold)"
    ) or best.endswith(
        f"(judged over {data['hint']['determinizations']} sampled hands of the other player)"
    )
    log[-1] = {"type": "pick", "seat": 5, "position": "A-r0-c0"}
    code, _, err = run(capsys, "solve", "looking-glass", write(tmp_path, {"actions": log}))
    assert code == 2 and "action 5: players alternate turns" in err


def test_score_runs_as_a_program(tmp_path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "score", "looking-glass", write(tmp_path, ROUND)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "winner: player 0" in proc.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "companion", "score", "looking-glass", "/no/such.json"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2
    assert bad.stderr.strip().startswith("companion: error: no such file")
    assert "Traceback" not in bad.stderr
