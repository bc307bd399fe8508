"""What must hold of every Queen Alice state, whatever was played: the property tests and
the engine benchmark check each state they reach against `broken`."""

from __future__ import annotations

from collections import Counter

from companion.games.queen_alice.rules.board import Board
from companion.games.queen_alice.rules.components import Components
from companion.games.queen_alice.rules.state import State


def box(comp: Components, players: int) -> Counter[str]:
    """Every card of a game: each player's Basic cards and the three market decks."""
    cards: Counter[str] = Counter()
    for _ in range(players):
        cards.update(comp.basic)
    for ids in comp.decks.values():
        cards.update(ids)
    return cards


def broken(
    state: State, comp: Components, board: Board, tally: Counter[str], cards: Counter[str]
) -> str | None:
    """The first rule `state` breaks, or None. `tally`: every card where it is now;
    `cards`: the game's `box`."""
    if state.tile is None:
        return None
    if tally != cards:
        return "the cards do not add up to the box"
    black = (
        comp.black_cubes
        if dict(state.readings)["component_counts"] == "per_player_setup"
        else comp.black_cubes // state.players
    )
    for seat, p in enumerate(state.people):
        if not 0 <= p.time <= comp.time_max:
            return f"seat {seat}: Time {p.time} off the Clock"
        if min(p.cake, p.tea, p.toast, p.black, p.black_stock) < 0:
            return f"seat {seat}: a negative count"
        if p.stored() > p.cubes + p.black:
            return f"seat {seat}: more resources than cubes"
        if p.black + p.black_stock != black:
            return f"seat {seat}: Black cubes lost or made"
        if any(p.bushes[i] > p.hearts[i] for i in (0, 1)):
            return f"seat {seat}: more Rose bushes than Hearts taken"
    train = [*state.train_deck, *(c for p in state.people for c in (*p.train_hand, *p.train[:1]))]
    if len(set(train)) != len(train) or not set(train) <= set(comp.train):
        return "a Train card dealt twice, or one not in the box"
    for i, name in enumerate(comp.flowers):
        held = sum(p.flowers.count(name) for p in state.people)
        if held + state.flowers_left[i] != comp.flower_supply:
            return f"{name} Live Flowers lost or made"
    cells = [piece.cell for piece in state.pieces]
    if len(set(cells)) != len(cells) or not all(board.on_board(c) for c in cells):
        return "two pieces on a square, or one off the board"
    jailed = sum(len(p.jail) for p in state.people)
    if len(state.pieces) + jailed != len(board.tiles[state.tile]):
        return "chess pieces lost or made"
    if sum(len(c) for c in state.crowned) != sum(sum(p.crowns) for p in state.people):
        return "a Crown on a path that nobody gained"
    if state.crowns_left < 0 or state.ending != (state.crowns_left == 0):
        return "the end trigger does not match the Crown display"
    three = state.players == 3
    planted = sum(sum(z) for colour in state.garden for z in colour)
    covered = sum(len(v) for v in comp.garden_covered.values()) if three else 0
    if planted != covered + sum(sum(p.bushes) for p in state.people):
        return "the Garden does not match the bushes planted"
    built = sum(sum(row) for colour in state.wall for row in colour)
    covered = sum(len(v) for v in comp.wall_covered.values()) if three else 0
    if built != covered + sum(sum(p.bricks) for p in state.people):
        return "the Wall does not match the Diamonds placed"
    if any(
        not 0 <= a < len(comp.alice[c]) for a, c in zip(state.alice, ("red", "white"), strict=True)
    ):
        return "an Alice off her path"
    if (
        state.throne is not None
        and state.alice[("red", "white").index(state.throne)] != len(comp.alice[state.throne]) - 1
    ):
        return "a Throne colour whose Alice is not on it"
    return None
