"""The medieval game's action specs: what they offer a side on a shipped map is what the engine
takes (or refuses with a sentence), and the roll-off's answers are the decision's choices."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.core import Action, RuleError
from rules.medieval.engine import MedievalEngine, make_engine
from rules.medieval.state import MedState
from rules.specs import Candidate, Role
from tests.dice import RandomDice, ScriptedDice
from tests.rules.test_medieval_engine import roster


@pytest.fixture(scope="module")
def engine() -> MedievalEngine:
    return make_engine()


def candidates(engine: MedievalEngine, state: MedState, side: str, *roles: Role) -> list[Candidate]:
    return [
        c
        for spec in engine.specs.values()
        if not roles or spec.role in roles
        for c in spec.candidates(engine, state, side)
    ]


def tried(engine: MedievalEngine, state: MedState, side: str, found: list[Candidate], seed: int) -> list[Any]:
    """Each candidate acted on ``state``: the outcomes it was accepted with (a refusal is a RuleError)."""
    accepted = []
    for c in found:
        try:
            accepted.append(engine.act(state, Action(c.action, side, dict(c.params)), RandomDice(seed)))
        except RuleError:
            continue
    return accepted


def deployed(engine: MedievalEngine, where: str, rolls: tuple[int, int]) -> MedState:
    """Both sides set out on a shipped map by their deploy candidates; the roll-off rolled."""
    state = engine.start_on_map(roster(), ScriptedDice(), engine.scenario(where)).state
    for side in ("red", "blue"):
        (offer,) = candidates(engine, state, side, Role.MAP)
        assert (offer.action, offer.params) == ("deploy", {"side": side})
        state = engine.act(state, Action("deploy", side, dict(offer.params)), ScriptedDice(*rolls)).state
    return state


def test_the_roll_off_winner_is_offered_the_decisions_choices(engine: MedievalEngine) -> None:
    state = deployed(engine, "ford", (2, 5))
    decision = engine.pending(state)
    assert decision is not None and decision.decider == "blue"
    offered = candidates(engine, state, "blue", Role.ANSWER)
    assert [(c.action, c.params["choice"]) for c in offered] == [
        (decision.resume_action, choice.value) for choice in decision.choices
    ]
    assert candidates(engine, state, "red", Role.ANSWER) == []
    assert candidates(engine, state, "blue", Role.PLAY, Role.PASS) == []
    for c in offered:
        out = engine.act(state, Action(c.action, "blue", dict(c.params)), ScriptedDice())
        assert out.state.phase == "play"


@pytest.mark.parametrize("where", ["ford", "village", "woodland-edge"])
def test_every_candidate_on_a_shipped_map_is_taken_or_refused_with_a_sentence(
    engine: MedievalEngine, where: str
) -> None:
    state = deployed(engine, where, (6, 1))
    state = engine.act(state, Action("order", "red", {"choice": "first"}), ScriptedDice()).state
    rng = random.Random(where)
    kinds: set[str] = set()
    for step in range(60):
        if engine.finished(state):
            break
        side = engine.whose_turn(state)
        assert side is not None
        found = candidates(engine, state, side, Role.PLAY, Role.PASS)
        assert found and all(c.action in engine.specs for c in found)
        outcomes = tried(engine, state, side, found, step)
        assert outcomes, f"none of {side}'s {len(found)} candidates was accepted"
        kinds |= {e.kind for out in outcomes for e in out.events}
        state = rng.choice(outcomes).state
    assert {"activation", "move", "phase"} <= kinds


def test_moves_toward_the_nearest_enemy_weigh_most(engine: MedievalEngine) -> None:
    state = deployed(engine, "ford", (6, 1))
    state = engine.act(state, Action("order", "red", {"choice": "first"}), ScriptedDice()).state
    moves = list(engine.specs["move"].candidates(engine, state, "red"))
    eager = [c for c in moves if "toward" in c.params]
    assert {c.params["figure"] for c in eager} == {"Hugh", "Walt", "Ada", "Ned"}
    assert all(c.params["toward"] in {"Olaf", "Harald", "Sven", "Bjorn"} for c in eager)
    assert max(c.weight for c in moves) == eager[0].weight
    assert engine.specs["move"].candidates(engine, state, "blue") == []


def test_at_a_table_nothing_the_map_would_measure_is_offered(engine: MedievalEngine) -> None:
    out = engine.start(roster(), ScriptedDice(6, 1))
    state = engine.act(out.state, Action("order", "red", {"choice": "first"}), ScriptedDice()).state
    offered = {c.action for c in candidates(engine, state, "red")}
    assert offered == {"activate", "endturn"}
