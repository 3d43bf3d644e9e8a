"""The NSR charts as dataclasses (loaded from ``tables.yaml``) and what their types cannot check."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from rules.battlefield import KINDS, TerrainKind, terrain_problems

CLASSES = ("I", "II", "III", "IV")
COLUMNS = ("cross_country", "road", "charge", "road_charge")
OUTCOMES = ("killed", "heavy", "light", "wounded", "no_hit", "hit")


@dataclass(frozen=True)
class UnitDefaults:
    figures: int
    officers: int
    ncos: int
    weapon: str
    melee: str
    formation: str
    rank_and_file: str
    rank_and_file_key: bool
    standard: int = 0
    musician: int = 0


@dataclass(frozen=True)
class FiringRow:
    max_range: float
    half_range_bonus: bool
    hits: dict[str, list[str]] = field(default_factory=dict)
    use: str | None = None
    multiply: int = 1


@dataclass(frozen=True)
class CasualtyCard:
    ranks: dict[str, str]
    suits: dict[str, str]


@dataclass(frozen=True)
class VsArtillery:
    target_class: str
    ranks: list[str]
    suits: dict[str, str]


@dataclass(frozen=True)
class OfficerPistol:
    wound_on: int
    kill_on: int
    wound: Literal["light", "heavy"]
    max_range: float


@dataclass(frozen=True)
class TargetClass:
    """The target class by where most of the target unit is: measured on the map (A-NSR-36), read
    from the unit at a table when the player gives none (A-NSR-47)."""

    building: str
    behind_wall: str
    prone: str
    rough_ground: str
    close_order: str
    open_order: str


@dataclass(frozen=True)
class CloseIn:
    close: list[int]
    stand: list[int]


@dataclass(frozen=True)
class Morale:
    major: int
    with_leader: int
    without_leader: int


@dataclass(frozen=True)
class Distances:
    charge_stop: float
    failed_close_in_fallback: float
    shaken_retreat_d6: int
    rout_move_d6: int
    joker_fall_back_d6: int
    smoke_d6: int
    defender_support_radius: float
    leader_accompany_radius: float


@dataclass(frozen=True)
class MapGround:
    """What NSR reads from the kinds of ground on the bot's map (A-NSR-32): ``rough`` takes the
    highest movement die away (seed 1.G) and makes a Class III target; ``road`` is the chart's road
    column; ``solid_walls`` and ``buildings`` make a Class IV target."""

    rough: list[str]
    road: list[str]
    solid_walls: list[str]
    buildings: list[str]
    #: A-NSR-44: how many figures fire from each of a barn's large doors ("more then one figure").
    barn_door_firers: int = 2


@dataclass(frozen=True)
class Loophole:
    bayonet: int
    sapper: int


@dataclass(frozen=True)
class Options:
    smoothed_firing_rows: bool
    card_for_side_without_units: Literal["ask", "skip"]
    shaken_rally_check: bool
    wounded_losers_become_prisoners: bool
    british_ball_class_ii_as_class_i: bool


@dataclass(frozen=True)
class Campaign:
    """Between battles (rules/nsr/campaign.py): readings of this engine, the seed being silent."""

    routed: Literal["leave", "return"]
    wounded: Literal["recover", "heavy_leave", "leave"]
    destroyed_gun: Literal["replaced", "disband"]
    disband_below: int


@dataclass(frozen=True)
class NsrTables:
    sides: list[str]
    troop_types: list[str]
    kind_aliases: dict[str, str]
    unit_defaults: dict[str, UnitDefaults]
    leader_ranks: dict[str, int]
    weapons: list[str]
    melee_weapons: list[str]
    movement_dice: dict[str, dict[str, list[int | None]]]
    close_order_formations: list[str]
    gun_movers: int
    joker_movement: dict[int, str]
    die_columns: list[int]
    firing_chart: dict[str, FiringRow]
    smoothed_firing_rows: dict[str, dict[str, list[str]]]
    half_range_bonus: int
    hits_rounding: Literal["down", "nearest", "up"]
    artillery_equivalent: dict[int, int]
    artillery_min_crew: int
    artillery_min_gunners: int
    casualty_card: CasualtyCard
    volley_cards: dict[str, dict[str, str]]
    volley_second_card: dict[str, str]
    volley_formations: list[str]
    vs_artillery_crew: VsArtillery
    officer_pistol: OfficerPistol
    target_class: TargetClass
    open_order_formations: list[str]
    joker_fire: dict[int, str]
    close_into_combat: dict[str, CloseIn]
    mounted_vs_square: int
    charge_test_type: dict[str, str]
    close_combat_columns: list[str]
    close_combat_column_of: dict[str, str]
    close_combat_modifiers: dict[str, list[int]]
    polearms: list[str]
    no_bayonet: list[str]
    close_combat_loser: dict[int, str]
    prisoners_per_escort: int
    morale_numbers: dict[str, Morale]
    morale_type_of: dict[str, str]
    distances: Distances
    breach: dict[str, list[int]]
    breach_parts: list[str]
    breach_row_of: dict[str, str]
    loophole_turns: Loophole
    options: Options
    campaign: Campaign
    terrain: dict[str, TerrainKind]
    ground: MapGround


def fraction(text: str) -> Fraction:
    """``"1/8"`` as an exact fraction (ValueError when it is not one)."""
    top, sep, bottom = str(text).partition("/")
    if not sep or not top.strip().isdigit() or not bottom.strip().isdigit() or int(bottom) == 0:
        raise ValueError(text)
    return Fraction(int(top), int(bottom))


def _die_sides(mapping: dict[int, str], where: str, sides: int) -> list[str]:
    if sorted(mapping) != list(range(1, sides + 1)):
        return [f"{where}: needs exactly the results 1 to {sides}, got {sorted(mapping)}"]
    return []


def _fraction_rows(rows: dict[str, list[str]], where: str) -> list[str]:
    problems = []
    for klass, cells in rows.items():
        if klass not in CLASSES:
            problems.append(f"{where}.{klass}: target classes are {', '.join(CLASSES)}")
        if len(cells) != 3:
            problems.append(f"{where}.{klass}: needs three fractions (die 1, 2-5, 6), got {len(cells)}")
        for cell in cells:
            try:
                fraction(cell)
            except ValueError:
                problems.append(f"{where}.{klass}: {cell!r} is not a fraction like 1/4")
    return problems


def table_problems(t: NsrTables) -> list[str]:
    """What the types of :class:`NsrTables` cannot say, as readable problems."""
    problems: list[str] = []
    if len(t.sides) != 2 or len({s.casefold() for s in t.sides}) != 2 or not all(s.strip() for s in t.sides):
        problems.append(f"sides: need exactly two different side names, got {t.sides!r}")
    types = set(t.troop_types)
    for name, target in t.kind_aliases.items():
        if target not in types:
            problems.append(f"kind_aliases.{name}: {target!r} is not a troop type")
    problems += _keyed(t.unit_defaults, types, "unit_defaults")
    problems += _keyed(t.movement_dice, types, "movement_dice")
    problems += _keyed(t.close_combat_column_of, types, "close_combat_column_of")
    problems += _keyed(t.breach_row_of, types, "breach_row_of")
    problems += [
        f"target_class.{key}: {value!r} is not a target class ({', '.join(CLASSES)})"
        for key, value in vars(t.target_class).items()
        if value not in CLASSES
    ]
    problems += [
        f"open_order_formations: {name!r} is not a formation"
        for name in t.open_order_formations
        if not any(name in rows for rows in t.movement_dice.values())
    ]
    for troop, d in t.unit_defaults.items():
        where = f"unit_defaults.{troop}"
        leaders = d.officers + d.ncos + d.standard + d.musician
        if d.figures < 1 or d.officers < 0 or d.ncos < 0 or leaders > d.figures:
            problems.append(f"{where}: {d.figures} figures cannot hold its leaders, standard and musician")
        if d.weapon not in t.weapons:
            problems.append(f"{where}.weapon: {d.weapon!r} is not one of the weapons")
        if d.melee not in t.melee_weapons:
            problems.append(f"{where}.melee: {d.melee!r} is not one of the melee weapons")
        if d.formation not in t.movement_dice.get(troop, {}):
            problems.append(f"{where}.formation: {troop} has no movement row for {d.formation!r}")
    for troop, rows in t.movement_dice.items():
        for formation, dice in rows.items():
            if len(dice) != 4 or any(n is not None and n < 1 for n in dice) or dice[0] is None:
                problems.append(f"movement_dice.{troop}.{formation}: needs four columns, cross country at least 1 die")
    for key in ("nco", "officer", "commander"):
        if key not in t.leader_ranks or t.leader_ranks[key] < 1:
            problems.append(f"leader_ranks.{key}: needs a rank of at least 1")
    problems += _die_sides(t.joker_movement, "joker_movement", 6)
    problems += _die_sides(t.joker_fire, "joker_fire", 6)
    problems += _die_sides(t.close_combat_loser, "close_combat_loser", 10)
    if len(t.die_columns) != 2 or not 1 <= t.die_columns[0] < t.die_columns[1]:
        problems.append(f"die_columns: needs two rising die scores, got {t.die_columns!r}")
    problems += _firing_problems(t)
    problems += _card_problems(t)
    problems += _combat_problems(t, types)
    for troop, m in t.morale_numbers.items():
        if not 2 <= m.without_leader <= 13 or not 2 <= m.with_leader <= 13 or not 2 <= m.major <= 13:
            problems.append(f"morale_numbers.{troop}: numbers are compared with 2D6, so 2 to 13")
    for troop, other in t.morale_type_of.items():
        if troop not in types or other not in t.morale_numbers:
            problems.append(f"morale_type_of.{troop}: {other!r} has no morale numbers")
    for troop in types - set(t.morale_numbers) - set(t.morale_type_of):
        problems.append(f"morale_numbers: {troop} has no morale numbers")
    for row, turns in t.breach.items():
        if len(turns) != len(t.breach_parts) or any(n < 1 for n in turns):
            problems.append(f"breach.{row}: needs {len(t.breach_parts)} counts of at least 1")
    for troop, row in t.breach_row_of.items():
        if row not in t.breach:
            problems.append(f"breach_row_of.{troop}: {row!r} is not a breach row")
    for row in ("sapper", "ball", "grapeshot"):
        if row not in t.breach:
            problems.append(f"breach: needs a {row} row")
    if t.loophole_turns.bayonet < 1 or t.loophole_turns.sapper < 1:
        problems.append("loophole_turns: need at least 1 turn")
    if t.gun_movers < 1 or t.artillery_min_crew < 1 or t.prisoners_per_escort < 1:
        problems.append("gun_movers, artillery_min_crew and prisoners_per_escort: need at least 1")
    problems += terrain_problems(t.terrain)
    for key in ("rough", "road", "solid_walls", "buildings"):
        problems += [f"ground.{key}: {k!r} is not a kind of terrain" for k in getattr(t.ground, key) if k not in KINDS]
    if not 1 <= t.ground.barn_door_firers <= 10:
        problems.append("ground.barn_door_firers: from 1 to 10 figures fire from a barn's door")
    if t.campaign.disband_below < 1:
        problems.append("campaign.disband_below: needs at least 1 (a unit with no figure left always disbands)")
    return problems


def _keyed(mapping: Mapping[str, object], types: set[str], where: str) -> list[str]:
    problems = [f"{where}.{k}: {k!r} is not a troop type" for k in mapping if k not in types]
    problems += [f"{where}: {k} is missing" for k in sorted(types - set(mapping))]
    return problems


def _firing_problems(t: NsrTables) -> list[str]:
    problems: list[str] = []
    for name, row in t.firing_chart.items():
        where = f"firing_chart.{name}"
        if row.max_range <= 0:
            problems.append(f"{where}.max_range: must be more than 0")
        if row.use is None:
            if sorted(row.hits) != sorted(CLASSES):
                problems.append(f"{where}.hits: needs the classes {', '.join(CLASSES)}")
            problems += _fraction_rows(row.hits, f"{where}.hits")
        elif row.use not in t.firing_chart or t.firing_chart[row.use].use is not None:
            problems.append(f"{where}.use: {row.use!r} is not a row with its own fractions")
        if row.multiply < 1:
            problems.append(f"{where}.multiply: must be at least 1")
    for weapon in ("musket", "rifle", "carbine", "pistol", "ball", "grapeshot"):
        if weapon not in t.firing_chart:
            problems.append(f"firing_chart: needs a {weapon} row")
    for name, rows in t.smoothed_firing_rows.items():
        if name not in t.firing_chart:
            problems.append(f"smoothed_firing_rows.{name}: is not a row of the firing chart")
        problems += _fraction_rows(rows, f"smoothed_firing_rows.{name}")
    if not {2, 3, 4} <= set(t.artillery_equivalent):
        problems.append("artillery_equivalent: needs crews of 2, 3 and 4")
    if t.hits_rounding not in ("down", "nearest", "up"):
        problems.append("hits_rounding: down, nearest or up")
    if t.officer_pistol.wound_on > t.officer_pistol.kill_on or not 1 <= t.officer_pistol.kill_on <= 6:
        problems.append("officer_pistol: wound_on must not be above kill_on, both 1 to 6")
    return problems


def _card_problems(t: NsrTables) -> list[str]:
    problems: list[str] = []
    suits = {"H", "D", "C", "S"}
    ranks = {"A", "K", "Q", "J", "number"}
    if set(t.casualty_card.ranks) != ranks or not set(t.casualty_card.ranks.values()) <= {"leader", "key", "ordinary"}:
        problems.append("casualty_card.ranks: needs A, K, Q, J and number, each leader, key or ordinary")
    if set(t.casualty_card.suits) != suits or not set(t.casualty_card.suits.values()) <= {"killed", "heavy", "light"}:
        problems.append("casualty_card.suits: needs H, D, C and S, each killed, heavy or light")
    if sorted(t.volley_cards) != sorted(CLASSES):
        problems.append(f"volley_cards: needs the classes {', '.join(CLASSES)}")
    for klass, row in t.volley_cards.items():
        if set(row) != suits or not set(row.values()) <= set(OUTCOMES):
            problems.append(f"volley_cards.{klass}: needs H, D, C and S, each one of {', '.join(OUTCOMES)}")
    if set(t.volley_second_card) != ranks or not set(t.volley_second_card.values()) <= {"killed", "wounded"}:
        problems.append("volley_second_card: needs A, K, Q, J and number, each killed or wounded")
    crew = t.vs_artillery_crew
    if crew.target_class not in CLASSES or not set(crew.ranks) <= ranks - {"number"} or not set(crew.suits) <= suits:
        problems.append("vs_artillery_crew: a class, face ranks and suits")
    return problems


def _combat_problems(t: NsrTables, types: set[str]) -> list[str]:
    problems: list[str] = []
    for troop, row in t.close_into_combat.items():
        for key in ("close", "stand"):
            values = getattr(row, key)
            if len(values) != 2 or not all(0 <= v <= 10 for v in values):
                problems.append(f"close_into_combat.{troop}.{key}: needs [with leader, without leader], 0 to 10")
    for troop in types - set(t.close_into_combat):
        if t.charge_test_type.get(troop) not in t.close_into_combat:
            problems.append(f"charge_test_type.{troop}: needs a row of close_into_combat")
    columns = set(t.close_combat_columns)
    for troop, column in t.close_combat_column_of.items():
        if column not in columns:
            problems.append(f"close_combat_column_of.{troop}: {column!r} is not a column")
    needed = {
        "charging_or_countercharging",
        "defending_in_open_order",
        "defending_in_close_order",
        "defending_in_square",
        "defending_linear_object",
        "defending_building",
        "uphill",
        "attacked_from_rear",
        "leader",
        "lance_pike_halberd_axe",
        "each_additional_opponent",
        "no_bayonet",
    }
    for name in sorted(needed - set(t.close_combat_modifiers)):
        problems.append(f"close_combat_modifiers.{name}: missing")
    for name, values in t.close_combat_modifiers.items():
        if len(values) != len(t.close_combat_columns):
            problems.append(f"close_combat_modifiers.{name}: needs one value per column")
    for outcome in t.close_combat_loser.values():
        if outcome not in ("killed", "wounded", "ran", "captured"):
            problems.append(f"close_combat_loser: {outcome!r} is not killed, wounded, ran or captured")
    return problems
