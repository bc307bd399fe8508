"""Chess movement on Queen Alice's chessboard: hand-worked positions and a brute force."""

from __future__ import annotations

import random

from companion.games.queen_alice.rules.board import KINDS, Piece
from companion.games.queen_alice.rules.movement import Position, generate_moves, is_blocked

FORWARD = {"red": -1, "white": 1}


def pos(*pieces: tuple[str, str, int, int], rows: int = 8, cols: int = 8) -> Position:
    return Position(rows, cols, tuple(Piece(c, k, (r, cc)) for c, k, r, cc in pieces), FORWARD)


def targets(position: Position, index: int = 0) -> dict[tuple[int, int], bool]:
    return {m.to: m.capture for m in generate_moves(position, index)}


def test_rook_slides_until_blocked_and_captures_only_the_other_colour() -> None:
    p = pos(("red", "rook", 3, 3), ("white", "pawn", 3, 5), ("red", "pawn", 1, 3))
    assert targets(p) == {
        (2, 3): False,  # the red pawn on (1, 3) stops it and is not captured
        (3, 0): False,
        (3, 1): False,
        (3, 2): False,
        (3, 4): False,
        (3, 5): True,  # captures the white pawn, goes no further
        (4, 3): False,
        (5, 3): False,
        (6, 3): False,
        (7, 3): False,
    }


def test_knight_jumps_over_pieces() -> None:
    walled = [("white", "pawn", 0 + dr, 0 + dc) for dr, dc in ((0, 1), (1, 0), (1, 1))]
    p = pos(("red", "knight", 0, 0), *walled, ("white", "bishop", 2, 1))
    assert targets(p) == {(1, 2): False, (2, 1): True}


def test_king_steps_once_and_bishop_and_queen_slide() -> None:
    assert set(targets(pos(("white", "king", 0, 0)))) == {(0, 1), (1, 0), (1, 1)}
    assert set(targets(pos(("white", "bishop", 0, 0)))) == {(i, i) for i in range(1, 8)}
    assert len(targets(pos(("white", "queen", 3, 3)))) == 27


def test_pawn_moves_exactly_one_square_forward_and_captures_diagonally() -> None:
    red = pos(("red", "pawn", 6, 4), ("white", "knight", 5, 3), ("red", "rook", 5, 5))
    assert targets(red) == {(5, 4): False, (5, 3): True}  # never two squares, even at start
    white = pos(("white", "pawn", 1, 4), ("red", "queen", 2, 5))
    assert targets(white) == {(2, 4): False, (2, 5): True}


def test_blocked_pieces() -> None:
    assert is_blocked(pos(("red", "pawn", 4, 4), ("white", "pawn", 3, 4)), 0)
    assert is_blocked(pos(("red", "pawn", 0, 4)), 0)  # on its final row: nowhere ahead
    assert not is_blocked(pos(("red", "pawn", 4, 4), ("white", "pawn", 3, 3)), 0)
    corner = pos(("red", "rook", 0, 0), ("red", "pawn", 0, 1), ("red", "knight", 1, 0))
    assert is_blocked(corner, 0) and not is_blocked(corner, 2)


# --- An independent brute force: every square tested against each kind's geometry. ---


def _between(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    """The squares strictly between a and b on a line (rank, file or diagonal)."""
    n = max(abs(b[0] - a[0]), abs(b[1] - a[1]))
    return [(a[0] + (b[0] - a[0]) * k // n, a[1] + (b[1] - a[1]) * k // n) for k in range(1, n)]


def _reaches(
    kind: str,
    colour: str,
    a: tuple[int, int],
    b: tuple[int, int],
    occupied: dict[tuple[int, int], str],
) -> bool:
    dr, dc = b[0] - a[0], b[1] - a[1]
    if kind == "pawn":
        if dr != FORWARD[colour]:
            return False
        return (dc == 0 and b not in occupied) or (abs(dc) == 1 and b in occupied)
    if kind == "knight":
        return {abs(dr), abs(dc)} == {1, 2}
    if kind == "king":
        return max(abs(dr), abs(dc)) == 1
    straight, diagonal = dr == 0 or dc == 0, abs(dr) == abs(dc)
    shape = {"rook": straight, "bishop": diagonal, "queen": straight or diagonal}[kind]
    return shape and not any(sq in occupied for sq in _between(a, b))


def brute_force(position: Position, index: int) -> dict[tuple[int, int], bool]:
    piece = position.pieces[index]
    occupied = {p.cell: p.colour for p in position.pieces}
    found = {}
    for r in range(position.rows):
        for c in range(position.cols):
            to = (r, c)
            if to == piece.cell or occupied.get(to) == piece.colour:
                continue
            if _reaches(piece.kind, piece.colour, piece.cell, to, occupied):
                found[to] = to in occupied
    return found


def random_position(rng: random.Random) -> Position:
    rows, cols = rng.choice((4, 6, 8, 10)), rng.choice((3, 5, 7, 8, 9))
    cells = rng.sample(
        [(r, c) for r in range(rows) for c in range(cols)], rng.randint(1, min(16, rows * cols))
    )
    pieces = tuple(Piece(rng.choice(("red", "white")), rng.choice(KINDS), cell) for cell in cells)
    return Position(rows, cols, pieces, FORWARD)


def test_moves_match_a_brute_force_over_10000_random_positions() -> None:
    rng = random.Random(20261203)
    kinds_seen, captures = set(), 0
    for _ in range(10_000):
        p = random_position(rng)
        index = rng.randrange(len(p.pieces))
        got = targets(p, index)
        assert got == brute_force(p, index), (p, index)
        kinds_seen.add(p.pieces[index].kind)
        captures += sum(got.values())
    assert kinds_seen == set(KINDS) and captures > 1000
