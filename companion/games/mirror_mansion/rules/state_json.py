"""The board arrangement as JSON, the shape the CLI tools and the camera side exchange:

    {"mirrors": [{"cell": [r, c], "slot": "/", "facing": "NW"}, ...],
     "window": "E1",
     "door": null | {"cell": [r, c], "slot": "\\"},
     "two_sided": false,
     "cards": {"N0": "garlic", ...}}          # may be partial or absent

Parsing raises ValueError with one line saying what is wrong; callers at the user's edge
turn it into a UserError.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.games.mirror_mansion.rules.board import Board, Cell, load_board
from companion.games.mirror_mansion.rules.optics import BoardState, Door, Mirror
from companion.json_input import read_json_file


def cell_from_json(value: Any, what: str) -> Cell:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ValueError(f"{what}: a cell is [row, column], got {value!r}")
    return (value[0], value[1])


def mirror_from_json(data: Any) -> Mirror:
    if not isinstance(data, dict):
        raise ValueError(f"a mirror is an object with cell, slot and facing, got {data!r}")
    unknown = set(data) - {"cell", "slot", "facing"}
    if unknown:
        raise ValueError(f"mirror: unknown field(s) {sorted(unknown)}")
    for key in ("cell", "slot", "facing"):
        if key not in data:
            raise ValueError(f"mirror: missing {key!r}")
    return Mirror(cell_from_json(data["cell"], "mirror"), str(data["slot"]), str(data["facing"]))


def door_from_json(data: Any) -> Door | None:
    if data is None:
        return None
    if not isinstance(data, dict) or set(data) - {"cell", "slot"} or "cell" not in data:
        raise ValueError(f"the door is null or an object with cell and slot, got {data!r}")
    return Door(cell_from_json(data["cell"], "door"), str(data.get("slot", "/")))


def mirror_to_json(m: Mirror) -> dict[str, Any]:
    return {"cell": list(m.cell), "slot": m.slot, "facing": m.facing}


def door_to_json(d: Door | None) -> dict[str, Any] | None:
    return None if d is None else {"cell": list(d.cell), "slot": d.slot}


def board_state_from_json(data: Any, board: Board | None = None) -> BoardState:
    """A checked BoardState; ValueError naming the first problems otherwise."""
    board = board or load_board()
    if not isinstance(data, dict):
        raise ValueError("the state must be a JSON object")
    unknown = set(data) - {"mirrors", "window", "door", "two_sided", "cards"}
    if unknown:
        raise ValueError(f"unknown field(s) {sorted(unknown)}")
    if "window" not in data or not isinstance(data["window"], str):
        raise ValueError("missing 'window' (a card position such as \"E1\")")
    mirrors = data.get("mirrors", [])
    if not isinstance(mirrors, list):
        raise ValueError("'mirrors' must be a list")
    two_sided = data.get("two_sided", False)
    if not isinstance(two_sided, bool):
        raise ValueError("'two_sided' must be true or false")
    cards = data.get("cards") or {}
    if not isinstance(cards, dict) or not all(isinstance(v, str) for v in cards.values()):
        raise ValueError("'cards' must map positions to motif names")
    window = data["window"]
    # A camera may report the window card among the cards; it carries no motif.
    cards = {k: v for k, v in cards.items() if not (k == window and v == board.window_card)}
    state = BoardState(
        mirrors=tuple(mirror_from_json(m) for m in mirrors),
        window=window,
        door=door_from_json(data.get("door")),
        two_sided=two_sided,
        cards=cards,
    )
    problems = state.problems(board)
    if problems:
        raise ValueError("; ".join(problems))
    return state


def board_state_to_json(state: BoardState) -> dict[str, Any]:
    return {
        "mirrors": [mirror_to_json(m) for m in state.mirrors],
        "window": state.window,
        "door": door_to_json(state.door),
        "two_sided": state.two_sided,
        "cards": dict(sorted(state.cards.items())),
    }


def load_board_state(path: str | Path, board: Board | None = None) -> BoardState:
    """Read a state file for the CLI; every user mistake becomes a one-line UserError."""
    p = Path(path)
    data = read_json_file(p)
    try:
        return board_state_from_json(data, board)
    except ValueError as exc:
        raise UserError(f"{p}: {exc}") from None
