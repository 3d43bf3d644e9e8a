"""What each of the medieval game's actions takes, as typed options (:mod:`rules.specs`)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.medieval.state import COVERS, GO_FIRST_OR_SECOND, WHOSE
from rules.specs import NAME_LENGTH, Kind, Params, Where, option, to_option, via_option

#: The longest distance a table option takes, in inches.
MOST_INCHES = 1000


@dataclass(frozen=True, kw_only=True)
class ActivateOptions(Params):
    figure: str = option("Your figure", Kind.FIGURE, required=True)


@dataclass(frozen=True, kw_only=True)
class MoveOptions(Params):
    figure: str = option("Your figure", Kind.FIGURE, required=True)
    to: str | None = to_option()
    toward: str | None = option(
        "Map: a figure (into base contact if an enemy) or x,y to move straight at", Kind.FIGURE, where=Where.MAP
    )
    via: str | None = via_option()
    distance: float | None = option(
        "Inches moved now (table play; on the map with toward:, default as far as it may)",
        Kind.NUMBER,
        lowest=0,
        highest=MOST_INCHES,
    )
    engage: str | None = option(
        "Table play: the enemy it moves into contact with (on the map: toward:)", Kind.ENEMY, where=Where.TABLE
    )


@dataclass(frozen=True, kw_only=True)
class StandOptions(Params):
    figure: str = option("Your prone figure", Kind.FIGURE, required=True)


@dataclass(frozen=True, kw_only=True)
class ShootOptions(Params):
    figure: str = option("Your figure", Kind.FIGURE, required=True)
    target: str = option("The enemy it shoots at", Kind.ENEMY, required=True)
    range: float | None = option(
        "Table play: inches to the target (the bot measures it on the map)",
        Kind.NUMBER,
        lowest=0,
        highest=MOST_INCHES,
        where=Where.TABLE,
    )
    cover: str | None = option(
        "Table play: the target's cover (the bot sees it on the map)", choices=COVERS, where=Where.TABLE
    )
    shots: int | None = option("Shots now (default: all its rate of fire left)", Kind.WHOLE, lowest=1, highest=10)
    weapon: str | None = option("Bow, Dagger... (default: its first missile weapon)", length=NAME_LENGTH)


@dataclass(frozen=True, kw_only=True)
class FightOptions(Params):
    figure: str = option("Your figure", Kind.FIGURE, required=True)
    opponent: str | None = option("The enemy in contact it fights (default: its only one)", Kind.ENEMY)
    weapon: str | None = option("Its weapon (default: its first hand-to-hand weapon)", length=NAME_LENGTH)
    height: str | None = option(
        "Table play: who has the height advantage (the bot sees hills on the map)", choices=WHOSE, where=Where.TABLE
    )
    barricade: str | None = option(
        "Table play: who defends a barricade (the bot sees it on the map)", choices=WHOSE, where=Where.TABLE
    )


@dataclass(frozen=True, kw_only=True)
class BreakoffOptions(Params):
    figure: str = option("Your figure in hand-to-hand", Kind.FIGURE, required=True)
    distance: float | None = option(
        "Table play: inches it moves away if it breaks off (on the map with toward:)",
        Kind.NUMBER,
        lowest=0,
        highest=MOST_INCHES,
    )
    to: str | None = option(
        "Map: where it goes if it breaks off, x,y in inches", Kind.POINT, length=40, where=Where.MAP
    )
    toward: str | None = option(
        "Map: a figure or x,y it moves straight at if it breaks off", Kind.FIGURE, where=Where.MAP
    )
    via: str | None = option('Map: waypoints on its way out, "10,12 14,18"', Kind.PATH, where=Where.MAP)


@dataclass(frozen=True, kw_only=True)
class HealOptions(Params):
    figure: str = option("Your figure doing the treating (it spends its activation)", Kind.FIGURE, required=True)
    patient: str = option("The wounded friend", Kind.FIGURE, required=True)


@dataclass(frozen=True, kw_only=True)
class PickupOptions(Params):
    figure: str = option("Your figure", Kind.FIGURE, required=True)
    item: str = option("The weapon or armour (Dagger, Sword, Small Shield...)", required=True, length=NAME_LENGTH)
    source: str | None = option("The killed figure plundered (default: from the ground)", Kind.FIGURE)


@dataclass(frozen=True, kw_only=True)
class OrderOptions(Params):
    """The roll-off winner's answer, through /decide and its buttons."""

    choice: str = option("Go first or second", choices=tuple(value for value, _ in GO_FIRST_OR_SECOND), required=True)
