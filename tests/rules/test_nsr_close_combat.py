"""The close combat phase: close-in and stand tests, the fights, their modifiers and aftermath."""

from __future__ import annotations

import pytest

from rules.nsr.close_combat import Stance, modifiers, pairs
from rules.nsr.engine import NsrEngine
from rules.nsr.state import Charge, Figure, NsrState
from tests.rules.test_nsr_helpers import (
    act,
    events,
    get,
    kinds,
    refuse,
    stage,
    status,
    texts,
    unit,
)


def combat(engine: NsrEngine, horse: dict | None = None, foot: dict | None = None, counter: bool = False) -> NsrState:
    """Chasseurs charge Militia; a second charge (Reserve → Foot) keeps the phase open after it."""
    specs = [
        unit("Chasseurs", "French", "mounted", **(horse or {"figures": 3})),
        unit("Reserve", "French", "line", figures=6),
        unit("Militia", "Allied", "militia", **(foot or {"figures": 2, "officer": "no"})),
        unit("Foot", "Allied", "line", figures=6),
    ]
    state = stage(engine, specs, "close_combat")
    state.charges = [Charge("Chasseurs", "Militia"), Charge("Reserve", "Foot")]
    if counter:
        state.charges.insert(1, Charge("Militia", "Chasseurs", counter=True))
    return state


def melee(engine: NsrEngine, state: NsrState, dice, **params):
    return act(engine, state, "melee", dice=dice, **params)


def test_a_charge_closes_the_defenders_stand_and_the_figures_fight(engine: NsrEngine) -> None:
    """Dice order: close-in d10, stand d10, then d10 charger's figure, d10 defender's figure per fight."""
    state = combat(engine)
    out = melee(engine, state, [3, 2, 8, 1, 7, 6])
    assert events(out, "close-in")[0] == {
        "unit": "Chasseurs",
        "target": "Militia",
        "die": 3,
        "roll": 3,
        "needed": 8,
        "leader": True,
        "closes": True,
        "passed": True,
    }
    assert events(out, "stand")[0]["stands"] and events(out, "stand")[0]["needed"] == 6
    fights = events(out, "fight")
    assert [(f["a"]["figure"], f["a"]["total"], f["b"]["figure"], f["b"]["total"], f["outcome"]) for f in fights] == [
        ("Commander-in-Chief", 14, "NCO", 3, "killed"),
        ("NCO", 13, "Private 1", 7, "captured"),
    ]
    assert fights[0]["b"]["modifiers"] == [
        {"reason": "defending in close order", "value": 1},
        {"reason": "leader", "value": 2},
        {"reason": "extra opponents", "value": -1},
    ]
    assert fights[0]["a"]["modifiers"] == [{"reason": "charging", "value": 3}, {"reason": "leader", "value": 3}]
    assert status(out.state, "Militia") == {"NCO": "killed", "Private 1": "captured"}
    assert events(out, "prisoners")[0]["escorts"] == ["Trooper 1"]
    assert [f.duty for f in get(out.state, "Chasseurs").figures] == ["", "", "escort"]
    assert "casualty" in kinds(out) and out.state.charges[0].resolved
    assert engine.whose_turn(out.state) == "French"  # Reserve's charge waits


def test_chargers_that_fail_to_close_fall_back_pinned(engine: NsrEngine) -> None:
    out = melee(engine, combat(engine), [9])
    assert get(out.state, "Chasseurs").pinned and "falls back 6″ and is pinned" in texts(out)
    assert "fight" not in kinds(out)


def test_defenders_that_do_not_stand_are_shaken_and_fall_back_4d6(engine: NsrEngine) -> None:
    out = melee(engine, combat(engine), [3, 7, 1, 2, 3, 4])
    assert get(out.state, "Militia").shaken and events(out, "shaken")[0]["inches"] == 10
    assert "Chasseurs occupies Militia's position" in texts(out)


def test_horse_attacking_a_square_loses_four(engine: NsrEngine) -> None:
    """A-NSR-11: 1-8 becomes 1-4 with a leader, 1-7 becomes 1-3 without."""
    state = combat(engine, foot={"figures": 2, "officer": "no", "formation": "square"})
    assert events(melee(engine, state, [5]), "close-in")[0]["needed"] == 4
    state = combat(
        engine,
        horse={"figures": 3, "officer": "no", "nco": "no"},
        foot={"figures": 2, "officer": "no", "formation": "square"},
    )
    out = melee(engine, state, [3, 2, 10, 1, 10, 1])
    assert events(out, "close-in")[0]["needed"] == 3 and not events(out, "close-in")[0]["leader"]


def test_without_a_leader_the_ranges_are_shorter(engine: NsrEngine) -> None:
    state = combat(engine, foot={"figures": 2, "officer": "no", "nco": "no"})
    out = melee(engine, state, [3, 6, 1, 2, 3, 4])
    assert events(out, "stand")[0]["needed"] == 5 and not events(out, "stand")[0]["stands"]


def test_ties_are_rolled_again(engine: NsrEngine) -> None:
    out = melee(engine, combat(engine), [3, 2, 1, 5, 8, 1, 7, 6])
    first = events(out, "fight")[0]
    assert first["ties"] == [[1, 5]] and first["outcome"] == "killed" and "after 1 tie" in texts(out)


LONE = {"figures": 1, "officer": "no", "nco": "no"}


@pytest.mark.parametrize(
    ("natural", "fate"),
    [(1, "killed"), (2, "captured"), (3, "fit"), (5, "fit"), (6, "captured"), (7, "captured"), (10, "captured")],
)
def test_the_losers_natural_die_decides_its_fate(engine: NsrEngine, natural: int, fate: str) -> None:
    """Seed B.3: 1 killed, 2 wounded, 3-5 runs, 6 captured; A-NSR-2: 7-10 captured too. A wounded loser
    goes with the prisoners (seed C.3); one who ran is shaken with the rest of its unit."""
    state = combat(engine, horse=LONE, foot=LONE)
    dice = [3, 2, 10, natural] + ([1, 1, 1, 1] if 3 <= natural <= 5 else [])
    out = melee(engine, state, dice)
    assert events(out, "fight")[0]["outcome"] == {1: "killed", 2: "wounded"}.get(
        natural, "ran" if natural <= 5 else "captured"
    )
    loser = get(out.state, "Militia").figures[0]
    assert loser.status == fate
    if natural == 2:
        assert loser.wound == "heavy"  # A-NSR-9: close combat wounds are heavy
    if 3 <= natural <= 5:
        assert loser.shaken and events(out, "shaken")


def test_survivors_are_rematched_until_one_side_is_gone(engine: NsrEngine) -> None:
    """Seed B.2: round after round; the winners' runners come back, the losers' are shaken."""
    two = {"figures": 2, "officer": "no", "nco": "no"}
    state = combat(engine, horse=two, foot=two)
    out = melee(engine, state, [3, 2, 10, 3, 1, 10, 9, 2, 2, 2, 2, 2])
    fights = [(f["round"], f["a"]["figure"], f["b"]["figure"], f["outcome"]) for f in events(out, "fight")]
    assert fights == [
        (1, "Trooper 1", "Private 1", "ran"),
        (1, "Trooper 2", "Private 2", "killed"),
        (2, "Trooper 1", "Private 2", "wounded"),
    ]
    assert status(out.state, "Chasseurs") == {"Trooper 1": "fit", "Trooper 2": "killed"}
    assert status(out.state, "Militia") == {"Private 1": "fit", "Private 2": "captured/heavy"}
    assert get(out.state, "Militia").shaken and events(out, "shaken")[0]["inches"] == 8
    assert events(out, "melee")[-1]["winner"] == "Chasseurs"


def test_one_figure_against_several_fights_them_in_turn(engine: NsrEngine) -> None:
    state = combat(engine, horse={"figures": 3, "officer": "no", "nco": "no"}, foot=LONE)
    out = melee(engine, state, [3, 2, 1, 10, 1, 10, 1, 10])
    fights = events(out, "fight")
    assert [f["a"]["figure"] for f in fights] == ["Trooper 1", "Trooper 2", "Trooper 3"]
    assert fights[0]["b"]["modifiers"] == [
        {"reason": "defending in close order", "value": 1},
        {"reason": "extra opponents", "value": -2},
    ]
    assert events(out, "melee")[-1]["winner"] == "Militia" and "shaken" not in kinds(out)
    assert status(out.state, "Chasseurs") == {f"Trooper {i}": "killed" for i in (1, 2, 3)}


def test_counter_charges_both_test_to_close(engine: NsrEngine) -> None:
    """A-NSR-10: counter-chargers use the Close into Combat column; both sides count as charging."""
    state = combat(engine, horse=LONE, foot=LONE, counter=True)
    out = melee(engine, state, [3, 4, 10, 1])
    assert [e["unit"] for e in events(out, "close-in")] == ["Chasseurs", "Militia"]
    assert events(out, "close-in")[1]["needed"] == 4  # militia without a leader
    assert events(out, "fight")[0]["a"]["modifiers"] == [{"reason": "charging", "value": 3}]
    assert events(out, "fight")[0]["b"]["modifiers"] == []  # militia: charging +0, and no defending line
    assert all(ch.resolved for ch in out.state.charges[:2])
    out = melee(engine, state, [3, 9])
    assert get(out.state, "Militia").pinned and "Chasseurs occupies Militia's position" in texts(out)
    refuse(engine, state, "melee", "front to front", cover="building")


def test_a_charge_into_thin_air_occupies_the_ground(engine: NsrEngine) -> None:
    out = melee(engine, combat(engine), [], reached=False)
    assert "Chasseurs occupies Militia's position" in texts(out)
    state = combat(engine)
    for f in get(state, "Chasseurs").figures:
        f.status = "killed"
    assert "comes to nothing" in texts(melee(engine, state, []))


def test_melee_refusals(engine: NsrEngine) -> None:
    state = combat(engine)
    refuse(engine, state, "melee", "It is French's turn", side="Allied")
    alone = combat(engine)
    alone.charges = alone.charges[:1]
    refuse(engine, alone, "melee", "no charge waiting", unit="Foot")
    refuse(engine, state, "melee", "no unit called", unit="Nobody")
    refuse(engine, state, "melee", "cover: is open, linear or building.", cover="castle")
    refuse(engine, state, "fire", "only in the fire phase", target="Militia", range=3)
    refuse(
        engine,
        stage(engine, [unit("A", "French", "line"), unit("B", "Allied", "line")], "fire", "A"),
        "melee",
        "close combat phase",
    )


def test_the_last_charge_ends_the_turn_with_morale_and_a_new_movement_phase(engine: NsrEngine) -> None:
    state = combat(engine)
    state.charges = state.charges[1:]
    out = act(engine, state, "melee", dice=[9, 3, 3], cards=["KS"])  # Reserve fails to close: pinned
    assert [(e["check"], e["unit"], e["passed"]) for e in events(out, "morale")] == [("pinned", "Reserve", True)]
    assert (out.state.turn, out.state.phase, out.pending.decider) == (2, "movement", "French")
    assert not get(out.state, "Reserve").pinned and out.state.charges == []


# --- the close combat chart's lines --------------------------------------------------------------------


def fig(leader: bool = False) -> Figure:
    return Figure("X", "officer" if leader else "private", rank=2 if leader else 0)


@pytest.mark.parametrize(
    ("troop", "melee_weapon", "stance", "opponents", "leader", "expected"),
    [
        ("grenadiers", "bayonet", Stance(True, None, False, False), 1, False, {"charging": 2}),
        ("line", "bayonet", Stance(False, "defending_in_square", False, False), 1, False, {"defending in square": 2}),
        (
            "militia",
            "bayonet",
            Stance(False, "defending_building", True, False),
            1,
            True,
            {"defending a building": 1, "uphill": 1, "leader": 2},
        ),
        (
            "light",
            "pike",
            Stance(False, "defending_linear_object", False, True),
            3,
            False,
            {
                "defending a linear object": 1,
                "attacked from the rear": -2,
                "lance/pike/halberd/axe": 1,
                "extra opponents": -2,
            },
        ),
        (
            "mounted",
            "lance",
            Stance(True, None, False, False),
            1,
            True,
            {"charging": 3, "leader": 3, "lance/pike/halberd/axe": 2},
        ),
        ("mounted", "none", Stance(False, "defending_in_square", False, False), 1, False, {}),
        (
            "artillery",
            "none",
            Stance(False, "defending_in_close_order", False, False),
            1,
            True,
            {"defending in close order": 1, "leader": 3, "no bayonet": -1},
        ),
        (
            "guerillas",
            "none",
            Stance(False, "defending_in_open_order", False, False),
            1,
            False,
            {"defending in open order": 1, "no bayonet": -1},
        ),
    ],
)
def test_close_combat_modifiers(engine: NsrEngine, troop, melee_weapon, stance, opponents, leader, expected) -> None:
    """Table CC by the figure's column; A-NSR-12 guerillas in the light column; A-NSR-13 leader on his own roll."""
    specs = [unit("U", "French", troop, melee=melee_weapon), unit("V", "Allied", "line")]
    state = stage(engine, specs)
    assert dict(modifiers(engine.charts, get(state, "U"), fig(leader), stance, opponents)) == expected


def test_pairs_spread_the_larger_side_evenly() -> None:
    few = [Figure(f"A{i}", "private") for i in range(2)]
    many = [Figure(f"B{i}", "private") for i in range(5)]
    assert [(a.name, [b.name for b in bs]) for a, bs in pairs(few, many)] == [
        ("A0", ["B0", "B2", "B4"]),
        ("A1", ["B1", "B3"]),
    ]
