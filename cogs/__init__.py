"""The Discord cogs: every command of the application's table, built from its declaration
(``cogs.commands``), and the bot owner's tools (``cogs.admin``).

The bot loads this package as an extension, by name (``bot.adapter.client.COGS``); its
:func:`setup` loads every cog module that :func:`extensions` lists.
"""

from __future__ import annotations

from discord.ext import commands


def extensions() -> tuple[str, ...]:
    return ("cogs.commands", "cogs.admin")


async def setup(bot: commands.Bot) -> None:
    for name in extensions():
        await bot.load_extension(name)


async def teardown(bot: commands.Bot) -> None:
    """Unloading the package unloads every cog it loaded, so it can be loaded again."""
    for name in reversed(extensions()):
        if name in bot.extensions:
            await bot.unload_extension(name)
