"""The `companion` command.

Platform subcommands live in their own modules; game subcommands (`score <game>`,
`predict <game>`, ...) are dispatched to `companion/games/<game>/commands.py`, so
a new game adds its tools without touching this file. Modules are imported only when their
subcommand runs: `companion --help` must work on a machine without a camera stack.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from companion import __version__
from companion.errors import UserError

# name -> (module with `main(argv) -> int`, one-line purpose)
PLATFORM_COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("companion.web.serve", "run the live service: camera, perception, dashboard"),
    "calibrate": (
        "companion.vision.calibrate_cli",
        "print markers and boards, calibrate the lens, fix the table homography",
    ),
    "doctor": ("companion.doctor", "check camera, light, focus and markers, and say what to fix"),
    "rig": ("companion.rig", "camera height, field of view and pixels per millimetre for a table"),
    "settings": ("companion.settings_cli", "print the settings in force, or what each one means"),
}

# Game tools: `companion VERB GAME ...`, run by companion.games.<pkg>.commands.VERBS[VERB].
GAME_COMMANDS: dict[str, str] = {
    "render": "write synthetic photographs of a game's table with ground truth",
    "teach": "teach the companion your own copy of a game from photos",
    "read": "read a game's state from photographs",
    "predict": "predict what a game's mirrors will show",
    "solve": "find the fewest moves that reach a wanted outcome",
    "moves": "list the legal moves of a position given as JSON",
    "simulate": "play many rounds between computer players and print statistics",
    "score": "score a finished round given as JSON",
}


def _build_parser() -> argparse.ArgumentParser:
    from companion.games import games_with_command

    parser = argparse.ArgumentParser(
        prog="companion",
        description="A camera over the table that follows mirror-themed games.",
        epilog="Run `companion COMMAND --help` for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, purpose) in PLATFORM_COMMANDS.items():
        sub.add_parser(name, help=purpose, add_help=False)
    for verb, purpose in GAME_COMMANDS.items():
        games = ", ".join(games_with_command(verb)) or "none yet"
        sub.add_parser(verb, help=f"{purpose} (GAME: {games})", add_help=False)
    return parser


def _game_command(verb: str, argv: list[str]) -> int:
    from companion.games import game_commands

    if not argv or argv[0] in ("-h", "--help"):
        from companion.games import games_with_command

        names = games_with_command(verb)
        print(f"usage: companion {verb} GAME [options]\n\n{GAME_COMMANDS[verb]}.")
        print("games: " + (", ".join(names) if names else "(none yet)"))
        print(f"Run `companion {verb} GAME --help` for a game's options.")
        return 0
    handler: Callable[[list[str]], int] = game_commands(argv[0], verb)
    return handler(argv[1:])


def run(argv: Sequence[str]) -> int:
    args = list(argv)
    if not args or args[0] in ("-h", "--help", "--version"):
        parser = _build_parser()
        if not args:
            parser.print_help()
            return 2
        try:
            parser.parse_args(args)  # prints help or version
        except SystemExit as done:
            return int(done.code or 0)
        return 0
    command, rest = args[0], args[1:]
    if command in PLATFORM_COMMANDS:
        module = importlib.import_module(PLATFORM_COMMANDS[command][0])
        return int(module.main(rest) or 0)
    if command in GAME_COMMANDS:
        return _game_command(command, rest)
    known = ", ".join([*PLATFORM_COMMANDS, *GAME_COMMANDS])
    raise UserError(f"unknown command {command!r} (known: {known})")


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return run(sys.argv[1:] if argv is None else argv)
    except UserError as exc:
        print(f"companion: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
