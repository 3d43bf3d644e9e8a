"""Shared helpers for the YASG tests: forced and seeded dice, scenes built through the engine."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from rules.core import Action, FigureSpec, Outcome, RuleError
from rules.yasg.engine import YasgEngine
from rules.yasg.state import YasgFigure, YasgState
from tests.dice import RandomDice, ScriptedDice  # noqa: F401  (re-exported to the YASG tests)

BRITISH, FRENCH = "british", "french"


@dataclass(frozen=True)
class F:
    """A figure of a scene: name, side, class, square, facing; ``leader`` and any state fields."""

    name: str
    side: str
    cls: str
    square: str
    facing: str = "n"
    leader: bool = False
    weapon: str | None = None


def dump(engine: YasgEngine, state: YasgState) -> str:
    return json.dumps(engine.dump_state(state), sort_keys=True)


def scene(
    engine: YasgEngine,
    *figs: F,
    phase: str = "movement",
    turn: int = 1,
    first: str = BRITISH,
    size: tuple[int, int] = (10, 10),
    terrain: Sequence[tuple[str, str, str | None]] = (),
    edges: Sequence[tuple[str, str, str]] = (),
    **fields: Any,
) -> YasgState:
    """A battle built through the engine's own setup actions, then put in ``phase`` of ``turn``
    (a side that marks no Leader is led by its first figure of the best class)."""
    specs = []
    for f in figs:
        stats: dict[str, Any] = {"leader": "yes"} if f.leader else {}
        if f.weapon:
            stats["weapon"] = f.weapon
        specs.append(FigureSpec(f.name, f.side, f.cls, stats))
    state = engine.start(specs, ScriptedDice()).state
    state = gm(engine, state, "board", width=size[0], height=size[1])
    for squares, kind, uphill in terrain:
        state = gm(engine, state, "terrain", squares=squares, kind=kind, uphill=uphill)
    for squares, side, kind in edges:
        state = gm(engine, state, "edge", squares=squares, side=side, kind=kind)
    for f in figs:
        state = gm(engine, state, "place", figure=f.name, square=f.square, facing=f.facing)
    data = engine.dump_state(state)
    other = FRENCH if first == BRITISH else BRITISH
    data.update(
        phase=phase,
        turn=turn,
        initiative=[first, other] if phase != "morale" else [],
        mover=first if phase == "movement" else None,
    )
    data.update(fields)
    return engine.load_state(data)


def change(engine: YasgEngine, state: YasgState, name: str, **fields: Any) -> YasgState:
    """A copy of ``state`` with one figure's fields changed (through the data)."""
    data = engine.dump_state(state)
    fig = next(f for f in data["figures"] if f["name"] == name)
    fig.update(fields)
    return engine.load_state(data)


def gm(engine: YasgEngine, state: YasgState, name: str, *dice: int, **params: Any) -> YasgState:
    return act(engine, state, name, *dice, by_gm=True, **params).state


def act(
    engine: YasgEngine,
    state: YasgState,
    name: str,
    *dice: int,
    as_side: str | None = "turn",
    by_gm: bool = False,
    **params: Any,
) -> Outcome[YasgState]:
    """Act with exactly these forced dice, checking the given state is left untouched."""
    before = dump(engine, state)
    source = ScriptedDice(*dice)
    who = engine.whose_turn(state) if as_side == "turn" else as_side
    outcome = engine.act(state, Action(name, who, params, by_gm), source)
    assert source.values == [], f"dice left unrolled: {source.values}"
    assert dump(engine, state) == before, "act mutated its input"
    act.last_dice = source  # type: ignore[attr-defined]
    return outcome


def refuse(
    engine: YasgEngine,
    state: YasgState,
    name: str,
    match: str,
    as_side: str | None = "turn",
    by_gm: bool = False,
    **params: Any,
) -> RuleError:
    """The action is refused with ``match`` in its message, no die is rolled, nothing changes."""
    before = dump(engine, state)
    source = ScriptedDice(*([6] * 12))
    who = engine.whose_turn(state) if as_side == "turn" else as_side
    with pytest.raises(RuleError) as caught:
        engine.act(state, Action(name, who, params, by_gm), source)
    assert match in caught.value.message, caught.value.message
    assert source.rolls == [], "dice rolled before the action was refused"
    assert dump(engine, state) == before
    return caught.value


def fig(state: YasgState, name: str) -> YasgFigure:
    return next(f for f in state.figures if f.name == name)


def kinds(outcome: Outcome[YasgState]) -> list[str]:
    return [e.kind for e in outcome.events]


def texts(outcome: Outcome[YasgState]) -> str:
    return "\n".join(e.text for e in outcome.events)


def events(outcome: Outcome[YasgState], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in outcome.events if e.kind == kind]
