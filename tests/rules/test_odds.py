"""Odds by enumerating every dice sequence agree with the exact odds in the rules notes (section 7)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.dice import SeededDice
from rules import get_engine
from rules.core import Action, CasualtyPayload, Event, FigureSpec, WoundPayload
from rules.odds import MIN_SIMULATIONS, Budget, default_outcome, odds, odds_report

RED = ["Rossi", "Ada", "Cy", "Dee", "Eli", "Fay"]
BLUE = ["Big Jim", "Bo", "Bert", "Bill", "Ben", "Bud"]


class Forced:
    def __init__(self, values):
        self.values = list(values)

    def roll(self, sides, reason):
        return self.values.pop(0)

    def draw(self, cards, reason):
        raise AssertionError


@pytest.fixture
def shooting():
    """An SSG game in red's shooting phase (red won the roll-off 6-1)."""
    engine = get_engine("ssg")
    specs = [FigureSpec(n, "red", "smg" if n == "Cy" else "rifle") for n in RED]
    specs += [FigureSpec(n, "blue", "rifle") for n in BLUE]
    state = engine.start(specs, Forced([6, 1])).state
    state = engine.act(state, Action("next", "red"), Forced([])).state
    return engine, state


def shot(shooter: str, target: str, rng: float, los: str) -> Action:
    return Action("shoot", "red", {"shooter": shooter, "target": target, "range": rng, "los": los})


@pytest.mark.parametrize(
    "rng,los,hit", [(10, "clear", 1 / 3), (20, "clear", 1 / 6), (10, "partial", 1 / 6), (20, "partial", 0.0)]
)
def test_ssg_rifle_shot_odds_are_exact(shooting, rng: float, los: str, hit: float) -> None:
    engine, state = shooting
    result = odds(engine, state, shot("Rossi", "Bo", rng, los), SeededDice(0))
    assert result.method == "exact" and result.runs == 6
    chances = dict(result.outcomes)
    assert chances.get("Bo out", 0.0) == pytest.approx(hit)
    assert result.casualties == pytest.approx(hit)


def test_ssg_smg_three_dice_at_one_target(shooting) -> None:
    """Notes, section 7: SMG P(>=1 of 3) 70.37% at short range and clear LOS (a second hit does nothing more)."""
    engine, state = shooting
    result = odds(engine, state, shot("Cy", "Bo", 5, "clear"), SeededDice(0))
    assert result.runs == 216
    assert dict(result.outcomes)["Bo out"] == pytest.approx(1 - (2 / 3) ** 3)
    assert sum(p for _, p in result.outcomes) == pytest.approx(1.0)


def test_too_many_sequences_are_simulated_and_say_so(shooting) -> None:
    engine, state = shooting
    result = odds(engine, state, shot("Cy", "Bo", 5, "clear"), SeededDice(3), exact_limit=10, simulations=4000)
    assert result.method == "simulation" and result.runs == 4000
    assert dict(result.outcomes)["Bo out"] == pytest.approx(0.7037, abs=0.03)


def test_an_illegal_action_is_refused_not_counted(shooting) -> None:
    engine, state = shooting
    from rules.core import RuleError

    with pytest.raises(RuleError):
        odds(engine, state, shot("Rossi", "Bo", 30, "clear"), SeededDice(0))


def in_melee() -> tuple[Any, Any]:
    """SSG at a table: Rossi in contact with Bo, red's melee phase (a duel's ties are rolled again)."""
    engine = get_engine("ssg")
    specs = [FigureSpec(n, "red", "rifle") for n in RED] + [FigureSpec(n, "blue", "rifle") for n in BLUE]
    state = engine.start(specs, Forced([6, 1])).state
    state = engine.act(
        state, Action("move", "red", {"figure": "Rossi", "distance": 2.0, "contact": "Bo"}), Forced([])
    ).state
    return engine, engine.act(state, Action("next", "red"), Forced([])).state


def test_melee_odds_with_re_rolled_ties_converge_to_even() -> None:
    """A melee duel re-rolls ties forever: enumeration stops at its limit and simulation answers."""
    engine, state = in_melee()
    result = odds(engine, state, Action("melee", "red", {}), SeededDice(5), exact_limit=2000, simulations=6000)
    chances = dict(result.outcomes)
    assert chances["Bo out"] == pytest.approx(0.5, abs=0.03) and chances["Rossi out"] == pytest.approx(0.5, abs=0.03)


def test_default_outcome_names_casualties_wounds_and_misfires() -> None:
    events = [
        Event("misfire", "click"),
        WoundPayload("Walt", "blue", heading="Light wound", outcome="Light wound").event("hit"),
        CasualtyPayload("Bo", "blue", "Rossi").event("down"),
    ]
    assert default_outcome(events) == "misfire; Walt: Light wound; Bo out"
    assert default_outcome([WoundPayload("Walt").event("hit")]) == "Walt: wounded"
    assert default_outcome([Event("shot", "miss"), Event("wound", "no figure named")]) == "no effect"


def test_a_budget_on_the_callers_clock_ends_a_simulation_after_its_minimum_runs(shooting) -> None:
    """The rules read no clock: the caller's budget says when time is up (here at once)."""
    engine, state = shooting
    readings = iter([0.0, 0.0])  # the two deadlines are set at 0 s; every later reading is 100 s
    budget = Budget(lambda: next(readings, 100.0), seconds=2.0)
    result = odds(engine, state, shot("Cy", "Bo", 5, "clear"), SeededDice(3), exact_limit=10, budget=budget)
    assert result.method == "simulation" and result.runs == MIN_SIMULATIONS


def test_without_a_budget_the_limits_are_counts(shooting) -> None:
    engine, state = shooting
    result = odds(engine, state, shot("Cy", "Bo", 5, "clear"), SeededDice(3), exact_limit=10, simulations=700)
    assert result.runs == 700


def test_the_odds_of_a_melee_that_rerolls_ties_are_answered() -> None:
    """/odds first runs the action to see whether it asks a choice before any die: on dice that
    always showed 1 an SSG duel tied for ever (the worker never answered); it now stops at the
    first roll."""
    engine, state = in_melee()
    [(asked, found)] = odds_report(
        engine, state, Action("melee", "red", {}), SeededDice(5), Budget(lambda: 0.0)
    ).sections
    assert asked == "" and dict(found.outcomes) == pytest.approx({"Bo out": 0.5, "Rossi out": 0.5}, abs=0.03)
