"""The nouns the rulesets and the shell share beyond the contract: rosters, aftermaths, boards.

Plain frozen data; nothing here knows a ruleset. The contract's own nouns (actions, events,
decisions, outcomes, refusals, dice) live in :mod:`rules.contract` and are re-exported here, so an
``import`` from either names the same class; :mod:`rules.core` re-exports all of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from rules.contract import (
    MAX_DRAWS,
    Action,
    BoundedDice,
    Choice,
    DataError,
    Decision,
    DiceSource,
    DiceStuck,
    Event,
    LowestFaces,
    Outcome,
    RuleError,
    bounded,
    roll_dice,
)

__all__ = [
    "MAX_DRAWS",
    "Action",
    "Aftermath",
    "Board",
    "BoundedDice",
    "Choice",
    "DataError",
    "Decision",
    "DiceSource",
    "DiceStuck",
    "Event",
    "FigureLine",
    "FigureSpec",
    "Grid",
    "GridPiece",
    "GridSquare",
    "LowestFaces",
    "Outcome",
    "RuleError",
    "bounded",
    "roll_dice",
]


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
