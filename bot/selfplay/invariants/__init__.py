"""The checks made after every line of a self-played battle, a module per concern.

Each invariant looks at one :class:`Step` (the line, what the terminal printed, the saved game
before and after) and returns the problems it found, as sentences; ``at_end`` looks at the whole
battle once it is over. A ruleset that needs another reading of a check gives its own (see
:func:`for_ruleset`)."""

from __future__ import annotations

from bot.selfplay.invariants import budget as budget_check
from bot.selfplay.invariants import errors, hints, placement, refusal, replay, tallies, turns, verify
from bot.selfplay.invariants.check import Check, End, Invariant, Step

__all__ = ["KEYS", "Check", "End", "Invariant", "Step", "for_ruleset"]

KEYS = ("bug", "refusal", "budget", "turn", "hints", "placement", "replay", "tallies", "verify")


def for_ruleset(slug: str, *, budget: float) -> list[Invariant]:
    """Fresh invariants for one battle of ``slug`` (some keep what they saw between steps)."""
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
