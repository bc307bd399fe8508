"""Reflecto's rules: secret words on screens, a race to the far line, removals in word order.

A turn is: any removals, one move (or a guess instead of the move), any removals; the turn
passes by itself once the move is made and no removal is left to make, or with `Done`.
Readings of the rulebook's open points (docs/reflecto.md says the same):
- A player with no legal move must guess (a guess is always open before the move).
- A guess is made instead of the move, so only before it; removals before it are fine.
- The game ends the moment a player removes their last letter screen (they win), or on a
  guess: right wins; wrong loses, or in the "guessing frequently" variant loses the turn.
- Word length, the number of letter and mirror screens, guesses and removed screens are
  public; which screen is which, and the letters, stay with their owner until the end.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from companion.games.base import BoardEngine, IllegalAction, require
from companion.games.reflecto.rules.actions import (
    Action,
    Done,
    Guess,
    Remove,
    Setup,
    Step,
    action_from_json,
    action_to_json,
)
from companion.games.reflecto.rules.board import DIRECTIONS, Board, load_board
from companion.games.reflecto.rules.hint import MAX_SECONDS, MAX_STATES, Hint, hint, letter_order
from companion.games.reflecto.rules.position import LETTER, MIRROR, Move, Position
from companion.games.reflecto.rules.setup import (
    RULE_SETUP,
    example_setups,
    normalise_word,
    setup_problem,
)
from companion.games.reflecto.rules.sight import mirror_sight
from companion.games.reflecto.rules.state import (
    OVER,
    PLAY,
    SEAT_LETTERS,
    SETUP,
    ReflectoState,
    Screen,
    Sighting,
    parse_options,
    state_from_json,
    state_to_json,
)

RULE_PHASE = "not the time for this action"
RULE_OWN = "move one of your own screens"
RULE_ONE_MOVE = "one move per turn"
RULE_MOVE_FIRST = "the turn is a move (or a guess): move before ending the turn"
RULE_BOARD = "screens stay on the board (only a jump from the second-to-last line leaves it)"
RULE_FREE = "a screen lands on an empty square"
RULE_JUMP = "a jump goes over an adjacent screen to the empty square directly beyond it"
RULE_REACH = "a step goes to an adjacent square; a chain of jumps, square by square"
RULE_MIRROR = "mirror screens are never removed"
RULE_LAST_LINE = "a letter screen is removed from your last line"
RULE_ORDER = "letter screens are removed in the order of the word's letters"
RULE_JUMP_OFF = (
    "a jump removes a screen only from the second-to-last line, over a screen on the last line"
)
RULE_GUESS = "a guess is made instead of the move, and names a word"

WIN_REMOVED = "removed all letter screens"
WIN_GUESS = "guessed the word"
LOSE_GUESS = "guessed wrong"


def screen_ids(seat: int, columns: list[int]) -> list[str]:
    return [f"{SEAT_LETTERS[seat]}{c}" for c in columns]


class ReflectoEngine(BoardEngine[Board]):
    game_id = "reflecto"

    def load_board(self) -> Board:
        return load_board()

    # --- protocol ---------------------------------------------------------------------

    def new_game(self, players: int, options: dict[str, Any] | None = None) -> ReflectoState:
        if players != 2:
            raise ValueError("Reflecto is for 2 players")
        b = self.board
        return ReflectoState(parse_options(options, b), b.rows, b.cols)

    def current_player(self, state: ReflectoState) -> int | None:
        if state.phase == SETUP:
            return 0 if state.words[0] is None else 1
        if state.phase == PLAY:
            return state.to_move
        return None

    def is_terminal(self, state: ReflectoState) -> bool:
        return state.phase == OVER

    def scores(self, state: ReflectoState) -> list[float]:
        return [1.0 if state.winner == s else 0.0 for s in (0, 1)]

    def sample_chance(self, state: ReflectoState, rng: random.Random) -> Action:
        raise ValueError("Reflecto has no chance moves")

    def legal_actions(self, state: ReflectoState) -> list[Action]:
        """Every move and removal; for the free choices (a word, a guess) the model's
        example words stand in, as no list can hold every word (apply judges any)."""
        seat = self.current_player(state)
        if seat is None:
            return []
        if state.phase == SETUP:
            return list(example_setups(self.board, seat, state.options.letter_screens[seat]))
        position = state.position()
        actions: list[Action] = [Remove(str(s)) for s in position.removals()]
        if state.moved:
            return [*actions, Done()]
        actions += [Step(str(m.screen), m.to) for m in position.moves()]
        return actions + [Guess(w) for w in self.example_guesses(state)]

    def example_guesses(self, state: ReflectoState) -> list[str]:
        """Listed words as long as the opponent's (its length is public)."""
        other = state.words[1 - state.to_move] or ""
        found = [w for w in self.board.words if len(w) == len(other)]
        return found or ["A" * len(other)]

    def apply(self, state: ReflectoState, action: Action) -> ReflectoState:
        match action:
            case Setup():
                return self._setup(state, action)
            case Step(screen, to):
                return self._move(state, screen, to)
            case Remove(screen):
                return self._remove(state, screen)
            case Guess(word):
                return self._guess(state, word)
            case Done():
                require(state.phase == PLAY, RULE_PHASE, "the game is not being played")
                require(state.moved, RULE_MOVE_FIRST)
                return self._next_turn(state)
        raise IllegalAction(RULE_PHASE, f"not a Reflecto action: {action!r}")

    # --- the actions ------------------------------------------------------------------

    def _setup(self, state: ReflectoState, setup: Setup) -> ReflectoState:
        require(state.phase == SETUP, RULE_SETUP, "the game has begun")
        require(
            setup.seat == self.current_player(state),
            RULE_SETUP,
            f"seat {self.current_player(state)} sets up now",
        )
        seat = setup.seat
        problem = setup_problem(
            setup, self.board, state.options.letter_screens[seat], seat in state.options.younger
        )
        if problem is not None:
            raise IllegalAction(*problem)
        row = self.board.first_row(seat)
        screens = [
            Screen(
                f"{SEAT_LETTERS[seat]}{col}",
                seat,
                LETTER,
                text,
                rank,
                rank in setup.hinted,
                (row, col),
            )
            for rank, (text, col) in enumerate(zip(setup.chunks, setup.letter_columns, strict=True))
        ]
        screens += [
            Screen(f"{SEAT_LETTERS[seat]}{col}", seat, MIRROR, cell=(row, col))
            for col in setup.mirror_columns
        ]
        words = (setup.word, state.words[1]) if seat == 0 else (state.words[0], setup.word)
        state = replace(
            state,
            screens=tuple(sorted([*state.screens, *screens], key=lambda s: s.id)),
            words=words,
        )
        if seat == 1:
            state = replace(state, phase=PLAY, to_move=state.options.first)
            state = self._record_sight(state)
        return state

    def _own_screen(self, state: ReflectoState, screen_id: str) -> Screen:
        require(state.phase == PLAY, RULE_PHASE, "the game is not being played")
        screen = state.screen(screen_id)
        require(
            screen is not None and screen.owner == state.to_move,
            RULE_OWN,
            f"{screen_id} is not a screen of seat {state.to_move}",
        )
        assert screen is not None
        require(screen.cell is not None, RULE_OWN, f"{screen_id} has been removed")
        return screen

    def _move(self, state: ReflectoState, screen_id: str, to: Any) -> ReflectoState:
        screen = self._own_screen(state, screen_id)
        require(not state.moved, RULE_ONE_MOVE, "this turn's move is made")
        position = state.position()
        if Move(screen_id, to) not in position.moves():
            raise IllegalAction(*move_problem(position, screen_id, to))
        if to is None:
            state = state.with_screen(replace(screen, cell=None))
            state = self._removed(state, screen)
            if state.phase == OVER:
                return state
        else:
            state = state.with_screen(replace(screen, cell=to))
        state = self._record_sight(replace(state, moved=True))
        return state if state.position().removals() else self._next_turn(state)

    def _remove(self, state: ReflectoState, screen_id: str) -> ReflectoState:
        screen = self._own_screen(state, screen_id)
        require(screen.kind == LETTER, RULE_MIRROR)
        assert screen.cell is not None
        require(
            screen.cell[0] == self.board.last_row(screen.owner),
            RULE_LAST_LINE,
            f"{screen_id} is on row {screen.cell[0]}",
        )
        nxt = state.next_to_remove(screen.owner)
        require(
            nxt is not None and nxt.id == screen_id,
            RULE_ORDER,
            f"{screen_id} is not the next letter screen to remove",
        )
        state = self._removed(state.with_screen(replace(screen, cell=None)), screen)
        if state.phase == OVER or not state.moved or state.position().removals():
            return state
        return self._next_turn(state)

    def _removed(self, state: ReflectoState, screen: Screen) -> ReflectoState:
        seat = screen.owner
        removed = list(state.removed)
        removed[seat] = (*removed[seat], screen.id)
        state = replace(state, removed=(removed[0], removed[1]))
        if state.next_to_remove(seat) is None:
            return replace(state, phase=OVER, winner=seat, end=WIN_REMOVED)
        return state

    def _guess(self, state: ReflectoState, word: str) -> ReflectoState:
        require(state.phase == PLAY, RULE_PHASE, "the game is not being played")
        require(not state.moved, RULE_GUESS, "this turn's move is made")
        word = normalise_word(word)
        require(word.isalpha(), RULE_GUESS, "letters only")
        seat = state.to_move
        right = word == state.words[1 - seat]
        entry = {"seat": seat, "word": word, "right": right, "turn": state.turn}
        state = replace(state, guesses=(*state.guesses, entry))
        if right:
            return replace(state, phase=OVER, winner=seat, end=WIN_GUESS)
        if state.options.guessing_frequently:
            return self._next_turn(state)
        return replace(state, phase=OVER, winner=1 - seat, end=LOSE_GUESS)

    def _next_turn(self, state: ReflectoState) -> ReflectoState:
        return replace(state, to_move=1 - state.to_move, moved=False, turn=state.turn + 1)

    def _record_sight(self, state: ReflectoState) -> ReflectoState:
        """Note the first time each seat's mirrors could show each opponent letter."""
        known = {(s.seat, s.screen) for s in state.sightings}
        new = [
            Sighting(seat, sight.mirror, sight.screen.id, state.turn)
            for seat in (0, 1)
            for sight in mirror_sight(state, seat)
            if (seat, sight.screen.id) not in known
        ]
        return replace(state, sightings=(*state.sightings, *new)) if new else state

    def hint(
        self,
        state: ReflectoState,
        seat: int,
        max_states: int = MAX_STATES,
        max_seconds: float = MAX_SECONDS,
    ) -> Hint:
        """The fewest own moves to remove all of `seat`'s letters if the opponent stood
        still (private to `seat`: it knows its own letters' order)."""
        position = state.position()
        return hint(position, seat, letter_order(state.screens_of(seat)), max_states, max_seconds)

    # --- what leaves the server -------------------------------------------------------

    def view(self, state: ReflectoState, seat: int | None) -> dict[str, Any]:
        over = state.phase == OVER
        screens = []
        for s in state.screens:
            item: dict[str, Any] = {
                "id": s.id,
                "owner": s.owner,
                "cell": None if s.cell is None else list(s.cell),
            }
            if over or s.owner == seat or s.cell is None:  # removed: laid letters up
                item.update(kind=s.kind, text=s.text, rank=s.rank, hinted=s.hinted)
            screens.append(item)
        v: dict[str, Any] = {
            "game": self.game_id,
            "seat": seat,
            "phase": state.phase,
            "rows": state.rows,
            "cols": state.cols,
            "to_move": None if state.phase != PLAY else state.to_move,
            "moved": state.moved,
            "turn": state.turn,
            "set_up": [w is not None for w in state.words],
            "word_length": [None if w is None else len(w) for w in state.words],
            "letter_screens": list(state.options.letter_screens),
            "mirror_screens": [
                self.board.screens_per_player - n for n in state.options.letter_screens
            ],
            "options": state.options.to_json(),
            "screens": screens,
            "removed": [[self._laid(state, i) for i in ids] for ids in state.removed],
            "guesses": [dict(g) for g in state.guesses],
            "winner": state.winner,
            "end": state.end,
            "words": list(state.words) if over else None,
            "sightings": [s.to_json() for s in state.sightings] if over else None,
        }
        if seat is not None:
            v["word"] = state.words[seat]
            nxt = state.next_to_remove(seat)
            v["next_to_remove"] = None if nxt is None else nxt.id
            if seat in state.options.mirror_sight and state.phase == PLAY:
                v["sight"] = [x.to_json() for x in mirror_sight(state, seat)]
        return v

    def _laid(self, state: ReflectoState, screen_id: str) -> dict[str, Any]:
        s = state.screen(screen_id)
        assert s is not None
        return {"id": s.id, "text": s.text, "rank": s.rank}

    state_to_json = staticmethod(state_to_json)

    def state_from_json(self, data: dict[str, Any]) -> ReflectoState:
        return state_from_json(data, self.board)

    action_to_json = staticmethod(action_to_json)
    action_from_json = staticmethod(action_from_json)


def move_problem(position: Position, screen_id: Any, to: Any) -> tuple[str, str]:
    """Why moving `screen_id` to `to` is not a legal move (rule, detail), for a breach."""
    placed = position.by_id.get(screen_id)
    if placed is None or placed.owner != position.to_move:
        return RULE_OWN, f"{screen_id} is not a screen of seat {position.to_move} on the board"
    if to is None:
        if placed.kind == MIRROR:
            return RULE_MIRROR, f"{screen_id} is a mirror"
        if position.next_to_remove[placed.owner] != screen_id:
            return RULE_ORDER, f"{screen_id} is not the next letter screen to remove"
        return RULE_JUMP_OFF, f"{screen_id} cannot jump off from {list(placed.cell)}"
    if not position.on_board(to):
        return RULE_BOARD, f"{list(to)} is off the board"
    if to in position.occupant and to != placed.cell:
        return RULE_FREE, f"{list(to)} is taken"
    dr, dc = to[0] - placed.cell[0], to[1] - placed.cell[1]
    if (dr // 2, dc // 2) in DIRECTIONS and dr % 2 == 0 and dc % 2 == 0:
        over = (placed.cell[0] + dr // 2, placed.cell[1] + dc // 2)
        if over not in position.occupant:
            return RULE_JUMP, f"no screen on {list(over)} to jump over"
    return RULE_REACH, f"{screen_id} cannot reach {list(to)} from {list(placed.cell)}"


ENGINE = ReflectoEngine()
