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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, cast, overload

from rules.plain import per_type
from rules.vocabulary import Event

P = TypeVar("P", bound="Payload")


class Payload:
    """What every typed payload can do: become an event's data, and be read back from it."""

    #: The event kinds this payload belongs to; the first is the one :meth:`event` makes by default.
    kinds: ClassVar[tuple[str, ...]] = ()

    def data(self, **extra: Any) -> dict[str, Any]:
        """The event data: the payload's fields, then ``extra`` (the ruleset's own keys; a payload
        field of the same name wins). A field with a default is written only when it differs from
        it (so an event keeps the shape it had before payloads existed); one without always is."""
        data = {
            name: list(value) if isinstance(value, tuple) else value
            for name, value, written in _values(self)
            if written
        }
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
        for name, tuple_field, required, _ in _plan(cls):
            if name in data:
                value = data[name]
                values[name] = tuple(value) if tuple_field and isinstance(value, (list, tuple)) else value
            elif required:
                return None
        return cls(**values)


def _values(payload: Payload) -> list[tuple[str, Any, bool]]:
    """Each field's name, value, and whether it is written (required, or not its default)."""
    out = []
    for name, _, required, default in _plan(type(payload)):
        value = getattr(payload, name)
        out.append((name, value, required or value != default))
    return out


@per_type
def _plan(cls: type[Payload]) -> tuple[tuple[str, bool, bool, Any], ...]:
    """Each field: its name, whether it holds a tuple (a list in data), whether it is required, its default."""
    hints = typing.get_type_hints(cls)
    fields: tuple[dataclasses.Field[Any], ...] = dataclasses.fields(cast(Any, cls))
    return tuple(
        (
            f.name,
            typing.get_origin(hints[f.name]) is tuple,
            f.default is dataclasses.MISSING,
            None if f.default is dataclasses.MISSING else f.default,
        )
        for f in fields
    )


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


@dataclass(frozen=True)
class CasualtyPayload(Payload):
    """A figure (or a unit) out of the fight (a casualty card; the report counts them by side)."""

    kinds: ClassVar[tuple[str, ...]] = ("casualty",)

    figure: str
    side: str | None
    #: Who or what put it out of the fight (None when nobody did: a figure that collapsed).
    by: str | None


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
