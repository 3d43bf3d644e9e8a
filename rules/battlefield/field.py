"""The battlefield in a game's state: the map and where every figure stands.

Pure functions over :class:`FieldState`, used by every ruleset played on the bot's map: placing a
figure (in its side's zone, on passable ground, off every other base), deploying a whole side,
planning a move along a path (its terrain costs, figures in the way, SSG's stop on approach), and
measuring range, sight, cover and contact between two figures.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rules.battlefield.maps import MapData, battlefield_of, in_zone, zone_shape
from rules.battlefield.terrain import Terrain, costs
from rules.geometry import (
    Base,
    Point,
    bases_crossed,
    centre_distance,
    cover,
    features_at,
    path_cost,
    stop_on_approach,
)
from rules.geometry.measure import CONTACT_TOLERANCE
from rules.geometry.routing import legs_round
from rules.geometry.shapes import Battlefield
from rules.vocabulary import DataError, RuleError
from rules.words import joined, measured, measured_against, possessive

EPSILON = 1e-6
#: How far past what is left a path may run and still be made: under the twentieth of an inch the
#: bot's tenths cannot show (a refusal saying "9.0″ left; that path is 9.0″ long" helps nobody), and
#: no player measures closer. The move then uses exactly what was left.
MEASURE_TOLERANCE = 0.05


@dataclass
class FieldState:
    """The map and the figures on it: ``positions`` maps a figure's name to its centre [x, y];
    ``facing`` its facing in degrees (0 east, 90 north) where the ruleset has facing."""

    map: MapData
    positions: dict[str, list[float]] = field(default_factory=dict)
    facing: dict[str, float] = field(default_factory=dict)


def point_of(state: FieldState, name: str) -> Point | None:
    xy = state.positions.get(name)
    return None if xy is None else Point(xy[0], xy[1])


def where(state: FieldState, name: str) -> Point:
    point = point_of(state, name)
    if point is None:
        raise RuleError(f"{name} has not been placed on the map yet: /map place it first.")
    return point


def set_point(state: FieldState, name: str, point: Point) -> None:
    state.positions[name] = [round(point.x, 4), round(point.y, 4)]


def check_point(state: FieldState, point: Point, what: str) -> None:
    try:
        battlefield_of(state.map).table.check(point, what)
    except DataError as exc:
        raise RuleError(exc.problems[0][0].upper() + exc.problems[0][1:] + ".") from None


def impassable_at(state: FieldState, terrain: Terrain, point: Point) -> str | None:
    """The feature that cannot be entered at ``point``, by what a card calls it; None when it can."""
    for feature in features_at(battlefield_of(state.map), point):
        kind = terrain.get(feature.kind)
        if kind is not None and kind.move_cost is None:
            return feature.label
    return None


def overlapping(state: FieldState, name: str, point: Point, radius: float, radii: Mapping[str, float]) -> str | None:
    """Another placed figure whose base this base at ``point`` would overlap."""
    for other, xy in state.positions.items():
        if other == name or other not in radii:
            continue
        if math.hypot(point.x - xy[0], point.y - xy[1]) < radius + radii[other] - CONTACT_TOLERANCE:
            return other
    return None


# --- deployment --------------------------------------------------------------------------------


def place(state: FieldState, terrain: Terrain, name: str, side: str, point: Point, radii: Mapping[str, float]) -> None:
    """Put ``name`` at ``point``: in its side's zone, on ground it may stand on, on no other base."""
    if name in state.positions:
        raise RuleError(f"{name} is already placed, at {Point(*state.positions[name])}.")
    check_point(state, point, f"{name}'s place")
    if not in_zone(state.map, side, point):
        raise RuleError(f"{point} is outside {side}'s deployment zone: place {name} inside it.")
    blocked = impassable_at(state, terrain, point)
    if blocked:
        raise RuleError(f"{name} cannot stand in {blocked}.")
    other = overlapping(state, name, point, radii[name], radii)
    if other:
        raise RuleError(f"{name} would stand on {other}'s base: place it at least a base apart.")
    set_point(state, name, point)


def deploy(
    state: FieldState, terrain: Terrain, side: str, names: Sequence[str], radii: Mapping[str, float]
) -> list[str]:
    """Place every unplaced figure of ``names`` in ``side``'s zone, in a row nearest the zone's
    middle first; the names placed. Refused (nothing placed) when the zone cannot hold them."""
    waiting = [n for n in names if n not in state.positions]
    zone = zone_shape(state.map, side)
    if zone is None:
        raise RuleError(f"{side} has no deployment zone on this map.")
    spacing = 2 * max((radii[n] for n in waiting), default=0.5) + 0.5
    minx, miny, maxx, maxy = zone.bounds
    middle = zone.centroid
    spots = []
    y = miny + spacing / 2
    while y <= maxy:
        x = minx + spacing / 2
        while x <= maxx:
            spots.append(Point(round(min(x, state.map.width), 1), round(min(y, state.map.height), 1)))
            x += spacing
        y += spacing
    spots.sort(key=lambda p: (abs(p.y - middle.y), abs(p.x - middle.x)))
    trial = FieldState(state.map, dict(state.positions), dict(state.facing))
    placed = []
    for name in waiting:
        for spot in spots:
            try:
                place(trial, terrain, name, side, spot, radii)
            except RuleError:
                continue
            placed.append(name)
            break
        else:
            raise RuleError(f"{side}'s deployment zone has no room left for {name}: place it with /map place.")
    state.positions = trial.positions
    return placed


# --- movement ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MovePlan:
    """A move worked out: the path actually taken (cut short where the rules stop it, round the
    bases in the way), how far it went and the movement it used (terrain costs included), why it
    stopped early, and whose bases it went round."""

    path: tuple[Point, ...]
    travelled: float
    used: float
    stopped_by: str | None = None
    went_round: tuple[str, ...] = ()

    @property
    def end(self) -> Point:
        return self.path[-1]

    @property
    def round_words(self) -> str:
        """``, going round Garcia`` for a card, or nothing when the path went straight."""
        return f", going round {joined(self.went_round)}" if self.went_round else ""


def toward(state: FieldState, start: Point, target: Point, distance: float) -> Point:
    """The point ``distance`` along the straight line from ``start`` to ``target`` (no further than it)."""
    gap = centre_distance(start, target)
    if gap <= EPSILON:
        return start
    step = min(distance, gap) / gap
    return Point(start.x + (target.x - start.x) * step, start.y + (target.y - start.y) * step)


#: Halvings that find how far a move reaches through costly ground: 40 leave a trillionth of an inch.
BISECTIONS = 40


def as_far_as(state: FieldState, terrain: Terrain, start: Point, goal: Point, most: float, left: float) -> Point:
    """Where a straight move from ``start`` toward ``goal`` ends when the player gives no distance:
    ``most`` inches along the line, or less where the terrain's costs use up the movement ``left``
    first. A line through impassable ground is left whole, for :func:`plan_move` to refuse with its why."""
    ground, slow = battlefield_of(state.map), costs(terrain)

    def fits(d: float) -> bool:
        return path_cost(ground, [start, toward(state, start, goal, d)], slow) <= left + EPSILON

    try:
        if fits(most):
            return toward(state, start, goal, most)
    except RuleError:
        return toward(state, start, goal, most)
    low, high = 0.0, most
    for _ in range(BISECTIONS):
        middle = (low + high) / 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return toward(state, start, goal, low)


def plan_move(
    state: FieldState,
    terrain: Terrain,
    name: str,
    waypoints: Sequence[Point],
    allowance: float,
    radii: Mapping[str, float],
    *,
    stop_near: Mapping[str, Point] | None = None,
    stop_within: float = 0.0,
    allow_touching: Sequence[str] = (),
) -> MovePlan:
    """Check and measure ``name``'s move from where it stands through ``waypoints``.

    A leg through another figure's base goes the cheapest way round it. Refused with a sentence: a
    point off the table, a path through impassable terrain, an end on another base or with no way
    round, a path using more than ``allowance``, an end on impassable ground. With
    ``stop_near``, the figure stops where it first comes within ``stop_within`` of one of them
    (SSG's 1" stop), and only the path up to there is measured."""
    start = where(state, name)
    if all(centre_distance(start, p) <= EPSILON for p in waypoints):
        raise RuleError(f"{name} already stands at {start}.")
    for i, point in enumerate(waypoints):
        check_point(state, point, "the end of the move" if i == len(waypoints) - 1 else "a point of the path")
    path = [start, *waypoints]
    others = {
        n: Base(Point(*xy), radii[n])
        for n, xy in state.positions.items()
        if n != name and n in radii and n not in allow_touching
    }
    field_ = battlefield_of(state.map)
    path, stopped_by = _stopped(path, stop_near, stop_within)
    path, went_round = _round_the_bases(field_, terrain, name, path, radii[name], others)
    if went_round:
        path, stopped_by = _stopped(path, stop_near, stop_within, stopped_by)
    try:
        used = path_cost(field_, path, costs(terrain))
    except RuleError as exc:
        raise RuleError(f"{name} cannot go that way: {exc.message[:1].lower()}{exc.message[1:]}") from None
    travelled = sum(centre_distance(a, b) for a, b in itertools.pairwise(path))
    if used > allowance + MEASURE_TOLERANCE:
        if measured(used) == measured(travelled):
            length = f"is {measured_against(travelled, allowance)} long"
        else:
            length = f"is {measured(travelled)} long and uses {measured_against(used, allowance)} of movement through the terrain"
        what = f"the way round {joined(went_round)}" if went_round else "that path"
        raise RuleError(f"{name} has {measured_against(allowance, used)} of movement left; {what} {length}.")
    blocked = impassable_at(state, terrain, path[-1])
    if blocked:
        raise RuleError(f"{name} cannot stop in {blocked}.")
    return MovePlan(tuple(path), travelled, min(used, allowance), stopped_by, tuple(went_round))


def _stopped(
    path: list[Point], stop_near: Mapping[str, Point] | None, within: float, stopped_by: str | None = None
) -> tuple[list[Point], str | None]:
    """The path cut where it first comes within ``within`` of one of ``stop_near`` (SSG's 1" stop),
    and who stopped it; unchanged (with ``stopped_by``) when it never comes that near."""
    stop = stop_on_approach(path, list(stop_near.values()), within) if stop_near else None
    if stop is None or not stop_near:
        return path, stopped_by
    return _cut(path, stop.travelled), min(stop_near, key=lambda n: centre_distance(stop.point, stop_near[n]))


def _round_the_bases(
    field_: Battlefield, terrain: Terrain, name: str, path: list[Point], radius: float, others: Mapping[str, Base]
) -> tuple[list[Point], list[str]]:
    """The path, each leg that runs through another base replaced by the cheapest way round it
    (rules.geometry.routing); refused with a sentence when the end stands on a base or no way
    round is near."""
    crossed = bases_crossed(path, radius, others)
    if not crossed:
        return path, []
    end = path[-1]
    on = next(
        (n for n, b in others.items() if centre_distance(end, b.centre) < b.radius + radius - CONTACT_TOLERANCE), None
    )
    if on is not None:
        raise RuleError(f"{name} cannot end the move on {possessive(on)} base: there is no room there.")
    found = legs_round(field_, costs(terrain), path, radius, others)
    if found is None:
        raise RuleError(f"{name}'s path runs through {crossed[0]}, and there is no way round it near: give a via:.")
    return found


def _cut(path: Sequence[Point], distance: float) -> list[Point]:
    """The path up to ``distance`` along it."""
    out = [path[0]]
    left = distance
    for a, b in itertools.pairwise(path):
        step = centre_distance(a, b)
        if step >= left - EPSILON:
            out.append(Point(a.x + (b.x - a.x) * (left / step), a.y + (b.y - a.y) * (left / step)) if step else b)
            return out
        out.append(b)
        left -= step
    return out


# --- measuring between figures -------------------------------------------------------------------


def base_of(state: FieldState, name: str, radius: float) -> Base:
    return Base(where(state, name), radius)


def cover_of(
    state: FieldState, terrain: Terrain, shooter: Point, target: Point, within: float
) -> tuple[str, str | None]:
    """The best cover the target has from the shooter: ``("hard"|"soft"|"none", feature)``, from a
    feature of a covering kind the target stands in, or one the line of fire crosses within
    ``within`` inches of the target."""
    field_ = battlefield_of(state.map)
    rank = {"none": 0, "soft": 1, "hard": 2}
    best: tuple[str, str | None] = ("none", None)
    for crossing in cover(field_, shooter, target):
        kind = terrain.get(crossing.kind)
        if kind is None or crossing.from_target > within + EPSILON:
            continue
        if rank[kind.cover] > rank[best[0]]:
            best = (kind.cover, crossing.feature)
    return best


def height_at(state: FieldState, terrain: Terrain, point: Point) -> float:
    """How high ground is at ``point``: the highest feature standing there (0 on open ground)."""
    heights = [terrain[f.kind].height for f in features_at(battlefield_of(state.map), point) if f.kind in terrain]
    return max(heights, default=0.0)
