"""What each of YASG's actions takes, as typed options (:mod:`rules.specs`). YASG is fought on its
own grid: its squares and paths are grid names ("C4", "C5 D5"), not the bot's map's points."""

from __future__ import annotations

from dataclasses import dataclass

from rules.specs import Kind, Params, option
from rules.yasg.board import SIDE_WORDS

#: A facing as an option takes it: n, e, s or w, shown (and also read) as north, east, south or west.
FACINGS = tuple(SIDE_WORDS)
FACING_WORDS = tuple(SIDE_WORDS.values())
#: How a figure moves: a walk or a run.
PACES = ("walk", "run")


@dataclass(frozen=True, kw_only=True)
class BoardOptions(Params):
    width: int | None = option("Columns (A, B, …)", Kind.WHOLE, lowest=4, highest=30)
    height: int | None = option("Rows (1, 2, …)", Kind.WHOLE, lowest=4, highest=30)
    map: str | None = option("A map by name, e.g. farm or open field", length=40)


@dataclass(frozen=True, kw_only=True)
class TerrainOptions(Params):
    squares: str = option("Squares or rectangles, like C4 E5:F6", required=True, example="C4:F4")
    kind: str = option("open, hill, crops, wood, rubble or building", required=True, length=32, example="wood")
    uphill: str | None = option("A hill's uphill sides, like n e (default: every side facing lower ground)", length=20)


@dataclass(frozen=True, kw_only=True)
class EdgeOptions(Params):
    squares: str = option("Squares or rectangles, like C4:F4", required=True, example="C4:F4")
    side: str = option("The side of those squares", choices=FACINGS, labels=FACING_WORDS, required=True)
    kind: str = option("hedge, wall or none", required=True, length=32, example="hedge")


@dataclass(frozen=True, kw_only=True)
class PlaceOptions(Params):
    figure: str = option("Your figure", Kind.FIGURE, required=True)
    square: str = option("A square, like C4", required=True, length=5, example="E2")
    facing: str | None = option("Which way it faces (default: the middle)", choices=FACINGS, labels=FACING_WORDS)


@dataclass(frozen=True, kw_only=True)
class MoveOptions(Params):
    figure: str = option("Your figure", Kind.FIGURE, required=True)
    to: str = option("A square (the bot finds the way) or a path, like C5 D5", required=True, length=60, example="E4")
    pace: str | None = option("walk or run (default: walk if it is far enough)", choices=PACES)
    facing: str | None = option("Its facing after the move", choices=FACINGS, labels=FACING_WORDS)


@dataclass(frozen=True, kw_only=True)
class FaceOptions(Params):
    figure: str = option("Your figure", Kind.FIGURE, required=True)
    facing: str = option("The way it faces (its 45° arc of fire)", choices=FACINGS, labels=FACING_WORDS, required=True)


@dataclass(frozen=True, kw_only=True)
class LoadOptions(Params):
    figure: str = option("Your figure", Kind.FIGURE, required=True)


@dataclass(frozen=True, kw_only=True)
class FireOptions(Params):
    figure: str = option("Your figure", Kind.FIGURE, required=True)
    target: str = option("The enemy it fires at", Kind.ENEMY, required=True)


@dataclass(frozen=True, kw_only=True)
class EngageOptions(Params):
    figure: str = option("Your figure", Kind.FIGURE, required=True)
    target: str = option("The adjacent enemy it fights", Kind.ENEMY, required=True)


@dataclass(frozen=True, kw_only=True)
class LookOptions(Params):
    figure: str = option("The figure looking", Kind.FIGURE, required=True)
    target: str = option("The figure it looks at", Kind.FIGURE, required=True)
