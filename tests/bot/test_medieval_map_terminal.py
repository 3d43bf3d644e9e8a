"""A whole medieval battle on the shipped village map at the terminal: a real process, a real SQLite
file, both sides deployed, moves, charges, shots and hand-to-hand the bot measures, forced dice given
just before the command that rolls them (``/dice``), and a restart half way. The second half saves
the battlefield's picture with ``--files``."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from tests.bot.test_console import check_dice, events, play

SETUP = """\
/as Gina
/campaign new name:"Burning Hall" ruleset:medieval
/as Rita
/campaign join side:red
/as Gina
/decide choice:approve
/as Rita
/roster add name:Hugh kind:Knight
/roster add name:Walt kind:"Man at Arms" stats:"weapons=bow+sword armour=leather"
/roster add name:Ned kind:man-at-arms
/as Bob
/campaign join side:blue
/as Gina
/decide choice:approve
/as Bob
/roster add name:Olaf kind:"Viking Warrior"
/roster add name:Harald kind:"Viking Hero"
/roster add name:Bjorn kind:custom stats:"speed=6 bravery=4 shoot=3 fight=3 weapons=bow+dagger armour=none"
/as Gina
/map new scenario:village
/game start
/as Rita
/map deploy
/as Bob
/dice 4,2
/map deploy
/as Rita
/decide choice:first
"""
# Both sides set out in the village street; blue's deployment is the last, so it rolls off: red 4,
# blue 2, and red goes first.

FIRST_HALF = """\
/as Rita
/medieval move figure:Ned to:"19,7.5"
/medieval move figure:Hugh to:"23.2,8.2"
/medieval move figure:Walt to:"26.2,7.8"
/medieval endturn
/as Bob
/medieval move figure:Olaf to:"23.2,26.2"
/medieval move figure:Harald to:"24.8,26.2"
/medieval move figure:Bjorn to:"27.5,29.8"
/medieval endturn
/as Rita
/medieval move figure:Walt to:"26.2,11"
/dice 5,4,2
/medieval shoot figure:Walt target:Olaf
/medieval move figure:Hugh to:"23.2,14.2"
/medieval move figure:Ned to:"17,19.6"
/medieval move figure:Ned via:"19.6,10.5" to:"20.6,13"
/medieval endturn
/as Bob
/medieval move figure:Harald to:"24.8,20.75"
/medieval move figure:Olaf to:"21.5,22.7"
/medieval move figure:Bjorn to:"29.5,24.5"
/map show
/medieval shoot figure:Bjorn target:Walt
/dice 4,3,1
/medieval shoot figure:Bjorn target:Hugh
/medieval endturn
"""
# Turn 1: both sides walk up the street. Turn 2: Walt moves 3.2" and shoots Olaf at 14.5" base to
# base (5 + 3 - 1 moving - 1 over half range: hit; 4 - 2 armour: light wound; then 2: miss). Ned
# cannot cut through the smithy and goes round by its corner. Harald stands behind the barricade,
# Olaf by its west end; Bjorn, behind the hall, cannot see Walt and shoots Hugh instead (4: hit, 3
# against the knight's armour 3: no effect; 1: miss).

SECOND_HALF = """\
/as Rita
/medieval move figure:Hugh to:"24.8,19.25"
/dice 6,2,6,3
/medieval fight figure:Hugh
/medieval move figure:Ned to:"20.6,19"
/medieval move figure:Walt to:"26.5,14"
/dice 6,5,3
/medieval shoot figure:Walt target:Olaf
/medieval endturn
/as Bob
/dice 5
/medieval move figure:Olaf toward:Ned
/dice 3,5,5,1
/medieval fight figure:Olaf
/dice 4
/medieval activate figure:Harald
/dice 2,4,6,6
/medieval fight figure:Harald
/dice 2,1
/medieval shoot figure:Bjorn target:Ned
/medieval endturn
/as Rita
/map show
/medieval move figure:Walt to:"26.5,19.2"
/dice 4,6
/medieval shoot figure:Walt target:Bjorn
/game status
"""
# Turn 3: Hugh's base touches the barricade Harald defends: in hand-to-hand across it; Hugh 6 + 4
# against Harald 2 + 5 + 1 (defending): 6 - 3 armour + 1 power = 4, serious. Walt's second light
# wound on Olaf (5 - 2) makes it serious. Olaf passes its Bravery (5 + 4) and charges Ned (speed 3
# now), loses 5 to 8 and is killed (5 + 1 - 2 = 4, a second serious wound); Harald passes (4 + 6),
# loses 5 to 8 and is killed the same way; Bjorn misses Ned behind the barricade's hard cover.
# Turn 4: Walt steps out from behind the hall and shoots Bjorn, who wears no armour: 6 kills him.


def flat(text: str) -> str:
    """The text with every run of spaces as one, so a column's width does not matter."""
    return "\n".join(" ".join(line.split()) for line in text.splitlines())


def test_a_whole_battle_in_the_village_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "village.sqlite3"
    setup = play(db, SETUP)
    assert all(r["ok"] for r in setup), [r for r in setup if not r["ok"]]
    check_dice(setup, SETUP)
    assert [e["text"] for e in events(setup, "deployed")] == [
        "red deploys: Hugh 23.2,2.2, Walt 24.8,2.2, Ned 23.2,3.8.",
        "blue deploys: Olaf 23.2,32.2, Harald 24.8,32.2, Bjorn 23.2,33.8.",
    ]
    [roll_off] = events(setup, "roll-off")
    assert roll_off["data"]["rolls"] == {"red": 4, "blue": 2} and roll_off["data"]["winner"] == "red"
    last_deploy = [r for r in setup if r["command"] == "/map deploy"][-1]
    assert last_deploy["decision"]["decider"] == "red"
    assert last_deploy["decision"]["choices"] == ["first", "second"]
    assert setup[-1]["events"][0]["data"] == {"turn": 1, "active": "red", "first": "red"}

    first = play(db, FIRST_HALF)
    check_dice(first, FIRST_HALF)
    refused = [(r["command"], r["error"]) for r in first if not r["ok"]]
    assert refused == [
        (
            '/medieval move figure:Ned to:"17,19.6"',
            "Ned cannot go that way: the path crosses the smithy, which cannot be crossed.",
        ),
        (
            "/medieval shoot figure:Bjorn target:Walt",
            "Bjorn cannot see Walt: the hall is in the way, 6.5″ in front of Walt.",
        ),
    ]
    moves = {e["data"]["figure"]: e for e in events(first, "move")}
    assert moves["Ned"]["text"] == "Ned moves 5.8″ to 20.6,13.0 (0.2″ left)."
    assert moves["Ned"]["data"]["path"] == [[19.0, 7.5], [19.6, 10.5], [20.6, 13.0]]
    assert [e["text"] for e in events(first, "shot")] == [
        "Walt shoots at Olaf with Bow (shot 1 of 2; 14.5″ base to base, in the open): 5 + Shoot 3 + Accuracy 0 "
        "− 1 (firer and target moving) − 1 (over half range) = 6, needs 5: hit.",
        "Walt shoots at Olaf with Bow (shot 2 of 2; 14.5″ base to base, in the open): 2 + Shoot 3 + Accuracy 0 "
        "− 1 (firer and target moving) − 1 (over half range) = 3, needs 5: miss.",
        "Bjorn shoots at Hugh with Bow (shot 1 of 2; 11.1″ base to base, in the open): 4 + Shoot 3 + Accuracy 0 "
        "− 1 (firer and target moving) − 1 (over half range) = 5, needs 5: hit.",
        "Bjorn shoots at Hugh with Bow (shot 2 of 2; 11.1″ base to base, in the open): 1 + Shoot 3 + Accuracy 0 "
        "− 1 (firer and target moving) − 1 (over half range) = 2, needs 5: miss.",
    ]
    assert [(e["data"]["figure"], e["data"]["row"]) for e in events(first, "wound")] == [("Olaf", "Light Wound")]
    assert [(e["data"]["figure"], e["data"]["row"]) for e in events(first, "unharmed")] == [("Hugh", "No Effect")]
    assert not events(first, "casualty")
    [shown] = [r for r in first if r["command"] == "/map show"]
    view = flat(shown["text"])
    assert "The Village · turn 2" in view
    assert "blue Olaf 21.5,22.7 wounded" in view and "blue Harald 24.8,20.75" in view
    assert "Hugh - Harald 5.7″ partial: the barricade 0.5″ in front of Harald | back: clear" in view
    assert first[-1]["say"] == "@Rita red: your move."

    # A new process on the same file: the battle goes on where it was, and saves its pictures.
    pictures = tmp_path / "pictures"
    second = play(db, SECOND_HALF, "--files", str(pictures))
    check_dice(second, SECOND_HALF)
    assert [r["command"] for r in second if not r["ok"]] == []
    assert [e["text"] for e in events(second, "contact")] == [
        "Hugh's base touches Harald's: they are in hand-to-hand (fight with /medieval fight).",
        "Olaf's base touches Ned's: they are in hand-to-hand (fight with /medieval fight).",
    ]
    charge = next(e for e in events(second, "move") if e["data"]["figure"] == "Olaf")
    assert charge["data"]["used"] <= 3
    assert [e["text"] for e in events(second, "fight")] == [
        "Hand-to-hand: Hugh 6 + Fight 4 + Sword 0 = 10; Harald 2 + Fight 5 + Sword 0 + 1 (defending barricade) "
        "= 8: Hugh wins.",
        "Hand-to-hand: Olaf 3 + Fight 2 + Battleaxe 0 = 5; Ned 5 + Fight 3 + Sword 0 = 8: Ned wins.",
        "Hand-to-hand: Harald 2 + Fight 2 + Sword 0 + 1 (defending barricade) = 5; Hugh 4 + Fight 4 + Sword 0 "
        "= 8: Hugh wins.",
    ]
    shots = [e["data"] for e in events(second, "shot")]
    assert [(s["shooter"], s["target"], s["cover"], s["hit"]) for s in shots] == [
        ("Walt", "Olaf", "none", True),
        ("Walt", "Olaf", "none", False),
        ("Bjorn", "Ned", "hard", False),
        ("Bjorn", "Ned", "hard", False),
        ("Walt", "Bjorn", "none", True),
    ]
    assert shots[2]["measured"] == "9.5″ base to base, hard cover: the barricade 1.4″ in front of Ned"
    wounds = [(e["data"]["figure"], e["data"]["before"], e["data"]["after"]) for e in events(second, "wound")]
    assert wounds == [
        ("Harald", "full", "serious"),
        ("Olaf", "light", "serious"),
        ("Olaf", "serious", "killed"),
        ("Harald", "serious", "killed"),
        ("Bjorn", "full", "killed"),
    ]
    casualties = [(e["data"]["figure"], e["data"]["health"], e["data"]["by"]) for e in events(second, "casualty")]
    assert casualties == [("Olaf", "killed", "Ned"), ("Harald", "killed", "Hugh"), ("Bjorn", "killed", "Walt")]
    [victory] = events(second, "victory")
    assert victory["data"] == {"winner": "red", "loser": "blue"}
    status = second[-1]["text"]
    assert "Game over: red won" in status and "Out of action: red 0/3 · blue 3/3" in status

    [shown] = [r for r in second if r["command"] == "/map show"]
    view = flat(shown["text"])
    assert "The Village · turn 4" in view and "blue Harald 24.8,20.75 out" in view
    assert "Walt - Bjorn 9.9″ blocked: the hall 3.6″ in front of Bjorn" in view
    [saved] = shown["files"]
    data = Path(saved).read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = Image.open(io.BytesIO(data)).size
    assert 1100 <= width <= 1300 and height > width / 2
    assert Path(saved).parent == pictures
