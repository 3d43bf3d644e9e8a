"""NSR's towns and fire measured on the bot's map (A-NSR-42 to A-NSR-46).

The map's buildings carry what the seed's MOUT section asks (``storeys``, ``roof``, ``walls``,
``barn`` and their doors and windows, :mod:`rules.battlefield.maps`): a unit occupies one by
going in at a door, its :class:`~rules.nsr.state.Building` made from the map's figures; its
figures fire only from the doors and windows facing the target, one each (a barn's doors take
more); a volley's or a fire's target area is what the firers can see of the target. Only the
handlers of a battle on the map call this; the readings are in docs/rules/nsr.md, "On the bot's
map".
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from rules.battlefield import battlefield_of, bearing
from rules.battlefield.formations import UnitPlacement, figure_points, footprint, front_area, size
from rules.battlefield.maps import zone_shape
from rules.battlefield.requests import move_request
from rules.geometry import Feature, Point
from rules.nsr import footing
from rules.nsr.charts import NsrTables
from rules.nsr.state import Building, Figure, NsrState, Unit
from rules.vocabulary import RuleError
from rules.words import joined, match_name, measured_against, name_key, plural, possessive, short

#: A-NSR-42: a unit goes in at a door within one base depth (an inch) of its footprint.
ENTRY_REACH = 1.0
#: How far outside its wall a figure at a door or a window looks and is seen from, in inches.
NUDGE = 0.05
EPSILON = 1e-6

_Array = npt.NDArray[np.float64]
_Mask = npt.NDArray[np.bool_]


# --- the map's buildings --------------------------------------------------------------------------


@dataclass(frozen=True)
class Way:
    """A door or a window of a building on the map: where it is on the wall, and the way it faces
    (a unit vector out of the wall it is on, A-NSR-44)."""

    kind: str
    at: Point
    out: Point
    #: Where a figure at it looks out from: just outside the wall.
    outside: Point

    def faces(self, point: Point) -> bool:
        """``point`` lies out in front of the wall this opening is on."""
        return (point.x - self.at.x) * self.out.x + (point.y - self.at.y) * self.out.y > EPSILON


@dataclass(frozen=True)
class MapBuilding:
    """A building on the map as NSR reads it (A-NSR-42): its name, ground, how many figures fit on
    its roof (as the map says, else as many foot bases as its ground holds), storeys, walls (wood,
    masonry or rock) and whether its doors are a barn's, and its doors and windows."""

    name: str
    shape: Polygon
    roof: int
    storeys: int
    walls: str
    barn: bool
    ways: tuple[Way, ...]
    #: The corners of its walls, just outside: what can be seen of it from afar.
    corners: tuple[Point, ...] = ()

    @property
    def capacity(self) -> int:
        return self.roof * self.storeys

    @property
    def doors(self) -> list[Way]:
        return [w for w in self.ways if w.kind == "door"]

    @property
    def windows(self) -> list[Way]:
        return [w for w in self.ways if w.kind == "window"]


def map_buildings(t: NsrTables, state: NsrState) -> tuple[MapBuilding, ...]:
    """Every building on the battle's map, in the map's order (built once per distinct map; the
    last map asked is remembered by identity, as an action asks it many times)."""
    data = footing.field_of(state).map
    kinds = tuple(t.ground.buildings)
    last = _LAST.get("map")
    if last is not None and last[0] is data and last[1] == (len(data.features), kinds):
        return last[2]
    found = _buildings(_key_of(data, kinds), footing.SPEC.foot_frontage * footing.SPEC.foot_depth)
    _LAST["map"] = (data, (len(data.features), kinds), found)
    return found


#: The last map :func:`map_buildings` read, its size and the building kinds, and its buildings.
_LAST: dict[str, tuple[Any, tuple[int, tuple[str, ...]], tuple[MapBuilding, ...]]] = {}


def _key_of(data: Any, kinds: tuple[str, ...]) -> tuple[tuple[Any, ...], ...]:
    return tuple(
        (
            f.name,
            tuple(tuple(p) for p in f.points),
            tuple((o.kind, tuple(o.at)) for o in f.openings),
            f.roof,
            f.storeys,
            f.walls,
            f.barn,
        )
        for f in data.features
        if f.kind in kinds and f.shape == "area"
    )


@functools.lru_cache(maxsize=64)
def _buildings(key: tuple[tuple[Any, ...], ...], base_area: float) -> tuple[MapBuilding, ...]:
    out = []
    for name, points, openings, roof, storeys, walls, barn in key:
        shape = Polygon(points)
        shapely.prepare(shape)
        middle = shape.centroid
        label = str(name) or f"the building at {round(middle.x, 1):g},{round(middle.y, 1):g}"
        ways = tuple(_way(shape, str(kind), Point(*at)) for kind, at in openings)
        out.append(
            MapBuilding(
                label,
                shape,
                int(roof) if roof else max(1, math.floor(shape.area / base_area + EPSILON)),
                int(storeys) if storeys else 1,
                str(walls or "masonry"),
                bool(barn),
                ways,
                _corners_outside(shape),
            )
        )
    return tuple(out)


def _corners_outside(shape: Polygon) -> tuple[Point, ...]:
    middle = shape.centroid
    out = []
    for x, y in list(shape.exterior.coords)[:-1]:
        dx, dy = x - middle.x, y - middle.y
        length = math.hypot(dx, dy) or 1.0
        out.append(Point(x + dx / length * NUDGE, y + dy / length * NUDGE))
    return tuple(out)


def _way(shape: Polygon, kind: str, at: Point) -> Way:
    """The opening faces out of the wall nearest it (A-NSR-44)."""
    ring = np.asarray(shape.exterior.coords)
    starts, ends = ring[:-1], ring[1:]
    along = ends - starts
    lengths = np.hypot(along[:, 0], along[:, 1])
    spot = np.array([at.x, at.y])
    share = np.clip(((spot - starts) * along).sum(axis=1) / np.maximum(lengths**2, EPSILON), 0.0, 1.0)
    nearest = starts + share[:, None] * along
    wall = int(np.argmin(np.hypot(*(nearest - spot).T)))
    dx, dy = along[wall] / lengths[wall]
    middle = (starts[wall] + ends[wall]) / 2
    out = Point(float(dy), float(-dx))
    if shape.contains(ShapelyPoint(middle[0] + out.x * NUDGE, middle[1] + out.y * NUDGE)):
        out = Point(-out.x, -out.y)
    return Way(kind, at, out, Point(at.x + out.x * NUDGE, at.y + out.y * NUDGE))


def _key(name: str) -> str:
    words = str(name).split()
    return name_key(" ".join(words[1:] if words and words[0].casefold() == "the" else words))


def map_building(t: NsrTables, state: NsrState, wanted: object) -> MapBuilding:
    """The map's building ``wanted`` names ("the farmhouse" or "farmhouse")."""
    buildings = map_buildings(t, state)
    if not isinstance(wanted, str) or not wanted.strip():
        raise RuleError("Name a building.")
    found = next((b for b in buildings if _key(b.name) == _key(wanted)), None)
    if found is not None:
        return found
    if not buildings:
        raise RuleError("This map has no building.")
    names = joined([b.name for b in buildings], "or")
    raise RuleError(f"There is no building called {short(wanted)} on this map: {names}.")


def record_of(state: NsrState, found: MapBuilding) -> Building:
    """The state's record of a building on the map (its loopholes and breaches), made from the
    map's figures the first time a unit goes in or works at it (A-NSR-42)."""
    existing = next((b for b in state.buildings if b.name == found.name), None)
    if existing is None:
        existing = Building(found.name, found.roof, found.storeys, windows=len(found.windows), doors=len(found.doors))
        state.buildings.append(existing)
    return existing


def inside(t: NsrTables, state: NsrState, unit: Unit) -> MapBuilding | None:
    """The map building ``unit`` occupies (None when it occupies none)."""
    if not unit.building or state.field is None:
        return None
    return next((b for b in map_buildings(t, state) if b.name == unit.building), None)


def refuse_description(state: NsrState) -> None:
    """A-NSR-42: on the map a building's figures are the map's, not typed."""
    if state.field is not None:
        raise RuleError(
            "On the map the buildings are the map's, with their storeys, roofs, doors and windows: "
            "name one with /nsr occupy, /nsr work or /nsr bombard."
        )


def breaching_task(found: MapBuilding, task: str) -> str:
    """A-NSR-42: on the map a wall is breached as its walls are built (rock, or masonry and wood)."""
    if task == "rock_wall":
        raise RuleError(f"On the map {possessive(found.name)} walls say how strong they are: work at its wall.")
    if task == "wall" and found.walls == "rock":
        return "rock_wall"
    return task


# --- going in and coming out ------------------------------------------------------------------------


def check_entry(t: NsrTables, state: NsrState, unit: Unit, found: MapBuilding, record: Building) -> None:
    """A-NSR-42: a unit goes in at a door within an inch of its footprint, or anywhere along the
    walls once they are breached (the bot does not know where the hole is)."""
    placed = footing.placement_of(state, unit)
    if placed is None:
        raise RuleError(f"{unit.name} is not on the map.")
    ground = footprint(placed, footing.SPEC)
    breached = any(record.breaches.values())
    if breached and shapely.distance(ground, found.shape) <= ENTRY_REACH + EPSILON:
        return
    doors = found.doors
    if doors and min(shapely.distance(ground, ShapelyPoint(d.at.x, d.at.y)) for d in doors) <= ENTRY_REACH + EPSILON:
        return
    if not doors and not breached:
        raise RuleError(f"{found.name} has no door: breach it first (/nsr work, /nsr bombard).")
    raise RuleError(
        f"{unit.name} must stand within {ENTRY_REACH:g}″ of a door of {found.name} to go in: move up to it first."
    )


def move_in(t: NsrTables, state: NsrState, unit: Unit, found: MapBuilding, placed: UnitPlacement | None = None) -> None:
    """The unit's block is set on the building's centre, lying along it as best it fits (the
    picture draws the building's outline instead, A-NSR-42)."""
    placed = placed or footing.placement_of(state, unit)
    assert placed is not None
    middle = found.shape.centroid if found.shape.contains(found.shape.centroid) else found.shape.representative_point()
    centre = Point(float(middle.x), float(middle.y))
    box = shapely.get_coordinates(shapely.minimum_rotated_rectangle(found.shape))
    sides = box[1:3] - box[0:2]
    longest = sides[int(np.argmax(np.hypot(sides[:, 0], sides[:, 1])))]
    along = math.degrees(math.atan2(longest[1], longest[0]))
    best = min(
        (replace(placed, centre=centre, facing=(along + turn) % 360.0) for turn in (90.0, 0.0)),
        key=lambda p: footprint(p, footing.SPEC).difference(found.shape).area,
    )
    field = footing.field_of(state)
    field.positions[unit.name] = [round(centre.x, 4), round(centre.y, 4)]
    field.facing[unit.name] = round(best.facing, 4)


def check_room(state: NsrState, unit: Unit, record: Building) -> int:
    """MOUT, on a table or the map: no enemy holds the building and the unit's figures fit (roof x
    storeys); how many figures are inside once it is in."""
    holders = [u.name for u in state.units if u.building == record.name and u.side != unit.side and u.standing()]
    if holders:
        raise RuleError(f"{holders[0]} holds {record.name}: break in and fight for it.")
    inside_now = sum(len(u.standing()) for u in state.units if u.building == record.name)
    coming = len(unit.standing())
    if inside_now + coming > record.capacity:
        raise RuleError(
            f"{record.name} holds {record.capacity} figures ({record.roof} a floor) and "
            f"{inside_now} are inside: {possessive(unit.name)} {coming} do not fit."
        )
    return inside_now + coming


def place_inside(t: NsrTables, state: NsrState, unit: Unit, placed: UnitPlacement) -> str:
    """A-NSR-42: a unit placed with its centre in a building (in its side's zone) occupies it;
    "" when the centre is in no building."""
    here = ShapelyPoint(placed.centre.x, placed.centre.y)
    found = next((b for b in map_buildings(t, state) if b.shape.covers(here)), None)
    if found is None:
        return ""
    zone = zone_shape(footing.field_of(state).map, unit.side)
    if zone is None or not zone.buffer(EPSILON).covers(found.shape):
        raise RuleError(
            f"{found.name} is not inside {unit.side}'s deployment zone: {unit.name} cannot be placed in it."
        )
    record = record_of(state, found)
    taken = check_room(state, unit, record)
    unit.formation = placed.formation
    unit.building = found.name
    move_in(t, state, unit, found, placed)
    return f"{unit.name} ({unit.side}) is placed in {found.name}: {taken} of {record.capacity} places taken."


#: How many halvings find how far a unit's block inside a building can go toward a wall.
HALVINGS = 30


def man_the_wall(t: NsrTables, state: NsrState, unit: Unit, toward: Point) -> None:
    """A-NSR-43: a unit inside a building charged from ``toward`` stands its block against the wall
    the charge comes at, as far that way as it stays inside (a block larger than the building
    stays on its centre), so the charge stops two inches from the building, not from its middle."""
    found = inside(t, state, unit)
    placed = footing.placement_of(state, unit)
    if found is None or placed is None:
        return
    room = found.shape.buffer(EPSILON)
    if not room.covers(footprint(placed, footing.SPEC)):
        return
    dx, dy = toward.x - placed.centre.x, toward.y - placed.centre.y
    length = math.hypot(dx, dy)
    if length <= EPSILON:
        return
    dx, dy = dx / length, dy / length

    def moved(inches: float) -> UnitPlacement:
        return replace(placed, centre=Point(placed.centre.x + dx * inches, placed.centre.y + dy * inches))

    low, high = 0.0, math.hypot(*np.ptp(np.asarray(found.shape.exterior.coords), axis=0))
    for _ in range(HALVINGS):
        middle = (low + high) / 2
        low, high = (middle, high) if room.covers(footprint(moved(middle), footing.SPEC)) else (low, middle)
    end = moved(max(0.0, low - footing.CLEARANCE)).centre
    footing.field_of(state).positions[unit.name] = [round(end.x, 4), round(end.y, 4)]


def ground_of(t: NsrTables, state: NsrState, unit: Unit) -> Polygon | None:
    """The ground a unit covers: its building when it occupies one, else its footprint."""
    found = inside(t, state, unit)
    if found is not None:
        return found.shape
    placed = footing.placement_of(state, unit)
    return None if placed is None else footprint(placed, footing.SPEC)


def step_out(t: NsrTables, state: NsrState, unit: Unit, toward: Point | None, *, must: bool = True) -> str:
    """A-NSR-43: ``unit`` comes out of its building at the door (or, breached, any opening) nearest
    ``toward``, its block set just outside facing away from the wall. The sentence; "" when it was
    in no building on the map. With ``must``, a unit with no room outside any way out is refused;
    without, it stays inside (a shaken or routed unit hemmed in)."""
    found = inside(t, state, unit)
    if found is None:
        return ""
    record = record_of(state, found)
    ways = found.ways if any(record.breaches.values()) else tuple(found.doors)
    aim = toward or Point(found.shape.centroid.x, found.shape.centroid.y)
    placed = footing.placement_of(state, unit)
    assert placed is not None
    unit.building = ""
    for way in sorted(ways, key=lambda w: math.hypot(w.at.x - aim.x, w.at.y - aim.y)):
        facing = bearing(way.at, way.outside)
        probe = replace(placed, facing=facing)
        depth = size(probe, footing.SPEC)[1]
        spot = replace(
            probe,
            centre=Point(
                way.at.x + way.out.x * (depth / 2 + footing.CLEARANCE),
                way.at.y + way.out.y * (depth / 2 + footing.CLEARANCE),
            ),
        )
        try:
            footing.check_ground(t, state, unit, spot)
        except RuleError:
            continue
        field = footing.field_of(state)
        field.positions[unit.name] = [round(spot.centre.x, 4), round(spot.centre.y, 4)]
        field.facing[unit.name] = round(spot.facing, 4)
        return f"comes out of {found.name} by its {way.kind} at {footing.at(way.at)}"
    unit.building = found.name
    if must:
        raise RuleError(f"{unit.name} cannot come out of {found.name}: the ground outside its doors is taken.")
    return f"cannot get out of {found.name}"


def take_building(t: NsrTables, state: NsrState, winner: Unit, spot: Point | None) -> str:
    """A-NSR-43: the winner of a fight for a building (or of a charge its defenders fled) occupies
    the building they held, when no enemy is left inside and its figures fit; "" otherwise."""
    if spot is None or state.field is None or winner.building:
        return ""
    here = ShapelyPoint(spot.x, spot.y)
    found = next((b for b in map_buildings(t, state) if b.shape.covers(here)), None)
    if found is None:
        return ""
    record = record_of(state, found)
    others = [u for u in state.units if u.building == found.name and u.standing()]
    if any(u.side != winner.side for u in others):
        return ""
    if sum(len(u.standing()) for u in others) + len(winner.standing()) > record.capacity:
        return ""
    winner.building = found.name
    move_in(t, state, winner, found)
    return f"{winner.name} goes into {found.name}"


# --- what the picture draws -------------------------------------------------------------------------


def occupant_outline(
    t: NsrTables, state: NsrState, unit: Unit
) -> tuple[tuple[tuple[float, float], ...], tuple[tuple[float, float], ...]] | None:
    """A-NSR-42: a unit inside a building is drawn as the building's outline, its figures at the
    doors and windows first, the rest spread inside (None when it is in no building on the map)."""
    found = inside(t, state, unit)
    if found is None:
        return None
    corners = tuple((round(x, 3), round(y, 3)) for x, y in list(found.shape.exterior.coords)[:-1])
    count = footing.with_the_unit(unit)
    inward = [Point(w.at.x - w.out.x * 0.5, w.at.y - w.out.y * 0.5) for w in found.ways]
    x0, y0, x1, y1 = found.shape.bounds
    grid = [
        Point(float(x), float(y))
        for y in np.arange(y0 + 0.5, y1, 1.0)
        for x in np.arange(x0 + 0.5, x1, 1.0)
        if found.shape.contains(ShapelyPoint(float(x), float(y)))
    ]
    spots = (inward + grid) or [Point(found.shape.centroid.x, found.shape.centroid.y)]
    figures = tuple((round(spots[i % len(spots)].x, 3), round(spots[i % len(spots)].y, 3)) for i in range(count))
    return corners, figures


# --- sight and the target area (A-NSR-44, A-NSR-45) --------------------------------------------------


@dataclass(frozen=True)
class Sightlines:
    """What a firing unit sees of a target on the map: how many of its figures may fire at it,
    how near the nearest of them is, which of the target's figures they see (indices into
    :func:`standing_order`; every figure when the target is inside a building) and, when none
    may fire, why."""

    firers: int
    range: float
    seen: frozenset[int]
    why_not: str


@functools.lru_cache(maxsize=512)
def heads_of(placed: UnitPlacement) -> tuple[Point, ...]:
    """Where each figure of a unit standing as ``placed`` stands (fire checks ask it again and again)."""
    return tuple(figure_points(placed, footing.SPEC))


def standing_order(unit: Unit) -> list[Figure]:
    """The figures a unit's footprint holds, in the order the formation stands them (front rank
    first): its figure list, leaving out those killed, captured, run off or taken to the rear."""
    return [f for f in unit.figures if f.status in ("fit", "wounded") and not f.in_rear]


def _loophole_spot(found: MapBuilding, aim: Point) -> Point:
    """Where the bot puts a loophole or a hole breached in a wall (it does not know which wall):
    the point of the walls nearest what is fired at, just outside."""
    near = nearest_points(found.shape.exterior, ShapelyPoint(aim.x, aim.y))[0]
    dx, dy = aim.x - near.x, aim.y - near.y
    length = math.hypot(dx, dy) or 1.0
    return Point(near.x + dx / length * NUDGE, near.y + dy / length * NUDGE)


def shooting_places(t: NsrTables, state: NsrState, unit: Unit, aim: Point) -> tuple[list[Point], list[int], str]:
    """Where ``unit``'s figures fire from at a target whose centre is ``aim``, with how many figures
    each place holds: from a building, its doors and windows facing the target (a barn's doors
    ``t.ground.barn_door_firers`` each; a door on the map is an open doorway) and its loopholes
    and holes breached in its walls; in the open every
    figure's head. The third item says why there is none."""
    found = inside(t, state, unit)
    if found is None:
        placed = footing.placement_of(state, unit)
        if placed is None:
            raise RuleError(f"{unit.name} is not on the map.")
        heads = heads_of(placed)
        return list(heads), [1] * len(heads), ""
    record = record_of(state, found)
    places: list[Point] = []
    room: list[int] = []
    for way in found.ways:
        if way.faces(aim):
            places.append(way.outside)
            room.append(t.ground.barn_door_firers if found.barn and way.kind == "door" else 1)
    extra = record.loopholes + record.breaches.get("wall", 0) + record.breaches.get("rock_wall", 0)
    if extra:
        places.append(_loophole_spot(found, aim))
        room.append(extra)
    why = "" if places else f"no door or window of {found.name} faces that way"
    return places, room, why


def target_places(t: NsrTables, state: NsrState, target: Unit, aim: Point) -> list[Point]:
    """What can be seen of ``target`` from ``aim``: its figures' heads in the open; inside a
    building, its doors and windows facing ``aim`` and the corners of its walls."""
    found = inside(t, state, target)
    if found is None:
        placed = footing.placement_of(state, target)
        if placed is None:
            raise RuleError(f"{target.name} is not on the map.")
        return list(heads_of(placed))
    return [w.outside for w in found.ways if w.faces(aim)] + list(found.corners)


def centre_of(t: NsrTables, state: NsrState, unit: Unit) -> Point:
    ground = ground_of(t, state, unit)
    if ground is None:
        raise RuleError(f"{unit.name} is not on the map.")
    middle = ground.centroid
    return Point(float(middle.x), float(middle.y))


def sightlines(
    t: NsrTables, state: NsrState, unit: Unit, target: Unit, reach: float, area: Polygon | None = None
) -> Sightlines:
    """A-NSR-44: which of ``unit``'s figures may fire at ``target`` (a line from its place to some
    figure of the target that no wood, building or hill hides; the nearest place within ``reach``
    inches of the target's ground, A-NSR-36) and which of the target's figures they see: the
    target area. With ``area`` (a volley's, A-NSR-45) only the target's figures in it count."""
    mine, theirs = centre_of(t, state, unit), centre_of(t, state, target)
    places, room, why = shooting_places(t, state, unit, theirs)
    if not places:
        return Sightlines(0, math.inf, frozenset(), why)
    shooters = np.array([(p.x, p.y) for p in places])
    aims = np.array([(p.x, p.y) for p in target_places(t, state, target, mine)])
    ground = ground_of(t, state, target)
    assert ground is not None
    distances = np.asarray(shapely.distance(shapely.points(shooters), ground), dtype=float)
    if float(distances.min()) > reach + EPSILON:  # A-NSR-36: the nearest figure's range is the unit's
        return Sightlines(0, float(distances.min()), frozenset(), "out of range")
    wanted = np.ones(len(aims), dtype=bool)
    in_building = inside(t, state, target) is not None
    if area is not None and in_building and not shapely.intersects(area, ground):
        return Sightlines(
            0, float(distances.min()), frozenset(), f"{possessive(target.name)} building is not in the volley's area"
        )
    if area is not None and not in_building:
        wanted = np.asarray(shapely.covers(area, shapely.points(aims)), dtype=bool)
        if not wanted.any():
            return Sightlines(
                0, float(distances.min()), frozenset(), f"no figure of {target.name} stands in the volley's area"
            )
    clear, hider = _clear_lines(t, state, shooters, aims)
    clear &= wanted[None, :]
    firing: _Mask = np.asarray(clear.any(axis=1), dtype=np.bool_)
    if not firing.any():
        return Sightlines(0, float(distances.min()), frozenset(), f"{hider or 'the ground'} is in the way")
    fires = [bool(f) for f in firing]
    count = sum(r for r, f in zip(room, fires, strict=True) if f)
    seen_points = clear.any(axis=0)
    seen = (
        frozenset(range(len(standing_order(target))))
        if in_building
        else frozenset(int(i) for i in np.nonzero(seen_points)[0])
    )
    return Sightlines(count, float(distances[firing].min()), seen, "")


def _clear_lines(t: NsrTables, state: NsrState, shooters: _Array, aims: _Array) -> tuple[npt.NDArray[np.bool_], str]:
    """Which lines from each shooter (rows) to each aim (columns) no feature that blocks sight
    hides, read as :func:`rules.battlefield.line_of_sight` reads a figure standing in a feature: a
    hill it stands on hides nothing from it; a wood hides nothing within its ``see_into`` of the
    edge, and deeper in it sees and is seen by nothing. The label of the feature hiding most."""
    blocking, shapes = _blocking(t, state)
    clear = np.ones((len(shooters), len(aims)), dtype=bool)
    if not blocking:
        return clear, ""
    hull = shapely.convex_hull(shapely.multipoints(np.vstack([shooters, aims])))
    reaching = np.asarray(shapely.intersects(shapes, hull), dtype=bool)
    if not reaching.any():
        return clear, ""
    starts = np.repeat(shooters, len(aims), axis=0)
    ends = np.tile(aims, (len(shooters), 1))
    lines = shapely.linestrings(np.stack([starts, ends], axis=1))
    worst, hider = 0, ""
    for feature in (f for f, r in zip(blocking, reaching.tolist(), strict=True) if r):
        kind = t.terrain[feature.kind]
        ignore_s, blind_s = _standing_in(feature.geometry, shooters, kind.see_into)
        ignore_a, blind_a = _standing_in(feature.geometry, aims, kind.see_into)
        crossed = np.asarray(shapely.intersects(feature.geometry, lines), dtype=bool).reshape(clear.shape)
        crossed &= ~(ignore_s[:, None] | ignore_a[None, :])
        crossed |= blind_s[:, None] | blind_a[None, :]
        hidden = int(np.count_nonzero(crossed & clear))
        if hidden > worst:
            worst, hider = hidden, feature.label
        clear &= ~crossed
    return clear, hider


def _blocking(t: NsrTables, state: NsrState) -> tuple[list[Feature], npt.NDArray[np.object_]]:
    """The map's features that block sight, and their shapes (the last map's remembered, as
    :func:`map_buildings` does)."""
    data = footing.field_of(state).map
    last = _LAST_SIGHT.get("map")
    if last is not None and last[0] is data and last[1] == len(data.features) and last[2] is t.terrain:
        return last[3], last[4]
    features = battlefield_of(data).features
    blocking = [f for f in features if (k := t.terrain.get(f.kind)) is not None and k.sight == "blocks"]
    shapes = np.array([f.geometry for f in blocking], dtype=object)
    _LAST_SIGHT["map"] = (data, len(data.features), t.terrain, blocking, shapes)
    return blocking, shapes


_LAST_SIGHT: dict[str, tuple[Any, int, Any, list[Feature], npt.NDArray[np.object_]]] = {}


def _standing_in(shape: BaseGeometry, points: _Array, see_into: float | None) -> tuple[_Mask, _Mask]:
    """For each point in ``shape``: whether the shape hides nothing from it (a hill, or within
    ``see_into`` of the edge) and whether it is too deep to see or be seen."""
    within: _Mask = np.asarray(shapely.intersects_xy(shape, points[:, 0], points[:, 1]), dtype=np.bool_)
    none: _Mask = np.zeros(len(points), dtype=np.bool_)
    if see_into is None or not within.any():
        return within, none
    depth: _Array = np.asarray(shapely.distance(shape.boundary, shapely.points(points)), dtype=np.float64)
    blind: _Mask = within & (depth > see_into + EPSILON)
    return within & ~blind, blind


def looks_out(t: NsrTables, state: NsrState, target: Unit, shooter: Unit) -> bool:
    """A-NSR-46: a unit inside a building is exposed to ``shooter`` (special rule 10: "shooting or
    observing through a door, window") when it fired this turn, or when a door or window of its
    building faces the shooter and some figure of the shooter is in sight from it."""
    if target.last_fired_turn == state.turn:
        return True
    lines = sightlines(t, state, target, shooter, math.inf)
    return lines.firers > 0


def unexposed(target: Unit, shooter: Unit, found: MapBuilding) -> str:
    return (
        f"{target.name} is inside {found.name} with no door or window looking out toward {shooter.name} and has "
        f"not fired this turn: only artillery may fire at it."
    )


def too_many(unit: Unit, target: Unit, wanted: int, lines: Sightlines, found: MapBuilding | None) -> str:
    where = (
        f"from the doors and windows of {found.name} facing it"
        if found is not None
        else "with it in range and in sight"
    )
    return f"Only {plural(lines.firers, 'figure')} of {unit.name} can fire at {target.name} {where}, not {wanted}."


def cannot_fire(unit: Unit, target: Unit, lines: Sightlines) -> str:
    return f"{unit.name} cannot fire at {target.name}: {lines.why_not}."


def area_of_volley(state: NsrState, unit: Unit, half: float) -> Polygon:
    placed = footing.placement_of(state, unit)
    if placed is None:
        raise RuleError(f"{unit.name} is not on the map.")
    return front_area(placed, half, footing.SPEC)


def seen_figures(target: Unit, lines: Sightlines | None) -> set[str] | None:
    """The names of the target's figures its firers see (None: all of them, at a table)."""
    if lines is None:
        return None
    order = standing_order(target)
    return {order[i].name for i in lines.seen if i < len(order)}


def check_at_walls(t: NsrTables, state: NsrState, unit: Unit, found: MapBuilding) -> None:
    """A-NSR-42: figures breaching a door, a window or a wall work at it: the unit stands within an
    inch of the building (or is inside it)."""
    if unit.building == found.name:
        return
    placed = footing.placement_of(state, unit)
    if placed is None:
        raise RuleError(f"{unit.name} is not on the map.")
    if shapely.distance(footprint(placed, footing.SPEC), found.shape) > ENTRY_REACH + EPSILON:
        raise RuleError(f"{unit.name} must stand within {ENTRY_REACH:g}″ of {found.name} to break into it.")


def check_gun_reach(t: NsrTables, state: NsrState, unit: Unit, found: MapBuilding, shot: str) -> None:
    """A-NSR-42: a gun fires at a building within its shot's range and in sight of some of it."""
    reach = t.firing_chart[shot].max_range
    placed = footing.placement_of(state, unit)
    if placed is None:
        raise RuleError(f"{unit.name} is not on the map.")
    heads = np.array([(p.x, p.y) for p in heads_of(placed)])
    distance = float(np.min(shapely.distance(shapely.points(heads), found.shape)))
    if distance > reach + EPSILON:
        raise RuleError(
            f"{found.name} is out of range: {shot} reaches {reach:g}″, not {measured_against(distance, reach)}."
        )
    walls = [(p.x, p.y) for p in (*found.corners, *(w.outside for w in found.ways))]
    clear, hider = _clear_lines(t, state, heads, np.array(walls))
    if not clear.any():
        raise RuleError(f"{unit.name} cannot see {found.name}: {hider} is in the way.")


def fire_range(t: NsrTables, state: NsrState, unit: Unit, target: Unit) -> float:
    """A-NSR-44: the range from the nearest place ``unit``'s figures fire from (inside a building,
    its doors and windows facing the target) to the target's ground (inside a building, its
    walls). Refused when no door or window faces the target."""
    aim = centre_of(t, state, target)
    places, _, why = shooting_places(t, state, unit, aim)
    if not places:
        raise RuleError(f"{unit.name} cannot fire at {target.name}: {why}.")
    ground = ground_of(t, state, target)
    assert ground is not None
    return float(np.min(shapely.distance(shapely.points([(p.x, p.y) for p in places]), ground)))


# --- where a unit coming out heads ------------------------------------------------------------------


def aim_of_move(state: NsrState, unit: Unit, params: Mapping[str, Any]) -> Point | None:
    """Where a move asked on the map first heads (``to``/``via``'s first point, ``toward``'s point
    or unit), so a unit inside a building comes out by the door nearest it."""
    try:
        asked = move_request(params, unit.name)
    except RuleError:
        return None
    if asked.path:
        return asked.path[0]
    if asked.toward is None:
        return None
    named = match_name([u.name for u in state.units], asked.toward)
    if named is None:
        return asked.toward_point()
    other = next(u for u in state.units if u.name == named)
    placed = footing.placement_of(state, other)
    return None if placed is None else placed.centre


def refuse_walking_in(t: NsrTables, state: NsrState, unit: Unit, params: Mapping[str, Any]) -> None:
    """A-NSR-42: a move whose end is inside a building is refused with how to go in instead."""
    try:
        asked = move_request(params, unit.name)
    except RuleError:
        return  # the move's own check says what is missing
    end = asked.path[-1] if asked.path else asked.toward_point() if asked.toward is not None else None
    if end is None:
        return
    here = ShapelyPoint(end.x, end.y)
    found = next((b for b in map_buildings(t, state) if b.shape.covers(here)), None)
    if found is not None:
        raise RuleError(
            f"{unit.name} goes into {found.name} with /nsr occupy, from within {ENTRY_REACH:g}″ of its door: "
            "move up to the door first."
        )


def away_from(state: NsrState, unit: Unit, enemy: Unit | None) -> Point | None:
    """A point far off straight away from ``enemy``, for a shaken unit leaving its building."""
    mine = footing.placement_of(state, unit)
    theirs = footing.placement_of(state, enemy) if enemy is not None else None
    if mine is None or theirs is None:
        return None
    dx, dy = mine.centre.x - theirs.centre.x, mine.centre.y - theirs.centre.y
    scale = 100 / max(math.hypot(dx, dy), 1.0)  # 100 inches off, however far the enemy stands
    return Point(mine.centre.x + dx * scale, mine.centre.y + dy * scale)


def nearest_edge(state: NsrState, unit: Unit) -> Point | None:
    """The point of the table's edge nearest ``unit``'s centre, for a routed unit leaving its building."""
    placed = footing.placement_of(state, unit)
    if placed is None:
        return None
    table = battlefield_of(footing.field_of(state).map).table
    c = placed.centre
    edges = [(c.x, Point(0.0, c.y)), (table.width - c.x, Point(table.width, c.y)), (c.y, Point(c.x, 0.0))]
    edges.append((table.height - c.y, Point(c.x, table.height)))
    return min(edges, key=lambda e: e[0])[1]
