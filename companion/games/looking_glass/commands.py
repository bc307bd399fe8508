"""CLI tools: `companion score|simulate|solve looking-glass ...`."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from companion.cli_args import game_parser, read_json_file
from companion.errors import UserError
from companion.games.base import CHANCE, IllegalAction
from companion.games.looking_glass.hint import DEFAULT_SAMPLES, hint
from companion.games.looking_glass.players import KINDS
from companion.games.looking_glass.rules.engine import ENGINE
from companion.games.looking_glass.rules.scoring import check_collections, score_round
from companion.games.looking_glass.simulate import simulate
from companion.games.looking_glass.vision.commands import VISION_VERBS

GAME = "looking-glass"

SCORE_FORMAT = """\
FILE is JSON with each player's score pile and hand as counts per card id:
  {"first": 0,
   "players": [{"pile": {"caterpillar": 3, "dodo": 2, "lion": 1, ...},
                "hand": {"mad-hatter": 1, "tweedles": 3}},
               {"pile": {...}, "hand": {...}}]}
"first" (default 0) is the seat that went first this round: it wins a tie. "hand" may be
omitted (then put every card in "pile"), but a Brawler (lion, unicorn) can only be in a
pile: Brawlers are never dealt to hands. Card ids: caterpillar, mad-hatter, mock-turtle,
queen-of-hearts, walrus-carpenter (Sun); alice-cheshire, dodo, jabberwocky, white-rabbit,
tweedles (Moon); lion, unicorn (Brawlers). A finished round gives each player 18 cards;
--partial scores collections of any size."""


def _counts(value: Any, where: str) -> dict[str, int]:
    if not isinstance(value, dict):
        raise UserError(f"{where} must be an object of card id -> count")
    return value


def score_main(argv: list[str]) -> int:
    p = game_parser(
        "score", GAME, "Score a finished round from two players' collections.", SCORE_FORMAT
    )
    p.add_argument("file", metavar="FILE", help="the collections as JSON (format below)")
    p.add_argument("--partial", action="store_true", help="allow collections other than 18")
    p.add_argument("--json", action="store_true", help="print JSON")
    args = p.parse_args(argv)
    data = read_json_file(args.file)
    if not isinstance(data, dict):
        raise UserError(f"{args.file}: expected an object with `players` (see --help)")
    unknown = set(data) - {"first", "players"}
    if unknown:
        raise UserError(f"{args.file}: unknown key(s) {', '.join(sorted(unknown))}")
    first = data.get("first", 0)
    if first not in (0, 1) or isinstance(first, bool):
        raise UserError(f"{args.file}: `first` must be 0 or 1")
    players = data.get("players")
    if not isinstance(players, list) or len(players) != 2:
        raise UserError(f"{args.file}: `players` must be a list of two players")
    piles, hands = [], []
    for seat, pl in enumerate(players):
        if not isinstance(pl, dict) or "pile" not in pl or set(pl) - {"pile", "hand"}:
            raise UserError(f'{args.file}: player {seat} must be {{"pile": ..., "hand": ...}}')
        piles.append(_counts(pl["pile"], f"player {seat} pile"))
        hands.append(_counts(pl.get("hand", {}), f"player {seat} hand"))
    collections = check_collections(piles, hands, finished=not args.partial)
    result = score_round(collections, first)
    scores = result.scores
    totals = [x.total for x in scores]
    winner = result.winner
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
        return 0
    for seat, s in enumerate(scores):
        parts = [f"{st.card_id} x{st.count} {st.points:+d}" for st in s.stacks]
        if s.brawlers:
            parts.append(f"brawlers {s.brawlers:+d}")
        print(f"player {seat}: {', '.join(parts) or '(no cards)'}  => total {s.total:+d}")
    a, b = abs(totals[0]), abs(totals[1])
    why = f"|{totals[winner]}| > |{totals[1 - winner]}|" if a != b else "tie, went first"
    print(f"winner: player {winner} ({why})")
    return 0


def _kinds(text: str) -> tuple[str, str]:
    parts = text.split(",")
    if len(parts) != 2 or not all(k in KINDS for k in parts):
        raise UserError(f"--players must be two of {', '.join(KINDS)} joined by a comma")
    return (parts[0], parts[1])


def simulate_main(argv: list[str]) -> int:
    p = game_parser(
        "simulate",
        GAME,
        "Play rounds between computer players (random, greedy, hint) and print statistics.",
    )
    p.add_argument("--rounds", type=int, required=True, help="number of rounds to play")
    p.add_argument("--brawlers", action="store_true", help="play with the Brawlers")
    p.add_argument("--players", default="random,random", help="two kinds, e.g. hint,greedy")
    p.add_argument("--seed", type=int, default=0, help="seed of the random generator")
    p.add_argument(
        "--hint-samples",
        type=int,
        default=DEFAULT_SAMPLES,
        help=f"determinizations per hint (default {DEFAULT_SAMPLES})",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    args = p.parse_args(argv)
    if args.rounds < 1:
        raise UserError("--rounds must be at least 1")
    if args.hint_samples < 1:
        raise UserError("--hint-samples must be at least 1")
    kinds = _kinds(args.players)
    summary = simulate(args.rounds, kinds, args.brawlers, args.seed, args.hint_samples).to_json()
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    n = summary["rounds"]
    print(
        f"{n} rounds, {kinds[0]} vs {kinds[1]}, brawlers {'on' if args.brawlers else 'off'}, "
        f"{summary['seconds']:.1f} s"
    )
    bg = summary["brawlers_in_glass"]
    print(
        "Brawlers in the Looking Glass: "
        + ", ".join(f"{k}: {bg.get(k, 0.0):.1%}" for k in ("0", "1", "2"))
    )
    sl = summary["self_linked_pairs"]
    print(f"self-linked pairs per round: mean {sl['mean']:.2f}, sd {sl['stdev']:.2f}")
    ab = summary["absolute_score"]
    print(f"absolute score: mean {ab['mean']:.2f}, sd {ab['stdev']:.2f}")
    fp = summary["first_player_win_rate"]
    print(f"first player wins {fp['rate']:.1%} (95% CI {fp['ci95'][0]:.1%}-{fp['ci95'][1]:.1%})")
    wr = summary["win_rate"]
    if wr is not None:
        print(
            f"{wr['player']} beats {wr['against']} in {wr['rate']:.1%} of rounds "
            f"(95% Wilson CI {wr['ci95'][0]:.1%}-{wr['ci95'][1]:.1%})"
        )
    return 0


def _replay(data: Any, source: str) -> Any:
    """A state from an action log {"options": {...}, "actions": [...]}."""
    if not isinstance(data, dict) or not isinstance(data.get("actions"), list):
        raise UserError(f'{source}: expected {{"options": {{...}}, "actions": [...]}}')
    try:
        state = ENGINE.new_game(2, data.get("options") or {})
        for k, a in enumerate(data["actions"]):
            try:
                state = ENGINE.apply(state, ENGINE.action_from_json(a))
            except (ValueError, IllegalAction) as exc:
                raise UserError(f"{source}: action {k}: {exc}") from None
    except ValueError as exc:
        raise UserError(f"{source}: {exc}") from None
    return state


def solve_main(argv: list[str]) -> int:
    p = game_parser(
        "solve",
        GAME,
        "Hint: the best pick for the seat to move, from what that seat knows, with the "
        "expected margin |own| - |other| at round end and the chance to win the round "
        "after each legal pick.",
        'FILE is an action log {"options": {"brawlers": false}, "actions": [...]} as '
        "written by the engine (setup, deal, pick actions). Without FILE, --seed deals a "
        "random round and hints its first pick.",
    )
    p.add_argument("file", metavar="FILE", nargs="?", help="an action log (JSON)")
    p.add_argument("--seed", type=int, default=0, help="deal a random round (without FILE)")
    p.add_argument("--brawlers", action="store_true", help="with --seed: use the Brawlers")
    p.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="determinizations")
    p.add_argument("--json", action="store_true", help="print JSON")
    args = p.parse_args(argv)
    if args.samples < 1:
        raise UserError("--samples must be at least 1")
    if args.file:
        state = _replay(read_json_file(args.file), args.file)
    else:
        rng = random.Random(args.seed)
        state = ENGINE.new_game(2, {"brawlers": args.brawlers})
        while ENGINE.current_player(state) == CHANCE:
            state = ENGINE.apply(state, ENGINE.sample_chance(state, rng))
    seat = ENGINE.current_player(state)
    if seat is None or seat == CHANCE:
        raise UserError("no pick to hint: the log does not end during a round")
    h = hint(state, seat, args.samples)
    if args.json:
        print(json.dumps({"view": ENGINE.view(state, seat), "hint": h.to_json()}, indent=2))
        return 0
    rv = ENGINE.view(state, seat)["round"]
    print(f"layout {rv['layout']}, seat {seat} to move, hand: {', '.join(rv['hand'] or [])}")
    tried = (
        f"all {h.determinizations} hands the other player may hold"
        if h.exact
        else f"{h.determinizations} sampled hands of the other player"
    )
    print(f"best pick: {h.best}  (judged over {tried})")
    for pv in h.picks:
        print(
            f"  {pv.position:10} {rv['glass'][pv.position]:18} margin {pv.margin:+.2f}  "
            f"win {pv.win:.0%}"
        )
    return 0


VERBS: dict[str, Callable[[list[str]], int]] = {
    "score": score_main,
    "simulate": simulate_main,
    "solve": solve_main,
}
# The camera side (render, read, teach) lives in vision_commands.py; OpenCV loads with it.
VERBS.update(VISION_VERBS)
