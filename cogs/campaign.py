"""/campaign: create, join, show and end the campaign that runs in a channel."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import AppCog, caller_of, deliver, side_autocomplete
from rules import ruleset_titles

RULESET_CHOICES = [app_commands.Choice(name=title, value=slug) for slug, title in ruleset_titles().items()]


class CampaignCog(AppCog, commands.GroupCog, group_name="campaign", group_description="The campaign in this channel"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot  # type: ignore[assignment]
        super().__init__()

    @app_commands.command(name="new", description="Start a campaign in this channel; you become its game master")
    @app_commands.describe(name="The campaign's name", ruleset="The rules it is played by")
    @app_commands.choices(ruleset=RULESET_CHOICES)
    async def new(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100], ruleset: str) -> None:
        await deliver(interaction, await self.app.campaign_new(caller_of(interaction), name, ruleset))

    @app_commands.command(name="join", description="Join this channel's campaign on a side")
    @app_commands.describe(side="The side you will play")
    @app_commands.autocomplete(side=side_autocomplete)
    async def join(self, interaction: discord.Interaction, side: app_commands.Range[str, 1, 32]) -> None:
        await deliver(interaction, await self.app.campaign_join(caller_of(interaction), side))

    @app_commands.command(name="info", description="The campaign's ruleset, game master, players and battles")
    async def info(self, interaction: discord.Interaction) -> None:
        await deliver(interaction, await self.app.campaign_info(caller_of(interaction)))

    @app_commands.command(name="end", description="End the campaign (game master only); its records are kept")
    async def end(self, interaction: discord.Interaction) -> None:
        await deliver(interaction, await self.app.campaign_end(caller_of(interaction)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(CampaignCog(bot))
