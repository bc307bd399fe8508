"""Read a solo Onirim table from one picture: the labyrinth, the Doors, the Mirrors with their
fans, and the discard pile's top card.

Stages, each small:
1. `locate`: the corner markers (models/onirim/table.toml) -> the table's homography;
2. `corner_window`: for a place on the table, the card corner a fan leaves in view, searched
   a few millimetres about the place, rectified to the card library's patch scale;
3. `match`: which taught corner it is, coarse to fine (every shift at half scale, then the
   best one's neighbours at full scale), each template against the crop by normalised
   correlation of the shared Lab descriptor (`companion.vision.cards.library.descriptor`);
4. `read`: the places zone by zone, each zone asking only the card types that can lie there;
   a row or a fan ends at the first empty place. A card not told apart is null with a
   warning: a question costs the player a tap, a wrong card costs the game.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from companion.config import TableSettings
from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.deck import is_door, is_location
from companion.games.onirim.vision.layout import Point, TableLayout, load_layout
from companion.games.onirim.vision.reading import MirrorSeen, TableReading
from companion.vision.cards.library import (
    CHANNEL_WEIGHTS,
    PATCH_H,
    PATCH_W,
    Library,
    descriptor,
)
from companion.vision.markers import detect_markers
from companion.vision.registration import TableRegistrar

EMPTY = 0.62
"""A place whose best score is below this holds no card. From the curve on the development set
(`benchmarks/onirim_vision.py --curve`, seeds 1000..1009, 4 tables each, house and random
decks): empty places scored at most 0.616 (99th percentile 0.584), places holding a card
0.625 at the 1st percentile, 0.731 at the 5th."""
SURE = EMPTY
"""A card is named only when its score reaches this (a card at all) ..."""
MARGIN = 0.06
"""... and beats every other type's by this much. On the same curve the best type was the
wrong one for 30 of 1156 cards, with margins of at most 0.235, median 0.008; right ones had a
median margin of 0.146, 0.024 at the 5th percentile. (Tried: the lead as a share of the most
two types' scores can differ, which a Sun and a Key of one colour might need; on the
development curve, seeds 1000..1005, 3 tables, house and random, its wrong leads reached 0.43
with the right ones' median at 0.29: no better, so not kept.)"""
TINT_WEIGHT = 1.0
"""How much a crop's `tint` away from a template's costs its correlation (PLACEHOLDER: set
once by hand; red against brown needs it, no curve behind the value yet)."""
LABYRINTH_CHUNK = 8
"""Labyrinth places compared in one batch (more: fewer calls, more places past the end)."""
COARSE_STRIDE = 1
"""Shifts of the coarse look, in half-scale pixels."""
FINE_REACH = 2
"""The full-scale look tries this many pixels either way of the coarse best."""
FINALISTS = 3
"""Card types the coarse look passes on to the full-scale comparison."""


@dataclass(frozen=True)
class Match:
    card: str | None
    """The type named, or None (empty or not told apart)."""
    score: float
    margin: float
    best: str
    runner_up: str | None

    @property
    def empty(self) -> bool:
        return self.score < EMPTY


def _box_sums(planes: np.ndarray, h: int, w: int) -> np.ndarray:
    """Sum of every (h, w) window of each of a batch of planes (B, H, W), by integral image."""
    B, H, W = planes.shape
    S = np.zeros((B, H + 1, W + 1), np.float64)
    S[:, 1:, 1:] = planes.cumsum(axis=1, dtype=np.float64).cumsum(axis=2)
    return S[:, h:, w:] - S[:, :-h, w:] - S[:, h:, :-w] + S[:, :-h, :-w]


def channel_major(templates: np.ndarray, h: int, w: int) -> np.ndarray:
    """Unit template rows (h, w, 3 interleaved) reordered channel by channel, as
    `correlations` wants them."""
    t = templates.reshape(len(templates), h * w, 3)
    return np.ascontiguousarray(t.transpose(0, 2, 1).reshape(len(templates), 3 * h * w))


def tint(mean_lab: np.ndarray) -> np.ndarray:
    """(..., 2): the chroma of a mean Lab colour over its lightness, which a dimmer or
    brighter lamp changes little. The descriptor is blind to a patch's mean colour (each
    channel is zero-mean), and a red Location differs from a brown one mostly there."""
    L = np.maximum(mean_lab[..., 0], 20.0)
    return np.stack([(mean_lab[..., 1] - 128) / L, (mean_lab[..., 2] - 128) / L], axis=-1)


@dataclass(frozen=True)
class Correlated:
    scores: np.ndarray
    """(B, shifts, templates): cosine of the descriptors."""
    tints: np.ndarray
    """(B, shifts, 2): each crop's `tint`."""


def correlations(
    labs: np.ndarray, templates: np.ndarray, h: int, w: int, stride: int = 1
) -> Correlated:
    """Every (h, w) crop, every `stride` px, of a batch of Lab windows (B, H, W, 3) against
    each template (`channel_major` rows, unit length, zero-mean per channel): the cosine
    between the crop's `library.descriptor` and the template.

    A crop's mean drops out of the product with a zero-mean template, so crops are only
    scaled, channel by channel, by their spread (from integral images): one matrix product
    for the whole batch."""
    B = len(labs)
    n = h * w
    parts, means = [], []
    norm2: np.ndarray | float = 0.0
    for c in range(3):
        plane = np.ascontiguousarray(labs[..., c])
        total = _box_sums(plane, h, w)[:, ::stride, ::stride]
        squares = _box_sums(plane * plane, h, w)[:, ::stride, ::stride]
        mean = total / n
        var = np.maximum(squares / n - mean**2, 0.0).reshape(-1)
        means.append(mean.reshape(B, -1))
        gain = (CHANNEL_WEIGHTS[c] / np.maximum(np.sqrt(var), 6.0)).astype(np.float32)
        crops = sliding_window_view(plane, (h, w), axis=(1, 2))[:, ::stride, ::stride]
        parts.append(crops.reshape(-1, n) * gain[:, None])
        norm2 = norm2 + gain.astype(np.float64) ** 2 * var * n
    dots = cv2.gemm(np.hstack(parts), templates, 1.0, None, 0.0, flags=cv2.GEMM_2_T)
    scores = dots / np.maximum(1e-6, np.sqrt(norm2))[:, None]
    return Correlated(scores.reshape(B, -1, len(templates)), tint(np.stack(means, axis=-1)))


def _unit(t: np.ndarray) -> np.ndarray:
    flat = t.reshape(len(t), -1)
    return flat / np.maximum(1e-6, np.linalg.norm(flat, axis=1, keepdims=True))


class TableReader:
    """Reads pictures of one table with one taught deck."""

    def __init__(self, library: Library, layout: TableLayout | None = None) -> None:
        self.lib = library
        self.layout = layout or load_layout()
        L = self.layout
        self.registrar = TableRegistrar(
            TableSettings(
                corner_ids=L.corner_ids,
                marker_size_mm=L.marker_side_mm,
                width_mm=L.size_mm[0],
                height_mm=L.size_mm[1],
            )
        )
        x0, _, x1, _ = L.identify_mm
        self.px_per_mm = PATCH_W / (x1 - x0)
        self.search_px = round(L.search_mm * self.px_per_mm)
        self.fine = channel_major(_unit(library.templates), PATCH_H, PATCH_W)
        half, tints = [], []
        for p in library.patches:
            small = cv2.resize(p, (PATCH_W // 2, PATCH_H // 2), interpolation=cv2.INTER_AREA)
            half.append(descriptor(small).reshape(-1))
            lab = cv2.cvtColor(p, cv2.COLOR_BGR2LAB).astype(np.float32)
            tints.append(tint(lab.reshape(-1, 3).mean(axis=0)))
        self.coarse = channel_major(_unit(np.stack(half)), PATCH_H // 2, PATCH_W // 2)
        self.tints = np.stack(tints)
        ids = library.ids
        self.zones = {
            "location": [
                i for i, c in enumerate(ids) if not c.startswith("mirror-") and is_location(c)
            ],
            "door": [i for i, c in enumerate(ids) if is_door(c)],
            "discard": [
                i for i, c in enumerate(ids) if not c.startswith("mirror-") and not is_door(c)
            ],
        }
        # The layout lays the Mirror cards in deck.toml's order, so a Mirror place holds
        # one Mirror card, either side up, or nothing.
        self.mirror_order = list(ENGINE.deck.mirrors)
        for mid in self.mirror_order:
            self.zones[f"mirror-{mid}"] = [
                i for i, c in enumerate(ids) if c in (f"mirror-{mid}", f"mirror-{mid}-explored")
            ]

    # -- stages ----------------------------------------------------------------------

    def locate(self, image: np.ndarray) -> np.ndarray | None:
        """Table mm -> image px, or None when too few corner markers are seen."""
        fit = self.registrar.fit(detect_markers(image))
        return None if fit is None else np.linalg.inv(fit.H)

    def corner_window(
        self, image: np.ndarray, H_image_from_table: np.ndarray, place: Point
    ) -> np.ndarray:
        """BGR of the identifying corner of a card at `place`, with the search margin on
        every side, at the library's patch scale."""
        x0, y0, _, _ = self.layout.identify_mm
        s, m = self.px_per_mm, self.search_px
        ox, oy = place[0] + x0 - m / s, place[1] + y0 - m / s
        to_mm = np.array([[1 / s, 0, ox + 0.5 / s], [0, 1 / s, oy + 0.5 / s], [0, 0, 1]])
        size = (PATCH_W + 2 * m, PATCH_H + 2 * m)
        return cv2.warpPerspective(
            image,
            H_image_from_table @ to_mm,
            size,
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )

    def _score(self, c: Correlated, cand: list[int]) -> np.ndarray:
        """Correlation less the tint's distance from each template's (B, shifts, cand)."""
        d = np.linalg.norm(c.tints[:, :, None, :] - self.tints[cand][None, None], axis=-1)
        return c.scores - TINT_WEIGHT * d

    def match(self, windows: list[np.ndarray], zone: str | list[str]) -> list[Match]:
        """Which card type lies at each window (BGR from `corner_window`); `zone` for all of
        them, or one zone per window (windows of several zones compared in one batch)."""
        if not windows:
            return []
        zones = [zone] * len(windows) if isinstance(zone, str) else zone
        cand = sorted(set().union(*(self.zones[z] for z in zones)))
        if not cand:
            return [Match(None, -1.0, 0.0, "", None) for _ in windows]
        col = {c: j for j, c in enumerate(cand)}
        allowed = np.zeros((len(windows), len(cand)), bool)
        for b, z in enumerate(zones):
            allowed[b, [col[c] for c in self.zones[z]]] = True
        ids = self.lib.ids
        bgr = np.vstack(windows)
        lab = cv2.GaussianBlur(cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32), (3, 3), 0.7)
        H, W = windows[0].shape[:2]
        labs = lab.reshape(len(windows), H, W, 3)
        small = cv2.resize(bgr, (W // 2, H // 2 * len(windows)), interpolation=cv2.INTER_AREA)
        small_lab = cv2.GaussianBlur(
            cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32), (3, 3), 0.7
        ).reshape(len(windows), H // 2, W // 2, 3)
        coarse = self._score(
            correlations(small_lab, self.coarse[cand], PATCH_H // 2, PATCH_W // 2, COARSE_STRIDE),
            cand,
        )
        coarse = np.where(allowed[:, None, :], coarse, -np.inf)
        nx = (W // 2 - PATCH_W // 2) // COARSE_STRIDE + 1
        regions, finalists = [], []
        for b in range(len(windows)):
            at = int(np.argmax(coarse[b].max(axis=1)))
            cy, cx = 2 * COARSE_STRIDE * (at // nx), 2 * COARSE_STRIDE * (at % nx)
            r = FINE_REACH
            y0 = min(max(0, cy - r), H - PATCH_H - 2 * r)
            x0 = min(max(0, cx - r), W - PATCH_W - 2 * r)
            regions.append(labs[b, y0 : y0 + PATCH_H + 2 * r, x0 : x0 + PATCH_W + 2 * r])
            n_ok = int(allowed[b].sum())
            best = np.argsort(coarse[b].max(axis=0))[::-1][: min(FINALISTS, n_ok)]
            finalists.append(best.tolist())
        union = sorted(set().union(*finalists))
        at_union = {j: k for k, j in enumerate(union)}
        fine_cand = [cand[j] for j in union]
        fine = self._score(
            correlations(np.stack(regions), self.fine[fine_cand], PATCH_H, PATCH_W), fine_cand
        ).max(axis=1)
        out = []
        for b in range(len(windows)):
            keep = [cand[j] for j in finalists[b]]
            row = fine[b, [at_union[j] for j in finalists[b]]]
            order = np.argsort(row)[::-1]
            score = float(row[order[0]])
            first = keep[order[0]]
            second = float(row[order[1]]) if len(order) > 1 else -1.0
            runner = ids[keep[order[1]]] if len(order) > 1 else None
            named = ids[first] if score >= SURE and score - second >= MARGIN else None
            out.append(Match(named, score, score - second, ids[first], runner))
        return out

    # -- the table -------------------------------------------------------------------

    def read(self, image: np.ndarray) -> TableReading:
        H = self.locate(image)
        if H is None:
            return TableReading(
                warnings=(
                    "the table's corner markers are not seen "
                    f"(ids {', '.join(map(str, self.layout.corner_ids))})",
                )
            )
        L = self.layout
        warnings: list[str] = []

        def look(asked: list[tuple[Point, str]]) -> list[Match]:
            return self.match(
                [self.corner_window(image, H, p) for p, _ in asked], [z for _, z in asked]
            )

        def named(m: Match, where: str) -> str | None:
            if m.card is None:
                warnings.append(f"{where}: not sure which card ({m.best} or {m.runner_up})")
            return m.card

        # Few batches: every place known beforehand (the Mirrors, the Doors, the discard pile,
        # the labyrinth's first places) in one; then each row of the fans with the labyrinth's
        # next places. A row or a fan ends at its first empty place.
        n_doors = len(L.door_places)
        first: list[tuple[Point, str]] = [
            *(
                (p, f"mirror-{mid}")
                for p, mid in zip(L.mirror_places, self.mirror_order, strict=False)
            ),
            *((p, "door") for p in L.door_places),
            (L.discard_place, "discard"),
        ]
        n_first = len(first)
        places = list(L.labyrinth_places)
        chunk, places = places[:LABYRINTH_CHUNK], places[LABYRINTH_CHUNK:]
        found = look(first + [(p, "location") for p in chunk])
        seen, door_seen, top = (
            found[: len(self.mirror_order)],
            found[len(self.mirror_order) : len(self.mirror_order) + n_doors],
            found[n_first - 1],
        )
        lab_found = found[n_first:]
        mirrors: dict[int, tuple[str, bool]] = {}
        for i, m in enumerate(seen):
            if m.empty:
                continue
            card = named(m, f"Mirror place {i + 1}")
            if card is not None:  # a Mirror is never guessed
                mid = card.removeprefix("mirror-").removesuffix("-explored")
                mirrors[i] = (mid, card.endswith("-explored"))
        fans: dict[int, list[str | None]] = {i: [] for i in mirrors}
        open_fans = [i for i, (_, explored) in mirrors.items() if not explored]
        labyrinth: list[str | None] = []
        lab_open = True
        k = 0
        while True:
            for m in lab_found:
                if m.empty:
                    lab_open = False
                    break
                labyrinth.append(named(m, f"labyrinth card {len(labyrinth) + 1}"))
            lab_open = lab_open and bool(places)
            if k >= L.fan_max:
                open_fans = []
            if not open_fans and not lab_open:
                break
            chunk, places = (
                (places[:LABYRINTH_CHUNK], places[LABYRINTH_CHUNK:]) if lab_open else ([], places)
            )
            found = look(
                [(L.under_place(i, k), "location") for i in open_fans]
                + [(p, "location") for p in chunk]
            )
            still = []
            for i, m in zip(open_fans, found, strict=False):
                if m.empty:
                    continue
                fans[i].append(named(m, f"card {k + 1} under the {mirrors[i][0]} Mirror"))
                still.append(i)
            lab_found = found[len(open_fans) :]
            open_fans = still
            k += 1
        doors: list[str] = []
        for j, m in enumerate(door_seen):
            if m.empty:
                break
            card = named(m, f"Door {j + 1}")
            if card is None:
                warnings.append("a Door's colour is not told: tap it in")
            else:
                doors.append(card.removeprefix("door-"))
        return TableReading(
            labyrinth=tuple(labyrinth),
            doors=tuple(doors),
            mirrors=tuple(
                MirrorSeen(mid, explored, tuple(fans[i]))
                for i, (mid, explored) in sorted(mirrors.items())
            ),
            discard_top=None if top.empty else named(top, "discard pile"),
            warnings=tuple(warnings),
        )
