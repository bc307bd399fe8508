"""The accuracy check of `make test`: 15 boards of the random style (each box its own make and
look: frames and cards of any colour, dark or light, hand-stuck dots, white balance, heights,
board art, clutter anywhere), fixed development seeds. It fails when the reader falls below a
floor set from its numbers on the day the floor was set: a regression alarm, not the
measurement (benchmarks/mirror_mansion_vision.py). Set again when the random family's doors
were widened (thin or thick, tops near the board's colour or worn), which also moved its
random stream, so these are 30 other boards than before: 24 / 30 exact (the six misses none
a door: two windows, four mirrors), 28 / 30 windows, no phantom mirror; the floor leaves
room for one more board and window. Raised when the window's dot had to lie on its card's top
line (a hard margin, since replaced): 26 / 30 exact, 30 / 30 windows, still with room for one more
board and window; the same numbers after the random style's window dots (anywhere on the
card's top edge) and card heights (up to 4 mm off) were widened; and again after the window's
dot was let overhang its card's top edge (up to 4 mm off its middle line) and the window was
ranked by a smooth cost off the line instead of a hard margin (`perceive._window_score`).
Set again when the random style's mirror tops were widened (2 to 9 mm thick, half the boxes
with the reflective face on the slot's line and the top behind it; the random stream moved
too): 17 / 30 exact, 30 / 30 windows, 17 mirrors of 120 with a confident wrong facing (dots
stuck on a top standing behind the line lie on the line or behind it) and 1 phantom (board
13: a mirror whose top stands 3.8 mm behind its line went unread and a top edge elsewhere took
its place, its slot asked). The floors left room for one more board and window and caught any
further phantom. Raised when the reader read the side of a mirror's dot near its line from
the mirror's own top, asking where the face toward the camera may be in that top
(`perceive.mirror_tops`, `_face_in_top`): 20 / 30 exact, 30 / 30 windows, 2 facings
confidently wrong (boards 19 and 27: dots 0.1 and 0.9 mm behind the line on tops standing
behind it), 15 asked, the same phantom; the floors leave room for one more board and window,
and the ceilings catch any further wrong facing or phantom. Set the phantom ceiling back to 0
when board 13's mirror is read (its top edge, read at the slot's line, scores none).
Cut to the first 15 boards for the suite's time budget (the 30 took ~45 s of CI's two cores):
on them the reader in the tree (after mm28) reads 11 / 15 exact, 15 / 15 windows, board 13's
phantom and no wrong facing (the two of the 30 were on boards 19 and 27), so the floors leave
room for one board and one window and any wrong facing fails."""

from __future__ import annotations

from companion.games.mirror_mansion.rules.board import load_board
from companion.games.mirror_mansion.vision.perceive import read_box
from companion.games.mirror_mansion.vision.render import Conditions, render_photo

BOARD = load_board()
DEV_SEED = 9100  # development boards; the benchmark draws fresh seeds
BOARDS = 15
EXACT_FLOOR = 10
"""Boards read entirely right (every mirror's slot and facing, the window, the door)."""
WINDOW_FLOOR = 14
PHANTOM_CEILING = 1
WRONG_FACING_CEILING = 0
"""Mirrors whose slot and facing are both named and either is wrong (a confident mistake)."""


def test_random_style_boards_are_read_at_least_as_well_as_on_the_day() -> None:
    exact = windows = phantoms = wrong_facings = 0
    wrong = []
    for i in range(BOARDS):
        photo = render_photo(BOARD, (DEV_SEED, i), Conditions(style="random"))
        got = read_box(photo.image, BOARD)
        truth_cells = {m.cell for m in photo.truth.mirrors}
        phantoms += sum(1 for m in got.mirrors if m.cell not in truth_cells)
        windows += got.window == photo.truth.window
        for m in photo.truth.mirrors:
            seen = got.mirror_at(m.cell)
            if seen is not None and seen.slot_sure and seen.facing is not None:
                wrong_facings += (seen.slot, seen.facing) != (m.slot, m.facing)
        if got.layout_key() == photo.truth.layout_key():
            exact += 1
        else:
            wrong.append(i)
    assert phantoms <= PHANTOM_CEILING
    assert wrong_facings <= WRONG_FACING_CEILING
    assert windows >= WINDOW_FLOOR
    assert exact >= EXACT_FLOOR, f"boards {wrong} read wrong"
