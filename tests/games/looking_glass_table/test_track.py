"""The tracker believes only stable views that are moves the game can make."""

from __future__ import annotations

from companion.games.looking_glass.table.messages import GlassObservation
from companion.games.looking_glass.table.track import GlassTracker
from tests.games.looking_glass_table.helpers import random_glass, synthetic_reading


def feed(tracker: GlassTracker, reading: GlassObservation, frames: int, t0: float, dt: float = 0.3):
    changes = []
    for i in range(frames):
        changes += tracker.observe(reading, t0 + i * dt)
    return changes, t0 + frames * dt


def dealt(seed: int = 1):
    glass = random_glass(seed)
    tracker = GlassTracker()
    changes, t = feed(tracker, synthetic_reading(glass), 4, 0.0)
    assert [c.kind for c in changes] == ["deal"]
    assert changes[0].detail["glass"] == glass
    return glass, tracker, t


def test_a_deal_needs_a_stable_view_of_the_glass():
    glass = random_glass(2)
    tracker = GlassTracker()
    partial = synthetic_reading(glass, hidden={"A-r0-c0"}).model_copy(update={"layout": None})
    changes, t = feed(tracker, partial, 10, 0.0)
    assert changes == []  # 27 cards of an unknown layout: not a deal
    changes, _ = feed(tracker, synthetic_reading(glass), 2, t)
    assert changes == []  # two frames are not stable
    changes, _ = feed(tracker, synthetic_reading(glass), 2, t + 0.6)
    assert [c.kind for c in changes] == ["deal"]


def test_a_deal_is_taken_while_a_card_at_the_edge_comes_and_goes():
    """One card or two the finder finds in one frame and not the next: the frames still tell
    of one glass, and the deal holds what most of them read."""
    glass = random_glass(6)
    tracker = GlassTracker()
    changes = []
    for i, hidden in enumerate([{"A-r0-c0"}, set(), {"B-r3-c5"}, {"A-r0-c0", "B-r3-c5"}, set()]):
        changes += tracker.observe(synthetic_reading(glass, hidden=hidden), i * 0.3)
    assert [c.kind for c in changes] == ["deal"]
    assert changes[0].detail["glass"] == glass  # every card, the two that flickered too


def test_frames_naming_a_place_differently_are_no_deal():
    glass = random_glass(7)
    other = dict(glass, **{"A-r1-c1": "dodo" if glass["A-r1-c1"] != "dodo" else "walrus-carpenter"})
    tracker = GlassTracker()
    changes = []
    for i in range(10):
        changes += tracker.observe(synthetic_reading(glass if i % 2 else other), i * 0.3)
    assert changes == []
    assert not tracker.slots


def test_cards_not_read_at_the_deal_stay_unknown_until_seen():
    glass = random_glass(5)
    tracker = GlassTracker()
    hidden = {"A-r0-c2", "B-r3-c5"}  # under a glare at the deal; the layout is known
    changes, t = feed(tracker, synthetic_reading(glass, hidden=hidden), 4, 0.0)
    assert [c.kind for c in changes] == ["deal"]
    dealt = changes[0].detail["glass"]
    assert dealt["A-r0-c2"] is None and dealt["B-r3-c5"] is None and len(dealt) == 28
    # The glare moves off A-r0-c2: it is read, not "put back".
    changes, t = feed(tracker, synthetic_reading(glass, hidden={"B-r3-c5"}), 4, t)
    assert [(c.kind, c.positions, c.detail) for c in changes] == [
        ("identify", ["A-r0-c2"], {"card": glass["A-r0-c2"]})
    ]
    # A-r3-c5 is taken; its reflection was never read, so the camera cannot tell whether
    # B-r3-c5 left first, unseen (then it was the chosen card): it asks, it does not guess.
    changes, t = feed(tracker, synthetic_reading(glass, hidden={"B-r3-c5", "A-r3-c5"}), 4, t)
    assert [(c.kind, c.positions) for c in changes] == [("ask", ["A-r3-c5", "B-r3-c5"])]
    assert "A-r3-c5" not in tracker.remaining() and "B-r3-c5" not in tracker.remaining()
    pick = tracker.resolve("B-r3-c5")
    assert pick.positions == ["B-r3-c5", "A-r3-c5"] and pick.detail["card"] is None
    assert pick.detail["reflection_card"] == glass["A-r3-c5"]


def test_a_hand_over_the_glass_is_no_event():
    glass, tracker, t = dealt()
    # A hand hides cards of three pairs for a long time, then leaves: nothing happened.
    hand = {"A-r3-c3", "A-r3-c5", "A-r2-c4", "B-r3-c3"}
    changes, t = feed(tracker, synthetic_reading(glass, hidden=hand), 20, t)
    changes2, t = feed(tracker, synthetic_reading(glass), 10, t)
    assert changes + changes2 == []
    assert len(tracker.remaining()) == 28


def test_a_hand_over_whole_pairs_is_asked_about_and_withdrawn_when_it_leaves():
    """Whole pairs hidden look like picks the camera saw no step of: the tracker asks (the
    live game shows such a question only if it still stands seconds later), and withdraws
    the questions itself when the cards show again. Nothing is booked."""
    glass, tracker, t = dealt()
    hand = {"A-r3-c3", "A-r3-c5", "A-r2-c4", "B-r3-c3", "B-r3-c5"}
    changes, t = feed(tracker, synthetic_reading(glass, hidden=hand), 20, t)
    assert not [c for c in changes if c.kind == "pick"]
    changes, t = feed(tracker, synthetic_reading(glass), 10, t)
    assert not [c for c in changes if c.kind == "pick"]
    assert sorted(c.kind for c in changes) == ["back", "withdraw", "withdraw"]
    assert len(tracker.remaining()) == 28 and tracker.asked == []


def test_a_card_lifted_and_put_back_is_no_pick():
    glass, tracker, t = dealt()
    changes, t = feed(tracker, synthetic_reading(glass, hidden={"A-r3-c3"}), 6, t)
    assert [c.kind for c in changes] == ["half"]  # the tracker notes it, records nothing
    changes, t = feed(tracker, synthetic_reading(glass), 6, t)
    assert [c.kind for c in changes] == ["back"]
    assert len(tracker.remaining()) == 28


def test_a_reflection_lifted_while_the_picture_moves_is_not_taken_for_the_chosen_card():
    """920022: a hand over the reflection, the reflection held up out of view, the hand
    putting it back: three frames that read the same (the reflection missing), long enough
    to be stable, but the picture changed in each. Then the chosen card leaves, and its
    reflection: the pick is the chosen card's, not the reflection's."""
    glass, tracker, t = dealt()
    lifted = synthetic_reading(glass, hidden={"A-r3-c5"}).model_copy(update={"still": False})
    changes, t = feed(tracker, lifted, 4, t)
    assert changes == []
    changes, t = feed(tracker, synthetic_reading(glass, hidden={"B-r3-c5"}), 4, t)
    assert [c.kind for c in changes] == ["half"]
    changes, t = feed(tracker, synthetic_reading(glass, hidden={"B-r3-c5", "A-r3-c5"}), 4, t)
    assert [c.kind for c in changes] == ["pick"]
    assert changes[0].positions == ["B-r3-c5", "A-r3-c5"]


def test_a_view_is_decided_on_the_first_still_frame():
    glass, tracker, t = dealt()
    moving = synthetic_reading(glass, hidden={"B-r3-c5"}).model_copy(update={"still": False})
    changes, t = feed(tracker, moving, 5, t)
    assert changes == []  # stable reading, moving picture
    changes, t = feed(tracker, synthetic_reading(glass, hidden={"B-r3-c5"}), 1, t)
    assert [c.kind for c in changes] == ["half"]


def test_a_flicker_shorter_than_the_window_is_ignored():
    glass, tracker, t = dealt()
    for k in range(30):  # every other frame loses a pair: never stable
        hidden = {"A-r3-c3", "B-r3-c3"} if k % 2 else set()
        changes, t = feed(tracker, synthetic_reading(glass, hidden=hidden), 1, t)
        assert changes == []


def test_pick_in_two_steps_names_the_chosen_card():
    glass, tracker, t = dealt()
    changes, t = feed(tracker, synthetic_reading(glass, hidden={"B-r3-c5"}), 4, t)
    assert [c.kind for c in changes] == ["half"]
    changes, t = feed(tracker, synthetic_reading(glass, hidden={"B-r3-c5", "A-r3-c5"}), 4, t)
    assert [c.kind for c in changes] == ["pick"]
    pick = changes[0]
    assert pick.positions == ["B-r3-c5", "A-r3-c5"]
    assert pick.detail["card"] == glass["B-r3-c5"]
    assert pick.detail["reflection_card"] == glass["A-r3-c5"]


def test_a_pair_gone_at_once_asks_unless_self_linked():
    glass = random_glass(3)
    a, b = "A-r3-c3", "B-r3-c3"
    glass[b] = "dodo" if glass[a] != "dodo" else "walrus-carpenter"
    tracker = GlassTracker()
    _, t = feed(tracker, synthetic_reading(glass), 4, 0.0)
    changes, t = feed(tracker, synthetic_reading(glass, hidden={a, b}), 4, t)
    assert [c.kind for c in changes] == ["ask"]
    pick = tracker.resolve(b)
    assert pick.kind == "pick" and pick.positions == [b, a]
    glass2 = random_glass(4)
    glass2["B-r3-c5"] = glass2["A-r3-c5"]
    tracker2 = GlassTracker()
    _, t = feed(tracker2, synthetic_reading(glass2), 4, 0.0)
    changes, _ = feed(tracker2, synthetic_reading(glass2, hidden={"A-r3-c5", "B-r3-c5"}), 4, t)
    assert [c.kind for c in changes] == ["pick"]
    assert changes[0].detail["order"] == "self-linked"


def test_two_cards_of_different_pairs_gone_is_not_a_move():
    glass, tracker, t = dealt()
    changes, t = feed(tracker, synthetic_reading(glass, hidden={"A-r3-c3", "B-r3-c5"}), 20, t)
    assert changes == []
    assert set(tracker.remaining()) == set(glass)


def test_whole_pairs_gone_at_once_are_asked_about_not_waited_on():
    """Picks the camera saw no step of: each pair is asked about (the players know who got
    which card, whatever the order), and a self-linked one is booked as it is (the live game
    books them in an order the rules allow: test_live)."""
    glass, tracker, t = dealt()
    x, y, z = ("A-r3-c3", "B-r3-c3"), ("A-r3-c5", "B-r3-c5"), ("A-r2-c4", "B-r2-c4")
    glass[x[1]] = "dodo" if glass[x[0]] != "dodo" else "lion"
    glass[y[1]] = "dodo" if glass[y[0]] != "dodo" else "lion"
    glass[z[1]] = glass[z[0]]  # self-linked, and covered by x and y until they are taken
    tracker = GlassTracker()
    _, t = feed(tracker, synthetic_reading(glass), 4, 0.0)
    changes, t = feed(tracker, synthetic_reading(glass, hidden=set(x) | set(y) | set(z)), 4, t)
    got = {(c.kind, tuple(c.positions)): c.detail for c in changes}
    assert set(got) == {("ask", x), ("ask", y), ("pick", z)}
    assert got[("ask", x)]["together"] == got[("ask", y)]["together"] == 3
    assert got[("pick", z)]["order"] == "self-linked" and got[("pick", z)]["together"] == 3
    assert [tracker.resolve(x[1]).positions, tracker.resolve(y[0]).positions] == [
        [x[1], x[0]],
        [y[0], y[1]],
    ]
    assert not (set(x) | set(y) | set(z)) & set(tracker.remaining())


def test_a_whole_pair_and_one_more_card_gone_is_a_pick_then_the_next_choice():
    """No steady look between a pair taken at once and the next player's card: the pair is
    one pick (asked about: which of its cards was chosen?), the single card the next choice.
    If it was a hand after all, all three show again and nothing is booked."""
    glass, tracker, t = dealt()
    a, b, c = "A-r3-c3", "B-r3-c3", "A-r3-c5"
    glass[b] = "dodo" if glass[a] != "dodo" else "lion"
    tracker = GlassTracker()
    _, t = feed(tracker, synthetic_reading(glass), 4, 0.0)
    changes, t = feed(tracker, synthetic_reading(glass, hidden={a, b, c}), 4, t)
    assert [(x.kind, x.positions) for x in changes] == [("ask", [a, b]), ("half", [c])]
    changes, t = feed(tracker, synthetic_reading(glass), 4, t)
    assert [(x.kind, x.positions) for x in changes] == [("back", [c]), ("withdraw", [a, b])]
    assert set(tracker.remaining()) == set(glass)


def test_the_reflection_and_the_next_chosen_card_gone_together_is_a_pick_and_a_half():
    """No steady look between the reflection being taken and the next player taking a card:
    the pick is completed and the new card is the next chosen one."""
    glass, tracker, t = dealt()
    changes, t = feed(tracker, synthetic_reading(glass, hidden={"B-r3-c5"}), 4, t)
    assert [c.kind for c in changes] == ["half"]
    both = {"B-r3-c5", "A-r3-c5", "A-r3-c3"}
    changes, t = feed(tracker, synthetic_reading(glass, hidden=both), 4, t)
    assert [(c.kind, c.positions) for c in changes] == [
        ("pick", ["B-r3-c5", "A-r3-c5"]),
        ("half", ["A-r3-c3"]),
    ]
    changes, t = feed(tracker, synthetic_reading(glass, hidden=both | {"B-r3-c3"}), 4, t)
    assert [(c.kind, c.positions) for c in changes] == [("pick", ["A-r3-c3", "B-r3-c3"])]


def _with_inferred(
    reading: GlassObservation, names: set[str], glass: dict, lay: str = "pyramid"
) -> GlassObservation:
    """`reading` plus the cards at `names` as inferred ones (from memory or a reflection)."""
    full = synthetic_reading(glass, lay)
    extra = [c.model_copy(update={"inferred": True}) for c in full.cards if c.position in names]
    return reading.model_copy(update={"cards": reading.cards + tuple(extra)})


def test_an_inferred_card_where_a_pair_was_taken_is_no_card():
    """A pair is taken; the reader infers a card at one place (the card beneath, uncovered,
    matches its template): the view stays steady and the next pick is seen."""
    glass, tracker, t = dealt()
    taken = {"B-r3-c5", "A-r3-c5"}
    for hidden in ({"B-r3-c5"}, taken):
        changes, t = feed(tracker, synthetic_reading(glass, hidden=hidden), 4, t)
    assert [c.kind for c in changes] == ["pick"]
    changes = []
    for k, hidden in enumerate([{"A-r3-c3"}] * 3 + [{"A-r3-c3", "B-r3-c3"}] * 3):
        reading = synthetic_reading(glass, hidden=hidden | taken)
        if k % 2:  # the ghost comes and goes
            reading = _with_inferred(reading, {"A-r3-c5"}, glass)
        changes += tracker.observe(reading, t)
        t += 0.3
    assert [(c.kind, c.positions) for c in changes] == [
        ("half", ["A-r3-c3"]),
        ("pick", ["A-r3-c3", "B-r3-c3"]),
    ]


def test_a_card_seen_again_where_a_pair_was_taken_does_not_hold_up_the_round():
    glass, tracker, t = dealt()
    taken = {"B-r3-c5", "A-r3-c5"}
    for hidden in ({"B-r3-c5"}, taken):
        changes, t = feed(tracker, synthetic_reading(glass, hidden=hidden), 4, t)
    assert [c.kind for c in changes] == ["pick"]
    # From now on the reader keeps seeing a card at A-r3-c5 (a misplaced one, a phantom).
    seen_again = {"B-r3-c5"}
    for hidden in ({"A-r3-c3"}, {"A-r3-c3", "B-r3-c3"}):
        changes, t = feed(tracker, synthetic_reading(glass, hidden=hidden | seen_again), 4, t)
    assert [(c.kind, c.positions) for c in changes] == [("pick", ["A-r3-c3", "B-r3-c3"])]


def test_no_pick_while_the_card_taken_alone_shows_again_now_and_then():
    """A card lifted under a hand looks taken; the hand moves to its reflection and takes it
    while the lifted card, put back, shows only in some frames: the tracker waits, and the
    reflection turns out to be the chosen card."""
    glass, tracker, t = dealt()
    lifted, refl = "A-r3-c5", "B-r3-c5"
    changes, t = feed(tracker, synthetic_reading(glass, hidden={lifted}), 4, t)
    assert [c.kind for c in changes] == ["half"]
    frames = [{refl}, {lifted, refl}, {refl}, {refl}, {refl}]  # put back, seen on and off
    changes = []
    for hidden in frames:
        changes += tracker.observe(synthetic_reading(glass, hidden=hidden), t)
        t += 0.3
    assert [c.kind for c in changes] == ["back", "half"]
    assert tracker.first_gone == refl


def test_a_glass_with_a_pair_already_taken_is_not_a_deal():
    """The camera first gets a good look after a pick: a card and its reflection are missing,
    which no glare does; it is not taken for a fresh deal (its unread places would be asked
    about as cards not read)."""
    glass = random_glass(12)
    tracker = GlassTracker()
    changes, _ = feed(tracker, synthetic_reading(glass, hidden={"A-r3-c5", "B-r3-c5"}), 10, 0.0)
    assert changes == []
    assert not tracker.slots


def _asked(seed: int = 3) -> tuple[dict, GlassTracker, float, str, str]:
    glass = random_glass(seed)
    a, b = "A-r3-c3", "B-r3-c3"
    glass[b] = "dodo" if glass[a] != "dodo" else "walrus-carpenter"
    tracker = GlassTracker()
    _, t = feed(tracker, synthetic_reading(glass), 4, 0.0)
    changes, t = feed(tracker, synthetic_reading(glass, hidden={a, b}), 4, t)
    assert [c.kind for c in changes] == ["ask"] and tracker.asked == [(a, b)]
    return glass, tracker, t, a, b


def test_an_answer_after_the_next_card_left_keeps_that_card_as_the_chosen_one():
    """The players answer late: the next player has already taken a card. That card is
    still the first of its pair, so its reflection completes the next pick."""
    glass, tracker, t, a, b = _asked()
    gone = {a, b, "A-r3-c5"}
    changes, t = feed(tracker, synthetic_reading(glass, hidden=gone), 4, t)
    assert [(c.kind, c.positions) for c in changes] == [("half", ["A-r3-c5"])]
    pick = tracker.resolve(a)
    assert pick.positions == [a, b] and tracker.asked == []
    changes, t = feed(tracker, synthetic_reading(glass, hidden=gone | {"B-r3-c5"}), 4, t)
    assert [(c.kind, c.positions) for c in changes] == [("pick", ["A-r3-c5", "B-r3-c5"])]


def test_an_asked_pair_seen_again_withdraws_the_question():
    """A hand lay over both cards of a pair (they lie side by side at the centre line): the
    view without them held, so the players were asked; then both show again."""
    glass, tracker, t, a, b = _asked()
    changes, t = feed(tracker, synthetic_reading(glass), 4, t)
    assert [(c.kind, c.positions) for c in changes] == [("withdraw", [a, b])]
    assert tracker.asked == [] and a in tracker.remaining() and b in tracker.remaining()
    # The round goes on as if nothing had happened: the same pair can be picked for real.
    changes, t = feed(tracker, synthetic_reading(glass, hidden={a}), 4, t)
    changes2, t = feed(tracker, synthetic_reading(glass, hidden={a, b}), 4, t)
    assert [c.kind for c in changes + changes2] == ["half", "pick"]


def test_players_saying_nothing_was_taken_put_the_pair_back():
    glass, tracker, t, a, b = _asked()
    assert tracker.withdraw(a, b).kind == "withdraw"
    assert tracker.asked == [] and {a, b} <= set(tracker.remaining())
    changes, t = feed(tracker, synthetic_reading(glass), 4, t)
    assert changes == []  # both back on the table is what the players said: no event


def _with_over(reading: GlassObservation, names: set[str], glass: dict) -> GlassObservation:
    """`reading` with something over the places `names` (`Reading.hidden`): cards remembered
    there that the frame neither shows nor shows gone."""
    full = {c.position: c.center for c in synthetic_reading(glass).cards}
    return reading.model_copy(update={"hidden": tuple(full[n] for n in sorted(names))})


def test_a_card_under_an_arm_is_not_taken_for_the_next_chosen_one():
    """Round 931022: an arm rested over the last pair's Queen while the pick before was
    completed; taken for gone, it was booked as the chosen card, and the Walrus taken next
    went to the wrong player. A card something lies over is neither seen nor gone."""
    glass, tracker, t = dealt()
    changes, t = feed(tracker, synthetic_reading(glass, hidden={"B-r3-c5"}), 4, t)
    assert [c.kind for c in changes] == ["half"]
    gone = {"B-r3-c5", "A-r3-c5"}
    under_arm = _with_over(synthetic_reading(glass, hidden=gone | {"A-r3-c3"}), {"A-r3-c3"}, glass)
    changes, t = feed(tracker, under_arm, 4, t)
    assert [(c.kind, c.positions) for c in changes] == [("pick", ["B-r3-c5", "A-r3-c5"])]
    # Without the arm's report the same view would have made A-r3-c3 the next chosen card.
    assert tracker.first_gone is None
    # The Walrus (B-r3-c3) is taken while the arm still lies over the Queen: which left first
    # is not known yet, so nothing is decided...
    both_out = _with_over(
        synthetic_reading(glass, hidden=gone | {"A-r3-c3", "B-r3-c3"}), {"A-r3-c3"}, glass
    )
    changes, t = feed(tracker, both_out, 6, t)
    assert changes == [] and tracker.first_gone is None
    # ...until the Queen shows: the Walrus left first.
    changes, t = feed(tracker, synthetic_reading(glass, hidden=gone | {"B-r3-c3"}), 4, t)
    assert [(c.kind, c.positions) for c in changes] == [("half", ["B-r3-c3"])]


def test_a_reflection_under_an_arm_that_then_shows_gone_is_asked_about():
    glass, tracker, t = dealt()
    changes, t = feed(
        tracker,
        _with_over(synthetic_reading(glass, hidden={"B-r3-c5", "A-r3-c5"}), {"A-r3-c5"}, glass),
        4,
        t,
    )
    assert changes == []
    changes, t = feed(tracker, synthetic_reading(glass, hidden={"B-r3-c5", "A-r3-c5"}), 4, t)
    assert [(c.kind, c.positions) for c in changes] == [("ask", ["A-r3-c5", "B-r3-c5"])]


def test_something_over_a_taken_card_does_not_keep_it():
    """The arm that took a card may linger over its place: a card already taken stays taken
    (only a card lying there when last seen can be hidden)."""
    glass, tracker, t = dealt()
    changes, t = feed(tracker, synthetic_reading(glass, hidden={"B-r3-c5"}), 4, t)
    assert [c.kind for c in changes] == ["half"]
    lingering = _with_over(
        synthetic_reading(glass, hidden={"B-r3-c5", "A-r3-c5"}), {"B-r3-c5"}, glass
    )
    changes, t = feed(tracker, lingering, 4, t)
    assert [(c.kind, c.positions) for c in changes] == [("pick", ["B-r3-c5", "A-r3-c5"])]
