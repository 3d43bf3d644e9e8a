"""Where the figures stand, for the random sides: read from the ruleset's field view, so it is the
same on every map-playing ruleset."""

from __future__ import annotations

import math
import random
from typing import Any

from rules.core import Engine


def positions(engine: Engine[Any], state: Any) -> dict[str, tuple[float, float]]:
    """Every figure (or unit) on the map that is not out, by name."""
    view = engine.field_view(state)
    if view is None:
        return {}
    found = {t.name: (t.x, t.y) for t in view.tokens if "out" not in t.marks}
    for unit in view.units:
        if unit.outline and "out" not in unit.marks:
            xs, ys = zip(*unit.outline, strict=True)
            found.setdefault(unit.name, (sum(xs) / len(xs), sum(ys) / len(ys)))
    return found


def size(engine: Engine[Any], state: Any) -> tuple[float, float] | None:
    field = engine.field_of(state)
    return None if field is None else (field.map.width, field.map.height)


def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def nearest(where: tuple[float, float], others: dict[str, tuple[float, float]]) -> str | None:
    return min(others, key=lambda name: distance(where, others[name]), default=None)


def wander(rng: random.Random, where: tuple[float, float], reach: float, table: tuple[float, float]) -> str:
    """A point up to ``reach`` away in any direction, kept on the table, as ``x,y``."""
    angle, far = rng.uniform(0, 2 * math.pi), rng.uniform(0.5, reach)
    x = min(max(where[0] + far * math.cos(angle), 0.5), table[0] - 0.5)
    y = min(max(where[1] + far * math.sin(angle), 0.5), table[1] - 0.5)
    return f"{x:.1f},{y:.1f}"


def away(where: tuple[float, float], enemy: tuple[float, float], reach: float, table: tuple[float, float]) -> str:
    """A point ``reach`` straight away from ``enemy``, kept on the table."""
    d = distance(where, enemy) or 1.0
    x = where[0] + (where[0] - enemy[0]) / d * reach
    y = where[1] + (where[1] - enemy[1]) / d * reach
    return f"{min(max(x, 0.5), table[0] - 0.5):.1f},{min(max(y, 0.5), table[1] - 0.5):.1f}"
