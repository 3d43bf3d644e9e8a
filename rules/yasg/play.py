"""The turn (RULES-NOTES.md 1.1, 1.3): morale, movement with initiative, simultaneous fire, close combat.

Morale and close combat are rolled for every figure at once by one ``next``; fire is one command
per firer, rolled at once, its damage kept until the fire phase ends (A-YASG-16).
"""

from __future__ import annotations

import itertools
from typing import Any

from rules.core import CasualtyPayload, DiceSource, Event, RuleError, VictoryPayload, WoundPayload, modifier_data
from rules.specs import NoParams
from rules.words import joined, plural
from rules.yasg.board import Field, adjacent, facing_towards, parse_path, side_towards, square_name
from rules.yasg.common import Ctx, facing, figure, own_figure, phase_event, side_of
from rules.yasg.data import D6, D10
from rules.yasg.judge import Judge, Shot, field_of
from rules.yasg.options import EngageOptions, FaceOptions, FireOptions, LoadOptions, LookOptions, MoveOptions
from rules.yasg.state import PendingHit, YasgFigure, YasgState

RESULT_WORDS = {"killed": "killed", "serious": "a serious wound", "minor": "a minor wound"}


# --- helpers


# --- helpers


def _require(state: YasgState, phase: str, doing: str) -> None:
    if state.phase != phase:
        raise RuleError(f"{doing} in the {phase} phase; it is the {state.phase} phase now.")


def _field(ctx: Ctx, state: YasgState) -> Field:
    return field_of(ctx.t, state)


def whose_turn(state: YasgState) -> str | None:
    if state.phase == "over":
        return None
    if state.phase == "setup":
        waiting = [s for s in state.sides if any(f.side == s and f.square is None for f in state.figures)]
        return (waiting or state.sides)[0]
    if state.phase == "movement":
        return state.mover
    if state.phase in ("fire", "close combat"):
        order = state.initiative or state.sides
        return next((s for s in order if s not in state.done), order[0])
    return (state.initiative or state.sides)[0]


# --- movement phase


def move(ctx: Ctx, params: MoveOptions) -> None:
    state, side, by_gm, dice = ctx.state, ctx.side, ctx.by_gm, ctx.dice
    _require(state, "movement", "Figures move")
    fig = _mover_figure(ctx, state, params.figure, side, by_gm, "move")
    check_can_move(ctx.judge, state, fig)
    field = _field(ctx, state)
    path, cost, why = _plan(ctx, state, field, fig, params.to, params.pace)
    pace = _pace(ctx, fig, cost, why, params.pace)
    turn_to = facing(params.facing) or facing_towards(path[-2], path[-1])
    ran = pace == "run"
    events = [_move_event(ctx, fig, path, cost, why, pace, (fig.facing, turn_to))]
    fig.x, fig.y = path[-1]
    fig.facing = turn_to
    fig.moved, fig.ran = cost, ran
    if ran:
        events.append(_fall_roll(ctx, state, fig, dice))
    if fig.leader:
        events.extend(_rally(ctx, state, fig))
    ctx.events.extend(events)


def _mover_figure(ctx: Ctx, state: YasgState, wanted: Any, side: str | None, by_gm: bool, doing: str) -> YasgFigure:
    fig = own_figure(state, wanted, side, by_gm, doing)
    if fig.side != state.mover:
        raise RuleError(f"{fig.name} fights for {fig.side}, but {state.mover} are moving now: wait for /yasg next.")
    return fig


def ready(judge: Judge, state: YasgState, side: str) -> list[str]:
    """``side``'s figures that may still move, while it is moving, or still fire, until it is done."""
    mine = [f for f in state.figures if f.side == side and not f.out]
    if state.phase == "movement" and side == state.mover:
        return [f.name for f in mine if _may_move(judge, state, f)]
    if state.phase == "fire" and side not in state.done:
        return [f.name for f in mine if judge.why_cannot_fire(state, f) is None]
    return []


def _may_move(judge: Judge, state: YasgState, fig: YasgFigure) -> bool:
    try:
        check_can_move(judge, state, fig)
    except RuleError:
        return False
    return True


def check_can_move(judge: Judge, state: YasgState, fig: YasgFigure) -> None:
    if fig.moved:
        raise RuleError(f"{fig.name} has already moved this turn.")
    if fig.pinned:
        raise RuleError(
            f"{fig.name} is pinned: it may not move until its Leader comes next to it or it passes a morale test."
        )
    if fig.rallied:
        raise RuleError(f"{fig.name} was rallied by its Leader this phase: it may move again next turn.")
    if judge.fallen(fig, state.turn):
        raise RuleError(f"{fig.name} has fallen and spends this turn getting up.")
    if fig.weapon_state == "misfired" and fig.weapon_turn < state.turn:
        raise RuleError(f"{fig.name} is clearing its misfire this turn and may not move.")
    if fig.loading:
        raise RuleError(f"{fig.name} is loading this turn and may not move.")


def _plan(
    ctx: Ctx, state: YasgState, field: Field, fig: YasgFigure, to: str, pace: str | None
) -> tuple[list[tuple[int, int]], int, list[str]]:
    """The path the figure takes (a destination is routed through sides), its cost and why."""
    start = fig.square
    assert start is not None
    squares = parse_path(to, state.width, state.height)
    if len(squares) > 1 and squares[0] == start:
        squares = squares[1:]
    through = ctx.t.movement.pass_through_friends
    goal = squares[-1]
    if goal == start:
        raise RuleError(f"{fig.name} is already at {square_name(start)}.")
    who = field.occupants.get(goal)
    if who is not None:
        raise RuleError(f"{square_name(goal)} is taken by {who[0]}: a square holds one figure.")
    if len(squares) == 1:
        reach = ctx.t.movement.walk if pace == "walk" else ctx.t.movement.run
        path = field.route(start, goal, fig.side, reach, through)
        if path is None:
            _unreachable(ctx, field, fig, start, goal, reach, through)
    else:
        path = [start, *squares]
        for a, b in itertools.pairwise(path):
            if not adjacent(a, b):
                raise RuleError(
                    f"{square_name(a)} to {square_name(b)} is not a step through a side: "
                    f"name each square of the path, like C4 C5 D5."
                )
        for square in path[1:-1]:
            if not field.passable(square, fig.side, through):
                raise RuleError(
                    f"{fig.name} cannot pass through {square_name(square)}: {field.occupants[square][0]} stands there."
                )
    assert path is not None
    cost, why = field.path_cost(path)
    return path, cost, why


def _unreachable(
    ctx: Ctx, field: Field, fig: YasgFigure, start: tuple[int, int], goal: tuple[int, int], reach: int, through: bool
) -> None:
    far = field.route(start, goal, fig.side, 10 * (field.width + field.height), through)
    if far is None:
        raise RuleError(f"{fig.name} cannot reach {square_name(goal)}: the way is blocked.")
    cost, why = field.path_cost(far)
    extra = f" ({joined(sorted(set(why)))})" if why else ""
    mv = ctx.t.movement
    if reach == mv.walk and reach < mv.run:
        hint = ": run instead" if cost <= mv.run else ""
        raise RuleError(
            f"{square_name(goal)} costs {fig.name} {plural(cost, 'square')} of movement{extra}; a walk is {reach}{hint}."
        )
    raise RuleError(
        f"{square_name(goal)} costs {fig.name} {plural(cost, 'square')} of movement{extra}; "
        f"it can go {plural(reach, 'square')} this turn."
    )


def _pace(ctx: Ctx, fig: YasgFigure, cost: int, why: list[str], wanted: str | None) -> str:
    mv = ctx.t.movement
    pace = wanted or ("walk" if cost <= mv.walk else "run")
    reach = mv.walk if pace == "walk" else mv.run
    if cost > reach:
        extra = f" ({joined(sorted(set(why)))})" if why else ""
        hint = ": run instead" if pace == "walk" and cost <= mv.run else ""
        raise RuleError(f"That move costs {fig.name} {plural(cost, 'square')}{extra}; a {pace} is {reach}{hint}.")
    return pace


def _move_event(
    ctx: Ctx,
    fig: YasgFigure,
    path: list[tuple[int, int]],
    cost: int,
    why: list[str],
    pace: str,
    turn: tuple[str, str],
) -> Event:
    """The move said, with the turn it makes when it ends facing another way (``turn``: from, to)."""
    was, turn_to = turn
    mv = ctx.t.movement
    allowance = mv.run_and_fire if pace == "run" else mv.walk_and_fire
    fire = "may still fire" if cost <= allowance else "may not fire this turn"
    extra = f", {joined(why)}" if why else ""
    route = " → ".join(square_name(sq) for sq in path)
    verb = "runs" if pace == "run" else "walks"
    facing_now = (
        f"turning from {was.upper()} to face {turn_to.upper()}" if was != turn_to else f"facing {turn_to.upper()}"
    )
    text = f"{fig.name} {verb} {route} ({plural(cost, 'square')}{extra}), {facing_now}; it {fire}"
    shaken = ctx.judge.shaken_effects() if pace == "run" else ""
    text += f", and is shaken next turn ({shaken})." if shaken else "."
    if fig.weapon_state == "empty" and ctx.t.load_automatically:
        text += f" Its {fig.weapon} stays empty this turn."
    data = {
        "figure": fig.name,
        "path": [square_name(sq) for sq in path],
        "cost": cost,
        "pace": pace,
        "facing": turn_to,
        "turned_from": was if was != turn_to else None,
        "may_fire": cost <= allowance,
    }
    return Event("move", text, data)


def _fall_roll(ctx: Ctx, state: YasgState, fig: YasgFigure, dice: DiceSource) -> Event:
    falls = ctx.t.movement.fall_on_d10
    roll = dice.roll(D10, f"{fig.name}: ran, falls on {joined([str(f) for f in falls], 'or')}")
    fell = roll in falls
    if fell:
        fig.fallen_until = state.turn + 1
        text = f"{fig.name} rolls {roll} after running: falls, and spends next turn getting up."
    else:
        text = f"{fig.name} rolls {roll} after running: stays on its feet."
    return Event("fall" if fell else "run", text, {"figure": fig.name, "roll": roll, "fell": fell})


def _rally(ctx: Ctx, state: YasgState, leader: YasgFigure) -> list[Event]:
    """A-YASG-9: the Leader ending its move next to pinned figures of its side unpins them."""
    events = []
    for fig in state.figures:
        if fig.side != leader.side or not fig.pinned or fig.out or fig.square is None or leader.square is None:
            continue
        if adjacent(fig.square, leader.square):
            fig.pinned, fig.rallied = False, True
            text = f"{leader.name}, the Leader, rallies {fig.name}: no longer pinned (it may move again next turn)."
            events.append(Event("rally", text, {"leader": leader.name, "figure": fig.name}))
    return events


def face(ctx: Ctx, params: FaceOptions) -> None:
    state, side, by_gm = ctx.state, ctx.side, ctx.by_gm
    _require(state, "movement", "Figures turn")
    fig = _mover_figure(ctx, state, params.figure, side, by_gm, "turn")
    if ctx.judge.fallen(fig, state.turn):
        raise RuleError(f"{fig.name} has fallen and spends this turn getting up.")
    turn_to = facing(params.facing)
    assert turn_to is not None  # a required option
    assert fig.square is not None  # a figure of the side moving stands on the board
    fig.facing = turn_to
    text = f"{fig.name} faces {turn_to.upper()} at {square_name(fig.square)}."
    ctx.say("face", text, figure=fig.name, facing=turn_to)


def load(ctx: Ctx, params: LoadOptions) -> None:
    state, side, by_gm = ctx.state, ctx.side, ctx.by_gm
    if state.phase == "movement":
        fig = _mover_figure(ctx, state, params.figure, side, by_gm, "load")
    elif state.phase == "fire":
        fig = own_figure(state, params.figure, side, by_gm, "load")
    else:
        raise RuleError(f"Figures begin loading in the movement or fire phase; it is the {state.phase} phase now.")
    if not ctx.t.weapons[fig.weapon].fires:
        raise RuleError(f"{fig.name} carries a {fig.weapon}, which needs no loading.")
    if fig.weapon_state == "loaded":
        raise RuleError(f"{fig.name}'s {fig.weapon} is already loaded.")
    if fig.weapon_turn >= state.turn:
        raise RuleError(f"{fig.name} fired this turn: it can load next turn.")
    if fig.loading:
        raise RuleError(f"{fig.name} is already loading this turn.")
    if fig.moved:
        raise RuleError(f"{fig.name} has moved this turn: loading takes a whole turn without moving.")
    if ctx.judge.fallen(fig, state.turn):
        raise RuleError(f"{fig.name} has fallen and spends this turn getting up.")
    fig.loading = True
    doing = "clears its misfire" if fig.weapon_state == "misfired" else f"loads its {fig.weapon}"
    text = f"{fig.name} {doing} this turn: it may not move, and close combat would spoil it."
    ctx.say("load", text, figure=fig.name)


# --- fire phase


def fire(ctx: Ctx, params: FireOptions) -> None:
    state, side, by_gm, dice = ctx.state, ctx.side, ctx.by_gm, ctx.dice
    _require(state, "fire", "Figures fire")
    fig = own_figure(state, params.figure, side, by_gm, "fire")
    why = ctx.judge.why_cannot_fire(state, fig)
    if why:
        raise RuleError(f"{fig.name} {why}.")
    if fig.side in state.done:
        raise RuleError(f"{fig.side} have finished firing this turn.")
    target = figure(state, params.target, "the figure to fire at")
    field = _field(ctx, state)
    shot = ctx.judge.shot(state, field, fig, target)
    if shot.need > D10:
        raise RuleError(
            f"{fig.name} cannot hit {target.name} ({_shot_terms(ctx, shot)}): it would need {shot.need} on a d10."
        )
    events = _resolve_shot(ctx, state, fig, target, shot, dice)
    events.extend(_fire_progress(ctx, state, field))
    ctx.events.extend(events)


def _shot_terms(ctx: Ctx, shot: Shot) -> str:
    parts = [f"{plural(shot.squares, 'square')}, {shot.band} range", f"class {ctx.judge.letter(shot.firer_class)}"]
    parts += [f"{name} +{value}" for name, value in shot.modifiers]
    return "; ".join(parts)


def _resolve_shot(
    ctx: Ctx, state: YasgState, fig: YasgFigure, target: YasgFigure, shot: Shot, dice: DiceSource
) -> list[Event]:
    """Dice order: d6 misfire, d10 to hit, d10 damage on a hit (A-YASG-13)."""
    fig.fired, fig.weapon_turn = True, state.turn
    misfires = ctx.t.misfire_on_d6
    check = dice.roll(D6, f"{fig.name}: {fig.weapon}, misfires on {joined([str(m) for m in misfires], 'or')}")
    data: dict[str, Any] = {
        "figure": fig.name,
        "target": target.name,
        "squares": shot.squares,
        "band": shot.band,
        "class": ctx.judge.letter(shot.firer_class),
        "modifiers": modifier_data(shot.modifiers),
        "needed": shot.need,
        "misfire_roll": check,
    }
    if check in misfires:
        fig.weapon_state = "misfired"
        text = f"{fig.name}'s {fig.weapon} misfires ({check} on the d6): no shot; it spends next turn clearing it."
        return [Event("misfire", text, {**data, "misfire": True})]
    fig.weapon_state = "empty"
    roll = dice.roll(D10, f"{fig.name}: shot at {target.name}, hits on {shot.need}+")
    hit = roll >= shot.need
    text = f"{fig.name} fires at {target.name} ({_shot_terms(ctx, shot)}): needs {shot.need}, rolls {roll}: "
    data.update(roll=roll, hit=hit)
    if not hit:
        return [Event("fire", text + "miss.", data)]
    face = dice.roll(D10, f"{fig.name}: damage to {target.name}")
    result = ctx.judge.damage(face)
    state.hits.append(PendingHit(target.name, fig.name, result, f"shot by {fig.name}"))
    data.update(damage_roll=face, result=result)
    text += f"hit; damage {face}: {RESULT_WORDS[result]} (taken when the fire phase ends)."
    return [Event("fire", text, data)]


def _fire_progress(ctx: Ctx, state: YasgState, field: Field) -> list[Event]:
    """Sides with nothing left to fire at are done; when every side is, the phase ends."""
    events = []
    for side in state.sides:
        if side in state.done:
            continue
        if not any(ctx.judge.can_fire_now(state, field, f) for f in state.figures if f.side == side):
            state.done.append(side)
            events.append(Event("done", f"{side.title()} have no more shots this turn.", {"side": side}))
    if len(state.done) == len(state.sides):
        events.extend(_end_fire(ctx, state))
    return events


def _not_firing(ctx: Ctx, state: YasgState, fig: YasgFigure) -> str:
    """Why a standing figure has no shot this fire phase, in a few words (figures grouped by it)."""
    mv = ctx.t.movement
    if fig.moved > (mv.run_and_fire if fig.ran else mv.walk_and_fire):
        return "moved too far to fire"
    return ctx.judge.why_cannot_fire(state, fig) or "no enemy in arc and range"


def _start_fire(ctx: Ctx, state: YasgState) -> list[Event]:
    state.phase, state.mover, state.done = "fire", None, []
    field = _field(ctx, state)
    able = {
        s: [f.name for f in state.figures if f.side == s and ctx.judge.can_fire_now(state, field, f)]
        for s in state.sides
    }
    if not any(able.values()):
        why: dict[str, list[str]] = {}
        for f in state.figures:
            if f.standing:
                why.setdefault(_not_firing(ctx, state, f), []).append(f.name)
        said = "; ".join(f"{joined(names)}: {reason}" for reason, names in why.items())
        text = f"Turn {state.turn} · fire phase: no figure can fire ({said})."
        return [phase_event(state, text), *_end_fire(ctx, state)]
    order = state.initiative or state.sides
    lines = [f"{s.title()}: {joined(able[s]) if able[s] else 'no shots'}" for s in order]
    text = f"Turn {state.turn} · fire phase (simultaneous). Able to fire — {'; '.join(lines)}. Each side ends with /yasg next."
    events = [phase_event(state, text, able=able)]
    for side in order:
        if not able[side]:
            state.done.append(side)
    return events


def _end_fire(ctx: Ctx, state: YasgState) -> list[Event]:
    events = _apply_hits(ctx, state, "fire")
    if _check_end(ctx, state, events):
        return events
    return events + _start_close_combat(ctx, state)


# --- wounds and the end of the game


def _apply_hits(ctx: Ctx, state: YasgState, phase: str) -> list[Event]:
    """Every hit of a simultaneous phase, taken at once (A-YASG-16)."""
    events: list[Event] = []
    w = ctx.t.wounds
    for hit in state.hits:
        fig = figure(state, hit.target)
        if fig.out:
            text = f"{fig.name} is already out: {hit.how} changes nothing."
            events.append(Event("hits", text, {"figure": fig.name, "by": hit.by, "result": hit.result}))
            continue
        if hit.result == "killed":
            fig.out, fig.out_by = True, hit.by
            text = f"{fig.name} is killed ({hit.how})."
            events.append(CasualtyPayload(fig.name, fig.side, hit.by).event(text, result="killed"))
            continue
        points = w.serious_points if hit.result == "serious" else w.minor_points
        fig.wounds += points
        if fig.wounds > w.out_when_points_exceed:
            fig.out, fig.out_by = True, hit.by
            text = (
                f"{fig.name} takes {RESULT_WORDS[hit.result]} ({hit.how}): {fig.wounds} wound points, out of the fight."
            )
            events.append(CasualtyPayload(fig.name, fig.side, hit.by).event(text, result=hit.result, wounds=fig.wounds))
            continue
        letter = ctx.judge.letter(ctx.judge.current_class(fig))
        text = f"{fig.name} takes {RESULT_WORDS[hit.result]} ({hit.how}): {plural(fig.wounds, 'wound point')}, now class {letter}."
        wound = WoundPayload(fig.name, fig.side, hit.by, outcome=hit.result)
        events.append(wound.event(text, result=hit.result, wounds=fig.wounds, **{"class": letter}))
    state.hits = []
    if not events:
        events.append(Event("hits", f"No hits to take from the {phase} phase.", {}))
    return events


def _check_end(ctx: Ctx, state: YasgState, events: list[Event]) -> bool:
    """The game ends when a side has no figure left in the fight (both at once: a draw)."""
    left = [s for s in state.sides if any(f.side == s and f.standing for f in state.figures)]
    if len(left) == len(state.sides):
        return False
    state.phase, state.mover, state.done = "over", None, []
    if left:
        state.winner = left[0]
        loser = next(s for s in state.sides if s != state.winner)
        text = f"{state.winner.title()} win: the last of {loser}'s figures is out of the fight."
        events.append(VictoryPayload(state.winner, loser).event(text))
    else:
        state.result = "draw"
        events.append(Event("game over", "A draw: the last figures of both sides fell together.", {"winner": None}))
    return True


# --- close combat phase


def _pairs(ctx: Ctx, state: YasgState, field: Field) -> dict[str, list[YasgFigure]]:
    found = {f.name: ctx.judge.contacts(state, field, f) for f in state.figures if f.standing}
    return {name: enemies for name, enemies in found.items() if enemies}


def _start_close_combat(ctx: Ctx, state: YasgState) -> list[Event]:
    field = _field(ctx, state)
    pairs = _pairs(ctx, state, field)
    if not pairs:
        events = [Event("close combat", "No figures are in contact: no close combat this turn.", {})]
        return events + _end_turn(ctx, state)
    state.phase, state.done = "close combat", []
    lines = [
        f"{name} → {enemies[0].name}"
        + (f" (or {joined([e.name for e in enemies[1:]], 'or')})" if len(enemies) > 1 else "")
        for name, enemies in pairs.items()
    ]
    choosers = {figure(state, n).side for n, e in pairs.items() if len(e) > 1}
    for side in state.initiative or state.sides:
        if side not in choosers:
            state.done.append(side)
    hint = (
        "choose other targets with /yasg engage, then " if choosers else ""
    ) + "/yasg next rolls every fight at once"
    text = f"Turn {state.turn} · close combat phase: {'; '.join(lines)}. {hint.capitalize()}."
    return [phase_event(state, text, pairs={n: [e.name for e in es] for n, es in pairs.items()})]


def engage(ctx: Ctx, params: EngageOptions) -> None:
    state, side, by_gm = ctx.state, ctx.side, ctx.by_gm
    _require(state, "close combat", "Close-combat targets are chosen")
    fig = own_figure(state, params.figure, side, by_gm, "choose targets for")
    enemy = figure(state, params.target, "the enemy it fights")
    field = _field(ctx, state)
    contacts = ctx.judge.contacts(state, field, fig)
    if enemy not in contacts:
        there = joined([e.name for e in contacts], "or") or "no enemy"
        raise RuleError(
            f"{fig.name} ({_where(fig)}) is not adjacent to {enemy.name} ({_where(enemy)}): it can fight {there}."
        )
    if fig.side in state.done:
        raise RuleError(f"{fig.side} are done with the close combat phase: their targets are set.")
    fig.engage = enemy.name
    ctx.say("engage", f"{fig.name} will fight {enemy.name}.", figure=fig.name, target=enemy.name)


def _where(fig: YasgFigure) -> str:
    return square_name(fig.square) if fig.square else "off the board"


def _close_combat(ctx: Ctx, state: YasgState, dice: DiceSource) -> list[Event]:
    """Dice order: per figure in the list, d10 to hit then d10 damage on a hit (A-YASG-14, -16)."""
    field = _field(ctx, state)
    events = [phase_event(state, f"Turn {state.turn} · close combat, every fight at once:")]
    for fig in state.figures:
        if not fig.standing:
            continue
        contacts = ctx.judge.contacts(state, field, fig)
        if not contacts:
            continue
        fig.in_combat = True
        enemy = next((e for e in contacts if e.name == fig.engage), contacts[0])
        events.append(_fight(ctx, state, field, fig, enemy, dice))
    events.extend(_apply_hits(ctx, state, "close combat"))
    if _check_end(ctx, state, events):
        return events
    return events + _end_turn(ctx, state)


def _fight(ctx: Ctx, state: YasgState, field: Field, fig: YasgFigure, enemy: YasgFigure, dice: DiceSource) -> Event:
    number, why = ctx.judge.combat_class(state, field, fig, enemy)
    need = ctx.judge.combat_need(number)
    letter = ctx.judge.letter(number)
    terms = ", ".join([f"class {letter}", *why])
    data: dict[str, Any] = {"figure": fig.name, "target": enemy.name, "class": letter, "needed": need, "why": why}
    if need > D10:
        return Event("fight", f"{fig.name} fights {enemy.name} ({terms}): cannot hit.", {**data, "hit": False})
    roll = dice.roll(D10, f"{fig.name}: close combat with {enemy.name}, hits on {need}+")
    data.update(roll=roll, hit=roll >= need)
    text = f"{fig.name} fights {enemy.name} ({terms}): needs {need}, rolls {roll}: "
    if roll < need:
        return Event("fight", text + "miss.", data)
    face = dice.roll(D10, f"{fig.name}: damage to {enemy.name}")
    result = ctx.judge.damage(face)
    state.hits.append(PendingHit(enemy.name, fig.name, result, f"in close combat with {fig.name}"))
    data.update(damage_roll=face, result=result)
    return Event("fight", text + f"hit; damage {face}: {RESULT_WORDS[result]}.", data)


# --- the end of a turn, morale and initiative


def _end_turn(ctx: Ctx, state: YasgState) -> list[Event]:
    events: list[Event] = []
    for fig in state.figures:
        if not fig.standing:
            continue
        events.extend(_loading_result(ctx, state, fig))
        if fig.fallen_until == state.turn:
            events.append(Event("up", f"{fig.name} is back on its feet.", {"figure": fig.name}))
        fig.shaken = fig.ran
        fig.moved, fig.ran, fig.fired, fig.loading, fig.rallied, fig.in_combat, fig.engage = (
            0,
            False,
            False,
            False,
            False,
            False,
            None,
        )
    state.turn += 1
    state.phase, state.mover, state.done, state.initiative = "morale", None, [], []
    events.append(
        phase_event(
            state, f"Turn {state.turn} · morale phase: /yasg next rolls morale for every figure that must test."
        )
    )
    return events


def _loading_result(ctx: Ctx, state: YasgState, fig: YasgFigure) -> list[Event]:
    """A-YASG-12, -13, -17: a clean turn (no move, no close combat, on its feet) loads or clears."""
    if fig.weapon_state == "loaded" or fig.weapon_turn >= state.turn:
        return []
    misfired = fig.weapon_state == "misfired"
    if not (misfired or fig.loading or ctx.t.load_automatically):
        return []
    spoiled = (
        "it moved"
        if fig.moved
        else "it was in close combat"
        if fig.in_combat
        else "it was getting up"
        if ctx.judge.fallen(fig, state.turn)
        else None
    )
    doing = "clear its misfire" if misfired else "load"
    if spoiled:
        if misfired or fig.loading or fig.in_combat:
            return [Event("load", f"{fig.name} could not {doing}: {spoiled}.", {"figure": fig.name, "loaded": False})]
        return []
    fig.weapon_state = "loaded"
    text = (
        f"{fig.name} has cleared its misfire and reloaded." if misfired else f"{fig.name} has loaded its {fig.weapon}."
    )
    return [Event("load", text, {"figure": fig.name, "loaded": True})]


def _morale(ctx: Ctx, state: YasgState, dice: DiceSource) -> list[Event]:
    """Dice order: one d10 per testing figure, in the order of the list; then initiative."""
    events = [phase_event(state, f"Turn {state.turn} · morale phase.")]
    tested = 0
    for fig in state.figures:
        if not fig.standing:
            continue
        reason = ctx.judge.must_test(state, fig)
        if reason is None:
            continue
        tested += 1
        number, why = ctx.judge.morale_class(fig)
        need = ctx.judge.morale_need(number)
        letter = ctx.judge.letter(number)
        roll = dice.roll(D10, f"{fig.name}: morale, passes above {need} (class {letter})")
        passed = roll > need
        was = fig.pinned
        fig.pinned = not passed
        outcome = (
            ("passes and is no longer pinned" if was else "passes")
            if passed
            else ("fails: still pinned" if was else "fails: pinned")
        )
        terms = f"class {letter}" + (f", {', '.join(why)}" if why else "")
        text = f"{fig.name} ({reason}; {terms}) rolls {roll}, needs more than {need}: {outcome}."
        events.append(
            Event(
                "morale",
                text,
                {
                    "figure": fig.name,
                    "reason": reason,
                    "class": letter,
                    "needed": need,
                    "roll": roll,
                    "passed": passed,
                    "pinned": fig.pinned,
                },
            )
        )
    if not tested:
        events.append(Event("morale", "No figure needs to test its morale.", {}))
    events.extend(_initiative(ctx, state, dice))
    return events


def _initiative(ctx: Ctx, state: YasgState, dice: DiceSource) -> list[Event]:
    """A-YASG-8: a d6 each (first side first), ties rolled again; the higher moves first."""
    a, b = state.sides
    events = []
    while True:
        rolls = {a: dice.roll(D6, f"Initiative: {a}"), b: dice.roll(D6, f"Initiative: {b}")}
        first = None if rolls[a] == rolls[b] else max(rolls, key=lambda s: rolls[s])
        outcome = "a tie, roll again" if first is None else f"{first} move first"
        events.append(
            Event(
                "initiative",
                f"Initiative: {a} {rolls[a]}, {b} {rolls[b]}: {outcome}.",
                {"rolls": rolls, "first": first},
            )
        )
        if first is not None:
            break
    state.initiative = [first, b if first == a else a]
    state.phase, state.mover = "movement", first
    events.append(
        phase_event(state, f"Turn {state.turn} · movement phase: {first} move first, then /yasg next.", mover=first)
    )
    return events


# --- /yasg next


def next_phase(ctx: Ctx, params: NoParams) -> None:
    """Move the turn on: begin the battle, roll morale, hand the move over, end a side's fire or
    close combat (when both sides are done, the phase's dice are rolled and the next begins)."""
    ctx.events.extend(_next_events(ctx))


def _next_events(ctx: Ctx) -> list[Event]:
    state, side, by_gm, dice = ctx.state, ctx.side, ctx.by_gm, ctx.dice
    if state.phase == "setup":
        return _begin(ctx, state)
    if state.phase == "morale":
        return _morale(ctx, state, dice)
    if state.phase == "movement":
        if not by_gm and side != state.mover:
            raise RuleError(f"{state.mover} are moving: they end their movement with /yasg next.")
        if state.mover == state.initiative[0]:
            state.mover = state.initiative[1]
            return [
                phase_event(
                    state,
                    f"Turn {state.turn} · movement phase: {state.mover} move now, then /yasg next.",
                    mover=state.mover,
                )
            ]
        return _start_fire(ctx, state)
    acting = side_of(state, side) or whose_turn(state)
    assert acting is not None  # the fire and close combat phases always wait for a side
    events: list[Event] = []
    if len(state.done) < len(state.sides):
        if acting in state.done:
            waiting = joined([s for s in state.sides if s not in state.done])
            raise RuleError(f"{acting} are done with the {state.phase} phase: waiting for {waiting}.")
        state.done.append(acting)
        events.append(Event("done", f"{acting.title()} are done with the {state.phase} phase.", {"side": acting}))
        if len(state.done) < len(state.sides):
            return events
    if state.phase == "fire":
        return events + _end_fire(ctx, state)
    return events + _close_combat(ctx, state, dice)


def _begin(ctx: Ctx, state: YasgState) -> list[Event]:
    unplaced = [f.name for f in state.figures if f.square is None]
    if unplaced:
        raise RuleError(
            f"Place every figure first: {joined(unplaced[:5])}{' …' if len(unplaced) > 5 else ''} "
            f"{'is' if len(unplaced) == 1 else 'are'} not on the board (/yasg place)."
        )
    state.phase, state.turn = "morale", 1
    return [
        phase_event(
            state,
            "The battle begins. Turn 1 · morale phase: /yasg next rolls morale for every figure that must test.",
        )
    ]


# --- /yasg look


def look(ctx: Ctx, params: LookOptions) -> None:
    """What one figure sees of another: the range, the class and modifiers of a shot, contact."""
    state = ctx.state
    fig = figure(state, params.figure)
    target = figure(state, params.target, "the figure to look at")
    if not fig.standing or not target.standing:
        gone = fig if not fig.standing else target
        raise RuleError(f"{gone.name} is not on the board.")
    field = _field(ctx, state)
    a, b = fig.square, target.square
    assert a is not None and b is not None
    where = f"{fig.name} ({square_name(a)}, facing {fig.facing.upper()}) → {target.name} ({square_name(b)})"
    if target.side == fig.side:
        text = f"{where}: {plural(abs(a[0] - b[0]) + abs(a[1] - b[1]), 'square')}, a friend."
        ctx.say("look", text, figure=fig.name, target=target.name)
        return
    try:
        shot = ctx.judge.shot(state, field, fig, target)
    except RuleError as exc:
        ctx.say("look", f"{where}: {exc.message}", figure=fig.name, target=target.name, can_fire=False)
        return
    why = ctx.judge.why_cannot_fire(state, fig) if state.phase != "setup" else None
    need = f"needs {shot.need} on a d10" if shot.need <= D10 else f"cannot hit (would need {shot.need})"
    text = f"{where}: {_shot_terms(ctx, shot)}; {need}" + (f" — but {fig.name} {why}" if why else "") + "."
    if adjacent(a, b) and ctx.judge.in_contact(field, fig, target):
        text += f" In contact across its {side_towards(a, b).upper()} side."
    ctx.say("look", text, figure=fig.name, target=target.name, needed=shot.need, can_fire=why is None)
