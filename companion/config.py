"""Settings: defaults < config file (TOML) < environment (COMPANION_*) < command-line flags.

Pydantic models with `extra="forbid"`: a typo in a config file is an error naming the key,
not a silently ignored setting.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion.errors import UserError
from companion.games.mirror_mansion.stickers import StickerSettings


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


class Settings(_Section):
    data_dir: Path = Field(default_factory=lambda: default_data_dir())
    """Where the event store, snapshots, calibration and taught decks are kept."""
    game: str = "looking-glass"
    """The game a new session starts with (`companion --help` lists the games)."""
    camera: CameraSettings = Field(default_factory=CameraSettings)
    table: TableSettings = Field(default_factory=TableSettings)
    web: WebSettings = Field(default_factory=WebSettings)
    stickers: StickerSettings = Field(default_factory=StickerSettings)
    """Mirror Mansion's sticker colours as the camera sees them (`[stickers.mirror_dot]` ...)."""


def default_data_dir() -> Path:
    """`$COMPANION_DATA_DIR`, else `$STATE_DIRECTORY` (systemd), else the user's data home."""
    for var in ("COMPANION_DATA_DIR", "STATE_DIRECTORY"):
        if os.environ.get(var):
            return Path(os.environ[var])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "companion"


def _set_dotted(data: dict[str, Any], dotted: str, value: Any) -> None:
    node = data
    *parents, leaf = dotted.split(".")
    for key in parents:
        node = node.setdefault(key, {})
        if not isinstance(node, dict):
            raise UserError(f"setting {dotted!r}: {key!r} is not a section")
    node[leaf] = value


def _env_overrides(environ: dict[str, str]) -> dict[str, Any]:
    """COMPANION_CAMERA__SOURCE=opencv:0 sets camera.source (double underscore nests)."""
    out: dict[str, Any] = {}
    for key, value in environ.items():
        if key.startswith("COMPANION_") and key != "COMPANION_DATA_DIR" and "__" in key:
            dotted = key.removeprefix("COMPANION_").lower().replace("__", ".")
            _set_dotted(out, dotted, value)
    return out


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _describe(exc: ValidationError, origin: str) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "(top level)"
    if err["type"] == "extra_forbidden":
        return f"{origin}: unknown setting {where!r}"
    return f"{origin}: setting {where!r}: {err['msg']}"


def load_settings(
    config_file: Path | None = None,
    overrides: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
) -> Settings:
    """Settings from a TOML file, the environment and flag overrides (dotted keys allowed)."""
    data: dict[str, Any] = {}
    origin = "settings"
    if config_file is not None:
        origin = str(config_file)
        try:
            data = tomllib.loads(Path(config_file).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise UserError(f"config file not found: {config_file}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise UserError(f"cannot read config file {config_file}: {exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise UserError(f"config file {config_file} is not valid TOML: {exc}") from None
    data = _merge(data, _env_overrides(dict(os.environ if environ is None else environ)))
    flat: dict[str, Any] = {}
    for key, value in (overrides or {}).items():
        if value is not None:
            _set_dotted(flat, key, value)
    data = _merge(data, flat)
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        raise UserError(_describe(exc, origin)) from None
