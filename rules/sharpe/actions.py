"""Actions other than fighting (5): checks, joint strength tasks, weapons picked up, loading a gun,
the end of a turn, the weather, conceding."""

from __future__ import annotations

from typing import Any

from rules.battlefield.deployment import DeployOptions, PlaceOptions, deploy_pieces, place_piece
from rules.battlefield.mapplay import DEPLOYMENT_DONE
from rules.core import RuleError, VictoryPayload, short
from rules.sharpe import mounts, onmap
from rules.sharpe.bound import actor, advance, cannot_act, require_able, require_standing, waiting_firearm
from rules.sharpe.common import Ctx
from rules.sharpe.gunbase import side_of
from rules.sharpe.movement import fall_over
from rules.sharpe.options import (
    CheckOptions,
    ConcedeOptions,
    DoneOptions,
    LoadOptions,
    PickupOptions,
    TaskOptions,
    WeatherOptions,
)
from rules.sharpe.order import roll_order
from rules.sharpe.profile import ability_check, current
from rules.sharpe.state import Character, Firearm
from rules.sharpe.wounds import fall_wound
from rules.words import blank, joined, match_name, names_list, plural, signed


def jump_modifier(ctx: Ctx, height_ft: float) -> int:
    """+1 above 6 feet and +1 for each further 6 feet (a 14 ft roof is +2)."""
    return onmap.drop_modifier(ctx.t, height_ft)


def check(ctx: Ctx, p: CheckOptions) -> None:
    ch = actor(ctx, p.figure)
    require_able(ctx, ch, "make a check")
    ability = p.ability or "D"
    action = p.situation or "none"
    if action not in ctx.t.action_modifiers:
        raise RuleError(f"This campaign's tables give no modifier for {action.replace('_', ' ')}.")
    height = p.height_ft or 0
    extra = p.modifier or 0
    mods = [(action.replace("_", " "), ctx.t.action_modifiers[action])]
    if action == "jump_down" or height:
        mods.append((f"{height} ft", jump_modifier(ctx, height)))
    if extra:
        mods.append(("agreed", extra))
    what = p.what or action.replace("_", " ")
    obstacle = action in ctx.t.falls_on_failure
    if obstacle:
        require_standing(ctx, ch, "negotiate an obstacle")
        ch.busy_bound = ctx.bound
        if ch.mounted and ch.horse is not None:
            mods.append((f"at the {ch.horse.pace}", ctx.t.horses.collision_modifier.get(ch.horse.pace, 0)))
    result = ability_check(ctx, ch, ability, what, mods)
    if result.ok or ability != "D" or not obstacle:
        ctx.say(
            "check",
            f"{result.text}.",
            figure=ch.name,
            target=result.target,
            **result.data(),
        )
        return
    if ch.mounted:
        ctx.say("check", f"{result.text}.", figure=ch.name, **result.data())
        ch.mounted = False
        ch.down = "fallen"
        ctx.say("horse", f"{ch.name} comes off his horse at the obstacle; it runs on.", figure=ch.name)
        mounts.leave_saddle(ctx, ch)
        fall_wound(ctx, ch, "falls from his horse", ch.name)
        return
    fall_over(ctx, ch, result)


def task(ctx: Ctx, p: TaskOptions) -> None:
    """A joint strength task (5): combined strength must reach the task's; every man must succeed."""
    leader = actor(ctx, p.figure)
    require_standing(ctx, leader, "take on a strength task")
    thing = " ".join((p.object or "").split()) or "the task"
    given = p.strength
    helpers: list[Character] = []
    for name in names_list(p.helpers):
        helper = ctx.character(name)
        if helper.side != leader.side or helper.name == leader.name or helper in helpers:
            raise RuleError(f"{helper.name} cannot help {leader.name}: name other men of his own side once each.")
        helpers.append(helper)
    left_out = {h.name: why for h in helpers if (why := _cannot_help(ctx, h))}
    crew = [leader] + [h for h in helpers if h.name not in left_out]
    if given is not None:
        ctx.state.objects[thing] = given
    elif thing not in ctx.state.objects:
        die = ctx.d6(f"{thing}: strength needed, D6 + 6")
        ctx.state.objects[thing] = die + 6
        ctx.say(
            "task", f"The strength needed for {thing} is rolled: {die} + 6 = {die + 6}.", object=thing, strength=die + 6
        )
    need = ctx.state.objects[thing]
    strengths = {ch.name: current(ctx.t, ch, "S") for ch in crew}
    total = sum(strengths.values())
    for ch in crew:
        ch.busy_bound = ctx.bound
    notes = "".join(f" {name} cannot help ({why})." for name, why in left_out.items())
    sums = " + ".join(str(v) for v in strengths.values())
    names = " and ".join(ch.name for ch in crew)
    if total < need:
        text = f"{names} cannot possibly manage {thing}: strength {sums} = {total}, less than {need}.{notes}"
        ctx.say("task", text, object=thing, strength=need, total=total, ok=False)
        return
    checks = [ability_check(ctx, ch, "S", f"{thing} (needs {need})") for ch in crew]
    ok = all(c.ok for c in checks)
    verdict = f"{thing} gives way" if ok else f"{thing} holds"
    text = (
        f"{names} take on {thing} (strength {need}; {sums} = {total}): "
        + "; ".join(c.text for c in checks)
        + f" — {verdict}.{notes}"
    )
    ctx.say("task", text, object=thing, strength=need, total=total, ok=ok, rolls=[c.roll for c in checks])


def _cannot_help(ctx: Ctx, ch: Character) -> str:
    """A-SHARPE-26: suppressed, wounded this bound, dodging, down or unable men do not count."""
    if ch.out or ch.unconscious or ch.knocked_out:
        return "he is out of the fight"
    if ch.suppressed_bound == ctx.bound:
        return "suppressed"
    if ch.wounded_bound == ctx.bound:
        return "wounded this bound"
    if ch.dodged_bound == ctx.bound:
        return "he dodged this bound"
    if ch.down:
        return "he is on the ground"
    return ""


def pickup(ctx: Ctx, p: PickupOptions) -> None:
    """7: close-combat weapons defend at once and attack next bound; firearms fire next bound at the earliest."""
    ch = actor(ctx, p.figure)
    require_standing(ctx, ch, "pick up a weapon")
    wanted = " ".join(p.weapon.replace("_", " ").split()).casefold()
    matches = [
        d
        for d in ctx.state.dropped
        if wanted in (d.weapon.replace("_", " ").casefold(), ctx.t.weapons[d.weapon].label.casefold())
    ]
    if not matches:
        lying = ", ".join(f"{ctx.t.weapons[d.weapon].label} ({d.by}'s)" for d in ctx.state.dropped) or "nothing"
        raise RuleError(f"There is no dropped {short(p.weapon)} to pick up: on the ground lies {lying}.")
    receiver = ch
    if p.give_to is not None:
        receiver = ctx.character(p.give_to)
        if receiver.side != ch.side or receiver.out:
            raise RuleError(f"{ch.name} can pass a weapon only to a comrade still in the fight.")
    dropped = matches[0]
    if dropped.weapon in receiver.weapons:
        raise RuleError(f"{receiver.name} already carries a {ctx.t.weapons[dropped.weapon].label}.")
    ctx.state.dropped.remove(dropped)
    receiver.weapons.append(dropped.weapon)
    weapon = ctx.t.weapons[dropped.weapon]
    if weapon.firearm:
        receiver.firearms.append(
            Firearm(
                dropped.weapon,
                loaded=dropped.loaded,
                reload_left=dropped.reload_left,
                fired_bound=dropped.bound,
                picked_up_bound=ctx.bound,
            )
        )
    if weapon.melee:
        receiver.picked_up[dropped.weapon] = ctx.bound
    receiver.in_hand = receiver.in_hand or dropped.weapon
    given = f" and passes it to {receiver.name}" if receiver is not ch else ""
    note = (
        "it can fire next bound at the earliest"
        if weapon.firearm
        else "he may defend with it now, attack with it next bound"
    )
    ctx.say(
        "pickup",
        f"{ch.name} picks up {dropped.by}'s {weapon.label}{given}: {note}.",
        figure=ch.name,
        receiver=receiver.name,
        weapon=dropped.weapon,
    )


def load(ctx: Ctx, p: LoadOptions) -> None:
    """``load``: with no gun named, a man whose own firearm waits to be loaded loads it (A-SHARPE-14);
    otherwise he works at his side's gun (19)."""
    ch = actor(ctx, p.figure)
    if p.gun is None:
        firearm = waiting_firearm(ch)
        if firearm is not None:
            _load_firearm(ctx, ch, firearm)
            return
        if not (ctx.t.options.artillery and any(g.side == ch.side for g in ctx.state.guns)):
            raise RuleError(_nothing_to_load(ctx, ch))
    load_gun(ctx, ch, p.gun)


def _nothing_to_load(ctx: Ctx, ch: Character) -> str:
    labels = [ctx.t.weapons[f.weapon].label for f in ch.firearms]
    if not labels:
        return f"{ch.name} carries no firearm and the {ch.side} have no gun: he has nothing to load."
    many = len(labels) > 1
    return f"{ch.name}'s {joined(labels)} {'are' if many else 'is'} loaded: {'they need' if many else 'it needs'} no loading."


def _load_firearm(ctx: Ctx, ch: Character, firearm: Firearm) -> None:
    """His own firearm loads over clean bounds by itself (bound.py); ``load`` says when it fires
    and marks this bound as spent loading (no running, no fighting, no shot)."""
    require_able(ctx, ch, "load")
    label = ctx.t.weapons[firearm.weapon].label
    fired_now = ctx.bound in (firearm.fired_bound, firearm.picked_up_bound)
    if ch.busy_bound == ctx.bound and not fired_now:
        raise RuleError(
            f"{ch.name} has been busy this bound (he ran, jumped, fought or shot): "
            f"his {label}'s loading counts from the next bound."
        )
    ch.loading_gun, ch.loading_bound = "", ctx.bound
    first = ctx.bound + 1 if fired_now else ctx.bound
    ready = first + firearm.reload_left
    verb = "re-primes" if firearm.repriming else "loads"
    text = (
        f"{ch.name} {verb} his {label}: {plural(firearm.reload_left, 'clean bound')} from "
        f"{'the next' if fired_now else 'this one'}, so it fires in bound {ready} "
        "(a bound he runs, fights, is hit or suppressed does not count)."
    )
    ctx.say("reload", text, figure=ch.name, weapon=firearm.weapon, ready_bound=ready)


def load_gun(ctx: Ctx, ch: Character, wanted: Any) -> None:
    """19: an artillery piece takes 20 man-bounds to load, at most four men at a time."""
    if not ctx.t.options.artillery:
        raise RuleError("Artillery is not used in this campaign.")
    require_standing(ctx, ch, "load a gun")
    gun = ctx.gun(wanted) if not blank(wanted) else _own_gun(ctx, ch)
    weapon = ctx.t.weapons[gun.weapon]
    if gun.side != ch.side:
        raise RuleError(f"{gun.name} belongs to the {gun.side}.")
    if gun.loaded or gun.reprime_left:
        raise RuleError(f"{gun.name} is {'loaded' if gun.loaded else 'being re-primed'}: it needs no loading.")
    if ch.shot_bound == ctx.bound or ch.attacked_bound == ctx.bound or ch.busy_bound == ctx.bound:
        raise RuleError(f"{ch.name} has been busy this bound: he can load a gun only in a bound he does nothing else.")
    if gun.loaders_bound != ctx.bound:
        gun.loaders, gun.loaders_bound = [], ctx.bound
    if ch.name in gun.loaders:
        raise RuleError(f"{ch.name} is loading {gun.name} already this bound.")
    if len(gun.loaders) >= weapon.max_loaders:
        raise RuleError(f"{gun.name} already has {plural(weapon.max_loaders, 'man', 'men')} loading it this bound.")
    gun.loaders.append(ch.name)
    ch.loading_gun, ch.loading_bound = gun.name, ctx.bound
    left = weapon.reload_man_bounds - gun.man_bounds
    ctx.say(
        "reload",
        f"{ch.name} works at loading {gun.name} ({len(gun.loaders)} at it this bound; {plural(left, 'man-bound')} still needed).",
        figure=ch.name,
        gun=gun.name,
        loaders=list(gun.loaders),
    )


def _own_gun(ctx: Ctx, ch: Character) -> Any:
    guns = [g for g in ctx.state.guns if g.side == ch.side]
    if len(guns) != 1:
        raise RuleError(f"Name the gun {ch.name} works at.")
    return guns[0]


# --- placing the characters on the bot's map (A-SHARPE-32)


def _deploying(ctx: Ctx) -> None:
    if ctx.state.field is None:
        raise RuleError("This battle is played on a table: there is no map to place figures on.")
    if not onmap.deploying(ctx.state):
        raise RuleError("Every character is on the map and the battle has begun: move them with /sharpe move.")


def place(ctx: Ctx, p: PlaceOptions) -> None:
    """``/map place figure: at:``: one character in his side's zone, facing the enemy's."""
    _deploying(ctx)
    field = onmap.field_of(ctx.state)
    before = set(field.positions)
    text = place_piece(field, ctx.t.terrain, onmap.pieces(ctx.t, ctx.state), p, ctx.side, ctx.by_gm)
    name = next(n for n in field.positions if n not in before)
    onmap.face_the_enemy(ctx.t, ctx.state, [name])
    ctx.say("placed", text, figure=name, at=list(field.positions[name]), facing=field.facing.get(name))
    _deployed(ctx)


def deploy(ctx: Ctx, p: DeployOptions) -> None:
    """``/map deploy [side:]``: a side's characters still to place set out in its zone, facing the enemy."""
    _deploying(ctx)
    field = onmap.field_of(ctx.state)
    before = set(field.positions)
    text = deploy_pieces(field, ctx.t.terrain, onmap.pieces(ctx.t, ctx.state), ctx.t.sides, p, ctx.side, ctx.by_gm)
    placed = [n for n in field.positions if n not in before]
    onmap.face_the_enemy(ctx.t, ctx.state, placed)
    ctx.say("deployed", text, figures=placed)
    _deployed(ctx)


def _deployed(ctx: Ctx) -> None:
    """Once every character stands on the map, the order of movement is rolled and the first acts."""
    state = ctx.state
    if onmap.unplaced(state):
        return
    ctx.say(DEPLOYMENT_DONE, "Every character is on the map: the order of movement is rolled.")
    state.order = roll_order(ctx, state.characters, heading="Order of movement")
    advance(ctx)


def _end_setting_up(ctx: Ctx) -> None:
    """``done`` before the battle: the acting side's characters still to place are set out in its zone."""
    waiting = onmap.unplaced(ctx.state)
    sides = [side for name in waiting if (side := side_of(ctx.state, name)) is not None]
    side = ctx.side or sides[0]
    if side not in sides:
        raise RuleError(
            f"Your characters are all on the map; the battle begins once the rest are placed: {joined(waiting)}."
        )
    deploy(ctx, DeployOptions(side=side))


def done(ctx: Ctx, p: DoneOptions) -> None:
    state = ctx.state
    if onmap.deploying(state):
        _end_setting_up(ctx)
        return
    if state.active is None:
        raise RuleError("Nobody is to act now.")
    ch = ctx.get(state.active)
    if p.figure is not None:
        _check_named(ctx, ctx.character(p.figure), ch)
    elif ctx.ended_itself and ctx.ended_itself != ch.name:
        _meant_for_the_last(ctx, ctx.get(ctx.ended_itself), ch)
        return
    horse = ch.horse
    if (
        ch.mounted
        and horse is not None
        and not horse.lost_control
        and not cannot_rest(ctx, ch)
        and horse.start_pace in ctx.t.movement.must_keep_moving
        and ch.moved_bound != ctx.bound
    ):
        raise RuleError(f"{ch.name}'s horse is at the {horse.start_pace}: it cannot stand still, so move it first.")
    if (
        state.field is not None
        and ch.mounted
        and horse is not None
        and horse.lost_control
        and ch.control_bound != ctx.bound
        and not mounts.has_run(ctx, ch)
    ):
        raise RuleError(
            f"{ch.name}'s horse is out of control: he must try to master it every bound, "
            "so try /sharpe control before his turn ends (A-SHARPE-42)."
        )
    state.acted.append(ch.name)
    ctx.say("done", f"{ch.name} ends his turn.", figure=ch.name)
    advance(ctx)


def _check_named(ctx: Ctx, named: Character, active: Character) -> None:
    if named.name == active.name:
        return
    if named.name in ctx.state.acted:
        raise RuleError(f"{named.name}'s turn has already ended; it is {active.name}'s turn ({active.side}) now.")
    raise RuleError(f"It is {active.name}'s turn ({active.side}), not {named.name}'s.")


def _meant_for_the_last(ctx: Ctx, ended: Character, active: Character) -> None:
    """A bare ``done`` typed just after a comrade's turn ended by itself was meant for
    him; it ends nobody's turn, and says who acts now."""
    why = cannot_act(ctx, ended)
    text = (
        f"{ended.name}'s turn had already ended{f' (he is {why})' if why else ''}, so this done ends nobody's: "
        f"it is {active.name}'s turn now. /sharpe done again ends his."
    )
    ctx.say("done-already", text, figure=ended.name, active=active.name)


def cannot_rest(ctx: Ctx, ch: Character) -> bool:
    return ch.down != "" or ch.wounded_bound == ctx.bound or ch.suppressed_bound == ctx.bound


def weather(ctx: Ctx, p: WeatherOptions) -> None:
    if not ctx.by_gm:
        raise RuleError("Only the game master sets the weather.")
    state = ctx.state
    state.weather = p.weather or state.weather
    if p.night is not None:
        state.night = p.night
    misfire = ctx.t.shooting.weather_misfire[state.weather]
    extra = (
        f"misfires on {', '.join(map(str, misfire))} on an extra D6 before each shot"
        if misfire
        else "no extra misfires"
    )
    night = f"night ({signed(ctx.t.shooting.night)} to shoot)" if state.night else "day"
    ctx.say("weather", f"Weather: {state.weather}, {night}; {extra}.", weather=state.weather, night=state.night)


def concede(ctx: Ctx, p: ConcedeOptions) -> None:
    """A-SHARPE-52: a side gives up, in any turn, even while a choice waits; only with ``confirm``,
    so a stray command ends nothing."""
    side = ctx.side
    if p.side is not None:
        side = match_name(ctx.t.sides, p.side)
        if side is None:
            raise RuleError(f"There is no side called {short(p.side)}.")
        if side != ctx.side and not ctx.by_gm:
            raise RuleError("You may concede only for your own side.")
    if side not in ctx.t.sides:
        raise RuleError("Say which side concedes.")
    winner = next(s for s in ctx.t.sides if s != side)
    if not p.confirm:
        raise RuleError(
            f"Conceding ends the battle at once: the {winner} win. "
            f"If the {side} mean it, send /sharpe concede confirm:True."
        )
    state = ctx.state
    state.over, state.active, state.pending = True, None, None
    state.winner = winner
    state.ended_how = f"the {side} conceded"
    ctx.tell(VictoryPayload(state.winner, side), f"The {side} concede: the {state.winner} win.")
