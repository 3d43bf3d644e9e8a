"""The manual's NSR map game (docs/manual.md, "Napoleonic Skirmish Rules 1.9") plays as written: its
full units, placed as it places them, fit the shipped village; and its two turns among the
buildings are, line for line, commands tests/bot/test_nsr_map_terminal.py plays there (which adds
only the players' turns, the dice and cards it forces and refusals it checks), so the manual cannot
drift from a game the bot accepts."""

from __future__ import annotations

import re
from pathlib import Path

from tests.bot import test_nsr_map_terminal as terminal
from tests.bot.test_console import play

MANUAL = Path(__file__).resolve().parents[2] / "docs" / "manual.md"
SECTION = "## Napoleonic Skirmish Rules 1.9"
BLOCK = re.compile(r"^```text[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
#: Who types each of the manual's lines about a unit: the side that owns it.
PLAYER = {'"1er Ligne"': "Rita", "Chasseurs": "Rita", "Rifles": "Bob", "Militia": "Bob"}


def blocks() -> list[list[str]]:
    """The NSR section's command blocks, each line without its comment (an ellipsis left out)."""
    text = MANUAL.read_text(encoding="utf-8")
    section = text[text.index(SECTION) :]
    section = section[: section.index("\n## ", len(SECTION))]
    out = []
    for body in BLOCK.findall(section):
        lines = [line.split("  #", 1)[0].strip() for line in body.splitlines()]
        out.append([line for line in lines if line and line != "…"])
    return out


def player_of(line: str) -> str:
    return next(who for name, who in PLAYER.items() if f"name:{name}" in line or f"figure:{name}" in line)


def test_the_manuals_full_units_fit_where_it_places_them(tmp_path: Path) -> None:
    full = blocks()[0]
    rosters = [line for line in full if line.startswith("/roster add")]
    places = [line for line in full if line.startswith("/map place")]
    assert len(rosters) == len(places) == 4 and all("figures=" not in line for line in rosters)
    script = (
        '/as Gina\n/campaign new name:"Talavera" ruleset:nsr\n'
        "/as Rita\n/campaign join side:French\n/as Gina\n/decide choice:approve\n"
        "/as Bob\n/campaign join side:Allied\n/as Gina\n/decide choice:approve\n"
    )
    script += "".join(f"/as {player_of(line)}\n{line}\n" for line in rosters)
    script += "/as Gina\n/map new scenario:village\n/game start\n"
    script += "".join(f"/as {player_of(line)}\n{line}\n" for line in places)
    records = play(tmp_path / "full.sqlite3", script, "--seed", "3", strict=False)
    assert terminal.refusals(records) == []
    assert len(terminal.texts(records, "placed")) == 4
    state = terminal.saved_state(tmp_path / "full.sqlite3")
    assert state.phase == "movement" and [len(u.figures) for u in state.units] == [20, 12, 20, 20]
    terminal.assert_apart(state)


def test_the_manuals_two_turns_are_the_terminal_tests_commands() -> None:
    played = [
        line
        for script in (terminal.SETUP, terminal.TURN_ONE, terminal.TURN_TWO)
        for line in script.splitlines()
        if line and not line.startswith(("/as ", "/dice ", "/cards "))
    ]
    at = 0
    for line in blocks()[1]:
        assert line in played[at:], f"the manual's {line!r} is not played (in this order) by the terminal test"
        at = played.index(line, at) + 1
