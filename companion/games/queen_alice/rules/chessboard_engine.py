"""The chessboard part of Queen Alice as a `GameEngine`: moves, captures, rescues, promotions.

This is the start of the engine, not the game: there are no cards, so every seat may move
any piece (as with a Wild card), and no actions, Crowns or IP, so a game stops after a
number of rounds (`{"rounds": n}`, default `DEFAULT_ROUNDS`) instead of on the last Crown.
That is why it is not `rules.ENGINE`: a partial engine must not be offered for play. It
follows the protocol so the shared conformance check can run it, and what it gets right
(chess moves, Jails, respawns) is what the whole engine will build on.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from companion.games.base import CHANCE, IllegalAction
from companion.games.queen_alice.rules.board import Board, Cell, Piece, load_board
from companion.games.queen_alice.rules.jail import comeback_squares, is_promotion
from companion.games.queen_alice.rules.movement import Position, generate_moves

DEFAULT_ROUNDS = 10
"""The stand-in for the Crown trigger: rounds of the chessboard-only game."""

Jailed = tuple[str, str]
"""A piece in a Jail: (colour, kind)."""


@dataclass(frozen=True)
class ChooseTile:
    """Chance: the player-aid tile drawn at set-up (common set-up step 2)."""

    tile: str


@dataclass(frozen=True)
class Move:
    """Move piece `piece` to `to`; a promoted pawn then goes to `respawn`."""

    piece: int
    to: Cell
    respawn: Cell | None = None


@dataclass(frozen=True)
class Stay:
    """A blocked piece resolves its own square."""

    piece: int


@dataclass(frozen=True)
class Rescue:
    """Take piece `slot` out of seat `jail`'s Jail and place it on `to`."""

    jail: int
    slot: int
    to: Cell


Action = ChooseTile | Move | Stay | Rescue


@dataclass(frozen=True)
class State:
    players: int
    rounds: int
    tile: str | None
    pieces: tuple[Piece, ...]
    jails: tuple[tuple[Jailed, ...], ...]
    turns: int = 0

    def position(self, board: Board) -> Position:
        forward = {c: board.forward(c) for c in ("red", "white")}
        return Position(board.rows, board.cols, self.pieces, forward)


def _cell(value: Any) -> Cell:
    if not isinstance(value, list) or len(value) != 2 or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise ValueError(f"a square must be [r, c], got {value!r}")
    return value[0], value[1]


class ChessboardEngine:
    game_id = "queen-alice"

    def __init__(self, board: Board | None = None) -> None:
        self._board = board

    @property
    def board(self) -> Board:
        return self._board or load_board()

    def new_game(self, players: int, options: dict[str, Any] | None = None) -> State:
        options = dict(options or {})
        rounds = options.pop("rounds", DEFAULT_ROUNDS)
        if options:
            raise ValueError(f"unknown option(s): {', '.join(sorted(options))}")
        if not 2 <= players <= 4:
            raise ValueError(f"Queen Alice is for 2 to 4 players, not {players}")
        if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1:
            raise ValueError("rounds must be a whole number >= 1")
        return State(players, rounds, None, (), tuple(() for _ in range(players)))

    def current_player(self, state: State) -> int | None:
        if state.tile is None:
            return CHANCE
        if self.is_terminal(state):
            return None
        return state.turns % state.players

    def is_terminal(self, state: State) -> bool:
        return state.tile is not None and state.turns >= state.rounds * state.players

    def scores(self, state: State) -> list[float]:
        """No IP is gained on the chessboard alone (resources and actions come later)."""
        return [0.0] * state.players

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        return ChooseTile(rng.choice(sorted(self.board.tiles)))

    def _promotions(self, state: State, index: int, to: Cell) -> list[Cell | None]:
        piece = state.pieces[index]
        if not is_promotion(self.board, piece, to):
            return [None]
        occupied = [p.cell for p in state.pieces if p.cell not in (piece.cell, to)]
        return list(comeback_squares(self.board, piece.colour, occupied))

    def legal_actions(self, state: State) -> list[Action]:
        if self.current_player(state) in (None, CHANCE):
            return []
        position = state.position(self.board)
        actions: list[Action] = []
        for i in range(len(state.pieces)):
            moves = generate_moves(position, i)
            if not moves:
                actions.append(Stay(i))
            for m in moves:
                actions.extend(Move(i, m.to, r) for r in self._promotions(state, i, m.to))
        occupied = [p.cell for p in state.pieces]
        for seat, jail in enumerate(state.jails):
            for slot, (colour, kind) in enumerate(jail):
                if (colour, kind) in jail[:slot]:
                    continue  # the same piece twice in one Jail is one choice
                actions.extend(Rescue(seat, slot, to)
                               for to in comeback_squares(self.board, colour, occupied))
        return actions

    def apply(self, state: State, action: Action) -> State:
        if isinstance(action, ChooseTile):
            if state.tile is not None:
                raise IllegalAction("set-up", "the start tile is already drawn")
            if action.tile not in self.board.tiles:
                raise IllegalAction("set-up", f"no player-aid tile {action.tile!r}")
            return replace(state, tile=action.tile, pieces=self.board.tiles[action.tile])
        if state.tile is None:
            raise IllegalAction("set-up", "the start tile is drawn first")
        if self.is_terminal(state):
            raise IllegalAction("game end", "the game is over")
        seat = state.turns % state.players
        if action not in self.legal_actions(state):
            raise IllegalAction(*self._why(state, action))
        pieces, jails = list(state.pieces), [list(j) for j in state.jails]
        if isinstance(action, Move):
            piece = pieces[action.piece]
            target = next((p for p in pieces if p.cell == action.to), None)
            if target is not None:
                pieces.remove(target)
                jails[seat].append((target.colour, target.kind))
            land = action.respawn if action.respawn is not None else action.to
            pieces[pieces.index(piece)] = replace(piece, cell=land)
        elif isinstance(action, Rescue):
            colour, kind = jails[action.jail].pop(action.slot)
            pieces.append(Piece(colour, kind, action.to))
        return replace(state, pieces=tuple(pieces), jails=tuple(tuple(j) for j in jails),
                       turns=state.turns + 1)

    def _why(self, state: State, action: Action) -> tuple[str, str]:
        """The rule an action outside `legal_actions` breaks."""
        if isinstance(action, Move | Stay) and not 0 <= action.piece < len(state.pieces):
            return "no such piece", f"there is no piece {action.piece}"
        if isinstance(action, Stay):
            return "blocked piece", "only a piece with no move resolves its own square"
        if isinstance(action, Move):
            position = state.position(self.board)
            if action.to not in {m.to for m in generate_moves(position, action.piece)}:
                return "chess movement", f"piece {action.piece} cannot reach {list(action.to)}"
            return "pawn promotion", "a promoted pawn goes to a free respawn square"
        if isinstance(action, Rescue):
            if not (0 <= action.jail < state.players
                    and 0 <= action.slot < len(state.jails[action.jail])):
                return "rescue", "there is no such piece in that Jail"
            return "rescue", "a rescued piece goes to a free respawn square of its colour"
        return "action", f"not a Queen Alice action: {action!r}"

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The chessboard and the Jails are public; hands and decks are not modelled yet."""
        return self.state_to_json(state) | {"seat": seat}

    def state_to_json(self, state: State) -> dict[str, Any]:
        return {
            "players": state.players, "rounds": state.rounds, "tile": state.tile,
            "pieces": [{"colour": p.colour, "kind": p.kind, "cell": list(p.cell)}
                       for p in state.pieces],
            "jails": [[list(j) for j in jail] for jail in state.jails],
            "turns": state.turns,
        }

    def state_from_json(self, data: dict[str, Any]) -> State:
        return State(
            players=data["players"], rounds=data["rounds"], tile=data["tile"],
            pieces=tuple(Piece(p["colour"], p["kind"], _cell(p["cell"]))
                         for p in data["pieces"]),
            jails=tuple(tuple((c, k) for c, k in jail) for jail in data["jails"]),
            turns=data["turns"],
        )

    def action_to_json(self, action: Action) -> dict[str, Any]:
        if isinstance(action, ChooseTile):
            return {"type": "tile", "tile": action.tile}
        if isinstance(action, Move):
            return {"type": "move", "piece": action.piece, "to": list(action.to),
                    "respawn": None if action.respawn is None else list(action.respawn)}
        if isinstance(action, Stay):
            return {"type": "stay", "piece": action.piece}
        return {"type": "rescue", "jail": action.jail, "slot": action.slot,
                "to": list(action.to)}

    def action_from_json(self, data: dict[str, Any]) -> Action:
        try:
            kind = data["type"]
            if kind == "tile":
                return ChooseTile(str(data["tile"]))
            if kind == "move":
                respawn = data.get("respawn")
                return Move(int(data["piece"]), _cell(data["to"]),
                            None if respawn is None else _cell(respawn))
            if kind == "stay":
                return Stay(int(data["piece"]))
            if kind == "rescue":
                return Rescue(int(data["jail"]), int(data["slot"]), _cell(data["to"]))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed action {data!r}: {exc}") from None
        raise ValueError(f"unknown action type {data.get('type')!r}")


CHESSBOARD_ENGINE = ChessboardEngine()
