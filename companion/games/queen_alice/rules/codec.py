"""Frozen dataclasses to JSON and back, led by their type hints.

Queen Alice's state is many small frozen records; writing a to/from pair for each would be
most of the code and a place for the two to drift apart. The types say everything: tuples
become lists, records become objects, and `from_json` rebuilds exactly what `to_json` wrote.
Each type's decoder is built once (the conformance check and the benchmark convert states
thousands of times).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, cast

_SCALARS = (int, str, bool, float, type(None))


@cache
def _names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


def to_json(value: Any) -> Any:
    kind: type = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple or kind is list:
        return [to_json(v) for v in value]
    return {name: to_json(getattr(value, name)) for name in _names(kind)}


def from_json(kind: Any, data: Any) -> Any:
    """`data` as an instance of the type `kind`; ValueError when it does not fit."""
    return _decoder(kind)(data)


def _scalar(kind: type) -> Callable[[Any], Any]:
    def decode(data: Any) -> Any:
        if type(data) is not kind:
            raise ValueError(f"expected {kind.__name__}, got {data!r}")
        return data

    return decode


@cache
def _decoder(kind: Any) -> Callable[[Any], Any]:
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        options = [_decoder(o) for o in typing.get_args(kind) if o is not type(None)]
        nullable = type(None) in typing.get_args(kind)

        def union(data: Any) -> Any:
            if data is None and nullable:
                return None
            for option in options:
                try:
                    return option(data)
                except (ValueError, TypeError):
                    continue
            raise ValueError(f"{data!r} fits none of {kind}")

        return union
    if origin is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])

            def many(data: Any) -> Any:
                if not isinstance(data, list):
                    raise ValueError(f"expected a list, got {data!r}")
                return tuple(item(v) for v in data)

            return many
        items = [_decoder(a) for a in args]

        def fixed(data: Any) -> Any:
            if not isinstance(data, list) or len(data) != len(items):
                raise ValueError(f"expected {len(items)} items, got {data!r}")
            return tuple(f(v) for f, v in zip(items, data, strict=True))

        return fixed
    if dataclasses.is_dataclass(kind):
        cls = cast(type, kind)  # a type hint: a dataclass type, never an instance
        hints = typing.get_type_hints(cls)
        names = _names(cls)
        fields = {n: _decoder(hints[n]) for n in names}

        def record(data: Any) -> Any:
            if not isinstance(data, dict):
                raise ValueError(f"expected an object for {cls.__name__}, got {data!r}")
            unknown = set(data) - fields.keys()
            if unknown:
                raise ValueError(f"{cls.__name__}: unknown field(s) {sorted(unknown)}")
            return cls(**{k: fields[k](v) for k, v in data.items()})

        return record
    if kind in (int, str, bool):
        return _scalar(kind)
    raise TypeError(f"no JSON rule for {kind!r}")
