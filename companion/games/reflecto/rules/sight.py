"""Mirror sight: which opponent letter each of a seat's mirrors shows right now.

Letters face their owner, mirrors face theirs. A mirror shows an opponent's letter screen
when it stands directly behind it as seen from the mirror's owner: same column, one row
farther from the owner. Player 0 sits before row 0, so their mirror at (r, c) shows an
opponent letter at (r - 1, c); player 1's mirror at (r, c) shows one at (r + 1, c).
This is what a careful peek would reveal; the engine computes it so the table can offer it
to young players and keep a record of who could have seen what.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.reflecto.rules.position import LETTER, MIRROR
from companion.games.reflecto.rules.state import ReflectoState, Screen


@dataclass(frozen=True)
class Sight:
    mirror: str
    screen: Screen  # the opponent letter screen it shows

    def to_json(self) -> dict[str, object]:
        """What the mirror's owner reads: the letters (mirrored at the table), and the
        removal order where it is written on the screen."""
        return {
            "mirror": self.mirror,
            "screen": self.screen.id,
            "text": self.screen.text,
            "rank": self.screen.rank if self.screen.hinted else None,
        }


def mirror_sight(state: ReflectoState, seat: int) -> list[Sight]:
    toward = -1 if seat == 0 else 1  # one row nearer the mirror's owner
    at = {s.cell: s for s in state.screens if s.cell is not None}
    seen = []
    for mirror in state.screens_of(seat):
        if mirror.kind != MIRROR or mirror.cell is None:
            continue
        front = at.get((mirror.cell[0] + toward, mirror.cell[1]))
        if front is not None and front.owner != seat and front.kind == LETTER:
            seen.append(Sight(mirror.id, front))
    return seen
