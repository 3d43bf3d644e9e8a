"""A whole solo game of YASG at the terminal: eight figures a side on a gridded board, played by
the game master alone with forced dice, from the first placement to the last figure out.

Each command that rolls is preceded by the ``/dice`` it uses, in the notes' Dice order; the test
checks that every command used exactly its own dice, and looks at the board pictures."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from PIL import Image

SETUP = """\
/as Gina
/campaign new name:"Talavera Farm" ruleset:yasg
/roster add name:Sharpe kind:A side:british stats:"leader=yes"
/roster add name:Harper kind:B side:british
/roster add name:Hagman kind:A side:british
/roster add name:Harris kind:B side:british
/roster add name:Perkins kind:C side:british
/roster add name:Cooper kind:C side:british
/roster add name:Tongue kind:D side:british
/roster add name:Dodd kind:D side:british
/roster add name:Ducos kind:B side:french stats:"leader=yes"
/roster add name:Leroux kind:C side:french
/roster add name:Masson kind:C side:french
/roster add name:Vidal kind:D side:french
/roster add name:Morel kind:C side:french
/roster add name:Girard kind:D side:french
/roster add name:Lebrun kind:C side:french
/roster add name:Petit kind:D side:french
/game start
# an 8 x 10 board: a hill, a house, crops, a wood, a hedge and a garden wall
/yasg board width:8 height:10
/yasg terrain squares:C4:D4 kind:hill
/yasg terrain squares:G2 kind:building
/yasg terrain squares:E7:F7 kind:crops
/yasg terrain squares:A6 kind:wood
/yasg edge squares:B6:D6 side:n kind:hedge
/yasg edge squares:F4:H4 side:s kind:wall
/yasg place figure:Sharpe square:D8 facing:north
/yasg place figure:Harper square:C8 facing:north
/yasg place figure:Hagman square:E8 facing:north
/yasg place figure:Harris square:B8 facing:north
/yasg place figure:Perkins square:F8 facing:north
/yasg place figure:Cooper square:A8 facing:north
/yasg place figure:Tongue square:G8 facing:north
/yasg place figure:Dodd square:H8 facing:north
/yasg place figure:Ducos square:D3 facing:south
/yasg place figure:Leroux square:C3 facing:south
/yasg place figure:Masson square:E3 facing:south
/yasg place figure:Vidal square:B3 facing:south
/yasg place figure:Morel square:F3 facing:south
/yasg place figure:Girard square:A3 facing:south
/yasg place figure:Lebrun square:G2 facing:south
/yasg place figure:Petit square:H3 facing:south
/yasg next
"""

TURNS_1_TO_3 = """\
/as Gina
# --- turn 1: nobody near enough to test morale; initiative british 6, french 2
/dice 6,2
/yasg next
/yasg move figure:Hagman to:E7
# Cooper runs three and falls (d10 1)
/dice 1
/yasg move figure:Cooper to:A5 pace:run
/yasg move figure:Dodd to:H6
/yasg next
/yasg move figure:Masson to:E4
/yasg move figure:Petit to:H4
/yasg next
/yasg look figure:Harper target:Vidal
# fire: d6 misfire check, d10 to hit, d10 damage on a hit
/dice 5,9,1
/yasg fire figure:Sharpe target:Masson
/dice 1
/yasg fire figure:Hagman target:Masson
/dice 4,8,3
/yasg fire figure:Harris target:Vidal
/dice 6,3
/yasg fire figure:Perkins target:Morel
/dice 3,10,7
/yasg fire figure:Harper target:Vidal
/dice 5,9,6
/yasg fire figure:Tongue target:Morel
/dice 2,9,2
/yasg fire figure:Masson target:Hagman
/dice 4,5
/yasg fire figure:Vidal target:Harris
/dice 3,8,10
/yasg fire figure:Morel target:Perkins
/dice 6,9,6
/yasg fire figure:Girard target:Cooper
/dice 5,4
/yasg fire figure:Lebrun target:Tongue
/dice 6,9,5
/yasg fire figure:Petit target:Dodd
# --- turn 2: seven morale tests (Cooper, Vidal and Petit fail), then initiative 3 : 5
/dice 7,3,9,4,8,6,2,3,5
/yasg next
# Ducos, the French Leader, runs next to Vidal and rallies him
/dice 8
/yasg move figure:Ducos to:B2 pace:run facing:south
/yasg move figure:Girard to:A4
/yasg move figure:Vidal to:B4
/yasg next
/yasg move figure:Cooper to:A6
/yasg move figure:Dodd to:H5
/yasg next
# nobody can fire; close combat across the garden wall and by the wood
/dice 9,5,3,8,4,10,1
/yasg next
# --- turn 3
/dice 6,8,9,7,2,5,4,1
/yasg next
/yasg next
/yasg move figure:Ducos to:A3
/yasg move figure:Leroux to:C4
/yasg next
/dice 5,7,1
/yasg fire figure:Harris target:Vidal
/dice 6,9,10
/yasg fire figure:Harper target:Leroux
/dice 4,6,2
/yasg fire figure:Sharpe target:Leroux
/dice 3,10,6
/yasg fire figure:Tongue target:Morel
/dice 2,8,1
/yasg fire figure:Hagman target:Morel
/dice 4,10,7
/yasg fire figure:Morel target:Hagman
/dice 5,3
/yasg fire figure:Lebrun target:Tongue
# Cooper, in close combat with Girard, may still fire at him (A-YASG-17)
/dice 6,10,9
/yasg fire figure:Cooper target:Girard
/dice 4,10,8
/yasg next
"""

TURNS_4_TO_6 = """\
/as Gina
# --- turn 4: a tied initiative is rolled again
/dice 5,3,5,5,6,2
/yasg next
/dice 7
/yasg move figure:Harris to:A5
/yasg next
/dice 5
/yasg move figure:Ducos to:B5 facing:west
/yasg next
/dice 3,9,4
/yasg fire figure:Petit target:Tongue
/dice 5,2
/yasg fire figure:Ducos target:Harris
# Harris is in contact with Girard and Ducos: he fights the Leader (A-YASG-14)
/yasg engage figure:Harris target:Ducos
/dice 7,10,2
/yasg next
# --- turn 5
/dice 8,9,7,1,2,6
/yasg next
/dice 3
/yasg move figure:Lebrun to:G5 pace:run
/yasg next
/yasg move figure:Tongue to:G6
/dice 8
/yasg move figure:Hagman to:F5 facing:east
/yasg next
/yasg look figure:Hagman target:Lebrun
/dice 6,10,1
/yasg fire figure:Hagman target:Lebrun
/dice 6,3
/yasg next
# --- turn 6: the last Frenchman
/dice 9,8,6,1
/yasg next
/yasg move figure:Tongue to:H5
/dice 5
/yasg move figure:Hagman to:G4 facing:east
/yasg next
/yasg next
/dice 4,10,7
/yasg fire figure:Petit target:Tongue
/yasg engage figure:Petit target:Hagman
/dice 8,1,5,3
/yasg next
/game status
/yasg next
"""

REFUSED = {
    "/yasg move figure:Vidal to:B4": "Vidal was rallied by its Leader this phase: it may move again next turn.",
    "/yasg move figure:Cooper to:A6": "Cooper is pinned: it may not move until its Leader comes next to it or it passes a morale test.",
    "/yasg next": "The game is over: british won. The game master can start another with /game start.",
}


def play(db: Path, script: str, pictures: Path) -> list[dict]:
    env = {**os.environ, "SKIRMISH_GM_DATA": str(db.parent / "data")}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--db", str(db), "--json", "--strict-dice", "--pictures", str(pictures)],
        input=script,
        capture_output=True,
        text=True,
        timeout=600,  # a hang guard: a loaded machine may take minutes
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def each_command_used_its_dice(records: list[dict]) -> None:
    """A ``/dice`` line's values are exactly the dice the next command that succeeds rolls."""
    pending: list[str] = []
    for record in records:
        command = record["command"]
        if command.startswith("/dice"):
            assert not pending, f"dice left over before {command}"
            pending = command.split(" ", 1)[1].split(",")
        elif record["ok"] and not command.startswith("/as"):
            rolled = [d["value"] for d in record["dice"]]
            assert rolled == pending, (command, rolled, pending)
            pending = []
    assert not pending


def kinds(records: list[dict], kind: str) -> list[dict]:
    return [e for r in records for e in r["events"] if e["kind"] == kind]


def test_a_solo_game_from_the_first_placement_to_the_last_figure_out(tmp_path: Path) -> None:
    db, pictures = tmp_path / "yasg.sqlite3", tmp_path / "pictures"
    setup = play(db, SETUP, pictures)
    assert all(r["ok"] for r in setup), [r for r in setup if not r["ok"]]
    assert setup[-1]["events"][0]["text"].startswith("The battle begins. Turn 1 · morale phase")
    first = play(db, TURNS_1_TO_3, pictures)
    second = play(db, TURNS_4_TO_6, pictures)  # a new process goes on where the first stopped
    records = setup + first + second
    refused = {r["command"]: r["error"] for r in records if not r["ok"]}
    assert refused == REFUSED
    each_command_used_its_dice(first)
    each_command_used_its_dice(second)

    out = [e["data"]["figure"] for e in kinds(records, "casualty")]
    assert out == [
        "Masson",
        "Perkins",
        "Dodd",
        "Vidal",
        "Leroux",
        "Morel",
        "Cooper",
        "Ducos",
        "Lebrun",
        "Girard",
        "Petit",
    ]
    [victory] = kinds(records, "victory")
    assert victory["data"] == {"winner": "british", "loser": "french"}
    assert "Game over: british won" in second[-2]["text"]

    texts = [e["text"] for r in records for e in r["events"]]
    for line in (
        "Cooper rolls 1 after running: falls, and spends next turn getting up.",
        "Hagman's musket misfires (1 on the d6): no shot; it spends next turn clearing it.",
        "Ducos, the Leader, rallies Vidal: no longer pinned (it may move again next turn).",
        "Vidal (wounded; class G) rolls 4, needs more than 7: fails: pinned.",
        "Petit fights Dodd (class E, pinned): needs 8, rolls 10: hit; damage 1: killed.",
        "Cooper fights Girard (class F, pinned, getting up): needs 9, rolls 9: hit; damage 5: a serious wound.",
        "Hagman has cleared its misfire and reloaded.",
        "Leroux is already out: shot by Sharpe changes nothing.",
        "Initiative: british 5, french 5: a tie, roll again.",
        "Harris will fight Ducos.",
        "Girard fights Harris (class H, pinned): cannot hit.",
        "Petit fires at Tongue (1 square, short range; class D; hard cover, behind a wall +2): needs 10, rolls 10: "
        "hit; damage 7: a minor wound (taken when the fire phase ends).",
        "British win: the last of french's figures is out of the fight.",
    ):
        assert line in texts, line
    assert any(t.startswith("Turn 2 · fire phase: no figure can fire (") for t in texts)  # and why
    looks = [e["text"] for e in kinds(records, "look")]
    assert looks[0] == "Harper (C8, facing N) → Vidal (B3): 6 squares, medium range; class B; needs 7 on a d10."

    # one card per phase: every morale test of a turn, and every fight, in one command
    turn2_morale = next(r for r in first if any(e["text"] == "Turn 2 · morale phase." for e in r["events"]))
    assert len([e for e in turn2_morale["events"] if e["kind"] == "morale"]) == 7
    assert "Dice:" in turn2_morale["text"] and turn2_morale["text"].count("morale, passes above") == 7

    # the board: a picture (and the text grid in the terminal) as each stretch of play closes: the
    # set-up's last figure placed, each side's movement, the turn's end; not each step of the set-up
    # (/game start drew the board once), the battle's start, the morale phase, or a fire phase that
    # a close combat follows
    saved = [p for r in records for p in r.get("files") or r.get("pictures") or []]
    assert len(set(saved)) == len(saved)  # a later run never overwrites an earlier run's picture
    pictured = [r for r in records if r["ok"] and r.get("files") and r["command"].startswith("/yasg")]
    setting_up = ("/yasg board", "/yasg terrain", "/yasg edge")
    assert not [r["command"] for r in pictured if r["command"].startswith(setting_up)]
    [placed] = [r for r in pictured if r["command"].startswith("/yasg place")]
    assert placed["command"] == "/yasg place figure:Petit square:H3 facing:south"
    turn1 = [r for r in first if r["ok"] and any(e["text"].startswith("Turn 1 · ") for e in r["events"])]
    assert not setup[-1].get("files")  # the battle begins: the board was drawn with the last placement
    assert [bool(r.get("files")) for r in turn1[:3]] == [False, True, True]  # morale, each side's movement
    assert all(r["text"].count("A1 = Sharpe") == 1 for r in pictured)  # the grid's key, once
    assert all("Phase:" not in r["text"] for r in pictured)  # the figures by side are /game status's
    assert 12 <= len(pictured) <= 4 * 6 + 1  # six turns: at most four stretches a turn, and the set-up
    # the 8 x 10 board's pictures share one width (/game start drew the default 12 x 12 board before it)
    board = [p for r in first + second for p in r.get("files") or []]
    sizes = {Image.open(io.BytesIO(Path(p).read_bytes())).size for p in board}
    assert len({w for w, _ in sizes}) == 1
    final = second[-2]["text"]
    assert "  4    .     .    ^ ^   ^ ^    .     .    D3>    ." in final
    assert "G7 = Tongue (british, H5, facing E, 3 wound points)" in final
