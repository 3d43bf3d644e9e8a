"""The heaviest map file the bot takes: as many areas as a map may hold, each with as many points as
the file's byte limit leaves room for, on a table whose deployment zones stay clear.

    python -m bench.heavy_map > heavy.yaml      # for /map import by hand

Used by :mod:`bench.bounded` and by the tests that hold the event loop free while maps are imported.
"""

from __future__ import annotations

import math
import sys

from bot.app.yaml_format import MAX_FILE_BYTES
from rules.geometry import MAX_FEATURES

#: The kinds of area laid out in turn (each ruleset on the map knows all of them).
AREA_KINDS = ("wood", "rough", "hill", "water", "rubble")
#: The table's size and the depth of each side's deployment strip along its lower and upper edges.
WIDTH, HEIGHT, ZONE = 120.0, 120.0, 6.0


def heavy_map(sides: tuple[str, str] = ("red", "blue"), points: int = 24, features: int = MAX_FEATURES) -> bytes:
    """A map file of ``features`` areas of ``points`` points each (24-gons on a grid between the two
    sides' zones, coordinates to the hundredth of an inch), as YAML text."""
    columns = math.ceil(math.sqrt(features))
    rows = math.ceil(features / columns)
    step_x, step_y = WIDTH / columns, (HEIGHT - 2 * ZONE - 2) / rows
    radius = 0.4 * min(step_x, step_y)
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
    low, high = sides
    lines += [
        "zones:",
        f"  {low}: [[0, 0], [{WIDTH:g}, 0], [{WIDTH:g}, {ZONE:g}], [0, {ZONE:g}]]",
        f"  {high}: [[0, {HEIGHT - ZONE:g}], [{WIDTH:g}, {HEIGHT - ZONE:g}], [{WIDTH:g}, {HEIGHT:g}], [0, {HEIGHT:g}]]",
    ]
    data = ("\n".join(lines) + "\n").encode()
    assert len(data) <= MAX_FILE_BYTES, len(data)
    return data


if __name__ == "__main__":
    sys.stdout.buffer.write(heavy_map())
