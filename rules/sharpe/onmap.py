"""Sharpe's Skirmish on the bot's map (``battlefield:table`` keeps the typed game): placing the
characters and facing them toward the enemy, the bases that take up room, where a path first jumps an obstacle, and what the picture shows. The readings
are A-SHARPE-32 onwards in docs/rules/sharpe.md, "On the bot's map"."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import shapely
from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint

from rules.battlefield import (
    Arc,
    Band,
    FieldState,
    FieldView,
    Focus,
    Token,
    arc_of,
    battlefield_of,
    bearing,
    cover_of,
    face_toward,
    height_at,
    line_of_sight,
    point_of,
    set_point,
    where,
)
from rules.battlefield.deployment import Piece
from rules.battlefield.mapplay import field_of as field_of
from rules.battlefield.maps import zone_shape
from rules.battlefield.terrain import costs
from rules.geometry import Base, Feature, Point, bases_crossed, centre_distance, features_at, in_contact, path_cost
from rules.geometry.measure import CONTACT_TOLERANCE
from rules.sharpe.gunbase import gun_pieces, gun_radii, gun_tokens, side_of, unplaced_guns
from rules.sharpe.horsebase import horse_key, horse_radii, horse_tokens
from rules.sharpe.schema import SharpeTables
from rules.sharpe.state import Character, SharpeState
from rules.vocabulary import RuleError
from rules.words import measured, signed

EPSILON = 1e-6


def radius(t: SharpeTables, ch: Character) -> float:
    """A-SHARPE-32: a man's base, or a horse's while he rides."""
    return t.map.mounted_base_radius if ch.mounted else t.map.base_radius


def radii(t: SharpeTables, state: SharpeState) -> dict[str, float]:
    """The bases that take up room: every character not out of action (a man down still lies there),
    and every gun (A-SHARPE-47), and every horse without its rider, loose or dead (A-SHARPE-43)."""
    return {c.name: radius(t, c) for c in state.characters if not c.out} | gun_radii(t, state) | horse_radii(t, state)


def pieces(t: SharpeTables, state: SharpeState) -> list[Piece]:
    return [Piece(c.name, c.side, radius(t, c)) for c in state.characters if not c.out] + gun_pieces(t, state)


def unplaced(state: SharpeState) -> list[str]:
    field = state.field
    if field is None:
        return []
    return [c.name for c in state.characters if not c.out and c.name not in field.positions] + unplaced_guns(state)


def deploying(state: SharpeState) -> bool:
    """Still placing the characters: the order of movement is rolled once all stand on the map."""
    return state.field is not None and not state.order and bool(unplaced(state))


def face_the_enemy(t: SharpeTables, state: SharpeState, names: Sequence[str]) -> None:
    """A-SHARPE-32: a man placed faces the middle of the enemy's deployment zone."""
    field = field_of(state)
    for name in names:
        here = point_of(field, name)
        enemy = next((s for s in t.sides if s != side_of(state, name)), None)
        zone = zone_shape(field.map, enemy) if enemy is not None else None
        if here is None or zone is None:
            continue
        middle = Point(zone.centroid.x, zone.centroid.y)
        field.facing[name] = round(face_toward(here, middle), 4) if centre_distance(here, middle) > EPSILON else 0.0


# --- moving --------------------------------------------------------------------------------------------


def turning(facing: float | None, path: Sequence[Point]) -> float:
    """How many degrees a path turns in all: from the facing onto its first leg, then at each bend."""
    headings = [bearing(a, b) for a, b in itertools.pairwise(path) if centre_distance(a, b) > EPSILON]
    if facing is not None and headings:
        headings.insert(0, facing)
    return sum(abs(((b - a + 180.0) % 360.0) - 180.0) for a, b in itertools.pairwise(headings))


def heading_at(path: Sequence[Point], distance: float) -> float | None:
    """The direction of the leg of ``path`` at ``distance`` along it."""
    left = distance
    last = None
    for a, b in itertools.pairwise(path):
        step = centre_distance(a, b)
        if step <= EPSILON:
            continue
        last = bearing(a, b)
        if left <= step + EPSILON:
            return last
        left -= step
    return last


def point_along(path: Sequence[Point], distance: float) -> Point:
    left = max(0.0, distance)
    for a, b in itertools.pairwise(path):
        step = centre_distance(a, b)
        if step >= left:
            return Point(a.x + (b.x - a.x) * left / step, a.y + (b.y - a.y) * left / step) if step else b
        left -= step
    return path[-1]


def cut(path: Sequence[Point], distance: float) -> list[Point]:
    out = [path[0]]
    left = distance
    for a, b in itertools.pairwise(path):
        step = centre_distance(a, b)
        if step >= left:
            out.append(point_along([a, b], left))
            return out
        out.append(b)
        left -= step
    return out


def first_obstacle(t: SharpeTables, field: FieldState, path: Sequence[Point]) -> tuple[str, float] | None:
    """A-SHARPE-34: the first obstacle (a low wall, hedge, fence, barricade) the path jumps, and how
    far along the path it is met; None when it jumps none. One the man already stands on is not
    jumped again."""
    met = first_obstacle_met(t, field, path)
    return None if met is None else (met.what, met.at)


@dataclass(frozen=True)
class Obstacle:
    """An obstacle a path meets (A-SHARPE-34, A-SHARPE-46): what a card calls it, how far along the
    path, how tall it stands in feet (None: the map does not say: a low one), and whether the path
    ends on its top."""

    what: str
    at: float
    height_ft: float | None
    ends_on_top: bool


def lines_with_height(field: FieldState) -> list[tuple[Feature, float | None]]:
    """Each feature's shape with the height the map gives it in feet (None when it gives none)."""
    return list(zip(battlefield_of(field.map).features, (f.height_ft for f in field.map.features), strict=True))


def first_obstacle_met(t: SharpeTables, field: FieldState, path: Sequence[Point]) -> Obstacle | None:
    """The first obstacle the path jumps or climbs, as :func:`first_obstacle` finds it."""
    if len(path) < 2:
        return None
    line = LineString([(p.x, p.y) for p in path])
    start = ShapelyPoint(path[0].x, path[0].y)
    end = ShapelyPoint(path[-1].x, path[-1].y)
    found: Obstacle | None = None
    for feature, height in lines_with_height(field):
        kind = t.terrain.get(feature.kind)
        if kind is None or not kind.obstacle or not feature.geometry.intersects(line):
            continue
        if feature.geometry.distance(start) <= EPSILON:
            continue
        met = line.intersection(feature.geometry)
        at = min(line.project(ShapelyPoint(x, y)) for x, y in shapely.get_coordinates(met))
        if found is None or at < found.at:
            found = Obstacle(feature.label, at, height, feature.geometry.covers(end))
    return found


def high(t: SharpeTables, height_ft: float | None) -> bool:
    """A-SHARPE-46: a line the map says stands taller than ``walls.high_over_ft`` is a high wall."""
    return height_ft is not None and height_ft > t.walls.high_over_ft


def drop_modifier(t: SharpeTables, height_ft: float) -> int:
    """Jumping to the ground: +1 above 6 feet and +1 for each further 6 feet (a 14 ft roof is +2)."""
    j = t.jump_height
    if height_ft <= j.free_up_to_ft:
        return 0
    return j.mod * math.ceil((height_ft - j.free_up_to_ft) / j.per_ft)


def on_top_of(t: SharpeTables, field: FieldState, point: Point) -> tuple[str, float] | None:
    """A-SHARPE-46: the wall (hedge, fence, barricade) whose top a man stands on, his centre on it,
    and how high it stands; None when he stands on the ground (or on a line the map gives no height)."""
    here = ShapelyPoint(point.x, point.y)
    for feature, height in lines_with_height(field):
        kind = t.terrain.get(feature.kind)
        if kind is not None and kind.obstacle and height is not None and feature.geometry.covers(here):
            return feature.label, height
    return None


@dataclass(frozen=True)
class Leap:
    """Something a man leaps, vaults or climbs on his way (A-SHARPE-34, A-SHARPE-45, A-SHARPE-46):
    how far along the path his base meets it (where he falls if he fails), what a card calls it, the
    verb, the table's modifiers for the check, and the height he falls from if he fails (0: none)."""

    at: float
    what: str
    verb: str
    mods: tuple[tuple[str, int], ...]
    falls_ft: float = 0.0


#: The words of the table's modifiers a leap uses.
LEAP_WORDS = {"low_wall": "low wall or bush", "none": "no modifier"}


def leap_mods(t: SharpeTables, key: str) -> tuple[tuple[str, int], ...]:
    return ((LEAP_WORDS.get(key, key.replace("_", " ")), t.action_modifiers[key]),)


def obstacle_leap(t: SharpeTables, obstacle: Obstacle, r: float) -> Leap:
    """A-SHARPE-34, A-SHARPE-46: a low obstacle is jumped (+1); a high wall is vaulted (+1) with the
    drop on the far side (+1 above 6 feet, as jumping to the ground), or climbed onto (+1) when the
    path ends on its top."""
    at = max(0.0, obstacle.at - r)
    h = obstacle.height_ft
    if h is None or not high(t, h):
        return Leap(at, obstacle.what, "jump", leap_mods(t, "low_wall"))
    vault = ("vaulting a high wall", t.action_modifiers["high_wall"])
    if obstacle.ends_on_top:
        return Leap(at, f"{obstacle.what} ({h:g} ft)", "climb onto", (vault,))
    return Leap(at, f"{obstacle.what} ({h:g} ft)", "vault", (vault, (f"dropping {h:g} ft", drop_modifier(t, h))), h)


def jump_down(t: SharpeTables, field: FieldState, path: Sequence[Point]) -> Leap | None:
    """A-SHARPE-46: a man who starts on a wall's top and whose path leaves it jumps down: a
    dexterity check with the drop's modifier; he falls at its foot, from its height, if he fails."""
    if len(path) < 2:
        return None
    start = ShapelyPoint(path[0].x, path[0].y)
    line = LineString([(p.x, p.y) for p in path])
    for feature, h in lines_with_height(field):
        kind = t.terrain.get(feature.kind)
        if kind is None or not kind.obstacle or h is None or not feature.geometry.covers(start):
            continue
        off = line.difference(feature.geometry)
        if off.is_empty or off.length <= EPSILON:
            return None
        at = min(line.project(ShapelyPoint(x, y)) for x, y in shapely.get_coordinates(off))
        mods = (("jumping to the ground", t.action_modifiers["jump_down"]), (f"{h:g} ft", drop_modifier(t, h)))
        return Leap(at, f"{feature.label} ({h:g} ft)", "jump down from", mods, h)
    return None


def lying(t: SharpeTables, state: SharpeState, mover: str) -> dict[str, tuple[Base, str, str]]:
    """A-SHARPE-45: what lies on the ground for a man on foot to leap, by its name on the map: each
    man down (fallen, knocked down, unconscious) or out of action where he fell, each dead horse;
    with its base, what a card calls it and its ``leaping`` key. One his base already overlaps is left
    out (he steps off it)."""
    field = field_of(state)
    here = point_of(field, mover)
    found: dict[str, tuple[Base, str, str]] = {}
    for c in state.characters:
        xy = field.positions.get(c.name)
        if c.name != mover and xy is not None and not c.mounted and (c.out or c.down or c.unconscious or c.knocked_out):
            found[c.name] = (Base(Point(*xy), t.map.base_radius), f"the fallen {c.name}", "fallen_man")
        hxy = field.positions.get(horse_key(c.name))
        if c.horse is not None and c.horse.dead and hxy is not None:
            found[horse_key(c.name)] = (
                Base(Point(*hxy), t.map.mounted_base_radius),
                f"{c.name}'s dead horse",
                "dead_horse",
            )
    mine = t.map.base_radius
    return {
        n: v
        for n, v in found.items()
        if here is None or centre_distance(here, v[0].centre) >= v[0].radius + mine - CONTACT_TOLERANCE
    }


def leaps(t: SharpeTables, state: SharpeState, ch: Character, path: Sequence[Point]) -> list[Leap]:
    """What a man on foot's path leaps, in the order he meets it: the first obstacle (A-SHARPE-34)
    and every man or dead horse lying across it (A-SHARPE-45)."""
    field = field_of(state)
    r = radius(t, ch)
    found = [leap for leap in (jump_down(t, field, path),) if leap is not None]
    jump = first_obstacle_met(t, field, path)
    if jump is not None:
        found.append(obstacle_leap(t, jump, r))
    if len(path) >= 2:
        bodies = lying(t, state, ch.name)
        line = LineString([(p.x, p.y) for p in path])
        for name in bases_crossed(list(path), r, {n: v[0] for n, v in bodies.items()}):
            base, what, key = bodies[name]
            touch = ShapelyPoint(base.centre.x, base.centre.y).buffer(base.radius + r)
            met = shapely.get_coordinates(line.intersection(touch))
            at = min((line.project(ShapelyPoint(x, y)) for x, y in met), default=0.0)
            found.append(Leap(at, what, "leap over", leap_mods(t, t.leaping[key])))
    return sorted(found, key=lambda leap: leap.at)


def first_bad_going(t: SharpeTables, field: FieldState, path: Sequence[Point]) -> tuple[str, float] | None:
    """A-SHARPE-44: the first ground counting double (a wood, water, rubble) the path runs into, and
    how far along the path it begins (0 when he starts in it); None when it crosses none."""
    if len(path) < 2:
        return None
    line = LineString([(p.x, p.y) for p in path])
    start = ShapelyPoint(path[0].x, path[0].y)
    found: tuple[str, float] | None = None
    for feature in battlefield_of(field.map).features:
        kind = t.terrain.get(feature.kind)
        if kind is None or kind.move_cost is None or kind.move_cost <= 1 or not feature.geometry.intersects(line):
            continue
        inside = line.intersection(feature.geometry).difference(feature.geometry.boundary)
        if inside.length <= EPSILON:
            continue
        at = (
            0.0
            if feature.geometry.contains(start)
            else min(line.project(ShapelyPoint(x, y)) for x, y in shapely.get_coordinates(inside))
        )
        if found is None or at < found[1]:
            found = (feature.label, at)
    return found


def used_on(t: SharpeTables, field: FieldState, path: Sequence[Point]) -> float:
    """The movement a path uses, bad going counted double (A-SHARPE-33)."""
    return path_cost(battlefield_of(field.map), list(path), costs(t.terrain))


def touching_enemies(t: SharpeTables, state: SharpeState, ch: Character, at: Point | None = None) -> list[Character]:
    """The enemies whose bases touch ``ch``'s, where he stands or (``at``) where a move would end."""
    field = field_of(state)
    here = at or point_of(field, ch.name)
    if here is None:
        return []
    mine = Base(here, radius(t, ch))
    found = []
    for other in state.characters:
        there = point_of(field, other.name)
        if other.side == ch.side or other.out or there is None:
            continue
        if in_contact(mine, Base(there, radius(t, other))):
            found.append(other)
    return found


# --- the picture -------------------------------------------------------------------------------------


def marks(ch: Character) -> tuple[str, ...]:
    if ch.out:
        return ("out",)
    found = ["wounded"] if ch.wounds else []
    if ch.down or ch.unconscious or ch.knocked_out:
        found.append("down")
    return tuple(found)


def field_view(t: SharpeTables, state: SharpeState, focus: str | None, move_left: float | None) -> FieldView:
    field = field_of(state)
    tokens = (
        tuple(
            Token(c.name, c.side, xy[0], xy[1], radius(t, c), field.facing.get(c.name), marks(c), c.mounted)
            for c in state.characters
            if (xy := field.positions.get(c.name)) is not None
        )
        + gun_tokens(t, state)
        + horse_tokens(t, state)
    )
    shown = None
    if focus is not None and move_left is not None:
        ch = next(c for c in state.characters if c.name == focus)
        shown = Focus(focus, move_left, range_bands(t, ch))
    return FieldView(
        field,
        tuple(t.sides),
        tokens,
        focus=shown,
        title=f"{field.map.name} · {title(state)}",
        zones=deploying(state),
        acting=acting(state),
        contacts=tuple((c.a, c.b) for c in state.contacts),
    )


def title(state: SharpeState) -> str:
    """The picture's title after the map's name, as every ruleset's reads: the bound, or how it ended
    ("bound 1 · the british won")."""
    if deploying(state):
        return "deployment"
    if state.over:
        return f"bound {state.bound} · {f'the {state.winner} won' if state.winner else 'a draw'}"
    return f"bound {state.bound}"


def acting(state: SharpeState) -> str:
    """The man whose turn it is, with his side, as the picture's title names him ("Harris (british)")."""
    if state.over or deploying(state):
        return ""
    ch = next((c for c in state.characters if c.name == state.active), None)
    return f"{ch.name} ({ch.side})" if ch is not None else ""


def shown_weapon(t: SharpeTables, ch: Character) -> str | None:
    """The firearm whose bands the picture shows: the one in his hand, else his first."""
    keys = [f.weapon for f in ch.firearms if f.weapon in t.weapons]
    if ch.in_hand in keys:
        return ch.in_hand
    return keys[0] if keys else None


def range_bands(t: SharpeTables, ch: Character) -> tuple[Band, ...]:
    """A-SHARPE-41: his firearm's range bands, measured centre to centre as a shot is (A-SHARPE-35),
    each labelled with what a shot inside it gets; the last band, which has no end, is not drawn."""
    key = shown_weapon(t, ch)
    return () if key is None else bands_of(t, key, t.weapons[key].label)


def bands_of(t: SharpeTables, weapon_key: str, label: str) -> tuple[Band, ...]:
    """A weapon's range bands for the picture, each named ``label`` and what a shot inside it gets."""
    bands = []
    for band in t.weapons[weapon_key].ranges:
        if band.upto is None:
            continue
        what = "automatic hit" if band.auto_hit else signed(band.mod) if band.mod else "no modifier"
        bands.append(Band(f"{label} {what}", float(band.upto)))
    return tuple(bands)


def angle_text(degrees: float) -> str:
    return f"{math.floor(degrees + 0.5):g}°"


# --- shooting ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Measured:
    """A shot as the map measures it (A-SHARPE-35): the range centre to centre (to a tenth of an
    inch), the target's cover and the side of him the shooter sees, and the card's words for it."""

    range: float
    cover: str
    from_side: str
    text: str
    #: The feature that gives the cover (None in the open).
    feature: str | None = None


def measure_shot(
    t: SharpeTables, state: SharpeState, shooter: Character, targets: Sequence[Character], *, gun: str | None = None
) -> Measured:
    """Refused when the shooter cannot see a target (the reason said); else the first target's range,
    cover and side, as A-SHARPE-35 reads them. A gun's shot is measured from the gun's base
    (A-SHARPE-48), not from the man who fires it."""
    if gun is not None:
        return measure_from(t, state, gun, t.map.gun_base_radius, targets, pronoun="it")
    return measure_from(t, state, shooter.name, radius(t, shooter), targets)


def measure_from(
    t: SharpeTables, state: SharpeState, who: str, size: float, targets: Sequence[Character], *, pronoun: str = "he"
) -> Measured:
    """:func:`measure_shot` from the base of ``who`` (a man or a gun) of radius ``size``."""
    field = field_of(state)
    here = where(field, who)
    mine = Base(here, size)
    for target in targets:
        seen = line_of_sight(field, t.terrain, mine, Base(where(field, target.name), radius(t, target)))
        if seen.kind != "blocked":
            continue
        raise RuleError(f"{who} cannot see {target.name}: {seen.why_not(pronoun, target.name)}.")
    first = targets[0]
    there = where(field, first.name)
    distance = round(centre_distance(here, there), 1)
    cover, feature = cover_of(field, t.terrain, here, there, t.map.cover_within_inches)
    facing = field.facing.get(first.name)
    arc = Arc.FRONT if facing is None or here == there else arc_of(there, facing, here)
    side = arc.value if arc.is_side else "front"
    words = f"{measured(distance)} measured"
    words += f", {cover} cover: {feature}" if cover != "none" and feature else ", in the open"
    if arc is not Arc.FRONT:
        words += f", from his {arc.value}"
    return Measured(distance, cover, side, words, feature if cover != "none" else None)


# --- melee -------------------------------------------------------------------------------------------

#: Bases further apart than this never fight across an obstacle (no wall is this thick).
ACROSS_REACH = 3.0


def gap_between(t: SharpeTables, state: SharpeState, a: Character, b: Character) -> float:
    """How far apart two men's bases are, edge to edge, less what an obstacle between them takes up
    (men either side of a wall, each touching it, fight across it: A-SHARPE-36)."""
    field = field_of(state)
    pa, pb = where(field, a.name), where(field, b.name)
    gap = centre_distance(pa, pb) - radius(t, a) - radius(t, b)
    if gap <= 0 or gap > ACROSS_REACH or centre_distance(pa, pb) <= EPSILON:
        return max(gap, 0.0)
    line = LineString([(pa.x, pa.y), (pb.x, pb.y)])
    across = sum(
        f.geometry.intersection(line).length
        for f in battlefield_of(field.map).features
        if (kind := t.terrain.get(f.kind)) is not None and kind.obstacle and f.geometry.intersects(line)
    )
    return max(0.0, gap - across)


def attack_arc(t: SharpeTables, state: SharpeState, attacker: Character, defender: Character) -> str:
    """A-SHARPE-36: the side of the defender the attacker comes from (front, right, left, rear), read
    from the defender's facing along the line between the two men (four quarters)."""
    field = field_of(state)
    facing = field.facing.get(defender.name)
    here, there = where(field, defender.name), where(field, attacker.name)
    if facing is None or here == there:
        return Arc.FRONT.value
    return arc_of(here, facing, there).value


def face(state: SharpeState, name: str, other: str) -> None:
    """``name`` turns to face ``other`` (nothing on a table)."""
    field = state.field
    if field is None:
        return
    here, there = point_of(field, name), point_of(field, other)
    if here is not None and there is not None and centre_distance(here, there) > EPSILON:
        field.facing[name] = round(face_toward(here, there), 4)


# --- the map moves men for the rules ----------------------------------------------------------------

#: How many halvings find the furthest a recoil can go (a millionth of an inch).
BISECTIONS = 40
#: A recoil stopped short after less than this does not move the man at all.
RECOIL_LEAST = 0.05
#: How far a base pushed or recoiling may end over another (the rounding of a point): touching is
#: no more than this, unlike a path's contact tolerance.
OVERLAP = 1e-4
#: One pace (tables: ½ inch), the parrier's recoil.
PACE = 0.5
#: A wounded man's recoil (13, Recoil).
WOUND_RECOIL = 1.0


@dataclass(frozen=True)
class Pushed:
    """How far a man went straight away from another, and what stopped him short (None: nothing)."""

    went: float
    stopped_by: str | None
    at: Point
    #: The wall whose top he went over the edge of, and its height in feet (A-SHARPE-46).
    fell_from: tuple[str, float] | None = None


def away(
    t: SharpeTables, state: SharpeState, ch: Character, source: str, inches_: float, *, move: bool = True
) -> Pushed | None:
    """A-SHARPE-37: ``ch`` goes up to ``inches_`` straight away from ``source``, stopped short by the
    table's edge, ground that cannot be entered (a building) or another man's base. With ``move``
    False it is only measured ("no room to recoil"). None when there is no direction (no map,
    ``source`` not on it, or on his own spot)."""
    field = state.field
    if field is None:
        return None
    start, there = point_of(field, ch.name), point_of(field, source)
    if start is None or there is None or centre_distance(start, there) <= EPSILON:
        return None
    gap = centre_distance(start, there)
    return slide(t, state, ch, ((start.x - there.x) / gap, (start.y - there.y) / gap), inches_, (source,), move=move)


def slide(
    t: SharpeTables,
    state: SharpeState,
    ch: Character,
    unit: tuple[float, float],
    inches_: float,
    ignore: Sequence[str] = (),
    *,
    move: bool = True,
) -> Pushed:
    """``ch`` goes up to ``inches_`` along ``unit``, stopped short as :func:`away` says."""
    field = field_of(state)
    start = where(field, ch.name)
    ux, uy = unit
    r = radius(t, ch)
    others = {
        n: Base(Point(*field.positions[n]), rr)
        for n, rr in radii(t, state).items()
        if n != ch.name and n not in ignore and n in field.positions
    }
    ground = battlefield_of(field.map)

    def end(d: float) -> Point:
        return Point(start.x + ux * d, start.y + uy * d)

    def blocker(d: float) -> str | None:
        point = end(d)
        if not ground.table.holds(point):
            return "the table's edge"
        swept = LineString([(start.x, start.y), (point.x, point.y)]) if d > EPSILON else ShapelyPoint(start.x, start.y)
        for feature in ground.features:
            kind = t.terrain.get(feature.kind)
            if kind is not None and kind.move_cost is None and feature.geometry.distance(swept) < r - EPSILON:
                return feature.label
        crossed = bases_crossed([start, point], r, others) or [
            n for n, base in others.items() if centre_distance(point, base.centre) < base.radius + r - OVERLAP
        ]
        return f"{crossed[0]}'s base" if crossed else None

    stopped = blocker(inches_) if inches_ > 0 else None
    went = max(0.0, inches_)
    if stopped is not None:
        low, high = 0.0, inches_
        for _ in range(BISECTIONS):
            middle = (low + high) / 2
            low, high = (middle, high) if blocker(middle) is None else (low, middle)
        stopped = blocker(high) or stopped
        went = low if low >= RECOIL_LEAST else 0.0
    point = end(went)
    if move and went > 0:
        set_point(field, ch.name, point)
        part_the_parted(t, state, ch)
    perch = on_top_of(t, field, start) if went > 0 else None
    fell = perch if perch is not None and on_top_of(t, field, point) != perch else None
    return Pushed(went, stopped, point, fell)


def recoil_text(pushed: Pushed, inches_: float) -> str:
    if pushed.stopped_by is None:
        return f"recoils {measured(pushed.went)} to {pushed.at}"
    if pushed.went <= 0:
        return f"has no room to recoil ({pushed.stopped_by})"
    return f"recoils {measured(pushed.went)} of {measured(inches_)} to {pushed.at}, stopped by {pushed.stopped_by}"


def part_the_parted(t: SharpeTables, state: SharpeState, ch: Character) -> None:
    """A man moved by the rules (a recoil, a push, a knock-back) is out of every contact whose bases
    no longer touch, a draw's lock included: locked to a man he no longer touches, he could neither
    move nor attack (A-SHARPE-37)."""
    by_name = {c.name: c for c in state.characters}

    def still(contact_a: str, contact_b: str) -> bool:
        a, b = by_name.get(contact_a), by_name.get(contact_b)
        return a is None or b is None or bases_touch(t, state, a, b)

    state.contacts = [c for c in state.contacts if ch.name not in (c.a, c.b) or still(c.a, c.b)]


def bases_touch(t: SharpeTables, state: SharpeState, a: Character, b: Character) -> bool:
    field = field_of(state)
    pa, pb = point_of(field, a.name), point_of(field, b.name)
    if pa is None or pb is None:
        return False
    return in_contact(Base(pa, radius(t, a)), Base(pb, radius(t, b)))


def push_inches(t: SharpeTables, ch: Character) -> float:
    """A-SHARPE-38: a man shoved aside goes his own base's width, out of the pusher's way."""
    return 2 * radius(t, ch)


def in_one_collision(t: SharpeTables, state: SharpeState, men: Sequence[Character]) -> str | None:
    """A-SHARPE-38: the men of a collision must each touch another of them (one heap); the name of
    the first who touches none, else None."""
    if len(men) < 2:
        return None
    for ch in men:
        if not any(bases_touch(t, state, ch, other) for other in men if other.name != ch.name):
            return ch.name
    return None


def veer_turn(words: str) -> float:
    """Table H's words as a turn in degrees, positive to the horse's left: "45° to the right" is -45."""
    digits = "".join(c for c in words if c.isdigit())
    if not digits:
        return 0.0
    return float(digits) if "left" in words else -float(digits)


def leave_the_table(state: SharpeState, name: str) -> None:
    field = field_of(state)
    field.positions.pop(name, None)
    field.facing.pop(name, None)


@dataclass(frozen=True)
class Ground:
    """The ground of a fight as the map reads it (A-SHARPE-40): who is uphill ("none", "attacker",
    "defender"), the obstacle between the two bases (its name, or None), and whether the defender
    stands in bad going."""

    uphill: str
    obstacle: str | None
    bad_going: bool


def perch_ft(t: SharpeTables, state: SharpeState, ch: Character) -> float:
    """A-SHARPE-46: how high above the ground a man stands: a wall's top he stands on, else 0."""
    field = field_of(state)
    here = point_of(field, ch.name)
    top = on_top_of(t, field, here) if here is not None else None
    return top[1] if top is not None else 0.0


def fight_ground(t: SharpeTables, state: SharpeState, attacker: Character, defender: Character) -> Ground:
    field = field_of(state)
    pa, pd = where(field, attacker.name), where(field, defender.name)
    ha, hd = height_at(field, t.terrain, pa), height_at(field, t.terrain, pd)
    if abs(ha - hd) <= EPSILON:  # on the same ground, a man on a wall's top is above one beside it
        ha, hd = perch_ft(t, state, attacker), perch_ft(t, state, defender)
    uphill = "attacker" if ha > hd + EPSILON else "defender" if hd > ha + EPSILON else "none"
    ground = battlefield_of(field.map)
    obstacle = None
    if centre_distance(pa, pd) > EPSILON:
        line = LineString([(pa.x, pa.y), (pd.x, pd.y)])
        obstacle = next(
            (
                f.label
                for f in ground.features
                if (kind := t.terrain.get(f.kind)) is not None and kind.obstacle and f.geometry.intersects(line)
            ),
            None,
        )
    bad = any(
        (kind := t.terrain.get(f.kind)) is not None and kind.move_cost is not None and kind.move_cost > 1
        for f in features_at(ground, pd)
    )
    return Ground(uphill, obstacle, bad)
