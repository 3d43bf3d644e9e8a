"""YASG's tables as data (RULES-NOTES.md 1.5): the seed's numbers, the reconstructed firing table
as a replaceable variant (A-YASG-2), and house rules validated like the tables."""

from __future__ import annotations

import pytest

from rules import get_engine
from rules.core import DataError
from rules.yasg.engine import YasgEngine, make_engine
from tests.rules.test_yasg_support import BRITISH, FRENCH, F, act, change, events, refuse, scene

LETTERS = "ABCDEFG"


def test_the_seed_tables(engine: YasgEngine) -> None:
    t = engine.t
    assert t.morale.pass_if_d10_greater_than == dict(zip(LETTERS, range(1, 8), strict=True))
    assert t.close_combat.hit_if_d10_at_least == dict(zip(LETTERS, range(4, 11), strict=True))
    assert (sorted(t.damage_d10.killed), t.damage_d10.serious, t.damage_d10.minor) == (
        [1, 10],
        [2, 3, 4, 5],
        [6, 7, 8, 9],
    )
    assert (t.wounds.minor_points, t.wounds.serious_points, t.wounds.out_when_points_exceed) == (1, 2, 3)
    m = t.movement
    assert (m.walk, m.walk_and_fire, m.run, m.run_and_fire, m.uphill_cost, m.fall_on_d10) == (2, 1, 4, 3, 1, [1, 2])
    assert t.terrain["building"].enter_cost == 1 and t.edges["hedge"].cross_cost == t.edges["wall"].cross_cost == 1
    assert t.misfire_on_d6 == [1] and t.arc_of_fire_degrees == 45
    assert t.class_letters[:7] == list(LETTERS) and t.initial_classes == ["A", "B", "C", "D"]
    assert list(t.weapons) == ["musket"]  # A-YASG-20: foot with muskets only


def test_the_shipped_firing_table_is_the_reconstruction(engine: YasgEngine) -> None:
    """A-YASG-2: not the seed's (lost) table — the notes' stand-in, shipped as one variant."""
    table = engine.t.firing_tables["reconstructed"]
    assert engine.t.firing_table == "reconstructed"
    assert [(b.name, b.up_to, b.need) for b in table.bands] == [
        ("short", 3, {"A": 5, "B": 6, "C": 7, "D": 8, "E": 9, "F": 10}),
        ("medium", 6, {"A": 6, "B": 7, "C": 8, "D": 9, "E": 10}),
        ("long", 10, {"A": 8, "B": 9, "C": 10}),
    ]
    mods = table.modifiers
    assert (mods.pinned_class, mods.shaken, mods.moved, mods.target_ran, mods.soft_cover, mods.hard_cover) == (
        1,
        1,
        1,
        1,
        1,
        2,
    )


def test_a_campaign_swaps_the_firing_table_without_code() -> None:
    """A-YASG-2: a house-rule YAML adds a table and switches to it; the same shot then needs its number."""
    house = {
        "firing_table": "griffith",
        "firing_tables": {
            "griffith": {
                "bands": [
                    {"name": "point blank", "up_to": 2, "need": {"A": 2, "B": 3}},
                    {"name": "effective", "up_to": 12, "need": {"A": 4, "B": 5, "C": 6, "D": 7}},
                ],
                "modifiers": {
                    "pinned_class": 2,
                    "shaken": 0,
                    "moved": 3,
                    "target_ran": 0,
                    "soft_cover": 0,
                    "hard_cover": 1,
                },
            }
        },
    }
    swapped = make_engine(house)
    assert set(swapped.t.firing_tables) == {"reconstructed", "griffith"}
    figs = (F("Harper", BRITISH, "B", "E12"), F("Ducos", FRENCH, "B", "E1", "s"))
    state = scene(swapped, *figs, size=(12, 12), phase="fire")
    out = act(swapped, state, "fire", 6, 5, 7, figure="Harper", target="Ducos")  # 11 squares: beyond the shipped 10
    shot = events(out, "fire")[0]
    assert (shot["band"], shot["needed"], shot["hit"]) == ("effective", 5, True)
    moved = change(swapped, state, "Harper", moved=1)
    assert events(act(swapped, moved, "fire", 6, 2, figure="Harper", target="Ducos"), "fire")[0]["needed"] == 8
    shipped = make_engine()
    state = scene(shipped, *figs, size=(12, 12), phase="fire")
    refuse(shipped, state, "fire", "beyond musket range (10)", figure="Harper", target="Ducos")
    back = make_engine({**house, "firing_table": "reconstructed"})
    assert back.t.firing.bands[0].name == "short"


def test_house_rules_change_single_numbers() -> None:
    engine = make_engine({"morale": {"shaken_class_penalty": 0}, "movement": {"run": 5}, "misfire_on_d6": [1, 2]})
    assert engine.t.morale.shaken_class_penalty == 0 and engine.t.morale.within_squares_of_enemy == 2
    assert engine.t.movement.run == 5 and engine.t.movement.walk == 2
    state = scene(engine, F("Harper", BRITISH, "B", "E9"), F("Ducos", FRENCH, "B", "E4", "s"), phase="fire")
    out = act(engine, state, "fire", 2, figure="Harper", target="Ducos")
    assert out.events[0].kind == "misfire"


def test_house_rules_add_maps_and_sides() -> None:
    engine = make_engine(
        {
            "sides": ["prussian", "austrian"],
            "maps": {
                "bridge": {
                    "width": 6,
                    "height": 5,
                    "terrain": [{"squares": "C1:C5", "kind": "rubble"}],
                    "edges": [{"squares": "D1:D5", "side": "w", "kind": "wall"}],
                }
            },
            "board": "bridge",
        }
    )
    assert list(engine.sides()) == ["prussian", "austrian"]
    from rules.core import FigureSpec
    from tests.rules.test_yasg_support import ScriptedDice

    state = engine.start(
        [FigureSpec("Hans", "prussian", "B"), FigureSpec("Karl", "austrian", "C")], ScriptedDice()
    ).state
    assert (state.width, state.height, len(state.terrain), len(state.edges)) == (6, 5, 5, 5)


@pytest.mark.parametrize(
    ("house", "where"),
    [
        ({"firing_table": "lost"}, "firing_table: 'lost' is not one of the firing_tables"),
        (
            {"firing_tables": {"reconstructed": {"bands": [{"name": "x", "up_to": 3, "need": {"A": 12}}]}}},
            "firing_tables.reconstructed.bands[0].need.A",
        ),
        (
            {
                "firing_tables": {
                    "reconstructed": {
                        "bands": [{"name": "a", "up_to": 5, "need": {}}, {"name": "b", "up_to": 4, "need": {}}]
                    }
                }
            },
            "bands must reach further",
        ),
        ({"damage_d10": {"killed": [1]}}, "every face 1..10 must appear exactly once"),
        (
            {"morale": {"pass_if_d10_greater_than": {"K": 2}}},
            "pass_if_d10_greater_than.K: not one of the class letters",
        ),
        (
            {
                "class_letters": ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K"],
                "close_combat": {"hit_if_d10_at_least": {"I": 9}},
            },
            "must run from A without gaps",
        ),
        ({"movement": {"walk": 5}}, "walk_and_fire <= walk <= run"),
        ({"misfire_on_d6": [7]}, "misfire_on_d6: 7 is not a face of a d6"),
        ({"sides": ["a", "A"]}, "two different side names"),
        ({"board": "moon"}, "board: 'moon' is not one of the maps"),
        (
            {"maps": {"bad": {"width": 6, "height": 6, "terrain": [{"squares": "Z9", "kind": "wood"}]}}},
            "maps.bad: Z9 is off the board",
        ),
        (
            {"maps": {"bad": {"width": 6, "height": 6, "terrain": [{"squares": "A1", "kind": "lava"}]}}},
            "is not a terrain kind",
        ),
        ({"default_weapon": "sword"}, "default_weapon"),
        ({"arc_of_fire_degrees": 0}, "arc_of_fire_degrees"),
        ({"movement": {"walk": "far"}}, "movement.walk: expected a whole number"),
        ({"terrain": {"marsh": {"cover": "wet"}}}, "terrain.marsh.cover: must be one of none, soft, hard"),
    ],
)
def test_bad_house_rules_say_where(house: dict, where: str) -> None:
    with pytest.raises(DataError) as caught:
        get_engine("yasg", house)
    assert where in " | ".join(caught.value.problems), caught.value.problems
