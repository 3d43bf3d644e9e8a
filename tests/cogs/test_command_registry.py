"""The slash commands the bot really offers are the application's declared commands
(bot/app/commands): the same commands, options, help, types, bounds and choices, so Discord, the
terminal and /help agree. The ruleset groups come from the engines' specs."""

from __future__ import annotations

from typing import Any

from discord import app_commands
from discord.enums import AppCommandOptionType

from bot.adapter.client import SkirmishBot
from bot.app.commands.declared import type_name
from bot.app.commands.table import command_table
from rules import RULESETS, get_engine
from rules.specs import Option, Role
from tests.cogs.test_cogs import walk


def _option_of_cog(p: app_commands.Parameter) -> tuple[Any, ...]:
    choices = tuple(str(c.value) for c in p.choices)
    text = p.type is AppCommandOptionType.string
    bounds = (None, None) if text else (p.min_value, p.max_value)
    length = p.max_value if text and not choices else None
    return (p.display_name, p.description, p.type.name, p.required, choices, *bounds, length)


def _option_declared(o: Option) -> tuple[Any, ...]:
    text = type_name(o) == "string"
    bounds = (None, None) if text else (o.lowest, o.highest)
    length = o.length if text and not o.choices else None
    return (o.name, o.help, type_name(o), o.required, o.choices, *bounds, length)


async def test_every_shared_command_is_on_discord_as_it_is_declared(bot: SkirmishBot) -> None:
    table = command_table()
    cogs = {n: c for n, c in walk(bot.tree).items() if n.split()[0] not in RULESETS}
    assert set(cogs) == {n for n in table if n.split()[0] not in RULESETS}
    for name, cog in cogs.items():
        declared = table[name]
        assert declared.description == cog.description, name
        assert [_option_declared(o) for o in declared.options] == [_option_of_cog(p) for p in cog.parameters], name


async def test_a_ruleset_with_specs_offers_its_play_and_pass_actions_as_commands(bot: SkirmishBot) -> None:
    table = command_table()
    for slug in RULESETS:
        specs = get_engine(slug).specs
        if not specs:
            continue
        offered = [s for s in specs.values() if s.role in (Role.PLAY, Role.PASS)]
        assert [n for n in table if n.split()[0] == slug][: len(offered)] == [f"{slug} {s.name}" for s in offered]
        for spec in offered:
            command = table[f"{slug} {spec.name}"]
            assert command.ruleset == slug and command.role is spec.role and command.description == spec.sentence
            assert command.lock and command.picture and command.follows
        cog = walk(bot.tree)
        for spec in offered:
            assert [o.name for o in spec.options] == [p.display_name for p in cog[f"{slug} {spec.name}"].parameters]
