"""/roster: the figures each player brings to the campaign."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.delivery import AppCog, deliver
from bot.adapter.messages import caller_of
from bot.adapter.slash import kind_autocomplete, roster_autocomplete, side_autocomplete
from cogs.common import FILE_HELP, attachment_bytes


class RosterCog(AppCog, commands.GroupCog, group_name="roster", group_description="The campaign's rosters"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot  # type: ignore[assignment]
        super().__init__()

    @app_commands.command(name="add", description="Add a figure to your side's roster")
    @app_commands.describe(
        name="The figure's name",
        kind="Its type, as the suggestions list (SSG: its weapon; NSR: the unit's troops; YASG: its class)",
        side="Its side (default: yours; the game master may give any)",
        stats="Extra stats as key=value pairs, where the ruleset has them",
    )
    @app_commands.autocomplete(kind=kind_autocomplete, side=side_autocomplete)
    async def add(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 64],
        kind: app_commands.Range[str, 1, 32],
        side: app_commands.Range[str, 1, 32] | None = None,
        stats: app_commands.Range[str, 1, 400] | None = None,
    ) -> None:
        await deliver(interaction, await self.app.roster_add(caller_of(interaction), name, kind, side, stats))

    @app_commands.command(name="list", description="Every figure in the campaign, by side")
    @app_commands.autocomplete(side=side_autocomplete)
    async def list_(self, interaction: discord.Interaction, side: app_commands.Range[str, 1, 32] | None = None) -> None:
        await deliver(interaction, await self.app.roster_list(caller_of(interaction), side))

    @app_commands.command(name="show", description="One figure's record")
    @app_commands.autocomplete(name=roster_autocomplete)
    async def show(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 64]) -> None:
        await deliver(interaction, await self.app.roster_show(caller_of(interaction), name))

    @app_commands.command(
        name="export", description="Your side's roster as a YAML file (the game master: any side, or all)"
    )
    @app_commands.describe(side="The side to export (default: yours); the game master may also give all")
    @app_commands.autocomplete(side=side_autocomplete)
    async def export(
        self, interaction: discord.Interaction, side: app_commands.Range[str, 1, 32] | None = None
    ) -> None:
        await deliver(interaction, await self.app.roster_export(caller_of(interaction), side))

    @app_commands.command(name="import", description="Add and update figures from a YAML roster file")
    @app_commands.describe(file=FILE_HELP)
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        name, data = await attachment_bytes(interaction, file)
        await deliver(interaction, await self.app.roster_import(caller_of(interaction), name, data))

    @app_commands.command(name="remove", description="Take a figure off the roster (its owner or the game master)")
    @app_commands.autocomplete(name=roster_autocomplete)
    async def remove(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 64]) -> None:
        await deliver(interaction, await self.app.roster_remove(caller_of(interaction), name))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RosterCog(bot))
