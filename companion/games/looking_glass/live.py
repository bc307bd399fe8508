"""The Looking Glass at the table: camera readings -> deal, picks, scores, on the dashboard.

How the engine is fed: the camera sees the glass, never the face-down hands. A stable view of
a fresh deal becomes an `lg.deal` event (glass only); each pick an `lg.pick` (who took which
card; the legality check is the camera's: the chosen card must have lain uncovered). Hands are
tapped in privately by each seat on their phone (`{"hand": [...]}`); when the glass is empty
and both hands are known they are revealed (`lg.reveal`) and the round scored (`lg.round`)
with the reference card (`scoring.score`), the tie going to the starter. For hints the round is
also replayed through the rules engine (`Deal` with unknown hands, then the picks), when the
layout card is one of the box's; the hint then sees exactly what `ENGINE.view(state, seat)`
gives that seat plus its own tapped-in hand.

The simulated camera plays scripted rounds (`render.RoundFilm`): hands over the table, cards
lifted and put back, bumps, blur. Its simulated players tap their hands in at the end of a
round, which reaches the game as `sim_taps` in the observation (real cameras have none).
"""

from __future__ import annotations

import logging
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import UserError
from companion.games.looking_glass.deck import BRAWLERS, load_deck
from companion.games.looking_glass.scoring import HAND_SIZE, round_winner, score
from companion.games.looking_glass.track import GlassTracker
from companion.live.table_game import (
    ANSWER_KIND,
    PUBLIC,
    QUESTION_KIND,
    EventDraft,
    Observation,
    Question,
    question_draft,
)
from companion.store import Event, Session
from companion.vision.stillness import StillnessMeter

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
PANEL_JS = Path(__file__).resolve().parents[2] / "web" / "static" / "games" / "looking-glass.js"
SIM_FPS = 4.0
"""Film frames per second of the simulated table (the camera may run faster)."""
OPTIONS = {"target", "first_player"}
MEMORY_FRAMES = 60


class LookingGlassTable:
    """One match at the table, event-sourced: `apply_event` is the only thing that changes what
    `view` shows; `update`/`correct` only decide."""

    game_id = "looking-glass"

    def __init__(self, settings: Any, session: Session) -> None:
        unknown = set(session.options) - OPTIONS
        if unknown:
            raise UserError(f"unknown option(s): {', '.join(sorted(unknown))} "
                            f"(known: {', '.join(sorted(OPTIONS))})")
        if len(session.seats) != 2:
            raise UserError("Reflections in the Looking Glass is played by exactly 2 seats")
        target = session.options.get("target", 3)
        first = session.options.get("first_player", 0)
        if not isinstance(target, int) or isinstance(target, bool) or not 1 <= target <= 5:
            raise UserError("option target must be a whole number of round wins, 1 to 5")
        if first not in (0, 1) or isinstance(first, bool):
            raise UserError("option first_player must be 0 or 1")
        self.settings = settings
        self.session = session
        self.target = target
        self.first = first
        self.deck = load_deck()
        self.tracker = GlassTracker()
        self._reader = None
        self._sim_library = None
        self._library_error: str | None = None
        self._prior: list[tuple[Any, int]] = []
        self._frame_no = 0
        self._stillness = StillnessMeter()
        self._turns: list[dict[str, Any]] = []
        """Picks seen and pairs asked about, in order, not booked yet. Whose turn a pick was
        depends on the picks before it, and a pair asked about may turn out not to have been
        taken at all: a pick after an open question waits for its answer. A question is shown
        only `ASK_AFTER_SECONDS` after it was asked, counted from the last frame that showed
        both its cards ("shown"); "pick" is set once it is known what was taken (None:
        nothing). A question names a seat ("seat"): its answer is the card that seat took,
        whether it chose it or got it as the reflection of the other's choice."""
        # -- the state (changed only in apply_event) --
        self.round_no = 0
        self.starter = first
        self.glass: dict[str, str] = {}
        self.present: set[str] = set()
        self.layout: str | None = None
        self.covered: dict[str, bool] = {}
        self.centres: dict[str, list[float]] = {}
        self.piles: list[Counter[str]] = [Counter(), Counter()]
        self.picks: list[dict[str, Any]] = []
        self.hands: list[list[str] | None] = [None, None]
        self.revealed = False
        self.results: list[dict[str, Any]] = []
        self.open_questions: dict[str, Question] = {}
        self.hints: list[dict[str, Any] | None] = [None, None]
        self.engine_state: Any = None
        self.history: list[dict[str, Any]] = []

    # -- the simulated table ---------------------------------------------------------
    def sim_scene(self, seed: int) -> Any:
        scene = FilmScene(seed, self.first)
        self._sim_library = scene.library
        return scene

    # -- perception (perception thread) ----------------------------------------------
    def _reader_for(self) -> Any:
        from companion.games.looking_glass.library import Library, default_library_path
        from companion.games.looking_glass.read import Reader

        lib = self._sim_library
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
            self._reader = Reader(lib)
        return self._reader

    def perceive(self, frame: Any, registration: Any) -> Observation:
        reader = self._reader_for()
        truth = getattr(frame, "truth", None) or {}
        taps = [e for e in truth.get("events", []) if e.get("kind") == "hands"]
        if reader is None:
            return Observation({"cards": [], "error": self._library_error, "sim_taps": taps}, 0.0)
        H = None
        ok = getattr(registration, "ok", False)
        if ok and getattr(registration, "camera_matrix", None) is None:
            H = registration.H_table_from_image
        reading = reader.verify(frame.image, reader.read(frame.image, H),
                                [c for c, _ in self._prior])
        self._remember(reading.cards)
        data = reading.to_json("frame")
        for c, seen in zip(data["cards"], reading.cards, strict=True):
            c["width_px"] = round(float(np.linalg.norm(seen.quad[1] - seen.quad[0])), 1)
            c["quad"] = [[round(float(v), 1) for v in p] for p in seen.quad]
            if (seen.scores.get("verified") or seen.scores.get("reflected")
                    or seen.scores.get("from_layout")):
                # Not found in this frame, only inferred (from memory, from its reflection or
                # from the layout card): enough to keep a card alive, not to bring a taken one
                # back.
                c["inferred"] = True
        # Remembered cards something lies over: not seen, but not seen gone either.
        data["hidden"] = [[round(float(v), 1) for v in c.center] for c in reading.hidden]
        data["sim_taps"] = taps
        data["still"] = self._stillness.still(frame.image)
        conf = float(np.mean([c["confidence"] for c in data["cards"]])) if data["cards"] else 0.0
        return Observation(data, conf)

    def _remember(self, cards: list[Any]) -> None:
        """The perceiver's own memory (not game state): every identified card seen in the
        last `MEMORY_FRAMES` frames, so one a hand hid can be looked for again after."""
        self._frame_no += 1
        kept = [(c, self._frame_no) for c in cards if c.card is not None]
        for old, seen in self._prior:
            if self._frame_no - seen > MEMORY_FRAMES:
                continue
            width = float(np.linalg.norm(old.quad[1] - old.quad[0]))
            if all(np.linalg.norm(c.center - old.center) >= 0.3 * width for c, _ in kept):
                kept.append((old, seen))
        self._prior = kept

    def annotate(self, image: np.ndarray, registration: Any, observation: Observation
                 ) -> np.ndarray:
        for c in observation.data.get("cards", []):
            quad = np.array(c.get("quad", []), np.int32)
            if len(quad) != 4:
                continue
            colour = (60, 200, 60) if not c["covered"] else (0, 160, 255)
            if c["card"] is None:
                colour = (0, 0, 255)
            cv2.polylines(image, [quad], True, colour, 2, cv2.LINE_AA)
        return image

    # -- deciding --------------------------------------------------------------------
    def active_seat(self, after: int | None = None) -> int:
        """Whose turn it is once the booked picks and `after` more are made (default: the
        picks and questions waiting to be booked, as if every question were a pick)."""
        after = len(self._turns) if after is None else after
        return self.starter if (len(self.picks) + after) % 2 == 0 else 1 - self.starter

    def match_over(self) -> bool:
        wins = self.wins()
        return max(wins) >= self.target

    def wins(self) -> list[int]:
        w = [0, 0]
        for r in self.results:
            w[r["winner"]] += 1
        return w

    def update(self, observation: Observation, now: float) -> list[EventDraft]:
        data = observation.data
        drafts: list[EventDraft] = []
        for tap in data.get("sim_taps", []):
            for seat in (0, 1):
                if self.hands[seat] is None and self.glass:
                    drafts.append(EventDraft.private(seat, "lg.hand", {
                        "seat": seat, "counts": dict(Counter(tap["hands"][seat]))}))
        if self.match_over():
            return drafts
        drafts += self._ask_held_back(now)
        if self.glass and not self.present and not self.revealed:
            return drafts + self._maybe_reveal(self.hands)
        if self.revealed and self.tracker.slots:
            self.tracker.reset()  # round scored: wait for the next deal on a fresh glass
        for change in self.tracker.observe(data, now):
            if change.kind == "deal":
                cards = {c["position"]: c for c in data["cards"]}
                drafts.append(EventDraft("lg.deal", {
                    "round": self.round_no + 1,
                    "glass": change.detail["glass"],
                    "layout": change.detail["layout"],
                    "covered": change.detail["covered"],
                    "centres": change.detail["centres"],
                    "card_px": self.tracker.card_px,
                }, snapshot=True))
                del cards
            elif change.kind == "identify":
                drafts.append(EventDraft("lg.identify", {"position": change.positions[0],
                                                         "card": change.detail["card"]}))
            elif change.kind == "pick":
                self._turns.append({"pick": (change.positions[0], change.positions[1],
                                             change.detail)})
            elif change.kind == "ask":
                a, b = change.positions
                seat = self.active_seat()
                together = int(change.detail.get("together", 1))
                why = (f"{together} pairs left the glass while the camera could not see. "
                       if together > 1 else "")
                # The seat rides in the id: the answer may come after later picks.
                q = Question(
                    f"pick-{seat}-{uuid.uuid4().hex[:8]}",
                    f"{why}Which card did {self.session.seats[seat]} take?",
                    [{"label": self._card_label(n), "value": n} for n in (a, b)]
                    + [{"label": "Neither: both are still on the table", "value": NOTHING_TAKEN}],
                )
                # Held back a moment: a hand resting over both cards looks the same, and
                # moves off before a real pick would be answered.
                hold = ASK_AFTER_SECONDS if together == 1 else ASK_AFTER_SECONDS_SEVERAL
                self._turns.append({"question": q, "pair": (a, b), "asked_at": now,
                                    "hold": hold, "seat": seat,
                                    "unread": self._ask_unread(a, b, seat, taker_known=False),
                                    "shown": False})
            elif change.kind == "withdraw":
                for turn in self._turns:
                    if set(turn.get("pair", ())) != set(change.positions) or "pick" in turn:
                        continue
                    turn["pick"] = None  # nothing was taken
                    if turn["shown"]:
                        # The question was wrong. Closing it is recorded like an answer,
                        # given by the camera (one never shown needs no closing).
                        drafts.append(EventDraft(ANSWER_KIND, {
                            "question": turn["question"].id, "answer": NOTHING_TAKEN,
                            "seat": None, "by": "camera: both cards are on the table again"}))
        for turn in self._turns:
            if _held_back(turn) and all(self.tracker.last_view.get(n) for n in turn["pair"]):
                # Both cards show in this frame, though the view is not steady yet (a hand
                # moves over other cards): not the moment to ask whether they were taken.
                turn["asked_at"] = now
        # Booked once, after every change of this view: a seat counts the picks before it.
        return drafts + self._book_turns()

    def _book_turns(self) -> list[EventDraft]:
        """The picks at the head of the queue, each for the seat whose turn it was, up to the
        first question not answered yet."""
        drafts: list[EventDraft] = []
        booked = 0
        while self._turns and "pick" in self._turns[0]:
            turn = self._turns.pop(0)
            pick = turn["pick"]
            if pick is None:
                continue  # a pair asked about that nobody took
            chosen, other, detail = pick
            seat = self.active_seat(after=booked)
            if turn.get("seat", seat) != seat:
                # The answer is the card the seat the question named took; that seat is not
                # the one whose turn it turned out to be (a pair asked about before was not
                # taken, or several pairs went in an unknown order), so it got that card as
                # the reflection of the other's choice.
                chosen, other = other, chosen
            drafts.append(self._pick_draft(chosen, other, detail, seat))
            if detail.get("order") != "asked":  # (an asked pair's unread card was asked then)
                drafts += self._ask_unread(chosen, other, seat)
            booked += 1
        return drafts

    def _ask_held_back(self, now: float) -> list[EventDraft]:
        drafts: list[EventDraft] = []
        for turn in self._turns:
            if _held_back(turn) and now - turn["asked_at"] >= turn["hold"]:
                turn["shown"] = True
                drafts += [question_draft(turn["question"]), *turn["unread"]]
        return drafts

    def _card_label(self, pos: str) -> str:
        card = self.glass.get(pos)
        if card is None:
            return f"the card the camera could not read ({pos})"
        return f"{self.deck.character(card).name} ({pos})"

    def _pick_draft(self, chosen: str, other: str, detail: dict[str, Any],
                    seat: int) -> EventDraft:
        """`order` says how the chosen card is known: "first-gone" (it left first), "asked"
        (the players said), or "self-linked": both cards left together and show the same
        character, so `position` is one of the pair, not seen to be the chosen one (the seat,
        the cards, the legality and the score are the same either way)."""
        return EventDraft("lg.pick", {
            "seat": seat,
            "position": chosen,
            "card": self.glass[chosen],
            "reflection": other,
            "reflection_card": self.glass[other],
            "illegal": bool(detail.get("illegal")),
            "order": detail.get("order"),
        }, snapshot=True)

    def _ask_unread(self, chosen: str, other: str, seat: int, *, taker_known: bool = True
                    ) -> list[EventDraft]:
        """A card of the pick that the camera never read: ask the players which it was."""
        drafts = []
        for pos, who in ((chosen, seat), (other, 1 - seat)):
            if self.glass.get(pos) is None:
                took = f" {self.session.seats[who]} took it." if taker_known else ""
                q = Question(f"card-{pos}-{uuid.uuid4().hex[:6]}",
                             f"Which card was at {pos}?{took}",
                             [{"label": c.name, "value": c.id} for c in self.deck.characters])
                drafts.append(question_draft(q))
        return drafts

    def _maybe_reveal(self, hands: list[list[str] | None]) -> list[EventDraft]:
        if any(h is None for h in hands) or self.present or not self.glass or self.revealed:
            return []
        if any(p.get("card") is None or p.get("reflection_card") is None for p in self.picks):
            return []  # a card the camera never read: wait for the players' answer
        piles = self.piles
        totals = []
        stacks = []
        for seat in (0, 1):
            s = score(piles[seat] + Counter(hands[seat]), self.deck)
            totals.append(s.total)
            stacks.append(s.to_json())
        winner = round_winner(totals, self.starter)
        return [
            EventDraft("lg.reveal", {"hands": [sorted(h) for h in hands]}),  # type: ignore[arg-type]
            EventDraft("lg.round", {"round": self.round_no, "totals": totals, "scores": stacks,
                                    "winner": winner, "starter": self.starter,
                                    "layout": self.layout}, snapshot=True),
        ]

    def _maybe_reveal_after(self, pos: str, card: str) -> list[EventDraft]:
        """The reveal, if the answer just given was the last thing the score waited for."""
        picks = [dict(p) for p in self.picks]
        for p in picks:
            if p["position"] == pos and p["card"] is None:
                p["card"] = card
            if p["reflection"] == pos and p["reflection_card"] is None:
                p["reflection_card"] = card
        saved = self.picks
        self.picks = picks
        try:
            return self._maybe_reveal(self.hands)
        finally:
            self.picks = saved

    def correct(self, payload: dict[str, Any], seat: int | None) -> list[EventDraft]:
        if "question" in payload:
            q = self.open_questions.get(str(payload["question"]))
            if q is None:
                raise UserError(f"no open question {payload['question']!r}")
            values = [c["value"] for c in q.choices]
            answer = payload.get("answer")
            if answer not in values:
                raise UserError(f"answer must be one of {values}")
            other = next((v for v in values if v != answer), None)
            drafts = [EventDraft(ANSWER_KIND, {"question": q.id, "answer": answer, "seat": seat})]
            if q.id.startswith("pick-"):
                if answer == NOTHING_TAKEN:
                    self.tracker.withdraw(*[v for v in values if v != NOTHING_TAKEN])
                    pick = None
                else:
                    change = self.tracker.resolve(str(answer))
                    pick = (str(answer), other,
                            {"order": "asked", "illegal": change.detail["illegal"]})
                turn = next((t for t in self._turns
                             if "question" in t and t["question"].id == q.id), None)
                if turn is None:
                    # Asked before a restart: the queue is gone, the seat rides in the id.
                    seat = q.id.split("-")[1]
                    if pick is not None and seat in ("0", "1"):
                        drafts.append(self._pick_draft(*pick, int(seat)))
                else:
                    turn["pick"] = pick
                    drafts += self._book_turns()
            elif q.id.startswith("card-"):
                pos = q.id.split("-", 1)[1].rsplit("-", 1)[0]
                drafts.append(EventDraft("lg.identify", {"position": pos, "card": answer}))
                drafts += self._maybe_reveal_after(pos, str(answer))
            return drafts
        if "hand" in payload:
            if seat is None:
                raise UserError("a hand belongs to a seat: open your seat link")
            cards = payload["hand"]
            if not isinstance(cards, list) or len(cards) != HAND_SIZE:
                raise UserError(f"a hand is a list of {HAND_SIZE} card ids")
            for cid in cards:
                if not isinstance(cid, str) or cid not in self.deck.ids:
                    raise UserError(f"unknown card id {cid!r} (known: {', '.join(self.deck.ids)})")
                if cid in BRAWLERS:
                    raise UserError(f"{cid} is a Brawler; Brawlers are never dealt to a hand")
            if not self.glass:
                raise UserError("no round is being played: deal the Looking Glass first")
            # Counts, not a list: the same ids are public on the glass, the hand is not.
            drafts = [EventDraft.private(seat, "lg.hand", {"seat": seat,
                                                          "counts": dict(Counter(cards))})]
            hands = list(self.hands)
            hands[seat] = sorted(cards)
            return drafts + self._maybe_reveal(hands)
        if payload.get("hint"):
            if seat is None:
                raise UserError("a hint is private to a seat: open your seat link")
            return [EventDraft.private(seat, "lg.hint", {"seat": seat, **self._hint(seat)},
                                       once=True)]
        raise UserError("a correction needs one of: question+answer, hand, hint")

    def _hint(self, seat: int) -> dict[str, Any]:
        from companion.games.looking_glass.hint import hint_from_view
        from companion.games.looking_glass.rules import ENGINE

        if self.engine_state is None:
            return {"error": "no hint: the layout is not one of the box's, or the round is "
                             "not being played"}
        view = ENGINE.view(self.engine_state, seat)
        if view.get("phase") != "pick" or view.get("to_move") != seat:
            return {"error": "no hint: it is not your turn"}
        if self.hands[seat] is not None and view["round"].get("hand") is None:
            view["round"]["hand"] = list(self.hands[seat])  # type: ignore[index]
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
            self.round_no = int(p["round"])
            self.starter = self.first if self.round_no % 2 == 1 else 1 - self.first
            self.glass = dict(p["glass"])
            self.present = set(self.glass)
            self.layout = p.get("layout")
            self.covered = dict(p.get("covered", {}))
            self.centres = dict(p.get("centres", {}))
            self.piles = [Counter(), Counter()]
            self.picks = []
            self.hands = [None, None]
            self.hints = [None, None]
            self.revealed = False
            if not self.tracker.slots:
                self._restore_tracker(p)
            self._engine_deal()
            self.history.append({"kind": "deal", "round": self.round_no, "layout": self.layout})
        elif kind == "lg.identify":
            pos, card = p["position"], p["card"]
            self.glass[pos] = card
            for pk in self.picks:
                for key, seat_of in (("card", pk["seat"]), ("reflection_card", 1 - pk["seat"])):
                    where = pk["position"] if key == "card" else pk["reflection"]
                    if where == pos and pk[key] is None:
                        pk[key] = card
                        self.piles[seat_of][card] += 1
            slot = self.tracker.slots.get(pos)
            if slot is not None and slot.card is None:
                slot.card = card
                if slot.present is None and pos in self.present:
                    slot.present = True
        elif kind == "lg.pick":
            seat = int(p["seat"])
            self.present.discard(p["position"])
            self.present.discard(p["reflection"])
            if p["card"] is not None:
                self.piles[seat][p["card"]] += 1
            if p["reflection_card"] is not None:
                self.piles[1 - seat][p["reflection_card"]] += 1
            self.picks.append(dict(p))
            self.hints = [None, None]
            for n in (p["position"], p["reflection"]):
                if n in self.tracker.slots:
                    self.tracker.slots[n].present = False
            self._engine_pick(seat, p["position"])
            self.history.append({"kind": "pick", "round": self.round_no, **p})
        elif kind == "lg.hand":
            self.hands[int(p["seat"])] = sorted(Counter(p["counts"]).elements())
        elif kind == "lg.hint":
            self.hints[int(p["seat"])] = dict(p)
        elif kind == "lg.reveal":
            self.hands = [list(h) for h in p["hands"]]
            self.revealed = True
        elif kind == "lg.round":
            self.results.append(dict(p))
            self.revealed = True
            self.engine_state = None
            self.history.append({"kind": "round", **p})
        elif kind == QUESTION_KIND:
            self.open_questions[p["id"]] = Question(p["id"], p["text"], p["choices"], p["seat"])
        elif kind == ANSWER_KIND:
            self.open_questions.pop(p["question"], None)

    def _restore_tracker(self, p: dict[str, Any]) -> None:
        """After a restart the tracker's memory is rebuilt from the recorded deal."""
        cards = [{"position": n, "card": c, "center": p["centres"].get(n, [0, 0]),
                  "covered": p["covered"].get(n, False)} for n, c in p["glass"].items()]
        # (a card not read at the deal comes back as unknown, as it was)
        self.tracker.start({"cards": cards, "layout": p.get("layout")})
        if p.get("card_px"):
            self.tracker.card_px = float(p["card_px"])

    def _engine_deal(self) -> None:
        from companion.games.base import IllegalAction
        from companion.games.looking_glass.actions import Deal, Setup
        from companion.games.looking_glass.rules import ENGINE

        self.engine_state = None
        if self.layout is None:
            return
        brawlers = any(c in BRAWLERS for c in self.glass.values())
        try:
            st = ENGINE.new_game(2, {"brawlers": brawlers})
            st = ENGINE.apply(st, Setup((self.layout,), self.starter))
            self.engine_state = ENGINE.apply(st, Deal.of(self.glass, layout=self.layout))
        except (IllegalAction, ValueError, TypeError, UserError):
            self.engine_state = None

    def _engine_pick(self, seat: int, position: str) -> None:
        from companion.games.base import IllegalAction
        from companion.games.looking_glass.actions import Pick
        from companion.games.looking_glass.rules import ENGINE

        if self.engine_state is None:
            return
        try:
            self.engine_state = ENGINE.apply(self.engine_state, Pick(seat, position))
        except (IllegalAction, ValueError):
            self.engine_state = None  # an illegal pick: the engine cannot follow this round

    # -- what each seat sees -----------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        legal = [n for n in sorted(self.present) if not self._covered_now(n)]
        self_linked = sorted({n for n in self.present if self.glass.get(n) is not None
                              and self.glass.get(_refl(n)) == self.glass.get(n)})
        running = []
        for s in (0, 1):
            running.append(score(self.piles[s], self.deck).total)
        deck = self.deck
        grids = []
        for s in (0, 1):
            grid = {"sun": [], "moon": [], "brawlers": []}
            for c in deck.characters:
                team = c.team if c.team != "brawler" else "brawlers"
                grid[team].append({"card": c.id, "name": c.name, "count": self.piles[s][c.id]})
            grids.append(grid)
        out: dict[str, Any] = {
            "panel": "looking-glass",
            "seat": seat,
            "seats": list(self.session.seats),
            "round": self.round_no,
            "starter": self.starter,
            "to_move": self.active_seat() if self.present else None,
            "layout": self.layout,
            "glass": [{"position": n, "card": self.glass[n], "present": n in self.present,
                       "covered": self._covered_now(n) if n in self.present else None,
                       "center": self.centres.get(n)} for n in sorted(self.glass)],
            "legal": legal,
            "self_linked": self_linked,
            "piles": grids,
            "running_scores": running,
            "picks": [{k: v for k, v in p.items()} for p in self.picks],
            "illegal": [p for p in self.picks if p.get("illegal")],
            "results": list(self.results),
            "wins": self.wins(),
            "target": self.target,
            "match_over": self.match_over(),
            "hands_public": [list(h) for h in self.hands] if self.revealed else None,
            "library": self._library_error,
            "waiting": self._waiting(),
        }
        if seat in (0, 1):
            out["my_hand"] = self.hands[seat]
            out["my_hint"] = self.hints[seat]
            out["hint_available"] = self.engine_state is not None
        return out

    def _waiting(self) -> str | None:
        """What the companion waits for, for the players to fix or answer: a glass in view
        it does not follow, or picks it saw but cannot book before a question is answered."""
        held = sum(1 for t in self._turns if t.get("pick"))
        if held and any(t.get("shown") and "pick" not in t for t in self._turns):
            picks = "1 pick seen since then waits" if held == 1 else (
                f"{held} picks seen since then wait")
            return (f"Please answer the open question: {picks} for it, because whose turn "
                    "it was depends on the answer.")
        unread = self.tracker.unread_pairs
        if self.tracker.slots or not unread:
            return None
        return (f"Not following this glass yet: no card can be read at {', '.join(unread)}. "
                "If cards lie there, a glare or a shadow hides them (move the lamp or the "
                "camera); if they were taken already, the round started unseen: start "
                "from the next deal.")

    def _covered_now(self, name: str) -> bool:
        covers = self.tracker.covers
        if covers is not None and name in covers:
            return any(o in self.present for o in covers[name])
        return bool(self.covered.get(name, False)) and any(
            o in self.present for o in self._outer_neighbours(name))

    def _outer_neighbours(self, name: str) -> list[str]:
        half, row, col = _parse(name)
        out = []
        for n in self.present:
            h2, r2, c2 = _parse(n)
            if h2 == half and r2 == row + 1 and abs(c2 - col) < 2:
                out.append(n)
        # Columns of an unknown layout are the reader's own: fall back on the flag alone.
        return out or ([name] if self.covered.get(name) else [])


def _held_back(turn: dict[str, Any]) -> bool:
    """A turn whose question is neither shown nor settled yet."""
    return "question" in turn and not turn["shown"] and "pick" not in turn


def _parse(name: str) -> tuple[str, int, int]:
    half, r, c = name.split("-")
    return half, int(r[1:]), int(c[1:])


def _refl(name: str) -> str:
    half, rest = name.split("-", 1)
    return ("B" if half == "A" else "A") + "-" + rest


class FilmScene:
    """The `sim` camera's table: scripted rounds one after another, same deck, same camera."""

    def __init__(self, seed: int, first: int = 0) -> None:
        from companion.games.looking_glass.sim_deck import taught_sim_deck

        self.seed = seed
        self.first = first
        self.art, _, self.library, _ = taught_sim_deck(seed)
        self._films: dict[int, Any] = {}
        """The round being played and the one before (each holds a camera's light, noise and
        stills, ~45 MB: a long session must not keep every round it played)."""
        self._lengths: list[int] = []
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
        from companion.games.looking_glass.render import Conditions

        rng = np.random.default_rng([self.seed, 77])
        yaw = float(rng.choice([0.0, 180.0]) + rng.uniform(-5, 5))
        glass = -float(rng.choice([0.0, 180.0]) + rng.uniform(50, 70))
        return Conditions(tilt_deg=float(rng.uniform(0, 10)), yaw_deg=yaw,
                          glass_angle_deg=glass, card_px=100.0,
                          table_kind="wood", markers=True, noise_sigma=3.0, jpeg_quality=85)

    def _film(self, k: int) -> Any:
        from companion.games.looking_glass.render import RoundFilm

        if k not in self._films:
            if self._cond is None:
                self._cond = self.demo_conditions()
            # Rounds before the one before go first: built after, three films were alive at
            # once while the next one was drawn, and the server's peak passed 300 MB.
            for old in [n for n in self._films if n < k - 1]:
                del self._films[old]
            # Slower than the benchmark's films: a watchable game, and time for the camera.
            self._films[k] = RoundFilm(self.seed * 1000 + k, art=self.art, cond=self._cond,
                                       first=(self.first + k) % 2, hold=8, lead=40)
        return self._films[k]

    def _length(self, k: int) -> int:
        while len(self._lengths) <= k:
            self._lengths.append(len(self._film(len(self._lengths))))
        return self._lengths[k]

    def frame(self, t: float) -> tuple[np.ndarray, Any]:
        i = int(t * SIM_FPS)
        if self._cache is not None and self._cache[0] == i:
            return self._cache[1]
        k, j = 0, i
        while j >= self._length(k) + self.gap:
            j -= self._length(k) + self.gap
            k += 1
        film = self._film(k)
        if j < len(film):
            out = film.render(j)
        else:
            empty = film.camera.background.copy()  # the cards gathered for the next deal
            out = (empty, {"cards": [], "events": [], "round": k})
        self._cache = (i, out)
        return out


def make_table_game(settings: Any, session: Session) -> LookingGlassTable:
    return LookingGlassTable(settings, session)


def router() -> Any:
    from companion.games.looking_glass.web import router as build

    return build()


__all__ = ["PANEL_JS", "PUBLIC", "LookingGlassTable", "make_table_game", "router"]
