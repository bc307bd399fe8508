"""ConfirmCard: the table confirms or corrects the card a window swap revealed."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from companion.games.mirror_mansion.rules import engine as R
from companion.games.mirror_mansion.rules.actions import (
    ConfirmCard,
    EndSwaps,
    Look,
    Roll,
    SwapWindow,
    action_from_json,
    action_to_json,
)
from tests.games.mirror_mansion.test_rules import CARDS, TO_S2, expect, new, to_swaps

ENGINE = R.ENGINE


def test_confirm_card_round_trips_through_json() -> None:
    a = ConfirmCard("N0", "key")
    data = json.loads(json.dumps(action_to_json(a)))
    assert data == {"type": "confirm_card", "position": "N0", "motif": "key"}
    assert action_from_json(data) == a
    with pytest.raises(ValueError):
        action_from_json({"type": "confirm_card", "position": "N0", "motif": 3})


def test_swap_reveals_the_card_and_confirming_keeps_it() -> None:
    s = ENGINE.apply(new(), SwapWindow("E1"))
    # The card from E1 now lies where the window was (W1).
    assert s.board.cards["W1"] == CARDS["E1"]
    after = ENGINE.apply(s, ConfirmCard("W1", CARDS["E1"]))
    assert after.board.cards == s.board.cards
    assert after.confirmed == {"W1"} and after.phase == s.phase


def test_a_correction_trades_motifs_with_the_wrongly_tapped_card() -> None:
    s = ENGINE.apply(new(), SwapWindow("E1"))
    truth = CARDS["S2"]
    after = ENGINE.apply(s, ConfirmCard("W1", truth))
    assert after.board.cards["W1"] == truth
    assert after.board.cards["S2"] == CARDS["E1"]  # the other tap was the switched one
    assert sorted(after.board.cards.values()) == sorted(s.board.cards.values())


def test_a_correction_changes_the_prediction() -> None:
    s = to_swaps(new())  # window at E1, sought is the motif at S2
    s = ENGINE.apply(s, TO_S2)
    before = ENGINE.prediction(s)
    assert before is not None and before.seen == "S2" and before.motif == CARDS["S2"]
    fixed = ENGINE.apply(s, ConfirmCard("S2", CARDS["N0"]))
    after = ENGINE.prediction(fixed)
    assert after is not None and after.seen == "S2" and after.motif == CARDS["N0"]


def test_confirm_card_refusals_name_the_rule() -> None:
    s = new()
    expect(R.RULE_CONFIRM_WHEN, s, ConfirmCard("N0", CARDS["N0"]))  # before the swap
    s = ENGINE.apply(s, SwapWindow("E1"))
    expect(R.RULE_CONFIRM_WINDOW, s, ConfirmCard("E1", CARDS["N0"]))
    expect(R.RULE_CONFIRM_WINDOW, s, ConfirmCard("X9", CARDS["N0"]))
    expect(R.RULE_CONFIRM_MOTIF, s, ConfirmCard("W1", "banana"))
    expect(R.RULE_CONFIRM_MOTIF, s, ConfirmCard("W1", "window"))
    s = ENGINE.apply(s, ConfirmCard("W1", CARDS["E1"]))
    expect(R.RULE_CONFIRM_ONCE, s, ConfirmCard("N0", CARDS["E1"]))  # confirmed at W1
    # Still legal after the die, up to the look; not once the look is made.
    s = ENGINE.apply(s, Roll(1))
    ENGINE.apply(s, ConfirmCard("N0", CARDS["N0"]))
    s = to_swaps(new())
    s = ENGINE.apply(ENGINE.apply(s, TO_S2), EndSwaps())
    assert s.phase == "look"
    ENGINE.apply(s, ConfirmCard("N0", CARDS["N0"]))
    s = ENGINE.apply(s, Look("S2"))
    expect(R.RULE_CONFIRM_WHEN, s, ConfirmCard("N0", CARDS["N0"]))


def test_confirmation_follows_the_card_and_survives_json() -> None:
    s = ENGINE.apply(new(), SwapWindow("E1"))
    s = ENGINE.apply(s, ConfirmCard("W1", CARDS["E1"]))
    data = json.loads(json.dumps(ENGINE.state_to_json(s)))
    assert ENGINE.state_from_json(data) == s
    assert ConfirmCard("W1", CARDS["E1"]) not in ENGINE.legal_actions(s)
    # Next turn the window goes back to W1: the confirmed card moves to E1 with its mark.
    s = ENGINE.apply(replace(s, phase="window"), SwapWindow("W1"))
    assert s.confirmed == {"E1"} and s.board.cards["E1"] == CARDS["E1"]
