"""How long the battlefield's picture takes to draw: a busy 36-inch table of 30 terrain features
(every kind, buildings with doors and windows) and 40 figures, with and without a focus (a
figure's reach, range bands and sight shaded), with a melee (three places of figures in contact,
each magnified in an inset); NSR's village (19 features) with 12 units; and how long an SSG
engine takes to work out a focus's reach on 30 features (``field_view``: it asks the move along 24
bearings, rules/battlefield/reach.py).

    python -m bench.pictures                # 30 drawings of each, after 3 unmeasured
    python -m bench.pictures --runs 100 --save /tmp/busy   # also keep the two pictures

It prints the median and the 95th percentile of each, and the median CPU time a drawing took
(which a busy machine changes far less than the time). The issue's targets: under 150 ms without
a focus, a few hundred milliseconds with one. It prints its figures; it never fails on them.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace
from pathlib import Path

from bench.geometry import nsr_state as nsr_village
from bench.geometry import shooting_state
from bot.render.battlefield import draw_field
from rules.battlefield import Band, FieldState, FieldView, Focus, MapData, MapFeature, Opening, Token
from rules.battlefield.maps import map_problems
from rules.battlefield.terrain import Terrain
from rules.ssg.engine import make_engine

MARKS: tuple[tuple[str, ...], ...] = ((), (), ("wounded",), (), ("pinned",), (), ("no ammo",), ("down",), (), ("out",))


def busy_map() -> MapData:
    """30 features on a 36-inch table: a lane, three of each area kind, hedges, walls, fences and
    barricades, buildings with a door and a window; deployment strips along two edges."""
    features: list[MapFeature] = [
        MapFeature("road", [[0, 17], [36, 17], [36, 19.5], [0, 19.5]], name="the lane"),
    ]
    areas = ("wood", "building", "hill", "water", "ford", "rough", "rubble")
    lines = ("hedge", "wall", "fence", "barricade")
    cells = [(x, y) for y in (6.5, 11.5, 22, 27) for x in (1, 7, 13, 19, 25, 31)]
    for n, (x, y) in enumerate(cells[:17]):
        kind = areas[n % len(areas)]
        points = [[x, y], [x + 4, y], [x + 4.5, y + 3.5], [x + 0.5, y + 3.8]]
        openings = []
        if kind == "building":
            points = [[x, y], [x + 4, y], [x + 4, y + 3.5], [x, y + 3.5]]
            openings = [Opening("door", [x + 2, y]), Opening("window", [x + 4, y + 1.75])]
        features.append(MapFeature(kind, points, name=f"{kind} {n + 1}", openings=openings))
    for n, (x, y) in enumerate([*cells[17:], (10, 15), (22, 15), (1, 31.2), (13, 31.2), (25, 31.2)]):
        kind = lines[n % len(lines)]
        features.append(MapFeature(kind, [[x, y - 0.5], [x + 4, y - 0.5], [x + 4, y + 2]], "line", 0.5))
    zones: dict[str, list[list[float]]] = {
        "red": [[0, 0], [36, 0], [36, 5], [0, 5]],
        "blue": [[0, 31], [36, 31], [36, 36], [0, 36]],
    }
    return MapData("A busy table", 36, 36, features, zones)


def busy_view(focus: bool) -> FieldView:
    """40 figures, 20 a side, in ragged lines across the table, some marked, all facing."""
    tokens = []
    for n in range(40):
        side = "red" if n < 20 else "blue"
        row, col = divmod(n % 20, 10)
        x = 1.8 + col * 3.6 + (0.8 if row else 0)
        y = (2 + row * 13.5) if side == "red" else (34 - row * 13.5)
        tokens.append(
            Token(f"{side[0].upper()}{n % 20 + 1}", side, x, y, 0.5, 90 if side == "red" else 270, MARKS[n % 10])
        )
    field = FieldState(busy_map(), {t.name: [t.x, t.y] for t in tokens})
    chosen = Focus("R5", 4.0, (Band("short", 12), Band("long", 24))) if focus else None
    return FieldView(field, ("red", "blue"), tuple(tokens), chosen, "A busy table", ("40 figures, 30 features",))


def melee_view() -> FieldView:
    """The busy table with three pile-ups: each figure of the front ranks' first three touching an enemy."""
    view = busy_view(False)
    moved = list(view.tokens)
    for n in range(3):
        red = moved[n]
        moved[20 + n] = replace(moved[20 + n], x=red.x + 0.9, y=red.y + 0.3)
    return replace(view, tokens=tuple(moved), contacts=tuple((moved[n].name, moved[20 + n].name) for n in range(3)))


def timings(view: FieldView, terrain: Terrain, runs: int, warmup: int = 3) -> tuple[list[float], list[float]]:
    """Each drawing's time and the CPU time this process spent on it, in milliseconds."""
    for _ in range(warmup):
        draw_field(view, terrain)
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        draw_field(view, terrain)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return wall, cpu


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--save", type=Path, default=None, help="a folder to keep the two pictures in")
    args = parser.parse_args(argv)
    engine = make_engine()
    terrain = engine.terrain()
    problems = map_problems(busy_map(), engine.sides())
    if problems:
        raise SystemExit(f"the busy map is wrong: {problems}")
    figures = {}
    nsr_engine, nsr_state = nsr_village()
    nsr_view = nsr_engine.field_view(nsr_state)
    assert nsr_view is not None and len(nsr_view.units) == 12
    views = [("without focus", busy_view(False), terrain), ("with focus", busy_view(True), terrain)]
    views.append(("with a melee", melee_view(), terrain))
    views.append(("12 NSR units", nsr_view, nsr_engine.terrain()))
    for label, view, ground in views:
        times, cpu = timings(view, ground, args.runs)
        figures[label] = {"median_ms": statistics.median(times), "p95_ms": p95(times), "cpu_ms": statistics.median(cpu)}
        print(
            f"{label:14} median {statistics.median(times):6.1f} ms   p95 {p95(times):6.1f} ms"
            f"   CPU {statistics.median(cpu):6.1f} ms a drawing (median)   ({args.runs} drawings)"
        )
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"busy-{label.replace(' ', '-')}.png").write_bytes(draw_field(view, ground))
    moving = replace(shooting_state(), phase="movement")
    wall, cpu = [], []
    for _ in range(max(3, args.runs // 3)):
        start, start_cpu = time.perf_counter(), time.process_time()
        engine.field_view(moving, "R0")
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    figures["reach"] = {"median_ms": statistics.median(wall), "p95_ms": p95(wall), "cpu_ms": statistics.median(cpu)}
    print(
        f"{'a reach':14} median {statistics.median(wall):6.1f} ms   p95 {p95(wall):6.1f} ms"
        f"   CPU {statistics.median(cpu):6.1f} ms a focus's field_view (median)   ({len(wall)} views)"
    )
    return figures


if __name__ == "__main__":
    main()
