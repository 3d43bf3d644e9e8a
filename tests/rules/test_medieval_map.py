"""The medieval game on the bot's map: deployment, then the roll-off; moves the bot measures (the
allowance, terrain costs, paths through water or bases refused, part move, shoot, move on); contact
as bases touching, also across an obstacle; range base to base, sight, cover and half range
measured for a shot; height and barricades in a fight; the knock back (A-MED-7) moving the figure;
the picture's view; the state saved and loaded; and a whole battle on a shipped map.

The readings are on docs/rules/medieval.md, "On the bot's map".
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.battlefield import FieldState, FieldView, MapData
from rules.core import Action, FigureSpec, RuleError
from rules.medieval import onmap
from rules.medieval.engine import MedievalEngine, make_engine
from rules.medieval.state import MedState
from tests.dice import ScriptedDice
from tests.rules.test_medieval_engine import edit, event, fig, kinds, play, refuse, roster

#: A 24-inch test table. Bases are 1" across (54 mm figures): a figure touching the hedge's far
#: side stands 0.875" from its middle line.
TEST_MAP: dict[str, Any] = {
    "name": "Test field",
    "table": {"width": 24, "height": 24},
    "features": [
        {"kind": "hedge", "name": "the hedge", "line": [[0, 12], [8, 12]]},
        {"kind": "wall", "name": "the wall", "line": [[16, 12], [24, 12]]},
        {"kind": "wood", "name": "the wood", "area": [[9, 14], [15, 14], [15, 20], [9, 20]]},
        {"kind": "water", "name": "the pond", "area": [[10, 6], [14, 6], [14, 9], [10, 9]]},
        {"kind": "rough", "name": "the bog", "area": [[1, 6], [6, 6], [6, 9], [1, 9]]},
        {"kind": "hill", "name": "the mound", "area": [[17, 5], [23, 5], [23, 9], [17, 9]]},
        {"kind": "barricade", "name": "the barricade", "line": [[16, 16], [23, 16]]},
        {"kind": "water", "name": "the well", "area": [[20, 1], [21, 1], [21, 2], [20, 2]]},
    ],
    "zones": {"red": [[0, 0], [24, 0], [24, 4], [0, 4]], "blue": [[0, 20], [24, 20], [24, 24], [0, 24]]},
}
RED = [
    ("Hugh", "Knight", {}),
    ("Walt", "Man at Arms", {"weapons": "bow+sword", "armour": "leather"}),
    ("Ned", "Man at Arms", {}),
]
BLUE = [
    ("Olaf", "Viking Warrior", {}),
    ("Sven", "Viking Warrior", {"weapons": "battleaxe+dagger"}),
    ("Bjorn", "custom", {"speed": 6, "bravery": 4, "shoot": 3, "fight": 3, "weapons": "bow", "armour": "none"}),
]
#: Where the game master places each figure: red along y=2, blue along y=22, 2" apart.
PLACES = {"Hugh": "2,2", "Walt": "4,2", "Ned": "6,2", "Olaf": "2,22", "Sven": "4,22", "Bjorn": "6,22"}


@pytest.fixture(scope="module")
def engine() -> MedievalEngine:
    return make_engine()


def the_map(engine: MedievalEngine) -> MapData:
    return engine.read_map(TEST_MAP)


def deploying(engine: MedievalEngine) -> MedState:
    out = engine.start_on_map(roster(RED, BLUE), ScriptedDice(), the_map(engine))
    return out.state


def on_map(engine: MedievalEngine, **where: tuple[float, float]) -> MedState:
    """Every figure placed by the game master, red winning the roll-off (6 against 1) and going
    first; then the named figures moved by hand to where a test needs them (contact follows)."""
    state = deploying(engine)
    names = list(PLACES)
    for name in names[:-1]:
        state = play(engine, state, "place", side=None, by_gm=True, figure=name, at=PLACES[name]).state
    state = play(engine, state, "place", 6, 1, side=None, by_gm=True, figure=names[-1], at=PLACES[names[-1]]).state
    state = play(engine, state, "order", side="red", choice="first").state
    return put(engine, state, **where)


def put(engine: MedievalEngine, state: MedState, **where: tuple[float, float]) -> MedState:
    data = engine.dump_state(state)
    for name, (x, y) in where.items():
        data["field"]["positions"][name] = [x, y]
    moved = engine.load_state(data)
    onmap.sync_contacts(engine.tables, moved)
    return moved


def at(state: MedState, name: str) -> tuple[float, float]:
    assert state.field is not None
    x, y = state.field.positions[name]
    return (round(x, 3), round(y, 3))


def shot(outcome: Any) -> dict[str, Any]:
    found: dict[str, Any] = event(outcome, "shot").data
    return found


def reasons(outcome: Any) -> dict[str, int]:
    return {m["reason"]: m["value"] for m in shot(outcome)["modifiers"]}


# --- the tables and the maps ----------------------------------------------------------------------


def test_the_engine_plays_on_the_map_with_three_shipped_maps(engine: MedievalEngine) -> None:
    assert engine.plays_on_map and engine.map_play is not None and engine.map_play.package == "rules.medieval"
    assert engine.scenarios() == ["ford", "village", "woodland-edge"]
    for name in engine.scenarios():
        data = engine.scenario(name)
        assert (data.width, data.height) == (48, 36) and set(data.zones) == {"red", "blue"}
    terrain = engine.terrain()
    assert {k for k, v in terrain.items() if v.cover == "soft"} == {"wood", "hedge", "fence"}
    assert {k for k, v in terrain.items() if v.cover == "hard"} == {"wall", "building", "rubble", "barricade"}
    assert {k for k, v in terrain.items() if v.move_cost is None} == {"water", "building"}
    assert terrain["hill"].height > 0


def test_bases_follow_the_ground_scale() -> None:
    assert onmap.radius(make_engine().tables) == 0.5
    big = make_engine({"ground_scale": "3-inch"})
    assert onmap.radius(big.tables) == 0.75
    out = big.start_on_map(roster(RED, BLUE), ScriptedDice(), big.read_map(TEST_MAP))
    assert "bases 1.5″ across" in out.events[0].text


@pytest.mark.parametrize(
    "house, fragment",
    [
        ({"base_radius": {"54mm": 5}}, "base_radius.54mm"),
        ({"base_radius": {"huge": 1}}, "base_radius.huge"),
        ({"cover_within_inches": -1}, "cover_within_inches"),
        ({"terrain": {"lava": {"move_cost": 3}}}, "terrain.lava"),
        ({"terrain": {"wood": {"move_cost": 0}}}, "terrain.wood.move_cost"),
    ],
)
def test_the_map_tables_are_checked(house: dict[str, Any], fragment: str) -> None:
    with pytest.raises(Exception) as caught:
        make_engine(house)
    assert fragment in " | ".join(caught.value.problems)  # type: ignore[attr-defined]


# --- deployment, then the roll-off ----------------------------------------------------------------


def test_a_battle_on_the_map_begins_with_placing_the_figures(engine: MedievalEngine) -> None:
    dice = ScriptedDice()
    out = engine.start_on_map(roster(RED, BLUE), dice, the_map(engine))
    state = out.state
    assert dice.rolls == [] and out.pending is None
    assert state.phase == "deployment" and isinstance(state.field, FieldState) and state.field.positions == {}
    assert kinds(out) == ["setup"] and "Test field" in out.events[0].text and "/map place" in out.events[0].text
    assert engine.whose_turn(state) == "red"  # its deadline, if the campaign keeps a pace, runs first
    assert engine.board(state).headline == "Placing the figures on the map: 0 of 6 placed"
    assert dict(engine.board(state).facts)["To place"] == "Hugh, Walt, Ned, Olaf, Sven, Bjorn"
    refuse(engine, state, "move", "still to place Hugh", side=None, by_gm=True, figure="Hugh", to="2,3")
    refuse(engine, state, "activate", "still to place", side="red", figure="Hugh")
    refuse(engine, state, "order", "still to place", side="red", choice="first")


def test_endturn_while_setting_up_deploys_the_sides_figures_still_to_place(engine: MedievalEngine) -> None:
    """What a deadline passing for an absent side does too (the pass action is /medieval endturn)."""
    state = deploying(engine)
    out = play(engine, state, "endturn", side="blue")
    assert out.events[0].text.startswith("blue deploys: Olaf ")
    refuse(engine, out.state, "endturn", "the battle begins once the rest are placed: Hugh", side="blue")
    assert engine.whose_turn(out.state) == "red"
    last = play(engine, out.state, "endturn", 5, 3, side=None, by_gm=True)
    assert last.state.phase == "order" and last.pending is not None


def test_placing_checks_the_zone_the_ground_the_bases_and_the_owner(engine: MedievalEngine) -> None:
    state = deploying(engine)
    refuse(engine, state, "place", "outside red's deployment zone", side="red", figure="Hugh", at="5,10")
    refuse(engine, state, "place", "Hugh cannot stand in the well", side="red", figure="Hugh", at="20.5,1.5")
    refuse(engine, state, "place", "off the 24 by 24 inch table", side="red", figure="Hugh", at="30,2")
    refuse(engine, state, "place", "Only red's player", side="blue", figure="Hugh", at="2,2")
    out = play(engine, state, "place", side="red", figure="Hugh", at="2,2")
    assert kinds(out) == ["placed"] and out.events[0].text == "Hugh (red) stands at 2.0,2.0."
    state = out.state
    assert at(state, "Hugh") == (2, 2)
    refuse(engine, state, "place", "would stand on Hugh's base", side="red", figure="Walt", at="2.8,2")
    refuse(engine, state, "place", "Hugh is already placed", side="red", figure="Hugh", at="8,2")
    state = play(engine, state, "place", side=None, by_gm=True, figure="Olaf", at="2,22").state
    assert at(state, "Olaf") == (2, 22)


def test_deploying_a_side_and_the_last_placing_rolls_off(engine: MedievalEngine) -> None:
    state = deploying(engine)
    with pytest.raises(RuleError, match="Only blue's player"):
        engine.act(state, Action("deploy", "red", {"side": "blue"}), ScriptedDice())
    out = play(engine, state, "deploy", side="red")
    assert kinds(out) == ["deployed"] and out.events[0].text.startswith("red deploys: Hugh ")
    state = out.state
    assert set(state.field.positions) == {"Hugh", "Walt", "Ned"}  # type: ignore[union-attr]
    refuse(engine, state, "deploy", "All of red's figures are already placed", side="red")
    assert not engine.moved_on(state, out.events), "a side deployed, the other still to place"
    out = play(engine, state, "deploy", 2, 2, 5, 3, side="blue")
    assert kinds(out) == ["deployed", "deployment-done", "roll-off", "roll-off"]
    assert engine.moved_on(state, out.events), "the last placing shows the battlefield"
    assert play.last_dice.reasons == ["Roll-off: red", "Roll-off: blue"] * 2  # type: ignore[attr-defined]
    assert out.pending is not None and out.pending.decider == "red"
    state = out.state
    assert state.phase == "order" and engine.whose_turn(state) == "red"
    refuse(engine, state, "place", "Waiting for red to choose", side="blue", figure="Olaf", at="2,22")
    state = play(engine, state, "order", side="red", choice="second").state
    assert (state.phase, state.active) == ("play", "blue")
    refuse(engine, state, "place", "the battle has begun", figure="Olaf", at="2,22")
    refuse(engine, state, "deploy", "the battle has begun")


def test_placing_on_a_table_game_is_refused(engine: MedievalEngine) -> None:
    state = engine.start(roster(), ScriptedDice(6, 1)).state
    state = play(engine, state, "order", side="red", choice="first").state
    refuse(engine, state, "place", "played on a table", figure="Hugh", at="2,2")
    refuse(engine, state, "deploy", "played on a table")


# --- moving ------------------------------------------------------------------------------------------


def test_a_move_to_a_point_within_the_allowance(engine: MedievalEngine) -> None:
    state = on_map(engine)
    refuse(engine, state, "move", "has 6.0″ of movement left; that path is 6.5″ long", figure="Ned", to="6,8.5")
    out = play(engine, state, "move", figure="Ned", to="6,8")
    moved = event(out, "move")
    assert moved.text == "Ned moves 6.0″ to 6.0,8.0 (0.0″ left)."
    assert moved.data["left"] == pytest.approx(0, abs=1e-4)
    assert at(out.state, "Ned") == (6, 8)
    refuse(engine, out.state, "move", "used all its 6″", figure="Ned", to="7,8")


def test_terrain_costs_movement(engine: MedievalEngine) -> None:
    state = on_map(engine)
    out = play(engine, state, "move", figure="Hugh", to="2,7")
    moved = event(out, "move")
    assert moved.data["distance"] == pytest.approx(5) and moved.data["used"] == pytest.approx(6)
    assert moved.text == "Hugh moves 5.0″ to 2.0,7.0 (6.0″ of movement through the terrain; 0.0″ left)."
    refuse(engine, state, "move", "that path is 5.5″ long and uses 7.0″ of movement", figure="Hugh", to="2,7.5")


def test_paths_through_water_are_refused_and_a_base_in_the_way_is_gone_round(engine: MedievalEngine) -> None:
    state = on_map(engine, Ned=(10, 4.5))
    refuse(engine, state, "move", "Ned cannot go that way: the path crosses the pond", figure="Ned", to="12,9.5")
    round_walt = event(play(engine, state, "move", figure="Hugh", to="6,2.5"), "move")
    assert ", going round Walt (" in round_walt.text and len(round_walt.data["path"]) > 2, round_walt.text
    assert round_walt.data["distance"] > 4.0 + 1e-3  # longer than the straight line from 2,2
    refuse(engine, state, "move", "off the 24 by 24 inch table", figure="Hugh", to="-1,2")
    refuse(engine, state, "move", "already stands at", figure="Hugh", to="2,2")
    out = play(engine, state, "move", figure="Ned", via="9.5,5.5 9.5,9.5")
    assert at(out.state, "Ned") == (9.5, 9.5) and event(out, "move").data["distance"] == pytest.approx(
        4 + 1.25**0.5, abs=1e-3
    )


def test_part_of_a_move_then_a_shot_then_the_rest(engine: MedievalEngine) -> None:
    state = on_map(engine, Olaf=(12, 12))
    state = play(engine, state, "move", figure="Walt", to="4,4").state
    out = play(engine, state, "shoot", 1, figure="Walt", target="Olaf", shots=1)
    assert shot(out)["range"] == pytest.approx(((8**2 + 8**2) ** 0.5) - 1, abs=1e-3)
    assert "(10.3″ base to base, in the open)" in event(out, "shot").text
    state = out.state
    out = play(engine, state, "move", figure="Walt", to="8,4")
    assert "(0.0″ left)" in event(out, "move").text
    refuse(engine, out.state, "move", "used all its 6″", figure="Walt", to="8,5")


def test_a_charge_toward_an_enemy_ends_in_base_contact(engine: MedievalEngine) -> None:
    state = on_map(engine, Olaf=(6, 7.5))
    out = play(engine, state, "move", figure="Ned", toward="Olaf")
    assert at(out.state, "Ned") == (6, 6.5)
    assert kinds(out) == ["activation", "move", "contact"]
    assert out.state.contacts == [["Ned", "Olaf"]]
    assert "Ned's base touches Olaf's" in event(out, "contact").text
    refuse(engine, out.state, "move", "in hand-to-hand with Olaf", figure="Ned", to="6,5")
    fought = play(engine, out.state, "fight", 4, 3, figure="Ned")
    assert event(fought, "fight").data["winner"] is None


def test_toward_goes_as_far_as_the_movement_or_the_distance_given(engine: MedievalEngine) -> None:
    state = on_map(engine, Olaf=(7, 11))
    far = play(engine, state, "move", figure="Ned", toward="Olaf")
    assert at(far.state, "Ned") == pytest.approx((6.0 + 6 * 1 / 82**0.5, 2.0 + 6 * 9 / 82**0.5), abs=1e-3)
    assert far.state.contacts == []
    short = play(engine, state, "move", figure="Ned", toward="Olaf", distance=3)
    assert event(short, "move").data["distance"] == pytest.approx(3)
    refuse(engine, state, "move", "has 6.0″ of movement left", figure="Ned", toward="Olaf", distance=10)
    point = play(engine, state, "move", figure="Ned", toward="6,20", distance=2)
    assert at(point.state, "Ned") == (6, 4)


def test_moving_so_the_bases_touch_is_contact(engine: MedievalEngine) -> None:
    state = on_map(engine, Olaf=(6, 7))
    out = play(engine, state, "move", figure="Ned", to="6,6")
    assert out.state.contacts == [["Ned", "Olaf"]]
    apart = play(engine, state, "move", figure="Ned", to="6,5.9")
    assert apart.state.contacts == []


def test_figures_touching_an_obstacle_from_either_side_are_in_contact(engine: MedievalEngine) -> None:
    state = on_map(engine, Olaf=(7, 12.875), Walt=(7, 8))
    out = play(engine, state, "move", figure="Walt", to="7,11.125")
    assert out.state.contacts == [["Walt", "Olaf"]]
    short = play(engine, state, "move", figure="Walt", to="7,11")
    assert short.state.contacts == []


def test_table_options_are_refused_on_the_map_and_map_options_on_a_table(engine: MedievalEngine) -> None:
    state = on_map(engine, Olaf=(6, 7))
    refuse(engine, state, "move", "toward:NAME to charge", figure="Ned", to="6,6", engage="Olaf")
    refuse(engine, state, "move", "say where Ned goes", figure="Ned", distance=2)
    refuse(engine, state, "move", "toward: on its own", figure="Ned", to="6,6", toward="Olaf")
    refuse(engine, state, "move", "distance: goes with toward:", figure="Ned", to="6,6", distance=2)
    refuse(
        engine, state, "shoot", "the bot measures the range: leave range empty", figure="Walt", target="Olaf", range=5
    )
    refuse(engine, state, "shoot", "leave cover empty", figure="Walt", target="Olaf", cover="soft")
    state = play(engine, state, "move", figure="Ned", to="6,6").state
    refuse(engine, state, "fight", "sees the hills: leave height empty", figure="Ned", height="mine")
    refuse(engine, state, "fight", "leave barricade empty", figure="Ned", barricade="theirs")
    table = engine.start(roster(), ScriptedDice(6, 1)).state
    table = play(engine, table, "order", side="red", choice="first").state
    refuse(engine, table, "move", "played on a table", figure="Hugh", to="2,2")
    refuse(engine, table, "move", "played on a table", figure="Hugh", toward="Olaf")


# --- breaking off on the map -------------------------------------------------------------------------


def test_breaking_off_moves_the_figure_out_of_contact(engine: MedievalEngine) -> None:
    state = on_map(engine, Ned=(6, 6.5), Olaf=(6, 7.5))
    assert state.contacts == [["Ned", "Olaf"]]
    refuse(engine, state, "breakoff", "out of contact with Olaf", figure="Ned", via="6,5 7.5,6.5 7,7.5")
    refuse(engine, state, "breakoff", "say where Ned goes", figure="Ned", distance=2)
    out = play(engine, state, "breakoff", 6, 1, figure="Ned", to="6,4.5")
    assert kinds(out) == ["activation", "breakoff", "move"]
    assert event(out, "move").text.startswith("Ned breaks away 2.0″ to 6.0,4.5")
    assert out.state.contacts == [] and at(out.state, "Ned") == (6, 4.5)
    held = play(engine, state, "breakoff", 1, 6, figure="Ned", to="6,4.5")
    assert kinds(held) == ["activation", "breakoff", "held"]
    assert at(held.state, "Ned") == (6, 6.5) and held.state.contacts == [["Ned", "Olaf"]]


# --- shooting on the map -----------------------------------------------------------------------------


@pytest.mark.parametrize("y, measured, over_half", [(10, 7.0, False), (11, 8.0, True)])
def test_range_is_measured_base_edge_to_base_edge(
    engine: MedievalEngine, y: float, measured: float, over_half: bool
) -> None:
    state = on_map(engine, Olaf=(4, y))
    out = play(engine, state, "shoot", 1, figure="Walt", target="Olaf", shots=1)
    assert shot(out)["range"] == pytest.approx(measured)
    assert ("over half range" in reasons(out)) is over_half  # A-MED-11


def test_out_of_range_is_refused_with_the_measure(engine: MedievalEngine) -> None:
    state = on_map(engine, Olaf=(4, 19))
    refuse(engine, state, "shoot", "Olaf is out of range: 16.0″ base to base", figure="Walt", target="Olaf")


def test_no_shot_without_sight(engine: MedievalEngine) -> None:
    state = on_map(engine, Walt=(12, 11), Olaf=(12, 21))
    refuse(
        engine,
        state,
        "shoot",
        "Walt cannot see Olaf: the wood is in the way, 1.0″ in front of Olaf.",
        figure="Walt",
        target="Olaf",
    )
    behind_the_hill = on_map(engine, Walt=(20, 3), Olaf=(20, 11))
    refuse(engine, behind_the_hill, "shoot", "the mound is in the way", figure="Walt", target="Olaf")
    deep = on_map(engine, Walt=(12, 11), Olaf=(12, 17))
    refuse(engine, deep, "shoot", "Olaf is too deep in the wood to be seen", figure="Walt", target="Olaf")


def test_soft_cover_behind_a_hedge(engine: MedievalEngine) -> None:
    state = on_map(engine, Walt=(4, 4), Olaf=(4, 12.875))
    out = play(engine, state, "shoot", 1, figure="Walt", target="Olaf", shots=1)
    assert shot(out)["cover"] == "soft" and reasons(out)["soft cover"] == -1
    assert "(7.9″ base to base, soft cover: the hedge 0.5″ in front of Olaf)" in event(out, "shot").text
    assert shot(out)["measured"] == "7.9″ base to base, soft cover: the hedge 0.5″ in front of Olaf"


def test_hard_cover_behind_a_wall_shot_from_a_hill(engine: MedievalEngine) -> None:
    state = on_map(engine, Walt=(20, 7), Olaf=(20, 12.75))
    out = play(engine, state, "shoot", 1, figure="Walt", target="Olaf", shots=1)
    assert shot(out)["cover"] == "hard" and reasons(out)["hard cover"] == -2
    assert "hard cover: the wall 0.5″ in front of Olaf" in event(out, "shot").text


def test_a_covering_feature_far_in_front_of_the_target_gives_no_cover(engine: MedievalEngine) -> None:
    state = on_map(engine, Walt=(4, 4), Olaf=(4, 15))
    out = play(engine, state, "shoot", 1, figure="Walt", target="Olaf", shots=1)
    assert shot(out)["cover"] == "none" and "in the open" in event(out, "shot").text


def test_a_target_at_a_woods_edge_is_in_its_cover(engine: MedievalEngine) -> None:
    state = on_map(engine, Walt=(12, 10.5), Olaf=(12, 15))
    out = play(engine, state, "shoot", 1, figure="Walt", target="Olaf", shots=1)
    assert shot(out)["cover"] == "soft" and "soft cover: Olaf is in the wood" in event(out, "shot").text


def test_a_thrown_dagger_lies_where_its_target_stood(engine: MedievalEngine) -> None:
    state = edit(engine, on_map(engine, Sven=(2, 4.5)), active="blue")
    out = play(engine, state, "shoot", 1, side="blue", figure="Sven", target="Hugh")
    assert out.state.ground[0].at == [2.0, 2.0]
    state = edit(engine, out.state, active="red")
    refuse(engine, state, "pickup", "lies 1.5″ from Walt's base", figure="Walt", item="dagger")
    state = play(engine, state, "move", figure="Walt", to="3,2.9").state
    picked = play(engine, state, "pickup", figure="Walt", item="dagger")
    assert picked.state.ground == [] and "Dagger" in fig(picked.state, "Walt").weapons


# --- hand to hand on the map --------------------------------------------------------------------------


def test_height_advantage_from_the_hill(engine: MedievalEngine) -> None:
    state = on_map(engine, Hugh=(20, 8.4), Olaf=(20, 9.4))
    assert state.contacts == [["Hugh", "Olaf"]]
    out = play(engine, state, "fight", 3, 3, 1, 1, figure="Hugh")
    fought = event(out, "fight")
    assert fought.data["totals"] == {"Hugh": 8, "Olaf": 7} and "+ 1 (height advantage)" in fought.text


def test_the_figure_charged_across_a_barricade_defends_it(engine: MedievalEngine) -> None:
    state = on_map(engine, Hugh=(18, 13), Olaf=(18, 16.75))
    out = play(engine, state, "move", figure="Hugh", to="18,15.25")
    assert out.state.contacts == [["Hugh", "Olaf"]]
    fought = play(engine, out.state, "fight", 3, 3, 1, 1, figure="Hugh")
    assert event(fought, "fight").data["totals"] == {"Hugh": 7, "Olaf": 8}
    assert "+ 1 (defending barricade)" in event(fought, "fight").text


def test_a_charge_at_a_figure_behind_a_barricade_stops_against_it(engine: MedievalEngine) -> None:
    """A-MED-24: toward: an enemy defending an obstacle ends with the charger's base against the
    obstacle (they fight across it), not standing in it."""
    state = on_map(engine, Hugh=(18, 12), Olaf=(18, 16.75))
    out = play(engine, state, "move", figure="Hugh", toward="Olaf")
    assert at(out.state, "Hugh") == (18, 15.25)
    assert out.state.contacts == [["Hugh", "Olaf"]]
    away = on_map(engine, Hugh=(18, 12), Olaf=(18, 19))
    crossing = play(engine, away, "move", figure="Hugh", toward="Olaf")
    assert at(crossing.state, "Hugh")[1] > 16.25, "a barricade nobody stands against is crossed"


def test_knocked_back_moves_the_figure_an_inch_away_a_med_7(engine: MedievalEngine) -> None:
    state = on_map(engine, Hugh=(8, 6.5), Olaf=(8, 7.5))
    out = play(engine, state, "fight", 6, 1, 2, 1, 5, figure="Hugh")
    knocked = event(out, "knocked-back")
    assert knocked.text == "Olaf is knocked back 1″ directly away from Hugh, to 8.0,8.5, out of contact with Hugh."
    assert at(out.state, "Olaf") == (8, 8.5) and out.state.contacts == []
    assert knocked.data["contact_broken"] is True and knocked.data["stopped_by"] is None


def test_knocked_back_is_stopped_short_by_water(engine: MedievalEngine) -> None:
    state = on_map(engine, Hugh=(12, 10.8), Olaf=(12, 9.8))
    out = play(engine, state, "fight", 6, 1, 2, 1, 5, figure="Hugh")
    knocked = event(out, "knocked-back")
    assert "knocked back only 0.8″ directly away from Hugh (the pond stops it)" in knocked.text
    assert at(out.state, "Olaf") == pytest.approx((12, 9.0), abs=1e-3)
    assert out.state.contacts == []
    pinned = on_map(engine, Hugh=(12, 10.03), Olaf=(12, 9.03))
    out = play(engine, pinned, "fight", 6, 1, 2, 1, 5, figure="Hugh")
    knocked = event(out, "knocked-back")
    assert knocked.text.startswith("Olaf cannot be knocked back directly away from Hugh: the pond is in the way")
    assert knocked.text.endswith("still in contact with Hugh.") and out.state.contacts == [["Hugh", "Olaf"]]


def test_knocked_back_is_stopped_by_a_base_behind(engine: MedievalEngine) -> None:
    state = on_map(engine, Hugh=(8, 6.5), Olaf=(8, 7.5), Sven=(8, 8.5))
    out = play(engine, state, "fight", 6, 1, 2, 1, 5, figure="Hugh")
    assert (
        "Olaf cannot be knocked back directly away from Hugh: Sven's base is in the way"
        in event(out, "knocked-back").text
    )
    assert at(out.state, "Olaf") == (8, 7.5) and ["Hugh", "Olaf"] in out.state.contacts


def test_treating_a_wound_and_plundering_need_the_bases_touching(engine: MedievalEngine) -> None:
    state = on_map(engine, Ned=(6, 6), Hugh=(3, 6))
    state = edit(engine, state, {"Hugh": {"health": "light"}})
    refuse(engine, state, "heal", "Ned's base must touch Hugh's", figure="Ned", patient="Hugh")
    close = put(engine, state, Hugh=(5, 6))
    healed = play(engine, close, "heal", figure="Ned", patient="Hugh")
    assert fig(healed.state, "Hugh").health == "full"
    dead = edit(engine, on_map(engine, Olaf=(6, 9)), {"Olaf": {"health": "killed"}})
    refuse(engine, dead, "pickup", "Ned's base must touch Olaf's", figure="Ned", item="battleaxe", source="Olaf")
    state = play(engine, dead, "move", figure="Ned", toward="Olaf").state
    assert at(state, "Ned") == (6, 8) and state.contacts == []
    plundered = play(engine, state, "pickup", figure="Ned", item="battleaxe", source="Olaf")
    assert plundered.events[-1].text == "Ned plunders Olaf's Battleaxe."


# --- the picture, saving -------------------------------------------------------------------------------


def test_field_view_marks_and_focus(engine: MedievalEngine) -> None:
    state = on_map(engine)
    state = edit(engine, state, {"Hugh": {"health": "light", "prone": True}, "Olaf": {"health": "killed"}})
    view = engine.field_view(state, "Walt")
    assert isinstance(view, FieldView) and view.sides == ("red", "blue")
    marks = {t.name: t.marks for t in view.tokens}
    assert marks["Hugh"] == ("wounded", "down") and marks["Olaf"] == ("out",) and marks["Walt"] == ()
    assert {(t.name, t.x, t.y, t.radius) for t in view.tokens} >= {("Walt", 4.0, 2.0, 0.5)}
    assert view.focus is not None and view.focus.name == "Walt" and view.focus.move_left == 6
    assert [b.inches for b in view.focus.bands] == [8.0, 15.5]
    assert (view.focus.bands[0].label, view.focus.bands[0].quoted) == ("Bow half range, base to base", 7.5)
    assert engine.field_view(state, "Hugh").focus.move_left == 0  # type: ignore[union-attr]  # prone: may not move
    assert engine.field_view(state, "Hugh").focus.bands == ()  # type: ignore[union-attr]
    table = engine.start(roster(), ScriptedDice(6, 1)).state
    assert engine.field_view(table) is None


def test_the_field_is_saved_and_loaded_with_the_state(engine: MedievalEngine) -> None:
    state = on_map(engine, Olaf=(6, 7.5))
    state = play(engine, state, "move", figure="Ned", toward="Olaf").state
    state = play(engine, state, "shoot", 1, figure="Walt", target="Olaf", shots=1).state
    data = json.loads(json.dumps(engine.dump_state(state)))
    loaded = engine.load_state(data)
    assert loaded == state and isinstance(loaded.field, FieldState)
    assert loaded.field.map == the_map(engine)
    bad = json.loads(json.dumps(data))
    bad["field"]["positions"]["Nobody"] = [1, 1]
    with pytest.raises(Exception, match="Nobody"):
        engine.load_state(bad)
    unplaced = json.loads(json.dumps(data))
    del unplaced["field"]["positions"]["Hugh"]
    with pytest.raises(Exception, match="Hugh not on the map"):
        engine.load_state(unplaced)


def test_board_shows_where_each_figure_stands(engine: MedievalEngine) -> None:
    state = on_map(engine)
    board = engine.board(state)
    assert dict(board.facts)["Map"] == "Test field (24″ by 24″)"
    assert board.figures[0].status.endswith("at 2.0,2.0")


# --- a whole battle on a shipped map ------------------------------------------------------------------


def test_a_whole_battle_on_the_ford_to_a_winner(engine: MedievalEngine) -> None:
    figures = [
        FigureSpec("Hugh", "red", "Knight"),
        FigureSpec("Walt", "red", "Man at Arms", {"weapons": "bow+sword", "armour": "leather"}),
        FigureSpec("Olaf", "blue", "Viking Warrior"),
        FigureSpec("Bjorn", "blue", "custom", {"speed": 6, "bravery": 4, "shoot": 3, "fight": 3, "weapons": "bow"}),
    ]
    state = engine.start_on_map(figures, ScriptedDice(), engine.scenario("ford")).state
    state = play(engine, state, "deploy", side="red").state
    state = play(engine, state, "deploy", 6, 2, side="blue").state
    state = play(engine, state, "order", side="red", choice="first").state
    assert (state.phase, state.active) == ("play", "red")
    steps: list[tuple[str, str, tuple[int, ...], dict[str, Any]]] = BATTLE
    said = []
    for name, side, dice, params in steps:
        assert not engine.finished(state), (name, params)
        out = play(engine, state, name, *dice, side=side, **params)
        said += [e.text for e in out.events]
        state = out.state
    assert engine.finished(state) and state.winner == "red"
    assert "Hugh moves 6.0″ to 23.2,14.2 (0.0″ left). It stops 11.0″ short of Olaf: its movement is spent." in said
    assert any("(shot 1 of 2; 14.1″ base to base, in the open)" in text for text in said)
    assert "Hugh moves 3.8″ to 23.2,18.0 (5.3″ of movement through the terrain; 0.7″ left)." in said  # the ford
    assert dict(engine.board(state).facts)["Map"] == "The Ford (48″ by 36″)"


#: Red and blue set out on the lane at either end (deploy puts them 1.5" apart, a row in the middle
#: of each zone); red crosses towards the ford, Walt shoots Olaf dead at 14.1" and then Bjorn.
BATTLE: list[tuple[str, str, tuple[int, ...], dict[str, Any]]] = [
    ("move", "red", (), {"figure": "Hugh", "to": "23.2,8.2"}),
    ("move", "red", (), {"figure": "Walt", "to": "24.8,8.2"}),
    ("endturn", "red", (), {}),
    ("move", "blue", (), {"figure": "Olaf", "to": "23.2,26.2"}),
    ("move", "blue", (), {"figure": "Bjorn", "to": "24.8,26.2"}),
    ("endturn", "blue", (), {}),
    ("move", "red", (), {"figure": "Hugh", "toward": "Olaf"}),
    ("move", "red", (), {"figure": "Walt", "to": "24.8,11.2"}),
    ("shoot", "red", (6, 6, 6, 6), {"figure": "Walt", "target": "Olaf"}),
    ("endturn", "red", (), {}),
    ("shoot", "blue", (1,), {"figure": "Bjorn", "target": "Hugh", "shots": 1}),
    ("endturn", "blue", (), {}),
    ("move", "red", (), {"figure": "Hugh", "to": "23.2,18"}),
    ("shoot", "red", (6, 6), {"figure": "Walt", "target": "Bjorn", "shots": 1}),
]


def test_start_on_map_refuses_a_bad_roster_rolling_nothing(engine: MedievalEngine) -> None:
    dice = ScriptedDice()
    with pytest.raises(Exception, match="blue has 0"):
        engine.start_on_map(roster(RED, []), dice, the_map(engine))
    assert dice.rolls == []


def test_out_of_range_by_a_hair_shows_the_digits_that_decide_it(engine: MedievalEngine) -> None:
    state = on_map(engine, Olaf=(4, 18.04))
    refuse(
        engine,
        state,
        "shoot",
        "Olaf is out of range: 15.04″ base to base, and Walt's Bow reaches 15″",
        figure="Walt",
        target="Olaf",
    )


def test_a_charge_past_a_wall_the_target_stands_against_reaches_it(engine: MedievalEngine) -> None:
    """A-MED-24 stops a charge at an obstacle only where the bases then touch across it: Olaf stands
    against the wall, but on Ned's side of it, so Ned runs on into contact, not 0.45″ short."""
    state = on_map(engine, Ned=(17.7, 14.2), Olaf=(22.82, 12.23))
    out = play(engine, state, "move", figure="Ned", toward="Olaf")
    assert out.state.contacts == [["Ned", "Olaf"]], event(out, "move").text


def test_a_charge_that_runs_out_of_movement_says_how_far_short_it_stopped(engine: MedievalEngine) -> None:
    state = on_map(engine, Olaf=(7, 11))
    out = play(engine, state, "move", figure="Ned", toward="Olaf")
    assert event(out, "move").text.endswith("(0.0″ left). It stops 2.1″ short of Olaf: its movement is spent.")
    given = play(engine, state, "move", figure="Ned", toward="Olaf", distance=3)
    assert "short" not in event(given, "move").text
