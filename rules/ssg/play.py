"""The SSG turn (RULES-NOTES.md section 4): movement, melee and shooting phases, one handler per action.

On a table (``state.field`` is None) players report distances, contacts and line of sight; on the
bot's map the bot measures them (:mod:`rules.ssg.field`). Either way the handlers check them against
the tables and roll the dice in the notes' Dice order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.battlefield import set_point
from rules.battlefield.deployment import DeployOptions, PlaceOptions
from rules.battlefield.mapplay import DEPLOYED, DEPLOYMENT_DONE, PLACED
from rules.core import (
    CasualtyPayload,
    Context,
    Event,
    PhasePayload,
    RuleError,
    VictoryPayload,
    find_figure,
    modifier_data,
)
from rules.specs import NoParams
from rules.ssg import field as on_map
from rules.ssg.data import D6, SsgFigure, SsgState, SsgTables, Weapon
from rules.ssg.options import MeleeOptions, MoveOptions, ShootOptions
from rules.words import blank, inches, measured, measured_against, number, plural, whole

EPSILON = 1e-9
LOS_VALUES = ("clear", "partial", "blocked")
LOS_LABELS = {"clear_los": "clear LOS", "partial_los": "partial LOS", "beyond_short_range": "long range"}
PHASES = ("deployment", "movement", "melee", "shooting")


class Ctx(Context[SsgState, SsgTables]):
    """One SSG action being applied (:class:`rules.core.Context`)."""


@dataclass(frozen=True)
class _Group:
    """One target of a volley, validated."""

    target: str
    range: float
    los: str
    dice: int
    suffix: str
    #: On the map: what was measured and why ('14.2″, partial: the hedge 2.0″ in front of Big Jim').
    measured: str = ""


# --- looking things up -------------------------------------------------------------------------


def figure(state: SsgState, wanted: Any) -> SsgFigure:
    if not isinstance(wanted, str) or not wanted.strip():
        raise RuleError("Name a figure.")
    name = find_figure([f.name for f in state.figures], wanted)
    return next(f for f in state.figures if f.name == name)


def other_side(state: SsgState, side: str) -> str:
    return next(s for s in state.sides if s != side)


def lost(state: SsgState, side: str) -> int:
    return sum(1 for f in state.figures if f.side == side and f.removed)


def contacts_of(state: SsgState, name: str) -> list[list[str]]:
    return [pair for pair in state.contacts if name in pair]


def pair_text(pair: Sequence[str]) -> str:
    return f"{pair[0]} – {pair[1]}"


def phase_event(state: SsgState, text: str) -> Event:
    return PhasePayload(state.turn, state.phase).event(text, active=state.active)


def _require_phase(state: SsgState, phase: str, doing: str) -> None:
    if state.phase == phase:
        return
    if state.phase == "deployment":
        raise RuleError(f"{doing} once every figure is on the map: place them with /map place or /map deploy.")
    hint = ": end it with /ssg next" if PHASES.index(phase) > PHASES.index(state.phase) else ""
    raise RuleError(f"{doing} only in the {phase} phase; it is the {state.phase} phase now{hint}.")


def _own_figure(state: SsgState, wanted: Any, doing: str) -> SsgFigure:
    fig = figure(state, wanted)
    if fig.side != state.active:
        raise RuleError(f"{fig.name} is {fig.side}'s figure: only {state.active}'s figures {doing} this turn.")
    if fig.removed:
        raise RuleError(f"{fig.name} has been removed from play.")
    return fig


def ready(t: SsgTables, state: SsgState, side: str) -> list[str]:
    """``side``'s figures that may still move (some inches left, in contact with nobody) in the
    movement phase, or still shoot once the melees are over."""
    if side != state.active or state.winner is not None:
        return []
    mine = [f for f in state.figures if f.side == side and not f.removed]
    if state.phase == "movement":
        return [f.name for f in mine if f.moved < t.move_max_inches - EPSILON and not contacts_of(state, f.name)]
    if state.phase == "shooting" or (state.phase == "melee" and not state.contacts):
        return [f.name for f in mine if not f.shot]
    return []


# --- /ssg next ---------------------------------------------------------------------------------


def next_phase(ctx: Ctx, params: NoParams) -> None:
    state = ctx.state
    if state.phase == "deployment":
        _deploy_the_rest(ctx)
        return
    if state.phase == "movement":
        if state.field is not None:
            state.contacts = on_map.contacts_now(ctx.t, state)
        ctx.events.append(_start_melee(state))
    elif state.phase == "melee":
        if state.contacts:
            pair = state.contacts[0]
            raise RuleError(f"{pair[0]} and {pair[1]} are still in contact: resolve them with /ssg melee.")
        _begin_shooting(ctx)
    else:
        ctx.events.append(_end_turn(state))


def _begin_shooting(ctx: Ctx) -> None:
    """The melee phase ends only by the player's word (``/ssg next``, or a shot once no pair is left
    in contact), so a ``next`` meant for the melee never ends a shooting phase the player never saw."""
    state = ctx.state
    state.phase = "shooting"
    ctx.events.append(phase_event(state, f"Turn {state.turn} · {state.active} · shooting phase."))


def _start_melee(state: SsgState) -> Event:
    if not state.contacts:
        state.phase = "shooting"
        text = f"No figures are in contact, so there is no melee: turn {state.turn} · {state.active} · shooting phase."
        return phase_event(state, text)
    state.phase = "melee"
    pairs = ", ".join(pair_text(p) for p in state.contacts)
    return phase_event(state, f"Turn {state.turn} · {state.active} · melee phase: {pairs}.")


def _end_turn(state: SsgState) -> Event:
    for fig in state.figures:
        fig.moved = 0.0
        fig.shot = False
    state.active = other_side(state, state.active)
    if state.active == state.first:
        state.turn += 1
    state.phase = "movement"
    return phase_event(state, f"Turn {state.turn} · {state.active} · movement phase.")


# --- deployment on the map ------------------------------------------------------------------------


def place(ctx: Ctx, params: PlaceOptions) -> None:
    ctx.say(PLACED, on_map.place_text(ctx.t, ctx.state, params, ctx.side, ctx.by_gm), figure=params.figure)
    _begin_when_placed(ctx)


def deploy(ctx: Ctx, params: DeployOptions) -> None:
    ctx.say(DEPLOYED, on_map.deploy_text(ctx.t, ctx.state, params, ctx.side, ctx.by_gm), side=params.side)
    _begin_when_placed(ctx)


def _deploy_the_rest(ctx: Ctx) -> None:
    """``/ssg next`` while setting up (also a deadline passing for an absent side): that side's
    figures still to place are set out in its zone, as ``/map deploy`` would."""
    waiting = on_map.waiting_to_place(ctx.t, ctx.state)
    side = ctx.side or (waiting[0].side if waiting else None)
    if not any(p.side == side for p in waiting):
        names = ", ".join(p.name for p in waiting)
        raise RuleError(f"Your figures are all on the map; the battle begins once the rest are placed: {names}.")
    deploy(ctx, DeployOptions(side=side))


def _begin_when_placed(ctx: Ctx) -> None:
    state = ctx.state
    if on_map.waiting_to_place(ctx.t, state):
        return
    state.phase = "movement"
    ctx.say(DEPLOYMENT_DONE, "The deployment is over: the battle begins.")
    text = f"Every figure is on the map: turn {state.turn} · {state.active} · movement phase."
    ctx.events.append(phase_event(state, text))


# --- movement ----------------------------------------------------------------------------------


def move(ctx: Ctx, params: MoveOptions) -> None:
    state, t = ctx.state, ctx.t
    _require_phase(state, "movement", "Figures move")
    fig = _own_figure(state, params.figure, "move")
    if state.field is not None:
        _move_on_map(ctx, fig, params)
        return
    for key, given in (("to", params.to), ("via", params.via), ("toward", params.toward)):
        if given is not None:
            raise RuleError(f"This game is played on a table: give {fig.name}'s move as distance, not {key}.")
    for pair in contacts_of(state, fig.name):
        other = pair[1] if pair[0] == fig.name else pair[0]
        raise RuleError(f"{fig.name} is in contact with {other} and may not move until the melee is fought.")
    distance = number(params.distance, f"Give {fig.name}'s move as a number of inches.")
    if distance <= 0:
        raise RuleError(f"Give {fig.name}'s move as more than 0″.")
    left = t.move_max_inches - fig.moved
    if distance > left + EPSILON:
        if left <= EPSILON:
            raise RuleError(f"{fig.name} has already moved {inches(t.move_max_inches)} this turn.")
        raise RuleError(f"{fig.name} has only {inches(left)} of movement left this turn.")
    enemy = _contact_target(state, fig, params.contact)
    fig.moved = round(fig.moved + distance, 6)
    left = max(0.0, t.move_max_inches - fig.moved)
    data = {"figure": fig.name, "distance": distance, "moved": fig.moved, "left": left}
    ctx.say("move", f"{fig.name} moves {inches(distance)} ({inches(left)} left).", **data)
    if enemy is not None:
        state.contacts.append([fig.name, enemy.name])
        within = inches(t.contact_inches)
        text = f"{fig.name} comes within {within} of {enemy.name} and stops: they fight in the melee phase."
        ctx.say("contact", text, figure=fig.name, enemy=enemy.name, inches=t.contact_inches)


def _move_on_map(ctx: Ctx, fig: SsgFigure, params: MoveOptions) -> None:
    state, t = ctx.state, ctx.t
    if params.contact is not None:
        raise RuleError("On the map the bot sees who comes within 1″: leave contact empty.")
    left = t.move_max_inches - fig.moved
    if left <= EPSILON:
        raise RuleError(f"{fig.name} has already moved {inches(t.move_max_inches)} this turn.")
    plan = on_map.plan(t, state, fig, params, left)
    field = on_map.field_of(state)
    set_point(field, fig.name, plan.end)
    fig.moved = round(fig.moved + plan.used, 6)
    left = max(0.0, t.move_max_inches - fig.moved)
    slowed = f", using {measured(plan.used)} of movement" if plan.used > plan.travelled + 1e-6 else ""
    text = (
        f"{fig.name} moves {measured(plan.travelled)} to {plan.end}{plan.round_words}{slowed} ({measured(left)} left)."
    )
    data = {
        "figure": fig.name,
        "distance": round(plan.travelled, 3),
        "used": round(plan.used, 3),
        "moved": fig.moved,
        "left": left,
        "to": [plan.end.x, plan.end.y],
        "path": [[round(p.x, 4), round(p.y, 4)] for p in plan.path],
        "went_round": list(plan.went_round),
    }
    ctx.say("move", text, **data)
    for enemy in on_map.enemies_within(t, state, fig, t.contact_inches):
        if [fig.name, enemy] in state.contacts or [enemy, fig.name] in state.contacts:
            continue
        state.contacts.append([fig.name, enemy])
        within = inches(t.contact_inches)
        text = f"{fig.name} comes within {within} of {enemy} and stops: they fight in the melee phase."
        ctx.say("contact", text, figure=fig.name, enemy=enemy, inches=t.contact_inches)


def _contact_target(state: SsgState, fig: SsgFigure, wanted: Any) -> SsgFigure | None:
    if blank(wanted):
        return None
    enemy = figure(state, wanted)
    if enemy.side == fig.side:
        raise RuleError(f"{fig.name} cannot be in contact with {enemy.name}: they are on the same side.")
    if enemy.removed:
        raise RuleError(f"{enemy.name} has been removed from play: {fig.name} cannot contact it.")
    return enemy


# --- melee -------------------------------------------------------------------------------------


def melee(ctx: Ctx, params: MeleeOptions) -> None:
    state = ctx.state
    _require_phase(state, "melee", "Melee is fought")
    pair = _pick_pair(state, params.fighter, params.opponent)
    first, second = (figure(state, n) for n in pair)
    mine, theirs = (first, second) if first.side == state.active else (second, first)
    last = ctx.t.ties_rolled_again_at_most + 1
    for round_no in range(1, last + 1):
        a = ctx.dice.roll(D6, f"{mine.name}: melee against {theirs.name}")
        b = ctx.dice.roll(D6, f"{theirs.name}: melee against {mine.name}")
        winner, loser = (mine, theirs) if a > b else (theirs, mine)
        if a != b:
            result = f"{winner.name} wins"
        elif round_no < last:
            result = "tie, roll again"
        else:  # A-SSG-15
            result = (
                f"tie again, {plural(round_no, 'tie')} running: the duel is undecided; "
                "they stay in contact and fight it again with /ssg melee"
            )
        ctx.say(
            "melee",
            f"Melee: {mine.name} {a}, {theirs.name} {b}: {result}.",
            fighter=mine.name,
            opponent=theirs.name,
            round=round_no,
            rolls={mine.name: a, theirs.name: b},
            winner=None if a == b else winner.name,
        )
        if a != b:
            break
    else:
        return
    if _remove(ctx, loser, winner.name) or state.contacts:
        return
    text = "All melees are resolved: shoot with /ssg shoot, or end the melee phase with /ssg next."
    ctx.say("melee-over", text, turn=state.turn, side=state.active)


def _pick_pair(state: SsgState, fighter: Any, opponent: Any) -> list[str]:
    """A-SSG-1: the active player chooses which pair fights; by default the first contact made."""
    if not state.contacts:
        raise RuleError("No figures are in contact: end the melee phase with /ssg next.")
    names = [figure(state, n) for n in (fighter, opponent) if n is not None and str(n).strip()]
    for fig in names:
        if fig.removed:
            raise RuleError(f"{fig.name} has been removed from play.")
    matching = [p for p in state.contacts if all(f.name in p for f in names)]
    if matching:
        return matching[0]
    if len(names) == 2 and names[0].name != names[1].name:
        raise RuleError(f"{names[0].name} and {names[1].name} are not in contact.")
    raise RuleError(f"{names[0].name} is not in contact with an enemy figure.")


# --- removal and victory -----------------------------------------------------------------------


def _remove(ctx: Ctx, fig: SsgFigure, by: str) -> bool:
    """Remove ``fig``; True when that ends the game (A-SSG-5: checked at once)."""
    state = ctx.state
    fig.removed = True
    fig.removed_by = by
    state.contacts = [p for p in state.contacts if fig.name not in p]
    ctx.tell(CasualtyPayload(fig.name, fig.side, by), f"{fig.name} ({fig.side}) is removed from play by {by}.")
    down = lost(state, fig.side)
    if down < ctx.t.victory_removed:
        return False
    state.winner = other_side(state, fig.side)
    state.phase = "over"
    text = f"{state.winner} wins: {down} of {fig.side}'s figures have been removed."
    ctx.tell(VictoryPayload(state.winner, fig.side), text, removed=down)
    return True


# --- shooting ----------------------------------------------------------------------------------


def shoot(ctx: Ctx, params: ShootOptions) -> None:
    state = ctx.state
    if state.phase == "melee" and not state.contacts:
        _begin_shooting(ctx)
    _require_phase(state, "shooting", "Figures shoot")
    shooter = _own_figure(state, params.shooter, "shoot")
    if shooter.shot:
        raise RuleError(f"{shooter.name} has already shot this turn: each figure shoots once per turn.")
    weapon = ctx.t.weapons[shooter.weapon]
    groups = _volley(ctx.t, state, shooter, weapon, params)
    shooter.shot = True
    _fire(ctx, shooter, weapon, groups)


def _volley(t: SsgTables, state: SsgState, shooter: SsgFigure, weapon: Weapon, params: ShootOptions) -> list[_Group]:
    """Every target group declared, checked and given its dice before any die is rolled."""
    raw = _raw_groups(params)
    if len(raw) > weapon.rof:
        raise RuleError(
            f"{shooter.name}'s {shooter.weapon} has ROF {weapon.rof}: "
            f"it can fire at no more than {plural(weapon.rof, 'target')}."
        )
    counts = _allocate(shooter, weapon, raw)
    groups = [
        _group(t, state, shooter, weapon, suffix, values, count)
        for (suffix, values), count in zip(raw, counts, strict=True)
    ]
    targets = [g.target for g in groups]
    for name in targets:
        if targets.count(name) > 1:
            raise RuleError(f"{name} is named twice: give all the dice for one target in one group.")
    return groups


def _raw_groups(params: ShootOptions) -> list[tuple[str, dict[str, Any]]]:
    raw = []
    for suffix in ("", "2", "3"):
        values = {k: getattr(params, f"{k}{suffix}", None) for k in ("target", "range", "los", "dice")}
        if blank(values["target"]):
            extra = [f"{k}{suffix}" for k in ("range", "los", "dice") if values[k] is not None]
            if extra:
                raise RuleError(f"{extra[0]} was given without target{suffix}.")
            continue
        raw.append((suffix, values))
    return raw


def _allocate(shooter: SsgFigure, weapon: Weapon, raw: list[tuple[str, dict[str, Any]]]) -> list[int]:
    """Dice per group: one group may omit them (all the ROF); with several only the last may."""
    message = "Give the number of dice as a whole number."
    given = [None if v["dice"] is None else whole(v["dice"], message) for _, v in raw]
    for (suffix, _), count in zip(raw[:-1], given[:-1], strict=True):
        if count is None:
            raise RuleError(f"With several targets, give dice{suffix} for each target but the last.")
    if given[-1] is None:
        given[-1] = weapon.rof - sum(c for c in given[:-1] if c is not None)
    counts = [int(c) for c in given if c is not None]
    for (_, values), count in zip(raw, counts, strict=True):
        if count < 1:
            raise RuleError(f"Each target needs at least 1 die: {values['target']} would get {count}.")
    total = sum(counts)
    if total > weapon.rof:
        raise RuleError(
            f"{shooter.name}'s {shooter.weapon} has ROF {weapon.rof}: {plural(total, 'die', 'dice')} are too many."
        )
    return counts


def _group(
    t: SsgTables,
    state: SsgState,
    shooter: SsgFigure,
    weapon: Weapon,
    suffix: str,
    values: Mapping[str, Any],
    count: int,
) -> _Group:
    target = figure(state, values["target"])
    if target is shooter:
        raise RuleError(f"{shooter.name} cannot shoot at itself: name an enemy figure.")
    if target.side == shooter.side:
        raise RuleError(f"{target.name} is on {shooter.name}'s own side: shoot at an enemy figure.")
    if target.removed:
        raise RuleError(f"{target.name} has already been removed from play.")
    if state.field is not None:
        return _measured_group(t, state, shooter, target, weapon, suffix, values, count)
    los = _reported_los(shooter, target, suffix, values["los"])
    if los == "blocked":
        raise RuleError(f"{shooter.name} has no line of sight to {target.name}, so cannot shoot at it.")
    distance = number(values["range"], f"Give the range from {shooter.name} to {target.name} in inches.")
    if distance <= 0:
        raise RuleError(f"Give the range from {shooter.name} to {target.name} as more than 0″.")
    if distance > weapon.long:
        raise RuleError(
            f"{target.name} is out of range: {shooter.name}'s {shooter.weapon} reaches "
            f"{inches(weapon.long)}, not {inches(distance)}."
        )
    return _Group(target=target.name, range=distance, los=los, dice=count, suffix=suffix)


def _reported_los(shooter: SsgFigure, target: SsgFigure, suffix: str, los: Any) -> str:
    """At a table the players judge the sight line (A-SSG-6); the bot never assumes it is clear."""
    seen = los.strip().casefold() if isinstance(los, str) else los
    if seen in LOS_VALUES:
        return str(seen)
    options = ", ".join(f"los{suffix}:{value}" for value in LOS_VALUES)
    raise RuleError(f"Say what {shooter.name} sees of {target.name} on your table: {options} (partial costs −1).")


def _measured_group(
    t: SsgTables,
    state: SsgState,
    shooter: SsgFigure,
    target: SsgFigure,
    weapon: Weapon,
    suffix: str,
    values: Mapping[str, Any],
    count: int,
) -> _Group:
    """A target on the map: range centre to centre (A-SSG-4), sight as A-SSG-6 reads it."""
    if values["range"] is not None or values["los"] is not None:
        raise RuleError("On the map the bot measures range and line of sight: leave range and los empty.")
    distance, seen = on_map.measured(t, state, shooter, target)
    if distance > weapon.long + EPSILON:
        raise RuleError(
            f"{target.name} is out of range: {measured_against(distance, weapon.long)} away, and {shooter.name}'s {shooter.weapon} "
            f"reaches {inches(weapon.long)}."
        )
    why = seen.describe(target.name)
    if seen.kind == "blocked":
        raise RuleError(f"{shooter.name} has no line of sight to {target.name} ({why}), so cannot shoot at it.")
    text = f"{measured(distance)}, {why}"
    return _Group(target.name, round(distance, 3), seen.kind, count, suffix, text)


def _modifiers(t: SsgTables, weapon: Weapon, group: _Group) -> list[tuple[str, int]]:
    """A-SSG-2: beyond short range means short < d <= long."""
    drm = t.drm
    mods = [("partial_los", drm.partial_los) if group.los == "partial" else ("clear_los", drm.clear_los)]
    if group.range > weapon.short:
        mods.append(("beyond_short_range", drm.beyond_short_range))
    return [(key, value) for key, value in mods if value != 0]


def _fire(ctx: Ctx, shooter: SsgFigure, weapon: Weapon, groups: list[_Group]) -> None:
    total = sum(g.dice for g in groups)
    count = 0
    for group in groups:
        mods = _modifiers(ctx.t, weapon, group)
        for _ in range(group.dice):
            count += 1
            natural = ctx.dice.roll(D6, f"{shooter.name}: shot {count} of {total} at {group.target}")
            if _one_shot(ctx, shooter, group, mods, natural, count, total):
                ctx.events[-1] = _with_unrolled(ctx.events[-1], total - count)
                return


def _one_shot(
    ctx: Ctx,
    shooter: SsgFigure,
    group: _Group,
    mods: list[tuple[str, int]],
    natural: int,
    count: int,
    total: int,
) -> bool:
    """One die at one target (A-SSG-3: no automatic hits); True when the game ends."""
    target = figure(ctx.state, group.target)
    modifier = sum(v for _, v in mods)
    score = natural + modifier
    need = ctx.t.hit_if_modified_d6_at_least
    hit = score >= need
    already = hit and target.removed
    result = "miss" if not hit else (f"hit, but {target.name} is already out" if already else "hit")
    sums = "".join(f" {'−' if v < 0 else '+'} {abs(v)} ({LOS_LABELS[k]})" for k, v in mods)
    calc = f"{natural}{sums} = {score}" if mods else f"{natural}"
    which = f" (die {count} of {total})" if total > 1 else ""
    if group.measured:
        which = f" ({group.measured}{'; die ' + str(count) + ' of ' + str(total) if total > 1 else ''})"
    ctx.say(
        "shot",
        f"{shooter.name} fires at {target.name}{which}: {calc}, needs {need}: {result}.",
        shooter=shooter.name,
        target=target.name,
        die=count,
        of=total,
        range=group.range,
        los=group.los,
        **({"measured": group.measured} if group.measured else {}),
        natural=natural,
        roll=natural,
        modifiers=modifier_data((LOS_LABELS[k], v) for k, v in mods),
        modifier=modifier,
        total=score,
        needed=need,
        hit=hit,
        effect="miss" if not hit else ("already removed" if already else "removed"),
    )
    if hit and not already:
        return _remove(ctx, target, shooter.name)
    return False


def _with_unrolled(victory: Event, unrolled: int) -> Event:
    if unrolled <= 0:
        return Event(victory.kind, victory.text, {**victory.data, "unrolled": 0})
    text = f"{victory.text} The remaining {unrolled} dice are not rolled."
    if unrolled == 1:
        text = f"{victory.text} The remaining die is not rolled."
    return Event(victory.kind, text, {**victory.data, "unrolled": unrolled})
