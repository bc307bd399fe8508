"""Onirim live at the table through the real HTTP app and SQLite: the camera's stable
changes are booked as the engine's actions, the taps go through the game's routes, breaches
are shown at once, and the hand never reaches the public view or the public events."""

from __future__ import annotations

import json

from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.actions import Draw, action_to_json
from companion.games.onirim.rules.deck import is_location
from companion.games.onirim.rules.state import evolve
from companion.games.onirim.table.live import BROKE, make_table_game
from companion.games.onirim.vision.film import SIM_FPS, script_game
from tests.games.onirim_table.helpers import API, film_observer, live_table, seen

ROUTES = {
    "drew": "drew",
    "looked": "looked",
    "prophecy": "prophecy",
    "nightmare": "nightmare",
    "door": "door",
    "pick": "pick",
    "discarded": "discarded",
    "paired": "paired",
}


def _play_film(http, runtime, script, frames: int) -> None:
    """The film's frames into the live game, the taps through the game's own routes."""
    observe, _ = film_observer(script)
    taps = sorted(script.taps, key=lambda t: t.t)
    k = 0
    for i in range(frames):
        runtime.submit(runtime.game.update(observe(runtime.game, i), i / SIM_FPS))
        while k < len(taps) and taps[k].t <= i / SIM_FPS:
            body = dict(taps[k].payload)
            res = http.post(f"{API}/{ROUTES[body.pop('kind')]}?seat=0", json=body)
            if res.status_code == 409:
                break  # the camera has not booked the play it follows yet: next frame
            assert res.status_code == 200, res.text
            k += 1


def test_a_scripted_game_is_followed_play_by_play_and_the_hand_stays_private(tmp_path) -> None:
    script = script_game(11, {"mirrors": True, "hard": False}, max_turns=6)
    frames = sum(s.frames for s in script.shots)
    with live_table(tmp_path, {"mirrors": True}) as (http, runtime):
        _play_film(http, runtime, script, frames)
        events = runtime.store.events(runtime.session.id)
        booked = [e.payload["action"] for e in events if e.kind == "onirim.action"]
        assert booked == [action_to_json(a) for a in script.actions]
        by_camera = [
            e.payload["action"]["type"]
            for e in events
            if e.kind == "onirim.action" and e.payload["by"] == "camera"
        ]
        assert len(by_camera) >= 5 and set(by_camera) <= {"play", "discard", "pair"}
        assert not [e for e in events if e.kind == "onirim.breach"]
        # A restart replays the stored events into the same game, for every audience.
        replayed = make_table_game(runtime.settings, runtime.session)
        for e in events:
            replayed.apply_event(e)
        for seat in (None, 0):
            assert replayed.view(seat) == runtime.game.view(seat)
        # The hand: on the player's phone, never in the public view nor the public events.
        hand = runtime.game.state.hand
        mine = http.get(f"{API}/view?seat=0").json()
        assert mine["hand"] == list(hand) and mine["deck_by_kind"]
        public = http.get(f"{API}/view").json()
        assert public["hand"] is None and public["deck_by_kind"] is None
        assert public["next_is_nightmare"] is None and public["choices"] is None
        public_events = http.get("/api/history").json()
        drawn = [
            e
            for e in events
            if e.kind == "onirim.action"
            and e.payload["action"]["type"] == "draw"
            and is_location(e.payload["action"]["card"])
        ]
        assert drawn and all(e.visibility == "seat:0" for e in drawn)
        text = json.dumps([public, public_events, http.get("/api/state").json()])
        assert json.dumps(list(hand)) not in text
        public_draws = [
            e["payload"]["action"]
            for e in public_events
            if e["kind"] == "onirim.action" and e["payload"]["action"]["type"] == "draw"
        ]
        public_draws += [h["action"] for h in public["history"] if h["action"]["type"] == "draw"]
        assert public_draws and not [
            a for a in public_draws if is_location(a.get("card", "nightmare"))
        ]


def test_an_illegal_play_is_asked_then_a_breach_and_a_tap_out_of_turn_is_refused(tmp_path) -> None:
    """A play the rules forbid, seen by the camera alone, is first a private question (a
    card misread looks just like it); the player's word books the breach on the dashboard."""
    with live_table(tmp_path, {"mirrors": True}) as (http, runtime):
        hand = ["red-sun", "red-sun", "blue-moon", "green-key", "brown-moon"]
        res = http.post(f"{API}/drew?seat=0", json={"cards": hand})
        assert res.status_code == 200, res.text
        assert res.json()["hand"] == sorted(hand) and res.json()["phase"] == "turn"
        state = runtime.game.state
        runtime.submit([d for _ in range(3) for d in runtime.game.update(seen(state), 0)])
        # red-sun played: booked from the camera.
        played = ENGINE.apply(state, ENGINE.legal_actions(state)[0].__class__("red-sun"))
        for _ in range(3):
            runtime.submit(runtime.game.update(seen(played), 1))
        assert runtime.game.state.labyrinth == ("red-sun",)
        assert http.get(f"{API}/view").json()["waiting"].startswith("Draw back")
        http.post(f"{API}/drew?seat=0", json={"cards": ["red-moon"]}).raise_for_status()
        # The second red-sun on the first: the symbol rule, asked privately, the engine
        # unmoved; the player says they laid it so: flagged once.
        after = runtime.game.state
        wrong = evolve(after, labyrinth=("red-sun", "red-sun"))
        for _ in range(5):
            runtime.submit(runtime.game.update(seen(wrong), 2))
        assert http.get(f"{API}/view").json()["breaches"] == []
        assert http.get("/api/questions").json() == []
        (question,) = http.get("/api/questions?seat=0").json()
        (broke,) = [c["value"] for c in question["choices"] if BROKE in c["value"]]
        res = http.post(
            "/api/corrections?seat=0", json={"question": question["id"], "answer": broke}
        )
        assert res.status_code == 200, res.text
        for _ in range(5):
            runtime.submit(runtime.game.update(seen(wrong), 3))
        breaches = http.get(f"{API}/view").json()["breaches"]
        assert len(breaches) == 1 and "symbol" in breaches[0]["rule"]
        assert runtime.game.state.labyrinth == ("red-sun",)
        # A draw while it is the turn: the rules refuse it, nothing is recorded.
        before = runtime.store.last_seq(runtime.session.id)
        res = http.post(f"{API}/drew?seat=0", json={"cards": ["blue-sun"]})
        assert res.status_code == 409
        assert http.post(f"{API}/drew?seat=0", json={"cards": []}).status_code == 422
        assert http.post(f"{API}/door?seat=0", json={"open": "yes"}).status_code == 422
        assert runtime.store.last_seq(runtime.session.id) == before
        # The admin says the table is right: the second red-sun is now in the labyrinth.
        res = http.post("/api/table-is-right")
        assert res.status_code == 200, res.text
        assert runtime.game.state.labyrinth == ("red-sun", "red-sun")
        right = [e for e in runtime.store.events(runtime.session.id) if e.kind == "table.right"]
        assert right and right[-1].payload["board"]["labyrinth"] == ["red-sun", "red-sun"]
        assert http.get(f"{API}/view").json()["breaches"] == []
        assert "red-sun" not in runtime.game.state.hand  # both came from the hand


def test_a_door_earned_by_three_of_a_colour_is_a_reminder_until_it_lies(tmp_path) -> None:
    with live_table(tmp_path, {"mirrors": False}) as (http, runtime):
        hand = ["red-sun", "red-moon", "red-key", "blue-moon", "green-key"]
        http.post(f"{API}/drew?seat=0", json={"cards": hand}).raise_for_status()
        game = runtime.game
        for card, draw in (("red-sun", "blue-sun"), ("red-moon", "brown-sun")):
            runtime.submit(game.update(seen(game.state), 0))  # before the card is laid
            state = ENGINE.apply(
                game.state, ENGINE.action_from_json({"type": "play", "card": card})
            )
            for _ in range(3):
                runtime.submit(game.update(seen(state), 0))
            http.post(f"{API}/drew?seat=0", json={"cards": [draw]}).raise_for_status()
        runtime.submit(game.update(seen(game.state), 0))
        third = ENGINE.apply(
            game.state, ENGINE.action_from_json({"type": "play", "card": "red-key"})
        )
        assert third.doors == ("door-red",)
        not_fetched = evolve(third, doors=())
        for _ in range(3):
            runtime.submit(game.update(seen(not_fetched), 0))
        view = http.get(f"{API}/view").json()
        assert game.state.doors == ("door-red",) and view["doors_needed"].count("door-red") == 1
        assert any("red Door" in r for r in view["reminders"]) and view["breaches"] == []
        for _ in range(3):
            runtime.submit(game.update(seen(third), 0))
        assert http.get(f"{API}/view").json()["reminders"] == []


def test_an_unclear_new_card_is_asked_not_guessed(tmp_path) -> None:
    """A new card the camera cannot name: the player's phone is asked which play it was,
    offered the plays of the hand that fit (so the question is private, like the hand)."""
    with live_table(tmp_path, {"mirrors": False}) as (http, runtime):
        http.post(
            f"{API}/drew?seat=0",
            json={"cards": ["red-sun", "blue-moon", "green-key", "brown-moon", "red-key"]},
        )
        game = runtime.game
        unsure = seen(game.state).data | {"labyrinth": [None]}
        from companion.live.table_game import Observation

        for _ in range(15):
            runtime.submit(game.update(Observation(unsure, 0.5), 0))
        assert game.state.labyrinth == ()
        assert http.get("/api/questions").json() == []
        (question,) = http.get("/api/questions?seat=0").json()
        values = [c["value"] for c in question["choices"]]
        play = {"type": "play", "card": "blue-moon"}
        assert play in values and "back" in values and len(values) == 6
        # the buttons in words; the kinds' ids stay in the values
        labels = {json.dumps(c["value"]): c["label"] for c in question["choices"]}
        assert labels[json.dumps(play)] == "play the blue Moon"
        assert not [t for t in labels.values() if "-" in t or "{" in t]
        res = http.post(
            "/api/corrections?seat=0", json={"question": question["id"], "answer": play}
        )
        assert res.status_code == 200, res.text
        for _ in range(3):
            runtime.submit(game.update(Observation(unsure, 0.5), 0))
        assert game.state.labyrinth == ("blue-moon",)


def test_the_hint_is_the_players_alone(tmp_path) -> None:
    with live_table(tmp_path, {"mirrors": True}) as (http, runtime):
        http.post(
            f"{API}/drew?seat=0",
            json={"cards": ["red-sun", "blue-moon", "green-key", "brown-moon", "red-key"]},
        )
        res = http.post(f"{API}/hint?seat=0")
        assert res.status_code == 200, res.text
        actions = res.json()["hint"]["actions"]
        assert actions and 0.0 <= actions[0]["win"] <= 1.0
        legal = [action_to_json(a) for a in ENGINE.legal_actions(runtime.game.state)]
        assert all(a["action"] in legal for a in actions)
        assert http.get(f"{API}/view").json()["hint"] is None
        assert http.post(f"{API}/hint").status_code == 400  # the admin has no hand


def test_the_draw_of_a_door_is_public_and_of_a_location_private() -> None:
    from companion.games.onirim.table.live import is_private

    state = evolve(ENGINE.new_game(1, {}), phase="refill")
    assert is_private(state, Draw("red-sun")) and not is_private(state, Draw("door-red"))
    assert not is_private(state, Draw("nightmare"))
