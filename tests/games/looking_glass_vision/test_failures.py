"""The failure benchmark's classes: each outcome of a reading against its truth lands in the
class that names its cause, and the counts agree with `render.compare`."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))

from benchmarks.looking_glass_failures import SlotSeen, cause, slot_curve  # noqa: E402
from companion.games.looking_glass.vision.render import card_outcomes, compare  # noqa: E402


def _card(card: str, x: float, covered: bool = False, occluded: bool = False) -> dict:
    quad = [[x - 50, 0], [x + 50, 0], [x + 50, 140], [x - 50, 140]]
    return {
        "card": card,
        "center": [x, 70.0],
        "covered": covered,
        "occluded": occluded,
        "quad": quad,
    }


def _read(card: str | None, x: float, covered: bool = False) -> dict:
    return {"card": card, "center": [x, 70.0], "covered": covered}


TRUTH = {
    "layout": None,
    "cards": [
        _card("dodo", 0),
        _card("mad-hatter", 100),
        _card("tweedles", 200, covered=True),
        _card("caterpillar", 300),
        _card("white-rabbit", 400, occluded=True),
        _card("jabberwocky", 600),
    ],
}
READING = {
    "cards": [
        _read("dodo", 2),  # right
        _read("dodo", 101),  # wrong: its neighbour's name
        _read("tweedles", 199, covered=False),  # covered read as free
        # caterpillar at 300: missed
        _read(None, 401),  # under a hand, unsure: not counted
        _read("queen-of-hearts", 600),  # wrong: no such card near
        _read("mock-turtle", 640),  # a second card in one place: a duplicate
        _read("mock-turtle", 2000),  # nothing near: off the glass
    ]
}


def test_outcomes_count_as_compare_counts():
    kinds = [o.kind for o in card_outcomes(READING, TRUTH)]
    assert kinds == [
        "right",
        "wrong",
        "covered_wrong",
        "missed",
        "hidden",
        "wrong",
        "extra",
        "extra",
    ]
    c = compare(READING, TRUTH)
    assert (c.cards, c.right, c.wrong, c.covered_wrong, c.missed, c.unsure, c.extra) == (
        5,
        1,
        2,
        1,
        1,
        0,
        2,
    )


def test_every_failure_is_put_in_the_class_of_its_cause():
    outcomes = card_outcomes(READING, TRUTH)
    causes = [cause(o, TRUTH, None) for o in outcomes]
    assert causes == [
        None,
        "wrong/neighbour",
        "covered/as-free",
        "missed/not-found (free)",
        None,
        "wrong/other",
        "phantom/duplicate",
        "phantom/off-glass",
    ]


def test_a_missed_card_says_which_stage_lost_it():
    missed = card_outcomes(READING, TRUTH)[3]
    centre = np.array([300.0, 70.0])
    assert cause(missed, TRUTH, [centre]) == "missed/found-not-placed (free)"
    assert cause(missed, TRUTH, [], []) == "missed/no-lattice (free)"
    far = SlotSeen(centre + 300, "dodo", 0.9, 0.3)
    assert cause(missed, TRUTH, [], [far]) == "missed/no-slot (free)"
    weak = SlotSeen(centre + 5, "caterpillar", 0.6, 0.2)
    other = SlotSeen(centre - 5, "dodo", 0.8, 0.2)
    assert cause(missed, TRUTH, [], [weak]) == "missed/slot-weak (free)"
    assert cause(missed, TRUTH, [], [other]) == "missed/slot-other (free)"


def test_a_missed_card_of_a_glass_refused_whole_and_a_null_say_which_stage_lost_them():
    missed = card_outcomes(READING, TRUTH)[3]
    centre = np.array([300.0, 70.0])
    weak = SlotSeen(centre + 5, "caterpillar", 0.6, 0.2)
    assert cause(missed, TRUTH, [centre], [weak], refused=True) == "missed/glass-refused (free)"
    assert cause(missed, TRUTH, [centre], [weak], refused="halves_disagree") == (
        "missed/glass-refused/halves_disagree (free)"
    )
    null = card_outcomes({"cards": [_read(None, 301)]}, TRUTH)[3]
    assert null.kind == "unsure"
    assert cause(null, TRUTH, None) == "unsure (free)"
    assert cause(null, TRUTH, [], [weak]) == "unsure/slot-weak (free)"
    look_alike = SlotSeen(centre - 5, "dodo", 0.8, 0.2)
    assert cause(null, TRUTH, [], [look_alike]) == "unsure/slot-other (free)"
    assert cause(null, TRUTH, [], [SlotSeen(centre + 300, "caterpillar", 0.9, 0.3)]) == (
        "unsure/no-slot (free)"
    )


def test_a_card_whose_teach_photo_was_refused_is_teachs_failure():
    outcomes = card_outcomes(READING, TRUTH)
    taught = {"dodo", "mad-hatter", "tweedles"}
    causes = [cause(o, TRUTH, [], [], taught) for o in outcomes]
    assert causes[3] == "missed/untaught"  # caterpillar, never taught
    assert causes[:3] == [None, "wrong/neighbour", "covered/as-free"]


def test_the_slot_curve_counts_what_each_threshold_would_name():
    rows = {
        r["min_score"]: r
        for r in slot_curve([(0.9, 0.3, "right"), (0.62, 0.2, "empty"), (0.72, 0.05, "wrong")])
    }
    assert (rows[0.6]["right"], rows[0.6]["empty_named"], rows[0.6]["wrong"]) == (1, 1, 0)
    assert (rows[0.7]["right"], rows[0.7]["empty_named"]) == (1, 0)
