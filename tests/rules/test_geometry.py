"""The battlefield's geometry against hand-worked answers, bad input refused with a sentence, and
properties over random maps and positions."""

from __future__ import annotations

import math
import time
from itertools import pairwise

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point as ShapelyPoint

from rules.geometry import (
    MAX_FEATURES,
    MAX_POINTS,
    Base,
    Battlefield,
    Feature,
    Point,
    Table,
    bases_crossed,
    centre_distance,
    cover,
    edge_distance,
    features_at,
    in_contact,
    path_cost,
    path_length,
    sight,
    stop_on_approach,
    target_points,
    within,
)
from rules.plain import from_data, to_data
from rules.vocabulary import DataError, RuleError

BLOCKING = {"building", "wood", "hedge", "wall"}


def pts(*xy: tuple[float, float]) -> tuple[Point, ...]:
    return tuple(Point(x, y) for x, y in xy)


def square(kind: str, x0: float, y0: float, x1: float, y1: float, name: str = "") -> Feature:
    return Feature(kind, pts((x0, y0), (x1, y0), (x1, y1), (x0, y1)), name=name)


def wall(kind: str, a: tuple[float, float], b: tuple[float, float], thickness: float = 0.2) -> Feature:
    return Feature(kind, pts(a, b), shape="line", thickness=thickness)


def base(x: float, y: float, radius: float = 0.5) -> Base:
    return Base(Point(x, y), radius)


def field(*features: Feature, width: float = 36, height: float = 36) -> Battlefield:
    return Battlefield(Table(width, height), features)


# --- distances and contact ------------------------------------------------------------------------


def test_centre_distance_is_a_3_4_5_triangle() -> None:
    assert centre_distance(Point(0, 0), Point(3, 4)) == pytest.approx(5.0)
    assert centre_distance(base(1, 1), base(4, 5)) == pytest.approx(5.0)


def test_edge_distance_of_two_half_inch_bases_three_inches_apart_is_two() -> None:
    assert edge_distance(base(0, 0), base(3, 0)) == pytest.approx(2.0)


def test_edge_distance_is_never_negative_when_bases_overlap() -> None:
    assert edge_distance(base(0, 0), base(0.4, 0)) == 0.0


def test_within_one_inch_is_centre_to_centre_and_includes_the_inch() -> None:
    assert within(base(0, 0), base(1, 0), 1)
    assert within(base(0, 0), base(0.6, 0.8), 1)
    assert not within(base(0, 0), base(1.01, 0), 1)


def test_bases_touching_are_in_contact_within_a_small_tolerance() -> None:
    assert in_contact(base(0, 0), base(1, 0))
    assert in_contact(base(0, 0), base(1.03, 0))
    assert in_contact(base(0, 0), base(0.8, 0))
    assert not in_contact(base(0, 0), base(1.2, 0))


# --- paths ----------------------------------------------------------------------------------------

WOOD = square("wood", 8, 8, 16, 16)
COSTS: dict[str, float | None] = {"wood": 2.0, "water": None}


def test_path_length_through_waypoints() -> None:
    assert path_length(pts((0, 0), (3, 4), (3, 10))) == pytest.approx(11.0)
    assert path_length(pts((2, 2))) == 0.0


def test_a_path_through_a_wood_costs_double_inside_it() -> None:
    through = pts((4, 12), (20, 12))
    assert path_length(through) == pytest.approx(16.0)
    assert path_cost(field(WOOD), through, COSTS) == pytest.approx(4 + 8 * 2 + 4)


def test_a_path_that_doubles_back_through_the_wood_pays_both_ways() -> None:
    assert path_cost(field(WOOD), pts((4, 12), (20, 12), (4, 12)), COSTS) == pytest.approx(48.0)


def test_a_path_around_the_wood_costs_its_length_and_is_cheaper() -> None:
    around = pts((4, 12), (8, 17), (16, 17), (20, 12))
    assert path_cost(field(WOOD), around, COSTS) == pytest.approx(2 * math.hypot(4, 5) + 8)
    assert path_cost(field(WOOD), around, COSTS) < path_cost(field(WOOD), pts((4, 12), (20, 12)), COSTS)


def test_overlapping_features_cost_the_dearest_once() -> None:
    rough = square("rough", 12, 8, 20, 16)
    costs: dict[str, float | None] = {"wood": 2.0, "rough": 1.5}
    # 4 open, 4 wood only, 4 wood and rough (wood's 2 applies), 4 rough only, 2 open.
    assert path_cost(field(WOOD, rough), pts((4, 12), (22, 12)), costs) == pytest.approx(4 + 8 + 8 + 6 + 2)


def test_walking_along_the_edge_of_a_wood_or_water_is_open_ground() -> None:
    edge = pts((4, 16), (20, 16))
    assert path_cost(field(WOOD), edge, COSTS) == pytest.approx(16.0)
    assert path_cost(field(square("water", 8, 8, 16, 16)), edge, COSTS) == pytest.approx(16.0)


def test_a_kind_without_a_cost_costs_its_length() -> None:
    assert path_cost(field(square("road", 8, 8, 16, 16)), pts((4, 12), (20, 12)), COSTS) == pytest.approx(16.0)


def test_a_path_through_water_is_refused_and_one_around_it_is_not() -> None:
    water = square("water", 8, 8, 16, 16, name="the mill pond")
    with pytest.raises(RuleError, match="the mill pond"):
        path_cost(field(water), pts((4, 12), (20, 12)), COSTS)
    assert path_cost(field(water), pts((4, 12), (8, 17), (16, 17), (20, 12)), COSTS) > 0


def test_a_path_off_the_table_is_refused() -> None:
    with pytest.raises(RuleError, match="off the 36 by 36 inch table"):
        path_cost(field(), pts((4, 12), (40, 12)), COSTS)


def test_a_path_through_another_figures_base_is_found_nearest_first() -> None:
    others = {"Big Jim": base(5, 0.5), "Rossi": base(2, -0.2), "Far": base(5, 3)}
    assert bases_crossed(pts((0, 0), (10, 0)), 0.5, others) == ["Rossi", "Big Jim"]


def test_a_path_past_a_base_just_touching_does_not_cross_it() -> None:
    assert bases_crossed(pts((0, 0), (10, 0)), 0.5, {"Big Jim": base(5, 1.0)}) == []


def test_ssg_stops_a_figure_on_coming_within_one_inch_of_an_enemy() -> None:
    stop = stop_on_approach(pts((0, 0), (10, 0)), [Point(6, 0)], 1.0)
    assert stop is not None
    assert (stop.point.x, stop.point.y, stop.travelled) == pytest.approx((5.0, 0.0, 5.0))


def test_the_stop_on_a_slanting_approach_and_on_a_later_leg() -> None:
    slanting = stop_on_approach(pts((0, 0), (10, 0)), [Point(6, 0.6)], 1.0)
    assert slanting is not None and slanting.travelled == pytest.approx(5.2)
    later = stop_on_approach(pts((0, 0), (4, 0), (4, 10)), [Point(4.6, 6), Point(30, 30)], 1.0)
    assert later is not None
    assert (later.point.x, later.point.y, later.travelled) == pytest.approx((4.0, 5.2, 9.2))


def test_no_stop_when_the_path_stays_clear_or_starts_within_reach() -> None:
    assert stop_on_approach(pts((0, 0), (10, 0)), [Point(5, 3)], 1.0) is None
    assert stop_on_approach(pts((0, 0), (10, 0)), [Point(0.5, 0)], 1.0) is None


# --- sight and cover ------------------------------------------------------------------------------

SHOOTER = base(4, 10)
TARGET = base(20, 10)


def test_sight_is_clear_over_open_ground() -> None:
    assert sight(field(), SHOOTER, TARGET, BLOCKING).kind == "clear"
    assert sight(field(square("road", 8, 8, 16, 12)), SHOOTER, TARGET, BLOCKING).kind == "clear"


def test_a_building_between_blocks_sight() -> None:
    result = sight(field(square("building", 10, 8, 14, 12)), SHOOTER, TARGET, BLOCKING)
    assert result.kind == "blocked"
    assert result.feature == "the building"
    assert result.in_front == pytest.approx(6.0)


def test_a_hedge_near_the_target_hiding_some_lines_gives_partial_sight() -> None:
    hedge = wall("hedge", (19, 10.1), (19, 14))
    result = sight(field(hedge), SHOOTER, TARGET, BLOCKING)
    assert result.kind == "partial"
    assert result.feature == "the hedge"
    assert result.in_front is not None and 0.9 < result.in_front < 1.0
    assert result.describe("Big Jim").startswith("partial: the hedge 0.9″ in front of Big Jim")


def test_a_hedge_near_the_shooter_hiding_some_lines_costs_nothing() -> None:
    hedge = wall("hedge", (5, 10.01), (5, 14))
    hidden = [p for p in target_points(SHOOTER.centre, TARGET) if p.y > 10 + 0.01 * 16 + 0.1]
    assert hidden, "the hedge hides some of the lines"
    assert sight(field(hedge), SHOOTER, TARGET, BLOCKING).kind == "clear"


def test_terrain_hiding_every_line_blocks_wherever_it_stands() -> None:
    near_shooter = wall("wall", (5.5, 8), (5.5, 12))
    near_target = wall("wall", (18.5, 8), (18.5, 12))
    assert sight(field(near_shooter), SHOOTER, TARGET, BLOCKING).kind == "blocked"
    assert sight(field(near_target), SHOOTER, TARGET, BLOCKING).kind == "blocked"


def test_two_features_that_hide_every_line_between_them_block() -> None:
    upper = wall("hedge", (12, 10.0), (12, 14))
    lower = wall("hedge", (12, 10.0), (12, 6))
    assert sight(field(upper, lower), SHOOTER, TARGET, BLOCKING).kind == "blocked"


def test_only_the_kinds_named_block_sight() -> None:
    assert sight(field(square("building", 10, 8, 14, 12)), SHOOTER, TARGET, {"wood"}).kind == "clear"


def test_sight_from_the_helmet_is_not_symmetric_for_a_post_beside_the_shooter() -> None:
    """A-SSG-6 draws the lines from the shooter's centre: a post just in front of it hides them all,
    while from the other end the lines fan out across the whole base and only some meet it, near
    the target now: partial."""
    post = square("building", 4.6, 9.9, 4.8, 10.1)
    assert sight(field(post), SHOOTER, TARGET, BLOCKING).kind == "blocked"
    assert sight(field(post), TARGET, SHOOTER, BLOCKING).kind == "partial"


def test_cover_lists_the_features_crossed_nearest_the_target_first() -> None:
    wood = square("wood", 8, 8, 12, 12)
    hedge = wall("hedge", (19, 8), (19, 12))
    barn = square("building", 30, 30, 34, 34)
    crossed = cover(field(wood, hedge, barn), SHOOTER, TARGET)
    assert [(c.kind, c.feature) for c in crossed] == [("hedge", "the hedge"), ("wood", "the wood")]
    assert crossed[0].from_target == pytest.approx(0.9)
    assert crossed[1].from_target == pytest.approx(8.0)


def test_features_at_a_point() -> None:
    wood = square("wood", 8, 8, 12, 12)
    assert features_at(field(wood), Point(10, 10)) == [wood]
    assert features_at(field(wood), Point(20, 10)) == []


# --- plain data and bad input ---------------------------------------------------------------------


def test_a_battlefield_goes_to_plain_data_and_back() -> None:
    original = field(square("wood", 8, 8, 12, 12, name="Oak copse"), wall("hedge", (19, 8), (19, 12)))
    data = to_data(original)
    assert data["features"][1] == {
        "kind": "hedge",
        "points": [{"x": 19.0, "y": 8.0}, {"x": 19.0, "y": 12.0}],
        "shape": "line",
        "thickness": 0.2,
        "name": "",
    }
    assert from_data(Battlefield, data) == original


@pytest.mark.parametrize(
    ("build", "sentence"),
    [
        (lambda: Point(math.nan, 1), "a point's x must be a finite number of inches, not nan"),
        (lambda: Point(1, math.inf), "a point's y must be a finite number"),
        (lambda: Point(1e308, 1), "a point's x is 1e\\+308 inches; nothing on a table is more than 1000"),
        (lambda: Table(0, 10), "the table's width must be at least 1 inch"),
        (lambda: base(1, 1, 0), "a base's radius must be at least 0.01"),
        (lambda: Feature("wood", pts((0, 0), (4, 4), (4, 0), (0, 4))), "the wood's outline crosses itself"),
        (lambda: Feature("wood", pts((0, 0), (4, 4))), "the wood is an area and needs at least 3 points"),
        (lambda: Feature("pond", pts((0, 0), (2, 2), (4, 4))), "the pond's outline encloses no ground"),
        (lambda: wall("hedge", (1, 1), (4, 4), thickness=0), "the hedge's thickness must be at least 0.01"),
        (lambda: Feature("", pts((0, 0), (1, 0), (0, 1))), "needs a kind"),
        (lambda: field(square("wood", 30, 30, 40, 34)), r"a point of the wood \(40.0,30.0\) is off the 36 by 36"),
        (lambda: Feature("wood", pts(*[(i % 2, i) for i in range(MAX_POINTS + 1)]), shape="line", thickness=1), "201"),
        (lambda: field(*[square("wood", 1, 1, 2, 2)] * (MAX_FEATURES + 1)), "501 features; a map may have at most"),
    ],
)
def test_bad_input_is_refused_with_a_sentence(build: object, sentence: str) -> None:
    with pytest.raises(DataError, match=sentence):
        build()  # type: ignore[operator]


def test_a_bad_map_file_is_refused_when_loaded() -> None:
    data = to_data(field(square("wood", 8, 8, 12, 12)))
    data["features"][0]["points"][0]["x"] = 1e308
    with pytest.raises(DataError, match="nothing on a table"):
        from_data(Battlefield, data)
    data["features"][0]["points"][0]["x"] = 8
    data["features"][0]["points"][1]["x"] = 50
    with pytest.raises(DataError, match="off the 36 by 36 inch table"):
        from_data(Battlefield, data)


def test_a_path_needs_two_points_to_cross_anything() -> None:
    assert bases_crossed(pts((0, 0)), 0.5, {"Big Jim": base(0, 0)}) == []
    assert path_cost(field(), pts((1, 1)), COSTS) == 0.0


# --- properties over random maps ------------------------------------------------------------------

KINDS = ("wood", "building", "hedge", "water", "road")


@st.composite
def battlefields(draw: st.DrawFn) -> Battlefield:
    width = draw(st.floats(12, 72))
    height = draw(st.floats(12, 72))
    coordinate_x = st.floats(0, width)
    coordinate_y = st.floats(0, height)
    features = []
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(KINDS))
        x0, x1 = sorted((draw(coordinate_x), draw(coordinate_x)))
        y0, y1 = sorted((draw(coordinate_y), draw(coordinate_y)))
        if draw(st.booleans()) and x1 - x0 > 0.01 and y1 - y0 > 0.01:
            features.append(square(kind, x0, y0, x1, y1))
        elif math.hypot(x1 - x0, y1 - y0) > 0.01:
            features.append(wall(kind, (x0, y0), (x1, y1), draw(st.floats(0.05, 2))))
    return Battlefield(Table(width, height), tuple(features))


@st.composite
def scenes(draw: st.DrawFn) -> tuple[Battlefield, Base, Base]:
    where = draw(battlefields())
    radius = st.floats(0.2, 1.5)
    a = Base(Point(draw(st.floats(0, where.table.width)), draw(st.floats(0, where.table.height))), draw(radius))
    b = Base(Point(draw(st.floats(0, where.table.width)), draw(st.floats(0, where.table.height))), draw(radius))
    return where, a, b


@settings(max_examples=150, deadline=None)
@given(scenes())
def test_valid_input_never_raises_and_distances_are_never_negative(scene: tuple[Battlefield, Base, Base]) -> None:
    where, a, b = scene
    assert centre_distance(a, b) >= 0 and edge_distance(a, b) >= 0
    assert centre_distance(a, b) == pytest.approx(centre_distance(b, a))
    assert in_contact(a, b) == in_contact(b, a)
    result = sight(where, a, b, BLOCKING)
    assert result.kind in ("clear", "partial", "blocked")
    assert result.in_front is None or result.in_front >= 0
    assert all(c.from_target >= 0 for c in cover(where, a, b))
    path = [a.centre, b.centre, a.centre]
    assert bases_crossed(path, a.radius, {"b": b}) in ([], ["b"])
    try:
        cost = path_cost(where, path, {"wood": 2.0, "hedge": 1.5, "water": None})
    except RuleError as refused:
        assert "cannot be crossed" in refused.message
    else:
        assert cost >= path_length(path) - 1e-9
    stop = stop_on_approach(path, [b.centre], 1.0)
    assert stop is None or 0 <= stop.travelled <= path_length(path) + 1e-9


def _blocking_ground(where: Battlefield) -> shapely.Geometry:
    return shapely.union_all([f.geometry for f in where.features if f.kind in BLOCKING])


def _disc(b: Base) -> shapely.Geometry:
    return ShapelyPoint(b.centre.x, b.centre.y).buffer(b.radius)


@settings(max_examples=150, deadline=None)
@given(scenes())
def test_nothing_between_the_bases_means_clear_both_ways(scene: tuple[Battlefield, Base, Base]) -> None:
    where, a, b = scene
    hull = shapely.union_all([_disc(a), _disc(b)]).convex_hull
    if not hull.intersects(_blocking_ground(where)):
        assert sight(where, a, b, BLOCKING).kind == "clear"
        assert sight(where, b, a, BLOCKING).kind == "clear"


@st.composite
def separated_scenes(draw: st.DrawFn) -> tuple[Battlefield, Base, Base]:
    """A wall right across the table, one figure each side of it, and random terrain besides."""
    where, _, _ = draw(scenes())
    w, h = where.table.width, where.table.height
    y = draw(st.floats(3, h - 3))
    across = wall(draw(st.sampled_from(sorted(BLOCKING))), (0, y), (w, y), draw(st.floats(0.05, 1)))
    radius = st.floats(0.2, 1.0)
    # Kept a base's width from the side edges, so no line can pass round the end of the wall.
    below = Base(Point(draw(st.floats(1, w - 1)), draw(st.floats(0, y - 2.1))), draw(radius))
    above = Base(Point(draw(st.floats(1, w - 1)), draw(st.floats(y + 2.1, h))), draw(radius))
    return Battlefield(where.table, (*where.features, across)), below, above


@settings(max_examples=150, deadline=None)
@given(separated_scenes())
def test_terrain_that_separates_the_bases_blocks_both_ways(scene: tuple[Battlefield, Base, Base]) -> None:
    where, a, b = scene
    assert sight(where, a, b, BLOCKING).kind == "blocked"
    assert sight(where, b, a, BLOCKING).kind == "blocked"


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 36), st.floats(0, 36)), min_size=2, max_size=5),
    st.lists(st.tuples(st.floats(0, 36), st.floats(0, 36)), min_size=1, max_size=4),
    st.floats(0.5, 3),
)
def test_the_stop_is_the_first_point_that_comes_within_reach(
    path_xy: list[tuple[float, float]], enemies_xy: list[tuple[float, float]], reach: float
) -> None:
    path, enemies = pts(*path_xy), pts(*enemies_xy)
    stop = stop_on_approach(path, enemies, reach)
    watched = [
        q for q in enemies if centre_distance(path[0], q) > reach + 1e-9
    ]  # as stop_on_approach reads "already near"
    if stop is None:
        return
    assert min(centre_distance(stop.point, q) for q in watched) == pytest.approx(reach, abs=1e-6)
    # Every point walked before the stop stays out of reach of the enemies watched.
    walked = 0.0
    for a, b in pairwise(path):
        step = centre_distance(a, b)
        for i in range(1, 20):
            along = walked + step * i / 20
            if along >= stop.travelled - 1e-6:
                break
            here = Point(a.x + (b.x - a.x) * i / 20, a.y + (b.y - a.y) * i / 20)
            assert all(centre_distance(here, q) > reach - 1e-6 for q in watched)
        walked += step


# --- speed ----------------------------------------------------------------------------------------


def _time_a_check(where: Battlefield, shooter: Base, target: Base, rounds: int = 300) -> float:
    sight(where, shooter, target, BLOCKING)
    started = time.perf_counter()
    for _ in range(rounds):
        centre_distance(shooter, target)
        sight(where, shooter, target, BLOCKING)
    return (time.perf_counter() - started) / rounds


def test_timing_of_a_range_and_sight_check_on_a_map_of_thirty_features() -> None:
    """Printed, not asserted (the issue's target is under 1 ms): run with -s to see it."""
    spread = [square("wood", 2 + 5 * (i % 6), 2 + 6 * (i // 6), 4 + 5 * (i % 6), 4 + 6 * (i // 6)) for i in range(15)]
    spread += [
        wall("hedge", (3 + 5 * (i % 6), 5 + 6 * (i // 6)), (5 + 5 * (i % 6), 6 + 6 * (i // 6))) for i in range(15)
    ]
    # The worst case: thirty hedges all across the lines, each hiding some of them.
    crowded = [wall("hedge", (2 + i, 10.05 + 0.01 * (i % 3)), (2 + i, 14)) for i in range(30)]
    across_the_map = _time_a_check(field(*spread), base(1, 1), base(33, 31))
    all_in_the_way = _time_a_check(field(*crowded), base(1, 10), base(34, 10))
    print(
        f"\nrange and sight with 30 features: {across_the_map * 1000:.3f} ms a check across the map, "
        f"{all_in_the_way * 1000:.3f} ms with all 30 in the way"
    )
    assert sight(field(*crowded), base(1, 10), base(34, 10), BLOCKING).kind == "partial"
