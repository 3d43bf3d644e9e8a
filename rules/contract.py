"""The contract between the rulesets and the shell: the leaf every other module of ``rules/`` builds on.

An engine is pure: it takes a state, an :class:`Action` and a :class:`DiceSource` and returns an
:class:`Outcome` (the new state, the :class:`Event` s a player reads, at most one pending
:class:`Decision`); an action the rules refuse raises :class:`RuleError` and changes nothing.
A choice a state waits for is kept in the state as one :class:`Waiting` (plain data), and shown to
the shell as the :class:`Decision` :func:`decision_of` makes of it. :class:`EngineContract` is the
short protocol the shell plays through (:class:`rules.base.Engine` fills it in).

This module imports nothing from ``rules``: the rest of the package depends on it, never the
other way round (tests/rules/test_contract.py holds it to that).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

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


class LowestFaces:
    """Dice that always show their lowest face and turn the first card: for running an action
    once to see whether the rules allow it, where its dice do not matter."""

    def roll(self, sides: int, reason: str) -> int:
        return 1

    def draw(self, cards: Sequence[str], reason: str) -> str:
        return next(iter(cards))


#: The most dice and cards one action, or one battle's start, may ask for. No rule comes near it
#: (a tie is rolled again, but fair dice do not tie a thousand times running); a source that keeps
#: giving the same results (fixed faces, a broken generator) is stopped here, so that no loop of the
#: rules runs for ever, whatever its dice.
MAX_DRAWS = 5_000


class DiceStuck(RuleError):
    """The dice asked for outran :data:`MAX_DRAWS`: the source cannot be random."""


class BoundedDice:
    """``dice``, stopped with :class:`DiceStuck` once more than ``limit`` dice and cards are asked."""

    def __init__(self, dice: DiceSource, limit: int = MAX_DRAWS) -> None:
        self.dice = dice
        self.limit = limit
        self.drawn = 0

    def _count(self) -> None:
        self.drawn += 1
        if self.drawn > self.limit:
            raise DiceStuck(
                f"The dice kept giving results that settle nothing ({self.limit:,} dice and cards): "
                "they cannot be random; nothing was changed."
            )

    def roll(self, sides: int, reason: str) -> int:
        self._count()
        return self.dice.roll(sides, reason)

    def draw(self, cards: Sequence[str], reason: str) -> str:
        self._count()
        return self.dice.draw(cards, reason)


def bounded(dice: DiceSource) -> BoundedDice:
    """``dice`` behind the :data:`MAX_DRAWS` stop (once: a bounded source is not wrapped again)."""
    return dice if isinstance(dice, BoundedDice) else BoundedDice(dice)


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

    ``kind`` names the sort of event ("roll-off", "shot", "phase", "victory"); the renderer picks
    cards by it (a "casualty" event becomes a casualty card). ``data`` is plain JSON-ready data,
    stored as it is; the kinds the shell draws carry a typed payload in it (:mod:`rules.payloads`:
    build them with ``SomePayload(...).event(text)``, read them with ``payload_of(event)``).
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


@dataclass
class Waiting:
    """A choice a state waits for, kept in the state (so it outlives a restart and /game undo):
    who decides, the question, the ``[value, label]`` choices (labelled when it is made), the action
    that answers it, and the options that action is resumed with besides ``choice``. Every
    ruleset's waiting choice is one.

    ``kept`` is what the ruleset keeps with the choice for its answer (Sharpe's attack or shot in
    progress). Unlike ``params`` it is never handed to the shell: a decision's params come back as
    the answer's options, which a player could write himself, so the answer reads ``kept`` from the
    state."""

    decider: str
    prompt: str
    choices: list[list[str]]
    resume_action: str
    params: dict[str, Any] = field(default_factory=dict)
    kept: dict[str, Any] = field(default_factory=dict)


def decision_of(waiting: Waiting) -> Decision:
    """The choice ``waiting`` as the shell shows it: one button per choice, for its decider."""
    choices = tuple(Choice(value, label) for value, label in waiting.choices)
    return Decision(waiting.decider, waiting.prompt, choices, waiting.resume_action, dict(waiting.params))


class EngineContract(Protocol[S]):
    """What the shell asks of every engine to play a battle (the rest of :class:`rules.base.Engine`
    is its optional features, with defaults)."""

    slug: str
    title: str

    def act(self, state: S, action: Action, dice: DiceSource) -> Outcome[S]:
        """Apply ``action`` to a copy of ``state``; a refusal raises :class:`RuleError` and rolls nothing."""
        ...

    def pending(self, state: S) -> Decision | None:
        """The choice ``state`` waits for, if any."""
        ...

    def whose_turn(self, state: S) -> str | None:
        """The side that is to act (or to decide); None when nobody is."""
        ...

    def finished(self, state: S) -> bool: ...

    def winner(self, state: S) -> str | None: ...

    def dump_state(self, state: S) -> dict[str, Any]: ...

    def load_state(self, data: Mapping[str, Any]) -> S: ...
