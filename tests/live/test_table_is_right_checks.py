"""The checks every game's "the table is right" makes before its own (issue 35: one piece of
code for them, not five): the admin's link, a steady reading, and the engine's refusal said as
one line that keeps the engine's detail."""

import pytest

from companion.errors import UserError
from companion.games.base import IllegalAction
from companion.live.table_game import (
    admin_only_table_is_right,
    steady_reading,
    taken_as_the_table,
)


def test_only_the_admin_may_say_the_table_is_right() -> None:
    admin_only_table_is_right(None)
    with pytest.raises(UserError, match='"the table is right" needs the admin link'):
        admin_only_table_is_right(0)


def test_a_steady_reading_is_passed_on_and_none_asks_to_wait() -> None:
    reading = {"cells": [[0, 1]]}
    assert steady_reading(reading, "the board") is reading
    with pytest.raises(UserError) as exc:
        steady_reading(None, "the whole box")
    assert str(exc.value) == (
        "the camera has no steady reading of the whole box now: take the hands away and try again"
    )


def test_a_reading_the_rules_cannot_reach_is_one_line_with_the_engines_detail() -> None:
    in_words = lambda d: d.replace("A-r2-c4", "row 2")  # noqa: E731
    with pytest.raises(UserError) as exc, taken_as_the_table("the glass", in_words):
        raise IllegalAction("glass", "a card twice at A-r2-c4")
    assert str(exc.value) == "the camera's reading cannot be the glass: a card twice at row 2"
    assert exc.value.__cause__ is None and exc.value.__suppress_context__


def test_other_errors_pass_through_untouched() -> None:
    with pytest.raises(KeyError), taken_as_the_table("the board"):
        raise KeyError("not a rules refusal")
