"""Every chart of the NSR seed, cell by cell, as tables.yaml holds it and as the engine reads it."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules import get_engine, ruleset_titles
from rules.core import DataError, FigureSpec
from rules.nsr.engine import NsrEngine, make_engine
from tests.rules.test_nsr_helpers import NEXT, act, events, stage, unit

# The seed's MOVEMENT CHART: [cross country, road, charge, road charge]; "-" is None.
MOVEMENT = {
    ("line", "line"): [2, None, 3, None],
    ("line", "march_column"): [2, 3, 4, 4],
    ("grenadiers", "line"): [2, None, 3, None],
    ("grenadiers", "march_column"): [3, 4, 4, 4],
    ("grenadiers", "open_order"): [3, 4, 5, None],
    ("light", "line"): [3, None, 4, None],
    ("light", "march_column"): [3, 4, 5, 5],
    ("light", "open_order"): [3, 4, 5, None],
    ("militia", "line"): [2, None, 3, None],
    ("militia", "march_column"): [2, 3, 3, 4],
    ("artillery", "limbered"): [3, 4, None, None],
    ("artillery", "manhandled"): [2, 2, None, None],
    ("mounted", "line"): [4, None, 6, None],
    ("mounted", "march_column"): [4, 5, 6, 6],
    ("mounted", "open_order"): [4, None, 6, None],
    ("guerillas", "open_order"): [3, 4, 5, None],
}

# The seed's FIRING CHART: class -> (die 1, 2-5, 6).
FIRING = {
    "musket": {"I": "1/8 1/4 1/3", "II": "1/7 1/6 1/5", "III": "1/8 1/7 1/6", "IV": "1/9 1/8 1/7"},
    "rifle": {"I": "1/4 1/3 1/2", "II": "1/6 1/5 1/4", "III": "1/7 1/6 1/5", "IV": "1/9 1/8 1/7"},
    "carbine": {"I": "1/9 1/5 1/4", "II": "1/8 1/7 1/6", "III": "1/9 1/8 1/7", "IV": "1/10 1/9 1/8"},
    "pistol": {"I": "1/6 1/4 1/3", "II": "1/7 1/6 1/5", "III": "1/8 1/7 1/6", "IV": "1/9 1/8 1/7"},
    "ball": {"I": "1/5 1/4 1/3", "II": "1/13 1/11 1/9", "III": "1/12 1/10 1/8", "IV": "1/11 1/9 1/7"},
}
RANGES = {"musket": 12, "rifle": 16, "carbine": 6, "pistol": 3, "ball": 36, "grapeshot": 16}

CLOSE_IN = {  # [close w/ leader, close w/o, stand w/, stand w/o]
    "grenadiers": [9, 8, 8, 7],
    "line": [7, 6, 8, 7],
    "militia": [5, 4, 6, 5],
    "light": [8, 6, 6, 5],
    "mounted": [8, 7, 7, 6],
    "guerillas": [7, 4, 8, 5],
}
CLOSE_COMBAT = {  # Gren, Line, Militia, Light, Mounted, Gunners
    "charging_or_countercharging": [2, 1, 0, 1, 3, 0],
    "defending_in_open_order": [1, 0, 0, 1, 1, 0],
    "defending_in_close_order": [2, 1, 1, 1, 1, 1],
    "defending_in_square": [3, 2, 1, 1, 0, 1],
    "defending_linear_object": [2, 1, 1, 1, 1, 1],
    "defending_building": [3, 2, 1, 1, 0, 1],
    "uphill": [1, 1, 1, 1, 1, 1],
    "attacked_from_rear": [-2, -2, -2, -2, -2, -2],
    "leader": [3, 2, 2, 1, 3, 3],
    "lance_pike_halberd_axe": [2, 2, 1, 1, 2, 2],
    "each_additional_opponent": [-1, -1, -1, -1, -1, -1],
    "no_bayonet": [-1, -1, -1, -1, 0, -1],
}
MORALE = {  # major, critical with leader, without
    "grenadiers": (10, 11, 9),
    "line": (9, 10, 8),
    "militia": (7, 8, 6),
    "light": (8, 9, 7),
    "mounted": (9, 10, 8),
    "guerillas": (7, 8, 6),
}
BREACH = {  # door, window, masonry/wood wall, rock wall
    "ball": [2, 1, 4, 8],
    "grapeshot": [4, 1, 8, 12],
    "sapper": [3, 1, 10, 20],
    "grenadier": [5, 2, 15, 25],
    "line_or_light": [7, 3, 20, 30],
    "militia": [9, 3, 25, 35],
    "guerillas": [8, 3, 25, 35],
}


def test_identity_and_registry(engine: NsrEngine) -> None:
    assert (engine.slug, engine.title) == ("nsr", "Napoleonic Skirmish Rules")
    assert list(engine.sides()) == ["French", "Allied"]
    assert list(engine.kinds()) == [
        "line",
        "grenadiers",
        "light",
        "militia",
        "mounted",
        "guerillas",
        "artillery",
        "command",
    ]
    assert ruleset_titles()["nsr"] == "Napoleonic Skirmish Rules"
    assert isinstance(get_engine("nsr"), NsrEngine)


@pytest.mark.parametrize(("troop", "formation"), sorted(MOVEMENT))
def test_movement_chart_cell(engine: NsrEngine, troop: str, formation: str) -> None:
    assert engine.tables.movement_dice[troop][formation] == MOVEMENT[(troop, formation)]
    for i, column in enumerate(("cross_country", "road", "charge", "road_charge")):
        assert engine.charts.movement_dice(troop, formation, column) == MOVEMENT[(troop, formation)][i]


def test_square_uses_the_line_row_and_may_not_charge(engine: NsrEngine) -> None:
    """A-NSR-17: "Line (Square)"; "Troops in Square may not charge"."""
    for troop in ("line", "grenadiers", "light", "militia"):
        line = engine.tables.movement_dice[troop]["line"]
        assert engine.tables.movement_dice[troop]["square"] == [line[0], line[1], None, None]
    assert "open_order" not in engine.tables.movement_dice["line"]
    assert "open_order" not in engine.tables.movement_dice["militia"]


@pytest.mark.parametrize("weapon", sorted(FIRING))
@pytest.mark.parametrize("klass", ["I", "II", "III", "IV"])
def test_firing_chart_cell(engine: NsrEngine, weapon: str, klass: str) -> None:
    expected = [Fraction(x) for x in FIRING[weapon][klass].split()]
    assert [engine.charts.fraction(weapon, klass, die) for die in (1, 2, 3, 4, 5, 6, 7)] == (
        [expected[0]] + [expected[1]] * 4 + [expected[2]] * 2
    )  # A-NSR-5: 7+ reads the 6 column
    assert engine.tables.firing_chart[weapon].max_range == RANGES[weapon]


@pytest.mark.parametrize("weapon", ["musket", "rifle", "carbine", "pistol"])
@pytest.mark.parametrize("klass", ["I", "II", "III", "IV"])
@pytest.mark.parametrize(("die", "column"), [(1, 0), (3, 1), (6, 2)])
def test_firing_chart_cell_played(engine: NsrEngine, weapon: str, klass: str, die: int, column: int) -> None:
    """Each small-arms cell through a whole fire action: twice the denominator firing scores two hits."""
    cell = Fraction(FIRING[weapon][klass].split()[column])
    firers = 2 * cell.denominator
    specs = [
        unit("Shooters", "French", "line", figures=firers + 2, weapon=weapon),
        unit("Targets", "Allied", "line", figures=20, officer="no", nco="no"),
    ]
    state = stage(engine, specs, "fire", "Shooters")
    far = RANGES[weapon]  # beyond half range: no +1
    out = act(
        engine,
        state,
        "fire",
        target="Targets",
        range=far,
        dice=[die],
        cards=["2C", "3C", NEXT],
        firers=firers,
        exposed=True,  # class IV: the targets are at the windows (A-NSR-31)
        **{"class": klass},
    )
    [fire] = events(out, "fire")
    assert (fire["fraction"], fire["hits"]) == (f"{cell.numerator}/{cell.denominator}", 2)


def test_grapeshot_reads_the_musket_row_doubled(engine: NsrEngine) -> None:
    row = engine.tables.firing_chart["grapeshot"]
    assert (row.use, row.multiply, row.max_range, row.half_range_bonus) == ("musket", 2, 16, False)


def test_artillery_equivalents_and_casualty_cards(engine: NsrEngine) -> None:
    t = engine.tables
    assert t.artillery_equivalent == {4: 12, 3: 9, 2: 6}
    assert [engine.charts.artillery_figures(n) for n in (1, 2, 3, 4, 5)] == [0, 6, 9, 12, 12]
    assert t.casualty_card.ranks == {"A": "leader", "K": "key", "Q": "key", "J": "key", "number": "ordinary"}
    assert t.casualty_card.suits == {"H": "killed", "D": "heavy", "C": "light", "S": "light"}  # A-NSR-9
    assert t.volley_cards == {
        "I": {"H": "killed", "D": "killed", "C": "light", "S": "no_hit"},
        "II": {"H": "killed", "D": "heavy", "C": "no_hit", "S": "no_hit"},
        "III": {"H": "hit", "D": "hit", "C": "no_hit", "S": "no_hit"},
        "IV": {"H": "hit", "D": "no_hit", "C": "no_hit", "S": "no_hit"},
    }
    assert t.volley_second_card == {"A": "killed", "K": "killed", "Q": "killed", "J": "killed", "number": "wounded"}
    crew = t.vs_artillery_crew
    assert (crew.target_class, sorted(crew.ranks), crew.suits) == (
        "II",
        ["A", "J", "K", "Q"],
        {"H": "killed", "D": "heavy"},
    )
    assert (t.officer_pistol.wound_on, t.officer_pistol.kill_on, t.officer_pistol.max_range) == (5, 6, 3)


def test_joker_charts_have_six_results(engine: NsrEngine) -> None:
    assert sorted(engine.tables.joker_movement) == [1, 2, 3, 4, 5, 6]
    assert sorted(engine.tables.joker_fire) == [1, 2, 3, 4, 5, 6]
    assert "add one die" in engine.tables.joker_movement[1] and "charge" in engine.tables.joker_movement[6]
    assert "half" in engine.tables.joker_fire[1] and "+1" in engine.tables.joker_fire[6]


@pytest.mark.parametrize("troop", sorted(CLOSE_IN))
def test_close_into_combat_chart_row(engine: NsrEngine, troop: str) -> None:
    c = engine.charts
    got = [
        c.close_in_max(troop, "close", True),
        c.close_in_max(troop, "close", False),
        c.close_in_max(troop, "stand", True),
        c.close_in_max(troop, "stand", False),
    ]
    assert got == CLOSE_IN[troop]
    assert engine.tables.mounted_vs_square == -4  # A-NSR-11


@pytest.mark.parametrize("line", sorted(CLOSE_COMBAT))
def test_close_combat_chart_row(engine: NsrEngine, line: str) -> None:
    assert engine.tables.close_combat_modifiers[line] == CLOSE_COMBAT[line]
    columns = {"grenadiers": 0, "line": 1, "militia": 2, "light": 3, "mounted": 4, "artillery": 5}
    for troop, column in columns.items():
        assert engine.charts.cc_modifier(line, troop) == CLOSE_COMBAT[line][column]
    assert engine.charts.cc_modifier(line, "guerillas") == CLOSE_COMBAT[line][3]  # A-NSR-12: light column


def test_close_combat_loser_die(engine: NsrEngine) -> None:
    """Seed B.3, and A-NSR-2: a natural 7-10 is captured like a 6."""
    t = engine.tables.close_combat_loser
    assert [t[n] for n in range(1, 11)] == ["killed", "wounded", "ran", "ran", "ran"] + ["captured"] * 5


@pytest.mark.parametrize("troop", sorted(MORALE))
def test_morale_chart_row(engine: NsrEngine, troop: str) -> None:
    m = engine.charts.morale(troop)
    assert (m.major, m.with_leader, m.without_leader) == MORALE[troop]


def test_unlisted_types_use_line_numbers_and_command_groups_their_unit(engine: NsrEngine) -> None:
    assert engine.charts.morale("artillery") == engine.charts.morale("line")
    assert engine.charts.morale("command", "grenadiers") == engine.charts.morale("grenadiers")  # A-NSR-27


@pytest.mark.parametrize("row", sorted(BREACH))
def test_breach_chart_row(engine: NsrEngine, row: str) -> None:
    assert [engine.charts.breach_needed(row, p) for p in ("door", "window", "wall", "rock_wall")] == BREACH[row]


def test_loopholes_distances_and_sizes(engine: NsrEngine) -> None:
    t = engine.tables
    assert (t.loophole_turns.bayonet, t.loophole_turns.sapper) == (10, 7)
    d = t.distances
    assert (d.charge_stop, d.failed_close_in_fallback, d.shaken_retreat_d6, d.rout_move_d6) == (2, 6, 4, 4)
    assert (d.joker_fall_back_d6, d.smoke_d6, d.defender_support_radius, d.leader_accompany_radius) == (2, 2, 3, 6)
    assert t.prisoners_per_escort == 10
    sizes = {k: (v.figures, v.officers, v.ncos) for k, v in t.unit_defaults.items()}
    assert sizes["line"] == (20, 1, 1)  # A-NSR-16: 2 leaders + 18 privates
    assert sizes["mounted"] == (12, 1, 1)
    assert sizes["artillery"] == (4, 1, 0)  # 1 leader + 3 gunners
    assert (t.unit_defaults["command"].standard, t.unit_defaults["command"].musician) == (1, 1)


def test_smoothed_rows_switch(engine: NsrEngine) -> None:
    """A-NSR-1: verbatim by default; the smoothed Musket and Carbine class I rows as a house rule."""
    assert engine.charts.fraction("musket", "I", 1) == Fraction(1, 8)
    smooth = make_engine({"options": {"smoothed_firing_rows": True}})
    assert [smooth.charts.fraction("musket", "I", d) for d in (1, 3, 6)] == [
        Fraction(1, 5),
        Fraction(1, 4),
        Fraction(1, 3),
    ]
    assert [smooth.charts.fraction("carbine", "I", d) for d in (1, 3, 6)] == [
        Fraction(1, 6),
        Fraction(1, 5),
        Fraction(1, 4),
    ]
    assert smooth.charts.fraction("musket", "II", 1) == Fraction(1, 7)


def test_house_rule_overrides_one_cell_only() -> None:
    engine = make_engine({"firing_chart": {"musket": {"max_range": 14}}, "morale_numbers": {"line": {"major": 8}}})
    assert engine.tables.firing_chart["musket"].max_range == 14
    assert engine.charts.fraction("musket", "I", 3) == Fraction(1, 4)
    assert engine.charts.morale("line").major == 8 and engine.charts.morale("line").with_leader == 10


def test_house_rule_rounding_switch() -> None:
    """A-NSR-4: round down by default; nearest as a house rule (11 x 1/4 = 2.75 → 3)."""
    engine = make_engine({"hits_rounding": "nearest"})
    assert engine.charts.round_hits(Fraction(11, 4)) == 3
    assert make_engine().charts.round_hits(Fraction(11, 4)) == 2


def test_malformed_house_rules_name_their_paths() -> None:
    with pytest.raises(DataError) as caught:
        make_engine({"options": {"card_for_side_without_units": "maybe"}, "gun_movers": "two"})
    problems = " | ".join(caught.value.problems)
    assert "options.card_for_side_without_units" in problems and "gun_movers" in problems
    with pytest.raises(DataError) as caught:
        make_engine(
            {
                "firing_chart": {"musket": {"hits": {"I": ["1/8", "a quarter", "1/3"]}}},
                "close_into_combat": {"line": {"close": [7]}},
                "joker_fire": {7: "extra"},
            }
        )
    problems = " | ".join(caught.value.problems)
    assert "firing_chart.musket.hits.I: 'a quarter' is not a fraction" in problems
    assert "close_into_combat.line.close" in problems
    assert "joker_fire" in problems


def test_a_table_naming_an_unknown_troop_type_is_refused() -> None:
    with pytest.raises(DataError) as caught:
        make_engine({"kind_aliases": {"dragoons": "dragoon"}, "unit_defaults": {"line": {"weapon": "crossbow"}}})
    problems = " | ".join(caught.value.problems)
    assert "kind_aliases.dragoons" in problems and "unit_defaults.line.weapon" in problems


def test_a_house_rule_renames_the_sides() -> None:
    """A-NSR-30: other match-ups map the first side to black, the second to red."""
    engine = make_engine({"sides": ["Prussian", "Russian"]})
    assert list(engine.sides()) == ["Prussian", "Russian"]
    spec = engine.check_figure(FigureSpec("Landwehr", "prussian", "militia"))
    assert spec.side == "Prussian"
