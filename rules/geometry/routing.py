"""The way round: when a straight leg of a path runs through other figures' bases, the cheapest
path round them, as a player at a table walks his figure round a friend instead of through him.

Only bases are gone round. Terrain is not routed: a player chooses whether to cross a wood or skirt
it, so a leg through impassable ground is still refused (and a way round a base may not cross it).

The search is a shortest path over a small graph: the leg's two ends and, for each base near the
leg, points on a ring just outside where the mover's base would touch it. Ring points are spaced so
that the chord between two neighbours stays clear of the base, so a way round exists in the graph
whenever one exists with room to spare. Edges cost what the ground costs (``path_cost``)."""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Mapping, Sequence

import numpy as np

from rules.geometry.measure import CONTACT_TOLERANCE, Ground, bases_crossed, centre_distance
from rules.geometry.shapes import Base, Battlefield, Point, Table

#: Points on each ring: sixteen keep every chord within cos(11.25°) of the ring's radius, so a way
#: round is at most a few hundredths of an inch longer than the tightest one.
RING_POINTS = 16
#: How far outside touching the ring lies, in inches: enough that float noise never reads as overlap.
CLEARANCE = 0.02
#: Bases further than this from a leg (in inches, beyond touching) are not worth going round.
NEAR = 6.0
#: At most this many bases are gone round for one leg: the graph stays small.
MOST_BASES = 8


def legs_round(
    field: Battlefield,
    costs: Mapping[str, float | None],
    path: Sequence[Point],
    radius: float,
    others: Mapping[str, Base],
) -> tuple[list[Point], list[str]] | None:
    """``path`` with every leg that runs through a base replaced by its cheapest way round, and the
    bases gone round (nearest the start first); None when some leg has no way round."""
    steps = _Steps(Ground.of(field, costs), radius, tuple(others.values()))
    out = [path[0]]
    gone_round: list[str] = []
    for a, b in itertools.pairwise(path):
        crossed = bases_crossed([a, b], radius, others)
        if not crossed:
            out.append(b)
            continue
        found = _way_round(field, steps, a, b)
        if found is None:
            return None
        out.extend(found[1:])
        gone_round.extend(n for n in crossed if n not in gone_round)
    return out, gone_round


class _Steps:
    """What a straight step costs for a base of ``radius`` among ``bases``: None when it runs
    through a base (tested first, in plain arithmetic: most steps fail there) or impassable ground.
    The bases' centres and reaches and the features' boxes are numpy arrays, made once a search."""

    def __init__(self, ground: Ground, radius: float, bases: tuple[Base, ...]) -> None:
        self.ground, self.radius, self.bases = ground, radius, bases
        self.centres = np.array([(b.centre.x, b.centre.y) for b in bases], dtype=float).reshape(-1, 2)
        self.reach = np.array([b.radius for b in bases], dtype=float) + radius - CONTACT_TOLERANCE
        self.room = np.array([b.radius for b in bases], dtype=float) + radius
        self.boxes = np.array(ground.boxes, dtype=float).reshape(-1, 4)

    def cost(self, a: Point, b: Point) -> float | None:
        if any(
            _distance_to_leg(base.centre, a, b) < base.radius + self.radius - CONTACT_TOLERANCE for base in self.bases
        ):
            return None
        return self.ground.step(a, b)

    def clear_from(self, a: Point, ends: np.ndarray) -> np.ndarray:
        """For each point of ``ends`` (an N by 2 array), whether the step from ``a`` to it runs
        through no base: every step from one point at once, as numpy arrays."""
        if not self.bases:
            return np.ones(len(ends), dtype=bool)
        d = ends - (a.x, a.y)
        length = np.maximum((d * d).sum(axis=1), 1e-18)
        to_centre = self.centres - (a.x, a.y)
        t = np.clip((d @ to_centre.T) / length[:, None], 0.0, 1.0)
        gap_x = to_centre[None, :, 0] - t * d[:, None, 0]
        gap_y = to_centre[None, :, 1] - t * d[:, None, 1]
        return bool_all(np.hypot(gap_x, gap_y) >= self.reach[None, :])

    def near_ground_from(self, a: Point, ends: np.ndarray) -> np.ndarray:
        """For each point of ``ends``, whether the step from ``a`` to it has a box that meets the
        box of a costly or impassable feature (only those steps need shapely to cost them)."""
        boxes = self.boxes
        low = np.minimum(ends, [a.x, a.y])
        high = np.maximum(ends, [a.x, a.y])
        meets = (
            (boxes[None, :, 0] <= high[:, None, 0])
            & (low[:, None, 0] <= boxes[None, :, 2])
            & (boxes[None, :, 1] <= high[:, None, 1])
            & (low[:, None, 1] <= boxes[None, :, 3])
        )
        return np.asarray(meets.any(axis=1), dtype=bool)

    def free(self, table: Table, points: np.ndarray) -> np.ndarray:
        """For each point (an N by 2 array), whether a base may stand there: on the table, off
        every other base."""
        on_table = (
            (points[:, 0] >= 0) & (points[:, 0] <= table.width) & (points[:, 1] >= 0) & (points[:, 1] <= table.height)
        )
        if not self.bases:
            return np.asarray(on_table, dtype=bool)
        gaps = np.hypot(points[:, None, 0] - self.centres[None, :, 0], points[:, None, 1] - self.centres[None, :, 1])
        return np.asarray(on_table & bool_all(gaps >= self.room[None, :]), dtype=bool)


def _way_round(field: Battlefield, steps: _Steps, start: Point, end: Point) -> list[Point] | None:
    """The cheapest path from ``start`` to ``end`` through the ring points of the bases near the
    leg (A*, the straight distance to the end as its guess), with its needless corners dropped."""
    if not steps.free(field.table, np.array([(end.x, end.y)]))[0]:
        return None
    near = sorted(steps.bases, key=lambda b: _distance_to_leg(b.centre, start, end) - b.radius)
    chosen = [b for b in near if _distance_to_leg(b.centre, start, end) - b.radius - steps.radius <= NEAR]
    rings = np.array([xy for b in chosen[:MOST_BASES] for xy in _ring(b, steps.radius)], dtype=float).reshape(-1, 2)
    rings = rings[steps.free(field.table, rings)]
    points = np.vstack([[(start.x, start.y), (end.x, end.y)], rings])
    nodes = [start, end, *(Point(float(x), float(y)) for x, y in rings)]
    best = {0: 0.0}
    came_from: dict[int, int] = {}
    queue = [(centre_distance(start, end), 0.0, 0)]
    done: set[int] = set()
    while queue:
        _, cost, i = heapq.heappop(queue)
        if i == 1:
            return _pulled(steps, _walk_back(nodes, came_from))
        if i in done:
            continue
        done.add(i)
        clear = steps.clear_from(nodes[i], points)
        costly = steps.near_ground_from(nodes[i], points)
        lengths = np.hypot(points[:, 0] - nodes[i].x, points[:, 1] - nodes[i].y)
        for j in range(1, len(nodes)):
            if j in done or j == i or not clear[j]:
                continue
            step = steps.ground.step(nodes[i], nodes[j]) if costly[j] else float(lengths[j])
            if step is not None and cost + step < best.get(j, math.inf) - 1e-9:
                best[j] = cost + step
                came_from[j] = i
                heapq.heappush(queue, (cost + step + centre_distance(nodes[j], end), cost + step, j))
    return None


def _pulled(steps: _Steps, path: list[Point]) -> list[Point]:
    """The path with every corner dropped whose neighbours see each other at no greater cost."""
    out = [path[0]]
    i = 0
    while i < len(path) - 1:
        j = len(path) - 1
        while j > i + 1:
            direct = steps.cost(path[i], path[j])
            if direct is not None and direct <= steps.ground.cost(path[i : j + 1]) + 1e-9:
                break
            j -= 1
        out.append(path[j])
        i = j
    return out


def _ring(base: Base, radius: float) -> list[tuple[float, float]]:
    r = (base.radius + radius + CLEARANCE) / math.cos(math.pi / RING_POINTS)
    return [
        (
            base.centre.x + r * math.cos(2 * math.pi * k / RING_POINTS),
            base.centre.y + r * math.sin(2 * math.pi * k / RING_POINTS),
        )
        for k in range(RING_POINTS)
    ]


def _walk_back(nodes: Sequence[Point], came_from: Mapping[int, int]) -> list[Point]:
    order = [1]
    while order[-1] != 0:
        order.append(came_from[order[-1]])
    return [nodes[i] for i in reversed(order)]


def _distance_to_leg(p: Point, a: Point, b: Point) -> float:
    """From ``p`` to the nearest point of the segment ``a``-``b``, in plain floats (called thousands
    of times a search)."""
    dx, dy = b.x - a.x, b.y - a.y
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length))
    return math.hypot(p.x - a.x - t * dx, p.y - a.y - t * dy)


def bool_all(table: np.ndarray) -> np.ndarray:
    """Each row of a boolean table: whether all of it is true."""
    return np.asarray(table.all(axis=1), dtype=bool)
