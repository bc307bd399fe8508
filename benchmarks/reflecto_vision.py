"""Reflecto at the table: how well and how fast the companion reads the board.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_vision.py --part recognition \\
        --set random --seed SEED --boards 500          # also --set house, --set heldout
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_vision.py --part speed --frames 40
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_vision.py --part tracking \\
        --seed SEED --games 200 --max-moves 6
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_vision.py --part tracking \\
        --seed SEED --games 3 --guesses 0.25 --section tracking_whole_games   # --look model
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_vision.py --part hands \\
        --seed SEED --games 40 --fps 1

- recognition: rendered boards (seeds (SEED, i); pass a SEED never used in development),
  camera overhead to 25° tilt, any turn of the board, random board art and screen colours,
  glare, uneven light, noise, blur, JPEG, arms. Each board is read as live play reads it,
  with the colours learned from a set-up photograph of the same table, and also as `read`
  reads a loose photograph (colours learned from the picture itself). A board is "entirely
  right" when the set of (square, owner) is exactly the truth; a phantom is a screen read
  where none stands, or with the wrong owner; an unclear square is an abstention. Three sets
  are reported apart (`--set`, each its own section): `house`, the renderer with no arms;
  `random`, the renderer with up to two arms; `heldout`, `benchmarks/heldout/reflecto.py`, a
  painter the reader was never tuned on (with its own set-up photograph). A board is
  also counted right ("right_or_abstained_only_where_allowed") when it abstains only on
  squares a sleeve comes near (held-out) or whose top is mostly glare (`washed`, both).
  `--mode` (default both): each board read from its picture alone, and
  with the photograph of the same board empty (`read --board`: drawn by the renderer or the
  painter from another camera, on another table, in other light), reported apart (the
  board mode under `with_empty_board`).
- tracking: scripted games (through the engine, so legal) filmed by the `sim` camera with
  hands carrying each screen (each table drawn with the development renderer's variety;
  `--look model` films the demo's look; a share `--guesses` of the games ends early in the
  mover's guess, right or wrong, entered on their phone; the others run to their last
  removal), every frame read by the live table's perceiver (which learns
  the board's print from the squares its engine says are free) and followed by the table:
  a game is right when every move and removal comes out as scripted, with no breach and
  no extra action (a false event). `--max-moves` caps a game's moves (short games for
  many tables; whole games for removals). A question about a square is answered as a
  player would, with what stands there in that frame, and counted; `--first` starts a family
  later, so one family can be split over processes. `--jobs N` plays N games at once (one
  process each); `--resume` keeps the games the section already holds and plays the rest;
  `--log DIR` writes each game frame by frame (the film's truth, the reading, the table's
  turn and open questions, the events). A game is "stuck" when the table stopped booking
  changes while the film went on.
- stops: why the games `--log` kept went wrong (`--log DIR`): the first rest at whose end
  the table was behind the film, and what the reader called there (`STOP_CLASSES`).
- setup-rests: which films' set-up rest (`--games` films from `--first`, `--look`) is
  "hands" in every frame, as live play calls it with the rim's print still unlearned
  (`perceive.SetupFrames` then keeps those frames for the colours); the films only.
- hands: the hand test (`perceive.rim_runs`, the corner markers) on frames of `--games`
  films (`--look`) with and without a hand, and its curve over the rim run's length.
- speed: on one core (cv2.setNumThreads(1)), 1280×960: `read_board` per frame (colours
  given, as in live play; it detects the markers itself), the same with the markers given
  (live play reuses the registration's detection: the reader's own cost per frame), and
  the bare `ArucoDetector.detectMarkers` on the same frames, three times each, in wall
  time and in CPU time; and both reads again with the empty board's print (`--board`).

Numbers go to benchmarks/results/reflecto_vision.json (sections merged, so parts can be
re-run alone), or to the file `--out` names (a run's boards in detail, kept apart from the
cited results).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.heldout.reflecto import paint  # noqa: E402
from companion.games.reflecto.vision.board_print import learn_print  # noqa: E402
from companion.games.reflecto.vision.geometry import load_geometry  # noqa: E402
from companion.games.reflecto.vision.read import (  # noqa: E402
    learn_at_setup,
    read_board,
    rectify,
)
from companion.games.reflecto.vision.render import Conditions, render_photo  # noqa: E402
from companion.vision.markers import detect_markers, detector, to_gray  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "reflecto_vision.json"
STUCK_RESTS = 2
"""Tracking: a game is "stuck" when its film rested on more changes than this after the
table booked its last one (and the table booked fewer than the script): the table stopped
following, where one late change is a slow booking."""


def recognition(
    seed: int,
    boards: int,
    save: Callable[[dict], None] | None = None,
    which: str = "random",
    mode: str = "both",
) -> dict:
    """`mode`: "single", each board read from its picture alone (and its set-up's
    colours), as before; "board", with the empty board's photograph too (`read --board`:
    the renderer's and the painter's empty board from another camera in other light);
    "both", each board read both ways, reported apart."""
    geom = load_geometry()
    modes = ["single", "board"] if mode == "both" else [mode]
    tallies = {m: _tally() for m in modes}
    styles: dict[str, dict[str, list[int]]] = {m: {} for m in modes}
    failures: dict[str, list] = {m: [] for m in modes}
    conditions = Conditions(hands=0) if which == "house" else Conditions()
    for i in range(boards):
        may_abstain: frozenset = frozenset()
        if which == "heldout":
            shot = paint(geom, (seed, i), setup=True, board="board" in modes)
            image, setup, truth_reading, empty = shot.image, shot.setup, shot.truth, shot.board
            may_abstain = shot.near_sleeve | shot.washed
            style = shot.style
        else:
            photo = render_photo(geom, (seed, i), conditions, setup=True, board="board" in modes)
            image, setup, truth_reading = photo.image, photo.setup, photo.truth
            empty = photo.board
            may_abstain = photo.washed
            style = which
        rect = rectify(setup, geom) if setup is not None else None
        colours = learn_at_setup(rect, geom) if rect is not None else None
        for m in modes:
            taught = None
            if m == "board":
                taught = learn_print(empty, geom) if empty is not None else None
                if taught is None:
                    tallies[m]["no_print_learned"] += 1
            got, _ = read_board(image, geom, colours, board_print=taught)
            loose = read_board(image, geom, None, board_print=taught)[0]
            _score(tallies[m], got, loose, truth_reading, may_abstain)
            styles[m].setdefault(style, [0, 0])
            styles[m][style][0] += 1
            right = got.layout_key() == truth_reading.layout_key()
            styles[m][style][1] += right
            if not right:
                failures[m].append(_failure(seed, i, got, truth_reading))
        if save is not None and ((i + 1) % 10 == 0 or i + 1 == boards):
            print(f"{i + 1} boards: {tallies}", flush=True)
            save(_summaries(seed, i + 1, boards, tallies, failures, which, styles))
    return _summaries(seed, boards, boards, tallies, failures, which, styles)


def _tally() -> dict[str, Any]:
    keys = (
        "entirely_right right_or_allowed_abstentions only_abstentions phantoms wrong_owner "
        "missed unclear screens loose_right loose_right_up_to_swap loose_phantoms "
        "no_print_learned"
    )
    out: dict[str, Any] = dict.fromkeys(keys.split(), 0)
    out["missed_by"], out["phantom_by"] = {}, {}
    return out


def _score(
    tallies: dict[str, Any],
    got: Any,
    loose: Any,
    truth_reading: Any,
    may_abstain: frozenset,
) -> None:
    """One board read (`got` with the set-up's colours, `loose` without) against its truth."""
    truth = dict(truth_reading.layout_key())
    tallies["screens"] += len(truth)
    seen = dict(got.layout_key())
    phantom = [c for c in seen if c not in truth]
    owner = [c for c in seen if c in truth and seen[c] != truth[c]]
    missed = [c for c in truth if c not in seen]
    why = dict(got.decided_by)
    for kind, cells in (("missed_by", missed), ("phantom_by", phantom)):
        for c in cells:
            tallies[kind][why.get(c, "?")] = tallies[kind].get(why.get(c, "?"), 0) + 1
    tallies["phantoms"] += len(phantom)
    tallies["wrong_owner"] += len(owner)
    tallies["missed"] += len(missed)
    tallies["unclear"] += len(got.unclear)
    right = got.layout_key() == truth_reading.layout_key()
    tallies["entirely_right"] += right
    abstained_ok = (
        not phantom
        and not owner
        and set(missed) <= set(got.unclear)
        and set(got.unclear) <= set(may_abstain)
    )
    tallies["right_or_allowed_abstentions"] += right or abstained_ok
    if not right and not phantom and not owner and set(missed) <= set(got.unclear):
        tallies["only_abstentions"] += 1
    keys = loose.layout_key()
    tallies["loose_phantoms"] += sum(1 for c, _ in keys if c not in truth)
    tallies["loose_right"] += keys == truth_reading.layout_key()
    swapped = tuple(sorted((c, 1 - o) for c, o in keys))
    tallies["loose_right_up_to_swap"] += truth_reading.layout_key() in (keys, swapped)


def _failure(seed: int, i: int, got: Any, truth_reading: Any) -> dict:
    truth = dict(truth_reading.layout_key())
    seen = dict(got.layout_key())
    return {
        "seed": [seed, i],
        "phantom": [c for c in seen if c not in truth],
        "wrong_owner": [c for c in seen if c in truth and seen[c] != truth[c]],
        "missed": [c for c in truth if c not in seen],
        "unclear": list(got.unclear),
    }


def _summaries(
    seed: int,
    done: int,
    boards: int,
    tallies: dict[str, dict],
    failures: dict[str, list],
    which: str,
    styles: dict[str, dict],
) -> dict:
    """The first mode's summary at the top level (as before), the board mode's under
    `with_empty_board` when both were read."""
    out: dict = {}
    for m, t in tallies.items():
        one = _summary(seed, done, boards, t, failures[m], which, styles[m])
        one["mode"] = (
            "single photograph (colours from the set-up photograph)"
            if m == "single"
            else "with the empty board's photograph (read --board), colours from set-up"
        )
        if m == "board":
            one["boards_without_a_print"] = t["no_print_learned"]
        if not out:
            out = one
        else:
            out["with_empty_board"] = one
    return out


def _summary(
    seed: int,
    done: int,
    boards: int,
    tallies: dict,
    failures: list,
    which: str = "random",
    styles: dict | None = None,
) -> dict:
    return {
        "set": which,
        "boards": done,
        "boards_asked": boards,
        "seeds": f"({seed}, 0..{done - 1})",
        "entirely_right": tallies["entirely_right"] / done,
        "boards_with_only_abstentions": tallies["only_abstentions"] / done,
        "right_or_abstained_only_where_allowed": tallies["right_or_allowed_abstentions"] / done,
        "entirely_right_by_style": {k: f"{v[1]}/{v[0]}" for k, v in sorted((styles or {}).items())},
        "phantom_screens": tallies["phantoms"],
        "wrong_owner_screens": tallies["wrong_owner"],
        "screens": tallies["screens"],
        "missed_screens": tallies["missed"],
        "missed_screens_by_the_test_that_decided": dict(
            sorted(tallies["missed_by"].items(), key=lambda kv: -kv[1])
        ),
        "phantom_screens_by_the_test_that_decided": tallies["phantom_by"],
        "unclear_squares": tallies["unclear"],
        "no_setup": {
            "entirely_right": tallies["loose_right"] / done,
            "right_up_to_whose_colour": tallies["loose_right_up_to_swap"] / done,
            "phantom_screens": tallies["loose_phantoms"],
        },
        "failures": failures[:20],
    }


def tracking(
    seed: int,
    games: int,
    max_moves: int,
    fps: float,
    save: Callable[[dict], None] | None = None,
    first: int = 0,
    guesses: float = 0.0,
    varied: bool = True,
    jobs: int = 1,
    done_before: list[dict] | None = None,
    log_dir: Path | None = None,
) -> dict:
    """Scripted games filmed by the sim camera, read by the live perceiver and followed by
    the live table (`table/live.py`): every move and removal must come out as scripted and
    no other event (a breach, an extra action) may fire. A share `guesses` of the games
    ends, after a random number of moves, in the mover's guess entered on their phone
    (right or wrong, half each); the others are played to their last removal (or
    `max_moves`). A game played to its end is right only when the table ends it too, with
    the scripted winner. `varied`: the films drawn with the development renderer's variety
    (`scene.Film`), else the demo's look (the model's screens in saturated colours).

    Games are independent, so `jobs` processes play them at once (a whole game takes a
    minute or two on a loaded core); `done_before` holds games a stopped run of the same
    family already played (`--resume`), which are not played again. The summary counts
    the first games in order without a gap, so a run stopped early reports exactly the
    games it played. `log_dir`: one JSON file per game, frame by frame, for finding why a
    game went wrong."""
    rows = {r["game"][1]: r for r in done_before or [] if r["game"][0] == seed}
    todo = [g for g in range(first, first + games) if g not in rows]
    t0 = time.time()

    def summary() -> dict:
        return _tracking_summary(
            _in_order(rows, first, games), seed, first, games, max_moves, fps, varied, jobs
        )

    def finished(row: dict) -> None:
        rows[row["game"][1]] = row
        print(
            f"game {row['game'][1]}: {'right' if row['right'] else 'WRONG'}, "
            f"{row['false_events']} false events, {row['questions']} questions, "
            f"{row['got']} of {row['want']} changes booked, stuck {row['stuck']} "
            f"({row['seconds']:.0f} s; {len(rows)} games in {time.time() - t0:.0f} s)",
            flush=True,
        )
        if save is not None:  # every game: a run stopped early keeps what it measured
            save(summary())

    args = (seed, max_moves, fps, guesses, varied, log_dir)
    if jobs <= 1:
        for g in todo:
            finished(_track_game(g, *args))
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed

        ctx = multiprocessing.get_context("spawn")  # no fork of a process with OpenCV threads
        with ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_one_thread) as pool:
            for fut in as_completed([pool.submit(_track_game, g, *args) for g in todo]):
                finished(fut.result())
    return summary()


def _one_thread() -> None:
    """Worker processes: one OpenCV thread each (the processes are the parallelism)."""
    cv2.setNumThreads(1)


def _in_order(rows: dict[int, dict], first: int, games: int) -> list[dict]:
    out = []
    for g in range(first, first + games):
        if g not in rows:
            break
        out.append(rows[g])
    return out


def _tracking_summary(
    rows: list[dict],
    seed: int,
    first: int,
    games: int,
    max_moves: int,
    fps: float,
    varied: bool,
    jobs: int,
) -> dict:
    asked: dict[str, int] = {}
    for row in rows:
        for kind, n in row["questions_by_kind"].items():
            asked[kind] = asked.get(kind, 0) + n
    wrong = [r for r in rows if not r["right"]]
    seconds = [r["seconds"] for r in rows]
    return {
        "games": len(rows),
        "games_asked": games,
        "max_moves_per_game": max_moves,
        "films": "varied (the development renderer's variety)" if varied else "model look",
        "fps": fps,
        "jobs": jobs,
        "seeds": f"({seed}, {first}..{first + len(rows) - 1})",
        "entirely_right": sum(r["right"] for r in rows),
        "moves": sum(r["moves"] for r in rows),
        "moves_right_in_order": sum(r["moves_right"] for r in rows),
        "removals": sum(r["removals"] for r in rows),
        "removals_right_in_order": sum(r["removals_right"] for r in rows),
        "false_events": sum(r["false_events"] for r in rows),
        "of_which_changes_not_scripted": sum(r.get("not_scripted", 0) for r in rows),
        "questions_answered": sum(r["questions"] for r in rows),
        "questions_by_kind": asked,
        "stuck_games": sum(r["stuck"] is not None for r in rows),
        "answers_refused": sum(r.get("answers_refused", 0) for r in rows),
        "games_played_to_their_end": sum(r["ended"] for r in rows),
        "of_which_ended_by_a_guess": sum(r["ended"] and r["guess"] for r in rows),
        "ends_right": sum(r["ended"] and r["ended_as_scripted"] for r in rows),
        "median_seconds_per_game": statistics.median(seconds) if seconds else None,
        "failures": [_failure_of(r) for r in wrong[:20]],
        "per_game": rows,
    }


def _failure_of(row: dict) -> dict:
    keys = ("game", "want", "got", "first_difference", "breaches", "stuck")
    return {k: row[k] for k in (*keys, "ended_as_scripted", "guess")}


def _track_game(
    g: int,
    seed: int,
    max_moves: int,
    fps: float,
    guesses: float,
    varied: bool,
    log_dir: Path | None = None,
) -> dict:
    """One game of `tracking`'s family (`seed`, `g`) played through a fresh live table."""
    import tempfile
    from types import SimpleNamespace

    import numpy as np

    from companion.games.reflecto.rules import ENGINE
    from companion.games.reflecto.rules.actions import Guess, action_from_json
    from companion.games.reflecto.table.live import BREACH_KIND
    from companion.games.reflecto.vision.scene import Film, film_shots, scripted_game
    from companion.live.conformance import play
    from companion.store import Session

    geom = load_geometry()
    start = time.perf_counter()
    pick = np.random.default_rng([seed, g, 7])
    guess: tuple[int, str] | None = None
    script = scripted_game(seed * 1000 + g, max_moves=max_moves)
    if pick.random() < guesses:
        cut = scripted_game(seed * 1000 + g, max_moves=int(pick.integers(4, 40)))
        if cut.guess is not None and len(cut.actions) < len(script.actions):
            script = cut
            seat, word = cut.guess
            if pick.random() < 0.5:  # a wrong guess: one letter off
                i = int(pick.integers(len(word)))
                word = word[:i] + ("A" if word[i] != "A" else "E") + word[i + 1 :]
            guess = (seat, word)
    # The end the engine gives the script (None: cut at `max_moves`).
    end = ENGINE.new_game(2)
    for st in script.setups:
        end = ENGINE.apply(end, action_from_json(st))
    for a in script.actions:
        end = ENGINE.apply(end, action_from_json(a))
    if guess is not None:
        end = ENGINE.apply(end, Guess(guess[1]))
    want_winner = end.winner if ENGINE.is_terminal(end) else None
    rng = np.random.default_rng([seed, g])
    film = Film(geom, film_shots(geom, script, rng), seed * 1000 + g, varied=varied)
    log: list[dict] = []
    table: list[Any] = []
    with tempfile.TemporaryDirectory() as data_dir:
        settings = SimpleNamespace(data_dir=Path(data_dir))
        _, events = play(
            _table_into(table),
            settings,
            Session(f"bench{g}", "reflecto", {}, ["A", "B"], 0.0),
            _filmed(
                film,
                _setup_steps(script.setups),
                fps,
                settings,
                table,
                script.actions,
                guess,
                _turns(script),
                log,
            ),
        )
    asked = _questions_by_kind(events)
    final = table[0].state
    over_right = True
    if want_winner is not None:
        over_right = ENGINE.is_terminal(final) and final.winner == want_winner
    booked = _booked(events)
    got = [e.payload["action"] for e in booked]
    want = _changes(script.actions)
    breaches = [e.payload for e in events if e.kind == BREACH_KIND]
    agree = _agree(got, want)
    # Stuck: the film rested on more than `STUCK_RESTS` changes after the film second of
    # the table's last booked change, and the table booked fewer than the script.
    last_t = 0.0
    if booked and log:
        last_t = max((f["t"] for f in log if f["wall"] <= booked[-1].ts), default=0.0)
    starts = np.cumsum([0.0] + [s.seconds for s in film.shots])
    rests_after = sum(1 for s, t in zip(film.shots, starts, strict=False) if s.rest and t > last_t)
    stuck = None
    if len(got) < len(want) and rests_after > STUCK_RESTS:
        stuck = {"after_change": len(got), "film_second": round(last_t, 1)}
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
        kept = [
            {"ts": e.ts, "kind": e.kind, "payload": e.payload}
            for e in events
            if e.kind not in ("reflecto.setup",)
        ]
        (log_dir / f"{seed}_{g}.json").write_text(
            json.dumps(
                {
                    "frames": log,
                    "events": kept,
                    "script": script.actions,
                    "setups": script.setups,
                    "guess": guess,
                }
            )
            + "\n"
        )
    return {
        "game": [seed, g],
        "right": got == want and not breaches and over_right,
        "want": len(want),
        "got": len(got),
        "first_difference": None if agree == len(want) == len(got) else agree,
        "moves": sum(1 for a in want if a.get("type") == "move"),
        "removals": sum(1 for a in want if a.get("type") == "remove"),
        "moves_right": sum(1 for a in want[:agree] if a.get("type") == "move"),
        "removals_right": sum(1 for a in want[:agree] if a.get("type") == "remove"),
        "false_events": not_scripted(got, want) + len(breaches),
        "not_scripted": not_scripted(got, want),
        "breaches": breaches[:3],
        "questions": sum(asked.values()),
        "questions_by_kind": asked,
        "ended": want_winner is not None,
        "ended_as_scripted": over_right,
        "guess": guess is not None,
        "stuck": stuck,
        "answers_refused": table[0].refused,
        "seconds": round(time.perf_counter() - start, 1),
    }


def _turns(script: Any) -> tuple[tuple[frozenset, int], ...]:
    """Each position of a script and the seat whose turn it is once it stands (the next
    to move: a turn whose move is made is the other seat's), as the admin would say."""
    from companion.games.base import IllegalAction
    from companion.games.reflecto.rules import ENGINE
    from companion.games.reflecto.rules.actions import Done, action_from_json
    from companion.games.reflecto.table.track import board_of

    state = ENGINE.new_game(2)
    for st in script.setups:
        state = ENGINE.apply(state, action_from_json(st))
    out = [(board_of(state), state.to_move)]
    for raw in script.actions:
        try:
            state = ENGINE.apply(state, action_from_json(raw))
        except IllegalAction:  # the turn ended first (the script leaves the Done out)
            state = ENGINE.apply(ENGINE.apply(state, Done()), action_from_json(raw))
        out.append((board_of(state), 1 - state.to_move if state.moved else state.to_move))
    return tuple(out)


def _filmed(
    film: Any,
    setups: list[Any],
    fps: float,
    settings: Any,
    table: list[Any],
    script: list[dict],
    guess: tuple[int, str] | None = None,
    turns: tuple[tuple[frozenset, int], ...] = (),
    log: list[dict] | None = None,
) -> Iterator[Any]:
    """The set-ups, then each frame read by the live perceiver. After a frame, an open
    question about a square is answered as a player would: with what stands there now; one
    about two moves seen at once, yes when they are two moves the players made in a row
    (`script`), no otherwise; one that the table lost track, by the admin once the board
    rests: the seat whose turn it is in the film (`turns`) when the camera's board is the
    film's, else not yet. At the
    end, the `guess` (seat, word), entered on the guesser's phone when the table has it
    their turn, as the phone would accept it. `log`: per frame, what stood, what the
    perceiver saw and where the table was, appended after the table took the frame."""
    from types import SimpleNamespace

    import numpy as np

    from companion.live.conformance import Observe

    yield from setups
    for t in np.arange(0.0, film.duration, 1.0 / fps):
        image, truth = film.frame(float(t))
        # The table's own perceiver: the live perceiver with the print the table learns
        # from the squares its engine says are free (as live play reads a frame).
        seen = table[0].perceive(SimpleNamespace(image=image), SimpleNamespace())
        yield Observe(seen)
        if log is not None:
            log.append(_frame_log(float(t), truth, seen.data, table[0]))
        standing = {tuple(s["cell"]): s["owner"] for s in truth["screens"]}
        yield from _answers(table[0], standing, truth["rest"], script, turns)
    yield from _guess_step(table[0], guess)


def _setup_steps(setups: list[dict]) -> list[Any]:
    """Each seat's set-up entered on its own phone, as the script wrote it."""
    from companion.games.reflecto.table.messages import EnterSetup
    from companion.live.conformance import Correct

    return [
        Correct(
            EnterSetup(
                word="".join(st["chunks"]),
                chunks=st["chunks"],
                columns=st["letter_columns"],
                mirrors=st["mirror_columns"],
            ),
            st["seat"],
        )
        for st in setups
    ]


def _guess_step(table: Any, guess: tuple[int, str] | None) -> Iterator[Any]:
    """The `guess` (seat, word) entered on the guesser's phone, when the table has it their
    turn, as the phone would accept it."""
    from companion.games.reflecto.table.messages import EnterGuess
    from companion.live.conformance import Correct

    state = table.state
    mover = guess is not None and state.phase == "play" and state.to_move == guess[0]
    if guess is not None and mover and not state.moved:
        yield Correct(EnterGuess(word=guess[1]), guess[0])


def _table_into(table: list[Any]) -> Callable[[Any, Any], Any]:
    """The live table's factory for `play`, keeping the table it makes in `table` (the
    players' answers and the summary read it)."""

    def made(settings: Any, session: Any) -> Any:
        table.append(_phones_table(settings, session))
        return table[-1]

    return made


def _changes(actions: list[dict]) -> list[dict]:
    """The moves and removals of a list of actions: what the camera books."""
    return [a for a in actions if a.get("type") in ("move", "remove")]


def _booked(events: list[Any]) -> list[Any]:
    """The table's events that booked a move or a removal, in order."""
    from companion.games.reflecto.table.live import ACTION_KIND

    return [e for e in events if e.kind == ACTION_KIND and _changes([e.payload["action"]])]


def _agree(got: list[dict], want: list[dict]) -> int:
    """How many changes the table booked as scripted before the first that differs."""
    return next(
        (i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b),
        min(len(got), len(want)),
    )


def not_scripted(got: list[dict], want: list[dict]) -> int:
    """The changes the table booked that the script never made: those left out of the
    longest run of booked changes found, in order, in the script. A table that books a
    wrong move in place of the right one books no more changes than the script, so
    counting only the changes beyond the script's missed it (a wrong move booked is a
    false event: the game's board is no longer the table's)."""
    common = [0] * (len(want) + 1)
    for a in got:
        diagonal = 0
        for j, b in enumerate(want, 1):
            above = common[j]
            common[j] = diagonal + 1 if a == b else max(above, common[j - 1])
            diagonal = above
    return len(got) - common[-1]


def _questions_by_kind(events: list[Any]) -> dict[str, int]:
    """The questions the table asked, by kind (the question id's first word)."""
    from companion.live.table_game import QUESTION_KIND

    asked: dict[str, int] = {}
    for e in events:
        if e.kind == QUESTION_KIND:
            kind = e.payload["id"].split("-")[0]
            asked[kind] = asked.get(kind, 0) + 1
    return asked


def _phones_table(settings: Any, session: Any) -> Any:
    """The live table, with the phones' side of a correction: one the table refuses (a
    `UserError`, which a phone shows its player) is counted in `refused`, and the game goes
    on, as it would; the runtime never lets a refusal stop the table."""
    from companion.errors import UserError
    from companion.games.reflecto.table.live import ReflectoTable

    class Phones(ReflectoTable):
        refused = 0

        def correct(self, payload: Any, seat: int | None) -> Any:
            try:
                return super().correct(payload, seat)
            except UserError:
                self.refused += 1
                return []

    return Phones(settings, session)


def _answers(
    table: Any,
    standing: dict,
    rest: bool,
    script: list[dict],
    turns: tuple[tuple[frozenset, int], ...],
) -> Iterator[Any]:
    """The scripted players' answers to the table's open questions after a frame, from what
    stands on the board then (`standing`: square -> seat) and whether it rests: a square's,
    with what stands there; where a screen went, `_where_it_is`; where a new one came
    from, `where_from`; two moves seen at once,
    yes when they are two changes made in a row (`script`); a lost track, by the admin once
    the board rests, the seat whose turn it is in the film (`turns`) when the camera's board
    is the film's, else not yet."""
    from companion.live.conformance import Correct
    from companion.live.corrections import Answer

    here = frozenset(standing.items())
    for q in list(table.open_questions.values()):
        if q.id.startswith("lost-"):
            whose = [seat for board, seat in turns if board == here]
            if rest:
                ok = bool(whose) and table.camera == here
                yield Correct(Answer(question=q.id, answer=whose[-1] if ok else None))
        elif q.id.startswith("square-"):
            _, r, c, _ = q.id.split("-")
            yield Correct(Answer(question=q.id, answer=standing.get((int(r), int(c)))))
        elif q.id.startswith("where-"):
            yield Correct(Answer(question=q.id, answer=_where_it_is(table, q, standing)))
        elif q.id.startswith("from-"):
            yield Correct(Answer(question=q.id, answer=where_from(table, q, standing)))
        elif q.id.startswith("unseen-"):
            yield Correct(Answer(question=q.id, answer=move_unseen(table, q, standing)))
        elif q.id.startswith("moves-"):
            yes = next(ch["value"] for ch in q.choices if ch["value"] is not None)
            made = [a for a in script if a.get("type") in ("move", "remove")]
            said = [a for a in yes if a.get("type") in ("move", "remove")]
            happened = any(
                made[i : i + len(said)] == said for i in range(len(made) - len(said) + 1)
            )
            yield Correct(Answer(question=q.id, answer=yes if happened else None))


def _where_it_is(table: Any, question: Any, standing: dict) -> Any:
    """A player's answer to "where is it now?" about the screen on the question's square,
    from what stands on the board (`standing`): "still" when a screen of its colour stands
    there; else the one offered square that holds its colour and no screen on the table's
    board (where it went); else "somewhere else" (None)."""
    from companion.games.reflecto.table.track import board_of

    _, r, c, _ = question.id.split("-")
    engine = dict(board_of(table.state))
    owner = engine.get((int(r), int(c)))
    if owner is None:
        return None
    if standing.get((int(r), int(c))) == owner:
        return "still"
    went = [
        ch["value"]
        for ch in question.choices
        if isinstance(ch["value"], list)
        and standing.get(tuple(ch["value"])) == owner
        and tuple(ch["value"]) not in engine
    ]
    return went[0] if len(went) == 1 else None


def where_from(table: Any, question: Any, standing: dict[Any, Any]) -> Any:
    """A player's answer to "which square did it come from?" about the screen on the
    question's square, from what stands on the board (`standing`): the one offered square
    the table's board has a screen of its colour on and the board no longer has (where it
    came from); else "none of these" (None), as when no screen of that colour stands on
    the question's square."""
    from companion.games.reflecto.table.track import board_of

    _, r, c, _ = question.id.split("-")
    owner = standing.get((int(r), int(c)))
    engine = dict(board_of(table.state))
    if owner is None or engine.get((int(r), int(c))) is not None:
        return None
    left = [
        ch["value"]
        for ch in question.choices
        if isinstance(ch["value"], list)
        and engine.get(tuple(ch["value"])) == owner
        and standing.get(tuple(ch["value"])) != owner
    ]
    return left[0] if len(left) == 1 else None


def move_unseen(table: Any, question: Any, standing: dict[Any, Any]) -> Any:
    """A player's answer to "which move did Bob make?" (a move of the seat to move the
    camera did not see, asked when the other seat's move is seen): the one offered move
    whose square left the table's board has that seat's screen on and the board no longer
    has, and whose square reached the board has that seat's screen on and the table's
    board has free; else "none of these" (None)."""
    from companion.games.reflecto.table.track import board_of

    engine = dict(board_of(table.state))
    seat = table.state.to_move
    made = [
        ch["value"]
        for ch in question.choices
        if isinstance(ch["value"], list)
        and engine.get(tuple(ch["value"][0])) == seat
        and standing.get(tuple(ch["value"][0])) != seat
        and standing.get(tuple(ch["value"][1])) == seat
        and tuple(ch["value"][1]) not in engine
    ]
    return made[0] if len(made) == 1 else None


def replay(
    log_dir: Path, save: Callable[[dict], None] | None = None, out_dir: Path | None = None
) -> dict:
    """The readings `--log` kept, game by game, through the table as it is now, with the
    same scripted answers and no perception: seconds a game, so a change to the table is
    compared with the table before on exactly the same readings. Not a measurement of
    live play: the live perceiver learns the board's print and the colours from what the
    table says, which a replay cannot redo (the readings stay those of the run's table).
    `out_dir` (`--replay-log`): each game's log again, its table columns (turn, board,
    open questions) and events this table's, for `--part stops` on the replay."""
    from types import SimpleNamespace

    from companion.games.reflecto.table.live import BREACH_KIND
    from companion.games.reflecto.table.track import board_of, reading_to_json
    from companion.games.reflecto.vision.scene import scripted_game
    from companion.live.conformance import Observe, play
    from companion.live.table_game import Observation
    from companion.store import Session

    rows: list[dict[str, Any]] = []
    for path in sorted(log_dir.glob("*.json")):
        held = json.loads(path.read_text())
        if "setups" not in held:  # a log from before they were kept: the family's script
            seed, g = (int(v) for v in path.stem.split("_"))
            held["setups"] = scripted_game(seed * 1000 + g).setups
        script = SimpleNamespace(setups=held["setups"], actions=held["script"])
        turns = _turns(script)
        table: list[Any] = []

        def steps(held: dict = held, table: list[Any] = table, turns: Any = turns) -> Any:
            yield from _setup_steps(held["setups"])
            for f in held["frames"]:
                screens = [
                    {"cell": [r, c], "owner": o if o >= 0 else None, "confidence": 0.9}
                    for r, c, o in f["screens"]
                ]
                data = {
                    "screens": screens,
                    "unclear": f["unclear"],
                    "hands": f["hands"],
                    "board_found": f["board_found"],
                }
                yield Observe(Observation(data, 0.9))
                state = table[0].state
                f |= {
                    "turn": state.turn,
                    "to_move": state.to_move,
                    "engine": reading_to_json(board_of(state)),
                    "open": sorted(table[0].open_questions),
                }
                standing = {(r, c): o for r, c, o in f["truth"]}
                yield from _answers(table[0], standing, f["rest"], held["script"], turns)
            guess = held.get("guess")
            yield from _guess_step(table[0], None if guess is None else (guess[0], guess[1]))

        settings = SimpleNamespace(data_dir=None)
        _, events = play(
            _table_into(table),
            settings,
            Session("replay", "reflecto", {}, ["A", "B"], 0.0),
            steps(),
        )
        got = [e.payload["action"] for e in _booked(events)]
        want = _changes(held["script"])
        breaches = sum(e.kind == BREACH_KIND for e in events)
        if out_dir is not None:
            out_dir.mkdir(parents=True, exist_ok=True)
            kept = [{"ts": e.ts, "kind": e.kind, "payload": e.payload} for e in events]
            (out_dir / path.name).write_text(json.dumps(held | {"events": kept}) + "\n")
        asked = _questions_by_kind(events)
        agree = _agree(got, want)
        rows.append(
            {
                "game": path.stem,
                "right": got == want and not breaches,
                "want": len(want),
                "booked_in_order": agree,
                "false_events": not_scripted(got, want) + breaches,
                "not_scripted": not_scripted(got, want),
                "questions_by_kind": asked,
                "answers_refused": table[0].refused,
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    result = {
        "logs": str(log_dir),
        "games": len(rows),
        "entirely_right": sum(r["right"] for r in rows),
        "changes": sum(r["want"] for r in rows),
        "changes_booked_in_order": sum(r["booked_in_order"] for r in rows),
        "false_events": sum(r["false_events"] for r in rows),
        "of_which_changes_not_scripted": sum(r["not_scripted"] for r in rows),
        "questions_answered": sum(sum(r["questions_by_kind"].values()) for r in rows),
        "per_game": rows,
    }
    if save is not None:
        save(result)
    return result


STOP_CLASSES = (
    "hands over every frame of the rest",
    "a seat mostly unseen",
    "the landing read empty",
    "the landing read in the other colour",
    "the landing in doubt",
    "the square left read held",
    "another square misread",
    "another square in doubt",
    "read right, the table behind",
)
"""`stops`' classes, in the order they are tried: what the reader did at the first rest
where the table fell behind the film."""


def stop_reason(log: dict) -> dict | None:
    """Why a logged game (`--log`) stopped: the first rest at whose end the table's board is
    not the film's, and what the reader called there in the rest's last frame without
    hands (`STOP_CLASSES`). None when the table was never behind at the end of a rest."""
    frames = log["frames"]
    rests: list[list[dict]] = []
    for before, f in zip([None, *frames], frames, strict=False):
        if f["rest"]:
            if before is None or not before["rest"]:
                rests.append([])
            rests[-1].append(f)
    for i, rest in enumerate(rests):
        last = rest[-1]
        truth = {(r, c): o for r, c, o in last["truth"]}
        engine = {(r, c): o for r, c, o in last["engine"]}
        if truth == engine:
            continue
        looked = [f for f in rest if not f["hands"] and f["board_found"]]
        out = {"rest": i, "film_second": rest[0]["t"], "turn": last["turn"]}
        if not looked:
            return out | {"class": STOP_CLASSES[0]}
        f = looked[-1]
        seen = {(r, c): o for r, c, o in f["screens"] if o >= 0}
        unclear = {(r, c) for r, c in f["unclear"]} | {(r, c) for r, c, o in f["screens"] if o < 0}
        missed = {c for c in truth if c not in seen and c not in unclear}
        colour = {c for c, o in seen.items() if c in truth and truth[c] != o}
        phantom = {c for c in seen if c not in truth}
        reached = {c for c, o in truth.items() if engine.get(c) != o}
        left = {c for c in engine if c not in truth}
        out |= {
            "missed": len(missed),
            "colour": len(colour),
            "phantom": len(phantom),
            "unclear": len(unclear),
        }
        unseen = any(
            2 * sum(1 for c, o in truth.items() if o == seat and c in missed | unclear)
            > sum(1 for o in truth.values() if o == seat)
            for seat in (0, 1)
        )
        tests = (
            unseen,
            bool(reached & missed),
            bool(reached & colour),
            bool(reached & unclear),
            bool(left & (phantom | unclear - set(truth))),
            bool(missed | colour | phantom),
            bool(unclear),
        )
        found = next((k for k, hit in enumerate(tests) if hit), len(tests))
        return out | {"class": STOP_CLASSES[found + 1]}
    return None


def seats_unseen(log: dict) -> list[float | None]:
    """Per seat, the share of its screens the reader did not call as its (read empty, in
    doubt or in the other colour) over every rest frame of a logged game without hands: a
    seat mostly unseen through the game (a colour the reader does not find on this board)
    from one unseen at one rest. None for a seat with no screen on any such frame."""
    seen = [0, 0]
    unseen = [0, 0]
    for f in log["frames"]:
        if not f["rest"] or f["hands"] or not f["board_found"]:
            continue
        called = {(r, c): o for r, c, o in f["screens"]}
        for r, c, o in f["truth"]:
            if called.get((r, c)) == o:
                seen[o] += 1
            else:
                unseen[o] += 1
    return [
        None if seen[o] + unseen[o] == 0 else round(unseen[o] / (seen[o] + unseen[o]), 2)
        for o in (0, 1)
    ]


def stops(log_dir: Path) -> dict:
    """`stop_reason` for every game `--log` kept that did not book every change as scripted
    (its events say which), counted by class."""
    rows = []
    for path in sorted(log_dir.glob("*.json")):
        held = json.loads(path.read_text())
        got = [
            e["payload"]["action"]
            for e in held["events"]
            if e["kind"] == "reflecto.action" and _changes([e["payload"]["action"]])
        ]
        breaches = [e for e in held["events"] if e["kind"] == "reflecto.breach"]
        want = _changes(held["script"])
        if got == want and not breaches:
            continue
        reason = stop_reason(held)
        rows.append(
            {"game": path.stem, "booked": len(got), "want": len(want)}
            | (reason or {"class": "never behind at a rest's end"})
            | {"seats_unseen": seats_unseen(held)}
        )
        print(json.dumps(rows[-1]), flush=True)
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["class"]] = counts.get(row["class"], 0) + 1
    return {"logs": str(log_dir), "games_not_right": len(rows), "classes": counts, "per_game": rows}


def _frame_log(t: float, truth: dict, data: Any, table: Any) -> dict:
    """One line of `--log`: the film's truth, the reading and the table, after the frame."""
    from companion.games.reflecto.table.messages import board_observation
    from companion.games.reflecto.table.track import board_of, reading_to_json

    seen = board_observation(data)
    state = table.state
    return {
        "t": round(t, 2),
        "wall": time.time(),
        "rest": truth["rest"],
        "hand": truth["hand"],
        "truth": sorted([*s["cell"], s["owner"]] for s in truth["screens"]),
        "screens": sorted([*s.cell, s.owner if s.owner in (0, 1) else -1] for s in seen.screens),
        "unclear": sorted(list(c) for c in seen.unclear),
        "hands": seen.hands,
        "board_found": seen.board_found,
        "turn": state.turn,
        "to_move": state.to_move,
        "engine": reading_to_json(board_of(state)),
        "open": sorted(table.open_questions),
    }


HANDS_CURVE_MM = (6.0, 9.0, 12.0, 15.0, 20.0, 30.0)
"""The rim run lengths (`perceive.ARM_MM`) the hands curve is drawn at."""
RIM_SHARE_CURVE = (0.5, 0.65, 0.8, 0.95)
"""The shares of frames (`perceive.RIM_PRINT_SHARE`) the rim-print curve is drawn at."""


def setup_rests(
    seed: int,
    films: int,
    first: int = 0,
    varied: bool = True,
    fps: float = 2.0,
    save: Callable[[dict], None] | None = None,
) -> dict:
    """The set-up rest of each of `films` films of the tracking family (`seed`, `--look`),
    judged for hands as live play judges it, with a fresh `perceive.RimMemory` per film
    (a corner marker hidden, or an arm over the rim, its print left out once learned):
    the films whose every set-up frame is "hands" (a printed rim not learned within the
    rest), for which the table learns the colours from `perceive.SetupFrames`. The films
    only, no game played: seconds a film, so a family's all-hands set-ups are found before
    its games are tracked (`--first G --games 1`)."""
    import numpy as np

    from companion.games.reflecto.vision.perceive import RimMemory, arm_over_rim
    from companion.games.reflecto.vision.scene import Film, film_shots, scripted_game

    geom = load_geometry()
    rows: list[dict] = []
    for g in range(first, first + films):
        script = scripted_game(seed * 1000 + g)
        film = Film(
            geom,
            film_shots(geom, script, np.random.default_rng([seed, g])),
            seed * 1000 + g,
            varied=varied,
        )
        rim = RimMemory()
        calls: list[bool | None] = []
        for t in np.arange(0.0, film.shots[0].seconds, 1.0 / fps):
            image, _ = film.frame(float(t))
            rect = rectify(image, geom)
            calls.append(
                None
                if rect is None
                else len(rect.markers_seen) < len(geom.markers)
                or arm_over_rim(image, rect.pose, geom, rim)
            )
        rows.append(
            {
                "game": [seed, g],
                "hands": calls,
                "all_hands": all(c is not False for c in calls),
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    result = {
        "films": "varied (the development renderer's variety)" if varied else "model look",
        "seeds": f"({seed}, {first}..{first + films - 1})",
        "fps": fps,
        "setup_rests_all_hands": [r["game"][1] for r in rows if r["all_hands"]],
        "per_game": rows,
    }
    if save is not None:
        save(result)
    return result


def hands(
    seed: int,
    films: int,
    first: int = 0,
    changes: int = 2,
    varied: bool = True,
    save: Callable[[dict], None] | None = None,
    fps: float = 2.0,
) -> dict:
    """The hand test on film frames with and without a hand (the film's truth): per frame,
    the corner markers seen and the rim's odd stretches (`perceive.rim_columns`). Two
    curves: over the run an arm needs (`HANDS_CURVE_MM`), without the rim's print learned
    and with it (`RimMemory` at `RIM_PRINT_SHARE`), and over the share of frames that makes
    a stretch the print (`RIM_SHARE_CURVE`, at `ARM_MM`): frames without a hand called
    hands (a false "hands" stalls the tracker; a film whose every still frame is so called
    stalls its game), and hand frames not called (what the tracker would count as still).
    Every frame of each film's first `changes` changes, `fps` frames a film second."""
    import numpy as np

    from companion.games.reflecto.vision.perceive import (
        ARM_MM,
        RIM_PRINT_SHARE,
        RimMemory,
        longest_runs,
        rim_columns,
    )
    from companion.games.reflecto.vision.scene import Film, film_shots, scripted_game

    geom = load_geometry()
    frames: list[dict] = []
    settings = [(mm, None) for mm in HANDS_CURVE_MM]
    settings += [(mm, RIM_PRINT_SHARE) for mm in HANDS_CURVE_MM]
    settings += [(ARM_MM, share) for share in RIM_SHARE_CURVE if share != RIM_PRINT_SHARE]

    def summary(done: int) -> dict:
        rest = [f for f in frames if not f["hand"]]
        hand = [f for f in frames if f["hand"]]
        curve = []
        for k, (mm, share) in enumerate(settings):

            def called(f: dict, mm: float = mm, k: int = k) -> bool:
                return bool(f["markers"] < 4 or f["runs"][k] >= mm)

            by_film: dict[int, list[bool]] = {}
            for f in rest:
                by_film.setdefault(f["film"], []).append(called(f))
            curve.append(
                {
                    "arm_mm": mm,
                    "rim_print_share": share,
                    "no_hand_called_hands": sum(map(called, rest)),
                    "films_every_still_frame_hands": sum(all(v) for v in by_film.values()),
                    "hand_not_called": sum(not called(f) for f in hand),
                }
            )
        return {
            "seeds": f"({seed}, {first}..{first + done - 1})",
            "films": done,
            "frames_without_hand": len(rest),
            "frames_with_hand": len(hand),
            "no_board": sum(f["markers"] < 3 for f in frames),
            "no_hand_marker_unseen": sum(f["markers"] < 4 for f in rest),
            "curve": curve,
        }

    for n, g in enumerate(range(first, first + films)):
        script = scripted_game(seed * 1000 + g, max_moves=changes)
        rng = np.random.default_rng([seed, g])
        film = Film(geom, film_shots(geom, script, rng), seed * 1000 + g, varied=varied)
        rim = RimMemory()  # as the live table keeps one for its game
        for t in np.arange(0.0, film.duration, 1.0 / fps):
            image, truth = film.frame(float(t))
            rect = rectify(image, geom)
            frame = {"film": g, "hand": truth["hand"], "markers": 0, "runs": [0.0] * len(settings)}
            if rect is not None:
                columns = rim_columns(image, rect.pose, geom)
                frame["markers"] = len(rect.markers_seen)
                frame["runs"] = [
                    max(longest_runs(columns, None if s is None else rim.print_mask(s)))
                    for _, s in settings
                ]
                rim.add(columns)
            frames.append(frame)
        if save is not None:
            save(summary(n + 1))
    return summary(films)


def speed(frames: int, seed: int) -> dict:
    """Wall time and CPU time (`time.process_time`: on a machine shared with other jobs, the
    time this process actually ran), each frame's read and bare detection interleaved."""
    cv2.setNumThreads(1)
    geom = load_geometry()
    det = detector()
    read_ms, detect_ms, read_cpu, detect_cpu, given_cpu = [], [], [], [], []
    print_cpu, print_given_cpu = [], []
    for i in range(frames):
        photo = render_photo(
            geom, (seed, i), Conditions(sizes=((1280, 960),)), setup=True, board=True
        )
        rect = rectify(photo.setup, geom)
        colours = learn_at_setup(rect, geom) if rect is not None else None
        taught = learn_print(photo.board, geom) if photo.board is not None else None
        gray = to_gray(photo.image)
        markers = detect_markers(photo.image)
        for _ in range(3):
            t, c = time.perf_counter(), time.process_time()
            det.detectMarkers(gray)
            detect_ms.append((time.perf_counter() - t) * 1000)
            detect_cpu.append((time.process_time() - c) * 1000)
            t, c = time.perf_counter(), time.process_time()
            read_board(photo.image, geom, colours)
            read_ms.append((time.perf_counter() - t) * 1000)
            read_cpu.append((time.process_time() - c) * 1000)
            c = time.process_time()
            read_board(photo.image, geom, colours, markers=markers)
            given_cpu.append((time.process_time() - c) * 1000)
            c = time.process_time()
            read_board(photo.image, geom, colours, board_print=taught)
            print_cpu.append((time.process_time() - c) * 1000)
            c = time.process_time()
            read_board(photo.image, geom, colours, markers=markers, board_print=taught)
            print_given_cpu.append((time.process_time() - c) * 1000)
    r, d = statistics.median(read_ms), statistics.median(detect_ms)
    rc, dc = statistics.median(read_cpu), statistics.median(detect_cpu)
    gc = statistics.median(given_cpu)
    pc, pgc = statistics.median(print_cpu), statistics.median(print_given_cpu)
    return {
        "frames": frames,
        "runs_per_frame": 3,
        "size": "1280x960",
        "threads": 1,
        "read_median_ms": r,
        "detect_markers_median_ms": d,
        "read_over_detect_median_ratio": r / d,
        "read_median_cpu_ms": rc,
        "detect_markers_median_cpu_ms": dc,
        "read_over_detect_median_cpu_ratio": rc / dc,
        "read_with_registration_markers_median_cpu_ms": gc,
        "read_with_registration_markers_over_detect_cpu_ratio": gc / dc,
        "read_with_empty_board_median_cpu_ms": pc,
        "read_with_empty_board_over_detect_cpu_ratio": pc / dc,
        "read_with_empty_board_and_registration_markers_median_cpu_ms": pgc,
        "read_with_empty_board_and_registration_markers_over_detect_cpu_ratio": pgc / dc,
        "machine": platform.machine(),
        "note": "shared machine: other jobs ran at the same time; the CPU-time ratio is "
        "steadier than the wall-time one",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--part",
        choices=["recognition", "speed", "tracking", "replay", "hands", "stops", "setup-rests"],
        required=True,
    )
    parser.add_argument(
        "--seed",
        type=int,
        help="seed family; fresh (never used in development) for numbers (not for replay)",
    )
    parser.add_argument("--boards", type=int, default=500)
    parser.add_argument(
        "--set",
        choices=["house", "random", "heldout"],
        default="random",
        help="recognition: the renderer without arms, with arms, or the held-out painter",
    )
    parser.add_argument(
        "--mode",
        choices=["single", "board", "both"],
        default="both",
        help="recognition: from the picture alone, with the empty board's photograph, or both",
    )
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--max-moves", type=int, default=400, help="moves per scripted game")
    parser.add_argument("--first", type=int, default=0, help="first game of the family")
    parser.add_argument("--fps", type=float, default=2.0, help="frames read per film second")
    parser.add_argument(
        "--look",
        choices=["varied", "model"],
        default="varied",
        help="tracking: films with the development renderer's variety, or the demo's look",
    )
    parser.add_argument(
        "--guesses",
        type=float,
        default=0.0,
        help="tracking: share of games ending early in the mover's guess (right or wrong)",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="tracking: games played at once, one process each"
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="tracking: keep the games the section already holds (same family), play the rest",
    )
    parser.add_argument(
        "--log", type=Path, help="tracking: a directory for one frame-by-frame JSON per game"
    )
    parser.add_argument(
        "--replay-log",
        type=Path,
        help="replay: a directory for each game's log with this table's columns and events",
    )
    parser.add_argument(
        "--section",
        help="results section to write (default: the part's name), e.g. tracking_whole_games",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=RESULTS,
        help="results file (sections merged); default benchmarks/results/reflecto_vision.json",
    )
    args = parser.parse_args()
    command = "PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_vision.py " + " ".join(
        sys.argv[1:]
    )

    def save(result: dict) -> None:
        result["command"] = command
        out: Path = args.out
        data = json.loads(out.read_text()) if out.exists() else {}
        data[args.section or args.part] = result
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(data, indent=1) + "\n")

    if args.seed is None and args.part not in ("replay", "stops"):
        parser.error(f"--part {args.part} needs --seed")
    if args.part in ("replay", "stops") and args.log is None:
        parser.error(f"--part {args.part} reads the games --log kept: pass --log DIR")
    if args.part == "replay":
        result = replay(args.log, save, args.replay_log)
    elif args.part == "stops":
        result = stops(args.log)
    elif args.part == "recognition":
        result = recognition(args.seed, args.boards, save, args.set, args.mode)
    elif args.part == "tracking":
        before: list[dict] = []
        if args.resume and args.out.exists():
            held = json.loads(args.out.read_text()).get(args.section or args.part, {})
            before = held.get("per_game", [])
        result = tracking(
            args.seed,
            args.games,
            args.max_moves,
            args.fps,
            save,
            args.first,
            args.guesses,
            args.look == "varied",
            args.jobs,
            before,
            args.log,
        )
    elif args.part == "setup-rests":
        result = setup_rests(
            args.seed, args.games, args.first, args.look == "varied", args.fps, save
        )
    elif args.part == "hands":
        result = hands(
            args.seed, args.games, args.first, varied=args.look == "varied", save=save, fps=args.fps
        )
    else:
        result = speed(args.frames, args.seed)
    save(result)
    shown = {k: v for k, v in result.items() if k not in ("failures", "per_game")}
    print(json.dumps(shown, indent=1))


if __name__ == "__main__":
    main()
