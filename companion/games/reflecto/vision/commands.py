"""`companion render reflecto` and `companion read reflecto`.

`render` writes synthetic photographs of the board with their answer keys (DIR/0000.jpg and
DIR/0000.json, the JSON in the shape `read --json` prints); `read` reads photographs. Both are
merged into the game's `commands.VERBS` (see VISION_VERBS).
"""

from __future__ import annotations

import json
from collections.abc import Callable

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
from companion.games.reflecto.vision.board_print import learn_print
from companion.games.reflecto.vision.colours import ScreenColours
from companion.games.reflecto.vision.geometry import load_geometry
from companion.games.reflecto.vision.read import read_board
from companion.games.reflecto.vision.reading import BoardReading
from companion.games.reflecto.vision.render import Conditions, render_photo
from companion.vision import image_file
from companion.vision.image_file import write_jpeg

GAME = "reflecto"


def render(argv: list[str]) -> int:
    parser = render_parser(
        GAME,
        "Write photographs of a Reflecto board from above with their answer keys "
        "(NNNN.jpg + NNNN.json in the shape of `companion read reflecto --json`).",
        over="board",
        camera=True,
    )
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
    conditions = Conditions(**render_conditions(args, max_tilt=40, min_size=(640, 480)))
    out = render_folder(args)
    geom = load_geometry()
    written = []
    for i in range(args.count):
        photo = render_photo(geom, (args.seed, i), conditions, setup=args.setup)
        name, key, truth = write_photo(out, i, photo.image, photo.truth.to_json)
        setup = None
        if photo.setup is not None:
            setup = write_jpeg(out / f"{i:04d}-setup.jpg", photo.setup)
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
    return with_warnings("; ".join(seats), reading.warnings)


def read(argv: list[str]) -> int:
    parser = read_parser(
        GAME,
        "Read which squares hold a screen, and whose, from photographs of the "
        "board (corner markers 20-23, see docs/reflecto.md).",
    )
    parser.add_argument(
        "--colours",
        help="screen colours saved at set-up (JSON); default: learned from each picture",
    )
    parser.add_argument(
        "--setup",
        metavar="IMAGE",
        help="a photograph of the start position to learn the colours from",
    )
    parser.add_argument(
        "--board",
        metavar="EMPTY",
        help="a photograph of the empty board (any light, tilt or turn): each square is "
        "judged by change against its own print; default: from each picture alone",
    )
    args = parser.parse_args(argv)
    geom = load_geometry()
    colours = load_colours(args.colours)
    if args.setup:
        from companion.games.reflecto.vision.read import learn_at_setup, rectify

        image_file.check_image_path(args.setup, missing="no such file")
        rect = rectify(image_file.read_image(args.setup), geom)
        if rect is None:
            raise UserError(f"{args.setup}: the board's corner markers are not seen")
        colours = learn_at_setup(rect, geom)
    taught = None
    if args.board:
        image_file.check_image_path(args.board, missing="no such file")
        taught = learn_print(image_file.read_image(args.board), geom)
        if taught is None:
            raise UserError(f"{args.board}: the board's corner markers are not seen")
    return print_readings(
        args.images,
        lambda image: read_board(image, geom, colours, board_print=taught)[0],
        describe,
        args.json,
        missing="no such file",
    )


VISION_VERBS: dict[str, Callable[[list[str]], int]] = {"render": render, "read": read}
