"""Thin Discord cogs: parse the interaction, call the application layer, deliver its reply.

The bot loads this package as an extension, by name (``bot.adapter.client.COGS``); its
:func:`setup` loads every cog module that :func:`extensions` lists: the shared ones, then
``cogs.<slug>`` for each ruleset that has a cog. The terminal walks the same command tree.
"""

from __future__ import annotations

import importlib.util

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
    from rules import RULESETS

    rulesets = tuple(f"cogs.{slug}" for slug in RULESETS if importlib.util.find_spec(f"cogs.{slug}") is not None)
    return SHARED + rulesets


async def setup(bot: commands.Bot) -> None:
    for name in extensions():
        await bot.load_extension(name)


async def teardown(bot: commands.Bot) -> None:
    """Unloading the package unloads every cog it loaded, so it can be loaded again."""
    for name in reversed(extensions()):
        if name in bot.extensions:
            await bot.unload_extension(name)
