"""The seed's worked examples replayed on the bot's map with forced dice (issue 17), where they have a
geometry; tests/rules/test_sharpe_examples.py plays the same at a table with typed ranges and flanks.

1. The oak door (5, Actions): Harris walks up to the monastery's door and waits; a chasseur 40
   inches off shoots and misses (the range, and that Harris stands in the open, measured); the
   Sergeant walks up beside him and the two force the door.
2. The Captain's melee (18): every side he is attacked from read from where the Frenchmen stand and
   which way he faces: Jean in front, Pierre on his right, Paul on his left (he turns to face him),
   the officer from what was his rear (he turned 90 degrees, so it is his left), and Marcel, after
   pushing the wounded Pierre aside, from the east, his left once he has turned to the officer.
"""

from __future__ import annotations

from typing import Any

from rules.battlefield import read_map
from rules.sharpe.engine import SharpeEngine
from rules.sharpe.state import SharpeState
from tests.dice import ScriptedDice
from tests.rules.test_sharpe_helpers import char, events, fig, new_engine, play, texts

# --- 5, the oak door ------------------------------------------------------------------------------

MONASTERY: dict[str, Any] = {
    "name": "The deserted monastery",
    "table": {"width": 72, "height": 48},
    "features": [
        {
            "kind": "building",
            "name": "the monastery",
            "area": [[30, 36], [40, 36], [40, 46], [30, 46]],
            "openings": [{"kind": "door", "at": [35, 36]}],
        },
    ],
    "zones": {"british": [[0, 0], [72, 0], [72, 6], [0, 6]], "french": [[0, 42], [72, 42], [72, 48], [0, 48]]},
}


def door_game() -> tuple[SharpeEngine, SharpeState]:
    engine = new_engine()
    specs = [
        fig("Harris", "british", "rifleman", I=5, D=4, S=4, C=3, F=9),
        fig("Chasseur", "french", "chasseur", I=4, D=3, S=3, C=3, F=6),
        fig("Sergeant", "british", "rifle_sergeant", I=3, D=4, S=6, C=5, F=10),
    ]
    state = engine.start_on_map(specs, ScriptedDice(), read_map(MONASTERY, engine.sides(), engine.terrain())).state
    assert state.field is not None
    spots = {"Harris": (35.0, 30.4, 90.0), "Chasseur": (67.0, 11.4, 143.0), "Sergeant": (36.3, 29.4, 90.0)}
    for name, (x, y, facing) in spots.items():
        state.field.positions[name] = [x, y]
        state.field.facing[name] = facing
    state.order, state.active = ["Harris", "Chasseur", "Sergeant"], "Harris"
    return engine, state


def test_the_oak_door_on_the_map_a_sharpe_5_a_sharpe_35() -> None:
    engine, state = door_game()
    moved = play(engine, state, "move", pace="walk", to="35,35.4")
    assert texts(moved, "move") == ["Harris walks 5.0″ to 35.0,35.4 (1.0″ left)."]
    state = play(engine, moved.state, "done").state  # Harris waits at the door
    assert state.field is not None and state.field.positions["Harris"] == [35.0, 35.4]

    shot = play(engine, state, "shoot", 5, 4, target="Harris")  # no range: the map measures 40″
    [line] = texts(shot, "shot")
    assert "Chasseur fires his French carbine at Harris (40.0″ measured, in the open, from his right)" in line
    assert "skill 6 −1 target moving −2 range 40″ = 3 · 2D6 = 9 > 3: miss" in line  # "the shot goes wide"
    assert events(shot, "shot")[0].data["range"] == 40.0

    state = play(engine, shot.state, "done").state
    state = play(engine, state, "move", pace="walk", to="36.3,35.4").state  # up beside Harris
    door = play(engine, state, "task", 4, 3, helpers="Harris", strength=10, object="the oak door")
    [line] = texts(door, "task")
    assert "6 + 4 = 10" in line and "oak door gives way" in line
    assert [r[1] for r in door.dice.rolls] == [4, 3]  # type: ignore[attr-defined]
    assert door.state.objects == {"the oak door": 10}


def test_the_chasseur_beyond_his_carbines_reach_cannot_shoot() -> None:
    engine, state = door_game()
    state = play(engine, play(engine, state, "move", pace="walk", to="35,35.4").state, "done").state
    assert state.field is not None
    state.field.positions["Chasseur"] = [70.0, 2.0]  # 49.2″ from the door: past 48″
    out = play(engine, state, "done")  # the chasseur cannot reach him, so he does nothing
    assert out.state.active == "Sergeant"


# --- 18, the Captain against four Frenchmen ---------------------------------------------------------

SQUARE: dict[str, Any] = {
    "name": "The village square",
    "table": {"width": 24, "height": 24},
    "features": [],
    "zones": {"british": [[0, 0], [24, 0], [24, 3], [0, 3]], "french": [[0, 21], [24, 21], [24, 24], [0, 24]]},
}

#: Where each man starts and which way he faces (degrees, 90 = north): the Captain faces north,
#: Jean stands before him, Pierre and Paul come at him from the east and the west, the officer from
#: the south (his rear), Louis from the south-east, and Marcel stands north of where Pierre will be.
SPOTS = {
    "Captain": (12.0, 12.0, 90.0),
    "Jean": (12.0, 13.2, 270.0),
    "Pierre": (15.0, 12.0, 180.0),
    "Paul": (9.0, 12.0, 0.0),
    "Officer": (12.5, 9.0, 90.0),
    "Louis": (17.0, 10.0, 90.0),
    "Marcel": (14.2, 13.2, 270.0),
}


def captain_game() -> tuple[SharpeEngine, SharpeState]:
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
    state = engine.start_on_map(specs, ScriptedDice(), read_map(SQUARE, engine.sides(), engine.terrain())).state
    assert state.field is not None
    for name, (x, y, facing) in SPOTS.items():
        state.field.positions[name] = [x, y]
        state.field.facing[name] = facing
    state.order = list(SPOTS)
    state.active = "Captain"
    return engine, state


def facing(state: SharpeState, name: str) -> float:
    assert state.field is not None
    return state.field.facing[name]


def test_the_captains_melee_on_the_map_a_sharpe_23_a_sharpe_36() -> None:
    engine, state = captain_game()

    # The Captain attacks the soldier before him and seriously wounds him; Jean recoils an inch north.
    asked = play(engine, state, "attack", defender="Jean")
    hit = play(engine, asked.state, "defend", 4, 2, 1, 1, side="french", choice="parry")
    assert "C 6 + D6 4 = 10 vs parry C 2 + D6 2 = 4: hit" in texts(hit, "melee")[0]
    assert "recoils 1.0″ to 12.0,14.2" in texts(hit, "wound")[0]
    state = play(engine, hit.state, "done").state
    assert state.active == "Pierre"

    # Pierre walks in from the east: the Captain's right. He does not turn but ripostes.
    state = play(engine, state, "move", pace="walk", toward="Captain").state
    asked = play(engine, state, "attack", defender="Captain")
    assert "Pierre attacks Captain from the right (+1 to him unless Captain turns)" in asked.pending.prompt  # type: ignore[union-attr]
    rip = play(engine, asked.state, "defend", 3, 4, 1, 4, side="british", choice="riposte")
    line = texts(rip, "melee")[0]
    assert "C 2 +1 from the right, not turned + D6 3 = 6" in line and "the riposte goes home" in line
    assert "recoils 1.0″ to 14.2,12.0" in texts(rip, "wound")[0]
    assert facing(rip.state, "Captain") == 90.0  # still facing Jean

    # Paul from the west, his left: the Captain turns (D 6, throws 5) to face west and parries a 1.
    state = play(engine, rip.state, "move", pace="walk", toward="Captain").state
    asked = play(engine, state, "attack", defender="Captain")
    assert "Paul attacks Captain from the left (+2 to him unless Captain turns)" in asked.pending.prompt  # type: ignore[union-attr]
    turned = play(engine, asked.state, "defend", 5, side="british", choice="turn")
    assert "D6 5 vs D 6: succeeds" in texts(turned, "check")[0] and facing(turned.state, "Captain") == 180.0
    parried = play(engine, turned.state, "defend", 1, 2, side="british", choice="parry")
    assert (
        "C 2 + D6 1 = 3 vs parry C 3 + D6 2 = 5: parried — Captain recoils 0.5″ to 12.5,12.0"
        in texts(parried, "melee")[0]
    )
    state = play(engine, parried.state, "done").state

    # The officer from the south: "It was his rear but he turned 90 degrees", so it is his left.
    state = play(engine, state, "move", pace="walk", toward="Captain").state
    asked = play(engine, state, "attack", defender="Captain")
    assert "Officer attacks Captain from the left (+2 to him unless Captain turns)" in asked.pending.prompt  # type: ignore[union-attr]
    turned = play(engine, asked.state, "defend", 4, side="british", choice="turn")
    assert "D6 4 vs D 5: succeeds" in texts(turned, "check")[0] and facing(turned.state, "Captain") == 270.0
    dodged = play(engine, turned.state, "defend", 3, side="british", choice="dodge")
    assert "D6 3 +1 a sword thrust = 4 vs D 4: succeeds" in texts(dodged, "melee")[0]
    state = play(engine, dodged.state, "done").state

    # Louis comes up beside Pierre and fails to push him aside; Marcel, north of Pierre, succeeds.
    state = play(engine, state, "move", pace="walk", to="15.4,12").state
    pushed = play(engine, state, "push", 5, pushed="Pierre")
    assert "does not budge" in texts(pushed, "push")[0]
    state = play(engine, pushed.state, "done").state
    pushed = play(engine, state, "push", 2, 3, pushed="Pierre")
    assert "Pierre is shoved 1.2″ aside to 14.2,10.8" in texts(pushed, "push")[0]

    # Marcel steps in from the east: the Captain, facing the officer to the south, has him on his left.
    moved = play(engine, pushed.state, "move", pace="walk", toward="Captain")
    assert "Marcel reaches Captain" in texts(moved, "contact")[0]
    asked = play(engine, moved.state, "attack", defender="Captain")
    offered = {c.value for c in asked.pending.choices}  # type: ignore[union-attr]
    assert "dodge" not in offered and {"parry", "riposte", "distract"} <= offered  # in contact with the officer
    failed = play(engine, asked.state, "defend", 6, side="british", choice="distract")
    assert "fails (a 6 always fails)" in texts(failed, "check")[0]
    draw = play(engine, failed.state, "defend", 3, 6, side="british", choice="parry")
    assert "C 3 +2 from the left, not turned + D6 3 = 8 vs parry C 2 + D6 6 = 8: a draw" in texts(draw, "melee")[0]

    # Next bound the Captain kills the officer, then ripostes Marcel to death.
    state = play(engine, draw.state, "done").state
    assert state.bound == 2 and state.active == "Captain"
    asked = play(engine, state, "attack", defender="Officer")
    killed = play(engine, asked.state, "defend", 6, 1, 6, 2, 1, side="french", choice="parry")
    assert "kill" in texts(killed, "melee")[0] and char(killed.state, "Officer").out
    state = play(engine, killed.state, "done").state
    while state.active != "Marcel":
        state = play(engine, state, "done").state
    asked = play(engine, state, "attack", defender="Captain")
    # On the map Marcel is still on his left: the Captain (D 6 again) turns to face him first, which
    # the table game, with no flank given, never needed; then the same dice as at the table kill him.
    assert "from the left (+2 to him unless Captain turns)" in asked.pending.prompt  # type: ignore[union-attr]
    turned = play(engine, asked.state, "defend", 3, side="british", choice="turn")
    last = play(engine, turned.state, "defend", 1, 6, 5, 2, side="british", choice="riposte")
    line = texts(last, "melee")[0]
    assert "C 3 + D6 1 = 4 vs riposte C 5 + D6 6 = 11: the riposte goes home" in line and "kill" in line
    assert char(last.state, "Marcel").out
