"""argparse for subcommands: a bad option is a one-line UserError, not argparse's exit."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn, Protocol, TypeVar

from companion.errors import UserError
from companion.json_input import (  # the CLI's readers of JSON inputs
    MAX_JSON_BYTES,
    MAX_JSON_DEPTH,
    json_depth,
    parse_json,
    read_json_file,
)

__all__ = [
    "MAX_JSON_BYTES",
    "MAX_JSON_DEPTH",
    "MAX_PHOTOS",
    "CommandParser",
    "add_render_arguments",
    "data_file",
    "game_parser",
    "image_size_arg",
    "json_depth",
    "parse_json",
    "print_readings",
    "print_taught",
    "read_json_file",
    "read_parser",
    "render_conditions",
    "render_folder",
    "render_parser",
    "report_teach_problems",
    "state_parser",
    "teach_parser",
    "with_warnings",
    "write_photo",
]


class CommandParser(argparse.ArgumentParser):
    """Every subcommand's parser: the CLI prints `companion: error: ...` and exits 2."""

    def error(self, message: str) -> NoReturn:
        # main() already says "companion: error:"; name only the subcommand after it.
        raise UserError(f"{self.prog.removeprefix('companion ')}: {message}")


def game_parser(verb: str, game: str, description: str, epilog: str | None = None) -> CommandParser:
    """`companion <verb> <game>`'s parser. With an epilog (a file's format, an example) the
    description and epilog are printed as written, so the epilog keeps its own lines;
    without, the description is wrapped to the terminal."""
    return CommandParser(
        prog=f"companion {verb} {game}",
        description=description,
        epilog=epilog,
        formatter_class=(
            argparse.RawDescriptionHelpFormatter if epilog else argparse.HelpFormatter
        ),
    )


def state_parser(verb: str, game: str, description: str, state_help: str) -> CommandParser:
    """`companion <verb> <game> STATE`'s parser for the verbs that read one position from a
    JSON file (moves, predict, solve): the file, and --json to print JSON, spelt one way."""
    parser = game_parser(verb, game, description)
    parser.add_argument("state", help=state_help)
    parser.add_argument("--json", action="store_true", help="print JSON")
    return parser


def read_parser(game: str, description: str, *, library: bool = False) -> CommandParser:
    """`companion read <game>`'s parser with what every game's reader takes: the
    photographs, and --json for one object per image and line (a line per image, so a
    long run can be read as it goes); with `library`, a card game's --library."""
    parser = CommandParser(prog=f"companion read {game}", description=description)
    parser.add_argument("images", nargs="+", metavar="IMAGE")
    parser.add_argument("--json", action="store_true", help="one JSON object per image and line")
    if library:
        parser.add_argument("--library", help=LIBRARY_HELP)
    return parser


LIBRARY_HELP = "card library file (default: in the data dir)"


def teach_parser(game: str, description: str) -> CommandParser:
    """`companion teach <game> DIR`'s parser for a card game: the folder of teach photos,
    the library file to write, and --json."""
    parser = game_parser("teach", game, description)
    parser.add_argument("dir", help="folder of teach photos")
    parser.add_argument("--library", help=LIBRARY_HELP)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    return parser


MAX_PHOTOS = 100_000
"""The most photographs one `companion render <game>` writes."""


def render_parser(game: str, description: str, *, over: str, camera: bool = False) -> CommandParser:
    """`companion render <game>`'s parser with the options every game's renderer shares
    (`add_render_arguments`)."""
    parser = game_parser("render", game, description)
    add_render_arguments(parser, over=over, camera=camera)
    return parser


def add_render_arguments(
    parser: argparse.ArgumentParser, *, over: str, camera: bool = False
) -> None:
    """The options each game's `companion render` shares, spelt one way: the seed, the folder,
    how many, and (with `camera`) a forced image size and the camera's tilt limit, then "no
    hands" over the `over` (the box, the board). The game checks its own tilt range."""
    parser.add_argument("--seed", type=int, default=0, help="same seed, same pictures")
    parser.add_argument("--out", required=True, help="folder to write into (created)")
    parser.add_argument("--count", type=int, default=1, help="how many photographs")
    if camera:
        parser.add_argument("--size", help="force one image size, e.g. 1600x1200")
        parser.add_argument("--max-tilt", type=float, default=25.0, help="camera tilt limit, deg")
    parser.add_argument("--no-hands", action="store_true", help=f"no arms over the {over}")


class Reading(Protocol):
    """What a game's reader returns for one photograph."""

    def to_json(self, image: str) -> dict[str, Any]: ...


R = TypeVar("R", bound=Reading)


def print_readings(
    images: Sequence[str],
    read: Callable[[Any], R],
    describe: Callable[[R], str],
    as_json: bool,
    missing: str = "image not found",
) -> int:
    """`companion read <game>`'s loop over photographs: every path is checked before the
    first is read (a typo in the last is reported before any output), then each image is read
    (`read(image)`) and printed as soon as it is done, so a long run can be followed: its JSON
    on one line with --json, else `path: description`."""
    from companion.vision.image_file import check_image_path, read_image

    for path in images:
        check_image_path(path, missing)
    for path in images:
        reading = read(read_image(path))  # refuses images too large for a Pi
        line = json.dumps(reading.to_json(path)) if as_json else f"{path}: {describe(reading)}"
        print(line, flush=True)
    return 0


def with_warnings(text: str, warnings: Sequence[str]) -> str:
    """A board reader's one-line description with the reading's warnings in brackets after
    it (what `companion read <game>` prints for a photograph that was read with doubts)."""
    return f"{text} ({'; '.join(warnings)})" if warnings else text


def data_file(arg: str | None, default: Callable[[Path], Path]) -> Path:
    """The file an option names, else the command's default for it in the data folder
    (`default(data_dir)`; the settings are read only then)."""
    if arg:
        return Path(arg)
    from companion.config import load_settings

    return default(load_settings().data_dir)


def write_photo(
    out: Path, index: int, image: Any, truth: Callable[[str], dict[str, Any]]
) -> tuple[Path, Path, dict[str, Any]]:
    """A rendered photograph and its answer key, `out/NNNN.jpg` and `out/NNNN.json`: the key
    (`truth(image path)`) in the shape `companion read <game> --json` prints for the photo.
    Returns the two paths and the key."""
    from companion.vision.image_file import write_jpeg

    image_path = write_jpeg(out / f"{index:04d}.jpg", image)
    key = truth(str(image_path))
    key_path = out / f"{index:04d}.json"
    key_path.write_text(json.dumps(key) + "\n", encoding="utf-8")
    return image_path, key_path, key


def render_conditions(
    args: argparse.Namespace,
    max_tilt: float | None = None,
    min_size: tuple[int, int] = (320, 240),
) -> dict[str, Any]:
    """What `add_render_arguments`' options ask of the photographs, as the renderer's
    `Conditions` fields: arms unless --no-hands, and with `camera` the tilt limit (at most
    the game's `max_tilt` degrees) and one forced --size (at least `min_size`)."""
    fields: dict[str, Any] = {"hands": 0 if args.no_hands else 2}
    if max_tilt is not None:
        if not 0 <= args.max_tilt <= max_tilt:
            raise UserError(f"--max-tilt must be between 0 and {max_tilt:g} degrees")
        fields["max_tilt_deg"] = args.max_tilt
        if args.size:
            fields["sizes"] = (image_size_arg(args.size, *min_size),)
    return fields


def render_folder(args: argparse.Namespace, least: int = 1) -> Path:
    """The output folder of a `companion render <game>` (--out, --count), created, after the
    count is checked: a bad count or a file in the folder's place fails before anything is
    written. `least` 0: a card game's render may write only the deck's teach photos."""
    if not least <= args.count <= MAX_PHOTOS:
        raise UserError(f"--count must be between {least} and {MAX_PHOTOS}")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UserError(f"{out} exists and is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    return out


def image_size_arg(text: str, min_width: int, min_height: int) -> tuple[int, int]:
    """`--size WIDTHxHEIGHT`, within what the game's renderer can draw (at most 8192 a side)."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UserError(f"--size wants WIDTHxHEIGHT like 1280x960, not {text!r}") from None
    if not (min_width <= w <= 8192 and min_height <= h <= 8192):
        raise UserError(
            f"--size {text}: width {min_width}..8192 and height {min_height}..8192, please"
        )
    return w, h


def report_teach_problems(refused: Mapping[str, str], warnings: Iterable[str]) -> None:
    """After `companion teach <game>`: on stderr, the photos to take again and why, then the
    warnings about the cards taught; a teach that refused some photos still saves the rest."""
    if refused:
        print(
            f"not taught ({len(refused)}): take these photos again and teach again:",
            file=sys.stderr,
        )
        for why in refused.values():
            print(f"  {why}", file=sys.stderr)
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)


class Taught(Protocol):
    """What a card game's teach run says besides the library it made (which the command
    saves itself): why each other photo was refused, and warnings about the cards taught."""

    @property
    def refused(self) -> Mapping[str, str]: ...

    @property
    def warnings(self) -> Sequence[str]: ...


def print_taught(
    taught: Taught,
    cards: list[str],
    path: Path,
    photos: int,
    as_json: bool,
    noun: str = "cards",
    extra: Mapping[str, Any] | None = None,
) -> int:
    """After `companion teach <game>` saved the library of `cards` at `path`: one JSON object
    (with the game's `extra` facts about the library), or a line and the photos to take
    again (`report_teach_problems`)."""
    if as_json:
        out = {"library": str(path), "cards": cards, **(extra or {})}
        out |= {"refused": dict(taught.refused), "warnings": list(taught.warnings)}
        print(json.dumps(out))
    else:
        print(f"taught {len(cards)} of {photos} {noun} -> {path}")
        report_teach_problems(taught.refused, taught.warnings)
    return 0
