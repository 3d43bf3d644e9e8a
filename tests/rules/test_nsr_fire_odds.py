"""The exact odds of NSR fire and volleys (rules/nsr/fire_odds.py) agree with a walk of every
sequence of dice and cards through the engine itself, on decks small enough to walk."""

from __future__ import annotations

import time
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from bot.dice import SeededDice
from rules.core import Action, RuleError
from rules.nsr import sequence
from rules.nsr.deck import FULL_DECK, fresh_deck
from rules.nsr.engine import NsrEngine, make_engine
from rules.nsr.state import NsrState
from rules.odds import Budget, Odds, odds
from tests.rules.test_nsr_helpers import get, stage, unit

ENGINE = make_engine()


class Walked(NsrEngine):
    """The same rules, with /odds walking every sequence instead of counting the deck."""

    def odds_walkable(self, action: str) -> bool:
        return True

    def odds_counted(self, state: NsrState, action: Action) -> None:
        return None


WALKED = Walked(ENGINE.tables)


def battle(target: str = "line", firer: str = "line", *, figures: int = 4) -> NsrState:
    """F fires at T; W, on F's side, still waits to fire (so the phase goes on after F's order)."""
    kind = {"formation": "manhandled"} if firer == "artillery" else {"figures": 5}
    aimed = {"formation": "manhandled"} if target == "artillery" else {"figures": figures}
    specs = [unit("F", "French", firer, **kind), unit("W", "French", "line"), unit("T", "Allied", target, **aimed)]
    return stage(ENGINE, specs, "fire", "F")


def both(state: NsrState, order: str, *, walk: int = 30_000, **params: Any) -> tuple[Odds, Odds]:
    """The odds counted, and walked over every sequence of the order's own dice and cards. The walk
    leaves out the next card the order turns once it is done (sequence.finish): with another unit
    waiting it changes nothing /odds counts, and its 54 ways (and a reshuffle's) would make the walk
    too long."""
    action = Action(order, "French", params)
    counted = odds(ENGINE, state, action, SeededDice(0))
    with patch.object(sequence, "finish", lambda *_: None):
        walked = odds(WALKED, state, action, SeededDice(0), exact_limit=walk)
    return counted, walked


def agree(counted: Odds, walked: Odds) -> None:
    assert (counted.method, walked.method) == ("counted", "exact")
    assert dict(counted.outcomes) == pytest.approx(dict(walked.outcomes), abs=1e-9)
    assert counted.casualties == pytest.approx(walked.casualties, abs=1e-9)


@st.composite
def scenes(draw: st.DrawFn) -> tuple[NsrState, str, dict[str, Any]]:
    order = draw(st.sampled_from(["volley", "fire"]))
    target = draw(st.sampled_from(["line", "line", "artillery"]))
    firer = "artillery" if order == "fire" and draw(st.booleans()) else "line"
    state = battle(target, firer, figures=draw(st.integers(2, 5)))
    aimed = get(state, "T")
    for figure in aimed.figures:
        figure.rank = draw(st.sampled_from([0, 0, 1, 2]))
        figure.key = draw(st.booleans())
        figure.status = draw(st.sampled_from(["fit", "fit", "wounded", "killed"]))
        figure.in_rear = figure.status == "wounded" and draw(st.booleans())
    assume(aimed.standing())
    deck = draw(st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=6, unique=True))
    state.deck = deck
    state.discards = [c for c in fresh_deck() if c not in deck]
    shooter = get(state, "F")
    shooter.joker = draw(st.sampled_from([0, 0, 1, 3, 2]))
    params: dict[str, Any] = {"target": "T", "range": 4, "exposed": True}
    if target != "artillery":
        params["class"] = draw(st.sampled_from(["I", "II", "III", "IV"]))
    if firer == "line":
        params["firers"] = draw(st.integers(1, 2 if order == "volley" else 4))
    if order == "fire" and firer == "line" and any(f.status == "wounded" and not f.in_rear for f in aimed.figures):
        params["wounded"] = draw(st.booleans())
    return state, order, params


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenes())
def test_the_count_agrees_with_a_walk_of_every_card(scene: tuple[NsrState, str, dict[str, Any]]) -> None:
    state, order, params = scene
    try:
        counted, walked = both(state, order, walk=5_000, **params)
    except RuleError as refused:
        event(f"refused: {refused.message[:40]}")
        return  # the count refuses as the order would (checked below)
    assume(walked.method == "exact")  # a reshuffle early on can make the walk too long (seconds)
    event(f"{order}: compared")
    agree(counted, walked)


@pytest.mark.parametrize(
    ("deck", "klass", "firers"),
    [
        (["AH", "2S", "KD", "RJ"], "III", 2),  # a second card, a joker set aside
        (["5H", "QC"], "III", 2),  # the deck runs out mid-volley and is reshuffled
        (["AH", "AD", "3H", "4D", "BJ"], "I", 2),
        # enough cards that no reshuffle can come: the second cards are counted after the first
        (["AH", "2S", "KD", "7H", "QC", "RJ"], "III", 2),
        (["AD", "2H", "KS", "9C", "JH", "10D"], "IV", 2),
    ],
)
def test_volleys_agree_with_the_walk(deck: list[str], klass: str, firers: int) -> None:
    state = battle()
    state.deck = deck
    agree(*both(state, "volley", target="T", range=4, **{"class": klass}, firers=firers, exposed=True))


def test_a_gun_firing_at_a_gun_may_destroy_it_with_a_joker() -> None:
    state = battle("artillery", "artillery")
    state.deck = ["RJ", "AH", "3D"]
    agree(*both(state, "fire", target="T", range=20))


def test_fire_at_the_wounded_hits_fresh_figures_first() -> None:
    state = battle(figures=4)
    aimed = get(state, "T")
    for figure in aimed.figures[1:4]:
        figure.status, figure.wound = "wounded", "light"
    state.deck = ["AH", "2C", "3S", "KD"]
    agree(*both(state, "fire", target="T", range=4, wounded=True, firers=4))


def test_a_full_volley_is_counted_exactly_and_quickly() -> None:
    """The issue's case: a volley of 20 muskets at a line of 16, from a fresh deck; the count's
    chances sum to one and agree with a long simulation within its error."""
    state = stage(
        ENGINE,
        [unit("F", "French", "line", figures=21), unit("W", "French", "line"), unit("T", "Allied", "line", figures=16)],
        "fire",
        "F",
    )
    for klass in ("I", "III"):
        action = Action("volley", "French", {"target": "T", "range": 5, "class": klass})
        counted = odds(ENGINE, state, action, SeededDice(0))
        assert counted.method == "counted"
        assert sum(p for _, p in counted.outcomes) == pytest.approx(1.0)
        simulated = odds(WALKED, state, action, SeededDice(3), exact_limit=1, simulations=4000)
        assert counted.casualties == pytest.approx(simulated.casualties, abs=0.1)


def test_the_last_order_of_the_phase_is_still_simulated() -> None:
    """When nothing else waits to fire, the order ends the turn and its morale checks: that part is
    not counted, so the odds say they are simulated."""
    state = battle()
    get(state, "W").fired = True
    action = Action("volley", "French", {"target": "T", "range": 4, "class": "I", "firers": 2})
    found = odds(ENGINE, state, action, SeededDice(0), budget=Budget(time.monotonic, 0.2))
    assert found.method == "simulation"


def test_a_refused_order_is_refused_by_the_count_too() -> None:
    state = battle()
    with pytest.raises(RuleError, match="out of range"):
        odds(ENGINE, state, Action("volley", "French", {"target": "T", "range": 90, "class": "I"}), SeededDice(0))


def test_an_officers_pistol_is_walked_exactly() -> None:
    state = battle()
    found = odds(ENGINE, state, Action("pistol", "French", {"target": "T", "range": 2}), SeededDice(0))
    assert found.method == "exact" and found.runs == 6
