"""NSR units set out where a benchmark or a test wants them on the shipped village map (48 by 36
inches, 19 features), every unit placed by hand and facing as given, no card turned."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.battlefield.maps import load_scenario
from rules.core import FigureSpec
from rules.nsr import onmap
from rules.nsr.engine import NsrEngine
from rules.nsr.state import NsrState

#: A unit to set out: name, side, kind, figures, centre (x, y) and facing in degrees.
UnitAt = tuple[str, str, str, int, tuple[float, float], float]

#: Twelve NSR units on the village map. The 1er Ligne charges the 33rd Foot across open ground; the
#: 95th, shaken, falls back into the Royal Scots.
TWELVE: list[UnitAt] = [
    ("1er Ligne", "French", "line", 12, (16.0, 3.0), 90.0),
    ("2e Ligne", "French", "line", 12, (6.0, 3.0), 90.0),
    ("3e Ligne", "French", "line", 12, (28.0, 3.0), 90.0),
    ("Voltigeurs", "French", "light", 8, (36.0, 5.0), 90.0),
    ("Hussars", "French", "mounted", 6, (44.0, 3.0), 90.0),
    ("Gunners", "French", "artillery", 4, (8.0, 7.0), 90.0),
    ("33rd Foot", "Allied", "line", 12, (21.0, 11.0), 270.0),
    ("95th", "Allied", "light", 8, (36.0, 24.0), 270.0),
    ("Royal Scots", "Allied", "line", 12, (36.0, 31.0), 270.0),
    ("52nd Foot", "Allied", "line", 12, (10.0, 31.0), 270.0),
    ("Dragoons", "Allied", "mounted", 6, (24.0, 33.0), 270.0),
    ("Militia", "Allied", "militia", 12, (4.0, 27.0), 270.0),
]


class _NoDice:
    """Setting out rolls nothing: any die asked for is a mistake."""

    def roll(self, sides: int, reason: str) -> int:
        raise AssertionError(reason)

    def draw(self, cards: Any, reason: str) -> str:
        raise AssertionError(reason)


def set_out(engine: NsrEngine, units: Sequence[UnitAt]) -> NsrState:
    """A battle on the village with ``units`` standing where they are given."""
    specs = [FigureSpec(name, side, kind, {"figures": count}) for name, side, kind, count, _, _ in units]
    village = load_scenario("rules.nsr", "village", engine.sides(), engine.terrain())
    state = engine.start_on_map(specs, _NoDice(), village).state
    field = onmap.field_of(state)
    for name, _, _, _, (x, y), facing in units:
        field.positions[name] = [x, y]
        field.facing[name] = facing
    return state
