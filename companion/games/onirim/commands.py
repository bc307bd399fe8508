"""CLI tools: `companion simulate onirim ...` and `companion solve onirim STATE.json`.

Output shapes are relied on by other tools; see docs/onirim.md.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from companion.cli_args import CommandParser, game_parser, read_json_file
from companion.errors import UserError

GAME = "onirim"


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n} must be at least 1")
    return n


def _options(args: argparse.Namespace) -> dict[str, Any]:
    if args.glyphs:
        raise UserError(
            "the Glyph Mirror needs The Glyphs expansion, which is not modelled; play without it"
        )
    if args.hard and args.no_mirrors:
        raise UserError("--hard adds the Rainbow Mirror: it cannot go with --no-mirrors")
    return {"mirrors": not args.no_mirrors, "hard": args.hard}


def _hint_args(p: CommandParser, samples: int, horizon: int, candidates: int) -> None:
    p.add_argument("--samples", type=_positive, default=samples, help="futures per action")
    p.add_argument(
        "--horizon", type=int, default=horizon, help="turns played ahead (-1: to the end)"
    )
    p.add_argument("--candidates", type=_positive, default=candidates, help="actions searched")


def _settings(args: argparse.Namespace) -> Any:
    from companion.games.onirim.hint import HintSettings

    try:
        return HintSettings(args.samples, args.horizon, args.candidates)
    except ValueError as exc:
        raise UserError(str(exc)) from None


def simulate_main(argv: list[str]) -> int:
    from companion.games.onirim.hint import DEFAULT
    from companion.games.onirim.players import KINDS
    from companion.games.onirim.simulate import simulate

    p = game_parser(
        "simulate", GAME, "Play many solo games with a computer player and summarise them."
    )
    p.add_argument("--games", type=_positive, default=100)
    p.add_argument("--no-mirrors", action="store_true", help="the base game alone")
    p.add_argument("--hard", action="store_true", help="add the Rainbow Mirror")
    p.add_argument("--glyphs", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--player", choices=KINDS, default="greedy")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print JSON")
    _hint_args(p, DEFAULT.samples, DEFAULT.horizon, DEFAULT.candidates)
    args = p.parse_args(argv)
    summary = simulate(args.games, args.player, _options(args), args.seed, _settings(args))
    out = summary.to_json()
    if args.player == "hint":
        out["hint"] = {
            "samples": args.samples,
            "horizon": args.horizon,
            "candidates": args.candidates,
        }
    if args.json:
        print(json.dumps(out))
        return 0
    w = out["win_rate"]
    lo, hi = w["ci95"]
    mirrors = "off" if args.no_mirrors else "on"
    print(
        f"{out['games']} games, player {args.player}, mirrors {mirrors}"
        f"{', hard' if args.hard else ''}: won {w['wins']} ({100 * w['rate']:.1f} %, "
        f"95 % interval {100 * lo:.1f}-{100 * hi:.1f} %)"
    )
    print(f"  Doors opened: {out['doors_opened']['mean']:.2f} on average")
    if not args.no_mirrors:
        print(f"  Mirrors explored: {out['mirrors_explored']['mean']:.2f} on average")
    for cause, share in out["losses"].items():
        print(f"  lost with {cause.replace('+', ' and ')} missing: {100 * share:.1f} %")
    print(f"  game length: {out['turns']['mean']:.1f} turns on average")
    return 0


def _load_state(path: str) -> Any:
    from companion.games.onirim.rules import ENGINE
    from companion.games.onirim.rules.state import zones

    data = read_json_file(path)
    try:
        state = ENGINE.state_from_json(data)
    except ValueError as exc:
        raise UserError(f"{path}: {exc}") from None
    counts = zones(state, ENGINE.deck)
    full = ENGINE.deck.copies
    if counts != {k: v for k, v in full.items() if v}:
        diff = {k: counts.get(k, 0) - n for k, n in full.items() if counts.get(k, 0) != n}
        raise UserError(
            f"{path}: the cards do not add up to the deck (extra or missing per kind: {diff})"
        )
    if ENGINE.current_player(state) != 0:
        raise UserError(f"{path}: the player is not to move (phase {state.phase!r})")
    return state


def solve_main(argv: list[str]) -> int:
    from companion.games.onirim.hint import DEEP, hint
    from companion.games.onirim.rules import ENGINE

    p = game_parser(
        "solve",
        GAME,
        "Each legal action's estimated win probability in a position (the hint).",
        "STATE.json is the engine's state (see docs/onirim.md): the deck as counts per kind,\n"
        "the known top cards, hand, labyrinth, Doors, discard, limbo and Mirrors.",
    )
    p.add_argument("state", metavar="STATE.json")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print JSON")
    _hint_args(p, DEEP.samples, DEEP.horizon, DEEP.candidates)
    args = p.parse_args(argv)
    state = _load_state(args.state)
    h = hint(state, _settings(args), seed=args.seed)
    rows: list[dict[str, Any]] = [
        {
            "action": ENGINE.action_to_json(r.action),
            "win": round(r.win, 4),
            "searched": r.searched,
            "spread": round(r.spread, 4),
        }
        for r in h.actions
    ]
    if args.json:
        print(json.dumps({"phase": state.phase, "best": rows[0]["action"], "actions": rows}))
        return 0
    for r in rows:
        a = r["action"]
        what = " ".join(str(v) for k, v in a.items() if v is not None and v != [])
        mark = "" if r["searched"] else "  (not searched)"
        print(f"{100 * r['win']:5.1f} %  {what}{mark}")
    return 0


VERBS: dict[str, Callable[[list[str]], int]] = {
    "simulate": simulate_main,
    "solve": solve_main,
}


def _vision_verbs() -> dict[str, Callable[[list[str]], int]]:
    """The camera side's verbs (render, teach, read): OpenCV loads only with them."""
    from companion.games.onirim.vision.commands import VISION_VERBS

    return dict(VISION_VERBS)


VERBS.update(_vision_verbs())
