"""Thin Discord cogs: parse the interaction, call the application layer, deliver its reply.

The bot loads this package as an extension, by name (``bot.adapter.client.COGS``); its
:func:`setup` loads every cog module that :func:`extensions` lists: the shared ones, then
the rulesets' groups, built from their specs by ``cogs.rulesets``.
"""

from __future__ import annotations

from discord.ext import commands

SHARED = (
    "cogs.campaign",
    "cogs.roster",
    "cogs.game",
    "cogs.map",
    "cogs.decisions",
    "cogs.roll",
    "cogs.odds",
    "cogs.help",
    "cogs.admin",
)


def extensions() -> tuple[str, ...]:
    """The shared cogs, then ``cogs.rulesets``, which builds every ruleset's group from its specs."""
    return (*SHARED, "cogs.rulesets")


async def setup(bot: commands.Bot) -> None:
    for name in extensions():
        await bot.load_extension(name)


async def teardown(bot: commands.Bot) -> None:
    """Unloading the package unloads every cog it loaded, so it can be loaded again."""
    for name in reversed(extensions()):
        if name in bot.extensions:
            await bot.unload_extension(name)
