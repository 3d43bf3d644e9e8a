"""Movement (4) and actions (5): paces, wounds and bad going, contact, horses' paces and turns,
falls, rising, collisions, pushing, action checks and their modifiers, strength tasks, loading guns."""

from __future__ import annotations

import pytest

from rules.sharpe.state import Wound
from tests.rules.test_sharpe_helpers import (
    begin,
    char,
    events,
    fig,
    new_engine,
    play,
    refused,
    texts,
)


def game(**options):
    engine = new_engine(**options)
    specs = [
        fig("Harris", "british", "rifleman", I=6, D=4, S=4, C=4, F=8),
        fig("Lancier", "french", "cavalryman", I=5, D=4, S=4, C=4),
        fig("Dubois", "french", "voltigeur", I=4, D=4, S=3, C=3),
        fig("Perkins", "british", "rifleman", I=3, D=3, S=3, C=3, F=7),
    ]
    return engine, begin(engine, specs)


@pytest.mark.parametrize("pace, most", [("crawl", 3), ("walk", 6), ("run", 9)])
def test_foot_paces(pace: str, most: float) -> None:
    engine, state = game()
    out = play(engine, state, "move", pace=pace, distance=most)
    assert texts(out, "move")[0].endswith("(0″ left).")
    refused(engine, state, "move", f"may move {most:g}″ at a {pace}", pace=pace, distance=most + 0.5)


def test_wounds_then_bad_going_a_sharpe_21() -> None:
    engine, state = game()
    char(state, "Harris").wounds += [Wound("chest", "light", 0, "x"), Wound("abdomen", "serious", 0, "x")]
    refused(engine, state, "move", "may move 6″ at a run", pace="run", distance=6.5)
    refused(engine, state, "move", "may move 3″ at a run in bad going", pace="run", distance=3.5, bad_going=True)
    refused(engine, state, "move", "may move 1.5″ at a walk in bad going", pace="walk", distance=2, bad_going=True)


def test_several_moves_add_up() -> None:
    engine, state = game()
    state = play(engine, state, "move", distance=2.5).state
    state = play(engine, state, "move", distance=3.5).state
    refused(engine, state, "move", "has 0″ left", distance=0.5)
    assert char(state, "Harris").moved == 6 and char(state, "Harris").moved_bound == 1


def test_contact_ends_the_move() -> None:
    engine, state = game()
    out = play(engine, state, "move", distance=4, contact="Dubois")
    assert "his move ends" in texts(out, "contact")[0] and out.state.contacts[0].since == 1
    refused(engine, out.state, "move", "move is over", distance=1)
    refused(engine, state, "move", "own side", distance=1, contact="Perkins")


def test_leg_wounds_limit_movement() -> None:
    engine, state = game()
    harris = char(state, "Harris")
    harris.crawl_only = True
    refused(engine, state, "move", "only crawl", pace="walk", distance=1)
    assert "crawls" in texts(play(engine, state, "move", distance=3))[0]
    harris.crawl_only, harris.no_move_bound = False, 1
    refused(engine, state, "move", "leg wound stops him", distance=1)


def test_going_backwards_is_a_dexterity_check_and_a_failure_a_fall() -> None:
    engine, state = game()
    ok = play(engine, state, "move", 4, distance=3, backwards=True)
    assert "going backwards: D6 4 vs D 4: succeeds" in texts(ok, "check")[0]
    fell = play(engine, state, "move", 4, distance=3, backwards=True, bad_going=True)
    assert "D6 4 +1 going backwards in bad going = 5 vs D 4: fails" in texts(fell, "fall")[0]
    harris = char(fell.state, "Harris")
    assert harris.down == "fallen" and harris.moved == 0
    refused(engine, fell.state, "attack", "on the ground", defender="Dubois")


def test_running_in_bad_going_is_a_check() -> None:
    engine, state = game()
    out = play(engine, state, "move", 2, pace="run", distance=4, bad_going=True)
    assert "+1 running in bad going = 3 vs D 4: succeeds" in texts(out, "check")[0]


def test_getting_up_after_a_fall_costs_the_next_move() -> None:
    engine, state = game()
    char(state, "Harris").down = "fallen"
    up = play(engine, state, "rise")
    assert "cannot move or attack" in texts(up, "rise")[0] and not char(up.state, "Harris").down
    refused(engine, up.state, "move", "got up this bound", distance=2)
    refused(engine, up.state, "attack", "got up this bound", defender="Dubois")
    refused(engine, up.state, "rise", "on his feet")


def test_a_knocked_down_man_rises_on_initiative_once_a_bound() -> None:
    engine, state = game()
    char(state, "Harris").down = "knocked_down"
    failed = play(engine, state, "rise", 6)
    assert "stays down" in texts(failed, "rise")[0]
    refused(engine, failed.state, "rise", "already tried")
    up = play(engine, state, "rise", 5)
    assert "on his feet" in texts(up, "rise")[0] and play(engine, up.state, "move", distance=2)


# --- horses --------------------------------------------------------------------------------------------


def mounted(pace: str = "halt", **options):
    engine, state = game(**options)
    state.active = "Lancier"
    horse = char(state, "Lancier").horse
    horse.pace = horse.start_pace = pace
    return engine, state


@pytest.mark.parametrize(
    "start, pace, ok",
    [
        ("halt", "walk", True),
        ("halt", "trot", False),
        ("trot", "gallop", False),
        ("canter", "gallop", True),
        ("gallop", "walk", False),
        ("gallop", "canter", True),
    ],
)
def test_a_horse_changes_pace_one_step_at_a_time(start: str, pace: str, ok: bool) -> None:
    engine, state = mounted(start)
    if ok:
        assert f"rides at the {pace}" in texts(play(engine, state, "move", pace=pace, distance=3))[0]
    else:
        refused(engine, state, "move", "one step at a time", pace=pace, distance=3)


@pytest.mark.parametrize(
    "pace, limit, distance", [("walk", 180, 6), ("trot", 180, 9), ("canter", 90, 12), ("gallop", 45, 15)]
)
def test_mounted_distances_and_turns(pace: str, limit: int, distance: float) -> None:
    engine, state = mounted(pace)
    assert play(engine, state, "move", pace=pace, distance=distance, turn=limit)
    if limit < 180:
        refused(engine, state, "move", f"turns at most {limit}°", pace=pace, distance=1, turn=limit + 1)
    refused(engine, state, "move", f"may move {distance:g}″", pace=pace, distance=distance + 1)


def test_a_fast_horse_cannot_stand_still() -> None:
    engine, state = mounted("canter")
    refused(engine, state, "done", "cannot stand still")
    state = play(engine, state, "move", pace="trot", distance=4).state
    assert play(engine, state, "done")


def test_a_lamed_horse_will_not_gallop_and_a_runaway_must_be_controlled() -> None:
    engine, state = mounted("canter")
    horse = char(state, "Lancier").horse
    horse.lamed = True
    refused(engine, state, "move", "no faster than the canter", pace="gallop", distance=3)
    horse.lost_control = "wounded"
    refused(engine, state, "move", "out of control", pace="canter", distance=3)
    veer = play(engine, state, "control", 6, 2)
    assert "veers 45° to the left (D6 2)" in texts(veer, "check")[0]
    refused(engine, veer.state, "control", "already tried")
    calm = play(engine, state, "control", 3)
    assert "under control" in texts(calm, "check")[0] and not char(calm.state, "Lancier").horse.lost_control
    refused(engine, calm.state, "control", "under control already")


def test_a_rider_thrown_in_a_collision_is_hurt_as_by_a_fall() -> None:
    engine, state = mounted("gallop")
    out = play(engine, state, "collide", 4, 1, 6, 6, figures="Lancier")
    assert "+1 at the gallop = 5 vs D 4: fails" in texts(out, "check")[0]
    assert "−3 falling = 9" in texts(out, "fall")[0] and not char(out.state, "Lancier").mounted


def test_men_on_foot_in_a_collision_may_fall() -> None:
    engine, state = game()
    out = play(engine, state, "collide", 2, 5, figures="Harris, Dubois")
    assert char(out.state, "Harris").down == "" and char(out.state, "Dubois").down == "fallen"
    refused(engine, state, "collide", "named twice", figures="Harris, Harris")


# --- action checks ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("height, mod", [(6, 0), (7, 1), (12, 1), (13, 2), (14, 2), (19, 3)])
def test_jumping_down_heights(height: int, mod: int) -> None:
    engine, state = game()
    out = play(engine, state, "check", 1, ability="D", situation="jump_down", height_ft=height)
    [event] = events(out, "check")
    assert event.data["total"] == 1 + mod


@pytest.mark.parametrize(
    "situation, mod",
    [
        ("backwards", 0),
        ("backwards_bad_going", 1),
        ("run_bad_going", 1),
        ("low_wall", 1),
        ("fight_bad_going", 1),
        ("high_wall", 1),
        ("climb_tree", 0),
    ],
)
def test_action_modifiers(situation: str, mod: int) -> None:
    engine, state = game()
    out = play(engine, state, "check", 2, ability="D", situation=situation)
    assert events(out, "check")[0].data["total"] == 2 + mod


def test_a_natural_six_always_fails_and_checks_cost_a_point_a_sharpe_5() -> None:
    engine, state = game()
    char(state, "Harris").S = 6
    six = play(engine, state, "check", 6, ability="S", what="roll the boulder")
    assert "roll the boulder: D6 6 vs S 6: fails (a 6 always fails)" in texts(six)[0]
    five = play(engine, state, "check", 5, ability="S", modifier=2)
    assert "fails" in texts(five)[0]
    again = play(engine, six.state, "check", 5, ability="S")
    assert "vs S 5: succeeds" in texts(again)[0]  # the first check cost a point


def test_a_failed_dexterity_check_on_an_obstacle_is_a_fall() -> None:
    engine, state = game()
    out = play(engine, state, "check", 5, ability="D", situation="high_wall")
    assert char(out.state, "Harris").down == "fallen" and "falls over" in texts(out, "fall")[0]
    plain = play(engine, state, "check", 5, ability="I")
    assert not char(plain.state, "Harris").down


def test_a_rider_failing_at_an_obstacle_comes_off() -> None:
    engine, state = mounted("gallop")
    out = play(engine, state, "check", 4, 1, 1, 1, ability="D", situation="low_wall")
    assert not char(out.state, "Lancier").mounted and texts(out, "fall")


def test_checks_are_refused_for_men_out_of_the_fight() -> None:
    engine, state = game()
    refused(engine, state, "check", "situation", ability="D", situation="flying")
    refused(engine, state, "check", "ability", ability="C")
    char(state, "Harris").wounded_bound = 1
    refused(engine, state, "check", "wounded this bound", ability="D")


# --- strength tasks -----------------------------------------------------------------------------------------


def test_task_strength_rolled_d6_plus_6_and_remembered() -> None:
    engine, state = game()
    out = play(engine, state, "task", 5, helpers="Perkins", object="the gate")
    assert "5 + 6 = 11" in texts(out, "task")[0] and out.state.objects == {"the gate": 11}
    assert "cannot possibly" in texts(out, "task")[1]
    again = play(engine, out.state, "task", helpers="Perkins", object="the gate")
    assert "cannot possibly" in texts(again, "task")[0] and len(again.events) == 1


def test_task_helpers_must_be_comrades() -> None:
    engine, state = game()
    refused(engine, state, "task", "own side", helpers="Dubois", strength=5)
    refused(engine, state, "task", "once each", helpers="Perkins, Perkins", strength=5)


def test_every_man_must_succeed() -> None:
    engine, state = game()
    out = play(engine, state, "task", 2, 4, helpers="Perkins", strength=7, object="the cart")
    assert "the cart holds" in texts(out, "task")[0]


# --- turns --------------------------------------------------------------------------------------------------


def test_done_names_only_the_active_character() -> None:
    engine, state = game()
    refused(engine, state, "done", "It is Harris's turn", figure="Perkins")
    out = play(engine, state, "done", figure="harris")
    assert out.state.active == "Lancier" and engine.whose_turn(out.state) == "french"
