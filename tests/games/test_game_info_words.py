"""How many play a game, said as a person would (issue 30: words, not codes)."""

from companion.games import GAMES


def test_player_counts_read_as_words() -> None:
    assert GAMES["onirim"].players == "1 player"
    assert GAMES["reflecto"].players == "2 players"
    assert GAMES["mirror-mansion"].players == "2-4 players"


def test_a_wrong_count_names_the_game_not_its_id() -> None:
    assert (
        GAMES["onirim"].wrong_count(2)
        == "Onirim (with the Mirrors) is a solo game: one player, not 2"
    )
    assert (
        GAMES["mirror-mansion"].wrong_count(5) == "Mirror Mansion is played by 2-4 players, not 5"
    )
    assert GAMES["reflecto"].wrong_count(3) == "Reflecto is played by 2 players, not 3"
