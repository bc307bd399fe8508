"""argparse for subcommands: a bad option is a one-line UserError, not argparse's exit."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, NoReturn

from companion.errors import UserError


class CommandParser(argparse.ArgumentParser):
    """Every subcommand's parser: the CLI prints `companion: error: ...` and exits 2."""

    def error(self, message: str) -> NoReturn:
        # main() already says "companion: error:"; name only the subcommand after it.
        raise UserError(f"{self.prog.removeprefix('companion ')}: {message}")


def read_json_file(path: str | Path) -> Any:
    """A JSON file given on the command line; every way it can be wrong is one UserError."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"no such file: {p}") from None
    except IsADirectoryError:
        raise UserError(f"{p} is a directory, not a file") from None
    except UnicodeDecodeError:
        raise UserError(f"{p} is not a text file") from None
    except OSError as exc:
        raise UserError(f"cannot read {p}: {exc.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"{p} is not valid JSON: {exc.msg} (line {exc.lineno})") from None
