"""Shared builders for the Queen Alice table tests: a session, camera frames of a board, and
a set-up tapped in with chosen cards (so a test knows every hand)."""

from __future__ import annotations

from typing import Any

from companion.games.queen_alice.rules import ENGINE
from companion.games.queen_alice.rules.board import Cell, Piece
from companion.games.queen_alice.rules.components import ACTIONS
from companion.games.queen_alice.table.messages import (
    Drew,
    Revealed,
    SetUp,
    TrainChosen,
    TrainDealt,
)
from companion.games.queen_alice.table.observation import (
    BoardSeen,
    Occupancy,
    SquareSeen,
    occupancy_of,
)
from companion.live.conformance import Correct, Observe
from companion.live.table_game import Observation
from companion.store import Session

BOARD = ENGINE.board
COMP = ENGINE.components
START = BOARD.tiles["A"]
WISHES = tuple(sorted(w.id for w in COMP.wishes.values() if w.icon == icon)[0] for icon in ACTIONS)
HANDS = (("basic-3", "basic-7", "basic-1"), ("basic-0", "basic-2", "basic-6"))
"""Seat 0: white knight, white rook, white pawn; seat 1: red pawn, red knight, red rook."""
TRAIN = (
    (("train-wall-2", "train-garden-4"), "train-wall-2"),
    (("train-messenger-2", "train-wall-3"), "train-messenger-2"),
    (("train-twins-3", "train-messenger-1"), "train-twins-3"),
    (("train-garden-1", "train-garden-2"), "train-garden-2"),
)
"""Each seat's Train cards dealt and the one it keeps (its red side): rewards that need no
choice, so the first turn follows at once."""


def session(players: int = 2, options: dict[str, Any] | None = None) -> Session:
    return Session("s1", "queen-alice", options or {}, ["Ann", "Bob", "Cy", "Di"][:players], 0.0)


def seen(
    board: Occupancy, unsure: tuple[Cell, ...] = (), alice: dict[str, int | None] | None = None
) -> BoardSeen:
    squares = tuple(
        SquareSeen(cell=c, colour=col)  # type: ignore[arg-type]
        for c, col in sorted(board)
        if c not in unsure
    )
    return BoardSeen(squares=squares, unsure=unsure, alice=alice or {})


def frames(
    board: Occupancy,
    n: int = 4,
    hand_over: tuple[Cell, ...] = (),
    alice: dict[str, int | None] | None = None,
) -> list[Observe]:
    """A hand over some squares (if any), then the board steady for `n` frames."""
    out = [Observe(Observation(seen(board, hand_over), 0.9))] * (2 if hand_over else 0)
    return out + [Observe(Observation(seen(board, alice=alice), 0.9))] * n


def moved(board: Occupancy, a: Cell, b: Cell) -> Occupancy:
    """`board` with the piece on `a` put on `b` (capturing what stood there)."""
    cells = dict(board)
    cells[b] = cells.pop(a)
    return frozenset(cells.items())


def start() -> Occupancy:
    return occupancy_of(START)


def market_cards() -> list[tuple[int, str]]:
    """Three cards of each market level, the first of each deck."""
    return [
        (level, card)
        for level, deck in enumerate(COMP.decks[lv] for lv in ("bronze", "silver", "gold"))
        for card in sorted(deck)[:3]
    ]


def set_up_taps(players: int = 2, train: bool = True) -> list[Correct]:
    """The set-up as tapped in: tile A, the Wishes, each hand (each on its own phone), the
    market, then the Train cards (unless the session skips them: `train`)."""
    taps = [Correct(SetUp(tile="A", wishes=WISHES))]
    taps += [Correct(Drew(card=card), seat) for seat in range(players) for card in HANDS[seat % 2]]
    taps += [Correct(Revealed(level=level, card=card)) for level, card in market_cards()]
    return taps + (train_taps(players) if train else [])


def train_taps(players: int = 2) -> list[Correct]:
    """Each seat taps in its Train cards, then each chooses (the last seat first: the
    players choose at once, not in the engine's order)."""
    taps = [Correct(TrainDealt(cards=TRAIN[seat][0]), seat) for seat in range(players)]
    return taps + [
        Correct(TrainChosen(card=TRAIN[seat][1], side="red"), seat)
        for seat in reversed(range(players))
    ]


def piece_at(state: Any, cell: Cell) -> Piece:
    return next(p for p in state.pieces if p.cell == cell)
