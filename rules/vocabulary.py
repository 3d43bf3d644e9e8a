"""The nouns every ruleset and the shell share: actions, events, decisions, outcomes, rosters, boards.

Plain frozen data (and the two refusals, :class:`RuleError` and :class:`DataError`); nothing here
knows a ruleset. :mod:`rules.core` re-exports all of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar

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


@dataclass(frozen=True)
class FigureSpec:
    """A figure as the roster hands it to an engine: the ruleset reads ``kind`` and ``stats``."""

    name: str
    side: str
    kind: str
    stats: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Aftermath:
    """What one figure carries out of a battle into its roster.

    ``status``: "active" (fights again), "dead" (off the roster's active list for good), or
    "resting" (misses the next ``games_out`` battles). ``stats`` replaces the roster's stats when
    given (a lasting wound); ``note`` is the line its history keeps.
    """

    name: str
    side: str
    status: Literal["active", "dead", "resting"]
    note: str
    games_out: int = 0
    stats: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class FigureLine:
    name: str
    side: str
    status: str
    out: bool = False


@dataclass(frozen=True)
class GridSquare:
    """A square that is not plain open ground: its terrain, and what stands on its sides.

    ``edges`` maps a side ("n", "e", "s", "w") to what is there ("hedge", "wall"); ``uphill``
    names the sides a figure crosses going uphill into this square.
    """

    x: int
    y: int
    terrain: str = "open"
    edges: Mapping[str, str] = field(default_factory=dict)
    uphill: tuple[str, ...] = ()


@dataclass(frozen=True)
class GridPiece:
    """A figure on the grid: ``label`` (short, the same all game), ``side``, ``facing`` ("n", "ne"
    …), ``marks`` such as "pinned" or "fallen", ``pips`` (wound points) and ``tag`` (what may
    change, such as its class letter)."""

    x: int
    y: int
    name: str
    label: str
    side: str
    facing: str | None = None
    marks: tuple[str, ...] = ()
    pips: int = 0
    tag: str = ""


@dataclass(frozen=True)
class Grid:
    """A square board for rulesets played on one; (0, 0) is the top-left square. ``title``: the
    turn, the phase and who acts, drawn above it."""

    width: int
    height: int
    squares: tuple[GridSquare, ...] = ()
    pieces: tuple[GridPiece, ...] = ()
    title: str = ""


@dataclass(frozen=True)
class Board:
    """What ``/game status`` shows, independent of how it is drawn."""

    headline: str
    facts: tuple[tuple[str, str], ...]
    figures: tuple[FigureLine, ...]
    finished: bool = False
    grid: Grid | None = None
