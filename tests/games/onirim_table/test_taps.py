"""The player's taps beside the camera: a tap that says what the game booked already is not
refused, and what the camera sees while the game waits for taps is not taken as agreed."""

from __future__ import annotations

from typing import Any

from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.actions import Pair, action_to_json
from companion.games.onirim.rules.state import OnirimState, evolve
from companion.games.onirim.table.live import ASK_AFTER_FRAMES, PLAYER, OnirimTable
from companion.games.onirim.table.track import table_of
from companion.live.table_game import Observation
from companion.store import Event, Session
from tests.games.onirim_table.helpers import WINDOW, seen


class Table:
    """A live table fed readings and taps, every draft committed and applied."""

    def __init__(self, state: OnirimState) -> None:
        self.game = OnirimTable(None, Session("1", "onirim", {}, ["player"], 0.0))
        self.game.state = state
        self.events: list[Event] = []
        self.frame = 0

    def commit(self, drafts: list[Any]) -> list[Any]:
        for d in drafts:
            self.events.append(
                Event("1", len(self.events) + 1, 0.0, d.kind, d.payload, d.visibility)
            )
            self.game.apply_event(self.events[-1])
        return drafts

    def show(self, reading: Observation, frames: int) -> list[Any]:
        out = []
        for _ in range(frames):
            out += self.commit(self.game.update(reading, self.frame / 4))
            self.frame += 1
        return out

    def tap(self, payload: dict[str, Any]) -> list[Any]:
        return self.commit(self.game.correct(payload, PLAYER))

    def booked(self) -> list[dict[str, Any]]:
        return [e.payload for e in self.events if e.kind == "onirim.action"]


def _moons_left(hand: tuple[str, ...]) -> OnirimState:
    """The player's turn with two Moons under the Moon Mirror: any pair of Moons from the
    hand explores it."""
    start = ENGINE.new_game(1, {"mirrors": True})
    under = tuple(
        ("blue-moon", "red-moon") if m == "moon" else u
        for m, u in zip(start.in_game, start.under, strict=True)
    )
    return evolve(start, hand=hand, phase="turn", under=under)


def test_a_pair_tapped_in_after_its_question_was_answered_is_not_refused() -> None:
    """A pair whose fourth card explores the Moon Mirror: the camera sees the Mirror
    flipped, and two pairs would leave it so (the discard pile's top is a red Moon either
    way), so it asks; the player answers, and then taps the pair in as well (the phone's
    "paired"). The tap says what the game has booked: it is taken, nothing is booked twice,
    and the draw tapped after it goes in (a refused tap would hold it up)."""
    state = _moons_left(("brown-moon", "green-moon", "red-key", "red-moon", "red-sun"))
    pair = Pair("moon", ("brown-moon", "red-moon"))
    table = Table(state)
    table.show(seen(state), 4)
    asked = [d.payload for d in table.show(seen(ENGINE.apply(state, pair)), ASK_AFTER_FRAMES + 2)]
    (question,) = [q for q in asked if q.get("id", "").startswith("turn.")]
    values = [c["value"] for c in question["choices"]]
    assert action_to_json(pair) in values
    assert action_to_json(Pair("moon", ("green-moon", "red-moon"))) in values
    table.tap({"question": question["id"], "answer": action_to_json(pair)})
    assert table.tap({"kind": "paired", "mirror": "moon", "cards": list(pair.cards)}) == []
    table.tap({"kind": "drew", "cards": ["blue-sun"]})
    assert [b["action"] for b in table.booked()] == [
        action_to_json(pair),
        {"type": "draw", "card": "blue-sun"},
    ]


def test_a_card_read_where_the_camera_never_saw_the_place_empty_is_asked_not_booked() -> None:
    """The bare table can read as a card at the row's first empty place, from the first
    frame on (a patch of cloth like a card's corner). A play read there, the place never
    read empty since the last Location, is asked, not booked; the same play read after the
    place was read empty is booked."""
    state = evolve(
        ENGINE.new_game(1, {"mirrors": True}),
        hand=("blue-moon", "brown-sun", "green-key", "green-moon", "red-sun"),
        phase="turn",
    )
    phantom = seen(evolve(state, labyrinth=("green-moon",)))
    table = Table(state)
    drafts = table.show(phantom, 8)
    (asked,) = [d.payload for d in drafts if d.kind == "question"]
    assert [c["value"] for c in asked["choices"]] == [
        {"type": "play", "card": "green-moon"},
        "back",
    ]
    assert not table.booked()
    table = Table(state)
    table.show(seen(state), 2)
    table.show(phantom, 4)
    assert table.booked() == [{"action": {"type": "play", "card": "green-moon"}, "by": "camera"}]


def test_a_colour_read_where_the_camera_never_saw_the_place_empty_is_asked_not_booked() -> None:
    """The same with the place read as a green card of an unsure symbol, the hand holding
    one green card (which would settle the symbol): asked, not booked."""
    state = evolve(
        ENGINE.new_game(1, {"mirrors": True}),
        hand=("blue-moon", "brown-sun", "green-moon", "red-key", "red-sun"),
        phase="turn",
    )
    greens = ["green-sun", "green-moon", "green-key"]
    bare = table_of(state, WINDOW).to_json() | {"located": True}
    green = bare | {"labyrinth": [None], "maybe": [["labyrinth", 0, greens]]}
    table = Table(state)
    drafts = table.show(Observation(green, 0.9), 8)
    assert not table.booked()
    (asked,) = [d.payload for d in drafts if d.kind == "question"]
    assert {"type": "play", "card": "green-moon"} in [c["value"] for c in asked["choices"]]
    table = Table(state)
    table.show(seen(state), 2)
    table.show(Observation(green, 0.9), 4)
    assert table.booked() == [{"action": {"type": "play", "card": "green-moon"}, "by": "camera"}]
