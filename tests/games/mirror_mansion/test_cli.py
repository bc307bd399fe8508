"""`companion predict|solve mirror-mansion`: the JSON shapes other tools rely on, and errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.mirror_mansion.rules.optics import BoardState, Mirror, trace

REPO = Path(__file__).resolve().parents[3]
STATE = {
    "mirrors": [
        {"cell": [1, 2], "slot": "/", "facing": "SE"},
        {"cell": [2, 2], "slot": "\\", "facing": "NE"},
        {"cell": [0, 0], "slot": "/", "facing": "NW"},
        {"cell": [2, 0], "slot": "\\", "facing": "SW"},
    ],
    "window": "E1",
    "door": None,
    "two_sided": False,
    "cards": {"N0": "garlic", "S2": "key", "E2": "sunglasses"},
}


def write(tmp_path: Path, data, name: str = "state.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_predict_json_is_the_traced_path(tmp_path, capsys) -> None:
    code, out, _ = run(capsys, "predict", "mirror-mansion", write(tmp_path, STATE), "--json")
    assert code == 0
    got = json.loads(out)
    assert got["seen"] == "E2" and got["motif"] == "sunglasses" and got["blocked_by"] is None
    assert [s["cell"] for s in got["path"]] == [[1, 2], [2, 2]]
    assert [s["event"] for s in got["path"]] == ["bounce", "bounce"]


def test_predict_text_says_what_the_eye_sees(tmp_path, capsys) -> None:
    code, out, _ = run(capsys, "predict", "mirror-mansion", write(tmp_path, STATE))
    assert code == 0
    assert "E2 (sunglasses)" in out.splitlines()[0] and "2 bounces" in out
    assert "[1,2] bounces from heading W to S" in out


def test_predict_reports_a_mirror_back(tmp_path, capsys) -> None:
    state = dict(STATE, mirrors=[{"cell": [1, 2], "slot": "/", "facing": "NW"}])
    code, out, _ = run(capsys, "predict", "mirror-mansion", write(tmp_path, state), "--json")
    got = json.loads(out)
    assert code == 0 and got["seen"] is None and got["blocked_by"] == "mirror-back"


def test_solve_by_motif_lists_every_fewest_way(tmp_path, capsys) -> None:
    code, out, _ = run(
        capsys, "solve", "mirror-mansion", write(tmp_path, STATE), "--want", "key", "--json"
    )
    assert code == 0
    got = json.loads(out)
    assert (got["want"], got["motif"], got["possible"], got["swaps"]) == ("S2", "key", True, 1)
    assert got["ways"]
    for way in got["ways"]:
        assert len(way["swaps"]) == 1
        after = BoardState(
            tuple(Mirror(tuple(m["cell"]), m["slot"], m["facing"]) for m in way["mirrors"]), "E1"
        )
        assert trace(after).seen == "S2"
        assert way["path"][-1]["out"] == "S"
        swap = way["swaps"][0]
        assert swap["type"] == "swap" and swap["piece"] == "mirror"
        assert swap["kind"] in ("move", "turn")


def test_solve_text_and_impossible(tmp_path, capsys) -> None:
    path = write(tmp_path, STATE)
    code, out, _ = run(capsys, "solve", "mirror-mansion", path, "--want", "N0")
    assert code == 0 and out.startswith("The window at E1 can show N0 (garlic) with 2 swaps")
    code, out, _ = run(capsys, "solve", "mirror-mansion", path, "--want", "E1", "--json")
    got = json.loads(out)
    assert code == 0 and got["possible"] is False and got["swaps"] is None and got["ways"] == []
    code, out, _ = run(capsys, "solve", "mirror-mansion", path, "--want", "E1")
    assert out.startswith("Impossible within the rules")


def test_solve_with_the_door(tmp_path, capsys) -> None:
    state = {
        "mirrors": [
            {"cell": [0, 0], "slot": "\\", "facing": "NE"},
            {"cell": [1, 0], "slot": "/", "facing": "SE"},
            {"cell": [1, 2], "slot": "/", "facing": "NW"},
            {"cell": [2, 0], "slot": "/", "facing": "NW"},
        ],
        "window": "S0",
        "door": {"cell": [0, 2], "slot": "/"},
    }
    path = write(tmp_path, state)
    code, out, _ = run(capsys, "solve", "mirror-mansion", path, "--want", "N2", "--json")
    assert code == 0 and json.loads(out)["possible"] is False
    code, out, _ = run(capsys, "solve", "mirror-mansion", path, "--want", "N2", "--door", "--json")
    got = json.loads(out)
    assert code == 0 and got["possible"] is True
    assert all(any(s["piece"] == "door" for s in w["swaps"]) for w in got["ways"])


BAD = [
    ({**STATE, "mirrors": [{"cell": [0, 0], "slot": "|", "facing": "NW"}]}, "unknown slot"),
    ({**STATE, "mirrors": [{"cell": [0, 0], "slot": "/", "facing": "NE"}]}, "faces NW or SE"),
    (
        {
            **STATE,
            "mirrors": [
                {"cell": [0, 0], "slot": "/", "facing": "NW"},
                {"cell": [0, 0], "slot": "\\", "facing": "NE"},
            ],
        },
        "two pieces in crossing [0, 0]",
    ),
    ({**STATE, "window": "X9"}, "unknown window position"),
    ({**STATE, "cards": {"Q1": "key"}}, "unknown card position"),
    ({**STATE, "cards": {"N0": "broom"}}, "unknown motif"),
    ({**STATE, "mirrors": [{"cell": [3, 0], "slot": "/", "facing": "NW"}]}, "off the 3x3 grid"),
    ("{not json", "is not valid JSON"),
    ([1, 2], "must be a JSON object"),
]


@pytest.mark.parametrize(("data", "message"), BAD)
@pytest.mark.parametrize("verb", ["predict", "solve"])
def test_bad_state_is_one_line_and_exit_2(tmp_path, capsys, verb, data, message) -> None:
    argv = [verb, "mirror-mansion", write(tmp_path, data)]
    if verb == "solve":
        argv += ["--want", "N0"]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("companion: error:") and err.count("\n") == 1
    assert message in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["predict", "mirror-mansion", "/nonexistent/state.json"], "no such file"),
        (["solve", "mirror-mansion", "STATE", "--want", "broomstick"], "neither a card position"),
        (["solve", "mirror-mansion", "STATE", "--want", "toothbrush"], "it is on no card"),
        (["solve", "mirror-mansion", "STATE", "--want", "N0", "--door"], "has no door"),
        (["solve", "mirror-mansion", "STATE"], "--want"),
        (["predict", "mirror-mansion", "STATE", "--bogus"], "unrecognized arguments"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(tmp_path, capsys, argv, message) -> None:
    path = write(tmp_path, STATE)
    code, out, err = run(capsys, *[path if a == "STATE" else a for a in argv])
    assert code == 2 and out == ""
    assert err.startswith("companion: error:") and err.count("\n") == 1
    assert message in err


def test_predict_as_a_real_process(tmp_path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "predict", "mirror-mansion", write(tmp_path, STATE),
         "--json"],
        cwd=REPO, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["seen"] == "E2"
    bad = subprocess.run(
        [sys.executable, "-m", "companion", "predict", "mirror-mansion", str(tmp_path / "nope")],
        cwd=REPO, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.strip().startswith("companion: error: no such file")
