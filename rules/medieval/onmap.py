"""The medieval game on the bot's map: round bases, moves measured along a path, hand-to-hand as
bases touching, a shot's range, sight and cover measured, height and barricades in a fight, the
knock back, and what the picture shows.

Only the handlers of a battle on the map (``state.field`` set) call this; the readings it plays by
(A-MED-20 to A-MED-30) are in docs/rules/medieval.md, "On the bot's map", and the numbers in
``tables.yaml``'s map section.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import shapely
from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint

from rules.battlefield import (
    Band,
    FieldState,
    FieldView,
    Focus,
    MovePlan,
    Token,
    as_far_as,
    battlefield_of,
    cover_of,
    height_at,
    impassable_at,
    line_of_sight,
    plan_move,
    point_of,
    set_point,
    toward,
    where,
)
from rules.battlefield.deployment import Piece
from rules.battlefield.mapplay import field_of as field_of
from rules.battlefield.requests import MoveRequest, move_request
from rules.geometry import Base, Point, bases_crossed, centre_distance, cover, edge_distance, in_contact
from rules.geometry.measure import CONTACT_TOLERANCE
from rules.medieval.data import MedievalTables
from rules.medieval.state import MedFigure, MedState, effective, figure, in_action
from rules.vocabulary import RuleError
from rules.words import blank, measured, number

EPSILON = 1e-6
#: How many halvings find the furthest a move or a knock back can go (a millionth of an inch).
BISECTIONS = 40
#: A knock back stopped short after less than this does not move the figure at all.
KNOCK_BACK_LEAST = 0.1
#: Bases further apart than this never touch across an obstacle (no wall is this thick).
ACROSS_REACH = 3.0
Whose = Literal["none", "mine", "theirs"]


def radius(t: MedievalTables) -> float:
    """A base's radius at the tables' ground scale (A-MED-21)."""
    return t.base_radius[t.ground_scale]


def radii(t: MedievalTables, state: MedState, *also: str) -> dict[str, float]:
    """The bases that take up room: every figure in action (the fallen are stepped over), and ``also``."""
    r = radius(t)
    return {f.name: r for f in state.figures if in_action(f) or f.name in also}


def pieces(t: MedievalTables, state: MedState) -> list[Piece]:
    """The figures to put on the map (A-MED-20): every one in action."""
    return [Piece(f.name, f.side, radius(t)) for f in state.figures if in_action(f)]


def unplaced(state: MedState) -> list[str]:
    field = state.field
    return [f.name for f in state.figures if in_action(f) and (field is None or f.name not in field.positions)]


# --- moving ------------------------------------------------------------------------------------------


def route(t: MedievalTables, state: MedState, fig: MedFigure, params: Mapping[str, Any], left: float) -> MovePlan:
    """A-MED-22: ``fig``'s move as the options give it (``to``; ``via`` waypoints, ending at ``to`` when it is
    given too; or ``toward`` a figure or a point, with or without ``distance``), checked against the
    movement it has ``left``, the terrain and the other bases."""
    field = field_of(state)
    asked = move_request(params, fig.name)
    touching: tuple[str, ...] = ()
    if asked.toward is not None:
        goal, other = _aim(t, state, fig, asked)
        waypoints = [_toward_point(t, field, fig, goal, other, asked.distance, left)]
        touching = () if other is None else (other.name,)
    else:
        waypoints = asked.path
    try:
        return plan_move(
            field, t.terrain, fig.name, waypoints, left, radii(t, state, fig.name), allow_touching=touching
        )
    except RuleError as exc:
        if exc.message[:1].islower():
            raise RuleError(f"{fig.name} cannot go that way: {exc.message}.") from None
        raise


def _aim(t: MedievalTables, state: MedState, fig: MedFigure, asked: MoveRequest) -> tuple[Point, MedFigure | None]:
    """What ``toward:`` names: a point ("14,22"), or a figure (whose base the move stops against)."""
    point = asked.toward_point()
    if point is not None:
        return point, None
    other = figure(state, asked.toward)
    if other is fig:
        raise RuleError(f"{fig.name} cannot move toward itself.")
    return where(field_of(state), other.name), other


def _toward_point(
    t: MedievalTables,
    field: FieldState,
    fig: MedFigure,
    goal: Point,
    other: MedFigure | None,
    distance: Any,
    left: float,
) -> Point:
    """Where a move toward ``goal`` ends: ``distance`` along the straight line, never past the goal
    (for a figure, ``other``: never past touching its base); without a distance, all the way, or
    as far as the movement ``left`` takes it."""
    start = where(field, fig.name)
    gap = centre_distance(start, goal) - (0.0 if other is None else 2 * radius(t))
    if other is not None and gap <= CONTACT_TOLERANCE:
        raise RuleError(f"{fig.name} already touches {other.name}.")
    if other is not None:
        gap = min(gap, _up_to_the_obstacle(t, field, start, goal))
    if gap <= EPSILON:
        raise RuleError(f"{fig.name} already stands at {start}.")
    if not blank(distance):
        wanted = number(distance, f"Give {fig.name}'s move as a number of inches.", lowest=0, highest=1000)
        if wanted <= 0:
            raise RuleError(f"Give {fig.name}'s move as more than 0″.")
        return toward(field, start, goal, min(wanted, gap))
    return as_far_as(field, t.terrain, start, goal, gap, left)


def _up_to_the_obstacle(t: MedievalTables, field: FieldState, start: Point, goal: Point) -> float:
    """How far a charge at a figure standing behind an obstacle goes: until its base touches the
    obstacle (A-MED-24: they fight across it), not on into it. An obstacle the target does not
    stand against, or one where the charger would not yet touch the target across it (its end, or
    one on the charger's own side of the target), is crossed like any ground; inf when there is none."""
    r = radius(t)
    line = LineString([(start.x, start.y), (goal.x, goal.y)])
    here, there = ShapelyPoint(start.x, start.y), ShapelyPoint(goal.x, goal.y)
    stop = math.inf
    for feature in battlefield_of(field.map).features:
        kind = t.terrain.get(feature.kind)
        if kind is None or not kind.obstacle or feature.geometry.distance(there) > r + CONTACT_TOLERANCE:
            continue
        reach = feature.geometry.buffer(r)
        if reach.contains(here):
            continue  # already against it: where it goes from there is the player's to say
        entry = line.intersection(reach)
        if entry.is_empty:
            continue
        at = min(line.project(ShapelyPoint(x, y)) for x, y in shapely.get_coordinates(entry))
        if touching_at(t, field, toward(field, start, goal, at), goal):
            stop = min(stop, at)
    return stop


def short_of(t: MedievalTables, state: MedState, fig: MedFigure, params: Mapping[str, Any]) -> str:
    """After a move ``toward:`` a figure that did not reach it for want of movement: how far short it
    stopped; empty when it touches, aimed at a point or went the ``distance:`` the player gave."""
    asked = move_request(params, fig.name)
    if asked.toward is None or asked.toward_point() is not None or not blank(params.get("distance")):
        return ""
    other = figure(state, asked.toward)
    if touching(t, state, fig.name, other.name):
        return ""
    field = field_of(state)
    gap = max(0.0, centre_distance(where(field, fig.name), where(field, other.name)) - 2 * radius(t))
    return f" It stops {measured(gap)} short of {other.name}: its movement is spent."


def moved_text(fig: MedFigure, plan: MovePlan, left: float, verb: str = "moves") -> str:
    slow = f"{measured(plan.used)} of movement through the terrain; " if plan.used > plan.travelled + 0.05 else ""
    return (
        f"{fig.name} {verb} {measured(plan.travelled)} to {plan.end}{plan.round_words} ({slow}{measured(left)} left)."
    )


# --- contact ------------------------------------------------------------------------------------------


def touching_at(t: MedievalTables, field: FieldState, a: Point, b: Point) -> bool:
    """A-MED-24: two bases at ``a`` and ``b`` touch: edge to edge, or each touching an obstacle between them
    (a wall, a hedge, a fence, a barricade): the part of the line between the centres inside
    obstacles is all that parts them."""
    r = radius(t)
    if in_contact(Base(a, r), Base(b, r)):
        return True
    gap = centre_distance(a, b) - 2 * r
    if gap > ACROSS_REACH or centre_distance(a, b) <= EPSILON:
        return False
    line = LineString([(a.x, a.y), (b.x, b.y)])
    across = sum(
        f.geometry.intersection(line).length
        for f in battlefield_of(field.map).features
        if (kind := t.terrain.get(f.kind)) is not None and kind.obstacle and f.geometry.intersects(line)
    )
    return across > 0 and gap <= across + CONTACT_TOLERANCE


def touching(t: MedievalTables, state: MedState, a: str, b: str) -> bool:
    field = field_of(state)
    pa, pb = point_of(field, a), point_of(field, b)
    return pa is not None and pb is not None and touching_at(t, field, pa, pb)


def sync_contacts(
    t: MedievalTables, state: MedState, first: str | None = None
) -> tuple[list[list[str]], list[list[str]]]:
    """Hand-to-hand as the bases stand: pairs no longer touching dropped, enemies newly touching
    added (``first``, the figure that moved, named first: it came at the other). The pairs added
    and the pairs dropped."""
    live = [f for f in state.figures if in_action(f) and point_of(field_of(state), f.name) is not None]
    kept = [pair for pair in state.contacts if touching(t, state, pair[0], pair[1])]
    dropped = [pair for pair in state.contacts if pair not in kept]
    known = {frozenset(pair) for pair in kept}
    added = []
    for a, b in itertools.combinations(sorted(live, key=lambda f: f.name != first), 2):
        if a.side != b.side and frozenset((a.name, b.name)) not in known and touching(t, state, a.name, b.name):
            added.append([a.name, b.name])
    state.contacts = kept + added
    return added, dropped


# --- shooting -------------------------------------------------------------------------------------------


def shot_range(t: MedievalTables, state: MedState, fig: MedFigure, target: MedFigure) -> float:
    """A-MED-25: range on the map, base edge to base edge."""
    field = field_of(state)
    r = radius(t)
    return edge_distance(Base(where(field, fig.name), r), Base(where(field, target.name), r))


@dataclass(frozen=True)
class Seen:
    """What a shot's card says was measured: the cover and why, in words."""

    cover: str
    feature: str | None
    text: str


def sight_and_cover(t: MedievalTables, state: MedState, fig: MedFigure, target: MedFigure, distance: float) -> Seen:
    """Refused when ``fig`` cannot see ``target`` (A-MED-26); else the target's cover (A-MED-27),
    said as a card says it."""
    field = field_of(state)
    r = radius(t)
    shooter, aim = Base(where(field, fig.name), r), Base(where(field, target.name), r)
    seen = line_of_sight(field, t.terrain, shooter, aim)
    if seen.kind == "blocked":
        raise RuleError(f"{fig.name} cannot see {target.name}: {seen.why_not(fig.name, target.name)}.")
    kind, feature = cover_of(field, t.terrain, shooter.centre, aim.centre, t.cover_within_inches)
    said = f"{measured(distance)} base to base"
    if kind == "none" or feature is None:
        return Seen("none", None, f"{said}, in the open")
    crossings = cover(battlefield_of(field.map), shooter.centre, aim.centre)
    ahead = next((c.from_target for c in crossings if c.feature == feature), 0.0)
    where_ = (
        f"{target.name} is in {feature}"
        if ahead <= EPSILON
        else f"{feature} {measured(ahead)} in front of {target.name}"
    )
    return Seen(kind, feature, f"{said}, {kind} cover: {where_}")


# --- hand to hand ----------------------------------------------------------------------------------------


def height_side(t: MedievalTables, state: MedState, fig: MedFigure, enemy: MedFigure) -> Whose:
    """Who stands higher (a hill), for the height advantage (A-MED-28)."""
    field = field_of(state)
    mine = height_at(field, t.terrain, where(field, fig.name))
    theirs = height_at(field, t.terrain, where(field, enemy.name))
    if abs(mine - theirs) <= EPSILON:
        return "none"
    return "mine" if mine > theirs else "theirs"


def barricade_side(t: MedievalTables, state: MedState, fig: MedFigure, enemy: MedFigure) -> Whose:
    """Who defends a barricade (A-MED-28): with one between them, the figure the other came at."""
    field = field_of(state)
    a, b = where(field, fig.name), where(field, enemy.name)
    line = LineString([(a.x, a.y), (b.x, b.y)])
    between = any(
        (kind := t.terrain.get(f.kind)) is not None and kind.barricade and f.geometry.intersects(line)
        for f in battlefield_of(field.map).features
    )
    pair = next((p for p in state.contacts if set(p) == {fig.name, enemy.name}), None)
    if not between or pair is None:
        return "none"
    return "mine" if pair[1] == fig.name else "theirs"


def knock_back(
    t: MedievalTables, state: MedState, attacker: MedFigure, victim: MedFigure, inches_: float
) -> tuple[float, str | None]:
    """A-MED-29: ``victim`` goes up to ``inches_`` straight away from ``attacker``, stopped
    short by the table's edge, impassable ground or another base (less than a tenth of an inch is
    not moving at all). How far it went, and what stopped it short (None when nothing did)."""
    field = field_of(state)
    start, source = where(field, victim.name), where(field, attacker.name)
    gap = centre_distance(start, source)
    if gap <= EPSILON or inches_ <= 0:
        return 0.0, None
    ux, uy = (start.x - source.x) / gap, (start.y - source.y) / gap
    r = radius(t)
    others = {
        n: Base(Point(*field.positions[n]), rr)
        for n, rr in radii(t, state).items()
        if n != victim.name and n in field.positions
    }

    def end(d: float) -> Point:
        return Point(start.x + ux * d, start.y + uy * d)

    def blocker(d: float) -> str | None:
        point = end(d)
        if not battlefield_of(field.map).table.holds(point):
            return "the table's edge"
        wall = _impassable_on(t, field, start, point) or impassable_at(field, t.terrain, point)
        if wall:
            return wall
        crossed = bases_crossed([start, point], r, others)
        return f"{crossed[0]}'s base" if crossed else None

    stopped = blocker(inches_)
    if stopped is None:
        went = inches_
    else:
        low, high = 0.0, inches_
        for _ in range(BISECTIONS):
            middle = (low + high) / 2
            low, high = (middle, high) if blocker(middle) is None else (low, middle)
        went = low if low >= KNOCK_BACK_LEAST else 0.0
    if went > 0:
        set_point(field, victim.name, end(went))
    return went, stopped


def _impassable_on(t: MedievalTables, field: FieldState, a: Point, b: Point) -> str | None:
    """The impassable feature the straight line from ``a`` to ``b`` runs into (not along its edge)."""
    if centre_distance(a, b) <= EPSILON:
        return None
    line = LineString([(a.x, a.y), (b.x, b.y)])
    for f in battlefield_of(field.map).features:
        kind = t.terrain.get(f.kind)
        if kind is None or kind.move_cost is not None or not f.geometry.intersects(line):
            continue
        inside = line.intersection(f.geometry).length - line.intersection(f.geometry.boundary).length
        if inside > EPSILON:
            return f.label
    return None


# --- picking things up -------------------------------------------------------------------------------------


def reach_of(t: MedievalTables, state: MedState, fig: MedFigure, at: list[float]) -> float:
    """How far a point lies from ``fig``'s base edge (0 under the base), for picking up (A-MED-30)."""
    here = where(field_of(state), fig.name)
    return max(0.0, centre_distance(here, Point(at[0], at[1])) - radius(t))


# --- the picture ---------------------------------------------------------------------------------------------


def marks(fig: MedFigure) -> tuple[str, ...]:
    if not in_action(fig):
        return ("out",)
    found = ["wounded"] if fig.health in ("light", "serious") else []
    if fig.prone:
        found.append("down")
    return tuple(found)


def move_left(t: MedievalTables, state: MedState, fig: MedFigure) -> float:
    """How far ``fig`` may still move: the rest of this turn's move when its side is playing, else a
    whole turn's; a prone figure first pays for standing up."""
    if not in_action(fig) or fig.stuck or state.phase == "over":
        return 0.0
    speed = effective(t, fig)["speed"]
    left = max(0.0, speed - fig.moved) if state.phase == "play" and fig.side == state.active else float(speed)
    if fig.prone:
        left -= speed * t.stand_up_cost_of_speed
    return max(0.0, round(left, 6))


def field_view(t: MedievalTables, state: MedState, focus: str | None) -> FieldView:
    field = field_of(state)
    r = radius(t)
    tokens = tuple(
        Token(f.name, f.side, xy[0], xy[1], r, None, marks(f))
        for f in state.figures
        if (xy := field.positions.get(f.name)) is not None
    )
    seen = None
    if not blank(focus):
        fig = figure(state, focus)
        weapon = next((w for w in fig.weapons if t.weapons[w].range > 0), None)
        bands: tuple[Band, ...] = ()
        if weapon is not None:
            # Range is base edge to base edge (A-MED-25); a band is drawn from the figure's centre,
            # so it reaches one base radius further: as far as a target's base edge may stand.
            reach = t.weapons[weapon].range
            bands = (
                Band(f"{weapon} half range, base to base", reach / 2 + r, reach / 2),
                Band(f"{weapon} range, base to base", reach + r, reach),
            )
        seen = Focus(fig.name, move_left(t, state, fig), bands)
    title = f"{field.map.name} · deployment" if state.phase == "deployment" else f"{field.map.name} · turn {state.turn}"
    notes = tuple(f"{a} and {b} in hand-to-hand" for a, b in state.contacts)
    acting = "" if state.phase in ("deployment", "over") else state.current or state.active or ""
    return FieldView(
        field,
        tuple(state.sides),
        tokens,
        seen,
        title,
        notes,
        distances="edge",
        zones=state.phase == "deployment",
        acting=acting,
        contacts=tuple((a, b) for a, b in state.contacts),
    )
