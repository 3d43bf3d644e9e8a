"""How long the picture's sight takes: for every shipped map of every ruleset played on the map, a
figure stands at each of a few fixed points and the map is drawn with it as the focus (its sight
shaded), and the sight grid alone is worked out.

    python -m bench.sight_grid              # 5 drawings at each point, after 1 unmeasured
    python -m bench.sight_grid --runs 10 --only nsr/   # the maps whose label holds "nsr/"

It prints, per map, the median time of a drawing with a focus and of the grid alone (the median
over the viewpoints of each one's median), and the slowest viewpoint's grid. It prints its
figures; it never fails on them.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time
from collections.abc import Callable
from functools import partial

from bot.render.battlefield import draw_field
from rules.battlefield import Band, FieldState, FieldView, Focus, MapData, Terrain, Token
from rules.battlefield.sightlines import sight_grid
from rules.geometry import Base, Point

RULESETS = ("ssg", "sharpe", "medieval", "nsr")
#: Where the focus figure stands, as fractions of the table's width and height.
VIEWPOINTS = ((0.5, 0.5), (0.2, 0.15), (0.8, 0.85), (0.33, 0.6), (0.7, 0.3))


def shipped_maps() -> list[tuple[str, MapData, Terrain]]:
    """Every shipped map with its ruleset's terrain table, labelled ``ruleset/map``."""
    found = []
    for ruleset in RULESETS:
        engine = importlib.import_module(f"rules.{ruleset}.engine").make_engine()
        assert engine.map_play is not None
        for name in engine.scenarios():
            found.append((f"{ruleset}/{name}", engine.scenario(name), engine.terrain()))
    return found


def focus_view(map_: MapData, at: tuple[float, float]) -> FieldView:
    x, y = at[0] * map_.width, at[1] * map_.height
    token = Token("Eye", "red", x, y, 0.5, 90)
    field = FieldState(map_, {"Eye": [x, y]})
    focus = Focus("Eye", 6.0, (Band("short", 12), Band("long", 24)))
    return FieldView(field, ("red", "blue"), (token,), focus, map_.name)


def median_ms(job: Callable[[], object], runs: int) -> float:
    job()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        job()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", default="", help="only the maps whose label (ruleset/map) holds this")
    args = parser.parse_args(argv)
    figures = {}
    for label, map_, terrain in shipped_maps():
        if args.only not in label:
            continue
        drawing, grid = [], []
        for at in VIEWPOINTS:
            view = focus_view(map_, at)
            viewer = Base(Point(at[0] * map_.width, at[1] * map_.height), 0.5)
            spacing = max(1.0, max(map_.width, map_.height) / 48)
            drawing.append(median_ms(partial(draw_field, view, terrain), args.runs))
            grid.append(median_ms(partial(sight_grid, view.field, terrain, viewer, spacing), args.runs))
        figures[label] = {"drawing_ms": statistics.median(drawing), "grid_ms": statistics.median(grid)}
        print(
            f"{label:24} {map_.width:g}x{map_.height:g}  {len(map_.features):2} features   drawing with a focus "
            f"{statistics.median(drawing):6.1f} ms   sight grid {statistics.median(grid):6.1f} ms   (median of "
            f"{len(VIEWPOINTS)} viewpoints, max grid {max(grid):6.1f} ms)"
        )
    return figures


if __name__ == "__main__":
    main()
