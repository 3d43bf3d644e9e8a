"""The shape of ``tables.yaml``: typed dataclasses, and the checks their types cannot make."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rules.battlefield import TerrainKind, terrain_problems

Severity = Literal["none", "light", "serious", "kill"]
LOCATIONS = ("legs", "abdomen", "left_arm", "right_arm", "chest", "head")
TABLE_ROWS = ("head", "arms", "legs", "chest", "abdomen")
FOOT_PACES = ("crawl", "walk", "run")
MOUNTED_PACES = ("walk", "trot", "canter", "gallop")
ABILITIES = ("I", "D", "S", "C")
WEATHERS = ("clear", "fog", "rain")
APPROACH_CLASSES = ("rifleman", "guerrilla", "line_infantry", "cavalryman", "other")


@dataclass(frozen=True)
class Band:
    """A range band: up to ``upto`` inches (None: no limit), the modifier, or an automatic hit."""

    upto: float | None = None
    mod: int = 0
    auto_hit: bool = False
    inclusive: bool = True


@dataclass(frozen=True)
class WoundCount:
    """How many wounds a multi-wound hit inflicts up to a range: 1D``die`` + ``plus``."""

    die: int
    plus: int = 0
    upto: float | None = None
    inclusive: bool = True


@dataclass(frozen=True)
class Weapon:
    label: str
    firearm: bool = False
    melee: bool = False
    hands: int = 1
    piece: bool = False
    skill_cap: int | None = None
    reload_bounds: int = 0
    tap_reload_bounds: int | None = None
    tap_skill_cap: int | None = None
    reload_man_bounds: int = 0
    max_loaders: int = 0
    choose_horse_or_rider: bool = False
    dodge_modifier: int = 0
    ranges: list[Band] = field(default_factory=list)
    wounds: list[WoundCount] = field(default_factory=list)


@dataclass(frozen=True)
class Kind:
    label: str
    weapons: list[str]
    firing_base: int = 6
    firing_die: bool = False
    aliases: list[str] = field(default_factory=list)
    role: Literal["none", "officer", "sergeant"] = "none"
    approach: Literal["rifleman", "guerrilla", "line_infantry", "cavalryman", "other"] = "other"
    horse: bool = False
    piece: bool = False


@dataclass(frozen=True)
class Movement:
    foot: dict[str, float]
    mounted: dict[str, float]
    mounted_max_turn: dict[str, int]
    mounted_paces: list[str]
    must_keep_moving: list[str]
    each_light_wound: float
    each_serious_wound: float
    bad_going_factor: float
    breaks_reload: list[str]


@dataclass(frozen=True)
class Check:
    automatic_failure: int
    cost: int
    each_light_wound: int
    each_serious_wound: int


@dataclass(frozen=True)
class JumpHeight:
    free_up_to_ft: float
    per_ft: float
    mod: int


@dataclass(frozen=True)
class Order:
    die: int
    places_down: dict[str, int]


@dataclass(frozen=True)
class Shooting:
    each_light_wound: int
    each_serious_wound: int
    target_moving: int
    firer_moving: int
    night: int
    mounted_target: int
    resting: int
    aimed: int
    aim_in_first_bound: bool
    wrong_hand: int
    misfire_2d6: list[int]
    weather_misfire: dict[str, list[int]]
    reprime_bounds: int
    soft_cover_hit: list[int]
    hard_cover_hides: list[str]
    horseman_hit: dict[str, list[int]]


@dataclass(frozen=True)
class MeleeCosts:
    attack: int
    parry: int
    riposte: int
    dodge: int
    distraction: int


@dataclass(frozen=True)
class Melee:
    each_light_wound: int
    each_serious_wound: int
    uphill: int
    on_horseback: int
    attacking_fallen_man: int
    fallen_defender: int
    wrong_hand: int
    barehanded_parry_vs_weapon: int
    parrying_at_obstacle: int
    not_turned_attack: dict[str, int]
    not_turned_defence: dict[str, int]
    costs: MeleeCosts


@dataclass(frozen=True)
class SilentApproach:
    defender_each_light_wound: int
    defender_each_serious_wound: int
    attacker_pace: dict[str, int]
    attacker_class: dict[str, int]
    not_turned_bonus: int
    not_heard_bonus: int


@dataclass(frozen=True)
class WoundModifiers:
    strength: list[Band]
    unable_to_recoil: int
    no_weapon: int
    hit_by_horse: int
    horse_hit_by_man: int
    falling: int
    on_the_floor: int


@dataclass(frozen=True)
class WoundPoints:
    light: int
    serious: int
    out_at: int


@dataclass(frozen=True)
class Effects:
    passout_on: list[int]
    recover_on: list[int]
    knockout_die: int
    fall_over_ft: float


@dataclass(frozen=True)
class Horses:
    veer_d6: list[str]
    collision_modifier: dict[str, int]
    ride_over_paces: list[str]
    ride_over_dodge_modifier: dict[str, int]
    wounded_pace: str


@dataclass(frozen=True)
class Options:
    reroll_order_every_bound: bool
    head5: Literal["light", "serious"]
    no_parry_without_room: bool
    dodge_shots: bool
    morale: bool
    horsemen: bool
    killing_unconscious: bool
    silent_approach: bool
    artillery: bool
    victory_counts_unconscious: bool
    kill_outcome: Literal["none", "death_on_6", "miss_d6_games"]


@dataclass(frozen=True)
class Scenario:
    weather: Literal["clear", "fog", "rain"]
    night: bool


@dataclass(frozen=True)
class Hints:
    target_priority: str = ""


@dataclass(frozen=True)
class MapNumbers:
    """On the bot's map (A-SHARPE-32): the bases' radii in inches, and how near the target a
    feature the line of fire crosses must be to give it cover."""

    base_radius: float = 0.6
    mounted_base_radius: float = 1.2
    cover_within_inches: float = 2.0
    #: A-SHARPE-47: an artillery piece's round base (its wheels and trail), in inches.
    gun_base_radius: float = 1.0
    #: A-SHARPE-49: how a gun is hauled: the pace its crewman goes at while he drags it.
    haul_pace: str = "crawl"


@dataclass(frozen=True)
class WallHeights:
    """A-SHARPE-46: a line the map says stands taller than this (feet) is a high wall."""

    high_over_ft: float = 4.0


@dataclass(frozen=True)
class SharpeTables:
    sides: list[str]
    abilities: list[str]
    given_ability_range: list[int]
    given_firing_range: list[int]
    kinds: dict[str, Kind]
    gun_firing_max: int
    weapons: dict[str, Weapon]
    melee_preference: list[str]
    movement: Movement
    check: Check
    action_modifiers: dict[str, int]
    jump_height: JumpHeight
    falls_on_failure: list[str]
    order: Order
    shooting: Shooting
    melee: Melee
    silent_approach: SilentApproach
    location_d6: list[str]
    capture_location_bonus: int
    punch_reroll: list[int]
    kick_location_d6: list[str]
    wound_table: dict[str, list[Severity]]
    wound_modifiers: WoundModifiers
    wound_points: WoundPoints
    effects: Effects
    horses: Horses
    options: Options
    broken_may: list[str]
    scenario: Scenario
    hints: Hints = field(default_factory=Hints)
    map: MapNumbers = field(default_factory=MapNumbers)
    terrain: dict[str, TerrainKind] = field(default_factory=dict)
    #: A-SHARPE-45: the action modifier (a key of action_modifiers) for leaping over a man on the
    #: ground (``fallen_man``) and over a dead horse (``dead_horse``) on the map.
    leaping: dict[str, str] = field(default_factory=lambda: {"fallen_man": "none", "dead_horse": "low_wall"})
    walls: WallHeights = field(default_factory=WallHeights)


def _faces(values: list[int], where: str, sides: int, problems: list[str]) -> None:
    for v in values:
        if not 1 <= v <= sides:
            problems.append(f"{where}: {v} is not a face of a d{sides}")


def _bands(bands: list[Band], where: str, problems: list[str]) -> None:
    last = -1.0
    for i, band in enumerate(bands):
        if band.upto is None:
            if i != len(bands) - 1:
                problems.append(f"{where}[{i}]: only the last band may have no upper limit")
            continue
        if band.upto <= last:
            problems.append(f"{where}[{i}]: bands must go up in range")
        last = band.upto


def _weapon_problems(name: str, w: Weapon, problems: list[str]) -> None:
    where = f"weapons.{name}"
    if w.hands not in (1, 2):
        problems.append(f"{where}.hands: must be 1 or 2, got {w.hands}")
    if not (w.firearm or w.melee):
        problems.append(f"{where}: a weapon must be a firearm, a close-combat weapon or both")
    if w.firearm and not w.ranges:
        problems.append(f"{where}.ranges: a firearm needs range bands")
    _bands(w.ranges, f"{where}.ranges", problems)
    for i, count in enumerate(w.wounds):
        if count.die not in (3, 6):
            problems.append(f"{where}.wounds[{i}].die: must be 3 or 6, got {count.die}")
    if w.piece and (w.reload_man_bounds < 1 or w.max_loaders < 1):
        problems.append(f"{where}: an artillery piece needs reload_man_bounds and max_loaders of at least 1")
    if w.firearm and not w.piece and w.reload_bounds < 0:
        problems.append(f"{where}.reload_bounds: cannot be negative")


def table_problems(t: SharpeTables) -> list[str]:
    """What the types of :class:`SharpeTables` cannot say, as readable problems."""
    problems: list[str] = []
    if len(t.sides) != 2 or len({s.casefold() for s in t.sides}) != 2 or not all(s.strip() for s in t.sides):
        problems.append(f"sides: need exactly two different side names, got {t.sides!r}")
    if list(t.abilities) != list(ABILITIES):
        problems.append(f"abilities: must be {list(ABILITIES)}")
    for key in ("given_ability_range", "given_firing_range"):
        pair = getattr(t, key)
        if len(pair) != 2 or pair[0] > pair[1] or pair[0] < 0:
            problems.append(f"{key}: must be [lowest, highest], got {pair!r}")
    for name, w in t.weapons.items():
        _weapon_problems(name, w, problems)
    seen: dict[str, str] = {}
    for name, kind in t.kinds.items():
        for weapon in kind.weapons:
            if weapon not in t.weapons:
                problems.append(f"kinds.{name}.weapons: {weapon!r} is not one of the weapons")
        for alias in [name, kind.label, *kind.aliases]:
            key = " ".join(alias.replace("_", " ").split()).casefold()
            if seen.get(key, name) != name:
                problems.append(f"kinds.{name}: {alias!r} also names {seen[key]}")
            seen[key] = name
        if kind.piece and not any(t.weapons.get(w, Weapon("")).piece for w in kind.weapons):
            problems.append(f"kinds.{name}: an artillery piece must carry a piece weapon")
    if not any(not k.piece for k in t.kinds.values()):
        problems.append("kinds: need at least one kind of character")
    for weapon in t.melee_preference:
        if weapon not in t.weapons or not t.weapons[weapon].melee:
            problems.append(f"melee_preference: {weapon!r} is not a close-combat weapon")
    m = t.movement
    if set(m.foot) != set(FOOT_PACES):
        problems.append(f"movement.foot: needs exactly {', '.join(FOOT_PACES)}")
    if set(m.mounted) != set(MOUNTED_PACES) or set(m.mounted_max_turn) != set(MOUNTED_PACES):
        problems.append(f"movement.mounted: needs exactly {', '.join(MOUNTED_PACES)}")
    if m.mounted_paces != ["halt", *MOUNTED_PACES]:
        problems.append(f"movement.mounted_paces: must be halt, {', '.join(MOUNTED_PACES)} in order")
    if not 0 < m.bad_going_factor <= 1:
        problems.append("movement.bad_going_factor: must be more than 0 and at most 1")
    for key in ("base_radius", "mounted_base_radius", "gun_base_radius"):
        if not 0.1 <= getattr(t.map, key) <= 3:
            problems.append(f"map.{key}: must be between 0.1 and 3 inches")
    if not 0 <= t.map.cover_within_inches <= 12:
        problems.append("map.cover_within_inches: must be between 0 and 12 inches")
    if t.map.haul_pace not in t.movement.foot:
        problems.append(f"map.haul_pace: must be a pace on foot ({', '.join(t.movement.foot)})")
    problems += terrain_problems(t.terrain)
    if not 1 <= t.check.automatic_failure <= 6:
        problems.append("check.automatic_failure: must be a face of a d6")
    for key in t.falls_on_failure:
        if key not in t.action_modifiers:
            problems.append(f"falls_on_failure: {key!r} is not one of the action_modifiers")
    if not 1 <= t.walls.high_over_ft <= 60:
        problems.append("walls.high_over_ft: must be between 1 and 60 feet")
    if set(t.leaping) != {"fallen_man", "dead_horse"}:
        problems.append("leaping: needs fallen_man and dead_horse")
    for what, key in t.leaping.items():
        if key not in t.action_modifiers:
            problems.append(f"leaping.{what}: {key!r} is not one of the action_modifiers")
    if set(t.order.places_down) != {"light", "serious"}:
        problems.append("order.places_down: needs light and serious")
    s = t.shooting
    _faces(s.misfire_2d6, "shooting.misfire_2d6", 12, problems)
    for weather in WEATHERS:
        if weather not in s.weather_misfire:
            problems.append(f"shooting.weather_misfire: missing {weather}")
    for weather, faces in s.weather_misfire.items():
        _faces(faces, f"shooting.weather_misfire.{weather}", 6, problems)
    _faces(s.soft_cover_hit, "shooting.soft_cover_hit", 6, problems)
    for part in s.hard_cover_hides:
        if part not in LOCATIONS:
            problems.append(f"shooting.hard_cover_hides: {part!r} is not a body part ({', '.join(LOCATIONS)})")
    if set(s.horseman_hit) != {"horse", "rider"} or sorted(s.horseman_hit["horse"] + s.horseman_hit["rider"]) != [
        1,
        2,
        3,
        4,
        5,
        6,
    ]:
        problems.append("shooting.horseman_hit: horse and rider must share the faces 1-6")
    if set(t.melee.not_turned_attack) != {"right", "left", "rear"}:
        problems.append("melee.not_turned_attack: needs right, left and rear")
    if set(t.melee.not_turned_defence) != {"parry", "riposte"}:
        problems.append("melee.not_turned_defence: needs parry and riposte")
    if set(t.silent_approach.attacker_class) != set(APPROACH_CLASSES):
        problems.append(f"silent_approach.attacker_class: needs {', '.join(APPROACH_CLASSES)}")
    for key in ("location_d6", "kick_location_d6"):
        faces = getattr(t, key)
        if len(faces) != 6 or any(f not in LOCATIONS for f in faces):
            problems.append(f"{key}: needs six body parts ({', '.join(LOCATIONS)})")
    _faces(t.punch_reroll, "punch_reroll", 6, problems)
    if len(set(t.punch_reroll)) >= 6:
        problems.append("punch_reroll: cannot re-roll every face")
    if set(t.wound_table) != set(TABLE_ROWS):
        problems.append(f"wound_table: needs the rows {', '.join(TABLE_ROWS)}")
    for row, cells in t.wound_table.items():
        if len(cells) != 11:
            problems.append(f"wound_table.{row}: needs 11 cells (scores 2 to 12), got {len(cells)}")
    _bands(t.wound_modifiers.strength, "wound_modifiers.strength", problems)
    wp = t.wound_points
    if not 0 < wp.light <= wp.serious < wp.out_at:
        problems.append("wound_points: need 0 < light <= serious < out_at")
    _faces(t.effects.passout_on, "effects.passout_on", 6, problems)
    _faces(t.effects.recover_on, "effects.recover_on", 6, problems)
    if t.effects.knockout_die < 1:
        problems.append("effects.knockout_die: must be at least 1")
    if len(t.horses.veer_d6) != 6:
        problems.append("horses.veer_d6: needs six entries")
    if t.horses.wounded_pace not in MOUNTED_PACES:
        problems.append(f"horses.wounded_pace: {t.horses.wounded_pace!r} is not a mounted pace")
    for pace in t.horses.ride_over_paces:
        if pace not in MOUNTED_PACES:
            problems.append(f"horses.ride_over_paces: {pace!r} is not a mounted pace")
    for key in t.broken_may:
        if key not in ("move", "defend", "shoot", "attack"):
            problems.append(f"broken_may: {key!r} is not one of move, defend, shoot, attack")
    return problems
