"""Through the terminal's ``--json``: an event's data carries the numbers its text shows (issue 19),
so a script reads a Sharpe check's die, target and ability points left without parsing the line."""

from __future__ import annotations

from pathlib import Path

from tests.bot.test_sharpe_terminal import SETUP, events, play

CHECKS = """\
/as Rita
/dice 2
/sharpe check ability:D situation:low_wall what:"the garden wall"
/dice 3
/sharpe check ability:D what:"the ditch"
"""


def test_a_sharpe_checks_numbers_in_the_json_lines(tmp_path: Path) -> None:
    db = tmp_path / "checks.sqlite3"
    assert all(r["ok"] for r in play(db, SETUP))
    records = play(db, CHECKS)
    assert all(r["ok"] for r in records), [r for r in records if not r["ok"]]
    first, second = events(records, "check")
    assert first["text"] == "Sharpe: the garden wall: D6 2 +1 low wall = 3 vs D 5: succeeds."
    assert first["data"] == {
        "figure": "Sharpe",
        "target": 5,
        "ability": "D",
        "roll": 2,
        "modifiers": [{"reason": "low wall", "value": 1}],
        "modifier": 1,
        "total": 3,
        "needed": 5,
        "ok": True,
        "passed": True,
        "points_left": 4,
    }
    assert second["text"] == "Sharpe: the ditch: D6 3 vs D 4: succeeds."
    assert (second["data"]["roll"], second["data"]["needed"], second["data"]["points_left"]) == (3, 4, 3)
