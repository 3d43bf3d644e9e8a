"""The movement phase: moves and charges on the movement chart, formations, guns, the Joker Movement chart."""

from __future__ import annotations

from typing import Any

from rules.core import DiceSource, Event, RuleError, modifier_data, roll_dice
from rules.nsr import onmap, onmap_towns
from rules.nsr.lookup import Charts
from rules.nsr.options import GOING, ChargeOptions, FormOptions, MoveOptions
from rules.nsr.state import Charge, NsrState, Unit, unit_named
from rules.words import measured_against, plural, possessive

NO_CHARGE_TROOPS = ("artillery", "command")


def _pretty(text: str) -> str:
    return text.replace("_", " ")


def _may_move(unit: Unit, doing: str) -> None:
    if unit.pinned:
        raise RuleError(
            f"{unit.name} is pinned and may not {doing} until it passes a pinned check: "
            f"change formation (/nsr form) or hold."
        )
    if unit.immobile:
        raise RuleError(f"{unit.name} is immobile this turn (major morale): change formation (/nsr form) or hold.")


def _dice_for(c: Charts, unit: Unit, column: str, new_formation: str | None) -> int:
    """Dice for the move; changing formation on the way uses the slower formation's dice (seed 1.B.H)."""
    formations = [unit.formation] + ([new_formation] if new_formation and new_formation != unit.formation else [])
    counts = []
    for formation in formations:
        n = c.movement_dice(unit.troop, formation, column)
        if n is None:
            raise RuleError(f"{unit.name} in {_pretty(formation)} has no {_pretty(column)} rate on the movement chart.")
        counts.append(n)
    return min(counts)


def _penalties(dice: list[int], rough: bool, carrying: bool, walking: bool) -> list[tuple[str, int]]:
    """Each penalty takes one die away (RESOLUTION of this engine): rough terrain and carrying the
    heavily wounded the highest die left, the lightly wounded walking the lowest (A-NSR-9)."""
    left = sorted(dice)
    taken: list[tuple[str, int]] = []
    for reason, applies, highest in (
        ("rough terrain", rough, True),
        ("carrying the heavily wounded", carrying, True),
        ("lightly wounded walking", walking, False),
    ):
        if applies and left:
            taken.append((reason, left.pop(-1 if highest else 0)))
    return taken


def _roll_move(
    c: Charts,
    unit: Unit,
    count: int,
    what: str,
    rough: bool,
    dice: DiceSource,
    events: list[Event],
    *,
    carrying: bool = False,
    walking: bool = False,
) -> tuple[int, str, dict[str, Any]]:
    """Roll the unit's movement dice, then any joker die (Dice order), and say the inches; with the
    numbers as event data (the dice, their sum, the penalties and joker die, their sum)."""
    rolled = roll_dice(dice, count, 6, f"{unit.name}: {what}, {count}D6")
    taken = _penalties(rolled, rough, carrying, walking)
    total = sum(rolled) - sum(v for _, v in taken)
    parts = [f"{count}D6 {'+'.join(map(str, rolled))} = {sum(rolled)}"]
    parts += [f"−{v} ({reason})" for reason, v in taken]
    mods = [(reason, -v) for reason, v in taken]
    if unit.joker == 1:
        extra = dice.roll(6, f"{unit.name}: Joker Movement 1, one more die")
        total += extra
        parts.append(f"+{extra} (joker)")
        mods.append(("joker", extra))
    elif unit.joker == 4:
        extra = dice.roll(6, f"{unit.name}: Joker Movement 4, one D6 less")
        total -= extra
        parts.append(f"−{extra} (joker)")
        mods.append(("joker", -extra))
    total = max(0, total)
    numbers = {
        "rolls": rolled,
        "roll": sum(rolled),
        "modifiers": modifier_data(mods),
        "modifier": sum(v for _, v in mods),
    }
    return total, ", ".join(parts), numbers


def move(c: Charts, state: NsrState, unit: Unit, params: MoveOptions, dice: DiceSource, events: list[Event]) -> bool:
    if _must_charge(c, state, unit):
        raise RuleError(f"{unit.name} drew Joker Movement 6: it must charge the nearest enemy unit (/nsr charge).")
    _may_move(unit, "move")
    going = "cross_country" if state.field is not None else params.going or GOING[0]
    new = params.formation
    if new is not None:
        _check_formation(c, unit, new)
        if unit.troop == "artillery" and new != unit.formation:
            raise RuleError(f"Limbering or unlimbering {unit.name} takes its whole move: use /nsr form.")
    if unit.troop == "artillery" and not unit.gun_destroyed and len(unit.standing()) < c.t.gun_movers:
        raise RuleError(f"{unit.name} needs at least {c.t.gun_movers} figures to move its gun.")
    if state.field is None:
        onmap.new_facing(state, unit, params.facing)
    carrying, walking = bool(params.carrying), bool(params.walking)
    heavy = [f for f in unit.figures if f.status == "wounded" and f.wound == "heavy" and not f.in_rear]
    light = [f for f in unit.figures if f.status == "wounded" and f.wound == "light" and not f.in_rear]
    if carrying and not heavy:
        raise RuleError(f"{unit.name} has no heavily wounded figure to carry.")
    if walking and not light:
        raise RuleError(f"{unit.name} has no lightly wounded figure walking to the rear.")
    if state.field is not None:
        onmap_towns.refuse_walking_in(c.t, state, unit, params)  # A-NSR-42
    out_of = ""
    if state.field is not None and unit.building:  # A-NSR-43: out by the door nearest where it goes
        out_of = onmap_towns.step_out(c.t, state, unit, onmap_towns.aim_of_move(state, unit, params))
    way = onmap.route(c.t, state, unit, params, new or unit.formation) if state.field is not None else None
    rough = bool(params.rough)
    if way is not None:
        going = _column_on_the_map(c, unit, way.going, new)
        rough = way.rough is not None
    count = _dice_for(c, unit, going, new)
    total, detail, numbers = _roll_move(
        c, unit, count, f"move, {_pretty(going)}", rough, dice, events, carrying=carrying, walking=walking
    )
    notes = []
    if new is not None and new != unit.formation:
        notes.append(f"forms {_pretty(new)}")
        unit.formation = new
    if params.prone is not None:
        unit.set_marks(prone=params.prone)
        notes.append("goes prone" if params.prone else "stands up")
    if carrying:
        bearers = [f for f in unit.standing() if not f.leader and not f.duty][: len(heavy)]
        for f in heavy:
            f.in_rear = True
        for f in bearers:
            f.duty = "carrying"
        verb = "carries" if len(bearers) == 1 else "carry"
        notes.append(
            f"{plural(len(bearers), 'figure')} {verb} {plural(len(heavy), 'heavily wounded figure')} to the rear"
        )
    if walking:
        for f in light:
            f.in_rear = True
        notes.append(
            f"{plural(len(light), 'lightly wounded figure')} {'walks' if len(light) == 1 else 'walk'} to the rear"
        )
    if unit.building:
        notes.append(f"leaves {unit.building}")
        unit.building = ""
    if out_of:
        notes.append(out_of)
    if way is not None:
        ground = f", rough ground: {way.rough}" if way.rough else ""
        notes.append(onmap.advance(state, unit, way, total) + ground)
    tail = f"; {', '.join(notes)}" if notes else ""
    events.append(
        Event(
            "move",
            f"{unit.name} moves ({_pretty(unit.formation)}, {_pretty(going)}): {detail} → up to {total}″{tail}.",
            {
                "unit": unit.name,
                "inches": total,
                "going": going,
                "dice": count,
                "formation": unit.formation,
                **numbers,
            },
        )
    )
    return True


def _column_on_the_map(c: Charts, unit: Unit, going: str, new: str | None) -> str:
    """A-NSR-35: the road column when the path runs on the road and the unit has a road rate (a
    line has none: it moves cross-country on a road too)."""
    if going == "road" and all(
        c.movement_dice(unit.troop, f, "road") is not None for f in {unit.formation, new or unit.formation}
    ):
        return "road"
    return "cross_country"


def _must_charge(c: Charts, state: NsrState, unit: Unit) -> bool:
    """Joker Movement 6: the unit must charge the nearest enemy unit when it can; on the map only
    when that charge may be made (A-NSR-37: its way is clear), else it may move or hold."""
    if unit.joker != 6 or unit.troop in NO_CHARGE_TROOPS or not _can_charge(c, unit):
        return False
    if state.field is None:
        return True
    nearest = onmap.nearest_enemy(state, unit)
    if nearest is None or unit.formation == "square":
        return False
    try:
        onmap.charge_way(c.t, state, unit, nearest)
    except RuleError:
        return False
    return True


def _can_charge(c: Charts, unit: Unit) -> bool:
    return c.movement_dice(unit.troop, unit.formation, "charge") is not None and not unit.pinned and not unit.immobile


def _check_formation(c: Charts, unit: Unit, formation: str) -> None:
    rows = c.t.movement_dice[unit.troop]
    if formation not in rows:
        raise RuleError(
            f"{unit.name} ({unit.troop}) may form {', '.join(_pretty(r) for r in rows)}, not {_pretty(formation)}."
        )


def charge(
    c: Charts, state: NsrState, unit: Unit, params: ChargeOptions, dice: DiceSource, events: list[Event]
) -> bool:
    """A charge move; it stops 2" short and is completed in the close combat phase."""
    _may_move(unit, "charge")
    if unit.formation == "square":
        raise RuleError(f"{unit.name} is in square: troops in square may not charge.")
    target = unit_named(state, params.target)
    if target.side == unit.side:
        raise RuleError(f"{target.name} is on {possessive(unit.name)} own side: charge an enemy unit.")
    if target.out:
        raise RuleError(f"{target.name} is out of the fight: there is nothing to charge.")
    if state.field is not None and unit.joker == 6:
        nearest = onmap.nearest_enemy(state, unit)  # A-NSR-37: measured edge to edge
        if nearest is not None and nearest is not target:
            raise RuleError(
                f"{unit.name} drew Joker Movement 6: it must charge the nearest enemy unit, {nearest.name}."
            )
    out_of = ""
    if state.field is not None and unit.building:  # A-NSR-43: out by the door nearest the target
        out_of = onmap_towns.step_out(c.t, state, unit, onmap_towns.centre_of(c.t, state, target))
    if state.field is not None and target.building:  # A-NSR-43: its defenders man the wall the charge comes at
        onmap_towns.man_the_wall(c.t, state, target, onmap_towns.centre_of(c.t, state, unit))
    way = onmap.charge_way(c.t, state, unit, target, params) if state.field is not None else None
    rough = bool(params.rough)
    if way is not None:
        column = way.column if c.movement_dice(unit.troop, unit.formation, way.column) is not None else "charge"
        rough = way.rough is not None
    else:
        going = params.going or GOING[0]
        column = "charge" if going == "cross_country" else "road_charge"
    if c.movement_dice(unit.troop, unit.formation, column) is None:
        raise RuleError(
            f"{unit.name} ({unit.troop}, {_pretty(unit.formation)}) may not charge"
            f"{' by road' if column == 'road_charge' else ''}."
        )
    distance = None
    if way is not None:
        distance = way.needed + c.t.distances.charge_stop
        reach = onmap.charge_reach(way, c.movement_dice(unit.troop, unit.formation, column) or 0, unit.joker)
        if way.needed > reach + onmap.EPSILON and unit.joker != 6:  # Joker 6 charges all the same
            raise RuleError(
                f"{target.name} is out of {possessive(unit.name)} charge reach: "
                f"{measured_against(way.needed, reach)} to go, {reach:g}″ at most."
            )
    elif params.distance is not None:
        distance = params.distance
    count = c.movement_dice(unit.troop, unit.formation, column) or 0
    total, detail, numbers = _roll_move(c, unit, count, f"charge at {target.name}", rough, dice, events)
    unit.charged = True
    unit.set_marks(prone=False)
    unit.building = ""
    stop = c.t.distances.charge_stop
    moved = f"; {onmap.charge_move(state, unit, way, total)}" if way is not None else ""
    moved = f"; it {out_of}{moved}" if out_of else moved
    if distance is not None and total < distance - stop - (onmap.EPSILON if way is not None else 0):
        events.append(
            Event(
                "charge",
                f"{unit.name} charges {target.name}: {detail} → {total}″, short of the "
                f"{round(distance - stop, 1) if way is not None else distance - stop:g}″ needed: it moves {total}″ and the charge fails{moved}.",
                {
                    "unit": unit.name,
                    "target": target.name,
                    "inches": total,
                    "reached": False,
                    "needed": round(distance - stop, 1) if way is not None else distance - stop,
                    "dice": count,
                    **numbers,
                },
            )
        )
        return True
    counter = any(ch.charger == target.name and ch.target == unit.name and not ch.resolved for ch in state.charges)
    rear = None if way is None else way.rear and not counter and not target.building  # A-NSR-43: a building has no rear
    spot = onmap.field_of(state).positions.get(target.name) if way is not None else None
    target_at = None if spot is None else list(spot)
    state.charges.append(Charge(charger=unit.name, target=target.name, counter=counter, rear=rear, target_at=target_at))
    kind = "counter-charges" if counter else "charges"
    events.append(
        Event(
            "charge",
            f"{unit.name} {kind} {target.name}: {detail} → {total}″; it stops {stop:g}″ short, "
            f"to close in the close combat phase{moved}.",
            {
                "unit": unit.name,
                "target": target.name,
                "inches": total,
                "reached": True,
                "counter": counter,
                "dice": count,
                **numbers,
            },
        )
    )
    return True


def form(c: Charts, state: NsrState, unit: Unit, params: FormOptions, dice: DiceSource, events: list[Event]) -> bool:
    """Change formation (or go prone / stand) in place; limbering or unlimbering a gun takes the turn."""
    if params.formation is None and params.prone is None and params.facing is None:
        turning = ", the way it faces" if state.field is not None else ""
        raise RuleError(f"Say the formation {unit.name} takes{turning}, or whether it goes prone.")
    facing = onmap.new_facing(state, unit, params.facing)
    new = params.formation
    if new is not None:
        _check_formation(c, unit, new)
        if new == unit.formation and facing is None:
            raise RuleError(f"{unit.name} is already in {_pretty(new)}.")
    notes = []
    if facing is not None and new in (None, unit.formation):
        notes.append(onmap.turn(c.t, state, unit, facing))  # A-NSR-39
    elif new is not None:
        ground = onmap.check_reform(c.t, state, unit, new, facing) if state.field is not None else ""
        if facing is not None:
            onmap.field_of(state).facing[unit.name] = facing
            ground += f", facing {facing:g}°"
        if unit.troop == "artillery":
            if unit.gun_destroyed:
                raise RuleError(f"{possessive(unit.name)} gun is destroyed: there is nothing to limber.")
            unit.limbered_turn = state.turn
            notes.append("limbers its gun" if new == "limbered" else "unlimbers its gun")
        else:
            notes.append(f"forms {_pretty(new)}")
        if ground:
            notes[-1] += f" ({ground})"
        unit.formation = new
    if params.prone is not None:
        down = params.prone
        unit.set_marks(prone=down)
        notes.append("goes prone" if down else "stands up")
    events.append(
        Event("form", f"{unit.name} {' and '.join(notes)}.", {"unit": unit.name, "formation": unit.formation})
    )
    return True


def hold(c: Charts, state: NsrState, unit: Unit, events: list[Event]) -> bool:
    doing = "does not move" if state.phase == "movement" else "does not fire"
    if state.phase == "movement" and _must_charge(c, state, unit):
        raise RuleError(f"{unit.name} drew Joker Movement 6: it must charge the nearest enemy unit (/nsr charge).")
    events.append(Event("hold", f"{unit.name} {doing}.", {"unit": unit.name, "phase": state.phase}))
    unit.held = unit.held or state.phase == "movement"
    return True


# --- the Joker Movement chart ------------------------------------------------------------------


def joker_movement(
    c: Charts, state: NsrState, unit: Unit, card: str, dice: DiceSource, events: list[Event], effect_only: bool = False
) -> bool:
    """Roll chart J-M for the unit a joker names; True when that ends its activation."""
    result = dice.roll(6, f"{unit.name}: Joker Movement chart")
    events.append(
        Event(
            "joker",
            f"Joker Movement chart for {unit.name}: {result} — {c.t.joker_movement[result]}.",
            {"unit": unit.name, "roll": result, "card": card},
        )
    )
    if result == 5:
        healed = [f for f in unit.figures if f.status == "wounded" and f.wound == "light"]
        for f in healed:
            f.status, f.wound, f.in_rear = "fit", "", False
        events.append(
            Event(
                "heal",
                f"{unit.name}: {plural(len(healed), 'lightly wounded figure')} healed.",
                {"unit": unit.name, "healed": [f.name for f in healed]},
            )
        )
    if effect_only:
        return True
    unit.joker = result
    if result == 2:
        events.append(Event("hold", f"{unit.name} does not move this turn.", {"unit": unit.name, "phase": "movement"}))
        unit.held = True
        return True
    if result == 3:
        back = sum(roll_dice(dice, c.t.distances.joker_fall_back_d6, 6, f"{unit.name}: Joker Movement 3, fall back"))
        out_of = ""
        if state.field is not None and unit.building:  # A-NSR-43: out by the door away from the enemy
            away = onmap_towns.away_from(state, unit, onmap.nearest_enemy(state, unit))
            out_of = onmap_towns.step_out(c.t, state, unit, away, must=False)
        if unit.building and state.field is not None:
            moved = out_of
        else:
            moved = onmap.fall_back(c.t, state, unit, None, back)[0] if state.field is not None else ""  # A-NSR-38
            moved = f"{out_of} and {moved}" if out_of and moved else moved
        tail = f": it {moved}" if moved else ""
        events.append(Event("move", f"{unit.name} falls back {back}″{tail}.", {"unit": unit.name, "inches": -back}))
        return True
    if result == 6 and unit.troop == "artillery":
        events.append(
            Event(
                "joker",
                f"{unit.name} moves to grapeshot range of the nearest enemy unit, limbered or manhandled (/nsr move).",
                {"unit": unit.name},
            )
        )
    elif result == 6 and unit.troop == "command":
        events.append(
            Event(
                "joker",
                f"{unit.name} may take the nearest friendly unit along with it (/nsr move).",
                {"unit": unit.name},
            )
        )
    return False
