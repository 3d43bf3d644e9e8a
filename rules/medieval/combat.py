"""The dice procedures: the roll-off, Bravery tests, the wound chart and its state machine,
casualties, victory.

Each rolls through the given DiceSource in the notes' Dice order and appends the events a player
reads to ``events``; nothing here decides whether an action is allowed (the engine checks first).
"""

from __future__ import annotations

from typing import Any

from rules.contract import Waiting
from rules.core import CasualtyPayload, DiceSource, Event, VictoryPayload, WoundPayload, roll_dice
from rules.medieval import onmap
from rules.medieval.data import ChartRow, Health, MedievalTables
from rules.medieval.state import (
    HEALTH_LABELS,
    ORDER_ACTION,
    MedFigure,
    MedState,
    armour_total,
    drop_contacts,
    effective,
    in_action,
    kit_text,
    other_side,
    penalties,
    sign,
)
from rules.words import inches, measured


def roll_off(t: MedievalTables, state: MedState, dice: DiceSource) -> list[Event]:
    """Dice order: D6 for the first side, D6 for the second, again on a tie (A-MED-12); the winner
    is then asked to go first or second (``state.pending``)."""
    a, b = state.sides
    events: list[Event] = []
    round_no = 0
    while True:
        round_no += 1
        rolls = {a: dice.roll(t.die, f"Roll-off: {a}"), b: dice.roll(t.die, f"Roll-off: {b}")}
        winner = None if rolls[a] == rolls[b] else max(rolls, key=lambda s: rolls[s])
        outcome = "tie, roll again" if winner is None else f"{winner} chooses who goes first"
        text = f"Roll-off: {a} {rolls[a]}, {b} {rolls[b]}: {outcome}."
        events.append(Event("roll-off", text, {"round": round_no, "rolls": rolls, "winner": winner}))
        if winner is not None:
            state.phase = "order"
            state.pending = Waiting(
                decider=winner,
                prompt=f"{winner} won the roll-off: go first or second?",
                choices=[["first", "Go first"], ["second", "Go second"]],
                resume_action=ORDER_ACTION,
            )
            return events


def bravery_test(t: MedievalTables, fig: MedFigure, dice: DiceSource, purpose: str, events: list[Event]) -> bool:
    """D6 + Bravery (light wound −2) >= the pass mark: True when it passes."""
    bravery = effective(t, fig)["bravery"]
    roll = dice.roll(t.die, f"{fig.name}: Bravery test ({purpose}), D6 + {bravery} vs {t.bravery_pass}")
    total = roll + bravery
    passed = total >= t.bravery_pass
    text = (
        f"{fig.name} tests Bravery ({purpose}): {roll} + Bravery {bravery} = {total}, "
        f"needs {t.bravery_pass}: {'passes' if passed else 'fails'}."
    )
    data = {
        "figure": fig.name,
        "purpose": purpose,
        "roll": roll,
        "bravery": bravery,
        "total": total,
        "needed": t.bravery_pass,
        "passed": passed,
    }
    events.append(Event("bravery", text, data))
    return passed


def chart_row(t: MedievalTables, score: int) -> ChartRow:
    return next(r for r in t.wound_chart if r.up_to is None or score <= r.up_to)


def row_range(t: MedievalTables, row: ChartRow) -> str:
    """The scores a chart row covers, as the seed prints them ("2-3", "0 or less", "6 or more")."""
    index = t.wound_chart.index(row)
    low = None if index == 0 else (t.wound_chart[index - 1].up_to or 0) + 1
    if low is None:
        return f"{row.up_to} or less"
    if row.up_to is None:
        return f"{low} or more"
    return str(low) if low == row.up_to else f"{low}–{row.up_to}"


def health_after(t: MedievalTables, before: Health, result: str) -> Health:
    """A-MED-1: the state machine of wounds."""
    if result == "killed":
        return "killed"
    if result == "light":
        return t.wound_transitions[before].light
    if result == "serious":
        return t.wound_transitions[before].serious
    return before


def wound(
    t: MedievalTables,
    state: MedState,
    attacker: MedFigure,
    victim: MedFigure,
    weapon: str,
    dice: DiceSource,
    events: list[Event],
) -> None:
    """One hit: the damage dice (highest kept) + Power − Armour on the wound chart, then its effect."""
    w = t.weapons[weapon]
    what = f"{attacker.name}: {weapon} damage on {victim.name}, highest of {w.damage}D6"
    rolls = roll_dice(dice, w.damage, t.die, what)
    highest = max(rolls)
    armour = armour_total(t, victim)
    score = highest + w.power - armour
    row = chart_row(t, score)
    before = victim.health
    after = health_after(t, before, row.result)
    if after != before:
        victim.health = after
        victim.healed_from_serious = victim.healed_from_serious and after == "light"
    shown = ", ".join(map(str, rolls))
    sums = f"{highest} {sign(w.power)} Power {sign(-armour)} Armour = {score}"
    text = f"Wound chart: {attacker.name}'s {weapon} hits {victim.name}: dice {shown} → {sums}: {row.label}."
    text += " " + _health_change(t, victim, before, after, row.result)
    now = penalties(t, victim)
    data: dict[str, Any] = {
        "weapon": weapon,
        "dice": rolls,
        "highest": highest,
        "power": w.power,
        "armour": armour,
        "score": score,
        "row": row.label,
        "scores": row_range(t, row),
        "result": row.result,
        "before": before,
        "after": after,
        "penalties": now,
    }
    if row.result == "no_effect":  # no wound: the action's card says it, and no wound card follows
        events.append(Event("unharmed", text, {"figure": victim.name, "by": attacker.name, **data}))
    else:
        outcome = row.label.lower()  # as every ruleset's outcomes read: "serious wound", "killed"
        heading = row.label if after in (row.result, before) else f"{row.label}, now {HEALTH_LABELS[after]}"
        payload = WoundPayload(victim.name, victim.side, attacker.name, heading, (now,) if now else (), outcome)
        events.append(payload.event(text, **data))
    if row.result == "knocked_about" and in_action(victim):
        _knocked_about(t, state, attacker, victim, dice, events)
    if after == "killed":
        casualty(t, state, victim, "killed", attacker.name, events)


def _health_change(t: MedievalTables, fig: MedFigure, before: Health, after: Health, result: str) -> str:
    if result == "no_effect":
        return f"{fig.name} has had a lucky escape and is unharmed."
    if result == "knocked_about":
        return f"{fig.name} is unharmed but knocked about."
    if after == "killed":
        if result == "killed":
            return f"{fig.name} is killed."
        return f"{fig.name} was already {HEALTH_LABELS[before]}: this {result} wound kills it."
    if after == before:
        return f"{fig.name} was already {HEALTH_LABELS[before]} and stays so: {penalties(t, fig)}."
    why = f" (a second {result} wound)" if before == result else ""
    return f"{fig.name} goes from {HEALTH_LABELS[before]} to {HEALTH_LABELS[after]}{why}: {penalties(t, fig)}."


def _knocked_about(
    t: MedievalTables, state: MedState, attacker: MedFigure, victim: MedFigure, dice: DiceSource, events: list[Event]
) -> None:
    """Pass Bravery: knocked back (A-MED-7); fail: knocked prone."""
    if bravery_test(t, victim, dice, "knocked about", events):
        if state.field is not None:
            _knocked_back_on_map(t, state, attacker, victim, events)
            return
        parted = t.knocked_back_breaks_contact and any({attacker.name, victim.name} == set(p) for p in state.contacts)
        if parted:
            drop_contacts(state, victim.name, attacker.name)
        text = f"{victim.name} is knocked back {inches(t.knocked_back_inches)} directly away from {attacker.name}"
        text += f", out of contact with {attacker.name}." if parted else "."
        events.append(
            Event(
                "knocked-back",
                text,
                {
                    "figure": victim.name,
                    "from": attacker.name,
                    "inches": t.knocked_back_inches,
                    "contact_broken": parted,
                },
            )
        )
    else:
        victim.prone = True
        events.append(Event("prone", f"{victim.name} is knocked prone.", {"figure": victim.name}))


def _knocked_back_on_map(
    t: MedievalTables, state: MedState, attacker: MedFigure, victim: MedFigure, events: list[Event]
) -> None:
    """A-MED-29: the figure is moved, and hand-to-hand follows where the bases stand."""
    went, stopped = onmap.knock_back(t, state, attacker, victim, t.knocked_back_inches)
    _, dropped = onmap.sync_contacts(t, state)
    parted = any(attacker.name in pair and victim.name in pair for pair in dropped)
    away = f"directly away from {attacker.name}"
    if stopped is None:
        text = f"{victim.name} is knocked back {inches(t.knocked_back_inches)} {away}"
    elif went > 0:
        text = f"{victim.name} is knocked back only {measured(went)} {away} ({stopped} stops it)"
    else:
        text = f"{victim.name} cannot be knocked back {away}: {stopped} is in the way"
    where = state.field.positions[victim.name] if state.field is not None else None
    text += f", to {where[0]:.1f},{where[1]:.1f}" if where and went > 0 else ""
    still = onmap.touching(t, state, attacker.name, victim.name)
    text += (
        f", still in contact with {attacker.name}."
        if still
        else (f", out of contact with {attacker.name}." if parted else ".")
    )
    data = {
        "figure": victim.name,
        "from": attacker.name,
        "inches": round(went, 4),
        "stopped_by": stopped,
        "contact_broken": parted,
    }
    events.append(Event("knocked-back", text, data))


def casualty(
    t: MedievalTables, state: MedState, fig: MedFigure, health: Health, by: str | None, events: list[Event]
) -> None:
    """A figure out of action (killed or collapsed): out of every contact, then the victory check."""
    fig.health = health
    fig.out_by = by
    fig.prone = False
    drop_contacts(state, fig.name)
    if state.current == fig.name:
        state.current = None
    if health == "killed":
        kit = kit_text(t, fig)
        text = f"{fig.name} ({fig.side}) is killed and removed from play; its kit ({kit}) may be plundered."
    else:
        text = f"{fig.name} ({fig.side}) collapses from its injuries and is out of action."
    events.append(CasualtyPayload(fig.name, fig.side, by).event(text, health=health))
    check_victory(state, events)


def check_victory(state: MedState, events: list[Event]) -> bool:
    """A side with no figure left in action has lost."""
    if state.phase == "over":
        return True
    for side in state.sides:
        if not any(in_action(f) for f in state.figures if f.side == side):
            state.winner = other_side(state, side)
            state.phase = "over"
            state.current = None
            text = f"{state.winner} wins: none of {side}'s figures is left in action."
            events.append(VictoryPayload(state.winner, side).event(text))
            return True
    return False
