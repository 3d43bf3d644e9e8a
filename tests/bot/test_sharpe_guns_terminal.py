"""A Sharpe battle with a gun on the shipped farm map, at the terminal: a real process, a real SQLite
file, strict forced dice (A-SHARPE-47 … 50). The gun is placed like a man; /sharpe targets answers
the gun's crewman with the enemies nearest first and rolls nothing; the crewman hauls the gun 3″
along the track and may not fire it the same bound; in a new process, next bound, he fires it at
Dubois 28.2″ off, the range measured from the gun."""

from __future__ import annotations

from pathlib import Path

from tests.bot.test_console import check_dice, events, play

SETUP = """\
/as Gina
/campaign new name:"The Farm" ruleset:sharpe
/as Rita
/campaign join side:british
/as Gina
/decide choice:approve
/as Bob
/campaign join side:french
/as Gina
/decide choice:approve
/as Rita
/roster add name:Gunner kind:artillery_crew stats:"I=5 D=4 S=4 C=4 F=6"
/roster add name:"Old Bess" kind:gun stats:"F=6"
/roster add name:Harris kind:rifleman stats:"I=4 D=4 S=3 C=3 F=9"
/as Bob
/roster add name:Dubois kind:voltigeur stats:"I=4 D=3 S=3 C=3"
/roster add name:Leroux kind:officer stats:"I=5 D=4 S=4 C=5 F=7"
/as Gina
/map new scenario:farm
/game start
/as Rita
/map place figure:"Old Bess" at:"3,15"
/map place figure:Gunner at:"3,16.6"
/map place figure:Harris at:"5,22"
/as Bob
/map place figure:Dubois at:"43,18"
/dice 6,5,3,1
/map place figure:Leroux at:"43,13"
"""
# The order of movement, one D6 a character in roster order: Gunner 11, Harris 9, Dubois 7, Leroux 6.

BOUND_ONE = """\
/as Rita
/sharpe targets shooter:Gunner
/sharpe haul to:"6,15"
/sharpe shoot gun:"Old Bess" target:Dubois
/sharpe done
/sharpe done
/as Bob
/sharpe move pace:run to:"34,18"
/sharpe done
/sharpe done
"""

BOUND_TWO = """\
/as Rita
/dice 2,2,1,1,1,1,1,1,1
/sharpe shoot gun:"Old Bess" target:Dubois
/map show focus:"Old Bess"
"""
# 28.2″ from the gun: skill 6 −1 = 5, 2D6 4 hits; D3 1 + 1 = 2 wounds, each on the legs for 2D6 2: no
# effect, so Dubois is suppressed.


def test_a_gun_on_the_farm_at_the_terminal(tmp_path: Path) -> None:
    db = tmp_path / "farm.sqlite3"
    setup = play(db, SETUP)
    assert all(r["ok"] for r in setup), [r for r in setup if not r["ok"]]
    check_dice(setup, SETUP)
    assert "a gun's 2″" in events(setup, "setup")[0]["text"]

    first = play(db, BOUND_ONE)
    refused = [r for r in first if not r["ok"]]
    assert [r["command"] for r in refused] == ['/sharpe shoot gun:"Old Bess" target:Dubois']
    assert refused[0]["error"] == "Old Bess was hauled this bound: it fires next bound at the earliest."
    asked = first[1]
    assert [e["kind"] for e in asked["events"]] == ["targets"] and asked["dice"] == []
    assert "Targets for Old Bess (artillery piece)" in asked["text"]
    assert "1. Leroux: 40.0″, long range (−2), in the open — the nearest" in asked["text"]
    assert "2. Dubois: 40.1″, long range (−2), in the open" in asked["text"]
    [haul] = events(first, "haul")
    assert haul["text"] == (
        "Gunner hauls Old Bess 3.0″ to 6.0,15.0 at a crawl (0.0″ left): it fires next bound at the earliest."
    )

    second = play(db, BOUND_TWO)
    assert all(r["ok"] for r in second), [r for r in second if not r["ok"]]
    check_dice(second, BOUND_TWO)
    shots = [e["text"] for e in events(second, "shot")]
    assert shots[0].startswith("Gunner fires Old Bess at Dubois (28.2″ measured, in the open)")
    assert "skill 6 −1 range 28.2″ = 5 · 2D6 = 4 ≤ 5: hit · 2 wounds (D3 1 + 1)" in shots[0]
    assert len(shots) == 3
