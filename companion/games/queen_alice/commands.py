"""`companion moves queen-alice` and `companion score queen-alice`.

`moves --json` prints `{"moves": [{"to": [r, c], "capture": bool}], "blocked": bool}` for
one piece; `score --json` prints each player's parts, total and the winner(s). Other tools
rely on both shapes (docs/queen-alice.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

from companion.cli_args import CommandParser, read_json_file, state_parser
from companion.errors import UserError
from companion.games.queen_alice.end_json import game_end_from_json
from companion.games.queen_alice.position_json import position_from_json
from companion.games.queen_alice.rules.final_scoring import (
    READINGS,
    final_score,
    load_scoring_rules,
)
from companion.games.queen_alice.rules.movement import generate_moves

GAME = "queen-alice"


def moves_command(argv: list[str]) -> int:
    parser = state_parser(
        "moves",
        GAME,
        "The legal destinations of one piece on the chessboard.",
        "position as JSON (see docs/queen-alice.md)",
    )
    args = parser.parse_args(argv)
    position, index = position_from_json(read_json_file(args.state))
    moves = generate_moves(position, index)
    if args.json:
        print(json.dumps({"moves": [m.to_json() for m in moves], "blocked": not moves}))
        return 0
    piece = position.pieces[index]
    where = f"The {piece.colour} {piece.kind} on {list(piece.cell)}"
    if not moves:
        print(f"{where} is blocked: it resolves its own square.")
        return 0
    print(f"{where} can move to {len(moves)} square{'s' if len(moves) != 1 else ''}:")
    for move in moves:
        print(f"  {list(move.to)}" + (" (capture)" if move.capture else ""))
    return 0


def score_command(argv: list[str]) -> int:
    parser = CommandParser(
        prog=f"companion score {GAME}",
        description="The final scoring from each player's end state.",
    )
    parser.add_argument("file", help="end state as JSON (see docs/queen-alice.md)")
    parser.add_argument(
        "--coronation",
        choices=READINGS,
        default=None,
        help="which rule crowns Alice (default: models/queen-alice/scoring.toml)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    rules = load_scoring_rules()
    if args.coronation is not None:
        rules = replace(rules, reading=args.coronation)
    end = game_end_from_json(read_json_file(args.file), rules.wishes_per_colour)
    result = final_score(end, rules)
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    crowned = result.crowned or "nobody (a tie: every Crown counts, no Wish flipped)"
    print(f"Alice is crowned {crowned}.")
    for p in result.players:
        print(
            f"  {p.name}: {p.total} IP = track {p.track} + crowns {p.coronation} + wishes "
            f"{p.wishes} + guests {p.guests} + bookmarks {p.bookmarks}"
        )
    winners = result.winners
    print(("Winner: " if len(winners) == 1 else "Shared victory: ") + ", ".join(winners))
    return 0


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


def simulate_command(argv: list[str]) -> int:
    from companion.games.queen_alice.rules.engine import OPTIONS
    from companion.games.queen_alice.simulate import simulate

    parser = CommandParser(
        prog=f"companion simulate {GAME}",
        description="Play random games through the rules engine and "
        "summarise them (length, winners, broken states).",
    )
    parser.add_argument("--games", type=_positive, default=100)
    parser.add_argument(
        "--players", default="2,3,4", help="player counts, used in turn (default 2,3,4)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--check", action="store_true", help="check every state against the engine's invariants"
    )
    for name, values in OPTIONS.items():
        parser.add_argument(
            f"--{name.replace('_', '-')}",
            choices=values,
            default=None,
            help=(
                "the set-up's Train cards (default: play)"
                if name == "train_cards"
                else "a rulebook reading (default: models/queen-alice)"
            ),
        )
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    try:
        counts = tuple(int(n) for n in args.players.split(","))
    except ValueError:
        raise UserError(f"--players: a list like 2,3,4, got {args.players!r}") from None
    if not all(2 <= n <= 4 for n in counts):
        raise UserError("--players: Queen Alice is for 2 to 4 players")
    options = {k: getattr(args, k) for k in OPTIONS if getattr(args, k) is not None}
    out = simulate(args.games, counts, args.seed, options, args.check)
    if args.json:
        print(json.dumps(out))
        return 0
    print(
        f"{out['games']} random games in {out['seconds']} s: {out['stuck']} stuck, "
        f"{out['illegal_states']} with a broken state"
        + ("" if args.check else " (not checked: --check)")
    )
    for n, part in out["by_players"].items():
        turns = part["turns_per_player"]
        print(
            f"  {n} players: {part['games']} games, {turns['median']} turns each "
            f"(median; {turns['min']}-{turns['max']}), winning score "
            f"{part['winning_score']['median']} IP (median)"
        )
    return 0


def render_command(argv: list[str]) -> int:
    from companion.games.queen_alice.vision.commands import render

    return render(argv)


def read_command(argv: list[str]) -> int:
    from companion.games.queen_alice.vision.commands import read

    return read(argv)


VERBS: dict[str, Callable[[list[str]], int]] = {
    "moves": moves_command,
    "score": score_command,
    "simulate": simulate_command,
    "render": render_command,
    "read": read_command,
}
