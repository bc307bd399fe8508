"""The Mirror Mansion board as data: what lies where, in board coordinates and in millimetres.

Everything is read from `models/mirror-mansion/` so that a user can fit their own box; what
follows from the layout (which crossings lie in line with a card, where a view enters and
leaves the grid) is derived here, once, for the optics, the rules and the camera side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.paths import models_dir, read_model_toml

Cell = tuple[int, int]
"""A crossing (row from north, column from west)."""

# Travel directions, clockwise, so a quarter turn is +1 modulo 4.
N, E, S, W = 0, 1, 2, 3
DIRECTION_NAMES = ("N", "E", "S", "W")
DELTA: tuple[Cell, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))

SLOTS = ("/", "\\")
FACINGS: dict[str, tuple[str, str]] = {"/": ("NW", "SE"), "\\": ("NE", "SW")}
"""The two sides a mirror in each slot can turn its reflective face toward."""

SIDES = ("N", "E", "S", "W")  # position prefixes, clockwise like the directions


@dataclass(frozen=True)
class Marker:
    id: int
    corner: str
    center_mm: tuple[float, float]


@dataclass(frozen=True)
class Field:
    """A yellow movement field: what Victor thinks of there (`None` for a question mark)."""

    thought: str | None
    xy_mm: tuple[float, float]


@dataclass(frozen=True)
class Board:
    size: int
    crossing_x_mm: tuple[float, ...]
    crossing_y_mm: tuple[float, ...]
    card_line_mm: dict[str, float]  # side -> the x or y of that edge's card row
    card_height_mm: float
    markers: tuple[Marker, ...]
    marker_side_mm: float
    mirrors: int
    doors: int
    mirror_height_mm: float
    mirror_length_mm: float
    door_length_mm: float
    dot_diameter_mm: float
    dot_offset_mm: float
    die_sides: int
    drop_target: dict[int, int]
    agreed_drop_target: int
    max_swaps: int
    max_door_swaps: int
    fields: tuple[Field, ...]
    motifs: tuple[str, ...]  # the ten Victor thinks of
    garlic: str
    window_card: str

    # --- board coordinates -------------------------------------------------------------

    @cached_property
    def positions(self) -> tuple[str, ...]:
        """The twelve castle-card positions, N0..N2, E0..E2, S0..S2, W0..W2."""
        return tuple(f"{side}{i}" for side in SIDES for i in range(self.size))

    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        return tuple((r, c) for r in range(self.size) for c in range(self.size))

    @property
    def cards(self) -> tuple[str, ...]:
        """The eleven motif cards (ten motifs and the garlic); the twelfth is the window."""
        return (*self.motifs, self.garlic)

    def is_position(self, name: str) -> bool:
        return (
            len(name) == 2 and name[0] in SIDES and name[1].isdigit() and int(name[1]) < self.size
        )

    def entry(self, position: str) -> tuple[Cell, int]:
        """The first crossing a view from `position` reaches, and the direction it travels."""
        side, i = position[0], int(position[1])
        last = self.size - 1
        return {
            "N": ((0, i), S),
            "S": ((last, i), N),
            "W": ((i, 0), E),
            "E": ((i, last), W),
        }[side]

    def exit_position(self, cell: Cell, direction: int) -> str | None:
        """The card a view reaches when it leaves `cell` travelling `direction`, if it leaves."""
        r, c = cell[0] + DELTA[direction][0], cell[1] + DELTA[direction][1]
        if 0 <= r < self.size and 0 <= c < self.size:
            return None
        return {N: f"N{c}", S: f"S{c}", W: f"W{r}", E: f"E{r}"}[direction]

    def in_line(self, position: str) -> tuple[Cell, ...]:
        """The crossings (each with both its slots) in a straight line with a card position."""
        (r, c), d = self.entry(position)
        dr, dc = DELTA[d]
        return tuple((r + k * dr, c + k * dc) for k in range(self.size))

    def opposite(self, position: str) -> str:
        _, d = self.entry(position)
        found = self.exit_position(self.in_line(position)[-1], d)
        assert found is not None
        return found

    def position_on_table(self, position: str, quarter_turns: int) -> str:
        """Which table side a board position faces when the box is turned clockwise
        `quarter_turns` times (masters' variant): the engine keeps board coordinates,
        the players and the camera talk about the table."""
        side = SIDES[(SIDES.index(position[0]) + quarter_turns) % 4]
        i = int(position[1])
        # Clockwise turns keep the clockwise order of cards along an edge:
        # N counts west->east, E north->south, S west->east, W north->south.
        clockwise_index = {"N": i, "E": i, "S": self.size - 1 - i, "W": self.size - 1 - i}
        k = clockwise_index[position[0]]
        back = {"N": k, "E": k, "S": self.size - 1 - k, "W": self.size - 1 - k}
        return f"{side}{back[side]}"

    def field_thought(self, field: int) -> str | None:
        return self.fields[field % len(self.fields)].thought

    # --- millimetres --------------------------------------------------------------------

    def crossing_mm(self, cell: Cell) -> tuple[float, float]:
        return (self.crossing_x_mm[cell[1]], self.crossing_y_mm[cell[0]])

    def card_mm(self, position: str) -> tuple[float, float]:
        side, i = position[0], int(position[1])
        if side in "NS":
            return (self.crossing_x_mm[i], self.card_line_mm[side])
        return (self.card_line_mm[side], self.crossing_y_mm[i])

    def slot_segment_mm(self, cell: Cell, slot: str) -> tuple[tuple[float, float], ...]:
        """The two ends of a piece in a slot: "/" runs south-west to north-east."""
        x, y = self.crossing_mm(cell)
        h = self.mirror_length_mm / (2 * math.sqrt(2))
        if slot == "/":
            return ((x - h, y + h), (x + h, y - h))
        return ((x - h, y - h), (x + h, y + h))

    @staticmethod
    def facing_normal(facing: str) -> tuple[float, float]:
        """Unit vector (x east, y south) the reflective face looks along."""
        s = 1 / math.sqrt(2)
        return {"NW": (-s, -s), "NE": (s, -s), "SE": (s, s), "SW": (-s, s)}[facing]

    def dot_mm(self, cell: Cell, facing: str) -> tuple[float, float]:
        """Where a mirror's facing dot sits, seen from above."""
        x, y = self.crossing_mm(cell)
        nx, ny = self.facing_normal(facing)
        return (x + nx * self.dot_offset_mm, y + ny * self.dot_offset_mm)


def _parse(board: dict[str, Any], motifs: dict[str, Any], where: Path) -> Board:
    try:
        grid, cards, markers, pieces, play = (
            board["grid"],
            board["cards"],
            board["markers"],
            board["pieces"],
            board["play"],
        )
        names = tuple(str(m) for m in motifs["motifs"])
        garlic, window = str(motifs["garlic"]), str(motifs["window"])
        fields = tuple(
            Field(
                None if f["thought"] == "?" else str(f["thought"]),
                (float(f["xy_mm"][0]), float(f["xy_mm"][1])),
            )
            for f in board["fields"]
        )
        result = Board(
            size=int(grid["size"]),
            crossing_x_mm=tuple(float(v) for v in grid["crossing_x_mm"]),
            crossing_y_mm=tuple(float(v) for v in grid["crossing_y_mm"]),
            card_line_mm={
                "N": float(cards["north_y_mm"]),
                "S": float(cards["south_y_mm"]),
                "W": float(cards["west_x_mm"]),
                "E": float(cards["east_x_mm"]),
            },
            card_height_mm=float(cards["height_mm"]),
            markers=tuple(
                Marker(int(markers[k]["id"]), k, _xy(markers[k]["center_mm"]))
                for k in ("NW", "NE", "SE", "SW")
            ),
            marker_side_mm=float(markers["side_mm"]),
            mirrors=int(pieces["mirrors"]),
            doors=int(pieces["door"]),
            mirror_height_mm=float(pieces["mirror_height_mm"]),
            mirror_length_mm=float(pieces["mirror_length_mm"]),
            door_length_mm=float(pieces["door_length_mm"]),
            dot_diameter_mm=float(pieces["dot_diameter_mm"]),
            dot_offset_mm=float(pieces["dot_offset_mm"]),
            die_sides=int(play["die_sides"]),
            drop_target={int(k): int(v) for k, v in play["drop_target"].items()},
            agreed_drop_target=int(play["agreed_drop_target"]),
            max_swaps=int(play["max_swaps"]),
            max_door_swaps=int(play["max_door_swaps"]),
            fields=fields,
            motifs=names,
            garlic=garlic,
            window_card=window,
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise UserError(f"malformed Mirror Mansion model in {where}: {exc!r}") from None
    _check(result, where)
    return result


def _check(b: Board, where: Path) -> None:
    problems = []
    if b.size < 1 or len(b.crossing_x_mm) != b.size or len(b.crossing_y_mm) != b.size:
        problems.append("grid size and crossing coordinates disagree")
    if len(set(b.cards)) != len(b.cards) or b.window_card in b.cards:
        problems.append("card names must be distinct")
    if len(b.cards) + 1 != 4 * b.size:
        problems.append(f"{4 * b.size} card positions need {4 * b.size - 1} motif cards")
    for f in b.fields:
        if f.thought is not None and f.thought not in b.motifs:
            problems.append(f"field thought {f.thought!r} is not one of the motifs")
    if not b.fields:
        problems.append("no movement fields")
    if problems:
        raise UserError(f"bad Mirror Mansion model in {where}: " + "; ".join(problems))


def _xy(value: Any) -> tuple[float, float]:
    """A point from the model file: two numbers."""
    x, y = value
    return float(x), float(y)


@lru_cache(maxsize=4)
def _load(folder: Path) -> Board:
    return _parse(
        read_model_toml(folder / "board.toml"), read_model_toml(folder / "motifs.toml"), folder
    )


def load_board() -> Board:
    """The board described by `models/mirror-mansion/` (or the user's copy), cached."""
    return _load(models_dir() / "mirror-mansion")
