"""The board's geometry: what players at a table would measure, computed from the grid.

Squares are (x, y) with (0, 0) the top-left square, written as players write them: column
letters and row numbers (``C4``). Everything passes through the sides of squares, never the
corners: distance is counted in orthogonal steps, adjacency is orthogonal (A-YASG-6, -15).
"""

from __future__ import annotations

import heapq
import itertools
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from rules.core import RuleError, short
from rules.words import column_name
from rules.yasg.data import EdgeKind, TerrainKind
from rules.yasg.state import Facing

Square = tuple[int, int]
SIDES = ("n", "e", "s", "w")
STEP = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}
SIDE_WORDS = {"n": "north", "e": "east", "s": "south", "w": "west"}
_SQUARE = re.compile(r"^([A-Za-z]{1,2})(\d{1,3})$")


def square_name(square: Square) -> str:
    return f"{column_name(square[0])}{square[1] + 1}"


def parse_square(text: str, width: int, height: int) -> Square:
    """``C4`` as (2, 3), refused with a sentence when it is not a square of this board."""
    match = _SQUARE.match(text.strip())
    if not match:
        raise RuleError(f"{short(text)} is not a square: write a column letter and a row number, like C4.")
    letters, digits = match.group(1).upper(), match.group(2)
    x = 0
    for ch in letters:
        x = x * 26 + (ord(ch) - 64)
    square = (x - 1, int(digits) - 1)
    if not (0 <= square[0] < width and 0 <= square[1] < height):
        last = square_name((width - 1, height - 1))
        raise RuleError(
            f"{square_name(square) if square[1] >= 0 else text} is off the board, which runs from A1 to {last}."
        )
    return square


def parse_squares(text: str, width: int, height: int) -> list[Square]:
    """Squares and rectangles (``C4 E5:F6``) in reading order, each once."""
    tokens = [t for t in re.split(r"[\s,;]+", str(text or "").strip()) if t]
    if not tokens:
        raise RuleError("Name at least one square, like C4, or a rectangle, like C4:E6.")
    found: list[Square] = []
    for token in tokens:
        corners = token.split(":")
        if len(corners) > 2:
            raise RuleError(f"{short(token)} is not a square or a rectangle like C4:E6.")
        a = parse_square(corners[0], width, height)
        b = parse_square(corners[-1], width, height)
        for y in range(min(a[1], b[1]), max(a[1], b[1]) + 1):
            for x in range(min(a[0], b[0]), max(a[0], b[0]) + 1):
                if (x, y) not in found:
                    found.append((x, y))
    return found


def parse_path(text: str, width: int, height: int) -> list[Square]:
    """A destination (``D5``) or a path of squares (``C5 D5`` or ``C5-D5``)."""
    tokens = [t for t in re.split(r"[\s,;>\-]+", str(text or "").strip()) if t]
    if not tokens:
        raise RuleError("Say where the figure goes: a square like D5, or a path like C5 D5.")
    return [parse_square(t, width, height) for t in tokens]


def edge_key(x: int, y: int, side: str) -> frozenset[Square]:
    """The two squares a side of (x, y) lies between."""
    dx, dy = STEP[side]
    return frozenset(((x, y), (x + dx, y + dy)))


def normal_edge(square: Square, side: str, width: int, height: int) -> tuple[int, int, Literal["n", "w"]]:
    """A side of a square as the north or west side of one square; refused on the board's rim."""
    dx, dy = STEP[side]
    other = (square[0] + dx, square[1] + dy)
    if not (0 <= other[0] < width and 0 <= other[1] < height):
        raise RuleError(
            f"The {SIDE_WORDS[side]} side of {square_name(square)} is the edge of the board: nothing crosses it."
        )
    if side == "n":
        return square[0], square[1], "n"
    if side == "w":
        return square[0], square[1], "w"
    return other[0], other[1], "n" if side == "s" else "w"


def distance(a: Square, b: Square) -> int:
    """Squares counted through sides (orthogonal steps)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def adjacent(a: Square, b: Square) -> bool:
    return distance(a, b) == 1


def side_towards(a: Square, b: Square) -> str:
    """The side of ``a`` an orthogonal neighbour ``b`` lies across."""
    return next(s for s, (dx, dy) in STEP.items() if (a[0] + dx, a[1] + dy) == b)


def facing_towards(a: Square, b: Square) -> Facing:
    """The grid direction nearest the line from ``a`` to ``b`` (ties: north/south first)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if abs(dy) >= abs(dx):
        return "s" if dy > 0 else "n"
    return "e" if dx > 0 else "w"


def in_arc(a: Square, facing: str, b: Square, arc_degrees: float) -> bool:
    """A-YASG-18: the line between centres lies within half the arc of the facing."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if (dx, dy) == (0, 0):
        return False
    fx, fy = STEP[facing]
    angle = math.degrees(math.acos(max(-1.0, min(1.0, (dx * fx + dy * fy) / math.hypot(dx, dy)))))
    return angle <= arc_degrees / 2 + 1e-9


@dataclass(frozen=True)
class LineStep:
    """A square a line of fire passes through, or two squares it passes between at a corner."""

    squares: tuple[Square, ...]


def line_squares(a: Square, b: Square) -> list[LineStep]:
    """The squares strictly between ``a`` and ``b`` that the line between their centres crosses."""
    x0, y0 = Fraction(2 * a[0] + 1), Fraction(2 * a[1] + 1)
    dx, dy = Fraction(2 * (b[0] - a[0])), Fraction(2 * (b[1] - a[1]))
    sx = 1 if dx > 0 else -1
    sy = 1 if dy > 0 else -1
    times: dict[Fraction, set[str]] = {}
    if dx:
        first = a[0] + (1 if sx > 0 else 0)
        for k in range(abs(b[0] - a[0])):
            boundary = 2 * (first + sx * k)
            times.setdefault((boundary - x0) / dx, set()).add("x")
    if dy:
        first = a[1] + (1 if sy > 0 else 0)
        for k in range(abs(b[1] - a[1])):
            boundary = 2 * (first + sy * k)
            times.setdefault((boundary - y0) / dy, set()).add("y")
    steps: list[LineStep] = []
    x, y = a
    for t in sorted(times):
        crossed = times[t]
        if crossed == {"x", "y"}:
            steps.append(LineStep(((x + sx, y), (x, y + sy))))
            x, y = x + sx, y + sy
        elif crossed == {"x"}:
            x += sx
        else:
            y += sy
        if (x, y) != b:
            steps.append(LineStep(((x, y),)))
    return steps


class Field:
    """The board of one game as geometry: terrain, edges and who stands where."""

    def __init__(
        self,
        width: int,
        height: int,
        terrain: Mapping[Square, str],
        uphill: Mapping[Square, tuple[str, ...] | None],
        edges: Mapping[frozenset[Square], str],
        occupants: Mapping[Square, tuple[str, str]],
        terrain_kinds: Mapping[str, TerrainKind],
        edge_kinds: Mapping[str, EdgeKind],
        uphill_cost: int = 1,
    ) -> None:
        self.width = width
        self.height = height
        self.terrain = dict(terrain)
        self.explicit_uphill = dict(uphill)
        self.edges = dict(edges)
        self.occupants = dict(occupants)
        self.terrain_kinds = terrain_kinds
        self.edge_kinds = edge_kinds
        self.uphill_cost = uphill_cost

    # --- squares

    def on_board(self, square: Square) -> bool:
        return 0 <= square[0] < self.width and 0 <= square[1] < self.height

    def neighbours(self, square: Square) -> list[tuple[str, Square]]:
        out = []
        for side in SIDES:
            dx, dy = STEP[side]
            other = (square[0] + dx, square[1] + dy)
            if self.on_board(other):
                out.append((side, other))
        return out

    def kind_name(self, square: Square) -> str:
        return self.terrain.get(square, "open")

    def kind(self, square: Square) -> TerrainKind:
        return self.terrain_kinds.get(self.kind_name(square), self.terrain_kinds["open"])

    def uphill_sides(self, square: Square) -> tuple[str, ...]:
        """A hill square's uphill sides: as set, else every side bordering ground that is not hill."""
        if not self.kind(square).hill:
            return ()
        explicit = self.explicit_uphill.get(square)
        if explicit is not None:
            return tuple(explicit)
        return tuple(side for side, other in self.neighbours(square) if not self.kind(other).hill)

    def edge_between(self, a: Square, b: Square) -> str | None:
        return self.edges.get(frozenset((a, b)))

    # --- movement

    def step_cost(self, a: Square, b: Square) -> tuple[int, list[str]]:
        """Squares of movement to step from ``a`` into its neighbour ``b``, and why beyond 1."""
        cost, why = 1, []
        if side_towards(b, a) in self.uphill_sides(b) and self.uphill_cost:
            cost += self.uphill_cost
            why.append("uphill")
        edge = self.edge_between(a, b)
        if edge is not None and self.edge_kinds[edge].cross_cost:
            cost += self.edge_kinds[edge].cross_cost
            why.append(f"crossing a {edge}")
        entering = self.kind(b)
        if entering.enter_cost and self.kind_name(a) != self.kind_name(b):
            cost += entering.enter_cost
            why.append(f"entering the {self.kind_name(b)}")
        return cost, why

    def path_cost(self, path: list[Square]) -> tuple[int, list[str]]:
        total, reasons = 0, []
        for a, b in itertools.pairwise(path):
            cost, why = self.step_cost(a, b)
            total += cost
            reasons.extend(why)
        return total, reasons

    def route(self, start: Square, goal: Square, side: str, budget: int, through_friends: bool) -> list[Square] | None:
        """The cheapest path through sides from ``start`` to ``goal`` within ``budget`` (fewest
        steps on a tie, then the first in reading order), or None."""
        best: dict[Square, tuple[int, int]] = {start: (0, 0)}
        queue: list[tuple[int, int, list[Square]]] = [(0, 0, [start])]
        while queue:
            cost, steps, path = heapq.heappop(queue)
            here = path[-1]
            if here == goal:
                return path
            if best.get(here, (cost, steps)) < (cost, steps):
                continue
            for _, there in self.neighbours(here):
                if not self.passable(there, side, through_friends) and there != goal:
                    continue
                extra, _ = self.step_cost(here, there)
                total = cost + extra
                if total > budget:
                    continue
                key = (total, steps + 1)
                if there in best and best[there] <= key:
                    continue
                best[there] = key
                heapq.heappush(queue, (total, steps + 1, [*path, there]))
        return None

    def passable(self, square: Square, side: str, through_friends: bool) -> bool:
        who = self.occupants.get(square)
        return who is None or (through_friends and who[1] == side)

    # --- firing

    def line_of_fire(self, a: Square, b: Square, figures_block: bool) -> str | None:
        """None when the line from ``a`` to ``b`` is clear, else what blocks it (a sentence part)."""
        low = not (self.kind(a).blocks_low_fire or self.kind(b).blocks_low_fire)
        for step in line_squares(a, b):
            blockers = [self._blocker(sq, figures_block, low) for sq in step.squares]
            if all(blockers):
                return blockers[0]
        return None

    def _blocker(self, square: Square, figures_block: bool, low: bool) -> str | None:
        kind = self.kind(square)
        if kind.blocks_fire or (low and kind.blocks_low_fire):
            return f"the {self.kind_name(square)} at {square_name(square)}"
        who = self.occupants.get(square)
        if figures_block and who is not None:
            return f"{who[0]} at {square_name(square)}"
        return None

    def cover(self, firer: Square, target: Square) -> tuple[str, str | None]:
        """The target's best cover against this firer: ("none"|"soft"|"hard", what gives it)."""
        rank = {"none": 0, "soft": 1, "hard": 2}
        best: tuple[str, str | None] = ("none", None)
        here = self.kind(target)
        if here.cover != "none":
            best = (here.cover, f"in the {self.kind_name(target)}")
        for side in self.entry_sides(target, firer):
            dx, dy = STEP[side]
            edge = self.edge_between(target, (target[0] + dx, target[1] + dy))
            if edge is not None:
                cover = self.edge_kinds[edge].cover
                if rank[cover] > rank[best[0]]:
                    best = (cover, f"behind a {edge}")
        return best

    @staticmethod
    def entry_sides(target: Square, firer: Square) -> list[str]:
        """The sides of ``target`` a line of fire from ``firer`` enters through."""
        dx, dy = firer[0] - target[0], firer[1] - target[1]
        sides = []
        if abs(dx) >= abs(dy) and dx:
            sides.append("e" if dx > 0 else "w")
        if abs(dy) >= abs(dx) and dy:
            sides.append("s" if dy > 0 else "n")
        return sides

    # --- close combat

    def height_advantage(self, me: Square, enemy: Square) -> bool:
        """The enemy stands uphill of me: stepping from my square into its square climbs."""
        return side_towards(enemy, me) in self.uphill_sides(enemy)

    def walls_between(self, a: Square, b: Square) -> bool:
        """An obstruction such as the wall of a house: one square inside walls, the other not."""
        ka, kb = self.kind(a), self.kind(b)
        return (ka.walls or kb.walls) and self.kind_name(a) != self.kind_name(b)


def within(a: Square, others: Iterable[Square], squares: int) -> bool:
    return any(distance(a, b) <= squares for b in others)
