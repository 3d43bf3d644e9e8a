"""The morale phase (2D6, "less than the number is OK"): major, critical and pinned checks; routs."""

from __future__ import annotations

from rules.core import CasualtyPayload, DiceSource, Event, PhasePayload, roll_dice
from rules.nsr import onmap, onmap_towns
from rules.nsr.lookup import Charts
from rules.nsr.state import NsrState, Unit


def _attached_troop(state: NsrState, unit: Unit) -> str | None:
    if not unit.attached:
        return None
    found = next((u for u in state.units if u.name.casefold() == unit.attached.casefold()), None)
    return found.troop if found else None


def in_critical(unit: Unit) -> bool:
    """Shaken figures hit, or fewer than half the unit's original strength left (seed 4.B)."""
    return unit.critical or unit.strength() * 2 < unit.original


def _check(dice: DiceSource, reason: str) -> tuple[int, str]:
    rolled = roll_dice(dice, 2, 6, reason)
    return sum(rolled), "+".join(map(str, rolled))


def morale_phase(c: Charts, state: NsrState, dice: DiceSource, events: list[Event]) -> None:
    """Dice order: 2D6 per check — major per side, then critical (or rally) per unit, then pinned per unit."""
    events.append(PhasePayload(state.turn, "morale").event(f"Turn {state.turn} · morale phase."))
    for unit in state.units:
        unit.immobile = False
    for side in state.sides:
        major(c, state, side, dice, events)
    for unit in state.units:
        if not unit.out:
            critical(c, state, unit, dice, events)
    for unit in state.units:
        if not unit.out and unit.pinned:
            pinned(c, state, unit, dice, events)


def major(c: Charts, state: NsrState, side: str, dice: DiceSource, events: list[Event]) -> None:
    """A-NSR-14: one 2D6 for the side, compared with each unit's own Major number."""
    commander = state.commanders.get(side)
    if commander is None or not commander.lost_turn:
        return
    units = [u for u in state.units if u.side == side and not u.out]
    if not units:
        return
    total, shown = _check(dice, f"{side}: major morale (Commander-in-Chief lost)")
    held, stuck = [], []
    for unit in units:
        number = c.morale(unit.troop, _attached_troop(state, unit)).major
        if total < number:
            held.append(unit.name)
        else:
            unit.immobile = True
            stuck.append(unit.name)
    text = f"{side} major morale: 2D6 {shown} = {total}."
    if held:
        text += f" Move normally: {', '.join(held)}."
    if stuck:
        text += f" Immobile next turn: {', '.join(stuck)}."
    events.append(Event("morale", text, {"check": "major", "side": side, "roll": total, "ok": held, "immobile": stuck}))


def _number(c: Charts, state: NsrState, unit: Unit) -> tuple[int, str]:
    numbers = c.morale(unit.troop, _attached_troop(state, unit))
    if unit.leaders():
        return numbers.with_leader, "with a leader"
    return numbers.without_leader, "without a leader"


def critical(c: Charts, state: NsrState, unit: Unit, dice: DiceSource, events: list[Event]) -> None:
    critical = in_critical(unit)
    if not critical and not (unit.shaken and c.t.options.shaken_rally_check):
        return
    what = "critical morale" if critical else "rally"
    number, lead = _number(c, state, unit)
    total, shown = _check(dice, f"{unit.name}: {what}")
    passed = total < number
    data = {
        "check": "critical" if critical else "rally",
        "unit": unit.name,
        "roll": total,
        "needed": number,
        "passed": passed,
    }
    head = f"{unit.name} {what}: 2D6 {shown} = {total}, needs less than {number} ({lead})"
    if passed:
        was_shaken = unit.shaken
        unit.set_marks(shaken=False)
        unit.critical = False
        tail = "rallies" if was_shaken else "holds"
        if in_critical(unit):
            tail += ", but stays in critical morale while under half strength"
        events.append(Event("morale", f"{head}: {tail}.", data))
    elif critical:
        unit.set_marks(routed=True, shaken=False, pinned=False)
        if state.field is not None and unit.building:  # A-NSR-43: out by the door nearest the edge,
            onmap_towns.step_out(c.t, state, unit, onmap_towns.nearest_edge(state, unit), must=False)
        else:  # or, hemmed in, it stays inside and still holds the building
            unit.building = ""
        events.append(Event("morale", f"{head}: routed! It runs 4D6″ a turn for the nearest table edge.", data))
        events.append(
            CasualtyPayload(unit.name, unit.side, "critical morale").event(
                f"{unit.name} is routed and leaves the fight."
            )
        )
    else:
        events.append(Event("morale", f"{head}: stays shaken.", data))


def pinned(c: Charts, state: NsrState, unit: Unit, dice: DiceSource, events: list[Event]) -> None:
    number, lead = _number(c, state, unit)
    total, shown = _check(dice, f"{unit.name}: pinned morale")
    passed = total < number
    if passed:
        unit.set_marks(pinned=False)
    verdict = "is no longer pinned" if passed else "stays pinned"
    events.append(
        Event(
            "morale",
            f"{unit.name} pinned morale: 2D6 {shown} = {total}, needs less than {number} ({lead}): {verdict}.",
            {"check": "pinned", "unit": unit.name, "roll": total, "needed": number, "passed": passed},
        )
    )


def rout_moves(c: Charts, state: NsrState, dice: DiceSource, events: list[Event]) -> None:
    """Routed units run 4D6" towards the nearest table edge each movement phase, with no card."""
    for unit in state.units:
        if unit.routed and unit.standing():
            if state.field is not None and unit.name not in state.field.positions:
                continue
            if state.field is not None and unit.building:  # A-NSR-43: hemmed in last time; out if it can
                onmap_towns.step_out(c.t, state, unit, onmap_towns.nearest_edge(state, unit), must=False)
                if unit.building:
                    text = f"{unit.name} is routed but hemmed in {unit.building}: it stays inside this turn."
                    events.append(Event("rout", text, {"unit": unit.name, "inches": 0}))
                    continue
            inches = sum(roll_dice(dice, c.t.distances.rout_move_d6, 6, f"{unit.name}: routs"))
            moved = onmap.rout(c.t, state, unit, inches) if state.field is not None else ""  # A-NSR-38
            tail = f": {moved}" if moved else " (off the table, it is gone for good)"
            events.append(
                Event(
                    "rout",
                    f"{unit.name} routs {inches}″ towards the nearest table edge{tail}.",
                    {"unit": unit.name, "inches": inches},
                )
            )
