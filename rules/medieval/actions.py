"""A figure's actions in its activation: activate, move, stand, shoot, fight, break off, heal, pick up;
and the turn around them: placing the figures on the bot's map, who goes first (the roll-off
winner's choice) and ending a turn.

Every handler checks everything first (no die is rolled for a refused action), then starts the
figure's activation (its serious-wound Bravery test, A-MED-6), then rolls in the Dice order. On the
bot's map (``state.field``) the handlers measure what a table's players report (:mod:`onmap`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.battlefield import MovePlan, set_point, where
from rules.battlefield.deployment import DeployOptions, PlaceOptions, deploy_pieces, place_piece
from rules.battlefield.mapplay import DEPLOYMENT_DONE
from rules.battlefield.requests import MapMove
from rules.core import Context, DiceSource, Event, PhasePayload, RuleError, modifier_data, short
from rules.medieval import onmap
from rules.medieval.combat import bravery_test, casualty, roll_off, wound
from rules.medieval.data import MedievalTables, Weapon, fold
from rules.medieval.kit import match_name
from rules.medieval.options import (
    ActivateOptions,
    BreakoffOptions,
    FightOptions,
    HealOptions,
    MoveOptions,
    OrderOptions,
    PickupOptions,
    ShootOptions,
    StandOptions,
)
from rules.medieval.state import (
    COVERS,
    HEALTH_LABELS,
    WHOSE,
    GroundItem,
    MedFigure,
    MedState,
    drop_contacts,
    effective,
    enemies_in_contact,
    figure,
    in_action,
    in_contact,
    melee_weapon,
    other_side,
    sign,
)
from rules.specs import NoParams
from rules.words import inches, joined, measured_against, number, same_name

EPSILON = 1e-9


class Ctx(Context[MedState, MedievalTables]):
    """One medieval action being applied (:class:`rules.core.Context`)."""


@dataclass(frozen=True)
class Shot:
    """One shooting action, checked: who, at whom, with what, how many dice."""

    shooter: str
    target: str
    weapon: str
    range: float
    cover: str
    shots: int
    #: On the bot's map: what was measured and why ("9.4″ base to base, soft cover: ...").
    measured: str = ""
    #: On the bot's map: where a thrown weapon falls (where the target stands).
    at: list[float] | None = None


# --- placing the figures on the bot's map


def _deploying(state: MedState) -> None:
    if state.field is None:
        raise RuleError("This battle is played on a table: there is no map to place figures on.")
    if state.phase != "deployment":
        raise RuleError("Every figure is on the map and the battle has begun: move them with /medieval move.")


def place(ctx: Ctx, params: PlaceOptions) -> None:
    """``/map place figure: at:``: one figure in its side's zone (a side its own, the game master any)."""
    state = ctx.state
    _deploying(state)
    assert state.field is not None
    before = set(state.field.positions)
    text = place_piece(state.field, ctx.t.terrain, onmap.pieces(ctx.t, state), params, ctx.side, ctx.by_gm)
    name = next(n for n in state.field.positions if n not in before)
    ctx.say("placed", text, figure=name, at=list(state.field.positions[name]))
    _deployed(ctx)


def deploy(ctx: Ctx, params: DeployOptions) -> None:
    """``/map deploy [side:]``: a side's unplaced figures set out in its zone (default: the acting side)."""
    state = ctx.state
    _deploying(state)
    assert state.field is not None
    before = set(state.field.positions)
    pieces = onmap.pieces(ctx.t, state)
    text = deploy_pieces(state.field, ctx.t.terrain, pieces, state.sides, params, ctx.side, ctx.by_gm)
    ctx.say("deployed", text, figures=[n for n in state.field.positions if n not in before])
    _deployed(ctx)


def _end_setting_up(ctx: Ctx) -> None:
    """``/medieval endturn`` before the battle (also a deadline passing for an absent side): that
    side's figures still to place are set out in its zone, as ``/map deploy`` would."""
    state = ctx.state
    waiting = onmap.unplaced(state)
    sides = [f.side for f in state.figures if f.name in waiting]
    side = ctx.side or (sides[0] if sides else None)
    if side not in sides:
        raise RuleError(
            f"Your figures are all on the map; the battle begins once the rest are placed: {joined(waiting)}."
        )
    deploy(ctx, DeployOptions(side=side))


def _deployed(ctx: Ctx) -> None:
    """Once every figure is on the map: hand-to-hand where bases touch, then the roll-off (A-MED-20)."""
    state = ctx.state
    waiting = onmap.unplaced(state)
    if waiting:
        return
    onmap.sync_contacts(ctx.t, state)
    touching = "; ".join(f"{a} and {b} touch: in hand-to-hand" for a, b in state.contacts)
    text = (
        "Every figure is on the map."
        + (f" {touching}." if touching else "")
        + " The roll-off decides who chooses to go first."
    )
    ctx.say(DEPLOYMENT_DONE, text)
    ctx.events.extend(roll_off(ctx.t, state, ctx.dice))


# --- whose figure, and its activation


def _own(state: MedState, wanted: Any) -> MedFigure:
    """A figure of the side whose turn it is, able to act now."""
    if state.phase == "deployment":
        raise RuleError(
            f"The battle begins once every figure is on the map: still to place {joined(onmap.unplaced(state))} "
            "(/map place or /map deploy)."
        )
    fig = figure(state, wanted)
    if fig.side != state.active:
        raise RuleError(f"{fig.name} is {fig.side}'s figure: only {state.active}'s figures act this turn.")
    if not in_action(fig):
        raise RuleError(f"{fig.name} is {HEALTH_LABELS[fig.health]} and out of action.")
    if fig.activated and state.current != fig.name:
        raise RuleError(f"{fig.name} has already been activated this turn: each figure acts once a turn.")
    return fig


def _begin(t: MedievalTables, state: MedState, fig: MedFigure, dice: DiceSource, events: list[Event]) -> bool:
    """Start ``fig``'s activation if it is not the current one; False if it collapses (A-MED-6)."""
    if state.current == fig.name:
        return True
    done = state.current
    state.current = fig.name
    fig.activated = True
    text = f"{fig.name} is activated" + (f" ({done} is done for this turn)." if done else ".")
    events.append(Event("activation", text, {"figure": fig.name, "done": done}))
    if fig.health != "serious":
        return True
    if bravery_test(t, fig, dice, "serious wound", events):
        return True
    casualty(t, state, fig, "collapsed", None, events)
    return False


def _left(t: MedievalTables, fig: MedFigure) -> float:
    return max(0.0, effective(t, fig)["speed"] - fig.moved)


def _check_distance(t: MedievalTables, fig: MedFigure, value: Any, *, zero_ok: bool = False) -> float:
    distance = number(value, f"Give {fig.name}'s move as a number of inches.")
    if distance < 0 or (distance == 0 and not zero_ok):
        raise RuleError(f"Give {fig.name}'s move as more than 0″.")
    if fig.stuck and distance > 0:
        raise RuleError(f"{fig.name} lost its break-off and may move no further this turn.")
    left = _left(t, fig)
    if distance > left + EPSILON:
        speed = effective(t, fig)["speed"]
        if left <= EPSILON:
            raise RuleError(f"{fig.name} has used all its {inches(speed)} of movement this turn.")
        raise RuleError(f"{fig.name} has only {inches(round(left, 6))} of movement left this turn.")
    return distance


def _enemy(state: MedState, fig: MedFigure, wanted: Any, doing: str) -> MedFigure:
    enemy = figure(state, wanted)
    if enemy.side == fig.side:
        raise RuleError(f"{enemy.name} is on {fig.name}'s own side: {doing} an enemy figure.")
    if not in_action(enemy):
        raise RuleError(f"{enemy.name} is {HEALTH_LABELS[enemy.health]} and out of action.")
    return enemy


# --- activate, move, stand


def activate(ctx: Ctx, params: ActivateOptions) -> None:
    state, t, dice, events = ctx.state, ctx.t, ctx.dice, ctx.events
    fig = _own(state, params.figure)
    if state.current == fig.name:
        raise RuleError(f"{fig.name} is already activated: carry on with its actions.")
    if _begin(t, state, fig, dice, events):
        speed = effective(t, fig)["speed"]
        events.append(
            Event(
                "ready",
                f"{fig.name} may move up to {inches(_left(t, fig))} of {inches(speed)}, shoot and fight.",
                {"figure": fig.name, "left": _left(t, fig), "speed": speed},
            )
        )


def move(ctx: Ctx, params: MoveOptions) -> None:
    state, t, dice, events = ctx.state, ctx.t, ctx.dice, ctx.events
    fig = _own(state, params.figure)
    if fig.prone:
        raise RuleError(f"{fig.name} is prone: stand it up first with /medieval stand.")
    held = enemies_in_contact(state, fig)
    if held and fig.stuck:
        raise RuleError(_stuck(fig, held))
    if held:
        raise RuleError(f"{fig.name} is in hand-to-hand with {', '.join(held)}: to move away, try /medieval breakoff.")
    if state.field is not None:
        _move_on_map(ctx, fig, params)
        return
    _table_only(fig, params)
    engage = None if params.engage is None else _enemy(state, fig, params.engage, "engage")
    distance = _check_distance(t, fig, params.distance, zero_ok=engage is not None)
    if not _begin(t, state, fig, dice, events):
        return
    fig.moved = round(fig.moved + distance, 6)
    data = {"figure": fig.name, "distance": distance, "moved": fig.moved, "left": _left(t, fig)}
    events.append(Event("move", f"{fig.name} moves {inches(distance)} ({inches(_left(t, fig))} left).", data))
    if engage is not None:
        state.contacts.append([fig.name, engage.name])
        text = f"{fig.name} engages {engage.name} in hand-to-hand: fight with /medieval fight."
        events.append(Event("contact", text, {"figure": fig.name, "enemy": engage.name}))


def _stuck(fig: MedFigure, held: Sequence[str]) -> str:
    """Why a figure held by a lost break-off neither moves nor tries again, and what it may do."""
    return (
        f"{fig.name} lost its break-off and stays in hand-to-hand with {joined(list(held))} this turn: "
        "it may still fight (/medieval fight)."
    )


def _table_only(fig: MedFigure, params: MapMove) -> None:
    given = [key for key, value in (("to", params.to), ("toward", params.toward), ("via", params.via)) if value]
    if given:
        raise RuleError(
            f"This battle is played on a table: give {fig.name}'s move as distance: in inches "
            f"({given[0]}: needs the bot's map)."
        )


def _route(ctx: Ctx, fig: MedFigure, params: MapMove) -> MovePlan:
    """The checked path of ``fig``'s move on the map, within the movement it has left."""
    if fig.stuck:
        raise RuleError(f"{fig.name} lost its break-off and may move no further this turn.")
    left = _left(ctx.t, fig)
    if left <= EPSILON:
        raise RuleError(f"{fig.name} has used all its {inches(effective(ctx.t, fig)['speed'])} of movement this turn.")
    return onmap.route(ctx.t, ctx.state, fig, params, left)


def _move_on_map(ctx: Ctx, fig: MedFigure, params: MoveOptions) -> None:
    if params.engage is not None:
        raise RuleError(
            f"On the map, hand-to-hand comes from where the bases stand: move {fig.name} "
            "toward:NAME to charge into contact (leave engage empty)."
        )
    plan = _route(ctx, fig, params)
    if not _begin(ctx.t, ctx.state, fig, ctx.dice, ctx.events):
        return
    _go(ctx, fig, plan, params=params)


def _go(ctx: Ctx, fig: MedFigure, plan: MovePlan, verb: str = "moves", params: MapMove | None = None) -> None:
    """``fig`` moves along ``plan``; every enemy its base then touches is in hand-to-hand with it."""
    state, t = ctx.state, ctx.t
    assert state.field is not None
    set_point(state.field, fig.name, plan.end)
    fig.moved = round(fig.moved + plan.used, 6)
    left = _left(t, fig)
    data = {
        "figure": fig.name,
        "distance": round(plan.travelled, 4),
        "used": round(plan.used, 4),
        "moved": fig.moved,
        "left": left,
        "to": list(state.field.positions[fig.name]),
        "path": [[round(p.x, 4), round(p.y, 4)] for p in plan.path],
    }
    short = onmap.short_of(t, state, fig, params) if params else ""
    ctx.say("move", onmap.moved_text(fig, plan, left, verb) + short, **data)
    added, _ = onmap.sync_contacts(t, state, fig.name)
    for a, b in added:
        text = f"{a}'s base touches {b}'s: they are in hand-to-hand (fight with /medieval fight)."
        ctx.say("contact", text, figure=a, enemy=b)


def stand(ctx: Ctx, params: StandOptions) -> None:
    state, t, dice, events = ctx.state, ctx.t, ctx.dice, ctx.events
    fig = _own(state, params.figure)
    if not fig.prone:
        raise RuleError(f"{fig.name} is not prone.")
    cost = round(effective(t, fig)["speed"] * t.stand_up_cost_of_speed, 6)
    if cost > _left(t, fig) + EPSILON:
        raise RuleError(
            f"{fig.name} needs {inches(cost)} of movement to stand up and has "
            f"{inches(round(_left(t, fig), 6))} left this turn."
        )
    if not _begin(t, state, fig, dice, events):
        return
    fig.prone = False
    fig.moved = round(fig.moved + cost, 6)
    text = f"{fig.name} stands up, using {inches(cost)} of its move ({inches(_left(t, fig))} left)."
    events.append(Event("stand", text, {"figure": fig.name, "cost": cost, "left": _left(t, fig)}))


# --- shooting


def shoot(ctx: Ctx, params: ShootOptions) -> None:
    state, t, dice, events = ctx.state, ctx.t, ctx.dice, ctx.events
    shot = _check_shot(t, state, params)
    fig = figure(state, shot.shooter)
    if not _begin(t, state, fig, dice, events):
        return
    for shot_no in range(1, shot.shots + 1):
        target = figure(state, shot.target)
        if state.phase == "over":
            break
        if not in_action(target):
            left = shot.shots - shot_no + 1
            events.append(
                Event(
                    "unrolled",
                    f"{target.name} is out of action: {fig.name}'s other "
                    f"{'shot is' if left == 1 else f'{left} shots are'} not taken.",
                    {"figure": fig.name, "shots": left},
                )
            )
            break
        _one_shot(t, state, fig, target, shot, shot_no, dice, events)


def _shooting_weapon(t: MedievalTables, fig: MedFigure, wanted: str | None) -> str:
    if wanted is None:
        weapon = next((w for w in fig.weapons if t.weapons[w].range > 0), None)
        if weapon is None:
            carried = ", ".join(fig.weapons) or t.unarmed
            raise RuleError(f"{fig.name} carries nothing to shoot or throw ({carried}).")
        return weapon
    weapon = match_name(t.weapons, str(wanted))
    if weapon is None or weapon not in fig.weapons:
        carried = ", ".join(fig.weapons) or "no weapon"
        raise RuleError(f"{fig.name} does not carry {short(str(wanted))}: it has {carried}.")
    if t.weapons[weapon].range <= 0:
        raise RuleError(f"{fig.name}'s {weapon} is a hand-to-hand weapon: it cannot shoot.")
    return weapon


def _check_shot(t: MedievalTables, state: MedState, params: ShootOptions) -> Shot:
    fig = _own(state, params.figure)
    name = _shooting_weapon(t, fig, params.weapon)
    weapon = t.weapons[name]
    if t.one_shooting_weapon_per_turn and fig.shot_with not in (None, name):
        raise RuleError(f"{fig.name} has shot its {fig.shot_with} this turn: one shooting weapon a turn.")
    used = fig.shots if fig.shot_with == name else 0
    left = int(weapon.rof or 0) - used
    if weapon.thrown:
        left = min(left, fig.weapons.count(name))
    if left <= 0:
        raise RuleError(f"{fig.name} has used its {name}'s rate of fire ({weapon.rof}) this turn.")
    target = _enemy(state, fig, params.target, "shoot at")
    held = enemies_in_contact(state, fig)
    if held and not (t.shooter_in_contact_may_throw_at_opponent and weapon.thrown and target.name in held):
        may_throw = t.shooter_in_contact_may_throw_at_opponent
        allowed = " (it may throw a weapon at the enemy it fights)" if may_throw else ""
        raise RuleError(f"{fig.name} is in hand-to-hand with {', '.join(held)} and may not shoot{allowed}.")
    said, at = "", None
    cover: str
    if state.field is not None:
        for key, given in (("range", params.range), ("cover", params.cover)):
            if given is not None:
                raise RuleError(f"On the map the bot measures the {key}: leave {key} empty.")
        distance = onmap.shot_range(t, state, fig, target)
        if distance > weapon.range + EPSILON:
            raise RuleError(
                f"{target.name} is out of range: {measured_against(distance, weapon.range)} base to base, and {fig.name}'s {name} "
                f"reaches {inches(weapon.range)}."
            )
        seen = onmap.sight_and_cover(t, state, fig, target, distance)
        cover, said = seen.cover, seen.text
        at = list(state.field.positions[target.name])
    else:
        distance = number(params.range, f"Give the range from {fig.name} to {target.name} in inches.")
        if distance > weapon.range + EPSILON:
            raise RuleError(
                f"{target.name} is out of range: {fig.name}'s {name} reaches {inches(weapon.range)}, "
                f"not {inches(distance)}."
            )
        cover = params.cover or COVERS[0]
    shots = left
    if params.shots is not None:
        shots = params.shots
        if not 1 <= shots <= left:
            raise RuleError(
                f"{fig.name} has {left} shot{'s' if left > 1 else ''} left with its {name}: "
                f"give shots from 1 to {left}."
            )
    return Shot(fig.name, target.name, name, distance, cover, shots, said, at)


def _shot_modifiers(
    t: MedievalTables, state: MedState, fig: MedFigure, target: MedFigure, shot: Shot, weapon: Weapon
) -> list[tuple[str, int]]:
    m = t.shooting_modifiers
    mods: list[tuple[str, int]] = []
    if shot.cover == "hard":
        mods.append(("hard cover", m.hard_cover))
    elif shot.cover == "soft":
        mods.append(("soft cover", m.soft_cover))
    else:
        mods.append(("in the open", m.open))
    movers = [who for who, f in (("firer", fig), ("target", target)) if f.moved > 0]
    if movers and t.moving_counts_once:
        mods.append((" and ".join(movers) + " moving", m.moving))
    else:
        mods.extend((f"{who} moving", m.moving) for who in movers)
    if shot.range > weapon.range / 2 + EPSILON:
        mods.append(("over half range", m.over_half_range))
    if target.prone:
        mods.append(("target prone", m.prone))
    if enemies_in_contact(state, target) and not in_contact(state, fig.name, target.name):
        mods.append(("target in close combat", m.in_close_combat))
    return [(why, value) for why, value in mods if value != 0]


def _one_shot(
    t: MedievalTables,
    state: MedState,
    fig: MedFigure,
    target: MedFigure,
    shot: Shot,
    shot_no: int,
    dice: DiceSource,
    events: list[Event],
) -> None:
    weapon = t.weapons[shot.weapon]
    mods = _shot_modifiers(t, state, fig, target, shot, weapon)
    skill = effective(t, fig)["shoot"]
    modifier = sum(v for _, v in mods)
    which = f"shot {shot_no} of {shot.shots}" if shot.shots > 1 else ""
    verb = (
        f"throws a {shot.weapon} at {target.name}" if weapon.thrown else f"shoots at {target.name} with {shot.weapon}"
    )
    plus = skill + weapon.accuracy + modifier
    roll = dice.roll(
        t.die,
        f"{fig.name}: {shot.weapon} at {target.name}{f' ({which})' if which else ''}, D6 {sign(plus)} vs {t.hit_on}",
    )
    total = roll + skill + weapon.accuracy + modifier
    hit = total >= t.hit_on and not (t.natural_one_misses and roll == 1)
    sums = "".join(f" {sign(v)} ({why})" for why, v in mods)
    calc = f"{roll} + Shoot {skill} + Accuracy {weapon.accuracy}{sums} = {total}"
    result = "hit" if hit else ("a natural 1 always misses" if total >= t.hit_on else "miss")
    said = "; ".join(part for part in (which, shot.measured) if part)
    text = f"{fig.name} {verb}{f' ({said})' if said else ''}: {calc}, needs {t.hit_on}: {result}."
    data = {
        "shooter": fig.name,
        "target": target.name,
        "weapon": shot.weapon,
        "shot": shot_no,
        "of": shot.shots,
        "range": shot.range,
        "cover": shot.cover,
        "roll": roll,
        "shoot": skill,
        "accuracy": weapon.accuracy,
        "modifiers": modifier_data(mods),
        "modifier": modifier,
        "total": total,
        "needed": t.hit_on,
        "hit": hit,
    }
    if shot.measured:
        data["measured"] = shot.measured
    events.append(Event("shot", text, data))
    fig.shots = (fig.shots if fig.shot_with == shot.weapon else 0) + 1
    fig.shot_with = shot.weapon
    if weapon.thrown:
        fig.weapons.remove(shot.weapon)
        state.ground.append(GroundItem(shot.weapon, target.name, None if shot.at is None else list(shot.at)))
    if hit:
        wound(t, state, fig, target, shot.weapon, dice, events)


# --- hand to hand


def _fight_weapon(t: MedievalTables, fig: MedFigure, wanted: str | None) -> str:
    if wanted is None:
        return melee_weapon(t, fig)
    weapon = match_name(t.weapons, str(wanted))
    if weapon == t.unarmed:
        return weapon
    if weapon is None or weapon not in fig.weapons:
        carried = ", ".join(fig.weapons) or "no weapon"
        raise RuleError(f"{fig.name} does not carry {short(str(wanted))}: it has {carried}.")
    if not t.weapons[weapon].melee:
        raise RuleError(f"{fig.name}'s {weapon} is no hand-to-hand weapon: fight with another or {t.unarmed}.")
    return weapon


def fight(ctx: Ctx, params: FightOptions) -> None:
    state, t, dice, events = ctx.state, ctx.t, ctx.dice, ctx.events
    fig = _own(state, params.figure)
    held = enemies_in_contact(state, fig)
    if not held:
        how = "toward:NAME into base contact" if state.field is not None else "engage:NAME"
        raise RuleError(f"{fig.name} is not in hand-to-hand: engage an enemy with /medieval move {how}.")
    if fig.fights >= t.fights_per_activation:
        raise RuleError(f"{fig.name} has already fought this turn.")
    if params.opponent is None:
        if len(held) > 1:
            raise RuleError(f"{fig.name} is fighting {', '.join(held)}: name the opponent.")
        enemy = figure(state, held[0])
    else:
        enemy = _enemy(state, fig, params.opponent, "fight")
        if enemy.name not in held:
            raise RuleError(f"{fig.name} is not in contact with {enemy.name}.")
    mine = _fight_weapon(t, fig, params.weapon)
    theirs = melee_weapon(t, enemy)
    height: str
    barricade: str
    if state.field is not None:
        for key, what, given in (("height", "hills", params.height), ("barricade", "barricades", params.barricade)):
            if given is not None:
                raise RuleError(f"On the map the bot sees the {what}: leave {key} empty.")
        height = onmap.height_side(t, state, fig, enemy)
        barricade = onmap.barricade_side(t, state, fig, enemy)
    else:
        height = params.height or WHOSE[0]
        barricade = params.barricade or WHOSE[0]
    if not _begin(t, state, fig, dice, events):
        return
    fig.fights += 1
    a = dice.roll(t.die, f"{fig.name}: hand-to-hand against {enemy.name}")
    b = dice.roll(t.die, f"{enemy.name}: hand-to-hand against {fig.name}")
    mine_total, mine_parts, mine_numbers = _fight_total(t, fig, mine, a, height == "mine", barricade == "mine")
    theirs_total, theirs_parts, theirs_numbers = _fight_total(
        t, enemy, theirs, b, height == "theirs", barricade == "theirs"
    )
    winner = None if a + mine_total == b + theirs_total else (fig if a + mine_total > b + theirs_total else enemy)
    result = "a tie: no damage, they stay in contact" if winner is None else f"{winner.name} wins"
    text = (
        f"Hand-to-hand: {fig.name} {mine_parts} = {a + mine_total}; "
        f"{enemy.name} {theirs_parts} = {b + theirs_total}: {result}."
    )
    data = {
        "figure": fig.name,
        "opponent": enemy.name,
        "weapons": {fig.name: mine, enemy.name: theirs},
        "rolls": {fig.name: a, enemy.name: b},
        "totals": {fig.name: a + mine_total, enemy.name: b + theirs_total},
        "sides": {fig.name: mine_numbers, enemy.name: theirs_numbers},
        "winner": None if winner is None else winner.name,
    }
    events.append(Event("fight", text, data))
    if winner is not None:
        loser = enemy if winner is fig else fig
        wound(t, state, winner, loser, mine if winner is fig else theirs, dice, events)


def _fight_total(
    t: MedievalTables, fig: MedFigure, weapon: str, roll: int, high: bool, barricade: bool
) -> tuple[int, str, dict[str, Any]]:
    """Fight + Accuracy + factors (without the die), the sum as a player reads it, and its numbers
    as event data (the die, Fight, the weapon's accuracy, the factors and their sum, the total)."""
    f = t.close_combat_factors
    fight = effective(t, fig)["fight"]
    accuracy = t.weapons[weapon].accuracy
    factors = [
        (why, v)
        for why, v, on in (
            ("height advantage", f.height_advantage, high),
            ("defending barricade", f.defending_barricade, barricade),
            ("prone", f.prone, fig.prone),
        )
        if on and v
    ]
    parts = f"{roll} + Fight {fight} + {weapon} {accuracy}" + "".join(f" {sign(v)} ({why})" for why, v in factors)
    modifier = sum(v for _, v in factors)
    numbers = {
        "roll": roll,
        "fight": fight,
        "accuracy": accuracy,
        "modifiers": modifier_data(factors),
        "modifier": modifier,
        "total": roll + fight + accuracy + modifier,
    }
    return fight + accuracy + modifier, parts, numbers


def breakoff(ctx: Ctx, params: BreakoffOptions) -> None:
    """A-MED-2: D6 + Bravery against each opponent in turn; only a higher opponent holds it."""
    state, t, dice, events = ctx.state, ctx.t, ctx.dice, ctx.events
    fig = _own(state, params.figure)
    held = enemies_in_contact(state, fig)
    if not held:
        raise RuleError(f"{fig.name} is not in hand-to-hand: move it with /medieval move.")
    if fig.stuck:
        raise RuleError(_stuck(fig, held))
    if fig.prone:
        raise RuleError(f"{fig.name} is prone: stand it up first with /medieval stand.")
    plan = None
    if state.field is not None:
        plan = _route(ctx, fig, params)
        still = [n for n in held if onmap.touching_at(t, state.field, plan.end, where(state.field, n))]
        if still:
            raise RuleError(f"To break off, {fig.name}'s move must take its base out of contact with {joined(still)}.")
        distance = plan.used
    else:
        _table_only(fig, params)
        distance = _check_distance(t, fig, params.distance)
    if not _begin(t, state, fig, dice, events):
        return
    for name in held:
        enemy = figure(state, name)
        mine_b, theirs_b = effective(t, fig)["bravery"], effective(t, enemy)["bravery"]
        a = dice.roll(t.die, f"{fig.name}: Bravery to break off from {enemy.name}, D6 + {mine_b}")
        b = dice.roll(t.die, f"{enemy.name}: Bravery to hold {fig.name}, D6 + {theirs_b}")
        held_back = b + theirs_b > a + mine_b or (b + theirs_b == a + mine_b and not t.breakoff_tie_mover_escapes)
        verdict = f"{enemy.name} holds {fig.name} in the fight" if held_back else f"{fig.name} breaks away"
        text = (
            f"Break-off: {fig.name} {a} + Bravery {mine_b} = {a + mine_b}; "
            f"{enemy.name} {b} + Bravery {theirs_b} = {b + theirs_b}: {verdict}."
        )
        data = {
            "figure": fig.name,
            "opponent": enemy.name,
            "rolls": {fig.name: a, enemy.name: b},
            "totals": {fig.name: a + mine_b, enemy.name: b + theirs_b},
            "bravery": {fig.name: mine_b, enemy.name: theirs_b},
            "escaped": not held_back,
        }
        events.append(Event("breakoff", text, data))
        if held_back:
            fig.stuck = True
            events.append(
                Event(
                    "held",
                    f"{fig.name} may move no further this turn and stays in hand-to-hand: "
                    "it may still fight (/medieval fight).",
                    {"figure": fig.name},
                )
            )
            return
    drop_contacts(state, fig.name)
    if plan is not None:
        _go(ctx, fig, plan, "breaks away")
        return
    fig.moved = round(fig.moved + distance, 6)
    text = f"{fig.name} moves {inches(distance)} away ({inches(_left(t, fig))} left)."
    events.append(
        Event("move", text, {"figure": fig.name, "distance": distance, "moved": fig.moved, "left": _left(t, fig)})
    )


# --- healing and plunder


def heal(ctx: Ctx, params: HealOptions) -> None:
    """A-MED-15: a friendly figure in contact spends its activation; light → full, serious → light."""
    state, t, dice, events = ctx.state, ctx.t, ctx.dice, ctx.events
    healer = _own(state, params.figure)
    patient = figure(state, params.patient)
    if patient.side != healer.side:
        raise RuleError(f"{patient.name} is an enemy: {healer.name} treats only its own side's figures.")
    if patient is healer and not t.self_healing:
        raise RuleError(f"{healer.name} cannot treat itself: a friend in contact must do it.")
    if not in_action(patient):
        raise RuleError(f"{patient.name} is {HEALTH_LABELS[patient.health]} and cannot be treated.")
    if state.field is not None and patient is not healer and not onmap.touching(t, state, healer.name, patient.name):
        raise RuleError(f"{healer.name}'s base must touch {patient.name}'s to treat it: move it alongside first.")
    held = enemies_in_contact(state, healer)
    if held:
        raise RuleError(f"{healer.name} is in hand-to-hand with {', '.join(held)} and cannot treat anyone.")
    if not t.healer_may_have_shot_or_fought and (healer.shots or healer.fights):
        raise RuleError(f"{healer.name} has shot or fought this turn: treating a wound takes its activation.")
    if patient.health == "full":
        raise RuleError(f"{patient.name} is not wounded.")
    if patient.health == "light" and patient.healed_from_serious:
        raise RuleError(f"{patient.name} was treated for a serious wound and cannot be healed to full health.")
    if not _begin(t, state, healer, dice, events):
        return
    before = patient.health
    if before == "light":
        patient.health = "full"
    else:
        patient.health, patient.healed_from_serious = "light", True
    who = "itself" if patient is healer else patient.name
    text = (
        f"{healer.name} treats {who}: {HEALTH_LABELS[before]} → {HEALTH_LABELS[patient.health]}"
        f"{' (no further healing to full health)' if patient.healed_from_serious else ''}. "
        f"{healer.name}'s activation is spent."
    )
    events.append(
        Event(
            "heal",
            text,
            {"healer": healer.name, "patient": patient.name, "before": before, "after": patient.health},
        )
    )
    state.current = None


def pickup(ctx: Ctx, params: PickupOptions) -> None:
    state, t, dice, events = ctx.state, ctx.t, ctx.dice, ctx.events
    fig = _own(state, params.figure)
    held = enemies_in_contact(state, fig)
    if held:
        raise RuleError(f"{fig.name} is in hand-to-hand with {', '.join(held)}: no time to pick anything up.")
    wanted = params.item
    if params.source is None:
        index = _from_ground(t, state, fig, wanted)
        item, source = state.ground[index].item, None
    else:
        source = figure(state, params.source)
        item = _from_fallen(t, fig, source, wanted)
        if state.field is not None and not onmap.touching(t, state, fig.name, source.name):
            raise RuleError(f"{fig.name}'s base must touch {source.name}'s to take its kit: move it alongside first.")
    if not _begin(t, state, fig, dice, events):
        return
    if item in t.armour:
        fig.armour.append(item)
    else:
        fig.weapons.append(item)
    if source is None:
        near = state.ground.pop(index).near
        text = f"{fig.name} picks up the {item} lying near {near}."
    else:
        (source.armour if item in t.armour else source.weapons).remove(item)
        text = f"{fig.name} plunders {source.name}'s {item}."
    events.append(
        Event("plunder", text, {"figure": fig.name, "item": item, "from": None if source is None else source.name})
    )


def _from_ground(t: MedievalTables, state: MedState, fig: MedFigure, wanted: str) -> int:
    """Which item on the ground ``fig`` picks up (on the map: the nearest within its reach)."""
    found = [i for i, g in enumerate(state.ground) if fold(g.item) == fold(wanted)]
    if not found:
        lying = ", ".join(f"{g.item} near {g.near}" for g in state.ground) or "nothing"
        raise RuleError(f"There is no {short(wanted)} on the ground (lying there: {lying}).")
    if state.field is not None:
        lying_at = [(onmap.reach_of(t, state, fig, g.at), i) for i in found if (g := state.ground[i]).at is not None]
        if lying_at:
            gap, index = min(lying_at)
            if gap > t.pickup_within_inches + EPSILON:
                raise RuleError(
                    f"The nearest {state.ground[index].item} lies {measured_against(gap, t.pickup_within_inches)} from {fig.name}'s base: "
                    f"it picks up what lies within {inches(t.pickup_within_inches)}."
                )
            found = [index]
    _fits(t, fig, state.ground[found[0]].item)
    return found[0]


def _from_fallen(t: MedievalTables, fig: MedFigure, source: MedFigure, wanted: str) -> str:
    if source.health not in t.plunder_from:
        whose = " or ".join(t.plunder_from)
        raise RuleError(f"{source.name} is {HEALTH_LABELS[source.health]}: only {whose} figures may be plundered.")
    item = next((i for i in source.weapons + source.armour if fold(i) == fold(wanted)), None)
    if item is None:
        kit = ", ".join(source.weapons + source.armour) or "nothing"
        raise RuleError(f"{source.name} has no {short(wanted)} (it has {kit}).")
    return _fits(t, fig, item)


def _fits(t: MedievalTables, fig: MedFigure, item: str) -> str:
    if item in t.armour:
        slot = t.armour[item].slot
        worn = next((a for a in fig.armour if t.armour[a].slot == slot), None)
        if worn is not None:
            raise RuleError(f"{fig.name} already has {worn}: one piece of {slot} armour at most.")
    return item


# --- the turn


def order(ctx: Ctx, params: OrderOptions) -> None:
    """The roll-off winner's answer (A-MED-12): go first or second."""
    state = ctx.state
    pending = state.pending
    if pending is None:
        raise RuleError("Nothing is waiting for a choice of who goes first.")
    if not ctx.by_gm and not same_name(ctx.side, pending.decider):
        raise RuleError(f"It is {pending.decider}'s choice: {pending.prompt}")
    picked = params.choice
    state.pending = None
    state.first = pending.decider if picked == "first" else other_side(state, pending.decider)
    state.active = state.first
    state.phase = "play"
    text = (
        f"{pending.decider} chooses to go {picked}: turn 1 · {state.active}'s turn. "
        f"Activate figures one at a time; /medieval endturn when done."
    )
    ctx.tell(PhasePayload(1), text, active=state.active, first=state.first)


def end_turn(ctx: Ctx, params: NoParams) -> None:
    state = ctx.state
    if state.phase == "deployment":
        _end_setting_up(ctx)
        return
    ended = str(state.active)
    state.current = None
    state.active = other_side(state, ended)
    if state.active == state.first:
        state.turn += 1
    for fig in state.figures:
        if fig.side == state.active:
            fig.moved, fig.shots, fig.shot_with, fig.fights = 0.0, 0, None, 0
            fig.activated = fig.stuck = False
    text = f"{ended}'s turn ends. Turn {state.turn} · {state.active}'s turn."
    ctx.tell(PhasePayload(state.turn), text, active=state.active)
