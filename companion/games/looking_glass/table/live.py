"""The Looking Glass at the table: camera readings -> deal, picks, scores, on the dashboard.

The rules engine (`rules.ENGINE`) is the one truth of the match, as in Mirror Mansion: the
session's set-up is the engine's `Setup`; a stable view of a fresh deal becomes an `lg.deal`
event (the glass the camera read, cards it could not read left unread), applied as the engine's
`Deal`; each pick the tracker sees is an `lg.pick`, applied as the engine's `Pick` for the seat
whose turn the engine says it is (a covered card taken anyway is booked by `table_pick` and
flagged with the engine's breach); a card named later is the engine's `Identify`. Legality,
whose turn it is, the piles, the running and final scores and the round wins all come from the
engine. Hands are tapped in privately by each seat on their phone (`messages.EnterHand`); when the
glass is empty and both hands are known they are revealed as the engine's `Reveal`
(`lg.reveal`) and the round's result recorded (`lg.round`). The admin's "the table is right"
takes the glass as the camera sees it steadily as the engine's (`ENGINE.with_glass`).

The simulated camera plays scripted rounds (`render.RoundFilm`): hands over the table, cards
lifted and put back, bumps, blur. Its simulated players tap their hands in at the end of each
round through the same correction a phone sends (`FilmScene.taps`, played by the live loop);
the game never reads them from the frame.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import pickle
import re
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import cv2
import numpy as np

from companion.errors import UserError
from companion.games.base import IllegalAction
from companion.games.looking_glass.rules.actions import Deal, Identify, Pick, Reveal, Setup
from companion.games.looking_glass.rules.deck import BRAWLERS, load_deck
from companion.games.looking_glass.rules.engine import ENGINE, LookingGlassState, Round
from companion.games.looking_glass.rules.layout import Layout
from companion.games.looking_glass.rules.scoring import HAND_SIZE
from companion.games.looking_glass.table.messages import (
    Answer,
    CardSeen,
    Correction,
    EnterHand,
    GlassObservation,
    RequestHint,
    TableIsRight,
    glass_observation,
    parse,
)
from companion.games.looking_glass.table.track import GlassTracker
from companion.live.table_game import (
    ANSWER_KIND,
    PUBLIC,
    QUESTION_KIND,
    TABLE_RIGHT_KIND,
    EventDraft,
    Observation,
    Question,
    admin_only_table_is_right,
    answer_draft,
    question_draft,
    steady_reading,
    table_is_right_draft,
    taken_as_the_table,
)
from companion.live.words import player_name, players_words
from companion.sim.taps import Tap
from companion.store import Event, Session
from companion.vision.stillness import StillnessMeter, thumbnail

log = logging.getLogger(__name__)

ASK_AFTER_SECONDS = 1.5
"""A question about a pair gone at once is shown only if it still stands after this long."""
ASK_AFTER_SECONDS_SEVERAL = 3.0
"""The same for several pairs gone at once: an arm lying across the centre line hides several
pairs, and rests longer than a hand over one."""
NOTHING_TAKEN = "none"
"""The answer to "which card did they take?" when nothing was (a hand hid both cards)."""
NOT_TAUGHT = (
    "The companion does not know your cards yet: the host teaches them once, showing the "
    "camera each card (Teach my deck, below)."
)
"""What players see while no deck is taught (the library's path and the CLI go to the log)."""
PANEL_JS = Path(__file__).with_name("panel.js")
SIM_FPS = 4.0
"""Film frames per second of the simulated table (the camera may run faster)."""
OPTIONS = {"target", "first_player"}
MEMORY_FRAMES = 60


class LookingGlassTable:
    """One match at the table, event-sourced: `apply_event` is the only thing that changes what
    `view` shows; `update`/`correct` only decide, asking the engine whether a move is legal."""

    game_id = "looking-glass"

    def __init__(self, settings: Any, session: Session) -> None:
        unknown = set(session.options) - OPTIONS
        if unknown:
            raise UserError(
                f"unknown option(s): {', '.join(sorted(unknown))} "
                f"(known: {', '.join(sorted(OPTIONS))})"
            )
        if len(session.seats) != 2:
            raise UserError("Reflections in the Looking Glass is played by exactly 2 seats")
        target = session.options.get("target", 3)
        first = session.options.get("first_player", 0)
        if first not in (0, 1) or isinstance(first, bool):
            raise UserError("option first_player must be 0 or 1")
        try:
            # The Brawlers are allowed: whether they are in play, the table's deal shows.
            state = ENGINE.new_game(2, {"brawlers": True, "target": target})
        except ValueError as exc:
            raise UserError(str(exc)) from None
        self.settings = settings
        self.session = session
        self.first = first
        self.deck = load_deck()
        self.tracker = GlassTracker()
        self.reader_kind = "auto"
        """Which reader reads the table (`vision.commands.READERS`): the one the taught deck
        calls for (`choose.reader_kind`), unless a benchmark times another."""
        self._reader: Any = None
        self._incremental: Any = None
        """The reader's `IncrementalReader`: a frame is read in full only where it changed."""
        self.sim_library: Any = None
        """The simulated deck when the sim camera films this game's own scene: read with it,
        and the web's card pictures are of the very cards the film shows."""
        self._library_error: str | None = None
        self._prior: list[tuple[Any, int]] = []
        self._frame_no = 0
        self._stillness = StillnessMeter()
        self.last_reading: Any = None
        """The last frame's `Reading` (perception thread), for tests and tools to look at."""
        self.perceive_ms: dict[str, float] = {}
        """The last frame's CPU ms per stage of `perceive` (the benchmark reports them)."""
        self._turns: list[dict[str, Any]] = []
        """Picks seen and pairs asked about, in order, not booked yet. Whose turn a pick was
        depends on the picks before it, and a pair asked about may turn out not to have been
        taken at all: a pick after an open question waits for its answer. A question is shown
        only `ASK_AFTER_SECONDS` after it was asked, counted from the last frame that showed
        both its cards ("shown"); "pick" is set once it is known what was taken (None:
        nothing). A question names a seat ("seat"): its answer is the card that seat took,
        whether it chose it or got it as the reflection of the other's choice."""
        # -- the state (changed only in apply_event) --
        layouts = tuple(sorted(ENGINE.layouts))  # the stack's order is the table's secret
        self.state: LookingGlassState = ENGINE.apply(state, Setup(layouts, first))
        self.centres: dict[str, list[float]] = {}
        self.picks: list[dict[str, Any]] = []
        """This round's picks as booked (the engine holds the piles; these say how each was
        seen, for the history)."""
        self.hands: list[list[str] | None] = [None, None]
        self.revealed = False
        self.results: list[dict[str, Any]] = []
        self.breaches: list[dict[str, Any]] = []
        self.refused: str | None = None
        """Why the last glass seen steadily cannot be dealt (the players are told; the
        tracker watches for the next deal)."""
        self.open_questions: dict[str, Question] = {}
        self.hints: list[dict[str, Any] | None] = [None, None]
        self.history: list[dict[str, Any]] = []

    # -- the simulated table ---------------------------------------------------------
    def sim_scene(self, seed: int) -> Any:
        scene = FilmScene(
            seed, self.first, rounds=2 * self.state.target - 1, cache_dir=_sim_cache(self.settings)
        )
        self.sim_library = scene.library
        return scene

    # -- perception (perception thread) ----------------------------------------------
    def _reader_for(self) -> Any:
        from companion.games.looking_glass.vision.choose import make_reader
        from companion.games.looking_glass.vision.incremental import IncrementalReader
        from companion.games.looking_glass.vision.library import Library, default_library_path

        lib = self.sim_library
        if lib is None and _camera_is_sim(self.settings):
            # A game rebuilt from the store (after a refused write) is not handed the scene
            # again: the sim camera's deck is the one drawn for its seed.
            seed = int(self.settings.camera.seed)
            lib = self.sim_library = sim_deck(seed, _sim_cache(self.settings))[1]
        if lib is None:
            try:
                lib = Library.load(default_library_path(self.settings.data_dir))
            except UserError as exc:
                if self._library_error is None:
                    log.info("looking-glass: %s", exc)  # the path is for the log, not phones
                self._library_error = NOT_TAUGHT
                return None
        # Known now: the sim camera's own deck (its scene may be built after the first frames
        # of a new game were read) or a deck taught since, e.g. from the dashboard.
        self._library_error = None
        if self._reader is None or self._reader.lib is not lib:
            # The reader the deck's taught border calls for (`choose.reader_kind`).
            self._reader = make_reader(lib, self.reader_kind)
            self._incremental = IncrementalReader(self._reader)
        return self._reader

    def perceive(self, frame: Any, registration: Any) -> Observation:
        reader = self._reader_for()
        if reader is None:
            return Observation(GlassObservation(error=self._library_error), 0.0)
        H = None
        ok = getattr(registration, "ok", False)
        if ok and getattr(registration, "camera_matrix", None) is None:
            H = registration.H_table_from_image
        c0 = time.thread_time()
        thumb = thumbnail(frame.image)
        still = self._stillness.still(frame.image, thumb)
        c1 = time.thread_time()
        # The registration's markers: the reader does not look for them again.
        markers = getattr(registration, "markers", None)
        read = self._incremental.read(frame.image, H, thumb, still, markers)
        c2 = time.thread_time()
        reading = reader.verify(frame.image, read, self.remembered(), keep_looks=True)
        self._remember(reading.cards)
        self.last_reading = reading
        c3 = time.thread_time()
        data = GlassObservation(
            cards=tuple(_card_seen(c) for c in reading.cards),
            layout=reading.layout,
            warnings=tuple(reading.warnings),
            # Remembered cards something lies over: not seen, but not seen gone either.
            hidden=tuple(_point(c.center) for c in reading.hidden),
            still=still,
        )
        self.perceive_ms = {
            "change": 1000 * (c1 - c0),
            f"read.{self._incremental.last.how}": 1000 * (c2 - c1),
            "verify": 1000 * (c3 - c2),
        }
        conf = float(np.mean([c.confidence for c in data.cards])) if data.cards else 0.0
        return Observation(data, conf)

    def remembered(self) -> list[Any]:
        """The cards the perceiver remembers (`_remember`): what the next frame's reading is
        verified against, so a card a hand hides now is looked for where it was."""
        return [c for c, _ in self._prior]

    def _remember(self, cards: list[Any]) -> None:
        """The perceiver's own memory (not game state): every identified card seen in the
        last `MEMORY_FRAMES` frames, so one a hand hid can be looked for again after."""
        self._frame_no += 1
        kept = [(c, self._frame_no) for c in cards if c.card is not None]
        # The kept centres in one array, grown as old cards are kept: one distance test per
        # old card, not one per pair (a full glass remembered twice is 1,500 pairs a frame).
        centres = np.empty((len(kept) + len(self._prior), 2))
        n = len(kept)
        for i, (c, _) in enumerate(kept):
            centres[i] = c.center
        for old, seen in self._prior:
            if self._frame_no - seen > MEMORY_FRAMES:
                continue
            width = float(np.linalg.norm(old.quad[1] - old.quad[0]))
            d = centres[:n] - old.center
            if not n or float(np.min(np.einsum("ij,ij->i", d, d))) >= (0.3 * width) ** 2:
                kept.append((old, seen))
                centres[n] = old.center
                n += 1
        self._prior = kept

    def annotate(
        self, image: np.ndarray, registration: Any, observation: Observation
    ) -> np.ndarray:
        for c in glass_observation(observation.data).cards:
            quad = np.array(c.quad or [], np.int32)
            if len(quad) != 4:
                continue
            colour = (60, 200, 60) if not c.covered else (0, 160, 255)
            if c.card is None:
                colour = (0, 0, 255)
            cv2.polylines(image, [quad], True, colour, 2, cv2.LINE_AA)
        return image

    # -- the engine's answers ----------------------------------------------------------
    @property
    def phase(self) -> str:
        return ENGINE.phase(self.state)

    def active_seat(self, after: int | None = None) -> int:
        """Whose turn it is, says the engine, once `after` more picks are booked (default: the
        picks and questions waiting to be booked, as if every question were a pick)."""
        after = len(self._turns) if after is None else after
        seat = ENGINE.current_player(self.state)
        if self.phase != "pick" or seat is None or seat < 0:
            seat = ENGINE.next_starter(self.state)
        return seat if after % 2 == 0 else 1 - seat

    @property
    def starter(self) -> int:
        r = self.state.round
        return ENGINE.next_starter(self.state) if r is None else r.starter

    def match_over(self) -> bool:
        return ENGINE.is_terminal(self.state)

    def wins(self) -> list[int]:
        return ENGINE.round_wins(self.state)

    def _glass(self) -> dict[str, str | None]:
        """The round's positions and the card dealt at each (None: unread), taken or not."""
        r = self.state.round
        if r is None:
            return {}
        lay = ENGINE.layout(r.layout)
        return {lay.name_of(h, c): r.cards[h][c] for h in (0, 1) for c in range(len(lay.cells))}

    def _present(self) -> set[str]:
        """Positions whose card still lies in the Looking Glass, as the engine counts."""
        r = self.state.round
        if r is None:
            return set()
        lay = ENGINE.layout(r.layout)
        return {
            lay.name_of(h, c)
            for h in (0, 1)
            for c in range(len(lay.cells))
            if not (r.taken >> c) & 1
        }

    # -- deciding --------------------------------------------------------------------
    def update(self, observation: Observation, now: float) -> list[EventDraft]:
        data = glass_observation(observation.data)
        drafts: list[EventDraft] = []
        if self.match_over():
            return drafts
        drafts += self._ask_held_back(now)
        if self.phase == "reveal":
            return drafts + self._maybe_reveal(self.state, self.hands)
        if self.phase == "deal" and self.tracker.slots:
            self.tracker.reset()  # round scored: wait for the next deal on a fresh glass
        for change in self._outer_first(self.tracker.observe(data, now)):
            if change.kind == "deal":
                drafts += self._deal(change.detail)
            elif change.kind == "identify":
                pos, card = change.positions[0], change.detail["card"]
                try:
                    ENGINE.apply(self.state, Identify(pos, card))
                except IllegalAction as exc:
                    log.info("looking-glass: reading of %s refused: %s", pos, exc)
                    continue
                drafts.append(EventDraft("lg.identify", {"position": pos, "card": card}))
            elif change.kind == "pick":
                self._turns.append(
                    {"pick": (change.positions[0], change.positions[1], change.detail)}
                )
            elif change.kind == "ask":
                self._turns.append(self._ask_turn(change, now))
            elif change.kind == "withdraw":
                for turn in self._turns:
                    if set(turn.get("pair", ())) != set(change.positions) or "pick" in turn:
                        continue
                    turn["pick"] = None  # nothing was taken
                    if turn["shown"]:
                        # The question was wrong. Closing it is recorded like an answer,
                        # given by the camera (one never shown needs no closing).
                        drafts.append(
                            EventDraft(
                                ANSWER_KIND,
                                {
                                    "question": turn["question"].id,
                                    "answer": NOTHING_TAKEN,
                                    "seat": None,
                                    "by": "camera: both cards are on the table again",
                                },
                            )
                        )
        for turn in self._turns:
            if _held_back(turn) and all(self.tracker.last_view.get(n) for n in turn["pair"]):
                # Both cards show in this frame, though the view is not steady yet (a hand
                # moves over other cards): not the moment to ask whether they were taken.
                turn["asked_at"] = now
        # Booked once, after every change of this view: a seat counts the picks before it.
        return drafts + self._book_turns()

    def _outer_first(self, changes: list[Any]) -> list[Any]:
        """Pairs that left the glass together, in an order the rules allow: outer rows first
        (a card covers the row before it), since which went first was not seen."""
        r = self.state.round
        if r is None:
            return changes
        lay = ENGINE.layout(r.layout)
        together = [
            i
            for i, c in enumerate(changes)
            if c.kind in ("pick", "ask") and int(c.detail.get("together", 1)) > 1
        ]
        ordered = sorted(
            (changes[i] for i in together),
            key=lambda c: -lay.cells[lay.locate(c.positions[0])[1]].row,
        )
        out = list(changes)
        for i, c in zip(together, ordered, strict=True):
            out[i] = c
        return out

    def _deal(self, detail: dict[str, Any]) -> list[EventDraft]:
        """A fresh glass seen steadily: the engine's deal, if it can be one."""
        layout = detail.get("layout")
        glass = {n: c for n, c in detail["glass"].items()}
        why = None
        if layout is None:
            why = "the layout card of this glass is not one the companion knows"
        elif self.phase != "deal":
            why = f"a deal only starts a round ({_NOT_DEALING[self.phase]})"
        else:
            try:
                ENGINE.apply(self.state, Deal.of(glass, layout=layout))
            except IllegalAction as exc:
                said = self._said(exc.detail)
                why = f"{exc.rule} ({said})" if said else exc.rule
        if why is not None:
            self.tracker.reset()
            if why == self.refused:
                return []  # told already
            return [EventDraft("lg.breach", {"what": "deal", "rule": why})]
        return [
            EventDraft(
                "lg.deal",
                {
                    "round": len(self.state.results) + 1,
                    "glass": glass,
                    "layout": layout,
                    "layout_name": ENGINE.layout(cast(str, layout)).name,  # dealt: not None
                    "centres": detail["centres"],
                    "card_px": self.tracker.card_px,
                },
                snapshot=True,
            )
        ]

    def _ask_turn(self, change: Any, now: float) -> dict[str, Any]:
        a, b = change.positions
        seat = self.active_seat()
        together = int(change.detail.get("together", 1))
        why = (
            f"{together} pairs left the glass while the camera could not see. "
            if together > 1
            else ""
        )
        # The seat rides in the id: the answer may come after later picks.
        q = Question(
            f"pick-{seat}-{uuid.uuid4().hex[:8]}",
            f"{why}Which card did {self.session.seats[seat]} take?",
            [{"label": self._card_label(n), "value": n} for n in (a, b)]
            + [{"label": "Neither: both are still on the table", "value": NOTHING_TAKEN}],
        )
        # Held back a moment: a hand resting over both cards looks the same, and moves off
        # before a real pick would be answered.
        hold = ASK_AFTER_SECONDS if together == 1 else ASK_AFTER_SECONDS_SEVERAL
        return {
            "question": q,
            "pair": (a, b),
            "asked_at": now,
            "hold": hold,
            "seat": seat,
            "unread": self._ask_unread(a, b, seat, taker_known=False),
            "shown": False,
        }

    def _book_turns(self) -> list[EventDraft]:
        """The picks at the head of the queue, each for the seat whose turn the engine says it
        is, up to the first question not answered yet."""
        drafts: list[EventDraft] = []
        state = self.state
        while self._turns and "pick" in self._turns[0]:
            turn = self._turns.pop(0)
            pick = turn["pick"]
            if pick is None:
                continue  # a pair asked about that nobody took
            chosen, other, detail = pick
            # Whose turn it is (a pick that is not anyone's is refused by table_pick).
            seat = cast(int, ENGINE.current_player(state))
            if turn.get("seat", seat) != seat:
                # The answer is the card the seat the question named took; that seat is not
                # the one whose turn it turned out to be (a pair asked about before was not
                # taken, or several pairs went in an unknown order), so it got that card as
                # the reflection of the other's choice.
                chosen, other = other, chosen
            try:
                state, breach = ENGINE.table_pick(state, Pick(seat, chosen))
            except IllegalAction as exc:
                log.warning("looking-glass: a pick the engine cannot follow: %s", exc)
                continue
            drafts.append(self._pick_draft(chosen, other, detail.get("order"), seat, breach))
            if detail.get("order") != "asked":  # (an asked pair's unread card was asked then)
                drafts += self._ask_unread(chosen, other, seat)
        return drafts

    def _ask_held_back(self, now: float) -> list[EventDraft]:
        drafts: list[EventDraft] = []
        for turn in self._turns:
            if _held_back(turn) and now - turn["asked_at"] >= turn["hold"]:
                turn["shown"] = True
                drafts += [question_draft(turn["question"]), *turn["unread"]]
        return drafts

    def _card_label(self, pos: str) -> str:
        card = self._glass().get(pos)
        where = self._where(pos)
        if card is None:
            return f"the card the camera could not read ({where})"
        return f"{self.deck.character(card).name} ({where})"

    def _where(self, pos: str, *, either: bool = False) -> str:
        r = self.state.round
        if r is None:
            return pos
        return place_words(ENGINE.layout(r.layout), pos, self.session.seats, either=either)

    def _said(self, detail: str) -> str:
        """An engine's detail as the players read it: names for seats, words for places
        ("A-r1-c3 lies under ..." names each place as `_where` does, in brackets: a place's
        words hold a comma)."""
        named = players_words(detail, self.session.seats)
        return _POSITION.sub(lambda m: f"({self._where(m.group(0))})", named)

    def _pick_where(self, pick: dict[str, Any]) -> str:
        """A self-linked pair left at once and which place was chosen was not seen: both."""
        return self._where(pick["position"], either=pick.get("order") == "self-linked")

    def _pick_draft(
        self, chosen: str, other: str, order: str | None, seat: int, breach: IllegalAction | None
    ) -> EventDraft:
        """`order` says how the chosen card is known: "first-gone" (it left first), "asked"
        (the players said), or "self-linked": both cards left together and show the same
        character, so `position` is one of the pair, not seen to be the chosen one (the seat,
        the cards, the legality and the score are the same either way). `illegal`: the
        engine's verdict (a covered card taken), with the rule it names."""
        glass = self._glass()
        payload: dict[str, Any] = {
            "seat": seat,
            "position": chosen,
            "card": glass.get(chosen),
            "reflection": other,
            "reflection_card": glass.get(other),
            "illegal": breach is not None,
            "order": order,
        }
        if breach is not None:
            payload["rule"] = breach.rule
            payload["detail"] = self._said(breach.detail)
        return EventDraft("lg.pick", payload, snapshot=True)

    def _ask_unread(
        self, chosen: str, other: str, seat: int, *, taker_known: bool = True
    ) -> list[EventDraft]:
        """A card of the pick that the camera never read: ask the players which it was."""
        drafts = []
        glass = self._glass()
        for pos, who in ((chosen, seat), (other, 1 - seat)):
            if glass.get(pos) is None:
                took = f" {self.session.seats[who]} took it." if taker_known else ""
                q = Question(
                    f"card-{pos}-{uuid.uuid4().hex[:6]}",
                    f"Which card was in {self._where(pos)}?{took}",
                    [{"label": c.name, "value": c.id} for c in self.deck.characters],
                )
                drafts.append(question_draft(q))
        return drafts

    def _maybe_reveal(
        self, state: LookingGlassState, hands: list[list[str] | None]
    ) -> list[EventDraft]:
        """The round's end, once the engine has it empty and both hands are in: the engine
        scores it (a card still unread, or hands the deck cannot have, and it waits)."""
        known = [h for h in hands if h is not None]
        if ENGINE.phase(state) != "reveal" or len(known) != len(hands):
            return []
        try:
            after = ENGINE.apply(state, Reveal.of(known))
        except IllegalAction:
            return []
        result = after.results[-1]
        assert after.round is not None  # the round just scored
        stacks = ENGINE.round_score(after.round).scores
        return [
            EventDraft("lg.reveal", {"hands": [sorted(h) for h in known]}),
            EventDraft(
                "lg.round",
                {
                    "round": len(after.results),
                    "totals": list(result.totals),
                    "scores": [s.to_json() for s in stacks],
                    "winner": result.winner,
                    "starter": result.starter,
                    "layout": result.layout,
                },
                snapshot=True,
            ),
        ]

    def correct(self, payload: Correction, seat: int | None) -> list[EventDraft]:
        """One typed correction (`messages.Correction`; JSON is parsed into it first)."""
        match parse(payload):
            case Answer() as answer:
                return self._answer(answer, seat)
            case TableIsRight():
                return self._table_is_right(seat)
            case EnterHand(cards=cards):
                return self._hand(cards, seat)
            case RequestHint():
                if seat is None:
                    raise UserError("a hint is private to a seat: open your seat link")
                return [
                    EventDraft.private(
                        seat, "lg.hint", {"seat": seat, **self._hint(seat)}, once=True
                    )
                ]

    def _hand(self, cards: list[str], seat: int | None) -> list[EventDraft]:
        if seat is None:
            raise UserError("a hand belongs to a seat: open your seat link")
        if len(cards) != HAND_SIZE:
            raise UserError(f"a hand is a list of {HAND_SIZE} card ids")
        for cid in cards:
            if cid not in self.deck.ids:
                raise UserError(f"unknown card id {cid!r} (known: {', '.join(self.deck.ids)})")
            if cid in BRAWLERS:
                raise UserError(f"{cid} is a Brawler; Brawlers are never dealt to a hand")
        if self.state.round is None or self.phase == "deal":
            raise UserError("no round is being played: deal the Looking Glass first")
        # Counts, not a list: the same ids are public on the glass, the hand is not.
        drafts = [
            EventDraft.private(seat, "lg.hand", {"seat": seat, "counts": dict(Counter(cards))})
        ]
        hands = list(self.hands)
        hands[seat] = sorted(cards)
        return drafts + self._maybe_reveal(self.state, hands)

    def _answer(self, payload: Answer, seat: int | None) -> list[EventDraft]:
        q, answered = answer_draft(self.open_questions, payload, seat)
        values = [c["value"] for c in q.choices]
        answer = payload.answer
        other = next((v for v in values if v != answer), None)
        drafts = [answered]
        if q.id.startswith("pick-"):
            if answer == NOTHING_TAKEN:
                self.tracker.withdraw(*[v for v in values if v != NOTHING_TAKEN])
                pick = None
            else:
                self.tracker.resolve(str(answer))
                pick = (str(answer), other, {"order": "asked"})
            turn = next(
                (t for t in self._turns if "question" in t and t["question"].id == q.id), None
            )
            if turn is None:
                # Asked before a restart: the queue is gone, the seat rides in the id.
                asked = q.id.split("-")[1]
                self._turns.append(
                    {"pick": pick, **({"seat": int(asked)} if asked in ("0", "1") else {})}
                )
            else:
                turn["pick"] = pick
            drafts += self._book_turns()
        elif q.id.startswith("card-"):
            pos = q.id.split("-", 1)[1].rsplit("-", 1)[0]
            try:
                named = ENGINE.apply(self.state, Identify(pos, str(answer)))
            except IllegalAction as exc:
                raise UserError(f"{exc.rule}: {self._said(exc.detail)}") from None
            drafts.append(EventDraft("lg.identify", {"position": pos, "card": answer}))
            drafts += self._maybe_reveal(named, self.hands)
        return drafts

    def _table_is_right(self, seat: int | None) -> list[EventDraft]:
        """The admin's "the table is right": the glass the tracker steadily sees now becomes
        the engine's (`ENGINE.with_glass`). Cards gone from it stay for the tracker, which
        follows from the corrected glass and asks about them as about any pair gone unseen."""
        admin_only_table_is_right(seat)
        if self.phase != "pick":
            raise UserError(
                '"the table is right" mends a round being played: there is none '
                "now (a fresh glass is dealt when the camera sees it)"
            )
        seen = steady_reading(self.tracker.steady_glass(), "the Looking Glass")
        with taken_as_the_table("the glass", self._said):
            ENGINE.with_glass(self.state, seen)
        return [table_is_right_draft({"glass": seen}, {"glass": seen})]

    def _hint(self, seat: int) -> dict[str, Any]:
        from companion.games.looking_glass.hint import hint_from_view

        view = ENGINE.view(self.state, seat)
        if view.get("phase") != "pick" or view.get("to_move") != seat:
            return {"error": "no hint: it is not your turn"}
        rv = view["round"]
        if None in rv["glass"].values() or any(None in p for p in rv["piles"]):
            return {"error": "no hint: a card the camera could not read is not named yet"}
        own = self.hands[seat]
        if own is not None and rv.get("hand") is None:
            rv["hand"] = list(own)
        try:
            return hint_from_view(view).to_json()
        except (ValueError, KeyError) as exc:
            return {"error": f"no hint: {exc}"}

    def questions(self, seat: int | None) -> list[Question]:
        return [q for q in self.open_questions.values() if q.seat is None or q.seat == seat]

    # -- the state -------------------------------------------------------------------
    def apply_event(self, event: Event) -> None:
        p = event.payload
        kind = event.kind
        if kind == "lg.deal":
            self.state = ENGINE.apply(self.state, Deal.of(p["glass"], layout=p["layout"]))
            self.centres = dict(p.get("centres", {}))
            self.picks = []
            self.hands = [None, None]
            self.hints = [None, None]
            self.revealed = False
            self.refused = None
            if not self.tracker.slots:
                self._restore_tracker(p)
            self.history.append({"kind": "deal", "round": int(p["round"]), "layout": p["layout"]})
        elif kind == "lg.identify":
            pos, card = p["position"], p["card"]
            self.state = ENGINE.apply(self.state, Identify(pos, card))
            for pk in self.picks:
                for key, where in (("card", "position"), ("reflection_card", "reflection")):
                    if pk[where] == pos:
                        pk[key] = card
            slot = self.tracker.slots.get(pos)
            if slot is not None and slot.card is None:
                slot.card = card
                if slot.present is None and pos in self._present():
                    slot.present = True
        elif kind == "lg.pick":
            seat = int(p["seat"])
            self.state, _ = ENGINE.table_pick(self.state, Pick(seat, p["position"]))
            self.picks.append(dict(p))
            self.hints = [None, None]
            for n in (p["position"], p["reflection"]):
                if n in self.tracker.slots:
                    self.tracker.slots[n].present = False
            self.history.append({"kind": "pick", "round": len(self.state.results) + 1, **p})
        elif kind == "lg.hand":
            self.hands[int(p["seat"])] = sorted(Counter(p["counts"]).elements())
        elif kind == "lg.hint":
            self.hints[int(p["seat"])] = dict(p)
        elif kind == "lg.reveal":
            self.state = ENGINE.apply(self.state, Reveal.of(p["hands"]))
            self.hands = [list(h) for h in p["hands"]]
            self.revealed = True
        elif kind == "lg.round":
            self.results.append(dict(p))
            self.history.append({"kind": "round", **p})
        elif kind == "lg.breach":
            self.breaches.append(dict(p))
            if p.get("what") == "deal":
                self.refused = str(p["rule"])
        elif kind == TABLE_RIGHT_KIND:
            self.state = ENGINE.with_glass(self.state, dict(p["board"]["glass"]))
            present = self._present()
            self.picks = [pk for pk in self.picks if pk["position"] not in present]
            self._restore_tracker(
                {
                    "glass": {n: c for n, c in self._glass().items() if n in present},
                    "centres": self.centres,
                    "layout": cast(Round, self.state.round).layout,
                    "card_px": self.tracker.card_px,
                }
            )
            self._turns = []
        elif kind == QUESTION_KIND:
            self.open_questions[p["id"]] = Question(p["id"], p["text"], p["choices"], p["seat"])
        elif kind == ANSWER_KIND:
            self.open_questions.pop(p["question"], None)

    def _restore_tracker(self, p: dict[str, Any]) -> None:
        """The tracker's memory rebuilt from a recorded glass (after a restart, or after the
        table was declared right)."""
        cards = [
            CardSeen(position=n, card=c, center=_point(p["centres"].get(n, (0.0, 0.0))))
            for n, c in p["glass"].items()
        ]
        # (a card not read at the deal comes back as unknown, as it was)
        self.tracker.start(cards, p.get("layout"))
        for name, slot in self.tracker.slots.items():
            if name not in p["glass"]:
                slot.present = False  # taken before the glass was recorded
        if p.get("card_px"):
            self.tracker.card_px = float(p["card_px"])

    # -- what each seat sees -----------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        engine = ENGINE.view(self.state, seat)
        rv = engine["round"] or {}
        glass = self._glass()
        present = self._present()
        free = set(rv.get("free", [])) if self.phase == "pick" else set()
        lay = ENGINE.layout(rv["layout"]) if rv else None
        self_linked = sorted(
            n
            for n in present
            if lay is not None and glass[n] is not None and glass[lay.reflection(n)] == glass[n]
        )
        piles = [Counter(c for c in pile if c is not None) for pile in rv.get("piles", [[], []])]
        grids = []
        for s in (0, 1):
            grid: dict[str, list[dict[str, Any]]] = {"sun": [], "moon": [], "brawlers": []}
            for c in self.deck.characters:
                team = c.team if c.team != "brawler" else "brawlers"
                grid[team].append({"card": c.id, "name": c.name, "count": piles[s][c.id]})
            grids.append(grid)
        out: dict[str, Any] = {
            "panel": "looking-glass",
            "seat": seat,
            "seats": list(self.session.seats),
            "round": rv.get("number", 0),
            "starter": self.starter,
            "to_move": self.active_seat() if self.phase == "pick" else None,
            "layout": rv.get("layout"),
            "layout_name": None if lay is None else lay.name,
            "glass": [
                {
                    "position": n,
                    "where": self._where(n),
                    "card": glass[n],
                    "present": n in present,
                    "covered": (n not in free) if n in present else None,
                    "center": self.centres.get(n),
                }
                for n in sorted(glass)
            ],
            "legal": sorted(free),
            "self_linked": self_linked,
            "piles": grids,
            "running_scores": ENGINE.running_totals(self.state),
            "picks": [{**p, "where": self._pick_where(p)} for p in self.picks],
            "illegal": [p for p in self.picks if p.get("illegal")],
            "breaches": self.breaches[-3:],
            "results": list(self.results),
            "wins": self.wins(),
            "target": self.state.target,
            "match_over": self.match_over(),
            "hands_public": [list(h or ()) for h in self.hands] if self.revealed else None,
            "library": self._library_error,
            "waiting": self._waiting(),
        }
        if seat in (0, 1):
            out["my_hand"] = self.hands[seat]
            out["my_hint"] = self.hints[seat]
            out["hint_available"] = self.phase == "pick"
        return out

    def _waiting(self) -> str | None:
        """What the companion waits for, for the players to fix or answer: a glass in view
        it does not follow, or picks it saw but cannot book before a question is answered."""
        held = sum(1 for t in self._turns if t.get("pick"))
        if held and any(t.get("shown") and "pick" not in t for t in self._turns):
            picks = (
                "1 pick seen since then waits"
                if held == 1
                else (f"{held} picks seen since then wait")
            )
            return (
                f"Please answer the open question: {picks} for it, because whose turn "
                "it was depends on the answer."
            )
        if self.phase == "reveal":
            missing = [self.session.seats[s] for s in (0, 1) if self.hands[s] is None]
            if missing:
                return f"The glass is empty: {' and '.join(missing)}, tap in your hand."
            if None in self._glass().values():
                return "Please answer the open question: a card is still unnamed."
            return (
                "The hands tapped in do not fit the deck with the cards taken: please tap "
                "them in again."
            )
        if self.tracker.slots:
            return None
        if self.refused is not None:
            return f"Not following this glass: {self.refused}."
        unread = self.tracker.unread_pairs
        if not unread:
            return None
        return (
            f"Not following this glass yet: no card can be read at {', '.join(unread)}. "
            "If cards lie there, a glare or a shadow hides them (move the lamp or the "
            "camera); if they were taken already, the round started unseen: start "
            "from the next deal."
        )


def place_words(
    layout: Layout, position: str, seats: Sequence[str], *, either: bool = False
) -> str:
    """A position said as a player points at it ("row 2 of Ann's half, 3rd from Ann's left"),
    not as its code ("A-r1-c4"), which stays in the events. Half A lies at player A's end;
    rows count out from the centre line. Left and right swap across the table, so a place is
    counted from a named player's left, which is true whichever side the reader sits on: the
    left of the player whose half it is. A self-linked pair's two places (one in each half,
    at the same column) are counted from player A's left, where they count the same."""
    half, cell = layout.locate(position)
    c = layout.cells[cell]
    cols = sorted(layout.rows[c.row])  # player A's left to right (the table's x, `placement`)
    counter = 0 if either else half
    if counter == 1:
        cols.reverse()  # player B faces player A: B's left is A's right
    k = cols.index(c.col) + 1
    nth = f"{k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'}"
    whose = "either" if either else f"{player_name(seats, half)}'s"
    return f"row {c.row + 1} of {whose} half, {nth} from {player_name(seats, counter)}'s left"


_POSITION = re.compile(r"\b[AB]-r\d+-c\d+\b")
"""A place's code in an engine's text ("A-r2-c4", `Layout.name_of`)."""

_NOT_DEALING = {
    "setup": "the match is not set up yet",
    "pick": "this round is still being played",
    "reveal": "this round waits for both hands",
    "over": "the match is over",
}
"""Why a glass seen is not a deal, by the engine's phase, in words (not the phase's name)."""


def _held_back(turn: dict[str, Any]) -> bool:
    """A turn whose question is neither shown nor settled yet."""
    return "question" in turn and not turn["shown"] and "pick" not in turn


def _sim_cache(settings: Any) -> Path | None:
    """Where the sim deck is kept between starts: the data dir's looking-glass folder."""
    data_dir = getattr(settings, "data_dir", None)
    return None if data_dir is None else Path(data_dir) / "looking-glass"


def _camera_is_sim(settings: Any) -> bool:
    camera = getattr(settings, "camera", None)
    return camera is not None and str(getattr(camera, "source", "")).strip() == "sim"


@functools.lru_cache(maxsize=2)
def sim_deck(seed: int, cache_dir: Path | None = None) -> tuple[dict[str, Any], Any]:
    """The `sim` camera's deck for a seed, (art, library), taught from its own photos once:
    the scene draws its cards with it and every game on that camera reads with it.

    Teaching the twelve simulated photos takes most of a start-up (8-20 s on a Pi-class
    machine), so the result is kept in `cache_dir` (the data dir's looking-glass folder)
    under the fingerprint of the code and deck that made it: the next `make run` starts at
    once, and a changed renderer or teacher makes a new one instead of reading a stale one."""
    path = None if cache_dir is None else cache_dir / f"sim-deck-{seed}-{_sim_deck_stamp()}.pickle"
    if path is not None and path.is_file():
        try:
            with path.open("rb") as f:
                art, library = pickle.load(f)  # our own file, written below
            return art, library
        except (OSError, pickle.UnpicklingError, EOFError, ValueError, AttributeError) as exc:
            log.info("looking-glass: cached sim deck %s unreadable (%s): rebuilt", path, exc)
    from companion.games.looking_glass.vision.choose import reader_choice
    from companion.games.looking_glass.vision.sim_deck import taught_sim_deck

    art, _, library, _ = taught_sim_deck(seed)
    reader_choice(library)  # the reader's trial, kept in the library and cached with it
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            for old in path.parent.glob(f"sim-deck-{seed}-*.pickle"):
                old.unlink(missing_ok=True)  # made by other code: never read again
            tmp = path.with_suffix(f".{uuid.uuid4().hex}.tmp")
            with tmp.open("wb") as f:
                pickle.dump((art, library), f, protocol=pickle.HIGHEST_PROTOCOL)
            tmp.replace(path)  # whole or not at all
        except OSError as exc:  # a full or read-only disk: the demo runs, only slower next time
            log.info("looking-glass: the sim deck is not cached (%s)", exc)
    return art, library


def _sim_deck_stamp() -> str:
    """What the cached sim deck depends on: the deck's model and the code that draws,
    photographs and teaches it."""
    from companion.paths import models_dir

    package = Path(__file__).resolve().parents[3]  # companion/
    digest = hashlib.sha256()
    roots = [package / "games/looking_glass/vision", package / "sim", package / "vision/cards"]
    for f in sorted(p for root in roots for p in root.glob("*.py")):
        digest.update(f.read_bytes())
    digest.update((models_dir() / "looking-glass" / "deck.toml").read_bytes())
    return digest.hexdigest()[:16]


class FilmScene:
    """The `sim` camera's table: scripted rounds one after another, same deck, same camera,
    each on the next layout card of a shuffled stack (the engine plays each one once), with
    its simulated players tapping their hands in when the round's glass is empty (`taps`)."""

    def __init__(
        self, seed: int, first: int = 0, rounds: int = 5, cache_dir: Path | None = None
    ) -> None:
        self.seed = seed
        self.first = first
        self.rounds = rounds
        self.art, self.library = sim_deck(seed, cache_dir)
        self.layouts = sorted(ENGINE.layouts)
        np.random.default_rng([seed, 78]).shuffle(self.layouts)
        self._films: dict[int, Any] = {}
        """The round being played and the one before (each holds a camera's light, noise and
        stills, ~45 MB: a long session must not keep every round it played)."""
        self._lengths: list[int] = []
        self._hands: list[list[list[str]]] = []
        self._cond: Any = None
        self._cache: tuple[int, tuple[np.ndarray, Any]] | None = None
        self.gap = 8  # empty-table frames between rounds

    def demo_conditions(self) -> Any:
        """A friendly table for the demo (the benchmark covers the hard ones): a wooden table,
        the corner markers, a camera 0-10° off vertical, uneven light, a little noise.

        The camera frames the whole play area, all four corner markers included, as a rig
        is set up: the table's long side along the image's (yaw near 0° or 180°), from far
        enough (cards 100 px wide: the 640 x 490 mm between the markers' outer edges take
        1016 x 778 of 1280 x 960 px). The players' piles beside the glass reach past the
        markers' rectangle (they span some 740 x 600 mm with the glass), so the glass is
        turned 50-70° (or 230-250°) from the table's long side: the markers then lie in the
        gaps between the piles and the glass, never under a card."""
        from companion.games.looking_glass.vision.render import Conditions

        rng = np.random.default_rng([self.seed, 77])
        yaw = float(rng.choice([0.0, 180.0]) + rng.uniform(-5, 5))
        glass = -float(rng.choice([0.0, 180.0]) + rng.uniform(50, 70))
        return Conditions(
            tilt_deg=float(rng.uniform(0, 10)),
            yaw_deg=yaw,
            glass_angle_deg=glass,
            card_px=100.0,
            table_kind="wood",
            markers=True,
            noise_sigma=3.0,
            jpeg_quality=85,
        )

    def film(self, k: int) -> Any:
        """Round `k`'s film, built once and kept while it is played: what the demo camera
        shows, and what a benchmark or test replays the demo's own round from."""
        from companion.games.looking_glass.vision.render import RoundFilm

        if k not in self._films:
            if self._cond is None:
                self._cond = self.demo_conditions()
            # Rounds before the one before go first: built after, three films were alive at
            # once while the next one was drawn, and the server's peak passed 300 MB.
            for old in [n for n in self._films if n < k - 1]:
                del self._films[old]
            # Slower than the benchmark's films: a watchable game, and time for the camera.
            self._films[k] = RoundFilm(
                self.seed * 1000 + k,
                art=self.art,
                cond=self._cond,
                first=(self.first + k) % 2,
                hold=8,
                lead=40,
                layout_id=self.layouts[k % len(self.layouts)],
            )
        return self._films[k]

    def _length(self, k: int) -> int:
        while len(self._lengths) <= k:
            film = self.film(len(self._lengths))
            self._lengths.append(len(film))
            self._hands.append([list(h) for h in film.hands])
        return self._lengths[k]

    @functools.cached_property
    def taps(self) -> list[Tap]:
        """Each seat taps its hand in on its phone once the round's last pick is made (the
        film's last frame), for the rounds a match can last."""
        out, start = [], 0
        for k in range(self.rounds):
            end = start + self._length(k) - 1
            out += [
                Tap(
                    end / SIM_FPS,
                    seat,
                    EnterHand(cards=self._hands[k][seat]).model_dump(mode="json"),
                )
                for seat in (0, 1)
            ]
            start += self._length(k) + self.gap
        self._films.clear()  # built for their lengths only: the one being played comes back
        return out

    def frame(self, t: float) -> tuple[np.ndarray, Any]:
        i = int(t * SIM_FPS)
        if self._cache is None or self._cache[0] != i:
            k, j = 0, i
            while j >= self._length(k) + self.gap:
                j -= self._length(k) + self.gap
                k += 1
            film = self.film(k)
            if j < len(film):
                out = film.render(j)
            else:
                empty = film.camera.background.copy()  # the cards gathered for the next deal
                out = (empty, {"cards": [], "events": [], "round": k})
            self._cache = (i, out)
        image, truth = self._cache[1]
        return image, {**truth, "t": t}


def _point(p: Any) -> tuple[float, float]:
    return round(float(p[0]), 1), round(float(p[1]), 1)


def _card_seen(seen: Any) -> CardSeen:
    """A reader's card (`vision.read.SeenCard`) as the observation carries it."""
    return CardSeen(
        card=seen.card,
        center=_point(seen.center),
        covered=bool(seen.covered),
        confidence=round(float(seen.confidence), 3),
        position=seen.position,
        width_px=round(float(np.linalg.norm(seen.quad[1] - seen.quad[0])), 1),
        quad=tuple(_point(q) for q in seen.quad),
        # Not found in this frame, only inferred (from memory, from its reflection or from
        # the layout card): enough to keep a card alive, not to bring a taken one back.
        inferred=bool(seen.inferred),
    )


def make_table_game(settings: Any, session: Session) -> LookingGlassTable:
    return LookingGlassTable(settings, session)


def router() -> Any:
    from companion.games.looking_glass.table.web import router as build

    return build()


__all__ = ["PANEL_JS", "PUBLIC", "LookingGlassTable", "make_table_game", "router"]
