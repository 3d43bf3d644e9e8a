"""Movement (4): paces, wounds and bad going, horses' paces and turns, falls, pushing, collisions, rising."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from rules.battlefield import plan_move, set_point, toward, where
from rules.battlefield.requests import move_request
from rules.core import RuleError
from rules.geometry import Point, centre_distance
from rules.geometry.measure import CONTACT_TOLERANCE
from rules.sharpe import mounts, onmap
from rules.sharpe.bound import actor, loading_what, require_able, require_standing, require_unbroken
from rules.sharpe.common import Ctx
from rules.sharpe.options import CollideOptions, FigureOptions, MoveOptions, PushOptions
from rules.sharpe.profile import CheckResult, ability_check, wound_reduction
from rules.sharpe.schema import SharpeTables
from rules.sharpe.state import Character, SharpeState
from rules.sharpe.wounds import bolt, control_check, fall_off, fall_wound
from rules.words import inches, joined, measured, names_list

EPSILON = 1e-9
FOOT_ORDER = ("crawl", "walk", "run")


def allowance(ctx: Ctx, ch: Character, pace: str, bad_going: bool) -> float:
    """Inches at ``pace``: minus 1 per light and 2 per serious wound, then halved in bad going (A-SHARPE-21)."""
    return pace_inches(ctx.t, ch, pace, bad_going)


def pace_inches(t: SharpeTables, ch: Character, pace: str, bad_going: bool = False) -> float:
    m = t.movement
    if ch.mounted and ch.horse is not None:
        inches_left = mounts.horse_inches(t, ch.horse, pace)
    else:
        inches_left = max(0.0, m.foot[pace] + wound_reduction(ch, m.each_light_wound, m.each_serious_wound))
    return inches_left * m.bad_going_factor if bad_going else inches_left


def moved_this_bound(ctx: Ctx, ch: Character) -> float:
    return ch.moved if ch.moved_bound == ctx.bound else 0.0


def move_left(t: SharpeTables, state: SharpeState, ch: Character) -> float:
    """How far ``ch`` may still go this bound at the fastest pace open to him (for the picture)."""
    if ch.out or ch.down or ch.unconscious or ch.knocked_out:
        return 0.0
    return paces_left(t, state, ch)[0][1]


def paces_left(t: SharpeTables, state: SharpeState, ch: Character) -> list[tuple[str, float]]:
    """The paces he might move at, fastest first, each with the inches it leaves him this bound:
    on foot run, walk, crawl (only crawl with a serious leg wound); mounted, one step either side
    of his horse's pace."""
    if ch.mounted and ch.horse is not None:
        steps = t.movement.mounted_paces
        at = steps.index(ch.horse.start_pace)
        paces = list(reversed(steps[max(0, at - 1) : at + 2]))
    else:
        paces = ["crawl"] if ch.crawl_only else sorted(t.movement.foot, key=lambda p: -t.movement.foot[p])
    moved = ch.moved if ch.moved_bound == state.bound else 0.0
    return [(pace, max(0.0, pace_inches(t, ch, pace) - moved)) for pace in paces]


def move(ctx: Ctx, p: MoveOptions) -> None:
    ch = actor(ctx, p.figure)
    require_standing(ctx, ch, "move")
    if ch.no_move_bound == ctx.bound:
        raise RuleError(f"{ch.name}'s leg wound stops him moving this bound.")
    if ch.contact_bound == ctx.bound:
        raise RuleError(f"{ch.name} has reached an enemy: his move is over for this bound.")
    for c in ctx.contacts_of(ch.name):
        if c.locked:
            raise RuleError(
                f"{ch.name} is locked in melee with {ctx.other(c, ch.name)} (a draw): fight on with /sharpe attack."
            )
    pace, turn = _pace(ctx, ch, p)
    if ctx.state.field is not None:
        _move_on_map(ctx, ch, p, pace)
        return
    bad_going, backwards = bool(p.bad_going), bool(p.backwards)
    if p.distance is None:
        raise RuleError(f"Give {ch.name}'s move as a number of inches.")
    distance = p.distance
    if distance <= 0:
        raise RuleError(f"Give {ch.name}'s move as more than 0″.")
    most = allowance(ctx, ch, pace, bad_going)
    already = moved_this_bound(ctx, ch)
    if already + distance > most + EPSILON:
        where = " in bad going" if bad_going else ""
        raise RuleError(
            f"{ch.name} may move {inches(most)} at a {pace}{where} this bound and has {inches(max(0.0, most - already))} left."
        )
    if ch.loading_bound == ctx.bound and pace in ctx.t.movement.breaks_reload:
        raise RuleError(f"{ch.name} is loading {loading_what(ctx, ch)} this bound: he may only crawl or walk.")
    enemy = ctx.enemy(ch, p.contact, "move into contact with") if p.contact is not None else None
    if enemy is not None:
        require_unbroken(ctx, ch, "attack", f", not move into contact with {enemy.name}")
    if ch.moved_bound != ctx.bound:
        ch.moved = 0.0
        ch.pace = ""
    ch.moved_bound = ctx.bound
    ch.pace = _faster(ch.pace, pace)
    if pace in ctx.t.movement.breaks_reload:
        ch.busy_bound = ctx.bound
    if not ch.mounted and not _footing(ctx, ch, pace, backwards, bad_going):
        return
    ch.moved = round(ch.moved + distance, 6)
    if ch.mounted and ch.horse is not None:
        ch.horse.pace = pace
    ctx.part_all(ch.name, keep_locked=True)
    left = max(0.0, most - ch.moved)
    turned = f", turning {turn}°" if turn else ""
    how = "backwards " if backwards else ""
    text = f"{ch.name} {_verb(pace, ch.mounted)} {how}{inches(distance)}{turned}{' in bad going' if bad_going else ''} ({inches(left)} left)."
    ctx.say("move", text, figure=ch.name, pace=pace, distance=distance, moved=ch.moved, left=left)
    if enemy is not None:
        _reach(ctx, ch, enemy)


#: What a table's players report that the map measures instead.
MEASURED_ON_MAP = {"bad_going": "bad going", "contact": "contact", "turn": "a horse's turn"}


def _move_on_map(ctx: Ctx, ch: Character, p: MoveOptions, pace: str) -> None:
    """A-SHARPE-33, A-SHARPE-34: a move along a path on the map, its allowance the pace's inches
    less wounds, bad going counted double, an obstacle jumped with a dexterity check; he ends
    facing the way he went, in contact with any enemy his base touches."""
    for key, what in MEASURED_ON_MAP.items():
        if getattr(p, key) is not None:
            raise RuleError(f"On the map the bot measures {what}: leave {key}: out.")
    state, t = ctx.state, ctx.t
    field = onmap.field_of(state)
    backwards = bool(p.backwards)
    if ch.loading_bound == ctx.bound and pace in t.movement.breaks_reload:
        raise RuleError(f"{ch.name} is loading {loading_what(ctx, ch)} this bound: he may only crawl or walk.")
    most = allowance(ctx, ch, pace, False)
    left = max(0.0, most - moved_this_bound(ctx, ch))
    asked = move_request(p, ch.name)
    radii = onmap.radii(t, state)
    touching: tuple[str, ...] = ()
    if asked.toward is not None:
        start = where(field, ch.name)
        goal = asked.toward_point()
        gap_less = 0.0
        if goal is None:
            other = ctx.character(asked.toward)
            if other.name == ch.name:
                raise RuleError(f"{ch.name} cannot move toward himself.")
            goal = where(field, other.name)
            gap_less = radii[ch.name] + radii.get(other.name, 0.0)
            touching = (other.name,)
        gap = centre_distance(start, goal) - gap_less
        if gap <= CONTACT_TOLERANCE:
            raise RuleError(f"{ch.name} is there already.")
        wanted = gap
        if asked.distance is not None:
            wanted = min(gap, float(asked.distance))
            if wanted <= 0:
                raise RuleError(f"Give {ch.name}'s move as more than 0″.")
        else:
            wanted = _furthest(t, field, start, goal, min(gap, left * 2), left)
        waypoints = [toward(field, start, goal, wanted)]
    else:
        waypoints = asked.path
    bodies = () if ch.mounted else tuple(onmap.lying(t, state, ch.name))
    if asked.toward is not None and asked.distance is None:
        waypoints = _within_reach(t, field, ch.name, waypoints, left, radii, touching + bodies)
    plan = plan_move(field, t.terrain, ch.name, waypoints, left, radii, allow_touching=touching + bodies)
    _not_on_a_body(t, state, ch, plan.path[-1])
    _no_charge_when_broken(ctx, ch, plan.path[-1])
    _no_horse_over_a_high_wall(t, state, ch, plan.path)
    if ch.mounted and ch.horse is not None:
        turned = onmap.turning(field.facing.get(ch.name), plan.path)
        if turned > t.movement.mounted_max_turn[pace] + 0.5:
            raise RuleError(
                f"At the {pace} {ch.name}'s horse turns at most {t.movement.mounted_max_turn[pace]}°; "
                f"that path turns {onmap.angle_text(turned)}."
            )
    if ch.moved_bound != ctx.bound:
        ch.moved = 0.0
        ch.pace = ""
    ch.moved_bound = ctx.bound
    ch.pace = _faster(ch.pace, pace)
    if pace in t.movement.breaks_reload:
        ch.busy_bound = ctx.bound
    riding = ch.mounted and ch.horse is not None
    if ch.mounted and ch.horse is not None:
        ch.horse.pace, ch.horse.ran_bound = pace, ctx.bound
    bad_going = plan.used > plan.travelled + 0.01
    path, stumbled = list(plan.path), ""
    if not ch.mounted and not _footing(ctx, ch, pace, backwards, bad_going):
        entered = onmap.first_bad_going(t, field, path) if bad_going else None
        if entered is None or entered[1] <= EPSILON:
            return
        path, stumbled = _fallen_short(t, state, ch, path, entered[1]), entered[0]
    for leap in [] if stumbled else _leaps(t, state, ch, path):
        if not _jump(ctx, ch, leap):
            path, stumbled = _fallen_short(t, state, ch, path, leap.at), leap.what
            break
    travelled = sum(centre_distance(a, b) for a, b in itertools.pairwise(path))
    used = onmap.used_on(t, field, path) if stumbled else plan.used
    heading = onmap.heading_at(plan.path, travelled if stumbled else plan.travelled)
    set_point(field, ch.name, path[-1])
    if heading is not None:
        field.facing[ch.name] = round((heading + 180.0) % 360.0 if backwards else heading, 4)
    ch.moved = round(ch.moved + used, 6)
    ctx.part_all(ch.name, keep_locked=True)
    rest = max(0.0, most - ch.moved)
    how = "backwards " if backwards else ""
    slow = f"; {measured(used)} of movement, bad going counted double" if used > travelled + 0.05 else ""
    where_ = f"to the foot of {stumbled}" if stumbled else f"to {path[-1]}{plan.round_words}"
    if ch.mounted or not stumbled:
        text = f"{ch.name} {_verb(pace, ch.mounted)} {how}{measured(travelled)} {where_}{slow} ({measured(rest)} left)."
        ctx.say(
            "move",
            text,
            figure=ch.name,
            pace=pace,
            distance=round(travelled, 4),
            moved=ch.moved,
            left=rest,
            to=list(field.positions[ch.name]),
            used=round(used, 4),
            went_round=list(plan.went_round),
        )
    if stumbled and not ch.mounted:
        ctx.say(
            "move",
            f"{ch.name} stumbles at {stumbled} after {measured(travelled)} and lies at {path[-1]}.",
            figure=ch.name,
            pace=pace,
            distance=round(travelled, 4),
            moved=ch.moved,
            left=rest,
            to=list(field.positions[ch.name]),
        )
    if riding and not ch.mounted:
        mounts.leave_saddle(ctx, ch)
    if stumbled or ch.down:
        return
    for enemy in onmap.touching_enemies(t, state, ch):
        _reach(ctx, ch, enemy)


def _reach(ctx: Ctx, ch: Character, enemy: Character) -> None:
    """``ch`` comes into contact with ``enemy``: a rider may attack him and ride on; a man on foot's
    move ends there."""
    ctx.touch(ch.name, enemy.name)
    if ch.mounted:
        ctx.say(
            "contact",
            f"{ch.name} rides up to {enemy.name}: he may attack him and ride on.",
            figure=ch.name,
            enemy=enemy.name,
        )
        return
    ch.contact_bound = ctx.bound
    ctx.say(
        "contact",
        f"{ch.name} reaches {enemy.name}: his move ends, and he may attack him now.",
        figure=ch.name,
        enemy=enemy.name,
    )


def _furthest(t: SharpeTables, field: Any, start: Any, goal: Any, gap: float, left: float) -> float:
    """How far straight toward ``goal`` the movement ``left`` goes, bad going counted (40 halvings)."""

    def fits(d: float) -> bool:
        try:
            return onmap.used_on(t, field, [start, toward(field, start, goal, d)]) <= left + 1e-6
        except RuleError:
            return False

    if fits(gap):
        return gap
    low, high = 0.0, gap
    for _ in range(40):
        middle = (low + high) / 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low if low > 1e-3 else gap


def _within_reach(
    t: SharpeTables,
    field: Any,
    name: str,
    waypoints: list[Any],
    left: float,
    radii: Mapping[str, float],
    touching: tuple[str, ...],
) -> list[Any]:
    """``toward:`` with no distance goes as far as his movement allows: when the way round a man in
    the line is longer than what is left, he goes along it as far as he can (40 halvings)."""
    try:
        whole = plan_move(field, t.terrain, name, waypoints, float("inf"), radii, allow_touching=touching)
    except RuleError:
        return waypoints  # the move itself says why
    if whole.used <= left + EPSILON or not whole.went_round:
        return waypoints
    low, high = 0.0, whole.travelled
    for _ in range(40):
        middle = (low + high) / 2
        low, high = (middle, high) if onmap.used_on(t, field, onmap.cut(whole.path, middle)) <= left else (low, middle)
    return onmap.cut(whole.path, low)[1:] if low > EPSILON else waypoints


def _leaps(t: SharpeTables, state: Any, ch: Character, path: list[Any]) -> list[onmap.Leap]:
    """The obstacle a rider jumps (A-SHARPE-34), or all a man on foot leaps, vaults or climbs
    (A-SHARPE-45, A-SHARPE-46)."""
    if not ch.mounted:
        return onmap.leaps(t, state, ch, path)
    jump = onmap.first_obstacle_met(t, onmap.field_of(state), path)
    return [] if jump is None else [onmap.obstacle_leap(t, jump, onmap.radius(t, ch))]


def _no_horse_over_a_high_wall(t: SharpeTables, state: Any, ch: Character, path: Sequence[Any]) -> None:
    """A-SHARPE-46: a horse cannot clear a high wall; refused before any die."""
    if not ch.mounted:
        return
    jump = onmap.first_obstacle_met(t, onmap.field_of(state), path)
    if jump is not None and onmap.high(t, jump.height_ft):
        raise RuleError(
            f"{ch.name}'s horse cannot clear {jump.what}, {jump.height_ft:g} ft high: only a man on foot vaults a high wall."
        )


def _no_charge_when_broken(ctx: Ctx, ch: Character, end: Any) -> None:
    """A-SHARPE-16: a broken man's move may not bring him into contact with an enemy he was not touching."""
    already = {e.name for e in onmap.touching_enemies(ctx.t, ctx.state, ch)}
    reached = [e.name for e in onmap.touching_enemies(ctx.t, ctx.state, ch, end) if e.name not in already]
    if reached:
        require_unbroken(ctx, ch, "attack", f", not move into contact with {joined(reached)}")


def _not_on_a_body(t: SharpeTables, state: Any, ch: Character, end: Any) -> None:
    """A-SHARPE-45: a man leaps over a man lying on the ground; he may not stop on him."""
    if ch.mounted:
        return
    mine = onmap.radius(t, ch)
    for base, what, _ in onmap.lying(t, state, ch.name).values():
        if centre_distance(end, base.centre) < base.radius + mine - BODY_TOLERANCE:
            raise RuleError(f"{ch.name} would end his move on {what}: stop short or go clear over.")


#: How far a man's base may reach over a body he stops beside (the rounding of a point, no more).
BODY_TOLERANCE = 1e-3
#: How far back along his path a man who falls is set, at a time, to clear a man lying there.
FALL_BACK_STEP = 0.05


def _fallen_short(t: SharpeTables, state: Any, ch: Character, path: list[Point], at: float) -> list[Point]:
    """A-SHARPE-44, A-SHARPE-45: the path of a man who falls ``at`` inches along it, ending where he
    lies: there, or short of any man lying on the ground there (he may not lie on him)."""
    mine = onmap.radius(t, ch)
    bodies = [base for base, _, _ in onmap.lying(t, state, ch.name).values()]
    while at > 0:
        cut = onmap.cut(path, at)
        if all(centre_distance(cut[-1], b.centre) >= b.radius + mine - BODY_TOLERANCE for b in bodies):
            return cut
        at -= FALL_BACK_STEP
    return [path[0]]


def _jump(ctx: Ctx, ch: Character, leap: onmap.Leap) -> bool:
    """A-SHARPE-34, A-SHARPE-45, A-SHARPE-46: jumping an obstacle (low_wall, +1), leaping a man on
    the ground, vaulting a high wall or jumping down from one is the table's check (a rider's pace as
    in a collision); a man who fails falls where his base meets it (hurt, perhaps, when he falls from
    over 6 feet: A-SHARPE-3), a rider comes off his horse."""
    obstacle = leap.what
    mods = list(leap.mods)
    if ch.mounted and ch.horse is not None:
        mods.append((f"at the {ch.horse.pace}", ctx.t.horses.collision_modifier.get(ch.horse.pace, 0)))
    result = ability_check(ctx, ch, "D", f"{leap.verb} {obstacle}", mods)
    ch.busy_bound = ctx.bound
    if result.ok:
        ctx.say("check", f"{result.text}.", figure=ch.name, **result.data())
        return True
    if ch.mounted:
        ctx.say("check", f"{result.text}.", figure=ch.name, **result.data())
        ch.mounted = False
        ch.down = "fallen"
        ctx.say("horse", f"{ch.name} comes off his horse at {obstacle}; it runs on.", figure=ch.name)
        fall_wound(ctx, ch, "falls from his horse", ch.name)
        return False
    fall_over(ctx, ch, result)
    if leap.falls_ft > ctx.t.effects.fall_over_ft:
        fall_wound(ctx, ch, f"falls {leap.falls_ft:g} ft from {obstacle}", ch.name)
    return False


def _pace(ctx: Ctx, ch: Character, p: MoveOptions) -> tuple[str, int]:
    m = ctx.t.movement
    turn = p.turn or 0
    if not ch.mounted or ch.horse is None:
        pace = _one_of(p.pace, list(m.foot), "pace on foot", "crawl" if ch.crawl_only else "walk")
        if ch.crawl_only and pace != "crawl":
            raise RuleError(f"{ch.name}'s serious leg wound lets him only crawl.")
        return pace, 0
    horse = ch.horse
    if horse.lost_control:
        raise RuleError(f"{ch.name}'s horse is out of control: try /sharpe control first.")
    pace = _one_of(p.pace, list(m.mounted), "mounted pace", horse.start_pace if horse.start_pace != "halt" else "walk")
    steps = m.mounted_paces
    if abs(steps.index(pace) - steps.index(horse.start_pace)) > 1:
        raise RuleError(
            f"{ch.name}'s horse was at the {horse.start_pace}: it changes pace one step at a time ({', '.join(steps)})."
        )
    if horse.lamed and steps.index(pace) > steps.index(ctx.t.horses.wounded_pace):
        raise RuleError(f"{ch.name}'s wounded horse goes no faster than the {ctx.t.horses.wounded_pace}.")
    if turn > m.mounted_max_turn[pace]:
        raise RuleError(f"At the {pace} {ch.name}'s horse turns at most {m.mounted_max_turn[pace]}°.")
    return pace, turn


def _one_of(pace: str | None, paces: list[str], name: str, default: str) -> str:
    """A pace the reader took from the option's choices, refused where it is not one of the man's
    (a horse's pace on foot)."""
    if pace is None:
        return default
    if pace not in paces:
        raise RuleError(f"{pace} is not a {name}: use one of {', '.join(paces)}.")
    return pace


def _faster(a: str, b: str) -> str:
    ranks = {p: i for i, p in enumerate(("", "crawl", "walk", "trot", "run", "canter", "gallop"))}
    return a if ranks.get(a, 0) >= ranks.get(b, 0) else b


def _verb(pace: str, mounted: bool) -> str:
    if mounted:
        return f"rides at the {pace}"
    return {"crawl": "crawls", "walk": "walks", "run": "runs"}[pace]


def _footing(ctx: Ctx, ch: Character, pace: str, backwards: bool, bad_going: bool) -> bool:
    """Going backwards, or running in bad going, is a dexterity check; a failure is a fall."""
    key = ""
    if backwards:
        key = "backwards_bad_going" if bad_going else "backwards"
    elif pace == "run" and bad_going:
        key = "run_bad_going"
    if not key:
        return True
    doing = {
        "backwards": "going backwards",
        "backwards_bad_going": "going backwards in bad going",
        "run_bad_going": "running in bad going",
    }[key]
    check = ability_check(ctx, ch, "D", doing, [(doing, ctx.t.action_modifiers[key])])
    if check.ok:
        ctx.say("check", f"{check.text}.", figure=ch.name, **check.data())
        return True
    fall_over(ctx, ch, check)
    return False


def fall_over(ctx: Ctx, ch: Character, check: CheckResult) -> None:
    """5, falling down after the failed ``check``: no attack for the rest of the move; next move he
    must get up."""
    ch.down = "fallen"
    ch.contact_bound = ctx.bound
    ctx.say(
        "fall",
        f"{check.text}: {ch.name} falls over; he cannot attack this bound and defends at −1.",
        figure=ch.name,
        **check.data(),
    )


# --- getting up, horses, collisions, pushing --------------------------------------------------------


def rise(ctx: Ctx, p: FigureOptions) -> None:
    ch = actor(ctx, p.figure)
    require_able(ctx, ch, "get up")
    if not ch.down:
        raise RuleError(f"{ch.name} is on his feet already.")
    if ch.down == "fallen":
        ch.down, ch.rose_bound = "", ctx.bound
        ctx.say("rise", f"{ch.name} gets up: he cannot move or attack until the next bound.", figure=ch.name, ok=True)
        return
    if ch.rise_try_bound == ctx.bound:
        raise RuleError(f"{ch.name} has already tried to rise this bound.")
    ch.rise_try_bound = ctx.bound
    check = ability_check(ctx, ch, "I", "rise to his feet")
    if check.ok:
        ch.down = ""
    ctx.say(
        "rise", f"{check.text}: {'he is on his feet' if check.ok else 'he stays down'}.", figure=ch.name, **check.data()
    )


def control(ctx: Ctx, p: FigureOptions) -> None:
    ch = actor(ctx, p.figure)
    require_able(ctx, ch, "control his horse")
    if not ch.mounted or ch.horse is None:
        raise RuleError(f"{ch.name} is not on a horse.")
    if not ch.horse.lost_control:
        raise RuleError(f"{ch.name}'s horse is under control already.")
    if ch.control_bound == ctx.bound:
        raise RuleError(f"{ch.name} has already tried to control his horse this bound.")
    ch.control_bound = ctx.bound
    ok, veer = control_check(ctx, ch, "bring his horse under control", reason=ch.horse.lost_control)
    if not ok and ctx.state.field is not None:
        bolt(ctx, ch, veer)


def collide(ctx: Ctx, p: CollideOptions) -> None:
    """Everyone in a collision tests dexterity; riders at the gallop +1; a rider who falls may be hurt."""
    names = names_list(p.figures)
    if not names:
        raise RuleError("Name the characters in the collision.")
    figures = []
    for name in names:
        ch = ctx.character(name)
        if ch.out or ch in figures:
            raise RuleError(f"{ch.name} cannot collide: {'he is out of action' if ch.out else 'he is named twice'}.")
        figures.append(ch)
    if ctx.state.field is not None:
        if len(figures) < 2:
            raise RuleError("On the map a collision needs at least two men whose bases touch.")
        apart = onmap.in_one_collision(ctx.t, ctx.state, figures)
        if apart is not None:
            raise RuleError(f"{apart}'s base touches none of the others: there is no collision (A-SHARPE-38).")
    for ch in figures:
        mods = []
        if ch.mounted and ch.horse is not None:
            mods.append((f"at the {ch.horse.pace}", ctx.t.horses.collision_modifier.get(ch.horse.pace, 0)))
        ch.busy_bound = ctx.bound
        check = ability_check(
            ctx, ch, "D", "keep his feet in the collision" if not ch.mounted else "keep his seat in the collision", mods
        )
        if check.ok:
            ctx.say("check", f"{check.text}.", figure=ch.name, **check.data())
        elif ch.mounted:
            ctx.say("check", f"{check.text}.", figure=ch.name, **check.data())
            ch.mounted = False
            ch.down = ch.down or "fallen"
            ctx.say("horse", f"{ch.name} is thrown from his horse; it runs on.", figure=ch.name)
            mounts.leave_saddle(ctx, ch)
            fall_wound(ctx, ch, "is thrown from his horse", ch.name)
        elif not ch.down:
            fall_over(ctx, ch, check)
        else:
            ctx.say("check", f"{check.text}: he is down already.", figure=ch.name, **check.data())


def push(ctx: Ctx, p: PushOptions) -> None:
    """6: the pusher tests strength, then the pushed man tests dexterity or falls."""
    pusher = actor(ctx, p.pusher)
    require_standing(ctx, pusher, "push")
    pushed = ctx.character(p.pushed)
    if pushed.name == pusher.name or pushed.out:
        raise RuleError(f"{pusher.name} cannot push {pushed.name}.")
    on_map = ctx.state.field is not None
    if on_map and not onmap.bases_touch(ctx.t, ctx.state, pusher, pushed):
        raise RuleError(f"{pusher.name} must touch {pushed.name}'s base to push him (A-SHARPE-38).")
    pusher.busy_bound = ctx.bound
    check = ability_check(ctx, pusher, "S", f"push {pushed.name} out of the way")
    if not check.ok:
        ctx.say(
            "push",
            f"{check.text}: {pushed.name} does not budge.",
            figure=pusher.name,
            pushed=pushed.name,
            **check.data(),
        )
        return
    shoved = onmap.away(ctx.t, ctx.state, pushed, pusher.name, onmap.push_inches(ctx.t, pushed)) if on_map else None
    if shoved is None:
        ctx.say(
            "push",
            f"{check.text}: {pushed.name} is shoved aside.",
            figure=pusher.name,
            pushed=pushed.name,
            **check.data(),
        )
    else:
        stop = f", stopped by {shoved.stopped_by}" if shoved.stopped_by else ""
        ctx.say(
            "push",
            f"{check.text}: {pushed.name} is shoved {measured(shoved.went)} aside to {shoved.at}{stop}.",
            figure=pusher.name,
            pushed=pushed.name,
            to=[round(shoved.at.x, 4), round(shoved.at.y, 4)],
            **check.data(),
        )
    pushed.busy_bound = ctx.bound
    if shoved is not None and shoved.fell_from is not None:
        fall_off(ctx, pushed, shoved)
        return
    if pushed.down:
        return
    keep = ability_check(ctx, pushed, "D", "keep his feet when pushed")
    if keep.ok:
        ctx.say("check", f"{keep.text}.", figure=pushed.name, **keep.data())
    else:
        fall_over(ctx, pushed, keep)
