"""Frame level: a scripted round with hands over the table, a card lifted and put back, a bump
and blurred frames, rendered and read frame by frame through the live table game, gives
exactly the picks that were made and no other event."""

from __future__ import annotations

from types import SimpleNamespace

from companion.config import Settings
from companion.games.looking_glass.live import LookingGlassTable
from companion.games.looking_glass.render import RoundFilm
from companion.store import Event, Session


def test_hands_bumps_and_blur_make_no_false_event():
    game = LookingGlassTable(Settings(), Session("t", "looking-glass", {}, ["Ann", "Bo"], 0.0))
    scene = game.sim_scene(21)
    film = RoundFilm(21, art=scene.art, cond=scene._film(0).cond, hold=3, max_picks=2,
                     disturb=4.0, layout_id="pyramid")
    hands = sum(1 for s in film.shots if s.hand_mm is not None)
    blurred = sum(1 for s in film.shots if s.blur)
    assert hands >= 6 and blurred >= 2  # the film really has the disturbances
    events = []
    for i in range(len(film)):
        img, truth = film.render(i)
        obs = game.perceive(SimpleNamespace(image=img, truth=truth), SimpleNamespace(ok=False))
        for d in game.update(obs, i * 0.3):
            ev = Event("t", len(events) + 1, i * 0.3, d.kind, d.payload, d.visibility)
            game.apply_event(ev)
            events.append(ev)
    kinds = [e.kind for e in events]
    # The deal, the two picks, cards read later than the deal (a glare moved), and the
    # simulated players tapping in their hands at the end of the film: nothing else.
    assert set(kinds) <= {"lg.deal", "lg.pick", "lg.identify", "lg.hand"}, kinds
    assert kinds[0] == "lg.deal"
    deal = events[0].payload
    assert deal["layout"] == "pyramid" and len(deal["glass"]) == 28
    picks = [e for e in events if e.kind == "lg.pick"]
    for ev, truth in zip(picks, film.picks, strict=True):
        p = ev.payload
        assert (p["seat"], p["card"], p["reflection_card"]) == (
            truth["seat"], truth["card"], truth["reflection_card"])
        assert p["illegal"] is False
    view = game.view(None)
    assert sum(c["count"] for row in view["piles"][0].values() for c in row) == 2


def test_film_frames_reuse_the_still_but_draw_fresh_noise():
    """A film composes each table state once; every frame still gets its own sensor noise of
    the camera's sigma (a frame is not a copy of the last one)."""
    from dataclasses import replace

    import numpy as np

    from companion.games.looking_glass.render import Conditions, Table

    cond = replace(Conditions(), noise_sigma=4.0, jpeg_quality=None, light=False)
    film = RoundFilm(5, cond=cond, hold=3, max_picks=1, noise=False)
    first, _ = film.render(0)
    second, _ = film.render(1)
    shot = film.shots[0]
    assert shot.glass == film.shots[1].glass  # the same state of the table...
    assert len(film.camera._stills) == 1  # ...composed once
    still = film.camera.still(Table(film.layout, True, shot.glass, shot.piles)).astype(float)
    for frame in (first, second):
        residual = frame.astype(float) - still
        assert 3.5 < residual.std() < 4.5 and abs(residual.mean()) < 0.2
    assert np.abs(first.astype(float) - second).mean() > 2.0  # different draws


def test_blocks_of_a_chequered_cloth_are_not_read_as_a_glass_after_the_last_pick():
    """Round 917179 on a chequered cloth (the renderer's "pattern" table), its glass empty:
    blocks of the cloth's squares, framed by the pale lines where squares meet, paired with
    score-pile cards at their mirror places and brought the piles into the glass. A card's
    border is white or grey, the frame round a block of cloth coloured (`ring_chroma`)."""
    from companion.games.looking_glass.read import Reader

    game = LookingGlassTable(Settings(), Session("t", "looking-glass", {}, ["Ann", "Bo"], 0.0))
    scene = game.sim_scene(917179)
    film = RoundFilm(917179, art=scene.art, hold=3, disturb=1.0)
    img, truth = film.render(160)
    assert truth["cards"] == [] and film.cond.table_kind == "pattern"
    assert Reader(scene.library).read(img).cards == []


def test_a_checked_cloth_that_matches_a_taught_face_is_not_read_as_a_card():
    """Round 925009's last frames, its glass empty, on a checked cloth: the cloth matches
    the Mad Hatter's face clearly where the last pair lay, so the card remembered from the
    frame before the pick was kept alive, and the pick never seen. Where most of a face's
    art is white or the table's own colours, it is the table: the remembered card is let
    go, and nothing is read."""
    from companion.games.looking_glass.read import Reader

    game = LookingGlassTable(Settings(), Session("t", "looking-glass", {}, ["Ann", "Bo"], 0.0))
    scene = game.sim_scene(925009)
    film = RoundFilm(925009, art=scene.art, hold=3, disturb=1.0)
    reader = Reader(scene.library)
    before, _ = film.render(156)  # the last pair still on the table
    last = [c for c in reader.read(before).cards if c.card == "mad-hatter"]
    img, truth = film.render(len(film) - 1)
    assert truth["cards"] == [] and film.cond.table_kind == "pattern"
    assert reader.read(img).cards == []
    assert last and reader.verify(img, reader.read(img), last).cards == []
