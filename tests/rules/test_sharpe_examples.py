"""The seed's two worked examples, replayed through the engine with forced dice (Dice order, 2.3).

1. The oak door (5, Actions): Harris waits at the door, a chasseur's long shot goes wide, then the
   Sergeant (S 6) and Harris (S 4) force the door of strength 10, rolling 4 and 3.
2. The Captain's melee (18): six points all round against four Frenchmen, an officer and a push.
"""

from __future__ import annotations

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


def door_game(**options):
    engine = new_engine(**options)
    specs = [
        fig("Harris", "british", "rifleman", I=5, D=4, S=4, C=3, F=9),
        fig("Chasseur", "french", "chasseur", I=4, D=3, S=3, C=3, F=6),
        fig("Sergeant", "british", "rifle_sergeant", I=3, D=4, S=6, C=5, F=10),
    ]
    return engine, begin(engine, specs)


def test_oak_door_harris_and_the_sergeant_force_it_a_sharpe_5() -> None:
    engine, state = door_game()
    state = play(engine, state, "move", figure="Harris", pace="walk", distance=5).state
    state = play(engine, state, "done").state  # Harris waits at the door
    shot = play(engine, state, "shoot", 5, 4, target="Harris", range=40)
    [line] = texts(shot, "shot")
    assert "skill 6 −1 target moving −2 range 40″ = 3 · 2D6 = 9 > 3: miss" in line  # "the shot goes wide"
    state = play(engine, shot.state, "done").state
    state = play(engine, state, "move", figure="Sergeant", distance=6).state
    door = play(engine, state, "task", 4, 3, helpers="Harris", strength=10, object="the oak door")
    [line] = texts(door, "task")
    assert "6 + 4 = 10" in line and "oak door gives way" in line
    assert [r[1] for r in door.dice.rolls] == [4, 3]
    assert "Sergeant" in door.dice.rolls[0][2] and "Harris" in door.dice.rolls[1][2]
    assert events(door, "task")[0].data["ok"] is True
    assert char(door.state, "Sergeant").spent["S"] == 1 and char(door.state, "Harris").spent["S"] == 1
    assert door.state.objects == {"the oak door": 10}


def test_oak_door_alone_harris_cannot_possibly() -> None:
    engine, state = door_game()
    out = play(engine, state, "task", strength=10, object="the oak door")
    assert "cannot possibly" in texts(out, "task")[0] and events(out, "task")[0].data["ok"] is False


def test_oak_door_a_suppressed_harris_cannot_help_a_sharpe_26() -> None:
    """The example's note: a hit for no effect suppresses Harris, and the Sergeant alone is too weak."""
    engine, state = door_game()
    state = play(engine, play(engine, state, "done").state, "shoot", 2, 3, 6, 1, 1, target="Harris", range=20).state
    assert char(state, "Harris").suppressed_bound == 1
    state = play(engine, state, "done").state
    out = play(engine, state, "task", helpers="Harris", strength=10, object="the oak door")
    assert "cannot possibly" in out.events[0].text and "Harris cannot help (suppressed)" in out.events[0].text


def test_oak_door_with_the_dodge_house_rule_harris_takes_the_shot() -> None:
    """With options.dodge_shots the target's player is asked; Harris "grits his teeth and takes it"."""
    engine, state = door_game(dodge_shots=True)
    state = play(engine, state, "done").state
    asked = play(engine, state, "shoot", target="Harris", range=40)
    assert asked.pending is not None and asked.pending.decider == "british"
    assert [c.value for c in asked.pending.choices] == ["dodge", "take"]
    refused(engine, asked.state, "done", "Waiting for the british")
    took = play(
        engine, asked.state, "defend", 5, 4, side="british", choice="take", pending=asked.pending.params["pending"]
    )
    assert "miss" in texts(took, "shot")[0]
    assert engine.whose_turn(took.state) == "french"


def test_oak_door_a_dodging_harris_cannot_help() -> None:
    engine, state = door_game(dodge_shots=True)
    state = play(engine, state, "done").state
    asked = play(engine, state, "shoot", target="Harris", range=40)
    dodged = play(engine, asked.state, "defend", 2, side="british", choice="dodge")
    assert "goes wide" in texts(dodged, "shot")[0]
    state = play(engine, dodged.state, "done").state
    out = play(engine, state, "task", helpers="Harris", strength=10, object="the oak door")
    assert "Harris cannot help (he dodged this bound)" in out.events[0].text


# --- 18, the Captain against four Frenchmen -------------------------------------------------------------

CAPTAIN_ORDER = ["Captain", "Jean", "Pierre", "Paul", "Officer", "Louis", "Marcel"]


def captain_game():
    engine = new_engine()
    specs = [
        fig("Captain", "british", "officer", I=6, D=6, S=6, C=6, F=6),
        fig("Jean", "french", "line_infantry", I=2, D=2, S=3, C=2),
        fig("Pierre", "french", "line_infantry", I=2, D=2, S=3, C=2),
        fig("Paul", "french", "line_infantry", I=2, D=3, S=3, C=2),
        fig("Officer", "french", "officer", I=3, D=3, S=3, C=4, F=7),
        fig("Louis", "french", "line_infantry", I=2, D=2, S=3, C=2),
        fig("Marcel", "french", "line_infantry", I=2, D=2, S=4, C=3),
    ]
    return engine, begin(engine, specs, CAPTAIN_ORDER)


def test_the_captains_melee_a_sharpe_23() -> None:
    engine, state = captain_game()

    def cap(s):
        return char(s, "Captain")

    # The Captain attacks a French soldier and seriously wounds him; the man recoils.
    asked = play(engine, state, "attack", defender="Jean")
    assert asked.pending.decider == "french"
    hit = play(engine, asked.state, "defend", 4, 2, 1, 1, side="french", choice="parry")
    assert "C 6 + D6 4 = 10 vs parry C 2 + D6 2 = 4: hit" in texts(hit, "melee")[0]
    assert "location 1: legs" in texts(hit, "melee")[0] and "= 8: serious wound" in texts(hit, "melee")[0]
    assert char(hit.state, "Jean").crawl_only and "recoils 1″" in texts(hit, "wound")[0]
    assert cap(hit.state).spent["C"] == 1  # 6 → 5
    state = play(engine, hit.state, "done").state
    assert state.active == "Pierre"  # Jean is wounded: no turn

    # A second soldier from the right: the Captain does not turn but ripostes (−1, A-SHARPE-8).
    asked = play(engine, state, "attack", defender="Captain", flank="right")
    assert {"parry", "riposte", "dodge", "distract", "turn"} <= {c.value for c in asked.pending.choices}
    assert "+1" in asked.pending.prompt
    rip = play(engine, asked.state, "defend", 3, 4, 1, 4, side="british", choice="riposte")
    line = texts(rip, "melee")[0]
    assert "C 2 +1 from the right, not turned + D6 3 = 6" in line
    assert "riposte C 5 −1 not turned + D6 4 = 8: the riposte goes home" in line and "serious wound" in line
    assert cap(rip.state).spent["C"] == 3  # 5 → 3
    assert rip.state.active == "Paul"  # Pierre's turn ended with his wound

    # A third from the left: the Captain turns (D 6, throws 5) and parries a 1.
    asked = play(engine, rip.state, "attack", defender="Captain", flank="left")
    turned = play(engine, asked.state, "defend", 5, side="british", choice="turn")
    assert "D6 5 vs D 6: succeeds" in texts(turned, "check")[0]
    assert "turn" not in {c.value for c in turned.pending.choices}
    parried = play(engine, turned.state, "defend", 1, 2, side="british", choice="parry")
    assert "C 2 + D6 1 = 3 vs parry C 3 + D6 2 = 5: parried" in texts(parried, "melee")[0]
    assert cap(parried.state).spent == {"I": 0, "D": 1, "S": 0, "C": 4}  # C 2, D 5
    state = play(engine, parried.state, "done").state

    # The officer from the left: turn against D 5, then a dodge, 3 +1 for a sword thrust = 4 ≤ D 4.
    asked = play(engine, state, "attack", defender="Captain", flank="left")
    turned = play(engine, asked.state, "defend", 4, side="british", choice="turn")
    assert "D6 4 vs D 5: succeeds" in texts(turned, "check")[0]
    dodged = play(engine, turned.state, "defend", 3, side="british", choice="dodge")
    assert "D6 3 +1 a sword thrust = 4 vs D 4: succeeds" in texts(dodged, "melee")[0]
    assert cap(dodged.state).spent["D"] == 3  # D 3
    state = play(engine, dodged.state, "done").state

    # The next man fails to push an attacker aside; the one after succeeds.
    pushed = play(engine, state, "push", 5, pushed="Paul")
    assert "does not budge" in texts(pushed, "push")[0]
    state = play(engine, pushed.state, "done").state
    pushed = play(engine, state, "push", 2, 3, pushed="Paul")
    assert "shoved aside" in texts(pushed, "push")[0] and "D6 3 vs D 3: succeeds" in texts(pushed, "check")[0]

    # He cannot dodge (still in contact with the officer); a distraction on a 6 fails; then a draw.
    asked = play(engine, pushed.state, "attack", defender="Captain", flank="left")
    offered = {c.value for c in asked.pending.choices}
    assert "dodge" not in offered and {"parry", "riposte", "distract"} <= offered  # A-SHARPE-29
    failed = play(engine, asked.state, "defend", 6, side="british", choice="distract")
    assert "fails (a 6 always fails)" in texts(failed, "check")[0]
    draw = play(engine, failed.state, "defend", 3, 6, side="british", choice="parry")
    line = texts(draw, "melee")[0]
    assert "C 3 +2 from the left, not turned + D6 3 = 8 vs parry C 2 + D6 6 = 8: a draw" in line
    assert any(c.locked for c in draw.state.contacts if "Marcel" in (c.a, c.b))

    # The bound ends; next bound everything is back to 6 and the Captain finishes it.
    state = play(engine, draw.state, "done").state
    assert state.bound == 2 and state.active == "Captain" and cap(state).spent == {"I": 0, "D": 0, "S": 0, "C": 0}
    asked = play(engine, state, "attack", defender="Officer")
    killed = play(engine, asked.state, "defend", 6, 1, 6, 2, 1, side="french", choice="parry")
    assert "kill" in texts(killed, "melee")[0] and char(killed.state, "Officer").out
    assert "they hold" in texts(killed, "morale")[0]  # 14 (optional)
    state = play(engine, killed.state, "done").state
    while state.active != "Marcel":
        state = play(engine, state, "done").state
    asked = play(engine, state, "attack", defender="Captain")
    last = play(engine, asked.state, "defend", 1, 6, 5, 2, side="british", choice="riposte")
    assert "the riposte goes home" in texts(last, "melee")[0] and char(last.state, "Marcel").out


def test_the_captains_parry_recoil_follows_the_rule_a_sharpe_7() -> None:
    engine, state = captain_game()
    state = play(engine, state, "done").state
    asked = play(engine, state, "attack", defender="Captain")
    parried = play(engine, asked.state, "defend", 1, 6, side="british", choice="parry")
    assert "Captain recoils 1 pace" in texts(parried, "melee")[0]
    assert not any("Jean" in (c.a, c.b) and "Captain" in (c.a, c.b) for c in parried.state.contacts)
