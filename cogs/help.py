"""/help: the rulesets, a ruleset's turn, one command's options, built from the command tree the
bot really has (as the terminal's /help is); private to whoever asks, paged with buttons."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.cog import AppCog
from bot.adapter.delivery import deliver
from bot.adapter.help import HelpButton, help_reply, topics


async def topic_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    needle = current.casefold().lstrip("/")
    found = [t for t in topics(interaction.client.tree) if needle in t]  # type: ignore[attr-defined]
    return [app_commands.Choice(name=f"/{t}", value=t) for t in found[:25]]


class HelpCog(AppCog, commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot  # type: ignore[assignment]

    @app_commands.command(name="help", description="The rulesets and commands: a ruleset's turn, one command's options")
    @app_commands.describe(topic="A ruleset (ssg), a group (campaign) or a command (ssg shoot); empty: the contents")
    @app_commands.autocomplete(topic=topic_autocomplete)
    async def help(self, interaction: discord.Interaction, topic: app_commands.Range[str, 1, 60] | None = None) -> None:
        await deliver(interaction, help_reply(self.bot.tree, topic))


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(HelpButton)
    await bot.add_cog(HelpCog(bot))


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(HelpButton)
