"""Games, sessions, seat links and the caller's view of the table."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from companion.games import GAMES
from companion.live.table_game import game_part
from companion.web.auth import Caller, CallerDep, require_admin
from companion.web.deps import RuntimeDep
from companion.web.static_files import panel_for, panel_style_of

router = APIRouter(prefix="/api", tags=["session"])

AdminDep = Annotated[Caller, Depends(require_admin)]


class GameEntry(BaseModel):
    id: str
    title: str
    min_players: int
    max_players: int
    players: str
    """How many play, in words ("2 players", "2-4 players")."""
    rules: bool
    """Has a rules engine."""
    table: bool
    """Playable at the table: has a live perceiver/tracker (else the demo view)."""
    panel: bool
    """Has a dashboard panel."""
    panel_css: bool = False
    """Its panel has its own stylesheet."""


class SessionOut(BaseModel):
    id: str
    game: str
    options: dict[str, Any]
    seats: list[str]
    created: float
    ended: float | None


class NewSession(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(min_length=1, max_length=64)
    variant: str | None = Field(None, max_length=64)
    """Shorthand for options["variant"]."""
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[Annotated[str, Field(max_length=40)]] | None = Field(None, max_length=12)
    """Seat names in seat order; default: the game's minimum of "Player 1", "Player 2", ..."""


class SeatLink(BaseModel):
    seat: int
    name: str
    url: str
    token: str | None
    """None when bound to loopback (no tokens there; the link selects the seat by number)."""


class SessionCreated(BaseModel):
    session: SessionOut
    links: list[SeatLink]


class StateOut(BaseModel):
    session: SessionOut
    seat: int | None
    role: str
    """local, admin, seat or spectator."""
    last_seq: int
    view: dict[str, Any]
    """The game's view for this seat: public information plus this seat's own secrets."""


def _game_entry(gid: str) -> GameEntry:
    info = GAMES[gid]
    live = game_part(gid, "live")
    panel = panel_for(gid)
    return GameEntry(
        id=gid,
        title=info.title,
        min_players=info.min_players,
        max_players=info.max_players,
        players=info.players,
        rules=game_part(gid, "rules") is not None,
        table=live is not None,
        panel=panel is not None,
        panel_css=panel_style_of(panel) is not None,
    )


@router.get("/games", response_model=list[GameEntry])
def games() -> list[GameEntry]:
    return [_game_entry(gid) for gid in GAMES]


@router.get("/session", response_model=SessionOut)
def current_session(runtime: RuntimeDep) -> SessionOut:
    return SessionOut(**runtime.session.to_json())


def seat_links(request: Request, runtime: Any) -> list[SeatLink]:
    session = runtime.session
    base = str(request.base_url).rstrip("/")
    if request.app.state.auth.open:
        return [
            SeatLink(seat=i, name=name, url=f"{base}/?seat={i}", token=None)
            for i, name in enumerate(session.seats)
        ]
    tokens = runtime.store.seat_tokens(session.id, len(session.seats))
    return [
        SeatLink(seat=i, name=name, url=f"{base}/?token={tokens[i]}", token=tokens[i])
        for i, name in enumerate(session.seats)
    ]


@router.post("/session", response_model=SessionCreated, status_code=201)
def new_session(
    body: NewSession, request: Request, runtime: RuntimeDep, who: AdminDep
) -> SessionCreated:
    """End the current game and start another; answers with one link per seat."""
    options = dict(body.options)
    if body.variant is not None:
        options["variant"] = body.variant
    session = runtime.start_session(body.game, options, body.seats)
    out = SessionOut(**session.to_json())
    return SessionCreated(session=out, links=seat_links(request, runtime))


@router.get("/session/links", response_model=list[SeatLink])
def links(request: Request, runtime: RuntimeDep, who: AdminDep) -> list[SeatLink]:
    """The seat links of the current session again (admin only), e.g. for a late phone."""
    return seat_links(request, runtime)


@router.get("/state", response_model=StateOut)
def state(runtime: RuntimeDep, who: CallerDep) -> StateOut:
    data = runtime.state(who.seat)
    return StateOut(
        session=SessionOut(**data["session"]),
        seat=who.seat,
        role=who.role,
        last_seq=data["last_seq"],
        view=data["view"],
    )
