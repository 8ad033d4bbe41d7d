"""Canonical msgpack encoding of engine values.

One encoding serves the store, the log files and the hash chain, so it must be exact and
deterministic:

* tuples are msgpack arrays and arrays decode as tuples (state is immutable; a list is
  stored as a tuple);
* maps keep any hashable key (ints stay ints) and are written with keys sorted by their
  encoded bytes, so equal maps always give equal bytes;
* a registered frozen dataclass is an array: an extension-type marker holding its stable
  topic (never the Python module path, so moving a class never breaks an old log), then
  its field values in declared order (new fields may only be appended, with defaults);
  the marker lets the decoder rebuild the object without a nested decoding pass. A field
  declared with `added(default)` was appended after values of its class were first
  written: while it holds its default it is left out, so old values keep their bytes (and
  the chain hashes that cover them);
* registered enums are an extension type holding (topic, value);
* UUIDs, datetimes, Decimals, Fractions, sets and frozensets have extension types too.

The record and `frozen` classes are made, and `replace`d, by engine/_records.py: a fast
layer, or plain dataclasses with WARSCRIBE_PLAIN_DATACLASSES=1 (the same bytes either way).

Bytes from a file are untrusted: decoding them raises CodecError and nothing else (a bad
extension payload, an unknown topic or enum value, a dataclass array of the wrong length),
and values nest at most `MAX_DEPTH` levels, in the decoder and in the encoder alike.
"""

from __future__ import annotations

import dataclasses
import enum
import threading
from bisect import bisect_right
from collections.abc import Callable, Mapping
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar, dataclass_transform
from uuid import UUID

import msgpack

from ._records import FIELDS as _FIELDS
from ._records import PLAIN as _PLAIN
from ._records import field_values as field_values
from ._records import frozen_dataclass as _frozen_dataclass
from ._records import new as _new
from ._records import replace as replace
from ._records import set_dict as _set_dict

if TYPE_CHECKING:  # the entry's layout is the record's (`peek_entry`)
    from .record import Peeked

EXT_DATACLASS = 1
EXT_ENUM = 2
EXT_UUID = 3
EXT_DATETIME = 4
EXT_DECIMAL = 5
EXT_FRACTION = 6
EXT_SET = 7
EXT_FROZENSET = 8

MAX_DEPTH = 64
"""The deepest nesting of containers a value may have (deeper is refused, never a crash)."""

_TOPICS: dict[str, type] = {}
_NAMES: dict[type, str] = {}
_ADDED: dict[type, tuple[tuple[str, Any], ...]] = {}

T = TypeVar("T")
V = TypeVar("V")


class CodecError(ValueError):
    """A value cannot be encoded, or bytes cannot be decoded."""


def register(topic: str) -> Callable[[type[T]], type[T]]:
    """Register a frozen dataclass or an enum under a stable topic name."""

    def decorate(cls: type[T]) -> type[T]:
        known = _TOPICS.get(topic)
        if known is not None and known is not cls:
            raise CodecError(f"topic {topic!r} is already registered to {known.__qualname__}")
        _TOPICS[topic] = cls
        _NAMES[cls] = topic
        if dataclasses.is_dataclass(cls):
            _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
            _ADDED[cls] = added_fields(cls)
        return cls

    return decorate


@dataclass_transform(frozen_default=True)
def record(topic: str) -> Callable[[type[T]], type[T]]:
    """Declare an immutable value type: a frozen dataclass registered under `topic`."""

    def decorate(cls: type[T]) -> type[T]:
        return register(topic)(_frozen_dataclass(cls))

    return decorate


@dataclass_transform(frozen_default=True)
def frozen(cls: type[T]) -> type[T]:
    """Declare an immutable value type that is never encoded (a rule set's table row, a
    command's spec): a frozen dataclass made as cheaply as a `record`, unregistered."""
    return _frozen_dataclass(cls)


def canonical_fields(obj: Any, leave_out: tuple[str, ...] = (), depth: int = 0) -> dict[str, Any]:
    """The map of a record's fields but `leave_out`, in canonical form, as `encode` makes
    it of the map `field_values` gives less those at `depth` inside a value: its keys in
    the codec's order, its values canonical, and an added field (`added`) that holds its
    default left out (`without_defaults`). The keys' order is worked out once per class;
    the chain hashes every entry's public fields so (`record.canonical_bytes`), and a
    verify reads thousands."""
    cls = type(obj)
    layout = _LAYOUTS.get((cls, leave_out))
    if layout is None:
        if cls not in _FIELDS:
            values = {k: v for k, v in field_values(obj).items() if k not in leave_out}
            found: dict[str, Any] = _canonical(without_defaults(cls, values), depth)
            return found
        layout = _LAYOUTS[(cls, leave_out)] = _layout(cls, leave_out)
    if depth >= MAX_DEPTH:
        raise CodecError(f"a value is nested more than {MAX_DEPTH} levels deep")
    order, extra = layout
    values = obj.__dict__
    inner = depth + 1
    fields = {
        name: value if type(value) not in _CONTAINERS else _canonical(value, inner)
        for name, value in zip(order, map(values.__getitem__, order), strict=True)
    }
    for name, default in extra:
        if values[name] == default:
            del fields[name]
    return fields


_LAYOUTS: dict[
    tuple[type, tuple[str, ...]], tuple[tuple[str, ...], tuple[tuple[str, Any], ...]]
] = {}
"""Per record class and fields left out: the other fields in the codec's key order, and the
added ones among them with their defaults (`canonical_fields`)."""


def _layout(
    cls: type, leave_out: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[tuple[str, Any], ...]]:
    names = [name for name in _FIELDS[cls] if name not in leave_out]
    order = tuple(sorted_map(dict.fromkeys(names)))
    added = _ADDED.get(cls, ())
    return order, tuple((name, default) for name, default in added if name in order)


def added(default: Any) -> Any:
    """Declare a field appended to a class whose values were already written: left out of
    the encoding while it holds `default`, so values written before keep their bytes."""
    return dataclasses.field(default=default, metadata={"added": True})


def added_fields(cls: type) -> tuple[tuple[str, Any], ...]:
    """(name, default) of the fields of `cls` declared with `added`, in order; they must
    come last."""
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields if f.metadata.get("added")]
    if names and [f.name for f in fields[-len(names) :]] != names:
        raise CodecError(f"{cls.__qualname__}: fields declared with added() must come last")
    return tuple((f.name, f.default) for f in fields if f.metadata.get("added"))


def without_defaults(cls: type, values: dict[str, Any]) -> dict[str, Any]:
    """`values` (a field map of `cls`) without the added fields that hold their default."""
    extra = _ADDED.get(cls)
    if not extra:
        return values
    return {k: v for k, v in values.items() if not any(k == n and v == d for n, d in extra)}


def topic_of(cls: type) -> str:
    try:
        return _NAMES[cls]
    except KeyError:
        raise CodecError(f"{cls.__qualname__} is not registered with the codec") from None


def registered(prefix: str) -> dict[str, type]:
    """The types registered under a topic beginning with `prefix` (`dr.`: a game's)."""
    return {topic: cls for topic, cls in _TOPICS.items() if topic.startswith(prefix)}


def resolve(topic: str) -> type:
    if type(topic) is not str:
        raise CodecError(f"a topic must be text, not {topic!r}")
    cls = _TOPICS.get(topic)
    if cls is None:
        from .rulesets import load_topic

        load_topic(topic)
        cls = _TOPICS.get(topic)
    if cls is None:
        raise CodecError(f"unknown topic {topic!r}")
    return cls


def sorted_map(value: dict[Any, Any]) -> dict[Any, Any]:
    """The map with its keys in the order of their encoded bytes (the canonical order: a
    decoded map has it, so a state whose rules read a map in its order keeps it too)."""
    if len(value) < 2:
        return value
    keys = list(value)
    if set(map(type, keys)) == _TEXT:  # text, and no subclass of it (a StrEnum encodes apart)
        if "".join(keys).isascii():
            # as many bytes as characters, in the same order: by length, then text
            ordered = sorted(keys)
            ordered.sort(key=len)
        else:
            ordered = sorted(keys, key=_text_order)
    else:
        ordered = sorted(keys, key=lambda k: _packb(_canonical(k)))
    if ordered == keys:  # the same keys: equal only where they are the same key
        return value
    placed = dict.fromkeys(ordered)
    placed.update(value)
    return placed


_TEXT = {str}


def sorted_map_with(ordered: dict[str, V], entries: Mapping[str, V]) -> dict[str, V]:
    """`ordered`, a map of text keys in the codec's order, with `entries` set: a key it
    lacks is put in its place by bisection (what `sorted_map` of the merged map gives,
    without sorting every key again: a unit entering play, issue 14)."""
    merged = {**ordered, **entries}
    if len(merged) == len(ordered):
        return merged
    added = entries.keys() - ordered.keys()
    if not all(type(key) is str for key in added):
        return sorted_map(merged)
    keys = list(ordered)
    for key in sorted(added, key=_text_order):
        keys.insert(bisect_right(keys, _text_order(key), key=_text_order), key)
    placed: dict[str, Any] = dict.fromkeys(keys)
    placed.update(merged)
    return placed


def _text_order(key: str) -> tuple[int, bytes]:
    """Where a text key's encoding sorts among other text keys', without encoding it: a
    msgpack string is a header holding its UTF-8 length, shorter first at every size
    (fixstr 0xa0|n, then 0xd9 n, 0xda nn, 0xdb nnnn), then its UTF-8 bytes."""
    data = key.encode()
    return len(data), data


def _canonical(obj: Any, depth: int = 0) -> Any:
    """Sort the keys of every map inside plain containers (dataclasses sort their own).
    A value that is no container is itself: it is passed over without a call (a head
    holds thousands of them)."""
    cls = type(obj)
    if cls not in _CONTAINERS:
        return obj
    if depth >= MAX_DEPTH:
        raise CodecError(f"a value is nested more than {MAX_DEPTH} levels deep")
    depth += 1
    if cls is dict:
        return {
            k: v if type(v) not in _CONTAINERS else _canonical(v, depth)
            for k, v in sorted_map(obj).items()
        }
    return [item if type(item) not in _CONTAINERS else _canonical(item, depth) for item in obj]


_CONTAINERS = frozenset((dict, tuple, list))
_MARKER_EXTS: dict[type, msgpack.ExtType] = {}
"""The encoded marker of each record class met (an ExtType is immutable: made once)."""


def _default(obj: Any) -> Any:
    cls = type(obj)
    if cls is tuple:
        return list(obj)
    topic = _NAMES.get(cls)
    if topic is not None:
        if isinstance(obj, enum.Enum):
            return msgpack.ExtType(EXT_ENUM, _packb((topic, obj.value)))
        values = obj.__dict__
        marker = _MARKER_EXTS.get(cls) or _marker_of(cls)
        names = _FIELDS[cls]
        extra = _ADDED[cls]
        if extra:
            count = len(names)
            for name, default in reversed(extra):
                if values[name] != default:
                    break
                count -= 1
            names = names[:count]
        return [
            marker,
            *[
                v if type(v) not in _CONTAINERS else _canonical(v)
                for v in map(values.__getitem__, names)
            ],
        ]
    if cls is UUID:
        return msgpack.ExtType(EXT_UUID, obj.bytes)
    if cls is datetime:
        return msgpack.ExtType(EXT_DATETIME, obj.isoformat().encode())
    if cls is Decimal:
        return msgpack.ExtType(EXT_DECIMAL, str(obj).encode())
    if cls is Fraction:
        return msgpack.ExtType(EXT_FRACTION, f"{obj.numerator}/{obj.denominator}".encode())
    if cls is frozenset or cls is set:
        pack = _packer().pack  # one packer for the set's items (it packs one at a time)
        items = sorted([pack(_canonical(item)) for item in obj])
        code = EXT_FROZENSET if cls is frozenset else EXT_SET
        return msgpack.ExtType(code, b"".join(items))
    raise CodecError(f"cannot encode a value of type {cls.__qualname__}: {obj!r}")


class _Marker:
    """A decoded dataclass marker: the class the rest of its array builds, and how."""

    __slots__ = ("cls", "count", "fields", "plain")

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.fields = _FIELDS[cls]
        self.count = len(self.fields) + 1
        self.plain = cls in _PLAIN


_MARKERS: dict[bytes, _Marker] = {}


def _marker(data: bytes) -> _Marker:
    marker = _MARKERS.get(data)
    if marker is None:
        marker = _MARKERS[data] = _Marker(resolve(data.decode()))
    return marker


def _list_hook(items: Any) -> Any:
    """An array: a registered dataclass when it starts with its marker. Replay decodes
    every entry of a game: a record is built by its own __init__ (one precompiled code
    object that sets its fields, the fastest way there is); another dataclass with all
    its fields gets them set directly, without its __init__."""
    if not items or type(items[0]) is not _Marker:
        return items
    marker = items[0]
    try:
        if marker.plain or len(items) != marker.count:
            return marker.cls(*items[1:])
        obj: Any = _new(marker.cls)
        _set_dict(obj, "__dict__", dict(zip(marker.fields, items[1:], strict=True)))
        return obj
    except Exception as exc:
        raise CodecError(f"bad value of {marker.cls.__qualname__}: {exc}") from None


class _Nesting(threading.local):
    """How many extension payloads the decoder of this thread is inside."""

    depth = 0


_NESTING = _Nesting()


def _ext_hook(code: int, data: bytes) -> Any:
    """The value of an extension payload; CodecError (only) when it is bad. Only enums and
    sets decode values nested in their payload, and count towards MAX_DEPTH; a dataclass
    marker already seen (replay reads thousands) is looked up at once."""
    if code == EXT_DATACLASS:
        marker = _MARKERS.get(data)
        if marker is not None:
            return marker
    elif code == EXT_DATETIME:  # every stored entry has its timestamp
        try:
            return _from_iso(data.decode())
        except (UnicodeDecodeError, ValueError) as exc:
            raise CodecError(f"bad extension value (type {code}): {exc}") from None
    elif code == EXT_FROZENSET and not data:  # an empty set (a head holds several)
        return _EMPTY
    elif code in _NESTING_CODES:
        if _NESTING.depth >= MAX_DEPTH:
            raise CodecError(f"extension values are nested more than {MAX_DEPTH} levels deep")
        _NESTING.depth += 1
        try:
            return _checked_extension(code, data)
        finally:
            _NESTING.depth -= 1
    return _checked_extension(code, data)


_NESTING_CODES = frozenset((EXT_ENUM, EXT_SET, EXT_FROZENSET))
_EMPTY: frozenset[Any] = frozenset()
_from_iso = datetime.fromisoformat


def _checked_extension(code: int, data: bytes) -> Any:
    try:
        return _extension(code, data)
    except CodecError:
        raise
    except Exception as exc:
        raise CodecError(
            f"bad extension value (type {code}): {type(exc).__name__}: {exc}"
        ) from None


def _extension(code: int, data: bytes) -> Any:
    if code == EXT_DATACLASS:
        return _marker(data)
    if code == EXT_ENUM:
        topic, value = _unpackb(data)
        cls = resolve(topic)
        if not (isinstance(cls, type) and issubclass(cls, enum.Enum)):
            raise CodecError(f"{topic!r} is not an enum")
        return cls(value)
    if code == EXT_UUID:
        return UUID(bytes=data)
    if code == EXT_DECIMAL:
        return Decimal(data.decode())
    if code == EXT_FRACTION:
        return Fraction(data.decode())
    if code in (EXT_SET, EXT_FROZENSET):
        decoder = unpacker()
        decoder.feed(data)
        items = list(decoder)
        return frozenset(items) if code == EXT_FROZENSET else set(items)
    raise CodecError(f"unknown extension type {code}")


def _marker_of(cls: type) -> msgpack.ExtType:
    """The marker a registered record's array begins with (made once per class)."""
    marker = _MARKER_EXTS[cls] = msgpack.ExtType(EXT_DATACLASS, _NAMES[cls].encode())
    return marker


def record_prefix(cls: type) -> tuple[bytes, int]:
    """How a record of the registered class `cls` encoded with all its fields begins (its
    array's header, then its marker), and how many fields follow: a reader that needs only
    some fields of a record it recognises by these bytes skips the others unread."""
    count = len(_FIELDS[cls])
    packer = _packer()
    return packer.pack_array_header(count + 1) + packer.pack(_marker_of(cls)), count


def _packer() -> msgpack.Packer:
    return msgpack.Packer(default=_default, strict_types=True, use_bin_type=True)


def _packb(obj: Any) -> bytes:
    packed: bytes = _packer().pack(obj)
    return packed


def _unpackb(data: bytes | memoryview) -> Any:
    return msgpack.unpackb(
        data,
        ext_hook=_ext_hook,
        list_hook=_list_hook,
        use_list=False,
        strict_map_key=False,
        raw=False,
    )


def encode(obj: Any) -> bytes:
    """The canonical bytes of `obj`."""
    try:
        return _packb(_canonical(obj))
    except (TypeError, ValueError, OverflowError) as exc:
        raise CodecError(str(exc)) from exc


def encode_canonical(value: Any) -> bytes:
    """The bytes of a value already in canonical form (`canonical_fields`, plain values and
    lists of them): what `encode` gives, without putting it in that form again."""
    try:
        return _packb(value)
    except (TypeError, ValueError, OverflowError) as exc:
        raise CodecError(str(exc)) from exc


def decode(data: bytes | memoryview) -> Any:
    """The value whose canonical bytes are `data` (raises CodecError on bad bytes); a view
    of them is read without a copy."""
    try:
        return _unpackb(data)
    except CodecError:
        raise
    except Exception as exc:
        raise CodecError(f"undecodable bytes: {exc}") from exc


def unpacker() -> msgpack.Unpacker:
    """A streaming decoder for a run of encoded values (feed it bytes, iterate values)."""
    return msgpack.Unpacker(
        None,
        ext_hook=_ext_hook,
        list_hook=_list_hook,
        use_list=False,
        strict_map_key=False,
        raw=False,
    )


def peek_entry(raw: bytes, start: int = 0, stop: int | None = None) -> Peeked | None:
    """What a fold needs of the encoded Entry `raw[start:stop]`, read without decoding the
    rest (a plain command's unread, a plain roll's but for its number), or None when the
    bytes are not an entry of the usual shape (decode them whole). The entry's layout is
    the record's, which imports this module: the work is `engine.peek`'s, which this name
    is bound to at the first call (a replay peeks at thousands: no call in between)."""
    from .peek import peek_entry as peek

    globals()["peek_entry"] = peek
    return peek(raw, start, stop)
