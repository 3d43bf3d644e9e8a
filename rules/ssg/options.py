"""What each of SSG's actions takes, as typed options (:mod:`rules.specs`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.specs import Kind, Params, Where, option, to_option, via_option

LOS = ("clear", "partial", "blocked")
#: The longest distance a table option takes, in inches.
MOST_INCHES = 1000


@dataclass(frozen=True, kw_only=True)
class MoveOptions(Params):
    figure: str = option("Your figure", Kind.FIGURE, required=True)
    to: str | None = to_option()
    toward: str | None = option(
        "Map: a figure (or x,y) to move straight at, with distance (default: as far as it may)",
        Kind.FIGURE,
        where=Where.MAP,
    )
    via: str | None = via_option()
    distance: float | None = option(
        "Inches moved now (table play; on the map with toward:)", Kind.NUMBER, lowest=0, highest=MOST_INCHES
    )
    contact: str | None = option(
        'Table play: the enemy it came within 1" of (it must stop)', Kind.ENEMY, where=Where.TABLE
    )


@dataclass(frozen=True, kw_only=True)
class MeleeOptions(Params):
    fighter: str | None = option("Your figure (default: the first pair in contact)", Kind.FIGURE)
    opponent: str | None = option("The enemy it fights", Kind.ENEMY)


def _range(which: str) -> Any:
    return option(which, Kind.NUMBER, where=Where.TABLE, lowest=0, highest=MOST_INCHES)


def _los(which: str) -> Any:
    return option(which, Kind.CHOICE, choices=LOS, where=Where.TABLE)


def _dice(which: str) -> Any:
    return option(which, Kind.WHOLE, lowest=1, highest=3)


@dataclass(frozen=True, kw_only=True)
class ShootOptions(Params):
    shooter: str = option("Your figure", Kind.FIGURE, required=True)
    target: str = option("The enemy it fires at", Kind.ENEMY, required=True)
    range: float | None = _range("Table play: inches to the target (the bot measures it on the map)")
    los: str | None = _los("Table play: line of sight, as you judge it (the bot works it out on the map)")
    dice: int | None = _dice("Dice at this target (default: the whole rate of fire)")
    target2: str | None = option("A second target (SMG)", Kind.ENEMY)
    range2: float | None = _range("Inches to the second target")
    los2: str | None = _los("Line of sight to it")
    dice2: int | None = _dice("Dice at the second target")
    target3: str | None = option("A third target (SMG)", Kind.ENEMY)
    range3: float | None = _range("Inches to the third target")
    los3: str | None = _los("Line of sight to it")
