"""Typed payloads for the events the shell draws: wounds, casualties, phases and bounds, victories,
free rolls and decisions.

An :class:`~rules.vocabulary.Event` keeps its ``data`` as a plain mapping: that is what the
database stores and what the terminal's ``--json`` prints, and a ruleset may add any keys of its
own. The event kinds the shell draws carry, besides those keys, the fields of one payload class
under the fields' own names, so a renderer reads named fields instead of guessing between keys::

    ctx.events.append(CasualtyPayload("Bo", "blue", by="Rossi").event("Bo is removed.", weapon="rifle"))
    ...
    casualty = payload_of(event, CasualtyPayload)   # from a fresh event or one read back from storage
    if casualty is not None:
        print(casualty.figure, casualty.side)

A payload's field values are JSON-ready (text, numbers, None; a tuple is stored as a list).
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar, cast, overload

from rules.plain import per_type
from rules.vocabulary import Event

P = TypeVar("P", bound="Payload")


#: A field's metadata marking it written even when it holds its default (a key every such event had).
ALWAYS = {"written": "always"}


class Payload:
    """What every typed payload can do: become an event's data, and be read back from it."""

    #: The event kinds this payload belongs to; the first is the one :meth:`event` makes by default.
    kinds: ClassVar[tuple[str, ...]] = ()

    def data(self, **extra: Any) -> dict[str, Any]:
        """The event data: the payload's fields, then ``extra`` (the ruleset's own keys; a payload
        field of the same name wins). A field with a default is written only when it differs from
        it (so an event keeps the shape it had before payloads existed), unless marked
        :data:`ALWAYS`; a field without a default always is."""
        data: dict[str, Any] = {}
        for spec in _plan(type(self)):
            value = getattr(self, spec.name)
            if spec.always or value != spec.default:
                data[spec.name] = list(value) if isinstance(value, tuple) else value
        for key, value in extra.items():
            data.setdefault(key, value)
        return data

    def event(self, text: str, *, kind: str | None = None, **extra: Any) -> Event:
        """An event of this payload's kind saying ``text``, with ``extra`` keys beside the payload's."""
        return Event(kind or self.kinds[0], text, self.data(**extra))

    @classmethod
    def read(cls: type[P], data: Mapping[str, Any]) -> P | None:
        """The payload held in an event's data; None when a field without a default is missing."""
        values: dict[str, Any] = {}
        for spec in _plan(cls):
            if spec.name in data:
                value = data[spec.name]
                values[spec.name] = tuple(value) if spec.is_tuple and isinstance(value, (list, tuple)) else value
            elif spec.required:
                return None
        return cls(**values)


@dataclass(frozen=True)
class _Field:
    name: str
    is_tuple: bool  # a tuple in the payload, a list in the data
    required: bool  # no default: always written, and a payload without it cannot be read
    always: bool  # written even when it holds its default
    default: Any


@per_type
def _plan(cls: type[Payload]) -> tuple[_Field, ...]:
    """How each field of a payload class is written and read (worked out once per class)."""
    hints = typing.get_type_hints(cls)
    fields: tuple[dataclasses.Field[Any], ...] = dataclasses.fields(cast(Any, cls))
    plan = []
    for f in fields:
        required = f.default is dataclasses.MISSING
        plan.append(
            _Field(
                f.name,
                typing.get_origin(hints[f.name]) is tuple,
                required,
                required or f.metadata.get("written") == "always",
                None if required else f.default,
            )
        )
    return tuple(plan)


@dataclass(frozen=True)
class WoundPayload(Payload):
    """A figure wounded (a wound card): who, by whom, and what the wound does now.

    ``heading`` is what the card's title names after the figure (the body part hit, or the wound
    chart's row); ``effects`` are the lines "now in force"; ``outcome`` is the wound in a few words,
    as /odds tallies it ("serious wound").
    """

    kinds: ClassVar[tuple[str, ...]] = ("wound",)

    figure: str
    side: str | None = None
    by: str | None = None
    heading: str | None = None
    effects: tuple[str, ...] = ()
    outcome: str | None = None

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> WoundPayload | None:
        """Also a wound stored before payloads existed: its heading was ``row`` or ``location`` (a
        body part's key, "left_arm"), its effects ``penalties`` or ``effects`` (text or lines), its
        outcome the row, ``severity`` or ``result``."""
        wound = super().read(data)
        if wound is None or "heading" in data or "outcome" in data:
            return wound
        heading = data.get("row") or data.get("location")
        effects = data.get("penalties", data.get("effects"))
        lines = effects if isinstance(effects, (list, tuple)) else [effects] if effects else []
        outcome = data.get("row") or data.get("severity") or data.get("result")
        return dataclasses.replace(
            wound,
            heading=str(heading).replace("_", " ") if heading else None,
            effects=tuple(str(line) for line in lines),
            outcome=str(outcome) if outcome else None,
        )


@dataclass(frozen=True)
class CasualtyPayload(Payload):
    """A figure (or a unit) out of the fight (a casualty card; the report counts them by side)."""

    kinds: ClassVar[tuple[str, ...]] = ("casualty",)

    figure: str
    side: str | None = field(default=None, metadata=ALWAYS)
    #: Who or what put it out of the fight (None when nobody did: a figure that collapsed).
    by: str | None = field(default=None, metadata=ALWAYS)


@dataclass(frozen=True)
class PhasePayload(Payload):
    """A turn or a phase begins: its number opens a turn heading in the report (0: setting up)."""

    kinds: ClassVar[tuple[str, ...]] = ("phase",)

    turn: int | None = None
    phase: str | None = None


@dataclass(frozen=True)
class BoundPayload(Payload):
    """A bound begins or ends, or a character's turn in it (Sharpe): the report heads it "Bound n"."""

    kinds: ClassVar[tuple[str, ...]] = ("bound", "turn")

    bound: int


@dataclass(frozen=True)
class VictoryPayload(Payload):
    """The game is won (``winner``; ``loser`` when one side lost) or drawn (``winner`` None)."""

    kinds: ClassVar[tuple[str, ...]] = ("victory",)

    winner: str | None
    loser: str | None = None


@dataclass(frozen=True)
class RollPayload(Payload):
    """A free roll (/roll): the dice expression, its total, and whether the game master rolled in secret."""

    kinds: ClassVar[tuple[str, ...]] = ("roll",)

    expression: str
    total: int
    secret: bool = False


@dataclass(frozen=True)
class DecisionPayload(Payload):
    """A side is asked to choose (``choices`` are the values it may answer with), for ``figure``."""

    kinds: ClassVar[tuple[str, ...]] = ("decision",)

    decider: str
    figure: str | None = None
    choices: tuple[str, ...] = ()


PAYLOADS: tuple[type[Payload], ...] = (
    WoundPayload,
    CasualtyPayload,
    PhasePayload,
    BoundPayload,
    VictoryPayload,
    RollPayload,
    DecisionPayload,
)
#: event kind -> the payload its data carries
PAYLOAD_OF_KIND: Mapping[str, type[Payload]] = {kind: cls for cls in PAYLOADS for kind in cls.kinds}


@overload
def payload_of(event: Event) -> Payload | None: ...


@overload
def payload_of(event: Event, cls: type[P]) -> P | None: ...


def payload_of(event: Event, cls: type[Payload] | None = None) -> Payload | None:
    """The typed payload of ``event`` (fresh, or read back from storage as a plain mapping).

    None when its kind carries no payload (or not the one ``cls`` asks for), or when the data lacks
    a required field (an event stored before payloads existed, or made by hand).
    """
    found = PAYLOAD_OF_KIND.get(event.kind)
    if found is None or (cls is not None and found is not cls):
        return None
    return found.read(event.data) if isinstance(event.data, Mapping) else None


def modifier_data(modifiers: Iterable[tuple[str, int]]) -> list[dict[str, Any]]:
    """The modifiers a roll's text adds, as every ruleset's event data carries them (one format,
    so a script reads any ruleset's rolls alike): ``[{"reason": "half range", "value": 1}]``."""
    return [{"reason": reason, "value": value} for reason, value in modifiers]


def default_outcome(events: Sequence[Event]) -> str:
    """What an action did, as /odds labels it: who fell, which wounds, a misfire; else "no effect"."""
    parts: list[str] = []
    for event in events:
        if event.kind == "misfire":
            parts.append("misfire")
        elif (wound := payload_of(event, WoundPayload)) is not None:
            parts.append(f"{wound.figure}: {wound.outcome or 'wounded'}")
        elif (casualty := payload_of(event, CasualtyPayload)) is not None:
            parts.append(f"{casualty.figure} out")
    return "; ".join(parts) or "no effect"
