"""`companion render mirror-mansion` and `companion read mirror-mansion`: shapes and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.errors import UserError
from companion.games.mirror_mansion.vision.commands import VISION_VERBS, load_stickers

KEYS = {"image", "mirrors", "window", "door", "warnings"}


def test_render_then_read_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "shots"
    assert VISION_VERBS["render"](["--seed", "31", "--out", str(out), "--count", "2"]) == 0
    capsys.readouterr()
    images = sorted(out.glob("*.jpg"))
    assert [p.name for p in images] == ["0000.jpg", "0001.jpg"]
    assert VISION_VERBS["read"]([*map(str, images), "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    for line, image in zip(lines, images, strict=True):
        got = json.loads(line)
        truth = json.loads(image.with_suffix(".json").read_text())
        assert set(got) == KEYS and set(truth) == KEYS
        assert got["image"] == str(image)
        for m in got["mirrors"]:
            assert set(m) == {"cell", "slot", "facing", "confidence", "slot_sure"}
            assert m["slot"] in ("/", "\\") and m["facing"] in ("NW", "NE", "SE", "SW", None)
            assert m["slot_sure"] is True or m["facing"] is None
        strip = [{k: v for k, v in m.items() if k != "confidence"} for m in got["mirrors"]]
        want = [{k: v for k, v in m.items() if k != "confidence"} for m in truth["mirrors"]]
        assert strip == want
        assert (got["window"], got["door"]) == (truth["window"], truth["door"])


def test_render_is_reproducible(tmp_path: Path) -> None:
    for name in ("a", "b"):
        VISION_VERBS["render"](
            ["--seed", "5", "--out", str(tmp_path / name), "--size", "640x480", "--no-hands"]
        )
    a = json.loads((tmp_path / "a" / "0000.json").read_text())
    b = json.loads((tmp_path / "b" / "0000.json").read_text())
    assert {k: v for k, v in a.items() if k != "image"} == {
        k: v for k, v in b.items() if k != "image"
    }


def test_read_says_when_the_board_is_not_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import cv2
    import numpy as np

    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 120, np.uint8))
    assert VISION_VERBS["read"]([str(blank), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["mirrors"] == [] and got["window"] is None and got["door"] is None
    assert "need at least 3" in got["warnings"][0]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["/no/such.jpg"], "no such file"),
        (["{tmp}"], "is a folder"),
        (["{tmp}/notes.txt"], "not an image"),
        (["{tmp}/notes.txt", "--calibration", "/no/cal.json"], "no such file"),
        (["{tmp}/notes.txt", "--stickers", "{tmp}/bad.toml"], "mirror_dott"),
        ([], "required"),
    ],
)
def test_read_bad_input_is_one_user_error(tmp_path: Path, argv: list[str], message: str) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    (tmp_path / "bad.toml").write_text("[mirror_dott]\nhue_min = 1\n")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    with pytest.raises(UserError, match=message):
        VISION_VERBS["read"](argv)


@pytest.mark.parametrize(
    "argv", [["--out", "x", "--count", "0"], ["--out", "x", "--size", "big"], ["--count", "1"]]
)
def test_render_bad_options(argv: list[str], tmp_path: Path) -> None:
    argv = [str(tmp_path / a) if a == "x" else a for a in argv]
    with pytest.raises(UserError):
        VISION_VERBS["render"](argv)


def test_sticker_colours_are_settings(tmp_path: Path) -> None:
    path = tmp_path / "stickers.toml"
    path.write_text("[mirror_dot]\nhue_min = 95\nhue_max = 110\n")
    s = load_stickers(str(path))
    assert (s.mirror_dot.hue_min, s.mirror_dot.hue_max) == (95, 110)
    path.write_text("[mirror_dot]\nhue_min = 400\nhue_max = 110\n")
    with pytest.raises(UserError, match=r"mirror_dot\.hue_min"):
        load_stickers(str(path))


def test_the_cli_answers_bad_input_with_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.cli import main

    (tmp_path / "notes.txt").write_text("hello")
    for argv in (
        ["read", "mirror-mansion", str(tmp_path / "notes.txt")],
        ["read", "mirror-mansion", str(tmp_path / "missing.jpg"), "--json"],
        ["render", "mirror-mansion", "--out", str(tmp_path / "o"), "--count", "-3"],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("companion: error: ") and err.count("\n") == 1
