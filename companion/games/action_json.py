"""Actions (and any frozen record) to JSON and back: one codec every engine declares to.

An engine's actions are small frozen dataclasses; an action's JSON is one object whose
`type` names the action and whose other keys are its fields. Each engine used to write that
parser by hand, with its own wording for the same mistake. Here a field's type hint says how
its value is written and checked, and an engine declares only what a hint cannot say, with
`spelt(...)` in the field's metadata: a key that is not the field's name, (name, value) pairs
written as one object, None written as a word, a string from a fixed set, or the canonical
order the engine compares values in. A malformed action is one ValueError line naming the
action, the key and what its value must be.

Pure Python: the rules engines build on it. Each type's reader is built once (conformance
checks and benchmarks convert thousands of actions and states).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Generic, TypeVar

Action = TypeVar("Action")

_SPELLING = "json"
"""The dataclass field metadata key `spelt` fills."""


@dataclass(frozen=True)
class Spelling:
    """How one field is written where its type hint does not say it all."""

    key: str | None = None
    """The JSON key, when it is not the field's name."""
    as_object: bool = False
    """A tuple of (name, value) pairs written as one object; read back sorted by name."""
    none_as: str | None = None
    """None written as this word instead of null (a null is then refused)."""
    choices: tuple[str, ...] = ()
    """The only strings the field takes."""
    canonical: Callable[[Any], Any] | None = None
    """Applied to the value read: the form the engine compares values in (sorted hands...)."""


def spelt(
    *,
    key: str | None = None,
    as_object: bool = False,
    none_as: str | None = None,
    choices: Iterable[str] = (),
    canonical: Callable[[Any], Any] | None = None,
) -> dict[str, Spelling]:
    """Field metadata: `x: Cell = field(metadata=spelt(key="from"))`."""
    return {_SPELLING: Spelling(key, as_object, none_as, tuple(choices), canonical)}


def sorted_tuple(values: Iterable[Any]) -> tuple[Any, ...]:
    """The canonical form of a collection whose order means nothing."""
    return tuple(sorted(values))


class _Misfit(ValueError):
    """A value that does not fit its type; the field holding it says what was wanted."""


_Read = Callable[[Any], Any]


@dataclass(frozen=True)
class _Type:
    """How values of one type hint are read, and how they are named in a message."""

    read: _Read
    what: str  # "a whole number"
    plural: str  # "whole numbers"
    nullable: bool = False


def _scalar(kind: type, what: str, plural: str) -> _Type:
    def read(value: Any) -> Any:
        if type(value) is not kind:
            raise _Misfit
        return value

    return _Type(read, what, plural)


def _number(value: Any) -> float:
    if type(value) not in (int, float):
        raise _Misfit
    return float(value)


_SCALARS: dict[Any, _Type] = {
    int: _scalar(int, "a whole number", "whole numbers"),
    str: _scalar(str, "a string", "strings"),
    bool: _scalar(bool, "true or false", "trues or falses"),
    float: _Type(_number, "a number", "numbers"),
}


@cache
def _type(hint: Any) -> _Type:
    if hint in _SCALARS:
        return _SCALARS[hint]
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(hint)
        options = [_type(a) for a in args if a is not type(None)]
        nullable = type(None) in args
        return _union(options, nullable)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return _many(_type(args[0]))
        return _fixed([_type(a) for a in args])
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        record = _record(hint)
        return _Type(record.read_nested, record.what, f"objects with {record.keys}")
    raise TypeError(f"no JSON rule for {hint!r}")


def _union(options: list[_Type], nullable: bool) -> _Type:
    def read(value: Any) -> Any:
        if value is None and nullable:
            return None
        for option in options:
            try:
                return option.read(value)
            except _Misfit:
                continue
        raise _Misfit

    what = " or ".join([o.what for o in options] + (["null"] if nullable else []))
    plural = " or ".join([o.plural for o in options] + (["nulls"] if nullable else []))
    return _Type(read, what, plural, nullable)


def _many(item: _Type) -> _Type:
    def read(value: Any) -> Any:
        if not isinstance(value, list):
            raise _Misfit
        return tuple(item.read(v) for v in value)

    return _Type(read, f"a list of {item.plural}", f"lists of {item.plural}")


def _fixed(items: list[_Type]) -> _Type:
    def read(value: Any) -> Any:
        if not isinstance(value, list) or len(value) != len(items):
            raise _Misfit
        return tuple(item.read(v) for item, v in zip(items, value, strict=True))

    n = len(items)
    same = all(i.plural == items[0].plural for i in items)
    of = items[0].plural if same else "items"
    return _Type(read, f"a list of {n} {of}", f"lists of {n} {of}")


@dataclass(frozen=True)
class _Field:
    name: str
    key: str
    read: _Read
    what: str
    write: Callable[[Any], Any]
    default: Any  # dataclasses.MISSING: the key must be there


def _field(f: dataclasses.Field[Any], hint: Any) -> _Field:
    spelling: Spelling = f.metadata.get(_SPELLING, Spelling())
    kind = _type(hint)
    read, what = kind.read, kind.what
    write: Callable[[Any], Any] = to_json
    if spelling.as_object:
        value_type = _type(typing.get_args(typing.get_args(hint)[0])[1])
        read, what = _pairs(value_type), f"an object whose every value is {value_type.what}"
        write = _write_pairs
    if spelling.none_as is not None:
        read, what, write = _none_as(spelling.none_as, kind)
    if spelling.choices:
        read, what = _choice(spelling.choices), f"one of {', '.join(spelling.choices)}"
    if spelling.canonical is not None:
        read = _then(read, spelling.canonical)
    default: Any = f.default
    if f.default_factory is not dataclasses.MISSING:
        default = f.default_factory()
    elif default is dataclasses.MISSING and kind.nullable and spelling.none_as is None:
        default = None  # an optional field may be left out
    return _Field(f.name, spelling.key or f.name, read, what, write, default)


def _pairs(value_type: _Type) -> _Read:
    def read(value: Any) -> Any:
        if not isinstance(value, dict):
            raise _Misfit
        return tuple(sorted((k, value_type.read(v)) for k, v in value.items()))

    return read


def _write_pairs(pairs: Any) -> dict[str, Any]:
    return {k: to_json(v) for k, v in pairs}


def _none_as(word: str, kind: _Type) -> tuple[_Read, str, Callable[[Any], Any]]:
    def read(value: Any) -> Any:
        if value == word:
            return None
        if value is None:
            raise _Misfit
        return kind.read(value)

    def write(value: Any) -> Any:
        return word if value is None else to_json(value)

    return read, f'{kind.what.removesuffix(" or null")} or "{word}"', write


def _choice(choices: tuple[str, ...]) -> _Read:
    def read(value: Any) -> Any:
        if value not in choices or type(value) is not str:
            raise _Misfit
        return value

    return read


def _then(read: _Read, after: Callable[[Any], Any]) -> _Read:
    def then(value: Any) -> Any:
        got = read(value)
        return None if got is None else after(got)

    return then


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class _Record:
    """One dataclass's fields as JSON keys."""

    def __init__(self, cls: type) -> None:
        self.cls = cls
        hints = typing.get_type_hints(cls)
        self.fields = tuple(_field(f, hints[f.name]) for f in dataclasses.fields(cls))
        self.keys = ", ".join(f.key for f in self.fields)
        self.known = frozenset(f.key for f in self.fields)
        self.what = f"an object with {self.keys}" if self.fields else "an empty object"

    def write(self, value: Any) -> dict[str, Any]:
        return {f.key: f.write(getattr(value, f.name)) for f in self.fields}

    def read(self, data: Mapping[str, Any], where: str) -> Any:
        """The record in `data`; ValueError `where: 'key' must be ...` when it does not fit."""
        values: dict[str, Any] = {}
        for f in self.fields:
            if f.key not in data:
                if f.default is dataclasses.MISSING:
                    raise ValueError(f"{where}: missing {f.key!r}")
                values[f.name] = f.default
                continue
            raw = data[f.key]
            try:
                values[f.name] = f.read(raw)
            except _Misfit:
                raise ValueError(
                    f"{where}: {f.key!r} must be {f.what}, not {_short(raw)}"
                ) from None
        return self.cls(**values)

    def read_nested(self, data: Any) -> Any:
        if not isinstance(data, dict) or not self.known.issuperset(data):
            raise _Misfit
        try:
            return self.read(data, self.cls.__name__)
        except ValueError:
            raise _Misfit from None


@cache
def _record(cls: type) -> _Record:
    return _Record(cls)


def to_json(value: Any) -> Any:
    """A value made of scalars, tuples and dataclasses as plain JSON: tuples become lists,
    records objects (keys and spellings as their fields declare)."""
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _record(type(value)).write(value)
    return value


def from_json(hint: Any, data: Any) -> Any:
    """`data` read as the type `hint`; ValueError with one line when it does not fit."""
    kind = _type(hint)
    try:
        return kind.read(data)
    except _Misfit:
        raise ValueError(f"expected {kind.what}, not {_short(data)}") from None


class ActionCodec(Generic[Action]):
    """One engine's actions by their JSON `type`: `{"type": "pick", "seat": 0, ...}`."""

    def __init__(
        self, game: str, kinds: Mapping[str, type[Action]], *, refuse_unknown: bool = False
    ) -> None:
        """`kinds` names each action class; `refuse_unknown`: a key no field has is an error
        (otherwise passed over, as an older log may carry one)."""
        self.game = game
        self.kinds = dict(kinds)
        self.names = {cls: name for name, cls in kinds.items()}
        self.refuse_unknown = refuse_unknown

    def to_json(self, action: Action) -> dict[str, Any]:
        name = self.names.get(type(action))
        if name is None:
            raise TypeError(f"not a {self.game} action: {action!r}")
        cls: type = self.kinds[name]
        return {"type": name, **_record(cls).write(action)}

    def from_json(self, data: Any) -> Action:
        """The action `data` describes; ValueError with a one-line reason when malformed."""
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise ValueError(f'an action is a JSON object with a "type", not {_short(data)}')
        kind = data["type"]
        cls: type | None = self.kinds.get(kind)
        if cls is None:
            raise ValueError(
                f"unknown {self.game} action type {kind!r} (one of {', '.join(self.kinds)})"
            )
        record = _record(cls)
        if self.refuse_unknown:
            unknown = set(data) - record.known - {"type"}
            if unknown:
                raise ValueError(f"{kind}: unknown key(s) {', '.join(sorted(unknown))}")
        action: Action = record.read(data, kind)
        return action
