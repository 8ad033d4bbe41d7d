"""Checking values read from a file against the declared types of the fields they fill.

The codec rebuilds registered records from any bytes; a file that puts a text where an
int belongs would reach the rules and crash them deep inside. `check_fields` checks each
value against its field's annotation before a record is made of it: int, str, bytes,
bool, float, Fraction, Decimal, UUID, datetime, None, unions of these, `tuple[X, ...]`
and fixed tuples, frozensets and sets, dicts, enums and registered records (their own
fields checked in turn). An `Any` field takes any value nested at most `codec.MAX_DEPTH`
levels. Annotations are resolved once per class and cached.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterator
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any
from uuid import UUID

from . import codec

_HINTS: dict[type, dict[str, Any]] = {}
_EXACT = (str, bytes, bool, Decimal, datetime, UUID)


class FieldTypeError(codec.CodecError):
    """A value read from a file does not have the type its field declares."""


def hints(cls: type) -> dict[str, Any]:
    """The resolved field annotations of a dataclass (cached); a field whose annotation
    cannot be resolved takes any value."""
    known = _HINTS.get(cls)
    if known is None:
        try:
            resolved = typing.get_type_hints(cls)
        except NameError:
            resolved = {}
        known = _HINTS[cls] = {f.name: resolved.get(f.name, Any) for f in dataclasses.fields(cls)}
    return known


def check_fields(cls: type, fields: dict[Any, Any], nullable: tuple[str, ...] = ()) -> None:
    """Raise FieldTypeError naming the first field of `fields` whose value is not of the
    type `cls` declares for it; the `nullable` fields may also be None (a redacted private
    part). Unknown names are left to the constructor."""
    declared = hints(cls)
    for name, value in fields.items():
        hint = declared.get(name)
        if hint is None or (value is None and name in nullable):
            continue
        problem = _mismatch(value, hint, 0)
        if problem is not None:
            raise FieldTypeError(f"{cls.__qualname__} field {name!r}: {problem}")


def _mismatch(value: Any, hint: Any, depth: int) -> str | None:
    """Why `value` is not a `hint`, or None when it is."""
    if depth > codec.MAX_DEPTH:
        return f"nested more than {codec.MAX_DEPTH} levels deep"
    if hint is Any:
        deep = not within_depth(value, depth)
        return f"nested more than {codec.MAX_DEPTH} levels deep" if deep else None
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        arms = [_mismatch(value, arm, depth) for arm in typing.get_args(hint)]
        return None if None in arms else f"{_shown(value)} is not {_name(hint)}"
    if origin is not None:
        return _container_mismatch(value, origin, typing.get_args(hint), depth)
    if _is_instance(value, hint):
        if dataclasses.is_dataclass(hint):
            return _record_mismatch(value, depth)
        return None
    return f"{_shown(value)} is not {_name(hint)}"


def _is_instance(value: Any, hint: Any) -> bool:
    if hint is None or hint is type(None):
        return value is None
    if hint is int:
        return type(value) is int
    if hint is float:
        return type(value) in (int, float)
    if hint is Fraction:
        return type(value) in (int, Fraction)
    if hint in _EXACT:
        return type(value) is hint
    return isinstance(hint, type) and isinstance(value, hint)  # an enum or a record


def _record_mismatch(value: Any, depth: int) -> str | None:
    declared = hints(type(value))
    for name, hint in declared.items():
        problem = _mismatch(getattr(value, name, None), hint, depth + 1)
        if problem is not None:
            return f"its field {name!r}: {problem}"
    return None


def _container_mismatch(value: Any, origin: Any, args: tuple[Any, ...], depth: int) -> str | None:
    if type(value) is not origin:
        return f"{_shown(value)} is not a {origin.__name__}"
    if origin is dict:
        key, item = args or (Any, Any)
        pairs = (p for k, v in value.items() for p in ((k, key), (v, item)))
        return _first(pairs, depth)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _first(((item, args[0]) for item in value), depth)
    if origin is tuple:
        if len(value) != len(args):
            return f"a tuple of {len(value)} items is not one of {len(args)}"
        return _first(zip(value, args, strict=True), depth)
    (item,) = args or (Any,)
    return _first(((v, item) for v in value), depth)


def _first(pairs: Iterator[tuple[Any, Any]], depth: int) -> str | None:
    for value, hint in pairs:
        problem = _mismatch(value, hint, depth + 1)
        if problem is not None:
            return problem
    return None


def within_depth(value: Any, depth: int = 0) -> bool:
    """Whether `value` nests at most MAX_DEPTH levels below `depth` (checked without
    recursion, so any depth is safe to measure)."""
    stack = [(value, depth)]
    while stack:
        item, level = stack.pop()
        if level > codec.MAX_DEPTH:
            return False
        if type(item) in (tuple, list, set, frozenset):
            stack += [(v, level + 1) for v in item]
        elif type(item) is dict:
            stack += [(v, level + 1) for pair in item.items() for v in pair]
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            stack += [(v, level + 1) for v in vars(item).values()]
    return True


def _name(hint: Any) -> str:
    return getattr(hint, "__name__", None) or repr(hint)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
