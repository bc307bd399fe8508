"""`companion render mirror-mansion` and `companion read mirror-mansion`.

`render` writes synthetic photographs of the box with their answer keys (DIR/0000.jpg and
DIR/0000.json, the JSON in the shape `read --json` prints); `read` reads photographs. They
are merged into `commands.VERBS` (see VISION_VERBS) so the CLI finds them.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path

import numpy as np
from pydantic import ValidationError

from companion.cli_args import (
    print_readings,
    read_json_file,
    read_parser,
    render_conditions,
    render_folder,
    render_parser,
    with_warnings,
    write_photo,
)
from companion.errors import UserError
from companion.games.mirror_mansion.rules.board import load_board
from companion.games.mirror_mansion.vision.perceive import read_box
from companion.games.mirror_mansion.vision.render import Conditions, render_photo
from companion.games.mirror_mansion.vision.scene import BoxState
from companion.games.mirror_mansion.vision.stickers import DEFAULT_STICKERS, StickerSettings
from companion.vision.board_pose import Calibration

GAME = "mirror-mansion"


def render(argv: list[str]) -> int:
    parser = render_parser(
        GAME,
        "Write photographs of the Mirror Mansion box with their answer keys "
        "(NNNN.jpg + NNNN.json in the shape of `companion read mirror-mansion --json`).",
        over="box",
        camera=True,
    )
    parser.add_argument(
        "--style",
        choices=["house", "random"],
        default="house",
        help="house: the reference box and sticker kit; random: each box its "
        "own (pieces of any colour, stickers stuck by hand, white balance, "
        "heights, board art)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print what was written as JSON: the folder and each photograph with its answer key",
    )
    args = parser.parse_args(argv)
    conditions = Conditions(**render_conditions(args, max_tilt=60), style=args.style)
    out = render_folder(args)
    board = load_board()
    written = []
    for i in range(args.count):
        photo = render_photo(board, (args.seed, i), conditions)
        name, key, truth = write_photo(out, i, photo.image, photo.truth.to_json)
        written.append({"image": str(name), "truth": str(key), "box": truth})
    if args.json:
        print(
            json.dumps(
                {"out": str(out), "style": args.style, "seed": args.seed, "photographs": written}
            )
        )
    else:
        print(f"wrote {args.count} photograph(s) with answer keys to {out}")
    return 0


def load_stickers(path: str | None) -> StickerSettings:
    """Sticker colours from a TOML file (keys of `StickerSettings`), else the defaults."""
    if path is None:
        return DEFAULT_STICKERS
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"no such file: {path}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UserError(f"{path} is not valid TOML: {exc}") from None
    try:
        return StickerSettings.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UserError(f"{path}: {where}: {first['msg']}") from None


def load_calibration(path: str | None) -> Calibration | None:
    """Lens intrinsics as written by `companion calibrate` (camera_matrix, dist_coeffs)."""
    if path is None:
        return None
    data = read_json_file(path)
    try:
        K = np.asarray(data["camera_matrix"], float)
        dist = np.asarray(data.get("dist_coeffs", [0, 0, 0, 0, 0]), float).ravel()
        if K.shape != (3, 3):
            raise ValueError("camera_matrix is not 3×3")
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise UserError(f"{path} is not a lens calibration: {exc}") from None
    return Calibration(K, dist)


def describe(state: BoxState) -> str:
    if not state.seen:
        return "board not found: " + "; ".join(state.warnings)
    parts = []
    for m in sorted(state.mirrors, key=lambda m: m.cell):
        facing = m.facing or "facing unknown"
        parts.append(f"mirror {list(m.cell)} {m.slot} {facing}")
    if state.door is not None:
        parts.append(f"door {list(state.door.cell)} {state.door.slot}")
    parts.append(f"window {state.window or 'unknown'}")
    return with_warnings(", ".join(parts), state.warnings)


def read(argv: list[str]) -> int:
    parser = read_parser(
        GAME,
        "Read the mirrors, the window card and the door from photographs of the box "
        "(corner markers 10-13 and the sticker kit, see docs/mirror-mansion-table.md).",
    )
    parser.add_argument("--calibration", help="lens intrinsics JSON (default: estimated)")
    parser.add_argument("--stickers", help="TOML with sticker colours (see stickers.py)")
    args = parser.parse_args(argv)
    board = load_board()
    stickers = load_stickers(args.stickers)
    calibration = load_calibration(args.calibration)
    return print_readings(
        args.images,
        lambda image: read_box(image, board, stickers, calibration),
        describe,
        args.json,
        missing="no such file",
    )


VISION_VERBS: dict[str, Callable[[list[str]], int]] = {"render": render, "read": read}
