"""How `codec.record` and `codec.frozen` make their value classes, kept apart (issue 34).

By default a record is made without compiling code for it (`_fast_dataclass`: issue 14's
start-up and replay speed). With `WARSCRIBE_PLAIN_DATACLASSES=1` in the environment when
warscribe is imported, every record is a plain `dataclasses.dataclass(frozen=True)` and
`replace` is `dataclasses.replace`: the same values, the same bytes, made by the standard
library, to tell a bug of this module from one of the rules (and to try a new Python
before this module is taught it). CI runs the codec's and the conformance tests both ways
(docs/developing.md, "The record machinery").
"""

from __future__ import annotations

import dataclasses
import inspect
import operator
import os
import re
from collections.abc import Callable
from types import CodeType, FunctionType
from typing import Any, TypeVar, cast

T = TypeVar("T")

SWITCH = "WARSCRIBE_PLAIN_DATACLASSES"
PLAIN_DATACLASSES = os.environ.get(SWITCH, "") not in ("", "0")
"""Whether records are plain frozen dataclasses (the switch), read once at import."""

FIELDS: dict[type, tuple[str, ...]] = {}
"""The field names of each record and `frozen` class (and each registered dataclass), in
their declared order."""

PLAIN: dict[type, int] = {}
"""The records whose __init__ is `_init`'s (it sets their fields and does nothing else),
and how many fields each has (none with the switch on)."""

new = object.__new__
set_dict = object.__setattr__


def frozen_dataclass(cls: type[T]) -> type[T]:
    """`cls` as a frozen dataclass: made by this module, or by dataclasses with the switch."""
    if PLAIN_DATACLASSES:
        made = dataclasses.dataclass(frozen=True)(cls)
        FIELDS[made] = tuple(f.name for f in dataclasses.fields(made))  # type: ignore[arg-type]
        return made
    return _fast_dataclass(cls)


def _fast_dataclass(cls: type[T]) -> type[T]:
    """`cls` as a frozen dataclass, made without compiling code for it.

    dataclasses compiles __init__, __setattr__, __delattr__, __eq__, __hash__ and __repr__
    for each class (and works out a docstring with `inspect.signature` when the class has
    none), which made defining a rule set's ~200 value types most of a CLI call's start-up
    (issue 14). Here the fields are collected as dataclasses would (`_collect_fields`);
    __init__ is a precompiled one of the same arity with its parameter names set to the
    fields' (`_init`, made on first use), the other methods are shared closures. A record
    always refuses assignment (dataclasses' own frozen flag stays unset: no record
    inherits from a dataclass)."""
    own = {name for name in ("__init__", "__eq__", "__hash__", "__repr__") if name in cls.__dict__}
    if "__setattr__" in cls.__dict__ or "__delattr__" in cls.__dict__:
        raise TypeError(f"{cls.__qualname__}: a record cannot define __setattr__/__delattr__")
    made: Any = cls
    fields = _collect_fields(made)
    if not made.__doc__:
        made.__doc__ = f"{cls.__name__}({', '.join(f.name for f in fields)})"
    methods = {
        "__init__": _deferred_init(made, fields),
        "__setattr__": _refuse_change,
        "__delattr__": _refuse_change,
        **_value_methods(fields),
    }
    for name, method in methods.items():
        if name not in own:
            setattr(made, name, method)
    FIELDS[made] = tuple(f.name for f in fields)
    if "__init__" not in own:
        PLAIN[made] = len(fields)
    return cast("type[T]", made)


DATACLASS_PARAMS = dataclasses.dataclass(init=False, repr=False, eq=False)(
    type("_Params", (), {"__doc__": "."})
).__dataclass_params__  # type: ignore[attr-defined]
"""The params every class `_fast_dataclass` makes shares (what tells them apart)."""
_CLASSVAR = re.compile(r"(typing\.)?ClassVar\b")


def _collect_fields(cls: Any) -> tuple[dataclasses.Field[Any], ...]:
    """Make `cls` a dataclass without dataclasses' class processing: its fields are the
    bases' fields, then one per annotation of its own that is not a ClassVar, with the
    class attribute (a plain value or a `dataclasses.field`) as its default. This is what
    `dataclasses.dataclass(init=False, repr=False, eq=False)` records for such a class
    (tests/engine/test_codec.py checks it class by class), for a tenth of the time:
    dataclasses inspects every annotation string against several patterns, which was most
    of defining a rule set's records."""
    fields: dict[str, dataclasses.Field[Any]] = {}
    for base in reversed(cls.__mro__[1:]):
        for name, inherited in getattr(base, "__dataclass_fields__", {}).items():
            if inherited._field_type is dataclasses._FIELD:  # type: ignore[attr-defined]
                fields[name] = inherited
    for name, annotation in inspect.get_annotations(cls).items():
        if isinstance(annotation, str) and _CLASSVAR.match(annotation):
            continue
        default = cls.__dict__.get(name, dataclasses.MISSING)
        made: dataclasses.Field[Any] = (
            default
            if isinstance(default, dataclasses.Field)
            else dataclasses.field(default=default)
        )
        made.name = name
        made.type = annotation
        made._field_type = dataclasses._FIELD  # type: ignore[attr-defined]
        if made.kw_only is dataclasses.MISSING:
            made.kw_only = False
        if made is default:
            if made.default is dataclasses.MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, made.default)
        fields[name] = made
    cls.__dataclass_fields__ = fields
    cls.__dataclass_params__ = DATACLASS_PARAMS
    cls.__match_args__ = tuple(fields)  # type: ignore[misc]
    return tuple(fields.values())


def replace(obj: T, /, **changes: Any) -> T:
    """`dataclasses.replace` without its per-field work for a record (the rule sets'
    evolvers replace a field or two of a large state once per event of a replay): the
    copy's fields are the original's, updated, made in one step. Another dataclass (every
    record, with the switch) goes through `dataclasses.replace`; an unknown field is
    refused alike either way."""
    cls = obj.__class__
    count = PLAIN.get(cls)
    if count is None:
        _refuse_unknown(cls, changes, FIELDS.get(cls))
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    values = {**obj.__dict__, **changes}
    if len(values) != count:  # an unknown field, or a cached_property's value
        names = FIELDS[cls]
        values = {name: obj.__dict__[name] for name in names}
        values.update(changes)
        if len(values) != count:
            _refuse_unknown(cls, changes, names)
    made: T = new(cls)
    set_dict(made, "__dict__", values)
    return made


def _refuse_unknown(cls: type, changes: dict[str, Any], names: tuple[str, ...] | None) -> None:
    unknown = ", ".join(sorted(set(changes) - set(names or changes)))
    if unknown:
        raise TypeError(f"{cls.__qualname__} has no field(s) {unknown}")


def field_values(obj: Any) -> dict[str, Any]:
    """A dataclass's fields by name, in their declared order (a record's read straight
    from its __dict__: `dataclasses.fields` works them out on every call)."""
    names = FIELDS.get(type(obj))
    if names is None:
        return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
    values = obj.__dict__
    return {name: values[name] for name in names}


def _refuse_change(self: Any, name: str, *value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


_INIT_CODES: dict[int, CodeType] = {}
_INIT_GLOBALS = {"__builtins__": {}, "_set_dict": set_dict}


def _deferred_init(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> Callable[..., None]:
    """`cls.__init__`, made (`_init`) when `cls` is first instantiated: a call uses a few
    of the records its rule set defines. The fields are checked now."""
    defaults = [f.default is not dataclasses.MISSING for f in fields]
    for f in fields:
        if not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__qualname__}.{f.name}: a record field takes a plain default")
    if True in defaults and not all(defaults[defaults.index(True) :]):
        raise TypeError(f"{cls.__qualname__}: a field without a default follows one with one")

    def __init__(self: Any, /, *args: Any, **kwargs: Any) -> None:
        made = _init(cls, fields)
        type.__setattr__(cls, "__init__", made)
        made(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _init(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> Callable[..., None]:
    """`cls.__init__(self, *fields)`: the instance's __dict__ set in one step, from a code
    object compiled once per number of fields, renamed for these fields."""
    names = tuple(f.name for f in fields)
    defaults = tuple(f.default for f in fields if f.default is not dataclasses.MISSING)
    code = _INIT_CODES.get(len(names))
    if code is None:
        code = _INIT_CODES[len(names)] = _init_code(len(names))
    # the keys of the __dict__ made are string constants, some of them in tuples
    rename = dict(zip(_placeholders(len(names)), names, strict=True))

    def renamed(const: Any) -> Any:
        if type(const) is tuple:
            return tuple(rename.get(item, item) for item in const)
        return rename.get(const, const) if type(const) is str else const

    own = "self" if "self" not in names else "__record_self__"
    qualname = f"{cls.__qualname__}.__init__"
    code = code.replace(
        co_varnames=(own, *names),
        co_consts=tuple(renamed(const) for const in code.co_consts),
        co_qualname=qualname,
    )
    init: Any = FunctionType(code, _INIT_GLOBALS, "__init__", defaults or None)
    init.__qualname__ = qualname
    init.__module__ = cls.__module__
    return cast("Callable[..., None]", init)


def _placeholders(count: int) -> tuple[str, ...]:
    return tuple(f"field{i}" for i in range(count))


def _init_code(count: int) -> CodeType:
    """The code of `def __init__(self, field0, ...): self.__dict__ = {"field0": field0,
    ...}` (bypassing the frozen __setattr__) for `count` fields."""
    names = _placeholders(count)
    values = ", ".join(f"{name!r}: {name}" for name in names)
    source = (
        f"def __init__(self, {', '.join(names)}):\n    _set_dict(self, '__dict__', {{{values}}})\n"
    )
    scope: dict[str, Any] = {}
    exec(compile(source, "<record __init__>", "exec"), _INIT_GLOBALS, scope)
    code: CodeType = scope["__init__"].__code__
    return code


def _value_methods(fields: tuple[dataclasses.Field[Any], ...]) -> dict[str, Any]:
    """__eq__, __hash__ and __repr__ as a frozen dataclass has them (equal when of the same
    class with equal fields, hashed on the fields), as closures over the fields' names."""
    names = tuple(f.name for f in fields)
    values: Callable[[Any], Any] = operator.attrgetter(*names) if names else (lambda _: ())

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(values(self))

    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return {"__eq__": __eq__, "__hash__": __hash__, "__repr__": __repr__}
