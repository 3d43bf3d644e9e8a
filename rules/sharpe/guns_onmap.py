"""Artillery on the bot's map (19, Artillery pieces): a gun stands on its own base (A-SHARPE-47),
is fired and loaded by a man of its side whose base touches it, its shot measured from the gun
(A-SHARPE-48), and is hauled by such a man at a crawl (A-SHARPE-49). Table play is unchanged: the
hooks here do nothing when the battle has no map."""

from __future__ import annotations

from typing import Any

from rules.battlefield import Focus, face_toward, plan_move, point_of, set_point, where
from rules.battlefield.requests import move_request
from rules.core import RuleError
from rules.geometry import Base, Point, centre_distance, in_contact
from rules.geometry.measure import CONTACT_TOLERANCE
from rules.sharpe import actions, onmap
from rules.sharpe.bound import actor, require_standing
from rules.sharpe.common import Ctx
from rules.sharpe.gunbase import gun_radius
from rules.sharpe.movement import allowance
from rules.sharpe.options import HaulOptions, LoadOptions
from rules.sharpe.schema import SharpeTables
from rules.sharpe.state import Character, Gun, SharpeState
from rules.words import blank, measured, measured_against

#: Bases nearer than this to an exact spot count as on it.
EPSILON = 1e-6


def touching(t: SharpeTables, state: SharpeState, ch: Character, gun: Gun) -> bool:
    field = onmap.field_of(state)
    here, there = point_of(field, ch.name), point_of(field, gun.name)
    if here is None or there is None:
        return False
    return in_contact(Base(here, onmap.radius(t, ch)), Base(there, gun_radius(t)))


def at_the_gun(t: SharpeTables, state: SharpeState, ch: Character, gun: Gun, doing: str) -> None:
    """A-SHARPE-48: the man who fires, loads or hauls a gun stands at it, his base touching its base."""
    if touching(t, state, ch, gun):
        return
    field = onmap.field_of(state)
    gap = centre_distance(where(field, ch.name), where(field, gun.name)) - onmap.radius(t, ch) - gun_radius(t)
    raise RuleError(
        f"{ch.name} must stand at {gun.name} to {doing} it (bases touching): he is {measured_against(gap, CONTACT_TOLERANCE)} from it."
    )


# --- hooks for shooting and loading -----------------------------------------------------------------


def serving(ctx: Ctx, shooter: Character, gun: Gun | None) -> str | None:
    """The gun a shot on the map is measured from (None for a man's own firearm, or on a table);
    refused when the man does not stand at it or it was hauled this bound."""
    if gun is None or ctx.state.field is None:
        return None
    at_the_gun(ctx.t, ctx.state, shooter, gun, "fire")
    if gun.hauled_bound == ctx.bound:
        raise RuleError(f"{gun.name} was hauled this bound: it fires next bound at the earliest.")
    return gun.name


def lay(state: SharpeState, gun: Gun, target: Character) -> None:
    """The gun is turned on its target as it fires (the picture shows where it points)."""
    field = state.field
    if field is None:
        return
    here, there = point_of(field, gun.name), point_of(field, target.name)
    if here is not None and there is not None and centre_distance(here, there) > EPSILON:
        field.facing[gun.name] = round(face_toward(here, there), 4)


def load(ctx: Ctx, p: LoadOptions) -> None:
    """``load`` as at a table (his own firearm, or a gun: 20 man-bounds, four men at most); on the
    map a gun's loader stands at it."""
    actions.load(ctx, p)
    ch = actor(ctx, p.figure)
    if ctx.state.field is None or not ch.loading_gun:
        return
    gun = next(g for g in ctx.state.guns if g.name == ch.loading_gun)
    at_the_gun(ctx.t, ctx.state, ch, gun, "load")


# --- hauling a gun (A-SHARPE-49) --------------------------------------------------------------------


def gun_for(ctx: Ctx, ch: Character, wanted: Any) -> Gun:
    if not blank(wanted):
        gun = ctx.gun(wanted)
    else:
        guns = [g for g in ctx.state.guns if g.side == ch.side]
        if len(guns) != 1:
            raise RuleError(f"Name the gun {ch.name} hauls.")
        gun = guns[0]
    if gun.side != ch.side:
        raise RuleError(f"{gun.name} belongs to the {gun.side}.")
    return gun


def _may_haul(ctx: Ctx, ch: Character) -> None:
    require_standing(ctx, ch, "haul a gun")
    if ch.mounted:
        raise RuleError(f"{ch.name} is on a horse: a man on foot hauls a gun.")
    if ch.moved_bound == ctx.bound and ch.moved > 0:
        raise RuleError(f"{ch.name} has moved this bound: hauling a gun takes his whole move.")
    if ctx.bound in (ch.shot_bound, ch.attacked_bound, ch.loading_bound, ch.busy_bound):
        raise RuleError(f"{ch.name} has been busy this bound: he hauls a gun only in a bound he does nothing else.")


def haul(ctx: Ctx, p: HaulOptions) -> None:
    """A man at the gun drags it along ``to:``/``via:`` at the haul pace (a crawl: 3 inches less his
    wounds), bad going counted double, never over an obstacle; he keeps his place beside it. It is
    his move this bound, and the gun fires next bound at the earliest."""
    t, state = ctx.t, ctx.state
    if not t.options.artillery:
        raise RuleError("Artillery is not used in this campaign.")
    if state.field is None:
        raise RuleError("At a table you move a gun yourself: /sharpe haul is for a battle on the bot's map.")
    field = state.field
    ch = actor(ctx, p.figure)
    gun = gun_for(ctx, ch, p.gun)
    _may_haul(ctx, ch)
    at_the_gun(t, state, ch, gun, "haul")
    asked = move_request(p, gun.name)
    pace = t.map.haul_pace
    most = allowance(ctx, ch, pace, False)
    radii = onmap.radii(t, state)
    plan = plan_move(field, t.terrain, gun.name, asked.path, most, radii, allow_touching=(ch.name,))
    jumped = onmap.first_obstacle(t, field, plan.path)
    if jumped is not None:
        raise RuleError(f"{gun.name} cannot be hauled over {jumped[0]}: go round it.")
    start, man = plan.path[0], where(field, ch.name)
    dx, dy = man.x - start.x, man.y - start.y
    beside = [Point(q.x + dx, q.y + dy) for q in plan.path[1:]]
    plan_move(field, t.terrain, ch.name, beside, float("inf"), radii, allow_touching=(gun.name,))
    end = plan.path[-1]
    set_point(field, gun.name, end)
    set_point(field, ch.name, beside[-1])
    heading = onmap.heading_at(plan.path, plan.travelled)
    if heading is not None:
        field.facing[ch.name] = field.facing[gun.name] = round(heading, 4)
    if ch.moved_bound != ctx.bound:
        ch.moved, ch.pace = 0.0, ""
    ch.moved_bound, ch.busy_bound, gun.hauled_bound = ctx.bound, ctx.bound, ctx.bound
    ch.moved = round(ch.moved + plan.used, 6)
    ch.pace = pace
    ctx.part_all(ch.name, keep_locked=True)
    slow = f"; {measured(plan.used)} of movement, bad going counted double" if plan.used > plan.travelled + 0.05 else ""
    text = (
        f"{ch.name} hauls {gun.name} {measured(plan.travelled)} to {end} at a {pace}{slow} "
        f"({measured(max(0.0, most - plan.used))} left): it fires next bound at the earliest."
    )
    ctx.say("haul", text, figure=ch.name, gun=gun.name, distance=round(plan.travelled, 4), at=[end.x, end.y])


# --- the picture --------------------------------------------------------------------------------------


def gun_focus(t: SharpeTables, state: SharpeState, gun: Gun) -> Focus:
    """A-SHARPE-41 for a gun: its range bands out from its centre, as its shot measures them; it
    moves only when hauled, so its own reach is 0."""
    return Focus(gun.name, 0.0, onmap.bands_of(t, gun.weapon, gun.name))
