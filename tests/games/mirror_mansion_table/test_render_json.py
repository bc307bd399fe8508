"""`companion render mirror-mansion --json`: every tool says what it did as JSON (issue 30)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games.mirror_mansion.vision.commands import VISION_VERBS


def test_render_json_names_each_photograph_with_its_answer_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "shots"
    assert (
        VISION_VERBS["render"](
            [
                "--seed",
                "3",
                "--out",
                str(out),
                "--count",
                "2",
                "--size",
                "640x480",
                "--style",
                "random",
                "--json",
            ]
        )
        == 0
    )
    summary = json.loads(capsys.readouterr().out)
    assert summary["out"] == str(out) and summary["style"] == "random"
    shots = summary["photographs"]
    assert [Path(s["image"]).name for s in shots] == ["0000.jpg", "0001.jpg"]
    for s in shots:
        assert Path(s["image"]).is_file()
        assert json.loads(Path(s["truth"]).read_text()) == s["box"]
