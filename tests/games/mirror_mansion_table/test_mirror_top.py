"""A mirror's facing read from its own top (issue 37): a thick top standing behind its slot's
line carries its dot onto the line or behind it, and the side of the top the dot lies on still
names the facing; where the line and the top disagree, the players are asked, and where the
face toward the camera may have been taken for the top (or with it), a top that puts the dot
on its far half names the facing only when the line does too. These tests pin
`perceive.TOP_NEAR_MM` at 3 mm, the value its development curve chose."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from companion.games.mirror_mansion.rules.board import SLOTS, load_board
from companion.games.mirror_mansion.vision import perceive
from companion.games.mirror_mansion.vision.dots import Dot
from companion.games.mirror_mansion.vision.scene import BoxState
from companion.games.mirror_mansion.vision.stickers import DEFAULT_STICKERS
from companion.games.mirror_mansion.vision.top_planes import PlaneSampler

BOARD = load_board()
CELL = (1, 1)
PX = 4.0


@pytest.fixture(autouse=True)
def _tops_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(perceive, "TOP_NEAR_MM", 3.0)


def _plane(
    top: tuple[float, float],
    dot_across: float,
    dot_mm: float = 8.0,
    face: tuple[float, float] | None = None,
    top_bgr: tuple[int, int, int] = (60, 50, 45),
    reflection: bool = False,
    shape_bgr: tuple[int, int, int] = (95, 120, 150),
) -> PlaneSampler:
    """A board seen from straight above round the crossing (4 px a mm): light wood, the `/`
    mirror's top a strip (dark unless `top_bgr`) from `top[0]` to `top[1]` mm across the
    slot's line (toward its second facing, SE), a green dot of `dot_mm` on it `dot_across` off
    the line, 6 mm along, and, when `face` is given, a bright even reflection from `face[0]`
    to `face[1]` mm: the face toward the camera as the mirrors' plane shows it (with
    `reflection`, a room seen in it: bright and `shape_bgr` shapes by turns along the slot)."""
    c = np.asarray(BOARD.crossing_mm(CELL))
    u, n = perceive.slot_axes("/", BOARD)
    size = 480
    yy, xx = np.mgrid[0:size, 0:size]
    rel = np.stack([xx, yy], axis=-1) / PX - size / PX / 2
    along, across = rel @ u, rel @ n
    img = np.full((size, size, 3), (170, 190, 205), np.uint8)
    on_top = (np.abs(along) <= BOARD.mirror_length_mm / 2) & (across >= top[0]) & (across <= top[1])
    img[on_top] = top_bgr
    if face is not None:
        shown = (np.abs(along) <= BOARD.mirror_length_mm / 2) & (across >= face[0])
        img[shown & (across <= face[1])] = (245, 245, 245)
        if reflection:
            img[shown & (across <= face[1]) & (np.floor(along / 3.0) % 2 == 0)] = shape_bgr
    dot = np.hypot(along - 6.0, across - dot_across) <= dot_mm / 2
    img[dot] = (60, 200, 60)
    half = size / 2
    return PlaneSampler(
        img, np.array([[PX, 0, half - PX * c[0]], [0, PX, half - PX * c[1]], [0, 0, 1]])
    )


def _dot(dot_across: float, dot_mm: float = 8.0) -> Dot:
    c = np.asarray(BOARD.crossing_mm(CELL))
    u, n = perceive.slot_axes("/", BOARD)
    x, y = c + 6.0 * u + dot_across * n
    return Dot((float(x), float(y)), float(np.pi * (dot_mm / 2) ** 2), 1.0, 1.0)


def _read(
    top: tuple[float, float],
    dot_across: float,
    face: tuple[float, float] | None = None,
    camera: np.ndarray | None = None,
    top_bgr: tuple[int, int, int] = (60, 50, 45),
    reflection: bool = False,
    shape_bgr: tuple[int, int, int] = (95, 120, 150),
) -> BoxState:
    dot = _dot(dot_across)
    bars = {(c, s): 0.0 for c in BOARD.cells for s in SLOTS}
    bars[(CELL, "/")] = 2.0
    cands = perceive.Candidates(
        (dot,),
        (),
        {side: () for side in "NESW"},
        bars,
        dict(bars),
        tops=perceive.mirror_tops(
            _plane(
                top,
                dot_across,
                face=face,
                top_bgr=top_bgr,
                reflection=reflection,
                shape_bgr=shape_bgr,
            ),
            BOARD,
            (dot,),
            camera,
        ),
    )
    return perceive.fit(perceive.identify(cands, BOARD), cands, BOARD)


def test_a_top_is_found_clear_of_its_dot_wherever_it_stands() -> None:
    for top in ((-8.0, 0.0), (-2.0, 2.0), (-4.0, 1.0)):
        dot_across = top[1] - 1.5
        found = perceive.mirror_top(_plane(top, dot_across), BOARD, CELL, "/", _dot(dot_across))
        assert found is not None
        assert abs(found.middle_mm - sum(top) / 2) <= 0.75
        assert abs(found.width_mm - (top[1] - top[0])) <= 1.0


def test_a_dot_on_the_line_on_the_reflective_half_of_its_top_names_the_facing() -> None:
    # An 8 mm top whose face stands on the line: the dot 0.5 mm behind the line, too near it
    # for the line to tell, but on the half of its top next to the face.
    (m,) = _read((-8.0, 0.0), -0.5).mirrors
    assert (m.cell, m.slot, m.facing) == (CELL, "/", "SE")
    assert m.confidence >= 0.5


def test_a_top_and_a_line_that_agree_name_the_facing() -> None:
    (m,) = _read((-1.0, 4.0), 3.0).mirrors
    assert (m.cell, m.slot, m.facing) == (CELL, "/", "SE")


def test_a_top_that_contradicts_a_clear_side_of_the_line_is_asked() -> None:
    # The dot 1.5 mm behind the line on the near half of a top from -8 to 0 mm, and 1.5 mm in
    # front of it on the far half of a top from -1 to +6 mm: the line names one side, the top
    # the other, so no facing is named (a guess here was wrong as often as right).
    for top, dot_across in (((-8.0, 0.0), -1.5), ((-1.0, 6.0), 1.5)):
        (m,) = _read(top, dot_across).mirrors
        assert m.cell == CELL and m.facing is None


def test_a_near_half_top_against_the_line_is_named_only_with_a_reflection_beside_it() -> None:
    # The dot 1.5 mm behind the line (the line says NW) on the half toward the camera of a
    # top from -8 to 0 mm (the top says SE: its reflective face, on the line, looks at the
    # camera, 300 mm aside over SE, and shows 5 mm wide beside the top). With a reflection
    # there (uneven along the slot) the face says SE too: named. With an even face there (a
    # mirror's back, or the board), or the camera's side unknown, the line and the top
    # disagree alone: asked.
    top, dot_across, face = (-8.0, 0.0), -1.5, (0.0, 5.0)
    camera = _camera(300.0, 1200.0)
    found = perceive.mirror_top(
        _plane(top, dot_across, face=face, reflection=True), BOARD, CELL, "/", _dot(dot_across)
    )
    assert found is not None and abs(found.middle_mm + 4.0) <= 0.75
    (m,) = _read(top, dot_across, face, camera, reflection=True).mirrors
    assert (m.cell, m.slot, m.facing) == (CELL, "/", "SE")
    assert m.confidence >= 0.5
    for shown, seen_from in ((False, camera), (True, None)):
        (m,) = _read(top, dot_across, face, seen_from, reflection=shown).mirrors
        assert m.cell == CELL and m.facing is None


def test_a_near_half_top_against_the_line_is_named_where_the_band_beside_it_is_not_even(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The scene above, the room in the face dimmer in contrast: the band beside the top on the
    # camera's side is uneven under `FACE_UNEVEN` (no clear reflection) but at or over
    # `NEAR_UNEVEN`: not the even paint of a true top beside a strip beyond it, so the facing
    # is named (SE). Nearly even, it is asked; with the rule off (inf), asked too.
    top, dot_across, face = (-8.0, 0.0), -1.5, (0.0, 5.0)
    camera = _camera(300.0, 1200.0)
    dot = _dot(dot_across)
    for shape, named in (((229, 229, 229), True), ((232, 232, 232), False)):
        plane = _plane(top, dot_across, face=face, reflection=True, shape_bgr=shape)
        found = perceive.mirror_tops(plane, BOARD, (dot,), camera)[(dot.centre_mm, "/")]
        assert found.face_uneven is not None and found.face_uneven < perceive.FACE_UNEVEN
        assert (found.face_uneven >= perceive.NEAR_UNEVEN) == named
        (m,) = _read(top, dot_across, face, camera, reflection=True, shape_bgr=shape).mirrors
        assert m.cell == CELL and m.facing == ("SE" if named else None)
    monkeypatch.setattr(perceive, "NEAR_UNEVEN", math.inf)
    (m,) = _read(top, dot_across, face, camera, reflection=True, shape_bgr=(229, 229, 229)).mirrors
    assert m.cell == CELL and m.facing is None


def _camera(across_mm: float, height_mm: float) -> np.ndarray:
    """A camera `height_mm` above the board over the point `across_mm` off the `/` slot's
    line of the crossing (toward SE when positive)."""
    _, n = perceive.slot_axes("/", BOARD)
    x, y = np.asarray(BOARD.crossing_mm(CELL)) + across_mm * n
    return np.array([x, y, -height_mm])


def test_the_face_toward_the_camera_shows_as_wide_as_the_camera_looks_slantwise() -> None:
    # 300 mm aside and 1200 mm up: the face's foot, 20 mm below the top, is seen 5 mm nearer.
    side, width = perceive.face_width_mm(BOARD, _camera(300.0, 1200.0), CELL, "/")
    assert side == 1.0
    assert width == pytest.approx(300.0 * BOARD.mirror_height_mm / 1200.0)
    side, width = perceive.face_width_mm(BOARD, _camera(-150.0, 1200.0), CELL, "/")
    assert side == -1.0 and width == pytest.approx(2.5)


def test_a_face_taken_for_the_top_does_not_name_the_far_side() -> None:
    # The top (8 mm, behind the line, near the board's colour) and, on the camera's side, its
    # reflective face 5 mm wide on the plane, brighter and as even: the finder takes the face
    # for the top, which puts the dot (on the face's edge of the top) on the far half. Without
    # the camera that is a wrong facing (NW); with it, the players are asked.
    top, face, dot_across = (-8.0, 0.0), (0.0, 5.0), -0.5
    faint = (150, 172, 190)
    (m,) = _read(top, dot_across, face, None, faint).mirrors
    assert m.facing == "NW"
    (m,) = _read(top, dot_across, face, _camera(300.0, 1200.0), faint).mirrors
    assert m.cell == CELL and m.facing is None


def _read_knowing_board(
    top: tuple[float, float],
    dot_across: float,
    face: tuple[float, float] | None,
    camera: np.ndarray,
    top_bgr: tuple[int, int, int] = (60, 50, 45),
    board_known: bool = True,
) -> tuple[BoxState, perceive.MirrorTop]:
    """As `_read`, the board's own colour beside the slots known (`EmptySlot.board`, taken
    from the plane well clear of the mirror) unless not `board_known`; with the top found."""
    plane = _plane(top, dot_across, face=face, top_bgr=top_bgr)
    c = np.asarray(BOARD.crossing_mm(CELL))
    u, n = perceive.slot_axes("/", BOARD)
    wood = plane.lab(np.array([c + 15.0 * u + 20.0 * n]))[0]
    empty = perceive.EmptySlot(wood, 10.0, wood if board_known else None)
    dot = _dot(dot_across)
    bars = {(cc, s): 0.0 for cc in BOARD.cells for s in SLOTS}
    bars[(CELL, "/")] = 2.0
    tops = perceive.mirror_tops(plane, BOARD, (dot,), camera, empty)
    cands = perceive.Candidates(
        (dot,), (), {side: () for side in "NESW"}, bars, dict(bars), tops=tops
    )
    return perceive.fit(perceive.identify(cands, BOARD), cands, BOARD), tops[(dot.centre_mm, "/")]


def test_a_face_taken_for_the_top_over_a_known_plain_board_is_asked() -> None:
    # The scene of the test above, the board's colour known: beyond the face taken for the
    # top lies the board, as even as a back but of the board's colour, so it is no back.
    assert perceive.BACK_EVEN > 0 and perceive.BACK_BOARD > 0
    got, top = _read_knowing_board(
        (-8.0, 0.0), -0.5, (0.0, 5.0), _camera(300.0, 1200.0), (150, 172, 190)
    )
    (m,) = got.mirrors
    assert top.band_board is not None and top.band_board < perceive.BACK_BOARD
    assert m.cell == CELL and m.facing is None


def test_an_even_back_unlike_the_board_beside_a_far_half_names_the_facing() -> None:
    # A thick top mostly behind the line, the camera over its back's side: the dot, just off
    # the line on the reflective half, is on the far half, where the face test doubts it. The
    # band beside the top on the camera's side is even and unlike the board (the back's
    # plastic): the back looks at the camera, and the facing is named (SE). Over the board
    # itself, or with the board's colour unknown, it is asked.
    camera = _camera(-300.0, 1200.0)
    got, top = _read_knowing_board((-6.0, 1.0), 0.5, (-11.0, -6.0), camera)
    assert top.band_board is not None and top.band_board >= perceive.BACK_BOARD
    assert top.face_uneven is not None and top.face_uneven < perceive.BACK_EVEN
    (m,) = got.mirrors
    assert (m.cell, m.slot, m.facing) == (CELL, "/", "SE")
    (m,) = _read_knowing_board((-6.0, 1.0), 0.5, None, camera)[0].mirrors
    assert m.facing is None
    (m,) = _read_knowing_board((-6.0, 1.0), 0.5, (-11.0, -6.0), camera, board_known=False)[
        0
    ].mirrors
    assert m.facing is None


def test_a_far_half_top_the_line_confirms_still_names_the_facing() -> None:
    # A centred top, the camera over its back's side (the face it sees is the back): the dot
    # on the reflective half, 2.5 mm off the line, is on the far half of the top and of the
    # line alike.
    (m,) = _read((-2.0, 2.0), 2.5, camera=_camera(-300.0, 1200.0)).mirrors
    assert (m.cell, m.slot, m.facing) == (CELL, "/", "SE")
    assert m.confidence >= 0.5


class _CountingPlane(PlaneSampler):
    """A plane that counts how many times it is sampled."""

    calls: int = 0

    def lab(self, pts_mm: np.ndarray) -> np.ndarray:
        type(self).calls += 1
        return super().lab(pts_mm)


def test_a_slot_s_top_is_measured_only_when_looked_up_and_the_same_whatever_the_order() -> None:
    # Two dots on the `/` slot's top within `TOP_NEAR_MM` of its line: nothing is sampled
    # until a top is asked for, both are answered from one sampling of the slot, and the
    # answer is the one the eager reading (every key listed) gives.
    plain = _plane((-8.0, 0.0), -0.5)
    plane = _CountingPlane(plain.image, plain.H)
    near, far = _dot(-0.5), _dot(-1.5)
    _CountingPlane.calls = 0
    tops = perceive.mirror_tops(plane, BOARD, (near, far))
    assert _CountingPlane.calls == 0
    first = tops[(far.centre_mm, "/")]
    assert _CountingPlane.calls == 1
    assert tops[(near.centre_mm, "/")] is not None and _CountingPlane.calls == 1
    listed = dict(perceive.mirror_tops(plane, BOARD, (near, far)))
    assert listed[(far.centre_mm, "/")] == first
    assert abs(first.middle_mm - -4.0) <= 0.75


def _identify_edge_low(at_dot: float) -> BoxState:
    """A green dot 4 mm off the `/` slot's line whose slot scores no top edge at its line
    (-0.5), the other slot less (-2), and `at_dot` along the line through the dot."""
    dot = _dot(4.0)
    bars = {(c, s): 0.0 for c in BOARD.cells for s in SLOTS}
    bars[(CELL, "/")] = -0.5
    bars[(CELL, "\\")] = -2.0
    cands = perceive.Candidates(
        (dot,),
        (),
        {side: () for side in "NESW"},
        bars,
        dict(bars),
        dot_bars={(dot.centre_mm, "/"): at_dot},
    )
    return perceive.fit(perceive.identify(cands, BOARD), cands, BOARD)


def test_a_thick_top_off_its_line_is_a_mirror_whose_facing_is_asked() -> None:
    # Scored at the slot's line the top edge is too weak for a mirror (print under a green
    # speck looks so); scored through the dot it is a top: the mirror is there, and its
    # facing asked (where such a top stands, its line names no side).
    low = perceive.DOT_EDGE_MIN - 0.25
    assert not [m for m in _identify_edge_low(low).mirrors if m.cell == CELL]
    (m,) = [m for m in _identify_edge_low(perceive.DOT_EDGE_MIN + 0.25).mirrors if m.cell == CELL]
    assert (m.slot, m.facing) == ("/", None)


def test_a_facing_its_top_asked_is_not_made_sure_by_the_line_through_another_view() -> None:
    # One sticker seen at two levels: its core 1.5 mm behind the line, where the top (from -8
    # to 0 mm) names the other side than the line (asked), and its whole disc, found at the
    # lowest level, 3.2 mm behind the line, beyond `TOP_NEAR_MM`, where only the line names
    # a side. That disc's side is the same line again, not a second reading: the facing
    # stays asked (it was read confidently wrong).
    core = replace(_dot(-1.5), level=2)
    whole = _dot(-3.2, dot_mm=10.0)
    bars = {(c, s): 0.0 for c in BOARD.cells for s in SLOTS}
    bars[(CELL, "/")] = 2.0
    cands = perceive.Candidates(
        (whole, core),
        (),
        {side: () for side in "NESW"},
        bars,
        dict(bars),
        tops=perceive.mirror_tops(_plane((-8.0, 0.0), -1.5), BOARD, (whole, core), None),
    )
    held = [p for p in perceive.identify(cands, BOARD).pieces if p.cell == CELL]
    assert [p.dot for p in held] == [core]
    (m,) = perceive.fit(perceive.identify(cands, BOARD), cands, BOARD).mirrors
    assert m.cell == CELL and m.facing is None


def _far_half(learnt: np.ndarray | None, top_bgr: tuple[int, int, int] = (60, 50, 45)):
    """A top from -1 to +6 mm, the camera over SE (300 mm aside), the dot 1.5 mm in front of
    the line on the top's far half (the top says NW, the line SE: asked), read with the box's
    learnt top colour `learnt`; also the top found."""
    dot = _dot(1.5)
    tops = perceive.mirror_tops(
        _plane((-1.0, 6.0), 1.5, top_bgr=top_bgr), BOARD, (dot,), _camera(300.0, 1200.0)
    )
    bars = {(c, s): 0.0 for c in BOARD.cells for s in SLOTS}
    bars[(CELL, "/")] = 2.0
    piece = perceive.mirror_from_dot(BOARD, dot, bars, tops=tops, learnt=learnt)
    return piece, tops[(dot.centre_mm, "/")]


def test_a_far_half_top_of_the_box_s_tops_colour_names_its_facing() -> None:
    # Without a learnt colour the far-half top and the line disagree: asked. With the box's
    # tops' colour as the strip's, the strip is a top and names NW; a colour `TOP_LIKE` or
    # more away (a reflection, the board) leaves it asked.
    piece, top = _far_half(None)
    assert piece is not None and piece.side_from == "top_asked"
    assert top.colour is not None and top.near_side * (1.5 - top.middle_mm) < 0
    dark = np.asarray(top.colour)
    piece, _ = _far_half(dark)
    assert piece is not None and (piece.side_from, piece.facing) == ("top", "NW")
    assert piece.confidence >= 0.5
    piece, _ = _far_half(dark + np.array([perceive.TOP_LIKE + 1.0, 0.0, 0.0]))
    assert piece is not None and piece.side_from == "top_asked"


def test_a_strip_s_colour_is_the_paint_inside_its_edges() -> None:
    _, dark = _far_half(None)
    _, pale = _far_half(None, top_bgr=(120, 140, 160))
    assert dark.colour is not None and pale.colour is not None
    assert pale.colour[0] - dark.colour[0] > 20


def test_a_near_half_top_of_the_box_s_tops_colour_names_its_facing() -> None:
    # The top from -8 to 0 mm, the dot 1.5 mm behind the line on its half toward the camera
    # (over SE), an even face beside it: asked without a learnt colour (mm33's reflection
    # test finds none), named SE with the box's tops' colour as the strip's, and asked again
    # with a colour `TOP_LIKE_NEAR` or more away (a strip of board or print).
    dot = _dot(-1.5)
    tops = perceive.mirror_tops(
        _plane((-8.0, 0.0), -1.5, face=(0.0, 5.0)), BOARD, (dot,), _camera(300.0, 1200.0)
    )
    top = tops[(dot.centre_mm, "/")]
    assert top.colour is not None and top.near_side * (-1.5 - top.middle_mm) > 0
    bars = {(c, s): 0.0 for c in BOARD.cells for s in SLOTS}
    bars[(CELL, "/")] = 2.0

    def read(learnt: np.ndarray | None) -> perceive.PieceSeen:
        piece = perceive.mirror_from_dot(BOARD, dot, bars, tops=tops, learnt=learnt)
        assert piece is not None
        return piece

    assert read(None).side_from == "top_asked"
    own = np.asarray(top.colour)
    piece = read(own)
    assert (piece.side_from, piece.facing) == ("top", "SE") and piece.confidence >= 0.5
    off = own + np.array([perceive.TOP_LIKE_NEAR + 1.0, 0.0, 0.0])
    assert read(off).side_from == "top_asked"


def test_the_box_s_top_colour_is_learnt_from_its_sure_top_readings_only() -> None:
    # Two mirrors whose own top named their facing surely (one confident, one not), one read
    # from the line and one asked: only the confident top reading is learnt from, and a box
    # without one learns nothing (a lone asked top stays asked).
    def top(colour: tuple[float, float, float]) -> perceive.MirrorTop:
        return perceive.MirrorTop(0.0, 4.0, 1.0, colour=colour)

    dots = [_dot(x) for x in (-2.0, -1.0, 0.5, 2.0)]
    kinds = [("top", 1.0), ("top", 0.1), ("line", 1.0), ("top_asked", 0.0)]
    colours = [
        (40.0, 130.0, 130.0),
        (90.0, 128.0, 128.0),
        (80.0, 128.0, 128.0),
        (41.0, 130.0, 130.0),
    ]
    pieces = tuple(
        perceive.PieceSeen(CELL, "mirror", "/", "SE", conf, d, side_from=sf)
        for d, (sf, conf) in zip(dots, kinds, strict=True)
    )
    tops = {(d.centre_mm, "/"): top(c) for d, c in zip(dots, colours, strict=True)}
    learnt = perceive.learnt_top(pieces, tops, perceive.DEFAULT_STICKERS)
    assert learnt is not None and np.allclose(learnt, colours[0])
    assert perceive.learnt_top(pieces[1:], tops, perceive.DEFAULT_STICKERS) is None


def test_a_top_with_no_strip_like_it_on_the_dot_s_other_half_has_a_wide_rival_margin() -> None:
    # A clean 8 mm top behind the line, the dot 0.5 mm behind it on the top's half next to
    # the face: every strip putting the dot on the top's other half runs over the board, so
    # the top stands out well above them (`MirrorTop.rival`). Over a 16 mm dark band, as wide
    # as no top, strips on either side of the dot are alike: the margin is about nothing.
    found = perceive.mirror_top(_plane((-8.0, 0.0), -0.5), BOARD, CELL, "/", _dot(-0.5))
    assert found is not None and found.rival > 0.5
    band = perceive.mirror_top(_plane((-8.0, 8.0), 0.0), BOARD, CELL, "/", _dot(0.0))
    assert band is not None and band.rival < 0.1


def test_a_dot_just_beyond_the_near_zone_on_a_thick_top_behind_its_line_is_asked() -> None:
    # A 9 mm top standing behind its line (the face on the line, the top from 0 to 9 mm on
    # the SE side): its dot 3.25 mm past the line, on the top's half next to the face, lies on
    # the back's side of the line. Beyond `TOP_NEAR_MM` the line would name SE, the back; the
    # top, found clearly, says the other half: asked. A top on the line's side of the dot (a
    # 6 mm top from -1 to 5, the dot on its outer half) leaves the line's facing named.
    assert perceive.TOP_NEAR_MM < 3.25 < perceive.TOP_VETO_MM
    (m,) = _read((0.0, 9.0), 3.25).mirrors
    assert (m.cell, m.slot, m.facing) == (CELL, "/", None)
    (m,) = _read((-1.0, 5.0), 3.25).mirrors
    assert (m.cell, m.slot, m.facing) == (CELL, "/", "SE")
    assert m.confidence >= 0.5


def test_a_far_half_top_the_line_confirms_just_off_it_is_asked_when_barely_a_top(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The camera over the NW side: a dot 1.5 mm in front of the line (SE) lies on the line's
    # side away from the camera and on the far half of a 4 mm centred top. A top that stands
    # out well over any strip holding the dot on its other half names SE with the line; one
    # barely told from such a strip (`MirrorTop.rival` under `FAR_AGREE_RIVAL`) is asked: the
    # two readings, both erring toward the far side, confirm nothing. With `FAR_AGREE_MM` 0,
    # or the dot farther off the line than it, named SE.
    bars = {(c, s): 0.0 for c in BOARD.cells for s in SLOTS}
    bars[(CELL, "/")] = 2.0

    def read(rival: float, across: float = 1.5) -> perceive.PieceSeen:
        d = _dot(across)
        top = perceive.MirrorTop(0.0, 4.0, 1.5, near_side=-1.0, face_mm=0.5, rival=rival)
        piece = perceive.mirror_from_dot(BOARD, d, bars, tops={(d.centre_mm, "/"): top})
        assert piece is not None and piece.slot == "/"
        return piece

    assert (read(1.0).side_from, read(1.0).facing) == ("top", "SE")
    low = perceive.FAR_AGREE_RIVAL / 2
    assert read(low).side_from == "top_asked"
    assert read(low, perceive.FAR_AGREE_MM + 0.25).side_from == "top"
    monkeypatch.setattr(perceive, "FAR_AGREE_MM", 0.0)
    assert (read(low).side_from, read(low).facing) == ("top", "SE")


def test_a_slot_margin_is_the_sum_of_its_terms() -> None:
    # A dot 1 mm along the `/` slot and 4 mm across it fits both slots; the top edges favour
    # `/` by 2 and nothing else tells them apart: "/" by that margin. Stuck 9 mm off the `\`
    # slot's line instead, it pays for lying beyond where a sticker is stuck.
    bars = {(c, s): 0.0 for c in BOARD.cells for s in SLOTS}
    bars[(CELL, "/")] = 2.0
    terms = perceive.slot_margin(BOARD, CELL, _dot(4.0), {"/": 4.0, "\\": 1.0}, bars)
    assert terms == pytest.approx({"bars": 2.0, "across": 0.0, "middle": 0.0})
    far = perceive.slot_margin(BOARD, CELL, _dot(4.0), {"/": 4.0, "\\": 9.0}, bars)
    assert far["across"] == pytest.approx(
        perceive.SLOT_ACROSS_WEIGHT * (9.0 - BOARD.dot_offset_mm - perceive.SLOT_ACROSS_FREE_MM)
    )


def test_a_far_half_top_with_an_even_band_beside_it_is_named_only_with_back_even_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The top from -1 to +6 mm, the camera over SE, the dot 1.5 mm in front of the line on the
    # top's far half (the top says NW, the line SE: asked). Beside the top on the camera's
    # side an even band unlike the board (a mirror's back, bright plastic) names NW with
    # `BACK_EVEN` on (its measured 3.0) and leaves it asked off (0); a reflection there
    # (uneven) leaves it asked either way.
    dot = _dot(1.5)
    bars = {(c, s): 0.0 for c in BOARD.cells for s in SLOTS}
    bars[(CELL, "/")] = 2.0

    def read(reflection: bool) -> perceive.PieceSeen:
        plane = _plane((-1.0, 6.0), 1.5, face=(6.0, 11.0), reflection=reflection)
        c = np.asarray(BOARD.crossing_mm(CELL))
        u, n = perceive.slot_axes("/", BOARD)
        wood = plane.lab(np.array([c + 15.0 * u + 20.0 * n]))[0]
        empty = perceive.EmptySlot(wood, 10.0, wood)
        tops = perceive.mirror_tops(plane, BOARD, (dot,), _camera(300.0, 1200.0), empty)
        piece = perceive.mirror_from_dot(BOARD, dot, bars, tops=tops)
        assert piece is not None
        return piece

    assert perceive.BACK_EVEN == 3.0
    piece = read(False)
    # (The bright back beside it pulls the strip half a step: the dot 0.75 mm off its middle.)
    assert (piece.side_from, piece.facing) == ("top", "NW") and piece.confidence >= 0.49
    assert read(True).side_from == "top_asked"
    monkeypatch.setattr(perceive, "BACK_EVEN", 0.0)
    assert read(False).side_from == "top_asked"


def test_a_dot_near_its_tops_middle_is_named_only_when_no_other_strip_rivals_the_top(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The camera over SE: a dot 1.5 mm in front of the line (SE) on a 4 mm top whose middle
    # lies 1.4 mm in front of it: the dot 0.1 mm off the middle, on the near half, with the line.
    # The half is unclear that near the middle (confidence under the stickers' 0.5): asked,
    # unless the top stands out over any strip holding the dot on its other half by at least
    # `MIDDLE_RIVAL` (its measured 0.2), which names SE as sure as a dot `ACROSS_MM[0]` off.
    bars = {(c, s): 0.0 for c in BOARD.cells for s in SLOTS}
    bars[(CELL, "/")] = 2.0
    d = _dot(1.5)

    def read(rival: float) -> perceive.PieceSeen:
        top = perceive.MirrorTop(1.4, 4.0, 1.5, near_side=1.0, face_mm=0.5, rival=rival)
        piece = perceive.mirror_from_dot(BOARD, d, bars, tops={(d.centre_mm, "/"): top})
        assert piece is not None and piece.slot == "/" and piece.side_from == "top"
        return piece

    assert perceive.MIDDLE_RIVAL == 0.2
    sure = read(1.0)
    assert sure.facing == "SE" and sure.confidence == pytest.approx(0.5)
    assert read(perceive.MIDDLE_RIVAL / 2).confidence < 0.1
    monkeypatch.setattr(perceive, "MIDDLE_RIVAL", 0.0)
    assert read(1.0).confidence < 0.1


def test_a_far_half_top_with_a_reflection_beside_it_names_the_other_facing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The camera over NW: a dot 0.5 mm in front of the line (SE) on a 6 mm strip reaching 4 mm
    # behind it, 1.5 mm off the strip's middle on its far half, where the face toward the
    # camera (3 mm shown) may be in the strip: asked. With a reflection beside the strip on the
    # camera's side, uneven at least `FACE_REFLECTS` (measured 7.0 on development, left off: a
    # confidently wrong facing added on fresh boxes), the reflective face looks at the camera:
    # the strip held it with the top, and the other facing (NW) is named, as sure as a dot
    # `ACROSS_MM[0]` off. An even band beside it, or the rule off (its default): asked.
    bars = {(c, s): 0.0 for c in BOARD.cells for s in SLOTS}
    bars[(CELL, "/")] = 2.0
    d = _dot(0.5)

    def read(band: float) -> perceive.PieceSeen:
        top = perceive.MirrorTop(-1.0, 6.0, 1.5, near_side=-1.0, face_mm=3.0, face_uneven=band)
        piece = perceive.mirror_from_dot(BOARD, d, bars, tops={(d.centre_mm, "/"): top})
        assert piece is not None and piece.slot == "/"
        return piece

    assert perceive.FACE_REFLECTS == 0.0
    assert read(9.0).side_from == "top_asked"
    monkeypatch.setattr(perceive, "FACE_REFLECTS", 7.0)
    named = read(9.0)
    assert (named.side_from, named.facing) == ("face", "NW")
    assert named.confidence == pytest.approx(0.5)
    assert read(6.5).side_from == "top_asked"


def test_a_facing_the_reflection_named_is_asked_against_another_sure_view() -> None:
    # The facing named from the reflection beside a top (NW, "face", 0.5) against another view
    # of the crossing in the same slot: one reading SE surely (from its own top or the line)
    # makes it asked (`FACE_GUARD`); one unsure, asked by its own top, in the other slot, or
    # agreeing, leaves it; a facing named otherwise is never touched; the guard off, neither.
    d = _dot(0.5)
    held = perceive.PieceSeen(CELL, "mirror", "/", "NW", 0.5, d, side_from="face")

    def view(facing: str, confidence: float, side_from: str, slot: str = "/") -> perceive.PieceSeen:
        return perceive.PieceSeen(CELL, "mirror", slot, facing, confidence, d, side_from=side_from)

    stickers = DEFAULT_STICKERS
    assert perceive.FACE_GUARD is True

    def guarded(other: perceive.PieceSeen, piece: perceive.PieceSeen = held) -> float:
        return perceive.face_guarded(piece, [piece, other], stickers).confidence

    assert guarded(view("SE", 1.0, "top")) == 0.0
    assert guarded(view("SE", stickers.min_confidence, "line")) == 0.0
    assert guarded(view("SE", stickers.min_confidence - 0.1, "top")) == 0.5
    assert guarded(view("SE", 1.0, "top_asked")) == 0.5
    assert guarded(view("SW", 1.0, "top", slot="\\")) == 0.5
    assert guarded(view("NW", 1.0, "line")) == 0.5
    assert guarded(view("SE", 1.0, "top"), replace(held, side_from="top")) == 0.5


def test_the_face_guard_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    d = _dot(0.5)
    held = perceive.PieceSeen(CELL, "mirror", "/", "NW", 0.5, d, side_from="face")
    other = perceive.PieceSeen(CELL, "mirror", "/", "SE", 1.0, d, side_from="top")
    monkeypatch.setattr(perceive, "FACE_GUARD", False)
    assert perceive.face_guarded(held, [held, other], DEFAULT_STICKERS) is held
