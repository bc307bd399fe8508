"""The conformance checks, on the example game: they pass it, and they catch broken games."""

from __future__ import annotations

import re

import pytest

from companion.live.conformance import Correct, Observe, check_table_game
from companion.live.table_game import EventDraft, Observation
from companion.store import Session
from tests.live.example_game import ExampleTableGame, make_table_game

SESSION = Session("s1", "example", {}, ["Ann", "Bob"], 0.0)
SEEN = Observation({"markers": [0, 1, 2, 3]}, 0.9)
HIDDEN = Observation({"markers": []}, 0.1)


def steps() -> list:
    return [
        *[Observe(SEEN)] * 3,
        *[Observe(HIDDEN)] * 5,
        Correct({"question": "table-hidden", "answer": "no"}, None),
        Correct({"memo": "the unicorn is mine"}, 1),
        Correct({"note": "all set"}, 0),
    ]


def test_the_example_game_conforms():
    events = check_table_game(make_table_game, None, SESSION, steps())
    assert [e.kind for e in events] == [
        "session.started",
        "table.markers",
        "question",
        "answer",
        "memo",
        "note",
    ]


class ForgetfulGame(ExampleTableGame):
    """Changes its state in `correct` instead of `apply_event`: a restart loses it."""

    def correct(self, payload, seat):
        if "note" in payload:
            self.notes.append({"seat": seat, "text": payload["note"]})
            return []
        return super().correct(payload, seat)


class LeakyGame(ExampleTableGame):
    """Shows every seat's memos to everyone."""

    def view(self, seat):
        view = super().view(seat)
        view["memos"] = [m for memos in self.memos.values() for m in memos]
        return view


class NotADraftGame(ExampleTableGame):
    def correct(self, payload, seat):
        return [("note", payload)]


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (ForgetfulGame, "replaying the events gives another state"),
        (LeakyGame, "hidden information leaks: 'the unicorn is mine' (private to seat 1)"),
        (NotADraftGame, "not an EventDraft"),
    ],
)
def test_broken_games_are_caught(game, message):
    with pytest.raises(AssertionError, match=re.escape(message)):
        check_table_game(lambda s, session: game(session), None, SESSION, steps())


def test_drafts_default_to_public():
    assert EventDraft("x").visibility == "public"
    assert EventDraft.private(2, "x", {}).visibility == "seat:2"
