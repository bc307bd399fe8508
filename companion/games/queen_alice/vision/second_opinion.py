"""A learnt second opinion on the squares the hand reader (`read.py`) asks about.

The hand reader names a square only when its rules are sure, and asks the players about the
rest. This module looks again at the squares it ASKS (called "unsure" or "gold"; never one
an arm is followed over, nor one it names), with a small model learnt from the randomised
renderer's development boards (`benchmarks/queen_alice_learn.py`): a few numbers per square
that the reader already measures (its colours' shares, its structure against the board's
and its print's, its middle against its print beside and against the board's two piece
colours, how many squares share its look, whether a straight line cuts it, its neighbours),
and the model's probability of empty, red or white. A square is named only when that
probability is over `BAR`, chosen from the curve of the tool on a development validation
draw not used for training (named right against named wrong per bar).

The model is data (`models/queen-alice/square_model.json`), a `learnt_net.LearntNet`: the
features' means and spreads and a one-hidden-layer network's weights, in numpy.
Regenerate it with

    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_learn.py --train

(the development draws are named in the game's guide, `docs/queen-alice.md`).
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from pathlib import Path

import numpy as np

from companion.games.queen_alice.vision import read as hand
from companion.games.queen_alice.vision.geometry import BoardGeometry
from companion.vision.learnt_net import LearntNet, model_file

MODEL_FILE = Path("queen-alice") / "square_model.json"
"""Under the models folder (`learnt_net.model_file`)."""

NAMES = ("empty", "red", "white", "hidden")
"""The model's classes, in the order of its outputs: "hidden" is a square an arm hides in
the render (never named: the model's probability of the others is what names a square)."""

BAR = 0.97
"""A square the hand reader asks is named when the model's probability of one class is at
least this (from the tool's `--curve`; the game's guide has it) ..."""

ON = False
"""... when the rule is on (`name_asked`; off, the reader is the hand reader alone). Off:
measured fresh against the hand reader it added phantom pieces on house boards, and named
only empty squares (`PIECES` False) it lost a held-out board (the game's guide)."""

PIECES = True
"""The model may name a piece (False: it names only empty squares, and so adds no phantom)."""

FEATURES = (
    "share_board",
    "share_red",
    "share_white",
    "share_gold",
    "spread_to_board",
    "spread_to_print",
    "edges_to_board",
    "middle_minus_beside_L",
    "middle_minus_beside_a",
    "middle_minus_beside_b",
    "middle_L",
    "middle_a",
    "middle_b",
    "to_red",
    "to_white",
    "red_or_white",
    "two_centres",
    "one_colour",
    "printed_share",
    "printed_told",
    "others_alike",
    "cut_wrong",
    "cut_smaller",
    "near_might_be_arm",
    "neighbours_untold",
    "neighbours_pieces",
    "told_empty",
    "told_red",
    "told_white",
    "told_unsure",
    "told_gold",
    "called_gold",
    "beside_strips_apart",
    "under_arm",
    "under_share",
    "neighbours_under",
    "kin_share",
)
"""What the model sees of a square, in the order of its inputs."""

FAR = 99.0
"""A distance to a piece colour the board does not tell (no `two_centres`)."""


@functools.lru_cache(maxsize=1)
def model() -> LearntNet | None:
    """The learnt model (`MODEL_FILE`), read once; None when there is none."""
    path = model_file(MODEL_FILE)
    return None if path is None else LearntNet.load(path, FEATURES)


def eligible(calls: list[tuple[str, float]], known: np.ndarray) -> list[int]:
    """The squares the hand reader asks about (unsure or gold), less those the board's empty
    look decides (`known`, per square): the model's only squares."""
    return [k for k, (v, _) in enumerate(calls) if v in ("unsure", "gold") and not known[k]]


def features(
    asked: list[int],
    calls: list[tuple[str, float]],
    told: list[tuple[str, float]],
    colours: hand.SpotColours,
    scale: np.ndarray,
    under: Collection[int],
    near_arm: Collection[int],
    geom: BoardGeometry,
) -> np.ndarray:
    """K x len(`FEATURES`) for the squares `asked`: `calls` the hand reader's so far, `told`
    what the colours alone said, `scale` each square's print's median spread
    (`print_scale`), `under` the squares an arm is followed over (they hold no look for
    others, as in `shared_looks`), `near_arm` the squares near a might-be arm
    (`not_by_structure`)."""
    if not asked:
        return np.zeros((0, len(FEATURES)))
    assert colours.structure is not None and colours.edges is not None
    at = np.array(asked)
    n = len(calls)
    sub = hand.SpotColours(
        colours.middle[at],
        colours.beside[at],
        printed=None if colours.printed is None else colours.printed[at],
    )
    share = np.array([[s.board, s.red, s.white, s.gold] for s in hand.shares(sub)])
    mid = hand.median_along(colours.middle, 1)
    tone = hand.board_tone(mid)
    bes = hand.median_along(colours.beside, 1)
    centres = hand.two_centres(calls, tone, [])
    one = hand.one_centre(calls, tone) if centres is None else None
    d = np.full((len(at), 2), FAR)
    if centres is not None:
        d = np.linalg.norm(tone[at][:, None] - centres[None], axis=2)
    elif one is not None:
        d[:, one[0]] = np.linalg.norm(tone[at] - one[1], axis=1)
    spread = colours.structure[at]
    printed = np.zeros(len(at))
    printed_told = np.zeros(len(at))
    if colours.printed is not None:
        own = colours.printed[at]
        printed = np.mean(np.linalg.norm(colours.middle[at] - own, axis=2) < hand.DIFFERENT, 1)
        printed_told = (~np.isnan(own).all(axis=(1, 2))).astype(float)
    holders = np.ones(n, bool)
    holders[list(under)] = False
    mids = colours.middle
    alike = hand.middles_alike(np.linalg.norm(mids[at][:, None] - mids[holders][None], axis=3))
    others = (alike.sum(axis=1) - 1.0) / geom.pieces_per_colour
    # a straight line across the disc (an arm's edge), only where no arm is followed: under
    # an arm it says little and costs most of this
    cut = np.tile([0.5, 0.0], (len(at), 1))
    if colours.disc is not None and colours.disc_at is not None:
        for j, k in enumerate(asked):
            if k not in under:
                cut[j] = hand.cut_by_a_line(colours.disc[k], colours.disc_at)
    cells = geom.cells
    index = {c: k for k, c in enumerate(cells)}
    around = [[index[s] for s in _sides(cells[k]) if s in index] for k in asked]
    untold = [sum(calls[m][0] in ("unsure", "gold") for m in a) for a in around]
    pieces = [sum(calls[m][0] in ("red", "white") for m in a) for a in around]
    beside_under = [sum(m in under for m in a) for a in around]
    strips = colours.beside[at]
    apart = np.max(np.linalg.norm(strips - np.median(strips, axis=1)[:, None], axis=2), axis=1)
    kin_share = colours.kin[at].sum(axis=1) / n if colours.kin is not None else np.zeros(len(at))
    told_as = [told[k][0] for k in asked]
    columns = [
        *share.T,
        spread / (float(np.median(colours.structure)) + 1e-6),
        spread / (scale[at] + 1e-6),
        colours.edges[at] / (float(np.median(colours.edges)) + 1e-6),
        0.5 * (mid[at, 0] - bes[at, 0]),
        mid[at, 1] - bes[at, 1],
        mid[at, 2] - bes[at, 2],
        mid[at, 0],
        mid[at, 1],
        mid[at, 2],
        d[:, 0],
        d[:, 1],
        (d[:, 0] - d[:, 1]) / (d[:, 0] + d[:, 1] + 1e-6),
        np.full(len(at), float(centres is not None)),
        np.full(len(at), 0.0 if one is None else (1.0 if one[0] == 0 else -1.0)),
        printed,
        printed_told,
        others,
        cut[:, 0],
        cut[:, 1],
        [float(k in near_arm) for k in asked],
        untold,
        pieces,
        *([float(t == name) for t in told_as] for name in ("empty", "red", "white")),
        *([float(t == name) for t in told_as] for name in ("unsure", "gold")),
        [float(calls[k][0] == "gold") for k in asked],
        apart,
        [float(k in under) for k in asked],
        np.full(len(at), len(under) / n),
        beside_under,
        kin_share,
    ]
    return np.stack([np.asarray(c, np.float64) for c in columns], axis=1)


def _sides(cell: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    r, c = cell
    return ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))


def name_asked(
    calls: list[tuple[str, float]],
    told: list[tuple[str, float]],
    colours: hand.SpotColours,
    scale: np.ndarray,
    under: Collection[int],
    known: np.ndarray,
    near_arm: Collection[int],
    geom: BoardGeometry,
    bar: float | None = None,
) -> list[tuple[str, float]]:
    """`calls` with each square the hand reader asks about (`eligible`) named empty, red or
    white by the model when its probability of that is at least `bar` (when not given, `BAR`
    if the rule is `ON`, else nothing is named), that probability its confidence. A square
    the hand reader names is never changed; a square the model finds likelier hidden by an
    arm than anything else is never named."""
    if bar is None and not ON:
        return calls
    bar = BAR if bar is None else bar
    learnt = model()
    if learnt is None:
        return calls
    asked = eligible(calls, known)
    if not asked:
        return calls
    x = features(asked, calls, told, colours, scale, under, near_arm, geom)
    p = learnt.probabilities(x)
    out = list(calls)
    for k, j, row in zip(asked, choose(p, x, bar), p, strict=True):
        if j >= 0:
            out[k] = (NAMES[j], float(row[j]))
    return out


def choose(p: np.ndarray, x: np.ndarray, bar: float) -> np.ndarray:
    """Per asked square (probabilities `p`, features `x`): the class index the model names
    (`NAMES`), or -1. Named when the likeliest class is not "hidden" and its probability is
    at least `bar`; a piece only where the hand reader's own tests allow one (set by
    reasoning, not swept): its look not shared by more of the board's squares than a colour
    has pieces (`SHARED_OVER`: such a look is print), and, when the board tells its two
    piece colours (`two_centres`), of the nearer one."""
    best = np.argmax(p, axis=1)
    conf = p[np.arange(len(p)), best]
    named = np.where((best != NAMES.index("hidden")) & (conf >= bar), best, -1)
    piece = named > 0
    shared = x[:, FEATURES.index("others_alike")] > hand.SHARED_OVER
    to_red, to_white = x[:, FEATURES.index("to_red")], x[:, FEATURES.index("to_white")]
    nearer = np.where(to_red <= to_white, NAMES.index("red"), NAMES.index("white"))
    told = x[:, FEATURES.index("two_centres")] > 0
    named[piece & (shared | (told & (named != nearer)))] = -1
    if not PIECES:
        named[piece] = -1
    return np.asarray(named)
