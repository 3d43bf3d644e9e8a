"""Event data carries the numbers its text shows (issue 19): a check's die, modifiers, total and
target, the ability points left after it, a shot's dice and what it needed, a wound's dice, a
contest's sides, so scripts and ``--json`` readers need not parse sentences. One representative
event per ruleset, through the engine with forced dice."""

from __future__ import annotations

from rules.nsr.engine import make_engine as make_nsr
from tests.rules import test_medieval_engine as medieval
from tests.rules import test_nsr_helpers as nsr_helpers
from tests.rules import test_nsr_movement as nsr
from tests.rules import test_sharpe_helpers as sharpe


def sharpe_game():
    engine = sharpe.new_engine()
    specs = [
        sharpe.fig("Harris", "british", "rifleman", I=6, D=4, S=4, C=4, F=8),
        sharpe.fig("Dubois", "french", "voltigeur", I=4, D=4, S=3, C=3),
    ]
    return engine, sharpe.begin(engine, specs)


def test_a_sharpe_check_carries_its_die_modifiers_target_and_the_points_left() -> None:
    engine, state = sharpe_game()
    out = sharpe.play(engine, state, "check", 2, ability="D", situation="low_wall", modifier=1)
    [check] = sharpe.events(out, "check")
    assert check.text == "Harris: low wall: D6 2 +1 low wall +1 agreed = 4 vs D 4: succeeds."
    assert check.data == {
        "figure": "Harris",
        "target": 4,
        "ability": "D",
        "roll": 2,
        "modifiers": [{"reason": "low wall", "value": 1}, {"reason": "agreed", "value": 1}],
        "modifier": 2,
        "total": 4,
        "needed": 4,
        "ok": True,
        "passed": True,
        "points_left": 3,
    }
    assert sharpe.char(out.state, "Harris").spent["D"] == 1


def test_a_sharpe_fall_carries_the_failed_check() -> None:
    engine, state = sharpe_game()
    out = sharpe.play(engine, state, "check", 5, ability="D", situation="high_wall")
    [fall] = sharpe.events(out, "fall")
    assert fall.data["roll"] == 5 and fall.data["needed"] == 4 and fall.data["total"] > 4
    assert fall.data["passed"] is False and fall.data["points_left"] == 3


def test_a_sharpe_shot_carries_its_dice_and_what_it_needed() -> None:
    engine, state = sharpe_game()
    out = sharpe.play(engine, state, "shoot", 2, 3, 5, 4, 4, target="Dubois", range=20)
    [shot] = sharpe.events(out, "shot")
    assert "skill 8 · 2D6 = 5 ≤ 8: hit · location 5: chest · wound 2D6 4+4 = 8" in shot.text
    data = shot.data
    assert (data["to_hit"], data["roll"], data["needed"], data["hit"]) == ([2, 3], 5, 8, True)
    assert (data["location_rolls"], data["location"]) == ([5], "chest")
    assert (data["wound_rolls"], data["wound_modifier"], data["score"]) == ([4, 4], 0, 8)


def test_a_medieval_fight_carries_each_sides_die_fight_accuracy_and_factors() -> None:
    engine = medieval.make_engine()
    state = medieval.engaged(engine, medieval.begin(engine), "Hugh", "Olaf")
    out = medieval.play(engine, state, "fight", 4, 3, 2, 5, figure="Hugh")
    fight = medieval.event(out, "fight")
    assert fight.text == "Hand-to-hand: Hugh 4 + Fight 4 + Sword 0 = 8; Olaf 3 + Fight 4 + Battleaxe 0 = 7: Hugh wins."
    side = {"modifiers": [], "modifier": 0, "accuracy": 0, "fight": 4}
    assert fight.data["sides"] == {"Hugh": {**side, "roll": 4, "total": 8}, "Olaf": {**side, "roll": 3, "total": 7}}
    assert fight.data["rolls"] == {"Hugh": 4, "Olaf": 3} and fight.data["totals"] == {"Hugh": 8, "Olaf": 7}


def test_an_nsr_move_and_a_failed_charge_carry_their_dice_and_penalties() -> None:
    engine = make_nsr()
    out = nsr_helpers.act(engine, nsr.moving(engine, "light"), "move", rough=True, dice=[6, 2, 4], cards=[nsr.NEXT])
    [move] = nsr_helpers.events(out, "move")
    assert (move["dice"], move["rolls"], move["roll"], move["inches"]) == (3, [6, 2, 4], 12, 6)
    assert move["modifiers"] == [{"reason": "rough terrain", "value": -6}] and move["modifier"] == -6
    out = nsr_helpers.act(
        engine, nsr.moving(engine), "charge", target="33rd Foot", distance=12, dice=[3, 3, 3], cards=[nsr.NEXT]
    )
    [charge] = nsr_helpers.events(out, "charge")
    assert "3D6 3+3+3 = 9 → 9″, short of the 10″ needed" in nsr_helpers.texts(out)
    assert (charge["rolls"], charge["roll"], charge["inches"], charge["needed"], charge["reached"]) == (
        [3, 3, 3],
        9,
        9,
        10,
        False,
    )
