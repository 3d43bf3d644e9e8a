"""NSR's fire measured on the shipped village map, timed for ``python -m bench.geometry``: the check a
fire makes before any die (range, target class, sight from each firing place to each target figure,
A-NSR-36, A-NSR-44), from a line in the open at a line in the open, and from the farmhouse's doors
and windows (A-NSR-44) at a unit on the knoll; and the check of a fire at the unit inside
(A-NSR-46: whether it looks out toward the firer)."""

from __future__ import annotations

from collections.abc import Callable

from bench.nsr_village import UnitAt, set_out
from rules.nsr import fire, onmap, onmap_towns
from rules.nsr.engine import make_engine
from rules.nsr.options import FireOptions
from rules.nsr.state import unit_named

#: (name, side, kind, figures, centre, facing): a French line goes into the farmhouse's north door.
UNITS: list[UnitAt] = [
    ("1er Ligne", "French", "line", 12, (22.0, 8.0), 90.0),
    ("2e Ligne", "French", "line", 12, (32.5, 16.1), 90.0),
    ("33rd Foot", "Allied", "line", 12, (22.0, 17.5), 270.0),
    ("95th", "Allied", "light", 8, (36.0, 24.0), 270.0),
]


def nsr_fire_rows(
    timed: Callable[[Callable[[], object]], tuple[float, float]],
) -> list[tuple[str, tuple[float, float]]]:
    engine = make_engine()
    t, charts = engine.tables, engine.charts
    state = set_out(engine, UNITS)
    inside, farmhouse = unit_named(state, "2e Ligne"), onmap_towns.map_building(t, state, "the farmhouse")
    onmap_towns.record_of(state, farmhouse)
    inside.building = farmhouse.name
    onmap_towns.move_in(t, state, inside, farmhouse)
    state.phase = "fire"

    def check(firer: str, target: str) -> Callable[[], list[fire.Group]]:
        unit = unit_named(state, firer)

        def run() -> list[fire.Group]:
            return fire.plan_fire(charts, state, unit, onmap.measured(t, state, unit, FireOptions(target=target)))

        return run

    open_fire, from_inside, at_inside = (
        check("1er Ligne", "33rd Foot"),
        check("2e Ligne", "95th"),
        check("95th", "2e Ligne"),
    )
    said = [
        f"{g.firers} firing, class {g.klass}, {g.range}″" for g in (open_fire()[0], from_inside()[0], at_inside()[0])
    ]
    print(f"NSR fire: in the open {said[0]}; from the farmhouse {said[1]}; at it {said[2]}.")
    return [
        ("an NSR fire check in the open", timed(open_fire)),
        ("an NSR fire check from a building", timed(from_inside)),
        ("an NSR fire check at a building", timed(at_inside)),
    ]
