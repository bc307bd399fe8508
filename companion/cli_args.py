"""argparse for subcommands: a bad option is a one-line UserError, not argparse's exit."""

from __future__ import annotations

import argparse
from typing import NoReturn

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
    "CommandParser",
    "json_depth",
    "parse_json",
    "read_json_file",
]


class CommandParser(argparse.ArgumentParser):
    """Every subcommand's parser: the CLI prints `companion: error: ...` and exits 2."""

    def error(self, message: str) -> NoReturn:
        # main() already says "companion: error:"; name only the subcommand after it.
        raise UserError(f"{self.prog.removeprefix('companion ')}: {message}")
