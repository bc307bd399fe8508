"""The card a window swap reveals: asked on the dashboard, confirmed or corrected."""

from __future__ import annotations

import json

import pytest

from companion.errors import UserError
from companion.games.mirror_mansion.rules.board import load_board
from companion.games.mirror_mansion.rules.engine import ENGINE
from companion.games.mirror_mansion.table.live import make_table_game, place_words
from companion.games.mirror_mansion.table.messages import (
    CallGuesses,
    EnterCards,
    EnterRoll,
    TakeLook,
)
from companion.games.mirror_mansion.vision.scene import MirrorSeen
from companion.live.conformance import Correct, check_table_game, play
from tests.games.mirror_mansion_table.helpers import (
    CARDS,
    MOTIFS,
    START,
    frames_of,
    new_session,
    with_moves,
)

W0 = with_moves(START, "W0")
# One swap that leaves the mirror at [0,0] in line with W0, sending the light to N0.
MOVED = with_moves(W0, c21=MirrorSeen((2, 2), "/", "SE"))
TO_SWAPS = [
    Correct(EnterCards(cards=CARDS)),
    *frames_of(START),
    *frames_of(W0),
    Correct(EnterRoll(value=1), 0),
    *frames_of(MOVED),
]


def test_the_window_swap_asks_for_the_revealed_card_with_the_tap_as_default() -> None:
    game, _ = play(
        make_table_game, None, new_session(), [Correct(EnterCards(cards=CARDS)), *frames_of(START)]
    )
    assert game.questions(None) == []  # nothing revealed before the swap
    game, _ = play(
        make_table_game,
        None,
        new_session(),
        [Correct(EnterCards(cards=CARDS)), *frames_of(START), *frames_of(W0)],
    )
    [q] = game.questions(None)
    assert q.id == "card-0-W1"  # the code stays in the question's id, not in its words
    seats = new_session().seats
    motif = CARDS["W0"]
    assert q.text == (
        f"{seats[0]} moved the window to the north end of the west side; does the card now "
        f"at the middle of the west side show the {motif.replace('-', ' ')}? Confirm, or tap "
        "the picture it shows."
    )
    labels = [c["label"] for c in q.choices]
    assert not any("-" in label for label in labels)  # display names, not the model's ids
    values = [c["value"] for c in q.choices]
    assert values[0] == CARDS["W0"]  # the card from W0 now lies at W1
    assert sorted(values) == sorted(MOTIFS)
    assert game.view(None)["board"]["cards"]["W1"] == CARDS["W0"]


def test_a_correction_updates_the_motif_and_the_prediction() -> None:
    game, _ = play(make_table_game, None, new_session(), TO_SWAPS)
    before = ENGINE.prediction(game.state)
    # From W0 the light bounces off the mirror at [0,0] to N0.
    assert before is not None and before.seen == "N0" and before.motif == CARDS["N0"]
    [q] = game.questions(None)
    # The table says the revealed card at W1 shows N0's motif: the two taps were switched,
    # so N0 now holds the motif tapped in at W0, and the light finds that instead.
    wrong = CARDS["N0"]
    steps = [*TO_SWAPS, Correct({"question": q.id, "answer": wrong})]
    check_table_game(make_table_game, None, new_session(), steps)
    game, events = play(make_table_game, None, new_session(), steps)
    assert game.questions(None) == []
    assert game.view(None)["board"]["cards"]["W1"] == wrong
    assert sorted(game.state.board.cards.values()) == sorted(MOTIFS)
    after = ENGINE.prediction(game.state)
    assert after is not None and after.seen == "N0" and after.motif == CARDS["W0"]
    assert any(
        e.kind == "mm.action" and e.payload["action"]["type"] == "confirm_card" for e in events
    )
    # The look then reports the corrected card.
    steps += [Correct(CallGuesses(), 0), Correct(TakeLook(), 0)]
    game, _ = play(make_table_game, None, new_session(), steps)
    assert game.view(None)["looks"][-1]["motif"] == after.motif


def test_confirming_the_tap_keeps_the_prediction_and_the_question_lapses_at_the_look() -> None:
    game, _ = play(make_table_game, None, new_session(), TO_SWAPS)
    before = ENGINE.prediction(game.state)
    [q] = game.questions(None)
    steps = [*TO_SWAPS, Correct({"question": q.id, "answer": CARDS["W0"]})]
    game, _ = play(make_table_game, None, new_session(), steps)
    assert ENGINE.prediction(game.state) == before and game.state.confirmed == {"W1"}
    unanswered = [*TO_SWAPS, Correct(CallGuesses(), 0), Correct(TakeLook(), 0)]
    game, _ = play(make_table_game, None, new_session(), unanswered)
    assert game.questions(None) == []


@pytest.mark.parametrize("answer", ["banana", "window", None, 3])
def test_a_bad_answer_is_a_user_error(answer: object) -> None:
    game, _ = play(make_table_game, None, new_session(), TO_SWAPS)
    [q] = game.questions(None)
    with pytest.raises(UserError):
        game.correct({"question": q.id, "answer": answer}, None)
    with pytest.raises(UserError):
        game.correct({"question": "card-9-N0", "answer": CARDS["N0"]}, None)


def test_every_card_place_has_its_own_words() -> None:
    board = load_board()
    words = {p: place_words(board, p) for p in board.positions}
    assert len(set(words.values())) == len(words)  # no two places said alike
    assert words["E2"] == "the south end of the east side"
    assert words["N0"] == "the west end of the north side"
    assert not any(p in w for p in board.positions for w in words.values())


def test_the_view_says_every_place_for_the_panel_to_draw_and_log_in_words() -> None:
    """The panel's set-up prompt ("Which picture lies at ...?"), the picture's titles and the
    log's window moves read the places from the view, never the codes."""
    game = make_table_game(None, new_session())
    view = json.loads(json.dumps(game.view(None)))
    board = load_board()
    assert view["places"] == {p: place_words(board, p) for p in board.positions}
    assert view["places"]["W1"] == "the middle of the west side"
