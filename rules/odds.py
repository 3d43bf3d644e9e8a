"""Odds before you roll, for any engine: run the action under every possible sequence of dice
(exact, when that tree is small) or under many random ones (simulation), and tally its outcomes.

It needs nothing from a ruleset but ``act``: the engine rolls through the DiceSource it is given,
and this module is that source. An engine may name outcomes itself with
``odds_outcome(events) -> str`` (otherwise they are read from the events: casualties, wounds,
misfires), and may say ``odds_exact = False`` when its actions branch too widely to enumerate.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from rules.core import Action, DiceSource, Engine, Event

EXACT_LIMIT = 20_000
#: An action that may roll more dice than this in one go (ties re-rolled without end) is simulated.
MAX_DICE_PER_RUN = 24
SIMULATIONS = 10_000
#: Seconds a simulation may take at most (it reports the runs it made).
TIME_BUDGET = 2.0


class _TooMany(Exception):
    pass


@dataclass(frozen=True)
class Odds:
    method: Literal["exact", "simulation"]
    runs: int
    outcomes: tuple[tuple[str, float], ...]  # label, probability; most likely first
    casualties: float  # expected figures out of the fight


def default_outcome(events: Sequence[Event]) -> str:
    """What an action did, as a label: who fell, which wounds, a misfire; else "no effect"."""
    parts: list[str] = []
    for event in events:
        data = event.data
        if event.kind == "misfire":
            parts.append("misfire")
        elif event.kind == "wound" and data.get("figure"):
            detail = data.get("row") or data.get("severity") or data.get("result") or "wounded"
            parts.append(f"{data.get('figure', '?')}: {detail}")
        elif event.kind == "casualty":
            parts.append(f"{data.get('figure', '?')} out")
    return "; ".join(parts) or "no effect"


class _PathDice:
    """Follows a fixed prefix of choices, then the first face; records every branching point."""

    def __init__(self, prefix: list[int]) -> None:
        self.prefix = prefix
        self.taken: list[tuple[int, int]] = []

    def _choose(self, count: int) -> int:
        index = len(self.taken)
        if index >= MAX_DICE_PER_RUN:
            raise _TooMany
        choice = self.prefix[index] if index < len(self.prefix) else 0
        self.taken.append((choice, count))
        return choice

    def roll(self, sides: int, reason: str) -> int:
        return self._choose(sides) + 1

    def draw(self, cards: Sequence[str], reason: str) -> str:
        return list(cards)[self._choose(len(cards))]


def _casualties(events: Sequence[Event]) -> int:
    return sum(1 for e in events if e.kind == "casualty")


def odds(
    engine: Engine[Any],
    state: Any,
    action: Action,
    random_dice: DiceSource,
    *,
    exact_limit: int = EXACT_LIMIT,
    simulations: int = SIMULATIONS,
) -> Odds:
    """The chances of each outcome of ``action`` in ``state``; a RuleError if it is not legal now.

    ``random_dice`` is used only when there are too many dice sequences to enumerate.
    """
    label: Callable[[Sequence[Event]], str] = getattr(engine, "odds_outcome", None) or default_outcome
    try:
        if not getattr(engine, "odds_exact", True):
            raise _TooMany  # the engine knows its actions branch too widely (cards)
        return _exact(engine, state, action, label, exact_limit)
    except _TooMany:
        return _simulate(engine, state, action, label, simulations, random_dice)


def _exact(
    engine: Engine[Any], state: Any, action: Action, label: Callable[[Sequence[Event]], str], limit: int
) -> Odds:
    tally: Counter[str] = Counter()
    casualties = Fraction(0)
    prefix: list[int] = []
    runs = 0
    deadline = time.monotonic() + TIME_BUDGET / 2
    while True:
        dice = _PathDice(prefix)
        events = engine.act(state, action, dice).events
        runs += 1
        if runs > limit or (runs % 256 == 0 and time.monotonic() > deadline):
            raise _TooMany
        chance = Fraction(1)
        for _, count in dice.taken:
            chance /= count
        tally[label(events)] += chance
        casualties += chance * _casualties(events)
        prefix = [choice for choice, _ in dice.taken]
        counts = [count for _, count in dice.taken]
        while prefix and prefix[-1] + 1 >= counts[len(prefix) - 1]:
            prefix.pop()
        if not prefix:
            break
        prefix[-1] += 1
    ranked = sorted(((k, float(v)) for k, v in tally.items()), key=lambda kv: (-kv[1], kv[0]))
    return Odds("exact", runs, tuple(ranked), float(casualties))


def _simulate(
    engine: Engine[Any],
    state: Any,
    action: Action,
    label: Callable[[Sequence[Event]], str],
    simulations: int,
    dice: DiceSource,
) -> Odds:
    tally: Counter[str] = Counter()
    casualties = 0
    deadline = time.monotonic() + TIME_BUDGET
    runs = 0
    while runs < simulations and (runs < 500 or time.monotonic() < deadline):
        events = engine.act(state, action, dice).events
        tally[label(events)] += 1
        casualties += _casualties(events)
        runs += 1
    ranked = sorted(((k, v / runs) for k, v in tally.items()), key=lambda kv: (-kv[1], kv[0]))
    return Odds("simulation", runs, tuple(ranked), casualties / runs)
