"""Settings: defaults < config file (TOML) < environment (COMPANION_*) < command-line flags.

Pydantic models with `extra="forbid"`: a typo in a config file is an error naming the key,
not a silently ignored setting. The layering is pydantic-settings' (a TOML source, an
environment source with `__` between section and key, and the flags on top), so the merge
of nested sections is the library's, not ours.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    InitSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)
from pydantic_settings.sources.utils import parse_env_vars

from companion.errors import UserError


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class CameraSettings(_Section):
    source: str = "sim"
    """`sim`, `replay:PATH`, `opencv:N`, `opencv:/dev/videoN` or `picamera2`."""
    width: int = Field(1280, ge=160, le=8192)
    """Frame width asked of the camera, in pixels (cameras round to the modes they have)."""
    height: int = Field(960, ge=120, le=8192)
    """Frame height asked of the camera, in pixels."""
    fps: float = Field(10.0, gt=0, le=120)
    """Frames a second asked of the camera (and the pace of `replay:` and `sim`)."""
    loop: bool = True
    """For `replay:`: start again at the end (True) or stop (False)."""
    exposure_us: int | None = Field(None, ge=1)
    """Fixed exposure, so a mirror's glint does not swing auto-exposure. None: automatic."""
    seed: int = 0
    """For `sim`: the seed of the simulated table."""
    sim_players: bool = True
    """For `sim`: the simulated table's players tap their moves (the die, the guesses, the
    look) through the dashboard's corrections, so the demo plays itself; false: you tap."""
    sim_pace: float = Field(1.0, ge=0.25, le=4.0)
    """For `sim`: film seconds per second of frames (`fps` frames). 2 plays the demo twice
    as fast, its holds and pauses half as long, if perception reads every frame; where it
    cannot, set `sim_lockstep` (and a lower `fps`) so no hold is skipped."""
    sim_lockstep: bool = False
    """For `sim`: the film waits until perception has read each frame, so a slow or busy
    machine plays the demo slower instead of skipping what its trackers must see; the
    camera's fps is then perception's."""


class TableSettings(_Section):
    marker_dictionary: Literal["DICT_4X4_50"] = "DICT_4X4_50"
    """The ArUco family of the printed corner markers (`companion calibrate print`)."""
    corner_ids: tuple[int, int, int, int] = (0, 1, 2, 3)
    """Marker ids at the play area's top-left, top-right, bottom-right, bottom-left."""
    marker_size_mm: float = Field(40.0, gt=0)
    """Side of a printed corner marker's black square, as measured on the print."""
    width_mm: float = Field(600.0, gt=0)
    """Distance between the centres of the top-left and top-right corner markers."""
    height_mm: float = Field(450.0, gt=0)
    """Distance between the centres of the top-left and bottom-left corner markers."""
    px_per_mm: float = Field(2.0, gt=0)
    """Scale of the top-down table image that perceivers work in."""


class WebSettings(_Section):
    host: str = "127.0.0.1"
    """Address to serve on: 127.0.0.1 for this machine only, 0.0.0.0 for phones on the LAN."""
    port: int = Field(8000, ge=0, le=65535)
    """TCP port of the dashboard (0: any free port)."""
    allowed_hosts: list[str] = Field(default_factory=list)
    """Extra names the dashboard is reached by (a DNS name, a router's alias). Loopback, this
    machine's addresses and names and `companion.local` are always allowed; any other `Host`
    is refused, so a rebound DNS name cannot reach the service."""
    actions_per_s: float = Field(5.0, gt=0)
    """Per-seat rate of changes (corrections, hints, answers); bursts of 4x are allowed."""
    failed_tokens: int = Field(5, ge=1)
    """Wrong tokens one client may send before it is told to back off (429)."""


class StoreSettings(_Section):
    snapshot_budget_mb: int = Field(512, ge=1)
    """Room for event pictures; the oldest are pruned past it (events never are)."""
    checkpoint_every: int = Field(1000, ge=2)
    """Events between saved game states, so a restart replays only the tail (each one is
    the pickled game: a few every thousand events cost little)."""
    retry_s: float = Field(2.0, gt=0)
    """After a failed write (full disk), how long before the game tries again."""


class LimitSettings(_Section):
    max_image_pixels: int = Field(50_000_000, ge=1)
    """Images larger than this are refused before they are decoded (a 2 GB Pi)."""
    max_json_bytes: int = Field(8 * 2**20, ge=1)
    max_json_depth: int = Field(64, ge=2)


def first_game() -> str:
    """The registry's first game is the default one, so that the settings name no game and
    the default follows the registry's order."""
    from companion.games import GAMES

    return next(iter(GAMES))


class PlatformSettings(BaseSettings):
    """The settings every table has; each game adds its own section (see `Settings`)."""

    model_config = SettingsConfigDict(
        extra="forbid",
        validate_assignment=True,
        env_prefix="COMPANION_",
        env_nested_delimiter="__",
    )

    data_dir: Path = Field(default_factory=lambda: default_data_dir())
    """Where the event store, snapshots, calibration and taught decks are kept."""
    game: str = Field(default_factory=first_game)
    """The game a new session starts with (`companion --help` lists the games)."""
    camera: CameraSettings = Field(default_factory=CameraSettings)
    table: TableSettings = Field(default_factory=TableSettings)
    web: WebSettings = Field(default_factory=WebSettings)
    store: StoreSettings = Field(default_factory=StoreSettings)
    limits: LimitSettings = Field(default_factory=LimitSettings)
    """Sizes of inputs refused before they are read (images, JSON files)."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Built directly (`Settings(...)`, as tests and the reference do), settings are the
        defaults and what is passed, whatever the environment says; `load_settings` is the
        one place that layers a file and the environment."""
        return (init_settings,)


def _game_sections() -> dict[str, Any]:
    """Each game's own settings section, from its `settings` part (`SECTION`, `MODEL`,
    `DOC`): shared code names no game, and a new game adds its settings without editing
    this file."""
    from companion.games import GAMES

    sections: dict[str, Any] = {}
    for info in GAMES.values():
        part = info.module("settings")
        if part is not None:
            sections[part.SECTION] = (
                part.MODEL,
                Field(default_factory=part.MODEL, description=part.DOC),
            )
    return sections


Settings = create_model(
    "Settings", __base__=PlatformSettings, __module__=__name__, **_game_sections()
)
"""The platform's settings plus every game's section (its `SECTION`, e.g. `[stickers]`)."""


def default_data_dir() -> Path:
    """`$COMPANION_DATA_DIR`, else `$STATE_DIRECTORY` (systemd), else the user's data home."""
    for var in ("COMPANION_DATA_DIR", "STATE_DIRECTORY"):
        if os.environ.get(var):
            return Path(os.environ[var])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "companion"


def _describe(exc: ValidationError, origin: str) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "(top level)"
    if err["type"] == "extra_forbidden":
        return f"{origin}: unknown setting {where!r}"
    return f"{origin}: setting {where!r}: {err['msg']}"


class _Environment(EnvSettingsSource):
    """The environment read by pydantic-settings (`COMPANION_CAMERA__FPS`), from a given
    mapping: `os.environ`, or a test's stand-in for it."""

    def __init__(self, settings_cls: type[BaseSettings], values: Mapping[str, str]) -> None:
        self._values = values
        super().__init__(settings_cls)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return parse_env_vars(
            self._values, self.case_sensitive, self.env_ignore_empty, self.env_parse_none_str
        )


def _sections(dotted: Mapping[str, Any]) -> dict[str, Any]:
    """Flags name a setting with dots (`web.port`); a source gives sections as dicts."""
    out: dict[str, Any] = {}
    for key, value in dotted.items():
        *sections, leaf = key.split(".")
        node = out
        for section in sections:
            node = node.setdefault(section, {})
        node[leaf] = value
    return out


def _toml_source(config_file: Path) -> PydanticBaseSettingsSource:
    """The config file's settings; a missing or broken file is one line naming it."""
    if not Path(config_file).is_file():
        raise UserError(f"config file not found: {config_file}")
    try:
        return TomlConfigSettingsSource(Settings, toml_file=config_file)
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read config file {config_file}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"config file {config_file} is not valid TOML: {exc}") from None


def load_settings(
    config_file: Path | None = None,
    overrides: dict[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Settings:
    """Settings from a TOML file, the environment and flag overrides (dotted keys allowed)."""
    flags = _sections({k: v for k, v in (overrides or {}).items() if v is not None})
    sources: list[PydanticBaseSettingsSource] = [
        InitSettingsSource(Settings, flags),
        _Environment(Settings, os.environ if environ is None else environ),
    ]
    if config_file is not None:
        sources.append(_toml_source(config_file))
    try:
        return Settings(_build_sources=(tuple(sources), flags))
    except ValidationError as exc:
        raise UserError(_describe(exc, str(config_file or "settings"))) from None
