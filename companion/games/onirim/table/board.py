""" "The table is right": the engine's public table set to what the camera sees, every card
still accounted for.

Only what lies face up changes: the labyrinth (the part the layout shows), the Doors in
play, the Mirrors and the cards under them, the discard pile's top. A card that appears on
the table comes from the hand if it is there, else from the deck; a card that left the table
goes back into the deck (whose order nobody knows then: what the player knew of its top is
forgotten). The hand, the phase and the turn count stay as they are, and the labyrinth's
series towards a Door is counted again from its end.
"""

from __future__ import annotations

from collections import Counter

from companion.games.base import IllegalAction
from companion.games.onirim.rules.cards import add, without
from companion.games.onirim.rules.deck import colour_of, door
from companion.games.onirim.rules.engine import OnirimEngine
from companion.games.onirim.rules.state import OnirimState, evolve
from companion.games.onirim.table.track import Table

RULE = "the table is right: every card comes from the hand or the deck"


def _on_table(
    labyrinth: tuple[str, ...],
    doors: tuple[str, ...],
    under: tuple[tuple[str, ...], ...],
    top: tuple[str, ...],
) -> Counter[str]:
    out = Counter(labyrinth) + Counter(doors) + Counter(top)
    for cards in under:
        out.update(cards)
    return out


def _series(engine: OnirimEngine, labyrinth: tuple[str, ...]) -> int:
    """Cards at the labyrinth's end of one colour, not yet counted for a Door."""
    if not labyrinth:
        return 0
    n, colour = 0, colour_of(labyrinth[-1])
    for card in reversed(labyrinth):
        if colour_of(card) != colour:
            break
        n += 1
    return n % engine.deck.series_length


def with_table(engine: OnirimEngine, state: OnirimState, seen: Table, window: int) -> OnirimState:
    """`state` with its face-up cards as `seen` lays them; `IllegalAction` when a card seen
    is neither in the hand nor left in the deck."""
    if tuple(m.mirror for m in seen.mirrors) != state.in_game:
        raise IllegalAction(
            RULE, f"the camera does not see every Mirror of this game: {', '.join(state.in_game)}"
        )
    kept = state.labyrinth[: max(0, len(state.labyrinth) - window)]
    labyrinth = kept + seen.labyrinth
    wanted_doors = Counter(door(c) for c in seen.doors)
    doors = []
    for d in state.doors:
        if wanted_doors[d] > 0:
            doors.append(d)
            wanted_doors[d] -= 1
    doors += sorted((+wanted_doors).elements())
    under = tuple(m.under for m in seen.mirrors)
    old_top = state.discard[-1:] if state.discard else ()
    top = seen.discard_top
    new_top: tuple[str, ...] = (top,) if top is not None and top not in old_top else ()
    before = _on_table(state.labyrinth, state.doors, state.under, ())
    after = _on_table(labyrinth, tuple(doors), under, new_top)
    hand, counts = state.hand, state.deck
    index = engine.deck.index
    for card, n in (after - before).items():
        for _ in range(n):
            if card in hand:
                hand = without(hand, card)
            elif card in index and counts[index[card]] > 0:
                counts = add(counts, index[card], -1)
            else:
                raise IllegalAction(RULE, f"no {card} is left in the hand or the deck")
    for card, n in (before - after).items():
        counts = add(counts, index[card], n)
    changed = counts != state.deck
    return evolve(
        state,
        hand=hand,
        deck=counts,
        top=() if changed else state.top,
        labyrinth=labyrinth,
        run=_series(engine, labyrinth),
        doors=tuple(doors),
        under=under,
        explored=tuple(m.explored for m in seen.mirrors),
        discard=state.discard + new_top,
    )
