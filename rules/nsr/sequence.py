"""The turn sequence: phases, the card turned for each activation, the side's choice of unit, victory."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from rules.contract import Waiting
from rules.core import DiceSource, Event, PhasePayload, RuleError, VictoryPayload
from rules.nsr.close_combat import pending_charges
from rules.nsr.deck import is_joker, label, opening, shuffle, side_of, turn_card
from rules.nsr.fire import fire_block, in_reach, joker_fire, why_not_firing
from rules.nsr.hits import summary
from rules.nsr.lookup import Charts
from rules.nsr.morale import morale_phase, rout_moves
from rules.nsr.movement import joker_movement
from rules.nsr.state import NsrState, Unit, side_units, unit_named, waiting_card
from rules.nsr.towns import credit_work
from rules.words import possessive

VERB = {"movement": "move", "fire": "fire"}
MAX_CHOICES = 25
PASS = "pass"
IDLE_TURNS_TO_DRAW = 3


def eligible(c: Charts, state: NsrState, unit: Unit) -> bool:
    """A unit that may still act on a card of its colour this phase."""
    if unit.out:
        return False
    if state.phase == "movement":
        return not unit.moved and not unit.shaken
    if state.phase == "fire":
        return not unit.fired and fire_block(c, state, unit) is None and in_reach(c, state, unit)
    return False


def waiting(c: Charts, state: NsrState) -> list[Unit]:
    return [u for u in state.units if eligible(c, state, u)]


def start_phase(
    c: Charts, state: NsrState, phase: Literal["movement", "fire"], dice: DiceSource, events: list[Event]
) -> None:
    """Movement and fire phases begin with a shuffled deck and the first card."""
    state.phase = phase
    events.append(PhasePayload(state.turn, phase).event(f"Turn {state.turn} · {phase} phase."))
    for unit in state.units:
        unit.joker, unit.smoke = 0, 0
    shuffle(state.deck, state.discards, f"start of the {phase} phase", events)
    if phase == "movement":
        rout_moves(c, state, dice, events)
    next_card(c, state, dice, events)


def next_card(c: Charts, state: NsrState, dice: DiceSource, events: list[Event]) -> None:
    """Turn cards until one gives a side a choice to make, or end the phase when no unit waits."""
    state.card, state.active, state.pending = "", "", None
    if check_victory(state, events):
        return
    verb = VERB[state.phase]
    while True:
        ready = waiting(c, state)  # turning a card changes the deck alone: who may act stays the same
        if not ready:
            if state.phase == "fire":
                _say_who_could_not_fire(c, state, events)
            end_phase(c, state, dice, events)
            return
        card = turn_card(state.deck, state.discards, dice, f"{state.phase.title()} phase: the next card", events)
        side = side_of(card, state.sides)
        units = [u for u in ready if u.side == side]
        joker = is_joker(card)
        effect_only = joker and not units and state.phase == "movement"
        if effect_only:
            units = [u for u in side_units(state, side) if not u.out]
        if not units and (c.t.options.card_for_side_without_units == "skip" or not side_units(state, side)):
            events.append(
                Event(
                    "card",
                    f"{opening(card)} — {side} has no unit left to {verb}: the card passes.",
                    {"card": card, "side": side, "phase": state.phase, "passed": True},
                )
            )
            continue
        _ask(state, card, side, units, joker, effect_only, events)
        return


def _say_who_could_not_fire(c: Charts, state: NsrState, events: list[Event]) -> None:
    """The fire phase ends when no unit may fire: say why of each unit that had no fire card."""
    idle = [u for u in state.units if not u.out and not u.fired]
    reasons = [why for u in idle if (why := why_not_firing(c, state, u)) is not None]
    if not reasons:
        return
    first = "No unit may fire" if not any(u.fired for u in state.units) else "No other unit may fire"
    events.append(
        Event(
            "no-fire",
            f"{first}: {'; '.join(reasons)}.",
            {"units": {u.name: why_not_firing(c, state, u) for u in idle}},
        )
    )


def _ask(
    state: NsrState, card: str, side: str, units: list[Unit], joker: bool, effect_only: bool, events: list[Event]
) -> None:
    verb = VERB[state.phase]
    chart = "Joker Movement" if state.phase == "movement" else "Joker Fire"
    if effect_only:
        prompt = f"{opening(card)} — {side}: no unit is left to move; choose one for the {chart} chart's effect"
    elif joker:
        prompt = f"{opening(card)} — {side}: choose a unit to {verb} (it rolls on the {chart} chart)"
    elif units:
        prompt = f"{opening(card)} — {side}: choose a unit to {verb}"
    else:
        prompt = f"{opening(card)} — {side}: no unit is left to {verb}; pass"
    choices = [[u.name, f"{u.name} ({u.troop}, {summary(u).split(',')[0]})"[:80]] for u in units[:MAX_CHOICES]]
    if not choices:
        choices = [[PASS, "Pass (no unit left)"]]
    state.card = card
    state.pending = Waiting(decider=side, prompt=prompt, choices=choices, resume_action="choose", params={"card": card})
    events.append(
        Event(
            "card",
            prompt + ".",
            {
                "card": card,
                "label": label(card),
                "side": side,
                "phase": state.phase,
                "joker": joker,
                "choices": [v for v, _ in choices],
            },
        )
    )


def choose(c: Charts, state: NsrState, params: Mapping[str, Any], dice: DiceSource, events: list[Event]) -> None:
    """The side's answer to a card: the unit that acts on it (or pass)."""
    pending = state.pending
    if pending is None:
        raise RuleError("No card is waiting for a choice.")
    wanted = str(params.get("choice") or "").strip().casefold()
    value = next((v for v, lbl in pending.choices if wanted in (v.casefold(), lbl.casefold())), None)
    if value is None:
        raise RuleError(f"Choose one of {', '.join(v for v, _ in pending.choices)} for {label(waiting_card(pending))}.")
    card, verb = waiting_card(pending), VERB[state.phase]
    state.pending = None
    if value == PASS:
        events.append(Event("pass", f"{pending.decider} passes on {label(card)}.", {"side": pending.decider}))
        next_card(c, state, dice, events)
        return
    unit = unit_named(state, value)
    if not eligible(c, state, unit):  # a joker's effect with no unit left to act (A-NSR-6)
        events.append(
            Event(
                "choose",
                f"{pending.decider} names {unit.name} for the {label(card)}.",
                {"unit": unit.name, "card": card},
            )
        )
        joker_movement(c, state, unit, card, dice, events, effect_only=True)
        next_card(c, state, dice, events)
        return
    state.active = unit.name
    events.append(
        Event(
            "choose",
            f"{pending.decider} chooses {unit.name} to {verb} on {label(card)}.",
            {"unit": unit.name, "card": card, "side": unit.side, "phase": state.phase},
        )
    )
    if is_joker(card):
        if state.phase == "movement":
            if joker_movement(c, state, unit, card, dice, events):
                finish(c, state, unit, dice, events)
        else:
            joker_fire(c, state, unit, card, dice, events)


def finish(c: Charts, state: NsrState, unit: Unit, dice: DiceSource, events: list[Event]) -> None:
    """The active unit's activation is over: mark it and turn the next card."""
    if state.phase == "movement":
        unit.moved = True
    else:
        unit.fired = True
    next_card(c, state, dice, events)


def end_phase(c: Charts, state: NsrState, dice: DiceSource, events: list[Event]) -> None:
    state.card, state.active, state.pending = "", "", None
    if state.phase == "movement":
        for unit in state.units:
            unit.immobile = False
        events.append(
            PhasePayload(state.turn, "leaders").event(
                "Every unit has moved or had the chance: leaders not with a unit may move now (A-NSR-28)."
            )
        )
        start_phase(c, state, "fire", dice, events)
        return
    if state.phase == "fire":
        waiting_charges = pending_charges(state)
        if waiting_charges:
            state.phase = "close_combat"
            listed = "; ".join(f"{ch.charger} → {ch.target}" for ch in waiting_charges)
            events.append(
                PhasePayload(state.turn, "close_combat").event(
                    f"Turn {state.turn} · close combat phase: {listed}. Complete each charge with /nsr melee."
                )
            )
            return
    end_turn(c, state, dice, events)


def end_turn(c: Charts, state: NsrState, dice: DiceSource, events: list[Event]) -> None:
    """Morale, work credited, the turn's marks cleared, and the next turn's movement phase."""
    morale_phase(c, state, dice, events)
    credit_work(c, state, events)
    if check_victory(state, events):
        return
    acted = any(u.moved or u.fired or u.charged or u.fought for u in state.units)
    state.idle_turns = 0 if acted else state.idle_turns + 1
    if state.idle_turns >= IDLE_TURNS_TO_DRAW:
        state.over, state.phase, state.winner = True, "over", None
        events.append(
            Event(
                "draw",
                f"No unit has been able to act for {IDLE_TURNS_TO_DRAW} turns: the battle is a draw.",
                {"winner": None},
            )
        )
        return
    for unit in state.units:
        unit.moved = unit.held = unit.fired = unit.charged = unit.fought = unit.hit_this_turn = False
        unit.joker, unit.smoke, unit.pistols_fired = 0, 0, []
        for f in unit.figures:
            if f.duty == "carrying":
                f.duty = ""
    state.charges = []
    state.turn += 1
    start_phase(c, state, "movement", dice, events)


def check_victory(state: NsrState, events: list[Event]) -> bool:
    """A side with no unit left in the fight (every unit fallen or routed) has lost."""
    if state.over:
        return True
    beaten = [s for s in state.sides if all(u.out for u in side_units(state, s))]
    if not beaten:
        return False
    state.over, state.phase = True, "over"
    state.card, state.active, state.pending = "", "", None
    if len(beaten) == 2:
        state.winner = None
        events.append(
            Event("draw", "Neither side has a unit left in the fight: the battle is a draw.", {"winner": None})
        )
    else:
        loser = beaten[0]
        state.winner = next(s for s in state.sides if s != loser)
        events.append(
            VictoryPayload(state.winner, loser).event(f"{state.winner} wins: {loser} has no unit left in the fight.")
        )
    return True


def describe_wait(state: NsrState) -> str:
    if state.pending is not None:
        return f"{state.pending.decider}: {state.pending.prompt}"
    if state.active:
        return f"{state.active} ({VERB.get(state.phase, 'act')})"
    if state.phase == "close_combat":
        waiting_charges = pending_charges(state)
        return f"{possessive(waiting_charges[0].charger)} charge: /nsr melee" if waiting_charges else "—"
    return "—"
