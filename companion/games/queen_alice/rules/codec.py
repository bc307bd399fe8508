"""Frozen dataclasses to JSON and back, led by their type hints.

Queen Alice's state is many small frozen records; writing a to/from pair for each would be
most of the code and a place for the two to drift apart. The types say everything: tuples
become lists, records become objects, and `from_json` rebuilds exactly what `to_json` wrote.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def to_json(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    return value


def from_json(kind: Any, data: Any) -> Any:
    """`data` as an instance of the type `kind`; ValueError when it does not fit."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(kind)
        if data is None and type(None) in options:
            return None
        for option in options:
            if option is type(None):
                continue
            try:
                return from_json(option, data)
            except (ValueError, TypeError):
                continue
        raise ValueError(f"{data!r} fits none of {kind}")
    if origin is tuple:
        args = typing.get_args(kind)
        if not isinstance(data, list):
            raise ValueError(f"expected a list, got {data!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_json(args[0], v) for v in data)
        if len(args) != len(data):
            raise ValueError(f"expected {len(args)} items, got {data!r}")
        return tuple(from_json(a, v) for a, v in zip(args, data, strict=True))
    if dataclasses.is_dataclass(kind):
        if not isinstance(data, dict):
            raise ValueError(f"expected an object for {kind.__name__}, got {data!r}")
        hints = _hints(kind)
        names = {f.name for f in dataclasses.fields(kind)}
        if set(data) - names:
            raise ValueError(f"{kind.__name__}: unknown field(s) {sorted(set(data) - names)}")
        return kind(**{k: from_json(hints[k], v) for k, v in data.items()})
    if kind is bool:
        if not isinstance(data, bool):
            raise ValueError(f"expected true/false, got {data!r}")
        return data
    if kind is int:
        if not isinstance(data, int) or isinstance(data, bool):
            raise ValueError(f"expected a whole number, got {data!r}")
        return data
    if kind is str:
        if not isinstance(data, str):
            raise ValueError(f"expected a string, got {data!r}")
        return data
    raise TypeError(f"no JSON rule for {kind!r}")
