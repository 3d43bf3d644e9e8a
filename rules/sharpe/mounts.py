"""Horses on the bot's map (15, Horsemen): a horse that runs on out of control, a riderless horse
that goes on its merry way, a horse that collapses where it stands, and the rider set down beside
it. The readings are A-SHARPE-42 and A-SHARPE-43 in docs/rules/sharpe.md, "On the bot's map"; on a
table nothing here moves anything."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import shapely
from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint

from rules.battlefield import battlefield_of, impassable_at, point_of, set_point, where
from rules.geometry import Point, centre_distance
from rules.geometry.measure import CONTACT_TOLERANCE
from rules.sharpe import onmap
from rules.sharpe.common import Ctx
from rules.sharpe.horsebase import horse_key
from rules.sharpe.schema import SharpeTables
from rules.sharpe.state import Character, Horse, SharpeState
from rules.vocabulary import RuleError
from rules.words import measured

EPSILON = 1e-6
#: A run shorter than this does not move the horse at all.
LEAST_RUN = 0.05
#: Where a rider thrown or set down may land, turned from his horse's facing: its left (the near
#: side), its right, behind, ahead, then the four between.
BESIDE = (90.0, -90.0, 180.0, 0.0, 135.0, -135.0, 45.0, -45.0)
#: How much further out each ring of places beside the horse is tried, and how many rings.
RING_STEP, RINGS = 0.5, 6


@dataclass(frozen=True)
class Run:
    """Where a running horse went: how far, which way, what pulled it up short (None: its pace ran
    out), whether it left the table, where it stands, and the movement it used (bad going double)."""

    went: float
    heading: float
    stopped_by: str | None
    gone: bool
    at: Point
    used: float


def heading_unit(heading: float) -> tuple[float, float]:
    return round(math.cos(math.radians(heading)), 12), round(math.sin(math.radians(heading)), 12)


def _edge_distance(t: SharpeTables, state: SharpeState, start: Point, unit: tuple[float, float]) -> float:
    """How far along ``unit`` the centre goes before it leaves the table."""
    table = battlefield_of(onmap.field_of(state).map).table
    ux, uy = unit
    found = math.inf
    for at, u, size in ((start.x, ux, table.width), (start.y, uy, table.height)):
        if u > EPSILON:
            found = min(found, (size - at) / u)
        elif u < -EPSILON:
            found = min(found, -at / u)
    return max(0.0, found)


def _first_inside(line: LineString, zone: shapely.Geometry) -> float | None:
    """How far along ``line`` it first runs inside ``zone`` (touching it is not inside)."""
    met = line.intersection(zone)
    found = None
    for piece in getattr(met, "geoms", [met]):
        if piece.is_empty or piece.length <= EPSILON:
            continue
        at = min(line.project(ShapelyPoint(x, y)) for x, y in shapely.get_coordinates(piece))
        found = at if found is None else min(found, at)
    return found


def _stops(
    t: SharpeTables, state: SharpeState, mover: str, start: Point, unit: tuple[float, float], reach: float, r: float
) -> list[tuple[float, str]]:
    """Everything that pulls a running horse up on its line, with how far along it is met: a
    building, a wall, hedge, fence or barricade ("it will not crash into obstacles"), another base.
    What its base overlaps already (it stands against it) does not stop it going away, though its
    centre never enters a building."""
    field = onmap.field_of(state)
    end = Point(start.x + unit[0] * reach, start.y + unit[1] * reach)
    line = LineString([(start.x, start.y), (end.x, end.y)])
    here = ShapelyPoint(start.x, start.y)
    found: list[tuple[float, str]] = []
    for feature in battlefield_of(field.map).features:
        kind = t.terrain.get(feature.kind)
        if kind is None or not (kind.move_cost is None or kind.obstacle):
            continue
        if feature.geometry.distance(line) >= r:
            continue
        against = feature.geometry.distance(here) < r - CONTACT_TOLERANCE
        if against and kind.move_cost is not None:
            continue
        at = _first_inside(line, feature.geometry if against else feature.geometry.buffer(r))
        if at is not None:
            found.append((at, feature.label))
    for name, rr in onmap.radii(t, state).items():
        there = point_of(field, name)
        if name == mover or there is None:
            continue
        reach_r = r + rr
        dx, dy = there.x - start.x, there.y - start.y
        along = dx * unit[0] + dy * unit[1]
        across2 = dx * dx + dy * dy - along * along
        if math.hypot(dx, dy) < reach_r - CONTACT_TOLERANCE or along <= 0:
            continue
        if across2 >= reach_r * reach_r - EPSILON:
            continue
        at = along - math.sqrt(max(0.0, reach_r * reach_r - across2))
        if at <= reach:
            found.append((max(0.0, at), f"{name}'s base" if name in _riders(state) else name))
    return found


def _riders(state: SharpeState) -> set[str]:
    return {c.name for c in state.characters}


def _going(t: SharpeTables, state: SharpeState, start: Point, unit: tuple[float, float], reach: float) -> float:
    """How far along the line the inches ``reach`` carry a horse, each inch of bad going using two
    (A-SHARPE-33's double cost, as :func:`rules.geometry.path_cost` counts it)."""
    field = onmap.field_of(state)
    line = LineString([(start.x, start.y), (start.x + unit[0] * reach, start.y + unit[1] * reach)])
    spans: list[tuple[float, float, float]] = []
    for feature in battlefield_of(field.map).features:
        kind = t.terrain.get(feature.kind)
        if kind is None or kind.move_cost is None or kind.move_cost <= 1 or not feature.geometry.intersects(line):
            continue
        met = line.intersection(feature.geometry).difference(feature.geometry.boundary)
        for piece in getattr(met, "geoms", [met]):
            if piece.length > EPSILON:
                ends = [line.project(ShapelyPoint(x, y)) for x, y in shapely.get_coordinates(piece)]
                spans.append((min(ends), max(ends), kind.move_cost))
    if not spans:
        return reach
    marks = sorted({0.0, reach, *(a for a, _, _ in spans), *(b for _, b, _ in spans)})
    left = reach
    for a, b in itertools.pairwise(marks):
        middle = (a + b) / 2
        cost = max((c for lo, hi, c in spans if lo <= middle <= hi), default=1.0)
        if (b - a) * cost >= left:
            return a + left / cost
        left -= (b - a) * cost
    return reach


def run_line(
    t: SharpeTables, state: SharpeState, mover: str, heading: float, inches_: float, r: float, *, move: bool = True
) -> Run:
    """A-SHARPE-42: ``mover`` (a rider's name or a horse's) runs ``inches_`` straight along
    ``heading``: bad going counts double, a building, an obstacle or another base pulls it up short,
    its base touching; a run that carries its centre over the table's edge leaves the table."""
    field = onmap.field_of(state)
    start = where(field, mover)
    unit = heading_unit(heading)
    edge = _edge_distance(t, state, start, unit)
    stops = _stops(t, state, mover, start, unit, min(inches_, edge), r)
    if edge < inches_:
        stops.append((edge, "the table's edge"))
    limit, stopped_by = min(stops, default=(inches_, None))
    limit = min(limit, inches_)
    went = min(limit, _going(t, state, start, unit, limit) if limit > 0 else 0.0)
    if went < limit - EPSILON:
        stopped_by = None
    gone = stopped_by == "the table's edge"
    if went < LEAST_RUN and not gone:
        went = 0.0
    at = Point(start.x + unit[0] * went, start.y + unit[1] * went)
    used = _used(t, state, start, at)
    if move and not gone and went > 0:
        set_point(field, mover, at)
    if move and not gone:
        field.facing[mover] = round(heading % 360.0, 4)
    return Run(went, heading % 360.0, stopped_by, gone, at, used)


def _used(t: SharpeTables, state: SharpeState, start: Point, at: Point) -> float:
    if centre_distance(start, at) <= EPSILON:
        return 0.0
    try:
        return onmap.used_on(t, onmap.field_of(state), [start, at])
    except RuleError:  # a run along a building's very edge: no bad going to count there
        return centre_distance(start, at)


# --- a horse without its rider ----------------------------------------------------------------------


def horse_inches(t: SharpeTables, horse: Horse, pace: str) -> float:
    """A horse's pace in inches, less its wounds (4: 1 per light, 2 per serious)."""
    if pace not in t.movement.mounted:
        return 0.0
    m = t.movement
    hurt = sum(m.each_light_wound if w.severity == "light" else m.each_serious_wound for w in horse.wounds)
    return max(0.0, m.mounted[pace] + hurt)


def riderless_pace(t: SharpeTables, pace: str) -> str:
    """A riderless horse's pace: "All unwounded rider-less horses continue to move in the direction
    they were going but slow to a canter if they were at a gallop" (15)."""
    return t.horses.wounded_pace if pace == "gallop" else pace


def has_run(ctx: Ctx, rider: Character) -> bool:
    """Whether the horse has moved this bound (ridden, or run on)."""
    horse = rider.horse
    return horse is not None and horse.ran_bound == ctx.bound


def set_down(t: SharpeTables, state: SharpeState, rider: Character, horse_at: Point, facing: float) -> Point:
    """A-SHARPE-43: the rider off his horse lands on a man's base touching the horse's, on its left
    (the near side), else its right, behind, ahead or between, the nearest ring with room (on the
    table, on open ground, on no other base); with no room anywhere near he lies where he sat."""
    field = onmap.field_of(state)
    table = battlefield_of(field.map).table
    mine, horse_r = t.map.base_radius, t.map.mounted_base_radius
    others = {n: rr for n, rr in onmap.radii(t, state).items() if n != rider.name}
    for ring in range(RINGS):
        gap = horse_r + mine + ring * RING_STEP
        for turn in BESIDE:
            ux, uy = heading_unit(facing + turn)
            spot = Point(horse_at.x + ux * gap, horse_at.y + uy * gap)
            if not table.holds(spot) or impassable_at(field, t.terrain, spot) is not None:
                continue
            if any(
                (there := point_of(field, n)) is not None and centre_distance(spot, there) < mine + rr - EPSILON
                for n, rr in others.items()
            ):
                continue
            return spot
    return horse_at


def leave_saddle(ctx: Ctx, rider: Character) -> None:
    """A-SHARPE-43: on the map the horse stays a figure where its rider sat and he is set down
    beside it; a live horse then goes on its merry way "if it has not already moved this bound"."""
    state, t = ctx.state, ctx.t
    field = state.field
    horse = rider.horse
    if field is None or horse is None or rider.name not in field.positions:
        return
    key = horse_key(rider.name)
    seat = where(field, rider.name)
    facing = field.facing.get(rider.name, 0.0)
    moved = horse.ran_bound == ctx.bound or rider.moved_bound == ctx.bound
    set_point(field, key, seat)
    field.facing[key] = facing
    horse.loose = True
    if moved:
        horse.ran_bound = ctx.bound
    if not rider.out:
        spot = set_down(t, state, rider, seat, facing)
        set_point(field, rider.name, spot)
        ctx.say(
            "move",
            f"{rider.name} lands beside his horse at {spot}.",
            figure=rider.name,
            to=list(field.positions[rider.name]),
        )
    if not horse.dead and not moved:
        run_riderless(ctx, rider)


def run_riderless(ctx: Ctx, rider: Character) -> None:
    """A-SHARPE-43: a riderless horse runs on the way it faces at its pace (a gallop slows to a
    canter), pulled up as a runaway is (A-SHARPE-42); over the table's edge it is gone."""
    horse = rider.horse
    field = onmap.field_of(ctx.state)
    key = horse_key(rider.name)
    if horse is None or horse.dead or not horse.loose or key not in field.positions:
        return
    horse.pace = riderless_pace(ctx.t, horse.pace)
    horse.ran_bound = ctx.bound
    inches_ = horse_inches(ctx.t, horse, horse.pace)
    if inches_ <= 0:
        return
    ran = run_line(ctx.t, ctx.state, key, field.facing.get(key, 0.0), inches_, ctx.t.map.mounted_base_radius)
    if ran.gone:
        onmap.leave_the_table(ctx.state, key)
        horse.loose = False
        ctx.say("move", f"{key} runs off the table riderless and is gone.", figure=rider.name, gone=True)
        return
    stop = f", stopped by {ran.stopped_by}" if ran.stopped_by else ""
    ctx.say(
        "move",
        f"{key} runs on riderless {measured(ran.went)} at the {horse.pace} to {ran.at}{stop}.",
        figure=rider.name,
        horse=key,
        pace=horse.pace,
        distance=round(ran.went, 4),
        to=list(field.positions[key]),
    )


def run_away(ctx: Ctx, rider: Character, turn: float) -> Run | None:
    """A-SHARPE-42: a horse out of control runs on with its rider at its pace, along his facing
    turned by ``turn`` (table H's veer); None when it does not move (no pace, no place). The caller
    puts a rider carried over the table's edge out of the battle."""
    horse = rider.horse
    field = onmap.field_of(ctx.state)
    facing = field.facing.get(rider.name)
    if horse is None or facing is None or rider.name not in field.positions:
        return None
    inches_ = horse_inches(ctx.t, horse, horse.pace)
    horse.ran_bound = ctx.bound
    if inches_ <= 0:
        return None
    ran = run_line(ctx.t, ctx.state, rider.name, facing + turn, inches_, onmap.radius(ctx.t, rider))
    if ran.gone:
        onmap.leave_the_table(ctx.state, rider.name)
        return ran
    stop = f", stopped by {ran.stopped_by}" if ran.stopped_by else ""
    slow = f" ({measured(ran.used)} of movement, bad going counted double)" if ran.used > ran.went + 0.05 else ""
    ctx.say(
        "move",
        f"{rider.name}'s horse runs on {measured(ran.went)} at the {horse.pace} to {ran.at}{stop}{slow}.",
        figure=rider.name,
        pace=horse.pace,
        distance=round(ran.went, 4),
        to=list(field.positions[rider.name]),
    )
    return ran


def loose_horses_run(ctx: Ctx) -> None:
    """A-SHARPE-43: as a bound begins every riderless horse runs on (once a bound)."""
    if ctx.state.field is None:
        return
    for rider in ctx.state.characters:
        horse = rider.horse
        if horse is not None and horse.loose and not horse.dead and not has_run(ctx, rider):
            run_riderless(ctx, rider)


def runaways_left(ctx: Ctx) -> list[Character]:
    """A-SHARPE-42: the riders whose horse goes on without them steering and has not moved this
    bound: out of control, or carrying a man wounded this bound ("the horse will continue to move at
    the same speed as last move and in the same direction")."""
    if ctx.state.field is None:
        return []
    return [
        c
        for c in ctx.state.characters
        if c.mounted
        and not c.out
        and c.horse is not None
        and (c.horse.lost_control or c.wounded_bound == ctx.bound)
        and not has_run(ctx, c)
    ]
