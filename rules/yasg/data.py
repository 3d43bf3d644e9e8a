"""The tables of YASG (``tables.yaml``) as dataclasses, and the checks their types cannot make."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

D6 = 6
D10 = 10
Cover = Literal["none", "soft", "hard"]
Side = Literal["n", "e", "s", "w"]


@dataclass(frozen=True)
class Limits:
    min: int
    max: int


@dataclass(frozen=True)
class Weapon:
    fires: bool = True
    close_combat: int = 0


@dataclass(frozen=True)
class Wounds:
    minor_points: int
    serious_points: int
    out_when_points_exceed: int
    class_per_point: int


@dataclass(frozen=True)
class DamageTable:
    killed: list[int]
    serious: list[int]
    minor: list[int]


@dataclass(frozen=True)
class Morale:
    pass_if_d10_greater_than: dict[str, int]
    shaken_class_penalty: int
    within_squares_of_enemy: int
    wounded_figures_test: bool
    pinned_figures_test: bool


@dataclass(frozen=True)
class Movement:
    walk: int
    walk_and_fire: int
    run: int
    run_and_fire: int
    uphill_cost: int
    fall_on_d10: list[int]
    pass_through_friends: bool


@dataclass(frozen=True)
class Band:
    name: str
    up_to: int
    need: dict[str, int]


@dataclass(frozen=True)
class FiringModifiers:
    pinned_class: int
    shaken: int
    moved: int
    target_ran: int
    soft_cover: int
    hard_cover: int


@dataclass(frozen=True)
class FiringTable:
    bands: list[Band]
    modifiers: FiringModifiers


@dataclass(frozen=True)
class CloseCombat:
    hit_if_d10_at_least: dict[str, int]
    pinned_class_penalty: int
    fallen_class_penalty: int
    enemy_height_advantage: int
    enemy_weapon_advantage: int
    walls_block: bool


@dataclass(frozen=True)
class TerrainKind:
    cover: Cover = "none"
    enter_cost: int = 0
    blocks_fire: bool = False
    hill: bool = False
    blocks_low_fire: bool = False
    walls: bool = False


@dataclass(frozen=True)
class EdgeKind:
    cover: Cover = "soft"
    cross_cost: int = 1


@dataclass(frozen=True)
class TerrainPatch:
    squares: str
    kind: str
    uphill: str | None = None


@dataclass(frozen=True)
class EdgeRun:
    squares: str
    side: Side
    kind: str


@dataclass(frozen=True)
class MapSpec:
    width: int
    height: int
    terrain: list[TerrainPatch] = field(default_factory=list)
    edges: list[EdgeRun] = field(default_factory=list)


@dataclass(frozen=True)
class YasgTables:
    sides: list[str]
    figures_per_side: Limits
    class_letters: list[str]
    initial_classes: list[str]
    class_names: dict[str, str]
    weapons: dict[str, Weapon]
    default_weapon: str
    wounds: Wounds
    damage_d10: DamageTable
    morale: Morale
    movement: Movement
    misfire_on_d6: list[int]
    load_automatically: bool
    arc_of_fire_degrees: float
    figures_block_fire: bool
    firing_table: str
    firing_tables: dict[str, FiringTable]
    close_combat: CloseCombat
    board_limits: Limits
    terrain: dict[str, TerrainKind]
    edges: dict[str, EdgeKind]
    board: str
    maps: dict[str, MapSpec]

    @property
    def firing(self) -> FiringTable:
        return self.firing_tables[self.firing_table]


def _faces(where: str, values: list[int], sides: int, problems: list[str]) -> None:
    for value in values:
        if not 1 <= value <= sides:
            problems.append(f"{where}: {value} is not a face of a d{sides}")


def _class_table(where: str, table: dict[str, int], letters: list[str], problems: list[str]) -> None:
    for letter, value in table.items():
        if letter not in letters:
            problems.append(f"{where}.{letter}: not one of the class letters")
        if not 0 <= value <= D10 + len(letters):
            problems.append(f"{where}.{letter}: {value} is not a sensible d10 number")
    if not table or letters[0] not in table:
        problems.append(f"{where}: needs a number for class {letters[0] if letters else 'A'}")
    present = [letters.index(k) for k in table if k in letters]
    if present and sorted(present) != list(range(len(present))):
        problems.append(f"{where}: the classes must run from {letters[0]} without gaps")


def table_problems(t: YasgTables) -> list[str]:
    """What the types of :class:`YasgTables` cannot say, as readable problems."""
    problems: list[str] = []
    if len(t.sides) != 2 or len({s.casefold() for s in t.sides}) != 2 or not all(s.strip() for s in t.sides):
        problems.append(f"sides: need exactly two different side names, got {t.sides!r}")
    if not 1 <= t.figures_per_side.min <= t.figures_per_side.max:
        problems.append("figures_per_side: need 1 <= min <= max")
    letters = t.class_letters
    if (
        len(set(letters)) != len(letters)
        or not letters
        or not all(len(x) == 1 and x.isalpha() and x.isupper() for x in letters)
    ):
        problems.append("class_letters: need different single capital letters")
    for letter in t.initial_classes:
        if letter not in letters:
            problems.append(f"initial_classes: {letter!r} is not one of the class letters")
    if not t.initial_classes:
        problems.append("initial_classes: need at least one class")
    if t.default_weapon not in t.weapons:
        problems.append(f"default_weapon: {t.default_weapon!r} is not one of the weapons")
    w = t.wounds
    if not 1 <= w.minor_points <= w.serious_points:
        problems.append("wounds: need 1 <= minor_points <= serious_points")
    if w.out_when_points_exceed < 0 or w.class_per_point < 0:
        problems.append("wounds: out_when_points_exceed and class_per_point must not be negative")
    damage = t.damage_d10
    faces = damage.killed + damage.serious + damage.minor
    _faces("damage_d10", faces, D10, problems)
    if sorted(faces) != list(range(1, D10 + 1)):
        problems.append("damage_d10: every face 1..10 must appear exactly once in killed, serious and minor")
    _class_table("morale.pass_if_d10_greater_than", t.morale.pass_if_d10_greater_than, letters, problems)
    _class_table("close_combat.hit_if_d10_at_least", t.close_combat.hit_if_d10_at_least, letters, problems)
    if t.morale.within_squares_of_enemy < 0:
        problems.append("morale.within_squares_of_enemy: must not be negative")
    m = t.movement
    if not 0 <= m.walk_and_fire <= m.walk <= m.run or not 0 <= m.run_and_fire <= m.run:
        problems.append("movement: need 0 <= walk_and_fire <= walk <= run and 0 <= run_and_fire <= run")
    if m.uphill_cost < 0:
        problems.append("movement.uphill_cost: must not be negative")
    _faces("movement.fall_on_d10", m.fall_on_d10, D10, problems)
    _faces("misfire_on_d6", t.misfire_on_d6, D6, problems)
    if not 0 < t.arc_of_fire_degrees <= 360:
        problems.append("arc_of_fire_degrees: must be more than 0 and at most 360")
    if t.firing_table not in t.firing_tables:
        problems.append(f"firing_table: {t.firing_table!r} is not one of the firing_tables")
    for name, table in t.firing_tables.items():
        _firing_problems(f"firing_tables.{name}", table, letters, problems)
    lim = t.board_limits
    if not 2 <= lim.min <= lim.max <= 60:
        problems.append("board_limits: need 2 <= min <= max <= 60")
    if "open" not in t.terrain:
        problems.append("terrain: needs an 'open' kind")
    for name, kind in t.terrain.items():
        if kind.enter_cost < 0:
            problems.append(f"terrain.{name}.enter_cost: must not be negative")
    for name, edge in t.edges.items():
        if edge.cross_cost < 0:
            problems.append(f"edges.{name}.cross_cost: must not be negative")
        if name in t.terrain or name == "none":
            problems.append(f"edges.{name}: the name is already a terrain kind (or 'none')")
    if t.board not in t.maps:
        problems.append(f"board: {t.board!r} is not one of the maps")
    for name, spec in t.maps.items():
        if not lim.min <= spec.width <= lim.max or not lim.min <= spec.height <= lim.max:
            problems.append(f"maps.{name}: its size is outside board_limits")
        for i, patch in enumerate(spec.terrain):
            if patch.kind not in t.terrain:
                problems.append(f"maps.{name}.terrain[{i}].kind: {patch.kind!r} is not a terrain kind")
        for i, run in enumerate(spec.edges):
            if run.kind not in t.edges:
                problems.append(f"maps.{name}.edges[{i}].kind: {run.kind!r} is not an edge kind")
    return problems


def _firing_problems(where: str, table: FiringTable, letters: list[str], problems: list[str]) -> None:
    if not table.bands:
        problems.append(f"{where}.bands: need at least one range band")
    last = 0
    for i, band in enumerate(table.bands):
        if band.up_to <= last:
            problems.append(f"{where}.bands[{i}].up_to: bands must reach further one after another")
        last = band.up_to
        for letter, need in band.need.items():
            if letter not in letters:
                problems.append(f"{where}.bands[{i}].need.{letter}: not one of the class letters")
            if not 1 <= need <= D10:
                problems.append(f"{where}.bands[{i}].need.{letter}: {need} is not a face of a d10")
