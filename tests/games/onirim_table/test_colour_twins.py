"""A card the camera names unsure of its colour (the reader's colour lead under
`COLOUR_DOUBT`) while the hand holds another colour of its symbol is asked, not booked: the
reader names a card's colour wrong at times, and the engine cannot tell the two plays apart
(the same symbol meets the symbol rule alike). Named sure of its colour, it is booked. The
answer stands: the name misread, still read there, is no further play or discard."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.actions import Discard, Pair, Play
from companion.games.onirim.rules.state import OnirimState, evolve
from companion.games.onirim.table.live import (
    ACTION_KIND,
    COLOUR_DOUBT,
    PLAYER,
    PUT_BACK,
    OnirimTable,
)
from companion.games.onirim.table.track import COLOUR_LEADS, Table, colour_twins, table_of
from companion.live.table_game import EventDraft, Observation
from companion.store import Event, Session
from tests.games.onirim_table.helpers import WINDOW

HAND = ["red-sun", "blue-sun", "green-key", "brown-moon", "red-key"]
UNSURE = COLOUR_DOUBT / 2
"""A colour lead the table is unsure of."""


def _turn(hand: list[str], **changes: object) -> OnirimState:
    start = ENGINE.new_game(1, {"mirrors": True})
    return evolve(start, hand=tuple(sorted(hand)), phase="turn", **changes)


class _Live:
    """A live table fed readings one a frame, every draft applied as the loop does."""

    def __init__(self, state: OnirimState) -> None:
        self.game = OnirimTable(None, Session("1", "onirim", {}, ["player"], 0.0))
        self.game.state = state
        self.seq = 0
        self.frame = 0

    def apply(self, drafts: list[EventDraft]) -> list[EventDraft]:
        for d in drafts:
            self.seq += 1
            self.game.apply_event(Event("1", self.seq, 0.0, d.kind, d.payload, d.visibility))
        return drafts

    def feed(
        self, table: Table, frames: int, leads: list[list[object]] | None = None
    ) -> list[EventDraft]:
        """`frames` readings of `table`, with the reader's colour leads `leads`."""
        out: list[EventDraft] = []
        for _ in range(frames):
            data = table.to_json() | {"located": True, COLOUR_LEADS: leads or []}
            seen = Observation(data, 1.0)
            out += self.apply(self.game.update(seen, self.frame))
            self.frame += 1
        return out

    def answer(self, drafts: list[EventDraft], answer: Any) -> list[EventDraft]:
        (asked,) = [d.payload for d in drafts if d.kind == "question"]
        return self.apply(self.game.correct({"question": asked["id"], "answer": answer}, PLAYER))

    def tap(self, payload: dict[str, Any]) -> list[EventDraft]:
        return self.apply(self.game.correct(payload, PLAYER))


def _booked(drafts: list[EventDraft]) -> list[Any]:
    return [d.payload["action"] for d in drafts if d.kind == ACTION_KIND]


def _choices(drafts: list[EventDraft]) -> list[Any]:
    (asked,) = [d.payload for d in drafts if d.kind == "question"]
    return [c["value"] for c in asked["choices"]]


def test_the_twins_are_the_legal_plays_of_another_colour_of_the_symbol_held() -> None:
    state = _turn(HAND)
    assert colour_twins(ENGINE, state, Play("blue-sun")) == (Play("red-sun"),)
    assert colour_twins(ENGINE, state, Discard("red-key")) == (Discard("green-key"),)
    assert colour_twins(ENGINE, state, Discard("brown-moon")) == ()  # no other Moon held
    keys = _turn(["red-key", "blue-key", "green-key", "brown-moon", "red-sun"])
    assert colour_twins(ENGINE, keys, Discard("red-key")) == (
        Discard("blue-key"),
        Discard("green-key"),
    )
    # A Sun after a Sun is no play: nor is its twin.
    after_sun = _turn(HAND, labyrinth=("green-sun",))
    assert colour_twins(ENGINE, after_sun, Play("blue-sun")) == ()
    assert colour_twins(ENGINE, evolve(state, phase="refill"), Play("blue-sun")) == ()


def test_a_play_named_unsure_while_the_hand_holds_its_twin_is_asked_and_the_answer_stands() -> None:
    """The camera reads the blue Sun laid, unsure of its colour; the hand holds the red Sun
    too. Asked, not booked; the player says the red Sun. The row still read with the blue Sun
    is no play; the next play (the only Moon in the hand) is booked from the camera."""
    state = _turn(HAND)
    live = _Live(state)
    empty = table_of(state, WINDOW)
    assert _booked(live.feed(empty, 4)) == []
    misnamed = Table(("blue-sun",), empty.doors, empty.mirrors, empty.discard_top)
    drafts = live.feed(misnamed, 6, [["labyrinth", 0, UNSURE]])
    assert _booked(drafts) == [] and "onirim.breach" not in [d.kind for d in drafts]
    values = _choices(drafts)
    assert values[:2] == [{"type": "play", "card": "blue-sun"}, {"type": "play", "card": "red-sun"}]
    assert values[-1] == PUT_BACK
    assert _booked(live.answer(drafts, {"type": "play", "card": "red-sun"})) == [
        {"type": "play", "card": "red-sun"}
    ]
    assert _booked(live.feed(misnamed, 6)) == []
    live.tap({"kind": "drew", "cards": ["blue-key"]})
    assert live.game.state.phase == "turn"
    drafts = live.feed(replace(misnamed, labyrinth=("blue-sun", "brown-moon")), 6)
    assert _booked(drafts) == [{"type": "play", "card": "brown-moon"}]
    assert live.game.state.labyrinth == ("red-sun", "brown-moon")


def test_a_discard_named_unsure_while_the_hand_holds_its_twin_is_asked_and_the_answer_stands() -> (
    None
):
    """The camera names the blue Sun on the pile, unsure of its colour; the hand holds the red
    Sun too. Asked; the player says the red Sun. The pile still read with the blue Sun is no
    discard of the blue Sun the hand still holds, and the player's tap of the discard the
    answer booked (a discard onto its own kind, as the player sees it) records nothing and is
    not refused."""
    state = _turn(HAND, discard=("brown-moon",))
    live = _Live(state)
    table = table_of(state, WINDOW)
    assert _booked(live.feed(table, 4)) == []
    misnamed = Table(table.labyrinth, table.doors, table.mirrors, "blue-sun")
    drafts = live.feed(misnamed, 6, [["discard", 0, UNSURE]])
    assert _booked(drafts) == []
    assert _choices(drafts)[:2] == [
        {"type": "discard", "card": "blue-sun"},
        {"type": "discard", "card": "red-sun"},
    ]
    live.answer(drafts, {"type": "discard", "card": "red-sun"})
    assert live.tap({"kind": "discarded", "card": "red-sun"}) == []
    live.tap({"kind": "drew", "cards": ["green-moon"]})
    assert live.game.state.phase == "turn" and "blue-sun" in live.game.state.hand
    assert _booked(live.feed(misnamed, 6)) == []
    assert live.game.state.discard == ("brown-moon", "red-sun")


def test_a_card_named_with_no_twin_in_the_hand_is_booked() -> None:
    """The only Moon of the hand named on the row: booked from the camera, nothing asked."""
    state = _turn(HAND)
    live = _Live(state)
    empty = table_of(state, WINDOW)
    live.feed(empty, 4)
    drafts = live.feed(Table(("brown-moon",), empty.doors, empty.mirrors, empty.discard_top), 4)
    assert _booked(drafts) == [{"type": "play", "card": "brown-moon"}]
    assert "question" not in [d.kind for d in drafts]


def test_a_card_named_sure_of_its_colour_is_booked_though_the_hand_holds_its_twin() -> None:
    """The blue Sun read with a colour lead at `COLOUR_DOUBT`, or with no other colour near
    (no lead given), in every frame: booked from the camera, nothing asked. One frame of the
    steady table unsure is enough to ask."""
    for leads in ([["labyrinth", 0, COLOUR_DOUBT]], None):
        live = _Live(_turn(HAND))
        empty = table_of(live.game.state, WINDOW)
        live.feed(empty, 4)
        drafts = live.feed(Table(("blue-sun",), empty.doors, empty.mirrors, None), 4, leads)
        assert _booked(drafts) == [{"type": "play", "card": "blue-sun"}], leads
        assert "question" not in [d.kind for d in drafts]
    live = _Live(_turn(HAND))
    empty = table_of(live.game.state, WINDOW)
    live.feed(empty, 4)
    laid = Table(("blue-sun",), empty.doors, empty.mirrors, None)
    drafts = live.feed(laid, 1, [["labyrinth", 0, UNSURE]]) + live.feed(laid, 4)
    assert _booked(drafts) == [] and "question" in [d.kind for d in drafts]


SUNS = ["red-sun", "blue-sun", "green-sun", "brown-moon", "red-key"]


def test_a_pairs_twins_change_only_the_card_in_doubt_and_keep_to_the_rules() -> None:
    """Under the Sun Mirror the blue and green Suns: the blue one in doubt is the red Sun
    held; the green one read sure stays (a pair of two green Suns the hand cannot lay is no
    twin either). Under the Blue Mirror a red Sun does not go: no twin."""
    state = _turn(SUNS)
    pair = Pair("sun", ("blue-sun", "green-sun"))
    assert colour_twins(ENGINE, state, pair, {"blue-sun"}) == (
        Pair("sun", ("green-sun", "red-sun")),
    )
    assert colour_twins(ENGINE, state, pair, {"green-sun"}) == (
        Pair("sun", ("blue-sun", "red-sun")),
    )
    assert colour_twins(ENGINE, state, pair, set()) == ()
    blue = _turn(["blue-sun", "blue-moon", "red-sun", "green-key", "brown-moon"])
    assert colour_twins(ENGINE, blue, Pair("blue", ("blue-moon", "blue-sun"))) == ()


def test_a_pair_named_unsure_while_the_hand_holds_a_twin_is_asked_and_sure_is_booked() -> None:
    """The camera reads the blue and green Suns laid under the Sun Mirror, unsure of the blue
    one's colour; the hand holds the red Sun too. Asked, both pairs offered; the player says
    the red and green Suns, and that is booked. Read sure of both colours, the pair is booked
    from the camera."""
    state = _turn(SUNS)
    for leads, sure in (([["under-sun", 0, UNSURE], ["under-sun", 1, 1.0]], False), (None, True)):
        live = _Live(state)
        table = table_of(state, WINDOW)
        live.feed(table, 4)
        fans = tuple(
            replace(m, under=("blue-sun", "green-sun")) if m.mirror == "sun" else m
            for m in table.mirrors
        )
        drafts = live.feed(replace(table, mirrors=fans), 6, leads)
        laid = {"type": "pair", "mirror": "sun", "cards": ["blue-sun", "green-sun"]}
        if sure:
            assert _booked(drafts) == [laid] and "question" not in [d.kind for d in drafts]
            continue
        assert _booked(drafts) == []
        other = {"type": "pair", "mirror": "sun", "cards": ["green-sun", "red-sun"]}
        assert _choices(drafts)[:2] == [laid, other]
        assert _booked(live.answer(drafts, other)) == [other]
        assert live.game.state.hand == ("blue-sun", "brown-moon", "red-key")
