"""`companion moves reflecto` and `companion solve reflecto`, plus the camera side's verbs.

Both read a position file (shape in position_json.py). `moves --json` prints
`{"moves": [{"screen": ID, "to": [r, c] | "off"}, ...], "removals": [ID, ...]}` for the
seat to move; other tools rely on that shape (docs/reflecto.md).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
from collections.abc import Callable
from typing import Any

from companion.cli_args import read_json_file, state_parser
from companion.errors import UserError
from companion.games.reflecto.position_json import order_from_json, position_from_json
from companion.games.reflecto.rules.hint import MAX_SECONDS, MAX_STATES, hint

GAME = "reflecto"


def _describe(move: dict[str, Any]) -> str:
    to = move["to"]
    return f"{move['screen']} off the board" if to == "off" else f"{move['screen']} to {to}"


def moves_command(argv: list[str]) -> int:
    parser = state_parser(
        "moves",
        GAME,
        "Every legal move and removal of the seat to move.",
        "position as JSON (see docs/reflecto.md)",
    )
    args = parser.parse_args(argv)
    position = position_from_json(read_json_file(args.state))
    out: dict[str, Any] = {
        "moves": [m.to_json() for m in position.moves()],
        "removals": position.removals(),
    }
    if args.json:
        print(json.dumps(out))
        return 0
    print(
        f"Seat {position.to_move} has {len(out['moves'])} moves"
        + (f" and may remove {', '.join(map(str, out['removals']))}" if out["removals"] else "")
        + "."
    )
    for move in out["moves"]:
        print(f"  {_describe(move)}")
    return 0


def solve_command(argv: list[str]) -> int:
    parser = state_parser(
        "solve",
        GAME,
        "The fewest own moves that remove all of a seat's letters in word order "
        "if the opponent's screens stood still (breadth-first search).",
        'position as JSON with "order" (see docs/reflecto.md)',
    )
    parser.add_argument(
        "--seat",
        type=int,
        choices=(0, 1),
        default=None,
        help="the seat to solve for (default: the seat to move)",
    )
    parser.add_argument(
        "--max-states",
        type=int,
        default=MAX_STATES,
        help=f"search budget in positions (default {MAX_STATES})",
    )
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=MAX_SECONDS,
        help=f"search budget in seconds (default {MAX_SECONDS:g})",
    )
    args = parser.parse_args(argv)
    if args.max_states < 1 or args.max_seconds <= 0:
        raise UserError("--max-states and --max-seconds must be positive")
    data = read_json_file(args.state)
    position = position_from_json(data)
    seat = position.to_move if args.seat is None else args.seat
    order = order_from_json(data, position, seat)
    found = hint(position, seat, order, args.max_states, args.max_seconds)  # type: ignore[arg-type]
    if args.json:
        print(json.dumps(found.to_json()))
        return 0
    took = f"{found.states} positions, {found.seconds:.2f} s"
    if found.moves is None:
        why = "no way exists" if found.complete else "the search budget ran out"
        print(f"Seat {seat}: no plan found ({why}); at least {found.at_least} moves ({took}).")
        return 0
    plural = "" if found.moves == 1 else "s"
    how = "" if found.proven else f"; not proven the fewest: at least {found.at_least}"
    print(f"Seat {seat} can remove all its letters in {found.moves} move{plural} ({took}{how}):")
    lifts = found.removals_after
    if lifts and lifts[0]:
        print(f"  remove {', '.join(map(str, lifts[0]))}")
    for i, move in enumerate(found.plan):
        line = f"  {i + 1}. {_describe(move.to_json())}"
        if i + 1 < len(lifts) and lifts[i + 1]:
            line += f", then remove {', '.join(map(str, lifts[i + 1]))}"
        print(line)
    return 0


def _vision_verbs() -> dict[str, Callable[[list[str]], int]]:
    """The camera side's verbs (render, read), if that part of the game exists yet."""
    name = "companion.games.reflecto.vision.commands"
    try:
        if importlib.util.find_spec(name) is None:
            return {}
    except ModuleNotFoundError:
        return {}
    return dict(getattr(importlib.import_module(name), "VISION_VERBS", {}))


VERBS: dict[str, Callable[[list[str]], int]] = {
    "moves": moves_command,
    "solve": solve_command,
}
VERBS.update(_vision_verbs())
