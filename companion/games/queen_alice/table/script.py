"""Scripted Queen Alice turns as the table lives them: random legal play through the engine,
turned into the players' taps and the camera's frames, with hands over the board.

This is the ground truth the tracker is measured on (`benchmarks/queen_alice_tracking.py`)
and what a `sim` film renders: every turn is legal by construction, because the engine
chose it. A move is seen as a few frames with the hand over every square it changes (those
squares unsure), then the board steady, now and then with one square in doubt for a frame
(glare, a sleeve); hands also cross the board between moves without moving anything. The
card played is tapped before the move or after it, at random, as players do both.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.errors import UserError
from companion.games.base import CHANCE, IllegalAction
from companion.games.queen_alice.rules import ENGINE
from companion.games.queen_alice.rules.actions import (
    ChooseTrain,
    DealTrain,
    Discard,
    Draw,
    PlayMove,
    PlayNone,
    PlayRescue,
    PlayStay,
    Reveal,
    action_to_json,
)
from companion.games.queen_alice.rules.board import Cell
from companion.games.queen_alice.rules.state import State
from companion.games.queen_alice.table.live import BREACH_KIND, QueenAliceTable
from companion.games.queen_alice.table.messages import (
    Answer,
    Choose,
    DiscardCard,
    Drew,
    PlayCard,
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
from companion.games.queen_alice.table.track import (
    STABLE_FRAMES,
    STABLE_S,
    StableBoard,
    occupancy_after,
)
from companion.live.conformance import Correct, Observe
from companion.live.table_game import QUESTION_KIND, EventDraft, Observation
from companion.store import Event, Session

FRAME_S = 0.25
"""Seconds of table time per scripted camera reading (4 readings a second): the films play
them at this pace, and the tracker is given these frame times."""


@dataclass(frozen=True)
class Habits:
    """How the scripted table behaves; every probability is per frame or per tap."""

    hand_frames: tuple[int, int] = (2, 6)  # frames a hand covers a move
    steady_frames: tuple[int, int] = (6, 12)  # frames the board then stays still
    clean_tail: int = 4  # the last steady frames have no square in doubt
    doubt_rate: float = 0.12  # a steady frame with one square in doubt
    flicker_rate: float = 0.03  # a steady frame with one square misread (missed or phantom)
    passing_hand_rate: float = 0.15  # a hand crosses the board during a tap
    extra_cover: int = 3  # squares around a move a hand may also cover


@dataclass(frozen=True)
class Checkpoint:
    """The engine's state the table must hold once the steps so far are played."""

    state: State
    turns: int


@dataclass(frozen=True)
class ExpectPlay:
    """The play the tracker must record; when it asks which of several, answer this one."""

    action: PlayMove | PlayRescue


Step = Observe | Correct | Checkpoint | ExpectPlay


def _frame(board: Occupancy, unsure: set[Cell]) -> Observe:
    squares = tuple(
        SquareSeen(cell=cell, colour=colour) for cell, colour in sorted(board) if cell not in unsure
    )
    return Observe(Observation(BoardSeen(squares=squares, unsure=tuple(sorted(unsure))), 0.9))


class Table:
    """The camera's side of the script: frames of a board, with hands and doubt."""

    def __init__(self, rng: random.Random, habits: Habits) -> None:
        self.rng, self.habits = rng, habits
        board = ENGINE.board
        self.cells = [(r, c) for r in range(board.rows) for c in range(board.cols)]

    def _near(self, cells: set[Cell]) -> set[Cell]:
        near = [
            x for x in self.cells for c in cells if max(abs(x[0] - c[0]), abs(x[1] - c[1])) == 1
        ]
        k = min(len(near), self.rng.randint(0, self.habits.extra_cover))
        return set(self.rng.sample(near, k))

    def steady(self, board: Occupancy) -> list[Observe]:
        h = self.habits
        n = self.rng.randint(*h.steady_frames)
        out = []
        for i in range(n):
            roll, early = self.rng.random(), i < n - h.clean_tail
            if early and roll < h.doubt_rate:
                out.append(_frame(board, {self.rng.choice(self.cells)}))
            elif early and roll < h.doubt_rate + h.flicker_rate:
                out.append(_frame(self._misread(board), set()))
            else:
                out.append(_frame(board, set()))
        return out

    def _misread(self, board: Occupancy) -> Occupancy:
        """One square read wrong for one frame: a piece missed, or one seen where none is."""
        cell = self.rng.choice(self.cells)
        cells = dict(board)
        if cell in cells:
            del cells[cell]
        else:
            cells[cell] = self.rng.choice(("red", "white"))
        return frozenset(cells.items())

    def move(self, before: Occupancy, after: Occupancy) -> list[Observe]:
        changed = {cell for cell, _ in before ^ after}
        frames = [
            _frame(after, changed | self._near(changed))
            for _ in range(self.rng.randint(*self.habits.hand_frames))
        ]
        return frames + self.steady(after)

    def passing_hand(self, board: Occupancy) -> list[Observe]:
        if self.rng.random() >= self.habits.passing_hand_rate:
            return []
        over = self._near({self.rng.choice(self.cells)})
        return [_frame(board, over)] * self.rng.randint(1, 4) + self.steady(board)


def scripted_game(
    players: int,
    seed: int,
    turns: int,
    habits: Habits = Habits(),
    options: Mapping[str, Any] | None = None,
) -> Iterator[Step]:
    """Steps of one game, `turns` player turns long (or to its end), with the session's
    `options` (the set-up's Train cards are played unless they say otherwise)."""
    rng = random.Random(seed)
    table = Table(rng, habits)
    state = ENGINE.new_game(players, dict(options or {}))
    tile = ENGINE.sample_chance(state, rng)
    state = ENGINE.apply(state, tile)
    wishes = ENGINE.sample_chance(state, rng)
    state = ENGINE.apply(state, wishes)
    yield from table.steady(occupancy_of(state.pieces))
    yield Correct(SetUp(tile=tile.tile, wishes=wishes.wishes))
    turn = state.turns
    while state.turns < turns and not ENGINE.is_terminal(state):
        if ENGINE.current_player(state) == CHANCE:
            action = ENGINE.sample_chance(state, rng)
            if isinstance(action, Draw):
                yield Correct(Drew(card=action.card), action.seat)
            elif isinstance(action, Reveal):
                yield Correct(Revealed(level=action.level, card=action.card))
            elif isinstance(action, DealTrain):
                yield Correct(TrainDealt(cards=action.cards), action.seat)
            state = ENGINE.apply(state, action)
            if state.turns != turn:
                yield Checkpoint(state, state.turns)
            turn = state.turns
            continue
        seat = state.seat
        action = rng.choice(ENGINE.legal_actions(state))
        board = occupancy_of(state.pieces)
        if isinstance(action, PlayMove | PlayRescue):
            after = occupancy_after(state, action)
            tap = Correct(PlayCard(card=action.card), seat)
            if rng.random() < 0.5:
                yield tap
                yield from table.move(board, after)
            else:
                yield from table.move(board, after)
                yield tap
            yield ExpectPlay(action)
        elif isinstance(action, PlayStay):
            yield Correct(PlayCard(card=action.card, stay=state.pieces[action.piece].cell), seat)
        elif isinstance(action, PlayNone):
            yield Correct(PlayCard(card=action.card), seat)
        elif isinstance(action, Discard):
            yield Correct(DiscardCard(card=action.card), seat)
        elif isinstance(action, ChooseTrain):
            chosen = {"card": action.card, "side": action.side}
            yield Correct(TrainChosen.model_validate(chosen), seat)
        else:
            yield Correct(Choose(action=action_to_json(action)), seat)
        yield from table.passing_hand(
            occupancy_of(state.pieces)
            if not isinstance(action, PlayMove | PlayRescue)
            else occupancy_after(state, action)
        )
        state = ENGINE.apply(state, action)
        if state.turns != turn or ENGINE.is_terminal(state):
            yield Checkpoint(state, state.turns)
        turn = state.turns


@dataclass
class Tally:
    """What the tracker did with a script: the measure of `benchmarks/queen_alice_tracking`."""

    turns: int = 0
    moves: int = 0  # plays the camera had to see (moves and rescues)
    moves_right: int = 0
    checkpoints_right: int = 0
    checkpoints: int = 0
    breaches: int = 0
    square_questions: int = 0
    play_questions: int = 0
    refused: list[str] = field(default_factory=list)


def run_script(
    steps: Iterator[Step],
    session: Session,
    stable_frames: int = STABLE_FRAMES,
    stable_s: float = STABLE_S,
    fps: float = 1 / FRAME_S,
) -> tuple[QueenAliceTable, Tally]:
    """Play the steps into a table game the way the live loop does (decide, commit, apply);
    answer "which play?" questions with the scripted play; count what went right and wrong.
    Each reading lasts `FRAME_S` of table time and a camera at `fps` sees it in every frame
    it takes meanwhile (one frame at the default). `stable_frames` and `stable_s` other than
    the tracker's own are for measuring that choice."""
    game = QueenAliceTable(None, session)
    game.tracker = StableBoard(stable_frames, stable_s)
    tally, seq = Tally(), 0

    def commit(drafts: list[EventDraft]) -> None:
        nonlocal seq
        for draft in drafts:
            seq += 1
            if draft.kind == BREACH_KIND:
                tally.breaches += 1
            if draft.kind == QUESTION_KIND:
                if str(draft.payload["id"]).startswith("square-"):
                    tally.square_questions += 1
                else:
                    tally.play_questions += 1
            game.apply_event(
                Event(
                    session.id,
                    seq,
                    0.0,
                    draft.kind,
                    json.loads(json.dumps(draft.payload)),
                    draft.visibility,
                )
            )

    reading_t, shot = 0.0, 0
    for step in steps:
        if isinstance(step, Observe):
            reading_t += FRAME_S
            while shot / fps < reading_t - 1e-9:
                commit(game.update(step.observation, shot / fps))
                shot += 1
        elif isinstance(step, Correct):
            try:
                commit(game.correct(step.payload, step.seat))
            except (UserError, IllegalAction) as exc:
                tally.refused.append(f"{step.payload!r}: {exc}")
        elif isinstance(step, ExpectPlay):
            tally.moves += 1
            for question in list(game.questions(game.state.seat)):
                plays = game.plays_asked.get(question.id, [])
                wanted = action_to_json(step.action)
                if wanted in plays:
                    commit(
                        game.correct(
                            Answer(question=question.id, answer=plays.index(wanted)),
                            game.state.seat,
                        )
                    )
            last = game.log[-1] if game.log else None
            if last is not None and last["turn"] == game.state.turns and _same(last, step):
                tally.moves_right += 1
        else:
            tally.checkpoints += 1
            tally.turns = step.turns
            tally.checkpoints_right += game.state == step.state
    return game, tally


def _same(entry: dict[str, Any], expected: ExpectPlay) -> bool:
    return entry.get("play") == action_to_json(expected.action)
