"""A card whose symbol the camera is unsure of (a Sun, a Moon or a Key of one colour, the hard
pair) is a question or is settled by the hand, never a breach: a wrong breach is worse than
a question."""

from __future__ import annotations

from typing import Any

from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.actions import Play
from companion.games.onirim.rules.state import OnirimState, evolve
from companion.games.onirim.table.live import ASK_AFTER_FRAMES, PUT_BACK, OnirimTable
from companion.games.onirim.table.track import explain, table_of
from companion.live.table_game import EventDraft, Observation
from companion.store import Event, Session
from tests.games.onirim_table.helpers import WINDOW

GREENS = ["green-key", "green-moon", "green-sun"]


def _turn(hand: list[str], labyrinth: tuple[str, ...]) -> OnirimState:
    start = ENGINE.new_game(1, {"mirrors": True})
    return evolve(start, hand=tuple(sorted(hand)), phase="turn", labyrinth=labyrinth)


def _follow(state: OnirimState, reading: dict[str, Any], frames: int) -> list[EventDraft]:
    """`frames` frames of one reading through the table game, every draft applied, after
    one of the game's own table (the camera sees the place empty before a card is laid)."""
    game = OnirimTable(None, Session("1", "onirim", {}, ["player"], 0.0))
    game.state = state
    drafts: list[EventDraft] = []
    before = table_of(state, WINDOW).to_json()
    for i in range(frames + 1):
        shown = before if i == 0 else reading
        out = game.update(Observation(shown | {"located": True}, 0.5), i)
        for n, d in enumerate(out, len(drafts) + 1):
            game.apply_event(Event("1", n, 0.0, d.kind, d.payload, d.visibility))
        drafts += out
    return drafts


def _green_in_doubt(state: OnirimState, maybe: bool = True) -> dict[str, Any]:
    """The game's table with a new labyrinth card whose colour the camera told (green), not
    its symbol."""
    table = table_of(state, WINDOW).to_json()
    k = len(table["labyrinth"])
    return table | {
        "labyrinth": [*table["labyrinth"], None],
        "maybe": [["labyrinth", k, GREENS]] if maybe else [],
    }


def _kinds(drafts: list[EventDraft]) -> list[str]:
    return [d.kind for d in drafts]


def test_a_symbol_in_doubt_the_hand_settles_is_booked() -> None:
    """One green card in the hand: the green card laid is that one."""
    state = _turn(["green-sun", "red-sun", "blue-key", "brown-moon", "red-key"], ("red-moon",))
    drafts = _follow(state, _green_in_doubt(state), ASK_AFTER_FRAMES + 8)
    booked = [d.payload["action"] for d in drafts if d.kind == "onirim.action"]
    assert booked == [{"type": "play", "card": "green-sun"}]
    assert "onirim.breach" not in _kinds(drafts) and "question" not in _kinds(drafts)
    # Without the camera's word on the colour, the same null card is asked, not guessed.
    drafts = _follow(state, _green_in_doubt(state, maybe=False), ASK_AFTER_FRAMES + 8)
    assert "onirim.action" not in _kinds(drafts) and "onirim.breach" not in _kinds(drafts)
    assert "question" in _kinds(drafts)


def test_a_symbol_in_doubt_is_settled_by_the_hand_while_the_pile_reads_bare() -> None:
    """The pile read with its top, then bare (the table keeps the top it last read): the
    colour the camera told for the new card still narrows it to the hand's one green card."""
    state = _turn(["green-sun", "red-sun", "blue-key", "brown-moon", "red-key"], ("red-moon",))
    state = evolve(state, discard=("blue-moon",))
    game = OnirimTable(None, Session("1", "onirim", {}, ["player"], 0.0))
    game.state = state
    before = table_of(state, WINDOW).to_json()
    bare = _green_in_doubt(state) | {"discard_top": None}
    drafts: list[EventDraft] = []
    for i in range(ASK_AFTER_FRAMES + 12):
        shown = before if i < 4 else bare
        out = game.update(Observation(shown | {"located": True}, 0.5), i)
        for n, d in enumerate(out, len(drafts) + 1):
            game.apply_event(Event("1", n, 0.0, d.kind, d.payload, d.visibility))
        drafts += out
    booked = [d.payload["action"] for d in drafts if d.kind == "onirim.action"]
    assert booked == [{"type": "play", "card": "green-sun"}]
    assert "question" not in _kinds(drafts)


def test_a_symbol_in_doubt_between_two_cards_of_the_hand_is_asked() -> None:
    """Two green cards in the hand: the player says which. Even when the symbol rule leaves
    one of them (a Moon after a Moon), it is asked: the player may have broken the rule."""
    rest = ["blue-key", "brown-moon", "red-key"]
    for hand, plays in (
        (["green-sun", "green-key", *rest], ["green-key", "green-sun"]),
        (["green-sun", "green-moon", *rest], ["green-sun"]),
    ):
        state = _turn(hand, ("red-moon",))
        drafts = _follow(state, _green_in_doubt(state), ASK_AFTER_FRAMES + 8)
        assert "onirim.breach" not in _kinds(drafts) and "onirim.action" not in _kinds(drafts)
        (asked,) = [d for d in drafts if d.kind == "question"]
        values = [c["value"] for c in asked.payload["choices"]]
        assert values[-1] == PUT_BACK
        assert sorted(v["card"] for v in values[:-1]) == plays


def test_a_symbol_in_doubt_the_hand_cannot_hold_is_asked_never_a_breach() -> None:
    """No green card in the hand: the colour the camera told may be what is wrong, so the
    player is asked which play it was, offered every play that lays a card there; nothing
    is booked or flagged."""
    hand = ["blue-sun", "red-sun", "blue-key", "brown-moon", "red-key"]
    state = _turn(hand, ("red-moon",))
    drafts = _follow(state, _green_in_doubt(state), 3 * ASK_AFTER_FRAMES)
    assert "onirim.breach" not in _kinds(drafts) and "onirim.action" not in _kinds(drafts)
    (asked,) = [d for d in drafts if d.kind == "question"]
    values = [c["value"] for c in asked.payload["choices"]]
    assert values[-1] == PUT_BACK
    assert sorted(v["card"] for v in values[:-1]) == sorted(c for c in hand if "moon" not in c)


def test_a_symbol_misnamed_with_a_steady_misreading_elsewhere_is_asked() -> None:
    """The camera has read the row's first card as another since before (the game agreed
    with the rest), and now names the new card with the wrong symbol (a Moon the hand does
    not hold, the Sun of that colour played): what changed is one card away from a play, so
    the player is asked; it is no breach."""
    state = _turn(["green-sun", "red-sun", "blue-key", "brown-moon", "red-key"], ("blue-sun",))
    state = evolve(state, labyrinth=("blue-sun", "red-moon"))
    seen = table_of(state, WINDOW)
    base = type(seen)(("blue-key", "red-moon"), seen.doors, seen.mirrors, seen.discard_top)
    played = type(seen)(
        ("blue-key", "red-moon", "green-moon"), seen.doors, seen.mirrors, seen.discard_top
    )
    found = explain(ENGINE, state, played, WINDOW, base)
    assert found.breach is None and found.misread
    assert Play("green-sun") in found.choices
