"""The picture benchmark runs and reports its figures (never judged on speed)."""

from __future__ import annotations

from pathlib import Path

from bench.pictures import busy_map, busy_view, main
from rules.battlefield.maps import map_problems


def test_the_busy_table_is_a_valid_map_of_30_features_and_40_figures() -> None:
    assert map_problems(busy_map(), ["red", "blue"]) == [] and len(busy_map().features) == 30
    view = busy_view(focus=True)
    assert len(view.tokens) == 40 and view.focus is not None


def test_the_picture_benchmark_reports_both_timings(tmp_path: Path) -> None:
    figures = main(["--runs", "1", "--save", str(tmp_path)])
    assert set(figures) == {"without focus", "with focus", "with a melee", "12 NSR units", "reach"}
    assert all(row["median_ms"] > 0 and row["p95_ms"] >= row["median_ms"] for row in figures.values())
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "busy-12-NSR-units.png",
        "busy-with-a-melee.png",
        "busy-with-focus.png",
        "busy-without-focus.png",
    ]
