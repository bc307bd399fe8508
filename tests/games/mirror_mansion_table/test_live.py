"""Mirror Mansion as a table game: set-up, window swap, swaps, guesses, look, breaches."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

import cv2
import numpy as np
import pytest

from companion.camera import Frame
from companion.errors import UserError
from companion.games.base import IllegalAction
from companion.games.mirror_mansion.table.live import MirrorMansionTable, make_table_game
from companion.games.mirror_mansion.table.messages import (
    Answer,
    BoxObservation,
    CallGuesses,
    EnterCards,
    EnterGuess,
    EnterRoll,
    NameMotif,
    RequestHint,
    TableIsRight,
    TakeLook,
    parse,
)
from companion.games.mirror_mansion.vision.scene import BoxState, MirrorSeen
from companion.live.conformance import Correct, Observe, check_table_game, play
from companion.live.table_game import Observation, TableGame
from tests.games.mirror_mansion_table.helpers import (
    CARDS,
    START,
    frames_of,
    new_session,
    to_the_guesses,
    with_moves,
)


def _first_turn() -> list[Any]:
    """Seat 0: window W1 -> W0 (row 0), die, turn the mirror at [0,0], call, look."""
    w0 = with_moves(START, "W0")
    turned = with_moves(w0, c00=MirrorSeen((0, 0), "/", "SE"))
    return [
        Correct(EnterCards(cards=CARDS)),
        *frames_of(START),
        *frames_of(w0),
        Correct(EnterRoll(value=1), 0),
        *frames_of(turned),
        Correct(CallGuesses(), 0),
        Correct(TakeLook(), 0),
    ]


def test_a_first_turn_is_played_from_the_camera_and_replays_identically() -> None:
    events = check_table_game(make_table_game, None, new_session(), _first_turn())
    kinds = [e.kind for e in events]
    assert "mm.breach" not in kinds
    game, _ = play(make_table_game, None, new_session(), _first_turn())
    assert isinstance(game, TableGame)
    v = game.view(None)
    assert v["turn"] == 1 and v["phase"] == "window"  # seat 1's turn begins
    look = v["looks"][-1]
    assert look["seat"] == 0 and look["path"] and "drops" in look
    assert v["last_turn"]["look"] is not None
    assert "prediction" not in v


def test_guesses_stay_private_until_all_have_guessed() -> None:
    """Three seats: after the first round, seats 1 and 2 guess on seat 0's turn."""
    steps = to_the_guesses()
    game, _ = play(make_table_game, None, new_session(), steps)
    assert game.view(None)["phase"] == "guess"
    assert game.view(1)["guesses"][1]["jubilant"] is True
    assert "jubilant" not in game.view(2)["guesses"][1]
    assert "jubilant" not in game.view(None)["guesses"][1]
    assert game.view(2)["guesses"][1]["placed"] is True
    steps += [Correct(EnterGuess(jubilant=False), 2), Correct(TakeLook(), 0)]
    check_table_game(make_table_game, None, new_session(), steps)
    game, _ = play(make_table_game, None, new_session(), steps)
    look = game.view(None)["looks"][-1]
    assert look["guesses"] == [None, True, False]
    assert look["right"] == ([1] if look["found"] else [2])
    assert look["drops"][1] == (1 if look["found"] else 0)


def test_a_fourth_swap_is_flagged_at_once_and_the_call_is_refused() -> None:
    w0 = with_moves(START, "W0")
    four = BoxState(
        tuple(
            MirrorSeen(m.cell, m.slot, {"NW": "SE", "SE": "NW", "NE": "SW", "SW": "NE"}[m.facing])
            for m in w0.mirrors
        ),
        "W0",
    )
    steps = [
        Correct(EnterCards(cards=CARDS)),
        *frames_of(START),
        *frames_of(w0),
        Correct(EnterRoll(value=1), 0),
        *frames_of(four),
    ]
    game, events = play(make_table_game, None, new_session(), steps)
    breaches = [e.payload for e in events if e.kind == "mm.breach"]
    assert breaches and "three" in breaches[0]["rule"]
    assert game.view(None)["breaches"]
    with pytest.raises(IllegalAction):
        game.correct(CallGuesses(), 0)


def test_hands_and_a_lifted_mirror_make_no_event() -> None:
    lifted = BoxState(START.mirrors[1:], START.window)
    hidden = with_moves(START, c11=MirrorSeen((1, 1), "\\", None, 0.1))
    blind = Observe(Observation(BoxObservation(box=BoxState(seen=False)), 0.0))
    steps = [Correct(EnterCards(cards=CARDS)), *frames_of(START)]
    steps += [Observe(Observation(BoxObservation(box=lifted), 0.9))] * 3
    steps += [Observe(Observation(BoxObservation(box=hidden), 0.3))] * 3
    steps += [blind] * 3 + frames_of(START)
    _, events = play(make_table_game, None, new_session(), steps)
    assert [e.kind for e in events].count("mm.seen") == 1
    assert not [
        e
        for e in events
        if e.kind in ("mm.breach", "mm.action")
        and e.payload.get("action", {}).get("type") != "setup"
    ]


def test_an_unseen_facing_becomes_a_question_and_the_answer_completes_the_reading() -> None:
    hidden = with_moves(START, c11=MirrorSeen((1, 1), "\\", None, 0.1))
    steps = [
        Correct(EnterCards(cards=CARDS)),
        *[Observe(Observation(BoxObservation(box=hidden), 0.3))] * 14,
    ]
    game, _ = play(make_table_game, None, new_session(), steps)
    qs = game.questions(None)
    assert len(qs) == 1 and {c["value"] for c in qs[0].choices} == {"NE", "SW"}
    steps += [
        Correct({"question": qs[0].id, "answer": "NE"}),
        *[Observe(Observation(BoxObservation(box=hidden), 0.3))] * 7,
    ]
    game, _ = play(make_table_game, None, new_session(), steps)
    assert game.questions(None) == []
    assert game.view(None)["phase"] == "window"  # set up from the completed reading
    assert {"cell": [1, 1], "slot": "\\", "facing": "NE"} in game.view(None)["board"]["mirrors"]


def test_an_unsure_slot_asks_all_four_facings_and_the_answer_names_the_slot() -> None:
    # The camera's likelier slot is the wrong one: the answer, not the guess, sets the board.
    unsure = with_moves(START, c11=MirrorSeen((1, 1), "/", None, 0.3, slot_sure=False))
    steps = [
        Correct(EnterCards(cards=CARDS)),
        *[Observe(Observation(BoxObservation(box=unsure), 0.3))] * 14,
    ]
    game, _ = play(make_table_game, None, new_session(), steps)
    qs = game.questions(None)
    assert len(qs) == 1 and {c["value"] for c in qs[0].choices} == {"NW", "SE", "NE", "SW"}
    steps += [
        Correct({"question": qs[0].id, "answer": "NE"}),
        *[Observe(Observation(BoxObservation(box=unsure), 0.3))] * 7,
    ]
    game, _ = play(make_table_game, None, new_session(), steps)
    assert game.questions(None) == []
    assert game.view(None)["phase"] == "window"
    assert {"cell": [1, 1], "slot": "\\", "facing": "NE"} in game.view(None)["board"]["mirrors"]


def test_hint_is_private_and_on_request_only() -> None:
    w0 = with_moves(START, "W0")
    steps = [
        Correct(EnterCards(cards=CARDS)),
        *frames_of(START),
        *frames_of(w0),
        Correct(EnterRoll(value=1), 0),
    ]
    game, _ = play(make_table_game, None, new_session(), steps)
    assert game.view(0)["hint"] is None
    steps.append(Correct(RequestHint(), 0))
    check_table_game(make_table_game, None, new_session(), steps)
    game, _ = play(make_table_game, None, new_session(), steps)
    hint = game.view(0)["hint"]
    assert hint is not None and (hint["swaps"] is None or hint["swaps"] >= 1)
    assert game.view(1)["hint"] is None and game.view(None)["hint"] is None
    with pytest.raises(UserError):
        game.correct(RequestHint(), 1)
    # a refusal names the player who may, never a seat number
    with pytest.raises(UserError, match=r"^only the active player \(p0\) may do that$"):
        game.correct(TakeLook(), 1)
    with pytest.raises(UserError, match=r"^only the left-hand neighbour \(p[12]\) names the"):
        game.correct(NameMotif(motif="key"), 0)


@pytest.mark.parametrize(
    "payload",
    [
        {"kind": "cards", "cards": {"X9": "key"}},  # not a card position
        {"kind": "cards", "cards": {"N0": "key"}},  # not every motif
        {"kind": "roll", "value": "six"},
        {"kind": "roll", "value": True},
        {"kind": "guess", "jubilant": "yes"},
        {"roll": 3},  # no kind: the old key-named shape is not a correction
        {"kind": "bogus"},
        {"kind": "roll", "value": 3, "extra": 1},
    ],
)
def test_bad_input_is_a_user_error(payload: dict[str, Any]) -> None:
    game = MirrorMansionTable(None, new_session())
    with pytest.raises(UserError) as exc:
        game.correct(payload, 1)
    assert "\n" not in str(exc.value)


def test_json_and_typed_corrections_are_the_same_correction() -> None:
    """A phone's JSON on /api/corrections and the router's typed body play alike."""
    assert parse({"kind": "roll", "value": 4}) == EnterRoll(value=4)
    assert parse(EnterRoll(value=4)) == EnterRoll(value=4)
    assert parse({"question": "q1", "answer": "W1"}) == Answer(question="q1", answer="W1")
    assert parse({"table_is_right": True}) == TableIsRight()
    with pytest.raises(UserError, match="kind is one of"):
        parse({"look": True})
    typed = [Correct(EnterCards(cards=CARDS)), *frames_of(START)]
    as_json = [Correct({"kind": "cards", "cards": CARDS}), *frames_of(START)]
    _, typed_events = play(make_table_game, None, new_session(), typed)
    _, json_events = play(make_table_game, None, new_session(), as_json)
    assert [(e.kind, e.payload) for e in typed_events] == [(e.kind, e.payload) for e in json_events]
    assert any(
        e.kind == "mm.action" and e.payload["action"]["type"] == "setup" for e in typed_events
    )


def test_options_and_seats_are_checked() -> None:
    with pytest.raises(UserError):
        MirrorMansionTable(None, new_session(seats=1))
    with pytest.raises(UserError):
        MirrorMansionTable(None, new_session(colour="red"))
    MirrorMansionTable(None, new_session(seats=4, door=True, masters=True, two_sided=True))


def test_perceive_reads_the_sim_camera() -> None:
    game = MirrorMansionTable(None, new_session())
    scene = game.sim_scene(3)
    image, truth = scene.frame(1.0)
    frame = Frame(image=image, timestamp=time.monotonic(), index=0, truth=truth)
    registration = SimpleNamespace(camera_matrix=None, dist_coeffs=None, markers={})
    obs = game.perceive(frame, registration)
    assert isinstance(obs.data, BoxObservation)
    assert obs.data.box.layout_key() == BoxState.from_json(truth).layout_key()
    assert obs.confidence >= 0.5 and obs.data.pose is not None
    assert obs.to_json()["data"]["box"]["window"] == obs.data.box.window
    out = game.annotate(image.copy(), registration, obs)
    assert out.shape == image.shape and (out != image).any()
    # Before any look nothing drawn is yellow, the legend's colour of the light path, not
    # even a mirror whose side was not seen.
    box = obs.data.box
    unsure = BoxState(tuple(MirrorSeen(m.cell, m.slot, None) for m in box.mirrors), box.window)
    unsure_obs = Observation(obs.data.model_copy(update={"box": unsure}), obs.confidence)
    drawn = game.annotate(np.zeros_like(image), registration, unsure_obs)
    hsv = cv2.cvtColor(drawn, cv2.COLOR_BGR2HSV)
    ink = hsv[..., 2] > 0
    assert ink.any() and not (ink & (hsv[..., 0] >= 22) & (hsv[..., 0] <= 38)).any()


def test_a_hidden_window_card_becomes_a_question() -> None:
    """Victor in front of the window card: the players say where it is."""
    hidden = BoxState(START.mirrors, None)
    obs = Observe(Observation(BoxObservation(box=hidden), 0.9))
    steps = [Correct(EnterCards(cards=CARDS)), *[obs] * 14]
    game, _ = play(make_table_game, None, new_session(), steps)
    qs = game.questions(None)
    assert len(qs) == 1 and qs[0].id.startswith("window-")
    assert game.view(None)["phase"] == "setup"
    steps += [Correct({"question": qs[0].id, "answer": "W1"}), *[obs] * 7]
    check_table_game(make_table_game, None, new_session(), steps)
    game, _ = play(make_table_game, None, new_session(), steps)
    assert game.view(None)["phase"] == "window"
    assert game.view(None)["board"]["window"] == "W1"


def _seen_at(box: BoxState, yaw: float, n: int = 7) -> list[Observe]:
    return [Observe(Observation(BoxObservation(box=box, yaw_deg=yaw), 0.9))] * n


@pytest.mark.parametrize(("masters", "turns"), [(True, 1), (False, 0)])
def test_masters_box_turn_is_read_from_the_boards_turn_in_the_image(
    masters: bool, turns: int
) -> None:
    opts = {"masters": True} if masters else {}
    steps = [
        Correct(EnterCards(cards=CARDS)),
        *_seen_at(START, 170.0),
        *_seen_at(START, -95.0),
    ]  # 170° -> 265°: a quarter turn clockwise
    check_table_game(make_table_game, None, new_session(**opts), steps)
    game, events = play(make_table_game, None, new_session(**opts), steps)
    assert game.view(None)["box_quarter_turns"] == turns
    turned = [
        e for e in events if e.kind == "mm.action" and e.payload["action"]["type"] == "turn_box"
    ]
    assert len(turned) == turns


def test_sticker_colours_come_from_the_settings():
    from companion.config import Settings

    green_to_blue = {"mirror_dot": {"hue_min": 90, "hue_max": 120}}
    settings = Settings.model_validate({"stickers": green_to_blue})
    game = MirrorMansionTable(settings, new_session())
    assert (game.stickers.mirror_dot.hue_min, game.stickers.mirror_dot.hue_max) == (90, 120)
    assert MirrorMansionTable(None, new_session()).stickers.mirror_dot.hue_min == 40
