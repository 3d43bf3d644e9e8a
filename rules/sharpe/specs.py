"""Sharpe's actions, declared once (:mod:`rules.specs`): what each takes, what carries it out, and
what a side could do with it now.

Characters act one at a time in the order of movement, so a side's candidates are those of its man
whose turn it is: on the map he walks or runs toward the nearest enemy or steps away from him, and
shoots at every enemy; anywhere he attacks the enemies in contact, gets up when down, loads an
empty firearm, and ends his turn. While the characters are being placed a side deploys the rest of
its own; while a defender's choice waits, his side answers it with one of its choices."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rules.battlefield.deployment import DeployOptions, PlaceOptions
from rules.sharpe import actions, guns_onmap, melee, movement, onmap, shooting, targets
from rules.sharpe.decisions import ANSWER, number_of, values_of
from rules.sharpe.options import (
    AttackOptions,
    CheckOptions,
    CollideOptions,
    ConcedeOptions,
    DefendOptions,
    DoneOptions,
    FigureOptions,
    HaulOptions,
    KillOptions,
    LoadOptions,
    MoveOptions,
    PickupOptions,
    PushOptions,
    ShootOptions,
    TargetsOptions,
    TaskOptions,
    WeatherOptions,
)
from rules.sharpe.state import Character, SharpeState
from rules.specs import ActionSpec, Candidate, Role, spec_table

#: How far a man steps back from the nearest enemy, in inches.
STEP_AWAY = 4.0
#: How far from the map's edge a point offered stays, in inches.
MARGIN = 0.5


def active_of(state: SharpeState, side: str) -> Character | None:
    """The man of ``side`` whose turn it is; None while placing, while a choice waits, once it is
    over, or when it is another side's man's turn."""
    if state.over or state.pending is not None or onmap.deploying(state):
        return None
    active = next((c for c in state.characters if c.name == state.active), None)
    return active if active is not None and active.side == side else None


def _foes(state: SharpeState, ch: Character) -> list[Character]:
    return [c for c in state.characters if c.side != ch.side and not c.out]


def move_candidates(engine: Any, state: SharpeState, side: str) -> Sequence[Candidate]:
    """On the map: toward the nearest enemy at a walk or a run (eagerly), or a walk straight away
    from him. At a table the distance is the player's to type, so none are offered."""
    ch = active_of(state, side)
    field = state.field
    if ch is None or field is None or ch.name not in field.positions:
        return ()
    here = field.positions[ch.name]
    placed = {f.name: field.positions[f.name] for f in _foes(state, ch) if f.name in field.positions}
    if not placed:
        return ()
    enemy = min(placed, key=lambda name: math.dist(here, placed[name]))
    there = placed[enemy]
    far = math.dist(here, there) or 1.0
    x = here[0] + (here[0] - there[0]) / far * STEP_AWAY
    y = here[1] + (here[1] - there[1]) / far * STEP_AWAY
    away = f"{_within(x, field.map.width):.1f},{_within(y, field.map.height):.1f}"
    return (
        Candidate("move", {"pace": "walk", "toward": enemy}, 1.5),
        Candidate("move", {"pace": "run", "toward": enemy}, 1.5),
        Candidate("move", {"pace": "walk", "to": away}, 0.3),
    )


def _within(at: float, size: float) -> float:
    return min(max(at, MARGIN), size - MARGIN)


def shoot_candidates(engine: Any, state: SharpeState, side: str) -> Sequence[Candidate]:
    """On the map: a shot at every enemy still in the fight (the bot measures range and sight, and
    refuses what cannot be seen or reached)."""
    ch = active_of(state, side)
    if ch is None or state.field is None:
        return ()
    foes = _foes(state, ch)
    return [Candidate("shoot", {"target": f.name}, 3.0 / len(foes)) for f in foes]


def attack_candidates(engine: Any, state: SharpeState, side: str) -> Sequence[Candidate]:
    """An attack on every enemy in contact with him."""
    ch = active_of(state, side)
    if ch is None:
        return ()
    others = [x.b if x.a == ch.name else x.a for x in state.contacts if ch.name in (x.a, x.b)]
    enemies = {c.name for c in _foes(state, ch)}
    return [Candidate("attack", {"defender": name}, 6.0) for name in others if name in enemies]


def rise_candidates(engine: Any, state: SharpeState, side: str) -> Sequence[Candidate]:
    ch = active_of(state, side)
    return (Candidate("rise", {}, 3.0),) if ch is not None and ch.down else ()


def load_candidates(engine: Any, state: SharpeState, side: str) -> Sequence[Candidate]:
    ch = active_of(state, side)
    if ch is None or all(f.loaded for f in ch.firearms):
        return ()
    return (Candidate("load", {}, 0.05),)


def done_candidates(engine: Any, state: SharpeState, side: str) -> Sequence[Candidate]:
    return (Candidate("done", {}, 1.0),) if active_of(state, side) is not None else ()


def deploy_candidates(engine: Any, state: SharpeState, side: str) -> Sequence[Candidate]:
    """While the characters are being placed: the side's own still to place, set out in its zone."""
    if not onmap.deploying(state):
        return ()
    waiting = {c.name for c in state.characters if c.side == side} | {g.name for g in state.guns if g.side == side}
    return (Candidate("deploy", {}, 1.0),) if waiting & set(onmap.unplaced(state)) else ()


def defend_candidates(engine: Any, state: SharpeState, side: str) -> Sequence[Candidate]:
    """One answer for each choice of the defender's decision, for his side."""
    pending = state.pending
    if pending is None or state.over or pending.decider.casefold() != side.casefold():
        return ()
    number = number_of(pending)
    return [Candidate(ANSWER, {"pending": number, "choice": choice}, 1.0) for choice in values_of(pending)]


SPECS = spec_table(
    ActionSpec(
        "move",
        "Move the character whose turn it is",
        MoveOptions,
        movement.move,
        acting="figure",
        candidates=move_candidates,
    ),
    ActionSpec(
        "shoot",
        "Fire at an enemy: 2D6 against the firing skill",
        ShootOptions,
        shooting.shoot,
        acting="shooter",
        candidates=shoot_candidates,
    ),
    ActionSpec(
        "attack",
        "Attack an enemy in melee; his player chooses the defence",
        AttackOptions,
        melee.attack,
        acting="attacker",
        candidates=attack_candidates,
    ),
    ActionSpec(
        "check", "An action check against I, D or S: 1D6, a 6 fails", CheckOptions, actions.check, acting="figure"
    ),
    ActionSpec("task", "A strength task for several men: all must succeed", TaskOptions, actions.task, acting="figure"),
    ActionSpec("push", "Push a man out of the way (S, then his D)", PushOptions, movement.push, acting="pusher"),
    ActionSpec("collide", "A collision: each man tests D or falls", CollideOptions, movement.collide),
    ActionSpec(
        "rise",
        "Get up (knocked down: 1D6 against I)",
        FigureOptions,
        movement.rise,
        acting="figure",
        candidates=rise_candidates,
    ),
    ActionSpec("control", "Master a runaway horse (D check)", FigureOptions, movement.control, acting="figure"),
    ActionSpec("pickup", "Pick up a dropped weapon, or pass it on", PickupOptions, actions.pickup, acting="figure"),
    ActionSpec(
        "load",
        "Load his empty firearm, or a gun",
        LoadOptions,
        guns_onmap.load,
        acting="figure",
        candidates=load_candidates,
    ),
    ActionSpec(
        "haul",
        "Map: drag a gun at a crawl (a man touching it, his move)",
        HaulOptions,
        guns_onmap.haul,
        acting="figure",
    ),
    ActionSpec("targets", "Map: whom he should shoot first (only you see it)", TargetsOptions, targets.ask),
    ActionSpec(
        "kill", "Kill an unconscious enemy in contact since last bound", KillOptions, melee.kill, acting="killer"
    ),
    ActionSpec(
        "done",
        "End this character's turn",
        DoneOptions,
        actions.done,
        role=Role.PASS,
        candidates=done_candidates,
    ),
    ActionSpec("weather", "Game master: weather (misfires) and night", WeatherOptions, actions.weather),
    ActionSpec("concede", "Your side gives up", ConcedeOptions, actions.concede),
    ActionSpec(
        ANSWER,
        "Answer a defender's choice (parry, riposte, dodge …)",
        DefendOptions,
        melee.defend,
        role=Role.ANSWER,
        candidates=defend_candidates,
    ),
    ActionSpec(
        "place",
        "Place a character or a gun in its side's deployment zone, before the first bound",
        PlaceOptions,
        actions.place,
        role=Role.MAP,
    ),
    ActionSpec(
        "deploy",
        "Set out a side's characters and guns still to place in its zone, before the first bound",
        DeployOptions,
        actions.deploy,
        role=Role.MAP,
        candidates=deploy_candidates,
    ),
)
