"""The final scoring, worked by hand from the rulebook's Final Scoring and Victory sections."""

from __future__ import annotations

from typing import Any

from companion.games.queen_alice.end_json import game_end_from_json
from companion.games.queen_alice.rules.final_scoring import (
    ScoringRules,
    final_score,
    load_scoring_rules,
)

RULES = ScoringRules(crown_ip=8, wishes_per_colour=2, reading="advanced_most")
WISH_A, WISH_B = {"standard": 4, "platinum": 7}, {"standard": 6, "platinum": 9}


def player(name: str, **over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "name": name,
        "track_ip": 50,
        "crowns": {"red": 2, "white": 1},
        "cats": {"red": "x1", "white": "x2"},
        "wishes": {"red": [WISH_A, WISH_B], "white": [WISH_A, WISH_B]},
        "culled_ip": [3, 2],
        "bookmarks": [5],
    }
    return base | over


def score(
    alice: dict[str, int],
    *players: dict[str, Any],
    rules: ScoringRules = RULES,
    throne: str | None = None,
) -> dict[str, Any]:
    data = {"alice": alice, "throne": throne, "players": list(players)}
    return final_score(game_end_from_json(data, rules.wishes_per_colour), rules).to_json()


def test_the_box_values_come_from_the_model() -> None:
    assert load_scoring_rules() == RULES


def test_one_alice_ahead_crowns_her_colour_and_flips_its_wishes() -> None:
    out = score(
        {"red": 9, "white": 6}, player("Cris"), player("Vera", crowns={"red": 0, "white": 3})
    )
    assert out["coronation"] == {"colour": "red", "reading": "advanced_most"}
    cris, vera = out["players"]
    # 8 IP per red Crown only; red Wishes platinum (x1: her choice, the best: 9),
    # white Wishes standard (x2: both, 4 + 6); guests 3 + 2; bookmark 5.
    assert (cris["coronation"], cris["wishes"], cris["guests"], cris["bookmarks"]) == (16, 19, 5, 5)
    assert cris["wishes_counted"] == {"red": [1], "white": [0, 1]}
    assert cris["total"] == 50 + 16 + 19 + 5 + 5
    assert vera["coronation"] == 0 and out["winners"] == ["Cris"]


def test_tied_alices_count_every_crown_and_flip_nothing() -> None:
    out = score({"red": 7, "white": 7}, player("Cris"), player("Vera"))
    assert out["coronation"]["colour"] is None
    cris = out["players"][0]
    assert cris["coronation"] == 8 * 3
    assert cris["wishes"] == 6 + (4 + 6)  # standard sides only


def test_cat_levels_below_x1_score_no_wish() -> None:
    out = score(
        {"red": 2, "white": 5},
        player("Cris", cats={"red": "none", "white": "none"}),
        player("Vera", cats={"red": "none", "white": "x1"}),
    )
    assert out["players"][0]["wishes"] == 0
    assert out["players"][1]["wishes"] == 9  # white crowned: the best white Wish, platinum


def test_a_tie_shares_the_victory() -> None:
    out = score(
        {"red": 3, "white": 1}, player("Cris"), player("Vera"), player("Kortes", track_ip=10)
    )
    assert out["winners"] == ["Cris", "Vera"]


def test_throne_first_reading_crowns_the_throne_colour() -> None:
    throne = ScoringRules(8, 2, "throne_first")
    p = player("Cris")
    assert (
        score({"red": 9, "white": 6}, p, p | {"name": "V"}, rules=throne, throne="white")[
            "coronation"
        ]["colour"]
        == "white"
    )
    # Nobody reached the Throne: the colour that advanced most is crowned.
    assert (
        score({"red": 9, "white": 6}, p, p | {"name": "V"}, rules=throne)["coronation"]["colour"]
        == "red"
    )
    assert (
        score({"red": 9, "white": 6}, p, p | {"name": "V"}, throne="white")["coronation"]["colour"]
        == "red"
    )  # default reading
