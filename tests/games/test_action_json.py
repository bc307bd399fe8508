"""The shared action codec: what a declared action is written as, and one line per mistake."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pytest

from companion.games.action_json import ActionCodec, from_json, sorted_tuple, spelt, to_json

Cell = tuple[int, int]


@dataclass(frozen=True, order=True)
class Piece:
    cell: Cell
    kind: str


@dataclass(frozen=True)
class Place:
    pieces: tuple[Piece, ...] = field(metadata=spelt(canonical=sorted_tuple))
    names: tuple[tuple[str, str | None], ...] = field(metadata=spelt(as_object=True))


@dataclass(frozen=True)
class Move:
    source: Cell = field(metadata=spelt(key="from"))
    to: Cell | None = field(metadata=spelt(none_as="off"))
    way: str = field(default="walk", metadata=spelt(choices=("walk", "jump")))
    note: str | None = None


@dataclass(frozen=True)
class Done:
    pass


CODEC: ActionCodec[Place | Move | Done] = ActionCodec(
    "Test", {"place": Place, "move": Move, "done": Done}
)


def test_an_action_is_written_as_its_fields_declare_and_read_back() -> None:
    move = Move((1, 2), None, "jump", "x")
    assert CODEC.to_json(move) == {
        "type": "move",
        "from": [1, 2],
        "to": "off",
        "way": "jump",
        "note": "x",
    }
    assert CODEC.from_json(json.loads(json.dumps(CODEC.to_json(move)))) == move
    assert CODEC.to_json(Done()) == {"type": "done"}
    place = CODEC.from_json(
        {
            "type": "place",
            "pieces": [{"cell": [2, 0], "kind": "b"}, {"cell": [0, 1], "kind": "a"}],
            "names": {"z": "last", "a": None},
        }
    )
    assert place == Place(
        (Piece((0, 1), "a"), Piece((2, 0), "b")), (("a", None), ("z", "last"))
    )  # canonical: pieces sorted, pairs by name
    assert CODEC.to_json(place)["names"] == {"a": None, "z": "last"}


def test_left_out_fields_take_their_default_or_none_unless_none_is_a_word() -> None:
    assert CODEC.from_json({"type": "move", "from": [0, 0], "to": [1, 1]}) == Move(
        (0, 0), (1, 1), "walk", None
    )
    with pytest.raises(ValueError, match=r"^move: missing 'to'$"):
        CODEC.from_json({"type": "move", "from": [0, 0]})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1], 'an action is a JSON object with a "type", not [1]'),
        ({"type": "fly"}, "unknown Test action type 'fly' (one of place, move, done)"),
        (
            {"type": "move", "from": [0, True], "to": "off"},
            "move: 'from' must be a list of 2 whole numbers, not [0, True]",
        ),
        (
            {"type": "move", "from": [0, 0], "to": None},
            "move: 'to' must be a list of 2 whole numbers or \"off\", not None",
        ),
        (
            {"type": "move", "from": [0, 0], "to": "off", "way": "fly"},
            "move: 'way' must be one of walk, jump, not 'fly'",
        ),
        (
            {"type": "place", "pieces": [{"cell": [0, 0]}], "names": {}},
            "place: 'pieces' must be a list of objects with cell, kind, not [{'cell': [0, 0]}]",
        ),
        (
            {"type": "place", "pieces": [], "names": {"a": 1}},
            "place: 'names' must be an object whose every value is a string or null, not {'a': 1}",
        ),
    ],
)
def test_a_malformed_action_is_one_line_naming_the_key(data: object, message: str) -> None:
    with pytest.raises(ValueError) as err:
        CODEC.from_json(data)
    assert str(err.value) == message


def test_unknown_keys_are_passed_over_or_refused_as_the_engine_declares() -> None:
    data = {"type": "done", "extra": 1}
    assert CODEC.from_json(data) == Done()
    strict = ActionCodec("Test", {"done": Done}, refuse_unknown=True)
    with pytest.raises(ValueError, match=r"^done: unknown key\(s\) extra$"):
        strict.from_json(data)
    with pytest.raises(TypeError, match="not a Test action"):
        strict.to_json(Piece((0, 0), "a"))  # type: ignore[arg-type]


def test_any_record_round_trips_through_plain_json() -> None:
    piece = Piece((3, 4), "queen")
    assert to_json(piece) == {"cell": [3, 4], "kind": "queen"}
    assert from_json(Piece, to_json(piece)) == piece
    with pytest.raises(ValueError, match=r"^expected an object with cell, kind, not 3$"):
        from_json(Piece, 3)
