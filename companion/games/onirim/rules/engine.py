"""The rules engine of solo Onirim (Second Edition), with the Mirrors promo cards.

A game: `setup` (chance draws five Locations; Doors and Nightmares to limbo, shuffled back),
then turns. A turn plays a Location to the labyrinth, discards a card (a Key starts a
prophecy), or plays a pair under a Mirror; then chance draws back to a full hand, stopping
for the player's choice on a Door that a Key in hand could open and on every Nightmare.
Limbo is shuffled back once the hand is full. The game is won the moment all the Doors are
in play (and, with the Mirrors, the required Mirrors explored), lost when a draw finds the
deck empty. Readings where the rulebooks are open are in docs/onirim.md.

Options: `mirrors` (default True), `hard` (adds the Rainbow Mirror; default False), and
`glyphs`, which is refused: The Glyphs expansion is not modelled.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import cached_property
from typing import Any

from companion.games.base import CHANCE, IllegalAction
from companion.games.onirim.rules import actions as A
from companion.games.onirim.rules import effects
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
)
from companion.games.onirim.rules.cards import (
    add,
    sample,
    unknown_counts,
    with_sorted,
    without,
)
from companion.games.onirim.rules.deck import (
    NIGHTMARE,
    Deck,
    colour_of,
    door,
    is_door,
    is_location,
    load_deck,
    symbol_of,
)
from companion.games.onirim.rules.state import (
    OnirimState,
    evolve,
    state_from_json,
    state_to_json,
)

CHANCE_PHASES = frozenset({"setup", "prophecy-look", "refill", "nightmare-look", "redraw"})
OPTIONS = ("mirrors", "hard", "glyphs")


TURN_RULE = "a card is played or discarded only on a turn"
PLAYER_PHASES: dict[type, tuple[str, str]] = {
    Play: ("turn", TURN_RULE),
    Discard: ("turn", TURN_RULE),
    Pair: ("turn", TURN_RULE),
    Prophecy: ("prophecy", "a prophecy follows discarding a Key"),
    OpenDoor: ("door", "a Door is opened when it is drawn"),
    Nightmare: ("nightmare", "a Nightmare is resolved when it is drawn"),
    Pick: ("effect", "cards are picked only inside a Mirror's effect"),
}
"""The player's actions: the phase each is taken in, and the rule broken out of it."""


class OnirimEngine:
    game_id = "onirim"

    def __init__(self, deck: Deck | None = None) -> None:
        """A deck given stands in for the model's, which is read on first use (the engine is
        created at import)."""
        if deck is not None:
            self.deck = deck

    @cached_property
    def _matches(self) -> dict[str, str]:
        return {m.id: m.matches for m in self.deck.mirrors.values()}

    @cached_property
    def deck(self) -> Deck:
        return load_deck()

    # -- protocol -----------------------------------------------------------------------
    def new_game(self, players: int = 1, options: dict[str, Any] | None = None) -> OnirimState:
        if players != 1:
            raise ValueError(f"Onirim is played solo here (1 player), not by {players}")
        opts = dict(options or {})
        unknown = set(opts) - set(OPTIONS)
        if unknown:
            raise ValueError(f"unknown option(s) {', '.join(sorted(unknown))} (mirrors, hard)")
        for name in opts:
            if not isinstance(opts[name], bool):
                raise ValueError(f"option {name} must be true or false")
        if opts.get("glyphs"):
            raise ValueError(
                "the Glyph Mirror needs The Glyphs expansion, which is not modelled; "
                "play without it"
            )
        mirrors = opts.get("mirrors", True)
        hard = opts.get("hard", False)
        if hard and not mirrors:
            raise ValueError("the hard game adds the Rainbow Mirror: it needs the Mirrors")
        in_game = self.deck.mirrors_in_game(mirrors, hard)
        return OnirimState(
            mirrors=mirrors,
            hard=hard,
            deck=tuple(self.deck.copies.values()),
            under=tuple(() for _ in in_game),
            explored=tuple(False for _ in in_game),
            in_game=in_game,
        )

    def current_player(self, state: OnirimState) -> int | None:
        if state.phase == "over":
            return None
        return CHANCE if state.phase in CHANCE_PHASES else 0

    def is_terminal(self, state: OnirimState) -> bool:
        return state.phase == "over"

    def scores(self, state: OnirimState) -> list[float]:
        """1 for a won game, else 0."""
        return [1.0 if state.outcome == "won" else 0.0]

    def doors_total(self) -> int:
        return self.deck.doors_total

    def required_mirrors(self, state: OnirimState) -> tuple[str, ...]:
        return tuple(m for m in state.in_game if self.deck.mirrors[m].required)

    def is_won(self, state: OnirimState) -> bool:
        if len(state.doors) < self.doors_total():
            return False
        return all(
            e
            for m, e in zip(state.in_game, state.explored, strict=True)
            if self.deck.mirrors[m].required
        )

    # -- legal actions ------------------------------------------------------------------
    def legal_actions(self, state: OnirimState) -> list[Action]:
        phase = state.phase
        if phase == "turn":
            return self._turn_actions(state)
        if phase == "prophecy":
            return self._prophecies(state.shown)
        if phase == "door":
            return [OpenDoor(True), OpenDoor(False)]
        if phase == "nightmare":
            out: list[Action] = [
                Nightmare("key", c) for c in sorted(set(state.hand)) if symbol_of(c) == "key"
            ]
            out += [Nightmare("door", d) for d in sorted(set(state.doors))]
            out += [Nightmare("reveal"), Nightmare("hand")]
            return out
        if phase == "effect":
            return [Pick(c) for c in effects.pick_options(self.deck, state)]
        return []

    def _turn_actions(self, state: OnirimState) -> list[Action]:
        kinds = sorted(set(state.hand))
        last = symbol_of(state.labyrinth[-1]) if state.labyrinth else None
        out: list[Action] = [Play(c) for c in kinds if symbol_of(c) != last]
        out += [Discard(c) for c in kinds]
        for i, m in enumerate(state.in_game):
            if state.explored[i]:
                continue
            fits = [c for c in kinds if self._fits(m, c, state.under[i])]
            for a, b in itertools.combinations_with_replacement(fits, 2):
                if a == b and state.hand.count(a) < 2:
                    continue
                if self._pair_fits(m, a, b, state.under[i]):
                    out.append(Pair(m, (a, b)))
        return out

    def _fits(self, mirror: str, card: str, under: tuple[str, ...]) -> bool:
        want = self._matches[mirror]
        if want == "each-colour":
            return colour_of(card) not in {colour_of(c) for c in under}
        return colour_of(card) == want or symbol_of(card) == want

    def _pair_fits(self, mirror: str, a: str, b: str, under: tuple[str, ...]) -> bool:
        if not (self._fits(mirror, a, under) and self._fits(mirror, b, under)):
            return False
        if self._matches[mirror] == "each-colour":
            return colour_of(a) != colour_of(b)
        return True

    @staticmethod
    def _prophecies(shown: tuple[str, ...]) -> list[Action]:
        out: list[Action] = []
        choices: Sequence[str | None] = sorted({c for c in shown if not is_door(c)})
        for d in choices or [None]:
            rest = list(shown)
            if d is not None:
                rest.remove(d)
            out += [Prophecy(d, order) for order in sorted(set(itertools.permutations(rest)))]
        return out

    # -- chance -------------------------------------------------------------------------
    def sample_chance(self, state: OnirimState, rng: random.Random) -> Action:
        phase = state.phase
        if phase in ("setup", "refill", "redraw"):
            if state.top:
                return Draw(state.top[0])
            return Draw(rng.choices(self.deck.kinds, state.deck)[0])
        if phase in ("prophecy-look", "nightmare-look"):
            n = self._look_size(state)
            known = state.top[:n]
            pool = unknown_counts(self.deck, state.deck, state.top)
            return Reveal(known + tuple(sample(pool, n - len(known), rng)))
        raise ValueError(f"no chance action in phase {phase}")

    def _look_size(self, state: OnirimState) -> int:
        size = (
            self.deck.prophecy_size
            if state.phase == "prophecy-look"
            else self.deck.nightmare_reveal
        )
        return min(size, state.deck_size())

    def _check_draw(self, state: OnirimState, card: str) -> None:
        rule = "a draw takes the top card of the deck"
        if state.top:
            if card != state.top[0]:
                raise IllegalAction(rule, f"the top card is known to be {state.top[0]}")
        elif card not in self.deck.index or state.deck[self.deck.index[card]] <= 0:
            raise IllegalAction(rule, f"no {card} is left in the deck")

    def _check_drawable(self, state: OnirimState, cards: tuple[str, ...], rule: str) -> None:
        known = state.top[: len(cards)]
        if cards[: len(known)] != known:
            raise IllegalAction(rule, f"the top of the deck is known to be {list(known)}")
        pool = unknown_counts(self.deck, state.deck, state.top)
        for c in cards[len(known) :]:
            if pool[c] <= 0:
                raise IllegalAction(rule, f"no {c} is left in the unknown part of the deck")
            pool[c] -= 1

    def _take_from_deck(self, state: OnirimState, cards: tuple[str, ...]) -> OnirimState:
        counts = state.deck
        for c in cards:
            counts = add(counts, self.deck.index[c], -1)
        return evolve(state, deck=counts, top=state.top[len(cards) :])

    # -- apply --------------------------------------------------------------------------
    def apply(self, state: OnirimState, action: Action) -> OnirimState:
        phase = state.phase
        if phase == "over":
            raise IllegalAction("the game is over", f"it was {state.outcome}")
        if isinstance(action, Draw):
            if phase not in ("setup", "refill", "redraw"):
                raise IllegalAction("cards are drawn only to fill the hand", f"phase is {phase}")
            self._check_draw(state, action.card)
            return self._settle(
                self._draw(self._take_from_deck(state, (action.card,)), action.card)
            )
        if isinstance(action, Reveal):
            if phase not in ("prophecy-look", "nightmare-look"):
                raise IllegalAction(
                    "the top of the deck is shown only by a prophecy or a Nightmare's reveal",
                    f"phase is {phase}",
                )
            n = self._look_size(state)
            if len(action.cards) != n:
                raise IllegalAction(
                    "a look shows the top five cards (or all that are left)",
                    f"{n} cards, not {len(action.cards)}",
                )
            self._check_drawable(state, action.cards, "a look shows the top of the deck")
            return self._settle(self._reveal(self._take_from_deck(state, action.cards), action))
        if self.current_player(state) == CHANCE:
            raise IllegalAction("chance acts now", f"phase {phase} waits for a draw or a look")
        wanted = PLAYER_PHASES.get(type(action))
        if wanted is None:
            raise IllegalAction("not an Onirim action", repr(action))
        if phase != wanted[0]:
            raise IllegalAction(wanted[1], f"phase is {phase}")
        if isinstance(action, Play | Discard | Pair):
            state = evolve(state, turns=state.turns + 1)
            if isinstance(action, Play):
                return self._settle(self._play(state, action.card))
            if isinstance(action, Discard):
                return self._settle(self._discard(state, action.card))
            return self._settle(self._pair(state, action))
        if isinstance(action, Prophecy):
            return self._settle(self._prophecy(state, action))
        if isinstance(action, OpenDoor):
            return self._settle(self._open_door(state, action.open))
        if isinstance(action, Nightmare):
            return self._settle(self._nightmare(state, action))
        if action.card not in effects.pick_options(self.deck, state):
            raise IllegalAction(
                effects.pick_rule(self.deck, state), f"{action.card} cannot be picked"
            )
        return self._settle(self._pick(state, action.card))

    def _settle(self, state: OnirimState) -> OnirimState:
        """The game is won the moment the Doors (and required Mirrors) are all in play."""
        if state.outcome is None and state.phase != "setup" and self.is_won(state):
            return evolve(state, phase="over", outcome="won")
        return state

    # -- drawing ------------------------------------------------------------------------
    def _refill(self, state: OnirimState) -> OnirimState:
        """Go on drawing towards a full hand; shuffle limbo back in once it is full."""
        if self.is_won(state):
            return state
        if len(state.hand) >= self.deck.hand_size:
            if state.limbo:
                state = self._shuffle_in(state, state.limbo)
            return evolve(state, phase="turn", limbo=())
        if state.deck_size() == 0:
            return evolve(state, phase="over", outcome="lost")
        phase = state.phase if state.phase in ("setup", "redraw") else "refill"
        return evolve(state, phase=phase)

    def _shuffle_in(self, state: OnirimState, cards: tuple[str, ...]) -> OnirimState:
        counts = state.deck
        for c in cards:
            counts = add(counts, self.deck.index[c], 1)
        return evolve(state, deck=counts, top=())

    def _draw(self, state: OnirimState, card: str) -> OnirimState:
        if state.phase in ("setup", "redraw"):
            if is_location(card):
                return self._refill(evolve(state, hand=with_sorted(state.hand, card)))
            return self._refill(evolve(state, limbo=(*state.limbo, card)))
        if is_location(card):
            return self._refill(evolve(state, hand=with_sorted(state.hand, card)))
        if card == NIGHTMARE:
            return evolve(state, phase="nightmare", pending=card)
        if f"{colour_of(card)}-key" in state.hand:
            return evolve(state, phase="door", pending=card)
        return self._refill(evolve(state, limbo=(*state.limbo, card)))

    def _open_door(self, state: OnirimState, open_it: bool) -> OnirimState:
        d = state.pending
        assert d is not None
        state = evolve(state, pending=None, phase="refill")
        if open_it:
            key = f"{colour_of(d)}-key"
            state = evolve(
                state,
                hand=without(state.hand, key),
                discard=(*state.discard, key),
                doors=(*state.doors, d),
            )
        else:
            state = evolve(state, limbo=(*state.limbo, d))
        return self._refill(state)

    def _nightmare(self, state: OnirimState, action: Nightmare) -> OnirimState:
        way, card = action.way, action.card
        done = evolve(state, pending=None, discard=(*state.discard, NIGHTMARE), phase="refill")
        if way == "key":
            if card is None or not is_location(card) or symbol_of(card) != "key":
                raise IllegalAction(
                    "a Nightmare is resolved by discarding a Key", f"{card} is not a Key"
                )
            if card not in state.hand:
                raise IllegalAction("a Nightmare's Key comes from the hand", f"no {card} in hand")
            return self._refill(
                evolve(
                    done, hand=without(state.hand, card), discard=(*state.discard, card, NIGHTMARE)
                )
            )
        if way == "door":
            if card is None or card not in state.doors:
                raise IllegalAction(
                    "a Nightmare may send a Door in play to limbo", f"no {card} is in play"
                )
            return self._refill(
                evolve(done, doors=without(state.doors, card), limbo=(*state.limbo, card))
            )
        if card is not None:
            raise IllegalAction(f"a Nightmare's {way} resolution names no card", str(card))
        if way == "reveal":
            if state.deck_size() == 0:
                return self._refill(done)
            return evolve(state, phase="nightmare-look")
        if way == "hand":
            done = evolve(
                done, hand=(), discard=(*state.discard, *state.hand, NIGHTMARE), phase="redraw"
            )
            return self._refill(done)
        raise IllegalAction("a Nightmare is resolved in one of four ways", way)

    def _reveal(self, state: OnirimState, action: Reveal) -> OnirimState:
        if state.phase == "prophecy-look":
            return evolve(state, phase="prophecy", shown=action.cards)
        locs = tuple(c for c in action.cards if is_location(c))
        rest = tuple(c for c in action.cards if not is_location(c))
        state = evolve(
            state,
            pending=None,
            discard=(*state.discard, *locs, NIGHTMARE),
            limbo=(*state.limbo, *rest),
            phase="refill",
        )
        return self._refill(state)

    # -- the turn -----------------------------------------------------------------------
    def _check_in_hand(self, state: OnirimState, cards: tuple[str, ...], rule: str) -> None:
        hand = list(state.hand)
        for c in cards:
            if c not in hand:
                raise IllegalAction(rule, f"no {c} in hand {list(state.hand)}")
            hand.remove(c)

    def _play(self, state: OnirimState, card: str) -> OnirimState:
        self._check_in_hand(state, (card,), "a card is played from the hand")
        if not is_location(card):
            raise IllegalAction("only Location cards go into the labyrinth", card)
        if state.labyrinth and symbol_of(state.labyrinth[-1]) == symbol_of(card):
            raise IllegalAction(
                "the symbol rule: never the same symbol as the labyrinth's last card",
                f"{card} after {state.labyrinth[-1]}",
            )
        same = state.labyrinth and colour_of(state.labyrinth[-1]) == colour_of(card)
        run = state.run + 1 if same and state.run > 0 else 1
        state = evolve(
            state,
            hand=without(state.hand, card),
            labyrinth=(*state.labyrinth, card),
            run=run,
            phase="refill",
        )
        if run == self.deck.series_length:
            state = evolve(state, run=0)
            d = door(colour_of(card))
            i = self.deck.index[d]
            if state.deck[i] > 0:
                # search the deck for the Door, then shuffle it: what was known of its top is lost
                state = evolve(state, deck=add(state.deck, i, -1), top=(), doors=(*state.doors, d))
        return self._refill(state)

    def _discard(self, state: OnirimState, card: str) -> OnirimState:
        self._check_in_hand(state, (card,), "a card is discarded from the hand")
        state = evolve(
            state, hand=without(state.hand, card), discard=(*state.discard, card), phase="refill"
        )
        if is_location(card) and symbol_of(card) == "key" and state.deck_size() > 0:
            return evolve(state, phase="prophecy-look")
        return self._refill(state)

    def _prophecy(self, state: OnirimState, action: Prophecy) -> OnirimState:
        shown = list(state.shown)
        if action.discard is None:
            if any(not is_door(c) for c in shown):
                raise IllegalAction(
                    "a prophecy discards one of the cards it shows", "name the card to discard"
                )
        else:
            if is_door(action.discard):
                raise IllegalAction("Door cards are never discarded", action.discard)
            if action.discard not in shown:
                raise IllegalAction(
                    "a prophecy discards one of the cards it shows",
                    f"{action.discard} is not among {shown}",
                )
            shown.remove(action.discard)
        if sorted(action.order) != sorted(shown):
            raise IllegalAction(
                "the other cards go back on top, all of them",
                f"put back {sorted(shown)}, not {sorted(action.order)}",
            )
        state = self._shuffle_in_on_top(state, action.order)
        discard = state.discard if action.discard is None else (*state.discard, action.discard)
        return self._refill(evolve(state, shown=(), discard=discard, phase="refill"))

    def _shuffle_in_on_top(self, state: OnirimState, cards: tuple[str, ...]) -> OnirimState:
        """Put `cards` back on top of the deck, the first on top, known to the player."""
        counts = state.deck
        for c in cards:
            counts = add(counts, self.deck.index[c], 1)
        return evolve(state, deck=counts, top=(*cards, *state.top))

    def _pair(self, state: OnirimState, action: Pair) -> OnirimState:
        if action.mirror not in state.in_game:
            raise IllegalAction(
                "cards go only under a Mirror in this game",
                f"{action.mirror} is not in play ({', '.join(state.in_game)})",
            )
        i = state.in_game.index(action.mirror)
        if state.explored[i]:
            raise IllegalAction("no card may be played under an explored Mirror", action.mirror)
        self._check_in_hand(state, action.cards, "a pair under a Mirror comes from the hand")
        a, b = action.cards
        if not (is_location(a) and is_location(b)):
            raise IllegalAction("only Location cards go under a Mirror", f"{a}, {b}")
        if not self._pair_fits(action.mirror, a, b, state.under[i]):
            want = self.deck.mirrors[action.mirror].matches
            rule = (
                "the Rainbow Mirror takes one card of each colour"
                if want == "each-colour"
                else f"both cards under the {action.mirror.title()} Mirror must be {want}"
            )
            raise IllegalAction(rule, f"{a}, {b}")
        under = (*state.under[i], a, b)
        state = evolve(
            state,
            hand=without(without(state.hand, a), b),
            under=(*state.under[:i], under, *state.under[i + 1 :]),
            phase="refill",
        )
        if len(under) >= self.deck.cards_to_explore:
            return self._refill_after(effects.start(self, state, action.mirror))
        return self._refill(state)

    def _pick(self, state: OnirimState, card: str) -> OnirimState:
        return self._refill_after(effects.pick(self, state, card))

    def _refill_after(self, state: OnirimState) -> OnirimState:
        return state if state.phase == "effect" else self._refill(state)

    def finish_exploring(self, state: OnirimState, mirror: str) -> OnirimState:
        """Flip the Mirror to its explored side, then discard the cards under it."""
        i = state.in_game.index(mirror)
        return evolve(
            state,
            explored=(*state.explored[:i], True, *state.explored[i + 1 :]),
            under=(*state.under[:i], (), *state.under[i + 1 :]),
            discard=(*state.discard, *state.under[i]),
            effect=None,
            picks=(),
            phase="refill",
        )

    # -- views and JSON -----------------------------------------------------------------
    def view(self, state: OnirimState, seat: int | None) -> dict[str, Any]:
        """What `seat` may see. The player (seat 0) sees the hand, what the deck holds by kind
        (counted from every card in sight), and the top cards a prophecy or a Mirror showed;
        the public table (seat None) sees none of these. No view holds the deck's order."""
        from companion.games.onirim.rules.views import view

        return view(self, state, seat)

    def state_to_json(self, state: OnirimState) -> dict[str, Any]:
        return state_to_json(state, self.deck)

    def state_from_json(self, data: dict[str, Any]) -> OnirimState:
        return state_from_json(data, self.deck)

    action_to_json = staticmethod(A.action_to_json)
    action_from_json = staticmethod(A.action_from_json)
