"""The declared slash commands obey Discord's rules (names, sizes, option order)."""

from __future__ import annotations

import re

import pytest
from discord import app_commands

from bot.adapter.client import SkirmishBot
from rules import RULESETS, get_engine

NAME = re.compile(r"^[-_'\w]{1,32}$")


@pytest.fixture
async def tree(app) -> app_commands.CommandTree:
    bot = SkirmishBot(app)
    await bot.load_cogs()
    return bot.tree


def all_commands(tree: app_commands.CommandTree) -> list[app_commands.Command]:
    found = []
    for item in tree.get_commands():
        found.extend(item.walk_commands() if isinstance(item, app_commands.Group) else [item])
    return [c for c in found if isinstance(c, app_commands.Command)]


async def test_every_name_and_description_fits_discord(tree) -> None:
    commands = all_commands(tree)
    assert len(tree.get_commands()) <= 100
    for command in commands:
        assert NAME.match(command.name) and command.name == command.name.lower(), command.name
        assert 1 <= len(command.description) <= 100, command.qualified_name
        assert len(command.parameters) <= 25
        seen_optional = False
        for param in command.parameters:
            assert NAME.match(param.display_name) and param.display_name == param.display_name.lower()
            assert 1 <= len(param.description) <= 100, (command.qualified_name, param.display_name)
            assert len(param.choices) <= 25
            if not param.required:
                seen_optional = True
            assert param.required is False or not seen_optional, f"{command.qualified_name}: required after optional"


async def test_groups_one_per_ruleset_and_shared(tree) -> None:
    names = {c.name for c in tree.get_commands()}
    assert {"campaign", "roster", "game", "roll", "admin", "ssg"} <= names
    ssg = tree.get_command("ssg")
    assert {c.name for c in ssg.commands} == {"move", "melee", "shoot", "next"}


#: What the players type at a table of their own, and the bot measures on its map.
MEASURED_ON_THE_MAP = {
    "range",
    "distance",
    "cover",
    "contact",
    "flank",
    "uphill",
    "obstacle",
    "bad_going",
    "no_room",
    "target_class",
}


async def test_nothing_the_map_measures_is_a_required_option_of_a_ruleset_that_plays_on_it(tree) -> None:
    """A player on the bot's map leaves range, distance, cover … out: Discord must not demand them."""
    on_map = [slug for slug in RULESETS if get_engine(slug).map_play is not None]
    assert "sharpe" in on_map
    for slug in on_map:
        group = tree.get_command(slug)
        assert isinstance(group, app_commands.Group), slug
        for command in group.walk_commands():
            if isinstance(command, app_commands.Command):
                required = {p.name for p in command.parameters if p.required}
                assert not required & MEASURED_ON_THE_MAP, (command.qualified_name, required & MEASURED_ON_THE_MAP)


async def test_payload_serialises(tree) -> None:
    payload = [c.to_dict(tree) for c in tree.get_commands()]
    assert all(p["name"] for p in payload)


async def test_every_command_passes_the_fake_discords_rules(tree) -> None:
    """The same checks the loopback Discord applies when the bot syncs (sizes, 4,000 characters a command …)."""
    from tests.e2e.fake_discord import command_problems

    problems = [p for c in tree.get_commands() for p in command_problems(c.to_dict(tree))]
    assert problems == []
