"""Seeded dice agree with the exact odds of RULES-NOTES.md section 7 (NSR), within 4 standard errors."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from rules.core import Event, FigureSpec
from rules.nsr import close_combat, fire, morale
from rules.nsr.close_combat import Stance
from rules.nsr.deck import fresh_deck, rank_key, suit
from rules.nsr.engine import NsrEngine, make_engine
from rules.nsr.options import FireOptions
from rules.nsr.state import NsrState, Unit
from tests.rules.test_nsr_helpers import RandomDice, get, stage, unit


def close(values: Sequence[float], expected: float) -> None:
    """The sample mean of ``values`` is within 4 standard errors of ``expected``."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    se = max(math.sqrt(var / n), 1e-3)
    assert abs(mean - expected) <= 4 * se, (mean, expected, se)


def share(hits: int, n: int, expected: float) -> None:
    close([1.0] * hits + [0.0] * (n - hits), expected)


# --- fire: expected hits -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weapon", "firers", "klass", "rng", "expected"),
    [  # section 7: "E (plain | +1 half range)"
        ("musket", 11, "I", 10, 2.00),
        ("musket", 11, "I", 5, 7 / 3),
        ("musket", 11, "II", 10, 7 / 6),
        ("musket", 20, "III", 5, 7 / 3),
        ("rifle", 10, "I", 10, 19 / 6),
        ("rifle", 16, "II", 5, 10 / 3),
        ("carbine", 16, "I", 3, 10 / 3),
        ("carbine", 16, "I", 5, 17 / 6),
        ("pistol", 12, "IV", 2, 1.00),
    ],
)
def test_expected_hits_of_small_arms(engine: NsrEngine, weapon, firers, klass, rng, expected) -> None:
    state = stage(
        engine,
        [unit("F", "French", "line", figures=firers + 1, weapon=weapon), unit("T", "Allied", "line")],
        "fire",
        "F",
    )
    shooter = get(state, "F")
    params = FireOptions(target="T", range=rng, class_=klass, exposed=True)  # class IV: at a window (A-NSR-31)
    [group] = fire.plan_fire(engine.charts, state, shooter, params)
    dice = RandomDice(11)
    values = [fire._hits(engine.charts, state, shooter, group, dice.roll(6, "fire"), []) for _ in range(3000)]
    close(values, expected)


@pytest.mark.parametrize(
    ("shot", "crew", "klass", "rng", "expected"),
    [
        ("ball", 4, "I", 30, 3.00),
        ("ball", 3, "I", 10, 7 / 3),
        ("ball", 4, "II", 10, 1.00),
        ("grape", 4, "I", 10, 34 / 6),
    ],
)
def test_expected_hits_of_guns(engine: NsrEngine, shot, crew, klass, rng, expected) -> None:
    state = stage(
        engine, [unit("G", "French", "artillery", formation="manhandled"), unit("T", "Allied", "line")], "fire", "G"
    )
    gun = get(state, "G")
    for f in gun.figures[crew:]:
        f.status = "killed"
    [group] = fire.plan_fire(engine.charts, state, gun, FireOptions(target="T", range=rng, class_=klass, shot=shot))
    dice = RandomDice(12)
    values = [fire._hits(engine.charts, state, gun, group, dice.roll(6, "fire"), []) for _ in range(3000)]
    close(values, expected)


# --- casualty and volley cards ---------------------------------------------------------------------------


def deck_state(engine: NsrEngine) -> tuple[NsrState, Unit, Unit]:
    state = stage(engine, [unit("F", "French", "line"), unit("T", "Allied", "line"), unit("G", "Allied", "artillery")])
    return state, get(state, "F"), get(state, "T")


def test_casualty_cards_of_normal_fire(engine: NsrEngine) -> None:
    """Per hit, from a fresh deck (jokers set aside): 25% killed, 75% wounded; Ace 7.69%, a face 23.08%."""
    state, shooter, target = deck_state(engine)
    dice, n = RandomDice(3), 8000
    counts = {"killed": 0, "ace": 0, "face": 0}
    for _ in range(n):
        state.deck = fresh_deck()
        card = fire._casualty_card(state, shooter, target, "x", dice, [])
        counts["killed"] += engine.tables.casualty_card.suits[suit(card)] == "killed"
        counts["ace"] += rank_key(card) == "A"
        counts["face"] += rank_key(card) in ("K", "Q", "J")
    share(counts["killed"], n, 0.25)
    share(counts["ace"], n, 4 / 52)
    share(counts["face"], n, 12 / 52)


@pytest.mark.parametrize(
    ("klass", "killed", "wounded"),
    [
        ("I", 0.50, 0.25),
        ("II", 0.25, 0.25),
        ("III", 0.1538, 0.3462),
        ("IV", 0.0769, 0.1731),
        ("gun", 0.0769, 0.0769),
    ],
)
def test_volley_cards(engine: NsrEngine, klass: str, killed: float, wounded: float) -> None:
    """The second card of a class III/IV hit comes from the same deck (without the first): within tolerance."""
    state, shooter, target = deck_state(engine)
    vs_gun = klass == "gun"
    if vs_gun:
        target = get(state, "G")
    dice, n = RandomDice(4), 12000
    tally = {"killed": 0, "wounded": 0}
    for _ in range(n):
        state.deck = fresh_deck()
        card = fire._casualty_card(state, shooter, target, "x", dice, [])
        result = fire._volley_outcome(
            engine.charts, state, shooter, target, "II" if vs_gun else klass, card, vs_gun, "x", dice, []
        )
        if result is not None:
            tally["killed" if result[0] == "killed" else "wounded"] += 1
    share(tally["killed"], n, killed)
    share(tally["wounded"], n, wounded)


# --- close combat -------------------------------------------------------------------------------------------


EDGES = {  # edge: (A wins, B killed, B wounded, B runs, B captured)
    -2: (0.3043, 0.0761, 0.0652, 0.1304, 0.0326),
    0: (0.5000, 0.1000, 0.0889, 0.2000, 0.1111),
    2: (0.6957, 0.1087, 0.1087, 0.2609, 0.2174),
    4: (0.8404, 0.1064, 0.1064, 0.3085, 0.3191),
}
SETUPS = {  # edge: (A's troop, A's stance, B's troop, B's stance)
    -2: ("line", Stance(False, None, False, False), "grenadiers", Stance(True, None, False, False)),
    0: ("line", Stance(False, None, False, False), "line", Stance(False, None, False, False)),
    2: ("grenadiers", Stance(True, None, False, False), "line", Stance(False, None, False, False)),
    4: ("mounted", Stance(True, None, True, False), "line", Stance(False, None, False, False)),
}


@pytest.mark.parametrize("edge", sorted(EDGES))
def test_one_fight_agrees_with_the_exact_odds(engine: NsrEngine, edge: int) -> None:
    """d10 each, ties rolled again; the loser's natural die decides (A-NSR-2: 6-10 captured)."""
    a_troop, a_stance, b_troop, b_stance = SETUPS[edge]
    lone = {"figures": 1, "officer": "no", "nco": "no"}
    specs = [FigureSpec("A", "French", a_troop, lone), FigureSpec("B", "Allied", b_troop, lone)]
    state = stage(engine, [unit("X", "French", "line"), unit("Y", "Allied", "line")])
    dice, n = RandomDice(5 + edge), 6000
    tally = {"A": 0, "killed": 0, "wounded": 0, "ran": 0, "captured": 0}
    for _ in range(n):
        a, b = (engine.forces.unit(s) for s in specs)
        log: list[Event] = []
        close_combat.fight(engine.charts, state, a, b, {"A": a_stance, "B": b_stance}, dice, log)
        [result] = [e.data for e in log if e.kind == "fight"]
        assert result["a"]["total"] - result["a"]["die"] - (result["b"]["total"] - result["b"]["die"]) == edge
        if result["loser_unit"] == "B":
            tally[result["outcome"]] += 1
        else:
            tally["A"] += 1
    a_wins = n - tally["A"]
    expected = EDGES[edge]
    share(a_wins, n, expected[0])
    for key, p in zip(("killed", "wounded", "ran", "captured"), expected[1:], strict=True):
        share(tally[key], n, p)


# --- charges and morale ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("troop", "leader", "square", "p"),
    [
        ("grenadiers", True, False, 0.9),
        ("militia", False, False, 0.4),
        ("mounted", True, True, 0.4),
        ("mounted", False, True, 0.3),
    ],
)
def test_closing_into_combat(engine: NsrEngine, troop: str, leader: bool, square: bool, p: float) -> None:
    stats = {} if leader else {"officer": "no", "nco": "no"}
    state = stage(
        engine,
        [
            unit("A", "French", troop, figures=4, **stats),
            unit("B", "Allied", "line", formation="square" if square else "line"),
        ],
    )
    dice, n = RandomDice(6), 4000
    closes = sum(close_combat.close_in(engine.charts, get(state, "A"), get(state, "B"), dice, []) for _ in range(n))
    share(closes, n, p)


@pytest.mark.parametrize(
    ("troop", "leader", "p"),
    [("line", True, 0.8333), ("militia", False, 0.2778), ("light", True, 0.7222), ("grenadiers", False, 0.7222)],
)
def test_critical_morale_passes(engine: NsrEngine, troop: str, leader: bool, p: float) -> None:
    stats = {} if leader else {"officer": "no", "nco": "no"}
    state = stage(engine, [unit("A", "French", troop, figures=4, **stats), unit("B", "Allied", "line")])
    dice, n, passed = RandomDice(7), 4000, 0
    for _ in range(n):
        a = get(state, "A")
        a.critical = True
        a.set_marks(routed=False)
        log: list[Event] = []
        morale.critical(engine.charts, state, a, dice, log)
        passed += log[0].data["passed"]
    share(passed, n, p)


def test_odds_labels_name_losses_marks_and_the_distance_a_move_may_go() -> None:
    label = make_engine().odds_outcome
    assert label([Event("move", "…", {"unit": "95th", "inches": 7, "going": "road"})]) == "95th moves up to 7″"
    assert label([Event("move", "…", {"unit": "95th", "inches": -2})]) == "no effect"
    hit = Event("hit", "…", {"figure": "Pat", "unit": "95th", "outcome": "killed"})
    assert label([hit, Event("shaken", "…", {"unit": "95th"})]) == "95th: 1 killed; 95th shaken"


def test_odds_labels_say_what_became_of_a_charge() -> None:
    """A charge and its completion are never "no effect": they reach or fall short, take the
    position or come to nothing, and a close combat has a winner."""
    label = make_engine().odds_outcome
    went = {"unit": "1er Ligne", "target": "33rd Foot", "inches": 9, "dice": 3}
    assert label([Event("charge", "…", {**went, "reached": True})]) == "1er Ligne's charge reaches 33rd Foot"
    assert label([Event("charge", "…", {**went, "reached": False})]) == "1er Ligne's charge falls short of 33rd Foot"
    took = {"unit": "1er Ligne", "target": "33rd Foot", "result": "occupied"}
    assert label([Event("charge", "…", took)]) == "1er Ligne occupies 33rd Foot's position"
    gave_up = {"unit": "1er Ligne", "target": "33rd Foot", "result": "abandoned"}
    assert label([Event("charge", "…", gave_up)]) == "1er Ligne's charge comes to nothing"
    won = Event("melee", "…", {"winner": "33rd Foot", "loser": "1er Ligne", "prisoners": 0, "wounded_taken": []})
    assert label([Event("melee", "…", {"a": "1er Ligne", "b": "33rd Foot"}), won]) == "33rd Foot wins the close combat"
