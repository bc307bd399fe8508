"""Mirror Mansion: every mirror the reader left ASKED, by the test that declined it.

    .venv/bin/python benchmarks/devset/mirror_mansion/asked.py --styles wide24,wide22,wide21

For every true mirror of the development boards whose reading names no facing (the facing
asked, or the slot), one line: the reason (the test in `perceive.mirror_from_dot`,
`perceive._unless_contradicted` or `perceive.fit` that declined it, found by replaying the
dot's decision with the same inputs), the placement naming it would give (the side the test
left unused: the top's where the top was overruled, the line's where the line was unclear)
and whether that placement is right (answer key; the tally also says where it is not: the
other facing of the same slot, or the other slot), with the measures a bar could stand on:
the dot's distance from its slot's line and from its top's middle, the top strip's Lab
distance from the box's learnt top colour (`perceive.learnt_top`), its `rival`, `strength`,
`print_gap` and the band beside it (`face_uneven`), how wide the face toward the camera shows
(`face`, `MirrorTop.face_mm`), the strip's middle (`strip`) and the dot (`dot`) off the slot's
line toward the camera (mm; negative: away from it) and how far the strip's middle lies off
the line past the face's width (`past`). Then the tally by reason (asked, would be right,
would be wrong), and, for the largest reason (or `--curve "REASON;REASON"`), a curve per
measure: the values sorted (W: wrong if named) and how many are right before the first wrong
from either end; with `--measure NAME --bars 2,2.5,3` also the right / wrong named under each
bar (`perceive.BACK_EVEN`'s curve: `--curve "top face;top against line, far half" --measure
band --bars 2,2.5,2.75,3,3.25,3.5,4,4.5,5`; `perceive.NEAR_UNEVEN`'s: `--near-uneven inf
--curve "top against line, near half" --measure band --over --unknown asked --bars ...`).
`--rows FILE` keeps every row (JSON), and `--from-rows FILE,FILE` draws the tally and
curves again from such files without reading a board (`perceive.MIDDLE_RIVAL`'s curve:
`--curve "top middle" --measure rival --over`).
`--name-other` counts a mirror right where the OTHER facing of the same slot is, for a rule
that names the other side than the placement (`perceive.FACE_REFLECTS`' curve: `--curve "top
face" --name-other --measure band --over`).
`--name-strip` counts a mirror right where the facing on the side of the slot's line the strip
lies on is (none where the strip's middle is on the line), for a rule naming that side
(`perceive.PRINT_PAST_MM`'s curve: `--print-past inf --curve "top print" --name-strip --measure
past --over`).

Reasons:
  no dot            the crossing's mirror read from its top edge alone (`fit`'s bar_only)
  slot: edges       the dot fits both slots and their top edges differ by under `SLOT_MARGIN`
  slot: rival       another dot of the crossing names the other slot (`_unless_contradicted`)
  facing: rival     another dot names the other facing in the same slot (the same)
  facing: off line  a thick top off its slot's line, scored through the dot (`DOT_EDGE_MIN`)
  top veto          just beyond `TOP_NEAR_MM` the top clearly puts the dot on the other side
  top print         the strip may be the slot's print and the line is unclear
  top face          the face toward the camera may be in the strip (`_face_in_top`)
  top against line, near / far half   the top and the clear line name different sides
  line unclear      within `TOP_NEAR_MM`, no top found and the dot near the line
  top middle        the top named the side but the dot lies near its middle

Development seeds only (`sweep.DEV`, the same cache); the held-out painter is never read here.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from sweep import staged  # noqa: E402

from companion.games.mirror_mansion.rules.board import FACINGS, Board, load_board  # noqa: E402
from companion.games.mirror_mansion.vision import perceive  # noqa: E402
from companion.games.mirror_mansion.vision.stickers import DEFAULT_STICKERS  # noqa: E402

MEASURES = (
    "across",
    "on_top",
    "learnt",
    "rival",
    "strength",
    "print_gap",
    "band",
    "board",
    "line",
    "half",
    "width",
    "face",
    "strip",
    "dot",
    "past",
)


def _facing(slot: str, side: float) -> str:
    return FACINGS[slot][1] if side > 0 else FACINGS[slot][0]


def learnt_colour(cands: perceive.Candidates, board: Board) -> np.ndarray | None:
    """The learnt top colour `perceive.identify` reads its second pass with (None if none)."""
    first = perceive._identify(cands, board, DEFAULT_STICKERS)
    if not any(p.kind == "mirror" and p.side_from == "top_asked" for p in first.pieces):
        return None
    return perceive.learnt_top(first.pieces, cands.tops, DEFAULT_STICKERS)


def why(
    board: Board,
    held: perceive.PieceSeen,
    cands: perceive.Candidates,
    learnt: np.ndarray | None,
) -> tuple[str, tuple[str, str], dict[str, float]]:
    """The reason a dotted mirror was asked, the placement naming it would give, and the
    measures a bar could stand on."""
    assert held.dot is not None
    again = perceive.mirror_from_dot(
        board, held.dot, cands.mirror_bars, cands.middles, cands.tops, learnt
    )
    assert again is not None
    _, fits = perceive._slot_fits(board, held.dot)
    across = fits[held.slot][1]
    top = cands.tops.get((held.dot.centre_mm, held.slot))
    measures: dict[str, float] = {"across": abs(across)}
    side = across
    if top is not None:
        on_top = across - top.middle_mm
        measures |= {
            "on_top": abs(on_top),
            "rival": top.rival,
            "strength": top.strength,
            "print_gap": top.print_gap,
            "band": math.nan if top.face_uneven is None else top.face_uneven,
            "board": math.nan if top.band_board is None else top.band_board,
            "line": across * math.copysign(1.0, on_top),
            "half": top.near_side * on_top if top.near_side else math.nan,
            "width": top.width_mm,
            "face": top.face_mm,
            "strip": top.middle_mm * top.near_side if top.near_side else math.nan,
            "dot": across * top.near_side if top.near_side else math.nan,
            "past": abs(top.middle_mm) - top.face_mm if top.near_side else math.nan,
            "learnt": math.nan
            if learnt is None or top.colour is None
            else float(np.linalg.norm(np.asarray(top.colour) - learnt)),
        }
    near = abs(across) < perceive.TOP_NEAR_MM
    if not held.slot_sure:
        reason = "slot: edges" if not again.slot_sure else "slot: rival"
        if again.side_from == "top_asked" and top is not None:
            side = across - top.middle_mm
    elif cands.mirror_bars[(held.cell, held.slot)] < perceive.MIRROR_EDGE_MIN:
        reason = "facing: off line"
    elif again.confidence >= DEFAULT_STICKERS.min_confidence:
        reason = "facing: rival"
    elif again.side_from == "top_asked" and not near:
        reason = "top veto"
        if top is not None:
            side = across - top.middle_mm
    elif again.side_from == "top_asked" and top is not None:
        on_top = across - top.middle_mm
        clear = abs(across) >= perceive.ACROSS_MM[0]
        print_like = perceive.print_strip(top) and not clear
        face = perceive._face_in_top(top, across) and not (on_top * across > 0 and clear)
        half = "near" if top.near_side * on_top > 0 else "far" if top.near_side else "?"
        reason = (
            "top print" if print_like else "top face" if face else f"top against line, {half} half"
        )
        side = on_top
    elif again.side_from == "line":
        reason = "line unclear"
    else:
        reason = "top middle"
        if top is not None:
            side = across - top.middle_mm
    return reason, (held.slot, _facing(held.slot, side)), measures


def meets(measures: dict[str, float], where: str) -> bool:
    """Whether a row's measures meet every ';'-separated condition of `--where`: NAME<BAR,
    NAME>=BAR (a measure unknown meets neither), NAME=nan (unknown) or NAME!=nan (known)."""
    for cond in where.split(";"):
        if "!=" in cond:
            name, _, _ = cond.partition("!=")
            ok = not math.isnan(measures.get(name.strip(), math.nan))
        elif ">=" in cond:
            name, _, bar = cond.partition(">=")
            ok = measures.get(name.strip(), math.nan) >= float(bar)
        elif "<" in cond:
            name, _, bar = cond.partition("<")
            ok = measures.get(name.strip(), math.nan) < float(bar)
        else:
            name, _, _ = cond.partition("=")
            ok = math.isnan(measures.get(name.strip(), math.nan))
        if not ok:
            return False
    return True


def relation(named: tuple[str, str], truth: tuple[str, str]) -> str:
    """The answer key against the placement naming would give: `named` (it is right), `other
    facing` (the slot right, the facing the other one), `other slot`."""
    if named == truth:
        return "named"
    return "other facing" if named[0] == truth[0] else "other slot"


def strip_side_right(measures: dict[str, float], truth_is: str) -> bool:
    """Whether the facing on the side of the slot's line that the strip's middle lies on is
    the answer key's, from a row's `strip` and `half` (the placement's side, toward the camera
    if positive) and the answer key against that placement (`relation`)."""
    strip, half = measures.get("strip", math.nan), measures.get("half", math.nan)
    if math.isnan(strip) or math.isnan(half) or abs(strip) < perceive.TOP_STEP_MM / 2:
        return False
    if truth_is not in ("named", "other facing"):
        return False
    truth_side = math.copysign(1.0, half) * (1 if truth_is == "named" else -1)
    return truth_side == math.copysign(1.0, strip)


def curve(rows: list[tuple[dict[str, float], bool]]) -> None:
    """Per measure, naming those under (and over) each bar: right and wrong."""
    for name in MEASURES:
        have = sorted((v[name], ok) for v, ok in rows if not math.isnan(v.get(name, math.nan)))
        if not have:
            continue
        print(f"  {name}: {len(have)} with it (of {len(rows)})")
        print("    sorted: " + " ".join(f"{x:.2f}{'' if ok else 'W'}" for x, ok in have))
        for direction in ("under", "over"):
            seq = have if direction == "under" else have[::-1]
            right = 0
            for _x, ok in seq:
                if not ok:
                    break
                right += 1
            wrong_at = next((x for x, ok in seq if not ok), None)
            print(
                f"    {direction}: {right} right before the first wrong"
                + ("" if wrong_at is None else f" (at {wrong_at:.2f})")
            )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", type=Path, default=Path("/tmp/mm_devset"))
    ap.add_argument("--styles", default="wide24,wide22,wide21")
    ap.add_argument(
        "--curve", help="the reasons to draw curves for, ';'-separated (default: the largest)"
    )
    ap.add_argument("--measure", help="the measure to draw `--bars` for")
    ap.add_argument("--bars", help="comma-separated bars: right / wrong named under each")
    ap.add_argument("--over", action="store_true", help="`--bars` name those at or over each")
    ap.add_argument(
        "--where",
        help="only rows meeting each ';'-separated condition for `--bars`: NAME<BAR, NAME>=BAR,"
        " NAME=nan (unknown), NAME!=nan (`band<3.0`, `band=nan;rival>=0.1`)",
    )
    ap.add_argument(
        "--unknown",
        choices=("apart", "named", "asked"),
        default="apart",
        help="`--bars`: rows without the measure left apart (default), or counted named or asked",
    )
    ap.add_argument(
        "--near-uneven",
        type=float,
        help="read with `perceive.NEAR_UNEVEN` at this bar (inf: off, for its own curve)",
    )
    ap.add_argument(
        "--print-past",
        type=float,
        help="read with `perceive.PRINT_PAST_MM` at this bar (inf: off, for its own curve)",
    )
    ap.add_argument(
        "--name-other",
        action="store_true",
        help="count a mirror right where the OTHER facing of its slot is (tally, curves, bars)",
    )
    ap.add_argument(
        "--name-strip",
        action="store_true",
        help="count a mirror right where the facing on the strip's side of the line is right",
    )
    ap.add_argument("--rows", type=Path, help="also write every asked mirror's row here (JSON)")
    ap.add_argument(
        "--from-rows",
        help="comma-separated files `--rows` wrote: the tally and curves from them, no board read",
    )
    args = ap.parse_args()
    if args.near_uneven is not None:
        perceive.NEAR_UNEVEN = args.near_uneven
    if args.print_past is not None:
        perceive.PRINT_PAST_MM = args.print_past
    board = load_board()
    dumped: list[dict[str, object]] = []
    outcomes: Counter[str] = Counter()
    tally: Counter[str] = Counter()
    right_if_named: Counter[str] = Counter()
    rows: dict[str, list[tuple[dict[str, float], bool]]] = {}
    relations: defaultdict[str, Counter[str]] = defaultdict(Counter)
    boards = exact = 0
    print("board cell slot | reason | named would be | measures")
    read = [] if args.from_rows else staged(args.cache, board, args.styles)
    for name in args.from_rows.split(",") if args.from_rows else []:
        for row in json.loads(Path(name).read_text()):
            truth_is = row.get("truth", "named" if row["right"] else "?")
            ok = truth_is == "other facing" if args.name_other else row["right"]
            if args.name_strip:
                ok = strip_side_right(row["measures"], truth_is)
            relations[row["reason"]][truth_is] += 1
            tally[row["reason"]] += 1
            right_if_named[row["reason"]] += ok
            rows.setdefault(row["reason"], []).append((row["measures"], ok))
    for style, seed, _image, truth, _rect, cands, ident in read:
        boards += 1
        got = perceive.fit(ident, cands, board)
        exact += got.layout_key() == truth.layout_key()
        learnt = None
        cells = {m.cell for m in truth.mirrors}
        outcomes["phantom"] += sum(1 for m in got.mirrors if m.cell not in cells)
        for m in truth.mirrors:
            seen = got.mirror_at(m.cell)
            if seen is None:
                outcomes["missed"] += 1
                continue
            if seen.facing is not None and seen.slot_sure:
                named_right = (seen.slot, seen.facing) == (m.slot, m.facing)
                outcomes["right" if named_right else "wrong"] += 1
                continue
            outcomes["asked"] += 1
            held = next((p for p in ident.pieces if p.cell == m.cell and p.kind == "mirror"), None)
            if held is None or held.dot is None or held.slot != seen.slot:
                reason, named, measures = "no dot", (seen.slot, ""), {}
            else:
                if learnt is None:
                    learnt = learnt_colour(cands, board)
                reason, named, measures = why(board, held, cands, learnt)
            ok = named == (m.slot, m.facing)
            truth_is = relation(named, (m.slot, m.facing))
            if args.name_other:
                ok = truth_is == "other facing"
            if args.name_strip:
                ok = strip_side_right(measures, truth_is)
            relations[reason][truth_is] += 1
            tally[reason] += 1
            right_if_named[reason] += ok
            rows.setdefault(reason, []).append((measures, ok))
            dumped.append(
                {"board": f"{style} {seed[1]}", "cell": list(m.cell), "reason": reason}
                | {"right": ok, "truth": truth_is, "measures": measures}
            )
            shown = " ".join(f"{k} {v:.2f}" for k, v in measures.items())
            print(
                f"{style} {seed[1]:3d} {m.cell} {m.slot} | {reason} | "
                f"{'right' if ok else 'WRONG'} | {shown}"
            )
    if args.rows:
        args.rows.write_text(json.dumps(dumped))
    print()
    if not args.from_rows:
        print(f"{boards} boards, {exact} exact; mirrors {dict(outcomes)}")
    what = "right if the other facing is named" if args.name_other else "right if named"
    what = "right if the strip's side of the line is named" if args.name_strip else what
    print(f"asked by reason: count, {what}, wrong so; the answer key against the placement")
    for reason, n in tally.most_common():
        seen = ", ".join(f"{k} {v}" for k, v in relations[reason].most_common())
        print(
            f"  {n:4d} {right_if_named[reason]:4d} {n - right_if_named[reason]:4d}  {reason}"
            f"  ({seen})"
        )
    which = args.curve.split(";") if args.curve else [r for r, _ in tally.most_common(1)]
    chosen = [row for r in which for row in rows.get(r, [])]
    if chosen:
        print(f"curves for {which} (a bar names those under / over it):")
        curve(chosen)
    if chosen and args.measure and args.bars:
        pool = chosen
        if args.name_strip:
            # A strip on the line names no side: the rule leaves it asked at every bar.
            pool = [
                (v, ok) for v, ok in pool if abs(v.get("strip", 0.0)) >= perceive.TOP_STEP_MM / 2
            ]
            print(f"  strips off the line (named by the rule at some bar): {len(pool)}")
        if args.where:
            pool = [(v, ok) for v, ok in pool if meets(v, args.where)]
            right = sum(ok for _, ok in pool)
            print(f"  where {args.where}: {len(pool)}, right {right}, wrong {len(pool) - right}")
        have = [(v.get(args.measure, math.nan), ok) for v, ok in pool]
        missing = [ok for x, ok in have if math.isnan(x)]
        have = [(x, ok) for x, ok in have if not math.isnan(x)]
        way = "at or over" if args.over else "under"
        print(
            f"  {args.measure} bars ({len(have)} with it, {len(missing)} without, right"
            f" {sum(missing)}, {args.unknown}): named {way} each, right / wrong"
        )
        for bar in (float(b) for b in args.bars.split(",")):
            named = [ok for x, ok in have if (x >= bar if args.over else x < bar)]
            named += missing if args.unknown == "named" else []
            print(f"    {bar:6.2f}: {sum(named):4d} / {len(named) - sum(named)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
