"""`companion calibrate print` and `companion calibrate table`, through the real CLI."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.cli import main as cli_main
from companion.config import TableSettings, load_settings
from companion.config import TableSettings as _Table
from companion.sim.demo_table import DemoTableScene, corner_centres_mm
from companion.vision.calibration import BOARD_SQUARE_MM, detect_board, load_table_homography
from companion.vision.print_sheets import DPI, all_sheets, measure_marker_mm
from companion.vision.registration import registrar_for


def test_print_writes_true_scale_sheets(tmp_path, capsys):
    cfg = tmp_path / "c.toml"
    cfg.write_text("[table]\nmarker_size_mm = 50\n")
    out = tmp_path / "sheets"
    assert cli_main(["calibrate", "print", "--out", str(out), "--config", str(cfg), "--json"]) == 0
    files = {p.name for p in out.iterdir()}
    for name in ("table-markers", "charuco-board", "mirror-mansion-stickers"):
        assert f"{name}.pdf" in files and f"{name}.png" in files
        assert (out / f"{name}.pdf").read_bytes().startswith(b"%PDF")
    written = json.loads(capsys.readouterr().out)["files"]
    assert len(written) == 2 * len(all_sheets(_Table()))  # a PDF and a PNG each, one page
    for mid in range(4):
        assert measure_marker_mm(out / "table-markers.png", mid) == pytest.approx(50, abs=0.3)
    for mid in (10, 11, 12, 13):
        assert measure_marker_mm(out / "mirror-mansion-stickers.png", mid) == pytest.approx(
            30, abs=0.3
        )
    board = detect_board(cv2.imread(str(out / "charuco-board.png")))
    assert board is not None and len(board.image_points) == 24  # every inner corner
    step_px = np.linalg.norm(board.image_points[1] - board.image_points[0])
    assert step_px * 25.4 / DPI == pytest.approx(BOARD_SQUARE_MM, abs=0.2)


@pytest.mark.parametrize(
    ("sheet", "ids"),
    [
        ("table-markers", range(4)),
        ("mirror-mansion-stickers", (10, 11, 12, 13)),
        ("reflecto-markers", (20, 21, 22, 23)),
        ("queen-alice-markers", (30, 31, 32, 33)),
        ("onirim-markers", (40, 41, 42, 43)),
    ],
)
def test_every_marker_has_an_arrow_beside_its_top_edge(tmp_path, sheet, ids):
    """The sheet says to lay each marker with its arrow one way: the arrow must be beside the
    side ArUco reads as the marker's top (its first two corners)."""
    from companion.vision.markers import detect_markers

    assert cli_main(["calibrate", "print", "--out", str(tmp_path)]) == 0
    img = cv2.imread(str(tmp_path / f"{sheet}.png"), cv2.IMREAD_GRAYSCALE)
    found = detect_markers(img)
    mm = DPI / 25.4
    for mid in ids:
        c = found[mid].corners.reshape(4, 2)
        right = (c[1] - c[0]) / np.linalg.norm(c[1] - c[0])
        down = (c[3] - c[0]) / np.linalg.norm(c[3] - c[0])

        def dark_beyond(edge_mid, out):
            spots = [(edge_mid + out * d * mm).astype(int) for d in np.arange(2, 10, 0.5)]
            return any(img[y - 2 : y + 3, x - 2 : x + 3].mean() < 100 for x, y in spots)

        assert dark_beyond((c[0] + c[1]) / 2, -down), f"{sheet} marker {mid}: no arrow"
        assert not dark_beyond((c[1] + c[2]) / 2, right), f"{sheet} marker {mid}"
        assert not dark_beyond((c[3] + c[0]) / 2, -right), f"{sheet} marker {mid}"


def test_sticker_dots_are_8_mm(tmp_path):
    assert cli_main(["calibrate", "print", "--out", str(tmp_path)]) == 0
    img = cv2.imread(str(tmp_path / "mirror-mansion-stickers.png"))
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
    for lo, hi in [
        ((40, 120, 80), (90, 255, 255)),
        ((140, 120, 80), (175, 255, 255)),
        ((5, 120, 80), (25, 255, 255)),
    ]:
        mask = cv2.inRange(hsv, np.array(lo), np.array(hi))
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
        widths = stats[1:, cv2.CC_STAT_WIDTH] * 25.4 / DPI
        assert n - 1 >= 10
        assert np.median(widths) == pytest.approx(8.0, abs=0.2)


@pytest.fixture(scope="module")
def table_photo(tmp_path_factory):
    scene = DemoTableScene(TableSettings(), seed=2, hands=False)
    image, truth = scene.frame(0.0)
    path = tmp_path_factory.mktemp("photo") / "table.jpg"
    cv2.imwrite(str(path), image)
    return path, scene, truth


def test_table_saves_the_homography(tmp_path, table_photo, capsys):
    path, scene, _ = table_photo
    assert (
        cli_main(
            ["calibrate", "table", "--image", str(path), "--data-dir", str(tmp_path), "--json"]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["markers_seen"] == [0, 1, 2, 3]
    assert out["camera_px_per_mm"] == pytest.approx(scene.camera.px_per_mm_at((300, 225)), rel=0.05)
    H = load_table_homography(tmp_path)
    pts = np.array([*corner_centres_mm(TableSettings()).values(), (300.0, 225.0)])
    px = scene.camera.project(pts)
    mapped = cv2.perspectiveTransform(px.reshape(-1, 1, 2), H).reshape(-1, 2)
    assert np.abs(mapped - pts).max() < 1.5
    # The live registrar starts from it before any marker is seen.
    settings = load_settings(overrides={"data_dir": tmp_path}, environ={})
    held = registrar_for(settings).register(np.zeros((960, 1280, 3), np.uint8))
    assert held.ok and held.held


def test_table_text_output_from_the_sim_camera(tmp_path, capsys):
    assert cli_main(["calibrate", "table", "--camera", "sim", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "corner markers seen: 0, 1, 2, 3" in out and "camera px per table mm" in out
    assert (tmp_path / "calibration" / "table.json").exists()


def test_table_names_the_missing_markers(tmp_path, table_photo, capsys):
    path, _, truth = table_photo
    image = cv2.imread(str(path))
    for mid in (1, 2):
        x, y = truth["markers_px"][mid]
        cv2.circle(image, (round(x), round(y)), 45, (90, 130, 190), -1)
    covered = tmp_path / "covered.png"
    cv2.imwrite(str(covered), image)
    assert (
        cli_main(["calibrate", "table", "--image", str(covered), "--data-dir", str(tmp_path)]) == 2
    )
    err = capsys.readouterr().err
    assert "corner marker(s) 1, 2 not seen (seen: 0, 3)" in err and err.count("\n") == 1
    assert load_table_homography(tmp_path) is None


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p / "missing.jpg", "image not found"),
        (lambda p: (p / "notes.jpg").write_text("hello") and p / "notes.jpg", "is not an image"),
    ],
)
def test_table_bad_image_is_one_line_exit_2(tmp_path, capsys, make, message):
    assert (
        cli_main(
            ["calibrate", "table", "--image", str(make(tmp_path)), "--data-dir", str(tmp_path)]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_each_board_game_prints_its_own_markers_at_its_models_size(tmp_path):
    """A user prints the markers a game's reader looks for, at the size its model says: the
    reader's pose depends on both."""
    from companion.games.onirim.vision.layout import load_layout
    from companion.games.queen_alice.vision.geometry import load_geometry as qa_geometry
    from companion.games.reflecto.vision.geometry import load_geometry as reflecto_geometry

    assert cli_main(["calibrate", "print", "--out", str(tmp_path)]) == 0
    qa, onirim, reflecto = qa_geometry(), load_layout(), reflecto_geometry()
    for sheet, ids, side in (
        ("queen-alice-markers", [m.id for m in qa.markers], qa.marker_side_mm),
        ("onirim-markers", list(onirim.corner_ids), onirim.marker_side_mm),
        ("reflecto-markers", [m.id for m in reflecto.markers], reflecto.marker_side_mm),
    ):
        for mid in ids:
            assert measure_marker_mm(tmp_path / f"{sheet}.png", mid) == pytest.approx(side, abs=0.3)


def test_the_calibration_folder_holds_every_sheet_print_makes():
    """The README tells a user to print `calibration/`: a sheet missing there is a game whose
    markers they cannot print without running the tool."""
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "calibration"
    for sheet in all_sheets(_Table()):
        assert (folder / f"{sheet.name}.pdf").exists(), sheet.name
