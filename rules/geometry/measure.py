"""Distances, contact and paths on the battlefield: pure arithmetic on the shapes in ``shapes``."""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

import shapely
from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from rules.geometry.shapes import Base, Battlefield, Feature, Point
from rules.vocabulary import RuleError

#: How near two bases' edges may be and still count as touching (a player's hand is not exact).
CONTACT_TOLERANCE = 0.05
_EPSILON = 1e-9


def centre_distance(a: Point | Base, b: Point | Base) -> float:
    """Centre to centre (SSG's range and its "within 1 inch", A-SSG-4)."""
    pa, pb = _centre(a), _centre(b)
    return math.hypot(pa.x - pb.x, pa.y - pb.y)


def edge_distance(a: Base, b: Base) -> float:
    """Base edge to base edge: 0 when the bases touch or overlap, never negative."""
    return max(0.0, centre_distance(a, b) - a.radius - b.radius)


def within(a: Point | Base, b: Point | Base, inches: float) -> bool:
    """SSG's "within N inches": centre to centre, N itself included."""
    return centre_distance(a, b) <= inches + _EPSILON


def in_contact(a: Base, b: Base, tolerance: float = CONTACT_TOLERANCE) -> bool:
    """The medieval game's hand-to-hand: the bases touch (edges no further apart than ``tolerance``)."""
    return centre_distance(a, b) - a.radius - b.radius <= tolerance


def path_length(waypoints: Sequence[Point]) -> float:
    """The length of a path from its first point through the rest, in order."""
    return sum(centre_distance(a, b) for a, b in pairwise(waypoints))


def _centre(value: Point | Base) -> Point:
    return value.centre if isinstance(value, Base) else value


def _line(waypoints: Sequence[Point]) -> LineString:
    if len(waypoints) < 2:
        raise RuleError("a path needs a start and at least one more point")
    return LineString([(p.x, p.y) for p in waypoints])


def _check_path(field: Battlefield, waypoints: Sequence[Point]) -> None:
    for point in waypoints:
        field.table.check(point, "a point of the path")


def path_cost(field: Battlefield, waypoints: Sequence[Point], costs: Mapping[str, float | None]) -> float:
    """The movement a path uses: its length, each part inside a feature multiplied by that kind's
    cost (``{"wood": 2.0}``: an inch of wood uses two). Kinds not named cost 1; where features
    overlap the dearest applies; walking along a feature's edge is open ground. A kind whose cost is None is impassable: a path through it (not
    along its edge) is refused with a sentence naming the feature."""
    _check_path(field, waypoints)
    return Ground.of(field, costs).cost(waypoints)


@dataclass(frozen=True)
class Ground:
    """What moving over a battlefield costs, worked out once for many paths (a way round a base
    tries hundreds of steps): the features that cannot be crossed, the costly ground merged by
    cost, dearest first, and the box round each of those features."""

    impassable: tuple[Feature, ...]
    grounds: tuple[tuple[float, BaseGeometry], ...]
    boxes: tuple[tuple[float, float, float, float], ...] = ()

    @classmethod
    def of(cls, field: Battlefield, costs: Mapping[str, float | None]) -> Ground:
        """The ground of ``field`` (its shapes are built once per distinct map, so one per map
        and set of costs is kept: merging the costly features is most of a path's cost)."""
        return _ground(_Same(field), tuple(sorted(costs.items(), key=lambda item: item[0])))

    @classmethod
    def build(cls, field: Battlefield, costs: Mapping[str, float | None]) -> Ground:
        impassable: list[Feature] = []
        levels: dict[float, list[Feature]] = {}
        for feature in field.features:
            if feature.kind not in costs:
                continue
            cost = costs[feature.kind]
            if cost is None:
                impassable.append(feature)
            elif cost != 1.0:
                levels.setdefault(cost, []).append(feature)
        grounds = tuple(
            (cost, shapely.union_all([f.geometry for f in levels[cost]])) for cost in sorted(levels, reverse=True)
        )
        boxes = tuple(f.geometry.bounds for f in [*impassable, *(f for level in levels.values() for f in level)])
        return cls(tuple(impassable), grounds, boxes)

    def cost(self, waypoints: Sequence[Point]) -> float:
        """``path_cost`` of a path already known to lie on the table."""
        # Leg by leg: shapely's overlay would merge a path that doubles back on itself into one stretch.
        legs = [LineString([(a.x, a.y), (b.x, b.y)]) for a, b in pairwise(waypoints) if a != b]
        for feature in self.impassable:
            if any(_inside(leg, feature.geometry) > _EPSILON for leg in legs):
                raise RuleError(f"The path crosses {feature.label}, which cannot be crossed.")
        return sum(_leg_cost(leg, list(self.grounds)) for leg in legs)

    def step(self, a: Point, b: Point) -> float | None:
        """One straight step's cost, or None when it crosses ground that cannot be crossed. A step
        whose box meets no feature's box costs its length, without asking shapely."""
        low_x, high_x, low_y, high_y = min(a.x, b.x), max(a.x, b.x), min(a.y, b.y), max(a.y, b.y)
        if not any(_boxes_meet((low_x, low_y, high_x, high_y), box) for box in self.boxes):
            return centre_distance(a, b)
        try:
            return self.cost([a, b])
        except RuleError:
            return None


class _Same:
    """A battlefield as a cache key by identity (its shapes are not worth hashing)."""

    __slots__ = ("field",)

    def __init__(self, field: Battlefield) -> None:
        self.field = field

    def __hash__(self) -> int:
        return id(self.field)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.field is self.field


@functools.lru_cache(maxsize=64)
def _ground(field: _Same, costs: tuple[tuple[str, float | None], ...]) -> Ground:
    return Ground.build(field.field, dict(costs))


def _boxes_meet(a: Sequence[float], b: Sequence[float]) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _leg_cost(leg: LineString, grounds: list[tuple[float, BaseGeometry]]) -> float:
    """One straight leg's cost, the dearest ground first."""
    total = 0.0
    rest: BaseGeometry = leg
    for cost, ground in grounds:
        inside = _inside(rest, ground)
        total += inside * cost + (rest.intersection(ground).length - inside)
        rest = rest.difference(ground)
    return total + float(rest.length)


def _inside(path: BaseGeometry, ground: BaseGeometry) -> float:
    """How much of the path lies inside the ground, not counting what runs along its edge (open ground)."""
    return float(path.intersection(ground).length - path.intersection(ground.boundary).length)


def bases_crossed(waypoints: Sequence[Point], mover_radius: float, others: Mapping[str, Base]) -> list[str]:
    """The figures (by name) whose bases a base of ``mover_radius`` would pass through on this path,
    nearest the start first. Touching is not passing through."""
    if len(waypoints) < 2:
        return []
    line = _line(waypoints)
    hits = []
    for name, base in others.items():
        centre = ShapelyPoint(base.centre.x, base.centre.y)
        if line.distance(centre) < base.radius + mover_radius - CONTACT_TOLERANCE:
            hits.append((line.project(centre), name))
    return [name for _, name in sorted(hits)]


@dataclass(frozen=True)
class Stop:
    """Where a path first comes within reach of something, and how far the figure went to get there."""

    point: Point
    travelled: float


def stop_on_approach(waypoints: Sequence[Point], others: Sequence[Point], inches: float) -> Stop | None:
    """Where a figure moving along the path first comes within ``inches`` (centre to centre) of any
    of ``others`` (SSG: on coming within 1" of an enemy). Points already that near at the start are
    not "come within" and are ignored. None when the path never comes that near."""
    start = waypoints[0] if waypoints else None
    watched = [q for q in others if start is None or centre_distance(start, q) > inches + _EPSILON]
    travelled = 0.0
    for a, b in pairwise(waypoints):
        step = centre_distance(a, b)
        first = min((t for q in watched if (t := _entry(a, b, q, inches)) is not None), default=None)
        if first is not None:
            point = Point(a.x + (b.x - a.x) * first, a.y + (b.y - a.y) * first)
            return Stop(point, travelled + step * first)
        travelled += step
    return None


def _entry(a: Point, b: Point, q: Point, reach: float) -> float | None:
    """The first fraction t in [0, 1] of segment a→b at which the distance to q falls to ``reach``."""
    dx, dy = b.x - a.x, b.y - a.y
    fx, fy = a.x - q.x, a.y - q.y
    qa = dx * dx + dy * dy
    qb = 2 * (fx * dx + fy * dy)
    qc = fx * fx + fy * fy - reach * reach
    if qc <= 0:
        return 0.0
    if qa <= _EPSILON:
        return None
    disc = qb * qb - 4 * qa * qc
    if disc < 0:
        return None
    t = (-qb - math.sqrt(disc)) / (2 * qa)
    return t if 0.0 <= t <= 1.0 else None
