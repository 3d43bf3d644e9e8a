"""Plain data in and out: a state or a table as JSON-ready data and back (checked), and the one
way every engine copies its state before changing it.
"""

from __future__ import annotations

import copy
import dataclasses
import types
import typing
from collections import abc
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypeVar, Union, cast

from rules.contract import DataError

T = TypeVar("T")
R = TypeVar("R")


def per_type(build: Callable[[Any], R]) -> Callable[[Any], R]:
    """``build`` worked out once per type (or annotation) and remembered: what ``functools.cache``
    does, without its typing's quarrel with classes as keys."""
    memo: dict[Any, R] = {}

    def remembered(tp: Any) -> R:
        try:
            return memo[tp]
        except KeyError:
            result = memo[tp] = build(tp)
            return result

    return remembered


_SCALARS = (str, int, float, type(None))
#: Exactly these types (not bool): a list of them is read as numbers in one step (a map's outlines
#: are thousands of such lists).
_NUMBERS = frozenset({int, float})


#: Where an object of a class marked ``__plain_once__`` keeps its data (see :func:`to_data`).
KEPT_DATA = "_plain_data"


def to_data(value: Any) -> Any:
    """A dataclass tree as JSON-ready dicts, lists and scalars.

    A dataclass that says ``__plain_once__ = True`` is never changed once built (a change builds
    another, with ``dataclasses.replace``): its data is worked out once and kept on it, shared by
    every state it is part of (a map of 500 areas is most of a state's data, and the same in every
    state of its battle). Such data is read, never changed."""
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, (list, tuple)):
        return [to_data(v) for v in value]
    names = _field_names(type(value))
    if names is not None:
        if _once(type(value)):
            kept = value.__dict__.get(KEPT_DATA)
            if kept is None:
                kept = value.__dict__[KEPT_DATA] = {name: to_data(getattr(value, name)) for name in names}
            return kept
        return {name: to_data(getattr(value, name)) for name in names}
    if isinstance(value, abc.Mapping):
        return {str(k): to_data(v) for k, v in value.items()}
    return value


@per_type
def _once(tp: type) -> bool:
    return bool(getattr(tp, "__plain_once__", False))


@per_type
def _field_names(tp: type) -> tuple[str, ...] | None:
    """A dataclass's field names (None for anything else), looked up once per type."""
    return tuple(f.name for f in dataclasses.fields(tp)) if dataclasses.is_dataclass(tp) else None


def from_data(cls: type[T], data: Any, where: str = "") -> T:
    """Build ``cls`` (a dataclass, usually) from plain data, checking every type on the way.

    Used for saved states and for YAML tables alike; every problem is collected and raised
    together as a :class:`DataError`, each prefixed with its path (``weapons.rifle.short``).
    """
    problems: list[str] = []
    result: T = _convert(cls, data, where, problems)
    if problems:
        raise DataError(problems)
    return result


def load_checked(cls: type[T], data: Any, problems_of: Callable[[T], list[str]]) -> T:
    """A saved state: built by :func:`from_data`, then held to its engine's own checks (sides,
    names, references), every problem raised together."""
    state = from_data(cls, data)
    problems = problems_of(state)
    if problems:
        raise DataError(problems)
    return state


_MISSING = object()


def _label(where: str) -> str:
    return where or "the top level"


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@per_type
def _plan(tp: Any) -> tuple[Any, ...]:
    """How to build ``tp``: worked out once per type, since ``typing``'s introspection is slow and
    a saved state is converted on every action."""
    if tp is Any:
        return ("any",)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (Union, types.UnionType):
        return ("union", type(None) in args, tuple(a for a in args if a is not type(None)))
    if origin is Literal:
        return ("literal", args)
    if dataclasses.is_dataclass(tp):
        return ("dataclass",)
    if origin in (list, tuple, abc.Sequence) or tp in (list, tuple):
        return ("list", args[0] if args else Any, origin is tuple or tp is tuple, () if origin is tuple else [])
    if origin in (dict, abc.Mapping) or tp is dict:
        return ("dict", *(args if args else (Any, Any)))
    if tp in (bool, int, float, str):
        return (tp.__name__,)
    raise TypeError(f"from_data cannot build {tp!r}")


def _convert(tp: Any, value: Any, where: str, problems: list[str]) -> Any:
    plan = _plan(tp)
    kind = plan[0]
    if kind == "str":
        if not isinstance(value, str):
            problems.append(f"{_label(where)}: expected text, got {_describe(value)}")
        return value
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            problems.append(f"{_label(where)}: expected a whole number, got {_describe(value)}")
        return value
    if kind == "any":
        return value
    if kind == "dataclass":
        return _convert_dataclass(tp, value, where, problems)
    if kind == "union":
        _, optional, options = plan
        if value is None and optional:
            return None
        for option in options:
            trial: list[str] = []
            converted = _convert(option, value, where, trial)
            if not trial:
                return converted
        if len(options) == 1:
            return _convert(options[0], value, where, problems)
        problems.append(f"{_label(where)}: {_describe(value)} is not allowed here")
        return None
    if kind == "literal":
        if value not in plan[1]:
            allowed = ", ".join(str(a) for a in plan[1])
            problems.append(f"{_label(where)}: must be one of {allowed}, got {_describe(value)}")
        return value
    if kind == "list":
        _, item, as_tuple, empty = plan
        if not isinstance(value, (list, tuple)):
            problems.append(f"{_label(where)}: expected a list, got {_describe(value)}")
            return type(empty)()
        if _plan(item)[0] == "float" and all(type(v) in _NUMBERS for v in value):
            items = [float(v) for v in value]
        else:
            items = [_convert(item, v, f"{where}[{i}]", problems) for i, v in enumerate(value)]
        return tuple(items) if as_tuple else items
    if kind == "dict":
        _, key_t, val_t = plan
        if not isinstance(value, Mapping):
            problems.append(f"{_label(where)}: expected a mapping, got {_describe(value)}")
            return {}
        out = {}
        for k, v in value.items():
            key = _convert(key_t, k, where, problems)
            out[key] = _convert(val_t, v, f"{where}.{k}" if where else str(k), problems)
        return out
    if kind == "bool":
        if not isinstance(value, bool):
            problems.append(f"{_label(where)}: expected yes or no, got {_describe(value)}")
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        problems.append(f"{_label(where)}: expected a number, got {_describe(value)}")
        return value
    return float(value)


@per_type
def _fields_of(tp: type) -> tuple[dict[str, Any], dict[str, dataclasses.Field[Any]]]:
    """A dataclass's resolved annotations and init fields (resolving them is slow: do it once)."""
    return typing.get_type_hints(tp), {f.name: f for f in dataclasses.fields(tp) if f.init}


def _convert_dataclass(tp: Any, value: Any, where: str, problems: list[str]) -> Any:
    if not isinstance(value, Mapping):
        problems.append(f"{_label(where)}: expected a mapping, got {_describe(value)}")
        return None
    hints, known = _fields_of(tp)
    for key in value:
        if key not in known:
            problems.append(f"{_label(where)}: unknown key {key!r}")
    kwargs = {}
    complete = True
    for name, f in known.items():
        path = f"{where}.{name}" if where else name
        if name in value:
            kwargs[name] = _convert(hints[name], value[name], path, problems)
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            problems.append(f"{path}: missing")
            complete = False
    if not complete:
        return None
    return tp(**kwargs)


def merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``override`` laid over it, mappings merged key by key (house rules)."""
    out = copy.deepcopy(dict(base))
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


# --- copying a state ---------------------------------------------------------------------------

_Copy = Callable[[Any], Any]
_IMMUTABLE = frozenset({str, int, float, bool, type(None)})


def clone(value: T) -> T:
    """A deep copy of plain state (dataclasses, lists, dicts, scalars) that ``act`` may change freely.

    Much faster than ``copy.deepcopy``, which the bot would pay on every action (and /odds on every
    replay): each dataclass's fields are read from its type once, so text and numbers are shared,
    lists of them are copied in one step, and only what may hold more objects is walked.
    """
    return cast(T, _copy_any(value))


def _copy_any(value: Any) -> Any:
    kind = type(value)
    if kind in _IMMUTABLE:
        return value
    if kind is list:
        return [_copy_any(v) for v in value]
    if kind is dict:
        return {k: _copy_any(v) for k, v in value.items()}
    if kind is tuple:
        return tuple(_copy_any(v) for v in value)
    if hasattr(kind, "__dataclass_fields__"):
        return _dataclass_copier(kind)(value)
    return value


@per_type
def _dataclass_copier(kind: Any) -> _Copy:
    """How to copy one dataclass: a new instance with every field that can change copied (one
    marked ``__plain_once__`` is never changed: the copy shares it)."""
    if _once(kind):
        return _same
    try:
        hints = typing.get_type_hints(kind)
    except (NameError, TypeError):  # an annotation that cannot be resolved: copy what is there
        hints = {}
    steps = tuple(
        (name, step) for name in kind.__dataclass_fields__ if (step := _field_copier(hints.get(name, Any))) is not None
    )
    new = object.__new__

    def copy_one(value: Any) -> Any:
        fresh: Any = new(kind)
        fields = fresh.__dict__
        fields.update(value.__dict__)
        for name, step in steps:
            held = fields[name]
            if held is not None:
                fields[name] = step(held)
        return fresh

    return copy_one


def _same(value: Any) -> Any:
    return value


def _field_copier(tp: Any) -> _Copy | None:
    """How to copy a value of annotation ``tp``: None when it cannot change (text, numbers…)."""
    if _immutable(tp):
        return None
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (Union, types.UnionType):
        held = [a for a in args if a is not type(None)]
        return _field_copier(held[0]) if len(held) == 1 else _copy_any
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _one_of(tp)
    if origin is list and len(args) == 1:
        item = args[0]
        if _immutable(item):
            return list
        if dataclasses.is_dataclass(item) and isinstance(item, type):
            return _list_of(item)
        if typing.get_origin(item) is list and _immutable(typing.get_args(item)[0]):
            return _list_of_lists
    if origin is dict and len(args) == 2:
        if _immutable(args[1]):
            return dict
        if dataclasses.is_dataclass(args[1]) and isinstance(args[1], type):
            return _dict_of(args[1])
    return _copy_any


def _one_of(kind: type) -> _Copy:
    def copy_one(value: Any) -> Any:
        return _dataclass_copier(kind)(value) if type(value) is kind else _copy_any(value)

    return copy_one


def _list_of(kind: type) -> _Copy:
    def copy_list(value: Any) -> Any:
        one = _dataclass_copier(kind)  # looked up per list, not per item (and lazily: types may nest)
        return [one(v) if type(v) is kind else _copy_any(v) for v in value]

    return copy_list


def _dict_of(kind: type) -> _Copy:
    def copy_dict(value: Any) -> Any:
        one = _dataclass_copier(kind)
        return {k: one(v) if type(v) is kind else _copy_any(v) for k, v in value.items()}

    return copy_dict


def _list_of_lists(value: list[list[Any]]) -> list[list[Any]]:
    return [list(item) for item in value]


@per_type
def _immutable(tp: Any) -> bool:
    """True when a value annotated ``tp`` is never changed in place (so copies may share it)."""
    if tp in _IMMUTABLE:
        return True
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Literal:
        return True
    if origin in (Union, types.UnionType):
        return all(_immutable(a) for a in args)
    if origin is tuple:
        return all(a is Ellipsis or _immutable(a) for a in args)
    return False
