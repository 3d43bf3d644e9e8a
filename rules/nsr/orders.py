"""NSR's actions, each a handler ``(ctx, params)``: a unit's orders (each belongs to a phase and
acts for the unit a card activated), a side's choice of unit for a card, completing charges in
close combat, describing a building (no one's turn) and setting units out on the map. Each
handler checks whose it is before anything is rolled.
"""

from __future__ import annotations

from rules.battlefield.deployment import DeployOptions
from rules.battlefield.mapplay import DEPLOYED, DEPLOYMENT_DONE, PLACED
from rules.core import Context, RuleError
from rules.nsr import close_combat, fire, movement, onmap, sequence, towns
from rules.nsr.deck import label
from rules.nsr.lookup import Charts
from rules.nsr.options import (
    BombardOptions,
    BuildingOptions,
    ChargeOptions,
    ChooseOptions,
    FireOptions,
    FormOptions,
    HoldOptions,
    MeleeOptions,
    MoveOptions,
    NsrPlaceOptions,
    OccupyOptions,
    PistolOptions,
    VolleyOptions,
    WorkOptions,
)
from rules.nsr.state import NsrState, Unit, unit_named, waiting_card
from rules.words import same_name

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


def acting_unit(ctx: Ctx, order: str, phase: str | None, wanted: str | None) -> Unit:
    """The unit the card activated, giving ``order`` in ``phase`` (None: movement or fire); refused
    in another phase, for another unit (``wanted``), or for the other side's player."""
    state = ctx.state
    if phase is None and state.phase not in ("movement", "fire"):
        raise RuleError(f"Units hold in the movement or fire phase; it is the {PHASE_NAMES[state.phase]} phase.")
    if phase is not None and state.phase != phase:
        hint = ": complete the charges with /nsr melee" if state.phase == "close_combat" else ""
        raise RuleError(f"Units {order} only in the {phase} phase; it is the {PHASE_NAMES[state.phase]} phase{hint}.")
    if not state.active:
        raise RuleError("No unit is acting now.")
    unit = unit_named(state, state.active)
    if wanted is not None and unit_named(state, wanted).name != unit.name:
        other = unit_named(state, wanted)
        raise RuleError(f"{other.name} is not the unit acting now: {unit.name} acts on {label(state.card)}.")
    check_side(ctx, unit.side)
    return unit


def _done(ctx: Ctx, unit: Unit, ended: bool) -> None:
    """When the order ends the unit's activation, the next card is turned."""
    if ended:
        sequence.finish(ctx.t, ctx.state, unit, ctx.dice, ctx.events)


# --- the movement phase -----------------------------------------------------------------------------


def move(ctx: Ctx, p: MoveOptions) -> None:
    unit = acting_unit(ctx, "move", "movement", p.unit)
    _done(ctx, unit, movement.move(ctx.t, ctx.state, unit, p, ctx.dice, ctx.events))


def charge(ctx: Ctx, p: ChargeOptions) -> None:
    unit = acting_unit(ctx, "charge", "movement", p.unit)
    _done(ctx, unit, movement.charge(ctx.t, ctx.state, unit, p, ctx.dice, ctx.events))


def form(ctx: Ctx, p: FormOptions) -> None:
    unit = acting_unit(ctx, "form", "movement", p.unit)
    _done(ctx, unit, movement.form(ctx.t, ctx.state, unit, p, ctx.dice, ctx.events))


def occupy(ctx: Ctx, p: OccupyOptions) -> None:
    unit = acting_unit(ctx, "occupy", "movement", p.unit)
    _done(ctx, unit, towns.occupy(ctx.t, ctx.state, unit, p, ctx.dice, ctx.events))


def work(ctx: Ctx, p: WorkOptions) -> None:
    unit = acting_unit(ctx, "work", "movement", p.unit)
    _done(ctx, unit, towns.work(ctx.t, ctx.state, unit, p, ctx.dice, ctx.events))


def hold(ctx: Ctx, p: HoldOptions) -> None:
    """A unit holds; while setting out units on the map (an absent side's deadline too), the
    acting side's units still to place are deployed instead, as ``/map deploy`` would."""
    if ctx.state.phase != "deployment":
        unit = acting_unit(ctx, "hold", None, p.unit)
        _done(ctx, unit, movement.hold(ctx.t, ctx.state, unit, ctx.events))
        return
    waiting = onmap.waiting_to_place(ctx.state)
    side = ctx.side or (waiting[0].side if waiting else None)
    if not any(u.side == side for u in waiting):
        names = ", ".join(u.name for u in waiting)
        raise RuleError(f"Your units are all on the map; the battle begins once the rest are placed: {names}.")
    deploy(ctx, DeployOptions(side=side))


# --- the fire phase ---------------------------------------------------------------------------------


def fire_at(ctx: Ctx, p: FireOptions) -> None:
    unit = acting_unit(ctx, "fire", "fire", p.unit)
    _done(ctx, unit, fire.fire(ctx.t, ctx.state, unit, p, ctx.dice, ctx.events))


def volley(ctx: Ctx, p: VolleyOptions) -> None:
    unit = acting_unit(ctx, "volley", "fire", p.unit)
    _done(ctx, unit, fire.volley(ctx.t, ctx.state, unit, p, ctx.dice, ctx.events))


def pistol(ctx: Ctx, p: PistolOptions) -> None:
    unit = acting_unit(ctx, "pistol", "fire", p.unit)
    _done(ctx, unit, fire.pistol(ctx.t, ctx.state, unit, p, ctx.dice, ctx.events))


def bombard(ctx: Ctx, p: BombardOptions) -> None:
    unit = acting_unit(ctx, "bombard", "fire", p.unit)
    _done(ctx, unit, towns.bombard(ctx.t, ctx.state, unit, p, ctx.dice, ctx.events))


# --- a card's choice, close combat and the table ------------------------------------------------------


def choose(ctx: Ctx, p: ChooseOptions) -> None:
    """A side names the unit that acts on the card turned for it (or passes)."""
    state = ctx.state
    pending = state.pending
    check_side(ctx, pending.decider if pending else None)
    if pending is None:
        raise RuleError("No card is waiting for a choice.")
    if p.card is not None and p.card != waiting_card(pending):
        raise RuleError(f"That choice was for another card: {label(waiting_card(pending))} is waiting now.")
    sequence.choose(ctx.t, state, p.choice, ctx.dice, ctx.events)


def melee(ctx: Ctx, p: MeleeOptions) -> None:
    """Complete one charge (the first waiting, or the one of the unit named) in the close combat phase."""
    state = ctx.state
    if state.phase != "close_combat":
        raise RuleError(f"Charges are completed in the close combat phase; it is the {PHASE_NAMES[state.phase]} phase.")
    waiting = close_combat.pending_charges(state)
    charge = waiting[0]
    if p.unit is not None:
        unit = unit_named(state, p.unit)
        found = next((ch for ch in waiting if unit.name in (ch.charger, ch.target)), None)
        if found is None:
            raise RuleError(f"{unit.name} has no charge waiting to be completed.")
        charge = found
    check_side(ctx, unit_named(state, charge.charger).side)
    close_combat.melee(ctx.t, state, charge, p, ctx.dice, ctx.events)
    if not close_combat.pending_charges(state) and not sequence.check_victory(state, ctx.events):
        sequence.end_turn(ctx.t, state, ctx.dice, ctx.events)


def building(ctx: Ctx, p: BuildingOptions) -> None:
    """Describe a building on the table (anyone, at any time: it is no one's turn)."""
    towns.describe(ctx.t, ctx.state, p, ctx.events)


# --- deployment on the bot's map --------------------------------------------------------------------


def place(ctx: Ctx, p: NsrPlaceOptions) -> None:
    """``/map place``: one unit set down in its side's zone (rules/nsr/onmap.py)."""
    text = onmap.place_text(ctx.t.t, ctx.state, p, ctx.side, ctx.by_gm)
    ctx.say(PLACED, text, unit=p.figure)
    _begin_when_placed(ctx)


def deploy(ctx: Ctx, p: DeployOptions) -> None:
    """``/map deploy``: a side's units still to place set out in its zone."""
    text = onmap.deploy_text(ctx.t.t, ctx.state, p, ctx.side, ctx.by_gm)
    ctx.say(DEPLOYED, text, side=p.side or ctx.side)
    _begin_when_placed(ctx)


def _begin_when_placed(ctx: Ctx) -> None:
    """Once every unit is on the map the first turn's movement phase begins: cards are turned."""
    if onmap.waiting_to_place(ctx.state):
        return
    ctx.say(DEPLOYMENT_DONE, "Every unit is on the map: the first turn's movement phase begins.")
    sequence.start_phase(ctx.t, ctx.state, "movement", ctx.dice, ctx.events)
