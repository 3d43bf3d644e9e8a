"""The checks made after every line of a self-played battle, a module per concern.

Each invariant looks at one :class:`Step` (the line, what the terminal printed, the saved game
before and after) and returns the problems it found, as sentences; ``at_end`` looks at the whole
battle once it is over. A ruleset that needs another reading of a check gives its own (see
:func:`for_ruleset`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.selfplay.table import Record, Snapshot

KEYS = ("bug", "refusal", "budget", "turn", "hints", "placement", "replay", "tallies", "verify")


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


def for_ruleset(slug: str, *, budget: float) -> list[Invariant]:
    """Fresh invariants for one battle of ``slug`` (some keep what they saw between steps)."""
    from bot.selfplay.invariants import budget as budget_check
    from bot.selfplay.invariants import errors, hints, placement, refusal, replay, tallies, turns, verify

    return [
        errors.NoBug(),
        refusal.RefusalChangesNothing(),
        budget_check.WithinBudget(budget),
        turns.NobodyOutOfTurn(),
        hints.HintsAccepted(),
        placement.OnTheTable(),
        replay.ReplayGivesState(),
        tallies.TalliesMatch(),
        verify.DiceVerify(),
    ]


def state_of(snap: Snapshot) -> Any:
    return snap.state() if snap.game is not None else None
