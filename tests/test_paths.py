"""Model files: every game reads them through one reader, and a bad one is one clear line."""

from __future__ import annotations

import pytest

from companion.errors import UserError
from companion.paths import model_point, read_model_toml


def test_a_model_file_is_read_and_each_fault_named(tmp_path):
    good = tmp_path / "board.toml"
    good.write_text("[grid]\nrows = 7\n", encoding="utf-8")
    assert read_model_toml(good) == {"grid": {"rows": 7}}
    with pytest.raises(UserError, match=r"missing model file .*nope\.toml"):
        read_model_toml(tmp_path / "nope.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("rows = = 7", encoding="utf-8")
    with pytest.raises(UserError, match=r"broken\.toml is not valid TOML"):
        read_model_toml(broken)
    with pytest.raises(UserError, match="cannot read model file"):
        read_model_toml(tmp_path)  # a folder where a file should be


def test_a_model_point_is_two_numbers_and_anything_else_is_named():
    assert model_point([3, 4.5], "table.toml: discard.at_mm") == (3.0, 4.5)
    for bad in ([1], [1, 2, 3], ["1", 2], [True, 2], 7, None):
        with pytest.raises(UserError, match=r"^table\.toml: discard\.at_mm must be \[x, y\]"):
            model_point(bad, "table.toml: discard.at_mm")


def test_a_bad_point_in_onirims_table_file_is_one_line(tmp_path):
    from companion.games.onirim.vision.layout import load_layout
    from companion.paths import models_dir

    text = (models_dir() / "onirim" / "table.toml").read_text(encoding="utf-8")
    bad = tmp_path / "table.toml"
    bad.write_text(text.replace("at_mm = [", "at_mm = [1, ", 1), encoding="utf-8")
    with pytest.raises(UserError, match=r"table\.toml: discard\.at_mm must be \[x, y\] in mm"):
        load_layout(bad)
