"""Line of sight and cover, measured on the map.

SSG's sight (A-SSG-6 as the notes read it): lines drawn from the shooter's centre (the helmet)
to points of the target's base. Terrain that blocks sight and hides every line: no sight, wherever
it stands. Otherwise, some lines hidden by terrain closer to the target than to the shooter:
partial. Otherwise (nothing hidden, or hidden only by terrain at least as close to the shooter):
clear. A feature's closeness is measured along the lines it hides: its nearest crossing to the
target against its nearest crossing to the shooter.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from rules.geometry.shapes import Base, Battlefield, Feature, Point

#: Points sampled across the side of the target's base that faces the shooter, tangents included.
ARC_SAMPLES = 7

SightKind = Literal["clear", "partial", "blocked"]


@dataclass(frozen=True)
class Sight:
    """What the shooter sees of the target and why: ``feature`` is the terrain that decided it
    (None when nothing did) and ``in_front`` how far that terrain's nearest crossing is from the
    target's centre, so a card can say "partial: the hedge 2.0" in front of Big Jim"."""

    kind: SightKind
    feature: str | None = None
    in_front: float | None = None

    def why_not(self, shooter: str, target: str) -> str:
        """Why ``shooter`` cannot see ``target`` (a blocked sight), as a card says it."""
        if self.in_front is None:
            return f"{shooter} is too deep in {self.feature} to see out"
        if self.in_front <= 1e-6:
            return f"{target} is too deep in {self.feature} to be seen"
        return f"{self.feature} is in the way, {self.in_front:.1f}″ in front of {target}"

    def describe(self, target: str) -> str:
        if self.feature is None or self.in_front is None:
            return self.kind
        return f"{self.kind}: {self.feature} {self.in_front:.1f}″ in front of {target}"


def target_points(shooter: Point, target: Base, samples: int = ARC_SAMPLES) -> list[Point]:
    """The target's centre and ``samples`` points across the arc of its base that the shooter's
    centre can see, from one tangent point to the other."""
    c = target.centre
    d = math.hypot(shooter.x - c.x, shooter.y - c.y)
    if d <= target.radius:
        return [c]
    toward = math.atan2(shooter.y - c.y, shooter.x - c.x)
    half = math.acos(target.radius / d)
    points = [c]
    for i in range(samples):
        angle = toward - half + 2 * half * i / (samples - 1)
        points.append(Point(c.x + target.radius * math.cos(angle), c.y + target.radius * math.sin(angle)))
    return points


def sight(field: Battlefield, shooter: Base, target: Base, blocking: Collection[str]) -> Sight:
    """SSG's sight from ``shooter`` to ``target``, terrain of the ``blocking`` kinds hiding lines."""
    s = shooter.centre
    ends = np.array([(e.x, e.y) for e in target_points(s, target)])
    features = [f for f in field.features if f.kind in blocking]
    fan = shapely.polygons(np.vstack([[(s.x, s.y)], ends[1:]])) if len(ends) > 3 else None
    if features and fan is not None and shapely.is_valid(fan):
        # Only the features that reach into the fan of lines (the shooter's centre and the arc
        # of the target's base it sees) can hide any of them.
        near = shapely.intersects(np.array([f.geometry for f in features], dtype=object), fan)
        features = [f for f, reaches in zip(features, near.tolist(), strict=True) if reaches]
    if not features:
        return Sight("clear")
    lines = np.asarray(shapely.linestrings(np.stack([np.broadcast_to([s.x, s.y], ends.shape), ends], axis=1)))
    shapes = np.array([f.geometry for f in features], dtype=object)
    hidden = shapely.intersects(shapes[None, :], lines[:, None])
    if not hidden.any():
        return Sight("clear")
    to_shooter, to_target = _crossing_distances(s, ends, target.centre, features, lines, hidden)
    crossed = [int(i) for i in np.nonzero(hidden.any(axis=0))[0]]
    nearest_to_shooter = np.where(hidden, to_shooter, np.inf).min(axis=0)
    nearest_to_target = np.where(hidden, to_target, np.inf).min(axis=0)
    near_shooter = {i: float(nearest_to_shooter[i]) for i in crossed}
    near_target = {i: float(nearest_to_target[i]) for i in crossed}
    every_line = [int(i) for i in np.nonzero(hidden.all(axis=0))[0]]
    if every_line:
        nearest = min(every_line, key=lambda i: near_target[i])
        return Sight("blocked", features[nearest].label, near_target[nearest])
    if hidden.any(axis=1).all():
        # Every line is hidden, though by different features together: nothing can be seen.
        nearest = min(near_target, key=near_target.__getitem__)
        return Sight("blocked", features[nearest].label, near_target[nearest])
    near_the_target = [i for i in near_target if near_target[i] < near_shooter[i]]
    if near_the_target:
        nearest = min(near_the_target, key=lambda i: near_target[i])
        return Sight("partial", features[nearest].label, near_target[nearest])
    return Sight("clear")


def _crossing_distances(
    s: Point,
    ends: npt.NDArray[np.float64],
    centre: Point,
    features: list[Feature],
    lines: npt.NDArray[np.object_],
    hidden: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """For each line (row) and feature (column): how far from the shooter the line first meets the
    feature, and how far the line's last point in the feature is from the target's centre.

    Worked out on the features' outlines with numpy, every line against every edge at once (an
    overlay a pair in GEOS costs a millisecond on a crowded map); a pair the arithmetic cannot
    settle (a line running along an edge) is measured by shapely."""
    start = np.array([s.x, s.y])
    along = ends - start
    owner = np.repeat(np.arange(len(features)), [len(f.edges) for f in features])
    edges = np.vstack([f.edges for f in features])
    corner, side = edges[:, :2], edges[:, 2:] - edges[:, :2]
    offset = corner - start
    denom = along[:, None, 0] * side[None, :, 1] - along[:, None, 1] * side[None, :, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (offset[None, :, 0] * side[None, :, 1] - offset[None, :, 1] * side[None, :, 0]) / denom
        u = (offset[None, :, 0] * along[:, None, 1] - offset[None, :, 1] * along[:, None, 0]) / denom
    slack = 1e-9
    meets = (denom != 0) & (t >= -slack) & (t <= 1 + slack) & (u >= -slack) & (u <= 1 + slack)
    meets &= hidden[:, owner]
    first = np.full(hidden.shape, np.inf)
    last = np.full(hidden.shape, -np.inf)
    rows, cols = np.nonzero(meets)
    np.minimum.at(first, (rows, owner[cols]), np.clip(t[rows, cols], 0, 1))
    np.maximum.at(last, (rows, owner[cols]), np.clip(t[rows, cols], 0, 1))
    shapes = np.array([f.geometry for f in features], dtype=object)
    first = np.where(shapely.intersects_xy(shapes, s.x, s.y)[None, :], 0.0, first)
    last = np.where(shapely.intersects_xy(shapes[None, :], ends[:, None, 0], ends[:, None, 1]), 1.0, last)
    with np.errstate(invalid="ignore"):  # pairs never met stay infinite (or NaN) and are not read
        to_shooter = first * np.hypot(along[:, 0], along[:, 1])[:, None]
        far = start + last[:, :, None] * along[:, None, :]
        to_target = np.hypot(far[..., 0] - centre.x, far[..., 1] - centre.y)
    unsettled = hidden & ~(np.isfinite(to_shooter) & np.isfinite(to_target))
    for i, j in zip(*np.nonzero(unsettled), strict=True):
        crossing = _crossing_of(lines[i], features[j])
        to_shooter[i, j] = crossing.distance(ShapelyPoint(s.x, s.y))
        to_target[i, j] = crossing.distance(ShapelyPoint(centre.x, centre.y))
    return to_shooter, to_target


@dataclass(frozen=True)
class Crossing:
    """A feature the line of fire crosses: its kind, what a card calls it, and how far its nearest
    crossing is from the target's centre."""

    kind: str
    feature: str
    from_target: float


def cover(field: Battlefield, shooter: Point | Base, target: Point | Base) -> list[Crossing]:
    """Every feature the line from the shooter's centre to the target's centre crosses, nearest the
    target first. The ruleset decides what each kind gives (soft or hard cover, nothing)."""
    s = shooter.centre if isinstance(shooter, Base) else shooter
    t = target.centre if isinstance(target, Base) else target
    line = LineString([(s.x, s.y), (t.x, t.y)])
    end = ShapelyPoint(t.x, t.y)
    found = [
        Crossing(f.kind, f.label, _crossing_of(line, f).distance(end))
        for f in field.features
        if line.intersects(f.geometry)
    ]
    return sorted(found, key=lambda c: c.from_target)


def _crossing_of(line: LineString, feature: Feature) -> BaseGeometry:
    """Where the line crosses the feature (the feature itself when the line is too short to say)."""
    crossing = line.intersection(feature.geometry)
    return feature.geometry if crossing.is_empty else crossing


def features_at(field: Battlefield, point: Point) -> list[Feature]:
    """The features standing on a point (a figure in a wood, on a hill, in water)."""
    here = ShapelyPoint(point.x, point.y)
    near = field.index.query(here, predicate="intersects")
    return [field.features[i] for i in sorted(near.tolist())]
