"""`companion settings`: the reference in docs/ is the model's own, and the settings in force."""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli import main
from companion.config import Settings
from companion.settings_cli import reference_markdown

REPO = Path(__file__).resolve().parents[1]


def test_the_settings_reference_in_docs_is_up_to_date():
    doc = (REPO / "docs" / "settings.md").read_text(encoding="utf-8")
    assert doc == reference_markdown(), (
        "docs/settings.md differs from the settings model: run "
        "`.venv/bin/companion settings --reference > docs/settings.md`"
    )


def test_the_reference_names_every_setting_with_its_default():
    text = reference_markdown()
    assert '| `camera.source` | str | `"sim"` |' in text
    assert "| `web.port` | int | `8000` | ≥ 0, ≤ 65535 |" in text
    for name in Settings.model_fields:
        assert f"`{name}`" in text or f"`[{name}]`" in text


def test_settings_in_force_follow_the_file_and_the_environment(tmp_path, capsys, monkeypatch):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[camera]\nsource = "opencv:0"\n', encoding="utf-8")
    monkeypatch.setenv("COMPANION_WEB__PORT", "9001")
    assert main(["settings", "--config", str(cfg)]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["camera"]["source"] == "opencv:0" and shown["web"]["port"] == 9001
    cfg.write_text("[camera]\nsorce = 1\n", encoding="utf-8")
    assert main(["settings", "--config", str(cfg)]) == 2
    assert "unknown setting 'camera.sorce'" in capsys.readouterr().err
