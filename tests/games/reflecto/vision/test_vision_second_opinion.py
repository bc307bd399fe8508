"""The learnt second opinion (`second_opinion.py`): it names a square the reader asks about,
asks about a square the reader calls empty silently, and never changes a screen the reader
names."""

from __future__ import annotations

from dataclasses import replace

import pytest

import companion.games.reflecto.vision.read as read
import companion.games.reflecto.vision.second_opinion as opinion
from companion.games.reflecto.vision.board_print import learn_print
from companion.games.reflecto.vision.geometry import load_geometry
from companion.games.reflecto.vision.render import render_photo
from companion.sim.conditions import Conditions
from tests.games.reflecto.vision.voting import sure

GEOM = load_geometry()


def _read(seed: tuple[int, int], which: str = "house") -> tuple:
    conditions = Conditions(hands=0) if which == "house" else Conditions()
    photo = render_photo(GEOM, seed, conditions, setup=True, board=True)
    assert photo.setup is not None and photo.board is not None
    setup = read.rectify(photo.setup, GEOM)
    rect = read.rectify(photo.image, GEOM)
    assert setup is not None and rect is not None
    colours = read.learn_at_setup(setup, GEOM)
    taught = learn_print(photo.board, GEOM)
    assert taught is not None
    return photo, rect, colours, taught


def test_the_rule_names_asked_squares_asks_silent_ones_and_leaves_screens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, rect, colours, taught = _read((4, 1))
    monkeypatch.setattr(opinion, "NAMING", True)
    monkeypatch.setattr(opinion, "SECOND_OPINION", False)
    monkeypatch.setattr(opinion, "worth_a_look", lambda *_: True)  # every silent square
    calls = read.classify(rect, GEOM, colours, taught)
    ev = read.evidence(rect, GEOM, colours, (read.FLOOR, read.FAINT_FLOOR))
    shares = read.shares_at(rect, GEOM, colours, ev)
    changes = read.print_changes(rect, GEOM, ev, taught)
    named = next(j for j, c in enumerate(calls) if c.owner is not None)
    silent = [j for j, c in enumerate(calls) if c.why == "no colour"]
    asked = silent.pop()
    calls[asked] = replace(calls[asked], unclear=True, confidence=0.0, why="maybe the print")
    args = (rect, GEOM, colours, ev, (shares[0], shares[1]), taught, changes)

    # The model sure of the oriented seat's screen everywhere.
    out = read.second_opinion(*args, calls, sure((0.0, 1.0, 0.0)))
    assert out[named] == calls[named]  # a named screen is never overruled
    assert out[asked].owner in (0, 1) and not out[asked].unclear
    assert out[asked].why == "second opinion"
    for j in silent:  # a silent empty call becomes a question, never a screen
        assert out[j].owner is None and out[j].unclear and out[j].why == "second opinion: ask"
    # ... sure of the other seat's: the asked square is named the other seat's.
    other = read.second_opinion(*args, calls, sure((0.0, 0.0, 1.0)))
    assert other[asked].owner == 1 - out[asked].owner
    # Sure of nothing, or short of the bars: the reader's calls stand.
    assert read.second_opinion(*args, calls, sure((1.0, 0.0, 0.0))) == calls
    below = opinion.NAME_BAR - 0.01, opinion.ASK_BAR - 0.01
    assert read.second_opinion(*args, calls, sure((1.0 - min(below), min(below), 0.0))) == calls
    # Naming as landed (off, `NAMING`): the asked square stays a question.
    monkeypatch.setattr(opinion, "NAMING", False)
    off = read.second_opinion(*args, calls, sure((0.0, 1.0, 0.0)))
    assert off[asked] == calls[asked] and off[named] == calls[named]
    assert all(off[j].unclear and off[j].owner is None for j in silent)


def test_stage_one_passes_on_only_bright_strips_with_a_trace_of_colour() -> None:
    look = opinion.worth_a_look
    bright, trace = opinion.ASK_BRIGHT, opinion.ASK_TRACE
    assert look((0.0, 0.0), (trace, 0.0), bright)
    assert look((0.0, trace), (0.0, 0.0), bright + 0.3)
    assert not look((0.0, 0.0), (trace, 0.0), bright - 0.01)  # too dark
    assert not look((0.0, 0.0), (trace / 2, trace / 2), 1.0)  # no colour at all
    assert not look((0.0, 0.0), (0.0, 0.0), 1.0)


def test_a_silent_square_stage_one_stops_is_never_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A model sure of a screen everywhere asks about the silent squares stage one passes
    on (`worth_a_look`) and only those: the others' costly features are never taken."""
    _, rect, colours, taught = _read((4, 1))
    monkeypatch.setattr(opinion, "SECOND_OPINION", False)
    calls = read.classify(rect, GEOM, colours, taught)
    ev = read.evidence(rect, GEOM, colours, (read.FLOOR, read.FAINT_FLOOR))
    shares = read.shares_at(rect, GEOM, colours, ev)
    changes = read.print_changes(rect, GEOM, ev, taught)
    silent = [j for j, c in enumerate(calls) if c.why in read.SILENT and not c.unclear]
    assert len(silent) >= 2
    passed = set(silent[::2])  # stage one's say, chosen here: these strips bright
    bright = {GEOM.cells[j] for j in passed}
    monkeypatch.setattr(read, "strip_brightness", lambda r, g, cell: float(cell in bright))
    monkeypatch.setattr(opinion, "worth_a_look", lambda s, t, b: b >= 0.5)
    seen: list[int] = []
    original = read.square_features

    def record(*args: object) -> tuple:
        seen.extend(args[6])  # type: ignore[call-overload]
        return original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(read, "square_features", record)
    args = (rect, GEOM, colours, ev, (shares[0], shares[1]), taught, changes)
    out = read.second_opinion(*args, calls, sure((0.0, 1.0, 0.0)))
    assert set(seen) <= passed
    for j in silent:
        assert out[j].unclear == (j in passed)


def test_the_rule_needs_the_empty_boards_print(monkeypatch: pytest.MonkeyPatch) -> None:
    """From the picture alone the reader's calls are its own."""
    _, rect, colours, _ = _read((4, 1))
    monkeypatch.setattr(opinion, "SECOND_OPINION", True)
    monkeypatch.setattr(opinion, "square_model", lambda: sure((0.0, 1.0, 0.0)))
    monkeypatch.setattr(read, "square_model", lambda: sure((0.0, 1.0, 0.0)))
    alone = read.classify(rect, GEOM, colours)
    assert all(c.why not in ("second opinion", "second opinion: ask") for c in alone)


VALIDATION_BOARD = (6061784386, 12)
"""A board of the house validation draw docs/reflecto.md names (development: the curve the
bars were read off), not used to train the model."""


def test_the_trained_model_names_a_square_the_reader_asks_and_keeps_its_screens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert opinion.square_model() is not None, "models/reflecto/square_model.json is missing"
    # The model's own word: refl33's rule would ask first about the silent squares it asks.
    monkeypatch.setattr(read, "NO_COLOUR_ASK", False)
    photo, _, colours, taught = _read(VALIDATION_BOARD)
    truth = dict(photo.truth.layout_key())
    monkeypatch.setattr(opinion, "SECOND_OPINION", False)
    alone, _ = read.read_board(photo.image, GEOM, colours, board_print=taught)
    monkeypatch.setattr(opinion, "SECOND_OPINION", True)
    asking, _ = read.read_board(photo.image, GEOM, colours, board_print=taught)
    monkeypatch.setattr(opinion, "NAMING", True)  # the tool's rule, measured and taken out
    helped, _ = read.read_board(photo.image, GEOM, colours, board_print=taught)
    # A screen the hand reader asks about ("changed beside too"), named right by the model.
    cell = (4, 0)
    assert cell in alone.unclear and alone.at(cell) is None
    seen = helped.at(cell)
    assert seen is not None and seen.owner == truth[cell] and cell not in helped.unclear
    assert dict(helped.decided_by)[cell] == "second opinion"
    # Every screen the hand reader names stands as it named it.
    for s in alone.screens:
        assert helped.at(s.cell) == s
    # No square the model turned into a screen is wrong, and it asks where the reader missed.
    assert all(truth.get(s.cell) == s.owner for s in helped.screens if s not in alone.screens)
    asked = [c for c, why in helped.decided_by if why == "second opinion: ask"]
    assert asked and all(c in helped.unclear and helped.at(c) is None for c in asked)
    # Asking only (naming off): the reader's screens exactly, the asked square still
    # asked, the silent miss asked too.
    assert asking.layout_key() == alone.layout_key()
    assert cell in asking.unclear and set(asked) <= set(asking.unclear)
