"""The state of a Mirror Mansion game: phases, options, the frozen state and its JSON form.

Kept apart from the rules so that the engine module holds only what the rules say.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.mirror_mansion.rules.actions import Swap, action_from_json, action_to_json
from companion.games.mirror_mansion.rules.board import Board
from companion.games.mirror_mansion.rules.optics import BoardState
from companion.games.mirror_mansion.rules.state_json import (
    board_state_from_json,
    board_state_to_json,
)

SETUP, WINDOW, ROLL, NAME, DOOR, SWAPS, GUESS, LOOK, AWARD, OVER = (
    "setup",
    "window",
    "roll",
    "name",
    "door",
    "swaps",
    "guess",
    "look",
    "award",
    "over",
)

_OPTION_KEYS = {
    "door",
    "two_sided",
    "masters",
    "target",
    "max_turns",
    "no_peeking",
    "door_twice",
    "pay_whole_turn",
}
_FLAGS = ("door", "two_sided", "masters", "door_twice", "pay_whole_turn")


@dataclass(frozen=True)
class Options:
    door: bool = False
    two_sided: bool = False
    masters: bool = False
    target: int | None = None  # None: the rulebook's number for the player count
    max_turns: int | None = None  # an agreed limit (and a cap for random playouts)
    no_peeking: frozenset[int] = frozenset()  # seats whose view hides the prediction
    # House rules, looser than the rulebook's words, for families who prefer them:
    door_twice: bool = False  # the door may be moved twice in a turn (still 3 swaps in all)
    pay_whole_turn: bool = False  # every award of the turn is paid before the end is checked

    def to_json(self) -> dict[str, Any]:
        return {
            "door": self.door,
            "two_sided": self.two_sided,
            "masters": self.masters,
            "target": self.target,
            "max_turns": self.max_turns,
            "no_peeking": sorted(self.no_peeking),
            "door_twice": self.door_twice,
            "pay_whole_turn": self.pay_whole_turn,
        }


def parse_options(raw: dict[str, Any] | None, players: int, board: Board) -> Options:
    raw = dict(raw or {})
    unknown = set(raw) - _OPTION_KEYS
    if unknown:
        raise ValueError(f"unknown option(s) {sorted(unknown)} (known: {sorted(_OPTION_KEYS)})")
    for key in _FLAGS:
        if not isinstance(raw.get(key, False), bool):
            raise ValueError(f"option {key!r} must be true or false")
    target = raw.get("target")
    if target == "agreed":
        target = board.agreed_drop_target
    if target is not None and (
        not isinstance(target, int) or isinstance(target, bool) or target < 1
    ):
        raise ValueError("option 'target' must be a positive number of drops or \"agreed\"")
    max_turns = raw.get("max_turns")
    if max_turns is not None and (
        not isinstance(max_turns, int) or isinstance(max_turns, bool) or max_turns < 1
    ):
        raise ValueError("option 'max_turns' must be a positive integer")
    seats = raw.get("no_peeking", [])
    if not isinstance(seats, list | tuple | set | frozenset) or not all(
        isinstance(s, int) and 0 <= s < players for s in seats
    ):
        raise ValueError(f"option 'no_peeking' must list seats 0..{players - 1}")
    return Options(
        door=raw.get("door", False),
        two_sided=raw.get("two_sided", False),
        masters=raw.get("masters", False),
        target=target,
        max_turns=max_turns,
        no_peeking=frozenset(seats),
        door_twice=raw.get("door_twice", False),
        pay_whole_turn=raw.get("pay_whole_turn", False),
    )


@dataclass(frozen=True)
class LookResult:
    """What the eye saw through the window, computed from the light path."""

    seen: str | None  # card position, or None when stopped
    motif: str | None
    blocked_by: str | None
    found: bool  # the sought motif was seen
    pulled: str | None


@dataclass(frozen=True)
class MirrorMansionState:
    players: int
    options: Options
    target: int
    phase: str = SETUP
    board: BoardState | None = None  # None until the set-up
    victor: int = 0  # movement field index
    turn: int = 0  # turns started so far, minus one; the active seat is turn % players
    sought: str | None = None
    swaps: tuple[Swap, ...] = ()
    door_swaps: int = 0
    guesses: tuple[bool | None, ...] = ()
    look: LookResult | None = None
    drops: tuple[int, ...] = ()
    box_quarter_turns: int = 0
    box_turned: bool = False  # already turned in the current window or look phase
    last_turn: dict[str, Any] | None = None  # what the previous turn brought, public
    confirmed: frozenset[str] = frozenset()  # positions whose card the table has confirmed

    @property
    def active(self) -> int:
        return self.turn % self.players

    @property
    def neighbour(self) -> int:
        """The left-hand neighbour: play is clockwise, so the next seat."""
        return (self.active + 1) % self.players

    @property
    def first_round(self) -> bool:
        return self.turn < self.players

    @property
    def mirror_swaps(self) -> int:
        return len(self.swaps) - self.door_swaps


def state_to_json(state: MirrorMansionState) -> dict[str, Any]:
    """The whole truth, guesses included: for the server's store, never for a seat."""
    return {
        "players": state.players,
        "options": state.options.to_json(),
        "target": state.target,
        "phase": state.phase,
        "board": None if state.board is None else board_state_to_json(state.board),
        "victor": state.victor,
        "turn": state.turn,
        "sought": state.sought,
        "swaps": [action_to_json(s) for s in state.swaps],
        "door_swaps": state.door_swaps,
        "guesses": list(state.guesses),
        "look": look_json(state.look),
        "drops": list(state.drops),
        "box_quarter_turns": state.box_quarter_turns,
        "box_turned": state.box_turned,
        "last_turn": state.last_turn,
        "confirmed": sorted(state.confirmed),
    }


def state_from_json(data: dict[str, Any], model: Board) -> MirrorMansionState:
    try:
        players = int(data["players"])
        opts = parse_options(data["options"], players, model)
        raw_board = data["board"]
        look = data["look"]
        actions = [action_from_json(s) for s in data["swaps"]]
        swaps = tuple(s for s in actions if isinstance(s, Swap))
        if len(swaps) != len(actions):
            raise ValueError("'swaps' holds only swaps")
        return MirrorMansionState(
            players=players,
            options=opts,
            target=int(data["target"]),
            phase=str(data["phase"]),
            board=None if raw_board is None else board_state_from_json(raw_board, model),
            victor=int(data["victor"]),
            turn=int(data["turn"]),
            sought=data["sought"],
            swaps=swaps,
            door_swaps=int(data["door_swaps"]),
            guesses=tuple(data["guesses"]),
            look=None if look is None else LookResult(**look),
            drops=tuple(int(d) for d in data["drops"]),
            box_quarter_turns=int(data["box_quarter_turns"]),
            box_turned=bool(data["box_turned"]),
            last_turn=data["last_turn"],
            confirmed=frozenset(str(p) for p in data.get("confirmed", [])),
        )
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a Mirror Mansion state: {exc!r}") from None


def look_json(look: LookResult | None) -> dict[str, Any] | None:
    if look is None:
        return None
    return {
        "seen": look.seen,
        "motif": look.motif,
        "blocked_by": look.blocked_by,
        "found": look.found,
        "pulled": look.pulled,
    }
