"""The fire phase: the firing chart played, casualty cards, artillery, volleys, pistols, Joker Fire."""

from __future__ import annotations

from rules.contract import Waiting
from rules.core import FigureSpec
from rules.nsr.engine import NsrEngine
from rules.nsr.fire import plan_fire
from rules.nsr.state import Building, NsrState
from tests.rules.test_nsr_helpers import (
    NEXT,
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


def line_fight(engine: NsrEngine, figures: int = 12, target: FigureSpec | None = None, **stats) -> NsrState:
    specs = [
        unit("1er Ligne", "French", "line", figures=figures, **stats),
        target or unit("33rd Foot", "Allied", "line", figures=20),
    ]
    return stage(engine, specs, "fire", "1er Ligne")


def fire(engine: NsrEngine, state: NsrState, *, dice, cards, klass="I", **params):
    return act(engine, state, "fire", dice=dice, cards=cards, **{"class": klass, "target": "33rd Foot", **params})


# --- the seed's example and the chart's reading ------------------------------------------------------


def test_the_seed_example_eleven_muskets_at_class_i_rolling_4_score_two_hits(engine: NsrEngine) -> None:
    """Seed 2.C(1): 11 French line muskets at a class I target, a 4: 1/4 → two hits (A-NSR-4 rounds down)."""
    state = line_fight(engine)
    out = fire(engine, state, range=10, dice=[4], cards=["3C", "4C", NEXT])
    [shot] = events(out, "fire")
    assert (shot["firers"], shot["die"], shot["column"], shot["fraction"], shot["hits"]) == (11, 4, "2-5", "1/4", 2)
    assert "11 muskets, class I" in texts(out) and "1/4 → 2 hits" in texts(out)
    assert len(events(out, "hit")) == 2
    assert get(out.state, "1er Ligne").fired


def test_half_range_adds_one_and_7_reads_the_6_column(engine: NsrEngine) -> None:
    """Special rule 9 (+1 at half range, not a volley); A-NSR-5 (a modified 7 reads "6")."""
    state = line_fight(engine)
    far = fire(engine, state, range=6.5, dice=[1], cards=["3C", NEXT])
    near = fire(engine, state, range=6, dice=[1], cards=["3C", "4C", NEXT])
    top = fire(engine, state, range=6, dice=[6], cards=["3C", "4C", "5C", NEXT])
    assert [events(o, "fire")[0]["hits"] for o in (far, near, top)] == [1, 2, 3]
    assert events(near, "fire")[0]["modifiers"] == [{"reason": "half range", "value": 1}]
    assert (events(top, "fire")[0]["score"], events(top, "fire")[0]["column"]) == (7, "6")


def test_no_die_is_rolled_when_the_fire_is_refused(engine: NsrEngine) -> None:
    state = line_fight(engine)
    refuse(engine, state, "fire", "out of range", target="33rd Foot", range=13, **{"class": "I"})
    refuse(engine, state, "fire", "target class", target="33rd Foot", range=5, **{"class": "V"})
    refuse(engine, state, "fire", "own side", target="1er Ligne", range=5, **{"class": "I"})
    refuse(engine, state, "fire", "only 11 figures", target="33rd Foot", range=5, firers=12, **{"class": "I"})
    refuse(engine, state, "fire", "Name the unit", range=5)
    refuse(engine, state, "volley", "half range", target="33rd Foot", range=7, **{"class": "I"})
    refuse(engine, state, "move", "only in the movement phase")
    refuse(engine, state, "fire", "It is French's turn", side="Allied", target="33rd Foot", range=5, **{"class": "I"})
    refuse(
        engine,
        state,
        "fire",
        "is not the unit acting now",
        unit="33rd Foot",
        target="33rd Foot",
        range=5,
        **{"class": "I"},
    )


def test_the_game_master_may_fire_for_the_side(engine: NsrEngine) -> None:
    state = line_fight(engine)
    out = act(
        engine,
        state,
        "fire",
        side=None,
        by_gm=True,
        target="33rd Foot",
        range=10,
        dice=[3],
        cards=["3C", "4C", NEXT],
        **{"class": "I"},
    )
    assert events(out, "fire")[0]["hits"] == 2


def test_two_targets_share_the_firers(engine: NsrEngine) -> None:
    """A-NSR-24: one die per (weapon, target) group; dice first, then the cards group by group."""
    specs = [
        unit("1er Ligne", "French", "line", figures=14),
        unit("33rd Foot", "Allied", "line", figures=20),
        unit("95th", "Allied", "light", figures=10),
    ]
    state = stage(engine, specs, "fire", "1er Ligne")
    out = act(
        engine,
        state,
        "fire",
        target="33rd Foot",
        range=10,
        firers=8,
        target2="95th",
        range2=10,
        class2="II",
        dice=[3, 6],
        cards=["3C", "4C", "5C", NEXT],
        **{"class": "I"},
    )
    groups = events(out, "fire")
    assert [(g["target"], g["firers"], g["hits"]) for g in groups] == [("33rd Foot", 8, 2), ("95th", 5, 1)]
    assert [r for k, _, r in act.last.log if k == "die"] == [
        "1er Ligne: fire at 33rd Foot (musket, class I)",
        "1er Ligne: fire at 95th (musket, class II)",
    ]
    refuse(
        engine,
        state,
        "fire",
        "give firers for the first",
        target="33rd Foot",
        range=10,
        target2="95th",
        range2=10,
        class2="II",
        **{"class": "I"},
    )


# --- casualty cards --------------------------------------------------------------------------------


def test_an_ace_hits_the_highest_leader_a_number_never_does(engine: NsrEngine) -> None:
    """Seed 2.C(2)(A) and A-NSR-21; suits per A-NSR-9: heart killed, diamond heavy, club/spade light."""
    state = line_fight(engine)
    out = fire(engine, state, range=10, dice=[6], cards=["AS", "AD", "AH", NEXT])
    hit = [(e["figure"], e["outcome"]) for e in events(out, "hit")]
    assert hit == [("Commander-in-Chief", "light"), ("NCO", "heavy"), ("Private 1", "killed")]
    assert "commander" not in kinds(out)  # the C-in-C is only wounded: not lost
    assert not out.state.commanders["Allied"].lost_turn


def test_the_commander_in_chief_killed_starts_major_morale(engine: NsrEngine) -> None:
    state = line_fight(engine)
    out = fire(engine, state, range=10, dice=[3], cards=["AH", "5C", NEXT])
    assert status(out.state, "33rd Foot")["Commander-in-Chief"] == "killed"
    assert out.state.commanders["Allied"].lost_turn == 1
    assert "major morale" in texts(out)


def test_face_cards_hit_key_figures_number_cards_ordinary_ones(engine: NsrEngine) -> None:
    target = unit("33rd Foot", "Allied", "line", figures=6, sappers=1)
    state = line_fight(engine, target=target)
    out = fire(engine, state, range=10, dice=[3], cards=["QC", "KD", NEXT])
    assert [(e["figure"], e["outcome"]) for e in events(out, "hit")] == [("Sapper 1", "light"), ("Private 1", "heavy")]
    state = line_fight(engine, target=unit("33rd Foot", "Allied", "line", figures=4, sappers=1))
    out = fire(engine, state, range=10, dice=[3], cards=["5S", "6S", NEXT])  # no ordinary left: a key figure
    assert [e["figure"] for e in events(out, "hit")] == ["Private 1", "Sapper 1"]


def test_leaders_are_hit_only_on_an_ace_even_if_hits_are_lost(engine: NsrEngine) -> None:
    state = line_fight(engine, target=unit("33rd Foot", "Allied", "line", figures=2))
    out = fire(engine, state, range=10, dice=[3], cards=["5H", "JH", NEXT])
    assert [e["outcome"] for e in events(out, "hit")] == ["lost", "lost"]
    assert status(out.state, "33rd Foot") == {"Commander-in-Chief": "fit", "NCO": "fit"}


def test_a_joker_turned_for_a_casualty_is_set_aside(engine: NsrEngine) -> None:
    """A-NSR-7: turn another card."""
    state = line_fight(engine)
    out = fire(engine, state, range=10, dice=[3], cards=["RJ", "3H", "4C", NEXT])
    assert [e["outcome"] for e in events(out, "hit")] == ["joker", "killed", "light"]
    assert "Red joker is set aside; another card is turned." in texts(out)


def test_casualty_cards_come_from_the_deck_in_play_and_it_is_reshuffled(engine: NsrEngine) -> None:
    """A-NSR-8: when the deck runs out, it is shuffled and the turning goes on."""
    state = line_fight(engine)
    state.deck = ["3C"]
    out = fire(engine, state, range=10, dice=[3], cards=["3C", "3C", NEXT])
    assert "shuffle" in kinds(out)
    assert len(events(out, "hit")) == 2


def test_wounded_figures_do_not_fire(engine: NsrEngine) -> None:
    state = line_fight(engine)
    for f in get(state, "1er Ligne").figures[2:4]:
        f.status, f.wound = "wounded", "light"
    out = fire(engine, state, range=10, dice=[3], cards=["3C", "4C", NEXT])
    assert events(out, "fire")[0]["firers"] == 9


def test_fire_at_the_wounded_is_class_iii(engine: NsrEngine) -> None:
    """Special rule 2: wounded figures may be fired at if specified; they are prone (class III)."""
    state = line_fight(engine, figures=30)
    target = get(state, "33rd Foot")
    for f in target.figures[5:8]:
        f.status, f.wound = "wounded", "light"
    out = fire(engine, state, range=10, wounded=True, klass="I", dice=[3], cards=["3H", "4C", "5S", "6C", NEXT])
    assert events(out, "fire")[0]["class"] == "III" and events(out, "fire")[0]["hits"] == 4
    hits = [(h["figure"], h["outcome"]) for h in events(out, "hit")]
    assert hits == [("Private 4", "killed"), ("Private 5", "heavy"), ("Private 6", "heavy"), ("Private 5", "heavy")]
    assert status(out.state, "33rd Foot")["Private 4"] == "killed"
    assert status(out.state, "33rd Foot")["Private 5"] == "wounded/heavy"  # wounded again: heavily


# --- who may not fire --------------------------------------------------------------------------------


def test_units_that_charged_are_shaken_or_prone_last_turn_may_not_fire(engine: NsrEngine) -> None:
    state = line_fight(engine)
    get(state, "1er Ligne").charged = True
    refuse(engine, state, "fire", "charged this turn", target="33rd Foot", range=5, **{"class": "I"})
    state = line_fight(engine)
    get(state, "1er Ligne").set_marks(shaken=True)
    refuse(engine, state, "fire", "shaken", target="33rd Foot", range=5, **{"class": "I"})
    state = line_fight(engine)
    get(state, "1er Ligne").set_marks(prone=True)
    state.turn, get(state, "1er Ligne").last_fired_turn = 3, 2
    refuse(engine, state, "fire", "every other turn", target="33rd Foot", range=5, **{"class": "I"})
    get(state, "1er Ligne").last_fired_turn = 1
    out = fire(engine, state, range=10, dice=[3], cards=["3C", "4C", NEXT])
    assert get(out.state, "1er Ligne").last_fired_turn == 3


def test_figures_carrying_the_wounded_do_not_fire(engine: NsrEngine) -> None:
    state = line_fight(engine)
    for f in get(state, "1er Ligne").figures[2:5]:
        f.duty = "carrying"
    assert events(fire(engine, state, range=10, dice=[3], cards=["3C", "4C", NEXT]), "fire")[0]["firers"] == 8


def test_a_unit_in_a_building_fires_one_figure_per_opening(engine: NsrEngine) -> None:
    state = line_fight(engine)
    state.buildings.append(Building("Mill", 6, 2, windows=2, doors=1))
    get(state, "1er Ligne").building = "Mill"
    out = fire(engine, state, range=10, dice=[6], cards=["3C", NEXT])
    assert (events(out, "fire")[0]["firers"], events(out, "fire")[0]["hits"]) == (3, 1)


# --- class IV targets (special rule 10, A-NSR-31) ------------------------------------------------------


def test_small_arms_cannot_fire_at_a_class_iv_target_that_neither_shoots_nor_looks_out(engine: NsrEngine) -> None:
    state = line_fight(engine, figures=6)
    error = refuse(
        engine, state, "fire", "only artillery may fire at it", target="33rd Foot", range=10, **{"class": "IV"}
    )
    assert error.message.startswith("33rd Foot is a class IV target") and "say exposed if" in error.message
    refuse(engine, state, "fire", "only artillery", target="33rd Foot", range=10, exposed="no", **{"class": "IV"})
    refuse(engine, state, "volley", "only artillery", target="33rd Foot", range=5, **{"class": "IV"})
    state.buildings.append(Building("Mill", 6, 2, windows=2, doors=1))
    get(state, "33rd Foot").building = "Mill"
    refuse(engine, state, "pistol", "only artillery", target="33rd Foot", range=2)


def test_a_second_class_iv_target_is_refused_before_any_die(engine: NsrEngine) -> None:
    specs = [
        unit("1er Ligne", "French", "line", figures=14),
        unit("33rd Foot", "Allied", "line", figures=20),
        unit("95th", "Allied", "light", figures=10),
    ]
    state = stage(engine, specs, "fire", "1er Ligne")
    shots = {"target": "33rd Foot", "range": 10, "firers": 8, "target2": "95th", "range2": 10, "class2": "IV"}
    refuse(engine, state, "fire", "say exposed2 if", exposed=True, **shots, **{"class": "I"})


def test_artillery_may_fire_at_a_class_iv_target(engine: NsrEngine) -> None:
    """Ball at 30" (beyond half range), a 6 against class IV: 12 figures x 1/7 = 1 hit."""
    state = gun_fight(engine)
    out = act(engine, state, "fire", target="33rd Foot", range=30, dice=[6], cards=["2C", NEXT], **{"class": "IV"})
    [shot] = events(out, "fire")
    assert (shot["weapon"], shot["class"], shot["fraction"], shot["hits"]) == ("ball", "IV", "1/7", 1)
    params = {"target": "33rd Foot", "range": 5, "class": "IV", "shot": "grape"}
    [group] = plan_fire(engine.charts, state, get(state, "Battery"), params)
    assert (group.weapon, group.klass) == ("grapeshot", "IV")


def test_small_arms_fire_at_a_class_iv_target_that_shoots_or_looks_out(engine: NsrEngine) -> None:
    """Said with exposed; a musket row against class IV, a 6: 11 x 1/7 = 1 hit."""
    state = line_fight(engine)
    out = fire(engine, state, range=10, klass="IV", exposed=True, dice=[6], cards=["3C", NEXT])
    [shot] = events(out, "fire")
    assert (shot["class"], shot["fraction"], shot["hits"]) == ("IV", "1/7", 1)
    out = volley(engine, line_fight(engine, figures=3), "IV", ["5S", "5D", NEXT], exposed="yes")
    assert [e["outcome"] for e in events(out, "hit")] == ["no_hit", "no_hit"]


def test_a_class_iv_target_that_fired_this_turn_was_shooting(engine: NsrEngine) -> None:
    state = line_fight(engine)
    get(state, "33rd Foot").last_fired_turn = state.turn - 1
    refuse(engine, state, "fire", "only artillery", target="33rd Foot", range=10, **{"class": "IV"})
    get(state, "33rd Foot").last_fired_turn = state.turn
    out = fire(engine, state, range=10, klass="IV", dice=[6], cards=["3C", NEXT])
    assert events(out, "fire")[0]["hits"] == 1


def test_an_officers_pistol_at_a_unit_in_a_building_needs_it_exposed(engine: NsrEngine) -> None:
    state = line_fight(engine)
    state.buildings.append(Building("Mill", 6, 2, windows=2, doors=1))
    get(state, "33rd Foot").building = "Mill"
    refuse(engine, state, "pistol", "is inside Mill", target="33rd Foot", range=2, aim="ordinary")
    out = act(engine, state, "pistol", target="33rd Foot", range=2, aim="ordinary", exposed=True, dice=[6])
    assert events(out, "pistol")[0]["outcome"] == "killed"


# --- artillery -----------------------------------------------------------------------------------------


def gun_fight(engine: NsrEngine, crew: int = 4, target: FigureSpec | None = None, **stats) -> NsrState:
    specs = [
        unit("Battery", "French", "artillery", formation="manhandled", **stats),
        target or unit("33rd Foot", "Allied", "line", figures=20),
    ]
    state = stage(engine, specs, "fire", "Battery")
    for f in get(state, "Battery").figures[crew:]:
        f.status = "killed"
    return state


def test_a_gun_counts_as_12_9_or_6_figures_by_its_crew(engine: NsrEngine) -> None:
    """Special rule 3; ball at 30" (beyond half range), a 6: 1/3."""
    for crew, hits in ((4, 4), (3, 3), (2, 2)):
        state = gun_fight(engine, crew)
        cards = [*["2C", "3C", "4C", "5C"][:hits], NEXT]
        out = act(
            engine, state, "fire", target="33rd Foot", range=30, shot="ball", dice=[6], cards=cards, **{"class": "I"}
        )
        assert events(out, "fire")[0]["figures"] == {4: 12, 3: 9, 2: 6}[crew]
        assert events(out, "fire")[0]["hits"] == hits
    state = gun_fight(engine, 1)
    refuse(engine, state, "fire", "too few crew", target="33rd Foot", range=30, shot="ball", **{"class": "I"})


def test_grapeshot_uses_the_musket_chart_doubled_without_the_half_range_bonus(engine: NsrEngine) -> None:
    state = gun_fight(engine)
    cards = ["2C", "3C", "4C", "5C", "6C", "7C", NEXT]
    out = act(engine, state, "fire", target="33rd Foot", range=5, shot="grape", dice=[3], cards=cards, **{"class": "I"})
    shot = events(out, "fire")[0]
    assert (shot["weapon"], shot["fraction"], shot["modifiers"], shot["hits"]) == ("grapeshot", "1/4", [], 6)
    refuse(engine, state, "fire", "reaches 16", target="33rd Foot", range=17, shot="grape", **{"class": "I"})


def test_ball_at_half_range_gets_the_bonus(engine: NsrEngine) -> None:
    state = gun_fight(engine)
    out = act(
        engine,
        state,
        "fire",
        target="33rd Foot",
        range=18,
        shot="ball",
        dice=[5],
        cards=["2C", "3C", "4C", "5C", NEXT],
        **{"class": "I"},
    )
    assert events(out, "fire")[0]["column"] == "6" and events(out, "fire")[0]["hits"] == 4


def test_a_limbered_gun_cannot_fire_nor_one_unlimbered_this_turn(engine: NsrEngine) -> None:
    state = gun_fight(engine)
    get(state, "Battery").formation = "limbered"
    refuse(engine, state, "fire", "limbered", target="33rd Foot", range=30, shot="ball", **{"class": "I"})
    state = gun_fight(engine)
    get(state, "Battery").limbered_turn = 1
    refuse(engine, state, "fire", "takes the whole turn", target="33rd Foot", range=30, shot="ball", **{"class": "I"})
    state = gun_fight(engine)
    refuse(
        engine,
        state,
        "fire",
        "one target",
        target="33rd Foot",
        range=30,
        target2="33rd Foot",
        range2=3,
        shot="ball",
        **{"class": "I"},
    )


def test_british_ball_at_class_ii_reads_class_i(engine: NsrEngine) -> None:
    """Special rule 8 (a switch in the options)."""
    specs = [
        unit("Battery", "Allied", "artillery", formation="manhandled", british="yes"),
        unit("Voltigeurs", "French", "light", figures=20),
    ]
    state = stage(engine, specs, "fire", "Battery", card="2H")
    out = act(
        engine,
        state,
        "fire",
        target="Voltigeurs",
        range=30,
        shot="ball",
        dice=[6],
        cards=["2C", "3C", "4C", "5C", "KS"],
        **{"class": "II"},
    )
    assert (events(out, "fire")[0]["class"], events(out, "fire")[0]["hits"]) == ("I", 4)


def test_firing_at_a_gun_crew_only_red_court_cards_count(engine: NsrEngine) -> None:
    """Special rule 7 (A-NSR-20): class II; A/K/Q/J of hearts kill, of diamonds wound; the rest miss."""
    specs = [
        unit("1er Ligne", "French", "line", figures=25),
        unit("Gun", "Allied", "artillery", formation="manhandled"),
    ]
    state = stage(engine, specs, "fire", "1er Ligne")
    out = act(
        engine, state, "fire", target="Gun", range=10, dice=[6], cards=["5H", "KS", "QD", "AH", NEXT], **{"class": "I"}
    )
    assert events(out, "fire")[0]["class"] == "II" and events(out, "fire")[0]["hits"] == 4  # 24 x 1/5
    assert [e["outcome"] for e in events(out, "hit")] == ["no_hit", "no_hit", "heavy", "killed"]
    assert status(out.state, "Gun")["Gunner 1"] == "wounded/heavy"
    assert status(out.state, "Gun")["Commander-in-Chief"] == "killed"


def test_a_joker_pulled_by_artillery_at_artillery_destroys_the_gun(engine: NsrEngine) -> None:
    state = gun_fight(engine, target=unit("Enemy gun", "Allied", "artillery", formation="manhandled"))
    out = act(
        engine,
        state,
        "fire",
        target="Enemy gun",
        range=30,
        shot="ball",
        dice=[6],
        cards=["BJ", NEXT],
        **{"class": "II"},
    )
    assert get(out.state, "Enemy gun").gun_destroyed and "gun" in kinds(out)


# --- volleys -----------------------------------------------------------------------------------------


def volley(engine: NsrEngine, state: NsrState, klass: str, cards, **params):
    return act(engine, state, "volley", target="33rd Foot", range=6, cards=cards, **{"class": klass, **params})


def test_volley_class_i_hearts_and_diamonds_kill_clubs_wound(engine: NsrEngine) -> None:
    """A-NSR-3: one card per volleying figure; no die is rolled (A-NSR-23)."""
    state = line_fight(engine, figures=6)
    out = volley(engine, state, "I", ["5H", "5D", "5C", "5S", "6H", NEXT])
    assert [e["outcome"] for e in events(out, "hit")] == ["killed", "killed", "light", "no_hit", "killed"]
    assert events(out, "volley")[0]["cards"] == 5


def test_volley_class_ii_hearts_kill_diamonds_wound(engine: NsrEngine) -> None:
    state = line_fight(engine, figures=6)
    out = volley(engine, state, "II", ["5H", "5D", "5C", "5S", "6D", NEXT])
    assert [e["outcome"] for e in events(out, "hit")] == ["killed", "heavy", "no_hit", "no_hit", "heavy"]


def test_volley_class_iii_and_iv_turn_a_second_card(engine: NsrEngine) -> None:
    """Red (III) or heart (IV) hits; the second card: A-J kills, 10-2 wounds (red heavy, black light, A-NSR-9)."""
    state = line_fight(engine, figures=4)
    out = volley(engine, state, "III", ["5H", "KS", "5D", "9H", "5C", NEXT])
    assert [e["outcome"] for e in events(out, "hit")] == ["killed", "heavy", "no_hit"]
    out = volley(engine, state, "IV", ["5H", "2C", "5D", "5S", NEXT], exposed=True)
    assert [e["outcome"] for e in events(out, "hit")] == ["light", "no_hit", "no_hit"]
    assert "5♥ then 2♣" in texts(out)


def test_volley_cards_beyond_the_targets_are_wasted(engine: NsrEngine) -> None:
    state = line_fight(engine, figures=8, target=unit("33rd Foot", "Allied", "line", figures=2))
    out = volley(engine, state, "I", ["AH", "AD"])
    assert [e["outcome"] for e in events(out, "hit")] == ["killed", "killed"]
    assert events(out, "volley")[1]["wasted"] == 5
    assert out.state.winner == "French"  # the Allies have no unit left in the fight


def test_only_a_line_with_small_arms_volleys(engine: NsrEngine) -> None:
    state = line_fight(engine, formation="march_column")
    refuse(engine, state, "volley", "in line", target="33rd Foot", range=5, **{"class": "I"})
    state = gun_fight(engine)
    refuse(engine, state, "volley", "small arms", target="33rd Foot", range=5, **{"class": "I"})


# --- officers' pistols --------------------------------------------------------------------------------


def test_an_officers_aimed_pistol_5_wounds_6_kills(engine: NsrEngine) -> None:
    """Special rule 4 (A-NSR-22): any figure within 3", leaders included; the unit then fires on."""
    state = line_fight(engine)
    out = act(engine, state, "pistol", target="33rd Foot", range=3, dice=[6])
    assert status(out.state, "33rd Foot")["Commander-in-Chief"] == "killed"
    assert out.state.active == "1er Ligne" and out.pending is None
    refuse(engine, out.state, "pistol", "no officer with a pistol left", target="33rd Foot", range=2)
    wound = act(engine, state, "pistol", target="33rd Foot", range=2, aim="ordinary", dice=[5])
    assert events(wound, "pistol")[0]["outcome"] == "heavy"
    miss = act(engine, state, "pistol", target="33rd Foot", range=2, aim="ordinary", dice=[4])
    assert events(miss, "pistol")[0]["outcome"] == "miss"
    refuse(engine, state, "pistol", "reaches 3", target="33rd Foot", range=4)
    refuse(engine, line_fight(engine, pistols="no"), "pistol", "no officer", target="33rd Foot", range=2)


# --- the Joker Fire chart ------------------------------------------------------------------------------


def with_joker(state: NsrState, roll: int) -> NsrState:
    get(state, "1er Ligne").joker = roll
    return state


def test_joker_fire_effects(engine: NsrEngine) -> None:
    """A-NSR-19: 1 half the figures (down), 2 hits doubled, 3 two shots a figure, 5 hits halved (up), 6 +1."""
    results = {}
    for roll, cards in (
        (1, ["3C"]),
        (2, ["3C", "4C", "5C", "6C"]),
        (3, ["3C", "4C", "5C", "6C", "7C"]),
        (5, ["3C"]),
        (6, ["3C", "4C", "5C"]),
    ):
        out = fire(engine, with_joker(line_fight(engine), roll), range=10, dice=[5], cards=[*cards, NEXT])
        results[roll] = events(out, "fire")[0]["hits"]
    assert results == {1: 1, 2: 4, 3: 5, 5: 1, 6: 3}


def test_a_joker_card_rolls_the_joker_fire_chart_and_smoke_limits_the_range(engine: NsrEngine) -> None:
    state = line_fight(engine)
    state.active, state.card = "", "BJ"
    state.pending = Waiting("French", "black joker", [["1er Ligne", "1er Ligne"]], "choose", {"card": "BJ"})
    out = act(engine, state, "choose", choice="1er Ligne", dice=[4, 2, 3])
    assert get(out.state, "1er Ligne").smoke == 5 and "nothing beyond 5″" in texts(out)
    refuse(engine, out.state, "fire", "Smoke blocks", target="33rd Foot", range=6, **{"class": "I"})
