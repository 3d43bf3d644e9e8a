"""Sharpe's Skirmish on the bot's map (issue 17; battlefield:table keeps the typed game): placing and
facing (A-SHARPE-32), moving by pace with bad going from the map (A-SHARPE-33), an obstacle's dexterity check from the path (A-SHARPE-34), and
shots measured: range, sight and cover (A-SHARPE-35), and the side a man is attacked from, read from
his facing (A-SHARPE-36), and recoils moved on the map, "no room to recoil" measured (A-SHARPE-37)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.battlefield import MapData, read_map
from rules.sharpe.engine import SharpeEngine
from rules.sharpe.state import Horse, SharpeState, Wound
from tests.dice import ScriptedDice
from tests.rules.test_sharpe_helpers import char, fig, new_engine, play, refused, texts

TEST_MAP: dict[str, Any] = {
    "name": "Test ground",
    "table": {"width": 48, "height": 36},
    "features": [
        {"kind": "wood", "name": "the copse", "area": [[20, 10], [30, 10], [30, 20], [20, 20]]},
        {"kind": "wall", "name": "the wall", "line": [[10, 22], [10, 30]]},
        {"kind": "building", "name": "the barn", "area": [[36, 2], [44, 2], [44, 8], [36, 8]]},
        {"kind": "hill", "name": "the knoll", "area": [[0, 10], [8, 10], [8, 18], [0, 18]]},
    ],
    "zones": {"british": [[0, 0], [48, 0], [48, 6], [0, 6]], "french": [[0, 30], [48, 30], [48, 36], [0, 36]]},
}

SPECS = [
    fig("Harris", "british", "rifleman", I=6, D=4, S=4, C=4, F=8),
    fig("Perkins", "british", "rifleman", I=3, D=3, S=3, C=3, F=7),
    fig("Dubois", "french", "voltigeur", I=4, D=4, S=3, C=3),
]


@pytest.fixture
def engine() -> SharpeEngine:
    return new_engine()


def the_map(engine: SharpeEngine) -> MapData:
    return read_map(TEST_MAP, engine.sides(), engine.terrain())


def deploying(engine: SharpeEngine) -> SharpeState:
    return engine.start_on_map(SPECS, ScriptedDice(), the_map(engine)).state


def on_map(engine: SharpeEngine, **where: tuple[float, float]) -> SharpeState:
    """Everyone placed (default spots), Harris to act first, facing north."""
    state = deploying(engine)
    spots = {"Harris": (5.0, 3.0), "Perkins": (30.0, 3.0), "Dubois": (5.0, 33.0)}
    spots.update(where)
    assert state.field is not None
    for name, xy in spots.items():
        state.field.positions[name] = [xy[0], xy[1]]
        state.field.facing[name] = 90.0 if char(state, name).side == "british" else 270.0
    state.order = ["Harris", "Dubois", "Perkins"]
    state.active = "Harris"
    return state


def round_trip(engine: SharpeEngine, state: SharpeState) -> None:
    data = json.loads(json.dumps(engine.dump_state(state)))
    assert engine.dump_state(engine.load_state(data)) == engine.dump_state(state)


# --- 1. state, tables and deployment


def test_sharpe_plays_on_the_map_with_three_maps_and_the_terrain_table_is_whole(engine: SharpeEngine) -> None:
    assert engine.map_play is not None and engine.map_play.package == "rules.sharpe" and engine.plays_on_map
    assert engine.scenarios() == ["farm", "village", "woodland-ford"]
    for name in engine.scenarios():
        assert set(engine.scenario(name).zones) == {"british", "french"}
    assert engine.terrain()["wood"].move_cost == 2 and engine.terrain()["wall"].obstacle
    assert engine.tables.map.base_radius == 0.6


def test_a_table_game_has_no_field(engine: SharpeEngine) -> None:
    state = engine.start(SPECS, ScriptedDice(1, 1, 1)).state
    assert state.field is None and engine.field_view(state) is None
    assert "field" in engine.dump_state(state) and engine.dump_state(state)["field"] is None


def test_deployment_then_the_order_is_rolled_a_sharpe_32(engine: SharpeEngine) -> None:
    state = deploying(engine)
    assert state.order == [] and state.active is None and engine.whose_turn(state) == "british"
    round_trip(engine, state)
    refused(engine, state, "move", "still to place", to="5,8")
    refused(engine, state, "place", "outside british's deployment zone", figure="Harris", at="5,20")
    refused(engine, state, "place", "only french's player", figure="Dubois", at="5,33")
    out = play(engine, state, "place", figure="Harris", at="24,3")
    assert out.state.field is not None and out.state.field.facing["Harris"] == pytest.approx(90.0)
    out = play(engine, out.state, "deploy", side="british")
    out = play(engine, out.state, "place", 4, 2, 5, side="french", figure="Dubois", at="10,33")
    state = out.state
    assert any(e.kind == "deployment-done" for e in out.events)
    assert sorted(state.order) == ["Dubois", "Harris", "Perkins"] and state.active is not None
    assert state.field is not None and 180 < state.field.facing["Dubois"] < 360
    assert engine.moved_on(deploying(engine), out.events)
    round_trip(engine, state)
    view = engine.field_view(state, "Harris")
    assert view is not None and {t.name for t in view.tokens} == {"Harris", "Perkins", "Dubois"}
    assert view.focus is not None and view.focus.move_left == 9


def test_the_man_to_act_is_named_for_the_ping_and_in_the_pictures_title(engine: SharpeEngine) -> None:
    """The order of movement picks one man: "your move" and the picture's title name him."""
    state = deploying(engine)
    assert engine.acting(state) is None
    assert engine.field_view(state).heading == "Test ground · deployment"  # type: ignore[union-attr]
    state = on_map(engine)
    assert engine.acting(state) == "Harris"
    assert engine.field_view(state).heading == "Test ground · bound 1 · Harris (british) to act"  # type: ignore[union-attr]
    state = play(engine, state, "done").state
    assert engine.acting(state) == "Dubois"
    assert engine.field_view(state).heading == "Test ground · bound 1 · Dubois (french) to act"  # type: ignore[union-attr]
    over = play(engine, state, "concede", confirm=True).state
    assert engine.acting(over) is None
    assert engine.field_view(over).heading == "Test ground · bound 1 · the british won"  # type: ignore[union-attr]


def test_the_status_while_placing_says_who_is_still_to_place(engine: SharpeEngine) -> None:
    """No empty "Order:" and no "Active: —" before the order is rolled."""
    board = engine.board(deploying(engine))
    assert board.headline == "Deployment: still to place Harris, Perkins and Dubois"
    facts = dict(board.facts)
    assert facts["Order"] == "rolled once every man is on the map"
    assert "Active" not in facts and "Character" not in facts


def test_the_battlefield_is_shown_once_a_bound_not_after_each_mans_turn(engine: SharpeEngine) -> None:
    state = on_map(engine)
    harris = play(engine, state, "done", side="british")
    assert any(e.kind == "turn" for e in harris.events) and not engine.moved_on(state, harris.events)
    dubois = play(engine, harris.state, "done", side="french")
    assert not engine.moved_on(harris.state, dubois.events)
    perkins = play(engine, dubois.state, "done", side="british")
    assert any(e.kind == "bound" for e in perkins.events) and engine.moved_on(dubois.state, perkins.events)


def test_done_while_deploying_sets_out_the_rest(engine: SharpeEngine) -> None:
    out = play(engine, deploying(engine), "done", side="british")
    assert out.state.field is not None and {"Harris", "Perkins"} <= set(out.state.field.positions)
    assert engine.whose_turn(out.state) == "french"


# --- 2. movement by pace


def test_a_walk_measured_and_facing_follows(engine: SharpeEngine) -> None:
    state = on_map(engine)
    out = play(engine, state, "move", pace="walk", to="9,3")
    assert out.state.field is not None and out.state.field.positions["Harris"] == [9.0, 3.0]
    assert out.state.field.facing["Harris"] == 0.0
    assert "walks 4.0″ to 9.0,3.0 (2.0″ left)" in texts(out, "move")[0]
    refused(engine, out.state, "move", "has 2.0″ of movement left", pace="walk", to="9,6")
    round_trip(engine, out.state)


def test_table_options_are_refused_on_the_map(engine: SharpeEngine) -> None:
    state = on_map(engine, Perkins=(8.0, 3.0))
    refused(engine, state, "move", "leave bad_going: out", to="5,6", bad_going=True)
    refused(engine, state, "move", "say where harris goes", distance=3)
    refused(engine, state, "move", "the way round perkins is 6.5″ long", to="11,3")
    round_perkins = texts(play(engine, state, "move", pace="walk", to="10,3"), "move")[0]
    assert ", going round Perkins (" in round_perkins, round_perkins


def test_wounds_reduce_and_bad_going_counts_double_a_sharpe_33(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(18.0, 12.0))
    char(state, "Harris").wounds.append(Wound("chest", "light", 0, "x"))
    refused(engine, state, "move", "has 5.0″ of movement left", pace="walk", to="24,12")
    out = play(engine, state, "move", pace="walk", to="21.5,12")
    assert "bad going counted double" in texts(out, "move")[0]
    assert char(out.state, "Harris").moved == pytest.approx(5.0)


def test_running_in_bad_going_tests_dexterity(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(18.0, 12.0))
    out = play(engine, state, "move", 6, pace="run", to="21,12")
    assert char(out.state, "Harris").down == "fallen"
    assert out.state.field is not None and out.state.field.positions["Harris"] == [20.0, 12.0]  # A-SHARPE-44
    out = play(engine, state, "move", 2, pace="run", to="21,12")
    assert out.state.field is not None and out.state.field.positions["Harris"] == [21.0, 12.0]


def test_toward_goes_as_far_as_the_pace_allows(engine: SharpeEngine) -> None:
    state = on_map(engine)
    out = play(engine, state, "move", pace="run", toward="5,30")
    assert out.state.field is not None and out.state.field.positions["Harris"] == [5.0, 12.0]


def test_toward_with_a_comrade_in_the_way_goes_as_far_as_the_way_round_allows(engine: SharpeEngine) -> None:
    """Perkins stands in the line: a run toward Dubois goes round him as far as 9″ reach, rather
    than being refused because the way round to 9″ along the line is a little longer."""
    state = on_map(engine, Perkins=(5.0, 7.0))
    out = play(engine, state, "move", pace="run", toward="Dubois")
    [moved] = texts(out, "move")
    assert moved.startswith("Harris runs 9.0″ to ") and moved.endswith("(0.0″ left).")
    assert out.state.field is not None and 11.0 < out.state.field.positions["Harris"][1] < 12.0
    refused(engine, state, "move", "the way round perkins", pace="run", toward="Dubois", distance=9)  # as asked


def test_a_wall_on_the_path_is_jumped_with_a_check_a_sharpe_34(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(8.0, 26.0))
    out = play(engine, state, "move", 2, pace="walk", to="12,26")
    assert "jump the wall" in texts(out, "check")[0]
    assert out.state.field is not None and out.state.field.positions["Harris"] == [12.0, 26.0]
    out = play(engine, state, "move", 4, pace="walk", to="12,26")
    harris = char(out.state, "Harris")
    assert harris.down == "fallen" and out.state.field is not None
    x, y = out.state.field.positions["Harris"]
    assert x < 10 - 0.25 and y == 26.0
    assert "stumbles at the wall" in texts(out, "move")[0]


def test_moving_into_an_enemy_is_contact(engine: SharpeEngine) -> None:
    state = on_map(engine, Dubois=(5.0, 7.0))
    out = play(engine, state, "move", pace="walk", toward="Dubois")
    assert out.state.contacts and "reaches Dubois" in texts(out, "contact")[0]
    assert out.state.field is not None and out.state.field.positions["Harris"] == [5.0, 5.8]


def test_a_broken_man_may_not_move_into_contact_on_the_map_a_sharpe_16(engine: SharpeEngine) -> None:
    """The british broken: Harris may withdraw, never reach an enemy (toward: him, or a path ending
    against his base); no card invites him to attack."""
    state = on_map(engine, Dubois=(5.0, 7.0))
    state.broken = ["british"]
    for where in ({"toward": "Dubois"}, {"to": "5,5.8"}):
        message = refused(engine, state, "move", "broken", pace="walk", **where)
        assert (
            message == "The british are broken: Harris may only defend and withdraw, not move into contact with Dubois."
        )
    out = play(engine, state, "move", pace="walk", to="5,2")
    assert not out.state.contacts and not texts(out, "contact")


# --- 3. shooting measured


def test_a_shot_measures_range_and_the_walls_hard_cover_a_sharpe_35(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(5.0, 20.0), Dubois=(11.0, 26.0))
    out = play(engine, state, "shoot", 2, 2, 1, target="Dubois")
    shot = texts(out, "shot")[0]
    assert "(8.5″ measured, hard cover: the wall)" in shot and "+1 short range" in shot
    assert "legs is behind hard cover: miss" in shot
    assert [e.data["measured"] for e in out.events if e.kind == "shot"] == ["8.5″ measured, hard cover: the wall"]
    round_trip(engine, out.state)


def test_a_shot_from_the_targets_side(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(5.0, 20.0), Dubois=(11.0, 26.0))
    assert state.field is not None
    state.field.facing["Dubois"] = 0.0
    out = play(engine, state, "shoot", 2, 2, 5, 3, 3, target="Dubois")
    assert "from his right" in texts(out, "shot")[0]


def test_soft_cover_inside_the_wood(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(15.0, 15.0), Dubois=(21.0, 15.0))
    out = play(engine, state, "shoot", 2, 2, 5, 1, target="Dubois")
    assert "soft cover: the copse" in texts(out, "shot")[0]


def test_a_shot_the_map_refuses(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(15.0, 15.0), Dubois=(35.0, 15.0))
    refused(engine, state, "shoot", "cannot see Dubois: the copse is in the way", target="Dubois")
    refused(engine, state, "shoot", "leave range: out", target="Dubois", range=5)
    refused(engine, state, "shoot", "leave cover: out", target="Dubois", cover="hard")


# --- 4. melee arcs from positions


def melee_ready(engine: SharpeEngine, dubois_facing: float, fought: bool) -> SharpeState:
    state = on_map(engine, Harris=(20.0, 25.0), Dubois=(20.0, 26.2))
    assert state.field is not None
    state.field.facing["Dubois"] = dubois_facing
    if fought:
        char(state, "Dubois").fought_bound = state.bound
    return state


def test_an_attack_needs_the_bases_to_touch_a_sharpe_36(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(20.0, 25.0), Dubois=(20.0, 28.0))
    refused(engine, state, "attack", "is 1.8″ from Dubois: move into contact first", defender="Dubois")
    refused(engine, melee_ready(engine, 270.0, False), "attack", "leave flank: out", defender="Dubois", flank="rear")


def test_men_either_side_of_a_wall_fight_across_it(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(9.15, 26.0), Dubois=(10.85, 26.0))
    out = play(engine, state, "attack", defender="Dubois")
    assert out.pending is not None and out.state.contacts


def test_the_side_attacked_from_his_facing_and_turning_to_face(engine: SharpeEngine) -> None:
    state = melee_ready(engine, 0.0, fought=True)
    asked = play(engine, state, "attack", defender="Dubois")
    assert asked.pending is not None and "+1 to him unless Dubois turns" in asked.pending.prompt
    assert [e.data["side"] for e in asked.events if e.kind == "attack"] == ["right"]
    assert asked.state.field is not None and asked.state.field.facing["Harris"] == 90.0
    assert asked.state.field.facing["Dubois"] == 0.0
    turned = play(engine, asked.state, "defend", 2, side="french", choice="turn")
    assert turned.state.field is not None and turned.state.field.facing["Dubois"] == 270.0
    round_trip(engine, turned.state)


@pytest.mark.parametrize("facing, side", [(90.0, "rear"), (180.0, "left"), (270.0, "front")])
def test_each_arc_from_the_map(engine: SharpeEngine, facing: float, side: str) -> None:
    asked = play(engine, melee_ready(engine, facing, fought=True), "attack", defender="Dubois")
    assert [e.data["side"] for e in asked.events if e.kind == "attack"] == [side]


def test_a_man_not_yet_fighting_turns_to_face_freely(engine: SharpeEngine) -> None:
    asked = play(engine, melee_ready(engine, 90.0, fought=False), "attack", defender="Dubois")
    assert asked.state.field is not None and asked.state.field.facing["Dubois"] == 270.0
    assert asked.pending is not None and "turn" not in asked.pending.choices


# --- 5. the map moves men for the rules


def test_a_wounded_man_recoils_an_inch_straight_back_a_sharpe_37(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(5.0, 20.0), Dubois=(11.0, 26.0))
    out = play(engine, state, "shoot", 2, 2, 5, 3, 3, target="Dubois")
    assert out.state.field is not None
    x, y = out.state.field.positions["Dubois"]
    assert (x, y) == (pytest.approx(11.7071, abs=1e-3), pytest.approx(26.7071, abs=1e-3))
    assert "recoils 1.0″ to" in texts(out, "wound")[0]
    round_trip(engine, out.state)


def test_the_table_edge_stops_a_recoil(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(35.0, 25.0), Dubois=(47.6, 25.0))
    out = play(engine, state, "shoot", 2, 2, 5, 3, 3, target="Dubois")
    assert out.state.field is not None and out.state.field.positions["Dubois"][0] == pytest.approx(48.0, abs=1e-3)
    assert "stopped by the table's edge" in texts(out, "wound")[0]


def test_a_parrier_recoils_a_pace_and_the_attacker_may_follow(engine: SharpeEngine) -> None:
    state = melee_ready(engine, 270.0, fought=False)
    asked = play(engine, state, "attack", defender="Dubois")
    out = play(engine, asked.state, "defend", 1, 6, side="french", choice="parry")
    assert out.state.field is not None and out.state.field.positions["Dubois"] == [20.0, 26.7]
    assert out.state.field.positions["Harris"] == [20.0, 25.0] and not out.state.contacts
    asked = play(engine, state, "attack", defender="Dubois", follow_up=True)
    out = play(engine, asked.state, "defend", 1, 6, side="french", choice="parry")
    assert out.state.field is not None and out.state.field.positions["Harris"] == [20.0, 25.5]
    assert "Harris follows up" in texts(out, "melee")[0]


def test_no_room_to_recoil_is_measured(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(40.0, 9.8), Dubois=(40.0, 8.6))
    assert state.field is not None
    state.field.facing["Dubois"] = 90.0
    refused(engine, state, "attack", "leave no_room: out", defender="Dubois", no_room=True)
    asked = play(engine, state, "attack", defender="Dubois")
    out = play(engine, asked.state, "defend", 1, 6, side="french", choice="parry")
    assert "Dubois has no room to give ground and stays where he is" in texts(out, "melee")[0]
    assert out.state.field is not None and out.state.field.positions["Dubois"] == [40.0, 8.6]


# --- 6. pushes, collisions and runaway horses moved on the map


def test_a_push_needs_the_bases_to_touch_a_sharpe_38(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(20.0, 25.0), Dubois=(20.0, 27.0))
    refused(engine, state, "push", "must touch Dubois's base", pusher="Harris", pushed="Dubois")


def test_a_man_shoved_aside_goes_his_bases_width(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(20.0, 25.0), Dubois=(20.0, 26.2))
    out = play(engine, state, "push", 2, 2, pusher="Harris", pushed="Dubois")
    assert out.state.field is not None
    assert out.state.field.positions["Dubois"] == [20.0, pytest.approx(27.4)]
    assert "shoved 1.2″ aside" in texts(out, "push")[0]
    round_trip(engine, out.state)
    out = play(engine, state, "push", 2, 6, pusher="Harris", pushed="Dubois")
    assert char(out.state, "Dubois").down == "fallen" and out.state.field is not None
    assert out.state.field.positions["Dubois"][1] == pytest.approx(27.4)
    out = play(engine, state, "push", 6, pusher="Harris", pushed="Dubois")
    assert out.state.field is not None and out.state.field.positions["Dubois"] == [20.0, 26.2]


def test_a_push_is_stopped_by_the_table_edge(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(20.0, 34.0), Dubois=(20.0, 35.2))
    out = play(engine, state, "push", 2, 2, pusher="Harris", pushed="Dubois")
    assert out.state.field is not None and out.state.field.positions["Dubois"][1] == pytest.approx(36.0, abs=1e-3)
    assert "stopped by the table's edge" in texts(out, "push")[0]


def test_a_collision_needs_touching_bases(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(20.0, 25.0), Dubois=(20.0, 26.2))
    refused(engine, state, "collide", "Perkins's base touches none", figures="Harris, Dubois, Perkins")
    refused(engine, state, "collide", "at least two men", figures="Harris")
    out = play(engine, state, "collide", 2, 6, figures="Harris, Dubois")
    assert char(out.state, "Dubois").down == "fallen"


def riding(state: SharpeState, pace: str, lost: str) -> SharpeState:
    harris = char(state, "Harris")
    harris.mounted = True
    harris.horse = Horse(pace=pace, start_pace=pace, lost_control=lost)
    return state


def test_a_runaway_horse_runs_on_along_its_facing_a_sharpe_39(engine: SharpeEngine) -> None:
    state = riding(on_map(engine, Harris=(5.0, 15.0)), "canter", "shaken")
    out = play(engine, state, "control", 6, figure="Harris")
    assert out.state.field is not None
    assert out.state.field.positions["Harris"] == [pytest.approx(5.0), pytest.approx(27.0)]
    assert "runs on 12.0″ at the canter" in texts(out, "move")[0]
    round_trip(engine, out.state)
    out = play(engine, state, "control", 1, figure="Harris")
    assert out.state.field is not None and out.state.field.positions["Harris"] == [5.0, 15.0]


def test_a_wounded_horse_veers_as_table_h_says(engine: SharpeEngine) -> None:
    state = riding(on_map(engine, Harris=(30.0, 25.0)), "canter", "wounded")
    assert state.field is not None
    state.field.facing["Harris"] = 180.0
    out = play(engine, state, "control", 6, 1, figure="Harris")
    assert out.state.field is not None
    assert out.state.field.positions["Harris"] == [pytest.approx(30.0), pytest.approx(13.0)]
    assert out.state.field.facing["Harris"] == pytest.approx(270.0)


def test_a_building_stops_a_runaway_horse(engine: SharpeEngine) -> None:
    state = riding(on_map(engine, Harris=(40.0, 12.0)), "canter", "shaken")
    assert state.field is not None
    state.field.facing["Harris"] = 270.0
    out = play(engine, state, "control", 6, figure="Harris")
    assert out.state.field is not None
    assert out.state.field.positions["Harris"][1] == pytest.approx(9.2, abs=1e-3)
    assert "stopped by the barn" in texts(out, "move")[0]


def test_a_horse_that_runs_off_the_table_is_gone_with_its_rider(engine: SharpeEngine) -> None:
    state = riding(on_map(engine, Harris=(15.0, 30.0)), "gallop", "shaken")
    out = play(engine, state, "control", 6, figure="Harris")
    harris = char(out.state, "Harris")
    assert harris.out and out.state.field is not None and "Harris" not in out.state.field.positions
    assert any("carries him off the table" in t for t in texts(out))
    round_trip(engine, out.state)


# --- 7. the ground of a fight read from the map


def test_the_ground_of_a_fight_is_not_typed_on_the_map_a_sharpe_40(engine: SharpeEngine) -> None:
    state = melee_ready(engine, 270.0, fought=False)
    for option, value in (("uphill", "attacker"), ("obstacle", "defender"), ("bad_going", True), ("perch_ft", 12)):
        refused(engine, state, "attack", f"leave {option}: out", defender="Dubois", **{option: value})


def test_the_man_on_the_hill_is_uphill(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(7.5, 17.0), Dubois=(7.5, 18.2))
    asked = play(engine, state, "attack", defender="Dubois")
    out = play(engine, asked.state, "defend", 3, 3, 1, 1, side="french", choice="parry")
    assert "+1 uphill" in " ".join(texts(out))
    state = on_map(engine, Harris=(7.5, 18.7), Dubois=(7.5, 17.5))
    asked = play(engine, state, "attack", defender="Dubois")
    out = play(engine, asked.state, "defend", 3, 3, side="french", choice="parry")
    assert "parry C 3 +1 uphill" in " ".join(texts(out))


def test_a_defender_across_a_wall_holds_it(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(9.15, 26.0), Dubois=(10.85, 26.0))
    asked = play(engine, state, "attack", defender="Dubois")
    out = play(engine, asked.state, "defend", 1, 6, side="french", choice="parry")
    assert "+1 at the obstacle" in " ".join(texts(out)) and "holds the obstacle" in " ".join(texts(out))
    assert out.state.field is not None and out.state.field.positions["Dubois"] == [10.85, 26.0]


def test_a_defender_in_the_wood_fights_in_bad_going(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(25.0, 9.3), Dubois=(25.0, 10.5))
    asked = play(engine, state, "attack", defender="Dubois")
    out = play(engine, asked.state, "defend", 1, side="french", choice="dodge")
    assert "bad going" in " ".join(texts(out))
    round_trip(engine, out.state)


# --- 8. range bands: the picture and the automatic hit


def with_harper(engine: SharpeEngine, dubois: tuple[float, float]) -> SharpeState:
    specs = [*SPECS, fig("Harper", "british", "rifle_sergeant", I=5, F=10)]
    state = engine.start_on_map(specs, ScriptedDice(), the_map(engine)).state
    assert state.field is not None
    spots = {"Harris": (5.0, 3.0), "Perkins": (30.0, 3.0), "Dubois": dubois, "Harper": (20.0, 20.0)}
    for name, (x, y) in spots.items():
        state.field.positions[name] = [x, y]
        state.field.facing[name] = 270.0 if name == "Dubois" else 90.0
    state.order = ["Harper", "Harris", "Dubois", "Perkins"]
    state.active = "Harper"
    return state


def test_the_focus_shows_the_weapons_range_bands_a_sharpe_41(engine: SharpeEngine) -> None:
    state = with_harper(engine, (20.0, 24.9))
    view = engine.field_view(state, "Harper")
    assert view is not None and view.focus is not None
    assert [(b.label, b.inches) for b in view.focus.bands] == [
        ("volley gun automatic hit", 5.0),
        ("volley gun no modifier", 15.0),
        ("volley gun −1", 30.0),
    ]
    view = engine.field_view(state, "Harris")
    assert view is not None and view.focus is not None
    assert [(b.label, b.inches) for b in view.focus.bands] == [
        ("Baker rifle +1", 10.0),
        ("Baker rifle no modifier", 48.0),
    ]


def test_the_volley_gun_hits_automatically_inside_the_measured_band(engine: SharpeEngine) -> None:
    state = with_harper(engine, (20.0, 24.9))
    out = play(engine, state, "shoot", 1, 1, 3, 3, 2, 3, 3, weapon="volley gun", target="Dubois")
    assert "4.9″ measured, in the open): at 4.9″ an automatic hit · 2 wounds" in texts(out, "shot")[0]
    round_trip(engine, out.state)
    state = with_harper(engine, (20.0, 25.0))
    out = play(engine, state, "shoot", 6, 6, weapon="volley gun", target="Dubois")
    assert "automatic" not in texts(out, "shot")[0] and "misfire" in texts(out, "shot")[0]
