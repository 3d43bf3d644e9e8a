"""The shared vocabulary of every ruleset engine.

An engine is pure: it takes a state, an :class:`Action` and a :class:`DiceSource` and returns an
:class:`Outcome` (the new state, the events a player reads, at most one pending
:class:`Decision`). It never touches Discord, a database or the global random generator, and it
never mutates the state it was given, so a refused action (a :class:`RuleError`) changes nothing.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import types
import typing
from collections import abc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar, Union

T = TypeVar("T")
S = TypeVar("S")


class RuleError(Exception):
    """An action the rules refuse. Its message is one sentence safe to show a player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class DataError(RuleError):
    """Data (a table, a roster, a saved state) that does not fit its shape.

    Carries every problem found, each prefixed with where it was found, so a player fixing a
    YAML file sees them all at once.
    """

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


class DiceSource(Protocol):
    """Where every random result an engine uses comes from.

    ``reason`` says what the roll is for ("Rossi: shot 1 of 3 at Big Jim"); the shell records
    it beside the value so the dice card and the log can show every roll.
    """

    def roll(self, sides: int, reason: str) -> int:
        """One die with faces 1..sides."""
        ...

    def draw(self, cards: Sequence[str], reason: str) -> str:
        """One card turned from the cards still in a deck (rank+suit: ``AH``, ``10D``, ``RJ``)."""
        ...


def roll_dice(dice: DiceSource, count: int, sides: int, reason: str) -> list[int]:
    """``count`` dice of ``sides`` faces, each rolled (and recorded) one after another."""
    if count == 1:
        return [dice.roll(sides, reason)]
    return [dice.roll(sides, f"{reason} ({i} of {count})") for i in range(1, count + 1)]


@dataclass(frozen=True)
class Action:
    """One thing a player asks of the engine: a subcommand and its options.

    ``side`` is the side on whose behalf the action is taken; ``by_gm`` marks the game master
    acting (who may act for any side).
    """

    name: str
    side: str | None
    params: Mapping[str, Any] = field(default_factory=dict)
    by_gm: bool = False


@dataclass(frozen=True)
class Event:
    """Something that happened, as one line a player reads plus data for renderers.

    ``kind`` names the sort of event ("roll-off", "shot", "removed", "phase", "victory"); the
    renderer picks cards by it (a "casualty" event becomes a casualty card).
    """

    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Choice:
    value: str
    label: str


@dataclass(frozen=True)
class Decision:
    """A choice that belongs to one side (or to the game master, ``decider == "gm"``).

    When it is answered, the shell calls the engine again with ``Action(resume_action,
    decider, {**params, "choice": value})``. It is stored in the database, so it can wait for
    hours and survive a restart.
    """

    decider: str
    prompt: str
    choices: tuple[Choice, ...]
    resume_action: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class Outcome(Generic[S]):
    state: S
    events: list[Event]
    pending: Decision | None = None


@dataclass(frozen=True)
class FigureSpec:
    """A figure as the roster hands it to an engine: the ruleset reads ``kind`` and ``stats``."""

    name: str
    side: str
    kind: str
    stats: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Aftermath:
    """What one figure carries out of a battle into its roster.

    ``status``: "active" (fights again), "dead" (off the roster's active list for good), or
    "resting" (misses the next ``games_out`` battles). ``stats`` replaces the roster's stats when
    given (a lasting wound); ``note`` is the line its history keeps.
    """

    name: str
    side: str
    status: Literal["active", "dead", "resting"]
    note: str
    games_out: int = 0
    stats: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class FigureLine:
    name: str
    side: str
    status: str
    out: bool = False


@dataclass(frozen=True)
class GridSquare:
    """A square that is not plain open ground: its terrain, and what stands on its sides.

    ``edges`` maps a side ("n", "e", "s", "w") to what is there ("hedge", "wall"); ``uphill``
    names the sides a figure crosses going uphill into this square.
    """

    x: int
    y: int
    terrain: str = "open"
    edges: Mapping[str, str] = field(default_factory=dict)
    uphill: tuple[str, ...] = ()


@dataclass(frozen=True)
class GridPiece:
    """A figure on the grid: ``label`` (short), ``side``, ``facing`` ("n", "ne" …), ``marks`` such
    as "pinned" or "fallen", and ``pips`` (wound points)."""

    x: int
    y: int
    name: str
    label: str
    side: str
    facing: str | None = None
    marks: tuple[str, ...] = ()
    pips: int = 0


@dataclass(frozen=True)
class Grid:
    """A square board for rulesets played on one; (0, 0) is the top-left square."""

    width: int
    height: int
    squares: tuple[GridSquare, ...] = ()
    pieces: tuple[GridPiece, ...] = ()


@dataclass(frozen=True)
class Board:
    """What ``/game status`` shows, independent of how it is drawn."""

    headline: str
    facts: tuple[tuple[str, str], ...]
    figures: tuple[FigureLine, ...]
    finished: bool = False
    grid: Grid | None = None


class Engine(Protocol[S]):
    slug: str
    title: str

    def sides(self) -> Sequence[str]: ...

    def kinds(self) -> Sequence[str]:
        """The figure types a roster entry may have (for SSG: the weapons)."""
        ...

    def check_figure(self, spec: FigureSpec) -> FigureSpec:
        """The spec as the ruleset keeps it, or a RuleError naming what is wrong."""
        ...

    def recruit(self, spec: FigureSpec, dice: DiceSource) -> Outcome[FigureSpec]:
        """A figure joining a roster: checked, with any stats the rules roll (and were not
        given) rolled now, once, so the figure keeps them from battle to battle."""
        ...

    def start(self, figures: Sequence[FigureSpec], dice: DiceSource) -> Outcome[S]: ...

    # Optional: ``pending(state) -> Decision | None``, the choice a state is waiting for. The shell
    # uses it to reopen a decision when /game undo goes back to a state that was waiting.
    # Optional: ``free_actions``, names of actions the shell allows while a decision waits (they
    # do not belong to anyone's turn, like describing a building in NSR).
    # Optional: ``roster_entry``, what one roster entry is called when the shell counts them ("6
    # units"): "figure" unless the ruleset says otherwise (NSR's entries are units). See
    # :func:`roster_entry`.
    # Optional: ``aftermath(state, specs, dice, options) -> Outcome[list[Aftermath]]``, what each
    # figure of a finished battle carries into its roster (the rules between games); ``options``
    # are the campaign's settings. Without it, a figure that fell is noted and nothing else changes.

    def act(self, state: S, action: Action, dice: DiceSource) -> Outcome[S]: ...

    def whose_turn(self, state: S) -> str | None: ...

    def winner(self, state: S) -> str | None: ...

    def finished(self, state: S) -> bool: ...

    def board(self, state: S) -> Board: ...

    def dump_state(self, state: S) -> dict[str, Any]: ...

    def load_state(self, data: Mapping[str, Any]) -> S: ...


def roster_entry(engine: Any) -> str:
    """What one of the ruleset's roster entries is called: "figure", or the engine's ``roster_entry``."""
    return getattr(engine, "roster_entry", None) or "figure"


# --- plain data in and out --------------------------------------------------------------------


_SCALARS = (str, int, float, type(None))


def to_data(value: Any) -> Any:
    """A dataclass tree as JSON-ready dicts, lists and scalars."""
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, (list, tuple)):
        return [to_data(v) for v in value]
    names = _field_names(type(value))
    if names is not None:
        return {name: to_data(getattr(value, name)) for name in names}
    if isinstance(value, abc.Mapping):
        return {str(k): to_data(v) for k, v in value.items()}
    return value


@functools.cache
def _field_names(tp: type) -> tuple[str, ...] | None:
    """A dataclass's field names (None for anything else), looked up once per type."""
    return tuple(f.name for f in dataclasses.fields(tp)) if dataclasses.is_dataclass(tp) else None


def from_data(cls: type[T], data: Any, where: str = "") -> T:
    """Build ``cls`` (a dataclass, usually) from plain data, checking every type on the way.

    Used for saved states and for YAML tables alike; every problem is collected and raised
    together as a :class:`DataError`, each prefixed with its path (``weapons.rifle.short``).
    """
    problems: list[str] = []
    result = _convert(cls, data, where, problems)
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


@functools.cache
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


@functools.cache
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


def find_figure(names: Sequence[str], wanted: str) -> str:
    """The one name in ``names`` that ``wanted`` means (exact, then case-insensitive)."""
    if wanted in names:
        return wanted
    folded = [n for n in names if n.casefold() == wanted.strip().casefold()]
    if len(folded) == 1:
        return folded[0]
    raise RuleError(f"There is no figure called {short(wanted)} in this game.")


def short(text: str, limit: int = 40) -> str:
    """A user-supplied name, quoted and cut, for safe use inside an error sentence."""
    text = " ".join(str(text).split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"“{text}”"
