"""Fighting in towns (MOUT): buildings and their capacity, loopholes, breaches by hand and by gun."""

from __future__ import annotations

from fractions import Fraction

from rules.core import DiceSource, Event, RuleError
from rules.nsr import onmap_towns
from rules.nsr.fire import SHOTS, gun_block
from rules.nsr.lookup import Charts
from rules.nsr.options import BombardOptions, BuildingOptions, OccupyOptions, WorkOptions
from rules.nsr.state import Building, NsrState, Unit, Work, building_named
from rules.words import plural, possessive


def describe(c: Charts, state: NsrState, params: BuildingOptions, events: list[Event]) -> None:
    """A building on the table: figures on its roof x storeys may be inside, one firer per opening.
    On the map the buildings are the map's (A-NSR-42): refused."""
    onmap_towns.refuse_description(state)
    name = " ".join(params.name.split())
    if not any(ch.isalnum() for ch in name):
        raise RuleError("Give the building a name (up to 64 characters).")
    roof, storeys = params.roof, params.storeys
    windows, doors = params.windows or 0, params.doors or 0
    existing = next((b for b in state.buildings if b.name.casefold() == name.casefold()), None)
    inside = sum(len(u.standing()) for u in state.units if existing and u.building == existing.name)
    if inside > roof * storeys:
        raise RuleError(
            f"{inside} figures are inside {existing.name if existing else name}: it cannot hold fewer than that."
        )
    if existing is None:
        existing = Building(name=name, roof=roof, storeys=storeys)
        state.buildings.append(existing)
    existing.roof, existing.storeys, existing.windows, existing.doors = roof, storeys, windows, doors
    events.append(
        Event(
            "building",
            f"{existing.name}: {existing.capacity} figures inside at most "
            f"({roof} a floor, {plural(storeys, 'storey')}); "
            f"{plural(windows, 'window')} and {plural(doors, 'open door')} to fire from.",
            {
                "building": existing.name,
                "capacity": existing.capacity,
                "per_floor": roof,
                "windows": windows,
                "doors": doors,
            },
        )
    )


def occupy(
    c: Charts, state: NsrState, unit: Unit, params: OccupyOptions, dice: DiceSource, events: list[Event]
) -> bool:
    """The unit's move takes it into a building, if there is room (figures on the roof x storeys)."""
    if unit.pinned or unit.immobile:
        raise RuleError(f"{unit.name} may not move this turn, so it cannot enter a building.")
    on_map = onmap_towns.map_building(c.t, state, params.building) if state.field is not None else None
    building = onmap_towns.record_of(state, on_map) if on_map else building_named(state, params.building)
    if unit.building == building.name:
        raise RuleError(f"{unit.name} is already in {building.name}.")
    if on_map is not None and unit.building:
        raise RuleError(f"{unit.name} is in {unit.building}: come out of it first (/nsr move).")
    if on_map is not None:
        onmap_towns.check_entry(c.t, state, unit, on_map, building)  # A-NSR-42
    taken = onmap_towns.check_room(state, unit, building)
    if on_map is not None:
        onmap_towns.move_in(c.t, state, unit, on_map)
    unit.building = building.name
    floors = -(-taken // building.roof)
    events.append(
        Event(
            "occupy",
            f"{unit.name} moves into {building.name}: {taken} of "
            f"{building.capacity} places taken, over {plural(floors, 'floor')}.",
            {"unit": unit.name, "building": building.name, "inside": taken},
        )
    )
    return True


def _row(c: Charts, unit: Unit, task: str, workers: int) -> tuple[str, int]:
    sappers = sum(1 for f in unit.standing() if f.role == "sapper" and not f.duty)
    if task == "loophole":
        if sappers >= workers:
            return "sapper", c.t.loophole_turns.sapper
        return "bayonet", c.t.loophole_turns.bayonet
    row = "sapper" if sappers >= workers else c.t.breach_row_of[unit.troop]
    return row, c.breach_needed(row, task)


def work(c: Charts, state: NsrState, unit: Unit, params: WorkOptions, dice: DiceSource, events: list[Event]) -> bool:
    """The unit spends its move cutting a loophole or breaching; credited at the end of the turn."""
    on_map = onmap_towns.map_building(c.t, state, params.building) if state.field is not None else None
    building = onmap_towns.record_of(state, on_map) if on_map else building_named(state, params.building)
    task = params.task
    if on_map is not None:
        task = onmap_towns.breaching_task(on_map, task)
        if task != "loophole":
            onmap_towns.check_at_walls(c.t, state, unit, on_map)  # A-NSR-42
    if task == "loophole" and unit.building != building.name:
        raise RuleError(f"{unit.name} must be inside {building.name} to cut a loophole in it.")
    hands = [f for f in unit.standing() if not f.leader and not f.duty]
    if not hands:
        raise RuleError(f"{unit.name} has no figure free to work.")
    workers = params.workers or 1
    if workers > len(hands):
        raise RuleError(f"The workers must be from 1 to {len(hands)}.")
    row, needed = _row(c, unit, task, workers)
    hands.sort(key=lambda f: f.role != "sapper")
    for f in hands[:workers]:
        f.duty = "working"
    unit.work = Work(building=building.name, task=task, workers=workers, row=row)
    done = Fraction(building.progress.get(task, "0"))
    left = max(Fraction(0), 1 - done) * needed / workers
    turns = -(-left.numerator // left.denominator)
    what = "a loophole" if task == "loophole" else f"a breach in a {task.replace('_', ' ')}"
    events.append(
        Event(
            "work",
            f"{unit.name} works at {what} of {building.name}: {plural(workers, 'figure')} "
            f"({row.replace('_', ' ')}, {needed} figure-turns): {plural(turns, 'more turn')} "
            f"if not interrupted.",
            {
                "unit": unit.name,
                "building": building.name,
                "task": task,
                "workers": workers,
                "row": row,
                "needed": needed,
            },
        )
    )
    return True


def bombard(
    c: Charts, state: NsrState, unit: Unit, params: BombardOptions, dice: DiceSource, events: list[Event]
) -> bool:
    """A gun's fire at a building's door, window or wall: one shot towards the breach table's count."""
    if unit.weapon != "artillery":
        raise RuleError(f"{unit.name} has no gun: breach by hand with /nsr work in the movement phase.")
    block = gun_block(c, state, unit)
    if block:
        raise RuleError(block)
    if unit.charged or unit.shaken or unit.routed:
        raise RuleError(f"{unit.name} is in no state to fire.")
    on_map = onmap_towns.map_building(c.t, state, params.building) if state.field is not None else None
    building = onmap_towns.record_of(state, on_map) if on_map else building_named(state, params.building)
    part = params.part
    if on_map is not None:
        part = onmap_towns.breaching_task(on_map, part)
    shot = SHOTS[params.shot or "ball"]
    needed = c.breach_needed(shot, part)
    if on_map is not None:
        onmap_towns.check_gun_reach(c.t, state, unit, on_map, shot)  # A-NSR-42
    unit.last_fired_turn = state.turn
    _advance(building, part, Fraction(1, needed), f"{possessive(unit.name)} {shot}", events)
    return True


def _advance(building: Building, task: str, amount: Fraction, by: str, events: list[Event]) -> None:
    done = Fraction(building.progress.get(task, "0")) + amount
    what = "loophole" if task == "loophole" else task.replace("_", " ")
    if done >= 1:
        building.progress[task] = "0"
        if task == "loophole":
            building.loopholes += 1
            text = f"{by} finishes a loophole in {building.name}: {plural(building.loopholes, 'loophole')} now."
        else:
            building.breaches[task] = building.breaches.get(task, 0) + 1
            text = f"{by} breaches a {what} of {building.name}: there is a hole a man can move through."
        events.append(Event("breach", text, {"building": building.name, "task": task, "done": True}))
        return
    building.progress[task] = str(done)
    events.append(
        Event(
            "breach",
            f"{by}: the {what} of {building.name} is {done.numerator}/{done.denominator} done.",
            {"building": building.name, "task": task, "done": False, "progress": str(done)},
        )
    )


def credit_work(c: Charts, state: NsrState, events: list[Event]) -> None:
    """End of the turn: work counts unless the workers fought or the unit was hit (seed MOUT)."""
    for unit in state.units:
        job = unit.work
        if job is None:
            continue
        workers = [f for f in unit.figures if f.duty == "working"]
        for f in workers:
            f.duty = ""
        unit.work = None
        building = next((b for b in state.buildings if b.name == job.building), None)
        if building is None:
            continue
        if unit.fought or unit.hit_this_turn or len([f for f in workers if f.status == "fit"]) < job.workers:
            events.append(
                Event(
                    "breach",
                    f"{possessive(unit.name)} work at {building.name} was interrupted: this turn does not count.",
                    {"building": building.name, "task": job.task, "done": False, "interrupted": True},
                )
            )
            continue
        needed = (
            c.t.loophole_turns.sapper
            if job.row == "sapper" and job.task == "loophole"
            else (c.t.loophole_turns.bayonet if job.task == "loophole" else c.breach_needed(job.row, job.task))
        )
        _advance(building, job.task, Fraction(job.workers, needed), unit.name, events)
