"""NSR on the map: a charge's way and a unit sliding straight (falling back, taking a place,
routing, closing up) are measured exactly rather than by halving (A-NSR-37, A-NSR-38), and give
the positions the halving gave: fixed cases on the shipped village, and random ones checked
against the halving itself, kept here as the reference.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from typing import Any

import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.nsr_village import TWELVE as VILLAGE_UNITS
from bench.nsr_village import set_out
from rules.battlefield import battlefield_of, bearing
from rules.battlefield.formations import footprint, gap, on_table, overlaps
from rules.battlefield.maps import read_map
from rules.core import RuleError
from rules.geometry import Point, centre_distance
from rules.nsr import onmap
from rules.nsr.engine import NsrEngine
from rules.nsr.state import NsrState, Unit
from tests.rules.test_nsr_helpers import ScriptedDice, get, unit
from tests.rules.test_nsr_map import TEST_MAP


def village(engine: NsrEngine) -> NsrState:
    return set_out(engine, VILLAGE_UNITS)


def stands(state: NsrState, name: str) -> tuple[list[float], float]:
    field = onmap.field_of(state)
    return field.positions[name], field.facing[name]


# --- fixed cases: the positions the halving gave ----------------------------------------------------


@pytest.mark.parametrize(
    ("unit_name", "enemy", "inches", "said", "where"),
    [
        ("33rd Foot", "1er Ligne", 9.5, "moves 9.4″ back to 26,19, stopped by the church", [25.9995, 18.9992]),
        ("Voltigeurs", "Dragoons", 3.0, "moves 2.5″ back to 37,2.67, stopped by Hussars", [36.9996, 2.6676]),
        ("95th", "Voltigeurs", 20.0, "moves 4.5″ back to 36,28.5, stopped by Royal Scots", [36.0, 28.499]),
        ("Voltigeurs", None, 8.0, "moves 1.1″ back to 37,4.6, stopped by Hussars", [36.9991, 4.6004]),
        ("33rd Foot", "Voltigeurs", 3.0, "moves 0″ back to 21,11, stopped by the barn", [21.0, 11.0]),
    ],
)
def test_a_fall_back_stops_where_it_did(
    engine: NsrEngine, unit_name: str, enemy: str | None, inches: float, said: str, where: list[float]
) -> None:
    state = village(engine)
    facing = stands(state, unit_name)[1]
    away_from = get(state, enemy) if enemy else None
    assert onmap.fall_back(engine.tables, state, get(state, unit_name), away_from, inches)[0] == said
    assert stands(state, unit_name) == (where, facing)


@pytest.mark.parametrize(
    ("winner", "loser", "said", "where"),
    [
        ("Royal Scots", "Militia", "Royal Scots moves 26.2″ to 10,27.75, stopped by Militia", [10.001, 27.7501]),
        ("52nd Foot", "1er Ligne", "52nd Foot moves 6.8″ to 11.43,24.31, stopped by the pond", [11.4328, 24.3138]),
        ("Gunners", "Royal Scots", "Gunners moves 4″ to 11,9.57, stopped by the barn", [10.9992, 9.5708]),
        ("Militia", "Hussars", "Militia moves 3.9″ to 7.33,25, stopped by the pond", [7.3335, 24.9999]),
    ],
)
def test_taking_a_place_stops_where_it_did(
    engine: NsrEngine, winner: str, loser: str, said: str, where: list[float]
) -> None:
    state = village(engine)
    spot = Point(*onmap.field_of(state).positions[loser])
    assert onmap.take_place(engine.tables, state, get(state, winner), spot) == (said, True)
    assert stands(state, winner)[0] == where


def test_a_rout_stops_where_it_did(engine: NsrEngine) -> None:
    state = village(engine)
    assert onmap.rout(engine.tables, state, get(state, "33rd Foot"), 7.0) == "it runs 6″ to 21,5, stopped by 1er Ligne"
    assert stands(state, "33rd Foot") == ([21.0, 5.001], 270.0)


@pytest.mark.parametrize(
    ("charger", "target", "needed", "rough"),
    [
        ("1er Ligne", "33rd Foot", 3.9959860078836655, None),
        ("33rd Foot", "Voltigeurs", 8.884501643879613, "the ruined cottage"),
        ("Gunners", "33rd Foot", 5.440047631867328, None),
    ],
)
def test_a_charge_way_is_what_it_was(
    engine: NsrEngine, charger: str, target: str, needed: float, rough: str | None
) -> None:
    state = village(engine)
    way = onmap.charge_way(engine.tables, state, get(state, charger), get(state, target))
    assert way.needed == pytest.approx(needed, abs=1e-9)
    assert (way.column, way.rough, way.rear) == ("charge", rough, False)


def test_a_charge_into_a_building_is_refused_as_it_was(engine: NsrEngine) -> None:
    state = village(engine)
    with pytest.raises(RuleError, match="95th's charge at 3e Ligne runs into the farmhouse"):
        onmap.charge_way(engine.tables, state, get(state, "95th"), get(state, "3e Ligne"))


# --- the halving, kept as the reference ---------------------------------------------------------------


def halving_blocker(engine: NsrEngine, state: NsrState, unit: Unit, start: Any, end: Any, edge: bool) -> str:
    ground = battlefield_of(onmap.field_of(state).map)
    if edge and not on_table(end, ground.table):
        return "the table edge"
    hull = shapely.convex_hull(shapely.union(footprint(start), footprint(end)))
    for feature in ground.features:
        kind = engine.tables.terrain.get(feature.kind)
        if kind is not None and kind.move_cost is None and overlaps(hull, feature.geometry):
            return feature.label
    for other in state.units:
        placed = onmap.placement_of(state, other) if other.name != unit.name else None
        if placed is not None and overlaps(hull, footprint(placed)):
            return other.name
    return ""


def halving_slide(
    engine: NsrEngine, state: NsrState, unit: Unit, direction: Point, inches: float
) -> tuple[tuple[float, float], str]:
    """Where the halving (forty of them, as the code did before) stopped ``unit`` sliding, rounded
    as the map keeps it, and what stopped it."""
    placed = onmap.placement_of(state, unit)
    assert placed is not None

    def shifted(s: float) -> Any:
        return replace(placed, centre=Point(placed.centre.x + direction.x * s, placed.centre.y + direction.y * s))

    if not halving_blocker(engine, state, unit, placed, shifted(inches), True):
        end = shifted(inches)
        return (round(end.centre.x, 4), round(end.centre.y, 4)), ""
    low, high = 0.0, inches
    for _ in range(40):
        middle = (low + high) / 2
        clear = not halving_blocker(engine, state, unit, placed, shifted(middle), True)
        low, high = (middle, high) if clear else (low, middle)
    end = shifted(max(0.0, low - onmap.CLEARANCE))
    return (round(end.centre.x, 4), round(end.centre.y, 4)), halving_blocker(
        engine, state, unit, placed, shifted(high), True
    )


def halving_charge(engine: NsrEngine, state: NsrState, charger: Unit, target: Unit) -> float:
    mine, theirs = onmap.placement_of(state, charger), onmap.placement_of(state, target)
    assert mine is not None and theirs is not None
    goal, stop = footprint(theirs), engine.tables.distances.charge_stop
    turned = replace(mine, facing=bearing(mine.centre, theirs.centre))
    direction = onmap._direction(mine.centre, theirs.centre)
    if gap(footprint(turned), goal) <= stop + onmap.EPSILON:
        return 0.0
    low, high = 0.0, centre_distance(mine.centre, theirs.centre)
    for _ in range(40):
        middle = (low + high) / 2
        far = gap(footprint(onmap._shifted(turned, direction.x, direction.y, middle)), goal) > stop
        low, high = (middle, high) if far else (low, middle)
    return low


SPECS = [
    unit("1er Ligne", "French", "line", figures=12),
    unit("Hussars", "French", "mounted", figures=6),
    unit("33rd Foot", "Allied", "line", figures=12),
    unit("95th", "Allied", "light", figures=8, weapon="rifle"),
]


def scattered(engine: NsrEngine, spots: list[tuple[float, float, float]]) -> NsrState | None:
    """The four units of the test valley set down at ``spots`` (x, y, facing); None when that
    puts one off the table, in the pond or on another."""
    state = engine.start_on_map(SPECS, ScriptedDice(), read_map(TEST_MAP, engine.sides(), engine.terrain())).state
    field = onmap.field_of(state)
    for spec, (x, y, facing) in zip(SPECS, spots, strict=True):
        field.positions[spec.name] = [round(x, 2), round(y, 2)]
        field.facing[spec.name] = facing
    table = battlefield_of(field.map).table
    try:
        prints = onmap.footprints(state)
    except RuleError:
        return None
    pond = battlefield_of(field.map).features[0].geometry
    if any(not on_table(p, table) for u in state.units if (p := onmap.placement_of(state, u)) is not None):
        return None
    if any(overlaps(a, b) for a, b in itertools.combinations(prints.values(), 2)):
        return None
    return None if any(overlaps(p, pond) for p in prints.values()) else state


spot = st.tuples(st.floats(3, 45), st.floats(3, 33), st.sampled_from([0.0, 90.0, 180.0, 270.0, 33.0, 301.5]))


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(spots=st.lists(spot, min_size=4, max_size=4), heading=st.floats(0, 360), inches=st.floats(0.5, 24))
def test_a_slide_stops_where_the_halving_stopped_it(
    engine: NsrEngine, spots: list[tuple[float, float, float]], heading: float, inches: float
) -> None:
    state = scattered(engine, spots)
    if state is None:
        return
    mover = get(state, "1er Ligne")
    direction = Point(math.cos(math.radians(heading)), math.sin(math.radians(heading)))
    expected = halving_slide(engine, state, mover, direction, inches)
    placed = onmap.placement_of(state, mover)
    assert placed is not None
    end, _, stopped = onmap._slide(engine.tables, state, mover, placed, direction, inches)
    assert ((round(end.centre.x, 4), round(end.centre.y, 4)), stopped) == expected


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(spots=st.lists(spot, min_size=4, max_size=4))
def test_a_charge_stops_where_the_halving_stopped_it(
    engine: NsrEngine, spots: list[tuple[float, float, float]]
) -> None:
    state = scattered(engine, spots)
    if state is None:
        return
    charger, target = get(state, "1er Ligne"), get(state, "33rd Foot")
    try:
        way = onmap.charge_way(engine.tables, state, charger, target)
    except RuleError:
        return
    assert way.needed == pytest.approx(halving_charge(engine, state, charger, target), abs=1e-9)


def test_a_winner_already_against_the_ground_in_its_way_cannot_move_up(engine: NsrEngine) -> None:
    """Seed 3.A.1: the winner takes the loser's place as far as the ground lets it; when it cannot
    move at all, it says what is in the way and the unit stays (close combat words it as a win that
    cannot move up, not as a move of 0 inches)."""
    state = village(engine)
    spot = Point(*onmap.field_of(state).positions["Royal Scots"])
    gunners = get(state, "Gunners")
    assert onmap.take_place(engine.tables, state, gunners, spot)[1]
    against_the_barn = stands(state, "Gunners")[0]
    assert onmap.take_place(engine.tables, state, gunners, spot) == ("the barn is in the way", False)
    assert stands(state, "Gunners")[0] == against_the_barn
