"""SSG on the bot's map: deployment, moves the bot measures (terrain, figures in the way, the 1"
stop), contact and range centre to centre (A-SSG-4), sight as A-SSG-6 reads it, and a whole battle
on a shipped map with forced dice."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from rules.battlefield import FieldState, MapData
from rules.core import Action, RuleError
from rules.geometry import Base, Point, bases_crossed
from rules.ssg.engine import SsgEngine, SsgState, make_engine
from tests.dice import ScriptedDice
from tests.rules.test_ssg_engine import BLUE, RED, play, refuse, roster

#: A 24-inch test table: a building in the middle, a wood to the west, a low wall to the east.
TEST_MAP = {
    "name": "Test ground",
    "table": {"width": 24, "height": 24},
    "features": [
        {"kind": "building", "name": "the barn", "area": [[10, 10], [14, 10], [14, 14], [10, 14]]},
        {"kind": "wood", "name": "the copse", "area": [[2, 10], [6, 10], [6, 14], [2, 14]]},
        {"kind": "wall", "name": "the wall", "line": [[16, 8], [22, 8]]},
    ],
    "zones": {"red": [[0, 0], [24, 0], [24, 3], [0, 3]], "blue": [[0, 21], [24, 21], [24, 24], [0, 24]]},
}


@pytest.fixture(scope="module")
def engine() -> SsgEngine:
    return make_engine()


def the_map(engine: SsgEngine) -> MapData:
    return engine.read_map(TEST_MAP)


def deploying(engine: SsgEngine) -> SsgState:
    return engine.start_on_map(roster(), ScriptedDice(6, 1), the_map(engine)).state


def standing(engine: SsgEngine, phase: str = "movement", **where: tuple[float, float]) -> SsgState:
    """Every figure deployed, then the named ones moved by hand to where a test needs them."""
    state = deploying(engine)
    state = play(engine, state, "deploy", side="red").state
    state = play(engine, state, "deploy", side="blue").state
    assert state.phase == "movement"
    data = engine.dump_state(state)
    for name, (x, y) in where.items():
        data["field"]["positions"][name] = [x, y]
    data["phase"] = phase
    return engine.load_state(data)


def at(state: SsgState, name: str) -> tuple[float, float]:
    assert state.field is not None
    x, y = state.field.positions[name]
    return (x, y)


# --- deployment --------------------------------------------------------------------------------


def test_start_on_map_waits_for_every_figure_to_be_placed(engine: SsgEngine) -> None:
    outcome = engine.start_on_map(roster(), ScriptedDice(6, 1), the_map(engine))
    state = outcome.state
    assert state.phase == "deployment" and isinstance(state.field, FieldState)
    assert "Test ground" in outcome.events[-1].text and "/map place" in outcome.events[-1].text
    refuse(engine, state, "move", "still to place Rossi, ", side="red", figure="Rossi", to="5,5")
    refuse(engine, state, "shoot", "still to place", side="red", shooter="Rossi", target="Big Jim")
    assert dict(engine.board(state).facts)["To place"].startswith("Rossi, Garcia")


def test_place_checks_zone_ground_bases_and_owner(engine: SsgEngine) -> None:
    state = deploying(engine)
    state = play(engine, state, "place", side="red", figure="Rossi", at="5,1").state
    assert at(state, "Rossi") == (5.0, 1.0)
    refuse(engine, state, "place", "already placed", side="red", figure="Rossi", at="7,1")
    refuse(engine, state, "place", "outside red's deployment zone", side="red", figure="Garcia", at="5,12")
    refuse(engine, state, "place", "off the 24 by 24 inch table", side="red", figure="Garcia", at="30,1")
    refuse(engine, state, "place", "on Rossi's base", side="red", figure="Garcia", at="5.5,1")
    refuse(engine, state, "place", "Only blue's player", side="red", figure="Big Jim", at="5,22")
    refuse(engine, state, "place", "x,y in inches", side="red", figure="Garcia", at="here")
    refuse(engine, state, "place", "nothing on a table is more than 1000", side="red", figure="Garcia", at="1e308,1")
    by_gm = play(engine, state, "place", side=None, by_gm=True, figure="Big Jim", at="5,22").state
    assert at(by_gm, "Big Jim") == (5.0, 22.0)


def test_water_cannot_be_stood_in(engine: SsgEngine) -> None:
    data = json.loads(json.dumps(TEST_MAP))
    data["features"].append({"kind": "water", "name": "the pond", "area": [[0, 0], [3, 0], [3, 3], [0, 3]]})
    state = engine.start_on_map(roster(), ScriptedDice(6, 1), engine.read_map(data)).state
    refuse(engine, state, "place", "cannot stand in the pond", side="red", figure="Rossi", at="1,1")


def test_deploy_places_a_whole_side_and_the_last_placement_begins_the_battle(engine: SsgEngine) -> None:
    state = deploying(engine)
    out = play(engine, state, "deploy", side="red")
    assert out.events[0].text.startswith("red deploys: ")
    assert all(name in out.state.field.positions for name in RED)  # type: ignore[union-attr]
    refuse(engine, out.state, "deploy", "already placed", side="red")
    last = play(engine, out.state, "deploy", side="blue")
    assert last.state.phase == "movement"
    assert last.events[-1].text == "Every figure is on the map: turn 1 · red · movement phase."
    for a in RED + BLUE:
        for b in RED + BLUE:
            if a < b:
                (ax, ay), (bx, by) = at(last.state, a), at(last.state, b)
                assert math.hypot(ax - bx, ay - by) >= 1.0 - 0.05


def test_next_while_setting_up_deploys_the_sides_figures_still_to_place(engine: SsgEngine) -> None:
    """What a deadline passing for an absent side does too (the pass action is /ssg next)."""
    state = play(engine, deploying(engine), "place", side="blue", figure="Big Jim", at="5,22").state
    out = play(engine, state, "next", side="blue")
    assert out.events[0].text.startswith("blue deploys: Slim ")
    refuse(engine, out.state, "next", "the battle begins once the rest are placed: Rossi", side="blue")
    assert engine.whose_turn(out.state) == "red"
    last = play(engine, out.state, "next", side="red")
    assert last.state.phase == "movement"


# --- movement ----------------------------------------------------------------------------------


def test_a_move_is_measured_and_said(engine: SsgEngine) -> None:
    state = standing(engine, Rossi=(18.0, 2.0))
    out = play(engine, state, "move", figure="Rossi", to="18,5")
    assert out.events[0].text == "Rossi moves 3.0″ to 18.0,5.0 (1.0″ left)."
    assert out.events[0].data["to"] == [18.0, 5.0]
    again = play(engine, out.state, "move", figure="Rossi", to="19,5")
    refuse(engine, again.state, "move", "already moved 4″", figure="Rossi", to="19,4")


def test_a_move_longer_than_the_allowance_is_refused(engine: SsgEngine) -> None:
    state = standing(engine, Rossi=(18.0, 2.0))
    refuse(
        engine, state, "move", "Rossi has 4.0″ of movement left; that path is 4.5″ long", figure="Rossi", to="18,6.5"
    )
    refuse(engine, state, "move", "off the 24 by 24 inch table", figure="Rossi", to="18,-1")
    refuse(engine, state, "move", "say where Rossi goes", figure="Rossi")
    refuse(engine, state, "move", "leave contact empty", figure="Rossi", to="18,3", contact="Big Jim")
    refuse(engine, state, "move", "Rossi already stands at 18.0,2.0", figure="Rossi", to="18,2")
    refuse(engine, state, "move", "distance: goes with toward:", figure="Rossi", to="18,3", distance=1)
    refuse(engine, state, "move", "toward: on its own", figure="Rossi", to="18,3", toward="Big Jim")
    refuse(engine, state, "move", "cannot move toward itself", figure="Rossi", toward="rossi")


def test_woods_cost_double_and_buildings_cannot_be_crossed(engine: SsgEngine) -> None:
    state = standing(engine, Rossi=(1.0, 12.0), Garcia=(11.0, 8.5))
    refuse(engine, state, "move", "that path is 3.0″ long and uses 5.0″ of movement", figure="Rossi", to="4,12")
    out = play(engine, state, "move", figure="Rossi", to="3,12")
    assert out.events[0].text == "Rossi moves 2.0″ to 3.0,12.0, using 3.0″ of movement (1.0″ left)."
    refuse(engine, state, "move", "crosses the barn, which cannot be crossed", figure="Garcia", to="12,12")
    around = play(engine, state, "move", figure="Garcia", via="9.5,8.5", to="9.5,11")
    assert at(around.state, "Garcia") == (9.5, 11.0)


def test_a_figure_goes_round_another_in_its_way_when_the_way_round_is_within_its_move(engine: SsgEngine) -> None:
    state = standing(engine, Rossi=(18.0, 2.0), Garcia=(18.0, 4.0))
    refuse(engine, state, "move", "the way round Garcia is 4.5″ long", figure="Rossi", to="18,6")
    refuse(engine, state, "move", "cannot end the move on Garcia's base", figure="Rossi", to="18,4.5")
    out = play(engine, state, "move", figure="Rossi", to="18,5.2")
    moved = out.events[0]
    assert moved.text.startswith("Rossi moves ") and ", going round Garcia (" in moved.text, moved.text
    assert moved.data["went_round"] == ["Garcia"] and 3.2 < moved.data["distance"] <= 4.0
    radius = engine.tables.base_radius
    path = [Point(x, y) for x, y in moved.data["path"]]
    assert path[0] == Point(18.0, 2.0) and at(out.state, "Rossi") == (18.0, 5.2) and len(path) > 2
    assert not bases_crossed(path, radius, {"Garcia": Base(Point(18.0, 4.0), radius)})


def test_a_path_a_few_hundredths_over_what_is_left_is_made_and_uses_exactly_what_was_left(engine: SsgEngine) -> None:
    """Under the twentieth of an inch the bot's tenths cannot show: "4.0″ left; that path is 4.0″
    long" would refuse what no player could measure."""
    state = standing(engine, Rossi=(18.0, 2.0))
    out = play(engine, state, "move", figure="Rossi", to="18,6.04")
    assert at(out.state, "Rossi") == (18.0, 6.04) and out.events[0].data["used"] == 4.0
    assert out.events[0].text == "Rossi moves 4.0″ to 18.0,6.04 (0.0″ left)."
    refuse(engine, state, "move", "4.0″ of movement left; that path is 4.1″ long", figure="Rossi", to="18,6.06")


def test_coming_within_one_inch_of_an_enemy_stops_the_figure(engine: SsgEngine) -> None:
    state = standing(engine, Rossi=(18.0, 2.0), **{"Big Jim": (18.0, 6.5)})
    out = play(engine, state, "move", figure="Rossi", to="18,6")
    assert at(out.state, "Rossi") == (18.0, 5.5)
    assert out.events[0].text == "Rossi moves 3.5″ to 18.0,5.5 (0.5″ left)."
    assert out.events[1].text == "Rossi comes within 1″ of Big Jim and stops: they fight in the melee phase."
    assert out.state.contacts == [["Rossi", "Big Jim"]]
    refuse(engine, out.state, "move", "within 1″ of Big Jim", figure="Rossi", to="17,5")
    melee = play(engine, out.state, "next")
    assert melee.state.phase == "melee"


def test_toward_a_figure_goes_straight_at_it(engine: SsgEngine) -> None:
    state = standing(engine, Rossi=(18.0, 2.0), **{"Big Jim": (18.0, 9.0)})
    out = play(engine, state, "move", figure="Rossi", toward="Big Jim", distance=2)
    assert at(out.state, "Rossi") == (18.0, 4.0)
    closing = play(engine, out.state, "move", figure="Rossi", toward="big jim")
    assert at(closing.state, "Rossi") == (18.0, 6.0)


def test_figures_left_within_one_inch_fight_in_the_next_turn(engine: SsgEngine) -> None:
    """A-SSG-8: the melee phase finds every pair within 1 inch, whoever moved."""
    state = standing(engine, Rossi=(18.0, 10.0), **{"Big Jim": (18.0, 10.9)})
    out = play(engine, state, "next")
    assert out.state.phase == "melee"
    assert out.state.contacts == [["Rossi", "Big Jim"]]


def test_table_options_are_refused_on_the_map_and_map_options_on_a_table(engine: SsgEngine) -> None:
    state = standing(engine)
    refuse(engine, state, "move", "leave contact empty", figure="Rossi", to="1,1", contact="Slim")
    table = engine.start(roster(), ScriptedDice(6, 1)).state
    refuse(engine, table, "move", "played on a table: give Rossi's move as distance", figure="Rossi", to="3,3")
    refuse(engine, table, "place", "played on a table", side="red", figure="Rossi", at="3,3")


# --- shooting ----------------------------------------------------------------------------------


def test_a_clear_shot_is_measured_centre_to_centre(engine: SsgEngine) -> None:
    state = standing(engine, "shooting", Rossi=(23.0, 2.0), **{"Big Jim": (23.0, 14.0)})
    out = play(engine, state, "shoot", 5, shooter="Rossi", target="Big Jim")
    assert out.events[0].text == "Rossi fires at Big Jim (12.0″, clear): 5, needs 5: hit."
    assert out.events[0].data["range"] == 12.0 and out.events[0].data["los"] == "clear"


def test_a_low_wall_in_front_of_the_target_gives_partial_sight(engine: SsgEngine) -> None:
    state = standing(engine, "shooting", Rossi=(19.0, 2.0), **{"Big Jim": (19.0, 9.0)})
    out = play(engine, state, "shoot", 5, shooter="Rossi", target="Big Jim")
    assert out.events[0].text.startswith("Rossi fires at Big Jim (7.0″, partial: the wall 0.8″ in front of Big Jim)")
    assert out.events[0].text.endswith("5 − 1 (partial LOS) = 4, needs 5: miss.")


def test_a_wall_near_the_shooter_costs_nothing(engine: SsgEngine) -> None:
    """A-SSG-6 (c): terrain at least as close to the shooter hides nothing that counts."""
    state = standing(engine, "shooting", Rossi=(19.0, 7.0), **{"Big Jim": (19.0, 16.0)})
    out = play(engine, state, "shoot", 5, shooter="Rossi", target="Big Jim")
    assert "(9.0″, clear)" in out.events[0].text


def test_a_shot_through_a_building_is_refused_with_the_reason(engine: SsgEngine) -> None:
    state = standing(engine, "shooting", Rossi=(12.0, 6.0), **{"Big Jim": (12.0, 18.0)})
    refuse(
        engine,
        state,
        "shoot",
        "Rossi has no line of sight to Big Jim (blocked: the barn",
        shooter="Rossi",
        target="Big Jim",
    )


def test_a_figure_deep_in_a_wood_is_unseen_and_one_at_its_edge_partly_seen(engine: SsgEngine) -> None:
    deep = standing(engine, "shooting", Rossi=(4.0, 4.0), **{"Big Jim": (4.0, 12.0)})
    refuse(engine, deep, "shoot", "no line of sight", shooter="Rossi", target="Big Jim")
    edge = standing(engine, "shooting", Rossi=(4.0, 4.0), **{"Big Jim": (4.0, 10.5)})
    out = play(engine, edge, "shoot", 6, shooter="Rossi", target="Big Jim")
    assert "partial: the copse" in out.events[0].text


def test_out_of_range_and_typed_range_are_refused_on_the_map(engine: SsgEngine) -> None:
    state = standing(engine, "shooting", Rossi=(1.0, 1.0), **{"Big Jim": (23.0, 23.0)})
    refuse(engine, state, "shoot", "Big Jim is out of range: 31.1″ away", shooter="Rossi", target="Big Jim")
    near = standing(engine, "shooting", Rossi=(18.0, 2.0), **{"Big Jim": (18.0, 14.5)})
    refuse(engine, near, "shoot", "leave range and los empty", shooter="Rossi", target="Big Jim", range=12)
    refuse(engine, near, "shoot", "leave range and los empty", shooter="Rossi", target="Big Jim", los="clear")
    refuse(engine, near, "shoot", "Rossi cannot shoot at itself", shooter="Rossi", target="Rossi")


# --- storage and the picture's view --------------------------------------------------------------


def test_the_field_is_saved_and_loaded_with_the_state(engine: SsgEngine) -> None:
    state = standing(engine, Rossi=(18.0, 2.0))
    data = engine.dump_state(state)
    again = engine.load_state(json.loads(json.dumps(data)))
    assert engine.dump_state(again) == data
    assert again.field is not None and again.field.map.features[0].name == "the barn"
    bad = json.loads(json.dumps(data))
    bad["field"]["positions"]["Nobody"] = [1, 1]
    with pytest.raises(RuleError, match="Nobody"):
        engine.load_state(bad)


def test_field_view_shows_the_living_figures_and_a_focus(engine: SsgEngine) -> None:
    state = standing(engine, Rossi=(18.0, 2.0))
    view = engine.field_view(state, focus="rossi")
    assert view is not None and len(view.tokens) == 12
    assert view.focus is not None and view.focus.move_left == 4.0
    assert [(b.label, b.inches) for b in view.focus.bands] == [("short", 12.0), ("long", 24.0)]
    assert engine.field_view(engine.start(roster(), ScriptedDice(6, 1)).state) is None


# --- a whole battle --------------------------------------------------------------------------------


def _nearest_enemy(engine: SsgEngine, state: SsgState, name: str) -> str | None:
    me = next(f for f in state.figures if f.name == name)
    here = at(state, name)
    enemies = [f.name for f in state.figures if f.side != me.side and not f.removed]
    return min(enemies, key=lambda e: math.dist(here, at(state, e)), default=None)


def _try(engine: SsgEngine, state: SsgState, name: str, dice: tuple[int, ...] = (), **params: Any) -> SsgState:
    try:
        return engine.act(state, Action(name, state.active, params), ScriptedDice(*dice)).state
    except RuleError:
        return state


def test_a_whole_battle_on_the_crossroads_to_a_winner(engine: SsgEngine) -> None:
    """Each side advances on the nearest enemy, fights every melee and shoots whoever it can see;
    forced dice (every shot a 6, the active side wins each melee) decide it. The state goes through
    JSON after every action, as it does between the bot's actions."""
    state = engine.start_on_map(roster(), ScriptedDice(6, 1), engine.scenario("crossroads")).state
    state = play(engine, state, "deploy", side="red").state
    state = play(engine, state, "deploy", side="blue").state
    turns = 0
    while state.phase != "over" and turns < 40:
        turns += 1
        active = [f.name for f in state.figures if f.side == state.active and not f.removed]
        for name in active:
            enemy = _nearest_enemy(engine, state, name)
            if enemy is not None:
                for distance in (4, 3, 2, 1):
                    moved = _try(engine, state, "move", figure=name, toward=enemy, distance=distance)
                    if moved is not state:
                        state = moved
                        break
        state = play(engine, state, "next").state
        while state.phase == "melee":
            state = play(engine, state, "melee", 6, 1).state
        if state.phase == "shooting":
            for name in active:
                for enemy in [f.name for f in state.figures if f.side != state.active and not f.removed]:
                    shot = _try(engine, state, "shoot", (6,), shooter=name, target=enemy)
                    if shot is not state:
                        state = shot
                        break
                if state.phase == "over":
                    break
        if state.phase != "over":
            state = play(engine, state, "next").state
        state = engine.load_state(json.loads(json.dumps(engine.dump_state(state))))
    assert state.phase == "over", f"no winner after {turns} turns"
    assert state.winner in ("red", "blue")
    assert sum(f.removed for f in state.figures if f.side != state.winner) == 4


def test_the_picture_follows_the_end_of_a_movement_phase_and_of_the_deployment(engine: SsgEngine) -> None:
    placing = play(engine, deploying(engine), "deploy", side="red").state
    done = play(engine, placing, "deploy", side="blue")
    assert engine.moved_on(placing, done.events)
    state = standing(engine, Rossi=(18.0, 2.0))
    moved = play(engine, state, "move", figure="Rossi", to="18,5")
    assert not engine.moved_on(state, moved.events)
    ended = play(engine, moved.state, "next")
    assert engine.moved_on(moved.state, ended.events)
    shooting = play(engine, ended.state, "next")
    assert not engine.moved_on(ended.state, shooting.events), "the end of a shooting phase moved nobody"
    table = engine.start(roster(), ScriptedDice(6, 1)).state
    assert not engine.moved_on(table, play(engine, table, "next").events)


def test_a_refusal_by_a_hair_shows_the_digits_that_decide_it(engine: SsgEngine) -> None:
    """24.04″ is beyond a rifle's 24″: "24.0″ away" would not show why."""
    state = standing(engine, "shooting", Rossi=(2.0, 2.0), **{"Big Jim": (19.0, 19.0)})
    refuse(
        engine,
        state,
        "shoot",
        "Big Jim is out of range: 24.04″ away, and Rossi's rifle reaches 24″",
        shooter="Rossi",
        target="Big Jim",
    )


def test_toward_without_a_distance_goes_as_far_as_the_terrain_lets_it(engine: SsgEngine) -> None:
    """Not refused for the wood's cost: the move stops where its 4″ of movement is used."""
    state = standing(engine, Rossi=(4.0, 8.0), **{"Big Jim": (4.0, 20.0)})
    out = play(engine, state, "move", figure="Rossi", toward="Big Jim")
    move = next(e for e in out.events if e.kind == "move")
    assert move.data["used"] == pytest.approx(4.0, abs=1e-3) and move.data["distance"] < 4.0
    assert at(out.state, "Rossi")[0] == pytest.approx(4.0)
