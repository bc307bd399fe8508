"""Model files: every game reads them through one reader, and a bad one is one clear line."""

from __future__ import annotations

import pytest

from companion.errors import UserError
from companion.paths import read_model_toml


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
