"""A footprint sliding straight (rules.battlefield.formations): where outlines first come near
(``approach``), how far the swept ground stays clear (``slide_stops``), the table's edge, and the
corners of many units at once; hand-worked cases and random ones against shapely's own measure."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon, box

from rules.battlefield.formations import (
    UnitPlacement,
    approach,
    behind,
    corners,
    corners_of,
    figure_points,
    figure_xy,
    footprint,
    gap,
    ring_edges,
    slide_stops,
    table_limit,
)
from rules.geometry import Point, Table

ONE = np.zeros(1, dtype=np.intp)


def square(x: float, y: float, side: float = 2.0) -> np.ndarray:
    return np.array([(x, y), (x + side, y), (x + side, y + side), (x, y + side)], dtype=float)


def stops(moving: np.ndarray, heading: tuple[float, float], inches: float, *shapes: Polygon) -> list[float]:
    outlines = [ring_edges(np.array(s.exterior.coords[:-1])) for s in shapes]
    starts = np.cumsum([0, *[len(o) for o in outlines[:-1]]]).astype(np.intp)
    found = slide_stops(moving, heading, inches, np.array(shapes, dtype=object), np.vstack(outlines), starts)
    return [float(v) for v in found]


def test_approach_is_the_gap_less_the_distance_kept() -> None:
    """Two 2-inch squares 8 inches apart, one going straight at the other: 8 to touch, 6 to stop 2 off."""
    goal = ring_edges(square(10, 0))
    assert approach(square(0, 0), (1.0, 0.0), goal, ONE)[0] == pytest.approx(8.0)
    assert approach(square(0, 0), (1.0, 0.0), goal, ONE, 2.0)[0] == pytest.approx(6.0)
    assert approach(square(0, 0), (-1.0, 0.0), goal, ONE)[0] == math.inf
    assert approach(square(0, 0), (1.0, 0.0), goal, ONE, 9.0)[0] == 0.0


def test_approach_corner_to_corner_is_measured_round_the_corner() -> None:
    """Diagonally past each other: the band's round end at the far corner is what it meets."""
    meets = approach(square(0, 0), (1.0, 0.0), ring_edges(square(10, 4)), ONE, 3.0)[0]
    assert meets == pytest.approx(8.0 - math.sqrt(3.0**2 - 2.0**2))


@settings(max_examples=60, deadline=None)
@given(
    x=st.floats(-20, 20),
    y=st.floats(-20, 20),
    turn=st.floats(0, 90),
    heading=st.floats(0, 360),
    within=st.sampled_from([0.0, 0.5, 2.0]),
)
def test_approach_agrees_with_shapely_distance(x: float, y: float, turn: float, heading: float, within: float) -> None:
    moving = square(0, 0, 3.0)
    other = np.array(shapely.affinity.rotate(box(x, y, x + 4, y + 1.5), turn).exterior.coords[:-1])
    if shapely.distance(Polygon(moving), Polygon(other)) <= within + 1e-6:
        return
    d = (math.cos(math.radians(heading)), math.sin(math.radians(heading)))
    meets = approach(moving, d, ring_edges(other), ONE, within)[0]
    if math.isinf(meets):
        far = Polygon(moving + 100 * np.array(d))
        assert shapely.distance(shapely.convex_hull(Polygon(moving).union(far)), Polygon(other)) > within - 1e-9
        return
    there = Polygon(moving + meets * np.array(d))
    assert shapely.distance(there, Polygon(other)) == pytest.approx(within, abs=1e-9)
    before = Polygon(moving + max(0.0, meets - 1e-6) * np.array(d))
    assert shapely.distance(before, Polygon(other)) > within


def test_a_slide_stops_at_the_first_thing_in_its_way_and_not_at_the_next() -> None:
    """Its 2-inch front meets the wall after 4 inches; the overlap counts once it is a millionth of
    a square inch, half a millionth of an inch further."""
    wall, beyond = box(6, -1, 7, 3), box(9, -1, 10, 3)
    found = stops(square(0, 0), (1.0, 0.0), 20.0, wall, beyond)
    assert found[0] == pytest.approx(4.0 + 5e-7, abs=1e-10) and found[1] == math.inf


def test_sliding_along_an_edge_or_away_from_a_touching_one_is_not_stopped() -> None:
    beside = box(0, 2, 20, 4)
    assert stops(square(0, 0), (1.0, 0.0), 10.0, beside) == [math.inf]
    assert stops(square(0, 0), (0.0, -1.0), 10.0, beside) == [math.inf]
    assert stops(square(0, 0), (0.0, 1.0), 10.0, beside) == [pytest.approx(5e-7, abs=1e-10)]


def test_a_corner_into_an_edge_stops_where_the_overlap_first_counts() -> None:
    """A square turned 45 degrees meets a wall with its corner: it stops with the triangle it would
    push in no larger than a millionth of a square inch (a thousandth of an inch deep)."""
    diamond = np.array([(0.0, 1.0), (1.0, 0.0), (2.0, 1.0), (1.0, 2.0)])
    [stop] = stops(diamond, (1.0, 0.0), 10.0, box(5, -5, 6, 5))
    assert stop == pytest.approx(3.0 + 1e-3, abs=1e-6)


def test_table_limit_is_where_the_footprint_would_stand_off_it() -> None:
    table = Table(48, 36)
    assert table_limit(square(10, 10), (1.0, 0.0), table) == pytest.approx(36.0 + 1e-6)
    assert table_limit(square(10, 10), (0.0, -1.0), table) == pytest.approx(10.0 + 1e-6)
    assert table_limit(square(10, 10), (0.6, 0.8), table) == pytest.approx((24.0 + 1e-6) / 0.8)


def test_the_corners_of_many_units_are_each_units_corners() -> None:
    placements = [
        UnitPlacement(Point(10, 10), 33.0, "line", 12),
        UnitPlacement(Point(20, 5), 270.0, "march_column", 9, mounted=True),
        UnitPlacement(Point(30, 20), 0.0, "manhandled", 6, guns=2),
    ]
    many = corners_of(placements)
    for placed, four in zip(placements, many, strict=True):
        assert np.allclose(four, corners(placed)) and footprint(placed).equals(Polygon(four))
    assert corners_of([]).shape == (0, 4, 2)


def test_behind_reads_the_rear_as_aspect_does() -> None:
    placed = UnitPlacement(Point(10, 10), 90.0, "line", 12)
    points = np.array([(10, 8.9), (10, 9.1), (30, 5), (10, 20)], dtype=float)
    assert behind(placed, points).tolist() == [True, False, True, False]
    assert not behind(UnitPlacement(Point(10, 10), 90.0, "square", 12), points).any()
    assert np.allclose(figure_xy(placed), [(p.x, p.y) for p in figure_points(placed)])
    assert gap(footprint(placed), Polygon(square(30, 30))) > 0
