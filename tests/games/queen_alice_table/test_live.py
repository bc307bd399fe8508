"""Queen Alice live: moves from the camera checked with the card tapped in, breaches at once,
captures to the right Jail, hidden hands, questions instead of guesses, replay."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.errors import UserError
from companion.games.base import IllegalAction
from companion.games.queen_alice.rules import ENGINE
from companion.games.queen_alice.table.live import QueenAliceTable, make_table_game
from companion.games.queen_alice.table.messages import (
    Answer,
    Choose,
    DiscardCard,
    PlayCard,
    ScoreNow,
    TableIsRight,
    TrainChosen,
    TrainDealt,
)
from companion.games.queen_alice.table.script import run_script, scripted_game
from companion.live.conformance import Correct, Step, check_table_game, play
from companion.live.table_game import TableGame
from companion.store import Event, Session

from .helpers import HANDS, TRAIN, frames, moved, session, set_up_taps, start, train_taps

KNIGHT, ROOK = "basic-3", "basic-7"  # seat 0's white knight and white rook cards


def replayed_views_agree(
    steps: list[Step], sess: Session | None = None
) -> tuple[QueenAliceTable, list[Event]]:
    """Play live, replay the stored events into a fresh game: every seat sees the same."""
    sess = sess or session()
    game, events = play(make_table_game, None, sess, steps)
    again = make_table_game(None, sess)
    for event in events:
        again.apply_event(event)
    for seat in (None, *range(len(sess.seats))):
        assert json.dumps(game.view(seat)) == json.dumps(again.view(seat))
    assert isinstance(game, QueenAliceTable)
    return game, events


def to_play(seat: int = 0) -> list[Step]:
    """Set-up, the start board steady, and the mover's discard (basic-1, a Time reward)."""
    return [*set_up_taps(), *frames(start()), Correct(DiscardCard(card="basic-1"), seat)]


def kinds(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.payload for e in events if e.kind == kind]


def test_the_table_game_contract() -> None:
    assert isinstance(make_table_game(None, session()), TableGame)
    with pytest.raises(UserError, match="2 to 4"):
        make_table_game(None, Session("s", "queen-alice", {}, ["A"], 0.0))
    with pytest.raises(UserError, match="unknown option"):
        make_table_game(None, Session("s", "queen-alice", {"speed": 3}, ["A", "B"], 0.0))


def test_the_shared_table_game_checks_pass() -> None:
    """Replay gives the same views and questions; no private text in another's view (a
    session without the Train cards: the one chosen is public once all have chosen, which
    the leak check cannot know; the next test checks them while they are secret)."""
    jumped = moved(start(), (0, 2), (3, 2))
    events = check_table_game(
        make_table_game,
        None,
        session(options={"train_cards": "skip"}),
        [
            *set_up_taps(train=False),
            *frames(start()),
            *frames(jumped),
            *frames(start()),
            *frames(start(), 0, hand_over=((4, 4),)) * 16,
        ],
    )
    assert [e.kind for e in events].count("qa.drawn") == 6
    assert [e.kind for e in events].count("qa.breach") == 1
    assert [e.kind for e in events].count("question") == 1


def test_train_cards_are_tapped_in_and_chosen_on_each_player_s_own_phone() -> None:
    """Each phone taps in its Train cards and its secret choice; while anyone is still
    choosing, other phones (and the public view) learn only who has chosen."""
    deals, [bob_chooses, ann_chooses] = train_taps()[:2], train_taps()[2:]
    steps = [*set_up_taps(train=False), *deals, bob_chooses]
    events = check_table_game(make_table_game, None, session(), steps)  # no leak, replays
    game, _ = play(make_table_game, None, session(), steps)
    assert game.state.phase == "train" and game.state.seat == 0  # Bob's choice waits for Ann
    for seat, other in ((0, 1), (1, 0), (None, None)):
        view = game.view(seat)
        assert view["train_chosen"] == [False, True]
        text = json.dumps([view, game.view(seat)["awaiting"]])
        hidden = TRAIN[other][0] if other is not None else TRAIN[0][0] + TRAIN[1][0]
        assert not [c for c in hidden if c in text], seat
        if seat is None:
            assert "my_train" not in view
    mine = game.view(1)["my_train"]
    assert [c["id"] for c in mine["dealt"]] == sorted(TRAIN[1][0])
    assert mine["chosen"] == {"card": TRAIN[1][1], "side": "red"}
    assert "IP" in mine["dealt"][0]["red"] and mine["dealt"][0]["white"]  # each side in words
    assert game.view(0)["my_train"]["chosen"] is None
    assert game.view(0)["awaiting"] == "Ann: choose your Train card and its side, secretly"
    assert [e.visibility for e in events if e.kind.startswith("qa.train")] == [
        "seat:0",
        "seat:1",
        "seat:1",
    ]

    # Ann's choice completes them: revealed, and each side's rewards resolved in seat order.
    game, _ = play(make_table_game, None, session(), [*steps, ann_chooses])
    assert [p.train for p in game.state.people] == [(TRAIN[0][1], "red"), (TRAIN[1][1], "red")]
    assert game.state.phase == "discard" and game.state.seat == 0
    assert "train_chosen" not in game.view(1) and "my_train" not in game.view(1)
    assert game.view(1)["people"][0]["train"] == [TRAIN[0][1], "red"]


def test_every_train_card_tap_is_checked() -> None:
    set_up = set_up_taps(train=False)
    game, _ = play(make_table_game, None, session(), [*set_up, train_taps()[0]])
    with pytest.raises(UserError, match="own phone"):
        game.correct(TrainDealt(cards=TRAIN[1][0]), None)
    with pytest.raises(UserError, match="already"):
        game.correct(TrainDealt(cards=TRAIN[1][0]), 0)
    with pytest.raises(IllegalAction, match="not in the Train deck"):
        game.correct(TrainDealt(cards=(TRAIN[0][0][0], TRAIN[1][0][0])), 1)  # Ann's card
    with pytest.raises(IllegalAction, match="receives 2"):
        game.correct(TrainDealt(cards=TRAIN[1][0][:1]), 1)
    with pytest.raises(UserError, match="Bob: tap the Train cards you were dealt"):
        game.correct(TrainChosen(card=TRAIN[0][1], side="red"), 0)  # Bob has none yet
    game, _ = play(make_table_game, None, session(), [*set_up, *train_taps()[:2]])
    with pytest.raises(IllegalAction, match="train cards"):
        game.correct(TrainChosen(card=TRAIN[1][1], side="white"), 0)  # Bob's card
    with pytest.raises(UserError, match="Train cards"):
        game.correct(Choose(action={"type": "train", "card": TRAIN[0][1], "side": "red"}), 0)
    with pytest.raises(UserError, match="side"):
        game.correct({"kind": "train", "card": TRAIN[0][1], "side": "green"}, 0)
    game.correct(TrainChosen(card=TRAIN[0][1], side="white"), 0)  # checked, not recorded
    skipping = session(options={"train_cards": "skip"})
    game, _ = play(make_table_game, None, skipping, set_up)
    assert game.state.phase == "discard" and "train_chosen" not in game.view(0)
    with pytest.raises(UserError, match="game that plays them"):
        game.correct(TrainDealt(cards=TRAIN[0][0]), 0)


def test_a_move_seen_then_its_card_is_the_engine_s_play_and_says_what_the_square_gives() -> None:
    after = moved(start(), (0, 2), (2, 3))  # the white knight
    steps = [
        *to_play(),
        *frames(after, hand_over=((0, 2), (2, 3))),
        Correct(PlayCard(card=KNIGHT), 0),
    ]
    game, events = replayed_views_agree(steps)
    [action] = kinds(events, "qa.action")[-1:]
    assert action["action"] == {
        "type": "move",
        "card": KNIGHT,
        "piece": 1,
        "to": [2, 3],
        "respawn": None,
    }
    assert not kinds(events, "qa.breach")
    resource, column = ENGINE.board.square((2, 3))
    [entry] = game.view(None)["log"]
    assert entry["square"] == [2, 3] and (entry["resource"], entry["action"]) == (resource, column)
    assert "the row gives" in entry["text"] and column in entry["text"]
    assert game.state.phase != "play" and game.view(None)["card"] is None


def test_a_card_tapped_first_waits_for_the_camera() -> None:
    after = moved(start(), (0, 2), (1, 4))
    steps = [*to_play(), Correct(PlayCard(card=KNIGHT), 0)]
    game, _ = play(make_table_game, None, session(), steps)
    assert game.view(None)["card"] == KNIGHT and "move the piece" in game.view(None)["awaiting"]
    game, events = replayed_views_agree([*steps, *frames(after, hand_over=((0, 2), (1, 4)))])
    assert kinds(events, "qa.action")[-1]["action"]["to"] == [1, 4]


def test_an_illegal_move_is_flagged_at_once_and_only_once() -> None:
    jumped = moved(start(), (0, 2), (3, 2))  # a knight cannot go there
    steps = [*set_up_taps(), *frames(start()), *frames(jumped), *frames(jumped, 6)]
    game, events = replayed_views_agree(steps)
    [breach] = kinds(events, "qa.breach")
    assert breach["rule"] == "chess movement"
    assert "white knight on c1 cannot reach c4" in breach["detail"]  # counted from a1
    assert game.view(1)["breaches"] == [breach] and game.view(None)["table_differs"]
    # Put back, then moved legally after the card: the game goes on, no more breaches.
    steps += [
        *frames(start()),
        Correct(DiscardCard(card="basic-1"), 0),
        Correct(PlayCard(card=KNIGHT), 0),
        *frames(moved(start(), (0, 2), (2, 3))),
    ]
    _, events = replayed_views_agree(steps)
    assert (
        len(kinds(events, "qa.breach")) == 1
        and kinds(events, "qa.action")[-1]["action"]["type"] == "move"
    )


def test_a_move_the_card_played_cannot_make_is_a_breach_naming_the_rule() -> None:
    steps = [*to_play(), Correct(PlayCard(card=ROOK), 0), *frames(moved(start(), (0, 2), (2, 3)))]
    game, events = replayed_views_agree(steps)
    [breach] = kinds(events, "qa.breach")
    assert breach["rule"] == "card" and "white rook" in breach["detail"]
    assert game.state.phase == "play"  # nothing recorded: the move waits for the right card
    _, events = replayed_views_agree([*steps, Correct(PlayCard(card=KNIGHT), 0)])
    assert kinds(events, "qa.action")[-1]["action"]["card"] == KNIGHT


def capture_position() -> tuple[list[Step], Any]:
    """The admin declares a table where a red pawn stands a knight's jump from the white
    knight (the engine's board had drifted), then seat 0 discards."""
    drifted = moved(start(), (5, 4), (2, 3))
    steps = [
        *set_up_taps(),
        *frames(drifted),
        Correct(TableIsRight()),
        Correct(DiscardCard(card="basic-1"), 0),
    ]
    return steps, drifted


def test_the_table_is_right_then_a_capture_goes_to_the_mover_s_jail() -> None:
    steps, drifted = capture_position()
    game, events = replayed_views_agree(steps)
    [right] = [e for e in events if e.kind == "table.right"]
    assert {"colour": "red", "kind": "pawn", "cell": [2, 3]} in right.payload["board"]["pieces"]
    assert game.view(None)["breaches"] == [] and not game.view(None)["table_differs"]
    time_before = game.state.people[0].time
    steps += [Correct(PlayCard(card=KNIGHT), 0), *frames(moved(drifted, (0, 2), (2, 3)))]
    game, events = replayed_views_agree(steps)
    assert game.state.people[0].jail == (("red", "pawn"),)
    assert game.state.people[1].jail == ()
    assert game.state.people[0].time == time_before + ENGINE.board.captures["pawn"].time
    entry = game.view(1)["log"][-1]
    assert entry["captured"] == {"colour": "red", "kind": "pawn", "jail": 0}
    assert "into Ann's Jail" in entry["text"]


def test_the_table_is_right_needs_the_admin_and_a_board_the_pieces_can_make() -> None:
    steps = [*set_up_taps(), *frames(moved(start(), (5, 4), (2, 3)))]
    game, _ = play(make_table_game, None, session(), steps)
    with pytest.raises(UserError, match="admin"):
        game.correct(TableIsRight(), 1)
    [draft] = game.correct(TableIsRight(), None)
    assert draft.kind == "table.right" and draft.snapshot  # kept with what the camera saw
    # A piece gone from the board is doubt (lifted? hidden?), asked about, not a breach.
    fewer = frozenset(x for x in start() if x[0] != (5, 4))
    steps = [*set_up_taps(), *frames(start()), *frames(fewer, 40)]
    game, events = play(make_table_game, None, session(), steps)
    [question] = game.questions(None)
    assert "square e6 " in question.text and not kinds(events, "qa.breach")
    steps += [Correct(Answer(question=question.id, answer=None), 1), *frames(fewer)]
    game, events = play(make_table_game, None, session(), steps)
    [breach] = kinds(events, "qa.breach")  # the players say it is gone: now it is one
    assert breach["rule"] == "one piece per turn" and "[5, 4]" in breach["detail"]
    with pytest.raises(UserError, match="sees 7 red pieces, the board has 8"):
        game.correct(TableIsRight(), None)


def test_a_piece_missed_beside_a_move_waits_for_the_hand_to_go() -> None:
    """An arm the reader took for the print hides a piece while another is moved: the move
    counts once the piece is seen again, with no breach on the way."""
    after = moved(start(), (0, 2), (2, 3))
    hidden = frozenset(x for x in after if x[0] != (0, 4))
    steps = [*to_play(), Correct(PlayCard(card=KNIGHT), 0), *frames(hidden, 8), *frames(after)]
    game, events = replayed_views_agree(steps)
    assert not kinds(events, "qa.breach") and game.questions(None) == []
    assert kinds(events, "qa.action")[-1]["action"]["to"] == [2, 3]


def test_a_seat_s_hand_is_only_on_its_own_phone() -> None:
    game, events = replayed_views_agree(to_play())
    hand0 = set(game.state.people[0].hand)
    public = {c for p in game.state.people for c in p.discard} | {
        c for row in game.state.market for c in row if c
    }
    secret = hand0 - set(HANDS[1]) - public
    assert secret  # the test means something: seat 0 holds cards nobody else can see
    for seat in (None, 1):
        text = json.dumps([game.view(seat), [q.to_json() for q in game.questions(seat)]])
        assert not [c for c in secret if f'"{c}"' in text]
        seen = [e.payload for e in events if e.visibility in ("public", f"seat:{seat}")]
        assert not [c for c in secret if f'"{c}"' in json.dumps(seen)]
    assert set(game.view(0)["people"][0]["hand"]) == hand0
    assert game.view(0)["playable"] and game.view(1)["playable"] == []
    assert all(e.visibility == f"seat:{e.payload['seat']}" for e in events if e.kind == "qa.drawn")
    with pytest.raises(UserError, match=r"^it is Ann's turn$"):
        game.correct(PlayCard(card="basic-0"), 1)
    with pytest.raises(UserError, match="own phone"):
        game.correct({"kind": "drew", "card": "basic-4"}, None)


def test_every_tap_is_checked_by_the_engine() -> None:
    from companion.games.base import IllegalAction

    game, _ = play(make_table_game, None, session(), to_play())
    with pytest.raises(IllegalAction, match="not in your hand"):
        game.correct(PlayCard(card="basic-0"), 0)
    with pytest.raises(IllegalAction):
        game.correct(Choose(action={"type": "take", "resource": "tea"}), 0)
    with pytest.raises(UserError, match="camera"):
        game.correct(Choose(action={"type": "move", "card": KNIGHT, "piece": 1, "to": [2, 3]}), 0)
    with pytest.raises(UserError, match="kind"):
        game.correct({"kind": "teleport"}, 0)


def test_a_square_in_doubt_for_long_is_asked_about_not_guessed() -> None:
    after = moved(start(), (0, 2), (2, 3))
    steps = [
        *to_play(),
        Correct(PlayCard(card=KNIGHT), 0),
        *frames(after, 0, hand_over=((2, 3),)) * 16,
    ]
    game, events = play(make_table_game, None, session(), steps)
    [question] = game.questions(None)
    assert "square d3 " in question.text  # row 2, column 3 from 0: as the dashboard labels it
    assert [a["action"]["type"] for a in kinds(events, "qa.action")] == ["discard"]
    steps += [
        Correct(Answer(question=question.id, answer="white"), 1),
        *frames(after, 0, hand_over=((2, 3),)) * 2,
    ]
    game, events = replayed_views_agree(steps)
    assert kinds(events, "qa.action")[-1]["action"]["to"] == [2, 3]
    assert game.questions(None) == []


def test_scripted_turns_are_tracked_with_hands_and_doubt() -> None:
    _, tally = run_script(scripted_game(3, seed=7, turns=15), session(3))
    assert tally.turns == 15 and tally.moves >= 10
    assert tally.moves_right == tally.moves and tally.checkpoints_right == tally.checkpoints
    assert (tally.breaches, tally.square_questions, tally.refused) == (0, 0, [])


def test_at_the_end_the_final_scoring_is_shown_with_the_players_names() -> None:
    game, tally = run_script(scripted_game(2, seed=3, turns=10_000), session())
    assert game.state.phase == "over" and tally.breaches == 0
    final = game.view(1)["final"]
    expected = ENGINE.final(game.state)
    assert [p["total"] for p in final["players"]] == [p.total for p in expected.players]
    assert [p["name"] for p in final["players"]] == ["Ann", "Bob"]
    assert set(final["winners"]) <= {"Ann", "Bob"} and final["winners"]


def test_scoring_now_asks_which_alice_counts_when_the_camera_disagrees() -> None:
    camera_alice = {"red": 3, "white": 0}
    steps = [*set_up_taps(), *frames(start(), alice=camera_alice)]
    game, _ = play(make_table_game, None, session(), steps)
    assert game.view(None)["final"] is None and game.questions(None) == []
    with pytest.raises(UserError, match="admin"):
        game.correct(ScoreNow(), 0)
    steps += [Correct(ScoreNow()), *frames(start(), 1, alice=camera_alice)]
    game, _ = replayed_views_agree(steps)
    final = game.view(1)["final"]
    assert final["asking"] and final["coronation"]["colour"] is None  # the game has a tie
    assert [p["name"] for p in final["players"]] == ["Ann", "Bob"]
    [question] = game.questions(None)
    steps += [Correct(Answer(question=question.id, answer="camera"), 1)]
    game, _ = replayed_views_agree(steps)
    final = game.view(None)["final"]
    assert not final["asking"] and final["alice"] == camera_alice
    assert final["coronation"]["colour"] == "red"


def test_the_crowns_the_camera_counts_are_compared_with_the_game_s() -> None:
    from companion.games.queen_alice.table.observation import BoardSeen
    from companion.live.conformance import Observe
    from companion.live.table_game import Observation

    def crowns(n: int) -> list[Step]:
        board = BoardSeen(
            squares=frames(start(), 1)[0].observation.data.squares,  # type: ignore[union-attr]
            crowns_left=n,
        )
        return [Observe(Observation(board, 0.9))] * 4

    game, _ = play(make_table_game, None, session(), set_up_taps())
    left = game.state.crowns_left
    game, _ = replayed_views_agree([*set_up_taps(), *crowns(left - 1)])
    assert game.view(None)["crowns_seen"] == left - 1 and game.view(None)["crowns_differ"]
    game, _ = replayed_views_agree([*set_up_taps(), *crowns(left - 1), *crowns(left)])
    assert not game.view(None)["crowns_differ"]
