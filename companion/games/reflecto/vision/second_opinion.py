"""A learnt second opinion on the squares the Reflecto reader is unsure of (issue 32).

The hand-set reader (`read.classify`) decides each square by a chain of thresholds; where
they disagree it asks the players, and where it sees no colour it calls the square empty
without a word. This module holds a small classifier (`learnt_net.LearntNet`, numpy) trained
on the development renderer's boards read with the empty board's photograph
(`benchmarks/reflecto_learn.py`), on what the reader already measures of each square
(`FEATURES`). It is only ever a second opinion, and only with the empty board's print:

- a square the reader asks about is named a seat's screen when the model's probability
  for it is at least `NAME_BAR` (off: `NAMING`, measured fresh and taken out);
- a square the reader calls empty without asking is asked about (never called a screen)
  when the model's probability
  of a screen is at least `ASK_BAR`;
- a square the reader names a screen is never changed.

Features are taken with the seats oriented (`orient`): "this seat" is the seat whose colour
the strip shows most, so the model learns one rule for both seats.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from companion.games.reflecto.vision.board_print import Change
from companion.vision.learnt_net import LearntNet, model_file, train

MODEL_FILE = Path("reflecto") / "square_model.json"
"""Under the models folder (`learnt_net.model_file`)."""

FEATURES = (
    "share_this",
    "share_other",
    "faint_this",
    "faint_other",
    "print_known",
    "changed",
    "changed_this",
    "changed_other",
    "beside_this",
    "beside_other",
    "moved",
    "loose",
    "strength",
    "spread",
    "hue_this",
    "hue_other",
    "brightness",
    "print_board",
    "print_with_sides",
    "print_close",
    "print_shade",
    "body",
)
"""What a square's row holds (`feature_row`); -1 where the reader could not measure it."""

CLASSES = ("empty", "this", "other")
EMPTY, THIS, OTHER = 0, 1, 2
"""The model's classes: no screen, a screen of the oriented seat (`orient`), one of the
other seat."""

SECOND_OPINION = True
"""Whether the rule acts (`read.classify` with the empty board's print and the model file).
On, asking only (`NAMING` off), in two stages (`worth_a_look`): measured fresh against the
rule off on the same boards (docs/reflecto.md, reflask) it turned 22 of 46 silent misses
into questions (held-out 15 of 27), asked about no empty square, added no phantom and no
wrong owner, and the read with the empty board cost 0.99-1.05x the rule off's CPU. (All
silent squares to the model, as first measured, asked 34 of 74 but doubled that read.)"""
NAMING = False
"""Whether an asked square may be named a screen (`NAME_BAR`). Measured fresh and taken
out: on 120 fresh renderer and held-out boards it named one empty square a screen (a
phantom, a board lost) and gained no screen (docs/reflecto.md)."""
NAME_BAR = 0.998
"""The model's probability of one seat's screen at which a square the reader asks about is
named that seat's screen. From the curve on a development validation draw not used for
training (`benchmarks/reflecto_learn.py curve`, the house and random validation draws
docs/reflecto.md names, boards 0-29 each: 94 squares asked, 36 of them screens; screens
named right / named the other seat's / empty squares named a screen): 0.5: 20 / 3 / 3,
0.7: 18 / 3 / 2, 0.8: 16 / 2 / 2, 0.9: 13 / 2 / 1, 0.95: 11 / 2 / 0, 0.97: 10 / 1 / 0,
0.99: 6 / 1 / 0, 0.995: 4 / 0 / 0, 0.998: 2 / 0 / 0. The wrong owners are strips wholly in
one seat's colour whose screen is the other seat's (two seats' colours near each other):
the model cannot tell them, and names one such square at 0.99. The bar lies over it."""
ASK_BAR = 0.8
"""The model's probability of a screen (either seat) at which a square the reader calls
empty silently (`read.SILENT`) is asked about instead. From the same curve (2167 silent
empty calls, 18 of them screens; screens asked / empty squares asked): 0.5: 10 / 2, 0.6:
10 / 1, 0.7: 9 / 1, 0.8: 8 / 1, 0.9: 6 / 1, 0.95: 5 / 1. A question is never a wrong
call; 0.8 keeps to one empty square asked in 60 boards."""

ASK_BRIGHT = 0.5
ASK_TRACE = 0.01
"""Stage one of asking (`worth_a_look`): a silent square goes on to the model only when its
strip's brightness (`StripLook.brightness`) is at least `ASK_BRIGHT` and some seat's colour
covers at least `ASK_TRACE` of it at either floor (its shares, its faint trace). From the
curve on the validation draw `ASK_BAR` was read off (`benchmarks/reflecto_learn.py
prefilter`, 59 boards, 2167 silent empty calls: the model asks about 8 screens and 1 empty
square, every one a "no colour" call; brightness, colour-or-trace cut: screens kept / empty
kept / silent squares passed on a board): all: 8 / 1 / 36.7; brightness 0.45, 0: 8 / 1 /
13.9; 0.5, 0: 8 / 1 / 9.6; 0.55, 0: 8 / 1 / 6.9; 0.6, 0: 7 / 1 / 5.3; 0.45, 0.01: 8 / 0 /
6.6; **0.5, 0.01: 8 / 0 / 4.0**; 0.55, 0.01: 8 / 0 / 2.5; 0.6, 0.01: 7 / 0 / 1.9; 0.5,
0.05: 8 / 0 / 3.0. The asked screens' least brightness is 0.55 and least colour-or-trace
0.09 (the empty square asked has none): the cuts keep a margin under both."""


@dataclass(frozen=True)
class StripLook:
    """What `read` measures of a square's centre strip for the model."""

    strength: float
    """Chromaticity of its median from grey (`CellStats.strength`)."""
    spread: float
    hue: tuple[float, float]
    """Cosine of the angle (chromaticity plane) between its median and each seat's colour."""
    brightness: float
    """Mean channel of its pixels, 0-1."""


def worth_a_look(
    shares: tuple[float, float], trace: tuple[float, float], brightness: float
) -> bool:
    """Stage one of asking about a silent square (`read.second_opinion`): whether what is
    known of it before its costly features (its change against the print, the print test,
    its strip's chromaticity) could reach `ASK_BAR`: a bright strip (`ASK_BRIGHT`) with a
    trace of a seat's colour (`ASK_TRACE`)."""
    return brightness >= ASK_BRIGHT and max(*shares, *trace) >= ASK_TRACE


def orient(shares: tuple[float, float], trace: tuple[float, float], change: Change | None) -> int:
    """The seat whose colour the strip shows most: its changed pixels' or its own share, then
    its faint trace."""
    score = [
        max(shares[j], change.colour[j] if change is not None else 0.0) + 1e-3 * trace[j]
        for j in (0, 1)
    ]
    return int(np.argmax(score))


def feature_row(
    k: int,
    shares: tuple[float, float],
    trace: tuple[float, float],
    change: Change | None,
    look: StripLook,
    printed: tuple[float | None, float | None, float | None, float | None, float | None],
) -> np.ndarray:
    """One square's `FEATURES` with `k` as "this" seat; `printed` is `PrintShares`' board,
    with_sides, close, shade and body for seat `k` at the faint floor."""
    o = 1 - k
    c = change
    row = [
        shares[k],
        shares[o],
        trace[k],
        trace[o],
        0.0 if c is None else 1.0,
        -1.0 if c is None else c.share,
        -1.0 if c is None else c.colour[k],
        -1.0 if c is None else c.colour[o],
        -1.0 if c is None else c.beside[k],
        -1.0 if c is None else c.beside[o],
        -1.0 if c is None else c.moved,
        -1.0 if c is None else float(c.loose),
        look.strength,
        look.spread,
        look.hue[k],
        look.hue[o],
        look.brightness,
    ]
    board, with_sides, close, shade, body = printed
    row += [-1.0 if v is None else v for v in (board, with_sides, close)]
    row.append(-1.0 if shade is None else min(shade / 20.0, 3.0))
    row.append(-1.0 if body is None else body)
    return np.array(row, np.float32)


@cache
def _loaded(path: Path) -> LearntNet:
    return LearntNet.load(path, FEATURES)


def square_model() -> LearntNet | None:
    """The model, loaded once; None when no model file is found."""
    path = model_file(MODEL_FILE)
    return None if path is None else _loaded(path)


def trained(rows: np.ndarray, labels: np.ndarray, made_by: str) -> LearntNet:
    """Three networks of 16 hidden units on `rows` (`FEATURES`) with classes `labels`
    (`CLASSES`): 800 full-batch Adam steps at rate 0.02, weight decay 1e-4."""
    return train(
        rows,
        labels,
        FEATURES,
        CLASSES,
        nets=3,
        hidden=16,
        steps=800,
        rate=0.02,
        decay=1e-4,
        least_spread=1e-3,
        made_by=made_by,
    )
