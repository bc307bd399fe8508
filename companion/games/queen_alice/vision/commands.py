"""`companion render queen-alice` and `companion read queen-alice`.

`render` writes synthetic photographs of the Central board with their answer keys
(DIR/0000.jpg and DIR/0000.json, the JSON in the shape `read --json` prints); `read` prints
one JSON object per image and line:
`{"image", "squares": [{"cell", "colour", "confidence"}], "crowns_left", "alice", "warnings"}`.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.cli_args import (
    print_readings,
    read_parser,
    render_conditions,
    render_folder,
    render_parser,
    with_warnings,
    write_photo,
)
from companion.errors import UserError
from companion.games.queen_alice.vision.geometry import load_geometry
from companion.games.queen_alice.vision.read import learn_empty_board, read_board
from companion.games.queen_alice.vision.reading import BoardReading
from companion.games.queen_alice.vision.render import Conditions, render_photo
from companion.vision.image_file import read_image

GAME = "queen-alice"


def render(argv: list[str]) -> int:
    parser = render_parser(
        GAME,
        "Write photographs of the Central board from above with their answer "
        "keys (NNNN.jpg + NNNN.json in the shape of `companion read queen-alice --json`).",
        over="board",
    )
    args = parser.parse_args(argv)
    out = render_folder(args)
    conditions = Conditions(**render_conditions(args))
    geom = load_geometry()
    for i in range(args.count):
        photo = render_photo(geom, (args.seed, i), conditions)
        write_photo(out, i, photo.image, photo.truth.to_json)
    print(f"wrote {args.count} photograph(s) with answer keys to {out}")
    return 0


def describe(reading: BoardReading) -> str:
    if not reading.board_found:
        return "; ".join(reading.warnings)
    parts = [
        f"{colour}: "
        + (
            " ".join(f"[{r},{c}]" for (r, c), v in sorted(reading.squares.items()) if v == colour)
            or "none"
        )
        for colour in ("red", "white")
    ]
    parts.append(f"crowns left: {reading.crowns_left if reading.crowns_left is not None else '?'}")
    parts.append(
        "alice: " + ", ".join(f"{c} {'?' if i is None else i}" for c, i in reading.alice.items())
    )
    return with_warnings("; ".join(parts), reading.warnings)


def read(argv: list[str]) -> int:
    parser = read_parser(
        GAME,
        "Read which squares of the Central board hold a red or a white piece, "
        "the Crowns left and the Alice tokens, from photographs (corner markers 30-33).",
    )
    parser.add_argument(
        "--board",
        metavar="EMPTY",
        help="a photograph of this board with nothing on its squares (any light and angle): "
        "each square is then judged by what changed on it since",
    )
    args = parser.parse_args(argv)
    geom = load_geometry()
    empty = None
    if args.board is not None:
        learnt = learn_empty_board(read_image(args.board), geom)
        if learnt is None:
            raise UserError(
                f"{args.board}: the board's corner markers (30-33) are not seen, so the "
                "empty board cannot be learnt from it"
            )
        empty = learnt[0]
    return print_readings(
        args.images, lambda image: read_board(image, geom=geom, empty=empty), describe, args.json
    )


VISION_VERBS: dict[str, Callable[[list[str]], int]] = {"render": render, "read": read}
