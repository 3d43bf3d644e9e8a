"""Sharpe's actions as specs (rules/sharpe/specs.py): the options read once before a handler runs,
the choices listed once, and the candidates a side has in a state, each one an action the engine
either carries out or refuses with a sentence."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules.core import Action, RuleError
from rules.sharpe import options
from rules.sharpe.decisions import shot_of
from rules.sharpe.engine import SharpeEngine
from rules.sharpe.specs import SPECS, defend_candidates
from rules.sharpe.state import SharpeState
from rules.specs import Candidate, Kind, Role, Where, options_of
from tests.dice import RandomDice as SeededDice
from tests.rules.test_sharpe_helpers import begin, fig, new_engine, play, refused

ROSTER = [
    fig("Sharpe", "british", "rifle_officer", I=6, F=10),
    fig("Harper", "british", "rifle_sergeant", I=5),
    fig("Harris", "british", "rifleman", I=4),
    fig("Leroux", "french", "officer", I=3),
    fig("Dubois", "french", "voltigeur", I=2),
    fig("Martin", "french", "voltigeur", I=1),
]


@pytest.fixture
def engine() -> SharpeEngine:
    return new_engine()


def test_the_engine_takes_its_actions_from_the_specs(engine: SharpeEngine) -> None:
    assert list(engine.handlers) == list(SPECS)
    assert engine.answers == ("defend",)
    assert engine.pass_action == "done"
    assert engine.questions == ("targets",)
    assert SPECS["place"].role is Role.MAP and SPECS["deploy"].role is Role.MAP


def test_the_choices_are_the_rules_own() -> None:
    shoot = {o.name: o for o in options_of(options.ShootOptions)}
    attack = {o.name: o for o in options_of(options.AttackOptions)}
    assert shoot["flank"].choices == options.TARGET_SIDES == ("front", "left", "right")
    assert shoot["cover"].choices == options.COVERS
    assert attack["flank"].choices == options.SIDES == ("front", "right", "left", "rear")
    assert shoot["range"].where is Where.TABLE and shoot["range"].kind is Kind.NUMBER
    assert shoot["target"].required and shoot["target"].kind is Kind.ENEMY


def test_the_listed_choices_are_the_tables_own(engine: SharpeEngine) -> None:
    """The options' situations and paces are those tables.yaml gives modifiers and inches for."""
    assert set(options.SITUATIONS) == set(engine.tables.action_modifiers)
    movement = engine.tables.movement
    assert set(options.PACES) == set(movement.foot) | set(movement.mounted)


def test_the_reader_refuses_before_any_rule(engine: SharpeEngine) -> None:
    state = begin(engine, [fig("A", "british", "rifleman"), fig("B", "french", "voltigeur")])
    refused(engine, state, "shoot", "flank: is front, left or right", target="B", range=10, flank="rear")
    refused(engine, state, "shoot", "Give target: (The enemy)", range=10)
    refused(engine, state, "move", "pace: is crawl, walk, run, trot, canter or gallop", distance=2, pace="jog")
    refused(engine, state, "move", "trot is not a pace on foot", distance=2, pace="trot")
    refused(engine, state, "check", "modifier: takes a whole number from -6 to 6", modifier=7)
    refused(engine, state, "attack", "attack has no option “range”", defender="B", range=2)


def test_a_typed_option_reaches_the_rules(engine: SharpeEngine) -> None:
    """``Left Arm`` style choices and yes/no words are read as the rules name them."""
    state = begin(engine, [fig("A", "british", "rifleman"), fig("B", "french", "voltigeur")])
    out = play(engine, state, "check", 3, ability="s", situation="Low wall", modifier=1, what="  climb  ")
    [check] = [e for e in out.events if e.kind == "check"]
    assert "climb" in check.text and check.data["ability"] == "S"


def test_a_shot_waiting_for_a_dodge_is_read_again_when_answered() -> None:
    engine = new_engine(dodge_shots=True)
    state = begin(engine, [fig("A", "british", "rifleman"), fig("B", "french", "voltigeur")])
    waiting = play(engine, state, "shoot", target="B", range=10, aimed="no", perch_ft=0)
    pending = waiting.state.pending
    assert pending is not None and shot_of(pending) == {
        "target": "B",
        "range": 10.0,
        "aimed": False,
        "perch_ft": 0,
        "shooter": "A",
    }
    assert json.loads(json.dumps(engine.dump_state(waiting.state)))["pending"]["kept"]["shot"] == shot_of(pending)
    answers = defend_candidates(engine, waiting.state, "french")
    assert [c.params["choice"] for c in answers] == ["dodge", "take"]
    taken = engine.act(waiting.state, Action("defend", "french", dict(answers[1].params)), SeededDice(1))
    assert any(e.kind == "shot" for e in taken.events) and taken.state.pending is None


def test_the_answer_candidates_are_the_decisions_choices(engine: SharpeEngine) -> None:
    state = begin(engine, [fig("A", "british", "rifleman"), fig("B", "french", "voltigeur")])
    state = play(engine, state, "move", distance=1, contact="B").state
    assert [c.action for c in SPECS["attack"].candidates(engine, state, "british")] == ["attack"]
    asked = engine.act(state, Action("attack", "british", {"defender": "B"}), SeededDice(2))
    decision = asked.pending
    assert decision is not None and decision.decider == "french"
    answers = defend_candidates(engine, asked.state, "french")
    assert [c.params["choice"] for c in answers] == [c.value for c in decision.choices]
    assert all(c.params["pending"] == decision.params["pending"] for c in answers)
    assert not defend_candidates(engine, asked.state, "british")
    assert all(not spec.candidates(engine, asked.state, "british") for spec in SPECS.values())
    for answer in answers:
        engine.act(asked.state, Action(answer.action, "french", dict(answer.params)), SeededDice(3))


def _all_candidates(engine: SharpeEngine, state: SharpeState, side: str) -> list[Candidate]:
    return [c for spec in SPECS.values() for c in spec.candidates(engine, state, side)]


def _tried(engine: SharpeEngine, state: SharpeState, side: str, c: Candidate, seed: int) -> Any:
    """The candidate's outcome, or None when the engine refuses it with a sentence."""
    try:
        return engine.act(state, Action(c.action, side, dict(c.params)), SeededDice(seed))
    except RuleError as refusal:
        assert refusal.message and "\n" not in refusal.message
        return None


@pytest.mark.parametrize("scenario", ["farm", "village"])
def test_every_candidate_on_a_shipped_map_is_carried_out_or_refused(engine: SharpeEngine, scenario: str) -> None:
    state = engine.start_on_map(ROSTER, SeededDice(0), engine.scenario(scenario)).state
    rng = random.Random(scenario)
    kinds: set[str] = set()
    for step in range(30):
        if engine.finished(state):
            break
        side = engine.whose_turn(state)
        assert side is not None
        found = _all_candidates(engine, state, side)
        assert found, f"step {step}: the {side} have no candidate"
        accepted = [(c, out) for c in found if (out := _tried(engine, state, side, c, step)) is not None]
        assert accepted, f"step {step}: every candidate was refused: {found}"
        kinds |= {c.action for c, _ in accepted}
        weights = [c.weight for c, _ in accepted]
        _, outcome = rng.choices(accepted, weights=weights)[0]
        state = outcome.state
    assert {"deploy", "move", "done"} <= kinds


def test_at_a_table_no_distances_are_offered(engine: SharpeEngine) -> None:
    state = begin(engine, [fig("A", "british", "rifleman"), fig("B", "french", "voltigeur")])
    found = _all_candidates(engine, state, "british")
    assert [c.action for c in found] == ["done"]
    assert not _all_candidates(engine, state, "french")
