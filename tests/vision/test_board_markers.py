"""A board's corner markers in a photograph alone (`board_markers`): when the half-size search
finds only two, their eight corners place the other windows, and the whole picture is searched
at full size only when the windows do not find three."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from companion.games.queen_alice.vision.geometry import load_geometry
from companion.games.queen_alice.vision.render import Conditions, render_photo
from companion.vision import board_markers as finder
from companion.vision.board_markers import board_markers
from companion.vision.markers import (
    detect_markers,
    find_markers,
    markers_at_half_size,
    to_gray,
)

GEOM = load_geometry()
WANTED = [m.id for m in GEOM.markers]


@pytest.fixture(scope="module")
def photo() -> np.ndarray:
    """A 1280x960 board with no arm over it, all four markers in sight."""
    return render_photo(GEOM, (71, 0), Conditions(sizes=((1280, 960),), hands=0)).image


def _whole(image: np.ndarray) -> dict[int, Any]:
    return {i: m for i, m in detect_markers(image).items() if i in WANTED}


def _two_at_half_size(monkeypatch: pytest.MonkeyPatch, keep: list[int]) -> list[int]:
    """The half-size search made to find only the markers `keep` (as it does when the others
    are too small or blurred at half size), and every whole-picture search counted."""
    real = markers_at_half_size

    def half(image: np.ndarray, wanted: Any) -> dict[int, Any] | None:
        found = real(image, wanted)
        assert found is not None
        return {i: m for i, m in found.items() if i in keep}

    searches: list[int] = []

    def whole(image: np.ndarray) -> dict[int, Any]:
        searches.append(1)
        return detect_markers(image)

    monkeypatch.setattr(finder, "markers_at_half_size", half)
    monkeypatch.setattr(finder, "detect_markers", whole)
    return searches


@pytest.mark.parametrize("keep", [[30, 31], [30, 32], [31, 33]])
@pytest.mark.parametrize("full_size_corners", [True, False])
def test_two_markers_at_half_size_place_the_others_without_a_whole_picture_search(
    photo: np.ndarray, monkeypatch: pytest.MonkeyPatch, keep: list[int], full_size_corners: bool
) -> None:
    """Side by side or across the board, two markers' corners put the other two's windows
    where a full-size search finds them: all four, at the whole picture's search's corners,
    and the whole picture is not searched."""
    whole = _whole(photo)
    assert sorted(whole) == sorted(WANTED)
    searches = _two_at_half_size(monkeypatch, keep)
    found = board_markers(photo, GEOM, full_size_corners=full_size_corners)
    assert searches == []
    assert sorted(found) == sorted(WANTED)
    for i, m in whole.items():
        assert np.abs(found[i].corners - m.corners).max() < 1e-3


def test_the_whole_picture_is_searched_when_the_windows_find_too_few(
    photo: np.ndarray, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two markers covered (hands): the half-size search finds the other two, their windows
    find no third, and the whole picture's search has the last word."""
    image = photo.copy()
    whole = _whole(image)
    for hidden in (32, 33):
        cover = whole[hidden].corners
        centre = cover.mean(axis=0)
        hand = np.round(centre + 1.6 * (cover - centre)).astype(np.int32)
        cv2.fillConvexPoly(image, hand, (120, 130, 140))
    half = markers_at_half_size(to_gray(image), WANTED)
    assert half is not None and sorted(half) == [30, 31]
    searches = _two_at_half_size(monkeypatch, [30, 31])
    found = board_markers(image, GEOM, full_size_corners=True)
    assert searches == [1]
    assert sorted(i for i in found if i in WANTED) == [30, 31]


def test_a_narrow_photograph_is_searched_at_full_size_only(photo: np.ndarray) -> None:
    small = cv2.resize(photo, (960, 720), interpolation=cv2.INTER_AREA)
    assert markers_at_half_size(to_gray(small), WANTED) is None
    assert sorted(find_markers(small, WANTED, 3)) == sorted(detect_markers(small))


def test_find_markers_keeps_the_half_size_corners_when_enough_are_found(photo: np.ndarray) -> None:
    """Three or more at half size: their refined corners, not the whole picture's search's."""
    half = markers_at_half_size(to_gray(photo), WANTED)
    assert half is not None and len(half) == 4
    got = find_markers(photo, WANTED, 3)
    assert sorted(got) == sorted(half)
    for i, m in half.items():
        assert np.array_equal(got[i].corners, m.corners)
