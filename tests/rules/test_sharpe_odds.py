"""The engine against the exact odds of RULES-NOTES.md section 7 (Sharpe): seeded dice, each
procedure played through the engine a few thousand times, within four standard errors."""

from __future__ import annotations

import copy
import math
from collections import Counter
from typing import Any

import pytest

from rules.core import Action
from rules.sharpe.bound import end_bound
from rules.sharpe.common import Ctx
from tests.rules.test_sharpe_helpers import SeededDice, begin, char, fig, new_engine


def close(count: int, n: int, expected: float) -> bool:
    se = math.sqrt(max(expected * (1 - expected), 1e-4) / n)
    return abs(count / n - expected) <= 4 * se


def run(engine, state, name: str, params: dict[str, Any], n: int, seed: int, dice: Any = None) -> list[Any]:
    source = dice or SeededDice(seed)
    side = engine.whose_turn(state)
    return [engine.act(state, Action(name, side, params), source) for _ in range(n)]


def first(outcome, kind: str) -> Any:
    return next(e for e in outcome.events if e.kind == kind)


# --- shooting ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, skill, params, p_hit",
    [
        ("line_infantry", 6, {"range": 20}, 0.3889),  # skill 6, +0
        ("rifleman", 8, {"range": 10}, 0.8056),  # skill 8, +1 short range
        ("rifleman", 10, {"range": 20}, 0.8889),  # skill 10, +0
    ],
)
def test_hit_odds_and_misfires(kind: str, skill: int, params: dict, p_hit: float) -> None:
    engine = new_engine()
    state = begin(engine, [fig("Shooter", "british", kind, F=skill), fig("Target", "french", "voltigeur")])
    n = 1500
    shots = [first(o, "shot").data for o in run(engine, state, "shoot", {"target": "Target", **params}, n, skill)]
    assert close(sum(1 for s in shots if s["hit"]), n, p_hit)
    assert close(sum(1 for s in shots if s["misfire"]), n, 0.0556)


def test_fog_misfires_and_hits_at_skill_six() -> None:
    engine = new_engine()
    state = begin(engine, [fig("Shooter", "british", "line_infantry"), fig("Target", "french", "voltigeur")])
    state.weather = "fog"
    n = 1500
    shots = [first(o, "shot").data for o in run(engine, state, "shoot", {"target": "Target", "range": 20}, n, 7)]
    assert close(sum(1 for s in shots if s["misfire"]), n, 0.2130)
    assert close(sum(1 for s in shots if s["hit"]), n, 0.3241)


class HitThenRandom(SeededDice):
    """Every to-hit 2D6 comes up 1 then 2 (a hit); everything else is random."""

    def roll(self, sides: int, reason: str) -> int:
        if "2D6 vs skill" in reason:
            return 1 if reason.endswith("(1 of 2)") else 2
        return super().roll(sides, reason)


@pytest.mark.parametrize(
    "down, expected",
    [
        ("", {"none": 0.0648, "light": 0.3380, "serious": 0.4722, "kill": 0.1250}),
        ("fallen", {"none": 0.0185, "light": 0.2500, "serious": 0.5139, "kill": 0.2176}),
    ],
)
def test_wound_distribution_of_one_hit(down: str, expected: dict[str, float]) -> None:
    engine = new_engine()
    state = begin(engine, [fig("Shooter", "british", "line_infantry"), fig("Target", "french", "voltigeur")])
    char(state, "Target").down = down
    n = 2000
    outcomes = run(engine, state, "shoot", {"target": "Target", "range": 20}, n, 0, HitThenRandom(3))
    tally = Counter(first(o, "shot").data["severity"] for o in outcomes)
    for severity, p in expected.items():
        assert close(tally[severity], n, p), (severity, tally)


def test_wound_distribution_by_location() -> None:
    engine = new_engine()
    state = begin(engine, [fig("Shooter", "british", "line_infantry"), fig("Target", "french", "voltigeur")])
    n = 2000
    outcomes = run(engine, state, "shoot", {"target": "Target", "range": 20}, n, 0, HitThenRandom(5))
    data = [first(o, "shot").data for o in outcomes]
    head = Counter(d["severity"] for d in data if d["location"] == "head")
    assert close(head["kill"], n, 0.0463) and close(head["serious"], n, 0.0741)
    arms = Counter(d["severity"] for d in data if d["location"].endswith("_arm"))
    assert close(arms["light"], n, 0.1667) and close(arms["serious"], n, 0.1296)


# --- melee ------------------------------------------------------------------------------------------------


def test_melee_attack_against_a_parry_edge_zero() -> None:
    """Edge 0 (C 4 against a bare-handed parry C 5 −1), strength 3 (wound modifier 0)."""
    engine = new_engine()
    state = begin(
        engine,
        [
            fig("Attacker", "british", "officer", C=4, S=3),
            fig("Defender", "french", "officer", C=5, weapons=["pistol"]),
        ],
    )
    char(state, "Defender").spent.update({"D": 4, "I": 4})  # nothing left but the parry: taken at once
    n = 2000
    results = []
    for outcome in run(engine, state, "attack", {"defender": "Defender"}, n, 17):
        data = first(outcome, "melee").data
        results.append(data["severity"] if data["result"] == "wound" else data["result"])
    tally = Counter(results)
    expected = {"parried": 0.4167, "draw": 0.1667, "none": 0.0509, "light": 0.1921, "serious": 0.1590, "kill": 0.0147}
    for key, p in expected.items():
        assert close(tally[key], n, p), (key, tally)


# --- action checks ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("ability, modifier, p", [(4, 1, 0.5), (6, 0, 0.8333), (3, 2, 0.1667), (1, 0, 0.1667)])
def test_action_check_odds(ability: int, modifier: int, p: float) -> None:
    engine = new_engine()
    state = begin(engine, [fig("Harris", "british", "rifleman", D=ability), fig("Dubois", "french", "voltigeur")])
    n = 2000
    outcomes = run(engine, state, "check", {"ability": "D", "modifier": modifier}, n, ability * 10 + modifier)
    assert close(sum(1 for o in outcomes if first(o, "check").data["ok"]), n, p)


def test_the_oak_door_succeeds_five_times_in_nine() -> None:
    engine = new_engine()
    state = begin(
        engine,
        [
            fig("Sergeant", "british", "rifle_sergeant", S=6),
            fig("Harris", "british", "rifleman", S=4),
            fig("Dubois", "french", "voltigeur"),
        ],
    )
    n = 2000
    outcomes = run(engine, state, "task", {"helpers": "Harris", "strength": 10, "object": "the oak door"}, n, 9)
    assert close(sum(1 for o in outcomes if first(o, "task").data["ok"]), n, 5 / 9)


# --- pass-outs --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bounds, p", [(1, 0.3333), (2, 0.5556), (3, 0.7037), (5, 0.8683)])
def test_passing_out_at_least_once_within_n_bounds(bounds: int, p: float) -> None:
    engine = new_engine()
    base = begin(engine, [fig("Harris", "british", "rifleman"), fig("Dubois", "french", "voltigeur")])
    char(base, "Dubois").passout_rolls = True
    dice = SeededDice(bounds)
    n = 2000
    count = 0
    for _ in range(n):
        ctx = Ctx(engine.tables, copy.deepcopy(base), dice)
        dubois = ctx.get("Dubois")
        passed = False
        for _ in range(bounds):
            end_bound(ctx)
            passed = passed or dubois.unconscious
            ctx.state.bound += 1
        count += passed
    assert close(count, n, p)
