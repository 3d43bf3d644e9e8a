"""The sight grid benchmark runs and reports its figures (never judged on speed)."""

from __future__ import annotations

from bench.sight_grid import main, shipped_maps


def test_every_ruleset_played_on_the_map_ships_maps_to_time() -> None:
    labels = [label for label, _, _ in shipped_maps()]
    assert {label.split("/")[0] for label in labels} == {"ssg", "sharpe", "medieval", "nsr"}
    assert len(labels) >= 12


def test_the_sight_grid_benchmark_reports_a_drawing_and_a_grid_per_map() -> None:
    figures = main(["--runs", "1", "--only", "ssg/crossroads"])
    assert list(figures) == ["ssg/crossroads"]
    assert figures["ssg/crossroads"]["drawing_ms"] > figures["ssg/crossroads"]["grid_ms"] > 0
