"""`benchmarks/devset/mirror_mansion/height.py`: the parallax fit recovers a box's mirror
height from its tops' middles when they follow the dilation about the camera's nadir."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "benchmarks" / "devset" / "mirror_mansion"))

from height import fit_height, fit_shift  # noqa: E402

H0, CAMERA = 20.0, 560.0


def _rows(height: float, line: float, half: float = 2.0) -> list[tuple[float, ...]]:
    e = (height - H0) / (CAMERA - height)
    out = []
    for s, d in ((1.0, 140.0), (-1.0, -60.0), (1.0, 20.0), (-1.0, 210.0)):
        middle = s * line + d * e
        far = -1.0 if d > 0 else 1.0
        out.append((s, d, middle, middle + far * half, far))
    return out


@pytest.mark.parametrize("height", [17.0, 20.0, 22.5])
def test_fit_recovers_the_height(height: float) -> None:
    got = fit_height(_rows(height, -2.5), H0, CAMERA)
    assert got is not None
    assert got[0] == pytest.approx(height, abs=1e-6)
    assert got[1] == pytest.approx(0.0, abs=1e-6)
    known = fit_shift(_rows(height, -2.5), -2.5, H0, CAMERA)
    assert known is not None and known[0] == pytest.approx(height, abs=1e-6)
    edge = fit_shift(_rows(height, -2.5, 2.0), -2.5, H0, CAMERA, 2.0)
    assert edge is not None and edge[0] == pytest.approx(height, abs=1e-6)


def test_one_mirror_is_not_enough() -> None:
    assert fit_height(_rows(22.0, 1.0)[:1], H0, CAMERA) is None
