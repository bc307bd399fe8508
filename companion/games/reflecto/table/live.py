"""Reflecto at the table: secret words on the phones, every move checked as it is made.

Event-sourced like every table game (`companion.live.table_game`): `update` and `correct`
only decide and return drafts; `apply_event` is the one place the state changes.

- Set-up: each player, on their own phone, puts their word's letters onto their first-row
  screens and marks the mirrors; the set-up is a private event of that seat. When both are
  in, the engine gets them (seat 0's first, as it asks).
- Moves: a stable change of the board (3 frames, no hands) is explained by the engine
  (`track.explain`) and recorded at once; what it cannot explain is flagged as a breach
  naming the rule. A screen lifted off the last line is a removal, judged against the word's
  order privately: an out-of-order removal is told to its owner only.
- A guess is entered on the guesser's phone and judged against the other word, which never
  leaves the server before the end; the result, and then both words, show on every screen.
- Per seat, privately: the word, the hint on request, and the "what my mirrors show now"
  switch for young players. Who could have seen what is shown after the game.
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
from dataclasses import replace
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, cast

import numpy as np

from companion.errors import UserError
from companion.games.base import IllegalAction
from companion.games.reflecto.rules import ENGINE
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
from companion.games.reflecto.rules.arrangement import with_cells, with_table
from companion.games.reflecto.rules.board import Cell
from companion.games.reflecto.rules.setup import even_split, normalise_word, setup_problem
from companion.games.reflecto.rules.sight import mirror_sight
from companion.games.reflecto.rules.state import OVER, PLAY, SETUP, ReflectoState, Screen
from companion.games.reflecto.table.messages import (
    Answer,
    BoardObservation,
    CorrectAction,
    Correction,
    EnterGuess,
    EnterSetup,
    RequestHint,
    SwitchSight,
    TableIsRight,
    board_observation,
    parse,
)
from companion.games.reflecto.table.track import (
    STABLE_FRAMES,
    Breach,
    Reading,
    Seen,
    StableBoard,
    board_of,
    explain,
    reading_from,
    reading_from_json,
    reading_to_json,
    squares_changed,
)
from companion.live.table_game import (
    ANSWER_KIND,
    QUESTION_KIND,
    TABLE_RIGHT_KIND,
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
from companion.live.words import player_name
from companion.store import Event, Session

PANEL_JS = Path(__file__).with_name("panel.js")
HINT_SECONDS = 1.0
"""The hint's search budget at the table: it runs under the game's lock."""
HINT_STATES = 60_000
SHOWN_BREACHES = 5
ASK_AFTER_FRAMES = STABLE_FRAMES
"""Frames with a square in doubt before the players are asked, counted until the board has
read clearly for `STABLE_FRAMES` frames in a row (frames with hands count neither way): a
square that flickers between read and in doubt never lets the board settle either, and
must be asked about, not left to end in a jump of several moves at once. As many as a
change takes to count: a doubt that outlasts that is asked while the board still rests (a
player may move again a few seconds later; asked after 12 frames, the answers came during
the next move and described a board a move on, and the table never caught up)."""

RELEARN_DOUBTS = 2
"""Squares of a settled board (the camera's reading, with the players' answers, is the
engine's) that the camera could not call itself: this many, and the colours are learned
anew from the whole board (the light changed since they were learned). The new ones are
kept only if they find more of the board (`perceive.perceive_frame`), so this sets how
often it is tried, not what is read."""
RELEARN_EVERY = 24
"""Frames between two such tries (one read of the frame more each)."""

_SQUARES = tuple((r, c) for r in range(ENGINE.board.rows) for c in range(ENGINE.board.cols))

MOST_CHANGED = 4
"""Squares two moves change (each the square left and the one reached): a change the
camera settles on that touches more, and no legal play explains, is a misread to ask
about, or the table lost track; never a breach (removals are explained by the rules)."""

NOT_TWO_MOVES = Breach(
    "one screen moves per turn",
    "the players said the change seen was not the two moves it looked like",
    None,
)
SETUP_KIND, ACTION_KIND, BREACH_KIND = "reflecto.setup", "reflecto.action", "reflecto.breach"
SEEN_KIND, HINT_KIND, SIGHT_KIND = "reflecto.seen", "reflecto.hint", "reflecto.sight"


def _vision(part: str) -> ModuleType | None:
    """The camera side's module, if that part exists yet (it is built separately)."""
    name = f"companion.games.reflecto.vision.{part}"
    try:
        if importlib.util.find_spec(name) is None:
            return None
    except ModuleNotFoundError:
        return None
    return importlib.import_module(name)


@cache
def _board_marker_ids() -> tuple[int, ...] | None:
    geometry = _vision("geometry")
    return None if geometry is None else tuple(m.id for m in geometry.load_geometry().markers)


class ReflectoTable:
    game_id = "reflecto"

    def __init__(self, settings: Any, session: Session) -> None:
        self.state: ReflectoState = start_state(
            ENGINE, session, "Reflecto", range(2, 3), "Reflecto is for 2 players"
        )
        self.settings = settings
        self.session = session
        # -- the state (changed only in apply_event) --
        self.pending: dict[int, Setup] = {}
        self.camera: Reading | None = None
        self.breaches: list[dict[str, Any]] = []
        self.hints: dict[int, dict[str, Any]] = {}
        self.sight_on: set[int] = set(self.state.options.mirror_sight)  # switched on at start
        self.open_questions: dict[str, Question] = {}
        self.asked = 0
        # -- tracker memory (never shown; rebuilt from frames after a restart) --
        self.tracker = StableBoard()
        self._flagged: Reading | None = None
        self._doubt = 0
        self._clear = 0
        self._last_called: dict[Cell, int | None] = {}
        """Each square's last clear call (a seat, or None for empty) since the last frame
        with hands: nothing can have moved on the board without a hand over it."""
        self.answers: dict[Cell, int | None] = {}
        """What the players said stands on a square the camera could not call; kept until
        the camera reads that square otherwise (a screen moved there or away)."""
        self._print: Any = None
        """The board's print where it has been seen empty (`vision/board_print.py`),
        learned by the perceiver from the squares the engine says are free."""
        self._rim: Any = None
        """The board's rim as seen so far (`vision/perceive.py`'s `RimMemory`): a rim's own
        print is not taken for an arm."""
        self._early: Any = None
        """Set-up frames called hands before the rim's print could be told
        (`vision/perceive.py`'s `SetupFrames`): the colours are learned from one of them
        once it can."""
        self._denied: Reading | None = None
        """A change seen as two moves the players said no to: its squares are asked about,
        and the same change settling again with their answers is the breach."""
        self._restaled: Reading | None = None
        """The last change that had the players' unconfirmed answers asked about again."""
        self._breached = False
        """Whether a breach was flagged since the last change the engine explained: a second
        unexplained board is a lost track (`_lost`), asked of the admin, not another breach."""
        self._colours_learned = False
        """Whether the perceiver learned this game's colours from the board the engine
        knows (`board_to_learn`): the start position, once both set-ups are in."""
        self._relearn = False
        self._since_relearn = 0
        self._start_seen = False
        """Whether the camera has settled on the start position (or a move was made): until
        then a start-row square the engine holds a screen on and the camera reads as empty
        is in doubt, for the rules put seven screens on each first row (a faint top there is
        a question, never a screen taken for gone)."""
        self._runs: dict[Cell, tuple[int | None, int]] = {}
        """Each square's current run of equal clear calls by the reader (the call and how
        many frames without hands in a row), for what outlasts a flicker."""
        self._flicker: dict[Cell, int | None] = {}
        """The squares held at their last clear call (`held`) in a frame since the last
        hands, and that call."""
        self._wavered: set[Cell] = set()
        """Squares the reader could not call in a frame since the last hands."""
        self._looked_last: list[set[Cell]] = []
        """The squares the reader could not call in each of the last `STABLE_FRAMES` frames
        without hands in a row (since the last hands)."""
        self._unsure_before: set[Cell] = set()
        """The squares the reader could not call at the end of the last rest: in each of the
        last `STABLE_FRAMES` frames in a row without hands before the hands (not a lone
        clear frame in the middle of a move, nor one frame in doubt as an arm comes)."""
        self._unheld: set[Cell] = set()
        """Squares of `_flicker` a change no legal play explains was put down to: in doubt
        (asked about), not held, until answered or read clearly `STABLE_FRAMES` in a row."""
        self._suspect: set[Cell] = set()
        """Squares the camera calls otherwise than the engine (a screen read as gone, one
        read where the engine has none, one read in the other seat's colour) in a change no
        legal play explains, and that some legal play would explain were they as the engine
        has them: a screen leaves the board only by a removal, never appears from nowhere
        and never changes colour, so such a square is in doubt (asked about) until the
        camera calls it as the engine has it or the players answer. A screen gone from its
        owner's last line is left to the rules (a screen lifted there is a removal)."""
        self._elsewhere: set[Cell] = set()
        """Squares whose screen the players said went "somewhere else" (`_where_now`): the
        change is judged as before (the square asked, then the rules), not asked again."""
        self._from_none: set[Cell] = set()
        """Squares whose new screen the players said came from none of the squares offered
        (`_came_from`): the change is judged as before, not asked again."""
        self._shown: dict[Cell, int] = {}
        """Each square the reader called a screen on in a frame since the last hands, and
        whose: a screen leaves the board only in a hand (`_vanished_unhanded`)."""
        self._unseen_none: set[Cell] = set()
        """Squares reached by a move seen out of turn whose unseen move before it the players
        said was none of those offered (`_turn_unseen`): judged as before, not asked again."""

    @property
    def table_markers(self) -> tuple[int, ...] | None:
        """The board is located by its own corner markers, not the table's (status bar)."""
        return _board_marker_ids()

    # -- the simulated table and the camera (perception thread) ------------------------
    def sim_scene(self, seed: int) -> Any:
        """The camera side's scripted games (`vision/scene.py`: `table_film(seed, settings)`),
        once it exists; until then the platform's demo table."""
        scene = _vision("scene")
        film = getattr(scene, "table_film", None) if scene is not None else None
        return film(seed, self.settings) if film is not None else None

    def perceive(self, frame: Any, registration: Any) -> Observation:
        """`vision/perceive.py`'s `perceive_frame(frame, registration, settings)`: the squares
        held and their colours, hands, whether the board was found."""
        perceive = _vision("perceive")
        if perceive is None:
            return Observation(BoardObservation(), 0.0)
        board_print = _vision("board_print")
        if self._print is None and board_print is not None:
            self._print = board_print.blank_print(_vision("geometry").load_geometry())  # type: ignore[union-attr]
        if self._rim is None:
            self._rim = perceive.RimMemory()
        if self._early is None:
            self._early = perceive.SetupFrames()
        seen = perceive.perceive_frame(
            frame,
            registration,
            self.settings,
            self._print,
            self.known_empty,
            self,
            self._rim,
            self._early,
        )
        return Observation(board_observation(seen.data), seen.confidence)

    def board_to_learn(self) -> Reading | None:
        """The perceiver's `ColourTeacher`: the board the colours are learned from. The
        start position once both set-ups are in (the engine knows every screen there, while
        the camera, without the colours, finds few of them), until learned; later the
        engine's board when the table asked for it (`RELEARN_DOUBTS`), for one frame.
        Perception thread: reads the state as it is."""
        s = self.state
        if s.phase != PLAY:
            return None
        if not self._colours_learned:
            return board_of(s) if s.turn == 0 and not s.moved else None
        if self._relearn:
            self._relearn = False
            return board_of(s)
        return None

    def colours_learned(self, colours: Any) -> None:
        self._colours_learned = True

    def known_empty(self, reading: Any) -> list[Cell]:
        """The squares a frame (no hands over it) shows empty for sure, whose print the
        perceiver may learn: every square the engine says is free, when every screen the
        engine has is seen where it has it (read so, or answered so by the players) and no
        screen is read anywhere else. Then no screen can be elsewhere: a player's screens
        are on the board or removed beside it, and a move in progress leaves its square
        (or its target is read). A square in doubt that no one has answered is left out.
        Perception thread: reads the state and answers as they are."""
        s = self.state
        if s.phase != PLAY:
            return []
        try:
            answers = dict(self.answers)
        except RuntimeError:  # changed under us by an answer: next frame
            return []
        engine = dict(board_of(s))
        called = {x.cell: x.owner for x in reading.screens}
        unclear = set(reading.unclear)
        for cell, owner in engine.items():
            if (called[cell] if cell in called else answers.get(cell, -1)) != owner:
                return []
        if any(cell not in engine for cell in called):
            return []
        return [
            cell
            for cell in _SQUARES
            if cell not in engine and (cell not in unclear or answers.get(cell, -1) is None)
        ]

    def annotate(
        self, image: np.ndarray, registration: Any, observation: Observation
    ) -> np.ndarray:
        perceive = _vision("perceive")
        draw = getattr(perceive, "annotate", None) if perceive is not None else None
        if draw is None:
            return image
        # The camera side draws from the perceiver's JSON, which the typed reading dumps to.
        data = board_observation(observation.data).model_dump(mode="json", exclude_none=True)
        drawn: np.ndarray = draw(image, registration, Observation(data, observation.confidence))
        return drawn

    # -- deciding ----------------------------------------------------------------------
    def update(self, observation: Observation, now: float) -> list[EventDraft]:
        data = board_observation(observation.data)
        called = {s.cell: s.owner for s in data.screens if s.owner in (0, 1)}
        known = board_of(self.state)
        held_now = dict(known)
        unsure = set(data.unclear) | {s.cell for s in data.screens if s.owner not in (0, 1)}
        looked = data.board_found and not data.hands
        if looked:
            # Only a frame without hands clears a suspect square: a call made under an arm
            # is no better than the call in doubt (a square the camera reads empty at rest
            # was called right once in a hand frame, its answer then dropped, and the screen
            # beside it moving was booked from that square).
            self._suspect = {c for c in self._suspect if called.get(c) != held_now.get(c)}
            self._count_runs(called, unsure)
            self._wavered |= unsure
            self._looked_last = [*self._looked_last, unsure][-STABLE_FRAMES:]
        else:
            self._wavered = set()
            self._shown = {}
            if len(self._looked_last) >= STABLE_FRAMES:
                self._unsure_before = set.intersection(*self._looked_last)
            self._looked_last = []
        self._unheld = {
            c for c in self._unheld if c not in self.answers and self._run(c) < STABLE_FRAMES
        }
        start = self._start_prior(called)
        if looked:
            # A start-row square read clearly empty at rest where the rules put a screen (a
            # seat the camera does not see there) stays suspect beyond the start, until the
            # camera calls it as the engine has it: the players' answer is not dropped once
            # the start position is seen, and the engine's screen there is followed through
            # the other seat's moves instead of being read as gone at each of them.
            self._suspect |= start - unsure
            self._suspect |= self._vanished_unhanded(called, unsure, held_now)
        prior = start | self._suspect | self._unheld
        if looked:
            prior |= self._contested(called, unsure | prior)
        if prior and looked:
            data = data.model_copy(update={"unclear": tuple(sorted({*data.unclear, *prior}))})
        doubted = unsure | set(data.unclear)
        if not looked:
            self._last_called = {}
            self._flicker = {}
            held: dict[Cell, int | None] = {}
        else:
            # A square in doubt now, read clearly in a frame since the last hands: it is what
            # it was then (a flicker of the reader, not a move). Not a square only the table
            # doubts (`prior`, read clearly): there the clear call is the one in doubt; nor
            # one a change no legal play explains was put down to (`_unheld`).
            held = {
                c: self._last_called[c]
                for c in doubted - (prior - unsure) - self._unheld
                if c in self._last_called
            }
            self._flicker.update(held)
            # Every square called clearly, empty ones too: a square read empty after the
            # hands left and in doubt in the next frame is still empty (recorded only when
            # called before, an emptied square was never held, and its flicker kept the
            # board from settling for a whole rest).
            for cell in _SQUARES:
                if cell not in doubted:
                    self._last_called[cell] = called.get(cell)
        seen = reading_from(data, held | self.answers)
        if looked and seen.reading is not None and seen.reading == known:
            # Nothing changed, by the answers: a square held by the players' answer that the
            # reader could not call at the end of the last rest and now reads clearly empty,
            # `STABLE_FRAMES` frames in a row, is no longer held (the reader's call changed
            # across a hand: the screen left, a move of a seat the camera does not see whose
            # landing it reads empty, never noticed while the answer held the square it
            # left). Not while the board shows a change: the answer explains it.
            self._suspect -= {
                c
                for c in self._suspect
                if self.answers.get(c) is not None
                and c in self._unsure_before
                and c not in unsure
                and c not in called
                and self._run(c) >= STABLE_FRAMES
            }
        self._since_relearn += not data.hands
        if (
            seen.reading is not None
            and seen.reading == board_of(self.state)
            and self._since_relearn >= RELEARN_EVERY
            and len(doubted & set(held_now)) >= RELEARN_DOUBTS
        ):
            self._relearn, self._since_relearn = True, 0
        drafts = self._ask(seen)
        new = self.tracker.update(seen.reading)
        if new is None:
            return drafts
        if new == board_of(self.state) and self.state.phase == PLAY:
            self._start_seen = True
        drafts.append(EventDraft(SEEN_KIND, {"screens": reading_to_json(new)}, snapshot=True))
        found = explain(ENGINE, self.state, new)
        if found.breach is None and found.moves > 1 and new == self._denied:
            # The players said no to these two moves, then said each square is as seen.
            self._denied, self._flagged = None, new
            return [*drafts, self._breach(NOT_TWO_MOVES)]
        if found.breach is None and found.moves > 1:
            # Two turns seen as one change: the players say whether that is what happened
            # (booked on their yes), never booked on the camera's word alone.
            if new == self._flagged or any(q.startswith("moves-") for q in self.open_questions):
                return drafts
            self._flagged = new
            return drafts + self._ask_moves(found.actions)
        if found.breach is None:  # moves, or the board back as the engine has it
            self._moved_on()
            return drafts + [self._action(a) for a in found.actions]
        flicker = self._flickered(new)
        if flicker:
            # A square the reader could not call in some frames since the hands, taken at
            # its clear call in the others, that legal play says may be otherwise: asked
            # about, no longer held (a landing square read now in doubt, now empty).
            self._unheld |= flicker
            self.tracker.stable = None
            return drafts + self._ask_squares(flicker)
        # One screen gone and nothing new: "where is it now?" on this frame, before any
        # answer the camera has not confirmed is asked again (one question after the other,
        # each waiting for the board to settle with its answer, outlasted the rest: the
        # landing's question came during the next move and the table fell behind).
        where = self._where_now(new)
        if where is not None:
            return drafts + where
        # One screen new and none gone, its seat's screens that could have reached it
        # standing where the camera does not call them (a seat it does not see there,
        # held by the players' answers): "which square did it come from?", before those
        # answers are all asked again (a round of questions per move, the rest ending
        # before it, the table a move behind at every move from such a square).
        source = self._came_from(new, called)
        if source is not None:
            return drafts + source
        # One screen of the seat not to move moved, legal once the seat to move has made
        # a move the camera could not see (the square it left held by the players' answer,
        # its landing read empty: a seat it does not see): "which move did Bob make?",
        # before those answers are all asked again (the game was lost so, every answer
        # asked again at every rest, the table a turn behind).
        unseen = self._turn_unseen(new, called)
        if unseen is not None:
            return drafts + unseen
        misread = self._misread(new)
        stale = {c for c, said in self.answers.items() if c in doubted or said != held_now.get(c)}
        # A square the camera calls otherwise than the engine, one or two of which would
        # make the change legal, is asked before the players' unconfirmed answers, unless
        # one of those, said otherwise, would make it legal too: they (squares the camera
        # never calls) were asked again at every change it could not explain, each rest
        # ended before the misread's question, and the table never caught up.
        if misread and not self._otherwise(new, stale):
            return drafts + self._doubt_about(misread)
        if stale and new != self._restaled:
            # The players' answers the camera has not confirmed since, or that the engine
            # does not hold (given as a hand carried a screen, or a screen moved unseen):
            # the change says something differs, so they are asked about again (once for
            # this change) rather than the change judged on them.
            self._restaled = new
            for cell in stale:
                del self.answers[cell]
            return drafts + self._doubt_about(stale)
        if misread:
            return drafts + self._doubt_about(misread)
        differ = squares_changed(known, new)
        if len(differ) > MOST_CHANGED:
            # More squares than two moves change: a misread (the colours failing, taken for
            # each other), never a move to judge. Asked about; confirmed as seen, the table
            # has lost track.
            unanswered = differ - self.answers.keys()
            if unanswered:
                return drafts + self._doubt_about(unanswered)
        if new != self._flagged:
            self._flagged = new
            if self._breached or len(differ) > MOST_CHANGED:
                return drafts + self._lost()
            self._breached = True
            drafts.append(self._breach(found.breach))
        return drafts

    def _vanished_unhanded(
        self, called: dict[Cell, int], unsure: set[Cell], held_now: dict[Cell, int]
    ) -> set[Cell]:
        """Squares of their owner's last line where the engine has a screen, read clearly
        empty in this frame (no hands) though the reader called that screen there in a frame
        since the last hands: nothing left the board without a hand over it, so the square
        is in doubt (held by nothing, asked about if it stays so), never a removal, or a
        move out of turn, on the reader's word (the rules took such a square at once). The
        squares the reader calls in this frame join `_shown` (`update` clears it at hands)."""
        last = ENGINE.board.last_row
        out = {
            cell
            for cell, owner in self._shown.items()
            if cell not in called
            and cell not in unsure
            and held_now.get(cell) == owner
            and cell[0] == last(owner)
        }
        self._shown.update(called)
        return out

    def _moved_on(self) -> None:
        """The game moved on (a change explained, or booked on the players' answer): no
        breach stands, and the players' "somewhere else" / "none of these" answers, about
        the board before, are forgotten, whichever question booked the move."""
        self._flagged, self._breached = None, False
        self._elsewhere, self._from_none, self._unseen_none = set(), set(), set()

    def _count_runs(self, called: dict[Cell, int], unsure: set[Cell]) -> None:
        """One frame without hands into `_runs`: a square the reader called clearly extends
        or starts its run; one in doubt has none."""
        for cell in _SQUARES:
            if cell in unsure:
                self._runs.pop(cell, None)
                continue
            value = called.get(cell)
            before = self._runs.get(cell)
            self._runs[cell] = (value, before[1] + 1 if before and before[0] == value else 1)

    def _run(self, cell: Cell) -> int:
        run = self._runs.get(cell)
        return 0 if run is None else run[1]

    def _contested(self, called: dict[Cell, int], doubted: set[Cell]) -> set[Cell]:
        """The players' answers the reader now calls otherwise, clearly, on a square it
        could not call in a frame since the last hands, and not yet for `STABLE_FRAMES`
        frames in a row: still in doubt, the answer standing (a reader that flickers
        between "unclear" and "empty" on a landing square erased the players' "a screen
        stands there" on its first clear frame, and the board never settled). Any other
        answer the reader calls otherwise is forgotten (a screen moved): one it has called
        clearly in every frame since the hands, or that long in a row."""
        contested: set[Cell] = set()
        for cell, said in list(self.answers.items()):
            if cell in doubted or called.get(cell) == said:
                continue
            if cell not in self._wavered or self._run(cell) >= STABLE_FRAMES:
                del self.answers[cell]
            else:
                contested.add(cell)
        return contested

    def _flickered(self, reading: Reading) -> set[Cell]:
        """The fewest squares (one or two) of `_flicker`, unanswered, that would make the
        change legal play were they called otherwise than held: those the reader flickered
        on are the first to doubt when no legal play explains what it settled on."""
        cells = {c for c in self._flicker if c not in self.answers and c not in self._unheld}
        return self._otherwise(reading, cells)

    def _otherwise(self, reading: Reading, among: set[Cell]) -> set[Cell]:
        """The fewest squares (one or two) of `among` that would make the change legal play
        were they called otherwise than `reading` has them (another seat, or empty)."""
        cells = sorted(among)
        seen = dict(reading)
        for size in (1, 2):
            for chosen in itertools.combinations(cells, size):
                rest = {(c, o) for c, o in reading if c not in chosen}
                for values in itertools.product((0, 1, None), repeat=size):
                    if any(seen.get(c) == v for c, v in zip(chosen, values, strict=True)):
                        continue
                    patched = rest | {
                        (c, v) for c, v in zip(chosen, values, strict=True) if v is not None
                    }
                    if explain(ENGINE, self.state, frozenset(patched)).breach is None:
                        return set(chosen)
        return set()

    def _lost(self) -> list[EventDraft]:
        """The table has lost track: a breach was shown and the board the camera settled on
        since is still one no legal play explains (the players went on without putting it
        back, or the camera misread a square they confirmed). Judging each change against a
        board the table no longer shares would flag every move: the admin says whose turn
        it is, and the board becomes what the camera sees (`_answer`)."""
        if any(q.startswith("lost-") for q in self.open_questions):
            return []
        choices: list[dict[str, Any]] = [
            {"label": f"{player_name(self.session.seats, s)}'s turn", "value": s} for s in (0, 1)
        ]
        choices.append({"label": "not yet: we put the board back", "value": None})
        question = Question(
            f"lost-{self.asked}",
            "I lost track of the game: no legal play explains the board I see. Admin: once "
            "the screens stand as they should, whose turn is it? The board becomes what "
            "the camera sees.",
            choices,
        )
        return [question_draft(question)]

    def _doubt_about(self, cells: set[Cell]) -> list[EventDraft]:
        """`cells` in doubt until asked about; the change they left unexplained counts
        again once the board settles with the answers, even if as the same reading."""
        self._suspect |= cells
        self.tracker.stable = None
        return []

    def _where_now(self, reading: Reading) -> list[EventDraft] | None:
        """The question for a change that is one screen gone and nothing new: "where is it
        now?", its choices the squares the rules let that screen reach now (steps and jump
        chains, `ENGINE.legal_actions`), "it is still there" and "somewhere else". A screen
        leaves the board only by a removal, so it stands somewhere the camera cannot see
        (a landing read empty, a top too faint) or was misread where it was; the players
        know which, and the answer books the move through the engine (`_landed`). None when
        the change is not that, the screen's seat cannot move now, or the players already
        said "somewhere else" about that square (then it is judged as before). A screen gone
        from its owner's last line is left to the rules (lifted there, it is a removal)."""
        known = board_of(self.state)
        vanished, appeared = known - reading, reading - known
        if appeared or len(vanished) != 1:
            return None
        ((cell, owner),) = vanished
        if cell in self._elsewhere or cell[0] == ENGINE.board.last_row(owner):
            return None
        landings = self._landings(cell)
        if not landings:
            return None
        if any(q.startswith("where-") for q in self.open_questions):
            return []
        name = player_name(self.session.seats, owner)
        r, c = cell
        return self._about_square(
            "where",
            cell,
            f"I no longer see {name}'s screen on row {r + 1}, column {c + 1}, and nothing new "
            "where it could have gone. Where is it now?",
            landings,
            [
                {"label": "it is still there", "value": "still"},
                {"label": "somewhere else", "value": None},
            ],
        )

    def _came_from(self, reading: Reading, called: dict[Cell, int]) -> list[EventDraft] | None:
        """The question for a change that is one screen new and none gone: "which square did
        it come from?", its choices the squares of that seat's screens that the rules let
        reach the new square now (`ENGINE.legal_actions`) and that the camera does not
        call as that seat's in this frame (`called`), and "none of these". A screen never
        appears from nowhere: it left a square the camera cannot see (a seat unseen on its
        start row, held by the players' answers), or the camera misread the new square;
        the players know which, and a square books the move through the engine
        (`_came`). None when the change is not that, no such square is offered, or the
        players already said "none of these" about that square."""
        known = board_of(self.state)
        vanished, appeared = known - reading, reading - known
        if vanished or len(appeared) != 1:
            return None
        ((to, owner),) = appeared
        if to in self._from_none:
            return None
        sources = [c for c in self._sources(to, owner) if called.get(c) != owner]
        if not sources:
            return None
        if any(q.startswith("from-") for q in self.open_questions):
            return []
        name = player_name(self.session.seats, owner)
        r, c = to
        return self._about_square(
            "from",
            to,
            f"I see {name}'s screen on row {r + 1}, column {c + 1}, where none stood. "
            "Which square did it come from?",
            sources,
            [{"label": "none of these", "value": None}],
        )

    def _turn_unseen(self, reading: Reading, called: dict[Cell, int]) -> list[EventDraft] | None:
        """The question for a change that is one screen of the seat not to move gone and one
        of its colour new, while the seat to move has not moved: "which move did Bob make
        before?", its choices the moves of the seat to move (`_unseen_moves`) from squares
        the camera does not call as that seat's in this frame (`called`) after which the
        change is one legal move, and "none of these". A turn is never skipped: the camera
        missed a move (its square left held by the players' answer, its landing read
        empty), and the players' choice books both moves through the engine
        (`_unseen_booked`). None when the change is not that, no move is offered, or the
        players already said "none of these" about the square reached."""
        known = board_of(self.state)
        vanished, appeared = known - reading, reading - known
        if len(vanished) != 1 or len(appeared) != 1 or self.state.phase != PLAY:
            return None
        ((_, owner),), ((to, new_owner),) = vanished, appeared
        if owner != new_owner or owner == self.state.to_move or self.state.moved:
            return None
        if to in self._unseen_none:
            return None
        moves = [m for m in self._unseen_moves(reading) if called.get(m[0]) != 1 - owner]
        if not moves:
            return None
        if any(q.startswith("unseen-") for q in self.open_questions):
            return []
        name = player_name(self.session.seats, owner)
        other = player_name(self.session.seats, 1 - owner)
        r, c = to
        choices: list[dict[str, Any]] = [
            {
                "label": f"row {a[0] + 1}, column {a[1] + 1} to row {b[0] + 1}, column {b[1] + 1}",
                "value": [list(a), list(b)],
            }
            for a, b in moves
        ]
        choices.append({"label": "none of these", "value": None})
        text = (
            f"I see {name}'s screen on row {r + 1}, column {c + 1}, but it was {other}'s "
            f"turn and I did not see {other}'s move. Which move did {other} make?"
        )
        return [question_draft(Question(f"unseen-{r}-{c}-{self.asked}", text, choices))]

    def _unseen_moves(self, reading: Reading) -> list[tuple[Cell, Cell]]:
        """The moves (square left, square reached) of the seat to move, which has not moved,
        to a square `reading` has free, after which `reading`, with that move's squares as
        it leaves them, is one legal move of the other seat."""
        state = self.state
        if state.phase != PLAY or state.moved:
            return []
        at = {s.id: s.cell for s in state.screens if s.cell is not None}
        taken = {c for c, _ in reading}
        out: set[tuple[Cell, Cell]] = set()
        for action in ENGINE.legal_actions(state):
            if not isinstance(action, Step) or action.to is None or action.to in taken:
                continue
            left = at.get(action.screen)
            if left is None:
                continue
            after = ENGINE.apply(state, action)
            if after.phase != PLAY or after.to_move == state.to_move:
                continue  # removals the turn goes on with, or the end: not one whole move
            seen = {(c, o) for c, o in reading if c != left} | {(action.to, state.to_move)}
            found = explain(ENGINE, after, frozenset(seen))
            if found.breach is None and found.moves == 1:
                out.add((left, action.to))
        return sorted(out)

    def _unseen_booked(self, to: Cell, said: Any) -> list[EventDraft]:
        """The players' answer to `_turn_unseen` about the screen new on `to`: a move books
        it, then the move seen, through the engine; "none of these" leaves the change to be
        judged as before. Nothing when the game went on."""
        self.tracker.stable = None  # the change counts again, with the answer
        if not isinstance(said, list):
            self._unseen_none.add(to)
            return []
        left, reached = (tuple(int(v) for v in cell) for cell in said)
        camera = self.camera
        if camera is None or (left, reached) not in self._unseen_moves(camera):
            return []
        screen = self._screen_on(cast(Cell, left))
        if screen is None:
            return []
        first = Step(screen.id, cast(Cell, reached))
        state = ENGINE.apply(self.state, first)
        seen = {(c, o) for c, o in camera if c != left} | {(cast(Cell, reached), screen.owner)}
        found = explain(ENGINE, state, frozenset(seen))
        if found.breach is not None:
            return []
        self._moved_on()
        return [self._action(a) for a in (first, *found.actions)]

    def _about_square(
        self, kind: str, cell: Cell, text: str, squares: list[Cell], more: list[dict[str, Any]]
    ) -> list[EventDraft]:
        """A question about the screen on `cell` whose answers are `squares` and `more`; its
        id names the kind and the square, so one is not asked twice while open. Squares are
        counted from 1, as the panel says them."""
        choices: list[dict[str, Any]] = [
            {"label": f"row {r + 1}, column {c + 1}", "value": [r, c]} for r, c in squares
        ]
        r, c = cell
        return [question_draft(Question(f"{kind}-{r}-{c}-{self.asked}", text, choices + more))]

    def _sources(self, to: Cell, owner: int) -> list[Cell]:
        """The squares of `owner`'s screens that the rules let reach `to` now, in order."""
        turn = self._turn_of(owner)
        if turn is None:
            return []
        at = {s.id: s.cell for s in self.state.screens if s.owner == owner and s.cell}
        return sorted(
            {
                at[a.screen]
                for a in ENGINE.legal_actions(turn[1])
                if isinstance(a, Step) and a.to == to and a.screen in at
            }
        )

    def _came(self, to: Cell, said: Any) -> list[EventDraft]:
        """The players' answer to `_came_from` about the new screen on `to`: a square books
        the move of the screen standing there through the engine; "none of these" leaves
        the change to be judged as before. Nothing when the game went on."""
        self.tracker.stable = None  # the change counts again, with the answer
        if said is None:
            self._from_none.add(to)
            return []
        screen = self._screen_on((int(said[0]), int(said[1])))
        if screen is None:
            return []
        turn = self._turn_of(screen.owner)
        if turn is None or screen.cell not in self._sources(to, screen.owner):
            return []
        self._moved_on()
        return [self._action(a) for a in (*turn[0], Step(screen.id, to))]

    def _turn_of(self, owner: int) -> tuple[tuple[Action, ...], ReflectoState] | None:
        """The actions that begin `owner`'s move now (ending the turn whose move is made),
        and the state they lead to; None when `owner` cannot move now."""
        state = self.state
        if state.phase != PLAY:
            return None
        if owner != state.to_move and state.moved:
            return (Done(),), ENGINE.apply(state, Done())
        if owner != state.to_move or state.moved:
            return None
        return (), state

    def _screen_on(self, cell: Cell) -> Screen | None:
        """The screen the game has on `cell`, if any."""
        return next((s for s in self.state.screens if s.cell == cell), None)

    def _landings(self, cell: Cell) -> list[Cell]:
        """The squares the rules let the screen on `cell` reach now, in order."""
        screen = self._screen_on(cell)
        turn = None if screen is None else self._turn_of(screen.owner)
        if screen is None or turn is None:
            return []
        return sorted(
            {
                a.to
                for a in ENGINE.legal_actions(turn[1])
                if isinstance(a, Step) and a.screen == screen.id and a.to is not None
            }
        )

    def _landed(self, cell: Cell, said: Any) -> list[EventDraft]:
        """The players' answer to `_where_now` about the screen on `cell`: a square books
        its move through the engine (the square is then held as answered until the camera
        sees the screen there); "still there" holds the square as answered; "somewhere
        else" leaves the change to be judged as before. Nothing when the game went on."""
        screen = self._screen_on(cell)
        if screen is None:
            return []
        self.tracker.stable = None  # the change counts again, with the answer
        if said is None:
            self._elsewhere.add(cell)
            return []
        if said == "still":
            self._suspect.add(cell)
            return []
        turn = self._turn_of(screen.owner)
        to = (int(said[0]), int(said[1]))
        if turn is None or to not in self._landings(cell):
            return []
        self._suspect.add(to)
        self._moved_on()
        return [self._action(a) for a in (*turn[0], Step(screen.id, to))]

    def _misread(self, reading: Reading) -> set[Cell]:
        """The fewest squares (one or two; else every square read as gone, or every one, but
        a move's) the camera calls otherwise than the engine, and the players have not
        answered, that would make the change legal play were they as the engine has them.
        Never the whole change when a screen both left a square and reached another in its
        colour (an illegal move looks so: it is the rules' to judge); a screen gone from its
        owner's last line may be a removal."""
        known = board_of(self.state)
        engine, seen = dict(known), dict(reading)
        differ = sorted(c for c in squares_changed(known, reading) if c not in self.answers)
        last = ENGINE.board.last_row
        doubtful = [c for c in differ if c in seen or c[0] != last(engine[c])]
        gone = [c for c in doubtful if c not in seen]
        new = [c for c in differ if c in seen and c not in engine]
        # A screen keeps its colour: a square reached in a colour no screen that left has
        # is no move of one screen (an illegal move's look) but a misread, asked about.
        moved_one = (
            bool(new)
            and len(new) + len(gone) == len(differ)
            and bool(gone)
            and {seen[c] for c in new} <= {engine[c] for c in gone}
        )

        def legal(cells: tuple[Cell, ...]) -> bool:
            patched = {(c, o) for c, o in reading if c not in cells}
            patched |= {(c, engine[c]) for c in cells if c in engine}
            return explain(ENGINE, self.state, frozenset(patched)).breach is None

        tries: list[tuple[Cell, ...]] = [
            cells
            for size in range(1, min(len(doubtful), 2) + 1)
            for cells in itertools.combinations(doubtful, size)
        ]
        # A seat's screens faint all over the board, or the seats' colours taken for each
        # other: all of those squares but a move's (the square it left, and the one it
        # reached if read), or all of them.
        for many in (gone, doubtful):
            if len(many) > 2:
                for left, reached in itertools.product(gone, [*new, None]):
                    tries.append(tuple(c for c in many if c not in (left, reached)))
                tries.append(tuple(many))
        for cells in tries:
            if moved_one and set(cells) == set(differ):
                continue
            if legal(cells):
                return set(cells)
        return set()

    def _start_prior(self, called: dict[Cell, int]) -> set[Cell]:
        """The rules' prior at set-up: the start-row squares the engine holds a screen on
        that the camera reads as empty, until the start position has been seen."""
        s = self.state
        # The camera settled on it, maybe before the set-ups; not on a board read empty
        # while the engine, its set-ups not all in, has no screen on it yet.
        if self.camera is not None and self.camera == board_of(s) and s.phase == PLAY:
            self._start_seen = True
        if self._start_seen or s.phase != PLAY or s.turn or s.moved:
            return set()
        return {
            cell
            for cell, owner in board_of(s)
            if cell not in called and cell[0] == ENGINE.board.first_row(owner)
        }

    def _ask(self, seen: Seen) -> list[EventDraft]:
        """A square in doubt for a while: ask the table what stands there, not guess."""
        if seen.unclear:
            self._doubt += 1
            self._clear = 0
        elif seen.reading is not None:
            self._clear += 1
            if self._clear >= STABLE_FRAMES:
                self._doubt = 0
        if not seen.unclear or self._doubt < ASK_AFTER_FRAMES:
            return []
        # Every square in doubt at once (faint tops along a start row are several): one
        # question at a time would keep the board waiting a round of frames per square.
        asked = self._ask_squares(set(seen.unclear))
        if asked:
            self._doubt = 0  # the questions answer the doubt so far
        return asked

    def _ask_squares(self, cells: set[Cell]) -> list[EventDraft]:
        """The question "what stands there?" about each of `cells` not already asked."""
        asked = {tuple(int(v) for v in q.id.split("-")[1:3]) for q in self._square_questions()}
        choices: list[dict[str, Any]] = [
            {"label": f"{player_name(self.session.seats, s)}'s screen", "value": s} for s in (0, 1)
        ]
        choices.append({"label": "nothing", "value": None})
        return [
            question_draft(
                Question(
                    f"square-{r}-{c}-{self.asked + i}",
                    # counted from 1, as the panel says a square
                    f"I cannot tell what stands on row {r + 1}, column {c + 1}. What is there?",
                    choices,
                )
            )
            for i, (r, c) in enumerate(sorted(c for c in cells if c not in asked))
        ]

    def _square_questions(self) -> list[Question]:
        return [q for q in self.open_questions.values() if q.id.startswith("square-")]

    def _ask_moves(self, actions: tuple[Action, ...]) -> list[EventDraft]:
        """The question for a change only two moves explain, in the players' words; its
        "yes" carries the actions (`_answer` books them if the engine still takes them)."""
        said: list[str] = []
        state = self.state
        for action in actions:
            if isinstance(action, Step | Remove):
                screen = next(x for x in state.screens if x.id == action.screen)
                name = player_name(self.session.seats, screen.owner)
                r, c = screen.cell or (-1, -1)  # a screen that moves stands on the board
                if isinstance(action, Remove) or action.to is None:
                    said.append(f"{name} took the screen on row {r + 1}, column {c + 1} off")
                else:
                    to = f"row {action.to[0] + 1}, column {action.to[1] + 1}"
                    said.append(f"{name} moved row {r + 1}, column {c + 1} to {to}")
            state = ENGINE.apply(state, action)
        question = Question(
            f"moves-{self.asked}",
            f"I saw two moves at once: {'; then '.join(said)}. Is that what happened?",
            [
                {"label": "yes", "value": [action_to_json(a) for a in actions]},
                {"label": "no", "value": None},
            ],
        )
        return [question_draft(question)]

    def _action(self, action: Action) -> EventDraft:
        """The action's event, with the seat whose screen it moved: the log names the player
        from the event itself, whatever view the page holds when the event arrives."""
        screen = getattr(action, "screen", None)
        return self._action_of(
            action, next((s.owner for s in self.state.screens if s.id == screen), None)
        )

    @staticmethod
    def _action_of(action: Action, owner: int | None) -> EventDraft:
        payload: dict[str, Any] = {"action": action_to_json(action)}
        if owner is not None:
            payload["seat"] = owner
        return EventDraft(ACTION_KIND, payload)

    def _breach(self, breach: Breach) -> EventDraft:
        payload = breach.to_json(self.session.seats) | {"turn": self.state.turn}
        if breach.private and breach.seat is not None:
            return EventDraft.private(breach.seat, BREACH_KIND, payload)
        return EventDraft(BREACH_KIND, payload)

    # -- the phones and corrections ----------------------------------------------------
    def correct(self, payload: Correction, seat: int | None) -> list[EventDraft]:
        """One typed correction (`messages.Correction`; JSON is parsed into it first)."""
        match parse(payload):
            case Answer() as answer:
                return self._answer(answer, seat)
            case TableIsRight():
                return self._table_is_right(seat)
            case EnterSetup() as setup:
                return self._setup(setup, self._seat(seat, "a set-up"))
            case EnterGuess(word=word):
                if not normalise_word(word).isalpha():
                    raise UserError("guess: a word, letters only")
                guesser = self._seat(seat, "a guess")
                self._mover(guesser)
                guess = Guess(normalise_word(word))
                ENGINE.apply(self.state, guess)  # IllegalAction reaches the caller
                # Who guessed, for the log's words: a guess moves no screen to name them by.
                return [EventDraft(ACTION_KIND, {"action": action_to_json(guess), "seat": guesser})]
            case RequestHint():
                return self._hint(self._seat(seat, "a hint"))
            case SwitchSight(on=on):
                own = self._seat(seat, "mirror sight")
                return [EventDraft.private(own, SIGHT_KIND, {"seat": own, "on": on})]
            case CorrectAction(action=raw):
                try:
                    action = action_from_json(raw)
                except (ValueError, KeyError, TypeError) as exc:
                    raise UserError(f"action: {exc}") from None
                if isinstance(action, Setup | Guess):
                    raise UserError("set-ups and guesses are entered on the players' phones")
                if seat is not None:
                    self._mover(seat)
                return self._apply_now(action)

    def _answer(self, payload: Answer, seat: int | None) -> list[EventDraft]:
        question = self.open_questions.get(payload.question)
        if question is not None and question.id.startswith("lost-"):
            return self._found_track(payload, seat)
        question, draft = answer_draft(self.open_questions, payload, seat)
        if question.id.startswith("where-"):
            return [draft, *self._landed(_where_cell(question.id), payload.answer)]
        if question.id.startswith("from-"):
            return [draft, *self._came(_where_cell(question.id), payload.answer)]
        if question.id.startswith("unseen-"):
            return [draft, *self._unseen_booked(_where_cell(question.id), payload.answer)]
        if not question.id.startswith("moves-"):
            return [draft]
        if payload.answer is None:
            # Not those two moves: the camera misread a square, or the change is illegal.
            # Its squares are asked about first; the change stays unexplained (a breach)
            # only once the players said each is as the camera saw it.
            flagged = self._flagged
            if flagged is None or flagged == self._denied:
                return [draft, self._breach(NOT_TWO_MOVES)]
            self._denied = flagged
            changed = squares_changed(board_of(self.state), flagged)
            for cell in changed:
                self.answers.pop(cell, None)
            self._doubt_about(changed)
            return [draft]
        raw = payload.answer if isinstance(payload.answer, list) else []
        actions = [action_from_json(a) for a in raw if isinstance(a, dict)]
        state = self.state
        try:
            for action in actions:
                state = ENGINE.apply(state, action)
        except IllegalAction:
            return [draft]  # the game went on since the question: the engine has the board
        self._flagged = None
        return [draft, *(self._action(a) for a in actions)]

    def _found_track(self, payload: Answer, seat: int | None) -> list[EventDraft]:
        """The admin's answer to `_lost`: the camera's steady reading becomes the board, and
        the seat named is to move (its turn not yet begun); no: asked again if the board
        still cannot be explained once put back. Screens the camera no longer sees were
        lifted off while the table had lost track: the engine judges them as removals
        (`_missed_removals`), and a board no removal explains is refused as before."""
        admin_only_table_is_right(seat)
        _, draft = answer_draft(self.open_questions, payload, seat)
        if payload.answer is None:
            return [draft]
        camera = steady_reading(self.camera, "the board")
        drafts, state = self._missed_removals(camera)
        if state.phase != PLAY:  # the last letter came off: the rules ended the game
            return [draft, *drafts]
        with taken_as_the_table("the board"):
            after = with_table(state, camera)
        cells = {s.id: list(s.cell) for s in after.screens if s.cell is not None}
        board = {"cells": cells, "to_move": int(cast(int, payload.answer))}
        return [draft, *drafts, table_is_right_draft(board, {"screens": reading_to_json(camera)})]

    def _missed_removals(self, camera: Reading) -> tuple[list[EventDraft], ReflectoState]:
        """The removals that take the engine's board down to as many screens per seat as
        the camera sees, and the state after them. Only a removal takes a screen off the
        board, and only the seat's next letter in word order, from its last line: a seat
        with k screens fewer on the camera's board lost its next k letters. Where each was
        lifted from is not known, so each stands first on a free square of its owner's last
        line (a "table is right" event with that seat to move) and is then removed by the
        engine, which judges it like any removal. None when the counts already agree; a
        count the engine cannot reach so (more screens than it has, more than its letters
        left, no free square) is left to `with_table` to refuse."""
        state = self.state
        drafts: list[EventDraft] = []
        for owner in (0, 1):
            seen = sum(1 for _, o in camera if o == owner)
            on_board = [s for s in state.screens_of(owner) if s.cell is not None]
            gone = len(on_board) - seen
            if gone <= 0 or state.phase != PLAY:
                continue
            letters = sorted(
                (s for s in on_board if s.kind == "letter"), key=lambda s: s.rank or 0
            )[:gone]
            if len(letters) < gone:
                return [], self.state
            last = ENGINE.board.last_row(owner)
            taken = {s.cell for s in state.screens if s.cell is not None}
            free = [(last, c) for c in range(state.cols) if (last, c) not in taken]
            cells: dict[str, list[int]] = {}
            for screen in letters:
                assert screen.cell is not None  # on the board
                if screen.cell[0] != last:
                    if not free:
                        return [], self.state
                    cells[screen.id] = list(free.pop(0))
            try:
                turned = replace(
                    with_cells(state, {i: (c[0], c[1]) for i, c in cells.items()}),
                    to_move=owner,
                    moved=False,
                )
                for screen in letters:
                    turned = ENGINE.apply(turned, Remove(screen.id))
            except IllegalAction:
                return [], self.state
            seen_now = {"screens": reading_to_json(camera)}
            drafts.append(table_is_right_draft({"cells": cells, "to_move": owner}, seen_now))
            drafts += [self._action_of(Remove(screen.id), owner) for screen in letters]
            state = turned
        return drafts, state

    def _table_is_right(self, seat: int | None) -> list[EventDraft]:
        """The admin's "the table is right": the camera's steady reading becomes the engine's
        board (`rules/arrangement.py` says how screens keep their identity)."""
        admin_only_table_is_right(seat)
        if self.state.phase != PLAY:
            raise UserError(
                '"the table is right" is for a game being played (the set-up '
                "is entered on the phones)"
            )
        cells, camera = self._cells_as_seen()
        return [table_is_right_draft({"cells": cells}, {"screens": reading_to_json(camera)})]

    def _cells_as_seen(self) -> tuple[dict[str, list[int]], Reading]:
        """Each screen's square were the camera's steady reading the board
        (`rules/arrangement.py` says how screens keep their identity), and that reading."""
        camera = steady_reading(self.camera, "the board")
        with taken_as_the_table("the board"):
            after = with_table(self.state, camera)
        return {s.id: list(s.cell) for s in after.screens if s.cell is not None}, camera

    @staticmethod
    def _seat(seat: int | None, what: str) -> int:
        if seat is None:
            raise UserError(f"{what} belongs to a seat: open your seat link")
        return seat

    def _mover(self, seat: int) -> None:
        if self.state.phase == PLAY and seat != self.state.to_move:
            raise UserError(f"it is {self.session.seats[self.state.to_move]}'s turn")

    def _apply_now(self, action: Action) -> list[EventDraft]:
        ENGINE.apply(self.state, action)  # IllegalAction reaches the caller: nothing recorded
        return [self._action(action)]

    def _setup(self, entered: EnterSetup, seat: int) -> list[EventDraft]:
        if self.state.phase != SETUP or seat in self.pending:
            raise UserError("each player sets up once, before the first move")
        word = normalise_word(entered.word)
        if not word:
            raise UserError("setup: word, the secret word")
        letters = self.state.options.letter_screens[seat]
        young = seat in self.state.options.younger
        chunks = entered.chunks
        if chunks is None:
            chunks = list(even_split(word, letters, blank_last=entered.blank_last))
        chunks = [normalise_word(c) for c in chunks]
        if "".join(chunks) != word:
            raise UserError("setup: the chunks must spell the word")
        try:
            setup = Setup(
                seat,
                tuple(chunks),
                tuple(entered.columns),
                tuple(entered.mirrors),
                tuple(entered.hinted),
            )
        except ValueError as exc:
            raise UserError(str(exc)) from None
        problem = setup_problem(setup, ENGINE.board, letters, young)
        if problem is not None:
            raise IllegalAction(*problem)
        # No "type": "setup" in a private payload: the word "setup" is public elsewhere.
        payload = {k: v for k, v in action_to_json(setup).items() if k != "type"}
        return [EventDraft.private(seat, SETUP_KIND, payload | {"word": word})]

    def _hint(self, seat: int) -> list[EventDraft]:
        if self.state.phase != PLAY:
            raise UserError("a hint is given while the game is played")
        found = ENGINE.hint(self.state, seat, HINT_STATES, HINT_SECONDS)
        return [EventDraft.private(seat, HINT_KIND, found.to_json() | {"turn": self.state.turn})]

    # -- the state -----------------------------------------------------------------------
    def apply_event(self, event: Event) -> None:
        p, kind = event.payload, event.kind
        if kind == SETUP_KIND:
            setup = action_from_json(
                {k: v for k, v in p.items() if k != "word"} | {"type": "setup"}
            )
            assert isinstance(setup, Setup)
            self.pending[setup.seat] = setup
            if len(self.pending) == 2 and self.state.phase == SETUP:
                for seat in (0, 1):
                    self.state = ENGINE.apply(self.state, self.pending[seat])
        elif kind == ACTION_KIND:
            self.state = ENGINE.apply(self.state, action_from_json(p["action"]))
        elif kind == SEEN_KIND:
            self.camera = reading_from_json(p["screens"])
        elif kind == TABLE_RIGHT_KIND:
            self.state = with_cells(
                self.state, {i: (int(c[0]), int(c[1])) for i, c in p["board"]["cells"].items()}
            )
            if "to_move" in p["board"]:  # the admin found the track again (`_found_track`)
                self.state = replace(self.state, to_move=int(p["board"]["to_move"]), moved=False)
            turn = self.state.turn
            self.breaches = [b for b in self.breaches if b["turn"] != turn]
            self._flagged, self._breached = None, False
            # The squares suspected of a misread against the board before: the board is
            # now the camera's own.
            self._suspect = set()
        elif kind == BREACH_KIND:
            self.breaches.append({**p, "private": event.visibility != "public"})
        elif kind == HINT_KIND:
            self.hints[int(p["seat"])] = dict(p)
        elif kind == QUESTION_KIND:
            self.open_questions[p["id"]] = Question.from_json(p)
            self.asked += 1
        elif kind == ANSWER_KIND:
            question = self.open_questions.pop(p["question"], None)
            if question is not None and question.id.startswith("square-"):
                _, r, c, _ = question.id.split("-")
                self.answers[(int(r), int(c))] = p["answer"]
            elif question is not None and question.id.startswith("where-"):
                self._where_answered(question, p["answer"])
            elif question is not None and question.id.startswith("from-"):
                self._from_answered(question, p["answer"])
            elif question is not None and question.id.startswith("unseen-"):
                self._unseen_answered(p["answer"])
        elif kind == SIGHT_KIND:
            if p["on"]:
                self.sight_on.add(int(p["seat"]))
            else:
                self.sight_on.discard(int(p["seat"]))

    def _where_answered(self, question: Question, said: Any) -> None:
        """A "where is it now?" answer as the players' word on squares (`answers`): the
        screen stands on the square they named (the square it left is empty), or still
        where it was. Applied before the move it books, while the screen is on `cell`."""
        cell = _where_cell(question.id)
        screen = self._screen_on(cell)
        if screen is None or said is None:
            return
        if said == "still":
            self.answers[cell] = screen.owner
            return
        self.answers[cell] = None
        self.answers[(int(said[0]), int(said[1]))] = screen.owner

    def _from_answered(self, question: Question, said: Any) -> None:
        """A "which square did it come from?" answer as the players' word on squares
        (`answers`): the square named is empty now, and the new square holds that screen.
        Applied before the move it books, while the screen is on the square named."""
        if not isinstance(said, list):
            return
        source = (int(said[0]), int(said[1]))
        screen = self._screen_on(source)
        if screen is None:
            return
        self.answers[source] = None
        self.answers[_where_cell(question.id)] = screen.owner

    def _unseen_answered(self, said: Any) -> None:
        """A "which move did Bob make?" answer as the players' word on squares (`answers`):
        the square left is empty now and the square reached holds that screen, held so
        (`_suspect`) until the camera calls it as the engine has it. Applied before the
        moves it books."""
        if not isinstance(said, list):
            return
        left, reached = (tuple(int(v) for v in cell) for cell in said)
        screen = self._screen_on(cast(Cell, left))
        if screen is None:
            return
        self.answers[cast(Cell, left)] = None
        self.answers[cast(Cell, reached)] = screen.owner
        self._suspect.add(cast(Cell, reached))

    # -- what each seat sees -------------------------------------------------------------
    def questions(self, seat: int | None) -> list[Question]:
        return list(self.open_questions.values())

    def view(self, seat: int | None) -> dict[str, Any]:
        s = self.state
        v = ENGINE.view(s, seat)
        shown = [
            b
            for b in self.breaches
            if b["turn"] >= s.turn - 1 and (not b["private"] or b["seat"] == seat)
        ]
        v.update(
            {
                "seats": list(self.session.seats),
                "set_up": [k in self.pending for k in (0, 1)],
                "camera": None if self.camera is None else reading_to_json(self.camera),
                "breaches": [
                    {k: b[k] for k in ("rule", "detail", "seat", "turn")}
                    for b in shown[-SHOWN_BREACHES:]
                ],
                "hint": None,
                "sight": None,
                "sight_on": seat in self.sight_on,
            }
        )
        if seat is not None:
            own = self.pending.get(seat)
            if own is not None and s.phase == SETUP:
                v["word"] = own.word
                v["my_setup"] = action_to_json(own)
            hint = self.hints.get(seat)
            if hint is not None and hint["turn"] == s.turn and s.phase == PLAY:
                v["hint"] = hint
            if seat in self.sight_on and s.phase == PLAY:
                v["sight"] = [x.to_json() for x in mirror_sight(s, seat)]
        if s.phase == OVER:
            names = list(self.session.seats)
            winner = s.winner if s.winner is not None else -1
            v["result"] = (
                f"{names[winner]} wins: {s.end}" if 0 <= winner < len(names) else "the game is over"
            )
        return v


def make_table_game(settings: Any, session: Session) -> ReflectoTable:
    return ReflectoTable(settings, session)


def router() -> Any:
    from companion.games.reflecto.table.web import router as build

    return build()


def _where_cell(question_id: str) -> Cell:
    """The square a "where is it now?" (`where-ROW-COL-N`) or "which square did it come
    from?" (`from-ROW-COL-N`) question asks about."""
    _, r, c, _ = question_id.split("-")
    return int(r), int(c)
