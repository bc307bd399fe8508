"""Pickling a game for a checkpoint, including the read-only mappings frozen states use.

A frozen game state often keeps its tables as `types.MappingProxyType` (read-only views of
a dict), which the standard pickler refuses ("cannot pickle 'mappingproxy' object"): a
game's table then kept no checkpoint at all, and every restart replayed every
event. A proxy is pickled here as its dict and restored read-only, with this pickler only
(the global `copyreg` table is left alone).
"""

from __future__ import annotations

import copyreg
import io
import pickle
from types import MappingProxyType
from typing import Any


def read_only(items: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    """Rebuilds a pickled proxy (module level, so a checkpoint can name it)."""
    return MappingProxyType(items)


def _reduce_proxy(proxy: MappingProxyType[Any, Any]) -> tuple[Any, tuple[dict[Any, Any]]]:
    return read_only, (dict(proxy),)


def dumps(game: Any) -> bytes:
    """The game as checkpoint bytes (raises what pickle raises for anything else)."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {**copyreg.dispatch_table, MappingProxyType: _reduce_proxy}
    pickler.dump(game)
    return buffer.getvalue()


def loads(blob: bytes) -> Any:
    return pickle.loads(blob)
