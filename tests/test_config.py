"""Settings: a typo or a wrong type in a config file is a one-line error, not a default."""

import pytest

from companion.config import Settings, load_settings
from companion.errors import UserError
from companion.games import GAMES


def test_defaults_and_precedence(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('game = "mirror-mansion"\n[camera]\nsource = "opencv:0"\nfps = 5\n')
    env = {"COMPANION_CAMERA__FPS": "7.5"}
    s = load_settings(cfg, {"web.port": 9000}, environ=env)
    assert s.game == "mirror-mansion"
    assert s.camera.source == "opencv:0"
    assert s.camera.fps == 7.5  # environment beats the file
    assert s.web.port == 9000  # flags beat everything
    assert s.web.host == "127.0.0.1"


def test_the_default_game_is_the_registrys_first(tmp_path):
    """The settings name no game: a new session starts with the first game registered."""
    assert load_settings(None, {}, environ={}).game == next(iter(GAMES))
    assert Settings(data_dir=tmp_path).game == next(iter(GAMES))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[camera]\nsorce = 'sim'\n", "unknown setting 'camera.sorce'"),
        ("[web]\nport = 'eighty'\n", "setting 'web.port'"),
        ("this is = not toml [", "is not valid TOML"),
    ],
)
def test_bad_config_files_are_named(tmp_path, text, message):
    cfg = tmp_path / "c.toml"
    cfg.write_text(text)
    with pytest.raises(UserError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_settings(cfg, environ={})


def test_missing_config_file(tmp_path):
    with pytest.raises(UserError, match="config file not found"):
        load_settings(tmp_path / "nope.toml", environ={})


def test_sticker_colours_are_settings(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text("[stickers.mirror_dot]\nhue_min = 90\nhue_max = 120\n")
    s = load_settings(cfg, environ={})
    assert (s.stickers.mirror_dot.hue_min, s.stickers.mirror_dot.hue_max) == (90, 120)
    assert s.stickers.window_dot.hue_min == 140  # untouched defaults stay
    cfg.write_text("[stickers.mirror_dot]\nhue_min = 400\nhue_max = 10\n")
    with pytest.raises(UserError, match=r"stickers\.mirror_dot\.hue_min"):
        load_settings(cfg, environ={})


def test_the_environment_nests_sections_and_its_typos_are_named():
    env = {
        "COMPANION_WEB__ALLOWED_HOSTS": '["table.lan"]',
        "COMPANION_GAME": "reflecto",
        "COMPANION_MODELS_DIR": "/elsewhere",
    }  # not a setting: another part reads it
    s = load_settings(environ=env)
    assert s.web.allowed_hosts == ["table.lan"] and s.game == "reflecto"
    with pytest.raises(UserError, match=r"unknown setting 'camera\.fsp'"):
        load_settings(environ={"COMPANION_CAMERA__FSP": "3"})
    with pytest.raises(UserError, match=r"setting 'camera\.fps'"):
        load_settings(environ={"COMPANION_CAMERA__FPS": "fast"})


def test_flags_beat_the_environment_and_built_settings_ignore_it(monkeypatch):
    monkeypatch.setenv("COMPANION_WEB__PORT", "9001")
    assert load_settings(overrides={"web.port": 9002, "camera.fps": None}).web.port == 9002
    assert load_settings().web.port == 9001
    assert Settings().web.port == 8000  # only `load_settings` layers the environment
    hosts = load_settings(overrides={"web.allowed_hosts": ["a.lan"]}, environ={})
    assert hosts.web.allowed_hosts == ["a.lan"]  # a flag's value is taken as it is given
