"""The Onirim vision benchmark keeps earlier runs: each run's results file carries its id."""

from pathlib import Path

from benchmarks.onirim_vision import results_path, run_id


def test_each_run_writes_its_own_results_file(tmp_path: Path) -> None:
    base = tmp_path / "onirim_vision.json"
    first = results_path(base, "20260101T000000Z_1")
    second = results_path(base, "20260101T000000Z_2")
    assert first == tmp_path / "onirim_vision_20260101T000000Z_1.json"
    assert first != second and first != base
    assert run_id() != "" and "_" in run_id()
