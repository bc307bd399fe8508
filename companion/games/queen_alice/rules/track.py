"""Alice's Paths, the Crown display and the Cat tracks (the Central board's scoring).

- Alice Progress moves a colour's Alice to the next space without a Crown and scores it; a
  Wish space removes a Crown and is scored by everyone at Rest; the first Alice to the
  Throne decides the coronation colour (one reading) and removes a Crown; an Alice that
  cannot move on (on the Throne, or below the other colour's Throne) gives 5 IP and
  removes a Crown instead.
- A Crown gained goes on the next free non-Wish space ahead of that colour's Alice and pays
  double its points; with no space or no Crown left it pays the absence bonus instead.
- The last Crown removed sets `ending`: the round is finished, then the game ends.
"""

from __future__ import annotations

from companion.games.queen_alice.rules.components import Components, Reward
from companion.games.queen_alice.rules.state import State, ci, evolve, set_pair


def _blocked(state: State, comp: Components, colour: str) -> tuple[int, ...]:
    covered = comp.alice_covered[colour] if state.players == 3 else ()
    return (*state.crowned[ci(colour)], *covered)


def remove_crown(state: State) -> State:
    if state.crowns_left == 0:
        return state
    left = state.crowns_left - 1
    return evolve(state, crowns_left=left, ending=state.ending or left == 0)


def progress(state: State, comp: Components, colour: str) -> State:
    """One Alice Progress of `colour` for the player to move."""
    path, i = comp.alice[colour], ci(colour)
    blocked = _blocked(state, comp, colour)
    to = state.alice[i] + 1
    while to < len(path) and to in blocked:
        to += 1
    throne = len(path) - 1
    if to > throne or (to == throne and state.throne not in (None, colour)):
        state = remove_crown(state)
        return state.with_me(ip=state.me.ip + comp.after_throne_ip)
    state = evolve(state, alice=set_pair(state.alice, colour, to))
    state = state.with_me(ip=state.me.ip + path[to].ip)
    if to == throne:
        return remove_crown(evolve(state, throne=colour))
    if path[to].wish:
        wish = comp.wish_spaces().index((colour, to))
        state = evolve(state, turn=evolve(state.turn, wishes=(*state.turn.wishes, wish)))
        return remove_crown(state)
    return state


def gain_crown(state: State, comp: Components, colour: str) -> State:
    """A Crown of `colour` for the player to move (the rulebook's Crown Display)."""
    if state.crowns_left == 0:
        return state.with_me(ip=state.me.ip + comp.absence_ip)
    state = remove_crown(state)
    path, i = comp.alice[colour], ci(colour)
    blocked = _blocked(state, comp, colour)
    spot = next(
        (
            j
            for j in range(state.alice[i] + 1, len(path) - 1)
            if j not in blocked and not path[j].wish
        ),
        None,
    )
    if spot is None:
        return state.with_me(ip=state.me.ip + comp.absence_ip)
    crowned = set_pair(state.crowned, colour, tuple(sorted((*state.crowned[i], spot))))
    me = state.me
    return evolve(state, crowned=crowned).with_me(
        ip=me.ip + comp.crown_multiplier * path[spot].ip,
        crowns=set_pair(me.crowns, colour, me.crowns[i] + 1),
    )


def pawprint(state: State, comp: Components, colour: str) -> tuple[State, Reward | None]:
    """Advance the player's Cat of `colour` one space; the reward of the space reached."""
    track, i = comp.cats[colour], ci(colour)
    at = state.me.cats[i]
    if at >= len(track):
        return state, None
    state = state.with_me(cats=set_pair(state.me.cats, colour, at + 1))
    return state, track[at]


def cat_level(comp: Components, position: int) -> str:
    if position >= comp.cat_x2:
        return "x2"
    return "x1" if position >= comp.cat_x1 else "none"
