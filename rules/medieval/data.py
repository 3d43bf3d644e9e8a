"""The shape of ``tables.yaml`` and the checks its types cannot express."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from rules.battlefield import TerrainKind, terrain_problems
from rules.words import fold as fold

Result = Literal["no_effect", "knocked_about", "light", "serious", "killed"]
Health = Literal["full", "light", "serious", "killed", "collapsed"]
STATS = ("speed", "bravery", "shoot", "fight")
LIVING = ("full", "light", "serious")


@dataclass(frozen=True)
class Profile:
    speed: int
    bravery: int
    shoot: int
    fight: int
    weapons: list[str]
    armour: list[str]


@dataclass(frozen=True)
class Kit:
    weapons: list[str]
    armour: list[str]


@dataclass(frozen=True)
class Weapon:
    accuracy: int
    power: int
    range: float
    rof: int | None
    damage: int
    melee: bool
    thrown: bool = False


@dataclass(frozen=True)
class Armour:
    protection: int
    slot: str


@dataclass(frozen=True)
class ChartRow:
    up_to: int | None
    result: Result
    label: str


@dataclass(frozen=True)
class ShootingModifiers:
    open: int
    hard_cover: int
    soft_cover: int
    moving: int
    over_half_range: int
    prone: int
    in_close_combat: int


@dataclass(frozen=True)
class CloseCombatFactors:
    height_advantage: int
    defending_barricade: int
    prone: int


@dataclass(frozen=True)
class Transition:
    light: Health
    serious: Health


@dataclass(frozen=True)
class StatLimit:
    low: int
    high: int


@dataclass(frozen=True)
class GroundScale:
    label: str
    inches_per_metre: float | None
    rule: str


@dataclass(frozen=True)
class MedievalTables:
    sides: list[str]
    min_figures_per_side: int
    ground_scales: dict[str, GroundScale]
    ground_scale: str
    profiles: dict[str, Profile]
    custom_kind: str
    custom_kit: Kit
    custom_limits: dict[str, StatLimit]
    weapons: dict[str, Weapon]
    unarmed: str
    armour: dict[str, Armour]
    armour_slots: list[str]
    die: int
    bravery_pass: int
    hit_on: int
    natural_one_misses: bool
    shooting_modifiers: ShootingModifiers
    moving_counts_once: bool
    shooter_in_contact_may_throw_at_opponent: bool
    one_shooting_weapon_per_turn: bool
    close_combat_factors: CloseCombatFactors
    fights_per_activation: int
    wound_chart: list[ChartRow]
    wound_transitions: dict[str, Transition]
    light_wound_modifiers: dict[str, int]
    serious_wound_halves: list[str]
    halving_rounds: Literal["down", "up"]
    breakoff_tie_mover_escapes: bool
    knocked_back_inches: float
    knocked_back_breaks_contact: bool
    stand_up_cost_of_speed: float
    self_healing: bool
    healer_may_have_shot_or_fought: bool
    plunder_from: list[Health]
    #: The bot's map: a base's radius per ground scale, how near a covering feature must be in
    #: front of the target, how near a thrown weapon must lie to be picked up, the terrain.
    base_radius: dict[str, float]
    cover_within_inches: float
    pickup_within_inches: float
    terrain: dict[str, TerrainKind]


_JOINER = re.compile(r"[+/]")


def table_problems(t: MedievalTables) -> list[str]:
    """What the types of :class:`MedievalTables` cannot say, as readable problems."""
    problems: list[str] = []
    if len(t.sides) != 2 or len({fold(s) for s in t.sides}) != 2 or not all(fold(s) for s in t.sides):
        problems.append(f"sides: need exactly two different side names, got {t.sides!r}")
    if t.min_figures_per_side < 1:
        problems.append(f"min_figures_per_side: must be at least 1, got {t.min_figures_per_side}")
    if t.ground_scale not in t.ground_scales:
        problems.append(f"ground_scale: {t.ground_scale!r} is not one of the ground_scales")
    for key, scale in t.ground_scales.items():
        if scale.inches_per_metre is not None and not scale.inches_per_metre > 0:
            problems.append(f"ground_scales.{key}.inches_per_metre: must be more than 0")
    if t.die < 2:
        problems.append(f"die: must have at least 2 faces, got {t.die}")
    problems += _name_problems("weapons", list(t.weapons))
    problems += _name_problems("armour", list(t.armour))
    problems += _name_problems("profiles", [*t.profiles, t.custom_kind])
    for name, w in t.weapons.items():
        problems += _weapon_problems(name, w)
    if t.unarmed not in t.weapons:
        problems.append(f"unarmed: {t.unarmed!r} is not one of the weapons")
    elif not t.weapons[t.unarmed].melee:
        problems.append(f"unarmed: {t.unarmed!r} must be a hand-to-hand weapon (melee: true)")
    for name, a in t.armour.items():
        if a.slot not in t.armour_slots:
            problems.append(f"armour.{name}.slot: {a.slot!r} is not one of the armour_slots")
        if a.protection < 0:
            problems.append(f"armour.{name}.protection: must not be negative, got {a.protection}")
    kits: list[tuple[str, Profile | Kit]] = [*t.profiles.items(), (t.custom_kind, t.custom_kit)]
    for name, p in kits:
        problems += _kit_problems(t, f"profiles.{name}" if name in t.profiles else "custom_kit", p)
    for stat in STATS:
        if stat not in t.custom_limits:
            problems.append(f"custom_limits: {stat} is missing")
    for stat, limit in t.custom_limits.items():
        if stat not in STATS:
            problems.append(f"custom_limits.{stat}: not a stat (use {', '.join(STATS)})")
        if limit.low > limit.high:
            problems.append(f"custom_limits.{stat}: low {limit.low} is more than high {limit.high}")
    problems += _chart_problems(t.wound_chart)
    for health in LIVING:
        if health not in t.wound_transitions:
            problems.append(f"wound_transitions: {health} is missing")
    for health in t.wound_transitions:
        if health not in LIVING:
            problems.append(f"wound_transitions.{health}: only {', '.join(LIVING)} figures can be wounded")
    for stat in t.light_wound_modifiers:
        if stat not in STATS:
            problems.append(f"light_wound_modifiers.{stat}: not a stat (use {', '.join(STATS)})")
    for stat in t.serious_wound_halves:
        if stat not in STATS:
            problems.append(f"serious_wound_halves: {stat!r} is not a stat")
    if t.fights_per_activation < 1:
        problems.append("fights_per_activation: must be at least 1")
    if t.knocked_back_inches < 0:
        problems.append("knocked_back_inches: must not be negative")
    if not 0 <= t.stand_up_cost_of_speed <= 1:
        problems.append("stand_up_cost_of_speed: must be from 0 to 1 (a share of the figure's speed)")
    if len(set(t.plunder_from)) != len(t.plunder_from):
        problems.append("plunder_from: a health state is listed twice")
    for health in t.plunder_from:
        if health in LIVING:
            problems.append(f"plunder_from: {health!r} figures are still fighting and cannot be plundered")
    return problems + _map_problems(t)


def _map_problems(t: MedievalTables) -> list[str]:
    problems = [f"base_radius: {scale} is missing" for scale in t.ground_scales if scale not in t.base_radius]
    for scale, radius in t.base_radius.items():
        if scale not in t.ground_scales:
            problems.append(f"base_radius.{scale}: not one of the ground_scales")
        elif not 0.1 <= radius <= 3:
            problems.append(f"base_radius.{scale}: must be between 0.1 and 3 inches, got {radius:g}")
    for key in ("cover_within_inches", "pickup_within_inches"):
        if not 0 <= getattr(t, key) <= 12:
            problems.append(f"{key}: must be between 0 and 12 inches, got {getattr(t, key):g}")
    return problems + terrain_problems(t.terrain)


def _name_problems(where: str, names: list[str]) -> list[str]:
    problems = []
    folded = [fold(n) for n in names]
    if any(not f for f in folded):
        problems.append(f"{where}: every name needs a letter or digit")
    if len(set(folded)) != len(folded):
        problems.append(f"{where}: two names differ only in capitals, spaces or punctuation")
    for name in names:
        if _JOINER.search(name):
            problems.append(f"{where}.{name}: a name may not contain + or /")
    return problems


def _weapon_problems(name: str, w: Weapon) -> list[str]:
    problems = []
    if w.damage < 1:
        problems.append(f"weapons.{name}.damage: must be at least 1 die, got {w.damage}")
    if w.range < 0:
        problems.append(f"weapons.{name}.range: must not be negative")
    if w.range > 0 and (w.rof is None or w.rof < 1):
        problems.append(f"weapons.{name}.rof: a weapon with a range needs a rate of fire of at least 1")
    if w.range == 0 and w.rof is not None:
        problems.append(f"weapons.{name}.rof: a weapon with no range has no rate of fire (use null)")
    if w.range == 0 and not w.melee:
        problems.append(f"weapons.{name}: has no range and is not a hand-to-hand weapon")
    if w.thrown and w.range == 0:
        problems.append(f"weapons.{name}.thrown: a thrown weapon needs a range")
    return problems


def _kit_problems(t: MedievalTables, where: str, p: Profile | Kit) -> list[str]:
    problems = []
    for weapon in p.weapons:
        if weapon not in t.weapons:
            problems.append(f"{where}.weapons: {weapon!r} is not one of the weapons")
    slots: list[str] = []
    for piece in p.armour:
        if piece not in t.armour:
            problems.append(f"{where}.armour: {piece!r} is not one of the armour")
        else:
            slots.append(t.armour[piece].slot)
    if len(set(slots)) != len(slots):
        problems.append(f"{where}.armour: at most one piece of each slot ({', '.join(t.armour_slots)})")
    return problems


def _chart_problems(rows: list[ChartRow]) -> list[str]:
    problems = []
    if not rows:
        return ["wound_chart: needs at least one row"]
    bounds = [r.up_to for r in rows]
    if bounds[-1] is not None:
        problems.append("wound_chart: the last row needs up_to: null (every higher score)")
    if any(b is None for b in bounds[:-1]):
        problems.append("wound_chart: only the last row may have up_to: null")
    numbers = [b for b in bounds if b is not None]
    if numbers != sorted(set(numbers)):
        problems.append("wound_chart: up_to must rise from row to row")
    return problems
