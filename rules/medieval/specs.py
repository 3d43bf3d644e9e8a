"""The medieval game's actions, declared once (:mod:`rules.specs`): what each takes, what carries
it out, and what a side could do with it now on the bot's map."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rules.battlefield.deployment import DeployOptions, PlaceOptions
from rules.medieval import actions, onmap
from rules.medieval.options import (
    ActivateOptions,
    BreakoffOptions,
    FightOptions,
    HealOptions,
    MoveOptions,
    OrderOptions,
    PickupOptions,
    ShootOptions,
    StandOptions,
)
from rules.medieval.state import ORDER_ACTION, MedFigure, MedState, enemies_in_contact, in_action
from rules.specs import ActionSpec, Candidate, NoParams, Role, spec_table

#: How far a figure steps straight away from the enemy it fears, or out of a fight, in inches.
AWAY_INCHES = 3.0
#: How far a figure strolls in each of the four directions of the map, in inches.
STROLL_INCHES = 6.0
#: Kept this far inside the map's edges, in inches.
EDGE_INCHES = 0.5


def _acting(state: MedState, side: str) -> list[MedFigure]:
    """``side``'s figures that may act now: in action, and not yet activated (or the one acting)."""
    if state.phase != "play" or state.pending is not None or side != state.active:
        return []
    return [
        f for f in state.figures if f.side == side and in_action(f) and (not f.activated or state.current == f.name)
    ]


def _foes(state: MedState, side: str) -> list[MedFigure]:
    return [f for f in state.figures if f.side != side and in_action(f)]


def _on_map(state: MedState) -> dict[str, tuple[float, float]]:
    if state.field is None:
        return {}
    placed = state.field.positions
    return {f.name: (placed[f.name][0], placed[f.name][1]) for f in state.figures if f.name in placed}


def _kept_on(state: MedState, x: float, y: float) -> str:
    """``x,y`` kept inside the map, as a point option takes it."""
    assert state.field is not None
    width, height = state.field.map.width, state.field.map.height
    x = min(max(x, EDGE_INCHES), width - EDGE_INCHES)
    y = min(max(y, EDGE_INCHES), height - EDGE_INCHES)
    return f"{x:.1f},{y:.1f}"


def _away(state: MedState, here: tuple[float, float], there: tuple[float, float]) -> str:
    """A point :data:`AWAY_INCHES` straight away from ``there``, kept on the map."""
    gap = math.dist(here, there) or 1.0
    return _kept_on(
        state,
        here[0] + (here[0] - there[0]) / gap * AWAY_INCHES,
        here[1] + (here[1] - there[1]) / gap * AWAY_INCHES,
    )


def _nearest(here: tuple[float, float], others: dict[str, tuple[float, float]]) -> str | None:
    return min(others, key=lambda name: math.dist(here, others[name]), default=None)


def activate_candidates(engine: Any, state: MedState, side: str) -> Sequence[Candidate]:
    """Activating a figure not yet activated (a seriously wounded one tests its Bravery)."""
    return [Candidate("activate", {"figure": f.name}, 0.3) for f in _acting(state, side) if not f.activated]


def stand_candidates(engine: Any, state: MedState, side: str) -> Sequence[Candidate]:
    return [Candidate("stand", {"figure": f.name}, 2.0) for f in _acting(state, side) if f.prone]


def move_candidates(engine: Any, state: MedState, side: str) -> Sequence[Candidate]:
    """On the map: each free figure toward its nearest enemy (eagerly, into contact), straight away
    from it, or a stroll in each direction. At a table the distance is the player's to type."""
    where = _on_map(state)
    found = []
    for fig in _acting(state, side):
        if fig.name not in where or enemies_in_contact(state, fig):
            continue
        here = where[fig.name]
        enemy = _nearest(here, {e.name: where[e.name] for e in _foes(state, side) if e.name in where})
        if enemy is not None:
            found.append(Candidate("move", {"figure": fig.name, "toward": enemy}, 4.0))
            found.append(Candidate("move", {"figure": fig.name, "to": _away(state, here, where[enemy])}, 0.3))
        for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            to = _kept_on(state, here[0] + dx * STROLL_INCHES, here[1] + dy * STROLL_INCHES)
            found.append(Candidate("move", {"figure": fig.name, "to": to}, 0.2))
    return found


def shoot_candidates(engine: Any, state: MedState, side: str) -> Sequence[Candidate]:
    """On the map: a shot at every enemy by every free figure (the bot measures range and sight,
    and refuses a figure with nothing to shoot)."""
    if state.field is None:
        return ()
    foes = _foes(state, side)
    return [
        Candidate("shoot", {"figure": f.name, "target": e.name}, 1.5 / len(foes))
        for f in _acting(state, side)
        if not enemies_in_contact(state, f)
        for e in foes
    ]


def fight_candidates(engine: Any, state: MedState, side: str) -> Sequence[Candidate]:
    """Every figure in hand-to-hand against each enemy it touches."""
    return [
        Candidate("fight", {"figure": f.name, "opponent": enemy}, 6.0)
        for f in _acting(state, side)
        for enemy in enemies_in_contact(state, f)
    ]


def breakoff_candidates(engine: Any, state: MedState, side: str) -> Sequence[Candidate]:
    """On the map: a figure in hand-to-hand steps straight away from its first opponent."""
    where = _on_map(state)
    found = []
    for fig in _acting(state, side):
        held = enemies_in_contact(state, fig)
        if held and fig.name in where and held[0] in where:
            away = _away(state, where[fig.name], where[held[0]])
            found.append(Candidate("breakoff", {"figure": fig.name, "to": away}, 0.3))
    return found


def heal_candidates(engine: Any, state: MedState, side: str) -> Sequence[Candidate]:
    """Every free figure treating each wounded friend (the bot refuses one not touching it)."""
    mine = [f for f in state.figures if f.side == side and in_action(f)]
    return [
        Candidate("heal", {"figure": f.name, "patient": friend.name}, 0.2)
        for f in _acting(state, side)
        if not enemies_in_contact(state, f)
        for friend in mine
        if friend.name != f.name and friend.health != "full"
    ]


def endturn_candidates(engine: Any, state: MedState, side: str) -> Sequence[Candidate]:
    if state.phase != "play" or state.pending is not None or side != state.active:
        return ()
    return (Candidate("endturn", {}, 0.5),)


def deploy_candidates(engine: Any, state: MedState, side: str) -> Sequence[Candidate]:
    """Setting out the side's figures still to place."""
    if state.phase != "deployment":
        return ()
    waiting = set(onmap.unplaced(state))
    if not any(f.side == side and f.name in waiting for f in state.figures):
        return ()
    return (Candidate("deploy", {"side": side}, 1.0),)


def order_candidates(engine: Any, state: MedState, side: str) -> Sequence[Candidate]:
    """The roll-off winner's answers: go first, or second."""
    pending = state.pending
    if pending is None or pending.decider != side:
        return ()
    return [Candidate(ORDER_ACTION, {"choice": value}, 1.0) for value, _ in pending.choices]


SPECS = spec_table(
    ActionSpec(
        "activate",
        "Activate a figure; a seriously wounded one tests Bravery first",
        ActivateOptions,
        actions.activate,
        candidates=activate_candidates,
    ),
    ActionSpec(
        "move",
        "Move part or all of a figure's speed, and maybe engage an enemy",
        MoveOptions,
        actions.move,
        acting="figure",
        candidates=move_candidates,
    ),
    ActionSpec(
        "stand",
        "A prone figure stands up (uses half its speed)",
        StandOptions,
        actions.stand,
        candidates=stand_candidates,
    ),
    ActionSpec(
        "shoot",
        "Shoot or throw: D6 + Shoot + Accuracy + factors, 5 or more hits",
        ShootOptions,
        actions.shoot,
        acting="figure",
        candidates=shoot_candidates,
    ),
    ActionSpec(
        "fight",
        "Hand-to-hand: D6 + Fight + Accuracy + factors each, the higher wounds",
        FightOptions,
        actions.fight,
        acting="figure",
        candidates=fight_candidates,
    ),
    ActionSpec(
        "breakoff",
        "Try to move away from hand-to-hand: a Bravery contest with each opponent",
        BreakoffOptions,
        actions.breakoff,
        acting="figure",
        candidates=breakoff_candidates,
    ),
    ActionSpec(
        "heal",
        "Treat a friend in contact: light wound to full, serious to light",
        HealOptions,
        actions.heal,
        candidates=heal_candidates,
    ),
    ActionSpec(
        "pickup",
        "Pick up a thrown weapon, or plunder a killed figure's kit",
        PickupOptions,
        actions.pickup,
    ),
    ActionSpec(
        "endturn",
        "End your turn: the other side activates its figures",
        NoParams,
        actions.end_turn,
        role=Role.PASS,
        candidates=endturn_candidates,
    ),
    ActionSpec(
        "place",
        "Place a figure in its side's deployment zone, before the roll-off",
        PlaceOptions,
        actions.place,
        role=Role.MAP,
    ),
    ActionSpec(
        "deploy",
        "Set out a side's unplaced figures in its zone, before the roll-off",
        DeployOptions,
        actions.deploy,
        role=Role.MAP,
        candidates=deploy_candidates,
    ),
    ActionSpec(
        ORDER_ACTION,
        "The roll-off's winner chooses to go first or second",
        OrderOptions,
        actions.order,
        role=Role.ANSWER,
        candidates=order_candidates,
    ),
)
