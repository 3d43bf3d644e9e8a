"""What each of Sharpe's actions takes, as typed options (:mod:`rules.specs`).

The choices the rules read (a target's flank, cover, a blow …) are listed here once; the handlers
read them from here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.sharpe.schema import WEATHERS
from rules.specs import Kind, Params, Where, option, to_option, via_option

#: The longest distance a table option takes, in inches.
MOST_INCHES = 1000
#: The highest a man stands above the ground, in feet (a wall's top, a roof).
MOST_FEET = 100
#: The longest name of a weapon (``baker_rifle``, "Baker rifle").
WEAPON_LENGTH = 32

ACTIVE = "Default: whose turn it is"

PACES = ("crawl", "walk", "run", "trot", "canter", "gallop")
#: The flank of a man a shot comes from (a shot from behind counts as from his side).
TARGET_SIDES = ("front", "left", "right")
#: The flank of a defender an attack comes from.
SIDES = ("front", "right", "left", "rear")
COVERS = ("none", "soft", "hard")
HORSE_OR_RIDER = ("rider", "horse")
MAN_OR_HORSE = ("man", "horse")
BLOWS = ("punch", "kick", "headbutt")
UPHILL = ("none", "attacker", "defender")
OBSTACLES = ("none", "defender", "counter")
ABILITIES = ("I", "D", "S")
#: The situations of the action modifiers' table (tables.yaml ``action_modifiers``).
SITUATIONS = (
    "none",
    "backwards",
    "backwards_bad_going",
    "run_bad_going",
    "low_wall",
    "fight_bad_going",
    "high_wall",
    "climb_tree",
    "jump_down",
)


def _acting(help: str = ACTIVE) -> Any:
    return option(help, Kind.FIGURE)


def _feet(help: str, where: Where = Where.ANYWHERE) -> Any:
    return option(help, Kind.WHOLE, lowest=0, highest=MOST_FEET, where=where)


def _weapon(help: str, *, required: bool = False) -> Any:
    return option(help, required=required, length=WEAPON_LENGTH)


@dataclass(frozen=True, kw_only=True)
class MoveOptions(Params):
    distance: float | None = option(
        "Inches (table play; on the map with toward:, default as far as the pace allows)",
        Kind.NUMBER,
        lowest=0,
        highest=MOST_INCHES,
    )
    figure: str | None = _acting()
    pace: str | None = option("Foot: crawl, walk, run; horse: walk to gallop", choices=PACES)
    to: str | None = to_option()
    toward: str | None = option(
        "Map: a man (into base contact if an enemy) or x,y to move straight at", Kind.FIGURE, where=Where.MAP
    )
    via: str | None = via_option()
    bad_going: bool | None = option("Table play: half speed (the map measures it)", Kind.FLAG, where=Where.TABLE)
    backwards: bool | None = option("Going backwards (D check)", Kind.FLAG)
    contact: str | None = option(
        "Table play: enemy reached, the move ends (on the map: toward:)", Kind.ENEMY, where=Where.TABLE
    )
    turn: int | None = option(
        "Table play: degrees a horse turns (the map measures it)",
        Kind.WHOLE,
        lowest=0,
        highest=180,
        where=Where.TABLE,
    )


@dataclass(frozen=True, kw_only=True)
class ShootOptions(Params):
    target: str = option("The enemy", Kind.ENEMY, required=True)
    range: float | None = option(
        "Inches (a table of your own; the map measures it)",
        Kind.NUMBER,
        lowest=0,
        highest=MOST_INCHES,
        where=Where.TABLE,
    )
    shooter: str | None = _acting()
    weapon: str | None = _weapon("Default: his first loaded firearm")
    gun: str | None = option("Fire his side's artillery piece", Kind.FIGURE)
    aimed: bool | None = option("Still since last move (+1)", Kind.FLAG)
    resting: bool | None = option("Gun rested (+1)", Kind.FLAG)
    cover: str | None = option("Target's cover", choices=COVERS, where=Where.TABLE)
    hidden: str | None = option("Parts hard cover hides (default legs, abdomen)")
    at: str | None = option("Horse or rider", choices=HORSE_OR_RIDER)
    flank: str | None = option("Target's flank towards the firer", choices=TARGET_SIDES, where=Where.TABLE)
    left_hand: bool | None = option("Pistol in the left hand", Kind.FLAG)
    tap_load: bool | None = option("Tap-load the rifle after", Kind.FLAG)
    perch_ft: int | None = _feet("Target's height above ground")
    also: str | None = option("Volley gun, artillery: more targets, nearest first", Kind.NAMES)


@dataclass(frozen=True, kw_only=True)
class AttackOptions(Params):
    defender: str = option("The enemy", Kind.ENEMY, required=True)
    attacker: str | None = _acting()
    flank: str | None = option("Defender's flank attacked", choices=SIDES, where=Where.TABLE)
    weapon: str | None = _weapon("Default: his best; or bare")
    blow: str | None = option("Bare hands", choices=BLOWS)
    uphill: str | None = option("Who is uphill (+1)", choices=UPHILL, where=Where.TABLE)
    obstacle: str | None = option(
        "defender: he holds it; counter: you parried there", choices=OBSTACLES, where=Where.TABLE
    )
    no_room: bool | None = option("He cannot give ground", Kind.FLAG, where=Where.TABLE)
    follow_up: bool | None = option("Follow up", Kind.FLAG)
    capture: bool | None = option("Knock him out", Kind.FLAG)
    silent: bool | None = option("Sneaking up from behind", Kind.FLAG)
    at: str | None = option("Man or horse", choices=MAN_OR_HORSE)
    ride_over: bool | None = option("Ride him down", Kind.FLAG)
    bad_going: bool | None = option("Fighting in bad going", Kind.FLAG, where=Where.TABLE)
    left_hand: bool | None = option("Sword in the left hand", Kind.FLAG)
    perch_ft: int | None = _feet("Defender's height above ground", Where.TABLE)


@dataclass(frozen=True, kw_only=True)
class CheckOptions(Params):
    ability: str | None = option("Default D", choices=ABILITIES)
    situation: str | None = option("Its modifier from the table", choices=SITUATIONS)
    height_ft: int | None = _feet("Jumping down: feet")
    modifier: int | None = option("Agreed extra modifier", Kind.WHOLE, lowest=-6, highest=6)
    what: str | None = option("What he tries", length=60)
    figure: str | None = _acting()


@dataclass(frozen=True, kw_only=True)
class TaskOptions(Params):
    helpers: str | None = option("Comrades helping, comma-separated", Kind.NAMES)
    strength: int | None = option("Default: known, or D6+6", Kind.WHOLE, lowest=1, highest=30)
    object: str | None = option("What they force", length=40)
    figure: str | None = _acting()


@dataclass(frozen=True, kw_only=True)
class PushOptions(Params):
    pushed: str = option("The man pushed", Kind.FIGURE, required=True)
    pusher: str | None = _acting()


@dataclass(frozen=True, kw_only=True)
class CollideOptions(Params):
    figures: str = option("Comma-separated", Kind.NAMES, required=True)


@dataclass(frozen=True, kw_only=True)
class FigureOptions(Params):
    """``rise``, ``control``: the man who acts."""

    figure: str | None = _acting()


@dataclass(frozen=True, kw_only=True)
class PickupOptions(Params):
    weapon: str = _weapon("On the ground", required=True)
    figure: str | None = _acting()
    give_to: str | None = option("A comrade", Kind.FIGURE)


@dataclass(frozen=True, kw_only=True)
class LoadOptions(Params):
    gun: str | None = option("Default: his firearm, else his side's gun", Kind.FIGURE)
    figure: str | None = _acting()


@dataclass(frozen=True, kw_only=True)
class HaulOptions(Params):
    to: str | None = to_option()
    via: str | None = via_option()
    gun: str | None = option("Default: his side's gun", Kind.FIGURE)
    figure: str | None = _acting()

    @property
    def toward(self) -> str | None:
        """A gun is hauled along a path only (:func:`rules.battlefield.requests.move_request`)."""
        return None

    @property
    def distance(self) -> float | None:
        return None


@dataclass(frozen=True, kw_only=True)
class TargetsOptions(Params):
    shooter: str = option("A man, or a gun", Kind.FIGURE, required=True)
    weapon: str | None = _weapon("Default: the firearm in his hand")


@dataclass(frozen=True, kw_only=True)
class KillOptions(Params):
    victim: str = option("Unconscious enemy", Kind.ENEMY, required=True)
    killer: str | None = _acting()


@dataclass(frozen=True, kw_only=True)
class DoneOptions(Params):
    figure: str | None = _acting("The man whose turn ends (default: whose turn it is)")


@dataclass(frozen=True, kw_only=True)
class WeatherOptions(Params):
    weather: str | None = option("Fog, rain: misfires", choices=WEATHERS)
    night: bool | None = option("Night (−1)", Kind.FLAG)


@dataclass(frozen=True, kw_only=True)
class ConcedeOptions(Params):
    confirm: bool | None = option("True: you mean it", Kind.FLAG)
    side: str | None = option("Game master: either side", Kind.SIDE, length=32)


@dataclass(frozen=True, kw_only=True)
class DefendOptions(Params):
    """The answer to a defender's choice (a button, or /decide): the decision's id and the choice."""

    pending: int | None = option("The decision answered", Kind.WHOLE, lowest=0)
    choice: str | None = option("The defender's choice (parry, riposte, dodge …)", length=32)
