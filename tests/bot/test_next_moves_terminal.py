"""The terminal's "next:" line fits the phase: in NSR's close combat it offers no /nsr hold (which
the close combat refuses), only what would be accepted."""

from __future__ import annotations

from pathlib import Path

from tests.bot.test_nsr_terminal import (
    FIRE_CARDS,
    FIRE_DICE,
    MOVEMENT,
    MOVEMENT_CARDS,
    MOVEMENT_DICE,
    SETUP,
    SETUP_CARDS,
    play,
)

TO_CLOSE_COMBAT = """\
/as Rita
/nsr volley target:"33rd Foot" range:5 class:I
/as Bob
/decide choice:"33rd Foot"
/nsr fire target:"1er Ligne" range:10 class:I
/nsr hold
/as Rita
/game status
/nsr hold
"""


def test_nsr_close_combat_offers_no_hold(tmp_path: Path) -> None:
    db = tmp_path / "nsr.sqlite3"
    play(db, SETUP, "--cards", SETUP_CARDS)
    play(db, MOVEMENT, "--dice", MOVEMENT_DICE, "--cards", MOVEMENT_CARDS)
    status, hold = play(db, TO_CLOSE_COMBAT, "--dice", FIRE_DICE, "--cards", FIRE_CARDS)[-2:]
    assert "close combat phase" in status["text"]
    assert not hold["ok"]  # what the hint offered before: refused in the close combat
    assert status["next"] == []
