"""`companion serve`: the camera, the live loop and the dashboard in one process.

The port is bound before anything starts, so "port in use" and "camera absent" are one
line each and exit 2, never a traceback from deep inside uvicorn or a driver.
"""

from __future__ import annotations

import argparse
import errno
import logging
import socket
import sys
from pathlib import Path
from types import FrameType
from typing import Any

from companion.cli_args import CommandParser
from companion.config import load_settings
from companion.errors import UserError
from companion.games import get_game
from companion.web.auth import (
    ADMIN_LINK_FILE,
    is_loopback_host,
    public_base_url,
    show_admin_link,
    write_admin_link,
)

GRACEFUL_S = 2
"""Open MJPEG/SSE streams get this long to finish on Ctrl-C before they are cut."""


def _parser() -> argparse.ArgumentParser:
    p = CommandParser(
        prog="companion serve",
        description="Run the live service: camera, perception, store and the web dashboard.",
    )
    p.add_argument("--host", help="address to listen on (default 127.0.0.1; 0.0.0.0 for the LAN)")
    p.add_argument("--port", type=int, help="TCP port (default 8000; 0 picks a free one)")
    p.add_argument("--camera", help="sim, replay:PATH, opencv:N, opencv:/dev/videoN or picamera2")
    p.add_argument("--game", help="the game at the table (default: the config's `game`)")
    p.add_argument("--data-dir", type=Path, help="where the store, snapshots and tokens live")
    p.add_argument("--config", type=Path, help="a TOML settings file")
    p.add_argument("--fps", type=float, help="camera frames per second")
    p.add_argument("-v", "--verbose", action="store_true", help="log what the service does")
    return p


def bind_socket(host: str, port: int) -> socket.socket:
    """Bind now so a taken port is a clear error before the camera is touched."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise UserError(f"port {port} is in use; choose another with --port") from None
        if exc.errno in (errno.EACCES, errno.EPERM):
            raise UserError(f"no permission to use port {port}; choose one above 1024") from None
        raise UserError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def limit_heap_growth() -> bool:
    """Keep the long-running service's memory flat (glibc only; False elsewhere).

    Every camera frame is a few MB of numpy array, made and freed by three threads. glibc
    raises its mmap threshold after the first such frees, so later frames come from per-thread
    heaps that fragment and are not given back: the benchmark's game on the sim camera grew
    past 350 MB resident within two minutes. A fixed threshold (large arrays mapped and
    unmapped) and two arenas keep it under 240 MB (benchmarks/live_server_memory.py)."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    m_mmap_threshold, m_arena_max = -3, -8
    return bool(mallopt(m_mmap_threshold, 128 * 1024)) and bool(mallopt(m_arena_max, 2))


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    limit_heap_growth()
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    settings = load_settings(
        args.config,
        {
            "web.host": args.host,
            "web.port": args.port,
            "camera.source": args.camera,
            "camera.fps": args.fps,
            "game": args.game,
            "data_dir": args.data_dir,
        },
    )
    get_game(settings.game)
    sock = bind_socket(settings.web.host, settings.web.port)
    port = sock.getsockname()[1]
    # The heavy imports come after the cheap checks, so a mistake is reported at once.
    import uvicorn

    from companion.live.loop import Runtime
    from companion.web.app import create_app

    runtime = Runtime(settings)
    try:
        runtime.check_camera()
    except UserError as exc:
        sock.close()
        raise UserError(f"camera {settings.camera.source!r}: {exc}") from None
    runtime.start()
    try:
        app = create_app(settings, runtime)
        if is_loopback_host(settings.web.host):
            host = settings.web.host if ":" not in settings.web.host else f"[{settings.web.host}]"
            print(f"companion: serving {settings.game} on http://{host}:{port}/", flush=True)
        else:
            link = write_admin_link(settings, runtime.store, port)
            print(
                f"companion: serving {settings.game} on {public_base_url(settings, port)}/",
                flush=True,
            )
            show_admin_link(link, settings.data_dir / ADMIN_LINK_FILE)
        server = _server(
            uvicorn.Config(
                app,
                log_level="info" if args.verbose else "warning",
                timeout_graceful_shutdown=GRACEFUL_S,
                access_log=args.verbose,
            ),
            runtime,
        )
        server.run(sockets=[sock])
    finally:
        runtime.stop()
        sock.close()
    print("companion: stopped", file=sys.stderr, flush=True)
    return 0


def _server(config: Any, runtime: Any) -> Any:
    """uvicorn's server, ending the runtime's streams as soon as a stop is asked for, so
    open MJPEG and SSE viewers do not hold Ctrl-C up."""
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            super().handle_exit(sig, frame)
            runtime.frames.close()
            runtime.changes.close()

    return Server(config)
