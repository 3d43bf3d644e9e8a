"""A grid board as text, for the terminal: coordinates, terrain letters, and figures."""
from __future__ import annotations

from rules.core import Grid

TERRAIN_MARK = {"open": ".", "hill": "^", "building": "#", "soft cover": "%", "hard cover": "&", "wood": "%"}
EDGE_MARK = {"hedge": "=", "wall": "H"}


def column_name(x: int) -> str:
    """Columns are letters (A … Z, then AA …), rows are numbers from 1, as on a map."""
    name = ""
    x += 1
    while x:
        x, rem = divmod(x - 1, 26)
        name = chr(65 + rem) + name
    return name


def grid_text(grid: Grid) -> str:
    """One cell is three characters: terrain, then the figure's label (or the terrain again)."""
    squares = {(s.x, s.y): s for s in grid.squares}
    pieces = {(p.x, p.y): p for p in grid.pieces}
    header = "    " + "".join(f"{column_name(x):^4}" for x in range(grid.width))
    lines = [header]
    for y in range(grid.height):
        row = [f"{y + 1:>3} "]
        for x in range(grid.width):
            square = squares.get((x, y))
            mark = TERRAIN_MARK.get(square.terrain, "?") if square else "."
            edge = ""
            if square and square.edges:
                edge = EDGE_MARK.get(next(iter(square.edges.values())), "|")
            piece = pieces.get((x, y))
            if piece:
                flags = "!" if "pinned" in piece.marks else ("_" if "fallen" in piece.marks else "")
                cell = (piece.label[:2] + flags)[:3]
            else:
                cell = mark * 2 + (edge or " ")
            row.append(f"{cell:<3} ")
        lines.append("".join(row).rstrip())
    legend = [f"{p.label[:2]} = {p.name} ({p.side}{', facing ' + p.facing.upper() if p.facing else ''}"
              f"{', ' + ', '.join(p.marks) if p.marks else ''}{f', {p.pips} wound' if p.pips else ''})"
              for p in grid.pieces]
    return "\n".join(lines + legend)
