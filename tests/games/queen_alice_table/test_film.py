"""The `sim` film of Queen Alice: its photographs, read by the real reader at the live
camera's 10 frames a second, with its taps played as phones would (the set-up's Train cards
too), make the script's moves with no breach and no question; and it frames the table's
markers."""

from __future__ import annotations

from companion.games.queen_alice.table.film import ChessboardFilm, run_film

from .helpers import session


def test_the_film_plays_the_script_s_moves_through_the_real_reader_with_no_false_event() -> None:
    film = ChessboardFilm(seed=11, players=2, size=(1280, 960), turns=6)
    image, truth = film.frame(0.0)
    assert image.shape == (960, 1280, 3) and truth["reading"]["squares"]
    assert film.frame(0.0)[0].tobytes() != film.frame(0.1)[0].tobytes()  # a sensor's noise
    game, tally = run_film(film, session(), fps=10.0)
    assert game.state.turns == film.turns == 6 and len(film.plays) >= 3
    assert tally.moves_right == tally.moves == len(film.plays)
    assert (tally.breaches, tally.square_questions, tally.refused) == (0, 0, [])
    assert all(p.train for p in game.state.people)  # the players tapped their Train cards
