"""A whole medieval game, four figures a side, in the terminal: a real process, a real SQLite file,
forced dice given just before the command that rolls them (``/dice``), and a restart half way."""

from __future__ import annotations

from pathlib import Path

from tests.bot.test_console import check_dice, events, play

SETUP = """\
/as Gina
/campaign new name:"Stamford Bridge" ruleset:medieval battlefield:table
/as Rita
/campaign join side:red
/as Gina
/decide choice:approve
/as Rita
/roster add name:Hugh kind:Knight
/roster add name:Walt kind:"Man at Arms" stats:"weapons=bow+sword armour=leather"
/roster add name:Ada kind:custom stats:"speed=6 bravery=5 shoot=2 fight=2 weapons=dagger armour=none"
/roster add name:Ned kind:man-at-arms
/as Bob
/campaign join side:blue
/as Gina
/decide choice:approve
/as Bob
/roster add name:Olaf kind:"Viking Warrior"
/roster add name:Harald kind:"Viking Hero"
/roster add name:Sven kind:"Viking Warrior" stats:"weapons=battleaxe+dagger"
/roster add name:Bjorn kind:custom stats:"speed=6 bravery=4 shoot=3 fight=3 weapons=bow armour=none"
/as Gina
/dice 2,2,5,3
/game start
/as Rita
/decide choice:second
/game undo
/decide choice:first
"""
# Roll-off: 2-2 (tie), 5-3: red chooses (A-MED-12), says second, takes it back (the undo asks the
# choice again), and goes first.

TURN_1 = """\
/as Rita
/medieval move figure:Walt distance:2
/dice 6,6
/medieval shoot figure:Walt target:Bjorn range:10
/medieval move figure:Walt distance:4
/medieval move figure:Hugh distance:6 engage:Olaf
/medieval move figure:Walt distance:1
/dice 5,2,3,5
/medieval fight figure:Hugh
/medieval move figure:Ada distance:3
/dice 4,3,2
/medieval shoot figure:Ada target:Sven range:1.5
/as Bob
/medieval stand figure:Sven
/as Rita
/medieval endturn
/as Bob
/dice 5
/medieval activate figure:Olaf
/dice 6,2
/medieval breakoff figure:Olaf distance:3
/medieval stand figure:Sven
/medieval move figure:Sven distance:3 engage:Ada
/dice 3,4,4,2
/medieval fight figure:Sven
/medieval move figure:Harald distance:6 engage:Ned
/dice 1,5,6,2
/medieval fight figure:Harald
/medieval endturn
"""
# Red: Walt moves 2", shoots (6 + 3 - 1 moving - 1 over half range: hit), 6 damage kills Bjorn; the
# second arrow is not shot; Walt moves on 4". Hugh charges Olaf: 9 against 6, sword 3 and 5: 5 + 1 - 2
# = serious. Walt may not act again. Ada throws her dagger at Sven: 4 + 2 - 1 = 5 hits, 3 - 2 = 1:
# knocked about, Bravery 2 + 4 fails: prone. Bob may not act in red's turn.
# Blue: Olaf's serious-wound Bravery 5 + 4 = 9 passes; he breaks off from Hugh (10 against 8) and
# moves 3" (halved speed). Sven stands (3") and engages Ada: 7 against 6, axe 4 and 2: 5, Ada is
# seriously wounded. Harald engages Ned and loses (6 against 8): Ned's sword 6 + 1 - 3 = 4, serious.

TURN_2_AND_3 = """\
/as Rita
/medieval heal figure:Hugh patient:Ada
/dice 5,4,3,6
/medieval shoot figure:Walt target:Olaf range:6
/dice 6,1,5
/medieval fight figure:Ada
/dice 4,2,5,3
/medieval fight figure:Ned
/medieval endturn
/as Bob
/dice 2
/medieval fight figure:Harald
/dice 3,5
/medieval breakoff figure:Sven distance:2
/dice 2,2,1,3
/medieval fight figure:Sven opponent:Ada
/medieval endturn
/as Rita
/game status
/medieval pickup figure:Walt item:dagger
/medieval move figure:Walt distance:5 engage:Sven
/dice 5,1,6,4
/medieval fight figure:Walt opponent:Sven
/dice 6
/medieval activate figure:Ada
/dice 6,1,6
/medieval fight figure:Ada opponent:Sven
/game status
/medieval endturn
"""
# Red: Hugh treats Ada (serious to light, no further). Walt shoots Olaf twice (target moving -1): a light
# wound leaves him seriously wounded, then 6 - 2 = 4, a second serious wound: killed. Ada, unarmed, beats
# Sven 6 to 5: 5 - 2 = 3, light. Ned beats Harald 7 to 4: a light wound on a serious one changes nothing.
# Blue: Harald's serious-wound Bravery 2 + 6 = 8 fails: he collapses. Sven cannot break off from Ada
# (5 against 8) and fights her instead: 4 against 2, axe 3 + 1 = 4: Ada seriously wounded again.
# Red: Walt picks up Ada's dagger and wins 8 to 3: 6 + 1 - 2 = 5, Sven seriously wounded; Ada passes her
# Bravery (11) and her bare hands (6 - 2 = 4, a second serious wound) kill Sven. Red wins.


def test_four_figures_a_side_to_the_end(tmp_path: Path) -> None:
    db = tmp_path / "bridge.sqlite3"
    setup = play(db, SETUP)
    assert all(r["ok"] for r in setup), [r for r in setup if not r["ok"]]
    check_dice(setup, SETUP)
    start = next(r for r in setup if r["command"] == "/game start")
    assert start["decision"]["decider"] == "red" and start["decision"]["choices"] == ["first", "second"]
    assert [e["data"]["winner"] for e in start["events"] if e["kind"] == "roll-off"] == [None, "red"]
    recruited = [e["text"] for r in setup for e in r["events"] if e["kind"] == "recruit"]
    assert "Ada: custom — speed 6″, Bravery 5, shoot 2, fight 2, health full; Dagger; no armour." in recruited
    assert [e["data"]["first"] for r in setup for e in r["events"] if e["kind"] == "phase"] == ["blue", "red"]
    assert setup[-1]["events"][0]["data"] == {"turn": 1, "active": "red", "first": "red"}

    first = play(db, TURN_1)
    check_dice(first, TURN_1)
    refused = [(r["command"], r["error"]) for r in first if not r["ok"]]
    assert refused == [
        (
            "/medieval move figure:Walt distance:1",
            "Walt has already been activated this turn: each figure acts once a turn.",
        ),
        ("/medieval stand figure:Sven", "It is red's turn."),
    ]
    assert [e["data"]["figure"] for e in events(first, "casualty")] == ["Bjorn"]
    assert [e["text"] for e in events(first, "unrolled")] == ["Bjorn is out of action: Walt's other shot is not taken."]
    assert [(e["data"]["figure"], e["data"]["row"]) for e in events(first, "wound")] == [
        ("Bjorn", "Killed"),
        ("Olaf", "Serious Wound"),
        ("Sven", "Knocked About"),
        ("Ada", "Serious Wound"),
        ("Harald", "Serious Wound"),
    ]
    [prone] = events(first, "prone")
    assert prone["data"]["figure"] == "Sven"
    [breakoff] = events(first, "breakoff")
    assert breakoff["data"]["escaped"] is True
    assert first[-1]["say"] == "@Rita red: your move."

    # A new process on the same file: the battle goes on where it was.
    second = play(db, TURN_2_AND_3)
    check_dice(second, TURN_2_AND_3)
    refused = [(r["command"], r["error"]) for r in second if not r["ok"]]
    over = "The game is over: red won. The game master can start another with /game start."
    assert refused == [("/medieval endturn", over)]
    [heal] = events(second, "heal")
    assert (heal["data"]["before"], heal["data"]["after"]) == ("serious", "light")
    casualties = [(e["data"]["figure"], e["data"]["health"]) for e in events(second, "casualty")]
    assert casualties == [("Olaf", "killed"), ("Harald", "collapsed"), ("Sven", "killed")]
    wounds = [(e["data"]["figure"], e["data"]["before"], e["data"]["after"]) for e in events(second, "wound")]
    assert wounds == [
        ("Olaf", "serious", "serious"),
        ("Olaf", "serious", "killed"),
        ("Sven", "full", "light"),
        ("Harald", "serious", "serious"),
        ("Ada", "light", "serious"),
        ("Sven", "light", "serious"),
        ("Sven", "serious", "killed"),
    ]
    [held] = events(second, "held")
    assert held["data"]["figure"] == "Sven"
    [victory] = events(second, "victory")
    assert victory["data"] == {"winner": "red", "loser": "blue"}

    statuses = [r["text"] for r in second if r["command"] == "/game status"]
    mid, end = statuses
    assert "Turn 3 · red's turn" in mid and "Out of action: red 0/4 · blue 3/4" in mid
    assert (
        "Ada — custom · seriously wounded: speed, shoot and fight halved (speed 3, Bravery 5, shoot 1, "
        "fight 1); a Bravery test at each activation or it collapses · Unarmed; no armour · fighting Sven"
    ) in mid
    assert "Sven — Viking Warrior · lightly wounded: −2 speed, Bravery, shoot and fight" in mid
    assert "Harald [out] — Viking Hero · collapsed" in mid
    assert "On the ground: Dagger (near Sven)" in mid
    assert "Game over: red won" in end and "Winner: red" in end
    assert "Walt — Man at Arms · full health · Bow, Sword, Dagger; Leather (armour 1)" in end
