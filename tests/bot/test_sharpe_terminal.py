"""A whole Sharpe skirmish in the terminal: a real process, a real SQLite file, strict forced dice.

Six Chosen Men against six Frenchmen over three bounds: the order of movement with a tie, shots
(a hit, a miss, a misfire, the volley gun's two wounds), melee with the defender's choice asked of
the other player (/decide), a draw, a parry, a pass-out, a recovery, a failed attempt to rise, an
officer killed, a failed morale test, and the French conceding. The game stops halfway and goes on
in a new process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROSTERS = """\
/as Gina
/campaign new name:"The Chosen Men" ruleset:sharpe battlefield:table
/as Rita
/campaign join side:british
/as Gina
/decide choice:approve
/as Bob
/campaign join side:french
/as Gina
/decide choice:approve
/as Rita
/roster add name:Sharpe kind:rifle_officer stats:"I=6 D=5 S=5 C=6 F=10"
/roster add name:Harper kind:rifle_sergeant stats:"I=5 D=4 S=6 C=5 F=10"
/roster add name:Harris kind:rifleman stats:"I=4 D=4 S=3 C=3 F=9"
/roster add name:Hagman kind:rifleman stats:"I=3 D=3 S=3 C=3 F=11"
/roster add name:Perkins kind:rifleman stats:"I=2 D=4 S=3 C=3 F=8"
/roster add name:Cooper kind:rifleman stats:"I=1 D=3 S=4 C=3 F=8"
/as Bob
/roster add name:Leroux kind:officer stats:"I=5 D=4 S=4 C=5 F=7"
/roster add name:Dubois kind:voltigeur stats:"I=4 D=3 S=3 C=3"
/roster add name:Martin kind:voltigeur stats:"I=3 D=3 S=3 C=3"
/roster add name:Bernard kind:chasseur stats:"I=3 D=3 S=3 C=3"
/roster add name:Girard kind:chasseur stats:"I=2 D=3 S=3 C=3"
/roster add name:Lefevre kind:sergeant stats:"I=2 D=3 S=3 C=4"
/as Gina
"""
SETUP = (
    ROSTERS
    + """\
# One D6 per character in roster order; Harris and Lefevre tie on 8 and roll again (5, 2).
/dice 6,5,4,3,2,1,6,5,4,2,1,6,5,2
/game start
"""
)

BOUND_ONE = """\
/as Rita
# Sharpe hits Dubois in the chest (2D6 7 ≤ 10; location 5; 2D6 8): serious, knocked down.
/dice 3,4,5,4,4
/sharpe shoot target:Dubois range:20
/as Bob
/sharpe done
/as Rita
/sharpe done
/as Bob
/dice 5,6
/sharpe shoot target:Harris range:10
/sharpe done
/as Rita
# The volley gun at Martin and Bernard: a hit, 1+1 wounds, one each.
/dice 2,3,1,1,3,3,3,1,1
/sharpe shoot target:Martin also:Bernard range:14 weapon:"volley gun"
/sharpe done
/sharpe move distance:5 contact:Lefevre
/sharpe attack defender:Lefevre
/sharpe done
/as Bob
/dice 6,1,2,2
/decide choice:parry
/as Rita
/sharpe done
/dice 6,6
/sharpe shoot target:Girard range:30
/sharpe done
/sharpe done
/as Bob
/dice 4,4
/sharpe shoot target:Perkins range:20
/sharpe done
/as Rita
# The end of bound 1: Dubois rolls 5 and passes out; Lefevre rolls 2.
/dice 5,2
/sharpe done
"""

BOUND_TWO_AND_THREE = """\
/as Rita
/sharpe move pace:run distance:8 contact:Leroux
/sharpe attack defender:Leroux
/as Bob
/dice 2,3
/decide choice:riposte
/as Rita
/sharpe done
/as Bob
/sharpe attack defender:Sharpe
/as Rita
/dice 4,3
/decide choice:parry
/as Bob
/sharpe done
/as Rita
/sharpe done
/sharpe done
/as Bob
/dice 1,2,4,2,3
/sharpe shoot target:Harris range:8
/sharpe done
/as Rita
/sharpe done
/as Bob
/dice 3
/sharpe rise
/sharpe done
/sharpe done
/as Rita
/sharpe done
/as Bob
/sharpe done
/as Rita
# The end of bound 2: Dubois rolls 6 and comes round; Lefevre rolls 1.
/dice 6,1
/sharpe done
/sharpe move distance:3 contact:Leroux
/sharpe attack defender:Leroux
/as Bob
/dice 6,1,6,4,5
/decide choice:parry
/dice 3
/sharpe concede
/sharpe concede confirm:yes
/game status
"""


def play(db: Path, script: str) -> list[dict]:
    env = {**os.environ, "SKIRMISH_GM_DATA": str(db.parent / "data")}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--db", str(db), "--json", "--strict-dice"],
        input=script,
        capture_output=True,
        text=True,
        timeout=600,  # a hang guard: a loaded machine may take minutes
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def events(records: list[dict], kind: str) -> list[dict]:
    return [e for r in records for e in r["events"] if e["kind"] == kind]


def event_texts(records: list[dict], kind: str) -> list[str]:
    return [e["text"] for e in events(records, kind)]


def test_a_whole_sharpe_skirmish_in_the_terminal(tmp_path: Path) -> None:
    db = tmp_path / "chosen.sqlite3"
    setup = play(db, SETUP)
    assert all(r["ok"] for r in setup), [r for r in setup if not r["ok"]]
    [order] = events(setup, "order")
    assert order["data"]["order"] == [
        "Sharpe",
        "Leroux",
        "Harper",
        "Dubois",
        "Harris",
        "Lefevre",
        "Martin",
        "Hagman",
        "Bernard",
        "Perkins",
        "Girard",
        "Cooper",
    ]
    assert "ties: Harris 5, Lefevre 2" in order["text"]
    # the pointer to /help ends the next moves' line ("Or type … (/help topic:sharpe)"), said once
    assert setup[-1]["say"].endswith("british: your move — Sharpe to act.") and setup[-1]["next"]

    first = play(db, BOUND_ONE)
    refused = [r for r in first if not r["ok"]]
    assert [r["command"] for r in refused] == ["/sharpe done", "/sharpe done"]
    assert "It is Sharpe's turn" in refused[0]["error"]
    assert "Waiting for french" in refused[1]["error"]
    shots = event_texts(first, "shot")
    assert "Sharpe fires his Baker rifle at Dubois (20″): skill 10 · 2D6 = 7 ≤ 10: hit · location 5: chest" in shots[0]
    assert "2D6 = 11 > 5: miss" in shots[1]
    assert "2 wounds (D6 1 + 1)" in shots[2] and shots[3].startswith("Wound 1 of 2 on Martin")
    assert "misfire" in shots[-2] and "miss" in shots[-1]
    wounds = events(first, "wound")
    assert (wounds[0]["data"]["figure"], wounds[0]["data"]["location"], wounds[0]["data"]["severity"]) == (
        "Dubois",
        "chest",
        "serious",
    )
    assert "knocked down" in wounds[0]["text"]
    [asked] = [r for r in first if r.get("decision")]
    assert asked["decision"]["decider"] == "french" and "parry" in asked["decision"]["choices"]
    assert "Lefevre: serious wound to the abdomen" in " ".join(event_texts(first, "wound"))
    assert event_texts(first, "passout") == [
        "Dubois rolls 5: passes out from his wound.",
        "Lefevre rolls 2: stays conscious.",
    ]
    assert first[-1]["events"][-1]["text"] == "Bound 2 · Sharpe (british) to act."

    # A new process on the same file: bound 2 goes on where bound 1 ended.
    rest = play(db, BOUND_TWO_AND_THREE)
    [asked_to_confirm] = [r for r in rest if not r["ok"]]  # a bare concede ends nothing (A-SHARPE-52)
    assert asked_to_confirm["command"] == "/sharpe concede" and "confirm:True" in asked_to_confirm["error"]
    melee = event_texts(rest, "melee")
    assert "C 6 + D6 2 = 8 vs riposte C 5 + D6 3 = 8: a draw" in melee[0]
    assert "C 3 + D6 4 = 7 vs parry C 5 + D6 3 = 8: parried — Sharpe recoils 1 pace" in melee[1]
    assert "location 6: head" in melee[2] and melee[2].endswith("= 11: kill.")
    assert "No turn for Dubois (unconscious)." in event_texts(rest, "skip")
    assert "D6 3 vs I 0: fails: he stays down" in event_texts(rest, "rise")[0]
    assert "Dubois rolls 6: comes round" in event_texts(rest, "recover")[0]
    [casualty] = events(rest, "casualty")
    assert casualty["data"]["figure"] == "Leroux"
    [morale] = events(rest, "morale")
    assert morale["data"]["senior"] == "Dubois" and morale["data"]["ok"] is False
    [victory] = events(rest, "victory")
    assert victory["data"]["winner"] == "british"
    [fate] = events(rest, "aftermath")  # between games: the "Kill" rolls for his life (death on a 6)
    assert fate["data"] == {"figure": "Leroux", "fate": "fit"} and "rolls 3" in fate["text"]
    assert "Game over: the british won" in rest[-1]["text"]
    decisions = [r["decision"]["decider"] for r in rest if r.get("decision")]
    assert decisions == ["french", "british", "french"]
    after = play(db, "/as Rita\n/sharpe done\n")
    assert after[-1]["ok"] is False and "over" in after[-1]["error"]
