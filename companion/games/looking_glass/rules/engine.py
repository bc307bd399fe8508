"""The rules engine of Reflections in the Looking Glass, with the Brawlers mini expansion.

A match: `Setup` (chance: shuffled layout stack, random first player of round one), then
rounds until a player has won `target` rounds (3). Each round starts with a `Deal` (chance),
then 14 `Pick`s alternating from the round's starting player (who alternates each round).
A pick takes a completely uncovered card from either half; the other player receives its
reflection. When the Looking Glass is empty, hands join the piles, the larger absolute score
wins the round (a tie goes to the starting player) and the winner takes the layout card.

Options: `brawlers` (bool, default False) and `target` (round wins for the match, 1-3).

Played at a table, the engine follows what a camera records: a deal whose cards are partly
unread (`Identify` names them later) and whose hands are revealed at the end (`Reveal`);
`table_pick` books a pick the table made even when it broke the cover rule (the breach is
returned, for the players to see), and `with_glass` takes the Looking Glass as it lies on the
table as the truth ("the table is right").
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, cast

from companion.games.base import CHANCE, IllegalAction
from companion.games.looking_glass.rules import actions as A
from companion.games.looking_glass.rules.actions import (
    Action,
    Deal,
    Hands,
    Identify,
    Pick,
    Reveal,
    Setup,
)
from companion.games.looking_glass.rules.deal import (
    REMOVED,
    check_deal,
    check_hands,
    sample_deal,
)
from companion.games.looking_glass.rules.deck import BRAWLERS, Deck, load_deck
from companion.games.looking_glass.rules.layout import Layout, load_layouts
from companion.games.looking_glass.rules.scoring import HAND_SIZE, RoundScore, score, score_round

RULE_COVERED = "only completely uncovered cards may be taken"


@dataclass(frozen=True)
class Round:
    layout: str
    starter: int
    brawler_draw: str | None
    brawlers: bool  # the Lion and the Unicorn are in this round's deck
    cards: tuple[tuple[str | None, ...], tuple[str | None, ...]]  # half -> cell -> card id
    """As dealt; None: a card the recorded deal left unread, until `Identify` names it."""
    hands: Hands | None
    removed: tuple[str, ...] | None
    taken: int = 0  # bitmask of cells taken (a cell is taken in both halves at once)
    piles: tuple[tuple[str | None, ...], tuple[str | None, ...]] = ((), ())
    """In the order received; None: an unread card, until it is named."""
    a_to: int = 0
    """Bitmask of taken cells whose half-A card went to seat 1 (who holds which card)."""


@dataclass(frozen=True)
class RoundResult:
    layout: str
    starter: int
    totals: tuple[int, int]
    winner: int


@dataclass(frozen=True)
class LookingGlassState:
    brawlers: bool
    target: int
    stack: tuple[str, ...] = ()  # layout cards still face down, top first
    first_player: int | None = None  # of round one; None before the set-up
    round: Round | None = None
    results: tuple[RoundResult, ...] = ()


class LookingGlassEngine:
    game_id = "looking-glass"

    def __init__(self, deck: Deck | None = None, layouts: dict[str, Layout] | None = None):
        """A deck or layouts given stand in for the models', which are read on first use
        (the engine is created at import)."""
        if deck is not None:
            self.deck = deck
        if layouts is not None:
            self.layouts = layouts

    @cached_property
    def deck(self) -> Deck:
        return load_deck()

    @cached_property
    def layouts(self) -> dict[str, Layout]:
        return load_layouts()

    def layout(self, layout_id: str) -> Layout:
        return self.layouts[layout_id]

    # -- protocol -----------------------------------------------------------------------
    def new_game(
        self, players: int = 2, options: dict[str, Any] | None = None
    ) -> LookingGlassState:
        if players != 2:
            raise ValueError(f"Reflections in the Looking Glass is for 2 players, not {players}")
        opts = dict(options or {})
        unknown = set(opts) - {"brawlers", "target"}
        if unknown:
            raise ValueError(f"unknown option(s) {', '.join(sorted(unknown))} (brawlers, target)")
        brawlers = opts.get("brawlers", False)
        target = opts.get("target", 3)
        if not isinstance(brawlers, bool):
            raise ValueError("option brawlers must be true or false")
        most = (len(self.layouts) + 1) // 2
        if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= most:
            raise ValueError(f"option target must be a whole number of round wins, 1 to {most}")
        return LookingGlassState(brawlers=brawlers, target=target)

    def phase(self, state: LookingGlassState) -> str:
        """setup, deal, pick, reveal, or over (the match is decided)."""
        if state.first_player is None:
            return "setup"
        if self.is_terminal(state):
            return "over"
        r = state.round
        if r is None:
            return "deal"
        if r.taken != self.layout(r.layout).full_mask:
            return "pick"
        return "reveal" if r.hands is None else "deal"

    def current_player(self, state: LookingGlassState) -> int | None:
        phase = self.phase(state)
        if phase == "over":
            return None
        if phase == "pick":
            r = cast(Round, state.round)  # the pick phase has a round
            return r.starter if r.taken.bit_count() % 2 == 0 else 1 - r.starter
        return CHANCE

    def round_wins(self, state: LookingGlassState) -> list[int]:
        wins = [0, 0]
        for res in state.results:
            wins[res.winner] += 1
        return wins

    def is_terminal(self, state: LookingGlassState) -> bool:
        return max(self.round_wins(state)) >= state.target

    def scores(self, state: LookingGlassState) -> list[float]:
        """Rounds won per seat (the layout cards taken)."""
        return [float(w) for w in self.round_wins(state)]

    def legal_actions(self, state: LookingGlassState) -> list[Pick]:
        if self.phase(state) != "pick":
            return []
        r = cast(Round, state.round)  # the pick phase has a round
        lay = self.layout(r.layout)
        seat = cast(int, self.current_player(state))  # and a seat to pick
        free = lay.free_cells(r.taken)
        return [Pick(seat, lay.name_of(h, c)) for h in (0, 1) for c in free]

    def next_starter(self, state: LookingGlassState) -> int:
        first = cast(int, state.first_player)  # asked after the set-up only
        return first if len(state.results) % 2 == 0 else 1 - first

    def sample_chance(self, state: LookingGlassState, rng: random.Random) -> Action:
        phase = self.phase(state)
        if phase == "setup":
            stack = sorted(self.layouts)
            rng.shuffle(stack)
            return Setup(tuple(stack), rng.randrange(2))
        if phase == "deal":
            return self._sample_deal(state, rng)
        if phase == "reveal":
            r = cast(Round, state.round)  # the reveal phase has a round
            unseen = self._unseen_after_glass(r)
            pool = [c for c in unseen.elements() if c not in BRAWLERS]
            rng.shuffle(pool)
            return Reveal.of([pool[:HAND_SIZE], pool[HAND_SIZE : 2 * HAND_SIZE]])
        raise ValueError(f"no chance action in phase {phase}")

    def _sample_deal(self, state: LookingGlassState, rng: random.Random) -> Deal:
        lay = self.layout(state.stack[0])
        return sample_deal(self.deck, lay, state.brawlers, self.next_starter(state), rng)

    def apply(self, state: LookingGlassState, action: Action) -> LookingGlassState:
        phase = self.phase(state)
        if isinstance(action, Pick):
            return self._apply_pick(state, phase, action)
        if isinstance(action, Deal):
            if phase != "deal":
                raise IllegalAction("a deal only starts a round", f"the match is in phase {phase}")
            return self._apply_deal(state, action)
        if isinstance(action, Identify):
            return self._apply_identify(state, action)
        if isinstance(action, Setup):
            if phase != "setup":
                raise IllegalAction("the set-up happens once", f"the match is in phase {phase}")
            if sorted(action.layouts) != sorted(self.layouts):
                raise IllegalAction(
                    "the layout stack holds every layout card once",
                    f"got {list(action.layouts)}, have {sorted(self.layouts)}",
                )
            if action.first_player not in (0, 1):
                raise IllegalAction("the first player is seat 0 or 1", str(action.first_player))
            return replace(state, stack=action.layouts, first_player=action.first_player)
        if isinstance(action, Reveal):
            if phase != "reveal":
                raise IllegalAction(
                    "hands are revealed only after a deal without them, once the Looking "
                    "Glass is empty",
                    f"the match is in phase {phase}",
                )
            r = cast(Round, state.round)  # the reveal phase has a round
            unread = [lay_name for lay_name, c in self._glass_of(r).items() if c is None]
            if unread:
                raise IllegalAction(
                    "every card of the Looking Glass is named before the round is scored",
                    f"{unread[0]} is unread",
                )
            check_hands(action.hands, self._unseen_after_glass(r))
            return self._finish_round(state, replace(r, hands=action.hands))
        raise IllegalAction("not a Looking Glass action", repr(action))

    # -- rules --------------------------------------------------------------------------
    def table_pick(
        self, state: LookingGlassState, action: Pick
    ) -> tuple[LookingGlassState, IllegalAction | None]:
        """A pick seen made at the table: as `apply`, except that a covered card taken
        anyway is booked (the cards are in the piles now) and the breach is returned with
        the new state. Any other illegal pick (not the seat's turn, a card taken before)
        raises, as it cannot be followed."""
        try:
            return self.apply(state, action), None
        except IllegalAction as exc:
            if exc.rule != RULE_COVERED:
                raise
            return self._apply_pick(state, self.phase(state), action, covered_ok=True), exc

    def _apply_pick(
        self, state: LookingGlassState, phase: str, action: Pick, covered_ok: bool = False
    ) -> LookingGlassState:
        if phase != "pick":
            raise IllegalAction("cards are picked only during a round", f"phase is {phase}")
        seat = cast(int, self.current_player(state))  # the pick phase has a seat to pick
        if action.seat != seat:
            raise IllegalAction("players alternate turns", f"it is seat {seat}'s turn")
        r = cast(Round, state.round)  # and a round
        lay = self.layout(r.layout)
        half, cell = _locate(lay, action.position, "a pick names a position of the layout")
        if (r.taken >> cell) & 1:
            raise IllegalAction("a card can be taken once", f"{action.position} is already taken")
        if lay.cover_masks[cell] & ~r.taken and not covered_ok:
            over = [lay.name_of(half, j) for j in lay.covered_by[cell] if not (r.taken >> j) & 1]
            raise IllegalAction(RULE_COVERED, f"{action.position} lies under {', '.join(over)}")
        piles = list(r.piles)
        piles[seat] = (*piles[seat], r.cards[half][cell])
        piles[1 - seat] = (*piles[1 - seat], r.cards[1 - half][cell])
        a_to = r.a_to | ((1 << cell) if (seat if half == 0 else 1 - seat) == 1 else 0)
        r = replace(r, taken=r.taken | (1 << cell), piles=(piles[0], piles[1]), a_to=a_to)
        if r.taken == lay.full_mask and r.hands is not None:
            return self._finish_round(state, r)
        return replace(state, round=r)

    def _apply_identify(self, state: LookingGlassState, action: Identify) -> LookingGlassState:
        r = state.round
        if r is None or (r.hands is not None and r.taken == self.layout(r.layout).full_mask):
            raise IllegalAction("an unread card is named during its round", "no round is open")
        lay = self.layout(r.layout)
        half, cell = _locate(lay, action.position, "a card is named at a position of the layout")
        if r.cards[half][cell] is not None:
            raise IllegalAction(
                "only an unread card is named", f"{action.position} holds {r.cards[half][cell]}"
            )
        if action.card not in self.deck.ids:
            raise IllegalAction("cards come from the deck", f"unknown card id {action.card!r}")
        in_play = r.brawlers or (
            state.brawlers and r.brawler_draw is None and action.card in BRAWLERS
        )
        known = Counter(c for h in r.cards for c in h if c is not None)
        if known[action.card] >= self.deck.copies(in_play)[action.card]:
            raise IllegalAction(
                "a deal uses the deck's cards once each",
                f"the Looking Glass holds every {action.card} already",
            )
        cards = [list(h) for h in r.cards]
        cards[half][cell] = action.card
        piles = [list(p) for p in r.piles]
        if (r.taken >> cell) & 1:
            holder = ((r.a_to >> cell) & 1) ^ half
            piles[holder][piles[holder].index(None)] = action.card
        r = replace(
            r,
            cards=(tuple(cards[0]), tuple(cards[1])),
            brawlers=in_play,
            piles=(tuple(piles[0]), tuple(piles[1])),
        )
        return replace(state, round=r)

    def with_glass(
        self, state: LookingGlassState, glass: dict[str, str | None]
    ) -> LookingGlassState:
        """The Looking Glass as it lies on the table, taken as the truth: not a move (it never
        appears in legal_actions) but the table's correction when the engine has drifted from
        it. `glass` maps the positions the camera sees a card at to the card read there (None:
        not read). Each card seen takes the table's identity; a card the engine counted taken
        that lies on the table again returns from its pile (the turn follows, as it always
        follows the cards taken). Cards not seen are left as they are: whether they were taken,
        and by whom, is a pick to be seen or asked about, not a correction. Hands and the
        round's results are untouched."""
        r = state.round
        if r is None or self.phase(state) != "pick":
            raise IllegalAction("the table is corrected during a round", "no round is being played")
        lay = self.layout(r.layout)
        cards = [list(h) for h in r.cards]
        piles = [list(p) for p in r.piles]
        taken, a_to = r.taken, r.a_to
        cells: dict[int, list[int]] = {}
        for name in glass:
            try:
                half, cell = lay.locate(name)
            except ValueError as exc:
                raise IllegalAction("the glass lies in its layout", str(exc)) from None
            cells.setdefault(cell, []).append(half)
        for cell, halves in sorted(cells.items()):
            if (taken >> cell) & 1 and len(halves) != 2:
                name = lay.name_of(halves[0], cell)
                raise IllegalAction(
                    "a card and its reflection are taken together",
                    f"{name} lies on the table without its reflection",
                )
            if (taken >> cell) & 1:
                for half in (0, 1):
                    holder = ((a_to >> cell) & 1) ^ half
                    piles[holder].remove(cards[half][cell])
                taken &= ~(1 << cell)
                a_to &= ~(1 << cell)
            for half in halves:
                seen = glass[lay.name_of(half, cell)]
                if seen is not None:
                    cards[half][cell] = seen
        known = Counter(c for h in cards for c in h if c is not None)
        over = known - self.deck.copies(True)
        if over:
            raise IllegalAction(
                "a deal uses the deck's cards once each", f"too many {', '.join(sorted(over))}"
            )
        in_play = r.brawlers or any(c in BRAWLERS for c in known)
        r = replace(
            r,
            cards=(tuple(cards[0]), tuple(cards[1])),
            piles=(tuple(piles[0]), tuple(piles[1])),
            taken=taken,
            a_to=a_to,
            brawlers=in_play,
        )
        return replace(state, round=r)

    def running_totals(self, state: LookingGlassState) -> list[int]:
        """Each seat's score from its pile so far (the hands join at the round's end)."""
        r = state.round
        if r is None:
            return [0, 0]
        return [
            score(Counter(c for c in pile if c is not None), self.deck).total for pile in r.piles
        ]

    def _glass_of(self, r: Round) -> dict[str, str | None]:
        lay = self.layout(r.layout)
        return {lay.name_of(h, c): r.cards[h][c] for h in (0, 1) for c in range(len(lay.cells))}

    def _finish_round(self, state: LookingGlassState, r: Round) -> LookingGlassState:
        result = self.round_score(r)
        totals = (result.scores[0].total, result.scores[1].total)
        res = RoundResult(r.layout, r.starter, totals, result.winner)
        return replace(state, round=r, results=(*state.results, res))

    def round_score(self, r: Round) -> RoundScore:
        """The round scored with hands joined to piles (hands must be known)."""
        hands = cast(Hands, r.hands)
        held = [Counter(r.piles[s]) + Counter(hands[s]) for s in (0, 1)]
        # Every card is named before a round is scored (`apply`'s Reveal checks it).
        return score_round(cast("list[Counter[str]]", held), r.starter, self.deck)

    def round_totals(self, r: Round) -> tuple[int, int]:
        a, b = self.round_score(r).scores
        return (a.total, b.total)

    def _unseen_after_glass(self, r: Round) -> Counter[str]:
        """Cards of the round's deck not in the Looking Glass (hands + removed pile)."""
        left = self.deck.copies(r.brawlers)
        left.subtract(c for half in r.cards for c in half if c is not None)
        return +left

    def _apply_deal(self, state: LookingGlassState, deal: Deal) -> LookingGlassState:
        """A deal names its layout card (a camera reads it off the table) or takes the top
        of the stack; either way the card must still be in the stack."""
        layout_id = deal.layout or state.stack[0]
        if layout_id not in state.stack:
            raise IllegalAction(
                "each layout card is played once per match",
                f"{layout_id!r} is not in the stack {sorted(state.stack)}",
            )
        lay = self.layout(layout_id)
        in_play, cards = check_deal(self.deck, lay, state.brawlers, deal)
        r = Round(
            layout=lay.id,
            starter=self.next_starter(state),
            brawler_draw=deal.brawler_draw,
            brawlers=in_play,
            cards=cards,
            hands=deal.hands,
            removed=deal.removed,
        )
        stack = tuple(x for x in state.stack if x != layout_id)
        return replace(state, stack=stack, round=r)

    # -- views and JSON -----------------------------------------------------------------
    def view(self, state: LookingGlassState, seat: int | None) -> dict[str, Any]:
        """What `seat` may see: never the other hand during a round, never the removed pile,
        never the order of the face-down layout stack. Hands are public once a round is over
        (they join the score piles)."""
        phase = self.phase(state)
        out: dict[str, Any] = {
            "game": self.game_id,
            "seat": seat,
            "options": {"brawlers": state.brawlers, "target": state.target},
            "phase": phase,
            "to_move": self.current_player(state) if phase == "pick" else None,
            "first_player": state.first_player,
            "layouts_left": len(state.stack),
            "round_wins": self.round_wins(state),
            "results": [_result_json(x) for x in state.results],
            "round": None,
        }
        r = state.round
        if r is not None:
            lay = self.layout(r.layout)
            done = r.taken == lay.full_mask and r.hands is not None
            rv: dict[str, Any] = {
                "number": len(state.results) + (0 if done else 1),
                "layout": r.layout,
                "starter": r.starter,
                "brawler_draw": r.brawler_draw,
                "brawlers_in_play": r.brawlers,
                "glass": {
                    lay.name_of(h, c): r.cards[h][c]
                    for h in (0, 1)
                    for c in range(len(lay.cells))
                    if not (r.taken >> c) & 1
                },
                "free": [p.position for p in self.legal_actions(state)],
                "piles": [list(p) for p in r.piles],
                "removed_count": REMOVED[r.brawlers],
                "hand": None,
                "hands": None,
            }
            if done:
                rv["hands"] = [list(h) for h in cast(Hands, r.hands)]  # `done`: known
            elif seat is not None and r.hands is not None:
                rv["hand"] = list(r.hands[seat])
            out["round"] = rv
        return out

    def state_to_json(self, state: LookingGlassState) -> dict[str, Any]:
        r = state.round
        return {
            "brawlers": state.brawlers,
            "target": state.target,
            "stack": list(state.stack),
            "first_player": state.first_player,
            "results": [_result_json(x) for x in state.results],
            "round": None
            if r is None
            else {
                "layout": r.layout,
                "starter": r.starter,
                "brawler_draw": r.brawler_draw,
                "brawlers": r.brawlers,
                "cards": [list(h) for h in r.cards],
                "hands": None if r.hands is None else [list(h) for h in r.hands],
                "removed": None if r.removed is None else list(r.removed),
                "taken": r.taken,
                "piles": [list(p) for p in r.piles],
                "a_to": r.a_to,
            },
        }

    def state_from_json(self, data: dict[str, Any]) -> LookingGlassState:
        try:
            rd = data["round"]
            r = None
            if rd is not None:
                cards, piles = rd["cards"], rd["piles"]
                r = Round(
                    layout=rd["layout"],
                    starter=rd["starter"],
                    brawler_draw=rd["brawler_draw"],
                    brawlers=rd["brawlers"],
                    cards=(tuple(cards[0]), tuple(cards[1])),
                    hands=None if rd["hands"] is None else A._hands(rd["hands"]),
                    removed=None if rd["removed"] is None else tuple(rd["removed"]),
                    taken=int(rd["taken"]),
                    piles=(tuple(piles[0]), tuple(piles[1])),
                    a_to=int(rd.get("a_to", 0)),
                )
            return LookingGlassState(
                brawlers=bool(data["brawlers"]),
                target=int(data["target"]),
                stack=tuple(data["stack"]),
                first_player=data["first_player"],
                round=r,
                results=tuple(
                    RoundResult(x["layout"], x["starter"], tuple(x["totals"]), x["winner"])
                    for x in data["results"]
                ),
            )
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"malformed Looking Glass state ({exc!r})") from None

    action_to_json = staticmethod(A.action_to_json)
    action_from_json = staticmethod(A.action_from_json)


def _locate(lay: Layout, position: str, rule: str) -> tuple[int, int]:
    """A position's (half, cell) in the layout; a name it does not have breaks `rule`."""
    try:
        return lay.locate(position)
    except ValueError as exc:
        raise IllegalAction(rule, str(exc)) from None


def _result_json(x: RoundResult) -> dict[str, Any]:
    return {"layout": x.layout, "starter": x.starter, "totals": list(x.totals), "winner": x.winner}


ENGINE = LookingGlassEngine()
