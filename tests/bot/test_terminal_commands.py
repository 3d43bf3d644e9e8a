"""The terminal as a front-end of the application: it imports no discord.py, parses a line against
the declared commands (typed by each option's kind), and its next moves come from the specs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.app.commands.declared import LineError, Upload, parse_line, read_line, split_line
from bot.app.commands.moves import quick_moves, to_type
from bot.app.commands.table import command_table
from bot.app.replies import MovesNow
from rules import get_engine
from rules.core import RuleError
from rules.specs import read_params

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_terminal_imports_no_discord() -> None:
    check = (
        "import bot.console, sys; "
        "found = [m for m in sys.modules if m == 'discord' or m.startswith('discord.')]; "
        "assert not found, found"
    )
    done = subprocess.run([sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_values_are_typed_as_discord_hands_them_and_checked_by_the_command() -> None:
    """A line gives numbers as numbers and the rest as typed; the command's own check reads them,
    so a refusal says the same as the command refusing them from Discord or the engine."""
    table = command_table()
    shot = parse_line(table, split_line('/ssg shoot shooter:Rossi target:"Big Jim" range:14 los:Clear dice:2'))
    assert shot.command.name == "ssg shoot" and shot.command.ruleset == "ssg"
    assert shot.values == {"shooter": "Rossi", "target": "Big Jim", "range": 14.0, "los": "Clear", "dice": 2}
    shoot = get_engine("ssg").specs["shoot"].params
    assert read_params(shoot, shot.values, "shoot").los == "clear"
    shown = parse_line(table, split_line("/campaign rules show tables:yes"))
    assert read_params(shown.command.params, shown.values, "/campaign rules show").tables is True

    def refusal(line: str) -> str:
        parsed = parse_line(table, split_line(line))
        params = get_engine("ssg").specs["shoot"].params if parsed.command.ruleset else parsed.command.params
        with pytest.raises(RuleError) as refused:
            read_params(params, parsed.command.raw(parsed.values), parsed.command.path[-1])
        return refused.value.message

    assert refusal("/ssg shoot shooter:Rossi target:Bo dice:4") == "dice: takes a whole number from 1 to 3."
    assert refusal("/ssg shoot shooter:Rossi target:Bo los:foggy") == "los: is clear, partial or blocked."
    assert refusal("/game log count:many").startswith("count: takes a whole number")
    assert refusal("/ssg shoot shooter:Rossi").startswith("Give target: ")
    assert refusal("/ssg shoot shooter:Rossi target:Bo wind:3").startswith("shoot has no option “wind”: it takes")


def test_a_file_is_read_from_its_path(tmp_path: Path) -> None:
    roster = tmp_path / "red.yaml"
    roster.write_text("side: red\n", encoding="utf-8")
    parsed = parse_line(command_table(), split_line(f"/roster import file:{roster}"))
    assert parsed.values == {"file": Upload("red.yaml", b"side: red\n")}
    with pytest.raises(LineError, match="cannot read"):
        parse_line(command_table(), split_line(f"/roster import file:{tmp_path / 'none.yaml'}"))


def test_a_one_text_command_takes_the_rest_of_the_line() -> None:
    parsed = read_line(command_table(), '/odds action:"ssg shoot shooter:Rossi target:"Big Jim""')
    assert parsed.values == {"action": 'ssg shoot shooter:Rossi target:"Big Jim"'}


def test_the_next_moves_are_the_specs_pass_actions() -> None:
    """SSG's pass action (Role.PASS) is the quick move; the phase's others are named to type."""
    from tests.rules.test_ssg_engine import begin  # a started SSG battle, red to move

    engine = get_engine("ssg")
    state = begin(engine)  # type: ignore[arg-type]
    now = MovesNow.of(engine, state, "red")
    table = command_table()
    assert [c.name for c in quick_moves(table, "ssg", now)] == ["ssg next"]
    assert to_type(table, "ssg", now) == "Or type /ssg move (/help topic:ssg)."


def test_a_choice_may_be_typed_by_its_name() -> None:
    parsed = parse_line(command_table(), split_line('/campaign new name:x ruleset:"Simple Skirmish Game"'))
    assert read_params(parsed.command.params, parsed.values, "/campaign new").ruleset == "ssg"


def test_map_commands_are_offered_only_to_a_ruleset_that_places_through_them() -> None:
    """YASG places on its own board with /yasg place: its setup never offers /map place."""
    from types import SimpleNamespace

    from bot.app.commands.moves import map_actions

    assert map_actions("yasg") == set() and map_actions("ssg") == {"place", "deploy"}
    placing = SimpleNamespace(allowed=("place",), accepts=lambda name: False)
    assert to_type(command_table(), "yasg", placing) == "Or type /yasg place (/help topic:yasg)."  # type: ignore[arg-type]
    assert "/map place" in to_type(command_table(), "ssg", placing)  # type: ignore[arg-type]
