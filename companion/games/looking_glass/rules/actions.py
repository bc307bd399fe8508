"""The actions of a Looking Glass match, and their JSON form.

Chance actions carry everything they decide, so an action log is a full replay:
`Setup` (the shuffled layout stack and the first player of round one), `Deal` (every card of
a round: Looking Glass positions -> card ids, both hands, the removed pile, and the card drawn
for the Brawlers' tournament rule) and `Reveal` (the hands, when a table deal was recorded
without them, e.g. by a camera that cannot see face-down cards). Players only `Pick`.

A deal recorded by a camera may leave a card of the Looking Glass unread (None: a glare lay
over it); `Identify` names it later, as `Reveal` names the hands, so the engine follows the
round from its first pick while the players are asked what the card was.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from companion.games.action_json import ActionCodec, sorted_tuple, spelt

Hands = tuple[tuple[str, ...], tuple[str, ...]]


def _hands(hands: Iterable[Iterable[str]]) -> Hands:
    h = [tuple(sorted(x)) for x in hands]
    if len(h) != 2:
        raise ValueError(f"hands must be two lists of card ids, got {len(h)}")
    return (h[0], h[1])


@dataclass(frozen=True)
class Setup:
    layouts: tuple[str, ...]  # the shuffled layout stack, top card first
    first_player: int


@dataclass(frozen=True)
class Deal:
    # (position, card id or None: unread), sorted; in JSON one object by position
    glass: tuple[tuple[str, str | None], ...] = field(metadata=spelt(as_object=True))
    # None: dealt face down and not (yet) known
    hands: Hands | None = field(default=None, metadata=spelt(canonical=_hands))
    removed: tuple[str, ...] | None = field(default=None, metadata=spelt(canonical=sorted_tuple))
    brawler_draw: str | None = None  # the card drawn to decide on the Brawlers, if used
    layout: str | None = None  # the layout card turned up; None: the top of the stack

    @classmethod
    def of(
        cls,
        glass: Mapping[str, str | None],
        hands: Iterable[Iterable[str]] | None = None,
        removed: Iterable[str] | None = None,
        brawler_draw: str | None = None,
        layout: str | None = None,
    ) -> Deal:
        """A deal in canonical form (positions sorted, hands and removed pile sorted)."""
        return cls(
            glass=tuple(sorted(glass.items())),
            hands=None if hands is None else _hands(hands),
            removed=None if removed is None else tuple(sorted(removed)),
            brawler_draw=brawler_draw,
            layout=layout,
        )

    def glass_map(self) -> dict[str, str | None]:
        return dict(self.glass)


@dataclass(frozen=True)
class Pick:
    seat: int
    position: str  # e.g. "A-r3-c5"; the other seat receives its reflection


@dataclass(frozen=True)
class Identify:
    """The card at a position a recorded deal left unread, named (by the players)."""

    position: str
    card: str


@dataclass(frozen=True)
class Reveal:
    hands: Hands = field(metadata=spelt(canonical=_hands))

    @classmethod
    def of(cls, hands: Iterable[Iterable[str]]) -> Reveal:
        return cls(_hands(hands))


Action = Setup | Deal | Pick | Identify | Reveal


CODEC: ActionCodec[Action] = ActionCodec(
    "Looking Glass",
    {"setup": Setup, "deal": Deal, "pick": Pick, "identify": Identify, "reveal": Reveal},
)

action_to_json = CODEC.to_json
action_from_json = CODEC.from_json
"""Raises ValueError with a one-line reason for a malformed action."""
