"""SSG's actions, declared once (:mod:`rules.specs`): what each takes, what carries it out, and
what a side could do with it now."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.battlefield.deployment import DeployOptions, PlaceOptions
from rules.specs import ActionSpec, Candidate, NoParams, Role, spec_table
from rules.ssg import play
from rules.ssg.data import SsgState
from rules.ssg.options import MeleeOptions, MoveOptions, ShootOptions


def _standing(state: SsgState, side: str) -> tuple[list[Any], list[Any]]:
    mine = [f for f in state.figures if f.side == side and not f.removed]
    foes = [f for f in state.figures if f.side != side and not f.removed]
    return mine, foes


def move_candidates(engine: Any, state: SsgState, side: str) -> Sequence[Candidate]:
    """On the map: each figure that may still move, toward its nearest enemy (eagerly) or a little
    away from it. At a table the distance is the player's to type, so none are offered."""
    if state.phase != "movement" or state.field is None:
        return ()
    mine, foes = _standing(state, side)
    ready = set(play.ready(engine.tables, state, side))
    found = []
    for fig in mine:
        if fig.name not in ready or fig.name not in state.field.positions:
            continue
        enemy = _nearest(state, fig.name, [f.name for f in foes])
        if enemy is not None:
            found.append(Candidate("move", {"figure": fig.name, "toward": enemy}, 4.0))
    return found


def _nearest(state: SsgState, name: str, others: Sequence[str]) -> str | None:
    assert state.field is not None
    here = state.field.positions[name]
    placed = [o for o in others if o in state.field.positions]
    if not placed:
        return None

    def squared(other: str) -> float:
        there = state.field.positions[other]  # type: ignore[union-attr]
        return (there[0] - here[0]) ** 2 + (there[1] - here[1]) ** 2

    return min(placed, key=squared)


def melee_candidates(engine: Any, state: SsgState, side: str) -> Sequence[Candidate]:
    """A duel for every pair in contact, fought by the figure of the side to act."""
    if state.phase != "melee":
        return ()
    mine = {f.name for f in state.figures if f.side == side}
    return [
        Candidate("melee", {"fighter": a, "opponent": b} if a in mine else {"fighter": b, "opponent": a}, 5.0)
        for a, b in state.contacts
    ]


def shoot_candidates(engine: Any, state: SsgState, side: str) -> Sequence[Candidate]:
    """On the map: a shot at every enemy by every figure that has not shot (the bot measures range
    and sight, and refuses what cannot be seen)."""
    if state.field is None or not (state.phase == "shooting" or (state.phase == "melee" and not state.contacts)):
        return ()
    mine, foes = _standing(state, side)
    return [
        Candidate("shoot", {"shooter": f.name, "target": e.name}, 3.0 / len(foes))
        for f in mine
        if not f.shot
        for e in foes
    ]


def next_candidates(engine: Any, state: SsgState, side: str) -> Sequence[Candidate]:
    return (Candidate("next", {}, 1.0),)


SPECS = spec_table(
    ActionSpec(
        "move",
        'Movement phase: move a figure (up to 4" in all this turn)',
        MoveOptions,
        play.move,
        acting="figure",
        candidates=move_candidates,
    ),
    ActionSpec(
        "melee",
        "Melee phase: fight one duel between figures in contact",
        MeleeOptions,
        play.melee,
        candidates=melee_candidates,
    ),
    ActionSpec(
        "shoot",
        "Shooting phase: a figure fires, its rate of fire split up to three targets",
        ShootOptions,
        play.shoot,
        acting="shooter",
        candidates=shoot_candidates,
    ),
    ActionSpec(
        "next",
        "End the current phase (movement → melee → shooting → next player)",
        NoParams,
        play.next_phase,
        role=Role.PASS,
        candidates=next_candidates,
    ),
    ActionSpec(
        "place", "Place a figure in its side's deployment zone, before turn 1", PlaceOptions, play.place, role=Role.MAP
    ),
    ActionSpec(
        "deploy",
        "Set out a side's unplaced figures in its zone, before turn 1",
        DeployOptions,
        play.deploy,
        role=Role.MAP,
    ),
)
