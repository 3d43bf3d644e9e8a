"""The map's measuring, timed: range and sight between two figures, a move's plan, and a whole
SSG shot and move through the engine, on a 36-inch map of thirty features; and NSR's charge check,
fall-backs (A-NSR-37, A-NSR-38) and a move toward a unit (A-NSR-35) among twelve units on the
shipped village map (19 features); and a Sharpe shot's sight and cover and a walk over a wall on
the farm map (bench/sharpe_map.py); and NSR's fire checks in the open and from and at a building
on the village (bench/nsr_fire.py).

Run with ``python -m bench.geometry``; it prints median and 95th-percentile times (the issue's
target: a range and sight check under 1 ms). Nothing here is asserted."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from bench.nsr_fire import nsr_fire_rows
from bench.nsr_village import TWELVE, set_out
from bench.sharpe_map import sharpe_rows
from rules.battlefield import FieldState, MovePlan, Terrain, line_of_sight, plan_move
from rules.core import Action, FigureSpec
from rules.geometry import Base, Point, centre_distance
from rules.nsr import onmap
from rules.nsr.engine import NsrEngine
from rules.nsr.engine import make_engine as make_nsr_engine
from rules.nsr.options import MoveOptions
from rules.nsr.state import NsrState, unit_named
from rules.ssg.engine import SsgState, make_engine

ROUNDS = 400


class Sixes:
    """Every die a 6, but the roll-off's second (a tie would be rolled again for ever)."""

    def roll(self, sides: int, reason: str) -> int:
        return 1 if reason == "Roll-off: blue" else 6

    def draw(self, cards: Any, reason: str) -> str:
        raise AssertionError(reason)


def thirty_features() -> dict[str, Any]:
    features: list[dict[str, Any]] = []
    for i in range(15):
        x, y = 2 + 6 * (i % 5), 6 + 8 * (i // 5)
        features.append({"kind": "wood", "area": [[x, y], [x + 3, y], [x + 3, y + 2.5], [x, y + 2.5]]})
        features.append({"kind": "hedge", "line": [[x + 3.5, y - 1.5], [x + 5.5, y - 1]]})
    return {
        "name": "Bench",
        "table": {"width": 36, "height": 36},
        "features": features,
        "zones": {"red": [[0, 0], [36, 0], [36, 4], [0, 4]], "blue": [[0, 32], [36, 32], [36, 36], [0, 36]]},
    }


def round_rows(
    field: FieldState, terrain: Terrain, timer: Callable[[Callable[[], object]], tuple[float, float]]
) -> list[tuple[str, tuple[float, float]]]:
    """A move whose straight line runs through other bases, planned the way round them (not a
    check: without the way round the move would be refused)."""
    rows = []
    for label, others in (
        ("a move's plan round a base in the way", {"F0": [5.0, 2.0]}),
        ("a move's plan round a row of three bases", {f"F{i}": [4.0 + 1.05 * i, 2.0] for i in range(3)}),
    ):
        crowd = FieldState(field.map, positions={"A": [1.0, 2.0], **others})
        radii = dict.fromkeys(crowd.positions, 0.5)

        def plan(crowd: FieldState = crowd, radii: dict[str, float] = radii) -> MovePlan:
            return plan_move(crowd, terrain, "A", [Point(10, 2)], 12, radii)

        if not plan().went_round:
            raise AssertionError(f"{label}: the path went straight")
        rows.append((label, timer(plan)))
    return rows


def timed(what: Callable[[], object]) -> tuple[float, float]:
    what()
    times = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        what()
        times.append(time.perf_counter() - started)
    times.sort()
    return statistics.median(times) * 1000, times[int(len(times) * 0.95)] * 1000


def shooting_state() -> SsgState:
    engine = make_engine()
    names = [("red", f"R{i}") for i in range(6)] + [("blue", f"B{i}") for i in range(6)]
    specs = [FigureSpec(name, side, "rifle") for side, name in names]
    state = engine.start_on_map(specs, Sixes(), engine.read_map(thirty_features())).state
    for side in ("red", "blue"):
        state = engine.act(state, Action("deploy", side), Sixes()).state
    data = engine.dump_state(state)
    data["field"]["positions"]["R0"] = [17.0, 10.0]
    data["field"]["positions"]["B0"] = [17.0, 30.0]
    data["phase"] = "shooting"
    return engine.load_state(data)


def nsr_state() -> tuple[NsrEngine, NsrState]:
    engine = make_nsr_engine()
    return engine, set_out(engine, TWELVE)


def nsr_rows(
    time_it: Callable[[Callable[[], object]], tuple[float, float]] = timed,
) -> list[tuple[str, tuple[float, float]]]:
    """NSR's charge check and fall-backs, each on the same state again (a fall-back moves the unit:
    it is put back after each round, which costs a few microseconds)."""
    engine, state = nsr_state()
    t = engine.tables
    field = onmap.field_of(state)
    charger, target = unit_named(state, "1er Ligne"), unit_named(state, "33rd Foot")

    def falling_back(name: str, enemy: str | None, inches: float) -> Callable[[], str]:
        unit = unit_named(state, name)
        away_from = unit_named(state, enemy) if enemy else None
        where, facing = list(field.positions[name]), field.facing[name]

        def run() -> str:
            text = onmap.fall_back(t, state, unit, away_from, inches)[0]
            field.positions[name], field.facing[name] = list(where), facing
            return text

        return run

    stopped, clear, joker = (
        falling_back("95th", "Voltigeurs", 14.0),
        falling_back("33rd Foot", "1er Ligne", 6.0),
        falling_back("Voltigeurs", None, 8.0),
    )
    way = onmap.charge_way(t, state, charger, target)
    print(f"NSR charge: {way.needed:.2f} in to go. Fall-backs: {stopped()}; {clear()}; {joker()}.")
    return [
        ("an NSR charge check (charge_way)", time_it(lambda: onmap.charge_way(t, state, charger, target))),
        ("an NSR fall-back stopped by a unit", time_it(stopped)),
        ("an NSR fall-back on clear ground", time_it(clear)),
        ("an NSR Joker fall-back (nearest enemy)", time_it(joker)),
    ]


def nsr_move_rows(
    time_it: Callable[[Callable[[], object]], tuple[float, float]] = timed,
) -> list[tuple[str, tuple[float, float]]]:
    """NSR's check of a move toward a unit (A-NSR-35): the 1er Ligne toward the 33rd Foot, as far
    as it may go, its path checked whole before any die (the state is left as it is)."""
    engine, state = nsr_state()
    t = engine.tables
    mover = unit_named(state, "1er Ligne")
    asked = MoveOptions(toward="33rd Foot")
    way = onmap.route(t, state, mover, asked, mover.formation)
    end = way.path[-1]
    print(f"NSR move toward: {way.length:.2f} in to {onmap.at(end)}, {way.going.replace('_', ' ')}.")
    return [
        ("an NSR move toward a unit (route)", time_it(lambda: onmap.route(t, state, mover, asked, mover.formation)))
    ]


def main() -> None:
    engine = make_engine()
    terrain = engine.terrain()
    field = FieldState(engine.read_map(thirty_features()), positions={"A": [1.0, 1.0]})
    shooter, target = Base(Point(1, 1), 0.5), Base(Point(33, 31), 0.5)
    rows = [
        (
            "range and sight, corner to corner",
            timed(lambda: (centre_distance(shooter, target), line_of_sight(field, terrain, shooter, target))),
        ),
        (
            "a move's plan, three waypoints",
            timed(lambda: plan_move(field, terrain, "A", [Point(2, 2), Point(3, 2), Point(4, 3)], 6, {"A": 0.5})),
        ),
    ]
    rows += round_rows(field, terrain, timed)
    state = shooting_state()
    shot = Action("shoot", state.active, {"shooter": "R0", "target": "B0"})
    rows.append(("an SSG shot through the engine", timed(lambda: engine.act(state, shot, Sixes()))))
    moving = engine.load_state({**engine.dump_state(state), "phase": "movement"})
    move = Action("move", moving.active, {"figure": "R0", "to": "18,12"})
    rows.append(("an SSG move through the engine", timed(lambda: engine.act(moving, move, Sixes()))))
    rows += nsr_rows()
    rows += nsr_move_rows()
    rows += nsr_fire_rows(timed)
    rows += sharpe_rows(timed)
    print(f"{'30 features on a 36-inch table':40} {'median':>9} {'p95':>9}")
    for label, (median, p95) in rows:
        print(f"{label:40} {median:8.3f}ms {p95:8.3f}ms")


if __name__ == "__main__":
    main()
