"""The frozen state of a Queen Alice game: the shared boards, each player's, the turn.

Per-colour values are pairs in `COLOURS` order (red, white). Decks are multisets (sorted
ids): their order is not stored anywhere, so it cannot leak; a draw is a chance action.
`pending` is the queue of rewards still to resolve for the player to move; its head may
need a choice (`rewards.CHOICES`), which is what `legal_actions` then offers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from companion.games.queen_alice.rules.board import COLOURS, Piece

Pair = tuple[int, int]
Jailed = tuple[str, str]
"""A piece in a Jail: (colour, kind)."""


R = TypeVar("R")


def evolve(record: R, **changes: Any) -> R:
    """`dataclasses.replace` for these plain frozen records, without re-running `__init__`
    (a random game makes tens of thousands of them; `replace` was a third of its time)."""
    new = object.__new__(type(record))
    new.__dict__.update(record.__dict__)
    new.__dict__.update(changes)
    return new


def ci(colour: str) -> int:
    """The index of a colour in per-colour pairs."""
    return COLOURS.index(colour)


def set_pair(pair: tuple[Any, ...], colour: str, value: Any) -> tuple[Any, ...]:
    i = ci(colour)
    return (*pair[:i], value, *pair[i + 1 :])


def set_at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


@dataclass(frozen=True)
class Task:
    """One reward to resolve: `kind` (see rewards.py), its colour, count and argument."""

    kind: str
    colour: str = ""
    arg: str = ""


@dataclass(frozen=True)
class Turn:
    """What the card played this turn set up."""

    colour: str = ""  # the activated piece's colour; "" when no piece could be activated
    column: str = ""  # the landing square's action (hearts..diamonds or wild)
    action: str = ""  # the action performed (the wild column's choice)
    performed: bool = False
    repeated: bool = False
    wishes: tuple[int, ...] = ()  # Wish spaces Alice reached: all players score them at Rest
    discount: int = 0  # the card's discount: resources off the action (not the Repeat)
    discount_action: str = ""  # the action it is for; "" any
    loose: str = ""  # the row's resource, let go with the storage full: the action may use it


@dataclass(frozen=True)
class Player:
    ip: int = 0
    time: int = 0
    cake: int = 0
    tea: int = 0
    toast: int = 0
    cubes: int = 0  # coloured cubes (storage)
    black: int = 0  # unlocked Black cubes (storage, or returned to pay a resource)
    black_stock: int = 0  # Black cubes still locked
    hand: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    culled: tuple[str, ...] = ()
    jail: tuple[Jailed, ...] = ()
    hearts: Pair = (0, 0)  # Heart tokens taken off the Courtier board (lowest first)
    bushes: Pair = (0, 0)  # Rose bushes planted in the Garden
    diamonds: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # Diamond tokens taken
    bricks: Pair = (0, 0)  # Diamonds placed on the Wall
    messengers: Pair = (0, 0)
    messenger_steps: int = 0
    twins: Pair = (0, 0)
    cats: Pair = (0, 0)
    crowns: Pair = (0, 0)
    books: tuple[int, ...] = ()  # per Book colour
    bookmarks: tuple[str, ...] = ()
    used: tuple[str, ...] = ()  # permanent Bookmarks used this turn
    flowers: tuple[str, ...] = ()
    train_hand: tuple[str, ...] = ()  # the Train cards dealt, until one is chosen (private)
    train: tuple[str, ...] = ()  # the Train card chosen and its side (secret until all chose)

    def stored(self) -> int:
        return self.cake + self.tea + self.toast

    def free_cubes(self) -> int:
        """Cubes on the Silver Platter: room for a resource gained."""
        return self.cubes + self.black - self.stored()

    def cards(self) -> int:
        """Non-culled cards (the culling limit)."""
        return len(self.hand) + len(self.deck) + len(self.discard)


@dataclass(frozen=True)
class State:
    players: int
    readings: tuple[tuple[str, str], ...] = ()  # the rulebook readings this game uses
    phase: str = (
        "setup"  # setup, train, train_rewards, discard, play, act, repeat, trim, rest, over
    )
    seat: int = 0
    turns: int = 0
    tile: str | None = None
    pieces: tuple[Piece, ...] = ()
    wishes: tuple[str, ...] = ()  # the Wish on each Wish space (Components.wish_spaces order)
    crowns_left: int = 0
    crowned: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # path spaces under a Crown
    alice: Pair = (0, 0)
    throne: str | None = None
    ending: bool = False  # the last Crown is gone: the round is finished, then the game
    gardeners: Pair = (-1, -1)  # zone, or -1 at rest
    garden: tuple[tuple[tuple[bool, ...], ...], ...] = ()  # per colour, zone, space: planted
    seals: tuple[tuple[int, int], ...] = ()  # (colour index, space) seals crossed once
    tree_books: tuple[tuple[bool, ...], ...] = ()  # per colour: a physical Book on the space
    bookmarks: tuple[int, ...] = ()  # copies left of each Bookmark
    wall: tuple[tuple[tuple[bool, ...], ...], ...] = ()  # per colour, row, column: built
    eggs: Pair = (0, 0)  # the Egg half's row, per colour
    train_deck: tuple[str, ...] = ()  # the Train cards not dealt, a multiset
    flowers_left: tuple[int, ...] = ()  # the Live Flowers' supply, per flowers.toml colour
    market: tuple[tuple[str | None, ...], ...] = ()  # per level: the 3 blocks
    market_decks: tuple[tuple[str, ...], ...] = ()  # per level, a multiset
    pending: tuple[Task, ...] = ()
    turn: Turn = Turn()
    people: tuple[Player, ...] = ()

    @property
    def me(self) -> Player:
        return self.people[self.seat]

    def with_player(self, seat: int, player: Player) -> State:
        return evolve(self, people=set_at(self.people, seat, player))

    def with_me(self, **changes: Any) -> State:
        return self.with_player(self.seat, evolve(self.me, **changes))
