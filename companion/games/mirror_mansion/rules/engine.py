"""Mirror Mansion rules: one turn is window swap, die, (name), (door), swaps, guesses, look, award.

The state holds the whole truth (card positions, guesses); the look is not taken on trust
but computed from the light path, so the companion can tell before anyone looks whether the
player will see the sought motif, and checks the drops the table hands out. Positions are
board coordinates throughout; in the masters' variant the box's turn on the table is state.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from companion.games.base import CHANCE, BoardEngine, IllegalAction, require
from companion.games.mirror_mansion.rules.actions import (
    Action,
    Award,
    ConfirmCard,
    EndSwaps,
    Guess,
    Look,
    Name,
    PlaceDoor,
    Roll,
    Setup,
    Swap,
    SwapWindow,
    TurnBox,
    action_from_json,
    action_to_json,
)
from companion.games.mirror_mansion.rules.board import FACINGS, SLOTS, Board, Cell, load_board
from companion.games.mirror_mansion.rules.game_state import (
    AWARD,
    DOOR,
    GUESS,
    LOOK,
    NAME,
    OVER,
    ROLL,
    SETUP,
    SWAPS,
    WINDOW,
    LookResult,
    MirrorMansionState,
    look_json,
    parse_options,
    state_from_json,
    state_to_json,
)
from companion.games.mirror_mansion.rules.optics import (
    BoardState,
    Door,
    Mirror,
    Trace,
    in_line_mirrors,
    trace,
)
from companion.games.mirror_mansion.rules.state_json import board_state_to_json

# The rules an action can break, as IllegalAction.rule.
RULE_PHASE = "not the time for this move"
RULE_SETUP = "the set-up places every card once and the box's mirrors in free crossings"
RULE_DIE = "the die shows 1 to 6"
RULE_WINDOW_SWAP = "swap the window card with another castle card"
RULE_CONFIRM_WHEN = (
    "a castle card's motif is confirmed between the window swap that reveals it and the look"
)
RULE_CONFIRM_WINDOW = "the window card shows no motif"
RULE_CONFIRM_MOTIF = "each castle card shows one of the eleven motifs"
RULE_CONFIRM_ONCE = "each motif appears once: a card the table confirmed keeps its motif"
RULE_BOX = (
    "the box may be turned only in the masters' variant,"
    " once when the window card is swapped and once when looking"
)
RULE_NAME = "the neighbour names one of the ten motifs in Victor's thought bubbles"
RULE_DOOR_IN_LINE = "the door may not be placed in line with the window card"
RULE_FREE_SLOT = "a piece goes into a free slot; a crossing holds at most one piece"
RULE_BAD_SLOT = (
    "a slot is '/' or '\\' in a crossing of the grid,"
    " and a mirror faces one of its slot's two sides"
)
RULE_NO_PIECE = "swap a piece that is on the board"
RULE_NO_CHANGE = "a swap moves a piece to another slot or turns a mirror"
RULE_MAX_SWAPS = "at most three swaps per turn"
RULE_DOOR_SWAPS = (
    "swap one to three mirrors, or one to two mirrors and the door:"
    " the door moves at most once a turn"
)
RULE_NO_SWAP = "swap at least once"
RULE_MIRROR_SWAP = "swap at least one mirror"
RULE_IN_LINE = "at least one mirror must end in a slot in line with the window card"
RULE_FIRST_ROUND = "no guesses in the first round"
RULE_ACTIVE_GUESS = "the player whose turn it is does not guess"
RULE_ONE_GUESS = "each other player guesses once"
RULE_PULL = "pull a card only when the sought motif was seen, and never the window card"
RULE_DROPS = "take exactly the drops earned"


class MirrorMansionEngine(BoardEngine[Board]):
    game_id = "mirror-mansion"

    def load_board(self) -> Board:
        return load_board()

    # --- protocol ---------------------------------------------------------------------

    def new_game(self, players: int, options: dict[str, Any] | None = None) -> MirrorMansionState:
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise ValueError("Mirror Mansion is for 2 to 4 players")
        opts = parse_options(options, players, self.board)
        target = opts.target or self.board.drop_target[players]
        return MirrorMansionState(
            players=players,
            options=opts,
            target=target,
            guesses=(None,) * players,
            drops=(0,) * players,
        )

    def current_player(self, state: MirrorMansionState) -> int | None:
        if state.phase in (SETUP, ROLL):
            return CHANCE
        if state.phase in (NAME, DOOR):
            return state.neighbour
        if state.phase == GUESS:
            return self._pending_guessers(state)[0]
        if state.phase == OVER:
            return None
        return state.active

    def is_terminal(self, state: MirrorMansionState) -> bool:
        return state.phase == OVER

    def scores(self, state: MirrorMansionState) -> list[float]:
        return [float(d) for d in state.drops]

    def winners(self, state: MirrorMansionState) -> list[int]:
        """Seats sharing the most drops once the game is over (ties share the win)."""
        if state.phase != OVER:
            return []
        best = max(state.drops)
        return [s for s, d in enumerate(state.drops) if d == best]

    def legal_actions(self, state: MirrorMansionState) -> list[Action]:
        b = self.board
        candidates: list[Action]
        if state.phase == WINDOW:
            candidates = [SwapWindow(p) for p in b.positions]
            candidates += [TurnBox(q) for q in (1, 2, 3)]
        elif state.phase == NAME:
            candidates = [Name(m) for m in b.motifs]
        elif state.phase == DOOR:
            candidates = [PlaceDoor(cell, slot) for cell in b.cells for slot in SLOTS]
        elif state.phase == SWAPS:
            candidates = [*self._swap_candidates(state), EndSwaps()]
        elif state.phase == GUESS:
            # Guesses are simultaneous at the table: every seat still to guess may, in any
            # order; current_player names the first of them.
            pending = self._pending_guessers(state)
            candidates = [Guess(seat, j) for seat in pending for j in (True, False)]
        elif state.phase == LOOK:
            candidates = [Look(None), *(Look(p) for p in b.positions)]
            candidates += [TurnBox(q) for q in (1, 2, 3)]
        elif state.phase == AWARD:
            candidates = [Award(self.earned(state))]
        else:
            return []
        return [a for a in candidates if self._is_legal(state, a)]

    def sample_chance(self, state: MirrorMansionState, rng: random.Random) -> Action:
        b = self.board
        if state.phase == SETUP:
            cards = [*b.cards, b.window_card]
            rng.shuffle(cards)
            cells = rng.sample(list(b.cells), b.mirrors)
            mirrors = []
            for cell in cells:
                slot = rng.choice(SLOTS)
                mirrors.append(Mirror(cell, slot, rng.choice(FACINGS[slot])))
            return Setup(
                tuple(sorted(zip(b.positions, cards, strict=True))),
                tuple(sorted(mirrors)),
                rng.randrange(len(b.fields)),
            )
        if state.phase == ROLL:
            return Roll(rng.randint(1, b.die_sides))
        raise ValueError(f"no chance move in phase {state.phase!r}")

    def apply(self, state: MirrorMansionState, action: Action) -> MirrorMansionState:
        handlers: dict[type, Callable[[MirrorMansionState, Any], MirrorMansionState]] = {
            Setup: self._setup,
            SwapWindow: self._swap_window,
            ConfirmCard: self._confirm_card,
            TurnBox: self._turn_box,
            Roll: self._roll,
            Name: self._name,
            PlaceDoor: self._place_door,
            Swap: self._swap,
            EndSwaps: self._end_swaps,
            Guess: self._guess,
            Look: self._look,
            Award: self._award,
        }
        handler = handlers.get(type(action))
        if handler is None:
            raise IllegalAction(RULE_PHASE, f"not a Mirror Mansion action: {action!r}")
        return handler(state, action)

    def with_no_peeking(
        self, state: MirrorMansionState, seat: int, on: bool = True
    ) -> MirrorMansionState:
        """A seat's choice to have its view hide the prediction until the look. Not a move
        in the game (it never appears in legal_actions), so it is a plain state update."""
        if not 0 <= seat < state.players:
            raise ValueError(f"no seat {seat} in a {state.players}-player game")
        seats = state.options.no_peeking | {seat} if on else state.options.no_peeking - {seat}
        return replace(state, options=replace(state.options, no_peeking=frozenset(seats)))

    def with_table(
        self,
        state: MirrorMansionState,
        mirrors: tuple[Mirror, ...],
        window: str,
        door: Door | None,
    ) -> MirrorMansionState:
        """The pieces as they stand on the table, taken as the truth: not a move (it never
        appears in legal_actions) but the table's correction when the companion's board has
        drifted from the box (a misread, a piece nudged between turns). The mirrors, the
        door and the window card take the table's places; each castle card keeps its motif,
        and a window card found elsewhere trades places with the card there, as a window
        swap does. Hidden state (guesses) and the turn's progress are untouched."""
        require(state.board is not None, RULE_PHASE, "the set-up comes first")
        assert state.board is not None
        old = state.board
        require(self.board.is_position(window), RULE_SETUP, f"no card position {window!r}")
        cards = dict(old.cards)
        confirmed = state.confirmed
        if window != old.window:
            motif = cards.pop(window, None)
            if motif is not None:
                cards[old.window] = motif
            if window in confirmed:
                confirmed = (confirmed - {window}) | {old.window}
        require(
            len(mirrors) == self.board.mirrors,
            RULE_SETUP,
            f"the box has {self.board.mirrors} mirrors, the table shows {len(mirrors)}",
        )
        board = replace(old, mirrors=tuple(sorted(mirrors)), window=window, door=door, cards=cards)
        problems = board.problems(self.board)
        require(not problems, RULE_SETUP, "; ".join(problems))
        return replace(state, board=board, confirmed=confirmed)

    # --- what the eye will see ----------------------------------------------------------

    def prediction(self, state: MirrorMansionState) -> Trace | None:
        """The view through the window as the board stands now (None before the set-up)."""
        return None if state.board is None else trace(state.board, self.board)

    def max_door_moves(self, state: MirrorMansionState) -> int:
        """Door moves allowed in one turn: the board's number, or two under the house rule."""
        if state.options.door_twice:
            return max(self.board.max_door_swaps, 2)
        return self.board.max_door_swaps

    def award_steps(self, state: MirrorMansionState) -> list[tuple[int, ...]]:
        """The drops of the look just made, one tuple per award in the rulebook's order:
        the drop for seeing the sought motif, the drop for pulling its card (or the garlic's
        drop given back), then every correct guesser paid together in step 6."""
        look = state.look
        if look is None:
            return []
        p = state.active
        steps: list[tuple[int, ...]] = []

        def one(seats: dict[int, int]) -> tuple[int, ...]:
            return tuple(seats.get(s, 0) for s in range(state.players))

        if look.found:
            steps.append(one({p: 1}))
            if look.pulled is not None and self._card(state, look.pulled) == state.sought:
                steps.append(one({p: 1}))
        elif look.motif == self.board.garlic and state.drops[p] > 0:
            steps.append(one({p: -1}))
        right = {s: 1 for s, g in enumerate(state.guesses) if g is not None and g == look.found}
        if right:
            steps.append(one(right))
        return steps

    def earned(self, state: MirrorMansionState) -> tuple[int, ...]:
        """The drops each seat gains (or gives back) for the look just made.

        "The game ends immediately when a player has collected a certain number of vampire
        drops": the awards are paid in the rulebook's order and stop at the first that
        brings a seat to the target, so an active player who wins in step 5 is the only
        winner and no guess is paid. The house rule `pay_whole_turn` pays every award."""
        earned = [0] * state.players
        for step in self.award_steps(state):
            earned = [e + d for e, d in zip(earned, step, strict=True)]
            if state.options.pay_whole_turn:
                continue
            if any(d + e >= state.target for d, e in zip(state.drops, earned, strict=True)):
                break
        return tuple(earned)

    # --- the moves ----------------------------------------------------------------------

    def _is_legal(self, state: MirrorMansionState, action: Action) -> bool:
        try:
            self.apply(state, action)
        except IllegalAction:
            return False
        return True

    def _phase(self, state: MirrorMansionState, *phases: str) -> None:
        require(state.phase in phases, RULE_PHASE, f"the game is at {state.phase!r}")

    def _card(self, state: MirrorMansionState, position: str) -> str | None:
        assert state.board is not None
        return state.board.cards.get(position)

    def _setup(self, state: MirrorMansionState, action: Setup) -> MirrorMansionState:
        self._phase(state, SETUP)
        b = self.board
        cards = action.card_map()
        require(
            sorted(cards) == sorted(b.positions)
            and sorted(cards.values()) == sorted([*b.cards, b.window_card]),
            RULE_SETUP,
            "every position gets exactly one of the twelve castle cards",
        )
        require(
            len(action.mirrors) == b.mirrors,
            RULE_SETUP,
            f"the box has {b.mirrors} mirrors, the set-up places {len(action.mirrors)}",
        )
        require(0 <= action.victor < len(b.fields), RULE_SETUP, "Victor stands on a field")
        window = next(p for p, c in cards.items() if c == b.window_card)
        board = BoardState(
            mirrors=action.mirrors,
            window=window,
            two_sided=state.options.two_sided,
            cards={p: c for p, c in cards.items() if p != window},
        )
        problems = board.problems(b)
        require(not problems, RULE_SETUP, "; ".join(problems))
        return replace(state, phase=WINDOW, board=board, victor=action.victor)

    def _swap_window(self, state: MirrorMansionState, action: SwapWindow) -> MirrorMansionState:
        self._phase(state, WINDOW)
        assert state.board is not None
        old = state.board.window
        require(
            self.board.is_position(action.position) and action.position != old,
            RULE_WINDOW_SWAP,
            f"{action.position!r} is not another card position",
        )
        cards = dict(state.board.cards)
        motif = cards.pop(action.position)
        cards[old] = motif
        board = replace(state.board, window=action.position, cards=cards)
        # A confirmed card keeps its confirmation where the swap puts it.
        confirmed = state.confirmed - {action.position}
        if action.position in state.confirmed:
            confirmed |= {old}
        return replace(state, phase=ROLL, board=board, box_turned=False, confirmed=confirmed)

    def _confirm_card(self, state: MirrorMansionState, action: ConfirmCard) -> MirrorMansionState:
        """Not a move (it never appears in legal_actions): the table tells the companion what
        a card shown to all bears, to fix a wrong tap at set-up before the look relies on it.
        A motif tapped in at another, unconfirmed position trades places with this card's,
        as the two taps were evidently switched; a confirmed card is never changed so."""
        require(
            state.phase in (ROLL, NAME, DOOR, SWAPS, GUESS, LOOK),
            RULE_CONFIRM_WHEN,
            f"the game is at {state.phase!r}",
        )
        assert state.board is not None
        require(
            self.board.is_position(action.position) and action.position != state.board.window,
            RULE_CONFIRM_WINDOW,
            f"{action.position!r} is not a castle card beside the window",
        )
        require(action.motif in self.board.cards, RULE_CONFIRM_MOTIF, f"{action.motif!r}")
        cards = dict(state.board.cards)
        old = cards.get(action.position)
        other = next((p for p, m in cards.items() if m == action.motif), None)
        if other is not None and other != action.position:
            require(
                other not in state.confirmed,
                RULE_CONFIRM_ONCE,
                f"{action.motif!r} is confirmed at {other}",
            )
            if old is None:
                del cards[other]
            else:
                cards[other] = old
        cards[action.position] = action.motif
        return replace(
            state,
            board=replace(state.board, cards=cards),
            confirmed=state.confirmed | {action.position},
        )

    def _turn_box(self, state: MirrorMansionState, action: TurnBox) -> MirrorMansionState:
        require(state.options.masters, RULE_BOX, "the masters' variant is not on")
        require(state.phase in (WINDOW, LOOK), RULE_BOX, f"the game is at {state.phase!r}")
        require(not state.box_turned, RULE_BOX, "already turned in this step")
        require(action.quarter_turns in (1, 2, 3), RULE_BOX, "turn by 1, 2 or 3 quarter turns")
        return replace(
            state,
            box_quarter_turns=(state.box_quarter_turns + action.quarter_turns) % 4,
            box_turned=True,
        )

    def _roll(self, state: MirrorMansionState, action: Roll) -> MirrorMansionState:
        self._phase(state, ROLL)
        require(1 <= action.value <= self.board.die_sides, RULE_DIE, f"got {action.value}")
        victor = (state.victor + action.value) % len(self.board.fields)
        thought = self.board.field_thought(victor)
        if thought is None:
            return replace(state, phase=NAME, victor=victor, sought=None)
        return replace(state, phase=self._after_sought(state), victor=victor, sought=thought)

    def _after_sought(self, state: MirrorMansionState) -> str:
        return DOOR if state.options.door else SWAPS

    def _name(self, state: MirrorMansionState, action: Name) -> MirrorMansionState:
        self._phase(state, NAME)
        require(action.motif in self.board.motifs, RULE_NAME, f"{action.motif!r}")
        return replace(state, phase=self._after_sought(state), sought=action.motif)

    def _check_slot(self, cell: Cell, slot: str, facing: str | None, is_door: bool) -> None:
        ok = cell in self.board.cells and slot in SLOTS
        ok = ok and (facing is None if is_door else facing in FACINGS[slot])
        require(ok, RULE_BAD_SLOT, f"{list(cell)} {slot!r} {facing!r}")

    def _place_door(self, state: MirrorMansionState, action: PlaceDoor) -> MirrorMansionState:
        self._phase(state, DOOR)
        assert state.board is not None
        self._check_slot(action.cell, action.slot, None, is_door=True)
        taken = {m.cell for m in state.board.mirrors}  # the door itself is lifted first
        require(action.cell not in taken, RULE_FREE_SLOT, f"a mirror is in {list(action.cell)}")
        require(
            action.cell not in self.board.in_line(state.board.window),
            RULE_DOOR_IN_LINE,
            f"{list(action.cell)} is in line with {state.board.window}",
        )
        board = replace(state.board, door=Door(action.cell, action.slot))
        return replace(state, phase=SWAPS, board=board)

    def _swapped_board(self, state: MirrorMansionState, action: Swap) -> tuple[BoardState, bool]:
        """The board after a swap and whether it moved the door; raises if the swap is illegal
        on its own (the end-of-swaps rules are checked by the caller)."""
        self._phase(state, SWAPS)
        board = state.board
        assert board is not None
        b = self.board
        require(len(state.swaps) < b.max_swaps, RULE_MAX_SWAPS)
        mirror = next((m for m in board.mirrors if m.cell == action.source), None)
        door = board.door if board.door and board.door.cell == action.source else None
        require(mirror is not None or door is not None, RULE_NO_PIECE, f"{list(action.source)}")
        self._check_slot(action.target, action.slot, action.facing, is_door=door is not None)
        if door is not None:
            require(
                state.door_swaps < self.max_door_moves(state),
                RULE_DOOR_SWAPS,
                f"the door has moved {state.door_swaps} time(s) this turn",
            )
            require(
                (action.target, action.slot) != (door.cell, door.slot),
                RULE_NO_CHANGE,
                "the door has no face to turn",
            )
        else:
            assert mirror is not None
            require(
                (action.target, action.slot, action.facing)
                != (mirror.cell, mirror.slot, mirror.facing),
                RULE_NO_CHANGE,
            )
        require(
            action.target == action.source
            or (
                all(m.cell != action.target for m in board.mirrors)
                and (board.door is None or board.door.cell != action.target)
            ),
            RULE_FREE_SLOT,
            f"{list(action.target)} is taken",
        )
        if door is not None:
            return replace(board, door=Door(action.target, action.slot)), True
        assert mirror is not None and action.facing is not None
        moved = Mirror(action.target, action.slot, action.facing)
        return replace(
            board, mirrors=tuple(moved if m == mirror else m for m in board.mirrors)
        ), False

    def _swap(self, state: MirrorMansionState, action: Swap) -> MirrorMansionState:
        new_board, moved_door = self._swapped_board(state, action)
        new = replace(
            state,
            board=new_board,
            swaps=(*state.swaps, action),
            door_swaps=state.door_swaps + moved_door,
        )
        if len(new.swaps) == self.board.max_swaps:
            self._check_end(new)  # no swap left to repair the rule, so refuse it now
        return new

    def _check_end(self, state: MirrorMansionState) -> None:
        assert state.board is not None
        require(len(state.swaps) > 0, RULE_NO_SWAP)
        require(state.mirror_swaps > 0, RULE_MIRROR_SWAP)
        require(
            bool(in_line_mirrors(state.board, self.board)),
            RULE_IN_LINE,
            f"no mirror in line with {state.board.window}",
        )

    def _end_swaps(self, state: MirrorMansionState, action: EndSwaps) -> MirrorMansionState:
        self._phase(state, SWAPS)
        self._check_end(state)
        if state.first_round:
            return replace(state, phase=LOOK, box_turned=False)
        return replace(state, phase=GUESS)

    def _pending_guessers(self, state: MirrorMansionState) -> list[int]:
        order = [(state.active + k) % state.players for k in range(1, state.players)]
        return [s for s in order if state.guesses[s] is None]

    def _guess(self, state: MirrorMansionState, action: Guess) -> MirrorMansionState:
        require(not state.first_round, RULE_FIRST_ROUND)
        require(action.seat != state.active, RULE_ACTIVE_GUESS)
        self._phase(state, GUESS)
        require(
            action.seat in self._pending_guessers(state),
            RULE_ONE_GUESS,
            f"seat {action.seat} has no guess to make now",
        )
        guesses = list(state.guesses)
        guesses[action.seat] = action.jubilant
        new = replace(state, guesses=tuple(guesses))
        if not self._pending_guessers(new):
            new = replace(new, phase=LOOK, box_turned=False)
        return new

    def _look(self, state: MirrorMansionState, action: Look) -> MirrorMansionState:
        self._phase(state, LOOK)
        assert state.board is not None
        seen = trace(state.board, self.board)
        found = seen.seen is not None and seen.motif == state.sought
        if found:
            require(
                action.pulled is not None
                and self.board.is_position(action.pulled)
                and action.pulled != state.board.window,
                RULE_PULL,
                "name the castle card pulled",
            )
        else:
            require(action.pulled is None, RULE_PULL, "the sought motif was not seen")
        look = LookResult(seen.seen, seen.motif, seen.blocked_by, found, action.pulled)
        return replace(state, phase=AWARD, look=look)

    def _award(self, state: MirrorMansionState, action: Award) -> MirrorMansionState:
        self._phase(state, AWARD)
        earned = self.earned(state)
        require(
            action.drops == earned,
            RULE_DROPS,
            f"earned {list(earned)}, taken {list(action.drops)}",
        )
        drops = tuple(d + e for d, e in zip(state.drops, earned, strict=True))
        record = {
            "turn": state.turn,
            "seat": state.active,
            "sought": state.sought,
            "look": look_json(state.look),
            "guesses": list(state.guesses),
            "drops": list(earned),
        }
        new = replace(state, drops=drops, last_turn=record)
        over = max(drops) >= state.target or (
            state.options.max_turns is not None and state.turn + 1 >= state.options.max_turns
        )
        if over:
            return replace(new, phase=OVER)
        return replace(
            new,
            phase=WINDOW,
            turn=state.turn + 1,
            sought=None,
            swaps=(),
            door_swaps=0,
            guesses=(None,) * state.players,
            look=None,
            box_turned=False,
        )

    def _swap_candidates(self, state: MirrorMansionState) -> list[Swap]:
        assert state.board is not None
        out = []
        sources: list[tuple[Cell, bool]] = [(m.cell, False) for m in state.board.mirrors]
        if state.board.door is not None:
            sources.append((state.board.door.cell, True))
        for source, is_door in sources:
            for cell in self.board.cells:
                for slot in SLOTS:
                    for facing in (None,) if is_door else FACINGS[slot]:
                        out.append(Swap(source, cell, slot, facing))
        return out

    # --- views and JSON -----------------------------------------------------------------

    def view(self, state: MirrorMansionState, seat: int | None) -> dict[str, Any]:
        revealed = state.phase in (LOOK, AWARD, OVER) and not state.first_round
        guesses = []
        for s, g in enumerate(state.guesses):
            entry: dict[str, Any] = {"seat": s, "placed": g is not None}
            if g is not None and (revealed or s == seat):
                entry["jubilant"] = g
            guesses.append(entry)
        out: dict[str, Any] = {
            "game": self.game_id,
            "players": state.players,
            "options": state.options.to_json(),
            "target": state.target,
            "phase": state.phase,
            "turn": state.turn,
            "round": state.turn // state.players + 1,
            "active": state.active,
            "current_player": self.current_player(state),
            "drops": list(state.drops),
            "victor_field": state.victor,
            "sought": state.sought,
            "swaps_made": len(state.swaps),
            "board": None if state.board is None else board_state_to_json(state.board),
            "box_quarter_turns": state.box_quarter_turns,
            "guesses": guesses,
            "look": look_json(state.look),
            "last_turn": state.last_turn,
            "winners": self.winners(state),
        }
        if seat is not None and 0 <= seat < state.players:
            out["seat"] = seat
            out["no_peeking"] = seat in state.options.no_peeking
        if state.board is not None and not (seat is not None and seat in state.options.no_peeking):
            pred = trace(state.board, self.board)
            out["prediction"] = pred.to_json() | {
                "finds_sought": state.sought is not None and pred.motif == state.sought
            }
        return out

    state_to_json = staticmethod(state_to_json)

    def state_from_json(self, data: dict[str, Any]) -> MirrorMansionState:
        return state_from_json(data, self.board)

    action_to_json = staticmethod(action_to_json)
    action_from_json = staticmethod(action_from_json)


ENGINE = MirrorMansionEngine()
