"""Scripted solo Onirim games for the `sim` camera, legal by construction.

A computer player plays a whole game through the engine, chance drawn from a seeded
generator, and every action becomes one of two things at the table:
- what the camera sees: a Location played to the labyrinth, a card discarded, a pair under a
  Mirror. The film shows a hand over the table for a moment, then the table still.
- what the player taps on the phone: the cards drawn, what a prophecy showed and the order put
  back, how a Nightmare was resolved, a Door opened or not, a choice inside a Mirror's effect.
  What such a tap does to the table (a Door into play, a Nightmare on the discard pile) is
  shown first, the tap follows, as a player lays the cards and then taps.
A Door earned by three of a colour is fetched a moment after the third card lies, so the
film also shows the table before the player has fetched it.

The tap payloads are the JSON the player's phone posts (`table/messages.py`).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.games.base import CHANCE
from companion.games.onirim.players import greedy_player
from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.actions import (
    Action,
    Discard,
    Draw,
    Nightmare,
    OpenDoor,
    Pair,
    Pick,
    Play,
    Prophecy,
    Reveal,
    action_to_json,
)
from companion.games.onirim.rules.state import OnirimState, evolve
from companion.games.onirim.vision.layout import TableLayout, load_layout
from companion.games.onirim.vision.render import (
    Conditions,
    Placed,
    deck_faces,
    deck_style,
    draw_markers,
    lay_face,
    paste_card,
    random_camera,
)
from companion.sim import effects
from companion.sim.taps import Tap

SIM_FPS = 4.0
"""Film frames per second."""
HAND_FRAMES = 2
"""Frames with a hand over the table while a card is laid."""
STILL_FRAMES = 5
"""Frames of the table still after each change (more than the tracker needs to settle)."""
TAP_DELAY_FRAMES = 4
"""A tap comes this many frames into the still table that shows what it did."""
CAMERA_ACTIONS = (Play, Discard, Pair)
NOISE_SIGMA = 2.5
"""Sensor noise of the film's camera (grey levels)."""
NOISE_SHIFT = 64


@dataclass(frozen=True)
class Shot:
    """A stretch of film: the table as `table` lays it out, a hand over it or not."""

    table: OnirimState
    hand: bool
    frames: int
    needs: int = 0
    """Engine actions the game must have booked before this shot may be shown (`FilmScene`
    waits for a slow reader)."""


@dataclass
class Script:
    """A whole game: what the film shows, what the player taps, and every engine action."""

    shots: list[Shot] = field(default_factory=list)
    taps: list[Tap] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    seen_actions: list[Action] = field(default_factory=list)
    """The actions the camera must book (plays, discards, pairs), in order."""
    final: OnirimState | None = None

    @property
    def frames(self) -> int:
        return sum(s.frames for s in self.shots)


def tap_payload(action: Action) -> dict[str, Any]:
    """What the phone posts for an action the camera cannot see."""
    if isinstance(action, Draw):
        return {"kind": "drew", "cards": [action.card]}
    if isinstance(action, Reveal):
        return {"kind": "looked", "cards": list(action.cards)}
    if isinstance(action, Prophecy):
        return {"kind": "prophecy", "discard": action.discard, "order": list(action.order)}
    if isinstance(action, Nightmare):
        return {"kind": "nightmare", "way": action.way, "card": action.card}
    if isinstance(action, OpenDoor):
        return {"kind": "door", "open": action.open}
    if isinstance(action, Pick):
        return {"kind": "pick", "card": action.card}
    if isinstance(action, Discard):  # on a card of its own kind: the camera sees no change
        return {"kind": "discarded", "card": action.card}
    raise ValueError(f"the camera sees {action_to_json(action)}, it is not tapped")


def before_fetching(before: OnirimState, after: OnirimState) -> OnirimState | None:
    """`after` as the table lies before the player fetched the Door a play earned, if any."""
    if len(after.doors) > len(before.doors) and len(after.labyrinth) > len(before.labyrinth):
        return evolve(after, doors=before.doors)
    return None


def script_game(
    seed: int, options: dict[str, Any] | None = None, max_turns: int | None = None
) -> Script:
    """A game played by the greedy player with seeded chance, as the film shows it."""
    rng = random.Random(f"onirim-film-{seed}")
    opts = options if options is not None else {"mirrors": True, "hard": rng.random() < 0.3}
    state = ENGINE.new_game(1, opts)
    out = Script()
    out.shots.append(Shot(state, False, STILL_FRAMES))
    frame = STILL_FRAMES
    while not ENGINE.is_terminal(state):
        if max_turns is not None and state.phase == "turn" and state.turns >= max_turns:
            break
        chance = ENGINE.current_player(state) == CHANCE
        action = ENGINE.sample_chance(state, rng) if chance else greedy_player(state, rng)
        after = ENGINE.apply(state, action)
        done = len(out.actions)
        out.actions.append(action)
        unseen = (
            isinstance(action, Discard) and bool(state.discard) and state.discard[-1] == action.card
        )
        if isinstance(action, CAMERA_ACTIONS) and not unseen:
            out.seen_actions.append(action)
            if isinstance(action, Pair) and _explores_alike(state, action):
                at = frame + HAND_FRAMES + TAP_DELAY_FRAMES
                out.taps.append(
                    Tap(
                        at / SIM_FPS,
                        0,
                        {"kind": "paired", "mirror": action.mirror, "cards": list(action.cards)},
                    )
                )
            out.shots.append(Shot(after, True, HAND_FRAMES, done))
            frame += HAND_FRAMES
            unfetched = before_fetching(state, after)
            if unfetched is not None:
                out.shots.append(Shot(unfetched, False, STILL_FRAMES, done))
                out.shots.append(Shot(after, True, HAND_FRAMES, done))
                frame += STILL_FRAMES + HAND_FRAMES
            out.shots.append(Shot(after, False, STILL_FRAMES, done))
            frame += STILL_FRAMES
        else:
            if _table_changes(state, after):
                out.shots.append(Shot(after, True, HAND_FRAMES, done))
                out.shots.append(Shot(after, False, STILL_FRAMES, done))
                frame += HAND_FRAMES + STILL_FRAMES
                at = frame - STILL_FRAMES + TAP_DELAY_FRAMES
            else:
                at = frame - 1  # in the last still frame: the next shot waits for it
            out.taps.append(Tap(at / SIM_FPS, 0, tap_payload(action)))
        state = after
    out.shots.append(Shot(state, False, STILL_FRAMES * 4, len(out.actions)))
    out.final = state
    return out


def _explores_alike(state: OnirimState, action: Pair) -> bool:
    """Whether the camera cannot tell this pair from another (a fourth card explores the
    Mirror: the table shows it flipped, not which pair went under it), as the tracker
    judges it: the simulated player then taps the pair in."""
    from companion.games.onirim.table.track import explain, table_of

    window = len(load_layout().labyrinth_places)
    seen = table_of(ENGINE.apply(state, action), window)
    return len(explain(ENGINE, state, seen, window).choices) > 1


def table_key(state: OnirimState, layout: TableLayout) -> tuple[Any, ...]:
    """What lies on the table for a state (two states with one key look the same)."""
    return (
        state.labyrinth[-len(layout.labyrinth_places) :],
        state.doors,
        state.in_game,
        state.explored,
        state.under,
        state.discard[-4:],
    )


def _table_changes(before: OnirimState, after: OnirimState) -> bool:
    layout = load_layout()
    return table_key(before, layout) != table_key(after, layout)


def table_cards(state: OnirimState, layout: TableLayout) -> list[Placed]:
    """The cards on the table for a state, in the order they are put down (no limbo: it
    holds cards only in the middle of a draw)."""
    placed: list[Placed] = []
    ids = list(ENGINE.deck.mirrors)
    for m, explored, under in zip(state.in_game, state.explored, state.under, strict=True):
        i = ids.index(m)
        placed.append(
            Placed(f"mirror-{m}-explored" if explored else f"mirror-{m}", layout.mirror_places[i])
        )
        for k, card in enumerate(under[: layout.fan_max]):
            placed.append(Placed(card, layout.under_place(i, k)))
    lab = state.labyrinth[-len(layout.labyrinth_places) :]
    for card, place in zip(lab, layout.labyrinth_places, strict=False):
        placed.append(Placed(card, place))
    for card, place in zip(state.doors, layout.door_places, strict=False):
        placed.append(Placed(card, place))
    for card in state.discard[-4:]:
        placed.append(Placed(card, layout.discard_place, 3.0, 3.0))
    return placed


DEMO = Conditions(max_tilt_deg=8.0, max_yaw_deg=4.0)
"""A friendly rig for the film: a camera near vertical over the whole table."""


class TableFilm:
    """The film of one scripted game: the same deck, camera and table throughout; each card
    keeps the spot and angle it was laid at; light, noise and JPEG differ frame to frame."""

    def __init__(
        self,
        seed: int,
        script: Script | None = None,
        faces: dict[str, np.ndarray] | None = None,
        cond: Conditions = DEMO,
    ) -> None:
        self.seed = seed
        self.script = script or script_game(seed)
        self.layout = load_layout()
        self._faces = faces
        self.cond = cond
        starts, n = [], 0
        for shot in self.script.shots:
            starts.append(n)
            n += shot.frames
        self._starts = starts
        self.length = n

    def __len__(self) -> int:
        return self.length

    @functools.cached_property
    def faces(self) -> dict[str, np.ndarray]:
        return self._faces if self._faces is not None else scene_faces(self.seed)

    @functools.cached_property
    def _set(self) -> tuple[Any, np.ndarray]:
        """The camera and the bare table with its markers, drawn on the first frame."""
        from companion.games.onirim.vision.render import CANVAS_PX_PER_MM, MARGIN_MM

        rng = np.random.default_rng([self.seed, 31])
        camera = random_camera(self.layout, rng, self.cond)
        w_mm, h_mm = self.layout.size_mm
        W = round((w_mm + 2 * MARGIN_MM) * CANVAS_PX_PER_MM)
        H = round((h_mm + 2 * MARGIN_MM) * CANVAS_PX_PER_MM)
        base = effects.table_texture(W, H, rng)
        draw_markers(base, self.layout)
        return camera, base

    def shot_at(self, i: int) -> Shot:
        import bisect

        k = bisect.bisect_right(self._starts, min(i, self.length - 1)) - 1
        return self.script.shots[k]

    def _spot(self, p: Placed, nth: int) -> tuple[tuple[float, float], float]:
        """Where a card laid at place `p` (the `nth` card there) lies: fixed for the film."""
        r = random.Random(f"{self.seed}-{p.place}-{nth}-{p.card}")
        dx, dy = r.uniform(-p.jitter, p.jitter), r.uniform(-p.jitter, p.jitter)
        return (p.place[0] + dx, p.place[1] + dy), r.uniform(-p.turn, p.turn)

    @functools.lru_cache(maxsize=4)  # noqa: B019 (one film per scene; a few tables in use)
    def clean(self, key: tuple[Any, ...]) -> np.ndarray:
        from companion.games.onirim.vision.render import CANVAS_PX_PER_MM, MARGIN_MM

        state = self._states[key]
        camera, base = self._set
        canvas = base.copy()
        counts: dict[Any, int] = {}
        for p in table_cards(state, self.layout):
            nth = counts.get(p.place, 0)
            counts[p.place] = nth + 1
            at, angle = self._spot(p, nth)
            paste_card(canvas, self.faces[p.card], at, angle)
        image = camera.render_plane(canvas, CANVAS_PX_PER_MM, (-MARGIN_MM, -MARGIN_MM))
        # The lamp does not move during a game: one uneven light for the whole film.
        return effects.uneven_light(image, np.random.default_rng([self.seed, 32]))

    @functools.cached_property
    def _states(self) -> dict[tuple[Any, ...], OnirimState]:
        return {table_key(s.table, self.layout): s.table for s in self.script.shots}

    @functools.cached_property
    def _noise(self) -> np.ndarray:
        """One field of sensor noise, larger than a frame: each frame takes its own window."""
        h, w = self.cond.size[1], self.cond.size[0]
        rng = np.random.default_rng([self.seed, 33])
        field = rng.standard_normal((h + NOISE_SHIFT, w + NOISE_SHIFT, 3), np.float32)
        return np.round(field * NOISE_SIGMA).astype(np.int16)

    def _noisy(self, img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Sensor noise that differs frame to frame, at a fraction of drawing it anew."""
        h, w = img.shape[:2]
        dy, dx = (int(v) for v in rng.integers(0, NOISE_SHIFT, 2))
        noise = self._noise[dy : dy + h, dx : dx + w]
        return np.clip(img.astype(np.int16) + noise, 0, 255).astype(np.uint8)

    def render(self, i: int) -> tuple[np.ndarray, dict[str, Any]]:
        """Frame `i`: the picture and its truth (the table's state key and the hand)."""
        shot = self.shot_at(i)
        key = table_key(shot.table, self.layout)
        rng = np.random.default_rng([self.seed, i, 5])
        img = self.clean(key)
        if shot.hand:
            h, w = img.shape[:2]
            img, _ = effects.hand(
                img,
                rng,
                reach=(rng.uniform(0.25, 0.75) * w, rng.uniform(0.3, 0.8) * h),
                edge="bottom",
            )
        img = effects.jpeg(self._noisy(img, rng), 88)
        return img, {"frame": i, "hand": shot.hand, "turns": shot.table.turns}


def scene_faces(seed: int) -> dict[str, np.ndarray]:
    """The deck a seed's film is drawn with: every design choice drawn from the seed."""
    return deck_faces(deck_style(seed, "random"), load_layout())


def teach_snapshot(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A small teach photo of one card of the film's deck: the card about upright on a plain
    table unlike its edge, a little noise and JPEG. Smaller and plainer than the renderer's
    teach photos (`render.teach_photo`), so the `sim` camera's deck is taught in seconds; it
    goes through the same `teach.teach_photos` as a user's photos."""
    import math

    from companion.games.onirim.vision.art import PX_PER_MM

    W, H = 480, 360
    edge = face[2:6, face.shape[1] // 3 : 2 * face.shape[1] // 3, :3]
    tone = 50.0 if float(edge.mean()) > 110 else 205.0
    table = np.full((H, W, 3), tone, np.float32)
    s = rng.uniform(3.0, 3.3) / PX_PER_MM
    a = math.radians(rng.uniform(-4, 4))
    img = lay_face(table, face, s, a, (W / 2 + rng.uniform(-20, 20), H / 2 + rng.uniform(-10, 10)))
    img += rng.standard_normal(img.shape, np.float32) * 2.0
    return effects.jpeg(np.clip(img, 0, 255).astype(np.uint8), 90)


class FilmScene:
    """The `sim` camera's scene: one scripted game (a session is one game), then the table
    stays as the game ended; the player's taps come with it. `ready` (optional): the film
    starts only once it says the game can read the table (its deck taught), so no play is
    laid while nobody looks; until then the camera shows the table before the first card."""

    def __init__(
        self,
        seed: int,
        options: dict[str, Any] | None = None,
        ready: Callable[[], bool] | None = None,
        booked: Callable[[], int] | None = None,
    ) -> None:
        self.seed = seed
        self.films = [TableFilm(seed, script_game(seed, options))]
        self.ready = ready
        self.booked = booked
        """How many engine actions the game has booked: a shot waits until the actions
        before it are (a reader slower than the film would otherwise see plays pile up)."""
        self._start: float | None = None if ready is not None else 0.0
        self._clock = 0.0
        self._last: float | None = None
        self._cache: tuple[int, tuple[np.ndarray, Any]] | None = None

    @functools.cached_property
    def taps(self) -> list[Tap]:
        out, start = [], 0.0
        for film in self.films:
            out += [Tap(t.t + start, t.seat, t.payload) for t in film.script.taps]
            start += len(film) / SIM_FPS
        return out

    def frame(self, t: float) -> tuple[np.ndarray, Any]:
        if self._start is None and self.ready is not None and self.ready():
            self._start = t
        dt = 0.0 if self._last is None else max(0.0, t - self._last)
        self._last = t
        if self._start is not None:
            ahead = self._clock + dt
            shot = self.films[0].shot_at(int(ahead * SIM_FPS))
            if self.booked is None or shot.needs <= self.booked():
                self._clock = ahead
        film_t = self._clock
        i = int(film_t * SIM_FPS)
        if self._cache is None or self._cache[0] != i:
            j = i
            for film in self.films:
                if j < len(film):
                    break
                j -= len(film)
            else:
                film, j = self.films[-1], len(self.films[-1]) - 1
            self._cache = (i, film.render(j))
        image, truth = self._cache[1]
        # Before the start the taps' clock stands at -1: none is due.
        return image, {**truth, "t": film_t if self._start is not None else -1.0}
