"""NSR's actions, declared once (:mod:`rules.specs`): what each takes, what carries it out, and
what a side could do with it now. Moves, charges and shots are offered on the bot's map, where it
measures them; at a table the distances are the players' to type, so only what needs none is."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.battlefield import battlefield_of
from rules.battlefield.deployment import DeployOptions
from rules.geometry import Point
from rules.nsr import onmap, orders
from rules.nsr.options import (
    FORMATIONS,
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
from rules.nsr.state import NsrState, Unit, waiting_card
from rules.specs import ActionSpec, Candidate, Role, spec_table

#: How far a unit steps back from its nearest enemy when it gives ground, in inches.
STEP_BACK = 4.0
#: The formations a unit's player reforms into (not a gun's limbering).
REFORM = tuple(f for f in FORMATIONS if f not in ("limbered", "manhandled"))


def _acting(engine: Any, state: NsrState, side: str, phase: str) -> Unit | None:
    """The unit a card activated for ``side`` in ``phase``, when it is that side's to order."""
    if state.over or state.phase != phase or state.pending is not None or not state.active:
        return None
    unit = next((u for u in state.units if u.name == state.active), None)
    return unit if unit is not None and unit.side == side else None


def _foes(state: NsrState, unit: Unit, *, placed: bool) -> list[Unit]:
    foes = [u for u in state.units if u.side != unit.side and not u.out]
    if placed:
        foes = [u for u in foes if onmap.placement_of(state, u) is not None]
    return foes


def _on_map(state: NsrState, unit: Unit) -> bool:
    return state.field is not None and onmap.placement_of(state, unit) is not None


def move_candidates(engine: Any, state: NsrState, side: str) -> Sequence[Candidate]:
    """On the map: toward the nearest enemy (eagerly), or a step back from it."""
    unit = _acting(engine, state, side, "movement")
    if unit is None or not _on_map(state, unit):
        return ()
    enemy = onmap.nearest_enemy(state, unit)
    if enemy is None:
        return ()
    found = [Candidate("move", {"toward": enemy.name}, 3.0)]
    back = _step_back(state, unit, enemy)
    if back is not None:
        found.append(Candidate("move", {"to": f"{back.x:g},{back.y:g}"}, 0.3))
    return found


def _step_back(state: NsrState, unit: Unit, enemy: Unit) -> Point | None:
    """A point :data:`STEP_BACK` inches straight away from ``enemy``, kept on the table."""
    mine, theirs = onmap.placement_of(state, unit), onmap.placement_of(state, enemy)
    if mine is None or theirs is None or state.field is None:
        return None
    dx, dy = mine.centre.x - theirs.centre.x, mine.centre.y - theirs.centre.y
    length = (dx * dx + dy * dy) ** 0.5
    if length == 0:
        return None
    table = battlefield_of(state.field.map).table
    x = min(max(mine.centre.x + dx / length * STEP_BACK, 1.0), table.width - 1.0)
    y = min(max(mine.centre.y + dy / length * STEP_BACK, 1.0), table.height - 1.0)
    return Point(round(x, 1), round(y, 1))


def charge_candidates(engine: Any, state: NsrState, side: str) -> Sequence[Candidate]:
    """On the map: a charge at every enemy unit standing on it."""
    unit = _acting(engine, state, side, "movement")
    if unit is None or not _on_map(state, unit):
        return ()
    foes = _foes(state, unit, placed=True)
    return [Candidate("charge", {"target": e.name}, 2.0 / len(foes)) for e in foes]


def form_candidates(engine: Any, state: NsrState, side: str) -> Sequence[Candidate]:
    """Reforming in place, into each of the usual formations but the one it stands in."""
    unit = _acting(engine, state, side, "movement")
    if unit is None:
        return ()
    others = [f for f in REFORM if f != unit.formation]
    return [Candidate("form", {"formation": f}, 0.2 / len(others)) for f in others]


def hold_candidates(engine: Any, state: NsrState, side: str) -> Sequence[Candidate]:
    unit = _acting(engine, state, side, state.phase) if state.phase in ("movement", "fire") else None
    return (Candidate("hold", {}, 0.5),) if unit is not None else ()


def fire_candidates(engine: Any, state: NsrState, side: str) -> Sequence[Candidate]:
    """On the map: fire at every enemy unit on it (the bot measures range, class and sight)."""
    unit = _acting(engine, state, side, "fire")
    if unit is None or not _on_map(state, unit):
        return ()
    foes = _foes(state, unit, placed=True)
    return [Candidate("fire", {"target": e.name}, 3.0 / len(foes)) for e in foes]


def volley_candidates(engine: Any, state: NsrState, side: str) -> Sequence[Candidate]:
    """On the map: a volley at every enemy unit on it."""
    unit = _acting(engine, state, side, "fire")
    if unit is None or not _on_map(state, unit):
        return ()
    foes = _foes(state, unit, placed=True)
    return [Candidate("volley", {"target": e.name}, 0.5 / len(foes)) for e in foes]


def melee_candidates(engine: Any, state: NsrState, side: str) -> Sequence[Candidate]:
    """In the close combat phase, completing the first charge waiting, when it is ``side``'s."""
    if state.over or state.phase != "close_combat" or engine.whose_turn(state) != side:
        return ()
    return (Candidate("melee", {}, 5.0),)


def choose_candidates(engine: Any, state: NsrState, side: str) -> Sequence[Candidate]:
    """One answer per choice of the card waiting for ``side``."""
    pending = state.pending
    if pending is None or state.over or pending.decider != side:
        return ()
    return [Candidate(orders.CHOOSE, {"choice": value, "card": waiting_card(pending)}) for value, _ in pending.choices]


SPECS = spec_table(
    ActionSpec(
        "move",
        "Movement: move on the movement chart",
        MoveOptions,
        orders.move,
        candidates=move_candidates,
    ),
    ActionSpec(
        "charge",
        'Movement: charge an enemy unit (stops 2" short; closes in close combat)',
        ChargeOptions,
        orders.charge,
        candidates=charge_candidates,
    ),
    ActionSpec(
        "form",
        "Movement: reform, turn, limber or go prone in place",
        FormOptions,
        orders.form,
        candidates=form_candidates,
    ),
    ActionSpec(
        "hold",
        "The unit does not move (movement) or does not fire (fire)",
        HoldOptions,
        orders.hold,
        role=Role.PASS,
        candidates=hold_candidates,
    ),
    ActionSpec("occupy", "Movement: the unit moves into a building (if there is room)", OccupyOptions, orders.occupy),
    ActionSpec("work", "Movement: spend the move cutting a loophole or breaching by hand", WorkOptions, orders.work),
    ActionSpec(
        "fire",
        "Fire: the unit fires on the firing chart (one or two targets)",
        FireOptions,
        orders.fire_at,
        candidates=fire_candidates,
    ),
    ActionSpec(
        "volley",
        "Fire: a volley to the front within half range, a card per figure",
        VolleyOptions,
        orders.volley,
        candidates=volley_candidates,
    ),
    ActionSpec(
        "pistol", "Fire: an officer's aimed pistol shot (5 wounds, 6 kills); fire after", PistolOptions, orders.pistol
    ),
    ActionSpec(
        "bombard", "Fire: a gun fires at a building's door, window or wall to breach it", BombardOptions, orders.bombard
    ),
    ActionSpec(
        "melee",
        "Close combat: complete a charge (close-in, stand, the fights)",
        MeleeOptions,
        orders.melee,
        candidates=melee_candidates,
    ),
    ActionSpec(
        "building", "Describe a building: roof places, storeys, windows, open doors", BuildingOptions, orders.building
    ),
    ActionSpec(
        orders.CHOOSE,
        "Choose the unit that acts on the card turned for your side (or pass)",
        ChooseOptions,
        orders.choose,
        role=Role.ANSWER,
        candidates=choose_candidates,
    ),
    ActionSpec(
        "place",
        "Place a unit in its side's deployment zone, before turn 1",
        NsrPlaceOptions,
        orders.place,
        role=Role.MAP,
    ),
    ActionSpec(
        "deploy",
        "Set out a side's unplaced units in its zone, before turn 1",
        DeployOptions,
        orders.deploy,
        role=Role.MAP,
    ),
)
