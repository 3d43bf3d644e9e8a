"""A grid board as text, for the terminal: coordinates, terrain, hedges and walls on square sides,
and every figure with its label, facing and marks, then a key.

Each square is five characters wide. A figure shows as its label (up to three characters), an
arrow for its facing (``^ > v <``) and a mark: ``!`` pinned, ``_`` fallen, ``*`` leader. With two
sides, the second side's labels are in small letters. Hedges and walls stand between squares:
in the gap between two columns, or on a line of their own between two rows.
"""

from __future__ import annotations

from rules.core import Grid, GridPiece, GridSquare
from rules.words import column_name

CELL = 5
TERRAIN_FILL = {
    "open": "  .  ",
    "hill": " ^ ^ ",
    "crops": " , , ",
    "wood": " * * ",
    "rubble": " : : ",
    "building": "[###]",
    "soft cover": " % % ",
    "hard cover": " & & ",
}
TERRAIN_KEY = {
    "hill": "^ hill",
    "crops": ", crops",
    "wood": "* wood",
    "rubble": ": rubble",
    "building": "[###] building",
    "soft cover": "% soft cover",
    "hard cover": "& hard cover",
}
EDGE_MARK = {"hedge": "%", "wall": "#"}
ARROW = {"n": "^", "ne": "^", "e": ">", "se": "v", "s": "v", "sw": "v", "w": "<", "nw": "^"}


def _fill(square: GridSquare | None) -> str:
    if square is None:
        return TERRAIN_FILL["open"]
    fill = TERRAIN_FILL.get(square.terrain)
    if fill is None:
        mark = (square.terrain[:1] or "?").lower()
        fill = f" {mark} {mark} "
    return fill


def _edge_mark(kind: str) -> str:
    return EDGE_MARK.get(kind, (kind[:1] or "|"))


def code(piece: GridPiece) -> str:
    """The piece's short code in the text: its tag (a YASG class letter) and its label, 3 at most."""
    return f"{piece.tag}{piece.label}"[:3]


def _piece_cell(piece: GridPiece, small: bool) -> str:
    label = code(piece)
    if small:
        label = label.lower()
    arrow = ARROW.get(piece.facing or "", "")
    mark = (
        "!" if "pinned" in piece.marks else "_" if "fallen" in piece.marks else "*" if "leader" in piece.marks else ""
    )
    return (label + arrow + mark)[:CELL].center(CELL)


def grid_text(grid: Grid) -> str:
    squares = {(s.x, s.y): s for s in grid.squares}
    pieces = {(p.x, p.y): p for p in grid.pieces}
    sides = list(dict.fromkeys(p.side for p in grid.pieces))
    small = set(sides[1:2]) if len(sides) == 2 else set()
    vertical: dict[tuple[int, int], str] = {}
    horizontal: dict[tuple[int, int], str] = {}
    for s in grid.squares:
        for side, kind in s.edges.items():
            if side == "w":
                vertical[(s.x, s.y)] = _edge_mark(kind)
            elif side == "e":
                vertical[(s.x + 1, s.y)] = _edge_mark(kind)
            elif side == "n":
                horizontal[(s.x, s.y)] = _edge_mark(kind)
            elif side == "s":
                horizontal[(s.x, s.y + 1)] = _edge_mark(kind)
    lines = ["    " + "".join(" " + f"{column_name(x):^{CELL}}" for x in range(grid.width)).rstrip()]
    for y in range(grid.height):
        if any((x, y) in horizontal for x in range(grid.width)):
            lines.append("    " + "".join(" " + horizontal.get((x, y), " ") * CELL for x in range(grid.width)).rstrip())
        row = [f"{y + 1:>3} "]
        for x in range(grid.width):
            row.append(vertical.get((x, y), " "))
            piece = pieces.get((x, y))
            row.append(_piece_cell(piece, piece.side in small) if piece else _fill(squares.get((x, y))))
        row.append(vertical.get((grid.width, y), ""))
        lines.append("".join(row).rstrip())
    return "\n".join(lines + _key(grid, small))


def _key(grid: Grid, small: set[str]) -> list[str]:
    kinds = list(dict.fromkeys(s.terrain for s in grid.squares if s.terrain != "open"))
    edges = list(dict.fromkeys(kind for s in grid.squares for kind in s.edges.values()))
    key = [TERRAIN_KEY.get(k, f"{k[:1].lower()} {k}") for k in kinds] + [f"{_edge_mark(k)} {k}" for k in edges]
    lines = ["Key: " + " · ".join(key)] if key else []
    if small:
        sides = list(dict.fromkeys(p.side for p in grid.pieces))
        lines.append(f"Capitals: {sides[0]}; small letters: {sides[1]}. ^ > v < facing; ! pinned, _ fallen, * leader.")
    for p in grid.pieces:
        label = code(p).lower() if p.side in small else code(p)
        details = [p.side, f"{column_name(p.x)}{p.y + 1}"]
        if p.facing:
            details.append(f"facing {p.facing.upper()}")
        details.extend(p.marks)
        if p.pips:
            details.append(f"{p.pips} wound point{'s' if p.pips != 1 else ''}")
        lines.append(f"{label} = {p.name} ({', '.join(details)})")
    return lines
