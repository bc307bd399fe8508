"""Reflecto's corrections and observations are typed (issue 35): JSON is parsed once into one
model per kind, and anything else is a one-line user error, never a dict lookup."""

from __future__ import annotations

import pytest

from companion.errors import UserError
from companion.games.reflecto.table.messages import (
    BoardObservation,
    CorrectAction,
    EnterGuess,
    EnterSetup,
    SwitchSight,
    board_observation,
    parse,
)
from companion.games.reflecto.table.track import reading_from


def test_each_kind_parses_to_its_own_model() -> None:
    setup = parse({"kind": "setup", "word": "PIANO", "columns": [1, 3, 5, 2, 4]})
    assert isinstance(setup, EnterSetup) and setup.mirrors == [] and setup.chunks is None
    assert parse({"kind": "guess", "word": "lemon"}) == EnterGuess(word="lemon")
    assert parse({"kind": "sight", "on": False}) == SwitchSight(on=False)
    assert parse({"kind": "action", "action": {"type": "done"}}) == CorrectAction(
        action={"type": "done"}
    )


@pytest.mark.parametrize(
    ("payload", "says"),
    [
        ({"guess": "LEMON"}, "kind is one of: setup, guess"),  # the old key-dispatched shape
        ({"kind": "sight", "on": "yes"}, "on"),  # strict: a switch is true or false
        ({"kind": "setup", "word": "PIANO", "columns": [True, 2]}, "columns"),  # no bools
        ({"kind": "guess", "word": "LEMON", "seat": 0}, "seat"),  # an extra field
    ],
)
def test_anything_else_is_one_line_naming_what_is_wrong(payload: dict, says: str) -> None:
    with pytest.raises(UserError) as err:
        parse(payload)
    assert says in str(err.value) and "\n" not in str(err.value)


def test_a_frame_is_read_once_and_the_tracker_takes_the_typed_reading() -> None:
    seen = board_observation(
        {
            "screens": [
                {"cell": [0, 1], "owner": 0, "confidence": 0.9},
                {"cell": [6, 2], "owner": None},
            ],
            "hands": False,
            "board_found": True,
            "unclear": [[3, 3]],
            "pose": {"K": [[1.0]], "rvec": [0.0], "tvec": [0.0]},
        }
    )
    assert isinstance(seen, BoardObservation) and seen.screens[1].cell == (6, 2)
    assert reading_from(seen).unclear == ((3, 3), (6, 2))
    said = reading_from(seen, {(3, 3): None, (6, 2): 1})
    assert said.reading == frozenset({((0, 1), 0), ((6, 2), 1)})
    failed = board_observation({"error": "boom"})
    assert failed.error == "boom" and reading_from(failed).reading is None
