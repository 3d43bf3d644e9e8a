"""The small NSR battle of tests/bot/test_nsr_terminal.py, asked what the issue found wrong at the
terminal: the "next:" line in close combat, /odds of a fire at a two-word unit, and the report's
casualties against the saved state."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from rules import get_engine
from tests.bot.test_nsr_terminal import (
    FIRE_AND_MELEE,
    FIRE_CARDS,
    FIRE_DICE,
    MOVEMENT,
    MOVEMENT_CARDS,
    MOVEMENT_DICE,
    SETUP,
    SETUP_CARDS,
    play,
)

#: The fire phase of FIRE_AND_MELEE, up to the close combat (its first status on).
FIRE = FIRE_AND_MELEE.split("/game status")[0]


def fire_phase(tmp_path: Path) -> Path:
    """The battle played to its fire phase, the French to fire first; its database."""
    db = tmp_path / "nsr.sqlite3"
    play(db, SETUP, "--cards", SETUP_CARDS)
    play(db, MOVEMENT, "--dice", MOVEMENT_DICE, "--cards", MOVEMENT_CARDS)
    return db


def test_close_combat_offers_no_hold(tmp_path: Path) -> None:
    """The "next:" line (the buttons under "your move") offers only what would be accepted: the
    close combat refuses /nsr hold, so it is not offered."""
    script = FIRE + "/as Rita\n/game status\n/nsr hold\n"
    status, hold = play(fire_phase(tmp_path), script, "--dice", FIRE_DICE, "--cards", FIRE_CARDS)[-2:]
    assert "close combat phase" in status["text"]
    assert not hold["ok"]  # what the line offered before
    assert status["next"] == []


def test_odds_of_a_fire_at_a_two_word_unit_echo_what_was_typed(tmp_path: Path) -> None:
    """A two-word name is quoted inside the quoted action as anywhere else (no escaped quotes), and
    the card repeats the action as typed, never an option left out (``wounded:False``)."""
    asked = FIRE.split("/nsr fire")[0] + (
        '/odds action:"nsr fire target:"1er Ligne" range:10 class:I"\n'
        '/odds action:nsr fire target:"1er Ligne" range:10 class:I\n'
    )
    *_, quoted, bare = play(fire_phase(tmp_path), asked, "--dice", FIRE_DICE, "--cards", FIRE_CARDS)
    for odds in (quoted, bare):
        assert odds["ok"], odds
        assert odds["text"].splitlines()[1] == '/nsr fire target:"1er Ligne" range:10 class:I'


def test_the_report_counts_the_men_killed_and_taken(tmp_path: Path) -> None:
    """Its casualties are the figures NSR says the battle put out of the fight (the men a volley
    killed, those a fight killed or took), not only the units left with no one standing; the tally
    equals the count of figures out in the saved state."""
    db = fire_phase(tmp_path)
    play(db, FIRE_AND_MELEE, "--dice", FIRE_DICE, "--cards", FIRE_CARDS)
    [report] = play(db, "/game report\n")
    with sqlite3.connect(db) as connection:
        [(saved,)] = connection.execute("SELECT state FROM games").fetchall()
    state = get_engine("nsr").load_state(json.loads(saved))
    out = sum(
        1 for unit in state.units for figure in unit.figures if figure.status in ("killed", "wounded", "captured")
    )
    assert out == 6  # four privates of the 33rd killed by the volley; the militia's NCO killed, a private taken
    assert f"{out} casualties." in report["text"]
    assert "Lost: Allied 6." in report["attached"]
    assert "- ☠ 5♥ → 33rd Foot: Private 1 killed. *(action 8)*" in report["attached"]
