"""A whole NSR turn in the terminal: two units a side, a charge, a volley, a rout; forced dice and cards.

Two players choose their units as the cards fall (/decide), in a real process on a real SQLite file,
and the battle goes on across a restart.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SETUP = """\
/as Gina
/campaign new name:"Talavera" ruleset:nsr battlefield:table
/as Rita
/campaign join side:French
/as Gina
/decide choice:approve
/as Rita
/roster add name:"1er Ligne" kind:line stats:"figures=6"
/roster add name:Chasseurs kind:mounted stats:"figures=3"
/as Bob
/campaign join side:Allied
/as Gina
/decide choice:approve
/as Bob
/roster add name:"33rd Foot" kind:infantry stats:"figures=6"
/roster add name:Militia kind:militia stats:"figures=2 officer=no"
/as Gina
/game start
"""
SETUP_CARDS = "2S"

MOVEMENT = """\
/as Bob
/nsr hold
/as Rita
/decide choice:Chasseurs
/nsr charge target:Militia
/as Bob
/decide choice:"33rd Foot"
/nsr hold
/as Rita
/nsr hold
/as Bob
/nsr hold
"""
# The chasseurs (mounted, line) charge on 6D6: 18". Then 2♥ 33rd Foot, 3♠ 1er Ligne, 3♥ Militia hold
# (the 1er Ligne and the Militia are each the only unit left to take their card: taken at once);
# the fire phase is shuffled and 4♠ turned for the French.
MOVEMENT_DICE = "3,3,3,3,3,3"
MOVEMENT_CARDS = "2H,3S,3H,4S"

FIRE_AND_MELEE = """\
/as Rita
/nsr volley target:"33rd Foot" range:5 class:I
/as Bob
/decide choice:"33rd Foot"
/nsr fire target:"1er Ligne" range:10 class:I
/nsr hold
/game status
/as Rita
/nsr melee
/game status
"""
# Volley: 5 cards for 5 muskets at class I: ♥♦♥♦ kill four privates, ♠ misses; 4♥ for the Allies:
# the 33rd's NCO alone fires (the officer's pistol is apart): 1 x 1/4 = no hit; 8♥: the militia hold.
# Close combat: close-in 3 (1-8), stand 2 (1-6); Officer 8+6 v NCO 1+2: killed; NCO 7+6 v Private 6+1:
# captured. Morale: the 33rd, 2 of 6 left, 6+5 = 11, not below 10: routed. The Allies have no unit left.
FIRE_DICE = "3,3,2,8,1,7,6,6,5"
FIRE_CARDS = "5H,5D,6H,6D,7S,4H,8H"


def play(db: Path, script: str, *args: str) -> list[dict]:
    env = {**os.environ, "SKIRMISH_GM_DATA": str(db.parent / "data")}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--db", str(db), "--json", "--strict-dice", *args],
        input=script,
        capture_output=True,
        text=True,
        timeout=600,  # a hang guard: a loaded machine may take minutes
        env=env,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def events(records: list[dict], kind: str) -> list[dict]:
    return [e for r in records for e in r["events"] if e["kind"] == kind]


def test_a_turn_of_a_small_battle_in_the_terminal(tmp_path: Path) -> None:
    db = tmp_path / "nsr.sqlite3"
    setup = play(db, SETUP, "--cards", SETUP_CARDS)
    assert all(r["ok"] for r in setup), [r for r in setup if not r["ok"]]
    start = setup[-1]
    assert start["decision"]["decider"] == "French"
    assert start["decision"]["choices"] == ["1er Ligne", "Chasseurs"]
    assert "2♠ — French: choose a unit to move" in start["text"]
    assert [d["reason"] for d in start["dice"]] == ["Movement phase: the next card"]

    moves = play(db, MOVEMENT, "--dice", MOVEMENT_DICE, "--cards", MOVEMENT_CARDS)
    refused = [r for r in moves if not r["ok"]]
    assert [r["command"] for r in refused] == ["/nsr hold"]  # Bob, while the French choose
    assert "Waiting for French" in refused[0]["error"]
    [charge] = events(moves, "charge")
    assert charge["data"] == {
        "unit": "Chasseurs",
        "target": "Militia",
        "inches": 18,
        "reached": True,
        "counter": False,
        "dice": 6,
        "rolls": [3, 3, 3, 3, 3, 3],
        "roll": 18,
        "modifiers": [],
        "modifier": 0,
    }
    cards = [e["data"]["card"] for e in events(moves, "card")]
    assert cards == ["2H", "3S", "3H", "4S"]
    assert [e["data"]["phase"] for e in events(moves, "phase")] == ["leaders", "fire"]
    assert "decision" not in moves[-1]  # 4♠: the 1er Ligne is the only French unit that can fire
    [only] = [e for e in moves[-1]["events"] if e["kind"] == "only-choice" and "4♠" in e["text"]]
    assert only["text"] == "Then: French chooses 1er Ligne to fire on 4♠, the only choice."

    # A new process on the same file: the fire phase, the close combat, the morale phase.
    rest = play(db, FIRE_AND_MELEE, "--dice", FIRE_DICE, "--cards", FIRE_CARDS)
    assert all(r["ok"] for r in rest), [r for r in rest if not r["ok"]]
    hits = [(e["data"]["figure"], e["data"]["outcome"]) for e in events(rest, "hit") if "figure" in e["data"]]
    assert hits == [("Private 1", "killed"), ("Private 2", "killed"), ("Private 3", "killed"), ("Private 4", "killed")]
    [volley] = events(rest, "volley")
    assert (volley["data"]["firers"], volley["data"]["cards"]) == (5, 5)
    [fire] = events(rest, "fire")
    assert (fire["data"]["firers"], fire["data"]["fraction"], fire["data"]["hits"]) == (1, "1/4", 0)
    status = next(r for r in rest if r["command"] == "/game status")
    assert "close combat phase" in status["text"] and "Deck: 46 cards left" in status["text"]
    assert "33rd Foot — line · line · 2/6 fit, 4 killed · critical morale" in status["text"]

    melee = next(r for r in rest if r["command"] == "/nsr melee")
    fights = [
        (e["data"]["winner"], e["data"]["loser"], e["data"]["outcome"]) for e in melee["events"] if e["kind"] == "fight"
    ]
    assert fights == [("Officer", "NCO", "killed"), ("NCO", "Private 1", "captured")]
    assert [d["value"] for d in melee["dice"]] == ["3", "2", "8", "1", "7", "6", "6", "5"]
    [rout] = [e for e in melee["events"] if e["kind"] == "morale"]
    assert rout["data"] == {"check": "critical", "unit": "33rd Foot", "roll": 11, "needed": 10, "passed": False}
    [victory] = events(rest, "victory")
    assert victory["data"] == {"winner": "French", "loser": "Allied"}
    assert "Battle over: French won" in rest[-1]["text"]

    after = play(db, "/as Rita\n/nsr hold\n")
    assert after[-1]["ok"] is False and "over" in after[-1]["error"]
