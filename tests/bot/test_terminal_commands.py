"""The terminal as a front-end of the application: it imports no discord.py, parses a line against
the declared commands (typed by each option's kind), and its next moves come from the specs."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from bot.app.commands.declared import LineError, Upload, parse_line, read_line, split_line
from bot.app.commands.moves import quick_moves, to_type
from bot.app.commands.table import command_table
from bot.app.replies import MovesNow
from bot.app.service import App
from rules import get_engine

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_terminal_imports_no_discord() -> None:
    check = (
        "import bot.console, sys; "
        "found = [m for m in sys.modules if m == 'discord' or m.startswith('discord.')]; "
        "assert not found, found"
    )
    done = subprocess.run([sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_values_are_typed_by_their_option() -> None:
    table = command_table()
    shot = parse_line(table, split_line('/ssg shoot shooter:Rossi target:"Big Jim" range:14 los:Clear dice:2'))
    assert shot.command.name == "ssg shoot" and shot.command.ruleset == "ssg"
    assert shot.values == {"shooter": "Rossi", "target": "Big Jim", "range": 14.0, "los": "clear", "dice": 2}
    shown = parse_line(table, split_line("/campaign rules show tables:yes"))
    assert shown.values == {"tables": True}
    with pytest.raises(LineError, match=r"^dice must be from 1 to 3\.$"):
        parse_line(table, split_line("/ssg shoot shooter:Rossi target:Bo dice:4"))
    with pytest.raises(LineError, match=r"^los must be one of clear, partial, blocked\.$"):
        parse_line(table, split_line("/ssg shoot shooter:Rossi target:Bo los:foggy"))
    with pytest.raises(LineError, match=r"^count takes a whole number, not 'many'\.$"):
        parse_line(table, split_line("/game log count:many"))
    with pytest.raises(LineError, match=r"^/ssg shoot needs target\.$"):
        parse_line(table, split_line("/ssg shoot shooter:Rossi"))


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
    assert parsed.values == {"name": "x", "ruleset": "ssg"}


#: The App's alias of a declared command, where it is not the path joined by "_".
ALIASES = {
    "campaign rules set": "rules_set",
    "campaign rules show": "rules_show",
    "campaign rules clear": "rules_clear",
    "campaign deadline": "set_deadline",
    "map zone": "map_zone",
}


def test_a_picture_is_declared_where_the_app_draws_one() -> None:
    """The policy a command declares (``picture``, ``follows``) is what the App's alias of the same
    command does, which the Discord cogs still call."""
    app = App(None, lambda: None)  # type: ignore[arg-type]  # no command runs: only the aliases are read
    checked = 0
    for name, command in command_table().items():
        alias = getattr(app, ALIASES.get(name, "_".join(command.path)), None)
        if alias is None:
            continue
        checked += 1
        drawn = alias.__qualname__ == "Pictures.drawn.<locals>.run"
        assert command.picture is drawn, name
        if drawn:
            assert command.follows is inspect.getclosurevars(alias).nonlocals["follows"], name
    assert checked >= 30
