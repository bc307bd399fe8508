"""`companion simulate queen-alice`: the JSON shape, readings as options, bad input."""

from __future__ import annotations

import json

import pytest

from companion.cli import main


def test_simulate_json_reports_every_game_ended_and_checked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(
        [
            "simulate",
            "queen-alice",
            "--games",
            "3",
            "--players",
            "2,4",
            "--seed",
            "5",
            "--check",
            "--small-supplies",
            "skip",
            "--json",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["games"] == 3
    assert out["stuck"] == 0 and out["illegal_states"] == 0 and out["broken"] == {}
    assert set(out["by_players"]) == {"2", "4"}
    two = out["by_players"]["2"]
    assert two["games"] == 2 and sum(two["wins_by_seat"].values()) >= 2
    assert two["turns_per_player"]["min"] >= 1


@pytest.mark.parametrize(
    "argv",
    [["--players", "2,5"], ["--players", "x"], ["--coronation", "loudest"], ["--games", "0"]],
)
def test_simulate_bad_input_is_one_line_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        code = main(["simulate", "queen-alice", *argv])
        raise SystemExit(code)
    assert done.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") <= 1 and "Traceback" not in err
