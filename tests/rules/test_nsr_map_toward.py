"""NSR on the map: a move toward a unit (A-NSR-35) stops where the footprints would touch, a hair
(CLEARANCE) short, measured exactly (formations.last_clear) rather than by halving forty times,
with the path checked against everything at once; the paths, columns, rough ground, sentences and
the positions the map keeps (to 4 decimals) are those the halving gave: fixed cases on the shipped
village, every pair of its units, and random moves checked against the route as it was, kept here
as the reference (a value a billionth of an inch from a rounding boundary may round either way:
:func:`alike`).
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, assume, event, example, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString

from bench.geometry import nsr_move_rows
from rules.battlefield import battlefield_of, toward
from rules.battlefield.formations import OVERLAP_AREA, UnitPlacement, corners, footprint, last_clear, overlaps
from rules.battlefield.requests import MoveRequest, move_request
from rules.core import RuleError
from rules.geometry import Point, centre_distance
from rules.nsr import onmap
from rules.nsr.charts import NsrTables
from rules.nsr.engine import NsrEngine
from rules.nsr.options import MoveOptions
from rules.nsr.state import NsrState, Unit, unit_named
from rules.words import blank, match_name, number, possessive
from tests.rules.test_nsr_helpers import get
from tests.rules.test_nsr_map_slides import SPECS, VILLAGE_UNITS, scattered, spot, village


def typed_route(t: NsrTables, state: NsrState, unit: Unit, params: Mapping[str, Any], formation: str) -> onmap.Route:
    """:func:`rules.nsr.onmap.route`, given the move's options as the engine reads them."""
    return onmap.route(t, state, unit, MoveOptions(**params), formation)


# --- the route as it was: forty halvings, every check one shape at a time (the reference) -------------


def halving_route(t: NsrTables, state: NsrState, unit: Unit, params: Mapping[str, Any], formation: str) -> onmap.Route:
    for key in ("going", "rough"):
        if not blank(params.get(key)):
            raise RuleError(f"On the map the ground says the {key}: give only where {unit.name} goes.")
    asked = move_request(MoveOptions(**params), unit.name)
    facing = onmap.new_facing(state, unit, params.get("facing"))
    placed = onmap.placement_of(state, unit, formation=formation, facing=facing)
    if placed is None:
        raise RuleError(f"{unit.name} is not on the map.")
    if formation != unit.formation or facing is not None:
        onmap.check_ground(t, state, unit, placed)
    if asked.toward is not None:
        named = match_name([u.name for u in state.units], asked.toward)
        point = None if named is not None else asked.toward_point()
        path = [placed.centre, halving_toward(state, unit, placed, point, asked)]
    else:
        path = [placed.centre, *asked.path]
    length = sum(centre_distance(a, b) for a, b in itertools.pairwise(path))
    if length <= onmap.EPSILON:
        raise RuleError(f"{unit.name} already stands at {onmap.at(placed.centre)}.")
    ground = battlefield_of(onmap.field_of(state).map)
    shapes = []
    for point in path[1:]:
        where = replace(placed, centre=point)
        onmap.check_ground(t, state, unit, where)
        shapes.append(footprint(where))
    swept = [shapely.convex_hull(shapely.union(a, b)) for a, b in itertools.pairwise([footprint(placed), *shapes])]
    others = onmap.footprints(state, unit.name)
    for leg in swept:
        for feature in ground.features:
            kind = t.terrain.get(feature.kind)
            if kind is not None and kind.move_cost is None and overlaps(leg, feature.geometry):
                raise RuleError(
                    f"{possessive(unit.name)} path runs through {feature.label} for a unit {onmap.standing(placed)}: go round it."
                )
        for other, theirs in others.items():
            if overlaps(leg, theirs):
                raise RuleError(
                    f"{possessive(unit.name)} path runs through {other} for a unit {onmap.standing(placed)}: go round it."
                )
    roads = [f.geometry for f in ground.features if f.kind in t.ground.road]
    on_road = bool(roads) and all(
        shapely.union_all(roads).buffer(onmap.EPSILON).covers(LineString([(a.x, a.y), (b.x, b.y)]))
        for a, b in itertools.pairwise(path)
    )
    rough = next(
        (
            f.label
            for f in ground.features
            if f.kind in t.ground.rough and any(overlaps(leg, f.geometry) for leg in swept)
        ),
        None,
    )
    return onmap.Route(tuple(path), length, "road" if on_road else "cross_country", rough, round(placed.facing, 4))


def halving_toward(
    state: NsrState, unit: Unit, placed: UnitPlacement, point: Point | None, asked: MoveRequest
) -> Point:
    start = placed.centre
    target, shape = None, None
    if point is None:
        target = unit_named(state, asked.toward)
        if target is unit:
            raise RuleError(f"{unit.name} cannot move toward itself.")
        theirs = onmap.placement_of(state, target)
        if theirs is None:
            raise RuleError(f"{target.name} is not on the map.")
        point, shape = theirs.centre, footprint(theirs)
    gap = centre_distance(start, point)
    if target is not None and shape is not None:
        if overlaps(footprint(replace(placed, centre=toward(onmap.field_of(state), start, point, 0.0))), shape):
            raise RuleError(f"{unit.name} already touches {target.name}.")
        low, high = 0.0, gap
        for _ in range(40):
            middle = (low + high) / 2
            here = replace(placed, centre=toward(onmap.field_of(state), start, point, middle))
            low, high = (low, middle) if overlaps(footprint(here), shape) else (middle, high)
        gap = max(0.0, low - onmap.CLEARANCE)
    if not blank(asked.distance):
        wanted = number(asked.distance, f"Give {unit.name}'s move as a number of inches.", lowest=0, highest=1000)
        gap = min(gap, wanted)
    return toward(onmap.field_of(state), start, point, gap)


Router = Callable[[NsrTables, NsrState, Unit, Mapping[str, Any], str], onmap.Route]


def outcome(
    router: Router, engine: NsrEngine, state: NsrState, name: str, params: dict[str, Any], formation: str, inches: float
) -> tuple[Any, ...]:
    """What the player sees of a move asked with ``params`` and the dice giving ``inches``: the
    refusal's sentence, or the path (to 4 decimals), its column, rough ground and facing, the
    sentence of the move and where the map keeps the unit. On a copy: ``state`` is left as it is."""
    state = copy.deepcopy(state)
    unit = get(state, name)
    try:
        way = router(engine.tables, state, unit, params, formation)
    except RuleError as refused:
        return ("refused", str(refused))
    path = tuple((round(p.x, 4), round(p.y, 4)) for p in way.path)
    said = onmap.advance(state, unit, way, inches)
    field = onmap.field_of(state)
    return (
        path,
        round(way.length, 4),
        way.going,
        way.rough,
        way.facing,
        said,
        field.positions[name],
        field.facing[name],
    )


def both(
    engine: NsrEngine, state: NsrState, name: str, params: dict[str, Any], formation: str = "", inches: float = 30.0
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The move measured now and by the halving, each on its own copy of ``state``."""
    formation = formation or get(state, name).formation
    return (
        outcome(typed_route, engine, state, name, params, formation, inches),
        outcome(halving_route, engine, state, name, params, formation, inches),
    )


def numbers_and_words(seen: Any) -> tuple[list[float], list[Any]]:
    """The numbers in an outcome, and everything else in it (sentences, names, None)."""
    if isinstance(seen, (tuple, list)):
        parts = [numbers_and_words(part) for part in seen]
        return [n for ns, _ in parts for n in ns], [w for _, ws in parts for w in ws]
    return ([float(seen)], []) if isinstance(seen, (int, float)) else ([], [seen])


def raw_path(
    router: Router, engine: NsrEngine, state: NsrState, name: str, params: dict[str, Any], formation: str
) -> list[float]:
    """The path's points and its length as the route measures them, unrounded."""
    way = router(engine.tables, copy.deepcopy(state), get(state, name), params, formation)
    return [c for p in way.path for c in (p.x, p.y)] + [way.length]


def alike(
    engine: NsrEngine, state: NsrState, name: str, params: dict[str, Any], formation: str, inches: float
) -> tuple[Any, ...]:
    """:func:`both`, the two required to agree: in full, or (where a value falls a billionth of an
    inch from a boundary of 4 decimals) in every word, each number to one in its last decimal,
    the unrounded paths to a hundred-millionth of an inch. The halving itself finds a stop only to
    the billionth of an inch a centre is kept to, so such a value may round either way: it did
    once in 30,000 random moves (a path's length, 14.0557 against 14.0556)."""
    formation = formation or get(state, name).formation
    now, then = both(engine, state, name, params, formation, inches)
    if now != then:
        (ours, said), (theirs, said_then) = numbers_and_words(now), numbers_and_words(then)
        assert said == said_then and now[0] != "refused"
        assert len(ours) == len(theirs) and all(abs(a - b) <= 1.0001e-4 for a, b in zip(ours, theirs, strict=True))
        exact = raw_path(typed_route, engine, state, name, params, formation)
        halved = raw_path(halving_route, engine, state, name, params, formation)
        assert all(abs(a - b) <= 1e-8 for a, b in zip(exact, halved, strict=True))
    return now


# --- fixed cases: what the halving gave -----------------------------------------------------------------


def test_a_move_toward_a_unit_stops_a_hair_short_of_it_as_it_did(engine: NsrEngine) -> None:
    """The 1er Ligne toward the 33rd Foot on the village, as far as it may go, with dice enough and
    with fewer (bench.geometry's move toward a unit)."""
    state = village(engine)
    now, then = both(engine, state, "1er Ligne", {"toward": "33rd Foot"}, inches=12.0)
    assert now == then
    path, length, going, rough, facing, said, kept, kept_facing = now
    assert path == ((16.0, 3.0), (19.7495, 8.9992)) and length == 7.0745
    assert (going, rough, facing) == ("cross_country", None, 90.0)
    assert (said, kept, kept_facing) == ("moves 7.1″ to 19.75,9", [19.7495, 8.9992], 90.0)
    now, then = both(engine, state, "1er Ligne", {"toward": "33rd Foot"}, inches=4.0)
    assert now == then and now[5:7] == ("moves 4″ to 18.12,6.39, short of 19.75,9", [18.12, 6.392])
    assert state.field is not None and state.field.positions["1er Ligne"] == [16.0, 3.0]


@pytest.mark.parametrize(
    ("name", "params", "formation", "said", "kept", "rough"),
    [
        ("1er Ligne", {"toward": "33rd Foot", "distance": 3}, "", "moves 3″ to 17.59,5.54", [17.59, 5.544], None),
        ("1er Ligne", {"toward": "33rd Foot", "distance": 20}, "", "moves 7.1″ to 19.75,9", [19.7495, 8.9992], None),
        ("1er Ligne", {"toward": "33rd Foot", "facing": 45}, "", "moves 5.5″ to 18.92,7.67", [18.9176, 7.6682], None),
        (
            "33rd Foot",
            {"toward": "Voltigeurs"},
            "",
            "moves 9″ to 29.36,7.66, short of 29.75,7.5",
            [29.3563, 7.6575],
            "the ruined cottage",
        ),
        ("95th", {"toward": "Royal Scots"}, "", "moves 4.5″ to 36,28.5", [36.0, 28.499], "the knoll"),
        ("Royal Scots", {"toward": "Dragoons"}, "square", "moves 7.1″ to 29,32.17", [29.001, 32.1665], None),
        ("52nd Foot", {"toward": "Militia"}, "march_column", "moves 2.7″ to 7.75,29.5", [7.7508, 29.5006], None),
    ],
)
def test_fixed_moves_toward_a_unit_end_where_they_did(
    engine: NsrEngine,
    name: str,
    params: dict[str, Any],
    formation: str,
    said: str,
    kept: list[float],
    rough: str | None,
) -> None:
    """Dice for nine inches: a move further stops short of where it was going."""
    state = village(engine)
    now, then = both(engine, state, name, params, formation, inches=9.0)
    assert now == then
    assert (now[2], now[3], now[5], now[6]) == ("cross_country", rough, said, kept)


def test_a_move_toward_a_unit_down_the_high_street_is_on_the_road(engine: NsrEngine) -> None:
    """Hussars in march column on the high street toward a line standing on it: the road's column
    (the ford is rough ground on the way); in line they would stand in the pond."""
    state = village(engine)
    field = onmap.field_of(state)
    field.positions["Hussars"], field.facing["Hussars"] = [42.0, 18.0], 180.0
    field.positions["2e Ligne"], field.facing["2e Ligne"] = [6.0, 18.0], 0.0
    now, then = both(engine, state, "Hussars", {"toward": "2e Ligne"}, "march_column", inches=12.0)
    assert now == then
    assert now[:4] == (((42.0, 18.0), (9.001, 18.0)), 32.999, "road", "the ford")
    assert now[5:] == ("moves 12″ to 30,18, short of 9,18", [30.0, 18.0], 180.0)
    now, then = both(engine, state, "Hussars", {"toward": "2e Ligne"}, "line")
    assert (
        now
        == then
        == ("refused", "Hussars in line, 6″ wide and 2″ deep, facing west (180°), at 8,18 would stand in the pond.")
    )


@pytest.mark.parametrize(
    ("name", "target", "refused"),
    [
        (
            "33rd Foot",
            "1er Ligne",
            "33rd Foot's path runs through the barn for a unit in line, 6″ wide and 2″ deep, facing south (270°): go round it.",
        ),
        (
            "2e Ligne",
            "52nd Foot",
            "2e Ligne in line, 6″ wide and 2″ deep, facing north (90°), at 9.71,29 would stand on Militia's ground: "
            "units may touch, not overlap.",
        ),
        (
            "Gunners",
            "33rd Foot",
            "Gunners in limbered, 2″ wide and 6″ deep, facing north (90°), at 17,9.77 would stand in the barn.",
        ),
        (
            "95th",
            "Voltigeurs",
            "95th's path runs through the farmhouse for a unit in open order, 8″ wide and 3″ deep, facing south (270°): go round it.",
        ),
        (
            "Hussars",
            "95th",
            "Hussars' path runs through the stream (south) for a unit in line, 6″ wide and 2″ deep, facing north (90°): go round it.",
        ),
        (
            "Dragoons",
            "33rd Foot",
            "Dragoons' path runs through the church for a unit in line, 6″ wide and 2″ deep, facing south (270°): go round it.",
        ),
        ("1er Ligne", "1er Ligne", "1er Ligne cannot move toward itself."),
    ],
)
def test_fixed_moves_toward_a_unit_are_refused_as_they_were(
    engine: NsrEngine, name: str, target: str, refused: str
) -> None:
    state = village(engine)
    now, then = both(engine, state, name, {"toward": target})
    assert now == then == ("refused", refused)


@pytest.mark.parametrize(
    ("where", "refused"),
    [
        ([19.7495, 8.9992], "1er Ligne already stands at 19.75,9."),  # where it stopped: no nearer
        ([19.751, 9.001], "1er Ligne already touches 33rd Foot."),
        ([19.76, 9.02], "1er Ligne already touches 33rd Foot."),
    ],
)
def test_a_unit_at_its_target_already_is_refused_as_it_was(engine: NsrEngine, where: list[float], refused: str) -> None:
    state = village(engine)
    onmap.field_of(state).positions["1er Ligne"] = where
    now, then = both(engine, state, "1er Ligne", {"toward": "33rd Foot"})
    assert now == then == ("refused", refused)


def test_every_unit_of_the_village_toward_every_other_as_the_halving_had_it(engine: NsrEngine) -> None:
    """All 132 pairs, each in its own formation as far as it may go: the same path, sentence and
    kept position, or the same refusal."""
    state = village(engine)
    names = [n for n, *_ in VILLAGE_UNITS]
    outcomes = {}
    for mover, target in itertools.permutations(names, 2):
        now, then = both(engine, state, mover, {"toward": target}, inches=9.0)
        assert now == then, (mover, target)
        outcomes[mover, target] = now
    moved = [o for o in outcomes.values() if o[0] != "refused"]
    assert len(moved) >= 20 and len(outcomes) - len(moved) >= 20  # both kinds tried
    assert any(o[3] is not None for o in moved)  # some cross rough ground


def test_a_length_a_billionth_from_a_rounding_boundary_may_round_either_way(engine: NsrEngine) -> None:
    """The one difference 30,000 random moves found: the Hussars' way toward the 1er Ligne is
    14.05565 inches less a billionth or so, which the halving (a billionth of an inch further on)
    rounded down and the measure up; every word and every position kept is the same."""
    spots = [(8.5529, 17.4388, 0.0), (25.5408, 18.8574, 0.0), (5.4702, 30.2986, 301.5), (32.7066, 26.4376, 0.0)]
    state = scattered(engine, spots)
    assert state is not None
    params = {"toward": "1er Ligne", "facing": 339.6, "distance": 29.55}
    now, then = both(engine, state, "Hussars", params, "line", 21.588)
    assert (now[1], then[1]) == (14.0557, 14.0556) and now[:1] + now[2:] == then[:1] + then[2:]
    assert now[5:7] == ("moves 14.1″ to 11.53,17.69", [11.5332, 17.6893])
    assert alike(engine, state, "Hussars", params, "line", 21.588) == now


# --- random moves, checked against the halving ----------------------------------------------------------

NAMES = [n for n, *_ in VILLAGE_UNITS]
FORMATIONS = ["", "line", "march_column", "square", "open_order", "limbered", "manhandled"]
place = st.tuples(st.floats(2, 46), st.floats(2, 34), st.floats(0, 360))


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    mover=st.sampled_from(NAMES),
    target=st.sampled_from(NAMES),
    moved=st.none() | place,
    theirs=st.none() | place,
    formation=st.sampled_from(FORMATIONS),
    facing=st.none() | st.floats(0, 360),
    distance=st.none() | st.floats(0, 30),
    inches=st.floats(0, 24),
    inside=st.none() | st.sampled_from(NAMES),
)
def test_a_random_move_toward_a_unit_is_what_the_halving_made_it(
    engine: NsrEngine,
    mover: str,
    target: str,
    moved: tuple[float, float, float] | None,
    theirs: tuple[float, float, float] | None,
    formation: str,
    facing: float | None,
    distance: float | None,
    inches: float,
    inside: str | None,
) -> None:
    """Either unit set down anywhere at any facing (even on something: both must say the same),
    perhaps another in a building (A-NSR-42: its ground is the building's), a new formation or
    facing, a distance or none."""
    state = village(engine)
    field = onmap.field_of(state)
    for name, where in ((mover, moved), (target, theirs)):
        if where is not None:
            field.positions[name], field.facing[name] = [round(where[0], 2), round(where[1], 2)], where[2]
    if inside is not None:
        get(state, inside).building = "the farmhouse"
    if formation and formation not in engine.tables.movement_dice[get(state, mover).troop]:
        formation = ""
    params: dict[str, Any] = {"toward": target}
    if facing is not None:
        params["facing"] = round(facing, 1)
    if distance is not None:
        params["distance"] = round(distance, 2)
    now = alike(engine, state, mover, params, formation, inches)
    event("moved" if now[0] != "refused" else "refused")


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(
    spots=st.lists(spot, min_size=4, max_size=4),
    pair=st.permutations(range(4)),
    formation=st.sampled_from(FORMATIONS[:5]),
    facing=st.none() | st.floats(0, 360),
    distance=st.none() | st.floats(0, 30),
    inches=st.floats(0, 24),
)
def test_a_move_toward_a_unit_in_a_random_valley_is_what_the_halving_made_it(
    engine: NsrEngine,
    spots: list[tuple[float, float, float]],
    pair: list[int],
    formation: str,
    facing: float | None,
    distance: float | None,
    inches: float,
) -> None:
    """Four units set down legally anywhere in the test valley (most moves go ahead there)."""
    state = scattered(engine, spots)
    assume(state is not None)
    assert state is not None
    mover, target = (SPECS[i].name for i in pair[:2])
    if formation and formation not in engine.tables.movement_dice[get(state, mover).troop]:
        formation = ""
    params: dict[str, Any] = {"toward": target}
    if facing is not None:
        params["facing"] = round(facing, 1)
    if distance is not None:
        params["distance"] = round(distance, 2)
    now = alike(engine, state, mover, params, formation, inches)
    event("moved" if now[0] != "refused" else "refused")


offset = st.tuples(st.floats(-10, 10), st.floats(-10, 10))


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(
    spots=st.lists(spot, min_size=4, max_size=4),
    mover=st.integers(0, 3),
    to=offset,
    via=st.lists(offset, max_size=2),
    formation=st.sampled_from(FORMATIONS[:5]),
    facing=st.none() | st.floats(0, 360),
    inches=st.floats(0, 24),
)
def test_a_move_to_a_point_is_checked_as_it_was(
    engine: NsrEngine,
    spots: list[tuple[float, float, float]],
    mover: int,
    to: tuple[float, float],
    via: list[tuple[float, float]],
    formation: str,
    facing: float | None,
    inches: float,
) -> None:
    """The path's checks are the same for to: and via: (all at once now, one shape at a time then):
    the same refusal, or the same path, column, rough ground and end; no halving, so exactly. The
    points are within ten inches each way of the one before."""
    state = scattered(engine, spots)
    assume(state is not None)
    assert state is not None
    name = SPECS[mover].name
    if formation and formation not in engine.tables.movement_dice[get(state, name).troop]:
        formation = ""
    x, y = onmap.field_of(state).positions[name]
    points = []
    for dx, dy in [*via, to]:
        x, y = x + dx, y + dy
        points.append(f"{x:.2f},{y:.2f}")
    params: dict[str, Any] = {"to": points[-1]}
    if via:
        params["via"] = " ".join(points[:-1])
    if facing is not None:
        params["facing"] = round(facing, 1)
    now, then = both(engine, state, name, params, formation, inches)
    event("moved" if now[0] != "refused" else "refused")
    assert now == then


@settings(max_examples=300, deadline=None)
@given(
    mine=st.tuples(st.floats(-20, 20), st.floats(-20, 20), st.floats(0, 360)),
    theirs_facing=st.floats(0, 360),
    shapes=st.tuples(
        st.sampled_from(["line", "march_column", "square", "open_order"]),
        st.integers(1, 24),
        st.sampled_from(["line", "march_column", "square", "open_order", "limbered"]),
        st.integers(1, 24),
    ),
)
@example((3.239389007794621, 0.0, 279.0), 135.875, ("square", 1, "march_column", 5))  # overlapping a hair at the start
def test_last_clear_is_where_halving_the_way_to_the_centre_stops(
    mine: tuple[float, float, float], theirs_facing: float, shapes: tuple[str, int, str, int]
) -> None:
    """Two footprints of any formation and size at any facings, one heading straight for the
    other's centre: the furthest it goes overlapping it by no more than a millionth of a square
    inch, as forty halvings find it (on the corners slid, as last_clear slides them)."""
    own, count, other, their_count = shapes
    moving = UnitPlacement(Point(mine[0], mine[1]), mine[2], own, count)
    target = UnitPlacement(Point(0.0, 0.0), theirs_facing, other, their_count, guns=1 if other == "limbered" else 0)
    start, goal = corners(moving), footprint(target)
    gap = centre_distance(moving.centre, target.centre)
    if gap == 0:
        return
    direction = (-moving.centre.x / gap, -moving.centre.y / gap)

    def overlap(s: float) -> float:
        return float(shapely.area(shapely.intersection(shapely.polygons(start + s * np.array(direction)), goal)))

    if overlap(0.0) > OVERLAP_AREA:
        return
    low, high = 0.0, gap
    for _ in range(40):
        middle = (low + high) / 2
        low, high = (low, middle) if overlap(middle) > OVERLAP_AREA else (middle, high)
    exact = last_clear(start, direction, gap, corners(target))
    assert exact == pytest.approx(low, abs=gap * 2**-39 + 2e-12)
    assert overlap(exact) <= OVERLAP_AREA < overlap(exact + 1e-9 * max(1.0, gap))


# --- the benchmark's row ----------------------------------------------------------------------------------


def test_the_bench_row_times_a_move_toward_a_unit_and_leaves_the_state_alone(
    capsys: pytest.CaptureFixture[str],
) -> None:
    said: list[object] = []

    def twice(what: Callable[[], object]) -> tuple[float, float]:
        first, again = what(), what()
        assert again == first
        said.append(first)
        return 0.1, 0.2

    rows = nsr_move_rows(twice)
    assert [label for label, _ in rows] == ["an NSR move toward a unit (route)"]
    assert "NSR move toward: 7.07 in to 19.75,9, cross country." in capsys.readouterr().out
    (way,) = said
    assert isinstance(way, onmap.Route) and way.path[0] == Point(16.0, 3.0)
