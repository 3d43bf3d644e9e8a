"""Movement (4): paces, wounds and bad going, horses' paces and turns, falls, pushing, collisions, rising."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import RuleError
from rules.sharpe.bound import actor, require_able, require_standing
from rules.sharpe.common import Ctx, flag, number, whole, word
from rules.sharpe.profile import ability_check, wound_reduction
from rules.sharpe.state import Character
from rules.sharpe.wounds import control_check, fall_wound
from rules.words import inches, names_list

EPSILON = 1e-9
FOOT_ORDER = ("crawl", "walk", "run")


def allowance(ctx: Ctx, ch: Character, pace: str, bad_going: bool) -> float:
    """Inches at ``pace``: minus 1 per light and 2 per serious wound, then halved in bad going (A-SHARPE-21)."""
    m = ctx.t.movement
    if ch.mounted and ch.horse is not None:
        base = m.mounted[pace]
        hurt = sum(m.each_light_wound if w.severity == "light" else m.each_serious_wound for w in ch.horse.wounds)
    else:
        base = m.foot[pace]
        hurt = wound_reduction(ch, m.each_light_wound, m.each_serious_wound)
    inches_left = max(0.0, base + hurt)
    return inches_left * m.bad_going_factor if bad_going else inches_left


def moved_this_bound(ctx: Ctx, ch: Character) -> float:
    return ch.moved if ch.moved_bound == ctx.bound else 0.0


def move(ctx: Ctx, p: Mapping[str, Any]) -> None:
    ch = actor(ctx, p.get("figure"))
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
    bad_going = flag(p.get("bad_going"), "bad_going")
    backwards = flag(p.get("backwards"), "backwards")
    distance = number(p.get("distance"), f"Give {ch.name}'s move as a number of inches.")
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
        raise RuleError(f"{ch.name} is loading a gun this bound: he may only crawl or walk.")
    enemy = ctx.enemy(ch, p["contact"], "move into contact with") if p.get("contact") else None
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


def _pace(ctx: Ctx, ch: Character, p: Mapping[str, Any]) -> tuple[str, int]:
    m = ctx.t.movement
    turn = whole(p.get("turn") or 0, "Give the horse's turn in degrees, 0 to 180.", lowest=0, highest=180)
    if not ch.mounted or ch.horse is None:
        pace = word(p.get("pace"), list(m.foot), "pace on foot", default="crawl" if ch.crawl_only else "walk")
        if ch.crawl_only and pace != "crawl":
            raise RuleError(f"{ch.name}'s serious leg wound lets him only crawl.")
        return pace, 0
    horse = ch.horse
    if horse.lost_control:
        raise RuleError(f"{ch.name}'s horse is out of control: try /sharpe control first.")
    pace = word(
        p.get("pace"),
        list(m.mounted),
        "mounted pace",
        default=horse.start_pace if horse.start_pace != "halt" else "walk",
    )
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
        ctx.say("check", f"{check.text}.", figure=ch.name, ok=True)
        return True
    fall_over(ctx, ch, check.text)
    return False


def fall_over(ctx: Ctx, ch: Character, text: str) -> None:
    """5, falling down: no attack for the rest of the move; next move he must get up."""
    ch.down = "fallen"
    ch.contact_bound = ctx.bound
    ctx.say(
        "fall",
        f"{text}: {ch.name} falls over; he cannot attack this bound and defends at −1.",
        figure=ch.name,
        ok=False,
    )


# --- getting up, horses, collisions, pushing --------------------------------------------------------


def rise(ctx: Ctx, p: Mapping[str, Any]) -> None:
    ch = actor(ctx, p.get("figure"))
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
        "rise", f"{check.text}: {'he is on his feet' if check.ok else 'he stays down'}.", figure=ch.name, ok=check.ok
    )


def control(ctx: Ctx, p: Mapping[str, Any]) -> None:
    ch = actor(ctx, p.get("figure"))
    require_able(ctx, ch, "control his horse")
    if not ch.mounted or ch.horse is None:
        raise RuleError(f"{ch.name} is not on a horse.")
    if not ch.horse.lost_control:
        raise RuleError(f"{ch.name}'s horse is under control already.")
    if ch.control_bound == ctx.bound:
        raise RuleError(f"{ch.name} has already tried to control his horse this bound.")
    ch.control_bound = ctx.bound
    control_check(ctx, ch, "bring his horse under control", reason=ch.horse.lost_control)


def collide(ctx: Ctx, p: Mapping[str, Any]) -> None:
    """Everyone in a collision tests dexterity; riders at the gallop +1; a rider who falls may be hurt."""
    names = names_list(p.get("figures"))
    if not names:
        raise RuleError("Name the characters in the collision.")
    figures = []
    for name in names:
        ch = ctx.character(name)
        if ch.out or ch in figures:
            raise RuleError(f"{ch.name} cannot collide: {'he is out of action' if ch.out else 'he is named twice'}.")
        figures.append(ch)
    for ch in figures:
        mods = []
        if ch.mounted and ch.horse is not None:
            mods.append((f"at the {ch.horse.pace}", ctx.t.horses.collision_modifier.get(ch.horse.pace, 0)))
        ch.busy_bound = ctx.bound
        check = ability_check(
            ctx, ch, "D", "keep his feet in the collision" if not ch.mounted else "keep his seat in the collision", mods
        )
        if check.ok:
            ctx.say("check", f"{check.text}.", figure=ch.name, ok=True)
        elif ch.mounted:
            ctx.say("check", f"{check.text}.", figure=ch.name, ok=False)
            ch.mounted = False
            ch.down = ch.down or "fallen"
            ctx.say("horse", f"{ch.name} is thrown from his horse; it runs on.", figure=ch.name)
            fall_wound(ctx, ch, "is thrown from his horse", ch.name)
        elif not ch.down:
            fall_over(ctx, ch, check.text)
        else:
            ctx.say("check", f"{check.text}: he is down already.", figure=ch.name, ok=False)


def push(ctx: Ctx, p: Mapping[str, Any]) -> None:
    """6: the pusher tests strength, then the pushed man tests dexterity or falls."""
    pusher = actor(ctx, p.get("pusher"))
    require_standing(ctx, pusher, "push")
    pushed = ctx.character(p.get("pushed"))
    if pushed.name == pusher.name or pushed.out:
        raise RuleError(f"{pusher.name} cannot push {pushed.name}.")
    pusher.busy_bound = ctx.bound
    check = ability_check(ctx, pusher, "S", f"push {pushed.name} out of the way")
    if not check.ok:
        ctx.say(
            "push", f"{check.text}: {pushed.name} does not budge.", figure=pusher.name, pushed=pushed.name, ok=False
        )
        return
    ctx.say("push", f"{check.text}: {pushed.name} is shoved aside.", figure=pusher.name, pushed=pushed.name, ok=True)
    pushed.busy_bound = ctx.bound
    if pushed.down:
        return
    keep = ability_check(ctx, pushed, "D", "keep his feet when pushed")
    if keep.ok:
        ctx.say("check", f"{keep.text}.", figure=pushed.name, ok=True)
    else:
        fall_over(ctx, pushed, keep.text)
