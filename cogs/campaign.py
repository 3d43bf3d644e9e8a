"""/campaign: create, join, show and end the campaign that runs in a channel."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.delivery import AppCog, deliver
from bot.adapter.messages import caller_of
from bot.adapter.slash import side_autocomplete
from cogs.common import FILE_HELP, attachment_bytes
from rules import ruleset_titles

RULESET_CHOICES = [app_commands.Choice(name=title, value=slug) for slug, title in ruleset_titles().items()]


class CampaignCog(AppCog, commands.GroupCog, group_name="campaign", group_description="The campaign in this channel"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot  # type: ignore[assignment]
        super().__init__()

    @app_commands.command(name="new", description="Start a campaign in this channel; you become its game master")
    @app_commands.describe(
        name="The campaign's name",
        ruleset="The rules it is played by",
        battlefield="map: the bot keeps the table and measures (default where it can); table: your own",
    )
    @app_commands.choices(ruleset=RULESET_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 100],
        ruleset: str,
        battlefield: Literal["map", "table"] | None = None,
    ) -> None:
        await deliver(interaction, await self.app.campaign_new(caller_of(interaction), name, ruleset, battlefield))

    @app_commands.command(name="battlefield", description="Fight the next battles on the bot's map or a table (GM)")
    @app_commands.describe(mode="map: the bot keeps the positions and measures; table: your own table")
    async def battlefield(self, interaction: discord.Interaction, mode: Literal["map", "table"]) -> None:
        await deliver(interaction, await self.app.campaign_battlefield(caller_of(interaction), mode))

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

    @app_commands.command(
        name="export", description="The whole campaign as a YAML file: settings, house rules, members, rosters"
    )
    async def export(self, interaction: discord.Interaction) -> None:
        await deliver(interaction, await self.app.campaign_export(caller_of(interaction)))

    @app_commands.command(
        name="import", description="Restore a campaign file here (its game master; or start the campaign anew)"
    )
    @app_commands.describe(file="A campaign file from /campaign export")
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        name, data = await attachment_bytes(interaction, file)
        await deliver(interaction, await self.app.campaign_import(caller_of(interaction), name, data))

    @app_commands.command(name="deadline", description="How long a turn may wait, and what happens then (game master)")
    @app_commands.describe(
        hours="Hours a decision or turn may wait (leave out, with then, to clear the deadline)",
        then="At the deadline: pass the turn, or the game master decides",
    )
    async def deadline(
        self,
        interaction: discord.Interaction,
        hours: app_commands.Range[float, 0.5, 720.0] | None = None,
        then: Literal["pass", "gm"] | None = None,
    ) -> None:
        await deliver(interaction, await self.app.set_deadline(caller_of(interaction), hours, then))

    rules = app_commands.Group(name="rules", description="The campaign's house rules")

    @rules.command(name="set", description="Override the ruleset's tables and switches with a YAML file (game master)")
    @app_commands.describe(file=FILE_HELP + ": the keys of the ruleset's tables to change")
    async def rules_set(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        name, data = await attachment_bytes(interaction, file)
        await deliver(interaction, await self.app.rules_set(caller_of(interaction), name, data))

    @rules.command(name="show", description="The house rules in force and the switches the ruleset offers")
    @app_commands.describe(tables="Also attach the ruleset's whole tables.yaml, to see every key")
    async def rules_show(self, interaction: discord.Interaction, tables: bool = False) -> None:
        await deliver(interaction, await self.app.rules_show(caller_of(interaction), tables))

    @rules.command(name="clear", description="Play the ruleset as published again (game master)")
    async def rules_clear(self, interaction: discord.Interaction) -> None:
        await deliver(interaction, await self.app.rules_clear(caller_of(interaction)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(CampaignCog(bot))
