"""Where the rulebook's words are stricter than a loose reading (issue 36): the words rule,
and the looser reading is a named house rule. Each test quotes the sentence it follows."""

from __future__ import annotations

from dataclasses import replace

from companion.games.mirror_mansion.rules import engine as R
from companion.games.mirror_mansion.rules.actions import EndSwaps, Guess, PlaceDoor, Swap
from tests.games.mirror_mansion.test_rules import (
    ENGINE,
    TO_S2,
    expect,
    look_and_award,
    new,
    reset_board,
    second_round,
)
from tests.games.mirror_mansion.test_rules import to_swaps as _to_swaps

DOOR_RULE = (
    "The player may either swap one to three mirrors, OR swap one to two mirrors and the door."
    " The player therefore still may not swap more than three times!"
)
END_RULE = "The game ends immediately when a player has collected a certain number of vampire drops"


def door_placed(**options):
    s = ENGINE.apply(_to_swaps(new(door=True, **options)), PlaceDoor((0, 2), "/"))
    assert s.phase == R.SWAPS
    return s


def test_the_door_moves_at_most_once_a_turn() -> None:
    assert "one to two mirrors and the door" in DOOR_RULE
    s = ENGINE.apply(door_placed(), Swap((0, 2), (2, 2), "/", None))
    expect(R.RULE_DOOR_SWAPS, s, Swap((2, 2), (0, 2), "\\", None))
    assert not any(isinstance(a, Swap) and a.source == (2, 2) for a in ENGINE.legal_actions(s)), (
        "no second door move is offered"
    )
    # Mirrors still may follow, up to three swaps in all, as the sentence says.
    s = ENGINE.apply(s, TO_S2)
    assert s.door_swaps == 1 and s.mirror_swaps == 1
    assert ENGINE.apply(s, EndSwaps()).phase == R.LOOK


def test_house_rule_door_twice_allows_a_second_door_move_but_not_a_fourth_swap() -> None:
    s = ENGINE.apply(door_placed(door_twice=True), Swap((0, 2), (2, 2), "/", None))
    s = ENGINE.apply(s, Swap((2, 2), (0, 2), "\\", None))
    assert s.door_swaps == 2
    expect(R.RULE_DOOR_SWAPS, s, Swap((0, 2), (2, 2), "/", None))  # but not a third
    s = ENGINE.apply(s, TO_S2)
    expect(R.RULE_MAX_SWAPS, s, Swap((0, 1), (0, 1), "\\", "SW"))
    assert ENGINE.apply(s, EndSwaps()).phase == R.LOOK


def found_with_guesser_right(drops: tuple[int, int], **options):
    """Seat 0 will find the sought motif (and pull its card); seat 1 guessed it would."""
    s = to_second_round_swaps(**options)
    s = ENGINE.apply(ENGINE.apply(s, TO_S2), EndSwaps())
    s = ENGINE.apply(replace(s, drops=drops), Guess(1, True))
    return look_and_award(s, "S2")


def to_second_round_swaps(**options):
    return _to_swaps(reset_board(second_round(players=2, **options)))


def test_the_game_ends_at_the_award_that_reaches_the_target() -> None:
    assert "ends immediately" in END_RULE
    s = found_with_guesser_right((11, 11))
    # Step 5: the first drop brings seat 0 to 12; the game ends there, step 6 pays nothing.
    assert ENGINE.is_terminal(s) and s.drops == (12, 11) and ENGINE.winners(s) == [0]
    s = found_with_guesser_right((10, 11))
    # Both drops of step 5 (seen, and the right card pulled), then the end: no guess paid.
    assert ENGINE.is_terminal(s) and s.drops == (12, 11) and ENGINE.winners(s) == [0]


def test_guessers_are_paid_when_step_five_does_not_end_the_game() -> None:
    s = found_with_guesser_right((3, 11))
    assert ENGINE.is_terminal(s) and s.drops == (5, 12) and ENGINE.winners(s) == [1]
    s = found_with_guesser_right((3, 4))
    assert not ENGINE.is_terminal(s) and s.drops == (5, 5)


def test_house_rule_pay_whole_turn_pays_every_award_then_checks_the_end() -> None:
    s = found_with_guesser_right((10, 11), pay_whole_turn=True)
    assert ENGINE.is_terminal(s) and s.drops == (12, 12) and ENGINE.winners(s) == [0, 1]
