"""From camera readings to Onirim actions: stability, then the engine explains the change.

The camera reads what lies face up (`vision/reading.py`): the labyrinth, the Doors, the
Mirrors with the cards under them, the discard pile's top. A reading counts once it has been
the same for `STABLE_FRAMES` frames. A card the camera cannot name where the game already
has one keeps the game's card (a card once laid does not change); one it cannot name where
none lay yet makes the frame unclear, and the players are asked if that lasts.

A stable reading that differs from what the engine has on the table is explained by the
engine itself: of the turn's legal actions (play, discard, pair under a Mirror), the one whose
table is the reading. Some of the table lags behind the engine without anything being wrong:
a Door the engine has put into play (earned by three of a colour, or by a Mirror) that the
player has yet to fetch, a Mirror explored that still lies unflipped with its cards. Those are
reminders, not breaches. What no legal action explains is a breach, named by the engine's
own refusal of the simplest action that would explain it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import Any

from companion.games.base import IllegalAction
from companion.games.onirim.rules.actions import Action, Discard, Pair, Play
from companion.games.onirim.rules.deck import colour_of, is_location, symbol_of
from companion.games.onirim.rules.engine import OnirimEngine
from companion.games.onirim.rules.state import OnirimState
from companion.live.tracking import Breach, StableReadings

STABLE_FRAMES = 3
"""Readings in a row that must agree before a change counts (a hand passing over the table
changes the reading from frame to frame)."""


@dataclass(frozen=True)
class MirrorLie:
    mirror: str
    explored: bool
    under: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    """What lies face up, as the camera reads it and as the engine has it."""

    labyrinth: tuple[str, ...]
    doors: tuple[str, ...]
    """Door colours in play, sorted: the camera reads where they lie, not when they came."""
    mirrors: tuple[MirrorLie, ...]
    discard_top: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "labyrinth": list(self.labyrinth),
            "doors": list(self.doors),
            "mirrors": [
                {"mirror": m.mirror, "explored": m.explored, "under": list(m.under)}
                for m in self.mirrors
            ],
            "discard_top": self.discard_top,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Table:
        return cls(
            tuple(data["labyrinth"]),
            tuple(data["doors"]),
            tuple(
                MirrorLie(m["mirror"], bool(m["explored"]), tuple(m["under"]))
                for m in data["mirrors"]
            ),
            data["discard_top"],
        )


Place = tuple[str, int]
"""A place the camera reads: ("labyrinth", k), ("under-<mirror>", k) or ("discard", 0)."""


COLOUR_LEADS = "colour_leads"
"""The observation's key for the reader's colour leads: `[zone, index, lead]` for each
Location it named with another colour among its finalists, `lead` the named type's score
over the best type of another colour (`read.Match.colour_lead`), places named as in `maybe`
("labyrinth", "under-<mirror>", "discard"), from the reading's `leads`. A reading without
them (a recorded film from before they were read) is taken as sure of every colour."""

UNCLEAR = "?"
"""A card the camera sees but cannot name, in a `Seen.partial` table."""


@dataclass(frozen=True)
class Seen:
    """One frame as the tracker takes it: the table, or None and the places in doubt."""

    table: Table | None
    unclear: tuple[Place, ...] = ()
    partial: Table | None = None
    """With places in doubt: the table with `UNCLEAR` where a card cannot be named, so the
    engine can still say which plays would lay it (the hand is known)."""
    maybe: dict[Place, tuple[str, ...]] = field(default_factory=dict)
    """Places in doubt whose colour the camera told, not the symbol: the cards they may be
    (the reading's `maybe`)."""
    leads: dict[Place, float] = field(default_factory=dict)
    """Named Locations whose colour the reader told from another colour's by this lead
    (the reading's `COLOUR_LEADS`): how sure the camera is of a card's colour. A place
    left out is one no other colour came near (or the camera did not name)."""


def table_of(state: OnirimState, window: int) -> Table:
    """The engine's table: the last `window` labyrinth cards (as many as the layout has
    places), the Doors, the Mirrors in the game, the discard pile's top."""
    return Table(
        labyrinth=state.labyrinth[-window:],
        doors=tuple(sorted(colour_of(d) for d in state.doors)),
        mirrors=tuple(
            MirrorLie(m, e, u)
            for m, e, u in zip(state.in_game, state.explored, state.under, strict=True)
        ),
        discard_top=state.discard[-1] if state.discard else None,
    )


def seen_from(data: dict[str, Any], known: Table, answers: dict[Place, str]) -> Seen:
    """The table in an observation (`TableReading` JSON), its unnamed cards filled in from
    what the game has there (`known`) or what the players answered; None when the table is
    not located or a new card cannot be named."""
    if data.get("error") or not data.get("located", True):
        return Seen(None)
    unclear: list[Place] = []

    def fill(cards: list[Any], had: tuple[str, ...], zone: str) -> tuple[str, ...]:
        out = []
        for k, card in enumerate(cards):
            if card is None:
                card = answers.get((zone, k)) or (had[k] if k < len(had) else None)
            if card is None:
                unclear.append((zone, k))
            out.append(card if card is not None else UNCLEAR)
        return tuple(out)

    try:
        lab = fill(list(data["labyrinth"]), known.labyrinth, "labyrinth")
        known_under = {m.mirror: m.under for m in known.mirrors}
        mirrors = tuple(
            MirrorLie(
                str(m["mirror"]),
                bool(m["explored"]),
                fill(
                    list(m["under"]), known_under.get(str(m["mirror"]), ()), f"under-{m['mirror']}"
                ),
            )
            for m in data["mirrors"]
        )
        top = data["discard_top"]
        if top is None and known.discard_top is not None:
            top = answers.get(("discard", 0)) or known.discard_top
        doors = tuple(sorted(str(d) for d in data["doors"]))
    except (KeyError, TypeError):
        return Seen(None)
    table = Table(lab, doors, mirrors, top)
    leads = colour_leads(data.get(COLOUR_LEADS))
    if unclear:
        return Seen(None, tuple(unclear), table, _maybe(data.get("maybe"), unclear), leads)
    return Seen(table, leads=leads)


def colour_leads(data: Any) -> dict[Place, float]:
    """The reading's colour leads (`COLOUR_LEADS`) by place; a malformed one is none."""
    try:
        return {(str(z), int(k)): float(lead) for z, k, lead in data or ()}
    except (TypeError, ValueError):
        return {}


def _maybe(data: Any, unclear: list[Place]) -> dict[Place, tuple[str, ...]]:
    """The reading's `maybe` for the places still in doubt; a malformed one is none."""
    try:
        found = {(str(z), int(k)): tuple(str(c) for c in kinds) for z, k, kinds in data or ()}
    except (TypeError, ValueError):
        return {}
    return {p: kinds for p, kinds in found.items() if p in unclear and kinds}


class StableTable(StableReadings[Table]):
    """Tracker memory: the last readings, and the last stable one."""

    def __init__(self, frames: int = STABLE_FRAMES) -> None:
        super().__init__(frames)


@dataclass(frozen=True)
class Lag:
    """What the table may show behind the engine, to be tidied by the player."""

    doors: tuple[str, ...] = ()
    """Colours of Doors in play that do not lie on the table yet."""
    unflipped: tuple[str, ...] = ()
    """Explored Mirrors still lying unexplored."""

    def reminders(self) -> list[str]:
        out = [f"Fetch the {c} Door from the deck and lay it with the others." for c in self.doors]
        out += [
            f"The {m.title()} Mirror is explored: flip it and discard the cards under it."
            for m in self.unflipped
        ]
        return out


def changed_mirrors(seen: Table, want: Table) -> list[tuple[MirrorLie, MirrorLie]] | None:
    """The Mirrors the reading sees otherwise than the game has them, paired (seen, game);
    None when the two do not hold the same Mirrors in the same places."""
    if len(seen.mirrors) != len(want.mirrors):
        return None
    pairs = list(zip(seen.mirrors, want.mirrors, strict=True))
    if any(s.mirror != w.mirror for s, w in pairs):
        return None
    return [(s, w) for s, w in pairs if s != w]


def lag(seen: Table, want: Table) -> Lag | None:
    """How `seen` lags behind `want` without anything wrong, or None if it differs otherwise."""
    if seen.labyrinth != want.labyrinth:
        return None
    missing = Counter(want.doors)
    missing.subtract(seen.doors)
    if any(n < 0 for n in missing.values()):
        return None  # a Door on the table the game has not put into play
    changed = changed_mirrors(seen, want)
    if changed is None:
        return None
    unflipped = []
    for s, w in changed:
        if w.explored and not s.explored:
            unflipped.append(w.mirror)
            continue
        return None
    # A pile read as empty where the game has one is not read: cards only go onto it.
    if seen.discard_top not in (want.discard_top, None) and not unflipped:
        return None
    return Lag(tuple(sorted((+missing).elements())), tuple(unflipped))


def is_hidden(seen: Table, want: Table) -> bool:
    """Whether the reading lacks cards the game has where they lie: the labyrinth or a fan
    ends early, or a Mirror is not seen (the reader stops at the first place it sees empty)."""
    if len(seen.labyrinth) < len(want.labyrinth) and (
        seen.labyrinth == want.labyrinth[: len(seen.labyrinth)]
    ):
        return True
    read = {m.mirror: m for m in seen.mirrors}
    for w in want.mirrors:
        s = read.get(w.mirror)
        if s is None:
            return True
        if (
            s.explored == w.explored
            and len(s.under) < len(w.under)
            and (s.under == w.under[: len(s.under)])
        ):
            return True
    return False


def half_pair(seen: Table, want: Table) -> str | None:
    """The Mirror under which one card more lies than the game has, everything else as the
    game has it: a pair being laid (two motions), or its second card not seen yet."""
    if (
        seen.labyrinth != want.labyrinth
        or seen.doors != want.doors
        or (seen.discard_top != want.discard_top)
    ):
        return None
    read = {m.mirror: m for m in seen.mirrors}
    odd = [w.mirror for w in want.mirrors if w.mirror in read and read[w.mirror] != w]
    if len(odd) != 1:
        return None
    s = read[odd[0]]
    w = next(m for m in want.mirrors if m.mirror == odd[0])
    if (
        s.explored == w.explored
        and len(s.under) == len(w.under) + 1
        and (s.under[: len(w.under)] == w.under)
    ):
        return odd[0]
    return None


@dataclass(frozen=True)
class Explanation:
    action: Action | None = None
    lag: Lag | None = None
    breach: Breach | None = None
    hidden: bool = False
    """Cards the game has are missing from the reading, as when a hand rests over them: no
    play takes a card off the table, so this is waited out, not flagged at once."""
    choices: tuple[Action, ...] = ()
    """Several actions lay the table as seen (two pairs whose fourth card explores a Mirror
    leave it flipped with nothing under it): the player is asked which it was."""
    misread: bool = False
    """The reading is one card away from the table (`choices`: the plays that lay it so, or
    none when it is the game's own table): a card read as another, or missing from a fan or
    the row. The camera may be wrong, the player is asked; nothing is flagged."""
    unlike: tuple[str, ...] = ()
    """With `misread`: the places (in words) where the reading differs from the game's table
    in a way no play explains, nothing the rules forbid seen in it (a Mirror's side read
    otherwise, the row read shifted, a card read as one the hand lacks). The game's table is
    kept and the player asked whether the table lies so: the camera's own misreading looks
    just like this, and a wrong breach is worse than a question."""
    alone: str | None = None
    """With `unlike`: the Mirror under which one card is read alone (the player may answer
    they laid it so: the breach is then booked on their word)."""


TURN_ACTIONS = (Play, Discard, Pair)
NO_PLAY = "the table changed in a way no play explains"
TWO_AT_A_TIME = "cards go under a Mirror two at a time"


def explain(
    engine: OnirimEngine,
    state: OnirimState,
    seen: Table,
    window: int,
    base: Table | None = None,
) -> Explanation:
    """The turn's action that lays the table as `seen`, what still lags, or the breach.
    `base`: the last reading the game agreed with; what the reading still has as it had
    then is taken as the game has it (`rebase`), so one misread does not outlive its play."""
    want = table_of(state, window)
    now = lag(seen, want)
    if now is not None:
        return Explanation(lag=now)
    since: Explanation | None = None  # what the change since `base` alone explains
    if base is not None:
        rebased = rebase(seen, base, want, window)
        if base == seen and lag(rebased, want) is not None:
            return Explanation(misread=True)  # what the game agreed with still lies there
        if base != seen:
            since = explain(engine, state, rebased, window)
            if since.action is not None or since.lag is not None:
                return since
    settled = settle(seen, want, window)
    if is_hidden(seen, want) or half_pair(seen, want) is not None:
        if state.phase == "turn" and half_pair(seen, want) is not None:
            found = _fit(engine, state, seen, window)
            if found.action is not None or found.choices:
                return found  # a fourth card laid: the fan shows three, the effect waits
        if settled is not None and state.phase == "turn":
            found = _fit(engine, state, settled, window)
            if isinstance(found.action, Discard):
                # Only the pile's top changed while laid cards are not seen: the row may
                # have grown under them as well, so the player says which play it was.
                return Explanation(choices=(found.action,), misread=True)
            if found.action is not None:
                return found  # a laid card read short or as another, and a play seen
        return Explanation(hidden=True)
    if state.phase != "turn":
        return Explanation()  # the player is still tapping: wait for the turn
    found = _fit(engine, state, seen, window)
    if found.action is not None or found.choices:
        return found
    if settled is not None:
        if lag(settled, want) is not None:
            return Explanation(misread=True)  # one laid card misread, nothing played
        found = _fit(engine, state, settled, window)
        if found.action is not None or found.choices:
            return found
    sides = sides_misread(seen, want)
    if sides is not None:
        found = explain(engine, state, sides, window)
        if found.breach is None:
            return found if found.action is not None else replace(found, misread=True)
    breach = diagnose(engine, state, seen, window)
    if not is_rule_breach(breach):
        near = near_plays(engine, state, seen, window)
        if near:
            return Explanation(choices=near, misread=True)
        first = first_of_plays_ahead(engine, state, seen, want)
        if first is not None:
            return Explanation(choices=(first,), misread=True)
        if since is not None and since.misread and since.choices:
            # A steady misreading elsewhere and the new card read as one the hand lacks:
            # what changed is one card away from plays, so the player is asked.
            return since
        alone = lone_under(seen, want) if breach.rule == TWO_AT_A_TIME else None
        return Explanation(misread=True, unlike=places_unlike(seen, want), alone=alone)
    return Explanation(breach=breach)


def lone_under(seen: Table, want: Table) -> str | None:
    """The Mirror under which the reading has one card more than the game, laid on the
    game's fan (`diagnose`'s "two at a time")."""
    for s, w in zip(seen.mirrors, want.mirrors, strict=False):
        if (
            s.mirror == w.mirror
            and len(s.under) == len(w.under) + 1
            and s.under[: len(w.under)] == w.under
        ):
            return s.mirror
    return None


def places_unlike(seen: Table, want: Table) -> tuple[str, ...]:
    """The places `seen` differs from `want` at, as a player names them (never the cards:
    the question may show on the table's screen)."""
    out = []
    if seen.labyrinth != want.labyrinth:
        out.append("the labyrinth")
    if seen.doors != want.doors:
        out.append("the Doors")
    read = {m.mirror: m for m in seen.mirrors}
    out += [f"the {w.mirror.title()} Mirror" for w in want.mirrors if read.get(w.mirror) != w]
    if len(seen.mirrors) != len(want.mirrors) and not any("Mirror" in p for p in out):
        out.append("the Mirrors")
    if seen.discard_top != want.discard_top:
        out.append("the discard pile")
    return tuple(out) or ("the table",)


def sides_misread(seen: Table, want: Table) -> Table | None:
    """`seen` with each Mirror it reads explored, nothing under it, taken as the game has it
    when the game has it unexplored with nothing under it; None when there is none. A
    Mirror is explored only by the fourth card under it, which the game would hold: the
    camera misread its side (one side can look much like the other), and no play is to be
    flagged for it. The play seen with it, if any, still counts."""
    changed = changed_mirrors(seen, want)
    flipped = {
        s.mirror
        for s, w in changed or ()
        if s.explored and not w.explored and not s.under and not w.under
    }
    if not flipped:
        return None
    mirrors = tuple(
        w if s.mirror in flipped else s for s, w in zip(seen.mirrors, want.mirrors, strict=True)
    )
    return replace(seen, mirrors=mirrors)


def first_of_plays_ahead(
    engine: OnirimEngine, state: OnirimState, seen: Table, want: Table
) -> Action | None:
    """The row holds the game's cards and two or more new ones, the rest of the table as the
    game has it: the camera missed a play (the next card was laid before the first one was
    read steadily), so the player is asked about the first new card's play, which the rules
    allow from the hand, rather than flagged. The draws tapped after it then follow."""
    n = len(want.labyrinth)
    if (
        len(seen.labyrinth) < n + 2
        or seen.labyrinth[:n] != want.labyrinth
        or (seen.mirrors, seen.discard_top) != (want.mirrors, want.discard_top)
        or not set(want.doors) <= set(seen.doors)
    ):
        return None
    play = Play(seen.labyrinth[n])
    try:
        engine.apply(state, play)
    except IllegalAction:
        return None
    return play


def fill_unclear(
    partial: Table, want: Table, maybe: dict[Place, tuple[str, ...]] | None = None
) -> tuple[Table, int]:
    """`partial` with each card it cannot name taken as `want` has it there, and how many
    were so taken without the camera's word. An unnamed card past the end of `want`'s row
    or fan is dropped: the body of the last card covers the next place's corner, which may
    read as a card. A place whose colour the camera told (`maybe`: the cards it may be) is
    taken only as one of those, and then on the camera's word: only its symbol was in doubt.
    (A Mirror `want` has explored: the cards still under it are left as read, `lag` skips
    them.)"""
    taken = 0
    maybe = maybe or {}

    def fill(cards: tuple[str, ...], laid: tuple[str, ...], zone: str) -> tuple[str, ...]:
        nonlocal taken
        if len(cards) == len(laid) + 1 and cards[-1] == UNCLEAR:
            cards = cards[:-1]
        out = []
        for k, c in enumerate(cards):
            if c == UNCLEAR and k < len(laid):
                kinds = maybe.get((zone, k))
                if kinds is None:
                    c = laid[k]
                    taken += 1
                elif laid[k] in kinds:
                    c = laid[k]
            out.append(c)
        return tuple(out)

    laid = {m.mirror: m for m in want.mirrors}
    mirrors = tuple(
        MirrorLie(s.mirror, s.explored, fill(s.under, laid[s.mirror].under, f"under-{s.mirror}"))
        if s.mirror in laid and not (laid[s.mirror].explored and not s.explored)
        else s
        for s in partial.mirrors
    )
    lab = fill(partial.labyrinth, want.labyrinth, "labyrinth")
    return Table(lab, partial.doors, mirrors, partial.discard_top), taken


def unclear_fits(
    engine: OnirimEngine,
    state: OnirimState,
    partial: Table,
    window: int,
    maybe: dict[Place, tuple[str, ...]] | None = None,
) -> tuple[tuple[Action, ...], bool]:
    """The turn's actions whose table is `partial` once its unnamed cards are taken as the
    action lays them (a card whose colour the camera told, `maybe`, only as one of that
    colour), and whether the one that fits is sure: it needed no unnamed card to be a card
    of the hand beyond what the camera told (one sure fit is the play; otherwise the player
    is asked). A symbol in doubt is settled by the hand only when it holds one card of that
    colour's kinds: were it two, the symbol rule might be what tells them apart, and a
    player may have broken it. An action that leaves the table as it lay (a discard onto
    its own kind) is never seen."""
    if state.phase != "turn":
        return (), False
    now = table_of(state, window)
    held = Counter(state.hand)
    fits = []
    sure = all(sum(held[c] > 0 for c in kinds) <= 1 for kinds in (maybe or {}).values())
    for action in _turn_actions(engine, state):
        if isinstance(action, Discard) and partial.discard_top != action.card:
            continue  # a discard is seen on the pile, never taken from a pile not read
        want = table_of(engine.apply(state, action), window)
        if want == now:
            continue
        filled, taken = fill_unclear(partial, want, maybe)
        found = lag(filled, want)
        if found is not None:  # an unnamed card left over never equals one
            fits.append(action)
            sure = sure and taken == 0 and not vanished_under(filled, now, found.unflipped)
    return tuple(fits), sure and len(fits) == 1


def vanished_under(seen: Table, now: Table, unflipped: tuple[str, ...]) -> bool:
    """Whether a Mirror an action explores, still lying unflipped in the reading, shows fewer
    cards than the game has under it before the action: cards gone from view without the flip
    are what a hand resting over the Mirror, or a fan the reader missed, looks like too, so
    they are no evidence of the pair that explores it (the flip, or the fan grown, is)."""
    read = {m.mirror: m for m in seen.mirrors}
    had = {m.mirror: m for m in now.mirrors}
    return any(m in read and m in had and len(read[m].under) < len(had[m].under) for m in unflipped)


def colour_twins(
    engine: OnirimEngine,
    state: OnirimState,
    action: Action,
    doubted: Collection[str] | None = None,
) -> tuple[Action, ...]:
    """The turn's legal actions that are `action` (a Location played or discarded, or a
    pair under a Mirror) with a card another colour of the same symbol, a card of the hand:
    what the camera's reading would be had it named that card's colour wrong. The reader
    does so with confidence at times (the two fresh games not right at 9b10e2e2: a discard
    of the wrong Sun, a play of the wrong-colour Moon), and the engine cannot tell those
    plays apart (the same symbol meets the symbol rule alike, and a Mirror of a symbol takes
    either), so a card named while the hand holds its twin is asked when the camera was
    unsure of its colour (`OnirimTable`'s `COLOUR_DOUBT`). `doubted`: the action's cards
    the camera was unsure of (None: every one). The engine judges where it knows: a colour
    the hand lacks is no twin, nor is a play the rules refuse (a pair a colour's Mirror
    does not take)."""
    if not isinstance(action, Play | Discard | Pair) or state.phase != "turn":
        return ()
    cards = action.cards if isinstance(action, Pair) else (action.card,)
    legal = _turn_actions(engine, state)
    out: list[Action] = []
    for i, card in enumerate(cards):
        if not is_location(card) or (doubted is not None and card not in doubted):
            continue
        for other in sorted(set(state.hand)):
            if not (
                other != card
                and is_location(other)
                and symbol_of(other) == symbol_of(card)
                and colour_of(other) != colour_of(card)
            ):
                continue
            twin: Action
            if isinstance(action, Pair):
                a, b = sorted((other, cards[1 - i]))
                twin = Pair(action.mirror, (a, b))
            else:
                twin = type(action)(other)
            if twin in legal and twin not in out:
                out.append(twin)
    return tuple(out)


def laid_at(action: Action, seen: Table, now: Table) -> tuple[tuple[Place, str], ...]:
    """The places where the reading `seen` shows the cards `action` lays, each with its
    card (a Location played: the row's last place; a discard: the pile's top; a pair: the
    places past the game's fan `now` holding its cards), none where they do not show."""
    if isinstance(action, Play) and seen.labyrinth and seen.labyrinth[-1] == action.card:
        return ((("labyrinth", len(seen.labyrinth) - 1), action.card),)
    if isinstance(action, Discard) and seen.discard_top == action.card:
        return ((("discard", 0), action.card),)
    if isinstance(action, Pair):
        had = next((len(m.under) for m in now.mirrors if m.mirror == action.mirror), 0)
        fan = next((m.under for m in seen.mirrors if m.mirror == action.mirror), ())
        return tuple(
            ((f"under-{action.mirror}", k), fan[k])
            for k in range(had, len(fan))
            if fan[k] in action.cards
        )
    return ()


def pairs_with(
    engine: OnirimEngine, state: OnirimState, seen: Table, mirror: str
) -> tuple[Action, ...]:
    """The legal pairs under `mirror` that hold the card lying alone there (`half_pair`)."""
    if state.phase != "turn":
        return ()
    lone = next((m.under[-1] for m in seen.mirrors if m.mirror == mirror and m.under), None)
    return tuple(
        a
        for a in _turn_actions(engine, state)
        if isinstance(a, Pair) and a.mirror == mirror and lone in a.cards
    )


def near_plays(
    engine: OnirimEngine, state: OnirimState, seen: Table, window: int
) -> tuple[Action, ...]:
    """The turn's actions whose table is one card away from `seen` (a card missing or read
    as another): what the player is offered when the camera cannot tell."""
    if state.phase != "turn":
        return ()
    return tuple(
        a
        for a in _turn_actions(engine, state)
        if gap(seen, table_of(engine.apply(state, a), window)) == 1
    )


def missed_choices(
    engine: OnirimEngine, state: OnirimState, seen: Table, window: int
) -> tuple[Action, ...]:
    """Every legal turn action, those whose table is nearest `seen` first (a card laid that
    the reading holds beats one it does not): what a player is offered for a play the camera
    missed, the reading being perhaps a play further on."""

    def near(action: Action) -> tuple[int, int]:
        want = table_of(engine.apply(state, action), window)
        n = gap(seen, want)
        card = getattr(action, "card", None)
        cards = [*seen.labyrinth, *(c for m in seen.mirrors for c in m.under), seen.discard_top]
        shown = card in cards or any(c in cards for c in getattr(action, "cards", ()))
        return (0 if shown else 1, n if n is not None else 99)

    return tuple(sorted(_turn_actions(engine, state), key=near))


def _turn_actions(engine: OnirimEngine, state: OnirimState) -> list[Action]:
    return [a for a in engine.legal_actions(state) if isinstance(a, TURN_ACTIONS)]


FAN_READ = 3
"""Cards of a fan the camera reads (the layout's `fan_max`): a fourth lies on the table only
while a Mirror's effect is being chosen."""


def explored_ahead(seen: Table, want: Table) -> bool:
    """Whether `seen` is `want` (a Mirror's fourth card laid, its effect still to be chosen)
    with the player ahead of their taps: the fan's first cards in view, or the Mirror
    already flipped with its cards discarded and the Doors its effect brings laid."""
    changed = changed_mirrors(seen, want)
    if seen.labyrinth != want.labyrinth or changed is None:
        return False
    flipped, ahead = [], False
    for s, w in changed:
        if w.explored or len(w.under) <= FAN_READ:
            return False
        if not s.explored and s.under == w.under[:FAN_READ]:
            ahead = True
        elif s.explored and not s.under:
            flipped.append(w.under)
        else:
            return False
    if not ahead and not flipped:
        return False
    extra = Counter(seen.doors)
    extra.subtract(want.doors)
    if any(n < 0 for n in extra.values()) or (+extra and not flipped):
        return False
    tops = {want.discard_top, *(c for under in flipped for c in under)}
    return seen.discard_top in tops


def _fit(engine: OnirimEngine, state: OnirimState, seen: Table, window: int) -> Explanation:
    """The one turn action whose table is `seen` (what lags aside, or a Mirror's exploring
    done ahead of its taps: the fourth card and the flip are one play), or the several.
    None when the game's own table already lays `seen` (what lags aside): a pair whose fourth
    card explores a Mirror leaves it to be flipped, so its table lags into the Mirror's
    unexplored fan as the game has it, and nothing was played there."""
    if lag(seen, table_of(state, window)) is not None:
        return Explanation()
    fits = []
    for action in _turn_actions(engine, state):
        if isinstance(action, Discard) and seen.discard_top != action.card:
            continue  # a discard is seen on the pile, never taken from a pile not read
        after = engine.apply(state, action)
        want = table_of(after, window)
        found = lag(seen, want)
        if found is None and after.phase == "effect" and explored_ahead(seen, want):
            found = Lag()
        if found is not None:
            fits.append((action, found))
    if len(fits) == 1:
        action, found = fits[0]
        return Explanation(action=action, lag=found)
    return Explanation(choices=tuple(a for a, _ in fits))


def is_rule_breach(breach: Breach) -> bool:
    """Whether the engine refused what the camera saw for a rule of play (the symbol rule, a
    pair that does not match its Mirror), rather than because a card it saw is not in the
    hand, no play at all explains it, or one card lies alone under a Mirror: those are how
    a misread looks (a phantom in a fan, a pair's card read as another or not seen), far
    likelier than a card laid alone, which the player's answer can still confirm."""
    not_in_hand = breach.detail.startswith("no ") and " in hand " in breach.detail
    return not (not_in_hand or breach.rule in (NO_PLAY, TWO_AT_A_TIME))


def _seq_gap(seen: tuple[str, ...], want: tuple[str, ...]) -> int | None:
    """Cards of `want` missing from or read otherwise in `seen` (None: `seen` has more)."""
    if len(seen) > len(want):
        return None
    return len(want) - len(seen) + sum(a != b for a, b in zip(seen, want, strict=False))


def gap(seen: Table, want: Table) -> int | None:
    """How many cards `seen` lacks or reads otherwise than `want`, what may lag aside (a
    Door not fetched, a Mirror not flipped); None when it differs in another way."""
    missing = Counter(want.doors)
    missing.subtract(seen.doors)
    changed = changed_mirrors(seen, want)
    if any(n < 0 for n in missing.values()) or changed is None:
        return None
    n = _seq_gap(seen.labyrinth, want.labyrinth)
    if n is None:
        return None
    for s, w in changed:
        if w.explored and not s.explored:
            continue
        if s.explored != w.explored:
            return None
        m = _seq_gap(s.under, w.under)
        if m is None:
            return None
        n += m
    if seen.discard_top != want.discard_top and not any(
        w.explored and not s.explored for s, w in changed
    ):
        n += 1
    return n


def rebase(seen: Table, base: Table, want: Table, window: int) -> Table:
    """The game's table with what changed from `base` to `seen` done on it: a card added at
    the row's end or to a fan, a Door come, a Mirror flipped, a new discard top. A reading's
    steady error (a card or a Mirror's side read wrong since before) is left out. The game
    may have booked plays since `base` (answered or tapped while the reading was in doubt):
    a card is new only past both `base`'s row or fan and the game's, else a play booked
    already, or a laid card misread since, would be taken for another play."""
    lab = want.labyrinth
    if seen.labyrinth != base.labyrinth:
        if len(seen.labyrinth) == window:
            new = seen.labyrinth[-1:]  # a full row shifts as a card is played
        else:
            new = seen.labyrinth[max(len(base.labyrinth), len(want.labyrinth)) :]
        lab = (*want.labyrinth, *new)[-window:] if new else seen.labyrinth
    doors = Counter(want.doors)
    came = Counter(seen.doors) - Counter(base.doors)
    doors.update(came - (Counter(want.doors) - Counter(base.doors)))  # not those it has
    was = {m.mirror: m for m in base.mirrors}
    laid = {m.mirror: m for m in want.mirrors}
    mirrors = []
    for s in seen.mirrors:
        b, w = was.get(s.mirror), laid.get(s.mirror)
        if b is None or w is None:
            mirrors.append(s)
        elif s == b:
            mirrors.append(w)
        elif s.explored == b.explored and s.under[: len(b.under)] == b.under:
            new = s.under[max(len(b.under), len(w.under)) :]
            mirrors.append(MirrorLie(w.mirror, w.explored, w.under + new))
        else:
            mirrors.append(s)
    top = want.discard_top if seen.discard_top == base.discard_top else seen.discard_top
    return Table(lab, tuple(sorted(doors.elements())), tuple(mirrors), top)


def settle(seen: Table, want: Table, window: int) -> Table | None:
    """The reading with the one laid card it misses or misreads taken as the game has it (a
    card once laid does not change); None when no laid card, or more than one, is read wrong.
    The row is settled only while it is not full (a full row shifts as a card is played)."""
    changed = 0

    def fix(cards: tuple[str, ...], laid: tuple[str, ...]) -> tuple[str, ...]:
        nonlocal changed
        if len(cards) < len(laid):
            if cards != laid[: len(cards)]:
                changed += 2  # short and misread: more than one card
            changed += len(laid) - len(cards)
            return laid
        out = list(cards)
        for k, card in enumerate(laid):
            if out[k] != card:
                out[k] = card
                changed += 1
        return tuple(out)

    lab = seen.labyrinth
    if len(want.labyrinth) < window or len(seen.labyrinth) <= len(want.labyrinth):
        lab = fix(seen.labyrinth, want.labyrinth)
    laid = {m.mirror: m for m in want.mirrors}
    mirrors = tuple(
        MirrorLie(s.mirror, s.explored, fix(s.under, laid[s.mirror].under))
        if s.mirror in laid and s.explored == laid[s.mirror].explored
        else s
        for s in seen.mirrors
    )
    if changed != 1:
        return None
    return Table(lab, seen.doors, mirrors, seen.discard_top)


def diagnose(engine: OnirimEngine, state: OnirimState, seen: Table, window: int) -> Breach:
    """The engine's refusal of the simplest action that would lay the table as `seen`."""
    want = table_of(state, window)
    tried: Action | None = None
    if (
        seen.labyrinth
        and seen.labyrinth != want.labyrinth
        and (seen.labyrinth[:-1] == (*want.labyrinth, "")[-window:][:-1])
    ):
        tried = Play(seen.labyrinth[-1])
    else:
        for s, w in zip(seen.mirrors, want.mirrors, strict=False):
            if s.mirror != w.mirror or s.under == w.under or s.under[: len(w.under)] != w.under:
                continue
            new = s.under[len(w.under) :]
            if len(new) == 1:
                return Breach(
                    TWO_AT_A_TIME, f"one card ({new[0]}) under the {s.mirror.title()} Mirror"
                )
            if len(new) == 2:
                a, b = sorted(new)
                tried = Pair(s.mirror, (a, b))
            break
        if (
            tried is None
            and seen.discard_top not in (None, want.discard_top)
            and (seen.labyrinth == want.labyrinth)
        ):
            tried = Discard(seen.discard_top)
    if tried is not None:
        if state.phase != "turn":
            return Breach(
                "one action per turn, after the hand is full",
                f"{_describe(tried)} while the game waits for a tap ({state.phase})",
            )
        try:
            engine.apply(state, tried)
        except IllegalAction as exc:
            return Breach(exc.rule, exc.detail)
    return Breach(NO_PLAY, _difference(seen, want))


def _describe(action: Action) -> str:
    if isinstance(action, Play):
        return f"{action.card} played"
    if isinstance(action, Discard):
        return f"{action.card} discarded"
    if isinstance(action, Pair):
        return f"{' and '.join(action.cards)} under the {action.mirror.title()} Mirror"
    return str(action)


def _difference(seen: Table, want: Table) -> str:
    parts = []
    if seen.labyrinth != want.labyrinth:
        parts.append(
            f"labyrinth {list(seen.labyrinth[-4:])} (the game has {list(want.labyrinth[-4:])})"
        )
    if seen.doors != want.doors:
        parts.append(f"Doors {list(seen.doors)} (the game has {list(want.doors)})")
    for s, w in zip(seen.mirrors, want.mirrors, strict=False):
        if s != w:
            parts.append(f"the {w.mirror.title()} Mirror")
    if seen.discard_top != want.discard_top:
        parts.append(f"discard top {seen.discard_top} (the game has {want.discard_top})")
    return "; ".join(parts) or "the Mirrors laid out differ from the game's"
