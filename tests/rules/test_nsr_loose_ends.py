"""NSR's loose ends of issue 19 in the engine: small arms at a unit inside a building whatever class
is typed, no fire card for a unit that cannot fire (A-NSR-48), the class read from the target at a
table (A-NSR-47), an officer aiming at one figure by name (A-NSR-22), and the event text saying
what the numbers were (hits before grapeshot or a joker changed them, a heavy wound in close combat,
wounded losers taken prisoner), with the casualty cards in the data as the deck writes them."""

from __future__ import annotations

import pytest

from rules.nsr.engine import NsrEngine
from rules.nsr.sequence import eligible
from rules.nsr.state import Building, Charge
from tests.rules.test_nsr_fire import gun_fight, line_fight
from tests.rules.test_nsr_helpers import NEXT, act, events, get, refuse, stage, texts, unit
from tests.rules.test_nsr_map import moved_on


def in_the_mill(engine: NsrEngine, windows: int = 2, doors: int = 1):
    state = line_fight(engine)
    state.buildings.append(Building("Mill", 6, 2, windows=windows, doors=doors))
    get(state, "33rd Foot").building = "Mill"
    return state


@pytest.mark.parametrize("klass", ["I", "II", "III", "IV", None])
def test_small_arms_at_a_unit_inside_a_building_are_refused_whatever_class_is_typed(
    engine: NsrEngine, klass: str | None
) -> None:
    """Special rule 10 (A-NSR-31): only artillery fires at figures inside that do not look out; a
    lower class typed at a table does not bring them out, and nothing is rolled."""
    state = in_the_mill(engine)
    params = {"target": "33rd Foot", "range": 10} | ({"class": klass} if klass else {})
    error = refuse(engine, state, "fire", "only artillery may fire at it", **params)
    assert error.message.startswith("33rd Foot is inside Mill with no figure shooting or looking out")
    refuse(engine, state, "volley", "only artillery", **{**params, "range": 5})
    out = act(engine, state, "fire", dice=[6], cards=["3C", NEXT], exposed=True, target="33rd Foot", range=10)
    assert (events(out, "fire")[0]["class"], events(out, "fire")[0]["hits"]) == ("IV", 1)


def test_a_gun_still_fires_at_a_unit_inside_a_building(engine: NsrEngine) -> None:
    state = gun_fight(engine)
    state.buildings.append(Building("Mill", 6, 2, windows=2, doors=1))
    get(state, "33rd Foot").building = "Mill"
    out = act(engine, state, "fire", target="33rd Foot", range=30, dice=[6], cards=["2C", NEXT])
    assert events(out, "fire")[0]["class"] == "IV"


@pytest.mark.parametrize(
    ("formation", "prone", "klass", "why"),
    [
        ("line", False, "I", "class I: line, close order"),
        ("march_column", False, "I", "class I: march column, close order"),
        ("square", False, "I", "class I: square, close order"),
        ("open_order", False, "II", "class II: open order"),
        ("line", True, "III", "class III: prone"),
    ],
)
def test_at_a_table_the_class_comes_from_the_target_unless_overridden(
    engine: NsrEngine, formation: str, prone: bool, klass: str, why: str
) -> None:
    """A-NSR-47: no class typed reads it from the target's formation (or prone, or its building);
    class: overrides it, for the rough ground the bot cannot see."""
    target = unit("33rd Foot", "Allied", "light", figures=20)
    state = line_fight(engine, target=target)
    get(state, "33rd Foot").formation = formation
    for figure in get(state, "33rd Foot").figures:
        figure.prone = prone
    out = act(engine, state, "fire", target="33rd Foot", range=10, dice=[1], cards=["3C", NEXT])
    [shot] = events(out, "fire")
    assert shot["class"] == klass and why in shot["notes"] and f"({why})" in texts(out)
    overridden = act(
        engine, state, "fire", target="33rd Foot", range=10, dice=[1], cards=["3C", NEXT], **{"class": "III"}
    )
    assert events(overridden, "fire")[0]["class"] == "III" and events(overridden, "fire")[0]["notes"] == []


def test_a_volley_reads_the_class_from_the_target_too(engine: NsrEngine) -> None:
    state = line_fight(engine, figures=3)
    out = act(engine, state, "volley", target="33rd Foot", range=5, cards=["5S", "5D", NEXT])
    assert events(out, "volley")[0]["class"] == "I" and "class I: line, close order" in texts(out)


def test_a_unit_that_cannot_fire_is_not_offered_a_fire_card(engine: NsrEngine) -> None:
    """A-NSR-48: a command group with no pistol left, and a unit in a building with no opening."""
    specs = [
        unit("Staff", "French", "command", pistols="no"),
        unit("1er Ligne", "French", "line", figures=12),
        unit("33rd Foot", "Allied", "line", figures=20),
    ]
    state = stage(engine, specs, "fire", "33rd Foot")
    assert not eligible(engine.charts, state, get(state, "Staff"))
    assert eligible(engine.charts, state, get(state, "1er Ligne"))
    state.buildings.append(Building("Barn", 6, 1))
    get(state, "1er Ligne").building = "Barn"
    assert not eligible(engine.charts, state, get(state, "1er Ligne"))
    state.buildings[0].windows = 1
    assert eligible(engine.charts, state, get(state, "1er Ligne"))


def test_an_officer_aims_at_one_figure_by_name(engine: NsrEngine) -> None:
    """A-NSR-22: any figure, not only the first of a kind; naming one and a kind is refused."""
    state = line_fight(engine)
    out = act(engine, state, "pistol", target="33rd Foot", range=2, figure="private 7", dice=[6])
    [shot] = events(out, "pistol")
    assert (shot["figure"], shot["outcome"]) == ("Private 7", "killed")
    assert next(f for f in get(out.state, "33rd Foot").figures if f.name == "Private 7").status == "killed"
    refuse(engine, state, "pistol", "not both", target="33rd Foot", range=2, figure="Private 7", aim="key")
    error = refuse(engine, state, "pistol", "no figure called", target="33rd Foot", range=2, figure="Private 99")
    assert "Commander-in-Chief, NCO, Private 1" in error.message


def test_the_hits_before_grapeshot_and_a_joker_changed_them_are_said(engine: NsrEngine) -> None:
    """The chart's hits, then each step with what it gives; the data keeps the chart's hits too."""
    state = gun_fight(engine)
    get(state, "Battery").joker = 5
    cards = ["2C", "3C", "4C", NEXT]
    out = act(engine, state, "fire", target="33rd Foot", range=5, shot="grape", dice=[3], cards=cards)
    [shot] = events(out, "fire")
    assert (shot["chart_hits"], shot["hits"]) == (3, 3)
    assert "1/4 → 3 hits, ×2 for grapeshot → 6 hits, halved rounding up (bad aim) → 3 hits" in texts(out)
    state = line_fight(engine)
    get(state, "1er Ligne").joker = 2
    out = act(engine, state, "fire", target="33rd Foot", range=10, dice=[4], cards=["3C", "4C", "5C", "6C", NEXT])
    assert "1/4 → 2 hits, doubled (good shots) → 4 hits" in texts(out)
    assert (events(out, "fire")[0]["chart_hits"], events(out, "fire")[0]["hits"]) == (2, 4)


def test_the_cards_in_hit_data_are_written_as_the_deck_writes_them(engine: NsrEngine) -> None:
    """The card field has one format (the deck's "3C"); a volley's second card is its own field."""
    out = act(engine, line_fight(engine), "fire", target="33rd Foot", range=10, dice=[4], cards=["3C", "4D", NEXT])
    assert [(h["card"], h["outcome"]) for h in events(out, "hit")] == [("3C", "light"), ("4D", "heavy")]
    assert "3♣ → 33rd Foot" in texts(out)
    state = line_fight(engine, figures=3)
    out = act(engine, state, "volley", target="33rd Foot", range=5, cards=["5H", "KS", "5S", NEXT], **{"class": "III"})
    [hit] = [h for h in events(out, "hit") if h["outcome"] != "no_hit"]
    assert (hit["card"], hit["second_card"], hit["outcome"]) == ("5H", "KS", "killed")
    assert "5♥ then K♠ → 33rd Foot" in texts(out)
    assert [e["card"] for e in events(out, "hit") if e["outcome"] == "no_hit"] == ["5S"]


def test_a_close_combat_wound_is_said_heavy_and_a_wounded_loser_taken_prisoner(engine: NsrEngine) -> None:
    """A-NSR-9: wounded in close combat is heavily wounded; seed C.3: the loser's wounded are taken."""
    lone = {"figures": 1, "officer": "no", "nco": "no"}
    specs = [
        unit("Chasseurs", "French", "mounted", **lone),
        unit("Militia", "Allied", "militia", **lone),
    ]
    state = stage(engine, specs, "close_combat")
    state.charges = [Charge("Chasseurs", "Militia")]
    out = act(engine, state, "melee", dice=[3, 2, 10, 2])
    [fight] = events(out, "fight")
    assert (fight["outcome"], fight["wound"]) == ("wounded", "heavy")
    assert "Private 1 of Militia is heavily wounded (natural 2)" in texts(out)
    won = events(out, "melee")[-1]
    assert won["wounded_taken"] == ["Private 1"] and won["prisoners"] == 1
    assert "Militia's wounded Private 1 is taken prisoner." in texts(out)


def test_on_the_map_a_unit_with_no_enemy_in_reach_is_not_offered_a_fire_card(engine: NsrEngine) -> None:
    """A-NSR-48: the hussars' carbines reach 6″ and their officer's pistol 3″: 28″ from the nearest
    enemy they wait for no card; set down 4″ from the 33rd Foot they do."""
    state = moved_on(engine, {})
    state.phase = "fire"
    hussars, line = get(state, "Hussars"), get(state, "1er Ligne")
    assert not eligible(engine.charts, state, hussars)
    assert not eligible(engine.charts, state, line)  # muskets reach 12″; the Allies are 28″ off
    state = moved_on(engine, {"Hussars": "10,26", "1er Ligne": "30,20"})
    state.phase = "fire"
    assert eligible(engine.charts, state, get(state, "Hussars"))
    assert eligible(engine.charts, state, get(state, "1er Ligne"))


def test_a_fire_phase_no_unit_may_fire_in_says_why(engine: NsrEngine) -> None:
    """A-NSR-48: the last unit holds, the fire phase begins and ends at once; it says of each unit
    why it had no card (its reach and the nearest enemy's range, or the mark that stops it)."""
    state = moved_on(engine, {})
    for other in state.units:
        other.moved = other.name != "1er Ligne"
    get(state, "Hussars").charged = True
    state.phase, state.active, state.card, state.pending = "movement", "1er Ligne", "2S", None
    out = act(engine, state, "hold", "French", cards=["3S"])
    [said] = events(out, "no-fire")
    assert said["units"]["Hussars"] == "Hussars charged this turn"
    assert (
        said["units"]["1er Ligne"]
        == "1er Ligne's reach is 12″ and the nearest enemy, 33rd Foot, is 26.5″ from its nearest figure"
    )
    assert texts(out).index("No unit may fire: ") < texts(out).index("morale phase")
