"""Reflecto live: set-up on the phones, moves from camera readings, breaches, guesses, privacy."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.errors import UserError
from companion.games.base import IllegalAction
from companion.games.reflecto.rules import ENGINE as REAL_ENGINE
from companion.games.reflecto.rules.actions import Remove, Step
from companion.games.reflecto.rules.engine import RULE_JUMP, RULE_ORDER
from companion.games.reflecto.table.live import ReflectoTable, make_table_game
from companion.games.reflecto.table.track import STABLE_FRAMES, board_of
from companion.live.conformance import Correct, Observe, check_table_game, play
from companion.live.table_game import Observation, TableGame
from companion.store import Session

from .helpers import ENGINE, greedy_game, letter, mirror, placed

SETUP0 = {"kind": "setup", "word": "PIANO", "columns": [1, 3, 5, 2, 4], "mirrors": [0, 6]}
SETUP1 = {"kind": "setup", "word": "LEMON", "columns": [2, 3, 4, 5, 6], "mirrors": [0, 1]}


def session(options: dict[str, Any] | None = None) -> Session:
    return Session("s1", "reflecto", options or {}, ["Ann", "Bob"], 0.0)


def board(cells: dict[tuple[int, int], int], hands: bool = False) -> Observation:
    screens = [{"cell": list(c), "owner": o, "confidence": 0.95} for c, o in sorted(cells.items())]
    return Observation({"screens": screens, "hands": hands, "board_found": True}, 0.95)


def start() -> dict[tuple[int, int], int]:
    return {**{(0, c): 0 for c in range(7)}, **{(6, c): 1 for c in range(7)}}


def seen(cells: dict[tuple[int, int], int]) -> list[Observe]:
    """A hand over the board, then the board steady for three frames."""
    return [Observe(board(cells, hands=True))] + [Observe(board(cells))] * 3


def moved(
    cells: dict[tuple[int, int], int], a: tuple[int, int], b: tuple[int, int] | None
) -> dict[tuple[int, int], int]:
    out = dict(cells)
    owner = out.pop(a)
    if b is not None:
        out[b] = owner
    return out


def test_the_table_game_contract() -> None:
    assert isinstance(make_table_game(None, session()), TableGame)
    with pytest.raises(UserError):
        make_table_game(None, session({"speed": 3}))
    with pytest.raises(UserError):
        make_table_game(None, Session("s", "reflecto", {}, ["A", "B", "C"], 0.0))


def test_set_up_moves_and_a_breach_replay_and_keep_secrets() -> None:
    cells = start()
    one = moved(cells, (0, 1), (1, 1))  # seat 0: A1 steps forward
    far = moved(one, (6, 3), (4, 3))  # seat 1: B3 two squares over nothing
    two = moved(one, (6, 3), (5, 3))
    steps = [
        Correct(SETUP0, 0),
        Correct(SETUP1, 1),
        *seen(cells),
        *seen(one),
        *seen(far),
        *seen(one),
        *seen(far),
        *seen(one),
        *seen(two),
    ]
    events = check_table_game(make_table_game, None, session(), steps)
    kinds = [e.kind for e in events]
    actions = [e.payload["action"] for e in events if e.kind == "reflecto.action"]
    assert actions == [
        {"type": "move", "screen": "A1", "to": [1, 1]},
        {"type": "move", "screen": "B3", "to": [5, 3]},
    ]
    breaches = [e for e in events if e.kind == "reflecto.breach"]
    # The same illegal move made again after putting the screen back is flagged again.
    assert len(breaches) == 2 and breaches[0].payload["rule"] == RULE_JUMP
    assert breaches[0].visibility == "public"
    assert kinds.count("reflecto.setup") == 2
    assert all(
        e.visibility == f"seat:{e.payload['seat']}" for e in events if e.kind == "reflecto.setup"
    )


def test_views_never_show_the_other_word_before_the_end() -> None:
    steps = [
        Correct(SETUP0, 0),
        *seen(start()),
        Correct(SETUP1, 1),
        *seen(start()),
        Correct({"kind": "hint"}, 0),
        Correct({"kind": "sight", "on": True}, 1),
    ]
    game, events = play(make_table_game, None, session(), steps)
    for seat, other in ((0, "LEMON"), (1, "PIANO"), (None, "PIANO")):
        text = json.dumps(game.view(seat))
        assert other not in text
        assert not [
            s
            for s in game.view(seat)["screens"]
            if s["owner"] != seat and set(s) != {"id", "owner", "cell"}
        ]
    assert game.view(0)["word"] == "PIANO" and game.view(0)["hint"]["seat"] == 0
    assert game.view(1)["hint"] is None and game.view(1)["sight"] == []
    # The events a seat receives: every public one and its own private ones.
    for seat, other in ((0, "LEMON"), (1, "PIANO")):
        mine = [e.payload for e in events if e.visibility in ("public", f"seat:{seat}")]
        assert other not in json.dumps(mine)


def test_a_guess_is_judged_without_showing_the_word_then_both_are_revealed() -> None:
    steps = [Correct(SETUP0, 0), Correct(SETUP1, 1)]
    game, _ = play(make_table_game, None, session({"guessing_frequently": True}), steps)
    with pytest.raises(UserError, match=r"^it is Ann's turn$"):
        game.correct({"kind": "guess", "word": "LEMON"}, 1)  # not seat 1's turn
    for draft in game.correct({"kind": "guess", "word": "melon"}, 0):
        game.apply_event(_event(draft))
    assert game.view(1)["guesses"][-1] == {"seat": 0, "word": "MELON", "right": False, "turn": 0}
    assert "LEMON" not in json.dumps(game.view(0)) and game.state.to_move == 1
    for draft in game.correct({"kind": "guess", "word": "PIANO"}, 1):
        game.apply_event(_event(draft))
    for seat in (None, 0, 1):
        v = game.view(seat)
        assert v["winner"] == 1 and v["words"] == ["PIANO", "LEMON"] and "Bob wins" in v["result"]


def _event(draft: Any) -> Any:
    from companion.store import Event

    return Event("s1", 1, 0.0, draft.kind, json.loads(json.dumps(draft.payload)), draft.visibility)


def _set_up_table() -> Any:
    """A live table whose two seats have tapped in their set-ups, as every game starts."""
    game = make_table_game(None, session())
    for setup, seat in ((SETUP0, 0), (SETUP1, 1)):
        for draft in game.correct(setup, seat):
            game.apply_event(_event(draft))
    return game


def _feed(game: Any, frames: list[Observation]) -> list[Any]:
    """The camera's frames through the table, each draft applied as the live loop does."""
    drafts = []
    for frame in frames:
        for draft in game.update(frame, 0.0):
            game.apply_event(_event(draft))
            drafts.append(draft)
    return drafts


def test_an_out_of_order_removal_is_told_to_its_owner_only() -> None:
    # A1 waits on seat 0's last line while A0, the next letter, is still on its way.
    state = placed(letter("A0", 0, (4, 4)), letter("A1", 1, (6, 2)), letter("B0", 0, (0, 0)))
    table = ReflectoTable(None, session())
    table.state = state
    cells = {cell: owner for cell, owner in board_of(state)}
    lifted = moved(cells, (6, 2), None)
    drafts = []
    for obs in [board(cells)] * 3 + [board(lifted, hands=True)] + [board(lifted)] * 3:
        drafts += table.update(obs, 0.0)
    breach = [d for d in drafts if d.kind == "reflecto.breach"]
    assert len(breach) == 1 and breach[0].payload["rule"] == RULE_ORDER
    assert breach[0].visibility == "seat:0"
    assert not [d for d in drafts if d.kind == "reflecto.action"]
    table.apply_event(_event(breach[0]))
    assert table.view(0)["breaches"] and not table.view(1)["breaches"]
    assert not table.view(None)["breaches"]
    # Put back, then A0 moves on: the tracker follows the engine's board again.
    ahead = moved(cells, (4, 4), (5, 4))
    drafts = []
    for obs in [board(cells, hands=True)] + [board(cells)] * 3 + [board(ahead)] * 3:
        drafts += table.update(obs, 0.0)
    assert [d.payload["action"] for d in drafts if d.kind == "reflecto.action"] == [
        {"type": "move", "screen": "A0", "to": [5, 4]}
    ]


def test_a_whole_scripted_game_is_tracked_from_the_camera_alone() -> None:
    """The board after every action of a greedy game, each change with a hand first: the
    table must end with the same board, removals and winner as the engine."""
    log = greedy_game()
    state = ENGINE.new_game(2)
    steps: list[Any] = [
        Correct(
            SETUP0
            | {"columns": list(log[0].letter_columns), "mirrors": list(log[0].mirror_columns)},
            0,
        ),
        Correct(
            SETUP1
            | {"columns": list(log[1].letter_columns), "mirrors": list(log[1].mirror_columns)},
            1,
        ),
    ]
    last = None
    for action in log:
        state = ENGINE.apply(state, action)
        now = board_of(state)
        if state.phase != "setup" and now != last:
            steps += seen({cell: owner for cell, owner in now})
            last = now
    game, events = play(make_table_game, None, session(), steps)
    assert not [e for e in events if e.kind == "reflecto.breach"]
    assert game.state.phase == "over" and game.state.winner == state.winner
    assert game.state.removed == state.removed
    assert board_of(game.state) == board_of(state)
    recorded = [
        REAL_ENGINE.action_from_json(e.payload["action"])
        for e in events
        if e.kind == "reflecto.action"
    ]

    def counts(actions: list[Any]) -> tuple[int, int]:
        steps = [a for a in actions if isinstance(a, Step)]
        lifts = [
            a for a in actions if isinstance(a, Remove) or (isinstance(a, Step) and a.to is None)
        ]
        return len(steps), len(lifts)

    assert counts(recorded) == counts(log)  # every move and every removal, once


def test_bad_input_from_the_phones() -> None:
    game, _ = play(make_table_game, None, session(), [Correct(SETUP0, 0)])
    with pytest.raises(UserError):
        game.correct(SETUP0, 0)  # once
    with pytest.raises(UserError):
        game.correct(SETUP1, None)  # a seat's own
    with pytest.raises(IllegalAction):
        game.correct(
            {"kind": "setup", "word": "LEMONS", "columns": [1, 2, 3, 4, 5, 6], "mirrors": [0]}, 1
        )
    with pytest.raises(UserError):
        game.correct({"nothing": 1}, 1)
    with pytest.raises(UserError):
        game.correct({"kind": "guess", "word": "12"}, 1)
    assert REAL_ENGINE.game_id == "reflecto"


def test_a_square_in_doubt_is_asked_about_not_guessed() -> None:
    cells = start()
    doubtful = board(cells)
    doubtful.data["screens"][3]["owner"] = None  # the perceiver cannot call [0, 3]
    steps = [Correct(SETUP0, 0), Correct(SETUP1, 1), *[Observe(doubtful)] * 12]
    game, events = play(make_table_game, None, session(), steps)
    assert [e.kind for e in events if e.kind in ("reflecto.seen", "reflecto.breach")] == []
    (question,) = game.questions(0)
    assert "row 1, column 4" in question.text  # square [0, 3], as the panel counts squares
    with pytest.raises(UserError):
        game.correct({"question": question.id, "answer": 7}, 0)
    for draft in game.correct({"question": question.id, "answer": 0}, 0):
        game.apply_event(_event(draft))
    assert game.questions(None) == []
    drafts = [d for _ in range(3) for d in game.update(doubtful, 0.0)]
    assert [d.kind for d in drafts] == ["reflecto.seen"]  # the start position, as answered
    steps += [Correct({"question": "square-0-3-0", "answer": 0}, 0), *[Observe(doubtful)] * 3]
    check_table_game(make_table_game, None, session(), steps)


def test_a_square_flickering_in_doubt_keeps_its_last_clear_call() -> None:
    """A square read in one frame and in doubt in the next, with no hand over the board in
    between, is what it was read as: nothing moved, so the board settles."""
    cells = start()
    clear = board(cells)
    doubtful = board(cells)
    doubtful.data["screens"][3]["owner"] = None  # the perceiver cannot call [0, 3]
    steps = [Correct(SETUP0, 0), Correct(SETUP1, 1), Observe(clear)]
    steps += [Observe(doubtful), Observe(clear)] * 3
    game, events = play(make_table_game, None, session(), steps)
    assert [e.kind for e in events if e.kind in ("reflecto.seen", "reflecto.breach")] == [
        "reflecto.seen"
    ]
    assert game.questions(None) == []


def test_a_square_in_doubt_between_hands_is_asked_about_and_the_answer_holds() -> None:
    """Hands between the frames, the square in doubt each time the board shows again: the
    board never settles, and the square is asked about all the same (doubt is counted until
    the board reads clearly three frames in a row); the answer stands while the camera
    agrees with it."""
    cells = start()
    clear = board(cells)
    doubtful = board(cells)
    doubtful.data["screens"][3]["owner"] = None  # the perceiver cannot call [0, 3]
    hands = board(cells)
    hands.data["hands"] = True
    cycle = [Observe(hands), Observe(doubtful), Observe(doubtful), Observe(clear)]
    steps = [Correct(SETUP0, 0), Correct(SETUP1, 1), *cycle * 6]
    game, events = play(make_table_game, None, session(), steps)
    assert [e.kind for e in events if e.kind in ("reflecto.seen", "reflecto.breach")] == []
    (question,) = game.questions(0)
    assert "row 1, column 4" in question.text  # square [0, 3], as the panel counts squares
    for draft in game.correct({"question": question.id, "answer": 0}, 0):
        game.apply_event(_event(draft))
    drafts = [d for frame in (hands, doubtful, clear, doubtful) for d in game.update(frame, 0.0)]
    assert [d.kind for d in drafts] == ["reflecto.seen"]  # the start position, as answered


def test_a_screen_new_where_an_unconfirmed_answer_could_have_come_from_is_asked_whence() -> None:
    """The camera never calls [0, 3]; the players said Ann's screen stands there. Ann then
    steps it to [1, 3], which the camera sees: one screen new, none gone. The table asks
    which square it came from, offering only the squares from which the rules let a screen
    of Ann's reach [1, 3] and that the camera does not call as hers ([0, 3]), and "none
    of these";
    [0, 3] books the move at once (before, every unconfirmed answer was asked again and
    the move booked only once the board settled with the answers: a round per move)."""

    def unsure(cells: dict[tuple[int, int], int]) -> Observation:
        return _never_called(cells, (0, 3))

    game = _start_with_0_3_answered(unsure)
    after = moved(start(), (0, 3), (1, 3))
    drafts = _feed(game, [board(after, hands=True)] + [unsure(after)] * 3)
    assert [d.kind for d in drafts if d.kind in ("reflecto.action", "reflecto.breach")] == []
    (whence,) = game.questions(0)
    assert whence.id.startswith("from-1-3-") and "row 2, column 4" in whence.text
    assert [ch["value"] for ch in whence.choices] == [[0, 3], None]
    booked = _answer(game, whence, [0, 3])
    assert [d.payload["action"] for d in booked if d.kind == "reflecto.action"] == [
        {"type": "move", "screen": "A3", "to": [1, 3]}
    ]
    later = _feed(game, [unsure(after)] * 6)
    assert [d.kind for d in later if d.kind in ("reflecto.action", "reflecto.breach")] == []
    assert game.questions(0) == []


def test_a_screen_new_from_none_of_the_squares_offered_is_judged_as_before() -> None:
    """The same change, the players saying the new screen came from none of the squares
    offered: not asked again; the unconfirmed answer on [0, 3] is asked again, as any
    answer a change says may be stale, and the move is booked on the new answer (no
    breach)."""

    def unsure(cells: dict[tuple[int, int], int]) -> Observation:
        return _never_called(cells, (0, 3))

    game = _start_with_0_3_answered(unsure)
    after = moved(start(), (0, 3), (1, 3))
    _feed(game, [board(after, hands=True)] + [unsure(after)] * 3)
    (whence,) = game.questions(0)
    _answer(game, whence, None)
    drafts = _feed(game, [unsure(after)] * 12)
    assert "reflecto.breach" not in [d.kind for d in drafts]
    (again,) = game.questions(0)
    assert again.id.startswith("square-") and "row 1, column 4" in again.text  # [0, 3]
    _answer(game, again, None)
    booked = [d for _ in range(3) for d in game.update(unsure(after), 0.0)]
    assert [d.payload["action"] for d in booked if d.kind == "reflecto.action"] == [
        {"type": "move", "screen": "A3", "to": [1, 3]}
    ]


def test_a_screen_new_whose_sources_the_camera_all_sees_is_no_whence_question() -> None:
    """A screen read on [1, 3] while every screen of Ann's stands where the camera calls
    it (no square it could have come from unseen) is a misread asked about as a square,
    never "which square did it come from?"."""
    game = _set_up_table()
    _feed(game, [board(start())] * 3)
    phantom = {**start(), (1, 3): 0}
    _feed(game, [board(phantom, hands=True)] + [board(phantom)] * 6)
    asked = [q.id for q in game.questions(None)]
    assert asked and not [q for q in asked if q.startswith("from-")]
    assert [q.split("-")[:3] for q in asked] == [["square", "1", "3"]]


def _start_with_0_3_answered(unsure: Any) -> Any:
    """A set-up table whose camera never calls [0, 3], told by the players that Ann's
    screen stands there (the answer unconfirmed since)."""
    steps = [Correct(SETUP0, 0), Correct(SETUP1, 1), *[Observe(unsure(start()))] * 12]
    game, _ = play(make_table_game, None, session(), steps)
    (question,) = game.questions(0)
    for draft in game.correct({"question": question.id, "answer": 0}, 0):
        game.apply_event(_event(draft))
    return game


def test_an_answer_the_engine_does_not_hold_is_asked_again_not_a_breach() -> None:
    """The players said nothing stands on [0, 5] (answered as a hand carried something over
    it) and the camera, missing the faint screen, agrees; the engine holds Ann's screen
    there. The change that answer makes is asked about again, never a breach."""
    unsure = board(start())
    unsure.data["screens"][5]["owner"] = None  # [0, 5]
    steps = [Correct(SETUP0, 0), Correct(SETUP1, 1), *seen(start())]
    steps += [Observe(board(start(), hands=True)), *[Observe(unsure)] * 12]
    game, _ = play(make_table_game, None, session(), steps)
    (question,) = game.questions(0)
    for draft in game.correct({"question": question.id, "answer": None}, 0):
        game.apply_event(_event(draft))
    faint = {c: o for c, o in start().items() if c != (0, 5)}
    drafts = _feed(game, [board(faint)] * 16)
    assert "reflecto.breach" not in [d.kind for d in drafts]
    (again,) = game.questions(0)
    assert "row 1, column 6" in again.text  # [0, 5] once more


def test_start_row_screens_read_as_empty_at_set_up_are_asked_about_not_taken_as_gone() -> None:
    """The rules put seven screens on each first row: until the camera has seen the start
    position, a start-row screen it reads as clearly empty (a faint top) is a question, not
    a screen gone, so no breach fires and the answer lets the start position settle."""
    faint = {c: o for c, o in start().items() if c not in ((6, 3), (6, 4))}
    steps = [Correct(SETUP0, 0), Correct(SETUP1, 1), *[Observe(board(faint))] * 12]
    game, events = play(make_table_game, None, session(), steps)
    assert [e.kind for e in events if e.kind in ("reflecto.seen", "reflecto.breach")] == []
    # Both faint squares asked about at once, not one round of frames each.
    first, second = game.questions(0)
    assert "row 7, column 4" in first.text  # square [6, 3], as the panel counts squares
    assert "row 7, column 5" in second.text  # square [6, 4]
    for question in (first, second):
        for draft in game.correct({"question": question.id, "answer": 1}, 1):
            game.apply_event(_event(draft))
    drafts = [d for _ in range(3) for d in game.update(board(faint), 0.0)]
    assert [d.kind for d in drafts] == ["reflecto.seen"]  # the start position, as answered
    for draft in drafts:
        game.apply_event(_event(draft))
    # Once the start position is seen, a first-row square read empty is a move's doing.
    after = moved(start(), (0, 3), (1, 3))
    drafts = [d for o in seen(after) for d in game.update(o.observation, 0.0)]
    assert "question" not in [d.kind for d in drafts]
    assert "reflecto.breach" not in [d.kind for d in drafts]
    assert [d.payload["action"]["type"] for d in drafts if d.kind == "reflecto.action"][:1] == [
        "move"
    ]


def test_a_board_read_empty_through_the_set_ups_is_asked_about_not_taken_as_the_start() -> None:
    """A camera that sees none of the screens reads the board empty while the set-ups are
    entered: that empty reading is the engine's board only before its set-ups are in, so it
    is never taken for the start position seen; every start-row square is asked about."""
    steps = [*[Observe(board({}))] * 4, Correct(SETUP0, 0), Correct(SETUP1, 1)]
    steps += [Observe(board({}))] * 12
    game, events = play(make_table_game, None, session(), steps)
    assert [e.kind for e in events if e.kind == "reflecto.breach"] == []
    asked = {q.text.split("row ")[1].split(".")[0] for q in game.questions(0)}
    assert len(asked) == 14 and "1, column 1" in asked and "7, column 7" in asked


def _two_moves_seen_as_one(answer: bool) -> tuple[Any, list[Any], list[Any]]:
    """Ann's step and Bob's step, the board settling only after both: the players are
    asked, and answer yes (the question's actions) or no."""
    cells = start()
    both = moved(moved(cells, (0, 1), (1, 1)), (6, 3), (5, 3))
    steps = [Correct(SETUP0, 0), Correct(SETUP1, 1), *seen(cells), *seen(both)]
    game, events = play(make_table_game, None, session(), steps)
    assert [e.kind for e in events if e.kind in ("reflecto.action", "reflecto.breach")] == []
    (question,) = game.questions(None)
    assert "Ann moved row 1, column 2 to row 2, column 2" in question.text
    assert "Bob moved row 7, column 4 to row 6, column 4" in question.text
    yes = next(c["value"] for c in question.choices if c["value"] is not None)
    drafts = game.correct({"question": question.id, "answer": yes if answer else None}, 0)
    for draft in drafts:
        game.apply_event(_event(draft))
    # The board steady again as it was: nothing asked or booked twice.
    later = [d for o in [Observe(board(both))] * 3 for d in game.update(o.observation, 0.0)]
    return game, drafts, later


def test_two_moves_seen_as_one_change_are_asked_about_and_booked_on_yes() -> None:
    game, drafts, later = _two_moves_seen_as_one(True)
    assert [d.payload["action"] for d in drafts if d.kind == "reflecto.action"] == [
        {"type": "move", "screen": "A1", "to": [1, 1]},
        {"type": "move", "screen": "B3", "to": [5, 3]},
    ]
    assert game.questions(None) == [] and later == []
    assert board_of(game.state) == frozenset(
        moved(moved(start(), (0, 1), (1, 1)), (6, 3), (5, 3)).items()
    )


def test_two_moves_seen_as_one_change_are_refused_on_no_never_booked() -> None:
    """On no, the camera misread a square or the change is illegal: each changed square is
    asked about, and only the same change confirmed square by square is the breach."""
    game, drafts, later = _two_moves_seen_as_one(False)
    assert [d.kind for d in drafts] == ["answer"]
    assert [d.kind for d in later] == ["question"] * 4  # asked while the board rests
    both = moved(moved(start(), (0, 1), (1, 1)), (6, 3), (5, 3))
    steps = [d for _ in range(12) for d in game.update(board(both), 0.0)]
    for draft in [*later, *steps]:
        game.apply_event(_event(draft))
    asked = {tuple(int(v) for v in q.id.split("-")[1:3]): q.id for q in game.questions(None)}
    assert set(asked) == {(0, 1), (1, 1), (6, 3), (5, 3)}
    for cell, question in asked.items():
        for draft in game.correct({"question": question, "answer": both.get(cell)}, 0):
            game.apply_event(_event(draft))
    drafts = [d for _ in range(3) for d in game.update(board(both), 0.0)]
    breaches = [d for d in drafts if d.kind == "reflecto.breach"]
    assert [b.payload["rule"] for b in breaches] == ["one screen moves per turn"]
    assert "reflecto.action" not in [d.kind for d in drafts]
    assert board_of(game.state) == frozenset(start().items())


def test_a_screen_read_as_gone_in_a_legal_move_is_asked_about_not_a_breach() -> None:
    """Ann steps A1 forward and the camera, settling, reads her screen on [0, 5] as gone: a
    screen leaves the board only by a removal, so [0, 5] is asked about (no breach), and the
    answer lets the move be booked."""
    cells = start()
    one = moved(cells, (0, 1), (1, 1))
    faint = {c: o for c, o in one.items() if c != (0, 5)}
    steps = [Correct(SETUP0, 0), Correct(SETUP1, 1), *seen(cells), *seen(faint)]
    steps += [Observe(board(faint))] * 12
    game, events = play(make_table_game, None, session(), steps)
    assert [e.kind for e in events if e.kind in ("reflecto.action", "reflecto.breach")] == []
    (question,) = game.questions(0)
    assert "row 1, column 6" in question.text  # square [0, 5]
    for draft in game.correct({"question": question.id, "answer": 0}, 0):
        game.apply_event(_event(draft))
    drafts = [d for _ in range(3) for d in game.update(board(faint), 0.0)]
    assert [d.payload["action"] for d in drafts if d.kind == "reflecto.action"] == [
        {"type": "move", "screen": "A1", "to": [1, 1]}
    ]
    assert "reflecto.breach" not in [d.kind for d in drafts]


@pytest.mark.parametrize(
    ("misread", "doubted"),
    [
        ({(3, 3): 1}, [(3, 3)]),  # a screen read where none stands
        ({(0, 5): 1}, [(0, 5)]),  # Ann's screen read in Bob's colour
        ({(1, 1): 1}, [(0, 1), (1, 1)]),  # the moved screen read landing in Bob's colour
        ({(6, c): None for c in range(7)}, [(6, c) for c in range(7)]),  # Bob's all faint
        (  # most screens faint, the seats' colours taken for each other on the rest
            {
                **{c: None for c in start()},
                **{(0, 0): 1, (0, 2): 1, (6, 0): 0, (6, 1): 0},
            },
            [c for c in start() if c != (0, 1)],  # all but the move's squares
        ),
    ],
)
def test_a_misread_that_legal_play_explains_away_is_asked_about_not_a_breach(
    misread: dict[tuple[int, int], int | None], doubted: list[tuple[int, int]]
) -> None:
    """Ann steps A1 forward and the camera, settling, misreads squares no legal play can
    have changed: a screen never appears from nowhere, never changes colour (not even the
    one that moved), never leaves the board but by a removal. Every such square is asked
    about at once (no breach), and the answers let the move be booked."""
    one = moved(start(), (0, 1), (1, 1))
    read = {c: o for c, o in {**one, **misread}.items() if o is not None}
    steps = [Correct(SETUP0, 0), Correct(SETUP1, 1), *seen(start()), *seen(read)]
    steps += [Observe(board(read))] * 12
    game, events = play(make_table_game, None, session(), steps)
    assert [e.kind for e in events if e.kind in ("reflecto.action", "reflecto.breach")] == []
    questions = game.questions(0)
    asked = {tuple(int(v) for v in q.id.split("-")[1:3]) for q in questions}
    assert len(questions) == len(doubted) and asked == set(doubted)
    for question in questions:
        r, c = (int(v) for v in question.id.split("-")[1:3])
        for draft in game.correct({"question": question.id, "answer": one.get((r, c))}, 0):
            game.apply_event(_event(draft))
    drafts = [d for _ in range(3) for d in game.update(board(read), 0.0)]
    assert [d.payload["action"] for d in drafts if d.kind == "reflecto.action"] == [
        {"type": "move", "screen": "A1", "to": [1, 1]}
    ]
    assert "reflecto.breach" not in [d.kind for d in drafts]


def test_the_print_is_learned_only_where_the_engine_and_the_camera_agree_a_square_is_free() -> None:
    """The perceiver learns the board's print from the squares the engine says are free,
    only in frames where every screen the engine has is seen in its place (a move in
    progress leaves its square) and no screen is seen elsewhere; a square in doubt only
    once the players said nothing stands there."""
    from companion.games.reflecto.vision.reading import BoardReading, ScreenSeen

    def reading(cells: dict[tuple[int, int], int], unclear: tuple = ()) -> BoardReading:
        return BoardReading(tuple(ScreenSeen(c, o) for c, o in cells.items()), (), True, unclear)

    game, _ = play(make_table_game, None, session(), [Correct(SETUP0, 0), Correct(SETUP1, 1)])
    middle = [(r, c) for r in range(1, 6) for c in range(7)]
    assert game.known_empty(reading(start())) == middle
    assert game.known_empty(reading(moved(start(), (0, 3), None))) == []  # lifted
    assert game.known_empty(reading(moved(start(), (0, 3), (1, 3)))) == []  # moved
    extra = {**start(), (3, 3): 1}
    assert game.known_empty(reading(extra)) == []
    doubt = game.known_empty(reading(start(), ((3, 3),)))
    assert (3, 3) not in doubt and len(doubt) == len(middle) - 1
    game.answers[(3, 3)] = None
    assert game.known_empty(reading(start(), ((3, 3),))) == middle
    faint = reading(moved(start(), (6, 3), None), ((6, 3),))
    assert game.known_empty(faint) == []
    game.answers[(6, 3)] = 1
    assert game.known_empty(faint) == middle


def test_a_board_still_unexplained_after_a_breach_asks_the_admin_whose_turn_it_is() -> None:
    """Bob's illegal step is flagged; the players go on without putting it back (Ann moves).
    A second breach, and one for every move after, would judge a board the table no longer
    shares: the admin is asked instead, and their answer makes the camera's board the
    game's, with the turn they name."""
    cells = start()
    one = moved(cells, (0, 1), (1, 1))
    far = moved(one, (6, 3), (4, 3))
    on = moved(far, (0, 2), (1, 2))
    steps = [Correct(SETUP0, 0), Correct(SETUP1, 1), *seen(cells), *seen(one), *seen(far)]
    game, events = play(make_table_game, None, session(), [*steps, *seen(on)])
    assert [e.kind for e in events].count("reflecto.breach") == 1
    (lost,) = game.questions(None)
    assert lost.id.startswith("lost-") and "whose turn" in lost.text
    with pytest.raises(UserError, match="admin"):
        game.correct({"question": lost.id, "answer": 1}, 0)
    for draft in game.correct({"question": lost.id, "answer": 1}, None):
        game.apply_event(_event(draft))
    assert board_of(game.state) == frozenset(on.items()) and game.state.to_move == 1
    assert not game.state.moved and game.questions(None) == []
    later = moved(on, (6, 5), (5, 5))  # Bob's next step is followed again
    drafts = _feed(game, [board(later, hands=True)] + [board(later)] * 3)
    assert [d.payload["action"]["screen"] for d in drafts if d.kind == "reflecto.action"] == ["B5"]


def test_a_settled_board_that_keeps_needing_answers_has_its_colours_learned_anew() -> None:
    """Two screens the camera stopped finding on a board the players confirmed (the light
    changed): the perceiver is given the whole board to learn the colours from, once, and
    not at every frame after."""
    from companion.games.reflecto.table.live import RELEARN_EVERY

    game = _set_up_table()
    assert game.board_to_learn() == frozenset(start().items())  # the start position
    game.colours_learned(None)
    assert game.board_to_learn() is None
    faint = {c: o for c, o in start().items() if c not in ((0, 2), (6, 4))}
    frame = Observation(
        {**board(faint).data, "unclear": [[0, 2], [6, 4]]},  # type: ignore[dict-item]
        0.3,
    )
    _feed(game, [frame] * 3)
    for question in game.questions(None):
        _, r, c, _ = question.id.split("-")
        for draft in game.correct({"question": question.id, "answer": start()[int(r), int(c)]}, 0):
            game.apply_event(_event(draft))
    _feed(game, [frame] * RELEARN_EVERY)
    assert game.board_to_learn() == frozenset(start().items())
    assert game.board_to_learn() is None


def test_a_square_read_empty_since_the_hands_left_stays_empty_through_a_flicker() -> None:
    """The square a screen left, read empty once the hand is away and then in doubt for a
    frame: nothing moved without a hand, so the move counts after three frames, within the
    rest (an emptied square was never held, and its flicker kept the board unsettled)."""
    game = _set_up_table()
    _feed(game, [board(start())] * 3)
    one = moved(start(), (0, 1), (1, 1))
    flicker = Observation({**board(one).data, "unclear": [[0, 1]]}, 0.3)  # type: ignore[dict-item]
    drafts = _feed(game, [board(one, hands=True), board(one), flicker, board(one)])
    assert [d.payload["action"] for d in drafts if d.kind == "reflecto.action"] == [
        {"type": "move", "screen": "A1", "to": [1, 1]}
    ]


def test_a_landing_square_flickering_between_unclear_and_empty_is_asked_and_kept() -> None:
    """Ann steps A1 forward; the reader calls the square it left empty and the square it
    reached now unclear, now empty, frame after frame. Held at its clear call, the landing
    square leaves a screen gone from the board, which no legal play explains: the square
    it flickered on is asked about (not the one it left, read right), and the players'
    "Ann's screen" stands through the flicker, so the move is booked and nothing flagged."""
    game = _set_up_table()
    _feed(game, [board(start())] * 3)
    one = moved(start(), (0, 1), (1, 1))
    read = moved(one, (1, 1), None)
    unclear = Observation({**board(read).data, "unclear": [[1, 1]]}, 0.3)  # type: ignore[dict-item]
    drafts = _feed(game, [board(read, hands=True)])
    asked: list[str] = []
    for frame in [unclear, board(read)] * 8:
        drafts += _feed(game, [frame])
        for question in game.questions(None):
            asked.append(question.id)
            _, r, c, _ = question.id.split("-")
            said = one.get((int(r), int(c)))
            for draft in game.correct({"question": question.id, "answer": said}, 0):
                game.apply_event(_event(draft))
    assert asked and all(q.startswith("square-1-1-") for q in asked)
    assert "reflecto.breach" not in [d.kind for d in drafts]
    assert [d.payload["action"] for d in drafts if d.kind == "reflecto.action"] == [
        {"type": "move", "screen": "A1", "to": [1, 1]}
    ]


def test_a_change_of_more_squares_than_two_moves_is_asked_about_never_a_breach() -> None:
    """Half of each first row read in the other seat's colour and a screen read off its
    square: no legal play and no two moves explain it. Every such square is asked about;
    confirmed as the camera saw it, the admin is asked whose turn it is (no breach)."""
    game = _set_up_table()
    _feed(game, [board(start())] * 3)
    odd = {c: (1 - o if c[1] < 3 else o) for c, o in start().items()}
    odd = moved(odd, (0, 5), (3, 5))
    drafts = _feed(game, [board(odd, hands=True)] + [board(odd)] * 6)
    asked = [q.id for q in game.questions(None)]
    assert len(asked) == 8 and all(q.startswith("square-") for q in asked)
    for _ in range(3):  # answers the change then makes stale are asked again, once
        for question in game.questions(None):
            _, r, c, _ = question.id.split("-")
            said = odd.get((int(r), int(c)))
            for draft in game.correct({"question": question.id, "answer": said}, 0):
                game.apply_event(_event(draft))
        drafts += _feed(game, [board(odd)] * 3)
    assert "reflecto.breach" not in [d.kind for d in drafts]
    assert [q.id.split("-")[0] for q in game.questions(None)] == ["lost"]


def test_a_removal_missed_while_the_track_was_lost_is_judged_by_the_engine() -> None:
    """Ann's next letter A0 stands on her second-to-last line; she steps it onto her last
    line and lifts it off, and Bob moves, all unseen by the table (a hand in the way).
    No legal play explains the board: a breach, then, as play goes on, the admin is asked
    whose turn it is. The camera's board has one screen of Ann's fewer: the only way off
    the board is a removal of her next letter, which the engine books; her other screens
    and Bob's are placed as seen, and Bob's next step is followed again."""
    state = placed(
        letter("A0", 0, (5, 1)),
        letter("A1", 1, (2, 3)),
        letter("A2", 2, (1, 5)),
        letter("B0", 0, (4, 4)),
        letter("B1", 1, (5, 6)),
    )
    table, cells = _settled_at(state)
    gone = moved(moved(cells, (5, 1), None), (4, 4), (3, 4))
    drafts = _feed(table, [board(gone, hands=True)] + [board(gone)] * 3)
    assert [d.kind for d in drafts].count("reflecto.breach") == 1
    on = moved(gone, (2, 3), (3, 3))
    _feed(table, [board(on, hands=True)] + [board(on)] * 3)
    (lost,) = _answered_as_seen(table, on)
    assert lost.id.startswith("lost-")
    drafts = table.correct({"question": lost.id, "answer": 1}, None)
    for draft in drafts:
        table.apply_event(_event(draft))
    assert [d.payload["action"] for d in drafts if d.kind == "reflecto.action"] == [
        {"type": "remove", "screen": "A0"}
    ]
    assert table.state.removed == (("A0",), ())
    assert board_of(table.state) == frozenset(on.items()) and table.state.to_move == 1
    later = moved(on, (3, 4), (2, 4))
    drafts = _feed(table, [board(later, hands=True)] + [board(later)] * 3)
    assert [d.payload["action"] for d in drafts if d.kind == "reflecto.action"] == [
        {"type": "move", "screen": "B0", "to": [2, 4]}
    ]


def test_a_lost_board_short_of_a_mirror_is_refused_never_booked() -> None:
    """A board that has lost more of Ann's screens than she has letters left to remove (a
    mirror can never leave the board): the admin's answer is refused, nothing is booked."""
    state = placed(
        letter("A0", 0, (5, 1)),
        mirror("A5", (2, 2)),
        letter("B0", 0, (4, 4)),
        letter("B1", 1, (5, 6)),
    )
    table, cells = _settled_at(state)
    gone = moved(moved(moved(cells, (5, 1), None), (2, 2), None), (4, 4), (3, 4))
    _feed(table, [board(gone, hands=True)] + [board(gone)] * 3)
    on = moved(gone, (5, 6), (4, 6))
    _feed(table, [board(on, hands=True)] + [board(on)] * 3)
    (lost,) = _answered_as_seen(table, on)
    with pytest.raises(UserError, match="cannot be the board"):
        table.correct({"question": lost.id, "answer": 0}, None)
    assert table.state == state


def _settled_at(state: Any) -> tuple[Any, dict[tuple[int, int], int]]:
    """A table whose engine holds `state`, the camera's steady board agreeing with it; and
    that board's squares by owner."""
    table = ReflectoTable(None, session())
    table.state = state
    cells = {c: o for c, o in board_of(state)}
    _feed(table, [board(cells)] * 3)
    return table, cells


def _answered_as_seen(table: Any, cells: dict[tuple[int, int], int]) -> list[Any]:
    """The board fed again and the squares the table asks about answered as the camera
    sees them (the players confirm the board), round after round; the questions left."""
    for _ in range(8):
        _feed(table, [board(cells)] * 3)
        if any(q.id.startswith("lost-") for q in table.questions(None)):
            break
        squares = [q for q in table.questions(None) if q.id.startswith("square-")]
        for question in squares:
            _, r, c, _ = question.id.split("-")
            said = cells.get((int(r), int(c)))
            for draft in table.correct({"question": question.id, "answer": said}, 0):
                table.apply_event(_event(draft))
    return list(table.questions(None))


def _landing_unseen() -> tuple[Any, dict[tuple[int, int], int]]:
    """Ann steps A1 from [0, 1] to [1, 1] and the camera, settling, reads [1, 1] clearly
    empty in every frame (the screen there unseen): one screen gone, nothing new. The
    table, and the board the camera reads from then on."""
    faint = {c: o for c, o in start().items() if c != (0, 1)}
    steps = [Correct(SETUP0, 0), Correct(SETUP1, 1), *seen(start()), *seen(faint)]
    steps += [Observe(board(faint))] * 12
    game, events = play(make_table_game, None, session(), steps)
    assert [e.kind for e in events if e.kind in ("reflecto.action", "reflecto.breach")] == []
    return game, faint


def _answer(game: Any, question: Any, said: Any) -> list[Any]:
    drafts = game.correct({"question": question.id, "answer": said}, 0)
    for draft in drafts:
        game.apply_event(_event(draft))
    return list(drafts)


def test_a_screen_gone_with_no_landing_seen_is_asked_where_it_is_and_booked() -> None:
    """The players are asked where Ann's screen went, offered the squares the rules let it
    reach (steps and jump chains, from the engine) and "still there"; their square books
    the move, and the camera still not seeing the screen there makes no breach and no
    further question."""
    game, faint = _landing_unseen()
    (question,) = game.questions(None)
    assert question.id.startswith("where-0-1-") and "row 1, column 2" in question.text
    offered = [ch["value"] for ch in question.choices]
    state = game.state
    reach = {
        tuple(a.to)
        for a in REAL_ENGINE.legal_actions(state)
        if isinstance(a, Step) and a.screen == "A1" and a.to is not None
    }
    assert {tuple(v) for v in offered if isinstance(v, list)} == reach and (1, 1) in reach
    assert "still" in offered and None in offered
    drafts = _answer(game, question, [1, 1])
    assert [d.payload["action"] for d in drafts if d.kind == "reflecto.action"] == [
        {"type": "move", "screen": "A1", "to": [1, 1]}
    ]
    later = _feed(game, [board(faint)] * 12)
    assert [d.kind for d in later if d.kind in ("reflecto.action", "reflecto.breach")] == []
    assert game.questions(None) == []
    # Bob's next move, seen, is booked on the board the answer left.
    bob = moved(faint, (6, 3), (5, 3))
    booked = _feed(game, [board(bob, hands=True)] + [board(bob)] * 3)
    assert [d.payload["action"] for d in booked if d.kind == "reflecto.action"][-1] == {
        "type": "move",
        "screen": "B3",
        "to": [5, 3],
    }


def test_a_screen_said_still_there_books_nothing_and_else_is_judged_as_before() -> None:
    """Said "still there": the square is held as answered and nothing is booked. "Somewhere
    else": not asked again; the change is judged as a change no legal play explains."""
    game, faint = _landing_unseen()
    (question,) = game.questions(None)
    drafts = _answer(game, question, "still")
    assert [d.kind for d in drafts] == ["answer"]
    later = _feed(game, [board(faint)] * 12)
    assert [d.kind for d in later if d.kind in ("reflecto.action", "reflecto.breach")] == []
    assert game.questions(None) == [] and game.state.turn == 0
    game, faint = _landing_unseen()
    (question,) = game.questions(None)
    _answer(game, question, None)
    later = _feed(game, [board(faint)] * 12)
    assert not any(q.id.startswith("where-") for q in game.questions(None))
    assert "reflecto.action" not in [d.kind for d in later]


def test_a_flickering_landing_square_is_asked_about_as_soon_as_the_board_settles() -> None:
    """The same flicker: the question about the landing square comes on the frame the board
    settles on a change no legal play explains (the table's own doubt, which more frames
    cannot resolve), not after `ASK_AFTER_FRAMES` more frames of doubt: a rest is about six
    frames, and a question that came later was answered during the next move."""
    game = _set_up_table()
    _feed(game, [board(start())] * 3)
    read = moved(moved(start(), (0, 1), (1, 1)), (1, 1), None)
    unclear = Observation({**board(read).data, "unclear": [[1, 1]]}, 0.3)  # type: ignore[dict-item]
    _feed(game, [board(read, hands=True)])
    frames = 0
    while not game.questions(None) and frames < 12:
        _feed(game, [[unclear, board(read)][frames % 2]])
        frames += 1
    # Settled on the 5th frame after the hands (unclear, read, unclear held, read, ...).
    assert [q.id.split("-")[:3] for q in game.questions(None)] == [["square", "1", "1"]]
    assert frames <= 5


def _never_called(cells: dict[tuple[int, int], int], cell: tuple[int, int]) -> Observation:
    """A frame of `cells` in which the camera does not call `cell` (unclear)."""
    frame = board({c: o for c, o in cells.items() if c != cell})
    frame.data["unclear"] = [list(cell)]
    return frame


def _unsure_6_4(cells: dict[tuple[int, int], int]) -> Observation:
    return _never_called(cells, (6, 4))


def _bobs_6_4_said_to_stand() -> Any:
    """A set-up table whose camera never calls Bob's screen on [6, 4], asked about it once
    and told by the players that it stands there (the answer stays unconfirmed)."""
    game = _set_up_table()
    _feed(game, [_unsure_6_4(start())] * 4)
    (question,) = game.questions(None)
    assert question.id.startswith("square-6-4-")
    _answer(game, question, 1)
    _feed(game, [_unsure_6_4(start())] * 3)
    return game


def test_a_screen_gone_while_an_unconfirmed_answer_stands_is_asked_where_at_once() -> None:
    """Bob's screen on [6, 4] is never called by the camera; the players said it stands
    there. Ann steps A1 from [0, 1] to [1, 1] and the camera reads [1, 1] clearly empty:
    one screen gone, nothing new. "Where is it now?" is asked on the frame the board
    settles, before the unconfirmed answer on [6, 4] is asked again (a rest is about six
    frames: asked one after the other, the landing's question came during the next move),
    and the players' square books the move."""

    game = _bobs_6_4_said_to_stand()
    faint = moved(start(), (0, 1), None)
    drafts = _feed(game, [board(faint, hands=True)] + [_unsure_6_4(faint)] * 3)
    assert [d.kind for d in drafts if d.kind in ("reflecto.action", "reflecto.breach")] == []
    (where,) = game.questions(None)
    assert where.id.startswith("where-0-1-")
    booked = _answer(game, where, [1, 1])
    assert [d.payload["action"] for d in booked if d.kind == "reflecto.action"] == [
        {"type": "move", "screen": "A1", "to": [1, 1]}
    ]


def test_a_screen_read_gone_beside_a_move_is_asked_before_unconfirmed_answers() -> None:
    """Bob's screen on [6, 4] is never called by the camera; the players said it stands
    there. Ann steps A1 from [0, 1] to [1, 1], seen, while her screen on [0, 5] turns faint
    (read empty). The square that makes the change legal, [0, 5], is asked about first,
    not the unconfirmed answer on [6, 4] (that one is asked again at every change the
    camera cannot explain, and a rest never got further), and the move is booked."""

    game = _bobs_6_4_said_to_stand()
    after = moved(start(), (0, 1), (1, 1))
    faint = moved(after, (0, 5), None)
    drafts = _feed(game, [board(faint, hands=True)] + [_unsure_6_4(faint)] * 6)
    assert [d.kind for d in drafts if d.kind in ("reflecto.action", "reflecto.breach")] == []
    (asked,) = game.questions(None)
    assert asked.id.startswith("square-0-5-")
    _answer(game, asked, 0)
    booked = _feed(game, [_unsure_6_4(faint)] * 3)
    assert [d.payload["action"] for d in booked if d.kind == "reflecto.action"] == [
        {"type": "move", "screen": "A1", "to": [1, 1]}
    ]


def test_start_row_screens_the_camera_never_sees_are_followed_through_the_next_moves() -> None:
    """Bob's screens on [6, 3] and [6, 4] read clearly empty at every rest (a seat the
    camera does not see there), and the players said they stand there. Once the start
    position is seen, their answers hold while the camera reads those squares empty: Ann's
    next move is booked with no question (before, the answers were dropped at the first
    frame after the start, both screens read as gone and asked about again at the move,
    costing the rest). When Bob's screen appears on [5, 3], the screen the camera never
    saw is asked about, never booked on the camera's word."""
    faint = {c: o for c, o in start().items() if c not in ((6, 3), (6, 4))}
    game = _set_up_table()
    _feed(game, [board(faint)] * 4)
    for question in game.questions(None):
        _answer(game, question, 1)
    _feed(game, [board(faint)] * 3)
    assert game.camera == board_of(game.state)  # the start position, as answered
    ann = moved(faint, (0, 3), (1, 3))
    drafts = _feed(game, [board(ann, hands=True)] + [board(ann)] * 3)
    assert [d.kind for d in drafts if d.kind != "reflecto.seen"] == ["reflecto.action"]
    assert drafts[-1].payload["action"] == {"type": "move", "screen": "A3", "to": [1, 3]}
    bob = {**ann, (5, 3): 1}
    drafts = _feed(game, [board(bob, hands=True)] + [board(bob)] * 6)
    assert not [d for d in drafts if d.kind in ("reflecto.action", "reflecto.breach")]
    (whence,) = game.questions(None)
    assert whence.id.startswith("from-5-3-")
    offered = [ch["value"] for ch in whence.choices]
    assert [6, 3] in offered and offered[-1] is None
    assert all(v is None or tuple(v) in ((6, 2), (6, 3), (6, 4)) for v in offered)
    drafts = _answer(game, whence, [6, 3])
    booked = [d.payload["action"] for d in drafts if d.kind == "reflecto.action"]
    assert booked[-1] == {"type": "move", "screen": "B3", "to": [5, 3]}
    drafts = _feed(game, [board(bob)] * 6)
    assert not [d for d in drafts if d.kind in ("reflecto.action", "reflecto.breach")]


def test_a_start_square_held_by_an_answer_read_empty_after_doubt_is_asked_where() -> None:
    """Bob's screen on [6, 3] reads clearly empty at set-up (a seat the camera does not see
    there) and the players said it stands there; at the end of Ann's move's rest the
    camera cannot call it. Bob moves it to [5, 3], and the camera reads both squares
    clearly empty. The reader's call on [6, 3] changed across the hand (in doubt before,
    clearly empty now), so the answer no longer holds the square: "where is it now?" is
    asked and the players' square books the move (before, the answer held [6, 3], the
    board read as the engine had it, and Bob's move was never noticed)."""
    faint = {c: o for c, o in start().items() if c != (6, 3)}
    game = _set_up_table()
    _feed(game, [board(faint)] * 4)
    for question in game.questions(None):
        _answer(game, question, 1)
    _feed(game, [board(faint)] * 3)
    ann = moved(faint, (0, 3), (1, 3))
    drafts = _feed(game, [board(ann, hands=True)] + [_never_called(ann, (6, 3))] * 4)
    assert [d.payload["action"] for d in drafts if d.kind == "reflecto.action"] == [
        {"type": "move", "screen": "A3", "to": [1, 3]}
    ]
    drafts = _feed(game, [board(ann, hands=True)] + [board(ann)] * 6)
    assert not [d for d in drafts if d.kind in ("reflecto.action", "reflecto.breach")]
    (where,) = game.questions(None)
    assert where.id.startswith("where-6-3-")
    booked = _answer(game, where, [5, 3])
    assert [d.payload["action"] for d in booked if d.kind == "reflecto.action"] == [
        {"type": "move", "screen": "B3", "to": [5, 3]}
    ]
    # Read clearly empty at every rest, in doubt only in the frame as the arm comes: the
    # answer holds (refltrack8), Ann's move is booked with no question.
    game = _set_up_table()
    _feed(game, [board(faint)] * 4)
    for question in game.questions(None):
        _answer(game, question, 1)
    _feed(game, [board(faint)] * 3 + [_never_called(faint, (6, 3))])
    drafts = _feed(game, [board(ann, hands=True)] + [board(ann)] * 6)
    assert [d.payload["action"] for d in drafts if d.kind == "reflecto.action"] == [
        {"type": "move", "screen": "A3", "to": [1, 3]}
    ]
    assert game.questions(None) == [] and game.answers[(6, 3)] == 1


def _bobs_unseen_move() -> tuple[Any, dict[tuple[int, int], int]]:
    """Bob's screen on [6, 4] is never called by the camera (the players said it stands
    there). Ann steps A1 to [1, 1], seen and booked; Bob steps B4 from [6, 4] to [5, 4],
    which the camera reads clearly empty ([6, 4] still in doubt): nothing changed, by the
    answer. Ann then steps A1 on to [2, 1], seen: a move of Ann's during Bob's turn."""
    game = _bobs_6_4_said_to_stand()
    ann = moved(start(), (0, 1), (1, 1))
    drafts = _feed(game, [board(ann, hands=True)] + [_unsure_6_4(ann)] * 4)
    assert [d.payload["action"] for d in drafts if d.kind == "reflecto.action"] == [
        {"type": "move", "screen": "A1", "to": [1, 1]}
    ]
    bob = moved(ann, (6, 4), None)  # B4 on [5, 4], read empty; [6, 4] in doubt
    drafts = _feed(game, [board(bob, hands=True)] + [_unsure_6_4(bob)] * 4)
    assert not [d for d in drafts if d.kind in ("reflecto.action", "reflecto.breach")]
    again = moved(bob, (1, 1), (2, 1))
    drafts = _feed(game, [board(again, hands=True)] + [_unsure_6_4(again)] * 3)
    assert not [d for d in drafts if d.kind in ("reflecto.action", "reflecto.breach")]
    return game, again


def test_a_move_seen_out_of_turn_asks_which_move_the_camera_missed_and_books_both() -> None:
    """Ann's move seen while it is Bob's turn: a turn is never skipped, so the camera missed
    Bob's move (the square it left held by the players' answer, its landing read empty).
    "Which move did Bob make?" is asked, offering Bob's moves from squares the camera does
    not call as his after which Ann's move is legal; the players' choice books both moves
    (before, every answer was asked again at every rest and the game was lost), and the
    camera still not seeing B4 on [5, 4] makes no breach and no question."""
    game, again = _bobs_unseen_move()
    (question,) = game.questions(None)
    assert question.id.startswith("unseen-2-1-") and "Bob" in question.text
    offered = [ch["value"] for ch in question.choices]
    assert [[6, 4], [5, 4]] in offered and offered[-1] is None
    # Only from squares the camera does not call as Bob's: [6, 4] is the one.
    assert {tuple(v[0]) for v in offered if v is not None} == {(6, 4)}
    drafts = _answer(game, question, [[6, 4], [5, 4]])
    assert [d.payload["action"] for d in drafts if d.kind == "reflecto.action"] == [
        {"type": "move", "screen": "B4", "to": [5, 4]},
        {"type": "move", "screen": "A1", "to": [2, 1]},
    ]
    later = _feed(game, [_unsure_6_4(again)] * 8)
    assert not [d for d in later if d.kind in ("reflecto.action", "reflecto.breach")]
    assert game.questions(None) == []
    assert ((5, 4), 1) in board_of(game.state) and ((2, 1), 0) in board_of(game.state)


def test_a_move_out_of_turn_said_none_of_these_is_not_asked_again() -> None:
    """Said "none of these": nothing is booked and the question is not asked again for that
    square; the change is judged as before."""
    game, again = _bobs_unseen_move()
    (question,) = game.questions(None)
    _answer(game, question, None)
    later = _feed(game, [_unsure_6_4(again)] * 12)
    assert "reflecto.action" not in [d.kind for d in later]
    assert not any(q.id.startswith("unseen-") for q in game.questions(None))


def _bobs_last_line_blinks(to_move: int, rank: int) -> tuple[Any, list[Any], Any]:
    """Bob's letter B0 (his next in word order when `rank` is 0, else B1 is) stands on his
    last line, row 1; with no hand over the board the camera reads its square empty for a
    few frames, then sees it again. The table, its drafts, and the state before."""
    state = placed(
        letter("A0", 0, (4, 4)),
        letter("A1", 1, (2, 2)),
        letter("B0", rank, (0, 3)),
        letter("B1", 1 - rank, (3, 5)),
        to_move=to_move,
    )
    table, cells = _settled_at(state)
    blank = moved(cells, (0, 3), None)
    drafts = _feed(table, [board(blank)] * (STABLE_FRAMES + 3) + [board(cells)] * 3)
    return table, drafts, state


@pytest.mark.parametrize(("to_move", "rank"), [(0, 0), (1, 0), (1, 1)])
def test_a_screen_on_its_owner_s_last_line_read_empty_with_no_hand_is_no_event(
    to_move: int, rank: int
) -> None:
    """A screen leaves the board only in a hand: its square read empty with no hand seen
    since the camera saw it there is the reader's doubt, neither a move out of turn (Ann's
    turn), nor a removal (Bob's, B0 his next letter), nor one out of order (B1 next)."""
    table, drafts, state = _bobs_last_line_blinks(to_move, rank)
    assert [d.kind for d in drafts if d.kind in ("reflecto.action", "reflecto.breach")] == []
    assert table.state == state


def test_a_last_line_screen_read_empty_with_no_hand_is_asked_and_booked_on_the_answer() -> None:
    """Bob's next letter B0 on his last line read empty, no hand seen since it was seen
    there, and it stays so: "what is there?" is asked (not booked on the reader's word),
    and the players' "nothing" books the removal through the engine."""
    state = placed(
        letter("A0", 0, (4, 4)), letter("B0", 0, (0, 3)), letter("B1", 1, (3, 5)), to_move=1
    )
    table, cells = _settled_at(state)
    blank = moved(cells, (0, 3), None)
    drafts = _feed(table, [board(blank)] * (STABLE_FRAMES + 3))
    assert "reflecto.action" not in [d.kind for d in drafts]
    (question,) = table.questions(None)
    assert question.id.startswith("square-0-3-")
    _answer(table, question, None)
    drafts = _feed(table, [board(blank)] * STABLE_FRAMES)
    assert [d.payload["action"] for d in drafts if d.kind == "reflecto.action"] == [
        {"type": "remove", "screen": "B0"}
    ]


def test_a_last_line_screen_lifted_in_a_hand_is_still_a_removal() -> None:
    """The same square read empty after a hand over the board: the removal is booked."""
    state = placed(
        letter("A0", 0, (4, 4)), letter("B0", 0, (0, 3)), letter("B1", 1, (3, 5)), to_move=1
    )
    table, cells = _settled_at(state)
    blank = moved(cells, (0, 3), None)
    drafts = _feed(table, [board(blank, hands=True)] + [board(blank)] * STABLE_FRAMES)
    assert [d.payload["action"] for d in drafts if d.kind == "reflecto.action"] == [
        {"type": "remove", "screen": "B0"}
    ]
    assert table.questions(None) == []
