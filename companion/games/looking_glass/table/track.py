"""Following a round of the Looking Glass from frame-by-frame readings, without false events.

A reading says which positions show a card. Hands reach over the table, a card is lifted and
put back, a frame is blurred: single frames lie. The tracker therefore only believes a view
that has held for `STABLE_FRAMES` frames and `STABLE_SECONDS` seconds, and only a change that
is one the game can make:

- the first stable view with a full glass (28 cards, every one identified) is a deal; the
  frames of that view may differ by a card or two at the edge of what the finder finds, never
  by what they name a place, and the glass is what most of them read;
- afterwards the set of cards present can only shrink by one card (the active player took
  the chosen card and the reflection is still there), by a card and its reflection (a whole
  pick), or, when the camera had no steady look in between, by the reflection of the card
  taken alone plus the next chosen card, or by whole pairs plus at most the next chosen card.
  Anything else (two cards of different pairs; a card that was never there) is something over
  the table, not a move: the tracker waits. A card that is not seen is unknown, never "gone",
  until a stable view says so in one of those ways; and a card the reader reports something
  lying over (`Reading.hidden`: part of it still looks as it did, an arm over the rest) is not
  seen gone at all.

Which card of the pair was chosen: the one that left first, while its reflection was seen
lying there (with only something over the reflection's place, it may have left first unseen:
the tracker waits). When both left between two stable views and they show different
characters, or when a card leaves whose reflection was never read (that one may have left
first, unseen), the tracker asks the players (a self-linked pair needs no answer: its pick
names the pair, either card being the chosen one); if both cards of an asked pair show again,
the question is withdrawn (a hand lay over both). Several whole pairs gone at once are asked
about one by one: their order is not known, but who ended up with which card of each pair is
all the piles need, and the players can say that. Whether a pick was legal is not the tracker's
to say: the rules engine judges every pick it proposes.

Pure Python: positions are matched by their image centres (the camera is fixed during a round;
a bumped card moves a few millimetres, not half a card).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.games.looking_glass.table.messages import CardSeen, GlassObservation

STABLE_FRAMES = 3
STABLE_SECONDS = 0.5
MATCH_FRACTION = 0.45
"""A card is at a tracked position if its centre lies within this many card widths of it."""
GLASS_CARDS = 28
MIN_DEAL_CARDS = 24
"""With a known layout card, a deal is accepted with up to four cards not yet read."""
FLICKER_CARDS = 2
"""Frames of one steady deal may differ by this many cards (a card at the edge of what the
finder finds comes and goes); they never name a place differently."""


@dataclass
class Slot:
    name: str
    card: str | None
    centre: tuple[float, float]
    reflection: str
    present: bool | None = True
    """True: lying there; False: taken; None: not read yet (unknown, never 'gone')."""


@dataclass
class Change:
    """What the tracker decided from a stable view."""

    kind: str  # "deal", "identify", "half", "pick", "ask", "withdraw", "back"
    positions: list[str] = field(default_factory=list)
    detail: dict[str, Any] = field(default_factory=dict)


class GlassTracker:
    """Turns readings (`GlassObservation`, one per frame) into deal and pick decisions."""

    def __init__(
        self, stable_frames: int = STABLE_FRAMES, stable_seconds: float = STABLE_SECONDS
    ) -> None:
        self.stable_frames = stable_frames
        self.stable_seconds = stable_seconds
        self.slots: dict[str, Slot] = {}
        self.card_px = 80.0
        self.layout: str | None = None
        self.first_gone: str | None = None
        """The card of a pair that left while its reflection stayed (the chosen one)."""
        self.steady: dict[str, str | None] | None = None
        """The card read at each position the view shows, while that view is steady (None:
        not steady now)."""
        self._candidate: tuple[Any, ...] | None = None
        self._since: float = 0.0
        self._count = 0
        self._deal_votes: list[dict[str, Any]] = []
        self.unread_pairs: list[str] = []
        """Places of a glass otherwise whole that keep it from being taken for a deal."""
        self.asked: list[tuple[str, str]] = []
        """Pairs the players are asked about and have not answered yet."""
        self.last_view: dict[str, bool] = {}
        """Which tracked positions the last frame showed a card at, steady or not."""

    # -- per frame ---------------------------------------------------------------------
    def observe(self, reading: GlassObservation, now: float) -> list[Change]:
        """One frame's reading; returns the decisions a newly stable view makes."""
        if not self.slots:
            return self._watch_deal(reading, now)
        view = self._present(reading)
        self.last_view = view
        hidden = self._hidden_in(reading, view)
        key = (
            tuple(sorted(view.items())),
            tuple(sorted(self._identified.items())),
            tuple(sorted(hidden)),
        )
        if key != self._candidate:
            self._candidate, self._since, self._count = key, now, 1
            self.steady = None
            return []
        self._count += 1
        if self._count < self.stable_frames or now - self._since < self.stable_seconds:
            return []
        if not reading.still:
            # The same reading, but the picture is still changing: a hand lifting a card and
            # putting it back hides it in every frame it takes. Decide once it is still.
            return []
        self.steady = {n: self._read.get(n) for n, v in view.items() if v}
        return self._decide(
            view, {n: not v and n not in hidden for n, v in view.items()}, dict(self._identified)
        )

    def _hidden_in(self, reading: GlassObservation, view: dict[str, bool]) -> set[str]:
        """Positions of cards lying there when last seen that this frame does not show, where
        something lies over the place (`Reading.hidden`): not seen, and not seen gone."""
        out = set()
        for point in reading.hidden:
            name = self._slot_at(point)
            if name is not None and self.slots[name].present and not view[name]:
                out.add(name)
        return out

    def _slot_at(self, point: Sequence[float]) -> str | None:
        """The tracked position nearest an image point, if one is within `MATCH_FRACTION`
        card widths of it."""
        best, dist = None, MATCH_FRACTION * self.card_px
        for name, s in self.slots.items():
            d = float(np.hypot(point[0] - s.centre[0], point[1] - s.centre[1]))
            if d < dist:
                best, dist = name, d
        return best

    def _present(self, reading: GlassObservation) -> dict[str, bool]:
        """Which tracked positions show a card in this frame."""
        present = dict.fromkeys(self.slots, False)
        self._identified: dict[str, str] = {}
        self._read: dict[str, str | None] = {}
        for c in reading.cards:
            best = self._slot_at(c.center)
            if best is None:
                continue
            self._read[best] = self._read.get(best) or c.card
            if self.slots[best].present is None:
                if c.card:
                    self._identified[best] = c.card
                    present[best] = True
                continue
            if not self.slots[best].present:
                # A card where one was taken: put back (or a misplaced one). Not a move. Where
                # a whole pair was taken, only a card really found there counts: one inferred
                # from memory or from its reflection may be the card beneath, newly uncovered,
                # matching its template. The card taken alone may well be back (lifted and put
                # back, found again by the perceiver's memory of it).
                present[best] = present[best] or not c.inferred or best == self.first_gone
                continue
            present[best] = True
        return present

    def steady_glass(self) -> dict[str, str | None] | None:
        """The positions a steady view shows a card at and the card read there (None: not
        read), or None while the view is not steady (a hand over the table)."""
        return None if self.steady is None else dict(self.steady)

    # -- the deal ----------------------------------------------------------------------
    def _watch_deal(self, reading: GlassObservation, now: float) -> list[Change]:
        cards = [c for c in reading.cards if c.position]
        ident = [c for c in cards if c.card]
        lay = _layout(reading.layout)
        if lay is not None:
            # The layout card is known: a few cards hidden by a glare or a shadow may stay
            # unknown; they are asked about (or read) later.
            ok = len(ident) >= MIN_DEAL_CARDS and all(
                c.position in lay.position_names for c in ident
            )
        else:
            ok = len(ident) == GLASS_CARDS
        if not ok:
            self._deal_votes = []
            return []
        named = {str(c.position): c for c in ident}
        # The votes are the frames since the last one that told of another glass.
        other = [i for i, v in enumerate(self._deal_votes) if not _agree(v["named"], named)]
        if other:
            del self._deal_votes[: other[-1] + 1]
        self._deal_votes.append({"named": named, "now": now})
        if (
            len(self._deal_votes) < self.stable_frames
            or now - self._deal_votes[0]["now"] < self.stable_seconds
        ):
            return []
        # The glass is what most of these frames read: a card at the edge of what the finder
        # finds that comes and goes is in it, a card read once is not (it stays unknown and
        # is read, or asked about, later).
        seen = Counter(n for v in self._deal_votes for n in v["named"])
        latest = {n: c for v in self._deal_votes for n, c in v["named"].items()}
        ident = [latest[n] for n in sorted(seen) if 2 * seen[n] > len(self._deal_votes)]
        names = {str(c.position) for c in ident}
        if len(ident) < (MIN_DEAL_CARDS if lay is not None else GLASS_CARDS) or (
            lay is None and any(_reflection(n) not in names for n in names)
        ):
            self._deal_votes.pop(0)  # the oldest frame goes; the newer ones may yet agree
            return []
        unread = (
            sorted(n for n in lay.position_names if n not in names and _reflection(n) not in names)
            if lay is not None
            else []
        )
        self.unread_pairs = unread
        if unread:
            # A card and its reflection both missing: a pick already made, not a fresh deal
            # (a glare or a shadow hides one card, seldom exactly a mirror pair). The
            # players are told which places it cannot read (`unread_pairs`).
            self._deal_votes.pop(0)
            return []
        self.start(ident, reading.layout)
        glass = {n: s.card for n, s in self.slots.items()}
        return [
            Change(
                "deal",
                sorted(glass),
                {
                    "glass": glass,
                    "layout": reading.layout,
                    "centres": {n: list(s.centre) for n, s in self.slots.items()},
                },
            )
        ]

    def start(self, seen: Sequence[CardSeen], layout: str | None) -> None:
        """Track the positions of a dealt glass (from its stable reading). With a known layout,
        positions not read get their place from the layout's geometry and an unknown card."""
        cards = [c for c in seen if c.position is not None]
        self.slots = {
            c.position: Slot(
                c.position,
                c.card,
                (c.center[0], c.center[1]),
                _reflection(c.position),
                True if c.card is not None else None,
            )
            for c in cards
            if c.position is not None
        }
        lay = _layout(layout)
        if lay is not None:
            missing = [n for n in lay.position_names if n not in self.slots]
            if missing:
                from companion.games.looking_glass.rules.layout import placements

                place = placements(lay)
                known = [n for n in self.slots if self.slots[n].present]
                A = np.array([[place[n].x, place[n].y, 1.0] for n in known])
                B = np.array([self.slots[n].centre for n in known])
                M, *_ = np.linalg.lstsq(A, B, rcond=None)
                for n in missing:
                    x, y = np.array([place[n].x, place[n].y, 1.0]) @ M
                    self.slots[n] = Slot(n, None, (float(x), float(y)), _reflection(n), None)
        widths = [c.width_px for c in cards if c.width_px]
        if widths:
            self.card_px = float(sorted(widths)[len(widths) // 2])
        else:
            # Nearest neighbour distance is about half a card width or more.
            pts = [s.centre for s in self.slots.values()]
            nn = []
            for i, p in enumerate(pts):
                nn.append(
                    min(
                        ((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) ** 0.5
                        for j, q in enumerate(pts)
                        if j != i
                    )
                )
            self.card_px = 1.3 * sorted(nn)[len(nn) // 2]
        self.layout = layout
        self._forget_picks()

    def reset(self) -> None:
        """Forget the round: wait for the next deal."""
        self.slots = {}
        self._deal_votes = []
        self._forget_picks()

    def _forget_picks(self) -> None:
        """What the picks of a round leave behind, gone when a glass is dealt and when the
        round is given up alike (one list, so neither forgets a field the other clears)."""
        self._candidate = None
        self.first_gone = None
        self.asked = []
        self.unread_pairs = []
        self.last_view = {}
        self.steady = None

    # -- picks -------------------------------------------------------------------------
    def _decide(
        self, seen: dict[str, bool], unseen: dict[str, bool], identified: dict[str, str]
    ) -> list[Change]:
        """`seen`: positions the stable view shows; `unseen`: those it does not."""
        out: list[Change] = []
        for n, card in sorted(identified.items()):
            if self.slots[n].present is not None:
                continue
            self.slots[n].card = card
            self.slots[n].present = True
            out.append(Change("identify", [n], {"card": card}))
        gone = [n for n, s in self.slots.items() if s.present is True and unseen[n]]
        back = [n for n, s in self.slots.items() if s.present is False and seen[n]]
        if self.first_gone in back:
            # The card that left alone is back (it was lifted and put back, or a hand lay on
            # it long enough to look gone): nothing happened; judge the rest of the view.
            self.slots[self.first_gone].present = True
            out.append(Change("back", [self.first_gone]))
            self.first_gone = None
        elif self.first_gone is not None and not unseen[self.first_gone]:
            # The card taken alone shows now and then (a hand moving off it after it was
            # lifted and put back): neither gone nor back yet, so which card left first is
            # not known yet either. Wait until it is one or the other.
            return out
        for pair in list(self.asked):
            if all(n in back for n in pair):
                # Both cards of a pair asked about are really on the table again: they were
                # hidden (a hand over both, near the centre line), not taken. The question
                # was wrong; withdraw it.
                out.append(self.withdraw(*pair))
                back = [n for n in back if n not in pair]
        # Any other card back where one was taken is not a move either (the rules put taken
        # cards on the piles): it is ignored, and does not hold up the moves being made.
        if not gone:
            return out
        if self.first_gone is not None and self.slots[self.first_gone].reflection in gone:
            # The reflection of the card taken alone: the pick is complete. Whatever else
            # left since (the next chosen card) is judged on its own below.
            refl = self.slots[self.first_gone].reflection
            out.append(self._pick(self.first_gone, refl, order="first-gone"))
            gone.remove(refl)
            if not gone:
                return out
        if self.first_gone is not None:
            return out  # another card gone before the reflection of the first: a hand
        refl_of = {n: self.slots[n].reflection for n in gone}
        pairs = [(n, r) for n, r in refl_of.items() if r in refl_of and n < r]
        singles = [n for n, r in refl_of.items() if r not in refl_of]
        if len(singles) > 1:
            # Two cards of different pairs: not a move the game can make. Something is over
            # the table; wait.
            return out
        # Whole pairs before a single card: each pair was one pick, the card is the next
        # player's choice (no steady look between them). Pairs are asked about, each by
        # whose pile a card went to, which the players know whatever the order was.
        for a, b in pairs:
            if self.slots[a].card == self.slots[b].card:
                out.append(self._pick(a, b, order="self-linked"))
                out[-1].detail["together"] = len(pairs)
            else:
                for n in (a, b):
                    self.slots[n].present = False
                self.asked.append((a, b))
                out.append(
                    Change(
                        "ask",
                        [a, b],
                        {"cards": [self.slots[a].card, self.slots[b].card], "together": len(pairs)},
                    )
                )
        for n in singles:
            refl = refl_of[n]
            if self.slots[refl].present is None:
                # Its reflection was never read, so the camera cannot tell whether it is still
                # there (this card was chosen) or left unseen first (it was chosen): ask.
                for m in (n, refl):
                    self.slots[m].present = False
                self.asked.append((n, refl))
                out.append(Change("ask", [n, refl], {"cards": [self.slots[n].card, None]}))
            elif self.slots[refl].present and not seen[refl]:
                # Its reflection is not seen, only something over its place: it may have
                # left first, unseen. Wait until it shows, or shows gone.
                continue
            elif self.slots[refl].present:
                self.first_gone = n
                self.slots[n].present = False
                out.append(Change("half", [n]))
        return out

    def _pick(self, chosen: str, other: str, order: str) -> Change:
        self.slots[chosen].present = False
        self.slots[other].present = False
        if self.first_gone in (chosen, other):
            # (an answer to an older question must not forget the next pick's first card)
            self.first_gone = None
        return Change(
            "pick",
            [chosen, other],
            {
                "card": self.slots[chosen].card,
                "reflection_card": self.slots[other].card,
                "order": order,
            },
        )

    def resolve(self, chosen: str) -> Change:
        """The players said which card of an asked pair was the chosen one."""
        other = self.slots[chosen].reflection
        self._forget_question(chosen)
        return self._pick(chosen, other, order="asked")

    def withdraw(self, a: str, b: str) -> Change:
        """Nothing was taken from an asked pair (the players said so, or both cards showed
        again): both lie on the table as before."""
        self._forget_question(a)
        for n in (a, b):
            if self.slots[n].card is not None:
                self.slots[n].present = True
            else:
                self.slots[n].present = None  # never read: unknown again, not "gone"
        return Change("withdraw", [a, b])

    def _forget_question(self, name: str) -> None:
        self.asked = [p for p in self.asked if name not in p]

    @property
    def empty(self) -> bool:
        return bool(self.slots) and not any(s.present for s in self.slots.values())

    def remaining(self) -> list[str]:
        return [n for n, s in self.slots.items() if s.present is not False]


def _layout(layout_id: str | None) -> Any:
    if layout_id is None:
        return None
    from companion.games.looking_glass.rules.layout import load_layouts

    return load_layouts().get(layout_id)


def _agree(a: dict[str, CardSeen], b: dict[str, CardSeen]) -> bool:
    """Two frames' readings of a deal tell of the same glass."""
    if len(a.keys() ^ b.keys()) > FLICKER_CARDS:
        return False
    return all(a[n].card == b[n].card for n in a.keys() & b.keys())


def _reflection(name: str) -> str:
    half, rest = name.split("-", 1)
    return ("B" if half == "A" else "A") + "-" + rest
