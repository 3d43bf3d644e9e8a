"""NSR on the bot's map (``map_package`` is rules.nsr; battlefield:table keeps the typed game): whole
units placed and deployed in their zones before the first card (A-NSR-32, A-NSR-33), /nsr form
reshaping a unit in place (A-NSR-34), the state saved and read back, and footprints that never overlap.

The readings are in docs/rules/nsr.md, "On the bot's map".
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.battlefield import MapData, battlefield_of
from rules.battlefield.formations import footprint, on_table, overlaps, size
from rules.battlefield.maps import map_file, read_map, zone_shape
from rules.core import Action, Event, RuleError
from rules.nsr import onmap
from rules.nsr.engine import NsrEngine
from rules.nsr.state import Charge, NsrState
from tests.rules.test_nsr_helpers import RandomDice, ScriptedDice, act, get, refuse, snapshot, texts, unit

#: A 48 by 36 inch table: the French set out along the south edge, the Allies along the north.
TEST_MAP: dict[str, Any] = {
    "name": "Test valley",
    "table": {"width": 48, "height": 36},
    "features": [
        {"kind": "water", "name": "the pond", "area": [[30, 2], [36, 2], [36, 6], [30, 6]]},
        {"kind": "wood", "name": "the copse", "area": [[4, 14], [14, 14], [14, 22], [4, 22]]},
        {"kind": "road", "name": "the road", "area": [[23, 0], [25, 0], [25, 36], [23, 36]]},
        {"kind": "wall", "name": "the wall", "line": [[36, 20], [44, 20]]},
    ],
    "zones": {
        "French": [[0, 0], [48, 0], [48, 8], [0, 8]],
        "Allied": [[0, 28], [48, 28], [48, 36], [0, 36]],
    },
}
SPECS = [
    unit("1er Ligne", "French", "line", figures=12),
    unit("Hussars", "French", "mounted", figures=6),
    unit("33rd Foot", "Allied", "line", figures=12),
    unit("95th", "Allied", "light", figures=8, weapon="rifle"),
]
#: The card the first movement phase turns once every unit is on the map: black, for the French.
FIRST = "2S"


def the_map(engine: NsrEngine) -> MapData:
    return read_map(TEST_MAP, engine.sides(), engine.terrain())


def setting_out(engine: NsrEngine) -> NsrState:
    dice = ScriptedDice()
    out = engine.start_on_map(SPECS, dice, the_map(engine))
    assert dice.log == [] and out.pending is None
    return out.state


def prints(state: NsrState) -> dict[str, Any]:
    return {u.name: footprint(p) for u in state.units if (p := onmap.placement_of(state, u)) is not None}


def assert_apart(state: NsrState) -> None:
    table = battlefield_of(onmap.field_of(state).map).table
    shapes = prints(state)
    for u in state.units:
        placed = onmap.placement_of(state, u)
        assert placed is None or on_table(placed, table)
    for (a, pa), (b, pb) in itertools.combinations(shapes.items(), 2):
        assert not overlaps(pa, pb), f"{a} overlaps {b}"


def round_trip(engine: NsrEngine, state: NsrState) -> None:
    assert engine.load_state(engine.dump_state(state)) == state


# --- setting out ---------------------------------------------------------------------------------------


def test_a_battle_on_the_map_sets_out_its_units_before_any_card(engine: NsrEngine) -> None:
    state = setting_out(engine)
    assert state.phase == "deployment" and state.field is not None and state.card == ""
    assert engine.whose_turn(state) == "French"
    refuse(engine, state, "move", "once every unit is on the map", side="French")
    refuse(engine, state, "fire", "still to place 1er Ligne, Hussars, 33rd Foot and 95th", side="French")
    round_trip(engine, state)


def test_place_sets_a_unit_down_whole_facing_the_enemy(engine: NsrEngine) -> None:
    """A-NSR-33: no facing given, the unit faces the enemy's zone (north here)."""
    out = act(engine, setting_out(engine), "place", "French", unit="1er Ligne", at="10,4")
    state = out.state
    placed = onmap.placement_of(state, get(state, "1er Ligne"))
    assert placed is not None and placed.facing == 90.0 and placed.formation == "line" and placed.figures == 12
    assert size(placed) == (6.0, 2.0)
    assert footprint(placed).bounds == pytest.approx((7.0, 3.0, 13.0, 5.0))
    assert "1er Ligne (French) stands at 10,4 in line, facing 90°." in out.events[0].text
    round_trip(engine, state)


def test_place_takes_a_facing_and_a_formation(engine: NsrEngine) -> None:
    state = act(
        engine, setting_out(engine), "place", "French", unit="1er Ligne", at="10,4", facing="0", formation="column"
    ).state
    placed = onmap.placement_of(state, get(state, "1er Ligne"))
    assert placed is not None and placed.formation == "march_column" and placed.facing == 0.0
    assert get(state, "1er Ligne").formation == "march_column"
    state = act(engine, state, "place", "French", unit="Hussars", at="20,4", facing="20,30").state
    assert onmap.field_of(state).facing["Hussars"] == pytest.approx(90.0)


def test_placing_is_refused_off_the_zone_the_table_the_pond_and_another_unit(engine: NsrEngine) -> None:
    state = act(engine, setting_out(engine), "place", "French", unit="1er Ligne", at="10,4").state
    refuse(engine, state, "place", "outside French's deployment zone", "French", unit="Hussars", at="10,20")
    refuse(engine, state, "place", "would stand off the 48 by 36 inch table", "French", unit="Hussars", at="1,4")
    refuse(engine, state, "place", "would stand in the pond", "French", unit="Hussars", at="32,4")
    refuse(engine, state, "place", "on 1er Ligne's ground", "French", unit="Hussars", at="12,4")
    refuse(engine, state, "place", "already placed", "French", unit="1er Ligne", at="30,4")
    refuse(engine, state, "place", "Only Allied's player", "French", unit="33rd Foot", at="10,32")
    refuse(
        engine,
        state,
        "place",
        "may form line, march column, open order",
        "French",
        unit="Hussars",
        at="20,4",
        formation="square",
    )
    refuse(
        engine,
        state,
        "place",
        "may form line, march column, open order, not wedge",
        "French",
        unit="Hussars",
        at="20,4",
        formation="wedge",
    )
    refuse(engine, state, "place", "facing in degrees", "French", unit="Hussars", at="20,4", facing="north")
    refuse(engine, state, "place", "Name a unit", "French", at="20,4")
    # touching is not overlapping: the hussars' line of 6 stands edge to edge with the French line
    act(engine, state, "place", "French", unit="Hussars", at="16,5")


def test_deploy_sets_out_a_side_and_the_last_unit_placed_turns_the_first_card(engine: NsrEngine) -> None:
    state = act(engine, setting_out(engine), "deploy", "French").state
    assert set(onmap.field_of(state).positions) == {"1er Ligne", "Hussars"}
    zone = zone_shape(onmap.field_of(state).map, "French")
    assert zone is not None and all(zone.buffer(1e-6).covers(p) for p in prints(state).values())
    assert engine.whose_turn(state) == "Allied" and state.phase == "deployment"
    refuse(engine, state, "deploy", "All of French's units are already placed", "French")
    out = act(engine, state, "deploy", "Allied", cards=[FIRST])
    state = out.state
    assert state.phase == "movement" and state.card == FIRST and out.pending is not None
    assert out.pending.decider == "French"
    assert_apart(state)
    refuse(engine, state, "place", "Waiting for French", "French", unit="1er Ligne", at="10,4")
    chosen = act(engine, state, "choose", "French", choice="1er Ligne").state
    refuse(engine, chosen, "place", "deployment is over", "French", unit="1er Ligne", at="10,4")
    round_trip(engine, state)


def test_hold_while_setting_out_deploys_the_acting_side(engine: NsrEngine) -> None:
    """An absent side's deadline (the pass action) sets out its units."""
    state = act(engine, setting_out(engine), "place", "French", unit="1er Ligne", at="10,4").state
    state = act(engine, state, "hold", "French").state
    assert "Hussars" in onmap.field_of(state).positions and engine.whose_turn(state) == "Allied"
    refuse(engine, state, "hold", "Your units are all on the map", "French")


def test_a_table_battle_has_no_map_to_place_on(engine: NsrEngine) -> None:
    state = engine.start(SPECS, ScriptedDice(cards=[FIRST])).state
    assert state.field is None
    state = act(engine, state, "choose", "French", choice="1er Ligne").state
    refuse(engine, state, "place", "played on a table", "French", unit="1er Ligne", at="10,4")
    refuse(engine, state, "deploy", "played on a table", "French")


# --- /nsr form ----------------------------------------------------------------------------------------


def on_the_map(engine: NsrEngine, places: dict[str, str]) -> NsrState:
    """Every unit placed where ``places`` says (north-facing French, south-facing Allies), the first
    card turned and the 1er Ligne chosen to act on it."""
    state = setting_out(engine)
    for name, at in places.items():
        side = get(state, name).side
        state = engine.act(state, Action("place", side, {"unit": name, "at": at}), ScriptedDice(cards=[FIRST])).state
    assert state.phase == "movement"
    return act(engine, state, "choose", "French", choice="1er Ligne").state


PLACES = {"1er Ligne": "10,4", "Hussars": "20,4", "33rd Foot": "10,32", "95th": "30,32"}


def moved_on(engine: NsrEngine, where: dict[str, str]) -> NsrState:
    """:func:`on_the_map`, then units set down elsewhere (outside the zones) as a staged test needs."""
    state = on_the_map(engine, PLACES)
    field = onmap.field_of(state)
    for name, at in where.items():
        x, y = (float(v) for v in at.split(","))
        field.positions[name] = [x, y]
    assert_apart(state)
    return state


def test_form_reshapes_the_unit_on_its_centre(engine: NsrEngine) -> None:
    """A-NSR-34: from a line 6 by 2 to a march column 4 wide and 3 deep, on the same centre."""
    state = on_the_map(engine, PLACES)
    out = act(engine, state, "form", "French", formation="column", cards=["KH"])
    placed = onmap.placement_of(out.state, get(out.state, "1er Ligne"))
    assert placed is not None and placed.formation == "march_column" and size(placed) == (4.0, 3.0)
    assert onmap.at(placed.centre) == "10,4"
    assert "forms march column (4 by 3 inches at 10,4)" in out.events[0].text
    round_trip(engine, out.state)


def test_form_is_refused_when_the_new_shape_overlaps_a_unit_or_leaves_the_table(engine: NsrEngine) -> None:
    crowded = on_the_map(engine, {**PLACES, "Hussars": "10,6.5"})
    refuse(engine, crowded, "form", "on Hussars' ground", "French", formation="square")
    edge = on_the_map(engine, {**PLACES, "1er Ligne": "10,1"})
    refuse(engine, edge, "form", "would stand off the 48 by 36 inch table", "French", formation="square")


def test_form_on_a_table_is_as_before(engine: NsrEngine) -> None:
    state = engine.start(SPECS, ScriptedDice(cards=[FIRST])).state
    state = act(engine, state, "choose", "French", choice="1er Ligne").state
    out = act(engine, state, "form", "French", formation="column", cards=["KH"])
    assert out.events[0].text == "1er Ligne forms march column."


# --- properties ----------------------------------------------------------------------------------------

FORMATIONS = {"1er Ligne": ["line", "march_column", "square"], "Hussars": ["line", "march_column", "open_order"]}


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    tries=st.lists(
        st.tuples(
            st.sampled_from(["1er Ligne", "Hussars"]),
            st.floats(-2, 50),
            st.floats(-2, 10),
            st.sampled_from([0.0, 45.0, 90.0, 133.0, 270.0]),
            st.integers(0, 2),
        ),
        max_size=6,
    ),
    reshapes=st.lists(st.integers(0, 2), max_size=3),
)
def test_footprints_never_overlap_after_legal_placements_and_reshapes(
    engine: NsrEngine, tries: list[tuple[str, float, float, float, int]], reshapes: list[int]
) -> None:
    state = setting_out(engine)
    for name, x, y, facing, shape in tries:
        params = {"unit": name, "at": f"{x:.2f},{y:.2f}", "facing": str(facing), "formation": FORMATIONS[name][shape]}
        try:
            state = engine.act(state, Action("place", "French", params), ScriptedDice()).state
        except Exception as exc:  # only a refusal in one sentence
            assert type(exc).__name__ == "RuleError", exc
        assert_apart(state)
    before = snapshot(engine, state)
    if any(u.side == "French" for u in onmap.waiting_to_place(state)):
        state = engine.act(state, Action("deploy", "French", {}), ScriptedDice()).state
    state = engine.act(state, Action("deploy", "Allied", {}), ScriptedDice(cards=[FIRST])).state
    assert before != snapshot(engine, state)
    assert_apart(state)
    state = act(engine, state, "choose", "French", choice="1er Ligne").state
    for shape in reshapes:
        wanted = FORMATIONS["1er Ligne"][shape]
        if wanted == get(state, "1er Ligne").formation:
            continue
        try:
            state = engine.act(state, Action("form", "French", {"formation": wanted}), ScriptedDice(cards=["KH"])).state
        except Exception as exc:
            assert type(exc).__name__ == "RuleError", exc
            continue
        assert_apart(state)
        break
    round_trip(engine, state)


# --- moving on the ground --------------------------------------------------------------------------


def moved_to(state: NsrState, name: str) -> str:
    return onmap.at(onmap.placement_of(state, get(state, name)).centre)  # type: ignore[union-attr]


def test_a_move_rolls_the_chart_and_goes_along_the_path(engine: NsrEngine) -> None:
    """A-NSR-35: a line moves cross-country, 2D6; the centre goes as far as the dice say."""
    state = on_the_map(engine, PLACES)
    out = act(engine, state, "move", "French", to="10,12", dice=[3, 5], cards=["KH"])
    assert moved_to(out.state, "1er Ligne") == "10,12"
    assert "2D6 3+5 = 8 → up to 8″; moves 8″ to 10,12." in out.events[0].text
    out = act(engine, state, "move", "French", via="16,10", to="20,12", dice=[1, 2], cards=["KH"])
    assert moved_to(out.state, "1er Ligne") == "12.12,6.12"
    assert "moves 3″ to 12.12,6.12, short of 20,12." in out.events[0].text
    round_trip(engine, out.state)


def test_the_road_column_when_the_whole_path_is_on_the_road(engine: NsrEngine) -> None:
    """Mounted in march column: 5D6 on the road, 4D6 once the path leaves it."""
    state = setting_out(engine)
    state = act(engine, state, "place", "French", unit="Hussars", at="24,4", formation="column").state
    for name, at in (("1er Ligne", "10,4"), ("33rd Foot", "10,32"), ("95th", "36,32")):
        state = engine.act(
            state, Action("place", get(state, name).side, {"unit": name, "at": at}), ScriptedDice(cards=[FIRST])
        ).state
    state = act(engine, state, "choose", "French", choice="Hussars").state
    out = act(engine, state, "move", "French", to="24,20", dice=[1] * 5, cards=["KH"])
    assert "(march column, road)" in out.events[0].text and moved_to(out.state, "Hussars") == "24,9"
    out = act(engine, state, "move", "French", to="30,14", dice=[1] * 4, cards=["KH"])
    assert "(march column, cross country)" in out.events[0].text


def test_rough_ground_under_the_move_takes_the_highest_die(engine: NsrEngine) -> None:
    state = on_the_map(engine, PLACES)
    out = act(engine, state, "move", "French", to="10,14", dice=[6, 2], cards=["KH"])
    assert "−6 (rough terrain)" in out.events[0].text and "rough ground: the copse" in out.events[0].text
    assert moved_to(out.state, "1er Ligne") == "10,6"


def test_toward_a_unit_stops_where_the_footprints_touch(engine: NsrEngine) -> None:
    state = moved_on(engine, {"33rd Foot": "30,32", "95th": "40,32", "1er Ligne": "30,12"})
    out = act(engine, state, "move", "French", toward="33rd Foot", dice=[6, 6], cards=["KH"])
    assert moved_to(out.state, "1er Ligne") == "30,24"
    out = act(engine, state, "move", "French", toward="30,30", distance=4, dice=[6, 6], cards=["KH"])
    assert moved_to(out.state, "1er Ligne") == "30,16"
    refuse(engine, state, "move", "cannot move toward itself", "French", toward="1er Ligne")


def test_a_move_is_refused_before_any_die_through_units_water_or_off_the_table(engine: NsrEngine) -> None:
    state = moved_on(engine, {"Hussars": "10,6.5"})
    refuse(engine, state, "move", "path runs through Hussars", "French", to="10,20")
    refuse(engine, state, "move", "would stand in the pond", "French", via="20,12", to="33,4")
    refuse(engine, state, "move", "would stand off the 48 by 36 inch table", "French", to="1,12")
    refuse(engine, state, "move", "On the map the ground says the going", "French", to="16,12", going="road")
    refuse(engine, state, "move", "On the map, say where 1er Ligne goes", "French")
    refuse(engine, state, "move", "already stands at 10,4", "French", to="10,4")
    refuse(engine, state, "move", "on Hussars' ground", "French", to="16,12", formation="square")


def test_a_move_on_a_table_is_as_before(engine: NsrEngine) -> None:
    state = engine.start(SPECS, ScriptedDice(cards=[FIRST])).state
    state = act(engine, state, "choose", "French", choice="1er Ligne").state
    out = act(engine, state, "move", "French", dice=[3, 5], cards=["KH"])
    assert out.events[0].text == "1er Ligne moves (line, cross country): 2D6 3+5 = 8 → up to 8″."


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    x=st.floats(-5, 55),
    y=st.floats(-5, 40),
    via=st.none() | st.tuples(st.floats(0, 48), st.floats(0, 36)),
    dice=st.tuples(st.integers(1, 6), st.integers(1, 6)),
    shape=st.sampled_from(["", "march_column", "square"]),
)
def test_footprints_never_overlap_after_a_legal_move(
    engine: NsrEngine, x: float, y: float, via: tuple[float, float] | None, dice: tuple[int, int], shape: str
) -> None:
    state = moved_on(engine, {"33rd Foot": "12,20", "95th": "30,14"})
    params: dict[str, Any] = {"to": f"{x:.2f},{y:.2f}"}
    if via is not None:
        params["via"] = f"{via[0]:.2f},{via[1]:.2f}"
    if shape:
        params["formation"] = shape
    try:
        out = engine.act(state, Action("move", "French", params), ScriptedDice(list(dice), ["KH"]))
    except Exception as exc:
        assert type(exc).__name__ == "RuleError", exc
        return
    assert_apart(out.state)
    round_trip(engine, out.state)


# --- fire measured ------------------------------------------------------------------------------------


def firing(engine: NsrEngine, where: dict[str, str], active: str = "1er Ligne") -> NsrState:
    state = moved_on(engine, where)
    state.phase, state.active, state.card, state.pending = "fire", active, "2S", None
    return state


def test_the_seeds_eleven_muskets_at_a_unit_in_the_open(engine: NsrEngine) -> None:
    """Seed, firing example: eleven French Line muskets at a class I target, a 4: 1/4, two hits.
    A-NSR-36: the range from the front rank's heads (y 4.5) to the target's front edge (y 15)."""
    state = firing(engine, {"1er Ligne": "20,4", "Hussars": "40,4", "33rd Foot": "20,16"})
    out = act(engine, state, "fire", "French", target="33rd Foot", firers=11, dice=[4], cards=["2C", "3C", "KH"])
    assert (
        "11 muskets, class I, 10.5″ (from its nearest figure to 33rd Foot's edge); die 4 reads column 2-5: 1/4 → 2 hits."
        in out.events[0].text
    )


def test_the_class_follows_the_ground_most_of_the_target_stands_on(engine: NsrEngine) -> None:
    state = firing(engine, {"1er Ligne": "20,4", "Hussars": "40,4", "33rd Foot": "10,18", "95th": "30,16"})
    tables = engine.tables
    assert onmap.target_class(tables, state, get(state, "1er Ligne"), get(state, "33rd Foot")) == (
        "III",
        "in the copse",
    )
    assert onmap.target_class(tables, state, get(state, "1er Ligne"), get(state, "95th"))[0] == "II"
    get(state, "95th").set_marks(prone=True)
    assert onmap.target_class(tables, state, get(state, "1er Ligne"), get(state, "95th")) == ("III", "prone")


def test_a_unit_behind_a_solid_wall_is_class_iv_from_across_it(engine: NsrEngine) -> None:
    """Touching the wall, its two ranks within a base depth of it; the wall between the units."""
    state = firing(engine, {"1er Ligne": "40,8", "Hussars": "20,4", "33rd Foot": "40,21.25"})
    onmap.field_of(state).facing["33rd Foot"] = 270.0
    tables = engine.tables
    assert onmap.target_class(tables, state, get(state, "1er Ligne"), get(state, "33rd Foot")) == (
        "IV",
        "behind the wall",
    )
    refuse(engine, state, "fire", "only artillery may fire at it", "French", target="33rd Foot")
    out = act(engine, state, "fire", "French", target="33rd Foot", exposed="yes", dice=[1], cards=["KH", "2C"])
    assert "class IV, 11.75″ (from its nearest figure" in out.events[0].text
    onmap.field_of(state).positions["1er Ligne"] = [40.0, 30.0]
    onmap.field_of(state).facing["1er Ligne"] = 270.0
    assert onmap.target_class(tables, state, get(state, "1er Ligne"), get(state, "33rd Foot"))[0] == "I"


def test_fire_on_the_map_refuses_typed_range_and_class_and_out_of_range(engine: NsrEngine) -> None:
    state = firing(engine, {"1er Ligne": "20,4", "Hussars": "40,4", "33rd Foot": "20,16"})
    refuse(engine, state, "fire", "the bot measures the range", "French", target="33rd Foot", range=8)
    refuse(engine, state, "fire", "the bot measures the class", "French", target="33rd Foot", **{"class": "I"})
    far = firing(engine, {"1er Ligne": "20,4", "Hussars": "40,4", "33rd Foot": "20,34"})
    refuse(engine, far, "fire", "out of range", "French", target="33rd Foot")


# --- charges, fall-backs and routs ----------------------------------------------------------------


def facing_south(state: NsrState, *names: str) -> None:
    for name in names:
        onmap.field_of(state).facing[name] = 270.0


def centre_of(state: NsrState, name: str) -> tuple[float, float]:
    placed = onmap.placement_of(state, get(state, name))
    assert placed is not None
    return placed.centre.x, placed.centre.y


def test_a_charge_goes_straight_at_the_target_and_stops_two_inches_short(engine: NsrEngine) -> None:
    """A-NSR-37: 8 inches between the fronts less the 2 inch stop: the line's 3D6 (9) reach."""
    state = moved_on(engine, {"33rd Foot": "10,16"})
    out = act(engine, state, "charge", "French", target="33rd Foot", dice=[3, 3, 3], cards=["KH"])
    assert "3D6 3+3+3 = 9 → 9″; it stops 2″ short" in out.events[0].text
    assert "it faces 90° and moves 8″ to 10,12" in out.events[0].text
    assert moved_to(out.state, "1er Ligne") == "10,12" and out.state.charges[0].target == "33rd Foot"
    round_trip(engine, out.state)


def test_a_charge_short_of_the_target_moves_the_dice_and_fails(engine: NsrEngine) -> None:
    state = moved_on(engine, {"33rd Foot": "10,16"})
    out = act(engine, state, "charge", "French", target="33rd Foot", dice=[1, 1, 2], cards=["KH"])
    assert "short of the 8″ needed: it moves 4″ and the charge fails" in out.events[0].text
    assert moved_to(out.state, "1er Ligne") == "10,8" and out.state.charges == []


def test_a_charge_turns_to_face_its_target(engine: NsrEngine) -> None:
    state = moved_on(engine, {"33rd Foot": "22,14"})
    out = act(engine, state, "charge", "French", target="33rd Foot", dice=[6, 6, 6], cards=["KH"])
    placed = onmap.placement_of(out.state, get(out.state, "1er Ligne"))
    assert placed is not None and placed.facing == pytest.approx(39.8056, abs=1e-3)
    theirs = onmap.placement_of(out.state, get(out.state, "33rd Foot"))
    assert theirs is not None
    assert footprint(placed).distance(footprint(theirs)) == pytest.approx(2.0, abs=1e-3)


def test_a_charge_on_the_map_is_refused_before_any_die(engine: NsrEngine) -> None:
    state = moved_on(engine, {"33rd Foot": "10,16"})
    refuse(engine, state, "charge", "bot measures the distance", "French", target="33rd Foot", distance=8)
    refuse(engine, state, "charge", "bot measures the going", "French", target="33rd Foot", going="road")
    far = moved_on(engine, {"33rd Foot": "10,32"})
    refuse(
        engine, far, "charge", "out of 1er Ligne's charge reach: 24.0″ to go, 18″ at most", "French", target="33rd Foot"
    )
    blocked = moved_on(engine, {"33rd Foot": "10,16", "Hussars": "10,9"})
    refuse(engine, blocked, "charge", "charge at 33rd Foot runs into Hussars", "French", target="33rd Foot")
    wood = moved_on(engine, {"33rd Foot": "10,26", "1er Ligne": "10,8"})
    out = act(engine, wood, "charge", "French", target="33rd Foot", dice=[6, 6, 6], cards=["KH"])
    assert "−6 (rough terrain)" in out.events[0].text


def charged(engine: NsrEngine, where: dict[str, str]) -> NsrState:
    """1er Ligne has charged the 33rd Foot (2 inches off) and the Hussars the 95th: close combat."""
    state = moved_on(engine, where)
    facing_south(state, "33rd Foot", "95th")
    state.charges = [Charge("1er Ligne", "33rd Foot"), Charge("Hussars", "95th")]
    state.phase, state.active, state.card, state.pending = "close_combat", "", "", None
    return state


def test_a_shaken_unit_falls_back_away_and_the_charger_takes_its_place(engine: NsrEngine) -> None:
    """A-NSR-38: 4D6 = 24 straight away from the charger, stopped by the table's north edge."""
    state = charged(engine, {"1er Ligne": "10,12", "33rd Foot": "10,16"})
    refuse(engine, state, "melee", "measures whether the charge reached", "French", unit="1er Ligne", reached="no")
    out = act(engine, state, "melee", "French", unit="1er Ligne", dice=[1, 10, 6, 6, 6, 6])
    text = texts(out)
    assert "it moves 19″ back to 10,35, stopped by the table edge" in text
    assert "1er Ligne occupies 33rd Foot's position (33rd Foot gave way): 1er Ligne moves 4″ to 10,16." in text
    assert centre_of(out.state, "33rd Foot") == pytest.approx((10.0, 35.0), abs=0.01)
    assert get(out.state, "33rd Foot").shaken
    assert_apart(out.state)
    round_trip(engine, out.state)


def test_a_charger_failing_to_close_in_falls_back_six_inches(engine: NsrEngine) -> None:
    state = charged(engine, {"1er Ligne": "10,12", "33rd Foot": "10,16"})
    out = act(engine, state, "melee", "French", unit="1er Ligne", dice=[10])
    assert "it falls back 6″ (moves 6″ back to 10,6) and is pinned" in texts(out)
    assert moved_to(out.state, "1er Ligne") == "10,6" and get(out.state, "1er Ligne").pinned


def test_a_charge_whose_target_moved_away_occupies_where_it_stood(engine: NsrEngine) -> None:
    state = charged(engine, {"1er Ligne": "10,12", "33rd Foot": "10,20"})
    for f in get(state, "33rd Foot").figures:
        f.status = "killed"
    out = act(engine, state, "melee", "French", unit="1er Ligne")
    assert "moved away or fallen): 1er Ligne moves 8″ to 10,20." in texts(out)
    state = charged(engine, {"1er Ligne": "10,12", "33rd Foot": "10,20"})
    out = act(engine, state, "melee", "French", unit="1er Ligne")
    assert "moved away or fallen)." in texts(out) and moved_to(out.state, "1er Ligne") == "10,12"


def test_a_charged_unit_that_lost_figures_where_it_stood_is_still_fought(engine: NsrEngine) -> None:
    """Seed 3.A.1-2: fire thinned the 33rd Foot (its line, side on to the charge, now 2 inches wide,
    not 6) but moved none of it: the charger must still pass its close-in test, not occupy."""
    state = moved_on(engine, {"33rd Foot": "10,18"})
    onmap.field_of(state).facing["33rd Foot"] = 0.0
    out = act(engine, state, "charge", "French", target="33rd Foot", dice=[6, 6, 6], cards=["KH"])
    state = out.state
    for f in get(state, "33rd Foot").figures[:8]:
        f.status = "killed"
    state.charges.append(Charge("Hussars", "95th"))
    state.phase, state.active, state.card, state.pending = "close_combat", "", "", None
    out = act(engine, state, "melee", "French", unit="1er Ligne", dice=[10])
    assert "occupies" not in texts(out)
    assert "it falls back 6″ (moves 6″ back to 10,6) and is pinned" in texts(out)
    round_trip(engine, out.state)


def test_the_charger_closes_to_touch_and_defenders_within_three_inches_move_up(engine: NsrEngine) -> None:
    """Seed 3.A.4: bases touching; the 95th, an inch from the 33rd Foot, moves up to it."""
    state = charged(engine, {"1er Ligne": "10,12", "33rd Foot": "10,16", "95th": "18,19"})
    state.charges = state.charges[:1]
    text = onmap.close_up(engine.tables, state, get(state, "1er Ligne"), get(state, "33rd Foot"))
    assert text.startswith("1er Ligne closes 2″ to 10,14")
    assert "95th moves up: 95th closes" in text
    mine, theirs, support = (
        footprint(onmap.placement_of(state, get(state, n)))  # type: ignore[arg-type]
        for n in ("1er Ligne", "33rd Foot", "95th")
    )
    assert mine.distance(theirs) < 0.01 and support.distance(theirs) < 0.01
    assert_apart(state)


def test_a_routing_unit_runs_for_the_nearest_edge_and_off_it(engine: NsrEngine) -> None:
    state = moved_on(engine, {"33rd Foot": "10,30", "95th": "40,20"})
    assert onmap.rout(engine.tables, state, get(state, "33rd Foot"), 3) == "it runs 3″ to 10,33"
    assert onmap.rout(engine.tables, state, get(state, "33rd Foot"), 4) == "it runs off the table, gone for good"
    assert "33rd Foot" not in onmap.field_of(state).positions
    blocked = moved_on(engine, {"33rd Foot": "10,28", "95th": "10,33"})
    assert (
        onmap.rout(engine.tables, blocked, get(blocked, "33rd Foot"), 12) == "it runs 2.5″ to 10,30.5, stopped by 95th"
    )


def test_a_joker_fall_back_moves_away_from_the_nearest_enemy(engine: NsrEngine) -> None:
    state = moved_on(engine, {"33rd Foot": "10,16"})
    text, left = onmap.fall_back(engine.tables, state, get(state, "1er Ligne"), None, 7)
    assert text == "moves 3″ back to 10,1, stopped by the table edge" and left is not None
    assert_apart(state)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    x=st.floats(4, 44),
    y=st.floats(8, 30),
    facing=st.sampled_from([0.0, 90.0, 180.0, 270.0, 33.0]),
    seed=st.integers(0, 10_000),
)
def test_no_overlap_after_legal_charges_and_their_results(
    engine: NsrEngine, x: float, y: float, facing: float, seed: int
) -> None:
    state = on_the_map(engine, PLACES)
    onmap.field_of(state).positions["33rd Foot"] = [round(x, 2), round(y, 2)]
    onmap.field_of(state).facing["33rd Foot"] = facing
    try:
        assert_apart(state)
    except (AssertionError, RuleError):
        return
    dice = RandomDice(seed)
    try:
        state = engine.act(state, Action("charge", "French", {"target": "33rd Foot"}), dice).state
    except RuleError:
        return
    assert_apart(state)
    if state.charges:
        state.charges.append(Charge("Hussars", "95th"))
        state.phase, state.active, state.card, state.pending = "close_combat", "", "", None
        state = engine.act(state, Action("melee", "French", {"unit": "1er Ligne"}), dice).state
        assert_apart(state)
        for u in state.units:
            assert u.name in onmap.field_of(state).positions or u.routed or not u.standing()
    round_trip(engine, state)


# --- facing ---------------------------------------------------------------------------------------------


def test_form_turns_a_unit_in_place(engine: NsrEngine) -> None:
    """A-NSR-39: a line 6 by 2 turned to face east stands 2 by 6 on the same centre."""
    state = on_the_map(engine, PLACES)
    out = act(engine, state, "form", "French", facing="0", cards=["KH"])
    assert "1er Ligne turns to face 0°." in out.events[0].text
    placed = onmap.placement_of(out.state, get(out.state, "1er Ligne"))
    assert placed is not None and footprint(placed).bounds == pytest.approx((9.0, 1.0, 11.0, 7.0))
    out = act(engine, state, "form", "French", facing="20,4", formation="column", cards=["KH"])
    assert "forms march column (4 by 3 inches at 10,4, facing 0°)" in out.events[0].text
    round_trip(engine, out.state)


def test_a_move_takes_its_new_facing_at_the_start(engine: NsrEngine) -> None:
    state = on_the_map(engine, PLACES)
    out = act(engine, state, "move", "French", to="10,10", facing="45", dice=[3, 5], cards=["KH"])
    assert onmap.field_of(out.state).facing["1er Ligne"] == 45.0 and moved_to(out.state, "1er Ligne") == "10,10"


def test_turning_is_refused_onto_other_ground_and_on_a_table(engine: NsrEngine) -> None:
    state = moved_on(engine, {"Hussars": "10,7"})
    refuse(engine, state, "form", "on Hussars' ground", "French", facing="0")
    refuse(engine, state, "form", "the way it faces, or whether it goes prone", "French")
    table = engine.start(SPECS, ScriptedDice(cards=[FIRST])).state
    table = act(engine, table, "choose", "French", choice="1er Ligne").state
    refuse(engine, table, "form", "players turn their units themselves", "French", facing="0")
    refuse(engine, table, "move", "players turn their units themselves", "French", facing="0")


# --- the picture --------------------------------------------------------------------------------------


def test_field_view_draws_every_unit_on_the_map_as_its_block(engine: NsrEngine) -> None:
    """A-NSR-40: outline and figures from the formation, strength, facing, marks; no tokens."""
    state = charged(engine, {"1er Ligne": "10,12", "33rd Foot": "10,16"})
    get(state, "33rd Foot").set_marks(shaken=True, prone=True)
    view = engine.field_view(state, "1er Ligne")
    assert view is not None and view.tokens == () and view.distances == "edge" and not view.zones
    marks = {m.name: m for m in view.units}
    assert set(marks) == {"1er Ligne", "Hussars", "33rd Foot", "95th"}
    ligne = marks["1er Ligne"]
    assert ligne.strength == 12 and ligne.formation == "line" and ligne.facing == 90.0
    assert len(ligne.figures) == 12 and len(ligne.outline) == 4 and ligne.marks == ("charging",)
    assert marks["33rd Foot"].marks == ("shaken", "down")
    assert view.title == "Test valley · turn 1 · close combat" and "1er Ligne charging 33rd Foot" in view.notes
    assert view.focus is not None and view.focus.bands[-1].label == "musket range"
    assert view.focus.move_left == 0 and view.focus.reach == ()  # no unit moves in close combat
    del onmap.field_of(state).positions["95th"]
    view = engine.field_view(state)
    assert view is not None and "95th" not in {m.name for m in view.units}
    table = engine.start(SPECS, ScriptedDice(cards=[FIRST])).state
    assert engine.field_view(table) is None


def test_field_view_draws_as_a_picture(engine: NsrEngine) -> None:
    from bot.render.battlefield import draw_field

    view = engine.field_view(charged(engine, {"1er Ligne": "10,12", "33rd Foot": "10,16"}))
    assert view is not None
    assert draw_field(view, engine.terrain()).startswith(b"\x89PNG")


def test_the_picture_follows_deployment_and_the_movement_phase(engine: NsrEngine) -> None:
    state = setting_out(engine)
    for name, at in list(PLACES.items())[:-1]:
        state = act(engine, state, "place", get(state, name).side, unit=name, at=at).state
    out = act(engine, state, "place", "Allied", unit="95th", at=PLACES["95th"], cards=[FIRST])
    assert engine.moved_on(state, out.events)
    state = act(engine, out.state, "choose", "French", choice="1er Ligne").state
    out = act(engine, state, "move", "French", to="10,8", dice=[3, 5], cards=["KH"])
    assert not engine.moved_on(state, out.events)
    ended = [Event("phase", "Every unit has moved.", {"turn": 1, "phase": "leaders"})]
    assert engine.moved_on(state, ended)
    table = engine.start(SPECS, ScriptedDice(cards=[FIRST])).state
    assert not engine.moved_on(table, ended)


# --- shipped maps ---------------------------------------------------------------------------------------

SHIPPED = ["ridge", "river-crossing", "village"]


def test_nsr_plays_on_the_map_with_three_shipped_maps(engine: NsrEngine) -> None:
    assert engine.map_play is not None and engine.map_play.package == "rules.nsr" and engine.plays_on_map
    assert engine.scenarios() == SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_each_shipped_map_loads_holds_every_kind_and_deploys_both_sides(engine: NsrEngine, name: str) -> None:
    """Each map in rules/nsr/maps loads by name, is about 48 by 36 inches, has every kind NSR's terrain table knows and a zone for each side, and both
    sides deploy in it."""
    from bot.render.battlefield import draw_field

    assert engine.scenarios() == SHIPPED
    data = engine.scenario(name)
    assert (data.width, data.height) == (48, 36)
    assert {f.kind for f in data.features} == set(engine.terrain())
    assert set(data.zones) == set(engine.sides())
    assert read_map(map_file(data), engine.sides(), engine.terrain()) == data
    state = engine.start_on_map(SPECS, ScriptedDice(), data).state
    for side in engine.sides():
        zone = zone_shape(data, side)
        assert zone is not None and zone.area >= 48 * 8
        state = engine.act(
            state, Action("deploy", side, {}), ScriptedDice(cards=[FIRST] if side == "Allied" else [])
        ).state
    assert state.phase == "movement"
    assert_apart(state)
    round_trip(engine, state)
    view = engine.field_view(state)
    assert view is not None and len(view.units) == len(SPECS)
    assert draw_field(view, engine.terrain()).startswith(b"\x89PNG")


def test_a_charge_from_behind_the_targets_rear_is_measured_as_from_the_rear(engine: NsrEngine) -> None:
    """Seed 3.C.1: set off where the target could not see it (behind its rear edge): from the rear."""
    state = moved_on(engine, {"33rd Foot": "10,16"})
    onmap.field_of(state).facing["33rd Foot"] = 90.0
    out = act(engine, state, "charge", "French", target="33rd Foot", dice=[3, 3, 3], cards=["KH"])
    assert out.state.charges[0].rear is True
    facing_south(state, "33rd Foot")
    out = act(engine, state, "charge", "French", target="33rd Foot", dice=[3, 3, 3], cards=["KH"])
    assert out.state.charges[0].rear is False
    staged = charged(engine, {"1er Ligne": "10,12", "33rd Foot": "10,16"})
    refuse(engine, staged, "melee", "came from the rear: leave rear out", "French", unit="1er Ligne", rear="yes")


def test_joker_movement_6_charges_the_nearest_enemy_unit(engine: NsrEngine) -> None:
    state = moved_on(engine, {"33rd Foot": "10,16", "95th": "30,14"})
    get(state, "1er Ligne").joker = 6
    refuse(engine, state, "charge", "must charge the nearest enemy unit, 33rd Foot", "French", target="95th")
    out = act(engine, state, "charge", "French", target="33rd Foot", dice=[3, 3, 3], cards=["KH"])
    assert out.state.charges[0].target == "33rd Foot"


def test_cover_and_uphill_in_close_combat_are_read_from_the_ground(engine: NsrEngine) -> None:
    """A-NSR-41: the wall between the units, an inch from the defender's front: defending a linear
    object; no hill: level."""
    state = charged(engine, {"1er Ligne": "40,17.5", "33rd Foot": "40,21.25"})
    ligne, foot = get(state, "1er Ligne"), get(state, "33rd Foot")
    assert onmap.melee_ground(engine.tables, state, ligne, foot) == ("linear", "none")
    assert onmap.melee_ground(engine.tables, state, foot, ligne) == ("open", "none")
    refuse(engine, state, "melee", "reads the cover from the ground", "French", unit="1er Ligne", cover="open")
    refuse(engine, state, "melee", "reads the uphill from the ground", "French", unit="1er Ligne", uphill="charger")
    open_ground = charged(engine, {"1er Ligne": "10,12", "33rd Foot": "10,16"})
    assert onmap.melee_ground(
        engine.tables, open_ground, get(open_ground, "1er Ligne"), get(open_ground, "33rd Foot")
    ) == (
        "open",
        "none",
    )


def test_the_unit_standing_higher_fights_uphill(engine: NsrEngine) -> None:
    state = charged(engine, {"1er Ligne": "10,12", "33rd Foot": "10,16"})
    hill = {"kind": "hill", "name": "the rise", "area": [[0, 10], [20, 10], [20, 13], [0, 13]]}
    field = onmap.field_of(state)
    state.field = type(field)(
        read_map({**TEST_MAP, "features": [*TEST_MAP["features"], hill]}, engine.sides(), engine.terrain()),
        field.positions,
        field.facing,
    )
    ligne, foot = get(state, "1er Ligne"), get(state, "33rd Foot")
    assert onmap.melee_ground(engine.tables, state, ligne, foot) == ("open", "charger")
    assert onmap.melee_ground(engine.tables, state, foot, ligne) == ("open", "defender")


def test_joker_movement_6_with_no_clear_way_to_the_nearest_enemy_may_hold(engine: NsrEngine) -> None:
    state = moved_on(engine, {"33rd Foot": "10,16", "Hussars": "10,9"})
    get(state, "1er Ligne").joker = 6
    refuse(engine, state, "charge", "runs into Hussars", "French", target="33rd Foot")
    assert "1er Ligne does not move." in act(engine, state, "hold", "French", cards=["KH"]).events[0].text
    far = moved_on(engine, {"33rd Foot": "10,32"})
    get(far, "1er Ligne").joker = 6
    refuse(engine, far, "hold", "must charge the nearest enemy unit", "French")
    out = act(engine, far, "charge", "French", target="33rd Foot", dice=[1, 1, 1], cards=["KH"])
    assert "short of the 24″ needed: it moves 2″ and the charge fails" in out.events[0].text


def test_a_random_battle_on_a_shipped_map_keeps_units_apart(engine: NsrEngine) -> None:
    """Charges, moves, fire and melee toward the nearest enemy on a shipped map, random dice: only
    refusals, never an overlap, every state saved and read back and drawn."""
    dice = RandomDice(0)
    state = engine.start_on_map(SPECS, dice, engine.scenario("ridge")).state
    for side in engine.sides():
        state = engine.act(state, Action("deploy", side, {}), dice).state
    done: set[str] = set()
    for _ in range(150):
        if engine.finished(state):
            break
        waiting = engine.pending(state)
        if waiting is not None:
            answer = {"choice": waiting.choices[0].value}
            state = engine.act(state, Action(waiting.resume_action, waiting.decider, answer), dice).state
            continue
        tries: list[tuple[str, dict[str, Any]]] = [("melee", {})]
        if state.phase in ("movement", "fire"):
            enemy = onmap.nearest_enemy(state, get(state, state.active))
            aim = {"target": enemy.name} if enemy is not None else {}
            tries = [("charge", aim), ("move", {"toward": enemy.name, "distance": 8})] if enemy else []
            tries = (tries if state.phase == "movement" else [("fire", aim)]) + [("hold", {})]
        for order, params in tries:
            try:
                state = engine.act(state, Action(order, None, params, True), dice).state
            except RuleError:
                continue
            done.add(order)
            break
        assert_apart(state)
        round_trip(engine, state)
        assert engine.field_view(state) is not None
    assert {"charge", "melee", "fire"} <= done


def test_a_charge_that_cannot_turn_to_face_its_target_says_so_before_any_die(engine: NsrEngine) -> None:
    """A-NSR-37: the charger turns on its centre to face the target first; a line along the table's
    south edge turned to face east would stand off the table, and the sentence says it is the turn."""
    state = moved_on(engine, {"1er Ligne": "10,1.5", "33rd Foot": "30,2"})
    refuse(
        engine,
        state,
        "charge",
        "1er Ligne cannot turn to face 33rd Foot for the charge: ",
        "French",
        target="33rd Foot",
    )
    hussars = moved_on(engine, {"Hussars": "10,1.5", "33rd Foot": "30,2", "1er Ligne": "30,8"})
    hussars.active = "Hussars"
    refuse(
        engine,
        hussars,
        "charge",
        "Hussars cannot turn to face 33rd Foot for the charge: Hussars in line, 6″ wide and 2″ deep, facing",
        "French",
        target="33rd Foot",
    )
