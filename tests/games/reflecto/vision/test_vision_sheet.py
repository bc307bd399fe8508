"""`companion calibrate print` makes Reflecto's corner markers at the board model's size."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.games.reflecto.vision.geometry import load_geometry
from companion.vision.print_sheets import measure_marker_mm


def test_calibrate_print_makes_the_board_markers_at_true_size(tmp_path: Path) -> None:
    assert main(["calibrate", "print", "--out", str(tmp_path)]) == 0
    geom = load_geometry()
    png = tmp_path / "reflecto-markers.png"
    assert png.exists() and (tmp_path / "reflecto-markers.pdf").exists()
    for marker in geom.markers:
        assert measure_marker_mm(png, marker.id) == pytest.approx(geom.marker_side_mm, abs=0.3)
