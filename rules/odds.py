"""Odds before you roll, for any engine: run the action under every possible sequence of dice
(exact, when that tree is small) or under many random ones (simulation), and tally its outcomes.

It needs nothing from a ruleset but ``act``: the engine rolls through the DiceSource it is given,
and this module is that source. The engine names each run's outcome (``Engine.odds_outcome``:
by default who was wounded or fell, and misfires) and says whether its actions may be enumerated
at all (``Engine.odds_exact``). Rules read no clock: a time limit is the caller's :class:`Budget`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from rules.core import Action, DiceSource, Engine, Event, default_outcome

__all__ = ["Budget", "Odds", "default_outcome", "odds"]

EXACT_LIMIT = 20_000
#: An action that may roll more dice than this in one go (ties re-rolled without end) is simulated.
MAX_DICE_PER_RUN = 24
SIMULATIONS = 10_000
#: The seconds a caller's budget allows by default (see :class:`Budget`).
TIME_BUDGET = 2.0
#: A simulation makes at least this many runs, whatever the budget says.
MIN_SIMULATIONS = 500


@dataclass(frozen=True)
class Budget:
    """The time /odds may take, measured on a clock the caller passes (``time.monotonic``: the
    rules read none). Enumeration may use half of ``seconds`` before it gives way to a simulation,
    which may use all of them (after :data:`MIN_SIMULATIONS` runs) and reports the runs it made."""

    clock: Callable[[], float]
    seconds: float = TIME_BUDGET

    def deadline(self, share: float = 1.0) -> Callable[[], bool]:
        """True once ``share`` of the budget, counted from now, is spent."""
        end = self.clock() + self.seconds * share
        return lambda: self.clock() > end


def _never() -> bool:
    return False


class _TooMany(Exception):
    pass


@dataclass(frozen=True)
class Odds:
    method: Literal["exact", "simulation"]
    runs: int
    outcomes: tuple[tuple[str, float], ...]  # label, probability; most likely first
    casualties: float  # expected figures out of the fight


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
    budget: Budget | None = None,
) -> Odds:
    """The chances of each outcome of ``action`` in ``state``; a RuleError if it is not legal now.

    ``random_dice`` is used only when there are too many dice sequences to enumerate (more than
    ``exact_limit``, or more than ``budget`` allows). Without a budget the limits are counts alone:
    ``exact_limit`` sequences, then exactly ``simulations`` runs.
    """
    label = engine.odds_outcome
    try:
        if not engine.odds_exact:
            raise _TooMany  # the engine knows its actions branch too widely (cards)
        return _exact(engine, state, action, label, exact_limit, budget.deadline(0.5) if budget else _never)
    except _TooMany:
        spent = budget.deadline() if budget else _never
        return _simulate(engine, state, action, label, simulations, random_dice, spent)


def _exact(
    engine: Engine[Any],
    state: Any,
    action: Action,
    label: Callable[[Sequence[Event]], str],
    limit: int,
    spent: Callable[[], bool],
) -> Odds:
    tally: defaultdict[str, Fraction] = defaultdict(Fraction)
    casualties = Fraction(0)
    prefix: list[int] = []
    runs = 0
    while True:
        dice = _PathDice(prefix)
        events = engine.act(state, action, dice).events
        runs += 1
        if runs > limit or (runs % 256 == 0 and spent()):
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
    spent: Callable[[], bool],
) -> Odds:
    tally: Counter[str] = Counter()
    casualties = 0
    runs = 0
    while runs < simulations and (runs < MIN_SIMULATIONS or not spent()):
        events = engine.act(state, action, dice).events
        tally[label(events)] += 1
        casualties += _casualties(events)
        runs += 1
    ranked = sorted(((k, v / runs) for k, v in tally.items()), key=lambda kv: (-kv[1], kv[0]))
    return Odds("simulation", runs, tuple(ranked), casualties / runs)
