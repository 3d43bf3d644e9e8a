"""/admin: the bot owner's tools (hidden from others by default permissions)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.client import SkirmishBot
from bot.adapter.delivery import deliver_when_ready
from bot.app.replies import Refusal, Reply


@app_commands.default_permissions(administrator=True)
class AdminCog(commands.GroupCog, group_name="admin", group_description="Bot owner tools"):
    def __init__(self, bot: SkirmishBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="sync", description="Send the slash commands to Discord now (bot owner only)")
    async def sync(self, interaction: discord.Interaction) -> None:
        if not await self.bot.is_owner(interaction.user):
            raise Refusal("Only the bot's owner may sync its commands.")

        async def sync() -> Reply:
            scope = await self.bot.sync_commands(force=True)  # several requests to Discord: seconds at worst
            return Reply.note("Commands synced", f"Sent {scope}.")

        await deliver_when_ready(interaction, sync, slow=True)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, SkirmishBot)
    await bot.add_cog(AdminCog(bot))
