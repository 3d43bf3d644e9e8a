"""The battlefield in a game's state: map files read with every problem named and written back,
terrain tables checked, placing and deploying, planning moves, sight read for figures standing in
terrain, points as players type them. Every ruleset played on the map ships maps that load."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rules import RULESETS, get_engine
from rules.battlefield import (
    KINDS,
    FieldState,
    MapData,
    TerrainKind,
    deploy,
    line_of_sight,
    map_file,
    parse_path,
    parse_point,
    place,
    plan_move,
    read_map,
    terrain_problems,
)
from rules.core import DataError, RuleError
from rules.geometry import Base, Point

SIDES = ("red", "blue")
TERRAIN = {kind: TerrainKind() for kind in KINDS} | {
    "wood": TerrainKind(sight="blocks", see_into=1.0, move_cost=2.0),
    "building": TerrainKind(sight="blocks", move_cost=None),
    "hill": TerrainKind(sight="blocks", see_into=None, height=1.0),
    "wall": TerrainKind(sight="low", cover="hard"),
    "water": TerrainKind(move_cost=None),
}
MAP: dict[str, Any] = {
    "name": "Test",
    "table": {"width": 24, "height": 24},
    "features": [
        {"kind": "wood", "name": "the wood", "area": [[2, 10], [6, 10], [6, 14], [2, 14]]},
        {"kind": "hill", "area": [[14, 14], [20, 14], [20, 20], [14, 20]]},
        {"kind": "wall", "line": [[16, 8], [22, 8]]},
        {
            "kind": "building",
            "area": [[8, 16], [11, 16], [11, 19], [8, 19]],
            "openings": [{"kind": "door", "at": [9.5, 16]}],
        },
    ],
    "zones": {"red": [[0, 0], [24, 0], [24, 3], [0, 3]], "blue": [[0, 21], [24, 21], [24, 24], [0, 24]]},
}


def a_map(**changes: Any) -> MapData:
    data = copy.deepcopy(MAP) | changes
    return read_map(data, SIDES, TERRAIN)


def problems_of(data: Any) -> list[str]:
    with pytest.raises(DataError) as caught:
        read_map(data, SIDES, TERRAIN)
    return caught.value.problems


# --- map files ---------------------------------------------------------------------------------


def test_a_map_file_is_read_and_written_back_the_same() -> None:
    first = a_map()
    assert [f.kind for f in first.features] == ["wood", "hill", "wall", "building"]
    assert first.features[2].shape == "line" and first.features[2].thickness == 0.5
    assert first.features[3].openings[0].kind == "door"
    again = read_map(map_file(first), SIDES, TERRAIN)
    assert again == first


@pytest.mark.parametrize(
    "change, problem",
    [
        ({"table": {"width": 24}}, "give the table's size"),
        ({"features": "wood"}, "features: must be a list"),
        ({"features": [{"kind": "lava", "area": [[1, 1], [2, 1], [2, 2]]}]}, "lava"),
        ({"features": [{"kind": "wood", "area": [[1, 1], [5, 5], [5, 1], [1, 5]]}]}, "crosses itself"),
        ({"features": [{"kind": "wood", "area": [[1, 1], [30, 1], [30, 5]]}]}, "off the 24 by 24 inch table"),
        ({"features": [{"kind": "wood", "area": [[1, 1], [2, 1]]}]}, "needs at least 3 points"),
        ({"features": [{"kind": "wall", "area": [[1, 1], [2, 1], [2, 2]], "line": [[1, 1], [2, 2]]}]}, "either"),
        ({"features": [{"kind": "wall", "line": [[1, 1], ["x", 2]]}]}, "finite number"),
        ({"features": [{"kind": "wall", "line": [[1, 1], [2, 2]], "colour": "red"}]}, "unknown key"),
        ({"zones": {"red": [[0, 0], [24, 0], [24, 3]]}}, "blue has no deployment zone"),
        ({"zones": {"red": [[0, 0], [24, 0], [24, 3]], "blue": [[0, 0], [1, 0], [1, 1]], "green": []}}, "not a side"),
        ({"zones": {"red": [[0, 0], [30, 0], [30, 3]], "blue": [[0, 21], [24, 21], [24, 24]]}}, "off the table"),
    ],
)
def test_a_bad_map_file_names_its_problem(change: dict[str, Any], problem: str) -> None:
    found = problems_of(copy.deepcopy(MAP) | change)
    assert any(problem in p for p in found), found


def test_a_map_with_ten_thousand_features_is_refused_before_any_is_built() -> None:
    many = [{"kind": "wood", "area": [[1, 1], [2, 1], [2, 2]]}] * 10_000
    found = problems_of(copy.deepcopy(MAP) | {"features": many})
    assert found == ["the map has 10000 features; a map may have at most 500"]


def test_a_map_file_that_is_not_a_mapping_is_refused() -> None:
    assert "a map file is a mapping" in problems_of(["wood"])[0]


# --- terrain tables --------------------------------------------------------------------------------


def test_terrain_tables_must_name_every_kind_with_sensible_numbers() -> None:
    assert terrain_problems(TERRAIN) == []
    partial = {k: v for k, v in TERRAIN.items() if k != "ford"} | {"lava": TerrainKind()}
    found = terrain_problems(partial)
    assert "terrain.lava: not a kind of terrain" in found[0] and "terrain: ford is missing" in found
    assert terrain_problems(TERRAIN | {"wood": TerrainKind(move_cost=0)})[0].startswith("terrain.wood.move_cost")


# --- placing, deploying, moving --------------------------------------------------------------------


def test_place_refuses_a_point_off_the_table_out_of_the_zone_in_water_or_on_a_base() -> None:
    field = FieldState(a_map())
    radii = {"A": 0.5, "B": 0.5}
    place(field, TERRAIN, "A", "red", Point(5, 1), radii)
    with pytest.raises(RuleError, match="off the 24 by 24 inch table"):
        place(field, TERRAIN, "B", "red", Point(25, 1), radii)
    with pytest.raises(RuleError, match="outside red's deployment zone"):
        place(field, TERRAIN, "B", "red", Point(5, 10), radii)
    with pytest.raises(RuleError, match="on A's base"):
        place(field, TERRAIN, "B", "red", Point(5.5, 1), radii)
    with pytest.raises(RuleError, match="already placed"):
        place(field, TERRAIN, "A", "red", Point(8, 1), radii)


def test_deploy_fills_a_zone_and_refuses_when_it_is_full() -> None:
    field = FieldState(a_map())
    names = [f"R{i}" for i in range(6)]
    placed = deploy(field, TERRAIN, "red", names, dict.fromkeys(names, 0.5))
    assert placed == names
    crowd = [f"C{i}" for i in range(200)]
    with pytest.raises(RuleError, match="no room left"):
        deploy(field, TERRAIN, "blue", crowd, dict.fromkeys(crowd, 0.5))
    assert not any(n.startswith("C") for n in field.positions), "a refused deployment places nobody"


def test_a_move_of_1e308_inches_is_refused_with_a_sentence() -> None:
    field = FieldState(a_map(), positions={"A": [5, 1]})
    with pytest.raises(RuleError, match="nothing on a table is more than 1000"):
        plan_move(field, TERRAIN, "A", [parse_point("1e308,1")], 4, {"A": 0.5})


def test_a_move_cannot_end_inside_a_building_or_cross_it() -> None:
    field = FieldState(a_map(), positions={"A": [9.5, 14]})
    with pytest.raises(RuleError, match="A cannot go that way: the path crosses the building"):
        plan_move(field, TERRAIN, "A", [Point(9.5, 17)], 4, {"A": 0.5})


# --- sight for figures standing in terrain -----------------------------------------------------------


def sight_between(a: tuple[float, float], b: tuple[float, float]) -> str:
    field = FieldState(a_map())
    return line_of_sight(field, TERRAIN, Base(Point(*a), 0.5), Base(Point(*b), 0.5)).describe("B")


def test_a_figure_at_a_woods_edge_sees_out_and_is_partly_seen() -> None:
    assert sight_between((5.5, 10.5), (5.5, 4)) == "clear"
    assert sight_between((5.5, 4), (5.5, 10.5)).startswith("partial: the wood")


def test_a_figure_deep_in_a_wood_neither_sees_nor_is_seen() -> None:
    assert sight_between((4, 12), (4, 4)).startswith("blocked")
    assert sight_between((4, 4), (4, 12)).startswith("blocked")


def test_a_figure_on_a_hill_sees_over_it_and_the_hill_hides_what_is_behind_it() -> None:
    assert sight_between((17, 17), (17, 23)) == "clear"
    assert sight_between((17, 10), (17, 23)).startswith("blocked: the hill")


# --- points as typed ------------------------------------------------------------------------------


def test_points_and_paths_as_players_type_them() -> None:
    assert parse_point(" 14 , 22 ") == Point(14, 22)
    assert parse_point("1.5;2") == Point(1.5, 2)
    assert parse_path("10,12 14,18") == [Point(10, 12), Point(14, 18)]
    assert parse_path("10,12/14,18") == [Point(10, 12), Point(14, 18)]
    for bad in ("", "14", "a,b", "1,2,3", None):
        with pytest.raises(RuleError, match="x,y"):
            parse_point(bad)
    with pytest.raises(RuleError, match="at most 20"):
        parse_path(" ".join(["1,1"] * 21))


# --- every ruleset on the map ----------------------------------------------------------------------


MAP_RULESETS = [slug for slug in RULESETS if get_engine(slug).plays_on_map]


def test_ssg_and_medieval_are_played_on_the_map() -> None:
    assert {"ssg"} <= set(MAP_RULESETS)


@pytest.mark.parametrize("slug", MAP_RULESETS)
def test_each_map_ruleset_ships_three_maps_that_load(slug: str) -> None:
    engine = get_engine(slug)
    assert terrain_problems(engine.terrain()) == []
    names = engine.scenarios()
    assert len(names) >= 3, names
    for name in names:
        data = engine.scenario(name)
        assert set(data.zones) == set(engine.sides()), name
        assert engine.read_map(map_file(data)) == data


def test_toward_names_a_point_only_when_written_as_one() -> None:
    from rules.battlefield.requests import move_request
    from rules.ssg.options import MoveOptions

    def toward(text: str) -> MoveOptions:
        return MoveOptions(figure="A", toward=text)

    assert move_request(toward("14, 22"), "A").toward_point() == Point(14, 22)
    assert move_request(toward("33rd Foot"), "A").toward_point() is None
    assert move_request(toward("Big Jim"), "A").toward_point() is None
