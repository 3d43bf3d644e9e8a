"""Odds before you roll, for any engine: run the action under every possible sequence of dice
(exact, when that tree is small) or under many random ones (simulation), and tally its outcomes.

It needs nothing from a ruleset but ``act``: the engine rolls through the DiceSource it is given,
and this module is that source. The engine names each run's outcome (``Engine.odds_outcome``),
counts its casualties (``Engine.odds_casualties``) and may make the tree smaller where its rules
allow: dice read only by their sum (``Engine.odds_pair``: a 2D6 is 11 branches, not 36) and dice
read only by which faces they fall in (``Engine.odds_faces``: a misfire die is 2 branches, not 6).

A roll asked again for the same reason on the same path (a tie rolled again) starts the same
tree again: its chance is a geometric series, summed in closed form rather than cut off or
simulated (see :func:`_renewed`). Rules read no clock: a time limit is the caller's :class:`Budget`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from rules.core import Action, DiceSource, Engine, Event, RuleError, default_outcome

__all__ = ["Budget", "Odds", "OddsReport", "default_outcome", "odds", "odds_report"]

EXACT_LIMIT = 20_000
#: An action that may roll more dice than this in one go is simulated.
MAX_DICE_PER_RUN = 24
SIMULATIONS = 10_000
#: The seconds a caller's budget allows by default (see :class:`Budget`).
TIME_BUDGET = 2.0
#: The share of the budget enumeration may use before it gives way to a simulation.
EXACT_SHARE = 0.5
#: A simulation makes at least this many runs, whatever the budget says.
MIN_SIMULATIONS = 500
#: How many of a repeated tree's outcomes are replayed after one of its repeats to check that
#: the tree really starts again there (see :func:`_renewed`).
RENEWAL_CHECKS = 48


@dataclass(frozen=True)
class Budget:
    """The time /odds may take, measured on a clock the caller passes (``time.monotonic``: the
    rules read none). Enumeration may use :data:`EXACT_SHARE` of ``seconds`` before it gives way to
    a simulation, which may use all of them (after :data:`MIN_SIMULATIONS` runs)."""

    clock: Callable[[], float]
    seconds: float = TIME_BUDGET

    def deadline(self, share: float = 1.0) -> Callable[[], bool]:
        """True once ``share`` of the budget, counted from now, is spent."""
        end = self.clock() + self.seconds * share
        return lambda: self.clock() > end

    def split(self, parts: int) -> Budget:
        return Budget(self.clock, self.seconds / max(1, parts))


def _never() -> bool:
    return False


class _TooMany(Exception):
    pass


class _Renewal(Exception):
    """A roll asked again for a reason this path already rolled for (at ``index``)."""

    def __init__(self, index: int) -> None:
        self.index = index


@dataclass(frozen=True)
class Odds:
    #: exact: every sequence of dice walked; counted: exact, the engine's own count (NSR's cards);
    #: simulation: random runs.
    method: Literal["exact", "counted", "simulation"]
    runs: int
    outcomes: tuple[tuple[str, float], ...]  # label, probability; most likely first
    casualties: float  # expected figures out of the fight
    #: Each part of the labels ("b3: fails morale") with its own chance, in the order first met:
    #: what a player reads when the whole outcomes are too many to list.
    parts: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class OddsReport:
    """The odds of an action; one section per answer when the action first waits for a choice
    (a Sharpe defender's defence), each headed by that choice."""

    sections: tuple[tuple[str, Odds], ...]
    asks: str = ""  # who chooses, when the sections are choices


Run = Callable[[DiceSource], Sequence[Event]]


@dataclass
class _Step:
    choice: int
    weights: tuple[Fraction, ...]


class _PathDice:
    """Follows a fixed prefix of choices, then the first option; records every branching point."""

    def __init__(self, engine: Engine[Any], prefix: Sequence[int], *, renew: bool = True) -> None:
        self.engine = engine
        self.prefix = prefix
        self.renew = renew
        self.taken: list[_Step] = []
        self.reasons: dict[tuple[int, str], int] = {}
        self.second: int | None = None

    def _choose(self, weights: tuple[Fraction, ...]) -> int:
        index = len(self.taken)
        if index >= MAX_DICE_PER_RUN:
            raise _TooMany
        choice = self.prefix[index] if index < len(self.prefix) else 0
        self.taken.append(_Step(choice, weights))
        return choice

    def roll(self, sides: int, reason: str) -> int:
        if self.second is not None:
            face, self.second = self.second, None
            return face
        if self.renew:
            seen = self.reasons.setdefault((sides, reason), len(self.taken))
            if seen != len(self.taken):
                raise _Renewal(seen)
        if self.engine.odds_pair(reason):
            sums = _pair_sums(sides)
            total = sums[self._choose(tuple(w for _, w in sums))][0]
            first = max(1, total - sides)
            self.second = total - first
            return first
        groups = self.engine.odds_faces(sides, reason)
        if groups:
            return groups[self._choose(tuple(Fraction(len(g), sides) for g in groups))][0]
        return self._choose(_uniform(sides)) + 1

    def draw(self, cards: Sequence[str], reason: str) -> str:
        return cards[self._choose(_uniform(len(cards)))]


def _uniform(sides: int) -> tuple[Fraction, ...]:
    return (Fraction(1, sides),) * sides


def _pair_sums(sides: int) -> list[tuple[int, Fraction]]:
    ways = Counter(a + b for a in range(1, sides + 1) for b in range(1, sides + 1))
    return [(total, Fraction(ways[total], sides * sides)) for total in sorted(ways)]


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
    counted = engine.odds_counted(state, action)
    if counted is not None:
        tally: defaultdict[str, float] = defaultdict(float)
        for (label, _), chance in counted.chances.items():
            tally[label] += chance
        casualties = sum(chance * lost for (_, lost), chance in counted.chances.items())
        return _ranked("counted", counted.states, dict(tally), casualties)
    walk = engine.odds_walkable(action.name)
    run: Run = lambda dice: engine.act(state, action, dice).events  # noqa: E731
    return _odds_of(engine, run, walk, random_dice, exact_limit, simulations, budget)


def odds_report(engine: Engine[Any], state: Any, action: Action, random_dice: DiceSource, budget: Budget) -> OddsReport:
    """The odds of ``action``; when it first waits for a choice before any die is rolled, the odds
    of each answer the decider may give, in the order the choice offers them."""
    try:
        first = engine.act(state, action, _Probe())
    except _Rolled:
        first = None
    asked = first.pending if first is not None else None
    if first is None or asked is None:
        return OddsReport((("", odds(engine, state, action, random_dice, budget=budget)),))
    sections: list[tuple[str, Odds]] = []
    shares = budget.split(len(asked.choices))
    side = None if asked.decider == "gm" else asked.decider
    for choice in asked.choices:
        answer = Action(asked.resume_action, side, {**asked.params, "choice": choice.value}, asked.decider == "gm")

        def run(dice: DiceSource, answer: Action = answer) -> list[Event]:
            # The action rolled nothing before its choice: its outcome is the same on every path.
            return first.events + engine.act(first.state, answer, dice).events

        try:
            found = _odds_of(
                engine, run, engine.odds_walkable(answer.name), random_dice, EXACT_LIMIT, SIMULATIONS, shares
            )
        except RuleError:
            continue  # an answer the rules would refuse now is no choice
        sections.append((choice.label, found))
    if not sections:
        raise RuleError("This action waits for a choice none of whose answers can be played now.")
    return OddsReport(tuple(sections), asks=asked.prompt)


class _Rolled(Exception):
    """The action rolled a die or turned a card before any choice."""


class _Probe:
    """Dice that stop the action at its first roll: only whether it rolls before a choice matters
    (so a rule that rolls again on a tie never spins on fixed faces)."""

    def roll(self, sides: int, reason: str) -> int:
        raise _Rolled

    def draw(self, cards: Sequence[str], reason: str) -> str:
        raise _Rolled


def _odds_of(
    engine: Engine[Any],
    run: Run,
    walkable: bool,
    random_dice: DiceSource,
    exact_limit: int,
    simulations: int,
    budget: Budget | None,
) -> Odds:
    try:
        if not walkable:
            raise _TooMany  # the engine knows this action branches too widely
        return _exact(engine, run, exact_limit, budget.deadline(EXACT_SHARE) if budget else _never)
    except _TooMany:
        spent = budget.deadline() if budget else _never
        return _simulate(engine, run, simulations, random_dice, spent)


@dataclass
class _End:
    """One path of the tree: a leaf (its label and casualties) or a repeat of the node ``loop``."""

    path: tuple[int, ...]
    weights: tuple[Fraction, ...]
    label: str = ""
    casualties: int = 0
    loop: tuple[int, ...] | None = None
    chance: Fraction = field(default=Fraction(1))


def _walk(engine: Engine[Any], run: Run, limit: int, spent: Callable[[], bool], renew: bool) -> list[_End]:
    ends: list[_End] = []
    prefix: list[int] = []
    while True:
        dice = _PathDice(engine, prefix, renew=renew)
        loop: int | None = None
        events: Sequence[Event] = ()
        try:
            events = run(dice)
        except _Renewal as again:
            loop = again.index
        if len(ends) >= limit or (len(ends) % 128 == 127 and spent()):
            raise _TooMany
        path = tuple(step.choice for step in dice.taken)
        weights = tuple(step.weights[step.choice] for step in dice.taken)
        chance = Fraction(1)
        for w in weights:
            chance *= w
        if loop is None:
            label, casualties = engine.odds_outcome(events), engine.odds_casualties(events)
            ends.append(_End(path, weights, label, casualties, chance=chance))
        else:
            ends.append(_End(path, weights, loop=path[:loop], chance=chance))
        prefix = list(path)
        counts = [len(step.weights) for step in dice.taken]
        while prefix and prefix[-1] + 1 >= counts[len(prefix) - 1]:
            prefix.pop()
        if not prefix:
            return ends
        prefix[-1] += 1


def _renewed(engine: Engine[Any], run: Run, ends: list[_End]) -> list[_End] | None:
    """The leaves, each chance raised by the repeats above it; None when a repeat is not one.

    From a node whose tree starts again with chance r on each pass, every leaf below it is reached
    on the first pass or after one or more repeats: its chance is a geometric series, its first-pass
    chance times 1 / (1 - r). Nodes are settled deepest first, so a repeat of an outer node that
    passes through an inner one carries the inner one's series. Before that, some of the node's
    leaves are replayed after one of its repeats: they must end the same way (a roll asked again
    for the same reason that is not a re-roll would fail this, and the tree is then enumerated
    plainly)."""
    nodes = sorted({end.loop for end in ends if end.loop is not None}, key=len, reverse=True)
    for node in nodes:
        loops = [end for end in ends if end.loop == node]
        below = [end for end in ends if end.loop is None and end.path[: len(node)] == node]
        if not below or not _same_after(engine, run, node, loops[0], below):
            return None
        reach = Fraction(1)
        for w in loops[0].weights[: len(node)]:
            reach *= w
        again = sum((end.chance for end in loops), Fraction(0)) / reach
        if again >= 1:
            return None
        ends = [end for end in ends if end.loop != node]
        for end in ends:
            if end.path[: len(node)] == node:
                end.chance /= 1 - again
    return ends


def _same_after(engine: Engine[Any], run: Run, node: tuple[int, ...], loop: _End, below: list[_End]) -> bool:
    repeat = loop.path[len(node) :]
    step = max(1, len(below) // RENEWAL_CHECKS)
    for leaf in below[::step]:
        prefix = [*node, *repeat, *leaf.path[len(node) :]]
        dice = _PathDice(engine, prefix, renew=False)
        try:
            events = run(dice)
        except _TooMany:
            return False
        if len(dice.taken) != len(prefix):
            return False
        if (engine.odds_outcome(events), engine.odds_casualties(events)) != (leaf.label, leaf.casualties):
            return False
    return True


def _exact(engine: Engine[Any], run: Run, limit: int, spent: Callable[[], bool]) -> Odds:
    ends = _walk(engine, run, limit, spent, renew=True)
    runs = len(ends)
    if any(end.loop is not None for end in ends):
        settled = _renewed(engine, run, ends)
        if settled is None:
            ends = _walk(engine, run, limit, spent, renew=False)
            runs += len(ends)
        else:
            ends = settled
    tally: defaultdict[str, Fraction] = defaultdict(Fraction)
    casualties = Fraction(0)
    for end in ends:
        tally[end.label] += end.chance
        casualties += end.chance * end.casualties
    return _ranked("exact", runs, {k: float(v) for k, v in tally.items()}, float(casualties))


def _simulate(engine: Engine[Any], run: Run, simulations: int, dice: DiceSource, spent: Callable[[], bool]) -> Odds:
    tally: Counter[str] = Counter()
    casualties = 0
    runs = 0
    while runs < simulations and (runs < MIN_SIMULATIONS or not spent()):
        events = run(dice)
        tally[engine.odds_outcome(events)] += 1
        casualties += engine.odds_casualties(events)
        runs += 1
    return _ranked("simulation", runs, {k: v / runs for k, v in tally.items()}, casualties / runs)


def _ranked(
    method: Literal["exact", "counted", "simulation"], runs: int, tally: dict[str, float], casualties: float
) -> Odds:
    ranked = sorted(tally.items(), key=lambda kv: (-kv[1], kv[0]))
    parts: dict[str, float] = {}
    for label, chance in sorted(tally.items()):
        for part in dict.fromkeys(label.split("; ")):
            parts[part] = parts.get(part, 0.0) + chance
    return Odds(method, runs, tuple(ranked), casualties, tuple(parts.items()))
