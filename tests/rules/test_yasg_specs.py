"""YASG's action specs: what they offer a side on its grid is what the engine takes (or refuses
with a sentence), from the setup to the end; a facing is read as a letter or a word."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.core import Action, FigureSpec, RuleError
from rules.specs import Candidate, Role, read_params
from rules.yasg.engine import YasgEngine
from rules.yasg.options import FaceOptions
from rules.yasg.state import YasgState
from tests.dice import RandomDice
from tests.rules.test_yasg_support import BRITISH, FRENCH

FIGURES = [
    FigureSpec("Sharpe", BRITISH, "A", {"leader": "yes"}),
    FigureSpec("Harper", BRITISH, "B"),
    FigureSpec("Hagman", BRITISH, "B"),
    FigureSpec("Perkins", BRITISH, "C"),
    FigureSpec("Ducos", FRENCH, "B", {"leader": "yes"}),
    FigureSpec("Leroux", FRENCH, "C"),
    FigureSpec("Vidal", FRENCH, "C"),
    FigureSpec("Morel", FRENCH, "D"),
]


def candidates(engine: YasgEngine, state: YasgState, side: str) -> list[Candidate]:
    return [
        c
        for spec in engine.specs.values()
        if spec.role in (Role.PLAY, Role.PASS)
        for c in spec.candidates(engine, state, side)
    ]


def accepted(engine: YasgEngine, state: YasgState, side: str, found: list[Candidate], seed: int) -> list[Any]:
    """The outcomes of the candidates ``engine`` takes; every other one is refused with a RuleError."""
    outcomes = []
    for c in found:
        try:
            outcomes.append(engine.act(state, Action(c.action, side, dict(c.params)), RandomDice(seed)))
        except RuleError:
            continue
    return outcomes


def test_the_setup_offers_each_sides_home_rows_then_the_start(engine: YasgEngine) -> None:
    state = engine.start(FIGURES, RandomDice(1)).state
    offered = candidates(engine, state, BRITISH)
    assert {c.action for c in offered} == {"place"}
    assert {c.params["figure"] for c in offered} == {"Sharpe"}
    assert {c.params["square"][1:] for c in offered} == {str(state.height), str(state.height - 1)}
    assert {c.params["facing"] for c in offered} == {"n"}
    assert {c.params["square"][1:] for c in candidates(engine, state, FRENCH)} == {"1", "2"}
    while any(f.square is None for f in state.figures):
        side = BRITISH if any(f.square is None and f.side == BRITISH for f in state.figures) else FRENCH
        first = candidates(engine, state, side)[0]
        state = engine.act(state, Action(first.action, side, dict(first.params)), RandomDice(1)).state
    assert [c.action for c in candidates(engine, state, BRITISH)] == ["next"]


@pytest.mark.parametrize("seed", [1, 2])
def test_every_candidate_is_taken_or_refused_with_a_sentence(engine: YasgEngine, seed: int) -> None:
    state = engine.start(FIGURES, RandomDice(seed)).state
    rng = random.Random(seed)
    done: set[str] = set()
    for step in range(250):
        if engine.finished(state):
            break
        side = engine.whose_turn(state)
        assert side is not None
        found = candidates(engine, state, side)
        assert found and all(c.action in engine.specs for c in found)
        outcomes = accepted(engine, state, side, found, seed * 1000 + step)
        assert outcomes, f"none of {side}'s {len(found)} candidates was accepted in the {state.phase} phase"
        done |= {e.kind for out in outcomes for e in out.events}
        state = rng.choice(outcomes).state
    assert {"placed", "move", "fire"} <= done


def test_a_facing_is_a_letter_shown_and_read_as_a_word(engine: YasgEngine) -> None:
    (facing,) = [o for o in engine.specs["face"].options if o.name == "facing"]
    assert facing.choices == ("n", "e", "s", "w") and facing.labels == ("north", "east", "south", "west")
    for typed, read in (("north", "n"), ("W", "w"), ("e", "e")):
        assert read_params(FaceOptions, {"figure": "Harper", "facing": typed}, "face").facing == read
    with pytest.raises(RuleError, match="facing: is north, east, south or west"):
        read_params(FaceOptions, {"figure": "Harper", "facing": "up"}, "face")


def test_the_look_is_a_question_and_next_ends_a_phase(engine: YasgEngine) -> None:
    assert engine.questions == ("look",) and engine.pass_action == "next" and engine.answers == ()
    assert [name for name, spec in engine.specs.items() if spec.acting] == ["move", "face", "load", "fire", "engage"]
