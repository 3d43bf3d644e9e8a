"""Line of sight and cover, measured on the map.

SSG's sight (A-SSG-6 as the notes read it): lines drawn from the shooter's centre (the helmet)
to points of the target's base. Terrain that blocks sight and hides every line: no sight, wherever
it stands. Otherwise, some lines hidden by terrain closer to the target than to the shooter:
partial. Otherwise (nothing hidden, or hidden only by terrain at least as close to the shooter):
clear. A feature's closeness is measured along the lines it hides: its nearest crossing to the
target against its nearest crossing to the shooter.

:func:`sight` is :func:`sights` of one target: many targets from one shooter are read at once (the
map picture's shading of a whole table), each exactly as it would be alone.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
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
    if math.hypot(shooter.x - c.x, shooter.y - c.y) <= target.radius:
        return [c]
    ends = line_ends(shooter, np.array([[c.x, c.y]]), np.array([target.radius]), samples)[0]
    return [c] + [Point(float(x), float(y)) for x, y in ends[1:].tolist()]


def line_ends(
    shooter: Point, centres: npt.NDArray[np.float64], radii: npt.NDArray[np.float64], samples: int = ARC_SAMPLES
) -> npt.NDArray[np.float64]:
    """:func:`target_points` of many targets at once (centres and radii), as an array (target,
    point, xy): always ``samples`` + 1 points each, a target whose base the shooter's centre stands
    on repeating its centre (the same line again changes no reading)."""
    away = np.array([shooter.x, shooter.y]) - centres
    gap = np.hypot(away[:, 0], away[:, 1])
    toward = np.arctan2(away[:, 1], away[:, 0])
    with np.errstate(divide="ignore", invalid="ignore"):
        half = np.arccos(np.clip(radii / gap, -1.0, 1.0))
    angle = toward[:, None] - half[:, None] + 2 * half[:, None] * np.arange(samples) / (samples - 1)
    arc = np.stack(
        [centres[:, None, 0] + radii[:, None] * np.cos(angle), centres[:, None, 1] + radii[:, None] * np.sin(angle)],
        axis=2,
    )
    ends = np.concatenate([centres[:, None, :], arc], axis=1)
    return np.where((gap <= radii)[:, None, None], centres[:, None, :], np.round(ends, 9) + 0.0)


def sight(field: Battlefield, shooter: Base, target: Base, blocking: Collection[str]) -> Sight:
    """SSG's sight from ``shooter`` to ``target``, terrain of the ``blocking`` kinds hiding lines."""
    return sights(field, shooter, [target], blocking)[0]


def sights(
    field: Battlefield,
    shooter: Base,
    targets: Sequence[Base],
    blocking: Collection[str],
    set_aside: Sequence[Collection[int]] | None = None,
) -> list[Sight]:
    """:func:`sight` from ``shooter`` to each of ``targets`` at once: one viewer's sight of a whole
    table (the map picture's shading) costs about what a few single sights do. ``set_aside[n]``:
    the features (indices into ``field.features``) that do not count for ``targets[n]`` (those a
    figure stands in and sees out of, :func:`rules.battlefield.line_of_sight`)."""
    centres = np.array([(t.centre.x, t.centre.y) for t in targets], dtype=float).reshape(-1, 2)
    radii = np.array([t.radius for t in targets], dtype=float)
    return sights_at(field, shooter.centre, centres, radii, blocking, set_aside)


def sights_at(
    field: Battlefield,
    shooter: Point,
    centres: npt.NDArray[np.float64],
    radii: npt.NDArray[np.float64],
    blocking: Collection[str],
    set_aside: Sequence[Collection[int]] | None = None,
) -> list[Sight]:
    """:func:`sights` of targets given as arrays: their centres (x, y rows, each held to a
    billionth of an inch as a :class:`Point` holds it) and their bases' radii."""
    if not len(centres):
        return []
    chosen = [i for i, f in enumerate(field.features) if f.kind in blocking]
    if not chosen:
        return [CLEAR_SIGHT] * len(centres)
    features = [field.features[i] for i in chosen]
    shapes = np.array([f.geometry for f in features], dtype=object)
    start = np.array([shooter.x, shooter.y])
    ends = line_ends(shooter, centres, radii)
    hidden = _hidden(start, ends, shapes)
    if set_aside is not None:
        column = {i: c for c, i in enumerate(chosen)}
        for n, aside in enumerate(set_aside):
            for i in aside:
                if i in column:
                    hidden[n, :, column[i]] = False
    found = [CLEAR_SIGHT] * len(centres)
    busy = np.nonzero(hidden.any(axis=(1, 2)))[0]
    if not len(busy):
        return found
    hidden = hidden[busy]
    to_shooter, to_target = _crossing_distances(start, ends[busy], centres[busy], features, shapes, hidden)
    nearest_to_shooter = np.where(hidden, to_shooter, np.inf).min(axis=1)
    nearest_to_target = np.where(hidden, to_target, np.inf).min(axis=1)
    crossed: npt.NDArray[np.bool_] = np.any(hidden, axis=1)
    every_line: npt.NDArray[np.bool_] = np.all(hidden, axis=1)
    # Every line hidden, though by different features together: nothing can be seen either.
    all_hidden: npt.NDArray[np.bool_] = np.all(hidden.any(axis=2), axis=1)
    nearer_target: npt.NDArray[np.bool_] = crossed & (nearest_to_target < nearest_to_shooter)
    for row, n in enumerate(busy.tolist()):
        if every_line[row].any():
            kind: SightKind = "blocked"
            among = every_line[row]
        elif all_hidden[row]:
            kind, among = "blocked", crossed[row]
        elif nearer_target[row].any():
            kind, among = "partial", nearer_target[row]
        else:
            continue
        j = int(np.argmin(np.where(among, nearest_to_target[row], np.inf)))
        found[n] = Sight(kind, features[j].label, float(nearest_to_target[row, j]))
    return found


CLEAR_SIGHT = Sight("clear")


#: How far (radians) beyond what a feature spans from the shooter a line's end is still tested
#: against it: the float error of the angles, many times over.
ANGLE_SLACK = 1e-9


#: From how many lines on the angles each feature spans are worth working out (a table's grid,
#: not one shot's eight lines).
MANY_LINES = 64


def _hidden(
    start: npt.NDArray[np.float64], ends: npt.NDArray[np.float64], shapes: npt.NDArray[np.object_]
) -> npt.NDArray[np.bool_]:
    """For each target (first axis), line (second) and feature (third): whether the line from
    ``start`` to the end meets the feature (shapely's ``intersects``).

    Only the pairs that could are asked: the line's box overlaps the feature's and, for a few
    targets, the feature reaches into the fan of lines to the target's arc, or, for many, the
    line's end lies within the angle the feature spans seen from ``start`` and at least as far as
    its nearest point (every line, when ``start`` stands in the feature or the feature wraps round
    it)."""
    flat = ends.reshape(-1, 2)
    low, high = np.minimum(start, flat), np.maximum(start, flat)
    bounds = shapely.bounds(shapes)
    maybe = (
        (low[:, None, 0] <= bounds[None, :, 2])
        & (high[:, None, 0] >= bounds[None, :, 0])
        & (low[:, None, 1] <= bounds[None, :, 3])
        & (high[:, None, 1] >= bounds[None, :, 1])
    )
    if len(flat) < MANY_LINES:
        # A few targets: a feature can meet a line to the arc only if it reaches into the fan of
        # those lines (the shooter's centre and the arc it sees); the line to the centre is asked
        # of every feature whose box it overlaps.
        corners = np.concatenate([np.broadcast_to(start, (len(ends), 1, 2)), ends[:, 1:]], axis=1)
        fans = np.asarray(shapely.polygons(corners))
        unsure = ~np.asarray(shapely.is_valid(fans))
        reaching = np.asarray(shapely.intersects(fans[:, None], shapes[None, :])) | unsure[:, None]
        by_target = maybe.reshape(ends.shape[0], ends.shape[1], len(shapes))
        by_target[:, 1:] &= reaching[:, None, :]
        maybe = by_target.reshape(len(flat), len(shapes))
    else:
        away = flat - start
        bearing = np.arctan2(away[:, 1], away[:, 0])
        reach = np.hypot(away[:, 0], away[:, 1])
        here = shapely.points(start)
        for j in np.nonzero(maybe.any(axis=0))[0].tolist():
            span = _span(shapes[j], start)
            if span is not None:
                middle, half = span
                off = np.abs((bearing - middle + math.pi) % (2 * math.pi) - math.pi)
                maybe[:, j] &= (off <= half + ANGLE_SLACK) & (reach >= shapely.distance(shapes[j], here) - 1e-9)
    hidden = np.zeros(maybe.shape, dtype=bool)
    rows, columns = np.nonzero(maybe)
    if len(rows):
        shapely.prepare(shapes)
        lines = shapely.linestrings(np.stack([np.broadcast_to(start, (len(rows), 2)), flat[rows]], axis=1))
        hidden[rows, columns] = shapely.intersects(shapes[columns], lines)
    return hidden.reshape(ends.shape[0], ends.shape[1], len(shapes))


def _span(shape: BaseGeometry, start: npt.NDArray[np.float64]) -> tuple[float, float] | None:
    """The bearings a feature covers seen from ``start``, as a middle and a half-width (radians);
    None when it covers every bearing near enough (``start`` on or in it, or it wraps round)."""
    if shapely.intersects_xy(shape, float(start[0]), float(start[1])):
        return None
    low, high = math.inf, -math.inf
    for ring in shapely.get_exterior_ring(shapely.get_parts(shape)).tolist():
        away = shapely.get_coordinates(ring) - start
        bearings = np.arctan2(away[:, 1], away[:, 0])
        turns = (np.diff(bearings) + math.pi) % (2 * math.pi) - math.pi
        unwound = bearings[0] + np.concatenate([[0.0], np.cumsum(turns)])
        low, high = min(low, float(unwound.min())), max(high, float(unwound.max()))
    if high - low >= math.pi:
        return None
    return (low + high) / 2, (high - low) / 2


def _crossing_distances(
    start: npt.NDArray[np.float64],
    ends: npt.NDArray[np.float64],
    centres: npt.NDArray[np.float64],
    features: list[Feature],
    shapes: npt.NDArray[np.object_],
    hidden: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """For each target, line and feature a line meets (``hidden``): how far from the shooter the
    line first meets the feature, and how far the line's last point in the feature is from the
    target's centre (infinite where the line does not meet it).

    Worked out on the features' outlines with numpy, each line against every edge of each feature
    it meets at once (an overlay a pair in GEOS costs a millisecond on a crowded map); a pair the
    arithmetic cannot settle (a line running along an edge) is measured by shapely."""
    to_shooter = np.full(hidden.shape, np.inf)
    to_target = np.full(hidden.shape, np.inf)
    rows, lines_at, owners = np.nonzero(hidden)
    met, slot = np.unique(owners, return_inverse=True)
    outlines = [features[j].edges for j in met.tolist()]
    sizes = np.array([len(edges) for edges in outlines])
    every_edge = np.vstack(outlines)
    counts = sizes[slot]
    firsts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    pair = np.repeat(np.arange(len(rows)), counts)
    edge = np.repeat(np.concatenate([[0], np.cumsum(sizes)[:-1]])[slot] - firsts, counts) + np.arange(counts.sum())
    end = ends[rows, lines_at]
    along = end - start
    corner, side = every_edge[edge, :2], every_edge[edge, 2:] - every_edge[edge, :2]
    offset = corner - start
    line = along[pair]
    denom = line[:, 0] * side[:, 1] - line[:, 1] * side[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (offset[:, 0] * side[:, 1] - offset[:, 1] * side[:, 0]) / denom
        u = (offset[:, 0] * line[:, 1] - offset[:, 1] * line[:, 0]) / denom
        clipped = np.clip(t, 0, 1)
    slack = 1e-9
    meets = (denom != 0) & (t >= -slack) & (t <= 1 + slack) & (u >= -slack) & (u <= 1 + slack)
    first = np.minimum.reduceat(np.where(meets, clipped, np.inf), firsts)
    last = np.maximum.reduceat(np.where(meets, clipped, -np.inf), firsts)
    first = np.where(shapely.intersects_xy(shapes[met], start[0], start[1])[slot], 0.0, first)
    last = np.where(shapely.intersects_xy(shapes[owners], end[:, 0], end[:, 1]), 1.0, last)
    with np.errstate(invalid="ignore"):  # lines never met stay infinite (or NaN) and are measured below
        near = first * np.hypot(along[:, 0], along[:, 1])
        far = start + last[:, None] * along
        centre = centres[rows]
        back = np.hypot(far[:, 0] - centre[:, 0], far[:, 1] - centre[:, 1])
    for k in np.nonzero(~(np.isfinite(near) & np.isfinite(back)))[0].tolist():
        crossing = crossing_of(LineString([tuple(start), tuple(end[k])]), features[int(owners[k])])
        near[k] = crossing.distance(ShapelyPoint(start[0], start[1]))
        back[k] = crossing.distance(ShapelyPoint(centre[k, 0], centre[k, 1]))
    to_shooter[rows, lines_at, owners] = near
    to_target[rows, lines_at, owners] = back
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
        Crossing(f.kind, f.label, crossing_of(line, f).distance(end))
        for f in field.features
        if line.intersects(f.geometry)
    ]
    return sorted(found, key=lambda c: c.from_target)


def crossing_of(line: LineString, feature: Feature) -> BaseGeometry:
    """Where the line crosses the feature (the feature itself when the line is too short to say)."""
    crossing = line.intersection(feature.geometry)
    return feature.geometry if crossing.is_empty else crossing


def features_at(field: Battlefield, point: Point) -> list[Feature]:
    """The features standing on a point (a figure in a wood, on a hill, in water)."""
    here = ShapelyPoint(point.x, point.y)
    near = field.index.query(here, predicate="intersects")
    return [field.features[i] for i in sorted(near.tolist())]
