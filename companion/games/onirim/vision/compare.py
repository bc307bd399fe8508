"""A reading against its answer key, card by card: right, named wrongly, left null, phantom."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.games.onirim.vision.reading import TableReading


@dataclass
class Tally:
    cards: int = 0
    """Cards on the table (every place of the answer key)."""
    right: int = 0
    wrong: int = 0
    """Named, and not the card there."""
    null: int = 0
    """Left unnamed or missed: the player is asked."""
    phantom: int = 0
    """Named where no card lies."""
    errors: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.cards += other.cards
        self.right += other.right
        self.wrong += other.wrong
        self.null += other.null
        self.phantom += other.phantom
        self.errors += other.errors


def _row(tally: Tally, where: str, truth: tuple, read: tuple) -> None:
    for k, card in enumerate(truth):
        tally.cards += 1
        got = read[k] if k < len(read) else None
        if got == card:
            tally.right += 1
        elif got is None:
            tally.null += 1
            tally.errors.append(f"{where} {k + 1}: {card} not named")
        else:
            tally.wrong += 1
            tally.errors.append(f"{where} {k + 1}: {card} read as {got}")
    for k in range(len(truth), len(read)):
        tally.phantom += 1
        tally.errors.append(f"{where} {k + 1}: {read[k]} read where no card lies")


def _doors(tally: Tally, truth: tuple[str, ...], read: tuple[str, ...]) -> None:
    """The Doors in play as a multiset: their order on the table means nothing to the game,
    and `read` leaves out a Door it cannot tell (with a warning), so the ones after it are not
    named wrongly by moving up a place. A colour read that is not there is wrong while a
    Door is missing, else a phantom."""
    left = list(truth)
    extra = []
    for colour in read:
        if colour in left:
            left.remove(colour)
        else:
            extra.append(colour)
    tally.cards += len(truth)
    tally.right += len(truth) - len(left)
    for want, got in zip(left, extra, strict=False):
        tally.wrong += 1
        tally.errors.append(f"door: {want} read as {got}")
    for want in left[len(extra) :]:
        tally.null += 1
        tally.errors.append(f"door: {want} not named")
    for got in extra[len(left) :]:
        tally.phantom += 1
        tally.errors.append(f"door: {got} read where no Door lies")


def compare(read: TableReading, truth: TableReading) -> Tally:
    """`read` as `companion read` prints it (`TableReading.asked`: a Mirror whose side is
    only guessed is a question) against the answer key."""
    read = read.asked()
    t = Tally()
    _row(t, "labyrinth", truth.labyrinth, read.labyrinth)
    _doors(t, truth.doors, read.doors)
    got = {m.mirror: m for m in read.mirrors}
    for m in truth.mirrors:
        t.cards += 1
        seen = got.pop(m.mirror, None)
        if seen is None:
            t.null += 1
            t.errors.append(f"Mirror {m.mirror} not seen")
            _row(t, f"under {m.mirror}", m.under, ())
            continue
        if seen.explored == m.explored:
            t.right += 1
        else:
            t.wrong += 1
            t.errors.append(f"Mirror {m.mirror}: explored {seen.explored}, is {m.explored}")
        _row(t, f"under {m.mirror}", m.under, seen.under)
    for mid, seen in got.items():
        t.phantom += 1 + len(seen.under)
        t.errors.append(f"Mirror {mid} read where none lies")
    _row(
        t,
        "discard top",
        (truth.discard_top,) if truth.discard_top else (),
        (read.discard_top,) if read.discard_top else (),
    )
    return t
