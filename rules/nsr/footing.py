"""Where an NSR unit stands on the bot's map: its placement, its footprint, and the ground it may
stand on (A-NSR-32). The lowest layer of NSR's map play: :mod:`rules.nsr.onmap` (placing, moving,
firing, charging) and :mod:`rules.nsr.onmap_towns` (buildings) both build on it.
"""

from __future__ import annotations

from shapely.geometry import Polygon

from rules.battlefield import battlefield_of
from rules.battlefield.formations import (
    DEFAULT_SPEC,
    UnitPlacement,
    check_on_table,
    footprint,
    on_table,
    overlaps,
    size,
)
from rules.battlefield.mapplay import field_of as field_of
from rules.battlefield.maps import zone_shape
from rules.geometry import Point
from rules.nsr.charts import NsrTables
from rules.nsr.state import NsrState, Unit
from rules.vocabulary import RuleError
from rules.words import heading, possessive

#: Base sizes and ranks: the player's reading formations.py gives (A-NSR-32).
SPEC = DEFAULT_SPEC
EPSILON = 1e-6

#: How far a unit stops short of what blocks it, so its rounded position never overlaps (inches).
CLEARANCE = 0.001


def with_the_unit(unit: Unit) -> int:
    """A-NSR-32: the figures a unit's footprint holds: every figure not killed, captured, run off
    or taken to the rear (the wounded stand with it until carried off)."""
    return sum(1 for f in unit.figures if f.status in ("fit", "wounded") and not f.in_rear)


def placement_of(
    state: NsrState,
    unit: Unit,
    *,
    centre: Point | None = None,
    facing: float | None = None,
    formation: str | None = None,
) -> UnitPlacement | None:
    """Where ``unit`` stands (or would, with the centre, facing or formation given); None when it
    is not on the map or has no figure left to stand there."""
    field = field_of(state)
    xy = field.positions.get(unit.name)
    count = with_the_unit(unit)
    if centre is None and xy is not None:
        centre = Point(xy[0], xy[1])
    if centre is None or count == 0:
        return None
    return UnitPlacement(
        centre,
        facing if facing is not None else field.facing.get(unit.name, 0.0),
        formation or unit.formation,
        count,
        mounted=unit.troop == "mounted",
        guns=1 if unit.troop == "artillery" else 0,
    )


def footprints(state: NsrState, leave_out: str = "") -> dict[str, Polygon]:
    """The ground every placed unit covers (but ``leave_out``)."""
    out: dict[str, Polygon] = {}
    for unit in state.units:
        if unit.name == leave_out or unit.building:  # A-NSR-42: a building's ground is already closed
            continue
        placed = placement_of(state, unit)
        if placed is not None:
            out[unit.name] = check_on_table(placed, battlefield_of(field_of(state).map).table, SPEC, unit.name)
    return out


def check_ground(t: NsrTables, state: NsrState, unit: Unit, placed: UnitPlacement, zone: str | None = None) -> Polygon:
    """The footprint of ``unit`` standing as ``placed``; refused when any of it is off the table,
    outside ``zone``'s deployment zone, on ground no unit enters (water; a building, occupied with
    /nsr occupy instead) or on another unit's ground (touching is allowed)."""
    field = field_of(state)
    ground = battlefield_of(field.map)
    where = f"{unit.name} {standing(placed)}, at {at(placed.centre)}"
    if not on_table(placed, ground.table, SPEC):
        table = ground.table
        raise RuleError(f"{where} would stand off the {table.width:g} by {table.height:g} inch table.")
    shape = footprint(placed, SPEC)
    if zone is not None:
        area = zone_shape(field.map, zone)
        if area is None:
            raise RuleError(f"{zone} has no deployment zone on this map.")
        if not area.buffer(EPSILON).covers(shape):
            raise RuleError(f"{where} would stand partly outside {zone}'s deployment zone.")
    for feature in ground.features:
        kind = t.terrain.get(feature.kind)
        if kind is not None and kind.move_cost is None and overlaps(shape, feature.geometry):
            raise RuleError(f"{where} would stand in {feature.label}.")
    for other, theirs in footprints(state, unit.name).items():
        if overlaps(shape, theirs):
            raise RuleError(f"{where} would stand on {possessive(other)} ground: units may touch, not overlap.")
    return shape


def standing(placed: UnitPlacement) -> str:
    """How a unit stands, for a refusal that turns on its size: ``in line, 10″ wide and 2″ deep,
    facing north (90°)``."""
    width, depth = size(placed, SPEC)
    return (
        f"in {placed.formation.replace('_', ' ')}, {width:g}″ wide and {depth:g}″ deep, facing {heading(placed.facing)}"
    )


def at(point: Point) -> str:
    return f"{round(point.x, 2):g},{round(point.y, 2):g}"
