"""`companion predict mirror-mansion` and `companion solve mirror-mansion`.

Both read the board arrangement from a JSON file (shape in state_json.py). Output shapes
are relied on by other tools; see docs/mirror-mansion.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from companion.cli_args import state_parser
from companion.errors import UserError
from companion.games.mirror_mansion.rules.actions import Swap, action_to_json
from companion.games.mirror_mansion.rules.board import Board, load_board
from companion.games.mirror_mansion.rules.optics import BoardState, Door, Mirror, Step, Trace, trace
from companion.games.mirror_mansion.rules.solver import Solution, solve
from companion.games.mirror_mansion.rules.state_json import board_state_to_json, load_board_state
from companion.games.mirror_mansion.vision.commands import VISION_VERBS

GAME = "mirror-mansion"
STATE_HELP = "board arrangement as JSON (see docs/mirror-mansion.md)"


def _cell(cell: tuple[int, int]) -> str:
    return f"[{cell[0]},{cell[1]}]"


def describe_end(t: Trace, state: BoardState) -> str:
    if t.blocked_by == "mirror-back":
        return f"the back of the mirror in {_cell(t.steps[-1].cell)}"
    if t.blocked_by == "door":
        return f"the door in {_cell(t.steps[-1].cell)}"
    if t.blocked_by == "window":
        return "its own window (the view comes back out of the castle)"
    if t.blocked_by == "loop":
        return "nothing: the view runs in a loop"
    motif = f" ({t.motif})" if t.motif else " (motif unknown)"
    return f"the card at {t.position}{motif}"


def describe_step(step: Step) -> str:
    if step.event == "pass":
        return f"{_cell(step.cell)} passes heading {step.heading_in}"
    if step.event == "bounce":
        return f"{_cell(step.cell)} bounces from heading {step.heading_in} to {step.heading_out}"
    return f"{_cell(step.cell)} stops at the {step.event.replace('-', ' ')}"


def predict(argv: list[str]) -> int:
    parser = state_parser(
        "predict",
        GAME,
        "What the eye at the window card sees, and the light path to it.",
        STATE_HELP,
    )
    args = parser.parse_args(argv)
    board = load_board()
    state = load_board_state(args.state, board)
    t = trace(state, board)
    if args.json:
        print(json.dumps(t.to_json()))
        return 0
    print(
        f"Through the window at {state.window} you will see {describe_end(t, state)}"
        f" after {t.bounces} bounce{'s' if t.bounces != 1 else ''}."
    )
    for step in t.steps:
        print(f"  {describe_step(step)}")
    return 0


def _want(want: str, state: BoardState, board: Board) -> tuple[str, str | None]:
    """The wanted card position, and its motif where known."""
    if board.is_position(want):
        return want, state.cards.get(want)
    if want in board.cards:
        for pos, motif in state.cards.items():
            if motif == want:
                return pos, motif
        raise UserError(
            f"where is {want!r}? it is on no card in the state's 'cards'; "
            "add it there or give a position such as N0"
        )
    raise UserError(
        f"--want {want!r} is neither a card position (N0..W2) nor a motif "
        f"({', '.join(board.cards)})"
    )


def swap_json(swap: Swap, before: BoardState) -> dict[str, Any]:
    """A swap as the engine's action, plus what it does in words."""
    is_door = before.door is not None and before.door.cell == swap.source
    mirror = next((m for m in before.mirrors if m.cell == swap.source), None)
    was = before.door if is_door else mirror
    turn = mirror is not None and (swap.target, swap.slot) == (mirror.cell, mirror.slot)
    return action_to_json(swap) | {
        "piece": "door" if is_door else "mirror",
        "kind": "turn" if turn else "move",
        "from_slot": None if was is None else was.slot,
        "from_facing": None if mirror is None else mirror.facing,
    }


def describe_swap(item: dict[str, Any]) -> str:
    src, dst = item["from"], item["to"]
    if item["kind"] == "turn":
        return f"turn the mirror in [{src[0]},{src[1]}] to face {item['facing']}"
    facing = f" facing {item['facing']}" if item["facing"] else ""
    return (
        f"move the {item['piece']} from [{src[0]},{src[1]}] {item['from_slot']} "
        f"to [{dst[0]},{dst[1]}] {item['slot']}{facing}"
    )


def solution_json(sol: Solution, state: BoardState, motif: str | None) -> dict[str, Any]:
    board = load_board()
    ways = []
    for way in sol.ways:
        before = state
        steps = []
        for swap in way.swaps:
            steps.append(swap_json(swap, before))
            before = _after(before, swap)
        result = board_state_to_json(way.result)
        ways.append(
            {
                "swaps": steps,
                "mirrors": result["mirrors"],
                "door": result["door"],
                "path": trace(way.result, board).to_json()["path"],
            }
        )
    return {
        "want": sol.want,
        "motif": motif,
        "window": state.window,
        "possible": sol.swaps is not None,
        "swaps": sol.swaps,
        "reason": sol.reason,
        "ways": ways,
    }


def _after(state: BoardState, swap: Swap) -> BoardState:
    if state.door is not None and state.door.cell == swap.source:
        return replace(state, door=Door(swap.target, swap.slot))
    assert swap.facing is not None
    mirrors = tuple(
        Mirror(swap.target, swap.slot, swap.facing) if m.cell == swap.source else m
        for m in state.mirrors
    )
    return replace(state, mirrors=mirrors)


def solve_command(argv: list[str]) -> int:
    parser = state_parser(
        "solve",
        GAME,
        "Every legal way with the fewest swaps (at most three) to make the window "
        "show the wanted card.",
        STATE_HELP,
    )
    parser.add_argument("--want", required=True, help="a motif (e.g. garlic) or a position (N0)")
    parser.add_argument(
        "--door", action="store_true", help="door variant: swaps may also move the door"
    )
    args = parser.parse_args(argv)
    board = load_board()
    state = load_board_state(args.state, board)
    if args.door and state.door is None:
        raise UserError('--door: the state has no door (set "door": {"cell": [r, c], ...})')
    want, motif = _want(args.want, state, board)
    sol = solve(state, want, door_movable=args.door, board=board)
    out = solution_json(sol, state, motif)
    if args.json:
        print(json.dumps(out))
        return 0
    label = f"{want} ({motif})" if motif else want
    if sol.swaps is None:
        print(
            f"Impossible within the rules: the window at {state.window} cannot show {label}"
            f" — {sol.reason}."
        )
        return 0
    n = len(out["ways"])
    print(
        f"The window at {state.window} can show {label} with {sol.swaps} "
        f"swap{'s' if sol.swaps != 1 else ''}; {n} way{'s' if n != 1 else ''}:"
    )
    for i, way in enumerate(out["ways"], 1):
        print(f"  {i}. " + "; then ".join(describe_swap(s) for s in way["swaps"]))
    return 0


VERBS: dict[str, Callable[[list[str]], int]] = {
    "predict": predict,
    "solve": solve_command,
}
# The camera side (render, read, teach) lives in vision_commands.py; OpenCV loads with it.
VERBS.update(VISION_VERBS)
