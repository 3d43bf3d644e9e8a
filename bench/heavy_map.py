"""The heaviest map file the bot takes: as many areas as a map may hold, each outline with as many
points as the file's byte limit leaves room for.

    python -m bench.heavy_map > heavy.yaml      # for /map import by hand

The areas are rough ground, water and fords (they slow a figure but hide nobody), in a band across
a table 120 inches wide and 40 deep, between the two sides' deployment strips along its long
edges: a rifle reaches across it, so a shot's odds measure sight and cover past every area. Used by
:mod:`bench.bounded` and by the tests that keep the event loop free while maps are imported.
"""

from __future__ import annotations

import functools
import math
import sys
from collections.abc import Sequence

from bot.app.yaml_format import MAX_FILE_BYTES
from rules.geometry import MAX_FEATURES, MAX_POINTS

AREA_KINDS = ("rough", "water", "ford")
WIDTH, HEIGHT, ZONE = 120.0, 40.0, 6.0


def heavy_map(sides: Sequence[str] = ("red", "blue"), points: int | None = None, features: int = MAX_FEATURES) -> bytes:
    """A map file of ``features`` areas (outlines of ``points`` corners, to the hundredth of an inch;
    None: the most that fit in the file's byte limit), as YAML text."""
    if points is None:
        low, high = 3, MAX_POINTS  # the most that fit: each point adds bytes
        while low < high:
            middle = (low + high + 1) // 2
            low, high = (
                (middle, high) if len(_text(tuple(sides), middle, features)) <= MAX_FILE_BYTES else (low, middle - 1)
            )
        points = low
    data = _text(tuple(sides), points, features)
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"{features} areas of {points} points take {len(data)} bytes, over {MAX_FILE_BYTES}")
    return data


@functools.lru_cache(maxsize=16)
def _text(sides: tuple[str, ...], points: int, features: int) -> bytes:
    band = HEIGHT - 2 * ZONE - 2
    columns = math.ceil(math.sqrt(features * WIDTH / band))
    rows = math.ceil(features / columns)
    step_x, step_y = WIDTH / columns, band / rows
    radius = 0.45 * min(step_x, step_y)
    lines = [
        "name: The heaviest map",
        "description: " + "Every area a map may hold, each outline as long as the file's size allows. " * 3,
        f"table: {{width: {WIDTH:g}, height: {HEIGHT:g}}}",
        "features:",
    ]
    for n in range(features):
        cx = step_x * (n % columns + 0.5) + 0.003
        cy = ZONE + 1 + step_y * (n // columns + 0.5) + 0.007
        outline = ", ".join(
            f"[{cx + radius * math.cos(2 * math.pi * k / points):.2f}, "
            f"{cy + radius * math.sin(2 * math.pi * k / points):.2f}]"
            for k in range(points)
        )
        lines.append(f"  - {{kind: {AREA_KINDS[n % len(AREA_KINDS)]}, name: area {n + 1}, area: [{outline}]}}")
    low, high = sides[0], sides[1]
    top = HEIGHT - ZONE
    lines += [
        "zones:",
        f"  {low}: [[0, 0], [{WIDTH:g}, 0], [{WIDTH:g}, {ZONE:g}], [0, {ZONE:g}]]",
        f"  {high}: [[0, {top:g}], [{WIDTH:g}, {top:g}], [{WIDTH:g}, {HEIGHT:g}], [0, {HEIGHT:g}]]",
    ]
    return ("\n".join(lines) + "\n").encode()


if __name__ == "__main__":
    sys.stdout.buffer.write(heavy_map())
