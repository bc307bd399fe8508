"""Whole turns by the rulebook: the swaps' limits, guesses, the look, the drops, the end."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from companion.games.base import CHANCE, IllegalAction
from companion.games.conformance import check_engine
from companion.games.mirror_mansion.rules import engine as R
from companion.games.mirror_mansion.rules.actions import (
    Award,
    EndSwaps,
    Guess,
    Look,
    Name,
    PlaceDoor,
    Roll,
    Setup,
    Swap,
    SwapWindow,
    TurnBox,
)
from companion.games.mirror_mansion.rules.board import load_board
from companion.games.mirror_mansion.rules.bruteforce import moves
from companion.games.mirror_mansion.rules.optics import Mirror

ENGINE = R.ENGINE
BOARD = load_board()
M = BOARD.motifs

# Cards: the window at W1, garlic at N2, the ten motifs elsewhere in order.
CARDS = dict(zip(["N0", "N1", "E0", "E1", "E2", "S0", "S1", "S2", "W0", "W2"], M, strict=True)) | {
    "N2": BOARD.garlic,
    "W1": BOARD.window_card,
}
# Nothing in row 1 or column 2, so the window at E1 starts with no mirror in line.
MIRRORS = (
    Mirror((0, 0), "/", "NW"),
    Mirror((0, 1), "\\", "NE"),
    Mirror((2, 0), "/", "SE"),
    Mirror((2, 1), "\\", "SW"),
)
# From E1, "/" facing SE in (1,2) shows S2; "\" facing NE shows N2 (the garlic).
TO_S2 = Swap((0, 0), (1, 2), "/", "SE")
TO_GARLIC = Swap((0, 0), (1, 2), "\\", "NE")


def expect(rule: str, state, action) -> None:
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, action)
    assert err.value.rule == rule


def roll_for(state, motif: str | None) -> int:
    """The die that takes Victor to a field thinking of `motif` (None: a question mark)."""
    for roll in range(1, 7):
        if BOARD.field_thought(state.victor + roll) == motif:
            return roll
    raise AssertionError(f"no field within a roll thinks of {motif!r}")


def new(players: int = 2, victor: int = 0, **options):
    state = ENGINE.new_game(players, options)
    assert ENGINE.current_player(state) == CHANCE
    return ENGINE.apply(state, Setup(tuple(sorted(CARDS.items())), MIRRORS, victor))


def to_swaps(state, sought: str = CARDS["S2"], window: str = "E1"):
    """Window swap and roll, so that Victor seeks `sought`; the state is at the swaps."""
    state = ENGINE.apply(state, SwapWindow(window))
    victor = next(
        i for i, f in enumerate(BOARD.fields) if f.thought == sought
    )  # put Victor four fields before it, so a 4 lands there
    state = replace(state, victor=(victor - 4) % len(BOARD.fields))
    state = ENGINE.apply(state, Roll(4))
    assert state.sought == sought
    return state


def look_and_award(state, pulled):
    state = ENGINE.apply(state, Look(pulled))
    return ENGINE.apply(state, Award(ENGINE.earned(state)))


# --- a first-round turn ----------------------------------------------------------------


def test_found_and_right_card_earns_two_drops() -> None:
    s = to_swaps(new())
    assert ENGINE.current_player(s) == 0 and s.phase == R.SWAPS
    s = ENGINE.apply(s, TO_S2)
    assert ENGINE.prediction(s).seen == "S2"
    s = ENGINE.apply(s, EndSwaps())
    assert s.phase == R.LOOK  # no guesses in the first round
    expect(R.RULE_PULL, s, Look(None))  # seen it: pull a card
    expect(R.RULE_PULL, s, Look("E1"))  # the window card is no motif card
    s = ENGINE.apply(s, Look("S2"))
    assert s.look.found and ENGINE.earned(s) == (2, 0)
    expect(R.RULE_DROPS, s, Award((3, 0)))
    expect(R.RULE_DROPS, s, Award((1, 0)))
    s = ENGINE.apply(s, Award((2, 0)))
    assert s.drops == (2, 0) and s.phase == R.WINDOW and s.active == 1
    assert s.last_turn["drops"] == [2, 0]


def test_found_but_wrong_card_pulled_earns_one() -> None:
    s = ENGINE.apply(to_swaps(new()), TO_S2)
    s = look_and_award(ENGINE.apply(s, EndSwaps()), "S1")
    assert s.drops == (1, 0)


def test_garlic_costs_a_drop_only_from_a_player_who_has_one() -> None:
    s = ENGINE.apply(ENGINE.apply(to_swaps(new()), TO_GARLIC), EndSwaps())
    assert ENGINE.prediction(s).motif == BOARD.garlic
    expect(R.RULE_PULL, s, Look("N2"))  # not the sought motif: no card may be pulled
    assert look_and_award(s, None).drops == (0, 0)
    rich = replace(s, drops=(3, 1))
    assert look_and_award(rich, None).drops == (2, 1)


def test_back_of_a_mirror_shows_nothing() -> None:
    s = ENGINE.apply(to_swaps(new()), Swap((0, 0), (1, 2), "/", "NW"))
    s = ENGINE.apply(s, EndSwaps())
    s = ENGINE.apply(s, Look(None))
    assert s.look.blocked_by == "mirror-back" and not s.look.found
    assert ENGINE.earned(s) == (0, 0)


def test_question_mark_lets_the_left_neighbour_name_the_motif() -> None:
    s = ENGINE.apply(new(players=3), SwapWindow("E1"))
    s = ENGINE.apply(s, Roll(roll_for(s, None)))
    assert s.phase == R.NAME and ENGINE.current_player(s) == 1
    expect(R.RULE_NAME, s, Name(BOARD.garlic))
    s = ENGINE.apply(s, Name(M[3]))
    assert s.sought == M[3] and s.phase == R.SWAPS and ENGINE.current_player(s) == 0


# --- the swaps' limits -----------------------------------------------------------------


def test_swap_rules_are_enforced_by_name() -> None:
    s = to_swaps(new())
    expect(R.RULE_NO_SWAP, s, EndSwaps())
    expect(R.RULE_FREE_SLOT, s, Swap((0, 0), (0, 1), "/", "NW"))  # a mirror is there
    expect(R.RULE_NO_PIECE, s, Swap((1, 1), (1, 2), "/", "NW"))
    expect(R.RULE_BAD_SLOT, s, Swap((0, 0), (1, 2), "/", "NE"))  # "/" faces NW or SE
    expect(R.RULE_NO_CHANGE, s, Swap((0, 0), (0, 0), "/", "NW"))
    turned = ENGINE.apply(s, Swap((0, 0), (0, 0), "/", "SE"))  # turning counts as a swap
    expect(R.RULE_IN_LINE, turned, EndSwaps())  # nothing in line with E1 yet
    two = ENGINE.apply(turned, Swap((0, 1), (0, 2), "/", "NW"))
    # The third swap is the last: one that leaves no mirror in line is refused at once.
    expect(R.RULE_IN_LINE, two, Swap((2, 0), (2, 2), "/", "NW"))
    three = ENGINE.apply(two, Swap((2, 0), (1, 1), "/", "NW"))
    expect(R.RULE_MAX_SWAPS, three, Swap((2, 1), (2, 2), "/", "NW"))
    assert ENGINE.legal_actions(three) == [EndSwaps()]
    assert ENGINE.apply(three, EndSwaps()).phase == R.LOOK


def test_door_variant_placement_and_swap_limits() -> None:
    s = to_swaps(new(door=True))
    assert s.phase == R.DOOR and ENGINE.current_player(s) == 1  # the left-hand neighbour
    expect(R.RULE_DOOR_IN_LINE, s, PlaceDoor((1, 0), "/"))  # row 1 is in line with E1
    expect(R.RULE_FREE_SLOT, s, PlaceDoor((0, 0), "/"))
    legal = ENGINE.legal_actions(s)
    assert PlaceDoor((0, 2), "\\") in legal and all(a.cell[0] != 1 for a in legal)
    s = ENGINE.apply(s, PlaceDoor((0, 2), "/"))
    assert ENGINE.current_player(s) == 0
    d1 = ENGINE.apply(s, Swap((0, 2), (2, 2), "/", None))
    expect(R.RULE_MIRROR_SWAP, d1, EndSwaps())
    expect(R.RULE_DOOR_SWAPS, d1, Swap((2, 2), (0, 2), "\\", None))  # once a turn
    m2 = ENGINE.apply(d1, Swap((0, 1), (0, 1), "\\", "SW"))
    expect(R.RULE_IN_LINE, m2, Swap((0, 0), (0, 0), "/", "SE"))  # the last swap
    done = ENGINE.apply(m2, TO_S2)
    assert ENGINE.apply(done, EndSwaps()).phase == R.LOOK


def test_the_door_blocks_the_view() -> None:
    s = ENGINE.apply(to_swaps(new(door=True)), PlaceDoor((2, 2), "/"))
    s = ENGINE.apply(s, TO_S2)  # (1,2) turns the view south, into the door at (2,2)
    assert ENGINE.prediction(s).blocked_by == "door"


def test_engine_swaps_are_exactly_the_solvers_brute_force_moves() -> None:
    for options in ({}, {"door": True}):
        s = to_swaps(new(**options))
        if s.phase == R.DOOR:
            s = ENGINE.apply(s, PlaceDoor((0, 2), "/"))
        from_engine = {
            (n.board.mirrors, n.board.door)
            for a in ENGINE.legal_actions(s)
            if isinstance(a, Swap)
            for n in [ENGINE.apply(s, a)]
        }
        naive = {
            (b.mirrors, b.door) for b, _, _ in moves((s.board, False, 0), BOARD, "door" in options)
        }
        assert from_engine == naive and len(naive) > 50


def test_perft_counts_of_first_swaps() -> None:
    # By hand: each of 4 mirrors may go to any of the 5 free crossings in 4 ways (2 slots x
    # 2 facings) or change in place in 3 ways: 4 * (20 + 3) = 92; no end before a swap.
    s = to_swaps(new())
    assert len(ENGINE.legal_actions(s)) == 92
    # With the door in (0,2): 4 free crossings, so 4 * (16 + 3) for the mirrors, and the
    # door 4 * 2 + 1 (the other slot of its crossing) = 9: 85.
    s = ENGINE.apply(to_swaps(new(door=True)), PlaceDoor((0, 2), "/"))
    assert len(ENGINE.legal_actions(s)) == 85
    # Two swaps made and none in line: the third must bring a mirror into row 1.
    s = to_swaps(new())
    s = ENGINE.apply(s, Swap((0, 0), (0, 0), "/", "SE"))
    s = ENGINE.apply(s, Swap((0, 1), (0, 1), "\\", "SW"))
    last = ENGINE.legal_actions(s)
    assert all(isinstance(a, Swap) and a.target[0] == 1 for a in last)
    assert len(last) == 4 * 3 * 4  # any mirror, to any crossing of row 1, four ways


# --- guesses ---------------------------------------------------------------------------


def second_round(players: int = 3, **options):
    """Seat 0's first-round turn done (nothing found); seat 1 is at the swaps."""
    s = ENGINE.apply(to_swaps(new(players, **options)), TO_GARLIC)
    s = ENGINE.apply(s, EndSwaps())
    expect(R.RULE_FIRST_ROUND, s, Guess(1, True))
    s = look_and_award(s, None)
    for seat in range(1, players):  # the rest of round one: everyone fails quietly
        s = ENGINE.apply(s, SwapWindow("W1" if s.board.window != "W1" else "E1"))
        s = ENGINE.apply(s, Roll(1))
        if s.phase == R.NAME:
            s = ENGINE.apply(s, Name(M[0]))
        s = ENGINE.apply(s, next(a for a in ENGINE.legal_actions(s) if isinstance(a, Swap)))
        while s.phase == R.SWAPS and EndSwaps() not in ENGINE.legal_actions(s):
            s = ENGINE.apply(s, next(a for a in ENGINE.legal_actions(s) if isinstance(a, Swap)))
        s = ENGINE.apply(s, EndSwaps())
        s = ENGINE.apply(s, Look(_seen(s) if _found(s) else None))
        s = ENGINE.apply(s, Award(ENGINE.earned(s)))
        assert s.active == (seat + 1) % players
    return s


def _found(s) -> bool:
    p = ENGINE.prediction(s)
    return p.seen is not None and p.motif == s.sought


def _seen(s) -> str:
    return ENGINE.prediction(s).seen


def test_guesses_in_later_rounds_are_hidden_then_scored() -> None:
    s = second_round(players=3)
    assert s.active == 0 and not s.first_round
    base = s.drops
    s = to_swaps(reset_board(s))
    s = ENGINE.apply(ENGINE.apply(s, TO_S2), EndSwaps())
    assert s.phase == R.GUESS and ENGINE.current_player(s) == 1
    expect(R.RULE_ACTIVE_GUESS, s, Guess(0, True))
    s = ENGINE.apply(s, Guess(1, True))
    expect(R.RULE_ONE_GUESS, s, Guess(1, False))
    # Seat 1's guess is its own secret until everyone has guessed.
    assert ENGINE.view(s, 1)["guesses"][1] == {"seat": 1, "placed": True, "jubilant": True}
    assert ENGINE.view(s, 2)["guesses"][1] == {"seat": 1, "placed": True}
    assert "jubilant" not in json.dumps(ENGINE.view(s, None)["guesses"])
    assert "jubilant" not in json.dumps(ENGINE.view(s, 0)["guesses"])
    s = ENGINE.apply(s, Guess(2, False))
    assert s.phase == R.LOOK
    assert ENGINE.view(s, 0)["guesses"][2]["jubilant"] is False  # revealed
    s = look_and_award(s, "S2")
    assert [d - b for d, b in zip(s.drops, base, strict=True)] == [2, 1, 0]


def reset_board(s):
    """Back to the opening arrangement (a shortcut past turns whose details do not matter)."""
    cards = {p: c for p, c in CARDS.items() if p != "W1"}
    return replace(s, board=replace(s.board, window="W1", cards=cards, mirrors=MIRRORS))


def test_no_peeking_seat_does_not_get_the_prediction() -> None:
    s = to_swaps(new(players=3, no_peeking=[2]))
    assert "prediction" in ENGINE.view(s, 1)
    assert "prediction" not in ENGINE.view(s, 2)
    assert ENGINE.view(s, 1)["prediction"]["finds_sought"] is False
    s = ENGINE.apply(s, TO_S2)
    assert ENGINE.view(s, 0)["prediction"]["finds_sought"] is True
    s = ENGINE.apply(ENGINE.apply(s, EndSwaps()), Look("S2"))
    assert ENGINE.view(s, 2)["look"]["found"] is True  # after the look it is public
    peeking_again = ENGINE.with_no_peeking(s, 2, on=False)
    assert "prediction" in ENGINE.view(peeking_again, 2)
    assert "prediction" not in ENGINE.view(ENGINE.with_no_peeking(s, 0), 0)


# --- the end ---------------------------------------------------------------------------


def test_reaching_the_target_ends_the_game() -> None:
    s = ENGINE.apply(to_swaps(new()), TO_S2)
    s = replace(ENGINE.apply(s, EndSwaps()), drops=(10, 4))
    s = look_and_award(s, "S2")
    assert ENGINE.is_terminal(s) and ENGINE.current_player(s) is None
    assert ENGINE.legal_actions(s) == [] and ENGINE.winners(s) == [0]
    assert ENGINE.scores(s) == [12.0, 4.0]


def test_ties_share_the_win() -> None:
    # A tie can only arise within one award: two guessers paid together in step 6.
    s = second_round(players=3)
    s = to_swaps(reset_board(s))
    s = ENGINE.apply(ENGINE.apply(s, TO_S2), EndSwaps())
    s = ENGINE.apply(replace(s, drops=(0, 9, 9)), Guess(1, True))
    s = ENGINE.apply(s, Guess(2, True))
    s = look_and_award(s, "S2")
    assert s.drops == (2, 10, 10) and ENGINE.winners(s) == [1, 2]


@pytest.mark.parametrize(("players", "target"), [(2, 12), (3, 10), (4, 8)])
def test_drop_targets_by_player_count(players: int, target: int) -> None:
    assert ENGINE.new_game(players).target == target
    assert ENGINE.new_game(players, {"target": "agreed"}).target == 15


def test_agreed_turn_limit_ends_the_game() -> None:
    s = ENGINE.apply(to_swaps(new(max_turns=1)), TO_S2)
    s = look_and_award(ENGINE.apply(s, EndSwaps()), "S2")
    assert ENGINE.is_terminal(s) and ENGINE.winners(s) == [0]


def test_bad_options_and_setups_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown option"):
        ENGINE.new_game(2, {"mirrors": 5})
    with pytest.raises(ValueError, match="2 to 4"):
        ENGINE.new_game(5)
    s = ENGINE.new_game(2)
    expect(R.RULE_SETUP, s, Setup(tuple(sorted(CARDS.items())), MIRRORS[:3], 0))
    bad_cards = dict(CARDS) | {"N0": BOARD.garlic}
    expect(R.RULE_SETUP, s, Setup(tuple(sorted(bad_cards.items())), MIRRORS, 0))
    two_in_one = (*MIRRORS[:3], Mirror((0, 0), "\\", "NE"))
    expect(R.RULE_SETUP, s, Setup(tuple(sorted(CARDS.items())), two_in_one, 0))
    expect(R.RULE_PHASE, s, SwapWindow("E1"))
    s = new()
    expect(R.RULE_WINDOW_SWAP, s, SwapWindow("W1"))  # already the window
    expect(R.RULE_BOX, s, TurnBox(1))  # not the masters' variant


def test_masters_may_turn_the_box_when_swapping_and_when_looking() -> None:
    s = new(masters=True)
    s = ENGINE.apply(s, TurnBox(1))
    assert s.box_quarter_turns == 1
    expect(R.RULE_BOX, s, TurnBox(1))  # once per step
    s = to_swaps(s)
    expect(R.RULE_BOX, s, TurnBox(1))  # not while swapping
    s = ENGINE.apply(ENGINE.apply(s, TO_S2), EndSwaps())
    s = ENGINE.apply(s, TurnBox(3))
    assert s.box_quarter_turns == 0
    # The engine keeps board coordinates: turning the box changes no light path.
    assert ENGINE.prediction(s).seen == "S2"
    assert BOARD.position_on_table("S2", 1) == "W2"


# --- random play with every variant -------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (3, {"door": True, "masters": True}),
        (4, {"two_sided": True, "no_peeking": [1]}),
        (2, {"door": True, "two_sided": True, "max_turns": 6}),
    ],
)
def test_random_playouts_of_every_variant_conform(players: int, options: dict) -> None:
    report = check_engine(ENGINE, players, games=1, seed=players, options=options)
    assert report.actions > 20 and report.illegal_checked > 0


def test_guesses_never_reach_another_seat_in_random_play() -> None:
    rng = random.Random(11)
    checked = 0
    for _ in range(2):
        s = ENGINE.new_game(4, {"max_turns": 10})
        while not ENGINE.is_terminal(s):
            if s.phase == R.GUESS:
                for seat in range(4):
                    for entry in ENGINE.view(s, seat)["guesses"]:
                        assert ("jubilant" in entry) == (entry["seat"] == seat and entry["placed"])
                        checked += 1
                assert all("jubilant" not in e for e in ENGINE.view(s, None)["guesses"])
            if ENGINE.current_player(s) == CHANCE:
                s = ENGINE.apply(s, ENGINE.sample_chance(s, rng))
            else:
                s = ENGINE.apply(s, rng.choice(ENGINE.legal_actions(s)))
    assert checked > 100
