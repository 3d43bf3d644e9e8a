"""The medieval tables (every value of the seed's tables), house rules, and roster entries."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core import DataError, FigureSpec, RuleError
from rules.medieval.engine import MedievalEngine, make_engine
from rules.medieval.state import effective
from tests.rules.test_medieval_engine import (
    ScriptedDice,
    begin,
    edit,
    engaged,
    event,
    fig,
    hit,
    play,
    roster,
)

# --- every value of the seed's tables ----------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, speed, bravery, shoot, fight",
    [
        ("Knight", 6, 6, 4, 4),
        ("Man at Arms", 6, 4, 3, 3),
        ("Viking Warrior", 6, 4, 3, 4),
        ("Viking Hero", 6, 6, 3, 5),
    ],
)
def test_figure_stats(engine: MedievalEngine, kind: str, speed: int, bravery: int, shoot: int, fight: int) -> None:
    p = engine.tables.profiles[kind]
    assert (p.speed, p.bravery, p.shoot, p.fight) == (speed, bravery, shoot, fight)
    state = begin(engine, figures=[FigureSpec("A", "red", kind), FigureSpec("B", "blue", "Knight")])
    a = fig(state, "A")
    assert (a.speed, a.bravery, a.shoot, a.fight, a.health) == (speed, bravery, shoot, fight, "full")  # A-MED-14


@pytest.mark.parametrize(
    "weapon, accuracy, power, rng, rof, damage",
    [
        ("Sword", 0, 1, 0, None, 2),
        ("Battleaxe", 0, 1, 0, None, 2),
        ("Dagger", 0, 0, 3, 1, 1),
        ("Bow", 0, 0, 15, 2, 1),
        ("Greatsword", 0, 2, 0, None, 3),
        ("Unarmed", 0, 0, 0, None, 1),
    ],
)
def test_weapon_stats(
    engine: MedievalEngine, weapon: str, accuracy: int, power: int, rng: float, rof: int | None, damage: int
) -> None:
    w = engine.tables.weapons[weapon]
    assert (w.accuracy, w.power, w.range, w.rof, w.damage) == (accuracy, power, rng, rof, damage)


@pytest.mark.parametrize(
    "piece, protection, slot",
    [
        ("Leather", 1, "body"),
        ("Mailshirt", 1, "body"),
        ("Chainmail", 2, "body"),
        ("Plate", 3, "body"),
        ("Large Shield", 2, "shield"),
        ("Small Shield", 1, "shield"),
    ],
)
def test_armour_stats(engine: MedievalEngine, piece: str, protection: int, slot: str) -> None:
    assert (engine.tables.armour[piece].protection, engine.tables.armour[piece].slot) == (protection, slot)


@pytest.mark.parametrize(
    "armour, total",
    [
        ([], 0),
        (["Leather"], 1),
        (["Mailshirt", "Small Shield"], 2),
        (["Chainmail"], 2),
        (["Plate", "Small Shield"], 4),
        (["Chainmail", "Large Shield"], 4),
        (["Plate", "Large Shield"], 5),
        (["Large Shield"], 2),
    ],
)
def test_armour_adds_up_a_med_13(engine: MedievalEngine, armour: list[str], total: int) -> None:
    """Body armour and shield add up (the seed's example: Mailshirt + Small Shield = 2)."""
    state = edit(engine, begin(engine), {"Bjorn": {"armour": armour}})
    out = play(
        engine,
        state,
        "shoot",
        6,
        1,
        *((6,) if 1 - total == 1 else ()),
        figure="Walt",
        target="Bjorn",
        range=5.0,
        shots=1,
    )
    assert hit(out).data["armour"] == total


def test_shooting_factors(engine: MedievalEngine) -> None:
    m = engine.tables.shooting_modifiers
    assert (m.open, m.hard_cover, m.soft_cover, m.moving, m.over_half_range, m.prone, m.in_close_combat) == (
        0,
        -2,
        -1,
        -1,
        -1,
        -1,
        -2,
    )
    assert engine.tables.hit_on == 5


def test_close_combat_factors(engine: MedievalEngine) -> None:
    f = engine.tables.close_combat_factors
    assert (f.height_advantage, f.defending_barricade, f.prone) == (1, 1, -1)


def test_wound_chart(engine: MedievalEngine) -> None:
    rows = [(r.up_to, r.result, r.label) for r in engine.tables.wound_chart]
    assert rows == [
        (0, "no_effect", "No Effect"),
        (1, "knocked_about", "Knocked About"),
        (3, "light", "Light Wound"),
        (5, "serious", "Serious Wound"),
        (None, "killed", "Killed"),
    ]


def test_wounds_and_bravery_numbers(engine: MedievalEngine) -> None:
    t = engine.tables
    assert t.bravery_pass == 9 and t.die == 6
    assert t.light_wound_modifiers == {"speed": -2, "shoot": -2, "fight": -2, "bravery": -2}
    assert t.serious_wound_halves == ["speed", "shoot", "fight"] and t.halving_rounds == "down"
    assert {h: (tr.light, tr.serious) for h, tr in t.wound_transitions.items()} == {
        "full": ("light", "serious"),
        "light": ("serious", "serious"),
        "serious": ("serious", "killed"),
    }


def test_the_resolutions_defaults(engine: MedievalEngine) -> None:
    t = engine.tables
    assert t.natural_one_misses is False  # A-MED-4
    assert t.moving_counts_once is True  # A-MED-9
    assert t.shooter_in_contact_may_throw_at_opponent is True  # A-MED-10
    assert t.breakoff_tie_mover_escapes is True  # A-MED-2
    assert t.knocked_back_inches == 1  # A-MED-7
    assert t.fights_per_activation == 1  # A-MED-16
    assert t.self_healing is False  # A-MED-15
    assert t.plunder_from == ["killed"]


def test_ground_scales(engine: MedievalEngine) -> None:
    scales = engine.tables.ground_scales
    assert scales["3-inch"].inches_per_metre == 1.5 and scales["54mm"].inches_per_metre == 1.0
    assert scales["other"].inches_per_metre is None and "half a figure's standing height" in scales["other"].rule
    other = make_engine({"ground_scale": "3-inch"})
    assert list(other.about()) == [
        ("Ground scale", "3-inch figures (about Playmobil size): 1 metre = 1.5 inches (3.75 cm, about 4 cm)")
    ]
    assert "Ground scale" not in dict(other.board(begin(other)).facts), "said once, in /campaign info"


def test_a_roster_entry_of_a_kind_shows_its_profile(engine: MedievalEngine) -> None:
    """Issue 19: /roster show gave a Knight no speed, Bravery, Shoot or Fight (its stats are its kind's)."""
    assert engine.profile(FigureSpec("Hugh", "red", "Knight")) == (
        "speed 6″, Bravery 6, shoot 4, fight 4, health full; Sword; Chainmail + Small Shield (armour 3)"
    )


@pytest.mark.parametrize("rounding, halves", [("down", (3, 1, 2)), ("up", (3, 2, 2))])
def test_halving_rounds_a_med_5(rounding: str, halves: tuple) -> None:
    engine = make_engine({"halving_rounds": rounding})
    state = edit(engine, begin(engine), {"Olaf": {"health": "serious"}})
    e = effective(engine.tables, fig(state, "Olaf"))
    assert (e["speed"], e["shoot"], e["fight"], e["bravery"]) == (*halves, 4)


# --- house rules ---------------------------------------------------------------------------------


def test_house_rules_add_a_weapon_armour_and_a_profile() -> None:
    engine = make_engine(
        {
            "weapons": {
                "Spear": {"accuracy": 1, "power": 1, "range": 0, "rof": None, "damage": 2, "melee": True},
                "Crossbow": {"accuracy": 1, "power": 1, "range": 18, "rof": 1, "damage": 1, "melee": False},
            },
            "armour": {"Helmet": {"protection": 1, "slot": "head"}},
            "armour_slots": ["body", "shield", "head"],
            "profiles": {
                "Huscarl": {
                    "speed": 5,
                    "bravery": 5,
                    "shoot": 2,
                    "fight": 5,
                    "weapons": ["Spear"],
                    "armour": ["Mailshirt", "Helmet"],
                }
            },
        }
    )
    assert "Huscarl" in engine.kinds()
    spec = engine.check_figure(FigureSpec("Ulf", "blue", "huscarl"))
    assert dict(spec.stats) == {"weapons": "Spear", "armour": "Mailshirt+Helmet"}
    figures = [
        *roster(),
        spec,
        FigureSpec(
            "Bow",
            "red",
            "custom",
            {"speed": 6, "bravery": 4, "shoot": 3, "fight": 3, "weapons": "crossbow", "armour": "helmet"},
        ),
    ]
    state = engaged(engine, begin(engine, figures=figures), "Hugh", "Ulf")
    out = play(engine, state, "fight", 1, 1, 1, 1, figure="Hugh")
    assert event(out, "fight").data["totals"] == {"Hugh": 5, "Ulf": 7}  # Spear Accuracy +1
    assert hit(out).data["armour"] == 3
    state = play(engine, state, "endturn").state
    state = play(
        engine, play(engine, state, "endturn").state, "shoot", 1, figure="Bow", target="Olaf", range=10.0
    ).state
    assert fig(state, "Bow").shots == 1


def test_house_rule_changes_one_number_only() -> None:
    engine = make_engine({"weapons": {"Bow": {"range": 18}}, "bravery_pass": 8})
    assert engine.tables.weapons["Bow"].range == 18 and engine.tables.weapons["Bow"].rof == 2
    assert engine.tables.bravery_pass == 8 and engine.tables.hit_on == 5


def test_unknown_house_rule_key_is_reported() -> None:
    with pytest.raises(DataError) as caught:
        make_engine({"wepons": {}})
    assert "unknown key 'wepons'" in caught.value.message


def test_malformed_house_rule_names_its_path() -> None:
    with pytest.raises(DataError) as caught:
        make_engine({"weapons": {"Bow": {"range": "far"}}, "bravery_pass": [9]})
    problems = " | ".join(caught.value.problems)
    assert "weapons.Bow.range" in problems and "bravery_pass" in problems


@pytest.mark.parametrize(
    "override, fragment",
    [
        ({"sides": ["red", "RED"]}, "sides"),
        ({"sides": ["red"]}, "sides"),
        ({"min_figures_per_side": 0}, "min_figures_per_side"),
        ({"ground_scale": "15mm"}, "ground_scale"),
        ({"weapons": {"Bow": {"rof": None}}}, "weapons.Bow.rof: a weapon with a range"),
        ({"weapons": {"Sword": {"rof": 2}}}, "weapons.Sword.rof: a weapon with no range"),
        ({"weapons": {"Sword": {"damage": 0}}}, "weapons.Sword.damage"),
        ({"weapons": {"Sword": {"melee": False}}}, "weapons.Sword: has no range"),
        ({"weapons": {"Sword": {"thrown": True}}}, "weapons.Sword.thrown"),
        (
            {"weapons": {"Big+Axe": {"accuracy": 0, "power": 1, "range": 0, "rof": None, "damage": 2, "melee": True}}},
            "may not contain +",
        ),
        (
            {"weapons": {"sword": {"accuracy": 0, "power": 1, "range": 0, "rof": None, "damage": 2, "melee": True}}},
            "differ only in capitals",
        ),
        ({"unarmed": "Fists"}, "unarmed"),
        ({"armour": {"Plate": {"slot": "hat"}}}, "armour.Plate.slot"),
        ({"armour": {"Plate": {"protection": -1}}}, "armour.Plate.protection"),
        ({"profiles": {"Knight": {"weapons": ["Lance"]}}}, "profiles.Knight.weapons"),
        ({"profiles": {"Knight": {"armour": ["Plate", "Chainmail"]}}}, "profiles.Knight.armour: at most one"),
        ({"custom_limits": {"speed": {"low": 5, "high": 1}}}, "custom_limits.speed"),
        ({"custom_limits": {"luck": {"low": 0, "high": 1}}}, "custom_limits.luck"),
        (
            {
                "wound_chart": [
                    {"up_to": 3, "result": "light", "label": "x"},
                    {"up_to": 1, "result": "killed", "label": "y"},
                ]
            },
            "wound_chart",
        ),
        ({"wound_chart": []}, "wound_chart"),
        ({"wound_chart": [{"up_to": None, "result": "dead", "label": "x"}]}, "wound_chart[0].result"),
        ({"wound_transitions": {"killed": {"light": "killed", "serious": "killed"}}}, "wound_transitions.killed"),
        ({"light_wound_modifiers": {"luck": -1}}, "light_wound_modifiers.luck"),
        ({"serious_wound_halves": ["luck"]}, "serious_wound_halves"),
        ({"halving_rounds": "sideways"}, "halving_rounds"),
        ({"fights_per_activation": 0}, "fights_per_activation"),
        ({"stand_up_cost_of_speed": 2}, "stand_up_cost_of_speed"),
        ({"plunder_from": ["full"]}, "plunder_from"),
        ({"knocked_back_inches": -1}, "knocked_back_inches"),
    ],
)
def test_table_checks_types_cannot_make(override: dict[str, Any], fragment: str) -> None:
    with pytest.raises(DataError) as caught:
        make_engine(override)
    assert fragment in caught.value.message


# --- roster entries -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, expected",
    [
        ("knight", "Knight"),
        ("MAN AT ARMS", "Man at Arms"),
        ("man-at-arms", "Man at Arms"),
        ("viking_warrior", "Viking Warrior"),
        ("Viking  Hero", "Viking Hero"),
        ("Custom", "custom"),
    ],
)
def test_kinds_are_matched_loosely(engine: MedievalEngine, kind: str, expected: str) -> None:
    stats = {"speed": 5, "bravery": 5, "shoot": 5, "fight": 5} if expected == "custom" else {}
    assert engine.check_figure(FigureSpec("Ulf", "red", kind, stats)).kind == expected


@pytest.mark.parametrize(
    "kind, weapons, armour",
    [
        ("Knight", "Sword", "Chainmail+Small Shield"),
        ("Man at Arms", "Sword", "Leather+Small Shield"),
        ("Viking Warrior", "Battleaxe", "Leather+Small Shield"),
        ("Viking Hero", "Sword", "Mailshirt+Large Shield"),
    ],
)
def test_profiles_bring_their_kit(engine: MedievalEngine, kind: str, weapons: str, armour: str) -> None:
    assert dict(engine.check_figure(FigureSpec("Ulf", "red", kind)).stats) == {"weapons": weapons, "armour": armour}


def test_a_custom_figure_with_its_kit(engine: MedievalEngine) -> None:
    """The documented form:
    stats:"speed=5 bravery=5 shoot=2 fight=4 weapons=battleaxe+dagger armour=mailshirt+small-shield"."""
    stats = {
        "speed": 5,
        "bravery": 5,
        "shoot": 2,
        "fight": 4,
        "weapons": "battleaxe+dagger",
        "armour": "mailshirt+small-shield",
    }
    spec = engine.check_figure(FigureSpec("  Ulf  the  Tall ", "BLUE", "custom", stats))
    assert (spec.name, spec.side, spec.kind) == ("Ulf the Tall", "blue", "custom")
    assert dict(spec.stats) == {
        "speed": 5,
        "bravery": 5,
        "shoot": 2,
        "fight": 4,
        "weapons": "Battleaxe+Dagger",
        "armour": "Mailshirt+Small Shield",
    }
    assert engine.check_figure(spec) == spec  # what the roster keeps is accepted again at /game start


def test_kit_spellings(engine: MedievalEngine) -> None:
    base = {"speed": 5, "bravery": 5, "shoot": 2, "fight": 4}
    for armour in ("Mailshirt / Small_Shield", ["mailshirt", "small shield"], "MAILSHIRT+smallshield"):
        spec = engine.check_figure(FigureSpec("Ulf", "red", "custom", {**base, "armor": armour}))
        assert spec.stats["armour"] == "Mailshirt+Small Shield"
    bare = engine.check_figure(FigureSpec("Ulf", "red", "custom", {**base, "weapons": "none", "armour": "none"}))
    assert (bare.stats["weapons"], bare.stats["armour"]) == ("none", "none")
    state = begin(engine, figures=[*roster(), bare])
    assert (fig(state, "Ulf").weapons, fig(state, "Ulf").armour) == ([], [])
    profile = engine.check_figure(FigureSpec("Ulf", "red", "Knight", {"weapon": "bow+sword", "armour": "plate"}))
    assert dict(profile.stats) == {"weapons": "Bow+Sword", "armour": "Plate"}


def test_recruit_rolls_nothing_and_says_what_the_figure_is(engine: MedievalEngine) -> None:
    dice = ScriptedDice()
    out = engine.recruit(FigureSpec("Hugh", "red", "Knight"), dice)
    assert dice.rolls == []
    assert out.events[0].text == (
        "Hugh: Knight — speed 6″, Bravery 6, shoot 4, fight 4, health full; Sword; Chainmail + Small Shield (armour 3)."
    )


@pytest.mark.parametrize(
    "spec, fragment",
    [
        (FigureSpec("  ", "red", "Knight"), "A figure needs a name."),
        (FigureSpec("Ulf", "green", "Knight"), "use red or blue"),
        (FigureSpec("Ulf", "red", ""), "Give “Ulf” a kind: Knight, Man at Arms, Viking Warrior, Viking Hero or custom"),
        (FigureSpec("Ulf", "red", "Dragon"), "“Dragon” is not a kind of figure here"),
        (FigureSpec("Ulf", "red", "custom", {"speed": 5, "bravery": 5, "shoot": 2}), "give its fight"),
        (
            FigureSpec("Ulf", "red", "custom", {"speed": 5, "bravery": 5, "shoot": 2, "fight": "lots"}),
            "fight must be a whole number",
        ),
        (
            FigureSpec("Ulf", "red", "custom", {"speed": 50, "bravery": 5, "shoot": 2, "fight": 4}),
            "speed must be from 0 to 24, not 50",
        ),
        (
            FigureSpec("Ulf", "red", "Knight", {"fight": 6}),
            "is a Knight, whose fight is 4: to give a figure its own stats use kind:custom",
        ),
        (FigureSpec("Ulf", "red", "Knight", {"luck": 6}), "a stat “luck” this game does not use"),
        (FigureSpec("Ulf", "red", "Knight", {"weapons": "lance"}), "carries “lance”, which is not a weapon here"),
        (FigureSpec("Ulf", "red", "Knight", {"armour": "kevlar"}), "wears “kevlar”, which is not armour here"),
        (FigureSpec("Ulf", "red", "Knight", {"armour": "plate+leather"}), "Plate and Leather, both body armour"),
        (FigureSpec("Ulf", "red", "Knight", {"armour": "large shield+small shield"}), "both shield armour"),
        (FigureSpec("Ulf", "red", "Knight", {"weapon": "sword", "weapons": "bow"}), "weapons is given twice"),
        (FigureSpec("Ulf", "red", "Knight", {"health": "serious"}), "light after a serious wound"),
    ],
)
def test_check_figure_refuses(engine: MedievalEngine, spec: FigureSpec, fragment: str) -> None:
    with pytest.raises(RuleError) as caught:
        engine.check_figure(spec)
    assert fragment in caught.value.message


def test_profile_stats_equal_to_the_profile_are_accepted(engine: MedievalEngine) -> None:
    spec = engine.check_figure(FigureSpec("Ulf", "red", "Knight", {"fight": 4, "health": "Full"}))
    assert "fight" not in spec.stats
