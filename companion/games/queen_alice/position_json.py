"""The STATE file of `companion moves queen-alice`, with every mistake as one UserError.

Shape (other tools rely on it; docs/queen-alice.md):
`{"rows": R, "cols": C, "pieces": [{"colour": "red"|"white", "kind": ..., "cell": [r, c]}],
"piece": INDEX, "forward": {"red": -1, "white": 1}}`. `forward` may be left out: it then
comes from each colour's final row in models/queen-alice/board.toml.
"""

from __future__ import annotations

from typing import Any

from companion.errors import UserError
from companion.games.queen_alice.rules.board import COLOURS, load_board, pieces_from_list
from companion.games.queen_alice.rules.movement import Position


def _whole(data: dict[str, Any], key: str, low: int) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise UserError(f"state: {key!r} must be a whole number >= {low}, got {value!r}")
    return value


def position_from_json(data: Any) -> tuple[Position, int]:
    """The position and the index of the piece asked about."""
    if not isinstance(data, dict):
        raise UserError("state: must be a JSON object with rows, cols, pieces, piece")
    rows, cols = _whole(data, "rows", 1), _whole(data, "cols", 1)
    pieces = pieces_from_list(data.get("pieces"), rows, cols, "state")
    index = _whole(data, "piece", 0)
    if index >= len(pieces):
        raise UserError(f"state: 'piece' is {index} but there are {len(pieces)} pieces")
    forward = data.get("forward")
    if forward is None:
        board = load_board()
        forward = {colour: board.forward(colour) for colour in COLOURS}
    elif (
        not isinstance(forward, dict)
        or set(forward) != set(COLOURS)
        or not all(forward[c] in (-1, 1) and not isinstance(forward[c], bool) for c in COLOURS)
    ):
        raise UserError('state: \'forward\' must be {"red": -1 or 1, "white": -1 or 1}')
    return Position(rows, cols, pieces, dict(forward)), index
