"""The close combat phase: completing charges (close-in and stand tests) and the individual fights."""

from __future__ import annotations

import math
from dataclasses import dataclass

from rules.core import DiceSource, Event, RuleError, modifier_data, roll_dice
from rules.geometry import Point
from rules.nsr import onmap, onmap_towns
from rules.nsr.hits import strike
from rules.nsr.lookup import Charts
from rules.nsr.options import MeleeOptions
from rules.nsr.state import Charge, Figure, NsrState, Unit, unit_named
from rules.words import joined, plural, possessive

AWAY_DUTIES = ("escort", "carrying")


@dataclass
class Stance:
    """How a unit fights this combat: the close combat chart's situational lines."""

    charging: bool
    defending: str | None
    uphill: bool
    rear: bool


def pending_charges(state: NsrState) -> list[Charge]:
    return [ch for ch in state.charges if not ch.resolved]


def melee(
    c: Charts, state: NsrState, charge: Charge, params: MeleeOptions, dice: DiceSource, events: list[Event]
) -> None:
    """Complete ``charge``. Dice order: close-in d10 per charging unit, stand d10 per charged unit, 4D6
    shaken distance; then each fight d10 charger's figure, d10 defender's figure, again on ties."""
    charger, target = unit_named(state, charge.charger), unit_named(state, charge.target)
    counter = next(
        (
            ch
            for ch in pending_charges(state)
            if ch.charger == target.name and ch.target == charger.name and ch is not charge
        ),
        None,
    )
    if state.field is not None and params.reached is not None:
        raise RuleError("On the map the bot measures whether the charge reached: leave reached out.")
    if state.field is not None:
        reached = onmap.reached(c.t, state, charge)  # A-NSR-37
    else:
        reached = True if params.reached is None else params.reached
    if state.field is not None:
        for key, given in (("cover", params.cover), ("uphill", params.uphill)):
            if given is not None:
                raise RuleError(f"On the map the bot reads the {key} from the ground: leave {key} out.")
    if state.field is not None and reached:
        cover, uphill = onmap.melee_ground(c.t, state, charger, target)  # A-NSR-41
        cover = "open" if counter is not None else cover
    else:
        cover = params.cover or "open"
        uphill = params.uphill or "none"
    if state.field is not None and params.rear is not None:
        raise RuleError("On the map the bot measures whether the charge came from the rear: leave rear out.")
    on_map_rear = bool(charge.rear) and counter is None  # A-NSR-37
    rear = on_map_rear if state.field is not None else bool(params.rear)
    if counter is not None and (cover != "open" or rear):
        raise RuleError("Units charging each other meet in the open, front to front: leave cover and rear out.")
    charge.resolved = True
    if counter is not None:
        counter.resolved = True
    if _abandoned(charger, target, events):
        return
    if not target.standing() or not reached:
        # A-NSR-37: on the map the charger moves into ground its target has left, not onto it.
        gone = state.field is None or onmap.placement_of(state, target) is None
        spot = _spot(state, target) if gone else None
        _occupy(c, state, charger, target, "every figure it charged has moved away or fallen", events, spot)
        return
    if counter is not None:
        spots = {u.name: _spot(state, u) for u in (charger, target)}
        closes = [close_in(c, charger, target, dice, events, state), close_in(c, target, charger, dice, events, state)]
        if all(closes):
            _close_up(c, state, charger, target, events)
            stances = {
                charger.name: Stance(True, None, uphill == "charger", False),
                target.name: Stance(True, None, uphill == "defender", False),
            }
            fight(c, state, charger, target, stances, dice, events)
        elif any(closes):
            winner, loser = (charger, target) if closes[0] else (target, charger)
            _occupy(c, state, winner, loser, f"{loser.name} fell back", events, spots[loser.name])
        return
    if not close_in(c, charger, target, dice, events, state):
        return
    if not stand(c, state, target, charger, dice, events):
        return
    _close_up(c, state, charger, target, events)
    stances = {
        charger.name: Stance(True, None, uphill == "charger", False),
        target.name: Stance(False, _defending(c, target, cover), uphill == "defender", rear),
    }
    fight(c, state, charger, target, stances, dice, events)


def _abandoned(charger: Unit, target: Unit, events: list[Event]) -> bool:
    if charger.out or charger.shaken:
        why = (
            "has no figure left standing" if not charger.standing() else "is shaken" if charger.shaken else "is routed"
        )
        events.append(
            Event(
                "charge",
                f"{possessive(charger.name)} charge at {target.name} comes to nothing: it {why}.",
                {"unit": charger.name, "target": target.name, "result": "abandoned"},
            )
        )
        return True
    return False


def _spot(state: NsrState, unit: Unit) -> Point | None:
    """Where ``unit``'s centre stands on the map (None on a table or off the map)."""
    if state.field is None or unit.name not in state.field.positions:
        return None
    x, y = state.field.positions[unit.name]
    return Point(x, y)


def _close_up(c: Charts, state: NsrState, charger: Unit, target: Unit, events: list[Event]) -> None:
    """On the map the charger's bases move to touch the target's, and defenders near by move up
    (seed 3.A.4, A-NSR-37)."""
    if state.field is None:
        return
    text = onmap.close_up(c.t, state, charger, target)
    if text:
        events.append(Event("close-up", f"{text}.", {"unit": charger.name, "target": target.name}))


def _occupy(
    c: Charts, state: NsrState, winner: Unit, loser: Unit, why: str, events: list[Event], spot: Point | None = None
) -> None:
    """The winner occupies the loser's position: on the map it moves to where the loser stood."""
    text = f"{winner.name} occupies {possessive(loser.name)} position ({why})."
    if state.field is not None:
        where, went = onmap_towns.take_building(c.t, state, winner, spot), True
        if not where:
            where, went = onmap.take_place(c.t, state, winner, spot)
        if not went:
            text = f"{winner.name} wins ({why}) but cannot move up to {possessive(loser.name)} position: {where}."
        elif where:
            text = f"{winner.name} occupies {possessive(loser.name)} position ({why}): {where}."
    events.append(Event("charge", text, {"unit": winner.name, "target": loser.name, "result": "occupied"}))


def close_in(
    c: Charts, unit: Unit, target: Unit, dice: DiceSource, events: list[Event], state: NsrState | None = None
) -> bool:
    """Close into Combat (A-NSR-10: counter-chargers too); failing, fall back 6" pinned."""
    with_leader = bool(unit.leaders())
    top = c.close_in_max(unit.troop, "close", with_leader)
    extra = ""
    if unit.troop == "mounted" and target.formation == "square" and not target.shaken:
        top = max(0, top + c.t.mounted_vs_square)  # A-NSR-11
        extra = f", {c.t.mounted_vs_square} against a square"
    die = dice.roll(10, f"{unit.name}: close into combat with {target.name}")
    closes = die <= top
    lead = "with" if with_leader else "without"
    if closes:
        text = f"{unit.name} closes into combat with {target.name}: d10 {die}, needs 1-{top} ({lead} a leader{extra})."
    else:
        back = c.t.distances.failed_close_in_fallback
        unit.set_marks(pinned=True)
        moved = ""
        if state is not None and state.field is not None:
            moved = f" ({onmap.fall_back(c.t, state, unit, target, back)[0]})"  # A-NSR-38
        text = (
            f"{unit.name} fails to close with {target.name}: d10 {die}, needs 1-{top} ({lead} a leader{extra}); "
            f"it falls back {back:g}″{moved} and is pinned."
        )
    events.append(
        Event(
            "close-in",
            text,
            {
                "unit": unit.name,
                "target": target.name,
                "die": die,
                "roll": die,
                "needed": top,
                "leader": with_leader,
                "closes": closes,
                "passed": closes,
            },
        )
    )
    return closes


def stand(c: Charts, state: NsrState, unit: Unit, charger: Unit, dice: DiceSource, events: list[Event]) -> bool:
    """Stand and Fight; failing, the unit is shaken and falls back 4D6"."""
    with_leader = bool(unit.leaders())
    top = c.close_in_max(unit.troop, "stand", with_leader)
    die = dice.roll(10, f"{unit.name}: stand and fight against {charger.name}")
    lead = "with" if with_leader else "without"
    stands = die <= top
    verdict = "stands and fights" if stands else "is shaken"
    events.append(
        Event(
            "stand",
            f"{unit.name} {verdict}: d10 {die}, needs 1-{top} ({lead} a leader).",
            {
                "unit": unit.name,
                "charger": charger.name,
                "die": die,
                "roll": die,
                "needed": top,
                "leader": with_leader,
                "stands": stands,
                "passed": stands,
            },
        )
    )
    if not stands:
        spot = _shaken_back(c, state, unit, charger, dice, events)
        _occupy(c, state, charger, unit, f"{unit.name} gave way", events, spot)
    return stands


def _shaken_back(
    c: Charts, state: NsrState, unit: Unit, enemy: Unit, dice: DiceSource, events: list[Event]
) -> Point | None:
    """Shaken, the unit falls back 4D6 (on the map straight away from ``enemy``, A-NSR-38); the
    centre it left on the map (None on a table)."""
    inches = sum(roll_dice(dice, c.t.distances.shaken_retreat_d6, 6, f"{unit.name}: shaken, falls back"))
    for f in unit.figures:
        if f.status in ("fit", "ran"):
            f.status, f.shaken, f.prone = "fit", True, False
    held = _spot(state, unit) if unit.building else None
    out_of = ""
    if state.field is not None and unit.building:  # A-NSR-43: out by the door furthest from the enemy
        out_of = onmap_towns.step_out(c.t, state, unit, onmap_towns.away_from(state, unit, enemy), must=False)
    if not unit.building or state.field is None:
        unit.building = ""
        moved, left = onmap.fall_back(c.t, state, unit, enemy, inches) if state.field is not None else ("", None)
    else:
        moved, left = "", None
    moved = f"{out_of} and {moved}" if out_of and moved else out_of or moved
    left = held or left
    events.append(
        Event(
            "shaken",
            f"{unit.name} is shaken: it falls back {inches}″ in disorder until rallied{f'; it {moved}' if moved else ''}.",
            {"unit": unit.name, "inches": inches},
        )
    )
    return left


def _defending(c: Charts, unit: Unit, cover: str) -> str | None:
    """The one defending line that applies (RESOLUTION of this engine: cover replaces formation)."""
    if cover == "building":
        return "defending_building"
    if cover == "linear":
        return "defending_linear_object"
    if unit.shaken:
        return None
    if unit.formation == "square":
        return "defending_in_square"
    if unit.formation == "open_order":
        return "defending_in_open_order"
    if unit.formation in c.t.close_order_formations:
        return "defending_in_close_order"
    return None


LABELS = {
    "charging_or_countercharging": "charging",
    "defending_in_open_order": "defending in open order",
    "defending_in_close_order": "defending in close order",
    "defending_in_square": "defending in square",
    "defending_linear_object": "defending a linear object",
    "defending_building": "defending a building",
    "uphill": "uphill",
    "attacked_from_rear": "attacked from the rear",
    "leader": "leader",
    "lance_pike_halberd_axe": "lance/pike/halberd/axe",
    "each_additional_opponent": "extra opponents",
    "no_bayonet": "no bayonet",
}


def modifiers(c: Charts, unit: Unit, figure: Figure, stance: Stance, opponents: int) -> list[tuple[str, int]]:
    """Every line of the close combat chart that applies to ``figure`` (by its unit's column)."""
    lines: list[tuple[str, int]] = []
    if stance.charging:
        lines.append(("charging_or_countercharging", 1))
    if stance.defending:
        lines.append((stance.defending, 1))
    if stance.uphill:
        lines.append(("uphill", 1))
    if stance.rear:
        lines.append(("attacked_from_rear", 1))
    if figure.leader:
        lines.append(("leader", 1))  # A-NSR-13
    if unit.melee in c.t.polearms:
        lines.append(("lance_pike_halberd_axe", 1))
    if opponents > 1:
        lines.append(("each_additional_opponent", opponents - 1))
    if unit.melee in c.t.no_bayonet:
        lines.append(("no_bayonet", 1))
    out = [(LABELS[name], c.cc_modifier(name, unit.troop) * times) for name, times in lines]
    return [(k, v) for k, v in out if v != 0]


def fighters(unit: Unit) -> list[Figure]:
    return [f for f in unit.standing() if f.duty not in AWAY_DUTIES]


def pairs(few: list[Figure], many: list[Figure]) -> list[tuple[Figure, list[Figure]]]:
    """The larger side's figures spread as evenly as possible over the smaller side's."""
    return [(f, many[i :: len(few)]) for i, f in enumerate(few)]


def fight(
    c: Charts, state: NsrState, a: Unit, b: Unit, stances: dict[str, Stance], dice: DiceSource, events: list[Event]
) -> None:
    """Rounds of individual fights until one side has no figure left in the combat (seed B.1-B.4)."""
    events.append(
        Event(
            "melee",
            f"Close combat: {a.name} ({plural(len(fighters(a)), 'figure')}) against "
            f"{b.name} ({plural(len(fighters(b)), 'figure')}).",
            {"a": a.name, "b": b.name, "figures": {a.name: len(fighters(a)), b.name: len(fighters(b))}},
        )
    )
    a.fought = b.fought = True
    wounded_here: dict[str, list[Figure]] = {a.name: [], b.name: []}
    round_no = 0
    while fighters(a) and fighters(b):
        round_no += 1
        fa, fb = fighters(a), fighters(b)
        few_is_a = len(fa) <= len(fb)
        few, many = (fa, fb) if few_is_a else (fb, fa)
        for single, opponents in pairs(few, many):
            for other in opponents:
                if single.status != "fit":
                    break
                first, second = (single, other) if few_is_a else (other, single)
                counts = {id(single): len(opponents), id(other): 1}
                fallen = _one_fight(c, state, round_no, (a, first), (b, second), stances, counts, dice, events)
                if fallen is not None and fallen[1].status == "wounded":
                    wounded_here[fallen[0].name].append(fallen[1])
    winner, loser = (a, b) if fighters(a) else (b, a)
    _after(c, state, winner, loser, wounded_here[loser.name], dice, events)


def _one_fight(
    c: Charts,
    state: NsrState,
    round_no: int,
    first: tuple[Unit, Figure],
    second: tuple[Unit, Figure],
    stances: dict[str, Stance],
    counts: dict[int, int],
    dice: DiceSource,
    events: list[Event],
) -> tuple[Unit, Figure] | None:
    (ua, fa), (ub, fb) = first, second
    mods_a = modifiers(c, ua, fa, stances[ua.name], counts[id(fa)])
    mods_b = modifiers(c, ub, fb, stances[ub.name], counts[id(fb)])
    ties: list[tuple[int, int]] = []
    while True:
        da = dice.roll(10, f"Close combat round {round_no}: {fa.name} ({ua.name})")
        db = dice.roll(10, f"Close combat round {round_no}: {fb.name} ({ub.name})")
        ta, tb = da + sum(v for _, v in mods_a), db + sum(v for _, v in mods_b)
        if ta != tb:
            break
        ties.append((da, db))
    (wu, wf), (lu, lf, ldie) = ((ua, fa), (ub, fb, db)) if ta > tb else ((ub, fb), (ua, fa, da))
    outcome = c.t.close_combat_loser[ldie]
    tie_text = f" (after {plural(len(ties), 'tie')})" if ties else ""
    text = (
        f"Round {round_no}: {fa.name} ({ua.name}) {_score(da, mods_a, ta)} v {fb.name} ({ub.name}) "
        f"{_score(db, mods_b, tb)}{tie_text}: {lf.name} of {lu.name} {_OUTCOME[outcome]} (natural {ldie})."
    )
    events.append(
        Event(
            "fight",
            text,
            {
                "round": round_no,
                "a": {"unit": ua.name, "figure": fa.name, "die": da, "modifiers": modifier_data(mods_a), "total": ta},
                "b": {"unit": ub.name, "figure": fb.name, "die": db, "modifiers": modifier_data(mods_b), "total": tb},
                "ties": [list(t) for t in ties],
                "winner": wf.name,
                "loser": lf.name,
                "loser_unit": lu.name,
                "outcome": outcome,
                **({"wound": "heavy"} if outcome == "wounded" else {}),
            },
        )
    )
    if outcome == "ran":
        lf.status = "ran"
    else:
        strike(state, lu, lf, "heavy" if outcome == "wounded" else outcome, wu.name, events, quiet=True)
    return lu, lf


#: A-NSR-9: a figure wounded in close combat is heavily wounded.
_OUTCOME = {
    "killed": "is killed",
    "wounded": "is heavily wounded",
    "ran": "runs to the rear",
    "captured": "is captured",
}


def _score(die: int, mods: list[tuple[str, int]], total: int) -> str:
    if not mods:
        return str(die)
    return f"{die}" + "".join(f" {'+' if v > 0 else '−'}{abs(v)}" for _, v in mods) + f" = {total}"


def _after(
    c: Charts, state: NsrState, winner: Unit, loser: Unit, wounded: list[Figure], dice: DiceSource, events: list[Event]
) -> None:
    """The winners hold the field; the losers' survivors are shaken, their wounded taken prisoner."""
    taken = []
    if c.t.options.wounded_losers_become_prisoners:
        for f in wounded:
            if f.status == "wounded":
                f.status = "captured"
                taken.append(f.name)
    for f in winner.figures:
        if f.status == "ran":
            f.status = "fit"
    prisoners = sum(1 for f in loser.figures if f.status == "captured")
    also = (
        f" {possessive(loser.name)} wounded {joined(taken)} {'is' if len(taken) == 1 else 'are'} taken prisoner."
        if taken
        else ""
    )
    events.append(
        Event(
            "melee",
            f"{winner.name} wins the close combat against {loser.name}.{also}",
            {"winner": winner.name, "loser": loser.name, "prisoners": prisoners, "wounded_taken": taken},
        )
    )
    spot = _spot(state, loser)
    if any(f.status in ("fit", "ran") for f in loser.figures):
        spot = _shaken_back(c, state, loser, winner, dice, events)
    _occupy(c, state, winner, loser, "it won the close combat", events, spot)
    if prisoners:
        need = math.ceil(prisoners / c.t.prisoners_per_escort)
        guards = [f for f in winner.standing() if not f.leader and not f.duty][:need]
        for f in guards:
            f.duty = "escort"
        verb = "escorts" if len(guards) == 1 else "escort"
        events.append(
            Event(
                "prisoners",
                f"{plural(len(guards), 'figure')} of {winner.name} {verb} {plural(prisoners, 'prisoner')} to the rear.",
                {"unit": winner.name, "prisoners": prisoners, "escorts": [f.name for f in guards]},
            )
        )
