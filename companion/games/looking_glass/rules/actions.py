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
from dataclasses import dataclass
from typing import Any

Hands = tuple[tuple[str, ...], tuple[str, ...]]


@dataclass(frozen=True)
class Setup:
    layouts: tuple[str, ...]  # the shuffled layout stack, top card first
    first_player: int


@dataclass(frozen=True)
class Deal:
    glass: tuple[tuple[str, str | None], ...]  # (position, card id or None: unread), sorted
    hands: Hands | None = None  # None: dealt face down and not (yet) known
    removed: tuple[str, ...] | None = None
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
    hands: Hands

    @classmethod
    def of(cls, hands: Iterable[Iterable[str]]) -> Reveal:
        return cls(_hands(hands))


Action = Setup | Deal | Pick | Identify | Reveal


def _hands(hands: Iterable[Iterable[str]]) -> Hands:
    h = [tuple(sorted(x)) for x in hands]
    if len(h) != 2:
        raise ValueError(f"hands must be two lists of card ids, got {len(h)}")
    return (h[0], h[1])


def action_to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, Setup):
        return {
            "type": "setup",
            "layouts": list(action.layouts),
            "first_player": action.first_player,
        }
    if isinstance(action, Deal):
        return {
            "type": "deal",
            "glass": dict(action.glass),
            "hands": None if action.hands is None else [list(h) for h in action.hands],
            "removed": None if action.removed is None else list(action.removed),
            "brawler_draw": action.brawler_draw,
            "layout": action.layout,
        }
    if isinstance(action, Pick):
        return {"type": "pick", "seat": action.seat, "position": action.position}
    if isinstance(action, Identify):
        return {"type": "identify", "position": action.position, "card": action.card}
    if isinstance(action, Reveal):
        return {"type": "reveal", "hands": [list(h) for h in action.hands]}
    raise TypeError(f"not a Looking Glass action: {action!r}")


def _str_list(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{what} must be a list of strings")
    return value


def action_from_json(data: Any) -> Action:
    """Raises ValueError with a one-line reason for a malformed action."""
    if not isinstance(data, dict) or "type" not in data:
        raise ValueError("an action must be an object with a `type`")
    kind = data["type"]
    try:
        if kind == "setup":
            first = data["first_player"]
            if not isinstance(first, int) or isinstance(first, bool):
                raise ValueError("first_player must be 0 or 1")
            return Setup(tuple(_str_list(data["layouts"], "layouts")), first)
        if kind == "deal":
            glass = data["glass"]
            if not isinstance(glass, dict) or not all(
                isinstance(k, str) and (v is None or isinstance(v, str)) for k, v in glass.items()
            ):
                raise ValueError("glass must map position names to card ids (or null: unread)")
            hands = data.get("hands")
            if hands is not None:
                if not isinstance(hands, list):
                    raise ValueError("hands must be two lists of card ids or null")
                hands = [_str_list(h, "a hand") for h in hands]
            removed = data.get("removed")
            if removed is not None:
                removed = _str_list(removed, "removed")
            draw = data.get("brawler_draw")
            if draw is not None and not isinstance(draw, str):
                raise ValueError("brawler_draw must be a card id or null")
            layout = data.get("layout")
            if layout is not None and not isinstance(layout, str):
                raise ValueError("layout must be a layout id or null")
            return Deal.of(glass, hands, removed, draw, layout)
        if kind == "pick":
            seat, pos = data["seat"], data["position"]
            if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(pos, str):
                raise ValueError("a pick needs an integer seat and a position name")
            return Pick(seat, pos)
        if kind == "identify":
            pos, card = data["position"], data["card"]
            if not isinstance(pos, str) or not isinstance(card, str):
                raise ValueError("an identify names a position and a card id")
            return Identify(pos, card)
        if kind == "reveal":
            hands = data["hands"]
            if not isinstance(hands, list):
                raise ValueError("hands must be two lists of card ids")
            return Reveal.of(_str_list(h, "a hand") for h in hands)
    except KeyError as exc:
        raise ValueError(f"{kind} action is missing {exc.args[0]!r}") from None
    raise ValueError(f"unknown action type {kind!r} (setup, deal, pick, identify, reveal)")
