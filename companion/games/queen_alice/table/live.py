"""Queen Alice at the table: the chessboard from the camera, the rest tapped in, every step
checked by the engine.

Event-sourced like every table game (`companion.live.table_game`): `update` and `correct`
only decide and return drafts; `apply_event` is the one place the state changes.

- Set-up: the player-aid tile (the chessboard's start) and the Wishes are entered on the
  dashboard; each player taps in the cards they draw, on their own phone (a private event);
  anyone taps in the market cards revealed. Chance's actions are applied as soon as the
  engine asks for them, in the engine's order, whatever order the taps came in.
- Train cards (set-up): each player taps in the two dealt to them and then the one they
  keep with its side, on their own phone (private events); other phones learn only who has
  chosen. The players choose at once, the engine in seat order: a choice waits until the
  engine asks that seat, as a draw does.
- Moves: a stable change of the board (`track.py`) that one legal chess move explains is
  held until the mover taps the card played, then the engine's play with that card is
  recorded and the dashboard says what the landing square gives (row resource, column
  action, or wild) and whose Jail a captured piece went to. A change no move explains, or a
  move the card cannot make, is a breach at once. Two plays that leave the same board (a
  rescue from either of two Jails) are asked about, not guessed.
- Everything else of the turn (discard, rewards, the action, Repeat) is the mover's tap,
  checked by the engine; the mover's view lists the choices the engine allows.
- At the end (or when the admin says the family stops here), the final scoring calculator
  runs on what the engine knows; where the camera disagrees with it on what decides the
  coronation (the Alice tokens), the players are asked which is right.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np

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
    Tile,
    Wishes,
    action_from_json,
    action_to_json,
)
from companion.games.queen_alice.rules.board import Cell, Piece, square_name
from companion.games.queen_alice.rules.components import ACTIONS, LEVELS, Reward, TrainSide
from companion.games.queen_alice.rules.final_scoring import final_score
from companion.games.queen_alice.rules.rewards import needs_choice
from companion.games.queen_alice.rules.state import State, evolve
from companion.games.queen_alice.table.messages import (
    Answer,
    Choose,
    DiscardCard,
    Drew,
    PlayCard,
    Revealed,
    ScoreNow,
    SetUp,
    TableIsRight,
    TrainChosen,
    TrainDealt,
    parse,
)
from companion.games.queen_alice.table.observation import (
    Occupancy,
    from_reading,
    occupancy_from_json,
    occupancy_of,
    occupancy_to_json,
    seen_from,
)
from companion.games.queen_alice.table.track import (
    Play,
    StableBoard,
    card_refusal,
    describe,
    diagnose,
    missing_pieces,
    moves_seen,
    occupancy_after,
    reading_of,
    with_card,
    with_table,
)
from companion.live.table_game import (
    ANSWER_KIND,
    QUESTION_KIND,
    TABLE_RIGHT_KIND,
    Correction,
    EventDraft,
    Observation,
    Question,
    admin_only_table_is_right,
    answer_draft,
    question_draft,
    start_state,
    steady_reading,
    table_is_right_draft,
    taken_as_the_table,
)
from companion.live.tracking import Breach
from companion.store import Event, Session

PANEL_JS = Path(__file__).with_name("panel.js")
ASK_AFTER_FRAMES = 12
"""Frames in a row with a square in doubt before the players are asked what stands there
(Reflecto's value: a hand passing over the board clears well within it) ..."""
ASK_AFTER_S = 3.0
"""... and the seconds of frame time they must span: twelve frames are 1.2 s at the
camera's 10 frames a second, shorter than a hand that lingers over a move (the script's
hands stay up to 1.5 s), and a question then is a false alarm."""
SHOWN_BREACHES = 5
SHOWN_LOG = 8

SETUP_KIND, DRAWN_KIND, REVEALED_KIND = "qa.setup", "qa.drawn", "qa.revealed"
SEEN_KIND, CARD_KIND, ACTION_KIND, BREACH_KIND = "qa.seen", "qa.card", "qa.action", "qa.breach"
SCORE_NOW_KIND = "qa.score_now"
TRAIN_DEALT_KIND, TRAIN_KIND = "qa.train_dealt", "qa.train"
LEARN_BOARD = False
"""Whether live play learns the board's empty look from its still frames and reads by it.
Off: on fresh renders the empty-board path read phantom pieces where the picture alone read
fewer (at 6d0833c: 14 / 74 / 19 against 1 / 1 / 0); with its safer rules (at da425b6) none
on 60 boards without arms and 60 with, but 14 on 40 held-out (the picture alone 6), and no
more boards entirely right than the picture alone (71.67 / 46.67 / 42.5 % against 73.33 /
48.33 / 47.5 %). A wrong board is worse than a question."""
LEARN_EVERY_S = 1.0
"""Seconds between two lessons of the board's empty look once every free square is known
(set by reasoning: the room's light changes over minutes, a lesson costs about a reading)."""
ALICE_SOURCES = ("camera", "game")
PLAYS = (PlayMove, PlayStay, PlayRescue, PlayNone)


class QueenAliceTable:
    game_id = "queen-alice"

    def __init__(self, settings: Any, session: Session) -> None:
        self.state: State = start_state(
            ENGINE, session, "Queen Alice", range(2, 5), "Queen Alice is for 2 to 4 players"
        )
        self.settings = settings
        self.session = session
        self.names = list(session.seats)
        # -- the state (changed only in apply_event) --
        self.camera: Occupancy | None = None
        self.crowns_seen: int | None = None
        self.alice_seen: dict[str, int | None] = {}
        self.card: str | None = None  # the card tapped for this turn's play
        self.drawn: dict[int, list[str]] = {s: [] for s in range(len(self.names))}
        self.revealed: dict[int, list[str]] = {lv: [] for lv in range(len(LEVELS))}
        self.train_dealt: dict[int, tuple[str, ...]] = {}  # each seat's Train cards tapped in
        self.train_kept: dict[int, ChooseTrain] = {}  # each seat's secret choice, tapped in
        self.breaches: list[dict[str, Any]] = []
        self.log: list[dict[str, Any]] = []
        self.open_questions: dict[str, Question] = {}
        self.plays_asked: dict[str, list[dict[str, Any]]] = {}
        self.asked = 0
        self.scored = False  # the admin asked for the final scoring before the engine's end
        self.alice_source: str | None = None  # which Alice positions count: camera or game
        self.answers: dict[Cell, str | None] = {}
        """What the players said stands on a square the camera could not call; kept until
        the camera calls that square itself."""
        # -- tracker memory (never shown; rebuilt from frames after a restart) --
        self.tracker = StableBoard()
        self.empty: Any = None
        """The board's own empty look (`vision/empty.py`), learnt from frames (perception
        thread only)."""
        self._still: Any = None
        self._learnt_at = -math.inf
        self._flagged: tuple[Occupancy, str | None] | None = None
        self._doubt = 0
        self._doubt_since = 0.0

    # -- the simulated table and the camera (perception thread) ------------------------
    def sim_scene(self, seed: int) -> Any:
        """A scripted game filmed on the demo table (`film.py`), read by the real reader."""
        from companion.games.queen_alice.table.film import ChessboardFilm

        camera = getattr(self.settings, "camera", None)
        size = (camera.width, camera.height) if camera is not None else (1280, 960)
        table = getattr(self.settings, "table", None)
        return ChessboardFilm(seed, len(self.names), table, size, options=self.session.options)

    def perceive(self, frame: Any, registration: Any) -> Observation:
        """The vision reader's `read_board(image)`, mapped by `from_reading`; the table's
        registration hands its markers over when it has them, so they are found once.

        The board's empty look is learnt as the game goes (`learn_board`), so each square
        whose print has been seen free is judged by what changed on it."""
        from companion.games.queen_alice.vision.read import read_board

        markers = getattr(registration, "markers", None)
        markers = markers if isinstance(markers, dict) else None
        reading = read_board(frame.image, markers=markers, empty=self.empty)
        self.learn_board(frame.image, markers, reading, float(getattr(frame, "timestamp", 0.0)))
        return Observation(from_reading(reading), 0.9)

    def learn_board(self, image: np.ndarray, markers: Any, reading: Any, now: float) -> None:
        """Learn the print of the squares the engine says are free, from a frame that shows
        exactly the engine's board (no square in doubt) while the picture is still: then
        nothing stands on them and no hand is over them. A free square not known yet is
        learnt at once; the rest at most every `LEARN_EVERY_S` (learning warps the board:
        it costs about a reading)."""
        from companion.games.queen_alice.vision.read import learn_free_squares
        from companion.vision.stillness import StillnessMeter

        if self._still is None:
            self._still = StillnessMeter()
        still = self._still.still(image)
        state = self.state
        if (
            not LEARN_BOARD
            or state.tile is None
            or not still
            or not reading.board_found
            or reading.unsure
        ):
            return
        board = occupancy_of(state.pieces)
        if frozenset(reading.squares.items()) != board:
            return
        taken = {cell for cell, _ in board}
        if self.empty is not None and now - self._learnt_at < LEARN_EVERY_S:
            free = [k for k, cell in enumerate(self._cells()) if cell not in taken]
            if self.empty.known[free].all():
                return
        self.empty = learn_free_squares(self.empty, image, taken, markers, pose=reading.pose)
        self._learnt_at = now

    @staticmethod
    def _cells() -> tuple[Cell, ...]:
        from companion.games.queen_alice.vision.geometry import load_geometry

        return load_geometry().cells

    def annotate(
        self, image: np.ndarray, registration: Any, observation: Observation
    ) -> np.ndarray:
        return image

    # -- deciding: the camera ----------------------------------------------------------
    def update(self, observation: Observation, now: float) -> list[EventDraft]:
        if self.state.tile is None:
            return []  # no start position to follow yet: the first board counts after set-up
        seen = seen_from(observation.data)
        missing = missing_pieces(ENGINE.board, self.state, seen)
        if seen.board_found:
            for cell in [c for c in self.answers if c not in (*seen.unsure, *missing)]:
                del self.answers[cell]  # the camera calls it itself again
        reading, doubt = reading_of(seen, self.answers, missing)
        drafts = self._ask(doubt, now)
        # The board, the Crowns left and the Alice tokens settle together.
        new = self.tracker.update(
            None
            if reading is None
            else (reading, seen.crowns_left, tuple(sorted(seen.alice.items()))),
            now,
        )
        if new is None:
            return drafts + self._ask_alice(self.alice_seen)
        board, crowns, alice = new
        payload: dict[str, Any] = {"squares": occupancy_to_json(board)}
        if crowns is not None:
            payload["crowns_left"] = crowns
        if alice:
            payload["alice"] = dict(alice)
        drafts.append(EventDraft(SEEN_KIND, payload, snapshot=True))
        if board != self.camera:
            drafts += self._judge(board, self.card)
        return drafts + self._ask_alice(dict(alice))

    def _ask(self, doubt: tuple[Cell, ...], now: float) -> list[EventDraft]:
        """A square in doubt for a while: ask the table what stands there, not guess."""
        if not doubt or self._doubt == 0:
            self._doubt_since = now
        self._doubt = self._doubt + 1 if doubt else 0
        if (self._doubt < ASK_AFTER_FRAMES or now - self._doubt_since < ASK_AFTER_S - 1e-6) or any(
            q.startswith("square-") for q in self.open_questions
        ):
            return []
        r, c = doubt[0]
        choices: list[dict[str, Any]] = [
            {"label": "a red piece", "value": "red"},
            {"label": "a white piece", "value": "white"},
            {"label": "nothing", "value": None},
        ]
        return [
            question_draft(
                Question(
                    f"square-{r}-{c}-{self.asked}",
                    # named as the dashboard labels it (from a1), not from 0
                    f"I cannot see square {square_name((r, c))} of the chessboard. "
                    "What stands there?",
                    choices,
                )
            )
        ]

    def _ask_alice(self, seen: dict[str, int | None]) -> list[EventDraft]:
        """At the end, the camera's Alice tokens against the engine's: they decide the
        coronation, so a disagreement is asked about, once."""
        camera = _both(seen)
        if (
            not self._ending()
            or camera is None
            or self.alice_source is not None
            or camera == self._alice_game()
            or any(q.startswith("alice-") for q in self.open_questions)
        ):
            return []
        game = self._alice_game()
        choices = [
            {
                "label": f"what the camera sees (red {camera[0]}, white {camera[1]})",
                "value": "camera",
            },
            {"label": f"what was tapped in (red {game[0]}, white {game[1]})", "value": "game"},
        ]
        return [
            question_draft(
                Question(
                    f"alice-{self.asked}",
                    "The camera sees the Alice tokens elsewhere than the game "
                    "has them. Which counts for the coronation?",
                    choices,
                )
            )
        ]

    def _ending(self) -> bool:
        return self.state.phase == "over" or self.scored

    def _alice_game(self) -> tuple[int, int]:
        return self.state.alice[0], self.state.alice[1]

    def _judge(self, seen: Occupancy, card: str | None) -> list[EventDraft]:
        """A stable board against the engine's: nothing, a play, a wait for the card, or a
        breach (once per distinct board and card)."""
        state = self.state
        if state.tile is None or seen == occupancy_of(state.pieces):
            self._flagged = None
            return []
        found = moves_seen(ENGINE.board, state, seen)
        if not found:
            return self._breach(seen, None, diagnose(ENGINE.board, state, seen))
        if card is None or not self._can_play():
            return []  # held until the mover's taps reach the play
        plays = [
            p
            for p in ENGINE.legal_actions(state)
            if isinstance(p, PlayMove | PlayRescue)
            and p.card == card
            and occupancy_after(state, p) == seen
        ]
        if len(plays) == 1:
            self._flagged = None
            return [self._action(plays[0])]
        if plays:
            return [self._ask_which(plays)]
        return self._breach(seen, card, card_refusal(ENGINE, state, with_card(found[0], card)))

    def _can_play(self) -> bool:
        s = self.state
        return s.phase == "play" and ENGINE.current_player(s) == s.seat and not needs_choice(s)

    def _breach(self, seen: Occupancy, card: str | None, breach: Breach) -> list[EventDraft]:
        if self._flagged == (seen, card):
            return []
        self._flagged = (seen, card)
        return [EventDraft(BREACH_KIND, breach.to_json(self.names) | {"turn": self.state.turns})]

    def _ask_which(self, plays: list[Play]) -> EventDraft:
        choices = [{"label": self._play_label(p), "value": i} for i, p in enumerate(plays)]
        question = Question(f"play-{self.asked}", "Which play was it?", choices, self.state.seat)
        draft = question_draft(question)  # its audience; the plays ride along for the answer
        return EventDraft(
            draft.kind,
            draft.payload | {"plays": [action_to_json(p) for p in plays]},
            draft.visibility,
        )

    def _play_label(self, play: Play) -> str:
        if isinstance(play, PlayRescue):
            colour, kind = self.state.people[play.jail].jail[play.slot]
            jail = f"{self.names[play.jail]}'s Jail"
            return f"the {colour} {kind} out of {jail} onto {square_name(play.to)}"
        return f"{describe(self.state.pieces[play.piece])} to {square_name(play.to)}"

    def _action(self, action: Any) -> EventDraft:
        # The seat rides along so the dashboard's log can name the player (the action
        # itself does not say whose it is; replay reads only "action").
        return EventDraft(ACTION_KIND, {"action": action_to_json(action), "seat": self.state.seat})

    # -- deciding: the phones ----------------------------------------------------------
    def correct(self, payload: Correction, seat: int | None) -> list[EventDraft]:
        """One typed correction (`messages.Correction`; JSON is parsed into it first)."""
        match parse(payload):
            case Answer() as answer:
                return self._answer(answer, seat)
            case TableIsRight():
                return self._table_is_right(seat)
            case SetUp(tile=tile, wishes=wishes):
                return self._setup(tile, wishes)
            case Drew(card=card):
                return self._drew(card, seat)
            case TrainDealt(cards=cards):
                return self._train_dealt(cards, seat)
            case TrainChosen(card=card, side=side):
                return self._train_chosen(ChooseTrain(card, side), seat)
            case Revealed(level=level, card=card):
                return self._revealed(level, card)
            case DiscardCard(card=card):
                self._only_mover(seat)
                return self._apply_now(Discard(card))
            case PlayCard(card=card, stay=stay):
                self._only_mover(seat)
                return self._play(card, stay)
            case Choose(action=raw):
                self._only_mover(seat)
                return self._choose(raw)
            case ScoreNow():
                if seat is not None:
                    raise UserError("the final scoring before the game's end needs the admin link")
                if self.state.tile is None or self._ending():
                    raise UserError("the final scoring is for a game set up and not scored yet")
                return [EventDraft(SCORE_NOW_KIND, {"turn": self.state.turns})]
        raise AssertionError("parse returns one of the corrections above")

    def _only_mover(self, seat: int | None) -> None:
        s = self.state
        if s.tile is None:
            raise UserError("enter the set-up first: the player-aid tile and the Wishes")
        if ENGINE.current_player(s) == CHANCE:
            raise UserError(f"first: {self._awaiting()}")
        if seat is not None and seat != s.seat:
            raise UserError(f"it is {self.names[s.seat]}'s turn")

    def _apply_now(self, action: Any) -> list[EventDraft]:
        ENGINE.apply(self.state, action)  # IllegalAction reaches the caller: nothing recorded
        return [self._action(action)]

    def _setup(self, tile: str, wishes: tuple[str, ...]) -> list[EventDraft]:
        if self.state.tile is not None:
            raise UserError("the set-up is entered once, before the first turn")
        ENGINE.apply(ENGINE.apply(self.state, Tile(tile)), Wishes(wishes))
        return [EventDraft(SETUP_KIND, {"tile": tile, "wishes": list(wishes)})]

    def _drew(self, card: str, seat: int | None) -> list[EventDraft]:
        if seat is None:
            raise UserError("a card drawn belongs to a seat: tap it on your own phone")
        left = list(self.state.people[seat].deck)
        for queued in self.drawn[seat]:
            left.remove(queued)
        if card not in left:
            raise IllegalAction("draw", f"card {card!r} is not in your deck")
        return [EventDraft.private(seat, DRAWN_KIND, {"seat": seat, "card": card})]

    def _train_setup(self) -> bool:
        """Whether the Train cards are still being dealt or chosen (the game plays them
        and nobody has revealed theirs yet)."""
        s = self.state
        plays = dict(s.readings).get("train_cards", "play") == "play"
        return plays and s.phase in ("setup", "train")

    def _dealt_in_engine(self, seat: int) -> bool:
        p = self.state.people[seat]
        return bool(p.train_hand or p.train)

    def _train_seat(self, seat: int | None, done: Mapping[int, Any], what: str) -> int:
        """The seat a Train card tap comes from: a player's own phone, while the Train
        cards are being `what` (dealt, chosen), once."""
        if seat is None:
            raise UserError(f"Train cards are {what} on each player's own phone")
        if not self._train_setup():
            raise UserError(f"the Train cards are {what} at set-up, in a game that plays them")
        if seat in done:
            raise UserError(f"your Train cards are {what} already")
        return seat

    def _train_dealt(self, cards: tuple[str, ...], tapped: int | None) -> list[EventDraft]:
        seat = self._train_seat(tapped, self.train_dealt, "dealt")
        dealt = ENGINE.comp(self.state).train_dealt
        if len(cards) != dealt:
            raise IllegalAction("set-up", f"each player receives {dealt} Train cards")
        left = list(self.state.train_deck)
        for other, queued in self.train_dealt.items():
            if not self._dealt_in_engine(other):
                for card in queued:
                    left.remove(card)
        for card in cards:
            if card not in left:
                raise IllegalAction("set-up", f"Train card {card!r} is not in the Train deck")
            left.remove(card)
        payload = {"seat": seat, "cards": sorted(cards)}
        return [EventDraft.private(seat, TRAIN_DEALT_KIND, payload)]

    def _train_chosen(self, choice: ChooseTrain, tapped: int | None) -> list[EventDraft]:
        """A secret choice, checked by the engine as if the seat were the one choosing now
        (a choice depends on nothing but the seat's own cards); it is applied when the
        engine reaches the seat."""
        s, seat = self.state, self._train_seat(tapped, self.train_kept, "chosen")
        if s.phase != "train" or ENGINE.current_player(s) == CHANCE:
            raise UserError(f"first: {self._awaiting()}")
        if choice not in ENGINE.legal_actions(evolve(s, seat=seat)):
            mine = ", ".join(s.people[seat].train_hand)
            raise IllegalAction(
                "train cards", f"keep one of your own Train cards ({mine}), red or white side"
            )
        payload = {"seat": seat, "card": choice.card, "side": choice.side}
        return [EventDraft.private(seat, TRAIN_KIND, payload)]

    def _revealed(self, level: int, card: str) -> list[EventDraft]:
        left = list(self.state.market_decks[level])
        for queued in self.revealed[level]:
            left.remove(queued)
        if card not in left:
            raise IllegalAction("market", f"card {card!r} is not in the {LEVELS[level]} deck")
        return [EventDraft(REVEALED_KIND, {"level": level, "card": card})]

    def _play(self, card: str, stay: tuple[int, int] | None) -> list[EventDraft]:
        s = self.state
        if not self._can_play():
            raise UserError(f"not yet: {self._awaiting()}")
        if card not in s.me.hand:
            raise IllegalAction("hand", f"card {card!r} is not in your hand")
        plays = [a for a in ENGINE.legal_actions(s) if isinstance(a, PLAYS) and a.card == card]
        if stay is not None:
            index = next((i for i, p in enumerate(s.pieces) if p.cell == stay), -1)
            return self._apply_now(PlayStay(card, index))
        if plays == [PlayNone(card)]:
            return [self._action(plays[0])]
        stays = [a for a in plays if isinstance(a, PlayStay)]
        if len(stays) == len(plays) == 1:
            return [self._action(stays[0])]
        drafts = [EventDraft(CARD_KIND, {"card": card, "seat": s.seat})]
        if self.camera is not None:
            drafts += self._judge(self.camera, card)
        return drafts

    def _choose(self, raw: dict[str, Any]) -> list[EventDraft]:
        try:
            action = action_from_json(raw)
        except ValueError as exc:
            raise UserError(f"action: {exc}") from None
        if isinstance(action, (*PLAYS, Tile, Wishes, Draw, Reveal, DealTrain, ChooseTrain)):
            raise UserError(
                "plays come from the camera and the card tapped; the set-up, the Train "
                "cards, draws and reveals from their own buttons"
            )
        return self._apply_now(action)

    def _answer(self, answer: Answer, seat: int | None) -> list[EventDraft]:
        question, answered = answer_draft(self.open_questions, answer, seat)
        drafts = [answered]
        index = answer.answer  # a play's index: answer_draft checked it is a choice's value
        if question.id in self.plays_asked and isinstance(index, int):
            play = action_from_json(self.plays_asked[question.id][index])
            drafts.append(self._apply_now(play)[0])
        return drafts

    def _table_is_right(self, seat: int | None) -> list[EventDraft]:
        """The admin's "the table is right": the camera's steady reading becomes the engine's
        board (`track.with_table` says how pieces keep their identity)."""
        admin_only_table_is_right(seat)
        if self.state.tile is None:
            raise UserError('"the table is right" is for a game set up and being played')
        camera = steady_reading(self.camera, "the board")
        with taken_as_the_table("the board"):
            pieces = with_table(self.state.pieces, camera)
        board = {
            "pieces": [{"colour": p.colour, "kind": p.kind, "cell": list(p.cell)} for p in pieces]
        }
        return [table_is_right_draft(board, {"squares": occupancy_to_json(camera)})]

    # -- the state -----------------------------------------------------------------------
    def apply_event(self, event: Event) -> None:
        p, kind = event.payload, event.kind
        if kind == SETUP_KIND:
            self.state = ENGINE.apply(
                ENGINE.apply(self.state, Tile(p["tile"])), Wishes(tuple(p["wishes"]))
            )
        elif kind == DRAWN_KIND:
            self.drawn[int(p["seat"])].append(p["card"])
        elif kind == REVEALED_KIND:
            self.revealed[int(p["level"])].append(p["card"])
        elif kind == TRAIN_DEALT_KIND:
            self.train_dealt[int(p["seat"])] = tuple(p["cards"])
        elif kind == TRAIN_KIND:
            self.train_kept[int(p["seat"])] = ChooseTrain(p["card"], p["side"])
        elif kind == CARD_KIND:
            self.card = p["card"]
        elif kind == ACTION_KIND:
            self._apply_action(action_from_json(p["action"]))
        elif kind == SEEN_KIND:
            self.camera = occupancy_from_json(p["squares"])
            self.crowns_seen = p.get("crowns_left", self.crowns_seen)
            self.alice_seen = p.get("alice", self.alice_seen)
        elif kind == BREACH_KIND:
            self.breaches.append(dict(p))
        elif kind == SCORE_NOW_KIND:
            self.scored = True
        elif kind == TABLE_RIGHT_KIND:
            pieces = tuple(
                Piece(x["colour"], x["kind"], (int(x["cell"][0]), int(x["cell"][1])))
                for x in p["board"]["pieces"]
            )
            self.state = evolve(self.state, pieces=pieces)
            self.breaches = [b for b in self.breaches if b["turn"] != self.state.turns]
            self._flagged = None
        elif kind == QUESTION_KIND:
            self.open_questions[p["id"]] = Question.from_json(p)
            if "plays" in p:
                self.plays_asked[p["id"]] = p["plays"]
            self.asked += 1
        elif kind == ANSWER_KIND:
            question = self.open_questions.pop(p["question"], None)
            self.plays_asked.pop(p["question"], None)
            if question is not None and question.id.startswith("square-"):
                _, r, c, _ = question.id.split("-")
                self.answers[(int(r), int(c))] = p["answer"]
            if question is not None and question.id.startswith("alice-"):
                self.alice_source = str(p["answer"])
        self._settle()

    def _apply_action(self, action: Any) -> None:
        before = self.state
        self.state = ENGINE.apply(before, action)
        if isinstance(action, PLAYS):
            self.card = None
            self.log = [*self.log, self._gives(before, action)][-SHOWN_LOG:]

    def _gives(self, before: State, play: Any) -> dict[str, Any]:
        """What a play gave, for the dashboard: the landing square's row resource and
        column action, and a capture and whose Jail it went to."""
        entry: dict[str, Any] = {
            "turn": before.turns,
            "seat": before.seat,
            "card": play.card,
            "play": action_to_json(play),
        }
        if isinstance(play, PlayNone):
            return entry | {"text": "no piece could be activated: 2 Time and Rest"}
        if isinstance(play, PlayRescue):
            colour, kind = before.people[play.jail].jail[play.slot]
            landing, text = (
                play.to,
                (f"rescued the {colour} {kind} from {self.names[play.jail]}'s Jail"),
            )
        else:
            piece = before.pieces[play.piece]
            landing = piece.cell if isinstance(play, PlayStay) else play.respawn or play.to
            text = (
                f"{describe(piece)} stays (blocked)"
                if isinstance(play, PlayStay)
                else f"{describe(piece)} to {square_name(play.to)}"
            )
            target = (
                None
                if isinstance(play, PlayStay)
                else next((q for q in before.pieces if q.cell == play.to), None)
            )
            if target is not None:
                entry["captured"] = {
                    "colour": target.colour,
                    "kind": target.kind,
                    "jail": before.seat,
                }
                text += (
                    f", capturing the {target.colour} {target.kind} into "
                    f"{self.names[before.seat]}'s Jail"
                )
            if isinstance(play, PlayMove) and play.respawn is not None:
                text += f", promoted and back on {square_name(play.respawn)}"
        resource, action = ENGINE.board.square(landing)
        entry.update(
            {
                "square": list(landing),
                "resource": resource,
                "action": action,
                "text": f"{text}: the row gives {_resource_text(resource)}, the "
                f"column {_action_text(action)}",
            }
        )
        return entry

    def _settle(self) -> None:
        """Apply chance's actions the engine is waiting for from the cards tapped in, and
        the Train cards chosen as the engine reaches each seat."""
        progress = True
        while progress:
            progress = False
            s = self.state
            if s.phase == "train" and ENGINE.current_player(s) == s.seat:
                kept = self.train_kept.get(s.seat)
                progress = kept is not None and self._try(kept)
                continue
            if ENGINE.current_player(s) != CHANCE:
                break
            if s.phase == "train":
                for seat, cards in self.train_dealt.items():
                    if not self._dealt_in_engine(seat):
                        progress = self._try(DealTrain(seat, cards)) or progress
            for seat, queue in self.drawn.items():
                if queue and self._try(Draw(seat, queue[0])):
                    queue.pop(0)
                    progress = True
            for level, queue in self.revealed.items():
                if queue and self._try(Reveal(level, queue[0])):
                    queue.pop(0)
                    progress = True

    def _try(self, action: Any) -> bool:
        try:
            self.state = ENGINE.apply(self.state, action)
        except IllegalAction:
            return False
        return True

    # -- what each seat sees -------------------------------------------------------------
    def _awaiting(self) -> str:
        s = self.state
        if s.tile is None:
            return "enter the set-up: the player-aid tile and the Wishes"
        if s.phase == "over":
            return "the game is over"
        if s.phase == "train":
            dealing = ENGINE.current_player(s) == CHANCE
            done = self.train_dealt if dealing else self.train_kept
            waiting = ", ".join(n for i, n in enumerate(self.names) if i not in done)
            if dealing:
                return f"{waiting}: tap the Train cards you were dealt"
            return f"{waiting}: choose your Train card and its side, secretly"
        if ENGINE.current_player(s) == CHANCE:
            for seat, p in enumerate(s.people):
                size = ENGINE.hand_size(s, seat)
                if len(p.hand) < size and p.deck and s.phase in ("setup", "rest"):
                    return f"{self.names[seat]}: tap the card you drew"
            return "tap the card revealed in the market"
        name = self.names[s.seat]
        if needs_choice(s):
            return f"{name}: choose the {s.pending[0].kind} reward"
        if s.phase == "play":
            if self.card is not None:
                return f"{name}: move the piece of {self.card} on the board"
            return f"{name}: tap the card you play, and move its piece"
        return {
            "discard": f"{name}: discard a card",
            "act": f"{name}: perform the action",
            "repeat": f"{name}: repeat the action for Time, or pass",
            "trim": f"{name}: discard down to your hand size",
        }.get(s.phase, name)

    def questions(self, seat: int | None) -> list[Question]:
        return [q for q in self.open_questions.values() if q.seat is None or q.seat == seat]

    def view(self, seat: int | None) -> dict[str, Any]:
        s = self.state
        v = ENGINE.view(s, seat)
        board = ENGINE.board
        v.update(
            {
                "seats": self.names,
                "to_move": None if s.phase == "over" else s.seat,
                "awaiting": self._awaiting(),
                "card": self.card,
                "chessboard": {
                    "rows": board.rows,
                    "cols": board.cols,
                    "resources": list(board.row_resources),
                    "actions": list(board.column_actions),
                },
                "camera": None if self.camera is None else occupancy_to_json(self.camera),
                "table_differs": (
                    self.camera is not None
                    and s.tile is not None
                    and self.camera != occupancy_of(s.pieces)
                ),
                "crowns_seen": self.crowns_seen,
                "crowns_differ": self.crowns_seen is not None
                and s.tile is not None
                and self.crowns_seen != s.crowns_left,
                "alice_seen": self.alice_seen,
                "breaches": [b for b in self.breaches if b["turn"] >= s.turns - 1][
                    -SHOWN_BREACHES:
                ],
                "log": self.log,
                "choices": [],
                "playable": [],
                "final": None,
            }
        )
        v["card_pieces"] = _pieces_of(v)
        if s.tile is None:
            v["setup_options"] = {
                "tiles": sorted(board.tiles),
                "wishes": {
                    icon: sorted(w.id for w in ENGINE.components.wishes.values() if w.icon == icon)
                    for icon in ACTIONS
                },
            }
        mover = ENGINE.current_player(s)
        if self._train_setup():
            self._train_view(v, seat)
        if seat is not None and seat == mover and s.tile is not None:
            legal = ENGINE.legal_actions(s)
            v["choices"] = [
                action_to_json(a) for a in legal if not isinstance(a, (*PLAYS, ChooseTrain))
            ]
            v["playable"] = sorted({a.card for a in legal if isinstance(a, PLAYS)})
        if self._ending():
            v["final"] = self._final()
        return v

    def _train_view(self, v: dict[str, Any], seat: int | None) -> None:
        """While the Train cards are dealt and chosen: every seat sees only who has chosen
        (the engine's `train_chosen` knows only the choices it has reached); a seat sees
        its own cards, in words, and its own choice."""
        v["train_chosen"] = [i in self.train_kept for i in range(len(self.names))]
        for i, p in enumerate(v["people"]):
            if i != seat:
                p.pop("train_chosen", None)
        if seat is None:
            return
        kept = self.train_kept.get(seat)
        v["my_train"] = {
            "dealt": [train_card_words(c) for c in self.train_dealt.get(seat, ())],
            "chosen": None if kept is None else {"card": kept.card, "side": kept.side},
        }

    def _final(self) -> dict[str, Any]:
        """The calculator on what the engine knows, the Alice tokens as the players said;
        `asking` while a question it depends on is open."""
        s = self.state
        end = ENGINE.game_end(s)
        camera = _both(self.alice_seen)
        if self.alice_source == "camera" and camera is not None:
            end = evolve(end, alice={"red": camera[0], "white": camera[1]})
        end = evolve(
            end,
            players=tuple(evolve(p, name=n) for p, n in zip(end.players, self.names, strict=True)),
        )
        reading = dict(s.readings).get("coronation", ENGINE.scoring.reading)
        final = final_score(end, evolve(ENGINE.scoring, reading=reading)).to_json()
        final["asking"] = any(q.startswith("alice-") for q in self.open_questions)
        final["alice"] = end.alice
        final["game_over"] = s.phase == "over"
        return final


def _pieces_of(view: dict[str, Any]) -> dict[str, str]:
    """The piece each card in `view` names, for the panel's labels: only cards the view
    already shows (listing the whole box would look like a hand to a leak check)."""
    shown = {
        c for p in view["people"] for pile in ("hand", "discard", "culled") for c in p.get(pile, [])
    }
    shown |= {c for row in view["market"] for c in row if c}
    shown |= {e["card"] for e in view["log"]} | ({view["card"]} if view["card"] else set())
    cards = ENGINE.components.cards
    return {c: f"{cards[c].colour} {cards[c].kind}" for c in sorted(shown) if c in cards}


def train_card_words(card: str) -> dict[str, str]:
    """A Train card as the phones show it: each side's icons in words (train.toml)."""
    sides = ENGINE.components.train[card]
    return {"id": card, "red": _side_text(sides.red), "white": _side_text(sides.white)}


def train_catalogue() -> list[dict[str, str]]:
    """Every Train card of the box, for a player to find the ones dealt to them."""
    return [train_card_words(c) for c in sorted(ENGINE.components.train)]


_REWARD_WORDS = {
    "time": "Time",
    "ip": "IP",
    "resource": "resource of your choice",
    "black": "Black cube",
    "pawprint": "pawprint",
    "alice": "Alice step",
    "crown": "Crown",
    "mini": "Mini-action",
    "cull": "Invitation",
}


def _side_text(side: TrainSide) -> str:
    parts = []
    if side.twin >= 0:
        parts.append(f"the Twin to space {side.twin}")
    if side.messenger >= 0:
        parts.append(f"the Messenger to space {side.messenger}")
    if side.bookmark:
        parts.append(f"the {side.bookmark} Bookmark")
    parts += _reward_text(side.reward)
    return ", ".join(parts) or "nothing"


def _reward_text(reward: Reward) -> list[str]:
    parts = []
    for f in fields(reward):
        value = getattr(reward, f.name)
        if f.name == "colour" or not value:
            continue
        if isinstance(value, str):
            noun = {"card": "card from the market", "book": "Book", "flower": "Live Flower"}
            parts.append(f"a {value} {noun[f.name]}")
        else:
            parts.append(f"{value} {_REWARD_WORDS.get(f.name, f.name)}")
    return parts


def _both(alice: dict[str, int | None]) -> tuple[int, int] | None:
    red, white = alice.get("red"), alice.get("white")
    return None if red is None or white is None else (int(red), int(white))


def _resource_text(resource: str) -> str:
    return "a resource of your choice" if resource == "wild" else f"1 {resource}"


def _action_text(action: str) -> str:
    return "any action for 1 extra resource" if action == "wild" else f"the {action} action"


def make_table_game(settings: Any, session: Session) -> QueenAliceTable:
    return QueenAliceTable(settings, session)


def router() -> Any:
    from companion.games.queen_alice.table.web import router as build

    return build()
