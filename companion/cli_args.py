"""argparse for subcommands: a bad option is a one-line UserError, not argparse's exit."""

from __future__ import annotations

import argparse
from typing import NoReturn

from companion.errors import UserError


class CommandParser(argparse.ArgumentParser):
    """Every subcommand's parser: the CLI prints `companion: error: ...` and exits 2."""

    def error(self, message: str) -> NoReturn:
        raise UserError(f"{self.prog}: {message}")
