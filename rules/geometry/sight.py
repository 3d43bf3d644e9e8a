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

    def describe(self, target: str) -> str:
        if self.feature is None or self.in_front is None:
            return self.kind
        return f'{self.kind}: {self.feature} {self.in_front:.1f}" in front of {target}'


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
    hit_lines, hit_features = np.nonzero(hidden)
    crossings = shapely.intersection(lines[hit_lines], shapes[hit_features])
    # A line too short to cross anything (the two centres all but together): the feature itself.
    crossings = np.where(shapely.is_empty(crossings), shapes[hit_features], crossings)
    from_shooter = shapely.distance(crossings, ShapelyPoint(s.x, s.y))
    from_target = shapely.distance(crossings, ShapelyPoint(target.centre.x, target.centre.y))
    near_shooter: dict[int, float] = {}
    near_target: dict[int, float] = {}
    for feature, to_s, to_t in zip(hit_features.tolist(), from_shooter.tolist(), from_target.tolist(), strict=True):
        near_shooter[feature] = min(near_shooter.get(feature, math.inf), to_s)
        near_target[feature] = min(near_target.get(feature, math.inf), to_t)
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
        Crossing(f.kind, f.label, _crossing(line, f).distance(end))
        for f in field.features
        if line.intersects(f.geometry)
    ]
    return sorted(found, key=lambda c: c.from_target)


def _crossing(line: LineString, feature: Feature) -> BaseGeometry:
    """Where the line crosses the feature (the feature itself when the line is too short to say)."""
    crossing = line.intersection(feature.geometry)
    return feature.geometry if crossing.is_empty else crossing


def features_at(field: Battlefield, point: Point) -> list[Feature]:
    """The features standing on a point (a figure in a wood, on a hill, in water)."""
    here = ShapelyPoint(point.x, point.y)
    return [f for f in field.features if f.geometry.intersects(here)]
