"""Sharpe's Skirmish on the bot's map: horses and stumbles (issue 17). A horse out of control runs on
every bound, pulled up by obstacles and bases, slowed by bad going, gone over the table's edge
(A-SHARPE-42); a riderless horse and a collapsed one stay figures on the map, their riders set down
beside them (A-SHARPE-43); a man who fails a check for bad going falls where it begins
(A-SHARPE-44); a man on foot leaps a man on the ground or a dead horse (A-SHARPE-45); high walls are
vaulted, climbed and fallen from (A-SHARPE-46)."""

from __future__ import annotations

import itertools
import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.battlefield import impassable_at, read_map, where
from rules.battlefield.maps import map_file, read_feature
from rules.sharpe.engine import SharpeEngine
from rules.sharpe.state import SharpeState
from rules.vocabulary import DataError
from tests.dice import ScriptedDice
from tests.rules.test_sharpe_helpers import char, new_engine, play, refused, texts
from tests.rules.test_sharpe_map import SPECS, TEST_MAP, on_map, riding, round_trip

HORSE = "Harris's horse"


@pytest.fixture
def engine() -> SharpeEngine:
    return new_engine()


def spot(state: SharpeState, name: str) -> list[float]:
    assert state.field is not None
    return state.field.positions[name]


def end_the_bound(engine: SharpeEngine, state: SharpeState) -> SharpeState:
    """Every man still to act ends his turn, until the next bound begins."""
    bound = state.bound
    while state.bound == bound:
        state = play(engine, state, "done").state
    return state


# --- A-SHARPE-42: a horse out of control runs on


def test_a_runaway_horse_pulls_up_at_a_wall_a_sharpe_42(engine: SharpeEngine) -> None:
    state = riding(on_map(engine, Harris=(3.0, 26.0)), "canter", "shaken")
    assert state.field is not None
    state.field.facing["Harris"] = 0.0
    out = play(engine, state, "control", 6, figure="Harris")
    x, y = spot(out.state, "Harris")
    assert x == pytest.approx(10 - 0.25 - 1.2, abs=0.01) and y == 26.0
    assert "stopped by the wall" in texts(out, "move")[0]
    assert char(out.state, "Harris").mounted


def test_a_runaway_horse_in_bad_going_goes_half_as_far(engine: SharpeEngine) -> None:
    state = riding(on_map(engine, Harris=(16.0, 15.0)), "canter", "shaken")
    assert state.field is not None
    state.field.facing["Harris"] = 0.0
    out = play(engine, state, "control", 6, figure="Harris")
    assert spot(out.state, "Harris") == [pytest.approx(24.0), 15.0]
    assert "runs on 8.0″ at the canter" in texts(out, "move")[0]
    assert "bad going counted double" in texts(out, "move")[0]


def test_the_rider_must_try_to_control_his_horse_every_bound(engine: SharpeEngine) -> None:
    state = riding(on_map(engine, Harris=(5.0, 15.0)), "canter", "shaken")
    refused(engine, state, "done", "must try to master it every bound")
    out = play(engine, state, "control", 6, figure="Harris")
    out = play(engine, out.state, "done")
    assert out.state.active == "Dubois"
    out = play(engine, state, "control", 1, figure="Harris")
    refused(engine, out.state, "done", "cannot stand still")


def test_a_runaway_whose_rider_cannot_act_runs_on_at_the_bounds_end(engine: SharpeEngine) -> None:
    state = riding(on_map(engine, Harris=(5.0, 15.0)), "canter", "shaken")
    char(state, "Harris").suppressed_bound = state.bound
    state.acted, state.active = ["Harris"], "Dubois"
    after = end_the_bound(engine, state)
    assert after.bound == state.bound + 1
    assert spot(after, "Harris") == [5.0, pytest.approx(27.0)]
    assert char(after, "Harris").horse.ran_bound == state.bound
    round_trip(engine, after)


def test_a_wounded_riders_horse_goes_on_at_the_same_speed_and_way(engine: SharpeEngine) -> None:
    state = riding(on_map(engine, Harris=(15.0, 15.0)), "trot", "")
    char(state, "Harris").wounded_bound = state.bound
    state.acted, state.active = ["Harris"], "Dubois"
    after = end_the_bound(engine, state)
    assert spot(after, "Harris") == [15.0, pytest.approx(24.0)]
    halted = riding(on_map(engine, Harris=(15.0, 15.0)), "halt", "")
    char(halted, "Harris").wounded_bound = halted.bound
    halted.acted, halted.active = ["Harris"], "Dubois"
    assert spot(end_the_bound(engine, halted), "Harris") == [15.0, 15.0]


def test_a_horse_hurt_and_out_of_control_bolts_at_once(engine: SharpeEngine) -> None:
    state = riding(on_map(engine, Harris=(5.0, 15.0), Dubois=(15.0, 25.0)), "gallop", "")
    state.order, state.active = ["Dubois", "Harris", "Perkins"], "Dubois"
    out = play(engine, state, "shoot", 3, 3, 2, 1, 2, 2, 6, 3, target="Harris")
    assert "runs on 11.0″ at the canter to 5.0,26.0" in texts(out, "move")[0]
    assert spot(out.state, "Harris") == [5.0, pytest.approx(26.0)]
    harris_turn = play(engine, out.state, "done").state
    assert harris_turn.active == "Harris"
    refused(engine, harris_turn, "control", "already tried to control his horse this bound")
    assert play(engine, harris_turn, "done").state.active == "Perkins"


# --- A-SHARPE-43: the riderless horse and the horse that collapses


def test_a_thrown_riders_horse_runs_on_riderless_at_a_canter_a_sharpe_43(engine: SharpeEngine) -> None:
    state = riding(on_map(engine, Harris=(15.0, 15.0)), "gallop", "")
    out = play(engine, state, "check", 6, 1, 1, 1, situation="low_wall")
    harris = char(out.state, "Harris")
    assert not harris.mounted and harris.down == "fallen" and harris.horse.loose
    assert spot(out.state, "Harris") == [pytest.approx(13.2), 15.0]
    assert spot(out.state, HORSE) == [15.0, pytest.approx(27.0)]
    assert harris.horse.pace == "canter"
    assert f"{HORSE} runs on riderless 12.0″ at the canter" in " ".join(texts(out, "move"))
    view = engine.field_view(out.state)
    assert view is not None
    assert [t.marks for t in view.tokens if t.name == HORSE] == [("riderless",)]
    assert engine.state_problems(out.state) == []
    round_trip(engine, out.state)


def test_a_horse_that_moved_this_bound_waits_and_then_runs_into_a_base(engine: SharpeEngine) -> None:
    state = riding(on_map(engine, Harris=(5.0, 15.0)), "canter", "")
    out = play(engine, state, "move", pace="canter", to="5,20")
    out = play(engine, out.state, "check", 6, 1, 1, 1, situation="low_wall")
    assert spot(out.state, HORSE) == [5.0, 20.0]
    assert spot(out.state, "Harris") == [pytest.approx(3.2), 20.0]
    after = end_the_bound(engine, out.state)
    assert spot(after, HORSE) == [5.0, pytest.approx(33.0 - 1.8, abs=1e-3)]
    assert char(after, "Harris").horse.loose


def test_a_riderless_horse_runs_off_the_table_and_is_gone(engine: SharpeEngine) -> None:
    state = riding(on_map(engine, Harris=(15.0, 30.0)), "canter", "")
    out = play(engine, state, "check", 6, 1, 1, 1, situation="low_wall")
    harris = char(out.state, "Harris")
    assert out.state.field is not None and HORSE not in out.state.field.positions
    assert not harris.horse.loose and not harris.out
    assert any("runs off the table riderless and is gone" in t for t in texts(out, "move"))
    assert engine.state_problems(out.state) == []


def test_a_horse_that_collapses_stays_where_it_stands(engine: SharpeEngine) -> None:
    state = riding(on_map(engine, Harris=(5.0, 15.0), Dubois=(5.0, 20.0)), "gallop", "")
    state.order, state.active = ["Dubois", "Harris", "Perkins"], "Dubois"
    out = play(engine, state, "shoot", 3, 3, 2, 5, 6, 6, 1, target="Harris")
    harris = char(out.state, "Harris")
    assert harris.horse.dead and not harris.mounted
    assert spot(out.state, HORSE) == [5.0, 15.0] and spot(out.state, "Harris") == [pytest.approx(3.2), 15.0]
    view = engine.field_view(out.state)
    assert view is not None and [t.marks for t in view.tokens if t.name == HORSE] == [("out",)]
    after = end_the_bound(engine, out.state)
    assert spot(after, HORSE) == [5.0, 15.0]
    round_trip(engine, after)


def test_a_dead_horse_takes_up_room(engine: SharpeEngine) -> None:
    state = riding(on_map(engine, Harris=(5.0, 15.0), Dubois=(5.0, 20.0)), "gallop", "")
    state.order, state.active = ["Dubois", "Harris", "Perkins"], "Dubois"
    out = play(engine, state, "shoot", 3, 3, 2, 5, 6, 6, 1, target="Harris")
    refused(engine, out.state, "move", "would end his move on Harris's dead horse", figure="Dubois", to="5,14")


# --- A-SHARPE-45: leaping over a man on the ground or a dead horse


def test_a_man_leaps_a_fallen_man_with_a_dexterity_check_a_sharpe_45(engine: SharpeEngine) -> None:
    state = on_map(engine, Perkins=(5.0, 6.0))
    char(state, "Perkins").down = "fallen"
    out = play(engine, state, "move", 1, pace="walk", to="5,9")
    assert spot(out.state, "Harris") == [5.0, 9.0]
    assert "leap over the fallen Perkins: D6 1" in texts(out, "check")[0]
    out = play(engine, state, "move", 6, pace="walk", to="5,9")
    harris = char(out.state, "Harris")
    assert harris.down == "fallen" and spot(out.state, "Harris") == [5.0, pytest.approx(4.8)]
    assert "stumbles at the fallen Perkins" in " ".join(texts(out, "move"))
    refused(engine, state, "move", "would end his move on the fallen Perkins", pace="walk", to="5,6.5")


def test_a_dead_man_is_leapt_too_but_a_rider_goes_round(engine: SharpeEngine) -> None:
    state = on_map(engine, Perkins=(5.0, 6.0))
    char(state, "Perkins").out = True
    out = play(engine, state, "move", 4, pace="walk", to="5,9")
    assert spot(out.state, "Harris") == [5.0, 9.0] and "leap over the fallen Perkins" in texts(out, "check")[0]
    mounted = riding(on_map(engine, Perkins=(5.0, 8.0)), "walk", "")
    char(mounted, "Perkins").down = "fallen"
    refused(engine, mounted, "move", "the way round Perkins", pace="walk", to="5,12")


def test_a_dead_horse_is_leapt_as_a_low_wall(engine: SharpeEngine) -> None:
    state = riding(on_map(engine, Harris=(5.0, 15.0), Dubois=(5.0, 25.0), Perkins=(5.0, 20.0)), "gallop", "")
    state.order, state.active = ["Dubois", "Perkins", "Harris"], "Dubois"
    out = play(engine, state, "shoot", 3, 3, 2, 5, 6, 6, 1, target="Harris")
    out = play(engine, out.state, "done")
    assert out.state.active == "Perkins"
    leapt = play(engine, out.state, "move", 2, pace="run", to="5,11.5")
    assert "leap over Harris's dead horse: D6 2 +1 low wall or bush = 3 vs D 3" in texts(leapt, "check")[0]
    assert spot(leapt.state, "Perkins") == [5.0, 11.5]
    fell = play(engine, out.state, "move", 3, pace="run", to="5,11.5")
    assert spot(fell.state, "Perkins") == [5.0, pytest.approx(16.8)] and char(fell.state, "Perkins").down


# --- A-SHARPE-44: falling where he stumbled


def test_a_man_who_stumbles_in_bad_going_falls_where_it_begins_a_sharpe_44(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(17.0, 12.0))
    out = play(engine, state, "move", 6, pace="run", to="22,12")
    harris = char(out.state, "Harris")
    assert harris.down == "fallen" and spot(out.state, "Harris") == [20.0, 12.0]
    assert harris.moved == pytest.approx(3.0)
    assert "stumbles at the copse after 3.0″ and lies at 20.0,12.0" in texts(out, "move")[0]
    assert out.state.field is not None and out.state.field.facing["Harris"] == 0.0


def test_a_man_already_in_bad_going_who_stumbles_falls_where_he_stands(engine: SharpeEngine) -> None:
    state = on_map(engine, Harris=(22.0, 12.0))
    out = play(engine, state, "move", 6, pace="run", to="24,12")
    assert char(out.state, "Harris").down == "fallen" and spot(out.state, "Harris") == [22.0, 12.0]
    assert texts(out, "move") == []


def test_a_recoil_grazing_another_base_stops_touching_it(engine: SharpeEngine) -> None:
    """Found with a rider set down beside his horse: a recoil whose line passes within the contact
    tolerance of another base once ended over it; now it stops short, the bases touching."""
    state = on_map(engine, Harris=(20.0, 15.0), Dubois=(20.0, 26.2), Perkins=(21.17, 27.2))
    out = play(engine, state, "shoot", 2, 2, 5, 3, 3, target="Dubois")
    x, y = spot(out.state, "Dubois")
    assert x == 20.0 and math.dist((x, y), (21.17, 27.2)) == pytest.approx(1.2, abs=1e-3)
    assert "stopped by Perkins's base" in texts(out, "wound")[0]


# --- A-SHARPE-46: high walls


WALLED: dict[str, Any] = {
    **TEST_MAP,
    "features": [
        *TEST_MAP["features"],
        {"kind": "wall", "name": "the garden wall", "line": [[30, 22], [30, 30]], "height_ft": 8},
    ],
}


def walled(engine: SharpeEngine, **where: tuple[float, float]) -> SharpeState:
    """Everyone placed beside a garden wall 8 feet high, Harris to act first, facing east."""
    state = engine.start_on_map(SPECS, ScriptedDice(), read_map(WALLED, engine.sides(), engine.terrain())).state
    spots = {"Harris": (28.0, 26.0), "Perkins": (5.0, 3.0), "Dubois": (5.0, 33.0), **where}
    assert state.field is not None
    for name, xy in spots.items():
        state.field.positions[name] = [xy[0], xy[1]]
        state.field.facing[name] = 0.0
    state.order, state.active = ["Harris", "Dubois", "Perkins"], "Harris"
    return state


def test_a_walls_height_is_map_data(engine: SharpeEngine) -> None:
    data = read_map(WALLED, engine.sides(), engine.terrain())
    assert data.features[-1].height_ft == 8.0 and map_file(data)["features"][-1]["height_ft"] == 8.0
    wood = {"kind": "wood", "area": [[0, 0], [4, 0], [4, 4]], "height_ft": 8}
    with pytest.raises(DataError, match="height_ft is a wall's"):
        read_feature(wood, engine.terrain())
    with pytest.raises(DataError, match="1 to 60 feet high, not 0"):
        read_feature({"kind": "wall", "line": [[0, 0], [4, 0]], "height_ft": 0}, engine.terrain())


def test_a_high_wall_is_vaulted_with_the_drop_a_sharpe_46(engine: SharpeEngine) -> None:
    state = walled(engine)
    out = play(engine, state, "move", 2, pace="walk", to="32,26")
    check = texts(out, "check")[0]
    assert "vault the garden wall (8 ft): D6 2 +1 vaulting a high wall +1 dropping 8 ft = 4 vs D 4" in check
    assert spot(out.state, "Harris") == [32.0, 26.0]
    out = play(engine, state, "move", 3, 1, 1, 1, pace="walk", to="32,26")
    assert char(out.state, "Harris").down == "fallen"
    assert spot(out.state, "Harris") == [pytest.approx(30 - 0.25 - 0.6), 26.0]
    assert any("falls 8 ft from the garden wall" in t for t in texts(out, "fall"))


def test_a_horse_cannot_clear_a_high_wall(engine: SharpeEngine) -> None:
    state = riding(walled(engine, Harris=(26.0, 26.0)), "walk", "")
    refused(engine, state, "move", "cannot clear the garden wall, 8 ft high", pace="walk", to="32,26")


def test_a_man_climbs_onto_a_high_wall_and_jumps_down(engine: SharpeEngine) -> None:
    state = walled(engine)
    up = play(engine, state, "move", 3, pace="walk", to="30,26")
    assert "climb onto the garden wall (8 ft): D6 3 +1 vaulting a high wall = 4" in texts(up, "check")[0]
    assert spot(up.state, "Harris") == [30.0, 26.0]
    down = play(engine, up.state, "move", 1, pace="walk", to="32,26")
    assert "jump down from the garden wall (8 ft): D6 1 +1 8 ft = 2" in texts(down, "check")[0]
    assert spot(down.state, "Harris") == [32.0, 26.0]


def test_a_man_pushed_off_a_walls_top_falls_its_height(engine: SharpeEngine) -> None:
    state = walled(engine, Harris=(28.8, 26.0), Dubois=(30.0, 26.0))
    out = play(engine, state, "push", 2, 1, 1, 1, pusher="Harris", pushed="Dubois")
    assert spot(out.state, "Dubois") == [pytest.approx(31.2), 26.0]
    assert "Dubois goes over the edge of the garden wall and falls 8 ft" in " ".join(texts(out, "fall"))
    assert char(out.state, "Dubois").down == "fallen"
    state = walled(engine, Harris=(27.8, 26.0), Dubois=(29.0, 26.0))
    out = play(engine, state, "push", 2, 1, pusher="Harris", pushed="Dubois")
    assert texts(out, "fall") == [] and "keep his feet" in texts(out, "check")[0]


def test_a_man_on_a_walls_top_is_uphill_and_a_wound_sends_him_over(engine: SharpeEngine) -> None:
    state = walled(engine, Harris=(28.8, 26.0), Dubois=(30.0, 26.0))
    refused(engine, state, "attack", "leave perch_ft: out", defender="Dubois", perch_ft=8)
    asked = play(engine, state, "attack", defender="Dubois")
    out = play(engine, asked.state, "defend", 6, 1, 5, 1, 1, 1, 1, side="french", choice="parry")
    assert "parry C 3 +1 uphill" in texts(out, "melee")[0]
    assert spot(out.state, "Dubois") == [31.0, 26.0] and char(out.state, "Dubois").down == "fallen"
    falls = texts(out, "fall")
    assert "Dubois goes over the edge of the garden wall and falls 8 ft." in falls
    assert any("falls 8 ft from the garden wall: location 1" in t for t in falls)


def test_a_parrier_on_a_walls_top_holds_it(engine: SharpeEngine) -> None:
    state = walled(engine, Harris=(28.8, 26.0), Dubois=(30.0, 26.0))
    asked = play(engine, state, "attack", defender="Dubois")
    out = play(engine, asked.state, "defend", 1, 6, side="french", choice="parry")
    assert "Dubois holds the obstacle and stays where he is" in texts(out, "melee")[0]
    assert spot(out.state, "Dubois") == [30.0, 26.0] and not char(out.state, "Dubois").down


# --- hypothesis


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    x=st.floats(1.5, 46.5),
    y=st.floats(8.0, 28.0),
    heading=st.floats(0, 359.9),
    pace=st.sampled_from(["walk", "trot", "canter", "gallop"]),
)
def test_a_runaway_never_leaves_the_table_unsaid_nor_overlaps_a_base(
    engine: SharpeEngine, x: float, y: float, heading: float, pace: str
) -> None:
    state = riding(on_map(engine), pace, "shaken")
    assert state.field is not None
    state.field.positions["Harris"] = [round(x, 2), round(y, 2)]
    state.field.facing["Harris"] = heading
    if any(math.dist(state.field.positions["Harris"], state.field.positions[n]) < 1.8 for n in ("Perkins", "Dubois")):
        return
    try:
        out = play(engine, state, "control", 6, figure="Harris")
    except Exception as exc:  # a run never refuses: it stops short instead
        raise AssertionError(f"run on from {x},{y} at {heading}: {exc}") from exc
    harris = char(out.state, "Harris")
    field = out.state.field
    assert field is not None
    if harris.out:
        assert "Harris" not in field.positions
        assert any("carries him off the table" in t for t in texts(out))
        return
    hx, hy = field.positions["Harris"]
    assert 0 <= hx <= 48 and 0 <= hy <= 36
    for other in ("Perkins", "Dubois"):
        assert math.dist((hx, hy), field.positions[other]) >= 1.2 + 0.6 - 0.06
    json.dumps(engine.dump_state(out.state))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    rider=st.tuples(st.floats(1.5, 46.5), st.floats(1.5, 34.5)),
    others=st.lists(st.tuples(st.floats(0.6, 47.4), st.floats(0.6, 35.4)), min_size=2, max_size=2),
    heading=st.floats(0, 359.9),
    pace=st.sampled_from(["walk", "trot", "canter", "gallop"]),
)
def test_a_thrown_rider_and_his_horse_never_overlap_a_base(
    engine: SharpeEngine, rider: tuple[float, float], others: list[tuple[float, float]], heading: float, pace: str
) -> None:
    state = riding(on_map(engine), pace, "")
    field = state.field
    assert field is not None
    spots = {"Harris": rider, "Perkins": others[0], "Dubois": others[1]}
    for name, (x, y) in spots.items():
        field.positions[name] = [round(x, 2), round(y, 2)]
    field.facing["Harris"] = heading
    reach = {"Harris": 1.2, "Perkins": 0.6, "Dubois": 0.6}
    if any(
        math.dist(field.positions[a], field.positions[b]) < reach[a] + reach[b]
        for a, b in itertools.combinations(spots, 2)
    ):
        return
    if engine.state_problems(state) or impassable_at(field, engine.terrain(), where(field, "Harris")):
        return
    out = play(engine, state, "check", 6, 1, 1, 1, situation="low_wall")
    after = out.state.field
    assert after is not None and engine.state_problems(out.state) == []
    bases = dict.fromkeys(("Harris", "Perkins", "Dubois"), 0.6)
    if HORSE in after.positions:
        bases[HORSE] = 1.2
    if after.positions["Harris"] == [round(x, 4) for x in spots["Harris"]]:
        return  # no room anywhere beside the horse: he lies where he sat (A-SHARPE-43)
    for a, b in itertools.combinations(bases, 2):
        assert math.dist(after.positions[a], after.positions[b]) >= bases[a] + bases[b] - 1e-3, (a, b)
    for name in bases:
        x, y = after.positions[name]
        assert 0 <= x <= 48 and 0 <= y <= 36


def test_a_man_who_stumbles_where_another_lies_falls_short_of_him_a_sharpe_44(engine: SharpeEngine) -> None:
    """Found by self-play (Sharpe seed 18): Harris stumbled at the ford right where Harper lay, and
    his base was set on Harper's. He falls where the bad going begins, or short of the man there."""
    state = on_map(engine, Harris=(17.0, 12.0), Perkins=(20.3, 12.0))
    char(state, "Perkins").down = "fallen"
    out = play(engine, state, "move", 6, pace="run", to="22,12")
    assert char(out.state, "Harris").down == "fallen"
    x, y = spot(out.state, "Harris")
    gap = math.hypot(x - 20.3, y - 12.0)
    radii = out.state.field and engine.field_view(out.state)
    assert radii is not None
    reach = {t.name: t.radius for t in radii.tokens}
    assert gap >= reach["Harris"] + reach["Perkins"] - 1e-3
    assert x < 20.0 and "stumbles at the copse" in texts(out, "move")[0]
