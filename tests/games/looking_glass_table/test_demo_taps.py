"""The `sim` camera's players tap their hands in as phones do (issue 35): the scene carries the
taps, the live loop's `DemoPlayers` plays them through `correct`, and the game never reads
them from a frame."""

from __future__ import annotations

from collections import Counter

from companion.config import Settings
from companion.games.looking_glass.rules.scoring import round_winner, score
from companion.games.looking_glass.table.live import SIM_FPS, FilmScene, make_table_game
from companion.live.conformance import Observe, play
from companion.live.demo_players import DemoPlayers
from companion.live.table_game import Observation
from companion.store import Event, Session
from tests.games.looking_glass_table.helpers import synthetic_reading

SESSION = Session("s1", "looking-glass", {}, ["Ann", "Bo"], 0.0)


def test_the_demo_players_tap_their_hands_in_through_corrections_at_the_rounds_end() -> None:
    scene = FilmScene(31, rounds=1)
    film = scene.film(0)
    taps = scene.taps
    assert [(tap.seat, tap.payload) for tap in taps] == [
        (0, {"kind": "hand", "cards": film.hands[0]}),
        (1, {"kind": "hand", "cards": film.hands[1]}),
    ]
    assert {tap.t for tap in taps} == {(len(film) - 1) / SIM_FPS}  # the film's last frame
    _, truth = scene.frame(taps[0].t)
    assert truth["t"] == taps[0].t and any(e["kind"] == "hands" for e in truth["events"])

    # The round as the camera follows it (perfect readings of the film's own picks).
    glass = film.deal.glass_map()
    lay = film.layout.id
    steps = [Observe(Observation(synthetic_reading(glass, lay), 0.9))] * 7
    left = dict(glass)
    for pick in film.picks:
        for name in (pick["position"], pick["reflection"]):
            del left[name]
            steps += [Observe(Observation(synthetic_reading(left, lay), 0.9))] * 7
    game, events = play(make_table_game, Settings(), SESSION, steps)
    assert not [e for e in events if e.kind == "lg.hand"]  # nothing taken from frames

    def correct(payload: dict, seat: int | None) -> None:
        for d in game.correct(payload, seat):
            ev = Event("s1", len(events) + 1, 0.0, d.kind, d.payload, d.visibility)
            game.apply_event(ev)
            events.append(ev)

    players = DemoPlayers(taps)
    assert players.step(taps[0].t - 1.0, correct) == 0  # not yet
    assert players.step(taps[0].t, correct) == 2
    kinds = [e.kind for e in events]
    assert kinds[-4:] == ["lg.hand", "lg.hand", "lg.reveal", "lg.round"]
    totals = [score(Counter(film.piles[s]) + Counter(film.hands[s])).total for s in (0, 1)]
    result = events[-1].payload
    assert result["totals"] == totals and result["winner"] == round_winner(totals, 0)
