"""A battle report's casualties are the figures its ruleset says the battle put out of the fight:
in NSR the men a volley killed and those a fight killed or took prisoner, not only the units left
with no one standing; and the tally equals the count of figures out in the saved state."""

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


def test_an_nsr_report_counts_the_men_killed_and_taken(tmp_path: Path) -> None:
    db = tmp_path / "nsr.sqlite3"
    play(db, SETUP, "--cards", SETUP_CARDS)
    play(db, MOVEMENT, "--dice", MOVEMENT_DICE, "--cards", MOVEMENT_CARDS)
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
