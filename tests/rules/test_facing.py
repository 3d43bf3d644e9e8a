"""Facing on the map: bearings, turns and arcs against hand-worked answers, Sharpe's melee example
(the Captain attacked from the side and then from the rear) set out on a map, and properties over
random positions."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules.battlefield.facing import (
    DEFAULT_ARCS,
    Arc,
    ArcSpec,
    arc_of,
    bearing,
    face_toward,
    normalise,
    turn_needed,
    turned,
)
from rules.geometry import Point
from rules.sharpe.options import SIDES
from rules.sharpe.schema import SharpeTables
from rules.tables import load_tables
from rules.vocabulary import DataError, RuleError

HERE = Point(10, 10)
NORTH = 90.0


def at(dx: float, dy: float) -> Point:
    return Point(HERE.x + dx, HERE.y + dy)


# --- bearings and turns ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dx", "dy", "expected"),
    [(1, 0, 0), (1, 1, 45), (0, 1, 90), (-1, 0, 180), (0, -1, 270), (1, -1, 315), (-3, -3, 225)],
)
def test_bearing_by_hand(dx: float, dy: float, expected: float) -> None:
    assert bearing(HERE, at(dx, dy)) == pytest.approx(expected)
    assert face_toward(HERE, at(dx, dy)) == pytest.approx(expected)


def test_bearing_just_below_east_stays_below_360() -> None:
    b = bearing(Point(0, 0), Point(100, -1e-9))
    assert 0 <= b < 360


def test_normalise() -> None:
    assert normalise(-90) == 270
    assert normalise(360) == 0
    assert normalise(725) == 5
    assert normalise(-1e-20) == 0
    assert normalise(-0.0) == 0 and math.copysign(1, normalise(-0.0)) == 1


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, True, "90"])
def test_normalise_refuses_what_is_no_angle(bad: object) -> None:
    with pytest.raises(RuleError, match="number of degrees"):
        normalise(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("facing", "toward", "expected"),
    [
        (90, 180, 90),
        (90, 0, -90),
        (350, 10, 20),
        (10, 350, -20),
        (0, 180, 180),
        (180, 0, 180),
        (-90, 90, 180),
        (45, 45, 0),
        (720, 90, 90),
    ],
)
def test_turn_needed_is_the_smallest_turn_left_positive(facing: float, toward: float, expected: float) -> None:
    assert turn_needed(facing, toward) == pytest.approx(expected)
    assert turned(facing, turn_needed(facing, toward)) == pytest.approx(normalise(toward))


def test_the_same_spot_has_no_direction() -> None:
    with pytest.raises(RuleError, match="same spot"):
        bearing(HERE, Point(10, 10))
    with pytest.raises(RuleError, match="defender's own spot"):
        arc_of(HERE, NORTH, Point(10, 10))


# --- arcs by hand (a figure at 10,10 facing north, four quarters) ----------------------------------


@pytest.mark.parametrize(
    ("dx", "dy", "expected"),
    [
        (0, 1, Arc.FRONT),  # straight ahead
        (0.5, 1, Arc.FRONT),  # 26.6° right of ahead
        (1, 1, Arc.FRONT),  # 45° right: on the front/right line, the front wins
        (-1, 1, Arc.FRONT),  # 45° left: the same on the left
        (1.001, 1, Arc.RIGHT),  # just past the line
        (1, 0, Arc.RIGHT),  # 90° right: the weapon side
        (-1, 0, Arc.LEFT),  # 90° left
        (1, -1, Arc.RIGHT),  # 135° right: on the side/rear line, the side wins
        (-1, -1, Arc.LEFT),  # 135° left
        (1, -1.001, Arc.REAR),  # just past it
        (0, -1, Arc.REAR),  # straight behind
        (0, -30, Arc.REAR),  # far behind
    ],
)
def test_arcs_by_hand(dx: float, dy: float, expected: Arc) -> None:
    assert arc_of(HERE, NORTH, at(dx, dy)) is expected


def test_the_boundaries_hold_on_typed_coordinates() -> None:
    """Tenths of an inch are not exact in binary: 15.1 - 14.1 is not quite 1. The line still holds."""
    figure = Point(14.1, 10.3)
    assert arc_of(figure, 0, Point(15.1, 11.3)) is Arc.FRONT
    assert arc_of(figure, 0, Point(13.1, 11.3)) is Arc.LEFT
    assert arc_of(figure, 0, Point(13.1, 9.3)) is Arc.RIGHT


def test_facings_outside_a_turn_are_normalised() -> None:
    for facing in (90, 450, -270, 810):
        assert arc_of(HERE, facing, at(0, 1)) is Arc.FRONT
        assert arc_of(HERE, facing, at(1, 0)) is Arc.RIGHT
        assert arc_of(HERE, facing, at(0, -1)) is Arc.REAR


def test_other_widths() -> None:
    half = ArcSpec(front=180, rear=60)  # a front half, 60° of rear, the sides 60° each
    assert half.side == 60
    assert arc_of(HERE, NORTH, at(1, 0)) is Arc.RIGHT
    assert arc_of(HERE, NORTH, at(1, 0), half) is Arc.FRONT  # on the line: the front
    assert arc_of(HERE, NORTH, at(1, -0.5), half) is Arc.RIGHT
    assert arc_of(HERE, NORTH, at(1, -1), half) is Arc.RIGHT
    assert arc_of(HERE, NORTH, at(0.5, -1), half) is Arc.REAR
    no_sides = ArcSpec(front=180, rear=180)
    assert no_sides.side == 0
    assert arc_of(HERE, NORTH, at(-1, 0), no_sides) is Arc.FRONT
    assert arc_of(HERE, NORTH, at(-1, -0.01), no_sides) is Arc.REAR


@pytest.mark.parametrize(
    ("front", "rear", "says"),
    [
        (0, 90, "front arc"),
        (90, -1, "rear arc"),
        (400, 90, "front arc"),
        (math.nan, 90, "front arc"),
        (200, 200, "more than 360"),
        (True, 90, "front arc"),
    ],
)
def test_bad_widths_are_refused(front: float, rear: float, says: str) -> None:
    with pytest.raises(DataError, match=says):
        ArcSpec(front=front, rear=rear)


def test_the_arcs_are_sharpes_sides() -> None:
    """Arc's values are the words Sharpe's melee already takes (flank:right …) and its table's keys."""
    assert {a.value for a in Arc} == set(SIDES)
    bonus = load_tables("rules.sharpe", SharpeTables).melee.not_turned_attack
    assert {a.value for a in Arc if a is not Arc.FRONT} == set(bonus)
    assert [a for a in Arc if a.is_side] == [Arc.RIGHT, Arc.LEFT]


# --- the seed's melee examples on a map --------------------------------------------------------------


def test_the_captain_attacked_from_the_side_and_then_from_the_rear() -> None:
    """Sharpe 18, Example of melee, set out round the Captain at 10,10 (bases 1" wide, in contact).

    He faces north to attack a first Frenchman; a second comes in from his right (+1 when he does
    not turn); a third from his left, and he turns a quarter to face him; the officer comes "from
    his left hand side again. 'It was his rear but he turned 90degrees'"; he turns again to face
    the officer; the last man comes in "on his left hand side" (+2). Facing south, the Captain's
    left is the east: that last man must push aside the second Frenchman (recoiled 1 pace east), not
    the third, who stands on his right by then."""
    bonus = load_tables("rules.sharpe", SharpeTables).melee.not_turned_attack
    captain = HERE
    first, second, third, officer = at(0, 1), at(1, 0), at(-1, 0), at(0, -1)

    facing = face_toward(captain, first)  # he attacks the first man
    assert facing == NORTH
    assert arc_of(captain, facing, second) is Arc.RIGHT and bonus[Arc.RIGHT] == 1  # he does not turn

    assert arc_of(captain, facing, third) is Arc.LEFT
    assert turn_needed(facing, face_toward(captain, third)) == 90  # a quarter turn to his left
    assert arc_of(captain, facing, officer) is Arc.REAR  # before he turns: his rear
    facing = face_toward(captain, third)
    assert facing == 180 and arc_of(captain, facing, third) is Arc.FRONT

    assert arc_of(captain, facing, officer) is Arc.LEFT  # "It was his rear but he turned 90degrees"
    assert turn_needed(facing, face_toward(captain, officer)) == 90
    facing = face_toward(captain, officer)
    assert facing == 270 and arc_of(captain, facing, officer) is Arc.FRONT

    second_recoiled = at(1.5, 0)  # 1 pace = 1/2"
    assert arc_of(captain, facing, second_recoiled) is Arc.LEFT
    assert arc_of(captain, facing, third) is Arc.RIGHT
    last = at(1, 0)  # where the second man stood, once he is pushed aside
    assert arc_of(captain, facing, last) is Arc.LEFT and bonus[Arc.LEFT] == 2  # "a +2"
    assert arc_of(captain, facing, first) is Arc.REAR


def test_the_rifleman_attacked_from_behind() -> None:
    """Sharpe 9's example: having riposted a French attack, the rifleman "is now attacked from behind
    by a second Frenchman"; once he has passed the test to turn, that man is in his front."""
    rifleman, first, second = Point(20, 5), Point(21, 5), Point(19, 5)
    facing = face_toward(rifleman, first)
    assert arc_of(rifleman, facing, second) is Arc.REAR
    assert turn_needed(facing, face_toward(rifleman, second)) == 180
    assert arc_of(rifleman, turned(facing, 180), second) is Arc.FRONT


# --- properties --------------------------------------------------------------------------------------

coordinate = st.floats(min_value=-300, max_value=300, allow_nan=False)
angle = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
widths = st.tuples(st.floats(min_value=1, max_value=300), st.floats(min_value=1, max_value=300)).filter(
    lambda fr: fr[0] + fr[1] <= 360
)


def apart(a: Point, b: Point) -> bool:
    return math.hypot(a.x - b.x, a.y - b.y) >= 1


def rotate(p: Point, degrees: float) -> Point:
    r = math.radians(degrees)
    return Point(p.x * math.cos(r) - p.y * math.sin(r), p.x * math.sin(r) + p.y * math.cos(r))


def clear_of_lines(figure: Point, facing: float, attacker: Point, arcs: ArcSpec) -> bool:
    """True when the attacker is well away (a thousandth of a degree) from every line between arcs."""
    off = abs(turn_needed(facing, bearing(figure, attacker)))
    return all(abs(off - line) > 1e-3 for line in (arcs.front / 2, 180 - arcs.rear / 2))


@settings(max_examples=300, deadline=None)
@given(coordinate, coordinate, coordinate, coordinate, angle, angle, widths)
def test_rotating_everything_together_keeps_the_arc(
    fx: float, fy: float, ax: float, ay: float, facing: float, by: float, fr: tuple[float, float]
) -> None:
    figure, attacker, arcs = Point(fx, fy), Point(ax, ay), ArcSpec(*fr)
    assume(apart(figure, attacker) and clear_of_lines(figure, facing, attacker, arcs))
    assert arc_of(rotate(figure, by), facing + by, rotate(attacker, by), arcs) is arc_of(figure, facing, attacker, arcs)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(-200, 200),
    st.integers(-200, 200),
    st.integers(-200, 200),
    st.integers(-200, 200),
    st.sampled_from([0, 45, 90, 135, 180, 225, 270, 315]),
    st.integers(-3, 3),
)
def test_quarter_turns_keep_the_arc_even_on_the_lines(
    fx: int, fy: int, ax: int, ay: int, facing: int, quarters: int
) -> None:
    """Whole inches turned by whole quarters stay exact, so the lines between arcs are kept too."""
    assume((fx, fy) != (ax, ay))

    def quarter(x: int, y: int) -> Point:
        for _ in range(quarters % 4):
            x, y = -y, x
        return Point(x, y)

    assert arc_of(quarter(fx, fy), facing + 90 * quarters, quarter(ax, ay)) is arc_of(
        Point(fx, fy), facing, Point(ax, ay)
    )


@settings(max_examples=300, deadline=None)
@given(coordinate, coordinate, coordinate, coordinate, angle, widths)
def test_turning_to_face_an_attacker_puts_him_in_front(
    fx: float, fy: float, ax: float, ay: float, facing: float, fr: tuple[float, float]
) -> None:
    figure, attacker, arcs = Point(fx, fy), Point(ax, ay), ArcSpec(*fr)
    assume(figure != attacker)
    assert arc_of(figure, face_toward(figure, attacker), attacker, arcs) is Arc.FRONT
    turn = turn_needed(facing, bearing(figure, attacker))
    assert -180 < turn <= 180
    assert arc_of(figure, turned(facing, turn), attacker, arcs) is Arc.FRONT


@settings(max_examples=300, deadline=None)
@given(coordinate, coordinate, coordinate, coordinate)
def test_bearings_are_in_range_and_opposite(fx: float, fy: float, ax: float, ay: float) -> None:
    a, b = Point(fx, fy), Point(ax, ay)
    assume(a != b)
    there, back = bearing(a, b), bearing(b, a)
    assert 0 <= there < 360 and 0 <= back < 360
    assert abs(turn_needed(there, back)) == pytest.approx(180)


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False), st.floats(allow_nan=False, allow_infinity=False))
def test_normalised_angles_and_turns_are_in_range(a: float, b: float) -> None:
    assert 0 <= normalise(a) < 360
    assert -180 < turn_needed(a, b) <= 180


@settings(max_examples=300, deadline=None)
@given(coordinate, coordinate, coordinate, coordinate, angle)
def test_a_mirror_swaps_left_and_right(fx: float, fy: float, ax: float, ay: float, facing: float) -> None:
    """Reflecting the attacker across the line the figure faces along swaps its sides, nothing else."""
    figure, attacker = Point(fx, fy), Point(ax, ay)
    assume(apart(figure, attacker) and clear_of_lines(figure, facing, attacker, DEFAULT_ARCS))
    r = math.radians(facing)
    ux, uy = math.cos(r), math.sin(r)
    dx, dy = attacker.x - figure.x, attacker.y - figure.y
    along = dx * ux + dy * uy
    mx, my = figure.x + 2 * along * ux - dx, figure.y + 2 * along * uy - dy
    assume(max(abs(mx), abs(my)) < 1000)
    mirror = Point(mx, my)
    swap = {Arc.LEFT: Arc.RIGHT, Arc.RIGHT: Arc.LEFT, Arc.FRONT: Arc.FRONT, Arc.REAR: Arc.REAR}
    assert arc_of(figure, facing, mirror) is swap[arc_of(figure, facing, attacker)]
