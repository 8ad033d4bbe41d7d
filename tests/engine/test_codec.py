"""The canonical codec: exact round trips and deterministic bytes."""

from __future__ import annotations

import dataclasses
import enum
import gc
import inspect
import json
import os
import subprocess
import sys
import types
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from fractions import Fraction
from typing import ClassVar
from uuid import UUID

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from warscribe.engine import _records, codec

fast_only = pytest.mark.skipif(
    _records.PLAIN_DATACLASSES, reason="checks the fast record machinery; the switch is on"
)


@codec.record("test.Piece")
class Piece:
    name: str
    hex: tuple[int, int]
    tags: tuple[str, ...] = ()


class Colour(enum.StrEnum):
    RED = "red"
    BLUE = "blue"


class Rank(enum.IntEnum):
    LOW = 1
    HIGH = 2


codec.register("test.Colour")(Colour)
codec.register("test.Rank")(Rank)

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False)
    | st.text()
    | st.binary()
    | st.uuids()
    | st.datetimes(timezones=st.sampled_from([UTC, timezone(timedelta(hours=-5))]))
    | st.decimals(allow_nan=False, allow_infinity=False)
    | st.fractions()
    | st.sampled_from(list(Colour) + list(Rank))
)
small = st.integers(min_value=-(2**63), max_value=2**63)
keys = small | st.text() | st.tuples(small, small) | st.sampled_from(list(Rank))
values = st.recursive(
    scalars,
    lambda inner: (
        st.tuples(inner, inner)
        | st.lists(inner, max_size=4).map(tuple)
        | st.dictionaries(keys, inner, max_size=4)
        | st.frozensets(st.integers(min_value=-(2**63), max_value=2**63) | st.text(), max_size=4)
        | st.builds(
            Piece,
            st.text(),
            st.tuples(st.integers(0, 99), st.integers(0, 99)),
            st.lists(st.text()).map(tuple),
        )
    ),
    max_leaves=20,
)


def same(a: object, b: object) -> bool:
    """Equal and of the same types all the way down (1 == True == 1.0 must not pass)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))  # type: ignore[arg-type]
    if isinstance(a, dict):
        return set(a) == set(b) and all(same(a[k], b[k]) for k in a)  # type: ignore[index]
    if isinstance(a, Piece):
        return same(a.__dict__, b.__dict__)
    return a == b


@given(values)
def test_round_trip_is_exact(value: object) -> None:
    decoded = codec.decode(codec.encode(value))
    assert same(decoded, value)
    assert codec.encode(decoded) == codec.encode(value)


@given(st.dictionaries(keys, st.integers(min_value=0, max_value=2**32), max_size=6))
def test_map_bytes_do_not_depend_on_insertion_order(mapping: dict[object, int]) -> None:
    reversed_map = dict(reversed(list(mapping.items())))
    assert codec.encode(mapping) == codec.encode(reversed_map)


@given(
    st.lists(
        st.text(max_size=300)
        | st.sampled_from(["", "a" * 31, "a" * 32, "é" * 16, "b" * 255, "b" * 256]),
        max_size=8,
    )
)
def test_text_keys_sort_as_their_encodings_do(texts: list[str]) -> None:
    """Maps of text keys (a head's marks: hundreds of them) are sorted without encoding each
    key (issue 14): the order is still that of the encoded bytes, across msgpack's string
    headers (fixstr up to 31 UTF-8 bytes, then str8, str16)."""
    encoded = sorted(set(texts), key=lambda t: msgpack.packb(t, use_bin_type=True))
    assert sorted(set(texts), key=codec._text_order) == encoded
    mapping = dict.fromkeys(reversed(encoded), 0)
    assert codec.encode(mapping) == codec.encode(dict.fromkeys(encoded, 0))
    assert list(codec.decode(codec.encode(mapping))) == encoded
    assert list(codec.sorted_map(mapping)) == encoded


@given(st.lists(st.text("Ab-1 ", max_size=40), max_size=40))
def test_ascii_keys_sort_as_their_encodings_do(texts: list[str]) -> None:
    """ASCII keys (unit ids, phase labels) are sorted by text, then by length, without a
    key function: the order is still that of the encoded bytes."""
    encoded = sorted(set(texts), key=lambda t: msgpack.packb(t, use_bin_type=True))
    assert list(codec.sorted_map(dict.fromkeys(reversed(encoded), 0))) == encoded


@given(
    st.dictionaries(st.text("Ab-1é", max_size=12), st.integers(), max_size=30),
    st.dictionaries(st.text("Ab-1é", max_size=12), st.integers(), max_size=5),
)
def test_a_sorted_map_with_entries_is_the_merged_map_sorted(
    ordered: dict[str, int], entries: dict[str, int]
) -> None:
    """`sorted_map_with` puts a new key in its place in a map already in the codec's order
    (a unit entering play, issue 14): the same keys, values and order as sorting again."""
    ordered = codec.sorted_map(ordered)
    merged = codec.sorted_map_with(ordered, entries)
    expected = codec.sorted_map({**ordered, **entries})
    assert merged == expected and list(merged) == list(expected)
    assert list(ordered) == list(codec.sorted_map(ordered))  # the original is untouched


def test_a_sorted_map_with_other_keys_sorts_them_again() -> None:
    assert list(codec.sorted_map_with({"a": 1, "b": 2}, {1: 0})) == [1, "a", "b"]  # type: ignore[dict-item]


def test_types_survive_exactly() -> None:
    value = {
        1: (Colour.RED, Rank.HIGH),
        "when": datetime(2026, 11, 30, 6, 0, tzinfo=UTC),
        "id": UUID(int=7),
        "money": (Decimal("1.50"), Fraction(1, 2)),
        "piece": Piece("Muetar-A1", (19, 11)),
        "set": frozenset({3, 1}),
    }
    back = codec.decode(codec.encode(value))
    assert back == value
    assert type(back[1][0]) is Colour and type(back[1][1]) is Rank
    assert type(back["piece"]) is Piece and back["piece"].hex == (19, 11)
    assert isinstance(back["set"], frozenset)
    assert 1 in back and "1" not in back


def test_unregistered_types_are_refused() -> None:
    class Loose:
        pass

    with pytest.raises(codec.CodecError, match="Loose"):
        codec.encode(Loose())


def test_garbage_bytes_are_refused() -> None:
    with pytest.raises(codec.CodecError):
        codec.decode(b"\xc1\xff")


@codec.record("test.Mark")
class Mark:
    pass


def test_a_record_is_a_value_like_a_frozen_dataclass() -> None:
    """`record` makes __eq__, __hash__ and __repr__ without compiling them per class (issue
    14): they behave as a frozen dataclass's do."""
    piece = Piece("Hothior-A1", (3, 4))
    same = codec.decode(codec.encode(Piece("Hothior-A1", (3, 4))))
    assert piece == same and hash(piece) == hash(same) and {piece, same} == {piece}
    assert piece != Piece("Hothior-A1", (3, 5)) and piece != ("Hothior-A1", (3, 4), ())
    assert repr(piece) == "Piece(name='Hothior-A1', hex=(3, 4), tags=())"
    assert Mark() == Mark() and hash(Mark()) == hash(Mark()) and repr(Mark()) == "Mark()"
    with pytest.raises(dataclasses.FrozenInstanceError):
        piece.name = "Mivior-A1"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del piece.name  # type: ignore[misc]


@pytest.mark.parametrize("count", [0, 1, 2, 16, 17, 30])
def test_a_record_takes_its_fields_by_position_and_by_name(count: int) -> None:
    """`record` makes __init__ from a code object shared by every record of the same number
    of fields (issue 14): each record's own field names, defaults and errors, whatever the
    number of fields (the compiler lays out the constants of a long dict differently)."""
    names = [f"f{i}" for i in range(count)]
    annotations = dict.fromkeys(names, "int")
    cls = codec.record(f"test.Wide{count}")(
        type(f"Wide{count}", (), {"__annotations__": {**annotations, "last": "int"}, "last": -1})
    )
    values = dict(zip(names, range(count), strict=True))
    by_name, by_position = cls(**values), cls(*values.values())
    assert by_name.__dict__ == by_position.__dict__ == {**values, "last": -1}
    assert cls(*values.values(), 7).__dict__ == cls(**values, last=7).__dict__
    assert dataclasses.replace(by_name, last=3).__dict__ == {**values, "last": 3}
    assert [f.name for f in dataclasses.fields(cls)] == [*names, "last"]
    with pytest.raises(TypeError, match=r"Wide\d+\.__init__\(\) got an unexpected keyword"):
        cls(**values, other=1)
    if count:
        with pytest.raises(TypeError, match="missing 1 required positional argument: 'f0'"):
            cls(**{k: v for k, v in values.items() if k != "f0"})


def test_replace_is_dataclasses_replace_without_its_per_field_work() -> None:
    """`codec.replace` (the rule sets' evolvers replace a field of a large state per event,
    issue 14): a new record with the changed fields, the original untouched, an unknown
    field refused, and nothing a cached_property computed on the original carried over."""
    piece = Piece("Hothior-A1", (3, 4))
    moved = codec.replace(piece, hex=(3, 5))
    assert moved == dataclasses.replace(piece, hex=(3, 5)) and piece.hex == (3, 4)
    assert moved.__dict__ == {"name": "Hothior-A1", "hex": (3, 5), "tags": ()}
    with pytest.raises(TypeError, match="no field"):
        codec.replace(piece, colour="red")
    piece.__dict__["derived"] = "cached"  # what a cached_property leaves on an instance
    assert "derived" not in codec.replace(piece, tags=("fleet",)).__dict__
    plain = Plain(1)
    assert codec.replace(plain, a=2) == Plain(2)


@dataclasses.dataclass(frozen=True)
class Plain:
    a: int


def test_a_record_field_named_self() -> None:
    cls = codec.record("test.Selfish")(type("Selfish", (), {"__annotations__": {"self": "int"}}))
    assert cls(self=1).self == cls(2).self - 1 == 1


@fast_only
def test_a_record_refuses_what_its_init_cannot_do() -> None:
    """The shared __init__ takes plain defaults only: no factory, no keyword-only field."""
    with pytest.raises(TypeError, match="without a default follows"):
        codec.record("test.BadOrder")(
            type("BadOrder", (), {"__annotations__": {"a": "int", "b": "int"}, "a": 0})
        )
    factory = dataclasses.field(default_factory=tuple)
    with pytest.raises(TypeError, match="plain default"):
        codec.record("test.Factory")(
            type("Factory", (), {"__annotations__": {"a": "tuple[int, ...]"}, "a": factory})
        )


def _cheap_classes() -> list[type]:
    """Every record and `codec.frozen` class of the package (they share one params object)."""
    import importlib
    import pkgutil

    import warscribe.cli
    import warscribe.engine
    import warscribe.store

    found: dict[str, type] = {}
    for package in (warscribe.engine, warscribe.store, warscribe.cli):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            loaded = importlib.import_module(module.name)
            for value in vars(loaded).values():
                if (
                    isinstance(value, type)
                    and value.__dict__.get("__dataclass_params__") is _records.DATACLASS_PARAMS
                ):
                    found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[name] for name in sorted(found)]


def _field_facts(fields: tuple[dataclasses.Field[object], ...]) -> list[tuple[object, ...]]:
    return [
        (f.name, f.type, f.default, dict(f.metadata), f.init, f.kw_only, f.repr, f.compare)
        for f in fields
    ]


@fast_only
def test_records_have_the_fields_dataclasses_would_give_them() -> None:
    """codec's own field collection (issue 14: start-up) against dataclasses', class by
    class: a twin of each record, made by dataclasses from the same annotations and class
    attributes, has the same fields (names, types, defaults, metadata, in order)."""
    classes = _cheap_classes()
    assert len(classes) > 150  # the rule sets' records and the engine's frozen values
    for cls in classes:
        own = inspect.get_annotations(cls)
        namespace: dict[str, object] = {"__annotations__": own, "__module__": cls.__module__}
        for f in dataclasses.fields(cls):
            if f.name in own:
                namespace[f.name] = dataclasses.field(default=f.default, metadata=f.metadata)
        bases = cls.__dict__.get("__orig_bases__", cls.__bases__)
        made = types.new_class(
            cls.__name__, bases, exec_body=lambda ns, given=namespace: ns.update(given)
        )
        twin = dataclasses.dataclass(init=False, repr=False, eq=False)(made)
        assert _field_facts(dataclasses.fields(cls)) == _field_facts(dataclasses.fields(twin)), cls
        assert cls.__match_args__ == twin.__match_args__, cls  # type: ignore[attr-defined]
    # the twins subclass the rule sets' bases (Event...): gone before a test walks those
    del made, twin
    gc.collect()


def test_a_classvar_is_no_field_and_a_field_keeps_its_metadata() -> None:
    @codec.frozen
    class Rule:
        SECTION: ClassVar[str] = "Combat"
        odds: int
        note: str = dataclasses.field(default="", metadata={"added": True})

    assert [f.name for f in dataclasses.fields(Rule)] == ["odds", "note"]
    assert dataclasses.fields(Rule)[1].metadata["added"] is True
    assert Rule(3).note == "" and Rule.SECTION == "Combat"
    assert dataclasses.replace(Rule(3), note="x") == Rule(3, "x")
    assert codec.replace(Rule(3), note="x") == Rule(3, "x")
    with pytest.raises(codec.CodecError):
        codec.encode(Rule(3))  # never registered: never encoded
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rule(3).odds = 4  # type: ignore[misc]


_MACHINERY = """
import json
from warscribe.engine import _records, codec

@codec.record("test.Switched")
class Switched:
    name: str
    hexes: tuple[tuple[int, int], ...] = ()
    extra: int = codec.added(0)

made = Switched("a", ((1, 2),))
again = codec.decode(codec.encode(made))
print(json.dumps({
    "switch": _records.PLAIN_DATACLASSES,
    "frozen": Switched.__dataclass_params__.frozen,
    "init": Switched.__init__.__code__.co_filename,
    "bytes": codec.encode(codec.replace(made, extra=3)).hex(),
    "same": again == made and hash(again) == hash(made) and repr(again) == repr(made),
}))
"""


def _machinery(switch: str | None) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != _records.SWITCH}
    if switch is not None:
        env[_records.SWITCH] = switch
    done = subprocess.run(
        [sys.executable, "-c", _MACHINERY], env=env, capture_output=True, text=True, check=True
    )
    found: dict[str, object] = json.loads(done.stdout)
    return found


def test_the_switch_makes_records_plain_dataclasses_with_the_same_bytes() -> None:
    """WARSCRIBE_PLAIN_DATACLASSES=1 (issue 34) swaps the record machinery for dataclasses'
    own (a frozen dataclass, its compiled __init__) and changes no value and no byte."""
    fast, off, plain = _machinery(None), _machinery("0"), _machinery("1")
    assert fast == off
    assert fast["switch"] is False and plain["switch"] is True
    assert fast["frozen"] is False and fast["init"] == "<record __init__>"
    assert plain["frozen"] is True and plain["init"] != "<record __init__>"
    assert fast["bytes"] == plain["bytes"] and fast["same"] is plain["same"] is True


def test_this_run_uses_the_machinery_its_environment_asks_for() -> None:
    """CI runs the codec's and the conformance tests a second time with the switch on: they
    run on plain dataclasses then, and on the fast machinery otherwise."""
    asked = os.environ.get(_records.SWITCH, "") not in ("", "0")
    assert _records.PLAIN_DATACLASSES is asked
    assert Piece.__dataclass_params__.frozen is asked  # type: ignore[attr-defined]
    assert (Piece in _records.PLAIN) is not asked
