"""Onirim's live table under a faulty camera, fast: the tracker alone, no pictures.

Each seed is one scripted game (`vision/film.py`), read not by the camera reader but as the
film's own tables, with faults a reader makes drawn from the seed: sticky for a whole shot
(a fan or the row read short, a card unnamed, a laid card misread, the pile unread, a
Mirror's side misread, a Door unseen), flickering for single frames, the table not found,
and the table read as it lay before a play for 5-80 frames (the new card under a resting
hand). The new card itself is never misread as another card of the hand: no tracker can
tell that from a real play, it is the reader's to avoid. The player's taps and answers are
the benchmark's (`table/follow.py`). It is a development tool for the tracker, thousands of
games a minute under no load, to find the shapes in which it books a play wrong or loses
track; the camera's own measure is `benchmarks/onirim_tracking.py`.

Two more kinds, off unless asked for, measure a breach seen by the camera alone:
`--symbol-misreads P` reads a Location just laid, in P of the plays, as a card (of the hand
when it holds one) with the symbol of the card before it, for the first 3-5 frames of the
table after it (the reader's false breach: a brown Sun read as the red Moon after a red Moon);
`--real-breaches P` has the player, in P of the plays, first lay a card of the hand that breaks
the symbol rule, leave it 6-30 frames, and put it back before the play made (a real breach,
the truthful player saying so when asked; its frames are read as they lie, no other fault
over them). Breaches booked during a real one are counted as caught (`real_breaches_caught`
of `real_breaches`), every other one is false.

    PYTHONPATH=. python benchmarks/onirim_tracking_faults.py --seeds 1000:1300
    PYTHONPATH=. python benchmarks/onirim_tracking_faults.py --seeds 1439:1440 --trace
    PYTHONPATH=. python benchmarks/onirim_tracking_faults.py --seeds 1000:1300 \
        --symbol-misreads 0.1 --real-breaches 0.05

One more, off unless asked for: `--unnamed-tops P` leaves, in P of the stretches of film in
which one card is the discard pile's top, that card unnamed in every frame (the reader cannot
tell it: the pile is read as bare, and the table keeps the top it last read). A top put there
by a tap (a Mirror explored, a Nightmare resolved, a prophecy) then leaves the pile read as
the top before: the shape of the two games lost at 88f764c, where that older top was a card
of the hand and the camera booked its discard.

And `--tapped-tops P`: in P of the stretches of film whose pile top a tap put there (a
Nightmare resolved, a prophecy, a Mirror's four cards: anything but the player's discard of
one card, which the camera books), the pile is read with the top before it, named, until a
few frames after the tap (the player taps first and puts the cards on the pile after), and
the new top is then named in no frame: a top named before a tap and unread after it, stale
once the tap has changed the game's (ontrack4's open hole).

And `--misnamed-cards P`: in P of the Locations played to the labyrinth or discarded (seen by
the camera), the reader names the new card with confidence as another Location of the same
symbol in another colour (the shape of the two fresh games lost at 56f2c352's predecessor: a
discard of the wrong Sun, a play of the wrong-colour Moon), one of the hand when it holds one
(no tracker can tell that from the camera alone), else any. Misnamed in every frame from its
play until the table's next change (`--misnamed-for turn`), or for as long as it lies at its
place (`--misnamed-for stay`: the row's place until it shifts out of view, the pile's top until
another kind covers it), or either drawn per card (`both`, the default). `--misnamed-pairs P`
does the same to one card (drawn) of P of the pairs laid under a Mirror while the fan shows
them (a card of the hand when the rest of it holds one): under a Mirror of a symbol (or the
Rainbow, a colour not yet under it) the pair so named is one the rules allow as well.

`--colour-leads FILE` (the rows of `benchmarks/onirim_vision.py --curve --named-rows` on
development decks): every Location named in the row or on the pile carries the reader's colour
lead (`track.COLOUR_LEADS`), drawn once per card from the leads measured on right names (none
where no other colour was among its finalists). A misnamed card's lead is a misreading's: drawn
evenly from `--misnamed-leads LO:HI` when given; else from the wrong names among the rows when
they hold `--misnamed-lead-rows` of them; else from the right names' leads under their
`--misnamed-lead-share` quantile. (The model: the reader names a colour wrong only where
another colour comes near; a misreading as sure as a right name's median no tracker could
tell from the camera.) `--colour-doubt T` sets the table's `COLOUR_DOUBT` (its curve:
misnamed games right against questions on clean films).

`--fault-scale X` multiplies the default faults' rates (a sticky fault in 15 % of the shots, a
single-frame fault in 5 % of the frames, the table lost in 2 %, the table read as before a
play after 10 % of the hand shots) by X, to look for the tracker's next weak point; 1.0 draws
the faults exactly as without it.
"""

from __future__ import annotations

import argparse
import bisect
import copy
import json
import random
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.actions import Discard, Pair, Play
from companion.games.onirim.rules.deck import colour_of, symbol_of
from companion.games.onirim.rules.state import OnirimState, evolve
from companion.games.onirim.table import live
from companion.games.onirim.table.follow import answer_truly, follow, script_actions
from companion.games.onirim.table.live import BROKE, OnirimTable
from companion.games.onirim.table.track import COLOUR_LEADS, table_of
from companion.games.onirim.vision.film import HAND_FRAMES, SIM_FPS, Script, Shot, script_game
from companion.games.onirim.vision.layout import load_layout
from companion.live.table_game import EventDraft, Observation

WINDOW = len(load_layout().labyrinth_places)
KINDS = [k for k in ENGINE.deck.kinds if "-" in k and not k.startswith("door")]
HANDS = Observation(
    {"located": True, "labyrinth": [None] * 3, "doors": [], "mirrors": [], "discard_top": None}, 0.1
)
LOST = Observation({"located": False}, 0.0)
BREACH = "onirim.breach"


def seen(state: OnirimState) -> dict[str, Any]:
    return table_of(state, WINDOW).to_json() | {"located": True}


def fault(data: dict[str, Any], before: dict[str, Any], r: random.Random) -> dict[str, Any]:
    """One reader's fault on a reading; a card is misread as another only where a card lay
    already `before` (the shot before it), never a card just laid."""
    d = copy.deepcopy(data)
    fans = [m["under"] for m in d["mirrors"]]
    places = [(d["labyrinth"], k) for k in range(len(d["labyrinth"]))]
    places += [(u, k) for u in fans for k in range(len(u))]
    old = {id(d["labyrinth"]): len(before["labyrinth"])}
    had = {m["mirror"]: len(m["under"]) for m in before["mirrors"]}
    old |= {id(m["under"]): had.get(m["mirror"], 0) for m in d["mirrors"]}
    laid = [(cards, k) for cards, k in places if k < old[id(cards)]]
    f = r.random()
    if f < 0.3 and laid:
        cards, k = r.choice(laid)
        cards[k] = r.choice(KINDS)
    elif 0.3 <= f < 0.5 and places:
        cards, k = r.choice(places)
        cards[k] = None
    elif 0.5 <= f < 0.7 and places:
        cards, k = r.choice(places)
        del cards[k:]
    elif 0.7 <= f < 0.8:
        d["discard_top"] = None
    elif 0.8 <= f < 0.9 and d["mirrors"]:
        m = r.choice(d["mirrors"])
        m["explored"] = not m["explored"]
    elif f >= 0.9 and d["doors"]:
        d["doors"] = d["doors"][:-1]
    return d


def breaking(before: OnirimState, after: OnirimState, rng: random.Random) -> str | None:
    """A Location with the symbol of the labyrinth's last card before a play (one of the hand
    when it holds one, else any), other than the card played: what a card laid against the
    symbol rule, or misread as one, is read as; None on an empty labyrinth."""
    if not before.labyrinth:
        return None
    symbol = symbol_of(before.labyrinth[-1])
    played = after.labyrinth[-1]
    held = sorted({c for c in before.hand if c in KINDS and symbol_of(c) == symbol} - {played})
    return rng.choice(held or [c for c in KINDS if symbol_of(c) == symbol and c != played])


def play_shots(script: Script) -> list[tuple[int, OnirimState, OnirimState]]:
    """Each Location play's hand shot (the card being laid), with the state before and after
    it: the still shot that follows shows the card in the row."""
    out = []
    for j, shot in enumerate(script.shots):
        if shot.hand and j > 0 and isinstance(script.actions[shot.needs], Play):
            before = script.shots[j - 1].table
            if not script.shots[j - 1].hand and len(before.labyrinth) < len(shot.table.labyrinth):
                out.append((j, before, shot.table))
    return out


def with_breaches(
    script: Script, share: float, rng: random.Random
) -> tuple[Script, list[tuple[int, int]]]:
    """The script with, before `share` of its Location plays, a real breach: the player lays a
    card of the hand against the symbol rule (a hand shot), leaves it 4-20 frames, and takes
    it back (a hand shot) before the play made; later taps come that much later. Also the
    frames [a, b) each breach lies on the table, laid and taken back."""
    shots, taps = list(script.shots), list(script.taps)
    episodes: list[tuple[int, int]] = []
    for j, before, after in reversed(play_shots(script)):
        if rng.random() >= share:
            continue
        card = breaking(before, after, rng)
        if card is None or card not in before.hand:
            continue
        wrong = evolve(before, labyrinth=(*before.labyrinth, card))
        need = shots[j].needs
        added = [
            Shot(wrong, True, HAND_FRAMES, need),
            Shot(wrong, False, rng.randint(4, 20), need),
            Shot(before, True, HAND_FRAMES, need),
        ]
        shots[j:j] = added
        at = sum(shot.frames for shot in shots[:j])
        n = sum(shot.frames for shot in added)
        taps = [replace(t, t=t.t + n / SIM_FPS) if t.t * SIM_FPS >= at else t for t in taps]
        episodes = [(a + n, b + n) for a, b in episodes]
        episodes.append((at, at + n))
    out = replace(script, shots=shots, taps=taps)
    return out, sorted(episodes)


def unnamed_tops(script: Script, share: float, rng: random.Random) -> set[int]:
    """The shots in which the pile's top is not named: each stretch of shots with one top
    (a new stretch wherever the top changes) is drawn with probability `share`."""
    out: set[int] = set()
    top: str | None = None
    drawn = False
    for j, shot in enumerate(script.shots):
        now = shot.table.discard[-1] if shot.table.discard else None
        if now != top:
            top, drawn = now, now is not None and rng.random() < share
        if drawn:
            out.add(j)
    return out


def tapped_tops(
    script: Script, starts: list[int], share: float, rng: random.Random
) -> dict[int, str | None]:
    """Frame by frame, the pile's top as read where it is not as it lies: in `share` of the
    stretches of shots with one top that an action other than a discard put there (what the
    player taps, or a Mirror's four cards), the top before it, named, through the stretch's
    first still shot and 1-8 frames more (the player taps, then puts the cards on the pile),
    then no top named for the rest of the stretch."""
    out: dict[int, str | None] = {}
    top: str | None = None
    old: str | None = None
    late = 0
    drawn = False
    for j, shot in enumerate(script.shots):
        now = shot.table.discard[-1] if shot.table.discard else None
        if now != top:
            by = script.actions[shot.needs] if j > 0 else None
            old, top = top, now
            drawn = old is not None and now is not None and not isinstance(by, Discard)
            drawn = drawn and rng.random() < share
            late = -1
        if not drawn:
            continue
        if late < 0 and not shot.hand:
            late = starts[j] + shot.frames + rng.randint(1, 8)
        for i in range(starts[j], starts[j] + shot.frames):
            out[i] = old if late < 0 or i < late else None
    return out


def twin(card: str, hand: tuple[str, ...], rng: random.Random) -> str:
    """A Location the reader may name `card` as with confidence: the same symbol in another
    colour, one of `hand` when it holds one (the table cannot tell that from the camera),
    else any."""
    alike = [
        c for c in KINDS if symbol_of(c) == symbol_of(card) and colour_of(c) != colour_of(card)
    ]
    held = sorted(set(alike) & set(hand))
    return rng.choice(held or alike)


Misname = tuple[str, int, str, str, bool]
"""A misnamed card: its place ("labyrinth" and the row's index in the whole game,
"under-<mirror>" and the fan's index, or "discard" and the pile's length once it lies on
top), the card, the name read, and whether the hand held a card of that name."""


def _fan(state: OnirimState, mirror: str) -> tuple[str, ...]:
    """The cards under `mirror` in `state` (none when it is not in the game)."""
    if mirror not in state.in_game:
        return ()
    return state.under[state.in_game.index(mirror)]


def misnamed_pair(
    action: Pair, before: OnirimState, after: OnirimState, rng: random.Random
) -> Misname | None:
    """One card of a pair laid under a Mirror, drawn, named as its `twin` (one of the hand
    left after the pair when it holds one); None when the fan does not show the pair."""
    n = len(_fan(before, action.mirror))
    fan = _fan(after, action.mirror)
    if len(fan) < n + 2 or sorted(fan[n : n + 2]) != sorted(action.cards):
        return None
    k = n + rng.randrange(2)
    card = fan[k]
    hand = list(before.hand)
    for c in action.cards:
        if c in hand:
            hand.remove(c)
    name = twin(card, tuple(hand), rng)
    return (f"under-{action.mirror}", k, card, name, name in hand)


def misnamed_cards(
    script: Script,
    share: float,
    stay: str,
    rng: random.Random,
    pairs: float = 0.0,
    pair_rng: random.Random | None = None,
) -> dict[int, Misname]:
    """Shot by shot, the card the reader names wrong in it: in `share` of the Locations
    played or discarded where the camera sees them (and in `pairs` of the pairs laid under a
    Mirror, one card of the two, drawn with `pair_rng`), the card is named as its `twin` from
    its hand shot on, until the next camera action's hand shot (`turn`) or as long as it lies
    at its place (`stay`; `both`: either, drawn per card)."""
    out: dict[int, Misname] = {}
    for j, shot in enumerate(script.shots):
        if not shot.hand or j == 0 or shot.needs >= len(script.actions):
            continue
        action = script.actions[shot.needs]
        before = script.shots[j - 1].table
        if script.shots[j - 1].hand or not isinstance(action, Play | Discard | Pair):
            continue
        place: Misname | None
        if isinstance(action, Pair):
            if pair_rng is None or pair_rng.random() >= pairs:
                continue
            place = misnamed_pair(action, before, shot.table, pair_rng)
            if place is None:
                continue
            whole = stay == "stay" or (stay == "both" and pair_rng.random() < 0.5)
        else:
            if isinstance(action, Play) and len(shot.table.labyrinth) == len(before.labyrinth):
                continue
            if isinstance(action, Discard) and len(shot.table.discard) == len(before.discard):
                continue
            if rng.random() >= share:
                continue
            card = action.card
            hand = tuple(c for c in before.hand if c != card)
            name = twin(card, hand, rng)
            whole = stay == "stay" or (stay == "both" and rng.random() < 0.5)
            place = (
                ("labyrinth", len(shot.table.labyrinth) - 1, card, name, name in hand)
                if isinstance(action, Play)
                else ("discard", len(shot.table.discard), card, name, name in hand)
            )
        card = place[2]
        for k in range(j, len(script.shots)):
            later = script.shots[k]
            if k > j and later.hand and not whole and later.needs != shot.needs:
                break
            zone, at = place[:2]
            pile = later.table.discard
            if zone == "discard" and (len(pile) < at or set(pile[at - 1 :]) != {card}):
                break  # covered by another card (one of its own kind looks the same)
            if zone == "labyrinth" and len(later.table.labyrinth) - at > WINDOW:
                break
            if zone == "labyrinth" and len(later.table.labyrinth) <= at:
                break  # the row discarded (a Mirror's effect, a Nightmare)
            if zone.startswith("under-"):
                fan = _fan(later.table, zone.removeprefix("under-"))
                if len(fan) <= at or fan[at] != card:
                    break  # the Mirror explored: its cards gone to the pile
            out.setdefault(k, place)
    return out


class Leads:
    """The reader's colour leads measured on development decks (`--colour-leads`): right
    names' leads (None: no other colour among the finalists) and the leads a misnamed card
    is drawn from (see the module's docstring)."""

    def __init__(
        self, path: str, min_wrong: int, share: float, uniform: tuple[float, float] | None
    ) -> None:
        rows = [
            json.loads(line.removeprefix("NAMED "))
            for line in Path(path).read_text(encoding="utf-8").splitlines()
            if line.startswith("NAMED ")
        ]
        rows = [r for r in rows if r["zone"] in ("location", "discard") and r["truth"] in KINDS]
        self.right: list[float | None] = [
            r["colour_lead"] for r in rows if r["truth"] == r["named"]
        ]
        wrong = [
            float(r["colour_lead"] or 0.0)
            for r in rows
            if r["truth"] != r["named"] and r["truth"].split("-")[1] == r["named"].split("-")[1]
        ]
        if uniform is not None:
            lo, hi = uniform
            self.wrong = [lo + (hi - lo) * k / 100 for k in range(101)]
            self.model = f"uniform in [{lo}, {hi}] ({len(wrong)} wrong names measured)"
        elif len(wrong) >= min_wrong:
            self.wrong, self.model = wrong, f"{len(wrong)} wrong names measured"
        else:
            low = sorted(v for v in self.right if v is not None)
            cut = low[int(share * (len(low) - 1))]
            self.wrong = [v for v in low if v <= cut]
            self.model = (
                f"{len(wrong)} wrong names measured (< {min_wrong}): the right names' "
                f"{len(self.wrong)} leads at most {cut:.3f} (their {share:.2f} quantile)"
            )

    def lead(self, seed: int, zone: str, at: int, wrong: bool) -> float | None:
        """One card's lead, the same in every frame it lies at its place."""
        r = random.Random(f"faults-lead-{seed}-{zone}-{at}-{wrong}")
        return r.choice(self.wrong if wrong else self.right)


def with_leads(
    d: dict[str, Any],
    state: OnirimState,
    place: Misname | None,
    leads: Leads,
    seed: int,
) -> None:
    """The reading `d` of `state` with the colour leads of its named Locations in the row,
    under the Mirrors and on the pile (a misnamed card at `place` draws a misreading's)."""
    out = []
    first = max(0, len(state.labyrinth) - WINDOW)
    spots = [("labyrinth", k, first + k, c) for k, c in enumerate(d["labyrinth"])]
    for m in d["mirrors"]:
        zone = f"under-{m['mirror']}"
        spots += [(zone, k, k, c) for k, c in enumerate(m["under"])]
    spots.append(("discard", 0, len(state.discard), d["discard_top"]))
    for zone, k, at, card in spots:
        if card is None or card not in KINDS:
            continue
        # As `misname` names it: a top of the misnamed card's kind is read as it was, the
        # one misnamed or another laid on it (a discard onto its own kind looks the same).
        wrong = (
            place is not None
            and place[0] == zone
            and card == place[3]
            and (zone == "discard" or place[1] == at)
        )
        lead = leads.lead(seed, zone, place[1] if wrong and place else at, wrong)
        if lead is not None:
            out.append([zone, k, lead])
    d[COLOUR_LEADS] = out


def misname(d: dict[str, Any], state: OnirimState, place: Misname) -> None:
    """The reading `d` of `state` with the card at `place` named as read, where it shows."""
    zone, at, card, name, _ = place
    if zone == "discard":
        if d["discard_top"] == card:
            d["discard_top"] = name
        return
    if zone.startswith("under-"):
        for m in d["mirrors"]:
            if f"under-{m['mirror']}" == zone and at < len(m["under"]) and m["under"][at] == card:
                m["under"][at] = name
        return
    k = at - max(0, len(state.labyrinth) - WINDOW)
    if 0 <= k < len(d["labyrinth"]) and d["labyrinth"][k] == card:
        d["labyrinth"][k] = name


def one_game(
    seed: int,
    trace: bool = False,
    symbol_misreads: float = 0.0,
    real_breaches: float = 0.0,
    unnamed: float = 0.0,
    tapped: float = 0.0,
    scale: float = 1.0,
    misnamed: float = 0.0,
    misnamed_for: str = "both",
    leads: Leads | None = None,
    misnamed_pairs: float = 0.0,
) -> dict[str, Any]:
    script: Script = script_game(seed)
    # Drawn apart from the other faults: asking for none of these leaves those as they were.
    rb = random.Random(f"faults-misread-{seed}")
    misreads = []  # the shot showing a card just laid, how many frames misread, and as what
    for j, before, after in play_shots(script) if symbol_misreads else ():
        card = breaking(before, after, rb)
        if card is not None and rb.random() < symbol_misreads:
            misreads.append((script.shots[j + 1], rb.randint(3, 5), card))
    rb = random.Random(f"faults-breach-{seed}")
    script, broken = with_breaches(script, real_breaches, rb) if real_breaches else (script, [])
    starts, n = [], 0
    for shot in script.shots:
        starts.append(n)
        n += shot.frames
    misread = {  # first frame of the misread: (frames, card)
        starts[next(k for k, s in enumerate(script.shots) if s is shot)]: (frames, card)
        for shot, frames, card in misreads
    }
    # Drawn apart from the other faults, after the breaches are laid into the script.
    bare = unnamed_tops(script, unnamed, random.Random(f"faults-top-{seed}")) if unnamed else set()
    r = random.Random(f"faults-{seed}")
    sticky = {j for j in range(len(script.shots)) if r.random() < 0.15 * scale}
    late: list[tuple[int, int, OnirimState]] = []
    for j, shot in enumerate(script.shots):
        if (
            shot.hand
            and j > 0
            and r.random() < 0.1 * scale
            and (not late or starts[j] >= late[-1][1])
        ):
            late.append((starts[j], starts[j] + r.randint(5, 80), script.shots[j - 1].table))
    # Drawn apart from the other faults, after the breaches are laid into the script.
    tops = (
        tapped_tops(script, starts, tapped, random.Random(f"faults-tapped-top-{seed}"))
        if tapped
        else {}
    )

    # Drawn apart from the other faults, after the breaches are laid into the script.
    wrong = (
        misnamed_cards(
            script,
            misnamed,
            misnamed_for,
            random.Random(f"faults-misnamed-{seed}"),
            misnamed_pairs,
            random.Random(f"faults-misnamed-pair-{seed}"),
        )
        if misnamed or misnamed_pairs
        else {}
    )

    def observe(_game: Any, i: int) -> Observation:
        frame = random.Random(f"faults-{seed}-{i}")
        lost = frame.random() < 0.02 * scale
        j = bisect.bisect_right(starts, i) - 1
        if any(a <= i < b for a, b in broken):  # a real breach is read as it lies
            return HANDS if script.shots[j].hand else Observation(seen(script.shots[j].table), 1.0)
        for a, (frames, card) in misread.items():
            if a <= i < a + frames:
                d = seen(script.shots[bisect.bisect_right(starts, i) - 1].table)
                d["labyrinth"][-1] = card
                return Observation(d, 1.0)
        for a, b, table in late:
            if a <= i < b:
                return LOST if lost else Observation(seen(table), 1.0)
        j = bisect.bisect_right(starts, i) - 1
        if script.shots[j].hand:
            return HANDS
        if lost:
            return LOST
        d = seen(script.shots[j].table)
        if j in wrong:
            misname(d, script.shots[j].table, wrong[j])
        k = j
        while k > 0 and script.shots[k].needs >= script.shots[j].needs:
            k -= 1  # the table before this shot's action (its hand shots show the one after)
        before = seen(script.shots[k].table)
        if j in sticky:
            d = fault(d, before, random.Random(f"faults-{seed}-shot-{j}"))
        if frame.random() < 0.05 * scale:
            d = fault(d, before, frame)
        if j in bare:
            d["discard_top"] = None
        if i in tops:
            d["discard_top"] = tops[i]
        if leads is not None:
            with_leads(d, script.shots[j].table, wrong.get(j), leads, seed)
        return Observation(d, 1.0)

    def answer(game: OnirimTable, i: int) -> list[EventDraft]:
        """The player answers truly: during a real breach, that they made that play."""
        if any(a <= i < b for a, b in broken):
            for q in list(game.open_questions.values()):
                said = [c["value"] for c in q.choices if isinstance(c["value"], dict)]
                said = [v for v in said if BROKE in v]
                if said:
                    return game.correct({"question": q.id, "answer": said[0]}, 0)
        return answer_truly(game, script)

    result = follow(script, observe, n, answer=answer)
    want = script_actions(script)
    booked = [e.payload for e in result.events if e.kind == "onirim.action"]
    at = [f for e, f in zip(result.events, result.frames, strict=True) if e.kind == BREACH]
    caught = sum(any(a <= f < b for f in at) for a, b in broken)
    false = [
        e.payload
        for e, f in zip(result.events, result.frames, strict=True)
        if e.kind == BREACH and not any(a <= f < b for a, b in broken)
    ]
    got = [b["action"] for b in booked]
    first = next((k for k, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), None)
    out: dict[str, Any] = {
        "seed": seed,
        "all_right": got == want,
        "actions": len(want),
        "booked": len(got),
        "breaches": false,
        "real_breaches": len(broken),
        "real_breaches_caught": caught,
        "symbol_misreads": len(misread),
        "unnamed_top_shots": len(bare),
        "tapped_top_frames": len(tops),
        "misnamed_cards": len(set(wrong.values())),
        "misnamed_as_held": sum(place[-1] for place in set(wrong.values())),
        "questions": len(result.questions),
        "refused_taps": result.refused_taps,
        "first_wrong": None
        if first is None
        else {"index": first, "booked": booked[first], "script": want[first]},
    }
    if trace:
        out["events"] = [
            [e.seq, f, e.kind, e.payload] for e, f in zip(result.events, result.frames, strict=True)
        ]
        out["real_breach_frames"] = broken
    return out


def _range(text: str) -> tuple[float, float]:
    lo, hi = (float(v) for v in text.split(":"))
    return lo, hi


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", default="1000:1100", help="A:B, film seeds (A included)")
    p.add_argument("--trace", action="store_true", help="print every event of a failed game")
    p.add_argument(
        "--symbol-misreads",
        type=float,
        default=0.0,
        help="share of plays whose card is read for 3-5 frames as one breaking the symbol rule",
    )
    p.add_argument(
        "--unnamed-tops",
        type=float,
        default=0.0,
        help="share of the discard pile's tops the reader never names while they lie on top",
    )
    p.add_argument(
        "--fault-scale",
        type=float,
        default=1.0,
        help="the default faults' rates times this (sticky shots, single frames, lost table, late)",
    )
    p.add_argument(
        "--tapped-tops",
        type=float,
        default=0.0,
        help="share of the pile's tops put there by a tap that the reader never names",
    )
    p.add_argument(
        "--real-breaches",
        type=float,
        default=0.0,
        help="share of plays before which the player lays a card against the symbol rule",
    )
    p.add_argument(
        "--misnamed-cards",
        type=float,
        default=0.0,
        help="share of Locations played or discarded named as another colour of their symbol",
    )
    p.add_argument(
        "--misnamed-pairs",
        type=float,
        default=0.0,
        help="share of pairs laid under a Mirror with one card named as another colour",
    )
    p.add_argument(
        "--misnamed-for",
        choices=("turn", "stay", "both"),
        default="both",
        help="a misnamed card is named wrong until the next play, while it lies, or either",
    )
    p.add_argument(
        "--colour-leads",
        help="rows of `onirim_vision.py --curve --named-rows`: each named Location carries a "
        "colour lead drawn from them",
    )
    p.add_argument("--misnamed-lead-rows", type=int, default=10)
    p.add_argument("--misnamed-lead-share", type=float, default=0.10)
    p.add_argument(
        "--misnamed-leads",
        help="LO:HI: a misnamed card's lead drawn evenly from this range instead",
    )
    p.add_argument(
        "--colour-doubt",
        type=float,
        help="the table's COLOUR_DOUBT for this run (its curve)",
    )
    a = p.parse_args()
    if a.colour_doubt is not None:
        live.COLOUR_DOUBT = a.colour_doubt
    leads = (
        Leads(
            a.colour_leads,
            a.misnamed_lead_rows,
            a.misnamed_lead_share,
            _range(a.misnamed_leads) if a.misnamed_leads else None,
        )
        if a.colour_leads
        else None
    )
    lo, hi = (int(v) for v in a.seeds.split(":"))
    games = []
    for seed in range(lo, hi):
        g = one_game(
            seed,
            a.trace,
            a.symbol_misreads,
            a.real_breaches,
            a.unnamed_tops,
            a.tapped_tops,
            a.fault_scale,
            a.misnamed_cards,
            a.misnamed_for,
            leads,
            a.misnamed_pairs,
        )
        games.append(g)
        missed = g["real_breaches_caught"] < g["real_breaches"]
        if not g["all_right"] or g["breaches"] or g["refused_taps"] or missed:
            print(json.dumps(g), flush=True)
    extra = ""
    if a.symbol_misreads or a.real_breaches:
        extra += f" --symbol-misreads {a.symbol_misreads} --real-breaches {a.real_breaches}"
    extra += f" --unnamed-tops {a.unnamed_tops}" if a.unnamed_tops else ""
    extra += f" --tapped-tops {a.tapped_tops}" if a.tapped_tops else ""
    extra += f" --fault-scale {a.fault_scale}" if a.fault_scale != 1.0 else ""
    if a.misnamed_cards or a.misnamed_pairs:
        extra += f" --misnamed-cards {a.misnamed_cards} --misnamed-for {a.misnamed_for}"
        extra += f" --misnamed-pairs {a.misnamed_pairs}" if a.misnamed_pairs else ""
    if leads is not None:
        extra += f" --colour-leads {a.colour_leads}"
        extra += f" --misnamed-lead-rows {a.misnamed_lead_rows}"
        extra += f" --misnamed-lead-share {a.misnamed_lead_share}"
        extra += f" --misnamed-leads {a.misnamed_leads}" if a.misnamed_leads else ""
    extra += f" --colour-doubt {live.COLOUR_DOUBT}"
    summary = {
        "command": "PYTHONPATH=. python benchmarks/onirim_tracking_faults.py "
        f"--seeds {a.seeds}{extra}",
        "games": len(games),
        "games_all_right": sum(g["all_right"] for g in games),
        "false_events": sum(len(g["breaches"]) for g in games),
        "symbol_misreads": sum(g["symbol_misreads"] for g in games),
        "real_breaches": sum(g["real_breaches"] for g in games),
        "real_breaches_caught": sum(g["real_breaches_caught"] for g in games),
        "unnamed_top_shots": sum(g["unnamed_top_shots"] for g in games),
        "tapped_top_frames": sum(g["tapped_top_frames"] for g in games),
        "misnamed_cards": sum(g["misnamed_cards"] for g in games),
        "misnamed_as_held": sum(g["misnamed_as_held"] for g in games),
        "questions": sum(g["questions"] for g in games),
        "misnamed_lead_model": None if leads is None else leads.model,
        "refused_taps": sum(len(g["refused_taps"]) for g in games),
        "lost_track": sum(len(g["refused_taps"]) >= 3 for g in games),
    }
    print(json.dumps(summary, indent=1))
    return 0 if summary["games_all_right"] == summary["games"] else 1


if __name__ == "__main__":
    sys.exit(main())
