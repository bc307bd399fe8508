"""Live Flowers: the supply and the permanent benefits.

The rulebook (Hearts): planting on a Live Flower, "take that flower from the supply";
"Live Flowers ... grant you permanent benefits during the game." Its appendix of benefits is
missing, so each test gives the flowers the benefits it checks (flowers.toml holds
placeholders), on an engine built with them.
"""

from __future__ import annotations

import random
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from companion.errors import UserError
from companion.games.base import CHANCE
from companion.games.queen_alice.rules import ENGINE as E
from companion.games.queen_alice.rules import QueenAliceEngine
from companion.games.queen_alice.rules.actions import Act, Pass, PlayMove, PlayRescue, Take
from companion.games.queen_alice.rules.board import Piece
from companion.games.queen_alice.rules.components import (
    FlowerBenefit,
    Reward,
    load_components,
)
from companion.games.queen_alice.rules.economy import FREE, Pay
from companion.games.queen_alice.rules.rewards import needs_choice
from companion.games.queen_alice.rules.state import State, Task, Turn, evolve
from companion.paths import models_dir
from tests.games.queen_alice.helpers import COMP, card_for, finish_choices, playing, started

BENEFITS = {
    "yellow": FlowerBenefit("rest", Reward(time=1)),
    "pink": FlowerBenefit("hearts", Reward(ip=1)),
    "blue": FlowerBenefit("capture", Reward(resource=1)),
    "violet": FlowerBenefit(hand_size=1),
}


def engine(stacking: str = "per_colour") -> QueenAliceEngine:
    return QueenAliceEngine(
        components=evolve(COMP, flowers=BENEFITS, flower_stacking=stacking, flower_supply=8)
    )


def acting(colour: str, column: str, **me: object) -> State:
    state = replace(started(2), phase="act", turn=Turn(colour=colour, column=column))
    return state.with_me(**me)


def test_a_flower_planted_on_comes_from_the_supply_and_none_when_it_is_empty() -> None:
    assert COMP.flower_supply == 8  # the rulebook: 32 Live Flowers (8 of each)
    yellow = list(COMP.flowers).index("yellow")
    assert COMP.garden["red"][0][0].flower == "yellow"
    state = acting("red", "hearts", cake=1)
    after = finish_choices(E.apply(state, Act("hearts", (0, 0), Pay(cake=1))))
    assert after.people[0].flowers == ("yellow",)
    assert after.flowers_left[yellow] == state.flowers_left[yellow] - 1 == 7
    empty = replace(state, flowers_left=tuple(0 for _ in state.flowers_left))
    after = finish_choices(E.apply(empty, Act("hearts", (0, 0), Pay(cake=1))))
    assert after.people[0].flowers == () and after.flowers_left[yellow] == 0


def test_an_action_flower_gives_after_the_action_and_on_the_repeat_not_on_a_mini() -> None:
    f = engine()
    plain = finish_choices(
        f.apply(acting("red", "hearts", cake=2), Act("hearts", (1, 1), Pay(cake=1)))
    )
    state = acting("red", "hearts", cake=2, flowers=("pink",))
    once = finish_choices(f.apply(state, Act("hearts", (1, 1), Pay(cake=1))))
    assert once.people[0].ip == plain.people[0].ip + 1
    mini = replace(started(2), phase="act", pending=(Task("mini"),)).with_me(flowers=("pink",))
    after = f.apply(mini, Act("hearts", (0,), FREE))
    assert after.people[0].ip == COMP.hearts["red"][0].reward.ip  # the token's reward only


def test_a_capture_flower_gives_its_reward_on_a_capture() -> None:
    f = engine()
    rook = card_for("red", "rook")
    pieces = (Piece("red", "rook", (2, 0)), Piece("white", "pawn", (2, 3)))
    state = playing((rook, rook), pieces, flowers=("blue",))
    after = f.apply(state, PlayMove(rook, 0, (2, 3)))
    assert needs_choice(after) and after.pending[0].kind == "resource"
    after = f.apply(after, Take("cake"))
    assert after.me.cake == 1 and after.me.jail == (("white", "pawn"),)
    without = f.apply(playing((rook, rook), pieces), PlayMove(rook, 0, (2, 3)))
    assert not needs_choice(without)


def test_a_rest_flower_gives_before_the_draw() -> None:
    f = engine()
    state = acting("red", "hearts", flowers=("yellow",))
    state = state.with_me(hand=state.me.hand[:1])
    after = f.apply(state, Pass())  # "gain 2 Time and Rest"
    assert after.people[0].time == COMP.decline_time + 1
    assert f.current_player(after) == CHANCE  # then the draw


def test_a_hand_size_flower_draws_one_card_more_at_rest() -> None:
    f = engine()
    state = acting("red", "hearts", flowers=("violet",))
    state = state.with_me(hand=state.me.hand[:1])
    assert f.hand_size(state, 0) == COMP.hand_size + 1
    state = f.apply(state, Pass())
    while f.current_player(state) == CHANCE:
        state = f.apply(state, f.sample_chance(state, random.Random(1)))
    assert len(state.people[0].hand) == COMP.hand_size + 1 and state.seat == 1


def test_stacking_per_colour_counts_a_colour_once_per_flower_each() -> None:
    twice = ("pink", "pink")
    for stacking, extra in (("per_colour", 1), ("per_flower", 2)):
        f = engine(stacking)
        base = finish_choices(
            f.apply(acting("red", "hearts", cake=1), Act("hearts", (1, 1), Pay(cake=1)))
        )
        state = acting("red", "hearts", cake=1, flowers=twice)
        after = finish_choices(f.apply(state, Act("hearts", (1, 1), Pay(cake=1))))
        assert after.people[0].ip == base.people[0].ip + extra, stacking


def test_a_flower_the_models_do_not_list_is_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "queen-alice"
    shutil.copytree(models_dir() / "queen-alice", folder)
    actions = folder / "actions.toml"
    actions.write_text(actions.read_text().replace('flower = "yellow"', 'flower = "mauve"', 1))
    with pytest.raises(UserError, match="no Live Flower 'mauve'"):
        load_components(folder)
    shutil.copy(models_dir() / "queen-alice" / "actions.toml", actions)
    flowers = folder / "flowers.toml"
    flowers.write_text(flowers.read_text().replace('when = "rest"', 'when = "dusk"'))
    with pytest.raises(UserError, match="when must be one of"):
        load_components(folder)


def test_a_rescue_flower_gives_on_a_rescue_in_the_rescued_pieces_colour() -> None:
    f = QueenAliceEngine(
        components=evolve(
            COMP, flowers={**BENEFITS, "blue": FlowerBenefit("rescue", Reward(pawprint=1))}
        )
    )
    pawn = card_for("red", "pawn")
    state = playing((pawn, pawn), (Piece("white", "king", (7, 8)),), flowers=("blue",))
    state = state.with_player(1, replace(state.people[1], jail=(("red", "pawn"),)))
    rescue = next(a for a in f.legal_actions(state) if isinstance(a, PlayRescue))
    after = finish_choices(f.apply(state, rescue))
    # "The person who had it in its jail gains 1 Time"; the flower: a red pawprint.
    assert after.people[1].time == 1 and after.people[0].cats == (1, 0)


def test_a_discount_flower_lets_a_resource_off_every_time_the_repeat_too() -> None:
    # Unlike a card's discount ("applied only once per turn"), a flower's is permanent.
    f = QueenAliceEngine(
        components=evolve(
            COMP, flowers={**BENEFITS, "blue": FlowerBenefit(discount=1, action="hearts")}
        )
    )
    state = acting("red", "hearts", time=6, flowers=("blue",))
    first = [a for a in f.legal_actions(state) if isinstance(a, Act)]
    assert first and all(a.pay == Pay() for a in first)  # 1 Cake, let off
    state = finish_choices(f.apply(state, first[0]))
    assert state.phase == "repeat"
    again = [a for a in f.legal_actions(state) if isinstance(a, Act)]
    assert again and all(a.pay == Pay() for a in again)  # the second Heart's 1 Cake too
    assert not [
        a for a in f.legal_actions(acting("red", "spades", flowers=("blue",))) if isinstance(a, Act)
    ]
