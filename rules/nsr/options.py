"""What each of NSR's orders takes, as typed options (:mod:`rules.specs`). The choices the rules
read (formations, goings, covers, tasks…) are declared here once; the rules import them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.battlefield.deployment import PlaceOptions
from rules.nsr.charts import CLASSES
from rules.specs import NAME_LENGTH, Kind, Params, Where, option

GOING = ("cross_country", "road")
FORMATIONS = ("line", "square", "march_column", "open_order", "limbered", "manhandled")
SHOTS = ("ball", "grape")
#: What a unit works at: a loophole, or the part of a building it breaches.
TASKS = ("loophole", "door", "window", "wall", "rock_wall")
#: What a gun fires at to breach a building.
PARTS = TASKS[1:]
AIMS = ("leader", "key", "ordinary", "wounded")
COVER = ("open", "linear", "building")
UPHILL = ("none", "charger", "defender")

#: The longest distance a table option takes, in inches.
MOST_INCHES = 1000
#: The most figures an option counts (firers, workers).
MOST_FIGURES = 200

UNIT = "Your unit (default: the one chosen)"
EXPOSED = "Table, class IV: some of it looks out or stands outside"
FACING = "Map: face degrees (0 east, 90 north) or a point x,y"


def _unit() -> Any:
    return option(UNIT, Kind.UNIT)


def _target(help: str = "The enemy unit", *, required: bool = True) -> Any:
    return option(help, Kind.ENEMY, required=required)


def _inches(help: str, where: Where = Where.TABLE) -> Any:
    return option(help, Kind.NUMBER, lowest=0, highest=MOST_INCHES, where=where)


def _figures(help: str) -> Any:
    return option(help, Kind.WHOLE, lowest=1, highest=MOST_FIGURES)


def _facing() -> Any:
    return option(FACING, length=40, where=Where.MAP)


def _going() -> Any:
    return option("Table: cross country (default) or road", choices=GOING, where=Where.TABLE)


def _rough() -> Any:
    return option("Table: rough terrain, lose the highest die", Kind.FLAG, where=Where.TABLE)


def _prone() -> Any:
    return option("Go prone (yes) or stand up (no)", Kind.FLAG)


def _class(help: str) -> Any:
    return option(help, choices=CLASSES, where=Where.TABLE)


def _exposed(help: str = EXPOSED) -> Any:
    return option(help, Kind.FLAG, where=Where.TABLE)


@dataclass(frozen=True, kw_only=True)
class MoveOptions(Params):
    unit: str | None = _unit()
    to: str | None = option('Map: where it goes, x,y ("14,22")', Kind.POINT, length=40, where=Where.MAP)
    via: str | None = option('Map: waypoints, "10,12 14,18"', Kind.PATH, where=Where.MAP)
    toward: str | None = option("Map: a unit or x,y to go straight at", Kind.UNIT, where=Where.MAP)
    distance: float | None = _inches("Map: inches toward it (default: all it may)", Where.MAP)
    facing: str | None = _facing()
    going: str | None = _going()
    rough: bool | None = _rough()
    formation: str | None = option("Change formation on the way", choices=FORMATIONS)
    carrying: bool | None = option("Carry heavily wounded: lose the highest die", Kind.FLAG)
    walking: bool | None = option("Lightly wounded walk back: lose the lowest die", Kind.FLAG)
    prone: bool | None = _prone()


@dataclass(frozen=True, kw_only=True)
class ChargeOptions(Params):
    target: str = _target()
    unit: str | None = _unit()
    going: str | None = _going()
    rough: bool | None = _rough()
    distance: float | None = _inches("Table: inches to the enemy (checks the reach)")


@dataclass(frozen=True, kw_only=True)
class FormOptions(Params):
    unit: str | None = _unit()
    formation: str | None = option("The new formation", choices=FORMATIONS)
    facing: str | None = _facing()
    prone: bool | None = _prone()


@dataclass(frozen=True, kw_only=True)
class HoldOptions(Params):
    unit: str | None = _unit()


@dataclass(frozen=True, kw_only=True)
class OccupyOptions(Params):
    building: str = option("The building (described with /nsr building)", required=True, length=NAME_LENGTH)
    unit: str | None = _unit()


@dataclass(frozen=True, kw_only=True)
class WorkOptions(Params):
    building: str = option("The building", required=True, length=NAME_LENGTH)
    task: str = option("A loophole, or what is breached", choices=TASKS, required=True)
    workers: int | None = _figures("Figures working (default 1)")
    unit: str | None = _unit()


@dataclass(frozen=True, kw_only=True)
class FireOptions(Params):
    """``class_`` is the option ``class`` (a Python keyword)."""

    target: str = _target()
    range: float | None = _inches("Table: inches to it")
    class_: str | None = _class("Table: overrides the class its formation gives")
    unit: str | None = _unit()
    firers: int | None = _figures("Figures firing (default: all able)")
    shot: str | None = option("A gun's shot", choices=SHOTS)
    wounded: bool | None = option("Fire at its wounded figures (class III)", Kind.FLAG)
    target2: str | None = _target("A second target", required=False)
    range2: float | None = _inches("Table: inches to it")
    class2: str | None = _class("Table: overrides its class")
    firers2: int | None = _figures("Figures firing at it (default: the rest)")
    exposed: bool | None = _exposed()
    exposed2: bool | None = _exposed("Table: the second target, the same")


@dataclass(frozen=True, kw_only=True)
class VolleyOptions(Params):
    target: str = _target()
    range: float | None = _inches("Table: inches to it (half range at most)")
    class_: str | None = _class("Table: overrides the class its formation gives")
    unit: str | None = _unit()
    firers: int | None = _figures("Figures volleying (default: all able)")
    exposed: bool | None = _exposed()


@dataclass(frozen=True, kw_only=True)
class PistolOptions(Params):
    target: str = _target()
    range: float | None = _inches("Table: inches to the figure aimed at")
    aim: str | None = option("Which kind: a leader by default", choices=AIMS)
    figure: str | None = option("Or one figure by name", length=NAME_LENGTH)
    unit: str | None = _unit()
    exposed: bool | None = _exposed("Table, in a building: some of it looks out of a door or window")


@dataclass(frozen=True, kw_only=True)
class BombardOptions(Params):
    building: str = option("The building", required=True, length=NAME_LENGTH)
    part: str = option("What the gun fires at", choices=PARTS, required=True)
    shot: str | None = option("Ball (default) or grape", choices=SHOTS)
    unit: str | None = _unit()


@dataclass(frozen=True, kw_only=True)
class MeleeOptions(Params):
    unit: str | None = option("The charging unit (default: the first waiting)", Kind.UNIT)
    reached: bool | None = option("Table: no if every charged figure has moved away", Kind.FLAG, where=Where.TABLE)
    cover: str | None = option("Table: the defenders' position", choices=COVER, where=Where.TABLE)
    uphill: str | None = option("Table: which side stands uphill", choices=UPHILL, where=Where.TABLE)
    rear: bool | None = option("Table: the defenders are attacked from the rear", Kind.FLAG, where=Where.TABLE)


@dataclass(frozen=True, kw_only=True)
class BuildingOptions(Params):
    name: str = option("The building's name", required=True, length=NAME_LENGTH)
    roof: int = option("Figures that fit on its roof", Kind.WHOLE, required=True, lowest=1, highest=200)
    storeys: int = option("Storeys", Kind.WHOLE, required=True, lowest=1, highest=20)
    windows: int | None = option("Windows to fire from", Kind.WHOLE, lowest=0, highest=200)
    doors: int | None = option("Open doors to fire from", Kind.WHOLE, lowest=0, highest=50)


@dataclass(frozen=True, kw_only=True)
class ChooseOptions(Params):
    """The answer to a card: the unit that acts on it, or pass (taken through /decide)."""

    choice: str = option("The unit that acts on the card, or pass", Kind.UNIT, required=True)
    card: str | None = option("The card the choice is for", length=8)


@dataclass(frozen=True, kw_only=True)
class NsrPlaceOptions(PlaceOptions):
    """``/map place``: a unit set down whole, its formation one of NSR's."""

    formation: str | None = option("A unit (NSR): its formation (default: the roster's)", choices=FORMATIONS)
