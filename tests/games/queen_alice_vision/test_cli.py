"""`companion render queen-alice` and `companion read queen-alice`: the JSON's shape, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.queen_alice.vision.reading import BoardReading


def test_render_then_read_json_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "render",
                "queen-alice",
                "--seed",
                "73",
                "--out",
                str(tmp_path),
                "--count",
                "1",
                "--no-hands",
            ]
        )
        == 0
    )
    capsys.readouterr()
    key = json.loads((tmp_path / "0000.json").read_text())
    image = str(tmp_path / "0000.jpg")
    assert main(["read", "queen-alice", image, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"image", "squares", "crowns_left", "alice", "warnings"} == set(key)
    assert out["image"] == image
    assert set(out["alice"]) == {"red", "white"}
    for square in out["squares"]:
        assert set(square) == {"cell", "colour", "confidence"}
        assert square["colour"] in ("red", "white") and 0 <= square["confidence"] <= 1
        assert len(square["cell"]) == 2
    assert isinstance(out["warnings"], list)
    # on a clear board the reading agrees with the answer key wherever it does not ask
    want = {tuple(s["cell"]): s["colour"] for s in key["squares"]}
    got = {tuple(s["cell"]): s["colour"] for s in out["squares"]}
    asked = BoardReading.from_json(out).unsure
    differ = {cell for cell, _ in set(want.items()) ^ set(got.items())}
    assert len(differ - asked) <= 1
    assert len(asked) <= 4


@pytest.mark.parametrize("make", ["missing", "text", "folder"])
def test_bad_image_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: str
) -> None:
    path = tmp_path / "in.jpg"
    if make == "text":
        path.write_text("not a picture")
    elif make == "folder":
        path.mkdir()
    assert main(["read", "queen-alice", str(path), "--json"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_render_refuses_a_bad_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", "queen-alice", "--out", str(tmp_path), "--count", "0"]) == 2
    assert "--count" in capsys.readouterr().err
