"""The `sim` camera's game, played through the rules engine first and filmed after.

A film that moved pieces at random made turns the rules refuse (no mirror in line with the
window, a fourth swap), and its players never tapped anything, so the live game drifted
from the table within a few turns. Here every turn is a sequence of engine moves, each
applied before it is filmed, so a film is legal by construction and plays whole turns to
the verdict: window swap, die (or named motif), door, swaps, "make your guesses", guesses,
look and drops. What a player would tap on a phone (the motifs at set-up, the die, the
call, the guesses, the look) becomes a `Tap` at a film time; the live service plays those
through the same corrections a phone sends, never by reading the film's truth.

The physical pieces move only as the engine's swaps say, one piece per swap (no piece is
moved twice in a turn), so the fewest swaps between the stable states before and after are
exactly the swaps played, and what the camera can count is what the engine accepted.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from companion.games.base import IllegalAction
from companion.games.mirror_mansion.rules.actions import (
    Action,
    Award,
    EndSwaps,
    Guess,
    Look,
    Name,
    PlaceDoor,
    Roll,
    Setup,
    Swap,
    SwapWindow,
)
from companion.games.mirror_mansion.rules.board import Board
from companion.games.mirror_mansion.rules.engine import MirrorMansionEngine
from companion.games.mirror_mansion.rules.game_state import (
    DOOR,
    GUESS,
    LOOK,
    NAME,
    SWAPS,
    MirrorMansionState,
)
from companion.games.mirror_mansion.rules.optics import BoardState, trace
from companion.games.mirror_mansion.vision.scene import BoxState, DoorSeen, MirrorSeen
from companion.sim.taps import Tap

SOLVED_SHARE = 0.5
"""Share of turns whose player plays a way the solver found to the sought motif (the rest
swap at random within the rules): a demo where both findings and misses happen."""


@dataclass(frozen=True)
class Beat:
    """A stretch of the film: the pieces in the box, a hand over board mm (or None), motion
    blur, and whether the players leave this state alone (`rest`)."""

    seconds: float
    box: BoxState
    hand_over: tuple[float, float] | None = None
    moving: bool = False
    rest: bool = False


@dataclass(frozen=True)
class TurnRecord:
    """One turn as the engine played it: what the live game must end up agreeing with."""

    turn: int
    seat: int
    window: str
    sought: str | None
    swaps: tuple[Swap, ...]
    guesses: tuple[bool | None, ...]
    seen: str | None
    found: bool
    drops: tuple[int, ...]
    at_swaps: BoxState
    """The box when the swaps start (after the door, if any)."""
    after_swaps: BoxState


@dataclass
class FilmScript:
    """A whole filmed game: beats for the camera, taps for the phones, the engine's log."""

    players: int
    options: dict[str, Any]
    cards: dict[str, str]
    beats: list[Beat] = field(default_factory=list)
    taps: list[Tap] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    turns: list[TurnRecord] = field(default_factory=list)
    state: MirrorMansionState | None = None

    @property
    def duration(self) -> float:
        return sum(b.seconds for b in self.beats)


def box_of(board: BoardState) -> BoxState:
    """The engine's arrangement as the camera would read it."""
    mirrors = tuple(MirrorSeen(m.cell, m.slot, m.facing) for m in board.mirrors)
    door = None if board.door is None else DoorSeen(board.door.cell, board.door.slot)
    return BoxState(mirrors, board.window, door)


class _Recorder:
    """Applies each move to the engine, then films it (beats) or schedules its tap."""

    def __init__(
        self, engine: MirrorMansionEngine, script: FilmScript, state: MirrorMansionState
    ) -> None:
        self.engine = engine
        self.script = script
        self.state = state
        self.t = 0.0

    def play(self, action: Action) -> None:
        self.state = self.engine.apply(self.state, action)  # raises if the script is wrong
        self.script.actions.append(action)

    def beat(self, seconds: float, box: BoxState, **kw: Any) -> None:
        self.script.beats.append(Beat(seconds, box, **kw))
        self.t += seconds

    def rest(self, seconds: float, taps: list[tuple[float, int | None, dict[str, Any]]]) -> None:
        """A still stretch during which the players tap: each (delay, seat, payload)."""
        assert self.state.board is not None
        for delay, seat, payload in taps:
            self.script.taps.append(Tap(round(self.t + delay, 3), seat, payload))
        self.beat(seconds, box_of(self.state.board), rest=True)


def script_game(
    board: Board,
    seed: int,
    *,
    players: int = 2,
    options: dict[str, Any] | None = None,
    turns: int | None = 12,
    pause_s: float = 6.0,
) -> FilmScript:
    """A game of `turns` turns (None: to its end), played by the engine and scripted.

    Set-up from the engine's own chance (Victor on field 0, where the live game puts him);
    each turn's window swap, die, door, swaps and guesses are drawn from `seed`.
    """
    engine = MirrorMansionEngine(board)
    rnd = random.Random(seed * 7919 + 31)
    opts = dict(options or {})
    state = engine.new_game(players, opts)
    setup = engine.sample_chance(state, rnd)
    assert isinstance(setup, Setup)
    setup = replace(setup, victor=0)
    cards = {p: c for p, c in setup.cards if c != board.window_card}
    script = FilmScript(players, opts, cards)
    rec = _Recorder(engine, script, state)
    rec.play(setup)
    rec.rest(pause_s, [(2.0, 0, {"kind": "cards", "cards": cards})])
    while not engine.is_terminal(rec.state) and (turns is None or len(script.turns) < turns):
        _turn(rec, board, rnd, pause_s)
    script.state = rec.state
    return script


def _turn(rec: _Recorder, board: Board, rnd: random.Random, pause_s: float) -> None:
    engine, s = rec.engine, rec.state
    assert s.board is not None
    seat, turn = s.active, s.turn
    old_window = s.board.window
    window = rnd.choice([p for p in board.positions if p != old_window])
    box = box_of(s.board)
    rec.beat(
        0.5, BoxState(box.mirrors, None, box.door), hand_over=board.card_mm(window), moving=True
    )
    rec.play(SwapWindow(window))
    assert rec.state.board is not None
    revealed = rec.state.board.cards[old_window]
    rec.beat(1.0, box_of(rec.state.board), rest=True)
    roll = rnd.randint(1, board.die_sides)
    rec.play(Roll(roll))
    taps: list[tuple[float, int | None, dict[str, Any]]] = [
        (2.0, seat, {"kind": "roll", "value": roll})
    ]
    if rec.state.phase == NAME:
        motif = rnd.choice(board.motifs)
        rec.play(Name(motif))
        taps.append((2.5, rec.state.neighbour, {"kind": "name", "motif": motif}))
    # The table confirms the card the window swap revealed (as the question offers).
    taps.append((3.0, seat, {"question": f"card-{turn}-{old_window}", "answer": revealed}))
    rec.rest(4.0, taps)
    if rec.state.phase == DOOR:
        _place_door(rec, board, rnd)
    assert rec.state.phase == SWAPS and rec.state.board is not None
    at_swaps = box_of(rec.state.board)
    swaps = _choose_swaps(engine, rec.state, rnd)
    for k, swap in enumerate(swaps):
        _film_swap(rec, board, swap, last=k == len(swaps) - 1, rnd=rnd)
    assert rec.state.board is not None
    after_swaps = box_of(rec.state.board)
    rec.play(EndSwaps())
    taps = [(2.0, seat, {"kind": "call_guesses"})]
    delay = 2.5
    if rec.state.phase == GUESS:
        for g in engine_guessers(rec.state):
            jubilant = rnd.random() < 0.5
            rec.play(Guess(g, jubilant))
            taps.append((delay, g, {"kind": "guess", "jubilant": jubilant}))
            delay += 0.5
    assert rec.state.phase == LOOK and rec.state.board is not None
    guesses = rec.state.guesses
    seen = trace(rec.state.board, board)
    found = seen.seen is not None and seen.motif == rec.state.sought
    sought = rec.state.sought
    rec.play(Look(seen.seen if found else None))
    drops = engine.earned(rec.state)
    rec.play(Award(drops))
    taps.append((delay + 1.0, seat, {"kind": "look"}))
    rec.rest(delay + 1.0 + pause_s, taps)
    rec.script.turns.append(
        TurnRecord(
            turn,
            seat,
            window,
            sought,
            tuple(swaps),
            guesses,
            seen.seen,
            found,
            drops,
            at_swaps,
            after_swaps,
        )
    )


def engine_guessers(state: MirrorMansionState) -> list[int]:
    """The seats still to guess, in table order from the active player's left."""
    order = [(state.active + k) % state.players for k in range(1, state.players)]
    return [s for s in order if state.guesses[s] is None]


def _place_door(rec: _Recorder, board: Board, rnd: random.Random) -> None:
    """The neighbour lifts the door (if it stands) and puts it in a slot the rules allow."""
    assert rec.state.board is not None
    stands = rec.state.board.door
    legal = [a for a in rec.engine.legal_actions(rec.state) if isinstance(a, PlaceDoor)]
    # Somewhere new, so that the camera sees the door placed (the live game also accepts a
    # door put back in place once the swaps begin).
    moved = [a for a in legal if stands is None or (a.cell, a.slot) != (stands.cell, stands.slot)]
    door = rnd.choice(moved or legal)
    rec.beat(
        0.5,
        box_of(replace(rec.state.board, door=None)),
        hand_over=board.crossing_mm(door.cell),
        moving=True,
    )
    rec.play(door)
    rec.rest(3.0, [])


def _choose_swaps(
    engine: MirrorMansionEngine, state: MirrorMansionState, rnd: random.Random
) -> list[Swap]:
    """Legal swaps that end with "make your guesses" allowed, each moving a piece no earlier
    swap of the turn touched (so the camera's fewest-moves count is exactly these)."""
    if rnd.random() < SOLVED_SHARE:
        way = _solved(engine, state)
        if way is not None:
            return way
    for _ in range(200):
        want = rnd.randint(1, engine.board.max_swaps)
        out: list[Swap] = []
        s = state
        touched: set[tuple[int, int]] = set()
        while len(out) < want:
            options = [
                a
                for a in engine.legal_actions(s)
                if isinstance(a, Swap) and a.source not in touched and a.target not in touched
            ]
            if not options:
                break
            swap = rnd.choice(options)
            s = engine.apply(s, swap)
            out.append(swap)
            touched |= {swap.source, swap.target}
        if out and _ends(engine, s):
            return out
    raise RuntimeError("no legal swaps found for the film")  # never seen: 92 first swaps


def _ends(engine: MirrorMansionEngine, state: MirrorMansionState) -> bool:
    return any(isinstance(a, EndSwaps) for a in engine.legal_actions(state))


def _solved(engine: MirrorMansionEngine, state: MirrorMansionState) -> list[Swap] | None:
    from companion.games.mirror_mansion.rules.solver import solve

    board = state.board
    assert board is not None and state.sought is not None
    want = next((p for p, m in board.cards.items() if m == state.sought), None)
    if want is None:
        return None
    sol = solve(board, want, door_movable=state.options.door, board=engine.board)
    for way in sol.ways:
        cells = [c for sw in way.swaps for c in {sw.source, sw.target}]
        if len(cells) != len(set(cells)):
            continue  # a piece moved twice, or into a crossing another swap emptied
        s = state
        try:
            for sw in way.swaps:
                s = engine.apply(s, sw)
        except IllegalAction:
            continue
        if _ends(engine, s):
            return list(way.swaps)
    return None


def _film_swap(rec: _Recorder, board: Board, swap: Swap, *, last: bool, rnd: random.Random) -> None:
    """A hand over the piece, the piece lifted and carried (blur), put down, hands off."""
    s = rec.state
    assert s.board is not None
    before = box_of(s.board)
    src, dst = board.crossing_mm(swap.source), board.crossing_mm(swap.target)
    lifted = BoxState(
        tuple(m for m in before.mirrors if m.cell != swap.source),
        before.window,
        None if before.door is not None and before.door.cell == swap.source else before.door,
    )
    mid = ((src[0] + dst[0]) / 2, (src[1] + dst[1]) / 2)
    rec.beat(0.25, before, hand_over=src)
    rec.beat(0.5, lifted, hand_over=mid, moving=True)
    rec.play(swap)
    assert rec.state.board is not None
    after = box_of(rec.state.board)
    rec.beat(0.25, after, hand_over=dst)
    pause = 1.5 if last else rnd.choice([0.25, 0.5, 1.0])
    rec.beat(pause, after, rest=pause >= 1.0)
