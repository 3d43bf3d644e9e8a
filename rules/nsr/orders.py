"""NSR's actions in one table: a unit's orders (each belongs to a phase and acts for the unit a card
activated), a side's choice of unit for a card, completing charges in close combat, and describing
a building (no one's turn). Each handler checks whose it is before anything is rolled.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.battlefield.mapplay import DEPLOYED, DEPLOYMENT_DONE, PLACED
from rules.core import Context, DiceSource, Event, Handler, RuleError
from rules.nsr import close_combat, fire, movement, onmap, sequence, towns
from rules.nsr.deck import label
from rules.nsr.lookup import Charts
from rules.nsr.state import NsrState, Unit, unit_named, waiting_card
from rules.words import blank, same_name

#: What carries out a unit's order; True when the order ends the unit's activation.
UnitOrder = Callable[[Charts, NsrState, Unit, Mapping[str, Any], DiceSource, list[Event]], bool]

PHASE_NAMES = {"deployment": "deployment", "movement": "movement", "fire": "fire", "close_combat": "close combat"}
#: The action that answers a card: the unit that acts on it.
CHOOSE = "choose"


class Ctx(Context[NsrState, Charts]):
    """One NSR action being applied (:class:`rules.core.Context`); ``t`` holds the charts."""


def check_side(ctx: Ctx, side: str | None) -> None:
    """Only ``side``'s player (or the game master) may take this action."""
    if side is None or ctx.by_gm:
        return
    if not same_name(ctx.side, side):
        raise RuleError(f"It is {side}'s turn.")


def order(name: str, phase: str | None, carry_out: UnitOrder) -> Handler[Ctx]:
    """The handler of a unit's order ``name``, given in ``phase`` (None: movement or fire) by the
    side of the unit the card activated."""

    def handler(ctx: Ctx, params: Mapping[str, Any]) -> None:
        state = ctx.state
        if phase is None and state.phase not in ("movement", "fire"):
            raise RuleError(f"Units hold in the movement or fire phase; it is the {PHASE_NAMES[state.phase]} phase.")
        if phase is not None and state.phase != phase:
            hint = ": complete the charges with /nsr melee" if state.phase == "close_combat" else ""
            raise RuleError(
                f"Units {name} only in the {phase} phase; it is the {PHASE_NAMES[state.phase]} phase{hint}."
            )
        if not state.active:
            raise RuleError("No unit is acting now.")
        unit = unit_named(state, state.active)
        wanted = params.get("unit")
        if not blank(wanted) and unit_named(state, wanted).name != unit.name:
            other = unit_named(state, wanted)
            raise RuleError(f"{other.name} is not the unit acting now: {unit.name} acts on {label(state.card)}.")
        check_side(ctx, unit.side)
        if carry_out(ctx.t, state, unit, params, ctx.dice, ctx.events):
            sequence.finish(ctx.t, state, unit, ctx.dice, ctx.events)

    return handler


def choose(ctx: Ctx, params: Mapping[str, Any]) -> None:
    """A side names the unit that acts on the card turned for it (or passes)."""
    state = ctx.state
    pending = state.pending
    check_side(ctx, pending.decider if pending else None)
    if pending is None:
        raise RuleError("No card is waiting for a choice.")
    card = params.get("card")
    if card is not None and card != waiting_card(pending):
        raise RuleError(f"That choice was for another card: {label(waiting_card(pending))} is waiting now.")
    sequence.choose(ctx.t, state, params, ctx.dice, ctx.events)


def melee(ctx: Ctx, params: Mapping[str, Any]) -> None:
    """Complete one charge (the first waiting, or the one of the unit named) in the close combat phase."""
    state = ctx.state
    if state.phase != "close_combat":
        raise RuleError(f"Charges are completed in the close combat phase; it is the {PHASE_NAMES[state.phase]} phase.")
    waiting = close_combat.pending_charges(state)
    charge = waiting[0]
    wanted = params.get("unit")
    if not blank(wanted):
        unit = unit_named(state, wanted)
        found = next((ch for ch in waiting if unit.name in (ch.charger, ch.target)), None)
        if found is None:
            raise RuleError(f"{unit.name} has no charge waiting to be completed.")
        charge = found
    check_side(ctx, unit_named(state, charge.charger).side)
    close_combat.melee(ctx.t, state, {**params, "unit": charge.charger}, ctx.dice, ctx.events)
    if not close_combat.pending_charges(state) and not sequence.check_victory(state, ctx.events):
        sequence.end_turn(ctx.t, state, ctx.dice, ctx.events)


def building(ctx: Ctx, params: Mapping[str, Any]) -> None:
    """Describe a building on the table (anyone, at any time: it is no one's turn)."""
    towns.describe(ctx.t, ctx.state, params, ctx.events)


# --- deployment on the bot's map --------------------------------------------------------------------


def place(ctx: Ctx, params: Mapping[str, Any]) -> None:
    """``/map place``: one unit set down in its side's zone (rules/nsr/onmap.py)."""
    text = onmap.place_text(ctx.t.t, ctx.state, params, ctx.side, ctx.by_gm)
    ctx.say(PLACED, text, unit=params.get("unit") or params.get("figure"))
    _begin_when_placed(ctx)


def deploy(ctx: Ctx, params: Mapping[str, Any]) -> None:
    """``/map deploy``: a side's units still to place set out in its zone."""
    text = onmap.deploy_text(ctx.t.t, ctx.state, params, ctx.side, ctx.by_gm)
    ctx.say(DEPLOYED, text, side=params.get("side") or ctx.side)
    _begin_when_placed(ctx)


def _begin_when_placed(ctx: Ctx) -> None:
    """Once every unit is on the map the first turn's movement phase begins: cards are turned."""
    if onmap.waiting_to_place(ctx.state):
        return
    ctx.say(DEPLOYMENT_DONE, "Every unit is on the map: the first turn's movement phase begins.")
    sequence.start_phase(ctx.t, ctx.state, "movement", ctx.dice, ctx.events)


_hold = order("hold", None, movement.hold)


def hold(ctx: Ctx, params: Mapping[str, Any]) -> None:
    """A unit holds; while setting out units on the map (an absent side's deadline too), the
    acting side's units still to place are deployed instead, as ``/map deploy`` would."""
    if ctx.state.phase != "deployment":
        _hold(ctx, params)
        return
    waiting = onmap.waiting_to_place(ctx.state)
    side = ctx.side or (waiting[0].side if waiting else None)
    if not any(u.side == side for u in waiting):
        names = ", ".join(u.name for u in waiting)
        raise RuleError(f"Your units are all on the map; the battle begins once the rest are placed: {names}.")
    deploy(ctx, {"side": side})


HANDLERS: dict[str, Handler[Ctx]] = {
    "move": order("move", "movement", movement.move),
    "charge": order("charge", "movement", movement.charge),
    "form": order("form", "movement", movement.form),
    "occupy": order("occupy", "movement", towns.occupy),
    "work": order("work", "movement", towns.work),
    "hold": hold,
    "fire": order("fire", "fire", fire.fire),
    "volley": order("volley", "fire", fire.volley),
    "pistol": order("pistol", "fire", fire.pistol),
    "bombard": order("bombard", "fire", towns.bombard),
    CHOOSE: choose,
    "melee": melee,
    "building": building,
    "place": place,
    "deploy": deploy,
}
