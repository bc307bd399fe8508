"""The live table game: a round from deal to score through the plug-in contract, replayed
from its events to the same views, with hands kept from the other seat."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from companion.config import Settings
from companion.errors import UserError
from companion.games.looking_glass.rules.deck import load_deck
from companion.games.looking_glass.rules.layout import load_layouts
from companion.games.looking_glass.rules.scoring import round_winner, score
from companion.games.looking_glass.table.live import make_table_game, place_words
from companion.live.conformance import Correct, Observe, check_table_game, play
from companion.live.table_game import Observation
from companion.store import Event, Session
from tests.games.looking_glass_table.helpers import random_glass, synthetic_reading, unlink

SESSION = Session("s1", "looking-glass", {}, ["Ann", "Bo"], 0.0)


def round_steps(glass: dict[str, str], order: list[str]):
    """Observations of a deal and of every pick (chosen card first, then its reflection),
    each held 7 frames (0.7 s at the 0.1 s steps of `conformance.play`)."""
    lay = load_layouts()["pyramid"]
    steps = [Observe(Observation(synthetic_reading(glass), 0.9))] * 7
    gone: set[str] = set()
    for pos in order:
        for name in (pos, lay.reflection(pos)):
            gone.add(name)
            left = {n: c for n, c in glass.items() if n not in gone}
            steps += [Observe(Observation(synthetic_reading(left), 0.9))] * 7
    return steps


def legal_order(glass: dict[str, str]) -> list[str]:
    lay = load_layouts()["pyramid"]
    taken = 0
    order = []
    while taken != lay.full_mask:
        cell = lay.free_cells(taken)[0]
        order.append(lay.name_of(len(order) % 2, cell))
        taken |= 1 << cell
    return order


def test_a_round_from_deal_to_score_replays_and_keeps_hands_private():
    glass = random_glass(7)
    order = legal_order(glass)
    deck_left = Counter(load_deck().cards(False))
    deck_left.subtract(glass.values())
    rest = sorted((+deck_left).elements())
    hands = [rest[:4], rest[4:8]]
    steps = round_steps(glass, order)
    steps += [
        Correct({"kind": "hand", "cards": hands[0]}, 0),
        Correct({"kind": "hand", "cards": hands[1]}, 1),
    ]
    events = check_table_game(make_table_game, Settings(), SESSION, steps)
    kinds = [e.kind for e in events]
    assert kinds.count("lg.deal") == 1 and kinds.count("lg.pick") == 14
    assert kinds[-2:] == ["lg.reveal", "lg.round"]
    (deal,) = [e.payload for e in events if e.kind == "lg.deal"]
    assert deal["layout_name"] == load_layouts()[deal["layout"]].name  # the log's words
    picks = [e.payload for e in events if e.kind == "lg.pick"]
    assert [p["seat"] for p in picks] == [0, 1] * 7  # the first player starts, then turns
    assert not any(p["illegal"] for p in picks)
    piles = [Counter(), Counter()]
    for p in picks:
        piles[p["seat"]][p["card"]] += 1
        piles[1 - p["seat"]][p["reflection_card"]] += 1
    totals = [score(piles[s] + Counter(hands[s])).total for s in (0, 1)]
    result = events[-1].payload
    assert result["totals"] == totals and result["winner"] == round_winner(totals, 0)
    hand_events = [e for e in events if e.kind == "lg.hand"]
    assert [e.visibility for e in hand_events] == ["seat:0", "seat:1"]


def test_the_other_seat_never_sees_a_hand_before_the_round_ends():
    glass = random_glass(8)
    game, _ = play(
        make_table_game,
        Settings(),
        SESSION,
        [
            *round_steps(glass, legal_order(glass)[:2]),
            Correct({"kind": "hand", "cards": ["dodo", "dodo", "tweedles", "caterpillar"]}, 0),
        ],
    )
    assert game.view(0)["my_hand"] == ["caterpillar", "dodo", "dodo", "tweedles"]
    assert game.view(1)["my_hand"] is None
    assert "my_hand" not in game.view(None)
    assert game.view(1)["hands_public"] is None


def test_an_illegal_pick_is_flagged_at_once():
    glass = random_glass(9)
    steps = round_steps(glass, ["A-r0-c4"])  # row 0 lies under row 1: covered
    game, events = play(make_table_game, Settings(), SESSION, steps)
    picks = [e.payload for e in events if e.kind == "lg.pick"]
    assert len(picks) == 1 and picks[0]["illegal"] is True
    assert game.view(None)["illegal"][0]["position"] == "A-r0-c4"
    # the engine's detail names places in words; the codes stay in position and reflection
    detail = picks[0]["detail"]
    assert "lies under" in detail and "Ann's half" in detail and "-r" not in detail, detail


def test_bad_options_and_corrections_are_user_errors():
    with pytest.raises(UserError, match="unknown option"):
        make_table_game(Settings(), Session("s", "looking-glass", {"x": 1}, ["a", "b"], 0.0))
    with pytest.raises(UserError, match="exactly 2"):
        make_table_game(Settings(), Session("s", "looking-glass", {}, ["a"], 0.0))
    game = make_table_game(Settings(), SESSION)
    with pytest.raises(UserError, match="Brawler"):
        game.correct({"kind": "hand", "cards": ["lion", "dodo", "dodo", "dodo"]}, 0)
    with pytest.raises(UserError, match="list of 4"):
        game.correct({"kind": "hand", "cards": ["dodo"]}, 0)
    with pytest.raises(UserError, match="seat"):
        game.correct({"kind": "hand", "cards": ["dodo"] * 4}, None)
    with pytest.raises(UserError):
        game.correct({"nonsense": 1}, 0)


def test_a_pick_whose_reflection_was_never_read_is_asked_not_guessed():
    """B-r3-c5 lay under a glare from the deal on; the first player took it (unseen), then
    the other took A-r3-c5. The camera cannot tell that order from the reverse: it asks who
    took which and what the unread card was. The next pick waits for the answers (whose turn
    it was depends on them), and then both are booked, each for the right seat."""
    glass = random_glass(11)
    lay = load_layouts()["pyramid"]
    unread = {"B-r3-c5"}
    steps = [Observe(Observation(synthetic_reading(glass, hidden=unread), 0.9))] * 7
    gone = {"B-r3-c5", "A-r3-c5"}
    left = {n: c for n, c in glass.items() if n not in gone}
    steps += [Observe(Observation(synthetic_reading(left), 0.9))] * 7
    for name in ("B-r3-c3", lay.reflection("B-r3-c3")):  # the second player's pick
        left = {n: c for n, c in left.items() if n != name}
        steps += [Observe(Observation(synthetic_reading(left), 0.9))] * 7
    game, events = play(make_table_game, Settings(), SESSION, steps)
    assert not [e for e in events if e.kind == "lg.pick"]
    questions = {q.id.split("-")[0]: q for q in game.questions(None)}
    assert set(questions) == {"pick", "card"}
    assert "could not read" in questions["pick"].choices[1]["label"]
    # places in words; the codes stay in the answers' values and the events
    labels = [c["label"] for c in questions["pick"].choices]
    # left and right as the half's own player sees them: B-r3-c5 is A-r3-c5's reflection,
    # 2nd from Ann's left and so 1st from Bo's (the dashboard draws the glass as Ann sees it)
    assert labels[1] == (
        "the card the camera could not read (row 4 of Bo's half, 1st from Bo's left)"
    )
    assert labels[0].endswith("(row 4 of Ann's half, 2nd from Ann's left)")
    assert questions["card"].text == "Which card was in row 4 of Bo's half, 1st from Bo's left?"
    assert [c["value"] for c in questions["pick"].choices][:2] == ["A-r3-c5", "B-r3-c5"]
    view = json.loads(json.dumps(game.view(None)))
    assert view["layout_name"] == load_layouts()[view["layout"]].name  # "Pyramid", not its id
    where = {g["position"]: g["where"] for g in view["glass"]}
    assert where["A-r0-c0"] == "row 1 of Ann's half, 1st from Ann's left"
    assert where["B-r0-c0"] == "row 1 of Bo's half, 5th from Bo's left"
    later: list = []
    for payload in (
        {"question": questions["pick"].id, "answer": "B-r3-c5"},
        {"question": questions["card"].id, "answer": glass["B-r3-c5"]},
    ):
        for draft in game.correct(payload, 0):
            ev = Event(
                "s1", len(events) + len(later) + 1, 0.0, draft.kind, draft.payload, draft.visibility
            )
            game.apply_event(ev)
            later.append(ev)
    booked = [e.payload for e in later if e.kind == "lg.pick"]
    assert [(p["seat"], p["position"], p["reflection_card"]) for p in booked] == [
        (0, "B-r3-c5", glass["A-r3-c5"]),
        (1, "B-r3-c3", glass["A-r3-c3"]),
    ]
    assert game.questions(None) == []
    view = game.view(None)
    mine = {c["card"]: c["count"] for row in view["piles"][0].values() for c in row}
    assert mine[glass["B-r3-c5"]] >= 1  # the unread card, once named, is in seat 0's pile


def _hidden_pair_steps(glass: dict[str, str], pair: set[str], steps: int = 25) -> list:
    """A steady deal, then `steps` observations (0.1 s apart) without the pair."""
    full = [Observe(Observation(synthetic_reading(glass), 0.9))] * 7
    hidden = {n: c for n, c in glass.items() if n not in pair}
    return full + [Observe(Observation(synthetic_reading(hidden), 0.9))] * steps


def _unlinked_glass(seed: int) -> dict[str, str]:
    glass = random_glass(seed)
    unlink(glass, "A-r3-c3", "B-r3-c3")
    return glass


def test_a_hand_resting_briefly_over_both_cards_of_a_pair_asks_nothing():
    glass = _unlinked_glass(12)
    steps = _hidden_pair_steps(glass, {"A-r3-c3", "B-r3-c3"}, steps=10)  # 1 s
    steps += [Observe(Observation(synthetic_reading(glass), 0.9))] * 7
    game, events = play(make_table_game, Settings(), SESSION, steps)
    assert [e.kind for e in events] == ["session.started", "lg.deal"]
    assert game.questions(None) == [] and game.active_seat() == game.starter


def test_a_pair_gone_long_enough_is_asked_and_the_camera_withdraws_it_when_both_show():
    """Both cards of a pair vanish in one steady view for longer than a hand usually rests
    (a pick the camera saw no step of, or a hand over the centre line): the players are
    asked, with "neither" as an answer; when both show again the camera closes the question
    itself and no pick is booked."""
    glass = _unlinked_glass(12)
    steps = _hidden_pair_steps(glass, {"A-r3-c3", "B-r3-c3"})
    steps += [Observe(Observation(synthetic_reading(glass), 0.9))] * 7
    game, events = play(make_table_game, Settings(), SESSION, steps)
    asked = [e.payload for e in events if e.kind == "question"]
    assert len(asked) == 1 and asked[0]["choices"][-1]["value"] == "none"
    closed = [e.payload for e in events if e.kind == "answer"]
    assert closed == [
        {
            "question": asked[0]["id"],
            "answer": "none",
            "seat": None,
            "by": "camera: both cards are on the table again",
        }
    ]
    assert not [e for e in events if e.kind == "lg.pick"]
    assert game.questions(None) == [] and game.active_seat() == game.starter


def test_a_question_is_not_shown_while_both_cards_of_its_pair_show_again():
    """A hand rests over a pair at the centre line long enough to be asked about, then moves
    over other cards: the pair shows again, but no view is steady for a while. The question
    waits (the camera sees both cards), and is withdrawn unseen once the view is steady."""
    glass = _unlinked_glass(18)
    steps = _hidden_pair_steps(glass, {"A-r3-c3", "B-r3-c3"}, steps=8)
    for k in range(24):  # 2.4 s of a hand moving over other cards, one after another
        other = ["A-r0-c0", "A-r1-c1", "B-r0-c0", "B-r1-c1"][k % 4]
        moving = {n: c for n, c in glass.items() if n != other}
        steps.append(Observe(Observation(synthetic_reading(moving), 0.9)))
    steps += [Observe(Observation(synthetic_reading(glass), 0.9))] * 7
    game, events = play(make_table_game, Settings(), SESSION, steps)
    assert [e.kind for e in events] == ["session.started", "lg.deal"]
    assert game.questions(None) == [] and game.active_seat() == game.starter


def test_players_answering_neither_keep_the_pair_on_the_glass():
    glass = _unlinked_glass(13)
    game, events = play(
        make_table_game, Settings(), SESSION, _hidden_pair_steps(glass, {"A-r3-c3", "B-r3-c3"})
    )
    (q,) = game.questions(None)
    drafts = game.correct({"question": q.id, "answer": "none"}, 0)
    assert [d.kind for d in drafts] == ["answer"]
    game.apply_event(
        Event("s1", len(events) + 1, 0.0, "answer", drafts[0].payload, drafts[0].visibility)
    )
    assert game.questions(None) == []
    assert {"A-r3-c3", "B-r3-c3"} <= set(game.tracker.remaining())
    assert game.active_seat() == game.starter  # no turn passed


def test_a_glass_with_a_pair_never_read_is_not_dealt_and_the_players_are_told_why():
    """A glare over both cards of a pair at the centre line looks like a pick already made:
    the companion does not take it for a fresh deal, and says which places it cannot read."""
    glass = random_glass(14)
    pair = {"A-r3-c5", "B-r3-c5"}
    hidden = {n: c for n, c in glass.items() if n not in pair}
    steps = [Observe(Observation(synthetic_reading(hidden), 0.9))] * 10
    game, events = play(make_table_game, Settings(), SESSION, steps)
    assert [e.kind for e in events] == ["session.started"]
    waiting = game.view(None)["waiting"]
    assert "A-r3-c5, B-r3-c5" in waiting and "glare" in waiting
    steps += [Observe(Observation(synthetic_reading(glass), 0.9))] * 7  # the lamp is moved
    game, events = play(make_table_game, Settings(), SESSION, steps)
    assert [e.kind for e in events] == ["session.started", "lg.deal"]
    assert game.view(None)["waiting"] is None


def test_a_pick_after_a_question_answered_neither_is_booked_for_the_seat_it_really_was():
    """A hand rests over a pair long enough to be asked about; meanwhile the first player
    takes a card and the other its reflection. "Neither" means no turn passed: that pick is
    the first player's, not the second's."""
    glass = _unlinked_glass(15)
    lay = load_layouts()["pyramid"]
    pair = {"A-r3-c3", "B-r3-c3"}
    steps = _hidden_pair_steps(glass, pair)
    gone: set[str] = set()
    for name in ("A-r3-c5", lay.reflection("A-r3-c5")):
        gone.add(name)
        left = {n: c for n, c in glass.items() if n not in gone | pair}
        steps += [Observe(Observation(synthetic_reading(left), 0.9))] * 7
    game, events = play(make_table_game, Settings(), SESSION, steps)
    assert not [e for e in events if e.kind == "lg.pick"]  # waits for the answer
    assert game.view(None)["waiting"] == (
        "Please answer the open question: 1 pick seen since then waits for it, because whose "
        "turn it was depends on the answer."
    )
    (q,) = game.questions(None)
    drafts = game.correct({"question": q.id, "answer": "none"}, 0)
    picks = [d.payload for d in drafts if d.kind == "lg.pick"]
    assert [(p["seat"], p["position"]) for p in picks] == [(game.starter, "A-r3-c5")]
    assert game.view(None)["waiting"] is None


def _answer(game, events: list[Event], qid: str, answer: str) -> list[Event]:
    """The players' answer, applied the way the runtime applies it; the events it made."""
    made = []
    for draft in game.correct({"question": qid, "answer": answer}, None):
        ev = Event("s1", len(events) + 1, 0.0, draft.kind, draft.payload, draft.visibility)
        game.apply_event(ev)
        events.append(ev)
        made.append(ev)
    return made


def _two_unlinked_pairs(seed: int) -> tuple[dict[str, str], tuple[str, str], tuple[str, str]]:
    glass = _unlinked_glass(seed)
    x, y = ("A-r3-c3", "B-r3-c3"), ("A-r3-c5", "B-r3-c5")
    unlink(glass, *y)
    return glass, x, y


def test_two_pairs_gone_at_once_are_asked_by_who_took_what_and_scored_right():
    """Ann chose A-r3-c5 (Bo got its reflection), then Bo chose A-r3-c3 (Ann got its
    reflection), while the camera saw no step of it. The order is unknown, so each pair is
    asked about by whose pile a card went to; the truthful answers give both piles right.
    An arm resting over them for two seconds asks nothing."""
    glass, x, y = _two_unlinked_pairs(16)
    gone = set(x) | set(y)
    game, events = play(
        make_table_game, Settings(), SESSION, _hidden_pair_steps(glass, gone, steps=20)
    )
    assert game.questions(None) == []
    game, events = play(
        make_table_game, Settings(), SESSION, _hidden_pair_steps(glass, gone, steps=45)
    )
    qs = game.questions(None)
    assert [q.text for q in qs] == [
        "2 pairs left the glass while the camera could not see. Which card did Ann take?",
        "2 pairs left the glass while the camera could not see. Which card did Bo take?",
    ]
    assert [[c["value"] for c in q.choices] for q in qs] == [[*x, "none"], [*y, "none"]]
    made = _answer(game, events, qs[0].id, x[1])  # Ann got the reflection of Bo's choice
    made += _answer(game, events, qs[1].id, y[1])  # Bo got the reflection of Ann's choice
    picks = [e.payload for e in made if e.kind == "lg.pick"]
    assert [(p["seat"], p["illegal"]) for p in picks] == [(0, False), (1, False)]
    assert Counter(game.state.round.piles[0]) == Counter([glass[x[1]], glass[y[0]]])
    assert Counter(game.state.round.piles[1]) == Counter([glass[x[0]], glass[y[1]]])
    assert game.active_seat() == game.starter


def test_an_answer_names_the_card_of_the_seat_asked_even_when_the_turns_shift():
    """A hand over pair X is asked about (naming Ann); then Ann takes A-r3-c5 and Bo its
    reflection, unseen step by step, asked about naming Bo, who got B-r3-c5. X is answered
    "neither": no turn passed, so that pick was Ann's, and Bo's answer still means Bo's pile."""
    glass, x, y = _two_unlinked_pairs(17)
    steps = _hidden_pair_steps(glass, set(x))
    left = {n: c for n, c in glass.items() if n not in set(x) | set(y)}
    steps += [Observe(Observation(synthetic_reading(left), 0.9))] * 25
    game, events = play(make_table_game, Settings(), SESSION, steps)
    first, second = game.questions(None)
    assert first.text.endswith("Ann take?") and second.text.endswith("Bo take?")
    assert [c["value"] for c in second.choices] == [*y, "none"]
    assert not [e for e in _answer(game, events, first.id, "none") if e.kind == "lg.pick"]
    made = _answer(game, events, second.id, y[1])
    picks = [e.payload for e in made if e.kind == "lg.pick"]
    assert [(p["seat"], p["position"], p["reflection"]) for p in picks] == [(0, y[0], y[1])]
    assert game.state.round.piles == ((glass[y[0]],), (glass[y[1]],))


def test_every_place_of_a_layout_has_its_own_words():
    for lay in load_layouts().values():
        words = [place_words(lay, n, ["Ann", "Bo"]) for n in lay.position_names]
        assert len(set(words)) == len(words)
        assert not any("-r" in w for w in words)
    pyramid = load_layouts()["pyramid"]
    assert place_words(pyramid, "A-r3-c5", ["Ann", "Bo"], either=True) == (
        "row 4 of either half, 2nd from Ann's left"
    )
    assert place_words(pyramid, "B-r3-c5", ["Ann", "Bo"], either=True) == (
        "row 4 of either half, 2nd from Ann's left"
    )
    # both halves, each from its own player's left: a row's first place for one is its last
    # for the other, and a seat without a name is "Player 2"
    bo_first = "row 1 of Bo's half, 1st from Bo's left"
    assert place_words(pyramid, "B-r0-c8", ["Ann", "Bo"]) == bo_first
    assert place_words(pyramid, "A-r0-c8", ["Ann"]) == "row 1 of Ann's half, 5th from Ann's left"
    assert place_words(pyramid, "B-r1-c1", ["Ann"]) == (
        "row 2 of Player 2's half, 4th from Player 2's left"
    )
