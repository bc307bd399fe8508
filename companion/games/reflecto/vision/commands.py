"""`companion render reflecto` and `companion read reflecto`.

`render` writes synthetic photographs of the board with their answer keys (DIR/0000.jpg and
DIR/0000.json, the JSON in the shape `read --json` prints); `read` reads photographs. Both are
merged into the game's `commands.VERBS` (see VISION_VERBS).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from companion.cli_args import CommandParser, read_json_file
from companion.errors import UserError
from companion.games.reflecto.vision.colours import ScreenColours
from companion.games.reflecto.vision.geometry import load_geometry
from companion.games.reflecto.vision.read import read_board
from companion.games.reflecto.vision.reading import BoardReading
from companion.games.reflecto.vision.render import Conditions, render_photo

GAME = "reflecto"


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UserError(f"--size wants WIDTHxHEIGHT like 1280x960, not {text!r}") from None
    if not (640 <= w <= 8192 and 480 <= h <= 8192):
        raise UserError(f"--size {text}: width 640..8192 and height 480..8192, please")
    return w, h


def render(argv: list[str]) -> int:
    parser = CommandParser(
        prog=f"companion render {GAME}",
        description="Write photographs of a Reflecto board from above with their answer keys "
        "(NNNN.jpg + NNNN.json in the shape of `companion read reflecto --json`).",
    )
    parser.add_argument("--seed", type=int, default=0, help="same seed, same pictures")
    parser.add_argument("--out", required=True, help="folder to write into (created)")
    parser.add_argument("--count", type=int, default=1, help="how many photographs")
    parser.add_argument("--size", help="force one image size, e.g. 1600x1200")
    parser.add_argument("--max-tilt", type=float, default=25.0, help="camera tilt limit, deg")
    parser.add_argument("--no-hands", action="store_true", help="no arms over the board")
    parser.add_argument(
        "--setup",
        action="store_true",
        help="also write NNNN-setup.jpg: the start position on the same table",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object: the files written, each with its truth",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.count <= 100_000:
        raise UserError("--count must be between 1 and 100000")
    if not 0 <= args.max_tilt <= 40:
        raise UserError("--max-tilt must be between 0 and 40 degrees")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UserError(f"{out} exists and is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    sizes = (_size(args.size),) if args.size else Conditions().sizes
    conditions = Conditions(
        max_tilt_deg=args.max_tilt, hands=0 if args.no_hands else 2, sizes=sizes
    )
    geom = load_geometry()
    written = []
    for i in range(args.count):
        photo = render_photo(geom, (args.seed, i), conditions, setup=args.setup)
        name = out / f"{i:04d}.jpg"
        if not cv2.imwrite(str(name), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 95]):
            raise UserError(f"cannot write {name}")
        setup = None
        if photo.setup is not None:
            setup = out / f"{i:04d}-setup.jpg"
            if not cv2.imwrite(str(setup), photo.setup, [cv2.IMWRITE_JPEG_QUALITY, 95]):
                raise UserError(f"cannot write {setup}")
        truth = photo.truth.to_json(str(name))
        key = out / f"{i:04d}.json"
        key.write_text(json.dumps(truth) + "\n", encoding="utf-8")
        written.append(
            {
                "image": str(name),
                "answer_key": str(key),
                "setup": None if setup is None else str(setup),
                "screens": truth["screens"],
            }
        )
    if args.json:
        print(
            json.dumps(
                {
                    "game": GAME,
                    "seed": args.seed,
                    "out": str(out),
                    "count": args.count,
                    "files": written,
                }
            )
        )
    else:
        print(f"wrote {args.count} photograph(s) with answer keys to {out}")
    return 0


def check_image_path(path: str) -> Path:
    p = Path(path)
    if not p.exists():
        raise UserError(f"no such file: {p}")
    if p.is_dir():
        raise UserError(f"{p} is a folder, not an image")
    return p


def load_image(path: str) -> np.ndarray:
    p = check_image_path(path)
    image = cv2.imread(str(p), cv2.IMREAD_COLOR)
    if image is None:
        raise UserError(f"{p} is not an image OpenCV can read")
    return image


def load_colours(path: str | None) -> ScreenColours | None:
    """Screen colours saved at set-up (`ScreenColours.to_json`), or None."""
    if path is None:
        return None
    data = read_json_file(path)
    try:
        return ScreenColours.from_json(data)
    except (KeyError, TypeError, ValueError):
        raise UserError(
            f"{path} is not a screen-colours file (seat0, seat1: three numbers each)"
        ) from None


def describe(reading: BoardReading) -> str:
    if not reading.board_found:
        return "; ".join(reading.warnings)
    seats = []
    for seat in (0, 1):
        cells = [f"[{s.cell[0]},{s.cell[1]}]" for s in reading.screens if s.owner == seat]
        seats.append(f"seat {seat}: {' '.join(cells) or 'none'}")
    text = "; ".join(seats)
    if reading.warnings:
        text += " (" + "; ".join(reading.warnings) + ")"
    return text


def read(argv: list[str]) -> int:
    parser = CommandParser(
        prog=f"companion read {GAME}",
        description="Read which squares hold a screen, and whose, from photographs of the "
        "board (corner markers 20-23, see docs/reflecto.md).",
    )
    parser.add_argument("images", nargs="+", metavar="IMAGE")
    parser.add_argument("--json", action="store_true", help="one JSON object per image and line")
    parser.add_argument(
        "--colours",
        help="screen colours saved at set-up (JSON); default: learned from each picture",
    )
    parser.add_argument(
        "--setup",
        metavar="IMAGE",
        help="a photograph of the start position to learn the colours from",
    )
    args = parser.parse_args(argv)
    geom = load_geometry()
    for path in [*args.images, *([args.setup] if args.setup else [])]:
        check_image_path(path)  # every path checked before any output
    colours = load_colours(args.colours)
    if args.setup:
        from companion.games.reflecto.vision.read import learn_at_setup, rectify

        rect = rectify(load_image(args.setup), geom)
        if rect is None:
            raise UserError(f"{args.setup}: the board's corner markers are not seen")
        colours = learn_at_setup(rect, geom)
    for path in args.images:
        reading, _ = read_board(load_image(path), geom, colours)
        if args.json:
            print(json.dumps(reading.to_json(path)), flush=True)
        else:
            print(f"{path}: {describe(reading)}", flush=True)
    return 0


VISION_VERBS: dict[str, Callable[[list[str]], int]] = {"render": render, "read": read}
