"""Thin Discord cogs: parse the interaction, call the application layer, deliver its reply.

The bot loads this package as an extension, by name (``bot.adapter.client.COGS``); its
:func:`setup` loads every cog module that :func:`extensions` lists: the shared ones, then
the rulesets' groups (built from their specs by ``cogs.rulesets``, or a ruleset's own
``cogs.<slug>`` while it declares no specs). The terminal walks the same command tree.
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
    """The shared cogs; ``cogs.rulesets``, which builds the group of every ruleset that declares its
    actions as specs; and the hand-written cog of each ruleset that does not yet."""
    from cogs.rulesets import spec_rulesets
    from rules import RULESETS

    built = spec_rulesets()
    written = tuple(
        f"cogs.{slug}"
        for slug in RULESETS
        if slug not in built and importlib.util.find_spec(f"cogs.{slug}") is not None
    )
    return SHARED + (("cogs.rulesets",) if built else ()) + written


async def setup(bot: commands.Bot) -> None:
    for name in extensions():
        await bot.load_extension(name)


async def teardown(bot: commands.Bot) -> None:
    """Unloading the package unloads every cog it loaded, so it can be loaded again."""
    for name in reversed(extensions()):
        if name in bot.extensions:
            await bot.unload_extension(name)
