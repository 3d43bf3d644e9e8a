"""What an invariant looks at and how it answers: a :class:`Step` (one line of a self-played
battle), the :class:`End` of the battle, and :class:`Check`, the base of every invariant.

The invariants' own modules import this one, and the package imports them: a leaf, so the package
and its checks form no circle."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.selfplay.table import Record, Snapshot


@dataclass
class Step:
    record: Record
    before: Snapshot
    after: Snapshot
    seconds: float
    #: Errors the bot logged while the line ran.
    logged: Sequence[str] = ()
    #: What the battle loop meant by the line: "move", "hint", "probe" (out of turn), "extra".
    intent: str = "move"


@dataclass
class End:
    """The battle as it ended: its last snapshot and the report the game master got."""

    last: Snapshot
    report: str | None
    actions: int
    notes: list[str] = field(default_factory=list)


class Invariant(Protocol):
    #: What it checks, in words; ``key`` names it on the command line (``--allow hints``).
    name: str
    key: str

    def after(self, step: Step) -> list[str]: ...

    def at_end(self, end: End) -> list[str]: ...


class Check:
    """An invariant that checks steps only, or the end only: override the one it needs."""

    name = "check"
    key = "check"

    def after(self, step: Step) -> list[str]:
        return []

    def at_end(self, end: End) -> list[str]:
        return []


def state_of(snap: Snapshot) -> Any:
    return snap.state() if snap.game is not None else None
