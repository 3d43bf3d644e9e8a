"""The map picture's sight (rules.battlefield.sightlines.sight_grid) is line_of_sight's reading at
every point: on every shipped map of every ruleset played on the map, and again after a house
rule changes what a kind of terrain does to sight (the change then reaches the picture and the
card alike). Many targets at once answer as each alone does, to the feature and the inch."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from rules import RULESETS
from rules.battlefield import FieldState, MapData, Terrain, line_of_sight
from rules.battlefield.sightlines import SIGHT_CODES, lines_of_sight, sight_grid
from rules.geometry import Base, Point

ON_THE_MAP = ("ssg", "sharpe", "medieval", "nsr")
#: Cells compared on each map from each viewpoint: about 200 a ruleset.
SAMPLES = 16


def engine_of(slug: str, house_rules: Mapping[str, Any] | None = None) -> Any:
    return importlib.import_module(RULESETS[slug][0]).make_engine(house_rules)


def viewpoints(map_: MapData, terrain: Terrain) -> list[Point]:
    """Open ground across the table, and a point inside the first feature that hides anything (in a
    wood near its edge or deep in it, in a wall, on a hill)."""
    points = [Point(map_.width * fx, map_.height * fy) for fx, fy in ((0.5, 0.5), (0.2, 0.15), (0.8, 0.85))]
    hiders = [f for f in map_.features if terrain[f.kind].sight != "clear"]
    if hiders:
        corner = np.array(hiders[0].points[0], dtype=float)
        middle = np.array(hiders[0].points, dtype=float).mean(axis=0)
        for x, y in (middle, corner + (middle - corner) * 0.15):
            points.append(Point(float(x), float(y)))
    return points


def disagreements(map_: MapData, terrain: Terrain, seed: int) -> tuple[list[str], int]:
    """Sampled cells where the grid and line_of_sight read differently, and how many were compared."""
    state = FieldState(map_)
    rng = np.random.default_rng(seed)
    wrong, compared = [], 0
    for at in viewpoints(map_, terrain):
        viewer = Base(at, 0.5)
        xs, ys, grid = sight_grid(state, terrain, viewer, 1.5)
        for row, column in zip(rng.integers(0, len(ys), SAMPLES), rng.integers(0, len(xs), SAMPLES), strict=True):
            target = Base(Point(float(xs[column]), float(ys[row])), 0.5)
            card = line_of_sight(state, terrain, viewer, target).kind
            compared += 1
            if SIGHT_CODES[card] != grid[row, column]:
                wrong.append(f"{map_.name} from {at} at {target.centre}: card {card}, picture {grid[row, column]}")
    return wrong, compared


@pytest.mark.parametrize("slug", ON_THE_MAP)
def test_the_picture_reads_sight_as_the_card_does_on_every_shipped_map(slug: str) -> None:
    engine = engine_of(slug)
    compared = 0
    for n, name in enumerate(engine.scenarios()):
        wrong, count = disagreements(engine.scenario(name), engine.terrain(), seed=n)
        assert wrong == []
        compared += count
    assert compared >= 150


HOUSE_RULES: list[tuple[str, dict[str, Any]]] = [
    ("ssg", {"terrain": {"wood": {"sight": "clear"}}}),  # woods hide nothing
    ("sharpe", {"terrain": {"hedge": {"sight": "blocks", "see_into": 0.5}}}),  # tall hedges
    ("nsr", {"terrain": {"wall": {"sight": "blocks", "see_into": 0.25}, "hill": {"sight": "clear"}}}),
]


@pytest.mark.parametrize(("slug", "house_rules"), HOUSE_RULES)
def test_a_house_rule_on_sight_changes_the_picture_as_it_changes_the_card(
    slug: str, house_rules: dict[str, Any]
) -> None:
    shipped, housed = engine_of(slug), engine_of(slug, house_rules)
    changed_kinds = house_rules["terrain"].keys()
    assert all(shipped.terrain()[k] != housed.terrain()[k] for k in changed_kinds)
    changed_cells = changed_cards = 0
    for n, name in enumerate(shipped.scenarios()):
        map_ = housed.scenario(name)
        wrong, _ = disagreements(map_, housed.terrain(), seed=100 + n)
        assert wrong == []
        state = FieldState(map_)
        for at in viewpoints(map_, shipped.terrain()):
            viewer = Base(at, 0.5)
            xs, ys, before = sight_grid(state, shipped.terrain(), viewer, 1.5)
            _, _, after = sight_grid(state, housed.terrain(), viewer, 1.5)
            rows, columns = np.nonzero(before != after)
            changed_cells += len(rows)
            for row, column in list(zip(rows.tolist(), columns.tolist(), strict=True))[:5]:
                target = Base(Point(float(xs[column]), float(ys[row])), 0.5)
                card = line_of_sight(state, housed.terrain(), viewer, target).kind
                assert SIGHT_CODES[card] == after[row, column]
                changed_cards += card != line_of_sight(state, shipped.terrain(), viewer, target).kind
    assert changed_cells > 20 and changed_cards > 5  # the house rule really changed what is seen


def test_many_targets_at_once_read_as_each_alone_does() -> None:
    engine = engine_of("nsr")
    map_ = engine.scenario("village")
    state, terrain = FieldState(map_), engine.terrain()
    rng = np.random.default_rng(3)
    targets = [
        Base(Point(float(x), float(y)), float(r))
        for x, y, r in zip(
            rng.uniform(0, map_.width, 300), rng.uniform(0, map_.height, 300), rng.choice([0.5, 1.0], 300), strict=True
        )
    ]
    kinds = set()
    for at in viewpoints(map_, terrain):
        shooter = Base(at, 0.5)
        together = lines_of_sight(state, terrain, shooter, targets)
        assert together == [line_of_sight(state, terrain, shooter, t) for t in targets]
        kinds |= {seen.kind for seen in together}
    assert kinds == {"clear", "partial", "blocked"}
