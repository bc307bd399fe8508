"""Players are named, never numbered, in everything a player reads.

The rules engines and the trackers stay free of names: a seat in an `IllegalAction`'s
detail, a breach or a refusal is written "seat N" (0-based, as the engines count), which a
program can read back. Between them and the players stands this one module: `players_words`
says each "seat N" as the session's name for that seat, and `player_name` is the name itself
("Player 2" when the session has none for it). The platform passes every refusal of a
correction through it (`Runtime.correct`), and a table passes through it the breaches it
records, so the log, the views and the 409s all read "it is Bo's turn", not "seat 1's".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from companion.errors import UserError
from companion.games.base import IllegalAction

SEAT = re.compile(r"\bseat (\d+)\b")
"""How engines and trackers write a seat: lower case, so a player called "Seat 1" is not
taken for one."""


def player_name(seats: Sequence[str], seat: int) -> str:
    """The name the players gave `seat`, or "Player N" (counted from 1, as people count)."""
    if 0 <= seat < len(seats) and seats[seat].strip():
        return seats[seat]
    return f"Player {seat + 1}"


def default_names(count: int) -> list[str]:
    """The names of a session started without any: "Player 1", "Player 2", ..."""
    return [player_name((), seat) for seat in range(count)]


def players_words(text: str, seats: Sequence[str]) -> str:
    """`text` with each "seat N" said as that player's name."""
    return SEAT.sub(lambda m: player_name(seats, int(m.group(1))), text)


def refusal_in_words(exc: IllegalAction | UserError, seats: Sequence[str]) -> Exception:
    """A refusal to pass on to the players, naming them: an `IllegalAction` keeps its rule
    (what a program matches on) and has its detail said; a `UserError` its message. One that
    names no seat is passed on as it is."""
    if isinstance(exc, IllegalAction):
        detail = players_words(exc.detail, seats)
        return exc if detail == exc.detail else IllegalAction(exc.rule, detail)
    text = players_words(str(exc), seats)
    return exc if text == str(exc) else UserError(text)
