"""The board's geometry: squares as players write them, distance and adjacency through sides, the
45° arc, the line of fire, cover, uphill, movement costs and routes (RULES-NOTES.md 1, A-YASG-6,
-15, -18)."""

from __future__ import annotations

import pytest

from rules.core import RuleError
from rules.yasg.board import (
    adjacent,
    distance,
    facing_towards,
    in_arc,
    line_squares,
    normal_edge,
    parse_path,
    parse_square,
    parse_squares,
    square_name,
)
from rules.yasg.judge import field_of
from tests.rules.test_yasg_support import BRITISH, FRENCH, F, scene


def sq(name: str) -> tuple[int, int]:
    return parse_square(name, 30, 30)


def test_squares_are_written_column_letter_then_row_number() -> None:
    assert parse_square("C4", 10, 10) == (2, 3)
    assert parse_square(" c4 ", 10, 10) == (2, 3)
    assert square_name((2, 3)) == "C4"
    assert parse_square("AA1", 30, 30) == (26, 0) and square_name((26, 0)) == "AA1"
    for bad in ("4C", "C", "", "C-1", "CCC4", "C4.5"):
        with pytest.raises(RuleError, match="is not a square"):
            parse_square(bad, 10, 10)
    with pytest.raises(RuleError, match="off the board, which runs from A1 to J10"):
        parse_square("K1", 10, 10)
    with pytest.raises(RuleError, match="off the board"):
        parse_square("A11", 10, 10)
    with pytest.raises(RuleError, match="off the board"):
        parse_square("A0", 10, 10)


def test_squares_and_rectangles_and_paths() -> None:
    assert parse_squares("C4:D5 A1", 10, 10) == [(2, 3), (3, 3), (2, 4), (3, 4), (0, 0)]
    assert parse_squares("D5:C4", 10, 10) == [(2, 3), (3, 3), (2, 4), (3, 4)]
    assert parse_squares("A1, A1;B1", 10, 10) == [(0, 0), (1, 0)]
    with pytest.raises(RuleError, match="at least one square"):
        parse_squares("  ", 10, 10)
    with pytest.raises(RuleError, match="rectangle"):
        parse_squares("A1:B2:C3", 10, 10)
    assert parse_path("C5 D5", 10, 10) == parse_path("C5-D5", 10, 10) == parse_path("c5>d5", 10, 10) == [(2, 4), (3, 4)]


def test_distance_and_adjacency_go_through_sides_not_corners() -> None:
    """A-YASG-6, -15: squares are counted in orthogonal steps; a diagonal neighbour is 2 away."""
    assert distance(sq("C4"), sq("C6")) == 2
    assert distance(sq("C4"), sq("D5")) == 2
    assert adjacent(sq("C4"), sq("C5")) and adjacent(sq("C4"), sq("B4"))
    assert not adjacent(sq("C4"), sq("D5"))


@pytest.mark.parametrize(
    ("target", "inside"),
    [
        ("E1", True),  # straight ahead
        ("F2", True),  # 1 across, 3 ahead: 18.4°
        ("F3", False),  # 1 across, 2 ahead: 26.6°
        ("G1", False),  # 2 across, 4 ahead: 26.6°
        ("E6", False),  # behind
    ],
)
def test_the_45_degree_arc_is_22_5_degrees_either_side_of_the_facing(target: str, inside: bool) -> None:
    """A-YASG-18: facing north from E5."""
    assert in_arc(sq("E5"), "n", sq(target), 45) is inside


def test_arc_in_every_facing_and_a_wider_house_arc() -> None:
    assert in_arc(sq("E5"), "e", sq("H6"), 45)
    assert in_arc(sq("E5"), "s", sq("E9"), 45) and not in_arc(sq("E5"), "s", sq("E1"), 45)
    assert in_arc(sq("E5"), "w", sq("A4"), 45)
    assert not in_arc(sq("E5"), "n", sq("E5"), 45)
    assert in_arc(sq("E5"), "n", sq("G3"), 90)  # exactly 45° either side with a 90° arc


def test_facing_towards() -> None:
    assert facing_towards(sq("C4"), sq("C2")) == "n"
    assert facing_towards(sq("C4"), sq("F5")) == "e"
    assert facing_towards(sq("C4"), sq("A4")) == "w"
    assert facing_towards(sq("C4"), sq("D6")) == "s"


def test_the_line_between_centres_and_its_corner_crossings() -> None:
    straight = line_squares(sq("A1"), sq("A4"))
    assert [s.squares for s in straight] == [((0, 1),), ((0, 2),)]
    bent = line_squares(sq("A1"), sq("B4"))  # passes exactly through the corner of A2/B2/A3/B3
    assert [s.squares for s in bent] == [((0, 1),), ((1, 1), (0, 2)), ((1, 2),)]
    assert line_squares(sq("A1"), sq("A2")) == []


def test_edges_are_kept_once_as_a_north_or_west_side() -> None:
    assert normal_edge(sq("C4"), "n", 10, 10) == (2, 3, "n")
    assert normal_edge(sq("C3"), "s", 10, 10) == (2, 3, "n")
    assert normal_edge(sq("C4"), "e", 10, 10) == (3, 3, "w")
    with pytest.raises(RuleError, match="edge of the board"):
        normal_edge(sq("A1"), "n", 10, 10)
    with pytest.raises(RuleError, match="edge of the board"):
        normal_edge(sq("J10"), "e", 10, 10)


# --- the board of a game ------------------------------------------------------------------------


def test_movement_costs_uphill_hedges_walls_and_buildings(engine) -> None:
    state = scene(
        engine,
        F("A", BRITISH, "B", "A10"),
        F("X", FRENCH, "B", "J1"),
        terrain=[("E5:F6", "hill", None), ("B2", "building", None), ("C2", "building", None)],
        edges=[("C8", "n", "hedge"), ("D8", "n", "wall")],
    )
    field = field_of(engine.t, state)
    assert field.uphill_sides(sq("E5")) == ("n", "w") and field.uphill_sides(sq("F6")) == ("e", "s")
    assert field.step_cost(sq("D5"), sq("E5")) == (2, ["uphill"])
    assert field.step_cost(sq("E5"), sq("F5")) == (1, [])  # along the hilltop
    assert field.step_cost(sq("E5"), sq("D5")) == (1, [])  # downhill is free
    assert field.step_cost(sq("C7"), sq("C8")) == (2, ["crossing a hedge"])
    assert field.step_cost(sq("C8"), sq("C7")) == (2, ["crossing a hedge"])
    assert field.step_cost(sq("C9"), sq("C8")) == (1, [])
    assert field.step_cost(sq("D8"), sq("D7")) == (2, ["crossing a wall"])
    assert field.step_cost(sq("A2"), sq("B2")) == (2, ["entering the building"])
    assert field.step_cost(sq("B2"), sq("C2")) == (1, [])  # within the building
    assert field.step_cost(sq("B2"), sq("B3")) == (1, [])  # leaving it


def test_explicit_uphill_sides(engine) -> None:
    state = scene(engine, F("A", BRITISH, "B", "A10"), F("X", FRENCH, "B", "J1"), terrain=[("E5", "hill", "s")])
    field = field_of(engine.t, state)
    assert field.uphill_sides(sq("E5")) == ("s",)
    assert field.step_cost(sq("E6"), sq("E5"))[0] == 2 and field.step_cost(sq("D5"), sq("E5"))[0] == 1


def test_routes_go_through_sides_and_take_the_cheapest_way(engine) -> None:
    state = scene(
        engine,
        F("A", BRITISH, "B", "C5"),
        F("B", BRITISH, "B", "C4"),
        F("X", FRENCH, "B", "D5"),
        edges=[("B5", "n", "hedge")],
    )
    field = field_of(engine.t, state)
    # diagonal neighbour: two steps through sides
    assert len(field.route(sq("C5"), sq("D6"), BRITISH, 4, True)) == 3
    # through a friend but round an enemy
    assert field.route(sq("C5"), sq("C3"), BRITISH, 4, True) == [sq("C5"), sq("C4"), sq("C3")]
    assert field.route(sq("C5"), sq("C3"), BRITISH, 4, False) is None  # round by B costs 5 (the hedge)
    assert field.route(sq("C5"), sq("C3"), BRITISH, 5, False) == [sq("C5"), sq("B5"), sq("B4"), sq("B3"), sq("C3")]
    assert sq("D5") not in field.route(sq("C5"), sq("E5"), BRITISH, 4, True)
    # round the hedge rather than over it when that is as cheap
    path = field.route(sq("C5"), sq("B4"), BRITISH, 4, True)
    assert field.path_cost(path)[0] == 2 and sq("B5") not in path[1:-1]
    assert field.route(sq("C5"), sq("C9"), BRITISH, 2, True) is None


def test_line_of_fire_blocked_by_buildings_woods_figures_and_hills(engine) -> None:
    state = scene(
        engine,
        F("A", BRITISH, "B", "A10"),
        F("M", BRITISH, "B", "F8"),
        F("X", FRENCH, "B", "J1"),
        terrain=[("C5", "building", None), ("H5", "wood", None), ("E4:E5", "hill", None)],
    )
    field = field_of(engine.t, state)
    assert field.line_of_fire(sq("C8"), sq("C2"), True) == "the building at C5"
    assert field.line_of_fire(sq("H8"), sq("H2"), True) == "the wood at H5"
    assert field.line_of_fire(sq("F10"), sq("F6"), True) == "M at F8"
    assert field.line_of_fire(sq("F10"), sq("F6"), False) is None
    # a hill hides low ground beyond it, but not from a figure standing on it
    assert field.line_of_fire(sq("E8"), sq("E2"), True) == "the hill at E5"
    assert field.line_of_fire(sq("E5"), sq("E1"), True) is None
    assert field.line_of_fire(sq("E9"), sq("E4"), True) is None


def test_a_line_through_a_corner_is_blocked_only_when_both_squares_block(engine) -> None:
    one = scene(engine, F("A", BRITISH, "B", "J10"), F("X", FRENCH, "B", "J1"), terrain=[("B2", "building", None)])
    field = field_of(engine.t, one)
    assert field.line_of_fire(sq("A1"), sq("B4"), True) is None
    both = scene(
        engine,
        F("A", BRITISH, "B", "J10"),
        F("X", FRENCH, "B", "J1"),
        terrain=[("B2", "building", None), ("A3", "wood", None)],
    )
    assert field_of(engine.t, both).line_of_fire(sq("A1"), sq("B4"), True) == "the building at B2"


def test_cover_from_the_square_and_from_the_side_the_shot_comes_through(engine) -> None:
    state = scene(
        engine,
        F("A", BRITISH, "B", "J10"),
        F("X", FRENCH, "B", "J1"),
        terrain=[("B2", "crops", None), ("D2", "building", None), ("F2", "rubble", None)],
        edges=[("A5", "n", "hedge"), ("C5", "n", "wall"), ("H5", "s", "hedge")],
    )
    field = field_of(engine.t, state)
    assert field.cover(sq("B8"), sq("B2")) == ("soft", "in the crops")
    assert field.cover(sq("D8"), sq("D2")) == ("hard", "in the building")
    assert field.cover(sq("F8"), sq("F2")) == ("hard", "in the rubble")
    assert field.cover(sq("A9"), sq("A5")) == ("none", None)  # the hedge is on the far side
    assert field.cover(sq("A1"), sq("A5")) == ("soft", "behind a hedge")
    assert field.cover(sq("C1"), sq("C5")) == ("hard", "behind a wall")
    assert field.cover(sq("H9"), sq("H5")) == ("soft", "behind a hedge")
    assert field.cover(sq("H5"), sq("H9")) == ("none", None)  # the firer's own hedge covers nobody


def test_height_advantage_and_house_walls(engine) -> None:
    state = scene(
        engine,
        F("A", BRITISH, "B", "J10"),
        F("X", FRENCH, "B", "J1"),
        terrain=[("E5", "hill", None), ("B2", "building", None)],
    )
    field = field_of(engine.t, state)
    assert field.height_advantage(sq("E6"), sq("E5"))
    assert not field.height_advantage(sq("E5"), sq("E6"))
    assert field.walls_between(sq("B2"), sq("B3")) and not field.walls_between(sq("B3"), sq("B4"))
