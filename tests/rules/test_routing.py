"""The way round other bases (rules.geometry.routing): a leg through a base becomes the cheapest
path round it, clear of every base, on the table and off impassable ground; none when the end is
walled in or stands on a base."""

from __future__ import annotations

import math
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.geometry import Base, Point, bases_crossed, path_cost
from rules.geometry.routing import legs_round
from tests.rules.test_geometry import base, field, square

COSTS: dict[str, float | None] = {"building": None, "wood": 2.0}


def length(path: list[Point]) -> float:
    return sum(math.hypot(a.x - b.x, a.y - b.y) for a, b in pairwise(path))


def tightest_way_round(start: Point, end: Point, centre: Point, reach: float) -> float:
    """Two tangents and the arc between them, for a leg whose middle is the centre of a circle."""
    d = math.hypot(start.x - centre.x, start.y - centre.y)
    tangent = math.sqrt(d * d - reach * reach)
    arc = (math.pi - 2 * math.acos(reach / d)) * reach
    return 2 * tangent + arc


def test_a_base_in_the_way_is_gone_round_within_a_few_hundredths_of_the_tightest_path() -> None:
    start, end = Point(10, 10), Point(10, 16)
    others = {"Garcia": base(10, 13)}
    found = legs_round(field(), COSTS, [start, end], 0.5, others)
    assert found is not None
    path, round_ = found
    assert round_ == ["Garcia"] and path[0] == start and path[-1] == end
    assert not bases_crossed(path, 0.5, others)
    assert (
        tightest_way_round(start, end, Point(10, 13), 1.0)
        <= length(path)
        <= tightest_way_round(start, end, Point(10, 13), 1.0) + 0.1
    )


def test_a_leg_that_crosses_no_base_is_left_alone_and_only_the_blocked_leg_changes() -> None:
    path = [Point(2, 2), Point(8, 2), Point(8, 10)]
    found = legs_round(field(), COSTS, path, 0.5, {"Doc": base(8, 6)})
    assert found is not None
    assert found[0][:2] == path[:2] and found[0][-1] == path[-1] and len(found[0]) > 3 and found[1] == ["Doc"]


def test_the_way_round_keeps_off_a_building_beside_the_base() -> None:
    """A building hard against the base's west side: the way round goes east, and the ground it
    crosses is open (the building is never entered)."""
    the_field = field(square("building", 4, 8, 9.4, 18))
    found = legs_round(the_field, COSTS, [Point(10, 5), Point(10, 15)], 0.5, {"Tex": base(10, 10)})
    assert found is not None
    assert all(p.x >= 10 - 1e-9 for p in found[0])
    assert path_cost(the_field, found[0], COSTS) == length(found[0])


def test_a_way_round_stays_on_the_table() -> None:
    found = legs_round(field(width=20, height=20), COSTS, [Point(0.6, 2), Point(0.6, 8)], 0.5, {"Kid": base(0.6, 5)})
    assert found is not None and all(0 <= p.x <= 20 for p in found[0])


def test_no_way_round_when_the_end_is_walled_in_or_on_a_base() -> None:
    ring = {f"r{k}": base(10 + 2 * math.cos(k * math.pi / 4), 10 + 2 * math.sin(k * math.pi / 4)) for k in range(8)}
    assert legs_round(field(), COSTS, [Point(2, 10), Point(10, 10)], 0.5, ring) is None
    assert legs_round(field(), COSTS, [Point(2, 2), Point(10, 2)], 0.5, {"Hank": base(10, 2.6)}) is None


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.floats(4, 16, allow_nan=False), st.floats(4, 16, allow_nan=False)), min_size=1, max_size=6),
    st.floats(1, 19, allow_nan=False),
)
def test_any_way_round_found_is_clear_of_every_base_and_on_the_table(
    centres: list[tuple[float, float]], end_y: float
) -> None:
    others = {f"b{i}": Base(Point(x, y), 0.5) for i, (x, y) in enumerate(centres)}
    start, end = Point(10, 1), Point(10, end_y)
    if any(math.hypot(p.x - b.centre.x, p.y - b.centre.y) < 1.0 for b in others.values() for p in (start, end)):
        return
    found = legs_round(field(width=20, height=20), COSTS, [start, end], 0.5, others)
    if found is None:
        return
    path, _ = found
    assert path[0] == start and path[-1] == end
    assert not bases_crossed(path, 0.5, others)
    assert all(0 <= p.x <= 20 and 0 <= p.y <= 20 for p in path)
