"""The bot loads the cogs by name, and each cog that owns buttons registers them when it loads."""

from __future__ import annotations

import discord

from bot.adapter.client import COGS, SkirmishBot
from bot.adapter.delivery import DecisionButton, LogPageButton
from bot.adapter.help import HelpButton
from bot.adapter.next_moves import NextMoveButton, ReadySelect
from cogs import extensions


def registered(bot: SkirmishBot) -> dict[str, type]:
    """The persistent buttons whose clicks the bot parses, by custom_id template (discord.py keeps
    them in its view store; it offers no public way to read them)."""
    store = bot._connection._view_store
    return {pattern.pattern: item for pattern, item in store._dynamic_items.items()}


def buttons(*items: type[discord.ui.DynamicItem]) -> dict[str, type]:
    return {item.__discord_ui_compiled_template__.pattern: item for item in items}


async def test_the_cogs_package_loads_every_cog_and_their_buttons(app) -> None:
    bot = SkirmishBot(app)
    assert registered(bot) == {}
    await bot.load_cogs()
    assert set(bot.extensions) == {COGS, *extensions()}
    assert {"campaign", "game", "decide", "roll", "odds", "ssg", "sharpe"} <= {c.name for c in bot.tree.get_commands()}
    assert registered(bot) == buttons(DecisionButton, LogPageButton, HelpButton, NextMoveButton, ReadySelect)


async def test_the_commands_loaded_again_register_their_buttons_once_and_unloading_takes_them_away(app) -> None:
    bot = SkirmishBot(app)
    await bot.load_cogs()
    count = len(bot.tree.get_commands())
    await bot.reload_extension("cogs.commands")
    assert registered(bot) == buttons(DecisionButton, LogPageButton, HelpButton, NextMoveButton, ReadySelect)
    assert len(bot.tree.get_commands()) == count
    await bot.unload_extension("cogs.commands")
    assert registered(bot) == {}
    assert bot.tree.get_command("game") is None and [c.name for c in bot.tree.get_commands()] == ["admin"]
    await bot.load_extension("cogs.commands")
    assert registered(bot) == buttons(DecisionButton, LogPageButton, HelpButton, NextMoveButton, ReadySelect)


async def test_the_cogs_package_unloads_and_loads_again(app) -> None:
    bot = SkirmishBot(app)
    await bot.load_cogs()
    count = len(bot.tree.get_commands())
    await bot.unload_extension(COGS)
    assert dict(bot.extensions) == {} and bot.tree.get_commands() == [] and registered(bot) == {}
    await bot.load_cogs()
    assert len(bot.tree.get_commands()) == count
    assert registered(bot) == buttons(DecisionButton, LogPageButton, HelpButton, NextMoveButton, ReadySelect)
