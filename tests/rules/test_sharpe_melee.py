"""Melee (8-11) and its optional parts (15-17): the defender's choice, turning, second attacks, every
combat and wound modifier, draws, recoil and follow-up, bare hands, capture, silent approach,
distraction, dodging, killing unconscious men and fighting horsemen."""

from __future__ import annotations

import pytest

from rules.sharpe.state import Contact, Wound
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
        fig("Sharpe", "british", "rifle_officer", I=6, D=5, S=5, C=5, F=10),
        fig("Harris", "british", "rifleman", I=5, D=4, S=4, C=4, F=8),
        fig("Dubois", "french", "voltigeur", I=4, D=4, S=3, C=3),
        fig("Martin", "french", "voltigeur", I=3, D=3, S=2, C=3),
        fig("Lancier", "french", "cavalryman", I=2, D=4, S=4, C=4),
    ]
    return engine, begin(engine, specs)


def choices(outcome) -> list[str]:
    return [c.value for c in outcome.pending.choices]


def answer(engine, outcome, choice: str, *dice: int, side: str | None = None):
    return play(engine, outcome.state, "defend", *dice, side=side or outcome.pending.decider, choice=choice)


def line(outcome) -> str:
    return texts(outcome, "melee")[0]


def test_first_attack_is_faced_whatever_the_flank() -> None:
    engine, state = game()
    asked = play(engine, state, "attack", defender="Dubois", flank="rear")
    assert asked.pending.decider == "french" and choices(asked) == ["parry", "riposte", "dodge", "distract"]
    assert engine.whose_turn(asked.state) == "french"
    parried = answer(engine, asked, "parry", 1, 6)
    assert "C 5 + D6 1 = 6 vs parry C 3 + D6 6 = 9: parried — Dubois recoils 1 pace" in line(parried)
    assert char(parried.state, "Sharpe").spent["C"] == 1 and char(parried.state, "Dubois").spent["C"] == 1
    assert engine.whose_turn(parried.state) == "british"


def second(engine, state, flank: str):
    """Sharpe's attack is parried (Dubois has fought this bound); then Harris attacks from ``flank``."""
    state = answer(engine, play(engine, state, "attack", defender="Dubois"), "parry", 1, 6).state
    state = play(engine, state, "done").state
    return play(engine, state, "attack", defender="Dubois", flank=flank)


@pytest.mark.parametrize("flank, bonus", [("right", 1), ("left", 2), ("rear", 3)])
def test_second_attacks_from_the_flank_when_he_does_not_turn(flank: str, bonus: int) -> None:
    engine, state = game()
    asked = second(engine, state, flank)
    assert "turn" in choices(asked) and f"+{bonus} to him unless Dubois turns" in asked.pending.prompt
    parried = answer(engine, asked, "parry", 1, 6)
    assert f"C 4 +{bonus} from the {flank}, not turned + D6 1 = {5 + bonus}" in line(parried)
    assert "vs parry C 2 + D6 6 = 8" in line(parried)  # a parry takes no penalty


def test_riposte_when_not_turned_is_minus_one_a_sharpe_8() -> None:
    engine, state = game()
    asked = second(engine, state, "right")
    out = answer(engine, asked, "riposte", 1, 6, 1, 1)
    assert "vs riposte C 2 −1 not turned + D6 6 = 7: the riposte goes home" in line(out)
    assert char(out.state, "Dubois").spent["C"] == 3


def test_turning_to_face_removes_the_bonus() -> None:
    engine, state = game()
    asked = second(engine, state, "left")
    turned = answer(engine, asked, "turn", 2)
    assert "turns to face him" in texts(turned, "check")[0] and "turn" not in choices(turned)
    out = answer(engine, turned, "parry", 1, 6)
    assert "C 4 + D6 1 = 5 vs parry" in line(out)


def test_a_failed_turn_is_not_tried_again() -> None:
    engine, state = game()
    turned = answer(engine, second(engine, state, "left"), "turn", 6)
    assert "too quickly" in texts(turned, "check")[0] and "turn" not in choices(turned)
    assert "+2 to him" in turned.pending.prompt


def test_a_draw_holds_him_so_he_cannot_turn_a_sharpe_23() -> None:
    engine, state = game()
    state.contacts.append(Contact("Dubois", "Sharpe", 1, locked=True))
    char(state, "Dubois").fought_bound = 1
    state.active = "Harris"
    asked = play(engine, state, "attack", defender="Dubois", flank="left")
    assert "turn" not in choices(asked) and "dodge" not in choices(asked)


def test_no_points_left_means_a_bare_d6_a_sharpe_9() -> None:
    engine, state = game()
    char(state, "Dubois").spent.update({"C": 3, "D": 4, "I": 4})
    out = play(engine, state, "attack", 1, 6, defender="Dubois")  # one choice: taken at once
    assert out.pending is None and "vs bare D6 6: a draw" in line(out)
    char(state, "Dubois").spent.update({"C": 3, "D": 0, "I": 4})
    asked = play(engine, state, "attack", defender="Dubois")
    assert choices(asked) == ["dodge", "d6"]
    char(state, "Dubois").spent.update({"C": 2, "D": 0, "I": 4})
    assert choices(play(engine, state, "attack", defender="Dubois")) == ["parry", "dodge"]  # one C: no riposte


def test_riposte_needs_two_points_and_a_weapon() -> None:
    engine, state = game()
    char(state, "Dubois").spent["C"] = 2
    assert "riposte" not in choices(play(engine, state, "attack", defender="Dubois"))
    engine2 = new_engine()
    state2 = begin(
        engine2,
        [fig("Sharpe", "british", "rifle_officer", C=5), fig("Pistolier", "french", "officer", weapons=["pistol"])],
    )
    asked = play(engine2, state2, "attack", defender="Pistolier")
    assert "riposte" not in choices(asked)
    out = answer(engine2, asked, "parry", 1, 6)
    assert "−1 bare hands against a weapon" in line(out)


def test_no_dodge_while_in_contact_with_another_enemy_a_sharpe_29() -> None:
    engine, state = game()
    state.contacts.append(Contact("Dubois", "Harris", 1))
    assert "dodge" not in choices(play(engine, state, "attack", defender="Dubois"))
    state.contacts = [Contact("Dubois", "Martin", 1)]  # a comrade does not pin him
    assert "dodge" in choices(play(engine, state, "attack", defender="Dubois"))


def test_a_man_with_no_room_still_parries_by_default_a_sharpe_28() -> None:
    engine, state = game()
    asked = play(engine, state, "attack", defender="Dubois", no_room=True)
    assert "parry" in choices(asked)
    stays = answer(engine, asked, "parry", 1, 6)
    assert "has no room to give ground and stays where he is" in line(stays)
    hit = answer(engine, asked, "parry", 6, 1, 1, 1)
    assert "+1 cannot recoil" in line(hit)
    strict = new_engine(no_parry_without_room=True)
    state = begin(strict, state_specs())
    asked = play(strict, state, "attack", defender="Dubois", no_room=True)
    assert "parry" not in choices(asked) and "riposte" not in choices(asked) and "dodge" in choices(asked)


def state_specs():
    return [
        fig("Sharpe", "british", "rifle_officer", I=6, D=5, S=5, C=5, F=10),
        fig("Dubois", "french", "voltigeur", C=3),
    ]


@pytest.mark.parametrize("strength, mod", [(1, -1), (2, -1), (3, 0), (4, 0), (5, 1), (6, 1)])
def test_attacker_strength_on_the_wound_roll(strength: int, mod: int) -> None:
    engine = new_engine()
    state = begin(
        engine, [fig("Sharpe", "british", "rifle_officer", S=strength, C=5), fig("Dubois", "french", "voltigeur", C=3)]
    )
    out = answer(engine, play(engine, state, "attack", defender="Dubois"), "parry", 6, 1, 1, 1)
    expected = f"score 7 + D6 1{'' if not mod else (' +1' if mod > 0 else ' −1')}{f' strength {strength}' if mod else ''} = {8 + mod}"
    assert expected in line(out)


def test_uphill_horseback_fallen_and_left_hand() -> None:
    engine, state = game()
    char(state, "Dubois").down = "fallen"
    out = answer(
        engine, play(engine, state, "attack", defender="Dubois", uphill="attacker", left_hand=True), "parry", 1, 6
    )
    assert "C 5 +1 uphill +1 a fallen man −1 left hand + D6 1 = 7" in line(out)
    assert "vs parry C 3 −1 on the ground + D6 6 = 8" in line(out)
    up = answer(engine, play(engine, game()[1], "attack", defender="Dubois", uphill="defender"), "parry", 1, 6)
    assert "vs parry C 3 +1 uphill + D6 6 = 10" in line(up)


def test_obstacle_parry_bonus_and_the_counter() -> None:
    engine, state = game()
    out = answer(engine, play(engine, state, "attack", defender="Dubois", obstacle="defender"), "parry", 1, 6)
    assert "+1 at the obstacle" in line(out) and "holds the obstacle and stays where he is" in line(out)
    counter = answer(engine, play(engine, state, "attack", defender="Dubois", obstacle="counter"), "parry", 1, 6)
    assert "+1 across the obstacle" in line(counter)


def test_a_draw_locks_them_and_they_fight_on() -> None:
    engine, state = game()
    out = answer(engine, play(engine, state, "attack", defender="Dubois"), "parry", 3, 5)
    assert "a draw" in line(out) and out.state.contacts[0].locked
    state = play(engine, out.state, "done").state
    state = play(engine, state, "done").state
    assert state.active == "Dubois"
    refused(engine, state, "move", "locked in melee with Sharpe", distance=2)


def test_follow_up_keeps_contact_after_a_parry() -> None:
    engine, state = game()
    out = answer(engine, play(engine, state, "attack", defender="Dubois", follow_up=True), "parry", 1, 6)
    assert "Sharpe follows up" in line(out) and out.state.contacts


def test_bare_hands_blows_a_sharpe_31() -> None:
    engine, state = game()
    punch = answer(engine, play(engine, state, "attack", defender="Dubois", weapon="bare"), "parry", 6, 1, 1, 1, 5, 1)
    assert "location 1 → 1 → 5: chest" in line(punch) and "−1 no weapon" in line(punch)
    kick = answer(
        engine, play(engine, state, "attack", defender="Dubois", weapon="bare", blow="kick"), "parry", 6, 1, 5, 1
    )
    assert "kick location 5: abdomen" in line(kick)
    butt = answer(
        engine, play(engine, state, "attack", defender="Dubois", weapon="bare", blow="headbutt"), "parry", 6, 1, 1, 1
    )
    assert "location: head (head butt)" in line(butt)
    refused(engine, state, "attack", "bare hands", defender="Dubois", blow="kick")


def test_wounded_limbs_limit_the_blows() -> None:
    engine, state = game()
    sharpe = char(state, "Sharpe")
    sharpe.wounds += [Wound("left_arm", "light", 1, "x"), Wound("right_arm", "light", 1, "x")]
    refused(engine, state, "attack", "only kick or head butt", defender="Dubois", weapon="bare", blow="punch")
    sharpe.wounds = [Wound("legs", "light", 1, "x")]
    refused(engine, state, "attack", "stops him kicking", defender="Dubois", weapon="bare", blow="kick")


def test_capture_knocks_out_instead_of_wounding_a_sharpe_12() -> None:
    engine, state = game()
    out = answer(engine, play(engine, state, "attack", defender="Dubois", capture=True), "parry", 6, 1, 4, 1, 2)
    assert "location 4 +1 (capture): chest" in line(out) and "serious wound" in line(out)
    dubois = char(out.state, "Dubois")
    assert dubois.knocked_out == 2 and dubois.wounds == [] and not dubois.out
    assert "knocked out for 2 bounds" in texts(out, "wound")[0]
    six = answer(engine, play(engine, state, "attack", defender="Dubois", capture=True), "parry", 6, 1, 6, 1, 1)
    assert "location 6 +1 (capture): head" in line(six)


def test_silent_approach_unheard_is_plus_four_and_a_capture_hits_the_head_a_sharpe_17() -> None:
    engine, state = game()
    state.active = "Harris"
    char(state, "Harris").moved_bound, char(state, "Harris").pace = 1, "crawl"
    # Dubois (I 4) hears on D6 + 1 sneaking + 1 rifleman ≤ 4: he rolls 3, = 5: not heard.
    out = play(engine, state, "attack", 3, defender="Dubois", flank="rear", silent=True, capture=True)
    assert "+1 attacker at a crawl +1 rifleman = 5 vs I 4: fails" in texts(out, "check")[0]
    assert "+4 to him" in out.pending.prompt and "turn" not in choices(out)
    hit = answer(engine, out, "parry", 1, 1, 6, 1)
    assert "+4 unheard from behind" in line(hit) and "location: head (sneaked up on)" in line(hit)


def test_silent_approach_heard_then_a_dexterity_test_to_turn() -> None:
    engine, state = game()
    state.active = "Harris"
    heard = play(engine, state, "attack", 1, 2, defender="Dubois", flank="rear", silent=True)
    assert "hears him coming" in texts(heard, "check")[0] and "turns in time" in texts(heard, "check")[1]
    assert "+" not in heard.pending.prompt.split("(")[0]
    slow = play(engine, state, "attack", 1, 6, defender="Dubois", flank="rear", silent=True)
    assert "+3 to him" in slow.pending.prompt


def test_silent_approach_rules() -> None:
    engine, state = game()
    refused(engine, state, "attack", "from behind", defender="Dubois", silent=True)
    off = new_engine(silent_approach=False)
    refused(off, begin(off, state_specs()), "attack", "not used", defender="Dubois", flank="rear", silent=True)


def test_a_successful_distraction_stops_the_attacker_and_ends_his_turn() -> None:
    engine, state = game()
    out = answer(engine, play(engine, state, "attack", defender="Dubois"), "distract", 2)
    assert "falls for it" in texts(out, "check")[0]
    assert out.state.active == "Harris" and char(out.state, "Sharpe").halted_bound == 1
    assert char(out.state, "Dubois").spent["I"] == 1


def test_a_failed_distraction_leaves_the_other_defences() -> None:
    engine, state = game()
    out = answer(engine, play(engine, state, "attack", defender="Dubois"), "distract", 5)
    assert "does not fall for it" in texts(out, "check")[0]
    assert "distract" not in choices(out) and "parry" in choices(out)


def test_dodge_a_sword_thrust_is_plus_one_and_a_failed_dodge_is_2d6_a_sharpe_30() -> None:
    engine, state = game()
    dodged = answer(engine, play(engine, state, "attack", defender="Dubois"), "dodge", 3)
    assert "D6 3 +1 a sword thrust = 4 vs D 4: succeeds" in line(dodged) and dodged.state.contacts
    failed = answer(engine, play(engine, state, "attack", defender="Dubois"), "dodge", 4, 1, 3, 4)
    assert "the blow lands" in line(failed) and "2D6 3+4 +1 strength 5 = 8" in line(failed)
    state.active = "Harris"
    plain = answer(engine, play(engine, state, "attack", defender="Dubois"), "dodge", 4)
    assert "D6 4 vs D 4: succeeds" in line(plain)  # a bayonet is no sword


def test_one_attack_and_no_shooting_after_it() -> None:
    engine, state = game()
    state = answer(engine, play(engine, state, "attack", defender="Dubois"), "parry", 1, 6).state
    refused(engine, state, "attack", "one attack per bound", defender="Martin")
    refused(engine, state, "shoot", "attacked in melee", target="Martin", range=10)
    shot = play(engine, game()[1], "shoot", 6, 5, target="Martin", range=20).state
    refused(engine, shot, "attack", "fired this bound", defender="Martin")


def test_decisions_belong_to_the_defender() -> None:
    engine, state = game()
    asked = play(engine, state, "attack", defender="Dubois")
    refused(engine, asked.state, "defend", "belongs to the french", side="british", choice="parry")
    refused(engine, asked.state, "defend", "Choose one of", side="french", choice="run away")
    refused(engine, asked.state, "attack", "Waiting for the french", side="british", defender="Martin")
    refused(engine, asked.state, "defend", "already been made", side="french", choice="parry", pending=999)
    refused(engine, state, "defend", "Nothing is waiting", side="french", choice="parry")
    gm = play(engine, asked.state, "defend", 1, 6, side="british", by_gm=True, choice="parry")
    assert "parried" in line(gm)


def test_attack_refusals() -> None:
    engine, state = game()
    refused(engine, state, "attack", "own side", defender="Harris")
    refused(engine, state, "attack", "not a close-combat weapon", defender="Dubois", weapon="pistol")
    refused(engine, state, "attack", "does not carry", defender="Dubois", weapon="bayonet")
    char(state, "Sharpe").down = "fallen"
    refused(engine, state, "attack", "on the ground", defender="Dubois")


# --- killing unconscious men (16) ----------------------------------------------------------------------


def test_killing_an_unconscious_man_a_sharpe_27() -> None:
    engine, state = game()
    dubois = char(state, "Dubois")
    dubois.unconscious, dubois.down, dubois.passout_rolls = True, "knocked_down", True
    dubois.wounds.append(Wound("chest", "serious", 1, "x"))
    refused(engine, state, "kill", "since the last bound", victim="Dubois")
    state.contacts.append(Contact("Sharpe", "Dubois", 1))
    refused(engine, state, "kill", "since the last bound", victim="Dubois")
    state.bound = 2
    out = play(engine, state, "kill", victim="Dubois")
    assert char(out.state, "Dubois").out and events(out, "casualty")
    assert char(out.state, "Sharpe").murdered_bound == 2
    refused(engine, state, "kill", "conscious", victim="Martin")
    char(state, "Sharpe").fought_bound = 2
    refused(engine, state, "kill", "lost his chance", victim="Dubois")


def test_a_murderer_cannot_turn_to_a_new_attacker() -> None:
    engine, state = game()
    sharpe = char(state, "Sharpe")
    sharpe.murdered_bound = sharpe.fought_bound = 1
    state.active = "Dubois"
    asked = play(engine, state, "attack", defender="Sharpe", flank="left")
    assert "turn" not in choices(asked) and "+2" in asked.pending.prompt


def test_an_unconscious_man_defends_with_a_bare_d6() -> None:
    engine, state = game()
    char(state, "Dubois").unconscious = True
    out = play(engine, state, "attack", 1, 6, defender="Dubois")
    assert out.pending is None and "bare D6" in line(out)


def test_killing_unconscious_men_is_a_switch() -> None:
    engine = new_engine(killing_unconscious=False)
    refused(engine, begin(engine, state_specs()), "kill", "not allowed", victim="Dubois")


# --- horsemen (15) ---------------------------------------------------------------------------------------


def test_attacking_the_horse_the_rider_may_parry_for_it() -> None:
    engine, state = game()
    asked = play(engine, state, "attack", defender="Lancier", at="horse")
    assert choices(asked) == ["rider_parry", "horse_d6"] and asked.pending.decider == "french"
    bare = answer(engine, asked, "horse_d6", 4, 2, 1, 3, 1)
    assert "vs the horse's D6 2" in line(bare) and "−1 horse hit by man" in line(bare)
    assert char(bare.state, "Lancier").horse.wounds or char(bare.state, "Lancier").horse.dead
    parried = answer(engine, asked, "rider_parry", 1, 6)
    assert "rider's parry C 4 +1 on horseback + D6 6 = 11: the horse is not touched" in line(parried)


def test_a_horseman_gets_plus_one_and_does_not_recoil_when_he_parries() -> None:
    engine, state = game()
    out = answer(engine, play(engine, state, "attack", defender="Lancier"), "parry", 1, 6)
    assert "+1 on horseback" in line(out) and "keeps his saddle" in line(out)


def test_riding_a_man_down_dodge_and_slash() -> None:
    engine, state = game()
    lancier = char(state, "Lancier")
    lancier.horse.pace = lancier.horse.start_pace = "gallop"
    state.active = "Lancier"
    asked = play(engine, state, "attack", defender="Harris", ride_over=True)
    assert choices(asked) == ["dodge", "stand"] and asked.pending.decider == "british"
    dodged = answer(engine, asked, "dodge", 3)
    assert "+1 a horse at the gallop = 4 vs D 4: succeeds" in line(dodged) and "slashes at him" in line(dodged)
    assert dodged.pending.decider == "british" and "parry" in choices(dodged)


def test_ridden_down_wounds_as_a_shot_and_the_horse_may_trip() -> None:
    engine, state = game()
    lancier = char(state, "Lancier")
    lancier.horse.pace = "canter"
    state.active = "Lancier"
    asked = play(engine, state, "attack", defender="Harris", ride_over=True)
    out = answer(engine, asked, "stand", 1, 3, 3, 1, 1, 1, 1)
    assert "location 1: legs · wound 2D6 3+3 +1 hit by a horse = 7: serious wound" in line(out)
    assert "stumbles over Harris" in texts(out, "horse")[0]


def test_ride_over_needs_speed() -> None:
    engine, state = game()
    state.active = "Lancier"
    refused(engine, state, "attack", "canter or gallop", defender="Harris", ride_over=True)


def test_go_for_the_horse_after_surviving_the_horseman() -> None:
    engine, state = game()
    state.active = "Lancier"
    asked = play(engine, state, "attack", defender="Harris")
    assert "horse" in choices(asked)
    survived = answer(engine, asked, "horse", 1, 6)
    assert "vs bare D6 6" in line(survived) and survived.pending.decider == "french"
    assert "attacks Lancier's horse" in survived.pending.prompt


def test_horsemen_are_a_switch() -> None:
    engine = new_engine(horsemen=False)
    state = begin(engine, [fig("Sharpe", "british", "rifle_officer"), fig("Lancier", "french", "cavalryman")])
    assert not char(state, "Lancier").mounted
    refused(engine, state, "attack", "not on a horse", defender="Lancier", at="horse")


def test_a_horseman_at_the_halt_rides_past_nobody() -> None:
    """Issue 19: his gallop refused (the horse was at the halt), Lancier attacks where he stands; he
    was still said to ride on to the end of his move. He stays in contact, as a man on foot would."""
    engine, state = game()
    state.active = "Lancier"
    refused(engine, state, "move", "changes pace one step at a time", pace="gallop", distance=10.0)
    asked = play(engine, state, "attack", defender="Harris")
    out = answer(engine, asked, "parry", 6, 1, 1, 1)
    assert texts(out, "horse") == [] and "rides on" not in " ".join(texts(out))
    assert char(out.state, "Lancier").contact_bound == 1
    refused(engine, out.state, "move", "his move is over for this bound", pace="walk", distance=1.0)


def test_a_moving_horseman_still_rides_on() -> None:
    engine, state = game()
    lancier = char(state, "Lancier")
    lancier.horse.pace = lancier.horse.start_pace = "trot"
    state.active = "Lancier"
    out = answer(engine, play(engine, state, "attack", defender="Harris"), "parry", 6, 1, 1, 1)
    assert texts(out, "horse") == ["Lancier rides on to the end of his move."]


@pytest.mark.parametrize("no_room, said", [(False, "recoils 1″"), (True, "has no room to recoil")])
def test_a_wound_at_a_table_recoils_unless_there_is_no_room(no_room: bool, said: str) -> None:
    engine, state = game()
    out = answer(engine, play(engine, state, "attack", defender="Dubois", no_room=no_room), "parry", 6, 1, 1, 1)
    [wound] = events(out, "wound")
    assert wound.text.endswith(f"; {said}.") and wound.data["effects"][-1] == said


def test_a_bare_done_after_a_turn_ended_by_itself_is_held_only_for_a_comrade() -> None:
    """Sharpe's riposted attack wounds him and ends his turn: passed to Harris (his side), the next
    bare done is taken as meant for Sharpe; passed to a Frenchman, the French player's done is his."""
    engine, state = game()
    wounded = answer(engine, play(engine, state, "attack", defender="Dubois"), "riposte", 1, 6, 1, 1)
    assert (wounded.state.active, wounded.state.ended_itself) == ("Harris", "Sharpe")
    held = play(engine, wounded.state, "done")
    assert [e.kind for e in held.events] == ["done-already"] and held.state.active == "Harris"
    assert held.state.ended_itself == "" and held.state.acted == ["Sharpe"]

    state.order = ["Sharpe", "Dubois", "Harris", "Martin", "Lancier"]
    wounded = answer(engine, play(engine, state, "attack", defender="Dubois"), "riposte", 1, 6, 1, 1)
    assert (wounded.state.active, wounded.state.ended_itself) == ("Dubois", "")
    refused(engine, wounded.state, "done", "It is Dubois's turn", side="british")
    assert play(engine, wounded.state, "done").state.active == "Harris"
