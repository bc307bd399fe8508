"""The frozen state of a solo Onirim game, and its JSON.

The deck is held as counts per kind plus `top`, the cards on top whose identity the player
has been shown (by a prophecy, the Red or the Blue Mirror): the order of the rest is not
stored anywhere, so it cannot leak, and a draw is a chance action (see actions.py).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from companion.games.onirim.rules.deck import Deck

PHASES = (
    "setup",  # chance draws a hand of Locations; Doors and Nightmares go to limbo
    "turn",  # the player plays, discards or plays a pair under a Mirror
    "prophecy-look",  # chance shows the top of the deck (a Key was discarded)
    "prophecy",  # the player discards one of the shown cards and orders the rest
    "refill",  # chance draws the next card towards a full hand
    "door",  # a Door was drawn with a Key of its colour in hand: open it or not
    "nightmare",  # a Nightmare was drawn: the player resolves it
    "nightmare-look",  # chance shows the top of the deck (the Nightmare's reveal)
    "redraw",  # chance draws a new hand after the Nightmare took the old one
    "effect",  # the player chooses inside a Mirror's effect
    "over",
)


@dataclass(frozen=True)
class OnirimState:
    mirrors: bool
    hard: bool
    deck: tuple[int, ...]  # copies of each kind in the deck, in Deck.kinds order
    top: tuple[str, ...] = ()  # cards on top of the deck the player knows, top first
    hand: tuple[str, ...] = ()  # sorted
    labyrinth: tuple[str, ...] = ()
    run: int = 0  # cards at the labyrinth's end in the series not yet counted for a Door
    doors: tuple[str, ...] = ()  # in play, in the order they came
    discard: tuple[str, ...] = ()  # bottom first
    limbo: tuple[str, ...] = ()
    under: tuple[tuple[str, ...], ...] = ()  # per Mirror in the game (Deck.mirrors order)
    explored: tuple[bool, ...] = ()  # per Mirror in the game
    phase: str = "setup"
    shown: tuple[str, ...] = ()  # cards a prophecy or a Nightmare's reveal is showing
    pending: str | None = None  # the Door or Nightmare drawn and waiting for a choice
    effect: str | None = None  # the Mirror whose effect is being resolved
    picks: tuple[str, ...] = ()  # choices made so far inside that effect
    turns: int = 0
    outcome: str | None = None  # "won" or "lost"
    in_game: tuple[str, ...] = field(default=())  # the Mirrors in this game, in order

    def deck_size(self) -> int:
        return sum(self.deck)


def zones(state: OnirimState, deck: Deck) -> Counter[str]:
    """Every card of the deck wherever it is: must always equal the full deck."""
    out: Counter[str] = Counter()
    for kind, n in zip(deck.kinds, state.deck, strict=True):
        out[kind] += n
    for zone in (state.hand, state.labyrinth, state.doors, state.discard, state.limbo):
        out.update(zone)
    out.update(state.shown)
    for cards in state.under:
        out.update(cards)
    if state.pending is not None:
        out[state.pending] += 1
    return +out


def state_to_json(state: OnirimState, deck: Deck) -> dict[str, Any]:
    return {
        "mirrors": state.mirrors,
        "hard": state.hard,
        "deck": {k: n for k, n in zip(deck.kinds, state.deck, strict=True) if n},
        "top": list(state.top),
        "hand": list(state.hand),
        "labyrinth": list(state.labyrinth),
        "run": state.run,
        "doors": list(state.doors),
        "discard": list(state.discard),
        "limbo": list(state.limbo),
        "mirror_cards": [
            {"mirror": m, "explored": e, "under": list(u)}
            for m, e, u in zip(state.in_game, state.explored, state.under, strict=True)
        ],
        "phase": state.phase,
        "shown": list(state.shown),
        "pending": state.pending,
        "effect": state.effect,
        "picks": list(state.picks),
        "turns": state.turns,
        "outcome": state.outcome,
    }


def _cards(data: dict[str, Any], key: str, deck: Deck) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise ValueError(f"{key!r} must be a list of cards")
    for c in value:
        if c not in deck.copies:
            raise ValueError(f"{key!r}: unknown card {c!r} (e.g. red-sun, door-blue, nightmare)")
    return tuple(value)


def state_from_json(data: dict[str, Any], deck: Deck) -> OnirimState:
    """A state from JSON; raises ValueError with a one-line reason when it is malformed."""
    if not isinstance(data, dict):
        raise ValueError("an Onirim state is a JSON object")
    try:
        counts = data.get("deck", {})
        if not isinstance(counts, dict):
            raise ValueError("'deck' must be an object of card -> copies")
        for k, n in counts.items():
            if k not in deck.copies:
                raise ValueError(f"'deck': unknown card {k!r}")
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ValueError(f"'deck': copies of {k} must be a whole number >= 0")
        mirrors = bool(data.get("mirrors", True))
        hard = bool(data.get("hard", False))
        in_game = deck.mirrors_in_game(mirrors, hard)
        given = {m.get("mirror"): m for m in data.get("mirror_cards", []) if isinstance(m, dict)}
        unknown = set(given) - set(in_game)
        if unknown:
            raise ValueError(f"'mirror_cards': {sorted(map(str, unknown))} not in this game")
        under = tuple(_cards(given.get(m, {}), "under", deck) for m in in_game)
        explored = tuple(bool(given.get(m, {}).get("explored", False)) for m in in_game)
        phase = data.get("phase", "turn")
        if phase not in PHASES:
            raise ValueError(f"'phase' must be one of {', '.join(PHASES)}")
        pending = data.get("pending")
        if pending is not None and pending not in deck.copies:
            raise ValueError(f"'pending': unknown card {pending!r}")
        outcome = data.get("outcome")
        if outcome not in (None, "won", "lost"):
            raise ValueError("'outcome' must be null, won or lost")
        turns = data.get("turns", 0)
        run = data.get("run", 0)
        if not isinstance(turns, int) or not isinstance(run, int):
            raise ValueError("'turns' and 'run' must be whole numbers")
        effect = data.get("effect")
        if effect is not None and effect not in in_game:
            raise ValueError(f"'effect': {effect!r} is not a Mirror in this game")
        return OnirimState(
            mirrors=mirrors,
            hard=hard,
            deck=tuple(int(counts.get(k, 0)) for k in deck.kinds),
            top=_cards(data, "top", deck),
            hand=tuple(sorted(_cards(data, "hand", deck))),
            labyrinth=_cards(data, "labyrinth", deck),
            run=run,
            doors=_cards(data, "doors", deck),
            discard=_cards(data, "discard", deck),
            limbo=_cards(data, "limbo", deck),
            under=under,
            explored=explored,
            phase=phase,
            shown=_cards(data, "shown", deck),
            pending=pending,
            effect=effect,
            picks=_cards(data, "picks", deck),
            turns=turns,
            outcome=outcome,
            in_game=in_game,
        )
    except (TypeError, AttributeError) as exc:
        raise ValueError(f"malformed Onirim state ({exc})") from None


def evolve(state: OnirimState, **changes: Any) -> OnirimState:
    """`dataclasses.replace` without re-running `__init__`: the engine builds thousands of
    states per game inside the hint's search, and `replace` was most of its time. Callers
    pass only field names (a typo fails at the first test that runs it)."""
    new = object.__new__(OnirimState)
    d = new.__dict__
    d.update(state.__dict__)
    for k in changes:
        if k not in d:
            raise TypeError(f"OnirimState has no field {k!r}")
    d.update(changes)
    return new
