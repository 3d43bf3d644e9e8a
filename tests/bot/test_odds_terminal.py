"""/odds at the terminal: a two-word name is quoted inside the quoted action as a player writes it
(no escaped quotes), and the card repeats the action as typed, never an option left out
(``wounded:False``)."""

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

ASKED = """\
/as Rita
/nsr volley target:"33rd Foot" range:5 class:I
/as Bob
/decide choice:"33rd Foot"
/odds action:"nsr fire target:"1er Ligne" range:10 class:I"
/odds action:nsr fire target:"1er Ligne" range:10 class:I
"""


def test_odds_of_a_fire_at_a_two_word_unit_echo_what_was_typed(tmp_path: Path) -> None:
    db = tmp_path / "nsr.sqlite3"
    play(db, SETUP, "--cards", SETUP_CARDS)
    play(db, MOVEMENT, "--dice", MOVEMENT_DICE, "--cards", MOVEMENT_CARDS)
    *_, quoted, bare = play(db, ASKED, "--dice", FIRE_DICE, "--cards", FIRE_CARDS)
    assert quoted["ok"] and bare["ok"], (quoted, bare)
    for asked in (quoted, bare):
        lines = asked["text"].splitlines()
        assert lines[1] == '/nsr fire target:"1er Ligne" range:10 class:I'  # no wounded:False
        assert lines[2].endswith("— no effect") or "1er Ligne" in lines[2]
