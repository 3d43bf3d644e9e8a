"""Helpers the Sharpe tests share: forced and seeded dice, rosters, and acting with a check that
the given state is never changed."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from rules.core import Action, FigureSpec, Outcome, RuleError
from rules.sharpe.engine import SharpeEngine, make_engine
from rules.sharpe.state import SharpeState
from tests.dice import RandomDice as SeededDice
from tests.dice import ScriptedDice


def fig(name: str, side: str, kind: str, **stats: Any) -> FigureSpec:
    """A roster entry with every rolled stat given (so starting a game rolls only the order)."""
    base = {"F": 6} if kind == "gun" else {"I": 4, "D": 4, "S": 4, "C": 4, "F": 6}
    if "weapons" in stats and isinstance(stats["weapons"], (list, tuple)):
        stats["weapons"] = "+".join(stats["weapons"])
    return FigureSpec(name, side, kind, {**base, **stats})


def begin(engine: SharpeEngine, specs: list[FigureSpec], order: Sequence[str] | None = None) -> SharpeState:
    """Start a game; the batting order is then set to ``order`` (default: as listed), bound 1."""
    state = engine.start(specs, SeededDice(0)).state
    names = [s.name for s in specs if not engine.tables.kinds[engine.roster.kind(s.name, s.kind)].piece]
    state.order = list(order or names)
    state.active = state.order[0]
    state.acted = []
    return state


def play(
    engine: SharpeEngine,
    state: SharpeState,
    name: str,
    *dice: int,
    side: str | None = None,
    by_gm: bool = False,
    **params: Any,
) -> Outcome[SharpeState]:
    """Act with exactly these forced dice (all used), checking the given state is left untouched."""
    before = json.dumps(engine.dump_state(state), sort_keys=True)
    forced = ScriptedDice(*dice)
    if side is None:
        side = engine.whose_turn(state)
    outcome = engine.act(state, Action(name, side, params, by_gm), forced)
    assert json.dumps(engine.dump_state(state), sort_keys=True) == before, "act changed the state it was given"
    assert not forced.values, f"dice left unused: {forced.values}"
    outcome.dice = forced  # type: ignore[attr-defined]
    return outcome


def refused(
    engine: SharpeEngine,
    state: SharpeState,
    name: str,
    fragment: str,
    *,
    side: str | None = None,
    by_gm: bool = False,
    **params: Any,
) -> str:
    """The action is refused with a sentence holding ``fragment``, before any die is rolled."""
    before = json.dumps(engine.dump_state(state), sort_keys=True)
    forced = ScriptedDice()
    if side is None:
        side = engine.whose_turn(state)
    with pytest.raises(RuleError) as caught:
        engine.act(state, Action(name, side, params, by_gm), forced)
    assert fragment.casefold() in caught.value.message.casefold(), caught.value.message
    assert "\n" not in caught.value.message
    assert json.dumps(engine.dump_state(state), sort_keys=True) == before
    return caught.value.message


def texts(outcome: Outcome[SharpeState], kind: str | None = None) -> list[str]:
    return [e.text for e in outcome.events if kind is None or e.kind == kind]


def events(outcome: Outcome[SharpeState], kind: str) -> list[Any]:
    return [e for e in outcome.events if e.kind == kind]


def char(state: SharpeState, name: str) -> Any:
    return next(c for c in state.characters if c.name == name)


def new_engine(**options: Any) -> SharpeEngine:
    return make_engine({"options": options} if options else None)


def test_scripted_dice_refuse_impossible_faces() -> None:
    with pytest.raises(AssertionError):
        ScriptedDice(7).roll(6, "x")


def test_seeded_dice_repeat() -> None:
    a, b = SeededDice(3), SeededDice(3)
    assert [a.roll(6, "") for _ in range(5)] == [b.roll(6, "") for _ in range(5)]


def test_fig_joins_weapon_lists() -> None:
    assert fig("A", "british", "rifleman", weapons=["sword", "pistol"]).stats["weapons"] == "sword+pistol"


def test_begin_sets_the_order() -> None:
    engine = new_engine()
    state = begin(engine, [fig("A", "british", "rifleman"), fig("B", "french", "voltigeur")], ["B", "A"])
    assert state.order == ["B", "A"] and state.active == "B"


def test_play_checks_every_die_is_used() -> None:
    engine = new_engine()
    state = begin(engine, [fig("A", "british", "rifleman"), fig("B", "french", "voltigeur")])
    with pytest.raises(AssertionError):
        play(engine, state, "done", 4)
    with pytest.raises(RuleError):
        engine.act(state, Action("nonsense", "british"), ScriptedDice())
