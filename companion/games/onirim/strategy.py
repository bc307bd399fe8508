"""The greedy player's rules of thumb: fast, and what experienced players do first.

Greedy is a rule-based policy rather than a search, because the hint replays it thousands of
times per decision. The rules, in order on a turn: complete a series of three for a Door;
extend a series; explore a Mirror the victory needs; start a series with the colour best
supported in hand; otherwise discard the card worth least. Doors drawn are always opened.
A Nightmare is paid the cheapest way by a rough count of cards lost. A prophecy discards a
Nightmare if it shows one and puts the most useful cards on top.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, cast

from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.actions import (
    Discard,
    Nightmare,
    OpenDoor,
    Pair,
    Pick,
    Play,
    Prophecy,
)
from companion.games.onirim.rules.deck import NIGHTMARE, colour_of, door, is_door, symbol_of
from companion.games.onirim.rules.state import OnirimState

KEY = "key"
DOOR_COPIES = {k: n for k, n in ENGINE.deck.copies.items() if is_door(k)}

# Costs of a Nightmare's resolutions, in cards of the deck lost (rough, by hand)
DOOR_TO_LIMBO_COST = 7.0
USEFUL_KEY_COST = 3.0
SPARE_KEY_COST = 0.3
HAND_CARD_COST = 0.6


def _door_open_to_earn(state: OnirimState, colour: str) -> bool:
    return state.deck[ENGINE.deck.index[door(colour)]] > 0


def _doors_missing(state: OnirimState, colour: str) -> int:
    d = door(colour)
    return DOOR_COPIES[d] - state.doors.count(d)


def card_value(state: OnirimState, card: str) -> float:
    """How much a card in hand is worth keeping (higher: keep)."""
    if is_door(card) or card == NIGHTMARE:
        return 0.0
    colour = colour_of(card)
    missing = _doors_missing(state, colour)
    v = 1.0 if missing else 0.1
    if symbol_of(card) == KEY:
        v += 2.0 if missing else 0.2
    elif symbol_of(card) == "moon":
        v += 0.3
    return v


def turn_action(state: OnirimState) -> Any:
    hand = state.hand
    last = state.labyrinth[-1] if state.labyrinth else None
    last_sym = symbol_of(last) if last else None
    playable = [c for c in sorted(set(hand)) if symbol_of(c) != last_sym]
    if last is not None and state.run > 0 and _door_open_to_earn(state, colour_of(last)):
        same = [c for c in playable if colour_of(c) == colour_of(last)]
        if same:
            # a non-Key first: Keys are worth more in hand
            same.sort(key=lambda c: (symbol_of(c) == KEY, c))
            if state.run + 1 >= ENGINE.deck.series_length or len(same) > 0:
                return Play(same[0])
    pair = _mirror_pair(state)
    if pair is not None:
        return pair
    starts = []
    for c in playable:
        colour = colour_of(c)
        if not _door_open_to_earn(state, colour) or symbol_of(c) == KEY:
            continue
        follow = sum(1 for x in hand if colour_of(x) == colour and symbol_of(x) != symbol_of(c))
        starts.append((follow, sum(colour_of(x) == colour for x in hand), c))
    if starts:
        starts.sort(reverse=True)
        if starts[0][0] > 0:
            return Play(starts[0][2])
    worst = min(sorted(set(hand)), key=lambda c: (card_value(state, c), c))
    return Discard(worst)


def _mirror_pair(state: OnirimState) -> Pair | None:
    """A pair under a Mirror the victory needs, or under the Key Mirror, if the hand has one."""
    best = None
    for a in ENGINE.legal_actions(state):
        if not isinstance(a, Pair):
            continue
        m = ENGINE.deck.mirrors[a.mirror]
        if m.required:
            score = 2.0 - sum(card_value(state, c) for c in a.cards) * 0.1
        elif m.effect == "nightmares-then-doors":
            score = 1.0
        else:
            continue
        if best is None or score > best[0]:
            best = (score, a)
    return None if best is None else best[1]


def nightmare_action(state: OnirimState) -> Nightmare:
    options: list[tuple[float, Nightmare]] = []
    for c in sorted(set(state.hand)):
        if symbol_of(c) == KEY:
            cost = USEFUL_KEY_COST if _doors_missing(state, colour_of(c)) else SPARE_KEY_COST
            options.append((cost, Nightmare("key", c)))
    for d in sorted(set(state.doors)):
        options.append((DOOR_TO_LIMBO_COST, Nightmare("door", d)))
    size = state.deck_size()
    n = min(ENGINE.deck.nightmare_reveal, size)
    counts = Counter({k: v for k, v in zip(ENGINE.deck.kinds, state.deck, strict=True) if v})
    locs = sum(v for k, v in counts.items() if not is_door(k) and k != NIGHTMARE)
    reveal_cost = n * locs / size if size else 0.0
    options.append((reveal_cost, Nightmare("reveal")))
    hand_cost = 5 * locs / max(size, 1) + sum(card_value(state, c) for c in state.hand) * (
        HAND_CARD_COST
    )
    options.append((hand_cost + 1.0, Nightmare("hand")))
    return min(options, key=lambda x: x[0])[1]


def _want_on_top(state: OnirimState, card: str) -> float:
    """How much the player wants `card` as the next draw."""
    if card == NIGHTMARE:
        return -10.0
    if is_door(card):
        key = f"{colour_of(card)}-{KEY}"
        return 5.0 if key in state.hand else -1.0
    last = state.labyrinth[-1] if state.labyrinth else None
    v = card_value(state, card)
    if last and colour_of(card) == colour_of(last) and symbol_of(card) != symbol_of(last):
        v += 2.0
    return v


def prophecy_action(state: OnirimState) -> Prophecy:
    """Discard the card least wanted (a Nightmare first; never a Door), the rest best first."""
    want = {c: _want_on_top(state, c) for c in set(state.shown)}
    discardable = [c for c in state.shown if not is_door(c)]
    drop = min(discardable, key=lambda c: (want[c], c)) if discardable else None
    rest = list(state.shown)
    if drop is not None:
        rest.remove(drop)
    rest.sort(key=lambda c: (-want[c], c))
    return Prophecy(drop, tuple(rest))


def pick_action(state: OnirimState) -> Pick:
    # Inside a Mirror effect every legal action is a Pick.
    options = [a.card for a in cast(list[Pick], ENGINE.legal_actions(state))]
    assert state.effect is not None
    eff = ENGINE.deck.mirrors[state.effect].effect
    if eff in ("nightmares-then-doors", "one-door"):
        deck_doors = {c: state.deck[ENGINE.deck.index[c]] for c in options}
        return Pick(max(options, key=lambda c: (deck_doors[c], c)))
    return Pick(max(options, key=lambda c: (_want_on_top(state, c), c)))


def greedy_action(state: OnirimState) -> Any:
    phase = state.phase
    if phase == "turn":
        return turn_action(state)
    if phase == "door":
        return OpenDoor(True)
    if phase == "nightmare":
        return nightmare_action(state)
    if phase == "prophecy":
        return prophecy_action(state)
    if phase == "effect":
        return pick_action(state)
    raise ValueError(f"the player does not move in phase {phase}")
