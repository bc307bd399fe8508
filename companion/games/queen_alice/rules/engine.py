"""The rules engine of Queen Alice (2 to 4 players).

Set-up is chance: the player-aid tile (the chessboard's start), the four Wishes, the
market's cards and each hand. Then each turn: discard a card for its reward, play a card
to activate a piece it names (move, stay when blocked, rescue from any Jail), resolve the
landing square's row (resource) then column (action, paid in the piece's colour; the
central column any action for 1 more resource), optionally repeat it for 6 Time, and Rest
(draw to hand size, slide the market, reactivate Bookmarks, everyone scores the Wishes
Alice reached). The last Crown removed finishes the round; the final scoring is
`final_scoring.py`'s. Every value of the box comes from `models/queen-alice/`; the readings
where the rulebook contradicts itself are settings (docs/queen-alice.md).

Options: `coronation`, `component_counts`, `blank_diamond_milestones`, `small_supplies`
(default: `models/queen-alice/scoring.toml`).
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cached_property
from typing import Any, cast

from companion.games import action_json
from companion.games.base import CHANCE, IllegalAction
from companion.games.queen_alice.rules import boards, flowers, market, track
from companion.games.queen_alice.rules.actions import (
    CHANCE_ACTIONS,
    Acquire,
    Act,
    Buy,
    ChooseTrain,
    Cull,
    DealTrain,
    Discard,
    Draw,
    Pass,
    PlayMove,
    PlayNone,
    PlayRescue,
    PlayStay,
    Reveal,
    Take,
    Tile,
    UseBookmark,
    Wishes,
    action_from_json,
    action_to_json,
)
from companion.games.queen_alice.rules.board import (
    COLOURS,
    Board,
    Cell,
    Piece,
    load_board,
    square_name,
)
from companion.games.queen_alice.rules.components import (
    ACTIONS,
    LEVELS,
    READINGS,
    STORED,
    Components,
    load_components,
)
from companion.games.queen_alice.rules.economy import ANY, Cost, gain_time
from companion.games.queen_alice.rules.final_scoring import READINGS as CORONATIONS
from companion.games.queen_alice.rules.final_scoring import (
    FinalScore,
    GameEnd,
    PlayerEnd,
    ScoringRules,
    Wish,
    final_score,
    load_scoring_rules,
)
from companion.games.queen_alice.rules.jail import comeback_squares, is_promotion
from companion.games.queen_alice.rules.movement import Position, generate_moves
from companion.games.queen_alice.rules.rewards import needs_choice, push, settle, tasks
from companion.games.queen_alice.rules.state import (
    Player,
    State,
    Task,
    Turn,
    ci,
    evolve,
    set_at,
    set_pair,
)

TRAIN_CARDS: tuple[str, ...] = ("play", "skip")
"""The set-up's Train cards: played (the rulebook), or skipped (a table that cannot tap
them in yet)."""
OPTIONS: dict[str, tuple[str, ...]] = {
    "coronation": CORONATIONS,
    **READINGS,
    "train_cards": TRAIN_CARDS,
}


def _discount(state: State, comp: Components, action: str, repeat: bool = False) -> int:
    """Resources let off `action`: the card's (the rulebook: "Discounts shown on a card are
    applied only once per turn": the turn's action, never its Repeat) and the Live Flowers'
    (permanent: every time)."""
    turn = state.turn
    card = 0 if repeat or turn.discount_action not in ("", action) else turn.discount
    return card + flowers.discount(comp, state.me, action)


def _without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    out = list(items)
    out.remove(item)
    return tuple(out)


class QueenAliceEngine:
    game_id = "queen-alice"

    def __init__(
        self,
        board: Board | None = None,
        components: Components | None = None,
        scoring: ScoringRules | None = None,
    ) -> None:
        self._board, self._components, self._scoring = board, components, scoring
        self._by_readings: dict[tuple[tuple[str, str], ...], Components] = {}
        self._last: tuple[State, list[Any]] | None = None

    @cached_property
    def board(self) -> Board:
        return self._board or load_board()

    @cached_property
    def components(self) -> Components:
        return self._components or load_components()

    @cached_property
    def scoring(self) -> ScoringRules:
        return self._scoring or load_scoring_rules()

    def comp(self, state: State) -> Components:
        """The components with this game's readings."""
        key = state.readings
        if key not in self._by_readings:
            readings = {k: v for k, v in key if k in READINGS}
            self._by_readings[key] = evolve(self.components, readings=readings)
        return self._by_readings[key]

    # -- set-up ------------------------------------------------------------------------------
    def new_game(self, players: int, options: dict[str, Any] | None = None) -> State:
        if not 2 <= players <= 4:
            raise ValueError(f"Queen Alice is for 2 to 4 players, not {players}")
        chosen = {
            **self.components.readings,
            "coronation": self.scoring.reading,
            "train_cards": TRAIN_CARDS[0],
        }
        for key, value in (options or {}).items():
            if key not in OPTIONS:
                raise ValueError(f"unknown option {key!r} (known: {', '.join(OPTIONS)})")
            if value not in OPTIONS[key]:
                raise ValueError(f"option {key} must be one of {', '.join(OPTIONS[key])}")
            chosen[key] = value
        comp = evolve(self.components, readings={k: chosen[k] for k in READINGS})
        black = comp.black_cubes
        if chosen["component_counts"] == "components":
            black = comp.black_cubes // players
        person = Player(
            cubes=comp.coloured_cubes,
            black_stock=black,
            deck=tuple(sorted(comp.basic)),
            books=(0,) * len(comp.book_colours),
        )
        three = players == 3

        def covered(
            grid: dict[str, tuple[tuple[Any, ...], ...]], cells: dict[str, tuple[Cell, ...]]
        ) -> tuple[tuple[tuple[bool, ...], ...], ...]:
            """Per colour, which spaces of each row (the garden's zones, the wall's rows) are
            covered: only in a three-player game, the spaces the board lists."""
            return tuple(
                tuple(
                    tuple(three and (r, k) in cells[c] for k in range(len(row)))
                    for r, row in enumerate(grid[c])
                )
                for c in COLOURS
            )

        return State(
            players=players,
            readings=tuple(sorted(chosen.items())),
            crowns_left=comp.crowns[players],
            garden=covered(comp.garden, comp.garden_covered),
            tree_books=tuple(tuple(s.book for s in comp.tree) for _ in COLOURS),
            bookmarks=tuple(b.copies for b in comp.bookmarks),
            wall=covered(comp.wall, comp.wall_covered),
            flowers_left=(comp.flower_supply,) * len(comp.flowers),
            train_deck=tuple(sorted(comp.train)),
            market=tuple((None, None, None) for _ in LEVELS),
            market_decks=tuple(tuple(sorted(comp.decks[lv])) for lv in LEVELS),
            people=(person,) * players,
        )

    def _chance_need(self, state: State) -> tuple[str, int] | None:
        """What chance must do next: ("tile"|"wishes"|"draw"|"reveal", seat or level)."""
        if state.phase not in ("setup", "rest", "train") or state.pending:
            return None  # a reward being resolved (a flower's at Rest) comes first
        if state.tile is None:
            return "tile", 0
        if not state.wishes:
            return "wishes", 0
        if state.phase == "train":
            seat = next(
                (i for i, p in enumerate(state.people) if not (p.train_hand or p.train)), -1
            )
            return None if seat < 0 else ("train", seat)
        seats = range(state.players) if state.phase == "setup" else (state.seat,)
        for seat in seats:
            p = state.people[seat]
            if len(p.hand) < self.hand_size(state, seat) and p.deck:
                return "draw", seat
        for level, row in enumerate(state.market):
            if None in row and state.market_decks[level]:
                return "reveal", level
        return None

    # -- protocol ----------------------------------------------------------------------------
    def current_player(self, state: State) -> int | None:
        if state.phase == "over":
            return None
        return CHANCE if self._chance_need(state) else state.seat

    def is_terminal(self, state: State) -> bool:
        return state.phase == "over"

    def sample_chance(self, state: State, rng: random.Random) -> Any:
        need = self._chance_need(state)
        if need is None:
            raise IllegalAction("chance", "no chance action is due")
        what, at = need
        comp = self.comp(state)
        if what == "tile":
            return Tile(rng.choice(sorted(self.board.tiles)))
        if what == "wishes":
            drawn = [
                rng.choice(sorted(w.id for w in comp.wishes.values() if w.icon == icon))
                for icon in ACTIONS
            ]
            rng.shuffle(drawn)
            return Wishes(tuple(drawn))
        if what == "draw":
            return Draw(at, rng.choice(state.people[at].deck))
        if what == "train":
            return DealTrain(at, tuple(sorted(rng.sample(state.train_deck, comp.train_dealt))))
        return Reveal(at, rng.choice(state.market_decks[at]))

    def _apply_chance(self, state: State, action: Any) -> State:
        need = self._chance_need(state)
        if need is None:
            raise IllegalAction("turn order", "it is a player's turn, not chance's")
        what, at = need
        comp = self.comp(state)
        if isinstance(action, Tile) and what == "tile":
            if action.tile not in self.board.tiles:
                raise IllegalAction("set-up", f"no player-aid tile {action.tile!r}")
            return evolve(state, tile=action.tile, pieces=self.board.tiles[action.tile])
        if isinstance(action, Wishes) and what == "wishes":
            tiles = [comp.wishes.get(w) for w in action.wishes]
            if (
                None in tiles
                or len(tiles) != len(comp.wish_spaces())
                or sorted(t.icon for t in tiles if t) != sorted(ACTIONS)
            ):
                raise IllegalAction("set-up", "one Wish of each icon, one per Wish space")
            return evolve(state, wishes=action.wishes)
        if isinstance(action, Draw) and what == "draw":
            p = state.people[at]
            if action.seat != at or action.card not in p.deck:
                raise IllegalAction("draw", f"seat {at} draws a card of their own deck")
            p = evolve(
                p, deck=_without(p.deck, action.card), hand=tuple(sorted((*p.hand, action.card)))
            )
            return state.with_player(at, p)
        if isinstance(action, DealTrain) and what == "train":
            train = list(state.train_deck)
            if action.seat != at or len(action.cards) != comp.train_dealt:
                raise IllegalAction("set-up", f"seat {at} receives {comp.train_dealt} Train cards")
            for card in action.cards:
                if card not in train:
                    raise IllegalAction("set-up", f"Train card {card!r} is not in the Train deck")
                train.remove(card)
            state = evolve(state, train_deck=tuple(train))
            return state.with_player(at, evolve(state.people[at], train_hand=action.cards))
        if isinstance(action, Reveal) and what == "reveal":
            deck = state.market_decks[at]
            if action.level != at or action.card not in deck:
                raise IllegalAction("market", f"the card comes from the {LEVELS[at]} deck")
            row = state.market[at]
            row = set_at(row, row.index(None), action.card)
            return evolve(
                state,
                market=set_at(state.market, at, row),
                market_decks=set_at(state.market_decks, at, _without(deck, action.card)),
            )
        raise IllegalAction("chance", f"{type(action).__name__} is not due (chance must {what})")

    # -- legal actions -----------------------------------------------------------------------
    def legal_actions(self, state: State) -> list[Any]:
        """Every choice of the player to move (a copy: the last answer is kept, by identity,
        because `apply` checks against it right after a player asked for it)."""
        if self._last is not None and self._last[0] is state:
            return list(self._last[1])
        found = self._legal(state)
        self._last = (state, found)
        return list(found)

    def _legal(self, state: State) -> list[Any]:
        if self.current_player(state) in (None, CHANCE):
            return []
        comp = self.comp(state)
        if needs_choice(state):
            return self._choices(state, comp, state.pending[0])
        me = state.me
        if state.phase == "train":
            return [ChooseTrain(c, side) for c in sorted(set(me.train_hand)) for side in COLOURS]
        if state.phase in ("discard", "trim"):
            return [Discard(c) for c in sorted(set(me.hand))]
        if state.phase == "play":
            return self._plays(state) + self._bookmark_uses(state, comp)
        if state.phase == "act":
            return [*self._main_options(state, comp), Pass(), *self._bookmark_uses(state, comp)]
        if state.phase == "repeat":
            return [*self._repeat_options(state, comp), Pass()]
        raise AssertionError(f"no player acts in phase {state.phase}")

    def _choices(self, state: State, comp: Components, head: Task) -> list[Any]:
        me = state.me
        if head.kind == "resource":
            return [Take(r) for r in STORED]
        if head.kind in ("store", "row"):
            return [*(Take(r) for r in STORED if getattr(me, r) > 0), Pass()]
        if head.kind == "mini":
            return [*boards.mini_options(state, comp), Pass()]
        if head.kind == "card":
            return [*market.acquire_options(state, comp, head.arg), Pass()]
        if head.kind == "cardreward":
            return [
                *market.acquire_options(state, comp, head.arg),
                *market.cull_options(state),
                Pass(),
            ]
        if head.kind == "cull":
            return [*market.cull_options(state), Pass()]
        if head.kind == "bookmark":
            return [*market.buy_options(state, comp), Pass()]
        raise AssertionError(f"task {head.kind} needs no choice")

    def _bookmark_uses(self, state: State, comp: Components) -> list[Any]:
        permanent = {b.id for b in comp.bookmarks if b.kind == "permanent"}
        me = state.me
        return [
            UseBookmark(b) for b in sorted(set(me.bookmarks)) if b in permanent and b not in me.used
        ]

    def _plays(self, state: State) -> list[Any]:
        comp, board = self.comp(state), self.board
        position = Position(
            board.rows, board.cols, state.pieces, {c: board.forward(c) for c in COLOURS}
        )
        occupied = [p.cell for p in state.pieces]
        out: list[Any] = []
        for cid in sorted(set(state.me.hand)):
            card = comp.cards[cid]
            colours = COLOURS if card.colour == "wild" else (card.colour,)
            found: list[Any] = []
            for index, piece in enumerate(state.pieces):
                if piece.kind != card.kind or piece.colour not in colours:
                    continue
                moves = generate_moves(position, index)
                if not moves:
                    found.append(PlayStay(cid, index))
                for m in moves:
                    if not is_promotion(board, piece, m.to):
                        found.append(PlayMove(cid, index, m.to))
                        continue
                    others = [c for c in occupied if c not in (piece.cell, m.to)]
                    found.extend(
                        PlayMove(cid, index, m.to, r)
                        for r in comeback_squares(board, piece.colour, others)
                    )
            for seat, jail in enumerate(p.jail for p in state.people):
                for slot, (colour, kind) in enumerate(jail):
                    if kind != card.kind or colour not in colours or (colour, kind) in jail[:slot]:
                        continue
                    found.extend(
                        PlayRescue(cid, seat, slot, to)
                        for to in comeback_squares(board, colour, occupied)
                    )
            out.extend(found or [PlayNone(cid)])
        return out

    def _main_options(self, state: State, comp: Components) -> list[Act]:
        turn = state.turn
        if not turn.colour or turn.performed:
            return []
        if turn.column == "wild":
            return [
                a
                for action in ACTIONS
                for a in boards.options(
                    state, comp, action, turn.colour, Cost((ANY,)), _discount(state, comp, action)
                )
            ]
        return boards.options(
            state, comp, turn.column, turn.colour, Cost(), _discount(state, comp, turn.column)
        )

    def _repeat_options(self, state: State, comp: Components) -> list[Act]:
        turn = state.turn
        if turn.repeated or state.me.time < comp.repeat_time:
            return []
        off = _discount(state, comp, turn.action, repeat=True)
        return boards.options(
            state, comp, turn.action, turn.colour, Cost(time=comp.repeat_time), off
        )

    # -- apply -------------------------------------------------------------------------------
    def apply(self, state: State, action: Any) -> State:
        if state.phase == "over":
            raise IllegalAction("game end", "the game is over")
        if isinstance(action, CHANCE_ACTIONS):
            state = self._apply_chance(state, action)
        else:
            if self.current_player(state) == CHANCE:
                raise IllegalAction("turn order", "chance acts first (a draw or a reveal)")
            if action not in self.legal_actions(state):
                raise IllegalAction(*self._why(state, action))
            state = self._apply_player(state, action)
        return self._advance(settle(state, self.comp(state)))

    def _apply_player(self, state: State, action: Any) -> State:
        comp = self.comp(state)
        if needs_choice(state):
            head = state.pending[0]
            state = evolve(state, pending=state.pending[1:])
            return self._apply_choice(state, comp, head, action)
        me = state.me
        if isinstance(action, ChooseTrain):
            return self._choose_train(state, comp, action)
        if isinstance(action, UseBookmark):
            mark = next(b for b in comp.bookmarks if b.id == action.bookmark)
            state = state.with_me(used=(*me.used, mark.id))
            return push(state, tasks(mark.reward, ""))  # its colours are named (components)
        if isinstance(action, Discard):
            state = state.with_me(
                hand=_without(me.hand, action.card), discard=(*me.discard, action.card)
            )
            if state.phase == "trim":
                return state
            card = comp.cards[action.card]
            own = "" if card.colour == "wild" else card.colour  # a wild card names its colours
            return push(evolve(state, phase="play"), tasks(card.discard, own))
        if state.phase == "play":
            return self._play(state, comp, action)
        if state.phase == "act":
            if isinstance(action, Pass):
                state = state.with_player(state.seat, gain_time(me, comp.decline_time, comp))
                return self._to_rest(state, comp)
            extra = Cost((ANY,)) if state.turn.column == "wild" else Cost()
            state = evolve(
                state, phase="repeat", turn=evolve(state.turn, action=action.action, performed=True)
            )
            off = _discount(state, comp, action.action)
            state = boards.perform(state, comp, action, state.turn.colour, extra, off)
            return evolve(state, turn=evolve(state.turn, loose=""))  # this action's only
        # repeat
        if isinstance(action, Pass):
            return self._to_rest(state, comp)
        off = _discount(state, comp, action.action, repeat=True)
        state = evolve(state, turn=evolve(state.turn, repeated=True))
        repeat = Cost(time=comp.repeat_time)
        return boards.perform(state, comp, action, state.turn.colour, repeat, off)

    def _apply_choice(self, state: State, comp: Components, head: Task, action: Any) -> State:
        if head.kind == "resource":
            kind = "row" if head.arg == "row" else "store"
            return push(state, (Task(kind, arg=action.resource),))
        if head.kind in ("store", "row"):
            if isinstance(action, Take):
                state = state.with_me(**{action.resource: getattr(state.me, action.resource) - 1})
                return push(state, (head,))
            if head.kind == "row":  # not stored, but the action may still pay with it
                return evolve(state, turn=evolve(state.turn, loose=head.arg))
            return state
        if isinstance(action, Pass):
            return state
        if isinstance(action, Act):
            return boards.perform_mini(state, comp, action)
        if isinstance(action, Acquire):
            return market.acquire(state, comp, action)
        if isinstance(action, Cull):
            return market.cull(state, action)
        assert isinstance(action, Buy)
        return market.buy(state, comp, action, head.colour)

    def _choose_train(self, state: State, comp: Components, action: ChooseTrain) -> State:
        """A secret choice; after the last seat's, all are revealed and resolved in turn
        order (the rulebook's Train Cards)."""
        state = state.with_me(train=(action.card, action.side), train_hand=())
        if state.seat < state.players - 1:
            return evolve(state, seat=state.seat + 1)
        return self._train_rewards(evolve(state, phase="train_rewards", seat=0), comp)

    def _train_rewards(self, state: State, comp: Components) -> State:
        """The player to move gains what their Train card's side shows, and only that: a
        Twin or Messenger moved gains nothing printed where it lands."""
        card, colour = state.me.train
        side, me = comp.train[card].side(colour), state.me
        if side.twin >= 0:
            state = state.with_me(twins=set_pair(me.twins, colour, side.twin))
        if side.messenger >= 0:
            state = state.with_me(
                messengers=set_pair(me.messengers, colour, side.messenger),
                messenger_steps=me.messenger_steps + 1,
            )
        if side.bookmark:  # its reward (an instant one) after the card's own
            state = market.gain_bookmark(state, comp, side.bookmark, colour)
        return settle(push(state, tasks(side.reward, colour)), comp)

    def _play(self, state: State, comp: Components, action: Any) -> State:
        me, board = state.me, self.board
        card = comp.cards[action.card]
        state = state.with_me(
            hand=_without(me.hand, action.card), discard=(*me.discard, action.card)
        )
        if isinstance(action, PlayNone):  # a wild card's colours are named (components)
            own = "" if card.colour == "wild" else card.colour
            return push(evolve(state, phase="act", turn=Turn()), tasks(card.play, own))
        pieces = list(state.pieces)
        got: list[Task] = []
        if isinstance(action, PlayRescue):
            jailer = state.people[action.jail]
            colour, kind = jailer.jail[action.slot]
            jailer = evolve(
                jailer, jail=jailer.jail[: action.slot] + jailer.jail[action.slot + 1 :]
            )
            state = state.with_player(action.jail, gain_time(jailer, board.jailer_time, comp))
            pieces.append(Piece(colour, kind, action.to))
            landing = action.to
            got += flowers.benefits(comp, state.me, "rescue", colour)
        else:
            piece = pieces[action.piece]
            colour, landing = piece.colour, piece.cell
            if isinstance(action, PlayMove):
                target = next((p for p in pieces if p.cell == action.to), None)
                if target is not None:
                    pieces.remove(target)
                    state = state.with_me(jail=(*state.me.jail, (target.colour, target.kind)))
                    reward = board.captures[target.kind]
                    got += [Task("time", arg=str(reward.time))] if reward.time else []
                    got += [Task("resource")] * reward.resource
                    got += [Task("pawprint", target.colour)] * reward.pawprint
                    got += flowers.benefits(comp, state.me, "capture", colour)
                landing = action.to if action.respawn is None else action.respawn
                if action.respawn is not None:
                    got += [Task("pawprint", colour)] * board.promotion_pawprint
                pieces[pieces.index(piece)] = evolve(piece, cell=landing)
        resource, column = board.square(landing)
        got.append(Task("resource", arg="row") if resource == "wild" else Task("row", arg=resource))
        turn = Turn(
            colour=colour,
            column=column,
            discount=card.discount,
            discount_action=card.discount_action,
        )
        state = evolve(state, pieces=tuple(pieces), phase="act", turn=turn)
        return push(state, tasks(card.play, colour) + tuple(got))

    def hand_size(self, state: State, seat: int) -> int:
        """The hand `seat` draws to (or discards down to) at Rest: Live Flowers may add."""
        return flowers.hand_size(self.comp(state), state.people[seat])

    def _to_rest(self, state: State, comp: Components) -> State:
        if len(state.me.hand) > self.hand_size(state, state.seat):
            return evolve(state, phase="trim")
        return self._rest(state, comp)

    def _rest(self, state: State, comp: Components) -> State:
        """The Rest step: the market slides, and the flowers that give at Rest do (their
        rewards are resolved before the draw)."""
        state = market.slide(evolve(state, phase="rest"))
        return settle(push(state, flowers.benefits(comp, state.me, "rest", "")), comp)

    def _advance(self, state: State) -> State:
        """Move on through steps that need nobody: a finished choice, Rest, the next turn."""
        comp = self.comp(state)
        while not state.pending and state.phase != "over":
            me = state.me
            if state.phase == "setup":
                if self._chance_need(state):
                    return state
                train = dict(state.readings).get("train_cards", TRAIN_CARDS[0]) == "play"
                state = evolve(state, phase="train" if train else "discard")
            elif state.phase == "train_rewards":
                if state.seat < state.players - 1:
                    state = self._train_rewards(evolve(state, seat=state.seat + 1), comp)
                else:  # a Wish Alice reached on a Train card is scored now
                    state = evolve(self._score_wishes(state, comp), phase="discard", seat=0)
            elif state.phase == "repeat" and not self._repeat_options(state, comp):
                state = self._to_rest(state, comp)
            elif state.phase == "trim" and len(me.hand) <= self.hand_size(state, state.seat):
                state = self._rest(state, comp)
            elif state.phase == "rest":
                if len(me.hand) < self.hand_size(state, state.seat) and not me.deck and me.discard:
                    state = state.with_me(deck=tuple(sorted(me.discard)), discard=())
                    continue
                if self._chance_need(state):
                    return state
                state = self._end_turn(state, comp)
            else:
                return state
        return state

    def _score_wishes(self, state: State, comp: Components) -> State:
        """Every player scores the Wishes Alice reached this turn; the turn starts afresh."""
        people = list(state.people)
        for space in state.turn.wishes:
            tile = comp.wishes[state.wishes[space]]
            people = [
                evolve(p, ip=p.ip + tile.standard * self.measure(state, p, tile.counts))
                for p in people
            ]
        return evolve(state, people=tuple(people), turn=Turn())

    def _end_turn(self, state: State, comp: Components) -> State:
        state = self._score_wishes(state, comp)
        state = state.with_me(used=())
        if state.ending and state.seat == state.players - 1:
            return evolve(state, phase="over", turn=Turn())
        return evolve(
            state,
            seat=(state.seat + 1) % state.players,
            phase="discard",
            turn=Turn(),
            turns=state.turns + 1,
        )

    def measure(self, state: State, p: Player, counts: str) -> int:
        """What a Wish counts for one player (wishes.toml `counts`)."""
        return {
            "bushes": sum(p.bushes),
            "messengers": p.messenger_steps,
            "books": sum(p.books) + len(p.bookmarks),
            "diamonds": sum(p.bricks),
            "flowers": len(p.flowers),
            "crowns": sum(p.crowns),
            "guests": len(p.culled),
            "pawprints": sum(p.cats),
        }[counts]

    def _why(self, state: State, action: Any) -> tuple[str, str]:
        """The rule an action outside `legal_actions` breaks."""
        me, name = state.me, type(action).__name__
        if needs_choice(state):
            return "reward", f"{name} does not answer the {state.pending[0].kind} being resolved"
        plays = PlayMove | PlayStay | PlayRescue | PlayNone
        if isinstance(action, ChooseTrain):
            return "train cards", (
                "in the set-up, choose one of your own Train cards and its side, red or white"
            )
        if isinstance(action, Discard | plays) and action.card not in me.hand:
            return "hand", f"card {action.card!r} is not in your hand"
        if state.phase != "play" or not isinstance(action, plays):
            if isinstance(action, Act) and state.phase in ("act", "repeat"):
                return (
                    f"{action.action} action",
                    "not this square's action and colour, not "
                    "that target, or the payment does not add up",
                )
            if isinstance(action, UseBookmark):
                return "bookmark", f"no unused permanent Bookmark {action.bookmark!r}"
            return "turn order", f"{name} is not a choice in the {state.phase} phase"
        card = self.comp(state).cards[action.card]
        if isinstance(action, PlayMove | PlayStay):
            if not 0 <= action.piece < len(state.pieces):
                return "no such piece", f"there is no piece {action.piece}"
            piece = state.pieces[action.piece]
            if piece.kind != card.kind or card.colour not in ("wild", piece.colour):
                return "card", f"{action.card} moves a {card.colour} {card.kind}"
            if isinstance(action, PlayStay):
                return "blocked piece", "only a piece with no move resolves its own square"
            position = Position(
                self.board.rows,
                self.board.cols,
                state.pieces,
                {c: self.board.forward(c) for c in COLOURS},
            )
            if action.to not in {m.to for m in generate_moves(position, action.piece)}:
                return (
                    "chess movement",
                    f"piece {action.piece} cannot reach {square_name(action.to)}",
                )
            return "pawn promotion", "a promoted pawn, and only one, goes to a free respawn square"
        if isinstance(action, PlayRescue):
            if not (
                0 <= action.jail < state.players
                and 0 <= action.slot < len(state.people[action.jail].jail)
            ):
                return "rescue", "there is no such piece in that Jail"
            return "rescue", (
                "the card names another piece, or a rescued piece goes to a free "
                "respawn square of its colour"
            )
        return "card", f"a piece {action.card} names can be activated"

    # -- scores ------------------------------------------------------------------------------
    def game_end(self, state: State) -> GameEnd:
        """What the final scoring calculator needs, from the state."""
        comp = self.comp(state)
        spaces = comp.wish_spaces()
        ends = []
        for seat, p in enumerate(state.people):
            wishes = {
                c: tuple(
                    Wish(t.standard * n, t.platinum * n)
                    for (colour, _), wid in zip(spaces, state.wishes, strict=True)
                    if colour == c
                    for t in (comp.wishes[wid],)
                    for n in (self.measure(state, p, t.counts),)
                )
                for c in COLOURS
            }
            ends.append(
                PlayerEnd(
                    name=f"seat {seat}",
                    track_ip=p.ip,
                    crowns={c: p.crowns[ci(c)] for c in COLOURS},
                    cats={c: track.cat_level(comp, p.cats[ci(c)]) for c in COLOURS},
                    wishes=wishes,
                    culled_ip=tuple(comp.cards[c].invite for c in p.culled),
                    bookmarks=tuple(
                        b.ip
                        for m in p.bookmarks
                        for b in comp.bookmarks
                        if b.id == m and b.kind == "endgame"
                    ),
                )
            )
        return GameEnd(
            alice={c: state.alice[ci(c)] for c in COLOURS}, throne=state.throne, players=tuple(ends)
        )

    def final(self, state: State) -> FinalScore:
        reading = dict(state.readings).get("coronation", self.scoring.reading)
        return final_score(self.game_end(state), evolve(self.scoring, reading=reading))

    def scores(self, state: State) -> list[float]:
        if self.is_terminal(state) and state.wishes:
            return [float(p.total) for p in self.final(state).players]
        return [float(p.ip) for p in state.people]

    # -- JSON and views ----------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Everything public; a seat's own hand. Decks (player and market) as counts only."""
        data: dict[str, Any] = action_json.to_json(state)
        for i, p in enumerate(data["people"]):
            p["hand_count"], p["deck_count"] = len(p["hand"]), len(p["deck"])
            del p["deck"]
            if i != seat:
                del p["hand"], p["train_hand"]
                if state.phase == "train":  # chosen secretly, revealed together
                    p["train_chosen"] = bool(p.pop("train"))
        data["market_decks"] = [len(d) for d in data["market_decks"]]
        data["train_deck"] = len(data["train_deck"])
        data["seat"] = seat
        return data

    def state_to_json(self, state: State) -> dict[str, Any]:
        return cast("dict[str, Any]", action_json.to_json(state))

    def state_from_json(self, data: dict[str, Any]) -> State:
        return cast(State, action_json.from_json(State, data))

    def action_to_json(self, action: Any) -> dict[str, Any]:
        return action_to_json(action)

    def action_from_json(self, data: dict[str, Any]) -> Any:
        return action_from_json(data)

    def tally(self, state: State) -> Counter[str]:
        """Every card of the game wherever it is (must always equal the box's cards)."""
        every = [c for p in state.people for c in (*p.hand, *p.deck, *p.discard, *p.culled)]
        for row, deck in zip(state.market, state.market_decks, strict=True):
            every += [c for c in row if c is not None] + list(deck)
        return Counter(every)
