"""`GET /api/health`: is the camera up, how fast is perception, does the table register."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from companion.web.deps import RuntimeDep

router = APIRouter(prefix="/api", tags=["health"])


class CameraHealth(BaseModel):
    state: str
    """starting, ok, reconnecting or stopped."""
    fps: float
    frames: int
    errors: int
    last_error: str | None
    since_s: float
    """Seconds in the current state."""
    source: str


class PerceptionHealth(BaseModel):
    fps: float
    ms: float | None
    """Median milliseconds per frame (registration + the game's perceiver + overlay)."""
    frames: int
    stages_ms: dict[str, float | None]
    """Median ms of each stage: registration (markers + warp), game (its perceiver),
    view (overlay, scaling and the one JPEG encode for every viewer)."""


class TableHealth(BaseModel):
    """Where the table is, as the newest annotated frame shows it: the same object the
    frame's overlay line was drawn from (`companion.live.table_status`)."""

    frame: int
    """The annotated frame this describes (`X-Frame` of `/api/snapshot.jpg`; 0: none yet)."""
    registered: bool
    """The table (or the game's own board) has been located (now, or earlier and held)."""
    held: bool
    """Too few markers in this frame: the last good position is being held."""
    markers_seen: list[int]
    """Ids of the markers the game locates its table by, found in that frame."""
    expected: int
    """How many such markers there are (the table's corners, or a game board's own)."""
    summary: str
    """`4/4`, `3/4 (held)` or `1/4 (no table)`: the words of the status bar and overlay."""


class GameHealth(BaseModel):
    id: str
    session: str
    errors: int
    last_error: str | None


class StorageHealth(BaseModel):
    state: str
    """ok, or degraded while writes fail (a full disk): the game waits, nothing is lost."""
    reason: str | None
    free_mb: float | None
    notice: str | None
    """Set when start-up found the database damaged and moved it aside."""


class Health(BaseModel):
    status: str
    """ok; a camera state (starting, reconnecting, stopped); or `degraded: storage`."""
    storage: StorageHealth
    version: str
    uptime_s: float
    camera: CameraHealth
    perception: PerceptionHealth
    table: TableHealth
    game: GameHealth


@router.get("/health", response_model=Health)
def health(runtime: RuntimeDep) -> Health:
    return Health.model_validate(runtime.health())
