"""NSR's actions as specs (rules/nsr/specs.py): the options read once before a handler runs, the
roles the shell reads, and the candidates a side is offered on a shipped map."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.core import Action, RuleError
from rules.nsr.engine import NsrEngine
from rules.nsr.options import FireOptions, MoveOptions
from rules.nsr.state import NsrState, waiting_card
from rules.specs import Candidate, Role
from tests.rules.test_nsr_helpers import RandomDice, refuse, small_battle, stage, unit


def test_the_roles_follow_from_the_specs(engine: NsrEngine) -> None:
    assert engine.pass_action == "hold"
    assert engine.answers == ("choose",)
    assert set(engine.handlers) == set(engine.specs)
    assert [n for n, s in engine.specs.items() if s.role is Role.MAP] == ["place", "deploy"]


def test_class_is_an_option_though_a_keyword(engine: NsrEngine) -> None:
    spec = engine.specs["fire"]
    assert [o.name for o in spec.options][:4] == ["target", "range", "class", "unit"]
    read = spec.read({"target": "33rd Foot", "class": "ii", "range": 12})
    assert read == FireOptions(target="33rd Foot", class_="II", range=12.0)


def test_the_reader_refuses_before_a_rule_runs(engine: NsrEngine) -> None:
    state = stage(engine, small_battle(), "movement", "1er Ligne")
    refuse(engine, state, "move", "formation: is line, square, march_column", formation="wedge")
    refuse(engine, state, "charge", "Give target: (The enemy unit).")
    refuse(engine, state, "move", "distance: takes a number from 0 to 1000.", distance=-2)
    state = stage(engine, small_battle(), "fire", "1er Ligne")
    refuse(engine, state, "fire", "firers: takes a whole number from 1 to 200.", target="33rd Foot", firers=0)


def test_move_options_keep_the_cogs_words(engine: NsrEngine) -> None:
    assert [o.name for o in engine.specs["move"].options] == [
        "unit",
        "to",
        "via",
        "toward",
        "distance",
        "facing",
        "going",
        "rough",
        "formation",
        "carrying",
        "walking",
        "prone",
    ]
    assert engine.specs["move"].params is MoveOptions


# --- candidates on the shipped maps ---------------------------------------------------------------------

ROSTER = [
    unit("1er Ligne", "French", "line", figures=8),
    unit("Chasseurs", "French", "mounted", figures=4),
    unit("Rifles", "Allied", "light", figures=4, weapon="rifle"),
    unit("Milícia", "Allied", "militia", figures=4, officer="no"),
]


def candidates(engine: NsrEngine, state: NsrState, side: str) -> list[Candidate]:
    return [c for spec in engine.specs.values() for c in spec.candidates(engine, state, side)]


def deployed(engine: NsrEngine, scenario: str, dice: RandomDice) -> NsrState:
    state = engine.start_on_map(ROSTER, dice, engine.scenario(scenario)).state
    for side in engine.sides():
        state = engine.act(state, Action("deploy", side, {}, False), dice).state
    return state


@pytest.mark.parametrize("scenario", ["ridge", "river-crossing", "village"])
def test_every_candidate_is_taken_or_refused_by_the_rules(engine: NsrEngine, scenario: str) -> None:
    dice = RandomDice(7)
    rng = random.Random(7)
    state = deployed(engine, scenario, dice)
    taken: Counter[str] = Counter()
    for _ in range(60):
        if state.over:
            break
        side = engine.whose_turn(state)
        assert side is not None
        offered = candidates(engine, state, side)
        assert offered, f"{side} is offered nothing in the {state.phase} phase"
        accepted = []
        for c in offered:
            try:
                engine.act(state, Action(c.action, side, dict(c.params), False), RandomDice(rng.randrange(10**6)))
            except RuleError:
                continue
            accepted.append(c)
        assert accepted, f"none of {side}'s candidates is legal: {offered}"
        chosen = rng.choices(accepted, weights=[c.weight for c in accepted])[0]
        taken[chosen.action] += 1
        state = engine.act(state, Action(chosen.action, side, dict(chosen.params), False), dice).state
    assert taken["choose"] and (taken["move"] or taken["charge"])


def test_the_answer_candidates_are_the_cards_choices(engine: NsrEngine) -> None:
    dice = RandomDice(3)
    state = deployed(engine, "ridge", dice)
    assert state.pending is not None
    decider = state.pending.decider
    answers = engine.specs["choose"].candidates(engine, state, decider)
    assert [c.params["choice"] for c in answers] == [v for v, _ in state.pending.choices]
    assert {c.params["card"] for c in answers} == {waiting_card(state.pending)}
    other = next(s for s in engine.sides() if s != decider)
    assert not engine.specs["choose"].candidates(engine, state, other)
    assert not candidates(engine, state, other)


def test_a_table_offers_no_measured_order(engine: NsrEngine) -> None:
    state = stage(engine, small_battle(), "fire", "1er Ligne")
    offered = {c.action for c in candidates(engine, state, "French")}
    assert offered == {"hold"}
    state = stage(engine, small_battle(), "movement", "1er Ligne")
    assert {c.action for c in candidates(engine, state, "French")} == {"hold", "form"}
    assert not candidates(engine, state, "Allied")
