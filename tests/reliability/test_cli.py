"""Hostile files on the command line: one line and exit 2, never a traceback or a 3 GB read."""

from __future__ import annotations

import struct
import zlib

import pytest

from companion.cli import main


def png_header(path, width: int, height: int) -> None:
    """A PNG that claims `width` x `height` pixels (its data is a few bytes): what matters is
    whether the size is checked before decoding."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\0" * 64))
        + chunk(b"IEND", b"")
    )


def one_line_error(capsys) -> str:
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert captured.err.count("\n") == 1, captured.err
    return captured.err


@pytest.mark.parametrize("argv", [["score", "looking-glass"], ["predict", "mirror-mansion"]])
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nests deeper than 64"),
        ('{"a":' * 70 + "1" + "}" * 70, "nests deeper than 64"),
        ('{"seat": 1' + "0" * 5000 + "}", "out of range"),
    ],
)
def test_json_inputs_are_bounded(tmp_path, capsys, argv, text, message):
    path = tmp_path / "hostile.json"
    path.write_text(text)
    assert main([*argv, str(path)]) == 2
    assert message in one_line_error(capsys)


@pytest.mark.parametrize("side", [20_000, 40_000])
@pytest.mark.parametrize("argv", [["calibrate", "table", "--image"], ["read", "mirror-mansion"]])
def test_huge_images_are_refused_before_decoding(tmp_path, capsys, side, argv):
    path = tmp_path / "huge.png"
    png_header(path, side, side)
    extra = ["--data-dir", str(tmp_path)] if argv[0] == "calibrate" else []
    assert main([*argv, str(path), *extra]) == 2
    err = one_line_error(capsys)
    assert f"{side} x {side} pixels" in err and "limits.max_image_pixels" in err


def test_the_image_limit_is_configurable(tmp_path):
    import cv2
    import numpy as np

    from companion.errors import UserError
    from companion.vision.image_file import read_image

    path = tmp_path / "small.png"
    cv2.imwrite(str(path), np.zeros((100, 200, 3), np.uint8))
    assert read_image(path, limit=20_000).shape == (100, 200, 3)
    with pytest.raises(UserError, match="200 x 100 pixels"):
        read_image(path, limit=19_999)
