"""The engine against the exact odds of RULES-NOTES.md section 7 (MEDIEVAL): every die face forced
(exhaustive, so the percentages match to the notes' two decimals) and seeded random dice (within
four standard errors)."""

from __future__ import annotations

import functools
import itertools
import math
from typing import Any

import pytest

from rules.core import Action, clone
from rules.medieval.combat import bravery_test, wound
from rules.medieval.engine import make_engine
from rules.medieval.state import MedState
from tests.rules.test_medieval_engine import RandomDice, begin, edit, fig

ENGINE = make_engine()
START = begin(ENGINE)
HEAVY = ["Plate", "Large Shield"]  # armour 5: a 1-die damage roll of 1 does nothing


class Faces:
    """Forced dice that may be left over (a Bravery die offered in case of a knocked-about result)."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def roll(self, sides: int, reason: str) -> int:
        return self.values.pop(0)

    def draw(self, cards: Any, reason: str) -> str:
        raise AssertionError


class ToHit:
    """Forced to-hit dice; every damage die is a 1 (nothing gets through heavy armour)."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def roll(self, sides: int, reason: str) -> int:
        return 1 if "damage" in reason else self.values.pop(0)

    def draw(self, cards: Any, reason: str) -> str:
        raise AssertionError


def pct(numerator: float, denominator: float) -> float:
    return round(100 * numerator / denominator, 2)


def within(hits: float, n: int, p: float, *, spread: float | None = None) -> bool:
    """``hits / n`` within four standard errors of ``p`` (exact when p is 0 or 1)."""
    se = (spread if spread is not None else math.sqrt(p * (1 - p))) / math.sqrt(n)
    return abs(hits / n - p) <= 4 * se + 1e-12


# --- shooting ------------------------------------------------------------------------------------

#: Section 7, "Shooting: P(hit) = P(D6 + Shoot + Accuracy + modifiers >= 5), by total modifier".
SHOOTING = {
    "Shoot 3": [83.33, 66.67, 50.00, 33.33, 16.67, 0.00, 0.00],
    "Shoot 4": [100.00, 83.33, 66.67, 50.00, 33.33, 16.67, 0.00],
    "Shoot 1 (light)": [50.00, 33.33, 16.67, 0.00, 0.00, 0.00, 0.00],
    "Shoot 1 (serious)": [50.00, 33.33, 16.67, 0.00, 0.00, 0.00, 0.00],
}
#: Factor sets reaching each total modifier 0..-6 (cover, moving, over half range, prone, close combat).
FACTORS: list[dict[str, Any]] = [
    {"cover": "none"},
    {"cover": "soft"},
    {"cover": "hard"},
    {"cover": "hard", "moving": True},
    {"cover": "hard", "moving": True, "far": True},
    {"cover": "hard", "moving": True, "far": True, "prone": True},
    {"cover": "hard", "prone": True, "far": True, "melee": True},
]


@functools.cache
def shooting_state(firer: str, modifier: int) -> MedState:
    """Red's archer (Walt: Shoot 3; Hugh given a bow: Shoot 4) and blue's heavily armoured Olaf."""
    factors = FACTORS[modifier]
    health = {"Shoot 3": "full", "Shoot 4": "full", "Shoot 1 (light)": "light", "Shoot 1 (serious)": "serious"}[firer]
    archer = "Hugh" if firer == "Shoot 4" else "Walt"
    changes = {
        archer: {
            "weapons": ["Bow"],
            "health": health,
            "moved": 1.0 if factors.get("moving") else 0.0,
            "activated": True,
        },
        "Olaf": {"armour": HEAVY, "prone": bool(factors.get("prone"))},
    }
    contacts = [["Hugh", "Olaf"]] if factors.get("melee") else []
    if factors.get("melee") and archer == "Hugh":
        changes["Ned"] = {}
        contacts = [["Ned", "Olaf"]]
    return edit(ENGINE, START, changes, contacts=contacts, current=archer)


def shoot_once(state: MedState, factors: dict[str, Any], dice: Any) -> bool:
    archer = state.current
    params = {
        "figure": archer,
        "target": "Olaf",
        "range": 10.0 if factors.get("far") else 5.0,
        "cover": factors["cover"],
        "shots": 1,
    }
    out = ENGINE.act(state, Action("shoot", "red", params), dice)
    return next(e.data["hit"] for e in out.events if e.kind == "shot")


@pytest.mark.parametrize("firer", list(SHOOTING))
def test_shooting_hit_chances_exactly(firer: str) -> None:
    for modifier, factors in enumerate(FACTORS):
        state = shooting_state(firer, modifier)
        hits = sum(shoot_once(state, factors, Faces(face, 1)) for face in range(1, 7))
        assert pct(hits, 6) == SHOOTING[firer][modifier], (firer, -modifier)


def test_shooting_hit_chances_with_random_dice() -> None:
    dice = RandomDice(713)
    for firer, modifier in [("Shoot 3", 1), ("Shoot 4", 3), ("Shoot 1 (light)", 0), ("Shoot 3", 4)]:
        state = shooting_state(firer, modifier)
        n = 1500
        hits = sum(shoot_once(state, FACTORS[modifier], dice) for _ in range(n))
        assert within(hits, n, SHOOTING[firer][modifier] / 100), (firer, modifier, hits / n)


#: Section 7, "Bow (ROF 2): P(at least one hit) and expected hits".
BOW = {
    (3, 0): (97.22, 1.667),
    (3, 1): (88.89, 1.333),
    (3, 2): (75.00, 1.000),
    (3, 3): (55.56, 0.667),
    (4, 0): (100.00, 2.000),
    (4, 1): (97.22, 1.667),
    (4, 2): (88.89, 1.333),
    (4, 3): (75.00, 1.000),
}


def bow_volley(shoot: int, modifier: int, dice: Any) -> int:
    state = shooting_state("Shoot 4" if shoot == 4 else "Shoot 3", modifier)
    factors = FACTORS[modifier]
    params = {
        "figure": state.current,
        "target": "Olaf",
        "range": 10.0 if factors.get("far") else 5.0,
        "cover": factors["cover"],
    }
    out = ENGINE.act(state, Action("shoot", "red", params), dice)
    return sum(e.data["hit"] for e in out.events if e.kind == "shot")


@pytest.mark.parametrize("shoot, modifier", list(BOW))
def test_bow_two_shots_exactly(shoot: int, modifier: int) -> None:
    volleys = [bow_volley(shoot, modifier, ToHit(a, b)) for a, b in itertools.product(range(1, 7), repeat=2)]
    at_least_one, expected = BOW[(shoot, modifier)]
    assert pct(sum(h >= 1 for h in volleys), 36) == at_least_one
    assert round(sum(volleys) / 36, 3) == expected


def test_bow_two_shots_with_random_dice() -> None:
    dice = RandomDice(2)
    n = 1500
    volleys = [bow_volley(3, 2, dice) for _ in range(n)]
    p, mean = BOW[(3, 2)][0] / 100, BOW[(3, 2)][1]
    assert within(sum(h >= 1 for h in volleys), n, p)
    # hits ~ Binomial(2, 1/2): standard deviation sqrt(2 * 1/2 * 1/2)
    assert within(sum(volleys), n, mean, spread=math.sqrt(0.5))


# --- wounds --------------------------------------------------------------------------------------

ROWS = ("no_effect", "knocked_about", "light", "serious", "killed")
#: Section 7, "Wound outcome per hit", by armour 0..5: no effect, knocked about, light, serious, killed.
ONE_DIE = [
    [0.00, 16.67, 33.33, 33.33, 16.67],
    [16.67, 16.67, 33.33, 33.33, 0.00],
    [33.33, 16.67, 33.33, 16.67, 0.00],
    [50.00, 16.67, 33.33, 0.00, 0.00],
    [66.67, 16.67, 16.67, 0.00, 0.00],
    [83.33, 16.67, 0.00, 0.00, 0.00],
]
SWORD = [
    [0.00, 0.00, 11.11, 33.33, 55.56],
    [0.00, 2.78, 22.22, 44.44, 30.56],
    [2.78, 8.33, 33.33, 55.56, 0.00],
    [11.11, 13.89, 44.44, 30.56, 0.00],
    [25.00, 19.44, 55.56, 0.00, 0.00],
    [44.44, 25.00, 30.56, 0.00, 0.00],
]
GREATSWORD = [
    [0.00, 0.00, 0.46, 12.04, 87.50],
    [0.00, 0.00, 3.70, 25.93, 70.37],
    [0.00, 0.46, 12.04, 45.37, 42.13],
    [0.46, 3.24, 25.93, 70.37, 0.00],
    [3.70, 8.80, 45.37, 42.13, 0.00],
    [12.50, 17.13, 70.37, 0.00, 0.00],
]
WOUND_TABLES = {
    "Unarmed": ONE_DIE,
    "Dagger": ONE_DIE,
    "Bow": ONE_DIE,
    "Sword": SWORD,
    "Battleaxe": SWORD,
    "Greatsword": GREATSWORD,
}
#: The notes' examples of each armour total.
ARMOUR = [
    [],
    ["Leather"],
    ["Mailshirt", "Small Shield"],
    ["Chainmail", "Small Shield"],
    ["Plate", "Small Shield"],
    ["Plate", "Large Shield"],
]


@functools.cache
def armoured(armour: tuple[str, ...]) -> MedState:
    return edit(ENGINE, START, {"Olaf": {"armour": list(armour)}})


def wound_result(weapon: str, armour: list[str], dice: Any) -> str:
    state = clone(armoured(tuple(armour)))
    events: list = []
    wound(ENGINE.tables, state, fig(state, "Hugh"), fig(state, "Olaf"), weapon, dice, events)
    return events[0].data["result"]


@pytest.mark.parametrize("weapon", list(WOUND_TABLES))
def test_wound_outcomes_exactly(weapon: str) -> None:
    count = ENGINE.tables.weapons[weapon].damage
    for total, armour in enumerate(ARMOUR):
        tally = dict.fromkeys(ROWS, 0)
        for faces in itertools.product(range(1, 7), repeat=count):
            tally[wound_result(weapon, armour, Faces(*faces, 6))] += 1
        got = [pct(tally[r], 6**count) for r in ROWS]
        assert got == WOUND_TABLES[weapon][total], (weapon, total)


@pytest.mark.parametrize("weapon, total", [("Sword", 2), ("Greatsword", 4), ("Bow", 1)])
def test_wound_outcomes_with_random_dice(weapon: str, total: int) -> None:
    dice = RandomDice(total * 31 + len(weapon))
    n = 2000
    tally = dict.fromkeys(ROWS, 0)
    for _ in range(n):
        tally[wound_result(weapon, ARMOUR[total], dice)] += 1
    for row, p in zip(ROWS, WOUND_TABLES[weapon][total], strict=True):
        assert within(tally[row], n, p / 100), (weapon, total, row, tally[row] / n)


def test_a_sword_blow_through_the_engine_with_random_dice() -> None:
    """Hugh (Fight 10, so he always wins) cuts at Olaf in mail and small shield: the sword row for armour 2."""
    state = edit(ENGINE, START, {"Hugh": {"fight": 10}, "Olaf": {"armour": ARMOUR[2]}}, contacts=[["Hugh", "Olaf"]])
    dice = RandomDice(1066)
    n = 2000
    tally = dict.fromkeys(ROWS, 0)
    for _ in range(n):
        out = ENGINE.act(state, Action("fight", "red", {"figure": "Hugh"}), dice)
        tally[next(e.data["result"] for e in out.events if e.kind in ("wound", "unharmed"))] += 1
    for row, p in zip(ROWS, SWORD[2], strict=True):
        assert within(tally[row], n, p / 100), (row, tally[row] / n)


# --- hand to hand --------------------------------------------------------------------------------

#: Section 7, "Hand-to-hand: ... edge; 1D6 each": A wins, tie, B wins.
EDGES = {
    -4: (2.78, 5.56, 91.67),
    -3: (8.33, 8.33, 83.33),
    -2: (16.67, 11.11, 72.22),
    -1: (27.78, 13.89, 58.33),
    0: (41.67, 16.67, 41.67),
    1: (58.33, 13.89, 27.78),
    2: (72.22, 11.11, 16.67),
    3: (83.33, 8.33, 8.33),
    4: (91.67, 5.56, 2.78),
}


def edge_state(edge: int) -> tuple[MedState, dict[str, Any]]:
    """Hugh against Olaf (both Fight 4, heavily armoured) with ``edge`` made of Fight and the factors."""
    factors = {"height": "mine" if edge > 0 else "theirs" if edge < 0 else "none"}
    rest = edge - (1 if edge > 0 else -1 if edge < 0 else 0)
    heavy = {"armour": HEAVY}
    state = edit(ENGINE, START, {"Hugh": {**heavy, "fight": 4 + rest}, "Olaf": heavy}, contacts=[["Hugh", "Olaf"]])
    return state, factors


def fight_once(state: MedState, factors: dict[str, Any], dice: Any) -> str:
    out = ENGINE.act(state, Action("fight", "red", {"figure": "Hugh", **factors}), dice)
    winner = next(e.data["winner"] for e in out.events if e.kind == "fight")
    return {"Hugh": "A", "Olaf": "B", None: "tie"}[winner]


@pytest.mark.parametrize("edge", list(EDGES))
def test_hand_to_hand_edges_exactly(edge: int) -> None:
    state, factors = edge_state(edge)
    results = [fight_once(state, factors, Faces(a, b, 1, 1)) for a, b in itertools.product(range(1, 7), repeat=2)]
    assert (pct(results.count("A"), 36), pct(results.count("tie"), 36), pct(results.count("B"), 36)) == EDGES[edge]


@pytest.mark.parametrize("edge", [0, -2])
def test_hand_to_hand_with_random_dice(edge: int) -> None:
    state, factors = edge_state(edge)
    dice = RandomDice(100 + edge)
    n = 2000
    results = [fight_once(state, factors, dice) for _ in range(n)]
    for outcome, p in zip(("A", "tie", "B"), EDGES[edge], strict=True):
        assert within(results.count(outcome), n, p / 100), (edge, outcome)


# --- Bravery -------------------------------------------------------------------------------------

#: Section 7, "Bravery test: P(D6 + Bravery >= 9)".
BRAVERY = [
    ("Hugh", "full", 6, 66.67),
    ("Harald", "full", 6, 66.67),
    ("Ned", "full", 4, 33.33),
    ("Olaf", "full", 4, 33.33),
    ("Ned", "light", 2, 0.00),
    ("Hugh", "light", 4, 33.33),
]


@pytest.mark.parametrize("name, health, bravery, chance", BRAVERY)
def test_bravery_exactly(name: str, health: str, bravery: int, chance: float) -> None:
    state = edit(ENGINE, START, {name: {"health": health}})
    passes = sum(bravery_test(ENGINE.tables, fig(state, name), Faces(face), "test", []) for face in range(1, 7))
    assert pct(passes, 6) == chance


def test_serious_wound_activation_test_with_random_dice() -> None:
    """A-MED-6 through the engine: a seriously wounded Knight (Bravery 6, not halved) stays up 2 times in 3."""
    state = edit(ENGINE, START, {"Hugh": {"health": "serious"}})
    dice = RandomDice(6)
    n = 1500
    stood = sum(
        fig(ENGINE.act(state, Action("activate", "red", {"figure": "Hugh"}), dice).state, "Hugh").health == "serious"
        for _ in range(n)
    )
    assert within(stood, n, 2 / 3)
