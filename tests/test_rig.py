"""`companion rig`: known pinhole numbers, round trips between height and area, bad input."""

from __future__ import annotations

import json
import math

import pytest

from companion import rig
from companion.cli import main as cli_main


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert cli_main(["rig", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_66_degree_lens_at_one_metre_covers_1298_8_mm(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "--height", "1000", "--hfov", "66", "--margin", "0")
    expected = 2 * 1000 * math.tan(math.radians(33))
    assert expected == pytest.approx(1298.8, abs=0.05)
    assert out["coverage_mm"]["near_width_mm"] == pytest.approx(expected, abs=0.1)
    # square pixels at 4:3: the vertical field follows from the horizontal one
    assert out["coverage_mm"]["depth_mm"] == pytest.approx(expected * 3 / 4, abs=0.1)
    # straight down, px/mm is image width over covered width, the same at centre and edge
    assert out["px_per_mm"]["centre"]["across"] == pytest.approx(1280 / expected, abs=1e-3)
    assert out["px_per_mm"]["far_edge"] == out["px_per_mm"]["centre"]


def test_cm3_crops_16_9_sensor_to_4_3_keeping_the_vertical_field() -> None:
    view = rig.view_of_lens(rig.PRESETS["cm3"], 1280, 960)
    assert view.vfov_deg == pytest.approx(41.0)
    assert view.tan_h == pytest.approx(math.tan(math.radians(20.5)) * 4 / 3)
    assert view.crop == "sides"
    assert view.focal_x == pytest.approx(view.focal_y)  # square pixels
    native = rig.view_of_lens(rig.PRESETS["cm3"], 1920, 1080)
    assert native.crop is None
    assert native.hfov_deg == pytest.approx(66.0)


def test_usb_78_diagonal_matches_the_usual_webcam_figures() -> None:
    lens = rig.PRESETS["usb-78"]
    assert lens.hfov_deg == pytest.approx(70.42, abs=0.05)
    assert lens.vfov_deg == pytest.approx(43.3, abs=0.05)


def test_minimum_height_for_looking_glass_area(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "--area", "600x450", "--camera", "cm3")
    # 4:3 image, area + 2*40 mm margin = 680 x 530 mm: the depth binds.
    tan_v = math.tan(math.radians(20.5))
    assert out["min_height_mm"] == pytest.approx(265 / tan_v, abs=0.1)
    assert out["px_per_mm"]["centre"]["along"] == pytest.approx(960 / 530, abs=1e-3)
    assert out["card"]["px_centre"] == pytest.approx(63 * 960 / 530, abs=0.1)
    assert out["card"]["px_centre"] >= 80
    # highest mount for an 80 px card: focal length * 63 / 80
    assert out["card"]["max_height_mm"] == pytest.approx(480 / tan_v * 63 / 80, abs=0.2)


@pytest.mark.parametrize("tilt", [0.0, 10.0, 25.0])
@pytest.mark.parametrize("camera", ["cm3", "cm3-wide", "usb-78"])
def test_round_trip_height_for_area_covers_the_area(
    capsys: pytest.CaptureFixture[str], camera: str, tilt: float
) -> None:
    area = (600.0, 450.0)
    margin = 40.0
    first = run_json(capsys, "--area", "600x450", "--camera", camera, "--tilt", str(tilt))
    height = first["min_height_mm"]
    view = rig.view_of_lens(rig.PRESETS[camera], 1280, 960)
    t = math.radians(tilt)
    # every corner of the margin-grown area projects inside the image at that height
    for x in (-(area[0] / 2 + margin), area[0] / 2 + margin):
        for y in (-(area[1] / 2 + margin), area[1] / 2 + margin):
            depth = y * math.sin(t) + height / math.cos(t)
            assert abs(x / depth) <= view.tan_h * (1 + 1e-3)
            assert abs(y * math.cos(t) / depth) <= view.tan_v * (1 + 1e-3)
    again = run_json(
        capsys,
        "--area",
        "600x450",
        "--camera",
        camera,
        "--tilt",
        str(tilt),
        "--height",
        str(height),
    )
    assert again["fits"] is True
    lower = run_json(
        capsys,
        *("--area", "600x450", "--camera", camera, "--tilt", str(tilt)),
        *("--height", str(height * 0.97)),
    )
    assert lower["fits"] is False
    cov = again["coverage_mm"]
    assert cov["near_mm"] <= -(area[1] / 2 + margin) + 0.5
    assert cov["far_mm"] >= area[1] / 2 + margin - 0.5


def test_height_only_reports_largest_area_that_fits_back(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run_json(capsys, "--height", "900", "--camera", "cm3-wide", "--tilt", "12")
    w, h = out["largest_area_mm"]
    back = run_json(capsys, "--area", f"{w}x{h}", "--camera", "cm3-wide", "--tilt", "12")
    assert back["min_height_mm"] == pytest.approx(900, abs=1.0)


def test_tilt_makes_the_far_edge_coarser(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "--area", "600x450", "--tilt", "20")
    centre, far = out["px_per_mm"]["centre"], out["px_per_mm"]["far_edge"]
    assert far["across"] < centre["across"]
    assert far["along"] < centre["along"]
    assert centre["along"] < centre["across"]  # foreshortening along the tilt
    assert out["card"]["px_far_edge"] < out["card"]["px_centre"]
    assert out["coverage_mm"]["far_width_mm"] > out["coverage_mm"]["near_width_mm"]


def test_max_height_keeps_the_card_width_it_promises() -> None:
    view = rig.view_of_lens(rig.PRESETS["cm3"], 1280, 960)
    t = math.radians(20)
    low = rig.min_height(340, 265, view, t)
    top = rig.max_height_for_card(63, 80, 225, low, view, t)
    assert top is not None and top > low
    assert 63 * rig.scale_at(225, top, view, t).worst == pytest.approx(80, abs=0.01)
    assert 63 * rig.scale_at(225, top * 1.01, view, t).worst < 80
    assert rig.max_height_for_card(63, 500, 225, low, view, t) is None


def test_text_output_names_height_and_card_pixels(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["rig", "--area", "600x450"]) == 0
    text = capsys.readouterr().out
    assert "minimum mount height: 709 mm" in text
    assert "a card 63 mm wide: 114 px" in text


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        ([], "--area"),
        (["--area", "600"], "WIDTHxHEIGHT"),
        (["--area", "0x450"], "positive"),
        (["--area", "600x450", "--resolution", "1280.5x960"], "whole"),
        (["--height", "-3"], "--height"),
        (["--height", "nan"], "--height"),
        (["--area", "600x450", "--tilt", "95"], "--tilt"),
        (["--area", "600x450", "--tilt", "75"], "horizon"),
        (["--area", "600x450", "--hfov", "190"], "--hfov"),
        (["--area", "600x450", "--margin", "-1"], "--margin"),
        (["--area", "600x450", "--camera", "hq"], "invalid choice"),
        (["--area", "600x450", "--bogus"], "unrecognized"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    assert cli_main(["rig", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("companion: error:")
    assert needle in lines[0]
