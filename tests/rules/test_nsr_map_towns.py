"""NSR's towns on the bot's map (A-NSR-42 to A-NSR-46): buildings carry their
storeys, roof, walls and barn doors in the map file; a unit goes in at a door and its building's
record is made from the map; its figures fire from the doors and windows facing the target (two
from a barn's door); a unit inside is exposed to small arms only through an opening facing the
firer or when it fired this turn; sight is hidden by woods, buildings and hills; a fight for a
building on the map puts the winner inside.

The readings are in docs/rules/nsr.md, "On the bot's map".
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules.battlefield import battlefield_of, read_map
from rules.battlefield.formations import footprint, on_table, overlaps
from rules.battlefield.maps import map_file
from rules.core import Action, Event, RuleError
from rules.geometry import Point
from rules.nsr import onmap, onmap_towns
from rules.nsr.deck import fresh_deck
from rules.nsr.engine import NsrEngine
from rules.nsr.state import Charge, NsrState
from rules.vocabulary import DataError
from tests.rules.test_nsr_helpers import RandomDice, ScriptedDice, act, get, refuse, texts, unit

#: A 48 by 36 inch table with a farmhouse (a door south, windows west and east; two storeys of
#: twelve), a barn (a door south and north), a chapel with no door and a copse.
TOWN_MAP: dict[str, Any] = {
    "name": "Test hamlet",
    "table": {"width": 48, "height": 36},
    "features": [
        {
            "kind": "building",
            "name": "the farmhouse",
            "area": [[20, 14], [26, 14], [26, 18], [20, 18]],
            "openings": [
                {"kind": "door", "at": [23, 14]},
                {"kind": "window", "at": [20, 16]},
                {"kind": "window", "at": [26, 16]},
            ],
            "storeys": 2,
            "roof": 12,
            "walls": "masonry",
        },
        {
            "kind": "building",
            "name": "the barn",
            "area": [[34, 14], [40, 14], [40, 18], [34, 18]],
            "openings": [{"kind": "door", "at": [37, 14]}, {"kind": "door", "at": [37, 18]}],
            "walls": "wood",
            "barn": True,
        },
        {
            "kind": "building",
            "name": "the chapel",
            "area": [[6, 14], [10, 14], [10, 18], [6, 18]],
            "openings": [{"kind": "window", "at": [8, 18]}],
            "walls": "rock",
        },
        {"kind": "wood", "name": "the copse", "area": [[12, 20], [18, 20], [18, 26], [12, 26]]},
        {
            "kind": "building",
            "name": "the lodge",
            "area": [[40, 2], [44, 2], [44, 6], [40, 6]],
            "openings": [{"kind": "door", "at": [42, 6]}],
            "roof": 10,
        },
        {"kind": "hill", "name": "the rise", "area": [[2, 24], [10, 24], [10, 27], [2, 27]]},
    ],
    "zones": {
        "French": [[0, 0], [48, 0], [48, 8], [0, 8]],
        "Allied": [[0, 28], [48, 28], [48, 36], [0, 36]],
    },
}
SPECS = [
    unit("1er Ligne", "French", "line", figures=12),
    unit("Voltigeurs", "French", "light", figures=4),
    unit("33rd Foot", "Allied", "line", figures=12),
    unit("95th", "Allied", "light", figures=8, weapon="rifle"),
]
#: Where the units stand (north-facing French, south-facing Allies) before a test moves them.
PLACES = {"1er Ligne": "10,4", "Voltigeurs": "30,4", "33rd Foot": "10,32", "95th": "30,32"}


def hamlet(
    engine: NsrEngine,
    where: dict[str, str],
    phase: str = "movement",
    active: str = "1er Ligne",
    ground: dict[str, Any] = TOWN_MAP,
) -> NsrState:
    """Every unit placed, then set down where ``where`` says, ``active`` acting in ``phase``."""
    out = engine.start_on_map(SPECS, ScriptedDice(), read_map(ground, engine.sides(), engine.terrain()))
    state = out.state
    for name, at in PLACES.items():
        side = get(state, name).side
        cards = ["2S"] if name == list(PLACES)[-1] else []
        state = engine.act(state, Action("place", side, {"figure": name, "at": at}), ScriptedDice(cards=cards)).state
    field = onmap.field_of(state)
    for name, at in where.items():
        x, y = (float(v) for v in at.split(","))
        field.positions[name] = [x, y]
    state.phase = phase  # type: ignore[assignment]
    return again(state, active)


def inside(engine: NsrEngine, where: dict[str, str], building: str = "farmhouse") -> NsrState:
    """1er Ligne standing at the farmhouse's door (or the barn's) goes in."""
    state = hamlet(engine, {"1er Ligne": "23,12.5" if building == "farmhouse" else "37,12.5", **where})
    return again(act(engine, state, "occupy", "French", building=building, cards=["KH"]).state)


def again(state: NsrState, active: str = "1er Ligne") -> NsrState:
    """The deck fresh and ``active`` acting on the 2 of spades once more, as a staged test needs."""
    state.pending, state.active, state.card = None, active, "2S"
    state.deck, state.discards = [c for c in fresh_deck() if c != "2S"], ["2S"]
    return state


# --- the map format --------------------------------------------------------------------------------


def test_a_building_carries_its_storeys_roof_walls_and_barn_doors(engine: NsrEngine) -> None:
    data = read_map(TOWN_MAP, engine.sides(), engine.terrain())
    farmhouse, barn, chapel = data.features[:3]
    assert (farmhouse.storeys, farmhouse.roof, farmhouse.walls, farmhouse.barn) == (2, 12, "masonry", False)
    assert (barn.storeys, barn.roof, barn.walls, barn.barn) == (None, None, "wood", True)
    assert chapel.walls == "rock"
    again = read_map(map_file(data), engine.sides(), engine.terrain())
    assert again == data
    assert "storeys" not in map_file(data)["features"][3]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"storeys": 0}, "features[0].storeys: a building has 1 to 20 storeys, not 0"),
        ({"storeys": "two"}, "features[0].storeys: a building has 1 to 20 storeys, not “two”"),
        ({"roof": 0}, "features[0].roof: 1 to 500 figures fit on a building's roof, not 0"),
        ({"walls": "paper"}, "features[0].walls: a building's walls are wood, masonry, rock, not “paper”"),
        ({"barn": "yes"}, "features[0].barn: say true or false, not “yes”"),
    ],
)
def test_a_bad_building_figure_is_one_sentence(engine: NsrEngine, change: dict[str, Any], says: str) -> None:
    features = [{**TOWN_MAP["features"][0], **change}, *TOWN_MAP["features"][1:]]
    with pytest.raises(DataError) as caught:
        read_map({**TOWN_MAP, "features": features}, engine.sides(), engine.terrain())
    assert caught.value.problems == [says]


def test_only_a_building_takes_storeys(engine: NsrEngine) -> None:
    wood = {**TOWN_MAP["features"][3], "storeys": 2}
    with pytest.raises(DataError) as caught:
        read_map({**TOWN_MAP, "features": [wood]}, engine.sides(), engine.terrain())
    assert caught.value.problems == ["features[0]: storeys is a building's, not a wood's"]


def test_the_buildings_as_nsr_reads_them(engine: NsrEngine) -> None:
    """A-NSR-42: the roof as the map says, else as many 1 inch bases as the ground holds; a door or
    window faces out of the wall it is on (A-NSR-44)."""
    state = hamlet(engine, {})
    farmhouse, barn, chapel, _ = onmap_towns.map_buildings(engine.tables, state)
    assert (farmhouse.capacity, barn.capacity, chapel.capacity) == (24, 24, 16)
    assert [(w.kind, w.out) for w in farmhouse.ways] == [
        ("door", Point(0.0, -1.0)),
        ("window", Point(-1.0, 0.0)),
        ("window", Point(1.0, 0.0)),
    ]
    assert barn.barn and chapel.walls == "rock" and not chapel.doors


# --- going in --------------------------------------------------------------------------------------


def test_a_unit_at_the_door_goes_in_and_the_building_is_the_maps(engine: NsrEngine) -> None:
    """A-NSR-42: 12 figures in a farmhouse of two storeys of 12; the record made from the map."""
    state = hamlet(engine, {"1er Ligne": "23,12.5"})
    out = act(engine, state, "occupy", "French", building="farmhouse", cards=["KH"])
    ligne = get(out.state, "1er Ligne")
    assert ligne.building == "the farmhouse"
    assert "1er Ligne moves into the farmhouse: 12 of 24 places taken, over 1 floor." in texts(out)
    [record] = out.state.buildings
    assert (record.name, record.roof, record.storeys, record.windows, record.doors) == ("the farmhouse", 12, 2, 2, 1)
    assert onmap.field_of(out.state).positions["1er Ligne"] == [23.0, 16.0]
    mark = onmap.unit_mark(out.state, ligne, engine.tables)
    assert mark is not None and mark.formation == "in the farmhouse" and mark.facing is None
    assert sorted(mark.outline) == [(20.0, 14.0), (20.0, 18.0), (26.0, 14.0), (26.0, 18.0)]
    assert len(mark.figures) == 12
    assert all(20 <= x <= 26 and 14 <= y <= 18 for x, y in mark.figures)
    assert engine.load_state(engine.dump_state(out.state)) == out.state


def test_going_in_is_refused_away_from_a_door_or_with_no_door(engine: NsrEngine) -> None:
    far = hamlet(engine, {"1er Ligne": "23,10"})
    refuse(engine, far, "occupy", "must stand within 1″ of a door of the farmhouse", "French", building="farmhouse")
    chapel = hamlet(engine, {"1er Ligne": "8,12.5"})
    refuse(engine, chapel, "occupy", "the chapel has no door: breach it first", "French", building="chapel")
    refuse(
        engine,
        far,
        "occupy",
        "no building called “castle” on this map: the farmhouse, the barn, the chapel or the lodge",
        "French",
        building="castle",
    )


def test_a_move_into_a_building_says_how_to_go_in(engine: NsrEngine) -> None:
    state = hamlet(engine, {"1er Ligne": "23,10"})
    refuse(
        engine,
        state,
        "move",
        "1er Ligne goes into the farmhouse with /nsr occupy, from within 1″ of its door",
        "French",
        to="23,16",
    )


def test_a_typed_building_is_refused_on_the_map(engine: NsrEngine) -> None:
    state = hamlet(engine, {})
    refuse(
        engine, state, "building", "On the map the buildings are the map's", "French", name="Mill", roof=4, storeys=1
    )


def test_no_room_or_an_enemy_inside_is_refused(engine: NsrEngine) -> None:
    state = inside(engine, {"33rd Foot": "23,19.5"})
    state.active = "33rd Foot"
    onmap.field_of(state).facing["33rd Foot"] = 270.0
    get(state, "1er Ligne").building = "the farmhouse"
    onmap.field_of(state).positions["95th"] = [23.0, 12.5]
    state.active = "95th"
    refuse(
        engine,
        state,
        "occupy",
        "1er Ligne holds the farmhouse: break in and fight for it",
        "Allied",
        building="farmhouse",
    )


def test_a_unit_comes_out_by_the_door_nearest_where_it_goes(engine: NsrEngine) -> None:
    """A-NSR-43: out by the south door, its line set just outside facing away from the wall."""
    state = inside(engine, {})
    state.active = "1er Ligne"
    out = act(engine, state, "move", "French", to="23,8", dice=[3, 2], cards=["KH"])
    ligne = get(out.state, "1er Ligne")
    assert ligne.building == ""
    assert "comes out of the farmhouse by its door at 23,14" in texts(out)
    placed = onmap.placement_of(out.state, ligne)
    assert placed is not None and placed.facing == 270.0
    assert onmap.at(placed.centre) == "23,8"


# --- breaking in -------------------------------------------------------------------------------------


def test_breaking_in_works_at_the_maps_walls(engine: NsrEngine) -> None:
    """A-NSR-42: workers stand within an inch of the building; a rock wall reads the rock column."""
    state = hamlet(engine, {"1er Ligne": "8,12.5"})
    out = act(engine, state, "work", "French", building="chapel", task="wall", cards=["KH"])
    assert "a breach in a rock wall of the chapel" in texts(out)
    refuse(engine, state, "work", "walls say how strong they are", "French", building="chapel", task="rock_wall")
    far = hamlet(engine, {"1er Ligne": "8,10"})
    refuse(
        engine,
        far,
        "work",
        "must stand within 1″ of the chapel to break into it",
        "French",
        building="chapel",
        task="door",
    )


# --- fire from and at a building ---------------------------------------------------------------------


def firing(state: NsrState, active: str) -> NsrState:
    state.phase, state.active = "fire", active
    return state


def test_figures_inside_fire_only_from_the_openings_facing_the_target(engine: NsrEngine) -> None:
    """A-NSR-44: the 95th stands east of the farmhouse: only its east window faces it, one figure."""
    state = firing(inside(engine, {"95th": "32,16"}), "1er Ligne")
    onmap.field_of(state).facing["95th"] = 180.0
    out = act(engine, state, "fire", "French", target="95th", dice=[4], cards=["KH"])
    assert "1er Ligne fires at 95th: 1 musket, class II, 4.45″" in texts(out)  # window to the open order's edge
    refuse(
        engine,
        state,
        "fire",
        "Only 1 figure of 1er Ligne can fire at 95th from the doors and windows of the farmhouse facing it, not 3",
        "French",
        target="95th",
        firers=3,
    )
    north = firing(inside(engine, {"33rd Foot": "23,24"}), "1er Ligne")
    refuse(engine, north, "fire", "no door or window of the farmhouse faces that way", "French", target="33rd Foot")


def test_a_barns_door_takes_two_firers(engine: NsrEngine) -> None:
    """A-NSR-44: "larger doors (barn)": two figures a door."""
    state = firing(inside(engine, {"33rd Foot": "37,24"}, "barn"), "1er Ligne")
    out = act(engine, state, "fire", "French", target="33rd Foot", dice=[4], cards=["KH"])
    assert "2 muskets, class I" in texts(out)


def test_small_arms_reach_a_unit_inside_only_through_an_opening_facing_them(engine: NsrEngine) -> None:
    """A-NSR-46: north of the farmhouse no opening looks out: only artillery may fire at it; east
    of it the window looks out; once it has fired this turn it is shooting, seen from anywhere."""
    state = firing(inside(engine, {"33rd Foot": "23,24", "95th": "32,16"}), "33rd Foot")
    onmap.field_of(state).facing["95th"] = 180.0
    refuse(engine, state, "fire", "with no door or window looking out toward 33rd Foot", "Allied", target="1er Ligne")
    refuse(engine, state, "fire", "leave exposed out", "Allied", target="1er Ligne", exposed="yes")
    assert onmap.target_class(engine.tables, state, get(state, "33rd Foot"), get(state, "1er Ligne")) == (
        "IV",
        "inside the farmhouse",
    )
    state.active = "95th"
    out = act(engine, state, "fire", "Allied", target="1er Ligne", dice=[6], cards=["3C", "KH"])
    assert "95th fires at 1er Ligne: 7 rifles, class IV" in texts(out)
    get(state, "1er Ligne").last_fired_turn = state.turn
    state.active = "33rd Foot"
    out = act(engine, state, "fire", "Allied", target="1er Ligne", dice=[1], cards=["3C", "KH"])
    assert (
        "33rd Foot fires at 1er Ligne: 11 muskets, class IV, 5.5″ (from its nearest figure to 1er Ligne's edge); "
        "die 1 +1 (half range) = 2"
    ) in texts(out)


def test_a_unit_inside_does_not_volley(engine: NsrEngine) -> None:
    state = firing(inside(engine, {"95th": "32,16"}), "1er Ligne")
    refuse(engine, state, "volley", "fire from its doors and windows, not in a volley", "French", target="95th")


def test_a_wood_between_hides_the_target(engine: NsrEngine) -> None:
    """A-NSR-44: the copse stands between the two lines: nothing to fire at."""
    state = firing(hamlet(engine, {"1er Ligne": "15,17", "33rd Foot": "15,29"}), "1er Ligne")
    onmap.field_of(state).facing["33rd Foot"] = 270.0
    refuse(
        engine,
        state,
        "fire",
        "1er Ligne cannot fire at 33rd Foot: the copse is in the way",
        "French",
        target="33rd Foot",
    )


# --- a fight for a building ----------------------------------------------------------------------------


def test_a_fight_for_a_building_on_the_map(engine: NsrEngine) -> None:
    """A-NSR-41, A-NSR-43: the Voltigeurs hold the farmhouse; the 95th charged them and wins the
    fight: the Voltigeurs' survivors come out by the door furthest from it, shaken, and the 95th
    goes in."""
    state = hamlet(engine, {"Voltigeurs": "23,12.5", "95th": "23,20"})
    state.active = "Voltigeurs"
    state = again(act(engine, state, "occupy", "French", building="farmhouse", cards=["KH"]).state)
    onmap.field_of(state).facing["95th"] = 270.0
    state.phase, state.active, state.card = "close_combat", "", ""
    state.charges = [Charge("95th", "Voltigeurs")]
    get(state, "95th").charged = True
    assert onmap.melee_ground(engine.tables, state, get(state, "95th"), get(state, "Voltigeurs"))[0] == "building"
    # close in, stand; four fights each lost by a Voltigeur running (natural 4); 4D6 back; rally 2D6
    out = act(engine, state, "melee", "Allied", dice=[1, 1] + [9, 4] * 4 + [3, 3, 3, 3] + [2, 2], cards=["AS"])
    text = texts(out)
    fights = [e.data for e in out.events if e.kind == "fight"]
    assert len(fights) == 4 and all(
        "defending a building" in [m["reason"] for m in f["b"]["modifiers"]] for f in fights
    )
    assert "95th closes 0.5″ to 23,19.5" in text  # to the farmhouse's wall
    voltigeurs, rifles = get(out.state, "Voltigeurs"), get(out.state, "95th")
    assert voltigeurs.building == "" and rifles.building == "the farmhouse"
    assert (
        "Voltigeurs is shaken: it falls back 12″ in disorder until rallied; it comes out of the farmhouse by its "
        "door at 23,14 and moves 11″ back to 23,1.5, stopped by the table edge." in text
    )
    assert "95th occupies Voltigeurs' position (it won the close combat): 95th goes into the farmhouse." in text
    assert onmap.field_of(out.state).positions["95th"] == [23.0, 16.0]
    assert engine.load_state(engine.dump_state(out.state)) == out.state


def test_a_charge_at_a_unit_inside_is_never_from_the_rear(engine: NsrEngine) -> None:
    """A-NSR-43: a building's defenders look out every way."""
    state = inside(engine, {"33rd Foot": "23,22.5"})
    onmap.field_of(state).facing["33rd Foot"] = 270.0
    state = again(state, "33rd Foot")
    out = act(engine, state, "charge", "Allied", target="1er Ligne", dice=[3, 3, 3], cards=["KH"])
    assert out.state.charges[0].rear is False


def test_placing_a_unit_in_a_building_of_its_zone_occupies_it(engine: NsrEngine) -> None:
    """A-NSR-42: the lodge stands in the French zone."""
    out = engine.start_on_map(SPECS, ScriptedDice(), read_map(TOWN_MAP, engine.sides(), engine.terrain()))
    placed = act(engine, out.state, "place", "French", figure="Voltigeurs", at="42,4")
    assert "Voltigeurs (French) is placed in the lodge: 4 of 10 places taken." in texts(placed)
    assert get(placed.state, "Voltigeurs").building == "the lodge"
    refuse(
        engine,
        placed.state,
        "place",
        "the lodge holds 10 figures (10 a floor) and 4 are inside: 1er Ligne's 12 do not fit",
        "French",
        figure="1er Ligne",
        at="42,4",
    )


def test_coming_out_is_refused_when_the_ground_outside_the_door_is_taken(engine: NsrEngine) -> None:
    state = inside(engine, {"Voltigeurs": "23,12.5"})
    refuse(
        engine,
        state,
        "move",
        "cannot come out of the farmhouse: the ground outside its doors is taken",
        "French",
        to="23,8",
    )


def test_a_hill_between_hides_and_a_unit_on_it_sees_over(engine: NsrEngine) -> None:
    """A-NSR-44: the rise stands between the two lines; from its top the line sees past it."""
    state = firing(hamlet(engine, {"1er Ligne": "6,21", "33rd Foot": "6,30.5"}), "1er Ligne")
    onmap.field_of(state).facing["33rd Foot"] = 270.0
    refuse(
        engine,
        state,
        "fire",
        "1er Ligne cannot fire at 33rd Foot: the rise is in the way",
        "French",
        target="33rd Foot",
    )
    onmap.field_of(state).positions["1er Ligne"] = [6.0, 25.5]
    lines = onmap_towns.sightlines(engine.tables, state, get(state, "1er Ligne"), get(state, "33rd Foot"), 12)
    assert lines.firers == 11 + 1 and len(lines.seen) == 12


def test_a_volleys_area_is_the_ground_in_front_of_the_unit(engine: NsrEngine) -> None:
    """A-NSR-45: a target standing off to the side of the line is not in its area; of one partly
    in front only the figures there are hit, the other cards wasted."""
    aside = firing(hamlet(engine, {"1er Ligne": "23,6", "33rd Foot": "33,10"}), "1er Ligne")
    onmap.field_of(aside).facing["33rd Foot"] = 270.0
    refuse(
        engine,
        aside,
        "volley",
        "cannot fire at 33rd Foot: no figure of 33rd Foot stands in the volley's area",
        "French",
        target="33rd Foot",
    )
    half = firing(hamlet(engine, {"1er Ligne": "23,6", "33rd Foot": "28,10"}), "1er Ligne")
    onmap.field_of(half).facing["33rd Foot"] = 270.0
    lines = onmap_towns.sightlines(
        engine.tables,
        half,
        get(half, "1er Ligne"),
        get(half, "33rd Foot"),
        6,
        onmap_towns.area_of_volley(half, get(half, "1er Ligne"), 6),
    )
    assert len(lines.seen) == 2  # one file of two ranks stands in front of the line
    out = act(engine, half, "volley", "French", target="33rd Foot", cards=["2H", "3H", "KH"])
    assert "Every figure of 33rd Foot in the area is hit: the other 9 cards are wasted." in texts(out)
    foot = get(out.state, "33rd Foot")
    killed = {f.name for f in foot.figures if f.status == "killed"}
    order = onmap_towns.standing_order(get(half, "33rd Foot"))
    assert killed == {order[i].name for i in lines.seen}


def test_a_volley_at_a_unit_inside_needs_its_building_in_front(engine: NsrEngine) -> None:
    """A-NSR-45: the 33rd Foot faces the farmhouse's east window: its area holds the building; turned
    away north, its area does not."""
    state = firing(inside(engine, {"33rd Foot": "30,16"}), "33rd Foot")
    onmap.field_of(state).facing["33rd Foot"] = 180.0
    lines = onmap_towns.sightlines(
        engine.tables,
        state,
        get(state, "33rd Foot"),
        get(state, "1er Ligne"),
        6,
        onmap_towns.area_of_volley(state, get(state, "33rd Foot"), 6),
    )
    assert lines.firers > 0
    onmap.field_of(state).facing["33rd Foot"] = 90.0
    refuse(
        engine,
        state,
        "volley",
        "cannot fire at 1er Ligne: 1er Ligne's building is not in the volley's area",
        "Allied",
        target="1er Ligne",
    )


def test_a_gun_bombards_a_building_in_range_and_sight(engine: NsrEngine) -> None:
    specs = [*SPECS[:3], unit("Battery", "Allied", "artillery")]
    out = engine.start_on_map(specs, ScriptedDice(), read_map(TOWN_MAP, engine.sides(), engine.terrain()))
    state = out.state
    for name, at in {**PLACES, "Battery": "40,32"}.items():
        if name == "95th":
            continue
        cards = ["2S"] if name == "Battery" else []
        state = engine.act(
            state, Action("place", get(state, name).side, {"figure": name, "at": at}), ScriptedDice(cards=cards)
        ).state
    get(state, "Battery").formation = "manhandled"
    state.phase = "fire"
    state = again(state, "Battery")
    out2 = act(engine, state, "bombard", "Allied", building="barn", part="door", cards=["KH"])
    assert "ball: the door of the barn is 1/2 done" in texts(out2)
    refuse(
        engine,
        state,
        "bombard",
        "the chapel is out of range: grapeshot reaches 16″",
        "Allied",
        building="chapel",
        part="window",
        shot="grape",
    )


def test_a_joker_fall_back_from_inside_comes_out_first(engine: NsrEngine) -> None:
    """A-NSR-43: Joker Movement 3 (2D6 back): out by the door away from the nearest enemy."""
    from rules.nsr.movement import joker_movement

    state = inside(engine, {"33rd Foot": "23,24"})
    onmap.field_of(state).facing["33rd Foot"] = 270.0
    log: list[Event] = []
    joker_movement(engine.charts, state, get(state, "1er Ligne"), "BJ", ScriptedDice([3, 2, 2]), log)
    ligne = get(state, "1er Ligne")
    assert ligne.building == ""
    assert (
        "1er Ligne falls back 4″: it comes out of the farmhouse by its door at 23,14 and moves 4″ back" in log[-1].text
    )


def test_a_saved_state_with_a_unit_in_an_unknown_building_is_refused(engine: NsrEngine) -> None:
    state = inside(engine, {})
    data = engine.dump_state(state)
    data["buildings"] = []
    with pytest.raises(DataError) as caught:
        engine.load_state(data)
    assert "units[0].building: 'the farmhouse' is not a building of this battle" in caught.value.problems


def test_a_gun_fires_at_a_unit_inside_whatever_it_looks_out_of(engine: NsrEngine) -> None:
    """Special rule 10: artillery may still fire at a class IV unit that shows no figure."""
    specs = [*SPECS[:3], unit("Battery", "Allied", "artillery")]
    out = engine.start_on_map(specs, ScriptedDice(), read_map(TOWN_MAP, engine.sides(), engine.terrain()))
    state = out.state
    for name, at in {**PLACES, "Battery": "40,32"}.items():
        if name == "95th":
            continue
        cards = ["2S"] if name == "Battery" else []
        params = {"figure": name, "at": at}
        state = engine.act(state, Action("place", get(state, name).side, params), ScriptedDice(cards=cards)).state
    field = onmap.field_of(state)
    field.positions["1er Ligne"], field.positions["Battery"] = [23.0, 12.5], [23.0, 30.0]
    state = again(act(engine, again(state), "occupy", "French", building="farmhouse", cards=["KH"]).state, "Battery")
    get(state, "Battery").formation = "manhandled"
    state.phase = "fire"
    out = act(engine, state, "fire", "Allied", target="1er Ligne", dice=[6], cards=["3C", "KH"])
    assert "Battery fires at 1er Ligne: ball (crew of 4), class IV" in texts(out)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    building=st.sampled_from(["farmhouse", "barn"]),
    goal=st.tuples(st.integers(1, 47), st.integers(1, 35)),
    shooter=st.tuples(st.integers(2, 46), st.integers(9, 27)),
)
def test_coming_out_and_firing_anywhere_keeps_units_apart(
    engine: NsrEngine, building: str, goal: tuple[int, int], shooter: tuple[int, int]
) -> None:
    """Hypothesis: a unit inside moving anywhere either is refused with a sentence or comes out
    and stands on the table, off every building and unit; fire at it from anywhere is a sentence
    or a roll, never an error."""
    state = inside(engine, {"33rd Foot": f"{shooter[0]},{shooter[1]}"}, building)
    foot = get(state, "33rd Foot")
    staged = onmap.placement_of(state, foot)
    assert staged is not None
    try:
        onmap.check_ground(engine.tables, state, foot, staged)
    except RuleError:
        assume(False)  # a staged spot on a building or another unit: not a position the game allows
    try:
        out = engine.act(state, Action("move", "French", {"to": f"{goal[0]},{goal[1]}"}), RandomDice(1))
    except RuleError:
        pass
    else:
        moved = out.state
        ligne = get(moved, "1er Ligne")
        placed = onmap.placement_of(moved, ligne)
        assert placed is not None and ligne.building == ""
        shape = footprint(placed)
        assert on_table(placed, battlefield_of(onmap.field_of(moved).map).table)
        for found in onmap_towns.map_buildings(engine.tables, moved):
            assert not overlaps(shape, found.shape), found.name
        for other in moved.units:
            theirs = onmap.placement_of(moved, other) if other is not ligne else None
            assert theirs is None or not overlaps(shape, footprint(theirs)), other.name
    shot = again(state, "33rd Foot")
    shot.phase = "fire"
    with contextlib.suppress(RuleError):
        engine.act(shot, Action("fire", "Allied", {"target": "1er Ligne"}), RandomDice(2))


def test_a_loophole_adds_a_firer_every_way(engine: NsrEngine) -> None:
    """A-NSR-44: north of the farmhouse no door or window faces; a loophole cut (the bot does not
    know in which wall) lets one figure fire that way."""
    state = firing(inside(engine, {"33rd Foot": "23,24"}), "1er Ligne")
    onmap.field_of(state).facing["33rd Foot"] = 270.0
    refuse(engine, state, "fire", "no door or window of the farmhouse faces that way", "French", target="33rd Foot")
    state.buildings[0].loopholes = 1
    out = act(engine, state, "fire", "French", target="33rd Foot", dice=[4], cards=["KH"])
    assert "1er Ligne fires at 33rd Foot: 1 musket, class I, 4.95″" in texts(out)  # the north wall to its front


def test_a_charge_at_a_big_building_stops_two_inches_from_its_wall(engine: NsrEngine) -> None:
    """A-NSR-43: the Voltigeurs' small block inside a ten by six inch manor mans its north wall when
    the 33rd Foot charges from there, so the charge stops two inches from the wall, not inside."""
    manor = {
        "kind": "building",
        "name": "the manor",
        "area": [[30, 19], [40, 19], [40, 25], [30, 25]],
        "openings": [{"kind": "door", "at": [35, 25]}],
    }
    ground = {**TOWN_MAP, "features": [*TOWN_MAP["features"], manor]}
    where = {"Voltigeurs": "35,26.6", "33rd Foot": "35,32", "95th": "44,32"}
    state = hamlet(engine, where, active="Voltigeurs", ground=ground)
    state = again(act(engine, state, "occupy", "French", building="manor", cards=["KH"]).state, "33rd Foot")
    onmap.field_of(state).facing["33rd Foot"] = 270.0
    out = act(engine, state, "charge", "Allied", target="Voltigeurs", dice=[3, 3, 3], cards=["KH"])
    assert "it faces 270° and moves 4″ to 35,28." in texts(out)  # its front at y 27, the wall at y 25
    volts = onmap.placement_of(out.state, get(out.state, "Voltigeurs"))
    assert volts is not None and footprint(volts).bounds[3] == pytest.approx(25.0, abs=0.01)
