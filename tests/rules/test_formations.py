"""NSR units on the map (rules.battlefield.formations): hand-worked footprints of the seed's
formations, measuring between units, refusals, and properties over random placements."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon, box

from rules.battlefield.formations import (
    FORMATIONS,
    FormationSpec,
    UnitPlacement,
    aspect,
    charge_distance,
    check_on_table,
    figure_bases,
    figure_points,
    figures_within,
    footprint,
    front_area,
    front_edge,
    gap,
    gun_points,
    most_inside,
    on_table,
    overlaps,
    reform,
    size,
    within_inches,
)
from rules.geometry import Point, Table
from rules.vocabulary import DataError, RuleError

TABLE = Table(48, 36)


def unit(
    formation: str,
    figures: int,
    x: float = 24,
    y: float = 12,
    facing: float = 90,
    mounted: bool = False,
    guns: int = 0,
) -> UnitPlacement:
    return UnitPlacement(Point(x, y), facing, formation, figures, mounted, guns)


def xy(points: list[Point]) -> list[tuple[float, float]]:
    return [(p.x, p.y) for p in points]


def bounds(placement: UnitPlacement) -> tuple[float, ...]:
    return tuple(round(v, 9) for v in footprint(placement).bounds)


# --- hand-worked footprints -------------------------------------------------------------------


def test_a_12_figure_line_is_two_ranks_of_six() -> None:
    line = unit("line", 12)
    assert size(line) == (6.0, 2.0)
    assert bounds(line) == (21.0, 11.0, 27.0, 13.0)
    assert xy(figure_points(line)) == [(x + 0.5, 12.5) for x in range(21, 27)] + [
        (x + 0.5, 11.5) for x in range(21, 27)
    ]
    assert footprint(line).area == pytest.approx(12.0)


def test_a_line_facing_east_runs_north_to_south() -> None:
    line = unit("line", 12, facing=0)
    assert bounds(line) == (23.0, 9.0, 25.0, 15.0)
    # The front rank (east), from the unit's left (north) to its right.
    assert xy(figure_points(line))[:6] == [(24.5, y - 0.5) for y in range(15, 9, -1)]
    assert [tuple(round(v, 9) for v in c) for c in front_edge(line).coords] == [(25.0, 15.0), (25.0, 9.0)]


def test_an_odd_line_has_a_centred_short_rear_rank() -> None:
    line = unit("line", 11)
    assert size(line) == (6.0, 2.0)
    assert xy(figure_points(line))[6:] == [(x + 1.0, 11.5) for x in range(21, 26)]


def test_march_columns_four_files_foot_three_mounted() -> None:
    assert size(unit("march_column", 12)) == (4.0, 3.0)
    assert size(unit("march_column", 20)) == (4.0, 5.0)
    assert size(unit("march column", 3)) == (3.0, 1.0)
    column = unit("march_column", 12, mounted=True)
    assert size(column) == (3.0, 8.0)
    assert bounds(column) == (22.5, 8.0, 25.5, 16.0)
    assert xy(figure_points(column))[:3] == [(23.0, 15.0), (24.0, 15.0), (25.0, 15.0)]


def test_a_mounted_line_is_one_rank() -> None:
    assert size(unit("line", 12, mounted=True)) == (12.0, 2.0)


def test_a_12_figure_square_is_the_seeds_hollow_four_by_four() -> None:
    square = unit("square", 12)
    assert size(square) == (4.0, 4.0)
    assert bounds(square) == (22.0, 10.0, 26.0, 14.0)
    points = set(xy(figure_points(square)))
    ring = {(x + 0.5, y + 0.5) for x in range(22, 26) for y in range(10, 14)} - {
        (23.5, 11.5),
        (24.5, 11.5),
        (23.5, 12.5),
        (24.5, 12.5),
    }
    assert points == ring
    assert size(unit("square", 20)) == (6.0, 6.0)
    assert len(set(xy(figure_points(unit("square", 15))))) == 15


def test_open_order_two_staggered_ranks_an_inch_apart() -> None:
    skirmishers = unit("open_order", 12)
    assert size(skirmishers) == (12.0, 3.0)
    assert bounds(skirmishers) == (18.0, 10.5, 30.0, 13.5)
    assert xy(figure_points(skirmishers)) == [(18.5 + 2 * i, 13.0) for i in range(6)] + [
        (19.5 + 2 * i, 11.0) for i in range(6)
    ]
    bases = figure_bases(skirmishers)
    nearest = min(gap(a, b) for i, a in enumerate(bases) for b in bases[i + 1 :])
    assert nearest == pytest.approx(1.0)
    assert size(unit("open_order", 6, mounted=True)) == (11.0, 2.0)
    assert size(unit("open_order", 1)) == (1.0, 1.0)


def test_guns_in_action_and_limbered() -> None:
    gun = unit("manhandled", 4, guns=1)
    assert size(gun) == (4.0, 3.0)
    assert xy(gun_points(gun)) == [(24.0, 12.5)]
    assert xy(figure_points(gun)) == [(22.5, 12.5), (25.5, 12.5), (23.5, 11.0), (24.5, 11.0)]
    gun_base = shapely.box(23, 11.5, 25, 13.5)
    assert all(gap(base, gun_base) <= 1.0 for base in figure_bases(gun))  # "within one inch"
    limbered = reform(gun, "limbered")
    assert size(limbered) == (2.0, 6.0)
    assert xy(figure_points(limbered)) == [(24.0, 14.5), (24.0, 13.5), (24.0, 12.5), (24.0, 11.5)]
    assert xy(gun_points(limbered)) == [(24.0, 10.0)]  # behind its crew's single file
    battery = unit("manhandled", 8, guns=2)
    assert size(battery) == (8.0, 3.0)
    assert xy(gun_points(battery)) == [(22.0, 12.5), (26.0, 12.5)]


def test_a_spec_from_tables_changes_the_sizes() -> None:
    spec = FormationSpec(foot_frontage=0.8, foot_depth=0.8, column_files=2, open_order_gap=2.0)
    assert size(unit("line", 12), spec) == pytest.approx((4.8, 1.6))
    assert size(unit("march_column", 12), spec) == pytest.approx((1.6, 4.8))
    assert size(unit("open_order", 4), spec) == pytest.approx((0.8 + 2.8 + 1.4, 3.6))


# --- measuring --------------------------------------------------------------------------------


def test_edge_to_edge_between_two_lines_and_the_charge() -> None:
    french = footprint(unit("line", 12, 24, 12, 90))  # y 11..13
    british = footprint(unit("line", 12, 24, 17, 270))  # y 16..18
    assert gap(french, british) == pytest.approx(3.0)
    assert within_inches(french, british, 3)
    assert not within_inches(french, british, 2.9)
    assert charge_distance(french, british) == pytest.approx(1.0)
    assert charge_distance(french, footprint(unit("line", 12, 24, 15, 270))) == 0.0
    assert not overlaps(french, british)
    touching = footprint(unit("line", 12, 24, 14, 270))  # y 13..15
    assert gap(french, touching) == 0.0
    assert not overlaps(french, touching)
    assert overlaps(french, footprint(unit("march_column", 12, 24, 14)))


def test_front_flank_rear() -> None:
    line = unit("line", 12)  # x 21..27, y 11..13, facing north
    assert aspect(line, Point(24, 20)) == "front"
    assert aspect(line, Point(30, 12)) == "flank"
    assert aspect(line, Point(24, 5)) == "rear"
    assert aspect(line, Point(40, 10.9)) == "rear"  # behind the rear rank's line, however far aside
    assert aspect(line, Point(27.3, 13.4)) == "front"  # inside the 45 degrees from the corner
    assert aspect(line, Point(27.5, 13.4)) == "flank"
    assert aspect(line, Point(28, 14)) == "front"  # on the diagonal
    east = unit("line", 12, facing=0)
    assert aspect(east, Point(40, 12)) == "front"
    assert aspect(east, Point(10, 12)) == "rear"
    assert aspect(east, Point(24, 30)) == "flank"
    square = unit("square", 12)
    assert {aspect(square, Point(x, y)) for x, y in [(24, 30), (24, 0), (0, 12)]} == {"front"}


def test_defenders_within_three_inches_and_most_of_the_unit() -> None:
    line = unit("line", 12)  # x 21..27, y 11..13
    fight = shapely.box(17, 11, 17.5, 13)  # 3.5 inches west of the line's left end
    assert figures_within(line, fight, 3.0) == []
    assert figures_within(line, fight, 4.5) == [0, 1, 6, 7]
    wood = shapely.box(0, 0, 24, 36)
    assert not most_inside(line, wood)  # six of twelve is not most
    assert most_inside(line, shapely.box(0, 0, 25, 36))
    volley = front_area(line, 6)
    assert volley.bounds == pytest.approx((21, 13, 27, 19))


def test_reform_in_place() -> None:
    line = unit("line", 20, 10, 10, 45)
    column = reform(line, "march column")
    assert column.formation == "march_column"
    assert (column.centre, column.facing, column.figures) == (line.centre, line.facing, line.figures)
    assert footprint(column).centroid.x == pytest.approx(10)
    assert footprint(column).centroid.y == pytest.approx(10)
    assert size(column) == (4.0, 5.0)


# --- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: unit("wedge", 12), "'wedge' is not a formation"),
        (lambda: unit("line", 0), "1 to 199 figures, not 0"),
        (lambda: unit("line", 200), "1 to 199 figures, not 200"),
        (lambda: unit("line", True), "not True"),  # a flag is not a count
        (lambda: unit("square", 12, mounted=True), "Mounted units do not form square"),
        (lambda: unit("line", 4, guns=1), "limbered or manhandled, not in line"),
        (lambda: unit("limbered", 4), "Only a unit with a gun"),
        (lambda: unit("limbered", 4, guns=1, mounted=True), "on foot"),
        (lambda: unit("line", 4, facing=math.nan), "facing"),
        (lambda: unit("manhandled", 4, guns=13), "0 to 12 guns"),
        (lambda: reform(unit("line", 12), "column"), "'column' is not a formation"),
    ],
)
def test_bad_placements_are_refused_with_a_sentence(make: Callable[[], object], words: str) -> None:
    with pytest.raises(RuleError) as refusal:
        make()
    assert words in refusal.value.message
    assert "\n" not in refusal.value.message


def test_off_the_table_is_refused() -> None:
    line = unit("line", 20, 4, 12)  # ten inches wide round x = 4
    assert not on_table(line, TABLE)
    with pytest.raises(
        RuleError, match=r"The unit in line \(10 by 2 inches\) at 4.0,12.0 would stand off the 48 by 36 inch table\."
    ):
        check_on_table(line, TABLE)
    column = unit("march_column", 20, 4, 12)
    assert check_on_table(column, TABLE).equals(footprint(column))
    with pytest.raises(RuleError, match="off the 48 by 36"):
        reform(column, "line", table=TABLE)


def test_a_bad_spec_lists_its_problems() -> None:
    with pytest.raises(DataError) as problems:
        FormationSpec(foot_frontage=0, line_ranks=0, open_order_gap=math.inf)
    assert len(problems.value.problems) == 3


# --- properties -------------------------------------------------------------------------------


@st.composite
def placements(draw: st.DrawFn) -> UnitPlacement:
    mounted = draw(st.booleans())
    guns = 0 if mounted else draw(st.sampled_from([0, 0, 0, 1, 2]))
    if guns:
        formation = draw(st.sampled_from(["limbered", "manhandled"]))
    else:
        choices = [f for f in FORMATIONS if f not in ("limbered", "manhandled") and not (mounted and f == "square")]
        formation = draw(st.sampled_from(choices))
    figures = draw(st.integers(1, 24) | st.integers(1, 199))
    x = draw(st.floats(6, 42) | st.floats(-20, 80))
    y = draw(st.floats(6, 30) | st.floats(-20, 60))
    facing = draw(st.floats(-720, 720, allow_nan=False))
    return UnitPlacement(Point(x, y), facing, formation, figures, mounted, guns)


@settings(max_examples=300, deadline=None)
@given(placements(), st.sampled_from(FORMATIONS))
def test_any_placement_has_a_sound_footprint(placement: UnitPlacement, other: str) -> None:
    shape = footprint(placement)
    assert shape.is_valid and shape.area > 0
    assert shape.centroid.x == pytest.approx(placement.centre.x, abs=1e-6)
    assert shape.centroid.y == pytest.approx(placement.centre.y, abs=1e-6)
    points = figure_points(placement)
    assert len(points) == placement.figures
    grown = shape.buffer(1e-6)
    assert all(grown.covers(base) for base in figure_bases(placement))
    assert len(gun_points(placement)) == placement.guns
    assert aspect(placement, Point(0, 0)) in ("front", "flank", "rear")
    ahead = front_area(placement, 1).centroid
    assert aspect(placement, Point(ahead.x, ahead.y)) == "front"
    if on_table(placement, TABLE):
        assert check_on_table(placement, TABLE).equals(shape)
        assert box(-1e-6, -1e-6, TABLE.width + 1e-6, TABLE.height + 1e-6).covers(shape)
    else:
        with pytest.raises(RuleError):
            check_on_table(placement, TABLE)
    try:
        reformed = reform(placement, other)
    except RuleError:
        return
    assert (reformed.centre, reformed.facing) == (placement.centre, placement.facing)


@settings(max_examples=300, deadline=None)
@given(placements(), placements())
def test_distances_and_overlaps_agree(a: UnitPlacement, b: UnitPlacement) -> None:
    fa, fb = footprint(a), footprint(b)
    distance = gap(fa, fb)
    assert distance >= 0
    assert distance == pytest.approx(gap(fb, fa))
    assert overlaps(fa, fb) == overlaps(fb, fa)
    if overlaps(fa, fb):
        assert distance == 0
        assert within_inches(fa, fb, 0)
    if distance > 0:
        assert not overlaps(fa, fb)
    assert charge_distance(fa, fb) >= 0
    assert overlaps(fa, fa)


def test_a_footprint_stays_a_rectangle_when_turned() -> None:
    for facing in range(0, 360, 15):
        shape: Polygon = footprint(unit("line", 20, facing=facing))
        assert shape.area == pytest.approx(20.0)
        assert shape.length == pytest.approx(24.0)
