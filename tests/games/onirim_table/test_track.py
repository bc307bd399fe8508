"""The tracker alone (pure, no camera): the engine explains each table change, and what it
cannot explain is named by the engine's own refusal."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.actions import Pair, Play
from companion.games.onirim.rules.state import OnirimState, evolve
from companion.games.onirim.table.follow import follow, script_actions
from companion.games.onirim.table.track import MirrorLie, Table, explain, table_of
from companion.games.onirim.vision.film import script_game
from tests.games.onirim_table.helpers import WINDOW, film_observer


def _turn(hand: list[str], **changes: object) -> OnirimState:
    start = ENGINE.new_game(1, {"mirrors": True})
    return evolve(start, hand=tuple(sorted(hand)), phase="turn", **changes)


def _green_sun_turn() -> OnirimState:
    """A turn after a green Sun with a blue Sun in hand: the symbol rule's trap."""
    return _turn(
        ["red-sun", "blue-sun", "green-key", "brown-moon", "red-key"], labyrinth=("green-sun",)
    )


def _blue_sun_after_green_sun() -> tuple[OnirimState, Table, Table]:
    """That turn, the table as it is, and the table with the blue Sun laid (or misread)."""
    state = _green_sun_turn()
    seen = table_of(state, WINDOW)
    wrong = type(seen)(("green-sun", "blue-sun"), seen.doors, seen.mirrors, seen.discard_top)
    return state, seen, wrong


def _with_under(state: OnirimState, mirror: str, cards: tuple[str, ...]) -> tuple[MirrorLie, ...]:
    return tuple(
        MirrorLie(m.mirror, m.explored, cards if m.mirror == mirror else m.under)
        for m in table_of(state, WINDOW).mirrors
    )


def _unmatched_pair_under_the_sun() -> tuple[OnirimState, Table, Table]:
    """A turn, the table as it is, and the table with a blue Moon and a red Sun under the
    Sun Mirror: a pair it refuses, the blue Moon being no Sun."""
    state = _turn(["red-sun", "blue-moon", "green-key", "brown-moon", "red-key"])
    seen = table_of(state, WINDOW)
    wrong = type(seen)(
        seen.labyrinth,
        seen.doors,
        _with_under(state, "sun", ("blue-moon", "red-sun")),
        seen.discard_top,
    )
    return state, seen, wrong


def test_a_pair_that_does_not_match_its_mirror_is_named_by_the_engine() -> None:
    state, _, wrong = _unmatched_pair_under_the_sun()
    found = explain(ENGINE, state, wrong, WINDOW)
    assert found.action is None and found.breach is not None
    assert "Sun Mirror" in found.breach.rule


def test_one_card_alone_under_a_mirror_is_waited_for_then_asked() -> None:
    """A pair is laid in two motions: one card alone is waited out; if it stays alone, the
    player is asked which pair it was (the legal pairs with that card), never flagged."""
    from companion.games.onirim.table.live import HIDDEN_FRAMES, PUT_BACK, OnirimTable
    from companion.live.table_game import Observation
    from companion.store import Session

    state = _turn(["red-sun", "blue-sun", "green-key", "brown-moon", "red-key"])
    seen = table_of(state, WINDOW)
    one = type(seen)(
        seen.labyrinth, seen.doors, _with_under(state, "sun", ("red-sun",)), seen.discard_top
    )
    found = explain(ENGINE, state, one, WINDOW)
    assert found.hidden and found.breach is None
    game = OnirimTable(None, Session(1, "onirim", {}, ["player"], 0.0))
    game.state = state
    drafts = []
    for i in range(HIDDEN_FRAMES + 3):
        drafts += game.update(Observation(one.to_json() | {"located": True}, 1.0), i)
        if i == HIDDEN_FRAMES - 2:
            assert not [d for d in drafts if d.kind == "question"]
    assert not [d for d in drafts if d.kind == "onirim.breach"]
    (asked,) = [d for d in drafts if d.kind == "question"]
    values = [c["value"] for c in asked.payload["choices"]]
    assert values == [{"type": "pair", "mirror": "sun", "cards": ["blue-sun", "red-sun"]}, PUT_BACK]


def test_one_card_alone_no_pair_holds_is_asked_and_a_breach_only_on_the_players_word() -> None:
    """A card lying alone under a Mirror for long that no legal pair holds, whether the hand
    holds it or not: the camera misreading the fan is far likelier than a card laid alone,
    so the player is asked, never flagged; answering that it was laid alone books the
    breach, answering that the table lies as the game has it books nothing."""
    from companion.games.onirim.table.live import HIDDEN_FRAMES, PLAYER, PUT_BACK
    from companion.store import Event

    state = _turn(["red-sun", "blue-moon", "green-key", "brown-moon", "red-key"])
    seen = table_of(state, WINDOW)
    for lone in ("blue-sun", "red-sun"):  # the hand lacks it; the hand holds it
        one = type(seen)(
            seen.labyrinth, seen.doors, _with_under(state, "sun", (lone,)), seen.discard_top
        )
        for answer, breaches in ((PUT_BACK, 0), ("alone:sun", 1)):
            game, drafts = _run(state, [seen] * 4 + [one] * (HIDDEN_FRAMES + 6))
            assert not [d for d in drafts if d.kind == "onirim.breach"]
            (asked,) = [d.payload for d in drafts if d.kind == "question"]
            assert "the Sun Mirror" in asked["text"]
            assert [c["value"] for c in asked["choices"]] == [PUT_BACK, "alone:sun"]
            out = game.correct({"question": asked["id"], "answer": answer}, PLAYER)
            for n, d in enumerate(out, len(drafts) + 1):
                game.apply_event(Event("1", n, 0.0, d.kind, d.payload, d.visibility))
            assert len(game.breaches) == breaches and game.state == state
            if breaches:
                assert game.breaches[0]["rule"] == "cards go under a Mirror two at a time"


def test_one_card_alone_with_another_change_is_asked_with_the_laid_alone_answer() -> None:
    """One card read alone under a Mirror while another place reads otherwise too (so it is
    no pair half laid): the engine's "two at a time" is how a fan misread looks, so the
    player is asked, offered to say they laid it alone; nothing is flagged or booked."""
    from companion.games.onirim.table.live import PUT_BACK

    state = _turn(["red-sun", "blue-moon", "green-key", "brown-moon", "red-key"])
    seen = table_of(state, WINDOW)
    odd = type(seen)(
        seen.labyrinth, seen.doors, _with_under(state, "red", ("blue-key",)), "green-key"
    )
    found = explain(ENGINE, state, odd, WINDOW)
    assert found.breach is None and found.action is None
    assert found.misread and found.alone == "red" and "the Red Mirror" in found.unlike
    game, drafts = _run(state, [seen] * 4 + [odd] * 8)
    assert not [d for d in drafts if d.kind == "onirim.breach"] and game.state == state
    (asked,) = [d.payload for d in drafts if d.kind == "question"]
    assert [c["value"] for c in asked["choices"]] == [PUT_BACK, "alone:red"]


def test_a_card_the_camera_cannot_name_is_asked_with_the_plays_that_fit() -> None:
    """A new card that cannot be named: the player is asked, offered the plays the cards
    named and the hand leave (never guessed, even when one fits); an unnamed place just
    past the last card (its body over the next corner) does not stop the play being booked."""
    from companion.games.onirim.table.live import PUT_BACK, OnirimTable
    from companion.live.table_game import Observation
    from companion.store import Session

    hand = ["red-sun", "blue-sun", "green-key", "brown-moon", "red-key"]

    def frames(table: dict[str, object]) -> list[object]:
        game = OnirimTable(None, Session(1, "onirim", {}, ["player"], 0.0))
        game.state = _turn(hand)
        out = game.update(Observation(base | {"located": True}, 1.0), 0)  # the place empty
        for i in range(1, 5):
            out += game.update(Observation(table | {"located": True}, 0.5), i)
        return out

    base = table_of(_turn(hand), WINDOW).to_json()
    half = {"under": ["blue-sun", None]}
    fan = [m | half if m["mirror"] == "sun" else m for m in base["mirrors"]]
    out = frames(base | {"mirrors": fan})
    (asked,) = [d for d in out if d.kind == "question"]
    assert not [d for d in out if d.kind in ("onirim.action", "onirim.breach")]
    pair = {"type": "pair", "mirror": "sun", "cards": ["blue-sun", "red-sun"]}
    assert [c["value"] for c in asked.payload["choices"]] == [pair, PUT_BACK]
    out = frames(base | {"labyrinth": [None]})
    (asked,) = [d for d in out if d.kind == "question"]
    assert {"type": "play", "card": "red-sun"} in [c["value"] for c in asked.payload["choices"]]
    out = frames(base | {"labyrinth": ["brown-moon", None]})
    booked = [d.payload["action"] for d in out if d.kind == "onirim.action"]
    assert booked and all(a == {"type": "play", "card": "brown-moon"} for a in booked)
    assert not [d for d in out if d.kind in ("question", "onirim.breach")]


def test_a_matching_pair_is_booked_and_a_fourth_card_explores() -> None:
    state = _turn(["red-sun", "blue-sun", "green-sun", "brown-sun", "red-key"])
    seen = table_of(state, WINDOW)
    laid = type(seen)(
        seen.labyrinth,
        seen.doors,
        _with_under(state, "sun", ("blue-sun", "red-sun")),
        seen.discard_top,
    )
    found = explain(ENGINE, state, laid, WINDOW)
    assert found.action == Pair("sun", ("blue-sun", "red-sun"))
    after = evolve(
        ENGINE.apply(state, found.action),
        phase="turn",
        hand=("brown-sun", "green-sun", "red-key", "red-moon", "red-moon"),
    )
    explored = ENGINE.apply(after, Pair("sun", ("brown-sun", "green-sun")))
    assert explored.explored[explored.in_game.index("sun")]
    # Laid but not flipped yet: the engine has booked it, the table is only behind.
    unflipped = type(seen)(
        seen.labyrinth,
        seen.doors,
        _with_under(after, "sun", ("blue-sun", "red-sun", "brown-sun")),
        seen.discard_top,
    )
    found = explain(ENGINE, after, table_of(explored, WINDOW), WINDOW)
    assert found.action == Pair("sun", ("brown-sun", "green-sun"))
    behind = explain(ENGINE, explored, unflipped, WINDOW)
    assert behind.breach is None and behind.lag is not None
    assert behind.lag.unflipped == ("sun",)


def test_the_symbol_rule_is_a_breach() -> None:
    state, _, wrong = _blue_sun_after_green_sun()
    breach = explain(ENGINE, state, wrong, WINDOW).breach
    assert breach is not None and "symbol" in breach.rule


def test_25_scripted_films_are_followed_to_the_end_with_no_false_event() -> None:
    """The sim films are legal by construction; read by a perfect camera, the table books
    every action of each game, in order, and raises nothing."""
    for seed in range(25):
        script = script_game(seed)
        observe, frames = film_observer(script)
        followed = follow(script, observe, frames)
        assert followed.booked() == script_actions(script), seed
        assert not followed.breaches and not followed.questions and not followed.refused_taps
        assert followed.game.state.phase == "over", seed


def test_cards_hidden_under_a_resting_hand_are_waited_out_not_flagged() -> None:
    state = _turn(
        ["red-sun", "blue-sun", "green-key", "brown-moon", "red-key"],
        labyrinth=("green-sun", "red-moon", "blue-key"),
    )
    seen = table_of(state, WINDOW)
    covered = type(seen)(seen.labyrinth[:1], seen.doors, seen.mirrors[1:], seen.discard_top)
    found = explain(ENGINE, state, covered, WINDOW)
    assert found.hidden and found.breach is None and found.action is None


def test_a_card_read_as_one_not_in_the_hand_is_asked_with_the_plays_one_card_away() -> None:
    """The camera reads the new card as one the hand does not hold: a misread, not a breach;
    the plays whose table is one card away are the choices."""
    state = _turn(["red-sun", "blue-moon", "green-key", "brown-moon", "red-key"])
    seen = table_of(state, WINDOW)
    misread = type(seen)(("brown-sun",), seen.doors, seen.mirrors, seen.discard_top)
    found = explain(ENGINE, state, misread, WINDOW)
    assert found.breach is None and found.misread
    hand = ("red-sun", "blue-moon", "green-key", "brown-moon", "red-key")
    assert set(found.choices) == {Play(card) for card in hand}  # any play, read as brown-sun


def test_a_laid_card_read_as_another_does_not_stop_the_next_play() -> None:
    """One laid card misread for good: the game's card stands, and the next play is booked."""
    state = _turn(
        ["red-sun", "blue-sun", "green-key", "brown-moon", "red-key"],
        labyrinth=("green-sun", "red-moon"),
    )
    seen = table_of(state, WINDOW)
    wrong = type(seen)(("green-moon", "red-moon"), seen.doors, seen.mirrors, seen.discard_top)
    still = explain(ENGINE, state, wrong, WINDOW)
    assert still.misread and still.breach is None and still.action is None and not still.choices
    played = type(seen)(
        ("green-moon", "red-moon", "red-sun"), seen.doors, seen.mirrors, seen.discard_top
    )
    assert explain(ENGINE, state, played, WINDOW).action == Play("red-sun")


def test_a_fan_read_short_does_not_hide_the_next_play() -> None:
    """The second card of a Mirror's fan read as an empty place: the next play is seen."""
    state = _green_sun_turn()
    state = evolve(state, under=tuple(("blue-moon", "red-moon") for _ in state.in_game))
    seen = table_of(state, WINDOW)
    short = tuple(
        MirrorLie(m.mirror, m.explored, m.under[:1] if k == 0 else m.under)
        for k, m in enumerate(seen.mirrors)
    )
    played = type(seen)(("green-sun", "red-key"), seen.doors, short, seen.discard_top)
    assert explain(ENGINE, state, played, WINDOW).action == Play("red-key")


def test_plays_booked_since_the_last_agreed_reading_are_not_seen_again() -> None:
    """The last reading the game agreed with is older than plays the game booked since (on
    the player's answers or taps). A row as long as the game's, its last card misread as a
    card of the hand, is no new play; nor is a fan that holds the pair booked since, read
    with a steady misreading of the row, while the hand holds the same two kinds again."""
    hand = ["red-sun", "red-moon", "blue-moon", "blue-sun", "brown-key"]
    state = _turn(hand, labyrinth=("green-sun", "red-moon", "blue-key", "green-moon"))
    fans = tuple(("red-moon", "blue-moon") if m == "moon" else () for m in state.in_game)
    state = evolve(state, under=fans)
    want = table_of(state, WINDOW)
    misread = replace(want, labyrinth=(*want.labyrinth[:3], "red-sun"))
    row_base = replace(want, labyrinth=want.labyrinth[:2])
    steady = replace(want, labyrinth=("brown-sun", *want.labyrinth[1:]))
    fan_base = replace(steady, mirrors=_with_under(state, "moon", ()))
    for seen, base in ((misread, row_base), (steady, fan_base)):
        found = explain(ENGINE, state, seen, WINDOW, base)
        assert found.action is None and found.breach is None and not found.choices, seen


def test_a_fan_read_short_is_no_pair_that_would_explore_its_mirror() -> None:
    """Two cards under the Moon Mirror, the second read as an empty place, and the hand holds
    the one pair that would explore it: nothing was played (the game's own table, one card
    unseen), so nothing is booked, whatever the last reading the game agreed with."""
    state = _turn(["green-moon", "green-moon", "red-sun", "blue-key", "brown-sun"])
    fans = tuple(("brown-moon", "green-moon") if m == "moon" else () for m in state.in_game)
    state = evolve(state, under=fans)
    want = table_of(state, WINDOW)
    short = type(want)(
        want.labyrinth,
        want.doors,
        _with_under(state, "moon", ("brown-moon",)),
        want.discard_top,
    )
    for base in (None, want, short):
        found = explain(ENGINE, state, short, WINDOW, base)
        assert found.action is None and found.breach is None and not found.choices, base


def test_a_row_read_unlike_the_games_keeps_the_games_and_asks_once() -> None:
    """Two cards in the row no play lays (neither in the hand, the row was empty): nothing
    the rules forbid is seen, so the game's row stands and the player is asked once whether
    the table lies so; nothing is flagged or booked."""
    from companion.games.onirim.table.live import PUT_BACK

    state = _turn(["red-sun", "blue-moon", "green-key", "brown-moon", "red-key"])
    seen = table_of(state, WINDOW)
    twice = type(seen)(("brown-sun", "green-sun"), seen.doors, seen.mirrors, seen.discard_top)
    found = explain(ENGINE, state, twice, WINDOW)
    assert found.breach is None and not found.choices and found.action is None
    assert found.misread and found.unlike == ("the labyrinth",)
    state = _turn(
        ["red-sun", "blue-moon", "green-key", "brown-moon", "red-key"],
        labyrinth=("green-sun", "red-moon"),
    )
    seen = table_of(state, WINDOW)
    swapped = type(seen)(("red-moon", "green-sun"), seen.doors, seen.mirrors, seen.discard_top)
    game, drafts = _run(state, [seen] * 4 + [swapped] * 20)
    (asked,) = [d for d in drafts if d.kind == "question"]
    assert "the labyrinth" in asked.payload["text"]
    assert [c["value"] for c in asked.payload["choices"]] == [PUT_BACK]
    assert not [d for d in drafts if d.kind in ("onirim.breach", "onirim.action")]
    assert game.state == state


def _run(state: OnirimState, tables: list[Any]) -> tuple[Any, list[Any]]:
    """The live table fed these readings, one a frame, its drafts applied as the loop does."""
    from companion.games.onirim.table.live import OnirimTable
    from companion.live.table_game import Observation
    from companion.store import Event, Session

    game = OnirimTable(None, Session("1", "onirim", {}, ["player"], 0.0))
    game.state = state
    drafts: list[Any] = []
    for i, table in enumerate(tables):
        out = game.update(Observation(table.to_json() | {"located": True}, 1.0), i)
        for n, d in enumerate(out, len(drafts) + 1):
            game.apply_event(Event("1", n, 0.0, d.kind, d.payload, d.visibility))
        drafts += out
    return game, drafts


def test_two_plays_seen_at_once_ask_about_the_first() -> None:
    """The row shows two new cards (the camera missed the first play before the next was
    laid): the player is asked about the first play, not flagged; a first card the hand does
    not hold is asked about without plays (the game's row kept)."""
    state = _turn(["red-sun", "blue-moon", "green-key", "brown-moon", "red-key"])
    seen = table_of(state, WINDOW)
    ahead = type(seen)(("blue-moon", "red-sun"), seen.doors, seen.mirrors, seen.discard_top)
    found = explain(ENGINE, state, ahead, WINDOW)
    assert found.breach is None and found.misread and found.choices == (Play("blue-moon"),)
    three = type(seen)(
        ("blue-moon", "red-sun", "green-key"), seen.doors, seen.mirrors, seen.discard_top
    )
    assert explain(ENGINE, state, three, WINDOW).choices == (Play("blue-moon"),)
    wrong = type(seen)(("brown-sun", "red-sun"), seen.doors, seen.mirrors, seen.discard_top)
    found = explain(ENGINE, state, wrong, WINDOW)
    assert found.breach is None and not found.choices and found.unlike == ("the labyrinth",)


def test_the_player_is_asked_and_the_answer_books_the_play() -> None:
    from companion.games.onirim.table.live import ASK_AFTER_FRAMES, PUT_BACK, OnirimTable
    from companion.live.table_game import Observation
    from companion.store import Event, Session

    state = _turn(["red-sun", "blue-moon", "green-key", "brown-moon", "red-key"])
    seen = table_of(state, WINDOW)
    misread = type(seen)(("brown-sun",), seen.doors, seen.mirrors, seen.discard_top)
    game = OnirimTable(None, Session("1", "onirim", {}, ["player"], 0.0))
    game.state = state
    drafts = []
    for i in range(ASK_AFTER_FRAMES + 20):
        drafts += game.update(Observation(misread.to_json() | {"located": True}, 1.0), i)
    assert not [d for d in drafts if d.kind == "onirim.breach"]
    (asked,) = [d for d in drafts if d.kind == "question"]
    values = [c["value"] for c in asked.payload["choices"]]
    assert PUT_BACK in values and {"type": "play", "card": "red-sun"} in values
    game.apply_event(Event("1", 1, 0.0, asked.kind, asked.payload, asked.visibility))
    answer = {"question": asked.payload["id"], "answer": {"type": "play", "card": "red-sun"}}
    out = game.correct(answer, 0)
    for n, d in enumerate(out, 2):
        game.apply_event(Event("1", n, 0.0, d.kind, d.payload, d.visibility))
    assert game.state.labyrinth == ("red-sun",) and not game.open_questions


def test_a_steady_misreading_is_left_out_of_the_next_play() -> None:
    """Since before the play, the camera reads a Door the game does not have and the row's
    first card as another: the play is what changed from the last agreed reading."""
    state = _green_sun_turn()
    seen = table_of(state, WINDOW)
    base = type(seen)(("green-moon",), ("red",), seen.mirrors, seen.discard_top)
    played = type(seen)(("green-moon", "red-key"), ("red",), seen.mirrors, seen.discard_top)
    alone = explain(ENGINE, state, played, WINDOW)  # no base: asked, nothing booked
    assert alone.breach is None and alone.action is None
    assert alone.unlike == ("the labyrinth", "the Doors")
    assert explain(ENGINE, state, base, WINDOW, base).misread
    assert explain(ENGINE, state, played, WINDOW, base).action == Play("red-key")


def test_after_a_question_about_a_door_not_in_the_game_the_next_play_is_booked() -> None:
    """A Door the game does not have read as a card is played breaks no rule: asked once,
    not flagged; the next play is what changed since, and is booked, not asked again."""
    state = _green_sun_turn()
    seen = table_of(state, WINDOW)
    wrong = type(seen)(("green-sun", "red-key"), ("red",), seen.mirrors, seen.discard_top)
    then = type(seen)(
        ("green-sun", "red-key", "brown-moon"), ("red",), seen.mirrors, seen.discard_top
    )
    game, drafts = _run(state, [seen] * 4 + [wrong] * 6 + [then] * 4)
    assert not [d for d in drafts if d.kind == "onirim.breach"]
    assert len([d for d in drafts if d.kind == "question"]) == 1
    assert game.state.labyrinth[-1] == "brown-moon"


def _answered(game: Any, drafts: list[Any], answer: Any) -> list[Any]:
    """The player's answer to the one question in `drafts`, its drafts applied."""
    from companion.games.onirim.table.live import PLAYER
    from companion.store import Event

    (asked,) = [d.payload for d in drafts if d.kind == "question"]
    out = game.correct({"question": asked["id"], "answer": answer}, PLAYER)
    for n, d in enumerate(out, 1000):
        game.apply_event(Event("1", n, 0.0, d.kind, d.payload, d.visibility))
    return list(out)


def _feed(game: Any, tables: list[Any]) -> list[Any]:
    """More readings for a live table (`_run`'s loop on a game already going)."""
    from companion.live.table_game import Observation
    from companion.store import Event

    drafts: list[Any] = []
    for i, table in enumerate(tables):
        out = game.update(Observation(table.to_json() | {"located": True}, 1.0), i)
        for n, d in enumerate(out, 2000 + len(drafts)):
            game.apply_event(Event("1", n, 0.0, d.kind, d.payload, d.visibility))
        drafts += out
    return drafts


def test_a_play_the_rules_forbid_seen_by_the_camera_alone_is_asked_not_flagged() -> None:
    """The camera reads a blue Sun laid after a green Sun (the symbol rule broken), the hand
    holding one: a card misread looks just the same, so nothing is flagged and the player is
    asked, offered the legal plays one card away, that they made that play, or that the table
    is put back. The engine still names the rule (`explain`), and only the player's word
    books the breach."""
    from companion.games.onirim.table.live import BROKE, PUT_BACK

    state, seen, wrong = _blue_sun_after_green_sun()
    breach = explain(ENGINE, state, wrong, WINDOW).breach
    assert breach is not None and "symbol" in breach.rule
    game, drafts = _run(state, [seen] * 4 + [wrong] * 8)
    assert not [d for d in drafts if d.kind in ("onirim.breach", "onirim.action")]
    (asked,) = [d.payload for d in drafts if d.kind == "question"]
    assert asked["seat"] == 0 and "blue-sun after green-sun" in asked["text"]
    values = [c["value"] for c in asked["choices"]]
    plays = [{"type": "play", "card": c} for c in ("brown-moon", "green-key", "red-key")]
    broke = {BROKE: breach.rule, "detail": breach.detail}
    assert sorted(values[:3], key=str) == sorted(plays, key=str)
    assert values[3:] == [broke, PUT_BACK]
    assert game.state == state and not game.breaches


def test_a_forbidden_play_the_player_confirms_is_a_breach_and_the_next_play_is_booked() -> None:
    """The player says they did lay the blue Sun after the green Sun: the breach is booked on
    their word, naming the engine's rule, the engine does not move, and the next card laid on
    it is the next play (the breach left on the table does not make every later play one)."""
    from companion.games.onirim.table.live import BROKE

    state, seen, wrong = _blue_sun_after_green_sun()
    then = type(seen)(
        ("green-sun", "blue-sun", "brown-moon"), seen.doors, seen.mirrors, seen.discard_top
    )
    game, drafts = _run(state, [seen] * 4 + [wrong] * 8)
    breach = explain(ENGINE, state, wrong, WINDOW).breach
    assert breach is not None
    out = _answered(game, drafts, {BROKE: breach.rule, "detail": breach.detail})
    assert [d.kind for d in out] == ["answer", "onirim.breach"]
    assert len(game.breaches) == 1 and "symbol" in game.breaches[0]["rule"]
    assert "the player says so" in game.breaches[0]["detail"] and game.state == state
    later = _feed(game, [wrong] * 4 + [then] * 4)
    assert not [d for d in later if d.kind in ("onirim.breach", "question")]
    assert game.state.labyrinth == ("green-sun", "brown-moon") and len(game.breaches) == 1


@pytest.mark.parametrize("answer", ["red-key", "back"])
def test_a_forbidden_play_that_was_a_misread_books_the_play_named_or_nothing(
    answer: str,
) -> None:
    """The camera read the red Key laid after a green Sun as the blue Sun (a misread that
    breaks the symbol rule): the player names the play made, which is booked, or says the
    table is put back, which books nothing; no breach either way."""
    from companion.games.onirim.table.live import PUT_BACK

    state, seen, wrong = _blue_sun_after_green_sun()
    game, drafts = _run(state, [seen] * 4 + [wrong] * 8)
    value: Any = PUT_BACK if answer == "back" else {"type": "play", "card": answer}
    out = _answered(game, drafts, value)
    assert "onirim.breach" not in [d.kind for d in out] and not game.breaches
    if answer == "back":
        assert game.state == state
    else:
        assert game.state.labyrinth == ("green-sun", "red-key")
    later = _feed(game, [wrong] * 6)  # the misread stays: nothing more
    assert not [d for d in later if d.kind in ("onirim.breach", "onirim.action")]


def test_a_pair_that_does_not_match_its_mirror_is_asked_then_flagged_on_the_players_word() -> None:
    """A pair read under the Sun Mirror that does not match it: the engine names the rule,
    the player is asked; saying they laid it so books the breach."""
    from companion.games.onirim.table.live import BROKE

    state, seen, wrong = _unmatched_pair_under_the_sun()
    game, drafts = _run(state, [seen] * 4 + [wrong] * 8)
    assert not [d for d in drafts if d.kind == "onirim.breach"]
    (asked,) = [d.payload for d in drafts if d.kind == "question"]
    (broke,) = [c["value"] for c in asked["choices"] if BROKE in c["value"]]
    assert "Sun Mirror" in broke[BROKE]
    _answered(game, drafts, broke)
    assert len(game.breaches) == 1 and "Sun Mirror" in game.breaches[0]["rule"]


def test_a_fourth_card_and_the_flip_are_one_play_even_ahead_of_the_effects_taps() -> None:
    """The Key Mirror's fourth card: the camera reads three cards of the fan while the effect
    is chosen, or the Mirror already flipped with its Doors laid before the tap; either is
    the pair, booked once, and nothing is flagged while the taps come."""
    state = _turn(["blue-key", "green-key", "red-sun", "brown-moon", "red-moon"])
    i = state.in_game.index("key")
    under = tuple(("red-key", "brown-key") if k == i else () for k in range(len(state.in_game)))
    state = evolve(state, under=under)
    seen = table_of(state, WINDOW)
    pair = Pair("key", ("blue-key", "green-key"))
    effect = ENGINE.apply(state, pair)
    assert effect.phase == "effect"
    fan = type(seen)(
        seen.labyrinth,
        seen.doors,
        _with_under(state, "key", ("red-key", "brown-key", "blue-key")),
        table_of(effect, WINDOW).discard_top,  # the Nightmares it discards
    )
    assert explain(ENGINE, state, fan, WINDOW).action == pair
    flipped = type(seen)(
        seen.labyrinth,
        ("red", "red"),
        tuple(MirrorLie(m.mirror, True, ()) if m.mirror == "key" else m for m in seen.mirrors),
        "green-key",
    )
    assert explain(ENGINE, state, flipped, WINDOW).action == pair
    for table in (fan, flipped):
        found = explain(ENGINE, effect, table, WINDOW)
        assert found.breach is None and found.action is None


def test_a_tap_after_a_play_the_camera_missed_asks_which_play_it_was() -> None:
    """The camera never booked a play and the player taps the card drawn after it: the tap
    is refused, and the player is asked which play it was, the one the table shows first."""
    import pytest

    from companion.games.base import IllegalAction
    from companion.games.onirim.table.live import PUT_BACK, OnirimTable
    from companion.live.table_game import Observation
    from companion.store import Session

    state = _turn(["red-sun", "blue-moon", "green-key", "brown-moon", "red-key"])
    game = OnirimTable(None, Session(1, "onirim", {}, ["player"], 0.0))
    game.state = state
    seen = table_of(state, WINDOW)
    played = type(seen)(("blue-moon",), seen.doors, seen.mirrors, seen.discard_top)
    for i in range(4):  # read while a hand rests on the played card: the game's table
        game.update(Observation(seen.to_json() | {"located": True}, 1.0), i)
    with pytest.raises(IllegalAction):
        game.correct({"kind": "drew", "cards": ["red-moon"]}, 0)
    game.tracker.stable = played
    (asked,) = [d for d in game.update(Observation({"located": False}, 0.0), 5)]
    values = [c["value"] for c in asked.payload["choices"]]
    assert values[0] == {"type": "play", "card": "blue-moon"} and PUT_BACK in values
    assert asked.payload["text"].startswith("The camera missed your play")


def test_a_draw_tapped_while_an_unnamed_card_was_answered_none_asks_the_missed_play() -> None:
    """A new card the camera cannot name is asked about and answered "none of these"; the
    reading stays unnamed and the player taps the card drawn after their play: the tap is
    refused and the player is asked which play it was, every legal play offered (the game
    would otherwise wait on the reading and refuse every draw that follows)."""
    from companion.games.base import IllegalAction
    from companion.games.onirim.table.live import PLAYER, PUT_BACK
    from companion.live.table_game import Observation
    from companion.store import Event

    state = _turn(["red-sun", "blue-moon", "green-key", "brown-moon", "red-key"])
    seen = table_of(state, WINDOW)
    game, _ = _run(state, [seen] * 4)
    unnamed = seen.to_json() | {"labyrinth": [None], "located": True}

    def frames(n: int) -> list[Any]:
        out: list[Any] = []
        for i in range(n):
            new = game.update(Observation(unnamed, 0.5), i)
            for k, d in enumerate(new, 100 + len(out)):
                game.apply_event(Event("1", k, 0.0, d.kind, d.payload, d.visibility))
            out += new
        return out

    (first,) = [d.payload for d in frames(4) if d.kind == "question"]
    out = game.correct({"question": first["id"], "answer": PUT_BACK}, PLAYER)
    for d in out:
        game.apply_event(Event("1", 90, 0.0, d.kind, d.payload, d.visibility))
    with pytest.raises(IllegalAction):
        game.correct({"kind": "drew", "cards": ["red-moon"]}, PLAYER)
    asked = [d.payload for d in frames(2) if d.kind == "question"]
    assert len(asked) == 1 and asked[0]["text"].startswith("The camera missed your play")
    plays = [c["value"] for c in asked[0]["choices"] if c["value"] != PUT_BACK]
    assert {"type": "play", "card": "blue-moon"} in plays and len(plays) >= 5


def test_a_card_is_said_as_the_player_names_it() -> None:
    from companion.games.onirim.table.live import card_words

    said = {k: card_words(k) for k in ENGINE.deck.kinds}
    assert said["red-sun"] == "the red Sun" and said["door-blue"] == "the blue Door"
    assert said["nightmare"] == "a Nightmare" and said["green-key"] == "the green Key"
    assert len(set(said.values())) == len(said) and not [w for w in said.values() if "-" in w]


def test_a_mirror_read_explored_with_nothing_under_it_is_a_misread_not_a_breach() -> None:
    """Before any play the camera reads a Mirror's explored side: only its fourth card
    explores a Mirror, so the camera misread it; nothing is flagged, and a play seen with
    the misreading is still booked. A Mirror flipped with cards under it in the game (they
    vanished) is asked, not flagged: no play explains it and no rule forbids what is seen."""
    state = _turn(["red-sun", "blue-moon", "green-key", "brown-moon", "red-key"])
    seen = table_of(state, WINDOW)
    flipped = tuple(MirrorLie(m.mirror, m.mirror == "sun", m.under) for m in seen.mirrors)
    misread = type(seen)(seen.labyrinth, seen.doors, flipped, seen.discard_top)
    found = explain(ENGINE, state, misread, WINDOW)
    assert found.breach is None and found.misread and not found.choices
    played = type(seen)(("red-sun",), seen.doors, flipped, seen.discard_top)
    assert explain(ENGINE, state, played, WINDOW).action == Play("red-sun")
    held = evolve(state, under=tuple(("blue-moon", "red-moon") for _ in state.in_game))
    laid = table_of(held, WINDOW)
    gone = tuple(MirrorLie(m.mirror, True, ()) if m.mirror == "sun" else m for m in laid.mirrors)
    vanished = type(laid)(laid.labyrinth, laid.doors, gone, laid.discard_top)
    found = explain(ENGINE, held, vanished, WINDOW)
    assert found.breach is None and found.action is None and found.unlike == ("the Sun Mirror",)


def _sun_pair_tapped(state: OnirimState, discard: tuple[str, ...]) -> OnirimState:
    """`state` once the player taps in the blue and green Suns under the Sun Mirror, which
    holds two brown Suns: the Mirror explored, its four cards put on the pile `discard`, the
    hand left with the rest (the two tests of a pile top changed by a tap build this)."""
    i = state.in_game.index("sun")
    return evolve(
        state,
        hand=tuple(c for c in state.hand if c not in ("blue-sun", "green-sun")),
        under=tuple(() for _ in state.in_game),
        explored=tuple(k == i for k in range(len(state.in_game))),
        discard=(*discard, *state.under[i], "blue-sun", "green-sun"),
    )


def test_a_pile_the_camera_did_not_read_is_no_discard_when_a_tap_changes_the_games_top() -> None:
    """The lost games' shape at 88f764c: the camera names no card on the pile while the game's
    top is a red Key (a card the hand holds too) and reads the Sun Mirror flipped before its
    pair is tapped in; the tap puts the pair's Suns on the pile. The steady reading held from
    before the tap is no discard of the red Key: the camera never read one. Nor is a red Key
    named on the pile at once (the red Key was the game's top: it may be the pile as it lay
    before the tap, the Suns not yet on it). Once the camera has named the pile as the game
    has it, a red Key named on it is a discard."""
    from companion.games.onirim.table.live import ACTION_KIND, SEEN_KIND, OnirimTable
    from companion.live.table_game import Observation
    from companion.store import Session

    hand = ["blue-sun", "green-sun", "red-sun", "red-key", "red-moon"]
    state = _turn(hand, discard=("brown-moon",))
    fans = tuple(("brown-sun", "brown-sun") if m == "sun" else () for m in state.in_game)
    state = evolve(state, under=fans)
    game = OnirimTable(None, Session("1", "onirim", {}, ["player"], 0.0))
    game.state = state

    def read(table: Table, top: str | None, flipped: bool = False) -> Observation:
        data = table.to_json() | {"located": True, "discard_top": top}
        if flipped:
            for m in data["mirrors"]:
                if m["mirror"] == "sun":
                    m["explored"], m["under"] = True, []
        return Observation(data, 1.0)

    drafts = [
        d for i in range(4) for d in game.update(read(table_of(state, WINDOW), "brown-moon"), i)
    ]
    assert [d.kind for d in drafts] == [SEEN_KIND]  # the pile read, as the game has it
    state = evolve(state, discard=("brown-moon", "red-key"))  # a tap put a red Key there
    game.state = state
    drafts = [
        d for i in range(4, 8) for d in game.update(read(table_of(state, WINDOW), None, True), i)
    ]
    assert [d.kind for d in drafts] == [SEEN_KIND]
    state = _sun_pair_tapped(state, ("brown-moon", "red-key"))
    game.state = state
    for i in range(8, 12):  # a hand over the table, then the pile still not named
        seen = (
            Observation({"located": False}, 0.0) if i < 10 else read(table_of(state, WINDOW), None)
        )
        assert not [d for d in game.update(seen, i) if d.kind == ACTION_KIND], i
    named = read(table_of(state, WINDOW), "red-key")
    assert not [d for i in range(12, 16) for d in game.update(named, i) if d.kind == ACTION_KIND]
    game_top = read(table_of(state, WINDOW), "green-sun")
    assert not [d for i in range(16, 20) for d in game.update(game_top, i) if d.kind == ACTION_KIND]
    booked = [d for i in range(20, 24) for d in game.update(named, i)]
    assert [d.payload["action"] for d in booked if d.kind == ACTION_KIND] == [
        {"type": "discard", "card": "red-key"}
    ]


def test_a_mirrors_cards_gone_from_view_are_no_pair_that_explores_it() -> None:
    """Two cards lie under the Moon Mirror and the hand holds two more Moons: a new card
    laid at the row's end that the camera cannot name, while a hand over the Mirror hides
    its two cards. The pair that would explore the Mirror lays a table the reading lags
    behind (the Mirror unflipped, the new card taken for the last card's body), yet nothing
    of it was seen: the player is asked, the pair never booked on that reading."""
    from companion.games.onirim.table.live import OnirimTable
    from companion.live.table_game import Observation
    from companion.store import Session

    start = _turn(["brown-moon", "red-moon", "green-sun", "green-sun", "blue-key"])
    moon = start.in_game.index("moon")
    under = tuple(("blue-moon", "blue-moon") if i == moon else u for i, u in enumerate(start.under))
    state = evolve(start, labyrinth=("red-sun", "brown-sun"), under=under)
    assert ENGINE.apply(state, Pair("moon", ("brown-moon", "red-moon"))).explored[moon]
    base = table_of(state, WINDOW).to_json()
    hidden = [m | {"under": []} if m["mirror"] == "moon" else m for m in base["mirrors"]]
    reading = base | {"labyrinth": [*base["labyrinth"], None], "mirrors": hidden}
    game = OnirimTable(None, Session("1", "onirim", {}, ["player"], 0.0))
    game.state = state
    out = game.update(Observation(base | {"located": True}, 1.0), 0)
    for i in range(1, 8):
        out += game.update(Observation(reading | {"located": True}, 0.5), i)
    assert not [d for d in out if d.kind in ("onirim.action", "onirim.breach")]
    assert [d for d in out if d.kind == "question"]


def test_a_top_named_before_a_tap_changed_the_games_top_is_no_discard_after_it() -> None:
    """The camera names a red Key on the pile (the game's top; the hand holds another). The
    player flips the Sun Mirror and taps its pair in before moving its four cards onto the
    pile: the game's top is a green Sun while the pile still shows the red Key, named, with
    a hand at the row's end (an unnamed card there is taken for the last card's body). The
    red Key lay there before the tap: no discard of it. Once the camera has named the pile
    as the game has it, a red Key named on it is a discard again."""
    from companion.games.onirim.table.live import ACTION_KIND, SEEN_KIND, OnirimTable
    from companion.live.table_game import Observation
    from companion.store import Session

    hand = ["blue-sun", "green-sun", "red-sun", "red-key", "red-moon"]
    state = _turn(hand, discard=("brown-moon", "red-key"))
    fans = tuple(("brown-sun", "brown-sun") if m == "sun" else () for m in state.in_game)
    state = evolve(state, under=fans)
    game = OnirimTable(None, Session("1", "onirim", {}, ["player"], 0.0))
    game.state = state

    def booked(s: OnirimState, top: str | None, frames: range, row: Any = ()) -> list[Any]:
        data = table_of(s, WINDOW).to_json() | {"located": True, "discard_top": top}
        data["labyrinth"] = list(row)
        out = [d for i in frames for d in game.update(Observation(data, 1.0), i)]
        return [d.payload["action"] for d in out if d.kind == ACTION_KIND]

    first = [d for i in range(4) for d in game.update(seen_of(state, "red-key"), i)]
    assert [d.kind for d in first] == [SEEN_KIND]
    state = _sun_pair_tapped(state, state.discard)
    game.state = state
    assert booked(state, "red-key", range(4, 10), [None]) == []  # the cards not moved yet
    assert booked(state, None, range(10, 14)) == []
    assert booked(state, "green-sun", range(14, 18)) == []  # the pile named as the game has it
    again = booked(state, "red-key", range(18, 22), [None])  # not applied: booked each frame
    assert again and all(a == {"type": "discard", "card": "red-key"} for a in again)


def seen_of(state: OnirimState, top: str) -> Any:
    """A perfect camera's reading of `state`'s table with `top` named on the pile."""
    from companion.live.table_game import Observation

    return Observation(table_of(state, WINDOW).to_json() | {"located": True, "discard_top": top}, 1)
