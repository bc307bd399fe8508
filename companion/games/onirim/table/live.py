"""Solo Onirim at the table: every play checked from the camera, the rest tapped on the phone.

Event-sourced like every table game (`companion.live.table_game`): `update` and `correct`
only decide and return drafts; `apply_event` is the one place the state changes, and the
engine is the one source of truth.

- The camera: a stable change of the face-up cards (`track.py`) is explained by the engine as
  the turn's action (a Location played, a card discarded, a pair under a Mirror) and booked at
  once; a Door the play earned, or a Mirror explored, that the table does not show yet is a
  reminder; a change no legal action explains is named by the engine's refusal. The camera's
  reading alone never announces a breach: a card misread looks just like a rule broken, so
  the player is asked which play it was (the legal plays one card away offered), and the
  breach is booked only on their word that the play was made so.
- The phone (seat 0, the player): what the camera cannot see (`messages.py`). The cards drawn
  into the hand, what a prophecy showed and its order, and a card picked from the deck are
  events private to the player's seat; the public dashboard shows the table, the Doors and
  Mirrors still needed, and what is not in sight by kind, never the hand.
- A card the camera cannot name where none lay before: the players are asked, not guessed.
  So is a reading one card away from a play (a card read as another, a card missing from a
  fan or the row): the player picks the play, or puts the table back; no breach.
- "The table is right" (the admin): the engine's face-up cards become the camera's
  (`board.py`).
"""

from __future__ import annotations

import functools
import logging
import math
import threading
from collections import Counter, deque
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from companion.errors import UserError
from companion.games.base import IllegalAction
from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.actions import (
    Action,
    Discard,
    Draw,
    Nightmare,
    OpenDoor,
    Pair,
    Pick,
    Play,
    Prophecy,
    Reveal,
    action_from_json,
    action_to_json,
)
from companion.games.onirim.rules.deck import NIGHTMARE, is_door, is_location
from companion.games.onirim.rules.state import OnirimState
from companion.games.onirim.table.board import with_table
from companion.games.onirim.table.messages import (
    Answer,
    Discarded,
    DoorChoice,
    Drew,
    HintRequest,
    Looked,
    NightmareResolved,
    Paired,
    Picked,
    Prophesied,
    TableIsRight,
    parse,
)
from companion.games.onirim.table.track import (
    COLOUR_LEADS,
    STABLE_FRAMES,
    TWO_AT_A_TIME,
    Place,
    Seen,
    StableTable,
    Table,
    colour_twins,
    explain,
    half_pair,
    lag,
    laid_at,
    missed_choices,
    near_plays,
    pairs_with,
    seen_from,
    table_of,
    unclear_fits,
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
from companion.store import PUBLIC, Event, Session

log = logging.getLogger(__name__)

PANEL_JS = Path(__file__).with_name("panel.js")
PLAYER = 0
ACTION_KIND, SEEN_KIND = "onirim.action", "onirim.seen"
BREACH_KIND, HINT_KIND = "onirim.breach", "onirim.hint"
ASK_AFTER_FRAMES = 12
"""Frames in a row with a new card the camera cannot name before the players are asked
(3 s at the sim camera's 4 fps: a hand over the table passes sooner)."""
COLOUR_DOUBT = 0.25
"""A card the camera named with another colour this near (`track.COLOUR_LEADS`, the
reader's colour lead, in any of the frames that made the table steady) is asked when the
hand holds another colour of its symbol that the rules let be played so
(`track.colour_twins`), not booked: a colour named wrong cannot be told from the play made.
From the curve on the fault benchmark's development seeds (100 games, `--colour-leads` with
the reader's leads on 184 right names of development decks, seeds in the guide; a misnamed
card's lead drawn evenly from 0.06-0.235, the reader's `MARGIN` to the largest lead a wrong
best type had on its own curve): at 0 / 0.20 / 0.25, `--misnamed-cards 0.1` games all right
65 / 94 / 100 of 100, questions added on clean films (`--fault-scale 0`) 0 / 120 / 170. The
right names led by 0.099 at the least, 14 % under 0.25. 0.25: the least that asks every
modelled misreading."""
HIDDEN_FRAMES = 40
"""Frames in a row (10 s at 4 fps) that cards the game has may go unseen, as under a hand
resting on the table, or one card of a pair lie alone under a Mirror (laid in two motions),
before it is flagged."""
MISSED_ASKS = 2
"""Times a turn's "which play did the camera miss?" is asked: once more lets the player mend
a "none of these" said by mistake (every tap of the turn would be refused after it for
good); no more, so taps tried again are not asked about frame after frame."""
SHOWN_BREACHES = 5
PUT_BACK = "back"
"""The answer to "which play was it?" that says none: the player puts the table back."""
LAID_ALONE = "alone:"
"""An answer's prefix (then the Mirror's id) saying one card was laid alone under a Mirror:
the breach the camera only suspected, booked on the player's word."""
BROKE = "broke"
"""The key of an answer saying the play the camera read, which the rules forbid, is the one
made (`{BROKE: rule, "detail": detail}`): the breach booked on the player's word."""
HINT_SHOWN = 5
NOT_TAUGHT = (
    "The companion does not know your cards yet: teach your deck once "
    "(`companion teach onirim DIR`, one photo per card type)."
)
TEACHING_SIM = "The simulated camera's deck is being taught (a few seconds)."
WAITING = {
    "setup": "Deal yourself a hand of five and tap each card you draw.",
    "turn": "Your turn: play a Location, discard a card or lay a pair under a Mirror.",
    "prophecy-look": "Prophecy: tap the cards on top of the deck, top first.",
    "prophecy": "Prophecy: discard one of them and put the rest back; tap your choice.",
    "refill": "Draw back to five and tap each card you draw.",
    "door": "You drew a Door and hold a Key of its colour: open it or not?",
    "nightmare": "A Nightmare: tap how you resolve it.",
    "nightmare-look": "Tap the cards the Nightmare revealed, top first.",
    "redraw": "Draw a new hand of five and tap each card.",
    "effect": "The Mirror's effect: tap your choice.",
    "over": "The game is over.",
}


def is_private(state: OnirimState, action: Action) -> bool:
    """Whether an action tells something only the player may know: a card into the hand,
    the top of the deck a prophecy showed and its new order, a card picked onto the deck."""
    if isinstance(action, Draw):
        return state.phase in ("setup", "refill", "redraw") and is_location(action.card)
    if isinstance(action, Reveal):
        return state.phase == "prophecy-look"
    if isinstance(action, Prophecy):
        return True
    if isinstance(action, Pick):
        return not is_door(action.card)
    return False


class OnirimTable:
    game_id = "onirim"

    def __init__(self, settings: Any, session: Session) -> None:
        self.state: OnirimState = start_state(
            ENGINE, session, "Onirim", range(1, 2), "Onirim is played solo here: one seat"
        )
        from companion.games.onirim.vision.layout import load_layout

        self.settings = settings
        self.session = session
        self.layout = load_layout()
        self.window = len(self.layout.labyrinth_places)
        # -- the state (changed only in apply_event) --
        self.camera: Table | None = None
        self.breaches: list[dict[str, Any]] = []
        self.open_questions: dict[str, Question] = {}
        self.asked = 0
        self.answers: dict[Place, str] = {}
        self.hint: dict[str, Any] | None = None
        self.history: list[dict[str, Any]] = []
        self.booked = 0
        """Engine actions booked so far (the sim film waits for them)."""
        self._turn_action: tuple[int, Action] | None = None
        """The last turn's action booked (a play, discard or pair) and the turn count after
        it: a pair tapped in that the camera or an answer booked already is not refused."""
        # -- tracker memory (never shown; rebuilt from frames after a restart) --
        self.tracker = StableTable()
        self._partial = StableTable()
        self._missed = False
        self._missed_asked = (-1, 0)
        """The turn the missed-play question was last asked in, and how many times."""
        self._last_top: str | None = None
        self._tops_named: deque[bool] = deque(maxlen=STABLE_FRAMES)
        """For the last frames: whether the camera named the pile's top (not the game's top
        filled in for a pile it did not read, `_judged`)."""
        self._stable_named = False
        """Whether the camera named the pile's top in a reading of the stable table."""
        self._game_top: str | None = None
        """The game's top at the last frame."""
        self._stale: set[str] = set()
        """The tops the game's pile has had since a stable reading last named a top none of
        them, or the game's own: such a top read is no evidence of a discard (`_judged`)."""
        self._leads: deque[dict[Place, float]] = deque(maxlen=STABLE_FRAMES)
        """For the last frames: the reader's colour leads by place (`track.COLOUR_LEADS`)."""
        self._tops: deque[str] = deque(maxlen=STABLE_FRAMES)
        """The same readings with their unnamed cards (`track.UNCLEAR`) kept."""
        self._flagged: Table | None = None
        self._doubt = 0
        self._unsure = 0
        self._hidden = 0
        self._asked: Table | None = None
        self._twins_asked: Table | None = None
        """The table last asked about for a card named while the hand holds its colour twin
        (`_ask_twins`), and the actions booked then."""
        self._twins_booked = -1
        self._base: Table | None = None
        self._row_low: int | None = None
        """The shortest row read since the game last booked a Location (None: nothing read
        since). A card at a place the camera has not read empty since is no card it saw
        laid: the bare table can read as a card there (`_unseen_place`)."""
        # -- perception (the perception thread's own) --
        self._reader: Any = None
        self._sim_library: Any = None
        self._library_error: str | None = None

    @property
    def table_markers(self) -> tuple[int, ...]:
        return tuple(self.layout.corner_ids)

    # -- the simulated table and the camera (perception thread) ------------------------
    def sim_scene(self, seed: int) -> Any:
        from companion.games.onirim.vision.film import FilmScene

        # Its deck is taught on the first frame read (`_reader_for`); the film waits for it.
        options = {"mirrors": self.state.mirrors, "hard": self.state.hard}
        return FilmScene(
            seed, options, ready=lambda: self._sim_library is not None, booked=lambda: self.booked
        )

    def use_library(self, library: Any) -> None:
        """Read with this taught deck (a benchmark's, or the sim camera's)."""
        self._sim_library = library

    def _reader_for(self) -> Any:
        from companion.games.onirim.vision.read import TableReader
        from companion.games.onirim.vision.teach import default_library_path, load_library

        lib = self._sim_library
        if lib is None and _camera_is_sim(self.settings):
            lib = self._sim_library = _sim_library_soon(int(self.settings.camera.seed))
            if lib is None:
                self._library_error = TEACHING_SIM
                return None
        if lib is None:
            try:
                lib = load_library(default_library_path(self.settings.data_dir))
            except UserError as exc:
                if self._library_error is None:
                    log.info("onirim: %s", exc)
                self._library_error = NOT_TAUGHT
                return None
        self._library_error = None
        if self._reader is None or self._reader.lib is not lib:
            self._reader = TableReader(lib, self.layout)
        return self._reader

    def perceive(self, frame: Any, registration: Any) -> Observation:
        reader = self._reader_for()
        if reader is None:
            return Observation({"error": self._library_error, "located": False}, 0.0)
        # The live loop has detected this frame's markers already: not a second time.
        markers = getattr(registration, "markers", None) or None
        located = reader.locate(frame.image, markers)
        if located is None and markers:  # another marker dictionary in the settings
            located = reader.locate(frame.image)
        if located is None:
            return Observation({"located": False}, 0.0)
        reading = reader.read(frame.image, located=located)
        maybe = [[zone, k, list(kinds)] for zone, k, kinds in reading.maybe]
        leads = [[zone, k, lead] for zone, k, lead in reading.leads]
        data = reading.to_json("frame") | {"located": True, "maybe": maybe, COLOUR_LEADS: leads}
        cards = [*reading.labyrinth, *(c for m in reading.mirrors for c in m.under)]
        named = sum(c is not None for c in cards)
        return Observation(data, named / len(cards) if cards else 1.0)

    def annotate(
        self, image: np.ndarray, registration: Any, observation: Observation
    ) -> np.ndarray:
        return image

    # -- deciding ----------------------------------------------------------------------
    def update(self, observation: Observation, now: float) -> list[EventDraft]:
        data = observation.data if isinstance(observation.data, dict) else {}
        seen = seen_from(data, table_of(self.state, self.window), self.answers)
        seen = self._pile_kept(seen)
        self._leads.append(seen.leads)
        self._stale_tops()
        self._tops_named.append(
            data.get("discard_top") is not None
            or not self.state.discard
            or ("discard", 0) in self.answers
        )
        read = seen.table or seen.partial
        if read is not None:
            low = len(read.labyrinth)
            self._row_low = low if self._row_low is None else min(self._row_low, low)
        if seen.table is None:
            self.tracker.update(None)  # an unsettled frame all the same
        self._partial.update(seen.partial)
        steady = (
            self._judged(self._partial.steady(), any(self._tops_named))
            if seen.table is None
            else None
        )
        fits, sure = (
            unclear_fits(ENGINE, self.state, steady, self.window, seen.maybe)
            if steady
            else ((), False)
        )
        if steady and not fits and seen.maybe:
            # The colour the camera told fits no play: it may be the colour that is wrong,
            # so the plays that fit without it are offered (never booked on a guess).
            fits, sure = unclear_fits(ENGINE, self.state, steady, self.window)
        twins = self._colour_doubt(fits[0], steady) if sure and steady is not None else ()
        if sure and not twins and not self._unseen_place(fits[0]):
            # The cards the camera named leave one play, an unnamed card only where the
            # last card's body lies: it is booked. A play that needs an unnamed card to be
            # a card of the hand is asked (the engine's plays that fit, or none of them).
            self._flagged = None
            return [self._action(fits[0], "camera")]
        if sure and steady is not None and twins:
            self._flagged = None
            return self._ask_twins((fits[0], *twins), steady)
        if (
            self._missed
            and self.state.phase == "turn"
            and not self._asking_which()
            and self._missed_times() < MISSED_ASKS
        ):
            # The player tapped what follows a play the camera did not book: they are asked
            # which play it was, every legal one offered, those nearest the reading first;
            # at most MISSED_ASKS times a turn (a tap tried again is not asked about every
            # frame). Before anything else the reading may still wait on (a card it cannot
            # name, a question answered "none of these"): the tap says a play was made.
            self._missed, self._asked = False, None
            self._missed_asked = (self.state.turns, self._missed_times() + 1)
            shown = (
                steady
                or self._judged(self.tracker.stable, self._stable_named)
                or table_of(self.state, self.window)
            )
            return self._ask_which(
                missed_choices(ENGINE, self.state, shown, self.window),
                shown,
                back=True,
                wait=False,
                text="The camera missed your play: which was it?",
            )
        self._missed = False
        if fits and steady is not None:
            return self._ask_which(fits, steady, back=True, wait=False)
        drafts = self._ask(seen.unclear)
        new = self.tracker.update(seen.table) if seen.table is not None else None
        if new is not None:
            self._stable_named = any(self._tops_named)
            drafts.append(EventDraft(SEEN_KIND, {"table": new.to_json()}))
        elif seen.table is not None and seen.table == self.tracker.stable:
            self._stable_named = self._stable_named or self._tops_named[-1]
        self._stale_seen()
        stable = self._judged(self.tracker.stable, self._stable_named)
        if stable is None or self.state.phase == "over":
            return drafts
        found = explain(ENGINE, self.state, stable, self.window, self._base)
        if not (found.hidden or found.choices or found.breach):
            # The game agrees with this reading, books it, or awaits taps. Kept as read, its
            # stale top too (`_judged`): a pile read as it lay before, stale no more once
            # the camera has named another top, is then still no change since.
            self._base = self.tracker.stable
        # Hidden cards are waited out while the player taps (a Mirror's fourth card lies
        # out of the fan's view until its effect is chosen).
        self._hidden = self._hidden + 1 if found.hidden and self.state.phase == "turn" else 0
        if self._hidden >= HIDDEN_FRAMES and stable != self._flagged:
            want = table_of(self.state, self.window)
            alone = half_pair(stable, want)
            near = (
                pairs_with(ENGINE, self.state, stable, alone)
                if alone is not None
                else near_plays(ENGINE, self.state, stable, self.window)
            )
            if near or alone is None or self._asking_which():
                # One card of a pair laid and the other held, or cards unseen (a resting
                # hand, a row or fan read short): the camera cannot tell a slow play or its
                # own miss from a wrong one, so it asks; the player may put the table back.
                unseen = None if near or alone is not None else _missing(stable, want)
                return drafts + self._ask_which(near, stable, back=True, wait=False, unseen=unseen)
            # A card alone that no legal pair holds: the camera's misreading of the fan (a
            # phantom, a card read as another, the hand's card or not) is far likelier than
            # a card laid alone, so the player is asked; their answer confirms a breach.
            return drafts + self._ask_which(
                (), stable, wait=False, unlike=(f"the {alone.title()} Mirror",), alone=alone
            )
        self._unsure = self._unsure + 1 if found.choices else 0
        if found.choices:
            return drafts + self._ask_which(found.choices, stable, back=found.misread)
        if found.misread:
            self._flagged = None  # a laid card read as another: the game's card stands
            if found.unlike:
                # No play lays the table so and no rule is broken in it: the game's table
                # stands and the player is asked once, not flagged.
                return drafts + self._ask_which(
                    (), stable, wait=False, unlike=found.unlike, alone=found.alone
                )
            return drafts
        if found.action is not None:
            self._flagged = None
            twins = self._colour_doubt(found.action, stable)
            if twins:
                return drafts + self._ask_twins((found.action, *twins), stable)
            if self._unseen_place(found.action):
                return drafts + self._ask_which((found.action,), stable, back=True, wait=False)
            return [*drafts, self._action(found.action, "camera")]
        if found.breach is not None and stable != self._flagged:
            # The camera's reading is the only evidence of the breach, and a card misread
            # (a brown Sun read as the red Moon after a red Moon) looks just like one: the
            # player is asked first, offered the legal plays one card away, that they did
            # lay it so (the breach is then booked on their word) or that it is put back.
            return drafts + self._ask_which(
                near_plays(ENGINE, self.state, stable, self.window),
                stable,
                back=True,
                wait=False,
                broken=found.breach,
            )
        elif found.breach is None and not found.hidden:
            self._flagged = None
        return drafts

    def _unseen_place(self, action: Action) -> bool:
        """Whether `action` plays to a place of the row the camera has not read empty since
        the game's last Location: what it reads there may be the bare table read as a card
        (a patch of cloth can look like a card's corner for a whole game), so the play is
        asked, not booked. A full row shifts as a card is played: no place of it is new."""
        n = len(self.state.labyrinth)
        return (
            isinstance(action, Play)
            and n < self.window
            and self._row_low is not None
            and self._row_low > n
        )

    def _stale_tops(self) -> None:
        """Adds the game's top to `_stale` when the game's top changes. A top named before a
        tap or an answer changed the game's top (a Mirror's four cards put on the pile, a
        Nightmare resolved) and still read after it (a player who taps before moving the
        cards), the new top unnamed, is no discard of that card: the camera has not seen the
        pile change (the fault benchmark's `--tapped-tops`). Every top the game had since is
        kept, not only the one the camera named: a top put there by a tap may be read
        after the next tap too (the pile still as it lay), never having settled in a stable
        reading while it was the game's."""
        top = self.state.discard[-1] if self.state.discard else None
        if top != self._game_top:
            if self._game_top is not None:
                self._stale.add(self._game_top)
            self._game_top = top

    def _stale_seen(self) -> None:
        """Empties `_stale` once the stable reading names a top none of it, or the game's
        own: the camera saw the pile change, and a stale card named on it later is a
        discard again. Judged on the stable reading, not frame by frame: the pile may read
        steadily as the game has it while the stable reading still holds the stale top
        (another place in it not yet settled)."""
        stable = self.tracker.stable
        top = stable.discard_top if stable is not None else None
        if (
            self._stable_named
            and top is not None
            and (top not in self._stale or top == self._game_top)
        ):
            self._stale.clear()

    def _judged(self, table: Table | None, named: bool) -> Table | None:
        """A steady reading as it is judged now. Where the camera did not name the pile's
        top, `seen_from` filled in the game's top as it was then; a tap or an answer may
        have changed it since (a Mirror explored by a pair tapped in puts its four cards on
        the pile), and the old top then looked like a discard of that card, booked when the
        hand held one (the two games lost at 88f764c; the fault benchmark's
        `--unnamed-tops`). Only a top the camera named is evidence of a discard: one it did
        not name is the game's top as it is now. (Filled in when read, not left out: a
        frame whose pile flickers unread still reads alike the frames that name it.) Nor is
        a named top the game's pile had before its top last changed (`_stale_tops`)."""
        top = self.state.discard[-1] if self.state.discard else None
        if table is None or table.discard_top == top:
            return table
        if named and table.discard_top not in self._stale:
            return table
        return replace(table, discard_top=top)

    def _missed_times(self) -> int:
        """How many times this turn the player was asked which play the camera missed."""
        turn, times = self._missed_asked
        return times if turn == self.state.turns else 0

    def _pile_kept(self, seen: Seen) -> Seen:
        """The discard pile read as empty after it was read with a card: its last top read
        (the pile only grows; its top read on and off would never settle otherwise). The
        rest of the frame as read, its colours told for unnamed cards (`maybe`) too: those
        narrow an unnamed card to the hand's cards of its colour (`track.unclear_fits`)."""
        read = next((t.discard_top for t in (seen.table, seen.partial) if t is not None), None)
        if read is not None:
            self._tops.append(read)
            if len(self._tops) == self._tops.maxlen and len(set(self._tops)) == 1:
                self._last_top = read  # read alike in a row: a flicker does not stick
        top = self._last_top

        def kept(t: Table | None) -> Table | None:
            return replace(t, discard_top=top) if t is not None and t.discard_top is None else t

        if top is None:
            return seen
        return replace(seen, table=kept(seen.table), partial=kept(seen.partial))

    def _ask(self, unclear: tuple[Place, ...]) -> list[EventDraft]:
        """A new card the camera cannot name for a while: ask which it is, not guess."""
        self._doubt = self._doubt + 1 if unclear else 0
        if self._doubt < ASK_AFTER_FRAMES or self.open_questions:
            return []
        zone, k = unclear[0]
        kinds = [c for c in ENGINE.deck.kinds if is_location(c) or zone == "discard"]
        where = (
            "the labyrinth"
            if zone == "labyrinth"
            else "the discard pile"
            if zone == "discard"
            else f"the {zone.removeprefix('under-').title()} Mirror"
        )
        text = f"I cannot tell card {k + 1} of {where}. Which card is it?"
        return [
            question_draft(
                Question(
                    f"card.{zone}.{k}.{self.asked}",
                    text,
                    [{"label": card_words(c), "value": c} for c in kinds],
                )
            )
        ]

    def _ask_which(
        self,
        choices: tuple[Action, ...],
        stable: Table,
        back: bool = False,
        wait: bool = True,
        unseen: str | None = None,
        text: str | None = None,
        unlike: tuple[str, ...] = (),
        alone: str | None = None,
        broken: Breach | None = None,
    ) -> list[EventDraft]:
        """Several plays lay the table as seen, or (`back`) none does but some are one card
        away from it: the player says which (privately: the choices name cards of the
        hand), or that the table is to be put back. Asked once per stable table."""
        if (
            (wait and self._unsure < ASK_AFTER_FRAMES)
            or self._asking_which()
            or stable == self._asked
        ):
            return []
        self._asked = stable
        options = [{"label": _label(a), "value": action_to_json(a)} for a in choices]
        asked = text or "The camera saw the end of your play, not the play: which was it?"
        if back:
            options.append({"label": "none of these: I put the table back", "value": PUT_BACK})
            asked = text or "The camera is not sure what it saw on the table: which play was it?"
        if unseen is not None:
            options = [{"label": "they lie there: nothing was played", "value": PUT_BACK}]
            asked = f"The camera cannot see {unseen}: are those cards still there?"
        if unlike:
            options = [
                {"label": "it lies as the game has it: nothing was played", "value": PUT_BACK}
            ]
            asked = (
                f"The camera reads {_and(unlike)} unlike the game, and no play explains it: "
                "does it lie as the game has it? If not, put it back so."
            )
        if broken is not None:
            # `broken`: the engine's refusal of the play the camera read; the player may
            # say they made it (the breach is booked on their word, not the camera's).
            options.insert(
                len(choices),
                {
                    "label": f"I made that play ({broken.detail}), though the rules forbid it",
                    "value": {BROKE: broken.rule, "detail": broken.detail},
                },
            )
            asked = (
                f"The camera reads a play the rules forbid ({broken.rule}: {broken.detail}), "
                "but it may have misread a card: which play was it?"
            )
        if alone is not None:
            # `alone`: the Mirror under which one card is read alone; the player may say
            # they laid it so (the breach is booked on their word, not the camera's).
            options.append(
                {"label": "I laid one card alone there", "value": f"{LAID_ALONE}{alone}"}
            )
        return [
            question_draft(
                Question(f"turn.{self.state.turns}.{self.asked}", asked, options, PLAYER)
            )
        ]

    def _colour_doubt(self, action: Action, seen: Table) -> tuple[Action, ...]:
        """The plays `action` would be with a card of it another colour of its symbol that
        the hand holds (`track.colour_twins`), for each card the camera was unsure of the
        colour of: in one of the last frames the reader told it from another colour by less
        than `COLOUR_DOUBT`. Empty when it was sure (the play is booked) or no twin is
        legal."""
        now = table_of(self.state, self.window)
        doubted = {
            card
            for place, card in laid_at(action, seen, now)
            if min((f.get(place, math.inf) for f in self._leads), default=math.inf) < COLOUR_DOUBT
        }
        return colour_twins(ENGINE, self.state, action, doubted) if doubted else ()

    def _ask_twins(self, choices: tuple[Action, ...], stable: Table) -> list[EventDraft]:
        """The camera named a card while the hand holds another colour of its symbol
        (`track.colour_twins`): its colour alone does not tell the plays apart, so the
        player says which it was. The table asked about is then the one the game agrees
        with (`_answer`): the name read, if wrong, is a steady misreading, not a play."""
        if stable == self._asked and self.booked != self._twins_booked:
            self._asked = None  # the same table again, a play later (a Sun on a Sun): asked
        drafts = self._ask_which(choices, stable, back=True, wait=False)
        if drafts:
            self._twins_asked, self._twins_booked = stable, self.booked
        return drafts

    def _asking_which(self) -> bool:
        """Whether a "which play was it?" is open (a question about one card does not stop
        one: the play may tell that card)."""
        return any(q.startswith("turn.") for q in self.open_questions)

    def _action(self, action: Action, by: str) -> EventDraft:
        payload = {"action": action_to_json(action), "by": by}
        if is_private(self.state, action):
            return EventDraft.private(PLAYER, ACTION_KIND, payload)
        return EventDraft(ACTION_KIND, payload)

    def _breach(self, breach: Breach) -> EventDraft:
        return EventDraft(
            BREACH_KIND,
            breach.to_json(self.session.seats) | {"turn": self.state.turns},
            snapshot=True,
        )

    # -- the phone and corrections -------------------------------------------------------
    def correct(self, payload: Correction, seat: int | None) -> list[EventDraft]:
        c = parse(payload)
        if isinstance(c, Answer):
            return self._answer(c, seat)
        if isinstance(c, TableIsRight):
            return self._table_is_right(seat)
        if seat is not None and seat != PLAYER:
            raise UserError("Onirim is solo: only the player's seat taps")
        if isinstance(c, HintRequest):
            return [self._hint(self._own(seat, "a hint"))]
        self._own(seat, "what you drew and chose")
        actions = self._actions_of(c)
        booked = self._turn_action == (self.state.turns, actions[0])
        if booked and (
            isinstance(c, Paired) or (isinstance(c, Discarded) and self.state.phase != "turn")
        ):
            # The player taps the pair whose fourth card explored a Mirror while the camera
            # asks which pair it was (or, before the draws, the discard onto a card of its
            # kind that the camera asked about as a card named in another colour,
            # `_ask_twins`): answered first, the action is booked; the tap says the same, so
            # nothing is recorded and nothing refused (a refusal would hold up the draws
            # tapped after it).
            return []
        drafts, state = [], self.state
        for action in actions:
            drafts.append(self._action_on(state, action))
            try:
                state = ENGINE.apply(state, action)  # IllegalAction: nothing is recorded
            except IllegalAction:
                if self.state.phase == "turn" and not isinstance(c, Discarded | Paired):
                    self._missed = True  # a tap after a play the camera never booked
                raise
        return drafts

    def _action_on(self, state: OnirimState, action: Action) -> EventDraft:
        payload = {"action": action_to_json(action), "by": "tap"}
        if is_private(state, action):
            return EventDraft.private(PLAYER, ACTION_KIND, payload)
        return EventDraft(ACTION_KIND, payload)

    @staticmethod
    def _actions_of(c: Any) -> list[Action]:
        if isinstance(c, Drew):
            return [Draw(card) for card in c.cards]
        if isinstance(c, Looked):
            return [Reveal(tuple(c.cards))]
        if isinstance(c, Prophesied):
            return [Prophecy(c.discard, tuple(c.order))]
        if isinstance(c, NightmareResolved):
            return [Nightmare(c.way, c.card)]
        if isinstance(c, DoorChoice):
            return [OpenDoor(c.open)]
        if isinstance(c, Picked):
            return [Pick(c.card)]
        if isinstance(c, Discarded):
            return [Discard(c.card)]
        if isinstance(c, Paired):
            a, b = sorted(c.cards)
            return [Pair(c.mirror, (a, b))]
        raise UserError(f"not a tap Onirim knows: {c!r}")

    @staticmethod
    def _own(seat: int | None, what: str) -> int:
        if seat is None:
            raise UserError(f"{what} belongs to the player: open the player's seat link")
        return seat

    def _answer(self, c: Answer, seat: int | None) -> list[EventDraft]:
        question, answered = answer_draft(self.open_questions, c, seat)
        drafts = [answered]
        if isinstance(c.answer, str) and c.answer.startswith(LAID_ALONE):
            mirror = c.answer.removeprefix(LAID_ALONE)
            breach = Breach(
                TWO_AT_A_TIME, f"one card under the {mirror.title()} Mirror (the player says so)"
            )
            return [*drafts, self._breach(breach)]
        if isinstance(c.answer, dict) and BROKE in c.answer:
            # The player says the play the camera read is the one made: the breach stands
            # on their word. The next play is what changes from the table asked about (a
            # breach left on the table does not make every later play one).
            self._flagged = self._base = self._asked
            rule, detail = str(c.answer[BROKE]), str(c.answer["detail"])
            return [*drafts, self._breach(Breach(rule, f"{detail} (the player says so)"))]
        if question.id.startswith("turn.") and c.answer != PUT_BACK:
            action = action_from_json(c.answer)  # type: ignore[arg-type]
            ENGINE.apply(self.state, action)
            drafts.append(self._action(action, "answer"))
            if self._asked is not None and self._asked == self._twins_asked:
                # The player names the card of the table asked about: that reading is the
                # one the game agrees with, a name misread in it a steady misreading (the
                # changes after it are judged from it, `track.rebase`), and a top named on
                # the pile other than the card discarded no evidence of a discard of that
                # card (still in the hand) until the camera names another (`_judged`).
                self._base, self._twins_asked = self._asked, None
                read = self._asked.discard_top
                if isinstance(action, Discard) and read not in (None, action.card):
                    self._stale.add(read)
        return drafts

    def _table_is_right(self, seat: int | None) -> list[EventDraft]:
        admin_only_table_is_right(seat)
        camera = steady_reading(self.camera, "the table")
        with taken_as_the_table("the table"):
            after = with_table(ENGINE, self.state, camera, self.window)
        board = table_of(after, self.window).to_json()
        return [table_is_right_draft(board, {"table": camera.to_json()})]

    def _hint(self, seat: int) -> EventDraft:
        from companion.games.onirim.hint import hint

        s = self.state
        if ENGINE.current_player(s) != PLAYER:
            raise UserError(
                "a hint is for a choice of yours: " + WAITING.get(s.phase, "wait for your turn")
            )
        found = hint(s)
        rated = [
            {"action": action_to_json(r.action), "win": round(r.win, 3), "searched": r.searched}
            for r in found.actions[:HINT_SHOWN]
        ]
        return EventDraft.private(
            seat, HINT_KIND, {"turn": s.turns, "phase": s.phase, "actions": rated}, once=True
        )

    # -- the state -----------------------------------------------------------------------
    def apply_event(self, event: Event) -> None:
        p, kind = event.payload, event.kind
        if kind == ACTION_KIND:
            action = action_from_json(p["action"])
            before = self.state
            self.state = ENGINE.apply(before, action)
            self.booked += 1
            self.hint = None
            if isinstance(action, Play | Discard | Pair):
                self._turn_action = (self.state.turns, action)
            if isinstance(action, Play):
                self._row_low = None  # the next place is new: read empty from here on
            if isinstance(action, Discard | Draw | Reveal) or p.get("by") == "camera":
                self.answers = {}
            if p.get("by") == "camera" or event.visibility == PUBLIC:
                self.history.append(self._entry(before, action, event.visibility))
            for qid in [q for q in self.open_questions if q.startswith("turn.")]:
                del self.open_questions[qid]  # the play is booked: nothing left to ask
        elif kind == SEEN_KIND:
            self.camera = Table.from_json(p["table"])
        elif kind == TABLE_RIGHT_KIND:
            seen = Table.from_json(p["seen"]["table"])
            self.state = with_table(ENGINE, self.state, seen, self.window)
            self.breaches = [b for b in self.breaches if b["turn"] != self.state.turns]
            self._flagged = self._base = None
        elif kind == BREACH_KIND:
            self.breaches.append(dict(p))
        elif kind == HINT_KIND:
            self.hint = dict(p)
        elif kind == QUESTION_KIND:
            self.open_questions[p["id"]] = Question(p["id"], p["text"], p["choices"], p["seat"])
            self.asked += 1
        elif kind == ANSWER_KIND:
            question = self.open_questions.pop(p["question"], None)
            if question is not None and question.id.startswith("card."):
                _, zone, k, _ = question.id.split(".")
                self.answers[(zone, int(k))] = str(p["answer"])

    def _entry(self, before: OnirimState, action: Action, visibility: str) -> dict[str, Any]:
        """A line of the public history: what happened, the hand never named."""
        after = self.state
        line = {"turn": after.turns, "action": action_to_json(action)}
        if visibility != PUBLIC:
            line["action"] = {"type": "draw" if isinstance(action, Draw) else "private"}
        earned = sorted((Counter(after.doors) - Counter(before.doors)).elements())
        if earned:
            line["doors"] = earned
        return line

    # -- what each seat sees -------------------------------------------------------------
    def questions(self, seat: int | None) -> list[Question]:
        return [q for q in self.open_questions.values() if q.seat is None or q.seat == seat]

    def view(self, seat: int | None) -> dict[str, Any]:
        s = self.state
        own = seat == PLAYER
        v = ENGINE.view(s, PLAYER if own else None)
        want = table_of(s, self.window)
        behind = lag(self.camera, want) if self.camera is not None else None
        unseen = Counter({k: n for k, n in zip(ENGINE.deck.kinds, s.deck, strict=True) if n})
        unseen.update(s.hand)
        hidden = sum(unseen.values())
        v.update(
            {
                "seats": list(self.session.seats),
                "camera": None if self.camera is None else self.camera.to_json(),
                "table_matches": self.camera is not None and behind is not None,
                "reminders": behind.reminders() if behind is not None else [],
                "breaches": [b for b in self.breaches if b["turn"] >= s.turns][-SHOWN_BREACHES:],
                "waiting": WAITING.get(s.phase, ""),
                "unseen_by_kind": dict(sorted(unseen.items())),
                "unseen_nightmare_share": round(unseen[NIGHTMARE] / hidden, 4) if hidden else 0.0,
                "history": self.history[-12:],
                "hint": None,
                "choices": None,
                "library": self._library_error,
            }
        )
        if own:
            if (
                self.hint is not None
                and self.hint["turn"] == s.turns
                and self.hint["phase"] == s.phase
            ):
                v["hint"] = self.hint
            v["choices"] = self._choices(s)
        if s.phase == "over":
            v["result"] = (
                "Won: every Door is open" if s.outcome == "won" else "Lost: the deck ran out"
            )
        return v

    def _choices(self, s: OnirimState) -> list[dict[str, Any]] | None:
        """The taps the phone offers for a choice of the player's (not the turn's action,
        which the camera sees; a prophecy's order is offered as shown, any other order can be
        posted)."""
        if ENGINE.current_player(s) != PLAYER or s.phase == "turn":
            return None
        out = []
        for a in ENGINE.legal_actions(s):
            if isinstance(a, Prophecy) and list(a.order) != [
                c for c in _without_one(s.shown, a.discard)
            ]:
                continue
            out.append({"label": _label(a), "payload": _tap(a)})
        return out


def _missing(seen: Table, want: Table) -> str:
    parts = []
    if seen.labyrinth != want.labyrinth:
        parts.append(f"the labyrinth from card {len(seen.labyrinth) + 1}")
    read = {m.mirror: m for m in seen.mirrors}
    parts += [f"the {m.mirror.title()} Mirror" for m in want.mirrors if read.get(m.mirror) != m]
    return ", ".join(parts) or "some"


def _and(parts: tuple[str, ...]) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def _without_one(cards: tuple[str, ...], card: str | None) -> list[str]:
    out = list(cards)
    if card is not None:
        out.remove(card)
    return out


def _tap(a: Action) -> dict[str, Any]:
    from companion.games.onirim.vision.film import tap_payload

    return tap_payload(a)


def card_words(card: str) -> str:
    """A card as the player names it ("the red Sun", "the blue Door", "a Nightmare"), not
    its kind's id ("red-sun"), which stays in values and events."""
    if card == NIGHTMARE:
        return "a Nightmare"
    a, _, b = card.partition("-")
    return f"the {b} Door" if a == "door" else f"the {a} {b.title()}"


def _label(a: Action) -> str:
    """A choice's button in words (the panel's and a question's)."""
    if isinstance(a, Prophecy):
        return f"discard {card_words(a.discard)}" if a.discard else "discard nothing"
    if isinstance(a, Nightmare):
        card = card_words(a.card) if a.card else ""
        return {
            "key": f"discard {card}",
            "door": f"send {card} to limbo",
            "reveal": "reveal the top five",
            "hand": "discard the hand",
        }[a.way]
    if isinstance(a, OpenDoor):
        return "open the Door" if a.open else "put it in limbo"
    if isinstance(a, Pick):
        return f"pick {card_words(a.card)}"
    if isinstance(a, Pair):
        first, second = (card_words(c) for c in a.cards)
        return f"{first} and {second} under the {a.mirror.title()} Mirror"
    if isinstance(a, Play | Discard | Draw):
        return f"{type(a).__name__.lower()} {card_words(a.card)}"
    return str(action_to_json(a))


def _camera_is_sim(settings: Any) -> bool:
    camera = getattr(settings, "camera", None)
    return camera is not None and str(getattr(camera, "source", "")).strip() == "sim"


_TEACHING: dict[int, threading.Thread] = {}


def _sim_library_soon(seed: int) -> Any:
    """The sim deck's library if built, else None while a thread builds it: the camera's
    frames keep flowing to the dashboard meanwhile (the first frame would wait otherwise)."""
    thread = _TEACHING.get(seed)
    if thread is None:
        thread = _TEACHING[seed] = threading.Thread(
            target=sim_library, args=(seed,), name="onirim-sim-deck", daemon=True
        )
        thread.start()
    if thread.is_alive():
        return None
    return sim_library(seed)


@functools.lru_cache(maxsize=2)
def sim_library(seed: int) -> Any:
    """The `sim` camera's deck for a seed, once per process, straight from its card faces
    (the film's own art: each face's identifying corner, as `teach` cuts it from a photo).
    A user's deck is taught from photos (`teach.teach_photos`); the benchmark teaches the
    film's deck that way too (`taught_library`)."""
    from companion.games.onirim.vision.film import scene_faces
    from companion.games.onirim.vision.teach import CornerShape
    from companion.vision.cards.identify import upper_window
    from companion.vision.cards.library import CARD_W_MM, Library, descriptor

    faces = scene_faces(seed)
    ids, templates, patches = [], [], []
    shape: Any = None
    for cid, face in faces.items():
        h, w = face.shape[:2]
        if shape is None:
            shape = CornerShape(height_mm=CARD_W_MM * h / w, border_mm=0.0)
        alpha = face[..., 3:].astype(np.float32) / 255
        bgr = (face[..., :3].astype(np.float32) * alpha + 128 * (1 - alpha)).astype(np.uint8)
        outline = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
        patch = upper_window(
            bgr, outline, Library([], np.zeros((0, 1)), np.zeros((0, 1)), shape), margin=0
        )
        ids.append(cid)
        templates.append(descriptor(patch))
        patches.append(patch)
    return Library(ids, np.stack(templates).astype(np.float32), np.stack(patches), shape)


def taught_library(seed: int) -> Any:
    """The film's deck for a seed taught as a user teaches: one photo per card type
    (`film.teach_snapshot`) through `teach.teach_photos`."""
    import tempfile

    import cv2

    from companion.games.onirim.vision.film import scene_faces, teach_snapshot
    from companion.games.onirim.vision.teach import teach_photos

    faces = scene_faces(seed)
    rng = np.random.default_rng([seed, 99])
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for cid, face in faces.items():
            path = Path(tmp) / f"{cid}.jpg"
            cv2.imwrite(str(path), teach_snapshot(face, rng), [cv2.IMWRITE_JPEG_QUALITY, 92])
            paths[cid] = path
        return teach_photos(paths).library


def make_table_game(settings: Any, session: Session) -> OnirimTable:
    return OnirimTable(settings, session)


def router() -> Any:
    from companion.games.onirim.table.web import router as build

    return build()


__all__ = ["PANEL_JS", "OnirimTable", "make_table_game", "router"]
