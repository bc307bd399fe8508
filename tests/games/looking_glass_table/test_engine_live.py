"""Live play drives the rules engine: its turns, legality, piles and scores are the ones shown,
a glass it cannot deal is not followed (and the players are told why), and the admin's "the
table is right" takes the glass the camera sees as the engine's."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.config import Settings
from companion.errors import UserError
from companion.games.looking_glass.rules.engine import ENGINE
from companion.games.looking_glass.rules.layout import load_layouts
from companion.games.looking_glass.table.live import make_table_game
from companion.live.conformance import Correct, Observe, check_table_game, play
from companion.live.table_game import TABLE_RIGHT_KIND, Observation
from companion.store import Event, Session
from tests.games.looking_glass_table.helpers import random_glass, synthetic_reading, unlink

SESSION = Session("s1", "looking-glass", {}, ["Ann", "Bo"], 0.0)
LAY = load_layouts()["pyramid"]


def _seen(glass: dict[str, str], n: int = 7) -> list[Observe]:
    return [Observe(Observation(synthetic_reading(glass), 0.9))] * n


def _without(glass: dict[str, str], *gone: str) -> dict[str, str]:
    return {n: c for n, c in glass.items() if n not in gone}


def test_the_view_is_the_engines_turn_legal_picks_piles_and_running_score() -> None:
    glass = random_glass(21)
    pos = "A-r3-c5"
    steps = [
        *_seen(glass),
        *_seen(_without(glass, pos)),
        *_seen(_without(glass, pos, LAY.reflection(pos))),
    ]
    game, _ = play(make_table_game, Settings(), SESSION, steps)
    view = game.view(None)
    engine = ENGINE.view(game.state, None)
    assert view["legal"] == sorted(engine["round"]["free"]) and pos not in view["legal"]
    assert view["to_move"] == engine["to_move"] == 1
    assert game.state.round.piles == ((glass[pos],), (glass[LAY.reflection(pos)],))
    assert view["running_scores"] == ENGINE.running_totals(game.state)
    mine = {c["card"]: c["count"] for row in view["piles"][0].values() for c in row}
    assert mine[glass[pos]] == 1
    hint = game.correct({"kind": "hint"}, 1)[0].payload
    assert "error" not in hint  # the engine follows the round, so the helper can play it


def test_pairs_gone_together_are_booked_outer_first_so_none_is_called_covered() -> None:
    """Three pairs left in one unseen moment, the self-linked one lying under the other two:
    the order is not known, and the one the rules allow is the one booked."""
    glass = random_glass(22)
    x, y, z = ("A-r3-c3", "B-r3-c3"), ("A-r3-c5", "B-r3-c5"), ("A-r2-c4", "B-r2-c4")
    unlink(glass, *x)
    unlink(glass, *y)
    counts = Counter(c for n, c in glass.items() if n not in z)
    glass[z[0]] = glass[z[1]] = next(c for c in sorted(counts) if counts[c] <= 2)  # linked
    steps = [*_seen(glass), *_seen(_without(glass, *x, *y, *z), 45)]
    game, events = play(make_table_game, Settings(), SESSION, steps)
    first, second = game.questions(None)
    for q, answer in ((first, x[0]), (second, y[0])):
        for draft in game.correct({"question": q.id, "answer": answer}, None):
            ev = Event("s1", len(events) + 1, 0.0, draft.kind, draft.payload, draft.visibility)
            game.apply_event(ev)
            events.append(ev)
    picks = [e.payload for e in events if e.kind == "lg.pick"]
    assert [set(z) == {p["position"], p["reflection"]} for p in picks] == [False, False, True]
    assert len(picks) == 3 and not any(p["illegal"] for p in picks)
    assert game.state.round.taken.bit_count() == 3


def test_a_glass_the_rules_cannot_deal_is_not_followed_and_the_players_are_told_why() -> None:
    glass = random_glass(23)
    top = "A-r3-c3"  # uncovered at the deal
    glass[top] = "lion"
    game, events = play(make_table_game, Settings(), SESSION, _seen(glass, 20))
    assert [e.kind for e in events] == ["session.started", "lg.breach"]  # once, not per frame
    assert "Brawlers never start in the top row" in game.view(None)["waiting"]
    assert game.state.round is None


def test_the_table_is_right_returns_a_pair_the_engine_counted_taken() -> None:
    """A pick booked, then the pair put back on the table (the players took it back): a card
    back where one was taken is not a move, so the engine still counts it taken. The admin
    declares the table right: the engine has the pair back in the glass, and the turn is the
    first player's again."""
    glass = random_glass(24)
    pos = "A-r3-c3"
    steps = [
        *_seen(glass),
        *_seen(_without(glass, pos)),
        *_seen(_without(glass, pos, LAY.reflection(pos))),
        *_seen(glass),
    ]
    game, events = play(make_table_game, Settings(), SESSION, steps)
    assert game.state.round.taken != 0 and game.view(None)["to_move"] == 1
    with pytest.raises(UserError, match="admin"):
        game.correct({"table_is_right": True}, 0)
    steps += [Correct({"table_is_right": True}), *_seen(glass)]
    events = check_table_game(make_table_game, Settings(), SESSION, steps)  # it replays
    [right] = [e for e in events if e.kind == TABLE_RIGHT_KIND]
    assert set(right.payload["board"]["glass"]) == set(glass)
    game, _ = play(make_table_game, Settings(), SESSION, steps)
    assert game.state.round.taken == 0 and game.state.round.piles == ((), ())
    assert game.view(None)["to_move"] == 0 and game.view(None)["picks"] == []
    # The tracker follows from the corrected glass: the next pick is booked as usual.
    pos = "B-r3-c3"
    steps += [*_seen(_without(glass, pos)), *_seen(_without(glass, pos, LAY.reflection(pos)))]
    game, events = play(make_table_game, Settings(), SESSION, steps)
    assert game.state.round.piles[0] == (glass[pos],)


def test_the_table_is_right_needs_a_round_and_a_steady_view() -> None:
    game, _ = play(make_table_game, Settings(), SESSION, [])
    with pytest.raises(UserError, match="round"):
        game.correct({"table_is_right": True}, None)
    glass = random_glass(25)
    moving = _seen(_without(glass, "A-r3-c3"), 1)  # a hand over a card this very frame
    game, _ = play(make_table_game, Settings(), SESSION, [*_seen(glass), *moving])
    with pytest.raises(UserError, match="steady"):
        game.correct({"table_is_right": True}, None)
