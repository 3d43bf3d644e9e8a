"""Every action a ruleset offers, declared once.

An :class:`ActionSpec` names an action, says in one sentence what it does, and carries the
dataclass of its options (a :class:`Params` subclass whose fields are declared with
:func:`option`: type, bounds, choices, help, and the kind of thing an option names), the handler
that carries it out, its flags, and the candidate actions a side has in a state. The Discord
commands, the terminal, ``/odds``, ``/help``, the next-move buttons and self-play are all built
from these specs; :meth:`rules.base.Engine.act` reads an action's raw options into its dataclass
with :func:`read_params` before the handler runs, so a handler reads typed fields, never a
mapping.

A ruleset writes, for example::

    @dataclass(frozen=True, kw_only=True)
    class ShootOptions(Params):
        shooter: str = option("Your figure", Kind.FIGURE, required=True)
        range: float | None = option("Inches to the target", Kind.NUMBER, lowest=0, highest=1000, where=Where.TABLE)

    SPECS = spec_table(
        ActionSpec("shoot", "Shooting phase: a figure fires", ShootOptions, play.shoot, acting="shooter"),
        ...
    )
"""

from __future__ import annotations

import dataclasses
import keyword
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Generic, TypeVar

from rules.vocabulary import RuleError
from rules.words import choice, flag, joined, short

#: The key under which a dataclass field of a :class:`Params` keeps its :class:`Option`.
OPTION = "skirmish.option"

#: The longest text a name option takes (a figure's, a unit's, a side's name).
NAME_LENGTH = 64
#: The longest free text an option takes (a list of names, a path of waypoints).
TEXT_LENGTH = 200


class Kind(StrEnum):
    """What an option holds, which decides its type, how it is read and what completes it."""

    TEXT = "text"
    NUMBER = "number"  # a finite number (inches …)
    WHOLE = "whole"  # a whole number
    FLAG = "flag"  # yes or no
    CHOICE = "choice"  # one of a few listed words
    FIGURE = "figure"  # one of the game's figures (usually the acting side's own)
    ENEMY = "enemy"  # a figure of another side
    UNIT = "unit"  # one of the game's units (NSR)
    SIDE = "side"  # one of the sides
    POINT = "point"  # a point on the map, "x,y" in inches
    PATH = "path"  # waypoints on the map, "x,y x,y"
    NAMES = "names"  # several names, "A, B and C"
    KIND = "kind"  # one of the ruleset's kinds of figure (a roster entry's)
    ROSTER = "roster"  # a figure of the campaign's rosters (not only the game's)
    FILE = "file"  # an attached file (a roster, a map, a campaign)

    @property
    def names_one(self) -> bool:
        """Whether the option names one thing of the game (completed from the game's names)."""
        return self in (Kind.FIGURE, Kind.ENEMY, Kind.UNIT, Kind.SIDE)


class Where(StrEnum):
    """Where an option is given: anywhere; only on the bot's map (the map measures the rest); or
    only at a table of the players' own (a distance the map would measure, typed by hand)."""

    ANYWHERE = "anywhere"
    MAP = "map"
    TABLE = "table"


#: The Python type of an option's value, by kind (text for every kind not listed).
VALUE_TYPES: Mapping[Kind, type] = {Kind.NUMBER: float, Kind.WHOLE: int, Kind.FLAG: bool}


@dataclass(frozen=True)
class Option:
    """One option of an action, as every front-end shows and reads it."""

    name: str
    help: str
    kind: Kind = Kind.TEXT
    required: bool = False
    choices: tuple[str, ...] = ()
    lowest: float | None = None
    highest: float | None = None
    length: int = NAME_LENGTH
    where: Where = Where.ANYWHERE
    #: What each choice is shown as, in the order of ``choices`` (YASG's facing: "north" for "n");
    #: a label is read as its choice. Empty: each choice is shown as itself.
    labels: tuple[str, ...] = ()
    #: A value that reads like a real use, for /help's example line ("E4" for a square); empty:
    #: the help picks one by the option's name or kind.
    example: str = ""

    @property
    def value_type(self) -> type:
        return VALUE_TYPES.get(self.kind, str)


def option(
    help: str,
    kind: Kind = Kind.TEXT,
    *,
    required: bool = False,
    choices: Sequence[str] = (),
    lowest: float | None = None,
    highest: float | None = None,
    length: int | None = None,
    where: Where = Where.ANYWHERE,
    labels: Sequence[str] = (),
    example: str = "",
) -> Any:
    """A field of a :class:`Params` dataclass: an option not given is None (a required one has no
    default). ``length`` bounds a text (names: 64, lists and paths: 200)."""
    if choices and kind is Kind.TEXT:
        kind = Kind.CHOICE
    if length is None:
        length = TEXT_LENGTH if kind in (Kind.NAMES, Kind.PATH, Kind.TEXT) else NAME_LENGTH
    declared = Option("", help, kind, required, tuple(choices), lowest, highest, length, where, tuple(labels), example)
    if required:
        return dataclasses.field(metadata={OPTION: declared})
    return dataclasses.field(default=None, metadata={OPTION: declared})


@dataclass(frozen=True, kw_only=True)
class Params:
    """The options of one action, read and checked; a ruleset's subclasses declare them with
    :func:`option` (``@dataclass(frozen=True, kw_only=True)``)."""


@dataclass(frozen=True, kw_only=True)
class NoParams(Params):
    """An action that takes no options."""


P = TypeVar("P", bound=Params)
C = TypeVar("C")


_OPTIONS: dict[type[Params], tuple[Option, ...]] = {}


def options_of(params: type[Params]) -> tuple[Option, ...]:
    """The options of a params dataclass, in the order they are declared. A field named after a
    Python keyword with a trailing underscore (``class_``) is the option of that name (``class``)."""
    known = _OPTIONS.get(params)
    if known is not None:
        return known
    found = []
    for spec_field in dataclasses.fields(params):
        declared = spec_field.metadata.get(OPTION)
        if declared is None:
            raise TypeError(f"{params.__name__}.{spec_field.name} is not declared with option()")
        found.append(dataclasses.replace(declared, name=option_name(spec_field.name)))
    _OPTIONS[params] = tuple(found)
    return _OPTIONS[params]


def option_name(field_name: str) -> str:
    """The option a field of a :class:`Params` declares: its name (``class_`` → ``class``)."""
    return field_name.removesuffix("_") if keyword.iskeyword(field_name.removesuffix("_")) else field_name


def read_params(params: type[P], raw: Mapping[str, Any], action: str) -> P:
    """``raw`` options (as a front-end, a log or self-play gives them) read into ``params``: each
    value checked against its option, or a RuleError saying what is wrong. An option the action
    does not take is refused, unless it is not given at all (None)."""
    declared = options_of(params)
    names = {o.name for o in declared}
    for key, value in raw.items():
        if key not in names and value is not None:
            takes = joined([o.name for o in declared], "and") or "no options"
            raise RuleError(f"{action} has no option {short(str(key))}: it takes {takes}.")
    values = {o.name: read_option(o, raw.get(o.name)) for o in declared}
    missing = [o for o in declared if o.required and values[o.name] is None]
    if missing:
        raise RuleError(f"Give {missing[0].name}: ({missing[0].help}).")
    fields = [f.name for f in dataclasses.fields(params)]
    return params(**{field: values[o.name] for field, o in zip(fields, declared, strict=True)})


def read_option(declared: Option, value: Any) -> Any:
    """One option's value, checked; None when it is not given (or is blank text)."""
    if value is None:
        return None
    if declared.kind is Kind.FILE:  # a front-end's upload, read by the command that takes it
        return value
    name = declared.name
    if declared.kind is Kind.FLAG:
        return flag(value, f"{name}: is yes or no.")
    if declared.kind in (Kind.NUMBER, Kind.WHOLE):
        return _read_number(declared, value)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        value = f"{value:g}"  # a number given for text (a facing in degrees) reads as typed
    if not isinstance(value, str):
        raise RuleError(f"{name}: takes text, not {short(str(value))}.")
    text = value.strip()
    if not text:
        return None
    if declared.kind is Kind.CHOICE:
        named = dict(zip(declared.labels, declared.choices, strict=False))
        shown = list(declared.labels or declared.choices)
        picked = choice(text, [*declared.choices, *named], f"{name}: is {joined(shown, 'or')}.")
        return named.get(picked, picked)
    if len(text) > declared.length:
        raise RuleError(f"{name}: is at most {declared.length} characters.")
    return text


def _read_number(declared: Option, value: Any) -> float | int:
    whole = declared.kind is Kind.WHOLE
    bounds = _bounds_phrase(declared)
    message = f"{declared.name}: takes {'a whole number' if whole else 'a number'}{bounds}."
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise RuleError(message)
    read: float | int = float(value)
    if whole:
        if not float(value).is_integer():
            raise RuleError(message)
        read = int(value)
    if (declared.lowest is not None and read < declared.lowest) or (
        declared.highest is not None and read > declared.highest
    ):
        raise RuleError(message)
    return read


def _bounds_phrase(declared: Option) -> str:
    low, high = declared.lowest, declared.highest
    if low is not None and high is not None:
        return f" from {low:g} to {high:g}"
    if low is not None:
        return f" of at least {low:g}"
    if high is not None:
        return f" of at most {high:g}"
    return ""


@dataclass(frozen=True)
class Candidate:
    """An action a side could take now, with its options as a player would type them, and how
    much an eager player likes it (shots, charges and moves toward the enemy weigh more than moves
    away). Self-play's random sides draw from these; a bot playing a side chooses among them."""

    action: str
    params: Mapping[str, Any]
    weight: float = 1.0


class Role(StrEnum):
    """What an action is to the shell."""

    PLAY = "play"  # an ordinary action of a side's turn
    PASS = "pass"  # the action that ends a side's turn or phase (offered as a button; taken for an absent player)
    ANSWER = "answer"  # the answer to a waiting decision (taken through /decide and its buttons)
    MAP = "map"  # placing figures before the battle (taken through /map place and /map deploy)


#: The candidate actions of one spec for a side: ``(engine, state, side) -> candidates``.
Candidates = Callable[[Any, Any, str], Sequence[Candidate]]


def no_candidates(engine: Any, state: Any, side: str) -> Sequence[Candidate]:
    return ()


@dataclass(frozen=True)
class ActionSpec(Generic[C, P]):
    """One action of a ruleset: everything any front-end needs to offer it, and what carries it out.

    ``acting`` names the option that says which figure (or unit) acts, when there is one: the
    next-move buttons offer the action for each figure that may still act. ``candidates`` lists
    what a side could do with it in a state.
    """

    name: str
    sentence: str
    params: type[P]
    handler: Callable[[C, P], None]
    role: Role = Role.PLAY
    acting: str | None = None
    candidates: Candidates = no_candidates

    @property
    def options(self) -> tuple[Option, ...]:
        return options_of(self.params)

    def read(self, raw: Mapping[str, Any]) -> P:
        return read_params(self.params, raw, self.name)


def spec_table(*specs: ActionSpec[Any, Any]) -> dict[str, ActionSpec[Any, Any]]:
    """A ruleset's specs by name, in the order given (the order its commands are listed in)."""
    table: dict[str, ActionSpec[Any, Any]] = {}
    for spec in specs:
        if spec.name in table:
            raise ValueError(f"two actions are called {spec.name}")
        if spec.acting is not None and spec.acting not in {o.name for o in spec.options}:
            raise ValueError(f"{spec.name}: acting names no option ({spec.acting})")
        table[spec.name] = spec
    return table


# --- options every map ruleset's move shares ------------------------------------------------------


def to_option() -> Any:
    return option(
        'Map: where it goes, x,y in inches from the lower-left corner ("14,22")', Kind.POINT, length=40, where=Where.MAP
    )


def via_option() -> Any:
    return option(
        'Map: waypoints on the way, "10,12 14,18" (the last is the end unless to: is given)', Kind.PATH, where=Where.MAP
    )
