"""Onirim at the camera: layout, renderer truth, teach through the card library, read."""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import replace
from functools import partial
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.errors import UserError
from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.deck import is_location
from companion.games.onirim.vision import read as onirim_read
from companion.games.onirim.vision.compare import compare
from companion.games.onirim.vision.layout import load_layout, parse_layout
from companion.games.onirim.vision.read import (
    BLUR_STEPS,
    BODY_FLOOR,
    BODY_MARGIN,
    COARSE_EMPTY,
    COLOUR_MARGIN,
    DISCARD_SURE,
    DISCARD_SYMBOL_BELOW,
    EMPTY,
    END_BODY_LEAD,
    END_SURE,
    END_SYMBOL_FIT,
    HELD_SURE,
    MARGIN,
    MIRROR_BODY_LEAD,
    MIRROR_SURE,
    ROW_GAP,
    SIDE_LIGHT,
    SIDE_MARGIN,
    SURE,
    SYMBOL_CHROMA_BELOW,
    SYMBOL_CHROMA_LEAD,
    SYMBOL_KEEP,
    SYMBOL_MARGIN,
    SYMBOL_TIE,
    SYMBOL_TIE_MARGIN,
    Crops,
    Match,
    ShiftedTemplates,
    TableReader,
    colour_scores,
    correlations,
    crop_scores,
    ended,
    joint_unit,
    joint_weighted,
    row_of,
    symbol_margin,
    symbol_pair,
    symbol_scores,
    template_scores,
    unit_planes,
    weighted_colour_scores,
    windows_of,
)
from companion.games.onirim.vision.reading import MirrorSeen, TableReading
from companion.games.onirim.vision.render import random_table, turns_of_a_game
from companion.games.onirim.vision.teach import load_library, required_ids
from companion.vision.cards.library import CHANNEL_WEIGHTS, descriptor
from companion.vision.markers import detect_markers

SEED = 424242


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> Path:
    """One random-style deck: its teach photos, three tables and the taught library."""
    out = tmp_path_factory.mktemp("onirim")
    assert main(["render", "onirim", "--seed", str(SEED), "--out", str(out), "--count", "3"]) == 0
    assert main(["teach", "onirim", str(out / "teach"), "--library", str(out / "lib.npz")]) == 0
    return out


def test_layout_places_do_not_collide() -> None:
    L = load_layout()
    assert len(L.mirror_places) == 9 and len(set(L.corner_ids)) == 4
    assert set(L.corner_ids).isdisjoint({0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23})
    w, h = L.card_mm
    # A fan's last card ends before the labyrinth's first row starts.
    assert L.under_place(0, L.fan_max - 1)[1] + h < L.labyrinth_places[0][1]
    # Every place lies inside the markers' rectangle.
    for x, y in [*L.labyrinth_places, *L.door_places, *L.limbo_places, L.discard_place]:
        assert x > 0 and x + w < L.size_mm[0] and y > 0 and y + h < L.size_mm[1]


def test_layout_refuses_a_bad_file() -> None:
    with pytest.raises(UserError, match="missing"):
        parse_layout({"markers": {}})


def test_rendered_tables_are_moments_of_legal_games() -> None:
    rng = random.Random(5)
    L = load_layout()
    for _ in range(5):
        _, truth = random_table(L, rng)
        kinds = set(ENGINE.deck.kinds)
        assert all(c in kinds for c in truth.labyrinth)
        for a, b in zip(truth.labyrinth, truth.labyrinth[1:], strict=False):
            assert a.split("-")[1] != b.split("-")[1]  # the symbol rule held
        assert all(truth.doors.count(c) <= 2 for c in truth.doors)  # two Doors per colour
    turns = turns_of_a_game(random.Random(1), {"mirrors": True, "hard": False})
    assert all(s.phase == "turn" for s in turns[:-1]) and len(turns) > 3


def test_render_writes_truth_in_reads_shape(rendered: Path) -> None:
    data = json.loads((rendered / "0000.json").read_text())
    assert set(data) == {"image", "labyrinth", "doors", "mirrors", "discard_top", "warnings"}
    assert (rendered / "0000.jpg").is_file()
    assert {p.stem for p in (rendered / "teach").iterdir()} >= set(required_ids())


def test_read_names_cards_and_never_guesses(rendered: Path) -> None:
    """No card named wrongly and none where no card lies; what is not told apart is null.
    (The share named is the benchmark's to measure; this deck's Sun and Key corners are
    close, so a good part is left null.)"""
    reader = TableReader(load_library(rendered / "lib.npz"))
    cards = right = phantom = 0
    for i in range(3):
        truth = TableReading.from_json(json.loads((rendered / f"{i:04d}.json").read_text()))
        reading = reader.read(cv2.imread(str(rendered / f"{i:04d}.jpg")))
        t = compare(reading, truth)
        cards, right, phantom = cards + t.cards, right + t.right, phantom + t.phantom
        assert t.wrong == 0, t.errors
    assert phantom == 0
    assert right >= 0.5 * cards


def test_match_in_one_batch_as_one_by_one(rendered: Path) -> None:
    """Places of several zones compared in one batch get what each would get alone, and each
    answer is one of its own zone's types."""
    reader = TableReader(load_library(rendered / "lib.npz"))
    image = cv2.imread(str(rendered / "0000.jpg"))
    H = reader.locate(image)
    assert H is not None
    L = reader.layout
    asked = [
        (L.mirror_places[0], f"mirror-{reader.mirror_order[0]}"),
        (L.mirror_places[1], f"mirror-{reader.mirror_order[1]}"),
        (L.labyrinth_places[0], "location"),
        (L.door_places[0], "door"),
        (L.discard_place, "discard"),
    ]
    windows = [reader.corner_window(image, H, p) for p, _ in asked]
    together = reader.match(windows, [z for _, z in asked])
    for w, (_, zone), m in zip(windows, asked, together, strict=True):
        (alone,) = reader.match([w], zone)
        assert (m.best, m.card, m.runner_up) == (alone.best, alone.card, alone.runner_up)
        assert m.score == pytest.approx(alone.score, abs=1e-4)
        assert m.margin == pytest.approx(alone.margin, abs=1e-3)
        assert reader.lib.ids.index(m.best) in reader.zones[zone]


def _cosine(crop: np.ndarray, template: np.ndarray) -> float:
    """The descriptor's cosine written out plainly (`library.descriptor`'s formula)."""
    std = crop.reshape(-1, 3).std(axis=0)
    d = (crop - crop.reshape(-1, 3).mean(axis=0)) * CHANNEL_WEIGHTS / np.maximum(std, 6.0)
    t = template.reshape(-1)
    return float(d.reshape(-1) @ t / np.linalg.norm(d) / np.linalg.norm(t))


def test_fast_correlations_score_as_the_descriptor() -> None:
    """Both fast paths (every shift of a batch's windows, each run of windows against the
    templates it wants, and a few shifts per window's own templates) give the plain
    descriptor cosine at every shift."""
    rng = np.random.default_rng(7)
    labs = cv2.GaussianBlur(rng.uniform(40, 220, (3 * 23, 32, 3)).astype(np.float32), (5, 5), 2)
    labs = labs.reshape(3, 23, 32, 3)
    labs[1, ..., 0] = 150.0  # a flat channel: its spread floored, as the descriptor does
    raw = rng.standard_normal((4, 15, 24, 3)).astype(np.float32)
    raw -= raw.mean(axis=(1, 2), keepdims=True)
    wanted = np.array([[1, 1, 1, 1], [1, 1, 1, 1], [1, 0, 0, 1]], bool)
    c = correlations(labs, ShiftedTemplates(unit_planes(raw)), [0, 1, 2, 3], wanted)
    assert c.scores.shape == (3, 9 * 9, 4)
    for b, y, x, k in [(0, 0, 0, 0), (1, 4, 7, 2), (2, 8, 8, 3), (1, 8, 0, 1)]:
        want = _cosine(labs[b, y : y + 15, x : x + 24], raw[k])
        assert c.scores[b, y * 9 + x, k] == pytest.approx(want, abs=2e-4)
    # A template the window does not want is not scored (its zone cannot hold that card).
    assert np.isneginf(c.scores[2, :, 1:3]).all() and np.isfinite(c.scores[2, :, [0, 3]]).all()
    # Only the templates used are scored, in their order; windows of one run score alike.
    some = correlations(labs, ShiftedTemplates(unit_planes(raw)), [3, 1], wanted[:, [3, 1]])
    assert some.scores[:2] == pytest.approx(c.scores[:2, :, [3, 1]], abs=1e-5)
    assert np.isneginf(some.scores[2, :, 1]).all()
    assert some.scores[2, :, 0] == pytest.approx(c.scores[2, :, 3], abs=1e-5)
    planes = unit_planes(raw)
    few = crop_scores(labs, np.stack([planes[[0, 3]], planes[[1, 2]], planes[[2, 0]]]))
    assert few.scores[1, 4 * 9 + 7, 1] == pytest.approx(c.scores[1, 4 * 9 + 7, 2], abs=2e-4)
    assert few.tints == pytest.approx(c.tints, abs=1e-4)
    # One region against one template (the body look) by template matching: the same.
    for b, k in [(0, 0), (1, 2), (2, 3)]:
        one = template_scores(labs[b], planes[k])
        assert one.scores.shape == (1, 9 * 9, 1)
        assert one.scores[0, :, 0] == pytest.approx(c.scores[b, :, k], abs=2e-4)
        assert one.tints[0] == pytest.approx(c.tints[b], abs=1e-4)
    # One region's crops measured once, then scored against each template in turn (a fan's
    # last card against its Mirror's body and the card's before it): each as the sweep.
    crops = Crops(labs[1], 15, 24)
    for k in range(4):
        assert crops.scores(planes[k]) == pytest.approx(c.scores[1, :, k], abs=2e-4)
    assert crops.tints == pytest.approx(c.tints[1], abs=1e-4)


def test_symbol_decides_between_two_types_of_one_colour() -> None:
    """Two corners that differ only by their symbol (the colour and the rest shared, with a
    lighting slope across one photo): the pair's mask is the symbols, and a crop of one,
    a pixel off and under other light, scores near 1 with its own type, far less with the
    other."""
    from companion.vision.cards.library import PATCH_H, PATCH_W, descriptor

    def corner(symbol: str, slope: float) -> np.ndarray:
        img = np.full((PATCH_H + 2, PATCH_W + 2, 3), (40, 40, 190), np.uint8)
        if symbol == "sun":
            cv2.circle(img, (13, 14), 5, (235, 235, 235), -1)
            for a in np.linspace(0, 2 * np.pi, 8, endpoint=False):
                p = (int(13 + 9 * np.cos(a)), int(14 + 9 * np.sin(a)))
                cv2.line(img, (13, 14), p, (235, 235, 235), 1)
        else:
            cv2.circle(img, (9, 14), 4, (235, 235, 235), 2)
            cv2.line(img, (13, 14), (24, 14), (235, 235, 235), 2)
        ramp = np.linspace(1.0 - slope, 1.0 + slope, img.shape[1])[None, :, None]
        return np.clip(img * ramp, 0, 255).astype(np.uint8)

    sun, key = (descriptor(corner(s, 0.0)[1:-1, 1:-1]) for s in ("sun", "key"))
    pair = symbol_pair(sun, key)
    assert 0 < pair.mask.sum() < 0.5 * pair.mask.size
    assert pair.mask[:, 35:].sum() == 0  # the plain right part is no symbol
    for truth, want in (("sun", 0), ("key", 1)):
        seen = cv2.cvtColor(corner(truth, 0.15), cv2.COLOR_BGR2LAB).astype(np.float32)
        scores = symbol_scores(seen[..., 0], pair)
        assert scores[want] > 0.8 and scores[want] - scores[1 - want] > 0.3


def test_a_symbol_as_light_as_its_badge_is_told_apart_in_its_chroma() -> None:
    """A Sun and a Key printed in red on a grey disc as light as the ink: in the lightness the
    two corners hardly differ (a pair whose lead would be noise over a tiny reach), in the
    red-green chroma they differ as any two symbols do, and a blurred crop under a dimmer lamp
    leads its own type there, either way round."""
    from companion.vision.cards.library import PATCH_H, PATCH_W, descriptor

    def corner(symbol: str, dim: float) -> np.ndarray:
        lab = np.full((PATCH_H + 2, PATCH_W + 2, 3), (200, 128, 128), np.float32)
        lab[:4] = lab[:, :4] = (90, 160, 150)  # the card's red frame
        cv2.circle(lab, (14, 16), 11, (140, 128, 128), -1)  # a grey disc
        ink = (140, 175, 150)  # the disc's lightness, red
        if symbol == "sun":
            cv2.circle(lab, (14, 16), 4, ink, -1)
            for a in np.linspace(0, 2 * np.pi, 8, endpoint=False):
                cv2.line(lab, (14, 16), (int(14 + 8 * np.cos(a)), int(16 + 8 * np.sin(a))), ink)
        else:
            cv2.circle(lab, (10, 16), 4, ink, 2)
            cv2.line(lab, (14, 16), (22, 16), ink, 2)
        bgr = cv2.cvtColor(lab.astype(np.uint8), cv2.COLOR_LAB2BGR).astype(np.float32)
        return np.clip(bgr * dim, 0, 255).astype(np.uint8)

    sun, key = (descriptor(corner(s, 1.0)[1:-1, 1:-1]) for s in ("sun", "key"))
    lightness, chroma = symbol_pair(sun, key), symbol_pair(sun, key, channel=1)
    assert lightness.channel == 0 and chroma.channel == 1
    assert lightness.reach < 0.12 < 0.5 < chroma.reach
    for truth, sign in (("sun", 1), ("key", -1)):
        photo = cv2.GaussianBlur(corner(truth, 0.8), (3, 3), 0.8)
        seen = cv2.cvtColor(photo, cv2.COLOR_BGR2LAB).astype(np.float32)
        a, b = symbol_scores(seen[..., chroma.channel], chroma)
        assert sign * (a - b) / chroma.reach > SYMBOL_MARGIN


def test_a_symbol_lead_is_measured_against_what_the_two_symbols_share() -> None:
    """A Sun and a Key whose ink overlaps (the Sun's disc where the Key's ring lies) and a
    band of the background across both: on the pair's pixels the two templates correlate
    well with each other, so even a crop just like one of them leads the other by little in
    raw correlation. Against the pair's `reach` (what a crop just like one leads the other
    by) a blurred crop under other light leads its own type clearly, either way round."""
    from companion.vision.cards.library import PATCH_H, PATCH_W, descriptor

    def corner(symbol: str, slope: float, band: float) -> np.ndarray:
        img = np.full((PATCH_H + 2, PATCH_W + 2, 3), (200, 225, 230), np.float32)
        img[16:] *= 1 - band
        ink = (40, 40, 190)
        if symbol == "sun":
            cv2.circle(img, (13, 15), 4, ink, -1)
            for a in np.linspace(0, 2 * np.pi, 10, endpoint=False):
                cv2.line(img, (13, 15), (int(13 + 7 * np.cos(a)), int(15 + 7 * np.sin(a))), ink)
        else:
            cv2.circle(img, (10, 15), 3, ink, 2)
            cv2.line(img, (13, 15), (21, 15), ink, 2)
        img = cv2.GaussianBlur(img, (3, 3), 0.8)
        ramp = np.linspace(1.0 - slope, 1.0 + slope, img.shape[1])[None, :, None]
        return np.clip(img * ramp, 0, 255).astype(np.uint8)

    sun, key = (descriptor(corner(s, 0.0, 0.3)[1:-1, 1:-1]) for s in ("sun", "key"))
    pair = symbol_pair(sun, key)
    assert pair.reach < 0.5  # the two share much of their pixels' pattern
    raw = []
    for truth, sign in (("sun", 1), ("key", -1)):
        photo = cv2.GaussianBlur(corner(truth, 0.15, 0.15), (5, 5), 1.2)
        seen = cv2.cvtColor(photo, cv2.COLOR_BGR2LAB).astype(np.float32)
        a, b = symbol_scores(seen[..., 0], pair)
        raw.append(sign * (a - b))
        assert sign * (a - b) / pair.reach > max(0.4, SYMBOL_MARGIN)  # against the reach
    assert min(raw) < 0.3  # raw, one of them would lead by less than the former margin


def test_colour_look_tells_red_from_brown_where_the_descriptor_cannot() -> None:
    """Two corners of one design, a frame and a symbol printed in the card's colour on plain
    paper, red and brown: each channel of the descriptor shows the same pattern for both (its
    cosine between them is near 1), but the colour look keeps how the lightness and the chroma
    change against each other, so a crop of one, a pixel off and under a dimmer, sloping
    light, leads its own colour clearly."""
    from companion.vision.cards.library import PATCH_H, PATCH_W, descriptor

    def corner(ink: tuple[int, int, int], light: float, slope: float) -> np.ndarray:
        img = np.full((PATCH_H + 2, PATCH_W + 2, 3), (215, 230, 238), np.uint8)
        img[:5], img[:, :5] = ink, ink
        cv2.circle(img, (16, 16), 6, ink, -1)
        ramp = light * np.linspace(1.0 - slope, 1.0 + slope, img.shape[1])[None, :, None]
        return np.clip(img * ramp, 0, 255).astype(np.uint8)

    def lab(bgr: np.ndarray) -> np.ndarray:
        return cv2.GaussianBlur(
            cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32), (3, 3), 0.7
        )

    red, brown = (55, 60, 200), (30, 55, 105)
    taught = {c: corner(c, 1.0, 0.0)[1:-1, 1:-1] for c in (red, brown)}
    same = float((descriptor(taught[red]) * descriptor(taught[brown])).sum())
    same /= float(
        np.linalg.norm(descriptor(taught[red])) * np.linalg.norm(descriptor(taught[brown]))
    )
    assert same > 0.95  # the whole corner alone hardly tells them apart
    joint = {c: joint_unit(lab(t)) for c, t in taught.items()}
    for truth, other in ((red, brown), (brown, red)):
        seen = lab(corner(truth, 0.75, 0.1))
        mine, theirs = colour_scores(seen, joint[truth], joint[other])
        assert mine > 0.9 and mine - theirs > 0.1


def _framed(kind: str, ink: tuple[int, int, int], paper: tuple[int, int, int], pad: int = 0):
    """A corner of a design whose colour is a frame and the symbol's ink on plain paper."""
    from companion.vision.cards.library import PATCH_H, PATCH_W

    img = np.full((PATCH_H + 2 * pad, PATCH_W + 2 * pad, 3), paper, np.uint8)
    img[pad : pad + 5, pad:], img[pad:, pad : pad + 5] = ink, ink
    if kind == "sun":
        cv2.circle(img, (pad + 16, pad + 16), 6, ink, -1)
    elif kind == "moon":
        cv2.circle(img, (pad + 16, pad + 16), 6, ink, 2)
    elif kind == "key":
        cv2.line(img, (pad + 10, pad + 16), (pad + 26, pad + 16), ink, 3)
    else:
        cv2.rectangle(img, (pad + 11, pad + 10), (pad + 21, pad + 24), ink, -1)
    return img


def test_the_colour_look_decides_red_against_brown_where_it_is_clear(rendered: Path) -> None:
    """A deck whose red and brown cards are a frame and a symbol on plain paper, read under a
    dimmer, sloping light: the whole corner leads the other colour by less than MARGIN, and the
    colour look names the red Sun; a brown Door on paper with a pink cast, which the whole
    corner takes for the red Door by more than MARGIN, is refuted by the colour look and asked."""
    from companion.vision.cards.library import descriptor

    lib = load_library(rendered / "lib.npz")
    inks = {"red": (55, 60, 200), "brown": (30, 55, 105)}
    for colour, ink in inks.items():
        for kind in ("sun", "moon", "key", "door"):
            i = lib.ids.index(f"door-{colour}" if kind == "door" else f"{colour}-{kind}")
            lib.patches[i] = _framed(kind, ink, (215, 230, 238))
            lib.templates[i] = descriptor(lib.patches[i])
    reader = TableReader(lib)

    def seen(kind: str, ink: tuple[int, int, int], paper: tuple[int, int, int]) -> np.ndarray:
        img = _framed(kind, ink, paper, reader.search_px)
        ramp = 0.8 * np.linspace(0.9, 1.1, img.shape[1])[None, :, None]
        return np.clip(img * ramp, 0, 255).astype(np.uint8)

    sun = reader.match([seen("sun", inks["red"], (215, 230, 238))], "location")[0]
    assert sun.colour_lead is not None and sun.colour_lead < MARGIN
    assert sun.colour_look is not None and sun.colour_look >= COLOUR_MARGIN
    assert sun.card == "red-sun"
    door = reader.match([seen("door", inks["brown"], (190, 195, 250))], "door")[0]
    assert door.best == "door-red" and door.margin >= MARGIN
    assert door.colour_look is not None and door.colour_look <= -COLOUR_MARGIN
    assert door.card is None


def _place(score: float, coarse: float | None = None) -> Match:
    """A place read with this best score (a card when at least EMPTY)."""
    return Match(
        "red-sun" if score >= EMPTY else None,
        score,
        0.3,
        "red-sun",
        "red-moon",
        score if coarse is None else coarse,
    )


def test_a_row_ends_at_an_empty_place_unless_sure_cards_follow_it() -> None:
    """A row has no gaps. In the labyrinth a run of up to `ROW_GAP` places that are not sure
    cards, starting at an empty one (a glare over one to three corners, whatever each then
    looks like), followed by a sure card and another card, holds cards (kept, unnamed here);
    a longer run, or one followed by less, ends the row; a run read so far without what
    follows it wants the next place. A place that looked something like a card needs only one
    sure card after it; in a fan or the Doors that is the only gap bridged."""
    card, doubtful = _place(0.9), _place(EMPTY - 0.01, COARSE_EMPTY + 0.1)
    bare, low = _place(0.2), _place(END_SURE - 0.01)
    unlike = _place(EMPTY - 0.01, COARSE_EMPTY - 0.01)
    assert ROW_GAP == 3
    # The fans and the Doors: one place that looked like a card, one sure card after it.
    assert row_of([card, doubtful, card], bare_gaps=False) == ([card, doubtful, card], False)
    assert row_of([card, doubtful], bare_gaps=False) == ([card], False)
    assert row_of([card, doubtful, low, card], bare_gaps=False) == ([card], True)
    assert row_of([card, unlike, card, card], bare_gaps=False) == ([card], True)
    assert row_of([card, doubtful, doubtful, card, card], bare_gaps=False) == ([card], True)
    # The labyrinth.
    row, done = row_of([card, doubtful, card, bare, bare, bare, bare])
    assert row == [card, doubtful, card] and done and row[1].card is None
    assert row_of([card, card]) == ([card, card], False)
    for gap in range(1, ROW_GAP + 1):
        for fill in (bare, doubtful, unlike, low):
            places = [card, unlike, *[fill] * (gap - 1)]
            assert row_of([*places, card, low]) == ([*places, card, low], False), (gap, fill)
            assert row_of([*places, card]) == ([card], False)  # what follows: not yet read
            assert row_of([*places, card, bare, bare, bare, bare]) == ([card], True)
            assert row_of([*places, low, low, bare, bare, bare]) == ([card], True)
    assert row_of([card, unlike, *[bare] * ROW_GAP, card, card]) == ([card], True)
    assert row_of([card, *[bare] * ROW_GAP]) == ([card], False)
    assert row_of([card, *[bare] * (ROW_GAP + 1)]) == ([card], True)


def test_three_locations_of_one_colour_are_told_apart_by_their_symbol(rendered: Path) -> None:
    """Each Location corner of the taught deck, against its colour's three types only: the
    symbol look names it (every pair of the three compared), leading the nearest other."""
    reader = TableReader(load_library(rendered / "lib.npz"))
    ids = reader.lib.ids
    for colour in ("red", "blue", "green", "brown"):
        kin = [ids.index(f"{colour}-{s}") for s in ("sun", "moon", "key")]
        for k in kin:
            region = cv2.cvtColor(reader.lib.patches[k], cv2.COLOR_BGR2LAB).astype(np.float32)
            best, other, lead, _ = reader.by_symbol(region, kin)
            assert best == k and other in kin and other != k and lead > 0.3


def test_a_colour_is_named_only_after_it_led_another_colour(rendered: Path) -> None:
    """Each Location corner of the taught deck, a window about it: a colour's three types often
    lead the half-scale look together, and the card is named only once another colour has been
    compared with it at full scale (its `colour_lead` and `colour_look` are measured), so a
    corner a colour's three types lead on a weak score is not named that colour unchecked."""
    reader = TableReader(load_library(rendered / "lib.npz"))
    ids, m = reader.lib.ids, reader.search_px
    for colour in ("red", "blue", "green", "brown"):
        for symbol in ("sun", "moon", "key"):
            card = f"{colour}-{symbol}"
            window = cv2.copyMakeBorder(
                reader.lib.patches[ids.index(card)], m, m, m, m, cv2.BORDER_REPLICATE
            )
            found = reader.match([window], "location")[0]
            assert found.card == card
            assert found.colour_lead is not None and found.colour_lead >= MARGIN
            assert found.colour_look is not None and found.colour_look >= COLOUR_MARGIN


def test_read_takes_the_frames_markers(rendered: Path) -> None:
    """A frame's markers found by the live loop are used, not detected again: no markers
    given is no table; the markers given read as the reader's own detection does (the
    colour leads to a hundredth: the two detections' corners differ by a fraction of a
    pixel)."""
    reader = TableReader(load_library(rendered / "lib.npz"))
    image = cv2.imread(str(rendered / "0001.jpg"))
    assert reader.locate(image, {}) is None
    given, own = reader.read(image, detect_markers(image)), reader.read(image)
    assert replace(given, leads=()) == replace(own, leads=())
    assert [(z, k) for z, k, _ in given.leads] == [(z, k) for z, k, _ in own.leads]
    assert [lead for *_, lead in given.leads] == pytest.approx(
        [lead for *_, lead in own.leads], abs=0.01
    )


def test_locate_puts_the_markers_where_the_full_size_detection_sees_them(rendered: Path) -> None:
    """A picture alone is located from its corner markers found on a half-size copy (their
    corners refined on the full picture): the table's marker centres land within a pixel of
    the full-size detection's."""
    reader = TableReader(load_library(rendered / "lib.npz"))
    L = reader.layout
    w, h = L.size_mm
    centres_mm = np.array([[[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]]])
    for i in range(3):
        image = cv2.imread(str(rendered / f"{i:04d}.jpg"))
        H = reader.locate(image)
        assert H is not None
        found = detect_markers(image)
        seen = np.array([found[mid].center for mid in L.corner_ids])
        placed = cv2.perspectiveTransform(centres_mm, H)[0]
        assert np.abs(placed - seen).max() < 1.0


def test_read_cli_json_shape_and_no_markers(rendered: Path, tmp_path: Path, capsys) -> None:
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 128, np.uint8))
    capsys.readouterr()
    code = main(
        [
            "read",
            "onirim",
            str(rendered / "0000.jpg"),
            str(blank),
            "--json",
            "--library",
            str(rendered / "lib.npz"),
        ]
    )
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert code == 0 and len(lines) == 2
    assert set(lines[0]) == {"image", "labyrinth", "doors", "mirrors", "discard_top", "warnings"}
    assert lines[1]["labyrinth"] == [] and "markers are not seen" in lines[1]["warnings"][0]


def test_read_refuses_a_missing_image(rendered: Path, capsys) -> None:
    capsys.readouterr()
    assert main(["read", "onirim", "nope.jpg", "--library", str(rendered / "lib.npz")]) == 2
    err = capsys.readouterr().err
    assert "image not found" in err and "Traceback" not in err


def test_teach_names_an_unusable_photo_and_keeps_the_others(
    rendered: Path, tmp_path: Path, capsys
) -> None:
    folder = tmp_path / "teach"
    shutil.copytree(rendered / "teach", folder)
    cv2.imwrite(str(folder / "nightmare.jpg"), np.full((480, 640, 3), 90, np.uint8))
    capsys.readouterr()
    assert (
        main(["teach", "onirim", str(folder), "--library", str(tmp_path / "l.npz"), "--json"]) == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert "nightmare" in out["refused"] and "no card found" in out["refused"]["nightmare"]
    assert "nightmare" not in out["cards"] and "red-sun" in out["cards"]


def test_teach_asks_for_the_missing_photos(tmp_path: Path, capsys) -> None:
    assert main(["teach", "onirim", str(tmp_path)]) == 2
    assert "no photo for" in capsys.readouterr().err


def test_compare_counts_wrong_null_and_phantom() -> None:
    truth = TableReading(
        labyrinth=("red-sun", "blue-moon"),
        doors=("red",),
        mirrors=(MirrorSeen("sun", False, ("red-sun",)),),
        discard_top=None,
    )
    read = TableReading(
        labyrinth=("red-sun", None, "green-key"),
        doors=("blue",),
        mirrors=(MirrorSeen("sun", False, ("red-sun",)), MirrorSeen("moon", True)),
        discard_top="nightmare",
    )
    t = compare(read, truth)
    assert (t.cards, t.right, t.wrong, t.null) == (5, 3, 1, 1)
    assert t.phantom == 3  # green-key, the moon Mirror, the discard top


def test_compare_counts_the_doors_as_a_multiset() -> None:
    """A Door left out (not told apart) costs one null, not a wrong name for each Door after
    it; the order of the Doors in play means nothing."""
    truth = TableReading(doors=("brown", "red", "green", "red"))
    t = compare(TableReading(doors=("green", "brown", "red")), truth)
    assert (t.cards, t.right, t.wrong, t.null, t.phantom) == (4, 3, 0, 1, 0)
    t = compare(TableReading(doors=("blue", "red", "green", "red", "blue")), truth)
    assert (t.cards, t.right, t.wrong, t.null, t.phantom) == (4, 3, 1, 0, 1)


def test_a_mirror_side_its_lightness_contradicts_is_asked_by_read_and_kept_for_live() -> None:
    """A Mirror side named whose window is as light as the other side, with a small lead on
    the whole corner, is only a guess (a pale unexplored Mirror shows the explored side's
    pattern better): `read` asks it (`asked`, and `compare` counts it so), the reading keeps it
    for live play (its JSON), which settles a side with the game. A large lead, or a lightness
    that does not say the other side, is a reading."""
    side = Match("mirror-key-explored", 0.68, 0.2, "mirror-key-explored", "mirror-key")
    assert replace(side, light=SIDE_LIGHT).side_guessed
    assert not replace(side, light=SIDE_LIGHT + 0.1).side_guessed
    assert not replace(side, light=-1.0, margin=SIDE_MARGIN).side_guessed
    assert not side.side_guessed  # no lightness measured: not a Mirror place
    assert not replace(side, card=None, light=-1.0).side_guessed  # not named at all
    read = TableReading(
        mirrors=(MirrorSeen("sun", False), MirrorSeen("key", True)),
        warnings=("Mirror place 3: not sure which side",),
        guessed=("key",),
    )
    truth = TableReading(mirrors=(MirrorSeen("sun", False), MirrorSeen("key", False)))
    assert [m["mirror"] for m in read.to_json("x")["mirrors"]] == ["sun", "key"]
    assert [m.mirror for m in read.asked().mirrors] == ["sun"]
    assert read.asked().warnings == read.warnings
    t = compare(read, truth)
    assert (t.cards, t.right, t.wrong, t.null, t.phantom) == (2, 1, 0, 1, 0)
    t = compare(replace(read, guessed=()), truth)
    assert (t.cards, t.right, t.wrong, t.null, t.phantom) == (2, 1, 1, 0, 0)


def test_a_mirror_place_is_named_below_empty_as_the_discard_pile_is(
    rendered: Path, monkeypatch
) -> None:
    """A Mirror place shows a Mirror or the bare table, never a row's body: a Mirror scoring
    under `EMPTY` is named from `MIRROR_SURE` (its sides' lead clearing `MARGIN`). Here
    `EMPTY` is raised over every score: the Mirrors with nothing under them are read with the
    side they were read with before; with `MIRROR_SURE` raised too, they are left out."""
    assert HELD_SURE <= MIRROR_SURE < EMPTY
    reader = TableReader(load_library(rendered / "lib.npz"))
    images = [cv2.imread(str(rendered / f"{i:04d}.jpg")) for i in range(3)]
    wants = []
    for image in images:
        r = reader.read(image)
        wants.append(
            {(m.mirror, m.explored) for m in r.mirrors if not m.under and m.mirror not in r.guessed}
        )
    assert any(wants)
    monkeypatch.setattr(onirim_read, "EMPTY", 1.01)
    for image, want in zip(images, wants, strict=True):
        got = {(m.mirror, m.explored) for m in reader.read(image).mirrors}
        assert want <= got
    monkeypatch.setattr(onirim_read, "MIRROR_SURE", 1.01)
    for image, want in zip(images, wants, strict=True):
        got = {(m.mirror, m.explored) for m in reader.read(image).mirrors}
        assert not want & got


def test_a_mirror_whose_side_is_not_told_still_has_its_fan_read(rendered: Path) -> None:
    """Both sides of every Mirror taught from one photo (the two cannot be told apart): a
    Mirror with cards under it is still read, unexplored (explored Mirrors hold no cards),
    with its fan; one with nothing under it is left out, not guessed."""
    sure = TableReader(load_library(rendered / "lib.npz"))
    lib = load_library(rendered / "lib.npz")
    for k, cid in enumerate(lib.ids):
        if cid.startswith("mirror-") and cid.endswith("-explored"):
            j = lib.ids.index(cid.removesuffix("-explored"))
            lib.templates[k], lib.patches[k] = lib.templates[j], lib.patches[j]
    alike = TableReader(lib)
    fans = 0
    for i in range(3):
        image = cv2.imread(str(rendered / f"{i:04d}.jpg"))
        want = {m.mirror: m for m in sure.read(image).mirrors if m.under}
        got = alike.read(image)
        assert {m.mirror: m for m in got.mirrors} == want
        fans += len(want)
    assert fans > 0


def _asked_with_their_colours_kinds(
    reader: TableReader, images: list[np.ndarray], wants: list[TableReading]
) -> int:
    """How many Locations of the labyrinth and the Mirrors' fans that `wants` named `reader`
    now asks, each with its colour's three kinds (`maybe`); any other difference fails."""
    asked = 0
    for image, want in zip(images, wants, strict=True):
        got = reader.read(image)
        maybe = {(zone, k): kinds for zone, k, kinds in got.maybe}
        fans = {m.mirror: m.under for m in got.mirrors}
        rows = [("labyrinth", want.labyrinth, got.labyrinth)]
        rows += [(f"under-{m.mirror}", m.under, fans.get(m.mirror, ())) for m in want.mirrors]
        for zone, named, read in rows:
            assert len(read) == len(named)
            for k, card in enumerate(named):
                if read[k] == card:
                    continue
                assert card is not None and read[k] is None, (zone, k, card, read[k])
                colour = card.split("-")[0]
                assert maybe[zone, k] == tuple(f"{colour}-{s}" for s in ("key", "moon", "sun"))
                asked += 1
    return asked


def test_a_symbol_not_told_apart_is_null_with_its_colours_kinds(
    rendered: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No symbol lead is enough (`SYMBOL_MARGIN` above any): every Location the reader named
    by its symbol is left null, never guessed, and the reading says its colour's three
    Locations (`maybe`), which live play narrows with the hand; the rest read as before."""
    from companion.games.onirim.vision import read as read_module

    reader = TableReader(load_library(rendered / "lib.npz"))
    images = [cv2.imread(str(rendered / f"{i:04d}.jpg")) for i in range(3)]
    wants = [reader.read(image) for image in images]
    monkeypatch.setattr(read_module, "SYMBOL_MARGIN", 2.5)
    assert _asked_with_their_colours_kinds(reader, images, wants) > 0


def test_a_symbol_named_card_its_whole_corner_hardly_led_needs_a_larger_lead(
    rendered: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the whole corner counts every card as a tie (`SYMBOL_TIE` above any margin) and
    a tie needs more than any symbol lead (`SYMBOL_TIE_MARGIN`), every Location named by its
    symbol is asked with its colour's kinds, as for a lead under `SYMBOL_MARGIN`; with no
    margin a tie, the reading is as before."""
    from companion.games.onirim.vision import read as read_module

    reader = TableReader(load_library(rendered / "lib.npz"))
    images = [cv2.imread(str(rendered / f"{i:04d}.jpg")) for i in range(3)]
    wants = [reader.read(image) for image in images]
    assert symbol_margin(SYMBOL_TIE) == SYMBOL_MARGIN < SYMBOL_TIE_MARGIN == symbol_margin(0.0)
    monkeypatch.setattr(read_module, "SYMBOL_TIE_MARGIN", 2.5)
    monkeypatch.setattr(read_module, "SYMBOL_TIE", -1.0)
    assert [reader.read(image) for image in images] == wants
    monkeypatch.setattr(read_module, "SYMBOL_TIE", 10.0)
    assert _asked_with_their_colours_kinds(reader, images, wants) > 0


def test_a_doubted_symbol_the_chroma_contradicts_is_asked(
    rendered: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A card named by its symbol whose whole corner hardly led (`SYMBOL_CHROMA_BELOW`) is
    looked at in the chroma (`TableReader.chroma_lead`): a crop just like one type leads the
    other there, and a card the chroma does not back by `SYMBOL_CHROMA_LEAD` is asked with its
    colour's kinds; with no margin in doubt, the reading is as before."""
    from companion.games.onirim.vision import read as read_module

    reader = TableReader(load_library(rendered / "lib.npz"))
    ids = reader.lib.ids
    assert SYMBOL_CHROMA_LEAD < 0 < SYMBOL_CHROMA_BELOW
    monkeypatch.setattr(read_module, "SYMBOL_CHROMA_REACH", 0.0)  # every chroma channel
    ia, ib = ids.index("red-sun"), ids.index("red-moon")
    r = 1  # the window as the full-scale look crops it (`FINE_REACH`)
    lab = reader.lib.templates[ia]
    region = cv2.copyMakeBorder(lab, r, r, r, r, cv2.BORDER_REPLICATE)
    lead = reader.chroma_lead(region, ia, ib)
    assert lead is not None and lead > 0.5
    back = reader.chroma_lead(region, ib, ia)
    assert back is not None and back < -0.5
    images = [cv2.imread(str(rendered / f"{i:04d}.jpg")) for i in range(3)]
    wants = [reader.read(image) for image in images]
    monkeypatch.setattr(read_module, "SYMBOL_CHROMA_LEAD", 2.5)
    monkeypatch.setattr(read_module, "SYMBOL_CHROMA_BELOW", -1.0)
    assert [reader.read(image) for image in images] == wants
    monkeypatch.setattr(read_module, "SYMBOL_CHROMA_BELOW", 10.0)
    assert _asked_with_their_colours_kinds(reader, images, wants) > 0


def test_a_symbol_a_few_pixels_off_the_corner_keeps_its_lead(rendered: Path) -> None:
    """A card whose symbol lies a few pixels off where the rest of its corner lines up (each
    type's teach photo cut a pixel or two apart) is named by its own symbol, and the wider
    symbol look (`SYMBOL_CHECK_REACH`) keeps it named: the lead it keeps there is recorded
    and reaches `SYMBOL_KEEP`, so the check asks only where the lead does not hold."""
    reader = TableReader(load_library(rendered / "lib.npz"))
    ids, m = reader.lib.ids, reader.search_px
    kept = []
    for colour in ("red", "blue", "green", "brown"):
        for a, b in (("sun", "moon"), ("moon", "key"), ("key", "sun")):
            ia, ib = ids.index(f"{colour}-{a}"), ids.index(f"{colour}-{b}")
            pair = reader.symbol_pairs[min(ia, ib), max(ia, ib)]
            ys, xs = np.nonzero(pair.mask)
            y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
            window = cv2.copyMakeBorder(reader.lib.patches[ia], m, m, m, m, cv2.BORDER_REPLICATE)
            # b's symbol, two pixels right of where a's lay, over a's corner
            window[m + y0 : m + y1, m + x0 + 2 : m + x1 + 2] = reader.lib.patches[ib][y0:y1, x0:x1]
            found = reader.match([window], "location")[0]
            assert found.card in (None, f"{colour}-{b}")
            if found.card is not None:
                assert found.symbol_kept is not None and found.symbol_kept >= SYMBOL_KEEP
                kept.append(found.card)
    assert len(kept) >= 8


def test_a_type_named_by_its_symbol_must_be_a_card_on_its_whole_corner(rendered: Path) -> None:
    """One symbol of a colour pasted over another's corner: the symbol look may name the pasted
    symbol's type while the whole corner puts the corner's own type first. The type named must
    reach `SURE` on its own whole-corner score, as any type named must; the first finalist's
    score says the colour, not that type. Below it the card is asked with its colour's kinds."""
    reader = TableReader(load_library(rendered / "lib.npz"))
    ids, m = reader.lib.ids, reader.search_px
    asked = 0
    for colour in ("red", "blue", "green", "brown"):
        for a in ("sun", "moon", "key"):
            for b in ("sun", "moon", "key"):
                if a == b:
                    continue
                ia, ib = ids.index(f"{colour}-{a}"), ids.index(f"{colour}-{b}")
                pair = reader.symbol_pairs[min(ia, ib), max(ia, ib)]
                ys, xs = np.nonzero(pair.mask)
                y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
                window = cv2.copyMakeBorder(
                    reader.lib.patches[ia], m, m, m, m, cv2.BORDER_REPLICATE
                )
                window[m + y0 : m + y1, m + x0 : m + x1] = reader.lib.patches[ib][y0:y1, x0:x1]
                found = reader.match([window], "location")[0]
                if found.card is not None:
                    assert found.score >= SURE, (colour, a, b, found)
                first = found.score + found.overruled  # the whole corner's first finalist
                if found.card is None and found.symbol is not None and found.score < SURE <= first:
                    assert found.kin == reader.colour_kinds[colour]
                    asked += 1
    assert asked > 0


def test_a_symbol_a_blurred_picture_wiped_out_is_asked(
    rendered: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The picture's blur is found from how well the taught corner, blurred, fits the crop,
    and a card named by its symbol is asked when its pairs' reach at that blur
    (`sharp_reach`: how far the two symbols can differ at all there) is below `SYMBOL_SHARP`:
    a thin symbol wiped out leaves a disc as like one symbol as the other. With the bar set
    between a card's sharp and blurred reach, the sharp card is named and the blurred one
    asked with its colour's kinds."""
    from companion.games.onirim.vision import read as read_module

    reader = TableReader(load_library(rendered / "lib.npz"))
    ids, m = reader.lib.ids, reader.search_px
    sun, moon = ids.index("red-sun"), ids.index("red-moon")
    reach = reader.symbol_pairs[min(sun, moon), max(sun, moon)].reach
    assert reader.sharp_reach(sun, moon, 0.0) == pytest.approx(reach)
    assert reader.sharp_reach(sun, moon, BLUR_STEPS[-1]) < reach
    bar = 0.5
    monkeypatch.setattr(read_module, "SYMBOL_SHARP", bar)
    asked = 0
    for colour in ("red", "blue", "green", "brown"):
        for symbol in ("sun", "moon", "key"):
            card = f"{colour}-{symbol}"
            window = cv2.copyMakeBorder(
                reader.lib.patches[ids.index(card)], m, m, m, m, cv2.BORDER_REPLICATE
            )
            blurred = cv2.GaussianBlur(window, (0, 0), 2.0)
            lab = cv2.cvtColor(blurred, cv2.COLOR_BGR2LAB).astype(np.float32)
            region = cv2.GaussianBlur(lab, (3, 3), 0.7)[..., 0]
            assert 1.6 <= reader.blur_of(region, ids.index(card)) <= 2.5
            sharp, dull = reader.match([window, blurred], "location")
            assert sharp.card in (None, card) and dull.card in (None, card)
            if sharp.symbol_sharp is None or dull.symbol_sharp is None:
                continue  # not named by its symbol
            if sharp.symbol_sharp >= bar > dull.symbol_sharp:
                assert sharp.card == card
                assert dull.card is None and dull.kin == reader.colour_kinds[colour]
                asked += 1
    assert asked > 0


def test_a_mirror_sides_lightness_lead_says_which_side_the_window_is_as_light_as(
    rendered: Path,
) -> None:
    """The descriptor is blind to a patch's mean lightness, and a Mirror card's two sides
    differ most there: `Match.light` measures it. The taught side as it is leads in
    lightness; one side printed pale (its lightness moved to the other side's taught mean,
    its pattern kept at half the contrast: light ink on a light face) still looks like that
    side to the whole corner, but its lightness lead is negative: as light as the other."""
    reader = TableReader(load_library(rendered / "lib.npz"))
    ids, m = reader.lib.ids, reader.search_px
    pale_seen = 0
    for mid in ENGINE.deck.mirrors:
        sides = (f"mirror-{mid}", f"mirror-{mid}-explored")
        if not all(s in ids for s in sides):
            continue
        for side, other in (sides, sides[::-1]):
            window = cv2.copyMakeBorder(
                reader.lib.patches[ids.index(side)], m, m, m, m, cv2.BORDER_REPLICATE
            )
            plain = reader.match([window], f"mirror-{mid}")[0]
            assert plain.card in (None, side)
            assert plain.light is not None and plain.light > 0.5
            lab = cv2.cvtColor(window, cv2.COLOR_BGR2LAB).astype(np.float32)
            lightness = lab[..., 0]
            lab[..., 0] = reader.lightness[ids.index(other)] + 0.5 * (lightness - lightness.mean())
            pale = cv2.cvtColor(np.clip(lab, 0, 255).astype(np.uint8), cv2.COLOR_LAB2BGR)
            found = reader.match([pale], f"mirror-{mid}")[0]
            if found.best == side:
                assert found.light is not None and found.light < -0.5
                pale_seen += 1
    assert pale_seen > 0


def _washed_corners(reader: TableReader, card: str, seeds: tuple[int, int]):
    """A card's corner blended toward a noisy texture in steps of 2 %, with the bare texture
    last: the places that score between a sure card and an empty place on the way."""
    m = reader.search_px
    shape = (reader.lib.patches.shape[1] + 2 * m, reader.lib.patches.shape[2] + 2 * m, 3)
    texture = np.random.default_rng(seeds[0]).uniform(60, 200, (1, 1, 3)) + np.random.default_rng(
        seeds[1]
    ).normal(0, 40, shape)
    corner = cv2.copyMakeBorder(
        reader.lib.patches[reader.lib.ids.index(card)], m, m, m, m, cv2.BORDER_REPLICATE
    ).astype(np.float64)
    windows = [
        np.clip((1 - share) * corner + share * texture, 0, 255).astype(np.uint8)
        for share in np.arange(0.0, 1.0, 0.02)
    ]
    return windows, np.clip(texture, 0, 255).astype(np.uint8)


def test_the_discard_piles_top_is_named_below_empty_where_a_row_would_end(
    rendered: Path,
) -> None:
    """A Nightmare's corner washed out by a texture until it scores between `DISCARD_SURE` and
    `EMPTY`: on the discard pile (where only the bare table shows when it is empty, never a
    card's body) it is named, with its lead over every other type; the same washed corner
    of a Location in a row is an empty place there. A bare place is named nowhere."""
    reader = TableReader(load_library(rendered / "lib.npz"))
    assert DISCARD_SURE < EMPTY
    banded = {}
    for card in ("nightmare", "red-sun", "blue-key"):
        windows, bare = _washed_corners(reader, card, (3, 4))
        for window in windows:
            (on_pile,) = reader.match([window], "discard")
            if DISCARD_SURE <= on_pile.score < EMPTY and on_pile.margin >= MARGIN:
                banded[card] = window
                assert on_pile.card == card and on_pile.empty
                if card != "nightmare":
                    (in_row,) = reader.match([window], "location")
                    assert in_row.card is None and in_row.empty
                break
    assert "nightmare" in banded and len(banded) >= 2
    assert reader.match([bare], "discard")[0].card is None


def test_a_discard_top_its_whole_corner_hardly_told_from_its_colours_other_kind(
    rendered: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The discard pile's top whose whole corner leads the other Location of its colour by less
    than `DISCARD_SYMBOL_BELOW` is decided by the symbol look, and named only when the symbol
    names the whole corner's first type (a card under the top may show a corner there): a
    clean Location corner the whole corner alone names is named the same by its symbol; one
    whose symbol look names another of its colour is asked on the pile, where a labyrinth
    place follows the symbol."""
    from companion.games.onirim.vision import read as read_module

    reader = TableReader(load_library(rendered / "lib.npz"))
    assert DISCARD_SYMBOL_BELOW == MARGIN
    m = reader.search_px
    ids = reader.lib.ids
    cards = [c for c in ids if is_location(c) and not c.startswith("mirror-")]
    windows = [
        cv2.copyMakeBorder(reader.lib.patches[ids.index(c)], m, m, m, m, cv2.BORDER_REPLICATE)
        for c in cards
    ]
    monkeypatch.setattr(read_module, "DISCARD_SYMBOL_BELOW", 0.0)
    whole = reader.match(windows, "discard")
    assert all(t.symbol is None for t in whole)
    monkeypatch.setattr(read_module, "DISCARD_SYMBOL_BELOW", 10.0)
    by_symbol = reader.match(windows, "discard")
    decided = [
        (card, w, s)
        for card, w, s in zip(cards, whole, by_symbol, strict=True)
        if s.symbol is not None
    ]
    assert len(decided) >= len(cards) // 2
    for card, w, s in decided:
        assert s.best == card and s.card in (None, card)
        assert w.card is None or s.card == card
    named = [card for card, _, s in decided if s.card == card]
    assert named
    # The symbol look turned round: it names the other kind of the corner's colour.
    real = reader.by_symbol

    def turned(region: np.ndarray, kin: list[int]) -> tuple[int, int, float, float]:
        best, other, lead, fit = real(region, kin)
        return other, best, lead, fit

    monkeypatch.setattr(reader, "by_symbol", turned)
    monkeypatch.setattr(reader, "_symbol_kept", lambda *_: (1.0, 1.0))  # every check holds
    overruled = 0
    for card, window in zip(cards, windows, strict=True):
        if card not in named:
            continue
        (on_pile,) = reader.match([window], "discard")
        assert on_pile.card is None and on_pile.best != card
        (in_row,) = reader.match([window], "location")
        assert in_row.best != card and in_row.card in (None, in_row.best)
        overruled += in_row.card is not None
    assert overruled > 0


def test_a_gap_sure_cards_bridge_is_named_below_empty(rendered: Path) -> None:
    """A Location's corner washed out by a texture until it scores between `HELD_SURE` and
    `EMPTY`: alone it is an empty place (it could be a row's last card's body), but between
    sure cards of a row (a row has no gaps) it is named from `HELD_SURE`, with its lead as
    any card's (`Match.held_card`); a place that is no card is named nowhere. The symbol check
    of a type the symbol look decides is left until a row bridges the place (`Match.hold`):
    most such places lie past a row's end."""
    reader = TableReader(load_library(rendered / "lib.npz"))
    assert HELD_SURE < EMPTY
    sure = Match("blue-sun", 0.9, 0.3, "blue-sun", "blue-moon", 0.9)
    held = left = 0
    for card in ("red-sun", "blue-key", "green-moon", "brown-sun"):
        windows, bare = _washed_corners(reader, card, (5, 6))
        for window in windows:
            (place,) = reader.match([window], "location")
            if place.empty and place.held_card() is not None:
                assert place.card is None and place.score >= HELD_SURE
                if place.symbol is not None:  # told from its kin by the symbol look
                    assert place.held is None and place.symbol_kept is None  # not yet made
                    left += 1
                assert place.held_card() == card, (card, place)
                row, done = row_of([sure, place, sure])
                assert [r.card for r in row] == ["blue-sun", card, "blue-sun"] and not done
                assert row_of([sure, place]) == ([sure], False)  # no card after: not yet
                held += 1
                break
    assert held >= 2 and left >= 1
    assert reader.match([bare], "location")[0].held_card() is None


def test_a_rows_last_card_named_by_a_symbol_that_hardly_shows_ends_the_row() -> None:
    """The place after a row's last card shows that card's body; on a design whose corner is
    mostly its colour's field it scores as a card of that colour, and the symbol look over the
    plain body names a type by noise. A last card whose type rests on a symbol showing less
    than `END_SYMBOL_FIT` is dropped; the same card between two cards is kept (a row has no
    gaps), and a card named without the symbol look is not asked for it."""
    card = _place(0.9)
    body = replace(card, symbol=SYMBOL_MARGIN + 0.01, symbol_fit=END_SYMBOL_FIT - 0.01)
    shown = replace(body, symbol_fit=END_SYMBOL_FIT + 0.01)
    assert ended([card, body]) == [card]
    assert ended([card, body, card]) == [card, body, card]
    assert ended([card, shown]) == [card, shown]
    assert ended([card, card]) == [card, card]


def test_teach_keeps_each_cards_whole_face(rendered: Path) -> None:
    """The place after a row's last card shows that card's body, which the reader cuts from
    the card's taught whole face: teach keeps one face a type, upright, card-shaped."""
    lib = load_library(rendered / "lib.npz")
    assert lib.faces is not None and len(lib.faces) == len(lib.ids)
    h, w = lib.faces.shape[1:3]
    assert abs(h / w - lib.shape.height_mm / 63.0) < 0.02
    # Upright: the identifying corner is the face's top-left, as the stored patch is.
    x0, y0, x1, y1 = load_layout().identify_mm
    k = w / 63.0
    for face, patch in zip(lib.faces, lib.patches, strict=True):
        cut = cv2.resize(
            face[round(y0 * k) : round(y1 * k), round(x0 * k) : round(x1 * k)],
            patch.shape[1::-1],
            interpolation=cv2.INTER_AREA,
        )
        a, b = descriptor(cut).ravel(), descriptor(patch).ravel()
        assert a @ b / np.linalg.norm(a) / np.linalg.norm(b) > 0.8


def test_a_place_after_a_rows_card_is_a_card_when_it_is_not_that_cards_body(
    rendered: Path,
) -> None:
    """On rendered tables, at each row's last card the window looks much less like the body
    of the card before it than like a corner (`body_score`), and the place after the row's end
    looks like the last card's body: a place scoring between `BODY_FLOOR` and `END_SURE` is a
    card there (`unbodied`, `Match.shown`: neither empty nor ended) and past the row's end it
    is left as it was (the body). A row's first place has no card before it."""
    reader = TableReader(load_library(rendered / "lib.npz"))
    L = reader.layout
    low = BODY_FLOOR + 0.01
    assert BODY_FLOOR <= low < EMPTY
    checked = shown = 0
    for j in range(3):
        image = cv2.imread(str(rendered / f"{j:04d}.jpg"))
        truth = json.loads((rendered / f"{j:04d}.json").read_text())
        H = reader.locate(image)
        assert H is not None
        rows = [(list(L.labyrinth_places), truth["labyrinth"])]
        order = list(ENGINE.deck.mirrors)
        for m in truth["mirrors"]:
            if not m["explored"] and m["under"]:
                i = order.index(m["mirror"])
                places = [L.mirror_places[i], *(L.under_place(i, k) for k in range(L.fan_max))]
                rows.append((places, [f"mirror-{m['mirror']}", *m["under"]]))
        for places, cards in rows:
            n = len(cards)
            if n < 2 or n >= len(places):
                continue
            last, after = places[n - 1], places[n]
            assert reader.covers(places[n - 2], last) and reader.covers(last, after)
            on_last = reader.body_score(image, H, last, places[n - 2], cards[n - 2])
            past = reader.body_score(image, H, after, last, cards[n - 1])
            assert on_last is not None and past is not None
            (corner,) = reader.match([reader.corner_window(image, H, last)], "location")
            assert corner.best == cards[n - 1] and past >= 0.8 and on_last < past
            # Both places as if they scored just over `BODY_FLOOR`: the card is kept where it
            # leads the body before it, the body past the row's end never.
            before = Match(cards[n - 2], 0.9, 0.3, cards[n - 2], None, 0.9)
            dim = replace(corner, card=None, score=low, held=cards[n - 1])
            kept = reader.unbodied(image, H, dim, last, before, places[n - 2])
            if low - on_last >= BODY_MARGIN:
                assert kept.shown and kept.card == cards[n - 1] and not kept.empty
                assert ended([before, kept]) == [before, kept]
                shown += 1
            else:
                assert kept == dim and ended([before, kept]) == [before]
            prev = Match(cards[n - 1], 0.9, 0.3, cards[n - 1], None, 0.9)
            assert reader.unbodied(image, H, dim, after, prev, last) == dim
            checked += 1
    assert checked >= 2 and shown >= 1
    assert not reader.covers(L.labyrinth_places[20], L.labyrinth_places[21])
    assert (
        reader.body_score(image, H, L.labyrinth_places[21], L.labyrinth_places[20], "red-sun")
        == -1.0
    )


def test_a_fans_last_card_that_does_not_lead_the_body_before_it_ends_the_fan(
    rendered: Path,
) -> None:
    """A fan's first place where no card lies shows its Mirror card's body, which a design's
    art can make score as a corner over `END_SURE`: a row's last card scoring that much must
    still lead the body of the card before it (the Mirror above a fan's first place) by
    `END_BODY_LEAD` (`end_bodies`), or the row ends before it. On rendered tables the fan's
    real last cards lead it and are kept; an empty fan's first place as if it scored just
    under the Mirror's body there is dropped, just over it kept."""
    reader = TableReader(load_library(rendered / "lib.npz"))
    L = reader.layout
    order = list(ENGINE.deck.mirrors)
    kept = dropped = 0
    for j in range(3):
        image = cv2.imread(str(rendered / f"{j:04d}.jpg"))
        truth = json.loads((rendered / f"{j:04d}.json").read_text())
        H = reader.locate(image)
        assert H is not None
        for m in truth["mirrors"]:
            if m["explored"]:
                continue
            i = order.index(m["mirror"])
            side = f"mirror-{m['mirror']}"
            mirror = Match(side, 0.9, 0.3, side, None, 0.9)
            first = (mirror, L.mirror_places[i])
            place = partial(L.under_place, i)
            n = len(m["under"])
            if n:  # its real cards, as read: kept whole
                windows = [reader.corner_window(image, H, place(k)) for k in range(n)]
                row = reader.match(windows, "location")
                if [c.card for c in row] == m["under"] and ended(list(row)) == row:
                    assert reader.end_bodies(image, H, list(row), place, first) == row
                    kept += 1
                continue
            body = reader.body_score(image, H, place(0), L.mirror_places[i], side)
            assert body is not None
            if body + END_BODY_LEAD - 0.01 < END_SURE:  # `ended` drops it alone
                continue
            phantom = Match("red-sun", body + END_BODY_LEAD - 0.01, 0.3, "red-sun", None, 0.9)
            assert ended([phantom]) == [phantom]
            assert reader.end_bodies(image, H, [phantom], place, first) == []
            card = replace(phantom, score=max(END_SURE, body + END_BODY_LEAD + 0.01))
            assert reader.end_bodies(image, H, [card], place, first) == [card]
            # With no Mirror card seen above it, nothing is compared: the card is kept.
            bare = (replace(mirror, card=None, score=0.1), L.mirror_places[i])
            assert reader.end_bodies(image, H, [card], place, bare) == [card]
            dropped += 1
    assert kept >= 1 and dropped >= 1


def test_a_fans_last_cards_that_do_not_lead_their_mirrors_body_end_the_fan(
    rendered: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Mirror card lies under every place of its fan: a fan's last cards scoring less than
    that Mirror's own body at their place (its unexplored side) plus `MIRROR_BODY_LEAD` are
    dropped one after the other (`end_bodies`), however far over `END_SURE` and whatever the
    card before them; a last card leading it keeps the cards before it, and nothing is dropped
    with no Mirror given or the rule off (-inf). On rendered tables the fans' real cards, as
    read, are kept at the reader's own lead."""
    reader = TableReader(load_library(rendered / "lib.npz"))
    L = reader.layout
    order = list(ENGINE.deck.mirrors)
    kept = dropped = 0
    for j in range(3):
        image = cv2.imread(str(rendered / f"{j:04d}.jpg"))
        truth = json.loads((rendered / f"{j:04d}.json").read_text())
        H = reader.locate(image)
        assert H is not None
        for m in truth["mirrors"]:
            if m["explored"]:
                continue
            i = order.index(m["mirror"])
            mirror = (f"mirror-{m['mirror']}", L.mirror_places[i])
            place = partial(L.under_place, i)
            n = len(m["under"])
            if n:  # its real cards, as read: kept whole
                windows = [reader.corner_window(image, H, place(k)) for k in range(n)]
                row = reader.match(windows, "location")
                if [c.card for c in row] == m["under"] and ended(list(row)) == row:
                    got = reader.end_bodies(image, H, list(row), place, mirror=mirror)
                    assert got == row
                    kept += 1
                continue
            bodies = [reader.body_score(image, H, place(k), *mirror[::-1]) for k in range(3)]
            assert all(b is not None for b in bodies)
            lead = END_SURE + 0.1 - min(b for b in bodies if b is not None)
            monkeypatch.setattr(onirim_read, "MIRROR_BODY_LEAD", lead)

            def card(k: int, by: float, bodies: list[float | None] = bodies) -> Match:
                # `best` no taught type: no card's body before it is looked at.
                b = bodies[k]
                assert b is not None
                return Match(
                    "red-sun", b + onirim_read.MIRROR_BODY_LEAD + by, 0.3, "no-such-card", None, 0.9
                )

            row = [card(0, 0.01), card(1, -0.01), card(2, -0.01)]
            assert ended(list(row)) == row
            assert reader.end_bodies(image, H, list(row), place, mirror=mirror) == row[:1]
            assert reader.end_bodies(image, H, list(row), place) == row
            under = [card(0, -0.01), card(1, 0.01)]
            assert reader.end_bodies(image, H, list(under), place, mirror=mirror) == under
            monkeypatch.setattr(onirim_read, "MIRROR_BODY_LEAD", -np.inf)
            assert reader.end_bodies(image, H, list(row), place, mirror=mirror) == row
            monkeypatch.setattr(onirim_read, "MIRROR_BODY_LEAD", MIRROR_BODY_LEAD)
            dropped += 1
    assert kept >= 1 and dropped >= 1


def test_the_bare_table_is_looked_at_clear_of_every_card_and_scores_under_the_cards(
    rendered: Path,
) -> None:
    """The bare table's windows (`bare_places`) lie below every card the layout places (and
    off the corner markers); on rendered tables the table's own score (`table_score`) lies
    under `END_SURE` and under every labyrinth card's corner score."""
    reader = TableReader(load_library(rendered / "lib.npz"))
    L = reader.layout
    places = reader.bare_places()
    assert len(places) >= 3
    x0, y0, x1, y1 = L.identify_mm
    m, side = L.search_mm, L.marker_side_mm
    lowest = max(p[1] for p in [*L.door_places, L.discard_place, *L.limbo_places])
    for x, y in places:
        assert y + y0 - m > lowest + L.card_mm[1] and y + y1 + m < L.size_mm[1]
        assert x + x0 - m >= side / 2 and x + x1 + m <= L.size_mm[0] - side / 2
    for j in range(3):
        image = cv2.imread(str(rendered / f"{j:04d}.jpg"))
        truth = json.loads((rendered / f"{j:04d}.json").read_text())
        H = reader.locate(image)
        assert H is not None
        table = reader.table_score(image, H)
        assert table is not None and table < END_SURE
        n = len(truth["labyrinth"])
        windows = [reader.corner_window(image, H, p) for p in L.labyrinth_places[:n]]
        for card in reader.match(windows, "location"):
            assert card.score > table + 0.2


def test_a_rows_last_cards_that_do_not_lead_the_table_end_the_row(
    rendered: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With `TABLE_LEAD` on, a row's last cards scoring less than the bare table's score plus
    `TABLE_LEAD` are dropped one after the other (`end_bodies`), however far over
    `END_SURE`; a card leading it by more stays, and so does every card with no table score
    (the rule off) or `TABLE_LEAD` at -inf."""
    reader = TableReader(load_library(rendered / "lib.npz"))
    L = reader.layout
    image = cv2.imread(str(rendered / "0000.jpg"))
    H = reader.locate(image)
    assert H is not None
    place = L.labyrinth_places.__getitem__
    table = END_SURE + 0.1
    # `best` no taught type: no body is looked at, only the table decides.
    card = Match("red-sun", table + 0.3, 0.3, "no-such-card", None, 0.9)
    like = [replace(card, score=table + 0.05), replace(card, score=table + 0.02)]
    monkeypatch.setattr(onirim_read, "TABLE_LEAD", -np.inf)
    assert reader.end_bodies(image, H, [card, *like], place, table=table) == [card, *like]
    monkeypatch.setattr(onirim_read, "TABLE_LEAD", 0.1)
    assert reader.end_bodies(image, H, [card, *like], place, table=table) == [card]
    assert reader.end_bodies(image, H, [card, *like], place) == [card, *like]
    monkeypatch.setattr(onirim_read, "TABLE_LEAD", 0.01)
    assert reader.end_bodies(image, H, [card, *like], place, table=table) == [card, *like]


def test_a_named_locations_colour_lead_is_carried_for_live_play(rendered: Path) -> None:
    """Live play asks a card named by a small colour lead when the hand holds its colour
    twin; the reading carries each lead at the place of a card it named, a Location, and the
    `read` JSON leaves them out."""
    reader = TableReader(load_library(rendered / "lib.npz"))
    carried = 0
    for i in range(3):
        reading = reader.read(cv2.imread(str(rendered / f"{i:04d}.jpg")))
        places: dict[tuple[str, int], str | None] = {
            ("labyrinth", j): c for j, c in enumerate(reading.labyrinth)
        }
        for m in reading.mirrors:
            places |= {(f"under-{m.mirror}", j): c for j, c in enumerate(m.under)}
        places[("discard", 0)] = reading.discard_top
        for zone, k, lead in reading.leads:
            card = places[(zone, k)]
            assert card is not None and is_location(card), (zone, k, card)
            assert lead >= 0.0
        carried += len(reading.leads)
        assert "leads" not in reading.to_json("x")
    assert carried > 0


def test_a_deck_of_fine_print_keeps_less_of_itself_blurred() -> None:
    """`deck_level`: a corner of fine print (stripes a few pixels apart) loses more of itself
    under `LEVEL_SIGMA`'s blur than the same corner in bold shapes."""
    from companion.games.onirim.vision.read import deck_level

    y, x = np.mgrid[0:30, 0:48]
    bold, fine = [], []
    for k in range(4):
        base = np.full((30, 48, 3), 200, np.uint8)
        cv2.circle(base, (14 + 6 * k, 15), 8, (40, 60, 160), -1)
        bold.append(base)
        striped = base.copy()
        striped[((x + y + k) // 2) % 2 == 0] = (90, 90, 90)
        cv2.circle(striped, (14 + 6 * k, 15), 8, (40, 60, 160), 1)
        fine.append(striped)

    def level(patches: list[np.ndarray]) -> float:
        stack = np.stack(patches)
        return deck_level(stack, unit_planes(np.stack([descriptor(p) for p in patches])))

    assert level(fine) < level(bold) - 0.05


def test_a_decks_lift_lowers_its_bars_but_not_the_mirrors(rendered: Path, monkeypatch) -> None:
    """A deck whose `deck_level` lies under `LEVEL_REF` has every score of a place but a
    Mirror's lifted by `TableReader.lift`: a washed Location corner that scored just under
    `EMPTY` (an empty place) is named, its lead unchanged; a Mirror place scores as before."""
    from companion.games.onirim.vision import read as read_module

    lib = load_library(rendered / "lib.npz")
    base = TableReader(lib)
    assert base.lift == 0.0  # this deck reads as before
    monkeypatch.setattr(read_module, "LEVEL_REF", base.level + 0.5)
    monkeypatch.setattr(read_module, "LIFT_GAIN", 1.0)
    lifted = TableReader(lib)
    assert lifted.lift == pytest.approx(read_module.LIFT_MAX)
    named = 0
    for card in ("red-sun", "blue-moon", "green-key"):
        windows, bare = _washed_corners(base, card, (5, 6))
        for window in windows:
            (was,) = base.match([window], "location")
            (now,) = lifted.match([window], "location")
            if was.coarse >= COARSE_EMPTY:  # both looked at it closely
                assert now.score == pytest.approx(was.score + lifted.lift, abs=1e-4)
                assert now.margin == pytest.approx(was.margin, abs=1e-4)
            if EMPTY - lifted.lift + 0.01 <= was.score < EMPTY and was.best == card:
                assert was.empty and was.card is None
                assert not now.empty
                named += now.card == card
        assert lifted.match([bare], "location")[0].card is None
    assert named >= 1
    mirror = cv2.copyMakeBorder(
        lib.patches[lib.ids.index("mirror-sun")], *(4 * [base.search_px]), cv2.BORDER_REPLICATE
    )
    (was,) = base.match([mirror], "mirror-sun")
    (now,) = lifted.match([mirror], "mirror-sun")
    assert now.score == pytest.approx(was.score, abs=1e-6)


def test_a_decks_lift_lowers_the_discard_piles_bar_by_discard_lift_max_at_most(
    rendered: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a lifted deck the discard pile's top is named from `DISCARD_SURE` less
    min(lift, `DISCARD_LIFT_MAX`) of its unlifted score: a washed Nightmare corner scoring
    just under `DISCARD_SURE` unlifted is named when the cap lets the whole lift through,
    and not when the cap is 0; a corner over `DISCARD_SURE` unlifted is named either way."""
    from companion.games.onirim.vision import read as read_module

    lib = load_library(rendered / "lib.npz")
    base = TableReader(lib)
    monkeypatch.setattr(read_module, "LEVEL_REF", base.level + 0.5)
    monkeypatch.setattr(read_module, "LIFT_GAIN", 1.0)
    lifted = TableReader(lib)
    assert lifted.lift == pytest.approx(read_module.LIFT_MAX) and lifted.lift > 0.05
    under = over = 0
    windows, bare = _washed_corners(base, "nightmare", (3, 4))
    for window in windows:
        (was,) = base.match([window], "discard")
        if was.best != "nightmare" or was.margin < MARGIN or was.coarse < COARSE_EMPTY:
            continue
        named = {}
        for cap in (0.0, read_module.LIFT_MAX):
            monkeypatch.setattr(read_module, "DISCARD_LIFT_MAX", cap)
            named[cap] = lifted.match([window], "discard")[0].card
        if DISCARD_SURE - lifted.lift + 0.01 <= was.score < DISCARD_SURE - 0.01:
            assert named[0.0] is None and named[read_module.LIFT_MAX] == "nightmare"
            under += 1
        elif was.score >= DISCARD_SURE + 0.01:
            assert named[0.0] == named[read_module.LIFT_MAX] == "nightmare"
            over += 1
    assert under >= 1 and over >= 1
    for cap in (0.0, read_module.LIFT_MAX):
        monkeypatch.setattr(read_module, "DISCARD_LIFT_MAX", cap)
        assert lifted.match([bare], "discard")[0].card is None


def test_windows_of_and_weighted_colour_scores_are_numpys_and_colour_scores_own_numbers():
    """The read's cheaper paths give the very numbers of the ones they stand for: `windows_of`
    numpy's `sliding_window_view`, `weighted_colour_scores` (templates `joint_weighted` once)
    `colour_scores`, bit for bit (a read's answers must not move)."""
    from numpy.lib.stride_tricks import sliding_window_view

    from companion.vision.cards.library import PATCH_H, PATCH_W

    rng = np.random.default_rng(SEED)
    batch = (rng.random((4, PATCH_H + 2, PATCH_W + 3, 3)) * 200).astype(np.float32)
    got = windows_of(batch, PATCH_H, PATCH_W, axis=1)
    assert got.shape == (4, 3, 4, 3, PATCH_H, PATCH_W)
    assert np.array_equal(got, sliding_window_view(batch, (PATCH_H, PATCH_W), axis=(1, 2)))
    assert np.array_equal(
        windows_of(batch[1], PATCH_H, PATCH_W),
        sliding_window_view(batch[1], (PATCH_H, PATCH_W), axis=(0, 1)),
    )
    templates = [joint_unit(b[1:-1, 1:-2]) for b in batch[:3]]
    want = colour_scores(batch[0], *templates)
    assert want[0] > 0.99 > max(want[1:])  # the first is the region's own centre
    weighted = np.stack([joint_weighted(t) for t in templates], axis=1)
    assert weighted_colour_scores(batch[0], weighted) == want
