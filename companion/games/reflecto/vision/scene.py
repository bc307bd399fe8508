"""The `sim` camera's Reflecto table: whole scripted games under one fixed camera.

Moves come from the rules engine (`legal_actions`, so every move is legal and removals
follow the word's order): set-ups from the model's example words, then turns picked with a
seeded generator, mostly forward. Each physical change is filmed as a hand reaching to the
screen, the screen gone from its square while the hand carries it (blurred), the hand over
its new square, then hands away for a few seconds; a removal carries the screen off the
board. The table, the board and the light are drawn once; a frame draws the screens, the
hand and the camera's noise.

A `varied` film (the tracking benchmark's) draws its table with the development renderer's
variety (`render.render_photo`'s choices, never the held-out painter's): the two plastics of
any make (`random_plastics`: pale, dark and dull ones too), the board's print in any colour
(the screens' included), the screens' make and the light's colour (`random_look`), the
lamp's direction. The demo's film keeps the model's screens in saturated colours under one
lamp: a showcase the browser tests play to its end. Either way a screen standing on a square
keeps its shade and its stance there from frame to frame: a real screen does not flicker.

The `sim` camera's demo (`table_film`) is a short game that ends: the players' taps ride
along as the film's `taps` (`companion.sim.taps.Tap`), played by the live loop through the
same correction path a phone uses: each seat's set-up while the board rests, and after a
few moves the mover's (right) guess of the other word. Nothing in a frame tells the
perceiver what the taps say.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from companion.games.reflecto.vision.geometry import BoardGeometry, Cell, load_geometry
from companion.games.reflecto.vision.reading import BoardReading, ScreenSeen
from companion.games.reflecto.vision.render import (
    MAX_SHIFT_MM,
    MAX_SKEW_DEG,
    Colour,
    ScreenLook,
    board_picture,
    model_look,
    random_camera,
    random_colours,
    random_look,
    random_plastics,
    screen_solids,
    with_cast,
)
from companion.sim import effects
from companion.sim.camera import VirtualCamera, arm_reach
from companion.sim.solids import draw_solids
from companion.sim.taps import Tap

REST_S = 3.0
"""Hands away after each change: time for the tracker's stable frames and the dashboard."""
DEMO_MOVES = 4
"""Moves in the `sim` camera's demo before the guess: a game a browser test sees to its end."""
SETUP_TAP_S = (0.5, 1.0)
"""Film seconds each seat taps its set-up in, while the first position rests (before the
first move, which the engine can only explain once both set-ups are in)."""


@dataclass(frozen=True)
class Shot:
    seconds: float
    position: BoardReading
    hand_over: tuple[float, float] | None = None
    """Board mm an arm reaches to, or None."""
    moving: bool = False
    rest: bool = False


@dataclass
class Script:
    """A game as the camera will see it: the positions in order and the engine's actions."""

    positions: list[BoardReading]
    actions: list[dict[str, Any]] = field(default_factory=list)
    """Per change after the first position: the action (engine JSON) that made it."""
    setups: list[dict[str, Any]] = field(default_factory=list)
    """Each seat's set-up (engine JSON), as its player enters it on the phone."""
    guess: tuple[int, str] | None = None
    """At the end, when a turn is about to start: the mover and the other seat's word (a
    guess that wins); None when the game is over or a turn is half made."""


def _position(state: Any) -> BoardReading:
    return BoardReading(
        tuple(ScreenSeen(s.cell, s.owner) for s in state.screens if s.cell is not None)
    )


def scripted_game(seed: int, max_moves: int = 400) -> Script:
    """A whole game between two seeded players, through the engine."""
    from companion.games.reflecto.rules import ENGINE
    from companion.games.reflecto.rules.actions import (
        Done,
        Guess,
        Remove,
        Setup,
        Step,
        action_to_json,
    )

    rng = random.Random(seed)
    state = ENGINE.new_game(2)
    setups = []
    while (
        ENGINE.current_player(state) is not None
        and state.phase != "play"
        and any(isinstance(a, Setup) for a in ENGINE.legal_actions(state))
    ):
        options = [a for a in ENGINE.legal_actions(state) if isinstance(a, Setup)]
        setups.append(rng.choice(options))
        state = ENGINE.apply(state, setups[-1])
    script = Script([_position(state)], setups=[action_to_json(a) for a in setups])
    moves = 0
    while not ENGINE.is_terminal(state) and moves < max_moves:
        acts = [a for a in ENGINE.legal_actions(state) if not isinstance(a, Guess)]
        if not acts:
            break
        removals = [a for a in acts if isinstance(a, Remove)]
        if removals:
            action: Any = removals[0]
        elif Done() in acts:
            action = Done()
        else:
            steps = [a for a in acts if isinstance(a, Step)]
            seat = state.to_move
            goal = state.rows - 1 if seat == 0 else 0

            def gain(a: Step, state: Any = state, goal: int = goal) -> int:
                if a.to is None:
                    return state.rows
                return abs(goal - state.screen(a.screen).cell[0]) - abs(goal - a.to[0])

            best = max(gain(a) for a in steps)
            pool = [a for a in steps if gain(a) == best] if rng.random() < 0.7 else steps
            action = rng.choice(pool)
            moves += 1
        state = ENGINE.apply(state, action)
        after = _position(state)
        if after != script.positions[-1]:
            script.positions.append(after)
            script.actions.append(action_to_json(action))
    other = state.words[1 - state.to_move]
    if not ENGINE.is_terminal(state) and not state.moved and other is not None:
        script.guess = (state.to_move, other)
    return script


def setup_payload(setup: dict[str, Any]) -> dict[str, Any]:
    """A set-up (engine JSON) as its player's phone posts it (`messages.EnterSetup`)."""
    return {
        "kind": "setup",
        "word": "".join(setup["chunks"]),
        "chunks": list(setup["chunks"]),
        "columns": list(setup["letter_columns"]),
        "mirrors": list(setup["mirror_columns"]),
        "hinted": list(setup["hinted"]),
    }


def script_taps(script: Script, shots: list[Shot]) -> tuple[Tap, ...]:
    """The players' taps for a filmed script: the set-ups while the first position rests,
    the guess once the last change has rested (the camera has booked it by then; a tap
    refused while it has not is tried again by the demo's players)."""
    taps = [
        Tap(at, int(setup["seat"]), setup_payload(setup))
        for at, setup in zip(SETUP_TAP_S, script.setups, strict=False)
    ]
    if script.guess is not None:
        seat, word = script.guess
        taps.append(Tap(sum(s.seconds for s in shots), seat, {"kind": "guess", "word": word}))
    return tuple(taps)


def _changed(before: BoardReading, after: BoardReading) -> tuple[Cell | None, Cell | None]:
    """The square a screen left and the square it reached (None: off the board)."""
    a, b = set(before.layout_key()), set(after.layout_key())
    gone = [c for c, _ in a - b]
    new = [c for c, _ in b - a]
    return (gone[0] if gone else None), (new[0] if new else None)


def film_shots(
    geom: BoardGeometry, script: Script, rng: np.random.Generator, rest_s: float = REST_S
) -> list[Shot]:
    """The script as shots: reach, carry (blurred), set down, hands away."""
    shots = [Shot(rest_s, script.positions[0], rest=True)]
    for before, after in zip(script.positions, script.positions[1:], strict=False):
        source, target = _changed(before, after)
        src = geom.cell_mm(source) if source is not None else None
        if target is not None:
            dst = geom.cell_mm(target)
        else:  # off the board, beside the owner's edge
            x, y = src or (0.0, 0.0)
            dst = (x, y + math.copysign(geom.square_mm * 1.5, y - geom.size_mm[1] / 2))
        lifted = BoardReading(tuple(s for s in before.screens if s.cell != source))
        mid = ((src[0] + dst[0]) / 2, (src[1] + dst[1]) / 2) if src else dst
        shots += [
            Shot(float(rng.choice([0.3, 0.5])), before, hand_over=src or dst),
            Shot(0.5, lifted, hand_over=mid, moving=True),
            Shot(0.3, after, hand_over=dst),
            Shot(rest_s, after, rest=True),
        ]
    return shots


class Film:
    """`frame(t)` -> (BGR image, ground truth); the same seed and t give the same picture.
    After its last shot the table stays as the game left it."""

    def __init__(
        self,
        geom: BoardGeometry,
        shots: list[Shot],
        seed: int,
        size: tuple[int, int] = (1280, 960),
        max_tilt_deg: float = 25.0,
        taps: tuple[Tap, ...] = (),
        *,
        varied: bool = False,
    ) -> None:
        self.geom = geom
        self.shots = shots
        self.taps = taps
        self.seed = seed
        rng = np.random.default_rng([seed, 41])
        self.colours: tuple[Colour, Colour] = (random_plastics if varied else random_colours)(rng)
        self.look: ScreenLook = random_look(geom, rng) if varied else model_look(geom)
        self.camera: VirtualCamera = random_camera(geom, rng, size, max_tilt_deg)
        self.base = board_picture(geom, self.camera, rng, self.colours if varied else None)
        w, h = size
        flat = np.full((h, w, 3), 200, np.uint8)
        self.gain = effects.uneven_light(flat, rng, strength=0.25).astype(np.float32) / 200.0
        light = np.array([0.3, -0.2, -1.0])
        if varied:
            light = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), -1.0])
        self.light = light / np.linalg.norm(light)
        # A skew in degrees, then a shift (x, y) in mm.
        self.poses: dict[Cell, tuple[float, float, float]] = {
            cell: cast(
                tuple[float, float, float],
                (
                    float(rng.uniform(-MAX_SKEW_DEG, MAX_SKEW_DEG)),
                    *(float(v) for v in rng.uniform(-MAX_SHIFT_MM, MAX_SHIFT_MM, 2)),
                ),
            )
            for cell in geom.cells
        }
        self.duration = sum(s.seconds for s in shots)
        self.noise = effects.film_noise(rng, (h, w), 2.5)

    def shot_at(self, t: float) -> Shot:
        for s in self.shots:
            if t < s.seconds:
                return s
            t -= s.seconds
        return self.shots[-1]

    def frame(self, t: float) -> tuple[np.ndarray, dict[str, Any]]:
        shot = self.shot_at(t)
        rng = np.random.default_rng([int(t * 1000) & 0xFFFFFFFF, 43])
        img = self.base.copy()
        solids = []
        for s in shot.position.screens:
            # Each screen's shade and face drawn from its square and colour, the same in
            # every frame (the shade of one seat's screens differs by the look's spread).
            own = np.random.default_rng([self.seed, 44, *s.cell, s.owner])
            solids += screen_solids(
                self.geom,
                BoardReading((s,)),
                self.colours,
                own,
                glare=False,
                poses=self.poses,
                look=self.look,
            )
        draw_solids(img, self.camera, solids, self.light)
        img = with_cast(img, self.look.cast)
        reach = arm_reach(self.camera, shot.hand_over)
        img = effects.film_frame(img, t, rng, reach, self.gain, self.noise, shot.moving)
        truth = shot.position.to_json()
        truth |= {"rest": shot.rest, "hand": shot.hand_over is not None, "t": t}
        return img, truth


def table_film(
    seed: int, settings: Any = None, *, rest_s: float = REST_S, moves: int = DEMO_MOVES
) -> Film:
    """The `sim` camera's scene (the live table's hook): a short scripted game, its set-ups
    and its winning guess tapped by the players, so the demo plays to its result."""
    camera = getattr(settings, "camera", None)
    size = (camera.width, camera.height) if camera is not None else (1280, 960)
    geom = load_geometry()
    script = scripted_game(seed, max_moves=moves)
    rng = np.random.default_rng([seed, 42])
    shots = film_shots(geom, script, rng, rest_s)
    return Film(geom, shots, seed, size, taps=script_taps(script, shots))
