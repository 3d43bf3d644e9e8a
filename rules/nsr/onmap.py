"""NSR on the bot's map (``state.field``): whole units placed and deployed in their zones, and
``/nsr form`` reshaping a unit where it stands.

A unit stands as :mod:`rules.battlefield.formations` lays it out: its centre is its position in
``field.positions``, its facing ``field.facing``, its formation the unit's own (A-NSR-32). Only the
handlers of a battle on the map call this; table play never does. The readings are in
docs/rules/nsr.md, "On the bot's map".
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry

from rules.battlefield import battlefield_of, bearing, height_at, parse_point, set_point, toward
from rules.battlefield.formations import (
    OVERLAP_AREA,
    UnitPlacement,
    approach,
    behind,
    corners,
    corners_of,
    corners_on_table,
    figure_points,
    figure_xy,
    footprint,
    hull_of,
    last_clear,
    most_inside,
    on_table,
    overlaps,
    reform,
    ring_edges,
    size,
    slide_stops,
    table_limit,
)
from rules.battlefield.formations import (
    gap as edge_gap,
)
from rules.battlefield.maps import zone_shape
from rules.battlefield.requests import MoveRequest, move_request
from rules.battlefield.view import Band, FieldView, Focus, UnitMark
from rules.geometry import Battlefield, Feature, Point, Table, centre_distance
from rules.nsr import onmap_towns
from rules.nsr.charts import NsrTables
from rules.nsr.footing import CLEARANCE as CLEARANCE
from rules.nsr.footing import EPSILON as EPSILON
from rules.nsr.footing import SPEC as SPEC
from rules.nsr.footing import at as at
from rules.nsr.footing import check_ground as check_ground
from rules.nsr.footing import field_of as field_of
from rules.nsr.footing import footprints as footprints
from rules.nsr.footing import placement_of as placement_of
from rules.nsr.footing import standing as standing
from rules.nsr.footing import with_the_unit as with_the_unit
from rules.nsr.forces import formation_name
from rules.nsr.state import Charge, NsrState, Unit, unit_named
from rules.vocabulary import RuleError
from rules.words import blank, joined, match_name, number, possessive, short

#: How finely /map deploy tries centres across a zone, in inches.
DEPLOY_STEP = 0.5
#: The room /map deploy leaves between units when the zone has it.
DEPLOY_GAP = 1.0


def _check_formation(t: NsrTables, unit: Unit, formation: str) -> None:
    rows = t.movement_dice[unit.troop]
    if formation not in rows:
        pretty = ", ".join(r.replace("_", " ") for r in rows)
        raise RuleError(f"{unit.name} ({unit.troop}) may form {pretty}, not {formation.replace('_', ' ')}.")


# --- deployment ------------------------------------------------------------------------------------


def waiting_to_place(state: NsrState) -> list[Unit]:
    """The units not yet on the map (a unit with no figure left has nothing to place)."""
    field = field_of(state)
    return [u for u in state.units if u.name not in field.positions and with_the_unit(u) > 0]


def _require_deployment(state: NsrState) -> None:
    field_of(state)
    if state.phase != "deployment":
        raise RuleError("The units are already on the map: deployment is over.")


def _check_side(owner: str, side: str | None, by_gm: bool, doing: str) -> None:
    if by_gm or (side is not None and side.casefold() == owner.casefold()):
        return
    raise RuleError(f"Only {owner}'s player (or the game master) may {doing}.")


def facing_toward_the_enemy(state: NsrState, side: str) -> float:
    """A-NSR-33: a unit placed without a facing faces the enemy's deployment zone (from its own
    zone's middle; the table's middle when a zone is missing), squared to the nearest table edge."""
    field = field_of(state)
    table = battlefield_of(field.map).table
    middle = Point(table.width / 2, table.height / 2)
    enemy = next(s for s in state.sides if s != side)
    own_zone, enemy_zone = zone_shape(field.map, side), zone_shape(field.map, enemy)
    start = Point(own_zone.centroid.x, own_zone.centroid.y) if own_zone is not None else middle
    goal = Point(enemy_zone.centroid.x, enemy_zone.centroid.y) if enemy_zone is not None else middle
    if start == goal:
        return 90.0
    return float((round(bearing(start, goal) / 90.0) * 90) % 360)


def _facing(state: NsrState, unit: Unit, value: Any, centre: Point) -> float:
    """``facing:`` as degrees (0 east, 90 north) or a point to face ("30,40") from ``centre``;
    else A-NSR-33."""
    if blank(value):
        return facing_toward_the_enemy(state, unit.side)
    text = str(value).strip()
    if "," in text:
        return bearing(centre, parse_point(text, f"where {unit.name} faces"))
    message = f"Give {possessive(unit.name)} facing in degrees (0 east, 90 north) or as a point to face."
    try:
        degrees = float(text) if isinstance(value, str) else value
    except ValueError:
        raise RuleError(message) from None
    return number(degrees, message, lowest=-360, highest=360) % 360.0


def place_text(t: NsrTables, state: NsrState, params: Mapping[str, Any], side: str | None, by_gm: bool) -> str:
    """``/map place unit: at: [facing:] [formation:]``: one unit set down whole in its side's zone."""
    _require_deployment(state)
    wanted = params.get("unit") if not blank(params.get("unit")) else params.get("figure")
    unit = unit_named(state, wanted)
    _check_side(unit.side, side, by_gm, f"place {unit.name}")
    field = field_of(state)
    if unit.name in field.positions:
        raise RuleError(f"{unit.name} is already placed, at {at(Point(*field.positions[unit.name]))}.")
    if with_the_unit(unit) == 0:
        raise RuleError(f"{unit.name} has no figure left to place.")
    centre = parse_point(params.get("at"), f"where {unit.name} stands")
    formation = unit.formation
    if not blank(params.get("formation")):
        formation = formation_name(params.get("formation"))
        _check_formation(t, unit, formation)
    facing = _facing(state, unit, params.get("facing"), centre)
    placed = placement_of(state, unit, centre=centre, facing=facing, formation=formation)
    assert placed is not None
    inside = onmap_towns.place_inside(t, state, unit, placed)  # A-NSR-42
    if inside:
        return inside
    check_ground(t, state, unit, placed, zone=unit.side)
    _set(state, unit, placed)
    return f"{unit.name} ({unit.side}) stands at {at(placed.centre)} in {_pretty(placed)}."


def deploy_text(t: NsrTables, state: NsrState, params: Mapping[str, Any], side: str | None, by_gm: bool) -> str:
    """``/map deploy [side:]``: the side's units still to place set out in its zone, A-NSR-33."""
    _require_deployment(state)
    wanted = params.get("side")
    chosen = match_name(state.sides, wanted) if isinstance(wanted, str) and wanted.strip() else side
    if chosen is None:
        if not blank(wanted):
            raise RuleError(f"There is no side called {short(str(wanted))}: use {joined(state.sides, 'or')}.")
        raise RuleError("Name the side to deploy.")
    _check_side(chosen, side, by_gm, f"deploy {chosen}'s units")
    units = [u for u in waiting_to_place(state) if u.side == chosen]
    if not units:
        raise RuleError(f"All of {chosen}'s units are already placed.")
    zone = zone_shape(field_of(state).map, chosen)
    if zone is None:
        raise RuleError(f"{chosen} has no deployment zone on this map.")
    facing = facing_toward_the_enemy(state, chosen)
    placed = []
    for unit in units:
        spot = _free_spot(t, state, unit, zone, facing)
        if spot is None:
            raise RuleError(f"{chosen}'s deployment zone has no room left for {unit.name}: place it with /map place.")
        _set(state, unit, spot)
        placed.append(f"{unit.name} at {at(spot.centre)}")
    return f"{chosen} deploys: {', '.join(placed)}."


def _free_spot(t: NsrTables, state: NsrState, unit: Unit, zone: Polygon, facing: float) -> UnitPlacement | None:
    """The centre nearest the zone's middle where the unit stands whole in the zone, off water
    and buildings and clear of every other unit (a :data:`DEPLOY_GAP` apart where there is room).
    ``facing`` is a multiple of 90 degrees, so every footprint is a box square to the table."""
    field = field_of(state)
    probe = placement_of(state, unit, centre=Point(0.0, 0.0), facing=facing)
    assert probe is not None
    width, depth = size(probe, SPEC)
    across, deep = (depth, width) if round(facing) % 180 == 0 else (width, depth)
    x0, y0, x1, y1 = zone.bounds
    xs = np.arange(x0 + across / 2, x1 - across / 2 + EPSILON, DEPLOY_STEP)
    ys = np.arange(y0 + deep / 2, y1 - deep / 2 + EPSILON, DEPLOY_STEP)
    if not len(xs) or not len(ys):
        return None
    gx, gy = (a.ravel() for a in np.meshgrid(xs, ys))
    middle = zone.centroid
    order = np.lexsort((gx, gy, np.hypot(gx - middle.x, gy - middle.y)))
    gx, gy = gx[order], gy[order]
    boxes = shapely.box(gx - across / 2, gy - deep / 2, gx + across / 2, gy + deep / 2)
    fits = shapely.covers(zone.buffer(EPSILON), boxes)
    closed: list[BaseGeometry] = [
        f.geometry
        for f in battlefield_of(field.map).features
        if (kind := t.terrain.get(f.kind)) is not None and kind.move_cost is None
    ]
    others = list(footprints(state, unit.name).values())
    for gap in (DEPLOY_GAP, 0.0):
        blocked = shapely.union_all(closed + [o.buffer(gap, join_style="mitre") if gap else o for o in others])
        clear = shapely.area(shapely.intersection(boxes, blocked)) <= OVERLAP_AREA if not blocked.is_empty else True
        for i in np.nonzero(fits & clear)[0]:
            spot = placement_of(state, unit, centre=Point(float(gx[i]), float(gy[i])), facing=facing)
            assert spot is not None
            try:
                check_ground(t, state, unit, spot, zone=unit.side)
            except RuleError:
                continue
            return spot
    return None


def _set(state: NsrState, unit: Unit, placed: UnitPlacement) -> None:
    field = field_of(state)
    unit.formation = placed.formation
    set_point(field, unit.name, placed.centre)
    field.facing[unit.name] = round(placed.facing, 4)


def _pretty(placed: UnitPlacement) -> str:
    return f"{placed.formation.replace('_', ' ')}, facing {math.floor(placed.facing * 10 + 0.5) / 10:g}°"


# --- formation ----------------------------------------------------------------------------------------


def check_reform(t: NsrTables, state: NsrState, unit: Unit, formation: str, facing: float | None = None) -> str:
    """A-NSR-34: ``/nsr form`` on the map reshapes the unit on its centre (and turns it to
    ``facing``, A-NSR-39); refused when the new footprint would leave the table, stand in water or
    a building, or overlap another unit. The sentence saying the ground it now covers ("" when the
    unit is not on the map)."""
    placed = placement_of(state, unit, facing=facing)
    if placed is None:
        return ""
    table = battlefield_of(field_of(state).map).table
    reformed = reform(placed, formation, SPEC, table, unit.name)
    check_ground(t, state, unit, reformed)
    width, depth = size(reformed, SPEC)
    return f"{width:g} by {depth:g} inches at {at(reformed.centre)}"


# --- facing (A-NSR-39) ------------------------------------------------------------------------------


def new_facing(state: NsrState, unit: Unit, value: Any) -> float | None:
    """``facing:`` given to ``/nsr form`` or ``/nsr move``: degrees (0 east, 90 north) or a point
    to face from the unit's centre; None when not given. Refused on a table, where the players
    turn their units themselves."""
    if blank(value):
        return None
    if state.field is None:
        raise RuleError("On a table the players turn their units themselves: leave facing out.")
    placed = placement_of(state, unit)
    if placed is None:
        raise RuleError(f"{unit.name} is not on the map.")
    return round(_facing(state, unit, value, placed.centre), 4)


def turn(t: NsrTables, state: NsrState, unit: Unit, facing: float) -> str:
    """A-NSR-39: the unit turns in place on its centre (seed 4.A.2.B: units "may change their facing
    or formation in place"); refused when the turned footprint would leave the table, stand in water
    or a building, or overlap another unit."""
    placed = placement_of(state, unit, facing=facing)
    if placed is None:
        raise RuleError(f"{unit.name} is not on the map.")
    check_ground(t, state, unit, placed)
    field_of(state).facing[unit.name] = round(placed.facing, 4)
    return f"turns to face {math.floor(placed.facing * 10 + 0.5) / 10:g}°"


# --- moving ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    """A move asked on the map: the centre's path, its length, the chart's column the ground gives,
    the rough ground it crosses (its label; None when clear) and the facing it moves in (A-NSR-39)."""

    path: tuple[Point, ...]
    length: float
    going: str
    rough: str | None
    facing: float


def route(t: NsrTables, state: NsrState, unit: Unit, params: Mapping[str, Any], formation: str) -> Route:
    """A-NSR-35: ``unit``'s move as asked (``to``, ``via``, or ``toward`` a point or a unit with
    ``distance``), in ``formation`` from its start, checked whole before a die is rolled: the
    ground its footprint sweeps along the path must stay on the table, off water and buildings and
    off every other unit, so wherever the dice stop it the unit stands legally. The column is the
    road when every leg of the path runs on a road, else cross-country; rough ground anywhere
    under the swept footprint takes the highest die away."""
    for key in ("going", "rough"):
        if not blank(params.get(key)):
            raise RuleError(f"On the map the ground says the {key}: give only where {unit.name} goes.")
    asked = move_request(params, unit.name)
    facing = new_facing(state, unit, params.get("facing"))
    placed = placement_of(state, unit, formation=formation, facing=facing)
    if placed is None:
        raise RuleError(f"{unit.name} is not on the map.")
    if formation != unit.formation or facing is not None:
        check_ground(t, state, unit, placed)
    if asked.toward is not None:
        named = match_name([u.name for u in state.units], asked.toward)  # "33rd Foot" starts with a digit
        point = None if named is not None else asked.toward_point()
        path = [placed.centre, _toward(state, unit, placed, point, asked)]
    else:
        path = [placed.centre, *asked.path]
    length = sum(centre_distance(a, b) for a, b in itertools.pairwise(path))
    if length <= EPSILON:
        raise RuleError(f"{unit.name} already stands at {at(placed.centre)}.")
    ground = battlefield_of(field_of(state).map)
    wheres = [replace(placed, centre=point) for point in path[1:]]
    blocks = _in_the_way(t, state, unit, ground, wheres[0])
    for where in wheres:
        if not on_table(where, ground.table, SPEC) or _first_overlap(footprint(where, SPEC), *blocks):
            check_ground(t, state, unit, where)  # says what it would stand on
    legs = [hull_of(corners(a, SPEC), corners(b, SPEC)) for a, b in itertools.pairwise([placed, *wheres])]
    for leg in legs:
        crossed = _first_overlap(leg, *blocks)
        if crossed:
            raise RuleError(
                f"{possessive(unit.name)} path runs through {crossed} for a unit {standing(placed)}: go round it."
            )
    road = _road_ground(tuple(f for f in ground.features if f.kind in t.ground.road))
    on_road = road is not None and all(
        road.covers(LineString([(a.x, a.y), (b.x, b.y)])) for a, b in itertools.pairwise(path)
    )
    rough = next(
        (
            f.label
            for f in ground.features
            if f.kind in t.ground.rough and any(overlaps(leg, f.geometry) for leg in legs)
        ),
        None,
    )
    return Route(tuple(path), length, "road" if on_road else "cross_country", rough, round(placed.facing, 4))


def _toward(state: NsrState, unit: Unit, placed: UnitPlacement, point: Point | None, asked: MoveRequest) -> Point:
    """Where a move ``toward`` ends: ``distance`` along the straight line (never past a point); at
    a unit, no further than where the footprints would touch."""
    start = placed.centre
    if point is None:
        target = unit_named(state, asked.toward)
        if target is unit:
            raise RuleError(f"{unit.name} cannot move toward itself.")
        theirs = placement_of(state, target)
        if theirs is None:
            raise RuleError(f"{target.name} is not on the map.")
        point, gap = theirs.centre, _room_toward(unit, target, placed, theirs)
    else:
        gap = centre_distance(start, point)
    if not blank(asked.distance):
        wanted = number(
            asked.distance, f"Give {possessive(unit.name)} move as a number of inches.", lowest=0, highest=1000
        )
        gap = min(gap, wanted)
    return toward(field_of(state), start, point, gap)


def _room_toward(unit: Unit, target: Unit, placed: UnitPlacement, theirs: UnitPlacement) -> float:
    """How far ``unit``'s centre may go straight toward ``target``'s before their footprints would
    overlap, stopping :data:`CLEARANCE` short (refused when they touch already): measured exactly
    (:func:`rules.battlefield.formations.last_clear`), as the halving this replaced found it."""
    mine, theirs_corners = corners(placed, SPEC), corners(theirs, SPEC)
    if overlaps(Polygon(mine), Polygon(theirs_corners)):
        raise RuleError(f"{unit.name} already touches {target.name}.")
    direction = _direction(placed.centre, theirs.centre)
    gap = centre_distance(placed.centre, theirs.centre)
    return max(0.0, last_clear(mine, (direction.x, direction.y), gap, theirs_corners) - CLEARANCE)


def _in_the_way(
    t: NsrTables, state: NsrState, unit: Unit, ground: Battlefield, first: UnitPlacement
) -> tuple[tuple[str, ...], npt.NDArray[np.object_]]:
    """What a move may neither end on nor cross, in the order :func:`check_ground` names them:
    ground no unit enters (the map's order), then every other unit's footprint (the state's order,
    none in a building: A-NSR-42, as :func:`footprints` gives them, all built at once); their names
    and shapes. When another unit stands off the table, refused as :func:`check_ground` refuses the
    move's ``first`` stop."""
    closed = [f for f in ground.features if (kind := t.terrain.get(f.kind)) is not None and kind.move_cost is None]
    others = [
        (u.name, p)
        for u in state.units
        if u.name != unit.name and not u.building and (p := placement_of(state, u)) is not None
    ]
    shapes = np.empty(len(closed) + len(others), dtype=object)
    shapes[: len(closed)] = [f.geometry for f in closed]
    boxes = corners_of([p for _, p in others], SPEC)
    if not corners_on_table(boxes, ground.table).all():
        check_ground(t, state, unit, first)  # refuses: what the stop stands on, else the unit off the table
        shapes[len(closed) :] = list(footprints(state, unit.name).values())
    elif others:
        shapes[len(closed) :] = shapely.polygons(boxes)
    return tuple([f.label for f in closed] + [name for name, _ in others]), shapes


def _first_overlap(shape: BaseGeometry, labels: tuple[str, ...], shapes: npt.NDArray[np.object_]) -> str:
    """The first of ``shapes`` that ``shape`` overlaps (more than touching it), named; "" for none."""
    touching = np.nonzero(shapely.intersects(shape, shapes))[0]
    if len(touching):
        areas = shapely.area(shapely.intersection(shape, shapes[touching]))
        for i, area in zip(touching, areas, strict=True):
            if area > OVERLAP_AREA:
                return labels[i]
    return ""


def advance(state: NsrState, unit: Unit, way: Route, inches: float) -> str:
    """Move ``unit``'s centre ``inches`` along ``way`` (to its end at most); where it stops, said."""
    left = min(float(inches), way.length)
    end = way.path[0]
    for a, b in itertools.pairwise(way.path):
        step = centre_distance(a, b)
        if step >= left - EPSILON:
            end = toward(field_of(state), a, b, left)
            break
        left -= step
        end = b
    set_point(field_of(state), unit.name, end)
    field_of(state).facing[unit.name] = way.facing
    moved = min(float(inches), way.length)
    short_of = "" if moved >= way.length - EPSILON else f", short of {at(way.path[-1])}"
    return f"moves {math.floor(moved * 10 + 0.5) / 10:g}″ to {at(end)}{short_of}"


# --- fire ----------------------------------------------------------------------------------------------

#: A figure this near a solid wall (edge to edge; one base depth: the rank behind the one at the
#: wall) stands "directly behind (touching)" it, A-NSR-36.
BEHIND_THE_WALL = 1.0


def fire_range(state: NsrState, unit: Unit, target: Unit) -> float:
    """A-NSR-36: from the nearest firing figure's head (its base's centre) to the target unit's
    ground, in inches."""
    mine, theirs = placement_of(state, unit), placement_of(state, target)
    if mine is None or theirs is None:
        missing = unit if mine is None else target
        raise RuleError(f"{missing.name} is not on the map.")
    heads = shapely.points([(p.x, p.y) for p in figure_points(mine, SPEC)])
    return float(np.min(shapely.distance(heads, footprint(theirs, SPEC))))


def target_class(t: NsrTables, state: NsrState, unit: Unit, target: Unit) -> tuple[str, str]:
    """A-NSR-36: the class of ``target`` from where most of its figures stand, and why: IV inside a
    building, or directly behind a solid wall between it and ``unit``; III prone or in rough
    ground; else I in close order, II in open order."""
    theirs, mine = placement_of(state, target), placement_of(state, unit)
    if theirs is None or mine is None:
        raise RuleError(f"{(unit if mine is None else target).name} is not on the map.")
    rule = t.target_class
    if target.building:
        return rule.building, f"inside {target.building}"
    ground = battlefield_of(field_of(state).map)
    kinds = t.ground
    buildings = [f for f in ground.features if f.kind in kinds.buildings]
    if buildings and most_inside(theirs, shapely.union_all([f.geometry for f in buildings]), SPEC):
        return rule.building, "inside a building"
    line = LineString([(mine.centre.x, mine.centre.y), (theirs.centre.x, theirs.centre.y)])
    walls = [f for f in ground.features if f.kind in kinds.solid_walls and f.geometry.intersects(line)]
    if walls:
        near = shapely.union_all([f.geometry.buffer(BEHIND_THE_WALL + SPEC.foot_depth / 2 + EPSILON) for f in walls])
        if most_inside(theirs, near, SPEC):
            return rule.behind_wall, f"behind {walls[0].label}"
    if target.prone:
        return rule.prone, "prone"
    rough = [f for f in ground.features if f.kind in kinds.rough]
    for feature in rough:
        if most_inside(theirs, feature.geometry, SPEC):
            return rule.rough_ground, f"in {feature.label}"
    if rough and most_inside(theirs, shapely.union_all([f.geometry for f in rough]), SPEC):
        return rule.rough_ground, "in rough ground"
    if theirs.formation in t.open_order_formations:
        return rule.open_order, "open order in the open"
    return rule.close_order, "close order in the open"


def measured(t: NsrTables, state: NsrState, unit: Unit, params: Mapping[str, Any]) -> dict[str, Any]:
    """The options of a fire, volley or pistol shot with the range (and the class) of each target
    measured on the map, for the table's code to read; refused when the player gives them."""
    out = dict(params)
    for sfx in ("", "2"):
        for key in ("range", "class"):
            if not blank(params.get(f"{key}{sfx}")):
                raise RuleError(f"On the map the bot measures the {key}: name the target only.")
        if blank(params.get(f"target{sfx}")):
            continue
        target = unit_named(state, params.get(f"target{sfx}"))
        if target.side == unit.side:
            continue  # the table's code says why
        if unit.building or target.building:  # A-NSR-44: from its doors and windows, to its walls
            out[f"range{sfx}"] = round(onmap_towns.fire_range(t, state, unit, target), 2)
        else:
            out[f"range{sfx}"] = round(fire_range(state, unit, target), 2)
        out[f"class{sfx}"] = target_class(t, state, unit, target)[0]
        if target.building:  # A-NSR-46: whether it looks out toward the firer is measured
            if not blank(params.get(f"exposed{sfx}")):
                raise RuleError(
                    f"On the map the bot sees whether {target.name} looks out of its doors and windows: "
                    "leave exposed out."
                )
            out[f"exposed{sfx}"] = "yes" if onmap_towns.looks_out(t, state, target, unit) else "no"
    return out


# --- charges, fall-backs and routs (A-NSR-37, A-NSR-38) -------------------------------------------

#: Things that stop a sliding unit within this many inches of each other stop it together.
SAME_STOP = 1e-9


@dataclass(frozen=True)
class _Obstacles:
    """What a unit moving on the map may run into: ground no unit enters (in the map's order), then
    every other unit on it (in the state's order); their names, shapes and outlines (for
    :func:`rules.battlefield.formations.approach`), found once for a whole move."""

    labels: tuple[str, ...]
    shapes: npt.NDArray[np.object_]
    edges: npt.NDArray[np.float64]
    starts: npt.NDArray[np.intp]


def _obstacles(t: NsrTables, state: NsrState, unit: Unit) -> _Obstacles:
    ground = battlefield_of(field_of(state).map)
    closed = [f for f in ground.features if (kind := t.terrain.get(f.kind)) is not None and kind.move_cost is None]
    others = [(u.name, p) for u in state.units if u.name != unit.name and (p := placement_of(state, u)) is not None]
    boxes = corners_of([p for _, p in others], SPEC)
    unit_edges = np.concatenate([boxes, np.roll(boxes, -1, axis=1)], axis=2).reshape(-1, 4)
    sizes = [len(f.edges) for f in closed] + [4] * len(others)
    shapes = np.empty(len(sizes), dtype=object)
    shapes[: len(closed)] = [f.geometry for f in closed]
    shapes[len(closed) :] = shapely.polygons(boxes) if others else []
    return _Obstacles(
        tuple([f.label for f in closed] + [name for name, _ in others]),
        shapes,
        np.vstack([f.edges for f in closed] + [unit_edges]),
        np.cumsum([0, *sizes[:-1]])[: len(sizes)].astype(np.intp),
    )


def _runs_into(table: Table, obstacles: _Obstacles, start: UnitPlacement, end: UnitPlacement, edge: bool) -> str:
    """What the ground swept from ``start`` to ``end`` (same facing and formation) runs into:
    "the table edge" (when ``edge``), ground no unit enters, another unit; "" when clear."""
    if edge and not on_table(end, table, SPEC):
        return "the table edge"
    hull = hull_of(corners(start, SPEC), corners(end, SPEC))
    touching = np.nonzero(shapely.intersects(hull, obstacles.shapes))[0]
    if len(touching):
        areas = shapely.area(shapely.intersection(hull, obstacles.shapes[touching]))
        for i, area in zip(touching, areas, strict=True):
            if area > OVERLAP_AREA:
                return obstacles.labels[i]
    return ""


def _blocker(t: NsrTables, state: NsrState, unit: Unit, start: UnitPlacement, end: UnitPlacement, edge: bool) -> str:
    """What the ground ``unit`` sweeps from ``start`` to ``end`` (same facing and formation) runs
    into: "the table edge" (when ``edge``), ground no unit enters, another unit; "" when clear."""
    table = battlefield_of(field_of(state).map).table
    return _runs_into(table, _obstacles(t, state, unit), start, end, edge)


def _shifted(placed: UnitPlacement, dx: float, dy: float, inches: float) -> UnitPlacement:
    return replace(placed, centre=Point(placed.centre.x + dx * inches, placed.centre.y + dy * inches))


def _slide(
    t: NsrTables, state: NsrState, unit: Unit, placed: UnitPlacement, direction: Point, inches: float, edge: bool = True
) -> tuple[UnitPlacement, float, str]:
    """``placed`` moved straight along ``direction`` (a unit vector) as far as it may go up to
    ``inches``: where it ends, how far it went and what stopped it ("" when nothing did), stopping
    :data:`CLEARANCE` short of it. The swept ground only grows with the distance, so each thing in
    the way stops it at one distance: the nearest of them is measured
    (:func:`rules.battlefield.formations.slide_stops`) and the first named, the table edge first."""
    dx, dy = direction.x, direction.y
    if inches <= EPSILON:
        return placed, 0.0, ""
    table = battlefield_of(field_of(state).map).table
    obstacles = _obstacles(t, state, unit)
    start = corners(placed, SPEC)
    stops = slide_stops(start, (dx, dy), inches, obstacles.shapes, obstacles.edges, obstacles.starts)
    end = _shifted(placed, dx, dy, inches)
    if not np.isfinite(stops).any() and (not edge or on_table(end, table, SPEC)):
        return end, inches, ""
    at_edge = table_limit(start, (dx, dy), table) if edge else math.inf
    low = min(at_edge, float(stops.min()))
    named = [label for label, stop in zip(obstacles.labels, stops, strict=True) if stop <= low + SAME_STOP]
    stopped = "the table edge" if at_edge <= low + SAME_STOP else named[0]
    went = max(0.0, low - CLEARANCE)
    return _shifted(placed, dx, dy, went), went, stopped


def _direction(a: Point, b: Point) -> Point:
    """The unit vector from ``a`` to ``b`` (north when they coincide)."""
    length = centre_distance(a, b)
    if length <= EPSILON:
        return Point(0.0, 1.0)
    return Point((b.x - a.x) / length, (b.y - a.y) / length)


def _inches(value: float) -> str:
    return f"{math.floor(value * 10 + 0.5) / 10:g}″"


def _placed(state: NsrState, unit: Unit) -> UnitPlacement:
    placed = placement_of(state, unit)
    if placed is None:
        raise RuleError(f"{unit.name} is not on the map.")
    return placed


@dataclass(frozen=True)
class ChargeWay:
    """A charge measured on the map: the charger turned to face its target, the way it goes (a unit
    vector), how far its centre goes to stop the charge distance short of the target (``needed``),
    the chart's column, the rough ground under the way (its label, None when clear) and whether
    every charging figure set off behind the target's rear edge, where it could not be seen."""

    start: UnitPlacement
    direction: Point
    needed: float
    column: str
    rough: str | None
    rear: bool


def charge_way(t: NsrTables, state: NsrState, unit: Unit, target: Unit, params: Mapping[str, Any]) -> ChargeWay:
    """A-NSR-37: the charge on the map, checked before a die is rolled. The charger turns in place to
    face the target's centre (refused when turning would put it on other ground) and goes straight
    at it until its footprint is ``charge_stop`` inches from the target's, edge to edge (seed 1.K);
    the ground it sweeps must be clear (the table, water and buildings, other units)."""
    for key in ("distance", "going", "rough"):
        if not blank(params.get(key)):
            raise RuleError(f"On the map the bot measures the {key}: name the target only.")
    mine, theirs = _placed(state, unit), _placed(state, target)
    unseen = bool(behind(theirs, figure_xy(mine, SPEC), SPEC).all())  # seed 3.C.1
    ground = battlefield_of(field_of(state).map)
    obstacles = _obstacles(t, state, unit)
    turned = replace(mine, facing=bearing(mine.centre, theirs.centre))
    if _runs_into(ground.table, obstacles, turned, turned, True):
        try:
            check_ground(t, state, unit, turned)  # says what it would stand on
        except RuleError as exc:
            raise RuleError(f"{unit.name} cannot turn to face {target.name} for the charge: {exc.message}") from None
    direction = _direction(mine.centre, theirs.centre)
    needed = _charge_distance(t, turned, theirs, direction)
    end = _shifted(turned, direction.x, direction.y, needed)
    blocked = _runs_into(ground.table, obstacles, turned, end, True)
    if blocked:
        raise RuleError(
            f"{possessive(unit.name)} charge at {target.name} runs into {blocked}: it cannot charge straight at it."
        )
    hull = hull_of(corners(turned, SPEC), corners(end, SPEC))
    line = LineString([(mine.centre.x, mine.centre.y), (end.centre.x, end.centre.y)])
    road = _road_ground(tuple(f for f in ground.features if f.kind in t.ground.road))
    on_road = needed > EPSILON and road is not None and road.covers(line)
    rough = next((f.label for f in ground.features if f.kind in t.ground.rough and overlaps(hull, f.geometry)), None)
    return ChargeWay(turned, direction, needed, "road_charge" if on_road else "charge", rough, unseen)


def _charge_distance(t: NsrTables, turned: UnitPlacement, theirs: UnitPlacement, direction: Point) -> float:
    """How far the charger's centre goes straight along ``direction`` until its footprint is
    ``charge_stop`` inches from the target's, edge to edge (0 when it is that near already):
    measured exactly, the first time a corner of one comes that near a side of the other."""
    stop = t.distances.charge_stop
    mine, goal = corners(turned, SPEC), corners(theirs, SPEC)
    if edge_gap(Polygon(mine), Polygon(goal)) <= stop + EPSILON:
        return 0.0
    meets = approach(mine, (direction.x, direction.y), ring_edges(goal), np.zeros(1, dtype=np.intp), stop)
    return min(float(meets[0]), centre_distance(turned.centre, theirs.centre))


#: The ground every road of a map covers, kept for as long as its features are: the features, the ground.
_ROADS: dict[tuple[int, ...], tuple[tuple[Feature, ...], BaseGeometry]] = {}


def _road_ground(roads: tuple[Feature, ...]) -> BaseGeometry | None:
    """The ground ``roads`` cover together (a hair wider), None when there is none; built once a map."""
    if not roads:
        return None
    key = tuple(id(f) for f in roads)
    kept = _ROADS.get(key)
    if kept is None or any(a is not b for a, b in zip(kept[0], roads, strict=True)):
        if len(_ROADS) >= 64:
            _ROADS.clear()
        shape = shapely.union_all([f.geometry for f in roads]).buffer(EPSILON)
        shapely.prepare(shape)
        kept = _ROADS[key] = (roads, shape)
    return kept[1]


def charge_reach(way: ChargeWay, dice: int, joker: int) -> float:
    """The furthest the chart's dice can carry the charger (six on every die, a Joker Movement 1's
    extra die too): a target further than this is out of charge reach."""
    return 6.0 * (dice + (1 if joker == 1 else 0))


def charge_move(state: NsrState, unit: Unit, way: ChargeWay, inches: float) -> str:
    """Move the charger ``inches`` along ``way`` (``way.needed`` at most), facing its target."""
    went = min(float(inches), way.needed)
    end = _shifted(way.start, way.direction.x, way.direction.y, went)
    _set(state, unit, end)
    return f"it faces {math.floor(end.facing * 10 + 0.5) / 10:g}° and moves {_inches(went)} to {at(end.centre)}"


def reached(t: NsrTables, state: NsrState, charge: Charge) -> bool:
    """A-NSR-37: the charge reaches when some of the target still stands where it was charged (its
    losses may have narrowed its footprint, not moved its figures) or within the charge distance of
    the charger, edge to edge (seed 3.A.1: else it has moved away or fallen)."""
    charger, target = unit_named(state, charge.charger), unit_named(state, charge.target)
    mine, theirs = placement_of(state, charger), placement_of(state, target)
    if mine is None or theirs is None or not target.standing():
        return False
    if charge.target_at is not None and centre_distance(theirs.centre, Point(*charge.target_at)) <= EPSILON:
        return True
    return edge_gap(footprint(mine, SPEC), footprint(theirs, SPEC)) <= t.distances.charge_stop + 10 * CLEARANCE


def close_up(t: NsrTables, state: NsrState, charger: Unit, target: Unit) -> str:
    """Seed 3.A.4: the charger moves straight at the target until their bases touch; then the
    target's side's units within ``defender_support_radius`` of the combat (not shaken, routed or
    already fighting) move up straight toward the target until they touch it or something else."""
    mine, theirs = placement_of(state, charger), placement_of(state, target)
    if mine is None or theirs is None:
        return ""
    goal = footprint(theirs, SPEC)
    parts = [_touch(t, state, charger, mine, theirs.centre, goal)]
    combat = shapely.union(footprint(_placed(state, charger), SPEC), goal)
    fighting = {charger.name, target.name} | {
        n for ch in state.charges if not ch.resolved for n in (ch.charger, ch.target)
    }
    for other in state.units:
        placed = placement_of(state, other)
        if other.side != target.side or other.name in fighting or other.out or other.shaken or placed is None:
            continue
        if edge_gap(footprint(placed, SPEC), combat) <= t.distances.defender_support_radius + EPSILON:
            parts.append(f"{other.name} moves up: " + _touch(t, state, other, placed, theirs.centre, goal))
    return "; ".join(p for p in parts if p)


def _touch(t: NsrTables, state: NsrState, unit: Unit, placed: UnitPlacement, aim: Point, goal: Polygon) -> str:
    if edge_gap(footprint(placed, SPEC), goal) <= 10 * CLEARANCE:
        return f"{unit.name} already touches"
    direction = _direction(placed.centre, aim)
    end, went, _ = _slide(t, state, unit, placed, direction, centre_distance(placed.centre, aim))
    _set(state, unit, end)
    return f"{unit.name} closes {_inches(went)} to {at(end.centre)}"


def fall_back(t: NsrTables, state: NsrState, unit: Unit, enemy: Unit | None, inches: float) -> tuple[str, Point | None]:
    """A-NSR-38: ``unit`` moves ``inches`` straight away from ``enemy``'s centre (the nearest enemy
    unit when None), keeping its facing, stopped short by the table edge, water, a building or
    another unit. The sentence, and the centre it left (None when it is not on the map)."""
    placed = placement_of(state, unit)
    if placed is None:
        return "", None
    if enemy is None:
        enemy = nearest_enemy(state, unit)
    theirs = placement_of(state, enemy) if enemy is not None else None
    away = _direction(theirs.centre, placed.centre) if theirs is not None else _rear(placed)
    end, went, stopped = _slide(t, state, unit, placed, away, float(inches))
    _set(state, unit, end)
    short_of = f", stopped by {stopped}" if stopped else ""
    return f"moves {_inches(went)} back to {at(end.centre)}{short_of}", placed.centre


def _rear(placed: UnitPlacement) -> Point:
    angle = math.radians(placed.facing + 180.0)
    return Point(math.cos(angle), math.sin(angle))


def nearest_enemy(state: NsrState, unit: Unit) -> Unit | None:
    """The enemy unit on the map nearest ``unit``, edge to edge (None when none stands there)."""
    mine = placement_of(state, unit)
    if mine is None:
        return None
    shape = footprint(mine, SPEC)
    best: tuple[float, str, Unit] | None = None
    for other in state.units:
        placed = placement_of(state, other) if other.side != unit.side and not other.out else None
        if placed is not None:
            d = edge_gap(shape, footprint(placed, SPEC))
            if best is None or (d, other.name) < best[:2]:
                best = (d, other.name, other)
    return best[2] if best is not None else None


def take_place(t: NsrTables, state: NsrState, winner: Unit, spot: Point | None) -> tuple[str, bool]:
    """Seed 3.A.1, 3.A.3, 3.B.4: the winner occupies the position the loser left: its centre moves
    straight to ``spot``, keeping its facing, as far as the ground lets it. The sentence, and
    whether it could move up at all ("", True when there was nowhere to go)."""
    placed = placement_of(state, winner)
    if placed is None or spot is None or centre_distance(placed.centre, spot) <= EPSILON:
        return "", True
    end, went, stopped = _slide(
        t, state, winner, placed, _direction(placed.centre, spot), centre_distance(placed.centre, spot)
    )
    if stopped and _inches(went) == _inches(0.0):  # what a card would call a move of 0″ is no move
        return f"{stopped} is in the way", False
    _set(state, winner, end)
    short_of = f", stopped by {stopped}" if stopped else ""
    return f"{winner.name} moves {_inches(went)} to {at(end.centre)}{short_of}", True


def rout(t: NsrTables, state: NsrState, unit: Unit, inches: float) -> str:
    """A-NSR-38: a routed unit runs ``inches`` straight for the nearest table edge (from its
    centre), stopped short by water, a building or another unit; once its footprint would cross the
    edge it leaves the table, gone for good (seed 4.B), and its place on the map is cleared."""
    placed = placement_of(state, unit)
    field = field_of(state)
    if placed is None:
        return ""
    table = battlefield_of(field.map).table
    c = placed.centre
    edges = [(c.x, Point(-1.0, 0.0)), (table.width - c.x, Point(1.0, 0.0)), (c.y, Point(0.0, -1.0))]
    edges.append((table.height - c.y, Point(0.0, 1.0)))
    _, direction = min(edges, key=lambda e: e[0])
    x0, y0, x1, y1 = footprint(placed, SPEC).bounds
    to_edge = min(x0, table.width - x1, y0, table.height - y1)
    end, went, stopped = _slide(t, state, unit, placed, direction, float(inches), edge=False)
    if (went if stopped else float(inches)) >= to_edge - EPSILON:
        field.positions.pop(unit.name, None)
        field.facing.pop(unit.name, None)
        return "it runs off the table, gone for good"
    _set(state, unit, end)
    short_of = f", stopped by {stopped}" if stopped else ""
    return f"it runs {_inches(went)} to {at(end.centre)}{short_of}"


# --- the picture (A-NSR-40) --------------------------------------------------------------------------


def marks(unit: Unit) -> tuple[str, ...]:
    """The short words the picture draws on a unit: out (nothing left standing, or routed off),
    routing, shaken, pinned, down (prone), charging (a charge waits to be completed)."""
    if unit.out and not unit.routed:
        return ("out",)
    words = [w for w, on in (("routing", unit.routed), ("shaken", unit.shaken), ("pinned", unit.pinned)) if on]
    if unit.prone:
        words.append("down")
    return tuple(words)


def unit_mark(state: NsrState, unit: Unit, t: NsrTables | None = None) -> UnitMark | None:
    """``unit`` as the picture draws it (None when it is not on the map); with the tables, a unit
    inside a building as the building's outline (A-NSR-42)."""
    placed = placement_of(state, unit)
    if placed is None:
        return None
    corners = tuple((round(x, 3), round(y, 3)) for x, y in list(footprint(placed, SPEC).exterior.coords)[:-1])
    figures = tuple((round(p.x, 3), round(p.y, 3)) for p in figure_points(placed, SPEC))
    drawn = onmap_towns.occupant_outline(t, state, unit) if t is not None else None
    formation, facing = placed.formation.replace("_", " "), None if placed.formation == "square" else placed.facing
    if drawn is not None:
        corners, figures = drawn
        formation, facing = f"in {unit.building}", None
    words = marks(unit)
    if any(ch.charger == unit.name and not ch.resolved for ch in state.charges):
        words += ("charging",)
    return UnitMark(
        unit.name,
        unit.side,
        corners,
        figures,
        unit.strength(),
        formation,
        facing,
        words,
        mounted=unit.troop == "mounted",
    )


def reach(t: NsrTables, unit: Unit) -> Focus:
    """A-NSR-40: a unit's reach for ``/map show focus:``: the most its cross-country dice can move
    it (six on each) and its weapon's half and full range."""
    dice = t.movement_dice.get(unit.troop, {}).get(unit.formation, [None])[0] or 0
    bands: tuple[Band, ...] = ()
    row = t.firing_chart.get(unit.weapon)
    if row is not None and row.max_range > 0:
        bands = (Band(f"{unit.weapon} half range", row.max_range / 2), Band(f"{unit.weapon} range", row.max_range))
    return Focus(unit.name, 6.0 * dice, bands)


def field_view(t: NsrTables, state: NsrState, focus: str | None) -> FieldView:
    """A-NSR-40: every unit on the map as its block of figures, with its strength, formation,
    facing (none for a square: it faces every way) and marks; the waiting charges as notes."""
    field = field_of(state)
    units = tuple(m for u in state.units if (m := unit_mark(state, u, t)) is not None)
    seen = reach(t, unit_named(state, focus)) if not blank(focus) else None
    if state.phase == "deployment":
        title = f"{field.map.name} · deployment"
    else:
        title = f"{field.map.name} · turn {state.turn} · {state.phase.replace('_', ' ')}"
    notes = tuple(f"{ch.charger} charging {ch.target}" for ch in state.charges if not ch.resolved)
    return FieldView(
        field,
        tuple(state.sides),
        (),
        seen,
        title,
        notes,
        zones=state.phase == "deployment",
        units=units,
        distances="edge",
        acting=_acting(state),
    )


def _acting(state: NsrState) -> str:
    """Who acts now: the unit a card activated, else the side choosing a unit for its card."""
    if state.over or state.phase == "deployment":
        return ""
    if state.active:
        return state.active
    return state.pending.decider if state.pending is not None else ""


def melee_ground(t: NsrTables, state: NsrState, charger: Unit, target: Unit) -> tuple[str, str]:
    """A-NSR-41: the close combat chart's cover and uphill lines read from the map. Cover:
    "building" when the target occupies a building; "linear" when an obstacle on the map (a wall,
    hedge, fence or barricade) runs between the two units' footprints within one base depth of
    the target's; else "open". Uphill: the unit whose centre stands on higher ground (a hill),
    "none" when level."""
    mine, theirs = _placed(state, charger), _placed(state, target)
    field = field_of(state)
    cover = "building" if target.building else "open"
    if cover == "open":
        ours, their_ground = footprint(mine, SPEC), footprint(theirs, SPEC)
        between = shapely.convex_hull(shapely.union(ours, their_ground)).difference(ours)
        near = their_ground.buffer(SPEC.foot_depth + EPSILON)
        for feature in battlefield_of(field.map).features:
            kind = t.terrain.get(feature.kind)
            if kind is not None and kind.obstacle and overlaps_line(feature.geometry, between, near):
                cover = "linear"
                break
    high, low = (height_at(field, t.terrain, p.centre) for p in (mine, theirs))
    uphill = "charger" if high > low + EPSILON else "defender" if low > high + EPSILON else "none"
    return cover, uphill


def overlaps_line(line: BaseGeometry, between: BaseGeometry, near: BaseGeometry) -> bool:
    """Some of ``line`` lies both between two units and near the defender."""
    return bool(shapely.intersects(line, shapely.intersection(between, near)))
