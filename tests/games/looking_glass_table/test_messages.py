"""The Looking Glass's corrections and observations are typed (issue 35): JSON is parsed once
into one model per kind, and anything else is a one-line user error, never a dict lookup."""

from __future__ import annotations

import pytest

from companion.errors import UserError
from companion.games.looking_glass.table.messages import (
    Answer,
    EnterHand,
    GlassObservation,
    RequestHint,
    TableIsRight,
    glass_observation,
    parse,
)


def test_each_kind_parses_to_its_own_model() -> None:
    assert parse({"kind": "hand", "cards": ["dodo"] * 4}) == EnterHand(cards=["dodo"] * 4)
    assert parse({"kind": "hint"}) == RequestHint()
    # The shared dashboard's two untagged shapes.
    assert parse({"question": "pick-0-ab", "answer": "A-r0-c0"}) == Answer(
        question="pick-0-ab", answer="A-r0-c0"
    )
    assert parse({"table_is_right": True}) == TableIsRight()
    # A typed correction (a route's body) passes through as itself.
    assert parse(EnterHand(cards=["walrus-carpenter"] * 4)).cards == ["walrus-carpenter"] * 4


@pytest.mark.parametrize(
    ("payload", "says"),
    [
        ({"hand": ["dodo"] * 4}, "kind is one of: hand, hint"),  # the old key-dispatched shape
        ({"kind": "roll", "value": 3}, "kind is one of"),  # another game's correction
        ({"kind": "hand", "cards": ["dodo"] * 4, "seat": 1}, "seat"),  # a misspelt/extra field
        ({"kind": "hand", "cards": "dodo"}, "cards"),
    ],
)
def test_anything_else_is_one_line_naming_what_is_wrong(payload: dict, says: str) -> None:
    with pytest.raises(UserError) as err:
        parse(payload)
    assert says in str(err.value) and "\n" not in str(err.value)


def test_a_frame_is_read_once_into_the_typed_observation() -> None:
    seen = glass_observation(
        {
            "cards": [{"card": "dodo", "center": [10, 20.5], "position": "A-r0-c0"}],
            "layout": "pyramid",
        }
    )
    assert isinstance(seen, GlassObservation) and seen.cards[0].center == (10.0, 20.5)
    assert seen.still and seen.hidden == () and not seen.cards[0].inferred
    assert glass_observation(seen) is seen
    # The loop's stand-in when the perceiver raised: a frame with no cards.
    failed = glass_observation({"error": "boom"})
    assert failed.error == "boom" and failed.cards == ()
    with pytest.raises(ValueError, match="center"):
        glass_observation({"cards": [{"card": "dodo"}]})
