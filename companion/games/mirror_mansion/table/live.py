"""Mirror Mansion at the table: the camera reads the box, the engine keeps the game.

Event-sourced like every table game (`companion.live.table_game`): `update` and `correct`
only decide and return drafts; `apply_event` is the one place the state changes, live and
on replay. What the camera contributes:

- the set-up's mirrors and window, once the motifs have been tapped in on the dashboard;
- the window card's swap (a stable reading with the magenta dot elsewhere);
- in the door variant, where the neighbour put the door;
- the swaps: counted from stable readings only (hands away, the same reading for several
  frames), as the fewest moves from the engine's own board to the stable reading now,
  judged by the engine at once (a breach is flagged once, the moment it is stable), and
  committed to the engine when the player calls "make your guesses". Counting from the
  engine's board, not from an earlier reading, means the table and the engine cannot
  drift apart unnoticed: a difference outside the swaps is one breach, and the admin's
  "the table is right" takes the table's arrangement as the truth.

Between turns the table changes in the ways the rules allow: the window card trades places
with a castle card (the next turn's window swap), the door is lifted and placed again by
the neighbour, a card is pulled and put back after the look. Mirrors the next player moves
before the die is tapped are counted as that turn's swaps when the swaps open. When the
phase changes without the camera seeing anything new (a tap, the look), the stable reading
is judged again for the new phase, so a window swap made while the last turn was still
being scored is not lost.

The `sim` camera plays `render.table_film`: a game played by the engine first, whose
players tap the die, the call, the guesses and the look through the live loop's corrections
(`Film.taps`), as phones do.

The players enter the die (or the named motif), their guesses (each on their own phone,
private until all have guessed) and the look; the companion's prediction stays hidden until
the look, then the dashboard shows what the window saw, the path of the light over the
live image, who guessed right and the drops. A hint (the solver's fewest swaps) is given
only when the active player asks, and only to them.
"""

from __future__ import annotations

from collections import deque
from itertools import pairwise
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import UserError
from companion.games.base import IllegalAction
from companion.games.mirror_mansion.rules.actions import (
    Award,
    ConfirmCard,
    EndSwaps,
    Guess,
    Look,
    Name,
    PlaceDoor,
    Roll,
    Setup,
    SwapWindow,
    TurnBox,
    action_from_json,
    action_to_json,
)
from companion.games.mirror_mansion.rules.board import FACINGS, SLOTS, Board, load_board
from companion.games.mirror_mansion.rules.engine import ENGINE
from companion.games.mirror_mansion.rules.game_state import (
    DOOR,
    GUESS,
    LOOK,
    OVER,
    SETUP,
    SWAPS,
    WINDOW,
)
from companion.games.mirror_mansion.rules.optics import Door, Mirror, trace
from companion.games.mirror_mansion.rules.state_json import board_state_to_json
from companion.games.mirror_mansion.table.messages import (
    UNSEEN,
    Answer,
    BoxObservation,
    CallGuesses,
    EnterCards,
    EnterGuess,
    EnterRoll,
    NameMotif,
    PoseSeen,
    RequestHint,
    TableIsRight,
    TakeLook,
    parse,
)
from companion.games.mirror_mansion.table.track import StableBox, is_complete, judge_swaps
from companion.games.mirror_mansion.vision.film_script import box_of
from companion.games.mirror_mansion.vision.scene import BoxState, MirrorSeen
from companion.games.mirror_mansion.vision.stickers import DEFAULT_STICKERS
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
from companion.live.words import players_words
from companion.store import Event, Session

PANEL_JS = Path(__file__).with_name("panel.js")
SIM_FPS = 4.0
ASK_AFTER_FRAMES = 12
"""Readings in a row with a mirror whose facing is unknown before the players are asked."""
YAW_READINGS = 5
"""Readings of the box's turn in the image that must agree before the turn counts."""
YAW_STEADY_DEG = 4.0
YAW_SLACK_DEG = 20.0
"""A turn of the box counts when it is within this of a whole number of quarter turns."""
PENDING_RULES = {
    "swap at least once",
    "swap at least one mirror",
    "at least one mirror must end in a slot in line with the window card",
}
"""Rules the swaps may still come to satisfy: shown as "to do", not flagged as a breach."""
RULE_STAY_PUT = 'the mirrors stay put after "make your guesses"'


def motif_words(motif: str) -> str:
    """A motif as the players call it: the model's ids are hyphenated ("teddy-bear")."""
    return motif.replace("-", " ")


_SIDE_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}
_ENDS = {
    "N": ("west", "east"),
    "S": ("west", "east"),
    "E": ("north", "south"),
    "W": ("north", "south"),
}
"""Which way a side's card positions count (`Board.positions`): N, S west to east; E, W north
to south."""


def place_words(board: Board, position: str) -> str:
    """A card position said as a player would point at it, not as its code ("E2")."""
    side, i = position[0], int(position[1])
    first, last = _ENDS[side]
    where = _SIDE_WORDS[side]
    if i == 0:
        return f"the {first} end of the {where} side"
    if i == board.size - 1:
        return f"the {last} end of the {where} side"
    if board.size % 2 == 1 and i == board.size // 2:
        return f"the middle of the {where} side"
    return f"the {where} side, card {i + 1} from the {first}"


class MirrorMansionTable:
    game_id = "mirror-mansion"

    def __init__(self, settings: Any, session: Session) -> None:
        self.state = start_state(ENGINE, session, "Mirror Mansion")
        self.settings = settings
        self.session = session
        self.board: Board = load_board()
        # The sticker colours from the settings (`[stickers]` in the config file).
        self.stickers = getattr(settings, "stickers", None) or DEFAULT_STICKERS
        # -- the state (changed only in apply_event) --
        self.cards: dict[str, str] | None = None
        self.seen: BoxState | None = None
        self.verdict: dict[str, Any] | None = None
        self.corrections = 0
        """How many times the table was declared right (part of what the tracker judged)."""
        self.breaches: list[dict[str, Any]] = []
        self.looks: list[dict[str, Any]] = []
        self.hints: dict[int, dict[str, Any]] = {}
        self.facing_answers: dict[str, str] = {}
        self.window_answer: str | None = None
        self.box_yaw: float | None = None
        """The board's turn in the image when the box's turn was last recorded."""
        self._window_asks = 0
        self.open_questions: dict[str, Question] = {}
        self._overlay_path: tuple[tuple[float, float], ...] = ()
        """The last look's light path for `annotate`, which runs on the perception thread:
        replaced as a whole (an atomic assignment), never changed in place."""
        # -- tracker memory (never shown; rebuilt from frames after a restart) --
        self.tracker = StableBox(self.board)
        self._unsure: int = 0
        self._no_window: int = 0
        self._yaws: deque[float] = deque(maxlen=YAW_READINGS)
        self._judged: tuple[Any, ...] | None = None
        """(turn, phase, corrections, reading) last judged: a phase change judges again."""

    @property
    def table_markers(self) -> tuple[int, ...]:
        """The box is located by its own corner markers, not the table's (status bar)."""
        return tuple(m.id for m in self.board.markers)

    # -- the simulated table -----------------------------------------------------------
    def sim_scene(self, seed: int) -> Any:
        from companion.games.mirror_mansion.vision.render import table_film

        camera = getattr(self.settings, "camera", None)
        size = (camera.width, camera.height) if camera is not None else (1280, 960)
        return table_film(
            self.board,
            seed,
            size=size,
            players=self.state.players,
            options=dict(self.session.options),
        )

    # -- perception (perception thread: reads settings and models only) ----------------
    def perceive(self, frame: Any, registration: Any) -> Observation:
        from companion.games.mirror_mansion.vision.perceive import read_frame
        from companion.vision.board_pose import Calibration

        markers = getattr(registration, "markers", None) or None
        calibration = Calibration.of(registration)
        reading, pose = read_frame(frame.image, self.board, self.stickers, calibration, markers)
        data = BoxObservation(box=reading)
        if pose is not None:
            ends = pose.project(np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]))
            d = ends[1] - ends[0]
            data = BoxObservation(
                box=reading,
                yaw_deg=float(np.degrees(np.arctan2(d[1], d[0]))),
                pose=PoseSeen(
                    K=pose.K.tolist(),
                    rvec=pose.rvec.ravel().tolist(),
                    tvec=pose.tvec.ravel().tolist(),
                ),
            )
        confs = [m.confidence for m in reading.mirrors]
        conf = 0.0 if not reading.seen else min([1.0, *confs])
        return Observation(data, conf)

    def annotate(
        self, image: np.ndarray, registration: Any, observation: Observation
    ) -> np.ndarray:
        """The pieces as read, and after a look the path the light took."""
        seen = _box_observation(observation)
        pose = seen.pose
        if pose is None:
            return image
        K = np.asarray(pose.K, float)
        rvec, tvec = np.asarray(pose.rvec, float), np.asarray(pose.tvec, float)

        def px(x: float, y: float, h: float) -> tuple[int, int]:
            p, _ = cv2.projectPoints(np.array([[x, y, -h]], float), rvec, tvec, K, None)
            return int(p[0, 0, 0]), int(p[0, 0, 1])

        b = self.board
        box = seen.box
        for m in box.mirrors:
            a, c = b.slot_segment_mm(m.cell, m.slot)
            # The legend's swatches (#3cc83c, #ffa000): an amber nearer yellow read as the
            # light path, which is drawn only after a look.
            color = (60, 200, 60) if m.facing else (0, 160, 255)
            cv2.line(image, px(*a, b.mirror_height_mm), px(*c, b.mirror_height_mm), color, 2)
        if box.window:
            cv2.circle(image, px(*b.card_mm(box.window), b.card_height_mm), 12, (255, 0, 255), 2)
        path = self._overlay_path  # one immutable tuple, swapped whole by apply_event
        if path:
            pts = [px(x, y, b.mirror_height_mm / 2) for x, y in path]
            for p, q in pairwise(pts):
                cv2.line(image, p, q, (0, 255, 255), 3, cv2.LINE_AA)
        return image

    # -- deciding ----------------------------------------------------------------------
    def _reading(self, observation: Observation) -> BoxState:
        """The reading, completed with the players' answers (a facing, the window)."""
        box = _box_observation(observation).box
        if not box.seen:
            return BoxState(seen=False)
        window = box.window if box.window is not None else self.window_answer
        mirrors = []
        for m in box.mirrors:
            answer = self.facing_answers.get(_answer_key(m))
            if m.facing is None and answer is not None:
                # A facing names its slot too (the players' answer settles an unsure slot).
                slot = next(s for s in SLOTS if answer in FACINGS[s])
                m = MirrorSeen(m.cell, slot, answer, 0.5)
            mirrors.append(m)
        return BoxState(tuple(mirrors), window, box.door, box.warnings)

    def update(self, observation: Observation, now: float) -> list[EventDraft]:
        reading = self._reading(observation)
        drafts = self._ask_if_unsure(reading)
        yaw = _box_observation(observation).yaw_deg
        if reading.seen and yaw is not None:
            self._yaws.append(yaw)
        drafts += self._box_turn()
        new = self.tracker.update(reading, now)
        if new is None:
            if self.seen is None or self._judge_key(self.seen) == self._judged:
                return drafts
            # The phase changed (a tap) with the table still: judge the reading again.
            self._judged = self._judge_key(self.seen)
            return drafts + self._camera_moves(self.seen)
        seen = {"box": new.to_json(), "yaw": self._steady_yaw()}
        drafts.append(EventDraft("mm.seen", seen, snapshot=True))
        self._judged = self._judge_key(new)
        return drafts + self._camera_moves(new)

    def _judge_key(self, box: BoxState) -> tuple[Any, ...]:
        s = self.state
        return (s.turn, s.phase, self.corrections, box.layout_key())

    def _steady_yaw(self) -> float | None:
        """The box's turn in the image, when the last few readings agree on it."""
        if len(self._yaws) < YAW_READINGS:
            return None
        ys = np.unwrap(np.radians(list(self._yaws)))
        if np.degrees(ys.max() - ys.min()) > YAW_STEADY_DEG:
            return None
        return float(np.degrees(np.median(ys)))

    def _box_turn(self) -> list[EventDraft]:
        """Masters' variant: the box turned by quarter turns when the window card is swapped
        or before the look, seen as the board's turn in the (fixed) camera's image."""
        s = self.state
        yaw = self._steady_yaw()
        if (
            not s.options.masters
            or s.phase not in (WINDOW, LOOK)
            or s.box_turned
            or yaw is None
            or self.box_yaw is None
        ):
            return []
        d = (yaw - self.box_yaw + 180.0) % 360.0 - 180.0
        k = round(d / 90.0)
        if k % 4 == 0 or abs(d - 90.0 * k) > YAW_SLACK_DEG:
            return []
        return self._try(TurnBox(k % 4), yaw=yaw)

    def _ask_if_unsure(self, reading: BoxState) -> list[EventDraft]:
        drafts = self._ask_window(reading)
        unknown = [m for m in reading.mirrors if m.facing is None]
        self._unsure = self._unsure + 1 if unknown else 0
        if self._unsure < ASK_AFTER_FRAMES:
            return drafts
        m = unknown[0]
        which = "x" if not m.slot_sure else "a" if m.slot == "/" else "b"
        qid = f"facing-{m.cell[0]}-{m.cell[1]}-{which}"
        if qid in self.open_questions:
            return drafts
        where = f"row {m.cell[0] + 1}, column {m.cell[1] + 1}"
        if m.slot_sure:
            facings: tuple[str, ...] = FACINGS[m.slot]
            text = f"The mirror at {where} ({m.slot}): I cannot see its dot. "
        else:
            facings = tuple(f for s in SLOTS for f in FACINGS[s])
            text = (
                f"The mirror at {where}: I cannot tell which of the crossing's slots it stands in. "
            )
        choices = [{"label": f, "value": f} for f in facings]
        return [
            *drafts,
            question_draft(
                Question(
                    qid,
                    text + "Which way does its mirror face?",
                    choices,
                )
            ),
        ]

    def _ask_window(self, reading: BoxState) -> list[EventDraft]:
        """The window card's dot unseen for a while (Victor stands in front of it, say)."""
        hidden = reading.seen and reading.window is None
        self._no_window = self._no_window + 1 if hidden else 0
        qid = f"window-{self.state.turn}-{self._window_asks}"
        if self._no_window < ASK_AFTER_FRAMES or any(
            q.startswith("window-") for q in self.open_questions
        ):
            return []
        choices = [{"label": p, "value": p} for p in self.board.positions]
        return [
            question_draft(
                Question(
                    qid,
                    "I cannot see the window card's magenta dot. Where is the window card?",
                    choices,
                )
            )
        ]

    def _camera_moves(self, new: BoxState) -> list[EventDraft]:
        """Engine moves the camera saw, for the phase the game is in."""
        s = self.state
        if s.phase == SETUP:
            return self._setup_drafts(new, self.cards) if self.cards else []
        assert s.board is not None
        if s.phase == WINDOW and new.window not in (None, s.board.window):
            drafts = self._try(SwapWindow(new.window))
            if any(d.kind == "mm.action" for d in drafts):
                drafts.append(self._ask_revealed(new.window))
            return drafts
        if s.phase == DOOR and new.door is not None:
            return self._door_placed(new)
        if s.phase == SWAPS:
            return self._verdict_drafts(new)
        if s.phase in (GUESS, LOOK):
            board_now = {(m.cell, m.slot, m.facing) for m in s.board.mirrors}
            if {(m.cell, m.slot, m.facing) for m in new.mirrors} != board_now:
                return self._breach(
                    RULE_STAY_PUT,
                    "the mirrors on the table are not where they stood when the swaps were called",
                )
        return []

    def _door_placed(self, new: BoxState) -> list[EventDraft]:
        """The neighbour's door: placed where the camera now sees it once it stands
        somewhere new, or, when it is put back where it stood, once the mirrors start to
        move (the swaps come only after the door)."""
        assert new.door is not None and self.state.board is not None
        old = _placements(self._engine_box())
        seen = _placements(new)
        if seen[2] == old[2] and seen[0] == old[0]:
            return []  # nothing new yet: the neighbour may still be placing the door
        return self._try(PlaceDoor(new.door.cell, new.door.slot))

    def _breach(self, rule: str, detail: str) -> list[EventDraft]:
        """A breach, unless the same one is already shown for this turn; its detail names the
        players."""
        detail = players_words(detail, self.session.seats)
        if any(b["rule"] == rule and b["detail"] == detail for b in self._shown_breaches()):
            return []
        return [EventDraft("mm.breach", {"rule": rule, "detail": detail})]

    def _shown_breaches(self) -> list[dict[str, Any]]:
        return [b for b in self.breaches if b["turn"] == self.state.turn]

    def _ask_revealed(self, window: str) -> EventDraft:
        """The swap showed everyone the card now lying where the window was: ask the table to
        confirm its motif (the set-up tap as the first answer) or to correct it."""
        s = self.state
        assert s.board is not None
        revealed = s.board.window
        tapped = s.board.cards.get(window)
        # Motifs confirmed elsewhere are not offered: the engine keeps them where they are.
        after = ENGINE.apply(s, SwapWindow(window))
        assert after.board is not None
        taken = {
            after.board.cards[p] for p in after.confirmed - {revealed} if p in after.board.cards
        }
        others = [m for m in self.board.cards if m != tapped and m not in taken]
        choices = [
            {
                "label": f"{motif_words(m)} (as tapped in)" if m == tapped else motif_words(m),
                "value": m,
            }
            for m in ([tapped] if tapped else []) + others
        ]
        mover = self.session.seats[s.active] if s.active < len(self.session.seats) else None
        shows = f"the {motif_words(tapped)}" if tapped else "which motif"
        text = (
            f"{mover or 'The active player'} moved the window to "
            f"{place_words(self.board, window)}; does the card now at "
            f"{place_words(self.board, revealed)} show {shows}? Confirm, or tap the picture "
            "it shows."
        )
        return question_draft(Question(f"card-{s.turn}-{revealed}", text, choices))

    def _try(self, action: Any, yaw: float | None = None) -> list[EventDraft]:
        """The camera's move if the engine takes it, else a breach; `yaw` records the box's
        turn in the image the move was seen at (a turn of the box in the masters' variant)."""
        try:
            ENGINE.apply(self.state, action)
        except IllegalAction as exc:
            return self._breach(exc.rule, exc.detail)
        payload: dict[str, Any] = {"action": action_to_json(action)}
        if yaw is not None:
            payload["yaw"] = yaw
        return [EventDraft("mm.action", payload)]

    def _setup_drafts(self, new: BoxState, cards: dict[str, str]) -> list[EventDraft]:
        if new.window is None or new.window in cards:
            return self._breach(
                "set-up",
                f"the window card is at {new.window}, where a motif was tapped in: check the cards",
            )
        layout = {**cards, new.window: self.board.window_card}
        mirrors = tuple(
            sorted(Mirror(m.cell, m.slot, m.facing) for m in new.mirrors if m.facing is not None)
        )
        return self._try(Setup(tuple(sorted(layout.items())), mirrors, 0))

    def _engine_box(self) -> BoxState:
        """The engine's board as the camera would read it: where the swaps count from."""
        assert self.state.board is not None
        return box_of(self.state.board)

    def _verdict_drafts(self, now_box: BoxState) -> list[EventDraft]:
        """The swaps so far, from the engine's board to this stable reading; recorded only
        when they differ from those shown."""
        v = judge_swaps(ENGINE, self.state, self._engine_box(), now_box)
        payload = v.to_json()
        breach = v.breach is not None and v.breach.rule not in PENDING_RULES
        payload["pending"] = None if v.breach is None or breach else v.breach.rule
        if payload == self.verdict:
            return []
        drafts = [EventDraft("mm.swaps", payload)]
        if breach and v.breach is not None:
            drafts += self._breach(v.breach.rule, v.breach.detail)
        return drafts

    # -- corrections and dashboard input -------------------------------------------------
    def correct(self, payload: Correction, seat: int | None) -> list[EventDraft]:
        """One typed correction (`messages.Correction`; JSON is parsed into it first)."""
        match parse(payload):
            case Answer() as answer:
                return self._answer(answer, seat)
            case TableIsRight():
                return self._table_is_right(seat)
            case EnterCards(cards=cards):
                return self._cards(cards)
            case EnterRoll(value=value):
                self._only_active(seat)
                return self._apply_now(Roll(value))
            case NameMotif(motif=motif):
                self._only_neighbour(seat)
                return self._apply_now(Name(motif))
            case CallGuesses():
                self._only_active(seat)
                return self._call_guesses()
            case EnterGuess(jubilant=jubilant):
                if seat is None:
                    raise UserError("a guess belongs to a seat: open your seat link")
                ENGINE.apply(self.state, Guess(seat, jubilant))  # raises IllegalAction: 409
                return [EventDraft.private(seat, "mm.guess", {"seat": seat, "jubilant": jubilant})]
            case TakeLook(pulled=pulled):
                self._only_active(seat)
                return self._look(pulled)
            case RequestHint():
                return self._hint(seat)

    def _only_neighbour(self, seat: int | None) -> None:
        """The rulebook: "Your left-hand neighbour reminds Victor and names one of the ten
        motifs" (the die's question mark)."""
        if seat is not None and seat != self.state.neighbour:
            raise UserError(
                f"only the left-hand neighbour ({self.session.seats[self.state.neighbour]}) "
                "names the motif Victor forgot"
            )

    def _only_active(self, seat: int | None) -> None:
        if seat is not None and seat != self.state.active:
            raise UserError(
                f"only the active player ({self.session.seats[self.state.active]}) may do that"
            )

    def _apply_now(self, action: Any) -> list[EventDraft]:
        ENGINE.apply(self.state, action)  # IllegalAction reaches the caller: nothing recorded
        return [EventDraft("mm.action", {"action": action_to_json(action)})]

    def _cards(self, cards: dict[str, str]) -> list[EventDraft]:
        if self.state.phase != SETUP:
            raise UserError("the motifs are tapped in once, before the first turn")
        b = self.board
        bad = [p for p in cards if not b.is_position(p)]
        if bad:
            raise UserError(f"not card positions: {bad} (positions: {', '.join(b.positions)})")
        names = list(cards.values())
        if sorted(names) != sorted(b.cards):
            raise UserError(
                f"tap in each of the {len(b.cards)} motif cards once: {', '.join(b.cards)}"
            )
        drafts = [EventDraft("mm.cards", {"cards": dict(cards)})]
        if self.seen is not None:
            drafts += self._setup_drafts(self.seen, dict(cards))
        return drafts

    def _call_guesses(self) -> list[EventDraft]:
        s = self.state
        if s.phase != SWAPS or self.seen is None:
            raise UserError('"make your guesses" comes after the swaps')
        v = judge_swaps(ENGINE, s, self._engine_box(), self.seen)
        if v.breach is not None:
            raise IllegalAction(v.breach.rule, v.breach.detail)
        drafts = [EventDraft("mm.action", {"action": action_to_json(a)}) for a in v.swaps]
        drafts.append(EventDraft("mm.action", {"action": action_to_json(EndSwaps())}))
        return drafts

    def _look(self, pulled: str | None) -> list[EventDraft]:
        s = self.state
        if s.phase != LOOK or s.board is None:
            raise UserError("the look comes after the guesses")
        seen = trace(s.board, self.board)
        found = seen.seen is not None and seen.motif == s.sought
        if found and pulled is None:
            pulled = seen.seen
        look = Look(pulled if found else None)
        after = ENGINE.apply(s, look)
        award = Award(ENGINE.earned(after))
        return [
            EventDraft("mm.action", {"action": action_to_json(look)}, snapshot=True),
            EventDraft("mm.action", {"action": action_to_json(award)}),
        ]

    def _hint(self, seat: int | None) -> list[EventDraft]:
        from companion.games.mirror_mansion.rules.solver import solve

        s = self.state
        if seat is None or seat != s.active:
            raise UserError("a hint is for the active player, on their own seat link")
        if s.phase != SWAPS or s.board is None or s.sought is None:
            raise UserError("a hint is given during the swaps, once the motif is known")
        sol = solve(s.board, s.sought, door_movable=s.options.door, board=self.board)
        way = sol.ways[0] if sol.ways else None
        # Moves as bare arrays: [from, to, slot, facing].
        moves = (
            []
            if way is None
            else [[list(a.source), list(a.target), a.slot, a.facing] for a in way.swaps]
        )
        hint = {"seat": seat, "swaps": sol.swaps, "reason": sol.reason, "moves": moves}
        return [EventDraft.private(seat, "mm.hint", hint, once=True)]

    def _table_is_right(self, seat: int | None) -> list[EventDraft]:
        """The admin's "the table is right": the steady reading becomes the engine's board."""
        admin_only_table_is_right(seat)
        s = self.state
        if s.board is None:
            raise UserError(
                "before the set-up the camera's reading is the set-up: tap in the motifs"
            )
        whole = self.seen is not None and is_complete(self.seen, self.board)
        seen = steady_reading(self.seen if whole else None, "the whole box")
        mirrors = tuple(
            Mirror(m.cell, m.slot, m.facing) for m in seen.mirrors if m.facing is not None
        )
        door = None if seen.door is None else Door(seen.door.cell, seen.door.slot)
        assert seen.window is not None
        with taken_as_the_table("the board"):
            after = ENGINE.with_table(s, mirrors, seen.window, door)
        assert after.board is not None
        return [table_is_right_draft(board_state_to_json(after.board), seen.to_json())]

    def _answer(self, answer: Answer, seat: int | None) -> list[EventDraft]:
        q, answered = answer_draft(self.open_questions, answer, seat)
        drafts = [answered]
        if q.id.startswith("card-"):
            # The card the window swap revealed lies where the window was before it.
            action = ConfirmCard(q.id.split("-")[2], str(answer.answer))
            try:
                ENGINE.apply(self.state, action)
            except IllegalAction as exc:
                raise UserError(f"{exc.rule}: {exc.detail}") from None
            drafts.append(EventDraft("mm.action", {"action": action_to_json(action)}))
        return drafts

    # -- the state -----------------------------------------------------------------------
    def apply_event(self, event: Event) -> None:
        p, kind = event.payload, event.kind
        if kind == "mm.cards":
            self.cards = dict(p["cards"])
        elif kind == "mm.seen":
            self.seen = BoxState.from_json(p["box"])
            if self.box_yaw is None and p.get("yaw") is not None:
                self.box_yaw = float(p["yaw"])
        elif kind == "mm.action":
            self._apply_action(action_from_json(p["action"]))
            if p.get("yaw") is not None:
                self.box_yaw = float(p["yaw"])
        elif kind == "mm.swaps":
            self.verdict = dict(p)
        elif kind == TABLE_RIGHT_KIND:
            b = p["board"]
            door = b.get("door")
            self.state = ENGINE.with_table(
                self.state,
                tuple(
                    Mirror((m["cell"][0], m["cell"][1]), m["slot"], m["facing"])
                    for m in b["mirrors"]
                ),
                str(b["window"]),
                None if door is None else Door((door["cell"][0], door["cell"][1]), door["slot"]),
            )
            turn = self.state.turn
            self.breaches = [x for x in self.breaches if x["turn"] != turn]
            self.verdict = None
            self.corrections += 1
        elif kind == "mm.breach":
            self.breaches.append(
                {"rule": p["rule"], "detail": p["detail"], "turn": self.state.turn}
            )
        elif kind == "mm.guess":
            self.state = ENGINE.apply(self.state, Guess(int(p["seat"]), bool(p["jubilant"])))
        elif kind == "mm.hint":
            self.hints[int(p["seat"])] = dict(p)
        elif kind == QUESTION_KIND:
            self.open_questions[p["id"]] = Question.from_json(p)
        elif kind == ANSWER_KIND:
            q = self.open_questions.pop(p["question"], None)
            if q is not None and q.id.startswith("window-"):
                self.window_answer = str(p["answer"])
                self._window_asks += 1
            if q is not None and q.id.startswith("facing-"):
                _, r, c, which = q.id.split("-")
                slot = {"a": "/", "b": "\\"}.get(which, "?")
                self.facing_answers[f"{r},{c},{slot}"] = p["answer"]

    def _apply_action(self, action: Any) -> None:
        before = self.state
        self.state = ENGINE.apply(before, action)
        if isinstance(action, SwapWindow | Look):
            # A revealed card is confirmed before the look; the question then lapses.
            for qid in [q for q in self.open_questions if q.startswith("card-")]:
                del self.open_questions[qid]
        if isinstance(action, SwapWindow):
            self.verdict = None
            self.hints = {}
            self._overlay_path = ()
            self.window_answer = None
        elif isinstance(action, Look) and before.board is not None:
            t = trace(before.board, self.board)
            self.looks.append(
                {
                    "turn": before.turn,
                    "seat": before.active,
                    "sought": before.sought,
                    "seen": t.seen,
                    "motif": t.motif,
                    "blocked_by": t.blocked_by,
                    "path": [s.to_json() for s in t.steps],
                    "path_mm": self._path_mm(t, before.board.window),
                    "guesses": list(before.guesses),
                }
            )
            self._overlay_path = tuple((x, y) for x, y in self.looks[-1]["path_mm"])
        elif isinstance(action, Award) and self.looks:
            look = self.looks[-1]
            found = self.state.last_turn["look"]["found"] if self.state.last_turn else None
            look["found"] = found
            look["drops"] = list(action.drops)
            look["right"] = [
                s for s, g in enumerate(look["guesses"]) if g is not None and g == found
            ]

    def _path_mm(self, t: Any, window: str) -> list[list[float]]:
        pts = [list(self.board.card_mm(window))]
        pts += [list(self.board.crossing_mm(s.cell)) for s in t.steps]
        if t.position is not None and t.blocked_by is None:
            pts.append(list(self.board.card_mm(t.position)))
        return pts

    def _table_differs(self) -> bool:
        """Whether the steady reading differs from the engine's board once the swaps are
        called, when nothing on the table may move (before that, a difference is the window
        swap, the door or the swaps in progress): the dashboard then offers the admin
        "the table is right"."""
        s = self.state
        if s.board is None or self.seen is None or s.phase not in (GUESS, LOOK, OVER):
            return False
        return _placements(self.seen) != _placements(self._engine_box())

    # -- what each seat sees -------------------------------------------------------------
    def questions(self, seat: int | None) -> list[Question]:
        return [q for q in self.open_questions.values() if q.seat is None or q.seat == seat]

    def view(self, seat: int | None) -> dict[str, Any]:
        v = ENGINE.view(self.state, seat)
        v.pop("prediction", None)  # hidden until the look: it would spoil the guessing
        turn = self.state.turn
        v.update(
            {
                "seats": list(self.session.seats),
                "cards_tapped": self.cards is not None,
                "cards": self.cards,
                "seen": None if self.seen is None else self.seen.to_json(),
                "swaps": self.verdict if self.state.phase in (SWAPS, GUESS, LOOK) else None,
                "breaches": [b for b in self.breaches if b["turn"] == turn],
                "table_differs": self._table_differs(),
                "looks": self.looks[-5:],
                "hint": self.hints.get(seat) if seat is not None else None,
                "positions": list(self.board.positions),
                "places": {p: place_words(self.board, p) for p in self.board.positions},
                "motifs": list(self.board.cards),
            }
        )
        return v


def _box_observation(observation: Observation) -> BoxObservation:
    """The typed reading of a frame; the loop's `{"error": ...}` (the perceiver raised)
    is a frame without the box."""
    data = observation.data
    return data if isinstance(data, BoxObservation) else UNSEEN


def _placements(box: BoxState) -> tuple[Any, ...]:
    door = None if box.door is None else (box.door.cell, box.door.slot)
    return (frozenset((m.cell, m.slot, m.facing) for m in box.mirrors), box.window, door)


def make_table_game(settings: Any, session: Session) -> MirrorMansionTable:
    return MirrorMansionTable(settings, session)


def router() -> Any:
    from companion.games.mirror_mansion.table.web import router as build

    return build()


def _answer_key(m: MirrorSeen) -> str:
    """Where the players' answer about a mirror's facing is kept: its crossing and slot, or
    "?" for a slot the camera could not tell (the question then offered all four facings)."""
    return f"{m.cell[0]},{m.cell[1]},{m.slot if m.slot_sure else '?'}"
